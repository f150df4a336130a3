"""What PyPI publishes for torch and its companions, read from the indexes.

The job: read PEP 691 JSON simple-API pages (and, for torchvision/torchaudio, one wheel's METADATA
per version, or any one member of a wheel by HTTP range reads) into frozen facts. `parse_simple` is
pure; `fetch_pypi_facts` is the network entry point and talks only to https://pypi.org (or an index
the caller passes) with bounded timeouts and retries. This module must not print, must not spawn
processes, and must not write files.
"""

from __future__ import annotations

import json
import logging
import re
import struct
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlsplit

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from envgen.errors import NetworkError
from envgen.infra import network
from envgen.infra.proc import redact
from envgen.model.types import PYPI_SIMPLE, Platform

logger = logging.getLogger(__name__)

SIMPLE_JSON: Final = "application/vnd.pypi.simple.v1+json"
COMPANIONS: Final = ("torchvision", "torchaudio")
PACKAGES: Final = ("torch", *COMPANIONS)
# Other packages of the torch family whose wheels pin torch (torchtext 0.13.0: torch==1.12.0):
# recorded with their Requires-Dist for companions.yaml, so `envgen import` knows the torch a
# pinned one makes pip install; envgen pairs no release with them.
PINNERS: Final = ("torchtext", "torchdata")
_TIMEOUT_S: Final = 60.0
_RETRIES: Final = 3
_TAIL_BYTES: Final = 65536


# --- facts -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FileFact:
    """One distribution file as the simple API lists it (only the fields envgen keeps)."""

    filename: str
    upload_time: str | None
    requires_python: str | None
    yanked: bool | str
    core_metadata: str | None = None  # the PEP 658/714 sha256, when the index offers one


@dataclass(frozen=True)
class VersionFacts:
    """What PyPI shows for one version of one project."""

    version: str
    pythons: tuple[str, ...]  # "3.10", from cpXY wheel tags (and "3" for py3-none wheels)
    platforms: tuple[Platform, ...]
    linux_pythons: tuple[str, ...]  # the cpXY tags of manylinux x86_64 wheels only
    date: str | None  # earliest upload, YYYY-MM-DD
    requires_python: str | None
    yanked: bool
    yanked_reason: str | None
    requires_dist: tuple[str, ...] = ()  # from one wheel's METADATA (companions only)
    metadata_from: str | None = None  # the wheel whose METADATA gave requires_dist
    # Per platform (in _PLATFORM_ORDER), the Pythons of its cpXY wheels: a version can have a
    # Python on one platform only (torch 1.10.2: cp310 for linux-aarch64, none for x86_64).
    platform_pythons: tuple[tuple[Platform, tuple[str, ...]], ...] = ()

    def torch_requirement(self) -> Requirement | None:
        """The `torch` line of Requires-Dist, if any (markers are ignored)."""
        for line in self.requires_dist:
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            if req.name == "torch" and req.marker is None:
                return req
        return None

    def pins_torch(self) -> str | None:
        """The torch version this release pins with `==X` (local label dropped), else None."""
        req = self.torch_requirement()
        if req is None:
            return None
        specs = list(req.specifier)
        if len(specs) == 1 and specs[0].operator == "==" and "*" not in specs[0].version:
            return specs[0].version.split("+", 1)[0]
        return None


@dataclass(frozen=True)
class PackageFacts:
    name: str
    versions: Mapping[str, VersionFacts] = field(default_factory=dict)

    def get(self, version: str) -> VersionFacts | None:
        return self.versions.get(version)


@dataclass(frozen=True)
class PypiFacts:
    packages: Mapping[str, PackageFacts] = field(default_factory=dict)

    def package(self, name: str) -> PackageFacts:
        return self.packages.get(name) or PackageFacts(name)


# --- parsing (pure) ----------------------------------------------------------------------------
def wheel_platform(platform_tag: str) -> Platform | None:
    """Map one wheel platform tag to an envgen platform.

    >>> wheel_platform("manylinux_2_28_x86_64"), wheel_platform("macosx_11_0_arm64")
    ('linux-64', 'osx-arm64')
    """
    if platform_tag.startswith(("manylinux", "linux")):
        if platform_tag.endswith("x86_64"):
            return "linux-64"
        if platform_tag.endswith("aarch64"):
            return "linux-aarch64"
        return None
    if platform_tag.startswith("macosx"):
        if platform_tag.endswith(("x86_64", "intel")):
            return "osx-64"
        if platform_tag.endswith("arm64"):
            return "osx-arm64"
        return None
    if platform_tag == "win_amd64":
        return "win-64"
    return None


