"""The evidence record: everything one file asks for, where it says so, before the matrix judges it.

Every format reader (requirements, conda_env, dockerfile, ...) fills one `Evidence` through the
setters here (`set_torch`, `set_python`, `make_pin`), which apply the rules that hold whatever
the format: a later torch install replaces an earlier one (said as a departure), the first python
named wins, pip sees conda's pytorch as an installed torch. `DockerContext` is where a
Dockerfile's COPY lines put files, read by the includes and scripts it runs. This module must not
read the matrix, the network or any file.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal, NamedTuple

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.model.matrix import accelerator_id
from envgen.repro.reading import MAX_EXPANDED_TOTAL, MAX_PACKAGES, excerpt, inside, is_dir

_PYPI: Final = re.compile(r"^https?://(pypi\.org|pypi\.python\.org)/(simple|pypi)/?$")

SourceKind = Literal[
    "conda", "pip", "shell", "dockerfile", "conda-list", "setup.py", "setup.cfg", "pyproject",
    "markdown", "batch", "pylock", "uv-lock", "pipfile", "conda-explicit", "ci", "tox", "pixi",
    "pixi-lock", "poetry-lock", "singularity", "makefile", "compose",
]  # fmt: skip


class Compute(NamedTuple):
    """One piece of evidence for the build: the accelerator it names (`cu118`, `cpu`), the words
    for messages (`cudatoolkit 11.8`), and what said it: conda's selectors of the conda pytorch
    (cpuonly, cudatoolkit, a cudaXY metapackage, a build string), an image's torch, or pip (a
    local label, a wheel URL's folder). A pip wheel that names its build replaces what conda's
    selectors or an image said of theirs."""

    accelerator: str
    why: str
    origin: Literal["conda", "image", "pip"] = "pip"


@dataclass(slots=True)
class Pin:
    """A torch-family package as the file gave it."""

    version: str | None = None  # exact, or None when unpinned
    specifier: str = ""  # a range or fuzzy conda version, when not exact
    label: str | None = None  # pip local label: cu110, cpu
    where: str = ""
    # The wheel file that named this version (`torch-0.4.1.post2-cp37-...whl`): proof that a
    # post-release existed on the index it came from.
    wheel: str | None = None
    # The base image that shipped this torch (FROM pytorch/pytorch:..., NGC): installed before
    # the file's own pip lines, which replace it where they require another torch.
    image: str | None = None
    # Floor-only ranges a later pip install asked of the release this range installed, with
    # where: pip keeps that release where it meets each, else installs the newest the floor
    # allows (`torch==1.8.*`, then `torch>=1.8.1`: 1.8.1 stays). Deciding needs the releases,
    # so the resolution does it (release.pick_release).
    then: tuple[tuple[str, str], ...] = ()
    # `torch===1.7.0` (PEP 440 arbitrary equality): only that exact string matches, never a
    # local-label build (1.7.0+cu110) a find-links page lists beside it
    arbitrary: bool = False


@dataclass(frozen=True, slots=True)
class WheelRef:
    """A direct wheel URL of another package, kept until the matrix says if it is an extension."""

    text: str  # the requirement as the file wrote it (a bare URL or `name @ URL`)
    url: str
    where: str
    slot: int  # where in pip_reqs its requirement goes (file order)


@dataclass(slots=True)
class Evidence:
    """Everything a file asked for, before validation."""

    source: str
    kind: SourceKind
    name: str | None = None
    torch: Pin | None = None
    companions: dict[str, Pin] = field(default_factory=dict)
    torch_manager: Literal["pip", "conda"] | None = None
    python: str | None = None
    python_where: str = ""
    # a requires-python that admits several minors (`>=3.7,<4`): no python, but the python the
    # pins choose stays within it (where any admitted one is a candidate)
    python_range: str | None = None
    channels: list[str] = field(default_factory=list)
    conda_deps: list[str] = field(default_factory=list)
    pip_reqs: list[str] = field(default_factory=list)
    # Packages installed from a URL by name (`timm @ git+https://...`): not locked, but what they
    # require is read from their newest release as of the file's date (envgen.repro.through).
    url_packages: list[str] = field(default_factory=list)
    # Every requirement URL dropped so (url, where): a repository whose package matrices/url-
    # packages.yaml records is read from there, not through a PyPI namesake.
    direct_urls: list[tuple[str, str]] = field(default_factory=list)
    indexes: list[tuple[str, str]] = field(default_factory=list)  # (form, url)
    wheels: list[WheelRef] = field(default_factory=list)  # direct wheel URLs, read by build_project
    # The extension pages recognised wheel URLs came from: ("wheel", page), evidence like -f.
    wheel_pages: list[tuple[str, str]] = field(default_factory=list)
    cpuonly: bool = False
    # The file names `pytorch-cpu` (the pytorch channel's CPU package of 1.0-1.1, form
    # cpu-package; later CPU builds are `pytorch` with cpuonly): where, or "".
    cpu_package: str = ""
    # What names the build, each with where it came from (conda's selectors, an image, pip)
    compute: list[Compute] = field(default_factory=list)
    image_cuda: str | None = None  # the CUDA of the torch an image ships (NGC's pytorch images)
    # The CUDA toolkit an image carries without torch (nvidia/cuda): it does not choose the
    # wheel pip installs from PyPI, only the build of a release PyPI never served.
    toolkit_cuda: str | None = None
    # The CUDA compiler is on PATH before the file's own steps: a `-devel` CUDA image (nvidia/cuda,
    # pytorch/pytorch) or NGC's, whose `nvcc --version` succeeds (envgen.repro.shell).
    nvcc: bool = False
    image_python: str | None = None
    # A base image whose own interpreter pip installs into (FROM pytorch/pytorch:...): its
    # python is the image's, which the file does not state, so the pins do not choose one.
    interpreter_image: str | None = None
    # len(pip_reqs) when the installed torch was set (set_torch): the pip requirements after it
    # were installed later, over that torch
    torch_slot: int = 0
    # that torch came from a pip command that has ended (install_script._pip_install): the
    # requirements after torch_slot are later commands', not the same resolve's
    torch_by_command: bool = False
    # canonical names of packages a pip command installed with --no-deps (their Requires-Dist is
    # never read), and the PyTorch indexes a command that named none of torch's family gave
    # (dropped: torch was installed), by the names it installed
    no_deps: set[str] = field(default_factory=set)
    command_indexes: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    includes_missed: int = 0  # include files (-r, -f env) not read so far
    # why torch last came from PyTorch's nightly index (install_script._nightly): a refusal;
    # "" where it did not
    nightly: str = ""
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # What project.yaml cannot say but should keep (a python patch version, a conda build
    # string), written as comments beside the key: {key: text}.
    comments: dict[str, str] = field(default_factory=dict)
    # Where the file contradicts itself and envgen chose one side (turned into departures).
    departures: list[str] = field(default_factory=list)
    include_depth: int = 0  # how deep the current -r chain is
    included_bytes: int = 0  # characters of every file an include read so far
    # `sed -i SCRIPT FILE` before an install reads FILE: {the name as written, normalised:
    # [(sed script, or None where the command is not one envgen models, where)]}
    edits: dict[str, list[tuple[str | None, str]]] = field(default_factory=dict)
    # Files a command wrote from the project's own (`poetry export -o requirements.txt`, `uv
    # export`, `pip-compile -o`): {the name as written, normalised: (where, a reading of what it
    # was made from)}; an install that reads the name reads that instead.
    generated: dict[str, tuple[str, Callable[[Evidence], bool]]] = field(default_factory=dict)
    # Makefiles run and generated files read from their source so far (each bounded per import:
    # a recipe's own `make`, a file compiled from files compiled in turn)
    replays: int = 0
    expanded: int = 0  # characters of shell/Dockerfile lines after $VAR substitution so far
    seen_pip: set[str] = field(default_factory=set)  # canonical names in pip_reqs
    seen_conda: set[str] = field(default_factory=set)  # entries of conda_deps
    full: set[str] = field(default_factory=set)  # "pip"/"conda" once MAX_PACKAGES is reached
    root: Path | None = None  # includes must stay inside it (a repository import)
    tree: Path | None = None  # the imported file's folder: -r includes must stay inside it
    # the checkout the imported file lies in, when the caller knows it (a copy kept without its
    # .git: the corpus); otherwise a folder is a checkout's root when it holds a .git
    checkout: Path | None = None
    # the folder a script kept in a helper folder (scripts/install.sh) is run from: the checkout
    # root above it, where an include the script's own folder lacks is looked for
    run_from: Path | None = None
    # the checkout root above a script in another folder (src/): only where its folder lacks
    # what it names (run_from_root(fallback=True))
    fallback_root: Path | None = None
    # wheels a script downloaded (wget/curl), by the file name they land as: their URL
    downloads: dict[str, str] = field(default_factory=dict)
    # a script picks torch's wheel by the python it runs on (install_script._python_by_branch):
    # a wheel's python tag names no python
    python_by_branch: bool = False
    # The folder a script another file runs was started in (the caller's): what it names and is
    # not beside it is looked for there (a CI job runs ./devops/install.sh from the root).
    script_cwd: Path | None = None
    script_depth: int = -1  # the include depth of that script's own lines (not its -r files')
    in_image: bool = False  # a script a Dockerfile's RUN runs: its files are the image's
    # the extras a `pip install .[dev,train]` of the project itself names, while its
    # pyproject.toml / setup.py is read (declared.read_extras installs them)
    install_extras: tuple[str, ...] = ()
    # a script changed to a folder the import does not follow (`cd apex` after a clone)
    moved_away: bool = False
    # The folder of the checkout a script's `cd` entered (`cd CEConv`, `cd ..` from scripts/,
    # `cd $HOME/<clone>/CEConv`): the script's own lines (at include depth `cwd_depth`) name
    # their files from there.
    cwd: Path | None = None
    cwd_depth: int = -1
    # where the script was before its last `cd` (moved_away, clone_cwd, cwd): what `cd -` restores
    oldpwd: tuple[bool, str | None, Path | None] | None = None
    # the `hatch run ENV:SCRIPT`s being read (a script that runs itself is not followed again),
    # how many `hatch run` / `pipenv run` commands were followed in all, how deep they nest now,
    # and each folder's [tool.hatch.envs] table, read once
    hatch_runs: list[str] = field(default_factory=list)
    runs: int = 0
    run_depth: int = 0
    hatch_envs: dict[str, dict[str, object]] = field(default_factory=dict)
    # the pushd stack: (an image's working folder, moved_away, clone_cwd, cwd) to return to at
    # popd
    folders: list[tuple[str | None, bool, str | None, Path | None]] = field(default_factory=list)
    # the local projects (folder, extras) a `pip install .` already read, and the folders whose
    # Pipfile `pipenv run` read: each once per import
    projects: set[str] = field(default_factory=set)
    # the folder a README's first `git clone` makes: the repository itself, which its `cd` enters
    own_clone: str | None = None
    # Other repositories a script clones (folder: URL), and the URL of the one it is in now
    # (`git clone .../pytorch/vision && cd vision && python setup.py install` builds torchvision)
    clone_urls: dict[str, str] = field(default_factory=dict)
    clone_cwd: str | None = None
    # conda-forge's CUDA choice, where no build is named: the CUDA major a `cuda-version 12.*`
    # allows, the `__cuda` a pixi manifest's [system-requirements] declares, and whether the
    # package was the `pytorch-gpu` metapackage (the CUDA build, whatever the machine)
    cuda_series: str | None = None
    system_cuda: str | None = None
    gpu_package: bool = False
    pixi: bool = False  # the conda packages come from a pixi manifest (pixi.toml, [tool.pixi])
    torch_channel: str | None = None  # the channel the pytorch spec names (`pytorch::pytorch`)
    # The channels of the script's command that installed conda's pytorch (`conda install pytorch
    # -c pytorch`): a command's `-c` are its own, so another command's conda-forge does not
    # bring the CUDA packages this one solves with. None: the file's channels (an environment.yml).
    torch_channels: list[str] | None = None
    # the conda environment a script creates first (`conda create -n main`), and the one that is
    # active while the script builds another (`conda create -n aux` / `conda activate aux`)
    # `pip install torchvision` (unpinned, PyPI, with its dependencies) after the file installed
    # an exact torch: (where, that torch's version and where); a later torch install undoes it
    # (envgen.repro.importer.torch_pins.later_torchvision)
    later_torchvision: tuple[str, str, str | None] | None = None
    conda_env: str | None = None
    # The script works in that environment (`conda activate`, `conda run -n`, `conda install
    # -n` of it): the Miniconda's base python is no longer the one pip runs in
    conda_env_used: bool = False
    other_env: str | None = None
    # What the first `conda create` found of the environment (ENVIRONMENT_FIELDS): where that
    # environment installs no torch and the script makes and activates another (a jax one, then
    # the torch one), the other is imported from this state; and that other's name and create line
    before_env: dict[str, object] | None = None
    pending_env: tuple[str, list[str]] | None = None
    unreadable: str | None = None  # why the whole file was refused (a repository skips it)
    scripts: set[Path] = field(default_factory=set)  # scripts followed (run by a RUN or script)
    # A python the file implies only (the base env of the Miniconda it installs, the distro's
    # python3): used when nothing names the python. (python, where)
    weak_python: tuple[str, str] | None = None
    distro_python: tuple[str, str] | None = None  # (Ubuntu 20.04, 3.8) from the FROM image
    # `apt install python3.7` on a distro whose python3 is another minor: installed beside it,
    # and the python only once the file runs it (python3.7, pip3.7, a link or alternative to
    # it, or a plain pip / python); pip3 and python3 stay the distro's. (python, where)
    apt_python: tuple[str, str] | None = None
    # `apt install python3-pip`: the distro's pip, whose `pip` command (Ubuntu 20.04 on:
    # /usr/bin/pip) runs the distro's python3, not an apt python3.X beside it
    distro_pip: bool = False
    # the pytorch conda installed (whatever pip did after): its exact version, "" for an
    # unpinned or ranged one, None where conda installed none
    conda_torch: str | None = None
    # pip (not uv) builds the project being read (`pip install .`): [tool.uv] is not its
    pip_builds_project: bool = False
    uv_pip: bool = False  # the install command being read is `uv pip ...`
    # Why a file may install no torch, said with the refusal where nothing else names one
    # (`torch is named only in the extra 'gpu'`, a conda line that cannot run)
    refusal_notes: list[str] = field(default_factory=list)
    # `apt install python2.7` beside an image's own interpreter, or after torch went in: a
    # tool's python, the environment's only where a later command runs it by name
    # (python3.8 -m pip, pip3.8). (python, where)
    side_python: tuple[str, str] | None = None
    # The Miniconda the file installs: its base python ("" for Miniconda3-latest: not stated),
    # which replaces the distro's python3 as the one pip runs in.
    conda_base: tuple[str, str] | None = None
    # A conda installer named by version only (matrices/conda-installers.yaml), installed but not
    # yet run: its python becomes conda_base once the file runs conda or a program under a conda
    # prefix (a script may download Miniconda and never put it on PATH). (python, where)
    conda_installed: tuple[str, str] | None = None
    docker: DockerContext | None = None  # while a Dockerfile is read: where COPY put files
    build_context: Path | None = None  # a Dockerfile's build context (--context), if given
    # `docker build --build-arg KEY=VALUE` of the Dockerfile being read: its ARGs' values
    build_args: dict[str, str] = field(default_factory=dict)


# The fields that describe the environment a file installs (not where the reader is, nor what
# the machine has): a script's second conda environment starts again from these.
ENVIRONMENT_FIELDS: Final = (
    "torch", "companions", "torch_manager", "python", "python_where", "channels", "conda_deps",
    "pip_reqs", "indexes", "wheels", "wheel_pages", "cpuonly", "cpu_package", "compute",
    "seen_pip", "seen_conda", "full", "install_extras", "projects", "cuda_series", "system_cuda",
    "gpu_package", "torch_channel", "torch_channels", "comments", "conda_torch", "torch_slot",
    "torch_by_command", "no_deps", "command_indexes", "nightly",
)  # fmt: skip


# Folders every Linux base image has (the Filesystem Hierarchy Standard's, which Debian, Ubuntu,
# Alpine and their derived images ship): `ADD requirements.txt /tmp` copies into /tmp, as Docker
# copies into an existing directory whatever the destination's spelling.
_IMAGE_DIRS: Final = frozenset(
    {"/", "/root", "/home", "/opt", "/srv", "/mnt", "/etc", "/var", "/usr", "/usr/local",
     "/usr/local/bin", "/usr/local/lib", "/usr/local/share", "/usr/src", "/usr/bin", "/usr/lib",
     "/usr/share", "/bin", "/lib"}
    | {"/" + "tmp", "/var/" + "tmp"}  # image paths, never opened here (ruff's S108 is about that)
)  # fmt: skip


# A COPY source's pattern: at most this many matches, among at most so many entries looked at.
_MAX_GLOB: Final = 256
_MAX_SCANNED: Final = 4096
# What all of one Dockerfile's COPY patterns may look at and put, together.
_MAX_SCANNED_ALL: Final = 16384
_MAX_FILES: Final = 4096


@dataclass(slots=True)
class DockerContext:
    """A Dockerfile's build context and what its COPY/ADD lines put where in the image."""

    context: Path
    fallback: Path | None = None  # a second context to try (the repository, for a repo import)
    workdir: str = "/"
    files: dict[str, str] = field(default_factory=dict)  # image path -> context-relative path
    dirs: list[tuple[str, str]] = field(default_factory=list)  # (image dir, context dir)
    # Folders the image has before a COPY (WORKDIR, `RUN mkdir`): a file copied to one lands in
    # it, as Docker copies into an existing directory whatever the destination's spelling.
    made: set[str] = field(default_factory=set)
    scanned: int = 0  # folder entries COPY patterns looked at so far (_MAX_SCANNED_ALL)
    # The checkout's folder as COPY lines name it when the image is built from the folder above
    # it (`COPY sorani-gec/requirements.txt .`): stripped from their sources.
    checkout_as: str | None = None

    def image_path(self, name: str) -> str:
        return posixpath.normpath(posixpath.join(self.workdir, name))

    def copy(self, sources: list[str], dest: str) -> None:
        target = self.image_path(dest)
        if self.checkout_as is not None:
            prefix = f"{self.checkout_as}/"
            sources = [src.removeprefix("./").removeprefix(prefix) for src in sources]
        sources = [m for src in sources for m in self._matches(src)]
        into_dir = (
            len(sources) > 1
            or dest.endswith("/")
            or dest in {".", "./"}
            or target in self.made
            or target in _IMAGE_DIRS
        )
        for src in sources:
            if len(self.files) >= _MAX_FILES:
                return  # a Dockerfile that copies more than any install reads: the rest unread
            rel = posixpath.normpath(src.lstrip("/"))
            rel = "" if rel == "." else rel
            if not rel or is_dir(self.context / rel):
                self.dirs.append((target, rel))  # a folder's contents go into the target
            elif into_dir:
                self.files[posixpath.join(target, posixpath.basename(rel))] = rel
            else:
                self.files[target] = rel

    def _matches(self, src: str) -> list[str]:
        """The context paths a COPY source names: itself, or where its last part is a pattern
        (`COPY scripts/* ./`, Go's filepath.Match as Docker uses it: `*`, `?`, `[...]`), the
        entries of its folder that match, in name order (at most _MAX_GLOB; none: as written)."""
        folder, _, pattern = src.lstrip("/").rpartition("/")
        if not re.search(r"[*?\[]", pattern) or re.search(r"[*?\[]", folder):
            return [src]
        import fnmatch  # noqa: PLC0415 - only for a pattern
        import os  # noqa: PLC0415

        where = self.context / folder
        room = min(_MAX_SCANNED, _MAX_SCANNED_ALL - self.scanned)
        if room <= 0 or not is_dir(where) or not inside(where, self.context):
            return [src]
        try:
            with os.scandir(where) as listing:
                names = sorted(e.name for _, e in zip(range(room), listing, strict=False))
        except OSError:
            return [src]
        self.scanned += len(names)
        found = [posixpath.join(folder, n) for n in names if fnmatch.fnmatchcase(n, pattern)]
        return found[:_MAX_GLOB] or [src]

    def copied(self, name: str) -> bool:
        """Whether a COPY/ADD put the image path `name` (a file, or a folder's contents) there,
        rather than the context's file of that name standing in for it (`resolve`'s fallback).
        """
        path = self.image_path(name)
        inside = path.rstrip("/") + "/"
        if path in self.files or any(p.startswith(inside) for p in self.files):
            return True
        return any(path == d or path.startswith(d.rstrip("/") + "/") for d, _ in self.dirs)

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


