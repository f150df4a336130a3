"""The environment a base image gives a file that starts from it: a Dockerfile's FROM, a CI
job's image, a definition file's `From:`, a script's `docker run`: the torch, CUDA and python
pytorch/pytorch, NVIDIA's NGC, nvidia/cuda, continuumio and python images ship."""

from __future__ import annotations

import re
from typing import Final

from packaging.version import Version

from envgen.repro import eras
from envgen.repro.base_images import conda_python, ngc_pytorch
from envgen.repro.importer.evidence import (
    Compute,
    Evidence,
    Pin,
    cuda_id,
    major_minor,
    set_python,
    set_torch,
)
from envgen.repro.reading import excerpt

# A tag word `pythonX.Y` (`-`/`_`-delimited): the image's own python, as its name says.
_TAG_PYTHON: Final = re.compile(r"(?:^|[-_])python(\d\.\d+)(?=[-_.]|$)")


# Images whose PATH has the CUDA compiler: the -devel tags of nvidia/cuda and pytorch/pytorch
# (https://hub.docker.com/r/nvidia/cuda: "devel: extends the runtime image by adding the compiler
# toolchain"), and NGC's PyTorch images, which carry the whole toolkit.
_HAS_NVCC: Final = re.compile(
    r"(?i)^(?:[\w.-]+/)*(?:cuda|pytorch)[\w.-]*:[^/\s]*devel|^nvcr\.io/nvidia/pytorch:"
)


def from_image(image: str, found: Evidence, where: str) -> None:
    # A reference pinned by digest (name:tag@sha256:...) is still read by its name and tag: the
    # digest only fixes which push of that tag is pulled.
    found.nvcc = _HAS_NVCC.search(image) is not None  # a Dockerfile's, definition file's, job's
    repo, _, tag = image.partition("@")[0].partition(":")
    repo = repo.removeprefix("docker.io/").removeprefix("library/")
    if repo == "pytorch/pytorch":
        # 1.9.0-cuda11.1-cudnn8-runtime; the 2018 tags name the CUDA major only (0.4.1-cuda9-...).
        m = re.match(
            r"^(\d+\.\d+(?:\.\d+)?)[-_]cuda(\d+(?:\.\d+)?)[-_]cudnn[\d.]+[-_](runtime|devel)$", tag
        )
        if m:
            # A two-part tag (1.5-cuda10.1-...) is the image pushed at the X.Y.0 release and
            # never rebuilt: patch releases got their own three-part tags (1.0.1-cuda10.0-...,
            # 1.5.1-cuda10.1-..., both used in public Dockerfiles), so `1.5` is 1.5.0, not the
            # newest 1.5.z (inference from the tag scheme; Docker Hub's tag list is the source).
            cuda = m.group(2) if "." in m.group(2) else f"{m.group(2)}.0"
            _ships_torch(image, m.group(1), cuda_id(cuda), found, where, where)
        elif tag == "latest" or (tag == "" and "@" not in image):
            # `latest` (Docker's tag when none is given) moves with each release: when the file
            # was written it was the newest release's image, so its torch is read as unpinned
            # (the newest as of the file's date, PyPI's build: the default CUDA the release's
            # runtime image shipped; an inference from the tag's history on Docker Hub).
            found.torch = Pin(where=f"{where} (pytorch/pytorch:latest)", image=image)
            found.torch_manager = "pip"
            found.interpreter_image = image
            found.companions.setdefault("torchvision", Pin(where=where))
            found.warnings.append(
                f"{where}: FROM {excerpt(image)}: `latest` names no release; read as the newest "
                "torch as of the file's date (pin a tag such as "
                "pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime)"
            )
        else:
            found.problems.append(
                f"{where}: FROM {excerpt(image)}: the tag names no torch release and CUDA version "
                "(expected e.g. pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime); pin one"
            )
    elif (
        repo.rsplit("/", 1)[-1] == "pytorch"
        and repo != "nvcr.io/nvidia/pytorch"  # NGC's YY.MM tags: base-images.yaml below
        and (m := _TORCH_TAG.match(tag)) is not None
    ):
        _other_pytorch_image(image, tag, m.group(1), found, where)
    elif repo == "nvcr.io/nvidia/pytorch":
        row = ngc_pytorch(tag)
        if row is None:
            found.warnings.append(
                f"{where}: FROM {excerpt(image)}: matrices/base-images.yaml has no row for this "
                "tag, so its torch, CUDA and python are unknown; pin torch in the file or add the "
                "row from NVIDIA's PyTorch release notes"
            )
            return
        shipped = Version(row.torch)
        said = f"{where} (image {excerpt(image)}: torch {row.torch}, CUDA {row.cuda})"
        set_torch(found, "pip", shipped.public, "", where=said, label=None)
        if found.torch is not None:
            found.torch.image = image
        found.image_cuda = major_minor(row.cuda)
        set_python(found, row.python, f"{where} (image {excerpt(image)})")
    elif repo in {"nvidia/cuda", "nvidia/cudagl"}:
        m = re.match(r"^(\d+\.\d+)", tag)
        if m:
            found.toolkit_cuda = m.group(1)
            if (
                not re.search(r"ubuntu|centos|rocky|ubi|debian", tag)
                and m.group(1) in eras.CUDA_IMAGE_UBUNTU
            ):
                image = (
                    f"{image}-ubuntu{eras.CUDA_IMAGE_UBUNTU[m.group(1)]}"  # the tag's default OS
                )
    elif repo.startswith("continuumio/"):
        _conda_image(repo, tag, found, where)
    _image_python(image, repo, tag, found, where)


