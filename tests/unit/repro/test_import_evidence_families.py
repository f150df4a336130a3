"""envgen import: evidence a file gives through packages other than torch (a CUDA-named conda
package, a companion whose wheel pins torch), and the channel a conda listing's build strings
name.

Expected answers from primary facts: dglteam's dgl-cudaX.Y recipes depend on `cudatoolkit X.Y`
from dgl 0.6.1 on (dmlc/dgl@d4a1be3266857c963e4a8e76746baeba3be8f369:conda/dgl/meta.yaml) and
pytorch 1.9.0 had conda CUDA builds for 10.2 and 11.1 (`envgen matrix show 1.9.0`); the pytorch
channel's build strings read py3.7_cuda10.0.130_cudnn7.4.1_1 / py3.8_cpu_0, Anaconda's end in
a hash (cuda100py36h938c94c_0), and the pytorch channel's packages before 1.5.1 are deleted,
so such an environment is rebuilt from the pip wheels of the same CUDA.
"""

from __future__ import annotations

import datetime as dt

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


ENV = """\
name: graphs
channels: [pytorch, dglteam, defaults]
dependencies:
  - python=3.7.11
  - pytorch=1.9.0
  - {dgl}
  - numpy=1.20.3
"""


@pytest.mark.parametrize(
    ("dgl", "accelerators"),
    [
        # Unpinned: the newest dgl-cuda10.2 (0.9.x) depends on cudatoolkit 10.2.
        ("dgl-cuda10.2", ["cu102"]),
        ("dgl-cuda11.1=0.7.2", ["cu111"]),
        # 0.4.3post2's recipe named no cudatoolkit: the newest CUDA build that solves from these
        # channels (1.9.0's 11.1 needs cudatoolkit 11.1, never in defaults: 10.2).
        ("dgl-cuda10.2=0.4.3post2", ["cu102"]),
    ],
)
def test_a_cuda_named_conda_package_selects_pytorchs_cuda_build(
    matrix: Matrix, dgl: str, accelerators: list[str]
) -> None:
    result = import_text(ENV.format(dgl=dgl), filename="environment.yml", matrix=matrix)
    assert result.project["accelerators"] == accelerators
    assert result.project["managers"] == ["conda"]
    conda = result.project["conda"]
    assert isinstance(conda, dict)
    assert dgl in conda["dependencies"]


EXPORT = """\
# This file may be used to create an environment using:
# $ conda create --name <env> --file <this file>
# platform: linux-64
cuda100=1.0=0
numpy=1.15.4=py37h1d66e8a_0
python=3.7.1=h0371630_3
{pytorch}
torchvision=0.2.1=py37_1
"""


