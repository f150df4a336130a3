"""Rendered pins-only files compared byte for byte with tests/data/specs/<scenario>/expected/.

A difference fails. ENVGEN_UPDATE_GOLDEN=1 rewrites the expected files that differ and still
fails that run (review the diff, then run again without it); a run without it never writes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from envgen.render.indexes import IndexUrls
from envgen.render.plan import plan_pins_only, write_planned

DATA = Path(__file__).parents[2] / "data"
# Read at import: the hermetic-env fixture drops ENVGEN_* variables before each test runs.
UPDATE = os.environ.get("ENVGEN_UPDATE_GOLDEN") == "1"
SCENARIOS = sorted(p.name for p in (DATA / "specs").iterdir() if (p / "project.yaml").exists())


def _files(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _differences(produced: Path, expected: Path) -> list[str]:
    """What differs between the two trees (empty when they are the same, byte for byte)."""
    got, want = _files(produced), _files(expected)
    return sorted(
        [f"{rel}: produced, not expected" for rel in got.keys() - want.keys()]
        + [f"{rel}: expected, not produced" for rel in want.keys() - got.keys()]
        + [f"{rel}: differs" for rel in got.keys() & want.keys() if got[rel] != want[rel]]
    )


def _snapshot(folder: Path) -> str:
    """A digest of every path, byte and mtime under `folder`: any write changes it."""
    digest = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        digest.update(f"{p.relative_to(folder)}\0{p.stat().st_mtime_ns}\0".encode())
        if p.is_file():
            digest.update(p.read_bytes())
    return digest.hexdigest()


def _render(scenario: str, tmp_path: Path) -> Path:
    shutil.copy(DATA / "specs" / scenario / "project.yaml", tmp_path / "project.yaml")
    spec = load_spec(tmp_path / "project.yaml")
    out = tmp_path / "environments"
    _, files = plan_pins_only(
        spec, load_matrix(DATA / "matrix-mini"), out=out, urls=IndexUrls(), custom_command=None
    )
    write_planned(out, files)
    return out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_golden(scenario: str, tmp_path: Path) -> None:
    expected_dir = DATA / "specs" / scenario / "expected"
    before = _snapshot(expected_dir)
    out = _render(scenario, tmp_path)
    differences = _differences(out, expected_dir)
    if UPDATE and differences:
        shutil.rmtree(expected_dir)
        shutil.copytree(out, expected_dir)
        pytest.fail(
            f"ENVGEN_UPDATE_GOLDEN=1 rewrote {expected_dir}: {differences}; review the diff "
            "and run again without it"
        )
    assert differences == [], f"{scenario}: set ENVGEN_UPDATE_GOLDEN=1 to rewrite expected/"
    assert _snapshot(expected_dir) == before, "a golden run without the update flag wrote"


def test_golden_comparison_catches_every_kind_of_difference(tmp_path: Path) -> None:
    """The comparison itself: a changed byte, a missing file and an extra file each show."""
    expected = tmp_path / "expected"
    shutil.copytree(DATA / "specs" / SCENARIOS[0] / "expected", expected)
    out = _render(SCENARIOS[0], tmp_path)
    assert _differences(out, expected) == []
    first, *rest = sorted(p for p in expected.rglob("*") if p.is_file())
    first.write_bytes(first.read_bytes() + b"\n")
    (expected / "extra.txt").write_text("x")
    assert rest, "the first scenario renders one file only"
    rest[0].unlink()
    assert _differences(out, expected) == sorted(
        [
            f"{first.relative_to(expected)}: differs",
            "extra.txt: expected, not produced",
            f"{rest[0].relative_to(expected)}: produced, not expected",
        ]
    )
    before = _snapshot(expected)
    (expected / "extra.txt").touch()
    assert _snapshot(expected) != before, "the snapshot must see a write"


def test_the_default_run_does_not_update() -> None:
    """An update run is never green: it rewrites, then this (and each rewritten scenario) fails."""
    assert not UPDATE
