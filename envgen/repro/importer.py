"""`envgen import`: environment.yml, requirements.txt, install line or Dockerfile -> project.yaml.

Parsing collects what a file asks for (torch and companion pins, python, the compute platform,
index lines, channels, other packages) into one `_Found`; `_validate` checks it against the
matrix and turns it into project.yaml data plus warnings, or raises one ImportSpecError that lists
every problem with the nearest published alternative. This module must not touch the network
or start a process (`--git`'s `git log` runs in envgen.repro.entry, the entry point).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import posixpath
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

import yaml
from packaging.markers import InvalidMarker, Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from envgen.errors import EnvgenError, ImportSpecError, SpecError
from envgen.infra.safe_yaml import YamlBombError, load_bounded
from envgen.model.extensions import (
    Target,
    accelerator_from_pages,
    recognise_wheel_url,
    review_import,
    torch_from_pages,
)
from envgen.model.matrix import (
    CondaBuild,
    KnownIssue,
    Matrix,
    PipBuild,
    Release,
    accelerator_id,
    compute_sort_key,
    cuda_number,
)
from envgen.model.pypi_routes import load_routes
from envgen.model.spec import CHANNEL_RE, CONDA_DEP_RE, parse_spec
from envgen.model.targets import load_targets
from envgen.model.types import TORCH_FAMILY
from envgen.model.variants import (
    companion_accepts,
    cuda_version_of,
    issues_for,
    nearest_accelerator,
    published_companions,
    silenced,
)
from envgen.repro import eras, shell
from envgen.repro import formats as import_formats
from envgen.repro import pylock as import_pylock
from envgen.repro.base_images import ngc_pytorch
from envgen.repro.carry import carry_to_pip
from envgen.repro.reading import (
    MAX_EXPANDED_CHARS,
    MAX_EXPANDED_TOTAL,
    MAX_INCLUDE_DEPTH,
    MAX_PACKAGES,
    MAX_PIP_LINE,
    MAX_WARNINGS,
    UnreadableSource,
    excerpt,
    inside,
    read_source,
)
from envgen.repro.wheels import PinWheels, choose_python

SourceKind = Literal[
    "conda", "pip", "shell", "dockerfile", "conda-list", "setup.py", "setup.cfg", "pyproject",
    "markdown", "batch", "pylock",
]  # fmt: skip
PLATFORM: Final = "linux-64"
# conda packages envgen sets itself from the matrix: never copied into conda.dependencies.
_CONDA_OWNED: Final = frozenset(
    {
        "python", "pytorch", "pytorch-cpu", "pytorch-gpu", "torchvision", "torchaudio",
        "cudatoolkit", "cuda-toolkit", "pytorch-cuda", "cpuonly", "pip", "pytorch-mutex",
        "cuda-version", "cudnn", "cuda90", "cuda92", "cuda100", "torchvision-cpu",
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
# The compute platform an index URL names (whl/lts/1.8/cu111: the LTS release's index).
_WHL_LABEL: Final = re.compile(r"/whl/(?:lts/[\d.]+/)?(cpu|cu\d+|rocm[\d.]+|xpu)/?$")
_CUDA_IN_BUILD: Final = re.compile(r"cuda(\d+)\.?(\d+)")
_PY_IN_BUILD: Final = re.compile(r"^py(\d)\.?(\d+)")
_VAR: Final = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)")
_NAME_OK: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_DEFAULT_CUDA: Final = "the default CUDA build"
MAX_ALTERNATIVE_CHARS: Final = 200  # an alternative install command, quoted in full where short


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
    strict: bool = False  # refuse instead of moving to the nearest combination that existed
    force: bool = False  # let `out` overwrite an existing file
    context: Path | None = None  # a Dockerfile's build context (default: its folder)
    # Unpinned or ranged torch without --as-of: date it by the source's last git commit when the
    # source lies in a git checkout (the CLI turns this on; it runs `git log`).
    git_default: bool = False
    # The user's cache root (Settings.cache_root), where the parsed matrix is kept; None: the
    # matrix is parsed afresh.
    cache_root: Path | None = None
    # A PEP 691 simple index (PyPI's, or ENVGEN_PYPI_INDEX) whose file lists say which python
    # the file's exact pins have wheels for; None: not asked (the CLI's --offline, library use).
    pypi_index: str | None = None
    http_timeout: float | None = None


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


@dataclass(frozen=True, slots=True)
class _Wheel:
    """A direct wheel URL of another package, kept until the matrix says if it is an extension."""

    text: str  # the requirement as the file wrote it (a bare URL or `name @ URL`)
    url: str
    where: str
    slot: int  # where in pip_reqs its requirement goes (file order)


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
    wheels: list[_Wheel] = field(default_factory=list)  # direct wheel URLs, read by build_project
    # The extension pages recognised wheel URLs came from: ("wheel", page), evidence like -f.
    wheel_pages: list[tuple[str, str]] = field(default_factory=list)
    cpuonly: bool = False
    # (accelerator or None for a build PyPI chooses, the words for messages)
    compute: list[tuple[str, str]] = field(default_factory=list)
    image_cuda: str | None = None
    image_python: str | None = None
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # What project.yaml cannot say but should keep (a python patch version, a conda build
    # string), written as comments beside the key: {key: text}.
    comments: dict[str, str] = field(default_factory=dict)
    # Where the file contradicts itself and envgen chose one side (turned into departures).
    departures: list[str] = field(default_factory=list)
    include_depth: int = 0  # how deep the current -r chain is
    expanded: int = 0  # characters of shell/Dockerfile lines after $VAR substitution so far
    seen_pip: set[str] = field(default_factory=set)  # canonical names in pip_reqs
    seen_conda: set[str] = field(default_factory=set)  # entries of conda_deps
    full: set[str] = field(default_factory=set)  # "pip"/"conda" once MAX_PACKAGES is reached
    root: Path | None = None  # includes must stay inside it (a repository import)
    tree: Path | None = None  # the imported file's folder: -r includes must stay inside it
    unreadable: str | None = None  # why the whole file was refused (a repository skips it)
    scripts: set[Path] = field(default_factory=set)  # scripts followed (run by a RUN or script)
    # A python the file implies only (the base env of the Miniconda it installs, the distro's
    # python3): used when nothing names the python. (python, where)
    weak_python: tuple[str, str] | None = None
    distro_python: tuple[str, str] | None = None  # (Ubuntu 20.04, 3.8) from the FROM image
    # The Miniconda the file installs: its base python ("" for Miniconda3-latest: not stated),
    # which replaces the distro's python3 as the one pip runs in.
    conda_base: tuple[str, str] | None = None
    docker: _DockerContext | None = None  # while a Dockerfile is read: where COPY put files


@dataclass(slots=True)
class _DockerContext:
    """A Dockerfile's build context and what its COPY/ADD lines put where in the image."""

    context: Path
    fallback: Path | None = None  # a second context to try (the repository, for a repo import)
    workdir: str = "/"
    files: dict[str, str] = field(default_factory=dict)  # image path -> context-relative path
    dirs: list[tuple[str, str]] = field(default_factory=list)  # (image dir, context dir)

    def image_path(self, name: str) -> str:
        return posixpath.normpath(posixpath.join(self.workdir, name))

    def copy(self, sources: list[str], dest: str) -> None:
        target = self.image_path(dest)
        into_dir = len(sources) > 1 or dest.endswith("/") or dest in {".", "./"}
        for src in sources:
            rel = posixpath.normpath(src.lstrip("/"))
            rel = "" if rel == "." else rel
            if not rel or (self.context / rel).is_dir():
                self.dirs.append((target, rel))  # a folder's contents go into the target
            elif into_dir:
                self.files[posixpath.join(target, posixpath.basename(rel))] = rel
            else:
                self.files[target] = rel

    def resolve(self, name: str) -> Path:
        """The build-context file that `pip install -r name` reads inside the image."""
        path = self.image_path(name)
        if path in self.files:
            return self.context / self.files[path]
        for image_dir, rel in sorted(self.dirs, key=lambda d: -len(d[0])):
            if path == image_dir or path.startswith(image_dir.rstrip("/") + "/"):
                rest = path[len(image_dir) :].lstrip("/")
                return self.context / posixpath.join(rel, rest) if rel or rest else self.context
        return self.context / name.lstrip("/")


def kept_comments(found: _Found, project: dict[str, object]) -> dict[str, str]:
    """The comments that still describe what project.yaml says (not a departed value)."""
    out = dict(found.comments)
    python = project.get("python")
    asked = out.pop("python-asked", None)
    if "python" in out and not (isinstance(python, str) and python == found.python):
        del out["python"]
    if asked is not None and python != found.python:
        out["python"] = asked  # an old python project.yaml cannot hold: said beside the key
    torch = project.get("torch")
    if "torch" in out and not (found.torch and found.torch.version == torch):
        del out["torch"]
    pinned = found.torch.version if found.torch else None
    if (
        pinned is not None
        and torch != pinned
        and (pinned in eras.POST_RELEASES or eras.pre_matrix_release(pinned) is not None)
    ):
        # A real release or post-release project.yaml cannot pin: said beside the key.
        out["torch"] = (
            f"the file pins torch {pinned} ({excerpt(found.torch.where if found.torch else '')})"
        )
    return out


# --- entry points ----------------------------------------------------------------------------
def import_text(
    text: str, *, filename: str, matrix: Matrix, as_of: dt.date | None = None, name: str = "paper"
) -> ImportResult:
    """Import file content given as text (the kind is detected from `filename` and the text)."""
    found = parse_text(text, filename=filename, base=None)
    project, warnings = build_project(found, matrix, name=found.name or name, as_of=as_of)
    return ImportResult(
        project=project,
        text=render_project(project, source=found.source, comments=kept_comments(found, project)),
        warnings=tuple(warnings),
    )


# --- detection and parsing -------------------------------------------------------------------
def parse_file(path: Path, *, root: Path | None = None, context: Path | None = None) -> _Found:
    """Read a file (bounded: a regular file of at most 1 MiB) and parse it by its kind.

    `context` is a Dockerfile's build context (default: the Dockerfile's folder).
    """
    try:
        text = read_source(path)
    except UnreadableSource as exc:
        raise ImportSpecError(str(exc)) from None
    return parse_text(
        text, filename=path.name, base=path.parent, root=root, context=context, tree=path.parent
    )


def detect_kind(filename: str, text: str) -> SourceKind:  # noqa: PLR0911 - a decision table: one return per file kind
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
    if low.endswith((".bat", ".cmd")):
        return "batch"
    if low == "setup.py":
        return "setup.py"
    if low == "setup.cfg":
        return "setup.cfg"
    if low == "pyproject.toml":
        return "pyproject"
    if import_pylock.is_pylock_name(low):
        return "pylock"
    if low.endswith((".md", ".markdown", ".rst")) or re.match(
        r"^(readme|install)\.(txt|markdown)$", low
    ):
        return "markdown"
    if import_formats.is_conda_list(text):
        return "conda-list"
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


