"""Derive matrices/gpu-archs.yaml's CUDA rows per torch release from that release's own artifacts.

The job: for each torch release and each CUDA build it published (matrices/pip.yaml), say which
GPU architectures the build was compiled for, from the artifact of that release alone:

1. the PyPI wheel itself, where PyPI has a CUDA wheel of the release: the arch flags string
   compiled into torch/lib/libtorch_python.so (what torch.cuda.get_arch_list() returns), and
   torch/version.py's `git_version`, the release's commit (tests/data/recorded/gpu-archs/
   pypi-wheels.json, `--record-wheels`, PyPI only, HTTP range reads);
2. the release's own build script: pytorch/builder's `release/X.Y` branch (1.9-2.5; `lts/
   release/1.8` for 1.8.2), manywheel/build_cuda.sh (from 1.11) or manywheel/build.sh, and
   windows/cudaNNN.bat, whose TORCH_CUDA_ARCH_LIST lines are evaluated here for each CUDA case
   (tests/data/recorded/gpu-archs/builder-release-branches.json, `--record-builder GIT_DIR`:
   the facts read from a git mirror of pytorch/builder, each with its commit and blob id; the
   scripts themselves are not copied).

A build neither source covers is not derived: its row keeps its values and says `inferred: true`
with the rule that gave them (`--rule`, printed per row), unless that row's source names no
public locator (a URL or owner/repo@commit): then the build gets no row ("architecture not
checked"). Releases from 2.6 were built from pytorch/pytorch's .ci/manywheel/build_cuda.sh at the
release tag; that repository could not be read at its tags here (its snapshot is 4 GB), so their
non-PyPI CUDA builds stay inferred.

    python scripts/derive_gpu_archs.py                 # diff of gpu-archs.yaml; exit 1 if stale
    python scripts/derive_gpu_archs.py --write         # rewrite it
    python scripts/derive_gpu_archs.py --changes       # the rows whose values derivation changed
    python scripts/derive_gpu_archs.py --record-wheels 2.4.0 2.5.1   # network (PyPI)
    python scripts/derive_gpu_archs.py --record-builder /path/to/pytorch-builder.git

parse (pure) and derive (pure) never touch the network or a git directory; the recorders do.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess  # noqa: TID251 - a maintainer script reading a local git mirror, not envgen
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from envgen.verification.pypi import fetch_simple, fetch_wheel_member

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_diff

ROOT: Final = Path(__file__).resolve().parent.parent
MATRIX: Final = ROOT / "matrices" / "gpu-archs.yaml"
PIP: Final = ROOT / "matrices" / "pip.yaml"
CONDA: Final = ROOT / "matrices" / "conda.yaml"
RECORDED: Final = ROOT / "tests" / "data" / "recorded" / "gpu-archs"
WHEELS_FILE: Final = RECORDED / "pypi-wheels.json"
BUILDER_FILE: Final = RECORDED / "builder-release-branches.json"
BUILDER_URL: Final = "https://github.com/pytorch/builder"
ROCM_FILE: Final = RECORDED / "rocm-build-scripts.json"
ROCM_SCRIPT: Final = "manywheel/build_docker.sh"

# --- the wheels' own facts ------------------------------------------------------------------------
_FLAGS: Final = re.compile(r"(?:(?:sm|compute)_\d+a? )*(?:sm|compute)_\d+a?(?=\x00)")
_ASSIGN: Final = re.compile(
    r"^(__version__|cuda|git_version)(?:: [^=]+)? = '([^']*)'", re.MULTILINE
)


def version_facts(text: str) -> dict[str, str]:
    """torch/version.py's `__version__`, `cuda` and `git_version` values.

    >>> version_facts("__version__ = '2.4.0'\\ncuda: Optional[str] = '12.1'\\ngit_version = 'd9'")
    {'__version__': '2.4.0', 'cuda': '12.1', 'git_version': 'd9'}
    """
    return {m.group(1): m.group(2) for m in _ASSIGN.finditer(text)}


def arch_flags(blob: str) -> str:
    """The one arch flags string ('sm_80 sm_90 compute_90') in a library's text; '' if none.

    >>> arch_flags("x\\x00std::string ipc_hsm_75 sm_80 compute_80\\x00sm_ref\\x00sm_1\\x00")
    'sm_75 sm_80 compute_80'
    """
    found = sorted({m.group(0) for m in _FLAGS.finditer(blob) if " " in m.group(0)})
    return found[0] if len(found) == 1 else ""


def flags_to_list(flags: str) -> str:
    """An arch flags string as a TORCH_CUDA_ARCH_LIST ('sm_86 sm_90 compute_90' -> '8.6;9.0+PTX').

    >>> flags_to_list("sm_75 sm_80 sm_120 compute_120")
    '7.5;8.0;12.0+PTX'
    """
    sms = [f[3:] for f in flags.split() if f.startswith("sm_")]
    ptx = {f[8:] for f in flags.split() if f.startswith("compute_")}
    out = [f"{n[:-1]}.{n[-1]}{'+PTX' if n in ptx else ''}" for n in sms]
    return ";".join(out)


def _wheel_choice(files: Sequence[Mapping[str, Any]], version: str, arch: str) -> str | None:
    names = [
        f["url"]
        for f in files
        if f["filename"].startswith(f"torch-{version}-")
        and f["filename"].endswith(f"{arch}.whl")
        and "linux" in f["filename"]
    ]
    for py in ("-cp311-", "-cp310-", "-cp38-", "-cp37-", "-cp36-"):
        mine = [u for u in names if py in u]
        if mine:
            return str(mine[0])
    return None


def record_wheels(versions: Sequence[str]) -> None:
    """Read version.py and the arch flags of each release's manylinux wheels (x86_64, aarch64)."""
    files = fetch_simple("torch")["files"]
    data = json.loads(WHEELS_FILE.read_text()) if WHEELS_FILE.exists() else {"wheels": {}}
    for version in versions:
        for arch in ("x86_64", "aarch64"):
            url = _wheel_choice(files, version, arch)
            if url is None:
                continue
            facts = version_facts(fetch_wheel_member(url, lambda m: m == "torch/version.py"))
            entry: dict[str, str] = {"file": url.rsplit("/", 1)[-1].split("#", 1)[0], **facts}
            if facts.get("cuda") not in (None, "None", ""):
                lib = fetch_wheel_member(url, lambda m: m == "torch/lib/libtorch_python.so")
                entry["arch-flags"] = arch_flags(lib)
            data["wheels"][f"{version} {arch}"] = entry
            print(json.dumps(entry), flush=True)
            _write_json(WHEELS_FILE, data)


