"""The model stage: what a project asks for and what the matrix admits. Pure: no I/O beyond
reading matrices/ (through envgen.infra.resources) and the spec file.

    types       shared literals, constants and small value types (Platform, Manager, CondaTool,
                TORCH_FAMILY, the PyPI / PyTorch / anaconda roots, ...)
    spec        project.yaml -> ProjectSpec (validated, bounded): the runtime reader
    spec_schema the pydantic models that define project.yaml (and give its JSON Schema; not
                read at start-up)
    spec_rules  the keys, choices and patterns the runtime reader uses (generated from
                spec_schema by `make schema`)
    pythons     which CPython patch release a variant's python resolves for
    matrix      matrices/*.yaml -> Matrix (frozen runtime rows, built from the validated JSON)
    matrix_schema  the pydantic models that validate the matrix files (and give schema.json)
    extensions  extension packages (PyG, mmcv, ...) and the wheel pages they come from
    variants    ProjectSpec x Matrix -> one Variant per accelerator (spec -> matrix -> variants);
                `silenced`, the one test of a known issue's silenced-by
    targets     matrices/targets.yaml -> Targets: per-platform facts (uv platform, markers, glibc,
                conda virtual packages, host -> platform)
    targets_schema  the pydantic models that define a valid targets.yaml (not read at start-up)
    era         an old release's resolution date (matrices/era.yaml + a window) and the known
                incompatibilities applied as constraints (matrices/incompatibilities.yaml)
"""
