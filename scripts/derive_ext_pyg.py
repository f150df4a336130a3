"""Derive extensions.yaml's pyg-lib, dgl and flash-attn build rows per tag from its own artifacts.

The job (issue 23): no row is carried from one tag to another. Each extension's rows come from
what its own tag (or PyPI's files of its own version) says; where a fact cannot be read there,
the row says `inferred: true` and its `source` names the rule. What each extension reads:

* pyg-lib      the wheel workflows at the tag's commit (pyg-team/pyg-lib): `building.yml`
               (os x python-version x torch-version x cuda-version, excludes applied; 0.1.0-0.5.0)
               and `release.yml`'s final builds of `utils/full_matrix_{linux,macos,windows}.json`
               (0.6.0 on; a matrix without python-version builds one cp3X-abi3 wheel, the floor
               read from setup.py's py_limited_api, serving the torch release's pythons from it
               on, as matrices/releases.yaml lists them). A torch series the tag's workflows do
               not build but a later commit still at that version does: `inferred`, that rule
               (as scripts/derive_extensions.py does for the torch-scatter family). The wheels
               live on data.pyg.org only (not on PyPI; not reachable here).
* flash-attn   `.github/workflows/publish.yml` at tag v<version> (Dao-AILab/flash-attention):
               torch x python x CUDA builds, excludes applied; `setup.py` at the tag names the
               wheel's CUDA (major+minor, or the major alone from 2.7) and serves every CUDA 11
               torch with the 11.x build and every CUDA 12 torch with the 12.x one, so a row's
               accelerators are the torch series' CUDA builds of that major (matrices/pip.yaml).
               The wheels are GitHub release assets (not reachable here).
* dgl          PyPI's files of the version (https://pypi.org/simple/dgl/: platforms, pythons of
               the CPU wheels). DGL's wheel builds are not in its public repository and
               data.dgl.ai is not reachable, so the torch series and CUDA builds of each version
               come from public install lines (recorded with where they were read) and say
               `inferred`; their pythons come from PyPI's wheels of the same version, else from
               the tag's conda/dgl/conda_build_config.yaml (also `inferred`, the rule said).

The facts are recorded in tests/data/recorded/extensions/{pyg-lib,flash-attn,dgl}.json
(`--record NAME=GIT_DIR`, from a git mirror; dgl also reads PyPI), commit and path per fact, so
the derivation and its test run offline; the workflows themselves are not copied.

    python scripts/derive_ext_pyg.py                  # diff of extensions.yaml; exit 1 if stale
    python scripts/derive_ext_pyg.py --write
    python scripts/derive_ext_pyg.py --changes        # rows before / after per extension
    python scripts/derive_ext_pyg.py --record pyg-lib=/work/.mirror/pyg-team+pyg-lib/repo
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal

import yaml
from packaging.version import Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
import derive_extensions as dex
from generated import write_or_diff

ROOT: Final = Path(__file__).resolve().parent.parent
MATRIX: Final = ROOT / "matrices" / "extensions.yaml"
RECORDED: Final = ROOT / "tests" / "data" / "recorded" / "extensions"
REPOS: Final = {
    "pyg-lib": "pyg-team/pyg-lib",
    "flash-attn": "Dao-AILab/flash-attention",
    "dgl": "dmlc/dgl",
}
PLATFORM_ORDER: Final = dex.PLATFORM_ORDER

# pyg-lib: the files whose state at a commit says what that commit builds as a final release
PYG_BUILDING: Final = ".github/workflows/building.yml"
PYG_RELEASE: Final = ".github/workflows/release.yml"
PYG_FULL: Final = ".github/workflows/utils/full_matrix_{os}.json"
PYG_MACOS: Final = ".github/workflows/_build_macos.yml"
PYG_PATHS: Final = (
    PYG_BUILDING,
    PYG_RELEASE,
    PYG_MACOS,
    "pyg_lib/__init__.py",
    "setup.py",
    ".github/workflows/utils",
)
FA_WORKFLOW: Final = ".github/workflows/publish.yml"
DGL_CONDA: Final = "conda/dgl/conda_build_config.yaml"
Verdict = Literal["right", "wrong", "unverifiable"]
_VERSION: Final = re.compile(r"^__version__ = ['\"]([^'\"]+)['\"]", re.MULTILINE)


def short(commit: str) -> str:
    return commit[:10]


def cite(name: str, commit: str, path: str) -> str:
    """A source as owner/repo@commit:path."""
    return f"{REPOS[name]}@{short(commit)}:{path}"


# --- pyg-lib (pure) -----------------------------------------------------------------------------
def pyg_release_builds(
    full: Mapping[str, Sequence[Mapping[str, Any]]], macos_runner: str
) -> dict[str, dict[str, dict[str, list[str]]]]:
    """{series: {platform: {accelerator: pythons}}} of release.yml's full matrices; a matrix
    entry without python-version builds one abi3 wheel: its pythons are [] here.

    >>> full = {"linux": [{"torch-version": "2.8.0", "python-version": ["3.10"],
    ...     "cuda-version": ["cpu", "cu126"]}], "macos": [{"torch-version": "2.8.0",
    ...     "cuda-version": ["cpu"], "python-version": ["3.10"]}], "windows": []}
    >>> pyg_release_builds(full, "macos-14")["2.8"]
    {'linux-64': {'cpu': ['3.10'], 'cu126': ['3.10']}, 'osx-arm64': {'cpu': ['3.10']}}
    """
    out: dict[str, dict[str, dict[str, set[str]]]] = {}
    for os_name, entries in full.items():
        for entry in entries:
            torch = str(entry["torch-version"])
            series = ".".join(torch.split(".")[:2])
            if os_name == "linux":
                arches = [str(a) for a in entry.get("arch", ["x86_64"])]
                platforms = ["linux-aarch64" if a == "aarch64" else "linux-64" for a in arches]
            elif os_name == "macos":
                platforms = [p for p in [dex.runner_platform(macos_runner)] if p]
            else:
                platforms = ["win-64"]
            pythons = {str(p) for p in entry.get("python-version", [])}
            for platform in platforms:
                for acc in entry.get("cuda-version", []):
                    accs = out.setdefault(series, {}).setdefault(platform, {})
                    accs.setdefault(str(acc), set()).update(pythons)
    return {
        s: {
            p: {a: sorted(ps, key=Version) for a, ps in accs.items()}
            for p, accs in sorted(plats.items(), key=lambda kv: PLATFORM_ORDER.index(kv[0]))
        }
        for s, plats in out.items()
    }


def pyg_commit_facts(read: Any, commit: str) -> dict[str, Any] | None:  # noqa: ANN401 - git show
    """What one pyg-lib commit builds as a final release, from its own files (`read(path)` gives
    the file at the commit, "" when absent)."""
    found = _VERSION.search(read("pyg_lib/__init__.py"))
    if not found:
        return None
    builds: dict[str, dict[str, dict[str, list[str]]]] = {}
    paths = []
    building = read(PYG_BUILDING)
    if building:
        paths.append(PYG_BUILDING)
        builds = dex.builds_of(building)
    release = read(PYG_RELEASE)
    if release and "final" in release:
        full = {}
        paths += [PYG_RELEASE, PYG_MACOS]
        for os_name in ("linux", "macos", "windows"):
            text = read(PYG_FULL.format(os=os_name))
            if text:
                paths.append(PYG_FULL.format(os=os_name))
                full[os_name] = json.loads(text)
        runner = re.search(r"runs-on:\s*(macos-[\w.]+)", read(PYG_MACOS))
        for series, plats in pyg_release_builds(full, runner.group(1) if runner else "").items():
            for platform, accs in plats.items():
                builds.setdefault(series, {}).setdefault(platform, {}).update(accs)
    for plats in builds.values():  # macOS has no CUDA: a CUDA job there builds no CUDA wheel
        for platform in [p for p in plats if p.startswith("osx")]:
            plats[platform] = {a: ps for a, ps in plats[platform].items() if a == "cpu"}
    abi3 = re.search(r"['\"]py_limited_api['\"]:\s*['\"]cp3(\d+)['\"]", read("setup.py"))
    if not builds:
        return None
    torch_versions: dict[str, str] = {}
    for text in [building] + [read(PYG_FULL.format(os=o)) for o in ("linux",)]:
        for t in re.findall(r"\b(\d+\.\d+\.\d+)\b", text or ""):
            torch_versions.setdefault(".".join(t.split(".")[:2]), t)
    return {
        "commit": commit,
        "version": found.group(1),
        "paths": list(dict.fromkeys(paths)),
        "abi3-floor": f"3.{abi3.group(1)}" if abi3 else None,
        "torch": {s: torch_versions.get(s, f"{s}.0") for s in builds},
        "builds": builds,
    }


def derive_pyg_lib(
    versions: Sequence[str],
    recorded: Mapping[str, Any],
    torch_pythons: Mapping[str, Sequence[str]],
) -> list[dict[str, Any]]:
    """pyg-lib rows: per version, torch series and platform, from the workflows of the version's
    tag, else (inferred) of the last later commit still at that version that builds the series."""
    tags: Mapping[str, str] = recorded["tags"]
    rows: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    for version in versions:
        mine = [c for c in recorded["commits"] if c["version"] == version]
        at_tag = [c for c in mine if c["commit"] == tags.get(version)]
        if at_tag:  # the tag's workflows supersede the ones before it: only later rebuilds count
            mine = mine[mine.index(at_tag[0]) :]
        for series in sorted({s for c in mine for s in c["builds"]}, key=Version):
            inferred = not (at_tag and series in at_tag[0]["builds"])
            fact = at_tag[0] if not inferred else [c for c in mine if series in c["builds"]][-1]
            files = "; ".join(cite("pyg-lib", fact["commit"], p) for p in fact["paths"])
            where = f"{files} (tag {version})"
            if inferred:
                where = (
                    f"{files} ({fact['date']}); rule: tag {version}'s workflows do not build "
                    f"torch {series}, so the last commit whose pyg-lib version is still "
                    f"{version} and whose workflows build it"
                )
            for platform, accs in fact["builds"][series].items():
                by_python: dict[tuple[str, ...], list[str]] = {}
                note = ""
                for acc, listed in accs.items():
                    pythons = listed
                    if not listed and fact.get("abi3-floor"):
                        floor = Version(fact["abi3-floor"])
                        pythons = [
                            p
                            for p in torch_pythons.get(fact["torch"][series], ())
                            if Version(p) >= floor
                        ]
                        note = (
                            f"; one cp{fact['abi3-floor'].replace('.', '')}-abi3 wheel "
                            f"(setup.py py_limited_api): torch {fact['torch'][series]}'s pythons "
                            "from it on (matrices/releases.yaml)"
                        )
                    by_python.setdefault(tuple(pythons), []).append(acc)
                for pythons, acc_list in by_python.items():
                    row: dict[str, Any] = {
                        "versions": [version],
                        "torch": [series],
                        "accelerators": sorted(acc_list, key=dex._acc_key),
                        "python": list(pythons),
                        "platforms": [platform],
                        "source": where + note,
                    }
                    if inferred:
                        row["inferred"] = True
                    key = (
                        Version(series),
                        Version(version),
                        PLATFORM_ORDER.index(platform),
                        dex._acc_key(min(acc_list, key=dex._acc_key)),
                    )
                    rows.append((key, row))
    return [r for _, r in sorted(rows, key=lambda kv: kv[0])]


# --- flash-attn (pure) --------------------------------------------------------------------------
def fa_jobs(workflow_text: str) -> list[dict[str, str]]:
    """The build jobs of a publish.yml: the job whose matrix has a torch-version, expanded."""
    try:
        workflow = yaml.safe_load(workflow_text) or {}
    except yaml.YAMLError:
        return []
    for job in (workflow.get("jobs") or {}).values():
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        if isinstance(matrix, dict) and "torch-version" in matrix:
            return dex.expand_matrix({"jobs": {"wheel": job}})
    return []


def fa_cuda_naming(setup_py: str) -> str | None:
    """How setup.py's get_wheel_url names the wheel's CUDA: "major" (cu12) or "major-minor"
    (cu122); None when it names none.

    >>> fa_cuda_naming('cuda_version = f"{torch_cuda_version.major}"')
    'major'
    >>> fa_cuda_naming('cuda_version = f"{torch_cuda_version.major}{torch_cuda_version.minor}"')
    'major-minor'
    """
    m = re.search(r'\n?\s*cuda_version = f"\{torch_cuda_version\.major\}(\{[^}]*\})?"', setup_py)
    if m is None:
        return None
    return "major-minor" if m.group(1) else "major"


def derive_flash_attn(
    recorded: Mapping[str, Any], cuda_builds: Mapping[str, Sequence[str]]
) -> list[dict[str, Any]]:
    """flash-attn rows: one per version x torch series x CUDA build of its tag's publish.yml.

    `cuda_builds`: torch series -> the CUDA versions PyTorch built it for ("11.8", "12.1")."""
    rows = []
    for version, rec in recorded["versions"].items():
        groups: dict[tuple[str, str], set[str]] = {}
        for job in rec["jobs"]:
            series = ".".join(job["torch-version"].split(".")[:2])
            groups.setdefault((series, job["cuda-version"]), set()).add(job["python-version"])
        for (series, cuda), pythons in sorted(
            groups.items(), key=lambda kv: (Version(kv[0][0]), Version(kv[0][1]))
        ):
            major, minor = cuda.split(".")[:2]
            build = major if rec["cuda-naming"] == "major" else f"{major}{minor}"
            accs = [
                "cu" + c.replace(".", "")
                for c in sorted(cuda_builds.get(series, ()), key=Version)
                if c.split(".")[0] == major
            ]
            if not accs:
                continue
            rows.append(
                {
                    "versions": [version],
                    "torch": [series],
                    "accelerators": accs,
                    "cuda-build": build,
                    "python": sorted(pythons, key=Version),
                    "platforms": ["linux-64"],
                    "source": (
                        f"{cite('flash-attn', rec['commit'], FA_WORKFLOW)} (tag {rec['tag']}: "
                        f"torch {series} x CUDA {cuda}); "
                        f"{cite('flash-attn', rec['commit'], 'setup.py')} get_wheel_url (wheel "
                        f"cu{build}; a CUDA {major} torch takes it); accelerators: torch "
                        f"{series}'s CUDA {major} builds (matrices/pip.yaml)"
                    ),
                }
            )
    return rows


# --- dgl (pure) ---------------------------------------------------------------------------------
def wheel_facts(filenames: Sequence[str], version: str) -> dict[str, list[str]]:
    """{platform: pythons} of the cpXY wheels of one version.

    >>> wheel_facts(["dgl-1.1.2-cp37-cp37m-manylinux1_x86_64.whl",
    ...     "dgl-1.1.2-cp310-cp310-macosx_11_0_arm64.whl"], "1.1.2")
    {'linux-64': ['3.7'], 'osx-arm64': ['3.10']}
    """
    out: dict[str, set[str]] = {}
    for name in filenames:
        parts = name[:-4].split("-")
        if parts[1] != version or not parts[2].startswith("cp3"):
            continue
        tag = parts[-1]
        if "aarch64" in tag:
            platform = "linux-aarch64"
        elif "arm64" in tag:
            platform = "osx-arm64"
        elif tag.startswith("macosx"):
            platform = "osx-64"
        elif tag == "win_amd64":
            platform = "win-64"
        elif "x86_64" in tag:
            platform = "linux-64"
        else:
            continue
        out.setdefault(platform, set()).add(f"3.{parts[2][3:]}")
    return {p: sorted(out[p], key=Version) for p in sorted(out, key=PLATFORM_ORDER.index)}


def derive_dgl(recorded: Mapping[str, Any]) -> list[dict[str, Any]]:
    """dgl rows: CPU wheels per platform from PyPI's files of the version; the install lines'
    torch series and CUDA builds on linux-64, inferred (data.dgl.ai is not reachable)."""
    rows = []
    for version, rec in recorded["versions"].items():
        on_pypi = wheel_facts(rec["pypi-wheels"], version)
        any_pythons = sorted({p for ps in on_pypi.values() for p in ps}, key=Version)
        tag = cite("dgl", rec["commit"], DGL_CONDA)
        pypi = f"https://pypi.org/simple/dgl/ (the cpXY wheels of {version})"
        for line in rec["install-lines"]:
            series, accs = line["torch"], list(line["accelerators"])
            pythons = on_pypi.get("linux-64") or any_pythons
            if on_pypi.get("linux-64"):
                rule = f"pythons: {pypi}, its linux-64 wheels (the same release job's CPU build)"
            elif any_pythons:
                rule = f"pythons: {pypi}, its wheels for other platforms (the same release job)"
            else:
                pythons = list(rec["conda-pythons"])
                rule = f"pythons: {tag} (the tag's conda build list; {version} has no PyPI wheel)"
            rows.append(
                {
                    "versions": [version],
                    "torch": [series],
                    "accelerators": accs,
                    "python": pythons,
                    "platforms": ["linux-64"],
                    "source": (
                        f"{line['source']}; rule: DGL's wheel builds are not in dmlc/dgl and "
                        f"data.dgl.ai is not reachable, so torch {series} x {', '.join(accs)} "
                        f"from those install lines; {rule}"
                    ),
                    "inferred": True,
                }
            )
        series = rec["install-lines"][-1]["torch"] if rec["install-lines"] else None
        for platform, pythons in on_pypi.items():
            if platform == "linux-64" or series is None:
                continue  # linux-64 CPU wheels are in the install-line rows above
            rows.append(
                {
                    "versions": [version],
                    "torch": [series],
                    "accelerators": ["cpu"],
                    "python": pythons,
                    "platforms": [platform],
                    "source": (
                        f"{pypi}: {platform} python {', '.join(pythons)}; rule: the wheels name "
                        f"no torch, so torch {series} as the newest install line of {version}"
                    ),
                    "inferred": True,
                }
            )
    return rows


# --- recording (a git mirror; dgl: PyPI too) ----------------------------------------------------
def _reader(git_dir: Path, commit: str) -> Any:  # noqa: ANN401 - a closure over git show
    return lambda path: dex.git(git_dir, "show", f"{commit}:{path}")


def _tags(git_dir: Path) -> dict[str, str]:
    tags = {}
    for line in dex.git(git_dir, "show-ref", "--tags", "-d").splitlines():
        sha, ref = line.split()
        tags[ref.removeprefix("refs/tags/").removesuffix("^{}")] = sha
    return tags


def _write(name: str, data: Mapping[str, Any]) -> None:
    path = RECORDED / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    print(f"{name} -> {path.relative_to(ROOT)}")


def record_pyg_lib(git_dir: Path) -> None:
    tags = _tags(git_dir)
    touched = set(dex.git(git_dir, "log", "--format=%H", "HEAD", "--", *PYG_PATHS).split())
    wanted = touched | set(tags.values())
    facts = []
    for line in dex.git(git_dir, "log", "--reverse", "--format=%H %cs", "HEAD").splitlines():
        commit, date = line.split()
        if commit in wanted:
            fact = pyg_commit_facts(_reader(git_dir, commit), commit)
            if fact is not None:
                facts.append({**fact, "date": date})
    _write(
        "pyg-lib", {"repo": REPOS["pyg-lib"], "tags": dict(sorted(tags.items())), "commits": facts}
    )


def record_flash_attn(git_dir: Path, versions: Sequence[str]) -> None:
    data: dict[str, Any] = {"repo": REPOS["flash-attn"], "versions": {}}
    for version in versions:
        tag = f"v{version}"
        commit = dex.git(git_dir, "rev-parse", f"{tag}^{{commit}}").strip()
        read = _reader(git_dir, commit)
        jobs = [
            {k: j[k] for k in ("torch-version", "python-version", "cuda-version")}
            for j in fa_jobs(read(FA_WORKFLOW))
        ]
        unique = sorted({json.dumps(j, sort_keys=True) for j in jobs})  # cxx11_abi: both built
        data["versions"][version] = {
            "tag": tag,
            "commit": commit,
            "jobs": [json.loads(j) for j in unique],
            "cuda-naming": fa_cuda_naming(read("setup.py")),
        }
    _write("flash-attn", data)


def record_dgl(git_dir: Path, versions: Sequence[str]) -> None:
    """PyPI's wheel names per version and the tag's conda python list; the install lines are
    kept from the previous recording (they are read by hand from public repositories)."""
    from envgen.verification.pypi import fetch_simple  # noqa: PLC0415 - network only here

    old = load("dgl") if (RECORDED / "dgl.json").exists() else {"versions": {}}
    files = [f["filename"] for f in fetch_simple("dgl")["files"]]
    tags = _tags(git_dir)
    data: dict[str, Any] = {"repo": REPOS["dgl"], "versions": {}}
    for version in versions:
        tag = version if version in tags else f"v{version}"
        commit = tags[tag]
        conda = dex.git(git_dir, "show", f"{commit}:{DGL_CONDA}")
        block = conda.split("python:", 1)[-1] if "python:" in conda else ""
        block = re.split(r"\n(?=\S)", block)[0]  # up to the next top-level key
        data["versions"][version] = {
            "tag": tag,
            "commit": commit,
            "conda-pythons": re.findall(r"^\s*-\s*['\"]?(3\.\d+)", block, re.MULTILINE),
            "pypi-wheels": sorted(
                f for f in files if f.startswith(f"dgl-{version}-") and f.endswith(".whl")
            ),
            "install-lines": old["versions"].get(version, {}).get("install-lines", []),
        }
    _write("dgl", data)


# --- the audit: one row against its artifact again ---------------------------------------------
def recheck(
    row: Mapping[str, Any],
    mirrors: Path,
    pypi_files: Any,  # noqa: ANN401 - () -> list of PyPI file names of dgl (live or recorded)
) -> tuple[Verdict, str]:
    """(right / wrong / unverifiable, how) for one pyg-lib, flash-attn or dgl row, read again
    from the artifact its source names: the workflow at its commit (the git mirror under
    `mirrors`, else the recording), PyPI's files of dgl."""
    name = row["name"]
    (series,) = row["torch"]
    (platform,) = row.get("platforms", ["linux-64"])
    source = str(row.get("source") or "")
    if name == "dgl":
        version = row["versions"][0]
        found = wheel_facts(pypi_files(), version)
        pythons = found.get(platform) if row["accelerators"] == ["cpu"] else None
        if pythons is None and found.get(platform) and "its linux-64 wheels" in source:
            pythons = found[platform]
        if pythons is None and found and "its wheels for other platforms" in source:
            pythons = sorted({p for ps in found.values() for p in ps}, key=Version)
        if pythons is None:
            return "unverifiable", f"data.dgl.ai is not reachable; rule in the row: {source}"
        said = f"PyPI's dgl {version} {platform} wheels: python {pythons} (torch inferred)"
        return ("right" if pythons == list(row["python"]) else "wrong"), said
    m = re.match(r"([\w.-]+/[\w.-]+)@([0-9a-f]{10}):", source)
    if m is None:
        return "unverifiable", f"no commit in the source: {source}"
    repo, commit = m.groups()
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    full = dex.git(git_dir, "rev-parse", f"{commit}^{{commit}}").strip() if git_dir.is_dir() else ""
    if name == "flash-attn":
        if full:
            read = _reader(git_dir, full)
            rec = {
                "tag": f"v{row['versions'][0]}",
                "commit": full,
                "jobs": fa_jobs(read(FA_WORKFLOW)),
                "cuda-naming": fa_cuda_naming(read("setup.py")),
            }
            how = f"{FA_WORKFLOW} and setup.py re-read from the {repo} mirror at {commit}"
        else:
            rec = load("flash-attn")["versions"][row["versions"][0]]
            how = f"the recorded jobs of {FA_WORKFLOW} at {commit}"
        again = derive_flash_attn({"versions": {row["versions"][0]: rec}}, torch_facts()[1])
        same = [
            r
            for r in again
            if r["torch"] == [series]
            and r["accelerators"] == list(row["accelerators"])
            and r["cuda-build"] == row.get("cuda-build")
            and r["python"] == list(row["python"])
        ]
        return ("right" if same else "wrong"), f"{how}: python {row['python']}"
    if full:
        fact = pyg_commit_facts(_reader(git_dir, full), full)
        how = f"the workflows re-read from the {repo} mirror at {commit}"
    else:
        fact = next((c for c in load("pyg-lib")["commits"] if c["commit"].startswith(commit)), None)
        how = f"the recorded expansion of the workflows at {commit}"
    if fact is None:
        return "unverifiable", f"{how}: no build matrix"
    built = dict(fact["builds"].get(series, {}).get(platform, {}))
    for acc, pythons in built.items():
        if not pythons and fact.get("abi3-floor"):
            floor = Version(fact["abi3-floor"])
            releases = torch_facts()[0].get(fact["torch"][series], [])
            built[acc] = [p for p in releases if Version(p) >= floor]
    wrong = [f"{a}: {built.get(a)}" for a in row["accelerators"] if built.get(a) != row["python"]]
    extra = [a for a, ps in built.items() if a not in row["accelerators"] and ps == row["python"]]
    if wrong or extra:
        return "wrong", f"{how}: " + "; ".join(wrong + [f"also builds {a}" for a in extra])
    inferred = " (inferred: a rebuild after the tag)" if row.get("inferred") else ""
    return "right", f"{how}: python {row['python']}{inferred}"


