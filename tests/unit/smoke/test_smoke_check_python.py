"""envgen/smoke/script.py and envgen/build/pyc_job.py (the bytecode store's compile job) run
inside every environment the matrix admits: python 3.6 and later.

vermin (a dev dependency) computes the minimum python the script needs from its syntax and the
standard-library names it uses; an ast check adds what vermin cannot see: annotations are
evaluated at definition time without `from __future__ import annotations`, so any annotation that
is not a plain name must be a string (`"str | None"` is fine on 3.6, `str | None` is a TypeError).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import envgen

SCRIPT = Path(envgen.__file__).parent / "smoke" / "script.py"
SCRIPTS = (SCRIPT, Path(envgen.__file__).parent / "build" / "pyc_job.py")
IDS = ("smoke", "pyc_job")
OLDEST: tuple[int, int] = (3, 6)


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_vermin_minimum_is_python_3_6(script: Path) -> None:
    vermin = pytest.importorskip("vermin")
    minimum = vermin.detect(script.read_text(encoding="utf-8"))
    assert minimum[1] is not None
    assert minimum[1] <= OLDEST, f"{script.name} needs python {minimum[1]}"


def test_vermin_sees_what_breaks_python_3_6() -> None:
    # The check itself can fail: the module's old header needed 3.7.
    vermin = pytest.importorskip("vermin")
    assert vermin.detect("from __future__ import annotations\n")[1] == (3, 7)


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_parses_with_the_python_3_6_grammar(script: Path) -> None:
    ast.parse(script.read_text(encoding="utf-8"), feature_version=OLDEST)


def _annotations(tree: ast.AST) -> list[ast.expr]:
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            args = [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]
            found += [x.annotation for x in args if x is not None and x.annotation is not None]
            if node.returns is not None:
                found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return found


def _unsafe(tree: ast.AST) -> list[str]:
    """Annotations evaluated at runtime that python 3.6 cannot evaluate (not a name, not a str)."""
    return [
        f"line {ann.lineno}: {ast.unparse(ann)}"
        for ann in _annotations(tree)
        if not isinstance(ann, ast.Constant | ast.Name | ast.Attribute)
    ]


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_annotations_are_safe_without_postponed_evaluation(script: Path) -> None:
    tree = ast.parse(script.read_text(encoding="utf-8"))
    futures = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "__future__"
        for alias in node.names
    ]
    assert "annotations" not in futures
    assert _unsafe(tree) == []


def test_the_annotation_check_can_fail() -> None:
    tree = ast.parse("def f(x: str | None) -> dict[str, int]:\n    pass\n")
    assert _unsafe(tree) == ["line 1: str | None", "line 1: dict[str, int]"]
