"""`envgen import` of the formats the fifth held-out draw brought (issue 24): Pipfile and
Pipfile.lock, conda explicit files, CI configurations (Travis, GitHub Actions, GitLab, Azure,
CircleCI), and the install commands around them (`conda env create`, `uv add`, `pipenv install`,
`travis_retry`).

Each input is a realistic minimal file written here; the expected answers come from the file and
the matrix's published facts: an unpinned torch as of a date is the newest release then (2.6.0
on 2025-03-18, 1.3.1 on 2019-12-06), PyPI's linux wheel is that release's pypi-default CUDA build
(2.6.0: cu124, 1.3.1: cu101, 1.10.0: cu102), a conda build string names its CUDA and python.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import (
    ImportOptions,
    build_project,
    detect_kind,
    import_text,
    parse_file,
)
from envgen.repro.importer.conda_explicit import package_of
from envgen.repro.importer.repository import find_sources

KEYS = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _keys(project: dict[str, object]) -> dict[str, object]:
    return {k: project.get(k) for k in KEYS}


def _text(text: str, filename: str, matrix: Matrix, as_of: str | None = None) -> dict[str, object]:
    date = dt.date.fromisoformat(as_of) if as_of else None
    return _keys(import_text(text, filename=filename, matrix=matrix, as_of=date).project)


def _file(
    path: Path, matrix: Matrix, as_of: str | None = None
) -> tuple[dict[str, object], list[str]]:
    date = dt.date.fromisoformat(as_of) if as_of else None
    project, warnings = build_project(parse_file(path), matrix, name="paper", as_of=date)
    return _keys(project), warnings


# --- detection ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("Pipfile", "[packages]\ntorch = '*'\n", "pipfile"),
        ("Pipfile.lock", '{"_meta": {}, "default": {}}', "pipfile"),
        ("spec-file.txt", "# platform: linux-64\n@EXPLICIT\nhttps://x/linux-64/a-1-0.conda\n",
         "conda-explicit"),
        ("conda-linux-64.lock", "@EXPLICIT\nhttps://x/linux-64/a-1-0.tar.bz2\n", "conda-explicit"),
        (".travis.yml", "language: python\n", "ci"),
        (".gitlab-ci.yml", "test:\n  script: [pytest]\n", "ci"),
        ("tests.yml", "on: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n", "ci"),
        ("azure-pipelines.yml", "pool: {vmImage: ubuntu-latest}\n", "ci"),
        ("tox.ini", "[tox]\nenvlist = py38\n", "tox"),
        ("environment.yml", "name: x\ndependencies: [pytorch=1.8.0]\n", "conda"),
        ("env.yml", "channels: [pytorch]\ndependencies:\n  - pytorch\n", "conda"),
    ],
)  # fmt: skip
def test_detects_the_format(name: str, text: str, kind: str) -> None:
    assert detect_kind(name, text) == kind


# --- Pipfile -----------------------------------------------------------------------------------

PIPFILE = """\
[[source]]
name = "pypi"
url = "https://pypi.org/simple"
verify_ssl = true

[packages]
numpy = "*"
torch = "*"
torchaudio = "*"
numba = "==0.53.1"

[dev-packages]
torchvision = "*"
mypy = "*"

[requires]
python_version = "3.9"
"""


def test_pipfile_unpinned_torch_is_the_newest_as_of_the_date(matrix: Matrix) -> None:
    result = import_text(PIPFILE, filename="Pipfile", matrix=matrix, as_of=dt.date(2021, 12, 1))
    assert _keys(result.project) == {
        "python": "3.9", "torch": "1.10.0", "torchvision": False, "torchaudio": True,
        "accelerators": ["cu102"], "managers": ["pip"],
    }  # fmt: skip
    assert "numba==0.53.1" in result.project["pip"]  # type: ignore[operator]
    assert (
        "Pipfile: [dev-packages] names torchvision, which `pipenv install` does not install "
        "(only with --dev or --categories); left out"
    ) in result.warnings


def test_pipfile_pytorch_source_and_index_key(matrix: Matrix) -> None:
    text = """\
[[source]]
url = "https://pypi.org/simple"
name = "pypi"

[[source]]
url = "https://download.pytorch.org/whl/cu118"
name = "pytorch"

[packages]
torch = {version = "==2.1.0", index = "pytorch"}
torchvision = {version = "==0.16.0", index = "pytorch"}
opencv-python = {version = ">=4.5", sys_platform = "== 'linux'"}

