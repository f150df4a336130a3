"""Mechanisms behind the papers suite's failures (docs/papers.md, issue 29) that need a real
process: a native crash in the smoke interpreter."""

from __future__ import annotations

import signal
import subprocess  # noqa: TID251 - a real interpreter crashes
import sys
from pathlib import Path

from envgen.smoke.report import parse_report


def test_a_crash_in_native_code_names_its_python_frames(tmp_path: Path) -> None:
    """The smoke interpreter runs with -X faulthandler: a real SIGSEGV (ctypes reading address
    0, as a crashing extension does) is reported with the error and the frames it happened in,
    not only "killed by SIGSEGV" (the papers suite's gated-prompt-tuning)."""
    script = tmp_path / "crash.py"
    script.write_text(
        "import ctypes\n\ndef load_extension():\n    ctypes.string_at(0)\n\nload_extension()\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-I", "-X", "faulthandler", str(script)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == -signal.SIGSEGV
    (check,) = parse_report(done.stdout, done.returncode, done.stderr).checks
    first = check.detail.splitlines()[0]
    assert first.startswith(
        "the interpreter was killed by SIGSEGV; Fatal Python error: Segmentation fault; in "
        "string_at ("
    )
    assert f"< load_extension ({script}:4) < <module> ({script}:6)" in first
