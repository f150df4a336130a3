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

Python 2 pip variants are refused: uv cannot install into Python 2, and torch's Python 2.7
builds are reachable only through conda.

This module must not resolve pip packages or decide where environments live; it starts
processes only through envgen.infra.proc.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping
from typing import Any, Final

from envgen.build.base import BuildRequest, rattler_install
from envgen.errors import BuildError, EnvgenError, ToolNotFoundError
from envgen.infra import proc as _proc

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


def refuse_python_2(variant_id: str, python: str) -> None:
    """BuildError for a Python 2 pip variant: conda-only."""
    if python.split(".", 1)[0] == "2":
        msg = (
            f"{variant_id}: python {python} is conda-only: uv cannot install pip packages into "
            "Python 2, so a pip variant cannot be built for it"
        )
        raise BuildError(msg, hint="use python 3.6 or later for this variant")


def conda_forge_url(channel_alias: str | None) -> str:
    """conda-forge's URL, through the channel alias when one is set (as the conda locker maps it).

    >>> conda_forge_url(None)
    'https://conda.anaconda.org/conda-forge'
    >>> conda_forge_url("file:///mirror/")
    'file:///mirror/conda-forge'
    """
    # Function-local: a build whose python uv provides never loads the conda locker.
    from envgen.lock.conda import resolve_channels  # noqa: PLC0415
    from envgen.render.base import conda_channel_map  # noqa: PLC0415

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
    try:
        records = asyncio.run(_solve_and_install(request, channel))
    except Exception as exc:  # rattler raises its own exception types
        if type(exc).__module__.split(".")[0] != "rattler" and not isinstance(exc, OSError):
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
    "python_spec",
    "refuse_python_2",
    "uv_provides",
]
