"""The per-user build key: what makes an environment's marker something a repository cannot carry.

A built environment's `envgen-build.json` marker is sealed with an HMAC under a key that lives
outside every project (`Settings.key_file`: `$XDG_CONFIG_HOME/envgen/build-key`, else
`~/.config/envgen/build-key`), created with mode 0600 on first use. A cloned repository can
ship an environment folder and a marker with the right lock digest (anyone can compute it), but
not the seal: envgen then treats the folder as not built here and never runs its interpreter.
This module must not know what a marker holds (envgen.build.orchestrate decides what is sealed)
and imports no envgen module but errors and infra.files.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import stat
from pathlib import Path
from typing import Final

from envgen.errors import FileSystemError
from envgen.infra.files import open_dir, read_in

KEY_BYTES: Final = 32
SEAL_SCHEME: Final = "hmac-sha256"


def _key_error(path: Path, problem: str, fix: str) -> FileSystemError:
    msg = f"{path}: {problem}; envgen seals the environments it builds with this key"
    return FileSystemError(msg, hint=fix)


def _parse(path: Path, data: bytes, info: os.stat_result) -> bytes:
    if info.st_uid != os.geteuid():
        raise _key_error(path, "is owned by another user", f"remove {path} (a new one is made)")
    if stat.S_IMODE(info.st_mode) & 0o077:
        raise _key_error(
            path,
            f"is readable or writable by others (mode {stat.S_IMODE(info.st_mode):o})",
            f"remove {path} (a new one is made, mode 600), then rebuild",
        )
    try:
        key = bytes.fromhex(data.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise _key_error(path, f"is not {KEY_BYTES} bytes of hex", f"remove {path} and run again")
    return key


def load_key(path: Path) -> bytes:
    """The key at `path`, created (random, mode 0600, its folder 0700) when missing.

    Raises:
        FileSystemError: the key is a link, not a regular file, another user's, readable by
            others or malformed; or it cannot be created.
    """
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        folder = open_dir(path.parent)
    except OSError as exc:
        raise _key_error(
            path, f"its folder cannot be created ({exc.strerror})", "check its permissions"
        ) from None
    try:
        for _ in range(2):
            data = read_in(folder, path.name, path, limit=4096)
            if data is not None:
                info = os.stat(path.name, dir_fd=folder, follow_symlinks=False)
                return _parse(path, data, info)
            _create(folder, path)
        raise _key_error(path, "vanished while it was created", "run again")  # pragma: no cover
    except OSError as exc:
        raise _key_error(
            path, f"cannot be read ({exc.strerror})", "check its permissions"
        ) from None
    finally:
        os.close(folder)


def _create(folder: int, path: Path) -> None:
    """Write a fresh key beside `path`, then link it into place (a concurrent run's key wins)."""
    tmp = f".{path.name}.{os.urandom(6).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(tmp, flags, 0o600, dir_fd=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(os.urandom(KEY_BYTES).hex().encode() + b"\n")
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path.name, src_dir_fd=folder, dst_dir_fd=folder, follow_symlinks=False)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder)


def seal(key: bytes, payload: bytes) -> str:
    """`hmac-sha256:<hex>` of `payload` under `key`.

    >>> seal(b"k" * 32, b"x")[:20]
    'hmac-sha256:5011cc61'
    """
    return f"{SEAL_SCHEME}:" + hmac.new(key, payload, hashlib.sha256).hexdigest()


def check_seal(key: bytes, payload: bytes, value: object) -> bool:
    """True when `value` is the seal of `payload` under `key` (compared in constant time)."""
    return isinstance(value, str) and hmac.compare_digest(seal(key, payload), value)


__all__ = ["KEY_BYTES", "check_seal", "load_key", "seal"]
