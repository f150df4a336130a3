"""The interpreter uv builds sdists with when it locks for another Python.

`uv pip compile --python-version 3.8` resolves for 3.8, but an sdist among the candidates is built
(to read its metadata) by the interpreter given as `--python`. The host's 3.11 runs setup.py
files that refuse it or compute other requirements (absl-py 0.9.0's setup.py refuses Python 3.11),
so the lock prefers an installed interpreter of the target's minor: one uv finds on this machine
(`uv python find --no-python-downloads`: uv's managed pythons, virtual environments, PATH; a
pyenv version is found once its `bin/` is on PATH). When there is none, it says so once and
falls back to the host's interpreter.

This module must not resolve packages; it starts processes only through envgen.infra.proc.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from envgen.errors import EnvgenError
from envgen.infra import proc as _proc

log = logging.getLogger(__name__)

_FIND_TIMEOUT: Final = 60.0
# minor -> interpreter path ("" when none was found), per process: one look-up per minor.
_found: dict[str, str] = {}


def host_minor() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def build_interpreter(uv: str, minor: str, env: Mapping[str, str], *, who: str) -> str:
    """The interpreter to pass as uv's `--python` when locking for Python `minor`.

    The host's own interpreter when it is that minor; else one uv finds on this machine; else the
    host's, with a warning naming the variant (`who`) and the fix.
    """
    if minor == host_minor():
        return sys.executable
    if minor not in _found:
        _found[minor] = _find(uv, minor, env)
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
    return _found[minor] or sys.executable


def _find(uv: str, minor: str, env: Mapping[str, str]) -> str:
    try:
        result = _proc.run(
            [uv, "python", "find", "--no-python-downloads", "--no-config", "--no-project", minor],
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


__all__ = ["build_interpreter", "host_minor"]
