"""envgen import: where a file names its python besides a `python=` pin.

Facts: Ubuntu 22.04's python3 is 3.10 and 20.04's is 3.8 (envgen.repro.eras.UBUNTU_PYTHON3),
jammy and focal are their code names (https://wiki.ubuntu.com/Releases); pyenv runs the
version `pyenv install`/`global` name, and reads `.python-version`; Heroku-style buildpacks read
`runtime.txt` (`python-3.8.10`); PEP 440: `~=3.8` is `>=3.8, ==3.*` (every 3.x from 3.8), while
`>=3.9,<3.10` and `~=3.7.0` admit one minor.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


APT = "RUN apt-get update && apt-get install -y python3-pip python3-dev git\n"


@pytest.mark.parametrize(
    ("image", "python"),
    [
        ("rocm/dev-ubuntu-22.04", "3.10"),  # the release in the image's name, hyphenated
        ("rocm/dev-ubuntu-20.04:5.7", "3.8"),
        ("ubuntu:jammy", "3.10"),  # a code name
        ("ubuntu:focal-20230308", "3.8"),
        ("nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04", "3.10"),
    ],
)
def test_the_distro_python3_of_an_image_that_names_its_ubuntu(
    matrix: Matrix, image: str, python: str
) -> None:
    text = f"FROM {image}\n{APT}RUN pip3 install torch==2.1.0\n"
    result = import_text(text, filename="Dockerfile", matrix=matrix)
    assert result.project["python"] == python


def test_no_python_package_installed_names_no_python(matrix: Matrix) -> None:
    """The image's release alone says nothing: its python3 is what `apt install` brings."""
    text = "FROM rocm/dev-ubuntu-22.04\nRUN pip3 install torch==2.1.0\n"
    assert import_text(text, filename="Dockerfile", matrix=matrix).project.get("python") is None


@pytest.mark.parametrize(
    "line",
    [
        "pyenv install 3.9.7 && pyenv global 3.9.7",
        "pyenv install -s 3.9.7",
        "pyenv virtualenv 3.9.7 paper",
        "uv python install 3.9",
    ],
)
def test_the_python_pyenv_or_uv_installs(matrix: Matrix, line: str) -> None:
    text = f"#!/bin/bash\n{line}\npip install torch==1.10.0\n"
    assert import_text(text, filename="install.sh", matrix=matrix).project["python"] == "3.9"


@pytest.mark.parametrize(
    ("runs", "python"),
    [
        ("pip3 install torch==1.2.0", "3.6"),  # Ubuntu 18.04's pip3 is its python3's: 3.6
        ("python3 -m pip install -U pip\nRUN pip3 install torch==1.2.0", "3.6"),
        ("python3.7 -m pip install torch==1.2.0", "3.7"),
        ("pip3.7 install torch==1.2.0", "3.7"),
        (
            "update-alternatives --install /usr/bin/python3 python3 /usr/bin/python3.7 1\n"
            "RUN pip3 install torch==1.2.0",
            "3.7",
        ),
        ("ln -sf /usr/bin/python3.7 /usr/bin/python3 && pip3 install torch==1.2.0", "3.7"),
        ("pip install torch==1.2.0", "3.7"),  # a plain pip: read as the installed one
    ],
)
def test_an_apt_python_beside_the_distro_python3_is_what_runs_it(
    matrix: Matrix, runs: str, python: str
) -> None:
    """`apt install python3.7` on Ubuntu 18.04 installs /usr/bin/python3.7 beside python3 (3.6);
    python3 and python3-pip's pip3 stay 3.6's unless the file runs, links or registers 3.7."""
    text = (
        "FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu18.04\n"
        "RUN apt-get update && apt-get install -y python3.7 python3-pip\n"
        f"RUN {runs}\n"
    )
    assert import_text(text, filename="Dockerfile", matrix=matrix).project["python"] == python


