"""A full lock carried over to a renamed variant whose inputs it still answers (issue 26 item 5).

Adding a second python renames `cpu` to `cpu-py311`: the variant is the same, only its name (and
so its folder and its input hash, which names the variant) changed. When the old folder's lock
was made from exactly the inputs the renamed variant has now (its recorded input-hash is what
the old name gives today), the same inputs resolve to the same lock: its bodies are kept and
only the headers are written anew, with no resolver work. Anything less (a tampered or stale
lock, a pylock.toml that is not its requirements.txt's) is not carried; the variant is locked.
This module decides what is carried; it writes nothing (envgen.lock.orchestrate writes it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from envgen.errors import EnvgenError
from envgen.infra.files import read_output
from envgen.lock.lockfile import (
    expected_lock_names,
    lock_inputs,
    overrides_text,
    recorded_in,
    split_header,
    tampered_lines,
    with_header,
)
from envgen.lock.options import LockOptions
from envgen.lock.piplock import PipLock
from envgen.lock.pylock import PYLOCK_NAME, pylock_problems
from envgen.lock.stale import StaleDir
from envgen.model.spec import ProjectSpec
from envgen.model.types import VariantId
from envgen.model.variants import Variant
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls
from envgen.render.plan import describe, spec_command


@dataclass(frozen=True, slots=True, kw_only=True)
class Carried:
    """A lock taken over from the folder of a variant that is now called otherwise."""

    source: str  # the old folder (variant id)
    old_texts: dict[str, str]  # its lock files as they were (name -> text)
    texts: dict[str, str]  # the same bodies under the renamed variant's headers


def carry_over(
    spec: ProjectSpec,
    variants: Sequence[Variant],
    stale: Sequence[StaleDir],
    options: LockOptions,
    written: IndexUrls,
    *,
    out: Path,
    root: Path,
) -> dict[str, Carried]:
    """The locks of `stale` folders each variant without a lock of its own can take over."""
    found: dict[str, Carried] = {}
    taken: set[str] = set()
    for v in variants:
        names = expected_lock_names(v)
        if any(read_output(out / v.id / n, inside=root) is not None for n in names):
            continue  # it has a lock (or part of one): judged as it is
        for s in stale:
            if s.name in taken or not all(n in s.generated for n in names):
                continue
            carried = _carry_from(spec, v, s.name, options, written, out=out, root=root)
            if carried is not None:
                found[v.id] = carried
                taken.add(s.name)
                break
    return found


def _carry_from(
    spec: ProjectSpec,
    v: Variant,
    old: str,
    options: LockOptions,
    written: IndexUrls,
    *,
    out: Path,
    root: Path,
) -> Carried | None:
    folder = out / old
    texts: dict[str, str] = {}
    try:
        for name in expected_lock_names(v):
            raw = read_output(folder / name, inside=root)
            if raw is None:
                return None
            texts[name] = raw.decode("utf-8")
        recorded = recorded_in(texts)
        # What the old name's lock records, if it was made from the inputs this variant has.
        want = lock_inputs(
            spec, dataclasses.replace(v, id=VariantId(old)), options, written, recorded=recorded
        )
        bodies: dict[str, str] = {}
        for name, text in texts.items():
            if name == "requirements.txt":
                lock = PipLock.parse(text, source=f"{old}/{name}")
                intact, fields, body = not lock.tampered(), lock.fields, lock.body()
            else:
                intact = not tampered_lines(text)
                fields, body = split_header(text)
            if not intact or fields.get("input-hash") != want:
                return None
            bodies[name] = body
        pylock = read_output(folder / PYLOCK_NAME, inside=root)
        if pylock is not None and "requirements.txt" in texts:
            text = pylock.decode("utf-8")
            fields, body = split_header(text)
            requirements = split_header(texts["requirements.txt"])
            if (
                tampered_lines(text)
                or fields.get("input-hash") != want
                or pylock_problems(body, requirements[1])
            ):
                return None
            bodies[PYLOCK_NAME] = body
    except (EnvgenError, UnicodeDecodeError):
        return None  # anything unreadable or malformed is not carried: the variant is locked
    lock_options = overrides_text(options.resolver, options.as_of) or recorded
    header = Header(
        command=spec_command(
            spec,
            pins_only=False,
            custom=options.settings.custom_command,
            extra=lock_options,
        ),
        input_hash=lock_inputs(spec, v, options, written, recorded=recorded),
        lock_options=lock_options,
        description=describe(v, resolved=True),
    )
    return Carried(
        source=old,
        old_texts=texts,
        texts={name: with_header(header, body) for name, body in bodies.items()},
    )
