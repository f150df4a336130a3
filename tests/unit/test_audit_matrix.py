"""scripts/audit_matrix.py (issue 23 item 4), offline: the recorded PyPI files and pages stand in
for the live artifacts. A sample of the shipped matrix has no wrong row, and a row changed from
what its artifact says is reported wrong."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import audit_matrix  # noqa: E402

SRC = audit_matrix.Sources(offline=True, mirrors=Path("/nonexistent"))


def _rows(name: str) -> list[dict]:  # type: ignore[type-arg]
    return list(yaml.safe_load((ROOT / "matrices" / name).read_text(encoding="utf-8")))


def test_sample_has_no_wrong_row() -> None:
    checks = audit_matrix.audit(
        40, 23, SRC, ("releases", "companions", "pip", "conda", "conda-forge", "drivers")
    )
    assert [c for c in checks if c.verdict == "wrong"] == []
    by_family = {f: [c.verdict for c in checks if c.family == f] for f in ("pip", "releases")}
    assert by_family["pip"].count("right") >= 30
    assert by_family["releases"].count("right") >= 35
    # Without mirrors, conda-forge cannot be derived again: said, not guessed.
    assert {c.verdict for c in checks if c.family == "conda-forge"} == {"unverifiable"}
    assert {c.verdict for c in checks if c.family == "drivers"} == {"unverifiable"}


def test_same_seed_same_sample() -> None:
    one = audit_matrix.audit(5, 7, SRC, ("pip",))
    assert one == audit_matrix.audit(5, 7, SRC, ("pip",))
    assert [c.row for c in one] != [c.row for c in audit_matrix.audit(5, 8, SRC, ("pip",))]


def test_a_release_row_that_promises_a_python_is_wrong() -> None:
    (row,) = [r for r in _rows("releases.yaml") if r["torch"] == "1.10.2"]
    wheels = [
        {**w, "python": [*w["python"], "3.10"]} if w["platform"] == "linux-64" else w
        for w in row["pypi-wheels"]
    ]
    (check,) = audit_matrix.check_releases([{**row, "pypi-wheels": wheels}], SRC)
    assert check.verdict == "wrong"
    assert "pypi-wheels" in check.how


def test_a_page_row_whose_command_is_on_no_page_is_wrong() -> None:
    (row,) = [
        r
        for r in _rows("conda.yaml")
        if r["release"] == "1.12.0" and r.get("version") == "11.6" and not r.get("inferred")
    ]
    (good,) = audit_matrix.check_builds("conda", [row], SRC)
    assert good.verdict == "right"
    (bad,) = audit_matrix.check_builds("conda", [{**row, "version": "11.7"}], SRC)
    assert (bad.verdict, bad.how) == (
        "wrong",
        "`conda install pytorch==1.12.0 torchvision==0.13.0 torchaudio==0.12.0 cudatoolkit=11.7 "
        "-c pytorch -c conda-forge` is on no recorded page",
    )


def test_a_pypi_row_for_a_platform_pypi_lacks_is_wrong() -> None:
    (row,) = [
        r
        for r in _rows("pip.yaml")
        if r["release"] == "1.0.0" and r["index"] == "pypi" and r["kind"] == "cuda"
    ]
    (good,) = audit_matrix.check_builds("pip", [row], SRC)
    assert good.verdict == "right"
    # PyPI never had a Windows torch 1.0.0 wheel (linux-64 and osx-64 only).
    (check,) = audit_matrix.check_builds("pip", [{**row, "platforms": ["win-64"]}], SRC)
    assert (check.verdict, check.how) == ("wrong", "no torch 1.0.0 wheel for win-64")


def test_arch_list_as_the_wheel_records_it() -> None:
    assert audit_matrix._arch_flags("7.5;8.0;9.0;12.0+PTX") == {
        "sm_75",
        "sm_80",
        "sm_90",
        "sm_120",
        "compute_120",
    }


def test_gpu_arch_rows_offline_are_unverifiable_with_their_source() -> None:
    rows = [r for r in _rows("gpu-archs.yaml") if r.get("cuda")][:3]
    checks = audit_matrix.check_gpu_archs(rows, SRC)
    assert [c.verdict for c in checks] == ["unverifiable"] * 3
    assert all(r["source"] in c.how for r, c in zip(rows, checks, strict=True))
