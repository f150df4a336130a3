"""The install route: the builds the matrix records for a release on pip or conda (linux-64), a
route the matrix marks gone (an error known issue) traded for the other one, a conda file whose
channel no longer has the release moved to pip (its conda dependencies carried across by
envgen.repro.carry), known issues to warn about, and PyPI's own wheel as the route (torch_from).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from envgen.model.matrix import CondaBuild, KnownIssue, Matrix, PipBuild, Release, compute_sort_key
from envgen.model.pypi_routes import load_routes
from envgen.model.types import CondaSource
from envgen.model.variants import issues_for, nearest_accelerator, silenced
from envgen.repro.carry import carry_to_pip
from envgen.repro.importer.evidence import (
    Evidence,
    channel_name,
    indexed_by_pytorch,
    solving_channels,
)
from envgen.repro.importer.report import Report

if TYPE_CHECKING:
    import datetime as dt

PLATFORM: Final = "linux-64"


def route_builds(
    matrix: Matrix, release: Release, manager: str, source: CondaSource = "pytorch"
) -> dict[str, PipBuild | CondaBuild]:
    rows: list[PipBuild | CondaBuild] = [
        *(
            matrix.pip_builds(release.torch, PLATFORM)
            if manager == "pip"
            else matrix.conda_builds(release.torch, PLATFORM, source)
        )
    ]
    ordered = sorted(rows, key=lambda b: compute_sort_key(b.kind, b.version))
    return {b.accelerator: b for b in ordered}


def nearest_of(acc: str, choices: list[str]) -> str:
    return nearest_accelerator(acc, choices) or (choices[0] if choices else acc)


def versions_text(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def from_pypi(found: Evidence, torch: str, acc: str, managers: list[str]) -> bool:
    """The file installed torch from PyPI (a plain pin, no PyTorch index or wheel URL) and PyPI's
    wheel of that release is the labelled build `acc` (matrices/pypi-routes.yaml)."""
    if managers != ["pip"] or found.torch_manager != "pip" or found.torch is None:
        return False
    if found.torch.label or indexed_by_pytorch(found):
        return False
    return any(r.release == torch and r.replaces == f"{torch}+{acc}" for r in load_routes())


def carry_conda(found: Evidence, src: str, report: Report, *, switched: bool) -> None:
    """Move the file's conda dependencies under pip: (a pip build never installs `conda:`)."""
    carried = carry_to_pip(found.conda_deps, found.pip_reqs, where=src)
    found.pip_reqs.extend(carried.pip)
    found.conda_deps.clear()
    report.warnings.extend(carried.notes)
    if carried.refused:
        what = f"pip cannot install these conda dependencies: {'; '.join(carried.refused)}"
        if switched:
            # The torch answer stands; what only conda had is a departure (--strict refuses it).
            names = ", ".join(r.split(" (", 1)[0] for r in carried.refused)
            report.depart(
                src, names, "in the conda dependencies", "left out",
                f"the environment moves to pip, and {what}",
            )  # fmt: skip
        else:
            report.warnings.append(f"{src}: torch is installed with pip; left out, as {what}")


def gone_routes(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    acc: str,
    builds: dict[str, PipBuild | CondaBuild],
    report: Report,
) -> tuple[list[str], str]:
    """The managers and accelerator to write: the file's, or the other route's if it is gone."""
    if acc not in builds:
        return [manager], acc
    gone = [
        i for i in route_issues(found, matrix, release, acc, builds[acc]) if i.severity == "error"
    ]
    if not gone:
        return [manager], acc
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    other_builds = route_builds(matrix, release, other)
    said = " ".join(f"[{i.id}] {i.message}" for i in gone)
    fix = f"Fix: {gone[0].fix} ({gone[0].link})"
    if acc in other_builds:
        report.depart(
            found.source, "the install route", manager, other,
            f"{said} The {other} route still works. {fix}",
        )  # fmt: skip
        return [other], acc
    working = _working_builds(found, matrix, release, acc, builds) if _build_gone(gone) else []
    if working:
        # The build never existed, not the route: the nearest build of the same route that did.
        near = nearest_of(acc, working)
        report.depart(found.source, "the compute platform", acc, near, f"{said} {fix}")
        return [manager], near
    if not other_builds:
        report.depart(
            found.source, "the install route", manager, other,
            f"{said} {fix}; the matrix records no linux-64 {other} build of torch "
            f"{release.torch}: check that `envgen lock` finds it",
        )  # fmt: skip
        return [other], acc
    near = nearest_of(acc, list(other_builds))
    report.depart(
        found.source, "the install route", f"{manager} {acc}", f"{other} {near}",
        f"{said} {fix}; {other} has no {acc} build of torch {release.torch}, {near} is the nearest",
    )  # fmt: skip
    return [other], near


