"""The pip lock (requirements.txt) format: one typed record, one parser, one renderer.

A `PipLock` is what envgen writes as `environments/<variant>/requirements.txt`: a header of
`# ` comment lines (what wrote it, its input hash, the options it was made with, and for a full
lock the content hash of its body), the index lines envgen writes (`--index-url`,
`--extra-index-url`, `--find-links`), a blank line, then one entry per requirement: the
requirement as written (`name==version`, `name @ URL`, an optional `; marker`) and, in a full
lock, its `--hash=` continuation lines. The pins-only form has the same layout without hashes or
content hash.

`PipLock.parse` is strict because a committed lock is untrusted: every line is classified, and a
line it cannot classify (an `-r`/`-c`/`-e` or any other option, a bare URL, a requirement with
leading blanks, a file not in the layout `render` writes) is a LockError naming `file:line`. What
it accepts, `render` writes back byte for byte. Every reader of a pip lock (the lockers' seeding
from previous pins, `check`, verification, `build`, `export`) goes through it; nothing of a
committed file reaches a resolver except `seed_text()`, which is rebuilt from the parsed pins
(name, version, marker, hashes), never copied from the file's lines.

Pure but for `read` (one bounded read of a regular file, no link followed): no process; must
not import the lockers or the build stage.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, NoReturn

from packaging.markers import Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from envgen.errors import LockError
from envgen.infra.files import normalize_text, read_output
from envgen.infra.proc import redact

CONTENT_HASH_FIELD: Final = "content-hash"
# The index options a lock may carry (the ones envgen writes); every other option line is refused.
INDEX_FLAGS: Final = ("--index-url", "--extra-index-url", "--find-links")
# Bounds on what is parsed: a lock of a real CUDA variant is ~2,000 lines and ~200 kB.
MAX_LOCK_BYTES: Final = 16 * 1024 * 1024
MAX_LINE_CHARS: Final = 64 * 1024
RESOLVERS: Final = ("uv", "pip-tools")

_HASH_LINE: Final = re.compile(r"    --hash=(?P<hash>[A-Za-z0-9]+:[^\s\\]+)(?P<more> \\)?")
_INDEX_LINE: Final = re.compile(r"(?P<flag>--[a-z-]+) (?P<url>[^\s\\#]+)")
_DATE: Final = re.compile(r"\d{4}-\d{2}-\d{2}")


def read_lock_text(path: Path) -> str:
    """A committed lock's text: bounded, a regular file only, no link followed; else LockError."""
    try:
        raw = read_output(path)
        if raw is None:
            problem = "missing"
        else:
            return raw.decode("utf-8")
    except UnicodeDecodeError:
        problem = "not UTF-8 (not a file envgen wrote)"
    except OSError as exc:
        problem = f"unreadable ({exc.strerror or exc})"
    msg = f"{path}: {problem}"
    raise LockError(msg, hint="run `envgen lock` to write it")


def body_hash(body: str) -> str:
    """The content hash of a lock body (LF endings, one final newline)."""
    return "sha256:" + hashlib.sha256(normalize_text(body).encode()).hexdigest()


def _short(line: str, limit: int = 120) -> str:
    text = redact(line.strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True, kw_only=True)
class LockOptionsHeader:
    """The `lock-options:` header value, parsed: the overrides a lock was made with."""

    resolver: str | None = None
    as_of: str | None = None

    @classmethod
    def parse(cls, text: str | None, *, where: str) -> LockOptionsHeader:
        """`--as-of YYYY-MM-DD` and `--resolver uv|pip-tools`, each at most once; else LockError.

        >>> LockOptionsHeader.parse("--as-of 2021-06-30 --resolver pip-tools", where="x")
        LockOptionsHeader(resolver='pip-tools', as_of='2021-06-30')
        """
        words = (text or "").split()
        found: dict[str, str] = {}
        problem = None
        if len(words) % 2:
            problem = "an option without its value"
        for flag, value in zip(words[::2], words[1::2], strict=False):
            if flag not in ("--as-of", "--resolver") or flag in found:
                problem = f"{flag!r} is not an option envgen records (--as-of, --resolver)"
            elif flag == "--resolver" and value not in RESOLVERS:
                problem = f"--resolver {value!r} is not one of {', '.join(RESOLVERS)}"
            elif flag == "--as-of" and not _is_date(value):
                problem = f"--as-of {value!r} is not a date (YYYY-MM-DD)"
            found[flag] = value
        if problem is not None:
            msg = f"{where}: `lock-options: {_short(text or '')}`: {problem}"
            raise LockError(
                msg,
                hint="the header was edited by hand; `envgen lock --upgrade` writes it afresh",
            )
        return cls(resolver=found.get("--resolver"), as_of=found.get("--as-of"))


