"""One real paper reproduced end to end on a CPU machine that reaches PyPI only.

`reproduce` runs the user's commands (the real `envgen` CLI, real uv, real wheels from PyPI):
`envgen import` of the corpus file, then the adaptation this machine needs (below), then
`envgen lock`, `envgen build --no-smoke` and `envgen smoke --json` (cpu tier and project tier).
Every step's outcome goes into a `PaperResult`, written as JSON under the results directory
(`scripts/papers_report.py` turns them into docs/papers.md).

The adaptation, each change recorded in the result's notes:
- accelerators: the release's build that PyPI serves on linux-64 (its plain wheel, or
  `torch_from: pypi` where PyPI's wheel is the labelled build: envgen.model.pypi_routes), since
  download.pytorch.org and the conda channels are not reachable here; torch's CUDA builds import
  and run on the CPU;
- managers: pip; a file that installed with conda has its conda dependencies carried to pip
  (envgen.repro.carry), as `envgen import` does when the pytorch channel lost the release;
- lock.exclude_newer: for a file whose last commit date the corpus records (CORPUS.yaml), that
  date, given to `envgen import --as-of` (what `--git` reads in a clone); otherwise the day before
  the next torch release (the era the paper's pin was current in), unless the import set one: an
  inference, as SOURCES.yaml keeps no commit dates.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess  # noqa: TID251 - the suite drives the real CLI as a user would
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from envgen.errors import EnvgenError
from envgen.model.matrix import Matrix
from envgen.model.pypi_routes import pypi_route
from envgen.model.variants import known_python_trap, nearest_pypi_release
from envgen.repro.carry import carry_to_pip, prefer_wheels, versioned
from envgen.repro.wheels import PYPI_SIMPLE, fetch_pages
from envgen.verification.pypi import fetch_simple
from tests.support.conda_channel import find_python, python_package, write_channel

REAL = Path(__file__).parents[1] / "data" / "real"
PAPERS = Path(__file__).parents[1] / "data" / "papers" / "papers.yaml"
ENVGEN = Path(sys.executable).with_name("envgen")
PYENV = Path.home() / ".pyenv" / "versions"
PAGES = Path.home() / ".cache" / "envgen-test" / "pypi-simple"  # PEP 691 file lists (a day)
STEP_TIMEOUT = 3600
# Smoke checks that fail here although torch works: issue 28 (the smoke script's false alarms on
# a GPU-less machine and on python < 3.8 in a venv without setuptools), not the paper's.
# Tolerated only with these exact symptoms, and listed in the notes.
FALSE_ALARMS = {
    "arch-list": "torch.cuda.get_arch_list() is (empty)",
    "cuda-libraries": "cudaRuntimeGetVersion() failed",
    "version:torch": "No module named 'pkg_resources'",
    "version:torchvision": "No module named 'pkg_resources'",
    "version:torchaudio": "No module named 'pkg_resources'",
    # measured here: torchaudio 0.7.2 and 0.8.1 have no torchaudio.functional.resample
    "torchaudio:resample": "module 'torchaudio.functional' has no attribute 'resample'",
}


@dataclass(slots=True, kw_only=True)
class PaperResult:
    """What happened to one paper."""

    id: str
    source: str  # owner/repo@commit:path
    torch: str = ""
    python: str = ""
    date: str = ""  # the file's last commit date, when the corpus records it (import --as-of)
    accelerator: str = ""
    stage: str = "import"  # the step reached: import, adapt, lock, build, smoke, ran
    ok: bool = False
    reason: str = ""
    notes: list[str] = field(default_factory=list)
    cpu_checks: dict[str, str] = field(default_factory=dict)  # name -> pass/fail/skip
    project_checks: dict[str, str] = field(default_factory=dict)  # name -> status: detail
    seconds: float = 0.0


def entries() -> list[dict[str, str]]:
    data = yaml.safe_load(PAPERS.read_text(encoding="utf-8"))
    sources = {
        e["import"]: e
        for name in ("SOURCES.yaml", "CORPUS.yaml")  # the corpus: both files (papers_draw.py)
        for e in yaml.safe_load((REAL / name).read_text(encoding="utf-8"))
    }
    out = []
    for paper in data["papers"]:
        src = sources[paper["import"]]
        paths = src.get("path") or []
        out.append(
            {
                "id": paper["id"],
                "import": paper["import"],
                "source": f"{src['repo']}@{src['commit']}:{','.join(paths)}",
                "why": str(paper.get("why") or ""),
                "system": " ".join(paper.get("system") or ()),
                # soname=Debian package, space-separated (papers.yaml `system_libraries:`)
                "system_libraries": " ".join(
                    f"{so}={pkg}" for so, pkg in (paper.get("system_libraries") or {}).items()
                ),
                # the file's last commit date where the corpus records it (CORPUS.yaml `date`)
                "date": str(src.get("date") or ""),
                # projects the paper's code was checked not to import (papers.yaml `unused:`)
                "unused": " ".join(paper.get("unused") or ()),
            }
        )
    return out


def tool_env(cache: Path) -> dict[str, str]:
    """The child environment: pyenv's interpreters on PATH (they stand in for uv's downloads),
    the test cache as envgen's cache root, no pip/uv configuration of this machine."""
    bins = [str(p / "bin") for p in sorted([*PYENV.glob("3.*"), *PYENV.glob("2.7*")])]
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PIP_", "UV_", "CONDA_", "ENVGEN_", "VIRTUAL_ENV"))
    }
    env["PATH"] = os.pathsep.join([*bins, str(ENVGEN.parent), env.get("PATH", "")])
    env["ENVGEN_CACHE_DIR"] = str(cache)
    env["PIP_CONFIG_FILE"] = os.devnull
    # pyenv's interpreters stand in for uv's downloads: uv must not try to fetch one (this
    # machine reaches PyPI only; a python pyenv lacks fails at once and the suite tries an older)
    env["UV_PYTHON_DOWNLOADS"] = "never"
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=STEP_TIMEOUT, check=False
    )


