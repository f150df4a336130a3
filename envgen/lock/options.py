"""What `envgen lock` is asked to do (LockOptions) and what it did (LockResult).

The request and the answer of envgen.app.lock; the lock stage (envgen.lock.orchestrate) and the
build stage, which checks committed locks, take them from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from envgen.infra.settings import Settings


@dataclass(frozen=True, slots=True, kw_only=True)
class LockOptions:
    """Everything `envgen lock` was asked to do."""

    spec: Path
    out: Path | None = None
    variants: tuple[str, ...] = ()
    matrix_dir: Path | None = None
    pins_only: bool = False
    check: bool = False
    resolver: str | None = None
    as_of: str | None = None
    upgrade: bool = False
    upgrade_packages: tuple[str, ...] = ()
    jobs: int | None = None
    conda_tool: str = "rattler"
    # The user's settings (indexes, channel alias, cache root, timeout, header command), resolved
    # once by the caller (the CLI: Settings.from_environ); the lock stage reads no environment.
    settings: Settings


@dataclass(frozen=True, slots=True, kw_only=True)
class LockResult:
    """What a lock run did: lines for the log and warnings to show."""

    lines: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    written: tuple[str, ...] = field(default_factory=tuple)
