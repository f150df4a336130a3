"""setup.py, read with ast and never executed: literal lists of strings, and values built from
the module's own string and list constants (a bounded constant propagation, no execution); a
requirements file the setup.py reads its install_requires from is read as that file."""

from __future__ import annotations

import ast
import copy
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

from envgen.repro.importer.declared import Declared, parse_declared, read_extras, too_deep
from envgen.repro.importer.evidence import Evidence
from envgen.repro.importer.requirements import include_file

# Bounds of the constant propagation (a hostile setup.py cannot make it work long or build big
# values): evaluation steps per file, characters per string, items per list, nesting depth.
_MAX_STEPS: Final = 20_000
_MAX_CHARS: Final = 64 * 1024
_MAX_ITEMS: Final = 1000
_MAX_DEPTH: Final = 32

# A value the propagation knows: a string, or a list of strings with the line each came from.
_Value = str | tuple[tuple[int, str], ...]

# Where setup() comes from: `from setuptools import setup as install` names it `install`.
_SETUP_MODULES: Final = frozenset({"setuptools", "distutils.core", "numpy.distutils.core"})


@dataclass(frozen=True, slots=True)
class _FileLines:
    """The lines of a file setup.py reads (`open("requirements.txt").read().splitlines()`)."""

    name: str  # the file's path relative to setup.py's folder, as the code names it
    line: int  # where setup.py reads it


