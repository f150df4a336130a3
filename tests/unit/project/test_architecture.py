"""The dependency rule of CONTRIBUTING.md, as import-linter contracts in pyproject.toml."""

from __future__ import annotations

import ast
import importlib
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


def _facade_imports() -> dict[str, str]:
    """name -> module of envgen/app/__init__.py's TYPE_CHECKING imports."""
    tree = ast.parse((ROOT / "envgen" / "app" / "__init__.py").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If):  # `if TYPE_CHECKING:`, the only block with imports
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom)
                assert stmt.module is not None
                for alias in stmt.names:
                    assert alias.asname == alias.name  # an explicit re-export
                    found[alias.name] = stmt.module
        else:  # nothing of envgen at run time: the facade loads a module on first use
            assert not (
                isinstance(node, ast.ImportFrom) and (node.module or "").startswith("envgen")
            )
    return found


def test_the_app_facade_names_each_export_once_and_lazily() -> None:
    """envgen.app's lazy table, its typed imports and its modules agree: every public function
    of envgen/app/_*.py is exported, from the module that defines it."""
    import envgen.app

    where = envgen.app._WHERE
    assert _facade_imports() == where
    for name, module in where.items():
        assert getattr(importlib.import_module(module), name) is getattr(envgen.app, name)
    defined = {
        f"{node.name}": f"envgen.app.{path.stem}"
        for path in sorted((ROOT / "envgen" / "app").glob("_*.py"))
        if path.name != "__init__.py"
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
    }
    missing = {n: m for n, m in defined.items() if where.get(n) != m}
    # guarded / guarded_env_dir: the modules' own helper, not a command
    assert missing == {
        "guarded": "envgen.app._guard",
        "guarded_env_dir": "envgen.app._guard",
    }
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        envgen.app.nonesuch  # noqa: B018 - the lookup is the test
