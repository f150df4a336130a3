"""Era-aware resolution: the date an old release's unpinned dependencies resolve as of, and the
known incompatibilities of its ecosystem applied as constraints.

Without a date, every dependency a spec does not pin resolves to the newest that still installs
today: torch 1.0.1's torchvision 0.2.2 then gets Pillow 9.5, released years later, and fails to
import. So for a release older than ERA_DEFAULT_BEFORE, and a spec that sets no date of its own
(`lock.exclude_newer`, `envgen lock --as-of`), the pip resolution runs as of the release's era:
the newest first upload of torch and its companions (matrices/era.yaml, from PyPI's upload times)
plus ERA_WINDOW_DAYS. matrices/incompatibilities.yaml adds constraints for breaks that a date
alone does not prevent (a spec's own later date, a dependency released inside the window).

`era_decision` and `constraints_for` are pure; `load_era` / `load_incompatibilities` read the
shipped files once.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.infra.resources import MATRICES_DIR
from envgen.model.shipped import data_for

if TYPE_CHECKING:
    from envgen.model.variants import Variant

ERA_FILE: Final = MATRICES_DIR / "era.yaml"
INCOMPATIBILITIES_FILE: Final = MATRICES_DIR / "incompatibilities.yaml"
# The window after a release's last companion upload: the patch releases of its dependencies that
# followed it count as its era (three months), the next major ones mostly do not (Pillow 7.0.0
# came ten months after torchvision 0.2.2). A choice, documented in docs/reference/project-yaml.md.
ERA_WINDOW_DAYS: Final = 90
# Releases from 2.0 on declare their runtime dependencies in their wheels' metadata, and their
# known breaks (numpy 2) are rows of incompatibilities.yaml; the 1.x wheels name numpy (and
# torchvision pillow) unbounded, so those float across years. Inference from the wheels'
# Requires-Dist (matrices/companions.yaml, tests/data/recorded/pypi/), not a published rule.
ERA_DEFAULT_BEFORE: Final = "2.0"
_MAX_BYTES: Final = 1 << 20


@dataclass(frozen=True, slots=True)
class EraRow:
    """One torch release's era (era.yaml): the date and the package that gave it."""

    torch: str
    date: dt.date
    basis: str


@dataclass(frozen=True, slots=True)
class Incompatibility:
    """One known break (incompatibilities.yaml), applied as `constraint`."""

    id: str
    torch: str
    torchvision: str | None
    constraint: str
    message: str
    link: str

    @property
    def package(self) -> str:
        """The constrained package, normalized ('pillow<7' -> 'pillow')."""
        name = self.constraint
        for i, char in enumerate(name):
            if char in "<>=!~;[ (":
                name = name[:i]
                break
        return canonicalize_name(name)


@dataclass(frozen=True, slots=True)
class EraDecision:
    """The date a variant's pip side resolves as of, and why, in words for `envgen lock`."""

    date: dt.date | None
    reason: str


def _read(path: Path) -> list[dict[str, object]]:
    raw = path.read_bytes()[: _MAX_BYTES + 1]
    if len(raw) > _MAX_BYTES:
        msg = f"{path}: larger than {_MAX_BYTES} bytes"
        raise ValueError(msg)
    text = raw.decode("utf-8")
    found, data = data_for(path, text)  # the bundled table's shipped form: no PyYAML (~14 ms)
    if not found:
        from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - PyYAML; only then

        _, data = load_bounded(text, shipped=True)
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        msg = f"{path}: expected a list of mappings"
        raise ValueError(msg)
    return data


@functools.cache
def load_era(path: Path = ERA_FILE) -> Mapping[str, EraRow]:
    """era.yaml as {torch release: EraRow}."""
    rows = {}
    for r in _read(path):
        row = EraRow(torch=str(r["torch"]), date=_date(r["date"]), basis=str(r["basis"]))
        rows[row.torch] = row
    return rows


def _date(value: object) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