[requires]
python_version = "3.10"
"""
    result = import_text(text, filename="Pipfile", matrix=matrix)
    assert _keys(result.project) == {
        "python": "3.10", "torch": "2.1.0", "torchvision": "0.16.0", "torchaudio": False,
        "accelerators": ["cu118"], "managers": ["pip"],
    }  # fmt: skip
    assert "opencv-python>=4.5" in result.project["pip"]  # type: ignore[operator]


def test_pipfile_lock_default_section(matrix: Matrix) -> None:
    text = """{
    "_meta": {
        "hash": {"sha256": "00"},
        "pipfile-spec": 6,
        "requires": {"python_version": "3.8"},
        "sources": [{"name": "pypi", "url": "https://pypi.org/simple", "verify_ssl": true}]
    },
    "default": {
        "torch": {"hashes": ["sha256:00"], "index": "pypi", "version": "==1.8.1"},
        "torchvision": {"hashes": ["sha256:00"], "index": "pypi", "version": "==0.9.1"},
        "numpy": {"hashes": ["sha256:00"], "markers": "python_version >= '3.7'", "version": "==1.20.2"}
    },
    "develop": {"torchaudio": {"version": "==0.8.1"}}
}
"""
    result = import_text(text, filename="Pipfile.lock", matrix=matrix)
    assert _keys(result.project) == {
        "python": "3.8", "torch": "1.8.1", "torchvision": "0.9.1", "torchaudio": False,
        "accelerators": ["cu102"], "managers": ["pip"],
    }  # fmt: skip


def test_pipfile_that_is_not_toml_is_a_clear_error(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match=r"Pipfile: not valid TOML"):
        import_text("[packages\ntorch = '*'\n", filename="Pipfile", matrix=matrix)


# --- conda explicit ----------------------------------------------------------------------------

EXPLICIT = """\
# This file may be used to create an environment using:
# $ conda create --name <env> --file <this file>
# platform: linux-64
@EXPLICIT
https://repo.anaconda.com/pkgs/main/linux-64/_libgcc_mutex-0.1-main.conda
https://conda.anaconda.org/pytorch/noarch/pytorch-mutex-1.0-cuda.tar.bz2
https://repo.anaconda.com/pkgs/main/linux-64/cudatoolkit-11.3.1-h2bc3f7f_2.conda
https://repo.anaconda.com/pkgs/main/linux-64/python-3.8.13-h12debd9_0.conda
https://conda.anaconda.org/conda-forge/linux-64/ca-certificates-2022.6.15-ha878542_0.tar.bz2
https://conda.anaconda.org/pytorch/linux-64/pytorch-1.11.0-py3.8_cuda11.3_cudnn8.2.0_0.tar.bz2#0a1b
https://conda.anaconda.org/pytorch/linux-64/torchvision-0.12.0-py38_cu113.tar.bz2
"""


def test_conda_explicit_file(matrix: Matrix) -> None:
    result = import_text(EXPLICIT, filename="spec-file.txt", matrix=matrix)
    assert _keys(result.project) == {
        "python": "3.8", "torch": "1.11.0", "torchvision": "0.12.0", "torchaudio": False,
        "accelerators": ["cu113"], "managers": ["conda"],
    }  # fmt: skip
    # the channels in the file's order (envgen writes the pytorch channel itself, per variant)
    assert result.project["conda"]["channels"] == ["defaults", "conda-forge"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://repo.continuum.io/pkgs/free/linux-64/cudatoolkit-8.0-3.tar.bz2",
         ("cudatoolkit", "8.0", "3", "defaults")),
        ("https://conda.anaconda.org/caffe2/linux-64/"
         "caffe2-cuda8.0-cudnn7-0.8.dev-py36_2018.05.14.tar.bz2",
         ("caffe2-cuda8.0-cudnn7", "0.8.dev", "py36_2018.05.14", "caffe2")),
        ("file:///opt/channel/linux-64/mypkg-1.0-0.tar.bz2", ("mypkg", "1.0", "0", None)),
        ("https://conda.anaconda.org/pytorch/linux-64/", None),
        ("not a url", None),
    ],
)  # fmt: skip
def test_explicit_package_urls(url: str, expected: tuple[str, str, str, str | None] | None) -> None:
    assert package_of(url) == expected


def test_conda_create_file_reads_an_explicit_list(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "spec-file.txt").write_text(EXPLICIT)
    script = tmp_path / "setup.sh"
    script.write_text("conda create -n paper --file spec-file.txt\n")
    keys, _ = _file(script, matrix)
    assert keys["torch"] == "1.11.0"
    assert keys["accelerators"] == ["cu113"]


# --- install commands --------------------------------------------------------------------------

ENVIRONMENT = """\
name: t4c
channels: [pytorch, defaults]
dependencies:
  - python=3.8
  - pytorch=1.8.0
  - torchvision
  - cpuonly
"""


@pytest.mark.parametrize(
    "command",
    [
        "conda env create -f environment.yaml",
        "conda env create --file=environment.yaml",
        "mamba env update -n base -f environment.yaml",
        "micromamba create -y -f environment.yaml",
    ],
)
def test_conda_environment_file_commands(command: str, tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "environment.yaml").write_text(ENVIRONMENT)
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(f"FROM continuumio/miniconda3\nADD environment.yaml .\nRUN {command}\n")
    keys, _ = _file(dockerfile, matrix)
    assert keys == {
        "python": "3.8", "torch": "1.8.0", "torchvision": True, "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["conda"],
    }  # fmt: skip


def test_conda_env_create_without_file_reads_environment_yml(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "environment.yml").write_text(ENVIRONMENT)
    script = tmp_path / "install.sh"
    script.write_text("conda env create\nconda activate t4c\n")
    keys, _ = _file(script, matrix)
    assert keys["torch"] == "1.8.0"


def test_uv_add_in_a_readme(matrix: Matrix) -> None:
    text = (
        "## Setup\n\n```bash\n$ uv venv --python 3.12\n$ uv sync\n"
        "$ uv add torch torchvision torchaudio\n```"
    )
    assert _text(text, "README.md", matrix, "2025-03-18") == {
        "python": "3.12", "torch": "2.6.0", "torchvision": True, "torchaudio": True,
        "accelerators": ["cu124"], "managers": ["pip"],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("line", "torch", "accelerators"),
    [
        ("uv add torch==2.5.1 --index https://download.pytorch.org/whl/cu121", "2.5.1", ["cu121"]),
        ("uv add --dev torch==2.5.1 --default-index https://download.pytorch.org/whl/cpu",
         "2.5.1", ["cpu"]),
        ("poetry add torch@2.5.1", "2.5.1", ["cu124"]),
        ("pdm add -G gpu torch==2.5.1", "2.5.1", ["cu124"]),
        ("pipenv install torch==2.5.1", "2.5.1", ["cu124"]),
        ("travis_wait 30 travis_retry pip install torch==2.5.1", "2.5.1", ["cu124"]),
        ("sudo -H pip3 install torch==2.5.1", "2.5.1", ["cu124"]),
        ("timeout 10m nice -n 5 pip install torch==2.5.1", "2.5.1", ["cu124"]),
    ],
)  # fmt: skip
def test_install_commands(line: str, torch: str, accelerators: list[str], matrix: Matrix) -> None:
    keys = _text(f"#!/bin/sh\n{line}\n", "install.sh", matrix)
    assert (keys["torch"], keys["accelerators"]) == (torch, accelerators)


def test_pipenv_install_reads_the_pipfile(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "Pipfile").write_text(PIPFILE)
    script = tmp_path / "setup.sh"
    script.write_text("pip install pipenv\npipenv install\n")
    keys, _ = _file(script, matrix, "2021-12-01")
    assert (keys["python"], keys["torch"], keys["torchaudio"]) == ("3.9", "1.10.0", True)


# --- CI configurations ---------------------------------------------------------------------------

TRAVIS_CONDA = """\
language: python
python:
  - "3.6"
  - "3.7"
