"""Answers kept with what they read: `list`, `lock`/`check --pins-only` replayed without stages.

These commands read (the spec, the matrix, the committed files) and print; a `lock --pins-only`
that changes nothing writes only the project lock's file (envgen.infra.mutex), which it removes
again. Their run in a new interpreter is almost all imports (issue 27: ~0.14 s of the ~0.18 s of
`envgen list`: the model stage with packaging, the matrix cache's decode), for an answer that is
the same every time the inputs are. So a successful run is recorded (`Recorder`,
envgen.cli.quick) with everything it depended on, and the next identical command (`replay`,
envgen.__main__) prints the recorded bytes when every one of those is still as it was:

- the key: the command line, the working directory, the environment (but `_` and `OLDPWD`,
  which a shell sets per command), the uid, the interpreter, whether stdout and stderr are
  terminals (colour);
- every file or folder the run opened, stat'ed or listed (an audit hook for opens and listings,
  and `os.stat`/`os.lstat`/`os.open` wrapped for the stats and the `dir_fd` opens envgen's
  link-safe reads make), and every module it had loaded: its type, size, mtime, ctime, inode
  and device (a folder: its type; a listing: its names and their types), the stamps git's
  index keeps, with git's rule for racy files: a run that read a file changed within
  `RACY_NS` of its start records nothing;
- nothing else: a run that wrote a file, started a process, opened a socket or failed records
  nothing, and neither does a run whose output a live progress display drew.

A replay checks the stamps (a few hundred `stat` calls, well under a millisecond) and prints
the same bytes in the same order on the same streams; any difference, and any doubt, is a miss
and the command runs as always (and records again). The answers live under the cache root
(`<cache>/answers/`), which the user can delete at any time. tests/unit/cli/test_answers.py
compares a replay with the run it replays and changes each kind of input.

Imports nothing but the standard library's core (os, sys, marshal, zlib): importing this module
must stay cheaper than what it saves; envgen.cli.quick imports the rest when it records.
"""

from __future__ import annotations

import marshal
import os
import stat
import sys
import zlib

TYPE_CHECKING = False  # typing is not loaded on the replay path
if TYPE_CHECKING:
    from typing import Any, Self

FORMAT = 1
RACY_NS = 2_000_000_000
MAX_OUTPUT = 1 << 20  # bytes of output kept; a larger answer is not recorded
MAX_LISTING = 1000  # entries of one listed folder; a larger listing is not recorded
MAX_ANSWERS = 256  # answers kept in all (a few kB to ~40 kB each)
_VOLATILE = frozenset(("_", "OLDPWD"))  # set by a shell for each command it starts
# Commands whose answers are kept: (the command word, the flag it must carry, or "").
COMMANDS = (("list", ""), ("check", "--pins-only"), ("lock", "--pins-only"))
# Audit events of a run that does more than read (or reads what no stamp covers): every `os.*`
# event but the listings (os.mkdir, os.remove, os.truncate: see Recorder._audit), and these.
_EFFECTS = (
    "os.",
    "socket.",
    "subprocess.",
    "shutil.",
    "tempfile.",
    "urllib.",
    "http.",
    "ctypes.",
    "fcntl.lockf",
    "sqlite3.",
)
_LISTINGS = ("os.listdir", "os.scandir")
_READ_ONLY = frozenset(("os.walk", "os.fwalk", "os.getxattr", "os.listxattr", "os.readlink"))
_WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def cache_root(environ: dict[str, str] | os._Environ[str]) -> str:
    """The cache root envgen.infra.settings.Settings names (ENVGEN_CACHE_DIR, else
    ~/.cache/envgen), computed without loading it; tests/unit/cli/test_answers.py compares them."""
    return environ.get("ENVGEN_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "envgen"
    )


def takes(argv: list[str]) -> bool:
    """Whether `argv` is a command whose answer may be kept (envgen.cli.quick's shape decides
    whether the fast path runs it at all)."""
    return any(
        argv[:1] == [word] and (not flag or flag in argv[1:]) for word, flag in COMMANDS
    ) and not any(w.startswith("-") and w != "--pins-only" for w in argv[1:])


