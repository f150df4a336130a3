"""Verification: a committed lock must be what its recorded inputs resolve to.

The content-hash only catches accidental edits: anyone who edits a committed lock can recompute
it. So `check`, `lock --check` and `build` also compare the lock with what the spec and the
user's settings produce: the index lines must be the ones envgen would write, and a fresh
resolution of the recorded inputs (uv's cache first, then the network) must give the same pins
and only hashes of files the index serves for each pin (issue 16, docs/reliability.md).
Without a resolver, full_lock_pin_problems checks a lock's pins against the matrix.
"""

from __future__ import annotations

import datetime as dt
import difflib
import logging
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import EnvgenError, LockError, ToolNotFoundError
from envgen.infra.files import normalize_text, read_output
from envgen.infra.proc import redact
from envgen.infra.settings import Settings
from envgen.lock.base import Locker, LockRequest
from envgen.lock.conda import CondaLocker
from envgen.lock.lockfile import (
    LOCK_FILES_PIP,
    conda_lock_names,
    effective_options,
    expected_lock_names,
    numbered_body,
    parse_overrides,
    recorded_in,
    split_header,
    tampered_lines,
)
from envgen.lock.pip import PipLocker, written_index_lines
from envgen.model.spec import ProjectSpec
from envgen.model.types import ANACONDA, Manager
from envgen.model.variants import Variant, pip_pins
from envgen.render.base import IndexUrls, conda_channel_map, index_urls
from envgen.render.environment import channels

log = logging.getLogger(__name__)


def make_lockers(resolver: str, conda_tool: str) -> dict[Manager, Locker]:
    """The locker of each manager, for a lock run and for a re-resolution."""
    return {"pip": PipLocker(resolver=resolver), "conda": CondaLocker(tool=conda_tool)}


def full_lock_pin_problems(
    out: Path, variant: Variant, written: IndexUrls
) -> tuple[list[str], bool]:
    """(problems, locked): a full lock's pins against the matrix, without any resolver.

    What `lock --pins-only --check` can say about a full lock: each lock file is as envgen wrote
    it (its content-hash) and its torch-family pins are the matrix's. `locked` is False when the
    full lock's inputs are there but the lock files are not yet.
    """
    problems: list[str] = []
    locked = False
    for name in expected_lock_names(variant):
        rel = f"{variant.id}/{name}"
        raw = read_output(out / variant.id / name)  # bounded; no link or device followed
        if raw is None:
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(f"{rel}: unreadable: {exc}")
            continue
        locked = True
        problems += [f"{rel}: {p}" for p in tampered_lines(text)]
        if name == "requirements.txt":
            problems += [f"{rel}: {p}" for p in pin_mismatches(text, variant, written)]
    return problems, locked


_SHA256_RE: Final = re.compile(r"--hash=sha256:(\S*)")


def pin_mismatches(text: str, variant: Variant, written: IndexUrls) -> list[str]:
    """Lines of a lock that cannot be what envgen wrote, each named by its line number.

    Torch-family pins that differ from the matrix, direct URLs other than the row's own torch
    wheel (as `written` writes it), pins that break a requirement of the spec's pip: list, and
    sha256 hashes that are not 64 hex digits. (A well-formed hash swapped for another is caught
    by the content-hash, which covers the whole body, not by line.)
    """

    want = pip_pins(variant)
    asked: dict[str, Requirement] = {}
    for item in variant.pip_extra:
        try:
            req = Requirement(item)
        except InvalidRequirement:
            continue
        asked[canonicalize_name(req.name)] = req
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        problems.extend(
            f"line {number}: {digest!r} is not a sha256 (64 hex digits)"
            for digest in _SHA256_RE.findall(line)
            if not re.fullmatch(r"[0-9a-f]{64}", digest.rstrip("\\"))
        )
        if line[:1].isspace() or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        if not sep:
            continue
        name = name.strip().lower()
        version = version.split()[0].rstrip("\\").strip() if version.split() else ""
        if name in want and want[name] != version:
            problems.append(
                f"line {number}: {name}=={version} but the matrix pins {name}=={want[name]}"
            )
        wanted = asked.get(canonicalize_name(name.split("[")[0]))
        if wanted is not None and wanted.specifier:
            try:
                ok = wanted.specifier.contains(Version(version.split(";")[0]), prereleases=True)
            except InvalidVersion:
                ok = False
            if not ok:
                problems.append(
                    f"line {number}: {name}=={version} does not satisfy {wanted} from the spec"
                )
    return [*problems, *direct_url_problems(text, variant, written)]


