"""Read a variant's committed lock files into what the vault stores: the ONE adapter.

Everything in envgen/vault/ reads locks through `read_locked` only. It uses today's parsers
(lock.lockfile.split_header, build.venv.split_index_lines, build.conda.parse_conda_lock); when the
typed PipLock / CondaLock records land, this function is the one place to switch.

Must not fetch, write, or decide what a build installs: it only says what the lock names.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from packaging.utils import canonicalize_name

from envgen.build.base import parse_requirements, read_lock
from envgen.build.conda import parse_conda_lock
from envgen.build.venv import split_index_lines
from envgen.errors import BuildError
from envgen.lock.lockfile import CONDA_LOCK, LOCK_FILES_PIP, split_header
from envgen.model.variants import Variant

_HASH: Final = re.compile(r"--hash[= ]sha256:([0-9a-f]{64})")


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


def _pip_pins(body: str, source: str) -> tuple[PipPin, ...]:
    versions = parse_requirements(body, source=source)
    # Join continuation lines: `name==1 \` then `--hash=...` lines.
    joined = body.replace("\\\n", " ")
    pins: list[PipPin] = []
    for line in joined.splitlines():
        text = line.split(" #", 1)[0].strip()
        if not text or text.startswith(("#", "-")):
            continue
        head = text.split(";", 1)[0].split(" --hash", 1)[0].strip()
        name = canonicalize_name(re.split(r"[=@\[ ]", head, maxsplit=1)[0])
        url = head.partition("@")[2].strip() or None if "==" not in head else None
        hashes = tuple(sorted(set(_HASH.findall(text))))
        if not hashes:
            msg = f"{source}: {name} has no --hash: the vault keeps only hash-pinned files"
            raise BuildError(msg, hint="run `envgen lock` to write a full lock")
        pins.append(PipPin(name=name, version=versions[name][0], hashes=hashes, url=url))
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
        options, rest = split_index_lines(split_header(text)[1])
        index = tuple(options)
        pip = _pip_pins(rest, str(path))
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
