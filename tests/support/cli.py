"""envgen's real CLI as a child process, as a user runs it: `python -m envgen ARGS`."""

from __future__ import annotations

import subprocess  # noqa: TID251 - tests run envgen as a real process
import sys
from pathlib import Path


def run_cli(
    args: list[str],
    env: dict[str, str],
    cwd: Path,
    *,
    timeout: float = 120,
    verbose: bool = False,
) -> tuple[int, str]:
    """(exit code, stdout + stderr) of `python -m envgen [-vv] ARGS` in `cwd` with exactly `env`."""
    proc = subprocess.run(
        [sys.executable, "-m", "envgen", *(["-vv"] if verbose else []), *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr
