"""Which python every pinned package of an imported file has a wheel for, as of the file's date.

`envgen import` of a requirements file that names no python used to leave the python to the
lock, which took the newest torch allows: torch 1.7.1 with numpy 1.19.2 got python 3.9, for which
numpy 1.19.2 has no wheel. This module reads the file lists of the file's exact pins (`name==V`)
from a PEP 691 simple index (PyPI by default: `Accept: application/vnd.pypi.simple.v1+json`),
keeps the files uploaded by the file's date, and says which pythons each pin installs on from a
wheel. `choose_python` (pure) then picks the newest python of the torch release every pin fits.

A pin that has linux wheels fits the pythons its wheels are tagged for (cpXY; abi3 from its
floor on; py3 / py2.py3 pure wheels: every python). A pin with no linux wheel but an sdist is
built from source, so it fits every python its requires-python allows; a pin with compiled
wheels for some pythons is not chosen for the others (their sdist needs a compiler and the
release's build dependencies of the time).

Every answer is cached under the cache root (`pypi-simple/`), written atomically; bounded: at
most MAX_LOOKUPS packages, MAX_RESPONSE_BYTES each. It must not choose torch, the accelerator
or the manager, and never raises on a network failure: the caller gets a note instead.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from envgen.errors import EnvgenError
from envgen.infra.files import atomic_write_bytes
from envgen.repro.reading import excerpt

PYPI_SIMPLE: Final = "https://pypi.org/simple"
ACCEPT: Final = "application/vnd.pypi.simple.v1+json"
MAX_LOOKUPS: Final = 256  # exact pins looked up per import (a pip freeze of a paper's env: 10-200)
_WORKERS: Final = 8  # requests to the index at once
_PATCHES: Final = 32  # patch releases of a python line tried against a requires-python
MAX_RESPONSE_BYTES: Final = 16 * 1024 * 1024  # numpy's full file list is ~2 MB
CACHE_SECONDS: Final = 24 * 3600
_LINUX: Final = re.compile(r"^(manylinux\w*_x86_64|linux_x86_64|any)$")


def cpython_of(interpreter: str) -> str | None:
    """The CPython X.Y a wheel's interpreter tag names (`cp37` -> 3.7), else None (`py3`, `pp39`).

    >>> cpython_of("cp311"), cpython_of("py3")
    ('3.11', None)
    """
    m = re.fullmatch(r"cp(\d)(\d+)", interpreter)
    return f"{m.group(1)}.{m.group(2)}" if m else None


def linux_platform(platform: str) -> bool:
    """A wheel platform tag a linux-64 install takes (manylinux/linux x86_64, or any)."""
    return _LINUX.match(platform) is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class PinWheels:
    """The pythons one exact pin installs on, as of the file's date."""

    requirement: str  # name==version, as the file pins it
    pythons: frozenset[str] | None  # None: every python (a pure wheel, or an sdist only)
    floor: str | None = None  # abi3 wheels: this python and every later one
    requires_python: str | None = None
    how: str = ""  # for messages: "cp36-cp38 wheels", "a pure wheel", "an sdist only"
    wheel: bool = True  # False: an sdist only (built on install)

    def fits(self, python: str) -> bool:
        """The pin installs on `python` without compiling (or builds from its only sdist)."""
        if self.requires_python and not _allows(self.requires_python, python):
            return False
        if self.pythons is None:
            return True
        if python in self.pythons:
            return True
        return self.floor is not None and _key(python) >= _key(self.floor)


def _allows(requires_python: str, python: str) -> bool:
    """Some release of the `python` line satisfies `requires_python` (pip installs on 3.7.12 what
    needs >=3.7.1); an unreadable specifier allows it.

    >>> _allows(">=3.7.1", "3.7"), _allows("<3.7", "3.7"), _allows("!=3.7.*", "3.7")
    (True, False, False)
    """
    try:
        spec = SpecifierSet(requires_python)
        return any(spec.contains(f"{python}.{patch}") for patch in range(_PATCHES))
    except (InvalidSpecifier, ValueError):  # ValueError: a version of thousands of digits
        return True


