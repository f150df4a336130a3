"""Progress events of long steps (lock, build, smoke): what each variant is doing now.

The stages call `phase` / `update` / `finish` at the points a person waiting would want to know
about (resolving, downloading, installing, compiling bytecode, each smoke check); the CLI installs
one listener for a command (`listening`) and draws it (envgen.cli.progress: a live display on a
terminal, plain lines in a log). With no listener every call is a cheap no-op, so library callers
and tests see nothing. Which variant an event belongs to is the one set by `working_on` in the
current thread (the stages run variants on worker threads), so the hooks deep in a builder need
no variant argument.

`uv_lines` and `smoke_lines` read a running tool's stderr line by line (envgen.infra.proc.run's
`on_stderr`) and turn what the tool reports into events: uv's non-interactive messages
(`Downloading torch (176.4MiB)`, ` Downloaded torch`, `Prepared 3 packages in 2.1s`,
astral-sh/uv#11165) and the smoke script's `envgen-smoke: running cpu/tensor-math`.

This module must not print, import a display library or know about specs and variants.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal["start", "phase", "update", "finish"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """One thing a variant's work reported.

    kind: `start` (the variants about to be worked on, in order, in `detail`-less events, one
    each), `phase` (a new step: `phase` names it), `update` (the same step, new `detail` or
    counts), `finish` (done: `phase` is the outcome, "locked", "built", "failed", ...).
    done / total: bytes (unit "bytes") or steps (unit "checks") when the tool says them.
    logged: a `finish` the stage also logs a line of its own for (`cpu: built with pip in
    3.1 s`), which a display of plain lines need not repeat.
    """

    variant: str
    kind: Kind
    phase: str = ""
    detail: str = ""
    done: int | None = None
    total: int | None = None
    unit: Literal["bytes", "checks", ""] = ""
    logged: bool = False


# What `listening` takes: called with each event, from the thread that emitted it.
Listener = Callable[[Event], None]


_LISTENER: Listener | None = None
_LOCK: Final = threading.Lock()
_CURRENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("variant", default=None)


@contextlib.contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send every event to `listener` until the block ends (one listener at a time)."""
    global _LISTENER  # noqa: PLW0603 - the one process-wide listener, like a logging handler
    with _LOCK:
        previous, _LISTENER = _LISTENER, listener
    try:
        yield
    finally:
        with _LOCK:
            _LISTENER = previous


def active() -> bool:
    """Whether anyone listens (a stage may skip the work of reporting when nobody does)."""
    return _LISTENER is not None


@contextlib.contextmanager
def working_on(variant: str) -> Iterator[None]:
    """Events emitted in this thread inside the block belong to `variant`."""
    token = _CURRENT.set(variant)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def _emit(event: Event) -> None:
    listener = _LISTENER
    if listener is not None:
        listener(event)


def start(variants: list[str] | tuple[str, ...]) -> None:
    """The variants a command is about to work on, in the order a display should list them."""
    for v in variants:
        _emit(Event(variant=v, kind="start"))


def phase(name: str, detail: str = "", *, variant: str | None = None) -> None:
    """The current variant (or `variant`) began the step `name` ("resolving", "installing")."""
    who = variant or _CURRENT.get()
    if who is not None:
        _emit(Event(variant=who, kind="phase", phase=name, detail=detail))


def update(
    detail: str,
    *,
    done: int | None = None,
    total: int | None = None,
    unit: Literal["bytes", "checks", ""] = "",
    variant: str | None = None,
) -> None:
    """More about the current step: what it is at, and how far (bytes or checks) when known."""
    who = variant or _CURRENT.get()
    if who is not None:
        _emit(Event(variant=who, kind="update", detail=detail, done=done, total=total, unit=unit))


def finish(outcome: str, *, variant: str | None = None, logged: bool = False) -> None:
    """The variant's work ended with `outcome` ("locked", "up to date", "built", "failed");
    `logged`: the stage logs its own line saying so."""
    who = variant or _CURRENT.get()
    if who is not None:
        _emit(Event(variant=who, kind="finish", phase=outcome, logged=logged))


