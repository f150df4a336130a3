"""Atomic, byte-stable file writes and the canonical input hash.

Files are written as UTF-8 with LF endings and exactly one final newline, via a temp file in the
same directory and os.replace, so a reader sees the old file or the new one, never half of one.
This module must not know what the files contain.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Final

HASH_SCHEME: Final = "envgen-inputs-v1"


def normalize_text(text: str) -> str:
    """LF endings and exactly one trailing newline.

    >>> normalize_text("a\\r\\nb\\n\\n")
    'a\\nb\\n'
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.rstrip("\n") + "\n"


def atomic_write_bytes(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Write `data` to `path` atomically (temp file in the same directory, fsync, os.replace).

    An OSError names `path` (not the temp file), so messages point at the file the user knows.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        # Something on the way is a file, not a folder: name that, not the target.
        blocker = next((p for p in path.parents if p.exists() and not p.is_dir()), path.parent)
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(blocker)) from None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        tmp.chmod(mode)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, text: str) -> bool:
    """Write `text` (normalized) to `path` unless the file already holds those bytes.

    Returns True when the file was written.
    """
    data = normalize_text(text).encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        pass
    atomic_write_bytes(path, data)
    return True


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
