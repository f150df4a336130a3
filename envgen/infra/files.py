"""Atomic, byte-stable file writes and the canonical input hash.

Files are written as UTF-8 with LF endings and exactly one final newline, via a temp file in the
same directory and os.replace, so a reader sees the old file or the new one, never half of one.
Below a trusted folder (one the user named) no symbolic link is followed: a cloned repository's
committed links cannot redirect a write. This module must not know what the files contain, and
imports no envgen module but errors.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Final

from envgen.errors import FileSystemError

HASH_SCHEME: Final = "envgen-inputs-v1"


def normalize_text(text: str) -> str:
    """LF endings and exactly one trailing newline.

    >>> normalize_text("a\\r\\nb\\n\\n")
    'a\\nb\\n'
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.rstrip("\n") + "\n"


# Paths inside a project come from a repository someone cloned: a committed symlink there must
# not send a write (or a deletion) to a file elsewhere. Folders are opened one by one with
# O_NOFOLLOW relative to their parent's descriptor, so no component is looked up by name twice.
_DIR_FLAGS: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_MAX_COMPARE_BYTES: Final = 256 * 1024 * 1024


def _absolute(path: Path) -> Path:
    """Absolute and with `..` removed as text: nothing is resolved, so no link is followed."""
    return Path(os.path.normpath(path.absolute()))


def link_error(path: Path) -> FileSystemError:
    try:
        where = f" (to {path.readlink()})"
    except OSError:
        where = ""
    msg = (
        f"{path} is a symbolic link{where}; envgen does not write through links inside a "
        "project (a cloned repository could point one at any file of yours); "
        "the link and its target were left untouched"
    )
    return FileSystemError(msg, hint=f"remove the link ({path}) and run again")


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def not_regular_error(path: Path, mode: int) -> FileSystemError:
    """envgen writes (and reads back) regular files only: a device or FIFO would never end."""
    msg = f"{path} is {_kind(mode)}; envgen writes only regular files"
    return FileSystemError(msg, hint="give the path of a regular file (or of one to create)")


def _mkdirs(base: Path) -> None:
    try:
        base.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        # Something on the way is a file, not a folder: name that, not the target.
        blocker = next((p for p in (base, *base.parents) if p.exists() and not p.is_dir()), base)
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(blocker)) from None


def open_dir(folder: Path, *, inside: Path | None = None, create: bool = True) -> int:
    """An O_DIRECTORY descriptor of `folder`, creating missing folders on the way.

    `inside` is a trusted folder (one the user named) that `folder` lies in: every folder below
    it up to `folder` is opened without following symbolic links, and a link there is a
    FileSystemError naming it. Without `inside`, `folder` itself is trusted. With
    `create=False` a missing folder is FileNotFoundError.

    Raises:
        FileSystemError: a folder below `inside` is a symbolic link.
        OSError: a folder could not be created or opened (its `filename` is that folder).
    """
    base = _absolute(inside if inside is not None else folder)
    target = _absolute(folder)
    try:
        parts = target.relative_to(base).parts
    except ValueError:
        msg = f"internal error: {target} is not inside {base}"
        raise ValueError(msg) from None
    if create:
        _mkdirs(base)
    try:
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(base)) from None
    current = inside if inside is not None else folder  # as the user wrote it, for messages
    try:
        for name in parts:
            current = current / name
            try:
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, 0o777, dir_fd=fd)
                child = _open_child(name, fd, current)
            except OSError:
                child = _open_child(name, fd, current)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_child(name: str, parent: int, path: Path) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        try:
            info = os.stat(name, dir_fd=parent, follow_symlinks=False)
        except OSError:
            info = None
        if info is not None and stat.S_ISLNK(info.st_mode):
            raise link_error(path) from None
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def check_no_links(path: Path, *, inside: Path) -> None:
    """Refuse when `path` or a folder between `inside` and it is a symbolic link.

    For paths envgen replaces or deletes as a whole (environments, their temp trees).
    Missing components are fine (nothing is created).
    """
    current = inside
    for name in _absolute(path).relative_to(_absolute(inside)).parts:
        current = current / name
        try:
            info = current.lstat()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(current)) from None
        if stat.S_ISLNK(info.st_mode):
            raise link_error(current)


MAX_OUTPUT_BYTES: Final = 64 * 1024 * 1024
_READ_FLAGS: Final = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def too_large_error(path: Path, limit: int) -> FileSystemError:
    msg = f"{path} is larger than {limit} bytes; it is not a file envgen wrote"
    return FileSystemError(msg, hint=f"remove it ({path}) and run again")


