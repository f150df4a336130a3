"""Faults against the loopback fixtures: each gives a clear error and loses nothing.

Every test starts from a project that was locked and built (a pip-only `cpu` variant served by
the loopback PyTorch index), hashes the whole project tree (locks, inputs, the built `.env`),
injects one fault, runs the real CLI in a subprocess (`python -m envgen`), and asserts the exit
code, a plain `error: ...` message without a traceback, and a byte-identical tree afterwards.
docs/reliability.md reports the count.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess  # noqa: TID251 - tests run envgen and mount as real processes
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from envgen.build.orchestrate import MARKER
from tests.support.cli import run_cli
from tests.support.conda_channel import CondaChannel, write_channel
from tests.support.fixtures import ServedIndex, ServerFactory, clean_tool_env

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
SPEC: Final = (
    'name: faults\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)
CHANGED: Final = SPEC.replace("numpy<2", "numpy>=2")


def envgen(
    args: list[str], env: dict[str, str], *, cwd: Path, timeout: float = 120
) -> tuple[int, str]:
    """Run the real CLI; (exit code, stdout + stderr)."""
    return run_cli(args, env, cwd, timeout=timeout)


def tree_hash(root: Path) -> dict[str, str]:
    """relpath -> sha256 of every file (symlinks by target), for before/after comparisons."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[rel] = f"-> {path.readlink()}"
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        elif path.is_dir():
            out[rel] = "dir"
    return out


def project_env(base: dict[str, str], index: str, pypi: str, cache: Path) -> dict[str, str]:
    env = dict(base)
    env.update(
        ENVGEN_PYTORCH_INDEX=index,
        ENVGEN_PYPI_INDEX=pypi,
        ENVGEN_CACHE_DIR=str(cache),
        ENVGEN_MATRIX=str(MINI),
        PYTHONPATH=str(Path(__file__).parents[2]),
    )
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, pytorch_index: ServedIndex) -> Path:
    """A project locked and built once per module (copied by `project`)."""
    root = tmp_path_factory.mktemp("faults-base")
    proj = root / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    env = project_env(
        clean_tool_env(root), pytorch_index.root_url, pytorch_index.pypi_url, root / "cache"
    )
    code, text = envgen(["lock", "project.yaml"], env, cwd=proj)
    assert code == 0, text
    code, text = envgen(["build", "project.yaml", "--no-smoke"], env, cwd=proj)
    assert code == 0, text
    assert (proj / "environments" / "cpu" / ".env" / MARKER).is_file()
    return proj


@pytest.fixture
def project(built: Path, tmp_path: Path) -> Path:
    proj = tmp_path / "proj"
    shutil.copytree(built, proj, symlinks=True)
    return proj


def env_for(tmp_path: Path, server_url: str) -> dict[str, str]:
    """A fresh cache: every package must come from the (faulty) server."""
    return project_env(
        clean_tool_env(tmp_path), f"{server_url}/whl", f"{server_url}/pypi/simple", tmp_path / "c"
    )


def assert_clean_failure(code: int, text: str, want: int, first_line: str) -> None:
    assert "Traceback" not in text, text
    assert code == want, text
    errors = [line for line in text.splitlines() if line.startswith("error: ")]
    assert errors, text
    assert errors[0].startswith(first_line), text


LOCK_FAILED: Final = "error: 1 of 1 variant(s) failed to lock; their previous files are untouched"
BUILD_FAILED: Final = "error: 1 of 1 variant(s) failed to build"


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_index_down(project: Path, tmp_path: Path) -> None:
    before = tree_hash(project)
    dead = "http://127.0.0.1:9"  # nothing listens on the discard port
    env = env_for(tmp_path, dead)
    code, text = envgen(["lock", "project.yaml", "--upgrade"], env, cwd=project)
    assert_clean_failure(code, text, 6, LOCK_FAILED)
    assert "127.0.0.1:9" in text  # the message names the index it could not reach
    assert tree_hash(project) == before


@pytest.mark.slow  # uv retries the connection with back-off (about 7 s)
def test_index_down_at_build(project: Path, tmp_path: Path) -> None:
    before = tree_hash(project)
    env = env_for(tmp_path, "http://127.0.0.1:9")
    code, text = envgen(["build", "project.yaml", "--no-smoke", "--rebuild"], env, cwd=project)
    # The build first re-resolves the lock to verify it (uv's cache is empty here): that fails.
    assert_clean_failure(
        code, text, 7, "error: cpu: could not re-resolve the lock's inputs to verify it"
    )
    assert tree_hash(project) == before


@pytest.mark.slow  # waits out the index timeout (~15 s): make test-slow
def test_slow_index_times_out(project: Path, tmp_path: Path, faulty_server: ServerFactory) -> None:
    before = tree_hash(project)
    server = faulty_server()
    server.add_fault("/pypi/simple/*", delay=8.0)
    env = env_for(tmp_path, server.url)
    env["ENVGEN_HTTP_TIMEOUT"] = "1"
    code, text = envgen(["lock", "project.yaml", "--upgrade"], env, cwd=project, timeout=90)
    assert_clean_failure(code, text, 6, LOCK_FAILED)
    assert "timed out" in text.lower() or "timeout" in text.lower(), text
    assert tree_hash(project) == before