def solving_channels(found: Evidence) -> list[str]:
    """The channels conda's pytorch was solved with: its script command's own `-c` channels, else
    the file's (an environment.yml's)."""
    return found.torch_channels if found.torch_channels is not None else found.channels


def make_pin(version: str | None, ranged: str, label: str | None, where: str) -> Pin:
    return Pin(version=version, specifier=ranged, label=label, where=where)


def set_companion(found: Evidence, name: str, pin: Pin) -> None:
    """torchvision or torchaudio as a line names it: an unpinned repeat (`torchvision` listed
    again after `torchvision==0.5`), or a range the earlier exact pin meets (`torchvision>=0.15.2`
    after `torchvision==0.15.2+cu118`), is already satisfied and keeps the earlier pin, as for
    torch."""
    earlier = found.companions.get(name)
    bare = pin.version is None and not pin.specifier and pin.label is None
    if earlier is not None and bare and (earlier.version is not None or earlier.specifier):
        return
    if earlier is not None and _range_met(earlier, pin.version, pin.specifier, pin.label):
        return
    found.companions[name] = pin


def _range_met(earlier: Pin, version: str | None, ranged: str, label: str | None) -> bool:
    """Whether a later range (no exact version, no label) is already met by what the earlier
    pin installed, so pip keeps it: the earlier exact version is in it (`torch==2.10.0+cu126`,
    then `torch>=2.2`), or the earlier range's release meets its floor (`torch==1.8.*`, then
    `torch>=1.8.0`)."""
    if version is not None or not ranged or label is not None:
        return False
    if earlier.version is not None:
        return _satisfied_by(earlier.version, None, ranged)
    return _floor_met(earlier.specifier, ranged)


