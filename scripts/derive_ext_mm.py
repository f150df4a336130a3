"""Derive extensions.yaml's build rows of mmcv-full, mmcv, detectron2 and pytorch3d per tag.

The job (issue 23): every build row of these four extensions comes from an artifact of its own
version's tag, read at the tag's commit in the project's public repository, or says
`inferred: true` with the rule in its `source`. No list is carried from one tag to another.
download.openmmlab.com and dl.fbaipublicfiles.com (where the wheels live) are not reachable here,
and PyPI holds none of their Linux / Windows wheels, so the build scripts and install pages are
the artifacts:

* detectron2   dev/packaging/build_all_wheels.sh at the tag: its `build_one CU TORCH` calls give
               the CUDA builds per torch series, its `py_versions` (with the `py_versions+=`
               conditions on the torch series) the pythons. Linux only.
* pytorch3d    packaging/linux_wheels/inside.sh at the tag: CONDA_CUDA_VERSIONS (uncommented keys:
               exact torch releases -> CUDA builds), PYTHON_VERSIONS and the `continue` conditions
               that skip a python for some torch releases (bash substring tests, evaluated here).
               The script is run by hand and committed after the build: where a later commit
               whose pytorch3d/__init__.py still says the version changed what it builds, the
               last such commit's script counts and the rows are `inferred` (v0.7.4's tag copy
               still names torch 1.10 / 1.11; 2883a07b, "update wheel scripts", torch 2.0.1).
               Where the maintainer said which of the script's wheels were uploaded
               (P3D_UPLOADED, with its link), the rows are narrowed to that, `inferred`.
* mmcv-full /  the tag's install table (README.md up to 1.3.8, then docs/.../installation.md):
  mmcv         each `<table>` cell's install line names a CUDA (or cpu) and torch X.Y.0 (a line
               pinning another mmcv version is not about this tag and is skipped): linux-64, and
               win-64 where the page says the table is for Windows too (1.4.8-1.6.2, 2.0.0rc1;
               less the pages it excludes there). The installation selector's version.json
               (docs/en/_static/version.json) on the 1.x branch (mmcv-full) or main (mmcv),
               written after the tags, lists the uploads per page and version: it never removes
               a build the tag's own page names (that page is the tag's artifact and wins; 102
               such builds, e.g. win-64 cu110 x torch 1.7 for 1.4.8-1.6.2, were dropped before),
               it only fills what the tag's page does not name (torch series added after the
               tag, every 1.7 / 2.x version whose install page is the selector, whose copy at the
               tag lists only earlier versions): those builds are `inferred`, with that rule.
               Its macOS list is not used (its runner, macos-latest, does not say the arch).
               Python is not recorded (no artifact names it): the rows leave `python` empty.

The facts are recorded in tests/data/recorded/extensions/{mmcv,detectron2,pytorch3d}.json (per
tag: its commit, the path read and what it says; `--record NAME=GIT_DIR` from a git mirror), so
the derivation and its test run offline. scripts/audit_matrix.py checks a row with
`audit_row`: the artifact at the row's commit re-read from the mirror, else the recording.

    python scripts/derive_ext_mm.py                  # diff of extensions.yaml; exit 1 if stale
    python scripts/derive_ext_mm.py --write
    python scripts/derive_ext_mm.py --changes        # what the derivation changed
    python scripts/derive_ext_mm.py --record mmcv=/work/.mirror/open-mmlab+mmcv/repo
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

import yaml
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
import derive_extensions as dex
from generated import write_or_diff

__all__ = ["dex"]  # the tests render with it

ROOT: Final = Path(__file__).resolve().parent.parent
MATRIX: Final = ROOT / "matrices" / "extensions.yaml"
RECORDED: Final = ROOT / "tests" / "data" / "recorded" / "extensions"
NAMES: Final = ("mmcv-full", "mmcv", "detectron2", "pytorch3d")
# recording -> GitHub repository
REPOS: Final = {
    "mmcv": "open-mmlab/mmcv",
    "detectron2": "facebookresearch/detectron2",
    "pytorch3d": "facebookresearch/pytorch3d",
}
# extension -> its recording (mmcv-full and mmcv share open-mmlab/mmcv's)
RECORDING: Final = {
    "mmcv-full": "mmcv",
    "mmcv": "mmcv",
    "detectron2": "detectron2",
    "pytorch3d": "pytorch3d",
}
D2_SCRIPT: Final = "dev/packaging/build_all_wheels.sh"
P3D_SCRIPT: Final = "packaging/linux_wheels/inside.sh"
P3D_INIT: Final = "pytorch3d/__init__.py"
SELECTOR: Final = "docs/en/_static/version.json"
# the branch whose selector lists each package's uploads after its tags
SELECTOR_BRANCH: Final = {"mmcv-full": "1.x", "mmcv": "main"}
INSTALL_DOCS: Final = (
    "docs/en/get_started/installation.md",
    "docs/get_started/installation.md",
    "README.md",
)
SELECTOR_OS: Final = {"Linux": "linux-64", "Windows": "win-64"}


# --- detectron2: build_all_wheels.sh (pure) ---------------------------------------------------
_D2_PY: Final = re.compile(r"^\s*py_versions=\(([^)]*)\)", re.MULTILINE)
_D2_PY_IF: Final = re.compile(
    r'if \[\[ \$pytorch_ver (!=|==) "([\d.]+)" \]\]; then\s+py_versions\+=\(([^)]*)\)'
)
_D2_BUILD: Final = re.compile(r"^\s*build_one (cu\d+|cpu) ([\d.]+)\s*$", re.MULTILINE)
_D2_PAGE: Final = re.compile(r"detectron2/wheels/(cu\d+|cpu)/torch([\d.]+)/index\.html")
D2_INSTALL: Final = "INSTALL.md"


def detectron2_pages(install_md: str) -> list[str]:
    """The `accelerator/torch series` wheel pages an INSTALL.md's install table links (written
    by dev/packaging/gen_install_table.py: a second artifact of the same builds).

    >>> detectron2_pages("https://dl.fbaipublicfiles.com/detectron2/wheels/cu113/torch1.10/index.html")
    ['cu113/1.10']
    """
    return sorted({f"{acc}/{series}" for acc, series in _D2_PAGE.findall(install_md)})


def detectron2_builds(script: str) -> dict[str, dict[str, list[str]]]:
    """{torch series: {"accelerators": [...], "python": [...]}} a build_all_wheels.sh builds.

    >>> s = '''  py_versions=(3.6 3.7 3.8)
    ...   if [[ $pytorch_ver != "1.7" ]]; then
    ...     py_versions+=(3.9)
    ...   fi
    ...   build_one cu111 1.8
    ...   build_one cpu 1.8
    ...   build_one cu110 1.7'''
    >>> b = detectron2_builds(s)
    >>> b["1.8"]["accelerators"], b["1.8"]["python"], b["1.7"]["python"]
    (['cpu', 'cu111'], ['3.6', '3.7', '3.8', '3.9'], ['3.6', '3.7', '3.8'])
    """
    base = _D2_PY.search(script)
    pythons = base.group(1).split() if base else []
    extra = [(op, ver, more.split()) for op, ver, more in _D2_PY_IF.findall(script)]
    out: dict[str, dict[str, list[str]]] = {}
    for acc, series in _D2_BUILD.findall(script):
        these = list(pythons)
        for op, ver, more in extra:
            if (series != ver) if op == "!=" else (series == ver):
                these += more
        entry = out.setdefault(series, {"accelerators": [], "python": sorted(these, key=Version)})
        entry["accelerators"] = sorted({*entry["accelerators"], acc}, key=_acc_key)
    return dict(sorted(out.items(), key=lambda kv: Version(kv[0])))


# --- pytorch3d: packaging/linux_wheels/inside.sh (pure) ------------------------------------------
_P3D_PY: Final = re.compile(r'^PYTHON_VERSIONS="([^"]*)"', re.MULTILINE)
_P3D_CUDA: Final = re.compile(r'^\s*\["([\d.]+)"\]="([^"]*)"', re.MULTILINE)
_P3D_SKIP: Final = re.compile(
    r'if \[\[ "([^"]*)" != \*\$python_version\* \]\] && '
    r'\[\[ "([^"]*)" == \*\$pytorch_version\* \]\]\s+then\s+(?:#[^\n]*\n\s*)*continue'
)
_VERSION: Final = re.compile(r"^__version__ = ['\"]([^'\"]+)['\"]", re.MULTILINE)


def pytorch3d_builds(script: str) -> dict[str, dict[str, list[str]]]:
    """{torch release: {"accelerators": [...], "python": [...]}} an inside.sh builds: the
    uncommented CONDA_CUDA_VERSIONS keys, each with the PYTHON_VERSIONS its `continue`
    conditions keep (bash `[[ "A B" != *$v* ]]` is a substring test, evaluated as one).

    >>> s = '''PYTHON_VERSIONS="3.8 3.9 3.10"
    ... declare -A CONDA_CUDA_VERSIONS=(
    ... #    ["1.13.1"]="cu116 cu117"
    ...     ["1.10.0"]="cu111 cu113"
    ...     ["2.0.1"]="cu117 cu118"
    ... )
    ...   if [[ "3.7 3.8 3.9" != *$python_version* ]] && [[ "1.10.0" == *$pytorch_version* ]]
    ...         then
    ...             #python 3.10 and later not supported by pytorch 1.10.2 and before
    ...             continue
    ...         fi'''
    >>> b = pytorch3d_builds(s)
    >>> b["1.10.0"]["python"], b["2.0.1"]["python"], "1.13.1" in b
    (['3.8', '3.9'], ['3.8', '3.9', '3.10'], False)
    """
    found = _P3D_PY.search(script)
    pythons = found.group(1).split() if found else []
    skips = _P3D_SKIP.findall(script)
    out: dict[str, dict[str, list[str]]] = {}
    for torch, accs in _P3D_CUDA.findall(script):
        kept = [
            py
            for py in pythons
            if not any(py not in keep and torch in when for keep, when in skips)
        ]
        if kept and accs.split():
            out[torch] = {
                "accelerators": sorted(set(accs.split()), key=_acc_key),
                "python": sorted(kept, key=Version),
            }
    return dict(sorted(out.items(), key=lambda kv: Version(kv[0])))


# --- mmcv: the install table and the selector (pure) ----------------------------------------------
_TABLE: Final = re.compile(r"<table.*?</table>", re.DOTALL)
_DIST_URL: Final = re.compile(r"mmcv/dist/(cu\d+|cpu)/torch(\d+\.\d+)(?:\.\d+)?/index\.html")
_LOCAL_PIN: Final = re.compile(
    r"mmcv(?:-full)?={2,3}([^\s=]\S*?)\+torch(\d+\.\d+)(?:\.\d+)?\+(cu\d+|cpu)\b"
)
_CELL: Final = re.compile(r"<code>(.*?)</code>", re.DOTALL)
_PIN: Final = re.compile(r"mmcv(?:-full)?={2,3}([^\s+{=][^\s+{]*)")


def mmcv_table(doc: str) -> list[dict[str, str | None]]:
    """The builds an install page's `<table>`s name: one entry per install line, with the
    mmcv version it pins (None: unpinned, `{mmcv_version}` or `latest`).

    >>> doc = '''<table><tr><td><code>pip install mmcv-full==1.0.0+torch1.5.0+cu102 -f x</code>
    ... <td><code>pip install mmcv-full=={mmcv_version} -f https://download.openmmlab.com/mmcv/dist/cu113/torch1.10.0/index.html</code>
    ... </table> pip install mmcv-full -f https://download.openmmlab.com/mmcv/dist/cu111/torch1.9.0/index.html'''
    >>> [(e["torch"], e["accelerator"], e["pin"]) for e in mmcv_table(doc)]
    [('1.5', 'cu102', '1.0.0'), ('1.10', 'cu113', None)]
    """
    out: list[dict[str, str | None]] = []
    for table in _TABLE.findall(doc):
        for cell in _CELL.findall(table):
            local = _LOCAL_PIN.search(cell)
            url = _DIST_URL.search(cell)
            if local:
                pin: str | None = local.group(1)
                torch, acc = local.group(2), local.group(3)
            elif url:
                pinned = _PIN.search(cell)
                pin = pinned.group(1) if pinned else None
                acc, torch = url.group(1), url.group(2)
            else:
                continue
            entry = {"torch": torch, "accelerator": acc, "pin": None if pin == "latest" else pin}
            if entry not in out:
                out.append(entry)
    return out


_BOTH: Final = "Linux and Windows systems"
_NOT_ON_WINDOWS: Final = re.compile(r"does not provide pre-built packages for (.*?) on Windows")


def windows_exclusions(doc: str) -> list[str] | None:
    """When an install page says its table's packages are built for Windows too (from 1.4.8):
    the `acc-torchX.Y` patterns it excludes on Windows; None when it does not say so.

    >>> windows_exclusions("for **Linux and Windows systems**. mmcv-full does not provide "
    ...                    "pre-built packages for `cu102-torch1.11` and `cu92-torch*` on Windows.")
    ['cu102-torch1.11', 'cu92-torch*']
    """
    if _BOTH not in doc:
        return None
    found = _NOT_ON_WINDOWS.search(doc)
    return re.findall(r"`([^`]+)`", found.group(1)) if found else []


def selector_rows(text: str) -> list[dict[str, Any]]:
    """The Linux and Windows rows of an installation selector's version.json:
    (platform, torch series, accelerator, mmcv versions).

    >>> selector_rows('{"Linux": [{"cuda": "11.8", "torch": "2.0.x", "mmcv": ["2.0.1"]}],'
    ...               ' "macOS": [{"cuda": "cpu", "torch": "2.0.x", "mmcv": ["2.0.1"]}]}')
    [{'platform': 'linux-64', 'torch': '2.0', 'accelerator': 'cu118', 'versions': ['2.0.1']}]
    """
    data = json.loads(text)
    out = []
    for os_name, platform in SELECTOR_OS.items():
        for row in data.get(os_name, []):
            cuda = str(row["cuda"])
            acc = "cpu" if cuda == "cpu" else "cu" + cuda.replace(".", "")
            out.append(
                {
                    "platform": platform,
                    "torch": str(row["torch"]).removesuffix(".x"),
                    "accelerator": acc,
                    "versions": [str(v) for v in row["mmcv"]],
                }
            )
    return out


def _acc_key(acc: str) -> tuple[int, int]:
    return (0, 0) if acc == "cpu" else (1, int(acc.removeprefix("cu")))


# --- recording (a git mirror) ---------------------------------------------------------------------
def _tag_commit(git_dir: Path, tag: str) -> str:
    return dex.git(git_dir, "rev-parse", f"{tag}^{{commit}}").strip()


def _blob(git_dir: Path, commit: str, path: str) -> str:
    return dex.git(git_dir, "rev-parse", f"{commit}:{path}").strip()


def _versions(name: str) -> list[str]:
    (ext,) = [e for e in yaml.safe_load(MATRIX.read_text()) if e["name"] == name]
    return [str(v["version"]) for v in ext["versions"]]


def install_doc(git_dir: Path, commit: str) -> tuple[str, str]:
    """The install page at a commit that has a table of install lines: (path, text)."""
    for path in INSTALL_DOCS:
        text = dex.git(git_dir, "show", f"{commit}:{path}")
        if text and mmcv_table(text):
            return path, text
    return "", ""


def record_mmcv(git_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = {"repo": REPOS["mmcv"], "selectors": {}, "tags": {}}
    for name, branch in SELECTOR_BRANCH.items():
        commit = dex.git(git_dir, "rev-parse", branch).strip()
        last = dex.git(git_dir, "log", "-1", "--format=%H %cs", commit, "--", SELECTOR).split()
        data["selectors"][name] = {
            "branch": branch,
            "commit": commit,
            "path": SELECTOR,
            "changed": last[1] if last else None,
            "blob": _blob(git_dir, commit, SELECTOR),
            "rows": selector_rows(dex.git(git_dir, "show", f"{commit}:{SELECTOR}")),
        }
        for version in _versions(name):
            tag = f"v{version}"
            commit = _tag_commit(git_dir, tag)
            path, text = install_doc(git_dir, commit)
            selector = dex.git(git_dir, "show", f"{commit}:{SELECTOR}")
            path = path or (SELECTOR if selector else "")  # no table: the selector was read
            data["tags"][version] = {
                "package": name,
                "tag": tag,
                "commit": commit,
                "path": path,
                "blob": _blob(git_dir, commit, path) if path else None,
                "table": mmcv_table(text),
                "windows-excluded": windows_exclusions(text) if text else None,
                "selector": selector_rows(selector) if selector else None,
            }
    return data


def record_detectron2(git_dir: Path) -> dict[str, Any]:
    data: dict[str, Any] = {"repo": REPOS["detectron2"], "path": D2_SCRIPT, "tags": {}}
    for version in _versions("detectron2"):
        tag = f"v{version}"
        commit = _tag_commit(git_dir, tag)
        script = dex.git(git_dir, "show", f"{commit}:{D2_SCRIPT}")
        data["tags"][version] = {
            "tag": tag,
            "commit": commit,
            "path": D2_SCRIPT,
            "blob": _blob(git_dir, commit, D2_SCRIPT),
            "builds": detectron2_builds(script),
            "install-pages": detectron2_pages(dex.git(git_dir, "show", f"{commit}:{D2_INSTALL}")),
        }
    return data


def record_pytorch3d(git_dir: Path) -> dict[str, Any]:
    """Per version: the tag's inside.sh and every later commit that changed it while
    pytorch3d/__init__.py still said the version."""
    data: dict[str, Any] = {"repo": REPOS["pytorch3d"], "path": P3D_SCRIPT, "versions": {}}
    for version in _versions("pytorch3d"):
        tag = f"v{version}"
        tag_commit = _tag_commit(git_dir, tag)
        later = dex.git(
            git_dir, "log", "--reverse", "--format=%H", f"{tag_commit}..HEAD", "--", P3D_SCRIPT
        ).split()
        commits = []
        for commit in [tag_commit, *later]:
            said = _VERSION.search(dex.git(git_dir, "show", f"{commit}:{P3D_INIT}"))
            if not said or said.group(1) != version:
                continue
            script = dex.git(git_dir, "show", f"{commit}:{P3D_SCRIPT}")
            commits.append(
                {
                    "commit": commit,
                    "path": P3D_SCRIPT,
                    "date": dex.git(git_dir, "log", "-1", "--format=%cs", commit).strip(),
                    "blob": _blob(git_dir, commit, P3D_SCRIPT),
                    "builds": pytorch3d_builds(script),
                }
            )
        data["versions"][version] = {"tag": tag, "commit": tag_commit, "commits": commits}
    return data


RECORDERS: Final = {
    "mmcv": record_mmcv,
    "detectron2": record_detectron2,
    "pytorch3d": record_pytorch3d,
}


def record(key: str, git_dir: Path) -> None:
    data = RECORDERS[key](git_dir)
    path = RECORDED / f"{key}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)
    print(f"{key} -> {path.relative_to(ROOT)}")


@functools.cache
def load(key: str) -> dict[str, Any]:
    """A recording, read once per process (the audit checks hundreds of rows; never mutated)."""
    return dict(json.loads((RECORDED / f"{key}.json").read_text()))


# --- derivation (pure) ----------------------------------------------------------------------------
def cite(repo: str, commit: str, path: str) -> str:
    """A source as owner/repo@commit:path (the commit cut to 10 hex digits)."""
    return f"{repo}@{commit[:10]}:{path}"


def _row(
    versions: Sequence[str],
    torch: Sequence[str],
    accs: Iterable[str],
    pythons: Sequence[str],
    platform: str,
    source: str,
    *,
    inferred: bool,
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "versions": list(versions),
        "torch": list(torch),
        "accelerators": sorted(set(accs), key=_acc_key),
    }
    if pythons:
        row["python"] = list(pythons)
    row["platforms"] = [platform]
    row["source"] = source
    if inferred:
        row["inferred"] = True
    return row


def derive_detectron2(versions: Sequence[str], rec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per version and torch series: the CUDA builds and pythons of the tag's script."""
    rows = []
    for version in versions:
        tag = rec["tags"].get(version)
        if tag is None:
            continue
        source = f"{cite(rec['repo'], tag['commit'], rec['path'])} (tag {tag['tag']})"
        for series, build in sorted(tag["builds"].items(), key=lambda kv: Version(kv[0])):
            rows.append(
                _row(
                    [version],
                    [series],
                    build["accelerators"],
                    build["python"],
                    "linux-64",
                    source,
                    inferred=False,
                )
            )
    return rows


