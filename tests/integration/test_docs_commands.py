"""The documents' commands, run as a reader would, with their shown outputs compared.

Each page runs in a scratch copy of the repository (tests/support/doccmds.py says what is
normalised and how a block opts out, with its reason). The tutorial builds the real torch 2.13.0
CPU environment from this machine's wheel, as its text says.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tests.support import doccmds

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]
_IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".envgen-mirror",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "__pycache__",
    ".env",
)


def _run(page: Path, tmp_path: Path, timeout: int = 900) -> list[str]:
    work = tmp_path / "tut"
    shutil.copytree(ROOT, work, ignore=_IGNORE, symlinks=True)
    commands = doccmds.parse(page)
    assert commands, f"{page}: no commands found"
    env = doccmds.environment(Path(sys.executable).parent, tmp_path / "envgen-cache")
    doccmds.run_document(commands, work, env, timeout)
    return doccmds.mismatches(commands, tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(
    not Path("/opt/wheels").is_dir(), reason="the tutorial serves /opt/wheels' torch"
)
def test_tutorial(tmp_path: Path) -> None:
    problems = _run(ROOT / "docs" / "tutorial.md", tmp_path)
    assert not problems, "\n\n".join(problems)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/opt/wheels").is_dir(), reason="the page serves /opt/wheels' torch")
def test_cli_reference(tmp_path: Path) -> None:
    problems = _run(ROOT / "docs" / "reference" / "cli.md", tmp_path)
    assert not problems, "\n\n".join(problems)
