"""Mechanisms behind the papers suite's failures (docs/papers.md, issue 29) that need a real
tool: the build's uv.toml with build constraints is read by the real uv."""

from __future__ import annotations

import signal
import subprocess  # noqa: TID251 - the real uv and python run
import sys
from pathlib import Path

from envgen.model.build_deps import uv_toml
from envgen.smoke.report import parse_report


def test_uv_reads_the_build_config(tmp_path: Path) -> None:
    """The real uv accepts the generated uv.toml (an unknown or misplaced key is an error)."""
    config = tmp_path / "uv.toml"
    config.write_text(uv_toml("pycocotools==2.0.2\n"), encoding="utf-8")
    req = tmp_path / "requirements.txt"
    req.write_text("", encoding="utf-8")
    done = subprocess.run(
        [str(Path(sys.executable).with_name("uv")), "pip", "compile", "--no-config",
         "--config-file", str(config), "--offline", "--quiet", str(req)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('build-constraint-dependencie = ["cython<3"]\n', encoding="utf-8")
    done = subprocess.run(
        [str(Path(sys.executable).with_name("uv")), "pip", "compile", "--no-config",
         "--config-file", str(bad), "--offline", "--quiet", str(req)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode != 0


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