# What pytorch3d's maintainer said was uploaded for a version, where that narrows its script
# (the wheels are built by hand, a selection of the script's jobs): a hand-made exception, with
# its link and words.
P3D_UPLOADED: Final[dict[str, dict[str, Any]]] = {
    "0.6.2": {
        "link": "https://github.com/facebookresearch/pytorch3d/issues/1198",
        "said": "bottler, 2022-05-17, after 0.6.2: 'Currently only for PyTorch 11.1 [1.11.0]: "
        "There's CUDA 11.3 with Python 3.7, 3.8, 3.9 and 3.10. And there's CUDA 11.1 with "
        "Python 3.7.'",
        "builds": {"1.11.0": {"cu113": ["3.7", "3.8", "3.9", "3.10"], "cu111": ["3.7"]}},
    },
}


def _p3d_script(
    version: str, entry: Mapping[str, Any], repo: str, path: str
) -> tuple[dict[str, dict[str, list[str]]], str, bool]:
    """The builds of the script that built `version`: (torch -> accelerator -> pythons, source,
    inferred). The tag's, unless a later commit still at the version changed what it builds:
    the maintainer runs it by hand and commits it afterwards (2883a07b "update wheel scripts",
    two months after v0.7.4), so the tag's copy was stale and the last such commit's counts."""
    commits = entry["commits"]
    at_tag = commits[0] if commits[0]["commit"] == entry["commit"] else None
    last = commits[-1]
    if at_tag is not None and last["builds"] == at_tag["builds"]:
        used, inferred = at_tag, False
        source = f"{cite(repo, used['commit'], path)} (tag {entry['tag']})"
    else:
        used, inferred = last, True
        source = (
            f"{cite(repo, used['commit'], path)} ({used['date']}); rule: the last commit whose "
            f"{P3D_INIT} still says {version} changed what {path} builds, so tag {entry['tag']}'s "
            "copy was stale (the script is run by hand and committed after the build)"
        )
    builds = {
        torch: {acc: list(b["python"]) for acc in b["accelerators"]}
        for torch, b in used["builds"].items()
    }
    return builds, source, inferred


