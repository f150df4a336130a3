"""Builders: one variant's lock files -> an installed environment at a given prefix.

A Builder installs exactly what a lock lists into a fresh prefix it is handed (a temp directory
that the orchestrator in envgen.build.orchestrate later swaps into place) and reports what the lock
promises, so the orchestrator can compare it with what is installed. Also here: parsing a hashed
requirements.txt, reading an environment's installed distributions, the diff between the two,
and the disk accounting of envgen.build.disk, re-exported.

Builders must not choose where environments live, swap them into place, write the finished
marker or run smoke tests (envgen.build.orchestrate does that), and start processes only via
envgen.infra.proc.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from packaging.markers import Marker
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from envgen.build.disk import DiskTally, DiskUsage, disk_usage
from envgen.errors import BuildError, EnvgenError, LockError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.infra.files import atomic_write_bytes, read_output
from envgen.lock.piplock import PipLock
from envgen.model.types import CondaTool, Manager
from envgen.model.variants import Variant
from envgen.render.indexes import IndexUrls

DEFAULT_TIMEOUT: Final = 1800.0

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildRequest:
    """Everything a builder needs for one variant.

    Attributes:
        lock_dir: the variant's directory holding its lock files (`<out>/<variant>`).
        prefix: where to install; does not exist yet (the builder creates it).
        final_prefix: where the environment will live after the swap (for prefix rewriting).
        urls: the indexes to fetch from (a mirror's URL may carry credentials; never written).
        channel_alias: stands in for https://conda.anaconda.org when fetching conda packages.
        cache_dir: envgen's shared cache root (uv's cache is `<cache_dir>/uv`, as for `lock`).
        http_timeout: the user's ENVGEN_HTTP_TIMEOUT (Settings.http_timeout), or None.
        vault: a vault's root URL (envgen.vault): install only from it (a `file:` one offline).
    """

    variant: Variant
    lock_dir: Path
    prefix: Path
    final_prefix: Path
    urls: IndexUrls
    channel_alias: str | None
    cache_dir: Path
    http_timeout: float | None = None
    conda_tool: CondaTool = "rattler"
    timeout: float = DEFAULT_TIMEOUT
    vault: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Inventory:
    """Distributions by canonical name -> exact version (local label kept: "2.13.0+cpu").

    `pip`: Python distributions (importlib.metadata in the environment); `conda`: conda packages
    (conda-meta/). Used both for what a lock promises and for what an environment holds.
    """

    pip: Mapping[str, str]
    conda: Mapping[str, str]
    markers: Mapping[str, str] = field(default_factory=dict)
    """A lock's environment markers by name (`; sys_platform == "win32"`)."""
    environment: Mapping[str, str] = field(default_factory=dict)
    """An environment's marker values (packaging's default_environment, read in it)."""

    def applicable(self, environment: Mapping[str, str]) -> dict[str, str]:
        """The pip pins whose markers hold in `environment` (all of them when it is empty)."""
        if not environment:
            return dict(self.pip)
        return {
            name: version
            for name, version in self.pip.items()
            if name not in self.markers or Marker(self.markers[name]).evaluate(dict(environment))
        }

    def diff(self, installed: Inventory) -> list[str]:
        """Lines naming every difference between this (the lock) and `installed`."""
        lines = [f"conda {line}" for line in diff_distributions(self.conda, installed.conda)]
        return lines + diff_distributions(self.applicable(installed.environment), installed.pip)


class Builder(Protocol):
    """A back-end that installs one side (pip or conda) of a variant from its lock."""

    manager: Manager

    def lock_files(self, variant: Variant) -> tuple[str, ...]:
        """The lock files (names in the variant's directory) this builder installs from."""
        ...

    def expected(self, variant: Variant, lock_dir: Path) -> Inventory:
        """Read the lock; raise BuildError when it is missing or not a full lock."""
        ...

    def install(self, request: BuildRequest) -> str | None:
        """Create `request.prefix` and install the lock into it; raise BuildError on failure.

        Returns a line for the build marker and report when the interpreter came from elsewhere
        than the builder's usual source ("python 3.6.15 from conda-forge (...)"), else None.
        """
        ...

    def installed(self, prefix: Path) -> Inventory:
        """What is installed at `prefix`, in the shape `expected` returns."""
        ...

    def finish(self, prefix: Path) -> None:
        """Work that may go on after the environment is in place at `prefix` (the pip builder
        compiles a cold store's bytecode in the background); never raises."""
        ...

    def walked(self, prefix: Path) -> DiskTally | None:
        """The disk tally of the folders `install` already walked whole in the environment now
        at `prefix` (envgen.build.disk), for the report; None when it walked none."""
        ...


