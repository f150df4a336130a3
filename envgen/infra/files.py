"""Atomic, byte-stable file writes and the canonical input hash.

Files are written as UTF-8 with LF endings and exactly one final newline, via a temp file in the
same directory and os.replace, so a reader sees the old file or the new one, never half of one.
Several files of one folder that belong together are written as a set (`commit_files`): staged,
then renamed under a journal, so an interrupted run is finished by the next (`finish_commit`).
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
import re
import stat
from collections.abc import Callable, Mapping
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


# --- a folder's files as one set ----------------------------------------------------------------
# Files that only mean something together (a variant's inputs and its locks) are replaced as a
# set: every new file is staged as a temp file beside its target and fsynced, then a journal
# naming each rename and removal is written atomically, then the renames run and the journal is
# removed. A run stopped before the journal exists changed nothing (its temp files are swept
# later); one stopped after it is rolled forward by the next run (`finish_commit`): every staged
# file was complete before the journal was written, so the set lands whole.
COMMIT_JOURNAL: Final = ".envgen-commit"
_JOURNAL_LIMIT: Final = 64 * 1024
_TEMP: Final = re.compile(r"\.(?P<name>[^/\x00]+)\.[0-9a-f]{12}\.tmp")


def _plain_name(name: object) -> bool:
    return (
        isinstance(name, str)
        and name not in {"", ".", ".."}
        and "/" not in name
        and "\x00" not in name
        and len(name) <= 255
    )


def _fsync_dir(folder: int) -> None:
    with contextlib.suppress(OSError):  # not every file system syncs a folder
        os.fsync(folder)


def _stage(folder: int, name: str, data: bytes, path: Path) -> str:
    """A complete, fsynced temp file beside `name` holding `data`; its name."""
    tmp = f".{name}.{os.urandom(6).hex()}.tmp"
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
            os.fchmod(fh.fileno(), 0o644)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
    return tmp


def _apply(folder: int, moves: list[tuple[str, str]], removes: list[str]) -> None:
    """Run a journal's renames and removals; each step may already have been done."""
    for tmp, name in moves:
        try:
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except FileNotFoundError:
            continue  # renamed before the interruption
    for name in removes:
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except FileNotFoundError:
            continue
        if stat.S_ISREG(info.st_mode):
            os.unlink(name, dir_fd=folder)
    _fsync_dir(folder)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(COMMIT_JOURNAL, dir_fd=folder)
    _fsync_dir(folder)


def _staged_move(pair: object, allowed: Callable[[str], bool]) -> bool:
    """Whether a journal entry renames a staged temp file onto the allowed name it was made for."""
    if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)):
        return False
    temp = _TEMP.fullmatch(pair[0])
    return (
        temp is not None and temp["name"] == pair[1] and _plain_name(pair[1]) and allowed(pair[1])
    )


def _read_journal(
    folder: int, path: Path, allowed: Callable[[str], bool]
) -> tuple[list[tuple[str, str]], list[str]] | None:
    """(moves, removes) of a journal, or None when there is none.

    A journal may come from a cloned repository: only renames of a staged temp file onto an
    allowed name of the same folder, and removals of allowed names, are accepted.
    """
    raw = read_in(folder, COMMIT_JOURNAL, path / COMMIT_JOURNAL, limit=_JOURNAL_LIMIT)
    if raw is None:
        return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        data = None
    moves: list[tuple[str, str]] = []
    removes: list[str] = []
    ok = isinstance(data, dict) and data.get("version") == 1
    if isinstance(data, dict) and ok:
        for pair in data.get("moves", ()):
            ok = ok and _staged_move(pair, allowed)
            if ok:
                moves.append((pair[0], pair[1]))
        for name in data.get("removes", ()):
            ok = ok and _plain_name(name) and allowed(name)
            if ok:
                removes.append(name)
    if not ok:
        msg = (
            f"{path / COMMIT_JOURNAL} is not a journal envgen wrote (it names files other "
            "than a variant's own, or is malformed); nothing it names was touched"
        )
        raise FileSystemError(msg, hint=f"remove it ({path / COMMIT_JOURNAL}) and run again")
    return moves, removes


