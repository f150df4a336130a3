"""The mechanisms the twenty-second held-out draw's misses asked for (issue 24), each on
real-shaped input written here: a `Pre-requisites` heading, an install guide in docs/ whose
commands run in the clone, `conda run -n ENV CMD`, bash arrays ("${ARGS[@]}"), `cd DIR && pwd
-P`, tree-sitter-bash's reading of `a | b | c || d`, a Miniconda image's python only until the
file makes an environment of its own, `$PWD` in a definition file's %files, a Makefile imported
itself, and an unpinned `pip install torchvision` after an exact torch (pip installs the torch
the newest torchvision pins)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from envgen.repro.importer.detect import detect_kind
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _checkout(tmp_path: Path, files: dict[str, str]) -> Path:
    """A clone (a .git folder) holding `files`."""
    (tmp_path / ".git").mkdir()
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


# --- a Pre-requisites heading -------------------------------------------------------------------
_PREREQUISITES = """# DADA

## Preparation

### Pre-requisites
* Python 3.7
* Pytorch >= 1.2.0
* CUDA 10.0 or higher

### Installation
```bash
$ pip install -e ./DADA
```

### Training
For the experiments done in the paper, we used pytorch 1.2.0 and CUDA 10.0.
"""


def test_a_pre_requisites_heading_is_what_the_project_needs(matrix: Matrix) -> None:
    got = import_keys(_PREREQUISITES, "README.md", matrix, "2020-02-24")
    # the floor, not the paper's "we used": the newest release then, PyPI's build (CUDA 10.1)
    assert got["torch"] == "1.4.0"
    assert got["accelerators"] == ["cu101"]
    assert got["python"] == "3.7"


# --- an install guide in docs/ --------------------------------------------------------------------
_GUIDE = """Installation
============

Prerequisites
-------------

* Python 3.5 or newer
* PyTorch 1.0 or newer

Navigate to the source code directory and run the following:

.. code-block:: bash

   pip install -r requirements.txt
"""


def test_a_docs_guide_reads_the_requirements_at_the_checkout_root(
    tmp_path: Path, matrix: Matrix
) -> None:
    root = _checkout(
        tmp_path,
        {"requirements.txt": "torch\ntorchvision\ntqdm\n", "docs/source/guide/install.rst": _GUIDE},
    )
    got = import_file_keys(root / "docs/source/guide/install.rst", matrix, "2019-08-15")
    assert got["torch"] == "1.2.0"
    assert got["torchvision"] is True


def test_a_guide_outside_docs_is_not_widened_to_the_root(tmp_path: Path, matrix: Matrix) -> None:
    root = _checkout(
        tmp_path,
        {"requirements.txt": "torch\ntorchvision\n", "examples/mnist/install.rst": _GUIDE},
    )
    got = import_file_keys(root / "examples/mnist/install.rst", matrix, "2019-08-15")
    assert got["torchvision"] is False  # examples/ holds its own requirements: not the root's


# --- conda run, arrays, pwd -P and the pipeline before || -------------------------------------------
_CONDA_RUN = """#!/usr/bin/env bash
set -euo pipefail
ENV_NAME="${1:-nodebits}"
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_ROOT="$(cd "${SCRIPT_DIR}/.." && pwd -P)"
CONDA_RUN_ARGS=(-n "${ENV_NAME}")
conda env list | awk '{print $1}' | grep -qx "${ENV_NAME}" || \\
  conda env create -n "${ENV_NAME}" -f "${REPO_ROOT}/environment.yml"
