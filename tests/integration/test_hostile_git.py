"""A cloned repository cannot configure the git envgen starts.

envgen runs git in a clone twice: `git ls-files` asks whether a sealed environment holds tracked
files (build, smoke, run), and `git log` dates an imported file (`envgen import FILE`, by default
when torch is not pinned exactly). git obeys the configuration of the repository it discovers,
and some keys run programs: `core.fsmonitor` under `ls-files`, `gpg.program` under `git log`
with `log.showSignature`. A `git clone` brings no `.git/config`, but it can carry an *embedded
bare repository* (`HEAD`, `config`, `objects/`, `refs/` committed in a folder), which git
started in that folder discovers. Before the fix, a plain clone made `envgen build` and
`envgen import` run the repository's command. An unpacked archive can also ship the top
`.git/config` itself. Through the real CLI, with real git (docs/reliability.md, threat model).
"""

from __future__ import annotations

import os
import shutil
import subprocess  # noqa: TID251 - tests run git and envgen as real processes
from pathlib import Path
from typing import Final

import pytest

from tests.integration.test_hostile_env import MINI, ROOT, SPEC, envgen
from tests.support.fixtures import ServedIndex, clean_tool_env

pytestmark = pytest.mark.integration

GIT: Final = shutil.which("git")
DATE: Final = "2021-03-04T05:06:07+00:00"


def run_git(where: Path, *args: str) -> str:
    assert GIT is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env |= {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "GIT_AUTHOR_DATE": DATE,
        "GIT_COMMITTER_DATE": DATE,
    }
    done = subprocess.run(
        [GIT, *args], cwd=where, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout.strip()


def embed_bare_repository(folder: Path, config: str, *, signed_file: str | None = None) -> None:
    """Commit-able files that make `folder` a bare repository git discovers from inside it;
    with `signed_file`, its one commit (signed) adds that file, so `git log -- FILE` shows it."""
    bare = folder.parent / f".{folder.name}-bare"
    run_git(folder.parent, "init", "-q", "--bare", bare.name)
    if signed_file is not None:
        blob = run_git(bare, "hash-object", "-w", str(folder / signed_file))
        tree = subprocess.run(
            [str(GIT), "mktree"],
            cwd=bare,
            input=f"100644 blob {blob}\t{signed_file}\n",
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        commit = bare / "commit.txt"
        commit.write_text(
            f"tree {tree}\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nx\n"
        )
        sha = run_git(bare, "hash-object", "-t", "commit", "-w", str(commit))
        run_git(bare, "update-ref", "refs/heads/main", sha)
    for part in ("objects", "refs"):
        shutil.copytree(bare / part, folder / part, dirs_exist_ok=True)
        (folder / part / "keep").touch()  # git commits no empty folder
    (folder / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / "config").write_text(config)
    shutil.rmtree(bare)


def canary_script(folder: Path, canary: Path) -> Path:
    script = folder / "evil.sh"
    script.write_text(f'#!/bin/sh\nenv > "{canary}"\nexit 1\n')
    script.chmod(0o755)
    return script


def clone(upstream: Path, where: Path) -> Path:
    run_git(upstream, "add", "-A")
    run_git(upstream, "commit", "-qm", "upstream")
    run_git(where, "clone", "-q", str(upstream), "clone")
    return where / "clone"


@pytest.fixture
def tools(tmp_path: Path, pytorch_index: ServedIndex) -> dict[str, str]:
    if GIT is None:
        pytest.skip("git is not installed")
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_PYTORCH_INDEX=pytorch_index.root_url,
        ENVGEN_PYPI_INDEX=pytorch_index.pypi_url,
        PYTHONPATH=str(ROOT),
    )
    return env


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_an_embedded_bare_repository_runs_nothing_in_build_smoke_run(
    tmp_path: Path, tools: dict[str, str]
) -> None:
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    run_git(upstream, "init", "-q")
    (upstream / "project.yaml").write_text(SPEC)
    code, out = envgen(["lock", "project.yaml"], tools, upstream)
    assert code == 0, out
    canary = tmp_path / "fsmonitor-ran"
    lock_dir = upstream / "environments" / "cpu"
    canary_script(lock_dir, canary)
    embed_bare_repository(
        lock_dir,
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = ./evil.sh\n",
    )
    proj = clone(upstream, tmp_path)
    assert (proj / "environments" / "cpu" / "HEAD").is_file()
    code, out = envgen(["build", "project.yaml", "--no-smoke"], tools, proj)
    assert code == 0, out
    code, out = envgen(["build", "project.yaml", "--no-smoke"], tools, proj)
    assert (code, "up-to-date" in out) == (0, True), out  # git answered: nothing tracked there
    code, out = envgen(["smoke", "project.yaml"], tools, proj)
    assert code in (0, 8), out  # the fake torch may fail checks; the environment was trusted
    code, out = envgen(["run", "cpu", "--", "true"], tools, proj)
    assert code == 0, out
    assert not canary.exists()


@pytest.mark.parametrize("where", ["embedded", "archive"])
def test_import_dates_by_the_checkout_and_runs_nothing(
    where: str, tmp_path: Path, tools: dict[str, str]
) -> None:
    upstream = tmp_path / "upstream"
    paper = upstream / "paper"
    paper.mkdir(parents=True)
    run_git(upstream, "init", "-q")
    (paper / "requirements.txt").write_text("torch>=2.0\n")
    canary = tmp_path / "gpg-program-ran"
    script = canary_script(paper, canary)
    signing = f"[log]\n\tshowSignature = true\n[gpg]\n\tprogram = {script}\n"
    if where == "embedded":
        embed_bare_repository(
            paper,
            "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n" + signing,
            signed_file="requirements.txt",
        )
        proj = clone(upstream, tmp_path)
    else:  # an unpacked archive that ships the top .git/config, and a signed commit
        proj = upstream
        run_git(proj, "add", "-A")
        tree = run_git(proj, "write-tree")
        body = proj / ".git" / "commit.txt"
        body.write_text(
            f"tree {tree}\nauthor a <a@b> 1614834367 +0000\ncommitter a <a@b> 1614834367 +0000\n"
            "gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nx\n"
        )
        sha = run_git(proj, "hash-object", "-t", "commit", "-w", str(body))
        run_git(proj, "update-ref", "HEAD", sha)
        with (proj / ".git" / "config").open("a") as fh:
            fh.write(signing)
    code, out = envgen(["import", "paper/requirements.txt"], tools, proj)
    assert code == 0, out
    assert not canary.exists()
    # The date of the checkout's own commit (2021-03-04), not one the embedded repository gives.
    assert "dating it by the last commit of requirements.txt (2021-03-04)" in out, out
