"""Timing, disk accounting, tool invocations and machine facts for the benchmarks.

Processes start only through envgen.infra.proc. Nothing here decides what is measured
(benchmarks.run
does); this module must not write outside the directories it is handed.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from envgen.infra import proc as _proc

BIN: Final = Path(sys.executable).parent


@dataclass(frozen=True, slots=True, kw_only=True)
class Timing:
    """Wall-clock seconds of each repetition of one measurement."""

    runs: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def as_json(self) -> dict[str, object]:
        return {
            "median_s": round(self.median, 4),
            "min_s": round(min(self.runs), 4),
            "max_s": round(max(self.runs), 4),
            "runs_s": [round(r, 4) for r in self.runs],
        }


def repeat(
    body: Callable[[int], None],
    reps: int,
    *,
    before: Callable[[int], None] | None = None,
    after: Callable[[int], None] | None = None,
) -> Timing:
    """Time `body(i)` `reps` times; `before(i)` and `after(i)` (untimed) surround each one."""
    runs: list[float] = []
    for i in range(reps):
        if before is not None:
            before(i)
        start = time.perf_counter()
        body(i)
        runs.append(time.perf_counter() - start)
        if after is not None:
            after(i)
    return Timing(runs=tuple(runs))


# Runs one command and writes its wall seconds and peak memory to a file: the child's own
# accounting from wait4(2) (ru_maxrss: the largest single process among it and the children it
# waited for, as /usr/bin/time -v reports it). The wrapper's own start-up is outside the timing.
_WRAPPER: Final = """
import json, os, sys, time
out, cwd, args = sys.argv[1], sys.argv[2], sys.argv[3:]
os.chdir(cwd)
start = time.perf_counter()
pid = os.posix_spawnp(args[0], args, os.environ)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(out, "w") as f:
    json.dump({"seconds": seconds, "peak_bytes": usage.ru_maxrss * 1024,
               "cpu_seconds": usage.ru_utime + usage.ru_stime}, f)
sys.exit(os.waitstatus_to_exitcode(status))
"""


@dataclass(frozen=True, slots=True, kw_only=True)
class Sample:
    """One run of one command: wall seconds, peak resident memory (bytes) and CPU seconds (user
    + system, of the command and the children it waited for: a detached job is not counted)."""

    seconds: float
    peak_bytes: int
    cpu_seconds: float = 0.0


def measured(
    args: Sequence[str | os.PathLike[str]],
    *,
    what: str,
    env: Mapping[str, str],
    cwd: Path,
    timeout: float = 900.0,
) -> Sample:
    """Run a tool as `run` does (raise when it fails) and return its time and peak memory."""
    fd, name = tempfile.mkstemp(prefix="envgen-bench-", suffix=".json")
    os.close(fd)
    try:
        _proc.run(
            [sys.executable, "-I", "-c", _WRAPPER, name, cwd, *args],
            what=what,
            env=env,
            timeout=timeout,
        )
        data = json.loads(Path(name).read_text())
    finally:
        Path(name).unlink(missing_ok=True)
    return Sample(
        seconds=float(data["seconds"]),
        peak_bytes=int(data["peak_bytes"]),
        cpu_seconds=float(data["cpu_seconds"]),
    )


def _dirty_bytes() -> int:
    """The kernel's dirty and under-writeback page cache (/proc/meminfo), in bytes."""
    total = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith(("Dirty:", "Writeback:")):
                total += int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return 0
    return total


def settle_writeback(*, below: int = 32 * 1024 * 1024, timeout: float = 120.0) -> float:
    """`sync`, then wait until the machine's dirty + writeback pages are under `below` (or
    `timeout` passes: other sessions keep writing); the seconds it took (untimed work).

    A cold build writes ~1 GB (the environment, the cache, the bytecode); without this, the next
    timed run of either side starts while the kernel is still writing the last one back, and
    waits on it wherever it syncs, unlinks or allocates.
    """
    start = time.perf_counter()
    os.sync()
    deadline = start + timeout
    while _dirty_bytes() > below and time.perf_counter() < deadline:
        time.sleep(0.1)
    return time.perf_counter() - start


def ratio(slow: float, fast: float) -> float:
    """How many times faster `fast` is than `slow` (rounded; inf-safe)."""
    return round(slow / fast, 2) if fast > 0 else float("inf")


def disk_bytes(roots: Iterable[Path]) -> int:
    """Bytes allocated on disk under `roots`, each inode counted once (hard links, shared files)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            for name in (*dirnames, *filenames):
                try:
                    st = os.lstat(Path(dirpath, name))
                except FileNotFoundError:
                    continue
                key = (st.st_dev, st.st_ino)
                if key in seen:
                    continue
                seen.add(key)
                total += st.st_blocks * 512
    return total


def clean_env(
    extra: Mapping[str, str] | None = None, *, keep: Sequence[str] = ()
) -> dict[str, str]:
    """os.environ without PIP_/UV_/ENVGEN_/VIRTUAL_ENV (except `keep`), plus `extra`."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k in keep or not k.startswith(("PIP_", "UV_", "ENVGEN_", "VIRTUAL_ENV", "CONDA_"))
    }
    env.update(extra or {})
    return env


def run(args: Sequence[str | os.PathLike[str]], *, what: str, env: Mapping[str, str],
        cwd: Path | None = None, timeout: float = 900.0) -> str:  # fmt: skip
    """Run a tool; raise (with its stderr tail) when it fails; return its stdout."""
    return _proc.run(args, what=what, env=env, cwd=cwd, timeout=timeout).stdout


def tool(name: str) -> str:
    """A tool from the running venv's bin/ (envgen, uv, pip-compile), else from PATH."""
    candidate = BIN / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        msg = f"{name} not found in {BIN} or on PATH"
        raise FileNotFoundError(msg)
    return found


def _first_line(args: Sequence[str]) -> str:
    try:
        out = _proc.run(args, what=args[0], env=clean_env(), timeout=60).stdout
    except Exception as exc:
        return f"unknown ({exc.__class__.__name__})"
    return out.strip().splitlines()[0] if out.strip() else "unknown"


def machine() -> dict[str, object]:
    """The facts a reader needs to compare numbers: CPUs, memory, OS, tool versions."""
    mem = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = int(line.split()[1]) * 1024
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "memory_bytes": mem,
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "uv": _first_line([tool("uv"), "--version"]),
        "pip_tools": _first_line([tool("pip-compile"), "--version"]),
        "pip": _first_line([sys.executable, "-m", "pip", "--version"]).split(" from ")[0],
    }