def python_of(prefix: Path) -> Path:
    """The interpreter of a venv or conda prefix."""
    if os.name == "nt":  # pragma: no cover - envgen builds on Linux and macOS
        for candidate in (prefix / "Scripts" / "python.exe", prefix / "python.exe"):
            if candidate.exists():
                return candidate
    return prefix / "bin" / "python"


# --- lock parsing ------------------------------------------------------------------------------
def parse_requirements(
    text: str, *, source: str = "requirements.txt"
) -> dict[str, tuple[str, str | None]]:
    """canonical name -> (version, environment marker or None) of every pin in a lock.

    The lock is read by PipLock.parse (envgen.lock.piplock), the one parser of the format: a line
    it cannot classify is a BuildError naming `source:line`.
    """
    lock = parse_pip_lock(text, source=source)
    pins: dict[str, tuple[str, str | None]] = {}
    for pin in lock.pins:
        # `torch @ https://.../torch-1.0.0-cp37-cp37m-linux_x86_64.whl` (the 1.0-1.1 Linux
        # rows): the wheel's own name gives the version its metadata must have. Which URLs a
        # lock may name is checked before a build (lock.verify.direct_url_problems).
        version = pin.version or (_wheel_version(pin.url) if pin.url else "")
        if not version:
            msg = f"{source}: line {pin.line}: {pin.text!r} is not an exact `name==version` pin"
            raise BuildError(msg, hint="run `envgen lock` to write a full lock")
        pins[pin.name] = (version, pin.marker)
    return pins


def parse_pip_lock(text: str, *, source: str) -> PipLock:
    """PipLock.parse, its errors as BuildError (a build refuses a lock it cannot read)."""
    try:
        return PipLock.parse(text, source=source)
    except LockError as exc:
        raise BuildError(exc.message, hint=exc.hint) from None


def _wheel_version(url: str) -> str:
    """The version in a wheel URL's file name, or "" when it names no wheel.

    >>> _wheel_version("https://x/whl/cpu/torch-1.0.0-cp37-cp37m-linux_x86_64.whl")
    '1.0.0'
    >>> _wheel_version("https://x/torch.tar.gz")
    ''
    """
    from urllib.parse import unquote, urlsplit  # noqa: PLC0415 - only for a direct-URL pin

    name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    try:
        return str(parse_wheel_filename(name)[1])
    except InvalidWheelFilename:
        return ""


def diff_distributions(
    expected: Mapping[str, str], installed: Mapping[str, str], *, exact: bool = True
) -> list[str]:
    """Lines naming every missing, wrong-version and (when `exact`) extra distribution.

    Versions are compared as PEP 440 versions where both parse (a lock's `thop==0.1.0-2207010342`
    installs as `0.1.0.post2207010342`, the same version), as strings otherwise (conda versions).

    >>> diff_distributions({"six": "1.17.0", "a": "1"}, {"six": "1.16.0", "b": "2"})
    ['missing: a==1', 'wrong version: six==1.16.0 installed, the lock has 1.17.0', 'extra: b==2']
    >>> diff_distributions({"thop": "0.1.0-2207010342"}, {"thop": "0.1.0.post2207010342"})
    []
    """
    lines: list[str] = []
    lines += [f"missing: {n}=={v}" for n, v in sorted(expected.items()) if n not in installed]
    lines += [
        f"wrong version: {n}=={installed[n]} installed, the lock has {v}"
        for n, v in sorted(expected.items())
        if n in installed and not same_version(installed[n], v)
    ]
    if exact:
        lines += [f"extra: {n}=={v}" for n, v in sorted(installed.items()) if n not in expected]
    return lines


