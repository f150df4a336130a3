"""The pip side of a full lock for Python 2.7 and 3.5, which uv cannot target.

uv refuses both (`uv pip compile --python-version 2.7`: "Python <3.6 is not supported", uv
0.13.9, measured 2026-12-03), and pip-tools resolves only for the interpreter it runs in. So the
lock is made by the last pip for these pythons, pip 20.3.4 (its 2020 resolver; it honours
`requires-python`), running under a real CPython 2.7 / 3.5: `python2.7` / `python3.5` on PATH,
else conda-forge's (through the channel alias, as `envgen build` gets it; kept in the cache
root): `pip download` resolves the variant's requirements for that interpreter and this
platform and fetches every file it picked; the lock pins each with the sha256 of the very file
(`pip install --require-hashes` checks exactly that). pip itself is PyPI's
pip-20.3.4-py2.py3-none-any.whl, checked against its sha256 below and run from the wheel
(`PYTHONPATH=<wheel> python -m pip`, as get-pip does), so the interpreter needs no pip of its own.

What it cannot do, said where it matters: filter by upload date (pip 20.3.4 has no
exclude-newer: an explicit one is an error, the release's era date is not applied), and lock for
another platform than the running one (the files are what this machine's pip picks).

This module must not write outside `request.workdir` and the cache root, and starts processes
only through envgen.infra.proc.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from packaging.requirements import Requirement
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)

from envgen.errors import LockError, ToolNotFoundError
from envgen.infra import network
from envgen.infra import proc as _proc
from envgen.infra.files import atomic_write_bytes
from envgen.lock.locker import LockRequest

log = logging.getLogger(__name__)

# Pythons uv cannot target (uv 0.13: "Python <3.6 is not supported"), which torch 1.0-1.5 has
# wheels for on PyPI (cp27mu, cp35m; PEP 691 simple API, read 2026-12-03).
LEGACY_PYTHONS: Final = frozenset({"2.7", "3.5"})

# The last pip for Python 2.7 and 3.5 (requires-python >=2.7,!=3.0.*,...,!=3.4.*; pip 21.0
# dropped both). sha256 from PyPI's simple API (https://pypi.org/simple/pip/), read 2026-12-03.
PIP_VERSION: Final = "20.3.4"
PIP_WHEEL: Final = "pip-20.3.4-py2.py3-none-any.whl"
PIP_WHEEL_URL: Final = (
    "https://files.pythonhosted.org/packages/27/79/"
    "8a850fe3496446ff0d584327ae44e7500daf6764ca1a382d2d02789accf7/" + PIP_WHEEL
)
PIP_WHEEL_SHA256: Final = "217ae5161a0e08c0fb873858806e3478c9775caffce5168b50ec885e358c199d"
_PIP_WHEEL_MAX: Final = 4 * 1024 * 1024  # the wheel is 1.5 MB
_DOWNLOADS: Final = "downloads"


# What pip 20.3.4 needs in the environment to install an sdist that has no pyproject.toml.
BUILD_TOOLS: Final = ("setuptools", "wheel")


def is_legacy(python: str) -> bool:
    """True for the pythons this module locks (and envgen.build installs with pip 20.3.4).

    >>> is_legacy("2.7"), is_legacy("3.5"), is_legacy("3.6")
    (True, True, False)
    """
    return python in LEGACY_PYTHONS


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pip_wheel(cache_dir: Path, *, timeout: float) -> Path:
    """PyPI's pip 20.3.4 wheel under `<cache_dir>/legacy-pip/`, fetched once and checked
    against its sha256 each time it is used."""
    path = cache_dir / "legacy-pip" / PIP_WHEEL
    if path.is_file() and _sha256(path) == PIP_WHEEL_SHA256:
        return path
    data = network.http_get(
        PIP_WHEEL_URL, timeout=timeout, retries=3, max_bytes=_PIP_WHEEL_MAX,
        hint="pip 20.3.4 (the last pip for Python 2.7 and 3.5) comes from PyPI",
    ).body  # fmt: skip
    if hashlib.sha256(data).hexdigest() != PIP_WHEEL_SHA256:
        msg = f"{PIP_WHEEL_URL}: the download does not have the sha256 PyPI publishes for it"
        raise LockError(msg, hint="check the network path to files.pythonhosted.org (a proxy?)")
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, data)
    return path


def find_interpreter(python: str) -> str | None:
    """The CPython `python` ("2.7") on PATH, as `python2.7`, when it runs as that python (a
    pyenv shim of a version not selected is on PATH but fails); else None."""
    found = _proc.which(f"python{python}")
    if found is None:
        return None
    probe = _proc.run(
        [found, "-c", "import sys; sys.stdout.write('%d.%d' % sys.version_info[:2])"],
        what=f"python{python} --version",
        env=_proc.clean_env(),
        timeout=60,
        check=False,
    )
    if probe.returncode == 0 and probe.stdout.strip() == python:
        return found
    log.debug("python%s at %s does not run as python %s: %s", python, found, python, probe.stderr)
    return None


def is_rattler_error(exc: BaseException) -> bool:
    """Whether `exc` is one of py-rattler's own errors (a channel that cannot be reached, a solve
    that fails), to be reported as such, not as a bug. Its classes live in a module named
    `exceptions` (py-rattler 0.28: `GatewayError.__module__ == "exceptions"`), not `rattler`, so
    the module's name alone does not tell."""
    import rattler.exceptions  # noqa: PLC0415 - heavy: only after something failed

    return any(
        isinstance(cls, type) and issubclass(cls, Exception) and isinstance(exc, cls)
        for name, cls in vars(rattler.exceptions).items()
        if name.endswith("Error")
    )


