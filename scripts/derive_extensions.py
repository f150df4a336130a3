"""Derive extensions.yaml's build rows of the PyG extensions per tag from that tag's wheel workflow.

The job: torch-scatter, torch-sparse, torch-cluster and torch-spline-conv build their wheels with
`.github/workflows/building.yml` (a matrix of os x python-version x torch-version x cuda-version
with excludes), dispatched by hand, and serve them from data.pyg.org (not reachable here; PyPI
has their sources only). For each version V and torch series T the rows say what the workflow of
V's own tag builds; where the tag's workflow does not build T (wheels for a torch released after
the tag, built from a later commit whose package still says V), the row comes from the last such
commit's workflow and says `inferred: true` with that rule in its `source` (commits before the
tag do not count: the tag's workflow replaced theirs; a tag without a workflow counts every
commit whose package says V). No list is carried
from one version or series to another.

xformers (`--record-xformers GIT_DIR`, PyPI too): per version, its tag's .github/workflows/
wheels.yml (static matrix, or the literals of its inline matrix script: read, never run) gives
the CUDA builds and the Windows CUDA exclusion; PyPI's files of the version give the platforms
and pythons (an abi3 wheel: the torch release's pythons from its floor) and one wheel's METADATA
the torch pin. A version whose workflow names no CUDA list keeps its row, `inferred`.

The facts are recorded in tests/data/recorded/extensions/<name>.json (`--record NAME=GIT_DIR`,
from a git mirror of the project: per commit that touched the workflow or the version, its
version and the expanded matrix; the workflows themselves are not copied), so the derivation and
its test run offline.

    python scripts/derive_extensions.py                  # diff of extensions.yaml; exit 1 if stale
    python scripts/derive_extensions.py --write
    python scripts/derive_extensions.py --changes        # the rows derivation changed
    python scripts/derive_extensions.py --record torch-scatter=/path/to/pytorch_scatter.git
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess  # noqa: TID251 - a maintainer script reading a local git mirror, not envgen
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import yaml
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_diff

ROOT: Final = Path(__file__).resolve().parent.parent
MATRIX: Final = ROOT / "matrices" / "extensions.yaml"
RECORDED: Final = ROOT / "tests" / "data" / "recorded" / "extensions"
WORKFLOW: Final = ".github/workflows/building.yml"
# name -> (GitHub repository, the package folder holding __version__)
PROJECTS: Final = {
    "torch-scatter": ("rusty1s/pytorch_scatter", "torch_scatter"),
    "torch-sparse": ("rusty1s/pytorch_sparse", "torch_sparse"),
    "torch-cluster": ("rusty1s/pytorch_cluster", "torch_cluster"),
    "torch-spline-conv": ("rusty1s/pytorch_spline_conv", "torch_spline_conv"),
}
PLATFORM_ORDER: Final = ("linux-64", "win-64", "osx-64", "osx-arm64", "linux-aarch64")


# --- the workflow (pure) ----------------------------------------------------------------------
def runner_platform(os_name: str) -> str | None:
    """The platform a GitHub runner label builds for.

    >>> [runner_platform(o) for o in ("ubuntu-20.04", "ubuntu-22.04-arm", "windows-2019")]
    ['linux-64', 'linux-aarch64', 'win-64']
    >>> [runner_platform(o) for o in ("macos-10.15", "macos-11", "macos-14", "macos-latest")]
    ['osx-64', 'osx-64', 'osx-arm64', None]
    """
    if os_name.startswith("ubuntu"):
        return "linux-aarch64" if os_name.endswith("-arm") else "linux-64"
    if os_name.startswith("windows"):
        return "win-64"
    m = re.fullmatch(r"macos-(\d+)(?:\.\d+)?", os_name)
    if m:
        return "osx-arm64" if int(m.group(1)) >= 14 else "osx-64"
    return None


def expand_matrix(workflow: Mapping[str, Any]) -> list[dict[str, str]]:
    """The jobs of a workflow's `wheel` matrix: the product of its lists, excludes removed,
    includes added (GitHub's rules: an exclude removes every job matching all its keys).

    >>> wf = {"jobs": {"wheel": {"strategy": {"matrix": {
    ...     "os": ["ubuntu-20.04"], "python-version": ["3.8", "3.9"], "torch-version": ["2.0.0"],
    ...     "cuda-version": ["cpu", "cu118"],
    ...     "exclude": [{"python-version": "3.8", "cuda-version": "cu118"}]}}}}}
    >>> [(j["python-version"], j["cuda-version"]) for j in expand_matrix(wf)]
    [('3.8', 'cpu'), ('3.9', 'cpu'), ('3.9', 'cu118')]
    """
    jobs: Mapping[str, Any] = workflow.get("jobs") or {}
    job: Mapping[str, Any] = jobs.get("wheel") or next(iter(jobs.values()), {})
    matrix = dict((job.get("strategy") or {}).get("matrix") or {})
    excludes = matrix.pop("exclude", None) or []
    includes = matrix.pop("include", None) or []
    keys = [k for k, v in matrix.items() if isinstance(v, list)]
    combos: list[dict[str, str]] = [{}]
    for key in keys:
        combos = [{**c, key: str(v)} for c in combos for v in matrix[key]]
    out = [
        c
        for c in combos
        if not any(all(c.get(k) == str(v) for k, v in ex.items()) for ex in excludes)
    ]
    out += [{k: str(v) for k, v in inc.items()} for inc in includes]
    return out


def builds_of(workflow_text: str) -> dict[str, dict[str, dict[str, list[str]]]]:
    """{torch series: {platform: {accelerator: [pythons]}}} a building.yml builds."""
    try:
        workflow = yaml.safe_load(workflow_text) or {}
    except yaml.YAMLError:
        return {}  # GitHub refuses a workflow that is not YAML: it built nothing
    out: dict[str, dict[str, dict[str, set[str]]]] = {}
    for job in expand_matrix(workflow):
        platform = runner_platform(job.get("os", ""))
        torch, cuda, python = (
            job.get("torch-version"),
            job.get("cuda-version"),
            job.get("python-version"),
        )
        if not (platform and torch and cuda and python):
            continue
        series = ".".join(torch.split(".")[:2])
        out.setdefault(series, {}).setdefault(platform, {}).setdefault(cuda, set()).add(python)
    return {
        s: {p: {a: sorted(ps, key=Version) for a, ps in accs.items()} for p, accs in plats.items()}
        for s, plats in out.items()
    }


_VERSION: Final = re.compile(r"^__version__ = ['\"]([^'\"]+)['\"]", re.MULTILINE)


# --- recording (a git mirror) -------------------------------------------------------------------
def git(git_dir: Path, *args: str) -> str:
    out = subprocess.run(
        ["git", f"--git-dir={git_dir}", *args],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout if out.returncode == 0 else ""


def runnable(
    git_dir: Path, commit: str, builds: dict[str, dict[str, dict[str, list[str]]]]
) -> dict[str, dict[str, dict[str, list[str]]]]:
    """Drop the linux-aarch64 CUDA jobs whose CUDA install script (.github/workflows/cuda/
    cuXXX-Linux.sh at that commit) installs an x86_64 package: on an arm runner they fail."""
    for platforms in builds.values():
        accs = platforms.get("linux-aarch64", {})
        for acc in [a for a in accs if a != "cpu"]:
            script = git(git_dir, "show", f"{commit}:.github/workflows/cuda/{acc}-Linux.sh")
            arm = any(w in script for w in ("aarch64", "arm64", "sbsa"))
            if not arm and ("x86_64" in script or "amd64" in script or not script):
                del accs[acc]
    return builds


def record(name: str, git_dir: Path) -> None:
    repo, package = PROJECTS[name]
    paths = (WORKFLOW, f"{package}/__init__.py", "setup.py")
    tags = {}
    for line in git(git_dir, "show-ref", "--tags", "-d").splitlines():
        sha, ref = line.split()
        tag = ref.removeprefix("refs/tags/").removesuffix("^{}")
        tags[tag] = sha  # the peeled commit (^{}) comes after the tag object and wins
    touched = set(git(git_dir, "log", "--format=%H", "HEAD", "--", *paths).split())
    wanted = touched | set(tags.values())
    facts = []
    for line in git(git_dir, "log", "--reverse", "--format=%H %cs", "HEAD").splitlines():
        commit, date = line.split()
        if commit not in wanted:
            continue
        init = git(git_dir, "show", f"{commit}:{package}/__init__.py")
        found = _VERSION.search(init)
        text = git(git_dir, "show", f"{commit}:{WORKFLOW}")
        if not found or not text:
            continue
        blob = git(git_dir, "rev-parse", f"{commit}:{WORKFLOW}").strip()
        facts.append(
            {
                "commit": commit,
                "date": date,
                "version": found.group(1),
                "workflow-blob": blob,
                "builds": runnable(git_dir, commit, builds_of(text)),
            }
        )
    data = {
        "repo": repo,
        "workflow": WORKFLOW,
        "tags": dict(sorted(tags.items())),
        "commits": facts,
    }
    path = RECORDED / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)
    print(f"{name}: {len(facts)} commits, {len(tags)} tags -> {path.relative_to(ROOT)}")


# --- derivation (pure) --------------------------------------------------------------------------
def _acc_key(acc: str) -> tuple[int, int]:
    return (0, 0) if acc == "cpu" else (1, int(acc.removeprefix("cu")))


def _series_key(series: str) -> Version:
    return Version(series)


def derive_rows(
    name: str, versions: Sequence[str], recorded: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The build rows of one extension: per version, torch series and platform, from the
    workflow of the version's tag, else of the last commit whose package says that version."""
    repo = recorded["repo"]
    tags: Mapping[str, str] = recorded["tags"]
    rows: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for version in versions:
        mine = [c for c in recorded["commits"] if c["version"] == version]
        tag_commit = tags.get(version)
        at_tag = [c for c in mine if c["commit"] == tag_commit]
        if at_tag:  # the tag's workflow supersedes the ones before it: only later rebuilds count
            mine = mine[mine.index(at_tag[0]) :]
        series_all = sorted({s for c in mine for s in c["builds"]}, key=_series_key)
        for series in series_all:
            if at_tag and series in at_tag[0]["builds"]:
                fact, inferred = at_tag[0], False
                where = f"github:{repo}@{fact['commit'][:10]} {WORKFLOW} (tag {version})"
            else:
                fact = [c for c in mine if series in c["builds"]][-1]
                inferred = True
                where = (
                    f"github:{repo}@{fact['commit'][:10]} {WORKFLOW} ({fact['date']}); rule: "
                    f"tag {version}'s workflow does not build torch {series}, so the last commit "
                    f"whose {name} version is still {version} and whose workflow builds it"
                )
            for platform, accs in fact["builds"][series].items():
                by_python: dict[tuple[str, ...], list[str]] = {}
                for acc, pythons in accs.items():
                    by_python.setdefault(tuple(pythons), []).append(acc)
                for pythons, acc_list in by_python.items():
                    row: dict[str, Any] = {
                        "versions": [version],
                        "torch": [series],
                        "accelerators": sorted(acc_list, key=_acc_key),
                        "python": list(pythons),
                        "platforms": [platform],
                        "source": where,
                    }
                    if inferred:
                        row["inferred"] = True
                    order = (
                        _series_key(series),
                        Version(version),
                        PLATFORM_ORDER.index(platform),
                        _acc_key(min(acc_list, key=_acc_key)),
                    )
                    rows.append((order, row))
    return [r for _, r in sorted(rows, key=lambda kv: kv[0])]


def _flow(row: Mapping[str, Any]) -> str:
    parts = []
    for key, value in row.items():
        if isinstance(value, list):
            inner = ", ".join(v if key == "platforms" else f"'{v}'" for v in value)
            parts.append(f"{key}: [{inner}]")
        elif isinstance(value, bool):
            parts.append(f"{key}: {'true' if value else 'false'}")
        else:
            parts.append(f"{key}: '{str(value).replace(chr(39), chr(39) * 2)}'")
    return "    - {" + ", ".join(parts) + "}"


def render(text: str, derived: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """extensions.yaml with the `builds:` block of each derived extension replaced."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    current: str | None = None
    skipping = False
    for line in lines:
        m = re.match(r"^- name: (\S+)", line)
        if m:
            current, skipping = m.group(1), False
        if skipping:
            if line.startswith("    - "):
                continue
            skipping = False
        out.append(line)
        if current is not None and current in derived and line.rstrip("\n") == "  builds:":
            out.extend(_flow(r) + "\n" for r in derived[current])
            skipping = True
    return "".join(out)


def _row_keys(rows: Iterable[Mapping[str, Any]]) -> set[tuple[Any, ...]]:
    """Each row as (version, series, platform, accelerator, python set, inferred) facts."""
    out = set()
    for r in rows:
        for v in r["versions"]:
            for s in r["torch"]:
                for p in r.get("platforms", ["linux-64"]):
                    for a in r["accelerators"]:
                        out.add((v, s, p, a, tuple(r.get("python", ())), bool(r.get("inferred"))))
    return out


def load(name: str) -> dict[str, Any]:
    path = RECORDED / f"{name}.json"
    return dict(json.loads(path.read_text()))


def derive_all(text: str) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[Any]]]:
    data = yaml.safe_load(text)
    derived: dict[str, list[dict[str, Any]]] = {}
    old: dict[str, list[Any]] = {}
    releases = yaml.safe_load((ROOT / "matrices" / "releases.yaml").read_text())
    torch_pythons = {r["torch"]: r["python"] for r in releases}
    for ext in data:
        if ext["name"] == "xformers" and (RECORDED / "xformers.json").exists():
            rows = derive_xformers(load("xformers"), torch_pythons)
            done = {v for r in rows for v in r["versions"]}
            for row in ext["builds"]:  # versions the tag's workflow does not say enough for
                kept = [v for v in row["versions"] if v not in done]
                if kept:
                    rule = (
                        "rule: not derived (the tag's wheels.yml names no CUDA list; its builds "
                        "came from an include the script does not follow): the earlier row's"
                    )
                    source = str(row.get("source", ""))
                    if not source.startswith("rule: not derived"):
                        source = f"{rule}; {source or ext['source']}"
                    rows.append({**row, "versions": kept, "source": source, "inferred": True})
            derived["xformers"] = sorted(
                rows,
                key=lambda r: (Version(r["versions"][0]), PLATFORM_ORDER.index(r["platforms"][0])),
            )
            old["xformers"] = ext["builds"]
            continue
        if ext["name"] == "spconv" and (RECORDED / "spconv.json").exists():
            versions = [v["version"] for v in ext["versions"]]
            firsts: dict[
                str, Any
            ] = {}  # the earlier rows, one per package (their accelerator and torch range)
            for row in ext["builds"]:
                firsts.setdefault(row["package"], row)
            derived["spconv"] = derive_spconv(list(firsts.values()), versions, load("spconv"))
            old["spconv"] = ext["builds"]
            continue
        if ext["name"] not in PROJECTS or not (RECORDED / f"{ext['name']}.json").exists():
            continue
        versions = [v["version"] for v in ext["versions"]]
        derived[ext["name"]] = derive_rows(ext["name"], versions, load(ext["name"]))
        old[ext["name"]] = ext["builds"]
    return derived, old


def changes(old: Mapping[str, list[Any]], new: Mapping[str, list[Any]]) -> dict[str, int]:
    """Per extension: (version x series x platform x accelerator) facts whose pythons, presence or
    inferred flag changed."""
    out = {}
    for name in new:
        o, n = _row_keys(old[name]), _row_keys(new[name])
        o_by = {k[:4]: k[4:] for k in o}
        n_by = {k[:4]: k[4:] for k in n}
        out[name] = sum(1 for k in set(o_by) | set(n_by) if o_by.get(k) != n_by.get(k))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--changes", action="store_true")
    parser.add_argument("--record", nargs="+", metavar="NAME=GIT_DIR")
    parser.add_argument("--record-xformers", type=Path, metavar="GIT_DIR")
    parser.add_argument("--record-spconv", action="store_true", help="read PyPI")
    args = parser.parse_args(argv)
    if args.record_spconv:
        (ext,) = [e for e in yaml.safe_load(MATRIX.read_text()) if e["name"] == "spconv"]
        record_spconv(sorted({b["package"] for b in ext["builds"]}))
        return 0
    if args.record_xformers:
        (ext,) = [e for e in yaml.safe_load(MATRIX.read_text()) if e["name"] == "xformers"]
        record_xformers(args.record_xformers, [v["version"] for v in ext["versions"]])
        return 0
    if args.record:
        for item in args.record:
            name, _, git_dir = item.partition("=")
            if name not in PROJECTS:
                print(f"error: {name}: not one of {', '.join(PROJECTS)}", file=sys.stderr)
                return 2
            record(name, Path(git_dir))
        return 0
    text = MATRIX.read_text()
    derived, old = derive_all(text)
    new_text = render(text, derived)
    if args.changes:
        for name, n in changes(old, derived).items():
            total = len({k[:4] for k in _row_keys(derived[name]) | _row_keys(old[name])})
            rows = f"rows {len(old[name])} -> {len(derived[name])}"
            print(f"{name}: {n} of {total} build facts changed; {rows}")
        return 0
    return 1 if write_or_diff(MATRIX, new_text, write=args.write, label="derived") else 0


# --- xformers: the tag's wheels.yml and PyPI's uploaded files ---------------------------------
XFORMERS_REPO: Final = "facebookresearch/xformers"
XFORMERS_WORKFLOW: Final = ".github/workflows/wheels.yml"
_LIST: Final = r"\[[^\]\n]{0,400}\]"


def _literal(text: str, pattern: str) -> Any:  # noqa: ANN401 - a literal of the workflow's Python
    """The literal a workflow's inline Python assigns or loops over (read, never run)."""
    m = re.search(pattern, text)
    return ast.literal_eval(m.group(1)) if m else None


def xformers_matrix(text: str) -> dict[str, Any]:
    """What a wheels.yml builds: os labels, pythons (or the one abi3 build's floor), torch
    versions, CUDA short versions and the Windows CUDA exclusion; from its static matrix or the
    literals of its inline matrix script.

    >>> inline = '''
    ...         PYTHON_VERSION = "3.9"
    ...         CU_VERSIONS = ['118', '126', '128']
    ...         for os in ['8-core-ubuntu', 'windows-8-core']:
    ...           for torch_version in ['2.7.1']:
    ...               if cuda_short_version < "124" and "windows" in os:
    ... '''
    >>> m = xformers_matrix(inline)
    >>> m["abi3"], m["cuda"], m["torch"], m["windows-skip"]
    ('3.9', ['118', '126', '128'], ['2.7.1'], ['<', '124'])
    """
    out: dict[str, Any] = {"windows-skip": None, "abi3": None}
    try:
        workflow = yaml.safe_load(text) or {}
    except yaml.YAMLError:
        workflow = {}
    static: dict[str, Any] = {}
    for job in (workflow.get("jobs") or {}).values():
        matrix = (job.get("strategy") or {}).get("matrix")
        if isinstance(matrix, dict) and "python" in matrix:
            static = matrix
    if static:
        out["os"] = [str(o) for o in static.get("os", [])]
        out["python"] = [str(p) for p in static.get("python", [])]
        out["torch"] = [str(t) for t in static.get("torch_version", [])]
        out["cuda"] = [str(c) for c in static.get("cuda_short_version", [])]
        return out
    out["os"] = _literal(text, rf"for os in ({_LIST}):")
    out["torch"] = _literal(text, rf"for torch_version in ({_LIST}):")
    out["python"] = _literal(text, rf"PY_VERSIONS = ({_LIST})")
    out["abi3"] = _literal(text, r"PYTHON_VERSION = (\"[\d.]+\"|'[\d.]+')")
    out["cuda"] = _literal(text, rf"CU_VERSIONS = ({_LIST})") or _literal(
        text, rf"for cuda_short_version in ({_LIST}):"
    )
    m = re.search(r"if cuda_short_version (<|!=|==) [\"'](\d+)[\"'] and \"windows\" in os", text)
    if m:
        out["windows-skip"] = [m.group(1), m.group(2)]
    return out


def record_xformers(git_dir: Path, versions: Sequence[str]) -> None:
    """Each version's tag workflow (its literals) and PyPI's files of that version (with the
    torch pin of one wheel's METADATA)."""
    from envgen.verification.pypi import (  # noqa: PLC0415 - network only when recording
        fetch_simple,
        fetch_wheel_metadata,
        requires_dist_lines,
    )

    files = fetch_simple("xformers")["files"]
    data: dict[str, Any] = {"repo": XFORMERS_REPO, "workflow": XFORMERS_WORKFLOW, "versions": {}}
    for version in versions:
        tag = f"v{version}"
        commit = git(git_dir, "rev-parse", f"{tag}^{{commit}}").strip()
        text = git(git_dir, "show", f"{commit}:{XFORMERS_WORKFLOW}") if commit else ""
        wheels = sorted(
            f["filename"]
            for f in files
            if f["filename"].startswith(f"xformers-{version}-") and f["filename"].endswith(".whl")
        )
        pin = None
        first = next((f for f in files if wheels and f["filename"] == wheels[0]), None)
        if first is not None:
            meta = fetch_wheel_metadata(
                first["url"], core_metadata=bool(first.get("core-metadata"))
            )
            pin = next((r for r in requires_dist_lines(meta) if r.startswith("torch")), None)
        data["versions"][version] = {
            "tag": tag,
            "commit": commit,
            "matrix": xformers_matrix(text) if text else None,
            "pypi-wheels": wheels,
            "pypi-torch": pin,
        }
        print(version, commit[:10], len(wheels), pin, flush=True)
    path = RECORDED / "xformers.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)


def wheel_platform(filename: str) -> str | None:
    tag = filename[:-4].rsplit("-", 1)[-1]
    if "x86_64" in tag and ("manylinux" in tag or "linux" in tag):
        return "linux-64"
    return "win-64" if tag == "win_amd64" else None


def _skipped(cuda: str, skip: Sequence[str] | None) -> bool:
    if not skip:
        return False
    op, value = skip
    return {"<": int(cuda) < int(value), "!=": cuda != value, "==": cuda == value}[op]


def derive_xformers(
    recorded: Mapping[str, Any], torch_pythons: Mapping[str, Sequence[str]]
) -> list[dict[str, Any]]:
    """xformers rows: torch from the PyPI wheel's pin (else the tag's one torch_version), CUDA
    builds and Windows exclusion from the tag's workflow, platforms and pythons from PyPI's
    files of the version (abi3: the torch release's pythons from the floor up)."""
    rows = []
    for version, rec in recorded["versions"].items():
        matrix = rec["matrix"] or {}
        pin = rec.get("pypi-torch") or ""
        m = re.search(r"==\s*([\d.]+)", pin)
        torch = [m.group(1)] if m else list(matrix.get("torch") or [])[:1]
        if not torch or not matrix.get("cuda"):
            continue
        wheels = rec["pypi-wheels"]
        on_pypi = {p for p in map(wheel_platform, wheels) if p}
        built = {p for p in map(_os_platform, matrix.get("os") or []) if p}
        platforms = sorted(built & on_pypi if wheels else built, key=PLATFORM_ORDER.index)
        tags = {w.split("-")[2] for w in wheels}
        if any(w.split("-")[3] == "abi3" for w in wheels) or matrix.get("abi3"):
            floor = Version(matrix.get("abi3") or min(t[2:3] + "." + t[3:] for t in tags))
            pythons = [p for p in torch_pythons.get(torch[0], ()) if Version(p) >= floor]
        elif wheels:
            pythons = sorted({f"{t[2]}.{t[3:]}" for t in tags}, key=Version)
        else:
            pythons = list(matrix.get("python") or [])
        source = (
            f"github:{XFORMERS_REPO}@{rec['commit'][:10]} {XFORMERS_WORKFLOW} (tag {rec['tag']})"
        )
        if wheels:
            source += f"; PyPI's files of {version} (platforms, pythons) and torch pin"
        for platform in platforms:
            cudas = [
                c
                for c in matrix["cuda"]
                if not (platform == "win-64" and _skipped(c, matrix.get("windows-skip")))
            ]
            rows.append(
                {
                    "versions": [version],
                    "torch": torch,
                    "accelerators": [f"cu{c}" for c in cudas],
                    "python": pythons,
                    "platforms": [platform],
                    "source": source,
                }
            )
    return rows


def _os_platform(label: str) -> str | None:
    if "windows" in label:
        return "win-64"
    return "linux-64" if "ubuntu" in label or "linux" in label else None


# --- spconv: one PyPI package per CUDA, not tied to a torch ABI --------------------------------
def record_spconv(packages: Sequence[str]) -> None:
    """The wheel file names of each spconv package on PyPI."""
    from envgen.verification.pypi import fetch_simple  # noqa: PLC0415 - network only when recording

    data = {
        name: sorted(
            f["filename"] for f in fetch_simple(name)["files"] if f["filename"].endswith(".whl")
        )
        for name in packages
    }
    path = RECORDED / "spconv.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"pypi-wheels": data}, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)
    print(f"spconv: {sum(len(v) for v in data.values())} wheels of {len(data)} packages")


def derive_spconv(
    old_rows: Sequence[Mapping[str, Any]], versions: Sequence[str], recorded: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """spconv rows: each package's accelerator and torch range as the earlier row names them,
    its versions, platforms and pythons from PyPI's files of that package (grouped)."""
    rows = []
    for old in old_rows:
        package = old["package"]
        wheels = recorded["pypi-wheels"].get(package, [])
        facts: dict[str, dict[str, set[str]]] = {}
        for filename in wheels:
            parts = filename[:-4].split("-")
            version, py, plat = parts[1], parts[2], wheel_platform(filename)
            if version in versions and plat and py.startswith("cp"):
                facts.setdefault(version, {}).setdefault(plat, set()).add(f"{py[2]}.{py[3:]}")
        groups: dict[tuple[str, tuple[str, ...]], list[str]] = {}
        for version in versions:
            for plat, found in facts.get(version, {}).items():
                key = (plat, tuple(sorted(found, key=Version)))
                groups.setdefault(key, []).append(version)
        for (plat, pythons), vs in sorted(
            groups.items(), key=lambda kv: (Version(kv[1][0]), PLATFORM_ORDER.index(kv[0][0]))
        ):
            row: dict[str, Any] = {
                "versions": vs,
                "package": package,
                "torch": list(old["torch"]),
                "accelerators": list(old["accelerators"]),
                "python": list(pythons),
                "platforms": [plat],
            }
            source = f"PyPI's files of {package} (tests/data/recorded/extensions/spconv.json)"
            if old.get("inferred"):
                row["inferred"] = True
                rule = str(old.get("source", ""))
                if rule.startswith("PyPI's files of"):  # written by this script before
                    rule = rule.partition("; ")[2]
                source += f"; {rule}"
            row["source"] = source
            rows.append(row)
    return rows


if __name__ == "__main__":
    sys.exit(main())
