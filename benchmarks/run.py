"""The benchmark sections and the command line (`python -m benchmarks [--quick]`).

Every row times envgen beside the command a user would run instead, in the same run, in
alternating pairs (envgen, baseline, envgen, baseline, ...), so load from other processes falls
on both alike; a row's ratio is the median of its pairs' ratios (issue 27):

1. `startup`: `envgen --version`, `list`, `lock --pins-only`, `check --pins-only` vs
   `python -c pass`; the floor of the libraries a spec-reading command loads, for reference.
2. `import`: `envgen import environment.yml` vs `python -c "yaml.safe_load(...)"` of the file.
3. `lock`: a full warm lock of 1, 3 and 6 variants against a loopback PyTorch-style index vs raw
   `uv pip compile` run once per variant; peak memory of both.
4. `build`: an environment with the real torch 2.13.0+cpu wheel from the lock: `envgen build
   --no-smoke` vs raw `uv venv` + `uv pip sync`, warm and cold caches, peak memory; `envgen
   smoke` vs a one-line import + matmul in the same env; disk of several envs.
5. `matrix`: every release x every accelerator expanded and rendered (in-process).

A row that misses its target carries a profile: `python -X importtime` grouped by package for
start-up rows, the `envgen -vv` timeline's largest steps (log lines stamped with milliseconds
since start) for the others. Writes the raw numbers as JSON (default
benchmarks/results/latest.json) and, in a full run, the results section of docs/benchmarks.md.
This module must not assert timings; it reports them.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import logging
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from benchmarks import fakeindex
from benchmarks.measure import (
    Sample,
    Timing,
    clean_env,
    disk_bytes,
    machine,
    measured,
    repeat,
    run,
    settle_writeback,
    tool,
)
from benchmarks.report import met as _met
from benchmarks.report import update_doc
from envgen.build.bytecode import store_folder, wait_for_store
from envgen.infra.mirror import build_mirror
from tests.support.server import IndexServer

log = logging.getLogger("benchmarks")

ROOT: Final = Path(__file__).parents[1]
RESULTS: Final = Path(__file__).parent / "results" / "latest.json"
DOC: Final = ROOT / "docs" / "benchmarks.md"
REAL_WHEEL: Final = Path("/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
IMPORTED_FILE: Final = ROOT / "examples" / "paper-2021" / "environment.yml"
ACCELERATORS: Final = ("cpu", "cu126", "cu130")
# variants -> (accelerators, pythons): 1 = cpu; 3 = three accelerators; 6 = those x two pythons.
LOCK_SHAPES: Final[dict[int, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    1: (("cpu",), ("3.11",)),
    3: (ACCELERATORS, ("3.11",)),
    6: (ACCELERATORS, ("3.11", "3.12")),
}
BUILD_SPEC: Final = """\
name: bench
python: "3.11"
torch: "2.13.0"
torchvision: false
torchaudio: false
accelerators: [cpu]
managers: [pip]
"""
BUILD_TAG: Final = "cpython-311"  # the bytecode store's folder for BUILD_SPEC's python
SMOKE_ONE_LINE: Final = "import torch; torch.ones(64, 64) @ torch.ones(64, 64)"
MIB: Final = 1024 * 1024


@dataclass(frozen=True, slots=True, kw_only=True)
class Config:
    quick: bool
    reps: int
    work: Path
    sections: tuple[str, ...]


def _fresh(path: Path) -> Path:
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


@contextlib.contextmanager
def _environ(values: dict[str, str]) -> Iterator[None]:
    """Set environment variables for an in-process envgen call, restoring them afterwards."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _serve(root: Path) -> IndexServer:
    """The loopback index server (tests.support.server: Nagle off and a listen backlog of 128,
    so neither a delayed ACK nor a dropped SYN adds a stall a real index does not)."""
    return IndexServer(root)