def _floor_met(earlier: str, floor: str) -> bool:
    """Whether what an earlier range installed already meets a later floor-only range: each
    lower bound of the earlier one (`==1.8.*`'s 1.8, `>=1.9`'s 1.9) is in the floor (`>=1.8.0`),
    so pip finds the installed release satisfies it and keeps it (`pip install torch==1.8.*`,
    then `-r requirements.txt` with `torch >= 1.8.0`).

    >>> _floor_met("==1.8.*", ">=1.8.0"), _floor_met("==1.8.*", ">=1.9"), _floor_met("<2", ">=1")
    (True, False, False)
    """
    if not (earlier and _floor_only(floor)) or "!=" in floor:
        return False  # an exclusion may be the release installed: not known without it
    try:
        bounds = [s for s in SpecifierSet(earlier) if s.operator in {"==", "~=", ">=", "==="}]
        wanted = SpecifierSet(floor)
        return bool(bounds) and all(
            wanted.contains(s.version.removesuffix(".*"), prereleases=True) for s in bounds
        )
    except (InvalidSpecifier, InvalidVersion):
        return False


def _floor_only(ranged: str) -> bool:
    """A range with lower bounds only (`>=2.2`, `>1.8,!=1.9.0`): any newer release meets it.

    >>> _floor_only(">=2.2"), _floor_only(">=1.8,<1.10"), _floor_only("")
    (True, False, False)
    """
    try:
        spec = SpecifierSet(ranged)
    except InvalidSpecifier:
        return False
    return bool(ranged) and all(s.operator in {">=", ">", "!="} for s in spec)