def _is_date(value: str) -> bool:
    if not _DATE.fullmatch(value):
        return False
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True, kw_only=True)
class Pin:
    """One requirement entry of a pip lock."""

    line: int  # 1-based line of the requirement in the file (0 when built, not parsed)
    text: str  # the requirement as written, without the trailing ` \`
    name: str  # canonical name
    version: str | None  # the exact `==` version; None for a range or a direct URL
    url: str | None  # the direct URL of `name @ URL`
    marker: str | None  # the environment marker as written after `;`
    hashes: tuple[str, ...] = ()  # `algo:digest`, in file order
    hash_lines: tuple[int, ...] = ()  # the line of each hash

    @property
    def key(self) -> str:
        """The canonical name, plus `;marker` (normalized) when there is one."""
        return self.name + (f";{Marker(self.marker)}" if self.marker else "")

    @property
    def pinned(self) -> bool:
        """Exact: `name==version` (one specifier) or a direct URL."""
        return self.version is not None or self.url is not None

    def render(self) -> str:
        if not self.hashes:
            return self.text + "\n"
        parts = [self.text, *(f"    --hash={h}" for h in self.hashes)]
        return " \\\n".join(parts) + "\n"


@dataclass(frozen=True, slots=True, kw_only=True)
class PipLock:
    """A requirements.txt lock: header, index lines, pins.

    Build one with `PipLock.parse(text)` (a committed file, or a resolver's output) or
    `PipLock.from_parts(index_lines, pin_lines)`; write it with `render()` (header and body) or
    `body()`.
    """

    header: tuple[str, ...] = ()  # the `# ` lines before the content hash, without `# `
    content_hash: str | None = None
    index_lines: tuple[str, ...] = ()
    index_at: tuple[int, ...] = ()  # the line of each index line in the parsed file
    pins: tuple[Pin, ...] = ()
    source: str = "requirements.txt"
    _fields: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    # --- reading ---------------------------------------------------------------------------

    @classmethod
    def read(cls, path: Path) -> PipLock:
        """Read and parse a lock file: bounded, a regular file only, no link followed."""
        return cls.parse(read_lock_text(path), source=str(path))

    @classmethod
    def parse(cls, text: str, *, source: str = "requirements.txt") -> PipLock:
        """Parse a pip lock (or its body); LockError naming `source:line` for any other line."""
        if len(text) > MAX_LOCK_BYTES:
            problem = f"{len(text)} characters, more than a lock holds ({MAX_LOCK_BYTES})"
            raise LockSyntaxError(source, 1, problem)
        text = normalize_text(text) if text.strip() else ""
        lines = text.splitlines()
        header, content_hash, n = _read_header(lines, source)
        index: list[str] = []
        index_at: list[int] = []
        pins: list[Pin] = []
        pending: _Pending | None = None  # the entry whose hashes are being read
        for number in range(n + 1, len(lines) + 1):
            line = lines[number - 1]
            if len(line) > MAX_LINE_CHARS:
                _fail(source, number, line[:200], f"is longer than {MAX_LINE_CHARS} characters")
            if pending is not None:
                m = _HASH_LINE.fullmatch(line)
                if m is None:
                    _fail(source, number, line, "is not a `    --hash=algo:digest` line")
                pending.hashes.append((number, m["hash"]))
                if not m["more"]:
                    pins.append(_pin(pending, source))
                    pending = None
                continue
            if not line:
                continue
            if line.startswith("#"):
                _fail(source, number, line, "is a comment inside the body (envgen writes none)")
            if line[:1].isspace():
                _fail(source, number, line, "starts with blanks but continues no requirement")
            if line.startswith("-"):
                index.append(_index_line(line, source, number))
                if pins:
                    _fail(source, number, line, "is an index line among the pins (they come first)")
                index_at.append(number)
                continue
            more = line.endswith(" \\")
            pending = _Pending(line=number, text=line.removesuffix(" \\"))
            if not more:
                pins.append(_pin(pending, source))
                pending = None
        if pending is not None:
            _fail(source, len(lines), lines[-1], "ends with `\\` but no line follows")
        lock = cls(
            header=tuple(header),
            content_hash=content_hash,
            index_lines=tuple(index),
            index_at=tuple(index_at),
            pins=tuple(pins),
            source=source,
            _fields=_header_fields(header, content_hash),
        )
        _check_layout(lock, text, source)
        return lock

    @property
    def fields(self) -> dict[str, str]:
        """Header fields: command, input-hash, lock-options, content-hash (those present)."""
        return dict(self._fields)

    @property
    def input_hash(self) -> str | None:
        return self._fields.get("input-hash")

    @property
    def lock_options(self) -> str | None:
        """The raw `lock-options:` value (see `options()` for it parsed)."""
        return self._fields.get("lock-options")

    def options(self) -> LockOptionsHeader:
        """The `lock-options:` header, checked (LockError naming the file when malformed)."""
        return LockOptionsHeader.parse(self.lock_options, where=self.source)

    @property
    def index_options(self) -> tuple[tuple[str, str], ...]:
        """(flag, URL) of each index line, in file order."""
        return tuple((flag, url) for flag, _, url in (x.partition(" ") for x in self.index_lines))

    @property
    def index_urls(self) -> tuple[str, ...]:
        return tuple(url for _, url in self.index_options)

    @property
    def direct_urls(self) -> dict[str, str]:
        """canonical name -> URL of every `name @ URL` requirement."""
        return {p.name: p.url for p in self.pins if p.url is not None}

    @property
    def is_full(self) -> bool:
        """A full lock: every requirement exact and hashed (the pins-only form is neither)."""
        return bool(self.pins) and all(p.pinned and p.hashes for p in self.pins)

    def versions(self) -> dict[str, str]:
        """canonical name -> exact version of the `==` pins."""
        return {p.name: p.version for p in self.pins if p.version is not None}

    def tampered(self) -> list[str]:
        """Problems with a lock edited by hand (no content hash, or one that does not match)."""
        if self.content_hash is None:
            return [
                "no content-hash in the header: the file was not written by envgen or was edited"
            ]
        if self.content_hash != body_hash(self.body()):
            return ["the body does not match its content-hash: the file was edited by hand"]
        return []

    # --- writing ---------------------------------------------------------------------------

    @classmethod
    def from_parts(cls, index_lines: list[str], pin_text: str, *, source: str) -> PipLock:
        """A lock from envgen's index lines and a resolver's requirement entries (parsed)."""
        return cls.parse(_assemble(index_lines, pin_text.splitlines()), source=source)

    def with_header(self, header: list[str]) -> PipLock:
        """This lock with `header` (Header.lines()) and the content hash of its body."""
        return PipLock(
            header=tuple(header),
            content_hash=body_hash(self.body()),
            index_lines=self.index_lines,
            index_at=self.index_at,
            pins=self.pins,
            source=self.source,
            _fields=_header_fields(header, body_hash(self.body())),
        )

    def body(self) -> str:
        """Index lines, a blank line, then the entries; LF endings and one final newline."""
        return _assemble(
            list(self.index_lines), "".join(p.render() for p in self.pins).splitlines()
        )

    def render(self) -> str:
        """The whole file: the header, the content hash (when set), then the body."""
        head = [*self.header]
        if self.content_hash is not None:
            head.append(f"{CONTENT_HASH_FIELD}: {self.content_hash}")
        comments = "".join(f"# {line}\n" for line in head)
        return comments + (self.body() if self.index_lines or self.pins else "")

    def seed_text(self) -> str:
        """The pins as a resolver's starting point: rebuilt from the parsed fields only.

        No line of the file is copied: each entry is written from its canonical name, its exact
        version (or URL), its marker and its hashes, so no option, include or path of a committed
        file reaches a resolver.
        """
        out: list[str] = []
        for pin in self.pins:
            if pin.version is None:
                continue  # a range (pins-only form) or a direct URL: nothing to keep
            text = f"{pin.name}=={pin.version}" + (f" ; {pin.marker}" if pin.marker else "")
            out.append(
                Pin(
                    line=0,
                    text=text,
                    name=pin.name,
                    version=pin.version,
                    url=None,
                    marker=pin.marker,
                    hashes=pin.hashes,
                ).render()
            )
        return "".join(out)