def _user_env(extra: dict[str, str]) -> dict[str, str]:
    """A user's shell: no PIP_/UV_/ENVGEN_ settings but `extra`; Python keeps its bytecode.

    With PYTHONDONTWRITEBYTECODE (set on the machines these benchmarks ran on) an editable
    install recompiles envgen's own modules on every run (~50-90 ms), which an installed envgen
    never does.
    """
    env = clean_env({"CI": "1", **extra})
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _stats(samples: Sequence[Sample]) -> dict[str, object]:
    timing = Timing(runs=tuple(s.seconds for s in samples)).as_json()
    peaks = [s.peak_bytes for s in samples]
    return timing | {
        "peak_mib": round(statistics.median(peaks) / MIB, 1),
        "cpu_median_s": round(statistics.median(s.cpu_seconds for s in samples), 4),
    }


def paired(
    envgen: Callable[[int], Sample],
    baseline: Callable[[int], Sample],
    n: int,
    *,
    between: Callable[[int], None] | None = None,
    before: Callable[[str, int], None] | None = None,
    swap: bool = False,
) -> dict[str, object]:
    """envgen and its baseline in alternating pairs; `between(i)` (untimed) after each pair.

    `before(side, i)` (untimed) runs before each timed command ("envgen" or "baseline");
    `swap`: odd pairs run the baseline first, so neither side always follows the other's
    leftovers (page cache, writeback).
    """
    a: list[Sample] = []
    b: list[Sample] = []
    for i in range(n):
        order = [("envgen", envgen, a), ("baseline", baseline, b)]
        if swap and i % 2:
            order.reverse()
        for side, command, samples in order:
            if before is not None:
                before(side, i)
            samples.append(command(i))
        if between is not None:
            between(i)
    ratios = [x.seconds / y.seconds for x, y in zip(a, b, strict=True) if y.seconds > 0]
    cpu = [x.cpu_seconds / y.cpu_seconds for x, y in zip(a, b, strict=True) if y.cpu_seconds > 0]
    peak_a = statistics.median(s.peak_bytes for s in a)
    peak_b = statistics.median(s.peak_bytes for s in b)
    return {
        "n": n,
        "envgen": _stats(a),
        "baseline": _stats(b),
        "ratio": round(statistics.median(ratios), 2),
        "ratio_min": round(min(ratios), 2),
        "ratio_max": round(max(ratios), 2),
        "peak_ratio": round(peak_a / peak_b, 2) if peak_b else None,
        # CPU seconds (user + system) of the same pairs: steadier than wall time on shared cores.
        "cpu_ratio": round(statistics.median(cpu), 2) if cpu else None,
    }


def _in_turn(steps: Sequence[Callable[[], Sample]]) -> Sample:
    """Several commands as one baseline: their seconds add up, the peak is the largest."""
    samples = [step() for step in steps]
    return Sample(
        seconds=sum(s.seconds for s in samples),
        peak_bytes=max(s.peak_bytes for s in samples),
        cpu_seconds=sum(s.cpu_seconds for s in samples),
    )


# --- profiles of a missed target ------------------------------------------------------------

_IMPORT_LINE: Final = re.compile(r"^import time:\s+(\d+) \|\s+\d+ \|( *)(\S+)$")
_VV_LINE: Final = re.compile(r"^\s*(\d+) ms (.*)$")


def import_profile(args: Sequence[str], env: dict[str, str], cwd: Path) -> dict[str, object]:
    """`python -X importtime -m envgen ARGS`: own import time per package (min of 3 runs)."""
    best: dict[str, int] = {}
    for _ in range(3):
        result = _run_checkless(
            [sys.executable, "-X", "importtime", "-m", "envgen", *args], env, cwd
        )
        for line in result.splitlines():
            m = _IMPORT_LINE.match(line)
            if m is not None:
                name, own = m.group(3), int(m.group(1))
                best[name] = min(best.get(name, own), own)
    groups: dict[str, int] = {}
    for name, own in best.items():
        parts = name.split(".")
        key = ".".join(parts[:2]) if parts[0] == "envgen" else parts[0]
        groups[key] = groups.get(key, 0) + own
    top = sorted(groups.items(), key=lambda kv: -kv[1])[:10]
    return {
        "kind": "importtime",
        "imports_ms": round(sum(best.values()) / 1000, 1),
        "modules": len(best),
        "top": [[k, round(v / 1000, 1)] for k, v in top],
    }