def _drop_conda_selectors(found: Evidence) -> None:
    """A pip torch that names its build replaces conda's pytorch (`conda install pytorch
    cpuonly`, then `pip install torch==1.5.0+cu101`): what chose conda's build no longer
    describes the torch installed. (An export's pip section names conda's own torch,
    `torch==0.3.1.post2` beside `pytorch=0.3.1=py27_cuda9.0...`: no label, nothing dropped.)"""
    found.compute = [c for c in found.compute if c.origin != "conda"]
    found.cpuonly, found.cpu_package = False, ""


def set_torch(
    found: Evidence,
    manager: Literal["pip", "conda"],
    version: str | None,
    ranged: str,
    *,
    where: str,
    label: str | None,
    arbitrary: bool = False,
) -> None:
    """The file installs torch (`manager`, an exact `version` or a `ranged` specifier, a local
    `label`), read in order: what an earlier install left is kept, bounded or replaced as pip and
    conda would. `torch_slot` marks where in pip_reqs the torch installed now was set: the pip
    requirements after it are later installs (envgen.repro.entry reads their torch floors)."""
    before = found.torch
    _set_torch(found, manager, version, ranged, where=where, label=label, arbitrary=arbitrary)
    if found.torch is not before:
        found.torch_slot = len(found.pip_reqs)
        found.torch_by_command = False  # a pip command marks it when it ends
        if found.nightly and version is not None and "dev" not in version:
            # a release installed over a nightly torch (pip's or conda's): no refusal
            found.refusal_notes = [n for n in found.refusal_notes if n != found.nightly]
            found.nightly = ""


