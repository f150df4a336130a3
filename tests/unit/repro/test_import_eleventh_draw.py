"""The mechanisms the eleventh held-out draw's misses asked for (issue 24), each on real-shaped
input written here: a file test on the repository's own files (`[ -f environment.yml ]`),
pytorch-cuda=12.x beside conda-forge without -c nvidia, hatch-requirements-txt's dynamic
dependencies, setup-uv's python-version, a quoted WORKDIR, a batch file's `.\\requirements.txt`,
`python -mpip`, a batch `) else if errorlevel 2 (` chain and Windows' embeddable python."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text, parse_file
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


# --- file tests on the repository's own files ------------------------------------------------------
CREATE_ENV = """\
#!/bin/bash
if [ -f environment.yml ]; then
  conda env create -f environment.yml
else
  conda create -n nc python=3.10
  conda activate nc
  pip3 install torch torchvision --index-url https://download.pytorch.org/whl/cu118
  conda env export > environment.yml
fi
"""


def test_a_file_test_on_a_file_the_repository_lacks_is_false(
    tmp_path: Path, matrix: Matrix
) -> None:
    # A fresh clone has no environment.yml (the script writes one at its end): the else branch.
    (tmp_path / "create_env.sh").write_text(CREATE_ENV)
    assert import_file_keys(tmp_path / "create_env.sh", matrix, "2023-10-28") == {
        "python": "3.10", "torch": "2.1.0", "torchvision": True, "torchaudio": False,
        "accelerators": ["cu118"], "managers": ["pip"],
    }  # fmt: skip


def test_a_file_test_on_a_file_the_repository_has_is_true(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "create_env.sh").write_text(CREATE_ENV)
    (tmp_path / "environment.yml").write_text(
        "channels: [pytorch]\ndependencies:\n  - python=3.8\n  - pytorch=1.12.1\n  - cudatoolkit=11.3\n"
    )
    keys = import_file_keys(tmp_path / "create_env.sh", matrix, "2023-10-28")
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.8", "1.12.1", ["cu113"])


def test_a_file_test_after_cd_or_on_a_file_the_script_writes_is_not_known() -> None:
    def probe(_test: str, name: str) -> bool:
        return name == "env"

    text = (
        "cd sub\nif [ -d env ]; then pip install torch==1.0.0; else pip install torch==2.0.0; fi\n"
    )
    route = shell.interpret(text, probe=probe)
    # unknown after a cd: the first branch that installs, as before
    assert [c.text for c in route.commands][-1] == "pip install torch==1.0.0"
    text = "if [ ! -d env ]; then exit 1; fi\npip install torch==2.0.0\n"
    assert [c.text for c in shell.interpret(text, probe=probe).commands] == [
        "pip install torch==2.0.0"
    ]


# --- pytorch-cuda=12.x with conda-forge and without -c nvidia -----------------------------------------
def test_pytorch_cuda_12_solves_from_conda_forges_cuda_packages(matrix: Matrix) -> None:
    text = (
        "name: x\nchannels:\n  - pytorch\n  - conda-forge\ndependencies:\n  - python=3.11\n"
        "  - pytorch=2.3.*\n"
    )
    keys = import_keys(text, "environment.yml", matrix, "2026-04-21")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == (
        "2.3.1",
        ["cu121"],
        ["conda"],
    )
    # Before conda-forge had CUDA 12's split packages (its `cuda` 12.1 metapackage came
    # 2023-12-14), only the CPU build solved; and without conda-forge it still does.
    early = import_keys(text.replace("2.3.*", "2.1.0"), "environment.yml", matrix, "2023-11-01")
    assert early["accelerators"] == ["cpu"]
    alone = import_keys(
        text.replace("  - conda-forge\n", ""), "environment.yml", matrix, "2026-04-21"
    )
    assert alone["accelerators"] == ["cpu"]


# --- small forms -------------------------------------------------------------------------------------
def test_hatch_requirements_txt_dynamic_dependencies(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["hatchling", "hatch-requirements-txt"]\n'
        '[project]\nname = "x"\ndynamic = ["dependencies"]\n'
        '[tool.hatch.metadata.hooks.requirements_txt]\nfiles = ["requirements.txt"]\n'
    )
    (tmp_path / "requirements.txt").write_text("transformers\ntorch\n")
    found = parse_file(tmp_path / "pyproject.toml")
    assert found.torch is not None
    assert found.torch.version is None


def test_setup_uv_python_version(matrix: Matrix) -> None:
    text = (
        "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: astral-sh/setup-uv@v5\n        with:\n          python-version: '3.12'\n"
        "      - run: uv pip install torch --index-url https://download.pytorch.org/whl/cpu\n"
    )
    keys = import_keys(text, ".github/workflows/ci.yml", matrix, "2026-06-26")
    assert (keys["python"], keys["accelerators"]) == ("3.12", ["cpu"])


def test_a_quoted_workdir_is_the_folder(tmp_path: Path) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "requirements.txt").write_text("torch==2.2.0\n")
    (tmp_path / "Dockerfile").write_text(
        'FROM ubuntu:20.04\nCOPY . .\nWORKDIR "/app"\nRUN pip install -r requirements.txt\n'
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert found.torch.version == "2.2.0"


BATCH_MENU = """\
@echo off
choice /C 123 /N /M "Enter your choice (1, 2, or 3):"
if errorlevel 3 (
    exit /b 0
) else if errorlevel 2 (
    .\\python-3.11.7-embed-amd64\\python.exe -m pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cpu
    .\\python-3.11.7-embed-amd64\\python.exe -m pip install -r .\\requirements.txt
) else (
    .\\python-3.11.7-embed-amd64\\python.exe -m pip install torch==2.7.0 --index-url https://download.pytorch.org/whl/cu128
    .\\python-3.11.7-embed-amd64\\python.exe -m pip install -r .\\requirements.txt
)
"""


def test_a_batch_else_if_chain_takes_one_branch(tmp_path: Path, matrix: Matrix) -> None:
    # Commands succeed on the default route (ERRORLEVEL 0): neither `if errorlevel` holds, so the
    # last branch (CUDA) runs; the CPU one is an alternative. The embeddable package's folder
    # names the python, and `.\\requirements.txt` is the file beside the script.
    (tmp_path / "install.bat").write_text(BATCH_MENU)
    (tmp_path / "requirements.txt").write_text("opencv-python\n")
    result = run_import(ImportOptions(source=tmp_path / "install.bat"), matrix)
    p = result.project
    assert (p["python"], p["torch"], p["accelerators"]) == ("3.11", "2.7.0", ["cu128"])
    assert "opencv-python" in str(p.get("pip"))
    assert any("an alternative route" in w and "whl/cpu" in w for w in result.warnings)


def test_python_dash_m_pip_without_a_space(matrix: Matrix) -> None:
    text = (
        "python -mpip install torch==1.11.0+cu113 torchvision==0.12.0+cu113 "
        "--extra-index-url https://download.pytorch.org/whl/cu113\n"
    )
    keys = import_keys(text, "install.bat", matrix, "2024-01-01")
    assert (keys["torch"], keys["torchvision"], keys["accelerators"]) == (
        "1.11.0",
        "0.12.0",
        ["cu113"],
    )


# --- conda: the CUDA package's form ---------------------------------------------------------------
def test_cudatoolkit_is_met_by_cudatoolkit_builds_only(matrix: Matrix) -> None:
    # 1.13's CUDA 11.6 build depends on pytorch-cuda=11.6 (and -c nvidia), not cudatoolkit: an
    # unpinned pytorch with cudatoolkit=11.6 was 1.12.1, the newest cudatoolkit 11.6 build.
    text = "conda create -n x python=3.8\nconda install pytorch cudatoolkit=11.6 -c pytorch -c conda-forge\n"
    keys = import_keys(text, "install_env.sh", matrix, "2023-06-23")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == (
        "1.12.1",
        ["cu116"],
        ["conda"],
    )
    named = text.replace("cudatoolkit=11.6 -c pytorch", "pytorch-cuda=11.6 -c pytorch -c nvidia")
    assert import_keys(named, "install_env.sh", matrix, "2023-06-23")["torch"] == "1.13.1"


# --- a container a script runs ---------------------------------------------------------------------
def test_docker_run_of_a_pytorch_image(matrix: Matrix) -> None:
    text = (
        "alias=`whoami`; docker run -it --rm --runtime=nvidia --ipc=host -v /home/${alias}:/w "
        "pytorch/pytorch:1.1.0-cuda10.0-cudnn7.5-devel bash\n"
    )
    keys = import_keys(text, "docker_run.sh", matrix, "2020-05-01")
    assert (keys["torch"], keys["torchvision"], keys["accelerators"]) == ("1.1.0", True, ["cu100"])


# --- READMEs ---------------------------------------------------------------------------------------
def test_a_path_through_the_readmes_own_clone(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.9.0\n")
    (tmp_path / "README.md").write_text(
        "## Installation\n```shell\n$ git clone https://github.com/me/paper-code\n"
        "$ pip install -r paper-code/requirements.txt\n```\n"
    )
    assert import_file_keys(tmp_path / "README.md", matrix, "2021-07-01")["torch"] == "1.9.0"


TWO_ENVIRONMENTS = """\
## Setup
```bash
git clone https://github.com/me/nerf
cd nerf
conda create -n nerf_jax python=3.9
conda activate nerf_jax
pip install --upgrade "jax[cuda11_pip]"
conda create -n nerf_torch python=3.10
conda activate nerf_torch
conda install pytorch torchvision pytorch-cuda=11.8 -c pytorch -c nvidia
```
"""


def test_the_environment_that_installs_torch_is_imported(matrix: Matrix) -> None:
    result = import_text(
        TWO_ENVIRONMENTS, filename="README.md", matrix=matrix, as_of=dt.date(2024, 6, 9)
    )
    p = result.project
    assert (p["python"], p["torch"], p["accelerators"], p["managers"]) == (
        "3.10", "2.3.1", ["cu118"], ["conda"],
    )  # fmt: skip
    assert "jax" not in str(p.get("pip"))
    assert any("installs no torch" in w for w in result.warnings)


def test_a_fenced_package_list_under_a_heading_and_joined_by_semicolons(matrix: Matrix) -> None:
    text = "## Our_Environment\n```\ntorch==1.7.1\ntorchvision==0.8.2\nscipy==1.6.0\n```\n"
    keys = import_keys(text, "README.md", matrix, "2022-03-18")
    assert (keys["torch"], keys["torchvision"]) == ("1.7.1", "0.8.2")
    text = "1. **Pytorch Version**\n```\ntorch==1.8.1+cu111;  torchvision==0.9.1+cu111\n```\n"
    keys = import_keys(text, "README.md", matrix, "2024-03-01")
    assert (keys["torch"], keys["torchvision"], keys["accelerators"]) == (
        "1.8.1",
        "0.9.1",
        ["cu111"],
    )


def test_a_requirement_list_item_and_a_quoted_local_version(matrix: Matrix) -> None:
    text = "## Implementation\n- Requirement\n  - Python 3.7\n  - Pytorch 1.8.0\n  - torchvision 0.9.0\n"
    keys = import_keys(text, "README.md", matrix, "2021-06-01")
    assert (keys["python"], keys["torch"], keys["torchvision"]) == ("3.7", "1.8.0", "0.9.0")
    text = "## Requirements\n\n* CUDA == 11.1\n\n* Python == 3.8\n\n* Pytorch == '1.7.0+cu110'\n"
    keys = import_keys(text, "README.md", matrix, "2021-10-15")
    assert (keys["torch"], keys["accelerators"]) == ("1.7.0", ["cu110"])


# --- images a script or CI job builds, scripts it runs ---------------------------------------------
BUILD_ARGS_DOCKERFILE = """\
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ARG TORCH_VER
ARG SUFFIX
RUN pip3 install torch==${TORCH_VER}${SUFFIX} --extra-index-url https://download.pytorch.org/whl/cu121
"""


def test_a_script_runs_docker_build_with_build_args(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(BUILD_ARGS_DOCKERFILE)
    (tmp_path / "docker" / "build.sh").write_text(
        "docker build \\\n    --build-arg BASE_IMAGE=${BASE_IMAGE} \\\n"
        "    --build-arg TORCH_VER=${TORCH_VER} --build-arg SUFFIX=+cu121 \\\n"
        "    -t me/torch:${TORCH_VER} -f docker/Dockerfile .\n"
    )
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "build.yml").write_text(
        "env:\n  BASE_IMAGE: python:3.12-slim\n  TORCH_VER: 2.3.1\n"
        "jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - run: docker/build.sh\n"
    )
    keys = import_file_keys(tmp_path / ".github" / "workflows" / "build.yml", matrix, "2024-10-01")
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.12", "2.3.1", ["cu121"])


def test_docker_build_push_action_with_build_args(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "Dockerfile").write_text(BUILD_ARGS_DOCKERFILE.replace("cu121", "cpu"))
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "docker.yml").write_text(
        "jobs:\n  docker-build:\n    strategy:\n      matrix:\n        include:\n"
        "        - BASE: python:3.11.3-slim-buster\n          TORCH: 2.0.0\n"
        "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
        "      - uses: docker/build-push-action@v4\n        with:\n          context: .\n"
        "          file: ./Dockerfile\n          build-args: |\n"
        "            BASE_IMAGE=${{ matrix.BASE }}\n            TORCH_VER=${{ matrix.TORCH }}\n"
        "            SUFFIX=+cpu\n"
    )
    keys = import_file_keys(tmp_path / ".github" / "workflows" / "docker.yml", matrix, "2023-06-01")
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.11", "2.0.0", ["cpu"])


def test_a_script_a_ci_job_runs_reads_files_from_the_checkout_root(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "devops").mkdir()
    (tmp_path / "devops" / "install.sh").write_text(
        "#!/bin/bash\nset -e\npip install -r requirements-torch.txt "
        "--index-url https://download.pytorch.org/whl/cu121\n"
    )
    (tmp_path / "requirements-torch.txt").write_text("torch==2.2.0+cu121\n")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "ci.yml").write_text(
        "jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/setup-python@v5\n        with:\n          python-version: '3.11'\n"
        "      - run: |\n          chmod +x devops/install.sh\n          ./devops/install.sh\n"
    )
    keys = import_file_keys(tmp_path / ".github" / "workflows" / "ci.yml", matrix, "2025-01-01")
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.11", "2.2.0", ["cu121"])


# --- the companion built from source, optional steps, tables, pip's bound on conda's torch ---------
def test_a_torchvision_clone_built_from_source_names_torchvision(matrix: Matrix) -> None:
    text = (
        "FROM floydhub/dl-base:2.1.0-gpu-py2.13\n"
        "RUN pip install http://download.pytorch.org/whl/cu80/"
        "torch-0.2.0.post3-cp27-cp27mu-manylinux1_x86_64.whl\n"
        "RUN git clone https://github.com/pytorch/vision && cd vision && git checkout 7492fae "
        "&& python setup.py install && cd .. && rm -rf vision\n"
    )
    assert import_keys(text, "Dockerfile", matrix, "2018-06-01")["torchvision"] is True
    url = "torch==1.8.1\ngit+https://github.com/pytorch/vision.git@v0.9.1\n"
    assert import_keys(url, "requirements.txt", matrix, "2021-06-01")["torchvision"] is True
    other = "torch==1.8.1\ngit+https://github.com/me/vision-tools.git\n"
    assert import_keys(other, "requirements.txt", matrix, "2021-06-01")["torchvision"] is False


def test_an_optional_step_of_a_readme_block_is_an_alternative(matrix: Matrix) -> None:
    text = (
        "# Install\n```\n# Required: Sampling\nconda create --name j python=3.7.5\n"
        "conda install pytorch=1.4 torchvision=0.5 cudatoolkit=10.0 -c pytorch\n\n"
        "# Optional: Apex for faster training with fused_adam\n"
        "conda install pytorch=1.1 torchvision=0.3 cudatoolkit=10.0 -c pytorch\n```\n"
    )
    result = import_text(text, filename="README.md", matrix=matrix, as_of=dt.date(2020, 6, 9))
    assert (result.project["torch"], result.project["torchvision"]) == ("1.4.0", "0.5.0")
    assert any("an optional step" in w and "pytorch=1.1" in w for w in result.warnings)


def test_an_indented_table_of_versions_in_a_requirements_section(matrix: Matrix) -> None:
    text = (
        "## Requirement\n\n\tPython: 2 or 3  \n\tPyTorch: 1.0 \n\n"
        "[PyTorch 0.3 compatible version is here.](https://github.com/me/x/tree/PyTorch0.3)\n"
    )
    assert import_keys(text, "README.md", matrix, "2019-01-25")["torch"] == "1.0.0"


def test_a_pip_range_after_conda_pytorch_bounds_conda_s_release(matrix: Matrix) -> None:
    # `-e .` needing torch>=2.2 after conda's unpinned pytorch: pip keeps conda's build (the
    # pytorch channel's last release, 2.5.1, meets the range); it does not install 2.7.1.
    text = (
        "channels:\n  - pytorch\n  - nvidia\n  - conda-forge\ndependencies:\n  - python=3.11\n"
        "  - pytorch::pytorch\n  - pytorch::pytorch-cuda=11.8\n  - pip\n  - pip:\n"
        "      - torch>=2.2\n"
    )
    keys = import_keys(text, "environment.yml", matrix, "2026-03-19")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == (
        "2.5.1",
        ["cu118"],
        ["conda"],
    )


# --- a script's own path -------------------------------------------------------------------------
def test_dirname_of_the_scripts_own_path() -> None:
    text = (
        "BASE_DIR=$(realpath $(dirname $(dirname $0)))\n"
        "pip install -r ${BASE_DIR}/requirements.txt\n"
        'cd "$(dirname "$0")"\n'
    )
    run = shell.interpret(text, env={"0": "./scripts/env.sh"})
    assert [c.text for c in run.commands] == [
        "pip install -r ./requirements.txt",
        'cd "./scripts"',
    ]
    # without $0 (a README's block) the script's folder is not known: no ./ path is made up
    assert shell.interpret(text).commands[0].text == "pip install -r /requirements.txt"


def test_a_dockerfile_runs_a_script_that_finds_the_root_by_its_own_path(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "env_cuda.sh").write_text(
        "#!/bin/bash -eu\nBASE_DIR=$(realpath $(dirname $(dirname $0)))\n"
        'pip install "$(head -n 1 ${BASE_DIR}/requirements_cu117.txt)"\n'
        "pip install -r ${BASE_DIR}/requirements_cu117.txt\n"
    )
    (tmp_path / "requirements_cu117.txt").write_text("torch==1.13.0\n")
    (tmp_path / "Dockerfile").write_text(
        "FROM nvidia/cuda:11.7.0-cudnn8-devel-ubuntu20.04\nENV BASE_DIR=/home/dwk\n"
        "COPY . ${BASE_DIR}\nWORKDIR ${BASE_DIR}\nRUN ./scripts/env_cuda.sh\n"
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert found.torch.version == "1.13.0"


# --- functions' arguments and error paths on an unknown condition ---------------------------------
WRAPPED = """\
exec_name="conda"
function run_command() {
    echo $@
    if [ $dry_run == "true" ]; then
        echo "dry run"
    else
        $@
    fi
}
function conda_raw_install() {
    run_command $exec_name install -y $@
}
if [ -x "$(command -v mamba)" ]; then
    exec_name="mamba"