def _write_json(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)


# --- the build scripts (pure) ---------------------------------------------------------------------
class ScriptError(ValueError):
    """A build script this evaluator cannot follow (a condition or form it does not know)."""


_SH_ASSIGN: Final = re.compile(r'^(?:export )?TORCH_CUDA_ARCH_LIST=(["\']?)(.*)\1$')
_SH_CUDA_EQ: Final = re.compile(r'\[\[ "?\$\{?CUDA_VERSION\}?"? == "?([0-9.*]+)"? \]\]')
_SH_END: Final = re.compile(
    r"^(?:export TORCH_CUDA_ARCH_LIST=\"?\$\{?TORCH_CUDA_ARCH_LIST\}?\"?"
    r"|echo .*TORCH_CUDA_ARCH_LIST.*)$"
)


def _condition(text: str, cuda: str, *, aarch64: bool) -> bool:
    """One `if` condition of the arch block: CUDA version tests, the aarch64 test, the override."""
    if "OVERRIDE_TORCH_CUDA_ARCH_LIST" in text:
        return False  # the release builds set no override
    if "GPU_ARCH_TYPE" in text and "cuda-aarch64" in text:
        return aarch64 == ("!=" not in text)
    tests = _SH_CUDA_EQ.findall(text)
    if tests and text.count("[[") == len(tests):
        return any(_glob(cuda, pattern) for pattern in tests)
    msg = f"unknown condition: {text!r}"
    raise ScriptError(msg)


def _glob(value: str, pattern: str) -> bool:
    regex = (
        re.escape(pattern)
        .replace(r"\*", ".*")
        .replace(r"\[", "[")
        .replace(r"\]", "]")
        .replace(r"\-", "-")
    )
    return re.fullmatch(regex, value) is not None


