"""Variant -> conda environment.yml text. Pure.

Channels and packages exactly as PyTorch published them for the release (`cudatoolkit=X.Y`,
`pytorch-cuda=X.Y`, `cpuonly`, the `cuda100` metapackages, or conda-forge's `cuda-version`), python
pinned, the user's extra channels and packages, and a pip: section for PyPI-only requirements.
It must not solve anything.
"""

from __future__ import annotations

from envgen.matrix import CondaBuild
from envgen.renderers import Header, render_template
from envgen.renderers.requirements import pip_section
from envgen.variants import Variant, conda_pins


def _conda_build(variant: Variant) -> CondaBuild:
    """The variant's conda build; only variants with a conda side reach this renderer."""
    if variant.conda is None:
        msg = f"internal error: variant {variant.id} has no conda build to render"
        raise RuntimeError(msg)
    return variant.conda


def compute_package(build: CondaBuild) -> list[str]:
    """The package(s) that select the compute platform, as published."""
    if build.form == "cudatoolkit":
        return [f"cudatoolkit={build.version}"]
    if build.form == "pytorch-cuda":
        return [f"pytorch-cuda={build.version}"]
    if build.form == "cpuonly":
        return ["cpuonly"]
    if build.form == "cuda-meta":
        if build.version is None:
            msg = "internal error: a cuda-meta conda build has no version"
            raise RuntimeError(msg)
        return ["cuda" + build.version.replace(".", "")]
    if build.form == "conda-forge" and build.kind == "cuda":
        return [f"cuda-version={build.version}"]
    return []


def torch_packages(variant: Variant) -> list[str]:
    """pytorch / torchvision / torchaudio specs for the conda side."""
    build = _conda_build(variant)
    pins = conda_pins(variant)
    out: list[str] = []
    for name, version in pins.items():
        if name == "pytorch" and build.form == "conda-forge":
            # conda-forge has cpu and cuda builds of one version: select by build string.
            out.append(f"pytorch={version}={'cuda*' if build.kind == 'cuda' else 'cpu*'}")
        else:
            out.append(f"{name}=={version}")
    return out


def channels(variant: Variant) -> list[str]:
    """Published channels first (their order matters), then the user's, without repeats."""
    out: list[str] = []
    for ch in (*_conda_build(variant).channels, *variant.conda_channels):
        if ch not in out:
            out.append(ch)
    return out


def dependencies(variant: Variant) -> list[str]:
    deps = [
        f"python={variant.python}",
        *torch_packages(variant),
        *compute_package(_conda_build(variant)),
    ]
    deps += list(variant.conda_extra)
    return deps


def render_environment(variant: Variant, *, header: Header) -> str:
    """Render environment.yml for the variant's conda side."""
    return render_template(
        "environment.yml.j2",
        header=header.lines(),
        name=f"{variant.project}-{variant.id}",
        channels=channels(variant),
        dependencies=dependencies(variant),
        pip=pip_section(variant),
    )
