"""Rebuild matrices/pip.yaml and matrices/conda.yaml from PyTorch's "previous versions" page.

The job is split in two, so that the network is touched in one place and the rows can be rebuilt
from recorded copies byte for byte:

* fetch (network, never run by tests): the page's markdown from raw.githubusercontent.com at one
  pytorch/pytorch.github.io commit, and the torch/torchvision/torchaudio file lists from PyPI's JSON
  API, condensed to "which envgen platforms have a wheel of this version".
* parse (pure): `parse_previous_versions(text)` turns every install command on the page into a
  `PublishedCommand`; `commands_to_rows(cmds)` turns those into pip and conda build rows;
  `parse_companions(cmds)` gives the torchvision/torchaudio paired with each torch release.

The rows are merged with the hand-curated `matrices/inferred-builds.yaml` (if it exists; page rows
win on a key collision), sorted, dumped one flow mapping per line, and compared with the committed
files: the script prints a unified diff and writes only with `--write`.

This script must not invent facts: a command the schema cannot express faithfully becomes no row
(it is reported by `unsupported_commands`), because a wrong pin is worse than a missing one. It
must not run in tests with the network, and it must not touch releases.yaml.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final, Literal

import yaml
from packaging.version import Version

from envgen.model.matrix import CondaBuild, PipBuild, compute_sort_key
from envgen.model.types import PLATFORMS, TORCH_FAMILY, ComputeKind, IndexForm, Platform
from envgen.render.commands import conda_command, pip_command
from envgen.verification.pypi import http_get, wheel_platform

ROOT: Final = Path(__file__).resolve().parent.parent
MATRICES: Final = ROOT / "matrices"
RECORDED: Final = ROOT / "tests" / "data" / "recorded"
PAGE_FILE: Final = RECORDED / "previous-versions.md"
WHEELS_FILE: Final = RECORDED / "pypi-wheel-platforms.json"
SOURCES_FILE: Final = RECORDED / "SOURCES.md"
INFERRED_FILE: Final = MATRICES / "inferred-builds.yaml"
# Stored copies of the live page for the releases after the recorded page (newest first: a copy
# wins for the releases it holds complete; where two hold a release they must agree).
COPIES_DIR: Final = RECORDED / "copies"
COPIES: Final[tuple[tuple[str, str], ...]] = (
    ("previous-versions-capture-2026-03-31.md", "previous-versions copy (web capture 2026-03-31)"),
    ("previous-versions-blog-2025-02-11.md", "previous-versions copy (blog 2025-02-11)"),
)

PAGE_REPO: Final = "pytorch/pytorch.github.io"
PAGE_PATH: Final = "_get_started/previous-versions.md"
PAGE_URL: Final = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"
PYPI_JSON_URL: Final = "https://pypi.org/pypi/{name}/json"

Manager = Literal["pip", "conda"]
# {package: {version: [platform or "any", ...]}}: which platforms PyPI has a wheel for.
WheelPlatforms = dict[str, dict[str, list[str]]]

LINUX_AND_WINDOWS: Final[tuple[Platform, ...]] = ("linux-64", "win-64")
MACOS: Final[tuple[Platform, ...]] = ("osx-64", "osx-arm64")
_OS_GROUP_PLATFORMS: Final[dict[str, tuple[Platform, ...]]] = {
    "osx": ("osx-64",),
    "linux and windows": LINUX_AND_WINDOWS,
    "linux": ("linux-64",),
    "windows": ("win-64",),
}


class PageFormatError(ValueError):
    """The page no longer has the shape this parser knows; fix the parser, do not guess."""


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class PublishedCommand:
    """One install command exactly as the page publishes it, plus what it means.

    `platforms` is empty when the page does not say, or PyPI shows, that the command works
    anywhere; `unsupported` says why the command cannot become a matrix row (empty when it can).
    """

    release: str
    manager: Manager
    os_group: str
    platforms: tuple[Platform, ...]
    label: str
    kind: ComputeKind
    version: str | None
    command: str
    packages: tuple[tuple[str, str], ...]
    channels: tuple[str, ...] = ()
    index_form: IndexForm | None = None
    index_url: str | None = None
    notes: tuple[str, ...] = ()
    unsupported: str = ""

    def pin(self, name: str) -> str | None:
        """The version pinned for `name` without its operator, or None when absent/unpinned.

        >>> cmd = PublishedCommand(release="1", manager="pip", os_group="osx", platforms=(),
        ...     label="", kind="cpu", version=None, command="", packages=(("torch", "==1+cpu"),))
        >>> cmd.pin("torch"), cmd.pin("torchaudio")
        ('1+cpu', None)
        """
        for pkg, spec in self.packages:
            if pkg == name:
                return spec.lstrip("=") or None
        return None

    @property
    def expressible(self) -> bool:
        return not self.unsupported and bool(self.platforms)


# --- parsing the page ------------------------------------------------------------------------
_RELEASE_HEADING: Final = re.compile(r"^### v(\d+\.\d+\.\d+)\b")
_OLD_SECTION: Final = "## Commands for Versions < 1.0.0"
_CUDA_LABEL: Final = re.compile(r"^CUDA (\d+(?:\.\d+)*)", re.IGNORECASE)
_ROCM_LABEL: Final = re.compile(r"^ROCM ?(\d+(?:\.\d+)*)", re.IGNORECASE)
_CUDA_META: Final = re.compile(r"^cuda(\d+)(\d)$")
_LOCAL_CUDA: Final = re.compile(r"\+cu(\d+)(\d)$")
_LOCAL_ROCM: Final = re.compile(r"\+rocm(\d+(?:\.\d+)*)$")
_SPEC: Final = re.compile(r"^([A-Za-z0-9_.\-]+)((?:==|=|>=|<=|~=|!=|<|>).*)?$")
_INDEX_OPTIONS: Final[dict[str, IndexForm]] = {
    "-f": "find-links",
    "--find-links": "find-links",
    "--extra-index-url": "extra-index-url",
    "--index-url": "index-url",
    "-i": "index-url",
}


def _compute_from_label(label: str) -> tuple[ComputeKind, str | None] | None:
    """('CUDA 11.6' -> cuda 11.6, 'ROCM 5.1.1 (Linux only)' -> rocm 5.1.1, 'CPU only' -> cpu).

    >>> _compute_from_label("RocM 4.0.1 (Linux only)"), _compute_from_label("CPU Only")
    (('rocm', '4.0.1'), ('cpu', None))
    """
    if m := _CUDA_LABEL.match(label):
        return "cuda", m.group(1)
    if m := _ROCM_LABEL.match(label):
        return "rocm", m.group(1)
    low = label.lower()
    if low.startswith("cpu") or low in ("", "conda"):
        return "cpu", None
    if low.startswith("xpu"):
        return "xpu", None
    return None


def _label_platforms(label: str, default: tuple[Platform, ...]) -> tuple[Platform, ...]:
    """'(Linux only)' / '(Linux)' narrow a 'Linux and Windows' block; '(Windows)' likewise."""
    if re.search(r"\(linux( only)?\)", label, re.IGNORECASE):
        return tuple(p for p in default if p.startswith("linux"))
    if re.search(r"\(windows( only)?\)", label, re.IGNORECASE):
        return tuple(p for p in default if p == "win-64")
    return default


def _split_packages(tokens: list[str]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for tok in tokens:
        m = _SPEC.match(tok)
        if m is None:
            msg = f"not a package spec: {tok!r}"
            raise PageFormatError(msg)
        out.append((m.group(1), m.group(2) or ""))
    return tuple(out)


def _parse_pip(line: str) -> tuple[tuple[tuple[str, str], ...], IndexForm, str | None]:
    """Split `pip install a==1 b==2 --extra-index-url URL` into packages and its index line."""
    tokens = line.split()
    if tokens[:2] not in (["pip", "install"], ["pip3", "install"]):
        msg = f"not a pip install command: {line!r}"
        raise PageFormatError(msg)
    specs: list[str] = []
    form: IndexForm = "pypi"
    url: str | None = None
    rest = iter(tokens[2:])
    for tok in rest:
        if tok in _INDEX_OPTIONS:
            if url is not None:
                msg = f"two index options in {line!r}"
                raise PageFormatError(msg)
            form, url = _INDEX_OPTIONS[tok], next(rest)
        elif tok.startswith("-"):
            msg = f"unknown pip option {tok!r} in {line!r}"
            raise PageFormatError(msg)
        else:
            specs.append(tok)
    return _split_packages(specs), form, url


def _parse_conda(line: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Split `conda install a==1 cudatoolkit=11.6 -c pytorch -c conda-forge` (channels in order)."""
    tokens = line.split()
    if tokens[:2] != ["conda", "install"]:
        msg = f"not a conda install command: {line!r}"
        raise PageFormatError(msg)
    specs: list[str] = []
    channels: list[str] = []
    rest = iter(tokens[2:])
    for tok in rest:
        if tok in ("-c", "--channel"):
            channels.append(next(rest))
        elif tok.startswith("-"):
            msg = f"unknown conda option {tok!r} in {line!r}"
            raise PageFormatError(msg)
        else:
            specs.append(tok)
    return _split_packages(specs), tuple(channels)


