"""`envgen import` of the families the held-out corpus missed (issue 24), each a general mechanism.

Every fixture here is written for this file (none is copied from a corpus file). Expected answers
follow from the shipped matrix (`envgen matrix show <version>`) and the facts named beside each
case.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand, pip_pins
from envgen.render.requirements import requirement_lines
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, ImportResult, import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _import(matrix: Matrix, filename: str, text: str) -> ImportResult:
    return import_text(text, filename=filename, matrix=matrix)


def _keys(result: ImportResult) -> tuple[object, ...]:
    p = result.project
    return (p.get("python"), p["torch"], p["accelerators"], p["managers"])


# --- conda CUDA builds the page does not list ----------------------------------------------------
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # pytorch-1.8.1-py3.7_cuda10.1_cudnn7.6.3_0 was on the pytorch channel (matrices/
        # inferred-builds.yaml cites the table of the channel's packages); the page lists 10.2/11.3.
        ("conda install -y pytorch==1.8.1 torchvision==0.9.1 cudatoolkit=10.1 -c pytorch",
         (None, "1.8.1", ["cu101"], ["conda"])),
        ("conda install pytorch=1.8.0 torchvision cudatoolkit=10.1 -c pytorch",
         (None, "1.8.0", ["cu101"], ["conda"])),
        ("conda install pytorch==1.10.2 cudatoolkit=11.1 -c pytorch -c nvidia",
         (None, "1.10.2", ["cu111"], ["conda"])),
    ],
    ids=["1.8.1-cu101", "1.8.0-cu101", "1.10.2-cu111"],
)  # fmt: skip
def test_a_conda_cuda_build_the_channel_had_is_kept(
    matrix: Matrix, line: str, expected: tuple[object, ...]
) -> None:
    result = _import(matrix, "install.sh", line + "\n")
    assert _keys(result) == expected
    assert not any("the compute platform was" in w for w in result.warnings)


def test_a_conda_cuda_build_that_never_existed_still_moves(matrix: Matrix) -> None:
    # torch 1.9.0 was never built for CUDA 10.1 on either route (matrix show 1.9.0).
    result = _import(
        matrix, "install.sh", "conda install pytorch==1.9.0 cudatoolkit=10.1 -c pytorch\n"
    )
    assert result.project["accelerators"] == ["cu102"]
    assert any("the compute platform was cu101, now cu102" in w for w in result.warnings)


def test_no_torch_is_still_refused(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match="no torch"):
        _import(matrix, "requirements.txt", "numpy==1.19.2\n")


# --- post-releases kept ---------------------------------------------------------------------------
def _expands(matrix: Matrix, result: ImportResult) -> tuple[str, ...]:
    """The project.yaml the import wrote, expanded as `envgen list` does: its variants' pins."""
    spec = parse_spec(result.text, path=Path("project.yaml"))
    return tuple(pip_pins(v).get("torch", "") for v in expand(spec, matrix).variants)


@pytest.mark.parametrize(
    ("filename", "text", "expected"),
    [
        # quick-start-module.js of the 0.4.1 era: the Linux cp37 wheels of 0.4.1 are 0.4.1.post2,
        # on the download.pytorch.org wheel pages the 0.4.1 pip rows name.
        ("install.sh",
         "pip3 install https://download.pytorch.org/whl/cu80/torch-0.4.1.post2-cp37-cp37m-"
         "linux_x86_64.whl\n",
         ("3.7", "0.4.1.post2", ["cu80"], ["pip"])),
        ("requirements.txt", "numpy==1.15.0\ntorch==0.4.1.post2\n",
         (None, "0.4.1.post2", ["cu90"], ["pip"])),
        # A wheel file name proves its post-release existed on the page it came from.
        ("setup_env.sh",
         "pip install https://download.pytorch.org/whl/cpu/torch-1.0.1.post2-cp36-cp36m-"
         "linux_x86_64.whl\n",
         ("3.6", "1.0.1.post2", ["cpu"], ["pip"])),
    ],
    ids=["0.4.1.post2-wheel", "0.4.1.post2-pin", "1.0.1.post2-wheel"],
)  # fmt: skip
def test_a_real_post_release_is_kept(
    matrix: Matrix, filename: str, text: str, expected: tuple[object, ...]
) -> None:
    result = _import(matrix, filename, text)
    assert _keys(result) == expected
    assert any(
        f"project.yaml keeps it: the lock pins torch=={expected[1]}" in w for w in result.warnings
    )
    assert "# the file pins" not in result.text
    assert _expands(matrix, result) == (f"{expected[1]}",)


def test_a_post_release_pypi_no_longer_has_is_kept_from_its_wheel_page(matrix: Matrix) -> None:
    # A plain pin went to PyPI, whose 1.0.1 is the cu90 build; PyPI has dropped 1.0.1.post2 since,
    # but its cu90 wheel is on download.pytorch.org/whl/cu90/ (floydhub/dockerfiles@34ea874).
    result = _import(matrix, "requirements.txt", "torch==1.0.1.post2\n")
    assert _keys(result) == (None, "1.0.1.post2", ["cu90"], ["pip"])
    assert any("the lock pins torch==1.0.1.post2 from download.pytorch.org/whl/cu90/" in w
               for w in result.warnings)  # fmt: skip
    spec = parse_spec(result.text, path=Path("project.yaml"))
    lines = {v.python: requirement_lines(v) for v in expand(spec, matrix).variants}
    assert (
        "torch @ https://download.pytorch.org/whl/cu90/torch-1.0.1.post2-cp37-cp37m-linux_x86_64.whl"
        in lines["3.7"]
    )


def test_a_post_release_wheel_is_the_one_the_lock_names(matrix: Matrix) -> None:
    # The 1.0.1 cpu row names 1.0.1's own wheel; the post-release's lock names the post2 wheel.
    result = _import(
        matrix,
        "setup_env.sh",
        "pip install https://download.pytorch.org/whl/cpu/torch-1.0.1.post2-cp36-cp36m-"
        "linux_x86_64.whl\n",
    )
    spec = parse_spec(result.text, path=Path("project.yaml"))
    (variant,) = expand(spec, matrix).variants
    assert [r for r in requirement_lines(variant) if r.startswith("torch")] == [
        "torch @ https://download.pytorch.org/whl/cpu/torch-1.0.1.post2-cp36-cp36m-linux_x86_64.whl"
    ]


def test_a_post_release_that_never_existed_is_a_departure(matrix: Matrix) -> None:
    result = _import(matrix, "requirements.txt", "torch==1.8.1.post3\n")
    assert result.project["torch"] == "1.8.1"
    assert any("torch was 1.8.1.post3, now 1.8.1" in w for w in result.warnings)


# --- the python of a Dockerfile's base image ------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # An interim Ubuntu release's python3 (24.10: 3.12), installed through python3-pip.
        ("FROM ubuntu:24.10\nRUN apt update && apt install -y python3-pip\n"
         "RUN pip install --break-system-packages torch==2.5.1\n",
         ("3.12", "2.5.1", ["cu124"], ["pip"])),
        # Any python3-X package installs the distro's python3 (Ubuntu 18.04: 3.6).
        ("FROM nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04\n"
         "RUN apt-get update && apt-get install -y python3-setuptools python3-wheel curl\n"
         "RUN pip3 install torch==1.2.0\n",
         ("3.6", "1.2.0", ["cu100"], ["pip"])),
        # Debian's python3 (bullseye: 3.9).
        ("FROM debian:bullseye-slim\nRUN apt-get install -y --no-install-recommends python3-venv "
         "python3-pip\nRUN pip3 install torch==1.10.0\n",
         ("3.9", "1.10.0", ["cu102"], ["pip"])),
        # python-pip on Ubuntu 16.04 is Python 2.7's: `pip install` runs under 2.7.
        ("FROM nvidia/cuda:9.0-cudnn7-devel-ubuntu16.04\n"
         "RUN apt-get update && apt-get install -y python-pip python-dev git\n"
         "RUN pip install torch==1.0.1\n",
         ("2.7", "1.0.1", ["cu90"], ["pip"])),
        ("FROM ubuntu:16.04\nRUN apt-get install -y python3.5 python3.5-dev\n"
         "RUN pip3.5 install torch==1.1.0\n",
         ("3.5", "1.1.0", ["cu90"], ["pip"])),
        # The pip of a versioned name is that python's.
        ("FROM buildpack-deps:stretch\nRUN pip3.5 install torch==1.1.0\n",
         ("3.5", "1.1.0", ["cu90"], ["pip"])),
        # Any image named python (circleci/python, cimg/python) states its python in the tag.
        ("FROM circleci/python:3.6.8-stretch\nRUN pip install --user torch==1.3.1\n",
         ("3.6", "1.3.1", ["cu101"], ["pip"])),
        # pytorch/pytorch's 2018 tags name the CUDA major only: cuda9 is CUDA 9.0.
        ("FROM pytorch/pytorch:0.4.1-cuda9-cudnn7-devel\nRUN pip install tqdm\n",
         (None, "0.4.1", ["cu90"], ["pip"])),
    ],
    ids=["ubuntu-24.10", "python3-x-package", "debian-bullseye", "python-pip-2.7", "apt-3.5",
         "pip3.5", "circleci-python", "pytorch-cuda9-tag"],
)  # fmt: skip
def test_the_python_of_a_dockerfiles_base_image(
    matrix: Matrix, text: str, expected: tuple[object, ...]
) -> None:
    assert _keys(_import(matrix, "Dockerfile", text)) == expected


