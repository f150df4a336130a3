"""extensions.yaml's PyG build rows derived per tag from the wheel workflow (scripts/derive_extensions.py).

Offline: the derivation reads tests/data/recorded/extensions/<name>.json (per commit of each
project: its version and the expanded matrix of .github/workflows/building.yml).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.model.extensions import Target, resolve
from envgen.model.matrix import load_matrix

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import derive_extensions as dex  # noqa: E402


def test_the_file_is_what_the_derivation_writes() -> None:
    text = dex.MATRIX.read_text()
    derived, _old = dex.derive_all(text)
    assert set(derived) == {*dex.PROJECTS, "xformers", "spconv"}
    assert dex.render(text, derived) == text, "run python scripts/derive_extensions.py --write"


WORKFLOW = """
name: Building Wheels
on: [workflow_dispatch]
jobs:
  wheel:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [ubuntu-22.04, macos-14, windows-2022, ubuntu-22.04-arm]
        python-version: ['3.9', '3.13']
        torch-version: [2.5.0, 2.6.0]
        cuda-version: ['cpu', 'cu124', 'cu126']
        exclude:
          - torch-version: 2.5.0
            cuda-version: 'cu126'
          - torch-version: 2.5.0
            python-version: '3.13'
          - os: macos-14
            cuda-version: 'cu124'
          - os: macos-14
            cuda-version: 'cu126'
"""


def test_builds_of_a_workflow() -> None:
    builds = dex.builds_of(WORKFLOW)
    assert builds["2.5"]["linux-64"] == {"cpu": ["3.9"], "cu124": ["3.9"]}
    assert builds["2.6"]["win-64"] == {
        "cpu": ["3.9", "3.13"],
        "cu124": ["3.9", "3.13"],
        "cu126": ["3.9", "3.13"],
    }
    assert builds["2.6"]["osx-arm64"] == {"cpu": ["3.9", "3.13"]}
    assert builds["2.6"]["linux-aarch64"]["cpu"] == ["3.9", "3.13"]


def test_a_workflow_that_is_not_yaml_built_nothing() -> None:
    assert dex.builds_of("jobs:\n  wheel:\n    - name: a: b\n") == {}


RECORDED = {
    "repo": "o/p",
    "tags": {"1.0": "b" * 40},
    "commits": [
        {
            "commit": "a" * 40,
            "date": "2024-01-01",
            "version": "1.0",
            "builds": {"2.0": {"linux-64": {"cpu": ["3.8"]}}},
        },
        {
            "commit": "b" * 40,
            "date": "2024-02-01",
            "version": "1.0",
            "builds": {"2.1": {"linux-64": {"cpu": ["3.9"], "cu121": ["3.9"]}}},
        },
        {
            "commit": "c" * 40,
            "date": "2024-05-01",
            "version": "1.0",
            "builds": {"2.2": {"linux-64": {"cpu": ["3.9", "3.12"]}}},
        },
        {
            "commit": "d" * 40,
            "date": "2024-06-01",
            "version": "1.1",
            "builds": {"2.3": {"linux-64": {"cpu": ["3.12"]}}},
        },
    ],
}


def test_rows_come_from_the_tag_else_a_later_commit_at_that_version() -> None:
    rows = dex.derive_rows("p", ["1.0"], RECORDED)
    assert [
        (r["torch"], r["accelerators"], r["python"], r.get("inferred", False)) for r in rows
    ] == [
        (["2.1"], ["cpu", "cu121"], ["3.9"], False),  # the tag's own workflow
        (
            ["2.2"],
            ["cpu"],
            ["3.9", "3.12"],
            True,
        ),  # a later commit still at 1.0: inferred, with its rule
    ]  # torch 2.0 was only in a workflow before the tag: not built as 1.0
    assert "(tag 1.0)" in rows[0]["source"]
    assert "rule: tag 1.0's workflow does not build torch 2.2" in rows[1]["source"]


def _pin(
    name: str, torch: str, accelerator: str, python: str, platform: str = "linux-64"
) -> str | None:
    target = Target(torch=torch, accelerator=accelerator, python=python, platform=platform)  # type: ignore[arg-type]
    try:
        return resolve(load_matrix(), name, target, where="test").requirement
    except UnsupportedCombinationError:  # no build for it: the refusal is the answer
        return None


@pytest.mark.parametrize(
    ("name", "torch", "accelerator", "python", "platform", "pin"),
    [
        # tag 2.0.9's workflow excludes torch 1.10.0 x cu111 (the old row carried cu111 forward)
        ("torch-scatter", "1.10.0", "cu111", "3.9", "linux-64", None),
        ("torch-scatter", "1.10.0", "cu113", "3.9", "linux-64", "torch-scatter==2.0.9"),
        # Windows and Python 3.7 wheels from 2022-11-21 (#336) on: 2.1.0 for torch 1.12 on win-64
        ("torch-scatter", "1.12.0", "cu116", "3.7", "win-64", "torch-scatter==2.1.0"),
        # tag 1.6.3's workflow builds torch 2.0.0 too (the old rows said 2.1 and later only)
        ("torch-cluster", "2.0.1", "cu118", "3.10", "linux-64", "torch-cluster==1.6.3"),
        # xformers 0.0.30-0.0.33 have Windows wheels on PyPI (the old rows: linux-64 only);
        # their tags' workflows skip CUDA < 12.4 on Windows; 0.0.31 is one abi3 wheel (cp39-abi3)
        ("xformers", "2.7.0", "cu126", "3.12", "win-64", "xformers==0.0.30"),
        ("xformers", "2.7.0", "cu118", "3.12", "win-64", None),
        ("xformers", "2.7.1", "cu128", "3.13", "win-64", "xformers==0.0.31"),
        # 0.0.28.post1 (torch 2.4.1) has no Windows wheel on PyPI
        ("xformers", "2.4.1", "cu124", "3.11", "win-64", None),
        # spconv's CUDA packages have Windows wheels on PyPI; 2.3.8 is the first with cp312
        ("spconv-cu118", "2.1.0", "cu118", "3.10", "win-64", "spconv-cu118==2.3.8"),
        ("spconv-cu118", "2.1.0", "cu118", "3.12", "linux-64", "spconv-cu118==2.3.8"),
        ("spconv-cu117", "2.0.0", "cu117", "3.12", "linux-64", None),
    ],
)
def test_corrected_rows(
    name: str, torch: str, accelerator: str, python: str, platform: str, pin: str | None
) -> None:
    assert _pin(name, torch, accelerator, python, platform) == pin


def test_xformers_matrix_from_a_static_workflow() -> None:
    text = """
jobs:
  build:
    strategy:
      matrix:
        os: [8-core-ubuntu, windows-8-core]
        python: ["3.8", "3.11"]
        torch_version: ["2.2.0"]
        cuda_short_version: ["118", "121"]
"""
    m = dex.xformers_matrix(text)
    assert (m["os"], m["python"], m["torch"], m["cuda"]) == (
        ["8-core-ubuntu", "windows-8-core"],
        ["3.8", "3.11"],
        ["2.2.0"],
        ["118", "121"],
    )