def _command_compute(
    packages: tuple[tuple[str, str], ...],
) -> tuple[ComputeKind, str | None] | None:
    """What the pins themselves say about the compute platform (None when they say nothing)."""
    for name, spec in packages:
        if name == "torch" and (m := _LOCAL_CUDA.search(spec)):
            return "cuda", f"{int(m.group(1))}.{m.group(2)}"
        if name == "torch" and (m := _LOCAL_ROCM.search(spec)):
            return "rocm", m.group(1)
        if name == "torch" and spec.endswith("+cpu"):
            return "cpu", None
        if name in ("cudatoolkit", "pytorch-cuda"):
            return "cuda", spec.lstrip("=")
        if m := _CUDA_META.match(name):
            return "cuda", f"{int(m.group(1))}.{m.group(2)}"
        if name == "cpuonly":
            return "cpu", None
    return None


@dataclasses.dataclass(kw_only=True, slots=True)
class _Group:
    """One labelled group of lines inside a code block: comment lines, then command lines."""

    label: str = ""
    notes: list[str] = dataclasses.field(default_factory=list)
    lines: list[str] = dataclasses.field(default_factory=list)


def _code_block_groups(block: list[str]) -> list[_Group]:
    groups: list[_Group] = []
    current: _Group | None = None
    for raw in block:
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            text = line.lstrip("#").strip()
            if current is None or current.lines:
                current = _Group(label=text)
                groups.append(current)
            else:
                current.notes.append(text)
            continue
        if current is None:
            current = _Group()
            groups.append(current)
        current.lines.append(line)
    return groups


def _normalize_heading(text: str) -> str:
    return " ".join(text.lower().split())


# "##### Linux CUDA 11.7" (2.0.x in 2023 versions of the page): a plain-PyPI block for one CUDA.
_OS_GROUP_COMPUTE: Final = re.compile(r"^(linux|windows) (cuda|rocm) (\d+(?:\.\d+)*)$")


