"""The torch release: the file's exact pin (a post-release or an older real release recognised as
such), or the newest release its range, companions, extension pages, date (--as-of), channel
(pytorch-lts) and python allow; with none in the matrix, the nearest one, said as a departure.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from envgen.errors import ImportSpecError
from envgen.model.extensions import torch_from_pages
from envgen.model.matrix import CondaBuild, Matrix, PipBuild, Release
from envgen.model.variants import POST_RELEASE_PAGES, issues_for, published_companions
from envgen.repro import eras
from envgen.repro.importer.evidence import Evidence, Pin, channel_name, is_version
from envgen.repro.importer.python import buildable_pythons
from envgen.repro.importer.report import Report
from envgen.repro.importer.routes import PLATFORM, forge_built_by, forge_first, route_builds
from envgen.repro.reading import excerpt
from envgen.repro.wheels import PinWheels, choose_python


def _fits(
    matrix: Matrix,
    release: Release,
    evidence: tuple[str, str] | None,
    python: str | None,
    manager: Literal["pip", "conda"] | None = None,
    *,
    then: bool = False,
    forge: bool = False,
) -> bool:
    """The release has the file's compute platform and python (on `manager`'s route, or either
    route when None); a route the matrix marks gone (an error known issue) does not count, unless
    `then`: what the route had when the file was written (the pytorch channel's packages before
    1.5.1 were deleted later)."""
    if python is not None and python not in release.python:
        return False
    managers: list[Literal["pip", "conda"]] = [manager] if manager else ["pip", "conda"]
    for m in managers:
        builds = route_builds(matrix, release, m)
        if forge and m == "conda" and not builds:
            # the file takes pytorch from conda-forge: a release only conda-forge built (2.6
            # on) is on its route too (routes.conda_source)
            builds = route_builds(matrix, release, m, "conda-forge")
        acc = evidence[0] if evidence else next(iter(builds), "")
        build = builds.get(acc)
        if build is None or not _form_fits(build, evidence):
            continue
        if then:
            return True
        if isinstance(build, PipBuild):
            gone = issues_for(matrix, release, manager=m, accelerator=acc, pip=build)
        else:
            gone = issues_for(matrix, release, manager=m, accelerator=acc, conda=build)
        if not any(i.severity == "error" for i in gone):
            return True
    return False


def _form_fits(build: PipBuild | CondaBuild, evidence: tuple[str, str] | None) -> bool:
    """A conda build of the form the file's CUDA package selects: `cudatoolkit=11.6` is met by
    the pytorch channel's cudatoolkit builds (to 1.12.1), not by 1.13's CUDA 11.6 build, which
    depends on pytorch-cuda=11.6 and the nvidia channel's libraries instead (and the other way
    round for `pytorch-cuda=X`)."""
    if not isinstance(build, CondaBuild) or evidence is None:
        return True
    named = evidence[1].split(" ", 1)[0]
    if named in {"cudatoolkit", "pytorch-cuda"} and build.form in {"cudatoolkit", "pytorch-cuda"}:
        return build.form == named
    return True


def _linux(release: Release, found: Evidence) -> bool:
    """PyPI has linux-64 wheels of `release` for the file's python, where the matrix records
    PyPI's wheels: 1.5.0's pythons include 2.7 for its macOS wheel only (PyPI's linux wheels are
    cp35-cp38), so Python 2.7's pip on Linux installs 1.4.0, the last release with cp27 wheels."""
    linux = release.pypi_pythons(PLATFORM)
    return found.python is None or not linux or found.python in linux


