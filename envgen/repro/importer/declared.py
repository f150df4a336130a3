"""The requirements a Python package declares (setup.py, setup.cfg, pyproject.toml, pylock.toml),
as one `Declared` record, and how it becomes evidence: each requirement is read as a pip line,
a `python_requires` that admits one python minor (==3.8, ==3.8.*, ~=3.8.0, >=3.9,<3.10,
Poetry's ~3.8) names it; a floor (>=3.6) or a range over several (~=3.8 is >=3.8,<4) does not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from envgen.model.types import TORCH_FAMILY
from envgen.repro.importer.evidence import Evidence, admits_some, admitted_minors, set_python
from envgen.repro.importer.requirements import pip_requirement
from envgen.repro.reading import MAX_PACKAGES, excerpt


@dataclass(slots=True)
class Declared:
    """Requirements a Python package declares (setup.py, setup.cfg, pyproject.toml)."""

    requirements: list[tuple[int, str]] = field(default_factory=list)  # (line, requirement)
    python_requires: tuple[int, str] | None = None
    # Package indexes the file routes requirements through (Poetry's `source =`): (form, url).
    indexes: list[tuple[str, str]] = field(default_factory=list)
    # Files the package reads its requirements from (setup.py's `open("requirements.txt")`):
    # (line, path relative to the file's folder); the reader follows them as `-r` would.
    includes: list[tuple[int, str]] = field(default_factory=list)
    # Optional dependencies (setup.py's extras_require, PEP 621's optional-dependencies):
    # (extra, [(line, requirement)]); a plain install leaves them out (see `read_extras`).
    extras: list[tuple[str, list[tuple[int, str]]]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    name: str | None = None  # the project's own name (an extra may name it: `all = ["x[gpu]"]`)
    # Why the file could not be read at all (nested too deep for the parser): an error for this
    # file; a repository import skips it and reads the others (issue 21 item 7).
    refused: str | None = None


class TomlUnreadable(Exception):  # noqa: N818 - a reason, raised and caught inside the importer
    """A TOML file tomllib could not read: not TOML (`why` is the parser's message), or nested
    deeper than its recursion allows (`nested`)."""

    def __init__(self, why: str, *, nested: bool) -> None:
        super().__init__(why)
        self.why = why
        self.nested = nested


def load_yaml(
    text: str, found: Evidence, load: Callable[[str], tuple[Any, object]] | None = None
) -> tuple[Any, object] | None:
    """A file's YAML, bounded (a cloned repository's file may be an alias bomb): (node, value)
    of `load` (default envgen.infra.safe_yaml.load_bounded); None, the problem said, where it
    cannot be read."""
    import yaml  # noqa: PLC0415 - PyYAML only for a YAML file

    from envgen.infra.safe_yaml import YamlBombError, load_bounded  # noqa: PLC0415

    try:
        return (load or load_bounded)(text)
    except yaml.YAMLError as exc:
        found.problems.append(f"{found.source}: not valid YAML: {getattr(exc, 'problem', exc)}")
    except YamlBombError as exc:
        found.problems.append(f"{found.source}: refused: {exc}")
    except (ValueError, OverflowError) as exc:  # a scalar that types but cannot build
        found.problems.append(f"{found.source}: not valid YAML: {excerpt(str(exc))}")
    return None


def load_toml(text: str) -> dict[str, Any]:
    """The TOML document of an imported file (Pipfile, pixi.toml, pyproject.toml, pylock.toml):
    one place for what each reader must tell apart.

    Raises:
        TomlUnreadable: not valid TOML, or nested too deep (tomllib recurses once per nested
            array or inline table, so a hostile file raises RecursionError or MemoryError).

    >>> load_toml("a = 1")
    {'a': 1}
    >>> load_toml("a = " + "[" * 100_000)
    Traceback (most recent call last):
    envgen.repro.importer.declared.TomlUnreadable: values nested too deep to read
    """
    import tomllib  # noqa: PLC0415 - only the TOML readers pay for it

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        why = f"not valid TOML ({exc})"
        raise TomlUnreadable(why, nested=False) from None
    except ValueError as exc:  # an integer past Python's 4300-digit limit
        why = f"not valid TOML ({excerpt(str(exc))})"
        raise TomlUnreadable(why, nested=False) from None
    except (RecursionError, MemoryError):
        why = "values nested too deep to read"
        raise TomlUnreadable(why, nested=True) from None


def too_deep(source: str, what: str) -> str:
    return (
        f"{source}: {what} is nested too deeply to read (more than Python's recursion limit of "
        "nested brackets or terms); refused: no real environment file looks like this"
    )


class LineIndex:
    """The line a TOML file first writes a string or key on, found in one pass: a quoted string
    (`"torch>=2.5"`) or a key at a line's start (`torch = ...`). A needle written otherwise (an
    escaped string) is looked for line by line, for the first 64 such needles only (a hostile
    file of 60,000 escaped dependencies would otherwise cost one full scan each); later ones
    get line 0 (unknown).

    >>> at = LineIndex(['[project]', 'dependencies = ["torch>=2.5",', '  "numpy"]', 'torch = 1'])
    >>> at("torch>=2.5"), at("numpy"), at("torch"), at("missing")
    (2, 3, 4, 0)
    """

    _SCANS: Final = 64

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.first: dict[str, int] = {}
        self.scans = 0
        for number, line in enumerate(lines, start=1):
            key = re.match(r"^[ \t]*([A-Za-z0-9_.-]+)[ \t]*=", line)
            quoted = [a or b for a, b in _QUOTED.findall(line)]
            for text in [*([key.group(1)] if key else []), *quoted]:
                self.first.setdefault(text, number)

    def __call__(self, needle: str) -> int:
        found = self.first.get(needle)
        if found is not None:
            return found
        if self.scans >= self._SCANS:
            return 0
        self.scans += 1
        return line_of(self.lines, needle)


_QUOTED: Final = re.compile(r'"([^"\\\n]*)"|\'([^\'\n]*)\'')


def line_of(lines: list[str], needle: str) -> int:
    return next((i for i, ln in enumerate(lines, start=1) if needle in ln), 0)


def parse_declared(declared: Declared, found: Evidence) -> None:
    """A package's own dependencies (setup.py, setup.cfg, pyproject.toml)."""
    if declared.refused is not None:
        found.unreadable = declared.refused
        found.problems.append(declared.refused)
        return
    found.warnings.extend(declared.warnings)
    found.indexes.extend(i for i in declared.indexes if i not in found.indexes)
    for number, req in declared.requirements[: MAX_PACKAGES + 1]:  # past it: one warning
        pip_requirement(req, found, f"{found.source}:{number}")
    if declared.python_requires is not None:
        number, text = declared.python_requires
        python = one_minor(text)
        if python is not None:  # a floor (>=3.6) is not a pin: the release decides
            set_python(found, python, f"{found.source}:{number} (python_requires)")
        elif found.python_range is None and admits_some(text):
            found.python_range = text  # the pins' python is chosen within it