_CP = re.compile(r"^cp(\d)(\d+)$")


def _python_of(interpreter: str) -> str | None:
    m = _CP.match(interpreter)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    return None


def _version_of(filename: str) -> str | None:
    try:
        if filename.endswith(".whl"):
            return str(parse_wheel_filename(filename)[1])
        return str(parse_sdist_filename(filename)[1])
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None


def _sort_pythons(pythons: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(pythons), key=lambda p: tuple(int(x) for x in p.split("."))))


def file_facts(raw: Mapping[str, Any]) -> tuple[FileFact, ...]:
    """The per-file fields envgen keeps from a PEP 691 project page (or a trimmed recording)."""
    out = []
    for f in raw.get("files", ()):
        meta = f.get("core-metadata", f.get("data-dist-info-metadata"))
        sha = meta.get("sha256") if isinstance(meta, dict) else None
        out.append(
            FileFact(
                filename=f["filename"],
                upload_time=f.get("upload-time"),
                requires_python=f.get("requires-python"),
                yanked=f.get("yanked", False),
                core_metadata=sha,
            )
        )
    return tuple(out)


def parse_simple(
    raw: Mapping[str, Any],
    requires_dist: Mapping[str, Iterable[str]] | None = None,
    metadata_from: Mapping[str, str] | None = None,
) -> PackageFacts:
    """Turn one PEP 691 project page (plus optional Requires-Dist per version) into facts."""
    name = str(raw["name"])
    by_version: dict[str, list[FileFact]] = {}
    for f in file_facts(raw):
        v = _version_of(f.filename)
        if v is None:
            logger.debug("%s: skipping unparsable file name %s", name, f.filename)
            continue
        by_version.setdefault(v, []).append(f)
    requires_dist = requires_dist or {}
    metadata_from = metadata_from or {}
    versions: dict[str, VersionFacts] = {}
    for v in sorted(by_version, key=Version):
        files = by_version[v]
        pythons: set[str] = set()
        linux: set[str] = set()
        platforms: set[Platform] = set()
        per_platform: dict[Platform, set[str]] = {}
        for f in files:
            if not f.filename.endswith(".whl"):
                continue
            _, _, _, tags = parse_wheel_filename(f.filename)
            for tag in tags:
                py = _python_of(tag.interpreter)
                plat = wheel_platform(tag.platform)
                if plat is not None:
                    platforms.add(plat)
                if py is not None:
                    pythons.add(py)
                    if plat is not None:
                        per_platform.setdefault(plat, set()).add(py)
                    if plat == "linux-64":
                        linux.add(py)
        times = sorted(f.upload_time for f in files if f.upload_time)
        rps = sorted({f.requires_python for f in files if f.requires_python})
        yanks = [f.yanked for f in files]
        all_yanked = bool(yanks) and all(y is not False for y in yanks)
        reason = next((y for y in yanks if isinstance(y, str)), None)
        versions[v] = VersionFacts(
            version=v,
            pythons=_sort_pythons(pythons),
            platforms=tuple(p for p in _PLATFORM_ORDER if p in platforms),
            linux_pythons=_sort_pythons(linux),
            date=times[0][:10] if times else None,
            requires_python=rps[0] if len(rps) == 1 else (" | ".join(rps) or None),
            yanked=all_yanked,
            yanked_reason=reason if all_yanked else None,
            requires_dist=tuple(requires_dist.get(v, ())),
            metadata_from=metadata_from.get(v),
            platform_pythons=tuple(
                (p, _sort_pythons(per_platform[p])) for p in _PLATFORM_ORDER if p in per_platform
            ),
        )
    return PackageFacts(name=name, versions=versions)


_PLATFORM_ORDER: Final[tuple[Platform, ...]] = (
    "linux-64",
    "linux-aarch64",
    "osx-64",
    "osx-arm64",
    "win-64",
)


def requires_dist_lines(metadata: str) -> tuple[str, ...]:
    """The Requires-Dist values of a METADATA file, in order."""
    return tuple(
        line.split(":", 1)[1].strip()
        for line in metadata.splitlines()
        if line.lower().startswith("requires-dist:")
    )