def _key(argv: list[str]) -> tuple[object, ...]:
    env = sorted((k, v) for k, v in os.environ.items() if k not in _VOLATILE)
    return (
        FORMAT,
        sys.executable,
        sys.version,
        tuple(sys.flags),
        tuple(sys.warnoptions),
        tuple(argv),
        os.getcwd(),
        os.getuid(),
        tuple(env),
        os.isatty(1),
        os.isatty(2),
    )


def _path_of(key: tuple[object, ...]) -> str:
    name = f"{zlib.crc32(repr(key).encode()):08x}.marshal"  # repr: marshal's bytes vary
    return os.path.join(cache_root(os.environ), "answers", name)


def _stamp(path: str, *, follow: bool) -> tuple[int, ...]:
    """What a replay compares: () for a missing path, (type,) for a folder, else the type,
    size, mtime, ctime, inode and device."""
    try:
        info = os.stat(path, follow_symlinks=follow)
    except (FileNotFoundError, NotADirectoryError):
        return ()
    kind = stat.S_IFMT(info.st_mode)
    if kind == stat.S_IFDIR:
        return (kind,)
    return (kind, info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev)


def _listing(path: str) -> tuple[tuple[str, int], ...]:
    with os.scandir(path) as entries:
        found = [(e.name, stat.S_IFMT(e.stat(follow_symlinks=False).st_mode)) for e in entries]
    return tuple(sorted(found))


def _read(path: str) -> dict[str, object] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            data = marshal.loads(fh.read(MAX_OUTPUT * 4))  # noqa: S302 - envgen's own cache, plain data
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return data if isinstance(data, dict) else None


def _current(answer: dict[str, object]) -> bool:
    """Whether every file, folder and listing the recorded run depended on is as it was."""
    deps, listings = answer["deps"], answer["listings"]
    if not isinstance(deps, tuple) or not isinstance(listings, tuple):
        return False
    for path, follow, recorded in deps:
        if _stamp(path, follow=follow) != recorded:
            return False
    for path, recorded in listings:
        try:
            if _listing(path) != recorded:
                return False
        except OSError:
            return False
    return True


def replay(argv: list[str]) -> bool:
    """Print the kept answer of `envgen ARGV` and return True, or return False (run it).

    The caller exits 0 after a True, as the recorded run did. A closed pipe while printing ends
    the process as the fast path ends it (exit 1, no message).
    """
    if not takes(argv) or sys.stdout is None or sys.stderr is None:
        return False
    try:
        key = _key(argv)
        answer = _read(_path_of(key))
        if answer is None or answer.get("key") != key or not _current(answer):
            return False
        chunks = answer["output"]
    except (OSError, ValueError, TypeError, KeyError):
        return False
    streams = {1: sys.stdout, 2: sys.stderr}
    try:
        for fd, text in chunks:  # type: ignore[attr-defined]
            streams[fd].write(text)
            streams[fd].flush()
    except BrokenPipeError:
        from envgen.cli import edge  # noqa: PLC0415 - only on a closed pipe

        edge.silence_closed_pipe()
        os._exit(1)
    return True