def forget_pip_route(found: Evidence, indexes: int, computes: int) -> None:
    """A pip torch replaced by one a later command installs: the first `indexes` indexes and the
    first `computes` pieces of build evidence (local labels, wheel folders, an image's CUDA) chose
    the replaced torch's build, not the new one's; conda's selectors stay (they are weighed
    apart, Evidence.conda_torch)."""
    del found.indexes[:indexes]
    found.compute = [c for c in found.compute[:computes] if c.origin == "conda"] + found.compute[
        computes:
    ]


def _set_torch(
    found: Evidence,
    manager: Literal["pip", "conda"],
    version: str | None,
    ranged: str,
    *,
    where: str,
    label: str | None,
    arbitrary: bool = False,
) -> None:
    pin = make_pin(version, ranged, label, where)
    pin.arbitrary = arbitrary  # `===`: the exact string only
    if manager == "conda":
        found.conda_torch = version or ""
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
        and found.torch_manager == manager == "pip"
        and _range_met(found.torch, version, ranged, label)
    ):
        # A range what pip installed already meets adds nothing: in one requirements file pip
        # intersects them (`torch==2.10.0+cu126`, then `-r requirements.txt` with `torch>=2.2`),
        # and a later `pip install torch>=2.2` finds it already satisfied. The pin stays.
        return
    if (
        found.torch is not None
        and found.torch_manager == manager == "pip"
        and found.torch.version is None
        and found.torch.specifier
        and found.torch.label is None
        and found.torch.image is None
        and version is None
        and label is None
        and _floor_only(ranged)
    ):
        # A floor after a range (`torch==1.8.*` or `torch<1.9`, then `torch>=1.8.1`): whether
        # the release the range installed meets it depends on which release that was, which
        # the resolution knows; the floor goes with the pin.
        found.torch.then = (*found.torch.then, (ranged, where))
        return
    updates_image = (
        found.torch is not None
        and found.torch.image is not None
        and manager == "conda"
        and version is None
        and not ranged
        and label is None
    )
    # An unpinned `conda install pytorch` over an image's torch updates it: conda installs a
    # requested spec at the newest version it can (its default update modifier, update_specs),
    # unlike pip, which finds an unpinned torch already satisfied.
    if found.torch is not None and (
        updates_image
        or (
            (found.torch.version, found.torch.specifier) != (version, ranged)
            and (version is not None or ranged)
        )
    ):
        if found.torch.version is None and not found.torch.specifier:
            if (
                found.torch_manager == "conda"
                and manager == "pip"
                and version is None
                and not label
                and _floor_only(ranged)
            ):
                # `-e .` needing torch>=2.2 after conda's unpinned pytorch: pip finds conda's
                # build (the channel's newest) and keeps it where it meets the floor, so the
                # floor only bounds which release conda's is (an upper bound, `<2.0`, may
                # exclude conda's newest: pip then installs PyPI's, as before)
                pin.where = f"{pin.where} (pip's bound on conda's pytorch, {found.torch.where})"
                found.torch = pin
                return
            if found.torch_manager == "conda" and manager == "pip" and label:
                _drop_conda_selectors(found)  # pip's wheel, which names its build, replaces conda's
            found.torch = pin
            found.torch_manager = manager
            if label:
                found.compute.append(Compute(label, f"torch=={version}+{label}"))
            return
        text = (
            f"{where}: torch was {_pin_text(found.torch)} ({found.torch.where}) and "
            f"{_pin_text(pin)}, now {_pin_text(pin)}, because the later install replaces the "
            "earlier one"
        )
        if updates_image:
            text = (
                f"{where}: torch was {_pin_text(found.torch)} (the image's, {found.torch.where}), "
                "now unpinned: an unpinned `conda install pytorch` updates the installed torch to "
                "the newest release it can (conda's default update_specs), so the image's is "
                "replaced"
            )
        found.departures.append(text)
        found.warnings.append(text)
        # The image's CUDA described the torch it shipped, not the one installed over it.
        found.compute = [c for c in found.compute if c.origin != "image"]
        if found.torch_manager == "conda" and manager == "pip" and label:
            _drop_conda_selectors(found)  # pip's wheel, which names its build, replaces conda's
        # Its toolkit stays in the image, as a bare CUDA image's does.
        found.toolkit_cuda = found.toolkit_cuda or found.image_cuda
        found.image_cuda = None
        found.torch = pin
        found.torch_manager = manager
        if label:
            found.compute.append(Compute(label, f"torch=={version}+{label}"))
        return
    if found.torch is None or version is not None or ranged:
        found.torch = pin
        found.torch_manager = manager
    if label:
        found.compute.append(Compute(label, f"torch=={version}+{label}"))