def _pick_release(
    found: Evidence,
    matrix: Matrix,
    as_of: dt.date | None,
    evidence: tuple[str, str] | None,
    report: Report,
    wheels: list[PinWheels] | None = None,
) -> Release | None:
    src = found.source
    releases = sorted(matrix.releases, key=lambda r: r.version)
    if found.nightly:
        report.problems.append(
            f"{src}: torch is a nightly build, not a release; nothing to reproduce"
            + "".join(f"\n  ({w})" for w in found.refusal_notes)
        )
        return None
    pin = _torch_pin(found, matrix, releases, report)
    if isinstance(pin, Release):
        return pin
    if pin is None:
        unread = [
            *(w for w in report.warnings if w.endswith(("not followed", "is not read"))),
            *found.refusal_notes,
        ]
        report.problems.append(
            f"{src}: no torch (or conda pytorch) requirement found; nothing to reproduce"
            + "".join(f"\n  ({w})" for w in unread)
        )
        return None
    if pin.version is not None:
        return _exact_release(pin, releases, report)
    where = pin.where or src
    if pin.specifier:
        spec = pin_specifier(pin.specifier)
        if spec is None:
            report.warnings.append(
                f"{where}: torch {excerpt(pin.specifier)!r} is not a version or range envgen "
                "understands; treated as unpinned"
            )
    else:
        spec = None
    asked = f"torch {pin.specifier}" if spec is not None else "torch (unpinned)"
    matching = [r for r in releases if spec is None or spec.contains(r.version)]
    matching = _lts_only(found, matrix, matching, report)
    matching = _named_package(found, matrix, matching, report)
    owned = _release_of_companions(found, matching, matrix)
    if owned is not None:
        # `pytorch=1.10 torchvision==0.11.0`: the pinned companion belongs to one release in it.
        release, companion = owned
        report.warnings.append(
            f"{companion.where}: torch {pin.specifier or '(unpinned)'} allows several releases, "
            f"but {companion.label} belongs to torch {release.torch} only, so project.yaml "
            f"pins torch {release.torch}"
        )
        matching = [release]
    if not matching:
        # The nearest release to the range's bounds; on a tie, the newer one.
        now = min(reversed(releases), key=lambda r: _version_distance(r.version, spec))
        report.depart(where, "torch", pin.specifier, now.torch, "no PyTorch release matches it")
        return now
    dated = matching
    when = ""
    if as_of is not None:
        dated = [r for r in matching if published_by(r, releases, as_of)]
        when = f" on {as_of}"
        if not dated:
            first = matching[0]
            report.depart(
                where,
                "torch",
                f"{asked.removeprefix('torch ')} as of {as_of}",
                first.torch,
                f"no release it allows was published by {as_of}; {first.torch} is the first one",
            )
            return first
    dated = _companion_ranges(found, matrix, dated, report)
    if as_of is not None:
        built = [r for r in dated if forge_built_by(found, matrix, r, as_of)]
        if built and built[-1] != dated[-1]:
            report.warnings.append(
                f"{where}: conda-forge had not built pytorch {dated[-1].torch} by {as_of} (its "
                f"feedstock first built it later), so the newest release the file could get "
                f"from conda-forge then is {built[-1].torch}"
            )
            dated = built
    manager: Literal["pip", "conda"] = found.torch_manager or "pip"
    forge = forge_first(found)
    fitting = (
        [
            r
            for r in dated
            if _fits(matrix, r, evidence, found.python, manager, forge=forge) and _linux(r, found)
        ]
        or [r for r in dated if _fits(matrix, r, evidence, found.python, manager, forge=forge)]
        # The newest release the file's own route had for its platform then: `conda install
        # pytorch cudatoolkit=10.0` late in 2019 got 1.3.x (the channel's CUDA 10.0 builds of
        # 1.3.0-1.4.0, which the page never listed), though those packages are gone now and
        # 1.3.x has no cu100 pip wheel.
        or [r for r in dated if _fits(matrix, r, evidence, found.python, manager, then=True)]
        or [r for r in dated if _fits(matrix, r, evidence, found.python)]
    )
    # With no python in the file: a release whose pythons every exact pin has wheels for.
    narrowed = _pins_fit(found, fitting or dated, wheels)
    chosen = narrowed[-1] if narrowed else fitting[-1] if fitting else dated[-1]
    _say_pick(found, evidence, chosen, fitted=bool(fitting), narrowed=bool(narrowed),
              spec=spec, asked=asked, when=when, where=where, report=report)  # fmt: skip
    return chosen