def setup_py(text: str, source: str) -> Declared:
    """install_requires and python_requires of a setup.py, read with ast (never executed).

    Literal lists or tuples of strings count, directly or through module-level names, and so do
    values built from module-level string and list constants by a bounded constant propagation
    (`"torch==" + TORCH_VERSION`, f-strings, `"torch=={}".format(V)`, `BASE + EXTRA`,
    `deps.append(...)`, `setup(**kwargs)` of a literal dict, `REQS["install"]` of one): never a
    call of the file's own functions, never a file read.
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
    constants = _Constants()
    names = _setup_names(tree)
    constants.setup_names = names
    constants.bind(tree.body)
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or _call_name(call.func) not in names:
            continue
        for arg, expr in constants.keywords(call):
            value = constants.value(expr)
            if arg == "install_requires":
                lines = constants.file_lines(expr)
                if lines is not None:
                    declared.includes.append((lines.line, lines.name))
                    _said_helpers(constants, declared, source)
                    continue
                if isinstance(value, str):  # setuptools reads a string as one requirement a line
                    value = tuple((expr.lineno, ln) for ln in value.splitlines() if ln.strip())
                if value is None:
                    declared.warnings.append(
                        f"{source}:{expr.lineno}: install_requires is computed, not a list "
                        "of strings; not read (setup.py is never run)"
                    )
                else:
                    declared.requirements += list(value)
                    _said_guesses(constants, declared, source)
            elif arg == "python_requires" and isinstance(value, str):
                declared.python_requires = (expr.lineno, value)
            elif arg == "extras_require":
                declared.extras += _extras(expr, constants)
    return declared


def _extras(expr: ast.expr, constants: _Constants) -> list[tuple[str, list[tuple[int, str]]]]:
    """extras_require's extras (a literal dict, `dict(...)` or a name bound to one), each with
    the requirements the propagation knows."""
    pairs = _dict_items(expr)
    if pairs is None and isinstance(expr, ast.Name):
        pairs = constants.dicts.get(expr.id)
    out: list[tuple[str, list[tuple[int, str]]]] = []
    for extra, item in pairs or []:
        listed = constants.value(item)
        if isinstance(listed, str):
            listed = tuple((item.lineno, ln) for ln in listed.splitlines() if ln.strip())
        if listed is not None:
            out.append((extra, list(listed)))
    return out


def _said_helpers(constants: _Constants, declared: Declared, source: str) -> None:
    for line, function, path in sorted(set(constants.helpers)):
        declared.warnings.append(
            f"{source}:{line}: install_requires comes from the file's own {function}(), which "
            f"opens {path}; read as that requirements file (setup.py is never run)"
        )


def _said_guesses(constants: _Constants, declared: Declared, source: str) -> None:
    for line in sorted(set(constants.chosen)):
        declared.warnings.append(
            f"{source}:{line}: a conditional requirement (`a if test else b`) depends on the "
            "machine that runs setup.py; read as its first branch"
        )
    for line in sorted(set(constants.skipped)):
        declared.warnings.append(
            f"{source}:{line}: part of install_requires comes from a call of the file's own "
            "code (never run); read without it"
        )


def _setup_names(tree: ast.Module) -> set[str]:
    """The names setup() is called by: `setup`, and what `from setuptools import setup as X`
    (or distutils.core's) binds."""
    names = {"setup"}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in _SETUP_MODULES:
            names.update(a.asname for a in node.names if a.name == "setup" and a.asname)
    return names


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


class _Constants:
    """Module-level names bound to strings and lists of strings, followed in statement order.

    Only what the module's own top-level statements say without running anything: assignments
    (a name rebound to anything else is forgotten), `+=`, and `name.append(...)` /
    `name.extend(...)` on a known list. Bounded by _MAX_STEPS, _MAX_CHARS, _MAX_ITEMS and
    _MAX_DEPTH: past a bound the value is unknown (None), never an error.
    """

    def __init__(self) -> None:
        self.env: dict[str, _Value] = {}
        self.dicts: dict[str, list[tuple[str, ast.expr]]] = {}  # `kwargs = dict(...)`
        self.files: dict[str, str] = {}  # `with open("requirements.txt") as f`: f -> the path
        self.read: dict[str, _FileLines] = {}  # names bound to a file's lines
        self.texts: dict[str, str] = {}  # names bound to a file's text (`reqs = f.read()`)
        self.setup_names: set[str] = {"setup"}  # what setup() is called by (their bodies bind)
        self.functions: dict[str, ast.FunctionDef] = {}  # the module's own top-level functions
        self.helpers: list[tuple[int, str, str]] = []  # (line, function, file) read through one
        self.steps = 0
        self.chosen: list[int] = []  # lines of `a if test else b` read as `a`
        self.skipped: list[int] = []  # lines of a list's unknown call part left out
        self.nones: set[str] = set()  # names whose last binding is the constant None

    def bind(self, body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Try):
                # `try: REQUIRED = open(...)... except: REQUIRED = []`: the try body is the case
                # the file was written for (the handler is its fallback when the file is absent).
                # A try that imports probes the machine running setup.py (`try: import torch;
                # reqs = []`): an environment being made has not got the package, so the
                # handler's case is the one that runs there; such a try is not read.
                if not any(isinstance(n, ast.Import | ast.ImportFrom) for n in node.body):
                    self.bind(node.body + node.orelse + node.finalbody)
            elif isinstance(node, ast.With):
                for item in node.items:
                    opened = _opened(item.context_expr)
                    if opened is not None and isinstance(item.optional_vars, ast.Name):
                        self.files[item.optional_vars.id] = opened
                self.bind(node.body)
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name):
                        self._assign(target.id, node.value)
                    elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                        self._set_item(target.value.id, target.slice, node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                name = node.target.id
                self.nones.discard(name)
                added = self.value(node.value)
                self._set(
                    name, _add(self.env.get(name), added) if isinstance(node.op, ast.Add) else None
                )
            elif isinstance(node, ast.Expr | ast.For):
                self._grow(node)
            elif isinstance(node, ast.If) and (branch := self._branch(node)) is not None:
                self.bind(branch)
            elif isinstance(node, ast.FunctionDef) and self._calls_setup(node):
                # `def main(): ... setup(...)`: the names its setup() call reads are bound in it
                self.bind(node.body)
            elif isinstance(node, ast.FunctionDef):
                self.functions[node.name] = node

    def _grow(self, node: ast.Expr | ast.For) -> None:
        """`reqs.append(x)` / `reqs.extend(xs)` on a known list; `for line in f:
        reqs.append(line.strip())` is `reqs += [line.strip() for line in f]`, read as that
        comprehension is; any other loop binds nothing."""
        if isinstance(node, ast.Expr):
            if isinstance(node.value, ast.Call):
                self._mutate(node.value)
            return
        grown = _appending_loop(node)
        if grown is None:
            return
        name, listed = grown
        if self.env.get(name) == () and name not in self.read:
            self._assign(name, listed)  # onto an empty list: the file's lines
            return
        added = self.value(listed)
        if isinstance(added, tuple) and isinstance(self.env.get(name), tuple):
            self.nones.discard(name)
            self._set(name, _add(self.env.get(name), added))
        # else the list keeps what is known of it: the loop's items are not

    def _set_item(self, name: str, key: ast.expr, expr: ast.expr) -> None:
        """`extras["all"] = [...]` on a known dict adds that key, its value read now (`[r for
        group in extras.values() for r in group]`: every extra's so far); any other change
        leaves the dict's keys unknown."""
        pairs = self.dicts.get(name)
        if pairs is not None and isinstance(key, ast.Constant) and isinstance(key.value, str):
            value = self._all_values(expr, name, pairs)
            if value is None:
                value = self.value(expr)
            if isinstance(value, tuple):
                items: list[ast.expr] = [
                    ast.Constant(text, lineno=line, col_offset=0) for line, text in value
                ]
                listed = ast.List(elts=items, ctx=ast.Load(), lineno=expr.lineno, col_offset=0)
                kept = [(k, v) for k, v in pairs if k != key.value]  # a key set again replaces
                self.dicts[name] = [*kept, (key.value, listed)]
                return
        self.dicts.pop(name, None)

    def _all_values(
        self, expr: ast.expr, name: str, pairs: list[tuple[str, ast.expr]]
    ) -> _Value | None:
        """`[r for group in NAME.values() for r in group]` (or a set of them): every value's
        items, in order, once each."""
        if _values_of(expr) != name or not isinstance(expr, ast.ListComp | ast.SetComp):
            return None
        outer, inner = expr.generators
        if not (
            isinstance(outer.target, ast.Name)
            and isinstance(inner.iter, ast.Name)
            and inner.iter.id == outer.target.id
            and isinstance(inner.target, ast.Name)
            and isinstance(expr.elt, ast.Name)
            and expr.elt.id == inner.target.id
            and not outer.ifs
            and not inner.ifs
        ):
            return None
        out: dict[str, int] = {}
        for _, item in pairs:
            listed = self.value(item)
            if not isinstance(listed, tuple):
                return None
            for line, text in listed:
                out.setdefault(text, line)
        return tuple((line, text) for text, line in out.items())

    def _branch(self, node: ast.If) -> list[ast.stmt] | None:
        """The statements of a module-level `if` that run when setup.py runs, where that is
        known: `if __name__ == "__main__":` holds (pip runs setup.py as a script); `if BACKEND ==
        "triton": reqs = [...] else: reqs = ["torch", ...]` where BACKEND is a known constant
        (None, set only in an `if` this reader does not follow: an opt-in route such as an
        environment variable's) takes the branch its value takes. None: not followed."""
        if _main_guard(node.test):
            return node.body
        holds = self._decided(node.test)
        if holds is None:
            return None
        return node.body if holds else node.orelse

    def _decided(self, test: ast.expr) -> bool | None:
        """Whether `NAME == "text"` (or `!=`, either way round) holds, where NAME's value is a
        known string or None; None when the test is anything else or NAME is not known."""
        if not (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.Eq | ast.NotEq)
        ):
            return None
        sides = [test.left, test.comparators[0]]
        names = [n.id for n in sides if isinstance(n, ast.Name)]
        constants = [c.value for c in sides if isinstance(c, ast.Constant)]
        if len(names) != 1 or len(constants) != 1 or not isinstance(constants[0], str | None):
            return None
        known = self.env.get(names[0])
        if isinstance(known, str) or names[0] in self.nones:
            equal = (known if isinstance(known, str) else None) == constants[0]
            return equal if isinstance(test.ops[0], ast.Eq) else not equal
        return None

    def _calls_setup(self, node: ast.FunctionDef) -> bool:
        return any(
            isinstance(n, ast.Call) and _call_name(n.func) in self.setup_names
            for n in ast.walk(node)
        )

    def _assign(self, name: str, expr: ast.expr) -> None:
        if isinstance(expr, ast.Constant) and expr.value is None:
            self.nones.add(name)
        else:
            self.nones.discard(name)
        self.dicts.pop(name, None)
        self.read.pop(name, None)
        self.texts.pop(name, None)
        if isinstance(expr, ast.Call) and _method(expr, "read"):
            path = self._reader(expr.func.value, expr.lineno)  # type: ignore[attr-defined] # _method checked the shape
            if path is not None:
                self.texts[name] = path.name
        lines = self.file_lines(expr)
        if lines is not None:
            self.read[name] = lines
        pairs = _dict_items(expr)
        if pairs is not None:
            self.dicts[name] = pairs
        over = _values_of(expr)  # `requirements = [y for x in dep_groups.values() for y in x]`
        if over is not None and over in self.dicts:
            self._set(name, self._all_values(expr, over, self.dicts[over]))
            return
        self._set(name, self.value(expr))

    def _set(self, name: str, value: _Value | None) -> None:
        if value is None:
            self.env.pop(name, None)
        else:
            self.env[name] = value

    def _mutate(self, call: ast.Call) -> None:
        func = call.func
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.attr in {"append", "extend"}
            and len(call.args) == 1
        ):
            return
        name, current = func.value.id, self.env.get(func.value.id)
        if not isinstance(current, tuple):
            return
        item = self.value(call.args[0])
        added: _Value | None
        if func.attr == "append":
            added = ((call.args[0].lineno, item),) if isinstance(item, str) else None
        else:
            added = item if isinstance(item, tuple) else None
        self._set(name, _add(current, added))

    def keywords(self, call: ast.Call) -> list[tuple[str, ast.expr]]:
        """setup()'s keyword arguments, `**kwargs` of a literal dict included."""
        out: list[tuple[str, ast.expr]] = []
        for kw in call.keywords:
            if kw.arg is not None:
                out.append((kw.arg, kw.value))
                continue
            pairs = _dict_items(kw.value)
            if pairs is None and isinstance(kw.value, ast.Name):
                pairs = self.dicts.get(kw.value.id)
            out.extend(pairs or [])
        return out

    def file_lines(self, node: ast.expr) -> _FileLines | None:  # noqa: PLR0911 - one return per way of reading a file
        """The lines of a file `node` reads, or None.

        `F.read().splitlines()`, `F.read().split("\\n")` (a `.strip()` between allowed),
        `F.readlines()`, `list(F)` and a comprehension over any of them or over F itself
        (`[ln.strip() for ln in F if ln.strip()]`: its filters and strip drop what a
        requirements file's reader drops), where F is `open(PATH)` or the name a
        `with open(PATH) as F` binds; or a name bound to such lines.
        """
        if isinstance(node, ast.Name):
            return self.read.get(node.id)
        helper = self._helper_file(node)
        if helper is not None:
            return helper
        if isinstance(node, ast.ListComp) and node.generators:
            source = node.generators[0].iter
            return self.file_lines(source) or self._reader(source, node.lineno)
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        if isinstance(func, ast.Name) and func.id == "list" and len(node.args) == 1:
            return self._reader(node.args[0], node.lineno)
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if (
            called == "parse_requirements"
            and len(node.args) == 1
            and not node.keywords
            and "parse_requirements" not in self.functions  # the module's own filters lines
        ):
            # `pkg_resources.parse_requirements(open("requirements.txt"))` (or its text): the
            # file's requirements, comments and blank lines dropped as pip drops them
            return self._reader(node.args[0], node.lineno) or self.file_lines(node.args[0])
        if not isinstance(func, ast.Attribute):
            return None
        if func.attr == "readlines" and not node.args:
            return self._reader(func.value, node.lineno)
        splits = func.attr == "splitlines" and not node.args
        splits |= (
            func.attr == "split"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == "\n"
        )
        text = func.value
        if isinstance(text, ast.Call) and _method(text, "strip"):
            text = text.func.value  # type: ignore[attr-defined] # _method checked the shape
        if splits and isinstance(text, ast.Call) and _method(text, "read"):
            return self._reader(text.func.value, node.lineno)  # type: ignore[attr-defined]
        if splits and isinstance(text, ast.Name) and text.id in self.texts:
            return _FileLines(self.texts[text.id], node.lineno)  # `reqs.strip().split("\n")`
        return None

    def _helper_file(self, node: ast.expr) -> _FileLines | None:
        """`read_requirements("requirements.txt")`: a call of the module's own function whose
        body opens one file, named by a string or by the parameter the call passes one for
        (`def read_requirements(path): with open(os.path.join(HERE, path)) as f: ...`). The
        function is never run; its file is read as the requirements file it is."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        func = self.functions.get(node.func.id)
        if func is None:
            return None
        params = [a.arg for a in func.args.args]
        bound: dict[str, str] = {}
        defaults = func.args.defaults
        for name, default in zip(params[len(params) - len(defaults) :], defaults, strict=True):
            if isinstance(default, ast.Constant) and isinstance(default.value, str):
                bound[name] = default.value
        for name, arg in zip(params, node.args, strict=False):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                bound[name] = arg.value
        for kw in node.keywords:
            if kw.arg and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                bound[kw.arg] = kw.value.value
        opened = {p for n in ast.walk(func) if (p := _opened(n, bound)) is not None}
        if len(opened) != 1:
            return None  # no file, or several: not a requirements reader envgen can follow
        path = opened.pop()
        self.helpers.append((node.lineno, func.name, path))
        return _FileLines(path, node.lineno)

    def _reader(self, node: ast.expr, line: int) -> _FileLines | None:
        path = self.files.get(node.id) if isinstance(node, ast.Name) else _opened(node)
        return None if path is None else _FileLines(path, line)

    def value(self, node: ast.expr, depth: int = 0) -> _Value | None:
        """The string or list of strings `node` evaluates to, or None when it is not known."""
        self.steps += 1
        if self.steps > _MAX_STEPS or depth > _MAX_DEPTH:
            return None
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        if isinstance(node, ast.Name):
            return self.env.get(node.id)
        if isinstance(node, ast.List | ast.Tuple):
            return self._items(node.elts, depth)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self._plus(node, depth)
        if isinstance(node, ast.JoinedStr):
            parts = [self._formatted(v, depth) for v in node.values]
            return (
                _bounded("".join(p for p in parts if p is not None)) if None not in parts else None
            )
        if isinstance(node, ast.Call | ast.Subscript):
            return self._call_or_item(node, depth)
        return self._conditional(node, depth) if isinstance(node, ast.IfExp) else None

    def _call_or_item(self, node: ast.Call | ast.Subscript, depth: int) -> _Value | None:
        if isinstance(node, ast.Subscript):
            return self._subscript(node, depth)
        lines = self._split_call(node, depth)
        return lines if lines is not None else self._format_call(node, depth)

    def _plus(self, node: ast.BinOp, depth: int) -> _Value | None:
        left, right = self.value(node.left, depth + 1), self.value(node.right, depth + 1)
        if isinstance(left, tuple) and right is None and isinstance(node.right, ast.Call):
            # `[...] + get_opencv_requirement()`: the file's own function is never run; the
            # literal part is kept, said in a warning.
            self.skipped.append(node.right.lineno)
            return left
        return _add(left, right)

    def _subscript(self, node: ast.Subscript, depth: int) -> _Value | None:
        # `install_requires=requirements["install"]`: a string key of a module-level dict literal
        # (`requirements = {"install": [...], "test": [...]}`) or of a literal dict itself.
        key = node.slice
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None
        pairs = _dict_items(node.value)
        if pairs is None and isinstance(node.value, ast.Name):
            pairs = self.dicts.get(node.value.id)
        found = [item for name, item in pairs or [] if name == key.value]
        return self.value(found[-1], depth + 1) if found else None

    def _conditional(self, node: ast.IfExp, depth: int) -> _Value | None:
        # `"torch>=1.11" if LooseVersion(sys.version) >= "3.7" else "torch>=1.10"`: the test is
        # about the machine that runs setup.py, unknown here; the first branch is the case the
        # file was written for (the newer one), said in a warning.
        body = self.value(node.body, depth + 1)
        if body is not None and self.value(node.orelse, depth + 1) is not None:
            self.chosen.append(node.lineno)
            return body
        return None

    def _items(self, elts: list[ast.expr], depth: int) -> _Value | None:
        out: list[tuple[int, str]] = []
        for item in elts:
            if isinstance(item, ast.Starred):
                inner = self.value(item.value, depth + 1)
                if not isinstance(inner, tuple):
                    return None
                out.extend(inner)
                continue
            value = self.value(item, depth + 1)
            if isinstance(value, tuple):
                # `install_requires=[BASE]`: setuptools flattens nested lists (its requirement
                # reader, jaraco/jaraco.text jaraco/text/__init__.py yield_lines, recurses into
                # every iterable), so a list inside the list is its items.
                out.extend(value)
                continue
            if not isinstance(value, str):
                return None
            out.append((item.lineno, value))
        return tuple(out) if len(out) <= _MAX_ITEMS else None

    def _formatted(self, node: ast.expr, depth: int) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.FormattedValue) and node.format_spec is None:
            value = self.value(node.value, depth + 1)
            return value if isinstance(value, str) else None
        return None

    def _split_call(self, call: ast.Call, depth: int) -> _Value | None:
        """`to_list(\"\"\"...\"\"\")`: the file's own helper that splits a text into lines
        (its body calls `splitlines`), given a known text: its lines, `#` comments and blank
        lines dropped (fastai's `def to_list(buffer): return list(filter(None, map(cleanup,
        buffer.splitlines())))`)."""
        func = call.func
        if not (
            isinstance(func, ast.Name)
            and func.id in self.functions
            and len(call.args) == 1
            and not call.keywords
            and any(
                isinstance(n, ast.Attribute) and n.attr == "splitlines"
                for n in ast.walk(self.functions[func.id])
            )
        ):
            return None
        text = self.value(call.args[0], depth + 1)
        if not isinstance(text, str):
            return None
        out: list[tuple[int, str]] = []
        for offset, line in enumerate(text.splitlines()):
            kept = re.sub(r"\s*#.*", "", line).strip()
            if kept:
                out.append((call.args[0].lineno + offset, kept))
        return tuple(out) if len(out) <= _MAX_ITEMS else None

    def _format_call(self, call: ast.Call, depth: int) -> _Value | None:
        """`"torch=={}".format(V)` (positional and keyword fields) and `sep.join(list)` of known
        strings."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "join" and len(call.args) == 1:
            # `">=".join(["torch", TORCH_MIN])`: a known separator over a known list.
            sep, items = self.value(func.value, depth + 1), self.value(call.args[0], depth + 1)
            if isinstance(sep, str) and isinstance(items, tuple) and not call.keywords:
                return _bounded(sep.join(text for _, text in items))
            return None
        if not (isinstance(func, ast.Attribute) and func.attr == "format"):
            return None
        template = self.value(func.value, depth + 1)
        args = [self.value(a, depth + 1) for a in call.args]
        kwargs = {k.arg: self.value(k.value, depth + 1) for k in call.keywords if k.arg}
        if not isinstance(template, str) or not all(isinstance(a, str) for a in args):
            return None
        if len(kwargs) != len(call.keywords) or not all(
            isinstance(v, str) for v in kwargs.values()
        ):
            return None
        try:
            return _bounded(template.format(*args, **kwargs))
        except (IndexError, KeyError, ValueError, AttributeError):
            return None


def _values_of(expr: ast.expr) -> str | None:
    """The dict NAME that `[... for g in NAME.values() for ... in g]` walks, else None."""
    if not isinstance(expr, ast.ListComp | ast.SetComp) or len(expr.generators) != 2:
        return None
    values = expr.generators[0].iter
    if (
        isinstance(values, ast.Call)
        and isinstance(values.func, ast.Attribute)
        and values.func.attr == "values"
        and isinstance(values.func.value, ast.Name)
        and not values.args
    ):
        return values.func.value.id
    return None


def _main_guard(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round)."""
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and values == ["__main__"]


def _method(call: ast.Call, name: str) -> bool:
    """`call` is `X.name()` with no arguments."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == name and not call.args


def _opened(node: ast.AST, bound: dict[str, str] | None = None) -> str | None:
    """The relative path `open(PATH, ...)` (or io.open / codecs.open) reads, or None.

    PATH is a string, `os.path.join(..., "requirements.txt")` or `HERE / "requirements.txt"`
    (`(HERE / "requirements.txt").open()` too):
    its literal tail, taken relative to setup.py's folder (what the head names, the folder of
    `__file__`, in the files that write it). Absolute paths and `..` are not followed.
    """
    if not (isinstance(node, ast.Call) and _call_name(node.func) == "open"):
        return None
    if node.args and not (isinstance(node.func, ast.Attribute) and _is_path(node.func.value)):
        path = node.args[0]  # open(PATH), io.open(PATH), codecs.open(PATH)
    elif isinstance(node.func, ast.Attribute) and _is_path(node.func.value):
        path = node.func.value  # PATH.open(): a pathlib path
    else:
        return None
    if bound:  # a helper's parameters, bound to the strings its call passes
        path = _Bind(bound).visit(copy.deepcopy(path))
    tail: list[str] = []
    while True:
        if isinstance(path, ast.Constant) and isinstance(path.value, str):
            tail.insert(0, path.value)
            break
        if isinstance(path, ast.BinOp) and isinstance(path.op, ast.Div):
            if not (isinstance(path.right, ast.Constant) and isinstance(path.right.value, str)):
                return None
            tail.insert(0, path.right.value)
            path = path.left
            continue
        if isinstance(path, ast.Call) and _call_name(path.func) == "join" and path.args:
            literal = [a.value for a in path.args if isinstance(a, ast.Constant)]
            last = path.args[-1]
            if not (isinstance(last, ast.Constant) and isinstance(last.value, str)):
                return None
            count = 0
            for arg in reversed(path.args):
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    break
                count += 1
            tail = [str(v) for v in literal[-count:]] + tail
        break
    if not tail:
        return None
    rel = PurePosixPath(*tail)
    if rel.is_absolute() or ".." in rel.parts:
        return None
    return str(rel)


class _Bind(ast.NodeTransformer):
    """Names replaced by the strings they are bound to."""

    def __init__(self, bound: dict[str, str]) -> None:
        self.bound = bound

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.Constant(self.bound[node.id]) if node.id in self.bound else node


def _is_path(node: ast.expr) -> bool:
    """`HERE / "name"`: a pathlib path built with `/` (not a module such as io or codecs)."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)


def _add(left: _Value | None, right: _Value | None) -> _Value | None:
    if isinstance(left, str) and isinstance(right, str):
        return _bounded(left + right)
    if isinstance(left, tuple) and isinstance(right, tuple):
        joined = left + right
        return joined if len(joined) <= _MAX_ITEMS else None
    return None


def _bounded(text: str) -> str | None:
    return text if len(text) <= _MAX_CHARS else None


def _dict_items(node: ast.expr) -> list[tuple[str, ast.expr]] | None:
    """The string keys and value expressions of `dict(a=...)` or `{"a": ...}`."""
    if isinstance(node, ast.Call) and _call_name(node.func) == "dict" and not node.args:
        return [(k.arg, k.value) for k in node.keywords if k.arg is not None]
    if isinstance(node, ast.Dict):
        return [
            (k.value, v)
            for k, v in zip(node.keys, node.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        ]
    return None


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A setup.py's install_requires and python_requires (read with ast, never run); a
    requirements file it reads them from is read as the requirements file it is."""
    declared = setup_py(text, found.source)
    parse_declared(declared, found)
    for line, name in declared.includes:
        include_file(
            name, found, base, f"{found.source}:{line} (install_requires read from)", seen=set()
        )
    read_extras(declared, found)


def _appending_loop(node: ast.For) -> tuple[str, ast.ListComp] | None:
    """`for X in ITER: NAME.append(EXPR)` (one statement, no else) as NAME and the comprehension
    `[EXPR for X in ITER]` it adds to NAME; None for any other loop."""
    if len(node.body) != 1 or node.orelse or not isinstance(node.body[0], ast.Expr):
        return None
    call = node.body[0].value
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "append"
        and isinstance(call.func.value, ast.Name)
        and len(call.args) == 1
        and not call.keywords
    ):
        return None
    generator = ast.comprehension(target=node.target, iter=node.iter, ifs=[], is_async=0)
    listed = ast.ListComp(elt=call.args[0], generators=[generator])
    ast.copy_location(listed, node)
    return call.func.value.id, listed