def test_an_apt_python_that_is_the_distro_python3_or_never_run(matrix: Matrix) -> None:
    base = "FROM ubuntu:18.04\nRUN apt-get install -y python3.6 python3-pip\n"
    same = base + "RUN pip3 install torch==1.2.0\n"
    assert import_text(same, filename="Dockerfile", matrix=matrix).project["python"] == "3.6"
    # Nothing runs pip after the python3.8 package: it stays the python the file names.
    text = "FROM ubuntu:18.04\nRUN apt-get install -y python3.8\nRUN echo torch==1.4.0 > r.txt\n"
    conda = "RUN conda install -y pytorch=1.4.0 cudatoolkit=10.1 -c pytorch\n"
    assert (
        import_text(text + conda, filename="Dockerfile", matrix=matrix).project["python"] == "3.8"
    )


@pytest.mark.parametrize(
    ("line", "python"),
    [
        ("module load Python/3.6.4-intel-2018a", "3.6"),  # EasyBuild's module names
        ("module load GCC/8.3.0 python/3.8", "3.8"),
        ("ml Python/3.9.5-GCCcore-10.3.0", "3.9"),  # Lmod's shorthand
        ("module swap python/3.7 python/3.8", "3.8"),  # the one loaded is the last
        ("module unload python/3.7", None),
        ("module load anaconda3/2020.07", None),  # not a CPython module's version
    ],
)
def test_the_python_an_environment_module_loads(
    matrix: Matrix, line: str, python: str | None
) -> None:
    """A cluster script's `module load Python/X.Y...`: the python3 it then runs is the module's."""
    venv = "python3 -m venv env\nsource env/bin/activate\n"
    text = f"#!/bin/bash\n{line}\n{venv}pip install torch==1.10.0\n"
    result = import_text(text, filename="setup.sh", matrix=matrix)
    assert result.project.get("python") == python


@pytest.mark.parametrize(
    ("requires", "python"),
    [
        ('">=3.9,<3.10"', "3.9"),
        ('"~=3.7.0"', "3.7"),
        ('"==3.8.*"', "3.8"),
        ('"==3.8"', "3.8"),
        ('"~=3.8"', None),  # 3.8 and every later 3.x
        ('">=3.8,<3.13"', None),
        ('">=3.8"', None),
    ],
)
def test_a_requires_python_that_admits_one_minor_names_it(
    matrix: Matrix, requires: str, python: str | None
) -> None:
    text = (
        f"[project]\nname = 'x'\nrequires-python = {requires}\ndependencies = ['torch==1.10.0']\n"
    )
    result = import_text(text, filename="pyproject.toml", matrix=matrix)
    assert result.project.get("python") == python


def test_poetrys_tilde_is_one_minor(matrix: Matrix) -> None:
    text = (
        "[tool.poetry]\nname = 'x'\nversion = '0.1.0'\n\n[tool.poetry.dependencies]\n"
        'python = "~3.8"\ntorch = "1.10.0"\n'
    )
    result = import_text(text, filename="pyproject.toml", matrix=matrix)
    assert result.project["python"] == "3.8"


@pytest.mark.parametrize(
    ("name", "content", "python"),
    [
        (".python-version", "3.9.7\n", "3.9"),
        ("runtime.txt", "python-3.8.10\n", "3.8"),
        (".python-version", "pypy3.9-7.3.11\n", None),  # not CPython: nothing envgen builds
    ],
)
def test_a_repositorys_version_file_names_the_python(
    tmp_path: Path, matrix: Matrix, name: str, content: str, python: str | None
) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.10.0\n")
    (tmp_path / name).write_text(content)
    result = run_import(ImportOptions(source=tmp_path), matrix)
    assert result.project.get("python") == python


def test_a_source_that_names_the_python_comes_before_the_version_file(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "environment.yml").write_text(
        "dependencies:\n  - python=3.7\n  - pip\n  - pip:\n    - torch==1.10.0\n"
    )
    (tmp_path / ".python-version").write_text("3.9.7\n")
    result = run_import(ImportOptions(source=tmp_path), matrix)
    assert result.project["python"] == "3.7"