def parse_text(
    text: str,
    *,
    filename: str,
    base: Path | None,
    root: Path | None = None,
    context: Path | None = None,
    tree: Path | None = None,
) -> _Found:
    kind = detect_kind(posixpath.basename(filename), text)
    found = _Found(source=filename, kind=kind, root=root, tree=tree)
    if kind == "conda":
        _parse_conda_yaml(text, found, base)
    elif kind == "pip":
        _parse_requirements(text, found, base, seen=set())
    elif kind == "shell":
        _parse_shell(text, found, base, env={})
    elif kind == "batch":
        _parse_shell(text, found, base, env={}, script="bat")
    elif kind == "dockerfile":
        _parse_dockerfile(text, found, base, context)
    elif kind == "conda-list":
        _parse_conda_list(text, found)
    elif kind == "markdown":
        for first, block in import_formats.shell_blocks(text):
            _parse_shell(block, found, base, env={}, offset=first - 1)
        for first, block in import_formats.batch_blocks(text):
            _parse_shell(block, found, base, env={}, offset=first - 1, script="bat")
    else:
        reader = {
            "setup.py": import_formats.setup_py,
            "setup.cfg": import_formats.setup_cfg,
            "pyproject": import_formats.pyproject,
            "pylock": import_pylock.declared,  # PEP 751 (envgen.repro.pylock)
        }[kind]
        _parse_declared(reader(text, filename), found)
    weak = found.conda_base or found.weak_python
    if found.python is None and weak is not None and weak[0]:
        _set_python(found, weak[0], weak[1])
    return found


def _parse_conda_list(text: str, found: _Found) -> None:
    """`conda list --export` (name=version=build) or `conda list` table output."""
    found.torch_manager = found.torch_manager or "conda"
    unchanneled = 0
    for number, spec, channel in import_formats.conda_list_entries(text):
        where = f"{found.source}:{number}"
        if channel == "pypi":
            _pip_requirement(spec, found, where)
            continue
        if channel and channel not in found.channels and re.fullmatch(r"[\w.-]+", channel):
            found.channels.append(channel)
        before = len(found.conda_deps)
        _conda_spec(spec, found, where)
        unchanneled += channel is None and len(found.conda_deps) > before
    if unchanneled and "defaults" not in found.channels:
        # `conda list --export` records no channels and `conda list` leaves the column empty
        # for the defaults channel: a plain Anaconda/Miniconda install took them from defaults.
        found.channels.append("defaults")
        found.warnings.append(
            f"{found.source}: {unchanneled} package(s) have no channel in the listing (conda "
            "list leaves defaults blank, conda list --export records no channels); project.yaml "
            "adds the defaults channel: change conda.channels if the environment used "
            "conda-forge"
        )


def _parse_declared(declared: import_formats.Declared, found: _Found) -> None:
    """A package's own dependencies (setup.py, setup.cfg, pyproject.toml)."""
    if declared.refused is not None:
        found.unreadable = declared.refused
        found.problems.append(declared.refused)
        return
    found.warnings.extend(declared.warnings)
    for number, req in declared.requirements:
        _pip_requirement(req, found, f"{found.source}:{number}")
    if declared.python_requires is not None:
        number, text = declared.python_requires
        m = re.fullmatch(r"\s*(==|~=)\s*(\d+\.\d+)(\.[\d*]+)?\s*", text)
        if m:  # a floor (>=3.6) is not a pin: the release decides
            _set_python(found, m.group(2), f"{found.source}:{number} (python_requires)")


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
    try:
        # Bounded: a cloned repository's environment.yml may be an alias bomb.
        _, data = load_bounded(text)
    except yaml.YAMLError as exc:
        found.problems.append(f"{found.source}: not valid YAML: {getattr(exc, 'problem', exc)}")
        return
    except YamlBombError as exc:
        found.problems.append(f"{found.source}: refused: {exc}")
        return
    except (ValueError, OverflowError) as exc:  # a scalar that types but cannot build
        found.problems.append(f"{found.source}: not valid YAML: {excerpt(str(exc))}")
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
            pip = dep.get("pip")
            for j, req in enumerate(pip if isinstance(pip, list) else []):
                if isinstance(req, str):
                    _pip_line(req, found, base, f"{where}.pip[{j}]", seen=set())
                else:
                    found.warnings.append(
                        f"{where}.pip[{j}]: {excerpt(str(req))!r} is not a requirement; ignored"
                    )
        elif isinstance(dep, str):
            _conda_spec(dep, found, where)
        else:
            found.warnings.append(f"{where}: {excerpt(str(dep))!r} is not a package spec; ignored")


def _conda_spec(spec: str, found: _Found, where: str) -> None:  # noqa: PLR0912 - one branch per conda spec form, in the order they are tried
    """One conda match spec: `name`, `name=1.7`, `name==1.7.1`, `name=1.7.1=build`, `ch::name`."""
    text = spec.strip()
    channel = None
    if "::" in text:
        channel, text = text.split("::", 1)
        if channel not in found.channels:
            found.channels.append(channel)
    match = re.match(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*(.*)$", text)
    if not match:
        found.warnings.append(f"{where}: {excerpt(spec)!r} is not a conda package spec; ignored")
        return
    name, rest = match.group(1).lower(), match.group(2).strip()
    version, build, ranged = _conda_version(rest)
    if name in {"pytorch", "pytorch-gpu", "pytorch-cpu"}:
        _set_torch(found, "conda", version, ranged, where=where, label=None)
        if build:
            found.comments["torch"] = (
                f"the file's build: {name}={version or ranged}={excerpt(build)} ({excerpt(where)})"
            )
        if name == "pytorch-cpu":
            found.compute.append(("cpu", f"{where}: {name}"))
        if build:
            _conda_build_string(build, found, where)
    elif name in ("torchvision", "torchaudio", "torchvision-cpu"):
        found.companions[name.removesuffix("-cpu")] = _pin(version, ranged, None, where)
        if build and "cpu" in build:
            found.compute.append(("cpu", f"{where}: {name} build {build}"))
        if name == "torchvision-cpu":  # the pytorch channel's CPU torchvision of 2018-2019
            found.compute.append(("cpu", f"{where}: {name}"))
    elif name == "python":
        # `python >=3.8` is a floor, not the paper's python; `python=3.8` (3.8.*) is a pin.
        if version or not ranged.startswith((">", "<", "!", "~")):
            _set_python(found, version or ranged, where)
    elif name == "cpuonly":
        found.cpuonly = True
        found.compute.append(("cpu", "cpuonly"))
    elif name in ("cudatoolkit", "pytorch-cuda", "cuda-version", "cuda-toolkit"):
        cuda = _major_minor(version or ranged.lstrip("=<>!~"))
        if cuda:
            found.compute.append((_cu(cuda), f"{name} {cuda}"))
    elif eras.cuda_meta(name) is not None:
        # cuda80, cuda90, cuda92, cuda100: the metapackage that selected the CUDA build.
        found.compute.append((_cu(eras.cuda_meta(name) or ""), name))
    elif name not in _CONDA_OWNED:
        if rest and not rest.startswith(("=", "<", ">", "!", "~")):
            rest = "=" + rest.replace(" ", "=")
        dep = name + rest
        if dep not in found.seen_conda and _room_for(found, found.conda_deps, "conda", where):
            found.seen_conda.add(dep)
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
    if len(line) > MAX_PIP_LINE:  # shlex is quadratic in a word's length: 1 MB took 30 s
        found.warnings.append(f"{where}: a line of more than {MAX_PIP_LINE} characters; ignored")
        return
    if line.startswith("-"):
        try:
            tokens = shlex.split(line)
        except ValueError:
            tokens = line.split()
        _pip_options(tokens, found, base, where, seen=seen)
        return
    if _install_line(line, found, base, where):
        return
    # A requirement line (markers keep their quotes): drop per-requirement options (--hash=...).
    requirement, _, options = line.partition(" --")
    option = options.split("=", 1)[0].split(" ", 1)[0]
    if options and option not in {"hash", "config-settings", "global-option"}:
        found.warnings.append(
            f"{where}: pip rejects --{excerpt(option)} on a requirement line (only --hash, "
            "--config-settings and --global-option are allowed there); the option is ignored"
        )
    _pip_requirement(requirement.strip(), found, where)


def _install_line(line: str, found: _Found, base: Path | None, where: str) -> bool:
    """A line holding several requirements or an install option, as installer scripts feed a
    file's lines to `pip install <line>` (`torch==X torchvision==Y --index-url ...`): read as
    those arguments. False for a line pip -r reads as one requirement (`torch >= 1.7`)."""
    if ";" in line or "@" in line or not any(c.isspace() for c in line.strip()):
        return False  # markers, direct references and one word: one requirement
    words = shell.shell_words(line)
    requirements: list[str] = []
    options: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        flag = word.split("=", 1)[0]
        if word.startswith("-"):
            options.append(flag)
            i += 2 if flag in _PIP_VALUE_FLAGS and "=" not in word else 1
            continue
        requirements.append(word)
        i += 1
    if not all(_requirement_word(w) for w in requirements):
        return False  # `torch >= 1.7`: one requirement written with spaces
    if len(requirements) < 2 and all(o in _PER_REQUIREMENT for o in options):
        return False
    found.warnings.append(
        f"{where}: {excerpt(line)!r} holds more than one requirement or an install option, "
        "which pip -r refuses; read as `pip install <line>`, as installer scripts run it"
    )
    _pip_install(words, found, base, where)
    return True


_PER_REQUIREMENT: Final = frozenset({"--hash", "--config-settings", "--global-option"})


def _requirement_word(word: str) -> bool:
    """One word that is a whole requirement (`torch==1.7.1+cu110`, `numpy`), not a fragment."""
    if re.fullmatch(r"[<>=!~,.*\d]+", word):
        return False  # `>=`, `1.7`: part of a spaced requirement
    try:
        Requirement(word)
    except InvalidRequirement:
        return False
    return True


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
                f"{where}: editable install {excerpt(value)!r} is not a package envgen can lock; "
                "ignored"
            )
        elif flag in ("-c", "--constraint"):
            found.warnings.append(
                f"{where}: constraints file {excerpt(value)!r} is not followed; pin what matters "
                "in project.yaml"
            )


def _include(name: str, found: _Found, base: Path | None, where: str, *, seen: set[Path]) -> None:
    shown = excerpt(name)
    if base is None:
        found.warnings.append(
            f"{where}: -r {shown}: included files can only be followed when importing a file; "
            "not followed"
        )
        return
    if found.include_depth >= MAX_INCLUDE_DEPTH:
        found.warnings.append(
            f"{where}: -r {shown}: the -r chain is more than {MAX_INCLUDE_DEPTH} files deep; "
            "not followed"
        )
        return
    path = base / name
    if found.docker is not None and found.include_depth == 0:
        path = found.docker.resolve(name)
        fallback = found.docker.fallback
        if not path.exists() and fallback is not None:
            moved = _DockerContext(
                context=fallback,
                workdir=found.docker.workdir,
                files=found.docker.files,
                dirs=found.docker.dirs,
            )
            if moved.resolve(name).exists() and inside(moved.resolve(name), fallback):
                path, found.docker = moved.resolve(name), moved
        if not inside(path, found.docker.context):
            found.warnings.append(
                f"{where}: -r {shown}: outside the build context {found.docker.context}; "
                "not followed"
            )
            return
        if not path.exists():
            found.warnings.append(
                f"{where}: -r {shown}: {path} is not in the build context "
                f"{found.docker.context} (pass --context DIR if the image is built from "
                "another folder); not followed"
            )
            return
    if found.root is not None and not inside(path, found.root):
        found.warnings.append(
            f"{where}: -r {shown}: outside the imported folder {found.root}; not followed"
        )
        return
    # issue 21 item 4: `envgen import FILE` reads only the file's own tree; a line of a file
    # outside it (/etc/passwd, ../secrets.txt) is never read, so never echoed.
    if (
        found.docker is None
        and found.root is None
        and found.tree is not None
        and (Path(name).is_absolute() or not inside(path, found.tree))
    ):
        what = "an absolute path" if Path(name).is_absolute() else "outside the file's folder"
        found.warnings.append(
            f"{where}: -r {shown}: {what}; not followed (an import reads only files inside "
            "the imported file's folder)"
        )
        return
    resolved = path.resolve()
    if resolved in seen:
        return
    seen.add(resolved)
    try:
        text = read_source(path, shown=shown)
    except UnreadableSource as exc:
        found.warnings.append(f"{where}: -r {exc}; not followed")
        return
    saved = found.source
    found.source = name if len(name) <= 200 else shown
    found.include_depth += 1
    try:
        _parse_requirements(text, found, resolved.parent, seen=seen)
    finally:
        found.include_depth -= 1
        found.source = saved


