"""The smoke stage: a built environment -> a report of what works (CPU and GPU).

report  runs the check script with the environment's python and reads its JSON
script  the check script itself (standard library + torch only; python 3.6 and later)
script27  its twin for python 2.7 and 3.5 environments (same checks, names and report)
"""