conda run --no-capture-output "${CONDA_RUN_ARGS[@]}" python -m pip install -r "${REPO_ROOT}/requirements-cu118.txt"
"""
_ENV = "name: nodebits\ndependencies:\n  - python=3.8.20\n  - pip\n"
_REQS = (
    "--extra-index-url https://download.pytorch.org/whl/cu118\n"
    "torch==2.1.0+cu118\ntorchvision==0.16.0+cu118\ntorchaudio==2.1.0+cu118\n"
)


def test_conda_run_with_an_array_of_options_runs_pip_in_the_environment(
    tmp_path: Path, matrix: Matrix
) -> None:
    root = _checkout(
        tmp_path,
        {
            "scripts/create_env.sh": _CONDA_RUN,
            "environment.yml": _ENV,
            "requirements-cu118.txt": _REQS,
        },
    )
    got = import_file_keys(root / "scripts/create_env.sh", matrix, "2026-01-10")
    assert got["torch"] == "2.1.0"
    assert got["accelerators"] == ["cu118"]
    # `conda env list | ... | grep -qx NAME ||`: a fresh machine has no such environment
    assert got["python"] == "3.8"


def test_conda_run_in_another_environment_is_not_read(matrix: Matrix) -> None:
    script = (
        "conda create -n main python=3.9 -y\n"
        "conda run -n main pip install torch==2.1.0\n"
        "conda run -n aux pip install torch==1.13.1\n"
    )
    got = import_keys(script, "install.sh", matrix, "2024-01-10")
    assert got["torch"] == "2.1.0"
    assert got["python"] == "3.9"


def test_an_array_expands_to_its_elements() -> None:
    route = shell.interpret(
        'PKGS=(torch==1.8.1 "torchvision==0.9.1")\npip install "${PKGS[@]}"\n'
        "OPTS=(-q)\npip install ${OPTS[*]} numpy\n",
        env={},
    )
    assert [c.text for c in route.commands] == [
        "pip install torch==1.8.1 torchvision==0.9.1",
        "pip install -q numpy",
    ]


@pytest.mark.parametrize(
    ("text", "runs"),
    [
        # tree-sitter-bash reads this as `conda env list | (awk | grep || conda create)`
        ("conda env list | awk '{print $1}' | grep -qx x || conda create -n x -y", True),
        ("conda env list | grep -qx x || conda create -n x -y", True),
        ("conda env list | awk '{print $1}' | grep -qx x && conda create -n x -y", False),
    ],
)
def test_a_lookup_pipeline_before_a_chain_fails_on_a_fresh_machine(text: str, runs: bool) -> None:
    commands = [c.text for c in shell.interpret(text + "\n", env={}).commands]
    assert ("conda create -n x -y" in commands) is runs


# --- a Miniconda image's python ---------------------------------------------------------------------
_DEF = """Bootstrap:docker
From:continuumio/miniconda3:4.9.2

%post
. /etc/profile
{create}
conda install pytorch torchvision torchaudio cudatoolkit=10.2 -c pytorch
"""


def test_an_environment_the_file_makes_without_python_names_none(matrix: Matrix) -> None:
    made = _DEF.format(create="conda create --name pytorch\nconda activate pytorch")
    got = import_keys(made, "pytorch.def", matrix, "2021-11-17")
    assert got["python"] is None
    assert got["torch"] == "1.10.0"
    # into the image's base environment: its python (Miniconda3 4.9.2's 3.8) is the one
    base = import_keys(_DEF.format(create=""), "pytorch.def", matrix, "2021-11-17")
    assert base["python"] == "3.8"


def test_pwd_in_a_definitions_files_is_the_build_folder(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("torch\nnumpy\n")
    (tmp_path / "environment.def").write_text(
        "Bootstrap: docker\nFrom: python:3.9\n\n%files\n    $PWD/requirements.txt requirements.txt\n"
        "\n%post\n    pip install --root-user-action=ignore -r requirements.txt\n"
    )
    got = import_file_keys(tmp_path / "environment.def", matrix, "2023-11-24")
    assert got["torch"] == "2.1.1"
    assert got["python"] == "3.9"


# --- a Makefile imported itself ---------------------------------------------------------------------
_MAKEFILE = """TORCH_VENV_DIR = venv
PIP_VENV = $(TORCH_VENV_DIR)/bin/pip3

torch-venv:
\tpython3 -m venv $(TORCH_VENV_DIR)
\t$(PIP_VENV) install torch torchvision matplotlib
\t$(PIP_VENV) install jupyter

gpu-old:
\t$(PIP_VENV) install torch==1.4.0