def metadata_wheel(files: Iterable[FileFact]) -> FileFact | None:
    """The one wheel per version whose METADATA is read: manylinux x86_64 first, then Windows.

    Some torchvision aarch64/macOS arm64 wheels were built without the `torch==X` pin, so the
    manylinux x86_64 wheel (the one PyPI users get on Linux) is preferred.
    """

    def rank(f: FileFact) -> tuple[int, str]:
        n = f.filename
        if "manylinux" in n and n.endswith("x86_64.whl"):
            return (0, n)
        if n.endswith("win_amd64.whl"):
            return (1, n)
        return (2, n)

    wheels = [f for f in files if f.filename.endswith(".whl")]
    return min(wheels, key=rank) if wheels else None


def torch_specifier(vf: VersionFacts) -> str:
    """A companion's `torch` requirement as companions.yaml writes it ('' when unpinned/absent).

    >>> rd = ("torch (==1.3.0.*)",)
    >>> torch_specifier(VersionFacts("0.4.1.post2", (), (), (), None, None, False, None, rd))
    '==1.3.0.*'
    """
    req = vf.torch_requirement()
    if req is None:
        return ""
    return ",".join(sorted(f"{s.operator}{s.version.split('+', 1)[0]}" for s in req.specifier))


# --- network -----------------------------------------------------------------------------------
_LOOPBACK: Final = frozenset({"127.0.0.1", "localhost", "::1"})
# A project page of torch on PyPI is ~2 MB of JSON; a METADATA file a few KiB.
_MAX_BODY_BYTES: Final = 64 * 1024 * 1024


def check_index(url: str) -> str | None:
    """A problem with an index URL `matrix verify` may read, or None.

    Only https:// is fetched, and plain http:// to a loopback host (the test fixtures'
    servers): its traffic never leaves the machine.

    >>> check_index("https://pypi.org/simple") is None, check_index("http://127.0.0.1:8000/s")
    (True, None)
    >>> print(check_index("ftp://mirror.example/simple"))  # doctest: +NORMALIZE_WHITESPACE
    'ftp://mirror.example/simple' is not fetched: matrix verify reads https:// indexes
    (or http:// on 127.0.0.1, localhost, ::1); give e.g. https://pypi.org/simple
    """
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        _ = parts.port  # raises on a port that is not a number in range
    except ValueError as exc:
        return f"{url!r} is not a valid URL ({exc}); give e.g. {PYPI_SIMPLE}"
    if (parts.scheme == "https" and host) or (parts.scheme == "http" and host in _LOOPBACK):
        return None
    return (
        f"{url!r} is not fetched: matrix verify reads https:// indexes "
        f"(or http:// on 127.0.0.1, localhost, ::1); give e.g. {PYPI_SIMPLE}"
    )


def _get(
    url: str, headers: Mapping[str, str], timeout: float | None
) -> tuple[bytes, Mapping[str, str]]:
    """GET with bounded retries; NetworkError naming the URL when it cannot be had.

    `timeout`: seconds per request (the user's ENVGEN_HTTP_TIMEOUT), None for the default 60.
    """
    problem = check_index(url)
    if problem is not None:
        raise NetworkError(redact(problem))
    answer = network.http_get(
        url,
        headers=headers,
        timeout=timeout or _TIMEOUT_S,
        retries=_RETRIES,
        max_bytes=_MAX_BODY_BYTES,
        hint="check the network or the --index URL; ENVGEN_HTTP_TIMEOUT sets the timeout",
    )
    return answer.body, answer.headers


def http_get(
    url: str, headers: Mapping[str, str] | None = None, *, timeout: float | None = None
) -> bytes:
    """The body of an https GET, with bounded timeouts and retries on 5xx and network errors."""
    body, _ = _get(url, headers or {}, timeout)
    return body


def fetch_simple(
    name: str, index: str = PYPI_SIMPLE, *, timeout: float | None = None
) -> dict[str, Any]:
    """GET one PEP 691 JSON project page."""
    url = f"{index.rstrip('/')}/{name}/"
    try:
        data = json.loads(http_get(url, {"Accept": SIMPLE_JSON}, timeout=timeout))
    except ValueError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("files"), list) or "name" not in data:
        msg = f"GET {url}: not a PEP 691 JSON project page"
        raise NetworkError(msg, hint="give the index's simple-API root, e.g. " + PYPI_SIMPLE)
    return data


def _range(url: str, spec: str, timeout: float | None) -> tuple[bytes, int]:
    body, headers = _get(url, {"Range": f"bytes={spec}"}, timeout)
    cr = {k.lower(): v for k, v in headers.items()}.get("content-range")
    if cr is None:
        msg = f"{url}: server ignored the Range header"
        raise OSError(msg)
    return body, int(cr.rsplit("/", 1)[1])