def timeline_profile(args: Sequence[str], env: dict[str, str], cwd: Path) -> dict[str, object]:
    """One `envgen -vv ARGS` run: the log lines that came longest after the one before."""
    result = _run_checkless([tool("envgen"), "-vv", *args], env, cwd)
    stamps: list[tuple[int, str]] = []
    for line in result.splitlines():
        m = _VV_LINE.match(line)
        if m is not None:
            stamps.append((int(m.group(1)), m.group(2)[:160]))
    steps = [
        {"at_ms": at, "gap_ms": at - prev, "line": text}
        for (prev, _), (at, text) in zip([(0, ""), *stamps], stamps, strict=False)
    ]
    steps.sort(key=lambda s: -int(s["gap_ms"]))  # type: ignore[call-overload]
    return {"kind": "timeline", "last_line_ms": stamps[-1][0] if stamps else None, "top": steps[:6]}


def _run_checkless(args: Sequence[str], env: dict[str, str], cwd: Path) -> str:
    """stdout + stderr of a command whose exit status does not matter (a profile run)."""
    from envgen.infra import proc as _proc  # noqa: PLC0415 - as measure.run does

    done = _proc.run(args, what=args[0], env=env, cwd=cwd, timeout=600, check=False)
    return done.stdout + done.stderr


# --- 1: start-up ------------------------------------------------------------------------------


def bench_startup(cfg: Config) -> dict[str, object]:
    """Spec-reading commands as a user runs them (a new process, matrix cache warm) against
    `python -c pass`, and the floor: python importing click, PyYAML and packaging's markers."""
    work = _fresh(cfg.work / "startup")
    (work / "project.yaml").write_text(_lock_spec(3))
    env = _user_env({"ENVGEN_CACHE_DIR": str(work / "cache")})
    python = sys.executable
    commands = {
        "version": ["--version"],
        "list": ["list", "project.yaml"],
        "lock_pins_only": ["lock", "--pins-only", "project.yaml"],
        # After the lock above: the files it checks are there.
        "check_pins_only": ["check", "--pins-only", "project.yaml"],
    }
    run([tool("envgen"), "lock", "--pins-only", "project.yaml"], what="fill the matrix cache",
        env=env, cwd=work)  # fmt: skip
    if not cfg.quick:
        # Untimed: past the racy-file window of the spec and caches just written. A run that
        # reads a file changed within RACY_NS before it starts keeps no answer
        # (envgen.cli.answers), so without the wait the first seconds of runs all take the full
        # path, which is what a user sees right after an edit: the `list_edited` row below.
        from envgen.cli.answers import RACY_NS  # noqa: PLC0415 - the benchmark's own set-up

        time.sleep(RACY_NS / 1e9 + 0.5)
    n = 1 if cfg.quick else 11

    def python_pass(_i: int) -> Sample:
        return measured([python, "-c", "pass"], what="python -c pass", env=env, cwd=work)

    rows: dict[str, dict[str, object]] = {}
    for key, args in commands.items():
        rows[key] = paired(
            lambda _i, a=args, k=key: measured(  # type: ignore[misc]
                [tool("envgen"), *a], what=f"envgen {k}", env=env, cwd=work
            ),
            python_pass,
            n,
        ) | {"command": "envgen " + " ".join(args), "baseline_command": "python -c pass"}
    # The same `envgen list` with the spec edited (untimed) before each run: no kept answer
    # (envgen.cli.answers) can serve it, so this is the full path a first run after an edit takes.
    spec = work / "project.yaml"
    text = spec.read_text(encoding="utf-8")

    def edit(side: str, i: int) -> None:
        if side == "envgen":
            spec.write_text(f"{text}# edit {i}\n", encoding="utf-8")

    rows["list_edited"] = paired(
        lambda _i: measured(
            [tool("envgen"), "list", "project.yaml"], what="envgen list", env=env, cwd=work
        ),
        python_pass,
        n,
        before=edit,
    ) | {"command": "envgen list project.yaml", "baseline_command": "python -c pass"}
    spec.write_text(text, encoding="utf-8")
    floor = "import click, yaml, packaging.requirements"
    rows["floor_libraries"] = paired(
        lambda _i: measured([python, "-c", floor], what="floor", env=env, cwd=work),
        python_pass,
        n,
    ) | {"command": f'python -c "{floor}"', "baseline_command": "python -c pass"}
    for key, args in commands.items():
        row = rows[key]
        if _wants_profile(cfg, f"startup.{key}", row):
            row["profile"] = import_profile(args, env, work)
    log.info("startup: %s", {k: r["ratio"] for k, r in rows.items()})
    return {"startup": rows}


