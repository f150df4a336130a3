"""Stamps of verified locks: this machine wrote or re-resolved these very lock bytes before.

A stamp is a file in the user's cache whose name is a hash of the lock texts and of what a
re-resolution depends on besides the spec and matrix (which the locks' input-hash covers).
`envgen lock` stamps what it writes and what its triage verified (`<cache>/verified-locks/`, an
empty file); a plain relock skips the re-resolution of a stamped lock (issue 21 item 6).

`envgen build` keeps stamps of its own (`<cache>/verified-builds/`, issue 27): a build's lock
check re-resolves the lock, and that re-resolution also prints lines a build shows (the
PyTorch index "gives no upload times", the interpreter sdists are built with). A build stamp
holds those lines, so a later build of the same bytes prints them again without resolving; a
lock's empty stamp cannot stand for them, so a build never trusts one. A verification that
logged a transient line (a retried GET, an index that did not answer) or ran with the lines
filtered (`-q`) leaves no build stamp. Best effort: a stamp that cannot be written or read
costs a re-resolution next time. Must not resolve anything itself (envgen.lock.verify does).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from envgen import __version__
from envgen.errors import EnvgenError
from envgen.infra.files import atomic_write_bytes, input_hash, normalize_text, read_output
from envgen.infra.proc import redact, strip_credentials
from envgen.infra.settings import Settings
from envgen.model.variants import Variant

_LOCK_STAMPS: Final = "verified-locks"
_BUILD_STAMPS: Final = "verified-builds"
# A build stamp holds a few log lines; anything larger is not one envgen wrote.
_MAX_STAMP_BYTES: Final = 64 * 1024
# `log.warning(..., extra=TRANSIENT)`: a line about this run's network, not about the lock
# (envgen.infra.network's retries, envgen.lock.pip's unanswered project list write it literally).
TRANSIENT: Final = {"envgen_transient": True}


def index_urls_for_stamp(settings: Settings) -> list[str | None]:
    """The user's index settings that decide a resolution, without credentials."""
    return [
        strip_credentials(u) if u else None
        for u in (
            settings.pytorch_index,
            settings.pypi_index,
            settings.extension_index,
            settings.channel_alias,
        )
    ]


def stamp_path(
    v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str, *, build: bool = False
) -> Path:
    """Where the stamp of these lock bytes, verified with these settings, lives.

    The key covers what a verification depends on besides the spec and matrix (which the
    locks' input-hash covers): the lock texts (their `lock-options:` line included: a
    verification resolves with the options the lock records, never the command's), the indexes
    and channel alias it resolves against (credentials removed), the conda tool and envgen's
    version.
    """
    key = input_hash(
        {
            "stamp": 1,
            "envgen": __version__,
            "variant": v.id,
            "texts": {n: normalize_text(t) if t else "" for n, t in sorted(texts.items())},
            "indexes": index_urls_for_stamp(settings),
            "conda_tool": conda_tool,
        }
    )
    folder = _BUILD_STAMPS if build else _LOCK_STAMPS
    return settings.cache_root / folder / key.removeprefix("sha256:")


def stamped(v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str) -> bool:
    """Whether `envgen lock` wrote or verified these lock bytes with these settings."""
    return stamp_path(v, texts, settings, conda_tool).is_file()


def stamp(v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str) -> None:
    """Record that `envgen lock` wrote or verified these lock bytes (best effort)."""
    with contextlib.suppress(OSError, EnvgenError):
        atomic_write_bytes(stamp_path(v, texts, settings, conda_tool), b"")


@dataclass(slots=True)
class Recorded:
    """The log lines (level, text) a verification printed, and whether one was transient."""

    lines: list[tuple[int, str]] = field(default_factory=list)
    transient: bool = False
    filtered: bool = False


class _Recorder(logging.Handler):
    def __init__(self, into: Recorded) -> None:
        super().__init__(logging.INFO)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "envgen_transient", False):
            self.into.transient = True
        # Redacted as the console prints it: no credential is written to the cache.
        self.into.lines.append((record.levelno, redact(record.getMessage())))


@contextlib.contextmanager
def recording() -> Iterator[Recorded]:
    """The lines envgen's loggers print (INFO and above) while the block runs.

    `filtered` is set when INFO lines are not being made (`-q`): the record is then incomplete.
    """
    into = Recorded()
    root = logging.getLogger("envgen")
    into.filtered = not root.isEnabledFor(logging.INFO)
    handler = _Recorder(into)
    root.addHandler(handler)
    try:
        yield into
    finally:
        root.removeHandler(handler)


def build_stamp(
    v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str
) -> list[tuple[int, str]] | None:
    """The lines a build's verification of these bytes printed, or None when there is no
    (readable, well-formed) build stamp."""
    path = stamp_path(v, texts, settings, conda_tool, build=True)
    try:
        raw = read_output(path, limit=_MAX_STAMP_BYTES)
        data = json.loads(raw) if raw is not None else None
    except (OSError, EnvgenError, ValueError):
        return None
    lines = data.get("lines") if isinstance(data, dict) else None
    if not isinstance(lines, list) or not all(
        isinstance(x, list)
        and len(x) == 2  # [level, text]
        and isinstance(x[0], int)
        and isinstance(x[1], str)
        for x in lines
    ):
        return None
    return [(level, text) for level, text in lines]


def stamp_build(
    v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str, seen: Recorded
) -> None:
    """Record a build's passed verification and the lines it printed (best effort; none when
    a line was transient or the lines were filtered)."""
    if seen.transient or seen.filtered:
        return
    data = json.dumps({"lines": [[level, text] for level, text in seen.lines]}, sort_keys=True)
    with contextlib.suppress(OSError, EnvgenError):
        atomic_write_bytes(
            stamp_path(v, texts, settings, conda_tool, build=True), data.encode() + b"\n"
        )


__all__ = [
    "TRANSIENT",
    "Recorded",
    "build_stamp",
    "index_urls_for_stamp",
    "recording",
    "stamp",
    "stamp_build",
    "stamp_path",
    "stamped",
]
