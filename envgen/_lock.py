"""The project lock: one envgen run at a time writes a project's output directory.

`project_lock(out)` takes an exclusive `fcntl.flock` on `<out>/.envgen.lock`, waiting a short,
bounded time for a holder to finish, then raises ConcurrentRunError naming the holder's pid.
The kernel drops the lock when its holder exits, killed or not, so a stale lock file never
blocks the next run. The file is removed on release; a run that opened it before the removal
notices that the path now names another file (or none) and starts over, so two runs can never
both believe they hold the lock (the flock-then-check-inode pattern).

This module must not know what the runs do, and must not import any envgen module but errors.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from envgen.errors import ConcurrentRunError

LOCK_NAME: Final = ".envgen.lock"
DEFAULT_WAIT_S: Final = 2.0
_POLL_S: Final = 0.05


def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return "unknown"
    return text if text.isdigit() else "unknown"


def _same_file(fd: int, path: Path) -> bool:
    try:
        on_disk = path.stat()
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (on_disk.st_dev, on_disk.st_ino)


@contextlib.contextmanager
def project_lock(out: Path, *, wait: float = DEFAULT_WAIT_S) -> Iterator[Path]:
    """Hold the exclusive lock of the project whose output directory is `out`.

    Yields the lock file's path. An `out` this call had to create is removed again when it is
    still empty on release.

    Raises:
        ConcurrentRunError: another process held the lock for all of `wait` seconds.
    """
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK_NAME
    deadline = time.monotonic() + wait
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            if time.monotonic() >= deadline:
                msg = (
                    f"another envgen run (pid {_holder(path)}) is working on {out}; "
                    f"waited {wait:g} s for it to finish"
                )
                raise ConcurrentRunError(
                    msg, hint=f"wait for it to end, then run again (lock file: {path})"
                ) from None
            time.sleep(_POLL_S)
            continue
        if _same_file(fd, path):
            break
        os.close(fd)  # the holder removed the file after we opened it: try the new one
    try:
        # Best effort: a full disk must not stop the run from reporting its own error.
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        yield path
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
        os.close(fd)  # closing drops the flock
        if created:
            with contextlib.suppress(OSError):
                out.rmdir()  # only succeeds when empty


__all__ = ["DEFAULT_WAIT_S", "LOCK_NAME", "project_lock"]
