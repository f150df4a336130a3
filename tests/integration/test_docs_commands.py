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

pytestmark = [pytest.mark.integration, pytest.mark.docs]

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


# The pages a reader follows step by step. Not run: README's quick start (it asks
# download.pytorch.org for the CUDA variants and runs `make test`), how-to/add-a-torch-release.md (a
# maintainer's live fetches), how-to/reproduce-a-2020-paper.md (a paper's repository, the conda
# channels and a Docker engine, none of which this machine has).
PAGES = [
    "docs/tutorial.md",
    "docs/reference/cli.md",
    "docs/how-to/use-a-mirror.md",
    "docs/how-to/reproduce-a-paper.md",
]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/opt/wheels").is_dir(), reason="the pages serve /opt/wheels' torch")
@pytest.mark.parametrize("page", PAGES)
def test_page(page: str, tmp_path: Path) -> None:
    problems = _run(ROOT / page, tmp_path)
    assert not problems, "\n\n".join(problems)