def deleted_route(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    acc: str,
    builds: dict[str, PipBuild | CondaBuild],
    report: Report,
) -> tuple[Literal["pip", "conda"], dict[str, PipBuild | CondaBuild]]:
    """A build the file's route lacks, on a route that is gone for this whole release (the pytorch
    channel's packages before 1.5.1): the other route, where it has that build, is where the
    environment goes anyway (gone_routes), so the build is judged there and not moved to one the
    gone route had (`pytorch=1.4.0 cudatoolkit=10.0 -c pytorch` is 1.4.0+cu100 from pip, not cu101).
    """
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    other_builds = route_builds(matrix, release, other)
    if acc in builds or acc not in other_builds or not builds:
        return manager, builds
    first = next(iter(builds))
    gone = [
        i
        for i in route_issues(found, matrix, release, first, builds[first])
        if i.severity == "error" and not i.accelerators
    ]
    if not gone:
        return manager, builds
    said = " ".join(f"[{i.id}] {i.message}" for i in gone)
    report.depart(
        found.source, "the install route", manager, other,
        f"{said} The {other} route still works, and has the {acc} build. "
        f"Fix: {gone[0].fix} ({gone[0].link})",
    )  # fmt: skip
    return other, other_builds


def _build_gone(gone: list[KnownIssue]) -> bool:
    """The known issues name the file's build (its accelerators), not the whole route."""
    return all(i.accelerators for i in gone)


def _working_builds(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    acc: str,
    builds: dict[str, PipBuild | CondaBuild],
) -> list[str]:
    """The route's other builds of the same kind (CUDA for CUDA) that no error issue marks gone."""
    return [
        a
        for a, b in builds.items()
        if a != acc
        and a.startswith("cu") == acc.startswith("cu")
        and not any(i.severity == "error" for i in route_issues(found, matrix, release, a, b))
    ]


def route_issues(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    acc: str,
    build: PipBuild | CondaBuild,
) -> list[KnownIssue]:
    if isinstance(build, PipBuild):
        # Judge the route the file used: `-f torch_stable.html` even where the matrix has an index.
        form = next(
            (f for f, u in found.indexes if f == "find-links" and "torch_stable" in u), None
        )
        pip = build.model_copy(update={"index": form}) if form else build
        return issues_for(matrix, release, manager="pip", accelerator=acc, pip=pip)
    issues = issues_for(
        matrix,
        release,
        manager="conda",
        accelerator=acc,
        conda=build,
        extra_channels=tuple(found.channels),
    )
    if from_anaconda(found.channels) or build.form == "conda-forge":
        # The defaults channel built pytorch itself and deleted none of it, and a conda-forge
        # build is conda-forge's: what the pytorch channel lost (or never had) says nothing of
        # an export from defaults or of a pytorch the file takes from conda-forge.
        return [i for i in issues if i.channel != "pytorch"]
    return issues


# Anaconda's own channels (`defaults` is pkgs/main + pkgs/r; `anaconda` is the same packages on
# anaconda.org): their pytorch builds (build strings cuda100py36h938c94c_0, _pytorch_select)
# are Anaconda's, not the pytorch channel's.
_ANACONDA_CHANNELS: Final = frozenset({"defaults", "anaconda", "main", "pkgs"})  # pkgs/main, pkgs/r


def from_anaconda(channels: list[str]) -> bool:
    """The file takes pytorch from Anaconda's channels: it names one and not `pytorch`.

    >>> from_anaconda(["anaconda", "conda-forge"]), from_anaconda(["pytorch", "defaults"])
    (True, False)
    >>> from_anaconda([]), from_anaconda(["conda-forge"])
    (False, False)
    >>> from_anaconda(["https://conda.anaconda.org/pytorch/", "pkgs/main"])
    False
    """
    names = {channel_name(c) for c in channels}
    return "pytorch" not in names and bool(names & _ANACONDA_CHANNELS)


def known_issues(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    managers: list[str],
    acc: str,
    warnings: list[str],
) -> None:
    manager = managers[0]
    build = route_builds(matrix, release, manager).get(acc)
    if build is None:
        return
    for issue in route_issues(found, matrix, release, acc, build):
        if issue.severity != "warning" or (
            issue.silenced_by is not None
            and silenced(issue.silenced_by, found.pip_reqs, found.conda_deps)
        ):
            continue
        fix = _IMPORT_FIXES.get(issue.id, issue.fix).format(acc=acc)
        warnings.append(f"[{issue.id}] {issue.message} Fix: {fix} ({issue.link})")


