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
import os
import re
from collections.abc import Iterable
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import EnvgenError, LockError, ToolNotFoundError
from envgen.infra.files import normalize_text, read_output
from envgen.infra.proc import redact
from envgen.infra.settings import Settings
from envgen.lock.condalock import CondaLock
from envgen.lock.locker import Locker, LockRequest
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
from envgen.lock.piplock import LockSyntaxError, PipLock
from envgen.model.spec import ProjectSpec
from envgen.model.types import ANACONDA, Manager
from envgen.model.variants import Variant, pip_pins
from envgen.render.environment import channels
from envgen.render.indexes import IndexUrls, conda_channel_map, index_urls
from envgen.render.requirements import written_index_lines

log = logging.getLogger(__name__)


def make_lockers(
    resolver: str, conda_tool: str, managers: Iterable[Manager] = ("pip", "conda")
) -> dict[Manager, Locker]:
    """The locker of each of `managers`, for a lock run and for a re-resolution."""
    # The lockers (uv's driver, rattler's, the pip 20 route: ~40 modules) only when one runs:
    # `lock --pins-only` checks a full lock's pins through this module and resolves nothing;
    # a pip-only lock does not load the conda locker (with tomllib).
    lockers: dict[Manager, Locker] = {}
    wanted = set(managers)
    if "pip" in wanted:
        from envgen.lock.pip import PipLocker  # noqa: PLC0415 - only to resolve

        lockers["pip"] = PipLocker(resolver=resolver)
    if "conda" in wanted:
        from envgen.lock.conda import CondaLocker  # noqa: PLC0415 - only to resolve

        lockers["conda"] = CondaLocker(tool=conda_tool)
    return lockers


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
        if name == "requirements.txt":
            lock, bad = parsed_pip_lock(text)
            found = (
                bad if lock is None else [*lock.tampered(), *pin_mismatches(text, variant, written)]
            )
            problems += [f"{rel}: {p}" for p in found]
        else:
            problems += [f"{rel}: {p}" for p in tampered_lines(text)]
    return problems, locked


def parsed_pip_lock(
    text: str, *, source: str = "requirements.txt"
) -> tuple[PipLock | None, list[str]]:
    """(the lock, []) or (None, [`line N: ...`]) when a line is not in envgen's format."""
    try:
        return PipLock.parse(text, source=source), []
    except LockSyntaxError as exc:
        return None, [f"line {exc.line}: {exc.problem}"]


def pin_mismatches(text: str, variant: Variant, written: IndexUrls) -> list[str]:
    """Lines of a lock that cannot be what envgen wrote, each named by its line number.

    A line PipLock cannot parse; torch-family pins that differ from the matrix, direct URLs other
    than the row's own torch wheel (as `written` writes it), pins that break a requirement of the
    spec's pip: list, and sha256 hashes that are not 64 hex digits. (A well-formed hash swapped
    for another is caught by the content-hash, which covers the whole body, not by line.)
    """
    lock, problems = parsed_pip_lock(text)
    if lock is None:
        return problems
    want = pip_pins(variant)
    asked: dict[str, Requirement] = {}
    for item in variant.pip_extra:
        try:
            req = Requirement(item)
        except InvalidRequirement:
            continue
        asked[canonicalize_name(req.name)] = req
    for pin in lock.pins:
        for number, digest in zip(pin.hash_lines, pin.hashes, strict=True):
            algo, _, value = digest.partition(":")
            if algo == "sha256" and not re.fullmatch(r"[0-9a-f]{64}", value):
                problems.append(f"line {number}: {value!r} is not a sha256 (64 hex digits)")
        if pin.version is None:
            continue
        name, version, number = pin.name, pin.version, pin.line
        if name in want and want[name] != version:
            problems.append(
                f"line {number}: {name}=={version} but the matrix pins {name}=={want[name]}"
            )
        wanted = asked.get(name)
        if wanted is not None and wanted.specifier:
            try:
                ok = wanted.specifier.contains(Version(version), prereleases=True)
            except InvalidVersion:
                ok = False
            if not ok:
                problems.append(
                    f"line {number}: {name}=={version} does not satisfy {wanted} from the spec"
                )
    return [*problems, *direct_url_problems(text, variant, written)]


def direct_url_problems(text: str, variant: Variant, written: IndexUrls) -> list[str]:
    """`name @ URL` requirements of a requirements.txt lock that envgen would not write.

    The one direct URL envgen writes is a matrix row's own torch wheel (torch 1.0-1.1 on Linux,
    `PipBuild.wheel`), for the variant's python, as the spec and settings write its index: any
    other name or URL is refused (a build installs what the lock names, and uv checks only the
    hash the same line carries), and that row's lock must name it.
    """
    lock, problems = parsed_pip_lock(text)
    if lock is None:
        return problems
    build = variant.pip
    direct = build.direct_urls(variant.python) if build is not None else {}
    want = {name: written.pytorch(url) for name, url in direct.items()}
    writes = ", ".join(f"`{n} @ {u}`" for n, u in want.items()) or "none for this variant"
    seen: set[str] = set()
    for pin in lock.pins:
        if pin.url is None:
            continue
        if want.get(pin.name) == pin.url:
            seen.add(pin.name)
            continue
        problems.append(
            f"line {pin.line}: `{_short(pin.text)}` is a direct URL envgen does not write "
            f"(it writes {writes})"
        )
    problems += [
        f"`{n} @ {u}` is missing: the matrix row names this wheel"
        for n, u in want.items()
        if n not in seen
    ]
    return problems


