"""Shared test setup: hermetic environment variables and the fixture plugin in tests/support."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["tests.support.fixtures", "tests.support.corpus_report"]

# tests/data holds other projects' files (tests/data/real: real repositories' setup.py and
# scripts): data to import, never modules to collect or run (--doctest-modules would import them).
collect_ignore_glob = ["data/*"]

_DROP_PREFIXES = ("PIP_", "UV_", "CONDA_", "ENVGEN_", "VIRTUAL_ENV")
# `make test` (CI's entry) exports these; a `make` a test runs would inherit them and print
# "make[1]: Entering directory" and "make[1]: ***" where a user's top-level make prints "make:".
_DROP_MAKE = ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES", "MAKE_TERMOUT", "MAKE_TERMERR")


@pytest.fixture(scope="session")
def _config_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("config-home")


@pytest.fixture(autouse=True)
def _hermetic_env(monkeypatch: pytest.MonkeyPatch, _config_home: Path) -> None:
    """Tests never see the machine's pip/uv/conda/envgen settings (pip-tools' _isolate_pip_env).

    XDG_CONFIG_HOME: the build key (envgen.infra.buildkey) of the test session, not the user's.
    """
    for key in list(os.environ):
        if key.startswith(_DROP_PREFIXES) or key in _DROP_MAKE:
            monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(_config_home))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run integration tests last (pypa/build's tests/conftest.py does the same)."""
    items.sort(key=lambda item: 1 if item.get_closest_marker("integration") else 0)