def fetch_wheel_metadata(
    url: str, core_metadata: bool = False, *, timeout: float | None = None
) -> str:
    """A wheel's METADATA: the PEP 658 `.metadata` file when offered, else HTTP range reads."""
    if core_metadata:
        return http_get(url + ".metadata", timeout=timeout).decode("utf-8", "replace")
    return fetch_wheel_member(
        url, lambda m: m.count("/") == 1 and m.endswith(".dist-info/METADATA"), timeout=timeout
    )


def fetch_wheel_member(
    url: str, wanted: Callable[[str], bool], *, timeout: float | None = None
) -> str:
    """The first member of the wheel (zip) at `url` whose name `wanted` accepts, as text.

    HTTP range reads: the zip's central directory from the last 64 KiB, then only that member,
    so a 2 GB wheel costs two or three small requests.
    """
    tail, total = _range(url, f"-{_TAIL_BYTES}", timeout)
    eocd = tail.rfind(b"PK\x05\x06")
    if eocd < 0:
        msg = f"{url}: no zip end-of-central-directory in the last {_TAIL_BYTES} bytes"
        raise OSError(msg)
    cd_size, cd_off = struct.unpack("<II", tail[eocd + 12 : eocd + 20])
    start = total - len(tail)
    if cd_off >= start:
        cd = tail[cd_off - start : cd_off - start + cd_size]
    else:
        cd, _ = _range(url, f"{cd_off}-{cd_off + cd_size - 1}", timeout)
    pos = 0
    while pos + 46 <= len(cd):
        fields = struct.unpack("<IHHHHHHIIIHHHHHII", cd[pos : pos + 46])
        method, csize, nlen, elen, clen, loff = (
            fields[4],
            fields[8],
            fields[10],
            fields[11],
            fields[12],
            fields[16],
        )
        member = cd[pos + 46 : pos + 46 + nlen].decode("utf-8", "replace")
        pos += 46 + nlen + elen + clen
        if wanted(member):
            local, _ = _range(url, f"{loff}-{loff + 30 + nlen + 1024 + csize}", timeout)
            n2, e2 = struct.unpack("<HH", local[26:30])
            data = local[30 + n2 + e2 : 30 + n2 + e2 + csize]
            raw = zlib.decompress(data, -15) if method == 8 else data
            return raw.decode("utf-8", "replace")
    msg = f"{url}: no such member"
    raise OSError(msg)


def fetch_requires_dist(
    raw: Mapping[str, Any], *, timeout: float | None = None
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Requires-Dist of one wheel per version of a project page (bounded: one wheel each)."""
    urls = {f["filename"]: f.get("url", "") for f in raw.get("files", ())}
    by_version: dict[str, list[FileFact]] = {}
    for f in file_facts(raw):
        v = _version_of(f.filename)
        if v is not None:
            by_version.setdefault(v, []).append(f)
    out: dict[str, list[str]] = {}
    chosen: dict[str, str] = {}
    for v, files in sorted(by_version.items(), key=lambda kv: Version(kv[0])):
        wheel = metadata_wheel(files)
        if wheel is None:
            continue
        url = urls.get(wheel.filename, "")
        try:
            text = fetch_wheel_metadata(
                url, core_metadata=wheel.core_metadata is not None, timeout=timeout
            )
        except (NetworkError, OSError, ValueError, zlib.error, struct.error) as exc:
            logger.warning("%s %s: no METADATA (%s)", raw.get("name"), v, exc)
            continue
        out[v] = list(requires_dist_lines(text))
        chosen[v] = wheel.filename
    return out, chosen


def fetch_pypi_facts(
    names: Iterable[str] = PACKAGES, index: str = PYPI_SIMPLE, *, timeout: float | None = None
) -> PypiFacts:
    """Live facts for `names` from a PEP 691 index (companions also get Requires-Dist).

    `timeout`: seconds per request (Settings.http_timeout), None for the default 60.
    """
    packages: dict[str, PackageFacts] = {}
    for name in names:
        raw = fetch_simple(name, index, timeout=timeout)
        rd: dict[str, list[str]] = {}
        chosen: dict[str, str] = {}
        if name in COMPANIONS:
            rd, chosen = fetch_requires_dist(raw, timeout=timeout)
        packages[name] = parse_simple(raw, rd, chosen)
    return PypiFacts(packages=packages)
