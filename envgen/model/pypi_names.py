"""Did-you-mean for a requirement whose project does not exist on the index.

A paper's install script can name a project PyPI never had: `pip install genism` (a typo of
gensim) fails for everyone who follows it. When uv says a name `was not found in the package
registry`, `suggest_hint` looks the name up in matrices/pypi-top-names.txt (the most downloaded
PyPI projects, names only, with its source in the header) and names the nearest: the same name
once separators are ignored (`opencvpython` -> opencv-python), else the fewest edits (Damerau-
Levenshtein, an adjacent swap counting one: at most 1 for names of 4 characters or fewer, 2
otherwise), the most downloaded first among equals. It is a hint, never applied: a near name can
be a typosquat, and only the user knows what the paper meant.

A name with no near one is a project the index does not have: gone from it (a pip freeze of 2019
pins `env-file==2019.4.13`, a project its owner deleted from PyPI since, whose proof is a release
still on PyPI that requires it: direnv 2019.4.13), or never published there (a private package).
The hint says which the uv output shows (a pinned release, a release that depends on it) and
proposes `drop NAME from pip:` (for a dependency of a pin: drop that pin) where the code does not
import it, or serving it from a mirror that has it.

This module must not start processes or read the network.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Final

from packaging.utils import canonicalize_name

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR

TABLE: Final = MATRICES_DIR / "pypi-top-names.txt"
_NOT_FOUND: Final = re.compile(  # uv wraps its lines: any whitespace between the words
    r"\b([A-Za-z0-9][A-Za-z0-9._-]*)\s+was\s+not\s+found\s+in\s+the\s+package\s+registry"
)
_MAX_NAMES: Final = 3  # hints per failed lock
# `X was not found in the package registry and Y depends on X` (uv's derivation): Y is the
# project's own requirement (uv's root: `you require`, the lock's `envgen-lock`) or a release
_NEEDED_BY: Final = re.compile(
    r"\b([A-Za-z0-9][A-Za-z0-9._-]*)\s+was\s+not\s+found\s+in\s+the\s+package\s+registry\s+"
    r"and\s+(?:you\s+require|(?:all\s+versions\s+of\s+)?([A-Za-z0-9][A-Za-z0-9._-]*)"
    r"(?:[<>=!~]=?[A-Za-z0-9.+!*_-]+)?\s+depends?\s+on)\s+"
    r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:==([A-Za-z0-9.+!_-]+))?"
)
_ROOTS: Final = frozenset({"envgen-lock"})  # the project uv resolves for envgen (lock/pip.py)


@functools.cache
def load_names(path: Path = TABLE) -> tuple[str, ...]:
    """The table's names, most downloaded first (comment lines skipped)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        msg = f"{path}: cannot read the PyPI name table: {exc}"
        raise MatrixError(msg) from exc
    names = [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]
    bad = [n for n in names if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", n)]
    if bad:
        msg = f"{path}: not project names: {', '.join(bad[:3])}"
        raise MatrixError(msg)
    return tuple(names)


def distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein distance (optimal string alignment) of `a` and `b`, or `limit + 1`
    once it must exceed `limit`.

    >>> distance("genism", "gensim", 2), distance("numpi", "numpy", 2), distance("abc", "xyz", 1)
    (1, 1, 2)
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] | None = None
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if (
                before is not None
                and i > 1
                and j > 1
                and a[i - 1] == b[j - 2]
                and a[i - 2] == b[j - 1]
            ):
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, row = row, current
    return min(row[-1], limit + 1)


def nearest_name(name: str, names: tuple[str, ...] | None = None) -> str | None:
    """The nearest existing project to `name` (module doc), or None when none is near enough.

    >>> nearest_name("genism"), nearest_name("opencvpython"), nearest_name("zzzzqqqq")
    ('gensim', 'opencv-python', None)
    """
    known = load_names() if names is None else names
    wanted = canonicalize_name(name)
    bare = wanted.replace("-", "")
    limit = 1 if len(bare) <= 4 else 2
    best: tuple[int, int, str] | None = None
    for rank, candidate in enumerate(known):
        key = canonicalize_name(candidate)
        if key == wanted:
            return None  # the project exists: not a typo
        if key.replace("-", "") == bare:
            return candidate
        found = distance(wanted, key, limit)
        if found <= limit and (best is None or (found, rank) < best[:2]):
            best = (found, rank, candidate)
    return best[2] if best else None