def _tail(text: str, lines: int = 6) -> str:
    kept = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " / ".join(kept[-lines:])[-900:]


def adapt(project: dict[str, Any], matrix: Matrix, notes: list[str]) -> str | None:
    """Rewrite an imported project for this machine (module doc); the variant id, or None."""
    torch = str(project["torch"])
    nearest = nearest_pypi_release(matrix, torch, "linux-64")
    if nearest is not None and matrix.release(torch) is not None:
        # A release that never reached PyPI (1.8.2 LTS): the nearest that did, as envgen's
        # `torch_from: pypi` warning proposes; its companions with it.
        old = matrix.release(torch)
        project["torch"] = nearest.torch
        for name in ("torchvision", "torchaudio"):
            if str(project.get(name)) == str(getattr(old, name)):
                project[name] = getattr(nearest, name)
        notes.append(
            f"torch {torch} -> {nearest.torch}: {torch} never reached PyPI; envgen names "
            f"{nearest.torch} as the nearest release PyPI has (a substitution: not the paper's "
            "own pin)"
        )
        torch = nearest.torch
    builds = matrix.pip_builds(torch, "linux-64")
    served: dict[str, bool] = {}  # accelerator -> needs torch_from: pypi
    for build in builds:
        if build.index == "pypi":
            served[build.accelerator] = False
        elif pypi_route(build, "linux-64")[1] is not None:
            served[build.accelerator] = True
    if not served:
        return None
    wanted = [str(a) for a in project.get("accelerators") or []]
    acc = wanted[0] if wanted and wanted[0] in served else next(iter(served))
    if wanted != [acc]:
        notes.append(f"accelerators {wanted} -> [{acc}]: the build PyPI serves")
    project["accelerators"] = [acc]
    if served[acc]:
        project["torch_from"] = "pypi"
    if project.get("managers") != ["pip"]:
        notes.append(f"managers {project.get('managers')} -> [pip]: no conda channel here")
        project["managers"] = ["pip"]
    conda = project.pop("conda", None)
    deps = list((conda or {}).get("dependencies") or [])
    if deps:
        _carry(project, deps, notes)
    release = matrix.release(torch)
    if release is not None and not (project.get("lock") or {}).get("exclude_newer"):
        minor = release.version.release[:2]
        later = [
            r.date
            for r in matrix.releases
            if r.date and r.version > release.version and r.version.release[:2] != minor
        ]
        if later:
            day = dt.date.fromisoformat(min(later)) - dt.timedelta(days=1)
            why = "the day before the next torch release"
            newest = newest_pin(list(project.get("pip") or []))
            if newest is not None and newest[0] > day:
                day = newest[0] + dt.timedelta(days=1)
                why = f"the first upload on PyPI that {newest[1]} allows"
            project["lock"] = {"exclude_newer": day.isoformat()}
            notes.append(f"exclude_newer {day.isoformat()}: {why}")
    return acc