def _key(python: str) -> tuple[int, ...]:
    return tuple(int(p) for p in python.split("."))


def exact_pins(requirements: list[str]) -> list[tuple[str, str]]:
    """(canonical name, version) of each `name==version` requirement, in file order.

    >>> exact_pins(["numpy==1.19.2", "tqdm>=4", "scipy===1.5.2", "x==1.*"])
    [('numpy', '1.19.2'), ('scipy', '1.5.2')]
    """
    out: list[tuple[str, str]] = []
    for text in requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        specs = list(req.specifier)
        if len(specs) == 1 and specs[0].operator in {"==", "==="} and "*" not in specs[0].version:
            out.append((str(canonicalize_name(req.name)), specs[0].version))
    return out


def pin_wheels(
    name: str, version: str, page: dict[str, object], as_of: dt.date | None
) -> PinWheels | None:
    """What one version's files (a PEP 691 page) say, counting files uploaded by `as_of`.

    None when the page has no file of that version (then nothing is known).
    """
    try:
        wanted = Version(version)
    except InvalidVersion:
        return None
    seen = _Seen()
    files = page.get("files")
    for item in files if isinstance(files, list) else []:
        if isinstance(item, dict) and item.get("yanked") in (False, None):
            seen.add(item, name, wanted, as_of)
    return seen.summary(f"{name}=={version}")


@dataclass(slots=True)
class _Seen:
    """The files of one version, by what they install on."""

    pythons: set[str] = field(default_factory=set)
    floors: list[str] = field(default_factory=list)
    pure: bool = False
    sdist: bool = False
    requires: str | None = None

    def add(
        self, item: dict[str, object], name: str, wanted: Version, as_of: dt.date | None
    ) -> None:
        filename = item.get("filename")
        if not isinstance(filename, str) or not _uploaded_by(item.get("upload-time"), as_of):
            return
        tags = _tags_of(filename, name, wanted)
        if tags is None:
            return
        if isinstance(item.get("requires-python"), str):
            self.requires = str(item["requires-python"])
        if isinstance(tags, str):
            self.sdist = True
            return
        for interpreter, abi, platform in tags:
            if not linux_platform(platform):
                continue
            cpython = cpython_of(interpreter)
            if cpython and abi == "abi3":
                self.floors.append(cpython)
            elif cpython:
                self.pythons.add(cpython)
            elif re.fullmatch(r"py3\d*", interpreter) and abi == "none":
                self.pure = True

    def summary(self, requirement: str) -> PinWheels | None:
        if self.pure:
            return PinWheels(requirement=requirement, pythons=None, requires_python=self.requires,
                             how="a pure-Python wheel")  # fmt: skip
        if self.pythons or self.floors:
            floor = min(self.floors, key=_key) if self.floors else None
            listed = sorted(self.pythons, key=_key)
            how = (
                ("cp" + ", cp".join(p.replace(".", "") for p in listed) + " wheels")
                if listed
                else ""
            )
            if floor:
                how = (
                    how + " and " if how else ""
                ) + f"abi3 wheels from cp{floor.replace('.', '')}"
            return PinWheels(requirement=requirement, pythons=frozenset(self.pythons), floor=floor,
                             requires_python=self.requires, how=how)  # fmt: skip
        if self.sdist:
            return PinWheels(requirement=requirement, pythons=None, requires_python=self.requires,
                             how="an sdist only (built on install)", wheel=False)  # fmt: skip
        return None


def _uploaded_by(stamp: object, as_of: dt.date | None) -> bool:
    if as_of is None or not isinstance(stamp, str):
        return True
    try:
        return dt.date.fromisoformat(stamp[:10]) <= as_of
    except ValueError:
        return True