@pytest.mark.parametrize(
    "status",
    [404, pytest.param(500, marks=pytest.mark.slow)],  # 500: uv's retries take ~10 s
)
def test_index_answers_an_error(
    status: int, project: Path, tmp_path: Path, faulty_server: ServerFactory
) -> None:
    before = tree_hash(project)
    server = faulty_server()
    server.add_fault("/whl/cpu/torch/*", status=status)
    env = env_for(tmp_path, server.url)
    code, text = envgen(["lock", "project.yaml", "--upgrade"], env, cwd=project)
    assert_clean_failure(code, text, 6, LOCK_FAILED)
    if status == 500:  # uv retried the server error (bounded) before giving up
        assert len(server.requested_paths("/whl/cpu/torch/*")) > 1
    assert tree_hash(project) == before


def test_one_500_is_retried_and_the_lock_succeeds(
    project: Path, tmp_path: Path, faulty_server: ServerFactory
) -> None:
    server = faulty_server()
    server.add_fault("/pypi/simple/numpy/*", status=500, times=1)
    env = env_for(tmp_path, server.url)
    (project / "project.yaml").write_text(CHANGED)
    code, text = envgen(["lock", "project.yaml"], env, cwd=project)
    assert code == 0, text
    assert len(server.requested_paths("/pypi/simple/numpy/*")) >= 2
    assert "numpy==2.0.0" in (project / "environments" / "cpu" / "requirements.txt").read_text()


@pytest.mark.slow  # uv retries the broken download with back-off (about 15 s)
def test_truncated_wheel_at_build(
    project: Path, tmp_path: Path, faulty_server: ServerFactory
) -> None:
    before = tree_hash(project)
    server = faulty_server()
    server.add_fault("*.whl", truncate=100)
    env = env_for(tmp_path, server.url)
    code, text = envgen(["build", "project.yaml", "--no-smoke", "--rebuild"], env, cwd=project)
    assert_clean_failure(code, text, 7, BUILD_FAILED)
    assert tree_hash(project) == before


def test_wheel_changed_after_locking(
    project: Path, tmp_path: Path, pytorch_index: ServedIndex, faulty_server: ServerFactory
) -> None:
    before = tree_hash(project)
    served = tmp_path / "served"
    shutil.copytree(pytorch_index.dir, served)
    (wheel,) = (served / "whl" / "cpu").glob("torch-2.1.0+cpu-cp311-*manylinux*x86_64.whl")
    wheel.write_bytes(wheel.read_bytes() + b"\0")  # same name, other bytes
    server = faulty_server(served)
    env = env_for(tmp_path, server.url)
    code, text = envgen(["build", "project.yaml", "--no-smoke", "--rebuild"], env, cwd=project)
    assert_clean_failure(code, text, 7, BUILD_FAILED)
    assert "hash" in text.lower(), text
    assert tree_hash(project) == before


def test_conda_channel_with_bad_repodata(
    tmp_path: Path, pytorch_index: ServedIndex, conda_channel: CondaChannel
) -> None:
    channels = tmp_path / "channels"
    shutil.copytree(conda_channel.path, channels / "pytorch")
    write_channel(channels / "nvidia", "nvidia", [])
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC.replace("managers: [pip]", "managers: [conda]"))
    env = project_env(
        clean_tool_env(tmp_path), pytorch_index.root_url, pytorch_index.pypi_url, tmp_path / "c"
    )
    env["ENVGEN_CONDA_CHANNEL_ALIAS"] = channels.as_uri()
    code, text = envgen(["lock", "project.yaml"], env, cwd=proj)
    assert code == 0, text
    before = tree_hash(proj)
    (channels / "pytorch" / "linux-64" / "repodata.json").write_text('{"packages": {"x": ')
    env["ENVGEN_CACHE_DIR"] = str(tmp_path / "c2")
    code, text = envgen(["lock", "project.yaml", "--upgrade"], env, cwd=proj)
    assert_clean_failure(code, text, 6, LOCK_FAILED)
    assert "cannot be solved" in text, text
    assert tree_hash(proj) == before


