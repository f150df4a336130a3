"""extensions.yaml's mmcv-full, mmcv, detectron2 and pytorch3d build rows derived per tag
(scripts/derive_ext_mm.py).

Offline: the derivation reads tests/data/recorded/extensions/{mmcv,detectron2,pytorch3d}.json
(per tag: its commit, the file read and what it says).
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.model.extensions import Target, resolve
from envgen.model.matrix import load_matrix

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import derive_ext_mm as mm  # noqa: E402


@functools.cache
def _derived() -> dict[str, list[dict[str, Any]]]:
    derived: dict[str, list[dict[str, Any]]] = mm.derive_all(mm.MATRIX.read_text())[0]
    return derived


def test_the_file_is_what_the_derivation_writes() -> None:
    text = mm.MATRIX.read_text()
    derived, _old = mm.derive_all(text)
    assert set(derived) == set(mm.NAMES)
    assert mm.dex.render(text, derived) == text, "run python scripts/derive_ext_mm.py --write"


def test_every_row_cites_a_commit_and_a_path_and_inferred_rows_their_rule() -> None:
    for name, rows in _derived().items():
        assert rows, name
        for row in rows:
            assert mm._SOURCE.match(row["source"]), row
            assert ("; rule: " in row["source"]) == bool(row.get("inferred")), row


def test_every_recorded_tag_names_its_commit() -> None:
    d2 = mm.load("detectron2")
    assert {v: t["commit"][:10] for v, t in d2["tags"].items()} == {
        "0.5": "82a57ce0b7",
        "0.6": "d1e04565d3",
    }
    p3d = mm.load("pytorch3d")
    assert p3d["versions"]["0.7.4"]["commit"].startswith("297020a4b1")
    assert all(t["path"] == mm.D2_SCRIPT for t in d2["tags"].values())
    assert all(
        c["path"] == mm.P3D_SCRIPT and len(c["commit"]) == 40
        for v in p3d["versions"].values()
        for c in v["commits"]
    )
    mmcv = mm.load("mmcv")
    assert all(len(t["commit"]) == 40 and t["path"] for t in mmcv["tags"].values())
    assert mmcv["tags"]["2.2.0"]["path"] == mm.SELECTOR  # no table at the tag: its selector
    assert mmcv["tags"]["1.0.0"]["path"] == "README.md"


BUILD_ALL_WHEELS = """
  py_versions=(3.6 3.7 3.8)
  if [[ $pytorch_ver != "1.7" ]]; then
    py_versions+=(3.9)
  fi
if [[ -n "$1" ]] && [[ -n "$2" ]]; then
  build_one "$1" "$2"
else
  build_one cu111 1.9
  build_one cpu 1.9
  build_one cu110 1.7
  build_one cpu 1.7
fi
"""


def test_detectron2_script_pythons_follow_its_condition() -> None:
    assert mm.detectron2_builds(BUILD_ALL_WHEELS) == {
        "1.7": {"accelerators": ["cpu", "cu110"], "python": ["3.6", "3.7", "3.8"]},
        "1.9": {"accelerators": ["cpu", "cu111"], "python": ["3.6", "3.7", "3.8", "3.9"]},
    }


INSIDE = """
PYTHON_VERSIONS="3.7 3.8 3.9 3.10"
declare -A CONDA_CUDA_VERSIONS=(
    ["1.10.0"]="cu111 cu113"
#    ["1.9.0"]="cu102"
    ["1.11.0"]="cu113 cu115"
)
        if [[ "3.7 3.8" != *$python_version* ]] && [[ "1.7.0" == *$pytorch_version* ]]
        then
            #python 3.9 and later not supported by pytorch 1.7.0 and before
            continue
        fi
        if [[ "3.7 3.8 3.9" != *$python_version* ]] && [[ "1.9.0 1.10.0" == *$pytorch_version* ]]
        then
            continue
        fi
