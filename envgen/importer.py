"""`envgen import`: environment.yml, requirements.txt, install line or Dockerfile -> project.yaml.

Parsing collects what a file asks for (torch and companion pins, python, the compute platform,
index lines, channels, other packages) into one `_Found`; `_validate` checks it against the
matrix and turns it into project.yaml data plus warnings, or raises one ImportSpecError that lists
every problem with the nearest published alternative. This module must not touch the network,
and starts a process only for `--git` (through envgen._proc).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from envgen import _proc
from envgen._io import write_if_changed
from envgen.errors import EnvgenError, ImportSpecError, SpecError
from envgen.matrix import (
    CondaBuild,
    KnownIssue,
    Matrix,
    PipBuild,
    Release,
    compute_sort_key,
    load_matrix,
)
from envgen.spec import parse_spec
from envgen.variants import cuda_version_of, issues_for, nearest_accelerator

SourceKind = Literal["conda", "pip", "shell", "dockerfile"]
PLATFORM: Final = "linux-64"
TORCH_FAMILY: Final = ("torch", "torchvision", "torchaudio")
# conda packages envgen sets itself from the matrix: never copied into conda.dependencies.
_CONDA_OWNED: Final = frozenset(
    {
        "python", "pytorch", "pytorch-cpu", "pytorch-gpu", "torchvision", "torchaudio",
        "cudatoolkit", "cuda-toolkit", "pytorch-cuda", "cpuonly", "pip", "pytorch-mutex",
        "cuda-version", "cudnn", "cuda90", "cuda92", "cuda100",
    }
)  # fmt: skip
# Channels the matrix names for each build: the user's own channels are the rest.
_MATRIX_CHANNELS: Final = frozenset({"pytorch", "nvidia"})
_PIP_VALUE_FLAGS: Final = frozenset(
    {
        "-f", "--find-links", "-i", "--index-url", "--extra-index-url", "-r", "--requirement",
        "-c", "--constraint", "-t", "--target", "--prefix", "--root", "--src", "--cache-dir",
        "--timeout", "--retries", "--trusted-host", "--platform", "--python-version",
        "--implementation", "--abi", "--progress-bar", "--log", "-e", "--editable",
    }
)  # fmt: skip
_CONDA_VALUE_FLAGS: Final = frozenset(
    {"-c", "--channel", "-n", "--name", "-p", "--prefix", "-f", "--file", "--override-channels"}
)
_WHL_LABEL: Final = re.compile(r"/whl/(cpu|cu\d+|rocm[\d.]+|xpu)/?$")
_CUDA_IN_BUILD: Final = re.compile(r"cuda(\d+)\.?(\d+)")
_PY_IN_BUILD: Final = re.compile(r"^py(\d)\.?(\d+)")
_VAR: Final = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)")
_NAME_OK: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_DEFAULT_CUDA: Final = "the default CUDA build"


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportOptions:
    """What `envgen import` was asked to do."""

    source: Path | None = None
    command: str | None = None
    out: Path | None = None
    as_of: str | None = None
    git: bool = False
    name: str | None = None
    matrix_dir: Path | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportResult:
    """The project.yaml envgen wrote (or would write), and what the user should know."""

    project: dict[str, object]
    text: str
    warnings: tuple[str, ...]
    written: bool = False


@dataclass(slots=True)
class _Pin:
    """A torch-family package as the file gave it."""

    version: str | None = None  # exact, or None when unpinned
    specifier: str = ""  # a range or fuzzy conda version, when not exact
    label: str | None = None  # pip local label: cu110, cpu
    where: str = ""


@dataclass(slots=True)
class _Found:
    """Everything a file asked for, before validation."""

    source: str
    kind: SourceKind
    name: str | None = None
    torch: _Pin | None = None
    companions: dict[str, _Pin] = field(default_factory=dict)
    torch_manager: Literal["pip", "conda"] | None = None
    python: str | None = None
    python_where: str = ""
    channels: list[str] = field(default_factory=list)
    conda_deps: list[str] = field(default_factory=list)
    pip_reqs: list[str] = field(default_factory=list)
    indexes: list[tuple[str, str]] = field(default_factory=list)  # (form, url)
    cpuonly: bool = False
    # (accelerator or None for a build PyPI chooses, the words for messages)
    compute: list[tuple[str, str]] = field(default_factory=list)
    image_cuda: str | None = None
    image_python: str | None = None
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


# --- entry points ----------------------------------------------------------------------------
def run_import(options: ImportOptions, matrix: Matrix | None = None) -> ImportResult:
    """Read the source (a file or a command line), validate it, write project.yaml when asked.

    Raises:
        ImportSpecError: listing every problem found, each with the nearest published alternative.
    """
    matrix = matrix or load_matrix(options.matrix_dir)
    if options.command is not None:
        found = parse_command_text(options.command, source="--command")
        default_name = "imported"
    elif options.source is not None:
        found = parse_file(options.source)
        default_name = options.source.resolve().parent.name
    else:
        msg = 'give a FILE to import or --command "pip install ..."'
        raise ImportSpecError(msg)
    if options.as_of and options.git:
        msg = "--as-of and --git both set the date; give one"
        raise ImportSpecError(msg)
    as_of = _parse_date(options.as_of) if options.as_of else None
    if options.git:
        if options.source is None:
            msg = "--git needs a FILE (the date of its last commit is used)"
            raise ImportSpecError(msg)
        as_of = git_date(options.source)
    project, warnings = build_project(
        found, matrix, name=options.name or found.name or default_name, as_of=as_of
    )
    text = render_project(project, source=found.source)
    written = False
    if options.out is not None:
        written = write_if_changed(options.out, text)
    return ImportResult(project=project, text=text, warnings=tuple(warnings), written=written)


def import_text(
    text: str, *, filename: str, matrix: Matrix, as_of: dt.date | None = None, name: str = "paper"
) -> ImportResult:
    """Import file content given as text (the kind is detected from `filename` and the text)."""
    found = parse_text(text, filename=filename, base=None)
    project, warnings = build_project(found, matrix, name=found.name or name, as_of=as_of)
    return ImportResult(
        project=project, text=render_project(project, source=found.source), warnings=tuple(warnings)
    )


def git_date(path: Path) -> dt.date:
    """The date of the last commit that touched `path` (`git log -1 --format=%cs`)."""
    where = path.resolve().parent
    try:
        result = _proc.run(
            ["git", "log", "-1", "--format=%cs", "--", path.name],
            what=f"git log for {path.name}",
            cwd=where,
            timeout=60,
        )
    except _proc.CommandError as exc:
        tail = exc.result.stderr.strip().splitlines()[-1:] or ["(no stderr)"]
        msg = f"--git: cannot read the commit date of {path.name}: {tail[0]}"
        raise ImportSpecError(
            msg, hint="run it inside the repository, or pass --as-of YYYY-MM-DD"
        ) from None
    stamp = result.stdout.strip()
    if not stamp:
        msg = f"--git: {path.name} has no commits in the repository at {where}"
        raise ImportSpecError(msg, hint="commit it first, or pass --as-of YYYY-MM-DD")
    return _parse_date(stamp)


def _parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        msg = f"--as-of: {text!r} is not a date; write YYYY-MM-DD, e.g. 2020-11-30"
        raise ImportSpecError(msg) from None


# --- detection and parsing -------------------------------------------------------------------
def parse_file(path: Path) -> _Found:
    """Read a file and parse it by its kind."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        msg = f"{path}: no such file"
        raise ImportSpecError(msg) from None
    except (OSError, UnicodeDecodeError) as exc:
        msg = f"{path}: cannot be read: {exc}"
        raise ImportSpecError(msg) from None
    return parse_text(text, filename=path.name, base=path.parent)