def pick_release(
    found: Evidence,
    matrix: Matrix,
    as_of: dt.date | None,
    evidence: tuple[str, str] | None,
    report: Report,
    wheels: list[PinWheels] | None = None,
) -> Release | None:
    """The torch release the file installs; where a later pip floor came after its range
    (`torch==1.8.*`, then `torch>=1.8.1`: Pin.then), pip keeps the release the range installed
    where it meets the floor, else installs the newest release the floor allows."""
    pin = found.torch
    chosen = _pick_release(found, matrix, as_of, evidence, report, wheels)
    if chosen is None or pin is None or not pin.then:
        return chosen
    asked = f"torch {pin.specifier}" if pin.specifier else "torch (unpinned)"
    for index, (floor, at) in enumerate(pin.then):
        later = pin_specifier(floor)
        if later is None or later.contains(chosen.version, prereleases=True):
            report.warnings.append(
                f"{at}: torch {floor} is already met by torch {chosen.torch}, which {asked} "
                "installed, so pip keeps it"
            )
            continue
        # pip upgrades to the newest release the floor allows; later floors apply to that one.
        report.warnings.append(
            f"{at}: torch {floor} is not met by torch {chosen.torch}, which {asked} installed, "
            "so pip installs the newest release the floor allows"
        )
        found.torch = Pin(specifier=floor, where=at, then=pin.then[index + 1 :])
        return pick_release(found, matrix, as_of, evidence, report, wheels)
    return chosen


def _say_pick(  # noqa: PLR0913 - the facts one message names
    found: Evidence,
    evidence: tuple[str, str] | None,
    chosen: Release,
    *,
    fitted: bool,
    narrowed: bool,
    spec: SpecifierSet | None,
    asked: str,
    when: str,
    where: str,
    report: Report,
) -> None:
    """Why an unpinned or ranged torch became `chosen`."""
    needs: list[str] = []
    if evidence is not None:
        needs.append(evidence[0])
    if found.python is not None:
        needs.append(f"python {found.python}")
    if not fitted and needs:
        report.warnings.append(
            f"{where}: no release {asked.removeprefix('torch ')} allows{when} has "
            f"{' and '.join(needs)}; taking the newest one, {chosen.torch}"
        )
    has = [*(needs if fitted else []), *(["a python every exact pin has a wheel for"] * narrowed)]
    that = f" that has {' and '.join(has)}" if has else ""
    if spec is None:
        report.warnings.append(
            f"{where}: torch is not pinned; project.yaml pins {chosen.torch}, "
            f"the newest release{when}{that}"
        )
    else:
        report.warnings.append(
            f"{where}: {asked} is not an exact pin; project.yaml pins {chosen.torch}, "
            f"the newest release{when} it allows{that}"
        )


def _pins_fit(
    found: Evidence, releases: list[Release], wheels: list[PinWheels] | None
) -> list[Release]:
    """The releases (in order) with a python every exact pin has a wheel for; [] if not asked."""
    if not wheels or found.python is not None:
        return []
    return [r for r in releases if choose_python(buildable_pythons(r), wheels)[0] is not None]


def pin_specifier(text: str) -> SpecifierSet | None:
    """A torch-family version or range as a file writes it (`>=1.8`, `1.10`, `^`-converted
    ranges) as a specifier set: a bare version is `==`, and `==X.Y` means that release line
    (`1.10` is 1.10.*); None where it is none envgen understands.

    >>> str(pin_specifier("1.10")), str(pin_specifier(">=1.8,<2")), pin_specifier("latest")
    ('==1.10.*', '<2,>=1.8', None)
    """
    text = text if text[:1] in tuple("=<>!~") else f"=={text}"
    if re.fullmatch(r"==\d+(\.\d+)?", text):
        text += ".*"
    try:
        return SpecifierSet(text)
    except InvalidSpecifier:
        return None