def test_python_pip_beside_python3_is_not_python_2(matrix: Matrix) -> None:
    text = (
        "FROM ubuntu:18.04\nRUN apt-get install -y python-dev python3-dev python3-pip\n"
        "RUN pip3 install torch==1.4.0\n"
    )
    assert _keys(_import(matrix, "Dockerfile", text))[0] == "3.6"


# --- torch named through setup.py's own constants -------------------------------------------------
@pytest.mark.parametrize(
    ("text", "torch", "vision"),
    [
        ('from setuptools import setup\n\nTORCH_VERSION = "1.7.1"\n'
         'setup(name="m", install_requires=["numpy", "torch==" + TORCH_VERSION])\n',
         "1.7.1", False),
        ('from setuptools import setup\n\nTORCH_REQ = "torch==1.9.0"\nVISION = "0.10.0"\n'
         'REQUIRED = [TORCH_REQ, f"torchvision=={VISION}"]\nEXTRA = ["tqdm"]\n'
         'setup(name="m", install_requires=REQUIRED + EXTRA)\n',
         "1.9.0", "0.10.0"),
        ('import setuptools\n\ndeps = ["numpy>=1.16"]\ndeps.append("torch=={}".format("1.4.0"))\n'
         'deps += ["torchvision==0.5.0"]\nsetuptools.setup(install_requires=deps)\n',
         "1.4.0", "0.5.0"),
        ('from setuptools import setup\n\nV = "1.6.0"\n'
         'args = dict(name="m", install_requires=[f"torch=={V}"], python_requires="==3.7.*")\n'
         'setup(**args)\n',
         "1.6.0", False),
    ],
    ids=["concatenation", "fstring-list-sum", "append-format", "kwargs-dict"],
)  # fmt: skip
def test_torch_through_setup_py_constants(
    matrix: Matrix, text: str, torch: str, vision: object
) -> None:
    result = _import(matrix, "setup.py", text)
    assert (result.project["torch"], result.project["torchvision"]) == (torch, vision)
    assert not any("is computed" in w for w in result.warnings)


def test_setup_py_constants_never_run_code(matrix: Matrix) -> None:
    # A function's result is not a constant: the value stays unknown (nothing is executed).
    text = (
        'from setuptools import setup\n\ndef reqs():\n    return ["torch==1.6.0"]\n\n'
        "setup(install_requires=reqs())\n"
    )
    with pytest.raises(ImportSpecError, match="no torch"):
        _import(matrix, "setup.py", text)
    # A name rebound to something unknown is forgotten, not kept at its old value.
    text = (
        'import os\nfrom setuptools import setup\nT = "torch==1.6.0"\nT = os.environ["T"]\n'
        "setup(install_requires=[T])\n"
    )
    with pytest.raises(ImportSpecError, match="no torch"):
        _import(matrix, "setup.py", text)


def test_setup_py_propagation_is_bounded(matrix: Matrix) -> None:
    # 40 doublings would be a terabyte-long string: the bound leaves it unknown, quickly.
    lines = ['A = "torch==1.6.0"'] + [f"A = A + A  # {i}" for i in range(40)]
    text = "from setuptools import setup\n" + "\n".join(lines) + "\nsetup(install_requires=[A])\n"
    with pytest.raises(ImportSpecError, match="no torch"):
        _import(matrix, "setup.py", text)


# --- a Windows .bat installer's torch line --------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A venv's interpreter named by its Windows path (backslashes are not escapes in cmd.exe).
        ('@echo off\r\nset "TORCH_VER=2.1.2"\r\nset "INDEX=https://download.pytorch.org/whl/cu121"\r\n'
         "python -m venv venv\r\n"
         "venv\\Scripts\\python.exe -m pip install torch==%TORCH_VER% --index-url %INDEX%\r\n",
         (None, "2.1.2", ["cu121"], ["pip"])),
        ("@echo off\nset PIP=venv\\Scripts\\pip.exe\n"
         "%PIP% install torch==1.13.1+cu116 --extra-index-url https://download.pytorch.org/whl/cu116\n",
         (None, "1.13.1", ["cu116"], ["pip"])),
        # Windows' py launcher names the python.
        ("py -3.10 -m pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118\n",
         ("3.10", "2.0.1", ["cu118"], ["pip"])),
        ('@echo off\ncmd /c "pip install torch==1.13.1 --extra-index-url '
         'https://download.pytorch.org/whl/cu117"\n',
         (None, "1.13.1", ["cu117"], ["pip"])),
        # The install command handed to a launcher in a variable the file never expands itself.
        ("@echo off\nset PYTHON=\nset VENV_DIR=\nset TORCH_COMMAND=pip install torch==2.0.1 "
         "torchvision==0.15.2 --extra-index-url https://download.pytorch.org/whl/cu118\n"
         "call launcher.bat\n",
         (None, "2.0.1", ["cu118"], ["pip"])),
    ],
    ids=["venv-python-exe", "pip-exe-variable", "py-launcher", "cmd-c", "launcher-variable"],
)  # fmt: skip
def test_a_batch_installers_torch_line(
    matrix: Matrix, text: str, expected: tuple[object, ...]
) -> None:
    assert _keys(_import(matrix, "install.bat", text)) == expected


def test_a_variable_the_script_expands_is_not_read_twice(matrix: Matrix) -> None:
    # The script runs %TORCH% itself: the route reads it there, and only there.
    text = "@echo off\nset TORCH=pip install torch==2.0.1\nif 1==2 (\n  %TORCH%\n)\n"
    with pytest.raises(ImportSpecError, match="no torch"):
        _import(matrix, "install.bat", text)


def test_bash_c_string_is_read(matrix: Matrix) -> None:
    text = '#!/bin/bash\nbash -c "pip install torch==1.12.1 --extra-index-url https://download.pytorch.org/whl/cu116"\n'
    assert _keys(_import(matrix, "install.sh", text)) == (None, "1.12.1", ["cu116"], ["pip"])


# --- a conda build that never existed moves within its route -------------------------------------
def test_a_build_that_never_existed_moves_to_the_routes_nearest_build(matrix: Matrix) -> None:
    # known issue conda-1.8.1-cudatoolkit-11.3-never-built: the channel had 10.1, 10.2 and 11.1
    # builds of 1.8.1; the page's 11.3 line solved to a CPU build. The route still works.
    result = _import(
        matrix,
        "install.sh",
        "conda install pytorch==1.8.1 torchvision==0.9.1 cudatoolkit=11.3 -c pytorch -c conda-forge\n",
    )
    assert _keys(result) == (None, "1.8.1", ["cu111"], ["conda"])
    assert any(
        w.startswith("install.sh: the compute platform was cu113, now cu111, because "
                     "[conda-1.8.1-cudatoolkit-11.3-never-built]")
        for w in result.warnings
    )  # fmt: skip


def test_a_route_that_ended_still_moves_to_pip(matrix: Matrix) -> None:
    # conda-pytorch-channel-pre-1.5.1-deleted names the whole route, not one build.
    result = _import(
        matrix, "install.sh", "conda install pytorch==1.4.0 cudatoolkit=10.1 -c pytorch\n"
    )
    assert _keys(result) == (None, "1.4.0", ["cu101"], ["pip"])