@functools.cache
def load_incompatibilities(path: Path = INCOMPATIBILITIES_FILE) -> tuple[Incompatibility, ...]:
    """incompatibilities.yaml's rows, in file order."""
    found = []
    for r in _read(path):
        row = Incompatibility(
            id=str(r["id"]),
            torch=str(r["torch"]),
            torchvision=None if r.get("torchvision") is None else str(r["torchvision"]),
            constraint=str(r["constraint"]),
            message=str(r["message"]),
            link=str(r["link"]),
        )
        SpecifierSet(row.torch)  # a malformed row fails here, in the test of the shipped file
        if row.torchvision is not None:
            SpecifierSet(row.torchvision)
        found.append(row)
    return tuple(found)


def _public(version: str) -> Version | None:
    try:
        return Version(Version(version).public)
    except InvalidVersion:
        return None


def era_decision(
    release: str,
    eras: Mapping[str, EraRow],
    *,
    window_days: int = ERA_WINDOW_DAYS,
    before: str = ERA_DEFAULT_BEFORE,
) -> EraDecision:
    """The default resolution date for torch `release` when the spec sets none (pure).

    >>> rows = {"1.0.1": EraRow("1.0.1", dt.date(2019, 2, 27), "torchvision 0.2.2")}
    >>> era_decision("1.0.1", rows).date
    datetime.date(2019, 5, 28)
    >>> era_decision("2.1.0", rows).date is None
    True
    """
    version = _public(release)
    if version is None or version >= Version(before):
        return EraDecision(None, f"torch {release} is {before} or later: no era date by default")
    row = eras.get(str(version))
    if row is None:
        return EraDecision(None, f"torch {release} has no upload dates in era.yaml: no era date")
    date = row.date + dt.timedelta(days=window_days)
    return EraDecision(
        date,
        f"torch {release}'s era: {row.basis} was first uploaded on {row.date.isoformat()}, plus "
        f"{window_days} days; set lock.exclude_newer (or --as-of) for another date",
    )


def constraints_for(
    torch: str,
    torchvision: str | None,
    named: Iterable[str],
    rows: Iterable[Incompatibility],
) -> list[Incompatibility]:
    """The rows that apply to a variant of `torch` (and `torchvision`), leaving out packages the
    spec's pip: list names (`named`: its requirement lines) (pure)."""
    mentioned = set()
    for line in named:
        name = Incompatibility("", "", None, line, "", "").package
        if name:
            mentioned.add(name)
    version = _public(torch)
    vision = _public(torchvision) if torchvision else None
    found = []
    for row in rows:
        if version is None or row.package in mentioned:
            continue
        try:
            if version not in SpecifierSet(row.torch, prereleases=True):
                continue
            if row.torchvision is not None and (
                vision is None or vision not in SpecifierSet(row.torchvision, prereleases=True)
            ):
                continue
        except InvalidSpecifier:
            continue
        found.append(row)
    return found


# --- a variant's era (what envgen.lock applies) -------------------------------------------------
def variant_era(variant: Variant) -> EraDecision:
    """era_decision for the variant's torch release, from the shipped era.yaml."""
    return era_decision(variant.release.torch, load_era())


def variant_constraints(variant: Variant) -> list[Incompatibility]:
    """constraints_for the variant's pip side (its torch, torchvision and pip: lines)."""
    if variant.pip is None:
        return []
    vision = dict(variant.companion_pins).get("torchvision") or (
        variant.pip.torchvision if variant.with_torchvision else None
    )
    return constraints_for(variant.pip.torch, vision, variant.pip_extra, load_incompatibilities())


def era_inputs(variant: Variant) -> dict[str, object]:
    """What the era adds to a lock's input hash when the spec sets no date: the date and the
    constraint ids; empty when no era date applies (the hash of other locks is unchanged)."""
    decision = variant_era(variant)
    if decision.date is None:
        return {}
    return {
        "era": decision.date.isoformat(),
        "era-constraints": [c.id for c in variant_constraints(variant)],
    }


__all__ = [
    "ERA_DEFAULT_BEFORE",
    "ERA_WINDOW_DAYS",
    "EraDecision",
    "EraRow",
    "Incompatibility",
    "constraints_for",
    "era_decision",
    "era_inputs",
    "load_era",
    "load_incompatibilities",
    "variant_constraints",
    "variant_era",
]
