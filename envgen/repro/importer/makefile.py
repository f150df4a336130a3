"""What `make [TARGET]` runs, as far as an install needs it: a Makefile's variables and rules,
and the recipe lines of a target after those of its prerequisites (GNU make's order), each
line with the Makefile's variables expanded (`$(PYTHON)`, `${CUDA}`, `$(subst .,,$(CUDA))`,
`$$` for `$`). Read, never run: envgen.repro.importer.install_script reads each line as a
shell command. What GNU make does that this does not model (conditionals, `include`, pattern
rules, other functions) is left as written: a line that still holds `$(...)` reads as the shell
would see an unknown substitution. Bounded: at most MAX_LINES recipe lines and MAX_DEPTH
prerequisite levels per `make`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

MAX_LINES: Final = 256  # recipe lines one `make` runs, as far as envgen reads
MAX_DEPTH: Final = 8  # prerequisites of prerequisites followed
_MAX_EXPANSION: Final = 4096  # characters a variable's value expands to
_ASSIGN: Final = re.compile(
    r"^(?:export\s+|override\s+)?([A-Za-z_][\w.-]*)\s*(::?=|\?=|\+=|=)\s*(.*)$"
)
_RULE: Final = re.compile(r"^([^:=#\t][^:=#]*?)\s*::?(?!=)\s*([^=;]*?)\s*(?:;\s*(.*))?$")
_REFERENCE: Final = re.compile(r"\$(?:\(([^()$]*)\)|\{([^{}$]*)\}|([A-Za-z_]))")


@dataclass
class Makefile:
    """A Makefile's variables and rules (target: prerequisites and recipe lines with their
    line numbers), and its default goal (the first target that does not start with `.`)."""

    variables: dict[str, str] = field(default_factory=dict)
    rules: dict[str, tuple[list[str], list[tuple[int, str]]]] = field(default_factory=dict)
    default: str | None = None


def parse(text: str, overrides: dict[str, str]) -> Makefile:
    """The Makefile's variables (command-line `VAR=value` overrides win) and rules.

    >>> m = parse("PY:= python3.7\\nall: venv\\nvenv:\\n\\tvirtualenv -p $(PY) venv\\n", {})
    >>> m.default, m.rules["all"][0], m.rules["venv"][1]
    ('all', ['venv'], [(4, 'virtualenv -p $(PY) venv')])
    """
    out = Makefile()
    current: str | None = None
    for number, line in _logical_lines(text):
        if line.startswith("\t"):
            if current is not None:
                out.rules[current][1].append((number, line[1:].strip()))
            continue
        stripped = line.split("#", 1)[0].rstrip() if not line.startswith("\t") else line
        if not stripped.strip():
            continue
        assign = _ASSIGN.match(stripped)
        if assign is not None:
            name, op, value = assign.group(1), assign.group(2), assign.group(3).strip()
            current = None
            if name in overrides or (op == "?=" and name in out.variables):
                continue
            if op == "+=" and name in out.variables:
                value = f"{out.variables[name]} {value}"
            elif op in {":=", "::="}:
                value = expand(value, out.variables)  # simply expanded: now
            out.variables[name] = value
            continue
        rule = _RULE.match(stripped)
        if rule is None:
            current = None  # `include`, `ifeq`, ...: not modelled
            continue
        targets = rule.group(1).split()
        prerequisites = rule.group(2).split()
        for target in targets:
            out.rules.setdefault(target, ([], []))[0].extend(prerequisites)
            if out.default is None and not target.startswith(".") and "%" not in target:
                out.default = target
            if rule.group(3):
                out.rules[target][1].append((number, rule.group(3).strip()))
        current = targets[0] if len(targets) == 1 else None
    out.variables.update(overrides)
    return out


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each line with its backslash continuations joined."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if pending is not None:
            start, head = pending
            joined = f"{head} {raw.strip()}"
        else:
            start, joined = number, raw
        if joined.endswith("\\"):
            pending = (start, joined[:-1].rstrip())
            continue
        pending = None
        out.append((start, joined))
    if pending is not None:
        out.append(pending)
    return out


def expand(text: str, variables: dict[str, str], depth: int = 0) -> str:
    """`text` with `$(NAME)`, `${NAME}`, `$X`, `$(subst FROM,TO,TEXT)` expanded and `$$` read
    as `$`; an unknown function is left as written.

    >>> expand("cu$(subst $(DOT),,$(CUDA))/x $$HOME", {"DOT": ".", "CUDA": "10.1"})
    'cu101/x $HOME'
    """
    if depth > MAX_DEPTH:
        return text
    parts = text.split("$$")
    out = []
    for part in parts:
        previous, done = None, part
        while previous != done and len(done) <= _MAX_EXPANSION:
            previous = done
            done = _REFERENCE.sub(lambda m: _value(m, variables, depth), done)
        out.append(done)
    return "$".join(out)


def _value(m: re.Match[str], variables: dict[str, str], depth: int) -> str:
    inner = m.group(1) if m.group(1) is not None else m.group(2) or m.group(3)
    function = re.match(r"^subst\s+([^,]*),([^,]*),(.*)$", inner)
    if function is not None:
        old, new, within = (expand(g, variables, depth + 1) for g in function.groups())
        return within.replace(old, new) if old else within
    if re.fullmatch(r"[A-Za-z_][\w.-]*", inner):
        return expand(variables.get(inner, ""), variables, depth + 1)
    return m.group(0).replace("$", "\x00")  # a function not modelled: kept (restored below)


def recipe(makefile: Makefile, goals: list[str]) -> list[tuple[int, str]]:
    """The recipe lines `make GOALS` runs, in order (each target once; prerequisites first),
    expanded, with a line's `@` / `-` / `+` prefixes dropped.

    >>> m = parse("all: b\\n\\t@echo a\\nb:\\n\\t-pip install x\\n", {})
    >>> recipe(m, [])
    [(4, 'pip install x'), (2, 'echo a')]
    """
    out: list[tuple[int, str]] = []
    done: set[str] = set()

    def run(target: str, depth: int) -> None:
        if target in done or depth > MAX_DEPTH or target not in makefile.rules:
            return
        done.add(target)
        prerequisites, lines = makefile.rules[target]
        for prerequisite in prerequisites:
            run(prerequisite, depth + 1)
        for number, line in lines:
            if len(out) >= MAX_LINES:
                return
            text = expand(line.lstrip("@-+ "), makefile.variables).replace("\x00", "$")
            out.append((number, text))

    for goal in goals or ([makefile.default] if makefile.default else []):
        run(goal, 0)
    return out
