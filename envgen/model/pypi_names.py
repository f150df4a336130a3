"""Did-you-mean for a requirement whose project does not exist on the index.

A paper's install script can name a project PyPI never had: `pip install genism` (a typo of
gensim) fails for everyone who follows it. When uv says a name `was not found in the package
registry`, `suggest_hint` looks the name up in matrices/pypi-top-names.txt (the most downloaded
PyPI projects, names only, with its source in the header) and names the nearest: the same name
once separators are ignored (`opencvpython` -> opencv-python), else the fewest edits (Damerau-
Levenshtein, an adjacent swap counting one: at most 1 for names of 4 characters or fewer, 2
otherwise), the most downloaded first among equals. It is a hint, never applied: a near name can
be a typosquat, and only the user knows what the paper meant.

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
_NOT_FOUND: Final = re.compile(
    r"\b([A-Za-z0-9][A-Za-z0-9._-]*) was not found in the package registry"
)
_MAX_NAMES: Final = 3  # hints per failed lock


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


def suggest_hint(uv_output: str, index: str) -> str | None:
    """A hint naming, for each project uv did not find, the nearest existing one; None when uv
    said no such thing or no name is near."""
    lines = []
    for name in missing_projects(uv_output)[:_MAX_NAMES]:
        near = nearest_name(name)
        if near is not None:
            lines.append(
                f"{name} is not a project on {index}; did you mean {near}? (the nearest of the "
                "most downloaded PyPI projects, matrices/pypi-top-names.txt; not applied: check "
                "that it is the package the paper meant, a near name can be a typosquat)"
            )
    return "; ".join(lines) or None


__all__ = ["TABLE", "distance", "load_names", "missing_projects", "nearest_name", "suggest_hint"]