def _satisfied_by(installed: str | None, version: str | None, ranged: str) -> bool:
    """A pip requirement (exact `version`, or a `ranged` specifier, or neither) that an installed
    torch `installed` already satisfies (pip then installs nothing)."""
    if installed is None or not is_version(installed):
        return False
    if version is not None:
        return is_version(version) and Version(version) == Version(installed)
    try:
        return SpecifierSet(ranged).contains(installed) if ranged else True
    except InvalidSpecifier:
        return False


_MAX_RANGE: Final = 1024  # characters of a requires-python read as a range
# The python minors a requires-python is tested against (2.7, 3.0 .. 3.19), and the patch
# levels tried in each (a bound may sit inside a minor: >=3.8.5,<3.9).
PYTHON_MINORS: Final = ("2.7", *(f"3.{n}" for n in range(20)))
_PATCHES: Final = range(30)


def admits(text: str, minor: str) -> bool:
    """Whether a requires-python admits some release of a python minor (True where it cannot
    be read: it rules nothing out).

    >>> admits(">=3.7,<4.0", "3.6"), admits(">=3.7,<4.0", "3.7"), admits(">=3.8.5", "3.8")
    (False, True, True)
    """
    minors = admitted_minors(text)
    return minors is None or minor in minors


def admitted_minors(text: str) -> list[str] | None:
    """The python minors a requires-python admits, oldest first; None where it cannot be read
    (not a specifier, or a bound of thousands of digits).

    >>> admitted_minors(">=3.11,<3.13"), admitted_minors("banana")
    (['3.11', '3.12'], None)
    """
    if len(text) > _MAX_RANGE:
        return None  # no requires-python is that long: not read
    try:
        spec = SpecifierSet(text)
        return [
            m for m in PYTHON_MINORS if any(spec.contains(Version(f"{m}.{p}")) for p in _PATCHES)
        ]
    except (InvalidSpecifier, ValueError):  # ValueError: a version of thousands of digits
        return None