def _tags_of(filename: str, name: str, wanted: Version) -> list[tuple[str, str, str]] | str | None:
    """The (interpreter, abi, platform) tags of a wheel of `wanted`, "sdist", or None."""
    if filename.endswith(".whl"):
        try:
            wheel_name, version, _, tags = parse_wheel_filename(filename)
        except (InvalidWheelFilename, InvalidVersion):
            return None
        if wheel_name != name or version != wanted:
            return None
        return [(t.interpreter, t.abi, t.platform) for t in tags]
    for suffix in (".zip", ".tar.bz2"):  # old sdists packaging's parser does not read
        if filename.endswith(suffix):
            filename = filename[: -len(suffix)] + ".tar.gz"
    try:
        sdist_name, version = parse_sdist_filename(filename)
    except (InvalidSdistFilename, InvalidVersion):
        return None
    return "sdist" if sdist_name == name and version == wanted else None


def choose_python(
    candidates: list[str], pins: list[PinWheels]
) -> tuple[str | None, list[tuple[str, list[PinWheels]]]]:
    """The newest candidate every pin fits, and for each newer candidate the pins that do not.

    >>> a = PinWheels(requirement="numpy==1.19.2", pythons=frozenset({"3.6", "3.7", "3.8"}))
    >>> choose_python(["3.9", "3.8", "3.7"], [a])[0]
    '3.8'
    """
    skipped: list[tuple[str, list[PinWheels]]] = []
    for python in candidates:
        misses = [p for p in pins if not p.fits(python)]
        if not misses:
            return python, skipped
        skipped.append((python, misses))
    return None, skipped


def wheel_release(
    name: str, specifier: str, page: dict[str, object], python: str, as_of: dt.date | None
) -> tuple[str, str] | None:
    """Where no release that `specifier` allows has a linux-64 wheel for `python` (files uploaded
    by `as_of`), the nearest release that has one: of the same major.minor as the newest allowed
    release first (the nearest newer, else the nearest older), then the nearest newer release.
    (version, what the allowed releases have); None when one has a wheel, when the page lists
    no allowed release (the lock names that), when the allowed releases are source releases (an
    sdist and no wheel for any python or platform: what everyone builds, not a binary that went
    missing), or when no release fits.

    >>> page = {"files": [{"filename": f} for f in (
    ...     "pyFFTW-0.12.0-cp38-cp38-manylinux1_x86_64.whl", "pyFFTW-0.12.0.tar.gz",
    ...     "pyFFTW-0.13.0-cp310-cp310-manylinux_2_17_x86_64.whl")]}
    >>> wheel_release("pyfftw", "==0.12.0.*", page, "3.10", None)
    ('0.13.0', 'cp38 wheels')
    >>> wheel_release("pyfftw", "==0.12.0.*", page, "3.8", None) is None
    True
    """
    try:
        allowed = SpecifierSet(specifier)
    except InvalidSpecifier:
        return None
    by_version, built = _by_version(name, page, as_of)
    wanted = sorted(v for v in by_version if allowed.contains(v, prereleases=True))
    if not wanted or not built.intersection(wanted):
        return None  # not there, or a source release (an sdist for everyone): kept
    if any(_has_wheel(by_version[v], python) for v in wanted):
        return None
    fits = sorted(
        v for v, w in by_version.items()
        if _has_wheel(w, python) and not v.is_prerelease and not v.is_devrelease
    )  # fmt: skip
    target = wanted[-1]
    same = [v for v in fits if v.release[:2] == target.release[:2]]
    newer_same = [v for v in same if v > target]
    pick = (
        newer_same[0] if newer_same
        else same[-1] if same
        else next((v for v in fits if v > target), None)
    )  # fmt: skip
    if pick is None:
        return None
    had = [by_version[v].how for v in wanted if by_version[v].how]
    return str(pick), "; ".join(dict.fromkeys(had)) or "no file for linux-64"


