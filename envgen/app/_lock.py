"""`envgen lock` / `check`: pins-only files, or full locks per variant (envgen.lock).

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

from envgen.app._guard import guarded, trusted_root
from envgen.app._project import load
from envgen.errors import (
    LockError,
    SpecError,
    StaleOutputError,
)
from envgen.lock.fileset import commit_planned, finish_interrupted, interrupted
from envgen.lock.lockfile import full_lock_ids
from envgen.lock.options import LockOptions, LockResult
from envgen.lock.stale import describe_stale, find_stale, prune
from envgen.model.matrix import Matrix
from envgen.model.spec import ProjectSpec
from envgen.model.variants import (
    INFERRED_NOTE_PREFIX,
    Variant,
    expand,
    inferred_note,
    select,
    warning_lines,
)
from envgen.render.indexes import IndexUrls, index_urls
from envgen.render.plan import check_planned, default_out, plan_pins_only

if TYPE_CHECKING:
    # The later stages are imported lazily below (rich, the lockers); by name here.
    from envgen.lock.rename import Carried


def lock(options: LockOptions) -> LockResult:
    """`envgen lock`: pins-only files, or full locks per variant (see envgen.lock.locker)."""
    spec, matrix = load(options.spec, options.matrix_dir, options.settings)
    if options.as_of is not None:
        try:
            dt.date.fromisoformat(options.as_of)
        except ValueError:
            msg = f"--as-of {options.as_of!r} is not a date; write YYYY-MM-DD, e.g. 2021-06-30"
            raise SpecError(msg) from None
    out = options.out or default_out(spec)
    urls = index_urls(spec, options.settings, for_writing=True)
    if options.check:  # reads only: no project lock
        return _quiet_when_unchanged(_lock_unguarded(spec, matrix, options, out, urls))
    with guarded(out, LockError, "envgen lock", inside=trusted_root(spec, options.out)):
        result = _lock_unguarded(spec, matrix, options, out, urls)
    notes = unowned_environments(out, [v.id for v in expand(spec, matrix).variants])
    return _quiet_when_unchanged(dataclasses.replace(result, warnings=(*result.warnings, *notes)))


def _quiet_when_unchanged(result: LockResult) -> LockResult:
    """The inferred-rows note with the files it concerns: shown when a lock writes, not on a
    check or a run that changed nothing (it would repeat on every command of a session)."""
    if result.written:
        return result
    kept = tuple(w for w in result.warnings if not w.startswith(INFERRED_NOTE_PREFIX))
    return dataclasses.replace(result, warnings=kept)


def unowned_environments(out: Path, owned: list[str]) -> list[str]:
    """A line per `<out>/<id>/.env` folder whose id is no variant of the spec (after a rename).

    A cheap look (no build stage imported, no marker read): `envgen clean` decides what is
    envgen's and removes it.
    """
    try:
        folders = sorted(p for p in out.iterdir() if p.name not in owned)
    except OSError:
        return []
    return [
        f"{f / '.env'}: no variant of the spec is called {f.name!r} now (the variants: "
        f"{', '.join(owned)}); the environment stays until `envgen clean` removes it"
        for f in folders
        if (f / ".env").is_dir() and not (f / ".env").is_symlink()
    ]


def _lock_unguarded(
    spec: ProjectSpec, matrix: Matrix, options: LockOptions, out: Path, urls: IndexUrls
) -> LockResult:
    inside = trusted_root(spec, options.out)

    if options.pins_only:
        return _lock_pins_only(spec, matrix, options, out, urls, inside=inside)
    from envgen.lock import orchestrate as locking  # noqa: PLC0415 - ~70 ms (ssl, asyncio: the lockers); keeps `envgen list` fast

    return locking.lock_full(spec, matrix, options, out=out, inside=inside)


def _lock_pins_only(
    spec: ProjectSpec,
    matrix: Matrix,
    options: LockOptions,
    out: Path,
    urls: IndexUrls,
    *,
    inside: Path,
) -> LockResult:
    """`lock --pins-only`: matrix pins, no resolver. A full lock on disk is never downgraded.

    Variants with a full lock keep it: their inputs (requirements.in, environment.yml) are
    written in the full form, and the lock's pins are checked against the matrix instead.
    """
    expanded = expand(spec, matrix).variants
    # A set of files a stopped run left half renamed is finished before anything is read.
    finished = [] if options.check else finish_interrupted(out, inside=inside)
    full = full_lock_ids(out, expanded)
    carried = {} if options.check else _carried_locks(spec, expanded, options, out, urls, inside)
    full |= frozenset(carried)
    expansion, files = plan_pins_only(
        spec,
        matrix,
        out=out,
        urls=urls,
        custom_command=options.settings.custom_command,
        full_ids=full,
    )
    chosen = (
        select(expansion.variants, options.variants) if options.variants else expansion.variants
    )
    keep = {v.id for v in chosen}
    files = [f for f in files if f.relpath.parts[0] in keep or len(f.relpath.parts) == 1]
    note = inferred_note(chosen)
    warnings = [*expansion.notes, *([note] if note else []), *warning_lines(expansion.variants)]
    lines: list[str] = list(finished)
    problems: list[str] = []
    with_lock: set[str] = set()
    for v in chosen:
        if v.id in carried:
            lines.append(
                f"{v.id}: lock carried over from {carried[v.id].source}/ (the same inputs)"
            )
        if v.id not in full or v.id in carried:
            continue
        from envgen.lock.verify import full_lock_pin_problems  # noqa: PLC0415 - ~40 ms (asyncio, the lockers); only where a full lock is on disk

        found, locked = full_lock_pin_problems(out, v, urls)
        problems += found
        if locked:
            with_lock.add(v.id)
        if not locked:
            lines.append(f"{v.id}: full-lock inputs only (no lock yet; `envgen lock` makes it)")
        elif not found:
            lines.append(f"{v.id}: full lock kept; its pins agree with the matrix")
    stale = find_stale(out, (v.id for v in expansion.variants))
    if options.check:
        problems += interrupted(out, keep, inside=inside)
        check_planned(out, files, inside=inside)
        problems += [describe_stale(s) for s in stale]
        if problems:
            raise StaleOutputError(
                f"{len(problems)} problem(s) in {out}:\n" + "\n".join(f"  - {p}" for p in problems),
                hint="run `envgen lock` and commit the result",
            )
        lines.append(f"{len(files)} file(s) in {out} are up to date")
        return LockResult(lines=tuple(lines), warnings=tuple(warnings))
    # Each variant's files as one set; a full lock and its inputs are never touched.
    written, kept = commit_planned(
        out,
        files,
        locked=frozenset(with_lock),
        inside=inside,
        extra={k: c.texts for k, c in carried.items() if k in keep},
    )
    warnings += [f"{p} (the full lock was kept; run `envgen lock`)" for p in problems]
    lines += [f"wrote {out / str(p)}" for p in written]
    lines += kept
    lines += prune(out, stale)
    lines.append(f"{len(files)} file(s), {len(written)} changed, in {out}")
    return LockResult(
        lines=tuple(lines), warnings=tuple(warnings), written=tuple(str(p) for p in written)
    )


def _carried_locks(
    spec: ProjectSpec,
    variants: tuple[Variant, ...],
    options: LockOptions,
    out: Path,
    urls: IndexUrls,
    inside: Path,
) -> dict[str, Carried]:
    """Full locks of renamed variants whose inputs still apply (envgen.lock.rename): carried
    over by `--pins-only` too, which never downgrades a full lock (issue 26 item 5)."""
    stale = find_stale(out, (v.id for v in variants))
    if not any("requirements.in" in s.generated or "conda-lock.yml" in s.generated for s in stale):
        return {}
    from envgen.lock.rename import carry_over  # noqa: PLC0415 - the lock formats; only after a rename

    return carry_over(spec, variants, stale, options, urls, out=out, root=inside)