# --- the file -----------------------------------------------------------------------------------
@functools.cache
def load(name: str) -> dict[str, Any]:
    """A recording (read once per process; callers do not change it)."""
    return dict(json.loads((RECORDED / f"{name}.json").read_text(encoding="utf-8")))


@functools.cache
def torch_facts() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(torch release -> pythons, torch series -> CUDA versions) from releases.yaml, pip.yaml."""
    releases = yaml.safe_load((ROOT / "matrices" / "releases.yaml").read_text(encoding="utf-8"))
    pip = yaml.safe_load((ROOT / "matrices" / "pip.yaml").read_text(encoding="utf-8"))
    cudas: dict[str, set[str]] = {}
    for row in pip:
        if row.get("kind") == "cuda":
            series = ".".join(str(row["release"]).split(".")[:2])
            cudas.setdefault(series, set()).add(str(row["version"]))
    return (
        {str(r["torch"]): [str(p) for p in r["python"]] for r in releases},
        {s: sorted(v, key=Version) for s, v in cudas.items()},
    )


def derive_all(text: str) -> tuple[dict[str, list[dict[str, Any]]], dict[str, list[Any]]]:
    data = yaml.safe_load(text)
    torch_pythons, cuda_builds = torch_facts()
    derived: dict[str, list[dict[str, Any]]] = {}
    old: dict[str, list[Any]] = {}
    for ext in data:
        name = ext["name"]
        if name not in REPOS or not (RECORDED / f"{name}.json").exists():
            continue
        old[name] = ext["builds"]
        if name == "pyg-lib":
            versions = [v["version"] for v in ext["versions"]]
            derived[name] = derive_pyg_lib(versions, load(name), torch_pythons)
        elif name == "flash-attn":
            derived[name] = derive_flash_attn(load(name), cuda_builds)
        else:
            derived[name] = derive_dgl(load(name))
    return derived, old


def render(text: str, derived: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    return dex.render(text, derived)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--changes", action="store_true")
    parser.add_argument("--record", nargs="+", metavar="NAME=GIT_DIR")
    args = parser.parse_args(argv)
    text = MATRIX.read_text(encoding="utf-8")
    if args.record:
        exts = {e["name"]: e for e in yaml.safe_load(text)}
        for item in args.record:
            name, _, git_dir = item.partition("=")
            versions = [v["version"] for v in exts[name]["versions"]] if name in exts else []
            if name == "pyg-lib":
                record_pyg_lib(Path(git_dir))
            elif name == "flash-attn":
                record_flash_attn(Path(git_dir), versions)
            elif name == "dgl":
                record_dgl(Path(git_dir), versions)
            else:
                print(f"error: {name}: not one of {', '.join(REPOS)}", file=sys.stderr)
                return 2
        return 0
    derived, old = derive_all(text)
    if args.changes:
        for name in derived:
            o, n = dex._row_keys(old[name]), dex._row_keys(derived[name])
            print(
                f"{name}: rows {len(old[name])} -> {len(derived[name])}; "
                f"(version, torch, platform, accelerator, pythons, inferred) facts: "
                f"{len(o - n)} dropped or changed, {len(n - o)} added or changed, {len(o & n)} kept"
            )
        return 0
    return (
        1 if write_or_diff(MATRIX, render(text, derived), write=args.write, label="derived") else 0
    )


if __name__ == "__main__":
    sys.exit(main())