def _has_wheel(wheels: PinWheels, python: str) -> bool:
    return wheels.wheel and wheels.fits(python)


def _by_version(
    name: str, page: dict[str, object], as_of: dt.date | None
) -> tuple[dict[Version, PinWheels], set[Version]]:
    """Each version's files on a PEP 691 page, summarized (one pass over the files), and the
    versions with a wheel for any platform (a compiled or packaged release, not a source one)."""
    key = canonicalize_name(name)
    seen: dict[Version, _Seen] = {}
    built: set[Version] = set()
    files = page.get("files")
    for item in files if isinstance(files, list) else []:
        if not isinstance(item, dict) or item.get("yanked") not in (False, None):
            continue
        version = _file_version(str(item.get("filename", "")), key)
        if version is not None and _uploaded_by(item.get("upload-time"), as_of):
            seen.setdefault(version, _Seen()).add(item, key, version, as_of)
            if str(item.get("filename", "")).endswith(".whl"):
                built.add(version)
    out: dict[Version, PinWheels] = {}
    for version, files_seen in seen.items():
        requirement = f"{key}=={version}"
        # files for other platforms only: the release exists, with nothing for linux-64
        out[version] = files_seen.summary(requirement) or PinWheels(
            requirement=requirement, pythons=frozenset(), how="no file for linux-64", wheel=False
        )
    return out, built


def _file_version(filename: str, name: str) -> Version | None:
    if filename.endswith(".whl"):
        try:
            found, version, _, _ = parse_wheel_filename(filename)
        except (InvalidWheelFilename, InvalidVersion):
            return None
        return version if found == name else None
    for suffix in (".zip", ".tar.bz2"):
        if filename.endswith(suffix):
            filename = filename[: -len(suffix)] + ".tar.gz"
    try:
        found, version = parse_sdist_filename(filename)
    except (InvalidSdistFilename, InvalidVersion):
        return None
    return version if found == name else None


# --- fetching ----------------------------------------------------------------------------------
def lookup(
    requirements: list[str],
    *,
    index: str,
    cache_dir: Path,
    as_of: dt.date | None,
    timeout: float,
) -> tuple[list[PinWheels], list[str]]:
    """The wheels of each exact pin (at most MAX_LOOKUPS), and notes on what could not be read."""
    pins = exact_pins(requirements)
    notes: list[str] = []
    if len(pins) > MAX_LOOKUPS:
        notes.append(
            f"{len(pins)} exact pins; the python is chosen from the first {MAX_LOOKUPS} (each "
            "is one request to the index)"
        )
        pins = pins[:MAX_LOOKUPS]
    pages, failed = fetch_pages(
        [name for name, _ in pins], index=index, cache_dir=cache_dir, timeout=timeout
    )
    notes += failed
    found: list[PinWheels] = []
    for name, version in pins:
        page = pages.get(name)
        if page is None:
            continue
        wheels = pin_wheels(name, version, page, as_of)
        if wheels is None:
            when = f" uploaded by {as_of}" if as_of else ""
            notes.append(f"{name}=={version}: the index lists no file of that version{when}")
            continue
        found.append(wheels)
    return found, notes


