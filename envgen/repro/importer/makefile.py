"""What `make [TARGET]` runs, as far as an install needs it: a Makefile's variables and rules,
and the recipe lines of a target after those of its prerequisites (GNU make's order), each
line with the Makefile's variables expanded (`$(PYTHON)`, `${CUDA}`, `$(subst .,,$(CUDA))`,
`$(MAKE)`, the automatic `$@`, `$<`, `$^`; `$$` for `$`). Conditionals (`ifeq`, `ifneq`,
`ifdef`, `ifndef`, `else`, `endif`) take the branch their known values choose; one on a value
not known takes its first branch. `.DEFAULT_GOAL` names the default goal. Read, never run:
envgen.repro.importer.install_script reads each line as a shell command. What GNU make does that
this does not model (`include`, pattern rules, other functions) is left as written: a line that
still holds `$(...)` reads as the shell would see an unknown substitution. Bounded: at most
MAX_LINES recipe lines, MAX_DEPTH prerequisite levels and MAX_EXPANSION characters a value
expands to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

MAX_LINES: Final = 256  # recipe lines one `make` runs, as far as envgen reads
MAX_DEPTH: Final = 8  # prerequisites of prerequisites followed; nested variable references
MAX_EXPANSION: Final = 4096  # characters a value may expand to; past it, unknown
_MAX_LINE: Final = 4096  # a logical line longer is skipped (the rule pattern scans it)
_ASSIGN: Final = re.compile(
    r"^(?:export\s+|override\s+)?(\.?[A-Za-z_][\w.-]*)\s*(::?=|\?=|\+=|!=|=)\s*(.*)$"
)
_RULE: Final = re.compile(r"^([^:=#\t][^:=#]*?)\s*::?(?!=)\s*([^=;]*?)\s*(?:;\s*(.*))?$")
_REFERENCE: Final = re.compile(r"\$(?:\(([^()$]*)\)|\{([^{}$]*)\}|([A-Za-z_@<^]))")
_CONDITIONAL: Final = re.compile(r"^\s*(ifeq|ifneq|ifdef|ifndef|else|endif)\b\s*(.*)$")
_DOLLAR: Final = "\x02"  # a literal `$` (written `$$`) while values expand
_UNKNOWN: Final = "\x00(envgen:unknown)"  # restored as `$(envgen:unknown)`: the shell's unknown
# Variables GNU make defines itself that recipes use: `$(MAKE) -C sub install`.
_BUILTIN: Final = {"MAKE": "make", "SHELL": "/bin/sh", "RM": "rm -f"}


@dataclass
class Makefile:
    """A Makefile's variables and rules (target: prerequisites and recipe lines with their
    line numbers), and its default goal (`.DEFAULT_GOAL`, else the first target that is no
    special `.NAME`)."""

    variables: dict[str, str] = field(default_factory=dict)
    rules: dict[str, tuple[list[str], list[tuple[int, str]]]] = field(default_factory=dict)
    default: str | None = None


def parse(
    text: str, overrides: dict[str, str], environment: dict[str, str] | None = None
) -> Makefile:
    """The Makefile's variables (command-line `VAR=value` overrides win over the file, which
    wins over the environment, as GNU make orders them) and rules, in the branches of its
    conditionals that are taken.

    >>> m = parse("PY:= python3.7\\nall: venv\\nvenv:\\n\\tvirtualenv -p $(PY) venv\\n", {})
    >>> m.default, m.rules["all"][0], m.rules["venv"][1]
    ('all', ['venv'], [(4, 'virtualenv -p $(PY) venv')])
    >>> m = parse("ifeq ($(GPU),1)\\nT := cu111\\nelse\\nT := cpu\\nendif\\n", {"GPU": "1"})
    >>> m.variables["T"]
    'cu111'
    """
    out = Makefile(variables={**_BUILTIN, **(environment or {}), **overrides})
    current: list[str] = []
    taken: list[bool] = []  # per open conditional: whether its current branch is read
    for number, line in _logical_lines(text):
        if len(line) > _MAX_LINE:
            continue  # no Makefile an install names writes such a line: not read
        conditional = _CONDITIONAL.match(line) if not line.startswith("\t") else None
        if conditional is not None:
            _branch(conditional.group(1), conditional.group(2), taken, out.variables)
            continue
        if not all(taken):
            continue
        if line.startswith("\t"):
            for target in current:
                out.rules[target][1].append((number, line[1:].strip()))
            continue
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped.strip():
            continue
        assign = _ASSIGN.match(stripped)
        if assign is not None:
            current = []
            _assign(assign.group(1), assign.group(2), assign.group(3).strip(), out, overrides)
            continue
        rule = _RULE.match(stripped)
        if rule is None:
            current = []  # `include`, `define`, ...: not modelled
            continue
        current = [t for t in rule.group(1).split() if "%" not in t]
        for target in current:
            out.rules.setdefault(target, ([], []))[0].extend(rule.group(2).split())
            if rule.group(3):
                out.rules[target][1].append((number, rule.group(3).strip()))
            if out.default is None and (not target.startswith(".") or "/" in target):
                out.default = target
    out.variables.update(overrides)
    goal = expand(out.variables.get(".DEFAULT_GOAL", ""), out.variables).strip()
    if goal in out.rules:
        out.default = goal
    return out


def _assign(name: str, op: str, value: str, out: Makefile, overrides: dict[str, str]) -> None:
    if name in overrides or op == "!=":  # a shell command's output: not known, not set
        return
    if op == "?=" and name in out.variables and name not in _BUILTIN:
        return
    if op == "+=" and name in out.variables:
        value = f"{out.variables[name]} {value}"
    elif op in {":=", "::="}:
        value = expand(value, out.variables)  # simply expanded: now
    out.variables[name] = value


def _branch(keyword: str, rest: str, taken: list[bool], variables: dict[str, str]) -> None:
    """Open, flip or close a conditional on the stack of taken branches."""
    if keyword == "endif":
        if taken:
            taken.pop()
        return
    if keyword == "else":
        if taken:
            # `else` (or `else ifeq ...`): read where the branch before was not, and the
            # enclosing one is; an `else if...` on a value not known takes neither again
            before = taken.pop()
            inner = _CONDITIONAL.match(rest)
            if inner is not None and not before and inner.group(1).startswith("if"):
                _branch(inner.group(1), inner.group(2), taken, variables)
                taken[-1] = taken[-1] and all(taken[:-1])
            else:
                taken.append(not before and all(taken))
        return
    holds = _holds(keyword, rest, variables)
    taken.append((holds is not False) and all(taken))


def _holds(keyword: str, rest: str, variables: dict[str, str]) -> bool | None:
    """Whether `ifeq (a,b)`, `ifeq "a" "b"`, `ifdef VAR` holds; None where a side is not known."""
    if keyword in {"ifdef", "ifndef"}:
        defined = bool(variables.get(rest.strip(), ""))
        return defined if keyword == "ifdef" else not defined
    pair = re.fullmatch(r"\(\s*([^,]*?)\s*,\s*(.*?)\s*\)", rest.strip()) or re.fullmatch(
        r"""(["'])(.*?)\1\s+(["'])(.*?)\3""", rest.strip()
    )
    if pair is None:
        return None
    left, right = (
        (pair.group(1), pair.group(2)) if pair.re.groups == 2 else (pair.group(2), pair.group(4))
    )
    a, b = expand(left, variables), expand(right, variables)
    if "\x00" in a + b:
        return None
    same = a.strip() == b.strip()
    return same if keyword == "ifeq" else not same


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


def expand(
    text: str, variables: dict[str, str], depth: int = 0, cache: dict[str, str] | None = None
) -> str:
    """`text` with `$(NAME)`, `${NAME}`, `$X`, `$(subst FROM,TO,TEXT)` expanded, a literal `$$`
    kept as `\\x02` (restored by `recipe`); an unknown function is kept (its `$` as `\\x00`), a
    value past MAX_EXPANSION characters is unknown.

    >>> expand("cu$(subst $(DOT),,$(CUDA))/x", {"DOT": ".", "CUDA": "10.1"})
    'cu101/x'
    >>> expand("$(A)", {"A": "$$HOME/x"}).replace("\\x02", "$")
    '$HOME/x'
    """
    if depth > MAX_DEPTH:
        return _UNKNOWN
    known = {} if cache is None else cache  # each variable expanded once per call
    done = text.replace("$$", _DOLLAR)
    for _ in range(MAX_DEPTH):
        expanded = _REFERENCE.sub(lambda m: _value(m, variables, depth, known), done)
        if len(expanded) > MAX_EXPANSION:
            return _UNKNOWN
        if expanded == done:
            break
        done = expanded
    return done


def _value(m: re.Match[str], variables: dict[str, str], depth: int, cache: dict[str, str]) -> str:
    inner = m.group(1) if m.group(1) is not None else m.group(2) or m.group(3)
    function = re.match(r"^subst\s+([^,]*),([^,]*),(.*)$", inner)
    if function is not None:
        old, new, within = (expand(g, variables, depth + 1, cache) for g in function.groups())
        return within.replace(old, new) if old else within
    if inner in {"@", "<", "^"}:
        return m.group(0).replace("$", "\x03")  # automatic variables: `recipe` sets them
    if re.fullmatch(r"[A-Za-z_][\w.-]*", inner):
        if inner not in cache:
            value = expand(variables.get(inner, ""), variables, depth + 1, cache)
            cache[inner] = value if len(value) <= MAX_EXPANSION else _UNKNOWN
        return cache[inner]
    return m.group(0).replace("$", "\x00")  # a function not modelled: kept (restored below)


def recipe(makefile: Makefile, goals: list[str]) -> list[tuple[int, str]]:
    """The recipe lines `make GOALS` runs, in order (each target once; prerequisites first),
    expanded (`$@` the target, `$<` its first prerequisite, `$^` them all), with a line's `@` /
    `-` / `+` prefixes dropped.

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
        automatic = {
            "\x03@": target,
            "\x03<": prerequisites[0] if prerequisites else "",
            "\x03^": " ".join(dict.fromkeys(prerequisites)),
        }
        for number, line in lines:
            if len(out) >= MAX_LINES:
                return
            text = expand(line.lstrip("@-+ "), makefile.variables)
            for key, value in automatic.items():
                text = text.replace(key, value)
            out.append((number, text.replace("\x00", "$").replace(_DOLLAR, "$")))

    for goal in goals or ([makefile.default] if makefile.default else []):
        run(goal, 0)
    return out
