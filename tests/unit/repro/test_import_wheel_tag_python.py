"""envgen import: a python the file states by what it installs, not by a python key.

Facts: a wheel file's tags name the interpreters it installs on (PEP 427 / PEP 425):
`cp37-cp37m` is CPython 3.7 only, `cp311-cp311` CPython 3.11 only, while `cp38-abi3` installs
on 3.8 and every later CPython and `py3-none-any` on any; pip refuses a wheel whose tags the
interpreter does not support. PyPI has no installable `python` package, so a requirements line
`python==3.8` names the interpreter (torch 1.10.1 has 3.8 wheels, 2.6.0 has 3.11, 1.9.0 has 3.7).
"""

from __future__ import annotations

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_a_pytorch_image_gets_the_python_of_a_cpython_specific_wheel_it_installs(
    matrix: Matrix,
) -> None:
    """The image's own interpreter is unstated, but a cp37-only wheel installs into it."""
    text = (
        "FROM pytorch/pytorch:1.9.0-cuda11.1-cudnn8-devel\n"
        "RUN pip install -U https://example.org/wheels/somepkg-2.0.0.dev0-cp37-cp37m-"
        "manylinux2014_x86_64.whl\n"
    )
    project = import_text(text, filename="Dockerfile", matrix=matrix).project
    assert project["torch"] == "1.9.0"
    assert project["python"] == "3.7"


def test_a_downloaded_wheel_file_installed_by_name_states_its_python(matrix: Matrix) -> None:
    text = (
        "FROM pytorch/pytorch:2.6.0-cuda12.4-cudnn9-devel\n"
        "RUN wget -nv https://example.org/releases/somepkg-2.7.4+cu12torch2.6-cp311-cp311-"
        "linux_x86_64.whl && \\\n"
        "    pip install --no-cache-dir somepkg-2.7.4+cu12torch2.6-cp311-cp311-linux_x86_64.whl\n"
    )
    assert import_text(text, filename="Dockerfile", matrix=matrix).project["python"] == "3.11"


@pytest.mark.parametrize(
    "wheel",
    [
        "otherpkg-0.2.2+cu124torch2.6-cp38-abi3-linux_x86_64.whl",  # 3.8 and later
        "otherpkg-1.0-py3-none-any.whl",  # any python
    ],
)
def test_abi3_and_pure_wheels_state_no_python(matrix: Matrix, wheel: str) -> None:
    text = f"FROM pytorch/pytorch:2.6.0-cuda12.4-cudnn9-devel\nRUN pip install {wheel}\n"
    assert import_text(text, filename="Dockerfile", matrix=matrix).project.get("python") is None


def test_a_python_pin_line_in_requirements_names_the_interpreter(matrix: Matrix) -> None:
    text = "python==3.8\ntorch==1.10.1\ntorchvision==0.11.2\n"
    result = import_text(text, filename="requirements.txt", matrix=matrix)
    assert result.project["python"] == "3.8"
    raw = result.project.get("pip") or []
    assert isinstance(raw, list)
    assert not any("python==" in str(r) for r in raw)


def test_a_ranged_python_line_is_dropped_not_installed(matrix: Matrix) -> None:
    text = "python>=3.8\ntorch==1.10.1\n"
    result = import_text(text, filename="requirements.txt", matrix=matrix)
    assert result.project.get("python") is None
    raw = result.project.get("pip") or []
    assert isinstance(raw, list)
    assert not any(str(r).startswith("python") for r in raw)


def test_a_freezes_local_build_record_states_no_python(matrix: Matrix) -> None:
    """`name @ file:///.../name-2.3.0-cp38-cp38-linux_x86_64.whl` in a pip freeze records a
    local build (conda's build folder); the file installs nothing from it."""
    text = (
        "tensorflow @ file:///home/builder/conda-bld/work/tensorflow-2.3.0-cp38-cp38-"
        "linux_x86_64.whl\ntorch==1.7.1\n"
    )
    result = import_text(text, filename="requirements.txt", matrix=matrix)
    assert result.project.get("python") is None