before_install:
  - wget http://repo.continuum.io/miniconda/Miniconda3-latest-Linux-x86_64.sh -O miniconda.sh
  - bash miniconda.sh -b -p $HOME/miniconda
  - export PATH="$HOME/miniconda/bin:$PATH"
  - deps='pip numpy scipy pytorch'
  - conda create -q -n test-environment "python=$TRAVIS_PYTHON_VERSION" $deps -c pytorch
  - source activate test-environment
install:
  - pip install -e ".[test]"
script:
  - pip install torch==1.0.0
  - pytest
"""


def test_travis_reads_its_setup_phases_with_its_python(matrix: Matrix) -> None:
    result = import_text(
        TRAVIS_CONDA, filename=".travis.yml", matrix=matrix, as_of=dt.date(2019, 8, 25)
    )
    # `script:` runs the tests (its pip line is not the environment); pytorch unpinned on
    # 2019-08-25 is 1.2.0, whose channel package moves to PyPI's CUDA 10.0 wheel
    assert _keys(result.project) == {
        "python": "3.6", "torch": "1.2.0", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu100"], "managers": ["pip"],
    }  # fmt: skip


def test_travis_env_matrix_default_route(matrix: Matrix) -> None:
    text = """\
language: python
python: 3.8
env:
  global:
    - INDEX=https://download.pytorch.org/whl/cpu
  matrix:
    - TORCH=1.9.0 VISION=0.10.0
    - TORCH=1.8.1 VISION=0.9.1
install:
  - pip install torch==$TORCH torchvision==$VISION -f $INDEX/torch_stable.html
"""
    result = import_text(text, filename=".travis.yml", matrix=matrix)
    assert _keys(result.project) == {
        "python": "3.8", "torch": "1.9.0", "torchvision": "0.10.0", "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["pip"],
    }  # fmt: skip
    assert any("2 env entries; envgen reads the first" in w for w in result.warnings)


GITHUB = """\
name: tests
on: [push, pull_request]
env:
  TORCH_INDEX: https://download.pytorch.org/whl/cu118
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: pip install ruff && ruff check .
  test:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [windows-latest, ubuntu-22.04]
        python-version: ["3.10", "3.11"]
        torch-version: [2.1.0, 2.0.1]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: ${{ matrix.python-version }}
      - name: Install
        run: |
          python -m pip install --upgrade pip
          pip install torch==${{ matrix.torch-version }} --index-url ${{ env.TORCH_INDEX }}
          pip install -e .
      - run: pytest
  windows:
    runs-on: windows-latest
    steps:
      - run: pip install torch==1.13.1
"""


def test_github_workflow_default_route(matrix: Matrix) -> None:
    result = import_text(GITHUB, filename="tests.yml", matrix=matrix)
    assert _keys(result.project) == {
        "python": "3.10", "torch": "2.1.0", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu118"], "managers": ["pip"],
    }  # fmt: skip
    assert (
        "tests.yml: jobs.test: the build matrix's torch-version is one of 2.1.0, 2.0.1; envgen "
        "reads 2.1.0"
    ) in result.warnings


GITHUB_INCLUDE = """\
on: [push]
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        python-version: [3.8]
        pytorch-version: [1.7.1, 1.9.1]
        include:
          - python-version: 3.8
            pytorch-version: 1.7.1
            torchvision-version: 0.8.2
          - python-version: 3.8
            pytorch-version: 1.9.1
            torchvision-version: 0.10.1
    steps:
      - run: conda install python=${{ matrix.python-version }} pytorch=${{ matrix.pytorch-version }} torchvision=${{ matrix.torchvision-version }} cpuonly -c pytorch