# --- 2: import --------------------------------------------------------------------------------


def bench_import(cfg: Config) -> dict[str, object]:
    """`envgen import environment.yml` vs reading the same file with yaml.safe_load."""
    work = _fresh(cfg.work / "import")
    source = work / "environment.yml"
    shutil.copy(IMPORTED_FILE, source)
    env = _user_env({"ENVGEN_CACHE_DIR": str(work / "cache")})
    args = ["import", "environment.yml", "-o", "imported.yaml"]
    run([tool("envgen"), *args], what="envgen import (warm-up)", env=env, cwd=work)
    load = "import yaml; yaml.safe_load(open('environment.yml', encoding='utf-8'))"
    row = paired(
        lambda _i: measured([tool("envgen"), *args], what="envgen import", env=env, cwd=work),
        lambda _i: measured([sys.executable, "-c", load], what="yaml.safe_load", env=env, cwd=work),
        1 if cfg.quick else 11,
    ) | {"command": "envgen " + " ".join(args), "baseline_command": f'python -c "{load}"'}
    if _wants_profile(cfg, "import.environment_yml", row):
        row["profile"] = import_profile(args, env, work)
    log.info("import: %s", row["ratio"])
    return {"import": {"environment_yml": row}}


# --- 3: locking -------------------------------------------------------------------------------


def _lock_spec(variants: int) -> str:
    accelerators, pythons = LOCK_SHAPES[variants]
    python = (
        f'"{pythons[0]}"' if len(pythons) == 1 else "[" + ", ".join(f'"{p}"' for p in pythons) + "]"
    )
    return (
        f'name: bench\npython: {python}\ntorch: "2.13.0"\ntorchvision: false\n'
        f"torchaudio: false\naccelerators: [{', '.join(accelerators)}]\nplatforms: [linux-64]\n"
        'managers: [pip]\npip: ["numpy>=1.26"]\n'
    )


def bench_lock(cfg: Config) -> dict[str, object]:
    size = fakeindex.QUICK if cfg.quick else fakeindex.FULL
    work = _fresh(cfg.work / "lock")
    start = time.perf_counter()
    index = fakeindex.build_index(work / "index", size)
    log.info("lock: fake index built in %.1f s: %s", time.perf_counter() - start, index.stats)
    rows: dict[str, object] = {}
    with _serve(index.root) as server:
        whl, pypi = f"{server.url}/whl", f"{server.url}/pypi/simple"
        for variants in LOCK_SHAPES:
            rows[f"warm_{variants}"] = _lock_row(cfg, work / f"v{variants}", variants, whl, pypi)
        relock = _relock(cfg, work / "v3", whl, pypi)
    return {"lock": {"index": index.stats, **rows}, "relock": relock}