async def _solve_and_install(request: LockRequest, channel: str, prefix: Path, final: Path) -> None:
    import rattler  # noqa: PLC0415 - heavy (rattler), only when no python X.Y is on PATH

    from envgen.lock.conda import rattler_virtual_packages, virtual_packages  # noqa: PLC0415

    variant = request.variant
    cache = request.cache_dir if request.cache_dir is not None else request.workdir / "cache"
    records = await rattler.solve(
        sources=[channel],
        specs=[f"python {variant.python}.* *_cpython"],
        gateway=rattler.Gateway(cache_dir=cache / "rattler"),
        platforms=[variant.platform, "noarch"],
        virtual_packages=rattler_virtual_packages(
            v for v in virtual_packages(variant) if v.name != "__cuda"
        ),
    )
    await rattler.install(
        list(records), target_prefix=prefix, cache_dir=cache / "rattler", show_progress=False,
        alternative_target_prefix=final,
    )  # fmt: skip


def lock_interpreter(request: LockRequest) -> str:
    """The interpreter pip 20.3.4 runs under: `python2.7` / `python3.5` from PATH, else CPython
    from conda-forge (through the channel alias, as the build gets it), kept in the cache root
    (`<cache>/legacy-python/<python>-<platform>`)."""
    variant = request.variant
    found = find_interpreter(variant.python)
    if found is not None:
        return found
    import asyncio  # noqa: PLC0415 - only when no python X.Y is on PATH

    from envgen.lock.conda import resolve_channels  # noqa: PLC0415 - as above

    cache = request.cache_dir if request.cache_dir is not None else request.workdir / "cache"
    prefix = cache / "legacy-python" / f"{variant.python}-{variant.platform}"
    python = prefix / "bin" / "python"
    if python.is_file():
        return str(python)
    (channel,) = resolve_channels(["conda-forge"], request.conda_channels)
    prefix.parent.mkdir(parents=True, exist_ok=True)
    # A folder of its own: variants lock in parallel threads of one process.
    temp = Path(tempfile.mkdtemp(prefix=f".{prefix.name}.tmp-", dir=prefix.parent))
    try:
        asyncio.run(_solve_and_install(request, channel.solve_url, temp, prefix))
    except Exception as exc:  # rattler raises its own exception types
        if not is_rattler_error(exc) and not isinstance(exc, OSError):
            raise
        shutil.rmtree(temp, ignore_errors=True)
        msg = _proc.redact(
            f"{variant.id}: locking for python {variant.python} runs pip {PIP_VERSION} under "
            f"that python (uv cannot target it); python{variant.python} is not on PATH and "
            f"installing it from {channel.solve_url} failed: {exc}"
        )
        raise ToolNotFoundError(
            msg,
            hint=f"put a CPython {variant.python} on PATH as python{variant.python}, or set "
            "ENVGEN_CONDA_CHANNEL_ALIAS to a reachable copy of conda-forge",
        ) from None
    try:
        temp.rename(prefix)
    except OSError:  # another variant's lock put one there meanwhile: use that one
        shutil.rmtree(temp, ignore_errors=True)
    return str(python)


