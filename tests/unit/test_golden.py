"""Rendered pins-only files compared byte for byte with tests/data/specs/<scenario>/expected/.

ENVGEN_UPDATE_GOLDEN=1 rewrites the expected files (review the diff before committing).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from envgen.render.base import IndexUrls
from envgen.render.plan import plan_pins_only, write_planned

DATA = Path(__file__).parents[1] / "data"
# Read at import: the hermetic-env fixture drops ENVGEN_* variables before each test runs.
UPDATE = os.environ.get("ENVGEN_UPDATE_GOLDEN") == "1"
SCENARIOS = sorted(p.name for p in (DATA / "specs").iterdir() if (p / "project.yaml").exists())


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_golden(scenario: str, tmp_path: Path) -> None:
    src = DATA / "specs" / scenario
    shutil.copy(src / "project.yaml", tmp_path / "project.yaml")
    spec = load_spec(tmp_path / "project.yaml")
    out = tmp_path / "environments"
    _, files = plan_pins_only(
        spec, load_matrix(DATA / "matrix-mini"), out=out, urls=IndexUrls(), custom_command=None
    )
    write_planned(out, files)
    expected_dir = src / "expected"
    produced = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    if UPDATE:
        shutil.rmtree(expected_dir, ignore_errors=True)
        shutil.copytree(out, expected_dir)
    expected = sorted(p.relative_to(expected_dir) for p in expected_dir.rglob("*") if p.is_file())
    assert produced == expected
    for rel in produced:
        assert (out / rel).read_bytes() == (expected_dir / rel).read_bytes(), (
            f"{scenario}/{rel} differs"
        )
