"""The torch a file installs only through another package's dependencies.

`timm==0.4.12` and `diffusers==0.3.0` in a requirements file that names no torch still install
one: pip takes it from their Requires-Dist. This module reads, for each package the file names
(one level deep: not the dependencies' own dependencies), the core metadata of the version the
file pins (or the newest release uploaded by the file's date that its range allows) from a PEP 691
simple index: PyPI's PEP 658 file `<wheel url>.metadata` where the page's `core-metadata` /
`data-dist-info-metadata` key says it exists, else the wheel's own `*.dist-info/METADATA`, read
with two HTTP range requests (the zip's central directory, then that one member; PyPI lists no
PEP 658 file for wheels uploaded before 2023); for a folder index (`file:`), the file
`<name>/<wheel file name>.metadata` beside `<name>/index.json` (scripts/record_pin_pages.py writes
them for the corpus). Its Requires-Dist lines that name
torch, torchvision or torchaudio and apply to the install on linux-64 (no extra, or one the
requirement asks for, `transformers[torch]`; a marker that holds for some python on linux) are
what it brings in. A ranged package is its newest release as of the file's date (and, where the
environment's python is known, the newest whose requires-python admits it).

A release with no linux-64 wheel (an sdist only) is downloaded (at most MAX_SDIST_BYTES, read in
memory, never extracted nor run) and its top-level setup.py read with the importer's setup.py
reader (install_requires as literal or constant-built lists; envgen.repro.importer.setup_py), its
requirements written as Requires-Dist lines of a `<sdist file name>.metadata` (cached; for a
folder index, read from there like a wheel's); a setup.py that computes them says nothing.

Bounded: at most MAX_PACKAGES packages per import (MAX_SDISTS of them sdists), MAX_METADATA_BYTES
per metadata file; cached beside the pages (envgen.repro.wheels); never raises on a network
failure: the caller gets a note instead. Deterministic: the same pages give the same answer.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from envgen.errors import EnvgenError
from envgen.infra.files import atomic_write_bytes
from envgen.repro.reading import excerpt
from envgen.repro.wheels import (
    _allows,
    _file_version,
    _local_folder,
    _tags_of,
    _uploaded_by,
    fetch_pages,
)
from envgen.repro.wheels import linux_platform as _linux_platform

FAMILY: Final = ("torch", "torchvision", "torchaudio")
MAX_PACKAGES: Final = 64  # named packages whose metadata is read per import (one request each)
MAX_METADATA_BYTES: Final = 2 * 1024 * 1024  # a METADATA file is a few kB; a long README 100 kB
MAX_SDIST_BYTES: Final = 8 * 1024 * 1024  # an sdist read for its setup.py (most: 50-500 kB)
MAX_SDISTS: Final = 16  # sdist-only releases read per import (each a whole download)
MAX_SDIST_UNPACKED: Final = 64 * 1024 * 1024  # an sdist's tar after decompression (in memory)
MAX_SDIST_MEMBERS: Final = 10_000  # tar members / zip entries looked at for the setup.py
_WORKERS: Final = 8
_TAIL: Final = 64 * 1024  # bytes read from a wheel's end: its central directory, mostly
# Pythons a marker is tried with (it applies when it holds for one of them on linux-64).
_PYTHONS: Final = tuple(f"3.{minor}" for minor in range(6, 15))
_LINUX_ENV: Final = {
    "os_name": "posix",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
    "platform_python_implementation": "CPython",
    "implementation_name": "cpython",
    "platform_release": "",
    "platform_version": "",
    "extra": "",
}


def family_to_read(torch_named: bool, companions: set[str]) -> list[str]:
    """Which of torch's family a file's packages are asked about: the ones it does not name (all
    three where it names none), but never torch where the file names a companion: the companions
    it pins pick their torch (`torchvision==0.15.0` is torch 2.0.0, and pip's resolver takes an
    older lightning rather than the newest one's `torch>=2.1.0`).

    >>> family_to_read(False, set())
    ['torch', 'torchvision', 'torchaudio']
    >>> family_to_read(True, {"torchvision"}), family_to_read(False, {"torchvision", "torchaudio"})
    (['torchaudio'], [])
    >>> family_to_read(False, {"torchvision"})
    ['torchaudio']
    """
    named = ({"torch"} if torch_named else set()) | companions
    return [n for n in FAMILY if n not in named and not (n == "torch" and companions)]


@dataclass(frozen=True, slots=True)
class Brought:
    """One torch-family requirement a named package brings in."""

    package: str  # name==version whose metadata said it
    name: str  # torch, torchvision or torchaudio
    specifier: str  # "" (unpinned) or ">=1.4"


def chosen_version(
    specifier: str,
    page: dict[str, object],
    name: str,
    as_of: dt.date | None,
    python: str | None = None,
) -> Version | None:
    """The version pip takes for `name<specifier>` on the file's date: an exact pin's version, else
    the newest final release with a file uploaded by `as_of` that the range allows (and, where
    the environment's `python` minor is known, whose file's requires-python admits it: pip skips
    the others).

    >>> page = {"files": [{"filename": f, "upload-time": t} for f, t in (
    ...     ("lpips-0.1.3-py3-none-any.whl", "2020-07-01"), ("lpips-0.1.4-py3-none-any.whl",
    ...     "2021-08-01"), ("lpips-0.2.0rc1.tar.gz", "2021-09-01"))]}
    >>> str(chosen_version("", page, "lpips", dt.date(2022, 1, 1)))
    '0.1.4'
    >>> str(chosen_version("<0.1.4", page, "lpips", None))
    '0.1.3'
    >>> str(chosen_version("==0.1.4", page, "lpips", dt.date(2020, 1, 1)))  # a pin: as written
    '0.1.4'
    >>> page["files"][1]["requires-python"] = ">=3.9"
    >>> str(chosen_version("", page, "lpips", None, "3.8"))
    '0.1.3'
    """
    try:
        spec = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None
    exact = [s for s in spec if s.operator in {"==", "==="} and "*" not in s.version]
    if len(exact) == 1:
        try:
            return Version(exact[0].version)
        except ValueError:
            return None
    key = str(canonicalize_name(name))
    seen: set[Version] = set()
    files = page.get("files")
    for item in files if isinstance(files, list) else []:
        if not isinstance(item, dict) or item.get("yanked") not in (False, None):
            continue
        version = _file_version(str(item.get("filename", "")), key)
        if version is None or version.is_prerelease or version.is_devrelease:
            continue
        if (
            _uploaded_by(item.get("upload-time"), as_of)
            and spec.contains(version)
            and _admits_python(item.get("requires-python"), python)
        ):
            seen.add(version)
    return max(seen) if seen else None


def _admits_python(requires: object, python: str | None) -> bool:
    """A file's requires-python admits some release of the `python` minor (unknown: True)."""
    if python is None or not isinstance(requires, str) or not requires.strip():
        return True
    return _allows(requires, python)


def metadata_file(name: str, version: Version, page: dict[str, object]) -> dict[str, object] | None:
    """The wheel of `version` whose core metadata is read: one a linux-64 install takes (pure
    first, then by file name); None when the version has no such wheel."""
    key = str(canonicalize_name(name))
    wheels: list[tuple[int, str, dict[str, object]]] = []
    files = page.get("files")
    for item in files if isinstance(files, list) else []:
        if not isinstance(item, dict) or item.get("yanked") not in (False, None):
            continue
        filename = str(item.get("filename", ""))
        if not filename.endswith(".whl"):
            continue
        tags = _tags_of(filename, key, version)
        if not isinstance(tags, list) or not any(_linux_platform(p) for _, _, p in tags):
            continue
        pure = all(p == "any" for _, _, p in tags)
        wheels.append((0 if pure else 1, filename, item))
    return min(wheels, key=lambda w: (w[0], w[1]))[2] if wheels else None


def family_requires(metadata: str, extras: frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """(name, specifier) of each Requires-Dist naming torch, torchvision or torchaudio that an
    install on linux-64 takes: a plain one, or with the `extras` the requirement asked for
    (`transformers[torch]`); a marker that holds for some python.

    >>> meta = ("Name: x\\nRequires-Dist: torch (>=1.4)\\nRequires-Dist: torchvision\\n"
    ...     "Requires-Dist: torchaudio ; extra == 'audio'\\nRequires-Dist: numpy\\n\\nbody")
    >>> family_requires(meta), family_requires(meta, frozenset({"audio"}))[-1]
    ([('torch', '>=1.4'), ('torchvision', '')], ('torchaudio', ''))
    """
    out: list[tuple[str, str]] = []
    for line in metadata.split("\n\n", 1)[0].splitlines():
        field, _, value = line.partition(":")
        if field.strip().lower() != "requires-dist":
            continue
        try:
            req = Requirement(value.strip())
        except InvalidRequirement:
            continue
        name = str(canonicalize_name(req.name))
        if name not in FAMILY or req.url:
            continue
        if req.marker is not None and not any(
            _on_linux(req.marker, extra) for extra in ("", *sorted(extras))
        ):
            continue
        out.append((name, str(req.specifier)))
    return out


def _on_linux(marker: Marker, extra: str = "") -> bool:
    for python in _PYTHONS:
        env = {
            **_LINUX_ENV,
            "python_version": python,
            "python_full_version": f"{python}.0",
            "extra": extra,
        }
        try:
            if marker.evaluate(env):
                return True
        except Exception:
            return False
    return False


def _requested_extras(requirements: list[str]) -> dict[str, frozenset[str]]:
    """The extras each named package is asked with (`transformers[torch]>=4.23`).

    >>> {k: sorted(v) for k, v in _requested_extras(["transformers[torch,sentencepiece]>=4.23",
    ...                                              "timm"]).items()}
    {'transformers': ['sentencepiece', 'torch']}
    """
    out: dict[str, frozenset[str]] = {}
    for text in requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if req.extras:
            name = str(canonicalize_name(req.name))
            out[name] = out.get(name, frozenset()) | frozenset(req.extras)
    return out


def named_packages(requirements: list[str]) -> list[tuple[str, str]]:
    """(canonical name, specifier) of each package a requirement names, torch's family and
    direct URLs left out, in file order, once each.

    >>> named_packages(["timm==0.4.12", "torch>=1.8", "x @ https://e/x.whl", "Timm", "b"])
    [('timm', '==0.4.12'), ('b', '')]
    """
    wanted: list[tuple[str, str]] = []
    for text in requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        name = str(canonicalize_name(req.name))
        if name in FAMILY or req.url or any(n == name for n, _ in wanted):
            continue
        wanted.append((name, str(req.specifier)))
    return wanted


def brought_in(
    requirements: list[str],
    *,
    index: str,
    cache_dir: Path,
    as_of: dt.date | None,
    timeout: float,
    python: str | None = None,
) -> tuple[list[Brought], list[str]]:
    """What torch-family requirements the file's named packages bring in, and notes on what could
    not be read. With `python`, a ranged package is the newest release whose requires-python
    admits it."""
    wanted = named_packages(requirements)
    notes: list[str] = []
    if len(wanted) > MAX_PACKAGES:
        notes.append(
            f"{len(wanted)} named packages; the Requires-Dist of the first {MAX_PACKAGES} is read"
        )
        wanted = wanted[:MAX_PACKAGES]
    if not wanted:
        return [], []
    pages, failed = fetch_pages([n for n, _ in wanted], index=index, cache_dir=cache_dir,
                                timeout=timeout)  # fmt: skip
    notes += failed
    base = index.rstrip("/")
    folder = cache_dir / hashlib.sha256(base.encode()).hexdigest()[:16] / "metadata"
    local = _local_folder(base)
    jobs: list[tuple[str, str, dict[str, object]]] = []  # (name==version, name, file entry)
    sdists = 0
    for name, specifier in wanted:
        page = pages.get(name)
        if page is None:
            continue
        version = chosen_version(specifier, page, name, as_of, python)
        if version is None:
            continue
        item = metadata_file(name, version, page)
        if item is None and (item := sdist_file(name, version, page)) is not None:
            sdists += 1
            if sdists > MAX_SDISTS:
                notes.append(
                    f"{name}=={version}: an sdist only, past the {MAX_SDISTS} read; not read"
                )
                continue
        if item is not None:
            jobs.append((f"{name}=={version}", name, item))

    def one(job: tuple[str, str, dict[str, object]]) -> tuple[str | None, str | None]:
        return _metadata(job[1], job[2], folder=folder, local=local, timeout=timeout)

    if len(jobs) > 1:
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415 - only when looked up

        with ThreadPoolExecutor(max_workers=min(_WORKERS, len(jobs))) as pool:
            results = list(pool.map(one, jobs))
    else:
        results = [one(job) for job in jobs]
    found: list[Brought] = []
    extras = _requested_extras(requirements)
    for (package, name, _), (meta, note) in zip(jobs, results, strict=True):
        if note:
            notes.append(f"{package}: {note}")
        for family, specifier in family_requires(meta or "", extras.get(name, frozenset())):
            found.append(Brought(package=package, name=family, specifier=specifier))
    return found, notes


def sdist_file(name: str, version: Version, page: dict[str, object]) -> dict[str, object] | None:
    """The sdist of `version` (.tar.gz first, by file name), read where it has no linux wheel."""
    files = page.get("files")
    found = sorted(
        (not str(item.get("filename", "")).endswith(".tar.gz"), str(item.get("filename")))
        for item in (files if isinstance(files, list) else [])
        if isinstance(item, dict)
        and item.get("yanked") in (False, None)
        and _tags_of(str(item.get("filename", "")), str(canonicalize_name(name)), version)
        == "sdist"
    )
    if not found or not isinstance(files, list):
        return None
    wanted = found[0][1]
    return next(i for i in files if isinstance(i, dict) and i.get("filename") == wanted)


def _sdist_requires(name: str, filename: str, body: bytes) -> bytes:
    """Requires-Dist lines of an sdist: its PKG-INFO's where that is metadata 2.2 or newer and
    does not mark Requires-Dist dynamic (PEP 643: then they are the built wheel's), else the
    install_requires of its top-level setup.py."""
    from envgen.repro.importer.setup_py import setup_py  # noqa: PLC0415 - only for an sdist

    try:
        members = _members(filename, body)
    except Exception as exc:
        why = excerpt(str(exc)) if isinstance(exc, ValueError) else exc.__class__.__name__
        msg = f"the sdist could not be read ({why})"
        raise ValueError(msg) from exc
    static = _static_requires(members.get("PKG-INFO"))
    if static is not None:
        lines = [f"Name: {name}"] + [f"Requires-Dist: {req}" for req in static]
        return ("\n".join(lines) + "\n").encode()
    text = members.get("setup.py")
    if text is None:
        msg = "no top-level setup.py in the sdist, and no static Requires-Dist in its PKG-INFO"
        raise ValueError(msg)
    declared = setup_py(text, f"{filename}/setup.py")
    lines = [f"Name: {name}"] + [f"Requires-Dist: {req}" for _, req in declared.requirements]
    return ("\n".join(lines) + "\n").encode()


def _static_requires(text: str | None) -> list[str] | None:
    """The Requires-Dist of an sdist's PKG-INFO where PEP 643 makes them final (Metadata-Version
    2.2 or newer, Requires-Dist not `Dynamic`); None otherwise.

    >>> _static_requires("Metadata-Version: 2.4\\nName: x\\nRequires-Dist: torch\\n")
    ['torch']
    >>> _static_requires("Metadata-Version: 2.1\\nName: x\\nRequires-Dist: torch\\n")
    >>> _static_requires("Metadata-Version: 2.2\\nDynamic: Requires-Dist\\nRequires-Dist: a\\n")
    """
    if text is None:
        return None
    from email.parser import HeaderParser  # noqa: PLC0415 - only for an sdist

    headers = HeaderParser().parsestr(text)
    try:
        version = tuple(int(p) for p in str(headers.get("Metadata-Version", "")).split("."))
    except ValueError:
        return None
    dynamic = {str(d).strip().lower() for d in headers.get_all("Dynamic") or []}
    if version < (2, 2) or "requires-dist" in dynamic:
        return None
    return [str(r).strip() for r in headers.get_all("Requires-Dist") or []]


# The top-level members of an sdist that say what it requires.
_SDIST_MEMBERS: Final = ("PKG-INFO", "setup.py")


def _members(filename: str, body: bytes) -> dict[str, str]:
    """The text of `<top>/PKG-INFO` and `<top>/setup.py` in an sdist (tar or zip), read in
    memory (never extracted).

    Bounded: a compressed tar is decompressed into at most MAX_SDIST_UNPACKED bytes and at most
    MAX_SDIST_MEMBERS members (zip entries) are looked at; ValueError past either bound.
    """
    import io  # noqa: PLC0415
    import tarfile  # noqa: PLC0415
    import zipfile  # noqa: PLC0415

    def top(path: str) -> str | None:
        head, _, tail = path.partition("/")
        return tail if head and tail in _SDIST_MEMBERS else None

    out: dict[str, str] = {}
    if filename.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_SDIST_MEMBERS:
                msg = f"over {MAX_SDIST_MEMBERS} entries"
                raise ValueError(msg)
            for info in infos:
                wanted = top(info.filename)
                if wanted is None or wanted in out or info.file_size > MAX_METADATA_BYTES:
                    continue
                with archive.open(info) as entry:
                    data = entry.read(MAX_METADATA_BYTES + 1)
                if len(data) <= MAX_METADATA_BYTES:
                    out[wanted] = data.decode("utf-8", errors="replace")
        return out
    unpacked = _unpacked(body)
    with tarfile.open(fileobj=io.BytesIO(unpacked), mode="r:") as tar:
        for count, member in enumerate(tar, start=1):
            wanted = top(member.name)
            if (
                wanted is not None
                and wanted not in out
                and member.isfile()
                and member.size <= MAX_METADATA_BYTES
            ):
                handle = tar.extractfile(member)
                if handle is not None:
                    out[wanted] = handle.read().decode("utf-8", errors="replace")
            if len(out) == len(_SDIST_MEMBERS):
                break
            if count >= MAX_SDIST_MEMBERS:
                if not out:
                    msg = f"no setup.py in its first {MAX_SDIST_MEMBERS} members"
                    raise ValueError(msg)
                break
    return out


def _unpacked(body: bytes) -> bytes:
    """A tar's bytes: `body` decompressed (gzip, bzip2, xz) into at most MAX_SDIST_UNPACKED bytes.

    ValueError past the bound.

    >>> import gzip
    >>> _unpacked(gzip.compress(b"tar")), _unpacked(b"plain")
    (b'tar', b'plain')
    """
    import bz2  # noqa: PLC0415
    import gzip  # noqa: PLC0415
    import io  # noqa: PLC0415
    import lzma  # noqa: PLC0415

    if body.startswith(b"\x1f\x8b"):
        with gzip.open(io.BytesIO(body)) as stream:
            data = stream.read(MAX_SDIST_UNPACKED + 1)
    elif body.startswith(b"BZh"):
        with bz2.open(io.BytesIO(body)) as stream:
            data = stream.read(MAX_SDIST_UNPACKED + 1)
    elif body.startswith(b"\xfd7zXZ\x00"):
        with lzma.open(io.BytesIO(body)) as stream:
            data = stream.read(MAX_SDIST_UNPACKED + 1)
    else:
        return body
    if len(data) > MAX_SDIST_UNPACKED:
        msg = f"over {MAX_SDIST_UNPACKED} bytes decompressed"
        raise ValueError(msg)
    return data


def _metadata(
    name: str, item: dict[str, object], *, folder: Path, local: Path | None, timeout: float
) -> tuple[str | None, str | None]:
    """One wheel's core metadata text, or (None, why not)."""
    from envgen.infra.network import http_get  # noqa: PLC0415 - urllib/ssl only when asked

    filename = str(item.get("filename", ""))
    if local is not None:
        path = local / name / f"{filename}.metadata"
        try:
            if path.stat().st_size > MAX_METADATA_BYTES:
                return None, f"{path} is over {MAX_METADATA_BYTES} bytes"
            return path.read_text(encoding="utf-8", errors="replace"), None
        except OSError:
            return None, f"the index has no core metadata {path}"
    cached = folder / f"{filename}.metadata"
    try:
        return cached.read_text(encoding="utf-8", errors="replace"), None
    except OSError:
        pass  # not cached yet (a wheel's metadata never changes: no expiry)
    url = str(item.get("url", "")).split("#", 1)[0]
    if not url.startswith(("https://", "http://")):
        return None, f"no URL for {filename}'s core metadata"
    try:
        if not filename.endswith(".whl"):
            body = http_get(url, timeout=timeout, retries=1, max_bytes=MAX_SDIST_BYTES).body
            body = _sdist_requires(name, filename, body)
        elif item.get("core-metadata") or item.get("data-dist-info-metadata"):
            body = http_get(f"{url}.metadata", timeout=timeout, retries=1,
                            max_bytes=MAX_METADATA_BYTES).body  # fmt: skip
        else:
            body = _wheel_member(url, timeout)
    except (EnvgenError, OSError, ValueError, zlib.error, EOFError) as exc:
        return None, f"the core metadata could not be read ({excerpt(str(exc), 160)})"
    body = body.split(b"\n\n", 1)[0] + b"\n"  # the header: the description is not read
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(cached, body)
    return body.decode("utf-8", errors="replace"), None


def _wheel_member(url: str, timeout: float) -> bytes:
    """A remote wheel's `*.dist-info/METADATA`, through range requests: the last _TAIL bytes (the
    end of central directory record, and the directory itself when it fits), then the member.
    ValueError when the zip is not one this reads (zip64, a directory over the bound)."""
    from envgen.infra.network import http_get  # noqa: PLC0415 - urllib/ssl only when asked

    def ranged(spec: str) -> bytes:
        return http_get(url, headers={"Range": f"bytes={spec}"}, timeout=timeout, retries=1,
                        max_bytes=MAX_METADATA_BYTES + _TAIL).body  # fmt: skip

    tail = ranged(f"-{_TAIL}")
    end = tail.rfind(b"PK\x05\x06")
    if end < 0 or len(tail) < end + 22:
        msg = "no end of central directory record in the wheel's last bytes"
        raise ValueError(msg)
    cd_size, cd_offset = struct.unpack("<II", tail[end + 12 : end + 20])
    start = cd_offset + cd_size - end  # the file offset of tail[0]
    if cd_size > MAX_METADATA_BYTES or cd_offset == 0xFFFFFFFF:
        msg = "a zip64 or oversized central directory"
        raise ValueError(msg)
    if cd_offset >= start:
        directory = tail[cd_offset - start : cd_offset - start + cd_size]
    else:
        directory = ranged(f"{cd_offset}-{cd_offset + cd_size - 1}")
    pos = 0
    while pos + 46 <= len(directory) and directory[pos : pos + 4] == b"PK\x01\x02":
        (method,) = struct.unpack("<H", directory[pos + 10 : pos + 12])
        (size,) = struct.unpack("<I", directory[pos + 20 : pos + 24])
        nlen, elen, clen = struct.unpack("<3H", directory[pos + 28 : pos + 34])
        (offset,) = struct.unpack("<I", directory[pos + 42 : pos + 46])
        name = directory[pos + 46 : pos + 46 + nlen].decode("utf-8", errors="replace")
        pos += 46 + nlen + elen + clen
        if not re.fullmatch(r"[^/]+\.dist-info/METADATA", name):
            continue
        if size > MAX_METADATA_BYTES:
            msg = f"{name} is over {MAX_METADATA_BYTES} bytes"
            raise ValueError(msg)
        local = ranged(f"{offset}-{offset + 30 + nlen + size + 1024 - 1}")
        lnlen, lelen = struct.unpack("<2H", local[26:30])
        data = local[30 + lnlen + lelen : 30 + lnlen + lelen + size]
        if method == 0:
            return data
        if method == 8:
            return zlib.decompressobj(-15).decompress(data, MAX_METADATA_BYTES)
        msg = f"{name} is compressed with method {method}"
        raise ValueError(msg)
    msg = "no *.dist-info/METADATA in the wheel's central directory"
    raise ValueError(msg)
