"""The dependency rule of CONTRIBUTING.md, as import-linter contracts in pyproject.toml."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from importlinter import cli as importlinter_cli

ROOT = Path(__file__).parents[2]


def test_the_dependency_rule_holds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """import-linter reads [tool.importlinter] and checks every contract (1 when one breaks).

    Function-local imports count: grimp reads every import statement of a module.
    """
    monkeypatch.chdir(ROOT)
    code = importlinter_cli.lint_imports(
        config_filename=os.fspath(ROOT / "pyproject.toml"), no_cache=True
    )
    out = capsys.readouterr().out
    assert code == 0, out[-4000:]
    assert "0 broken" in out
