"""The bytecode store's compile job (envgen/build/pyc_job.py) run by a real interpreter.

An "environment" here is a site-packages tree of small modules; the job runs under this
session's python (its bytecode is what that python imports). Checked: entries are path-free
and byte-identical whichever job wrote them, a module that does not compile gets a `.none`
marker, a .pyc Python wrote at import after the build is replaced by the store's, a wheel's own
.pyc is kept, a killed job leaves only complete entries (and temp files the next job removes).
"""

from __future__ import annotations

import importlib.util
import marshal
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from envgen.build.bytecode import (
    compile_now,
    link_from_store,
    lock_path,
    python_tag,
    start_background,
    wait_for_store,
)

pytestmark = pytest.mark.integration

TAG = python_tag(f"{sys.version_info.major}.{sys.version_info.minor}")
PYTHON = Path(sys.executable)


def make_env(root: Path, modules: dict[str, str]) -> Path:
    site = root / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = site / "site-packages"
    for rel, text in modules.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text)
    return site


def linked_env(root: Path, like: Path) -> Path:
    """Another env whose sources are hard links of `like`'s (as uv links them from its cache)."""
    site = root / like.relative_to(like.parents[2])
    for source in sorted(like.rglob("*.py")):
        (site / source.relative_to(like)).parent.mkdir(parents=True, exist_ok=True)
        (site / source.relative_to(like)).hardlink_to(source)
    return site


def code_of(pyc: Path) -> object:
    data = pyc.read_bytes()
    assert data[:4] == importlib.util.MAGIC_NUMBER, pyc
    return marshal.loads(data[16:])  # noqa: S302 - bytecode this test compiled


MODULES = {
    "good.py": "x = 1\n",
    "py2only.py": "print 'x'\n",
    "pkg/__init__.py": "",
    "pkg/mod.py": "def f():\n    return 2\n",
}


def test_compile_now_stores_path_free_bytecode_and_links_it(tmp_path: Path) -> None:
    site = make_env(tmp_path / "one", MODULES)
    folder = tmp_path / "store" / TAG
    linked, left = link_from_store(tmp_path / "one", folder, TAG)
    assert (linked, len(left)) == (0, 4)
    summary = compile_now(PYTHON, folder, TAG, left, timeout=120)
    assert summary == {"compiled": 3, "failed": 1, "linked": 3}
    pyc = site / "pkg" / "__pycache__" / f"mod.{TAG}.pyc"
    assert pyc.stat().st_nlink == 2  # the env's name and the store's
    code = code_of(pyc)
    assert code.co_filename == "pkg/mod.py"  # type: ignore[attr-defined]
    assert str(tmp_path).encode() not in pyc.read_bytes()
    names = sorted(p.name.rsplit(".", 1)[1] for p in folder.iterdir())
    assert names == ["none", "pyc", "pyc", "pyc"]
    # A second env with the same (hard-linked) sources: everything from the store, no compile.
    second = linked_env(tmp_path / "two", site)
    assert link_from_store(tmp_path / "two", folder, TAG) == (3, [])
    assert (second / "pkg" / "__pycache__" / f"mod.{TAG}.pyc").samefile(pyc)


def test_background_job_replaces_import_time_bytecode_and_keeps_a_wheels(tmp_path: Path) -> None:
    site = make_env(tmp_path / "env", MODULES)
    (site / "__pycache__").mkdir()
    shipped = site / "__pycache__" / f"good.{TAG}.pyc"
    shipped.write_bytes(b"the wheel's own")  # older than the build: kept
    os.utime(shipped, ns=(1, 1))
    folder = tmp_path / "store" / TAG
    folder.mkdir(parents=True)
    stale = folder / "tmp-999999999-0"  # a killed job's temp file (no such pid)
    stale.write_bytes(b"half")
    (tmp_path / "env" / "envgen-build.json").write_text("{}")
    # Python compiled pkg/mod.py at import after the build: one link, newer than the marker.
    written = site / "pkg" / "__pycache__" / f"mod.{TAG}.pyc"
    written.parent.mkdir()
    written.write_bytes(b"written at import")
    _, left = link_from_store(tmp_path / "env", folder, TAG)
    pid = start_background(PYTHON, tmp_path / "env", folder, TAG, left)
    assert pid is not None
    assert wait_for_store(folder, timeout=120)
    assert shipped.read_bytes() == b"the wheel's own"
    assert written.stat().st_nlink == 2
    assert code_of(written).co_filename == "pkg/mod.py"  # type: ignore[attr-defined]
    assert not stale.exists()
    assert not list(written.parent.glob("*.envgen-*"))


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_a_killed_job_leaves_only_complete_entries(tmp_path: Path) -> None:
    body = "".join(
        f"def f{i}(a, b):\n    return [a * b + {i} for _ in range(3)]\n" for i in range(300)
    )
    modules = {f"m{i:04d}.py": body for i in range(300)}
    make_env(tmp_path / "env", modules)
    folder = tmp_path / "store" / TAG
    _, left = link_from_store(tmp_path / "env", folder, TAG)
    pid = start_background(PYTHON, tmp_path / "env", folder, TAG, left)
    assert pid is not None
    time.sleep(0.5)
    os.killpg(pid, signal.SIGKILL)  # its own session: the job and its worker processes
    for _ in range(100):
        if wait_for_store(folder, timeout=0.1):
            break
    entries = sorted(folder.glob("*.pyc"))
    assert len(entries) < len(modules), "the job finished before the kill: nothing was tested"
    for entry in entries:
        code_of(entry)  # complete: the right magic number and a whole code object
    # The next job compiles the rest and removes the killed job's temp files.
    _, left = link_from_store(tmp_path / "env", folder, TAG)
    assert compile_now(PYTHON, folder, TAG, left, timeout=300)["failed"] == 0
    pid = start_background(PYTHON, tmp_path / "env", folder, TAG, [])
    assert wait_for_store(folder, timeout=120)
    assert sorted(p.name for p in folder.iterdir() if not p.name.endswith(".pyc")) == []
    assert len(list(folder.glob("*.pyc"))) == len(modules)
    assert lock_path(folder).exists()


def test_a_zombie_workers_temp_file_is_removed(tmp_path: Path) -> None:
    """A killed job's pool worker whose parent died too stays a zombie where nothing reaps it (a
    container without an init): `kill -0` succeeds on it, so its temp file must still go."""
    from envgen.build import pyc_job

    child = os.fork()
    if child == 0:
        os._exit(0)
    time.sleep(0.2)  # the child has exited and is not reaped: a zombie
    try:
        (tmp_path / f"tmp-{child}-7").write_bytes(b"half a pyc")
        (tmp_path / f"tmp-{os.getpid()}-7").write_bytes(b"a live job's")
        pyc_job._clean(str(tmp_path))
        assert sorted(p.name for p in tmp_path.iterdir()) == [f"tmp-{os.getpid()}-7"]
    finally:
        os.waitpid(child, 0)