def evaluate_sh(text: str, cuda: str, *, aarch64: bool = False) -> str | None:  # noqa: PLR0912 - one branch per shell form
    r"""TORCH_CUDA_ARCH_LIST as a manywheel build script sets it for one CUDA version.

    Follows the block from the first assignment to its export/echo: assignments (with
    ${TORCH_CUDA_ARCH_LIST} expanded), if/elif/else/fi on the CUDA version or the aarch64 build
    type, and `case ${CUDA_VERSION} in` with glob patterns. None: the script has no case for
    this version (its `*)` branch exits).

    >>> sh = '''
    ... TORCH_CUDA_ARCH_LIST="5.0;6.0"
    ... case ${CUDA_VERSION} in
    ...     12.4)
    ...         if [[ "$GPU_ARCH_TYPE" = "cuda-aarch64" ]]; then
    ...             TORCH_CUDA_ARCH_LIST="9.0"
    ...         else
    ...             TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST};9.0"
    ...         fi
    ...         ;;
    ...     11.[67])
    ...         TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST};3.7"
    ...         ;;
    ...     *)
    ...         exit 1
    ...         ;;
    ... esac
    ... export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST}
    ... '''
    >>> evaluate_sh(sh, "12.4"), evaluate_sh(sh, "12.4", aarch64=True), evaluate_sh(sh, "11.7")
    ('5.0;6.0;9.0', '9.0', '5.0;6.0;3.7')
    >>> evaluate_sh(sh, "10.2") is None
    True
    >>> old = 'export TORCH_CUDA_ARCH_LIST="3.5;5.0+PTX"\nif [[ $CUDA_VERSION == "8.0" ]]; then\n'
    >>> old += '    export TORCH_CUDA_ARCH_LIST="$TORCH_CUDA_ARCH_LIST;6.0;6.1"\n'
    >>> old += 'elif [[ $CUDA_VERSION == "9.0" ]] || [[ $CUDA_VERSION == "9.1" ]]; then\n'
    >>> old += '    export TORCH_CUDA_ARCH_LIST="$TORCH_CUDA_ARCH_LIST;6.0;6.1;7.0"\nfi\n'
    >>> old += 'echo $TORCH_CUDA_ARCH_LIST\n'
    >>> evaluate_sh(old, "9.1"), evaluate_sh(old, "8.0"), evaluate_sh(old, "9.2")
    ('3.5;5.0+PTX;6.0;6.1;7.0', '3.5;5.0+PTX;6.0;6.1', '3.5;5.0+PTX')
    """
    value: str | None = None
    stack: list[list[bool]] = []  # per if/case: [this branch is live, a branch was taken]
    started = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _SH_ASSIGN.match(line)
        if not started:
            if not m:
                continue
            started = True
        live = all(frame[0] for frame in stack)
        if _SH_END.match(line):
            if not stack:
                return _tidy(value)
            continue
        if m:
            if live:
                value = re.sub(r"\$\{?TORCH_CUDA_ARCH_LIST\}?", value or "", m.group(2))
        elif line.startswith("if "):
            taken = live and _condition(line, cuda, aarch64=aarch64)
            stack.append([taken, taken])
        elif line.startswith("elif "):
            frame = stack[-1]
            outer = all(f[0] for f in stack[:-1])
            taken = outer and not frame[1] and _condition(line, cuda, aarch64=aarch64)
            frame[0], frame[1] = taken, frame[1] or taken
        elif line == "else":
            frame = stack[-1]
            frame[0], frame[1] = not frame[1] and all(f[0] for f in stack[:-1]), True
        elif line == "fi":
            stack.pop()
        elif line.startswith("case ") and "CUDA_VERSION" in line:
            stack.append([False, False])
        elif line == "esac":
            stack.pop()
        elif line == ";;":
            stack[-1][0] = False
        elif line.endswith(")") and stack and re.fullmatch(r"[0-9.*\[\]|-]+\)", line):
            frame = stack[-1]
            outer = all(f[0] for f in stack[:-1])
            patterns = line[:-1].split("|")
            taken = outer and not frame[1] and any(_glob(cuda, p.strip()) for p in patterns)
            frame[0], frame[1] = taken, frame[1] or taken
        elif line.startswith("exit") and live:
            return None
    return _tidy(value) if started else None


def _tidy(value: str | None) -> str | None:
    """Drop the empty entries a script's `;${LIST}` leaves (CMake ignores them)."""
    return None if value is None else ";".join(v for v in value.split(";") if v)


_BAT_SET: Final = re.compile(
    r"^\s*set TORCH_CUDA_ARCH_LIST=(\S+)\s*$", re.MULTILINE | re.IGNORECASE
)


def evaluate_bat(text: str) -> str | None:
    """TORCH_CUDA_ARCH_LIST as a windows/cudaNNN.bat sets it (its first `set`, the one for the
    torch build; a later one is for BUILD_VISION).

    >>> evaluate_bat('IF "%BUILD_VISION%" == "" (\\n  set TORCH_CUDA_ARCH_LIST=5.0;8.6\\n) ELSE (')
    '5.0;8.6'
    """
    m = _BAT_SET.search(text)
    return m.group(1) if m else None


# --- ROCm: PYTORCH_ROCM_ARCH as the release branch's build_docker.sh passes it (pure) ----------
_ROCM_ASSIGN: Final = re.compile(r'^PYTORCH_ROCM_ARCH(\+?)=(["\']?)(.*)\2$')
_ROCM_GE: Final = re.compile(
    r"^if \[\[ \$\{?ROCM_VERSION_INT\}? -(ge|gt|lt|le|eq) (\d+) \]\]; then$"
)
_ROCM_OPS: Final = {
    "ge": int.__ge__,
    "gt": int.__gt__,
    "lt": int.__lt__,
    "le": int.__le__,
    "eq": int.__eq__,
}