def admits_some(text: str) -> bool:
    """A requires-python that can be read and admits some python minor."""
    return bool(admitted_minors(text))


def set_python(found: Evidence, version: str | None, where: str) -> None:
    if not version:
        return
    mm = major_minor(version.lstrip("=<>~!"))
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


def _pin_text(pin: Pin) -> str:
    if pin.version:
        return pin.version + (f"+{pin.label}" if pin.label else "")
    return pin.specifier or "(unpinned)"


def major_minor(text: str | None) -> str | None:
    m = re.match(r"^(\d+)\.(\d+)", text or "")
    return f"{m.group(1)}.{m.group(2)}" if m else None


def cuda_id(cuda: str) -> str:
    return accelerator_id("cuda", cuda)


def is_version(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


def is_pypi(url: str) -> bool:
    """Whether an index URL is PyPI itself (a file's default index, left to envgen).

    >>> is_pypi("https://pypi.org/simple"), is_pypi("https://pypi.python.org/pypi/")
    (True, True)
    >>> is_pypi("https://download.pytorch.org/whl/cu118")
    False
    """
    return _PYPI.match(url) is not None


def run_from_root(
    found: Evidence,
    base: Path | None,
    root_of: Callable[[Path], Path | None],
    *,
    fallback: bool = False,
) -> None:
    """A file read on its own (not from a build, an include or a file naming its root) that runs
    from a checkout root above its folder (a helper folder's script, an install guide in docs/):
    its includes are looked for there, and the import may read that checkout (not beyond it).
    `root_of(base)` names the root, or None where the file runs where it lies. With `fallback`,
    the file runs where it lies and only what its folder lacks is looked for at the root
    (Evidence.fallback_root)."""
    if base is None or found.root is not None or found.docker is not None or found.tree != base:
        return
    root = root_of(base)
    if root is not None and fallback:
        found.fallback_root = found.tree = root
    elif root is not None:
        found.run_from = found.tree = root


def requirement_name(text: str) -> str:
    """A requirement's canonical name ("" where it cannot be read).

    >>> requirement_name("Kornia[x]>=0.6"), requirement_name("not a requirement!")
    ('kornia', '')
    """
    try:
        return str(canonicalize_name(Requirement(text).name))
    except InvalidRequirement:
        return ""


def is_pytorch_index(url: str) -> bool:
    """Whether an index or find-links URL is PyTorch's own (download.pytorch.org, or the older
    pytorch.org/whl pages): its wheels carry the build in their local label.

    >>> is_pytorch_index("https://download.pytorch.org/whl/cu118"), is_pytorch_index("https://pypi.org/simple")
    (True, False)
    """
    return "pytorch.org" in url


def indexed_by_pytorch(found: Evidence) -> bool:
    """Whether the file names one of PyTorch's indexes."""
    return any(is_pytorch_index(url) for _, url in found.indexes)


def channel_name(channel: str) -> str:
    """A channel as a name: `conda-forge`, `https://conda.anaconda.org/conda-forge/`,
    `conda-forge/label/main` and `pytorch/label/nightly` are conda-forge, conda-forge and pytorch.

    >>> channel_name("https://conda.anaconda.org/conda-forge/"), channel_name("conda-forge/label/x")
    ('conda-forge', 'conda-forge')
    """
    text = channel.strip().rstrip("/").lower()
    text = re.sub(r"^[a-z+]+://[^/]+/", "", text)  # the host of a channel URL
    return text.split("/", 1)[0]


def room_for(found: Evidence, items: list[str], what: str, where: str) -> bool:
    """Another package fits under MAX_PACKAGES (one warning when the first one does not)."""
    if len(items) < MAX_PACKAGES:
        return True
    if what not in found.full:
        found.full.add(what)
        found.warnings.append(
            f"{where}: more than {MAX_PACKAGES} {what} packages; the rest are left out"
        )
    return False


def over_budget(found: Evidence, expanded: str, where: str) -> bool:
    """True (with one warning) once a file's expanded lines pass MAX_EXPANDED_TOTAL."""
    found.expanded += len(expanded)
    if found.expanded <= MAX_EXPANDED_TOTAL:
        return False
    found.warnings.append(
        f"{where}: the file's lines expand to more than {MAX_EXPANDED_TOTAL} characters in all "
        "(nested ARG/ENV/shell variables); the rest of the file is not read"
    )
    return True


# The torch family's own repositories: a build from their source installs that package (no
# release named).
_FAMILY_SOURCE: Final = re.compile(
    r"github\.com[/:]pytorch/(vision|audio)(?:\.git)?(?=[@#/]|$)", re.IGNORECASE
)


def source_companion(url: str, found: Evidence, where: str) -> bool:
    """A build of torchvision or torchaudio from its own repository (`pip install
    git+https://github.com/pytorch/vision`, a clone of it installed): that companion is named,
    with no release pinned (True)."""
    m = _FAMILY_SOURCE.search(url)
    if m is None:
        return False
    name = f"torch{m.group(1).lower()}"
    if name not in found.companions:
        found.companions[name] = Pin(where=where)
        found.warnings.append(
            f"{where}: {name} is built from its source ({excerpt(url)}): named, with no release "
            "pinned; project.yaml takes the one matching torch"
        )
    return True
