"""The progress display through the real CLI (a process each), against the loopback index.

In a pipe: one plain line per step; on a terminal (a pseudo-terminal here): a live display that
is cleared at the end and no plain step lines; with -q: nothing but results and errors; --json:
stdout is the JSON alone; -v: an inline `python -c` script is logged as its size. And uv's own
download messages, read as they come, as byte counts (a real uv install of a 2.5 MiB wheel).
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import random
import re
import select
import struct
import subprocess  # noqa: TID251 - a child whose stderr is a pseudo-terminal (proc.run pipes it)
import sys
import termios
import time
from pathlib import Path

import pytest

from envgen.errors import ToolTimeoutError
from envgen.infra import proc as _proc
from envgen.infra import progress
from envgen.infra.progress import Event
from tests.support.server import IndexServer
from tests.support.wheels import make_wheel

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]
MINI = ROOT / "tests" / "data" / "matrix-mini"
SPEC = (
    'name: t\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu, cu118]\nmanagers: [pip]\n'
    "torchvision: false\ntorchaudio: false\n"
)
STEP = re.compile(
    r"^(cpu|cu118): (resolving|writing pylock|verifying|creating|installing|linking|compiling|"
    r"checking the installed|smoke checks|locked$)"
)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, pytorch_index) -> tuple[Path, dict[str, str]]:  # type: ignore[no-untyped-def]
    folder = tmp_path_factory.mktemp("progress")
    (folder / "project.yaml").write_text(SPEC)
    env = {
        **_proc.clean_env(),
        "PIP_CONFIG_FILE": os.devnull,
        "ENVGEN_PYTORCH_INDEX": pytorch_index.root_url,
        "ENVGEN_PYPI_INDEX": pytorch_index.pypi_url,
        "ENVGEN_CACHE_DIR": str(folder / "cache"),
        "ENVGEN_MATRIX": str(MINI),
    }
    env.pop("CI", None)  # CI keeps plain lines even on a terminal
    return folder, env


def envgen(folder: Path, env: dict[str, str], *args: str) -> _proc.Completed:
    return _proc.run(
        [sys.executable, "-m", "envgen", *args],
        what="envgen",
        cwd=folder,
        env=env,
        check=False,
        timeout=300,
    )


def steps(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if STEP.match(line)]


# Not `slow`: it locks the module's project, which the terminal test below builds.
def test_plain_lines_in_a_pipe_quiet_json_and_verbose(project: tuple[Path, dict[str, str]]) -> None:
    folder, env = project
    locked = envgen(folder, env, "lock", "--jobs", "1")
    assert locked.returncode == 0, locked.stderr
    assert steps(locked.stderr) == [
        "cpu: resolving (pip: uv)",
        "cpu: writing pylock.toml",
        "cpu: locked",
        "cu118: resolving (pip: uv)",
        "cu118: writing pylock.toml",
        "cu118: locked",
    ]
    assert not re.search(r"\d\d:\d\d|\[\d+/\d+\]", locked.stderr)  # no timestamps, no counters

    built = envgen(folder, env, "build", "--variant", "cpu")
    assert built.returncode in (0, 8), built.stderr  # the fake torch fails some smoke checks
    assert steps(built.stderr) == [
        "cpu: verifying the lock",
        "cpu: creating the environment (python 3.11)",
        "cpu: installing",
        "cpu: linking bytecode from the store",
        *(["cpu: compiling bytecode (7 modules)"] if "compiling" in built.stderr else []),
        "cpu: checking the installed packages",
        "cpu: smoke checks",
    ]
    assert "== cpu" in built.stdout  # the table stays on stdout

    quiet = envgen(folder, env, "-q", "build", "--variant", "cpu")
    assert quiet.returncode == built.returncode
    assert steps(quiet.stderr) == []
    assert all(line.startswith(("error:", "  - ")) for line in quiet.stderr.splitlines())

    as_json = envgen(folder, env, "lock", "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["ok"] is True  # stdout is the document alone
    smoked = envgen(folder, env, "smoke", "--variant", "cpu", "--json")
    assert [r["variant"] for r in json.loads(smoked.stdout)] == ["cpu"]
    assert steps(smoked.stderr) == ["cpu: smoke checks"]

    verbose = envgen(folder, env, "-v", "build", "--variant", "cpu", "--no-smoke")
    assert verbose.returncode == 0, verbose.stderr
    assert re.search(r"-B -c <inline script: \d+ lines>", verbose.stderr)
    assert "importlib" not in verbose.stderr  # the script's text is not logged


def _on_terminal(folder: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    """Run envgen with stderr on a 120x30 pseudo-terminal: (exit, stdout, what the terminal got)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    child = subprocess.Popen(
        [sys.executable, "-m", "envgen", *args],
        cwd=folder,
        env={**env, "TERM": "xterm-256color"},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
    )
    os.close(follower)
    screen = b""
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.1)
            if not ready:
                if child.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            screen += chunk
        stdout = child.communicate(timeout=60)[0]
    finally:
        os.close(leader)
        if child.poll() is None:
            child.kill()
    return child.returncode, stdout.decode(), screen.decode("utf-8", "replace")


