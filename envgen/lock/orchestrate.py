"""Full locks for every variant: skip what is up to date, lock the rest concurrently, write safely.

For each selected variant: compute the input hash; when every existing lock file of the variant
carries it (and no upgrade was asked for), do no resolver work. Otherwise run the pip and conda
lockers in a private work directory, prepend the header, and replace the variant's files only
when all of them succeeded. A failing variant leaves its previous files untouched and is reported
after the others finish. This module must not resolve anything itself.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import contextvars
import dataclasses
import datetime as dt
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Final

from envgen import DISTRIBUTION
from envgen.errors import (
    EnvgenError,
    LockError,
    NetworkError,
    OptionError,
    StaleOutputError,
    ToolNotFoundError,
)
from envgen.infra import progress
from envgen.infra.files import (
    read_output,
    write_if_changed,
)
from envgen.infra.network import Index, check_resolvable
from envgen.infra.proc import which
from envgen.infra.settings import Settings
from envgen.infra.simple_api import PageMemo
from envgen.lock import stamps
from envgen.lock.condalock import CondaLock
from envgen.lock.fileset import commit_variant, finish_interrupted, generated_files, interrupted
from envgen.lock.index_plan import index_plan
from envgen.lock.legacy import is_legacy
from envgen.lock.locker import LockedFile, LockRequest
from envgen.lock.lockfile import (
    CONDA_LOCK,
    effective_options,
    expected_lock_names,
    lock_inputs,
    overrides_text,
    recorded_in,
    recorded_options,
    split_header,
    tampered_lines,
    unconfirmed_options,
    with_header,
)
from envgen.lock.options import LockOptions, LockResult
from envgen.lock.piplock import PipLock
from envgen.lock.pylock import PYLOCK_NAME, pylock_problems, render_pylock
from envgen.lock.rename import Carried, carry_over
from envgen.lock.stale import describe_stale, find_stale, prune
from envgen.lock.verify import (
    conda_url_problems,
    index_line_problems,
    make_lockers,
    parsed_pip_lock,
    pin_mismatches,
    verify_lock_files,
)
from envgen.model import era
from envgen.model.matrix import Matrix
from envgen.model.spec import ProjectSpec
from envgen.model.types import VariantId
from envgen.model.variants import Variant, inferred_note, select, warning_lines
from envgen.render.environment import channels as environment_channels
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls, conda_channel_map, index_urls
from envgen.render.plan import PlannedFile, describe, plan_pins_only, spec_command, stale_files

if TYPE_CHECKING:
    from envgen.infra.settings import Settings

log = logging.getLogger(__name__)

# A variant's lock mostly waits: on uv's process, and on the index for pylock.toml's pages. At
# least this many at once keeps two cores busy (issue 27: 6 variants on 2 cores, -j 2 -> -j 6,
# wall 2.43 -> 1.70 s, CPU the same); it also bounds the uv processes and requests at once.
LOCK_JOBS_FLOOR: Final = 4


def default_jobs(variants: int) -> int:
    """Variants locked at once without --jobs: the cores, at least LOCK_JOBS_FLOOR, at most the
    variants."""
    return max(1, min(variants, max(LOCK_JOBS_FLOOR, os.cpu_count() or 1)))


# The variant whose lock this thread runs (set in lock_full's workers): its log lines are held.
_HELD_FOR: contextvars.ContextVar[str | None] = contextvars.ContextVar("held_for", default=None)


class _Hold(logging.Filter):
    """Keeps back, per variant, the records a variant's worker logs (once, whichever handler
    sees them first); they are handled when every variant is done."""

    def __init__(self, ids: list[str]) -> None:
        super().__init__()
        self.held: dict[str, list[logging.LogRecord]] = {i: [] for i in ids}
        self._seen: set[int] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        who = _HELD_FOR.get()
        if who not in self.held:
            return True
        if id(record) not in self._seen:  # the same record reaches every handler
            self._seen.add(id(record))
            self.held[who].append(record)
        return False


@contextlib.contextmanager
def _held_for(variant: str) -> Iterator[None]:
    token = _HELD_FOR.set(variant)
    try:
        yield
    finally:
        _HELD_FOR.reset(token)


@contextlib.contextmanager
def _lines_in_order(ids: list[str]) -> Iterator[None]:
    """The lines variants locked at once log come out in the variants' order (`ids`), after the
    block, not in the order the threads happened to run: the same spec, the same output."""
    if len(ids) < 2:  # one variant: its lines come as it logs them, between its progress lines
        yield
        return
    hold = _Hold(ids)
    handlers: list[logging.Handler] = []
    logger: logging.Logger | None = logging.getLogger("envgen")
    while logger is not None:  # the handlers a record reaches, in the order it reaches them
        handlers += [h for h in logger.handlers if h not in handlers]
        logger = logger.parent if logger.propagate else None
    for h in handlers:
        # First: a filter after it (the CLI's print-once) must not count a held line as shown.
        h.filters.insert(0, hold)
    try:
        yield
    finally:
        for h in handlers:
            h.removeFilter(hold)
        for i in ids:
            for record in hold.held[i]:
                for h in handlers:
                    if record.levelno >= h.level:
                        h.handle(record)


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantOutcome:
    variant: Variant
    status: str  # "locked" | "up-to-date" | "failed"
    seconds: float
    files: tuple[PlannedFile, ...] = ()
    error: str | None = None
    missing_tool: bool = False  # it failed with ToolNotFoundError


def _require_resolver(resolver: str, variants: list[Variant]) -> None:
    """ToolNotFoundError before any work when pip-tools is asked for and not installed."""

    if resolver != "pip-tools" or not any(v.pip is not None for v in variants):
        return
    if which("pip-compile") is None:
        msg = (
            "pip-compile is not installed or not on PATH; it is needed to lock with "
            "--resolver pip-tools (or `lock: {resolver: pip-tools}` in the spec)"
        )
        raise ToolNotFoundError(
            msg,
            hint=(
                f"`pip install pip-tools` (or `pip install '{DISTRIBUTION}[pip-tools]'`), "
                "or use the default resolver, uv"
            ),
        )


def indexes_needed(
    variants: list[Variant], urls: IndexUrls, channel_alias: str | None
) -> list[Index]:
    """The indexes and channels the lockers will ask for these variants (real URLs)."""

    found: dict[str, Index] = {}
    aliases = conda_channel_map(channel_alias)
    for v in variants:
        if v.pip is not None:
            plan = index_plan(v, urls)
            if plan.pytorch is not None:
                found.setdefault(plan.pytorch, Index(role="pytorch", url=plan.pytorch))
            found.setdefault(plan.pypi, Index(role="pypi", url=plan.pypi))
        if v.conda is not None:
            # The conda locker's module (with tomllib, ~5 ms): only where a variant has conda.
            from envgen.lock.conda import resolve_channels  # noqa: PLC0415

            for channel in resolve_channels(environment_channels(v), aliases):
                found.setdefault(channel.solve_url, Index(role="conda", url=channel.solve_url))
    return list(found.values())


def lock_full(
    spec: ProjectSpec,
    matrix: Matrix,
    options: LockOptions,
    *,
    out: Path,
    inside: Path | None = None,
) -> LockResult:
    """`envgen lock` without --pins-only.

    `inside`: the trusted folder `out` lies in (default `out`): committed files below it are read
    and written without following links (envgen.infra.files).
    """
    root = inside if inside is not None else out
    settings = options.settings
    written_urls = index_urls(spec, settings, for_writing=True)
    real_urls = index_urls(spec, settings, for_writing=False)
    expansion, inputs = plan_pins_only(
        spec,
        matrix,
        out=out,
        urls=written_urls,
        custom_command=settings.custom_command,
        pins_only=False,
    )
    variants = select(expansion.variants, options.variants)
    all_ids = [v.id for v in expansion.variants]
    note = inferred_note(variants)
    warnings = [*expansion.notes, *([note] if note else []), *warning_lines(variants)]
    # Inputs (requirements.in, environment.yml, Makefile) are rendered for every variant, selected
    # or not: they cost nothing and keep the directory consistent with the spec.

    hashes = {v.id: lock_inputs(spec, v, options, written_urls) for v in variants}
    resolver, cutoff = effective_options(spec, options.resolver, options.as_of)
    overrides = overrides_text(options.resolver, options.as_of)

    _check_upgrade_names(options.upgrade_packages, variants, out)

    def lock_problems(v: Variant) -> list[str]:
        return _lock_problems(spec, v, options, written_urls, out=out, root=root)

    if options.check:
        return _check(
            spec,
            options,
            variants=variants,
            inputs=inputs,
            all_ids=all_ids,
            warnings=warnings,
            lock_problems=lock_problems,
            out=out,
            root=root,
        )

    # A set of files a stopped run left half renamed is finished before anything is read.
    finished = finish_interrupted(out, inside=root)
    todo, lines, carried = _triage(
        spec,
        variants,
        options,
        written_urls,
        all_ids=all_ids,
        warnings=warnings,
        lock_problems=lock_problems,
        out=out,
        root=root,
    )
    lines = [*finished, *lines]
    outcomes: list[VariantOutcome] = []
    if todo:
        # One DNS lookup per index host, before any resolver: a host that does not resolve stops
        # the run now, with the mirror hint, instead of after each variant's retries.

        _require_resolver(resolver, todo)
        check_resolvable(indexes_needed(todo, real_urls, settings.channel_alias))
        lockers = make_lockers(resolver, options.conda_tool, {m for v in todo for m in v.managers})
        jobs = options.jobs or default_jobs(len(todo))
        exclude_date = dt.date.fromisoformat(cutoff) if cutoff else None
        cache_dir = settings.cache_root
        progress.start([v.id for v in todo])
        pages = PageMemo()  # pylock.toml's index pages, read once for all the variants
        with tempfile.TemporaryDirectory(prefix="envgen-lock-") as tmp:

            def lock_one(v: Variant) -> VariantOutcome:
                start = time.perf_counter()
                workdir = Path(tmp) / v.id
                workdir.mkdir(parents=True)
                try:
                    previous = _previous_pins(v, out=out, root=root, upgrade=options.upgrade)
                except LockError as exc:
                    return VariantOutcome(
                        variant=v,
                        status="failed",
                        seconds=time.perf_counter() - start,
                        error=str(exc),
                    )
                request = LockRequest(
                    variant=v,
                    urls=real_urls,
                    written_urls=written_urls,
                    conda_channels=conda_channel_map(settings.channel_alias),
                    exclude_newer=exclude_date,
                    resolver=resolver,
                    upgrade=options.upgrade,
                    upgrade_packages=options.upgrade_packages,
                    previous=previous,
                    workdir=workdir,
                    cache_dir=cache_dir,
                    http_timeout=settings.http_timeout,
                )
                header = Header(
                    command=spec_command(
                        spec, pins_only=False, custom=settings.custom_command, extra=overrides
                    ),
                    input_hash=hashes[v.id],
                    lock_options=overrides,
                    description=describe(v, resolved=True),
                )
                try:
                    locked: list[LockedFile] = []
                    for manager in v.managers:
                        tool = resolver if manager == "pip" else options.conda_tool
                        progress.phase("resolving", f"{manager}: {tool}")
                        locked += lockers[manager].lock(request)
                    locked += _pylock(v, locked, real_urls, written_urls, settings, pages)
                except EnvgenError as exc:
                    return VariantOutcome(
                        variant=v,
                        status="failed",
                        seconds=time.perf_counter() - start,
                        error=str(exc),
                        missing_tool=isinstance(exc, ToolNotFoundError),
                    )
                files = tuple(
                    PlannedFile(relpath=_rel(v.id, lf.name), text=with_header(header, lf.body))
                    for lf in locked
                )
                return VariantOutcome(
                    variant=v, status="locked", seconds=time.perf_counter() - start, files=files
                )

            def work(v: Variant) -> VariantOutcome:
                with _held_for(v.id), progress.working_on(v.id):
                    outcome = lock_one(v)
                    progress.finish(outcome.status)
                return outcome

            at_once: list[str] = [v.id for v in todo] if jobs > 1 else []
            with _lines_in_order(at_once), cf.ThreadPoolExecutor(jobs) as pool:
                outcomes = list(pool.map(work, todo))

    locked = [o.variant for o in outcomes if o.status == "locked"]
    lines += era_lines(locked, dated=cutoff is not None or resolver != "uv")
    written = _write(
        outcomes,
        inputs,
        lines,
        variants=variants,
        all_variants=expansion.variants,
        carried={k: c.texts for k, c in carried.items() if k not in {v.id for v in todo}},
        out=out,
        root=root,
    )
    _stamp_locked(outcomes, options)
    lines += prune(out, find_stale(out, all_ids))
    _raise_for_failures(outcomes, variants)
    return LockResult(lines=tuple(lines), warnings=tuple(warnings), written=tuple(written))


def _triage(  # noqa: PLR0913 - the run's state, passed once instead of a closure over it
    spec: ProjectSpec,
    variants: Sequence[Variant],
    options: LockOptions,
    written: IndexUrls,
    *,
    all_ids: Sequence[str],
    warnings: list[str],
    lock_problems: Callable[[Variant], list[str]],
    out: Path,
    root: Path,
) -> tuple[list[Variant], list[str], dict[str, Carried]]:
    """(the variants to lock, a line for each of the others, the locks carried over).

    A variant without a lock of its own takes over a renamed variant's lock its inputs still
    answer (envgen.lock.rename). An intact, current lock may still be a resealed forgery, and its
    pins would seed a relock of its pylock.toml: the checks that need no resolver (index lines,
    direct URLs, channels) run first, then what only a resolution shows (a downgraded pin, a
    swapped well-formed hash): each is re-resolved as `check` does, from uv's warm cache, unless
    this machine wrote or verified these very bytes before (a stamp in the user's cache).
    Issue 21 item 6; both raise StaleOutputError before anything is written.
    """
    force = options.upgrade or bool(options.upgrade_packages)
    carried = (
        {}
        if force
        else carry_over(
            spec, variants, find_stale(out, all_ids), options, written, out=out, root=root
        )
    )
    intact = [v for v in variants if not force and (v.id in carried or not lock_problems(v))]
    todo = [
        v
        for v in variants
        if v not in intact or (v.id not in carried and _pylock_stale(v, out, root))
    ]

    def texts_of(v: Variant) -> dict[str, str]:
        if v.id in carried:
            return {n: carried[v.id].texts[n] for n in expected_lock_names(v)}
        return {
            n: (read_output(out / v.id / n, inside=root) or b"").decode("utf-8", "replace")
            for n in expected_lock_names(v)
        }

    for v in intact:
        if v.id in carried:  # this machine wrote or verified the old bytes: so the new ones
            c = carried[v.id]
            old = dataclasses.replace(v, id=VariantId(c.source))
            if _stamped(old, {n: c.old_texts[n] for n in expected_lock_names(v)}, options):
                _stamp(v, texts_of(v), options)
    _refuse_forged(spec, intact, texts_of, settings=options.settings, out=out)
    checked, unverified = _refuse_unresolved(
        spec, intact, options, texts_of, warnings=warnings, out=out
    )
    lines: list[str] = []
    for v in intact:
        if v in todo:
            continue
        how = (
            "its inputs still resolve to it"
            if v.id in checked
            else "by its input hash; not re-resolved"
            if v.id in unverified
            else "no resolver work"
        )
        if v.id in carried:
            source = carried[v.id].source
            line = f"{v.id}: lock carried over from {source}/ (the same inputs; {how})"
            if (out / source / ".env").is_dir():
                line += (
                    f"; {out / source / '.env'}, built under the old name, is not reused: "
                    f"`envgen build --variant {v.id}` builds this variant's own"
                )
            lines.append(line)
        else:
            lines.append(f"{v.id}: up to date ({how})")
    return todo, lines, carried


def era_lines(variants: Sequence[Variant], *, dated: bool) -> list[str]:
    """What `envgen lock` says of each variant's era (envgen.model.era): the date its pip side
    resolved as of and why (unless `dated`: a date of the spec's or --as-of, or pip-tools, which
    cannot apply one), and the constraints it applied."""
    found = []
    for v in variants:
        if v.pip is None:
            continue
        decision = era.variant_era(v)
        # Python 2.7 / 3.5 lock with pip 20.3.4, which applies no date (envgen.lock.legacy).
        if not dated and decision.date is not None and not is_legacy(v.python):
            found.append(
                f"{v.id}: pip dependencies resolved as of {decision.date}: {decision.reason}"
            )
        rows = era.variant_constraints(v)
        if rows:
            said = ", ".join(f"{r.constraint} ({r.id})" for r in rows)
            found.append(f"{v.id}: known incompatibilities applied as constraints: {said}")
    return found


def _lock_problems(
    spec: ProjectSpec,
    v: Variant,
    options: LockOptions,
    written_urls: IndexUrls,
    *,
    out: Path,
    root: Path,
) -> list[str]:
    """Why the variant's committed locks are not current (empty when they are)."""
    problems: list[str] = []
    for name in expected_lock_names(v):
        rel = f"{v.id}/{name}"
        try:
            raw = read_output(out / v.id / name, inside=root)
            if raw is None:
                raise FileNotFoundError(out / v.id / name)
            text = raw.decode("utf-8")
        except (FileNotFoundError, UnicodeDecodeError):
            problems.append(f"{rel}: missing or unreadable; run `envgen lock`")
            continue
        if name == "requirements.txt":
            lock, bad = parsed_pip_lock(text)
            if lock is None:  # a line no envgen lock has: nothing else of it is read
                problems += [f"{rel}: {p}" for p in bad]
                continue
        # The hash a committed file should carry (honouring the overrides it was made with).
        try:
            recorded = recorded_options(out / v.id / name)
        except LockError as exc:
            problems.append(f"{rel}: {exc.message.partition(': ')[2]}")
            continue
        expected = lock_inputs(spec, v, options, written_urls, recorded=recorded)
        recorded_hash = split_header(text)[0].get("input-hash")
        if recorded_hash != expected:
            problems.append(
                f"{rel}: stale: its inputs changed (the file records input-hash "
                f"{_short(recorded_hash)}, the spec and matrix now give {_short(expected)}); "
                "run `envgen lock`"
            )
        if name == "requirements.txt":
            problems += [f"{rel}: {p}" for p in PipLock.parse(text).tampered()]
            problems += [f"{rel}: {p}" for p in pin_mismatches(text, v, written_urls)]
        else:
            problems += [f"{rel}: {p}" for p in tampered_lines(text)]
    return problems


def _short(digest: str | None) -> str:
    """`sha256:6e3d21575202…` for a message; `none` when a file records no hash."""
    return f"{digest[:19]}…" if digest else "none"


def _unparsable(path: Path, root: Path) -> bool:
    """Whether a committed requirements.txt holds a line PipLock refuses."""
    raw = read_output(path, inside=root)
    return raw is not None and parsed_pip_lock(raw.decode("utf-8", "replace"))[0] is None


def _previous_pins(v: Variant, *, out: Path, root: Path, upgrade: bool) -> dict[str, str]:
    """The previous lock bodies a locker starts from; pip's rebuilt from its parsed pins only.

    A committed requirements.txt is parsed strictly (envgen.lock.piplock): a line that is not an
    index line or a pin (`-r /proc/self/environ`, `-c`, `-e`, ...) is a LockError naming it, and
    only the pins (name, version, marker, hashes) are passed on, never a line of the file.
    """
    previous: dict[str, str] = {}
    if upgrade:
        return previous
    for name in expected_lock_names(v):
        raw = read_output(out / v.id / name, inside=root)
        if raw is None:
            continue
        text = raw.decode("utf-8", "replace")
        if name == "requirements.txt":
            lock = PipLock.parse(text, source=str(_rel(v.id, name)))
            previous[name] = lock.seed_text()
        elif name == CONDA_LOCK:
            previous[name] = CondaLock.parse(text, source=str(_rel(v.id, name))).render()
    return previous


def _refuse_forged(
    spec: ProjectSpec,
    variants: Sequence[Variant],
    texts_of: Callable[[Variant], dict[str, str]],
    *,
    settings: Settings,
    out: Path,
) -> None:
    """StaleOutputError (as `check` words it) when a current lock names what envgen never writes.

    Only what needs no resolver: index lines and direct URLs of requirements.txt, and conda
    package URLs off the spec's channels (`_refuse_unresolved` then re-resolves the lock).
    """
    written = index_urls(spec, settings, for_writing=True)
    problems: list[str] = []
    for v in variants:
        for name, text in texts_of(v).items():
            if name == "requirements.txt":
                found = index_line_problems(text, v, written)
            else:
                found = conda_url_problems(name, text, v)
            problems += [f"{v.id}/{name}: {p}" for p in found]
    if problems:
        raise StaleOutputError(
            f"{len(problems)} problem(s) in {out}:\n" + "\n".join(f"  - {p}" for p in problems),
            hint="a lock names what envgen does not write: review who changed it; "
            "`envgen lock --upgrade` re-resolves it from the spec",
        )


def _refuse_unresolved(
    spec: ProjectSpec,
    variants: Sequence[Variant],
    options: LockOptions,
    texts_of: Callable[[Variant], dict[str, str]],
    *,
    warnings: list[str],
    out: Path,
) -> tuple[set[str], set[str]]:
    """StaleOutputError (as `check` words it) when a current lock is not what its inputs resolve
    to (issue 21 item 6): a downgraded or added pin, a hash no file of the pin has. Returns the
    variants re-resolved (and found right) and those that could not be.

    Each lock is re-resolved as `check` does (envgen.lock.verify: uv's cache first, then the
    index), unless its stamp says this machine wrote or verified these bytes with these settings.
    A resolution that cannot run (no index, no resolver) is a warning, not a failure: a plain
    lock of a current project still works offline, and `check` and `build` verify it.
    """
    problems: list[str] = []
    checked: set[str] = set()
    unverified: set[str] = set()
    for v in variants:
        texts = texts_of(v)
        if _stamped(v, texts, options):
            continue
        try:
            found = verify_lock_files(
                spec,
                v,
                texts,
                settings=options.settings,
                conda_tool=options.conda_tool,
                online=_resolvable(spec, v, options.settings),
            )
        except EnvgenError as exc:
            warnings.append(
                f"{v.id}: up to date by its input hash, but not checked against a re-resolution "
                f"({_reason(exc.message)}); `envgen check` verifies it"
            )
            unverified.add(v.id)
            continue
        if found:
            problems += [f"{v.id}/{p}" for p in found]
        else:
            checked.add(v.id)
            _stamp(v, texts, options)
    if problems:
        raise StaleOutputError(
            f"{len(problems)} problem(s) in {out}:\n" + "\n".join(f"  - {p}" for p in problems),
            hint="a lock differs from what its inputs resolve to: review who changed it; "
            "`envgen lock --upgrade` re-resolves it from the spec",
        )
    return checked, unverified


def _resolvable(spec: ProjectSpec, v: Variant, settings: Settings) -> bool:
    """Whether the variant's index hosts resolve (one bounded DNS lookup each): where they do
    not, a re-resolution asks uv's cache only, instead of uv's retries (~7 s per run)."""
    real = index_urls(spec, settings, for_writing=False)
    try:
        check_resolvable(indexes_needed([v], real, settings.channel_alias))
    except NetworkError:
        return False
    return True


def _reason(message: str, limit: int = 300) -> str:
    """One line of why a re-resolution failed: what failed and uv's innermost cause.

    >>> _reason("v: could not re-resolve:\\nv: uv could not lock\\n  cause: refused")
    'v: uv could not lock: refused'
    """
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    what = lines[1] if len(lines) > 1 else (lines[0] if lines else "no reason given")
    causes = [line.removeprefix("cause:").strip() for line in lines if line.startswith("cause:")]
    text = f"{what}: {causes[-1]}" if causes else what
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _stamp_locked(outcomes: list[VariantOutcome], options: LockOptions) -> None:
    """Stamp the locks this run made: the next plain lock need not re-resolve them."""
    for o in outcomes:
        if o.status == "locked":
            made = {f.relpath.parts[1]: f.text for f in o.files}
            _stamp(o.variant, {n: made.get(n, "") for n in expected_lock_names(o.variant)}, options)


def _stamped(v: Variant, texts: dict[str, str], options: LockOptions) -> bool:
    return stamps.stamped(v, texts, options.settings, options.conda_tool)


def _stamp(v: Variant, texts: dict[str, str], options: LockOptions) -> None:
    stamps.stamp(v, texts, options.settings, options.conda_tool)


def _pylock(
    v: Variant,
    locked: list[LockedFile],
    urls: IndexUrls,
    written: IndexUrls,
    settings: Settings,
    memo: PageMemo | None = None,
) -> list[LockedFile]:
    """pylock.toml (PEP 751) from the requirements lock just made (envgen.lock.pylock)."""
    req = next((lf for lf in locked if lf.name == "requirements.txt"), None)
    if req is None:
        return []
    progress.phase("writing pylock.toml")
    try:
        body = render_pylock(
            v,
            req.body,
            urls,
            written,
            timeout=settings.http_timeout or 60.0,
            netrc_file=settings.netrc_file,
            memo=memo,
        )
    except LockError as exc:
        # An index that lists files without their hashes (torch_stable.html, a hand-made mirror)
        # cannot name the files a pylock.toml must: the requirements lock stands without it.
        log.warning("%s; pylock.toml not written (requirements.txt is the lock)", exc.message)
        return []
    return [LockedFile(name=PYLOCK_NAME, body=body)]


def _pylock_stale(v: Variant, out: Path, root: Path) -> bool:
    """Whether a variant's pylock.toml is missing or not its requirements.txt's (relock it)."""
    if v.pip is None:
        return False
    raw = read_output(out / v.id / "requirements.txt", inside=root)
    text = raw.decode("utf-8", "replace") if raw is not None else ""
    return bool(text) and bool(_pylock_problems(out / v.id, text, v.id, root))


def _pylock_problems(folder: Path, requirements: str, variant_id: str, root: Path) -> list[str]:
    """Why a variant's committed pylock.toml is not its requirements.txt's (empty when it is)."""
    rel = f"{variant_id}/{PYLOCK_NAME}"
    raw = read_output(folder / PYLOCK_NAME, inside=root)
    if raw is None:
        return []  # optional: not written where an index gives no file hashes (see _pylock)
    text = raw.decode("utf-8", "replace")
    found = tampered_lines(text)
    if split_header(text)[0].get("input-hash") != split_header(requirements)[0].get("input-hash"):
        found.append("stale: its input-hash is not requirements.txt's")
    found += pylock_problems(split_header(text)[1], split_header(requirements)[1])
    return [f"{rel}: {p}" for p in found]


def _check_upgrade_names(names: Sequence[str], variants: Sequence[Variant], out: Path) -> None:
    """OptionError for an --upgrade-package that no lock of the chosen variants pins.

    What a lock pins is what can be re-resolved; a misspelt name would otherwise be accepted and
    do nothing. With no lock on disk yet there is nothing to compare (the first lock resolves all).
    """
    if not names:
        return
    from packaging.utils import canonicalize_name  # noqa: PLC0415 - only with --upgrade-package

    pinned: set[str] = set()
    for v in variants:
        for name in expected_lock_names(v):
            path = out / v.id / name
            if not path.is_file():
                continue
            try:
                if name == CONDA_LOCK:
                    pinned |= {canonicalize_name(p.name) for p in CondaLock.read(path).packages}
                elif name == "requirements.txt":
                    pinned |= {canonicalize_name(p.name) for p in PipLock.read(path).pins}
            except EnvgenError:
                continue  # a broken lock is reported by the lock itself
    if not pinned:
        return
    unknown = [n for n in names if canonicalize_name(n) not in pinned]
    if unknown:
        import difflib  # noqa: PLC0415 - ~1 ms; only for a misspelt name

        near = [
            difflib.get_close_matches(canonicalize_name(n), sorted(pinned), n=1) for n in unknown
        ]
        hints = [f" (did you mean {m[0]!r}?)" if m else "" for m in near]
        listed = "; ".join(f"{n!r}{h}" for n, h in zip(unknown, hints, strict=True))
        msg = f"--upgrade-package: no lock of the chosen variants pins {listed}"
        raise OptionError(msg, hint="name a package the lock pins (see requirements.txt)")


def _check(  # noqa: PLR0913 - the run's state, passed once instead of a closure over it
    spec: ProjectSpec,
    options: LockOptions,
    *,
    variants: Sequence[Variant],
    inputs: list[PlannedFile],
    all_ids: Sequence[str],
    warnings: list[str],
    lock_problems: Callable[[Variant], list[str]],
    out: Path,
    root: Path,
) -> LockResult:
    """`envgen lock --check`: StaleOutputError naming each stale, tampered or forged file.

    `--variant` scopes the check as it scopes a lock: the chosen variants' files and the
    project-wide ones (the Makefile); other variants and leftover folders are not looked at.
    """
    if options.variants:
        chosen = {v.id for v in variants}
        inputs = [f for f in inputs if len(f.relpath.parts) == 1 or f.relpath.parts[0] in chosen]
    problems = interrupted(out, [v.id for v in variants], inside=root)
    problems += [f"{p}: stale\n{d}" for p, d in stale_files(out, inputs, inside=root)]
    forged = False
    for v in variants:
        found = lock_problems(v)
        if not found:  # current and intact: is it what its inputs resolve to?
            texts = {
                n: (read_output(out / v.id / n, inside=root) or b"").decode(
                    "utf-8", errors="replace"
                )
                for n in expected_lock_names(v)
            }
            found = [
                f"{v.id}/{p}"
                for p in verify_lock_files(
                    spec, v, texts, settings=options.settings, conda_tool=options.conda_tool
                )
            ]
            forged = forged or bool(found)
            if not found and "requirements.txt" in texts:
                # Only against a requirements.txt that is what its inputs resolve to.
                found = _pylock_problems(out / v.id, texts["requirements.txt"], v.id, root)
            recorded = recorded_in(texts)
            notice = unconfirmed_options(spec, options.resolver, options.as_of, recorded)
            if notice and not found:
                warnings.append(f"{v.id}: {notice}")
        # A line no envgen lock has: `envgen lock` refuses it too, so the hint is --upgrade's.
        forged = forged or (bool(found) and _unparsable(out / v.id / "requirements.txt", root))
        problems += found
    if not options.variants:
        problems += [describe_stale(s) for s in find_stale(out, all_ids)]
    if problems:
        raise StaleOutputError(
            f"{len(problems)} problem(s) in {out}:\n" + "\n".join(f"  - {p}" for p in problems),
            hint=(
                "a lock differs from what its inputs resolve to: review who changed it; "
                "`envgen lock --upgrade` re-resolves it from the spec"
                if forged
                else "run `envgen lock` and commit the result"
            ),
        )
    return LockResult(
        lines=(f"locks in {out} are up to date ({len(variants)} variant(s))",),
        warnings=tuple(warnings),
    )


def _write(
    outcomes: list[VariantOutcome],
    inputs: list[PlannedFile],
    lines: list[str],
    *,
    variants: Sequence[Variant],
    all_variants: Sequence[Variant],
    carried: dict[str, dict[str, str]],
    out: Path,
    root: Path,
) -> list[str]:
    """Write the project's files and each variant's as one set; the paths written.

    A locked variant's inputs and locks replace its folder's files together (envgen's others
    there, a pylock.toml the new lock lacks, are removed in the same set); an up-to-date one
    gets its inputs (and a lock carried over from its old name). A failed variant keeps every
    previous file, inputs included, and so does an unselected one that holds a lock (pins-only
    or full): a new input beside an old lock would be neither state. An unselected variant
    without one gets its inputs (nothing to mix with).
    Appends a line per locked variant to `lines`.
    """
    outcome = {o.variant.id: o for o in outcomes}
    selected = {v.id for v in variants}
    sets: dict[str, dict[str, str]] = {v.id: {} for v in all_variants}
    written: list[str] = []
    project: list[PlannedFile] = []
    for f in inputs:
        if len(f.relpath.parts) == 1:  # the Makefile: the project's, not a variant's
            project.append(f)
        else:
            sets.setdefault(f.relpath.parts[0], {})[f.relpath.parts[1]] = f.text
    commits: list[tuple[Variant, dict[str, str], tuple[str, ...]]] = []
    for v in all_variants:
        done = outcome.get(v.id)
        texts = sets[v.id]
        keep: tuple[str, ...] = ()
        if done is not None and done.status == "failed":
            continue
        if done is not None and done.status == "locked":
            texts = {**texts, **{f.relpath.parts[1]: f.text for f in done.files}}
        else:
            present = generated_files(out / v.id, inside=root)
            if v.id not in selected and any(n in present for n in expected_lock_names(v)):
                continue
            keep = tuple(present)
            texts = {**texts, **carried.get(v.id, {})}  # a renamed variant's lock, taken over
        commits.append((v, texts, keep))

    def commit(job: tuple[Variant, dict[str, str], tuple[str, ...]]) -> list[str]:
        v, texts, keep = job
        return commit_variant(out, v.id, texts, inside=root, keep=keep)

    # Each variant's set is its own folder and its own journal, so the sets are committed at
    # once: a set fsyncs each file and its folder (~8 fsyncs), and the file system joins
    # concurrent fsyncs into one journal commit (24 fsyncs: ~120 ms in turn, ~20-50 ms at once
    # on this machine's ext4). Results, lines and the first error come in variant order.
    with cf.ThreadPoolExecutor(max_workers=max(1, min(len(commits), 8))) as pool:
        results = list(pool.map(commit, commits))
    for (v, texts, _), changed in zip(commits, results, strict=True):
        done = outcome.get(v.id)
        written += [str(_rel(v.id, n)) for n in changed if n in texts]
        gone = [n for n in changed if n not in texts]
        if gone:
            lines.append(f"{v.id}: removed {', '.join(gone)} (not part of its new lock)")
        if done is not None and done.status == "locked":
            lines.append(f"{v.id}: locked in {done.seconds:.1f} s")
    written += [
        str(f.relpath)
        for f in project
        if write_if_changed(out.joinpath(*f.relpath.parts), f.text, inside=root)
    ]
    return written


def _raise_for_failures(outcomes: list[VariantOutcome], variants: Sequence[Variant]) -> None:
    """LockError naming each failed variant (ToolNotFoundError when each lacked a tool)."""
    errors = [o for o in outcomes if o.status == "failed"]
    if not errors:
        return
    failed = {o.variant.id for o in errors}
    text = "\n".join(f"[{o.variant.id}] {o.error}" for o in errors)
    ok = [v.id for v in variants if v.id not in failed]
    msg = (
        f"{len(errors)} of {len(variants)} variant(s) failed to lock; "
        "their previous files are untouched"
        + (f" (locked: {', '.join(ok)})" if ok else "")
        + "\n"
        + text
    )
    # Each failed for want of a tool: its exit code (12), not a resolver failure's.
    raise (ToolNotFoundError if all(o.missing_tool for o in errors) else LockError)(msg)


def _rel(variant_id: str, name: str) -> PurePosixPath:
    return PurePosixPath(variant_id, name)