def test_a_freezes_local_label_names_a_wheel_the_page_omits(matrix: Matrix) -> None:
    # 1.11.0's cu115 wheels (download.pytorch.org/whl/cu115): not on the page, recorded in
    # matrices/inferred-builds.yaml from a freeze and real install lines.
    text = (
        "numpy==1.22.3\ntorch==1.11.0+cu115\ntorchvision==0.12.0+cu115\ntorchaudio==0.11.0+cu115\n"
    )
    result = _import(matrix, "requirements.txt", text)
    assert _keys(result) == (None, "1.11.0", ["cu115"], ["pip"])
    assert not any("build was cu115" in w for w in result.warnings)


# --- releases before 0.4, kept (matrix rows from their wheels) ------------------------------------
@pytest.mark.parametrize(
    ("filename", "text", "expected"),
    [
        # A README's pin of the last 0.1.12 wheels (previous-versions' '< 1.0.0' wheel list).
        ("README.md", "## Install\n\n```bash\npip install torch==0.1.12.post2\n```\n",
         (None, "0.1.12.post2", ["cu80"], ["pip"])),
        ("install.sh",
         "pip install http://download.pytorch.org/whl/cu80/torch-0.2.0.post3-cp35-cp35m-"
         "manylinux1_x86_64.whl\npip install torchvision\n",
         ("3.5", "0.2.0.post3", ["cu80"], ["pip"])),
        # conda's fuzzy 0.3 is 0.3.*; the channel's packages are gone, the wheels are not.
        ("README.md",
         "```\nconda create -n x python=3.6\nconda install pytorch=0.3 torchvision cuda90 "
         "-c pytorch\n```\n",
         ("3.6", "0.3.1", ["cu90"], ["pip"])),
    ],
    ids=["0.1.12.post2-readme", "0.2.0.post3-wheel", "conda-0.3-cuda90"],
)  # fmt: skip
def test_a_release_before_0_4_is_kept(
    matrix: Matrix, filename: str, text: str, expected: tuple[object, ...]
) -> None:
    result = _import(matrix, filename, text)
    assert _keys(result) == expected
    assert not any("nearest release envgen has" in w for w in result.warnings)
    # project.yaml names the very wheel: requirements pin it by URL.
    assert _expands(matrix, result) == (str(expected[1]),)


def test_an_os_less_cuda_image_tag_is_its_default_ubuntu(matrix: Matrix) -> None:
    # nvidia/cudagl:10.1-devel is 10.1-devel-ubuntu18.04: apt's python3 there is 3.6.
    text = (
        "FROM nvidia/cudagl:10.1-devel\nRUN apt-get update && apt-get install -y python3-pip\n"
        "RUN pip3 install torch==1.4.0\n"
    )
    assert _keys(_import(matrix, "Dockerfile", text)) == ("3.6", "1.4.0", ["cu101"], ["pip"])


def test_a_batch_error_handler_after_a_lookup_is_not_the_default_route(matrix: Matrix) -> None:
    # `where` depends on the machine; the branch that only reports and exits is not taken.
    text = (
        "@echo off\r\nwhere uv >nul 2>&1\r\nif !errorlevel! neq 0 (\r\n"
        "    echo uv could not be found\r\n    pause\r\n    exit /b 1\r\n)\r\n"
        "uv pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cu128\r\n"
    )
    assert _keys(_import(matrix, "install.bat", text)) == (None, "2.8.0", ["cu128"], ["pip"])


def test_an_arbitrary_equality_that_is_no_version_is_a_departure(matrix: Matrix) -> None:
    # `===` takes any string; found by `make fuzz` (an InvalidVersion traceback before the fix).
    result = _import(matrix, "requirements.txt", "torch==2.1.0 torch===1..2,<3\n")
    assert result.project["torch"]
    assert any("no PyTorch release matches it" in w for w in result.warnings), result.warnings


# --- pip's general options before its subcommand ------------------------------------------------
@pytest.mark.parametrize(
    ("filename", "text"),
    [
        ("Dockerfile", "FROM ubuntu:16.04\nRUN pip3 --no-cache-dir install --upgrade "
         "http://download.pytorch.org/whl/cu80/torch-0.3.1-cp35-cp35m-linux_x86_64.whl\n"),
        ("install.sh", "pip -q --timeout 60 install "
         "http://download.pytorch.org/whl/cu80/torch-0.3.1-cp35-cp35m-linux_x86_64.whl\n"),
        ("install.sh", "python3.5 -m pip --disable-pip-version-check install "
         "http://download.pytorch.org/whl/cu80/torch-0.3.1-cp35-cp35m-linux_x86_64.whl\n"),
    ],
    ids=["no-cache-dir", "quiet-timeout", "python-m-pip"],
)  # fmt: skip
def test_pip_general_options_before_the_subcommand(
    matrix: Matrix, filename: str, text: str
) -> None:
    # pip reads its general options before the subcommand; the wheel names torch, CUDA and python.
    assert _keys(_import(matrix, filename, text)) == ("3.5", "0.3.1", ["cu80"], ["pip"])


def test_an_unknown_option_before_the_subcommand_is_no_install(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError):
        _import(matrix, "install.sh", "pip --frobnicate install torch==1.8.0\n")


# --- an unpinned repeat keeps the earlier pin ----------------------------------------------------
@pytest.mark.parametrize(
    ("filename", "text"),
    [
        ("environment.yml", "channels: [pytorch]\ndependencies:\n  - pytorch==1.6\n"
         "  - torchvision==0.7\n  - cudatoolkit=10.1\n  - pytorch\n  - torchvision\n"),
        ("requirements.txt", "torch==1.6.0\ntorchvision==0.7.0\ntorchvision\n"),
    ],
    ids=["conda", "pip"],
)  # fmt: skip
def test_an_unpinned_repeat_keeps_the_companion_pin(
    matrix: Matrix, filename: str, text: str
) -> None:
    # The second, unpinned torchvision is already satisfied by the first: it installs nothing.
    result = _import(matrix, filename, text)
    assert (result.project["torch"], result.project["torchvision"]) == ("1.6.0", "0.7.0")


def test_a_later_pin_still_replaces_an_unpinned_companion(matrix: Matrix) -> None:
    result = _import(matrix, "requirements.txt", "torchvision\ntorch==1.6.0\ntorchvision==0.7.0\n")
    assert result.project["torchvision"] == "0.7.0"


# --- exports from Anaconda's own channels ---------------------------------------------------------
def test_an_anaconda_channel_export_stays_on_conda(matrix: Matrix) -> None:
    # The pytorch channel deleted its packages before 1.5.1; Anaconda's defaults/anaconda
    # channels built their own pytorch (selected by _pytorch_select and cudatoolkit) and kept it.
    text = (
        "name: e\nchannels:\n  - anaconda\n  - defaults\ndependencies:\n  - _pytorch_select=0.2\n"
        "  - cudatoolkit=10.1.243\n  - python=3.8.2\n  - pytorch=1.4.0\n"
    )
    assert _keys(_import(matrix, "environment.yml", text)) == ("3.8", "1.4.0", ["cu101"], ["conda"])


def test_the_pytorch_channel_still_moves_to_pip(matrix: Matrix) -> None:
    text = "channels:\n  - pytorch\n  - defaults\ndependencies:\n  - pytorch=1.4.0\n  - cudatoolkit=10.1\n"
    assert _import(matrix, "environment.yml", text).project["managers"] == ["pip"]


def test_an_exports_build_string_outweighs_a_stray_cpuonly(matrix: Matrix) -> None:
    # `conda list --export` saved as requirements.txt (no channels: conda list leaves defaults
    # blank): the installed pytorch build is Anaconda's CUDA 10.0 one, beside a cpuonly package.
    text = (
        "# platform: linux-64\ncpuonly=1.0=0\ncudatoolkit=10.0.130=0\npython=3.6.9=h265db76_0\n"
        "pytorch=1.2.0=cuda100py36h938c94c_0\ntorchvision=0.4.0=cuda100py36hecfc37a_0\n"
    )
    result = _import(matrix, "requirements.txt", text)
    assert _keys(result) == ("3.6", "1.2.0", ["cu100"], ["conda"])
    assert result.project["torchvision"] == "0.4.0"


