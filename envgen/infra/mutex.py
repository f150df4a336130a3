"""The project lock: one envgen run at a time writes a project's output directory.

`project_lock(out)` takes an exclusive `fcntl.flock` on `<out>/.envgen.lock`, waiting a short,
bounded time for a holder to finish, then raises ConcurrentRunError naming the holder's pid.
The kernel drops the lock when its holder exits, killed or not, so a stale lock file never
blocks the next run. The file is removed on release; a run that opened it before the removal
notices that the path now names another file (or none) and starts over, so two runs can never
both believe they hold the lock (the flock-then-check-inode pattern).

The lock file is opened with O_NOFOLLOW below the folder the user named (`inside`): a cloned
repository that commits `.envgen.lock` as a link to another file gets a FileSystemError, and
that file is never truncated. This module must not know what the runs do, and must not import
any envgen module but errors and _io.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from envgen.errors import ConcurrentRunError
from envgen.infra import files as _io

LOCK_NAME: Final = ".envgen.lock"
DEFAULT_WAIT_S: Final = 2.0
_POLL_S: Final = 0.05


def _holder(folder: int) -> str:
    try:
        fd = os.open(LOCK_NAME, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=folder)
    except OSError:
        return "unknown"
    with os.fdopen(fd, "rb") as fh:
        text = fh.read(32).decode("ascii", errors="replace").strip()
    return text if text.isdigit() else "unknown"


def _same_file(fd: int, folder: int) -> bool:
    try:
        on_disk = os.stat(LOCK_NAME, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (on_disk.st_dev, on_disk.st_ino)


def _open_lock(folder: int, path: Path) -> int:
    """The lock file, opened without following a link (a planted one is refused)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(LOCK_NAME, flags, 0o644, dir_fd=folder)
    except OSError as exc:
        try:
            info = os.stat(LOCK_NAME, dir_fd=folder, follow_symlinks=False)
        except OSError:
            info = None
        if info is not None and stat.S_ISLNK(info.st_mode):
            raise _io.link_error(path) from None
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise _io.not_regular_error(path, info.st_mode) from None
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _io.not_regular_error(path, mode)
    return fd


@contextlib.contextmanager
def project_lock(
    out: Path, *, wait: float = DEFAULT_WAIT_S, inside: Path | None = None
) -> Iterator[Path]:
    """Hold the exclusive lock of the project whose output directory is `out`.

    Yields the lock file's path. An `out` this call had to create is removed again when it is
    still empty on release. `inside`: the trusted folder `out` lies in (see `_io.open_dir`);
    no symbolic link below it, nor the lock file itself, is followed.

    Raises:
        ConcurrentRunError: another process held the lock for all of `wait` seconds.
        FileSystemError: the lock file or a folder on the way is a planted symbolic link.
    """
    created = not out.exists()
    folder = _io.open_dir(out, inside=inside)
    path = out / LOCK_NAME
    deadline = time.monotonic() + wait
    try:
        while True:
            fd = _open_lock(folder, path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                if time.monotonic() >= deadline:
                    msg = (
                        f"another envgen run (pid {_holder(folder)}) is working on {out}; "
                        f"waited {wait:g} s for it to finish"
                    )
                    raise ConcurrentRunError(
                        msg, hint=f"wait for it to end, then run again (lock file: {path})"
                    ) from None
                time.sleep(_POLL_S)
                continue
            if _same_file(fd, folder):
                break
            os.close(fd)  # the holder removed the file after we opened it: try the new one
        try:
            # Best effort: a full disk must not stop the run from reporting its own error.
            # Written over, then cut to its length: never truncated to 0 first, which makes
            # ext4 (auto_da_alloc) flush the file on close: up to ~40 ms a run on a busy disk.
            with contextlib.suppress(OSError):
                pid = f"{os.getpid()}\n".encode()
                os.pwrite(fd, pid, 0)
                os.ftruncate(fd, len(pid))
            yield path
        finally:
            with contextlib.suppress(OSError):
                os.unlink(LOCK_NAME, dir_fd=folder)
            os.close(fd)  # closing drops the flock
    finally:
        os.close(folder)
        if created:
            with contextlib.suppress(OSError):
                out.rmdir()  # only succeeds when empty


__all__ = ["DEFAULT_WAIT_S", "LOCK_NAME", "project_lock"]
