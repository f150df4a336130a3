"""The interpreter uv builds sdists with when it locks for another Python.

`uv pip compile --python-version 3.8` resolves for 3.8, but an sdist among the candidates is built
(to read its metadata) by the interpreter given as `--python`. The host's 3.11 runs setup.py
files that refuse it or compute other requirements (absl-py 0.9.0's setup.py refuses Python 3.11),
so the lock prefers an installed interpreter of the target's minor: one uv finds on this machine
(`uv python find --no-python-downloads`: uv's managed pythons, virtual environments, PATH; a
pyenv version is found once its `bin/` is on PATH). When there is none, it says so once and
falls back to the host's interpreter.

The look-up is remembered under the cache root (`<cache>/pythons/<minor>.json`), keyed by what
uv's search reads (`search_key`): the variables that steer it, PATH with each folder's
modification time, uv's managed-python folder, and pyenv's global and local version files. uv
takes 0.1-2 s to search (1.9 s on a machine whose pyenv shims name versions that are not
active), on every lock of a variant whose python is not the host's. Installing a python (pyenv,
uv, a package manager) or choosing another pyenv version changes one of those; a change the key
does not see is undone by deleting `<cache>/pythons/`.

This module must not resolve packages; it starts processes only through envgen.infra.proc.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from envgen.errors import EnvgenError
from envgen.infra import proc as _proc
from envgen.infra.files import atomic_write_bytes

log = logging.getLogger(__name__)

_FIND_TIMEOUT: Final = 60.0
# minor -> interpreter path ("" when none was found), per process: one look-up per minor.
_found: dict[str, str] = {}
_finding = threading.Lock()  # variants locked in parallel search once per minor
_found_system: dict[str, str] = {}  # the same for `uv venv` (no virtual environments)
_MAX_RECORD: Final = 64 * 1024


def host_minor() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def build_interpreter(
    uv: str, minor: str, env: Mapping[str, str], *, who: str, cache_dir: Path | None = None
) -> str:
    """The interpreter to pass as uv's `--python` when locking for Python `minor`.

    The host's own interpreter when it is that minor; else one uv finds on this machine; else the
    host's, with a warning naming the variant (`who`) and the fix. `cache_dir`: where the answer
    is remembered between runs (None: not remembered).
    """
    if minor == host_minor():
        return sys.executable
    with _finding:
        if minor not in _found:
            _found[minor] = _remembered_find(uv, minor, env, cache_dir)
            _say(who, minor)
    return _found[minor] or sys.executable


def _say(who: str, minor: str) -> None:
    if not _found[minor]:
        log.warning(
            "%s: no python %s interpreter on this machine; sdists are built with the host's "
            "python %s, whose setup.py answers may differ from %s's "
            "(install one: `uv python install %s`, or put its bin/ on PATH)",
            who,
            minor,
            host_minor(),
            minor,
            minor,
        )
    else:
        log.info("%s: sdists are built with python %s at %s", who, minor, _found[minor])


# Variables that steer uv's search or what a pyenv shim runs.
_SEARCH_VARIABLES: Final = (
    "VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_VERSION", "PYENV_ROOT", "UV_PYTHON",
    "UV_PYTHON_PREFERENCE", "UV_PYTHON_INSTALL_DIR",
)  # fmt: skip


def search_key(env: Mapping[str, str]) -> list[list[object]]:
    """What uv's search reads: the variables that steer it, each PATH folder, uv's
    managed-python folder and pyenv's version files, each with its modification time (None when
    absent)."""
    home = env.get("HOME", "")
    data_home = env.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")  # noqa: PTH118 - str paths
    pyenv_root = env.get("PYENV_ROOT") or os.path.join(home, ".pyenv")  # noqa: PTH118
    paths = [
        *env.get("PATH", "").split(os.pathsep),
        env.get("UV_PYTHON_INSTALL_DIR", ""),
        os.path.join(data_home, "uv", "python"),  # noqa: PTH118 - str paths
        os.path.join(pyenv_root, "version"),  # noqa: PTH118 - `pyenv global`
        os.path.join(os.getcwd(), ".python-version"),  # noqa: PTH109, PTH118 - `pyenv local`
    ]
    key: list[list[object]] = [[name, env.get(name)] for name in _SEARCH_VARIABLES]
    for folder in paths:
        try:
            mtime: int | None = os.stat(folder).st_mtime_ns if folder else None  # noqa: PTH116
        except OSError:
            mtime = None
        key.append([folder, mtime])
    return key


def venv_interpreter(
    uv: str, minor: str, env: Mapping[str, str], *, cache_dir: Path | None = None
) -> str | None:
    """The interpreter `uv venv --python MINOR` would take, for `uv venv --python PATH`; None
    when uv finds none without downloading (the caller then lets uv decide, as before).

    `uv venv` never bases an environment on another virtual environment (astral-sh/uv#3728), so
    this asks `uv python find --system`. Its search costs 0.1-0.6 s a build here (pyenv shims);
    the answer is remembered as the lock's is (`<cache>/pythons/venv-<minor>.json`).
    """
    with _finding:
        if minor not in _found_system:
            _found_system[minor] = _remembered_find(uv, minor, env, cache_dir, system=True)
    return _found_system[minor] or None


def _remembered_find(
    uv: str, minor: str, env: Mapping[str, str], cache_dir: Path | None, *, system: bool = False
) -> str:
    """`_find`, or its answer from an earlier run whose search key is this run's."""
    if cache_dir is None:
        return _find(uv, minor, env, system=system)
    record = cache_dir / "pythons" / f"{'venv-' if system else ''}{minor}.json"
    key = search_key(env)
    try:
        data = json.loads(record.read_bytes()[:_MAX_RECORD])
        if isinstance(data, dict) and data.get("key") == key:
            found = data.get("path")
            if found == "" or (isinstance(found, str) and Path(found).is_file()):
                return found
    except (OSError, ValueError):
        pass
    found = _find(uv, minor, env, system=system)
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(record, json.dumps({"key": key, "path": found}).encode())
    except OSError as exc:
        log.debug("could not remember the python %s look-up: %s", minor, exc)
    return found


def _find(uv: str, minor: str, env: Mapping[str, str], *, system: bool = False) -> str:
    flags = ["--no-python-downloads", "--no-config", "--no-project"]
    try:
        result = _proc.run(
            [uv, "python", "find", *flags, *(["--system"] if system else []), minor],
            what=f"uv python find {minor}",
            env=env,
            timeout=_FIND_TIMEOUT,
            check=False,
        )
    except EnvgenError as exc:
        log.debug("uv python find %s: %s", minor, exc)
        return ""
    path = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    if result.returncode != 0 or not path or not Path(path).is_file():
        return ""
    return path


__all__ = ["build_interpreter", "host_minor", "venv_interpreter"]
