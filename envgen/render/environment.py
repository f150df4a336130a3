"""Variant -> conda environment.yml text. Pure.

Channels and packages exactly as PyTorch published them for the release (`cudatoolkit=X.Y`,
`pytorch-cuda=X.Y`, `cpuonly`, the `cuda100` metapackages, or conda-forge's `cuda-version`), python
pinned, the user's extra channels and packages, and a pip: section for PyPI-only requirements.
It must not solve anything. Values reach the file only through the YAML emitter.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

from envgen.model.matrix import CondaBuild
from envgen.model.variants import Variant, conda_pins
from envgen.render.header import Header
from envgen.render.requirements import pip_section

if TYPE_CHECKING:
    import yaml

# The 1.0-1.1 CPU packages on the pytorch channel (form cpu-package).
CPU_PACKAGE_NAMES: Final[dict[str, str]] = {
    "pytorch": "pytorch-cpu",
    "torchvision": "torchvision-cpu",
}


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
    if build.form in ("cpuonly", "cpu-package"):
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
        if build.form == "cpu-package" and name in CPU_PACKAGE_NAMES:
            # 1.0-1.1 published their CPU builds under their own names.
            out.append(f"{CPU_PACKAGE_NAMES[name]}=={version}")
        elif name == "pytorch" and build.form == "conda-forge":
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


@functools.cache
def _indented_dumper() -> type[yaml.SafeDumper]:
    """SafeDumper that indents block sequences under their key (`  - x`), as conda writes them.

    Made on first use: PyYAML (~10 ms) loads only when a conda side is rendered, not for every
    `lock` / `check --pins-only` of a pip-only spec.
    """
    import yaml  # noqa: PLC0415 - only when a document is dumped

    class IndentedDumper(yaml.SafeDumper):
        # PyYAML's signature; `indentless` is what this subclass overrides.
        def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:  # noqa: ARG002
            super().increase_indent(flow, False)

    return IndentedDumper


def yaml_block(document: dict[str, object]) -> str:
    """`document` through the YAML emitter: every value quoted as YAML needs, keys in order.

    >>> print(yaml_block({"dependencies": ["ffmpeg", {"pip": ["a: b", "c # d"]}]}), end="")
    dependencies:
      - ffmpeg
      - pip:
          - 'a: b'
          - 'c # d'
    """
    import yaml  # noqa: PLC0415 - only when a document is dumped

    text: str = yaml.dump(
        document,
        Dumper=_indented_dumper(),
        sort_keys=False,
        default_flow_style=False,
        width=1 << 16,
        allow_unicode=True,
    )
    return text


def render_environment(variant: Variant, *, header: Header) -> str:
    """Render environment.yml for the variant's conda side.

    The body is written by the YAML emitter, never by pasting values into a template, so no
    value (a spec's conda dependency or pip requirement) can add keys or list items.
    """
    deps: list[object] = list(dependencies(variant))
    # The extensions' index lines first, then the requirements (extension pins included).
    pip = pip_section(variant)
    if pip:
        deps += ["pip", {"pip": pip}]
    document: dict[str, object] = {
        "name": f"{variant.project}-{variant.id}",
        "channels": channels(variant),
        "dependencies": deps,
    }
    return "".join(f"# {line}\n" for line in header.lines()) + yaml_block(document)