def _pip_requirement(text: str, found: _Found, where: str, *, defer: bool = True) -> None:  # noqa: PLR0911 - one return per requirement-line form, in the order they are tried
    wheel = _wheel_requirement(text)
    if wheel is not None:
        wheel_name, wheel_version, wheel_label, py = wheel
        if py:
            _set_python(found, py, f"{where} (wheel tag)")
        folder = eras.WHEEL_FOLDER.search(text)
        if wheel_label is None and folder is not None and wheel_name == "torch":
            # Before local labels (0.x, 1.0-1.3), the folder named the build: whl/cu80/.
            found.compute.append(
                (folder.group(1), f"the wheel URL's folder whl/{folder.group(1)}/")
            )
        _family(found, wheel_name, wheel_version, "", wheel_label, where)
        return
    url = _wheel_url(text) if defer and len(found.wheels) < MAX_PACKAGES else None
    if url is not None:
        # Perhaps a compiled extension's wheel: build_project asks the matrix (_extension_wheels).
        found.wheels.append(_Wheel(text=text, url=url, where=where, slot=len(found.pip_reqs)))
        return
    if re.match(r"^[A-Za-z0-9_.-]+\s*@\s*file:", text):
        found.warnings.append(
            f"{where}: dropped {excerpt(text)!r}: a local build with no version (pip freeze "
            "lists packages conda installed this way); pin a released version in pip: if the "
            "paper needs it"
        )
        return
    if (
        "://" in text
        and not text.split("#", maxsplit=1)[0].endswith(".whl")
        and "@" not in text.split("://", maxsplit=1)[0]
    ):
        found.warnings.append(
            f"{where}: dropped {excerpt(text)!r}: a direct URL cannot be locked reproducibly; "
            "add a released version to pip:"
        )
        return
    try:
        req = Requirement(text)
    except InvalidRequirement as exc:
        found.warnings.append(
            f"{where}: {excerpt(text)!r} is not a requirement ({excerpt(str(exc))}); ignored"
        )
        return
    name = str(canonicalize_name(req.name))
    if req.marker is not None and not _marker_on_linux(req.marker, found.python):
        found.warnings.append(
            f"{where}: {excerpt(text)!r} does not apply on linux-64 "
            f"(marker {excerpt(str(req.marker))}); ignored"
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
    if name in {"pip", "setuptools", "wheel"} and not req.specifier:
        return  # `pip install --upgrade pip`: the installer, not a dependency of the paper
    if name.startswith("nvidia-") or name in {"triton", "pytorch-triton"}:
        found.warnings.append(
            f"{where}: dropped {req.name} (a dependency of torch: the lock pins the matching one)"
        )
        return
    if req.url:
        found.warnings.append(
            f"{where}: dropped {excerpt(text)!r}: a direct URL cannot be locked reproducibly; "
            "add a released version to pip:"
        )
        return
    req.marker = None if req.marker is not None and _marker_always_linux(req.marker) else req.marker
    if name in found.seen_pip:
        found.warnings.append(f"{where}: {req.name} is listed again; the first one is kept")
        return
    if _room_for(found, found.pip_reqs, "pip", where):
        found.seen_pip.add(name)
        found.pip_reqs.append(str(req))


def _family(
    found: _Found, name: str, version: str | None, ranged: str, label: str | None, where: str
) -> None:
    if name == "torch":
        _set_torch(found, "pip", version, ranged, where=where, label=label)
    else:
        found.companions[name] = _pin(version, ranged, label, where)


def _wheel_url(text: str) -> str | None:
    """The URL of a direct wheel requirement (a bare URL or `name @ URL`, markers allowed)."""
    body = text.split(";", 1)[0].strip()
    name, at, rest = body.partition("@")
    url = rest.strip() if at and "://" in rest and "://" not in name else body
    if re.match(r"^https?://\S+\.whl(#\S*)?$", url) is None:
        return None
    return url


def _wheel_marker(text: str) -> Marker | None:
    _, semi, rest = text.partition(";")
    if not semi:
        return None
    try:
        return Marker(rest.strip())
    except InvalidMarker:
        return None


def _extension_wheels(found: _Found, matrix: Matrix) -> None:
    """Each recognised extension wheel URL becomes its extension pinned to the wheel's version.

    The wheel's page (and python tag) is kept as evidence for the variant; any other wheel URL
    is read as before the matrix was asked (dropped, with a warning).
    """
    inserts: list[tuple[int, str]] = []
    listed = {str(canonicalize_name(Requirement(r).name)) for r in found.pip_reqs}
    for wheel in found.wheels:
        hit = recognise_wheel_url(matrix, wheel.url)
        if hit is None:
            _pip_requirement(wheel.text, found, wheel.where, defer=False)
            continue
        requirement = hit.requirement
        marker = _wheel_marker(wheel.text)
        if marker is not None and not _marker_on_linux(marker, found.python):
            found.warnings.append(
                f"{wheel.where}: {excerpt(wheel.text)!r} does not apply on linux-64 "
                f"(marker {excerpt(str(marker))}); ignored"
            )
            continue
        if marker is not None and not _marker_always_linux(marker):
            requirement = f"{requirement}; {marker}"
        name = requirement.split("==", 1)[0]
        if name in listed:
            found.warnings.append(
                f"{wheel.where}: dropped the {name} wheel URL {excerpt(wheel.url)!r}: the file "
                f"also lists {name}, which is kept"
            )
            continue
        if not _room_for(found, [*found.pip_reqs, *(r for _, r in inserts)], "pip", wheel.where):
            continue
        found.seen_pip.add(name)
        listed.add(name)
        inserts.append((wheel.slot, requirement))
        found.wheel_pages.append(("wheel", hit.page))
        if hit.python:
            _set_python(found, hit.python, f"{wheel.where} (wheel tag)")
        page = "page" if hit.form == "find-links" else "wheel URL"
        source = "find-links page" if hit.form == "find-links" else "release wheel URL"
        found.warnings.append(
            f"{wheel.where}: {excerpt(wheel.url)!r} was a direct wheel URL, now {requirement} "
            f"from its {source}, because envgen writes the {page} per variant"
        )
    # Last first, so that each slot still counts the requirements read before it.
    for slot, requirement in reversed(inserts):
        found.pip_reqs.insert(slot, requirement)
    found.wheels.clear()


def _wheel_requirement(text: str) -> tuple[str, str, str | None, str | None] | None:
    """`torch @ https://.../torch-1.7.1+cu110-cp38-cp38-linux_x86_64.whl` (or the bare URL, or a
    wheel file the script downloaded first: `pip install torch-2.1.2+cu121-cp310-...whl`)."""
    url = text.split("@", 1)[1].strip() if "@" in text and "://" in text.split("@", 1)[1] else text
    local = "://" not in url and re.fullmatch(r"[\w./+%-]+\.whl", url) is not None
    if not (local or "://" in url) or not url.split("#")[0].endswith(".whl"):
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
    env = load_targets().markers("linux-64")  # matrices/targets.yaml
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
def _parse_shell(
    text: str,
    found: _Found,
    base: Path | None,
    *,
    env: dict[str, str],
    offset: int = 0,
    script: Literal["sh", "bat"] = "sh",
) -> None:
    """An install script on its default route (envgen.repro.shell): no arguments, Linux x86_64,
    an NVIDIA GPU; the install commands of the branches it does not take are listed."""
    route = shell.interpret(text, kind=script, env=env)

    def where_of(line: int) -> str:
        return f"{found.source}:{line + offset}" if found.source != "--command" else "--command"

    for command in route.commands:
        where = where_of(command.line)
        if _over_budget(found, command.text, where):
            break
        _shell_line(command.text, found, base, where, env=env)
    for line, note in route.notes:
        found.warnings.append(f"{where_of(line) if line else found.source}: {note}")
    for alt in route.alternatives:
        found.warnings.append(
            f"{where_of(alt.line)}: an alternative route ({alt.branch}), not the default one "
            "envgen imports (no arguments, Linux, an NVIDIA GPU): "
            f"{excerpt(alt.text, MAX_ALTERNATIVE_CHARS)}"
        )


def _shell_line(
    line: str, found: _Found, base: Path | None, where: str, *, env: dict[str, str]
) -> None:
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        tokens = list(lexer)
    except ValueError:
        found.warnings.append(f"{where}: unbalanced quotes; line ignored")
        return
    segment: list[str] = []
    skip = False
    for i, tok in enumerate([*tokens, ";"]):
        if skip:  # the target of a redirect
            skip = False
            continue
        if tok and set(tok) <= set(";&|<>") and ("<" in tok or ">" in tok):
            # An unquoted < or > is a redirect, as the shell reads it: `pip install torch>=1.7`
            # installs an unpinned torch and writes pip's output to a file named `=1.7`.
            target = tokens[i + 1] if i + 1 < len(tokens) else ""
            if segment and segment[-1].isdigit():
                segment.pop()  # 2>&1: the file descriptor
            elif segment and target.startswith("=") and not tok.startswith("<"):
                found.warnings.append(
                    f"{where}: `{excerpt(segment[-1])}{tok}{excerpt(target)}` is not quoted, so "
                    f"the shell reads {tok} as a redirect and installs {excerpt(segment[-1])} "
                    "without that version bound"
                )
            skip = True
            continue
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
    if _env_python(tool, words, found, where):
        return
    script = _script_run(words, found, base, where)
    if script is not None:
        _follow_script(script, found, where)
        return
    if tool in {"apt-get", "apt", "yum", "dnf"} and "install" in words[1:]:
        _system_python(tool, words, found, where)
        return
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


def _script_run(words: list[str], found: _Found, base: Path | None, where: str) -> Path | None:
    """The file a command runs as a shell script (`bash install.sh`, `./install.sh`, a Dockerfile's
    `RUN /tmp/install.sh` of a COPY'd file), when it lies inside what the import may read."""
    first = Path(words[0]).name
    target = words[1] if first in {"bash", "sh", "source", "."} and len(words) > 1 else words[0]
    if not target.endswith(".sh") or (base is None and found.docker is None):
        return None
    if found.docker is not None:
        path, fence = found.docker.resolve(target), found.docker.context
    else:
        path = (base or Path()) / target
        fence = found.root or found.tree or base or Path()
    if not inside(path, fence):
        if path.is_file():  # the target machine's own files (/opt/conda/.../conda.sh) say nothing
            found.warnings.append(
                f"{where}: {excerpt(target)}: outside the imported folder; the script is not read"
            )
        return None
    return path if path.is_file() else None


def _follow_script(path: Path, found: _Found, where: str) -> None:
    """Read a script the file runs, on its default route, as part of the file (bounded)."""
    resolved = path.resolve()
    if resolved in found.scripts:
        return
    if found.include_depth >= MAX_INCLUDE_DEPTH or len(found.scripts) >= MAX_INCLUDE_DEPTH:
        found.warnings.append(f"{where}: {path.name}: too many scripts run scripts; not read")
        return
    found.scripts.add(resolved)
    try:
        text = read_source(path, shown=path.name)
    except UnreadableSource as exc:
        found.warnings.append(f"{where}: {exc}; the script is not read")
        return
    saved = found.source, found.docker, found.tree
    fence = found.docker.context if found.docker is not None else found.tree
    found.source, found.docker, found.tree = path.name, None, fence
    found.include_depth += 1
    try:
        _parse_shell(text, found, path.parent, env={})
    finally:
        found.include_depth -= 1
        found.source, found.docker, found.tree = saved


def _system_python(tool: str, words: list[str], found: _Found, where: str) -> None:
    """`apt install python3.8` names the python; a plain `python3` is the distro's (weak)."""
    for word in words[2:]:
        m = re.fullmatch(r"python(3\.\d+)(-dev|-venv|-distutils|-pip|-full)?", word)
        if m:
            _set_python(found, m.group(1), f"{where} ({tool} install {word})")
            return
        if word in {"python3", "python3-pip", "python3-dev"} and found.distro_python:
            distro, python = found.distro_python
            found.weak_python = found.weak_python or (
                python,
                f"{where} ({tool} install {word} on {distro})",
            )


def _env_python(tool: str, words: list[str], found: _Found, where: str) -> bool:
    """The python of an environment a script creates (`virtualenv -p python3.9`, `python3.9 -m
    venv`, `uv venv --python 3.10`), or of the Miniconda it installs (`Miniconda3-py38_...`, a
    fallback when nothing names the env's python). True when the command was one of these."""
    if tool == "virtualenv" or (tool == "uv" and words[1:2] == ["venv"]):
        for flag, value in itertools.pairwise(words):
            if flag in {"-p", "--python"}:
                m = re.fullmatch(r"(?:python)?(\d\.\d+)", Path(value).name)
                if m:
                    _set_python(found, m.group(1), f"{where} ({tool} {flag} {excerpt(value)})")
        return True
    m = re.fullmatch(r"python(\d\.\d+)", tool)
    if m and words[1:3] == ["-m", "venv"]:
        _set_python(found, m.group(1), f"{where} ({tool} -m venv)")
        return True
    for word in words:
        installer = re.search(r"(?:Mini|Ana)conda3-(?:py(\d)(\d+)_|latest)", word)
        if installer:
            python = f"{installer.group(1)}.{installer.group(2)}" if installer.group(1) else ""
            found.conda_base = found.conda_base or (python, f"{where} (Miniconda installer)")
    return False


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


class _TooLong(Exception):  # noqa: N818 - internal signal, never leaves this module
    """A line grew past MAX_EXPANDED_CHARS while its $VARS were substituted."""


def _substitute(text: str, env: dict[str, str]) -> str:
    """Expand $NAME, ${NAME} and ${NAME:-default}, bounded (nested ENV values grow fast).

    Raises:
        _TooLong: the result would pass MAX_EXPANDED_CHARS characters.
    """
    out: list[str] = []
    size = 0
    pos = 0
    for m in _VAR.finditer(text):
        name = m.group(1) or m.group(3)
        value = env.get(name, m.group(2) if m.group(2) is not None else m.group(0))
        for piece in (text[pos : m.start()], value):
            size += len(piece)
            if size > MAX_EXPANDED_CHARS:
                raise _TooLong
            out.append(piece)
        pos = m.end()
    size += len(text) - pos
    if size > MAX_EXPANDED_CHARS:
        raise _TooLong
    out.append(text[pos:])
    return "".join(out)


def _room_for(found: _Found, items: list[str], what: str, where: str) -> bool:
    """Another package fits under MAX_PACKAGES (one warning when the first one does not)."""
    if len(items) < MAX_PACKAGES:
        return True
    if what not in found.full:
        found.full.add(what)
        found.warnings.append(
            f"{where}: more than {MAX_PACKAGES} {what} packages; the rest are left out"
        )
    return False


def _over_budget(found: _Found, expanded: str, where: str) -> bool:
    """True (with one warning) once a file's expanded lines pass MAX_EXPANDED_TOTAL."""
    found.expanded += len(expanded)
    if found.expanded <= MAX_EXPANDED_TOTAL:
        return False
    found.warnings.append(
        f"{where}: the file's lines expand to more than {MAX_EXPANDED_TOTAL} characters in all "
        "(nested ARG/ENV/shell variables); the rest of the file is not read"
    )
    return True


def _too_long(found: _Found, where: str) -> None:
    found.warnings.append(
        f"{where}: the line expands to more than {MAX_EXPANDED_CHARS} characters "
        "(nested ARG/ENV/shell variables); line ignored"
    )


_PYTHON_VARS: Final = re.compile(r"(?i)^(python|python_?version|py_?version|pyver|python_ver)$")


def _parse_dockerfile(
    text: str, found: _Found, base: Path | None, context: Path | None = None
) -> None:
    env: dict[str, str] = {}
    if base is not None or context is not None:
        found.docker = _DockerContext(
            context=(context or base or Path()).resolve(),
            fallback=found.root.resolve() if found.root is not None and context is None else None,
        )
    try:
        _dockerfile_lines(text, found, base, env)
    finally:
        found.docker = None
    if found.python is None:
        for key, value in env.items():
            m = re.match(r"^(\d\.\d+)(\.\d+)?$", value)
            if _PYTHON_VARS.match(key) and m:
                _set_python(found, value, f"{found.source} (ARG/ENV {key}={excerpt(value)})")
                break


def _dockerfile_lines(text: str, found: _Found, base: Path | None, env: dict[str, str]) -> None:  # noqa: PLR0912 - one branch per Dockerfile instruction it reads
    for number, line in _logical_lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        keyword, _, rest = stripped.partition(" ")
        keyword = keyword.upper()
        where = f"{found.source}:{number}"
        try:
            rest = _substitute(rest.strip(), env)
        except _TooLong:
            _too_long(found, where)
            continue
        if _over_budget(found, rest, where):
            return
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
        elif keyword == "WORKDIR" and found.docker is not None and rest:
            found.docker.workdir = found.docker.image_path(rest.strip())
        elif keyword in ("COPY", "ADD") and found.docker is not None:
            _docker_copy(rest, found.docker)
        elif keyword == "RUN":
            try:  # the exec form; Docker runs anything that is not a JSON array as shell form
                words = json.loads(rest) if rest.startswith("[") else None
            except json.JSONDecodeError:
                words = None
            if isinstance(words, list):
                _shell_command([str(w) for w in words], found, base, where, env=env)
            else:  # `if`/`case` in a RUN line: its default route, as for an install script
                _run_line(rest, found, base, where, env=env)


def _run_line(
    line: str, found: _Found, base: Path | None, where: str, *, env: dict[str, str]
) -> None:
    """A Dockerfile RUN line (its ARG/ENV values already substituted) on its default route."""
    route = shell.interpret(line, env=env)
    for command in route.commands:
        _shell_line(command.text, found, base, where, env=env)
    found.warnings.extend(f"{where}: {note}" for _, note in route.notes)
    found.warnings.extend(
        f"{where}: an alternative route ({alt.branch} of the RUN line), not the default one "
        f"envgen imports: {excerpt(alt.text, MAX_ALTERNATIVE_CHARS)}"
        for alt in route.alternatives
    )


def _docker_copy(rest: str, docker: _DockerContext) -> None:
    try:
        words = json.loads(rest) if rest.startswith("[") else shlex.split(rest)
    except (json.JSONDecodeError, ValueError):
        return
    if not isinstance(words, list):
        return
    words = [str(w) for w in words]
    if any(w.startswith("--from") for w in words):
        return  # from another build stage, not the context
    args = [w for w in words if not w.startswith("--")]
    if len(args) >= 2:
        docker.copy(args[:-1], args[-1])


def _from_image(image: str, found: _Found, where: str) -> None:
    repo, _, tag = image.partition(":")
    repo = repo.removeprefix("docker.io/").removeprefix("library/")
    if repo == "pytorch/pytorch":
        m = re.match(r"^(\d+\.\d+(?:\.\d+)?)-cuda(\d+\.\d+)-cudnn[\d.]+-(runtime|devel)$", tag)
        if m:
            exact = m.group(1).count(".") == 2
            version, ranged = (m.group(1), "") if exact else (None, f"=={m.group(1)}.*")
            _set_torch(found, "pip", version, ranged, where=where, label=None)
            found.compute.append((_cu(m.group(2)), f"image {image}"))
            # Every pytorch/pytorch image ships torchvision; torchaudio only where the file asks.
            found.companions.setdefault("torchvision", _Pin(where=where))
        else:
            found.problems.append(
                f"{where}: FROM {excerpt(image)}: the tag names no torch release and CUDA version "
                "(expected e.g. pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime); pin one"
            )
    elif repo == "nvcr.io/nvidia/pytorch":
        row = ngc_pytorch(tag)
        if row is None:
            found.warnings.append(
                f"{where}: FROM {excerpt(image)}: matrices/base-images.yaml has no row for this "
                "tag, so its torch, CUDA and python are unknown; pin torch in the file or add the "
                "row from NVIDIA's PyTorch release notes"
            )
            return
        shipped = Version(row.torch)
        said = f"{where} (image {excerpt(image)}: torch {row.torch}, CUDA {row.cuda})"
        _set_torch(found, "pip", shipped.public, "", where=said, label=None)
        found.image_cuda = _major_minor(row.cuda)
        _set_python(found, row.python, f"{where} (image {excerpt(image)})")
    elif repo == "nvidia/cuda":
        m = re.match(r"^(\d+\.\d+)", tag)
        if m:
            found.image_cuda = m.group(1)
    ubuntu = re.search(r"ubuntu:?(\d\d\.\d\d)", image)
    if ubuntu and ubuntu.group(1) in eras.UBUNTU_PYTHON3:
        found.distro_python = (f"Ubuntu {ubuntu.group(1)}", eras.UBUNTU_PYTHON3[ubuntu.group(1)])
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
        and found.torch_manager == "conda"
        and manager == "pip"
        and label is None
        and _satisfied_by(found.torch.version, version, ranged)
    ):
        # pip sees conda's pytorch as torch of that version: `torch==1.11.0` (or an unpinned
        # torch) after `pytorch=1.11.0` is already satisfied, so conda's build stays.
        return
    if (
        found.torch is not None
        and (found.torch.version, found.torch.specifier) != (version, ranged)
        and (version is not None or ranged)
    ):
        if found.torch.version is None and not found.torch.specifier:
            found.torch = pin
            found.torch_manager = manager
            return
        text = (
            f"{where}: torch was {_pin_text(found.torch)} ({found.torch.where}) and "
            f"{_pin_text(pin)}, now {_pin_text(pin)}, because the later install replaces the "
            "earlier one"
        )
        found.departures.append(text)
        found.warnings.append(text)
        # The image's CUDA described the torch it shipped, not the one installed over it.
        found.compute = [c for c in found.compute if not c[1].startswith("image ")]
        found.image_cuda = None
        found.torch = pin
        found.torch_manager = manager
        if label:
            found.compute.append((label, f"torch=={version}+{label}"))
        return
    if found.torch is None or version is not None or ranged:
        found.torch = pin
        found.torch_manager = manager
    if label:
        found.compute.append((label, f"torch=={version}+{label}"))