"""


def test_github_matrix_include_extends_the_default_combination(matrix: Matrix) -> None:
    # The first include entry matches the default combination (3.8, 1.7.1) on every original
    # axis, so it adds torchvision-version 0.8.2 to it; the second (1.9.1) does not.
    assert _text(GITHUB_INCLUDE, "test.yml", matrix) == {
        "python": "3.8", "torch": "1.7.1", "torchvision": "0.8.2", "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["conda"],
    }  # fmt: skip


GITHUB_OBJECT_AXIS = """\
on: [push]
jobs:
  test:
    runs-on: ${{ matrix.os }}
    strategy:
      matrix:
        os: [macos-latest, ubuntu-latest]
        vers: [{pt: "1.10.0", tv: "0.11.1"}, {pt: latest, tv: latest}]
        include:
          - os: macos-latest
            vers: {pt: latest, tv: latest}
            extra: x
    steps:
      - uses: conda-incubator/setup-miniconda@v3
        with:
          python-version: 3.9
      - env:
          PT: ${{ matrix.vers.pt }}
          TV: ${{ matrix.vers.tv }}
        run: |
          if [ "$RUNNER_OS" == "macOS" ]; then
            conda install pytorch torchvision -c pytorch
          elif [ "${{ runner.os }}" == "Windows" ]; then
            conda install pytorch torchvision cpuonly pillow=8 -c pytorch
          else
            conda install pytorch=$PT torchvision=$TV cpuonly -c pytorch
          fi
"""


def test_github_matrix_mapping_values_and_the_runner_os(matrix: Matrix) -> None:
    # `vers` values are mappings, read as ${{ matrix.vers.pt }}; the include entry names
    # another os, so it does not touch the default combination; RUNNER_OS / runner.os are
    # Linux on the default route, so the script takes its Linux branch
    result = import_text(GITHUB_OBJECT_AXIS, filename="test.yml", matrix=matrix)
    assert _keys(result.project) == {
        "python": "3.9", "torch": "1.10.0", "torchvision": "0.11.1", "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["conda"],
    }  # fmt: skip
    assert any("vers is one of {pt: 1.10.0, tv: 0.11.1}, {pt: latest" in w for w in result.warnings)


TRAVIS_ROOT_AND_INCLUDE = """\
language: python
python:
  - "2.7"
  - "3.6"
install:
  - if [[ "$TRAVIS_OS_NAME" == "osx" ]]; then pip install torch==1.0.0; fi
  - conda create -q -n test python=$TRAVIS_PYTHON_VERSION pytorch-cpu -c pytorch
matrix:
  include:
    - env: LINT
      python: "3.6"
      install: pip install flake8
"""


def test_travis_root_python_jobs_come_before_include_and_pytorch_cpu_ends_at_1_1(
    matrix: Matrix,
) -> None:
    # The root `python:` list makes the build's own jobs (the include adds a lint job, not the
    # default route); the pytorch channel's pytorch-cpu package stops at 1.1.0 (1.2.0 came
    # 2019-08-08, as pytorch with cpuonly); TRAVIS_OS_NAME is linux
    result = import_text(
        TRAVIS_ROOT_AND_INCLUDE, filename=".travis.yml", matrix=matrix, as_of=dt.date(2019, 8, 30)
    )
    assert _keys(result.project) == {
        "python": "2.7", "torch": "1.1.0", "torchvision": False, "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["pip"],
    }  # fmt: skip
    assert any("published pytorch-cpu for torch 1.0.0-1.1.0 only" in w for w in result.warnings)


def test_conda_forge_pytorch_cpu_is_not_the_pytorch_channel_package(matrix: Matrix) -> None:
    text = "channels: [conda-forge]\ndependencies:\n  - python=3.10\n  - pytorch-cpu\n"
    project = _text(text, "environment.yml", matrix, as_of="2023-06-01")
    assert project["torch"] != "1.1.0"


def test_poetry_caret_on_a_companion_bounds_the_torch_release(matrix: Matrix) -> None:
    # ^0.18.1 on a 0.x version keeps the minor (>=0.18.1,<0.19): torchvision 0.18.x pairs with
    # torch 2.3.x only, so ^2.3.1 takes 2.3.1 on 2024-08-21 although 2.4.0 (2024-07-24) is newer
    text = (
        '[tool.poetry.dependencies]\npython = "3.12"\ntorch = "^2.3.1"\ntorchvision = "^0.18.1"\n'
    )
    result = import_text(text, filename="pyproject.toml", matrix=matrix, as_of=dt.date(2024, 8, 21))
    assert _keys(result.project)["torch"] == "2.3.1"
    assert any("torchvision <0.19,>=0.18.1 belongs to torch 2.3.1 only" in w
               for w in result.warnings)  # fmt: skip
    # a companion range every release meets changes nothing
    wide = text.replace("^0.18.1", ">=0.5")
    project = _keys(import_text(wide, filename="pyproject.toml", matrix=matrix,
                                as_of=dt.date(2024, 8, 21)).project)  # fmt: skip
    assert project["torch"] == "2.4.0"


def test_a_pip_extension_page_does_not_pin_the_conda_torch(matrix: Matrix) -> None:
    # conda solves the unpinned pytorch first (1.11.0 on 2022-04-02 had a CUDA 10.2 build);
    # the PyG page names the extension wheels' build, and they require no torch
    text = """\
conda create -n x python=3.8
conda install pytorch cudatoolkit=10.2 -c pytorch
pip install torch-scatter -f https://pytorch-geometric.com/whl/torch-1.8.0+cu102.html
"""
    project = _text(text, "install.sh", matrix, as_of="2022-04-02")
    assert (project["torch"], project["accelerators"], project["managers"]) == (
        "1.11.0", ["cu102"], ["conda"],
    )  # fmt: skip


def test_github_setup_miniconda_environment_file(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "environment.yml").write_text(ENVIRONMENT)
    workflow = tmp_path / "ci.yaml"
    workflow.write_text(
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: conda-incubator/setup-miniconda@v3\n        with:\n"
        "          environment-file: environment.yml\n          activate-environment: t4c\n"
        "      - run: pytest\n"
    )
    keys, _ = _file(workflow, matrix)
    assert keys == {
        "python": "3.8", "torch": "1.8.0", "torchvision": True, "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["conda"],
    }  # fmt: skip


def test_gitlab_image_and_scripts(matrix: Matrix) -> None:
    text = """\