def published_by(release: Release, releases: list[Release], as_of: dt.date) -> bool:
    """The release was out by `as_of`. One with no date (a matrix whose pre-PyPI rows carry
    none) older than the oldest dated release counts as out: it predates every dated one."""
    if release.date:
        return dt.date.fromisoformat(release.date) <= as_of
    first = next((r for r in releases if r.date), None)
    return first is not None and release.version < first.version


def _lts_only(
    found: Evidence, matrix: Matrix, matching: list[Release], report: Report
) -> list[Release]:
    """Through -c pytorch-lts (or a whl/lts/ index) only the LTS releases could be installed."""
    via = next((c for c in found.channels if channel_name(c) == eras.LTS_CHANNEL), None)
    via = via or next((u for _, u in found.indexes if eras.LTS_INDEX.search(u)), None)
    if via is None:
        return matching
    lts = [
        r
        for r in matching
        if any(eras.LTS_CHANNEL in b.channels for b in matrix.conda_builds(r.torch, PLATFORM))
        or any(eras.LTS_INDEX.search(b.url or "") for b in matrix.pip_builds(r.torch, PLATFORM))
    ]
    if not lts:
        return matching
    report.warnings.append(
        f"{found.source}: the file installs torch from {excerpt(via)}, which holds only the LTS "
        f"release{'s' if len(lts) > 1 else ''} {', '.join(r.torch for r in lts)}"
    )
    return lts


def _torch_pin(
    found: Evidence, matrix: Matrix, releases: list[Release], report: Report
) -> Pin | Release | None:
    """The file's torch pin; with none, the release its companions belong to; with none or an
    unpinned torch, the series its extension pages or wheel URLs were built for."""
    pin = found.torch
    if pin is None:
        derived = _release_of_companions(found, releases, matrix)
        if derived is not None:
            release, companion = derived
            report.warnings.append(
                f"{companion.where}: the file pins no torch, but {companion.label} belongs to "
                f"torch {release.torch} only (pip installs the torch it requires), so "
                f"project.yaml pins torch {release.torch}"
            )
            return release
    if pin is not None and found.torch_manager == "conda":
        # `conda install pytorch` (unpinned) solves torch before any pip line runs: a pip
        # extension page (PyG's torch-1.8.0+cu102.html) names the extension wheels' build, and
        # those wheels require no torch, so the page does not choose the conda torch.
        return pin
    if pin is None or (pin.version is None and not pin.specifier):
        return (
            _paged_torch(found, matrix, pin, report) or pin or _torch_by_dependency(found, report)
        )
    return pin


def _torch_by_dependency(found: Evidence, report: Report) -> Pin | None:
    """An unpinned torch when the file names torchvision or torchaudio but no torch: every
    torchvision and torchaudio release requires torch (its Requires-Dist; torchvision 0.2.1's
    setup.py `install_requires=['numpy', 'six', 'torch', 'pillow']`), so installing one installs
    torch too, the newest the date allows, as for an unpinned `torch` line."""
    for name in ("torchvision", "torchaudio"):
        companion = found.companions.get(name)
        if companion is not None:
            where = companion.where or found.source
            report.warnings.append(
                f"{where}: the file names {name} but no torch; torch comes in as {name}'s "
                "dependency, so project.yaml takes torch unpinned"
            )
            return Pin(where=where)
    return None