def _lock_row(cfg: Config, work: Path, variants: int, whl: str, pypi: str) -> dict[str, object]:
    """Warm full lock of `variants` variants vs raw `uv pip compile` once per variant."""
    project = _fresh(work / "proj")
    (project / "project.yaml").write_text(_lock_spec(variants))
    out = project / "environments"
    cache = work / "cache"
    env = _user_env(
        {"ENVGEN_PYTORCH_INDEX": whl, "ENVGEN_PYPI_INDEX": pypi, "ENVGEN_CACHE_DIR": str(cache)}
    )
    accelerators, pythons = LOCK_SHAPES[variants]
    inputs: list[tuple[str, str, Path]] = []
    for acc in accelerators:
        path = work / f"{acc}.in"
        path.write_text(f"torch==2.13.0+{acc}\nnumpy>=1.26\n")
        inputs += [(acc, py, path) for py in pythons]

    def envgen_lock(_i: int) -> Sample:
        shutil.rmtree(out, ignore_errors=True)  # a full lock: no previous pins to start from
        return measured([tool("envgen"), "lock", "project.yaml"], what="envgen lock", env=env,
                        cwd=project)  # fmt: skip

    def uv_step(acc: str, py: str, path: Path) -> Sample:
        target = work / f"uv-{acc}-{py}.txt"
        target.unlink(missing_ok=True)
        # The PyTorch index as the extra (higher-priority) index, and best-match: with uv's
        # default first-index strategy the stale typing-extensions the PyTorch index re-hosts
        # shadows PyPI's and the resolve fails (as on the real indexes).
        return measured(
            [
                tool("uv"), "pip", "compile", "--no-config", "--quiet", "--generate-hashes",
                # An installed interpreter, as envgen gives uv; never a python download.
                "--python", sys.executable, "--no-python-downloads",
                "--python-version", py, "--python-platform", "x86_64-manylinux_2_28",
                "--cache-dir", cache / "uv", "--index-url", pypi,
                "--extra-index-url", f"{whl}/{acc}", "--index-strategy", "unsafe-best-match",
                "--output-file", target, path,
            ],
            what=f"uv pip compile {acc} {py}", env=clean_env(), cwd=work,
        )  # fmt: skip

    def uv_lock(_i: int) -> Sample:
        return _in_turn([lambda a=a, p=p, f=f: uv_step(a, p, f) for a, p, f in inputs])  # type: ignore[misc]

    envgen_lock(-1)  # cold runs, untimed: both tools' caches warm before the pairs
    uv_lock(-1)
    row = paired(envgen_lock, uv_lock, 1 if cfg.quick else 5)
    row |= {
        "command": "envgen lock project.yaml",
        "baseline_command": f"uv pip compile per variant, {len(inputs)} in turn",
        "variants": [f"{a}-py{p}" for a, p, _ in inputs],
    }
    if _wants_profile(cfg, f"lock.warm_{variants}", row):
        shutil.rmtree(out, ignore_errors=True)
        row["profile"] = timeline_profile(["lock", "project.yaml"], env, project)
    log.info("lock %d: %s", variants, row["ratio"])
    return row


def _relock(cfg: Config, work: Path, whl: str, pypi: str) -> dict[str, object]:
    """A no-change `envgen lock` (3 variants), through the CLI and in-process."""
    project = work / "proj"
    env = _user_env(
        {"ENVGEN_PYTORCH_INDEX": whl, "ENVGEN_PYPI_INDEX": pypi,
         "ENVGEN_CACHE_DIR": str(work / "cache")}
    )  # fmt: skip
    run([tool("envgen"), "lock", "project.yaml"], what="envgen lock", env=env, cwd=project)
    reps = 1 if cfg.quick else 5

    def via_cli(_i: int) -> None:
        run([tool("envgen"), "lock", "project.yaml"], what="envgen lock (no change)", env=env,
            cwd=project)  # fmt: skip

    cli = repeat(via_cli, reps)
    from envgen.app import LockOptions, lock  # noqa: PLC0415
    from envgen.infra.settings import Settings  # noqa: PLC0415

    lines: tuple[str, ...] = ()
    with _environ({"ENVGEN_PYTORCH_INDEX": whl, "ENVGEN_PYPI_INDEX": pypi,
                   "ENVGEN_CACHE_DIR": str(work / "cache")}):  # fmt: skip

        def in_process(_i: int) -> None:
            nonlocal lines
            # The benchmark is an edge, as the CLI is: it reads the settings it just set.
            spec = project / "project.yaml"
            lines = lock(LockOptions(spec=spec, settings=Settings.from_process())).lines

        library = repeat(in_process, reps)
    log.info("relock: cli %.3f s, library %.3f s", cli.median, library.median)
    return {"cli": cli.as_json(), "library": library.as_json(), "library_lines": list(lines)}