def _satisfied_by(installed: str | None, version: str | None, ranged: str) -> bool:
    """A pip requirement (exact `version`, or a `ranged` specifier, or neither) that an installed
    torch `installed` already satisfies (pip then installs nothing)."""
    if installed is None or not _is_version(installed):
        return False
    if version is not None:
        return _is_version(version) and Version(version) == Version(installed)
    try:
        return SpecifierSet(ranged).contains(installed) if ranged else True
    except InvalidSpecifier:
        return False


def _set_python(found: _Found, version: str | None, where: str) -> None:
    if not version:
        return
    mm = _major_minor(version.lstrip("=<>~!"))
    if mm is None or not version.lstrip("=").startswith(mm.split(".")[0]):
        return
    if found.python is None:
        found.python, found.python_where = mm, where
        full = re.match(r"^=*\s*(\d+\.\d+\.\d+)\b", version)
        if full:
            found.comments["python"] = f"the file says {full.group(1)} ({excerpt(where)})"
    elif found.python != mm:
        text = (
            f"{where}: python was {mm}, now {found.python}, because {found.python_where} asked "
            f"for python {found.python} first"
        )
        found.departures.append(text)
        found.warnings.append(text)


def _pin_text(pin: _Pin) -> str:
    if pin.version:
        return pin.version + (f"+{pin.label}" if pin.label else "")
    return pin.specifier or "(unpinned)"