def read_in(folder: int, name: str, path: Path, *, limit: int = MAX_OUTPUT_BYTES) -> bytes | None:
    """The bytes of the regular file `name` in the open folder `folder`, or None when missing.

    The one bounded read of a file in a project (`path` names it in messages): a symbolic link
    at `name` is not followed, a device, FIFO or socket is refused (opened O_NONBLOCK, checked
    with fstat on the open descriptor, so nothing is swapped in between), and at most `limit`
    bytes are read.

    Raises:
        FileSystemError: a link, a file that is not regular, or one over `limit` bytes.
        OSError: naming `path` (a folder at `name`: IsADirectoryError).
    """
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    if stat.S_ISLNK(info.st_mode):
        raise link_error(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(info.st_mode):
        raise not_regular_error(path, info.st_mode)
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # replaced by a link since the stat
            raise link_error(path) from None
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    with os.fdopen(fd, "rb") as fh:
        opened = os.fstat(fh.fileno())
        if not stat.S_ISREG(opened.st_mode):
            raise not_regular_error(path, opened.st_mode)
        if opened.st_size > limit:
            raise too_large_error(path, limit)
        try:
            data = fh.read(limit + 1)  # bounded even if the file grows meanwhile
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
    if len(data) > limit:
        raise too_large_error(path, limit)
    return data


def read_output(
    path: Path, *, inside: Path | None = None, limit: int = MAX_OUTPUT_BYTES
) -> bytes | None:
    """A file envgen wrote into a project (a lock, an input), or None when it is missing.

    Read like it is written: no symbolic link below `inside` (default: `path.parent`) or at
    `path` is followed, so `envgen check` cannot be made to print another file of the user's
    in its diff; a device or FIFO is refused, and the read is bounded (`limit` bytes, see
    `read_in`).

    Raises:
        FileSystemError: a link, a file that is not regular, or one over `limit` bytes.
    """
    try:
        folder = open_dir(
            path.parent, inside=inside if inside is not None else path.parent, create=False
        )
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        return read_in(folder, path.name, path, limit=limit)
    finally:
        os.close(folder)


def check_output_file(path: Path) -> None:
    """Refuse an output path (`--junit`, `-o`) that is a link, a device, a FIFO or a folder.

    For checking an option before the work whose result it will receive (a build can take
    minutes); the write itself checks again.
    """
    try:
        info = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISLNK(info.st_mode):
        raise link_error(path)
    if not stat.S_ISREG(info.st_mode):
        raise not_regular_error(path, info.st_mode)


def _existing(name: str, folder: int, path: Path, *, strict: bool) -> os.stat_result | None:
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        if strict:
            raise link_error(path)
        return None  # os.replace replaces the link itself, never its target
    if not stat.S_ISREG(info.st_mode):
        raise not_regular_error(path, info.st_mode)
    return info


def _same_bytes(name: str, folder: int, info: os.stat_result, data: bytes) -> bool:
    if info.st_size != len(data) or info.st_size > _MAX_COMPARE_BYTES:
        return False
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=folder)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return False
        return fh.read(len(data) + 1) == data


def _write(
    path: Path, data: bytes, *, mode: int, inside: Path | None, strict: bool, skip_same: bool
) -> bool:
    folder = open_dir(path.parent, inside=inside)
    try:
        try:
            info = _existing(path.name, folder, path, strict=strict)
            if skip_same and info is not None and _same_bytes(path.name, folder, info, data):
                return False
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        tmp = f".{path.name}.{os.urandom(6).hex()}.tmp"  # secrets.token_hex, without its imports
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(tmp, flags, 0o600, dir_fd=folder)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
                os.fchmod(fh.fileno(), mode)
            os.replace(tmp, path.name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            if isinstance(exc, OSError):
                raise OSError(exc.errno, exc.strerror, str(path)) from None
            raise
    finally:
        os.close(folder)
    return True


def atomic_write_bytes(
    path: Path, data: bytes, *, mode: int = 0o644, inside: Path | None = None
) -> None:
    """Write `data` to `path` atomically (temp file in the same directory, fsync, os.replace).

    `inside`: a trusted folder (one the user named) that `path` lies in. Every folder between
    it and `path`, and `path` itself, must not be a symbolic link (see `open_dir`): the paths
    below it may come from a cloned repository. Without it, only `path.parent` is trusted and a
    link at `path` is replaced (never written through). The temp file is created with
    O_EXCL | O_NOFOLLOW. An existing `path` that is a device, FIFO or folder is refused.

    Raises:
        FileSystemError: a planted link or a path that is not a regular file.
        OSError: naming `path` (not the temp file), so messages point at the file the user knows.
    """
    _write(path, data, mode=mode, inside=inside, strict=inside is not None, skip_same=False)


def write_if_changed(path: Path, text: str, *, inside: Path | None = None) -> bool:
    """Write `text` (normalized) to `path` unless the file already holds those bytes.

    The files written this way are a project's outputs, so a symbolic link at `path` (or at a
    folder below `inside`, see `atomic_write_bytes`) is always refused. Returns True when the
    file was written.
    """
    data = normalize_text(text).encode("utf-8")
    return _write(
        path,
        data,
        mode=0o644,
        inside=inside if inside is not None else path.parent,
        strict=True,
        skip_same=True,
    )


def canonical_json(value: object) -> str:
    """JSON with sorted keys and no whitespace: the same value gives the same text anywhere."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def input_hash(value: object) -> str:
    """sha256 over the canonical JSON of `value`, prefixed by the hash scheme's version.

    >>> input_hash({"b": 1, "a": [1, 2]}) == input_hash({"a": [1, 2], "b": 1})
    True
    """
    digest = hashlib.sha256((HASH_SCHEME + "\n" + canonical_json(value)).encode()).hexdigest()
    return f"sha256:{digest}"


def remove_file(path: Path) -> bool:
    """Remove a regular file envgen wrote (never a link's target or a folder); True if removed."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        path.unlink()
    except FileNotFoundError:
        return False
    return True


def remove_empty_dir(path: Path) -> bool:
    """Remove a folder only when it is empty; True if removed."""
    try:
        path.rmdir()
    except OSError:
        return False
    return True
