"""The one-line install commands PyTorch publishes, rebuilt from the matrix (`envgen command`).

Pure: matrix rows -> command text in the published shape (packages first, then the index or
channel flags). It must not run the commands.
"""

from __future__ import annotations

from dataclasses import dataclass

from envgen.errors import UnsupportedCombinationError
from envgen.model.extensions import Target, install_line, pins_for
from envgen.model.matrix import (
    CondaBuild,
    Matrix,
    PipBuild,
    Release,
    compute_sort_key,
    cpython_abi_tags,
)
from envgen.model.spec import did_you_mean
from envgen.model.types import Os, Platform
from envgen.model.variants import (
    issues_for,
    pypi_python_missing,
    resolve_release,
    suggest_accelerator,
)
from envgen.render.environment import CPU_PACKAGE_NAMES, compute_package

OS_PLATFORM: dict[str, Platform] = {
    "linux": "linux-64",
    "windows": "win-64",
    "macos": "osx-arm64",
    "osx": "osx-arm64",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class InstallCommand:
    """A published install command and the facts behind it."""

    text: str
    source: str
    inferred: bool
    warnings: tuple[str, ...] = ()
    # One `pip install` line per `--with` extension, pinned for the same torch and compute.
    extensions: tuple[str, ...] = ()


def pip_command(
    build: PipBuild,
    *,
    with_torchvision: bool = True,
    with_torchaudio: bool = True,
    python: str | None = None,
) -> str:
    """`pip install` of the row's pins; a row that names its torch wheel installs that wheel
    (for `python`, the release's newest when not given) and needs no -f page."""
    direct = build.direct_urls(python) if python is not None else {}
    wheel = direct.get("torch")
    parts = ["pip install", wheel or f"torch=={build.torch}"]
    if with_torchvision and build.torchvision:
        parts.append(direct.get("torchvision") or f"torchvision=={build.torchvision}")
    if with_torchaudio and build.torchaudio:
        parts.append(f"torchaudio=={build.torchaudio}")
    if wheel is None and build.index == "find-links":
        parts.append(f"-f {build.url}")
    elif wheel is None and build.index in ("extra-index-url", "index-url"):
        parts.append(f"--{build.index} {build.url}")
    return " ".join(parts)


def conda_command(
    build: CondaBuild, *, with_torchvision: bool = True, with_torchaudio: bool = True
) -> str:
    parts = ["conda install"]

    # The 1.8.2 LTS commands named the packages without versions (-c pytorch-lts held only 1.8.2).
    def pin(version: str) -> str:
        return f"=={version}" if build.pinned else ""

    names = CPU_PACKAGE_NAMES if build.form == "cpu-package" else {}
    if build.form == "conda-forge":
        parts.append(f"pytorch={build.pytorch}={'cuda*' if build.kind == 'cuda' else 'cpu*'}")
    else:
        parts.append(f"{names.get('pytorch', 'pytorch')}{pin(build.pytorch)}")
    if with_torchvision and build.torchvision:
        parts.append(f"{names.get('torchvision', 'torchvision')}{pin(build.torchvision)}")
    if with_torchaudio and build.torchaudio:
        parts.append(f"torchaudio{pin(build.torchaudio)}")
    parts += compute_package(build)
    parts += [f"-c {ch}" for ch in build.channels]
    return " ".join(parts)


def install_command(
    matrix: Matrix,
    *,
    torch: str,
    compute: str,
    manager: str = "pip",
    os_name: Os | str = "linux",
    with_extensions: tuple[str, ...] = (),
    python: str | None = None,
) -> InstallCommand:
    """The install command for a torch release, compute platform, manager and OS; for `python`
    (a major.minor the release was published for), the release's newest when None.

    Raises:
        UnsupportedCombinationError: naming the compute platforms that were published, or the
            Pythons the release was published for.
    """
    release = resolve_release(torch, matrix, where="--torch")
    if python is not None:
        _check_python(python, release)
    platform = OS_PLATFORM.get(os_name)
    if platform is None:
        msg = (
            f"--os {os_name!r} is not one of linux, windows, macos"
            f"{did_you_mean(os_name, OS_PLATFORM)}"
        )
        raise UnsupportedCombinationError(msg)
    # conda: PyTorch's own channels where they published the release, conda-forge after them.
    source = matrix.default_conda_source(release.torch)
    builds: tuple[PipBuild, ...] | tuple[CondaBuild, ...]
    builds = (
        matrix.pip_builds(release.torch, platform)
        if manager == "pip"
        else matrix.conda_builds(release.torch, platform, source)
    )
    if not builds and platform == "osx-arm64":
        platform = "osx-64"
        builds = (
            matrix.pip_builds(release.torch, platform)
            if manager == "pip"
            else matrix.conda_builds(release.torch, platform, source)
        )
    for b in builds:
        if b.accelerator == compute:
            if python is None:
                # The newest Python the build has (PyPI's files decide where it installs from PyPI).
                fits = [
                    p
                    for p in release.python
                    if not isinstance(b, PipBuild)
                    or not pypi_python_missing(release, b, platform, p)
                ]
                python = fits[-1] if fits else (release.python[-1] if release.python else "3")
            elif isinstance(b, CondaBuild) and b.python and python not in b.python:
                msg = (
                    f"--python {python}: the conda {compute} build of torch {release.torch} "
                    f"({', '.join(b.channels)}) was published for Python {', '.join(b.python)}"
                )
                raise UnsupportedCombinationError(msg, hint="pick one of those Pythons")
            missing = (
                pypi_python_missing(release, b, platform, python)
                if isinstance(b, PipBuild)
                else None
            )
            if missing:
                msg = f"--python {python}: {missing}"
                raise UnsupportedCombinationError(msg, hint="pick a Python PyPI has a wheel for")
            text = pip_command(b, python=python) if isinstance(b, PipBuild) else conda_command(b)
            wheel_warnings: tuple[str, ...] = ()
            if isinstance(b, PipBuild) and b.wheel is not None:
                wheel_warnings = (
                    (
                        f"an equivalent of a prose-only line ('Download and install wheel from "
                        f"{b.url}'): the wheel for Python {python}; for another Python put its "
                        f"tags in place of {cpython_abi_tags(python)} (Pythons: "
                        f"{', '.join(release.python)})"
                    ),
                )
            pins = pins_for(
                matrix,
                with_extensions,
                Target(torch=release.torch, accelerator=compute, python=python, platform=platform),
                where="--with",
            )
            extensions = tuple(install_line(p) for p in pins)
            ext_warnings = (
                *_trap_warnings(matrix, release, compute, b),
                *(
                    f"{p.extension}: inferred, not read from its build matrix (source: {p.source})"
                    for p in pins
                    if p.inferred
                ),
            )
            if b.published and b.published != text:
                # The page's own words; the files envgen writes use the row's pins.
                return InstallCommand(
                    text=b.published,
                    source=b.source,
                    inferred=False,
                    extensions=extensions,
                    warnings=(
                        f"as published; the pinned equivalent envgen writes: {text}",
                        *ext_warnings,
                    ),
                )
            return InstallCommand(
                text=text,
                source=b.source,
                inferred=b.inferred,
                extensions=extensions,
                warnings=(*wheel_warnings, *ext_warnings),
            )
    # In accelerator order (cpu, CUDA, ROCm, xpu), not the matrix file's row order.
    ordered = sorted(builds, key=lambda b: compute_sort_key(b.kind, b.version))
    have: list[str] = list(dict.fromkeys(b.accelerator for b in ordered))
    msg = (
        f"torch {release.torch} was not published for {compute} with {manager} on {os_name}; "
        f"it was published for {', '.join(have) or 'nothing'}{suggest_accelerator(compute, have)}"
    )
    raise UnsupportedCombinationError(msg)


def _check_python(python: str, release: Release) -> None:
    """`--python` is a major.minor the release was published for (releases.yaml's `python`)."""
    parts = python.split(".")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 3 for p in parts):
        msg = f"--python {python!r} is not a major.minor Python version"
        raise UnsupportedCombinationError(
            msg, hint=f"write it as {release.python[-1] if release.python else '3.12'!r}"
        )
    if release.python and python not in release.python:
        msg = (
            f"--python {python}: torch {release.torch} was published for Python "
            f"{', '.join(release.python)}{did_you_mean(python, release.python)}"
        )
        raise UnsupportedCombinationError(
            msg, hint="pick one of those, or a torch release published for that Python"
        )


def _trap_warnings(
    matrix: Matrix, release: Release, compute: str, build: PipBuild | CondaBuild
) -> tuple[str, ...]:
    """The known issues (matrices/known-issues.yaml) of the command printed: a published line
    can be a trap (a CPU build behind a CUDA line, deleted packages), and it is printed as
    published, so what went wrong with it is said beside it."""
    issues = issues_for(
        matrix,
        release,
        manager="pip" if isinstance(build, PipBuild) else "conda",
        accelerator=compute,
        pip=build if isinstance(build, PipBuild) else None,
        conda=build if isinstance(build, CondaBuild) else None,
    )
    return tuple(
        f"known {'trap' if i.severity == 'warning' else 'broken route'} [{i.id}]: {i.message} "
        f"Fix: {i.fix}"
        for i in issues
    )