clean:
\trm -rf $(TORCH_VENV_DIR)
"""


def test_a_makefile_is_read_as_its_default_goal(matrix: Matrix) -> None:
    assert detect_kind("Makefile", _MAKEFILE) == "makefile"
    assert detect_kind("GNUmakefile", "") == detect_kind("env.mk", "") == "makefile"
    got = import_keys(_MAKEFILE, "Makefile", matrix, "2024-05-23")
    assert got["torch"] == "2.3.0"  # the first target's unpinned torch, not gpu-old's 1.4.0
    assert got["accelerators"] == ["cu121"]
    assert got["torchvision"] is True


def test_a_makefile_that_installs_no_torch_is_refused(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match="no torch"):
        import_keys("all:\n\tpip install numpy\n", "Makefile", matrix, "2024-05-23")


# --- an unpinned torchvision after an exact torch ---------------------------------------------------
_WHEEL = "https://download.pytorch.org/whl/cu90/torch-0.4.1-cp36-cp36m-linux_x86_64.whl"


@pytest.mark.parametrize(
    ("lines", "as_of", "torch", "accelerator"),
    [
        # torchvision 0.5.0 (the newest on 2020-02-18) requires torch==1.4.0: pip replaces 0.4.1
        ([f"pip install {_WHEEL}", "pip install torchvision"], "2020-02-18", "1.4.0", "cu101"),
        # torchvision 0.2.1 (the newest in 2018) is pure Python and accepts any torch
        ([f"pip install {_WHEEL}", "pip install torchvision"], "2018-09-01", "0.4.1", "cu90"),
        # one command: pip resolves both together and keeps the file's torch
        ([f"pip install {_WHEEL} torchvision"], "2020-02-18", "0.4.1", "cu90"),
        # --no-deps: torchvision's requirement is not installed
        (
            [f"pip install {_WHEEL}", "pip install --no-deps torchvision"],
            "2020-02-18",
            "0.4.1",
            "cu90",
        ),
    ],
)
def test_an_unpinned_torchvision_after_an_exact_torch_brings_its_own(
    matrix: Matrix, lines: list[str], as_of: str, torch: str, accelerator: str
) -> None:
    got = import_keys("\n".join(["#!/bin/bash", *lines]) + "\n", "install.sh", matrix, as_of)
    assert got["torch"] == torch
    assert got["accelerators"] == [accelerator]


# --- the review of these mechanisms -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("script", "commands"),
    [
        # `+=` appends (to an array and to a string), a scalar sets the first element, `unset`
        # drops it, a subshell's array ends with it, "${A[@]}" splices into a new array, a
        # comment is no element, "${A[*]}" is one word
        ("P=(torch==1.4.0)\nP+=(torchvision==0.5.0)\npip install \"${P[@]}\"\n",
         ["pip install torch==1.4.0 torchvision==0.5.0"]),
        ("X=torch\nX+===1.4.0\npip install $X\n", ["pip install torch==1.4.0"]),
        ("P=(torch==1.0.0 six)\nP=torch==1.4.0\npip install \"${P[@]}\"\n",
         ["pip install torch==1.4.0 six"]),
        ("(P=(torch==1.0.0))\npip install \"${P[@]}\" y\n",
         ["pushd .", "popd", 'pip install "${P[@]}" y']),
        ("A=(a)\nA=(\"${A[@]}\" b)\nA=(\"${A[@]}\" # the CUDA one\n c)\npip install \"${A[@]}\"\n",
         ["pip install a b c"]),
        ("A=(a b)\npip install \"x${A[*]}\"\n", ['pip install "xa b"']),
    ],
)  # fmt: skip
def test_arrays_follow_bash(script: str, commands: list[str]) -> None:
    assert [c.text for c in shell.interpret(script, env={}).commands] == commands


def test_arrays_are_bounded_in_all() -> None:
    words = " ".join("x" * 60 for _ in range(256))
    spliced = " ".join(['"${A[@]}"'] * 256)
    script = f"A=({words})\n" + "".join(f"B{i}=({spliced})\n" for i in range(200))
    # each array holds at most MAX_VALUE characters: the reader stops at the first that would not
    assert shell.interpret(script + "pip install torch\n", env={}).commands == []
    twice = f"A=({words})\npip install {' '.join(['${A[@]}'] * 10)}\n"
    assert shell.interpret(twice, env={}).commands == []


@pytest.mark.parametrize(
    ("lines", "torch"),
    [
        # torchvision installed already: "Requirement already satisfied"
        (["pip install torch==1.2.0 torchvision==0.4.0", "pip install torchvision"], "1.2.0"),
        # -U takes the newest torchvision, and the torch it pins
        (["pip install torch==1.2.0 torchvision==0.4.0", "pip install -U torchvision"], "1.5.0"),
        # a later torch install is the one pip leaves
        (
            ["pip install torch==1.2.0", "pip install torchvision", "pip install torch==1.4.0"],
            "1.4.0",
        ),
        # never older than the file's own torch
        (["pip install torch==1.5.0", "pip install torchvision"], "1.5.0"),
    ],
)
def test_the_torchvision_rule_keeps_what_pip_keeps(
    matrix: Matrix, lines: list[str], torch: str
) -> None:
    got = import_keys("\n".join(["#!/bin/bash", *lines]) + "\n", "install.sh", matrix, "2020-05-01")
    assert got["torch"] == torch


def test_an_environment_the_file_never_uses_keeps_the_base_python(matrix: Matrix) -> None:
    dockerfile = (
        "FROM continuumio/miniconda3:4.7.12\nRUN conda create -n tools -y nodejs\n"
        "RUN pip install torch==1.4.0\n"
    )
    assert import_keys(dockerfile, "Dockerfile", matrix, "2020-03-01")["python"] == "3.7"


def test_a_makefile_whose_default_goal_is_help_reads_its_install_goal(matrix: Matrix) -> None:
    makefile = "help:\n\t@echo run make install\n\ninstall:\n\tpip install torch==1.4.0\n"
    assert import_keys(makefile, "Makefile", matrix, "2020-03-01")["torch"] == "1.4.0"
