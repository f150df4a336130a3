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
import difflib
import json
import re
import subprocess  # noqa: TID251 - a maintainer script reading a local git mirror, not envgen
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import yaml
from packaging.version import Version

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
    for ext in data:
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
    args = parser.parse_args(argv)
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
    if args.write:
        tmp = MATRIX.with_suffix(".tmp")
        tmp.write_text(new_text)
        tmp.replace(MATRIX)
        return 0
    diff = list(
        difflib.unified_diff(
            text.splitlines(True), new_text.splitlines(True), "extensions.yaml", "derived"
        )
    )
    sys.stdout.writelines(diff)
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