def _short(line: str, limit: int = 160) -> str:
    """A line for a message: credentials masked, length bounded."""

    text = redact(line.strip().rstrip("\\").strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def index_line_problems(text: str, variant: Variant, written: IndexUrls) -> list[str]:
    """Option lines of a requirements.txt lock that the spec and settings would not write.

    The indexes a build uses come from the spec and settings, never from the lock; a lock that
    names others was edited (or was made with other settings) and is refused. Any other option
    line (`-r`, `-c`, `-e`, ...) fails PipLock's parse and is named here.
    """
    lock, problems = parsed_pip_lock(text)
    if lock is None:
        return problems
    want = written_index_lines(variant, written)
    have = list(zip(lock.index_at, lock.index_lines, strict=True))
    problems = [
        f"line {n}: `{_short(line)}` is not an index line the spec and settings write"
        f" (they write: {', '.join(f'`{w}`' for w in want) or 'none'})"
        for n, line in have
        if line not in want
    ]
    seen = {line for _, line in have}
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
    if name.endswith(".yml"):
        try:  # the one parser of the format: the line scan below then reads envgen's layout
            CondaLock.parse(text, source=name)
        except LockError as exc:
            return [exc.message.removeprefix(f"{name}: ")]
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


def requirement_problems(text: str, fresh_body: str) -> list[str]:
    """How a requirements.txt lock differs from a fresh resolution of its inputs, by line."""
    lock, problems = parsed_pip_lock(text)
    if lock is None:
        return problems
    fresh = PipLock.parse(fresh_body, source="(the fresh resolution)")
    want = {p.key: p for p in fresh.pins}
    for pin in lock.pins:
        if not pin.pinned:
            problems.append(f"line {pin.line}: `{_short(pin.text)}` is not pinned with ==")
            continue
        other = want.get(pin.key)
        version = pin.version or pin.url
        if other is None:
            problems.append(
                f"line {pin.line}: `{_short(pin.text)}` is not part of what its inputs "
                "resolve to (an added package)"
            )
            continue
        if (other.version or other.url) != version:
            problems.append(
                f"line {pin.line}: {pin.name}=={version} but its inputs resolve to "
                f"{pin.name}=={other.version or other.url}"
            )
            continue
        served = set(other.hashes)
        problems.extend(
            f"line {n}: --hash={_short(digest)} is not the hash of any file the index serves"
            f" for {pin.name}=={version}"
            for n, digest in zip(pin.hash_lines, pin.hashes, strict=True)
            if digest not in served
        )
        if not pin.hashes:
            problems.append(f"line {pin.line}: {pin.name}=={version} has no --hash")
    keys = {p.key for p in lock.pins}
    problems.extend(
        f"{p.name}=={p.version or p.url} is missing: its inputs resolve to it"
        for key, p in want.items()
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
    chosen = variant.managers if managers is None else managers
    lockers = make_lockers(resolver, conda_tool, chosen)
    bodies: dict[str, str] = {}
    import tempfile  # noqa: PLC0415 - with shutil, random, bz2, lzma (~5 ms): only to re-resolve

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
        for manager in chosen:
            bodies.update((lf.name, lf.body) for lf in lockers[manager].lock(request))
    return bodies


def _uv_cache_empty(
    spec: ProjectSpec,
    variant: Variant,
    recorded: str | None,
    managers: tuple[Manager, ...],
    settings: Settings,
) -> bool:
    """Whether a re-resolution is uv's alone (pip only, resolver uv, a python uv locks) and
    uv's cache under the cache root holds nothing yet."""
    from envgen.lock.legacy import is_legacy  # noqa: PLC0415 - with tempfile, shutil: only to re-resolve

    if managers != ("pip",) or is_legacy(variant.python):
        return False
    if effective_options(spec, *parse_overrides(recorded))[0] != "uv":
        return False
    try:
        with os.scandir(settings.cache_root / "uv") as entries:
            return next(entries, None) is None
    except OSError:  # missing (or unreadable: uv would say so itself)
        return True


def verify_lock_files(
    spec: ProjectSpec,
    variant: Variant,
    texts: dict[str, str],
    *,
    settings: Settings,
    conda_tool: str = "rattler",
    online: bool = True,
) -> list[str]:
    """Problems (`<file>: line N: ...`) where committed lock files are not what their inputs give.

    `texts` maps each lock file name to its committed text. The inputs are re-resolved with uv's
    cache first (`--offline`); when that fails or differs, online (unless `online` is False: then
    the cache's answer is final and its failure a LockError), and that answer is final.
    """
    problems: list[str] = []
    pip_text = texts.get("requirements.txt")
    if pip_text is not None:
        written = index_urls(spec, settings, for_writing=True)
        problems += [
            f"requirements.txt: {p}" for p in index_line_problems(pip_text, variant, written)
        ]
        if parsed_pip_lock(pip_text)[0] is None:
            return problems  # a line no resolver output has: nothing to compare
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
            if name == "requirements.txt":
                # Index lines were judged above; the pins must be what the resolver gives.
                body = "".join(p.render() for p in PipLock.parse(text).pins)
                fresh = "".join(p.render() for p in PipLock.parse(fresh).pins)
            else:
                body = split_header(text)[1]
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

    if online and _uv_cache_empty(spec, variant, recorded, managers, settings):
        # A new cache (a build into a fresh --cache-dir) cannot answer offline: straight to the
        # index, without a uv run that can only fail (0.07 s on the benchmark's cold build).
        log.debug("%s: uv's cache is empty; re-resolving against the index", variant.id)
        differences = ["offline"]
    else:
        try:
            differences = afresh(offline=True)
        except EnvgenError as exc:
            if not online:
                raise
            log.debug("%s: offline re-resolution failed (%s); asking the index", variant.id, exc)
            differences = ["offline"]
    if differences and online:
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
