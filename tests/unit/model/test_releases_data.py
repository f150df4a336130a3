"""matrices/releases.yaml against the recorded PyPI facts (tests/data/recorded/pypi/), offline."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from envgen.infra.resources import MATRICES_DIR
from envgen.model.matrix import Matrix, Release, check_invariants
from envgen.verification.matrix import verify_matrix
from envgen.verification.pypi import PypiFacts

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import pypi_facts
import refresh_releases


@pytest.fixture(scope="module")
def facts() -> PypiFacts:
    return pypi_facts.load_recorded()


@pytest.fixture(scope="module")
def releases() -> Matrix:
    rows = yaml.safe_load((MATRICES_DIR / "releases.yaml").read_text(encoding="utf-8"))
    return Matrix(
        releases=tuple(Release.model_validate(r) for r in rows),
        pip=(),
        conda=(),
        drivers=(),
        known_issues=(),
    )


def _release(matrix: Matrix, torch: str) -> dict[str, Any]:
    rel = matrix.release(torch)
    assert rel is not None
    return rel.model_dump(by_alias=True)


def test_recordings_are_small() -> None:
    size = sum(p.stat().st_size for p in pypi_facts.RECORDED.iterdir())
    assert size < 3 * 1024 * 1024


def test_releases_invariants(releases: Matrix) -> None:
    assert check_invariants(releases) == []


def test_releases_agree_with_pypi(releases: Matrix, facts: PypiFacts) -> None:
    errors = [f for f in verify_matrix(releases, facts) if f.severity == "error"]
    assert errors == []


def test_warnings_are_pre_pypi_releases_and_yanked_0_2(releases: Matrix, facts: PypiFacts) -> None:
    """0.1.12-0.4.x and the 1.8.2 LTS are not on PyPI; every torchvision 0.2.x is yanked there (exact pins still install)."""
    warned = sorted({f.where for f in verify_matrix(releases, facts) if f.severity == "warning"})
    assert warned == [
        "releases.yaml torch 0.1.12",
        "releases.yaml torch 0.2.0",
        "releases.yaml torch 0.3.0",
        "releases.yaml torch 0.3.1",
        "releases.yaml torch 0.4.0",
        "releases.yaml torch 0.4.1",
        "releases.yaml torch 1.0.0 torchvision 0.2.1",
        "releases.yaml torch 1.0.1 torchvision 0.2.2",
        "releases.yaml torch 1.8.2",
    ]


def test_every_pypi_release_has_a_row(releases: Matrix, facts: PypiFacts) -> None:
    assert set(facts.package("torch").versions) <= {r.torch for r in releases.releases}
    assert releases.releases[0].torch == "0.1.12"
    assert releases.releases[-1].torch == "2.15.0"


def test_file_is_what_the_refresh_script_writes(facts: PypiFacts) -> None:
    tables = yaml.safe_load(refresh_releases.TABLES.read_text(encoding="utf-8"))
    regenerated = refresh_releases.dump(refresh_releases.build_rows(facts, tables))
    assert regenerated == (MATRICES_DIR / "releases.yaml").read_text(encoding="utf-8")


def test_spot_1_12_0(releases: Matrix) -> None:
    assert _release(releases, "1.12.0") == {
        "torch": "1.12.0",
        "torchvision": "0.13.0",
        "torchaudio": "0.12.0",
        "python": ("3.7", "3.8", "3.9", "3.10"),
        "pypi-wheels": tuple(
            {"platform": p, "python": ("3.7", "3.8", "3.9", "3.10")}
            for p in ("linux-64", "linux-aarch64", "osx-64", "osx-arm64", "win-64")
        ),
        "date": "2022-06-28",
        "source": "pypi",
        "inferred": (),
    }


def test_spot_2_1_0(releases: Matrix) -> None:
    assert _release(releases, "2.1.0") == {
        "torch": "2.1.0",
        "torchvision": "0.16.0",
        "torchaudio": "2.1.0",
        "python": ("3.8", "3.9", "3.10", "3.11"),
        "pypi-wheels": tuple(
            {"platform": p, "python": ("3.8", "3.9", "3.10", "3.11")}
            for p in ("linux-64", "linux-aarch64", "osx-64", "osx-arm64", "win-64")
        ),
        "date": "2023-10-04",
        "source": "pypi",
        "inferred": (),
    }


def test_spot_2_0_0_uses_the_pip_pairing(releases: Matrix) -> None:
    rel = _release(releases, "2.0.0")
    assert (rel["torchvision"], rel["torchaudio"]) == ("0.15.1", "2.0.1")


def test_inferred_rows_name_their_fields(releases: Matrix) -> None:
    inferred = {r.torch: r.inferred for r in releases.releases if r.inferred}
    assert inferred == {
        "0.1.12": ("torchvision", "python", "date"),
        "0.2.0": ("torchvision", "python", "date"),
        "0.3.0": ("torchvision", "python", "date"),
        "0.3.1": ("torchvision", "python", "date"),
        "0.4.0": ("torchvision", "python", "date"),
        "0.4.1": ("torchvision", "python", "date"),
        "1.0.0": ("torchvision",),
        "1.0.1": ("torchvision",),
        "1.1.0": ("torchvision",),
        "1.8.2": ("torchvision", "torchaudio", "python", "date"),
        "2.11.0": ("torchaudio",),
        "2.12.0": ("torchaudio",),
        "2.12.1": ("torchaudio",),
        "2.13.0": ("torchaudio",),
        "2.14.0": ("torchaudio",),
        "2.14.1": ("torchvision", "torchaudio"),
        "2.15.0": ("torchvision", "torchaudio"),
    }


def test_pythons_per_platform_from_pypi_files(releases: Matrix) -> None:
    # issue 29 item 7: 1.10.2's cp310 wheel on PyPI is linux-aarch64's only; 1.13's cp311 is
    # linux-64's only; 2.5's cp313 is missing for linux-aarch64, osx-arm64 and win-64.
    by_platform = {
        r.torch: {w.platform: w.python for w in r.pypi_wheels} for r in releases.releases
    }
    assert by_platform["1.10.2"] == {
        "linux-64": ("3.6", "3.7", "3.8", "3.9"),
        "linux-aarch64": ("3.6", "3.7", "3.8", "3.9", "3.10"),
        "osx-64": ("3.6", "3.7", "3.8", "3.9"),
        "osx-arm64": ("3.8", "3.9"),
        "win-64": ("3.6", "3.7", "3.8", "3.9"),
    }
    assert by_platform["1.13.1"]["linux-64"][-1] == "3.11"
    assert by_platform["1.13.1"]["win-64"][-1] == "3.10"
    assert by_platform["2.5.1"]["win-64"][-1] == "3.12"
    assert by_platform["1.8.2"] == {}  # not on PyPI
    gaps = [
        r.torch
        for r in releases.releases
        if any(set(r.python) - set(w.python) for w in r.pypi_wheels)
    ]
    assert gaps == [
        "1.3.0", "1.5.0", "1.8.0", "1.9.0", "1.10.0", "1.10.1", "1.10.2", "1.11.0",
        "1.13.0", "1.13.1", "2.5.0", "2.5.1",
    ]  # fmt: skip