def _carry(project: dict[str, Any], deps: list[str], notes: list[str]) -> None:
    """Carry a conda file's dependencies to pip as `envgen import` does (envgen.repro.carry),
    releases without a wheel for the project's python taken to the nearest that has one."""
    carried = carry_to_pip(deps, list(project.get("pip") or []), where="conda:")
    pip = carried.pip
    changed: list[str] = []
    if project.get("python"):
        # a conda pin names a binary build (envgen.repro.carry.prefer_wheels)
        pages, _ = fetch_pages(versioned(pip), index=PYPI_SIMPLE, cache_dir=PAGES, timeout=30.0)
        pip, changed = prefer_wheels(
            pip, python=str(project["python"]), pages=pages, as_of=None, where="carried from conda"
        )
    project["pip"] = [*(project.get("pip") or []), *pip]
    notes.append(f"conda: {', '.join(deps)} -> pip: {', '.join(pip) or 'nothing'}")
    notes.extend(f"{n} (envgen's carry; a substitution: not the paper's own pin)" for n in changed)
    if carried.refused:
        notes.append(f"not carried (pip has no such package): {'; '.join(carried.refused)}")


def newest_pin(requirements: list[str]) -> tuple[dt.date, str] | None:
    """The latest day any named requirement could first be installed: for each, the first upload
    on PyPI (PEP 691 JSON simple API) of a version its specifier allows; the newest of these,
    with the requirement. A paper that installed it is at least that new. None when none is
    found."""
    best: tuple[dt.date, str] | None = None
    for text in requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        try:
            page = fetch_simple(req.name)
        except EnvgenError:
            continue
        times = []
        for f in page["files"]:
            version = _file_version(str(f["filename"]))
            if (
                f.get("upload-time")
                and version is not None
                and not f.get("yanked")
                and req.specifier.contains(version, prereleases=True)
            ):
                times.append(str(f["upload-time"])[:10])
        if times:
            day = dt.date.fromisoformat(min(times))
            if best is None or day > best[0]:
                best = (day, text)
    return best


def _file_version(filename: str) -> Version | None:
    try:
        if filename.endswith(".whl"):
            return parse_wheel_filename(filename)[1]
        return parse_sdist_filename(filename)[1]
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None


def reproduce(entry: dict[str, str], work: Path, cache: Path, matrix: Matrix) -> PaperResult:
    start = time.monotonic()
    result = PaperResult(id=entry["id"], source=entry["source"], date=entry.get("date", ""))
    env = tool_env(cache)
    src = REAL / entry["import"]
    target = work / "src" / src.name
    if src.is_dir():
        shutil.copytree(src, target)
    else:
        target.parent.mkdir(parents=True)
        shutil.copy2(src, target)
    for program in entry.get("system", "").split():
        # A program the file installs with conda that no PyPI distribution provides (pip has
        # no such project): the user installs it with the system's package manager and takes
        # it out of the file.
        text = target.read_text(encoding="utf-8")
        kept = re.sub(rf"(?<=\s){re.escape(program)}(?=\s)", "", text)
        if kept != text:
            target.write_text(kept, encoding="utf-8")
            result.notes.append(
                f"{program}: a program, not a Python package (PyPI has no such project; the "
                "conda-forge package builds the C program): installed with the system's package "
                "manager, taken out of the file (papers.yaml `system:`)"
            )
    if not system_libraries(entry.get("system_libraries", ""), env, result):
        result.seconds = round(time.monotonic() - start, 1)
        return result
    try:
        _steps(result, target, work, env, matrix, entry.get("unused", "").split())
    except subprocess.TimeoutExpired as exc:
        result.reason = f"{result.stage}: timed out after {exc.timeout:.0f} s"
    result.seconds = round(time.monotonic() - start, 1)
    return result