@contextlib.contextmanager
def small_disk(where: Path, size: str = "2m") -> Iterator[bool]:
    """A size-limited tmpfs at `where` (True), or False where mount is not permitted."""
    where.mkdir(parents=True, exist_ok=True)
    mount = shutil.which("mount")
    ok = (
        os.geteuid() == 0
        and mount is not None
        and subprocess.run(
            [mount, "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
            capture_output=True,
            check=False,
        ).returncode
        == 0
    )
    try:
        yield ok
    finally:
        if ok:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def _fill(directory: Path) -> None:
    with contextlib.suppress(OSError), (directory / "filler").open("wb") as fh:
        while True:
            fh.write(b"\0" * 65536)
            fh.flush()


def test_full_disk_while_writing_locks(project: Path, tmp_path: Path) -> None:
    """A full disk (tmpfs; else RLIMIT_FSIZE in the child) while writing new locks."""
    disk = tmp_path / "disk"
    env = project_env(
        clean_tool_env(tmp_path), "http://127.0.0.1:9/whl", "http://127.0.0.1:9/pypi", tmp_path
    )
    with small_disk(disk) as mounted:
        out = disk / "environments"
        shutil.copytree(project / "environments", out, symlinks=True, ignore=_no_env)
        (project / "project.yaml").write_text(CHANGED.replace("numpy>=2", "numpy<1.25"))
        before = tree_hash(out)
        args = ["lock", "project.yaml", "--pins-only", "--out", str(out)]
        if mounted:
            _fill(disk)
            code, text = envgen(args, env, cwd=project)
        else:
            code, text = _with_fsize_limit(args, env, project)
        assert_clean_failure(code, text, 6, "error: envgen lock could not write")
        assert ("No space left on device" if mounted else "File too large") in text, text
        (disk / "filler").unlink(missing_ok=True)
        assert tree_hash(out) == before
        # And once there is room again, the same command succeeds without any cleanup.
        code, text = envgen(args, env, cwd=project)
        assert code == 0, text


def _no_env(_directory: str, names: list[str]) -> list[str]:
    return [".env"] if ".env" in names else []


def _with_fsize_limit(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    code = (
        "import resource, signal, sys, runpy; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1, 1)); "
        f"sys.argv = ['envgen', *{args!r}]; runpy.run_module('envgen', run_name='__main__')"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, check=False
    )
    return proc.returncode, proc.stdout + proc.stderr


def test_full_disk_while_building(
    project: Path, tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    disk = tmp_path / "disk"
    with small_disk(disk, "1m") as mounted:
        if not mounted:
            pytest.skip("mount is not permitted here; the lock-writing test covers RLIMIT_FSIZE")
        env = env_for(tmp_path, pytorch_index.base_url)
        before = tree_hash(project)
        (disk / "envs").mkdir()
        _fill(disk)
        args = ["build", "project.yaml", "--no-smoke", "--env-dir", str(disk / "envs")]
        code, text = envgen(args, env, cwd=project)
        assert_clean_failure(code, text, 7, BUILD_FAILED)
        assert tree_hash(project) == before
        assert not (disk / "envs" / "cpu").exists()  # no half-built env at the final path
        assert list((disk / "envs").iterdir()) == []  # and its temp tree was removed


TAMPER: Final = [
    ("pin", "numpy==1.26.4", "numpy==2.0.0"),
    ("hash-malformed", "--hash=sha256:", "--hash=sha256:zz"),
    ("hash-swapped", None, None),
    ("input-hash", "# input-hash: sha256:", "# input-hash: sha256:0"),
]


@pytest.mark.parametrize(("kind", "old", "new"), TAMPER, ids=[t[0] for t in TAMPER])
def test_check_names_the_edited_line(
    kind: str, old: str | None, new: str | None, project: Path, tmp_path: Path
) -> None:
    env = env_for(tmp_path, "http://127.0.0.1:9")  # check never needs the network
    lock = project / "environments" / "cpu" / "requirements.txt"
    text = lock.read_text()
    if old is None:  # one well-formed sha256 swapped for another
        digest = text.split("--hash=sha256:", 1)[1][:64]
        text = text.replace(digest, hashlib.sha256(b"other").hexdigest(), 1)
    else:
        assert new is not None
        text = text.replace(old, new, 1)
    lock.write_text(text)
    code, out = envgen(["check", "project.yaml"], env, cwd=project)
    assert_clean_failure(code, out, 9, "error: ")
    lines = text.splitlines()
    expected = {
        "pin": "cpu/requirements.txt: the body does not match its content-hash: the file was "
        "edited by hand",
        "hash-malformed": "cpu/requirements.txt: the body does not match its content-hash",
        "hash-swapped": "cpu/requirements.txt: the body does not match its content-hash",
        # Both hashes compared are named: the tampered one starts "sha256:0".
        "input-hash": "cpu/requirements.txt: stale: its inputs changed (the file records "
        "input-hash sha256:0",
    }[kind]
    assert expected in out, out
    if kind == "input-hash":
        assert re.search(
            r"the spec and matrix now give sha256:[0-9a-f]{12}…\); run `envgen lock`", out
        )
    if kind == "pin":
        number = next(i for i, line in enumerate(lines, 1) if line.startswith("numpy==2.0.0"))
        assert (
            f"cpu/requirements.txt: line {number}: numpy==2.0.0 does not satisfy numpy<2 from "
            "the spec" in out
        ), out
    if kind == "hash-malformed":
        number = next(i for i, line in enumerate(lines, 1) if "sha256:zz" in line)
        assert f"cpu/requirements.txt: line {number}: " in out, out
        assert "is not a sha256 (64 hex digits)" in out
    # and `envgen build` refuses the edited lock instead of installing it
    code, out = envgen(["build", "project.yaml", "--no-smoke", "--rebuild"], env, cwd=project)
    assert_clean_failure(code, out, 7, "error: ")