def _os_group_platforms(os_group: str) -> tuple[Platform, ...] | None:
    if m := _OS_GROUP_COMPUTE.match(os_group):
        return _OS_GROUP_PLATFORMS[m.group(1)]
    return _OS_GROUP_PLATFORMS.get(os_group)


def _make_command(
    *,
    release: str,
    manager: Manager,
    os_group: str,
    group: _Group,
    pypi_platforms: WheelPlatforms | None,
) -> PublishedCommand:
    label = group.label
    command = " && ".join(group.lines)
    compute = _compute_from_label(label)
    if not label and (m := _OS_GROUP_COMPUTE.match(os_group)):
        compute = ("cuda" if m.group(2) == "cuda" else "rocm", m.group(3))
    if compute is None:
        msg = f"v{release} {os_group}: unknown label {label!r}"
        raise PageFormatError(msg)
    kind, version = compute
    group_platforms = _os_group_platforms(os_group)
    assert group_platforms is not None  # noqa: S101 - checked when the heading was read
    platforms = _label_platforms(label, group_platforms)
    first = group.lines[0]
    unsupported = ""
    channels: tuple[str, ...] = ()
    index_form: IndexForm | None = None
    index_url: str | None = None
    packages: tuple[tuple[str, str], ...] = ()
    if first.startswith("Download and install wheel from"):
        index_form, index_url = "find-links", first.rsplit(" ", 1)[1]
        unsupported = "no pip command: the page says to download a wheel by hand, with no pin"
    elif manager == "pip":
        packages, index_form, index_url = _parse_pip(first)
    else:
        packages, channels = _parse_conda(first)
    if not unsupported and len(group.lines) > 1:
        unsupported = "several commands (torch unpinned, torchvision built from git)"
    if not unsupported and any(spec == "" for name, spec in packages if name == "torch"):
        unsupported = "torch is not pinned"
    if not unsupported and any(
        name.endswith("-cpu") and name not in _CPU_PACKAGES for name, _ in packages
    ):
        unsupported = "uses a -cpu package name other than pytorch-cpu/torchvision-cpu"
    said = _command_compute(packages)
    if said is not None and said != (kind, version):
        msg = f"v{release} {os_group}: label {label!r} but the command says {said}: {command!r}"
        raise PageFormatError(msg)
    if manager == "pip" and index_form == "pypi" and kind != "cpu":
        # PyPI's Windows torch wheels are CPU builds (about 150-200 MB against 600-850 MB for
        # Linux, PyPI JSON API), so a plain `pip install torch==X` for CUDA holds for Linux only.
        platforms = tuple(p for p in platforms if p == "linux-64")
    if os_group == "osx" and pypi_platforms is not None:
        platforms = _macos_platforms(release, manager, packages, pypi_platforms)
    return PublishedCommand(
        release=release,
        manager=manager,
        os_group=os_group,
        platforms=platforms,
        label=label,
        kind=kind,
        version=version,
        command=command,
        packages=packages,
        channels=channels,
        index_form=index_form,
        index_url=index_url,
        notes=tuple(group.notes),
        unsupported=unsupported,
    )


def _macos_platforms(
    release: str,
    manager: Manager,
    packages: tuple[tuple[str, str], ...],
    wheels: WheelPlatforms,
) -> tuple[Platform, ...]:
    """The macOS platforms a page "OSX" command holds for, as PyPI's wheel tags show.

    pip: a platform counts when every pinned package has a wheel for it (or a pure-Python one).
    conda: osx-64 only, and only when PyPI has an x86_64 macOS torch wheel of the release: PyPI
    cannot vouch for the pytorch channel's osx-arm64 builds, and torch 2.3 dropped x86_64 macOS
    wheels, so "OSX" there no longer means osx-64.
    """
    if manager == "conda":
        torch_tags = wheels.get("torch", {}).get(release, [])
        return ("osx-64",) if "osx-64" in torch_tags else ()
    found: list[Platform] = []
    for plat in MACOS:
        ok = True
        for name, spec in packages:
            tags = wheels.get(name, {}).get(spec.lstrip("=").split("+")[0], [])
            ok = ok and (plat in tags or "any" in tags)
        if ok and packages:
            found.append(plat)
    return tuple(found)


def _old_conda_commands(lines: list[str]) -> list[PublishedCommand]:
    """The backticked `conda install pytorch=0.4.1 ...` lines of the "< 1.0.0" section."""
    out: list[PublishedCommand] = []
    heading = ""
    for raw in lines:
        if raw.startswith("### "):
            heading = _normalize_heading(raw[4:])
        m = re.match(r"^`(conda install [^`]+)`", raw.strip())
        if m is None:
            continue
        command = m.group(1)
        packages, channels = _parse_conda(command)
        said = _command_compute(packages)
        kind, version = said if said is not None else ("cpu", None)
        release = next(spec.lstrip("=") for name, spec in packages if name == "pytorch")
        out.append(
            PublishedCommand(
                release=release,
                manager="conda",
                os_group=f"< 1.0.0 {heading}",
                platforms=(),
                label="",
                kind=kind,
                version=version,
                command=command,
                packages=packages,
                channels=channels,
                unsupported=(
                    "a template ('replace 0.4.1 with the desired version') with no platform; "
                    "'without CUDA' is not a CPU build on Linux"
                ),
            )
        )
    return out