def finish_commit(folder: Path, *, inside: Path, allowed: Callable[[str], bool]) -> bool:
    """Finish a set of writes to `folder` that a stopped run left (see `commit_files`).

    With a journal, its renames and removals are completed (roll forward); without one, temp
    files of allowed names left by a run stopped while staging are removed. True when a journal
    was finished. A folder that does not exist is left alone.

    Raises:
        FileSystemError: a link on the way, or a journal envgen did not write.
    """
    try:
        fd = open_dir(folder, inside=inside, create=False)
    except (FileNotFoundError, NotADirectoryError):
        return False
    try:
        found = _read_journal(fd, folder, allowed)
        if found is not None:
            _apply(fd, *found)
            return True
        for entry in os.listdir(fd):  # noqa: PTH208 - a descriptor: no path is looked up again
            temp = _TEMP.fullmatch(entry)
            if temp is not None and (allowed(temp["name"]) or temp["name"] == COMMIT_JOURNAL):
                with contextlib.suppress(OSError):
                    os.unlink(entry, dir_fd=fd)
        return False
    finally:
        os.close(fd)


def pending_commit(folder: Path, *, inside: Path) -> bool:
    """Whether `folder` holds the journal of a set of writes a stopped run left unfinished."""
    try:
        fd = open_dir(folder, inside=inside, create=False)
    except (FileNotFoundError, NotADirectoryError):
        return False
    try:
        os.stat(COMMIT_JOURNAL, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    finally:
        os.close(fd)
    return True


def commit_files(
    folder: Path,
    changes: Mapping[str, str | None],
    *,
    inside: Path,
    allowed: Callable[[str], bool],
) -> list[str]:
    """Replace (text) and remove (None) files of `folder` as one set; the names changed.

    Texts are normalized as `write_if_changed` writes them, identical files and missing ones to
    remove are skipped, and every file or none changes, even if the process is killed between
    two renames (the next `finish_commit` completes the set). A stopped earlier set in the
    folder is finished first. No link below `inside` or at a file is followed.

    Raises:
        FileSystemError: a link or a path that is not a regular file.
        OSError: naming the file (a full disk while staging: nothing changed).
    """
    names = list(changes)
    if not all(_plain_name(n) and allowed(n) for n in names):
        msg = f"internal error: {names} are not plain names allowed in {folder}"
        raise ValueError(msg)
    finish_commit(folder, inside=inside, allowed=allowed)
    fd = open_dir(folder, inside=inside)
    staged: list[tuple[str, str]] = []
    try:
        writes: dict[str, bytes] = {}
        removes: list[str] = []
        for name, text in changes.items():
            path = folder / name
            try:
                info = _existing(name, fd, path, strict=True)
                if text is None:
                    if info is not None:
                        removes.append(name)
                    continue
                data = normalize_text(text).encode("utf-8")
                if info is None or not _same_bytes(name, fd, info, data):
                    writes[name] = data
            except OSError as exc:
                raise OSError(exc.errno, exc.strerror, str(path)) from None
        if not writes and not removes:
            return []
        for name, data in writes.items():
            staged.append((_stage(fd, name, data, folder / name), name))
        journal = json.dumps(
            {"version": 1, "moves": [list(m) for m in staged], "removes": removes},
            sort_keys=True,
        ).encode()
        tmp = _stage(fd, COMMIT_JOURNAL, journal, folder / COMMIT_JOURNAL)
        os.replace(tmp, COMMIT_JOURNAL, src_dir_fd=fd, dst_dir_fd=fd)
        _fsync_dir(fd)
        staged = []  # from here on the journal owns them: a failure is rolled forward
        try:
            _apply(fd, *_read_journal(fd, folder, allowed) or ([], []))
        except OSError as exc:
            msg = (
                f"{folder}: a set of files was only partly replaced ({exc.strerror}); its "
                f"journal ({COMMIT_JOURNAL}) stays, and the next `envgen lock` finishes it"
            )
            raise FileSystemError(
                msg, hint="free the space or fix the permissions, then rerun"
            ) from None
        return [*writes, *removes]
    finally:
        for tmp, _ in staged:  # staged but never journaled: nothing changed
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=fd)
        os.close(fd)
