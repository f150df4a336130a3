"""Facts about torch releases older than the matrix, and labels `envgen import` must recognise.

`envgen import` reads files of every era; the matrix (matrices/) starts at torch 0.1.12. This module
holds the few facts the importer needs to be honest about what lies outside it: which older
releases and post-releases were real (so a pin of one is reported as real, never as "not a
PyTorch release"), and which conda packages named a compute platform in 2017-2019. It holds data
and pure lookups only: no matrix rows (those live in matrices/), no network, no files.
"""

from __future__ import annotations

import re
from typing import Final

from packaging.version import InvalidVersion, Version

# The previous-versions page's "< 1.0.0" section lists these wheels on download.pytorch.org
# (pytorch/pytorch.github.io@e3f009bbc0d7509ed5c85b633313ec72aa2d1a40:
# _get_started/previous-versions.md, recorded in tests/data/recorded/previous-versions.md). Each
# entry is the release and the version its wheels carry (0.3.0 was published only as 0.3.0.post4).
PRE_MATRIX_RELEASES: Final[dict[str, tuple[str, ...]]] = {
    "0.1.6": ("0.1.6.post17", "0.1.6.post20", "0.1.6.post22"),
    "0.1.7": ("0.1.7.post2",),
    "0.1.8": ("0.1.8.post1",),
    "0.1.9": ("0.1.9.post1", "0.1.9.post2"),
    "0.1.10": ("0.1.10.post1", "0.1.10.post2"),
    "0.1.11": ("0.1.11.post4", "0.1.11.post5"),
    "0.1.12": ("0.1.12.post1", "0.1.12.post2"),
    "0.2.0": ("0.2.0.post1", "0.2.0.post2", "0.2.0.post3"),
    "0.3.0": ("0.3.0.post4",),
    "0.3.1": ("0.3.1",),
}
PRE_MATRIX_SOURCE: Final = (
    "pytorch/pytorch.github.io@e3f009bb:_get_started/previous-versions.md, '< 1.0.0' wheel list"
)

# Post-releases of releases the matrix has: rebuilt wheels published beside the release, whose
# code is the release's. {version: where its wheels were published}.
POST_RELEASES: Final[dict[str, str]] = {
    # quick-start-module.js of the 0.4.1 era (recorded in tests/data/recorded/copies/
    # quick-start-module-0.4.1.js): the Linux cp37 wheels of 0.4.1 are 0.4.1.post2.
    "0.4.1.post2": "download.pytorch.org/whl/<cu80|cu90|cu92|cpu>/, Linux, Python 3.7",
    # PyPI has torch 1.0.1 only (https://pypi.org/simple/torch/, PEP 691, read 2026-12-03);
    # the post2 wheels were on download.pytorch.org, e.g. whl/cpu/torch-1.0.1.post2-cp37-cp37m-
    # linux_x86_64.whl and whl/cu80/torch-1.0.1.post2-cp35-cp35m-linux_x86_64.whl, as public
    # install scripts and Dockerfiles of 2019 name them (inferred: the page is unreachable here).
    "1.0.1.post2": "download.pytorch.org/whl/<cpu|cu80|cu90|cu100>/, Linux; PyPI has 1.0.1 only",
}

# The CUDA 11 cudatoolkits Anaconda's defaults channel carried: up to 11.3.1, none of 11.1-11.2 or
# 11.4-11.7 (ContinuumIO/anaconda-issues#12964, 2022-06-14: "The most recent version that is
# available for Linux and 64-bit Windows is 11.3.1"; conda-forge and nvidia had them). A pytorch
# channel build that needs another one (1.11.0's CUDA 11.5, 1.9.x's 11.1) solves only where the
# file lists conda-forge or nvidia.
DEFAULTS_CUDATOOLKIT: Final = frozenset({"11.0", "11.3"})


# conda-forge's split CUDA 12 packages (cuda-cudart, cuda-libraries, cuda-runtime, libcublas ...),
# which the pytorch channel's pytorch-cuda=12.x depends on, as the nvidia channel's are: with
# conda-forge among a file's channels, a pytorch-cuda=12.x build solves without -c nvidia. The date
# is the first commit of conda-forge/cuda-feedstock's `cuda` metapackage of that minor (which
# requires cuda-runtime and cuda-toolkit of the same version), read from its git history
# (conda-forge/cuda-feedstock@598bc1c 12.0.0, 2023-10-10, to 12.4.0, 2024-03-05): the packages were
# there by then (inferred: they may have come earlier). conda-forge has no split CUDA 11
# packages: pytorch-cuda=11.x needs -c nvidia.
FORGE_CUDA_SINCE: Final[dict[str, str]] = {
    "12.0": "2023-10-10", "12.1": "2023-12-14", "12.2": "2023-12-18", "12.3": "2024-01-19",
    "12.4": "2024-03-05", "12.5": "2024-05-21", "12.6": "2024-08-02", "12.8": "2025-01-23",
    "12.9": "2025-05-01",
}  # fmt: skip