def test_live_display_on_a_terminal(project: tuple[Path, dict[str, str]]) -> None:
    folder, env = project
    code, stdout, screen = _on_terminal(folder, env, "build", "--variant", "cpu", "--rebuild")
    assert code in (0, 8), screen
    assert "\x1b[?25l" in screen  # the display hid the cursor while drawing
    assert "\x1b[?25h" in screen  # and gave it back
    assert "\x1b[2K" in screen  # rows were redrawn in place
    assert re.search(r"cpu\S* (\S+ )*(waiting|verifying the lock|creating the environment)", screen)
    assert re.search(r"✗\S* smoke failed|✓\S* built", screen)  # the outcome, in the row
    lines = re.split(r"\r\n|\r|\n", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen))
    assert not [line for line in lines if STEP.match(line)]  # no plain step lines
    # What a plain run prints as results stays: the build line, on its own line.
    assert any(line.startswith("cpu: built (pip) in ") for line in lines)
    assert "== cpu" in stdout

    code, _, screen = _on_terminal(folder, env, "-q", "build", "--variant", "cpu", "--no-smoke")
    assert code == 0, screen
    assert screen == ""  # -q: nothing, not even the display

    code, _, screen = _on_terminal(
        folder, {**env, "CI": "true"}, "build", "--variant", "cpu", "--no-smoke"
    )
    assert code == 0, screen
    assert "\x1b[?25l" not in screen  # CI: plain lines even on a terminal
    assert "cpu: verifying the lock\r\n" in screen


def test_uv_download_messages_become_byte_counts(tmp_path: Path) -> None:
    """A real `uv pip install` of a 2.5 MiB wheel over HTTP, its stderr read line by line."""
    payload = random.Random(0).randbytes(5 * 2**19)  # noqa: S311 - incompressible test bytes
    wheel = make_wheel(tmp_path / "files", "bigpkg", "1.0", files={"bigpkg/blob.bin": payload})
    uv = _proc.require("uv", why="tests")
    env = {**_proc.clean_env(), "UV_CACHE_DIR": str(tmp_path / "cache"), "UV_NO_PROGRESS": "1"}
    _proc.run([uv, "venv", "-q", "--python", "3.11", tmp_path / "venv"], what="uv venv", env=env)
    events: list[Event] = []
    with IndexServer(tmp_path / "files") as server, progress.listening(events.append):
        _proc.run(
            [
                uv,
                "pip",
                "install",
                "--no-config",
                "--python",
                tmp_path / "venv" / "bin" / "python",
                f"bigpkg @ {server.url}/{wheel.name}",
            ],
            what="uv pip install",
            env=env,
            timeout=120,
            on_stderr=progress.uv_lines("cpu"),
        )
    size = wheel.stat().st_size
    assert [e.phase for e in events if e.kind == "phase"] == ["downloading", "installing"]
    counts = [(e.done, e.total) for e in events if e.unit == "bytes"]
    total = counts[0][1]
    assert total is not None
    assert abs(total - size) <= size // 100  # uv announces the size rounded to 0.1 MiB
    assert counts == [(0, total), (total, total)]
    assert events[-1].detail.startswith("downloaded 1 large file(s), 2.")


def test_streamed_stderr_keeps_run_semantics() -> None:
    """With a line reader: every line reaches it in order, output is still captured whole, a
    failing reader does not fail the command, and a timeout is still a ToolTimeoutError."""
    script = (
        "import sys, time\n"
        "for i in range(3):\n"
        "    print(f'line {i}', file=sys.stderr, flush=True)\n"
        "print('out')\n"
        "time.sleep(float(sys.argv[1]))\n"
    )
    seen: list[str] = []
    done = _proc.run(
        [sys.executable, "-c", script, "0"], what="lines", on_stderr=seen.append, timeout=60
    )
    assert (seen, done.stdout, done.stderr) == (
        ["line 0", "line 1", "line 2"],
        "out\n",
        "line 0\nline 1\nline 2\n",
    )

    def broken(_line: str) -> None:
        msg = "a display bug"
        raise RuntimeError(msg)

    done = _proc.run([sys.executable, "-c", script, "0"], what="lines", on_stderr=broken)
    assert done.stderr == "line 0\nline 1\nline 2\n"

    start = time.monotonic()
    with pytest.raises(ToolTimeoutError, match="timed out after 1 s"):
        _proc.run(
            [sys.executable, "-c", script, "30"], what="sleeper", on_stderr=seen.append, timeout=1
        )
    assert time.monotonic() - start < 15