"""


def test_pytorch3d_script_skips_are_evaluated_and_comments_ignored() -> None:
    assert mm.pytorch3d_builds(INSIDE) == {
        "1.10.0": {"accelerators": ["cu111", "cu113"], "python": ["3.7", "3.8", "3.9"]},
        "1.11.0": {"accelerators": ["cu113", "cu115"], "python": ["3.7", "3.8", "3.9", "3.10"]},
    }


def _p3d_commit(sha: str, builds: dict[str, Any]) -> dict[str, Any]:
    return {"commit": sha * 40, "date": "2024-03-01", "path": mm.P3D_SCRIPT, "builds": builds}


def test_pytorch3d_a_later_commit_that_changed_the_builds_replaces_the_tags_copy() -> None:
    tag = _p3d_commit("a", {"2.0.0": {"accelerators": ["cu118"], "python": ["3.9"]}})
    later = _p3d_commit("b", {"2.1.0": {"accelerators": ["cu121"], "python": ["3.10"]}})
    rec: dict[str, Any] = {"repo": "o/p", "path": mm.P3D_SCRIPT, "versions": {}}
    rec["versions"]["1.0"] = {"tag": "v1.0", "commit": "a" * 40, "commits": [tag, later]}
    rows = mm.derive_pytorch3d(["1.0"], rec)
    assert [(r["torch"], r["accelerators"], r.get("inferred", False)) for r in rows] == [
        (["2.1.0"], ["cu121"], True)
    ]
    assert rows[0]["source"].startswith(f"o/p@bbbbbbbbbb:{mm.P3D_SCRIPT} (2024-03-01); rule: ")
    # a later commit that builds the same as the tag leaves the tag's rows as they are
    rec["versions"]["1.0"]["commits"] = [tag, {**tag, "commit": "c" * 40}]
    (row,) = mm.derive_pytorch3d(["1.0"], rec)
    assert (row["torch"], row.get("inferred", False)) == (["2.0.0"], False)
    assert row["source"] == f"o/p@aaaaaaaaaa:{mm.P3D_SCRIPT} (tag v1.0)"


def test_pytorch3d_0_6_2_is_narrowed_to_the_maintainers_upload_list() -> None:
    rows = [r for r in _derived()["pytorch3d"] if r["versions"] == ["0.6.2"]]
    assert [(r["torch"], r["accelerators"], r["python"]) for r in rows] == [
        (["1.11.0"], ["cu111"], ["3.7"]),
        (["1.11.0"], ["cu113"], ["3.7", "3.8", "3.9", "3.10"]),
    ]
    assert all(r["inferred"] and "issues/1198" in r["source"] for r in rows)


DOC = """
<table class="docutils">
<td><code>pip install mmcv-full==1.0.0+torch1.5.0+cu102 -f https://x/index.html</code></td>
<td><code>pip install mmcv-full==latest+torch1.6.0+cu101 -f https://x/index.html</code></td>
<td><code>pip install mmcv-full==={mmcv_version} -f https://download.openmmlab.com/mmcv/dist/cpu/torch1.4.0/index.html</code></td>
</table>
pip install mmcv-full -f https://download.openmmlab.com/mmcv/dist/cu111/torch1.9.0/index.html
"""


def test_mmcv_table_reads_table_cells_only_with_their_pins() -> None:
    assert [(e["torch"], e["accelerator"], e["pin"]) for e in mm.mmcv_table(DOC)] == [
        ("1.5", "cu102", "1.0.0"),
        ("1.6", "cu101", None),  # `latest`: the tag's own version
        ("1.4", "cpu", None),
    ]


def test_mmcv_the_tags_table_wins_over_the_selector_which_only_fills_in() -> None:
    rec: dict[str, Any] = {
        "repo": "open-mmlab/mmcv",
        "selectors": {
            "mmcv-full": {
                "branch": "1.x",
                "commit": "c" * 40,
                "path": mm.SELECTOR,
                "changed": "2023-11-02",
                "rows": [
                    {"platform": "linux-64", "torch": "1.6", "accelerator": "cu101",
                     "versions": ["1.1.0"]},
                    {"platform": "linux-64", "torch": "1.4", "accelerator": "cpu",
                     "versions": ["1.0.0"]},
                    {"platform": "win-64", "torch": "1.6", "accelerator": "cpu",
                     "versions": ["1.1.0"]},
                ],
            }
        },
        "tags": {
            "1.1.0": {"tag": "v1.1.0", "commit": "d" * 40, "path": "README.md",
                      "table": mm.mmcv_table(DOC), "selector": None}
        },
    }  # fmt: skip
    rows = mm.derive_mmcv("mmcv-full", ["1.1.0"], rec)
    got = [(r["torch"], r["accelerators"], r["platforms"], r.get("inferred", False)) for r in rows]
    # cu101/1.6: the tag's table and the selector agree; cpu/1.4: the selector lists that page
    # without 1.1.0, but the tag's own table names it (the tag wins, derived); cu102/1.5 pins
    # 1.0.0 (not this tag's); win-64: the selector only, so inferred
    assert got == [
        (["1.4"], ["cpu"], ["linux-64"], False),
        (["1.6"], ["cu101"], ["linux-64"], False),
        (["1.6"], ["cpu"], ["win-64"], True),
    ]
    assert rows[0]["source"] == "open-mmlab/mmcv@dddddddddd:README.md (tag v1.1.0)"
    assert rows[1]["source"] == rows[0]["source"]
    assert "rule: the tag's own install page does not list this build" in rows[2]["source"]


def test_mmcv_windows_builds_the_tags_page_names_are_derived_from_the_tag() -> None:
    """The audit's finding (issue 23): win-64 cu110 x torch 1.7 wheels, which the 1.4.8-1.6.2
    pages' Windows note claims and the later selector omits, were called absent."""
    rec = mm.load("mmcv")
    got = mm.facts(_derived()["mmcv-full"])
    for version in ("1.4.8", "1.5.0", "1.6.2"):
        for acc in ("cu101", "cu102", "cu110"):
            assert got[(version, "1.7", "win-64", acc)] == ((), False), (version, acc)
    sel = {
        (r["platform"], r["torch"], r["accelerator"])
        for r in rec["selectors"]["mmcv-full"]["rows"]
        if "1.4.8" in r["versions"]
    }
    assert ("win-64", "1.7", "cu110") not in sel  # the selector alone would drop it
    rows = [
        r
        for r in _derived()["mmcv-full"]
        if r["versions"] == ["1.4.8"] and "win-64" in r["platforms"] and "1.7" in r["torch"]
    ]
    cited = f"open-mmlab/mmcv@{rec['tags']['1.4.8']['commit'][:10]}:"
    assert rows
    assert all(r["source"].startswith(cited) and not r.get("inferred") for r in rows)
    # no build a tag's own page names is missing from the derived rows
    for name in ("mmcv-full", "mmcv"):
        derived = mm.facts(_derived()[name])
        for version, tag in rec["tags"].items():
            if tag["package"] != name:
                continue
            for platform, torch, acc in mm._mmcv_tag_facts(version, tag):
                assert (version, torch, platform, acc) in derived, (name, version, torch, acc)


