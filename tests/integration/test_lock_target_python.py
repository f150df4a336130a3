"""uv builds sdists with an interpreter of the target's minor when one is installed (issue 29 item 6).

Real uv; pyenv's interpreters (on this machine under ~/.pyenv/versions) stand in for uv's managed
ones once their bin/ is on PATH.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess  # noqa: TID251 - asks the found interpreter for its version
import sys
from pathlib import Path

import pytest

from envgen.infra import proc as _proc
from envgen.lock import pythons

pytestmark = [pytest.mark.integration]

PYENV_38 = sorted((Path.home() / ".pyenv" / "versions").glob("3.8.*/bin"))


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pythons, "_found", {})


def _uv() -> str:
    return _proc.require("uv", why="test")


@pytest.mark.skipif(not PYENV_38, reason="no pyenv python 3.8 on this machine")
def test_the_target_minor_builds_sdists(caplog: pytest.LogCaptureFixture) -> None:
    env = {**os.environ, "PATH": f"{PYENV_38[-1]}{os.pathsep}{os.environ['PATH']}"}
    with caplog.at_level(logging.INFO, logger="envgen.lock.pythons"):
        found = pythons.build_interpreter(_uv(), "3.8", env, who="cu102")
    assert found != sys.executable
    out = subprocess.run(
        [found, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert out.strip() == "3.8"
    assert f"cu102: sdists are built with python 3.8 at {found}" in caplog.text


def test_no_interpreter_is_said_and_the_host_builds(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # PATH without any python 3.5; uv-managed pythons moved to an empty directory
    env = {
        "PATH": str(Path(_uv()).parent),
        "HOME": str(tmp_path),
        "UV_PYTHON_INSTALL_DIR": str(tmp_path / "none"),
    }
    with caplog.at_level(logging.WARNING, logger="envgen.lock.pythons"):
        found = pythons.build_interpreter(_uv(), "3.5", env, who="cpu")
    assert found == sys.executable
    assert (
        "cpu: no python 3.5 interpreter on this machine; sdists are built with the host's python "
        f"{pythons.host_minor()}, whose setup.py answers may differ from 3.5's "
        "(install one: `uv python install 3.5`, or put its bin/ on PATH)"
    ) in caplog.text


@pytest.mark.skipif(not PYENV_38, reason="no pyenv python 3.8 on this machine")
def test_a_found_interpreter_is_remembered_between_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look-up (0.1-2 s of uv) runs once; a later run (a new process: `_found` empty) reads
    the answer back while PATH and its folders are unchanged (issue 27, uv call overhead)."""
    env = {**os.environ, "PATH": f"{PYENV_38[-1]}{os.pathsep}{os.environ['PATH']}"}
    found = pythons.build_interpreter(_uv(), "3.8", env, who="cu102", cache_dir=tmp_path)
    assert found != sys.executable
    monkeypatch.setattr(pythons, "_found", {})
    # /bin/false as uv finds nothing: the answer can only come from the record.
    again = pythons.build_interpreter("/bin/false", "3.8", env, who="cu102", cache_dir=tmp_path)
    assert again == found


def test_a_remembered_answer_is_searched_again_when_a_folder_changes(tmp_path: Path) -> None:
    managed = tmp_path / "managed"
    env = {"PATH": str(Path(_uv()).parent), "HOME": str(tmp_path),
           "UV_PYTHON_INSTALL_DIR": str(managed)}  # fmt: skip
    assert pythons.build_interpreter(_uv(), "3.5", env, who="cpu", cache_dir=tmp_path) == (
        sys.executable
    )
    record = tmp_path / "pythons" / "3.5.json"
    assert json.loads(record.read_text()) == {"key": pythons.search_key(env), "path": ""}
    managed.mkdir()  # `uv python install` made its folder: the old answer no longer holds
    pythons._found.clear()
    pythons.build_interpreter(_uv(), "3.5", env, who="cpu", cache_dir=tmp_path)
    key = json.loads(record.read_text())["key"]
    assert [str(managed), managed.stat().st_mtime_ns] in key
