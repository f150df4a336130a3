"""The mechanisms the eighteenth held-out draw's misses asked for (issue 24), each on
real-shaped input written here: underlined headings (reStructuredText, Markdown's setext) and
strong emphasis in a requirements list, a step for an earlier version of the code, `conda env
create -f` as inline code, `PyTorch install 1.0.0` and `Pytorch with version 1.8.0 or later`, a
conda python range of one minor, a Dockerfile built from the folder above the checkout, and a
conda listing whose cudatoolkit belongs to another package than pip's torch."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer.readme import prose_headings
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_an_underlined_heading_opens_a_section(matrix: Matrix) -> None:
    """reStructuredText's `Dependencies` over `====`, with `- Python **3.7**` in its list: the
    list names the python beside the README's conda command."""
    text = (
        "ELF\n===\n\nDependencies\n============\n\nWe run ELF using:\n\n- Ubuntu **18.04**\n"
        "- Python **3.7**\n- CUDA **10.0**\n\nYou also need to install PyTorch 1.0.0 or later::\n\n"
        "    conda install pytorch torchvision cudatoolkit=10.0 -c pytorch\n"
    )
    got = import_keys(text, "README.rst", matrix, "2019-06-21")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.7", "1.1.0", ["cu100"])


def test_a_fence_is_no_underline() -> None:
    lines = ["Run:", "```", "$ ./download.sh", "```", "", "Title", "-----"]
    assert prose_headings(lines) == ["Run:", "```", "$ ./download.sh", "```", "", "# Title", ""]


def test_a_step_for_an_earlier_version_of_the_code_is_an_alternative(matrix: Matrix) -> None:
    text = (
        "# LM\n\n+ Install PyTorch 0.4\n\n## Software Requirements\n\n"
        "Python 3 and PyTorch 0.4 are required for the current codebase.\n\n"
        "If you need to use an earlier version of the codebase, the original code is at the "
        "PyTorch==0.1.12 release.\nIf you are using Anaconda, installation of PyTorch 0.1.12 can be "
        "achieved via:\n`conda install pytorch=0.1.12 -c soumith`.\n"
    )
    assert import_keys(text, "README.md", matrix, "2018-06-19")["torch"] == "0.4.0"
    kept = text.replace("an earlier version of the codebase", "a working install")
    assert import_keys(kept, "README.md", matrix, "2018-06-19")["torch"] == "0.1.12"


def test_conda_env_create_as_inline_code(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "environment.yml").write_text(
        "name: noisynet\nchannels:\n  - pytorch\ndependencies:\n  - plotly\n  - pytorch\n"
    )
    (tmp_path / "README.md").write_text(
        "# X\n\nRequirements\n------------\n\n- [PyTorch](http://pytorch.org/)\n\n"
        "To install all dependencies with Anaconda run `conda env create -f environment.yml`.\n"
    )
    got = import_file_keys(tmp_path / "README.md", matrix, "2017-12-22")
    assert (got["torch"], got["accelerators"]) == ("0.3.0", ["cu80"])


@pytest.mark.parametrize(
    ("line", "torch"),
    [
        ("- [PyTorch](http://pytorch.org) install 1.0.0", "1.0.0"),
        ("1. Install **Pytorch** with version 1.8.0 or later", "2.0.1"),
    ],
)
def test_words_between_pytorch_and_its_version(matrix: Matrix, line: str, torch: str) -> None:
    text = f"# X\n\n## Requirements\n{line}\n\n> Our environment:\n> torch == 1.13.0\n"
    assert import_keys(text, "README.md", matrix, "2023-09-09")["torch"] == torch


def test_a_conda_python_range_of_one_minor(matrix: Matrix) -> None:
    text = (
        "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python>=3.6,<3.7\n"
        "  - pytorch=1.7.1\n  - cpuonly\n"
    )
    assert import_keys(text, "environment.yml", matrix, "2022-03-01")["python"] == "3.6"
    floor = text.replace("python>=3.6,<3.7", "python>=3.6")
    assert import_keys(floor, "environment.yml", matrix, "2022-03-01")["python"] is None


def test_a_dockerfile_built_from_the_folder_above_the_checkout(
    tmp_path: Path, matrix: Matrix
) -> None:
    """`COPY sorani-gec/requirements.txt .` from a Dockerfile at the checkout's root: the image
    is built from the folder above, so the checkout's requirements.txt is read."""
    (tmp_path / "requirements.txt").write_text("torch>=2.0.0,<3.0.0\ntransformers\n")
    (tmp_path / "Dockerfile").write_text(
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        "RUN apt-get update && apt-get install -y python3.10 python3-pip\nWORKDIR /app\n"
        "COPY sorani-gec/requirements.txt .\nRUN pip install -r requirements.txt\n"
        "COPY sorani-gec/src/ src/\n"
    )
    got = import_file_keys(tmp_path / "Dockerfile", matrix, "2026-04-11")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.10", "2.11.0", ["cu130"])


def test_a_listings_cudatoolkit_is_not_pips_torch(matrix: Matrix) -> None:
    """`conda list --export` with torch=2.3.1=pypi_0 beside cudatoolkit=10.1.243 (tensorflow's):
    pip installed PyPI's build of torch (CUDA 12.1)."""
    text = (
        "# platform: linux-64\npython=3.8.19=h955ad1f_0\ncudatoolkit=10.1.243=h6bb024c_0\n"
        "tensorflow-gpu=2.4.1=h30adc30_0\ntorch=2.3.1=pypi_0\ntorchvision=0.18.1=pypi_0\n"
    )
    got = import_keys(text, "env.txt", matrix, "2024-07-02")
    assert (got["torch"], got["accelerators"], got["managers"]) == ("2.3.1", ["cu121"], ["pip"])


def test_the_third_environment_of_a_readme_when_the_first_two_install_no_torch(
    tmp_path: Path, matrix: Matrix
) -> None:
    """A README with three blocks, each making and activating its own conda environment (tf1,
    tf2, torch): the one whose install brings torch is imported, however many came before."""
    (tmp_path / "requirements_torch.txt").write_text("torch==1.9.0\ntorchvision==0.10.0\n")
    block = "```\nconda create --name {n} python={p}\nconda activate {n}\npip install -r {r}\n```\n"
    (tmp_path / "README.md").write_text(
        "# X\n\n## Prepare virtual environments\n\nTensorFlow 1.15.0:\n"
        + block.format(n="tf1", p="3.6.9", r="requirements_tf_1x.txt")
        + "\nTensorFlow 2.5.0:\n"
        + block.format(n="tf2", p="3.8.10", r="requirements_tf_2x.txt")
        + "\nPyTorch 1.9.0:\n"
        + block.format(n="torch", p="3.7.10", r="requirements_torch.txt")
    )
    got = import_file_keys(tmp_path / "README.md", matrix, "2021-06-30")
    assert (got["python"], got["torch"], got["torchvision"]) == ("3.7", "1.9.0", "0.10.0")
