"""The conda lock (conda-lock.yml) format: one typed record, one parser, one renderer.

A `CondaLock` is conda-lock's unified format, version 1, as envgen writes it for one platform:
`metadata` (envgen's content hash per platform, the channels, the platforms, the source file)
and one `package` entry per conda or pip package (name, version, manager, platform,
dependencies, URL, hashes). The lock stage renders it (envgen.lock.conda), and every reader (the
locker's previous pins, the build's install list, the channel check) parses it here.

`CondaLock.parse` is strict, because a committed lock is untrusted: the YAML is read bounded
(no alias bomb), every field must have its type, and what it accepts must render back to the
same text, else a LockError naming the file and the entry. Pure but for `read` (one bounded
read of a regular file): no process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NoReturn

from envgen.errors import LockError
from envgen.infra.files import normalize_text
from envgen.infra.proc import redact
from envgen.lock.piplock import read_lock_text

FORMAT_VERSION: Final = 1
MAX_LOCK_CHARS: Final = 32 * 1024 * 1024
_NAME: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,200}")
_VERSION: Final = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+!-]{0,200}")
_PACKAGE_KEYS: Final = (
    "name",
    "version",
    "manager",
    "platform",
    "dependencies",
    "url",
    "hash",
    "category",
    "optional",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class CondaPackage:
    """One `package:` entry: a conda package (md5, maybe sha256) or a pip one (sha256)."""

    name: str
    version: str
    manager: str  # "conda" or "pip"
    platform: str
    url: str
    dependencies: tuple[tuple[str, str], ...] = ()
    md5: str | None = None
    sha256: str | None = None

    def document(self) -> dict[str, object]:
        hashes: dict[str, str] = {}
        if self.md5 is not None:
            hashes["md5"] = self.md5
        if self.sha256 is not None:
            hashes["sha256"] = self.sha256
        return {
            "name": self.name,
            "version": self.version,
            "manager": self.manager,
            "platform": self.platform,
            "dependencies": dict(self.dependencies),
            "url": self.url,
            "hash": hashes,
            "category": "main",
            "optional": False,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class CondaLock:
    """A conda-lock.yml body (the header comments are the lock file's, see lockfile.with_header)."""

    content_hash: tuple[tuple[str, str], ...]  # (platform, sha256 hex)
    channels: tuple[str, ...]
    platforms: tuple[str, ...]
    sources: tuple[str, ...]
    packages: tuple[CondaPackage, ...]

    @classmethod
    def read(cls, path: Path) -> CondaLock:
        """Read and parse a lock file: bounded, a regular file only, no link followed."""
        return cls.parse(read_lock_text(path), source=str(path))

    @classmethod
    def parse(cls, text: str, *, source: str = "conda-lock.yml") -> CondaLock:
        """Parse a conda-lock.yml (header comments allowed); LockError naming what is wrong."""
        if len(text) > MAX_LOCK_CHARS:
            _fail(source, f"{len(text)} characters, more than a lock holds ({MAX_LOCK_CHARS})")
        import yaml  # noqa: PLC0415 - PyYAML (~10 ms): only where a conda lock is read or written

        from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - the same

        try:
            _, doc = load_bounded(text)  # a committed file: aliases must not blow it up
        except (yaml.YAMLError, ValueError, OverflowError) as exc:  # YamlBombError: ValueError
            _fail(source, f"not valid YAML: {redact(str(exc))[:300]}")
        if not isinstance(doc, dict) or doc.get("version") != FORMAT_VERSION:
            _fail(source, f"not a conda-lock file of version {FORMAT_VERSION}")
        meta = doc.get("metadata")
        packages = doc.get("package")
        if not isinstance(meta, dict) or not isinstance(packages, list):
            _fail(source, "no `metadata:` mapping or no `package:` list; not a conda-lock file")
        hashes = meta.get("content_hash")
        channels = meta.get("channels")
        if not isinstance(hashes, dict) or not isinstance(channels, list):
            _fail(source, "metadata: content_hash must be a mapping and channels a list")
        lock = cls(
            content_hash=tuple((_text(k, source), _text(v, source)) for k, v in hashes.items()),
            channels=tuple(
                _text(c.get("url") if isinstance(c, dict) else None, source) for c in channels
            ),
            platforms=_texts(meta.get("platforms"), source, "metadata.platforms"),
            sources=_texts(meta.get("sources"), source, "metadata.sources"),
            packages=tuple(_package(p, i, source) for i, p in enumerate(packages)),
        )
        body = text
        if text.lstrip().startswith("#"):
            body = "".join(line for line in text.splitlines(keepends=True) if line[:1] != "#")
        if lock.render() != normalize_text(body):
            _fail(source, "not in the layout envgen writes (fields, order or quoting differ)")
        return lock

    def render(self) -> str:
        """The body, as conda-lock writes it (field order kept, no flow style)."""
        document = {
            "version": FORMAT_VERSION,
            "metadata": {
                "content_hash": dict(self.content_hash),
                "channels": [{"url": c, "used_env_vars": []} for c in self.channels],
                "platforms": list(self.platforms),
                "sources": list(self.sources),
            },
            "package": [p.document() for p in self.packages],
        }
        import yaml  # noqa: PLC0415 - PyYAML (~10 ms): only where a conda lock is read or written

        text: str = yaml.safe_dump(
            document, sort_keys=False, default_flow_style=False, width=1 << 16
        )
        return text

    def versions(self, platform: str, *, manager: str = "conda") -> dict[str, str]:
        """name -> version of the `manager` packages for `platform`."""
        return {
            p.name: p.version
            for p in self.packages
            if p.manager == manager and p.platform == platform
        }


def _fail(source: str, problem: str) -> NoReturn:
    msg = f"{source}: {problem}"
    raise LockError(
        msg, hint="conda-lock.yml is written by `envgen lock`; `envgen lock --upgrade` rewrites it"
    )


def _text(value: object, source: str, where: str = "metadata") -> str:
    if not isinstance(value, str):
        _fail(source, f"{where}: {value!r:.80} is not a string")
    return str(value)


def _texts(value: object, source: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        _fail(source, f"{where} is not a list")
    return tuple(_text(v, source, where) for v in value)


def _package(item: object, i: int, source: str) -> CondaPackage:
    where = f"package[{i}]"
    if not isinstance(item, dict) or tuple(item) != _PACKAGE_KEYS:
        _fail(source, f"{where}: not an entry with the fields {', '.join(_PACKAGE_KEYS)}")
    hashes, deps = item["hash"], item["dependencies"]
    if not isinstance(hashes, dict) or not set(hashes) <= {"md5", "sha256"}:
        _fail(source, f"{where}.hash: only md5 and sha256 are written")
    if not isinstance(deps, dict):
        _fail(source, f"{where}.dependencies is not a mapping")
    manager = _text(item["manager"], source, f"{where}.manager")
    if manager not in ("conda", "pip"):
        _fail(source, f"{where}.manager: {manager!r:.40} is neither conda nor pip")
    name = _text(item["name"], source, f"{where}.name")
    version = _text(item["version"], source, f"{where}.version")
    # They become a solver's `name ==version` specs when the lock is kept: one plain word each.
    if not _NAME.fullmatch(name) or not _VERSION.fullmatch(version):
        _fail(source, f"{where}: {redact(name)[:80]!r} {redact(version)[:80]!r} is not a package")
    return CondaPackage(
        name=name,
        version=version,
        manager=manager,
        platform=_text(item["platform"], source, f"{where}.platform"),
        url=_text(item["url"], source, f"{where}.url"),
        dependencies=tuple(
            (_text(k, source, f"{where}.dependencies"), _text(v, source, f"{where}.dependencies"))
            for k, v in deps.items()
        ),
        md5=_text(hashes["md5"], source, f"{where}.hash") if "md5" in hashes else None,
        sha256=_text(hashes["sha256"], source, f"{where}.hash") if "sha256" in hashes else None,
    )