def detect_kind(filename: str, text: str) -> SourceKind:
    """Guess what a file is from its name, then its content.

    >>> detect_kind("environment.yml", ""), detect_kind("Dockerfile.gpu", "")
    ('conda', 'dockerfile')
    """
    low = filename.lower()
    if low.startswith("dockerfile") or low.endswith((".dockerfile", ".containerfile")):
        return "dockerfile"
    if low.endswith((".yml", ".yaml")):
        return "conda"
    if low.endswith((".sh", ".bash")) or low in {"install", "setup"}:
        return "shell"
    if low.endswith((".txt", ".in")) or low.startswith("requirements"):
        return "pip"
    first = next(
        (ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")), ""
    )
    if re.match(r"(?i)^(FROM|ARG)\s", first):
        return "dockerfile"
    if re.search(r"(?m)^dependencies\s*:", text):
        return "conda"
    if re.search(
        r"(?m)\b(pip3?|conda|mamba|micromamba)\s+(install|create)\b", text
    ) or text.startswith("#!"):
        return "shell"
    return "pip"


def parse_text(text: str, *, filename: str, base: Path | None) -> _Found:
    kind = detect_kind(filename, text)
    found = _Found(source=filename, kind=kind)
    if kind == "conda":
        _parse_conda_yaml(text, found, base)
    elif kind == "pip":
        _parse_requirements(text, found, base, seen=set())
    elif kind == "shell":
        _parse_shell(text, found, base, env={})
    else:
        _parse_dockerfile(text, found, base)
    return found


def parse_command_text(command: str, *, source: str) -> _Found:
    found = _Found(source=source, kind="shell")
    _parse_shell(command, found, None, env={})
    return found


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Join backslash continuations; return (first line number, text)."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not buf:
            start = number
        stripped = raw.rstrip()
        if stripped.endswith("\\"):
            buf.append(stripped[:-1])
            continue
        buf.append(stripped)
        out.append((start, " ".join(part.strip() for part in buf)))
        buf = []
    if buf:
        out.append((start, " ".join(part.strip() for part in buf)))
    return out


# conda ------------------------------------------------------------------------------------------
def _parse_conda_yaml(text: str, found: _Found, base: Path | None) -> None:
    import yaml  # noqa: PLC0415 - only this parser needs it

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        found.problems.append(f"{found.source}: not valid YAML: {getattr(exc, 'problem', exc)}")
        return
    if not isinstance(data, dict):
        found.problems.append(
            f"{found.source}: expected a conda environment (name, channels, dependencies)"
        )
        return
    if isinstance(data.get("name"), str):
        found.name = data["name"]
    for ch in data.get("channels") or []:
        if isinstance(ch, str) and ch not in found.channels:
            found.channels.append(ch)
    for i, dep in enumerate(data.get("dependencies") or []):
        where = f"{found.source}: dependencies[{i}]"
        if isinstance(dep, dict) and "pip" in dep:
            for j, req in enumerate(dep.get("pip") or []):
                _pip_line(str(req), found, base, f"{where}.pip[{j}]", seen=set())
        elif isinstance(dep, str):
            _conda_spec(dep, found, where)
        else:
            found.warnings.append(f"{where}: {dep!r} is not a package spec; ignored")


def _conda_spec(spec: str, found: _Found, where: str) -> None:
    """One conda match spec: `name`, `name=1.7`, `name==1.7.1`, `name=1.7.1=build`, `ch::name`."""
    text = spec.strip()
    channel = None
    if "::" in text:
        channel, text = text.split("::", 1)
        if channel not in found.channels:
            found.channels.append(channel)
    match = re.match(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*(.*)$", text)
    if not match:
        found.warnings.append(f"{where}: {spec!r} is not a conda package spec; ignored")
        return
    name, rest = match.group(1).lower(), match.group(2).strip()
    version, build, ranged = _conda_version(rest)
    if name in {"pytorch", "pytorch-gpu", "pytorch-cpu"}:
        _set_torch(found, "conda", version, ranged, where=where, label=None)
        if name == "pytorch-cpu":
            found.compute.append(("cpu", f"{where}: {name}"))
        if build:
            _conda_build_string(build, found, where)
    elif name in ("torchvision", "torchaudio"):
        found.companions[name] = _pin(version, ranged, None, where)
        if build and "cpu" in build:
            found.compute.append(("cpu", f"{where}: {name} build {build}"))
    elif name == "python":
        _set_python(found, version or ranged, where)
    elif name == "cpuonly":
        found.cpuonly = True
        found.compute.append(("cpu", "cpuonly"))
    elif name in ("cudatoolkit", "pytorch-cuda", "cuda-version", "cuda-toolkit"):
        cuda = _major_minor(version or ranged.lstrip("=<>!~"))
        if cuda:
            found.compute.append((_cu(cuda), f"{name} {cuda}"))
    elif name in ("cuda90", "cuda92", "cuda100"):
        found.compute.append(("cu" + name[4:], name))
    elif name not in _CONDA_OWNED:
        if rest and not rest.startswith(("=", "<", ">", "!", "~")):
            rest = "=" + rest.replace(" ", "=")
        dep = name + rest
        if dep not in found.conda_deps:
            found.conda_deps.append(dep)


def _conda_version(rest: str) -> tuple[str | None, str | None, str]:
    """(exact version, build string, range text) of a match spec's tail."""
    rest = rest.strip()
    if not rest:
        return None, None, ""
    if rest.startswith("=="):
        body = rest[2:]
    elif rest.startswith("=") and not rest.startswith("=="):
        body = rest[1:]
    elif re.match(r"^\d", rest):
        body = rest.replace(" ", "=", 1)
    else:
        return None, None, rest
    version, _, build = body.partition("=")
    version = version.strip()
    build_s = build.strip() or None
    if "*" in version or not _is_version(version):
        return None, build_s, version
    # `pytorch=1.7` is fuzzy in conda (1.7.*): exact only with three parts.
    if rest.startswith("=") and not rest.startswith("==") and len(version.split(".")) < 3:
        return None, build_s, version
    return version, build_s, ""


def _conda_build_string(build: str, found: _Found, where: str) -> None:
    py = _PY_IN_BUILD.match(build)
    if py:
        _set_python(found, f"{py.group(1)}.{py.group(2)}", f"{where} (build string)")
    cuda = _CUDA_IN_BUILD.search(build)
    if cuda:
        found.compute.append((_cu(f"{cuda.group(1)}.{cuda.group(2)}"), f"build string {build}"))
    elif "cpu" in build:
        found.compute.append(("cpu", f"build string {build}"))


# pip --------------------------------------------------------------------------------------------
def _parse_requirements(text: str, found: _Found, base: Path | None, *, seen: set[Path]) -> None:
    for number, line in _logical_lines(text):
        body = re.sub(r"(^|\s)#.*$", "", line).strip()
        if body:
            _pip_line(body, found, base, f"{found.source}:{number}", seen=seen)


def _pip_line(line: str, found: _Found, base: Path | None, where: str, *, seen: set[Path]) -> None:
    line = re.sub(r"(^|\s)#.*$", "", line).strip()
    if not line:
        return
    if line.startswith("-"):
        try:
            tokens = shlex.split(line)
        except ValueError:
            tokens = line.split()
        _pip_options(tokens, found, base, where, seen=seen)
        return
    # A requirement line (markers keep their quotes): drop per-requirement options (--hash=...).
    _pip_requirement(re.split(r"\s--", line, maxsplit=1)[0].strip(), found, where)


def _pip_options(
    tokens: list[str], found: _Found, base: Path | None, where: str, *, seen: set[Path]
) -> None:
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        flag, eq, value = tok.partition("=")
        if not eq and tok in _PIP_VALUE_FLAGS and i + 1 < len(tokens):
            value = tokens[i + 1]
            i += 1
        elif not eq:
            flag = tok
            if len(tok) > 2 and tok[:2] in ("-f", "-i", "-r", "-c") and not tok.startswith("--"):
                flag, value = tok[:2], tok[2:]
        i += 1
        if flag in ("-f", "--find-links"):
            found.indexes.append(("find-links", value))
        elif flag in ("-i", "--index-url"):
            found.indexes.append(("index-url", value))
        elif flag == "--extra-index-url":
            found.indexes.append(("extra-index-url", value))
        elif flag in ("-r", "--requirement"):
            _include(value, found, base, where, seen=seen)
        elif flag in ("-e", "--editable"):
            found.warnings.append(
                f"{where}: editable install {value!r} is not a package envgen can lock; ignored"
            )
        elif flag in ("-c", "--constraint"):
            found.warnings.append(
                f"{where}: constraints file {value!r} is not followed; pin what matters in "
                "project.yaml"
            )


def _include(name: str, found: _Found, base: Path | None, where: str, *, seen: set[Path]) -> None:
    if base is None:
        found.problems.append(
            f"{where}: -r {name}: included files can only be followed when importing a file"
        )
        return
    path = (base / name).resolve()
    if path in seen:
        return
    seen.add(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        found.problems.append(f"{where}: -r {name}: {path.name} not found beside {found.source}")
        return
    saved = found.source
    found.source = name
    _parse_requirements(text, found, path.parent, seen=seen)
    found.source = saved


def _pip_requirement(text: str, found: _Found, where: str) -> None:
    wheel = _wheel_requirement(text)
    if wheel is not None:
        wheel_name, wheel_version, wheel_label, py = wheel
        if py:
            _set_python(found, py, f"{where} (wheel tag)")
        _family(found, wheel_name, wheel_version, "", wheel_label, where)
        return
    if (
        "://" in text
        and not text.split("#", maxsplit=1)[0].endswith(".whl")
        and "@" not in text.split("://", maxsplit=1)[0]
    ):
        found.warnings.append(
            f"{where}: dropped {text!r}: a direct URL cannot be locked reproducibly; "
            "add a released version to pip:"
        )
        return
    try:
        req = Requirement(text)
    except InvalidRequirement as exc:
        found.warnings.append(f"{where}: {text!r} is not a requirement ({exc}); ignored")
        return
    name = str(canonicalize_name(req.name))
    if req.marker is not None and not _marker_on_linux(req.marker, found.python):
        found.warnings.append(
            f"{where}: {text!r} does not apply on linux-64 (marker {req.marker}); ignored"
        )
        return
    if name in TORCH_FAMILY:
        if req.url:
            found.problems.append(
                f"{where}: {req.name} from a URL that is not a wheel file name: pin a version "
                "instead"
            )
            return
        version, label, ranged = _pip_version(str(req.specifier))
        _family(found, name, version, ranged, label, where)
        return
    if name.startswith("nvidia-") or name in {"triton", "pytorch-triton"}:
        found.warnings.append(
            f"{where}: dropped {req.name} (a dependency of torch: the lock pins the matching one)"
        )
        return
    if req.url:
        found.warnings.append(
            f"{where}: dropped {text!r}: a direct URL cannot be locked reproducibly; add a "
            "released version to pip:"
        )
        return
    req.marker = None if req.marker is not None and _marker_always_linux(req.marker) else req.marker
    if any(canonicalize_name(Requirement(r).name) == name for r in found.pip_reqs):
        found.warnings.append(f"{where}: {req.name} is listed again; the first one is kept")
        return
    found.pip_reqs.append(str(req))


def _family(
    found: _Found, name: str, version: str | None, ranged: str, label: str | None, where: str
) -> None:
    if name == "torch":
        _set_torch(found, "pip", version, ranged, where=where, label=label)
    else:
        found.companions[name] = _pin(version, ranged, label, where)


def _wheel_requirement(text: str) -> tuple[str, str, str | None, str | None] | None:
    """`torch @ https://.../torch-1.7.1+cu110-cp38-cp38-linux_x86_64.whl` (or the bare URL)."""
    url = text.split("@", 1)[1].strip() if "@" in text and "://" in text.split("@", 1)[1] else text
    if "://" not in url or not url.split("#")[0].endswith(".whl"):
        return None
    filename = url.split("#")[0].rsplit("/", 1)[-1].replace("%2B", "+").replace("%2b", "+")
    try:
        name, version, _, tags = parse_wheel_filename(filename)
    except (InvalidWheelFilename, InvalidVersion):
        return None
    if name not in TORCH_FAMILY:
        return None
    py = None
    for tag in tags:
        m = re.match(r"^cp(\d)(\d+)$", tag.interpreter)
        if m:
            py = f"{m.group(1)}.{m.group(2)}"
    return name, version.public, version.local, py


def _pip_version(spec: str) -> tuple[str | None, str | None, str]:
    """(exact public version, local label, range text) of a pip specifier."""
    if not spec:
        return None, None, ""
    m = re.fullmatch(r"===?\s*([0-9][0-9A-Za-z.]*)(?:\+([0-9A-Za-z.]+))?", spec.strip())
    if m and "*" not in spec:
        return m.group(1), m.group(2), ""
    return None, None, spec


def _marker_on_linux(marker: Marker, python: str | None) -> bool:
    env = {
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "platform_machine": "x86_64",
    }
    if python:
        env |= {"python_version": python, "python_full_version": python + ".0"}
    try:
        return marker.evaluate(env)
    except Exception:  # an undefined marker variable means: keep it
        return True


def _marker_always_linux(marker: Marker) -> bool:
    """A marker that only says "on linux" is dropped (project.yaml's platforms say that)."""
    return (
        re.fullmatch(r"(sys_platform|platform_system) == \"(linux|Linux)\"", str(marker))
        is not None
    )


# shell and Dockerfiles ----------------------------------------------------------------------------
def _parse_shell(text: str, found: _Found, base: Path | None, *, env: dict[str, str]) -> None:
    for number, line in _logical_lines(text):
        if line.lstrip().startswith("#"):
            continue
        where = f"{found.source}:{number}" if found.source != "--command" else "--command"
        _shell_line(_substitute(line, env), found, base, where, env=env)


def _shell_line(
    line: str, found: _Found, base: Path | None, where: str, *, env: dict[str, str]
) -> None:
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        tokens = list(lexer)
    except ValueError:
        found.warnings.append(f"{where}: unbalanced quotes; line ignored")
        return
    segment: list[str] = []
    for tok in [*tokens, ";"]:
        if tok and set(tok) <= set(";&|"):
            _shell_command(segment, found, base, where, env=env)
            segment = []
        else:
            segment.append(tok)


def _shell_command(
    words: list[str], found: _Found, base: Path | None, where: str, *, env: dict[str, str]
) -> None:
    while words and (re.match(r"^\w+=", words[0]) or words[0] in {"sudo", "RUN", "exec", "time"}):
        if "=" in words[0] and words[0] != "RUN":
            key, _, value = words[0].partition("=")
            env[key] = value
        words = words[1:]
    if not words:
        return
    tool = Path(words[0]).name
    if tool in {"export", "ENV"} and len(words) > 1:
        for item in words[1:]:
            key, eq, value = item.partition("=")
            if eq:
                env[key] = value
        return
    if re.fullmatch(r"python(\d(\.\d+)?)?", tool) and words[1:3] == ["-m", "pip"]:
        if tool not in {"python", "python3"} and found.python is None:
            _set_python(found, tool.removeprefix("python"), f"{where} ({tool})")
        words = ["pip", *words[3:]]
        tool = "pip"
    if tool == "uv" and words[1:2] == ["pip"]:
        words, tool = words[1:], "pip"
    if re.fullmatch(r"pip(\d(\.\d+)?)?", tool) and len(words) > 1 and words[1] == "install":
        _pip_install(words[2:], found, base, where)
    elif (
        tool in {"conda", "mamba", "micromamba"}
        and len(words) > 1
        and words[1] in {"install", "create"}
    ):
        _conda_install(words[2:], found, where)


def _pip_install(args: list[str], found: _Found, base: Path | None, where: str) -> None:
    i = 0
    while i < len(args):
        tok = args[i]
        if tok.startswith("-"):
            flag = tok.split("=", 1)[0]
            takes_value = flag in _PIP_VALUE_FLAGS and "=" not in tok and i + 1 < len(args)
            option = [tok, args[i + 1]] if takes_value else [tok]
            _pip_options(option, found, base, where, seen=set())
            i += 2 if takes_value else 1
            continue
        _pip_requirement(tok, found, where)
        i += 1


def _conda_install(args: list[str], found: _Found, where: str) -> None:
    i = 0
    while i < len(args):
        tok = args[i]
        if tok.startswith("-"):
            flag, eq, value = tok.partition("=")
            if flag in _CONDA_VALUE_FLAGS and not eq and i + 1 < len(args):
                value = args[i + 1]
                i += 1
            if flag in ("-c", "--channel") and value not in found.channels:
                found.channels.append(value)
            i += 1
            continue
        _conda_spec(tok, found, where)
        i += 1


def _substitute(text: str, env: dict[str, str]) -> str:
    def repl(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(3)
        return env.get(name, m.group(2) if m.group(2) is not None else m.group(0))

    return _VAR.sub(repl, text)


def _parse_dockerfile(text: str, found: _Found, base: Path | None) -> None:
    env: dict[str, str] = {}
    for number, line in _logical_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        keyword, _, rest = stripped.partition(" ")
        keyword = keyword.upper()
        rest = _substitute(rest.strip(), env)
        where = f"{found.source}:{number}"
        if keyword == "FROM":
            image = next((w for w in rest.split() if not w.startswith("--")), None)
            if image is None:
                found.warnings.append(f"{where}: FROM names no image; line ignored")
            else:
                _from_image(image, found, where)
        elif keyword in ("ARG", "ENV"):
            try:
                items = shlex.split(rest)
            except ValueError:
                found.warnings.append(f"{where}: unbalanced quotes; line ignored")
                continue
            for item in items:
                key, eq, value = item.partition("=")
                if eq:
                    env[key] = value
            if keyword == "ENV" and "=" not in rest and len(rest.split()) == 2:
                env[rest.split()[0]] = rest.split()[1]
        elif keyword == "RUN":
            try:  # the exec form; Docker runs anything that is not a JSON array as shell form
                words = json.loads(rest) if rest.startswith("[") else None
            except json.JSONDecodeError:
                words = None
            if isinstance(words, list):
                _shell_command([str(w) for w in words], found, base, where, env=env)
            else:
                _shell_line(rest, found, base, where, env=env)


def _from_image(image: str, found: _Found, where: str) -> None:
    repo, _, tag = image.partition(":")
    repo = repo.removeprefix("docker.io/").removeprefix("library/")
    if repo == "pytorch/pytorch":
        m = re.match(r"^(\d+\.\d+(?:\.\d+)?)-cuda(\d+\.\d+)-cudnn\d+-(runtime|devel)$", tag)
        if m:
            exact = m.group(1).count(".") == 2
            version, ranged = (m.group(1), "") if exact else (None, f"=={m.group(1)}.*")
            _set_torch(found, "pip", version, ranged, where=where, label=None)
            found.compute.append((_cu(m.group(2)), f"image {image}"))
            for name in ("torchvision", "torchaudio"):
                found.companions.setdefault(name, _Pin(where=where))
        else:
            found.problems.append(
                f"{where}: FROM {image}: the tag names no torch release and CUDA version "
                "(expected e.g. pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime); pin one"
            )
    elif repo == "nvidia/cuda":
        m = re.match(r"^(\d+\.\d+)", tag)
        if m:
            found.image_cuda = m.group(1)
    elif repo == "python":
        m = re.match(r"^(\d\.\d+)", tag)
        if m:
            _set_python(found, m.group(1), f"{where} (image {image})")


# small setters -----------------------------------------------------------------------------------
def _pin(version: str | None, ranged: str, label: str | None, where: str) -> _Pin:
    return _Pin(version=version, specifier=ranged, label=label, where=where)


def _set_torch(
    found: _Found,
    manager: Literal["pip", "conda"],
    version: str | None,
    ranged: str,
    *,
    where: str,
    label: str | None,
) -> None:
    pin = _pin(version, ranged, label, where)
    if (
        found.torch is not None
        and (found.torch.version, found.torch.specifier) != (version, ranged)
        and (version is not None or ranged)
    ):
        if found.torch.version is None and not found.torch.specifier:
            found.torch = pin
            found.torch_manager = manager
            return
        found.problems.append(
            f"{where}: torch is pinned twice, differently: {_pin_text(found.torch)} "
            f"({found.torch.where}) and {_pin_text(pin)}; keep one"
        )
        return
    if found.torch is None or version is not None or ranged:
        found.torch = pin
        found.torch_manager = manager
    if label:
        found.compute.append((label, f"torch=={version}+{label}"))


def _set_python(found: _Found, version: str | None, where: str) -> None:
    if not version:
        return
    mm = _major_minor(version.lstrip("=<>~!"))
    if mm is None or not version.lstrip("=").startswith(mm.split(".")[0]):
        return
    if found.python is None:
        found.python, found.python_where = mm, where
    elif found.python != mm:
        found.problems.append(
            f"{where}: python {mm} conflicts with python {found.python} ({found.python_where}); "
            "keep one"
        )


def _pin_text(pin: _Pin) -> str:
    if pin.version:
        return pin.version + (f"+{pin.label}" if pin.label else "")
    return pin.specifier or "(unpinned)"


def _major_minor(text: str | None) -> str | None:
    m = re.match(r"^(\d+)\.(\d+)", text or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def _cu(cuda: str) -> str:
    return "cu" + cuda.replace(".", "")


def _cuda_of(acc: str) -> str:
    return cuda_version_of(acc) or acc


def _is_version(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


# --- validation against the matrix ---------------------------------------------------------------
def build_project(
    found: _Found, matrix: Matrix, *, name: str, as_of: dt.date | None = None
) -> tuple[dict[str, object], list[str]]:
    """Validate what a file asked for; return project.yaml data and warnings.

    Raises:
        ImportSpecError: listing every problem, each with the nearest published alternative.
    """
    problems = list(found.problems)
    warnings = list(found.warnings)
    src = found.source
    release = _pick_release(found, matrix, as_of, problems, warnings)
    if release is None:
        _raise(src, problems)
        raise ImportSpecError(src)
    manager: Literal["pip", "conda"] = found.torch_manager or "pip"
    acc = _pick_accelerator(found, matrix, release, manager, problems, warnings)
    builds = _builds(matrix, release, manager)
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    if acc is not None and not builds and manager == "conda":
        manager, builds = _channel_ended(found, matrix, release, acc, problems, warnings)
        other = "conda" if manager == "pip" else "pip"
    if acc is not None and builds and acc not in builds:
        problems.append(_never_built(found, matrix, release, manager, acc))
        acc = None
    python = _check_python(found, release, problems)
    companions = _check_companions(found, matrix, release, acc, problems, warnings)
    managers: list[str] = [manager]
    if acc is not None and not problems:
        managers = _gone_routes(
            found, matrix, release, manager, other, acc, builds, problems, warnings
        )
    if (
        acc == "cpu"
        and manager == "conda"
        and not found.cpuonly
        and not any(c == "cpu" for c, _ in found.compute)
    ):
        build = builds.get("cpu")
        if isinstance(build, CondaBuild) and build.form == "cpuonly":
            cudas = [a for a in builds if a.startswith("cu")]
            warnings.append(
                f"{src}: pytorch {release.torch} from -c pytorch without cpuonly (and without "
                f"cudatoolkit) installs {_DEFAULT_CUDA} on linux-64, even on a machine without a "
                "GPU; "
                "project.yaml asks for cpu, whose environment.yml adds cpuonly. If the paper ran "
                "on a GPU, "
                f"set accelerators to the CUDA it used ({', '.join(cudas) or 'none published'})"
            )
    if acc is not None and "pip" in managers:
        from envgen.extensions import Target, review_import  # noqa: PLC0415

        target = Target(
            torch=release.torch,
            accelerator=acc,
            python=python or (release.python[-1] if release.python else "3"),
            platform="linux-64",
        )
        newest_first = tuple(sorted(release.python, key=_py_key, reverse=True))
        more, notes, fitting = review_import(
            matrix,
            found.pip_reqs,
            found.indexes,
            target,
            where=src,
            pythons=() if python else newest_first,
        )
        problems += more
        warnings += notes
        if fitting is not None and newest_first and fitting != newest_first[0]:
            python = fitting
            warnings.append(
                f"{src}: python {fitting}: the newest Python torch {release.torch} and the "
                "file's compiled extensions were all built for"
            )
    _raise(src, problems)
    if acc is None:  # every path that leaves it None adds a problem
        msg = f"{src}: no compute platform could be chosen"
        raise ImportSpecError(msg)
    channels = [c for c in found.channels if c not in _MATRIX_CHANNELS]
    project: dict[str, object] = {"name": _safe_name(name)}
    if python:
        project["python"] = python
    project["torch"] = release.torch
    project.update(companions)
    project["accelerators"] = [acc]
    project["managers"] = managers
    if found.pip_reqs:
        project["pip"] = list(found.pip_reqs)
    if found.conda_deps or (channels and "conda" in managers):
        conda: dict[str, object] = {}
        if channels:
            conda["channels"] = channels
        if found.conda_deps:
            conda["dependencies"] = list(found.conda_deps)
        project["conda"] = conda
    if as_of is not None:
        project["lock"] = {"exclude_newer": as_of.isoformat()}
    _known_issues(found, matrix, release, managers, acc, warnings)
    # The result must itself be a valid project.yaml (a failure here is an envgen bug).
    try:
        parse_spec(render_project(project, source=src), path=Path("project.yaml"))
    except SpecError as exc:
        msg = f"{src}: the imported project.yaml is not valid: {exc}"
        raise ImportSpecError(msg) from None
    return project, warnings


def _py_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def _raise(src: str, problems: list[str]) -> None:
    if not problems:
        return
    if len(problems) == 1:
        raise ImportSpecError(problems[0])
    text = f"{src}: {len(problems)} problems\n" + "\n".join(f"  - {p}" for p in problems)
    raise ImportSpecError(text)


def _pick_release(
    found: _Found, matrix: Matrix, as_of: dt.date | None, problems: list[str], warnings: list[str]
) -> Release | None:
    src = found.source
    releases = sorted(matrix.releases, key=lambda r: r.version)
    pin = found.torch
    if pin is None or (pin.version is None and not pin.specifier):
        where = pin.where if pin else src
        if pin is None:
            problems.append(
                f"{src}: no torch (or conda pytorch) requirement found; nothing to reproduce"
            )
            return None
        if as_of is None:
            problems.append(
                f"{where}: torch is not pinned; pin the release the paper used, or pass --as-of "
                "DATE "
                "to take the newest release published by then"
            )
            return None
        dated = [r for r in releases if r.date and dt.date.fromisoformat(r.date) <= as_of]
        if not dated:
            problems.append(
                f"{where}: torch is not pinned and no release is dated on or before {as_of}"
            )
            return None
        warnings.append(
            f"{where}: torch is not pinned; using {dated[-1].torch}, the newest release on {as_of}"
        )
        return dated[-1]
    if pin.version is not None:
        release = matrix.release(pin.version)
        if release is None:
            wanted = Version(pin.version)
            near = [r.torch for r in releases if r.version.release[:2] == wanted.release[:2]]
            text = ", ".join(near) if near else "none in the same minor series"
            problems.append(
                f"{pin.where}: torch {pin.version} is not a PyTorch release; releases near it: "
                f"{text}"
            )
        return release
    spec_text = pin.specifier if pin.specifier[0] in "=<>!~" else f"=={pin.specifier}"
    if re.fullmatch(r"==\d+(\.\d+)?", spec_text):
        spec_text += ".*"
    try:
        spec = SpecifierSet(spec_text)
    except InvalidSpecifier:
        problems.append(
            f"{pin.where}: torch {pin.specifier!r} is not a version or range envgen understands"
        )
        return None
    matching = [r for r in releases if spec.contains(r.version)]
    if not matching:
        problems.append(f"{pin.where}: no torch release matches {pin.specifier!r}")
        return None
    warnings.append(
        f"{pin.where}: torch {pin.specifier} is not an exact pin; project.yaml pins "
        f"{matching[-1].torch}, "
        "the newest release it allows"
    )
    return matching[-1]


def _builds(matrix: Matrix, release: Release, manager: str) -> dict[str, PipBuild | CondaBuild]:
    rows: list[PipBuild | CondaBuild] = [
        *(
            matrix.pip_builds(release.torch, PLATFORM)
            if manager == "pip"
            else matrix.conda_builds(release.torch, PLATFORM)
        )
    ]
    ordered = sorted(rows, key=lambda b: compute_sort_key(b.kind, b.version))
    return {b.accelerator: b for b in ordered}


def _pick_accelerator(
    found: _Found,
    matrix: Matrix,
    release: Release,
    manager: str,
    problems: list[str],
    warnings: list[str],
) -> str | None:
    src = found.source
    evidence = list(found.compute)
    for form, url in found.indexes:
        m = _WHL_LABEL.search(url.rstrip("/"))
        if m and form != "find-links":
            evidence.append((m.group(1), f"--{form} {url}"))
    distinct = sorted({acc for acc, _ in evidence})
    if len(distinct) > 1:
        said = "; ".join(f"{acc} ({why})" for acc, why in evidence)
        problems.append(
            f"{src}: the file asks for more than one compute platform: {said}; keep one"
        )
        return None
    if distinct:
        return distinct[0]
    builds = _builds(matrix, release, manager)
    from envgen.extensions import accelerator_from_pages  # noqa: PLC0415

    paged = accelerator_from_pages(matrix, found.indexes)
    if paged is not None and paged[0] in builds:
        warnings.append(f"{src}: the compute platform {paged[0]} comes from -f {paged[1]}")
        return paged[0]
    if manager == "conda":
        # No cpuonly, no cudatoolkit: see the warning in build_project.
        return "cpu" if "cpu" in builds else next(iter(builds), None)
    if found.image_cuda is not None:
        wanted = _cu(found.image_cuda)
        if wanted in builds:
            return wanted
        near = _nearest(wanted, list(builds))
        warnings.append(
            f"{src}: the base image has CUDA {found.image_cuda} but torch {release.torch} has no "
            f"{wanted} "
            f"wheels; using {near} (the wheels bundle their own CUDA runtime)"
        )
        return near
    default = next((b for b in builds.values() if isinstance(b, PipBuild) and b.pypi_default), None)
    if default is not None:
        if default.accelerator != "cpu":
            warnings.append(
                f"{src}: torch=={release.torch} has no local label and no PyTorch index: on "
                "linux-64 "
                f"PyPI serves the {default.accelerator} build, so project.yaml asks for "
                f"{default.accelerator}"
            )
        return default.accelerator
    cudas = [a for a in builds if a.startswith("cu")]
    warnings.append(
        f"{src}: torch=={release.torch} has no local label and no PyTorch index, and the matrix "
        "does not "
        "record which build PyPI served on linux-64; project.yaml asks for cpu: change "
        "accelerators if "
        f"the paper ran on a GPU (torch {release.torch} was built for "
        f"{', '.join(cudas) or 'no CUDA'})"
    )
    return "cpu" if "cpu" in builds else None


def _nearest(acc: str, choices: list[str]) -> str:
    return nearest_accelerator(acc, choices) or (choices[0] if choices else acc)


def _versions_text(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _never_built(found: _Found, matrix: Matrix, release: Release, manager: str, acc: str) -> str:
    """E.g. 'pytorch 1.11.0 was never built with cudatoolkit 11.1; it was built for 10.2, 11.3'."""
    builds = _builds(matrix, release, manager)
    other = "conda" if manager == "pip" else "pip"
    other_builds = _builds(matrix, release, other)
    why = next((w for a, w in found.compute if a == acc), acc)
    cuda_accs = [a for a in builds if a.startswith("cu")]
    if acc.startswith("cu") and cuda_accs:
        built = "CUDA " + _versions_text([_cuda_of(a) for a in cuda_accs])
        if manager == "conda":
            built = _versions_text([_cuda_of(a) for a in cuda_accs])
        fix = f"use {_nearest(acc, cuda_accs)}"
    elif builds:
        built = _versions_text(list(builds))
        fix = f"use {_nearest(acc, list(builds))}"
    else:
        return f"{found.source}: torch {release.torch} has no {manager} builds for {PLATFORM}"
    if manager == "conda":
        what = (
            why
            if why.startswith(
                ("cudatoolkit", "pytorch-cuda", "cuda-version", "cuda-toolkit", "build string")
            )
            else f"{acc}"
        )
        text = f"pytorch {release.torch} was never built with {what} on conda; "
        text += f"it was built for {built}: {fix}"
    else:
        text = f"torch {release.torch} was never built for {acc} ({why}) as pip wheels; "
        text += f"it was built for {built}: {fix}"
    if acc in other_builds:
        text += f", or use the {other} route, which has {acc} (managers: [{other}])"
    return f"{found.source}: {text}"


def _check_python(found: _Found, release: Release, problems: list[str]) -> str | None:
    py = found.python
    if py is None:
        return None
    if py not in release.python:
        supported = sorted(release.python, key=lambda p: tuple(int(x) for x in p.split(".")))
        wanted = tuple(int(x) for x in py.split("."))
        nearest = min(
            supported,
            key=lambda p: abs(int(p.split(".")[1]) - wanted[1]) if p.startswith("3.") else 99,
        )
        problems.append(
            f"{found.python_where}: torch {release.torch} was published for python "
            f"{', '.join(supported)}, not {py}: use python {nearest}"
        )
    return py


def _check_companions(
    found: _Found,
    matrix: Matrix,
    release: Release,
    acc: str | None,
    problems: list[str],
    warnings: list[str],
) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in ("torchvision", "torchaudio"):
        pin = found.companions.get(name)
        paired = getattr(release, name)
        if pin is None:
            out[name] = False
            continue
        if pin.version is None:
            out[name] = True
            if paired:
                warnings.append(
                    f"{pin.where}: {name} is not pinned; envgen will pick the one matching torch "
                    f"{release.torch} ({name} {paired})"
                )
            continue
        if paired is None:
            problems.append(
                f"{pin.where}: {name} {pin.version}: torch {release.torch} was published without "
                f"{name}"
            )
            continue
        published = {paired} | {
            (getattr(b, name) or "").split("+")[0]
            for b in (*matrix.pip_builds(release.torch), *matrix.conda_builds(release.torch))
        }
        if pin.version not in published:
            owners = sorted(
                {r.torch for r in matrix.releases if getattr(r, name) == pin.version}, key=Version
            )
            belongs = (
                f"belongs to torch {', '.join(owners)}"
                if owners
                else f"is not a {name} release in the matrix"
            )
            problems.append(
                f"{pin.where}: {name} {pin.version} {belongs}, not torch {release.torch}; "
                f"torch {release.torch} pairs with {name} {paired}"
            )
            continue
        if pin.label and acc and pin.label != acc:
            problems.append(
                f"{pin.where}: {name}=={pin.version}+{pin.label} is a {pin.label} build but torch "
                f"is {acc}; "
                f"use {name}=={pin.version}+{acc}"
            )
            continue
        out[name] = pin.version
    return out


def _gone_routes(
    found: _Found,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    other: Literal["pip", "conda"],
    acc: str,
    builds: dict[str, PipBuild | CondaBuild],
    problems: list[str],
    warnings: list[str],
) -> list[str]:
    """The managers to write: the file's own, or the other one when its route is gone."""
    gone = [i for i in _issues(found, matrix, release, acc, builds[acc]) if i.severity == "error"]
    if not gone:
        return [manager]
    other_builds = _builds(matrix, release, other)
    said = " ".join(f"[{i.id}] {i.message}" for i in gone)
    if acc in other_builds:
        warnings.append(
            f"{found.source}: {said} project.yaml uses the {other} route, which still works "
            f"(managers: [{other}]). Fix: {gone[0].fix} ({gone[0].link})"
        )
        return [other]
    problems.append(
        f"{found.source}: {said} Fix: {gone[0].fix} ({gone[0].link}); {other} has no {acc} build "
        "either"
    )
    return [manager]


def _issues(
    found: _Found,
    matrix: Matrix,
    release: Release,
    acc: str,
    build: PipBuild | CondaBuild,
) -> list[KnownIssue]:
    if isinstance(build, PipBuild):
        # Judge the route the file used: `-f torch_stable.html` even where the matrix has an index.
        form = next(
            (f for f, u in found.indexes if f == "find-links" and "torch_stable" in u), None
        )
        pip = build.model_copy(update={"index": form}) if form else build
        return issues_for(matrix, release, manager="pip", accelerator=acc, pip=pip)
    return issues_for(
        matrix,
        release,
        manager="conda",
        accelerator=acc,
        conda=build,
        extra_channels=tuple(found.channels),
    )


def _known_issues(
    found: _Found,
    matrix: Matrix,
    release: Release,
    managers: list[str],
    acc: str,
    warnings: list[str],
) -> None:
    manager = managers[0]
    build = _builds(matrix, release, manager).get(acc)
    if build is None:
        return
    for issue in _issues(found, matrix, release, acc, build):
        if issue.severity != "warning" or _silenced(issue, found):
            continue
        warnings.append(f"[{issue.id}] {issue.message} Fix: {issue.fix} ({issue.link})")


def _silenced(issue: KnownIssue, found: _Found) -> bool:
    """The file already pins what the issue's `silenced-by` requirement asks for (e.g. numpy<2)."""
    if issue.silenced_by is None:
        return False
    want = Requirement(issue.silenced_by)
    probes = [s.version for s in want.specifier if s.operator in ("<", "<=", "!=")]
    have: list[SpecifierSet] = []
    for text in found.pip_reqs:
        req = Requirement(text)
        if canonicalize_name(req.name) == canonicalize_name(want.name):
            have.append(req.specifier)
    for dep in found.conda_deps:
        m = re.match(rf"^{re.escape(want.name)}=+([0-9][0-9.]*)", dep)
        if m:
            have.append(
                SpecifierSet(f"=={m.group(1)}.*" if dep.count("=") == 1 else f"=={m.group(1)}")
            )
    return bool(probes and have) and all(
        not spec.contains(p, prereleases=True) for spec in have for p in probes
    )


def _safe_name(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-._")[:64]
    return cleaned if _NAME_OK.match(cleaned) else "imported"


# --- writing -----------------------------------------------------------------------------------
_KEY_ORDER: Final = (
    "name",
    "python",
    "torch",
    "torchvision",
    "torchaudio",
    "accelerators",
    "managers",
    "pip",
    "conda",
    "lock",
)


def render_project(project: dict[str, object], *, source: str) -> str:
    """project.yaml text: fixed key order, every string quoted (YAML reads 3.10 as 3.1)."""
    lines = [f"# Imported by `envgen import` from {source}; review it, then run `envgen lock`."]
    for key in _KEY_ORDER:
        if key not in project:
            continue
        value = project[key]
        if isinstance(value, dict):
            lines.append(f"{key}:")
            for sub, item in value.items():
                lines.append(f"  {sub}:{_yaml_value(item, indent=4)}")
        else:
            lines.append(f"{key}:{_yaml_value(value, indent=2)}")
    return "\n".join(lines) + "\n"


def _yaml_value(value: object, *, indent: int) -> str:
    if isinstance(value, bool):
        return " true" if value else " false"
    if isinstance(value, str):
        return " " + json.dumps(value)
    if isinstance(value, list):
        if not value:
            return " []"
        pad = " " * indent
        return "".join(f"\n{pad}- {json.dumps(str(v))}" for v in value)
    msg = f"cannot write {value!r} into project.yaml"
    raise EnvgenError(msg)


def _channel_ended(
    found: _Found,
    matrix: Matrix,
    release: Release,
    acc: str,
    problems: list[str],
    warnings: list[str],
) -> tuple[Literal["pip", "conda"], dict[str, PipBuild | CondaBuild]]:
    """A conda env for a release the pytorch channel never had: name the issue, move to pip."""
    pip = _builds(matrix, release, "pip")
    gone = [
        i
        for i in matrix.known_issues
        if i.manager == "conda"
        and i.channel in found.channels
        and SpecifierSet(i.torch).contains(release.version, prereleases=True)
    ]
    said = " ".join(f"[{i.id}] {i.message}" for i in gone) or (
        f"torch {release.torch} was never published for conda on {PLATFORM}."
    )
    fix = f" Fix: {gone[0].fix} ({gone[0].link})" if gone else ""
    if acc in pip:
        warnings.append(
            f"{found.source}: {said} project.yaml uses the pip route, which has {acc} "
            f"(managers: [pip]).{fix}"
        )
        return "pip", pip
    problems.append(f"{found.source}: {said}{fix}; pip has no {acc} build either")
    return "conda", {}
