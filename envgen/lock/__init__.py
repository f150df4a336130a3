"""The lock stage: rendered inputs -> full locks with hashes (uv, pip-tools, py-rattler).

orchestrate  which variants to lock, staleness, writing lock files (what `envgen lock` does)
options      LockOptions (what `envgen lock` is asked) and LockResult (what it did)
piplock      PipLock: requirements.txt as a typed record, its one strict parse and one render
condalock    CondaLock: conda-lock.yml as a typed record, its one strict parse and one render
lockfile     lock file names, the header, input hash, lock-options, full-lock detection
fileset      a variant's files written as one set (inputs and locks together, or not at all)
verify       a committed lock against a fresh resolution of its inputs (and the matrix's pins)
locker       the Locker protocol, LockRequest, LockedFile
pip          uv pip compile / pip-compile
legacy       python 2.7 / 3.5 (uv cannot target them): pip 20.3.4 under that python
conda        py-rattler solves and conda-lock files
stale        whether a committed lock still matches its inputs
rename       a full lock carried over to a renamed variant whose inputs it still answers
"""
