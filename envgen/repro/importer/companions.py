"""torchvision and torchaudio: the file's pins kept where they work with the release (published
with it, accepted by their wheel's torch requirement, pure Python, or in the same series), and
replaced by the release's own pairing otherwise.
"""

from __future__ import annotations

import re
from typing import Final

from packaging.version import Version

from envgen.model.matrix import Matrix, Release
from envgen.model.variants import companion_accepts, published_companions
from envgen.repro.importer.evidence import Evidence, Pin, is_version
from envgen.repro.importer.release import pin_specifier, pure_python_only
from envgen.repro.importer.report import Report

# A local label that names a compute platform (cu101, cpu, rocm4.1), not a source commit.
_BUILD_LABEL: Final = re.compile(r"^(cu\d+|cpu|rocm[\d.]+)$")


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
            out[name] = _unpinned(pin, name, paired, matrix, release, report)
            continue
        if paired is None:
            report.depart(
                pin.where, name, pin.version, "left out",
                f"torch {release.torch} was published without {name}",
            )  # fmt: skip
            out[name] = False
            continue
        published = {paired, *published_companions(matrix, release, name)}
        _as_release(pin, name, matrix, report)
        _as_published(pin, published)
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
                # a release PyPI has (matrices/companions.yaml): torchvision 0.7.1 never was
                and matrix.companion(name, pin.version) is not None
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


def _as_published(pin: Pin, published: set[str]) -> None:
    """The published spelling of a pinned version: PEP 440's (torchvision==0.12 is 0.12.0). A
    build's pre-release string (0.6.0a0+82fd1c8) was read as its release by `_as_release`."""
    if pin.version is None or not is_version(pin.version):
        return
    wanted = Version(pin.version)
    same = [p for p in published if is_version(p) and Version(p) == wanted]
    if same:
        pin.version = same[0]


def _unpinned(
    pin: Pin, name: str, paired: str | None, matrix: Matrix, release: Release, report: Report
) -> object:
    """A companion without an exact pin: the one pure-Python release its range allows (which
    runs with any torch), else the release's own pairing (True), said as a warning."""
    spec = pin_specifier(pin.specifier) if pin.specifier else None
    only = pure_python_only(matrix, name, spec) if spec is not None else None
    if only is not None:
        report.warnings.append(
            f"{pin.where}: {name} {pin.specifier} allows only {name} {only}, which is pure "
            f"Python (pins no torch), so it runs with torch {release.torch}; kept"
        )
        return only
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
    return bool(paired)


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


def _as_release(pin: Pin, name: str, matrix: Matrix, report: Report) -> None:
    """A pre-release version string of a companion the matrix has as a release (0.13.1a0, the
    version a conda or source build of torchvision 0.13.1 reports; 0.6.0a0+82fd1c8 in a
    pytorch/pytorch image) is read as that release: neither project published pre-releases on
    PyPI or the stable channels, so no index has 0.13.1a0, and its code is 0.13.1's."""
    if pin.version is None or not is_version(pin.version):
        return
    version = Version(pin.version)
    if not version.is_prerelease or version.is_devrelease:
        return
    base = version.base_version
    known = {str(getattr(r, name)) for r in matrix.releases if getattr(r, name) is not None}
    known.update(c.version for c in matrix.companions if c.package == name)
    release = next((k for k in known if is_version(k) and Version(k) == Version(base)), None)
    if release is None:
        return
    built = pin.version + (f"+{pin.label}" if pin.label else "")
    report.warnings.append(
        f"{pin.where}: {name} {built} is the version string of a build of {name} {release} "
        f"(conda's or one from source; no index publishes it), read as {release}"
    )
    pin.version = release
    if pin.label and not _BUILD_LABEL.match(pin.label):
        pin.label = None  # the source commit it was built from (+82fd1c8), not a compute platform
