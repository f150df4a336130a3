"""Releases of PyPI packages uv cannot install today, with the nearest that installs
(matrices/package-issues.yaml): gym 0.18.0-0.21.0 name `opencv-python>=3.` in their extras; and
releases that import a distribution they do not declare (the file's `undeclared:` rows: keras
2.6-2.15 imports tensorflow; QtPy imports one of the Qt bindings, any of them), or need another
release of one than they declare (`understated:`: speechbrain 0.5.12-0.5.13 imports a module torch
1.10 added, and declares torch>=1.7 / >=1.9; scikit-metrics 0.1.0 imports a module scikit-learn
0.24 removed, and declares scikit-learn unbounded).

`explain` reads a failed lock's uv output for the pins it names (`NAME==V has invalid metadata`,
`Failed to build NAME==V`) and turns those the table knows into a hint that proposes the
replacement. `undeclared_imports` reads a lock's pins and names each release that will not import
for want of an undeclared dependency the lock lacks, proposing `add REQUIREMENT`. This module must
not start processes or read the network. `understated_requirements` does the same for a release
whose import needs more than the lock holds, proposing `replace NAME==V with NAME==W`: another
release of the package, or, where the row says so, of the dependency (`add DEP==W to pip:` when
the project does not name the dependency itself).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model.shipped import load_table

if TYPE_CHECKING:
    from collections.abc import Collection, Mapping

TABLE: Final = MATRICES_DIR / "package-issues.yaml"

_KEYS: Final = frozenset({"package", "versions", "message", "replace", "source"})
# uv's words for a pin it could not use: its metadata, or its sdist's build
_NAMED: Final = re.compile(
    r"([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+?)`? (?:has invalid metadata)"
    r"|Failed to (?:download and )?build `([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)`"
)


@dataclass(frozen=True, slots=True)
class PackageIssue:
    package: str
    versions: SpecifierSet
    message: str
    replace: str
    source: str


@functools.cache
def load_issues(path: Path = TABLE) -> tuple[PackageIssue, ...]:
    try:
        data = load_table(path)
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the package-issues table: {exc}"
        raise MatrixError(msg) from exc
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        msg = f"{path}: expected a mapping with a `rows:` list"
        raise MatrixError(msg)
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or set(row) != _KEYS:
            msg = f"{path}: rows[{i}]: expected the keys {sorted(_KEYS)}; got {row!r}"
            raise MatrixError(msg)
        try:
            versions = SpecifierSet(str(row["versions"]))
            Version(str(row["replace"]))
        except (InvalidSpecifier, InvalidVersion) as exc:
            msg = f"{path}: rows[{i}]: {exc}"
            raise MatrixError(msg) from exc
        out.append(
            PackageIssue(
                package=canonicalize_name(str(row["package"])),
                versions=versions,
                message=str(row["message"]),
                replace=str(row["replace"]),
                source=str(row["source"]),
            )
        )
    return tuple(out)


def issue_for(name: str, version: str) -> PackageIssue | None:
    """The table's row for `name` `version`, if any.

    >>> issue_for("gym", "0.18.3").replace, issue_for("Gym", "0.21.0").replace
    ('0.17.3', '0.22.0')
    >>> issue_for("gym", "0.17.3") is None
    True
    """
    try:
        wanted = Version(version)
    except InvalidVersion:
        return None
    key = canonicalize_name(name)
    return next(
        (i for i in load_issues() if i.package == key and i.versions.contains(wanted, True)), None
    )


def explain(uv_output: str) -> str | None:
    """A hint for each pin uv could not use that the table knows, proposing its replacement;
    None when it knows none of them.

    >>> explain("Because gym==0.18.3 has invalid metadata and x depends on gym==0.18.3")[:37]
    'gym 0.18.3 cannot be installed by uv:'
    """
    lines: list[str] = []
    seen: set[tuple[str, str]] = set()
    for found in _NAMED.finditer(uv_output):
        name = found[1] or found[3]
        version = found[2] or found[4]
        issue = issue_for(name, version)
        if issue is None or (name, version) in seen:
            continue
        seen.add((name, version))
        lines.append(
            f"{name} {version} cannot be installed by uv: {issue.message}; replace "
            f"{name}=={version} with {name}=={issue.replace}, the nearest release that installs "
            f"(matrices/package-issues.yaml)"
        )
    return "; ".join(lines) or None


@dataclass(frozen=True, slots=True)
class Undeclared:
    """Releases of `package` that import `imports` without declaring it (an `undeclared:` row)."""

    package: str
    versions: SpecifierSet
    imports: str
    provided_by: frozenset[str]
    add: str  # the requirement proposed; {major} and {minor} are the pinned release's
    source: str
    # the provided-by names as the row spells them, in its order (for the message)
    providers: tuple[str, ...] = ()


_UNDECLARED_KEYS: Final = frozenset(
    {"package", "versions", "imports", "provided-by", "add", "source"}
)


@functools.cache
def load_undeclared(path: Path = TABLE) -> tuple[Undeclared, ...]:
    """The table's `undeclared:` rows (checked: every key, a specifier, a requirement template)."""
    try:
        data = load_table(path)
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the package-issues table: {exc}"
        raise MatrixError(msg) from exc
    rows = data.get("undeclared") if isinstance(data, dict) else None
    out = []
    for i, row in enumerate(rows if isinstance(rows, list) else []):
        where = f"{path}: undeclared[{i}]"
        given = row.get("provided-by") if isinstance(row, dict) else None
        if (
            not isinstance(row, dict)
            or set(row) != _UNDECLARED_KEYS
            or not isinstance(given, list)
            or not all(isinstance(g, str) for g in given)
        ):
            msg = f"{where}: expected the keys {sorted(_UNDECLARED_KEYS)}; got {row!r}"
            raise MatrixError(msg)
        try:
            versions = SpecifierSet(str(row["versions"]))
            Requirement(str(row["add"]).format(major=1, minor=0))
        except (InvalidSpecifier, InvalidRequirement, KeyError, IndexError) as exc:
            msg = f"{where}: {exc!r}"
            raise MatrixError(msg) from exc
        out.append(
            Undeclared(
                package=canonicalize_name(str(row["package"])),
                versions=versions,
                imports=str(row["imports"]),
                provided_by=frozenset(canonicalize_name(g) for g in given),
                add=str(row["add"]),
                source=str(row["source"]),
                providers=tuple(given),
            )
        )
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Understated:
    """Releases of `package` whose import needs `needs`, beyond what they declare (an
    `understated:` row)."""

    package: str
    versions: SpecifierSet
    needs: Requirement
    replace: str  # a release of `package`, or `DEP==W`: a release of the dependency
    source: str

    @property
    def replaces_dependency(self) -> bool:
        return "==" in self.replace