# Fixes written for project.yaml where the matrix's fix is conda syntax project.yaml cannot hold
# (the spec has no build-string key: advice never suggests what the spec rejects).
_IMPORT_FIXES: Final = {
    "conda-forge-cudatoolkit-gives-cpu-build": (
        "nothing to add to project.yaml: accelerators: [{acc}] makes envgen write the pytorch "
        "channel before the file's other channels and lock the CUDA build, and `envgen smoke` "
        "fails if the environment holds a CPU build"
    ),
}


def names_conda_forge(found: Evidence) -> bool:
    """The file lists conda-forge among its channels: a pytorch release that only conda-forge
    built (2.6 and later: the pytorch channel ends at 2.5) comes from there.

    >>> e = Evidence(source="environment.yml", kind="conda")
    >>> e.channels = ["conda-forge", "nodefaults"]; names_conda_forge(e)
    True
    >>> e.channels = ["pytorch", "nvidia"]; names_conda_forge(e)
    False
    """
    return any(channel_name(c) == "conda-forge" for c in found.channels)


def forge_first(found: Evidence) -> bool:
    """conda-forge is the channel conda takes pytorch from: listed before the pytorch channel,
    or without it (strict and flexible priority both prefer the first channel that has the
    package; pixi solves with strict priority), or named on the spec (`conda-forge::pytorch`).

    >>> e = Evidence(source="pixi.toml", kind="pixi")
    >>> e.channels = ["conda-forge"]; forge_first(e)
    True
    >>> e.channels = ["pytorch", "conda-forge"]; forge_first(e)
    False
    """
    if found.torch_channel is not None:  # `pytorch::pytorch`, pixi's `channel = "pytorch"`
        return channel_name(found.torch_channel) == "conda-forge"
    names = [channel_name(c) for c in solving_channels(found)]
    if "conda-forge" not in names:
        return False
    return "pytorch" not in names or names.index("conda-forge") < names.index("pytorch")


def forge_built_by(found: Evidence, matrix: Matrix, release: Release, as_of: dt.date) -> bool:
    """Whether the file's conda install could take a release from conda-forge by `as_of`, where
    it takes pytorch from conda-forge (conda-forge.yaml's `built`: the feedstock builds a
    release days or weeks after PyPI has it, and skipped some, 2.5.0). A pytorch channel the file
    also lists serves a release conda-forge lacks; a release older than conda-forge.yaml's first
    row is not judged. True wherever that does not apply."""
    if found.torch_manager != "conda" or not forge_first(found):
        return True
    names = {channel_name(c) for c in solving_channels(found)}
    if "pytorch" in names and matrix.conda_builds(release.torch, PLATFORM, "pytorch"):
        return True
    rows = matrix.conda_builds(release.torch, PLATFORM, "conda-forge")
    if not rows:
        first = min((Version(b.release) for b in matrix.conda_forge), default=None)
        return first is None or release.version < first  # skipped (2.5.0): never built there
    return any(b.built is None or b.built <= as_of.isoformat() for b in rows)


def conda_source(
    found: Evidence, matrix: Matrix, release: Release, manager: str = "conda"
) -> CondaSource:
    """Where a conda install of `release` comes from: conda-forge where the file takes pytorch
    from there and only conda-forge built the release (2.6 on: the pytorch channel ends at 2.5);
    else the pytorch channel's rows, as project.yaml's default source is (a 2.4/2.5 the file takes
    from conda-forge keeps the pytorch channel's builds, which the lock can reach)."""
    if (
        manager == "conda"
        and forge_first(found)
        and not matrix.conda_builds(release.torch, PLATFORM, "pytorch")
        and matrix.conda_builds(release.torch, PLATFORM, "conda-forge")
    ):
        return "conda-forge"
    return "pytorch"


def channel_ended(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    acc: str,
    report: Report,
) -> tuple[Literal["pip", "conda"], dict[str, PipBuild | CondaBuild]]:
    """A conda env for a release the pytorch channel no longer has (or never had): move to pip."""
    pip = route_builds(matrix, release, "pip")
    gone = [
        i
        for i in matrix.known_issues
        if i.manager == "conda"
        and (i.channel is None or i.channel in found.channels or not found.channels)
        and i.severity == "error"
        and SpecifierSet(i.torch).contains(release.version, prereleases=True)
    ]
    said = " ".join(f"[{i.id}] {i.message}" for i in gone) or (
        f"torch {release.torch} has no conda packages for {PLATFORM}."
    )
    fix = f" Fix: {gone[0].fix} ({gone[0].link})" if gone else ""
    if acc in pip:
        has = f"pip has {acc} wheels of torch {release.torch}"
    elif pip:
        has = f"pip has torch {release.torch} wheels ({versions_text(list(pip))})"
    else:
        has = (
            f"the matrix records no linux-64 pip wheels of torch {release.torch}: check that "
            "`envgen lock` finds them"
        )
    report.depart(found.source, "the install route", "conda", "pip", f"{said}{fix}; {has}")
    return "pip", pip