def _pin(name: str, torch: str, accelerator: str, python: str) -> str | None:
    target = Target(torch=torch, accelerator=accelerator, python=python, platform="linux-64")
    try:
        return resolve(load_matrix(), name, target, where="test").requirement
    except UnsupportedCombinationError:
        return None


@pytest.mark.parametrize(
    ("name", "torch", "accelerator", "python", "pin"),
    [
        # build_all_wheels.sh at v0.5 builds torch 1.7 for python 3.6-3.8 only
        ("detectron2", "1.7.1", "cu110", "3.9", None),
        ("detectron2", "1.7.1", "cu110", "3.8", "detectron2==0.5"),
        ("detectron2", "1.8.1", "cu101", "3.9", "detectron2==0.6"),
        # 0.6.2: its inside.sh narrowed to what the maintainer said was uploaded (#1198)
        ("pytorch3d", "1.11.0", "cu113", "3.10", "pytorch3d==0.6.2"),
        ("pytorch3d", "1.11.0", "cu111", "3.7", "pytorch3d==0.6.2"),
        ("pytorch3d", "1.11.0", "cu111", "3.8", None),
        ("pytorch3d", "1.11.0", "cu115", "3.9", None),
        ("pytorch3d", "1.10.2", "cu113", "3.9", None),
        # 0.7.4: the script as committed after the build (2883a07b), not the tag's stale copy
        ("pytorch3d", "2.0.1", "cu117", "3.9", "pytorch3d==0.7.4"),
        ("mmcv-full", "1.6.0", "cu102", "3.8", "mmcv-full==1.7.1"),
        ("mmcv", "2.1.0", "cu121", "3.10", "mmcv==2.2.0"),
    ],
)
def test_resolve_on_the_derived_rows(
    name: str, torch: str, accelerator: str, python: str, pin: str | None
) -> None:
    assert _pin(name, torch, accelerator, python) == pin