def test_a_pytorch_channel_build_in_an_unchanneled_export_is_the_pytorch_channels(
    matrix: Matrix,
) -> None:
    """`conda list --export` records no channels; the build string says the pytorch channel,
    whose 1.0.0 packages are deleted: the pip wheels of the same CUDA (cu100)."""
    result = import_text(
        EXPORT.format(pytorch="pytorch=1.0.0=py3.7_cuda10.0.130_cudnn7.4.1_1"),
        filename="conda_packagelist.txt",
        matrix=matrix,
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.0.0", ["cu100"])
    assert result.project["managers"] == ["pip"]
    assert result.warnings[0] == (
        "conda_packagelist.txt:7: pytorch=1.0.0=py3.7_cuda10.0.130_cudnn7.4.1_1 is a pytorch "
        "channel build (its build string names python, CUDA and cuDNN, as only that channel's "
        "do), so project.yaml takes it from -c pytorch"
    )


def test_an_anaconda_build_stays_on_the_defaults_channel(matrix: Matrix) -> None:
    """Anaconda's own build (a hash at the end): the defaults channel kept it."""
    result = import_text(
        EXPORT.format(pytorch="pytorch=1.0.0=cuda100py37he554f03_0"),
        filename="conda_packagelist.txt",
        matrix=matrix,
    )
    assert result.project["managers"] == ["conda"]
    assert not [w for w in result.warnings if "is a pytorch channel build" in w]


def test_an_export_saved_as_environment_yml_is_read_as_the_listing_it_is(matrix: Matrix) -> None:
    """`conda list --export` output named environment.yml (no name/channels/dependencies
    mapping: `conda create --file` reads it) is the listing, not a broken conda environment."""
    text = (
        "# platform: linux-64\ncudatoolkit=10.2.89=hfd86e86_1\npython=3.8.1=h0371630_1\n"
        "pytorch=1.7.1=py3.8_cuda10.2.89_cudnn7.6.5_0\ntorchvision=0.8.2=py38_cu102\n"
        "tqdm=4.50.0=pypi_0\n"
    )
    result = import_text(text, filename="environment.yml", matrix=matrix)
    project = result.project
    assert (project["python"], project["torch"], project["torchvision"]) == (
        "3.8",
        "1.7.1",
        "0.8.2",
    )
    assert (project["accelerators"], project["managers"]) == (["cu102"], ["conda"])


CONDA_FORGE_EXPORT = """\
name: forge
channels:
  - conda-forge
  - nodefaults
dependencies:
  - python=3.11.15
  - pytorch=2.12.1=cpu_mkl_py311_h8dcea03_100
  - torchvision=0.27.1=cpu_py311_h1856f5b_0
"""


def test_a_conda_forge_build_of_a_release_only_conda_forge_built_stays_on_conda(
    matrix: Matrix,
) -> None:
    """conda-forge's builds end in a hash too (cpu_mkl_py311_h8dcea03_100): with conda-forge
    and nodefaults the package is conda-forge's, not Anaconda's, and conda-forge built 2.12.1
    (matrices/conda-forge.yaml), which the pytorch channel (ended at 2.5) never had."""
    result = import_text(CONDA_FORGE_EXPORT, filename="environment.yml", matrix=matrix)
    project = result.project
    assert (project["torch"], project["accelerators"], project["managers"]) == (
        "2.12.1",
        ["cpu"],
        ["conda"],
    )
    assert not [w for w in result.warnings if "Anaconda build" in w]
    # Without conda-forge among the channels, the release is not on any channel the file reads.
    only_pytorch = CONDA_FORGE_EXPORT.replace("conda-forge\n  - nodefaults", "pytorch")
    moved = import_text(only_pytorch, filename="environment.yml", matrix=matrix).project
    assert moved["managers"] == ["pip"]


def test_a_listing_that_names_the_channel_needs_no_inference(matrix: Matrix) -> None:
    table = (
        "# Name                    Version                   Build  Channel\n"
        "python                    3.7.1                h0371630_3\n"
        "pytorch                   1.0.0       py3.7_cuda10.0.130_cudnn7.4.1_1    pytorch\n"
        "torchvision               0.2.1                    py37_1    pytorch\n"
    )
    result = import_text(table, filename="conda_list.txt", matrix=matrix)
    assert (result.project["managers"], result.project["accelerators"]) == (["pip"], ["cu100"])
    assert not [w for w in result.warnings if "is a pytorch channel build" in w]


# Facts (companions.yaml, read from each wheel's METADATA on PyPI): torchtext 0.13.0 and
# torchdata 0.4.0 require torch==1.12.0, torchtext 0.13.1 torch==1.12.1, torchtext 0.9.1
# torch==1.8.1, torchtext 0.12.0 torch==1.11.0, torchvision 0.13.0 torch==1.12.0, torchtext
# 0.18.0 torch>=2.3.0; PyPI's linux wheel of 1.12.0 is the CUDA 10.2 build, of 1.8.1 CUDA 10.2,
# of 1.11.0 CUDA 10.2 (`envgen matrix show`).
IMAGE = "FROM pytorch/pytorch:1.12.1-cuda11.3-cudnn8-runtime\nRUN pip install {line}\n"


@pytest.mark.parametrize(
    ("line", "torch", "accelerators"),
    [
        # pip replaces the image's 1.12.1 with PyPI's 1.12.0 (the plain PyPI wheel: cu102).
        ("torchtext==0.13.0", "1.12.0", ["cu102"]),
        ("torchdata==0.4.0 tqdm", "1.12.0", ["cu102"]),
        ("torchvision==0.13.0", "1.12.0", ["cu102"]),
        # The image's torch meets the requirement: pip keeps it, and its CUDA 11.3 build.
        ("torchtext==0.13.1", "1.12.1", ["cu113"]),
        ("torchtext", "1.12.1", ["cu113"]),
        # torchtext 0.18.0 requires torch>=2.3.0: a floor, not one release; the image stays.
        ("torchtext==0.18.0", "1.12.1", ["cu113"]),
    ],
)
def test_a_companion_pin_replaces_the_images_torch(
    matrix: Matrix, line: str, torch: str, accelerators: list[str]
) -> None:
    result = import_text(IMAGE.format(line=line), filename="Dockerfile", matrix=matrix)
    assert (result.project["torch"], result.project["accelerators"]) == (torch, accelerators)
    assert result.project["managers"] == ["pip"]


def test_the_replacement_is_said(matrix: Matrix) -> None:
    result = import_text(
        IMAGE.format(line="torchtext==0.13.0"), filename="Dockerfile", matrix=matrix
    )
    assert result.warnings[0] == (
        "Dockerfile: torchtext 0.13.0 requires torch==1.12.0 (its wheel's Requires-Dist), so pip "
        "replaces the image's torch 1.12.1 (pytorch/pytorch:1.12.1-cuda11.3-cudnn8-runtime) "
        "with PyPI's torch 1.12.0; project.yaml pins it, from PyPI"
    )


def test_an_ngc_images_prerelease_torch_is_replaced_too(matrix: Matrix) -> None:
    """NGC 21.12's torch is 1.11.0a0, which torch==1.11.0 excludes; its python 3.8 stays."""
    result = import_text(
        "FROM nvcr.io/nvidia/pytorch:21.12-py3\nRUN pip install torchtext==0.12.0\n",
        filename="Dockerfile",
        matrix=matrix,
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.11.0", ["cu102"])
    assert result.project["python"] == "3.8"


@pytest.mark.parametrize(
    ("requirements", "as_of", "torch"),
    [
        # Unpinned torch beside torchtext 0.9.1: pip resolves torch 1.8.1, not the newest
        # release of the date (1.10.1).
        ("torch\ntorchtext==0.9.1\n", dt.date(2021, 12, 25), "1.8.1"),
        ("torchdata==0.4.0\ntorch>=1.10\n", dt.date(2022, 12, 1), "1.12.0"),
        # The file's range excludes what torchtext needs: pip cannot resolve both; the range
        # decides, as before.
        ("torch<1.12\ntorchtext==0.13.0\n", dt.date(2022, 12, 1), "1.11.0"),
        # The file pins torch itself: kept.
        ("torch==1.12.1\ntorchtext==0.13.0\n", dt.date(2022, 12, 1), "1.12.1"),
    ],
)
def test_a_companion_pin_fixes_an_open_torch(
    matrix: Matrix, requirements: str, as_of: dt.date, torch: str
) -> None:
    result = import_text(requirements, filename="requirements.txt", matrix=matrix, as_of=as_of)
    assert result.project["torch"] == torch


@pytest.mark.parametrize(
    ("requirements", "as_of", "torch", "accelerators"),
    [
        # A pip freeze of a PyG environment: the label names torch 1.12 and CUDA 11.3 (its
        # wheel lives on data.pyg.org/whl/torch-1.12.0+cu113.html), so not the newest torch.
        ("torch\ntorch-scatter==2.1.0+pt112cu113\n", dt.date(2023, 1, 20), "1.12.1", ["cu113"]),
        ("torch\ntorch-sparse==0.6.17+pt20cpu\n", dt.date(2023, 6, 1), "2.0.1", ["cpu"]),
        # torch pinned without a label (PyPI's 2.1.0 is cu121): the extension's build says cu118.
        (
            "torch==2.1.0\ntorch-scatter==2.1.2+pt21cu118\n",
            dt.date(2024, 1, 20),
            "2.1.0",
            ["cu118"],
        ),
        # Not an extension: its label says nothing.
        ("torch\nfoo==1.0+pt112cu113\n", dt.date(2023, 1, 20), "1.13.1", ["cu117"]),
    ],
)
def test_an_extensions_local_label_names_its_build(
    matrix: Matrix, requirements: str, as_of: dt.date, torch: str, accelerators: list[str]
) -> None:
    result = import_text(requirements, filename="requirements.txt", matrix=matrix, as_of=as_of)
    assert (result.project["torch"], result.project["accelerators"]) == (torch, accelerators)