# --- README package lists -------------------------------------------------------------------------
def test_a_readme_conda_package_list_is_the_environment(matrix: Matrix) -> None:
    text = (
        "# X\n\n## Setup\nWe use conda. The following packages are required:\n```\n"
        "pytorch=1.7.0\ntorchvision=0.8.0\ncudatoolkit=11.0\nopencv\nscipy\n```\n"
    )
    result = _import(matrix, "README.md", text)
    assert _keys(result) == (None, "1.7.0", ["cu110"], ["conda"])
    assert result.project["torchvision"] == "0.8.0"


def test_a_readme_pip_package_list_is_the_requirements(matrix: Matrix) -> None:
    text = "Requirements:\n```\ntorch==1.4.0\ntorchvision==0.5.0\nnumpy\n```\n"
    # PyPI's linux wheel of 1.4.0 is the CUDA 10.1 build (matrix show 1.4.0).
    assert _keys(_import(matrix, "README.md", text)) == (None, "1.4.0", ["cu101"], ["pip"])


def test_a_package_list_nothing_introduces_is_not_read(matrix: Matrix) -> None:
    # A block of versions printed as output (`pip freeze` shown as a result) installs nothing.
    with pytest.raises(ImportSpecError):
        _import(matrix, "README.md", "We got these numbers:\n```\ntorch==1.4.0\n```\n")


# --- BuildKit RUN forms ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "run",
    [
        "RUN --mount=type=cache,target=/root/.cache/pip \\\n    pip install torch==2.0.1\n",
        "RUN --network=host --mount=type=secret,id=x pip install torch==2.0.1\n",
        "RUN <<EOT\nset -e\npip install torch==2.0.1\nEOT\n",
        "RUN <<-'EOT' bash\n\tpip install torch==2.0.1\nEOT\n",
    ],
    ids=["mount", "network-mount", "heredoc", "heredoc-bash"],
)
def test_buildkit_run_forms(matrix: Matrix, run: str) -> None:
    # PyPI's linux wheel of 2.0.1 is the CUDA 11.7 build (matrix show 2.0.1).
    result = _import(matrix, "Dockerfile", "FROM python:3.10-slim\n" + run)
    assert _keys(result) == ("3.10", "2.0.1", ["cu117"], ["pip"])


def test_a_python_heredoc_is_not_shell(matrix: Matrix) -> None:
    # `RUN python3 <<EOF` feeds Python to python3: its text is no install command.
    text = "FROM python:3.10\nRUN python3 <<EOF\nprint('pip install torch==2.0.1')\nEOF\n"
    with pytest.raises(ImportSpecError):
        _import(matrix, "Dockerfile", text)


# --- conda install --file -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "listing",
    [
        "# conda specs\nnumpy=1.20\npytorch==1.9.0\ncudatoolkit=11.1  # CUDA\n",
        "# platform: linux-64\npytorch=1.9.0=py3.8_cuda11.1_cudnn8.0.5_0\ncudatoolkit=11.1.1=h6406543_8\n",
    ],
    ids=["specs", "export"],
)
def test_conda_install_file_is_read(tmp_path: Path, listing: str) -> None:
    (tmp_path / "conda.txt").write_text(listing)
    (tmp_path / "setup.sh").write_text(
        "conda create -n x python=3.8 -y\nconda install --file conda.txt -c pytorch -c nvidia -y\n"
    )
    result = run_import(ImportOptions(source=tmp_path / "setup.sh"), load_matrix())
    p = result.project
    assert (p["python"], p["torch"], p["accelerators"], p["managers"]) == (
        "3.8", "1.9.0", ["cu111"], ["conda"],
    )  # fmt: skip


def test_override_channels_takes_no_value(tmp_path: Path) -> None:
    # `--override-channels` is a switch: the `-c conda-forge` after it is a channel, not its
    # value (read as its value, `conda-forge` became a package and the route the pytorch
    # channel's, whose last release is 2.5.1).
    (tmp_path / "setup.sh").write_text(
        "conda create -n x python=3.11 -y\n"
        "conda install -y --override-channels -c conda-forge pytorch\n"
    )
    options = ImportOptions(source=tmp_path / "setup.sh", as_of="2025-06-01")
    p = run_import(options, load_matrix()).project
    assert (p["torch"], p["accelerators"], p["managers"]) == ("2.7.0", ["cu126"], ["conda"])
    assert p["conda"] == {"channels": ["conda-forge"]}


def test_conda_install_file_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "conda.txt").write_text("pytorch==1.9.0\n")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "setup.sh").write_text("conda install --file ../conda.txt -c pytorch\n")
    with pytest.raises(ImportSpecError):
        run_import(ImportOptions(source=tmp_path / "in" / "setup.sh"), load_matrix())


# --- Python 2's pip --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "line",
    ["pip2 install numpy torch torchvision", "python2 -m pip install torch torchvision"],
    ids=["pip2", "python2-m-pip"],
)
def test_python2s_pip_installs_the_last_torch_with_cp27_wheels(matrix: Matrix, line: str) -> None:
    # PyPI's last cp27 torch is 1.4.0 (its linux wheel the CUDA 10.1 build); 1.5.0's only cp27
    # wheel is for macOS, so it is no answer on Linux.
    text = "FROM ubuntu:20.04\nRUN apt-get install -y python3-pip python2\nRUN " + line + "\n"
    result = import_text(text, filename="Dockerfile", matrix=matrix, as_of=dt.date(2023, 3, 15))
    assert _keys(result) == ("2.7", "1.4.0", ["cu101"], ["pip"])


def test_an_unversioned_pip_names_no_python(matrix: Matrix) -> None:
    result = _import(matrix, "install.sh", "pip3 install torch==1.4.0\n")
    assert result.project.get("python") is None


# --- Poetry: groups, sources, and `poetry install` -------------------------------------------------
_POETRY = """[tool.poetry]
name = "x"
[tool.poetry.dependencies]
python = ">=3.10,<3.11"
numpy = "^1.23.2"
[[tool.poetry.source]]
name = "torch"
url = "https://download.pytorch.org/whl/cpu"
secondary = true
[tool.poetry.group.torch]
optional = true
[tool.poetry.group.torch.dependencies]
torch = { version = "1.13.1", source = "torch" }
"""


def test_poetry_install_with_an_optional_group_reads_it_and_its_source(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(_POETRY)
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.10-buster\nCOPY pyproject.toml /app/pyproject.toml\nWORKDIR /app\n"
        "RUN pip install poetry==1.3.1\nRUN poetry install --with torch\n"
    )
    result = run_import(ImportOptions(source=tmp_path / "Dockerfile"), load_matrix())
    p = result.project
    assert (p["python"], p["torch"], p["accelerators"], p["managers"]) == (
        "3.10", "1.13.1", ["cpu"], ["pip"],
    )  # fmt: skip


def test_an_optional_poetry_group_is_not_installed_by_default(matrix: Matrix) -> None:
    # `poetry install` without --with: the optional group, and so torch, is not installed.
    with pytest.raises(ImportSpecError):
        _import(matrix, "pyproject.toml", _POETRY)
    text = _POETRY.replace("optional = true\n", "")
    # python = ">=3.10,<3.11" admits one minor: 3.10.
    assert _keys(_import(matrix, "pyproject.toml", text)) == ("3.10", "1.13.1", ["cpu"], ["pip"])


# --- uv sources in pyproject.toml ------------------------------------------------------------------
_UV = """[project]
name = "x"
version = "0.1.0"
dependencies = ["torch==2.5.1", "torchvision==0.20.1"]
[tool.uv.sources]
torch = [
  { index = "pytorch-cpu", marker = "sys_platform == 'darwin'" },
  { index = "pytorch-cu121", marker = "sys_platform == 'linux'" },
]
torchvision = [{ index = "pytorch-cu121" }]
[[tool.uv.index]]
name = "pytorch-cu121"
url = "https://download.pytorch.org/whl/cu121"
explicit = true
[[tool.uv.index]]
name = "pytorch-cpu"
url = "https://download.pytorch.org/whl/cpu"
explicit = true
"""


def test_uv_sources_route_torch_through_their_index(matrix: Matrix) -> None:
    # Without the source, PyPI's linux 2.5.1 is the CUDA 12.4 build; the Linux source says cu121.
    assert _keys(_import(matrix, "pyproject.toml", _UV)) == (None, "2.5.1", ["cu121"], ["pip"])


