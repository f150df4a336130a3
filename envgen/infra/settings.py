"""The user's own settings (ENVGEN_* environment variables), read and checked in one place.

`Settings.from_environ` is the only reader of envgen's settings in the environment: the CLI
(envgen.cli) calls it once per command, at its start, and passes the value down through envgen.app
into every stage; no stage reads os.environ. (Two modules still look at the process environment,
as plumbing rather than settings: envgen.infra.proc, which gives child tools a copy of it without
PIP_*/UV_*/..., and envgen.build.running, which runs the user's own command with its PATH and
SHELL.)

Settings are trusted (they are the user's), but still validated: a value envgen cannot read is a
SpecError (exit 3, as for a malformed ENVGEN_*_INDEX URL) naming the variable, the value and the
fix, before any work starts. One check needs the spec and stays with it: a plain-http
ENVGEN_*_INDEX to a remote host is refused unless the spec lists the host under trusted_hosts
(envgen.render.indexes.index_urls). This module imports only errors and infra.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from envgen.errors import SpecError, excerpt
from envgen.infra.proc import redact
from envgen.infra.urls import check_index_url

HTTP_TIMEOUT_VAR: Final = "ENVGEN_HTTP_TIMEOUT"
CUSTOM_COMMAND_VAR: Final = "ENVGEN_CUSTOM_COMMAND"
CACHE_DIR_VAR: Final = "ENVGEN_CACHE_DIR"
CHANNEL_ALIAS_VAR: Final = "ENVGEN_CONDA_CHANNEL_ALIAS"
PYTORCH_INDEX_VAR: Final = "ENVGEN_PYTORCH_INDEX"
PYPI_INDEX_VAR: Final = "ENVGEN_PYPI_INDEX"
EXTENSION_INDEX_VAR: Final = "ENVGEN_EXTENSION_INDEX"
MATRIX_VAR: Final = "ENVGEN_MATRIX"
VAULT_VAR: Final = "ENVGEN_VAULT"
S3_ENDPOINT_VAR: Final = "ENVGEN_S3_ENDPOINT_URL"
MAX_HTTP_TIMEOUT_S: Final = 24 * 3600.0

_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f]")


def default_cache_root() -> Path:
    """~/.cache/envgen: the cache root when ENVGEN_CACHE_DIR is unset."""
    return Path.home() / ".cache" / "envgen"


def default_key_file(config_home: str | None = None) -> Path:
    """`$XDG_CONFIG_HOME/envgen/build-key` (an absolute XDG_CONFIG_HOME), else under ~/.config."""
    base = Path(config_home) if config_home and Path(config_home).is_absolute() else None
    return (base or Path.home() / ".config") / "envgen" / "build-key"


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """The user's settings for one envgen run; `Settings()` is "none set" (every default).

    Attributes:
        pytorch_index / pypi_index: ENVGEN_PYTORCH_INDEX / ENVGEN_PYPI_INDEX, overriding the
            spec's pytorch_index / pypi_index (envgen.render.indexes.index_urls).
        extension_index: ENVGEN_EXTENSION_INDEX, a mirror of the extensions' wheel hosts.
        channel_alias: ENVGEN_CONDA_CHANNEL_ALIAS, standing in for https://conda.anaconda.org.
        cache_root: ENVGEN_CACHE_DIR, else ~/.cache/envgen: the parsed-matrix cache (`matrix/`),
            uv's cache (`uv/`, the same for `lock` and `build`), rattler's (`rattler/`),
            pip-tools' (`pip-tools/`), the bytecode store (`pyc/`) and the stamps of the locks
            this machine wrote or verified (`verified-locks/`, `verified-builds/`:
            envgen.lock.stamps).
        http_timeout: ENVGEN_HTTP_TIMEOUT in seconds, or None (each tool's default applies).
        custom_command: ENVGEN_CUSTOM_COMMAND, the header's "To regenerate" command, or None.
        key_file: the per-user key that seals the environments this machine built
            (envgen.infra.buildkey): `$XDG_CONFIG_HOME/envgen/build-key`, else under ~/.config;
            never inside a project.
        in_ci: CI is set (to anything but ""): no live progress display, even on a terminal.
        netrc_file: NETRC (as uv, pip and curl read it), else None (~/.netrc): credentials for
            envgen's own index reads (pylock.toml, `envgen vault`), as uv gets them.
        matrix_dir: ENVGEN_MATRIX, the matrix directory when a command gets no --matrix (an
            existing folder), else None (the bundled matrices/).
        vault: ENVGEN_VAULT, the vault `envgen build` installs from when it gets no --vault.
        s3_endpoint_url: ENVGEN_S3_ENDPOINT_URL, the S3-compatible server of `envgen vault
            push|pull` when they get no --endpoint-url.

    A command-line option that stands for one of these replaces it for that command; the CLI
    applies it once, where it builds the command's options (envgen.cli).
    """

    pytorch_index: str | None = None
    pypi_index: str | None = None
    extension_index: str | None = None
    channel_alias: str | None = None
    cache_root: Path = field(default_factory=default_cache_root)
    http_timeout: float | None = None
    custom_command: str | None = None
    key_file: Path = field(default_factory=default_key_file)
    in_ci: bool = False
    netrc_file: Path | None = None
    matrix_dir: Path | None = None
    vault: str | None = None
    s3_endpoint_url: str | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        """Read and check every setting.

        Raises:
            SpecError: a value envgen cannot use, naming the variable (a URL redacted).
        """
        timeout = _http_timeout(environ.get(HTTP_TIMEOUT_VAR, ""))
        indexes = {
            name: environ.get(name) or None
            for name in (PYTORCH_INDEX_VAR, PYPI_INDEX_VAR, EXTENSION_INDEX_VAR)
        }
        for name, value in indexes.items():
            # trusted=True: whether plain http to this host is allowed is the spec's to say
            # (trusted_hosts); index_urls checks it once the spec is known.
            _check_url(name, value, trusted=True)
        alias = environ.get(CHANNEL_ALIAS_VAR) or None
        _check_url(CHANNEL_ALIAS_VAR, alias, trusted=False)
        command = environ.get(CUSTOM_COMMAND_VAR)
        if command is not None:
            check_one_line(command, where=CUSTOM_COMMAND_VAR)
        cache = environ.get(CACHE_DIR_VAR)
        matrix = environ.get(MATRIX_VAR) or None
        if matrix is not None:
            _check_folder(MATRIX_VAR, matrix)
        return cls(
            pytorch_index=indexes[PYTORCH_INDEX_VAR],
            pypi_index=indexes[PYPI_INDEX_VAR],
            extension_index=indexes[EXTENSION_INDEX_VAR],
            channel_alias=alias,
            cache_root=Path(cache) if cache else default_cache_root(),
            http_timeout=timeout,
            custom_command=command,
            key_file=default_key_file(environ.get("XDG_CONFIG_HOME")),
            in_ci=ci_requested(environ),
            netrc_file=Path(environ["NETRC"]) if environ.get("NETRC") else None,
            matrix_dir=Path(matrix) if matrix is not None else None,
            vault=environ.get(VAULT_VAR) or None,
            s3_endpoint_url=environ.get(S3_ENDPOINT_VAR) or None,
        )

    @classmethod
    def from_process(cls) -> Settings:
        """`from_environ(os.environ)`: for a caller that is itself an edge (scripts, benchmarks)."""
        return cls.from_environ(os.environ)

    def uv_http_timeout(self) -> str | None:
        """The value to give uv as UV_HTTP_TIMEOUT (whole seconds, at least 1), or None."""
        return uv_http_timeout(self.http_timeout)


def uv_http_timeout(seconds: float | None) -> str | None:
    """`seconds` as uv's UV_HTTP_TIMEOUT and pip's PIP_TIMEOUT want it (whole, at least 1)."""
    return None if seconds is None else str(max(1, math.ceil(seconds)))


def check_one_line(value: str, *, where: str) -> None:
    """SpecError when `value` (a command for a header comment line) holds a control character.

    A newline would end the header comment and add lines (Makefile targets, YAML keys) to the
    file.
    """
    found = _CONTROL.search(value)
    if found:
        msg = (
            f"{where}: {value[:80]!r} holds a control character ({found.group()!r}); it is "
            "written into a comment line of every generated file and must be one line; give a "
            "one-line command without control characters"
        )
        raise SpecError(msg)


def _check_url(name: str, value: str | None, *, trusted: bool) -> None:
    if value:
        problem = check_index_url(value, trusted=trusted)
        if problem:
            # The message names the URL redacted: a token in it must not reach a log.
            msg = f"{name}: {redact(problem)}"
            raise SpecError(msg)


def _check_folder(name: str, value: str) -> None:
    """SpecError unless `value` is an existing folder (what `--matrix` accepts)."""
    if not Path(value).is_dir():
        what = "is not a folder" if Path(value).exists() else "does not exist"
        msg = f"{name}={excerpt(value, 120)!r} {what}; point it at a matrix folder or unset it"
        raise SpecError(msg, source=name)


def _http_timeout(raw: str) -> float | None:
    raw = raw.strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_HTTP_TIMEOUT_S):
        msg = (
            f"{HTTP_TIMEOUT_VAR}={excerpt(raw, 40)!r} is not a number of seconds "
            f"(a number above 0, at most {MAX_HTTP_TIMEOUT_S:g})"
        )
        msg += f"; set it to seconds, e.g. {HTTP_TIMEOUT_VAR}=60, or unset it"
        raise SpecError(msg, source=HTTP_TIMEOUT_VAR)
    return value


__all__ = [
    "CACHE_DIR_VAR",
    "HTTP_TIMEOUT_VAR",
    "MATRIX_VAR",
    "S3_ENDPOINT_VAR",
    "VAULT_VAR",
    "Settings",
    "check_one_line",
    "default_cache_root",
    "default_key_file",
    "dumb_terminal",
    "uv_http_timeout",
]


def no_color_requested(environ: Mapping[str, str] | None = None) -> bool:
    """NO_COLOR set to anything but "" (https://no-color.org); `environ` defaults to the process's.

    The CLI asks this alone before any command runs, so a bad ENVGEN_* value does not stop a
    command that never reads the settings.
    """
    return bool((os.environ if environ is None else environ).get("NO_COLOR"))


def ci_requested(environ: Mapping[str, str] | None = None) -> bool:
    """CI set to anything but "" (Settings.in_ci), asked alone, as no_color_requested is."""
    return bool((os.environ if environ is None else environ).get("CI"))


def dumb_terminal(environ: Mapping[str, str] | None = None) -> bool:
    """TERM is "dumb": a terminal that cannot redraw a line (Emacs shells, some CI consoles)."""
    return (os.environ if environ is None else environ).get("TERM", "") == "dumb"
