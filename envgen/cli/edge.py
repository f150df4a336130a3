"""What every run of the `envgen` command shares, click or not: logging, the exit, the error line.

The click commands (envgen.cli.commands) and the fast path (envgen.cli.quick) both end here, so
a message, an exit code or a log line is the same whichever parsed the command line. Imports no
click and no stage.
"""

from __future__ import annotations

import errno
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from envgen.cli import console
from envgen.errors import BUG, INTERRUPTED, TERMINATED, EnvgenError, FileSystemError, excerpt
from envgen.infra.proc import RedactingFormatter, Terminated, redact


class _PrintableFormatter(RedactingFormatter):
    """Log lines redacted and, as the console prints them, control characters as escapes."""

    def format(self, record: logging.LogRecord) -> str:
        return console.printable(super().format(record))


def _once() -> Callable[[logging.LogRecord], bool]:
    """A filter that lets a log line through once per command (a check resolves a variant twice,
    and the same notice twice says nothing new)."""
    seen: set[str] = set()

    def first_time(record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if text in seen:
            return False
        seen.add(text)
        return True

    return first_time


def configure_logging(*, verbose: int, quiet: bool) -> None:
    """envgen's log lines on stderr: INFO by default, WARNING with -q, DEBUG with -v."""
    level = logging.WARNING if quiet else logging.INFO - 10 * verbose
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(_once())
    # -vv (debug) stamps each line with the milliseconds since start, for finding slow steps.
    fmt = "%(relativeCreated)6.0f ms %(message)s" if verbose >= 2 else "%(message)s"
    handler.setFormatter(_PrintableFormatter(fmt))
    root = logging.getLogger("envgen")
    root.handlers[:] = [handler]
    root.setLevel(max(level, logging.DEBUG))


def _os_error_text(exc: OSError) -> str:
    """`/proc/x.yml: No such file or directory`."""
    reason = exc.strerror or str(exc)
    return f"{exc.filename}: {reason}" if exc.filename else reason


def _unexpected(exc: BaseException) -> str:
    """The one line a bug gets without --debug (the traceback is for --debug)."""
    text = redact(str(exc)).splitlines()
    return (
        f"error: internal error (a bug in envgen): {type(exc).__name__}"
        + (f": {excerpt(text[0])}" if text else "")
        + "\n  hint: run again with --debug for the traceback, and report it"
    )


def _line(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def exit_code(exc: BaseException, *, debug: bool) -> int:
    """The exit code of a command that raised `exc`, after its message on stderr.

    Called from an `except` block: with --debug, or for an exception that is no failure of a
    command (SystemExit), the exception is raised again as it was.
    """
    if isinstance(exc, Terminated):
        _line("terminated")
        return TERMINATED
    if isinstance(exc, KeyboardInterrupt):
        _line("interrupted")
        return INTERRUPTED
    if debug or not isinstance(exc, Exception):
        raise  # noqa: PLE0704 - called from the caller's except block: its exception, as it was
    if isinstance(exc, EnvgenError):
        # Messages quote spec values (a direct URL, a channel): never a credential in them.
        console.error(redact(str(exc)))
        return exc.exit_code
    if isinstance(exc, OSError):
        # A stage that did not name the failure itself: still a message, not a traceback. A
        # failed connection is a network error; any other OSError came from a file.
        from envgen.infra.network import network_error  # noqa: PLC0415 - socket; errors only

        error: EnvgenError = network_error(exc) or FileSystemError(_os_error_text(exc))
        console.error(redact(str(error)))
        return error.exit_code
    _line(_unexpected(exc))
    return BUG


def finish(run: Callable[[], None]) -> None:
    """Run `run` (which ends in SystemExit), then exit without tearing the interpreter down.

    Once the command is done and its output flushed, nothing is left to do: a normal interpreter
    exit would still free every module and object one by one (20-30 ms of `envgen list`'s
    ~130 ms, measured, docs/benchmarks.md) and join a DNS lookup left running past its bound.
    No atexit work is lost: the commands close their files, temp trees, pools and locks in
    `with` blocks before `run` returns. Where stdout cannot be flushed (a closed pipe), the
    normal exit runs instead, so the message and exit status stay Python's own. Tests call
    main(), which raises SystemExit as before.
    """
    try:
        run()
    except SystemExit as exc:
        code = exc.code
        if code is not None and not isinstance(code, int):
            raise  # a message for Python to print (exit 1)
        if sys.gettrace() is not None or sys.getprofile() is not None:
            raise  # a profiler or coverage tool saves its data at exit: let it
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):
            raise exc from None
        os._exit(code or 0)


class _QuietFlush:
    """A stream whose flush ignores a closed pipe; everything else is the stream's own (click's
    `_PacifyFlushWrapper`, which click's commands get for the same case)."""

    def __init__(self, wrapped: TextIO) -> None:
        self._wrapped = wrapped

    def flush(self) -> None:
        try:
            self._wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - the wrapped stream's attribute
        return getattr(self._wrapped, name)


def silence_closed_pipe() -> None:
    """After a write hit a closed pipe (EPIPE): the later flushes of stdout and stderr (the exit's
    own) say nothing, as click arranges for its commands."""
    sys.stdout = _QuietFlush(sys.stdout)
    sys.stderr = _QuietFlush(sys.stderr)