def rocm_version_int(rocm: str) -> int:
    """ROCM_VERSION_INT as build_docker.sh computes it (major*10000 + minor*100 + patch).

    >>> rocm_version_int("4.5.2"), rocm_version_int("6.0")
    (40502, 60000)
    """
    parts = [int(p) for p in rocm.split(".")] + [0, 0]
    return parts[0] * 10000 + parts[1] * 100 + parts[2]


def evaluate_rocm_sh(text: str, rocm: str) -> str | None:
    r"""PYTORCH_ROCM_ARCH as a build_docker.sh `rocm` case sets it for one ROCm version.

    Follows the lines from the first assignment to the DOCKER_GPU_BUILD_ARG line that passes
    it on: assignments (`=`, `+=`, with ${PYTORCH_ROCM_ARCH} expanded) and `if [[
    $ROCM_VERSION_INT -ge N ]]` blocks. Other `if` blocks are followed only if they do not
    assign the list (else ScriptError). None: the script sets no list.

    >>> sh = 'PYTORCH_ROCM_ARCH="gfx900;gfx906"\nif [[ $ROCM_VERSION_INT -ge 40300 ]]; then\n'
    >>> sh += '    PYTORCH_ROCM_ARCH="${PYTORCH_ROCM_ARCH};gfx90a"\nfi\n'
    >>> sh += 'if [[ $ROCM_VERSION_INT -ge 60000 ]]; then\n    PYTORCH_ROCM_ARCH+=";gfx942"\nfi\n'
    >>> sh += 'DOCKER_GPU_BUILD_ARG="--build-arg PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}"\n'
    >>> evaluate_rocm_sh(sh, "4.2"), evaluate_rocm_sh(sh, "5.7"), evaluate_rocm_sh(sh, "6.1")
    ('gfx900;gfx906', 'gfx900;gfx906;gfx90a', 'gfx900;gfx906;gfx90a;gfx942')
    """
    version = rocm_version_int(rocm)
    value: str | None = None
    stack: list[bool | None] = []  # per if: this branch is live; None: a condition not followed
    started = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _ROCM_ASSIGN.match(line)
        if not started:
            if not m:
                continue
            started = True
        if line.startswith("DOCKER_GPU_BUILD_ARG=") and "PYTORCH_ROCM_ARCH" in line:
            break
        cond = _ROCM_GE.match(line)
        if m:
            if None in stack:
                msg = f"PYTORCH_ROCM_ARCH set under a condition not followed: {line!r}"
                raise ScriptError(msg)
            if all(stack):
                new = re.sub(r"\$\{?PYTORCH_ROCM_ARCH\}?", value or "", m.group(3))
                value = (value or "") + new if m.group(1) else new
        elif cond:
            stack.append(_ROCM_OPS[cond.group(1)](version, int(cond.group(2))))
        elif line.startswith("if "):
            stack.append(None)
        elif line.startswith(("elif ", "else")):
            if stack and stack[-1] is not None:
                msg = f"an else branch of a ROCm version test: {line!r}"
                raise ScriptError(msg)
        elif line == "fi":
            stack.pop()
    return _tidy(value) if started else None


def rocm_builds(pip_rows: Iterable[Mapping[str, Any]]) -> dict[str, set[str]]:
    """{release: ROCm versions} of the ROCm builds pip.yaml publishes (linux-64 only)."""
    out: dict[str, set[str]] = {}
    for row in pip_rows:
        if row.get("kind") == "rocm" and "linux-64" in row["platforms"]:
            out.setdefault(row["release"], set()).add(row["version"])
    return dict(sorted(out.items(), key=lambda kv: Version(kv[0])))


def record_rocm(git_dir: Path, builds: Mapping[str, set[str]]) -> None:
    """Each ROCm release's builder branch: build_docker.sh's PYTORCH_ROCM_ARCH per ROCm version.

    Releases whose branch has no such list (1.8-1.10 leave it to pytorch's LoadHIP.cmake
    default; 2.5's build_docker.sh moved to pytorch/pytorch) are recorded with `lists: null`.
    """
    data: dict[str, Any] = {"repo": BUILDER_URL, "path": ROCM_SCRIPT, "releases": {}}
    for release, rocms in builds.items():
        ref = builder_ref(release)
        if ref is None:
            continue
        commit = git(git_dir, "rev-parse", f"refs/heads/{ref}").strip()
        names = git(git_dir, "ls-tree", "--name-only", commit, ROCM_SCRIPT).split()
        entry: dict[str, Any] = {"ref": ref, "commit": commit, "blob": None, "lists": None}
        if names:
            text = git(git_dir, "show", f"{commit}:{ROCM_SCRIPT}")
            if "PYTORCH_ROCM_ARCH=" in text:
                entry["blob"] = git(git_dir, "rev-parse", f"{commit}:{ROCM_SCRIPT}").strip()
                entry["lists"] = {
                    r: evaluate_rocm_sh(text, r) for r in sorted(rocms, key=rocm_version_int)
                }
        data["releases"][release] = entry
        print(release, ref, commit[:10], entry["lists"], flush=True)
    _write_json(ROCM_FILE, data)


