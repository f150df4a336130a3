"""tox.ini: the test environment tox builds, read on its default route.

The first environment of `envlist` is the one read (`py37` names python 3.7, as tox's factor
convention does; the others are said in a warning). Its `deps` (the base `[testenv]` section's,
or the environment's own `[testenv:NAME]` where it sets them) are pip requirement lines (`-r`
included), each with tox's factor conditions applied (`py36: torch==1.4.0` only for an
environment with the factor py36); its `commands` and `commands_pre` run in a shell, and are read
as an install script (`pip install torch==...`). `basepython = python3.8` names the python.
tox's substitutions are read as they expand on the default route: `{toxinidir}` is the file's
folder, `{posargs}` nothing, `{env:NAME:default}` its default.

Format: https://tox.wiki/en/latest/config.html (envlist, deps, commands, basepython, factors,
substitutions). Must not run tox.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import Final

from envgen.repro.importer.evidence import Evidence, set_python
from envgen.repro.importer.install_script import option_at, parse_shell
from envgen.repro.importer.requirements import PIP_VALUE_FLAGS, pip_line
from envgen.repro.reading import excerpt

_FACTOR_PYTHON: Final = re.compile(r"^py(\d)(\d+)$")
_CONDITION: Final = re.compile(r"^\s*([!\w.,-]+)\s*:\s+(.*)$")


def _expand(text: str) -> str:
    """tox's substitutions on the default route.

    >>> _expand("-r{toxinidir}/requirements.txt {posargs} {env:TORCH:1.8.1}")
    '-r./requirements.txt  1.8.1'
    """
    text = text.replace("{toxinidir}", ".").replace("{posargs}", "")
    return re.sub(r"\{env:\w+:?([^}]*)\}", lambda m: m.group(1), text)


def _envlist(value: str) -> list[str]:
    """envlist's entries: split at commas and line ends outside braces (`py3{7,8}-t{1,2}`).

    >>> _envlist("py3{7{,-a},8}, lint\\nflake8")
    ['py3{7{,-a},8}', 'lint', 'flake8']
    """
    out, depth, start = [], 0, 0
    for i, char in enumerate(value):
        depth += (char == "{") - (char == "}")
        if char in ",\n" and depth <= 0:
            out.append(value[start:i])
            start = i + 1
    out.append(value[start:])
    return [n.strip() for n in out if n.strip()]


def _first_env(name: str) -> str:
    """The first environment a generative name makes: the first alternative of each brace set,
    nested ones too (`py3{7{,-t151},8}` is py37, py37-t151, py38: py37). One pass, linear in
    the name: inside a brace set, what follows its first top-level comma is dropped up to the
    set's closing brace; unbalanced braces are dropped.

    >>> _first_env("py3{7{,-t151,-t170},8{,-t170},10}"), _first_env("py{36,37}-torch{14,15}")
    ('py37', 'py36-torch14')
    >>> _first_env("py{37"), _first_env("py}37{a,b}")
    ('py37', 'py37a')
    """
    out: list[str] = []
    skipping: list[bool] = []  # per open brace set: past its first alternative
    skipped = 0  # how many of them are: text is kept only where none is
    for char in name:
        if char == "{":
            skipping.append(False)
        elif char == "}":
            if skipping:
                skipped -= skipping.pop()
        elif char == "," and skipping and skipped == 0:
            skipping[-1] = True
            skipped = 1
        elif skipped == 0:
            out.append(char)
    return "".join(out)


def _install_options(command: str) -> list[str]:
    """The pip options of `install_command` (`pip install --find-links URL {opts} {packages}`),
    one option with its value a line, as a requirements file writes them.

    >>> _install_options("python -m pip install -f https://x/torch_stable.html {opts} {packages}")
    ['-f https://x/torch_stable.html']
    """
    words = _expand(command).replace("{opts}", "").replace("{packages}", "").split()
    if "install" not in words:
        return []
    rest = words[words.index("install") + 1 :]
    out: list[str] = []
    i = 0
    while i < len(rest):
        flag, _, step = option_at(rest, i, PIP_VALUE_FLAGS)
        if flag.startswith("-"):
            out.append(" ".join(rest[i : i + step]))
        i += step
    return out


def _applies(condition: str, factors: set[str]) -> bool:
    """A factor condition (`py36,py37`, `py38-gpu`, `!cpu`) for an environment's factors."""
    for alternative in condition.split(","):
        parts = [p.strip() for p in alternative.split("-") if p.strip()]
        if all((p[1:] not in factors) if p.startswith("!") else (p in factors) for p in parts):
            return True
    return False


def _lines(value: str, factors: set[str]) -> list[tuple[int, str]]:
    """(offset, line) of a multi-line value, factor conditions applied (`py36: torch==1.4`)."""
    out: list[tuple[int, str]] = []
    for offset, raw in enumerate(value.splitlines()):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _CONDITION.match(line)
        if m and not m.group(1).startswith(("http", "git+")):
            if not _applies(m.group(1), factors):
                continue
            line = m.group(2)
        out.append((offset, _expand(line)))
    return out


def _line_of(text: str, section: str, key: str) -> int:
    """The file line of `key =` in `[section]` (1 when not found)."""
    current = ""
    for number, line in enumerate(text.splitlines(), start=1):
        head = re.match(r"^\s*\[([^\]]+)\]", line)
        if head:
            current = head.group(1).strip()
        elif current == section and re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return number
    return 1


def read(text: str, found: Evidence, base: Path | None) -> None:
    """tox.ini's first environment: its python, deps and commands."""
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        found.problems.append(f"{found.source}: not a valid INI file ({excerpt(str(exc))})")
        return
    envlist = parser.get("tox", "envlist", fallback="") if parser.has_section("tox") else ""
    names = _envlist(envlist)
    # `py{36,37}-torch{14,15}`: the first of each brace set is the default route's
    env = _first_env(names[0]) if names else "py"
    if len(names) > 1:
        found.warnings.append(
            f"{found.source}: envlist is {', '.join(excerpt(n) for n in names)}; envgen reads "
            f"the first, {env}"
        )
    factors = set(env.split("-"))
    own = f"testenv:{env}"
    python = next((m for f in factors if (m := _FACTOR_PYTHON.match(f))), None)
    if python is not None:
        set_python(found, f"{python.group(1)}.{python.group(2)}", f"{found.source} (envlist {env})")
    for key in ("basepython", "install_command", "deps", "commands_pre", "commands"):
        section = own if parser.has_option(own, key) else "testenv"
        if not parser.has_option(section, key):
            continue
        value = parser.get(section, key)
        first = _line_of(text, section, key)
        lines = _lines(value, factors)
        if key == "basepython":
            m = re.fullmatch(r"python(\d\.\d+)", value.strip())
            if m:
                set_python(found, m.group(1), f"{found.source}:{first} (basepython)")
        elif key == "install_command":  # its options apply to every dep it installs
            for option in _install_options(value):
                pip_line(option, found, base, f"{found.source}:{first}", seen=set())
        elif key == "deps":
            for offset, line in lines:
                pip_line(line, found, base, f"{found.source}:{first + offset}", seen=set())
        else:  # each command at its own line of the file, so messages name the file's lines
            placed = [""] * (first - 1 + max((o for o, _ in lines), default=0) + 1)
            for offset, line in lines:
                placed[first - 1 + offset] = line
            parse_shell("\n".join(placed) + "\n", found, base, env={})