image: python:3.9
variables:
  TORCH: "1.12.1"
stages: [test]
.template: &setup
  before_script:
    - pip install torch==$TORCH+cu113 --extra-index-url https://download.pytorch.org/whl/cu113
unit:
  stage: test
  <<: *setup
  script:
    - pytest
"""
    assert _text(text, ".gitlab-ci.yml", matrix) == {
        "python": "3.9", "torch": "1.12.1", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu113"], "managers": ["pip"],
    }  # fmt: skip


def test_azure_pipelines_matrix_and_python_task(matrix: Matrix) -> None:
    text = """\
trigger: [main]
pool:
  vmImage: ubuntu-latest
strategy:
  matrix:
    Python38:
      python.version: '3.8'
    Python39:
      python.version: '3.9'
steps:
  - task: UsePythonVersion@0
    inputs:
      versionSpec: '$(python.version)'
  - script: |
      pip install torch==1.7.1+cpu -f https://download.pytorch.org/whl/torch_stable.html
    displayName: Install
"""
    assert _text(text, "azure-pipelines.yml", matrix) == {
        "python": "3.8", "torch": "1.7.1", "torchvision": False, "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["pip"],
    }  # fmt: skip


def test_circleci_image_python_and_run_steps(matrix: Matrix) -> None:
    text = """\
version: 2.1
jobs:
  build:
    docker:
      - image: cimg/python:3.7
    steps:
      - checkout
      - run:
          name: install
          command: pip install torch==1.4.0 torchvision==0.5.0
      - run: pytest
"""
    assert _text(text, "config.yml", matrix) == {
        "python": "3.7", "torch": "1.4.0", "torchvision": "0.5.0", "torchaudio": False,
        "accelerators": ["cu101"], "managers": ["pip"],
    }  # fmt: skip


def test_ci_line_numbers_are_the_files(matrix: Matrix) -> None:
    text = "language: python\npython: 3.8\ninstall:\n  - pip install torch==1.7.1 torch==1.8.1\n"
    result = import_text(text, filename=".travis.yml", matrix=matrix)
    assert any(w.startswith(".travis.yml:4: torch was 1.7.1") for w in result.warnings), (
        result.warnings
    )


def test_a_repository_finds_its_pipfile_and_travis_file(tmp_path: Path) -> None:
    (tmp_path / "Pipfile").write_text(PIPFILE)
    (tmp_path / ".travis.yml").write_text(TRAVIS_CONDA)
    (tmp_path / "environment.yml").write_text(ENVIRONMENT)
    (tmp_path / "tox.ini").write_text(TOX)
    sources, _ = find_sources(tmp_path)
    assert [s.rel for s in sources] == ["environment.yml", "Pipfile", ".travis.yml", "tox.ini"]


# --- setup.py and pyproject.toml -----------------------------------------------------------------

SETUP_MAIN = """\
import sys
from setuptools import find_packages, setup

if __name__ == "__main__":
    if sys.version_info < (3, 6):
        sys.exit("Sorry, Python >=3.6 is required.")
    with open("requirements.txt") as f:
        reqs = f.read()
    setup(
        name="gossip",
        python_requires=">=3.6",
        packages=find_packages(),
        install_requires=reqs.strip().split("\\n"),
        extras_require={"parse": ["pandas", "pytz"]},
    )