def _rows(name: str) -> list[dict[str, Any]]:
    return [{**r, "name": name} for r in _derived()[name]]


def test_audit_finds_every_derived_row_right_from_the_recording(tmp_path: Path) -> None:
    for name in mm.NAMES:
        for row in _rows(name):
            verdict, how = mm.audit_row(row, tmp_path)  # no mirror there: the recording
            assert verdict == "right", (row, how)


def test_audit_finds_a_python_never_built_and_a_cuda_not_in_the_table(tmp_path: Path) -> None:
    d2 = next(r for r in _rows("detectron2") if r["versions"] == ["0.5"] and r["torch"] == ["1.7"])
    verdict, how = mm.audit_row({**d2, "python": [*d2["python"], "3.9"]}, tmp_path)
    assert verdict == "wrong"
    assert "python ['3.6', '3.7', '3.8'], not ['3.6', '3.7', '3.8', '3.9']" in how
    mmcv = next(r for r in _rows("mmcv-full") if not r.get("inferred"))
    verdict, how = mm.audit_row({**mmcv, "accelerators": ["cu999"]}, tmp_path)
    assert (verdict, "is not built there" in how) == ("wrong", True)
    verdict, _how = mm.audit_row({**mmcv, "source": "INSTALL.md"}, tmp_path)
    assert verdict == "unverifiable"


def test_a_page_for_linux_and_windows_gives_win_64_builds_less_its_exclusions() -> None:
    doc = (
        DOC + "pre-built packages for **Linux and Windows systems**. mmcv-full does not provide "
        "pre-built packages for `cu102-torch1.11` and `cpu-torch*` on Windows."
    )
    excluded = mm.windows_exclusions(doc)
    assert excluded == ["cu102-torch1.11", "cpu-torch*"]
    assert mm.windows_exclusions(DOC) is None  # no such sentence: the table is Linux only
    tag = {"table": mm.mmcv_table(doc), "selector": None, "windows-excluded": excluded}
    assert sorted(mm._mmcv_tag_facts("1.1.0", tag)) == [
        ("linux-64", "1.4", "cpu"),
        ("linux-64", "1.6", "cu101"),
        ("win-64", "1.6", "cu101"),
    ]
    # the recording: 1.4.8's page says so, 1.4.7's does not
    tags = mm.load("mmcv")["tags"]
    assert tags["1.4.8"]["windows-excluded"] == ["cu102-torch1.11", "cu92-torch*"]
    assert tags["1.4.7"]["windows-excluded"] is None
