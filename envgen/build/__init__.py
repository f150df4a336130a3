"""The build stage: locks -> environments on disk, verified against the lock.

orchestrate  which variants to build, in what order, then smoke (what `envgen build` does)
builder      the Builder protocol, BuildRequest, Inventory (what a lock promises), installed
             distributions and their diff with the lock, disk usage, prefix rewriting
options      BuildOptions (what `envgen build` is asked)
bytecode     the shared store of path-free .pyc: link, compile now or in the background
pyc_job      the compile job, run by an environment's own python (standard library only)
venv         uv venv + uv pip sync
conda        py-rattler installs
running      `envgen run`: a command inside a built environment
"""
