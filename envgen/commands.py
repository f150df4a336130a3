"""The one-line install commands PyTorch publishes, rebuilt from the matrix (`envgen command`).

Pure: matrix rows -> command text in the published shape (packages first, then the index or
channel flags). It must not run the commands.
"""

from __future__ import annotations

from dataclasses import dataclass

from envgen._types import Os, Platform
from envgen.errors import UnsupportedCombinationError
from envgen.extensions import Target, install_line, pins_for
from envgen.matrix import CondaBuild, Matrix, PipBuild
from envgen.renderers.environment import compute_package
from envgen.spec import did_you_mean
from envgen.variants import resolve_release, suggest_accelerator

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
    build: PipBuild, *, with_torchvision: bool = True, with_torchaudio: bool = True
) -> str:
    parts = ["pip install", f"torch=={build.torch}"]
    if with_torchvision and build.torchvision:
        parts.append(f"torchvision=={build.torchvision}")
    if with_torchaudio and build.torchaudio:
        parts.append(f"torchaudio=={build.torchaudio}")
    if build.index == "find-links":
        parts.append(f"-f {build.url}")
    elif build.index in ("extra-index-url", "index-url"):
        parts.append(f"--{build.index} {build.url}")
    return " ".join(parts)


def conda_command(
    build: CondaBuild, *, with_torchvision: bool = True, with_torchaudio: bool = True
) -> str:
    parts = ["conda install"]
    if build.form == "conda-forge":
        parts.append(f"pytorch={build.pytorch}={'cuda*' if build.kind == 'cuda' else 'cpu*'}")
    else:
        parts.append(f"pytorch=={build.pytorch}")
    if with_torchvision and build.torchvision:
        parts.append(f"torchvision=={build.torchvision}")
    if with_torchaudio and build.torchaudio:
        parts.append(f"torchaudio=={build.torchaudio}")
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
) -> InstallCommand:
    """The install command for a torch release, compute platform, manager and OS.

    Raises:
        UnsupportedCombinationError: naming the compute platforms that were published.
    """
    release = resolve_release(torch, matrix, where="--torch")
    platform = OS_PLATFORM.get(os_name)
    if platform is None:
        msg = (
            f"--os {os_name!r} is not one of linux, windows, macos"
            f"{did_you_mean(os_name, OS_PLATFORM)}"
        )
        raise UnsupportedCombinationError(msg)
    builds: tuple[PipBuild, ...] | tuple[CondaBuild, ...]
    builds = (
        matrix.pip_builds(release.torch, platform)
        if manager == "pip"
        else matrix.conda_builds(release.torch, platform)
    )
    if not builds and platform == "osx-arm64":
        platform = "osx-64"
        builds = (
            matrix.pip_builds(release.torch, platform)
            if manager == "pip"
            else matrix.conda_builds(release.torch, platform)
        )
    for b in builds:
        if b.accelerator == compute:
            text = pip_command(b) if isinstance(b, PipBuild) else conda_command(b)
            python = release.python[-1] if release.python else "3"
            pins = pins_for(
                matrix,
                with_extensions,
                Target(torch=release.torch, accelerator=compute, python=python, platform=platform),
                where="--with",
            )
            return InstallCommand(
                text=text,
                source=b.source,
                inferred=b.inferred,
                extensions=tuple(install_line(p) for p in pins),
                warnings=tuple(
                    f"{p.extension}: inferred, not read from its build matrix (source: {p.source})"
                    for p in pins
                    if p.inferred
                ),
            )
    have: list[str] = [b.accelerator for b in builds]
    msg = (
        f"torch {release.torch} was not published for {compute} with {manager} on {os_name}; "
        f"it was published for {', '.join(have) or 'nothing'}{suggest_accelerator(compute, have)}"
    )
    raise UnsupportedCombinationError(msg)