def _read_header(lines: list[str], source: str) -> tuple[list[str], str | None, int]:
    """(header lines without `# `, the content hash, how many lines they take)."""
    header: list[str] = []
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        comment = lines[n]
        if not comment.startswith("# "):
            _fail(source, n + 1, comment, "is not a header line (`# ...`)")
        value = comment[2:]
        n += 1
        if value.startswith(f"{CONTENT_HASH_FIELD}: "):
            return header, value.removeprefix(f"{CONTENT_HASH_FIELD}: ").strip(), n
        header.append(value)
    return header, None, n


def _assemble(index: list[str], pins: list[str]) -> str:
    """Index lines, a blank line, then the pins; LF endings and one final newline."""
    return "\n".join([*index, "", *pins] if index else pins) + "\n"


class LockSyntaxError(LockError):
    """A line of a pip lock that is not in envgen's format (exit code: LockError's)."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        self.source, self.line, self.problem = source, line, problem
        super().__init__(
            f"{source}:{line}: {problem}",
            hint="a lock holds only the index lines envgen writes and exact pins with their "
            "hashes; `envgen lock --upgrade` writes it afresh from the spec",
        )


def _fail(source: str, number: int, line: str, problem: str) -> NoReturn:
    raise LockSyntaxError(source, number, f"`{_short(line)}` {problem}")


def _index_line(line: str, source: str, number: int) -> str:
    m = _INDEX_LINE.fullmatch(line)
    if m is None or m["flag"] not in INDEX_FLAGS:
        _fail(
            source,
            number,
            line,
            "is not an index line envgen writes (`--index-url URL`, `--extra-index-url URL`, "
            "`--find-links URL`); no other option line is accepted",
        )
    return line


@dataclass(slots=True)
class _Pending:
    """A requirement line whose `--hash=` continuation lines are being read."""

    line: int
    text: str
    hashes: list[tuple[int, str]] = field(default_factory=list)


def _pin(entry: _Pending, source: str) -> Pin:
    number, text, hashes = entry.line, entry.text, entry.hashes
    try:
        req = Requirement(text)
    except InvalidRequirement:
        _fail(source, number, text, "is not a requirement (`name==version`, `name @ URL`)")
    version = None
    specs = list(req.specifier)
    if (
        req.url is None
        and len(specs) == 1
        and specs[0].operator == "=="
        and "*" not in specs[0].version
    ):
        version = specs[0].version
    marker = None
    if req.marker is not None:
        marker = text.partition(";")[2].strip() or None
    return Pin(
        line=number,
        text=text,
        name=canonicalize_name(req.name),
        version=version,
        url=req.url,
        marker=marker,
        hashes=tuple(h for _, h in hashes),
        hash_lines=tuple(n for n, _ in hashes),
    )


def _header_fields(header: list[str] | tuple[str, ...], content_hash: str | None) -> dict[str, str]:
    fields: dict[str, str] = {}
    for line in header:
        for key, name in (
            ("input-hash: ", "input-hash"),
            ("lock-options: ", "lock-options"),
            ("To regenerate: ", "command"),
        ):
            if line.startswith(key) and name not in fields:
                fields[name] = line.removeprefix(key)
    if content_hash is not None:
        fields[CONTENT_HASH_FIELD] = content_hash
    return fields


def _check_layout(lock: PipLock, text: str, source: str) -> None:
    """What parse accepted must render to the same text; else name the first differing line."""
    rendered = lock.render()
    if rendered == text:
        return
    want, have = rendered.splitlines(), text.splitlines()
    number = next(
        (i + 1 for i, (a, b) in enumerate(zip(want, have, strict=False)) if a != b),
        min(len(want), len(have)) + 1,
    )
    line = have[number - 1] if number <= len(have) else ""
    problem = "is not in the layout envgen writes (blank lines, order)"
    if not line:
        raise LockSyntaxError(source, number, f"a blank line or the end of the file {problem}")
    _fail(source, number, line, problem)
