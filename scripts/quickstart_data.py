"""Read PyTorch's quick-start data (pytorch.github.io `published_versions.json`) as commands.

The quick-start selector on pytorch.org is filled from `published_versions.json`: per version
("preview", "2.4.0", ..., "lts-1.8.2"), OS (linux, macos, windows), manager (pip, conda,
libtorch) and accelerator key (accnone, cuda10.2, cuda.x, cuda11.6, rocm5.x, ...) a `note` and a
`command` (libtorch: download links instead). pytorch/test-infra's release tooling regenerates the
file; its keys are *slots*, not CUDA versions: "cuda.x" is CUDA 11.3 for 1.11.0 and CUDA 11.8 for
2.1.0. What a key means for a version is read from that version's own commands (an index URL
`.../whl/cu118`, a local label `+cu113`, `cudatoolkit=11.3`, `pytorch-cuda=12.1`), never guessed
from the key's name.

Pure: JSON text in, `QuickStartEntry` / `PublishedCommand` records out, parsed with the
previous-versions page's own command parsers (`refresh_matrix._parse_pip`, `_parse_conda`). It
must not fetch anything, and it makes no matrix rows: the page (scripts/refresh_matrix.py) and
matrices/inferred-builds.yaml stay the matrix's sources;
tests/unit/render/test_quickstart_data.py checks the matrix against this data.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final, Literal

from refresh_matrix import (
    RECORDED,
    PageFormatError,
    PublishedCommand,
    WheelPlatforms,
    _command_compute,
    _macos_platforms,
    _parse_conda,
    _parse_pip,
)

from envgen.model.matrix import accelerator_id
from envgen.model.types import ComputeKind, Platform

QUICKSTART_FILE: Final = RECORDED / "published-versions.json"
# The recorded versions of the file (tests/data/recorded/SOURCES.md), newest first, with the tag
# their cells' idents carry ("" for the newest).
QUICKSTART_FILES: Final[tuple[tuple[Path, str], ...]] = (
    (QUICKSTART_FILE, ""),
    (RECORDED / "published-versions-1.11.0.json", "1.11.0-era"),
    (RECORDED / "published-versions-fork-2.7.0.json", "fork-2.7.0"),
)

Os = Literal["linux", "macos", "windows"]
_OS_PLATFORMS: Final[dict[str, tuple[Platform, ...]]] = {
    "linux": ("linux-64",),
    "windows": ("win-64",),
}
_LTS_PREFIX: Final = "lts-"
# An index or -f URL that names its compute platform: .../whl/cu113, .../whl/lts/1.8/cpu,
# .../whl/cu113/torch_stable.html, .../whl/rocm4.2/torch_stable.html.
_URL_CUDA: Final = re.compile(r"/cu(\d+)(\d)(?:/|$)")
_URL_ROCM: Final = re.compile(r"/rocm(\d+(?:\.\d+)*)(?:/|$)")
_URL_CPU: Final = re.compile(r"/cpu(?:/|$)")
_KEY_CUDA: Final = re.compile(r"^cuda(\d+\.\d+)$")  # "cuda10.2", "cuda11.6": the key names it
# `conda install pytorch::pytorch ...` / `pytorch-nightly::pytorch`: a channel-qualified spec.
_CHANNEL_SPEC: Final = re.compile(r"(?<!\S)([A-Za-z0-9_.\-]+)::(?=[A-Za-z])")

Compute = tuple[ComputeKind, str | None]
# "For x64: pip3 install ... \n For arm64: pip3 install ..." (2.7.0 Windows CPU): prose, per arch.
_PROSE_PART: Final = re.compile(r"For (\w+): (.*?)(?=\s*For \w+:|$)", re.DOTALL)
_COMMANDS: Final = ("pip install ", "pip3 install ", "conda install ")
_SILENT: Final = "says nothing of its compute platform"
PLAIN_PYPI: Final = "plain PyPI: the key's compute platform for this version (its other commands)"


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class QuickStartEntry:
    """One (version, os, manager, key) cell of the quick-start data, exactly as stored."""

    version: str
    os: str
    manager: str
    key: str
    note: str | None
    command: str | None
    default: bool = False
    source: str = ""  # which recorded version of the file ("" for the newest)

    @property
    def release(self) -> str | None:
        """The torch release the cell is for ("lts-1.8.2" -> "1.8.2"); None for "preview"."""
        if self.version == "preview":
            return None
        return self.version.removeprefix(_LTS_PREFIX)

    @property
    def ident(self) -> str:
        cell = f"{self.version}-{self.os}-{self.manager}-{self.key}"
        return f"{self.source}:{cell}" if self.source else cell


def load_entries(text: str, source: str = "") -> list[QuickStartEntry]:
    """Every cell of the file, in file order (libtorch and preview cells included).

    >>> doc = '{"versions": {"2.0.0": {"linux": {"pip": {"accnone": {"note": null, '
    >>> doc += '"command": "pip3 install torch"}}}}}}'
    >>> [e.ident for e in load_entries(doc)]
    ['2.0.0-linux-pip-accnone']

    Raises:
        PageFormatError: the file is not the shape this reader knows.
    """
    doc = json.loads(text)
    versions = doc.get("versions") if isinstance(doc, dict) else None
    if not isinstance(versions, dict):
        msg = "published_versions.json: no 'versions' mapping"
        raise PageFormatError(msg)
    out: list[QuickStartEntry] = []
    for version, oses in versions.items():
        for os_name, managers in _mapping(oses, version).items():
            for manager, keys in _mapping(managers, f"{version}.{os_name}").items():
                for key, raw in _mapping(keys, f"{version}.{os_name}.{manager}").items():
                    where = f"{version}.{os_name}.{manager}.{key}"
                    cell = _mapping(raw, where)
                    command = cell.get("command")
                    note = cell.get("note")
                    if not isinstance(command, str | None) or not isinstance(note, str | None):
                        msg = f"published_versions.json: {where}: note/command is not text or null"
                        raise PageFormatError(msg)
                    out.append(
                        QuickStartEntry(
                            version=version,
                            os=os_name,
                            manager=manager,
                            key=key,
                            note=note,
                            command=command,
                            default=cell.get("default") is True,
                            source=source,
                        )
                    )
    return out


def _mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        msg = f"published_versions.json: {where} is not a mapping"
        raise PageFormatError(msg)
    return value


def load_recorded(path: Path = QUICKSTART_FILE, source: str = "") -> list[QuickStartEntry]:
    return load_entries(path.read_text(encoding="utf-8"), source)


# --- scope -------------------------------------------------------------------------------------
def out_of_scope(entry: QuickStartEntry) -> str:
    """Why a cell is no test case ("" when it is one): nightlies, libtorch, no command."""
    if entry.version == "preview":
        return "preview (nightly) builds: no fixed release to pin; the matrix holds releases only"
    if entry.manager == "libtorch":
        return "libtorch: C++ archives to download, not a pip or conda environment"
    if entry.manager not in ("pip", "conda"):
        msg = f"published_versions.json: {entry.ident}: unknown manager {entry.manager!r}"
        raise PageFormatError(msg)
    if entry.command is None:
        return f"no command, only a note: {entry.note!r}"
    if not entry.command.startswith(_COMMANDS):
        return f"prose, not one command: {entry.command!r}"
    return ""


def prose_parts(command: str) -> dict[str, str]:
    r"""The commands of a prose cell, by the architecture it names ({} when it names none).

    >>> prose_parts("For x64: pip3 install torch \n For arm64: pip3 install torch -i URL")
    {'x64': 'pip3 install torch', 'arm64': 'pip3 install torch -i URL'}
    """
    return {m.group(1): m.group(2).strip() for m in _PROSE_PART.finditer(command)}


# --- what each key means -----------------------------------------------------------------------
def _url_compute(url: str | None) -> Compute | None:
    if url is None:
        return None
    if m := _URL_CUDA.search(url):
        return "cuda", f"{int(m.group(1))}.{m.group(2)}"
    if m := _URL_ROCM.search(url):
        return "rocm", m.group(1)
    if _URL_CPU.search(url):
        return "cpu", None
    return None


def _split(entry: QuickStartEntry) -> tuple[PublishedCommand, tuple[str, ...]]:
    """The command's packages / index / channels, parsed as the page's commands are."""
    assert entry.command is not None  # noqa: S101 - callers take in-scope cells only
    command = " ".join(entry.command.split())
    notes: list[str] = []
    if entry.manager == "pip":
        packages, form, url = _parse_pip(command)
        channels: tuple[str, ...] = ()
    else:
        qualified = _CHANNEL_SPEC.findall(command)
        if qualified:
            notes.append(
                f"channel-qualified spec ({', '.join(q + '::' for q in qualified)}): "
                "the same channel as the first -c"
            )
        packages, channels = _parse_conda(_CHANNEL_SPEC.sub("", command))
        if any(q not in channels[:1] for q in qualified):
            msg = f"{entry.ident}: {command!r} names a channel other than its first -c"
            raise PageFormatError(msg)
        form, url = None, None
    said = _url_compute(url) or _command_compute(packages)
    cmd = PublishedCommand(
        release=entry.release or entry.version,
        manager="pip" if entry.manager == "pip" else "conda",
        os_group=f"quick-start {entry.os}",
        platforms=(),
        label=entry.key,
        kind=said[0] if said else "cpu",
        version=said[1] if said else None,
        command=entry.command,
        packages=packages,
        channels=channels,
        index_form=form,
        index_url=url,
    )
    return cmd, tuple(notes) if said else (*notes, _SILENT)


def key_meanings(entries: Iterable[QuickStartEntry]) -> dict[tuple[str, str], Compute]:
    """(version, key) -> the compute platform the key stands for, read from its commands.

    Linux and Windows commands that name a compute platform (index URL, local label, cudatoolkit /
    pytorch-cuda / cpuonly) vote; they must all agree, and a key that names a CUDA version
    ("cuda10.2") must agree with its commands. macOS cells do not vote: they install the CPU
    build whatever the key (their notes say CUDA/ROCm is not available).

    Raises:
        PageFormatError: two commands of one key name different compute platforms.
    """
    seen: dict[tuple[str, str], tuple[Compute, str]] = {}
    for entry in entries:
        if out_of_scope(entry) or entry.os == "macos":
            continue
        cmd, notes = _split(entry)
        if notes and notes[-1] == _SILENT:
            continue
        said: Compute = (cmd.kind, cmd.version)
        where = (entry.version, entry.key)
        if where in seen and seen[where][0] != said:
            msg = (
                f"published_versions.json: {entry.version} key {entry.key!r}: "
                f"{seen[where][1]} says {seen[where][0]}, {entry.ident} says {said}"
            )
            raise PageFormatError(msg)
        seen.setdefault(where, (said, entry.ident))
    out = {where: compute for where, (compute, _) in seen.items()}
    for (version, key), compute in out.items():
        named = _KEY_CUDA.match(key)
        if named and compute != ("cuda", named.group(1)):
            msg = f"published_versions.json: {version} key {key!r} but its commands say {compute}"
            raise PageFormatError(msg)
    return out


def to_command(
    entry: QuickStartEntry,
    meanings: Mapping[tuple[str, str], Compute],
    *,
    wheels: WheelPlatforms | None = None,
) -> PublishedCommand:
    """An in-scope cell as a PublishedCommand: its compute platform, platforms and notes.

    A command that names no compute platform takes its key's meaning on Linux (plain
    `pip3 install torch ...` is PyPI's default build, e.g. CUDA 10.2 for 1.11.0) and the CPU build
    on macOS and Windows (PyPI's wheels there are CPU builds). macOS means the platforms PyPI has
    a torch wheel of the release for (pip), or osx-64 where there is an x86_64 one (conda), as for
    the page's "OSX" commands (`refresh_matrix._macos_platforms`).
    """
    reason = out_of_scope(entry)
    if reason:
        msg = f"{entry.ident} is not a command: {reason}"
        raise ValueError(msg)
    cmd, notes = _split(entry)
    kind, version = cmd.kind, cmd.version
    if notes and notes[-1] == _SILENT:
        notes = notes[:-1]
        if entry.os == "linux":
            meaning = meanings.get((entry.version, entry.key))
            if meaning is None:
                msg = (
                    f"{entry.ident}: {entry.command!r} names no compute platform; nor does its key"
                )
                raise PageFormatError(msg)
            kind, version = meaning
            notes += (PLAIN_PYPI,)
        else:
            kind, version = "cpu", None
    if entry.os == "macos":
        if (kind, version) != ("cpu", None):
            msg = f"{entry.ident}: a macOS command for {kind} {version}"
            raise PageFormatError(msg)
        release = entry.release or entry.version
        platforms: tuple[Platform, ...]
        if wheels is None:
            platforms = ("osx-64",)
        else:
            platforms = _macos_platforms(release, cmd.manager, (("torch", f"=={release}"),), wheels)
    else:
        platforms = _OS_PLATFORMS[entry.os]
    if entry.note:
        notes = (entry.note, *notes)
    return dataclasses.replace(
        cmd, kind=kind, version=version, platforms=platforms, notes=tuple(notes)
    )


def accelerator(cmd: PublishedCommand) -> str:
    """The envgen compute id of a command ('cpu', 'cu113', 'rocm4.5.2')."""
    return accelerator_id(cmd.kind, cmd.version)


def unpinned(cmd: PublishedCommand) -> bool:
    """True when the command leaves torch unpinned (the release is known only from its key)."""
    return any(not spec for name, spec in cmd.packages if name in ("torch", "pytorch"))


def pinned_note(cmd: PublishedCommand, pinned: str) -> str:
    """The note for a cell whose command leaves torch unpinned, given its pinned equivalent.

    >>> c = PublishedCommand(release="2.0.0", manager="pip", os_group="", platforms=(),
    ...     label="cuda.x", kind="cuda", version="11.7", command="pip3 install torch",
    ...     packages=(("torch", ""),))
    >>> pinned_note(c, "pip install torch==2.0.0")
    "2.0.0 cuda.x: 'pip3 install torch' installs 2.0.0 only while it is the newest release; pinned: pip install torch==2.0.0"
    """  # noqa: E501
    published = " ".join(cmd.command.split())
    return (
        f"{cmd.release} {cmd.label}: {published!r} installs {cmd.release} only while it is the "
        f"newest release; pinned: {pinned}"
    )