def rocm_source(commit: str) -> str:
    return f"pytorch/builder@{commit}:{ROCM_SCRIPT}"


def derive_rocm(
    builds: Mapping[str, set[str]], recorded: Mapping[str, Any]
) -> dict[tuple[str, str, str], Fact]:
    """Each ROCm build's Fact from its release branch's recorded list; builds without one are
    left out (doctor: architecture not checked)."""
    out: dict[tuple[str, str, str], Fact] = {}
    for release, rocms in builds.items():
        rec = recorded.get("releases", {}).get(release)
        if rec is None or not rec.get("lists"):
            continue
        for rocm in rocms:
            found = rec["lists"].get(rocm)
            if found:
                note = f"pytorch/builder {rec['ref']}: the list it passes to the ROCm build image"
                out[(release, "linux-64", rocm)] = Fact(
                    found, rocm_source(rec["commit"]), False, note
                )
    return out


# --- recording the build scripts (a git mirror) -----------------------------------------------
def git(git_dir: Path, *args: str) -> str:
    out = subprocess.run(
        ["git", f"--git-dir={git_dir}", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout


def builder_ref(release: str) -> str | None:
    """pytorch/builder's branch for a torch release: release/X.Y for 1.9-2.5, lts/release/1.8
    for 1.8.2; None before (no release branch) and after (the scripts moved to pytorch/pytorch).

    >>> builder_ref("2.4.1"), builder_ref("1.8.2"), builder_ref("1.8.1"), builder_ref("2.6.0")
    ('release/2.4', 'lts/release/1.8', None, None)
    """
    v = Version(release)
    if v == Version("1.8.2"):
        return "lts/release/1.8"
    if Version("1.9") <= v < Version("2.6"):
        return f"release/{v.major}.{v.minor}"
    return None


def _script_paths(git_dir: Path, commit: str) -> list[str]:
    names = git(git_dir, "ls-tree", "--name-only", "-r", commit, "manywheel", "windows").split()
    keep = [n for n in names if n in ("manywheel/build_cuda.sh", "manywheel/build.sh")]
    keep += [n for n in names if re.fullmatch(r"windows/cuda\d+\.bat", n)]
    return sorted(keep)


def _read_scripts(git_dir: Path, commit: str, cudas: Iterable[str]) -> dict[str, Any]:
    files: dict[str, Any] = {}
    paths = _script_paths(git_dir, commit)
    sh = "manywheel/build_cuda.sh" if "manywheel/build_cuda.sh" in paths else "manywheel/build.sh"
    for path in paths:
        blob = git(git_dir, "rev-parse", f"{commit}:{path}").strip()
        text = git(git_dir, "show", f"{commit}:{path}")
        if path == sh:
            lists: dict[str, Any] = {}
            for cuda in sorted(set(cudas), key=Version):
                try:
                    lists[cuda] = {
                        "linux-64": evaluate_sh(text, cuda),
                        "linux-aarch64": evaluate_sh(text, cuda, aarch64=True),
                    }
                except ScriptError as exc:
                    lists[cuda] = {"error": str(exc)}
            files[path] = {"blob": blob, "cuda": lists}
        elif path.startswith("windows/"):
            nodot = path.removeprefix("windows/cuda").removesuffix(".bat")
            cuda = f"{nodot[:-1]}.{nodot[-1]}"
            files[path] = {"blob": blob, "cuda": {cuda: {"win-64": evaluate_bat(text)}}}
    return files


def record_builder(
    git_dir: Path, builds: Mapping[str, Mapping[str, set[str]]], dates: Mapping[str, str]
) -> None:
    """For each release with CUDA builds: its builder branch (or main at its date), evaluated."""
    data: dict[str, Any] = {"repo": BUILDER_URL, "releases": {}}
    for release, platforms in builds.items():
        cudas = {c for cs in platforms.values() for c in cs}
        ref = builder_ref(release)
        if ref is None and Version(release) >= Version("2.6"):
            continue
        if ref is None:
            date = dates.get(release)
            if not date:
                continue
            commit = git(git_dir, "rev-list", "-1", f"--before={date}T23:59:59Z", "main").strip()
            where = f"main at {date}"
        else:
            commit = git(git_dir, "rev-parse", f"refs/heads/{ref}").strip()
            where = ref
        data["releases"][release] = {
            "ref": where,
            "commit": commit,
            "files": _read_scripts(git_dir, commit, cudas),
        }
        print(release, where, commit[:10], flush=True)
    _write_json(BUILDER_FILE, data)


# --- derivation (pure) ------------------------------------------------------------------------
DERIVED_PLATFORMS: Final = ("linux-64", "linux-aarch64", "win-64")
NO_CARRY_FROM: Final = "2.9"  # the first release whose non-PyPI builds keep no carried row
# a URL or owner/repo@commit: a carried row's values are kept only where its source names one
PUBLIC_LOCATOR: Final = re.compile(r"https?://|(?<![\w./-])[\w.-]+/[\w.-]+@[0-9a-f]{7,40}\b")
_WHEEL_ARCH: Final = {"linux-64": "x86_64", "linux-aarch64": "aarch64"}
WHEEL_SOURCE: Final = (
    "pypi-wheel: the arch flags compiled into torch/lib/libtorch_python.so (what "
    "torch.cuda.get_arch_list() returns) of PyPI's manylinux {arch} wheel of each release "
    "(tests/data/recorded/gpu-archs/pypi-wheels.json: file, torch.version.cuda, git_version)"
)


@dataclass(frozen=True, slots=True)
class Fact:
    """The compiled architectures of one build (release x platform x CUDA) and where from."""

    arch_list: str
    source: str
    inferred: bool
    note: str


def pip_builds(pip_rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, set[str]]]:
    """{release: {platform: CUDA versions}} of the CUDA builds pip.yaml and conda.yaml publish
    (a conda build of a release and CUDA version is looked up in the same row as the wheel)."""
    out: dict[str, dict[str, set[str]]] = {}
    for row in pip_rows:
        if row.get("kind") != "cuda":
            continue
        for platform in row["platforms"]:
            if platform in DERIVED_PLATFORMS:
                out.setdefault(row["release"], {}).setdefault(platform, set()).add(row["version"])
    return dict(sorted(out.items(), key=lambda kv: Version(kv[0])))


def cuda_short(cuda: str) -> str:
    return ".".join(cuda.split(".")[:2])


def _wheel_fact(wheels: Mapping[str, Any], release: str, platform: str, cuda: str) -> Fact | None:
    arch = _WHEEL_ARCH.get(platform)
    wheel = wheels.get(f"{release} {arch}") if arch else None
    if not wheel or not wheel.get("arch-flags") or cuda_short(wheel.get("cuda", "")) != cuda:
        return None
    return Fact(flags_to_list(wheel["arch-flags"]), WHEEL_SOURCE.format(arch=arch), False, "")


def _builder_fact(
    builder: Mapping[str, Any], release: str, platform: str, cuda: str
) -> Fact | None:
    rec = builder.get("releases", {}).get(release)
    if rec is None:
        return None
    for path, info in rec["files"].items():
        found = info["cuda"].get(cuda, {}).get(platform)
        if not found:
            continue
        url = f"{BUILDER_URL}/blob/{rec['commit']}/{path}"
        if rec["ref"].startswith("main at "):
            minor = ".".join(release.split(".")[:2])
            rule = (
                f"rule: pytorch/builder has no release branch for {minor}: its main branch on "
                f"the release date ({rec['ref'].removeprefix('main at ')})"
            )
            return Fact(found, url, True, rule)
        return Fact(found, url, False, f"pytorch/builder {rec['ref']}")
    return None


def _old_fact(
    old_rows: Sequence[Mapping[str, Any]], release: str, platform: str, cuda: str
) -> Fact | None:
    for row in old_rows:
        if (
            "cuda" in row
            and cuda in row["cuda"]
            and platform in row["platforms"]
            and Version(release) in SpecifierSet(row["torch"])
        ):
            if not PUBLIC_LOCATOR.search(row["source"]):
                # values nobody can check again (a copy with no public address): no row,
                # doctor says "architecture not checked" (issue 23)
                return None
            why = (
                "built from pytorch/pytorch .ci/ at the release tag, which could not be read here"
                if Version(release) >= Version("2.6")
                else "no build script of this release was found"
            )
            rule = (
                f"rule: not derived ({why}; no PyPI wheel of this build): "
                "the values of the earlier row"
            )
            note = row.get("note", "")
            if note.startswith("rule: not derived"):  # already carried: idempotent
                return Fact(row["arch-list"], row["source"], True, note)
            kept = f"{rule}; it said: {note}" if note else rule
            return Fact(row["arch-list"], row["source"], True, kept)
    return None


def derive(
    builds: Mapping[str, Mapping[str, set[str]]],
    wheels: Mapping[str, Any],
    builder: Mapping[str, Any],
    old_rows: Sequence[Mapping[str, Any]],
) -> dict[tuple[str, str, str], Fact]:
    """Each CUDA build's Fact: the wheel's, else its release's script, else the old row's."""
    out: dict[tuple[str, str, str], Fact] = {}
    for release, platforms in builds.items():
        for platform, cudas in platforms.items():
            for cuda in sorted(cudas, key=Version):
                wheel = _wheel_fact(wheels, release, platform, cuda)
                script = _builder_fact(builder, release, platform, cuda)
                # From 2.9 the only scripts read were versions of pytorch/pytorch .ci/ tied to
                # no release tag (one disagrees with 2.11's own wheel): a build PyPI does not
                # carry gets no row (doctor: "architecture not checked"), never a main-branch
                # or an earlier release's list (issue 23).
                carried = (
                    _old_fact(old_rows, release, platform, cuda)
                    if Version(release) < Version(NO_CARRY_FROM)
                    else None
                )
                fact = wheel or script or carried
                if wheel and script and script.arch_list != wheel.arch_list:
                    said = (
                        f"{script.note or 'the script'} ({script.source}) sets {script.arch_list}"
                    )
                    fact = Fact(wheel.arch_list, wheel.source, False, f"the wheel wins: {said}")
                if fact is not None:
                    out[(release, platform, cuda)] = fact
    return out


def group_rows(
    facts: Mapping[tuple[str, str, str], Fact], releases: Sequence[str], kind: str = "cuda"
) -> list[dict[str, Any]]:
    """Facts as gpu-archs.yaml rows: consecutive releases with the same values share a row
    (`kind`: the key the versions go under, cuda or rocm)."""
    order = {r: i for i, r in enumerate(releases)}
    runs: dict[tuple[str, str, Fact], list[list[str]]] = {}
    for (release, platform, cuda), fact in sorted(
        facts.items(), key=lambda kv: (order[kv[0][0]], kv[0][1], Version(kv[0][2]))
    ):
        key = (platform, cuda, fact)
        chains = runs.setdefault(key, [])
        built = [r for (r, p, c) in facts if p == platform and c == cuda]
        if chains and built.index(release) == built.index(chains[-1][-1]) + 1:
            chains[-1].append(release)
        else:
            chains.append([release])
    merged: dict[tuple[str, str, Fact], list[str]] = {}
    for (platform, cuda, fact), chains in runs.items():
        for chain in chains:
            after = order[chain[-1]] + 1
            # closed at both ends: a release added later is never covered by an older row
            last = f"<{releases[after]}" if after < len(releases) else f"<={chain[-1]}"
            spec = f"=={chain[0]}" if len(chain) == 1 else f">={chain[0]},{last}"
            merged.setdefault((spec, platform, fact), []).append(cuda)
    rows = []
    for (spec, platform, fact), cudas in merged.items():
        row: dict[str, Any] = {
            "torch": spec,
            kind: sorted(set(cudas), key=Version),
            "platforms": [platform],
            "arch-list": fact.arch_list,
            "source": fact.source,
        }
        if fact.inferred:
            row["inferred"] = True
        if fact.note:
            row["note"] = fact.note
        rows.append(row)
    first = {
        spec: min(order[r] for r in releases if Version(r) in SpecifierSet(spec))
        for spec, _, _ in merged
    }
    rows.sort(
        key=lambda r: (
            DERIVED_PLATFORMS.index(r["platforms"][0]),
            first[r["torch"]],
            Version(r[kind][0]),
        )
    )
    return rows


# --- the file -----------------------------------------------------------------------------------
def _flow(row: Mapping[str, Any]) -> str:
    parts = []
    for key, value in row.items():
        if isinstance(value, list):
            parts.append(
                f"{key}: [{', '.join(json.dumps(v) if key != 'platforms' else v for v in value)}]"
            )
        elif isinstance(value, bool):
            parts.append(f"{key}: {'true' if value else 'false'}")
        else:
            parts.append(f"{key}: {json.dumps(value)}")
    return "- {" + ", ".join(parts) + "}"


def split_file(text: str) -> tuple[str, list[dict[str, Any]], str]:
    """gpu-archs.yaml as (its header comment, its CUDA rows, its ROCm part verbatim)."""
    lines = text.splitlines(keepends=True)
    first_row = next(i for i, line in enumerate(lines) if line.startswith("- "))
    rocm_at = next(i for i, line in enumerate(lines) if line.startswith("# ROCm"))
    header = "".join(lines[:first_row])
    rows = yaml.safe_load("".join(lines[first_row:rocm_at])) or []
    return header, rows, "".join(lines[rocm_at:])


def render(header: str, rows: Sequence[Mapping[str, Any]], rocm: str) -> str:
    return header + "".join(_flow(r) + "\n" for r in rows) + rocm


def rocm_part(old: str, derived: Sequence[Mapping[str, Any]]) -> str:
    """The ROCm part of the file: its comment, the derived rows, then the rows not derived here
    (kept as they are: each says `inferred` and its rule). Rows citing pytorch/builder are the
    derived ones and are replaced."""
    lines = old.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line.startswith("- ")), len(lines))
    kept = [
        r
        for r in yaml.safe_load("".join(lines[first:])) or []
        if "pytorch/builder" not in r["source"]
    ]
    return "".join(lines[:first]) + "".join(_flow(r) + "\n" for r in [*derived, *kept])


