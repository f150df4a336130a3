"""Compile path-free .pyc into envgen's bytecode store and link them into an environment.

Run by the *environment's* interpreter (`python -I pyc_job.py ...`: the bytecode must carry its
magic number), so it must not import envgen or anything beyond the standard library, and must
keep to Python 3.6 syntax. envgen.build.bytecode starts it, synchronously inside a build's temp
tree (a few modules) or detached after the environment is in place (a whole torch).

stdin: one `<site-packages>\\t<path relative to it>` line per source to compile. For each:
the store entry is `<store>/<device>-<inode>-<mtime_ns>-<size>.pyc` (the source's identity:
sources are hard links into uv's cache, so another environment finds the same entry), compiled
with the path relative to site-packages (importlib restores the real path on load), written to
`tmp-<pid>-<n>` and hard-linked into place, so an entry is complete or absent, never half-written
(a killed job leaves only `tmp-<pid>-*`, removed by the next locked job). A module that does not
compile for this Python gets an empty `<key>.none`. Then the entry is linked as the module's
`__pycache__/<stem>.<tag>.pyc`; with --replace-after NS an existing .pyc that Python wrote at
import after the build finished (one link, modified at or after NS) is replaced atomically.

--lock-fd N: the store lock, already held (inherited); --lock PATH: take it (waits); neither:
no lock (entries are still atomic). Prints a JSON summary on stdout.
"""

import argparse
import concurrent.futures
import contextlib
import ctypes
import errno
import fcntl
import json
import os
import py_compile
import shutil
import signal
import sys
from typing import Any  # noqa: F401 - in a type comment (this file keeps to 3.6 syntax)

_CHUNK = 64


def _key(st: os.stat_result) -> str:
    return f"{st.st_dev}-{st.st_ino}-{st.st_mtime_ns}-{st.st_size}"


def _install(entry: str, pyc: str, replace_after: "int | None") -> bool:
    """Link the store entry as the module's .pyc; True when linked."""
    with contextlib.suppress(FileExistsError):
        os.mkdir(os.path.dirname(pyc))
    try:
        os.link(entry, pyc)
        return True
    except FileExistsError:
        if replace_after is None:
            return False  # the wheel shipped its own .pyc
        try:
            st = os.lstat(pyc)
            same = os.stat(entry)
        except OSError:
            return False
        if (st.st_dev, st.st_ino) == (same.st_dev, same.st_ino):
            return False
        if st.st_nlink != 1 or st.st_mtime_ns < replace_after:
            return False  # installed with the wheel, not written at import
        tmp = f"{pyc}.envgen-{os.getpid()}"
        try:
            os.link(entry, tmp)
        except FileExistsError:
            os.unlink(tmp)
            os.link(entry, tmp)
        os.replace(tmp, pyc)
        return True
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
        tmp = f"{pyc}.envgen-{os.getpid()}"
        shutil.copyfile(entry, tmp)  # the store is on another file system
        os.replace(tmp, pyc)
        return True


def work(args: "tuple[str, str, list[tuple[str, str]], int | None, int]") -> "tuple[int, int, int]":
    """Compile and link one chunk: (compiled, failed, linked)."""
    store, tag, items, replace_after, first = args
    compiled = failed = linked = 0
    suffix = "." + tag + ".pyc"
    for number, (site, rel) in enumerate(items, first):
        source = os.path.join(site, rel)
        try:
            key = _key(os.stat(source))
            entry = os.path.join(store, key + ".pyc")
            if not os.path.exists(entry) and not os.path.exists(os.path.join(store, key + ".none")):
                tmp = os.path.join(store, f"tmp-{os.getpid()}-{number}")
                try:
                    py_compile.compile(source, cfile=tmp, dfile=rel, doraise=True)
                except (py_compile.PyCompileError, SyntaxError, UnicodeError, ValueError):
                    # Some wheels ship modules for other Python versions (as uv, we skip them).
                    fd = os.open(os.path.join(store, key + ".none"), os.O_CREAT | os.O_WRONLY)
                    os.close(fd)
                    failed += 1
                    continue
                try:
                    os.link(tmp, entry)
                except FileExistsError:
                    pass  # another job stored the same module first
                finally:
                    os.unlink(tmp)
                compiled += 1
            if not os.path.exists(entry):
                continue
            head, name = os.path.split(source)
            pyc = os.path.join(head, "__pycache__", name[:-3] + suffix)
            if _install(entry, pyc, replace_after):
                linked += 1
        except OSError:
            continue  # the environment went away or changed: nothing to link there
    return compiled, failed, linked


def _clean(store: str) -> None:
    """Remove temp files of jobs that were killed (their pid is gone, or a zombie)."""
    for name in os.listdir(store):
        if not name.startswith("tmp-"):
            continue
        try:
            pid = int(name.split("-")[1])
        except (IndexError, ValueError):
            continue
        if not _alive(pid):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(store, name))


def _alive(pid: int) -> bool:
    """Whether a process still runs: not gone, and not a zombie (a killed pool worker whose
    parent died too is a zombie until something reaps it, which in a container without an init
    may be never: `kill -0` still succeeds on it, so its temp files were never removed)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process (EPERM): alive
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc (not Linux): what kill -0 said
    return state != "Z"


def _worker_init(lock: "int | None") -> None:
    """A pool worker (forked): it must not keep the store lock alive, nor outlive the job.

    The lock is a flock on an open file description that the fork shares: a worker holding it
    after the job's main process died (kill -9, the OOM killer) would block every later job.
    """
    if lock is not None:
        with contextlib.suppress(OSError):
            os.close(lock)
    # Linux: SIGKILL when the job's main process dies (PR_SET_PDEATHSIG = 1).
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    if os.getppid() == 1:  # the job died before prctl took effect
        os._exit(1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--tag", required=True)
    parser.add_argument("--lock")
    parser.add_argument("--lock-fd", type=int)
    parser.add_argument("--replace-after", type=int)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--nice", type=int, default=0)
    args = parser.parse_args()
    items = []
    for line in sys.stdin.read().splitlines():
        site, sep, rel = line.partition("\t")
        if sep and rel.endswith(".py"):
            items.append((site, rel))
    if args.nice:
        os.nice(args.nice)
    lock = args.lock_fd
    if lock is None and args.lock:
        lock = os.open(args.lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        fcntl.flock(lock, fcntl.LOCK_EX)
    if lock is not None:
        _clean(args.store)
    jobs = args.jobs or os.cpu_count() or 1
    chunks = [
        (args.store, args.tag, items[i : i + _CHUNK], args.replace_after, i)
        for i in range(0, len(items), _CHUNK)
    ]
    if jobs > 1 and len(chunks) > 1 and sys.version_info >= (3, 7):
        # 3.7's initializer/initargs, passed by name so the 3.6 syntax check reads the guard.
        worker = {"initializer": _worker_init, "initargs": (lock,)}  # type: dict[str, Any]
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, **worker) as pool:
            results = list(pool.map(work, chunks))
    else:
        results = [work(chunk) for chunk in chunks]
    total = [sum(r[i] for r in results) for i in range(3)]
    summary = {"compiled": total[0], "failed": total[1], "linked": total[2]}
    sys.stdout.write(json.dumps(summary) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