def test_a_uv_source_scoped_to_an_extra_is_not_the_default_install(matrix: Matrix) -> None:
    text = _UV.replace(
        "torch = [\n", 'torch = [\n  { index = "pytorch-cpu", extra = "cpu" },\n'
    ).replace('{ index = "pytorch-cu121", marker', '{ index = "pytorch-cpu", extra = "x", marker')
    text = text.replace('torchvision = [{ index = "pytorch-cu121" }]', "")
    assert _keys(_import(matrix, "pyproject.toml", text)) == (None, "2.5.1", ["cu124"], ["pip"])


def test_a_uv_url_source_is_the_wheel_the_dependency_installs(matrix: Matrix) -> None:
    # `[tool.uv.sources] foo = { url = ".../foo-1.0-cp310-cp310-linux_x86_64.whl" }`: uv installs
    # the dependency foo from that file, built for CPython 3.10 only; a darwin-only url is not
    # what linux-64 installs.
    wheel = "https://example.org/whl/foo-1.0%2Bcu121-cp310-cp310-linux_x86_64.whl"
    text = _UV.replace('"torchvision==0.20.1"]', '"torchvision==0.20.1", "foo"]').replace(
        "[[tool.uv.index]]",
        f'foo = [{{ url = "{wheel}", marker = "sys_platform == \'linux\'" }}]\n[[tool.uv.index]]',
        1,
    )
    assert _keys(_import(matrix, "pyproject.toml", text)) == ("3.10", "2.5.1", ["cu121"], ["pip"])
    darwin = text.replace("sys_platform == 'linux'\" }]", "sys_platform == 'darwin'\" }]")
    assert _keys(_import(matrix, "pyproject.toml", darwin)) == (None, "2.5.1", ["cu121"], ["pip"])
    # A url source needs no [[tool.uv.index]].
    alone = (
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==2.5.1", "foo"]\n'
        f'[tool.uv.sources]\nfoo = {{ url = "{wheel}" }}\n'
    )
    assert _keys(_import(matrix, "pyproject.toml", alone)) == ("3.10", "2.5.1", ["cu124"], ["pip"])


def test_a_poetry_url_dependency_is_that_wheel(matrix: Matrix) -> None:
    text = (
        '[tool.poetry]\nname = "x"\n[tool.poetry.dependencies]\npython = "^3.7"\n'
        'torch = {url = "https://download.pytorch.org/whl/cu111/torch-1.9.0%2Bcu111-cp37-cp37m-'
        'linux_x86_64.whl"}\n'
    )
    assert _keys(_import(matrix, "pyproject.toml", text)) == ("3.7", "1.9.0", ["cu111"], ["pip"])


# --- the third held-out draw's families -------------------------------------------------------------
@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # conda's `torchvision=0.6` is 0.6.*: torch 1.5.1 pairs with 0.6.1, a member of it.
        ("  - torchvision=0.6\n", "0.6.1"),
        ("  - torchvision=0.6.*\n", "0.6.1"),
        # a range names no series: still "the one matching torch".
        ("  - torchvision>=0.6\n", True),
    ],
    ids=["fuzzy", "star", "range"],
)
def test_a_conda_series_pin_of_torchvision_is_the_release_s_member(
    matrix: Matrix, spec: str, expected: object
) -> None:
    text = (
        "name: t\nchannels:\n  - pytorch\ndependencies:\n  - python=3.7\n  - pytorch=1.5.1\n"
        "  - cudatoolkit=10.2\n" + spec
    )
    result = _import(matrix, "environment.yml", text)
    assert result.project["torchvision"] == expected
    assert _keys(result) == ("3.7", "1.5.1", ["cu102"], ["conda"])


def test_a_series_pin_outside_the_release_pairing_is_not_taken(matrix: Matrix) -> None:
    text = (
        "dependencies:\n  - pytorch=1.5.1\n  - cudatoolkit=10.2\n  - torchvision=0.7\n"
    )  # fmt: skip
    result = _import(matrix, "environment.yml", text)
    assert result.project["torchvision"] == "0.6.1"  # 0.7.0 belongs to torch 1.6.0: replaced
    assert any("outside that series" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("path", "python"),
    [
        (r"C:\Program Files\Python314\python.exe", "3.14"),
        (r"%LOCALAPPDATA%\Programs\Python\Python310\python.exe", "3.10"),
        (r"C:\tools\Python\python.exe", None),  # the folder names no version
    ],
    ids=["all-users", "one-user", "unversioned"],
)
def test_a_windows_install_folder_names_the_python(
    matrix: Matrix, path: str, python: str | None
) -> None:
    text = (
        "@echo off\n"
        f'set "PY={path}"\n'
        '"%PY%" -m pip install torch==2.9.0 --index-url https://download.pytorch.org/whl/cu128\n'
    )
    result = _import(matrix, "install.bat", text)
    assert _keys(result) == (python, "2.9.0", ["cu128"], ["pip"])


def test_pip_in_a_windows_install_folder_s_scripts_names_the_python(matrix: Matrix) -> None:
    text = r"C:\Python38\Scripts\pip.exe install torch==1.7.1+cu101 -f https://download.pytorch.org/whl/torch_stable.html"
    assert _keys(_import(matrix, "setup.bat", text + "\n")) == ("3.8", "1.7.1", ["cu101"], ["pip"])


def test_a_utf16_requirements_file_is_read_as_pip_reads_it(tmp_path: Path) -> None:
    # PowerShell's `pip freeze > requirements.txt` writes UTF-16 LE with a BOM and CRLF lines;
    # pip decodes it by the BOM (pip/_internal/utils/encoding.py auto_decode).
    (tmp_path / "requirements.txt").write_bytes(
        "torch==2.6.0\r\ntorchvision==0.21.0\r\n".encode("utf-16")
    )
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.12-slim\nCOPY requirements.txt .\n"
        "RUN pip install torch --index-url https://download.pytorch.org/whl/cpu\n"
        "RUN pip install -r requirements.txt\n"
    )
    result = run_import(ImportOptions(source=tmp_path / "Dockerfile"), load_matrix())
    p = result.project
    assert (p["python"], p["torch"], p["torchvision"], p["accelerators"]) == (
        "3.12", "2.6.0", "0.21.0", ["cpu"],
    )  # fmt: skip


@pytest.mark.parametrize(
    ("encoding", "bom"),
    [("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"),
     ("utf-32-le", b"\xff\xfe\x00\x00")],
)  # fmt: skip
def test_read_source_decodes_by_the_byte_order_mark(
    tmp_path: Path, encoding: str, bom: bytes
) -> None:
    from envgen.repro.reading import UnreadableSource, read_source

    path = tmp_path / "r.txt"
    path.write_bytes(bom + "torch==2.6.0\n".encode(encoding))
    assert read_source(path) == "torch==2.6.0\n"
    path.write_bytes(b"\xff\xfetorch")  # a UTF-16 mark over an odd number of bytes
    with pytest.raises(UnreadableSource, match="not UTF-16-LE text"):
        read_source(path)


@pytest.mark.parametrize(
    ("text", "torchvision"),
    [("torchvision\nClick\n", True), ("torchaudio\n", False)],
    ids=["torchvision", "torchaudio"],
)
def test_torch_arrives_as_a_companion_s_dependency(
    matrix: Matrix, text: str, torchvision: object
) -> None:
    # torchvision and torchaudio require torch: the file installs the newest torch of its date.
    result = import_text(
        text, filename="requirements.txt", matrix=matrix, as_of=dt.date(2018, 12, 8)
    )
    assert result.project["torch"] == "1.0.0"  # 2018-12-07; PyPI's linux 1.0.0 wheel is cu90
    assert result.project["accelerators"] == ["cu90"]
    assert result.project["torchvision"] == torchvision
    assert any("comes in as" in w for w in result.warnings)


def test_a_file_without_any_torch_family_package_is_still_refused(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError):
        _import(matrix, "requirements.txt", "numpy\nClick\n")


