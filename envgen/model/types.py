"""Closed sets and validated string types shared by every stage. No logic beyond constants."""

from __future__ import annotations

from typing import Final, Literal, NewType, get_args

Platform = Literal["linux-64", "linux-aarch64", "osx-64", "osx-arm64", "win-64"]
PLATFORMS: Final[tuple[Platform, ...]] = get_args(Platform)

Manager = Literal["pip", "conda"]
MANAGERS: Final[tuple[Manager, ...]] = get_args(Manager)

ComputeKind = Literal["cpu", "cuda", "rocm", "xpu"]
COMPUTE_KINDS: Final[tuple[ComputeKind, ...]] = get_args(ComputeKind)

# How a pip build was published.
IndexForm = Literal["pypi", "find-links", "extra-index-url", "index-url"]
INDEX_FORMS: Final[tuple[IndexForm, ...]] = get_args(IndexForm)

# How a conda build selects its compute platform.
# cpu-package: the 1.0-1.1 CPU packages named pytorch-cpu / torchvision-cpu (with cpuonly).
CondaForm = Literal[
    "cudatoolkit", "pytorch-cuda", "cpuonly", "cuda-meta", "none", "conda-forge", "cpu-package"
]
CONDA_FORMS: Final[tuple[CondaForm, ...]] = get_args(CondaForm)

# Where an extension's wheels live for an era of torch releases (extensions.yaml `form`).
ExtensionForm = Literal["find-links", "extra-index-url", "pypi", "pytorch-index", "direct-url"]

# Where a conda build comes from: PyTorch's own channels (pytorch, pytorch-lts, nvidia; up to 2.5)
# or conda-forge's pytorch-cpu-feedstock builds.
CondaSource = Literal["pytorch", "conda-forge"]
CONDA_SOURCES: Final[tuple[CondaSource, ...]] = get_args(CondaSource)

Os = Literal["linux", "windows", "macos"]
PLATFORM_OS: Final[dict[Platform, Os]] = {
    "linux-64": "linux",
    "linux-aarch64": "linux",
    "osx-64": "macos",
    "osx-arm64": "macos",
    "win-64": "windows",
}

Resolver = Literal["uv", "pip-tools"]
RESOLVERS: Final[tuple[Resolver, ...]] = get_args(Resolver)

# How conda environments are solved and installed (rattler in-process; the others as tools).
CondaTool = Literal["rattler", "conda", "mamba", "micromamba"]
CONDA_TOOLS: Final[tuple[CondaTool, ...]] = get_args(CondaTool)

# The packages a PyTorch release pins together (one row of matrices/releases.yaml).
TORCH_FAMILY: Final = ("torch", "torchvision", "torchaudio")

# "cpu", "cu118", "rocm6.1", "xpu": built from (kind, version) by model.matrix.accelerator_id;
# read back only by model.matrix.cuda_of (a user's `cu116`, nearest-version suggestions).
AcceleratorId = NewType("AcceleratorId", str)
# "cu118" or "cu118-py310-linux-64": the directory name under environments/<...>/.
VariantId = NewType("VariantId", str)
NormalizedName = NewType("NormalizedName", str)

PYTORCH_WHL_ROOT: Final = "https://download.pytorch.org/whl"
PYPI_SIMPLE: Final = "https://pypi.org/simple"
# Where conda channels live by name (ENVGEN_CONDA_CHANNEL_ALIAS stands in for it).
ANACONDA: Final = "https://conda.anaconda.org"