# The pytorch channel's 2017-2019 metapackages that select a CUDA build: cuda80 = CUDA 8.0
# (previous-versions '< 1.0.0 / Via conda': `conda install pytorch=0.4.1 cuda80 -c pytorch`).
_CUDA_META: Final = re.compile(r"^cuda(\d)(\d)$|^cuda(1\d)(\d)$")

# A torch wheel URL's folder on download.pytorch.org names its build (whl/cu80/torch-0.3.1-...).
WHEEL_FOLDER: Final = re.compile(r"download\.pytorch\.org/whl/(cpu|cu\d{2,3})/[^/]+\.whl")

# The python3 each Ubuntu release ships (`apt install python3`), from its python3 package:
# https://packages.ubuntu.com/<xenial|bionic|focal|jammy|noble>/python3 (3.5.1-3, 3.6.7-1~18.04,
# 3.8.2-0ubuntu2, 3.10.6-1~22.04, 3.12.3-0ubuntu1).
UBUNTU_PYTHON3: Final[dict[str, str]] = {
    "16.04": "3.5",
    "18.04": "3.6",
    "20.04": "3.8",
    "22.04": "3.10",
    "24.04": "3.12",
    # The interim releases' python3 (packages.ubuntu.com/<yakkety|zesty|artful|cosmic|disco|eoan|
    # groovy|hirsute|impish|kinetic|lunar|mantic|oracular|plucky>/python3; inferred: those pages
    # are not reachable from here, and zesty's 3.5 is confirmed by python-dev's "Py 3.6 on Ubuntu
    # Zesty" thread, https://mail.python.org/pipermail/python-dev/2017-February/147347.html).
    "16.10": "3.5",
    "17.04": "3.5",
    "17.10": "3.6",
    "18.10": "3.6",
    "19.04": "3.7",
    "19.10": "3.7",
    "20.10": "3.8",
    "21.04": "3.9",
    "21.10": "3.9",
    "22.10": "3.10",
    "23.04": "3.11",
    "23.10": "3.11",
    "24.10": "3.12",
    "25.04": "3.13",
}
# Ubuntu's code names (https://wiki.ubuntu.com/Releases): `FROM ubuntu:jammy` is 22.04.
UBUNTU_CODENAMES: Final[dict[str, str]] = {
    "xenial": "16.04", "yakkety": "16.10", "zesty": "17.04", "artful": "17.10",
    "bionic": "18.04", "cosmic": "18.10", "disco": "19.04", "eoan": "19.10", "focal": "20.04",
    "groovy": "20.10", "hirsute": "21.04", "impish": "21.10", "jammy": "22.04",
    "kinetic": "22.10", "lunar": "23.04", "mantic": "23.10", "noble": "24.04",
    "oracular": "24.10", "plucky": "25.04",
}  # fmt: skip
# An image naming its Ubuntu release: ubuntu:22.04, nvidia/cuda:11.8.0-devel-ubuntu22.04,
# rocm/dev-ubuntu-22.04, rocm/pytorch:rocm6.0_ubuntu22.04_py3.10; or ubuntu:jammy.
_UBUNTU_IN_IMAGE: Final = re.compile(r"ubuntu[:_-]?(\d\d\.\d\d)(?!\d)")
_UBUNTU_CODENAME_TAG: Final = re.compile(r"^(?:[\w.-]+/)?ubuntu:(\w+)")


def image_ubuntu(image: str) -> str | None:
    """The Ubuntu release an image reference names (in its name or tag), or None.

    >>> image_ubuntu("rocm/dev-ubuntu-22.04"), image_ubuntu("nvidia/cuda:11.8.0-devel-ubuntu20.04")
    ('22.04', '20.04')
    >>> image_ubuntu("ubuntu:jammy-20240125"), image_ubuntu("ubuntu:18.04")
    ('22.04', '18.04')
    >>> image_ubuntu("debian:12") is None
    True
    """
    m = _UBUNTU_IN_IMAGE.search(image)
    if m is not None:
        return m.group(1)
    m = _UBUNTU_CODENAME_TAG.match(image)
    if m is not None:
        return UBUNTU_CODENAMES.get(m.group(1).split("-")[0].lower())
    return None