def _paged_torch(found: Evidence, matrix: Matrix, pin: Pin | None, report: Report) -> Pin | None:
    """The torch series an extension page or wheel URL was built for, when torch is unpinned.

    PyG's torch-1.12.0 page serves every 1.12.z, mmcv's torch1.12 names no patch: the series is
    kept (==1.12.*) and the release is picked in it as for any range; a page naming a patch
    other than .0 keeps it.
    """
    paged = torch_from_pages(matrix, [*found.indexes, *found.wheel_pages])
    if paged is None:
        return None
    torch, url = paged
    parts = torch.split(".")
    specifier = torch if len(parts) > 2 and parts[2] != "0" else f"=={parts[0]}.{parts[1]}.*"
    said = "pins no torch" if pin is None else "does not pin torch"
    where = found.source if pin is None else pin.where or found.source
    report.warnings.append(
        f"{where}: the file {said}, but the extension page {url} is for torch {torch}, so "
        f"project.yaml takes torch {specifier.removeprefix('==')}"
    )
    return Pin(specifier=specifier, where=where)


def _named_package(
    found: Evidence, matrix: Matrix, releases: list[Release], report: Report
) -> list[Release]:
    """An unpinned or ranged `pytorch-cpu` from the pytorch channel: only the releases that
    channel published under that name (form cpu-package, 1.0.0-1.1.0; from 1.2.0 on its CPU
    build is `pytorch` with cpuonly), so `conda install pytorch-cpu -c pytorch` in 2019 got
    1.1.0. conda-forge's pytorch-cpu is another package (a metapackage of every release)."""
    if not found.cpu_package or "pytorch" not in found.channels or "conda-forge" in found.channels:
        return releases
    named = [
        r
        for r in releases
        if any(
            isinstance(b, CondaBuild) and b.form == "cpu-package"
            for b in route_builds(matrix, r, "conda").values()
        )
    ]
    if not named or named == releases:
        return releases
    report.warnings.append(
        f"{found.cpu_package}: the pytorch channel published pytorch-cpu for torch "
        f"{named[0].torch}-{named[-1].torch} only (later CPU builds are pytorch with cpuonly)"
    )
    return named


def _companion_ranges(
    found: Evidence, matrix: Matrix, releases: list[Release], report: Report
) -> list[Release]:
    """The releases whose published torchvision / torchaudio a ranged companion allows:
    Poetry's `torchvision = "^0.18.1"` is >=0.18.1,<0.19, and torchvision 0.18.x pins torch
    2.3.x, so `torch = "^2.3.1"` beside it resolves to 2.3.1, not the newer 2.4.0. Unchanged
    when the range allows every release's companion, or none (warned: the file conflicts)."""
    for name in ("torchvision", "torchaudio"):
        pin = found.companions.get(name)
        if pin is None or pin.version is not None or not pin.specifier:
            continue
        spec = pin_specifier(pin.specifier)
        if spec is None or pure_python_only(matrix, name, spec) is not None:
            continue  # a pure-Python torchvision (0.2.x) pins no torch: any release runs it
        allowed = [
            r
            for r in releases
            if any(
                is_version(v) and spec.contains(Version(v), prereleases=True)
                for v in published_companions(matrix, r, name)
            )
        ]
        if allowed and len(allowed) < len(releases):
            report.warnings.append(
                f"{pin.where or found.source}: {name} {pin.specifier} belongs to torch "
                f"{', '.join(r.torch for r in allowed)} only (each torchvision / torchaudio "
                "release pins one torch)"
            )
            releases = allowed
        elif not allowed and releases:
            report.warnings.append(
                f"{pin.where or found.source}: {name} {pin.specifier} belongs to no torch "
                f"release the file's torch allows ({releases[0].torch}-{releases[-1].torch}); "
                f"the {name} range is not met: check the file"
            )
    return releases


def pure_python_only(matrix: Matrix, name: str, spec: SpecifierSet) -> str | None:
    """The one companion release a range allows when it is pure Python (torchvision 0.2.2: a
    py2.py3 wheel whose Requires-Dist names torch unpinned, matrices/companions.yaml), else None:
    `torchvision==0.2.2,>=0.2.1` (two packages' Requires-Dist) installs 0.2.2 with any torch.

    >>> from envgen.model.matrix import load_matrix
    >>> m = load_matrix()
    >>> pure_python_only(m, "torchvision", SpecifierSet("==0.2.2,>=0.2.1"))
    '0.2.2'
    >>> pure_python_only(m, "torchvision", SpecifierSet(">=0.2.1")) is None
    True
    """
    allowed = [
        c
        for c in matrix.companions
        if c.package == name and spec.contains(c.version, prereleases=True)
    ]
    if len(allowed) == 1 and allowed[0].pure_python and not allowed[0].torch:
        return allowed[0].version
    return None