def _p3d_narrowed(
    version: str, builds: dict[str, dict[str, list[str]]]
) -> tuple[dict[str, dict[str, list[str]]], str]:
    """The builds narrowed to what the maintainer said was uploaded (P3D_UPLOADED), and the
    rule to add to the source ("" when no such statement)."""
    said = P3D_UPLOADED.get(version)
    if said is None:
        return builds, ""
    out: dict[str, dict[str, list[str]]] = {}
    for torch, accs in builds.items():
        for acc, pythons in accs.items():
            kept = [p for p in pythons if p in said["builds"].get(torch, {}).get(acc, [])]
            if kept:
                out.setdefault(torch, {})[acc] = kept
    rule = f"; rule: narrowed to the wheels the maintainer said were uploaded, {said['link']} "
    return out, rule + f"({said['said']})"


def derive_pytorch3d(versions: Sequence[str], rec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per version: the builds of its script (`_p3d_script`), narrowed where the maintainer said
    what was uploaded (`_p3d_narrowed`). Releases with the same CUDA builds and pythons share a
    row."""
    rows = []
    for version in versions:
        entry = rec["versions"].get(version)
        if entry is None or not entry["commits"]:
            continue
        builds, source, inferred = _p3d_script(version, entry, rec["repo"], rec["path"])
        builds, rule = _p3d_narrowed(version, builds)
        groups: dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]] = {}
        for torch in sorted(builds, key=Version):
            by_python: dict[tuple[str, ...], list[str]] = {}
            for acc, built_for in builds[torch].items():
                by_python.setdefault(tuple(built_for), []).append(acc)
            for python_set, acc_list in by_python.items():
                key = (tuple(sorted(acc_list, key=_acc_key)), python_set)
                groups.setdefault(key, []).append(torch)
        for (accs, pythons), torches in groups.items():
            rows.append(
                _row(
                    [version],
                    torches,
                    accs,
                    pythons,
                    "linux-64",
                    source + rule,
                    inferred=inferred or bool(rule),
                )
            )
    return rows


def _mmcv_tag_facts(version: str, tag: Mapping[str, Any]) -> set[tuple[str, str, str]]:
    """(platform, torch series, accelerator) the tag's own pages say `version` was built for:
    linux-64, and win-64 where the page says its table is for Windows too (less its exclusions)."""
    out = set()
    excluded = tag.get("windows-excluded")
    for e in tag["table"]:
        if not (e["pin"] in (None, version) or str(e["pin"]).startswith("{")):
            continue
        out.add(("linux-64", e["torch"], e["accelerator"]))
        page = f"{e['accelerator']}-torch{e['torch']}"
        if excluded is not None and not any(fnmatch.fnmatchcase(page, x) for x in excluded):
            out.add(("win-64", e["torch"], e["accelerator"]))
    for row in tag.get("selector") or []:
        if version in row["versions"]:
            out.add((row["platform"], row["torch"], row["accelerator"]))
    return out


def derive_mmcv(name: str, versions: Sequence[str], rec: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per version: the builds its tag's install page names (linux-64; win-64 where the page
    says so), whether or not the selector of the package's branch lists them (the tag's own
    artifact wins); the builds only that selector lists, `inferred` (one row per platform and
    CUDA build across versions: one source file)."""
    selector = rec["selectors"][name]
    sel_source = (
        f"{cite(rec['repo'], selector['commit'], selector['path'])} "
        f"({selector['branch']} branch, changed {selector['changed']})"
    )
    tagged: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    later: dict[tuple[str, str, str], list[str]] = {}
    for version in versions:
        tag = rec["tags"].get(version)
        if tag is None:
            continue
        # the tag's own page wins for every build it names (each row is read from its own tag's
        # artifact): a build the later selector omits for this version stays, derived
        own = _mmcv_tag_facts(version, tag)
        torches_of: dict[tuple[str, str], list[str]] = {}
        for platform, torch, acc in own:
            torches_of.setdefault((platform, acc), []).append(torch)
        accs_of: dict[tuple[str, tuple[str, ...]], list[str]] = {}
        for (platform, acc), torches in torches_of.items():
            accs_of.setdefault((platform, tuple(sorted(torches, key=Version))), []).append(acc)
        where = tag["path"] if tag["table"] else SELECTOR
        source = f"{cite(rec['repo'], tag['commit'], where)} (tag {tag['tag']})"
        for (platform, torch_list), accs in accs_of.items():
            row = _row([version], torch_list, accs, [], platform, source, inferred=False)
            first = min(accs, key=_acc_key)
            order = (Version(version), dex.PLATFORM_ORDER.index(platform), _acc_key(first))
            tagged.append((order, row))
        for row in selector["rows"]:
            fact = (row["platform"], row["torch"], row["accelerator"])
            if version in row["versions"] and fact not in own:
                later.setdefault(fact, []).append(version)
    rows = [r for _, r in sorted(tagged, key=lambda kv: kv[0])]
    grouped: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}
    for (platform, torch, acc), version_list in later.items():
        grouped.setdefault((platform, acc, tuple(version_list)), []).append(torch)
    rule = (
        "; rule: the tag's own install page does not list this build (its table predates the "
        "upload, or there is no table), so the installation selector's list of uploaded "
        "packages, written after the tag"
    )
    inferred_rows = []
    for (platform, acc, vs), unsorted in grouped.items():
        torches = sorted(unsorted, key=Version)
        row = _row(vs, torches, [acc], [], platform, sel_source + rule, inferred=True)
        where_in = (dex.PLATFORM_ORDER.index(platform), _acc_key(acc), Version(torches[0]))
        inferred_rows.append(((*where_in, Version(vs[0])), row))
    return rows + [r for _, r in sorted(inferred_rows, key=lambda kv: kv[0])]