def test_an_extra_index_pytorch_never_published_falls_back_to_pypi(matrix: Matrix) -> None:
    # No release has cu114 wheels; pip adds an extra index to PyPI, so PyPI's 1.11.0 (cu102) wins.
    line = (
        "pip install torch torchvision --extra-index-url https://download.pytorch.org/whl/cu114\n"
    )
    result = import_text(line, filename="install.sh", matrix=matrix, as_of=dt.date(2022, 5, 20))
    assert _keys(result) == (None, "1.11.0", ["cu102"], ["pip"])
    assert any("published no cu114" in w for w in result.warnings)
    # --index-url replaces PyPI: the nearest published platform stays the answer there.
    line = line.replace("--extra-index-url", "--index-url")
    result = import_text(line, filename="install.sh", matrix=matrix, as_of=dt.date(2022, 5, 20))
    assert result.project["accelerators"] == ["cu113"]


def test_a_readme_install_command_as_a_plain_prose_line_is_read(matrix: Matrix) -> None:
    # No fence, no inline code: the commands stand as paragraphs under headings.
    text = (
        "### Environment\nconda create -n gpu python=3.8\n### Torch\n"
        "pip install torch==1.7.1+cu101 -f https://download.pytorch.org/whl/torch_stable.html\n"
        "Then pip install whatever else you need.\n"
    )
    assert _keys(_import(matrix, "README.md", text)) == ("3.8", "1.7.1", ["cu101"], ["pip"])
    with pytest.raises(ImportSpecError):  # prose that merely mentions pip installs nothing
        _import(matrix, "README.md", "You can pip install torch==1.7.1 if you like.\n")


def test_a_script_line_of_bare_torch_requirements_is_a_pip_install(matrix: Matrix) -> None:
    # A file of `pip install` arguments: `torch==...` is no program (bash would even take it as
    # an assignment), so the line is the argument list of a pip install.
    text = (
        "# for our servers\ntorch==1.9.0+cu111 torchvision==0.10.0+cu111 torchaudio==0.9.0 "
        "-f https://download.pytorch.org/whl/torch_stable.html"
    )
    result = _import(matrix, "install_pytorch.sh", text)
    assert _keys(result) == (None, "1.9.0", ["cu111"], ["pip"])
    assert result.project["torchvision"] == "0.10.0"
    # An ordinary assignment stays one.
    with pytest.raises(ImportSpecError):
        _import(matrix, "setup.sh", "TORCH=1.9.0 make\n")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a requirement joined from the module's own constants
        ('from setuptools import setup\nMIN = "1.0.1"\nreqs = [">=".join(["torch", MIN])]\n'
         "try:\n    import torch\n    reqs = []\nexcept ImportError:\n    pass\n"
         "setup(name='x', install_requires=reqs)\n", None),
        # a conditional requirement: the first branch, said
        ("import sys\nfrom setuptools import setup\n"
         'DEPS = ["torch>=1.0.1" if sys.version_info >= (3, 7) else "torch>=0.4.1", "scipy"]\n'
         "setup(name='x', install_requires=DEPS)\n", "first branch"),
        # a literal list plus the file's own function: the literal part, said
        ("from setuptools import setup\ndef extra():\n    return ['opencv-python']\n"
         "DEPS = ['torch>=1.0.1', 'torchvision'] + extra()\n"
         "setup(name='x', install_requires=DEPS)\n", "read without it"),
    ],
    ids=["join", "conditional", "plus-own-call"],
)  # fmt: skip
def test_setup_py_requirements_built_from_the_file_s_own_values(
    matrix: Matrix, text: str, said: str | None
) -> None:
    result = import_text(text, filename="setup.py", matrix=matrix, as_of=dt.date(2019, 3, 1))
    assert _keys(result) == (None, "1.0.1", ["cu90"], ["pip"])  # 2019-02-07; PyPI's: cu90
    if said is not None:
        assert any(said in w for w in result.warnings)


def test_setup_py_conditional_with_an_unknown_branch_is_not_read(matrix: Matrix) -> None:
    text = (
        "import sys\nfrom setuptools import setup\n"
        "DEPS = ['torch>=1.0.1' if sys.platform == 'linux' else compute()]\n"
        "setup(name='x', install_requires=DEPS)\n"
    )
    with pytest.raises(ImportSpecError):
        _import(matrix, "setup.py", text)


@pytest.mark.parametrize(
    ("deps", "manager"),
    [
        ("  - torchvision=0.8.2\n", "conda"),  # conda's torchvision brings conda's pytorch
        ("  - torchvision=0.8.2\n  - pip:\n    - torch==1.7.1\n", "pip"),  # pip's torch named
    ],
    ids=["conda-companion", "pip-torch"],
)
def test_torch_brought_by_a_conda_companion_is_conda_s(
    matrix: Matrix, deps: str, manager: str
) -> None:
    text = "dependencies:\n  - python=3.8\n  - cudatoolkit=10.2\n" + deps
    assert _keys(_import(matrix, "environment.yml", text)) == ("3.8", "1.7.1", ["cu102"], [manager])


# --- the fourth held-out draw's families (issue 24) ---------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        # setup() imported under another name
        "from distutils.core import setup\nfrom setuptools import setup as install\n"
        "install(name='x', install_requires=['torch>=1.0.1', 'numpy'])\n",
        "from setuptools import setup as _setup, find_packages\n"
        "_setup(name='x', install_requires=['torch>=1.0.1'])\n",
        # a list inside the list: setuptools flattens it
        "from setuptools import setup\nDEPS = ['numpy', 'torch>=1.0.1']\n"
        "setup(name='x', install_requires=[DEPS])\n",
        "from setuptools import setup\nBASE = ['numpy']\nTORCH = ['torch>=1.0.1']\n"
        "setup(name='x', install_requires=[BASE, TORCH, 'scipy'])\n",
    ],
    ids=["setup-as-install", "setup-as-private", "nested-name", "two-nested-and-a-string"],
)
def test_setup_py_aliases_and_nested_lists(matrix: Matrix, text: str) -> None:
    result = import_text(text, filename="setup.py", matrix=matrix, as_of=dt.date(2019, 3, 1))
    assert _keys(result) == (None, "1.0.1", ["cu90"], ["pip"])


def test_a_name_that_is_not_setuptools_setup_is_not_read(matrix: Matrix) -> None:
    text = "from mytool import setup as install\ninstall(install_requires=['torch>=1.0.1'])\n"
    with pytest.raises(ImportSpecError):
        _import(matrix, "setup.py", text)


@pytest.mark.parametrize(
    "code",
    [
        # the template of many setup.py files (kennethreitz/setup.py)
        "here = os.path.abspath(os.path.dirname(__file__))\ntry:\n"
        "    with open(os.path.join(here, 'requirements.txt'), encoding='utf-8') as f:\n"
        "        REQUIRED = f.read().split('\\n')\nexcept:\n    REQUIRED = []\n"
        "setup(name='x', install_requires=REQUIRED)\n",
        "setup(name='x', install_requires=open('requirements.txt').read().splitlines())\n",
        "with open('requirements.txt') as fh:\n"
        "    reqs = [ln.strip() for ln in fh if ln.strip() and not ln.startswith('#')]\n"
        "setup(name='x', install_requires=reqs)\n",
        "HERE = Path(__file__).parent\n"
        "setup(name='x', install_requires=(HERE / 'requirements.txt').open().readlines())\n",
        "with open(os.path.join(os.path.dirname(__file__), 'requirements.txt')) as f:\n"
        "    reqs = f.readlines()\nsetup(name='x', install_requires=reqs)\n",
    ],
    ids=["template-split", "open-splitlines", "comprehension", "path-open", "readlines"],
)
def test_setup_py_reads_the_requirements_file_it_opens(
    matrix: Matrix, tmp_path: Path, code: str
) -> None:
    (tmp_path / "requirements.txt").write_text("# pinned\ntorchvision>=0.2.2,<=0.4.0\nscipy\n")
    (tmp_path / "setup.py").write_text("import os\nfrom setuptools import setup\n" + code)
    result = run_import(ImportOptions(source=tmp_path / "setup.py", as_of="2019-09-19"), matrix)
    # torchvision <=0.4.0 as of 2019-09-19: 0.4.0, which pins torch 1.2.0 (PyPI's: cu100).
    assert _keys(result) == (None, "1.2.0", ["cu100"], ["pip"])
    assert result.project["pip"] == ["scipy"]


