"""The dependency rule of CONTRIBUTING.md, as import-linter contracts in pyproject.toml."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from importlinter import cli as importlinter_cli

ROOT = Path(__file__).parents[3]


def test_the_dependency_rule_holds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """import-linter reads [tool.importlinter] and checks every contract (1 when one breaks).

    Function-local imports count: grimp reads every import statement of a module.
    """
    monkeypatch.chdir(ROOT)
    # Its CLI configures logging with dictConfig, whose disable_existing_loggers=True default
    # silences every logger already made (envgen's) for the rest of the test process.
    monkeypatch.setattr(importlinter_cli, "_configure_logging", lambda *_args: None)
    code = importlinter_cli.lint_imports(
        config_filename=os.fspath(ROOT / "pyproject.toml"), no_cache=True
    )
    out = capsys.readouterr().out
    assert code == 0, out[-4000:]
    assert "0 broken" in out