def derive_all(text: str) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[Any]]]:
    """The derived build rows of the four extensions, and their current rows."""
    derived: dict[str, list[dict[str, Any]]] = {}
    old: dict[str, list[Any]] = {}
    for ext in yaml.safe_load(text):
        name = ext["name"]
        if name not in NAMES or not (RECORDED / f"{RECORDING[name]}.json").exists():
            continue
        versions = [str(v["version"]) for v in ext["versions"]]
        rec = load(RECORDING[name])
        if name == "detectron2":
            derived[name] = derive_detectron2(versions, rec)
        elif name == "pytorch3d":
            derived[name] = derive_pytorch3d(versions, rec)
        else:
            derived[name] = derive_mmcv(name, versions, rec)
        old[name] = ext["builds"]
    return derived, old


def facts(rows: Iterable[Mapping[str, Any]]) -> dict[tuple[str, str, str, str], tuple[Any, ...]]:
    """(version, torch, platform, accelerator) -> (pythons, inferred) of some rows."""
    out = {}
    for r in rows:
        for v in r["versions"]:
            for t in r["torch"]:
                for p in r.get("platforms", ["linux-64"]):
                    for a in r["accelerators"]:
                        out[(v, t, p, a)] = (tuple(r.get("python", ())), bool(r.get("inferred")))
    return out


