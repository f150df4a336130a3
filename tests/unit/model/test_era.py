"""Era-aware resolution (envgen.model.era): the shipped data, the date rule, the constraints,
and the lock hook's choice of date (no processes, no network)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
from pathlib import Path

import pytest
import yaml

from envgen.infra.resources import MATRICES_DIR
from envgen.lock import pip as pip_lock
from envgen.lock.locker import LockRequest
from envgen.model import era
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import pypi_facts
import refresh_era
from refresh_matrix import dump_rows


def test_era_file_is_what_the_refresh_script_writes() -> None:
    releases = yaml.safe_load((MATRICES_DIR / "releases.yaml").read_text(encoding="utf-8"))
    rows = refresh_era.build_rows(pypi_facts.load_recorded(), releases)
    text = dump_rows(rows, refresh_era.HEADER, scalar=json.dumps, defaults={})
    assert (MATRICES_DIR / "era.yaml").read_text(encoding="utf-8") == text


def test_era_rows_read_from_upload_times() -> None:
    rows = era.load_era()
    # torch 1.0.1 went up on 2019-02-05 (releases.yaml); torchvision 0.2.2 three weeks later.
    assert rows["1.0.1"] == era.EraRow("1.0.1", dt.date(2019, 2, 27), "torchvision 0.2.2")
    assert rows["1.6.0"].date == dt.date(2020, 7, 28)
    assert all(r.date >= dt.date(2018, 12, 7) for r in rows.values())


@pytest.mark.parametrize(
    ("release", "date"),
    [
        ("1.0.1", dt.date(2019, 5, 28)),  # before Pillow 7.0.0 (2020-01-02)
        ("1.6.0+cu102", dt.date(2020, 10, 26)),  # local labels do not matter
        ("1.13.1", dt.date(2023, 3, 15)),
        ("2.0.0", None),  # from 2.0: no era date by default
        ("0.4.1", None),  # not on PyPI: no upload dates
    ],
)
def test_era_decision(release: str, date: dt.date | None) -> None:
    decision = era.era_decision(release, era.load_era())
    assert decision.date == date
    if date is not None:
        assert "plus 90 days; set lock.exclude_newer (or --as-of)" in decision.reason


def test_incompatibility_rows_are_sourced_and_valid() -> None:
    rows = era.load_incompatibilities()
    assert [r.id for r in rows] == [
        "pillow7-with-torchvision-before-0.5",
        "numpy2-with-torch-before-2.3",
        "setuptools-59.6-distutils-version",
    ]
    assert all(r.link.startswith("https://github.com/") for r in rows)
    assert [r.package for r in rows] == ["pillow", "numpy", "setuptools"]


def _ids(torch: str, vision: str | None, named: list[str]) -> list[str]:
    return [r.id for r in era.constraints_for(torch, vision, named, era.load_incompatibilities())]


def test_constraints_for() -> None:
    assert _ids("1.0.1", "0.2.2", []) == [
        "pillow7-with-torchvision-before-0.5",
        "numpy2-with-torch-before-2.3",
    ]
    assert _ids("1.4.0", "0.5.0", []) == ["numpy2-with-torch-before-2.3"]
    assert _ids("1.10.0+cu102", "0.11.1+cu102", []) == [
        "numpy2-with-torch-before-2.3",
        "setuptools-59.6-distutils-version",
    ]
    assert _ids("2.3.0", "0.18.0", []) == []
    assert _ids("1.0.1", None, []) == ["numpy2-with-torch-before-2.3"]  # no torchvision
    # A package the spec's pip: list names is the spec's to decide.
    assert _ids("1.0.1", "0.2.2", ["Pillow>=8", "numpy"]) == []


def _variant(torch: str, python: str, accelerator: str, extra: str = "") -> Variant:
    text = (
        f'name: t\npython: "{python}"\ntorch: "{torch}"\naccelerators: [{accelerator}]\n'
        f"platforms: [linux-64]\nmanagers: [pip]\n{extra}"
    )
    (variant,) = expand(parse_spec(text, path=Path("project.yaml")), load_matrix()).variants
    return variant


def _request(variant: Variant, tmp_path: Path, date: dt.date | None) -> LockRequest:
    return LockRequest(
        variant=variant,
        urls=IndexUrls(),
        written_urls=IndexUrls(),
        conda_channels={},
        exclude_newer=date,
        resolver="uv",
        upgrade=False,
        upgrade_packages=(),
        previous={},
        workdir=tmp_path,
        cache_dir=None,
    )


def test_the_lock_takes_the_era_date_only_without_a_date_of_its_own(tmp_path: Path) -> None:
    old = _variant("1.0.1", "3.7", "cu90")
    assert pip_lock._with_era(_request(old, tmp_path, None)).exclude_newer == dt.date(2019, 5, 28)
    own = dt.date(2019, 12, 1)
    assert pip_lock._with_era(_request(old, tmp_path, own)).exclude_newer == own
    new = _request(_variant("2.0.1", "3.10", "cu117"), tmp_path, None)
    assert pip_lock._with_era(new).exclude_newer is None


def test_the_constraints_file(tmp_path: Path) -> None:
    pip_lock._write_constraints(_request(_variant("1.0.1", "3.7", "cu90"), tmp_path, None))
    assert (tmp_path / "envgen-constraints.txt").read_text(encoding="utf-8") == (
        "pillow<7  # pillow7-with-torchvision-before-0.5: https://github.com/pytorch/vision/issues/1712\n"
        "numpy<2  # numpy2-with-torch-before-2.3: https://github.com/pytorch/pytorch/issues/107302\n"
    )
    named = _variant("1.0.1", "3.7", "cu90", 'pip: ["pillow==6.2.2", "numpy<1.17"]\n')
    other = tmp_path / "named"
    other.mkdir()
    pip_lock._write_constraints(_request(named, other, None))
    assert not (other / "envgen-constraints.txt").exists()


def test_era_inputs_only_where_an_era_date_applies() -> None:
    assert era.era_inputs(_variant("1.0.1", "3.7", "cu90")) == {
        "era": "2019-05-28",
        "era-constraints": ["pillow7-with-torchvision-before-0.5", "numpy2-with-torch-before-2.3"],
    }
    assert era.era_inputs(_variant("2.0.1", "3.10", "cu117")) == {}
    assert dataclasses.is_dataclass(era.EraDecision)