# --- tools' own progress messages ---------------------------------------------------------------
# uv without a terminal (astral-sh/uv#11165): a large download's start and end, a build's start
# and end, and the step summaries. Sizes are uv's binary units (KiB, MiB, GiB).
_UV_DOWNLOADING: Final = re.compile(r"^Downloading (\S+) \(([\d.]+)([KMGT]?i?B)\)$")
_UV_DOWNLOADED: Final = re.compile(r"^\s*Downloaded (\S+)$")
_UV_BUILDING: Final = re.compile(r"^\s*Building (\S+)$")
_UV_PREPARED: Final = re.compile(r"^Prepared (\d+) packages? in ")
_UNITS: Final = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40}


def parse_size(number: str, unit: str) -> int | None:
    """`16.0`, `MiB` -> bytes (None for a unit uv does not print).

    >>> parse_size("16.0", "MiB")
    16777216
    """
    factor = _UNITS.get(unit)
    return round(float(number) * factor) if factor is not None else None


def human_bytes(n: int) -> str:
    """Bytes as uv prints them.

    >>> human_bytes(16777216), human_bytes(1536), human_bytes(12)
    ('16.0 MiB', '1.5 KiB', '12 B')
    """
    if n < 1 << 10:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n_unit = n / _UNITS[unit]
        if n_unit < 1024 or unit == "TiB":
            return f"{n_unit:.1f} {unit}"
    raise AssertionError  # pragma: no cover - the loop returns


class UvWatcher:
    """Turns `uv pip sync` / `uv pip install` stderr lines into events for one variant.

    Downloads: a `downloading` phase whose counts are the bytes of the files uv announced
    (`done` grows by a file's size as uv says it finished); `installing` once uv says every file
    is prepared, naming what was downloaded.
    """

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.sizes: dict[str, int] = {}
        self.finished: set[str] = set()
        self.building: list[str] = []

    def _progress(self, detail: str) -> None:
        total = sum(self.sizes.values())
        done = sum(self.sizes[n] for n in self.finished if n in self.sizes)
        update(detail, done=done, total=total, unit="bytes", variant=self.variant)

    def __call__(self, line: str) -> None:
        text = line.rstrip()
        if m := _UV_DOWNLOADING.match(text):
            size = parse_size(m[2], m[3])
            if not self.sizes:
                phase("downloading", variant=self.variant)
            self.sizes[m[1]] = size or 0
            self._progress(f"{m[1]} ({human_bytes(size)})" if size else m[1])
        elif (m := _UV_DOWNLOADED.match(text)) and m[1] in self.sizes:
            self.finished.add(m[1])
            left = [n for n in self.sizes if n not in self.finished]
            self._progress(f"{left[0]} ({human_bytes(self.sizes[left[0]])})" if left else m[1])
        elif m := _UV_BUILDING.match(text):
            if not self.building:
                phase("building", variant=self.variant)
            self.building.append(m[1])
            update(m[1], variant=self.variant)
        elif m := _UV_PREPARED.match(text):
            got = ""
            if self.sizes:
                got = (
                    f"downloaded {len(self.sizes)} large file(s), "
                    f"{human_bytes(sum(self.sizes.values()))}"
                )
            phase("installing", got, variant=self.variant)


def uv_lines(variant: str | None = None) -> Callable[[str], None] | None:
    """A stderr reader for a uv install of the current variant; None when nobody listens."""
    who = variant or _CURRENT.get()
    if not active() or who is None:
        return None
    return UvWatcher(who)


_SMOKE_RUNNING: Final = re.compile(r"^envgen-smoke: running (\S+)$")


def smoke_lines(variant: str | None = None) -> Callable[[str], None] | None:
    """A stderr reader for the smoke script: one update per check as it starts; None when
    nobody listens."""
    who = variant or _CURRENT.get()
    if not active() or who is None:
        return None
    count = 0

    def read(line: str) -> None:
        nonlocal count
        m = _SMOKE_RUNNING.match(line.rstrip())
        if m:
            count += 1
            update(m[1], done=count, unit="checks", variant=who)

    return read


__all__ = [
    "Event",
    "Listener",
    "UvWatcher",
    "active",
    "finish",
    "listening",
    "phase",
    "smoke_lines",
    "start",
    "update",
    "uv_lines",
    "working_on",
]
