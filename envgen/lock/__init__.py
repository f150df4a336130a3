"""The lock stage: rendered inputs -> full locks with hashes (uv, pip-tools, py-rattler).

orchestrate  which variants to lock, staleness, writing lock files (what `envgen lock` does)
base         the Locker protocol, LockRequest, LockedFile
pip          uv pip compile / pip-compile
conda        py-rattler solves and conda-lock files
stale        whether a committed lock still matches its inputs
"""
