"""Where a pip variant's interpreter comes from: uv, or conda-forge when uv cannot provide it.

uv finds installed interpreters and downloads its managed builds, which start at CPython 3.8
(uv 0.13: `uv python list 3.7 --only-downloads` is empty). A paper of 2019 wants python 3.6, so
a pip variant whose python uv can neither find nor download gets it from conda-forge instead:
py-rattler solves `python X.Y.*` (CPython builds only) for the variant's platform and installs it
into the environment's prefix, and uv then syncs the pip lock straight into that prefix. The
environment is then a conda prefix holding one conda package family (python and its libraries)
plus the pip lock; the build marker says so.

The conda-forge channel is reached through the user's channel alias (ENVGEN_CONDA_CHANNEL_ALIAS,
a mirror or a local copy), as for conda variants. As with uv's own interpreters, the patch
release is chosen at build time (the newest build conda-forge has); the lock pins the packages,
not the interpreter.

Python 2.7 and 3.5 (torch 1.0-1.5 has PyPI wheels for them, cp27mu / cp35m) come from
conda-forge the same way, but uv can neither create nor sync into them: the lock (made by pip
20.3.4, envgen.lock.legacy) is installed with pip 20.3.4, the last pip for both, run from PyPI's
wheel under the environment's own interpreter: `pip install --require-hashes --no-deps`, so every
file is the one the lock hashed (`install_with_pip20`).

This module must not resolve pip packages or decide where environments live; it starts
processes only through envgen.infra.proc.
"""

from __future__ import annotations

import json
import logging
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from envgen.build.builder import BuildRequest, python_of, rattler_install
from envgen.errors import BuildError, EnvgenError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.lock.legacy import (
    PIP_VERSION,
    build_tool_pins,
    is_rattler_error,
    pip_environment,
    pip_wheel,
    store_dir,
)

log = logging.getLogger(__name__)

CONDA_FORGE: Final = "conda-forge"


def uv_provides(uv: str, python: str, env: Mapping[str, str], *, timeout: float = 120.0) -> bool:
    """True when `uv venv --python <python>` would get an interpreter: one uv can download
    (`uv python list --only-downloads`, read from uv's own table, no network) or one it finds
    on this machine (`uv python find --no-python-downloads`)."""
    try:
        listed = _proc.run(
            [uv, "python", "list", python, "--only-downloads", "--output-format", "json",
             "--no-config"],
            what=f"uv python list {python}",
            env=env,
            timeout=timeout,
            check=False,
        )  # fmt: skip
        if listed.returncode == 0 and json.loads(listed.stdout or "[]"):
            return True
    except ToolNotFoundError:
        raise
    except (EnvgenError, json.JSONDecodeError) as exc:
        log.debug("uv python list %s: %s", python, exc)
    found = _proc.run(
        [uv, "python", "find", "--no-python-downloads", "--no-config", "--no-project", python],
        what=f"uv python find {python}",
        env=env,
        timeout=timeout,
        check=False,
    )
    return found.returncode == 0


def install_with_pip20(request: BuildRequest, lock_body: str, index_env: Mapping[str, str]) -> None:
    """Install a python 2.7 / 3.5 lock (index lines already taken out) into the prefix's own
    interpreter with pip 20.3.4: hashes required, no dependency resolution, files from the
    lock's find-links store first (envgen.lock.legacy)."""
    variant = request.variant
    wheel = pip_wheel(request.cache_dir, timeout=request.http_timeout or 60.0)
    env = {**pip_environment(wheel), **index_env}
    store = store_dir(request.cache_dir)
    if store.is_dir():
        env["PIP_FIND_LINKS"] = " ".join([*env.get("PIP_FIND_LINKS", "").split(), str(store)])
    # setuptools and wheel first: an sdist's setup.py runs in this environment (legacy.BUILD_TOOLS)
    tools = build_tool_pins(lock_body)
    with tempfile.TemporaryDirectory(prefix="envgen-build-") as work:
        for name, body in (("build-tools.txt", tools), ("requirements.txt", lock_body)):
            if not body:
                continue
            copy = Path(work) / name
            copy.write_text(body, encoding="utf-8")
            _proc.run(
                [python_of(request.prefix.absolute()), "-s", "-m", "pip", "install",
                 "--require-hashes", "--no-deps", "--no-cache-dir", "--progress-bar", "off",
                 "--no-warn-script-location", "-r", copy],
                what=f"pip {PIP_VERSION} install for {variant.id} (python {variant.python})",
                cwd=Path(work),
                env=env,
                timeout=request.timeout,
            )  # fmt: skip