def parse_previous_versions(
    text: str, *, wheels: WheelPlatforms | None = None
) -> list[PublishedCommand]:
    """Every install command on the page, in page order.

    Args:
        text: the page's markdown, as stored in the repository.
        wheels: PyPI's wheel platforms (see `condense_pypi`); without it an "OSX" command is
            taken to mean osx-64 only, as the page's heading says.

    Raises:
        PageFormatError: a heading, label or command this parser does not know.
    """
    lines = text.splitlines()
    try:
        old_at = lines.index(_OLD_SECTION)
    except ValueError:
        old_at = len(lines)
    commands: list[PublishedCommand] = []
    release: str | None = None
    manager: Manager | None = None
    os_group: str | None = None
    block: list[str] | None = None
    context: tuple[str, Manager, str] | None = None  # (release, manager, os_group) of the block
    for raw in lines[:old_at]:
        if block is not None and context is not None:
            if raw.strip() == "```":
                rel, man, group_name = context
                commands.extend(
                    _make_command(
                        release=rel,
                        manager=man,
                        os_group=group_name,
                        group=g,
                        pypi_platforms=wheels,
                    )
                    for g in _code_block_groups(block)
                    if g.lines
                )
                block = context = None
            elif not raw.strip().startswith("Not supported in LTS"):
                block.append(raw)
            continue
        if m := _RELEASE_HEADING.match(raw):
            release, manager, os_group = m.group(1), None, None
        elif raw.startswith("#### "):
            name = raw[5:].strip().lower()
            if name not in ("conda", "wheel"):
                msg = f"unknown manager heading {raw!r}"
                raise PageFormatError(msg)
            manager = "conda" if name == "conda" else "pip"
        elif raw.startswith("##### "):
            os_group = _normalize_heading(raw[6:])
            if _os_group_platforms(os_group) is None:
                msg = f"unknown platform heading {raw!r}"
                raise PageFormatError(msg)
        elif raw.strip() == "```" and release is not None:
            if manager is None or os_group is None:
                msg = f"v{release}: a code block outside a manager/platform heading"
                raise PageFormatError(msg)
            block, context = [], (release, manager, os_group)
    commands += _old_conda_commands(lines[old_at:])
    return commands


_COPY_HEADING: Final = re.compile(r"^(#{2,6}) (.*?)\s*(?:\[\]\([^)]*\)|#[a-z0-9-]+)?$")


def copy_to_page(text: str) -> str:
    r"""A stored copy of the rendered page -> the page's own markdown shape.

    Copies of the live page lose the markdown source: headings carry their anchors
    ("### v2.9.1#v260" in a text capture, "### v2.4.0[](https://...#v240)" in a blog copy) and
    code blocks lose their fences (bare lines, or 4-space indented ones). This strips the anchors
    and puts the lines after each `#####` heading back into one fenced block; command text is left
    as it is.

    >>> print(copy_to_page("### v1.0.0#v1\n#### Wheel#wheel\n##### OSX#osx\n\n    pip install a\n"))
    ### v1.0.0
    #### Wheel
    ##### OSX
    ```
    pip install a
    ```
    <BLANKLINE>
    """
    out: list[str] = []
    block: list[str] | None = None

    def close() -> None:
        nonlocal block
        if block:
            out.extend(["```", *block, "```"])
        block = None

    for raw in text.splitlines():
        line = raw.rstrip()
        if m := _COPY_HEADING.match(line):
            close()
            out.append(f"{m.group(1)} {m.group(2)}")
            if len(m.group(1)) == 5:
                block = []
            continue
        if block is None or not line.strip():
            continue
        block.append(line.removeprefix("    "))
    close()
    return "\n".join(out) + "\n"


def parse_copies(
    wheels: WheelPlatforms | None = None,
    directory: Path = COPIES_DIR,
    *,
    after: str | None = None,
) -> list[tuple[PublishedCommand, str]]:
    """Every command of the stored page copies with the copy it comes from, newest release first.

    A release is taken from the first copy (COPIES order) that has it; a later copy holding the same
    release must publish the same commands (else PageFormatError). Releases up to `after` (the
    recorded page's newest) are left out: the recorded page is the better source for them.
    """
    chosen: dict[str, tuple[list[PublishedCommand], str]] = {}
    for name, source in COPIES:
        path = directory / name
        if not path.is_file():
            continue
        cmds = parse_previous_versions(
            copy_to_page(path.read_text(encoding="utf-8")), wheels=wheels
        )
        by_release: dict[str, list[PublishedCommand]] = {}
        for cmd in cmds:
            by_release.setdefault(cmd.release, []).append(cmd)
        for release, group in by_release.items():
            if after is not None and Version(release) <= Version(after):
                continue
            if release not in chosen:
                chosen[release] = (group, source)
                continue
            if _command_facts(chosen[release][0]) != _command_facts(group):
                msg = f"v{release}: {name} disagrees with {chosen[release][1]}"
                raise PageFormatError(msg)
    out: list[tuple[PublishedCommand, str]] = []
    for release in sorted(chosen, key=Version, reverse=True):
        group, source = chosen[release]
        out.extend((cmd, source) for cmd in group)
    return out


def _command_facts(cmds: Iterable[PublishedCommand]) -> list[tuple[object, ...]]:
    return [(c.manager, c.os_group, c.label, tuple(c.command.split()), c.platforms) for c in cmds]


def unsupported_commands(cmds: Iterable[PublishedCommand]) -> list[PublishedCommand]:
    """The commands that become no row: the schema cannot say them, or no platform is known."""
    return [c for c in cmds if not c.expressible]


def _conda_pins(row: Mapping[str, Any]) -> tuple[object, ...]:
    return (
        row["release"],
        row["kind"],
        row["version"],
        row["pytorch"],
        row["torchvision"],
        row["torchaudio"],
        row["form"],
        tuple(row["channels"]),
    )