"""


def test_setup_py_under_a_main_guard_reading_a_file_as_text(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.0.0\ntorchvision==0.2.1\npillow>=7.1.0\n")
    (tmp_path / "setup.py").write_text(SETUP_MAIN)
    keys, _ = _file(tmp_path / "setup.py", matrix)
    # PyPI's linux wheel of 1.0.0 is the CUDA 9.0 build; python_requires >=3.6 is a floor
    assert keys == {
        "python": None, "torch": "1.0.0", "torchvision": "0.2.1", "torchaudio": False,
        "accelerators": ["cu90"], "managers": ["pip"],
    }  # fmt: skip


def test_setup_py_setup_called_in_a_function(matrix: Matrix) -> None:
    text = (
        "from setuptools import setup\n\ndef main():\n    deps = ['numpy']\n"
        "    deps.append('torch==1.8.1')\n    setup(name='x', install_requires=deps)\n\n"
        "if __name__ == '__main__':\n    main()\n"
    )
    assert _text(text, "setup.py", matrix)["torch"] == "1.8.1"


@pytest.mark.parametrize(
    ("backend", "torch"),
    [
        ("BACKEND: Optional[str] = None", "1.8.1"),  # the default route: the else branch
        ("BACKEND = 'triton'", None),  # the opt-in route names no torch: refused
        ("BACKEND = os.getenv('X')", None),  # not known: neither branch is read
    ],
)
def test_setup_py_if_on_a_known_constant_takes_its_branch(
    backend: str, torch: str | None, matrix: Matrix
) -> None:
    text = (
        f"import os\nfrom setuptools import setup\n{backend}\n"
        "if os.getenv('ROCM') == '1':\n    BACKEND = 'triton'\n"  # an `if` not followed
        "if BACKEND == 'triton':\n    reqs = ['einops']\nelse:\n    reqs = ['torch==1.8.1']\n"
        "setup(name='x', install_requires=reqs)\n"
    )
    if torch is None:
        with pytest.raises(ImportSpecError):
            _text(text, "setup.py", matrix)
    else:
        assert _text(text, "setup.py", matrix)["torch"] == torch


def test_setup_py_torch_only_in_an_extra(tmp_path: Path, matrix: Matrix) -> None:
    """A plain `pip install .` leaves extras out: no torch, and the refusal names the extra and
    the `--extra` that reads it (as CORPUS.yaml grades asyml/texar-pytorch's setup.py)."""
    text = (
        "from setuptools import setup\nEXTRAS = {\n    'test': ['pytest'],\n"
        "    'gpu': ['torch==1.13.1', 'torchvision==0.14.1'],\n}\n"
        "setup(name='x', install_requires=['numpy'], extras_require=EXTRAS)\n"
    )
    with pytest.raises(ImportSpecError, match=r"only in the extra\(s\) 'gpu'.*--extra gpu"):
        import_text(text, filename="setup.py", matrix=matrix)
    (tmp_path / "setup.py").write_text(text)
    options = ImportOptions(source=tmp_path / "setup.py", extras=("gpu",))
    project = run_import(options, matrix).project
    assert (project["torch"], project["torchvision"]) == ("1.13.1", "0.14.1")


def test_setup_py_extra_is_not_read_when_torch_is_a_plain_requirement(matrix: Matrix) -> None:
    text = (
        "from setuptools import setup\nsetup(name='x', install_requires=['torch==1.8.1'],\n"
        "      extras_require={'old': ['torch==1.4.0']})\n"
    )
    assert _text(text, "setup.py", matrix)["torch"] == "1.8.1"


def test_pyproject_torch_only_in_optional_dependencies(tmp_path: Path, matrix: Matrix) -> None:
    text = (
        '[project]\nname = "x"\ndependencies = ["numpy"]\n\n[project.optional-dependencies]\n'
        'dev = ["pytest"]\ntorch = ["torch==2.2.2", "torchaudio==2.2.2"]\n'
    )
    with pytest.raises(ImportSpecError, match="--extra torch"):
        _text(text, "pyproject.toml", matrix)
    (tmp_path / "pyproject.toml").write_text(text)
    options = ImportOptions(source=tmp_path / "pyproject.toml", extras=("torch",))
    keys = _keys(run_import(options, matrix).project)
    assert (keys["torch"], keys["torchaudio"], keys["accelerators"]) == (
        "2.2.2",
        "2.2.2",
        ["cu121"],
    )


def test_conda_selector_metapackages_are_not_carried_to_pip(matrix: Matrix) -> None:
    text = (
        "name: kaggle\nchannels: [conda-forge, defaults]\ndependencies:\n"
        "  - _libgcc_mutex=0.1=main\n  - _tflow_select=2.1.0=gpu\n  - python=3.7.9=h7579374_0\n"
        "  - tqdm=4.50.2=pyh9f0ad1d_0\n  - pip:\n    - torch==1.7.1+cu110\n"
        "    - torchvision==0.8.2+cu110\n"
    )
    result = import_text(text, filename="environment.yml", matrix=matrix)
    assert _keys(result.project) == {
        "python": "3.7", "torch": "1.7.1", "torchvision": "0.8.2", "torchaudio": False,
        "accelerators": ["cu110"], "managers": ["pip"],
    }  # fmt: skip
    assert "tqdm==4.50.2.*" in result.project["pip"]  # type: ignore[operator]
    assert any("conda metapackages left out" in w and "_tflow_select" in w for w in result.warnings)


# --- README prose ------------------------------------------------------------------------------


def test_readme_prose_pins_when_no_command_names_torch(matrix: Matrix) -> None:
    text = (
        "# Installation\n\n## Requirements\n\n1. Install pytorch==1.4.0 and torchvision==0.5.0 "
        "following [official instruction](https://pytorch.org/).\n2. Clone this repo.\n"
        "3. Install dependencies:\n\n    ```python\n    pip install -r requirements.txt\n    ```\n"
    )
    result = import_text(text, filename="INSTALL.md", matrix=matrix)
    # PyPI's linux wheel of 1.4.0 is the CUDA 10.1 build (matrix pip.yaml pypi-default)
    assert _keys(result.project) == {
        "python": None, "torch": "1.4.0", "torchvision": "0.5.0", "torchaudio": False,
        "accelerators": ["cu101"], "managers": ["pip"],
    }  # fmt: skip
    assert (
        "INSTALL.md:5: no install command names torch; the exact pins the install prose names "
        "are read as `pip install torch==1.4.0 torchvision==0.5.0` (no index named: PyPI's build)"
    ) in result.warnings


def test_readme_prose_pins_yield_to_a_command(matrix: Matrix) -> None:
    text = (
        "Requirements: torch==1.4.0\n\n```bash\npip install torch==1.8.1 "
        "-f https://download.pytorch.org/whl/torch_stable.html\n```\n"
    )
    assert _text(text, "README.md", matrix)["torch"] == "1.8.1"


def test_readme_prose_without_install_words_is_not_read(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match="no torch"):
        import_text("We tested with torch==1.4.0 on a V100.\n", filename="README.md", matrix=matrix)


def test_readme_prose_version_in_a_requirements_section(matrix: Matrix) -> None:
    text = (
        "# Net\n\n### Updates\n* Now compatible with PyTorch v1.0.0. (12 Mar 2019)\n\n"
        "## Setup\n\n### Software\nRequirements:\n* Linux\n* Python 3.7\n* PyTorch v1.0.1\n"
    )
    result = import_text(text, filename="README.md", matrix=matrix, as_of=dt.date(2019, 4, 29))
    # the release named, not the changelog's; PyPI's linux wheel of 1.0.1 is the CUDA 9.0 build
    assert _keys(result.project) == {
        "python": "3.7", "torch": "1.0.1", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu90"], "managers": ["pip"],
    }  # fmt: skip
    assert any("the version the README's prose names" in w for w in result.warnings)
    assert any("python 3.7 is read from the README's prose" in w for w in result.warnings)


def test_readme_prose_floor_is_a_range(matrix: Matrix) -> None:
    text = "## Prerequisites\n\n- [PyTorch](https://pytorch.org/) 1.0 or higher\n- Python 3.6+\n"
    # the newest release as of 2019-12-13 is 1.3.1 (PyPI's linux wheel: CUDA 10.1); a python
    # floor names no python
    assert _text(text, "README.md", matrix, as_of="2019-12-13") == {
        "python": None, "torch": "1.3.1", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu101"], "managers": ["pip"],
    }  # fmt: skip


def test_readme_prose_version_outside_sections_when_that_is_all(matrix: Matrix) -> None:
    text = "# Net\n\nThis repository is tested under Python 3.6, PyTorch 0.4.1.\n"
    got = _text(text, "README.md", matrix, as_of="2019-06-04")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.6", "0.4.1", ["cu90"])


def test_readme_prose_python_joins_a_command_that_names_none(matrix: Matrix) -> None:
    text = (
        "## Installation\n### Requirements\n* Python 3.9.2\n* PyTorch 1.8.1\n\n"
        "`pip install torch==1.8.1+cu101 -f https://download.pytorch.org/whl/torch_stable.html`\n"
    )
    got = _text(text, "README.md", matrix, as_of="2023-06-15")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.9", "1.8.1", ["cu101"])


def test_readme_tested_with_sentence_beside_a_command_names_no_python(matrix: Matrix) -> None:
    text = (
        "## Environment setup\nThis code has been tested on Python 3.7.6, Pytorch 1.5.1, CUDA "
        "10.1, please install:\n```bash\npip install torch==1.5.1+cu101 "
        "-f https://download.pytorch.org/whl/torch_stable.html\n```\n"
        "## Requirements\n- Python 3.10-3.12\n"
    )
    got = _text(text, "README.md", matrix, as_of="2021-06-01")
    # the command's route; the sentence is the authors' machine, and a span names no python
    assert (got["python"], got["torch"], got["accelerators"]) == (None, "1.5.1", ["cu101"])


def test_readme_gpu_labeled_alternatives_take_the_first(matrix: Matrix) -> None:
    text = (
        "## Environment\n```\nconda create -n det python=3.7 -y\n\n2080:\n"
        "conda install pytorch=1.8.1 cudatoolkit=10.2 torchvision=0.9.1 -c pytorch\n\n3080:\n"
        "conda install pytorch==1.9.0 torchvision==0.10.0 cudatoolkit=11.1 -c pytorch "
        "-c conda-forge\n```\n\n```\nconda create -n cls python=3.7 -y\n# cuda10\n"
        "conda install pytorch==1.8.0 torchvision==0.9.0 torchaudio==0.8.0 cudatoolkit=10.2 "
        "-c pytorch -y\n```\n"
    )
    result = import_text(text, filename="README.md", matrix=matrix, as_of=dt.date(2023, 10, 11))
    # page v1.8.1: conda install pytorch==1.8.1 torchvision==0.9.1 cudatoolkit=10.2 -c pytorch
    assert _keys(result.project) == {
        "python": "3.7", "torch": "1.8.1", "torchvision": "0.9.1", "torchaudio": False,
        "accelerators": ["cu102"], "managers": ["conda"],
    }  # fmt: skip
    assert any("README.md:8: an alternative route (3080)" in w for w in result.warnings)
    assert any("README.md:14: an alternative route (cuda10)" in w for w in result.warnings)


def test_readme_comment_steps_are_not_gpu_alternatives(matrix: Matrix) -> None:
    text = (
        "```bash\n# install pytorch\npip install torch==1.8.1\n# then the CUDA extension\n"
        "pip install torch==1.9.0\n```\n"
    )
    # `# then the CUDA extension` names CUDA, but only one labeled part installs torch: the
    # later install replaces the earlier one as in any script
    assert _text(text, "README.md", matrix)["torch"] == "1.9.0"


def test_github_workflow_steps_run_in_the_checkout_root(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".git").mkdir()  # a clone: only a checkout's root is read above the workflow
    (tmp_path / "requirements.txt").write_text("torch==1.13.1\ntorchvision==0.14.1\n")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "test.yml").write_text(
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n"
        "        with: {python-version: '3.9'}\n      - run: pip install -r requirements.txt\n"
    )
    keys, _ = _file(workflows / "test.yml", matrix)
    # PyPI's linux wheel of 1.13.1 is the CUDA 11.7 build (matrix pip.yaml pypi-default)
    assert keys == {
        "python": "3.9", "torch": "1.13.1", "torchvision": "0.14.1", "torchaudio": False,
        "accelerators": ["cu117"], "managers": ["pip"],
    }  # fmt: skip


