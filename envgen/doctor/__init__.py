"""`envgen doctor` and `build --variant auto`: judging a machine against the matrix.

host      what this machine has: driver, GPUs and their compute capability, glibc, platform, ROCm
verdicts  whether each variant can run there: driver floors and compiled GPU architectures
explain   what a classic torch error message means, with its cause and fix; bounded log reads
"""