def system_libraries(wanted: str, env: dict[str, str], result: PaperResult) -> bool:
    """Install the Debian packages that provide the system libraries a paper's wheels load but do
    not ship (papers.yaml `system_libraries:`, `soname=package` pairs), as a researcher would with
    the system's package manager, and say so. A library the package puts outside the loader's
    search path (Debian 12's libomp.so lives in /usr/lib/llvm-14/lib) gets its folder on
    LD_LIBRARY_PATH for the envgen steps. False (with the reason) when one cannot be had."""
    pairs = [item.split("=", 1) for item in wanted.split()]
    if not pairs:
        return True
    apt = {**env, "DEBIAN_FRONTEND": "noninteractive"}
    cache = _run(["ldconfig", "-p"], Path.cwd(), env).stdout
    folders: list[str] = []
    for soname, package in pairs:
        status = _run(["dpkg-query", "-W", "-f=${Status}", package], Path.cwd(), env)
        how = "already installed"
        if "install ok installed" not in status.stdout:
            done = _run(
                ["apt-get", "install", "-y", "--no-install-recommends", package], Path.cwd(), apt
            )
            if done.returncode != 0:
                result.reason = (
                    f"system library {soname}: apt-get install {package} (exit "
                    f"{done.returncode}): {_tail(done.stderr)}"
                )
                return False
            how = "installed with apt-get"
            cache = _run(["ldconfig", "-p"], Path.cwd(), env).stdout
        where = ""
        if not re.search(rf"^\s*{re.escape(soname)} ", cache, re.MULTILINE):
            listed = _run(["dpkg", "-L", package], Path.cwd(), env).stdout.split()
            found = [Path(p) for p in listed if Path(p).name == soname]
            if not found:
                result.reason = (
                    f"system library {soname}: Debian package {package} does not provide it "
                    "(dpkg -L)"
                )
                return False
            folders.append(str(found[0].parent))
            where = (
                f"; {found[0]} is outside the loader's search path: its folder on LD_LIBRARY_PATH"
            )
        result.notes.append(
            f"{soname}: a system library the file's wheels load but do not ship: Debian package "
            f"{package} ({how}; papers.yaml `system_libraries:`){where}"
        )
    if folders:
        env["LD_LIBRARY_PATH"] = os.pathsep.join(
            [*dict.fromkeys(folders), *filter(None, [env.get("LD_LIBRARY_PATH", "")])]
        )
    return True


def _steps(
    result: PaperResult,
    target: Path,
    work: Path,
    env: dict[str, str],
    matrix: Matrix,
    unused: list[str] | None = None,
) -> None:
    spec = work / "project.yaml"
    as_of = ["--as-of", result.date] if result.date else []
    if as_of:
        # what `envgen import --git` reads in a clone: the file's last commit date (the corpus
        # keeps the file, not the clone, so the date comes from CORPUS.yaml)
        result.notes.append(f"envgen import --as-of {result.date}: the file's last commit date")
    done = _run([str(ENVGEN), "import", str(target), "-o", str(spec), *as_of], work, env)
    if done.returncode != 0:
        result.reason = f"import (exit {done.returncode}): {_tail(done.stderr)}"
        return
    project = yaml.safe_load(spec.read_text(encoding="utf-8"))
    result.torch, result.python = str(project.get("torch")), str(project.get("python") or "")
    result.stage = "adapt"
    release = matrix.release(result.torch)
    trap = (
        known_python_trap(matrix, release, result.python)
        if release is not None and result.python and "the file names none" in done.stderr
        else None
    )
    if trap is not None:
        # envgen import picked the python from the pins alone (it avoids a python a known issue
        # names only where another fits the pins); the user takes envgen's default, as the fix says
        result.notes.append(
            f"python {result.python} -> envgen's default: the file names no python; envgen import "
            f"chose {result.python} from the pins, which known issue [{trap}] names for torch "
            f"{result.torch}"
        )
        project.pop("python", None)
        result.python = ""
    acc = adapt(project, matrix, result.notes)
    if acc is None:
        result.reason = f"torch {result.torch} has no linux-64 wheel on PyPI"
        return
    result.accelerator = acc
    result.torch = str(project["torch"])
    if result.python in LEGACY_PYTHONS:
        _legacy_conda_python(result, work, env)
    release = matrix.release(result.torch)
    # A file that names no python gets envgen's default (""); where that fails, the release's
    # newest others (at most two more), as a researcher would, and say so.
    newest_first = list(reversed(release.python))[:3] if release is not None else []
    pythons = [result.python] if result.python else ["", *newest_first]
    tried: list[str] = []
    for python in pythons:
        if python in tried:
            continue
        if len(tried) == 3:  # envgen's choice and two more
            return
        if python:
            project["python"] = python
        else:
            project.pop("python", None)
        spec.write_text(yaml.safe_dump(project, sort_keys=False), encoding="utf-8")
        (work / "environments" / acc / "requirements.txt").unlink(missing_ok=True)
        ok = _lock_build(result, spec, acc, work, env, unused or [])
        result.python = locked_python(work / "environments" / acc) or python
        tried.append(result.python)
        if ok:
            break
        label = result.python or "envgen's default"
        result.notes.append(f"python {label}: {result.reason[:300]}; trying an older one")
    else:
        return
    result.stage = "smoke"
    done = _run([str(ENVGEN), "smoke", str(spec), "--variant", acc, "--json"], work, env)
    _read_smoke(result, done)


