"""Holding the project lock around a command's writes; an OSError becomes the command's error.

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from envgen.errors import (
    EnvgenError,
)
from envgen.infra.mutex import project_lock
from envgen.infra.proc import redact
from envgen.model.spec import ProjectSpec


@contextlib.contextmanager
def guarded(
    out: Path, error: type[EnvgenError], what: str, *, inside: Path | None = None
) -> Iterator[None]:
    """Hold the project lock on `out`; an OSError (full disk, permissions) becomes `error`.

    Files are written atomically (envgen.infra.files), so a failed write leaves the previous file.
    An OSError from a connection (refused, reset, timed out, a host that does not resolve) is no
    file's: it becomes NetworkError.
    """
    try:
        with project_lock(out, inside=inside):
            yield
    except OSError as exc:
        from envgen.infra.network import network_error  # noqa: PLC0415 - socket, urllib (~6 ms); only on a failure

        network = network_error(exc)
        if network is not None:
            raise network from None
        where = f" {exc.filename}" if exc.filename else ""
        msg = (
            f"{what} could not write{where}: {exc.strerror or exc}; "
            "no file was left half-written (each holds its previous or its new content)"
        )
        raise error(redact(msg)) from None


def guarded_env_dir(
    env_dir: Path | None, error: type[EnvgenError], what: str
) -> contextlib.AbstractContextManager[None]:
    """The lock of a shared --env-dir: two projects building into it take turns."""
    return guarded(env_dir, error, what) if env_dir is not None else contextlib.nullcontext()


def trusted_root(spec: ProjectSpec, out: Path | None) -> Path:
    """The folder the user named for a run's output: `--out`, else the spec's directory.

    Everything below it may come from the cloned repository, so no symbolic link there is
    followed (envgen.infra.files); the folder itself, and the path to it, are the user's.
    """
    return out if out is not None else spec.directory
