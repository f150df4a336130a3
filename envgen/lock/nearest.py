"""The nearest published versions of a pin the index does not have.

A paper's file can pin a build PyPI has since deleted (tb-nightly keeps only some nightlies:
`tb-nightly==2.3.0a20200620` is gone) or never had. uv then says `there is no version of
NAME==VERSION`; `nearest_hint` reads that, asks the index's PEP 691 page for NAME which versions
it has, and names the nearest before and after, proposing the one before (it existed when the
file was written; a later one may postdate the lock's date).

Reads the network (one GET per missing pin, bounded); never raises: without an answer there is
no hint.
"""

from __future__ import annotations

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
    url = f"{index.rstrip('/')}/{canonicalize_name(name)}/"
    body = http_get(url, headers={"Accept": SIMPLE_JSON}, timeout=timeout, max_bytes=_MAX_PAGE)
    data = json.loads(body.body)
    found: set[Version] = set()
    for entry in data.get("files", []) if isinstance(data, dict) else []:
        filename = str(entry.get("filename", "")) if isinstance(entry, dict) else ""
        if not filename or entry.get("yanked"):
            continue
        try:
            if filename.endswith(".whl"):
                found.add(parse_wheel_filename(filename)[1])
            else:
                found.add(parse_sdist_filename(filename)[1])
        except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
            continue
    return sorted(found)


def nearest_hint(stderr: str, index: str, *, timeout: float = 10.0) -> str | None:
    """A hint naming, for each pin uv found no version of, the nearest versions `index` has and
    the replacement proposed; None when uv said no such thing or the index did not answer."""
    lines: list[str] = []
    shown = split_credentials(index)[0]  # a mirror's token never reaches a message
    for name, text in missing_pins(stderr)[:_MAX_PINS]:
        if canonicalize_name(name) in _TORCH_FAMILY or "+" in text:
            continue  # torch's builds come from the PyTorch index and the matrix, not this page
        try:
            wanted = Version(text)
            have = index_versions(index, name, timeout=timeout)
        except (EnvgenError, InvalidVersion, ValueError):
            continue
        if not have:
            lines.append(f"{name} has no installable file on {shown} at all")
            continue
        before, after = nearest(wanted, have)
        near = ", ".join(
            f"{v} ({side})" for v, side in ((before, "before"), (after, "after")) if v is not None
        )
        pick = before or after
        lines.append(
            f"{name} {text} is not on {shown} (deleted, or never published); the nearest there: "
            f"{near}: replace {name}=={text} with {name}=={pick}"
        )
    return "; ".join(lines) or None


__all__ = ["index_versions", "missing_pins", "nearest", "nearest_hint"]