def test_setup_py_never_reads_a_file_outside_its_folder(matrix: Matrix, tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.2.0\n")
    inner = tmp_path / "pkg"
    inner.mkdir()
    for path in ("../requirements.txt", "/etc/passwd"):
        (inner / "setup.py").write_text(
            f"from setuptools import setup\nsetup(install_requires=open({path!r}).readlines())\n"
        )
        with pytest.raises(ImportSpecError):
            run_import(ImportOptions(source=inner / "setup.py"), matrix)


@pytest.mark.parametrize(
    ("version", "url", "as_of", "expected"),
    [
        ('"^2.0.0+cu118"', "https://download.pytorch.org/whl/cu118/", dt.date(2023, 5, 13),
         (None, "2.0.1", ["cu118"], ["pip"])),
        ('"1.9.0+cu111"', "https://download.pytorch.org/whl/cu111/", None,
         (None, "1.9.0", ["cu111"], ["pip"])),
        ('"~1.13.0+cu117"', "https://download.pytorch.org/whl/cu117/", dt.date(2023, 3, 1),
         (None, "1.13.1", ["cu117"], ["pip"])),
    ],
    ids=["caret-local", "exact-local", "tilde-local"],
)  # fmt: skip
def test_poetry_versions_with_a_local_label(
    matrix: Matrix, version: str, url: str, as_of: dt.date | None, expected: tuple[object, ...]
) -> None:
    # Poetry accepts `^2.0.0+cu118`; PEP 440 allows a local label only in `==`, so a range keeps
    # its bounds without it and the build comes from the torch source's index.
    text = (
        '[tool.poetry.dependencies]\npython = "^3.10"\n'
        f'torch = {{ version = {version}, source = "pytorch" }}\n\n'
        f'[[tool.poetry.source]]\nname = "pytorch"\nurl = "{url}"\nsecondary = true\n'
    )
    result = import_text(text, filename="pyproject.toml", matrix=matrix, as_of=as_of)
    assert _keys(result) == expected


@pytest.mark.parametrize(
    ("filename", "text"),
    [
        ("requirements.txt", "--extra-index-url https://download.pytorch.org/whl/cu126\n"
         "torch==2.10.0+cu126\ntorch>=2.2\n"),
        ("install.sh", "pip install torch==2.10.0+cu126 --extra-index-url "
         "https://download.pytorch.org/whl/cu126\npip install 'torch>=2.2,<3' numpy\n"),
        ("Dockerfile", "FROM python:3.12\nRUN pip install torch==2.10.0 --index-url "
         "https://download.pytorch.org/whl/cu126\nRUN pip install 'torch>=2' scipy\n"),
    ],
    ids=["one-file", "two-installs", "dockerfile"],
)  # fmt: skip
def test_a_range_the_exact_torch_pin_meets_keeps_the_pin(
    matrix: Matrix, filename: str, text: str
) -> None:
    result = import_text(text, filename=filename, matrix=matrix, as_of=dt.date(2026, 6, 29))
    assert (result.project["torch"], result.project["accelerators"]) == ("2.10.0", ["cu126"])
    assert not any("replaces the earlier one" in w for w in result.warnings)


def test_the_range_of_an_included_requirements_file_keeps_the_pin(
    matrix: Matrix, tmp_path: Path
) -> None:
    (tmp_path / "requirements.txt").write_text("torch>=2.2\nnumpy>=1.26\n")
    (tmp_path / "requirements-cuda.txt").write_text(
        "--extra-index-url https://download.pytorch.org/whl/cu126\n"
        "torch==2.10.0+cu126\n-r requirements.txt\n"
    )
    options = ImportOptions(source=tmp_path / "requirements-cuda.txt", as_of="2026-06-29")
    assert _keys(run_import(options, matrix)) == (None, "2.10.0", ["cu126"], ["pip"])


def test_a_range_the_pin_does_not_meet_still_replaces_it(matrix: Matrix) -> None:
    text = "pip install torch==1.8.0\npip install 'torch>=1.9'\n"
    result = import_text(text, filename="install.sh", matrix=matrix, as_of=dt.date(2021, 7, 1))
    assert result.project["torch"] == "1.9.0"
    assert any("replaces the earlier one" in w for w in result.warnings)


_TAGS = "$(python -c \"import wheel.pep425tags as w; print('-'.join(w.get_supported()[0][:-1]))\")"


@pytest.mark.parametrize(
    ("filename", "text", "expected"),
    [
        ("Dockerfile", "FROM nvidia/cuda:10.1-cudnn7-devel-ubuntu18.04\nARG V=1.2.0\n"
         f"RUN pip install https://download.pytorch.org/whl/cu100/torch-${{V}}-{_TAGS}"
         "-manylinux1_x86_64.whl\n"
         f"RUN pip install https://download.pytorch.org/whl/cu100/torchvision-0.4.0-{_TAGS}"
         "-manylinux1_x86_64.whl\n", ("1.2.0", "0.4.0", ["cu100"])),
        ("install.sh", "pip3 install https://download.pytorch.org/whl/cu100/torch-1.1.0-"
         "`python3 -c 'from wheel.pep425tags import *; print(get_abbr_impl())'`"
         "-linux_x86_64.whl\n", ("1.1.0", False, ["cu100"])),
        ("install.sh", "pip install https://download.pytorch.org/whl/cpu/torch-1.0.1.post2-"
         f"{_TAGS}-linux_x86_64.whl torchvision\n", ("1.0.1.post2", True, ["cpu"])),
    ],
    ids=["dockerfile-cu100", "backticks-cu100", "post-release-cpu"],
)  # fmt: skip
def test_a_wheel_url_whose_tags_a_substitution_computes_names_its_release(
    matrix: Matrix, filename: str, text: str, expected: tuple[object, ...]
) -> None:
    result = import_text(text, filename=filename, matrix=matrix)
    p = result.project
    assert (p["torch"], p["torchvision"], p["accelerators"]) == expected


def test_an_untagged_wheel_elsewhere_is_not_read(matrix: Matrix) -> None:
    text = f"pip install https://example.org/whl/torch-1.2.0-{_TAGS}-manylinux1_x86_64.whl\n"
    with pytest.raises(ImportSpecError):
        _import(matrix, "install.sh", text)


@pytest.mark.parametrize(
    ("filename", "text"),
    [
        ("Dockerfile", "FROM ubuntu:22.04\nRUN ${DL_PYTHON_EXECUTABLE} -m pip install --user "
         "'torch==2.1.0' torchvision\n"),
        ("install.sh", '"$PYTHON" -m pip install torch==2.1.0 torchvision\n'),
        ("install.sh", "$VENV_PY -m pip --no-cache-dir install torch==2.1.0 torchvision\n"),
    ],
    ids=["dockerfile-braces", "script-quoted", "general-option"],
)  # fmt: skip
def test_a_python_the_file_does_not_set_running_pip(
    matrix: Matrix, filename: str, text: str
) -> None:
    result = import_text(text, filename=filename, matrix=matrix)
    assert (result.project["torch"], result.project["torchvision"]) == ("2.1.0", True)


@pytest.mark.parametrize(
    ("image", "python"),
    [
        ("hub.dataloop.ai/dtlpy-runner-images/gpu:python3.10_cuda11.8_opencv", "3.10"),
        ("myorg/base:cuda12.1-python3.11-slim", "3.11"),
        ("myorg/base:python3.9", "3.9"),
        ("myorg/base:python3-cuda12", None),  # no minor: not a python envgen can name
        ("myorg/base:mypython3.10", None),  # not a tag word of its own
    ],
)
def test_an_image_tag_that_names_its_python(matrix: Matrix, image: str, python: str | None) -> None:
    text = f"FROM {image}\nRUN pip install torch==2.1.0\n"
    result = import_text(text, filename="Dockerfile", matrix=matrix)
    assert result.project.get("python") == python


@pytest.mark.parametrize(
    ("text", "expected", "said"),
    [
        # PyPI's 1.1.0 linux wheel is the CUDA 9.0 build, whatever toolkit the image carries.
        ("FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu16.04\nRUN python -m pip install -i "
         "https://mirrors.huaweicloud.com/repository/pypi/simple torch==1.1.0\n",
         ("1.1.0", ["cu90"]), "the base image has CUDA 10.0, but pip installs PyPI's cu90"),
        ("FROM nvidia/cuda:11.3.1-devel-ubuntu20.04\nRUN pip install torch==1.12.1\n",
         ("1.12.1", ["cu102"]), "the base image has CUDA 11.3, but pip installs PyPI's cu102"),
        # A find-links page of one folder lists that platform's builds: pip takes torch there.
        ("FROM nvidia/cuda:10.1-cudnn7-devel\nRUN pip3 install torch==1.5 -f "
         "https://download.pytorch.org/whl/cu101/torch_stable.html -i https://mirrors.aliyun.com/pypi/simple\n",
         ("1.5.0", ["cu101"]), None),
        # A release PyPI never served (0.3.1): the toolkit's CUDA names the build.
        ("FROM nvidia/cuda:8.0-cudnn6-devel\nRUN pip install "
         "http://download.pytorch.org/whl/torch-0.3.1-cp36-cp36m-linux_x86_64.whl\n",
         ("0.3.1", ["cu80"]), None),
        # The torch an NGC image ships keeps the image's CUDA.
        ("FROM nvcr.io/nvidia/pytorch:21.12-py3\nRUN pip install timm==0.5.4\n",
         ("1.11.0", ["cu115"]), None),
    ],
    ids=["pypi-1.1.0", "pypi-1.12.1", "folder-page", "never-on-pypi", "ngc"],
)  # fmt: skip
def test_a_cuda_image_does_not_choose_the_wheel_pip_takes_from_pypi(
    matrix: Matrix, text: str, expected: tuple[object, ...], said: str | None
) -> None:
    result = import_text(text, filename="Dockerfile", matrix=matrix)
    assert (result.project["torch"], result.project["accelerators"]) == expected
    if said is not None:
        assert any(said in w for w in result.warnings), result.warnings


@pytest.mark.parametrize(
    ("filename", "text", "python"),
    [
        ("Dockerfile", "FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu16.04\nRUN wget -qc "
         "https://www.python.org/ftp/python/3.6.5/Python-3.6.5.tgz && tar xf Python-3.6.5.tgz && "
         "cd Python-3.6.5 && ./configure && make install\nRUN python -m pip install torch==1.1.0\n",
         "3.6"),
        ("install.bat", "@echo off\nset PYTHON_DIR=%CD%\\python_embed\n"
         "curl -sSL -o python.zip https://www.python.org/ftp/python/3.12.9/python-3.12.9-embed-amd64.zip\n"
         "\"%PYTHON_DIR%\\python.exe\" -m pip install torch==2.9.1 --index-url "
         "https://download.pytorch.org/whl/cu128\n", "3.12"),
        ("install.sh", "curl -O https://www.python.org/ftp/python/3.10.11/python-3.10.11-amd64.exe\n"
         "pip install torch==2.1.0\n", "3.10"),
        # Another file from python.org is no interpreter.
        ("install.sh", "wget https://www.python.org/ftp/python/doc/3.10.11/python-3.10.11-docs-pdf-a4.zip\n"
         "pip install torch==2.1.0\n", None),
        # A python the file named first stays.
        ("install.sh", "conda create -n x python=3.9\nwget "
         "https://www.python.org/ftp/python/3.6.5/Python-3.6.5.tgz\npip install torch==1.9.0\n", "3.9"),
    ],
    ids=["dockerfile-source", "batch-embeddable", "windows-installer", "docs-zip", "named-first"],
)  # fmt: skip
def test_a_cpython_the_file_downloads_from_python_org(
    matrix: Matrix, filename: str, text: str, python: str | None
) -> None:
    result = import_text(text, filename=filename, matrix=matrix)
    assert result.project.get("python") == python


@pytest.mark.parametrize(
    ("text", "as_of", "expected"),
    [
        # The channel's 1.4.0 packages are gone (its CUDA 10.0 build too); pip has 1.4.0+cu100.
        ("conda install -y pytorch=1.4.0 torchvision=0.5.0 cudatoolkit=10.0 -c pytorch\n", None,
         ("1.4.0", "0.5.0", ["cu100"], ["pip"])),
        # Gone too; 1.3.0's pip route has the +cu100 wheel (public install lines name it).
        ("conda install pytorch=1.3.0 cudatoolkit=10.0 -c pytorch\n", None,
         ("1.3.0", False, ["cu100"], ["pip"])),
        # Gone, and 1.2.0's pip route has no CUDA 9.0 build: the nearest, cu92.
        ("conda install pytorch=1.2.0 cudatoolkit=9.0 -c pytorch\n", None,
         ("1.2.0", False, ["cu92"], ["pip"])),
        # Unpinned: the newest release the conda route had for CUDA 10.0 then (1.4.0: the
        # channel's unlisted cuda10.0 build), whose pip route has the cu100 wheels.
        ("conda install -c anaconda cudatoolkit=10.0.130\nconda install -c pytorch pytorch "
         "torchvision\n", dt.date(2020, 2, 16), ("1.4.0", True, ["cu100"], ["pip"])),
    ],
    ids=["pinned-1.4.0", "pinned-1.3.0", "pinned-1.2.0", "unpinned-2020"],
)  # fmt: skip
def test_a_deleted_conda_route_is_judged_on_pip_for_the_build_it_lacks(
    matrix: Matrix, text: str, as_of: dt.date | None, expected: tuple[object, ...]
) -> None:
    result = import_text(text, filename="install.sh", matrix=matrix, as_of=as_of)
    p = result.project
    assert (p["torch"], p["torchvision"], p["accelerators"], p["managers"]) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Requirements\n\n## Libraries\n```\nNumPy         1.15.0\nmatplotlib    2.2.3\n"
         "PyTorch       0.4.1\ntorchvision   0.2.1\n```\n", (None, "0.4.1", ["cu90"], ["pip"])),
        ("# Requirements\n```\nPython   3.6\nPyTorch  1.0.0\ntorchvision 0.2.1\n```\n",
         ("3.6", "1.0.0", ["cu90"], ["pip"])),
        ("## Dependencies\n```\npython: 3.7\ntorch: v1.2.0\nnumpy: 1.16.0\n```\n",
         ("3.7", "1.2.0", ["cu100"], ["pip"])),
    ],
    ids=["libraries-table", "python-row", "colon-table"],
)  # fmt: skip
def test_a_readme_table_of_versions_names_the_release(
    matrix: Matrix, text: str, expected: tuple[object, ...]
) -> None:
    result = _import(matrix, "README.md", text)
    assert _keys(result) == expected
    pip = result.project.get("pip", [])
    assert isinstance(pip, list)
    assert "python" not in [str(p).split("==")[0].lower() for p in pip]