def pip_environment(wheel: Path) -> dict[str, str]:
    """The environment pip 20.3.4 runs in: no PIP_ variables or pip config of the machine, pip
    from its wheel, no version check."""
    env = _proc.clean_env(drop_prefixes=("PIP_", "UV_", "CONDA_", "VIRTUAL_ENV", "PYTHON"))
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    env["PYTHONPATH"] = os.fspath(wheel)
    # pip 20.3.4's vendored certifi predates today's roots; the machine's bundle, when named.
    for name in ("REQUESTS_CA_BUNDLE", "SSL_CERT_FILE"):
        if env.get(name):
            env["PIP_CERT"] = env[name]
            break
    return env


def pins_from_files(files: Iterable[Path], direct: dict[str, str] | None = None) -> list[str]:
    """Hash-pinned requirement lines for the files `pip download` saved, sorted by name.

    `direct`: canonical name -> the URL of a requirement that names its file (`torch @ URL`),
    written as such. A file whose name is neither a wheel's nor an sdist's is an error.
    """
    direct = direct or {}
    entries: dict[str, str] = {}
    for path in files:
        try:
            name, version, *_ = (
                parse_wheel_filename(path.name)
                if path.name.endswith(".whl")
                else parse_sdist_filename(path.name)
            )
        except (InvalidWheelFilename, InvalidSdistFilename):
            msg = f"pip {PIP_VERSION} downloaded {path.name}, which is neither a wheel nor an sdist"
            raise LockError(msg) from None
        key = canonicalize_name(name)
        if key in entries:
            msg = f"pip {PIP_VERSION} downloaded two files of {key}; cannot pin one"
            raise LockError(msg)
        head = f"{key} @ {direct[key]}" if key in direct else f"{key}=={version}"
        entries[key] = f"{head} \\\n    --hash=sha256:{_sha256(path)}"
    return [line for key in sorted(entries) for line in entries[key].split("\n")]


def previous_pins(request: LockRequest) -> list[str]:
    """`name==version` of the previous lock's pins (not `--upgrade`, not the packages named by
    `--upgrade-package`, not direct URLs): constraints that keep unchanged pins put, as uv's
    seeding from the previous output does."""
    previous = request.previous.get("requirements.txt")
    if previous is None or request.upgrade:
        return []
    skip = {canonicalize_name(n) for n in request.upgrade_packages}
    out = []
    for line in previous.splitlines():
        head = line.split(" \\")[0].split(";")[0].strip()
        if line[:1].isspace() or "==" not in head or head.startswith(("-", "#")):
            continue
        name = head.partition("==")[0].split("[")[0].strip()
        if canonicalize_name(name) not in skip:
            out.append(head)
    return out


