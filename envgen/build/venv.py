"""Build a pip variant's virtual environment from its hash-pinned requirements.txt with uv.

`uv venv --relocatable`, `uv pip sync --require-hashes`, then path-free bytecode hard-linked
from the store under `<cache>/pyc` (envgen.build.bytecode: uv's --compile-bytecode records the
temp path, making ~140 MB of unshareable .pyc per torch env); what the store lacks is compiled
at once when it is a few modules, else in the background after the swap (`finish`).

The env is built in a temp directory and renamed into place by envgen.build.orchestrate, so it must
survive the move:
`--relocatable` makes uv write `relocatable = true` into pyvenv.cfg, activation scripts and
console-script launchers that find their interpreter relative to themselves (`realpath "$0"`),
and `sys.prefix` is computed from the interpreter's location at start-up; the bytecode's
recorded source paths are fixed up by importlib on load. envgen.build.orchestrate checks after the
install that no script still names the temp path.

A python uv can neither find nor download (3.6, 3.7: uv's builds start at 3.8) comes from
conda-forge instead (envgen.build.interpreter): the prefix is then a conda prefix holding CPython,
the lock is synced straight into it, and uv's absolute shebangs are pointed at the final path.

Indexes: they come from the spec and the user's settings (ENVGEN_PYTORCH_INDEX /
ENVGEN_PYPI_INDEX mirrors, possibly with credentials), never from the lock: uv reads them from
its environment (not argv, which `ps` shows) and syncs a private copy of the lock whose index
lines are stripped, so credentials are never written. Files are hard-linked from uv's
shared cache (`UV_LINK_MODE=hardlink`), so later variants cost little disk.

This module must not resolve anything (the lock is the only input), decide where environments
live, or start processes except through envgen.infra.proc.
"""

from __future__ import annotations

import concurrent.futures as cf
import logging
import re
import shutil
import tempfile
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

from packaging.utils import InvalidWheelFilename, parse_wheel_filename

from envgen.build.builder import (
    BuildRequest,
    Distribution,
    Inventory,
    files_naming,
    installed_distributions,
    parse_pip_lock,
    parse_requirements,
    python_of,
    read_lock,
    rewrite_text_prefix,
)
from envgen.build.bytecode import (
    SYNC_LIMIT,
    Source,
    compile_now,
    link_from_store,
    python_tag,
    start_background,
    store_folder,
)
from envgen.build.disk import DiskTally
from envgen.build.interpreter import install_conda_python, install_with_pip20, uv_provides
from envgen.errors import BuildError, EnvgenError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.infra import progress
from envgen.infra.files import check_no_links
from envgen.infra.settings import uv_http_timeout
from envgen.lock.index_plan import index_plan, pip_index_environment, uv_index_environment
from envgen.lock.legacy import PIP_VERSION, is_legacy
from envgen.lock.pythons import venv_interpreter
from envgen.model.build_deps import build_constraints, uv_toml
from envgen.model.types import Manager
from envgen.model.variants import Variant
from envgen.render.indexes import IndexUrls

log = logging.getLogger(__name__)

REQUIREMENTS: Final = "requirements.txt"
_DIRECT_PIN: Final = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._\[\],-]*)\s*@\s*(?P<url>\S+)(?P<rest>.*)$", re.DOTALL
)


def index_environment(variant: Variant, urls: IndexUrls) -> dict[str, str]:
    """uv's index variables for a variant: from the spec and settings, never from the lock.

    The URLs (a mirror's may carry credentials) travel in the child's environment, which only
    its owner can read, not in its argument list, which every local user sees in `ps`.
    """
    return uv_index_environment(variant, index_plan(variant, urls))


def vault_environment(vault: str) -> dict[str, str]:
    """uv's variables for a build from a vault (envgen.vault): its simple/ index only, and no
    network at all when the vault is a local folder (`file:`).

    >>> vault_environment("file:///srv/vault")
    {'UV_INDEX_URL': 'file:///srv/vault/simple', 'UV_OFFLINE': '1'}
    """
    env = {"UV_INDEX_URL": vault.rstrip("/") + "/simple"}
    if vault.startswith("file:"):
        env["UV_OFFLINE"] = "1"
    return env


