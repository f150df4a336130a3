"""The vault directory: every artifact of the vaulted locks, stored once by sha256.

Layout (static files only, so any web server, an S3 bucket or a plain folder serves it)::

    vault.json                                  the manifest: each lock -> its artifacts
    files/sha256/<ab>/<sha256>/<file name>       wheels and sdists, content-addressed
    simple/index.html, simple/<project>/index.html   PEP 503 pages (relative links, #sha256=)
    simple/index.json, simple/<project>/index.json   the same as PEP 691 JSON (api-version 1.1)
    find-links.html                             every pip file on one flat page, for
                                                `pip install --no-index --find-links` (which,
                                                unlike --index-url, a lock's own index lines
                                                cannot override)
    conda/<channel>/<subdir>/<file name>         conda packages (a channel: repodata.json per
                                                 subdir, noarch always), for conda and rattler

A file two variants share is stored once: its path depends only on its bytes (pip files) or on
its channel and name (conda files, whose names are unique in a channel). pip and uv read
`<vault>/simple` as an index; conda reads `<vault>/conda/<channel>` as a channel, and envgen's
builds use `<vault>/conda` as the channel alias. Index pages are rewritten from the manifest on
every change, sorted, so the same artifacts give the same bytes.

Must not read lock files itself (envgen.vault.locks does) or install anything.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import json
import logging
import shutil
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename

from envgen.errors import BuildError, FileSystemError, NetworkError
from envgen.infra.files import atomic_write_bytes, canonical_json
from envgen.infra.network import http_get
from envgen.infra.proc import redact, strip_credentials
from envgen.infra.simple_api import IndexFile, download, fits, is_sdist, page_files, project_page
from envgen.infra.simple_api import target_tags as _target_tags
from envgen.lock.index_plan import index_plan
from envgen.model.variants import Variant
from envgen.render.indexes import IndexUrls
from envgen.vault.locks import CondaPin, LockedVariant, PipPin

MANIFEST: Final = "vault.json"
FORMAT: Final = 1
ANACONDA: Final = "https://conda.anaconda.org"
_PIP_ROOT: Final = "files/sha256"
Kind = Literal["wheel", "sdist", "conda"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class Artifact:
    """One stored file: what it is, where it lies in the vault, and what its index said."""

    sha256: str
    filename: str
    project: str
    kind: Kind
    size: int
    path: str
    requires_python: str | None = None
    upload_time: str | None = None
    md5: str | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "filename": self.filename,
            "project": self.project,
            "kind": self.kind,
            "size": self.size,
            "path": self.path,
        }
        optional = {
            "requires-python": self.requires_python,
            "upload-time": self.upload_time,
            "md5": self.md5,
        }
        return data | {key: value for key, value in optional.items() if value is not None}

    @classmethod
    def from_json(cls, sha256: str, data: dict[str, object]) -> Artifact:
        def text(key: str) -> str | None:
            value = data.get(key)
            return value if isinstance(value, str) else None

        kind = data.get("kind")
        size = data.get("size")
        if kind not in ("wheel", "sdist", "conda") or not isinstance(size, int):
            msg = f"{MANIFEST}: artifact {sha256}: no valid kind or size"
            raise FileSystemError(msg, hint="restore vault.json from a good copy")
        return cls(
            sha256=sha256,
            filename=str(data.get("filename")),
            project=str(data.get("project")),
            kind=kind,
            size=size,
            path=str(data.get("path")),
            requires_python=text("requires-python"),
            upload_time=text("upload-time"),
            md5=text("md5"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class LockEntry:
    """One vaulted lock: its files' digests and the artifacts it needs."""

    lock_files: dict[str, str]
    artifacts: tuple[str, ...]


@dataclass(slots=True, kw_only=True)
class Manifest:
    """vault.json: locks by key (`<project>/<variant>`) and artifacts by sha256."""

    locks: dict[str, LockEntry] = field(default_factory=dict)
    artifacts: dict[str, Artifact] = field(default_factory=dict)

    def to_bytes(self) -> bytes:
        data = {
            "format": FORMAT,
            "locks": {
                key: {"lock-files": entry.lock_files, "artifacts": list(entry.artifacts)}
                for key, entry in self.locks.items()
            },
            "artifacts": {sha: a.to_json() for sha, a in self.artifacts.items()},
        }
        return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode()

    @classmethod
    def from_bytes(cls, raw: bytes, source: str) -> Manifest:
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            msg = f"{source}: not valid JSON ({exc})"
            raise FileSystemError(msg, hint="restore vault.json from a good copy") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            msg = f"{source}: not a format-{FORMAT} vault manifest"
            raise FileSystemError(msg, hint="point --dir / --vault at a vault envgen wrote")
        locks = {
            str(key): LockEntry(
                lock_files={str(k): str(v) for k, v in dict(entry.get("lock-files", {})).items()},
                artifacts=tuple(str(a) for a in entry.get("artifacts", [])),
            )
            for key, entry in dict(data.get("locks", {})).items()
        }
        artifacts = {
            str(sha): Artifact.from_json(str(sha), dict(item))
            for sha, item in dict(data.get("artifacts", {})).items()
        }
        return cls(locks=locks, artifacts=artifacts)