def with_inferred_platforms(
    cmds: Iterable[PublishedCommand], inferred_conda: Iterable[Row]
) -> list[PublishedCommand]:
    """Give platform-less "OSX" conda commands the macOS platforms inferred-builds.yaml vouches.

    The page's "OSX" conda lines of torch 2.3-2.5 name no platform PyPI can confirm (no x86_64
    macOS wheel any more); a hand-curated conda row with exactly the command's pins, form and
    channels says which macOS platforms the pytorch channel had it for (its `source`). Other
    commands are returned unchanged: this only answers "which platform", never "which pins".
    """
    vouched: dict[tuple[object, ...], list[Platform]] = {}
    for row in inferred_conda:
        macos = [p for p in row["platforms"] if p in MACOS]
        if macos:
            vouched.setdefault(_conda_pins(row), []).extend(macos)
    out: list[PublishedCommand] = []
    for cmd in cmds:
        found: list[Platform] = []
        if (cmd.manager, cmd.os_group, cmd.platforms, cmd.unsupported) == ("conda", "osx", (), ""):
            key = (
                cmd.release,
                cmd.kind,
                cmd.version,
                cmd.pin("pytorch"),
                cmd.pin("torchvision"),
                cmd.pin("torchaudio"),
                _conda_form(cmd),
                cmd.channels,
            )
            found = vouched.get(key, [])
        out.append(
            dataclasses.replace(cmd, platforms=tuple(p for p in MACOS if p in found))
            if found
            else cmd
        )
    return out


# --- rows --------------------------------------------------------------------------------------
_KEBAB = str.maketrans("_", "-")
PIP_KEYS: Final = tuple(name.translate(_KEBAB) for name in PipBuild.model_fields)
CONDA_KEYS: Final = tuple(name.translate(_KEBAB) for name in CondaBuild.model_fields)
Row = dict[str, Any]
BuildKey = tuple[str, str, str, str | None]


# The 1.0-1.1 CPU conda packages: name -> the family member it is.
_CPU_PACKAGES: Final = {"pytorch-cpu": "pytorch", "torchvision-cpu": "torchvision"}


def _conda_form(cmd: PublishedCommand) -> str:
    names = [name for name, _ in cmd.packages]
    if "pytorch-cpu" in names:
        return "cpu-package"
    if "pytorch-cuda" in names:
        return "pytorch-cuda"
    if "cudatoolkit" in names:
        return "cudatoolkit"
    if "cpuonly" in names:
        return "cpuonly"
    if any(_CUDA_META.match(n) for n in names):
        return "cuda-meta"
    return "none"


def _pip_row(cmd: PublishedCommand, source: str) -> Row:
    torch = cmd.pin("torch")
    if torch is None:  # excluded by _make_command ("torch is not pinned")
        msg = f"v{cmd.release}: no torch pin in {cmd.command!r}"
        raise PageFormatError(msg)
    row: Row = {
        "kind": cmd.kind,
        "version": cmd.version,
        "release": cmd.release,
        "platforms": list(cmd.platforms),
        "torch": torch,
        "torchvision": cmd.pin("torchvision"),
        "torchaudio": cmd.pin("torchaudio"),
        "index": cmd.index_form,
        "url": cmd.index_url,
        # A plain `pip install torch==X` is PyPI's own wheel for these platforms.
        "pypi-default": cmd.index_form == "pypi",
        "source": source,
        "inferred": False,
    }
    return _validated(PipBuild, _with_published(PipBuild, row, cmd))


def _conda_row(
    cmd: PublishedCommand, source: str, companions: dict[str, tuple[str | None, str | None]]
) -> Row:
    pytorch = cmd.pin("pytorch") or cmd.pin("pytorch-cpu")
    named = {_CPU_PACKAGES.get(name, name) for name, _ in cmd.packages}
    pip_vision, pip_audio = companions.get(cmd.release, (None, None))
    # The LTS commands name torchvision/torchaudio without pins; the pytorch-lts channel held
    # only the release's own companions, which the same section's pip commands pin (inferred).
    vision = (
        cmd.pin("torchvision")
        or cmd.pin("torchvision-cpu")
        or (pip_vision if "torchvision" in named else None)
    )
    audio = cmd.pin("torchaudio") or (pip_audio if "torchaudio" in named else None)
    row: Row = {
        "kind": cmd.kind,
        "version": cmd.version,
        "release": cmd.release,
        "platforms": list(cmd.platforms),
        # The LTS commands name pytorch without a pin; its version comes from the heading.
        "pytorch": pytorch if pytorch is not None else cmd.release,
        "torchvision": vision,
        "torchaudio": audio,
        "form": _conda_form(cmd),
        "channels": list(cmd.channels),
        "pinned": pytorch is not None,
        "source": source,
        "inferred": pytorch is None
        or vision != (cmd.pin("torchvision") or cmd.pin("torchvision-cpu"))
        or audio != cmd.pin("torchaudio"),
    }
    return _validated(CondaBuild, _with_published(CondaBuild, row, cmd))


def _with_published(model: type[PipBuild | CondaBuild], row: Row, cmd: PublishedCommand) -> Row:
    """Record the page's exact command when envgen's rendering of the row differs from it."""
    build = model.model_validate(row)
    rendered = pip_command(build) if isinstance(build, PipBuild) else conda_command(build)
    if rendered.split() != cmd.command.split():
        row = {**row, "published": " ".join(cmd.command.split())}
    return row


