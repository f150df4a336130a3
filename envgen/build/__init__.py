"""The build stage: locks -> environments on disk, verified against the lock.

orchestrate  which variants to build, in what order, then smoke (what `envgen build` does)
base         the Builder protocol, requirement parsing, inventory, disk usage, bytecode store
venv         uv venv + uv pip sync
conda        py-rattler installs
running      `envgen run`: a command inside a built environment
"""