def load_manifest(root: Path) -> Manifest:
    path = root / MANIFEST
    if not path.is_file():
        return Manifest()
    return Manifest.from_bytes(path.read_bytes(), str(path))


def read_remote_manifest(location: str, *, timeout: float) -> Manifest:
    """The manifest of a vault given as a folder or a URL (file, http, https)."""
    if "://" not in location:
        root = Path(location)
        if not (root / MANIFEST).is_file():
            msg = f"{location}: no {MANIFEST}; not a vault"
            raise BuildError(msg, hint="make one with `envgen vault --dir DIR`")
        return load_manifest(root)
    url = location.rstrip("/") + "/" + MANIFEST
    try:
        resp = http_get(url, timeout=timeout, retries=2)
    except NetworkError as exc:
        msg = f"{redact(location)}: the vault's {MANIFEST} could not be read ({exc.message})"
        raise BuildError(msg, hint="check the --vault URL") from None
    return Manifest.from_bytes(resp.body, redact(url))


def _plain(part: str, what: str) -> str:
    """`part` when it is one plain path component (a URL's file or folder name), else BuildError:
    a name from a lock becomes a path in the vault, and `..` or a `/` (`%2F` unquoted) there
    would place a file outside it."""
    if part in ("", ".", "..") or any(c in part for c in "/\\\0") or not part.isprintable():
        msg = f"{what}: {part!r} is not a plain file or folder name; nothing is stored outside it"
        raise BuildError(msg, hint="re-lock with `envgen lock` (envgen never writes such a URL)")
    return part


def pip_path(sha256: str, filename: str) -> str:
    """Where a pip file lies in the vault.

    >>> pip_path("ab" + "0" * 62, "six-1.17.0-py2.py3-none-any.whl")
    'files/sha256/ab/ab00000000000000000000000000000000000000000000000000000000000000/six-1.17.0-py2.py3-none-any.whl'
    """
    _plain(sha256, "a pip file's sha256")
    return f"{_PIP_ROOT}/{sha256[:2]}/{sha256}/{_plain(filename, 'a pip file')}"


def conda_path(url: str) -> tuple[str, str, str]:
    """(vault path, channel, subdir) of a conda package URL.

    >>> conda_path("https://conda.anaconda.org/conda-forge/linux-64/zlib-1.3-h0.conda")
    ('conda/conda-forge/linux-64/zlib-1.3-h0.conda', 'conda-forge', 'linux-64')
    >>> conda_path("https://repo.example.com/ch/main/noarch/a-1-0.tar.bz2")[1]
    'repo.example.com/ch/main'
    """
    bare = strip_credentials(url)
    if bare.startswith(ANACONDA + "/"):
        rest = bare[len(ANACONDA) + 1 :]
    else:
        parts = urllib.parse.urlsplit(bare)
        rest = parts.netloc.split(":")[0] + parts.path
    channel_subdir, _, name = rest.rpartition("/")
    channel, _, subdir = channel_subdir.rpartition("/")
    what = f"a conda package URL ({redact(url)})"
    for part in (*(p for p in channel.split("/") if p), subdir, name):
        _plain(part, what)
    return f"conda/{channel}/{subdir}/{name}", channel, subdir


# --- adding a lock ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Sources:
    """Where a variant's files are fetched from (real URLs, maybe with credentials)."""

    indexes: tuple[str, ...]
    flat_pages: tuple[str, ...]
    channel_alias: str | None
    timeout: float
    netrc_file: Path | None = None


