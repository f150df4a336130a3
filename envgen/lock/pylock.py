"""pylock.toml (PEP 751) beside a variant's requirements.txt: the same pins and hashes.

Rendered from the requirements lock just written: each pin's files are looked up on the indexes
the variant was resolved against (PEP 691 JSON where offered: URL, size, upload time; PEP 503 HTML
otherwise), and every file whose sha256 the lock names is listed. URLs are written as the
official indexes name them: a file of the PyTorch index as `<written index>/<file name>` (how
download.pytorch.org lays out its files), a PyPI file with its own URL. The text depends only on
the lock and on what the indexes say about those files, so every machine writes the same bytes.

`pylock_problems` checks a committed pylock.toml against its requirements.txt offline (same pins,
same hashes), for `envgen lock --check`. Must not resolve anything itself.
"""

from __future__ import annotations

import dataclasses
import json
import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from packaging.utils import canonicalize_name

from envgen.errors import LockError, NetworkError
from envgen.infra.proc import strip_credentials
from envgen.infra.simple_api import IndexFile, PageMemo, is_sdist, page_files, project_page
from envgen.lock.index_plan import index_plan
from envgen.model.variants import Variant
from envgen.render.indexes import IndexUrls

PYLOCK_NAME: Final = "pylock.toml"
_HASH: Final = re.compile(r"--hash[= ]sha256:([0-9a-f]{64})")
_PIN: Final = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?\s*==\s*([^\s;\\]+)")


@dataclass(frozen=True, slots=True, kw_only=True)
class _Pin:
    name: str
    version: str
    marker: str | None
    hashes: tuple[str, ...]


def _pins(body: str) -> list[_Pin]:
    """The `name==version` pins of a hashed requirements body, with markers and hashes."""
    pins: list[_Pin] = []
    for raw in body.replace("\\\n", " ").splitlines():
        line = raw.split(" #", 1)[0].strip()
        found = _PIN.match(line)
        if not found:
            continue
        head = line.split(" --hash", 1)[0]
        marker = head.partition(";")[2].strip() or None
        pins.append(
            _Pin(
                name=canonicalize_name(found[1]),
                version=found[2],
                marker=marker,
                hashes=tuple(sorted(set(_HASH.findall(line)))),
            )
        )
    return sorted(pins, key=lambda p: p.name)


def _toml(value: object) -> str:
    """A TOML value: strings as basic strings (JSON's escapes are TOML's), ints, inline tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    return json.dumps(str(value), ensure_ascii=False)


def _file_table(f: IndexFile, url: str) -> list[str]:
    lines = [f"name = {_toml(f.filename)}"]
    if f.upload_time:
        # A TOML offset date-time, not a string (PEP 751's upload-time).
        lines.append(f"upload-time = {f.upload_time}")
    lines.append(f"url = {_toml(url)}")
    if f.size is not None:
        lines.append(f"size = {f.size}")
    lines.append(f"hashes = {_toml({'sha256': f.sha256})}")
    return lines


@dataclass(frozen=True, slots=True, kw_only=True)
class _Sources:
    """Where a variant's files are listed: (real URL, written URL) of each index and flat page."""

    indexes: tuple[tuple[str, str], ...]
    flat: tuple[tuple[IndexFile, str, str], ...]  # every file of every find-links page
    official_pypi: str | None  # PyPI's own index, asked first for a local-folder stand-in
    netrc_file: Path | None = None
    memo: PageMemo | None = None  # the lock run's pages, read once for all its variants


