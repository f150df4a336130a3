"""The only module that starts subprocesses.

Every command is an argument list (never a shell). Output is captured; on failure the error names
the command and the tail of stderr, with credentials in URLs masked. This module must not know
about specs, matrices or variants.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess  # noqa: TID251 - this module is the one place allowed to use it
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NoReturn
from urllib.parse import unquote, urlsplit, urlunsplit

from envgen.errors import EnvgenError, ToolNotFoundError

log = logging.getLogger(__name__)

_CREDENTIALS: Final = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)[^/\s:@]+(:[^/\s@]*)?@")


def redact(text: str) -> str:
    """Mask user:password in every URL of `text`.

    >>> redact("uv --index-url https://bob:s3cret@mirror.example/simple x")
    'uv --index-url https://***@mirror.example/simple x'
    """
    return _CREDENTIALS.sub(r"\g<scheme>***@", text)


def split_credentials(url: str) -> tuple[str, str | None, str | None]:
    """Split `user:token@` out of a URL: (url without it, user, token).

    >>> split_credentials("https://bob:s3cret@mirror.example:8443/whl/cu118")
    ('https://mirror.example:8443/whl/cu118', 'bob', 's3cret')
    >>> split_credentials("https://pypi.org/simple")
    ('https://pypi.org/simple', None, None)
    >>> split_credentials("http://tok@[::1]:8080/simple")
    ('http://[::1]:8080/simple', 'tok', None)
    """
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url, None, None
    # The host as written (no lower-casing, IPv6 brackets and port kept, never parsed).
    bare = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
    user = unquote(parts.username) if parts.username is not None else None
    token = unquote(parts.password) if parts.password is not None else None
    return bare, user, token


def strip_credentials(url: str) -> str:
    """The URL without user:password and without a trailing slash.

    >>> strip_credentials("https://bob:s3cret@mirror.example:8443/whl/")
    'https://mirror.example:8443/whl'
    """
    return split_credentials(url.rstrip("/"))[0]


@dataclass(frozen=True, slots=True, kw_only=True)
class Completed:
    """The result of a finished command."""

    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    seconds: float


class CommandError(EnvgenError):
    """A command exited non-zero (wrapped by stages into their own error types)."""

    def __init__(self, result: Completed, what: str) -> None:
        self.result = result
        tail = "\n".join(result.stderr.strip().splitlines()[-25:]) or "(no stderr)"
        cmd = redact(" ".join(result.args))
        super().__init__(
            f"{what} failed (exit {result.returncode})\n  command: {cmd}\n{_indent(redact(tail))}"
        )


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def which(tool: str) -> str | None:
    """Find a tool on PATH, or beside the running interpreter (a venv's bin/)."""
    import sys  # noqa: PLC0415 - only needed here

    found = shutil.which(tool)
    if found:
        return found
    beside = Path(sys.executable).parent / tool
    return str(beside) if beside.exists() else None


def require(tool: str, *, why: str) -> str:
    """Return the path of `tool` or raise ToolNotFoundError naming how to get it."""
    found = which(tool)
    if found is None:
        msg = f"{tool} is not installed or not on PATH; it is needed to {why}"
        raise ToolNotFoundError(
            msg, hint=f"install it (e.g. `pip install {tool}`) or add it to PATH"
        )
    return found


def run(
    args: Sequence[str | os.PathLike[str]],
    *,
    what: str,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
    check: bool = True,
    input_text: str | None = None,
) -> Completed:
    """Run a command (argument list, no shell), capture its output, raise CommandError on failure.

    Args:
        what: a few words for messages ("uv pip compile for cu118").
        env: the complete environment for the child (None inherits ours).
    """
    argv = tuple(os.fspath(a) for a in args)
    log.debug("running: %s", redact(" ".join(argv)))
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            argv,
            cwd=cwd,
            env=dict(env) if env is not None else None,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            input=input_text,
        )
    except FileNotFoundError:
        msg = f"{argv[0]} is not installed or not on PATH (needed for {what})"
        raise ToolNotFoundError(msg) from None
    except subprocess.TimeoutExpired as exc:
        msg = f"{what} timed out after {timeout:g} s\n  command: {redact(' '.join(argv))}"
        raw: object = exc.stderr
        stderr = (
            raw.decode(errors="replace")
            if isinstance(raw, bytes)
            else ("" if raw is None else str(raw))
        )
        if stderr:
            msg += "\n" + _indent(redact("\n".join(stderr.splitlines()[-10:])))
        raise EnvgenError(msg) from None
    result = Completed(
        args=argv,
        returncode=proc.returncode,
        stdout=proc.stdout,
        stderr=proc.stderr,
        seconds=time.perf_counter() - start,
    )
    log.debug("%s finished in %.2f s (exit %d)", what, result.seconds, result.returncode)
    if check and result.returncode != 0:
        raise CommandError(result, what)
    return result


def clean_env(
    *, drop_prefixes: Sequence[str] = ("PIP_", "UV_", "CONDA_", "VIRTUAL_ENV")
) -> dict[str, str]:
    """A copy of os.environ without the variables that would change a resolver's answer."""
    return {k: v for k, v in os.environ.items() if not k.startswith(tuple(drop_prefixes))}


def exec_command(argv: Sequence[str], *, env: Mapping[str, str]) -> NoReturn:
    """Replace this process with `argv` (PATH searched in `env`): `envgen run` and `shell`.

    Not a subprocess: the command gets the terminal, its signals and its exit status are the
    user's, and nothing of envgen stays behind it.
    """
    log.debug("exec: %s", redact(" ".join(argv)))
    try:
        os.execvpe(argv[0], list(argv), dict(env))  # noqa: S606 - the user's own command
    except FileNotFoundError:
        msg = f"{argv[0]}: command not found in the environment or on PATH"
        raise ToolNotFoundError(msg) from None
    except OSError as exc:
        msg = f"{argv[0]}: cannot be run: {exc.strerror or exc}"
        raise ToolNotFoundError(msg) from None