class _Tee:
    """A stream that keeps what is written to it, in order with its sibling's (one list)."""

    def __init__(self, wrapped: object, fd: int, recorder: Recorder) -> None:
        self._wrapped = wrapped
        self._fd = fd
        self._recorder = recorder

    def write(self, text: str) -> int:
        self._recorder.chunks.append((self._fd, text))
        return self._wrapped.write(text)  # type: ignore[attr-defined, no-any-return]

    def writelines(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        if name in ("buffer", "fileno"):  # a write past the text stream would go unseen
            self._recorder.spoiled = f"sys.std*.{name}"
        return getattr(self._wrapped, name)


class Recorder:
    """Records one run of a command `takes`: its output and what it read (see the module doc).

    Use as a context manager around the run, then `save()` after it succeeded. Not reentrant;
    one at a time per process.
    """

    _active: Recorder | None = None
    _hooked = False

    def __init__(self, argv: list[str], *, lock_name: str = "") -> None:
        """`lock_name`: the project lock's file name (envgen.infra.mutex), which a `lock` run
        creates, flocks and removes again: not a write of the answer's, and no dependency (a
        replay that finds the file, a holder's, in a listing the run made is a miss)."""
        self.argv = argv
        self.lock_name = lock_name
        self.key = _key(argv)
        self.start_ns = 0
        self.chunks: list[tuple[int, str]] = []
        self.touched: dict[tuple[str, bool], tuple[int, ...]] = {}
        self.listed: set[str] = set()
        self.spoiled: str | None = None
        import threading  # noqa: PLC0415 - only when recording

        self._inside = threading.local()
        self._saved: tuple[object, ...] = ()

    # --- what the run does --------------------------------------------------------------------
    def _resolve(self, path: object, dir_fd: object = None) -> str | None:
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if isinstance(path, int):
            return _fd_path(path)
        if not isinstance(path, str):
            path = os.fspath(path) if isinstance(path, os.PathLike) else None
            if not isinstance(path, str):
                return None
        if os.path.isabs(path):
            return os.path.normpath(path)
        base = _fd_path(dir_fd) if isinstance(dir_fd, int) else os.getcwd()
        return os.path.normpath(os.path.join(base, path)) if base else None

    def _existing_dir(self, path: object, dir_fd: object) -> bool:
        resolved = self._resolve(path, dir_fd)
        if resolved is None or _stamp(resolved, follow=False) != (stat.S_IFDIR,):
            return False
        self._touch(resolved, follow=False)
        return True

    def _lock_file(self, path: object) -> bool:
        return (
            bool(self.lock_name)
            and isinstance(path, str | bytes)
            and (os.path.basename(os.fsdecode(path)) == self.lock_name)
        )

    def _touch(self, path: object, *, follow: bool, dir_fd: object = None) -> None:
        """Note a file or folder the run opened or looked at; never raises into the run's call."""
        try:
            resolved = self._resolve(path, dir_fd)
            if resolved is None:
                self.spoiled = f"an unresolvable path {path!r}"
                return
            if self.lock_name and os.path.basename(resolved) == self.lock_name:
                return
            key = (resolved, follow)
            if key not in self.touched:
                self.touched[key] = _stamp(resolved, follow=follow)
        except Exception as exc:  # only no answer kept, never the run's failure
            self.spoiled = f"{path!r}: {exc!r}"

    def _audit(self, event: str, args: tuple[object, ...]) -> None:
        if Recorder._active is not self or getattr(self._inside, "busy", False):
            return
        self._inside.busy = True
        try:
            self._event(event, args)
        except Exception as exc:  # an audit hook must not fail the call it audits
            self.spoiled = f"{event}: {exc!r}"
        finally:
            self._inside.busy = False

    def _event(self, event: str, args: tuple[object, ...]) -> None:
        """Note what one audit event says about the run (see the module doc)."""
        if event == "open":
            path, _mode, flags = args
            if isinstance(path, int):
                return  # an open descriptor, already counted
            if isinstance(flags, int) and flags & _WRITES and not self._lock_file(path):
                self.spoiled = f"a write to {path!r}"
                return
            self._touch(path, follow=True)
        elif event in _LISTINGS:
            resolved = self._resolve(args[0] if args[0] is not None else ".")
            if resolved is None:
                self.spoiled = "an unresolvable listing"
            else:
                self.listed.add(resolved)
        elif event in ("os.remove", "os.truncate") and self._lock_file(
            _fd_path(args[0]) if isinstance(args[0], int) else args[0]
        ):
            return  # the project lock's file: written, cut and removed by every lock run
        elif event == "os.mkdir" and self._existing_dir(args[0], args[2]):
            return  # makedirs(exist_ok=True) on a folder that is there: no effect
        elif event.startswith(_EFFECTS) and event not in _READ_ONLY:
            self.spoiled = event

    def _wrap(self) -> None:
        real_stat, real_lstat, real_open = os.stat, os.lstat, os.open
        recorder = self

        def stat_(  # os.stat's own signature
            path: Any,  # noqa: ANN401
            *args: Any,  # noqa: ANN401
            dir_fd: Any = None,  # noqa: ANN401
            follow_symlinks: bool = True,
            **kw: Any,  # noqa: ANN401
        ) -> Any:  # noqa: ANN401
            if Recorder._active is recorder and not getattr(recorder._inside, "busy", False):
                recorder._inside.busy = True
                try:
                    recorder._touch(path, follow=follow_symlinks, dir_fd=dir_fd)
                finally:
                    recorder._inside.busy = False
            return real_stat(path, *args, dir_fd=dir_fd, follow_symlinks=follow_symlinks, **kw)

        def lstat_(path: Any, *args: Any, dir_fd: Any = None, **kw: Any) -> Any:  # noqa: ANN401 - os.lstat's
            return stat_(path, *args, dir_fd=dir_fd, follow_symlinks=False, **kw)

        def open_(path: Any, flags: int, *args: Any, dir_fd: Any = None, **kw: Any) -> Any:  # noqa: ANN401 - os.open's
            if dir_fd is None or Recorder._active is not recorder:
                return real_open(path, flags, *args, dir_fd=dir_fd, **kw)
            if flags & _WRITES and not recorder._lock_file(path):
                recorder.spoiled = f"a write to {path!r}"
            else:
                recorder._inside.busy = True
                try:
                    recorder._touch(path, follow=not flags & os.O_NOFOLLOW, dir_fd=dir_fd)
                finally:
                    recorder._inside.busy = False
            recorder._inside.busy = True  # the audit event of this open: counted here
            try:
                return real_open(path, flags, *args, dir_fd=dir_fd, **kw)
            finally:
                recorder._inside.busy = False

        self._saved = (real_stat, real_lstat, real_open, sys.stdout, sys.stderr)
        os.stat, os.lstat, os.open = stat_, lstat_, open_
        sys.stdout = _Tee(sys.stdout, 1, self)
        sys.stderr = _Tee(sys.stderr, 2, self)

    def __enter__(self) -> Self:
        import time  # noqa: PLC0415 - only when recording

        self.start_ns = time.time_ns()
        if not Recorder._hooked:  # an audit hook cannot be removed: one per process, idle after
            sys.addaudithook(Recorder._dispatch)
            Recorder._hooked = True
        self._wrap()
        Recorder._active = self
        return self

    def __exit__(self, *exc: object) -> None:
        Recorder._active = None
        os.stat, os.lstat, os.open, sys.stdout, sys.stderr = self._saved  # type: ignore[assignment]

    @staticmethod
    def _dispatch(event: str, args: tuple[object, ...]) -> None:
        active = Recorder._active
        if active is not None:
            active._audit(event, args)

    # --- the answer ---------------------------------------------------------------------------
    def answer(self) -> dict[str, object] | None:
        """The answer to keep, or None when this run may not be replayed."""
        if self.spoiled is not None:
            return None
        if sum(len(t) for _, t in self.chunks) > MAX_OUTPUT:
            return None
        deps = dict(self.touched)
        for module in list(sys.modules.values()):
            source = getattr(module, "__file__", None)
            if isinstance(source, str):
                deps.setdefault((os.path.abspath(source), True), ())
        stamped = []
        for (path, follow), before in sorted(deps.items()):
            now = _stamp(path, follow=follow)
            if before and now != before:
                return None  # changed while the run read it
            if len(now) > 1 and max(now[2], now[3]) > self.start_ns - RACY_NS:
                return None  # racy: a change within the clock's grain would go unseen
            stamped.append((path, follow, now))
        listings = []
        for path in sorted(self.listed):
            try:
                names = _listing(path)
            except OSError:
                return None
            if len(names) > MAX_LISTING:
                return None
            listings.append((path, names))
        return {
            "key": self.key,
            "deps": tuple(stamped),
            "listings": tuple(listings),
            "output": tuple(self.chunks),
        }

    def save(self) -> None:
        """Keep the answer of the run just recorded (when it may be replayed), and at most
        `MAX_ANSWERS` answers in all (the oldest go). Never fails: a cache that cannot be
        written or read back is no error of the command."""
        from pathlib import Path  # noqa: PLC0415 - only when saving

        from envgen.infra.files import atomic_write_bytes  # noqa: PLC0415 - only when saving

        try:
            answer = self.answer()
            if answer is None:
                return
            path = Path(_path_of(self.key))
            atomic_write_bytes(path, marshal.dumps(answer))
            kept = sorted(path.parent.glob("*.marshal"), key=lambda p: p.stat().st_mtime_ns)
            for old in kept[: max(0, len(kept) - MAX_ANSWERS)]:
                old.unlink(missing_ok=True)
        except (OSError, ValueError):
            return


def _fd_path(fd: int) -> str | None:
    """The path an open descriptor names (Linux's /proc), or None."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None