# --- 4: building with real torch ----------------------------------------------------------


def _torch_index(root: Path) -> Path:
    """`<root>/cpu/torch/` (PEP 503) serving the real wheel (see envgen.infra.mirror)."""
    wheels = root.parent / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    (wheels / REAL_WHEEL.name).symlink_to(REAL_WHEEL)
    build_mirror(wheels, root)
    return root


def _raw_requirements(project: Path, whl: Path, work: Path) -> Path:
    """envgen's hashed lock with its index lines pointed at the local torch index and PyPI."""
    from envgen.lock.piplock import PipLock  # noqa: PLC0415

    text = (project / "environments" / "cpu" / "requirements.txt").read_text()
    pins = "".join(pin.render() for pin in PipLock.parse(text).pins).splitlines()
    path = work / "raw.txt"
    head = [f"--index-url {(whl / 'cpu').as_uri()}", "--extra-index-url https://pypi.org/simple"]
    path.write_text("\n".join([*head, *pins]) + "\n")
    return path


def bench_build(cfg: Config) -> dict[str, object]:
    if cfg.quick:
        return {"build": {"skipped": "quick mode skips real torch"}}
    if not REAL_WHEEL.exists():
        return {"build": {"skipped": f"the real torch wheel is not on this machine ({REAL_WHEEL})"}}
    work = _fresh(cfg.work / "build")
    whl = _torch_index(work / "whl")
    project = work / "proj"
    project.mkdir()
    (project / "project.yaml").write_text(BUILD_SPEC)
    lock_env = _user_env(
        {"ENVGEN_PYTORCH_INDEX": whl.as_uri(), "ENVGEN_CACHE_DIR": str(work / "lock-cache")}
    )
    run([tool("envgen"), "lock", "project.yaml"], what="envgen lock", env=lock_env, cwd=project)
    raw = _raw_requirements(project, whl, work)
    env = _user_env({"ENVGEN_PYTORCH_INDEX": whl.as_uri()})
    envs = _fresh(work / "envs")
    caches = work / "caches"

    def envgen_build(env_dir: Path, cache: Path) -> Sample:
        return measured(
            [tool("envgen"), "build", "project.yaml", "--variant", "cpu", "--no-smoke",
             "--env-dir", env_dir, "--cache-dir", cache],
            what="envgen build", env=env, cwd=project, timeout=1800,
        )  # fmt: skip

    def uv_build(venv: Path, cache: Path) -> Sample:
        """Raw uv on the same lock: `uv venv` + `uv pip sync`, no bytecode (uv's default)."""
        plain = clean_env()
        return _in_turn([
            lambda: measured(
                [tool("uv"), "venv", "--no-config", "--quiet", "--python", sys.executable,
                 "--cache-dir", cache, venv],
                what="uv venv", env=plain, cwd=work,
            ),
            lambda: measured(
                [tool("uv"), "pip", "sync", "--no-config", "--quiet", "--python",
                 venv / "bin" / "python", "--index-strategy", "unsafe-best-match",
                 "--cache-dir", cache, raw],
                what="uv pip sync", env=plain, cwd=work, timeout=1800,
            ),
        ])  # fmt: skip

    waits: list[float] = []
    flushes: list[float] = []
    envgen_done: list[int] = []

    def quiet_disk(_side: str, _i: int) -> None:
        """Before each timed cold run (untimed): envgen's background bytecode job from its last
        run finished, then `sync` and the kernel's writeback drained, so that neither side pays
        for the writes of the runs before it (issue 27: the 09:02 run's slow cold builds)."""
        for j in envgen_done:
            started = time.perf_counter()
            if not wait_for_store(store_folder(caches / f"envgen-{j}", BUILD_TAG)):
                msg = f"the bytecode job on {caches / f'envgen-{j}'} did not finish"
                raise RuntimeError(msg)
            waits.append(round(time.perf_counter() - started, 2))
        envgen_done.clear()
        flushes.append(round(settle_writeback(), 2))

    def cold_envgen(i: int) -> Sample:
        sample = envgen_build(envs / f"cold-envgen-{i}", caches / f"envgen-{i}")
        envgen_done.append(i)
        return sample

    def drop(i: int) -> None:
        """After a cold pair (untimed): drop both cold envs, and both caches but the last."""
        quiet_disk("", i)  # the bytecode job done before its env and cache go
        shutil.rmtree(envs / f"cold-envgen-{i}", ignore_errors=True)
        shutil.rmtree(envs / f"cold-uv-{i}", ignore_errors=True)
        if i < cold_n - 1:
            shutil.rmtree(caches / f"envgen-{i}", ignore_errors=True)
            shutil.rmtree(caches / f"uv-{i}", ignore_errors=True)

    cold_n = max(2, min(cfg.reps, 3))
    cold = paired(
        cold_envgen,
        lambda i: uv_build(envs / f"cold-uv-{i}" / "cpu", caches / f"uv-{i}"),
        cold_n,
        between=drop,
        before=quiet_disk,
        swap=True,
    ) | {"bytecode_background_s": waits, "writeback_s": flushes}
    envgen_cache, uv_cache = caches / f"envgen-{cold_n - 1}", caches / f"uv-{cold_n - 1}"
    warm = paired(
        lambda i: envgen_build(envs / f"warm-envgen-{i}", envgen_cache),
        lambda i: uv_build(envs / f"warm-uv-{i}" / "cpu", uv_cache),
        5,
    )
    for row, key in ((warm, "warm"), (cold, "cold")):
        row |= {
            "command": "envgen build project.yaml --variant cpu --no-smoke",
            "baseline_command": "uv venv + uv pip sync (same lock)",
        }
        if _wants_profile(cfg, f"build.{key}", row):
            target = envs / f"profile-{key}"
            cache = envgen_cache if key == "warm" else caches / "profile-cold"
            row["profile"] = timeline_profile(
                ["build", "project.yaml", "--variant", "cpu", "--no-smoke", "--env-dir",
                 str(target), "--cache-dir", str(cache)],
                env, project,
            )  # fmt: skip
            if key == "cold":
                wait_for_store(store_folder(cache, BUILD_TAG))
    smoke = _bench_smoke(cfg, project, envs / "warm-envgen-0", envgen_cache)
    disk: dict[str, float] = {
        "envs_1": disk_bytes([envs / "warm-envgen-0"]),
        "envs_3": disk_bytes([envs / f"warm-envgen-{i}" for i in range(3)]),
    }
    disk["ratio_3_over_1"] = round(disk["envs_3"] / disk["envs_1"], 3)
    log.info("build: warm %s, cold %s, smoke %s", warm["ratio"], cold["ratio"], smoke["ratio"])
    shutil.rmtree(envs, ignore_errors=True)
    return {"build": {"wheel": REAL_WHEEL.name, "warm": warm, "cold": cold, "smoke": smoke,
                      "disk": disk}}  # fmt: skip