def derive_text(text: str) -> tuple[str, list[dict[str, Any]], list[dict[str, Any]]]:
    """gpu-archs.yaml derived again from the recordings: (the text, old rows, new rows)."""
    builds, wheels, builder, releases = load_inputs()
    header, old_rows, rocm = split_file(text)
    new_rows = group_rows(derive(builds, wheels, builder, old_rows), releases)
    pip_rows = yaml.safe_load(PIP.read_text())
    recorded = json.loads(ROCM_FILE.read_text()) if ROCM_FILE.exists() else {}
    rocm_rows = group_rows(derive_rocm(rocm_builds(pip_rows), recorded), releases, "rocm")
    return render(header, new_rows, rocm_part(rocm, rocm_rows)), old_rows, new_rows


def _expand(
    rows: Iterable[Mapping[str, Any]], builds: Mapping[str, Mapping[str, set[str]]]
) -> dict[tuple[str, str, str], tuple[str, bool]]:
    out = {}
    for release, platforms in builds.items():
        for platform, cudas in platforms.items():
            for cuda in cudas:
                for row in rows:
                    if (
                        "cuda" in row
                        and cuda in row["cuda"]
                        and platform in row["platforms"]
                        and Version(release) in SpecifierSet(row["torch"])
                    ):
                        out[(release, platform, cuda)] = (
                            row["arch-list"],
                            bool(row.get("inferred")),
                        )
                        break
    return out


