"""The mechanisms the twenty-third held-out draw's misses asked for (issue 24), each on
real-shaped input written here: shell aliases (a definition file's `alias pip_install="python -m
pip install"`), uv's index source for torch (uv takes torch from that index only), a `conda
list` dump saved under a document's name, and a README's unlabeled block that runs the
checkout's install script."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from envgen.repro.importer.detect import detect_kind
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


# --- aliases ----------------------------------------------------------------------------------------
def test_an_alias_runs_its_words() -> None:
    script = (
        "alias pip_install=\"python -m pip install\"\nalias apt_install='apt-get install -y'\n"
        "apt_install git\npip_install -U pip\npip_install torch==1.12.1\n"
    )
    assert [c.text for c in shell.interpret(script, env={}).commands] == [
        "apt-get install -y git",
        "python -m pip install -U pip",
        "python -m pip install torch==1.12.1",
    ]


def test_a_definition_file_installs_through_its_aliases(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("torchvision\nscipy\n")
    (tmp_path / "container.def").write_text(
        "Bootstrap: docker\nFrom: ubuntu:latest\n\n%files\n    requirements.txt\n\n%post\n"
        '    alias apt_install="apt-get install -y --no-install-recommends"\n'
        "    PYTHON=python3.9\n    apt_install $PYTHON ${PYTHON}-dev\n"
        "    ln -sf /usr/bin/$PYTHON /usr/bin/python\n"
        '    alias pip_install="python -m pip install"\n'
        "    pip_install torch\n    pip_install -r /requirements.txt\n"
    )
    got = import_file_keys(tmp_path / "container.def", matrix, "2022-09-08")
    assert got["torch"] == "1.12.1"
    assert got["torchvision"] is True
    assert got["python"] == "3.9"


def test_aliases_are_bounded() -> None:
    script = "".join(f"alias a{i}='pip install x{i}'\n" for i in range(400)) + "a399 y\na1 y\n"
    assert [c.text for c in shell.interpret(script, env={}).commands] == [
        "a399 y",  # past the 256 kept: a command of its own name
        "pip install x1 y",
    ]


# --- uv's index source ------------------------------------------------------------------------------
_UV_PROJECT = """[project]
name = "tsc"
version = "0.1.0"
requires-python = ">=3.11,<3.14"
dependencies = ["torch>=2.2", "transformers"]

[[tool.uv.index]]
name = "pytorch-cu124"
url = "https://download.pytorch.org/whl/cu124"
explicit = true

[tool.uv.sources]
torch = { index = "pytorch-cu124" }
"""


def test_uv_takes_torch_from_its_index_source_only(matrix: Matrix) -> None:
    got = import_keys(_UV_PROJECT, "pyproject.toml", matrix, "2026-02-12")
    # the cu124 index's newest torch, not PyPI's newer 2.10.0
    assert got["torch"] == "2.6.0"
    assert got["accelerators"] == ["cu124"]


# --- a conda list under a document's name -----------------------------------------------------------
_DUMP = """# Name                    Version                   Build  Channel
_libgcc_mutex             0.1                        main
python                    3.9.19               h955ad1f_1
pytorch                   2.0.1           py3.9_cuda11.8_cudnn8.7.0_0    pytorch
pytorch-cuda              11.8                 h7e8668a_5    pytorch
torchvision               0.15.2               py39_cu118    pytorch
timm                      0.9.2                    pypi_0    pypi
"""


def test_a_conda_list_saved_as_markdown_is_read_as_one(matrix: Matrix) -> None:
    assert detect_kind("Dependencies.md", _DUMP) == "conda-list"
    quoted = "# Setup\n\nOur environment:\n\n```\n" + _DUMP + "```\n"
    assert detect_kind("README.md", quoted) == "markdown"
    got = import_keys(_DUMP, "Dependencies.md", matrix, "2025-01-10")
    assert (got["torch"], got["accelerators"], got["managers"]) == ("2.0.1", ["cu118"], ["conda"])
    assert got["python"] == "3.9"


# --- a README block that runs the install script ----------------------------------------------------
def test_an_unlabeled_block_running_the_install_script_is_read(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "INSTALL.sh").write_text(
        "pip install torch===1.7.0 torchvision===0.8.1 -f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    (tmp_path / "README.md").write_text(
        "## Build\n\n```bash\nconda create --name sm python=3.7\nconda activate sm\n```\n\n"
        "### Install\n```\nbash INSTALL.sh\n```\n\n### Experiment\n```\nbash EXPERIMENT.sh\n```\n"
    )
    got = import_file_keys(tmp_path / "README.md", matrix, "2020-11-30")
    assert (got["torch"], got["torchvision"], got["python"]) == ("1.7.0", "0.8.1", "3.7")


# --- the review of these mechanisms -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("script", "commands"),
    [
        # bash runs a script without aliases unless it turns them on
        ("#!/bin/bash\nalias pip='python3.8 -m pip'\npip install torch\n", ["pip install torch"]),
        ("#!/usr/bin/env bash\nshopt -s expand_aliases\nalias pip='pip3'\npip install torch\n",
         ["shopt -s expand_aliases", "pip3 install torch"]),
        # an alias applies from the next line the shell reads
        ("alias p='pip install' && p torch\np torch\n", ["p torch", "pip install torch"]),
        # an alias of a function runs the function
        ("setup() { pip install torch==1.8.0; }\nalias s=setup\ns\n", ["pip install torch==1.8.0"]),
        # a double-quoted value is expanded where it is defined
        ('V=1.8.0\nalias inst="pip install torch==$V"\nV=2.0.0\ninst\n',
         ["pip install torch==1.8.0"]),
        # unalias, a subshell's alias, and a name that is a variable's value
        ("alias pip=pip3\nunalias pip\npip install x\n", ["pip install x"]),
        ("(alias pip=pip3)\npip install x\n", ["pushd .", "popd", "pip install x"]),
        ("X=pip\nalias pip=pip3\n$X install x\n", ["pip install x"]),
    ],
)  # fmt: skip
def test_aliases_follow_the_shell(script: str, commands: list[str]) -> None:
    assert [c.text for c in shell.interpret(script, env={}).commands] == commands


def test_torchs_own_uv_source_decides_whatever_the_order(matrix: Matrix) -> None:
    head = _UV_PROJECT.split("[[tool.uv.index]]", maxsplit=1)[0].replace(
        '"torch>=2.2", "transformers"', '"torch==2.5.1", "torchvision"'
    )
    indexes = (
        '[[tool.uv.index]]\nname = "cpu"\nurl = "https://download.pytorch.org/whl/cpu"\n'
        'explicit = true\n\n[[tool.uv.index]]\nname = "cu118"\n'
        'url = "https://download.pytorch.org/whl/cu118"\nexplicit = true\n\n[tool.uv.sources]\n'
    )
    for sources in (
        'torchvision = { index = "cpu" }\ntorch = { index = "cu118" }\n',
        'torch = { index = "cu118" }\ntorchvision = { index = "cpu" }\n',
    ):
        got = import_keys(head + indexes + sources, "pyproject.toml", matrix, "2025-01-10")
        assert got["accelerators"] == ["cu118"]


def test_a_conda_list_as_written_by_conda_is_one_and_a_pytorch_titled_readme_is_not() -> None:
    dump = "# packages in environment at /opt/conda:\n#\n" + _DUMP
    assert detect_kind("environment.md", dump) == "conda-list"
    titled = "pytorch\n=======\n\nNeeds torch==2.1.0.\n\n```\n" + _DUMP + "```\n"
    assert detect_kind("README.rst", titled) == "markdown"