def conda_forge_url(channel_alias: str | None) -> str:
    """conda-forge's URL, through the channel alias when one is set (as the conda locker maps it).

    >>> conda_forge_url(None)
    'https://conda.anaconda.org/conda-forge'
    >>> conda_forge_url("file:///mirror/")
    'file:///mirror/conda-forge'
    """
    # Function-local: a build whose python uv provides never loads the conda locker.
    from envgen.lock.conda import resolve_channels  # noqa: PLC0415
    from envgen.render.indexes import conda_channel_map  # noqa: PLC0415

    (channel,) = resolve_channels([CONDA_FORGE], conda_channel_map(channel_alias))
    return channel.solve_url


def python_spec(python: str) -> str:
    """The match spec of a CPython X.Y from conda-forge.

    >>> python_spec("3.6")
    'python 3.6.* *_cpython'
    """
    return f"python {python}.* *_cpython"


async def _solve_and_install(request: BuildRequest, channel: str) -> Any:  # noqa: ANN401 - rattler is untyped
    import rattler  # noqa: PLC0415 - heavy (rattler), only when uv cannot provide the python

    from envgen.lock.conda import rattler_virtual_packages, virtual_packages  # noqa: PLC0415

    variant = request.variant
    records = await rattler.solve(
        sources=[channel],
        specs=[python_spec(variant.python)],
        gateway=rattler.Gateway(cache_dir=request.cache_dir / "rattler"),
        platforms=[variant.platform, "noarch"],
        # The interpreter needs no GPU.
        virtual_packages=rattler_virtual_packages(
            v for v in virtual_packages(variant) if v.name != "__cuda"
        ),
    )
    await rattler_install(records, request)
    return records


def install_conda_python(request: BuildRequest) -> str:
    """Install CPython `request.variant.python` from conda-forge into `request.prefix`.

    Returns the line the build marker and report carry: "python 3.6.15 from conda-forge (uv
    cannot provide python 3.6)".
    """
    variant = request.variant
    channel = conda_forge_url(request.channel_alias)
    import asyncio  # noqa: PLC0415 - with ssl, ~20 ms: only for a python uv cannot provide

    try:
        records = asyncio.run(_solve_and_install(request, channel))
    except Exception as exc:  # rattler raises its own exception types
        if not is_rattler_error(exc) and not isinstance(exc, OSError):
            raise
        # The channel alias (a mirror) may carry credentials: never echo them.
        msg = _proc.redact(
            f"{variant.id}: uv cannot provide python {variant.python}, and installing it from "
            f"{channel} failed: {exc}"
        )
        raise BuildError(
            msg, hint="set ENVGEN_CONDA_CHANNEL_ALIAS to a reachable copy of conda-forge"
        ) from None
    version = next(
        (str(r.version) for r in records if str(r.name.normalized) == "python"), variant.python
    )
    note = f"python {version} from {CONDA_FORGE} (uv cannot provide python {variant.python})"
    log.info("%s: %s", variant.id, note)
    return note


__all__ = [
    "CONDA_FORGE",
    "conda_forge_url",
    "install_conda_python",
    "install_with_pip20",
    "python_spec",
    "uv_provides",
]