LEGACY_PYTHONS = ("2.7", "3.5")  # uv makes no venv for them: envgen builds on conda-forge's CPython


def _legacy_conda_python(result: PaperResult, work: Path, env: dict[str, str]) -> None:
    """Python 2.7 / 3.5: envgen builds the environment on conda-forge's CPython (uv provides
    neither), and conda-forge is not reachable here. pyenv's interpreter stands in for it, packaged
    as conda-forge's `python` in a local channel given as ENVGEN_CONDA_CHANNEL_ALIAS, as
    tests/integration/test_era_py27.py does; noted. Nothing when pyenv lacks that python."""
    found = find_python(result.python)
    if found is None:
        return
    version = found.parents[1].name  # ~/.pyenv/versions/2.7.18/bin/python2.7
    alias = work / "channels"
    write_channel(alias / "conda-forge", "conda-forge", [python_package(found, version)],
                  subdirs=("linux-64", "noarch"))  # fmt: skip
    env["ENVGEN_CONDA_CHANNEL_ALIAS"] = alias.as_uri()
    result.notes.append(
        f"python {result.python}: pyenv's CPython {version} packaged as conda-forge's python in a "
        "local channel (ENVGEN_CONDA_CHANNEL_ALIAS): envgen builds a python "
        f"{result.python} environment on conda-forge's CPython, which this machine cannot reach"
    )


def locked_python(variant_dir: Path) -> str:
    """The major.minor python a variant's lock was resolved for (its requirements.txt header:
    `# variant: cu102 (torch 1.8.1, cu102, python 3.8.20, linux-64)`), or ""."""
    try:
        head = (variant_dir / "requirements.txt").read_text(encoding="utf-8")[:2000]
    except OSError:
        return ""
    found = re.search(r"^# variant: .*, python (\d+)\.(\d+)", head, re.MULTILINE)
    return f"{found[1]}.{found[2]}" if found else ""


LOCK_ROUNDS = 8  # envgen's proposals taken, one lock each, at most


def _lock_build(
    result: PaperResult,
    spec: Path,
    acc: str,
    work: Path,
    env: dict[str, str],
    unused: list[str] | None = None,
) -> bool:
    result.reason = ""
    for stage, args in (
        ("lock", ["lock", str(spec), "--variant", acc]),
        ("build", ["build", str(spec), "--variant", acc, "--no-smoke", "--rebuild"]),
    ):
        result.stage = stage
        done = _run([str(ENVGEN), *args], work, env)
        # uv names one problem per failed lock: take envgen's proposal for it and lock again,
        # as a researcher would, until the lock passes and warns of nothing that is proposed
        for _ in range(LOCK_ROUNDS if stage == "lock" else 0):
            if done.returncode != 0:
                took = (
                    _take_replacements(result, spec, done)
                    or _take_names(result, spec, done)
                    or _take_drops(result, spec, done, unused or [])
                    or _drop_date(result, spec, done)
                )
            else:  # a warning's `add NAME to pip:` or `replace X==A with X==B`
                took = _take_additions(result, spec, done) or _take_replacements(result, spec, done)
            if not took:
                break
            done = _run([str(ENVGEN), *args], work, env)
        if done.returncode != 0:
            result.reason = f"{stage} (exit {done.returncode}): {_tail(done.stderr)}"
            return False
    return True


_REPLACE = re.compile(r"replace ([A-Za-z0-9._-]+)==(\S+) with ([A-Za-z0-9._-]+)==([^\s;:,]+)")


def _hint_of(stderr: str, name: str) -> str:
    """The part of envgen's hint about `name`, or its whole warning line (shortened); one line
    of stderr each (envgen prints a hint or a warning on one line)."""
    for line in stderr.splitlines():
        if f"replace {name}==" in line and "hint:" not in line:  # a log line: the warning
            return line.split("warning:")[-1].strip()[:400]
        for part in line.split("; "):
            if name in part and "replace" in part:
                return part.split("hint:")[-1].strip()[:300]
    return ""