def fetch_pages(
    names: list[str], *, index: str, cache_dir: Path, timeout: float
) -> tuple[dict[str, dict[str, object]], list[str]]:
    """The PEP 691 page of each name (canonical name -> page; at most MAX_LOOKUPS, cached), and
    notes on what could not be read. The first name is asked alone: an index that does not answer
    at all is not asked for the others; then up to _WORKERS requests run at once."""
    wanted = list(dict.fromkeys(str(canonicalize_name(n)) for n in names))[:MAX_LOOKUPS]
    base = index.rstrip("/")
    folder = cache_dir / hashlib.sha256(base.encode()).hexdigest()[:16]
    local = _local_folder(base)
    if not wanted:
        return {}, []

    def one(name: str) -> tuple[object, list[str], bool]:
        return _fetch_page(name, base=base, folder=folder, local=local, timeout=timeout)

    first = one(wanted[0])
    results = [first]
    if first[2]:
        rest = f"the index did not answer; the other {len(wanted) - 1} pin(s) were not looked up"
        return {}, [*first[1], rest]
    if len(wanted) > 1:
        # only where pins are looked up: an import that asks no index loads no thread pool
        from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

        with ThreadPoolExecutor(max_workers=min(_WORKERS, len(wanted) - 1)) as pool:
            results += list(pool.map(one, wanted[1:]))
    pages: dict[str, dict[str, object]] = {}
    notes = []
    for name, (page, said, _) in zip(wanted, results, strict=True):
        notes += said
        if isinstance(page, dict):
            pages[name] = page
    return pages, notes


def _fetch_page(
    name: str, *, base: str, folder: Path, local: Path | None, timeout: float
) -> tuple[object, list[str], bool]:
    """One name's PEP 691 page (None when it could not be read), notes, and whether the index
    did not answer at all (DNS, timeout, refused)."""
    from envgen.infra.network import http_get  # noqa: PLC0415 - urllib/ssl only when asked

    url = f"{base}/{name}/"
    page: object = None
    if local is not None:
        # A folder index (file://), laid out as `envgen vault` writes one and as PEP 503
        # static indexes are: <name>/index.json is the PEP 691 page. Read, never cached.
        page, note = _local_page(local / name / "index.json")
        if note:
            return None, [f"{name}: {note}"], False
    try:
        if local is None:
            page = _cached(folder / f"{name}.json")
        if page is None:
            body = http_get(
                url, headers={"Accept": ACCEPT}, timeout=timeout, retries=1,
                max_bytes=MAX_RESPONSE_BYTES,
            ).body  # fmt: skip
            page = json.loads(body)
            if isinstance(page, dict):
                folder.mkdir(parents=True, exist_ok=True)
                atomic_write_bytes(folder / f"{name}.json", body)
    except (EnvgenError, OSError, ValueError) as exc:
        note = f"{name}: the file list could not be read ({excerpt(str(exc), 160)})"
        dead = isinstance(exc, EnvgenError) and not re.search(r"failed: HTTP 4\d\d", str(exc))
        return None, [note], dead
    if not isinstance(page, dict):
        return None, [f"{name}: {url} did not answer with a PEP 691 file list"], False
    return page, [], False


def _local_folder(base: str) -> Path | None:
    """The folder of a `file:` index URL, or None for any other scheme.

    >>> str(_local_folder("file:///srv/simple")), _local_folder("https://pypi.org/simple")
    ('/srv/simple', None)
    """
    import urllib.parse  # noqa: PLC0415 - only for an index URL
    import urllib.request  # noqa: PLC0415 - url2pathname only, no request is made

    parts = urllib.parse.urlsplit(base)
    if parts.scheme != "file":
        return None
    return Path(urllib.request.url2pathname(parts.path))


def _local_page(path: Path) -> tuple[object, str | None]:
    """A folder index's PEP 691 page of one project: (page, None), or (None, why not)."""
    try:
        info = path.stat()
        if info.st_size > MAX_RESPONSE_BYTES or not path.is_file():
            return None, f"{path} is not a file of at most {MAX_RESPONSE_BYTES} bytes"
        return json.loads(path.read_bytes()), None
    except FileNotFoundError:
        return None, f"the index has no page {path}"
    except (OSError, ValueError) as exc:
        return None, f"{path} could not be read ({excerpt(str(exc), 160)})"


def _cached(path: Path) -> object:
    """A cached answer younger than CACHE_SECONDS, or None."""
    try:
        if time.time() - path.stat().st_mtime > CACHE_SECONDS:
            return None
        return json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
