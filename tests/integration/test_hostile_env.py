"""A cloned repository ships an environment, a marker or a lock: envgen runs nothing of it.

Issue 21 items 2 and 3, through the real CLI (`python -m envgen`, bounded in time and memory).
The repository ships `environments/cpu/.env/` with a marker whose lock digest matches the
committed lock (anyone can compute it) and a `bin/python` that, if run, writes a canary file
holding its environment: `build`, `smoke` and `run` must never run it. Markers and locks planted
as a link to /dev/zero, a FIFO or a huge file end in a clear error (or count as absent), never in
MemoryError or a hang. The index needs basic auth (the canary token): the token reaches no output
and no child's environment. docs/reliability.md ("Threat model") lists what each test guarantees.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess  # noqa: TID251 - tests run envgen as a real process
import sys
from pathlib import Path
from typing import Final

import pytest

from envgen import __version__
from envgen.build.orchestrate import lock_digest, read_marker
from tests.support.fixtures import AUTH_TOKEN, ServedIndex, clean_tool_env, user_key

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
SPEC: Final = (
    'name: hostile\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)
MEMORY: Final = 2 << 30
HUGE: Final = 8 << 30  # a sparse file: no disk used


def envgen(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 90) -> tuple[int, str]:
    """`python -m envgen ARGS` under RLIMIT_AS and a wall-clock bound."""
    code = (
        "import resource, sys, runpy; "
        f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY})); "
        "sys.argv = ['envgen', *sys.argv[1:]]; runpy.run_module('envgen', run_name='__main__')"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out
    assert "MemoryError" not in out
    assert AUTH_TOKEN not in out
    return proc.returncode, out


@pytest.fixture(scope="module")
def locked(
    tmp_path_factory: pytest.TempPathFactory, pytorch_index_with_auth: ServedIndex
) -> tuple[Path, dict[str, str]]:
    """A pip project locked once against the index behind auth (credentials in ENVGEN_* URLs)."""
    index = pytorch_index_with_auth
    base = tmp_path_factory.mktemp("hostile-env")
    proj = base / "template"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    env = clean_tool_env(base)
    env.update(
        ENVGEN_CACHE_DIR=str(base / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_PYTORCH_INDEX=index.with_auth(index.root_url),
        ENVGEN_PYPI_INDEX=index.with_auth(index.pypi_url),
        PYTHONPATH=str(ROOT),
    )
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    return proj, env


@pytest.fixture
def cloned(tmp_path: Path, locked: tuple[Path, dict[str, str]]) -> tuple[Path, dict[str, str]]:
    """A fresh copy of the locked project, as a user's clone."""
    template, env = locked
    proj = tmp_path / "proj"
    shutil.copytree(template, proj)
    return proj, dict(env)


def canary(proj: Path) -> Path:
    return proj.parent / "planted-python-ran"


def plant_env(proj: Path) -> Path:
    """What a hostile repository commits: `.env/` with its own python and a forged marker."""
    lock_dir = proj / "environments" / "cpu"
    env = lock_dir / ".env"
    (env / "bin").mkdir(parents=True)
    python = env / "bin" / "python"
    python.write_text(f'#!/bin/sh\nenv > "{canary(proj)}"\necho "[]"\n')
    python.chmod(0o755)
    marker = {
        "format": 1,
        "variant": "cpu",
        "manager": "pip",
        "lock-sha256": lock_digest(lock_dir, ("requirements.txt",)),
        "python": "3.11",
        "torch-family": {"torch": "2.1.0+cpu"},
        "pip": {"torch": "2.1.0+cpu"},
        "conda": {},
        "envgen": __version__,
        "seal": "hmac-sha256:" + "0" * 64,
    }
    (env / "envgen-build.json").write_text(json.dumps(marker, indent=2))
    return env


def test_smoke_never_runs_a_committed_environment(cloned: tuple[Path, dict[str, str]]) -> None:
    proj, env = cloned
    planted = plant_env(proj)
    code, out = envgen(["smoke", "project.yaml"], env, proj)
    rel = Path("environments/cpu/.env")
    assert (code, out) == (
        7,
        f"error: cpu: not built here: {rel} holds an environment this machine did not build (its "
        "envgen-build.json is not sealed with your key: committed to the repository, copied, or "
        "built by an older envgen; or git tracks files inside it, which a pull writes there); "
        "envgen never runs its interpreter\n"
        "  hint: run `envgen build project.yaml --variant cpu`\n",
    )
    assert not canary(proj).exists()
    assert read_marker(planted, user_key(env)) is None


def test_build_replaces_a_committed_environment_without_running_it(
    cloned: tuple[Path, dict[str, str]],
) -> None:
    proj, env = cloned
    planted = plant_env(proj)
    code, out = envgen(["build", "project.yaml", "--no-smoke"], env, proj)
    assert code == 0, out
    assert "cpu: built (pip)" in out  # not "up-to-date": the forged marker counts for nothing
    assert not canary(proj).exists()
    marker = read_marker(planted, user_key(env))
    assert marker is not None
    assert planted.joinpath("bin", "python").is_symlink()  # uv's interpreter, not the script
    # The sealed marker copied beside the environment (a new inode) is not this build's.
    copy = proj / "copy"
    copy.mkdir()
    (copy / "envgen-build.json").write_bytes((planted / "envgen-build.json").read_bytes())
    assert read_marker(copy, user_key(env)) is None
    # Built here, it is smoke-tested (the fake torch may fail checks; the script ran).
    code, out = envgen(["smoke", "project.yaml"], env, proj)
    assert code in (0, 8), out
    assert not canary(proj).exists()