def _sources(
    variant: Variant,
    urls: IndexUrls,
    written: IndexUrls,
    timeout: float,
    netrc_file: Path | None,
    memo: PageMemo | None = None,
) -> _Sources:
    plan = index_plan(variant, urls)
    shown = index_plan(variant, written)
    indexes: list[tuple[str, str]] = []
    pages: list[tuple[str, str]] = []
    if plan.pytorch is not None and shown.pytorch is not None:
        (pages if plan.flat else indexes).append((plan.pytorch, shown.pytorch))
    indexes.append((plan.pypi, shown.pypi))
    pairs = zip(plan.extensions, shown.extensions, strict=True)
    for (_, real, flat), (_, shown_url, _) in pairs:
        (pages if flat else indexes).append((real, shown_url))
    flat_files = tuple(
        (f, real, shown_url)
        for real, shown_url in dict.fromkeys(pages)
        for f in page_files(real, timeout=timeout, netrc_file=netrc_file, memo=memo)
    )
    # A PyPI stand-in in a local folder: its file paths mean nothing on another machine, so
    # PyPI's own page is asked first (the URLs and upload times written are PyPI's on every
    # machine); when PyPI cannot be reached, the stand-in's answers stand.
    local = plan.pypi.startswith("file:") and shown.pypi != plan.pypi
    return _Sources(
        indexes=tuple(dict.fromkeys(indexes)),
        flat=flat_files,
        official_pypi=shown.pypi if local else None,
        netrc_file=netrc_file,
        memo=memo,
    )


def _files_of(
    pin: _Pin, sources: _Sources, timeout: float
) -> tuple[dict[str, tuple[IndexFile, str, str]], bool]:
    """sha256 -> (file, real index or page, written one) for a pin; and whether PyPI answered."""
    files: dict[str, tuple[IndexFile, str, str]] = {}
    answered = True
    official = sources.official_pypi
    if official is not None:
        try:
            page = page_files(
                project_page(official, pin.name),
                timeout=timeout,
                retries=1,
                netrc_file=sources.netrc_file,
                wanted=pin.hashes,
                memo=sources.memo,
            )
        except NetworkError:
            page, answered = [], False  # unreachable: the stand-in's answers stand
        for f in page:
            if f.sha256 in pin.hashes:
                files.setdefault(f.sha256, (f, official, official))
    for real, shown_url in sources.indexes:
        pages = page_files(
            project_page(real, pin.name),
            timeout=timeout,
            netrc_file=sources.netrc_file,
            wanted=pin.hashes,
            memo=sources.memo,
        )
        for f in pages:
            if f.sha256 in pin.hashes:
                files.setdefault(f.sha256, (f, real, shown_url))
    for f, real, shown_url in sources.flat:
        if f.sha256 in pin.hashes:
            files.setdefault(f.sha256, (f, real, shown_url))
    return files, answered


def render_pylock(
    variant: Variant,
    requirements_body: str,
    urls: IndexUrls,
    written: IndexUrls,
    *,
    timeout: float,
    netrc_file: Path | None = None,
    memo: PageMemo | None = None,
) -> str:
    """The pylock.toml body for a variant's hashed requirements lock.

    `memo`: the index pages of this lock run (one per run, shared by its variants).

    Raises:
        LockError: a pinned hash is on none of the variant's indexes or pages.
    """
    sources = _sources(variant, urls, written, timeout, netrc_file, memo)
    out = [
        'lock-version = "1.0"',
        f"requires-python = {_toml('==' + variant.python + '.*')}",
        'created-by = "envgen"',
    ]
    missing: list[str] = []
    for pin in _pins(requirements_body):
        files, answered = _files_of(pin, sources, timeout)
        if not answered:
            sources = dataclasses.replace(sources, official_pypi=None)
        lost = [h for h in pin.hashes if h not in files]
        if lost:
            missing.append(f"{pin.name}=={pin.version}: {len(lost)} hash(es) on no index")
            continue
        out += _package(pin, files, sources)
    if missing:
        msg = f"{variant.id}: pylock.toml: files the lock hashes are on no index:\n" + "\n".join(
            f"  - {m}" for m in missing
        )
        raise LockError(msg)
    return "\n".join(out) + "\n"


