"""torchvision and torchaudio: the file's pins kept where they work with the release (published
with it, accepted by their wheel's torch requirement, pure Python, or in the same series), and
replaced by the release's own pairing otherwise.
"""

from __future__ import annotations

import re

from packaging.version import Version

from envgen.model.matrix import Matrix, Release
from envgen.model.variants import companion_accepts, published_companions
from envgen.repro.importer.evidence import Evidence, Pin, is_version
from envgen.repro.importer.report import Report


def check_companions(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    acc: str,
    report: Report,
) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in ("torchvision", "torchaudio"):
        pin = found.companions.get(name)
        paired = getattr(release, name)
        if pin is None:
            out[name] = False
            continue
        series = _series(pin.specifier) if pin.version is None and paired else None
        if series is not None and paired:
            if Version(paired).release[: len(series)] != series:
                report.depart(
                    pin.where, name, f"{pin.specifier.removeprefix('==')}", paired,
                    f"torch {release.torch} pairs with {name} {paired}, outside that series",
                )  # fmt: skip
            out[name] = paired
            continue
        if pin.version is None:
            out[name] = bool(paired)
            if paired:
                report.warnings.append(
                    f"{pin.where}: {name} is not pinned; envgen will pick the one matching torch "
                    f"{release.torch} ({name} {paired})"
                )
            else:
                report.depart(
                    pin.where, name, "asked for", "left out",
                    f"torch {release.torch} was published without {name}",
                )  # fmt: skip
            continue
        if paired is None:
            report.depart(
                pin.where, name, pin.version, "left out",
                f"torch {release.torch} was published without {name}",
            )  # fmt: skip
            out[name] = False
            continue
        published = {paired, *published_companions(matrix, release, name)}
        _as_published(pin, name, published, report)
        if pin.version not in published and name == "torchvision" and _pure_python_vision(pin):
            report.warnings.append(
                f"{pin.where}: torchvision {pin.version} is pure Python (a py2.py3-none-any "
                f"wheel that pins no torch), so it runs with torch {release.torch}; kept as the "
                f"file says (torch {release.torch} pairs with torchvision {paired})"
            )
            out[name] = pin.version
            continue
        accepted = (
            companion_accepts(matrix, name, pin.version, release)
            if pin.version not in published and is_version(pin.version)
            else None
        )
        if accepted is not None:
            report.warnings.append(
                f"{pin.where}: {name} {pin.version} is not the release torch {release.torch} was "
                f"published with ({name} {paired}); kept, because its wheel accepts torch "
                f"{release.torch} (Requires-Dist torch{accepted.torch})"
            )
            out[name] = pin.version
            continue
        if pin.version not in published:
            owners = sorted(
                {r.torch for r in matrix.releases if getattr(r, name) == pin.version}, key=Version
            )
            if (
                not owners
                and is_version(pin.version)
                and Version(pin.version).release[:2] == Version(paired).release[:2]
            ):
                report.warnings.append(
                    f"{pin.where}: {name} {pin.version} is not the matrix's pairing for torch "
                    f"{release.torch} ({name} {paired}) but is in the same series; kept as the "
                    "file says (the lock checks that it resolves)"
                )
                out[name] = pin.version
                continue
            belongs = (
                f"{name} {pin.version} belongs to torch {', '.join(owners)}"
                if owners
                else f"{name} {pin.version} is not a {name} release in the matrix"
            )
            report.depart(
                pin.where, name, pin.version, paired,
                f"{belongs}, and torch {release.torch} pairs with {name} {paired}",
            )  # fmt: skip
            out[name] = paired
            continue
        if pin.label and pin.label != acc:
            report.depart(
                pin.where, f"{name}'s build", pin.label, acc,
                f"{name}=={pin.version}+{pin.label} must match torch's {acc} build",
            )  # fmt: skip
        out[name] = pin.version
    return out


def _as_published(pin: Pin, name: str, published: set[str], report: Report) -> None:
    """The published spelling of a pinned version: PEP 440's (torchvision==0.12 is 0.12.0), and
    for a pre-release never published (0.6.0a0+82fd1c8: the a0 of a source build's version.txt,
    which pytorch/pytorch images ship and `pip freeze` lists), the release it became, as a
    departure (what a torch pre-release pin gets)."""
    if pin.version is None or not is_version(pin.version):
        return
    wanted = Version(pin.version)
    same = [p for p in published if is_version(p) and Version(p) == wanted]
    if same:
        pin.version = same[0]
        return
    base = Version(wanted.base_version)
    became = [p for p in published if is_version(p) and Version(p) == base]
    if wanted.is_prerelease and became:
        report.depart(
            pin.where, name, pin.version, became[0],
            f"{pin.version} is a pre-release or build that was never published as a release; "
            f"{became[0]} is the release it became",
        )  # fmt: skip
        pin.version = became[0]
        if pin.label is not None and not re.fullmatch(r"cu\d+|cpu|rocm[\d.]+", pin.label):
            pin.label = None  # +82fd1c8: the commit the build came from, not a compute platform


def _series(specifier: str) -> tuple[int, ...] | None:
    """The series a pin names: conda's fuzzy `torchvision=0.6` (which is 0.6.*) or pip's
    `==0.6.*`; the answer for it is its member built for the release (torchvision 0.6.1 for
    torch 1.5.1), not "unpinned". A range (`>=0.6`) names no series.

    >>> _series("0.6"), _series("==0.6.*"), _series("0.6.*"), _series(">=0.6"), _series("==0.6")
    ((0, 6), (0, 6), (0, 6), None, None)
    """
    text = specifier.strip()
    if text.startswith("==") and text.endswith(".*"):
        text = text[2:]
    text = text.removesuffix(".*")
    if not text or text[0] in "=<>!~" or not is_version(text):
        return None
    return Version(text).release


def _pure_python_vision(pin: Pin) -> bool:
    """torchvision 0.2.x: before 0.3.0 it had no compiled ops and no torch pin."""
    return (
        pin.version is not None
        and is_version(pin.version)
        and (Version("0.2.0") <= Version(pin.version) < Version("0.3.0"))
    )