def test_run_rebuilds_a_committed_environment_and_passes_no_credentials(
    cloned: tuple[Path, dict[str, str]],
) -> None:
    proj, env = cloned
    plant_env(proj)
    env = dict(env, ENVGEN_HTTP_TIMEOUT="77")
    dump = "import json, os; print(json.dumps(dict(os.environ)))"
    code, out = envgen(["run", "cpu", "--", "python", "-c", dump], env, proj)
    assert code == 0, out
    assert not canary(proj).exists()
    (line,) = [x for x in out.splitlines() if x.startswith("{")]
    child = json.loads(line)
    assert sorted(k for k in child if k.startswith("ENVGEN_")) == []
    assert child["VIRTUAL_ENV"] == str(proj / "environments" / "cpu" / ".env")


def test_a_pull_into_a_built_environment_is_not_run(cloned: tuple[Path, dict[str, str]]) -> None:
    """Red team, round 3: the user builds; upstream then commits a `.pth` inside the (ignored)
    `.env`, and a pull writes it there, keeping the folder's inode and the user's sealed marker.
    A sealed environment that git tracks files in is not this machine's build: smoke refuses it
    without starting its python, and build rebuilds it without running the planted file."""
    proj, env = cloned
    code, out = envgen(["build", "project.yaml", "--no-smoke"], env, proj)
    assert code == 0, out
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")

    def run_git(*args: str) -> None:
        subprocess.run([git, *args], cwd=proj, check=True, capture_output=True)

    run_git("init", "-q")
    (proj / ".gitignore").write_text("environments/*/.env/\n")
    site = next((proj / "environments" / "cpu" / ".env" / "lib").glob("python3*/site-packages"))
    planted = site / "zz-upstream.pth"
    planted.write_text(f"import os; open({str(canary(proj))!r}, 'w').write('ran')\n")
    run_git("add", "-f", str(planted.relative_to(proj)))  # what the pulled commit tracks

    code, out = envgen(["smoke", "project.yaml"], env, proj)
    assert code == 7, out
    assert "git tracks files inside it" in out
    assert not canary(proj).exists()
    code, out = envgen(["build", "project.yaml", "--no-smoke"], env, proj)
    assert code == 0, out
    assert "up-to-date" not in out
    assert not canary(proj).exists()
    assert not planted.exists()  # the rebuilt environment is envgen's again
    code, out = envgen(["build", "project.yaml", "--no-smoke"], env, proj)
    assert (code, "up-to-date" in out) == (0, True), out  # and it stays trusted


# --- item 3: planted links, FIFOs and huge files ------------------------------------------------
def plant(path: Path, kind: str) -> None:
    path.unlink(missing_ok=True)
    if kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        with path.open("wb") as fh:
            fh.truncate(HUGE)


KINDS: Final = ("dev-zero", "fifo", "huge")


@pytest.mark.parametrize("kind", KINDS)
def test_a_planted_marker_counts_as_absent(kind: str, cloned: tuple[Path, dict[str, str]]) -> None:
    proj, env = cloned
    planted = plant_env(proj)
    plant(planted / "envgen-build.json", kind)
    rel = Path("environments/cpu/.env")
    code, out = envgen(["smoke", "project.yaml"], env, proj, timeout=30)
    assert (code, out) == (
        7,
        f"error: cpu: not built: {rel} is unfinished (no envgen-build.json)\n"
        "  hint: run `envgen build project.yaml --variant cpu`\n",
    )
    code, out = envgen(["build", "project.yaml", "--no-smoke"], env, proj, timeout=30)
    assert (code, out) == (
        7,
        "cpu: verifying the lock\n"  # the build's progress line (envgen.cli.progress)
        f"error: {rel} is a folder that is not an environment envgen built (no "
        "envgen-build.json); a build replaces that path as a whole, so envgen leaves it alone\n"
        f"  hint: move or remove {rel} yourself, or choose another --env-dir\n",
    )
    assert not canary(proj).exists()


def _lock_message(kind: str, lock: Path) -> str:
    if kind == "dev-zero":
        return (
            f"error: {lock} is a symbolic link (to /dev/zero); envgen does not write through "
            "links inside a project (a cloned repository could point one at any file of yours); "
            f"the link and its target were left untouched\n  hint: remove the link ({lock}) and "
            "run again\n"
        )
    if kind == "fifo":
        return (
            f"error: {lock} is a named pipe; envgen writes only regular files\n"
            "  hint: give the path of a regular file (or of one to create)\n"
        )
    return (
        f"error: {lock} is larger than {64 * 1024 * 1024} bytes; it is not a file envgen wrote\n"
        f"  hint: remove it ({lock}) and run again\n"
    )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["build", "dockerfile"])
def test_a_planted_lock_is_a_clear_error(
    kind: str, command: str, cloned: tuple[Path, dict[str, str]]
) -> None:
    proj, env = cloned
    lock = Path("environments/cpu/requirements.txt")
    plant(proj / lock, kind)
    args = [command, "project.yaml"] + (["--no-smoke"] if command == "build" else [])
    if command == "dockerfile":  # needs the shipped matrix's base images (not in matrix-mini)
        env = {k: v for k, v in env.items() if k != "ENVGEN_MATRIX"}
    code, out = envgen(args, env, proj, timeout=30)
    assert (code, out) == (14, _lock_message(kind, lock)), out
    assert not canary(proj).exists()