def _bench_smoke(cfg: Config, project: Path, env_dir: Path, cache: Path) -> dict[str, object]:
    """`envgen smoke` vs the one-line import + matmul, in the same env, alternating."""
    env = _user_env({"ENVGEN_CACHE_DIR": str(cache)})
    python = env_dir / "cpu" / "bin" / "python"
    args = ["smoke", "project.yaml", "--variant", "cpu", "--env-dir", str(env_dir)]
    run([python, "-c", SMOKE_ONE_LINE], what="warm-up import", env=env, cwd=project)
    row = paired(
        lambda _i: measured([tool("envgen"), *args], what="envgen smoke", env=env, cwd=project),
        lambda _i: measured([python, "-c", SMOKE_ONE_LINE], what="one-liner", env=env, cwd=project),
        5,
    ) | {
        "command": "envgen " + " ".join(args[:4]),
        "baseline_command": f'python -c "{SMOKE_ONE_LINE}"',
    }
    if _wants_profile(cfg, "build.smoke", row):
        row["profile"] = timeline_profile(args, env, project)
    return row


# --- 5: matrix work ---------------------------------------------------------------------------


def bench_matrix(cfg: Config) -> dict[str, object]:
    from envgen.errors import EnvgenError  # noqa: PLC0415
    from envgen.infra.settings import Settings  # noqa: PLC0415
    from envgen.model.matrix import _load_matrix_cached, load_matrix  # noqa: PLC0415
    from envgen.model.spec import parse_spec  # noqa: PLC0415
    from envgen.model.variants import expand  # noqa: PLC0415
    from envgen.render.indexes import IndexUrls  # noqa: PLC0415
    from envgen.render.plan import plan_pins_only  # noqa: PLC0415

    work = _fresh(cfg.work / "matrix")
    out = work / "environments"
    cache_root = Settings.from_process().cache_root  # the parsed-matrix cache, as the CLI has it
    counts = {"releases": 0, "variants": 0, "files": 0, "errors": 0, "specs": 0}

    def everything(_i: int) -> None:
        matrix = load_matrix(None, cache_root=cache_root)
        counts.update(releases=0, variants=0, files=0, errors=0, specs=0)
        for release in matrix.releases:
            python = release.python[-1]
            published = {
                "pip": matrix.pip_builds(release.torch),
                "conda": matrix.conda_builds(release.torch),
            }
            # "all" accelerators, one spec per manager and platform: each spec is valid.
            for manager, builds in published.items():
                for plat in sorted({p for b in builds for p in b.platforms}):
                    text = (
                        f'name: all-{release.torch}\npython: "{python}"\n'
                        f'torch: "{release.torch}"\naccelerators: all\n'
                        f"platforms: [{plat}]\nmanagers: [{manager}]\n"
                    )
                    spec = parse_spec(text, path=work / "project.yaml")
                    try:
                        expansion = expand(spec, matrix)
                        _, files = plan_pins_only(
                            spec, matrix, out=out, urls=IndexUrls(), custom_command=None
                        )
                    except EnvgenError:
                        counts["errors"] += 1
                        continue
                    counts["specs"] += 1
                    counts["variants"] += len(expansion.variants)
                    counts["files"] += len(files)
            counts["releases"] += 1

    with_load = repeat(everything, cfg.reps, before=lambda _i: _load_matrix_cached.cache_clear())
    log.info("matrix: %s in %.3f s with the matrix load", counts, with_load.median)
    return {"matrix": {**counts, "with_matrix_load": with_load.as_json()}}