def test_a_table_that_is_not_introduced_as_requirements_is_not_read(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError):
        _import(matrix, "README.md", "## Results\n```\nPyTorch  0.4.1\nAccuracy 76.5\n```\n")


# --- the sixth held-out draw's families (issue 24) -----------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "from setuptools import setup\n"
        "REQS = {'install': ['torch>=1.0.1', 'numpy'], 'test': ['pytest']}\n"
        "setup(name='x', install_requires=REQS['install'], tests_require=REQS['test'])\n",
        "from setuptools import setup\nREQS = dict(install=['torch>=1.0.1'])\n"
        "install_requires = REQS['install']\nsetup(name='x', install_requires=install_requires)\n",
        "from setuptools import setup\n"
        "setup(name='x', install_requires={'a': ['torch>=1.0.1'], 'b': []}['a'])\n",
    ],
    ids=["dict-literal", "dict-call-through-a-name", "subscripted-literal"],
)
def test_setup_py_install_requires_from_a_dict_key(matrix: Matrix, text: str) -> None:
    result = import_text(text, filename="setup.py", matrix=matrix, as_of=dt.date(2019, 3, 1))
    assert _keys(result) == (None, "1.0.1", ["cu90"], ["pip"])


@pytest.mark.parametrize(
    "text",
    [
        # the key is replaced after the dict is bound: its value is no longer known
        "from setuptools import setup\nREQS = {'install': ['torch>=1.0.1']}\n"
        "REQS['install'] = make()\nsetup(name='x', install_requires=REQS['install'])\n",
        # a key the dict has not got
        "from setuptools import setup\nREQS = {'install': ['torch>=1.0.1']}\n"
        "setup(name='x', install_requires=REQS['run'])\n",
    ],
    ids=["key-replaced", "missing-key"],
)
def test_setup_py_unknown_dict_values_are_not_read(matrix: Matrix, text: str) -> None:
    with pytest.raises(ImportSpecError):
        import_text(text, filename="setup.py", matrix=matrix, as_of=dt.date(2019, 3, 1))