_UNDERSTATED_KEYS: Final = frozenset({"package", "versions", "needs", "replace", "source"})


@functools.cache
def load_understated(path: Path = TABLE) -> tuple[Understated, ...]:
    """The table's `understated:` rows (checked: every key, a specifier, a requirement)."""
    try:
        data = load_table(path)
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the package-issues table: {exc}"
        raise MatrixError(msg) from exc
    rows = data.get("understated") if isinstance(data, dict) else None
    out = []
    for i, row in enumerate(rows if isinstance(rows, list) else []):
        if not isinstance(row, dict) or set(row) != _UNDERSTATED_KEYS:
            keys = sorted(_UNDERSTATED_KEYS)
            msg = f"{path}: understated[{i}]: expected the keys {keys}; got {row!r}"
            raise MatrixError(msg)
        try:
            versions = SpecifierSet(str(row["versions"]))
            needs = Requirement(str(row["needs"]))
            _check_replace(str(row["replace"]), needs)
        except (InvalidSpecifier, InvalidRequirement, InvalidVersion, ValueError) as exc:
            msg = f"{path}: understated[{i}]: {exc}"
            raise MatrixError(msg) from exc
        out.append(
            Understated(
                package=canonicalize_name(str(row["package"])),
                versions=versions,
                needs=needs,
                replace=str(row["replace"]),
                source=str(row["source"]),
            )
        )
    return tuple(out)


def _check_replace(replace: str, needs: Requirement) -> None:
    """A row's `replace`: a version, or `DEP==W` naming the dependency at a release `needs`
    allows; ValueError (or InvalidVersion) otherwise."""
    wanted = f"a version of the package, or {needs.name}==VERSION (the dependency of `needs`)"
    if "==" not in replace:
        try:
            Version(replace)
        except InvalidVersion:
            msg = f"replace {replace!r} must be {wanted}"
            raise ValueError(msg) from None
        return
    pinned = Requirement(replace)
    specs = list(pinned.specifier)
    if (
        canonicalize_name(pinned.name) != canonicalize_name(needs.name)
        or len(specs) != 1
        or specs[0].operator != "=="
    ):
        msg = f"replace {replace!r} must be {wanted}"
        raise ValueError(msg)
    version = Version(specs[0].version)
    if not needs.specifier.contains(version, prereleases=True):
        msg = f"replace {replace!r} is outside needs {str(needs)!r}"
        raise ValueError(msg)


