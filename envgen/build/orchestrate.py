"""`envgen build` and `envgen smoke`: build each variant's environment atomically, then test it.

For each selected variant: require its lock files to exist, be full locks (hashes) and be current
(the header's input-hash matches the spec), then let a Builder install the lock into
`<env>.tmp-<random>` next to the environment's final path, compare what is installed with the
lock, check that nothing still names the temp path, write the `envgen-build.json` marker (the
last file written: its presence means "finished") and swap the new tree into place. The marker is
sealed (an HMAC under the user's key, envgen.infra.buildkey, over its contents and the identity of
the folder and its interpreter): an environment counts as built only when this machine built it,
so a folder a cloned repository ships is rebuilt (build, run, shell) or refused (smoke), and its
interpreter is never run. After that
only `__pycache__/*.pyc` may still appear, each atomically, as Python itself writes them at
import: a cold bytecode store is filled in the background (envgen.build.bytecode), after the
smoke test. The swap is
one renameat2(RENAME_EXCHANGE) where the kernel offers it (the path always holds a complete
environment), else rename old aside -> rename new in; the old tree is deleted afterwards. A
failed or interrupted build removes its temp tree and never touches the existing environment;
temp and old trees left by a killed run are removed at the next build.

This module must not resolve or lock anything, print, or start processes itself (builders and
envgen.smoke.report do, through envgen.infra.proc).
"""

from __future__ import annotations

import concurrent.futures as cf
import ctypes
import errno
import hashlib
import json
import logging
import os
import secrets
import shutil
import stat
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from envgen import __version__
from envgen.build.builder import (
    Builder,
    BuildRequest,
    DiskUsage,
    Inventory,
    disk_usage,
    files_naming,
    parse_pip_lock,
    python_of,
    read_lock,
)
from envgen.errors import BuildError, EnvgenError, LockError, SmokeTestError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.infra import progress
from envgen.infra.buildkey import check_seal, load_key, seal
from envgen.infra.files import (
    atomic_write_bytes,
    canonical_json,
    check_no_links,
    read_in,
    read_output,
)
from envgen.infra.git import git_argv, work_tree
from envgen.infra.settings import Settings
from envgen.lock import stamps
from envgen.lock.lockfile import (
    conda_lock_names,
    lock_inputs,
    parse_overrides,
    recorded_in,
    split_header,
    tampered_lines,
    unconfirmed_options,
)
from envgen.lock.options import LockOptions
from envgen.lock.verify import conda_url_problems, index_line_problems, verify_lock_files
from envgen.model.matrix import Matrix
from envgen.model.spec import ProjectSpec
from envgen.model.types import TORCH_FAMILY, CondaTool
from envgen.model.variants import Variant, expand, select
from envgen.render.indexes import IndexUrls, index_urls
from envgen.smoke.project import with_project_checks
from envgen.smoke.report import SmokeExpectation, SmokeReport, run_smoke
from envgen.smoke.report import raise_for_failures as smoke_raise

log = logging.getLogger(__name__)