def same_version(installed: str, locked: str) -> bool:
    """Whether two version strings name one version: PEP 440-normalized where both parse.

    >>> same_version("0.1.0.post2207010342", "0.1.0-2207010342"), same_version("1.0", "1.0.0")
    (True, True)
    >>> same_version("2.1.0+cpu", "2.1.0+cu118"), same_version("1.1.1w", "1.1.1w")
    (False, True)
    """
    if installed == locked:
        return True
    try:
        return Version(installed) == Version(locked)
    except InvalidVersion:
        return False


# --- installed distributions -------------------------------------------------------------------
# Runs in the environment's own interpreter (any Python >= 3.6): every distribution on sys.path
# with its metadata version (local label included: "2.13.0+cpu", not torch.__version__) and the
# tool that installed it. Python 3.6 and 3.7 have no importlib.metadata: their *.dist-info and
# *.egg-info folders are read directly, in sys.path order as importlib.metadata does.
_LIST_DISTRIBUTIONS: Final = """\
import io, json, os, platform, sys
out = []
try:
    from importlib import metadata
except ImportError:
    from email.parser import HeaderParser
    def _read(folder, name):
        try:
            with io.open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                text = f.read()
            # Python 2's email parser takes bytes (str), not unicode.
            return text.encode("utf-8") if str is bytes else text
        except (IOError, OSError):
            return ""
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for base in names:
            folder = os.path.join(entry or ".", base)
            if not base.endswith((".dist-info", ".egg-info")) or not os.path.isdir(folder):
                continue
            meta = HeaderParser().parsestr(_read(folder, "METADATA") or _read(folder, "PKG-INFO"))
            if meta["Name"]:
                out.append([meta["Name"], meta["Version"], _read(folder, "INSTALLER").strip()])
else:
    for d in metadata.distributions():
        name = d.metadata["Name"]
        if name:
            out.append([name, d.version, (d.read_text("INSTALLER") or "").strip()])
impl = getattr(sys, "implementation", None)
info = impl.version if impl is not None else sys.version_info
iver = "{0.major}.{0.minor}.{0.micro}".format(info)
if info.releaselevel != "final":
    iver += info.releaselevel[0] + str(info.serial)
env = {
    "implementation_name": impl.name if impl is not None else platform.python_implementation()
    .lower(), "implementation_version": iver,
    "os_name": os.name, "platform_machine": platform.machine(),
    "platform_release": platform.release(), "platform_system": platform.system(),
    "platform_version": platform.version(), "python_full_version": platform.python_version(),
    "platform_python_implementation": platform.python_implementation(),
    "python_version": ".".join(platform.python_version_tuple()[:2]), "sys_platform": sys.platform,
}
sys.stdout.write(json.dumps({"distributions": out, "environment": env}))
"""


@dataclass(frozen=True, slots=True, kw_only=True)
class Distribution:
    name: str
    version: str
    installer: str


def installed_distributions(
    python: Path, *, timeout: float = 120.0
) -> tuple[dict[str, Distribution], dict[str, str]]:
    """Every distribution importlib.metadata sees in the interpreter `python`, by canonical
    name, and the interpreter's marker environment."""
    # Python 2.7 and 3.5 have no -I (3.4+ has, 2.7 not; 3.5's site is fine with it, but one
    # form for both): -E -s, run from the env's bin/ so no module of the caller's cwd shadows.
    legacy = any((python.parent.parent / "lib" / f"python{v}").is_dir() for v in ("2.7", "3.5"))
    flags = ["-E", "-s"] if legacy else ["-I"]
    python = python.absolute() if legacy else python  # it runs in its own bin/
    try:
        result = _proc.run(
            # -B: no .pyc written (site imports _distutils_hack from a build's temp tree).
            [python, *flags, "-B", "-c", _LIST_DISTRIBUTIONS],
            what=f"listing the distributions of {python}",
            env=_proc.clean_env(),
            timeout=timeout,
            cwd=python.parent if legacy else None,
        )
    except ToolNotFoundError:
        raise  # its own exit code (12)
    except EnvgenError as exc:
        raise BuildError(exc.message) from None
    try:
        data = json.loads(result.stdout)
        rows, environment = data["distributions"], data["environment"]
    except (json.JSONDecodeError, KeyError, TypeError):
        msg = f"{python} printed something that is not a distribution list: {result.stdout[:200]!r}"
        raise BuildError(msg) from None
    found: dict[str, Distribution] = {}
    for name, version, installer in rows:
        key = canonicalize_name(name)
        # The first one on sys.path wins, as for imports.
        found.setdefault(key, Distribution(name=key, version=version, installer=installer))
    return found, {str(k): str(v) for k, v in environment.items()}