def _take_replacements(
    result: PaperResult, spec: Path, done: subprocess.CompletedProcess[str]
) -> bool:
    """Apply the replacements envgen's lock hint proposes (`replace X==A with X==B`: a pin the
    index no longer has), as a researcher would, and say so; False when it proposed none."""
    found = _REPLACE.findall(done.stderr)
    if not found:
        return False
    project = yaml.safe_load(spec.read_text(encoding="utf-8"))
    pins = [str(p) for p in project.get("pip") or []]
    changed = False
    for name, old, new_name, new in found:
        for i, pin in enumerate(pins):
            if re.fullmatch(
                rf"{re.escape(name)}\s*==\s*{re.escape(old)}(\.\*)?", pin, re.IGNORECASE
            ):
                pins[i] = f"{new_name}=={new}"
                changed = True
                result.notes.append(
                    f"{name}=={old} -> {new_name}=={new}: envgen's lock hint proposed it "
                    f"({_hint_of(done.stderr, name)}) (a substitution: not the paper's own pin)"
                )
    if changed:
        project["pip"] = pins
        spec.write_text(yaml.safe_dump(project, sort_keys=False), encoding="utf-8")
    return changed


_DID_YOU_MEAN = re.compile(
    r"([A-Za-z0-9][A-Za-z0-9._-]*) is not a project on \S+; did you mean ([A-Za-z0-9._-]+)\?"
)
_ADD = re.compile(r"add ([A-Za-z0-9][A-Za-z0-9._-]*(?:[=<>~!][^\s]*)?) to pip:")


def _take_names(result: PaperResult, spec: Path, done: subprocess.CompletedProcess[str]) -> bool:
    """Take the name envgen's lock hint proposes for a project the index does not have
    (`NAME is not a project on INDEX; did you mean OTHER?`: a typo in the paper's file), as a
    researcher would after checking the paper's code imports it, and say so; False when none."""
    found = _DID_YOU_MEAN.findall(done.stderr)
    if not found:
        return False
    project = yaml.safe_load(spec.read_text(encoding="utf-8"))
    pins = [str(p) for p in project.get("pip") or []]
    changed = False
    for name, near in found:
        for i, pin in enumerate(pins):
            try:
                req = Requirement(pin)
            except InvalidRequirement:
                continue
            if req.name.lower() == name.lower():
                pins[i] = near + pin[len(req.name) :]
                changed = True
                result.notes.append(
                    f"{name} -> {near}: envgen's lock hint proposed it ({name} is not a project "
                    f"on PyPI; did you mean {near}?) (a substitution: not the paper's own name)"
                )
    if changed:
        project["pip"] = pins
        spec.write_text(yaml.safe_dump(project, sort_keys=False), encoding="utf-8")
    return changed


def _take_additions(
    result: PaperResult, spec: Path, done: subprocess.CompletedProcess[str]
) -> bool:
    """Add what envgen's lock warning proposes for a pinned release that imports a distribution
    it does not declare (`... add tensorflow==2.7.* to pip:`), as a researcher would, and say
    so; False when it proposed nothing new."""
    project = yaml.safe_load(spec.read_text(encoding="utf-8"))
    pins = [str(p) for p in project.get("pip") or []]
    added = [a for a in dict.fromkeys(_ADD.findall(done.stderr)) if a not in pins]
    if not added:
        return False
    project["pip"] = [*pins, *added]
    spec.write_text(yaml.safe_dump(project, sort_keys=False), encoding="utf-8")
    for requirement in added:
        why = next(
            (ln.split("warning:")[-1].strip() for ln in done.stderr.splitlines()
             if f"add {requirement} to pip:" in ln),
            "",
        )  # fmt: skip
        result.notes.append(
            f"+ {requirement}: envgen's lock warning proposed it ({why[:300]}) (an addition: not "
            "in the paper's file)"
        )
    return True


_DROP = re.compile(r"drop ([A-Za-z0-9][A-Za-z0-9._-]*) from pip:")