def _release_of_companions(
    found: Evidence, releases: list[Release], matrix: Matrix
) -> tuple[Release, Pin] | None:
    """The one torch release a pinned torchvision / torchaudio belongs to (pip installs it).

    A companion belongs to a release when the release row or one of its published install
    commands pairs them (torch 1.10.0's conda line has torchvision 0.11.0, its pip lines 0.11.1),
    and its Requires-Dist pins a torch (matrices/companions.yaml): the pure-Python torchvision of
    2017-2019 (0.1.9, 0.2.x) names none, and pip installs it beside any torch.
    The returned pin's `label` is reused for the message text ("torchvision 0.6.0").
    """
    for name in ("torchvision", "torchaudio"):
        pin = found.companions.get(name)
        if pin is None or pin.version is None or not is_version(pin.version):
            continue
        row = matrix.companion(name, pin.version)
        if row is not None and not row.torch:
            continue  # its Requires-Dist names no torch (torchvision 0.1.9): any release takes it
        wanted = Version(pin.version)
        owners = [
            r
            for r in releases
            if any(
                is_version(v) and Version(v) == wanted
                for v in published_companions(matrix, r, name)
            )
        ]
        if len(owners) == 1:
            return owners[0], Pin(where=pin.where, label=f"{name} {pin.version}")
    return None


def _version_or_none(text: str) -> Version | None:
    """`text` as a version, or None: `===` takes any string (`torch===1..2`), no version at all."""
    try:
        return Version(text)
    except InvalidVersion:
        return None


def _version_distance(version: Version, spec: SpecifierSet | None) -> float:
    """How far a release is from the bounds a range names (0 for the nearest one)."""
    if spec is None:
        return 0.0
    bounds = [
        bound
        for s in spec
        if s.version.rstrip(".*")[:1].isdigit()
        and (bound := _version_or_none(s.version.rstrip(".*"))) is not None
    ]

    def num(v: Version) -> float:
        parts = [*v.release, 0, 0, 0][:3]
        return parts[0] * 1e6 + parts[1] * 1e3 + parts[2]

    return min((abs(num(version) - num(b)) for b in bounds), default=0.0)


def _exact_release(pin: Pin, releases: list[Release], report: Report) -> Release:
    """The release a pin names (PEP 440 equality: 1.10 is 1.10.0), or the nearest one."""
    assert pin.version is not None  # noqa: S101 - the caller checked
    try:
        wanted = Version(pin.version)
    except InvalidVersion:  # `===` takes any string: `torch===1..2`
        msg = (
            f"{pin.where}: torch {pin.version!r} is not a version (PEP 440); "
            "write the release the file means, e.g. torch==1.2.0"
        )
        raise ImportSpecError(msg) from None
    for release in releases:
        if release.version == wanted:
            return release
    base = Version(wanted.base_version)
    same = next((r for r in releases if r.version == base), None)
    if same is not None and published_post_release(pin) is not None:
        # A real post-release (rebuilt wheels of the same code): recognised, not a departure;
        # `torch_to_write` says whether project.yaml keeps it.
        return same
    old = eras.pre_matrix_release(pin.version)
    if old is not None and releases and Version(old) < releases[0].version:
        first = releases[0]
        report.depart(
            pin.where, "torch", pin.version, first.torch,
            f"torch {pin.version} is a real release ({old}: wheels on download.pytorch.org, "
            f"{eras.PRE_MATRIX_SOURCE}) older than envgen's matrix, which starts at "
            f"{first.torch}: no row can lock or build {old} yet, and {first.torch} is the "
            "nearest release envgen has",
        )  # fmt: skip
        return first
    if same is not None and (wanted.is_prerelease or wanted.is_postrelease):
        report.depart(
            pin.where,
            "torch",
            pin.version,
            same.torch,
            f"{pin.version} is a pre-release or build that was never published as a release; "
            f"{same.torch} is the release it became",
        )
        return same
    series = [r for r in releases if r.version.release[:2] == base.release[:2]]
    if series:
        below = [r for r in series if r.version <= base]
        now = below[-1] if below else series[0]
        because = (
            f"{pin.version} is not a PyTorch release; releases in its series: "
            f"{', '.join(r.torch for r in series)}"
        )
    else:
        below = [r for r in releases if r.version <= base]
        now = below[-1] if below else releases[0]
        because = f"{pin.version} is not a PyTorch release and none shares its minor series"
    report.depart(pin.where, "torch", pin.version, now.torch, because)
    return now