def test_a_ci_file_elsewhere_reads_only_its_own_folder(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.13.1\n")
    ci = tmp_path / "ci"
    ci.mkdir()
    (ci / ".travis.yml").write_text(
        "language: python\ninstall:\n  - pip install -r ../requirements.txt\n"
    )
    with pytest.raises(ImportSpecError, match="no torch"):
        _file(ci / ".travis.yml", matrix)


TOX = """\
[tox]
envlist = py37, py38, flake8

[testenv]
deps =
    numpy
    py37: torch==1.4.0
    py38: torch==1.8.1
    -r{toxinidir}/requirements.txt
commands =
    pip install torchvision==0.5.0
    pytest {posargs}

[testenv:flake8]
deps = flake8
commands = flake8
"""


def test_tox_first_environment(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("tqdm==4.50.0\n")
    (tmp_path / "tox.ini").write_text(TOX)
    project, warnings = build_project(parse_file(tmp_path / "tox.ini"), matrix, name="paper")
    # py37's factor-conditioned torch==1.4.0: PyPI's linux wheel is the CUDA 10.1 build
    assert _keys(project) == {
        "python": "3.7", "torch": "1.4.0", "torchvision": "0.5.0", "torchaudio": False,
        "accelerators": ["cu101"], "managers": ["pip"],
    }  # fmt: skip
    assert project["pip"] == ["numpy", "tqdm==4.50.0"]
    assert "tox.ini: envlist is py37, py38, flake8; envgen reads the first, py37" in warnings


def test_tox_environment_section_and_basepython(matrix: Matrix) -> None:
    text = (
        "[tox]\nenvlist = gpu\n\n[testenv]\ndeps = torch==1.4.0\n\n[testenv:gpu]\n"
        "basepython = python3.8\ndeps =\n    torch==1.8.1+cu111\n"
        "    -f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    keys = _text(text, "tox.ini", matrix)
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.8", "1.8.1", ["cu111"])


def test_a_companion_pin_that_is_no_version_is_a_departure(matrix: Matrix) -> None:
    # found by the import fuzzer: `===1..2` (arbitrary equality) is no PEP 440 version
    text = "torch==2.1.0\ntorch==2.1.0 torchvision===1..2\n"
    result = import_text(text, filename="requirements.txt", matrix=matrix)
    assert result.project["torchvision"] == "0.16.0"


PIPFILE_LOCK = """{
    "_meta": {"hash": {"sha256": "00"}, "requires": {"python_version": "3.8"}, "sources": []},
    "default": {"torch": {"version": "==1.8.1"}}, "develop": {}
}
"""


def test_pipenv_install_in_a_dockerfile_prefers_the_lock(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "Pipfile").write_text(PIPFILE)
    (tmp_path / "Pipfile.lock").write_text(PIPFILE_LOCK)
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        "FROM python:3.8-slim\nCOPY Pipfile Pipfile.lock ./\n"
        "RUN pip install pipenv && pipenv install --system --deploy\n"
    )
    keys, _ = _file(dockerfile, matrix)
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.8", "1.8.1", ["cu102"])


def test_pipenv_python_option(matrix: Matrix) -> None:
    keys = _text("pipenv --python 3.7 install torch==1.4.0\n", "setup.sh", matrix)
    assert (keys["python"], keys["torch"]) == ("3.7", "1.4.0")


def test_pipenv_run_pip_install(matrix: Matrix) -> None:
    keys = _text("pipenv run pip install torch==1.4.0\n", "setup.sh", matrix)
    assert keys["torch"] == "1.4.0"


def test_github_env_values_expand_the_matrix(matrix: Matrix) -> None:
    text = (
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n"
        "      matrix:\n        include:\n          - torch: 1.12.1\n            cuda: cu116\n"
        "    env:\n      CUDA: ${{ matrix.cuda }}\n    steps:\n      - env:\n"
        "          TORCH: ${{ matrix.torch }}\n        run: pip install torch==$TORCH+$CUDA "
        "--extra-index-url https://download.pytorch.org/whl/$CUDA\n"
    )
    keys = _text(text, "ci.yml", matrix)
    assert (keys["torch"], keys["accelerators"]) == ("1.12.1", ["cu116"])


SETUP_HELPER = """\
import os
from setuptools import setup

HERE = os.path.abspath(os.path.dirname(__file__))


def read_requirements(path="requirements.txt"):
    with open(os.path.join(HERE, path)) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


setup(name="x", install_requires={call})
"""


@pytest.mark.parametrize(
    "call",
    [
        'read_requirements("requirements/base.txt")',
        "read_requirements(path='requirements/base.txt')",
    ],
)
def test_setup_py_requirements_read_by_its_own_function(
    call: str, tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "requirements").mkdir()
    (tmp_path / "requirements" / "base.txt").write_text("torch==1.7.1\nnumpy\n")
    (tmp_path / "setup.py").write_text(SETUP_HELPER.replace("{call}", call))
    keys, warnings = _file(tmp_path / "setup.py", matrix)
    assert keys["torch"] == "1.7.1"
    assert (
        "setup.py:12: install_requires comes from the file's own read_requirements(), which "
        "opens requirements/base.txt; read as that requirements file (setup.py is never run)"
    ) in warnings


def test_setup_py_helper_default_argument(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.7.1\n")
    (tmp_path / "setup.py").write_text(
        SETUP_HELPER.replace("install_requires={call}", "install_requires=REQS").replace(
            "setup(", "REQS = read_requirements()\nsetup("
        )
    )
    keys, _ = _file(tmp_path / "setup.py", matrix)
    assert keys["torch"] == "1.7.1"


def test_setup_py_helper_opening_two_files_is_not_guessed(matrix: Matrix) -> None:
    text = (
        "from setuptools import setup\ndef reqs():\n    a = open('a.txt').read()\n"
        "    b = open('b.txt').read()\n    return (a + b).splitlines()\n"
        "setup(name='x', install_requires=reqs())\n"
    )
    with pytest.raises(ImportSpecError, match="no torch"):
        import_text(text, filename="setup.py", matrix=matrix)
