"""Evidence + matrix -> project.yaml data and warnings (`build_project`).

Each key is decided from its evidence in file order (release, route, accelerator, python,
companions, extensions); whatever the file asked for that never existed is replaced by the
nearest combination that did, with one warning per departure; only a source with no torch at all
is refused (and, with --strict, any departure). The result is checked as a project.yaml before
it is returned. This module must not touch the network or start a process.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Final, Literal

from envgen.errors import ImportSpecError, SpecError
from envgen.model.extensions import Target, review_import
from envgen.model.matrix import CondaBuild, Matrix, Release
from envgen.model.spec import CHANNEL_RE, CONDA_DEP_RE, parse_spec
from envgen.repro.importer.accelerator import (
    check_pytorch_cuda,
    compute_evidence,
    cpu_route,
    move_accelerator,
    pick_accelerator,
    pypi_fallback,
)
from envgen.repro.importer.companions import check_companions
from envgen.repro.importer.evidence import Evidence
from envgen.repro.importer.project_yaml import render_project, safe_name
from envgen.repro.importer.python import (
    check_python,
    companion_wheels,
    py_key,
    python_from_pins,
)
from envgen.repro.importer.release import pick_release, torch_to_write
from envgen.repro.importer.report import Report, bounded_warnings, raise_problems
from envgen.repro.importer.requirements import extension_wheels
from envgen.repro.importer.routes import (
    carry_conda,
    channel_ended,
    conda_source,
    deleted_route,
    forge_first,
    from_pypi,
    gone_routes,
    known_issues,
    names_conda_forge,
    route_builds,
)
from envgen.repro.importer.torch_pins import later_torchvision, pinned_torch
from envgen.repro.reading import excerpt
from envgen.repro.wheels import PinWheels

# Channels the matrix names for each build: the user's own channels are the rest.
_MATRIX_CHANNELS: Final = frozenset({"pytorch", "nvidia"})


def _pypi_over_extra_index(
    found: Evidence,
    matrix: Matrix,
    as_of: dt.date | None,
    evidence: tuple[str, str] | None,
    release: Release,
    report: Report,
) -> tuple[Release, tuple[str, str] | None]:
    """An unpinned or ranged torch whose only CUDA evidence is an `--extra-index-url`: pip reads
    PyPI as well and takes the highest version of the two (pip docs, "--extra-index-url"), so
    where PyPI had a newer release than any on that index (whl/cu121 stops at 2.5.1; PyPI's was
    2.10.0 on 2026-02-27), PyPI's build is what installs."""
    if (
        evidence is None
        or not evidence[1].startswith("--extra-index-url")
        or found.torch is None
        or found.torch.version is not None
        or found.torch_manager == "conda"
        or any(c.why != evidence[1] for c in found.compute)
    ):
        return release, evidence
    pypi = pick_release(found, matrix, as_of, None, Report(problems=[], warnings=[]), None)
    if pypi is None or pypi.version <= release.version or not pypi.pypi_wheels:
        return release, evidence
    report.warnings.append(
        f"{found.source}: {evidence[1]} adds an index to PyPI; its newest torch is "
        f"{release.torch}+{evidence[0]}, and pip takes PyPI's newer {pypi.torch} (the higher "
        "version of the two), so project.yaml pins that and PyPI's build"
    )
    return pypi, None