def pinned_by_version(text: str) -> str:
    """Direct-URL pins (`torch @ https://...whl`) as `name==version`, for an index-only install.

    >>> pinned_by_version("torch @ https://h/torch-1.0.0-cp37-cp37m-linux_x86_64.whl --hash=x")
    'torch==1.0.0 --hash=x'
    """
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        found = _DIRECT_PIN.match(line)
        if found is not None:
            file_name = unquote(urlsplit(found["url"]).path.rsplit("/", 1)[-1])
            try:
                version = parse_wheel_filename(file_name)[1]
            except InvalidWheelFilename:
                version = None
            if version is not None:
                out.append(f"{found['name']}=={version}{found['rest']}")
                continue
        out.append(line)
    return "".join(out)


def uv_environment(cache_dir: Path, http_timeout: float | None) -> dict[str, str]:
    """The child environment for uv: no PIP_/UV_ variables of ours, the shared cache, hardlinks."""
    env = _proc.clean_env()
    env.update(
        UV_CACHE_DIR=str(cache_dir / "uv"),
        UV_LINK_MODE="hardlink",
        UV_NO_PROGRESS="1",
    )
    # clean_env drops UV_*: ENVGEN_HTTP_TIMEOUT is how a user bounds a slow index (uv: 30 s).
    uv_timeout = uv_http_timeout(http_timeout)
    if uv_timeout is not None:
        env["UV_HTTP_TIMEOUT"] = uv_timeout
    return env