# Another publisher's PyTorch image (floydhub/pytorch:0.4.1-gpu.cuda9cudnn7-py3.34,
# anibali/pytorch:1.5.0-cuda10.2-ubuntu18.04): the tag opens with the torch it ships.
# A torch release's number (0.x-2.x): an NGC mirror's 22.12 is a date, not a torch.
_TORCH_TAG: Final = re.compile(r"^([0-2]\.\d+(?:\.\d+)?)(?![\w.])")
_TAG_CUDA: Final = re.compile(r"(?i)cuda[-_]?(\d+(?:\.\d+)?)")


def _other_pytorch_image(image: str, tag: str, version: str, found: Evidence, where: str) -> None:
    """An image named pytorch from another publisher: its tag's torch (`1.5` is 1.5.0, as for
    pytorch/pytorch's two-part tags) as pip's, and the CUDA (`cuda9` is 9.0) or CPU build the
    tag names; a tag naming neither leaves the build to the release's default. Read from the
    tag's words (`cpu`, `nocuda`; floydhub's tags without `gpu`), an inference: the publisher's
    Dockerfile is the source."""
    said = f"{where} (image {excerpt(image)}: the tag names torch {version})"
    cuda = _TAG_CUDA.search(tag)
    if cuda is not None:
        number = cuda.group(1) if "." in cuda.group(1) else f"{cuda.group(1)}.0"
        build: str | None = cuda_id(number)
    elif re.search(r"(?i)(?<![a-z])(?:cpu|nocuda)(?![a-z])", tag) or (
        image.startswith("floydhub/") and "gpu" not in tag.lower()
    ):  # floydhub/pytorch:1.0.0-py3.38 is its CPU image, -gpu.cuda9... its GPU one
        build = "cpu"
    else:
        build = None
    _ships_torch(image, version, build, found, where, said)


def _ships_torch(
    image: str, version: str, build: str | None, found: Evidence, where: str, said: str
) -> None:
    """An image that ships a torch (a two-part tag is the X.Y.0 image) as pip's, its `build`
    (none: the release's default), its interpreter, and torchvision: every such image ships it;
    torchaudio only where the file asks."""
    version = version if version.count(".") == 2 else f"{version}.0"
    set_torch(found, "pip", version, "", where=said, label=None)
    if found.torch is not None:
        found.torch.image = image
    found.interpreter_image = image
    found.companions.setdefault("torchvision", Pin(where=where))
    if build is not None:
        found.compute.append(Compute(build, f"image {image}", "image"))


def _image_python(image: str, repo: str, tag: str, found: Evidence, where: str) -> None:
    """The distro's python3 an image carries (Ubuntu, Debian), or the python its name states
    (python:3.5, a tag's `python3.10`)."""
    ubuntu = eras.image_ubuntu(image)
    debian = tag.split("-", 1)[0] if repo == "debian" else ""
    if ubuntu is not None and ubuntu in eras.UBUNTU_PYTHON3:
        found.distro_python = (f"Ubuntu {ubuntu}", eras.UBUNTU_PYTHON3[ubuntu])
    elif debian in eras.DEBIAN_PYTHON3:
        found.distro_python = (f"Debian {debian}", eras.DEBIAN_PYTHON3[debian])
    elif re.search(r"(?:^|[-_])python$", repo.rsplit("/", 1)[-1]):
        # python:3.5, circleci/python:3.6.4, cimg/python, amazon/aws-lambda-python:3.8
        m = re.match(r"^(\d\.\d+)", tag)
        if m:
            set_python(found, m.group(1), f"{where} (image {image})")
    elif m := _TAG_PYTHON.search(tag):
        # Another image whose tag names its interpreter (gpu:python3.10_cuda11.8_opencv).
        set_python(found, m.group(1), f"{where} (image {excerpt(image)}: the tag names it)")


def _conda_image(repo: str, tag: str, found: Evidence, where: str) -> None:
    """continuumio/miniconda3:4.11.0: the image's base environment is on PATH, so its python
    (matrices/conda-installers.yaml) is the one pip runs in unless the file names another."""
    row = conda_python(f"{repo}:{tag}")
    if row is not None:
        said = f"{where} (image {repo}:{excerpt(tag)}: python {row.python}, conda-installers.yaml)"
        found.conda_base = found.conda_base or (row.python, said)
