"""`envgen import` dates an unpinned torch by the source's last git commit (issue 11 item 2).

A real git repository in tmp_path, a real `envgen` process: the file's commit date becomes the
release date limit and lock.exclude_newer, unless --as-of says otherwise; an exact pin is left
alone (no git process runs for it).
"""

from __future__ import annotations

import os
import subprocess  # noqa: TID251 - tests run git and envgen as real processes
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def _git(repo: Path, *args: str, date: str | None = None) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def _import(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ENVGEN_", "GIT_"))}
    return subprocess.run(
        [sys.executable, "-m", "envgen", "import", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    _git(tmp_path, "init", "-q")
    (tmp_path / "requirements.txt").write_text("torch\ntorchvision\n")
    _git(tmp_path, "add", "requirements.txt")
    _git(tmp_path, "commit", "-q", "-m", "paper", date="2020-12-31T12:00:00+00:00")
    return tmp_path


def test_unpinned_torch_takes_the_commit_date(repo: Path) -> None:
    result = _import(repo, "requirements.txt")
    assert result.returncode == 0, result.stderr
    assert 'torch: "1.7.1"' in result.stdout
    assert 'exclude_newer: "2020-12-31"' in result.stdout
    assert result.stderr.splitlines()[0] == (
        "warning: requirements.txt: torch is not pinned exactly; dating it by the last commit of "
        "requirements.txt (2020-12-31), as --as-of 2020-12-31 would (pass --as-of to choose "
        "another date)"
    )


def test_as_of_wins_over_the_commit_date(repo: Path) -> None:
    result = _import(repo, "requirements.txt", "--as-of", "2021-06-30")
    assert result.returncode == 0, result.stderr
    assert 'torch: "1.9.0"' in result.stdout
    assert "dating it by the last commit" not in result.stderr


def test_exact_pin_is_not_dated(repo: Path) -> None:
    (repo / "requirements.txt").write_text("torch==1.8.1\n")
    _git(repo, "commit", "-q", "-am", "pin", date="2021-04-01T12:00:00+00:00")
    result = _import(repo, "requirements.txt")
    assert result.returncode == 0, result.stderr
    assert 'torch: "1.8.1"' in result.stdout
    assert "exclude_newer" not in result.stdout
