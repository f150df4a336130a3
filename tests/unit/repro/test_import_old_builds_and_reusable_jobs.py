"""`envgen import` of families the seventh held-out draw brought (issue 24): old builds the
matrix lacked (torch 0.3.0 for CUDA 9.0, 1.8.0+cu101 pip wheels) and a GitHub job that hands its
shell lines to a reusable workflow (`uses:` at the job level, `with: script:`)."""

from __future__ import annotations

import datetime as dt

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import detect_kind, import_text
from tests.support.importing import KEYS, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_a_cu90_wheel_of_0_3_0_keeps_cu90(matrix: Matrix) -> None:
    text = "pip install http://download.pytorch.org/whl/cu90/torch-0.3.0.post4-cp36-cp36m-linux_x86_64.whl\n"
    got = import_keys(text, "install.sh", matrix, "2018-03-01")
    assert (got["torch"], got["accelerators"]) == ("0.3.0.post4", ["cu90"])


def test_conda_pytorch_0_3_0_cuda90_moves_to_the_cu90_wheel(matrix: Matrix) -> None:
    text = "conda install pytorch=0.3.0 torchvision=0.2.0 cuda90 -c pytorch\n"
    got = import_keys(text, "install.sh", matrix, "2018-03-01")
    assert (got["torch"], got["accelerators"], got["managers"]) == ("0.3.0", ["cu90"], ["pip"])


def test_a_1_8_0_cu101_local_label_keeps_cu101(matrix: Matrix) -> None:
    text = "torch==1.8.0+cu101\ntorchvision==0.9.0+cu101\n"
    got = import_keys(text, "requirements.txt", matrix, "2021-04-01")
    assert (got["torch"], got["torchvision"], got["accelerators"]) == ("1.8.0", "0.9.0", ["cu101"])


REUSABLE = """\
on: [push]
jobs:
  tests:
    uses: someorg/infra/.github/workflows/linux_job.yml@main
    with:
      runner: linux.4xlarge.nvidia.gpu
      script: |
        python3 -m pip install --upgrade pip
        python3 -m pip install torch torchvision --index-url https://download.pytorch.org/whl/cu126
"""


def test_a_reusable_workflow_job_script_is_read(matrix: Matrix) -> None:
    got = import_keys(REUSABLE, "test.yml", matrix, "2025-08-14")
    assert (got["torch"], got["torchvision"], got["accelerators"]) == ("2.8.0", True, ["cu126"])


def test_a_reusable_workflow_job_on_macos_is_not_the_default_route(matrix: Matrix) -> None:
    text = REUSABLE.replace("linux.4xlarge.nvidia.gpu", "macos-m1-stable").replace(
        "torch torchvision --index-url https://download.pytorch.org/whl/cu126", "torch==2.0.1"
    )
    more = (
        text
        + """\
  linux:
    uses: someorg/infra/.github/workflows/linux_job.yml@main
    with:
      runner: linux.2xlarge
      script: pip install torch==2.1.0 --index-url https://download.pytorch.org/whl/cpu
"""
    )
    got = import_keys(more, "test.yml", matrix, "2025-08-14")
    assert (got["torch"], got["accelerators"]) == ("2.1.0", ["cpu"])


MULTI_STAGE = """\
FROM pytorch/pytorch

FROM python:3.8-slim
RUN python -m pip install torchvision==0.12.0
"""


def test_an_untagged_pytorch_image_in_an_earlier_stage_is_not_the_image(matrix: Matrix) -> None:
    # Only the final stage is the image: its torch comes in through torchvision==0.12.0.
    got = import_keys(MULTI_STAGE, "Dockerfile", matrix, "2022-09-01")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.8", "1.11.0", ["cu102"])


def test_an_unread_pytorch_tag_the_final_stage_builds_on_is_refused(matrix: Matrix) -> None:
    # (an untagged pytorch/pytorch is `latest`: the newest release as of the file, read since
    # the sixteenth draw; a tag that names no release, such as a digest alone, is still refused)
    text = (
        "FROM pytorch/pytorch@sha256:" + "0" * 64 + " AS base\nFROM base\nRUN pip install numpy\n"
    )
    with pytest.raises(ImportSpecError, match="the tag names no torch release"):
        import_text(text, filename="Dockerfile", matrix=matrix)


def test_a_setup_script_under_another_name_is_read_as_setup_py(matrix: Matrix) -> None:
    text = (
        "from setuptools import setup\n\n"
        "setup(\n    name='pkg',\n    install_requires=['numpy>=1.17.0', \"torch>=0.4.1\"],\n)\n"
    )
    assert detect_kind("pkg_setup.py", text) == "setup.py"
    got = import_keys(text, "pkg_setup.py", matrix, "2022-11-15")
    assert (got["torch"], got["accelerators"]) == ("1.13.0", ["cu117"])


def test_other_python_files_are_not_setup_scripts() -> None:
    assert detect_kind("train.py", "import torch\nmodel = torch.nn.Linear(2, 2)\n") != "setup.py"


TRAVIS_MARKED_WHEELS = """\
language: python
python:
  - "2.7"
  - "3.6"
install:
  - pip install "http://download.pytorch.org/whl/cu75/torch-0.2.0.post1-cp27-cp27mu-manylinux1_x86_64.whl; python_version == '2.7'"
  - pip install "http://download.pytorch.org/whl/cu75/torch-0.2.0.post1-cp36-cp36m-manylinux1_x86_64.whl; python_version == '3.6'"
"""


def test_a_wheel_url_with_a_marker_is_read_where_the_marker_holds(matrix: Matrix) -> None:
    result = import_text(
        TRAVIS_MARKED_WHEELS,
        filename=".travis.yml",
        matrix=matrix,
        as_of=dt.date.fromisoformat("2017-09-21"),
    )
    got = {k: result.project.get(k) for k in KEYS}
    assert (got["python"], got["torch"], got["accelerators"]) == ("2.7", "0.2.0.post1", ["cu75"])
    assert any('python_version == "3.6"' in w and "ignored" in w for w in result.warnings)


def test_a_cu75_wheel_of_0_3_0_keeps_cu75(matrix: Matrix) -> None:
    text = "pip install http://download.pytorch.org/whl/cu75/torch-0.3.0.post4-cp36-cp36m-linux_x86_64.whl\n"
    got = import_keys(text, "install.sh", matrix, "2018-01-10")
    assert (got["python"], got["accelerators"]) == ("3.6", ["cu75"])


README_PROSE_PYTHON = """\
# Setup

0. Install python3.6 and pytorch 3. To install PyTorch, use
 ```conda install pytorch=0.3.0 torchvision=0.2.0 cuda90 -c pytorch```.
"""


def test_the_python_install_prose_names_is_the_python(matrix: Matrix) -> None:
    got = import_keys(README_PROSE_PYTHON, "README.md", matrix, "2018-11-28")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.6", "0.3.0", ["cu90"])


def test_a_python_floor_in_install_prose_is_no_python(matrix: Matrix) -> None:
    text = "## Requirements\n - Python 3.6+\n\n```\npip install torch==1.2.0\n```\n"
    assert import_keys(text, "README.md", matrix, "2019-09-05")["python"] is None


def test_a_python_range_in_install_prose_is_no_python(matrix: Matrix) -> None:
    text = "## Requirements\n- CUDA 12.x, Python 3.10\u20133.12\n\n```\npip install torch==2.5.1\n```\n"
    assert import_keys(text, "README.md", matrix, "2026-01-05")["python"] is None
