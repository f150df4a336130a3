"""The benchmark sections and the command line (`python -m benchmarks [--quick]`).

Sections, each timing envgen and the alternative in the same run (see docs/benchmarks.md):

1. `lock`: three variants against a loopback PyTorch-style index; envgen vs pip-compile and
   `uv pip compile` per variant; cold and warm caches.
2. `relock`: a no-change `envgen lock` vs a full one.
3. `build`: an environment with the real torch 2.13.0+cpu wheel; `envgen build` vs
   `python -m venv` + `pip install -r` and raw `uv venv` + `uv pip sync`; cold and warm caches,
   then more envs on one cache; `envgen smoke` vs a one-line import + matmul in one env.
4. `disk`: bytes on disk for 1, 2 and 3 built environments (hard links counted once).
5. `matrix`: every release x every accelerator expanded and rendered.

Writes the raw numbers as JSON (default benchmarks/results/latest.json). This module must not
assert timings; it reports them.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import logging
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from benchmarks import fakeindex
from benchmarks.measure import Timing, clean_env, disk_bytes, machine, ratio, repeat, run, tool
from envgen.build.bytecode import store_folder, wait_for_store
from envgen.infra.mirror import build_mirror
from tests.support import server as _server
from tests.support.server import IndexServer

log = logging.getLogger("benchmarks")

RESULTS: Final = Path(__file__).parent / "results" / "latest.json"
REAL_WHEEL: Final = Path("/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
ACCELERATORS: Final = ("cpu", "cu126", "cu130")
LOCK_SPEC: Final = """\
name: bench
python: "3.11"
torch: "2.13.0"
torchvision: false
torchaudio: false
accelerators: [cpu, cu126, cu130]
platforms: [linux-64]
managers: [pip]
pip: ["numpy>=1.26"]
"""
BUILD_SPEC: Final = """\
name: bench
python: "3.11"
torch: "2.13.0"
torchvision: false
torchaudio: false
accelerators: [cpu]
managers: [pip]
"""
PYPI_SIMPLE: Final = "https://pypi.org/simple"
BUILD_TAG: Final = "cpython-311"  # the bytecode store's folder for BUILD_SPEC's python
SMOKE_ONE_LINE: Final = "import torch; torch.ones(64, 64) @ torch.ones(64, 64)"


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
    """The loopback index server, answering without Nagle's 40 ms delayed-ACK stall.

    tests.support.server writes headers and body in separate sends; with Nagle on, every
    keep-alive response waits ~40 ms for the client's delayed ACK, which made pip-compile (one
    request at a time) look 4x slower than it is. Real indexes do not add that stall.
    """
    _server._Handler.disable_nagle_algorithm = True
    return IndexServer(root)


def _pins(text: str) -> int:
    return sum(1 for line in text.splitlines() if "==" in line and not line[:1].isspace())


# --- 1 + 2: locking ---------------------------------------------------------------------------


def bench_lock(cfg: Config) -> dict[str, object]:
    size = fakeindex.QUICK if cfg.quick else fakeindex.FULL
    work = _fresh(cfg.work / "lock")
    start = time.perf_counter()
    index = fakeindex.build_index(work / "index", size)
    log.info("lock: fake index built in %.1f s: %s", time.perf_counter() - start, index.stats)
    with _serve(index.root) as server:
        whl, pypi = f"{server.url}/whl", f"{server.url}/pypi/simple"
        project = work / "proj"
        project.mkdir()
        spec = project / "project.yaml"
        spec.write_text(LOCK_SPEC)
        out = project / "environments"
        reqs = {}
        for acc in ACCELERATORS:
            reqs[acc] = work / f"{acc}.in"
            reqs[acc].write_text(f"torch==2.13.0+{acc}\nnumpy>=1.26\n")

        def envgen_env(cache: Path) -> dict[str, str]:
            return clean_env(
                {
                    "ENVGEN_PYTORCH_INDEX": whl,
                    "ENVGEN_PYPI_INDEX": pypi,
                    "ENVGEN_CACHE_DIR": str(cache),
                    "CI": "1",
                }
            )

        def envgen_lock(cache: Path) -> None:
            shutil.rmtree(out, ignore_errors=True)  # a full lock: no previous pins to start from
            run(
                [tool("envgen"), "lock", spec],
                what="envgen lock",
                env=envgen_env(cache),
                cwd=project,
            )

        pip_outputs: dict[str, Path] = {}

        def pip_compile(cache: Path) -> None:
            env = clean_env({"PIP_CONFIG_FILE": os.devnull, "PIP_CACHE_DIR": str(cache / "pip")})
            for acc in ACCELERATORS:
                target = work / f"pip-compile-{acc}.txt"
                target.unlink(missing_ok=True)  # a fresh lock, as envgen's
                run(
                    [
                        tool("pip-compile"), "--generate-hashes", "--quiet",
                        "--cache-dir", cache / "pip-tools",
                        "--index-url", f"{whl}/{acc}", "--extra-index-url", pypi,
                        "--output-file", target, reqs[acc],
                    ],
                    what=f"pip-compile {acc}", env=env, cwd=work,
                )  # fmt: skip
                pip_outputs[acc] = target

        uv_outputs: dict[str, Path] = {}

        def uv_compile(cache: Path) -> None:
            for acc in ACCELERATORS:
                target = work / f"uv-{acc}.txt"
                target.unlink(missing_ok=True)
                # The PyTorch index as the extra (higher-priority) index, and best-match: with
                # uv's default first-index strategy the stale typing-extensions the PyTorch index
                # re-hosts shadows PyPI's and the resolve fails (as on the real indexes).
                run(
                    [
                        tool("uv"), "pip", "compile", "--no-config", "--quiet", "--generate-hashes",
                        "--python-version", "3.11", "--python-platform", "x86_64-manylinux_2_28",
                        "--cache-dir", cache / "uv",
                        "--index-url", pypi, "--extra-index-url", f"{whl}/{acc}",
                        "--index-strategy", "unsafe-best-match",
                        "--output-file", target, reqs[acc],
                    ],
                    what=f"uv pip compile {acc}", env=clean_env(), cwd=work,
                )  # fmt: skip
                uv_outputs[acc] = target

        results: dict[str, object] = {"index": index.stats, "variants": list(ACCELERATORS)}
        tools = {"envgen": envgen_lock, "pip_compile": pip_compile, "uv_pip_compile": uv_compile}
        timings: dict[str, dict[str, Timing]] = {}
        for name, fn in tools.items():
            caches = work / "caches" / name
            # Cold: a fresh cache directory before every repetition.
            cold = repeat(
                lambda i, fn=fn, caches=caches: fn(caches / f"cold-{i}"),
                cfg.reps,
                before=lambda i, caches=caches: shutil.rmtree(caches / f"cold-{i}", True),  # type: ignore[misc]
            )
            # Warm: the last cold run's cache (already filled), reused by every repetition.
            warm_cache = caches / f"cold-{cfg.reps - 1}"
            warm = repeat(lambda _i, fn=fn, c=warm_cache: fn(c), cfg.reps)
            timings[name] = {"cold": cold, "warm": warm}
            log.info("lock: %s cold %.2f s, warm %.2f s", name, cold.median, warm.median)

        pins = {
            "envgen": {a: _pins((out / a / "requirements.txt").read_text()) for a in ACCELERATORS},
            "pip_compile": {a: _pins(p.read_text()) for a, p in pip_outputs.items()},
            "uv_pip_compile": {a: _pins(p.read_text()) for a, p in uv_outputs.items()},
        }
        results["pinned_packages"] = pins
        results["timings"] = {t: {k: v.as_json() for k, v in d.items()} for t, d in timings.items()}
        results["ratios"] = {
            f"{other}_over_envgen_{state}": ratio(
                timings[other][state].median, timings["envgen"][state].median
            )
            for other in ("pip_compile", "uv_pip_compile")
            for state in ("cold", "warm")
        }

        # 2: a no-change re-lock, through the CLI and in-process, vs the warm full lock.
        warm_cache = work / "caches" / "envgen" / f"cold-{cfg.reps - 1}"
        envgen_lock(warm_cache)
        cli = repeat(
            lambda _i: run(
                [tool("envgen"), "lock", spec], what="envgen lock (no change)",
                env=envgen_env(warm_cache), cwd=project,
            ),
            max(cfg.reps, 3),
        )  # fmt: skip
        from envgen.app import LockOptions, lock  # noqa: PLC0415
        from envgen.infra.settings import Settings  # noqa: PLC0415

        with _environ({"ENVGEN_PYTORCH_INDEX": whl, "ENVGEN_PYPI_INDEX": pypi}):
            lines: tuple[str, ...] = ()

            def in_process(_i: int) -> None:
                nonlocal lines
                # The benchmark is an edge, as the CLI is: it reads the settings it just set.
                lines = lock(LockOptions(spec=spec, settings=Settings.from_process())).lines

            library = repeat(in_process, max(cfg.reps, 3))
        full = timings["envgen"]["warm"]
        relock = {
            "cli": cli.as_json(),
            "library": library.as_json(),
            "full_lock_warm": full.as_json(),
            "library_lines": list(lines),
            "ratios": {
                "full_over_relock_cli": ratio(full.median, cli.median),
                "full_over_relock_library": ratio(full.median, library.median),
            },
        }
        log.info("relock: cli %.3f s, library %.3f s", cli.median, library.median)
    return {"lock": results, "relock": relock}


# --- 3 + 4: building with real torch ----------------------------------------------------------


def _torch_index(root: Path) -> Path:
    """`<root>/cpu/torch/` (PEP 503) serving the real wheel (see envgen.infra.mirror)."""
    wheels = root.parent / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    (wheels / REAL_WHEEL.name).symlink_to(REAL_WHEEL)
    build_mirror(wheels, root)
    return root


def _uv_sync(requirements: Path, venv: Path, cache: Path) -> None:
    """Raw uv on the same lock: `uv venv` + `uv pip sync`, no bytecode (uv's default)."""
    env = clean_env()
    run(
        [tool("uv"), "venv", "--no-config", "--quiet", "--python", sys.executable,
         "--cache-dir", cache, venv],
        what="uv venv", env=env,
    )  # fmt: skip
    run(
        [tool("uv"), "pip", "sync", "--no-config", "--quiet", "--python", venv / "bin" / "python",
         "--index-strategy", "unsafe-best-match", "--cache-dir", cache, requirements],
        what="uv pip sync", env=env, timeout=1800,
    )  # fmt: skip


def _bench_smoke(project: Path, env_dir: Path, cache: Path, reps: int) -> dict[str, object]:
    """`envgen smoke` vs the one-line import + matmul, in the same env, alternating."""
    env = clean_env({"ENVGEN_CACHE_DIR": str(cache), "CI": "1"})
    python = env_dir / "cpu" / "bin" / "python"
    commands = {
        "envgen": [tool("envgen"), "smoke", "project.yaml", "--variant", "cpu",
                   "--env-dir", env_dir],
        "one_line": [python, "-c", SMOKE_ONE_LINE],
    }  # fmt: skip
    run(commands["one_line"], what="warm-up import", env=env, cwd=project)
    runs: dict[str, list[float]] = {key: [] for key in commands}
    for _ in range(max(reps, 5)):
        for key, args in commands.items():
            start = time.perf_counter()
            run(args, what=f"smoke {key}", env=env, cwd=project)
            runs[key].append(time.perf_counter() - start)
    timings = {key: Timing(runs=tuple(r)) for key, r in runs.items()}
    log.info("smoke: %s", {k: round(t.median, 3) for k, t in timings.items()})
    return {key: t.as_json() for key, t in timings.items()} | {
        "envgen_over_one_line": ratio(timings["envgen"].median, timings["one_line"].median)
    }


def _disk_of(root: Path, cache: Path) -> dict[str, int]:
    """Allocated bytes of 1, 2 and 3 environments (the third: the other spec) and the cache."""
    three = [root / "warm-0", root / "warm-1", root / "other"]
    return {
        "envs_1": disk_bytes(three[:1]),
        "envs_2": disk_bytes(three[:2]),
        "envs_3": disk_bytes(three),
        "cache": disk_bytes([cache]),
        "envs_3_plus_cache": disk_bytes([*three, cache]),
    }


def _build_ratios(timings: dict[str, dict[str, Timing]]) -> dict[str, float]:
    states = ("cold", "warm", "other_variant_warm")
    return {
        f"pip_over_envgen_{state}": ratio(
            timings["pip"][state].median, timings["envgen"][state].median
        )
        for state in states
    } | {
        f"envgen_over_uv_{state}": ratio(
            timings["envgen"][state].median, timings["uv"][state].median
        )
        for state in states
    }


def bench_build(cfg: Config) -> dict[str, object]:  # noqa: PLR0915 - the steps in order
    if cfg.quick:
        return {"build": {"skipped": "quick mode skips real torch"}}
    if not REAL_WHEEL.exists():
        return {"build": {"skipped": f"the real torch wheel is not on this machine ({REAL_WHEEL})"}}
    work = _fresh(cfg.work / "build")
    whl = _torch_index(work / "whl")
    lock_cache = work / "lock-cache"
    projects: dict[str, Path] = {}
    for name, extra in (("a", ""), ("b", 'pip: ["six"]\n')):
        project = work / f"proj-{name}"
        project.mkdir()
        (project / "project.yaml").write_text(BUILD_SPEC + extra)
        env = clean_env(
            {"ENVGEN_PYTORCH_INDEX": whl.as_uri(), "ENVGEN_CACHE_DIR": str(lock_cache), "CI": "1"}
        )
        run(
            [tool("envgen"), "lock", "project.yaml"],
            what=f"envgen lock {name}",
            env=env,
            cwd=project,
        )
        projects[name] = project

    def requirements_for_pip(name: str) -> Path:
        """envgen's lock body with its index lines pointed at the local torch index."""
        from envgen.lock.piplock import PipLock  # noqa: PLC0415

        text = (projects[name] / "environments" / "cpu" / "requirements.txt").read_text()
        lock = PipLock.parse(text)
        pins = "".join(pin.render() for pin in lock.pins).splitlines()
        path = work / f"pip-{name}.txt"
        head = [f"--index-url {(whl / 'cpu').as_uri()}", f"--extra-index-url {PYPI_SIMPLE}"]
        path.write_text("\n".join([*head, *pins]) + "\n")
        return path

    pip_reqs = {n: requirements_for_pip(n) for n in projects}
    envs = _fresh(work / "envs")

    def envgen_build(name: str, env_dir: Path, cache: Path) -> None:
        project = projects[name]
        run(
            [
                tool("envgen"), "build", "project.yaml", "--variant", "cpu", "--no-smoke",
                "--env-dir", env_dir, "--cache-dir", cache,
            ],
            what="envgen build",
            env=clean_env({"ENVGEN_PYTORCH_INDEX": whl.as_uri(), "CI": "1"}),
            cwd=project, timeout=1800,
        )  # fmt: skip

    def pip_build(name: str, env_dir: Path, cache: Path) -> None:
        run([sys.executable, "-m", "venv", env_dir / "cpu"], what="python -m venv", env=clean_env())
        env = clean_env(
            {"PIP_CONFIG_FILE": os.devnull, "PIP_CACHE_DIR": str(cache)},
            keep=("PIP_CERT", "PIP_DEFAULT_TIMEOUT"),  # how this machine reaches PyPI
        )
        env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
        run(
            [env_dir / "cpu" / "bin" / "python", "-m", "pip", "install", "-q", "-r",
             pip_reqs[name]],
            what="pip install", env=env, timeout=1800,
        )  # fmt: skip

    def uv_build(name: str, env_dir: Path, cache: Path) -> None:
        _uv_sync(pip_reqs[name], env_dir / "cpu", cache)

    store_waits: list[float] = []

    def settle(cache: Path) -> None:
        """Wait (untimed) for envgen's background bytecode job on `cache`; record how long."""
        start = time.perf_counter()
        if not wait_for_store(store_folder(cache, BUILD_TAG)):
            msg = f"the bytecode job on {cache} did not finish"
            raise RuntimeError(msg)
        store_waits.append(time.perf_counter() - start)

    results: dict[str, object] = {"wheel": REAL_WHEEL.name}
    timings: dict[str, dict[str, Timing]] = {}
    disk: dict[str, dict[str, int]] = {}
    for name, fn in (("envgen", envgen_build), ("uv", uv_build), ("pip", pip_build)):
        root = envs / name
        caches = work / "caches" / name
        after = None
        if name == "envgen":
            # The cold build returns once the env is usable; its store fills in the background.
            # The next step waits for it, so warm builds find bytecode ready (as the target says)
            # and no job overlaps the next measurement.
            def after(i: int, caches: Path = caches) -> None:
                settle(caches / f"cold-{i}")

        def cold_body(i: int, fn: object = fn, root: Path = root, caches: Path = caches) -> None:
            fn(name="a", env_dir=root / f"cold-{i}", cache=caches / f"cold-{i}")  # type: ignore[operator]

        def cold_before(i: int, root: Path = root, caches: Path = caches) -> None:
            if i > 0:  # keep disk free: drop the previous cold env and its cache
                shutil.rmtree(root / f"cold-{i - 1}", ignore_errors=True)
                shutil.rmtree(caches / f"cold-{i - 1}", ignore_errors=True)

        cold = repeat(cold_body, cfg.reps, before=cold_before, after=after)
        cache = caches / f"cold-{cfg.reps - 1}"
        shutil.rmtree(root / f"cold-{cfg.reps - 1}", ignore_errors=True)
        # Warm: the same lock into new env dirs on the filled cache; the last extra env is the
        # other spec (torch + six), the "third variant".
        warm = repeat(
            lambda i, fn=fn, root=root, cache=cache: fn(
                name="a", env_dir=root / f"warm-{i}", cache=cache
            ),  # type: ignore[misc]
            cfg.reps,
        )
        start = time.perf_counter()
        fn(name="b", env_dir=root / "other", cache=cache)  # type: ignore[operator]
        other = Timing(runs=(time.perf_counter() - start,))
        timings[name] = {"cold": cold, "warm": warm, "other_variant_warm": other}
        if name == "envgen":
            results["smoke"] = _bench_smoke(projects["a"], root / "warm-0", cache, cfg.reps)
        disk[name] = _disk_of(root, cache)
        log.info(
            "build: %s cold %.2f s, warm %.2f s; disk %s",
            name,
            cold.median,
            warm.median,
            disk[name],
        )
    results["bytecode_background_s"] = [round(s, 2) for s in store_waits]
    results["timings"] = {t: {k: v.as_json() for k, v in d.items()} for t, d in timings.items()}
    results["ratios"] = _build_ratios(timings)
    disk_out: dict[str, object] = dict(disk)
    disk_out["ratios"] = {
        f"{name}_3_over_1": round(d["envs_3"] / d["envs_1"], 3) for name, d in disk.items()
    } | {"pip_3_over_envgen_3": round(disk["pip"]["envs_3"] / disk["envgen"]["envs_3"], 2)}
    shutil.rmtree(envs, ignore_errors=True)
    return {"build": results, "disk": disk_out}


# --- 5: matrix work ---------------------------------------------------------------------------


def bench_matrix(cfg: Config) -> dict[str, object]:
    from envgen.errors import EnvgenError  # noqa: PLC0415
    from envgen.infra.settings import Settings  # noqa: PLC0415
    from envgen.model.matrix import _load_matrix_cached, load_matrix  # noqa: PLC0415
    from envgen.model.spec import parse_spec  # noqa: PLC0415
    from envgen.model.variants import expand  # noqa: PLC0415
    from envgen.render.base import IndexUrls  # noqa: PLC0415
    from envgen.render.plan import plan_pins_only  # noqa: PLC0415

    work = _fresh(cfg.work / "matrix")
    out = work / "environments"
    first_error: dict[str, str] = {}
    cache_root = Settings.from_process().cache_root  # the parsed-matrix cache, as the CLI has it
    counts = {"releases": 0, "variants": 0, "files": 0, "no_builds": 0, "errors": 0, "specs": 0}

    def everything(_i: int) -> None:
        matrix = load_matrix(None, cache_root=cache_root)
        counts.update(releases=0, variants=0, files=0, no_builds=0, errors=0, specs=0)
        for release in matrix.releases:
            python = release.python[-1]
            published = {
                "pip": matrix.pip_builds(release.torch),
                "conda": matrix.conda_builds(release.torch),
            }
            if not any(published.values()):
                counts["no_builds"] += 1
                continue
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
                    except EnvgenError as exc:
                        counts["errors"] += 1
                        first_error.setdefault("message", str(exc).splitlines()[-1])
                        continue
                    counts["specs"] += 1
                    counts["variants"] += len(expansion.variants)
                    counts["files"] += len(files)
            counts["releases"] += 1

    _load_matrix_cached.cache_clear()
    cold = repeat(everything, 1, before=lambda _i: _load_matrix_cached.cache_clear())
    with_load = repeat(everything, cfg.reps, before=lambda _i: _load_matrix_cached.cache_clear())
    warm = repeat(everything, cfg.reps)
    log.info("matrix: %s in %.3f s (with load %.3f s)", counts, warm.median, with_load.median)
    return {
        "matrix": {
            **counts,
            "first_error": first_error.get("message"),
            "first_call": cold.as_json(),
            "with_matrix_load": with_load.as_json(),
            "matrix_cached": warm.as_json(),
        }
    }


# --- 6: start-up -----------------------------------------------------------------------------


def bench_startup(cfg: Config) -> dict[str, object]:
    """Spec-reading commands as a user runs them (a new process, matrix cache warm), beside the
    floor of any Python CLI: the interpreter, and the interpreter importing click."""
    work = _fresh(cfg.work / "startup")
    (work / "project.yaml").write_text(LOCK_SPEC)
    env = clean_env({"ENVGEN_CACHE_DIR": str(work / "cache"), "CI": "1"})
    # As in a user's shell: Python keeps the bytecode it compiles. With PYTHONDONTWRITEBYTECODE
    # (set on the machines these benchmarks ran on) an editable install recompiles envgen's own
    # modules on every run (~50-90 ms), which an installed envgen never does.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    python = sys.executable
    commands = {
        "envgen_list": [tool("envgen"), "list", "project.yaml"],
        "envgen_lock_pins_only": [tool("envgen"), "lock", "--pins-only", "project.yaml"],
        # After the lock above: the files it checks are there.
        "envgen_check_pins_only": [tool("envgen"), "check", "--pins-only", "project.yaml"],
        "envgen_help": [tool("envgen"), "--help"],
        "python_pass": [python, "-c", "pass"],
        "python_import_click": [python, "-c", "import click"],
        "uv_version": [tool("uv"), "--version"],
    }
    run(commands["envgen_list"], what="envgen list (fills the matrix cache)", env=env, cwd=work)
    reps = max(cfg.reps, 3 if cfg.quick else 11)
    timings = {
        key: repeat(lambda _i, a=args, k=key: run(a, what=k, env=env, cwd=work), reps)  # type: ignore[misc]
        for key, args in commands.items()
    }
    log.info("startup: %s", {k: round(t.median, 3) for k, t in timings.items()})
    return {"startup": {key: t.as_json() for key, t in timings.items()}}


# --- the command line -------------------------------------------------------------------------

SECTIONS: Final = {
    "startup": bench_startup,
    "lock": bench_lock,
    "build": bench_build,
    "matrix": bench_matrix,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, 1 repetition, no real torch"
    )
    parser.add_argument("--reps", type=int, default=None, help="repetitions (default 3; quick 1)")
    parser.add_argument(
        "--out", type=Path, default=RESULTS, help=f"JSON results (default {RESULTS})"
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
        "format": 1,
        "mode": "quick" if args.quick else "full",
        "reps": reps,
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine(),
    }
    try:
        for name in cfg.sections:
            data |= SECTIONS[name](cfg)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    data["targets"] = targets(data)
    data["total_s"] = round(time.perf_counter() - started, 1)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    log.info("wrote %s in %.0f s", args.out, data["total_s"])
    for key, value in data["targets"].items():  # type: ignore[attr-defined]
        print(f"{key}: {value}")
    return 0


def targets(data: dict[str, object]) -> dict[str, dict[str, object]]:
    """Issue 6's targets, each with the measured value and whether it is met (None: not run)."""

    def get(*path: str) -> object:
        node: object = data
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node

    def entry(value: object, goal: str, met: bool | None) -> dict[str, object]:
        return {"value": value, "goal": goal, "met": met}

    warm_lock = get("lock", "ratios", "pip_compile_over_envgen_warm")
    relock = get("relock", "cli", "median_s")
    relock_lib = get("relock", "library", "median_s")
    build = get("build", "ratios", "pip_over_envgen_warm")
    warm_uv = get("build", "ratios", "envgen_over_uv_warm")
    cold_uv = get("build", "ratios", "envgen_over_uv_cold")
    smoke = get("build", "smoke", "envgen_over_one_line")
    disk = get("disk", "ratios", "envgen_3_over_1")
    matrix = get("matrix", "with_matrix_load", "median_s")
    num = (int, float)
    return {
        "lock_warm_vs_pip_compile": entry(
            warm_lock, ">= 10x", warm_lock >= 10 if isinstance(warm_lock, num) else None
        ),
        "relock_no_change_cli_s": entry(
            relock, "< 0.5 s", relock < 0.5 if isinstance(relock, num) else None
        ),
        "relock_no_change_library_s": entry(
            relock_lib, "< 0.5 s", relock_lib < 0.5 if isinstance(relock_lib, num) else None
        ),
        "build_warm_vs_pip": entry(
            build, ">= 20x", build >= 20 if isinstance(build, num) else None
        ),
        "build_warm_vs_uv": entry(
            warm_uv, "<= 1.3x", warm_uv <= 1.3 if isinstance(warm_uv, num) else None
        ),
        "build_cold_vs_uv": entry(
            cold_uv, "<= 2x", cold_uv <= 2 if isinstance(cold_uv, num) else None
        ),
        "smoke_vs_one_line": entry(
            smoke, "<= 1.2x", smoke <= 1.2 if isinstance(smoke, num) else None
        ),
        "disk_3_envs_over_1": entry(
            disk, "<= 1.2x", disk <= 1.2 if isinstance(disk, num) else None
        ),
        "matrix_all_s": entry(matrix, "< 1 s", matrix < 1 if isinstance(matrix, num) else None),
    }