def understated_requirements(
    pins: Mapping[str, str],
    rows: tuple[Understated, ...] | None = None,
    *,
    declared: Collection[str] | None = None,
) -> list[str]:
    """For each pinned release whose import needs another release of a dependency than the pins
    hold (and than it declares), a warning that proposes `replace NAME==V with NAME==W` (sorted):
    the package's release before it, or, where the row names one, the dependency's release that
    works (`add DEP==W to pip:` when `declared`, the project's own requirement names, lacks DEP).

    >>> found = understated_requirements({"speechbrain": "0.5.13", "torch": "1.9.0"})
    >>> found[0].split("; ")[-1].split(", ")[0]
    'replace speechbrain==0.5.13 with speechbrain==0.5.11'
    >>> understated_requirements({"speechbrain": "0.5.13", "torch": "1.10.0"})
    []
    >>> found = understated_requirements({"scikit-metrics": "0.1.0", "scikit-learn": "0.24.2"})
    >>> found[0].split("; ")[-1].split(", ")[0]
    'replace scikit-learn==0.24.2 with scikit-learn==0.23.2'
    """
    names: dict[str, str] = {str(canonicalize_name(n)): v for n, v in pins.items()}
    out: list[str] = []
    for row in load_understated() if rows is None else rows:
        version, dependency = names.get(row.package), names.get(canonicalize_name(row.needs.name))
        if version is None or dependency is None:
            continue
        try:
            if not row.versions.contains(Version(version), prereleases=True):
                continue
            if row.needs.specifier.contains(Version(dependency), prereleases=True):
                continue
        except InvalidVersion:
            continue
        said = (
            f"{row.package} {version} needs {row.needs} when imported (more than its metadata "
            f"declares), and the lock pins {row.needs.name} {dependency}: `import "
            f"{row.package}` will fail (matrices/package-issues.yaml); "
        )
        if not row.replaces_dependency:
            out.append(
                f"{said}replace {row.package}=={version} with {row.package}=={row.replace}, the "
                "newest release before it that does not"
            )
            continue
        name = row.needs.name
        new = row.replace.split("==", 1)[1].strip()
        named = declared is None or canonicalize_name(name) in {
            canonicalize_name(d) for d in declared
        }
        out.append(
            f"{said}replace {name}=={dependency} with {name}=={new}, the newest release it "
            "imports with"
            if named
            else f"{said}{name} {new} is the newest release it imports with: add {name}=={new} "
            "to pip:"
        )
    return sorted(out)


def undeclared_imports(
    pins: Mapping[str, str], rows: tuple[Undeclared, ...] | None = None
) -> list[str]:
    """For each pinned release that imports a distribution it does not declare and the pins
    lack, a warning that proposes `add REQUIREMENT` (sorted by package).

    >>> undeclared_imports({"keras": "2.7.0", "numpy": "1.21.4"})[0][:66]
    'keras 2.7.0 imports tensorflow but does not declare it, and the lo'
    >>> undeclared_imports({"keras": "2.7.0", "tensorflow-cpu": "2.7.0"})
    []
    """
    names: dict[str, str] = {str(canonicalize_name(n)): v for n, v in pins.items()}
    out: list[str] = []
    for row in load_undeclared() if rows is None else rows:
        version = names.get(row.package)
        if version is None or row.provided_by & names.keys():
            continue
        try:
            release = Version(version)
        except InvalidVersion:
            continue
        if not row.versions.contains(release, prereleases=True):
            continue
        add = row.add.format(major=release.major, minor=release.minor)
        if canonicalize_name(row.imports) in row.provided_by:
            out.append(
                f"{row.package} {version} imports {row.imports} but does not declare it, and the "
                f"lock has no {row.imports}: `import {row.package}` will fail "
                f"(matrices/package-issues.yaml); add {add} to pip:"
            )
            continue
        # a row whose import any one of several distributions satisfies (QtPy: a Qt binding)
        given = list(row.providers) or sorted(row.provided_by)
        listed = f"{', '.join(given[:-1])} or {given[-1]}" if len(given) > 1 else given[0]
        out.append(
            f"{row.package} {version} imports {row.imports} but declares none, and the lock has "
            f"none of {listed}: `import {row.package}` will fail "
            f"(matrices/package-issues.yaml); add {add} to pip: (or another of them)"
        )
    return sorted(out)


__all__ = [
    "PackageIssue",
    "Undeclared",
    "Understated",
    "explain",
    "issue_for",
    "load_issues",
    "load_undeclared",
    "load_understated",
    "undeclared_imports",
    "understated_requirements",
]