ManagerChoice = Literal["pip", "conda", "auto"]
MARKER: Final = "envgen-build.json"
MARKER_FORMAT: Final = 1
# A marker lists every installed distribution: a few hundred lines. Anything far larger is not one.
MAX_MARKER_BYTES: Final = 4 * 1024 * 1024
SEAL_KEY: Final = "seal"
ENV_NAME: Final = ".env"
# conda package name -> the Python distribution it installs.
_CONDA_DIST: Final = {"pytorch": "torch", "torchvision": "torchvision", "torchaudio": "torchaudio"}


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantBuild:
    """One variant's build: where, how long, the disk it added, its smoke report."""

    variant: str
    manager: str
    env: Path
    # not-ready: its lock is missing, pins-only or stale, so it was not built (several variants
    # were asked for; the others were still built).
    status: Literal["built", "up-to-date", "failed", "not-ready"]
    seconds: float
    disk: DiskUsage | None = None
    smoke: SmokeReport | None = None
    error: str | None = None
    missing_tool: bool = False  # it failed with ToolNotFoundError
    # Where the interpreter came from when not from the builder's usual source (the marker's
    # "interpreter": "python 3.6.15 from conda-forge (uv cannot provide python 3.6)").
    interpreter: str | None = None

    @property
    def ok(self) -> bool:
        return self.status not in ("failed", "not-ready") and (self.smoke is None or self.smoke.ok)


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildReport:
    """Every selected variant's outcome, in variant order."""

    builds: tuple[VariantBuild, ...]

    @property
    def ok(self) -> bool:
        return all(b.ok for b in self.builds)

    def raise_for_failures(self) -> None:
        """BuildError when a build failed, else SmokeTestError when a smoke check failed.

        ToolNotFoundError (exit 12) instead of BuildError when each failure was a missing tool.
        """
        failed = [b for b in self.builds if b.status in ("failed", "not-ready")]
        if failed:
            done = [b.variant for b in self.builds if b.status not in ("failed", "not-ready")]
            ready = sum(b.status == "not-ready" for b in self.builds)
            what = "failed to build" if not ready else "failed to build or were not ready"
            msg = f"{len(failed)} of {len(self.builds)} variant(s) {what}" + (
                f" (built: {', '.join(done)})" if done else ""
            )
            msg += "".join(f"\n[{b.variant}] {b.error}" for b in failed)
            raise (ToolNotFoundError if all(b.missing_tool for b in failed) else BuildError)(msg)
        smoked = [b for b in self.builds if b.smoke is not None and not b.smoke.ok]
        if smoked:
            lines = [f"{len(smoked)} variant(s) failed smoke checks"]
            lines += _failed_check_lines((b.variant, b.smoke) for b in smoked)
            raise SmokeTestError("\n".join(lines))


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantSmoke:
    """`envgen smoke` on one already-built environment."""

    variant: str
    env: Path
    report: SmokeReport | None  # None when the environment is not built (see error)
    error: str | None = None


# --- locations and the marker -------------------------------------------------------------------
def env_path(out: Path, variant_id: str, env_dir: Path | None = None) -> Path:
    """`<out>/<variant>/.env`, or `<env_dir>/<variant>` when --env-dir is given."""
    return env_dir / variant_id if env_dir is not None else out / variant_id / ENV_NAME


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkerState:
    """What is at an environment's path: a marker in envgen's format (`found`), and whether this
    machine sealed it (`data`, the marker, else None)."""

    found: bool
    data: dict[str, object] | None


_NO_MARKER: Final = MarkerState(found=False, data=None)


def _identity(folder: int) -> dict[str, object]:
    """What a repository cannot carry: the device and inode of the environment folder and of its
    interpreter (a checkout or copy makes new ones)."""
    top = os.fstat(folder)
    try:
        py = os.stat(python_of(Path()), dir_fd=folder, follow_symlinks=False)
        python: list[int] | None = [py.st_dev, py.st_ino]
    except OSError:
        python = None
    return {"env": [top.st_dev, top.st_ino], "python": python}


def _seal_payload(data: Mapping[str, object], identity: Mapping[str, object]) -> bytes:
    body = {k: v for k, v in data.items() if k != SEAL_KEY}
    return canonical_json({"identity": identity, "marker": body}).encode()