def _take_drops(
    result: PaperResult, spec: Path, done: subprocess.CompletedProcess[str], unused: list[str]
) -> bool:
    """Drop what envgen's lock hint proposes dropping (`drop NAME from pip:`: a project the
    index no longer has, or a pin that requires one) where the paper's code imports none of it,
    as a researcher would after checking: papers.yaml `unused:` lists the projects checked
    (the repository at the file's commit, searched for their imports); noted. False when the
    hint proposed no drop of a checked project."""
    checked = {canonicalize_name(n) for n in unused}
    project = yaml.safe_load(spec.read_text(encoding="utf-8"))
    pins = [str(p) for p in project.get("pip") or []]
    dropped = False
    for name in dict.fromkeys(_DROP.findall(done.stderr)):
        if canonicalize_name(name) not in checked:
            continue
        kept = [
            p for p in pins if canonicalize_name(_requirement_name(p)) != canonicalize_name(name)
        ]
        if len(kept) == len(pins):
            continue
        why = next(
            (part.split("hint:")[-1].strip() for ln in done.stderr.splitlines()
             for part in ln.split("; ") if f"drop {name} from pip:" in part),
            "",
        )  # fmt: skip
        result.notes.append(
            f"- {', '.join(p for p in pins if p not in kept)}: envgen's lock hint proposed "
            f"dropping it ({why[:500]}); the paper's code imports none of it (papers.yaml "
            "`unused:`) (a removal: not the paper's own file)"
        )
        pins, dropped = kept, True
    if dropped:
        project["pip"] = pins
        spec.write_text(yaml.safe_dump(project, sort_keys=False), encoding="utf-8")
    return dropped


def _requirement_name(text: str) -> str:
    try:
        return Requirement(text).name
    except InvalidRequirement:
        return ""


def _drop_date(result: PaperResult, spec: Path, done: subprocess.CompletedProcess[str]) -> bool:
    """Follow envgen's hint where the locker cannot filter by upload date (pip 20.3.4 for
    python 2.7 / 3.5: "drop lock.exclude_newer / --as-of"), as a researcher would, and say so;
    False when the lock did not fail that way."""
    if "exclude_newer" not in done.stderr or "cannot be honoured" not in done.stderr:
        return False
    project = yaml.safe_load(spec.read_text(encoding="utf-8"))
    day = (project.get("lock") or {}).pop("exclude_newer", None)
    if day is None:
        return False
    if not project["lock"]:
        project.pop("lock")
    spec.write_text(yaml.safe_dump(project, sort_keys=False), encoding="utf-8")
    found = re.search(r"\] \S+: (pip [^;]*?has no exclude-newer)", done.stderr)
    why = found[1] if found else "the locker has no exclude-newer"
    result.notes.append(
        f"exclude_newer {day} dropped: {why}, and envgen's hint says to drop it (the lock takes "
        "the newest files that still support the python: not the file's date)"
    )
    return True


def _read_smoke(result: PaperResult, done: subprocess.CompletedProcess[str]) -> None:
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        result.reason = f"smoke (exit {done.returncode}): {_tail(done.stderr)}"
        return
    # one variant: {"ok", "checks": [...]}; several: [{"variant", "checks": {"ok", "checks"}}]
    items = data if isinstance(data, list) else [data]
    reports = [i["checks"] if isinstance(i.get("checks"), dict) else i for i in items]
    for report in reports:
        for check in report.get("checks", []):
            if check.get("tier") == "cpu":
                name, status = check["name"], check["status"]
                if status == "fail" and FALSE_ALARMS.get(name, "\0") in check["detail"]:
                    status = "fail-false-alarm"
                    result.notes.append(
                        f"cpu/{name}: a smoke false alarm (issue 28): {check['detail']}"
                    )
                if status == "fail":
                    result.notes.append(f"cpu/{name}: {check['detail'][:400]}")
                result.cpu_checks[name] = status
            elif check.get("tier") == "project":
                result.project_checks[check["name"]] = f"{check['status']}: {check['detail']}"
    failed_cpu = sorted(n for n, s in result.cpu_checks.items() if s == "fail")
    failed_project = sorted(n for n, s in result.project_checks.items() if s.startswith("fail"))
    if not result.cpu_checks:
        result.reason = f"smoke (exit {done.returncode}): no checks ran: {_tail(done.stderr)}"
        return
    if failed_cpu or failed_project:
        result.reason = "; ".join(
            [f"cpu/{n} failed" for n in failed_cpu]
            + [f"project/{n}: {result.project_checks[n][6:]}" for n in failed_project]
        )
        return
    result.stage, result.ok = "ran", True


def write_result(result: PaperResult, results: Path) -> Path:
    results.mkdir(parents=True, exist_ok=True)
    path = results / f"{result.id}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(result), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path