def lock_with_pip20(
    request: LockRequest,
    *,
    requirements: list[str],
    index_env: dict[str, str],
    constraints: Path | None,
) -> list[str]:
    """Resolve `requirements` for the request's variant (python 2.7 / 3.5) with pip 20.3.4 under
    that interpreter; the hash-pinned lines of every file it picked.

    pip 20.3.4's `download` fails on a constraint that names a package the resolution does not
    include (`assert req.link is not None`, measured with `numpy<2` and torch alone), so a first
    pass without constraints finds the packages, and the second passes only the constraints that
    name them: the known incompatibilities, then the previous lock's pins (which keep unchanged
    pins put, as uv's seeding does; dropped when they no longer resolve)."""
    workdir = request.workdir
    cache = request.cache_dir if request.cache_dir is not None else workdir / "cache"
    python = lock_interpreter(request)
    wheel = pip_wheel(cache, timeout=request.http_timeout or 60.0)
    (workdir / "requirements.in").write_text(
        "".join(f"{r}\n" for r in requirements), encoding="utf-8"
    )
    base: list[str | Path] = [
        python, "-s", "-m", "pip", "download", "--progress-bar", "off",
        "--cache-dir", cache / "pip-legacy", "--dest", workdir / _DOWNLOADS,
        "-r", "requirements.in",
    ]  # fmt: skip
    env = _download_environment(request, wheel, index_env, store_dir(cache))
    known = constraint_lines(constraints.read_text(encoding="utf-8")) if constraints else []
    result = _download(request, base, env)
    names: set[str] = set()
    if result.returncode == 0:
        names = {_name(f.name) for f in (workdir / _DOWNLOADS).iterdir()}
        keep(sorted((workdir / _DOWNLOADS).iterdir()), store_dir(cache))
    for extra in ([*known, *previous_pins(request)], known) if result.returncode == 0 else ():
        used = [line for line in extra if _name(line) in names]
        if not used:
            break
        (workdir / "constraints-used.txt").write_text("\n".join(used) + "\n", encoding="utf-8")
        result = _download(request, [*base, "-c", "constraints-used.txt"], env)
        if result.returncode == 0:
            break
    if result.returncode != 0:
        raise _failure(request, requirements, result.stderr)
    direct: dict[str, str] = {
        str(canonicalize_name(req.name)): req.url
        for req in map(Requirement, requirements)
        if req.url is not None
    }
    files = sorted((workdir / _DOWNLOADS).iterdir())
    picked = {_name(f.name) for f in files}
    if any(not f.name.endswith(".whl") for f in files) and not set(BUILD_TOOLS) <= picked:
        # pip 20.3.4 installs an sdist without a pyproject.toml by running its setup.py in the
        # environment itself (no isolation): setuptools and wheel must be there, and conda-forge's
        # python package brings neither (future 1.0.0 on python 2.7: "No module named
        # setuptools"). Locked with the rest, hashed, installed first (install_with_pip20).
        for f in files:
            f.unlink()
        return lock_with_pip20(
            request,
            requirements=[*requirements, *(t for t in BUILD_TOOLS if t not in picked)],
            index_env=index_env,
            constraints=constraints,
        )
    pins = pins_from_files(files, direct)
    keep(files, store_dir(cache))
    return pins


def build_tool_pins(lock_body: str) -> str:
    """The hash-pinned lines of the build tools (BUILD_TOOLS) in a legacy lock's body, for
    installing them before the sdists that need them; "" when the lock has none."""
    out: list[str] = []
    taking = False
    for line in lock_body.splitlines():
        if line[:1].isspace():
            if taking:
                out.append(line)
            continue
        head = line.split(" \\")[0].split("==")[0].strip()
        taking = bool(head) and canonicalize_name(head) in BUILD_TOOLS
        if taking:
            out.append(line)
    return "".join(f"{line}\n" for line in out)