def conda_meta_packages(prefix: Path) -> dict[str, str]:
    """name -> version of every conda package recorded in `<prefix>/conda-meta/`."""
    found: dict[str, str] = {}
    for record in sorted((prefix / "conda-meta").glob("*.json")):
        try:
            data = json.loads(record.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        if isinstance(data, dict) and "name" in data and "version" in data:
            found[str(data["name"])] = str(data["version"])
    return found


def read_lock(path: Path, variant_id: str) -> str:
    """A lock file's text, or BuildError (missing, unreadable, not UTF-8) saying to lock first."""
    try:
        data = read_output(path)  # no link followed, bounded, regular files only
        if data is None:
            raise FileNotFoundError(path)
        return data.decode("utf-8")
    except FileNotFoundError:
        problem = "missing"
    except UnicodeDecodeError:
        problem = "not UTF-8 (not a file envgen wrote)"
    except OSError as exc:
        problem = f"unreadable ({exc.strerror or exc})"
    msg = f"{path}: {problem}; {variant_id} is not locked"
    raise BuildError(msg, hint=f"run `envgen lock --variant {variant_id}` first")


# --- relocation --------------------------------------------------------------------------------
_SCRIPT_LIMIT: Final = 4 * 1024 * 1024


def files_naming(prefix: Path, text: str) -> list[Path]:
    """Scripts under bin/, pyvenv.cfg and *.pth files that still contain `text` (a path)."""
    needle = text.encode()
    candidates = [prefix / "pyvenv.cfg"]
    bindir = prefix / "bin"
    if bindir.is_dir():
        candidates += sorted(bindir.iterdir())
    candidates += sorted(prefix.glob("lib/python*/site-packages/*.pth"))
    hits: list[Path] = []
    for path in candidates:
        try:
            st = path.lstat()
            if not stat.S_ISREG(st.st_mode) or st.st_size > _SCRIPT_LIMIT:
                continue
            if needle in path.read_bytes():
                hits.append(path)
        except OSError:
            continue
    return hits


def rewrite_text_prefix(files: list[Path], old: str, new: str) -> int:
    """Replace `old` with `new` in text files (shebangs written by a non-relocatable installer).

    Hard-linked files are replaced by a fresh copy first, so the shared cache is never edited.
    Returns how many files changed.
    """
    changed = 0
    for path in files:
        data = path.read_bytes()
        if b"\0" in data[:8192] or old.encode() not in data:
            continue  # binary files keep their placeholder handling (see builders.conda)
        mode = stat.S_IMODE(path.stat().st_mode)
        atomic_write_bytes(path, data.replace(old.encode(), new.encode()), mode=mode)
        changed += 1
    return changed


async def rattler_install(records: Sequence[Any], request: BuildRequest) -> None:
    """Install solved py-rattler records into the request's prefix, set up for its final path."""
    import rattler  # noqa: PLC0415 - heavy (rattler), only for conda-installed prefixes

    await rattler.install(
        list(records),
        target_prefix=request.prefix,
        cache_dir=request.cache_dir / "rattler",
        alternative_target_prefix=request.final_prefix,
        show_progress=False,
    )


__all__ = [
    "BuildRequest",
    "Builder",
    "DiskTally",
    "DiskUsage",
    "Distribution",
    "Inventory",
    "conda_meta_packages",
    "diff_distributions",
    "disk_usage",
    "files_naming",
    "installed_distributions",
    "parse_pip_lock",
    "parse_requirements",
    "python_of",
    "rattler_install",
    "read_lock",
    "rewrite_text_prefix",
    "same_version",
]