# --- the command line -------------------------------------------------------------------------

SECTIONS: Final = {
    "startup": bench_startup,
    "import": bench_import,
    "lock": bench_lock,
    "build": bench_build,
    "matrix": bench_matrix,
}


def _wants_profile(cfg: Config, key: str, row: dict[str, object]) -> bool:
    """A full run profiles each row that misses its target (quick mode: none)."""
    return not cfg.quick and not _met(key, row)


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, fewest pairs, no real torch"
    )
    parser.add_argument("--reps", type=int, default=None, help="cold builds (default 3; quick 1)")
    parser.add_argument(
        "--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})"
    )
    parser.add_argument(
        "--doc",
        type=Path,
        default=None,
        help=f"the Markdown page whose results section is rewritten (full run default: {DOC})",
    )
    parser.add_argument("--only", action="append", choices=sorted(SECTIONS), help="run only these")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    reps = args.reps or (1 if args.quick else 3)
    work = Path(tempfile.mkdtemp(prefix="envgen-bench-"))
    cfg = Config(quick=args.quick, reps=reps, work=work, sections=tuple(args.only or SECTIONS))
    started = time.perf_counter()
    data: dict[str, object] = {
        "format": 2,
        "mode": "quick" if args.quick else "full",
        "reps": reps,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine(),
        "load_before": _load(),
        "sections": list(cfg.sections),
    }
    try:
        for name in cfg.sections:
            data |= SECTIONS[name](cfg)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    data["load_after"] = _load()
    data["total_s"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    log.info("wrote %s in %.0f s", args.out, data["total_s"])
    doc = args.doc or (None if args.quick or args.only else DOC)
    if doc is not None:
        update_doc(doc, data)
        log.info("rewrote the results section of %s", doc)
    return 0