_DIRECT_URL_RE: Final = re.compile(
    r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*@\s*(?P<url>\S+)"
)


def direct_url_problems(text: str, variant: Variant, written: IndexUrls) -> list[str]:
    """`name @ URL` requirements of a requirements.txt lock that envgen would not write.

    The one direct URL envgen writes is a matrix row's own torch wheel (torch 1.0-1.1 on Linux,
    `PipBuild.wheel`), for the variant's python, as the spec and settings write its index: any
    other name or URL is refused (a build installs what the lock names, and uv checks only the
    hash the same line carries), and that row's lock must name it.
    """
    build = variant.pip
    direct = build.direct_urls(variant.python) if build is not None else {}
    want = {name: written.pytorch(url) for name, url in direct.items()}
    writes = ", ".join(f"`{n} @ {u}`" for n, u in want.items()) or "none for this variant"
    problems: list[str] = []
    seen: set[str] = set()
    for number, line in numbered_body(text):
        if not line or line[:1].isspace() or line.startswith(("#", "-")):
            continue
        m = _DIRECT_URL_RE.match(line.split(";", 1)[0])
        if m is None:
            continue
        name = canonicalize_name(m.group("name"))
        if want.get(name) == m.group("url").rstrip("\\"):
            seen.add(name)
            continue
        problems.append(
            f"line {number}: `{_short(line)}` is a direct URL envgen does not write "
            f"(it writes {writes})"
        )
    problems += [
        f"`{n} @ {u}` is missing: the matrix row names this wheel"
        for n, u in want.items()
        if n not in seen
    ]
    return problems


@dataclass(frozen=True, slots=True, kw_only=True)
class _Entry:
    """One requirement of a requirements.txt lock, with the line numbers of its parts."""

    line: int
    key: str  # canonical name, plus `;marker` when there is one
    name: str
    version: str
    text: str
    hashes: tuple[tuple[int, str], ...]  # (line, digest)


_HASH_RE: Final = re.compile(r"--hash=(?P<algo>[A-Za-z0-9]+):(?P<digest>[^\s\\]*)")


