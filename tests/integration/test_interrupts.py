"""Kill `envgen lock` and `envgen build` (SIGINT, SIGKILL) mid-run; nothing is left half-done.

Each run is a real `python -m envgen` subprocess against the loopback index, slowed by a
`faulty_server` delay so the kill lands while the resolver or the installer is working. After
the kill every lock file is either the old bytes or a complete new file (its content-hash
matches: `tampered_lines(text) == []`), an environment carries the `envgen-build.json` marker
only when it is complete, and the next run succeeds with no manual cleanup. Two runs at once on
one project: the second gets ConcurrentRunError (exit 13) naming the first one's pid.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess  # noqa: TID251 - tests run envgen and mount as real processes
import sys
import time
from pathlib import Path
from typing import Final

import pytest

from envgen.build.orchestrate import MARKER, read_marker
from envgen.infra.files import COMMIT_JOURNAL
from envgen.lock.lockfile import tampered_lines
from tests.support.fixtures import ServerFactory, clean_tool_env, user_key

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
SPEC: Final = (
    'name: kill\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)
CHANGED: Final = SPEC.replace("numpy<2", "numpy>=2")
ROOT: Final = Path(__file__).parents[2]


def start(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "envgen", *args],
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group: SIGINT goes to it as Ctrl-C would
    )


def run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    proc = start(args, env, cwd)
    out, _ = proc.communicate(timeout=120)
    return proc.returncode, out


def kill_after(proc: subprocess.Popen[str], delay: float, sig: signal.Signals) -> str:
    time.sleep(delay)
    if sig == signal.SIGINT:
        os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C reaches the whole group
    else:
        proc.send_signal(sig)  # the OOM killer hits envgen alone; its children live on
    try:
        out, _ = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)  # orphans (uv) of a SIGKILLed envgen
    assert "Traceback" not in out, out
    return out


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def setup(tmp_path: Path, faulty_server: ServerFactory) -> tuple[Path, dict[str, str], object]:
    server = faulty_server()
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_PYTORCH_INDEX=f"{server.url}/whl",
        ENVGEN_PYPI_INDEX=f"{server.url}/pypi/simple",
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        PYTHONPATH=str(ROOT),
    )
    code, out = run(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    return proj, env, server


POINTS: Final = [
    (signal.SIGINT, 0.4),
    (signal.SIGINT, 1.5),
    (signal.SIGKILL, 1.5),
    (signal.SIGKILL, 3.2),
]


@pytest.mark.parametrize(("sig", "delay"), POINTS, ids=[f"{s.name}-{d}s" for s, d in POINTS])
@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_kill_lock(
    sig: signal.Signals, delay: float, setup: tuple[Path, dict[str, str], object]
) -> None:
    proj, env, server = setup
    out_dir = proj / "environments"
    old = {p.relative_to(out_dir): digest(p) for p in out_dir.rglob("*") if p.is_file()}
    server.add_fault("/pypi/simple/numpy/*", delay=1.0)  # type: ignore[attr-defined]
    server.add_fault("/pypi/simple/filelock/*", delay=1.0)  # type: ignore[attr-defined]
    (proj / "project.yaml").write_text(CHANGED)
    output = kill_after(start(["lock", "project.yaml"], env, proj), delay, sig)
    for path in out_dir.rglob("*"):
        if path.name.endswith(".tmp"):
            # SIGKILL can land while a variant's set is staged: its complete temp files stay
            # until the next run sweeps them (below); a stop envgen sees leaves none.
            assert sig is signal.SIGKILL, f"temp file left in the output: {path}\n{output}"
            assert re.fullmatch(r"\.[^/]+\.[0-9a-f]{12}\.tmp", path.name), path
            continue
        if not path.is_file():
            continue
        rel = path.relative_to(out_dir)
        if old.get(rel) == digest(path):
            continue  # the old file, untouched
        text = path.read_text(encoding="utf-8")
        if path.name == COMMIT_JOURNAL:
            # SIGKILL can land after a set's journal is written and before its renames end:
            # the journal (whole, written atomically) stays for the next run to roll forward
            assert sig is signal.SIGKILL, f"journal left in the output: {path}\n{output}"
            assert isinstance(json.loads(text).get("moves"), list), text
            continue
        assert text.endswith("\n"), rel
        if rel.name == "requirements.txt":
            assert tampered_lines(text) == [], rel  # a complete new lock
    server.clear_faults()  # type: ignore[attr-defined]
    code, out = run(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    code, out = run(["check", "project.yaml"], env, proj)
    assert code == 0, out
    assert "numpy==2.0.0" in (out_dir / "cpu" / "requirements.txt").read_text()
    assert sorted(p.name for p in out_dir.rglob("*.tmp")) == []  # swept by the next lock
    assert list(out_dir.rglob(COMMIT_JOURNAL)) == []  # rolled forward by the next lock


@pytest.mark.parametrize(("sig", "delay"), POINTS, ids=[f"{s.name}-{d}s" for s, d in POINTS])
def test_kill_build(
    sig: signal.Signals, delay: float, setup: tuple[Path, dict[str, str], object]
) -> None:
    proj, env, server = setup
    env_dir = proj / "environments" / "cpu" / ".env"
    server.add_fault("*.whl", delay=0.8)  # type: ignore[attr-defined]
    output = kill_after(start(["build", "project.yaml", "--no-smoke"], env, proj), delay, sig)
    if env_dir.exists():
        # Present at the final path only when finished: the marker and a working interpreter.
        assert read_marker(env_dir, user_key(env)) is not None, output
        assert (env_dir / "bin" / "python").exists()
    leftovers = sorted(p.name for p in env_dir.parent.glob(".env.*"))
    for name in leftovers:  # a temp tree may be left by SIGKILL, never marked finished
        assert not (env_dir.parent / name / MARKER).exists() or name.startswith(".env.old-")
    server.clear_faults()  # type: ignore[attr-defined]
    code, out = run(["build", "project.yaml", "--no-smoke"], env, proj)
    assert code == 0, out
    assert read_marker(env_dir, user_key(env)) is not None
    assert sorted(p.name for p in env_dir.parent.glob(".env.*")) == []  # cleaned up


@pytest.mark.slow  # two real locks, one waiting on the other (~22 s): make test-slow
def test_concurrent_runs_are_serialized(setup: tuple[Path, dict[str, str], object]) -> None:
    proj, env, server = setup
    server.add_fault("/pypi/simple/*", delay=3.0)  # type: ignore[attr-defined]
    first = start(["lock", "project.yaml", "--upgrade"], env, proj)
    lock_file = proj / "environments" / ".envgen.lock"
    deadline = time.monotonic() + 20
    while not (lock_file.exists() and lock_file.read_text().strip()):
        assert time.monotonic() < deadline, "the first run never took the lock"
        time.sleep(0.05)
    code, out = run(["lock", "project.yaml", "--upgrade"], env, proj)
    assert code == 13, out
    assert out == (
        f"error: another envgen run (pid {first.pid}) is working on environments; waited 2 s "
        f"for it to finish\n  hint: wait for it to end, then run again (lock file: "
        f"environments/.envgen.lock)\n"
    )
    first_out, _ = first.communicate(timeout=120)
    assert first.returncode == 0, first_out
    assert not lock_file.exists()  # released and removed
    server.clear_faults()  # type: ignore[attr-defined]
    code, out = run(["lock", "project.yaml"], env, proj)  # and the next run proceeds
    assert code == 0, out


def test_lock_held_by_a_killed_run_does_not_block(
    setup: tuple[Path, dict[str, str], object],
) -> None:
    """flock dies with its holder: a SIGKILLed run leaves a lock file that blocks nothing."""
    proj, env, server = setup
    server.add_fault("/pypi/simple/*", delay=3.0)  # type: ignore[attr-defined]
    first = start(["lock", "project.yaml", "--upgrade"], env, proj)
    lock_file = proj / "environments" / ".envgen.lock"
    deadline = time.monotonic() + 20
    while not lock_file.exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    kill_after(first, 0.2, signal.SIGKILL)
    assert lock_file.exists()  # left behind by the killed run
    server.clear_faults()  # type: ignore[attr-defined]
    code, out = run(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    shutil.rmtree(proj / "environments" / "cpu")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_tool_dies_with_envgen_even_on_sigkill(tmp_path: Path) -> None:
    """SIGKILL reaches no handler, so the tool's own process group would outlive envgen: the
    kernel ends it instead (PR_SET_PDEATHSIG), and nothing keeps writing after envgen is gone."""
    pidfile = tmp_path / "pid"
    script = (
        "from envgen.infra import proc\n"
        f"proc.run(['sh', '-c', 'echo $$ > {pidfile}; exec sleep 60'], what='a long tool')\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 20
        while not (pidfile.exists() and pidfile.read_text().strip()):
            assert time.monotonic() < deadline, "the tool never started"
            time.sleep(0.05)
        child = int(pidfile.read_text())
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5
        while Path(f"/proc/{child}").exists():
            stat = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[-1].split()
            if stat[0] == "Z":  # reaped by init shortly
                break
            assert time.monotonic() < deadline, "the tool outlived a SIGKILLed envgen"
            time.sleep(0.05)
    finally:
        with contextlib.suppress(ProcessLookupError):
            parent.kill()


def test_a_tool_that_runs_too_long_is_a_timeout_not_a_bug() -> None:
    """proc.run stops a tool past its limit with ToolTimeoutError: not exit 1, the bug's code."""
    from envgen.errors import EXIT_CODES, OTHER_EXIT_CODES, ToolTimeoutError
    from envgen.infra import proc

    with pytest.raises(ToolTimeoutError, match=r"^sleeper timed out after 0\.3 s") as info:
        proc.run([sys.executable, "-c", "import time; time.sleep(30)"], what="sleeper", timeout=0.3)
    assert info.value.exit_code == EXIT_CODES["ToolTimeoutError"] != OTHER_EXIT_CODES["bug"]