def sources_for(
    variant: Variant,
    urls: IndexUrls,
    channel_alias: str | None,
    timeout: float,
    netrc_file: Path | None = None,
) -> Sources:
    """The indexes and pages a variant's lock was resolved against (spec + settings)."""
    plan = index_plan(variant, urls)
    indexes: list[str] = []
    flat: list[str] = []
    if plan.pytorch is not None:
        (flat if plan.flat else indexes).append(plan.pytorch)
    indexes.append(plan.pypi)
    for _, url, is_flat in plan.extensions:
        (flat if is_flat else indexes).append(url)
    return Sources(
        indexes=tuple(dict.fromkeys(indexes)),
        flat_pages=tuple(dict.fromkeys(flat)),
        channel_alias=channel_alias,
        timeout=timeout,
        netrc_file=netrc_file,
    )


def _candidates(pin: PipPin, sources: Sources, flat: list[IndexFile]) -> list[IndexFile]:
    if pin.url is not None:
        name = urllib.parse.unquote(urllib.parse.urlsplit(pin.url).path.rsplit("/", 1)[-1])
        return [IndexFile(filename=name, url=pin.url, sha256=h) for h in pin.hashes[:1]]
    wanted = set(pin.hashes)
    found: dict[str, IndexFile] = {}
    pages = [project_page(index, pin.name) for index in sources.indexes]
    for page in pages:
        for f in page_files(page, timeout=sources.timeout, netrc_file=sources.netrc_file):
            if f.sha256 in wanted and f.sha256 not in found:
                found[f.sha256] = f
    for f in flat:
        if f.sha256 in wanted and f.sha256 not in found:
            found[f.sha256] = f
    return sorted(found.values(), key=lambda f: f.filename)


def _project_of(filename: str) -> str | None:
    try:
        return canonicalize_name(parse_wheel_filename(filename)[0])
    except ValueError:
        pass
    try:
        return canonicalize_name(parse_sdist_filename(filename)[0])
    except ValueError:
        return None


def choose_files(
    candidates: list[IndexFile], variant: Variant, *, all_files: bool
) -> list[IndexFile]:
    """The files of a pin the vault keeps: those that install on the variant's target (a wheel
    for its python and platform), else its sdist; every hashed file with `all_files`."""
    if all_files:
        return candidates
    tags = _target_tags(variant.python, variant.platform)
    wheels = [f for f in candidates if fits(f.filename, tags)]
    if wheels:
        return wheels
    return [f for f in candidates if is_sdist(f.filename)]


def _fetch_pip(root: Path, pin: PipPin, files: list[IndexFile], sources: Sources) -> list[Artifact]:
    stored: list[Artifact] = []
    for f in files:
        sha = str(f.sha256)
        rel = pip_path(sha, f.filename)
        dest = root / rel
        if dest.is_file():
            size = dest.stat().st_size
        else:
            log.debug("vault: fetching %s", f.filename)
            size = download(
                f.url, dest, sha, timeout=sources.timeout, netrc_file=sources.netrc_file
            )
        stored.append(
            Artifact(
                sha256=sha,
                filename=f.filename,
                project=pin.name,
                kind="wheel" if f.filename.endswith(".whl") else "sdist",
                size=size,
                path=rel,
                requires_python=f.requires_python,
                upload_time=f.upload_time,
            )
        )
    return stored


def _fetch_conda(root: Path, pin: CondaPin, sources: Sources) -> Artifact:
    from envgen.build.conda import alias_url  # noqa: PLC0415 - the conda builder: only for conda pins

    rel, _, _ = conda_path(pin.url)
    dest = root / rel
    url = alias_url(pin.url, sources.channel_alias)
    if pin.sha256 is None:
        msg = f"{pin.name} {pin.version}: the conda lock gives no sha256 for {redact(pin.url)}"
        raise BuildError(msg, hint="re-lock with `envgen lock --upgrade`")
    if dest.is_file():
        size = dest.stat().st_size
    else:
        log.debug("vault: fetching %s", rel.rsplit("/", 1)[-1])
        size = download(
            url, dest, pin.sha256, timeout=sources.timeout, netrc_file=sources.netrc_file
        )
    return Artifact(
        sha256=pin.sha256,
        filename=rel.rsplit("/", 1)[-1],
        project=pin.name,
        kind="conda",
        size=size,
        path=rel,
        md5=pin.md5,
    )


