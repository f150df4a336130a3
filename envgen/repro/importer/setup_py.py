"""setup.py, read with ast and never executed: only literal lists of strings count."""

from __future__ import annotations

import ast
from pathlib import Path

from envgen.repro.importer.declared import Declared, parse_declared, too_deep
from envgen.repro.importer.evidence import Evidence


def setup_py(text: str, source: str) -> Declared:
    """install_requires and python_requires of a setup.py, read with ast (never executed).

    Only literal lists or tuples of strings count, directly or through a module-level name
    (`install_requires=requirements` where `requirements = [...]`).
    """
    declared = Declared()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        declared.warnings.append(f"{source}: not valid Python ({exc.__class__.__name__}); skipped")
        return declared
    except (RecursionError, MemoryError):
        # A 300,000-term expression: CPython's parser gives up when it builds the tree.
        declared.refused = too_deep(source, "an expression")
        return declared
    names: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                names[target.id] = node.value
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or _call_name(call.func) != "setup":
            continue
        for kw in call.keywords:
            value = names.get(kw.value.id, kw.value) if isinstance(kw.value, ast.Name) else kw.value
            if kw.arg == "install_requires":
                items = _literal_strings(value)
                if items is None:
                    declared.warnings.append(
                        f"{source}:{kw.value.lineno}: install_requires is computed, not a list "
                        "of strings; not read (setup.py is never run)"
                    )
                else:
                    declared.requirements += items
            elif (
                kw.arg == "python_requires"
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                declared.python_requires = (value.lineno, value.value)
    return declared


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal_strings(node: ast.expr) -> list[tuple[int, str]] | None:
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    out: list[tuple[int, str]] = []
    for item in node.elts:
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            return None
        out.append((item.lineno, item.value))
    return out


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """A setup.py's install_requires and python_requires (read with ast, never run)."""
    parse_declared(setup_py(text, found.source), found)
