"""The build stage: locks -> environments on disk, verified against the lock.

orchestrate  which variants to build, in what order, then smoke (what `envgen build` does)
base         the Builder protocol, requirement parsing, inventory, disk usage
bytecode     the shared store of path-free .pyc: link, compile now or in the background
pyc_job      the compile job, run by an environment's own python (standard library only)
venv         uv venv + uv pip sync
conda        py-rattler installs
running      `envgen run`: a command inside a built environment
"""