def add_lock(
    root: Path,
    key: str,
    locked: LockedVariant,
    variant: Variant,
    sources: Sources,
    *,
    all_files: bool = False,
) -> tuple[Artifact, ...]:
    """Fetch, check and store every artifact of one lock, and record it in the manifest.

    Raises:
        BuildError: a pinned file is on none of the indexes, or its bytes are not the lock's.
        NetworkError: an index or a download failed.
    """
    root.mkdir(parents=True, exist_ok=True)
    flat = [
        f
        for page in sources.flat_pages
        for f in page_files(page, timeout=sources.timeout, netrc_file=sources.netrc_file)
    ]
    artifacts: list[Artifact] = []
    missing: list[str] = []
    for pin in locked.pip:
        candidates = _candidates(pin, sources, flat)
        chosen = choose_files(candidates, variant, all_files=all_files)
        if not chosen:
            where = ", ".join(redact(i) for i in (*sources.indexes, *sources.flat_pages))
            why = (
                "no file with a hash the lock names"
                if not candidates
                else f"none of its {len(candidates)} hashed files installs on "
                f"{variant.platform} python {variant.python}"
            )
            missing.append(f"{pin.name}=={pin.version}: {why} (asked: {where})")
            continue
        artifacts += _fetch_pip(root, pin, chosen, sources)
    if missing:
        msg = f"{key}: {len(missing)} pinned package(s) cannot be vaulted:\n" + "\n".join(
            f"  - {m}" for m in missing
        )
        raise BuildError(msg, hint="re-lock against indexes that still hold them, or --all-files")
    artifacts += [_fetch_conda(root, pin, sources) for pin in locked.conda]
    manifest = load_manifest(root)
    for a in artifacts:
        manifest.artifacts[a.sha256] = a
    manifest.locks[key] = LockEntry(
        lock_files=dict(locked.files),
        artifacts=tuple(sorted({a.sha256 for a in artifacts})),
    )
    write_manifest(root, manifest)
    return tuple(artifacts)


def write_manifest(root: Path, manifest: Manifest) -> None:
    """Write vault.json and rewrite every index page and repodata.json from it."""
    write_indexes(root, manifest)
    atomic_write_bytes(root / MANIFEST, manifest.to_bytes())


# --- index pages --------------------------------------------------------------------------------
def _project_html(name: str, files: list[Artifact]) -> str:
    links = []
    for a in files:
        href = "../../" + urllib.parse.quote(a.path) + f"#sha256={a.sha256}"
        requires = (
            f' data-requires-python="{html.escape(a.requires_python)}"' if a.requires_python else ""
        )
        links.append(f'<a href="{html.escape(href)}"{requires}>{html.escape(a.filename)}</a><br>')
    return (
        '<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.1">'
        f"<title>Links for {html.escape(name)}</title></head><body>\n"
        f"<h1>Links for {html.escape(name)}</h1>\n" + "\n".join(links) + "\n</body></html>\n"
    )


def _project_json(name: str, files: list[Artifact]) -> str:
    versions: set[str] = set()
    entries = []
    for a in files:
        try:
            version = str(
                parse_wheel_filename(a.filename)[1]
                if a.kind == "wheel"
                else parse_sdist_filename(a.filename)[1]
            )
            versions.add(version)
        except ValueError:
            pass
        entry: dict[str, object] = {
            "filename": a.filename,
            "url": "../../" + urllib.parse.quote(a.path),
            "hashes": {"sha256": a.sha256},
            "size": a.size,
        }
        if a.requires_python:
            entry["requires-python"] = a.requires_python
        if a.upload_time:
            entry["upload-time"] = a.upload_time
        entries.append(entry)
    data = {
        "meta": {"api-version": "1.1"},
        "name": name,
        "files": entries,
        "versions": sorted(versions),
    }
    return canonical_json(data) + "\n"


def _write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode()
    if path.is_file() and path.read_bytes() == data:
        return
    atomic_write_bytes(path, data)


def write_indexes(root: Path, manifest: Manifest) -> None:
    """Rewrite simple/ (PEP 503 + PEP 691) and each conda subdir's repodata.json."""
    by_project: dict[str, list[Artifact]] = {}
    channels: set[str] = set()
    flat: list[Artifact] = []
    for a in manifest.artifacts.values():
        if a.kind == "conda":
            channels.add(a.path.split("/", 1)[1].rsplit("/", 2)[0])  # conda/<channel>/<subdir>/f
        else:
            by_project.setdefault(a.project, []).append(a)
            flat.append(a)
    simple = root / "simple"
    for stale in sorted(simple.iterdir()) if simple.is_dir() else []:
        if stale.is_dir() and stale.name not in by_project:
            shutil.rmtree(stale)
    names = sorted(by_project)
    for name in names:
        files = sorted(by_project[name], key=lambda a: (a.filename, a.sha256))
        _write_text(simple / name / "index.html", _project_html(name, files))
        _write_text(simple / name / "index.json", _project_json(name, files))
    links = "\n".join(f'<a href="{n}/">{n}</a><br>' for n in names)
    _write_text(
        simple / "index.html",
        '<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.1">'
        f"<title>Simple index</title></head><body>\n{links}\n</body></html>\n",
    )
    _write_text(
        simple / "index.json",
        canonical_json({"meta": {"api-version": "1.1"}, "projects": [{"name": n} for n in names]})
        + "\n",
    )
    flat.sort(key=lambda a: (a.filename, a.sha256))
    _write_text(root / "find-links.html", _project_html("the vault", flat).replace("../../", ""))
    for channel in sorted(channels):
        _index_channel(root / "conda" / channel)


