"""extensions.yaml's pyg-lib, flash-attn and dgl build rows derived per tag (scripts/derive_ext_pyg.py).

Offline: the derivation reads tests/data/recorded/extensions/{pyg-lib,flash-attn,dgl}.json.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.model.extensions import Target, resolve
from envgen.model.matrix import load_matrix

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import derive_ext_pyg as dep  # noqa: E402


def test_the_file_is_what_the_derivation_writes() -> None:
    text = dep.MATRIX.read_text(encoding="utf-8")
    derived, _old = dep.derive_all(text)
    assert set(derived) == {"pyg-lib", "flash-attn", "dgl"}
    assert dep.render(text, derived) == text, "run python scripts/derive_ext_pyg.py --write"


def test_every_row_cites_a_commit_path_or_a_public_url() -> None:
    text = dep.MATRIX.read_text(encoding="utf-8")
    derived, _old = dep.derive_all(text)
    cited = re.compile(r"[\w.-]+/[\w.-]+@[0-9a-f]{10}:\S+|https://\S+")
    for name, rows in derived.items():
        for row in rows:
            assert cited.match(row["source"]), (name, row["source"])
            assert "find_string" not in row["source"]
            assert "read_file" not in row["source"]
            if row.get("inferred"):
                assert "rule:" in row["source"], row["source"]


PYG_BUILDING = """
jobs:
  wheel:
    strategy:
      matrix:
        os: [ubuntu-20.04, macos-11, windows-2019]
        python-version: ['3.8', '3.12']
        torch-version: [2.1.0, 2.2.0]
        cuda-version: ['cpu', 'cu121']
        exclude:
          - os: windows-2019
          - torch-version: 2.1.0
            python-version: '3.12'
