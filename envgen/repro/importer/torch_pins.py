"""The torch other packages of the family pin: torchtext 0.13.0's wheel requires torch==1.12.0,
so pip installs 1.12.0 beside it, whether the file left torch unpinned, gave a range, or got
torch from its base image (pip replaces the image's torch with PyPI's release). And the build an
extension's local label names (`torch-scatter==2.1.0+pt112cu113`: torch 1.12, CUDA 11.3).

The pins come from companions.yaml (each wheel's Requires-Dist, scripts/refresh_releases.py):
torchvision and torchaudio there are handled by the release pairing (envgen.repro.importer
.release) except over a base image's torch; torchtext and torchdata only here.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.model.extensions import find_extension, recognise_index_url
from envgen.model.matrix import CompanionRelease, Matrix, Release
from envgen.repro.importer.evidence import Evidence, Pin, is_pytorch_index
from envgen.repro.importer.release import published_by
from envgen.repro.importer.report import Report
from envgen.repro.reading import excerpt

# A wheel's local label naming the torch and compute platform it was built for: PyG's
# `+pt112cu113` / `+pt20cpu` (the torch minor's digits: major, then minor). PyG's wheel
# torch_scatter-2.1.0+pt112cu113 lives on its torch-1.12.0+cu113 page
# (envgen.model.extensions.recognise_wheel_url).
_BUILD_LABEL: Final = re.compile(r"^pt(\d)(\d+)(cu\d+|cpu)$")
# Pinned in the file's pip requirements (torchvision/torchaudio are read into `companions`).
_PINNERS: Final = ("torchtext", "torchdata")
_COMPANIONS: Final = ("torchvision", "torchaudio")


def pinned_torch(found: Evidence, matrix: Matrix, report: Report) -> None:
    """Where an exactly pinned companion requires one torch release that the file's torch does
    not fix (unpinned, a range it meets, or an image's torch it excludes): that release, as pip
    installs it. `found.torch` is replaced in place, with a warning naming the requirement."""
    labelled_pages(found, matrix, report)
    pin = found.torch
    image = pin.image if pin is not None else None
    if pin is not None and pin.version is not None and image is None:
        return  # the file pins torch itself: pip takes that (or fails to resolve)
    for label, where, spec in _requirements(found, matrix, companions=image is not None):
        owners = [r for r in matrix.releases if spec.contains(r.version, prereleases=True)]
        if not owners:
            continue
        release = max(owners, key=lambda r: r.version)
        if pin is not None and pin.version is not None:
            if spec.contains(pin.version, prereleases=True):
                return  # the image's torch already meets it: pip keeps it
            _replace_image_torch(found, pin, release, label, where, spec, report)
            return
        if pin is not None and pin.specifier and not _meets(release, pin.specifier):
            continue  # the file's range excludes it: pip cannot resolve both; left as it is
        said = f"torch{pin.specifier}" if pin is not None and pin.specifier else "no torch pin"
        report.warnings.append(
            f"{where}: {label} requires torch{spec} (its wheel's Requires-Dist), so pip installs "
            f"torch {release.torch} beside it; project.yaml pins it (the file has {said})"
        )
        found.torch = Pin(version=release.torch, where=where)
        found.torch_manager = found.torch_manager or "pip"
        return


def _requirements(
    found: Evidence, matrix: Matrix, *, companions: bool
) -> list[tuple[str, str, SpecifierSet]]:
    """(label, where, torch specifier) of each exact pin whose wheel pins torch with `==`."""
    out: list[tuple[str, str, SpecifierSet]] = []
    pins: list[tuple[str, str, str]] = []
    if companions:
        for name in _COMPANIONS:
            companion = found.companions.get(name)
            if companion is not None and companion.version is not None:
                pins.append((name, companion.version, companion.where or found.source))
    for text in found.pip_reqs:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        name = canonicalize_name(req.name)
        exact = [s.version for s in req.specifier if s.operator in ("==", "===")]
        if name in _PINNERS and len(exact) == 1 and "*" not in exact[0]:
            pins.append((name, exact[0].split("+", 1)[0], found.source))
    for name, version, where in pins:
        row = matrix.companion(name, version)
        if row is not None and row.exact:
            out.append((f"{name} {version}", where, row.specifier))
    return out


def _meets(release: Release, specifier: str) -> bool:
    text = specifier if specifier[:1] in "=<>!~" else f"=={specifier}"
    try:
        return SpecifierSet(text).contains(release.version, prereleases=True)
    except (ValueError, InvalidVersion):
        return False


def _replace_image_torch(
    found: Evidence,
    pin: Pin,
    release: Release,
    label: str,
    where: str,
    spec: SpecifierSet,
    report: Report,
) -> None:
    """pip replaces the image's torch with PyPI's `release`: the image's CUDA no longer decides
    the build (PyPI's wheel of the release does)."""
    image = pin.image or ""
    report.warnings.append(
        f"{where}: {label} requires torch{spec} (its wheel's Requires-Dist), so pip replaces "
        f"the image's torch {pin.version} ({excerpt(image)}) with PyPI's torch {release.torch}; "
        "project.yaml pins it, from PyPI"
    )
    found.compute = [c for c in found.compute if c.origin != "image"]
    _pypi_torch(found, release, where)


def later_torchvision(
    found: Evidence, matrix: Matrix, as_of: dt.date | None, report: Report
) -> None:
    """A `pip install torchvision` run after the file's exact torch (Evidence.later_torchvision):
    pip takes the newest torchvision as of the file's date with a wheel for the file's python;
    where that wheel pins another torch release (torchvision 0.5.0 requires torch==1.4.0), pip
    replaces the file's torch with PyPI's of that release, whatever build the file's wheel was."""
    pin = found.torch
    if found.later_torchvision is None or pin is None or pin.version is None:
        return
    where, version, torch_where = found.later_torchvision
    if (pin.version, pin.where) != (version, torch_where):
        return  # torch was installed again after it: pip's last install stands
    newest: tuple[Version, Release, CompanionRelease] | None = None
    for release in matrix.releases:
        if release.torchvision is None or release.version.is_prerelease:
            continue
        if as_of is not None and not published_by(release, list(matrix.releases), as_of):
            continue
        row = matrix.companion("torchvision", release.torchvision)
        pythons = row.pypi_pythons("linux-64") if row is not None else ()
        if row is None or (
            found.python is not None and pythons is not None and found.python not in pythons
        ):
            continue
        if newest is None or Version(row.version) > newest[0]:
            newest = (Version(row.version), release, row)
    if newest is None:
        return
    _, release, row = newest
    try:
        if not row.exact or row.specifier.contains(pin.version, prereleases=True):
            return  # a pure-Python torchvision, or one the file's torch meets: pip keeps it
        if release.version <= Version(pin.version):
            return  # never older than the file's torch (a file dated before its own pin)
    except InvalidVersion:
        return
    report.warnings.append(
        f"{where}: pip install torchvision (unpinned) after torch {pin.version}: the newest "
        f"torchvision then is {row.version}, whose wheel requires torch{row.torch}, so pip "
        f"replaces torch {pin.version} with PyPI's torch {release.torch}; project.yaml pins it"
    )
    found.compute = [c for c in found.compute if c.origin == "conda"]
    found.indexes = [(form, url) for form, url in found.indexes if not is_pytorch_index(url)]
    _pypi_torch(found, release, where)


def _pypi_torch(found: Evidence, release: Release, where: str) -> None:
    """pip replaced the file's torch with PyPI's `release`: the image's CUDA no longer decides
    the build, PyPI's wheel of the release does."""
    found.image_cuda = None
    found.torch = Pin(version=release.torch, where=where)
    found.torch_manager = "pip"


def labelled_pages(found: Evidence, matrix: Matrix, report: Report) -> None:
    """An extension pinned with its build's local label (`torch-scatter==2.1.0+pt112cu113`, as
    a `pip freeze` writes it, with no -f line) says which page its wheel came from: that page is
    kept as evidence of the torch series and compute platform, as a -f line to it would be."""
    for text in found.pip_reqs:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        exact = [s.version for s in req.specifier if s.operator in ("==", "===")]
        if len(exact) != 1 or "+" not in exact[0]:
            continue
        m = _BUILD_LABEL.match(exact[0].split("+", 1)[1])
        ext = find_extension(matrix, req.name) if m is not None else None
        if m is None or ext is None:
            continue
        minor, acc = f"{m.group(1)}.{m.group(2)}", m.group(3)
        for index in ext.indexes:
            template = index.url or ""
            if index.form != "find-links" or "{torch_minor}" not in template:
                continue
            page = template.replace("{torch_minor}", minor).replace("{accelerator}", acc)
            if "{" in page or ("label", page) in found.wheel_pages:
                continue
            hit = recognise_index_url(matrix, page)
            if hit is None or hit.torch is None:
                continue
            found.wheel_pages.append(("label", page))
            report.warnings.append(
                f"{found.source}: {excerpt(text)} is the build for torch {minor} and {acc} (its "
                f"local label), from the page {page}"
            )
            break
