"""The committed matrices/schema.json matches the models, and the shipped matrix loads clean."""

from __future__ import annotations

import json
from pathlib import Path

from envgen.model.matrix import check_invariants, load_matrix, matrix_json_schema

ROOT = Path(__file__).parents[2]


def test_committed_schema_is_current() -> None:
    committed = json.loads((ROOT / "matrices" / "schema.json").read_text(encoding="utf-8"))
    assert committed == matrix_json_schema(), "run `make schema`"


def test_shipped_matrix_is_consistent() -> None:
    matrix = load_matrix()
    assert check_invariants(matrix) == []
    assert matrix.releases[0].torch == "0.4.0"
    assert matrix.releases[-1].torch == "2.15.0"
    for pip in matrix.pip:
        assert pip.source, pip
    for conda in matrix.conda:
        assert conda.source, conda