"""


def _reader(files: dict[str, str]) -> object:
    return lambda path: files.get(path, "")


def test_pyg_lib_commit_facts_from_building_yml() -> None:
    files = {"pyg_lib/__init__.py": "__version__ = '0.4.0'\n", dep.PYG_BUILDING: PYG_BUILDING}
    fact = dep.pyg_commit_facts(_reader(files), "c" * 40)
    assert fact is not None
    assert fact["version"] == "0.4.0"
    assert fact["builds"]["2.1"] == {
        "linux-64": {"cpu": ["3.8"], "cu121": ["3.8"]},
        "osx-64": {"cpu": ["3.8"]},  # macOS has no CUDA: its cu121 job builds no CUDA wheel
    }
    assert fact["builds"]["2.2"]["linux-64"]["cu121"] == ["3.8", "3.12"]


def test_pyg_lib_abi3_release_serves_the_torch_releases_pythons() -> None:
    files = {
        "pyg_lib/__init__.py": "__version__ = '0.8.0'\n",
        "setup.py": "options={'bdist_wheel': {'py_limited_api': 'cp310'}},\n",
        dep.PYG_RELEASE: "options: [nightly, final]\n",
        dep.PYG_MACOS: "    runs-on: macos-14\n",
        dep.PYG_FULL.format(os="linux"): (
            '[{"torch-version": "2.13.0", "cuda-version": ["cpu", "cu130"],'
            ' "arch": ["x86_64", "aarch64"]}]'
        ),
        dep.PYG_FULL.format(os="windows"): '[{"torch-version": "2.13.0", "cuda-version": ["cpu"]}]',
    }
    fact = dep.pyg_commit_facts(_reader(files), "d" * 40)
    assert fact is not None
    assert fact["abi3-floor"] == "3.10"
    assert set(fact["builds"]["2.13"]) == {"linux-64", "linux-aarch64", "win-64"}
    recorded = {"tags": {"0.8.0": "d" * 40}, "commits": [{**fact, "date": "2026-07-20"}]}
    rows = dep.derive_pyg_lib(["0.8.0"], recorded, {"2.13.0": ["3.9", "3.10", "3.14"]})
    assert {tuple(r["python"]) for r in rows} == {("3.10", "3.14")}
    assert all("cp310-abi3" in r["source"] and not r.get("inferred") for r in rows)


def test_pyg_lib_later_commit_at_the_version_is_inferred() -> None:
    tag = {"commit": "a" * 40, "date": "2024-02-07", "version": "0.4.0", "paths": ["p"]}
    later = {"commit": "b" * 40, "date": "2024-07-25", "version": "0.4.0", "paths": ["p"]}
    recorded = {
        "tags": {"0.4.0": "a" * 40},
        "commits": [
            {**tag, "builds": {"2.2": {"linux-64": {"cpu": ["3.8"]}}}},
            {**later, "builds": {"2.3": {"win-64": {"cpu": ["3.12"]}}}},
        ],
    }
    rows = dep.derive_pyg_lib(["0.4.0"], recorded, {})
    assert [(r["torch"], r.get("inferred", False)) for r in rows] == [
        (["2.2"], False),
        (["2.3"], True),
    ]
    assert "rule: tag 0.4.0's workflows do not build torch 2.3" in rows[1]["source"]


def test_flash_attn_rows_from_jobs_and_the_setup_py_naming() -> None:
    recorded = {
        "versions": {
            "9.9": {
                "tag": "v9.9",
                "commit": "e" * 40,
                "cuda-naming": "major",
                "jobs": [
                    {"torch-version": "2.6.0", "python-version": p, "cuda-version": "12.4.1"}
                    for p in ("3.9", "3.13")
                ],
            }
        }
    }
    (row,) = dep.derive_flash_attn(recorded, {"2.6": ["11.8", "12.4", "12.6"]})
    assert (row["accelerators"], row["cuda-build"], row["python"]) == (
        ["cu124", "cu126"],
        "12",
        ["3.9", "3.13"],
    )


def _pin(name: str, torch: str, acc: str, python: str, platform: str = "linux-64") -> str | None:
    target = Target(torch=torch, accelerator=acc, python=python, platform=platform)  # type: ignore[arg-type]
    try:
        return resolve(load_matrix(), name, target, where="test").requirement
    except UnsupportedCombinationError:
        return None


FA = "https://github.com/Dao-AILab/flash-attention/releases/download"


@pytest.mark.parametrize(
    ("name", "torch", "acc", "python", "platform", "pin"),
    [
        # tag 2.5.8's publish.yml builds python 3.7 for torch 1.12 (cp37-cp37m: the ABI tag has the m)
        (
            "flash-attn",
            "1.12.1",
            "cu116",
            "3.7",
            "linux-64",
            f"flash-attn @ {FA}/v2.5.8/"
            "flash_attn-2.5.8+cu118torch1.12cxx11abiFALSE-cp37-cp37m-linux_x86_64.whl",
        ),
        # tag v2.8.3 builds python 3.13 for torch 2.5 (the old row stopped at 3.12)
        (
            "flash-attn",
            "2.5.1",
            "cu124",
            "3.13",
            "linux-64",
            f"flash-attn @ {FA}/v2.8.3/"
            "flash_attn-2.8.3+cu12torch2.5cxx11abiFALSE-cp313-cp313-linux_x86_64.whl",
        ),
        # pyg-lib: tag 0.1.0 builds python 3.7 and macOS CPU wheels (the old rows: linux, no python)
        ("pyg-lib", "1.12.1", "cpu", "3.7", "osx-64", "pyg-lib==0.2.0"),
        # Windows wheels from release.yml's full_matrix_windows.json (0.6.0 on)
        ("pyg-lib", "2.8.0", "cu128", "3.13", "win-64", "pyg-lib==0.6.0"),
        # 0.8.0: one cp310-abi3 wheel per build, linux-aarch64 included
        ("pyg-lib", "2.13.0", "cu130", "3.14", "linux-aarch64", "pyg-lib==0.8.0"),
        # pyg-lib 0.3.1's tag builds cu121 for torch 2.0 (the old row had cu117, cu118 only)
        ("pyg-lib", "2.0.1", "cu121", "3.11", "linux-64", "pyg-lib==0.4.0"),
        # dgl 2.2.1 has Windows CPU wheels on PyPI (cp38-cp312)
        ("dgl", "2.3.0", "cpu", "3.12", "win-64", "dgl==2.2.1"),
        ("dgl", "2.0.1", "cpu", "3.7", "osx-arm64", "dgl==1.1.2"),
    ],
)
def test_corrected_rows(
    name: str, torch: str, acc: str, python: str, platform: str, pin: str | None
) -> None:
    assert _pin(name, torch, acc, python, platform) == pin


def test_the_audit_finds_every_row_right_against_the_recording(tmp_path: Path) -> None:
    """scripts/audit_matrix.py's check of these rows, without mirrors (the recorded facts)."""
    text = dep.MATRIX.read_text(encoding="utf-8")
    derived, _old = dep.derive_all(text)
    files = sorted({f for v in dep.load("dgl")["versions"].values() for f in v["pypi-wheels"]})
    verdicts: dict[str, int] = {}
    for name, rows in derived.items():
        for row in rows:
            verdict, how = dep.recheck({**row, "name": name}, tmp_path, lambda: files)
            assert verdict != "wrong", how
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
    assert verdicts == {"right": 134, "unverifiable": 2}  # dgl 2.4.0: not on PyPI


def test_the_audit_finds_a_changed_python_wrong(tmp_path: Path) -> None:
    derived, _old = dep.derive_all(dep.MATRIX.read_text(encoding="utf-8"))
    for name in ("pyg-lib", "flash-attn"):
        row = {**derived[name][0], "name": name, "python": ["3.6"]}
        assert dep.recheck(row, tmp_path, list)[0] == "wrong"