def constraint_lines(text: str) -> list[str]:
    """The requirement of each line of a constraints file, comments dropped.

    >>> constraint_lines("pillow<7  # pillow7-with-torchvision-before-0.5: https://x\\n\\nnumpy<2\\n")
    ['pillow<7', 'numpy<2']
    """
    return [
        line.split("#", 1)[0].strip() for line in text.splitlines() if line.split("#")[0].strip()
    ]


def _name(item: str) -> str:
    """The canonical project name of a requirement line or a wheel / sdist file name."""
    if item.endswith(".whl"):
        return str(parse_wheel_filename(item)[0])
    if item.endswith((".tar.gz", ".zip", ".tar.bz2")):
        try:
            return str(parse_sdist_filename(item)[0])
        except InvalidSdistFilename:
            return item
    return str(canonicalize_name(Requirement(item).name))


def _download_environment(
    request: LockRequest, wheel: Path, index_env: dict[str, str], store: Path
) -> dict[str, str]:
    env = {**pip_environment(wheel), **index_env}
    # pip 20.3.4 run this way keeps no http cache of the files (measured: its cache folder
    # stays empty), so the files it picked are kept in a find-links store of the cache root:
    # a torch wheel (~560-750 MB) crosses the network once for the lock and the build.
    env["PIP_FIND_LINKS"] = " ".join([*env.get("PIP_FIND_LINKS", "").split(), os.fspath(store)])
    if request.offline:  # a verification's first try: the files the store has, no index
        env = {k: v for k, v in env.items() if k not in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL")}
        env["PIP_NO_INDEX"] = "1"
        env["PIP_FIND_LINKS"] = os.fspath(store)
    if request.http_timeout is not None:
        env["PIP_TIMEOUT"] = str(int(request.http_timeout))
    return env


def _download(request: LockRequest, args: list[str | Path], env: dict[str, str]) -> _proc.Completed:
    shutil.rmtree(request.workdir / _DOWNLOADS, ignore_errors=True)
    variant = request.variant
    return _proc.run(
        args,
        what=f"pip {PIP_VERSION} download for {variant.id} (python {variant.python})",
        cwd=request.workdir,
        env=env,
        timeout=request.timeout,
        check=False,
    )


def _failure(request: LockRequest, requirements: list[str], stderr: str) -> LockError:
    variant = request.variant
    lines = [line for line in stderr.splitlines() if line.strip()]
    said = [line for line in lines if line.startswith("ERROR")][-4:] or lines[-4:]
    msg = (
        f"{variant.id}: pip {PIP_VERSION} under python {variant.python} could not lock the "
        f"pip side ({variant.platform})\n  requirements: {', '.join(requirements)}\n"
        "  pip says:\n" + "\n".join(f"    {line}" for line in (said or ["(no output)"]))
    )
    return LockError(
        _proc.redact(msg),
        hint=f"check the pins: pip {PIP_VERSION} takes only files published for python "
        f"{variant.python} on this platform (PyPI's torch has Linux cp27mu wheels up to 1.4.0)",
    )


def store_dir(cache_dir: Path) -> Path:
    """The find-links folder of the files pip 20.3.4 locked (`<cache root>/legacy-wheels`)."""
    return cache_dir / "legacy-wheels"


def keep(files: Iterable[Path], store: Path) -> None:
    """Move the downloaded files into the store (atomically; a file already there stays)."""
    store.mkdir(parents=True, exist_ok=True)
    for path in files:
        target = store / path.name
        if target.is_file() and target.stat().st_size == path.stat().st_size:
            continue
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.tmp-", dir=store)
        os.close(handle)
        shutil.copyfile(path, name)
        Path(name).replace(target)


__all__ = [
    "LEGACY_PYTHONS",
    "PIP_VERSION",
    "PIP_WHEEL",
    "PIP_WHEEL_SHA256",
    "constraint_lines",
    "find_interpreter",
    "is_legacy",
    "lock_interpreter",
    "lock_with_pip20",
    "pins_from_files",
    "pip_environment",
    "pip_wheel",
    "previous_pins",
    "store_dir",
]
