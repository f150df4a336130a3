"""`envgen import` of Poetry's lock (poetry.lock): the packages `poetry install` puts in the
environment on linux-64, as pins.

A poetry.lock (TOML; https://python-poetry.org/docs/basic-usage/#installing-with-poetrylock)
lists every package of the project's dependency groups as a `[[package]]` table: `name`,
`version`, `optional` (a package only an extra brings: installed with `-E` alone), and where it
is needed, by lock version: `category` ("main" / "dev", lock 1.x), `marker` (lock 1.0) or
`markers` (Poetry 2: a marker, or one per group), and `[package.source]` where it came from
elsewhere than PyPI (`type = "legacy"` with the index `url`, such as
https://download.pytorch.org/whl/cu118; a wheel `url`; a `git`, `directory` or `file` source).
`poetry install` installs every group that is not optional: each non-optional package whose
markers hold on linux-64 becomes `name==version` (PyTorch's local labels kept: `+cu118` is the
build), a PyTorch family package's legacy source its index. A name locked in several versions
(`2.0.1` for macOS beside `2.0.1+cu118` for Linux) keeps those whose own markers, or the edges
of the packages that require it, hold on linux-64. `[metadata] python-versions` is the
project's python range: where it admits one minor, that python. Nothing is fetched.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Final

from packaging.markers import InvalidMarker, Marker, UndefinedComparison, UndefinedEnvironmentName
from packaging.utils import canonicalize_name

from envgen.errors import ImportSpecError
from envgen.model.types import TORCH_FAMILY
from envgen.repro.importer.declared import (
    Declared,
    LineIndex,
    TomlUnreadable,
    linux_markers,
    load_toml,
    parse_declared,
)
from envgen.repro.importer.evidence import Evidence, admits, is_pypi
from envgen.repro.importer.pyproject import poetry_constraint
from envgen.repro.reading import MAX_PACKAGES, excerpt

_HINT: Final = "a poetry.lock as `poetry lock` writes it"
# The pythons a marker is read with where the project's python-versions says none.
_PYTHONS: Final = ("2.7", *(f"3.{n}" for n in range(5, 15)))
_MAX_EDGES: Final = 256  # edges to one name read (a lock has a few: one per dependent)
_MAX_SHOWN: Final = 8  # versions named in a warning
_MAX_PYTHON_RANGE: Final = 1024  # characters of [metadata] python-versions read
# Where a package comes from elsewhere than an index: not a release pip can pin by version.
_NOT_RELEASED: Final = frozenset({"git", "directory", "file"})


def _holds(marker: object, pythons: tuple[str, ...]) -> bool:
    """Whether a lock's marker (a string, or Poetry 2's table of one marker per group) holds on
    linux-64 with one of the project's `pythons` (those its python-versions admits; none
    known: any python 2.7-3.14); one envgen cannot read holds.

    >>> _holds('sys_platform == "darwin"', ("3.9",)), _holds('sys_platform == "linux"', ())
    (False, True)
    >>> _holds({"main": 'sys_platform == "win32"', "dev": 'os_name == "posix"'}, ())
    True
    >>> _holds('python_version < "3.0"', ("3.9", "3.10")), _holds('python_version < "3.0"', ())
    (False, True)
    >>> _holds("not a marker", ()), _holds(None, ())
    (True, True)
    """
    if marker is None:
        return True
    if isinstance(marker, dict):
        return any(_holds(m, pythons) for m in marker.values()) if marker else True
    if not isinstance(marker, str):
        return True
    return _string_holds(marker, pythons)


@functools.lru_cache(maxsize=4096)
def _string_holds(marker: str, pythons: tuple[str, ...]) -> bool:
    """A marker string on linux-64 (cached: a lock repeats a few markers many times)."""
    try:
        parsed = Marker(marker)
        return any(  # each python given (packaging fills what is not from the running one)
            parsed.evaluate(
                {
                    **linux_markers(),
                    "extra": "",
                    "python_version": p,
                    "python_full_version": f"{p}.0",
                }
            )
            for p in pythons or _PYTHONS
        )
    except (InvalidMarker, UndefinedComparison, UndefinedEnvironmentName):
        return True


def _edges(packages: list[dict[str, Any]]) -> dict[str, list[tuple[str, object]]]:
    """name -> (the constraint, the marker) of each edge to it from another package
    (`subprocess32 = {version = "*", markers = "python_version < '3.0'"}`; a list of such
    tables where one name is locked in several versions)."""
    out: dict[str, list[tuple[str, object]]] = defaultdict(list)
    for package in packages:
        deps = package.get("dependencies")
        for name, spec in deps.items() if isinstance(deps, dict) else ():
            for item in spec if isinstance(spec, list) else [spec]:
                constraint = item.get("version") if isinstance(item, dict) else item
                marker = item.get("markers") if isinstance(item, dict) else None
                kept = out[canonicalize_name(str(name))]
                if len(kept) < _MAX_EDGES:  # past it: the edges read so far decide
                    kept.append((str(constraint or ""), marker))
    return out


def _needed(
    name: str, version: str, edges: dict[str, list[tuple[str, object]]], pythons: tuple[str, ...]
) -> bool:
    """Whether the packages that require a locked version do so on linux-64: the edges naming
    that very version where there are any, else every edge to the name (none: the project's
    own dependency, needed)."""
    named = edges.get(name, [])
    exact = [m for c, m in named if c.lstrip("=").strip() == version]
    relevant = exact or [m for _, m in named]
    return not relevant or any(_holds(m, pythons) for m in relevant)


def declared(text: str, source: str, extras: tuple[str, ...] = ()) -> Declared:
    """What `poetry install` (with `extras`: `-E NAME`; `*` for `--all-extras`) installs from a
    poetry.lock on linux-64: an optional package only where the lock's `[extras]` names it
    under an extra asked for.

    Raises:
        ImportSpecError: the file is not TOML, or not a Poetry lock ([[package]] tables).
    """
    try:
        lock = load_toml(text)
    except TomlUnreadable as exc:
        msg = f"{source}: " + (f"not a valid poetry.lock ({exc.why})" if exc.nested else exc.why)
        raise ImportSpecError(msg, hint=_HINT) from None
    listed = lock.get("package")
    if not isinstance(listed, list):
        msg = f"{source}: not a poetry.lock (no [[package]] tables)"
        raise ImportSpecError(msg, hint=_HINT)
    out = Declared()
    if len(listed) > MAX_PACKAGES:
        out.warnings.append(f"{source}: more than {MAX_PACKAGES} packages; the first read")
    packages = [p for p in listed[:MAX_PACKAGES] if isinstance(p, dict)]
    at = LineIndex(text.splitlines())
    metadata = lock.get("metadata")
    python = metadata.get("python-versions") if isinstance(metadata, dict) else None
    pythons: tuple[str, ...] = ()
    if isinstance(python, str) and len(python) > _MAX_PYTHON_RANGE:
        out.warnings.append(f"{source}: [metadata] python-versions is too long to be one; not read")
    elif isinstance(python, str):
        out.python_requires = (at("python-versions"), poetry_constraint(python))
        pythons = tuple(p for p in _PYTHONS if admits(out.python_requires[1], p))
    edges = _edges(packages)
    asked = _extra_packages(lock, extras)
    kept: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
    for package in packages:
        name, version = package.get("name"), package.get("version")
        if not isinstance(name, str) or not isinstance(version, str):
            continue
        canonical = canonicalize_name(name)
        if package.get("optional") is True and canonical not in asked:
            continue  # an extra's package: `poetry install` installs it with -E only
        src = package.get("source")
        if isinstance(src, dict) and src.get("type") in _NOT_RELEASED:
            out.warnings.append(
                f"{source}: {excerpt(name)} comes from a {src.get('type')} source "
                f"({excerpt(str(src.get('url', '')))}), not a released version; left out"
            )
            continue
        own = package.get("markers", package.get("marker"))
        if not _holds(own, pythons) or not _needed(canonical, version, edges, pythons):
            continue
        kept[canonical].append((version, package))
    for name, versions in kept.items():
        version, package = _linux_build(versions)
        if len(versions) > 1:
            shown = ", ".join(excerpt(v) for v, _ in versions[:_MAX_SHOWN])
            more = f" and {len(versions) - _MAX_SHOWN} more" if len(versions) > _MAX_SHOWN else ""
            out.warnings.append(
                f"{source}: {name} is locked in several versions that linux-64 may take "
                f"({shown}{more}); {excerpt(version)} read (a PyTorch index's build, else the "
                "first)"
            )
        out.requirements.append((at(package["name"]), f"{name}=={version}"))
        src = package.get("source")
        url = src.get("url") if isinstance(src, dict) else None
        if (
            name in TORCH_FAMILY
            and isinstance(src, dict)
            and src.get("type") == "legacy"
            and isinstance(url, str)
            and not is_pypi(url)
            and ("extra-index-url", url) not in out.indexes
        ):
            out.indexes.append(("extra-index-url", url))
    return out


def _extra_packages(lock: dict[str, Any], extras: tuple[str, ...]) -> set[str]:
    """The packages the lock's `[extras]` lists under the extras asked for (`*`: all)."""
    table = lock.get("extras")
    if not isinstance(table, dict) or not extras:
        return set()
    wanted = {canonicalize_name(e) for e in extras}
    return {
        canonicalize_name(re.split(r"[\s\[(;<>=!~]", str(item), maxsplit=1)[0])
        for extra, items in table.items()
        if "*" in extras or canonicalize_name(str(extra)) in wanted
        for item in (items if isinstance(items, list) else [])[:MAX_PACKAGES]
    }


def _linux_build(versions: list[tuple[str, dict[str, Any]]]) -> tuple[str, dict[str, Any]]:
    """Of one name locked in several versions linux-64 may take (Poetry 1.x writes no
    markers on packages: `2.0.1` for macOS beside `2.0.1+cu118` for Linux), the one from a
    PyTorch index (a local label, or a legacy source), else the first."""
    for version, package in versions:
        src = package.get("source")
        if "+" in version or (isinstance(src, dict) and src.get("type") == "legacy"):
            return version, package
    return versions[0]


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """What a plain `poetry install` installs from a poetry.lock, and its python where the
    project's range admits one minor."""
    parse_declared(declared(text, found.source), found)


def read_installed(text: str, found: Evidence, extras: tuple[str, ...] = ()) -> bool:
    """What a script's `poetry install [-E X | --all-extras]` installs from the poetry.lock
    beside the project (the lock, not pyproject.toml's ranges, says which versions). False for
    a lock that cannot be read: said, and not an error of the script (the caller reads
    pyproject.toml instead)."""
    try:
        lock = declared(text, found.source, extras)
    except ImportSpecError as exc:
        found.warnings.append(f"{exc.message}; pyproject.toml is read instead")
        return False
    parse_declared(lock, found)
    return True
