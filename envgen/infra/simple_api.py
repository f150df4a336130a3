"""Read PEP 503 / PEP 691 index pages, and download files with their sha256 checked.

Used by `envgen vault` (which files a lock pins, fetched) and the pylock.toml writer (their URLs,
sizes and upload times).

An index page is read as PEP 691 JSON when the server offers it (names, sha256, requires-python,
upload times, sizes) and as PEP 503 HTML otherwise (a flat find-links page too). Downloads stream
to a temp file beside their destination and are renamed into place only once their sha256 is the
lock's; a `file://` source is hard-linked when it can be.

Must not decide which files a vault keeps (envgen.vault.store does) or write index pages.
Imports nothing of envgen but infra and errors (the lock stage uses it).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import threading
import urllib.parse
from collections.abc import Callable, Collection
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    parse_sdist_filename,
    parse_wheel_filename,
)

from envgen.errors import BuildError, NetworkError
from envgen.infra.network import http_get
from envgen.infra.proc import redact, split_credentials

JSON_ACCEPT: Final = (
    "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, "
    "text/html;q=0.1"
)
MAX_PAGE_BYTES: Final = 64 * 1024 * 1024
MAX_FILE_BYTES: Final = 16 * 1024 * 1024 * 1024  # the largest CUDA wheels are ~3 GB
_CHUNK: Final = 1024 * 1024
# Newest glibc a linux target is taken to have: manylinux_2_N for every N up to it (PEP 600).
_GLIBC_MAX: Final = 40
_LINUX_ARCH: Final = {"linux-64": "x86_64", "linux-aarch64": "aarch64"}
_MAC_ARCH: Final = {"osx-64": "x86_64", "osx-arm64": "arm64"}


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexFile:
    """One file of an index page."""

    filename: str
    url: str
    sha256: str | None
    requires_python: str | None = None
    upload_time: str | None = None
    size: int | None = None


class _Anchors(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            attr = dict(attrs)
            if attr.get("href"):
                self.found.append((str(attr["href"]), attr.get("data-requires-python")))


def _from_html(page_url: str, text: str, wanted: Collection[str] | None = None) -> list[IndexFile]:
    parser = _Anchors()
    parser.feed(text)
    files: list[IndexFile] = []
    for href, requires in parser.found:
        # The joined URL's fragment is the href's own: a file whose sha256 is not wanted is
        # skipped before the join (the join is most of the time on a 500-file page).
        if wanted is not None and _href_sha256(href) not in wanted:
            continue
        url, _, fragment = urllib.parse.urljoin(page_url, href).partition("#")
        name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
        algo, _, digest = fragment.partition("=")
        files.append(
            IndexFile(
                filename=name,
                url=url,
                sha256=digest.lower() if algo == "sha256" and digest else None,
                requires_python=requires,
            )
        )
    return files


def _href_sha256(href: str) -> str | None:
    """The sha256 an href's `#sha256=...` fragment names, lower-cased (None without one).

    >>> _href_sha256("torch-2.1.0-cp311-none-any.whl#sha256=ABC"), _href_sha256("a.whl")
    ('abc', None)
    """
    algo, _, digest = href.partition("#")[2].partition("=")
    return digest.lower() if algo == "sha256" and digest else None


def _from_json(
    page_url: str, data: object, wanted: Collection[str] | None = None
) -> list[IndexFile]:
    entries = data.get("files") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        msg = f"{redact(page_url)}: a PEP 691 answer without a `files` list"
        raise NetworkError(msg)
    files: list[IndexFile] = []
    for item in entries:
        if not isinstance(item, dict) or not isinstance(item.get("filename"), str):
            continue
        found = item.get("hashes")
        hashes: dict[str, object] = found if isinstance(found, dict) else {}
        if wanted is not None and (
            "sha256" not in hashes or str(hashes["sha256"]).lower() not in wanted
        ):
            continue
        size = item.get("size")
        upload = item.get("upload-time")
        requires = item.get("requires-python")
        files.append(
            IndexFile(
                filename=item["filename"],
                url=urllib.parse.urljoin(page_url, str(item.get("url", ""))).partition("#")[0],
                sha256=str(hashes["sha256"]).lower() if "sha256" in hashes else None,
                requires_python=requires if isinstance(requires, str) else None,
                upload_time=upload if isinstance(upload, str) else None,
                size=size if isinstance(size, int) else None,
            )
        )
    return files


def with_netrc(url: str, netrc_file: Path | None) -> str:
    """`url` with the credentials a netrc file gives its host (none in the URL already).

    `netrc_file`: NETRC (Settings.netrc_file), else ~/.netrc; a missing or unreadable file
    gives none. http_get sends them as basic auth and masks them in every message.
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or "@" in parts.netloc or not parts.hostname:
        return url
    path = netrc_file or Path.home() / ".netrc"
    try:
        import netrc  # noqa: PLC0415 - only for http(s) index reads

        found = netrc.netrc(os.fspath(path)).authenticators(parts.hostname)
    except (OSError, netrc.NetrcParseError):
        return url
    if found is None:
        return url
    login, _, password = found
    auth = (
        urllib.parse.quote(login or "", safe="") + ":" + urllib.parse.quote(password or "", safe="")
    )
    return urllib.parse.urlunsplit(parts._replace(netloc=f"{auth}@{parts.netloc}"))