def linux_markers() -> dict[str, str]:
    """linux-64's PEP 508 marker values, as matrices/targets.yaml has them (a fresh dict; the
    matrix is read on first use, by the readers of files that carry markers)."""
    from envgen.model.targets import load_targets  # noqa: PLC0415 - only where markers are read

    return load_targets().markers("linux-64")


def one_minor(text: str) -> str | None:
    """The one python minor a requires-python admits, or None (a floor, several, or none).

    `==3.8` is read as the author meant it, 3.8 (PEP 440 would take 3.8.0 only).

    >>> one_minor("==3.8"), one_minor("==3.8.*"), one_minor(">=3.9,<3.10"), one_minor("~=3.7.0")
    ('3.8', '3.8', '3.9', '3.7')
    >>> one_minor(">=3.6"), one_minor("~=3.8"), one_minor(">=3.8,<3.13"), one_minor("banana")
    (None, None, None, None)
    """
    m = re.fullmatch(r"\s*==\s*(\d+\.\d+)\s*", text)
    if m:
        return m.group(1)
    admitted = admitted_minors(text)
    return admitted[0] if admitted is not None and len(admitted) == 1 else None


def read_extras(declared: Declared, found: Evidence) -> None:
    """The extras a `pip install .[a,b]` of the project names (or `envgen import --extra`) are
    installed, all of their requirements (`*`: every extra, as `uv sync --all-extras`). A plain
    install leaves extras out: where only an extra names torch (`pip install .[gpu]`: packages
    that leave the torch build to the user's choice), it installs none, and a warning names the
    extras and the `--extra` that reads one."""
    if found.install_extras and found.unreadable is None:
        extras = dict(declared.extras)
        wanted = [_name(e) for e in found.install_extras]
        known = {_name(k) for k in extras}
        for missing in [e for e in wanted if e != "*" and e not in known][:8]:
            found.warnings.append(
                f"{found.source}: no extra named {excerpt(missing, 40)!r}; its extras are "
                f"{', '.join(repr(excerpt(k, 40)) for k in list(extras)[:8]) or 'none'} (pip "
                "warns and installs the rest)"
            )
        if "*" in found.install_extras:  # `uv sync --all-extras`
            wanted = [_name(e) for e in extras]
        done: set[str] = set()
        own = _name(declared.name or "")
        while wanted and len(done) < len(extras):
            extra = wanted.pop(0)
            key = next((k for k in extras if _name(k) == extra), None)
            if key is None or extra in done:
                continue
            done.add(extra)
            for number, req in extras[key][: MAX_PACKAGES + 1]:
                if own and _name(req) == own:  # `all = ["x[train]"]`: the project's own extras
                    inner = re.search(r"\[([^\]]*)\]", req)
                    wanted.extend(_name(e) for e in (inner.group(1) if inner else "").split(","))
                    continue
                pip_requirement(req, found, f"{found.source}:{number} (extra {key!r})")
        return
    if found.torch is not None or found.unreadable is not None:
        return
    named = [
        extra
        for extra, requirements in declared.extras
        if {_name(req) for _, req in requirements} & set(TORCH_FAMILY)
    ]
    if named:
        shown = ", ".join(repr(excerpt(e, 40)) for e in named[:8])
        note = (
            f"{found.source}: torch is named only in the extra(s) {shown}, which a plain `pip "
            "install .` leaves out, so it installs no torch; `envgen import --extra "
            f"{excerpt(named[0], 40)} {found.source}` reads the install that takes one"
        )
        found.warnings.append(note)
        found.refusal_notes.append(note)


def _name(requirement: str) -> str:
    """The canonical project name a requirement starts with ("" when it names none).

    >>> _name("Torch>=1.8; python_version > '3.6'"), _name("-e .")
    ('torch', '')
    """
    m = re.match(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return re.sub(r"[-_.]+", "-", m.group(1)).lower() if m else ""
