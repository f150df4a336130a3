"""The compute platform: the strongest evidence the file gives (a local label, an index URL, the
packages that select a conda build, an image tag), or, with none, what the route installed by
default (PyPI's default build, conda's newest cudatoolkit, an extension page); a platform the
release was never built for is moved to the nearest one that was, said as a departure.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final, Literal

from packaging.version import InvalidVersion, Version

from envgen.model.extensions import accelerator_from_pages
from envgen.model.matrix import CondaBuild, Matrix, PipBuild, Release, cuda_number
from envgen.model.variants import cuda_version_of, issues_for
from envgen.repro import eras
from envgen.repro.importer.evidence import (
    Evidence,
    channel_name,
    cuda_id,
    indexed_by_pytorch,
    is_pypi,
    solving_channels,
)
from envgen.repro.importer.python import py_key
from envgen.repro.importer.report import Report
from envgen.repro.importer.routes import conda_source, nearest_of, route_builds, versions_text

# The compute platform an index URL names (whl/lts/1.8/cu111: the LTS release's index).
_WHL_LABEL: Final = re.compile(r"/whl/(?:lts/[\d.]+/)?(cpu|cu\d+|rocm[\d.]+|xpu)/?$")


# A find-links page of one compute platform's folder (whl/cu101/torch_stable.html); the flat
# whl/torch_stable.html names none.
_FOLDER_PAGE: Final = re.compile(r"/whl/(cpu|cu\d+|rocm[\d.]+)/torch_stable\.html$")


# The flat find-links page of every folder's wheels (whl/cu92/, whl/cpu/, whl/rocm4.0.1/, ...).
_STABLE_PAGE: Final = re.compile(r"download\.pytorch\.org/whl/torch_stable\.html$")


# How strongly each kind of evidence names the compute platform (lower wins).
def _evidence_rank(why: str) -> int:
    if why.startswith(("torch==", "build string")):
        # A local label on the torch pin, or the build string an export recorded: the build that
        # was installed, stronger than the packages that asked for one (an export can hold a
        # stray cpuonly beside pytorch=1.2.0=cuda100py36h938c94c_0).
        return 0
    if why.startswith("--"):
        return 1  # an index URL
    if why.startswith(("cudatoolkit", "pytorch-cuda", "cpuonly")):
        return 2  # the packages that select pytorch's build
    if why.startswith(("cuda-version", "cuda-toolkit")):
        return 3  # a CUDA constraint other packages also pull in
    return 4  # an image tag, a cudaXY meta-package


def compute_evidence(
    found: Evidence, report: Report, matrix: Matrix | None = None
) -> tuple[str, str] | None:
    """The compute platform the file names (accelerator, why), the strongest evidence first.

    An `--extra-index-url` for a platform PyTorch never published wheels for (whl/cu114: no
    release in the matrix has a CUDA 11.4 pip build) offers pip no torch: pip only adds an extra
    index to PyPI (pip docs, "--extra-index-url"), so it installs PyPI's build and the URL is
    no evidence. (`--index-url` replaces PyPI, so that file could not install torch at all; the
    nearest platform stays the answer there, said as a departure.)
    """
    # pip never reads a conda package: a conda environment's cudatoolkit (or cpuonly) beside a
    # torch pip installs does not choose pip's wheel (PyPI serves its own build). Where conda
    # installed that torch's release (or one unpinned, which pip may find met), its packages
    # name that build (an export's pip section, or a requirements file, lists the same torch)
    conda = found.conda_torch
    pip_torch = (
        found.torch_manager == "pip"
        and found.torch is not None
        and (conda is None or conda not in {"", found.torch.version})
    )
    evidence = [
        (c.accelerator, c.why)
        for c in found.compute
        if not (pip_torch and c.origin == "conda" and not c.why.startswith("build string"))
    ]
    published = _pip_labels(matrix) if matrix is not None else None
    for form, url in found.indexes:
        m = _WHL_LABEL.search(url.rstrip("/"))
        if (
            m
            and form == "extra-index-url"
            and published is not None
            and m.group(1) not in published
        ):
            report.warnings.append(
                f"{found.source}: --extra-index-url {url}: PyTorch published no {m.group(1)} "
                "wheels for any release, so that index offers no torch and pip installs PyPI's "
                "build"
            )
            continue
        if m and form != "find-links":
            evidence.append((m.group(1), f"--{form} {url}"))
        folder = _FOLDER_PAGE.search(url)
        if folder and form == "find-links":
            # `-f whl/cu101/torch_stable.html` lists that folder's builds only: pip takes torch
            # from there (a +cu101 label sorts above PyPI's plain 1.5.0).
            evidence.append((folder.group(1), f"--find-links {url}"))
    if not evidence:
        evidence = _companion_labels(found, published)
    if not evidence:
        return None
    best = min(evidence, key=lambda e: _evidence_rank(e[1]))
    others = sorted({acc for acc, _ in evidence if acc != best[0]})
    if others:
        said = "; ".join(f"{acc} ({why})" for acc, why in evidence)
        report.depart(
            found.source,
            "the compute platform",
            " and ".join([best[0], *others]),
            best[0],
            f"the file asks for more than one ({said}) and {best[1]} is the strongest evidence",
        )
    return best


def _companion_labels(found: Evidence, published: frozenset[str] | None) -> list[tuple[str, str]]:
    """A companion's local label where nothing else names the build: `torchaudio==0.10.1+rocm4.1`
    beside an unpinned torch is what a freeze records of a ROCm 4.1 install (the family's wheels
    on one index carry one label, and torchaudio 0.10.1 requires torch==1.10.1 of that index)."""
    return [
        (pin.label, f"{name}=={pin.version}+{pin.label}")
        for name, pin in found.companions.items()
        if pin.label and pin.version and (published is None or pin.label in published)
    ]


def _pip_labels(matrix: Matrix) -> frozenset[str]:
    """Every compute platform some release has linux-64 pip wheels for."""
    return frozenset(
        b.accelerator for r in matrix.releases for b in matrix.pip_builds(r.torch, "linux-64")
    )


def _cuda_solvable(found: Evidence, build: CondaBuild, acc: str, as_of: dt.date | None) -> bool:
    """A pytorch channel CUDA build solves where the file's channels have the CUDA packages it
    depends on (the pytorch channel ships none of its own).

    - cudatoolkit=X: Anaconda's defaults carried only some (eras.DEFAULTS_CUDATOOLKIT: up to
      11.3.1, never 11.1-11.2 or 11.4 on); conda-forge and the nvidia channel had them all.
    - pytorch-cuda=X (2.x): the nvidia channel's packages, or conda-forge's for CUDA 12 from the
      dates of eras.FORGE_CUDA_SINCE.

    Otherwise only the CPU build solves."""
    names = {channel_name(c) for c in solving_channels(found)}
    cuda = cuda_version_of(acc) or ""
    if build.form == "cudatoolkit":
        there = cuda in eras.DEFAULTS_CUDATOOLKIT or not cuda.startswith("11.")
        return there or bool(names & {"conda-forge", "nvidia"})
    if build.form != "pytorch-cuda":
        return False
    since = eras.FORGE_CUDA_SINCE.get(cuda)
    return "nvidia" in names or (
        since is not None
        and "conda-forge" in names
        and (as_of is None or as_of >= dt.date.fromisoformat(since))
    )


def _never_built(matrix: Matrix, release: Release, acc: str, build: PipBuild | CondaBuild) -> bool:
    """A known issue says this very build never existed on the channel (an error naming the
    accelerator: `conda-1.9-cudatoolkit-11.3-never-built`), not that a whole route is gone."""
    if not isinstance(build, CondaBuild):
        return False
    issues = issues_for(matrix, release, manager="conda", accelerator=acc, conda=build)
    return any(i.severity == "error" and i.accelerators for i in issues)


def _conda_default(
    found: Evidence,
    release: Release,
    builds: dict[str, PipBuild | CondaBuild],
    report: Report,
    as_of: dt.date | None = None,
) -> str:
    """What `conda install pytorch -c pytorch` got with neither cpuonly nor cudatoolkit.

    On linux-64 the pytorch channel's CPU builds carry the `cpuonly` track feature, which the
    solver avoids, and its CUDA builds of one release share version and build number, so the
    solver took the one with the newest cudatoolkit (inferred from the solver's rules; the
    channel's repodata of the time is not recorded). Where the release has no CUDA build on the
    channel, it is cpu. In the cuda-metapackage era (0.2.0-1.0.0) the CUDA builds other than
    one carried a track feature that their cudaXY metapackage selects: the featureless one (the
    matrix marks it `conda-default`: CUDA 7.5 for 0.2.0, 8.0 for 0.3.x-0.4.0, 9.0 for 0.4.1 and
    1.0.0) is what such a line installed.
    """
    featureless = next(
        (a for a, b in builds.items() if isinstance(b, CondaBuild) and b.conda_default), None
    )
    if featureless is not None and not found.cpuonly and not found.compute:
        others = "/".join(
            "cuda" + a.removeprefix("cu") for a in builds if a.startswith("cu") and a != featureless
        )
        selected = f" (the {others} metapackages select the others)" if others else ""
        report.warnings.append(
            f"{found.source}: pytorch {release.torch} from -c pytorch names no cudaXY "
            f"metapackage: conda installed the channel's featureless build, {featureless}"
            f"{selected}, so project.yaml asks for {featureless}; set accelerators: [cpu] if "
            "the paper ran without a GPU"
        )
        return featureless
    cudas = [
        a
        for a, b in builds.items()
        if a.startswith("cu") and isinstance(b, CondaBuild) and _cuda_solvable(found, b, a, as_of)
    ]
    if found.cpuonly or any(c.accelerator == "cpu" for c in found.compute) or not cudas:
        return "cpu" if "cpu" in builds else next(iter(builds))
    newest = cudas[-1]
    report.warnings.append(
        f"{found.source}: pytorch {release.torch} from -c pytorch names neither cpuonly nor "
        f"cudatoolkit: on linux-64 conda installed the build with the newest cudatoolkit, "
        f"{newest}, so project.yaml asks for {newest} (the solver avoids the cpuonly feature); "
        "set accelerators: [cpu] if the paper ran without a GPU"
    )
    return newest


def _forge_default(
    found: Evidence, release: Release, builds: dict[str, PipBuild | CondaBuild], report: Report
) -> str:
    """What conda-forge's pytorch (or pytorch-gpu) resolved to with no build named: a CUDA build
    where the machine has a GPU (conda's `__cuda`; a pixi manifest declares it in
    [system-requirements], and without it pixi solves for a machine with none), the newest CUDA
    the release was built for within `cuda-version X.*` and the declared `__cuda` (a CUDA 12 or 13
    build needs a driver of that major); cpu where cpuonly-like evidence or no CUDA fits."""
    built = cudas = [a for a in builds if a.startswith("cu")]
    if found.cuda_series is not None:
        cudas = [a for a in cudas if (cuda_version_of(a) or "").split(".")[0] == found.cuda_series]
    if found.system_cuda is not None:
        major = int(found.system_cuda.split(".")[0])
        cudas = [a for a in cudas if int((cuda_version_of(a) or "0").split(".")[0]) <= major]
    pixi_cpu = found.pixi and found.system_cuda is None and not found.gpu_package
    if built and not cudas and not pixi_cpu:
        report.warnings.append(
            f"{found.source}: conda-forge's pytorch {release.torch} was built for "
            f"{versions_text(built)}, none of them within "
            f"{' and '.join(_forge_limits(found))}: the CPU build is what solves there"
        )
    if any(c.accelerator == "cpu" for c in found.compute) or pixi_cpu or not cudas:
        if pixi_cpu and cudas:
            report.warnings.append(
                f"{found.source}: conda-forge's pytorch {release.torch} with no `cuda` in "
                "[system-requirements]: pixi solves for a machine without a GPU, so the CPU "
                'build; add `cuda = "12.0"` (or use pytorch-gpu) if the paper ran on one'
            )
        return "cpu" if "cpu" in builds else next(iter(builds))
    newest = cudas[-1]
    limits = _forge_limits(found)
    report.warnings.append(
        f"{found.source}: conda-forge's pytorch {release.torch} names no CUDA build: the newest "
        f"CUDA it was built for{' within ' + ' and '.join(limits) if limits else ''} is "
        f"{newest}, so project.yaml asks for {newest}; set accelerators: [cpu] if the paper ran "
        "without a GPU"
    )
    return newest


def _forge_limits(found: Evidence) -> list[str]:
    """The bounds a file puts on conda-forge's CUDA build, as words."""
    return [
        *([f"cuda-version {found.cuda_series}.*"] if found.cuda_series else []),
        *([f"__cuda {found.system_cuda}"] if found.system_cuda else []),
    ]


def _extension_build(
    found: Evidence, matrix: Matrix, builds: dict[str, PipBuild | CondaBuild]
) -> tuple[str, str] | None:
    """The build an extension names for torch: (accelerator, page).

    A local label with no page the file installs from (a freeze's `torch-scatter==2.1.0+
    pt112cu113`) says which build the paper had: torch's, since the extension refuses to load
    beside another CUDA major. A page or wheel the file installs from (`-f .../torch-1.7.0+
    cu110.html`, a detectron2 wheel URL) names torch's build only where the file installs no
    torch of its own (the page then names the torch too): pip takes torch from where the file
    says (PyPI's build for a plain `torch==1.7.1`), and conda from its channel, whatever page an
    extension comes from (review_import says where the page is another build's)."""
    labels = [p for p in found.wheel_pages if p[0] == "label"]
    paged = accelerator_from_pages(matrix, labels)
    if paged is None and found.torch is None:
        installed = [*found.indexes, *(p for p in found.wheel_pages if p[0] != "label")]
        paged = accelerator_from_pages(matrix, installed)
    return paged if paged is not None and paged[0] in builds else None


def pick_accelerator(  # noqa: PLR0911 - one return per source of the answer, strongest first
    found: Evidence,
    matrix: Matrix,
    release: Release,
    manager: str,
    evidence: tuple[str, str] | None,
    report: Report,
    as_of: dt.date | None = None,
) -> str:
    src = found.source
    if evidence is not None:
        return evidence[0]
    source = conda_source(found, matrix, release, manager)
    builds = route_builds(matrix, release, manager, source)
    if source == "conda-forge":
        return _forge_default(found, release, builds, report)

    paged = _extension_build(found, matrix, builds)
    if paged is not None:
        said = (
            "-f" if paged[1] in (u for _, u in found.indexes)
            else "the local label's page" if ("label", paged[1]) in found.wheel_pages
            else "the wheel URL's page"
        )  # fmt: skip
        report.warnings.append(
            f"{src}: the compute platform {paged[0]} comes from {said} {paged[1]}"
        )
        return paged[0]
    if manager == "conda" and builds:
        # a build the page lists but the channel never had (1.9.x's cudatoolkit 11.3) is no
        # candidate: the default is the newest of those that existed
        real = {a: b for a, b in builds.items() if not _never_built(matrix, release, a, b)}
        return _conda_default(found, release, real or builds, report, as_of)
    pip = route_builds(matrix, release, "pip")
    stable = _stable_page_build(found, pip)
    if stable is not None:
        asked = found.torch.specifier if found.torch and found.torch.specifier else " (unpinned)"
        if found.torch is not None and found.torch.version:
            asked = f"=={found.torch.version}"
        report.warnings.append(
            f"{src}: torch{asked} with -f whl/torch_stable.html: the page lists every build "
            f"of {release.torch}, a requirement with no local label matches them all, and pip "
            f"takes the greatest version, {stable.torch} (PEP 440 compares local labels as "
            "strings: +rocm above +cu, +cu92 above +cu110; pytorch/pytorch#53821); pin "
            f"torch=={release.torch}+LABEL for another build"
        )
        return stable.accelerator
    default = next((b for b in pip.values() if isinstance(b, PipBuild) and b.pypi_default), None)
    # The torch an image ships has the image's CUDA (NGC); a bare CUDA image's toolkit chooses
    # the build only of a release PyPI never served (the matrix records no PyPI build of it).
    image = found.image_cuda or (found.toolkit_cuda if default is None else None)
    if image is not None:
        wanted = cuda_id(image)
        if wanted in pip or not pip:
            return wanted
        near = nearest_of(wanted, list(pip))
        report.warnings.append(
            f"{src}: the base image has CUDA {image} but torch {release.torch} has no "
            f"{wanted} "
            f"wheels; using {near} (the wheels bundle their own CUDA runtime)"
        )
        return near
    if default is not None:
        if default.accelerator != "cpu":
            index = (
                "no PyTorch index that has it" if indexed_by_pytorch(found) else "no PyTorch index"
            )
            report.warnings.append(
                f"{src}: torch=={release.torch} has no local label and {index}: on linux-64 "
                f"PyPI serves the {default.accelerator} build, so project.yaml asks for "
                f"{default.accelerator}"
            )
        toolkit = cuda_id(found.toolkit_cuda) if found.toolkit_cuda is not None else None
        if toolkit is not None and toolkit != default.accelerator:
            # pip downloads the same wheel whatever CUDA toolkit the image carries: PyPI's torch
            # wheels bring their own CUDA runtime.
            report.warnings.append(
                f"{src}: the base image has CUDA {found.toolkit_cuda}, but pip installs PyPI's "
                f"{default.accelerator} build of torch {release.torch} in it; set accelerators "
                f"to {toolkit} (and pin torch from the PyTorch index) if that is what ran"
            )
        return default.accelerator
    if "cpu" in pip:
        cudas = [a for a in pip if a.startswith("cu")]
        report.warnings.append(
            f"{src}: torch=={release.torch} has no local label and no PyTorch index, and the "
            "matrix does not record which build PyPI served on linux-64; project.yaml asks for "
            "cpu: change accelerators if the paper ran on a GPU (torch "
            f"{release.torch} was built for {', '.join(cudas) or 'no CUDA'})"
        )
        return "cpu"
    return _unrecorded_accelerator(found, matrix, release, pip, report)


def _stable_page_build(found: Evidence, pip: dict[str, PipBuild | CondaBuild]) -> PipBuild | None:
    """The build pip takes for a torch requirement with no local label (`torch==1.8.0`, or
    unpinned) from `-f https://download.pytorch.org/whl/torch_stable.html`, the page that lists
    the wheels of every folder: each labeled build matches, and pip installs the greatest
    version. PEP 440 orders local labels segment by segment, letters as strings, so 1.8.0+rocm4.0.1
    is above 1.8.0+cu111 and 1.2.0+cu92 above 1.2.0+cpu and the plain 1.2.0 (pytorch/pytorch#53821
    and #52571 report exactly this). Only for the releases whose published commands used that
    page (the matrix's rows name it: 1.2.0-1.10.x); None otherwise, or under `===`."""
    pin = found.torch
    if pin is None or pin.label or pin.arbitrary or pin.image or found.torch_manager != "pip":
        return None
    if not any(form == "find-links" and _STABLE_PAGE.search(u) for form, u in found.indexes):
        return None
    rows = [b for b in pip.values() if isinstance(b, PipBuild)]
    if not any(b.url and _STABLE_PAGE.search(b.url) for b in rows):
        return None
    try:
        best = max(rows, key=lambda b: Version(b.torch))
    except InvalidVersion:
        return None
    return best if "+" in best.torch else None


def _unrecorded_accelerator(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    pip: dict[str, PipBuild | CondaBuild],
    report: Report,
) -> str:
    """The matrix has no linux pip row to choose from: take the newest CUDA the release was
    built for on any route (PyPI's linux wheels of that era were CUDA builds), and say it is a
    guess; with no build recorded at all, cpu, said as a choice."""
    src = found.source
    if any(a.startswith("cu") for a in pip):
        # Wheels on download.pytorch.org only (the releases before 0.4 were never on PyPI).
        acc = max((a for a in pip if a.startswith("cu")), key=lambda a: cuda_number(a) or 0)
        report.warnings.append(
            f"{src}: torch=={release.torch} has no local label and no PyTorch index, and torch "
            f"{release.torch} was never on PyPI: its linux-64 wheels are "
            f"{versions_text(list(pip))} builds on download.pytorch.org; project.yaml asks for "
            f"{acc}, the newest CUDA one: change accelerators if the paper used another"
        )
        return acc
    known = [a for a in (*pip, *route_builds(matrix, release, "conda")) if a.startswith("cu")]
    cudas = sorted(set(known), key=lambda a: cuda_number(a) or 0)
    if not cudas:
        report.warnings.append(
            f"{src}: torch=={release.torch} has no local label and no PyTorch index, and the "
            f"matrix records no linux-64 build of torch {release.torch} on any route, so nothing "
            "says which build the paper used; project.yaml asks for cpu: change accelerators "
            "if the paper ran on a GPU"
        )
        return "cpu"
    acc = cudas[-1]
    report.warnings.append(
        f"{src}: torch=={release.torch} has no local label and no PyTorch index, and the matrix "
        f"records no linux-64 pip build of it; project.yaml asks for {acc}, the newest CUDA "
        f"torch {release.torch} was built for (inferred: PyPI's linux wheels of that era were "
        "CUDA builds); change accelerators if the paper used another"
    )
    return acc


def pypi_fallback(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    acc: str,
    evidence: tuple[str, str] | None,
    report: Report,
) -> str | None:
    """An extra index or find-links page that has no build of the release (`torch==2.8.0` with
    `--extra-index-url .../whl/cu121`, whose wheels end at 2.5.1): pip still searches PyPI, finds
    the pin there and installs PyPI's build. None where pip searches no PyPI (an --index-url
    replaces it), where the pin names its build (`+cu121`: no such wheel, the install fails), or
    where PyPI served no build of the release."""
    pin = found.torch
    if (
        manager != "pip"
        or evidence is None
        or not evidence[1].startswith(("--extra-index-url", "--find-links"))
        or pin is None
        or pin.label
        or any(form == "index-url" and not is_pypi(url) for form, url in found.indexes)
    ):
        return None
    pip = route_builds(matrix, release, "pip")
    default = next((b for b in pip.values() if isinstance(b, PipBuild) and b.pypi_default), None)
    if default is None:
        return None
    report.depart(
        found.source, "the compute platform", acc, default.accelerator,
        f"torch {release.torch} was never built for {acc} ({evidence[1]}), and pip searches "
        f"PyPI beside that index: it installs PyPI's build of {release.torch}, "
        f"{default.accelerator}",
    )  # fmt: skip
    return default.accelerator


def move_accelerator(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    acc: str,
    evidence: tuple[str, str] | None,
    report: Report,
) -> str:
    """The file's compute platform was never built for this release: take the nearest one."""
    builds = route_builds(matrix, release, manager)
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    cuda_accs = [a for a in builds if a.startswith("cu")]
    now = (
        nearest_of(acc, cuda_accs)
        if acc.startswith("cu") and cuda_accs
        else nearest_of(acc, list(builds))
    )
    why = evidence[1] if evidence else acc
    built = versions_text(list(builds))
    route = f"{manager} wheels" if manager == "pip" else "conda packages"
    because = (
        f"torch {release.torch} was never built for {acc} ({why}) as {route}; "
        f"it was built for {built}"
    )
    if acc in route_builds(matrix, release, other):
        because += f" (the {other} route has {acc}: set managers: [{other}] to use it)"
    report.depart(found.source, "the compute platform", acc, now, because)
    return now


def _cuda_of(acc: str) -> str:
    return cuda_version_of(acc) or acc


def check_pytorch_cuda(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    acc: str,
    builds: dict[str, PipBuild | CondaBuild],
    report: Report,
) -> None:
    """A `pytorch-cuda=X.Y` that was never published is named, with the versions that were."""
    published = sorted(
        {b.version for b in matrix.conda if b.form == "pytorch-cuda" and b.version},
        key=py_key,
    )
    for why in (c.why for c in found.compute):
        asked = why.removeprefix("pytorch-cuda ") if why.startswith("pytorch-cuda ") else None
        if asked is None or asked in published:
            continue
        build = builds.get(acc)
        now = (
            f"project.yaml asks for {acc}, which torch {release.torch} has as {build.form} "
            f"{_cuda_of(acc)}"
            if isinstance(build, CondaBuild) and build.form != "pytorch-cuda"
            else f"project.yaml asks for {acc}"
        )
        report.warnings.append(
            f"{found.source}: pytorch-cuda={asked} was never published: the pytorch-cuda "
            f"metapackage (-c pytorch -c nvidia) exists for CUDA {', '.join(published)}, so the "
            f"file's conda install could not solve as written; {now}"
        )


def cpu_route(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    manager: Literal["pip", "conda"],
    builds: dict[str, PipBuild | CondaBuild],
    evidence: tuple[str, str] | None,
    report: Report,
) -> tuple[Literal["pip", "conda"], dict[str, PipBuild | CondaBuild]]:
    """A CPU build the file asks for stays a CPU build: the other route's, never a CUDA one.

    (`pytorch-cpu=0.4.1`: the matrix records the pytorch channel's CUDA packages of 0.4.1 only,
    and the CPU wheels of 0.4.1 on download.pytorch.org are the same CPU build.)
    """
    other: Literal["pip", "conda"] = "conda" if manager == "pip" else "pip"
    other_builds = route_builds(matrix, release, other)
    why = evidence[1] if evidence else "cpu"
    route = f"{manager} wheels" if manager == "pip" else "conda packages"
    if "cpu" in other_builds:
        report.depart(
            found.source, "the install route", manager, other,
            f"the file asks for a CPU build ({why}) and the matrix records no CPU build of torch "
            f"{release.torch} as {route} (only {versions_text(list(builds))}); the {other} "
            "route has the CPU build",
        )  # fmt: skip
        return other, other_builds
    report.warnings.append(
        f"{found.source}: the file asks for a CPU build ({why}) but the matrix records none of "
        f"torch {release.torch} on linux-64 (only {versions_text(list(builds))}); project.yaml "
        "keeps cpu: `envgen lock` says whether it resolves"
    )
    return manager, builds