class VenvBuilder:
    """Builds `pip` variants: a uv virtual environment synced to requirements.txt."""

    manager: Manager = "pip"

    def __init__(self) -> None:
        # final prefix -> (its python, store folder, tag, modules): bytecode for `finish`.
        self._deferred: dict[Path, tuple[Path, Path, str, list[Source]]] = {}
        # prefix -> its distribution listing, started while the bytecode is linked.
        self._listings: dict[Path, cf.Future[tuple[dict[str, Distribution], dict[str, str]]]] = {}
        # final prefix -> its site-packages counted while the bytecode was linked (the report).
        self._walked: dict[Path, DiskTally] = {}

    def lock_files(self, variant: Variant) -> tuple[str, ...]:  # noqa: ARG002 - Protocol
        return (REQUIREMENTS,)

    def expected(self, variant: Variant, lock_dir: Path) -> Inventory:
        path = lock_dir / REQUIREMENTS
        text = read_lock(path, variant.id)
        if not parse_pip_lock(text, source=str(path)).is_full:
            msg = f"{path}: holds pins without hashes (the pins-only form), not a full lock"
            raise BuildError(msg, hint="run `envgen lock` first")
        pins = parse_requirements(text, source=str(path))
        return Inventory(
            pip={name: version for name, (version, _) in pins.items()},
            conda={},
            markers={name: marker for name, (_, marker) in pins.items() if marker},
        )

    def install(self, request: BuildRequest) -> str | None:
        """Returns where the interpreter came from when not from uv (for the marker)."""
        lock = request.lock_dir / REQUIREMENTS
        # The lock's own index lines are dropped (envgen.build.orchestrate refused any that differ
        # from
        # what the spec and settings write): the indexes come from index_environment.
        parsed = parse_pip_lock(read_lock(lock, request.variant.id), source=str(lock))
        rest = "".join(pin.render() for pin in parsed.pins)
        if is_legacy(request.variant.python):
            return self._install_legacy(request, rest)
        uv = _proc.require("uv", why="build pip environments")
        env = uv_environment(request.cache_dir, request.http_timeout)
        if request.vault:
            env.update(vault_environment(request.vault))  # a local vault: no network at all
            env.pop("UV_INDEX_URL")
        note = None
        try:
            try:
                progress.phase("creating the environment", f"python {request.variant.python}")
                # Tried first: asking uv beforehand (`uv_provides`) costs a process per build.
                _proc.run(
                    [
                        uv,
                        "venv",
                        "--no-config",
                        "--no-project",
                        "--relocatable",
                        "--quiet",
                        "--python",
                        venv_interpreter(
                            uv, request.variant.python, env, cache_dir=request.cache_dir
                        )
                        or request.variant.python,
                        request.prefix,
                    ],
                    what=f"uv venv for {request.variant.id}",
                    env=env,
                    timeout=request.timeout,
                )
            except ToolNotFoundError:
                raise
            except EnvgenError:
                if uv_provides(uv, request.variant.python, env, timeout=request.timeout):
                    raise  # uv has the python: the failure is another one
                # An old python (3.6, 3.7): a conda prefix holding CPython from conda-forge,
                # which the lock is synced straight into (envgen.build.interpreter).
                shutil.rmtree(request.prefix, ignore_errors=True)
                note = install_conda_python(request)
            with tempfile.TemporaryDirectory(prefix="envgen-build-") as work:
                # A private copy without index lines: the indexes (maybe a mirror with
                # credentials) travel only as flags.
                copy = Path(work) / REQUIREMENTS
                copy.write_text(
                    pinned_by_version(rest) if request.vault else rest, encoding="utf-8"
                )
                # Only the build requirements old sdists do not declare (build_deps).
                config = Path(work) / "uv.toml"
                config.write_text(uv_toml(), encoding="utf-8")
                # Build tools too new for an old sdist (build_deps: pycocotools <= 2.0.2 needs
                # Cython < 3); uv pip sync reads them only from a file.
                constraints = build_constraints(rest)
                constrain: list[str | Path] = []
                if constraints:
                    file = Path(work) / "build-constraints.txt"
                    file.write_text("\n".join(constraints) + "\n", encoding="utf-8")
                    constrain = ["--build-constraints", file]
                progress.phase("installing")
                _proc.run(
                    [
                        uv,
                        "pip",
                        "sync",
                        "--no-config",
                        "--config-file",
                        config,
                        "--require-hashes",
                        *constrain,
                        # No --compile-bytecode: uv writes the temp build path into every .pyc,
                        # which makes them unshareable; compile_bytecode below writes path-free
                        # ones that later builds hard-link.
                        # A lock compiled with unsafe-best-match (torch from the PyTorch index,
                        # the rest from PyPI) needs it again; the hashes pin every file.
                        "--index-strategy",
                        "unsafe-best-match",
                        "--python",
                        python_of(request.prefix),
                        copy,
                    ],
                    what=f"uv pip sync for {request.variant.id}",
                    env={
                        **env,
                        **(
                            vault_environment(request.vault)
                            if request.vault
                            else index_environment(request.variant, request.urls)
                        ),
                    },
                    timeout=request.timeout,
                    on_stderr=progress.uv_lines(),  # downloads as uv reports them
                )
            progress.phase("linking bytecode from the store")
            tag = python_tag(request.variant.python)
            folder = store_folder(request.cache_dir, tag)
            # A cache dir inside a cloned project: a planted link must not feed .pyc files in.
            check_no_links(folder, inside=request.cache_dir)
            # The listing (the env's python, -B: it writes nothing) only reads dist-info, which
            # linking bytecode does not touch: run it meanwhile; `installed` collects it.
            pool = cf.ThreadPoolExecutor(max_workers=1)
            self._listings[request.prefix] = pool.submit(
                installed_distributions, python_of(request.prefix)
            )
            pool.shutdown(wait=False)
            reused, left = self._link(request, folder, tag, note)
            compiled: dict[str, int] = {}
            if left and len(left) <= SYNC_LIMIT:
                # A few misses (a new small package): compile just those, now.
                progress.phase("compiling bytecode", f"{len(left)} modules")
                compiled = compile_now(
                    python_of(request.prefix), folder, tag, left, timeout=request.timeout
                )
            elif left:
                # A cold store (a whole torch, ~20 s on two cores): the environment is usable
                # without bytecode; `finish` compiles it in the background once it is in place.
                prefix = str(request.prefix)
                final = str(request.final_prefix)
                self._deferred[request.final_prefix] = (
                    python_of(request.final_prefix),
                    folder,
                    tag,
                    [(final + site[len(prefix) :], rel) for site, rel in left],
                )
            if note is not None:
                # uv writes absolute shebangs into a non-venv prefix: point them at the final
                # location (rattler already did so for the conda packages' own files).
                rewrite_text_prefix(
                    files_naming(request.prefix, str(request.prefix)),
                    str(request.prefix),
                    str(request.final_prefix),
                )
        except ToolNotFoundError:
            raise  # its own exit code (12)
        except EnvgenError as exc:
            raise BuildError(exc.message, hint=exc.hint) from None
        log.debug(
            "%s: %d .pyc linked from the store, %d compiled now, %d left for the background",
            request.variant.id,
            reused,
            compiled.get("compiled", 0),
            len(left) if request.final_prefix in self._deferred else 0,
        )
        return note

    def _install_legacy(self, request: BuildRequest, lock_body: str) -> str:
        """Python 2.7 / 3.5: CPython from conda-forge (uv provides neither), the lock installed
        with pip 20.3.4 (envgen.build.interpreter); pip compiles the bytecode itself (Python 2
        keeps it beside the sources, so the shared store does not apply)."""
        variant = request.variant
        if request.vault:
            msg = (
                f"{variant.id}: build --vault installs with uv, which cannot install python "
                f"{variant.python}"
            )
            raise BuildError(msg, hint=f"build this variant without --vault (pip {PIP_VERSION})")
        try:
            progress.phase("creating the environment", f"python {variant.python} from conda-forge")
            note = install_conda_python(request)
            progress.phase("installing", f"pip {PIP_VERSION}")
            note = note.replace("uv cannot provide", "uv cannot target")
            install_with_pip20(
                request,
                lock_body,
                pip_index_environment(variant, index_plan(variant, request.urls)),
            )
            # pip writes absolute shebangs: point them at the final location.
            here, final = str(request.prefix.absolute()), str(request.final_prefix.absolute())
            rewrite_text_prefix(files_naming(request.prefix, here), here, final)
        except ToolNotFoundError:
            raise
        except EnvgenError as exc:
            raise BuildError(exc.message, hint=exc.hint) from None
        return note

    def finish(self, prefix: Path) -> None:
        """Start compiling the bytecode `install` left (the environment is now at `prefix`)."""
        deferred = self._deferred.pop(prefix, None)
        if deferred is None:
            return
        python, folder, tag, sources = deferred
        pid = start_background(python, prefix, folder, tag, sources)
        if pid is not None:
            log.info(
                "%s: compiling bytecode for %d modules in the background (pid %d)",
                prefix,
                len(sources),
                pid,
            )

    def walked(self, prefix: Path) -> DiskTally | None:
        return self._walked.pop(prefix, None)

    def _link(
        self, request: BuildRequest, folder: Path, tag: str, note: str | None
    ) -> tuple[int, list[Source]]:
        """link_from_store, counting site-packages for the disk report on the same walk; the
        count is kept unless files change there after it (the few modules compiled now, the
        .pth files a conda-made prefix has rewritten)."""
        tally = DiskTally()
        reused, left = link_from_store(request.prefix, folder, tag, tally=tally)
        if note is None and not (left and len(left) <= SYNC_LIMIT):
            self._walked[request.final_prefix] = tally
        return reused, left

    def installed(self, prefix: Path) -> Inventory:
        started = self._listings.pop(prefix, None)
        dists, environment = (
            started.result() if started is not None else installed_distributions(python_of(prefix))
        )
        return Inventory(
            pip={name: d.version for name, d in dists.items()}, conda={}, environment=environment
        )


__all__ = ["VenvBuilder", "index_environment", "pinned_by_version", "vault_environment"]