def build_project(  # noqa: PLR0912, PLR0915 - the project.yaml keys in file order, each from its evidence
    found: Evidence,
    matrix: Matrix,
    *,
    name: str,
    as_of: dt.date | None = None,
    strict: bool = False,
    wheels: list[PinWheels] | None = None,
) -> tuple[dict[str, object], list[str]]:
    """Validate what a file asked for; return project.yaml data and warnings.

    `wheels`: what the index says of the file's exact pins (envgen.repro.wheels.lookup): with
    no python in the file, the python is the newest one torch and every pin have wheels for.

    Whatever the file asked for that never existed is replaced by the nearest combination that
    did, with one warning per departure; only a source with no torch at all is refused (and, with
    `strict`, any departure).

    Raises:
        ImportSpecError: no torch could be determined, or `strict` and the file needed changes.
    """
    if found.unreadable is not None:
        raise ImportSpecError(found.unreadable)
    extension_wheels(found, matrix)
    report = Report(
        problems=list(found.problems),
        warnings=list(found.warnings),
        departures=list(found.departures),
    )
    src = found.source
    pinned_torch(found, matrix, report)
    later_torchvision(found, matrix, as_of, report)
    evidence = compute_evidence(found, report, matrix)
    release = pick_release(found, matrix, as_of, evidence, report, wheels)
    if release is None:
        raise_problems(src, report.problems)
        raise ImportSpecError(src)
    release, evidence = _pypi_over_extra_index(found, matrix, as_of, evidence, release, report)
    manager: Literal["pip", "conda"] = found.torch_manager or "pip"
    acc = pick_accelerator(found, matrix, release, manager, evidence, report, as_of)
    builds = route_builds(
        matrix,
        release,
        manager,
        conda_source(found, matrix, release, manager),
    )
    if not builds and manager == "conda" and names_conda_forge(found):
        # the pytorch channel never had the release; the file's conda-forge did (its builds:
        # matrices/conda-forge.yaml; the lock takes the release's default source, conda-forge)
        # (with the file's compute platform; otherwise it moves to pip, as before)
        forge = route_builds(matrix, release, manager, "conda-forge")
        builds = forge if acc in forge else builds
    if not builds and manager == "conda":
        manager, builds = channel_ended(found, matrix, release, acc, report)
    if (
        builds
        and acc not in builds
        and evidence is not None
        and evidence[1].startswith("image pytorch/pytorch:")
        and acc in route_builds(matrix, release, "conda")
    ):
        # pytorch/pytorch images install torch with conda: that build is what existed.
        report.depart(
            src, "the install route", f"pip {acc}", f"conda {acc}",
            f"torch {release.torch} has no {acc} pip wheels, and the image "
            f"({evidence[1].removeprefix('image ')}) installed the conda build, which has {acc}",
        )  # fmt: skip
        manager, builds = "conda", route_builds(matrix, release, "conda")
    if builds and acc == "cpu" and acc not in builds:
        manager, builds = cpu_route(found, matrix, release, manager, builds, evidence, report)
    manager, builds = deleted_route(found, matrix, release, manager, acc, builds, report)
    if builds and acc not in builds and acc != "cpu":
        acc = pypi_fallback(found, matrix, release, manager, acc, evidence, report) or (
            move_accelerator(found, matrix, release, manager, acc, evidence, report)
        )
    check_pytorch_cuda(found, matrix, release, acc, builds, report)
    python = check_python(found, release, report)
    conda_pytorch = manager == "conda" and not forge_first(found)  # the pytorch channel's
    if python is None and wheels is not None and (manager == "pip" or conda_pytorch):
        wheels = [*wheels, *companion_wheels(found, matrix, conda=manager == "conda")]
    if python is None and wheels:
        python = python_from_pins(found, matrix, release, wheels, report, manager=manager)
    companions = check_companions(found, matrix, release, acc, report)
    managers, acc = gone_routes(found, matrix, release, manager, acc, builds, report)
    if (
        acc == "cpu"
        and manager == "conda"
        and managers == ["conda"]
        and not found.cpuonly
        and not any(c.accelerator == "cpu" for c in found.compute)
    ):
        build = builds.get("cpu")
        if isinstance(build, CondaBuild) and build.form == "cpuonly":
            cudas = [a for a in builds if a.startswith("cu")]
            report.warnings.append(
                f"{src}: pytorch {release.torch} from -c pytorch names neither cpuonly nor "
                "pytorch-cuda, and its CUDA builds need the CUDA packages of -c nvidia (or, for "
                "CUDA 12, conda-forge's), which the file's channels lack: only the CPU build "
                "solves, so project.yaml asks for cpu, whose environment.yml adds cpuonly. If the "
                f"paper ran on a GPU, set accelerators to the CUDA it used ({', '.join(cudas)})"
                if cudas
                else f"{src}: pytorch {release.torch} has no CUDA build on the pytorch channel: "
                "project.yaml asks for cpu, whose environment.yml adds cpuonly"
            )
    if "pip" in managers:
        # linux-64's own pythons where PyPI has the release (1.10.2's cp310 is aarch64 only)
        published = release.pypi_pythons("linux-64") or release.python
        newest_first = tuple(sorted(published, key=py_key, reverse=True))
        target = Target(
            torch=release.torch,
            accelerator=acc,
            python=python or (newest_first[0] if newest_first else "3"),
            platform="linux-64",
        )
        more, notes, fitting = review_import(
            matrix,
            found.pip_reqs,
            [*found.indexes, *found.wheel_pages],
            target,
            where=src,
            pythons=() if python else newest_first,
        )
        # Never a refusal (issue 11): an extension never built for this variant is a notice
        # naming what was; --strict refuses it.
        if strict:
            report.problems.extend(more)
        else:
            report.warnings.extend(f"{m} (kept as the file says; the lock will fail)" for m in more)
        report.warnings.extend(notes)
        if fitting is not None and newest_first and fitting != newest_first[0]:
            python = fitting
            report.warnings.append(
                f"{src}: python {fitting}: the newest Python torch {release.torch} and the "
                "file's compiled extensions were all built for"
            )
    if managers == ["pip"] and found.conda_deps:
        # never dropped in silence (envgen.repro.carry); a refusal only where the import itself
        # moved torch from conda to pip, not where the file already installed torch with pip
        carry_conda(found, src, report, switched=found.torch_manager == "conda")
    if strict and report.departures:
        report.problems.extend(report.departures)
        raise_problems(src, [f"--strict: {p}" for p in report.problems])
    raise_problems(src, report.problems)
    channels = [c for c in found.channels if c not in _MATRIX_CHANNELS]
    # What project.yaml cannot hold is left out with a warning, never a broken project.yaml.
    for channel in [c for c in channels if not CHANNEL_RE.fullmatch(c)]:
        channels.remove(channel)
        report.warnings.append(
            f"{src}: channel {excerpt(channel)!r} is not a channel name project.yaml accepts "
            "(such as conda-forge); left out"
        )
    for dep in [d for d in found.conda_deps if not CONDA_DEP_RE.fullmatch(d)]:
        found.conda_deps.remove(dep)
        report.warnings.append(
            f"{src}: conda package {excerpt(dep)!r} is not a match spec project.yaml accepts; "
            "left out"
        )
    project: dict[str, object] = {"name": safe_name(name)}
    if python:
        project["python"] = python
    project["torch"] = torch_to_write(found, matrix, release, managers, acc, report)
    project.update(companions)
    project["accelerators"] = [acc]
    project["managers"] = managers
    if from_pypi(found, release.torch, acc, managers):
        project["torch_from"] = "pypi"  # the file's plain PyPI torch (envgen.model.pypi_routes)
    if found.pip_reqs:
        project["pip"] = list(found.pip_reqs)
    if found.conda_deps or (channels and "conda" in managers):
        conda: dict[str, object] = {}
        if channels:
            conda["channels"] = channels
        if found.conda_deps:
            conda["dependencies"] = list(found.conda_deps)
        project["conda"] = conda
    if as_of is not None:
        project["lock"] = {"exclude_newer": as_of.isoformat()}
    known_issues(found, matrix, release, managers, acc, report.warnings)
    # The result must itself be a valid project.yaml (a failure here is an envgen bug).
    try:
        parse_spec(render_project(project, source=src), path=Path("project.yaml"))
    except SpecError as exc:
        msg = f"{src}: the imported project.yaml is not valid: {exc}"
        raise ImportSpecError(msg) from None
    return project, bounded_warnings(report.warnings)