def _package(
    pin: _Pin, files: dict[str, tuple[IndexFile, str, str]], sources: _Sources
) -> list[str]:
    """One `[[packages]]` table with its wheels and sdist."""
    out = ["", "[[packages]]", f"name = {_toml(pin.name)}", f"version = {_toml(pin.version)}"]
    if pin.marker:
        out.append(f"marker = {_toml(pin.marker)}")
    flat_pages = {shown for _, _, shown in sources.flat}
    indexes = sorted({shown for _, _, shown in files.values() if shown not in flat_pages})
    if indexes:
        out.append(f"index = {_toml(indexes[0])}")
    ordered = sorted(files.values(), key=lambda item: (item[0].filename, str(item[0].sha256)))
    sdists = [item for item in ordered if is_sdist(item[0].filename)]
    for f, real, shown_url in ordered:
        if not is_sdist(f.filename):
            out += ["", "[[packages.wheels]]", *_file_table(f, _written_url(f, real, shown_url))]
    if sdists:
        f, real, shown_url = sdists[0]
        out += ["", "[packages.sdist]", *_file_table(f, _written_url(f, real, shown_url))]
    return out


def _written_url(f: IndexFile, real: str, written: str) -> str:
    """The URL a written file names: the official one where the index or page is a stand-in.

    A PyTorch PEP 503 index keeps its files beside its project pages (`/whl/cpu/<file>`); any
    other stand-in (a find-links page, an extension host's mirror) has the official layout below
    the page's folder.

    >>> f = IndexFile(filename="torch-2.1.0+cpu-cp311-none-any.whl", url="file:///m/x", sha256="a")
    >>> _written_url(f, "file:///m/cpu", "https://download.pytorch.org/whl/cpu")
    'https://download.pytorch.org/whl/cpu/torch-2.1.0%2Bcpu-cp311-none-any.whl'
    >>> g = IndexFile(filename="a-1-py3-none-any.whl", url="file:///m/d/w/a-1-py3-none-any.whl",
    ...               sha256="b")
    >>> _written_url(g, "file:///m/d/w/t.html", "https://d.org/w/t.html")
    'https://d.org/w/a-1-py3-none-any.whl'
    """
    if real == written:
        return strip_credentials(f.url)
    if written.startswith("https://download.pytorch.org/") and not written.endswith(".html"):
        return f"{written.rstrip('/')}/{urllib.parse.quote(f.filename)}"
    real_dir = real.rsplit("/", 1)[0] + "/" if real.endswith(".html") else real.rstrip("/") + "/"
    written_dir = (
        written.rsplit("/", 1)[0] + "/" if written.endswith(".html") else written.rstrip("/") + "/"
    )
    if f.url.startswith(real_dir):
        return written_dir + f.url[len(real_dir) :]
    return strip_credentials(f.url)


def pylock_problems(pylock_text: str, requirements_body: str) -> list[str]:
    """Where a pylock.toml differs from its requirements.txt (pins, versions, hashes)."""
    import tomllib  # noqa: PLC0415 - only for --check

    from packaging.pylock import Pylock, PylockValidationError  # noqa: PLC0415 - as above

    try:
        lock = Pylock.from_dict(tomllib.loads(pylock_text))
    except (tomllib.TOMLDecodeError, PylockValidationError) as exc:
        return [f"not a valid PEP 751 lock ({exc})"]
    except RecursionError:  # tomllib recurses once per nested array or inline table
        return ["not a valid PEP 751 lock (values nested too deep to read)"]
    have: dict[str, tuple[str, set[str]]] = {}
    for p in lock.packages:
        hashes = {w.hashes.get("sha256", "") for w in p.wheels or ()}
        if p.sdist is not None:
            hashes.add(p.sdist.hashes.get("sha256", ""))
        have[str(p.name)] = (str(p.version), hashes)
    problems: list[str] = []
    for pin in _pins(requirements_body):
        found = have.pop(pin.name, None)
        if found is None:
            problems.append(f"{pin.name}=={pin.version} is missing")
        elif found[0] != pin.version.split("+", 1)[0] and found[0] != pin.version:
            problems.append(f"{pin.name}: version {found[0]}, requirements.txt has {pin.version}")
        elif found[1] != set(pin.hashes):
            problems.append(f"{pin.name}: its hashes differ from requirements.txt's")
    problems += [f"{name}: not in requirements.txt" for name in sorted(have)]
    return problems