def missing_projects(text: str) -> list[str]:
    """The names uv said were `not found in the package registry`, in order, once each.

    >>> missing_projects("Because genism was not found in the package registry and x depends")
    ['genism']
    """
    out: list[str] = []
    for name in _NOT_FOUND.findall(text):
        if name not in out:
            out.append(name)
    return out


def needed_by(text: str, name: str) -> tuple[str | None, str | None]:
    """Who uv says requires the missing project `name`: (a release's project, None) when a
    release depends on it, (None, the pinned version or None) when the project's own
    requirements do; (None, None) when uv said neither.

    >>> needed_by("Because env-file was not found in the package registry and "
    ...           "direnv>=2019.4.13 depends on env-file, we can", "env-file")
    ('direnv', None)
    >>> needed_by("Because values was not found in the package registry and envgen-lock "
    ...           "depends on values==2019.4.13, we can", "values")
    (None, '2019.4.13')
    """
    for found in _NEEDED_BY.finditer(text):
        if found[1] != name or canonicalize_name(found[3].rstrip(".")) != canonicalize_name(name):
            continue
        dependent = found[2]
        if dependent is None or canonicalize_name(dependent) in _ROOTS:
            return None, found[4].rstrip(".") if found[4] else None
        return dependent, None
    return None, None


def gone_line(uv_output: str, name: str, index: str) -> str:
    """What the hint says of a project `index` does not have that is no typo (module doc): gone
    from the index, or never there, and what to do."""
    dependent, pinned = needed_by(uv_output, name)

    def serve(what: str) -> str:
        return (
            f"or serve {what} from a mirror that has it (pypi_index / ENVGEN_PYPI_INDEX, see "
            "docs/how-to/use-a-mirror.md)"
        )

    if dependent is not None:
        return (
            f"{dependent} depends on {name}, which is not a project on {index} any more (a "
            f"{dependent} release was published there requiring it, so {name} was deleted "
            f"since): drop {dependent} from pip: if the code does not import it, {serve(name)}"
        )
    if pinned is not None:
        return (
            f"{name} is not a project on {index}, yet the file pins {name}=={pinned}, a release "
            "its environment had, so the project no longer exists there (deleted by its owner) "
            f"or came from elsewhere: drop {name} from pip: if the code does not import it, "
            f"{serve('it')}"
        )
    return (
        f"{name} is not a project on {index} (deleted, or never published there): drop {name} "
        f"from pip: if the code does not import it, {serve('it')}"
    )


def suggest_hint(uv_output: str, index: str) -> str | None:
    """A hint naming, for each project uv did not find, the nearest existing one (a typo), or,
    where none is near or the name is no typo (a pinned release, a release's dependency), what to
    do about a project the index does not have (`gone_line`); None when uv said no such thing."""
    lines = []
    for name in missing_projects(uv_output)[:_MAX_NAMES]:
        # a pinned release (a pip freeze's line) or a published release's dependency names a
        # project that existed: no typo, whatever name is near
        near = None if needed_by(uv_output, name) != (None, None) else nearest_name(name)
        if near is not None:
            lines.append(
                f"{name} is not a project on {index}; did you mean {near}? (the nearest of the "
                "most downloaded PyPI projects, matrices/pypi-top-names.txt; not applied: check "
                "that it is the package the paper meant, a near name can be a typosquat)"
            )
        else:
            lines.append(gone_line(uv_output, name, index))
    return "; ".join(lines) or None


__all__ = [
    "TABLE",
    "distance",
    "gone_line",
    "load_names",
    "missing_projects",
    "nearest_name",
    "needed_by",
    "suggest_hint",
]
