"""Read a variant's committed lock files into what the vault stores: the ONE adapter.

Everything in envgen/vault/ reads locks through `read_locked` only: requirements.txt through the
typed PipLock record (envgen.lock.piplock), conda-lock.yml through build.conda.parse_conda_lock.

Must not fetch, write, or decide what a build installs: it only says what the lock names.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from packaging.utils import InvalidWheelFilename, parse_wheel_filename

from envgen.build.builder import read_lock
from envgen.build.conda import parse_conda_lock
from envgen.errors import BuildError
from envgen.lock.lockfile import CONDA_LOCK, LOCK_FILES_PIP
from envgen.lock.piplock import PipLock
from envgen.model.variants import Variant


@dataclass(frozen=True, slots=True, kw_only=True)
class PipPin:
    """One pinned distribution of a requirements lock and the sha256 of every file it allows."""

    name: str
    version: str
    hashes: tuple[str, ...]
    url: str | None = None  # a direct-URL pin (`torch @ https://...whl`)


@dataclass(frozen=True, slots=True, kw_only=True)
class CondaPin:
    """One conda package of a conda-lock file: its URL and digests."""

    name: str
    version: str
    url: str
    sha256: str | None
    md5: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class LockedVariant:
    """What a variant's lock files name: pins, index lines, conda packages, each file's digest."""

    variant: str
    pip: tuple[PipPin, ...]
    index_lines: tuple[tuple[str, str], ...]
    conda: tuple[CondaPin, ...]
    files: tuple[tuple[str, str], ...]  # (lock file name, sha256 of its bytes), sorted


def _url_version(url: str) -> str:
    """The version in a direct URL's wheel name ("" when it names no wheel)."""
    name = url.rsplit("/", 1)[-1].split("#", 1)[0].replace("%2B", "+")
    try:
        return str(parse_wheel_filename(name)[1])
    except InvalidWheelFilename:
        return ""


def _pip_pins(lock: PipLock, source: str) -> tuple[PipPin, ...]:
    pins: list[PipPin] = []
    for pin in lock.pins:
        hashes = tuple(sorted({h.split(":", 1)[1] for h in pin.hashes if h.startswith("sha256:")}))
        if not hashes:
            msg = f"{source}: {pin.name} has no --hash: the vault keeps only hash-pinned files"
            raise BuildError(msg, hint="run `envgen lock` to write a full lock")
        version = pin.version or _url_version(pin.url or "")
        pins.append(PipPin(name=pin.name, version=version, hashes=hashes, url=pin.url))
    return tuple(sorted(pins, key=lambda p: p.name))


def read_locked(lock_dir: Path, variant: Variant) -> LockedVariant:
    """The artifacts a variant's committed locks name (the vault's only view of a lock).

    Raises:
        BuildError: no full lock in `lock_dir`, or a pin without hashes.
    """
    pip: tuple[PipPin, ...] = ()
    index: tuple[tuple[str, str], ...] = ()
    conda: list[CondaPin] = []
    files: list[tuple[str, str]] = []
    for name in LOCK_FILES_PIP:
        path = lock_dir / name
        if variant.pip is None or not path.is_file():
            continue
        text = read_lock(path, variant.id)
        lock = PipLock.parse(text, source=str(path))
        index = tuple(lock.index_options)
        pip = _pip_pins(lock, str(path))
        files.append((name, hashlib.sha256(text.encode()).hexdigest()))
    conda_path = lock_dir / CONDA_LOCK
    if variant.conda is not None and conda_path.is_file():
        text = read_lock(conda_path, variant.id)
        for entry in parse_conda_lock(text, source=str(conda_path)):
            if entry.manager != "conda" or entry.platform != variant.platform:
                continue
            conda.append(
                CondaPin(
                    name=entry.name,
                    version=entry.version,
                    url=entry.url,
                    sha256=entry.sha256,
                    md5=entry.md5,
                )
            )
        files.append((CONDA_LOCK, hashlib.sha256(text.encode()).hexdigest()))
    if not files:
        msg = f"{lock_dir}: no full lock of {variant.id} (requirements.txt or {CONDA_LOCK})"
        raise BuildError(msg, hint=f"run `envgen lock --variant {variant.id}` first")
    return LockedVariant(
        variant=variant.id,
        pip=pip,
        index_lines=index,
        conda=tuple(sorted(conda, key=lambda c: (c.name, c.url))),
        files=tuple(sorted(files)),
    )