def _validated(model: type[PipBuild | CondaBuild], row: Row) -> Row:
    """Validate against the schema and return the complete row in schema key order."""
    dumped: Row = model.model_validate(row).model_dump(by_alias=True, mode="json")
    return dumped


def _keys(row: Row) -> list[BuildKey]:
    return [(row["release"], p, row["kind"], row["version"]) for p in row["platforms"]]


def commands_to_rows(
    cmds: Iterable[PublishedCommand], *, source: str = "previous-versions"
) -> tuple[list[Row], list[Row]]:
    """Pip and conda build rows (complete dicts, schema key order) for the expressible commands.

    A plain-PyPI command whose (release, platform, kind, version) also has an explicit-index
    command only sets `pypi-default: true` on that row; any other duplicate key is an error.
    """
    cmds = list(cmds)
    companions = parse_companions(cmds)
    pip_rows: list[Row] = []
    conda_rows: list[Row] = []
    pypi_only: list[Row] = []
    for cmd in cmds:
        if not cmd.expressible:
            continue
        if cmd.manager == "conda":
            conda_rows.append(_conda_row(cmd, source, companions))
        elif cmd.index_form == "pypi" and cmd.os_group != "osx":
            pypi_only.append(_pip_row(cmd, source))
        else:
            pip_rows.append(_pip_row(cmd, source))
    explicit = {k: row for row in pip_rows for k in _keys(row)}
    for row in pypi_only:
        hits = [explicit[k] for k in _keys(row) if k in explicit]
        if not hits:
            pip_rows.append(row)
            continue
        for hit in hits:
            hit["pypi-default"] = True
        rest = [
            p
            for p in row["platforms"]
            if (row["release"], p, row["kind"], row["version"]) not in explicit
        ]
        if rest:
            pip_rows.append({**row, "platforms": rest})
    for name, rows in (("pip", pip_rows), ("conda", conda_rows)):
        seen: set[BuildKey] = set()
        for row in rows:
            for k in _keys(row):
                if k in seen:
                    msg = f"{name}: two page commands for {k}"
                    raise PageFormatError(msg)
                seen.add(k)
    return sort_rows(pip_rows), sort_rows(conda_rows)


def _row_sort_key(row: Row) -> tuple[Version, tuple[int, ...], tuple[int, tuple[int, ...]]]:
    group = tuple(PLATFORMS.index(p) for p in row["platforms"])
    return (Version(row["release"]), group, compute_sort_key(row["kind"], row["version"]))


def sort_rows(rows: Iterable[Row]) -> list[Row]:
    """Sort by release, platform group, then cpu < cuda < rocm < xpu and version ascending."""
    return sorted(rows, key=_row_sort_key)


def merge_inferred(page_rows: list[Row], inferred_rows: Iterable[Row]) -> list[Row]:
    """Append hand-curated rows; a platform the page already covers is dropped from them.

    One fact survives the drop: a PyPI-default row (`index: pypi`, `pypi-default: true`) whose
    build the page publishes through an index (2.4+: `--index-url .../cu121`, which is also what
    a plain `pip install torch==2.4.0` gets on Linux) marks that page row `pypi-default: true` for
    the platforms concerned, splitting it when only some of its platforms have that default.
    A conda row marked `conda-default: true` (the build a `pytorch` line with no selector
    installed: 1.0.0's CUDA 9.0, which the page writes with its cuda90 metapackage) marks the
    page's row of the same pytorch pin likewise.
    """
    taken = {k: row for row in page_rows for k in _keys(row)}
    defaults: dict[BuildKey, str] = {}
    merged = list(page_rows)
    for row in inferred_rows:
        keep = []
        for p in row["platforms"]:
            key = (row["release"], p, row["kind"], row["version"])
            hit = taken.get(key)
            if hit is None:
                keep.append(p)
            elif _is_pypi_default(row) and _public(hit.get("torch")) == _public(row.get("torch")):
                defaults[key] = "pypi-default"
            elif row.get("conda-default") and hit.get("pytorch") == row.get("pytorch"):
                defaults[key] = "conda-default"
            else:
                print(
                    f"inferred-builds.yaml: the page already covers {row['release']} {row['kind']} "
                    f"{row['version'] or ''} on {p}",
                    file=sys.stderr,
                )
        if keep:
            merged.append({**row, "platforms": keep})
    out: list[Row] = []
    for row in merged:
        marks = {
            p: defaults[k]
            for p in row["platforms"]
            if (k := (row["release"], p, row["kind"], row["version"])) in defaults
        }
        marked = list(marks)
        flag = next(iter(marks.values()), "")
        if not marked or row.get(flag):
            out.append(row)
            continue
        out.append({**row, "platforms": marked, flag: True})
        rest = [p for p in row["platforms"] if p not in marked]
        if rest:
            out.append({**row, "platforms": rest})
    return sort_rows(out)


def _is_pypi_default(row: Row) -> bool:
    return row.get("index") == "pypi" and bool(row.get("pypi-default"))


def copy_rows(
    wheels: WheelPlatforms | None, *, after: str, directory: Path = COPIES_DIR
) -> list[Row]:
    """Pip rows for the releases the stored page copies add after the recorded page."""
    by_source: dict[str, list[PublishedCommand]] = {}
    for cmd, source in parse_copies(wheels, directory, after=after):
        by_source.setdefault(source, []).append(cmd)
    rows: list[Row] = []
    for source, cmds in by_source.items():
        pip, _conda = commands_to_rows(cmds, source=source)
        rows += pip
    return sort_rows(rows)


