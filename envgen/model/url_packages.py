"""Packages installed from a repository URL whose PyPI namesake is another project.

`pip install git+https://github.com/openai/CLIP.git` installs the repository's own package;
PyPI's `clip` is an unrelated project, so its Requires-Dist says nothing of what the URL brings
in. matrices/url-packages.yaml records, per repository and date, the torch-family requirements
the repository's own files declared (each row with its commit); `envgen import` reads the row in
force on the file's date. This module must not read the network.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from packaging.requirements import Requirement

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR

TABLE: Final = MATRICES_DIR / "url-packages.yaml"
_KEYS: Final = frozenset({"url", "name", "namesake", "from", "requires", "source"})


@dataclass(frozen=True, slots=True, kw_only=True)
class UrlPackage:
    """What one repository's package required of torch's family from a date on."""

    url: str  # host/owner/repository, lower-cased
    name: str
    namesake: str
    since: dt.date
    requires: tuple[str, ...]
    source: str


@functools.cache
def load_url_packages(path: Path = TABLE) -> tuple[UrlPackage, ...]:
    """The table's rows, checked (every key known, dates, URLs and requirements well formed)."""
    from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - PyYAML; only when asked

    try:
        _, data = load_bounded(path.read_text(encoding="utf-8"), shipped=True)
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the URL package table: {exc}"
        raise MatrixError(msg) from exc
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        msg = f"{path}: expected a mapping with a `rows:` list"
        raise MatrixError(msg)
    out: list[UrlPackage] = []
    for i, raw in enumerate(rows):
        if (
            not isinstance(raw, dict)
            or set(raw) != _KEYS
            or not isinstance(raw["requires"], list)
            or not all(isinstance(r, str) for r in raw["requires"])
        ):
            msg = f"{path}: rows[{i}]: expected the keys {', '.join(sorted(_KEYS))}; got {raw!r}"
            raise MatrixError(msg)
        try:
            since = dt.date.fromisoformat(str(raw["from"]))
            requires = tuple(str(Requirement(r)) for r in raw["requires"])
        except ValueError as exc:  # a date, or a requirement (InvalidRequirement is one)
            msg = f"{path}: rows[{i}]: `from` must be a date and `requires` requirements: {exc}"
            raise MatrixError(msg) from None
        if str(raw["url"]) != repository_key(f"https://{raw['url']}"):
            msg = (
                f"{path}: rows[{i}]: url must be host/owner/repository, lower-cased: {raw['url']!r}"
            )
            raise MatrixError(msg)
        out.append(
            UrlPackage(
                url=str(raw["url"]),
                name=str(raw["name"]),
                namesake=str(raw["namesake"]),
                since=since,
                requires=requires,
                source=str(raw["source"]),
            )
        )
    return tuple(out)


def repository_key(url: str) -> str | None:
    """The host/owner/repository a requirement URL installs from, lower-cased, or None.

    >>> repository_key("git+https://github.com/openai/CLIP.git@main#egg=clip")
    'github.com/openai/clip'
    >>> repository_key("https://github.com/openai/CLIP/archive/master.zip")
    'github.com/openai/clip'
    >>> repository_key("git+ssh://git@github.com/openai/CLIP"), repository_key("file:///x")
    ('github.com/openai/clip', None)
    """
    try:
        parts = urlsplit(url.strip().removeprefix("git+"))
        host = (parts.hostname or "").lower()
    except ValueError:  # `https://[abc/...`: no URL
        return None
    path = [p for p in parts.path.split("/") if p]
    if not host or len(path) < 2:
        return None
    repository = re.sub(r"\.git$", "", path[1].split("@", 1)[0])
    return f"{host}/{path[0].lower()}/{repository.lower()}"


def requires_as_of(url: str, as_of: dt.date | None) -> UrlPackage | None:
    """The row in force for the repository `url` installs from on `as_of` (the newest row when
    no date is known); None where the table has no row for it, or none by that date."""
    key = repository_key(url)
    if key is None:
        return None
    rows = sorted((r for r in load_url_packages() if r.url == key), key=lambda r: r.since)
    dated = [r for r in rows if as_of is None or r.since <= as_of]
    return dated[-1] if dated else None