def changes(old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many (version, torch, platform, accelerator) facts were added, dropped, or changed
    their pythons or inferred flag (and how many are the same)."""
    o, n = facts(old), facts(new)
    return {
        "added": len(n.keys() - o.keys()),
        "dropped": len(o.keys() - n.keys()),
        "changed": sum(1 for k in o.keys() & n.keys() if o[k] != n[k]),
        "same": sum(1 for k in o.keys() & n.keys() if o[k] == n[k]),
        "inferred": sum(1 for v in n.values() if v[1]),
    }


# --- audit: one row against its artifact again ----------------------------------------------
_SOURCE: Final = re.compile(r"^([\w.-]+/[\w.-]+)@([0-9a-f]{7,40}):(\S+)")
Verdict = Literal["right", "wrong", "unverifiable"]
Said = dict[tuple[str, str, str, str], tuple[str, ...] | None]


def _recorded_at(items: Iterable[Mapping[str, Any]], commit: str) -> Mapping[str, Any]:
    return next((i for i in items if str(i["commit"]).startswith(commit)), {})


def _said_by_script(row: Mapping[str, Any], commit: str, text: str, rec: Mapping[str, Any]) -> Said:
    """What a detectron2 / pytorch3d build script (re-read, else recorded) builds: per
    (version, torch, platform, accelerator) its pythons."""
    if row["name"] == "detectron2":
        builds = detectron2_builds(text) if text else {}
        builds = builds or _recorded_at(rec["tags"].values(), commit).get("builds", {})
    else:
        commits = [c for v in rec["versions"].values() for c in v["commits"]]
        builds = pytorch3d_builds(text) if text else {}
        builds = builds or _recorded_at(commits, commit).get("builds", {})
        said: Said = {}
        for version in row["versions"]:
            script = {
                t: {a: list(b["python"]) for a in b["accelerators"]} for t, b in builds.items()
            }
            narrowed, _rule = _p3d_narrowed(version, script)
            for torch, accs in narrowed.items():
                for acc, pythons in accs.items():
                    said[(version, torch, "linux-64", acc)] = tuple(pythons)
        return said
    return {
        (version, torch, "linux-64", acc): tuple(b["python"])
        for version in row["versions"]
        for torch, b in builds.items()
        for acc in b["accelerators"]
    }


def _said_by_mmcv(
    row: Mapping[str, Any], commit: str, path: str, text: str, rec: Mapping[str, Any]
) -> Said:
    """What an mmcv install table or selector (re-read, else recorded) lists for the row's
    versions (pythons: not recorded)."""
    if path == SELECTOR:
        recorded = _recorded_at(rec["selectors"].values(), commit).get("rows")
        at_tag = _recorded_at(rec["tags"].values(), commit).get("selector")
        entries: list[dict[str, Any]] = (selector_rows(text) if text else []) or recorded or []
        entries = entries or at_tag or []
    else:
        at_tag = _recorded_at(rec["tags"].values(), commit)
        table = (mmcv_table(text) if text else []) or at_tag.get("table", [])
        windows = windows_exclusions(text) if text else at_tag.get("windows-excluded")
        page = {"table": table, "selector": None, "windows-excluded": windows}
        entries = [
            {"platform": p, "torch": t, "accelerator": a, "versions": [version]}
            for version in row["versions"]
            for p, t, a in _mmcv_tag_facts(version, page)
        ]
    return {
        (version, e["torch"], e["platform"], e["accelerator"]): None
        for e in entries
        for version in e["versions"]
    }


def _unlinked_detectron2_pages(
    row: Mapping[str, Any], commit: str, git_dir: Path, rec: Mapping[str, Any]
) -> list[str]:
    """The row's wheel pages the INSTALL.md of the same commit (a second artifact) does not link."""
    install = dex.git(git_dir, "show", f"{commit}:{D2_INSTALL}") if git_dir.is_dir() else ""
    pages = detectron2_pages(install) if install else []
    pages = pages or _recorded_at(rec["tags"].values(), commit).get("install-pages", [])
    return sorted(
        f"{a}/{t}" for t in row["torch"] for a in row["accelerators"] if f"{a}/{t}" not in pages
    )


def audit_row(row: Mapping[str, Any], mirrors: Path) -> tuple[Verdict, str]:
    """A build row of these four extensions checked against the artifact its source names, re-read
    from the project's git mirror under `mirrors` (else the recording): every (version, torch,
    platform, accelerator, pythons) the row says must be what that artifact says; a detectron2
    row's wheel pages must also be linked by the INSTALL.md of the same commit.
    Returns (verdict, how)."""
    m = _SOURCE.match(str(row.get("source") or ""))
    if m is None:
        return "unverifiable", f"no owner/repo@commit:path source: {row.get('source')}"
    repo, commit, path = m.groups()
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    text = dex.git(git_dir, "show", f"{commit}:{path}") if git_dir.is_dir() else ""
    how = (
        f"{path} re-read from the {repo} mirror at {commit}"
        if text
        else f"the recorded reading of {path} at {commit}"
    )
    rec = load(RECORDING[str(row["name"])])
    if row["name"] in ("detectron2", "pytorch3d"):
        said = _said_by_script(row, commit, text, rec)
    else:
        said = _said_by_mmcv(row, commit, path, text, rec)
    if not said:
        return "unverifiable", f"{path} at {commit}: neither the mirror nor the recording has it"
    wrong = []
    for key, (pythons, _inferred) in facts([row]).items():
        if key not in said:
            wrong.append(f"{' '.join(key)} is not built there")
        elif said[key] is not None and said[key] != pythons:
            wrong.append(f"{' '.join(key)}: python {list(said[key] or ())}, not {list(pythons)}")
    if wrong:
        return "wrong", f"{how}: {'; '.join(wrong)}"
    if row["name"] == "detectron2":
        unlinked = _unlinked_detectron2_pages(row, commit, git_dir, rec)
        if unlinked:
            return "wrong", f"{D2_INSTALL} at {commit} links no wheel page {', '.join(unlinked)}"
        how += f", and its {D2_INSTALL} links each page"
    inferred = " (inferred: its rule names this later source)" if row.get("inferred") else ""
    return "right", f"{how}{inferred}"


# --- the command ----------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--changes", action="store_true")
    parser.add_argument("--record", nargs="+", metavar="NAME=GIT_DIR")
    args = parser.parse_args(argv)
    if args.record:
        for item in args.record:
            key, _, git_dir = item.partition("=")
            if key not in RECORDERS or not git_dir:
                print(f"error: {item}: want one of {', '.join(RECORDERS)}=GIT_DIR", file=sys.stderr)
                return 2
            record(key, Path(git_dir))
        return 0
    text = MATRIX.read_text()
    derived, old = derive_all(text)
    if args.changes:
        for name, rows in derived.items():
            c = changes(old[name], rows)
            print(
                f"{name}: rows {len(old[name])} -> {len(rows)}; build facts (version x torch x "
                f"platform x accelerator): {c['same']} same, {c['changed']} changed (python or "
                f"inferred), {c['added']} added, {c['dropped']} dropped; {c['inferred']} inferred"
            )
        return 0
    return 1 if write_or_diff(MATRIX, dex.render(text, derived), write=args.write) else 0


if __name__ == "__main__":
    sys.exit(main())