class PageMemo:
    """Index pages read once per run (a lock run's pylock.toml files).

    The variants of one lock ask for the same pages (numpy's on PyPI, torch's on its index, each
    `nvidia-*` page for every CUDA variant, every page again for a second python): 6 variants
    read each 2-6 times. What a page gave for a set of wanted hashes is kept for the run only
    (its owner holds the memo), so a later run sees the index as it is then; the files kept are
    the few wanted, not the page (a torch page is ~0.4 MB: the run's peak memory stays uv's).
    A failed read is not kept (the next asker tries again), a missing page (404: no files) is.
    Two threads asking for one page wait for one read.
    """

    def __init__(self) -> None:
        self._files: dict[tuple[str, frozenset[str] | None], list[IndexFile]] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def files(
        self,
        page_url: str,
        wanted: Collection[str] | None,
        read: Callable[[], list[IndexFile]],
    ) -> list[IndexFile]:
        """What `read()` gives for this page and these wanted hashes, read once per run."""
        key = (page_url, frozenset(wanted) if wanted is not None else None)
        with self._guard:
            lock = self._locks.setdefault(page_url, threading.Lock())
        with lock:
            found = self._files.get(key)
            if found is None:
                found = self._files[key] = read()
            return list(found)


def _read_page(
    page_url: str, *, timeout: float, retries: int, netrc_file: Path | None
) -> tuple[str, bytes] | None:
    if page_url.startswith("file:"):
        local = Path(urllib.parse.unquote(urllib.parse.urlsplit(page_url).path))
        if not local.is_file():
            return None
    try:
        resp = http_get(
            with_netrc(page_url, netrc_file),
            headers={"Accept": JSON_ACCEPT},
            timeout=timeout,
            retries=retries,
            max_bytes=MAX_PAGE_BYTES,
        )
    except NetworkError as exc:
        if "HTTP 404" in exc.message:
            return None
        raise
    return resp.content_type, resp.body


def page_files(
    page_url: str,
    *,
    timeout: float,
    retries: int = 3,
    netrc_file: Path | None = None,
    wanted: Collection[str] | None = None,
    memo: PageMemo | None = None,
) -> list[IndexFile]:
    """The files an index page links (PEP 691 JSON when offered, else HTML); [] when missing.

    File URLs come back without credentials (download() looks them up again). `wanted`: only
    the files with one of these sha256s (lower-case hex); None: every file. `memo`: pages
    already read in this run are not read again.
    """
    if memo is not None:
        return memo.files(
            page_url,
            wanted,
            lambda: page_files(
                page_url, timeout=timeout, retries=retries, netrc_file=netrc_file, wanted=wanted
            ),
        )
    found = _read_page(page_url, timeout=timeout, retries=retries, netrc_file=netrc_file)
    if found is None:
        return []
    content_type, body = found
    if "json" in content_type or body.lstrip()[:1] == b"{":
        try:
            return _from_json(page_url, json.loads(body), wanted)
        except json.JSONDecodeError:
            pass
    return _from_html(page_url, body.decode("utf-8", "replace"), wanted)


def project_page(index_url: str, name: str) -> str:
    """The PEP 503 page of `name` on an index (a `file://` index: its index.html)."""
    base = index_url.rstrip("/") + f"/{name}/"
    return base + "index.html" if base.startswith("file:") else base


