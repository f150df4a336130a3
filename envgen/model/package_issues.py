"""Releases of PyPI packages uv cannot install today, with the nearest that installs
(matrices/package-issues.yaml): gym 0.18.0-0.21.0 name `opencv-python>=3.` in their extras.

`explain` reads a failed lock's uv output for the pins it names (`NAME==V has invalid metadata`,
`Failed to build NAME==V`) and turns those the table knows into a hint that proposes the
replacement. This module must not start processes or read the network.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.infra.safe_yaml import load_bounded

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
        _, data = load_bounded(path.read_text(encoding="utf-8"))
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


__all__ = ["PackageIssue", "explain", "issue_for", "load_issues"]