# The Ubuntu release of an nvidia/cuda (or nvidia/cudagl) tag that names no OS (`9.0-devel`): the
# Docker Hub pages of those images listed the OS-less tag beside its ubuntu tag (9.0-devel,
# 9.0-devel-ubuntu16.04; 10.0-devel, 10.0-devel-ubuntu18.04). Inferred: those pages are not
# reachable from here; 11.x and later are left out (their OS-less tags moved between releases).
CUDA_IMAGE_UBUNTU: Final[dict[str, str]] = {
    "8.0": "16.04", "9.0": "16.04", "9.1": "16.04", "9.2": "16.04",
    "10.0": "18.04", "10.1": "18.04", "10.2": "18.04",
}  # fmt: skip
# Debian's python3 by release number and codename (packages.debian.org/<codename>/python3:
# 3.5.3-1, 3.7.3-1, 3.9.2-3, 3.11.2-1, 3.13.5-1; inferred, as above: not reachable from here).
DEBIAN_PYTHON3: Final[dict[str, str]] = {
    "9": "3.5", "stretch": "3.5",
    "10": "3.7", "buster": "3.7",
    "11": "3.9", "bullseye": "3.9",
    "12": "3.11", "bookworm": "3.11",
    "13": "3.13", "trixie": "3.13",
}  # fmt: skip
# Ubuntu releases whose `python` / `python-pip` packages are Python 2.7 (20.04 renamed them
# python2 / dropped python-pip): a Dockerfile that installs only those runs pip under 2.7.
PYTHON2_UBUNTU: Final = frozenset({"14.04", "16.04", "16.10", "17.04", "17.10", "18.04", "18.10",
                                   "19.04", "19.10"})  # fmt: skip

# The LTS channel and index: every release there is an LTS release (1.8.2 is the only one;
# previous-versions@e3f009bb "v1.8.2 with LTS support": -c pytorch-lts, whl/lts/1.8/).
LTS_CHANNEL: Final = "pytorch-lts"
LTS_INDEX: Final = re.compile(r"download\.pytorch\.org/whl/lts/")


# conda packages named for the CUDA they were built for whose release recipes depend on that
# cudatoolkit, so conda takes the pytorch build of that CUDA beside them: dglteam's dgl-cudaX.Y
# from 0.6.1 on (`run: - cudatoolkit {{ CUDA_VER }} # [use_cuda]`,
# dmlc/dgl@d4a1be3266857c963e4a8e76746baeba3be8f369:conda/dgl/meta.yaml on 0.6.x, kept on every
# release branch since, e.g. dmlc/dgl@75d23de415:conda/dgl/meta.yaml on 0.9.x); before 0.6.1
# the recipe named no cudatoolkit (the package then needed the system's CUDA runtime).
_CUDA_NAMED: Final = ((re.compile(r"^dgl-cuda(\d+)\.(\d+)$"), "0.6.1"),)


def cuda_named(name: str, version: str | None) -> str | None:
    """The CUDA a conda package named for it pins through its cudatoolkit dependency, or None
    (another package, or a release older than the one whose recipe added the dependency).

    >>> cuda_named("dgl-cuda10.2", None), cuda_named("dgl-cuda11.3", "0.9.1")
    ('10.2', '11.3')
    >>> cuda_named("dgl-cuda10.2", "0.4.3post2"), cuda_named("magma-cuda102", None)
    (None, None)
    """
    for pattern, first in _CUDA_NAMED:
        m = pattern.match(name)
        if m is None:
            continue
        if version is not None:
            try:
                if Version(version) < Version(first):
                    return None
            except InvalidVersion:
                return None
        return f"{m.group(1)}.{m.group(2)}"
    return None


def cuda_meta(name: str) -> str | None:
    """The CUDA version a `cudaXY` conda metapackage selects, or None.

    >>> cuda_meta("cuda80"), cuda_meta("cuda92"), cuda_meta("cuda100"), cuda_meta("cudnn")
    ('8.0', '9.2', '10.0', None)
    """
    m = _CUDA_META.match(name)
    if m is None:
        return None
    major, minor = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return f"{major}.{minor}"


def pre_matrix_release(version: str) -> str | None:
    """The pre-0.4 release a version belongs to (its wheels' version or the release itself).

    >>> pre_matrix_release("0.3.1"), pre_matrix_release("0.3.0.post4"), pre_matrix_release("0.3")
    ('0.3.1', '0.3.0', None)
    """
    for release, wheels in PRE_MATRIX_RELEASES.items():
        if version == release or version in wheels:
            return release
    return None
