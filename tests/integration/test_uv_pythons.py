"""Old pythons against the real uv and interpreters: what uv provides, listing without
importlib.metadata (Python 3.6/3.7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from envgen.build.builder import _LIST_DISTRIBUTIONS, installed_distributions
from envgen.build.interpreter import uv_provides
from envgen.infra import proc as _proc
from tests.support.conda_channel import find_python

pytestmark = pytest.mark.integration


@pytest.fixture
def bare_env(tmp_path: Path) -> dict[str, str]:
    """uv with nothing to find: an empty PATH and an empty managed-python folder."""
    (tmp_path / "bin").mkdir()
    env = _proc.clean_env()
    env.update(PATH=str(tmp_path / "bin"), UV_PYTHON_INSTALL_DIR=str(tmp_path / "pythons"),
               UV_CACHE_DIR=str(tmp_path / "cache"), UV_OFFLINE="1")  # fmt: skip
    return env


@pytest.mark.parametrize(("python", "provided"), [("3.6", False), ("3.7", False), ("3.11", True)])
def test_uv_downloads_start_at_3_8(python: str, provided: bool, bare_env: dict[str, str]) -> None:
    uv = _proc.require("uv", why="tests")
    assert uv_provides(uv, python, bare_env) is provided


@pytest.mark.skipif(find_python("3.7") is None, reason="no CPython 3.7 here (pyenv)")
def test_uv_provides_a_python_it_finds(tmp_path: Path, bare_env: dict[str, str]) -> None:
    """A python uv cannot download but finds on PATH stays on the uv route."""
    uv = _proc.require("uv", why="tests")
    assert uv_provides(uv, "3.7", bare_env) is False
    found = find_python("3.7")
    assert found is not None
    (tmp_path / "bin" / "python3.7").symlink_to(found)
    assert uv_provides(uv, "3.7", bare_env) is True


def test_listing_without_importlib_metadata_matches_importlib_metadata() -> None:
    """Python 3.6/3.7 have no importlib.metadata: the fallback reads the same dist-info."""
    python = _proc.require("python3", why="tests")
    hidden = "import sys; sys.modules['importlib.metadata'] = None\n"
    fallback = _proc.run([python, "-I", "-c", hidden + _LIST_DISTRIBUTIONS], what="list").stdout
    rows = json.loads(fallback)["distributions"]
    found, _ = installed_distributions(Path(python))
    assert rows
    listed = {(canonicalize_name(name), version) for name, version, _ in rows}
    assert listed == {(d.name, d.version) for d in found.values()}
