"""Loading a spec and the matrix, and expanding them: what every command starts from.

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

from pathlib import Path

from envgen.infra.settings import Settings
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import ProjectSpec, load_spec
from envgen.model.variants import (
    Expansion,
    expand,
)


def load(
    spec_path: Path, matrix_dir: Path | None, settings: Settings
) -> tuple[ProjectSpec, Matrix]:
    return load_spec(spec_path, cache_root=settings.cache_root), load_matrix(
        matrix_dir, cache_root=settings.cache_root
    )


def expand_spec(spec_path: Path, matrix_dir: Path | None, settings: Settings) -> Expansion:
    spec, matrix = load(spec_path, matrix_dir, settings)
    return expand(spec, matrix)