def _major_minor(text: str | None) -> str | None:
    m = re.match(r"^(\d+)\.(\d+)", text or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def _cu(cuda: str) -> str:
    return accelerator_id("cuda", cuda)


def _cuda_of(acc: str) -> str:
    return cuda_version_of(acc) or acc


def _is_version(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


# --- validation against the matrix ---------------------------------------------------------------
@dataclass(slots=True)
class _Report:
    """What validation tells the user: fatal problems, warnings, and departures from the file.

    A departure is a place where project.yaml differs from what the file asked for, because what
    it asked for never existed (or no longer works): "was X, now Y, because Z". `--strict` turns
    departures into problems.
    """

    problems: list[str]
    warnings: list[str]
    departures: list[str] = field(default_factory=list)

    def depart(self, where: str, what: str, was: str, now: str, because: str) -> None:
        text = f"{where}: {what} was {was}, now {now}, because {because}"
        self.departures.append(text)
        self.warnings.append(text)


def build_project(  # noqa: PLR0912, PLR0915 - the project.yaml keys in file order, each from its evidence
    found: _Found,
    matrix: Matrix,
    *,
    name: str,
    as_of: dt.date | None = None,
    strict: bool = False,
    wheels: list[PinWheels] | None = None,
) -> tuple[dict[str, object], list[str]]:
    """Validate what a file asked for; return project.yaml data and warnings.

    `wheels`: what the index says of the file's exact pins (envgen.repro.wheels.lookup): with
    no python in the file, the python is the newest one torch and every pin have wheels for.

    Whatever the file asked for that never existed is replaced by the nearest combination that
    did, with one warning per departure; only a source with no torch at all is refused (and, with
    `strict`, any departure).

    Raises:
        ImportSpecError: no torch could be determined, or `strict` and the file needed changes.
    """
    if found.unreadable is not None:
        raise ImportSpecError(found.unreadable)
    _extension_wheels(found, matrix)
    report = _Report(
        problems=list(found.problems),
        warnings=list(found.warnings),
        departures=list(found.departures),
    )
    src = found.source
    evidence = _compute_evidence(found, report)
    release = _pick_release(found, matrix, as_of, evidence, report, wheels)
    if release is None:
        _raise(src, report.problems)
        raise ImportSpecError(src)
    manager: Literal["pip", "conda"] = found.torch_manager or "pip"
    acc = _pick_accelerator(found, matrix, release, manager, evidence, report)
    builds = _builds(matrix, release, manager)
    if not builds and manager == "conda":
        manager, builds = _channel_ended(found, matrix, release, acc, report)
    if (
        builds
        and acc not in builds
        and evidence is not None
        and evidence[1].startswith("image pytorch/pytorch:")
        and acc in _builds(matrix, release, "conda")
    ):
        # pytorch/pytorch images install torch with conda: that build is what existed.
        report.depart(
            src, "the install route", f"pip {acc}", f"conda {acc}",
            f"torch {release.torch} has no {acc} pip wheels, and the image "
            f"({evidence[1].removeprefix('image ')}) installed the conda build, which has {acc}",
        )  # fmt: skip
        manager, builds = "conda", _builds(matrix, release, "conda")
    if builds and acc == "cpu" and acc not in builds:
        manager, builds = _cpu_route(found, matrix, release, manager, builds, evidence, report)
    if builds and acc not in builds and acc != "cpu":
        acc = _move_accelerator(found, matrix, release, manager, acc, evidence, report)
    _check_pytorch_cuda(found, matrix, release, acc, builds, report)
    python = _check_python(found, release, report)
    if python is None and wheels:
        python = _python_from_pins(found, release, wheels, report)
    companions = _check_companions(found, matrix, release, acc, report)
    managers, acc = _gone_routes(found, matrix, release, manager, acc, builds, report)
    if (
        acc == "cpu"
        and manager == "conda"
        and managers == ["conda"]
        and not found.cpuonly
        and not any(c == "cpu" for c, _ in found.compute)
    ):
        build = builds.get("cpu")
        if isinstance(build, CondaBuild) and build.form == "cpuonly":
            cudas = [a for a in builds if a.startswith("cu")]
            report.warnings.append(
                f"{src}: pytorch {release.torch} from -c pytorch without cpuonly (and without "
                f"cudatoolkit) installs {_DEFAULT_CUDA} on linux-64, even on a machine without a "
                "GPU; "
                "project.yaml asks for cpu, whose environment.yml adds cpuonly. If the paper ran "
                "on a GPU, "
                f"set accelerators to the CUDA it used ({', '.join(cudas) or 'none published'})"
            )
    if "pip" in managers:
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
            [*found.indexes, *found.wheel_pages],
            target,
            where=src,
            pythons=() if python else newest_first,
        )
        # Never a refusal (issue 11): an extension never built for this variant is a notice
        # naming what was; --strict refuses it.
        if strict:
            report.problems.extend(more)
        else:
            report.warnings.extend(f"{m} (kept as the file says; the lock will fail)" for m in more)
        report.warnings.extend(notes)
        if fitting is not None and newest_first and fitting != newest_first[0]:
            python = fitting
            report.warnings.append(
                f"{src}: python {fitting}: the newest Python torch {release.torch} and the "
                "file's compiled extensions were all built for"
            )
    if managers == ["pip"] and found.conda_deps:
        # never dropped in silence (envgen.repro.carry); a refusal only where the import itself
        # moved torch from conda to pip, not where the file already installed torch with pip
        _carry_conda(found, src, report, switched=found.torch_manager == "conda")
    if strict and report.departures:
        report.problems.extend(report.departures)
        _raise(src, [f"--strict: {p}" for p in report.problems])
    _raise(src, report.problems)
    channels = [c for c in found.channels if c not in _MATRIX_CHANNELS]
    # What project.yaml cannot hold is left out with a warning, never a broken project.yaml.
    for channel in [c for c in channels if not CHANNEL_RE.fullmatch(c)]:
        channels.remove(channel)
        report.warnings.append(
            f"{src}: channel {excerpt(channel)!r} is not a channel name project.yaml accepts "
            "(such as conda-forge); left out"
        )
    for dep in [d for d in found.conda_deps if not CONDA_DEP_RE.fullmatch(d)]:
        found.conda_deps.remove(dep)
        report.warnings.append(
            f"{src}: conda package {excerpt(dep)!r} is not a match spec project.yaml accepts; "
            "left out"
        )
    project: dict[str, object] = {"name": _safe_name(name)}
    if python:
        project["python"] = python
    project["torch"] = release.torch
    project.update(companions)
    project["accelerators"] = [acc]
    project["managers"] = managers
    if _from_pypi(found, release.torch, acc, managers):
        project["torch_from"] = "pypi"  # the file's plain PyPI torch (envgen.model.pypi_routes)
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
    _known_issues(found, matrix, release, managers, acc, report.warnings)
    # The result must itself be a valid project.yaml (a failure here is an envgen bug).
    try:
        parse_spec(render_project(project, source=src), path=Path("project.yaml"))
    except SpecError as exc:
        msg = f"{src}: the imported project.yaml is not valid: {exc}"
        raise ImportSpecError(msg) from None
    return project, _bounded_warnings(report.warnings)


def _bounded_warnings(warnings: list[str]) -> list[str]:
    """At most MAX_WARNINGS lines: a hostile file cannot flood the terminal."""
    if len(warnings) <= MAX_WARNINGS:
        return warnings
    hidden = len(warnings) - MAX_WARNINGS
    return [*warnings[:MAX_WARNINGS], f"... and {hidden} more warning(s) not shown"]


def _raise(src: str, problems: list[str]) -> None:
    if not problems:
        return
    if len(problems) == 1:
        raise ImportSpecError(problems[0])
    text = f"{src}: {len(problems)} problems\n" + "\n".join(f"  - {p}" for p in problems)
    raise ImportSpecError(text)


# How strongly each kind of evidence names the compute platform (lower wins).
def _evidence_rank(why: str) -> int:
    if why.startswith("torch=="):
        return 0  # a local label on the torch pin itself
    if why.startswith("--"):
        return 1  # an index URL
    if why.startswith(("cudatoolkit", "pytorch-cuda", "cpuonly")):
        return 2  # the packages that select pytorch's build
    if why.startswith(("cuda-version", "cuda-toolkit")):
        return 3  # a CUDA constraint other packages also pull in
    if why.startswith("build string"):
        return 2  # the installed build itself
    return 4  # an image tag, a cudaXY meta-package


def _compute_evidence(found: _Found, report: _Report) -> tuple[str, str] | None:
    """The compute platform the file names (accelerator, why), the strongest evidence first."""
    evidence = list(found.compute)
    for form, url in found.indexes:
        m = _WHL_LABEL.search(url.rstrip("/"))
        if m and form != "find-links":
            evidence.append((m.group(1), f"--{form} {url}"))
    if not evidence:
        return None
    best = min(evidence, key=lambda e: _evidence_rank(e[1]))
    others = sorted({acc for acc, _ in evidence if acc != best[0]})
    if others:
        said = "; ".join(f"{acc} ({why})" for acc, why in evidence)
        report.depart(
            found.source,
            "the compute platform",
            " and ".join([best[0], *others]),
            best[0],
            f"the file asks for more than one ({said}) and {best[1]} is the strongest evidence",
        )
    return best


def _fits(
    matrix: Matrix,
    release: Release,
    evidence: tuple[str, str] | None,
    python: str | None,
    manager: Literal["pip", "conda"] | None = None,
) -> bool:
    """The release has the file's compute platform and python (on `manager`'s route, or either
    route when None); a route the matrix marks gone (an error known issue) does not count."""
    if python is not None and python not in release.python:
        return False
    managers: list[Literal["pip", "conda"]] = [manager] if manager else ["pip", "conda"]
    for m in managers:
        builds = _builds(matrix, release, m)
        acc = evidence[0] if evidence else next(iter(builds), "")
        build = builds.get(acc)
        if build is None:
            continue
        if isinstance(build, PipBuild):
            gone = issues_for(matrix, release, manager=m, accelerator=acc, pip=build)
        else:
            gone = issues_for(matrix, release, manager=m, accelerator=acc, conda=build)
        if not any(i.severity == "error" for i in gone):
            return True
    return False


def _pick_release(
    found: _Found,
    matrix: Matrix,
    as_of: dt.date | None,
    evidence: tuple[str, str] | None,
    report: _Report,
    wheels: list[PinWheels] | None = None,
) -> Release | None:
    src = found.source
    releases = sorted(matrix.releases, key=lambda r: r.version)
    pin = _torch_pin(found, matrix, releases, report)
    if isinstance(pin, Release):
        return pin
    if pin is None:
        unread = [w for w in report.warnings if w.endswith(("not followed", "is not read"))]
        report.problems.append(
            f"{src}: no torch (or conda pytorch) requirement found; nothing to reproduce"
            + "".join(f"\n  ({w})" for w in unread)
        )
        return None
    if pin.version is not None:
        return _exact_release(pin, releases, report)
    where = pin.where or src
    if pin.specifier:
        spec_text = pin.specifier if pin.specifier[0] in "=<>!~" else f"=={pin.specifier}"
        if re.fullmatch(r"==\d+(\.\d+)?", spec_text):
            spec_text += ".*"
        try:
            spec: SpecifierSet | None = SpecifierSet(spec_text)
        except InvalidSpecifier:
            report.warnings.append(
                f"{where}: torch {excerpt(pin.specifier)!r} is not a version or range envgen "
                "understands; treated as unpinned"
            )
            spec = None
    else:
        spec = None
    asked = f"torch {pin.specifier}" if spec is not None else "torch (unpinned)"
    matching = [r for r in releases if spec is None or spec.contains(r.version)]
    matching = _lts_only(found, matrix, matching, report)
    owned = _release_of_companions(found, matching, matrix)
    if owned is not None:
        # `pytorch=1.10 torchvision==0.11.0`: the pinned companion belongs to one release in it.
        release, companion = owned
        report.warnings.append(
            f"{companion.where}: torch {pin.specifier or '(unpinned)'} allows several releases, "
            f"but {companion.label} belongs to torch {release.torch} only, so project.yaml "
            f"pins torch {release.torch}"
        )
        matching = [release]
    if not matching:
        # The nearest release to the range's bounds; on a tie, the newer one.
        now = min(reversed(releases), key=lambda r: _version_distance(r.version, spec))
        report.depart(where, "torch", pin.specifier, now.torch, "no PyTorch release matches it")
        return now
    dated = matching
    when = ""
    if as_of is not None:
        dated = [r for r in matching if _published_by(r, releases, as_of)]
        when = f" on {as_of}"
        if not dated:
            first = matching[0]
            report.depart(
                where,
                "torch",
                f"{asked.removeprefix('torch ')} as of {as_of}",
                first.torch,
                f"no release it allows was published by {as_of}; {first.torch} is the first one",
            )
            return first
    manager: Literal["pip", "conda"] = found.torch_manager or "pip"
    fitting = [r for r in dated if _fits(matrix, r, evidence, found.python, manager)] or [
        r for r in dated if _fits(matrix, r, evidence, found.python)
    ]
    # With no python in the file: a release whose pythons every exact pin has wheels for.
    narrowed = _pins_fit(found, fitting or dated, wheels)
    chosen = narrowed[-1] if narrowed else fitting[-1] if fitting else dated[-1]
    _say_pick(found, evidence, chosen, fitted=bool(fitting), narrowed=bool(narrowed),
              spec=spec, asked=asked, when=when, where=where, report=report)  # fmt: skip
    return chosen


def _say_pick(  # noqa: PLR0913 - the facts one message names
    found: _Found,
    evidence: tuple[str, str] | None,
    chosen: Release,
    *,
    fitted: bool,
    narrowed: bool,
    spec: SpecifierSet | None,
    asked: str,
    when: str,
    where: str,
    report: _Report,
) -> None:
    """Why an unpinned or ranged torch became `chosen`."""
    needs: list[str] = []
    if evidence is not None:
        needs.append(evidence[0])
    if found.python is not None:
        needs.append(f"python {found.python}")
    if not fitted and needs:
        report.warnings.append(
            f"{where}: no release {asked.removeprefix('torch ')} allows{when} has "
            f"{' and '.join(needs)}; taking the newest one, {chosen.torch}"
        )
    has = [*(needs if fitted else []), *(["a python every exact pin has a wheel for"] * narrowed)]
    that = f" that has {' and '.join(has)}" if has else ""
    if spec is None:
        report.warnings.append(
            f"{where}: torch is not pinned; project.yaml pins {chosen.torch}, "
            f"the newest release{when}{that}"
        )
    else:
        report.warnings.append(
            f"{where}: {asked} is not an exact pin; project.yaml pins {chosen.torch}, "
            f"the newest release{when} it allows{that}"
        )


def _pins_fit(
    found: _Found, releases: list[Release], wheels: list[PinWheels] | None
) -> list[Release]:
    """The releases (in order) with a python every exact pin has a wheel for; [] if not asked."""
    if not wheels or found.python is not None:
        return []
    return [r for r in releases if choose_python(_buildable_pythons(r), wheels)[0] is not None]


def _buildable_pythons(release: Release) -> list[str]:
    """The pythons torch was published for that envgen builds, newest first."""
    return sorted(
        (p for p in release.python if _py_key(p) >= _py_key(MIN_PYTHON)), key=_py_key, reverse=True
    )


def _published_by(release: Release, releases: list[Release], as_of: dt.date) -> bool:
    """The release was out by `as_of`. One with no date older than the oldest dated release
    (0.4.x, never on PyPI; the matrix starts at 0.4.0 of April 2018) counts as out: it predates
    every dated one."""
    if release.date:
        return dt.date.fromisoformat(release.date) <= as_of
    first = next((r for r in releases if r.date), None)
    return first is not None and release.version < first.version


def _lts_only(
    found: _Found, matrix: Matrix, matching: list[Release], report: _Report
) -> list[Release]:
    """Through -c pytorch-lts (or a whl/lts/ index) only the LTS releases could be installed."""
    via = next((c for c in found.channels if c.rstrip("/").endswith(eras.LTS_CHANNEL)), None)
    via = via or next((u for _, u in found.indexes if eras.LTS_INDEX.search(u)), None)
    if via is None:
        return matching
    lts = [
        r
        for r in matching
        if any(eras.LTS_CHANNEL in b.channels for b in matrix.conda_builds(r.torch, PLATFORM))
        or any(eras.LTS_INDEX.search(b.url or "") for b in matrix.pip_builds(r.torch, PLATFORM))
    ]
    if not lts:
        return matching
    report.warnings.append(
        f"{found.source}: the file installs torch from {excerpt(via)}, which holds only the LTS "
        f"release{'s' if len(lts) > 1 else ''} {', '.join(r.torch for r in lts)}"
    )
    return lts


def _torch_pin(
    found: _Found, matrix: Matrix, releases: list[Release], report: _Report
) -> _Pin | Release | None:
    """The file's torch pin; with none, the release its companions belong to; with none or an
    unpinned torch, the series its extension pages or wheel URLs were built for."""
    pin = found.torch
    if pin is None:
        derived = _release_of_companions(found, releases, matrix)
        if derived is not None:
            release, companion = derived
            report.warnings.append(
                f"{companion.where}: the file pins no torch, but {companion.label} belongs to "
                f"torch {release.torch} only (pip installs the torch it requires), so "
                f"project.yaml pins torch {release.torch}"
            )
            return release
    if pin is None or (pin.version is None and not pin.specifier):
        return _paged_torch(found, matrix, pin, report) or pin
    return pin


def _paged_torch(found: _Found, matrix: Matrix, pin: _Pin | None, report: _Report) -> _Pin | None:
    """The torch series an extension page or wheel URL was built for, when torch is unpinned.

    PyG's torch-1.12.0 page serves every 1.12.z, mmcv's torch1.12 names no patch: the series is
    kept (==1.12.*) and the release is picked in it as for any range; a page naming a patch
    other than .0 keeps it.
    """
    paged = torch_from_pages(matrix, [*found.indexes, *found.wheel_pages])
    if paged is None:
        return None
    torch, url = paged
    parts = torch.split(".")
    specifier = torch if len(parts) > 2 and parts[2] != "0" else f"=={parts[0]}.{parts[1]}.*"
    said = "pins no torch" if pin is None else "does not pin torch"
    where = found.source if pin is None else pin.where or found.source
    report.warnings.append(
        f"{where}: the file {said}, but the extension page {url} is for torch {torch}, so "
        f"project.yaml takes torch {specifier.removeprefix('==')}"
    )
    return _Pin(specifier=specifier, where=where)


def _release_of_companions(
    found: _Found, releases: list[Release], matrix: Matrix
) -> tuple[Release, _Pin] | None:
    """The one torch release a pinned torchvision / torchaudio belongs to (pip installs it).

    A companion belongs to a release when the release row or one of its published install
    commands pairs them (torch 1.10.0's conda line has torchvision 0.11.0, its pip lines 0.11.1).
    The returned pin's `label` is reused for the message text ("torchvision 0.6.0").
    """
    for name in ("torchvision", "torchaudio"):
        pin = found.companions.get(name)
        if pin is None or pin.version is None or not _is_version(pin.version):
            continue
        wanted = Version(pin.version)
        owners = [
            r
            for r in releases
            if any(
                _is_version(v) and Version(v) == wanted
                for v in published_companions(matrix, r, name)
            )
        ]
        if len(owners) == 1:
            return owners[0], _Pin(where=pin.where, label=f"{name} {pin.version}")
    return None


def _version_distance(version: Version, spec: SpecifierSet | None) -> float:
    """How far a release is from the bounds a range names (0 for the nearest one)."""
    if spec is None:
        return 0.0
    bounds = [Version(s.version.rstrip(".*")) for s in spec if s.version.rstrip(".*")[:1].isdigit()]

    def num(v: Version) -> float:
        parts = [*v.release, 0, 0, 0][:3]
        return parts[0] * 1e6 + parts[1] * 1e3 + parts[2]

    return min((abs(num(version) - num(b)) for b in bounds), default=0.0)


def _exact_release(pin: _Pin, releases: list[Release], report: _Report) -> Release:
    """The release a pin names (PEP 440 equality: 1.10 is 1.10.0), or the nearest one."""
    assert pin.version is not None  # noqa: S101 - the caller checked
    try:
        wanted = Version(pin.version)
    except InvalidVersion:  # `===` takes any string: `torch===1..2`
        msg = (
            f"{pin.where}: torch {pin.version!r} is not a version (PEP 440); "
            "write the release the file means, e.g. torch==1.2.0"
        )
        raise ImportSpecError(msg) from None
    for release in releases:
        if release.version == wanted:
            return release
    base = Version(wanted.base_version)
    same = next((r for r in releases if r.version == base), None)
    if same is not None and pin.version in eras.POST_RELEASES:
        # A real post-release (rebuilt wheels of the same code): recognised, not a departure.
        report.warnings.append(
            f"{pin.where}: torch {pin.version} is a post-release of {same.torch} (rebuilt "
            f"wheels on {eras.POST_RELEASES[pin.version]}), so project.yaml pins {same.torch}, "
            "the release it rebuilt"
        )
        return same
    old = eras.pre_matrix_release(pin.version)
    if old is not None and releases and Version(old) < releases[0].version:
        first = releases[0]
        report.depart(
            pin.where, "torch", pin.version, first.torch,
            f"torch {pin.version} is a real release ({old}: wheels on download.pytorch.org, "
            f"{eras.PRE_MATRIX_SOURCE}) older than envgen's matrix, which starts at "
            f"{first.torch}: no row can lock or build {old} yet, and {first.torch} is the "
            "nearest release envgen has",
        )  # fmt: skip
        return first
    if same is not None and (wanted.is_prerelease or wanted.is_postrelease):
        report.depart(
            pin.where,
            "torch",
            pin.version,
            same.torch,
            f"{pin.version} is a pre-release or build that was never published as a release; "
            f"{same.torch} is the release it became",
        )
        return same
    series = [r for r in releases if r.version.release[:2] == base.release[:2]]
    if series:
        below = [r for r in series if r.version <= base]
        now = below[-1] if below else series[0]
        because = (
            f"{pin.version} is not a PyTorch release; releases in its series: "
            f"{', '.join(r.torch for r in series)}"
        )
    else:
        below = [r for r in releases if r.version <= base]
        now = below[-1] if below else releases[0]
        because = f"{pin.version} is not a PyTorch release and none shares its minor series"
    report.depart(pin.where, "torch", pin.version, now.torch, because)
    return now


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


def _conda_default(
    found: _Found, release: Release, builds: dict[str, PipBuild | CondaBuild], report: _Report
) -> str:
    """What `conda install pytorch -c pytorch` got with neither cpuonly nor cudatoolkit.

    On linux-64 the pytorch channel's CPU builds carry the `cpuonly` track feature, which the
    solver avoids, and its CUDA builds of one release share version and build number, so the
    solver took the one with the newest cudatoolkit (inferred from the solver's rules; the
    channel's repodata of the time is not recorded). Where the release has no CUDA build on the
    channel, it is cpu.
    """
    # pytorch-cuda builds (2.x) need -c nvidia: without it only the CPU build solves.
    nvidia = any(c.rstrip("/").endswith("nvidia") for c in found.channels)
    cudas = [
        a
        for a, b in builds.items()
        if a.startswith("cu")
        and isinstance(b, CondaBuild)
        and (b.form == "cudatoolkit" or (b.form == "pytorch-cuda" and nvidia))
    ]
    if found.cpuonly or any(c == "cpu" for c, _ in found.compute) or not cudas:
        return "cpu" if "cpu" in builds else next(iter(builds))
    newest = cudas[-1]
    report.warnings.append(
        f"{found.source}: pytorch {release.torch} from -c pytorch names neither cpuonly nor "
        f"cudatoolkit: on linux-64 conda installed the build with the newest cudatoolkit, "
        f"{newest}, so project.yaml asks for {newest} (the solver avoids the cpuonly feature); "
        "set accelerators: [cpu] if the paper ran without a GPU"
    )
    return newest


def _pick_accelerator(
    found: _Found,
    matrix: Matrix,
    release: Release,
    manager: str,
    evidence: tuple[str, str] | None,
    report: _Report,
) -> str:
    src = found.source
    if evidence is not None:
        return evidence[0]
    builds = _builds(matrix, release, manager)

    paged = accelerator_from_pages(matrix, [*found.indexes, *found.wheel_pages])
    if paged is not None and paged[0] in builds:
        said = "-f" if paged[1] in (u for _, u in found.indexes) else "the wheel URL's page"
        report.warnings.append(
            f"{src}: the compute platform {paged[0]} comes from {said} {paged[1]}"
        )
        return paged[0]
    if manager == "conda" and builds:
        return _conda_default(found, release, builds, report)
    pip = _builds(matrix, release, "pip")
    if found.image_cuda is not None:
        wanted = _cu(found.image_cuda)
        if wanted in pip or not pip:
            return wanted
        near = _nearest(wanted, list(pip))
        report.warnings.append(
            f"{src}: the base image has CUDA {found.image_cuda} but torch {release.torch} has no "
            f"{wanted} "
            f"wheels; using {near} (the wheels bundle their own CUDA runtime)"
        )
        return near
    default = next((b for b in pip.values() if isinstance(b, PipBuild) and b.pypi_default), None)
    if default is not None:
        if default.accelerator != "cpu":
            report.warnings.append(
                f"{src}: torch=={release.torch} has no local label and no PyTorch index: on "
                "linux-64 "
                f"PyPI serves the {default.accelerator} build, so project.yaml asks for "
                f"{default.accelerator}"
            )
        return default.accelerator
    if "cpu" in pip:
        cudas = [a for a in pip if a.startswith("cu")]
        report.warnings.append(
            f"{src}: torch=={release.torch} has no local label and no PyTorch index, and the "
            "matrix does not record which build PyPI served on linux-64; project.yaml asks for "
            "cpu: change accelerators if the paper ran on a GPU (torch "
            f"{release.torch} was built for {', '.join(cudas) or 'no CUDA'})"
        )
        return "cpu"
    return _unrecorded_accelerator(found, matrix, release, pip, report)


def _unrecorded_accelerator(
    found: _Found,
    matrix: Matrix,
    release: Release,
    pip: dict[str, PipBuild | CondaBuild],
    report: _Report,
) -> str:
    """The matrix has no linux pip row to choose from: take the newest CUDA the release was
    built for on any route (PyPI's linux wheels of that era were CUDA builds), and say it is a
    guess; with no build recorded at all, cpu, said as a choice."""
    src = found.source
    known = [a for a in (*pip, *_builds(matrix, release, "conda")) if a.startswith("cu")]
    cudas = sorted(set(known), key=lambda a: cuda_number(a) or 0)
    if not cudas:
        report.warnings.append(
            f"{src}: torch=={release.torch} has no local label and no PyTorch index, and the "
            f"matrix records no linux-64 build of torch {release.torch} on any route, so nothing "
            "says which build the paper used; project.yaml asks for cpu: change accelerators "
            "if the paper ran on a GPU"
        )
        return "cpu"
    acc = cudas[-1]
    report.warnings.append(
        f"{src}: torch=={release.torch} has no local label and no PyTorch index, and the matrix "
        f"records no linux-64 pip build of it; project.yaml asks for {acc}, the newest CUDA "
        f"torch {release.torch} was built for (inferred: PyPI's linux wheels of that era were "
        "CUDA builds); change accelerators if the paper used another"
    )
    return acc


def _move_accelerator(
    found: _Found,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    acc: str,
    evidence: tuple[str, str] | None,
    report: _Report,
) -> str:
    """The file's compute platform was never built for this release: take the nearest one."""
    builds = _builds(matrix, release, manager)
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    cuda_accs = [a for a in builds if a.startswith("cu")]
    now = (
        _nearest(acc, cuda_accs)
        if acc.startswith("cu") and cuda_accs
        else _nearest(acc, list(builds))
    )
    why = evidence[1] if evidence else acc
    built = _versions_text(list(builds))
    route = f"{manager} wheels" if manager == "pip" else "conda packages"
    because = (
        f"torch {release.torch} was never built for {acc} ({why}) as {route}; "
        f"it was built for {built}"
    )
    if acc in _builds(matrix, release, other):
        because += f" (the {other} route has {acc}: set managers: [{other}] to use it)"
    report.depart(found.source, "the compute platform", acc, now, because)
    return now


def _check_pytorch_cuda(
    found: _Found,
    matrix: Matrix,
    release: Release,
    acc: str,
    builds: dict[str, PipBuild | CondaBuild],
    report: _Report,
) -> None:
    """A `pytorch-cuda=X.Y` that was never published is named, with the versions that were."""
    published = sorted(
        {b.version for b in matrix.conda if b.form == "pytorch-cuda" and b.version},
        key=_py_key,
    )
    for _, why in found.compute:
        asked = why.removeprefix("pytorch-cuda ") if why.startswith("pytorch-cuda ") else None
        if asked is None or asked in published:
            continue
        build = builds.get(acc)
        now = (
            f"project.yaml asks for {acc}, which torch {release.torch} has as {build.form} "
            f"{_cuda_of(acc)}"
            if isinstance(build, CondaBuild) and build.form != "pytorch-cuda"
            else f"project.yaml asks for {acc}"
        )
        report.warnings.append(
            f"{found.source}: pytorch-cuda={asked} was never published: the pytorch-cuda "
            f"metapackage (-c pytorch -c nvidia) exists for CUDA {', '.join(published)}, so the "
            f"file's conda install could not solve as written; {now}"
        )


def _cpu_route(
    found: _Found,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    builds: dict[str, PipBuild | CondaBuild],
    evidence: tuple[str, str] | None,
    report: _Report,
) -> tuple[Literal["pip", "conda"], dict[str, PipBuild | CondaBuild]]:
    """A CPU build the file asks for stays a CPU build: the other route's, never a CUDA one.

    (`pytorch-cpu=0.4.1`: the matrix records the pytorch channel's CUDA packages of 0.4.1 only,
    and the CPU wheels of 0.4.1 on download.pytorch.org are the same CPU build.)
    """
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    other_builds = _builds(matrix, release, other)
    why = evidence[1] if evidence else "cpu"
    route = f"{manager} wheels" if manager == "pip" else "conda packages"
    if "cpu" in other_builds:
        report.depart(
            found.source, "the install route", manager, other,
            f"the file asks for a CPU build ({why}) and the matrix records no CPU build of torch "
            f"{release.torch} as {route} (only {_versions_text(list(builds))}); the {other} "
            "route has the CPU build",
        )  # fmt: skip
        return other, other_builds
    report.warnings.append(
        f"{found.source}: the file asks for a CPU build ({why}) but the matrix records none of "
        f"torch {release.torch} on linux-64 (only {_versions_text(list(builds))}); project.yaml "
        "keeps cpu: `envgen lock` says whether it resolves"
    )
    return manager, builds


def _nearest(acc: str, choices: list[str]) -> str:
    return nearest_accelerator(acc, choices) or (choices[0] if choices else acc)


def _versions_text(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _py_key(p: str) -> tuple[int, ...]:
    return tuple(int(x) for x in p.split("."))


# The oldest python envgen locks, builds and smoke-tests (2.7 and 3.5 with pip 20.3.4 and
# envgen/smoke/script27.py: envgen.lock.legacy): an older one is moved to the nearest that builds.
MIN_PYTHON: Final = "2.7"


def _check_python(found: _Found, release: Release, report: _Report) -> str | None:
    py = found.python
    if py is None:
        return None
    buildable = [p for p in release.python if _py_key(p) >= _py_key(MIN_PYTHON)]
    if _py_key(py) < _py_key(MIN_PYTHON) and buildable:
        nearest = min(buildable, key=_py_key)
        # Old eras are reported as they are, and project.yaml proposes the nearest python
        # envgen can lock and build today (MIN_PYTHON; the file's python is kept beside the key).
        published = f"torch {release.torch} was published for python {', '.join(release.python)}"
        if _py_key(py)[0] == 2:
            because = (
                f"project.yaml cannot say python {py} (torch's only Python 2 builds are for "
                f"2.7), though {published}"
            )
        elif py in release.python:
            because = (
                f"envgen cannot lock or build python {py} yet (uv refuses python older than "
                f"{MIN_PYTHON}, and the smoke checks need {MIN_PYTHON}), though {published}"
            )
        else:
            because = published
        because += (
            f"; {nearest} is the nearest python envgen builds that torch {release.torch} was "
            "published for"
        )
        found.comments["python-asked"] = (
            f"the file asks for python {py} ({excerpt(found.python_where)})"
        )
        report.depart(found.python_where, "python", py, nearest, because)
        return nearest
    if py in release.python:
        return py
    supported = sorted(release.python, key=_py_key)
    wanted = _py_key(py)
    same_major = [p for p in supported if _py_key(p)[0] == wanted[0]] or supported
    nearest = min(same_major, key=lambda p: (abs(_py_key(p)[1] - wanted[1]), -_py_key(p)[1]))
    report.depart(
        found.python_where,
        "python",
        py,
        nearest,
        f"torch {release.torch} was published for python {', '.join(supported)}",
    )
    return nearest


def _python_from_pins(
    found: _Found, release: Release, wheels: list[PinWheels], report: _Report
) -> str | None:
    """The newest python torch was published for that every exact pin has a wheel for."""
    candidates = _buildable_pythons(release)
    chosen, skipped = choose_python(candidates, wheels)
    why = "; ".join(
        f"python {python}: " + ", ".join(f"{p.requirement} has {p.how}" for p in misses[:4])
        for python, misses in skipped[:2]
    )
    if chosen is None:
        report.warnings.append(
            f"{found.source}: no python torch {release.torch} was published for "
            f"({', '.join(candidates)}) has wheels for every exact pin ({why}); project.yaml "
            "names no python, so the lock takes the newest and builds the rest from source"
        )
        return None
    report.warnings.append(
        f"{found.source}: python {chosen}: the file names none; {chosen} is the newest python "
        f"torch {release.torch} was published for that every exact pin ({len(wheels)} looked up) "
        "has a wheel for" + (f" (not {why})" if why else "")
    )
    return chosen


def _check_companions(
    found: _Found,
    matrix: Matrix,
    release: Release,
    acc: str,
    report: _Report,
) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in ("torchvision", "torchaudio"):
        pin = found.companions.get(name)
        paired = getattr(release, name)
        if pin is None:
            out[name] = False
            continue
        if pin.version is None:
            out[name] = bool(paired)
            if paired:
                report.warnings.append(
                    f"{pin.where}: {name} is not pinned; envgen will pick the one matching torch "
                    f"{release.torch} ({name} {paired})"
                )
            else:
                report.depart(
                    pin.where, name, "asked for", "left out",
                    f"torch {release.torch} was published without {name}",
                )  # fmt: skip
            continue
        if paired is None:
            report.depart(
                pin.where, name, pin.version, "left out",
                f"torch {release.torch} was published without {name}",
            )  # fmt: skip
            out[name] = False
            continue
        published = {paired, *published_companions(matrix, release, name)}
        # PEP 440: torchvision==0.12 is 0.12.0.
        if _is_version(pin.version):
            wanted = Version(pin.version)
            same = [p for p in published if _is_version(p) and Version(p) == wanted]
            if same:
                pin.version = same[0]
        if pin.version not in published and name == "torchvision" and _pure_python_vision(pin):
            report.warnings.append(
                f"{pin.where}: torchvision {pin.version} is pure Python (a py2.py3-none-any "
                f"wheel that pins no torch), so it runs with torch {release.torch}; kept as the "
                f"file says (torch {release.torch} pairs with torchvision {paired})"
            )
            out[name] = pin.version
            continue
        accepted = (
            companion_accepts(matrix, name, pin.version, release)
            if pin.version not in published and _is_version(pin.version)
            else None
        )
        if accepted is not None:
            report.warnings.append(
                f"{pin.where}: {name} {pin.version} is not the release torch {release.torch} was "
                f"published with ({name} {paired}); kept, because its wheel accepts torch "
                f"{release.torch} (Requires-Dist torch{accepted.torch})"
            )
            out[name] = pin.version
            continue
        if pin.version not in published:
            owners = sorted(
                {r.torch for r in matrix.releases if getattr(r, name) == pin.version}, key=Version
            )
            if not owners and Version(pin.version).release[:2] == Version(paired).release[:2]:
                report.warnings.append(
                    f"{pin.where}: {name} {pin.version} is not the matrix's pairing for torch "
                    f"{release.torch} ({name} {paired}) but is in the same series; kept as the "
                    "file says (the lock checks that it resolves)"
                )
                out[name] = pin.version
                continue
            belongs = (
                f"{name} {pin.version} belongs to torch {', '.join(owners)}"
                if owners
                else f"{name} {pin.version} is not a {name} release in the matrix"
            )
            report.depart(
                pin.where, name, pin.version, paired,
                f"{belongs}, and torch {release.torch} pairs with {name} {paired}",
            )  # fmt: skip
            out[name] = paired
            continue
        if pin.label and pin.label != acc:
            report.depart(
                pin.where, f"{name}'s build", pin.label, acc,
                f"{name}=={pin.version}+{pin.label} must match torch's {acc} build",
            )  # fmt: skip
        out[name] = pin.version
    return out


def _pure_python_vision(pin: _Pin) -> bool:
    """torchvision 0.2.x: before 0.3.0 it had no compiled ops and no torch pin."""
    return (
        pin.version is not None
        and _is_version(pin.version)
        and (Version("0.2.0") <= Version(pin.version) < Version("0.3.0"))
    )


def _from_pypi(found: _Found, torch: str, acc: str, managers: list[str]) -> bool:
    """The file installed torch from PyPI (a plain pin, no PyTorch index or wheel URL) and PyPI's
    wheel of that release is the labelled build `acc` (matrices/pypi-routes.yaml)."""
    if managers != ["pip"] or found.torch_manager != "pip" or found.torch is None:
        return False
    if found.torch.label or any("pytorch.org" in url for _, url in found.indexes):
        return False
    return any(r.release == torch and r.replaces == f"{torch}+{acc}" for r in load_routes())


def _carry_conda(found: _Found, src: str, report: _Report, *, switched: bool) -> None:
    """Move the file's conda dependencies under pip: (a pip build never installs `conda:`)."""
    carried = carry_to_pip(found.conda_deps, found.pip_reqs, where=src)
    found.pip_reqs.extend(carried.pip)
    found.conda_deps.clear()
    report.warnings.extend(carried.notes)
    if carried.refused:
        what = f"pip cannot install these conda dependencies: {'; '.join(carried.refused)}"
        if switched:
            report.problems.append(f"{src}: the environment moves to pip, and {what}")
        else:
            report.warnings.append(f"{src}: torch is installed with pip; left out, as {what}")


def _gone_routes(
    found: _Found,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    acc: str,
    builds: dict[str, PipBuild | CondaBuild],
    report: _Report,
) -> tuple[list[str], str]:
    """The managers and accelerator to write: the file's, or the other route's if it is gone."""
    if acc not in builds:
        return [manager], acc
    gone = [i for i in _issues(found, matrix, release, acc, builds[acc]) if i.severity == "error"]
    if not gone:
        return [manager], acc
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    other_builds = _builds(matrix, release, other)
    said = " ".join(f"[{i.id}] {i.message}" for i in gone)
    fix = f"Fix: {gone[0].fix} ({gone[0].link})"
    if acc in other_builds:
        report.depart(
            found.source, "the install route", manager, other,
            f"{said} The {other} route still works. {fix}",
        )  # fmt: skip
        return [other], acc
    if not other_builds:
        report.depart(
            found.source, "the install route", manager, other,
            f"{said} {fix}; the matrix records no linux-64 {other} build of torch "
            f"{release.torch}: check that `envgen lock` finds it",
        )  # fmt: skip
        return [other], acc
    near = _nearest(acc, list(other_builds))
    report.depart(
        found.source, "the install route", f"{manager} {acc}", f"{other} {near}",
        f"{said} {fix}; {other} has no {acc} build of torch {release.torch}, {near} is the nearest",
    )  # fmt: skip
    return [other], near


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
        if issue.severity != "warning" or (
            issue.silenced_by is not None
            and silenced(issue.silenced_by, found.pip_reqs, found.conda_deps)
        ):
            continue
        fix = _IMPORT_FIXES.get(issue.id, issue.fix).format(acc=acc)
        warnings.append(f"[{issue.id}] {issue.message} Fix: {fix} ({issue.link})")


# Fixes written for project.yaml where the matrix's fix is conda syntax project.yaml cannot hold
# (the spec has no build-string key: advice never suggests what the spec rejects).
_IMPORT_FIXES: Final = {
    "conda-forge-cudatoolkit-gives-cpu-build": (
        "nothing to add to project.yaml: accelerators: [{acc}] makes envgen write the pytorch "
        "channel before the file's other channels and lock the CUDA build, and `envgen smoke` "
        "fails if the environment holds a CPU build"
    ),
}


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
    "torch_from",
    "pip",
    "conda",
    "lock",
)


def render_project(
    project: dict[str, object], *, source: str, comments: dict[str, str] | None = None
) -> str:
    """project.yaml text: fixed key order, every string quoted (YAML reads 3.10 as 3.1).

    `comments` puts a `# text` after a scalar key's line (what the spec cannot hold: a python
    patch version, a conda build string).
    """
    notes = comments or {}
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
            line = f"{key}:{_yaml_value(value, indent=2)}"
            note = notes.get(key)
            if note and "\n" not in line:
                line += "  # " + note.replace("\n", " ").replace("\r", " ")
            lines.append(line)
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
    report: _Report,
) -> tuple[Literal["pip", "conda"], dict[str, PipBuild | CondaBuild]]:
    """A conda env for a release the pytorch channel no longer has (or never had): move to pip."""
    pip = _builds(matrix, release, "pip")
    gone = [
        i
        for i in matrix.known_issues
        if i.manager == "conda"
        and (i.channel is None or i.channel in found.channels or not found.channels)
        and i.severity == "error"
        and SpecifierSet(i.torch).contains(release.version, prereleases=True)
    ]
    said = " ".join(f"[{i.id}] {i.message}" for i in gone) or (
        f"torch {release.torch} has no conda packages for {PLATFORM}."
    )
    fix = f" Fix: {gone[0].fix} ({gone[0].link})" if gone else ""
    if acc in pip:
        has = f"pip has {acc} wheels of torch {release.torch}"
    elif pip:
        has = f"pip has torch {release.torch} wheels ({_versions_text(list(pip))})"
    else:
        has = (
            f"the matrix records no linux-64 pip wheels of torch {release.torch}: check that "
            "`envgen lock` finds them"
        )
    report.depart(found.source, "the install route", "conda", "pip", f"{said}{fix}; {has}")
    return "pip", pip