def marker_state(env: Path, key: bytes) -> MarkerState:
    """Read `env`'s marker without following links, bounded; check its seal under `key`.

    Never raises: a link, device, FIFO, huge or malformed marker is no marker at all.
    """
    try:
        if not stat.S_ISDIR(env.lstat().st_mode):
            return _NO_MARKER
        folder = os.open(env, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return _NO_MARKER
    try:
        raw = read_in(folder, MARKER, env / MARKER, limit=MAX_MARKER_BYTES)
        identity = _identity(folder)
    except (OSError, EnvgenError):
        return _NO_MARKER
    finally:
        os.close(folder)
    try:
        data = json.loads(raw.decode("utf-8")) if raw is not None else None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return _NO_MARKER
    if not isinstance(data, dict) or data.get("format") != MARKER_FORMAT:
        return _NO_MARKER
    sealed = check_seal(key, _seal_payload(data, identity), data.get(SEAL_KEY))
    if sealed and tracked_by_git(env):
        # Sealed, but a pull can write a repository's files into an environment after the seal
        # (git writes tracked files even inside an ignored folder): not this machine's build.
        return MarkerState(found=True, data=None)
    return MarkerState(found=True, data=data if sealed else None)


def tracked_by_git(env: Path) -> bool:
    """Whether the git work tree holding `env` tracks anything inside it.

    Asked only of a sealed environment, with `git ls-files` (no hooks run; a clone's
    .git/config is the user's, not the repository's). No git, or no work tree: False.
    """
    top = work_tree(env.parent)
    if top is None:
        return False  # no work tree holds it: nothing to ask git (and no process started)
    git = _proc.which("git")
    if git is None:
        return False
    try:
        found = _proc.run(
            # Bound to the clone's own .git: an embedded bare repository committed on the way
            # (environments/cpu/{HEAD,config,objects,refs}) would otherwise configure git.
            [*git_argv(git, top), "-C", str(env.parent), "ls-files", "-z", "--", env.name],
            what="git ls-files (is the environment tracked?)",
            timeout=30,
            check=False,
        )
    except EnvgenError:
        return False
    if found.returncode != 0:
        return False
    # Only what is on disk: after a rebuild the index may still list files the swap removed.
    return any(os.path.lexists(env.parent / p) for p in found.stdout.split("\0") if p)


def read_marker(env: Path, key: bytes) -> dict[str, object] | None:
    """The finished marker of an environment this machine built (sealed under `key`), or None
    when absent, unreadable, foreign or copied from elsewhere."""
    return marker_state(env, key).data


def not_built_here(env: Path) -> str:
    """Why an environment with a marker this machine did not seal is not used."""
    return (
        f"{env} holds an environment this machine did not build (its envgen-build.json is not "
        "sealed with your key: committed to the repository, copied, or built by an older "
        "envgen; or git tracks files inside it, which a pull writes there); envgen never runs "
        "its interpreter"
    )


def lock_digest(lock_dir: Path, names: tuple[str, ...]) -> str:
    """sha256 over the lock files a build installs from (name + bytes, in order)."""
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0")
        digest.update(read_output(lock_dir / name) or b"")
        digest.update(b"\0")
    return "sha256:" + digest.hexdigest()


def torch_family(expected: Inventory) -> dict[str, str]:
    """torch/torchvision/torchaudio -> the locked version (a pip pin wins over a conda one)."""
    family = {_CONDA_DIST[k]: v for k, v in expected.conda.items() if k in _CONDA_DIST}
    family |= {k: v for k, v in expected.pip.items() if k in TORCH_FAMILY}
    return dict(sorted(family.items()))


def _marker_bytes(
    variant: Variant,
    manager: str,
    lock_sha: str,
    expected: Inventory,
    interpreter: str | None,
    *,
    key: bytes,
    prefix: Path,
    lock_dir: Path | None = None,
) -> bytes:
    data: dict[str, object] = {
        "format": MARKER_FORMAT,
        "variant": variant.id,
        "manager": manager,
        "lock-sha256": lock_sha,
        "python": variant.python,
        "torch-family": torch_family(expected),
        "pip": dict(sorted(expected.pip.items())),
        "conda": dict(sorted(expected.conda.items())),
        "envgen": __version__,
    }
    if interpreter is not None:
        data["interpreter"] = interpreter
    if lock_dir is not None:
        # Which project's lock it was built from (sealed with the rest): `envgen clean` of one
        # project never removes another's environment from a shared --env-dir.
        data["lock-dir"] = str(lock_dir.resolve())
    # The folder keeps its device and inode through the renames that swap it into place.
    folder = os.open(prefix, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        data[SEAL_KEY] = seal(key, _seal_payload(data, _identity(folder)))
    finally:
        os.close(folder)
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


# --- atomic swap --------------------------------------------------------------------------------
_AT_FDCWD: Final = -100
_RENAME_EXCHANGE: Final = 2


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux renameat2); False when not supported here."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    rc = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _token() -> str:
    return secrets.token_hex(4)


def _remove_tree(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink(missing_ok=True)
    elif path.exists():
        shutil.rmtree(path, ignore_errors=True)


def swap_into_place(new: Path, target: Path) -> None:
    """Make `new` (a finished tree) appear at `target`; the previous tree there is deleted.

    `target` always holds a complete tree when renameat2 exchange works; otherwise the old tree
    is renamed to `<target>.old-*` first (restored if the second rename fails).
    """
    if not target.exists() and not target.is_symlink():
        new.rename(target)
        return
    old = target.with_name(f"{target.name}.old-{_token()}")
    if _exchange(new, target):
        new.rename(old)  # `new` now holds the previous tree
    else:
        target.rename(old)
        try:
            new.rename(target)
        except BaseException:
            old.rename(target)
            raise
    _remove_tree(old)


def remove_leftovers(target: Path) -> list[Path]:
    """Delete `<target>.tmp-*` and `<target>.old-*` left by a killed run; return them."""
    if not target.parent.is_dir():
        return []
    found = sorted(
        p
        for pattern in (f"{target.name}.tmp-*", f"{target.name}.old-*")
        for p in target.parent.glob(pattern)
    )
    for path in found:
        log.info("removing %s left by an interrupted build", path)
        _remove_tree(path)
    return found


def check_replaceable(env: Path, *, inside: Path, key: bytes) -> None:
    """Refuse to build at `env` when that would delete something envgen did not build.

    A build replaces the tree at `env` as a whole, so it must be an environment envgen built
    (its `envgen-build.json` marker, sealed here or not: an environment built elsewhere is
    replaced, never run), an empty folder, or nothing; neither `env` nor a folder
    between `inside` and it may be a symbolic link (a cloned repository's link would make the
    swap and the clean-up act on another folder).

    Raises:
        FileSystemError: a link on the way.
        BuildError: `env` holds files envgen did not put there.
    """
    check_no_links(env, inside=inside)
    try:
        info = env.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISDIR(info.st_mode):
        if marker_state(env, key).found or not any(env.iterdir()):
            return
        what = "a folder that is not an environment envgen built (no envgen-build.json)"
    else:
        what = "a file, not an environment folder"
    msg = f"{env} is {what}; a build replaces that path as a whole, so envgen leaves it alone"
    raise BuildError(msg, hint=f"move or remove {env} yourself, or choose another --env-dir")


# --- one variant --------------------------------------------------------------------------------
def _builder(manager: str) -> Builder:
    if manager == "pip":
        # Function-local too: `envgen smoke` and `run` load this module but build nothing (the
        # pip builder brings the bytecode store, the interpreter routes, the index plan).
        from envgen.build.venv import VenvBuilder  # noqa: PLC0415

        return VenvBuilder()
    # Function-local: a pip build never loads the conda side (envgen.lock.conda, rattler).
    from envgen.build.conda import CondaBuilder  # noqa: PLC0415

    return CondaBuilder()


def choose_manager(variant: Variant, manager: ManagerChoice) -> str:
    """The manager to build a variant with ('auto': pip when the variant has a pip side)."""
    if manager == "auto":
        return "pip" if variant.pip is not None else "conda"
    if manager not in variant.managers:
        msg = (
            f"{variant.id}: has no {manager} side (it has: {', '.join(variant.managers)}); "
            f"build it with --manager {variant.managers[0]}"
        )
        raise BuildError(msg)
    return manager


def check_current(
    spec: ProjectSpec,
    variant: Variant,
    lock_dir: Path,
    names: tuple[str, ...],
    *,
    settings: Settings,
    resolve: bool = True,
) -> None:
    """Raise BuildError when a lock file is missing, edited by hand or older than the spec.

    `resolve=False` (a build from a vault, offline): no re-resolution; the lock's content hash,
    its input hash and the vault's sha256 of every file stand for it.
    """
    options = LockOptions(spec=spec.path, settings=settings)
    written = index_urls(spec, settings, for_writing=True)
    texts: dict[str, str] = {}
    for name in names:
        path = lock_dir / name
        text = texts[name] = read_lock(path, variant.id)
        if name == "requirements.txt":
            # The one parser of the format: a line it cannot classify stops the build here.
            problems = parse_pip_lock(text, source=str(path)).tampered()
        else:
            problems = tampered_lines(text)
        fields = split_header(text)[0]
        try:
            parse_overrides(fields.get("lock-options"), where=str(path))
        except LockError as exc:
            raise BuildError(exc.message, hint=exc.hint) from None
        want = lock_inputs(spec, variant, options, written, recorded=fields.get("lock-options"))
        have = fields.get("input-hash")
        if have != want:
            problems.append(
                "stale: the spec or matrix changed since it was locked (the lock records "
                f"input-hash {have[:19] + '…' if have else 'none'}, they now give {want[:19]}…)"
            )
        if problems:
            msg = f"{path}: " + "; ".join(problems)
            raise BuildError(msg, hint=f"run `envgen lock --variant {variant.id}` first")
    recorded = recorded_in(texts)
    notice = unconfirmed_options(spec, None, None, recorded)
    if notice:
        log.warning("%s: %s", variant.id, notice)
    if not resolve:
        check_indexes(spec, variant, lock_dir, settings=settings)
        return
    # These very bytes re-resolved by an earlier build on this machine with these settings (a
    # build stamp in the user's cache, envgen.lock.stamps): the same answer, and the lines that
    # re-resolution printed are printed again, so the output stays what it was.
    seen = stamps.build_stamp(variant, texts, settings, options.conda_tool)
    if seen is not None:
        log.debug("%s: this lock was verified by an earlier build; not re-resolved", variant.id)
        for level, line in seen:
            log.log(level, "%s", line)
        return
    try:
        with stamps.recording() as printed:
            problems = verify_lock_files(spec, variant, texts, settings=settings)
    except ToolNotFoundError:
        raise  # its own exit code (12)
    except EnvgenError as exc:
        raise BuildError(exc.message, hint=exc.hint) from None
    if not problems:
        stamps.stamp_build(variant, texts, settings, options.conda_tool, printed)
    if problems:
        msg = (
            f"{lock_dir}: the lock is not what its inputs resolve to (edited by hand?); "
            f"{len(problems)} problem(s):\n" + "\n".join(f"  - {p}" for p in problems)
        )
        raise BuildError(
            msg, hint=f"review the change, then run `envgen lock --variant {variant.id} --upgrade`"
        )


def check_indexes(
    spec: ProjectSpec, variant: Variant, lock_dir: Path, *, settings: Settings
) -> None:
    """Raise BuildError when a lock names indexes or conda channels the spec and settings do not.

    Runs even with allow_stale: the build takes its indexes from the spec and settings only.
    """
    problems: list[str] = []
    path = lock_dir / "requirements.txt"
    if variant.pip is not None and path.is_file():
        problems += [
            f"requirements.txt: {p}"
            for p in index_line_problems(
                read_lock(path, variant.id), variant, index_urls(spec, settings, for_writing=True)
            )
        ]
    if variant.conda is not None:
        for name in conda_lock_names(variant):
            if (lock_dir / name).is_file():
                text = read_lock(lock_dir / name, variant.id)
                problems += [f"{name}: {p}" for p in conda_url_problems(name, text, variant)]
    if problems:
        msg = f"{lock_dir}: refusing indexes and channels the spec does not name:\n" + "\n".join(
            f"  - {p}" for p in problems
        )
        raise BuildError(msg, hint=f"run `envgen lock --variant {variant.id} --upgrade`")


def build_one(  # noqa: PLR0913 - the build's inputs, keyword-only; the Settings object replaces them
    variant: Variant,
    builder: Builder,
    *,
    lock_dir: Path,
    env: Path,
    cache_dir: Path,
    urls: IndexUrls | None = None,
    channel_alias: str | None = None,
    http_timeout: float | None = None,
    rebuild: bool = False,
    conda_tool: CondaTool = "rattler",
    timeout: float = 1800.0,
    finish: bool = True,
    key: bytes,
    vault: str | None = None,
) -> tuple[Literal["built", "up-to-date"], Inventory]:
    """Build one environment atomically at `env` (see the module docstring).

    `key`: the user's build key (envgen.infra.buildkey.load_key); only an environment whose
    marker it sealed is kept ("up-to-date") or has its interpreter run.

    `finish`: let the builder start its after-the-swap work (background bytecode) before this
    returns; build_variants passes False and does it after the smoke test, which it would slow.

    `urls`, `channel_alias` and `http_timeout` are the user's settings as build_variants applied
    them (the defaults: the official indexes and channels, each tool's own timeout).
    """
    expected = builder.expected(variant, lock_dir)
    lock_sha = lock_digest(lock_dir, builder.lock_files(variant))
    remove_leftovers(env)
    state = marker_state(env, key)
    marker = state.data
    if state.found and marker is None:
        log.info("%s: %s; rebuilding", variant.id, not_built_here(env))
    if not rebuild and marker is not None and marker.get("lock-sha256") == lock_sha:
        if not expected.diff(builder.installed(env)):
            return "up-to-date", expected
        log.info("%s: %s no longer matches its lock; rebuilding", variant.id, env)
    tmp = env.with_name(f"{env.name}.tmp-{_token()}")
    env.parent.mkdir(parents=True, exist_ok=True)
    try:
        interpreter = builder.install(
            BuildRequest(
                variant=variant,
                lock_dir=lock_dir,
                prefix=tmp,
                final_prefix=env,
                urls=urls or IndexUrls(),
                channel_alias=channel_alias,
                http_timeout=http_timeout,
                cache_dir=cache_dir,
                conda_tool=conda_tool,
                timeout=timeout,
                vault=vault,
            )
        )
        progress.phase("checking the installed packages")
        problems = expected.diff(builder.installed(tmp))
        if problems:
            msg = (
                f"{variant.id}: the environment does not match {builder.lock_files(variant)[0]}"
                f" ({len(problems)} difference(s)):\n" + "\n".join(f"  - {p}" for p in problems)
            )
            raise BuildError(msg)
        stuck = files_naming(tmp, str(tmp))
        if stuck:
            names = ", ".join(str(p.relative_to(tmp)) for p in stuck[:5])
            msg = (
                f"{variant.id}: files still name the temporary build path and would break: {names}"
            )
            raise BuildError(msg)
        atomic_write_bytes(
            tmp / MARKER,
            _marker_bytes(
                variant,
                builder.manager,
                lock_sha,
                expected,
                interpreter,
                key=key,
                prefix=tmp,
                lock_dir=lock_dir,
            ),
        )
        swap_into_place(tmp, env)
    finally:
        _remove_tree(tmp)
    if finish:
        builder.finish(env)
    return "built", expected


def smoke_expectation(
    variant: Variant, expected: Inventory, archs: tuple[str, ...] = ()
) -> SmokeExpectation:
    """What the smoke checks expect of a variant built from a lock with `expected` contents
    (`archs`: the compiled CUDA architectures the matrix records for its build, if any)."""
    dists = torch_family(expected)
    companions = frozenset(
        name
        for name, wanted in (
            ("torchvision", variant.with_torchvision),
            ("torchaudio", variant.with_torchaudio),
        )
        if wanted and name in dists
    )
    return SmokeExpectation(
        kind=variant.kind,
        version=variant.compute_version,
        distributions=dists,
        companions=companions,
        archs=archs,
        extensions=frozenset(p.import_name for p in variant.extensions),
    )


def build_variants(  # noqa: PLR0913 - the build's inputs, keyword-only; the Settings object replaces them
    spec: ProjectSpec,
    matrix: Matrix,
    out: Path,
    *,
    variants: tuple[str, ...] = (),
    settings: Settings,
    manager: ManagerChoice = "auto",
    env_dir: Path | None = None,
    smoke: bool = True,
    jobs: int | None = None,
    rebuild: bool = False,
    conda_tool: CondaTool = "rattler",
    allow_stale: bool = False,
    inside: Path | None = None,
    vault: str | None = None,
) -> BuildReport:
    """Build (and smoke-test) the selected variants' environments from their lock files.

    Every selected variant's locks are checked before anything is built. Per-variant build and
    smoke failures are reported in the BuildReport (call `raise_for_failures`), not raised.

    `inside`: the trusted folder `out` lies in (default `out`); with `env_dir`, that folder is
    the trusted one for environments. `settings`: the user's, resolved once by the caller
    (`--cache-dir` is already its cache root, for the whole run, the locks' verification included).
    `vault`: a vault's URL (envgen.vault): every file comes from it, nothing is re-resolved.

    Raises:
        BuildError: a lock is missing, pins-only, edited or stale (run `envgen lock` first), or
            an environment's path holds something envgen did not build.
        FileSystemError: an environment's path, or a folder on the way, is a symbolic link.
    """
    chosen = select(expand(spec, matrix).variants, variants)
    cache = settings.cache_root
    urls = index_urls(spec, settings, for_writing=False)
    key = load_key(settings.key_file)
    plan: list[tuple[Variant, str, Builder]] = []
    not_ready: dict[str, VariantBuild] = {}
    progress.start([v.id for v in chosen])
    for v in chosen:
        mgr = choose_manager(v, manager)
        builder = _builder(mgr)
        try:
            builder.expected(v, out / v.id)  # missing or pins-only -> BuildError now
            if not allow_stale:  # current, intact and what its inputs resolve to
                progress.phase("verifying the lock", variant=v.id)
                check_current(
                    spec,
                    v,
                    out / v.id,
                    builder.lock_files(v),
                    settings=settings,
                    resolve=vault is None,
                )
            else:  # even then, never indexes or channels other than the spec's and settings'
                check_indexes(spec, v, out / v.id, settings=settings)
        except BuildError as exc:
            if len(chosen) == 1:
                raise
            # Several variants: build the ones that can be built, report this one at the end.
            not_ready[v.id] = VariantBuild(
                variant=v.id,
                manager=mgr,
                env=env_path(out, v.id, env_dir),
                status="not-ready",
                seconds=0.0,
                error=str(exc),
            )
            progress.finish("not ready", variant=v.id, logged=True)  # the summary says why
            continue
        check_replaceable(env_path(out, v.id, env_dir), inside=env_dir or inside or out, key=key)
        plan.append((v, mgr, builder))

    def work(item: tuple[Variant, str, Builder]) -> VariantBuild:
        with progress.working_on(item[0].id):
            done = build_and_smoke(item)
            outcome = done.status if done.ok or done.status == "failed" else "smoke failed"
            progress.finish(outcome, logged=True)  # the build and smoke lines say it
        return done

    def build_and_smoke(item: tuple[Variant, str, Builder]) -> VariantBuild:
        v, mgr, builder = item
        target = env_path(out, v.id, env_dir)
        start = time.perf_counter()
        try:
            status, expected = build_one(
                v,
                builder,
                lock_dir=out / v.id,
                env=target,
                cache_dir=cache,
                urls=urls,
                # A vault's conda/ folder mirrors conda.anaconda.org's layout: it is the alias.
                channel_alias=f"{vault.rstrip('/')}/conda" if vault else settings.channel_alias,
                http_timeout=settings.http_timeout,
                rebuild=rebuild,
                conda_tool=conda_tool,
                finish=False,
                key=key,
                vault=vault,
            )
        except EnvgenError as exc:
            seconds = time.perf_counter() - start
            log.info("%s: build failed after %.1f s", v.id, seconds)
            return VariantBuild(
                variant=v.id,
                manager=mgr,
                env=target,
                status="failed",
                seconds=seconds,
                error=str(exc),
                missing_tool=isinstance(exc, ToolNotFoundError),
            )
        seconds = time.perf_counter() - start
        disk = disk_usage(target, walked=builder.walked(target))
        log.info("%s: %s with %s in %.1f s, %s", v.id, status, mgr, seconds, disk.describe())
        interpreter = (read_marker(target, key) or {}).get("interpreter")
        report = None
        if smoke:
            archs = compiled_archs(matrix, v) if mgr == "pip" else ()
            report = _smoke(v, target, expected, archs)
        if status == "built":
            builder.finish(target)  # after the smoke test, which runs without waiting for it
        return VariantBuild(
            variant=v.id,
            manager=mgr,
            env=target,
            status=status,
            seconds=seconds,
            disk=disk,
            smoke=report,
            interpreter=interpreter if isinstance(interpreter, str) else None,
        )

    workers = max(1, jobs or min(len(plan), os.cpu_count() or 1))
    with cf.ThreadPoolExecutor(max_workers=workers) as pool:
        built = {b.variant: b for b in pool.map(work, plan)}
    every = built | not_ready
    return BuildReport(builds=tuple(every[v.id] for v in chosen))


def compiled_archs(matrix: Matrix, variant: Variant) -> tuple[str, ...]:
    """The GPU architectures the matrix says the variant's pip build has (empty = unknown)."""
    if variant.kind not in ("cuda", "rocm") or variant.compute_version is None:
        return ()
    row = matrix.arch_row(
        variant.release.torch, variant.kind, variant.compute_version, variant.platform
    )
    return row.archs if row is not None else ()


def _smoke(
    variant: Variant, env: Path, expected: Inventory, archs: tuple[str, ...] = ()
) -> SmokeReport:
    start = time.perf_counter()
    progress.phase("smoke checks")
    report = run_smoke(python_of(env), smoke_expectation(variant, expected, archs))
    # The project tier: the spec's own packages import (envgen.smoke.project).
    report = with_project_checks(report, python_of(env), variant, conda_built=bool(expected.conda))
    log.info(
        "%s: smoke %d passed, %d failed, %d skipped in %.1f s",
        variant.id,
        len(report.passed),
        len(report.failed),
        len(report.skipped),
        time.perf_counter() - start,
    )
    return report


def smoke_variants(
    spec: ProjectSpec,
    matrix: Matrix,
    out: Path,
    *,
    variants: tuple[str, ...] = (),
    env_dir: Path | None = None,
    settings: Settings,
) -> tuple[VariantSmoke, ...]:
    """`envgen smoke`: run the smoke checks in the selected variants' built environments.

    Only environments this machine built (their marker sealed with the key of
    `settings.key_file`) are tested: another one's interpreter is never run.

    Raises:
        BuildError: an environment is missing, unfinished (no marker) or not built here: build
            it first.
    """
    chosen = select(expand(spec, matrix).variants, variants)
    key = load_key(settings.key_file)
    results: list[VariantSmoke] = []
    for v in chosen:
        target = env_path(out, v.id, env_dir)
        check_no_links(target, inside=env_dir or out)
        state = marker_state(target, key)
        marker = state.data
        if marker is None:
            if state.found:
                msg = f"{v.id}: not built here: {not_built_here(target)}"
            else:
                what = "unfinished (no envgen-build.json)" if target.exists() else "missing"
                msg = f"{v.id}: not built: {target} is {what}"
            error = BuildError(msg, hint=f"run `envgen build {spec.path.name} --variant {v.id}`")
            if len(chosen) == 1:
                raise error
            # Several variants: smoke-test the built ones, report this one in the summary.
            results.append(VariantSmoke(variant=v.id, env=target, report=None, error=str(error)))
            continue
        archs = compiled_archs(matrix, v) if marker.get("manager") == "pip" else ()
        with progress.working_on(v.id):
            report = _smoke(v, target, _marker_inventory(marker), archs)
            progress.finish("passed" if report.ok else "failed", logged=True)
        results.append(VariantSmoke(variant=v.id, env=target, report=report))
    return tuple(results)


def smoke_summary(results: tuple[VariantSmoke, ...]) -> str:
    """One line: how many variants passed, failed their checks, or were not built."""
    passed = [r.variant for r in results if r.report is not None and r.report.ok]
    failed = [r.variant for r in results if r.report is not None and not r.report.ok]
    missing = [r.variant for r in results if r.report is None]
    parts = [f"{len(passed)} passed"]
    parts.append(f"{len(failed)} failed" + (f" ({', '.join(failed)})" if failed else ""))
    parts.append(f"{len(missing)} not built" + (f" ({', '.join(missing)})" if missing else ""))
    return f"smoke: {len(results)} variant(s): " + ", ".join(parts)


def _failed_check_lines(reports: Iterable[tuple[str, SmokeReport | None]]) -> list[str]:
    """`  - <variant>: <check>: <first line of its detail>` per failed check, for summaries."""
    return [
        f"  - {variant}: {c.label}: {c.detail.splitlines()[0] if c.detail else ''}"
        for variant, report in reports
        for c in (report.failed if report is not None else ())
    ]


def raise_for_smoke_failures(results: tuple[VariantSmoke, ...]) -> None:
    """SmokeTestError naming every failing check, else BuildError naming unbuilt variants."""
    failed = [r for r in results if r.report is not None and not r.report.ok]
    if len(results) == 1 and results[0].report is not None:
        smoke_raise(results[0].report, results[0].variant)  # one variant: its own message
    if failed:
        lines = [f"{len(failed)} of {len(results)} variant(s) failed smoke checks"]
        lines += _failed_check_lines((r.variant, r.report) for r in failed)
        lines += [
            f"  - {(r.error or r.variant).splitlines()[0]}" for r in results if r.report is None
        ]
        raise SmokeTestError("\n".join(lines))
    missing = [r for r in results if r.report is None]
    if missing:
        msg = f"{len(missing)} of {len(results)} variant(s) are not built\n" + "\n".join(
            f"[{r.variant}] {r.error}" for r in missing
        )
        raise BuildError(msg)


def _marker_inventory(marker: Mapping[str, object]) -> Inventory:
    def table(key: str) -> dict[str, str]:
        value = marker.get(key)
        return {str(k): str(x) for k, x in value.items()} if isinstance(value, dict) else {}

    return Inventory(pip=table("pip"), conda=table("conda"))


__all__ = [
    "BuildReport",
    "MarkerState",
    "VariantBuild",
    "VariantSmoke",
    "build_one",
    "build_variants",
    "env_path",
    "marker_state",
    "read_marker",
    "remove_leftovers",
    "smoke_expectation",
    "smoke_variants",
    "swap_into_place",
]
