"""The committed matrices/schema.json matches the models, and the shipped matrix loads clean."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model.matrix import check_invariants, load_matrix, matrix_json_schema

ROOT = Path(__file__).parents[3]


def test_committed_schema_is_current() -> None:
    committed = json.loads((ROOT / "matrices" / "schema.json").read_text(encoding="utf-8"))
    assert committed == matrix_json_schema(), "run `make schema`"


def test_shipped_matrix_is_consistent() -> None:
    matrix = load_matrix()  # raises MatrixError when an invariant is broken
    assert matrix.releases[0].torch == "0.1.12"
    assert matrix.releases[-1].torch == "2.15.0"
    for pip in matrix.pip:
        assert pip.source, pip
    for conda in matrix.conda:
        assert conda.source, conda


def test_invariants_catch_a_broken_copy_of_the_shipped_matrix() -> None:
    """check_invariants on the shipped matrix with its first release repeated at the end."""
    matrix = load_matrix()
    first = matrix.releases[0]
    broken = matrix.model_copy(update={"releases": (*matrix.releases, first)})
    assert check_invariants(broken)[:2] == [
        "releases.yaml: rows must be sorted by torch version, oldest first",
        f"releases.yaml: torch {first.torch} is listed twice",
    ]


def test_load_matrix_refuses_a_broken_copy_on_disk(tmp_path: Path) -> None:
    """The same break written into a copy of matrices/: the load itself must fail."""
    copy = tmp_path / "matrices"
    shutil.copytree(MATRICES_DIR, copy)
    releases = copy / "releases.yaml"
    rows = [
        line for line in releases.read_text(encoding="utf-8").splitlines() if line.startswith("- ")
    ]
    releases.write_text(releases.read_text(encoding="utf-8") + rows[0] + "\n", encoding="utf-8")
    with pytest.raises(
        MatrixError, match=r"(?s)the matrix is inconsistent\n.*torch 0\.1\.12 is listed twice"
    ):
        load_matrix(copy)