def parse_companions(cmds: Iterable[PublishedCommand]) -> dict[str, tuple[str | None, str | None]]:
    """torch release -> (torchvision, torchaudio) as the page's pip commands pair them.

    Uses the Linux pip commands without local labels, taking the pair most of them agree on
    (1.10.x ROCm 4.0.1 builds use torchvision 0.10.x while the rest use 0.11.x); a release with
    no usable Linux pip command (1.0.0-1.1.0) falls back to its macOS pip command.
    """
    by_release: dict[str, Counter[tuple[str | None, str | None]]] = {}
    fallback: dict[str, tuple[str | None, str | None]] = {}
    for cmd in cmds:
        if cmd.manager != "pip" or not cmd.packages or cmd.unsupported:
            continue
        pair = (_public(cmd.pin("torchvision")), _public(cmd.pin("torchaudio")))
        if "linux-64" in cmd.platforms:
            by_release.setdefault(cmd.release, Counter())[pair] += 1
        else:
            fallback.setdefault(cmd.release, pair)
    out = {rel: fallback[rel] for rel in fallback}
    for rel, counts in by_release.items():
        out[rel] = counts.most_common(1)[0][0]
    return dict(sorted(out.items(), key=lambda kv: Version(kv[0])))


def _public(version: str | None) -> str | None:
    return version.split("+")[0] if version else version


# --- PyPI wheel platforms ------------------------------------------------------------------------
def _tag_platforms(filename: str) -> set[str]:
    """Envgen platforms of one wheel file name ('any' for pure-Python wheels).

    >>> sorted(_tag_platforms("torch-2.3.1-cp311-none-macosx_11_0_arm64.whl"))
    ['osx-arm64']
    """
    found: set[str] = set()
    for tag in filename[: -len(".whl")].rsplit("-", maxsplit=1)[-1].split("."):
        if tag == "any":
            found.add("any")
        elif tag.startswith("macosx") and tag.endswith("universal2"):
            found |= {"osx-64", "osx-arm64"}
        elif (platform := wheel_platform(tag)) is not None:
            found.add(platform)
    return found


def condense_pypi(pypi_json: dict[str, Any]) -> dict[str, list[str]]:
    """PyPI's JSON API answer for one project -> {version: sorted platforms with a wheel}."""
    out: dict[str, list[str]] = {}
    for version, files in pypi_json["releases"].items():
        plats: set[str] = set()
        for f in files:
            # Yanked files count: an exact == pin still installs them (PEP 592).
            if f["filename"].endswith(".whl"):
                plats |= _tag_platforms(f["filename"])
        out[version] = sorted(plats)
    return dict(sorted(out.items()))


# --- YAML --------------------------------------------------------------------------------------
_PLAIN: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_.+\-]*$")


