"""Lockers: one variant's pinned inputs -> complete, hash-pinned lock file bodies.

A Locker turns a LockRequest into LockedFile bodies (without the envgen header, which the
orchestrator in envgen.lock.orchestrate adds). Lockers resolve in a private work directory and
never write
into the output directory themselves. They start processes only through envgen.infra.proc.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from envgen.model.types import Manager, Resolver
from envgen.model.variants import Variant
from envgen.render.indexes import IndexUrls


@dataclass(frozen=True, slots=True, kw_only=True)
class LockRequest:
    """Everything a locker needs for one variant.

    Attributes:
        urls: the indexes to resolve against (a mirror's URL may carry credentials).
        written_urls: the indexes to name in written files (never with credentials).
        conda_channels: channel name -> URL to solve against (a mirror or a local channel);
            names not in the mapping use https://conda.anaconda.org/<name>.
        previous: the pins of the lock file this run replaces, if any (keeps pins on
            --upgrade-package; ignored on --upgrade): for requirements.txt only
            PipLock.seed_text() (rebuilt pins, never a committed line), for conda-lock.yml
            CondaLock.render().
        workdir: a private, empty directory for this variant's temporary files.
        cache_dir: envgen's cache root (Settings.cache_root): uv's cache is `<cache_dir>/uv`,
            the one `envgen build` uses too; rattler's `rattler/`, pip-tools' `pip-tools/`.
        http_timeout: the user's ENVGEN_HTTP_TIMEOUT (Settings.http_timeout), or None.
        offline: resolve from uv's cache only (`--offline`); a verification tries this first.
    """

    variant: Variant
    urls: IndexUrls
    written_urls: IndexUrls
    conda_channels: dict[str, str]
    exclude_newer: dt.date | None
    resolver: Resolver
    upgrade: bool
    upgrade_packages: tuple[str, ...]
    previous: dict[str, str]
    workdir: Path
    cache_dir: Path | None
    http_timeout: float | None = None
    timeout: float = 900.0
    offline: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LockedFile:
    """One lock file body, named relative to the variant's directory."""

    name: str
    body: str


class Locker(Protocol):
    """A back-end that locks one side (pip or conda) of a variant."""

    manager: Manager

    def lock(self, request: LockRequest) -> tuple[LockedFile, ...]:
        """Resolve and return the lock file bodies; raise LockError in plain words on failure."""
        ...
