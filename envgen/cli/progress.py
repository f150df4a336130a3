"""How a long command shows what each variant is doing (envgen.infra.progress events), on stderr.

- On a terminal (stderr is a TTY, CI is not set, TERM is not `dumb`): a live display, one row per
  variant in the order the command lists them, with its current step, what the step is at
  (a file being downloaded with the bytes uv announced, the smoke check running), and the time
  it has taken; it updates in place and is cleared when the command ends, so what stays on the
  screen is what a plain run prints. rich is imported only here, only then (~75 ms).
- Anywhere else (a pipe, a CI log): one plain line per step a variant begins,
  `<variant>: <step>[ (<detail>)]`, and its outcome where the command prints no line of its own
  for it then, with no timestamps or running counts, so two runs of a one-variant command print
  the same lines.
- With `-q`: nothing.

stdout is never written: `--json` and the result tables are unchanged.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Self

from envgen.cli import console
from envgen.infra import progress
from envgen.infra.progress import Event, human_bytes
from envgen.infra.settings import dumb_terminal

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


def terminal() -> bool:
    """Whether stderr is a terminal a live display can redraw."""
    return sys.stderr.isatty() and not dumb_terminal()


@contextlib.contextmanager
def showing(*, live: bool) -> Iterator[None]:
    """Show the progress of the enclosed work (`live=False`, as in CI: plain lines anyway)."""
    if console.is_quiet():
        yield
        return
    display: _Plain | _Live = _Live() if live and terminal() else _Plain()
    with display, progress.listening(display):
        yield


def _line(event: Event) -> str:
    return f"{event.variant}: {event.phase}" + (f" ({event.detail})" if event.detail else "")


class _Plain:
    """One line per step a variant begins (and its outcome); updates within a step are dropped."""

    def __init__(self) -> None:
        self._last: dict[str, str] = {}
        self._lock = threading.Lock()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def __call__(self, event: Event) -> None:
        if event.kind not in ("phase", "finish") or event.logged:
            return
        with self._lock:
            if event.kind == "phase" and self._last.get(event.variant) == event.phase:
                return
            self._last[event.variant] = event.phase
            console.info(_line(event))


class _Live:
    """A rich live display: a row per variant, redrawn in place, cleared at the end."""

    def __init__(self) -> None:
        self._rich: Progress | None = None
        self._rows: dict[str, TaskID] = {}
        self._lock = threading.Lock()
        self._streams: list[tuple[logging.StreamHandler[Any], Any]] = []

    def __enter__(self) -> Self:
        from rich.console import Console  # noqa: PLC0415 - ~75 ms with rich.progress; terminals only
        from rich.progress import (  # noqa: PLC0415 - see above
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        self._rich = Progress(
            SpinnerColumn(finished_text=" "),
            TextColumn("[bold]{task.fields[variant]}"),
            TextColumn("{task.fields[step]}"),
            TextColumn("[cyan]{task.fields[amount]}"),
            TextColumn("[dim]{task.fields[detail]}"),
            TimeElapsedColumn(),
            # Colour as the error: and warning: prefixes get it (--color, NO_COLOR).
            console=Console(
                file=sys.stderr, stderr=True, highlight=False, no_color=not console.use_color()
            ),
            transient=True,
            redirect_stdout=False,
            redirect_stderr=True,
        )
        self._rich.start()
        # Log lines (warnings, `cpu: locked in 3.1 s`) print above the display, not through it:
        # while it runs, sys.stderr is rich's proxy, and envgen's handlers write there.
        for handler in logging.getLogger("envgen").handlers:
            if isinstance(handler, logging.StreamHandler):
                self._streams.append((handler, handler.stream))
                handler.setStream(sys.stderr)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._rich is not None:
            self._rich.stop()
        for handler, stream in self._streams:
            handler.setStream(stream)

    def _row(self, variant: str) -> TaskID:
        assert self._rich is not None  # noqa: S101 - only called between enter and exit
        row = self._rows.get(variant)
        if row is None:
            row = self._rows[variant] = self._rich.add_task(
                variant, total=None, variant=variant, step="waiting", amount="", detail=""
            )
        return row

    def __call__(self, event: Event) -> None:
        with self._lock:
            if self._rich is None:
                return
            row = self._row(event.variant)
            if event.kind == "phase":
                self._rich.update(row, step=event.phase, amount="", detail=event.detail)
            elif event.kind == "update":
                self._rich.update(row, amount=_amount(event), detail=event.detail)
            elif event.kind == "finish":
                bad = "fail" in event.phase or event.phase == "not ready"
                mark = "[red]✗[/]" if bad else "[green]✓[/]"
                self._rich.update(
                    row, step=f"{mark} {event.phase}", amount="", detail="", total=1, completed=1
                )
                self._rich.stop_task(row)


def _amount(event: Event) -> str:
    """`12.0 MiB/176.4 MiB` for bytes, `check 5` for smoke checks, else nothing."""
    if event.unit == "bytes" and event.total:
        return f"{human_bytes(event.done or 0)}/{human_bytes(event.total)}"
    if event.unit == "checks" and event.done is not None:
        return f"check {event.done}" + (f"/{event.total}" if event.total else "")
    return ""