def _scalar(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    text = str(value)
    if _PLAIN.match(text) and yaml.safe_load(text) == text:
        return text
    return "'" + text.replace("'", "''") + "'"


_DEFAULTS: Final[dict[str, object]] = {
    "version": None,
    "url": None,
    "wheel": None,
    "torchvision-wheel": None,
    "torchvision": None,
    "torchaudio": None,
    "python": None,
    "torchvision-python": None,
    "torchaudio-python": None,
    "built": None,
    "pypi-default": False,
    "published": None,
    "pinned": True,
    "conda-default": False,
    "inferred": False,
}

PIP_HEADER: Final = """\
# pip builds of torch: how each release was published for pip, per platform group and compute
# platform. GENERATED by scripts/refresh_matrix.py from PyTorch's previous-versions page (rows
# with `inferred: true` come from matrices/inferred-builds.yaml); edit those, not this file.
# Regenerate: python scripts/refresh_matrix.py --recorded --write (schema: model/matrix_schema.py)
#
# kind          cpu | cuda | rocm | xpu
# version       CUDA / ROCm version ("11.8", "5.1.1"); absent for cpu
# release       the torch release (public version)
# platforms     envgen platforms the command holds for
# torch         the exact torch pin, with its local label when the page writes one
# torchvision   the torchvision pin in the same command (absent: not in the command)
# torchaudio    the torchaudio pin in the same command (absent: not in the command)
# index         pypi | find-links (-f) | extra-index-url | index-url
# url           the -f / index URL exactly as published
# pypi-default  true when PyPI's own wheel for these platforms is this build
# published     the command exactly as the page wrote it, where envgen's rendering differs
# source        previous-versions@<page commit>, or where a hand-curated row comes from
# inferred      true when a person inferred the row rather than read it from a source
"""

CONDA_HEADER: Final = """\
# conda builds of pytorch: how each release was published for conda, per platform group and
# compute platform. GENERATED by scripts/refresh_matrix.py from PyTorch's previous-versions page
# (rows with `inferred: true` are hand-curated in matrices/inferred-builds.yaml, or have a pin the
# page command omits); edit the sources, not this file.
# Regenerate: python scripts/refresh_matrix.py --recorded --write (schema: model/matrix_schema.py)
#
# kind         cpu | cuda | rocm | xpu
# version      CUDA version ("11.8"); absent for cpu
# release      the torch release (public version)
# platforms    envgen platforms the command holds for
# pytorch      the pytorch pin
# torchvision  the torchvision pin in the same command (absent: not in the command)
# torchaudio   the torchaudio pin in the same command (absent: not in the command)
# form         how the compute platform is chosen: pytorch-cuda=X | cudatoolkit=X | cpuonly |
#              cuda-meta (the cuda100-style metapackage) | none (no selector: macOS) | conda-forge |
#              cpu-package (1.0-1.1: pytorch-cpu / torchvision-cpu with cpuonly)
# channels     the -c channels, in the published order
# published    the command exactly as the page wrote it, where envgen's rendering differs
# pinned       false when the page names the packages without versions (1.8.2 LTS); pins inferred
# conda-default  true when a pytorch line with no selector installed this build (the featureless
#              build of the cuda-meta era; matrices/inferred-builds.yaml marks it)
# source       previous-versions@<page commit>, or where a hand-curated row comes from
# inferred     true when a value was inferred rather than read from a source
"""


def dump_rows(
    rows: Iterable[Mapping[str, object]],
    header: str,
    *,
    scalar: Callable[[Any], str] = _scalar,
    defaults: Mapping[str, object] = _DEFAULTS,
) -> str:
    """One flow mapping per row per line, keys in schema order, default values left out.

    scripts/refresh_releases.py writes releases.yaml with this too (JSON scalars, no defaults).
    """
    lines = [header.rstrip("\n")]
    for row in rows:
        items = [
            f"{k}: {scalar(v)}" for k, v in row.items() if not (k in defaults and v == defaults[k])
        ]
        lines.append("- {" + ", ".join(items) + "}")
    return "\n".join(lines) + "\n"


def load_inferred(path: Path) -> tuple[list[Row], list[Row]]:
    """The hand-curated rows (validated, complete, schema key order); empty when absent."""
    if not path.is_file():
        return [], []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    pip_rows = [_validated(PipBuild, r) for r in data.get("pip") or []]
    conda_rows = [_validated(CondaBuild, r) for r in data.get("conda") or []]
    return pip_rows, conda_rows


def render(
    page: str,
    wheels: WheelPlatforms,
    commit: str,
    inferred: Path = INFERRED_FILE,
    copies: Path = COPIES_DIR,
) -> dict[str, str]:
    """The text of matrices/pip.yaml and matrices/conda.yaml for this page and PyPI data."""
    cmds = parse_previous_versions(page, wheels=wheels)
    pip_rows, conda_rows = commands_to_rows(cmds, source=f"previous-versions@{commit[:7]}")
    newest = max((c.release for c in cmds), key=Version)
    pip_rows = sort_rows(pip_rows + copy_rows(wheels, after=newest, directory=copies))
    extra_pip, extra_conda = load_inferred(inferred)
    return {
        "pip.yaml": dump_rows(merge_inferred(pip_rows, extra_pip), PIP_HEADER),
        "conda.yaml": dump_rows(merge_inferred(conda_rows, extra_conda), CONDA_HEADER),
    }


# --- fetch (network) ---------------------------------------------------------------------------
def fetch_page(commit: str) -> str:
    return http_get(PAGE_URL.format(repo=PAGE_REPO, commit=commit, path=PAGE_PATH)).decode("utf-8")


def fetch_wheels() -> WheelPlatforms:
    return {
        name: condense_pypi(json.loads(http_get(PYPI_JSON_URL.format(name=name))))
        for name in TORCH_FAMILY
    }


def recorded_commit(sources: Path = SOURCES_FILE) -> str:
    """The page commit written next to the recorded page in SOURCES.md."""
    for line in sources.read_text(encoding="utf-8").splitlines():
        if "previous-versions.md" in line and (m := re.search(r"\b([0-9a-f]{40})\b", line)):
            return m.group(1)
    msg = f"{sources}: no commit recorded for previous-versions.md"
    raise SystemExit(msg)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument(
        "--recorded", action="store_true", help="parse tests/data/recorded/ instead of fetching"
    )
    parser.add_argument(
        "--commit", help="page commit to fetch (40 hex digits); needed without --recorded"
    )
    parser.add_argument(
        "--write", action="store_true", help="write the files (default: print a diff)"
    )
    parser.add_argument(
        "--record", action="store_true", help="with a fetch, also rewrite tests/data/recorded/"
    )
    args = parser.parse_args(argv)
    if args.recorded:
        page = PAGE_FILE.read_text(encoding="utf-8")
        wheels: WheelPlatforms = json.loads(WHEELS_FILE.read_text(encoding="utf-8"))
        commit = recorded_commit()
    else:
        if not args.commit or not re.fullmatch(r"[0-9a-f]{40}", args.commit):
            parser.error("give --commit <40-hex sha> (or --recorded)")
        commit = args.commit
        page, wheels = fetch_page(commit), fetch_wheels()
        if args.record:
            PAGE_FILE.write_text(page, encoding="utf-8", newline="")
            WHEELS_FILE.write_text(
                json.dumps(wheels, indent=1, sort_keys=True) + "\n", encoding="utf-8"
            )
            print(f"recorded; update {SOURCES_FILE.name} with commit {commit}", file=sys.stderr)
    changed = False
    for name, text in render(page, wheels, commit).items():
        path = MATRICES / name
        old = path.read_text(encoding="utf-8") if path.is_file() else ""
        if old == text:
            continue
        changed = True
        sys.stdout.writelines(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                text.splitlines(keepends=True),
                f"a/matrices/{name}",
                f"b/matrices/{name}",
            )
        )
        if args.write:
            path.write_text(text, encoding="utf-8", newline="\n")
    _, inferred_conda = load_inferred(INFERRED_FILE)
    cmds = with_inferred_platforms(parse_previous_versions(page, wheels=wheels), inferred_conda)
    for cmd in unsupported_commands(cmds):
        print(
            f"no row: v{cmd.release} {cmd.manager} {cmd.os_group} {cmd.label!r}: "
            f"{cmd.unsupported or 'no platform'}",
            file=sys.stderr,
        )
    return 1 if changed and not args.write else 0


if __name__ == "__main__":
    raise SystemExit(main())
