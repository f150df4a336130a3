"""Mechanisms behind the papers suite's failures (docs/papers.md, issue 29) that need a real
tool: the build's uv.toml with build constraints is read by the real uv."""

from __future__ import annotations

import subprocess  # noqa: TID251 - the real uv reads the config
import sys
from pathlib import Path

from envgen.model.build_deps import uv_toml


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
