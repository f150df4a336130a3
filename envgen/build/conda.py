"""Build a conda variant's environment from its conda-lock.yml (py-rattler) or explicit lock (CLI).

Default route: read the conda-lock unified file, turn each conda entry of the variant's platform
into a rattler RepoDataRecord (its `info/index.json` read from the package, so `noarch: python`
and dependencies are right), and `rattler.install` them with `alternative_target_prefix` set to
the final location: conda packages hard-code their prefix, and the environment is built in a
temp directory that envgen.build.orchestrate later renames into place. Package URLs go through
ENVGEN_CONDA_CHANNEL_ALIAS (which replaces https://conda.anaconda.org; file:// allowed).
Then the lock's pip entries are installed with uv (`--no-deps --require-hashes`).

CLI route (`conda_tool` conda / mamba / micromamba, when on PATH): `create --file
conda-<platform>.lock -p <temp>`, then the prefix recorded in text and binary files is rewritten
to the final location (as conda-pack does), using conda-meta's prefix-placeholder records.

This module must not solve anything (the lock is the only input), decide where environments
live, or start processes except through envgen.infra.proc.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import stat
import tempfile
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from packaging.utils import canonicalize_name

from envgen.build.builder import (
    BuildRequest,
    Inventory,
    conda_meta_packages,
    files_naming,
    installed_distributions,
    python_of,
    rattler_install,
    read_lock,
    rewrite_text_prefix,
)
from envgen.build.disk import DiskTally
from envgen.build.venv import uv_environment
from envgen.errors import BuildError, EnvgenError, LockError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.infra import progress
from envgen.infra.files import atomic_write_bytes
from envgen.lock.condalock import CondaLock
from envgen.lock.lockfile import CONDA_LOCK, conda_lock_names, split_header
from envgen.model.types import ANACONDA, Manager
from envgen.model.variants import Variant

log = logging.getLogger(__name__)

_ARCHIVE_SUFFIXES: Final = (".tar.bz2", ".conda")
_PIP_INSTALLERS: Final = frozenset({"uv", "pip"})


@dataclass(frozen=True, slots=True, kw_only=True)
class LockEntry:
    """One package of a conda-lock unified file."""

    name: str
    version: str
    manager: str
    platform: str
    url: str
    sha256: str | None
    md5: str | None


def explicit_lock_name(variant: Variant) -> str:
    """The explicit (`@EXPLICIT`) lock the CLI route installs: `conda-<platform>.lock`."""
    return conda_lock_names(variant)[1]


def parse_conda_lock(text: str, *, source: str = CONDA_LOCK) -> list[LockEntry]:
    """The `package:` entries of a conda-lock (version 1) file, read by CondaLock.parse."""
    try:
        lock = CondaLock.parse(text, source=source)
    except LockError as exc:
        raise BuildError(exc.message, hint=exc.hint) from None
    return [
        LockEntry(
            name=p.name,
            version=p.version,
            manager=p.manager,
            platform=p.platform,
            url=p.url,
            sha256=p.sha256,
            md5=p.md5,
        )
        for p in lock.packages
    ]


_EXPLICIT_LINE: Final = re.compile(r"https://[A-Za-z0-9._~%/+!=-]+#[0-9a-f]{32}")


def explicit_urls(text: str, *, source: str) -> list[str]:
    """The `URL#md5` lines of a conda explicit lock, in order; BuildError naming any other line.

    A committed file is untrusted: besides `# ` comments and `@EXPLICIT`, only an https package
    URL with its md5 is accepted (which channel it is on is checked before a build).
    """
    urls: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line or line.startswith("# ") or line == "@EXPLICIT":
            continue
        if not _EXPLICIT_LINE.fullmatch(line):
            shown = _proc.redact(line)[:120]
            msg = f"{source}:{number}: `{shown}` is not a package URL with its md5 (`https://...#md5`)"
            raise BuildError(msg, hint="`envgen lock --upgrade` writes the lock afresh")
        urls.append(line)
    return urls


def alias_url(url: str, alias: str | None) -> str:
    """Route https://conda.anaconda.org through the channel alias.

    >>> alias_url("https://conda.anaconda.org/pytorch/noarch/a-1-0.tar.bz2", "file:///ch/")
    'file:///ch/pytorch/noarch/a-1-0.tar.bz2'
    """
    if alias and url.startswith(ANACONDA + "/"):
        return alias.rstrip("/") + url[len(ANACONDA) :]
    return url


def _split_url(url: str) -> tuple[str, str, str]:
    """(channel URL, subdir, file name) of a package URL."""
    channel_and_subdir, _, file_name = url.rpartition("/")
    channel, _, subdir = channel_and_subdir.rpartition("/")
    return channel, subdir, file_name


def _local_path(url: str) -> Path:
    return Path(urllib.parse.unquote(urllib.parse.urlsplit(url).path))


async def _index_json(url: str, client: Any) -> Any:  # noqa: ANN401 - rattler is untyped
    from rattler import IndexJson  # noqa: PLC0415 - heavy import, only for conda builds

    if url.startswith("file://"):
        return IndexJson.from_package_archive(_local_path(url))
    found = await IndexJson.from_remote_url(client, url)
    if found is None:
        msg = f"{_proc.redact(url)}: could not read info/index.json from the package"
        raise BuildError(msg)
    return found


async def _records(entries: list[LockEntry], alias: str | None) -> list[Any]:
    from rattler import Client, PackageRecord, RepoDataRecord  # noqa: PLC0415 - heavy (rattler), only for conda builds

    client = Client.default_client()
    records = []
    for entry in entries:
        url = alias_url(entry.url, alias)
        channel, subdir, file_name = _split_url(url)
        if not file_name.endswith(_ARCHIVE_SUFFIXES):
            msg = f"{CONDA_LOCK}: {entry.name}: {entry.url} is not a conda package URL"
            raise BuildError(msg)
        index = await _index_json(url, client)
        record = PackageRecord(
            name=entry.name,
            version=entry.version,
            build=index.build,
            build_number=index.build_number,
            subdir=subdir,
            noarch=index.noarch,
            depends=list(index.depends),
            constrains=list(index.constrains),
            sha256=bytes.fromhex(entry.sha256) if entry.sha256 else None,
            md5=bytes.fromhex(entry.md5) if entry.md5 else None,
        )
        records.append(
            RepoDataRecord(package_record=record, file_name=file_name, url=url, channel=channel)
        )
    return records


async def _rattler_install(request: BuildRequest, entries: list[LockEntry]) -> None:
    records = await _records(entries, request.channel_alias)
    await rattler_install(records, request)


# --- prefix rewriting for the CLI route ---------------------------------------------------------
def rewrite_binary_prefix(path: Path, old: str, new: str) -> bool:
    """Replace `old` with `new` in every C string of a binary file, padding with NULs.

    The file keeps its length, as conda does for binary prefix placeholders; `new` must not be
    longer than `old`. Returns True when the file changed.
    """
    if len(new) > len(old):
        msg = f"{path}: cannot patch the prefix {old} with the longer {new} in a binary file"
        raise BuildError(msg)
    data = path.read_bytes()
    pattern = re.compile(re.escape(old.encode()) + rb"([^\0]*?)\0")

    def patch(match: re.Match[bytes]) -> bytes:
        text = match.group().replace(old.encode(), new.encode())
        return text + b"\0" * (len(match.group()) - len(text))

    patched = pattern.sub(patch, data)
    if patched == data:
        return False
    atomic_write_bytes(path, patched, mode=stat.S_IMODE(path.stat().st_mode))
    return True


def relocate_conda_prefix(prefix: Path, final: Path) -> int:
    """Rewrite the build prefix to `final` in every file conda-meta says holds a prefix."""
    old, new = str(prefix), str(final)
    changed = 0
    for record in sorted((prefix / "conda-meta").glob("*.json")):
        data = json.loads(record.read_text(encoding="utf-8"))
        paths = (data.get("paths_data") or {}).get("paths") or []
        for item in paths:
            if not item.get("prefix_placeholder"):
                continue
            target = prefix / item["_path"]
            if not target.is_file():
                continue
            if item.get("file_mode") == "binary":
                changed += rewrite_binary_prefix(target, old, new)
            else:
                changed += rewrite_text_prefix([target], old, new)
        if old in json.dumps(data):
            record.write_text(json.dumps(data).replace(old, new), encoding="utf-8")
    return changed


class CondaBuilder:
    """Builds `conda` variants: py-rattler (default) or a conda-compatible CLI, then uv for pip."""

    manager: Manager = "conda"

    def lock_files(self, variant: Variant) -> tuple[str, ...]:
        return conda_lock_names(variant)

    def _entries(self, variant: Variant, lock_dir: Path) -> list[LockEntry]:
        path = lock_dir / CONDA_LOCK
        text = read_lock(path, variant.id)
        entries = parse_conda_lock(split_header(text)[1], source=str(path))
        return [e for e in entries if e.platform == variant.platform]

    def expected(self, variant: Variant, lock_dir: Path) -> Inventory:
        entries = self._entries(variant, lock_dir)
        if not any(e.manager == "conda" for e in entries):
            msg = f"{lock_dir / CONDA_LOCK}: no conda package for {variant.platform}"
            raise BuildError(msg, hint="run `envgen lock` first")
        return Inventory(
            conda={e.name: e.version for e in entries if e.manager == "conda"},
            pip={canonicalize_name(e.name): e.version for e in entries if e.manager == "pip"},
        )

    def install(self, request: BuildRequest) -> None:
        entries = self._entries(request.variant, request.lock_dir)
        try:
            progress.phase("installing", f"conda packages with {request.conda_tool}")
            if request.conda_tool == "rattler":
                asyncio.run(_rattler_install(request, [e for e in entries if e.manager == "conda"]))
            else:
                self._cli_install(request)
            self._pip_install(request, [e for e in entries if e.manager == "pip"])
        except ToolNotFoundError:
            raise  # its own exit code (12)
        except EnvgenError as exc:
            raise BuildError(exc.message, hint=exc.hint) from None
        except Exception as exc:  # rattler raises its own exception types
            if type(exc).__module__.split(".")[0] != "rattler" and not isinstance(exc, OSError):
                raise
            # The channel alias (a mirror) may carry credentials: never echo them.
            msg = _proc.redact(
                f"installing the conda packages of {request.variant.id} failed: {exc}"
            )
            raise BuildError(msg) from None

    def _cli_install(self, request: BuildRequest) -> None:
        tool = _proc.require(request.conda_tool, why="build conda environments with it")
        lock = request.lock_dir / explicit_lock_name(request.variant)
        urls = explicit_urls(read_lock(lock, request.variant.id), source=str(lock))
        with tempfile.TemporaryDirectory(prefix="envgen-build-") as work:
            copy = Path(work) / lock.name
            # Rebuilt from the parsed URLs: no other line of the committed file reaches the tool.
            copy.write_text(
                "@EXPLICIT\n"
                + "".join(f"{alias_url(url, request.channel_alias)}\n" for url in urls),
                encoding="utf-8",
            )
            _proc.run(
                [tool, "create", "--yes", "--file", copy, "--prefix", request.prefix],
                what=f"{request.conda_tool} create for {request.variant.id}",
                env=_proc.clean_env(drop_prefixes=("PIP_", "UV_", "VIRTUAL_ENV")),
                timeout=request.timeout,
            )
        changed = relocate_conda_prefix(request.prefix, request.final_prefix)
        log.debug("%s: rewrote the prefix in %d file(s)", request.variant.id, changed)

    def _pip_install(self, request: BuildRequest, entries: list[LockEntry]) -> None:
        if not entries:
            return
        missing = [e.name for e in entries if not e.sha256]
        if missing:
            msg = f"{CONDA_LOCK}: pip entries without sha256: {', '.join(missing)}"
            raise BuildError(msg, hint="run `envgen lock` again")
        uv = _proc.require("uv", why="install the pip part of conda environments")
        lines = [f"{e.name} @ {e.url} --hash=sha256:{e.sha256}" for e in entries]
        progress.phase("installing", "pip packages with uv")
        with tempfile.TemporaryDirectory(prefix="envgen-build-") as work:
            requirements = Path(work) / "pip-requirements.txt"
            requirements.write_text("\n".join(lines) + "\n", encoding="utf-8")
            _proc.run(
                [
                    uv,
                    "pip",
                    "install",
                    "--no-config",
                    "--no-deps",
                    "--require-hashes",
                    "--compile-bytecode",
                    "--python",
                    python_of(request.prefix),
                    "-r",
                    requirements,
                ],
                what=f"uv pip install (pip part) for {request.variant.id}",
                env=uv_environment(request.cache_dir, request.http_timeout),
                timeout=request.timeout,
                on_stderr=progress.uv_lines(),  # downloads as uv reports them
            )
        # uv writes absolute shebangs into a non-venv prefix: point them at the final location.
        rewrite_text_prefix(
            files_naming(request.prefix, str(request.prefix)),
            str(request.prefix),
            str(request.final_prefix),
        )

    def finish(self, prefix: Path) -> None:
        """Nothing: uv compiles the pip side's bytecode during the install."""

    def walked(self, prefix: Path) -> DiskTally | None:  # noqa: ARG002 - Protocol
        """None: the report walks the whole prefix."""
        return None

    def installed(self, prefix: Path) -> Inventory:
        conda = conda_meta_packages(prefix)
        pip: Mapping[str, str] = {}
        environment: Mapping[str, str] = {}
        if python_of(prefix).exists():
            dists, environment = installed_distributions(python_of(prefix))
            pip = {n: d.version for n, d in dists.items() if d.installer in _PIP_INSTALLERS}
        return Inventory(conda=conda, pip=pip, environment=environment)


__all__ = [
    "CondaBuilder",
    "LockEntry",
    "alias_url",
    "parse_conda_lock",
    "relocate_conda_prefix",
    "rewrite_binary_prefix",
]