def _short(line: str, limit: int = 160) -> str:
    """A line for a message: credentials masked, length bounded."""

    text = redact(line.strip().rstrip("\\").strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _without_options(body: str) -> str:
    return "".join(
        line
        for line in normalize_text(body).splitlines(keepends=True)
        if not line.startswith("-") and line.strip()
    )


def option_lines(text: str) -> list[tuple[int, str]]:
    """The option lines (`--index-url`, `-f`, `--trusted-host`, ...) of a lock, numbered."""
    return [(n, line.strip()) for n, line in numbered_body(text) if line.startswith("-")]


def index_line_problems(text: str, variant: Variant, written: IndexUrls) -> list[str]:
    """Option lines of a requirements.txt lock that the spec and settings would not write.

    The indexes a build uses come from the spec and settings, never from the lock; a lock that
    names others was edited (or was made with other settings) and is refused.
    """

    want = written_index_lines(variant, written)
    have = option_lines(text)
    problems = [
        f"line {n}: `{_short(line)}` is not an index line the spec and settings write"
        f" (they write: {', '.join(f'`{w}`' for w in want) or 'none'})"
        for n, line in have
        if " ".join(line.split()) not in want
    ]
    seen = {" ".join(line.split()) for _, line in have}
    problems += [
        f"`{w}` is missing: the spec and settings write this index line"
        for w in want
        if w not in seen
    ]
    return [*problems, *direct_url_problems(text, variant, written)]


def conda_url_problems(name: str, text: str, variant: Variant) -> list[str]:
    """Conda package URLs of a lock that are not on a channel of the spec, numbered by line.

    A cheap guard that needs no solver (a build with stale locks allowed still runs it): each
    package must come from https://conda.anaconda.org/<channel>/ for a channel the variant's
    environment.yml names; `ENVGEN_CONDA_CHANNEL_ALIAS` is applied at install time only.
    """

    roots = tuple(f"{ANACONDA}/{c}/" for c in channels(variant))
    problems: list[str] = []
    in_conda_entry = False
    for number, line in numbered_body(text):
        stripped = line.strip()
        if name.endswith(".yml"):
            if stripped.startswith("manager:"):
                in_conda_entry = stripped == "manager: conda"
            if not (in_conda_entry and stripped.startswith("url:")):
                continue
            url = stripped.removeprefix("url:").strip().strip("'\"")
        else:
            if not stripped or stripped.startswith(("#", "@")):
                continue
            url = stripped.split("#", 1)[0]
        if not url.startswith(roots):
            problems.append(
                f"line {number}: {_short(url)} is not on a channel of the spec "
                f"({', '.join(r.rstrip('/') for r in roots)})"
            )
    return problems


def _entries(text: str) -> tuple[list[_Entry], list[str]]:
    """The requirements of a requirements.txt lock (and lines that are not requirements)."""

    groups: list[list[tuple[int, str]]] = []
    for n, line in numbered_body(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or line.startswith("-"):
            continue
        if line[:1].isspace() and groups:
            groups[-1].append((n, line))
        else:
            groups.append([(n, line)])
    entries: list[_Entry] = []
    problems: list[str] = []
    for group in groups:
        first_line, first = group[0]
        head = _HASH_RE.split(first)[0].replace("\\", " ").strip()
        try:
            req = Requirement(head)
        except InvalidRequirement:
            problems.append(f"line {first_line}: `{_short(first)}` is not a requirement")
            continue
        # A direct wheel URL (`torch @ https://...`, matrix rows with `wheel`) pins by itself.
        pins = [req.url] if req.url else [s.version for s in req.specifier if s.operator == "=="]
        if len(pins) != 1:
            problems.append(f"line {first_line}: `{_short(first)}` is not pinned with ==")
            continue
        name = canonicalize_name(req.name)
        marker = f";{req.marker}" if req.marker is not None else ""
        hashes = tuple(
            (n, f"{m['algo']}:{m['digest']}") for n, line in group for m in _HASH_RE.finditer(line)
        )
        entries.append(
            _Entry(
                line=first_line,
                key=name + marker,
                name=name,
                version=pins[0],
                text=head,
                hashes=hashes,
            )
        )
    return entries, problems


def requirement_problems(text: str, fresh_body: str) -> list[str]:
    """How a requirements.txt lock differs from a fresh resolution of its inputs, by line."""
    have, problems = _entries(text)
    want = {e.key: e for e in _entries(fresh_body)[0]}
    for entry in have:
        other = want.get(entry.key)
        if other is None:
            problems.append(
                f"line {entry.line}: `{_short(entry.text)}` is not part of what its inputs "
                "resolve to (an added package)"
            )
            continue
        if other.version != entry.version:
            problems.append(
                f"line {entry.line}: {entry.name}=={entry.version} but its inputs resolve to "
                f"{entry.name}=={other.version}"
            )
            continue
        served = {digest for _, digest in other.hashes}
        problems.extend(
            f"line {n}: --hash={_short(digest)} is not the hash of any file the index serves"
            f" for {entry.name}=={entry.version}"
            for n, digest in entry.hashes
            if digest not in served
        )
        if not entry.hashes:
            problems.append(f"line {entry.line}: {entry.name}=={entry.version} has no --hash")
    keys = {e.key for e in have}
    problems.extend(
        f"{e.name}=={e.version} is missing: its inputs resolve to it"
        for key, e in want.items()
        if key not in keys
    )
    return problems


def text_problems(text: str, fresh_body: str, *, limit: int = 20) -> list[str]:
    """Lines of a lock that differ from a fresh solve of its inputs (conda locks), numbered."""

    have = numbered_body(text)
    lines = [line for _, line in have]
    fresh = normalize_text(fresh_body).splitlines()
    problems: list[str] = []
    matcher = difflib.SequenceMatcher(a=lines, b=fresh, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        for k in range(i1, i2):
            number = have[k][0]
            problems.append(
                f"line {number}: `{_short(lines[k])}` is not what its inputs solve to"
                + (f" (they give `{_short(fresh[j1 + k - i1])}`)" if j1 + k - i1 < j2 else "")
            )
        if i2 - i1 < j2 - j1:
            at = have[i2 - 1][0] if i2 else 0
            problems.extend(
                f"after line {at}: `{_short(fresh[j])}` is missing: its inputs solve to it"
                for j in range(j1 + (i2 - i1), j2)
            )
    if len(problems) > limit:
        problems = [*problems[:limit], f"... and {len(problems) - limit} more differing line(s)"]
    return problems


def resolve_afresh(
    spec: ProjectSpec,
    variant: Variant,
    *,
    recorded: str | None,
    settings: Settings,
    conda_tool: str = "rattler",
    offline: bool,
    managers: tuple[Manager, ...] | None = None,
) -> dict[str, str]:
    """Lock bodies (file name -> body, without header) from the variant's recorded inputs.

    Nothing of the committed lock is used (no previous pins): the spec, the matrix, the user's
    settings and the options the lock records (`lock-options:`) decide.
    """
    resolver, cutoff = effective_options(spec, *parse_overrides(recorded))
    lockers = make_lockers(resolver, conda_tool)
    bodies: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="envgen-verify-") as tmp:
        request = LockRequest(
            variant=variant,
            urls=index_urls(spec, settings, for_writing=False),
            written_urls=index_urls(spec, settings, for_writing=True),
            conda_channels=conda_channel_map(settings.channel_alias),
            exclude_newer=dt.date.fromisoformat(cutoff) if cutoff else None,
            resolver=resolver,
            upgrade=False,
            upgrade_packages=(),
            previous={},
            workdir=Path(tmp),
            cache_dir=settings.cache_root,
            http_timeout=settings.http_timeout,
            offline=offline,
        )
        for manager in variant.managers if managers is None else managers:
            bodies.update((lf.name, lf.body) for lf in lockers[manager].lock(request))
    return bodies


def verify_lock_files(
    spec: ProjectSpec,
    variant: Variant,
    texts: dict[str, str],
    *,
    settings: Settings,
    conda_tool: str = "rattler",
) -> list[str]:
    """Problems (`<file>: line N: ...`) where committed lock files are not what their inputs give.

    `texts` maps each lock file name to its committed text. The inputs are re-resolved with uv's
    cache first (`--offline`); when that fails or differs, online, and that answer is final.
    """
    problems: list[str] = []
    pip_text = texts.get("requirements.txt")
    if pip_text is not None:
        written = index_urls(spec, settings, for_writing=True)
        problems += [
            f"requirements.txt: {p}" for p in index_line_problems(pip_text, variant, written)
        ]
    recorded = recorded_in(texts)
    managers: tuple[Manager, ...] = tuple(
        m
        for m in variant.managers
        if any(n in texts for n in (LOCK_FILES_PIP if m == "pip" else conda_lock_names(variant)))
    )

    def compare(bodies: dict[str, str]) -> list[str]:
        found: list[str] = []
        for name, text in texts.items():
            fresh = bodies.get(name)
            if fresh is None:
                found.append(f"{name}: its inputs produce no such lock file")
                continue
            body = split_header(text)[1]
            if name == "requirements.txt":
                # Index lines were judged above; the rest must be what the resolver gives.
                body, fresh = _without_options(body), _without_options(fresh)
            if normalize_text(body) == normalize_text(fresh):
                continue
            lines = requirement_problems(text, fresh) if name == "requirements.txt" else []
            # Differences the pin comparison does not name (a marker, an order) by line.
            found += [f"{name}: {p}" for p in lines or text_problems(text, fresh)]
        return found

    def afresh(*, offline: bool) -> list[str]:
        return compare(
            resolve_afresh(
                spec,
                variant,
                recorded=recorded,
                settings=settings,
                conda_tool=conda_tool,
                offline=offline,
                managers=managers,
            )
        )

    try:
        differences = afresh(offline=True)
    except EnvgenError as exc:
        log.debug("%s: offline re-resolution failed (%s); asking the index", variant.id, exc)
        differences = ["offline"]
    if differences:
        try:
            differences = afresh(offline=False)
        except EnvgenError as exc:
            msg = (
                f"{variant.id}: could not re-resolve the lock's inputs to verify it:\n{exc.message}"
            )
            # A missing resolver keeps its own exit code (12): installing it is the fix.
            error = ToolNotFoundError if isinstance(exc, ToolNotFoundError) else LockError
            raise error(msg, hint=exc.hint) from None
    return problems + differences
