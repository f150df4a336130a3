"""The nearest published versions of a pin the index does not have.

A paper's file can pin a build PyPI has since deleted (tb-nightly keeps only some nightlies:
`tb-nightly==2.3.0a20200620` is gone) or never had. uv then says `there is no version of
NAME==VERSION`; `nearest_hint` reads that, asks the index's PEP 691 page for NAME which versions
it has, and names the nearest before and after, proposing the one before (it existed when the
file was written; a later one may postdate the lock's date).

With a lock date (`lock.exclude_newer`, `--as-of`) only releases uploaded before it count: uv
says `there is no version` of a pin the date filters out too. A pin the index has, uploaded after
the date, is named as such (not as deleted); where no release of NAME there predates the date (a
pip freeze of 2019 pins ortools 7.0.6546, and PyPI's oldest ortools is of 2021), the hint
proposes `drop NAME from pip:` (where the code does not import it) or a later date.

Reads the network (one GET per missing pin, bounded); never raises: without an answer there is
no hint.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Final

from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from envgen.errors import EnvgenError
from envgen.infra.network import http_get
from envgen.infra.proc import split_credentials

_NO_VERSION: Final = re.compile(
    r"there is no version of ([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!_-]+)"
)
SIMPLE_JSON: Final = "application/vnd.pypi.simple.v1+json"
_MAX_PINS: Final = 3  # GETs per failed lock, at most
_TORCH_FAMILY: Final = frozenset({"torch", "torchvision", "torchaudio"})
_MAX_PAGE: Final = 32 << 20  # tb-nightly's page is large (thousands of files)


def missing_pins(text: str) -> list[tuple[str, str]]:
    """(name, version) of each `there is no version of NAME==VERSION` uv printed, in order.

    >>> missing_pins("Because there is no version of tb-nightly==2.3.0a20200620 and x depends")
    [('tb-nightly', '2.3.0a20200620')]
    """
    out: list[tuple[str, str]] = []
    for name, version in _NO_VERSION.findall(text):
        if (name, version.rstrip(".")) not in out:
            out.append((name, version.rstrip(".")))
    return out


def nearest(wanted: Version, have: list[Version]) -> tuple[Version | None, Version | None]:
    """The greatest version below `wanted` and the least above it, among `have`.

    >>> nearest(Version("2.3.0a20200620"), [Version(v) for v in ("2.3.0a20200601", "2.3.0")])
    (<Version('2.3.0a20200601')>, <Version('2.3.0')>)
    """
    below = [v for v in have if v < wanted]
    above = [v for v in have if v > wanted]
    return (max(below) if below else None, min(above) if above else None)


def index_versions(index: str, name: str, *, timeout: float) -> list[Version]:
    """The versions with at least one non-yanked file on the PEP 691 page of `name`."""
    return sorted(index_releases(index, name, timeout=timeout))


def index_releases(index: str, name: str, *, timeout: float) -> dict[Version, str]:
    """Each version with a non-yanked file on the PEP 691 page of `name`, with the day its first
    file was uploaded (`YYYY-MM-DD`; "" where the index gives no upload time)."""
    url = f"{index.rstrip('/')}/{canonicalize_name(name)}/"
    body = http_get(url, headers={"Accept": SIMPLE_JSON}, timeout=timeout, max_bytes=_MAX_PAGE)
    data = json.loads(body.body)
    found: dict[Version, str] = {}
    for entry in data.get("files", []) if isinstance(data, dict) else []:
        filename = str(entry.get("filename", "")) if isinstance(entry, dict) else ""
        if not filename or entry.get("yanked"):
            continue
        try:
            if filename.endswith(".whl"):
                version = parse_wheel_filename(filename)[1]
            else:
                version = parse_sdist_filename(filename)[1]
        except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
            continue
        day = str(entry.get("upload-time") or "")[:10]
        seen = found.get(version)
        found[version] = min(seen, day) if seen and day else (seen or day)
    return found


def _dated_line(
    name: str, text: str, releases: dict[Version, str], shown: str, before: dt.date
) -> str | None:
    """The hint for a pin when the lock has a date: releases uploaded from that day on do not
    count (uv filters them); None where it has nothing to add."""
    wanted = Version(text)
    day = before.isoformat()
    usable = [v for v, up in releases.items() if up and up < day]
    later = sorted((up, v) for v, up in releases.items() if up and up >= day)
    if wanted in releases and releases[wanted] >= day:
        what = (
            f"{name} {text} is on {shown}, uploaded {releases[wanted]}, after the lock's date "
            f"(exclude_newer {day})"
        )
    elif wanted not in releases:
        what = f"{name} {text} is not on {shown} (deleted, or never published)"
    else:
        return None  # there before the date: uv refused it for another reason
    below, above = nearest(wanted, usable)
    if below is None and above is None:
        oldest = f"{later[0][1]}, uploaded {later[0][0]}" if later else "none"
        return (
            f"{what}, and no release of {name} there predates that date (the oldest: {oldest}): "
            f"drop {name} from pip: if the code does not import it, or move lock.exclude_newer "
            "(--as-of) past the release it needs"
        )
    near = ", ".join(
        f"{v} ({side})" for v, side in ((below, "before"), (above, "after")) if v is not None
    )
    return (
        f"{what}; the nearest there before {day}: {near}: replace {name}=={text} with "
        f"{name}=={below or above}"
    )


def nearest_hint(
    stderr: str, index: str, *, timeout: float = 10.0, before: dt.date | None = None
) -> str | None:
    """A hint naming, for each pin uv found no version of, the nearest versions `index` has and
    the replacement proposed; None when uv said no such thing or the index did not answer.
    `before`: the lock's date (module doc)."""
    lines: list[str] = []
    shown = split_credentials(index)[0]  # a mirror's token never reaches a message
    for name, text in missing_pins(stderr)[:_MAX_PINS]:
        if canonicalize_name(name) in _TORCH_FAMILY or "+" in text:
            continue  # torch's builds come from the PyTorch index and the matrix, not this page
        try:
            wanted = Version(text)
            releases = index_releases(index, name, timeout=timeout)
        except (EnvgenError, InvalidVersion, ValueError):
            continue
        have = sorted(releases)
        if not have:
            lines.append(f"{name} has no installable file on {shown} at all")
            continue
        if before is not None:
            line = _dated_line(name, text, releases, shown, before)
            if line is not None:
                lines.append(line)
            continue
        if wanted in releases:
            continue  # the index has it: uv refused it for another reason
        below, above = nearest(wanted, have)
        near = ", ".join(
            f"{v} ({side})" for v, side in ((below, "before"), (above, "after")) if v is not None
        )
        pick = below or above
        lines.append(
            f"{name} {text} is not on {shown} (deleted, or never published); the nearest there: "
            f"{near}: replace {name}=={text} with {name}=={pick}"
        )
    return "; ".join(lines) or None


__all__ = ["index_releases", "index_versions", "missing_pins", "nearest", "nearest_hint"]