def target_tags(python: str, platform: str) -> frozenset[Tag]:
    """The wheel tags a CPython `python` ("3.11") on a conda-style `platform` installs.

    >>> tags = target_tags("3.11", "linux-64")
    >>> Tag("cp311", "cp311", "manylinux_2_28_x86_64") in tags, Tag("py3", "none", "any") in tags
    (True, True)
    >>> Tag("cp311", "cp311", "win_amd64") in tags
    False
    """
    major, minor = (int(p) for p in python.split(".")[:2])
    version = (major, minor)
    if platform in _LINUX_ARCH:
        arch = _LINUX_ARCH[platform]
        plats = [f"manylinux_2_{n}_{arch}" for n in range(_GLIBC_MAX, 4, -1)]
        plats += [f"manylinux{v}_{arch}" for v in ("2014", "2010", "1")] + [f"linux_{arch}"]
    elif platform in _MAC_ARCH:
        plats = list(mac_platforms((15, 0), _MAC_ARCH[platform]))
    else:
        plats = ["win_amd64"]
    tags = set(cpython_tags(version, platforms=plats))
    tags |= set(compatible_tags(version, interpreter=f"cp{major}{minor}", platforms=plats))
    return frozenset(tags)


def fits(filename: str, tags: frozenset[Tag]) -> bool:
    """Whether a wheel installs on the target (an sdist: False; the caller decides)."""
    try:
        return bool(parse_wheel_filename(filename)[3] & tags)
    except InvalidWheelFilename:
        return False


def is_sdist(filename: str) -> bool:
    try:
        parse_sdist_filename(filename)
    except InvalidSdistFilename:
        return False
    return True


def download(
    url: str, dest: Path, sha256: str, *, timeout: float, netrc_file: Path | None = None
) -> int:
    """Fetch `url` into `dest` (atomically), checking its sha256; returns its size.

    Raises:
        BuildError: the bytes are not the lock's (the file changed on its index).
        NetworkError: the download failed.
    """
    import urllib.request  # noqa: PLC0415 - only when a file is fetched

    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(f".{dest.name}.{os.urandom(6).hex()}.tmp")
    digest = hashlib.sha256()
    size = 0
    try:
        if url.startswith("file:"):
            source = Path(urllib.request.url2pathname(urllib.parse.urlsplit(url).path))
            # A `file:` URL of /dev/zero or a FIFO would copy or wait forever: regular files only.
            info = source.stat()
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
                msg = f"{redact(url)}: not a regular file of at most {MAX_FILE_BYTES} bytes"
                raise NetworkError(msg)
            try:
                os.link(source, tmp)
            except OSError:
                shutil.copyfile(source, tmp)
            with tmp.open("rb") as fh:
                while chunk := fh.read(_CHUNK):
                    digest.update(chunk)
                    size += len(chunk)
        else:
            bare, user, token = split_credentials(with_netrc(url, netrc_file))
            req = urllib.request.Request(bare)  # noqa: S310 - http(s) only: file: handled above
            if user is not None or token is not None:
                import base64  # noqa: PLC0415 - only with credentials

                pair = base64.b64encode(f"{user or ''}:{token or ''}".encode()).decode()
                req.add_unredirected_header("Authorization", f"Basic {pair}")
            with (
                # A fresh opener reads the proxy settings now (urlopen's keeps its first).
                urllib.request.build_opener().open(req, timeout=timeout) as resp,
                tmp.open("wb") as out,
            ):
                while chunk := resp.read(_CHUNK):
                    size += len(chunk)
                    if size > MAX_FILE_BYTES:
                        msg = f"{redact(url)}: larger than {MAX_FILE_BYTES} bytes"
                        raise NetworkError(msg)
                    digest.update(chunk)
                    out.write(chunk)
        if digest.hexdigest() != sha256:
            msg = (
                f"{redact(url)}: sha256 {digest.hexdigest()} is not the lock's {sha256}: the file "
                "changed on its index since the lock was made"
            )
            raise BuildError(msg, hint="review the change, then re-lock (`envgen lock --upgrade`)")
        tmp.replace(dest)
    except OSError as exc:
        msg = f"{redact(url)}: download failed ({exc})"
        raise NetworkError(msg) from None
    finally:
        tmp.unlink(missing_ok=True)
    return size