elif [ -x "$(command -v conda)" ]; then
    exec_name="conda"
else
    echo "Could not find mamba or conda"
    exit 127
fi
if [ "$CONDA_DEFAULT_ENV" != "$env_name" ]; then
    echo "Wrong environment activated. Activate $env_name"
    exit 1
fi
conda_raw_install -c pytorch -c nvidia pytorch==1.13.1 pytorch-cuda=11.7
"""


def test_a_function_runs_its_arguments_and_error_paths_are_not_the_route() -> None:
    # `run_command ... $@` runs the function's own arguments; an `else` (or a branch) on an
    # unknown condition that only exits is the error path, not the default route.
    commands = [c.text for c in shell.interpret(WRAPPED, env={"0": "setup.sh"}).commands]
    assert commands == ["mamba install -y -c pytorch -c nvidia pytorch==1.13.1 pytorch-cuda=11.7"]


def test_an_unknown_condition_whose_only_branch_exits_is_not_taken() -> None:
    text = 'if [ -x "$(command -v nvcc)" ]; then\n  exit 1\nfi\npip install torch==2.0.1\n'
    assert [c.text for c in shell.interpret(text).commands] == ["pip install torch==2.0.1"]


# --- the review's cases: what the rules above must not break ------------------------------------
@pytest.mark.parametrize(
    ("text", "commands"),
    [
        (
            'main() {\n  while [[ $# -gt 0 ]]; do\n    case $1 in --cpu) CPU=1; shift;; '
            '*) echo "unknown $1"; exit 1;; esac\n  done\n  pip install torch==1.13.1\n}\n'
            'main "$@"\n',
            ["pip install torch==1.13.1"],
        ),
        (
            'main() {\n if [ $# -eq 0 ]; then pip install torch==1.10.0; '
            'else pip install torch==1.9.0; fi\n}\nmain "$@"\n',
            ["pip install torch==1.10.0"],
        ),
        ('main() { conda create -n $1 python=3.8 -y; }\nmain "$@"\n',
         ["conda create -n $1 python=3.8 -y"]),
        (
            "setup() { PY=${1:-3.8}; conda create -n env python=$PY -y; }\nsetup\n",
            ["conda create -n env python=3.8 -y"],
        ),
        ("inst() { pip install torch==$1; }\nFORCE=1 inst 1.13.1\n",
         ["pip install torch==1.13.1"]),
    ],
    ids=["option-loop", "argc", "unknown-arg", "default-arg", "assignment-before"],
)  # fmt: skip
def test_function_arguments_at_the_top_level(text: str, commands: list[str]) -> None:
    # the script's own "$@" is no arguments on the default route; a function's ${1:-x} and an
    # assignment before its name are read as bash reads them
    assert [c.text for c in shell.interpret(text).commands] == commands


def test_a_second_environment_switches_only_when_activated(matrix: Matrix) -> None:
    text = (
        "conda create -n main python=3.9 -y\nconda create -n tools python=3.6 -y\n"
        "conda activate main\npip install torch==1.10.0\n"
    )
    keys = import_keys(text, "install.sh", matrix, "2022-01-01")
    assert (keys["python"], keys["torch"]) == ("3.9", "1.10.0")


def test_a_second_environment_keeps_the_dockerfiles_copies(tmp_path: Path) -> None:
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "requirements.txt").write_text("torch==1.13.1\n")
    (tmp_path / "Dockerfile").write_text(
        "FROM continuumio/miniconda3:4.12.0\nRUN conda create -n jax python=3.10 -y\n"
        "COPY env/requirements.txt /app/requirements.txt\nWORKDIR /app\n"
        "RUN conda create -n torchenv python=3.9 -y && conda activate torchenv && "
        "pip install -r requirements.txt\n"
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert (found.torch.version, found.python) == ("1.13.1", "3.9")


def test_docker_run_of_another_image_says_nothing(matrix: Matrix) -> None:
    text = (
        "```\ndocker run --gpus all -it --rm pytorch/pytorch bash\n```\n"
        "```\npip install torch==1.13.1 torchvision==0.14.1\n```\n"
    )
    assert import_keys(text, "README.md", matrix, "2023-01-01")["torch"] == "1.13.1"
    ngc = "docker run --tmpfs /tmp --rm nvcr.io/nvidia/pytorch:20.02-py3 python train.py\n"
    found = import_text(ngc, filename="run.sh", matrix=matrix, as_of=dt.date(2020, 3, 1))
    assert found.project["torch"] == "1.4.0"


def test_an_optional_step_that_is_the_only_torch_install_is_read(matrix: Matrix) -> None:
    text = (
        "```\nconda create -n x python=3.8 -y\nconda activate x\n"
        "# Optional: install pytorch with CUDA 11.3 if you have a GPU\n"
        "conda install pytorch==1.11.0 torchvision cudatoolkit=11.3 -c pytorch -y\n```\n"
    )
    keys = import_keys(text, "README.md", matrix, "2022-06-01")
    assert (keys["torch"], keys["accelerators"]) == ("1.11.0", ["cu113"])


def test_a_pip_range_with_an_upper_bound_after_conda_pytorch_is_pips(matrix: Matrix) -> None:
    text = (
        "channels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10\n  - pytorch\n"
        "  - pytorch-cuda=11.8\n  - pip\n  - pip:\n      - torch<2.0\n"
    )
    keys = import_keys(text, "environment.yml", matrix, "2024-06-01")
    assert (keys["torch"], keys["managers"]) == ("1.13.1", ["pip"])


def test_a_floor_in_prose_takes_no_local_label(matrix: Matrix) -> None:
    text = "## Requirements\n* PyTorch >= 1.7.0+cu110\n"
    assert import_keys(text, "README.md", matrix, "2021-01-01")["torch"] == "1.7.1"


def test_export_path_puts_the_installed_miniconda_first(matrix: Matrix) -> None:
    text = (
        "wget https://repo.anaconda.com/miniconda/Miniconda3-py38_4.10.3-Linux-x86_64.sh\n"
        "bash Miniconda3-py38_4.10.3-Linux-x86_64.sh -b -p $HOME/miniconda3\n"
        'export PATH="$HOME/miniconda3/bin:$PATH"\npip install torch==1.10.0\n'
    )
    assert import_keys(text, "setup.sh", matrix, "2022-01-01")["python"] == "3.8"


@pytest.mark.parametrize(
    "clone",
    [
        "git clone -b v0.8.2 https://github.com/pytorch/vision.git && cd vision && "
        "python setup.py install",
        "git clone --depth 1 https://github.com/pytorch/vision && cd vision && pip install .",
    ],
)
def test_a_clone_with_options_is_named_by_its_url(clone: str, matrix: Matrix) -> None:
    text = f"pip install torch==1.7.1\n{clone}\n"
    assert import_keys(text, "install.sh", matrix, "2021-01-01")["torchvision"] is True


def test_popd_leaves_the_clone(matrix: Matrix) -> None:
    text = (
        "pip install torch==1.7.1\ngit clone https://github.com/pytorch/vision\n"
        "pushd vision\ngit checkout v0.8.2\npopd\npython setup.py develop\n"
    )
    assert import_keys(text, "install.sh", matrix, "2021-01-01")["torchvision"] is False


def test_a_followed_scripts_nested_include_resolves_from_its_own_file(tmp_path: Path) -> None:
    # pip resolves `-r common.txt` inside tools/reqs.txt from tools/, never from the caller's
    # folder; the caller's folder is a fallback for the script's own lines only
    (tmp_path / ".git").mkdir()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "setup.sh").write_text("pip install -r tools/reqs.txt\n")
    (tmp_path / "tools" / "reqs.txt").write_text("-r common.txt\n")
    (tmp_path / "common.txt").write_text("torch==1.8.0\n")
    (tmp_path / "ci.sh").write_text("bash tools/setup.sh\n")
    found = parse_file(tmp_path / "ci.sh")
    assert found.torch is None


def test_a_script_a_followed_script_runs_is_found_from_the_callers_folder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "devops").mkdir()
    (tmp_path / "devops" / "install.sh").write_text("bash devops/torch.sh\n")
    (tmp_path / "devops" / "torch.sh").write_text("pip install torch==2.0.1\n")
    (tmp_path / "ci.sh").write_text("./devops/install.sh\n")
    found = parse_file(tmp_path / "ci.sh")
    assert found.torch is not None
    assert found.torch.version == "2.0.1"


# --- the channel's unlisted builds, and where their cudatoolkit came from -----------------------------
def test_the_channels_cuda_10_0_builds_of_1_3_and_1_4(matrix: Matrix) -> None:
    # pytorch-1.4.0-py3.7_cuda10.0.130_cudnn7.6.3_0 existed (moi90/pytorch_compute_capabilities'
    # table of the channel's packages), though the page lists 9.2 and 10.1 only
    text = "conda install pytorch torchvision cudatoolkit=10.0 -c pytorch\n"
    keys = import_keys(text, "install.sh", matrix, "2020-06-01")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == ("1.4.0", ["cu100"], ["pip"])


def test_a_cudatoolkit_build_solves_where_a_channel_has_that_cudatoolkit(matrix: Matrix) -> None:
    # 1.11.0's CUDA 11.5 build needs cudatoolkit 11.5, which Anaconda's defaults never carried
    # (ContinuumIO/anaconda-issues#12964): beside conda-forge it is the newest, else 11.3 is
    text = "channels:\n  - pytorch\n  - defaults\ndependencies:\n  - pytorch=1.11.0\n"
    assert import_keys(text, "environment.yml", matrix, "2022-06-01")["accelerators"] == ["cu113"]
    forge = text.replace("  - defaults\n", "  - defaults\n  - conda-forge\n")
    assert import_keys(forge, "environment.yml", matrix, "2022-06-01")["accelerators"] == ["cu115"]


# --- the red team's cases ----------------------------------------------------------------------------
def test_a_long_test_expression_is_unknown_not_a_crash() -> None:
    text = "if [ " + "! " * 1000 + "-f zq ]; then pip install a==1; fi\npip install torch==2.1.0\n"
    assert shell.interpret(text).commands[-1].text == "pip install torch==2.1.0"


def test_ci_expressions_are_bounded(tmp_path: Path) -> None:
    refs = "${{env.X}}" * 5_000
    (tmp_path / "ci.yml").write_text(
        f'env:\n  X: "{"x" * 4_000}"\njobs:\n  test:\n    runs-on: ubuntu-latest\n'
        f"    steps:\n      - run: pip install torch==2.1.0 {refs}\n"
    )
    found = parse_file(tmp_path / "ci.yml")
    assert any("expand to more than" in p for p in found.problems)


def test_a_file_test_through_a_symlink_says_nothing_of_the_folder_outside(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    (proj / "sub").mkdir(parents=True)
    (proj / ".git").mkdir()
    (proj / "l").symlink_to(tmp_path / "secretdir")
    (proj / "install.sh").write_text(
        "if [ -d l/../proj/sub ]; then pip install torch==2.1.0; else pip install torch==2.0.1; fi\n"
    )
    answers = []
    for present in (False, True):
        if present:
            (tmp_path / "secretdir").mkdir()
        found = parse_file(proj / "install.sh")
        answers.append(found.torch.version if found.torch else None)
    assert answers[0] == answers[1]


def test_a_build_that_never_existed_is_no_default_and_11_1_needs_its_channel(
    matrix: Matrix,
) -> None:
    # 1.9.1 on the channel: 10.2 and 11.1 only (the page's 11.3 never existed); cudatoolkit 11.1
    # was never in defaults, so `-c pytorch` alone gets 10.2 and `-c nvidia` 11.1
    text = "conda install pytorch torchvision -c pytorch\n"
    assert import_keys(text, "install.sh", matrix, "2021-10-13")["accelerators"] == ["cu102"]
    nvidia = text.replace("-c pytorch", "-c pytorch -c nvidia")
    assert import_keys(nvidia, "install.sh", matrix, "2021-10-13")["accelerators"] == ["cu111"]