def _index_channel(channel: Path) -> None:
    """repodata.json for every subdir of a vault channel (py-rattler's indexer)."""
    import rattler.index  # noqa: PLC0415 - heavy; only for vaults with conda packages

    (channel / "noarch").mkdir(parents=True, exist_ok=True)
    coro = rattler.index.index_fs(channel, write_zst=False, write_shards=False, force=True)
    asyncio.run(coro)


# --- gc, check, missing -------------------------------------------------------------------------
def gc(root: Path) -> tuple[Artifact, ...]:
    """Drop every artifact no vaulted lock references; returns what was removed."""
    manifest = load_manifest(root)
    used = {sha for entry in manifest.locks.values() for sha in entry.artifacts}
    dropped = tuple(a for sha, a in sorted(manifest.artifacts.items()) if sha not in used)
    for a in dropped:
        path = root / a.path
        path.unlink(missing_ok=True)
        if a.kind != "conda":
            for parent in (path.parent, path.parent.parent):
                if parent.is_dir() and not any(parent.iterdir()):
                    parent.rmdir()
        del manifest.artifacts[a.sha256]
    write_manifest(root, manifest)
    return dropped


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def check(root: Path) -> list[str]:
    """Re-hash every stored file: lines naming each missing, changed or unreferenced file."""
    if not (root / MANIFEST).is_file():
        msg = f"{root}: no {MANIFEST}; not a vault"
        raise FileSystemError(msg, hint="make one with `envgen vault --dir DIR`")
    manifest = load_manifest(root)
    problems: list[str] = []
    for sha, a in sorted(manifest.artifacts.items()):
        path = root / a.path
        if not path.is_file():
            problems.append(f"missing: {a.path}")
        elif (found := file_sha256(path)) != sha:
            problems.append(f"changed: {a.path} has sha256 {found}, the manifest {sha}")
    for key, entry in sorted(manifest.locks.items()):
        problems += [
            f"{key}: names {sha}, which the manifest does not hold"
            for sha in entry.artifacts
            if sha not in manifest.artifacts
        ]
    known = {a.path for a in manifest.artifacts.values()}
    for kind_root in (root / _PIP_ROOT,):
        for path in sorted(kind_root.rglob("*")) if kind_root.is_dir() else []:
            if path.is_file() and path.relative_to(root).as_posix() not in known:
                problems.append(f"unreferenced: {path.relative_to(root).as_posix()} (`vault gc`)")
    return problems


def missing_for(manifest: Manifest, locked: LockedVariant, variant: Variant) -> list[str]:
    """The lock's files a vault lacks: each pin with none of its hashes stored for the target."""
    stored = manifest.artifacts
    tags = _target_tags(variant.python, variant.platform)
    lines: list[str] = []
    for pin in locked.pip:
        have = [stored[h] for h in pin.hashes if h in stored]
        usable = [a for a in have if a.kind == "sdist" or fits(a.filename, tags)]
        if not usable:
            lines.append(
                f"{pin.name}=={pin.version} (sha256 {', '.join(h[:12] for h in pin.hashes[:3])}"
                f"{', ...' if len(pin.hashes) > 3 else ''})"
            )
    lines += [
        f"{conda_path(cpin.url)[0]} (conda {cpin.name} {cpin.version})"
        for cpin in locked.conda
        if cpin.sha256 is None or cpin.sha256 not in stored
    ]
    return lines


def merged(manifests: Iterable[Manifest]) -> Manifest:
    """One manifest holding every lock and artifact of several (a pull into a non-empty vault)."""
    out = Manifest()
    for m in manifests:
        out.locks.update(m.locks)
        out.artifacts.update(m.artifacts)
    return out