def changes(
    old_rows: Sequence[Mapping[str, Any]],
    new_rows: Sequence[Mapping[str, Any]],
    builds: Mapping[str, Mapping[str, set[str]]],
) -> list[str]:
    """Per build (release x platform x CUDA): what derivation changed (arch list, inferred)."""
    old, new = _expand(old_rows, builds), _expand(new_rows, builds)
    keys = sorted(set(old) | set(new), key=lambda k: (Version(k[0]), k[1], Version(k[2])))
    return [
        f"{' '.join(k)}: {old.get(k)} -> {new.get(k)}" for k in keys if old.get(k) != new.get(k)
    ]


def load_inputs() -> tuple[
    dict[str, dict[str, set[str]]], dict[str, Any], dict[str, Any], list[str]
]:
    pip_rows = yaml.safe_load(PIP.read_text()) + yaml.safe_load(CONDA.read_text())
    releases_rows = yaml.safe_load((ROOT / "matrices" / "releases.yaml").read_text())
    releases = [r["torch"] for r in releases_rows]
    wheels = json.loads(WHEELS_FILE.read_text())["wheels"] if WHEELS_FILE.exists() else {}
    builder = json.loads(BUILDER_FILE.read_text()) if BUILDER_FILE.exists() else {}
    return pip_builds(pip_rows), wheels, builder, releases


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite matrices/gpu-archs.yaml")
    parser.add_argument(
        "--changes", action="store_true", help="list the builds whose values changed"
    )
    parser.add_argument("--record-wheels", nargs="+", metavar="VERSION", help="read PyPI wheels")
    parser.add_argument(
        "--record-builder", type=Path, metavar="GIT_DIR", help="read pytorch/builder"
    )
    parser.add_argument(
        "--record-rocm", type=Path, metavar="GIT_DIR", help="read pytorch/builder (ROCm)"
    )
    args = parser.parse_args(argv)
    if args.record_wheels:
        record_wheels(args.record_wheels)
        return 0
    if args.record_rocm:
        record_rocm(args.record_rocm, rocm_builds(yaml.safe_load(PIP.read_text())))
        return 0
    if args.record_builder:
        builds = load_inputs()[0]
        dates = {
            r["torch"]: r["date"]
            for r in yaml.safe_load((ROOT / "matrices" / "releases.yaml").read_text())
            if r.get("date")
        }
        record_builder(args.record_builder, builds, dates)
        return 0
    new_text, old_rows, new_rows = derive_text(MATRIX.read_text())
    if args.changes:
        for line in changes(old_rows, new_rows, load_inputs()[0]):
            print(line)
        return 0
    return 1 if write_or_diff(MATRIX, new_text, write=args.write, label="derived") else 0


if __name__ == "__main__":
    sys.exit(main())
