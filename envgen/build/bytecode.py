"""The bytecode store: path-free .pyc shared by every environment built on one cache.

Not `uv pip sync --compile-bytecode`: uv records each module's absolute (temp) path, so no two
environments' .pyc are alike (~145 MB of bytecode per torch environment) and compiling takes
~20 s per build. Instead each module is compiled once with its path relative to site-packages
(importlib restores the real path on load) into `<cache>/pyc/<tag>/`, keyed by the *source
file's* device, inode, mtime and size: sources are hard links into uv's cache, so the same
module in another environment has the same key, and its .pyc is hard-linked from the store.

A build first links what the store has (`link_from_store`: one scandir pass, ~0.1 s for
torch's ~5,000 modules). What is left is compiled by `pyc_job.py`, run by the environment's own
interpreter: at once, inside the build's temp tree, when it is a few modules (a new small
package), else (`start_background`) in a detached, niced process after the environment is in
place, holding `<cache>/pyc/<tag>.lock`, so a cold build is usable as soon as uv is done;
Python compiles what is imported before that job gets to it (and the job then replaces those
.pyc with the store's). The next build links from the store; `wait_for_store` waits for a
running job (benchmarks, tests). Store entries are written to a temp name and hard-linked into
place: complete or absent, even when a job is killed.

This module must not decide where environments or the cache live, and starts processes only
through envgen.infra.proc.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from envgen.build.disk import DiskTally
from envgen.infra import proc as _proc

log = logging.getLogger(__name__)

STORE: Final = "pyc"
JOB_SCRIPT: Final = Path(__file__).with_name("pyc_job.py")
# More modules left than this: compile them after the environment is in place, in the background.
SYNC_LIMIT: Final = 200
BACKGROUND_NICE: Final = 10

Source = tuple[str, str]
"""(site-packages, the module's path relative to it)."""


def python_tag(python: str) -> str:
    """The cache tag of CPython "X.Y" (`sys.implementation.cache_tag`).

    >>> python_tag("3.11")
    'cpython-311'
    """
    return "cpython-" + "".join(python.split(".")[:2])


def store_folder(cache_dir: Path, tag: str) -> Path:
    return cache_dir / STORE / tag


def lock_path(folder: Path) -> Path:
    return folder.with_name(folder.name + ".lock")


def _source_key(st: os.stat_result) -> str:
    """A source file's identity: hard links into the uv cache share it across environments."""
    return f"{st.st_dev}-{st.st_ino}-{st.st_mtime_ns}-{st.st_size}"


def site_packages(prefix: Path) -> list[str]:
    lib = prefix / "lib"
    try:
        names = sorted(e.name for e in lib.iterdir() if e.name.startswith("python"))
    except OSError:
        return []
    return [str(lib / n / "site-packages") for n in names if (lib / n / "site-packages").is_dir()]


def link_from_store(
    prefix: Path, folder: Path, tag: str, *, tally: DiskTally | None = None
) -> tuple[int, list[Source]]:
    """Hard-link the store's .pyc into every site-packages of `prefix`; (linked, left).

    `left`: the modules the store has no entry for (neither a .pyc nor a `.none` marker for a
    module that does not compile), in a stable order. A .pyc already present (shipped in the
    wheel) is kept. Links across file systems fail: then everything is left.
    `tally`: every site-packages is counted into it on the same walk, links made included
    (envgen.build.disk); marked complete when each was counted whole.
    """
    sites = site_packages(prefix)
    try:
        names = set(os.listdir(folder))  # noqa: PTH208 - one listing, ~5,000 names
    except OSError:
        names = set()
    store = _Store(names=names, base=str(folder), suffix=f".{tag}.pyc")
    linked = 0
    left: list[Source] = []
    for site in sites:
        tally = _count_root(site, tally)
        stack = [site]
        while stack:
            directory = stack.pop()
            try:
                with os.scandir(directory) as listing:  # closed even when listing fails
                    entries = sorted(listing, key=lambda e: e.name)
            except OSError:
                continue
            done = _link_folder(directory, entries, site, store, tally, left)
            if done is None:
                return linked, _all_sources(sites)
            subdirs, count = done
            linked += count
            stack.extend(reversed(subdirs))
    if tally is not None:
        tally.complete = True
    return linked, left


@dataclass(frozen=True, slots=True, kw_only=True)
class _Store:
    names: set[str]  # the store folder's entries
    base: str  # the store folder
    suffix: str  # ".cpython-311.pyc"


def _count_root(site: str, tally: DiskTally | None) -> DiskTally | None:
    """Count a site-packages folder itself into `tally` and mark it walked whole; None (no
    tally from here on) when it is gone or a link, which the report counts by itself."""
    if tally is None:
        return None
    try:
        top = os.lstat(site)
    except OSError:
        return None
    if not stat.S_ISDIR(top.st_mode):
        return None
    tally.count(top)
    tally.roots.add(tally.key(top))
    return tally


def _link_folder(
    directory: str,
    entries: list[os.DirEntry[str]],
    site: str,
    store: _Store,
    tally: DiskTally | None,
    left: list[Source],
) -> tuple[list[str], int] | None:
    """Link one folder's modules (misses appended to `left`); (its subfolders, links made), or
    None when the store is on another file system."""
    start = len(site) + 1
    cache: str | None = None
    subdirs: list[str] = []
    pycache = False
    linked = 0
    for entry in entries:
        name = entry.name
        if tally is not None:
            # A module's lstat is kept on its DirEntry (its key below needs it); any other
            # entry's is not: a DirEntry holding one for each of a big folder's files was
            # +5 MiB of the build's peak (tracemalloc: 8.45 -> 4.18 MiB for the link walk).
            with contextlib.suppress(OSError):
                py = name.endswith(".py")
                tally.count(entry.stat(follow_symlinks=False) if py else os.lstat(entry.path))
        if entry.is_dir(follow_symlinks=False):
            if name != "__pycache__":
                subdirs.append(entry.path)
            else:
                pycache = True
            continue
        if not name.endswith(".py") or not entry.is_file():
            continue
        try:
            key = _source_key(entry.stat())
        except OSError:
            continue
        if key + ".pyc" not in store.names:
            if key + ".none" not in store.names:
                left.append((site, entry.path[start:]))
            continue
        if cache is None:
            cache = os.path.join(directory, "__pycache__")  # noqa: PTH118 - str paths
            with contextlib.suppress(FileExistsError):
                os.mkdir(cache)  # noqa: PTH102
        try:
            os.link(f"{store.base}/{key}.pyc", f"{cache}/{name[:-3]}{store.suffix}")
            linked += 1
        except FileExistsError:
            continue  # the wheel shipped its own .pyc
        except OSError as exc:
            if exc.errno == errno.EXDEV:
                return None
            log.debug("bytecode link for %s failed: %s", entry.path, exc)
            left.append((site, entry.path[start:]))
    if tally is not None and (pycache or cache is not None):
        # After this folder's links: its __pycache__ as the report would find it.
        tally.count_tree(os.path.join(directory, "__pycache__"))  # noqa: PTH118 - str paths
    return subdirs, linked


def _all_sources(sites: Sequence[str]) -> list[Source]:
    return [
        (site, str(path.relative_to(site)))
        for site in sites
        for path in sorted(Path(site).rglob("*.py"))
    ]


def _job_input(sources: Sequence[Source]) -> str:
    """One line per module; a path the line format or the job's UTF-8 stdin cannot carry (a tab
    or newline, a non-UTF-8 file name) is left out: that module compiles on import instead."""
    return "".join(
        f"{site}\t{rel}\n"
        for site, rel in sources
        if not any(c in site + rel for c in "\t\n\r") and _utf8(site + rel)
    )


def _utf8(path: str) -> bool:
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:  # a surrogate-escaped (non-UTF-8) file name
        return False
    return True


def compile_now(
    python_path: Path, folder: Path, tag: str, sources: Sequence[Source], *, timeout: float
) -> dict[str, int]:
    """Compile `sources` into the store and link them into their environment, waiting for it."""
    folder.mkdir(parents=True, exist_ok=True)
    result = _proc.run(
        [python_path, "-I", "-B", JOB_SCRIPT, "--store", folder, "--tag", tag],
        what=f"compiling bytecode for {len(sources)} module(s)",
        env=_proc.clean_env(),
        timeout=timeout,
        check=False,
        input_text=_job_input(sources),
    )
    try:
        summary = json.loads(result.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        log.debug("bytecode job failed (exit %d): %s", result.returncode, result.stderr[-2000:])
        return {}
    return {str(k): int(v) for k, v in summary.items()}


def start_background(
    python_path: Path, prefix: Path, folder: Path, tag: str, sources: Sequence[Source]
) -> int | None:
    """Start the detached job that compiles `sources` (under `prefix`, the environment's final
    path) into the store and links them there; its pid, or None when it could not start.

    The store lock is taken here when free and handed to the job (so `wait_for_store` right
    after this returns already waits for it); when another job holds it, the job waits for it.
    """
    folder.mkdir(parents=True, exist_ok=True)
    lock = lock_path(folder)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            handoff: list[str | Path] = ["--lock-fd", str(fd)]
            fds: tuple[int, ...] = (fd,)
        except BlockingIOError:
            handoff, fds = ["--lock", lock], ()
        marker = prefix / "envgen-build.json"
        since = marker.stat().st_mtime_ns if marker.exists() else time.time_ns()
        argv: list[str | Path] = [
            python_path, "-I", "-B", JOB_SCRIPT, "--store", folder, "--tag", tag,
            "--nice", str(BACKGROUND_NICE), "--replace-after", str(since), *handoff,
        ]  # fmt: skip
        return _proc.spawn_detached(
            argv,
            what=f"compiling bytecode for {len(sources)} module(s) in the background",
            env=_proc.clean_env(),
            input_text=_job_input(sources),
            pass_fds=fds,
        )
    except OSError as exc:
        log.info("could not start the bytecode job (%s); Python compiles on import instead", exc)
        return None
    finally:
        os.close(fd)


def wait_for_store(folder: Path, *, timeout: float = 1800.0) -> bool:
    """Wait until no bytecode job holds the store's lock; False on timeout."""
    lock = lock_path(folder)
    try:
        fd = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW)
    except FileNotFoundError:
        return True
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.05)
                continue
            fcntl.flock(fd, fcntl.LOCK_UN)
            return True
    finally:
        os.close(fd)


__all__ = [
    "SYNC_LIMIT",
    "Source",
    "compile_now",
    "link_from_store",
    "python_tag",
    "start_background",
    "store_folder",
    "wait_for_store",
]
