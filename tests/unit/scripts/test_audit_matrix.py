"""scripts/audit_matrix.py (issue 23 item 4), offline: the recorded PyPI files and pages stand in
for the live artifacts. A sample of the shipped matrix has no wrong row, and a row changed from
what its artifact says is reported wrong."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import audit_matrix  # noqa: E402

SRC = audit_matrix.Sources(offline=True, mirrors=Path("/nonexistent"))


def _rows(name: str) -> list[dict]:  # type: ignore[type-arg]
    return list(yaml.safe_load((ROOT / "matrices" / name).read_text(encoding="utf-8")))


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_sample_has_no_wrong_row() -> None:
    checks = audit_matrix.audit(
        40, 23, SRC, ("releases", "companions", "pip", "conda", "conda-forge", "drivers")
    )
    assert [c for c in checks if c.verdict == "wrong"] == []
    by_family = {f: [c.verdict for c in checks if c.family == f] for f in ("pip", "releases")}
    # 11 of seed 23's 40 pip rows are hand-curated (unverifiable offline), 2.10.0 cu129 among them
    assert by_family["pip"].count("right") >= 29
    assert by_family["releases"].count("right") >= 35
    # Without mirrors, conda-forge cannot be derived again: said, not guessed.
    assert {c.verdict for c in checks if c.family == "conda-forge"} == {"unverifiable"}
    assert {c.verdict for c in checks if c.family == "drivers"} == {"unverifiable"}


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
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


def test_gpu_arch_rows_are_checked_against_their_recorded_artifacts() -> None:
    """Offline and without mirrors: script rows against the recorded evaluation of their commit,
    wheel rows against the recorded wheels; a row a release could not be derived for is not."""
    rows = [r for r in _rows("gpu-archs.yaml") if r.get("cuda")]
    script = next(
        r for r in rows if r["source"].endswith("build_cuda.sh") and not r.get("inferred")
    )
    wheel = next(
        r for r in rows if r["source"].startswith("pypi-wheel:") and "x86_64" in r["source"]
    )
    carried = next(
        r
        for r in rows
        if str(r.get("note", "")).startswith("rule: not derived")
        and "pytorch/pytorch" in r["source"]
    )
    checks = audit_matrix.check_gpu_archs([script, wheel, carried], SRC)
    assert [c.verdict for c in checks] == ["right", "right", "unverifiable"]
    assert "the recorded evaluation" in checks[0].how
    assert "rule: not derived" in checks[2].how
    bad = {**script, "arch-list": script["arch-list"] + ";12.0"}
    (check,) = audit_matrix.check_gpu_archs([bad], SRC)
    assert check.verdict == "wrong"
    (check,) = audit_matrix.check_gpu_archs([{**wheel, "arch-list": "5.0"}], SRC)
    assert check.verdict == "wrong"


def _extension_rows(name: str) -> list[dict]:  # type: ignore[type-arg]
    return [r for r in audit_matrix._load("extensions.yaml") if r["name"] == name]


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_pyg_extension_rows_are_checked_against_the_workflow_expansion() -> None:
    row = next(r for r in _extension_rows("torch-scatter") if r["versions"] == ["2.1.2"])
    (good,) = audit_matrix.check_extensions([row], SRC)
    assert good.verdict == "right", good.how
    (missing,) = audit_matrix.check_extensions([{**row, "python": [*row["python"], "3.99"]}], SRC)
    assert missing.verdict == "wrong"
    short = {**row, "accelerators": row["accelerators"][:1]}
    if len(row["accelerators"]) > 1:  # the workflow builds the others too with those pythons
        (check,) = audit_matrix.check_extensions([short], SRC)
        assert (check.verdict, "also builds" in check.how) == ("wrong", True)
    # mmcv's rows cite the install table or selector at a commit: re-read (derive_ext_mm.py)
    (mmcv,) = audit_matrix.check_extensions(_extension_rows("mmcv")[:1], SRC)
    assert mmcv.verdict == "right"
    (bad,) = audit_matrix.check_extensions(
        [{**_extension_rows("mmcv")[0], "accelerators": ["cu999"]}], SRC
    )
    assert bad.verdict == "wrong"


def test_xformers_rows_are_derived_again_from_tag_and_pypi_files() -> None:
    row = next(
        r
        for r in _extension_rows("xformers")
        if r["versions"] == ["0.0.30"] and r["platforms"] == ["win-64"]
    )
    (good,) = audit_matrix.check_extensions([row], SRC)
    assert good.verdict == "right", good.how
    (bad,) = audit_matrix.check_extensions(
        [{**row, "accelerators": ["cu118", *row["accelerators"]]}], SRC
    )
    assert bad.verdict == "wrong"


def test_spconv_rows_are_checked_against_the_package_files() -> None:
    row = next(r for r in _extension_rows("spconv") if r["package"] == "spconv-cu118")
    (good,) = audit_matrix.check_extensions([row], SRC)
    assert good.verdict == "right", good.how
    (bad,) = audit_matrix.check_extensions([{**row, "python": ["3.6", *row["python"]]}], SRC)
    assert bad.verdict == "wrong"


def test_rocm_rows_are_checked_against_their_release_branch_evaluation() -> None:
    """A ROCm row from a builder release branch: the recorded evaluation of build_docker.sh at
    its commit; a changed gfx list is wrong; a main-branch (inferred) row is unverifiable."""
    rows = [r for r in _rows("gpu-archs.yaml") if r.get("rocm")]
    derived = next(r for r in rows if r["source"].startswith("pytorch/builder@"))
    inferred = next(r for r in rows if r.get("inferred"))
    checks = audit_matrix.check_gpu_archs([derived, inferred], SRC)
    assert [c.verdict for c in checks] == ["right", "unverifiable"]
    assert "rocm-build-scripts.json" in checks[0].how
    assert "rule: not derived" in checks[1].how
    dropped = {**derived, "arch-list": derived["arch-list"].replace("gfx908;", "")}
    (check,) = audit_matrix.check_gpu_archs([dropped], SRC)
    assert check.verdict == "wrong"


def test_every_matrix_file_has_an_audit_family() -> None:
    files = {p.name for p in (ROOT / "matrices").glob("*.yaml")}
    assert set(audit_matrix.FILES.values()) == files
    assert set(audit_matrix.FILES) == set(audit_matrix.FAMILIES)


def test_era_rows_are_derived_again_from_upload_times() -> None:
    rows = audit_matrix._load("era.yaml")[:3]
    assert [c.verdict for c in audit_matrix.check_era(rows, SRC)] == ["right"] * 3
    moved = {**rows[1], "date": "2019-01-01"}
    (check,) = audit_matrix.check_era([moved], SRC)
    assert check.verdict == "wrong"
    assert "the row says 2019-01-01" in check.how


def test_a_pypi_route_naming_a_wheel_pypi_lacks_is_wrong() -> None:
    row = audit_matrix._load("pypi-routes.yaml")[0]
    (check,) = audit_matrix.check_pypi_routes([row], SRC)
    assert check.verdict == "unverifiable"  # offline: the recorded list keeps no hashes
    gone = {**row, "evidence": row["evidence"].replace("cp38-cp38", "cp38-cp38x")}
    (check,) = audit_matrix.check_pypi_routes([gone], SRC)
    assert check.verdict == "wrong"


def test_sectioned_files_are_read_per_section() -> None:
    rows = audit_matrix._load("inferred-builds.yaml")
    assert {r["_section"] for r in rows} == {"pip", "conda"}
    checks = audit_matrix.check_inferred_builds(rows[:5] + rows[-5:], SRC)
    assert {c.family for c in checks} == {"inferred-builds"}
    assert all(c.verdict != "wrong" for c in checks)
