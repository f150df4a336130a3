"""envgen import: versions and builds a file records indirectly.

Expected answers from the facts each test names: conda's default update_specs (an unpinned
`conda install pytorch` updates an installed torch), torchvision's source/conda builds report
`X.Y.Za0` (its setup.py appends a0 outside release builds), a torch wheel URL's folder names the
build (whl/cpu/), Docker's parser ends a comment line at its newline, torchvision 0.2.2 is a
py2.py3 wheel whose Requires-Dist names torch unpinned (matrices/companions.yaml), and a freeze's
local labels name the build installed (torchaudio 0.10.1+rocm4.1: matrix pip.yaml 1.10.1 rocm4.1).
"""

from __future__ import annotations

import datetime as dt

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text
from envgen.repro.importer.dockerfile import dockerfile_lines


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_an_unpinned_conda_install_updates_the_images_torch(matrix: Matrix) -> None:
    # bmsookim/graph-tutorial.pytorch's shape: `# Update to Torch 1.0` over a 0.4.1 image.
    result = import_text(
        "FROM pytorch/pytorch:0.4.1-cuda9-cudnn7-runtime\n"
        "RUN pip install -r requirements.txt\n"
        "RUN conda install pytorch torchvision -y -c pytorch\n",
        filename="Dockerfile",
        matrix=matrix,
        as_of=dt.date(2018, 12, 24),
    )
    assert result.project["torch"] == "1.0.0"
    assert result.project["accelerators"] == ["cu90"]
    assert any("conda's default update_specs" in w for w in result.warnings)


def test_an_unpinned_pip_install_keeps_the_images_torch(matrix: Matrix) -> None:
    """pip finds an unpinned torch already satisfied by the image's."""
    result = import_text(
        "FROM pytorch/pytorch:0.4.1-cuda9-cudnn7-runtime\nRUN pip install torch torchvision\n",
        filename="Dockerfile",
        matrix=matrix,
        as_of=dt.date(2018, 12, 24),
    )
    assert result.project["torch"] == "0.4.1"


@pytest.mark.parametrize(
    ("line", "vision"),
    [
        ("torchvision==0.13.1a0", "0.13.1"),  # a conda export's pip section
        ("torchvision==0.6.0a0+82fd1c8", "0.6.0"),  # pytorch/pytorch:1.5's own torchvision
    ],
)
def test_a_companion_builds_version_string_is_its_release(
    matrix: Matrix, line: str, vision: str
) -> None:
    torch = "1.12.1" if vision == "0.13.1" else "1.5.0"
    result = import_text(
        f"torch=={torch}\n{line}\n",
        filename="requirements.txt",
        matrix=matrix,
        as_of=dt.date(2022, 12, 1),
    )
    assert result.project["torchvision"] == vision
    assert not [w for w in result.warnings if "build was" in w]


def test_a_post_release_wheel_of_a_build_without_a_row_is_kept(matrix: Matrix) -> None:
    # JermineHu/docker-pytorch's shape: the matrix has 0.3.0's CUDA rows only.
    result = import_text(
        "FROM ubuntu:artful\n"
        "RUN pip3 install http://download.pytorch.org/whl/cpu/torch-0.3.0.post4-cp35-cp35m-"
        "linux_x86_64.whl && pip3 install torchvision\n",
        filename="Dockerfile",
        matrix=matrix,
        as_of=dt.date(2018, 1, 26),
    )
    assert result.project["torch"] == "0.3.0.post4"
    assert result.project["accelerators"] == ["cpu"]


def test_a_comment_lines_backslash_continues_nothing(matrix: Matrix) -> None:
    text = (
        "FROM nvidia/cuda:10.1-base-ubuntu16.04\n"
        "# RUN conda install -y -c pytorch \\\n"
        '#     "pytorch=1.4.0=py3.6_cuda10.1.243_cudnn7.6.3_0" \\\n'
        "RUN conda install -y cudatoolkit=10.1 \\\n"
        '    "pytorch=1.4.0=py3.6_cuda10.1.243_cudnn7.6.3_0" "torchvision=0.5.0=py36_cu101"\n'
    )
    assert [n for n, _ in dockerfile_lines(text)] == [1, 2, 3, 4]
    result = import_text(text, filename="Dockerfile", matrix=matrix, as_of=dt.date(2020, 2, 19))
    assert (result.project["torch"], result.project["torchvision"]) == ("1.4.0", "0.5.0")


def test_a_range_allowing_only_a_pure_python_torchvision_pins_no_torch(matrix: Matrix) -> None:
    """`torchvision==0.2.2,>=0.2.1` (two packages' Requires-Dist): pip installs 0.2.2 with the
    newest torch, 1.2.0 on 2019-08-21, not the 1.0.1 it was published beside."""
    result = import_text(
        "torch\ntorchvision>=0.2.1,==0.2.2\n",
        filename="requirements.txt",
        matrix=matrix,
        as_of=dt.date(2019, 8, 21),
    )
    assert (result.project["torch"], result.project["torchvision"]) == ("1.2.0", "0.2.2")


def test_install_commands_in_a_requirements_file_are_read_as_commands(matrix: Matrix) -> None:
    # Confusezius/CVPR2020_PADS's shape: 1.4.0 had a CUDA 10.0 conda build the page never
    # listed (the channel's pytorch-1.4.0-py3.7_cuda10.0.130_cudnn7.6.3_0), now pip's cu100.
    result = import_text(
        "conda install matplotlib pandas\n"
        "pip install pretrainedmodels wandb\n"
        "conda install pytorch torchvision faiss-gpu cudatoolkit=10.0 -c pytorch\n",
        filename="requirements.txt",
        matrix=matrix,
        as_of=dt.date(2020, 3, 24),
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.4.0", ["cu100"])
    pip = result.project["pip"]
    assert isinstance(pip, list)
    assert "pretrainedmodels" in pip
    assert not {"pip", "conda", "install"} & set(pip)


def test_a_companions_label_names_the_build_of_an_unpinned_torch(matrix: Matrix) -> None:
    result = import_text(
        "torch\ntorchaudio==0.10.1+rocm4.1\ntorchvision\n",
        filename="requirements.txt",
        matrix=matrix,
        as_of=dt.date(2022, 6, 28),
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.10.1", ["rocm4.1"])
    assert result.project["torchaudio"] == "0.10.1"


def test_a_companion_version_never_published_takes_the_releases_pairing(matrix: Matrix) -> None:
    """torchvision 0.7.1 was never published (PyPI: 0.7.0, then 0.8.0; matrices/companions.yaml),
    so no lock can pin it: torch 1.6.0's own torchvision 0.7.0, said as a departure."""
    result = import_text(
        "torch==1.6.0\ntorchvision==0.7.1\n",
        filename="requirements.txt",
        matrix=matrix,
        as_of=dt.date(2021, 1, 12),
    )
    assert result.project["torchvision"] == "0.7.0"
    assert any("torchvision 0.7.1 is not a torchvision release" in w for w in result.warnings)