def published_post_release(pin: Pin) -> str | None:
    """Where a real post-release of torch was published (eras.POST_RELEASES, or the wheel file
    the file names, which proves it existed), or None when the pin is no such post-release."""
    if pin.version is None or not is_version(pin.version):
        return None
    version = Version(pin.version)
    if not version.is_postrelease or version.is_devrelease or version.is_prerelease:
        return None
    if pin.version in eras.POST_RELEASES:
        return eras.POST_RELEASES[pin.version]
    if eras.pre_matrix_release(pin.version) is not None:
        return f"download.pytorch.org ({eras.PRE_MATRIX_SOURCE})"
    return f"the index of the wheel file {excerpt(pin.wheel)}" if pin.wheel else None


def torch_to_write(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    managers: list[str],
    acc: str,
    report: Report,
) -> str:
    """The torch project.yaml pins: the release, or the file's post-release of it, kept where
    the pip route envgen writes serves it (a wheel page or index of download.pytorch.org; PyPI
    never had them), so that the lock installs the very wheels the file named."""
    pin = found.torch
    if pin is None or pin.version is None or matrix.release(pin.version) is not None:
        return release.torch
    published = published_post_release(pin)
    if published is None or Version(Version(pin.version).base_version) != release.version:
        return release.torch
    build = route_builds(matrix, release, managers[0]).get(acc)
    said = (
        f"{pin.where}: torch {pin.version} is a post-release of {release.torch} (rebuilt wheels "
        f"on {published})"
    )
    if build is None and pin.wheel is not None and _wheel_names_build(found, acc):
        # No row of the matrix builds it (the lock says whether it resolves), but the file's own
        # wheel URL names this post-release for this build: no route envgen writes lacks it.
        report.warnings.append(
            f"{said}; project.yaml keeps it: the file's wheel {excerpt(pin.wheel)} is the "
            f"{acc} build, which the matrix has no row for"
        )
        return pin.version
    on_page = acc in POST_RELEASE_PAGES.get(pin.version, ())
    if managers == ["pip"] and isinstance(build, PipBuild) and (build.index != "pypi" or on_page):
        page = (
            f"download.pytorch.org/whl/{acc}/" if on_page else f"{release.torch}'s {acc} wheel page"
        )
        report.warnings.append(
            f"{said}; project.yaml keeps it: the lock pins torch=={pin.version} from {page}"
        )
        return pin.version
    route = "conda packages" if managers != ["pip"] else "PyPI's wheels"
    report.warnings.append(
        f"{said}, so project.yaml pins {release.torch}, the release it rebuilt ({route}, the "
        f"route envgen writes for {acc}, never had {pin.version})"
    )
    return release.torch


def _wheel_names_build(found: Evidence, acc: str) -> bool:
    """True when a torch wheel URL's folder (whl/cpu/, whl/cu90/) named the build `acc`."""
    return any(
        c.accelerator == acc and c.why.startswith("the wheel URL's folder") for c in found.compute
    )
