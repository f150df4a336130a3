"""README prose and install scripts of the ninth held-out draw (issue 24): the forms a README
names torch and python in (`PyTorch 0.4 or 0.5`, `[PyTorch 1.1](url) or Up`, `PyTorch: 1.12.1`,
`PyTorch-1.5`, `Pytorch` on a line of its own, `follow the installation instructions for
PyTorch`), a tested machine's list, package lists with list markers, inline and block
alternatives (`` `pip install x` or `conda install x` ``, one block per CUDA), a conda spec list
saved as requirements.txt, a script in `scripts/` run from the checkout root, and a script that
builds a second conda environment. Each mechanism on real-shaped input."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text, parse_file, parse_text
from envgen.repro.importer.conda_list import is_conda_list
from envgen.repro.importer.readme import package_lists, prose_pins, prose_python, prose_torch

KEYS = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _import(
    text: str, matrix: Matrix, as_of: str, filename: str = "README.md"
) -> dict[str, object]:
    result = import_text(text, filename=filename, matrix=matrix, as_of=dt.date.fromisoformat(as_of))
    return {k: result.project.get(k) for k in KEYS}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("## Requirements\n\n  * PyTorch 0.4 or 0.5\n", ["torch>=0.4,<0.6"]),
        ("## Prerequisites\n- [PyTorch 1.1](http://pytorch.org/) or Up\n", ["torch>=1.1"]),
        ("## Requirements\n* PyTorch 1.2 or further\n", ["torch>=1.2"]),
        ("### Dependencies\n - PyTorch: 1.12.1\n", ["torch==1.12.1"]),
        ("### Requirements\n- PyTorch-1.5\n- monai-0.1.0\n", ["torch==1.5"]),
        ("### Dependencies\npython 2.7\n\nPytorch\n", ["torch"]),
        (
            "## Install\nThen follow the installation instructions for a version of\n"
            "[PyTorch](http://pytorch.org/) which works for your machine.\n",
            ["torch"],
        ),
    ],
)
def test_prose_forms_of_a_torch_requirement(text: str, expected: list[str]) -> None:
    assert [r for _, r in prose_torch(text)] == expected


def test_a_one_line_triple_backtick_span_is_not_a_fence() -> None:
    text = "## Installation\n\n```python setup.py install```\n\n## Requirements\n- PyTorch 0.4\n"
    assert prose_torch(text) == [(6, "torch==0.4")]


def test_sentences_that_do_not_install_name_no_torch() -> None:
    assert prose_torch("## Requirements\nThis is a PyTorch port of the paper.\n") == []
    assert prose_torch("## Install\nOur PyTorch code is fast.\n") == []


def test_a_tested_machine_does_not_pin_an_unversioned_requirement() -> None:
    text = (
        "## Required Dependencies\n- Python 3\n- PyTorch\n\n## Tested Configurations\n"
        "The network has been tested on:\n- Ubuntu 20.04, Python 3.11.3, PyTorch 2.0 with CUDA\n"
    )
    assert prose_torch(text) == [(3, "torch")]
    assert prose_python(text) is None  # the section names Python 3, by its major only


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("## Requirements\n* Python 2.7 or 3.6\n", None),  # two pythons
        ("## Requirements\n* Python 3.6 or further\n", None),  # a floor
        ("### Dependencies\n - Python: 3.8.6\n", (2, "3.8")),
        ("The software has only been tested in Python3.6.\n", (1, "3.6")),
    ],
)
def test_prose_forms_of_a_python(text: str, expected: tuple[int, str] | None) -> None:
    assert prose_python(text) == expected


def test_a_package_list_with_list_markers_and_the_project_name() -> None:
    text = "The required packages are:\n```\n* pytorch == 1.4.0\n* torchvision == 0.2.1\n```\n"
    assert package_lists(text) == [(3, ["pytorch == 1.4.0", "torchvision == 0.2.1"], "pip")]
    text = "### Prerequisites:\n```\nPython3\nNumpy\nPytorch\n```\n"
    assert package_lists(text)[0][2] == "pip"


def test_a_package_list_imports_on_pip(matrix: Matrix) -> None:
    text = (
        "## Environment Requirement\nThe code has been tested running under Python 3.6.3. "
        "The required packages are as follows:\n```\n* pytorch == 1.4.0\n"
        "* torchvision == 0.2.1\n```\n"
    )
    got = _import(text, matrix, "2020-12-01")
    assert got == {
        "python": "3.6",
        "torch": "1.4.0",
        "torchvision": "0.2.1",
        "torchaudio": False,
        "accelerators": ["cu101"],
        "managers": ["pip"],
    }


def test_a_list_of_pins_keeps_its_other_pins() -> None:
    text = "### Dependencies\n- numpy==1.22.4\n- torch==2.0.0\n- d3rlpy==1.1.1\n"
    assert [r for _, r in prose_pins(text)] == ["numpy==1.22.4", "torch==2.0.0", "d3rlpy==1.1.1"]
    assert prose_pins("### Dependencies\n- numpy==1.22.4\n") == []  # no torch: nothing read


def test_inline_alternatives_take_the_first(matrix: Matrix) -> None:
    text = (
        "# Installation\n```\nconda create -n ts python=3.7 -y\n```\n"
        "- torchvision: `pip install torchvision` or `conda install torchvision -c pytorch`\n"
    )
    got = _import(text, matrix, "2021-05-27")
    assert (got["managers"], got["accelerators"], got["torch"]) == (["pip"], ["cu102"], "1.8.1")


def test_one_block_per_cuda_takes_the_first(matrix: Matrix) -> None:
    text = (
        "### Install pytorch\nto install for CUDA 10.1\n```bash\npip install torch torchvision\n"
        "```\n\nto install for CUDA 9.2\n```bash\npip install torch==1.2.0+cu92 "
        "torchvision==0.4.0+cu92 -f https://download.pytorch.org/whl/torch_stable.html\n```\n"
    )
    result = import_text(text, filename="README.md", matrix=matrix, as_of=dt.date(2019, 11, 19))
    assert (result.project["torch"], result.project["accelerators"]) == ("1.3.1", ["cu101"])
    assert any("an alternative route (to install for CUDA 9.2)" in w for w in result.warnings)


def test_a_conda_spec_list_saved_as_requirements(matrix: Matrix) -> None:
    text = "dill==0.3.3\npython==3.6.12\npytorch==1.3.1\ntqdm==4.56.0\n"
    assert is_conda_list(text)
    assert not is_conda_list("torch==1.3.1\npython==3.6.12\n")
    assert not is_conda_list("pytorch-lightning==1.0\nnumpy\n")
    got = _import(text, matrix, "2021-02-17", filename="requirements.txt")
    assert got == {
        "python": "3.6",
        "torch": "1.3.1",
        "torchvision": False,
        "torchaudio": False,
        "accelerators": ["cu101"],
        "managers": ["pip"],  # the pytorch channel's packages before 1.5.1 are deleted
    }


def test_a_script_in_a_helper_folder_runs_from_the_checkout_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # a clone: only a checkout's root is read above the script
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "install_pip.sh"
    script.write_text(
        "#!/usr/bin/env bash\npython3.7 -m venv env\nsource $PWD/env/bin/activate\n"
        "$PWD/env/bin/pip install -r requirements.txt\n"
    )
    (tmp_path / "requirements.txt").write_text("torch==1.6.0\ntorchvision==0.7.0\n")
    found = parse_file(script)
    assert found.torch is not None
    assert found.torch.version == "1.6.0"
    assert found.python == "3.7"
    # a script's own folder comes first; another folder name reads nothing above it
    (tmp_path / "tools").mkdir()
    other = tmp_path / "tools" / "x" / "setup.sh"
    other.parent.mkdir()
    other.write_text("pip install -r requirements.txt\n")
    assert parse_file(other).torch is None


def test_a_second_conda_environment_is_not_read(matrix: Matrix) -> None:
    text = (
        "#!/bin/bash\nconda create -n main python=3.8 -y\nconda activate main\n"
        "conda install pytorch==2.3.0 torchvision==0.18.0 pytorch-cuda=11.8 -c pytorch -c nvidia\n"
        "pip install timm==0.5.4\n\n"
        "conda create -n aux python=3.8 -y\nconda activate aux\n"
        "conda install pytorch==1.10.0 cudatoolkit=11.3 -c pytorch -c conda-forge\n"
        "pip install ninja\nconda activate main\npip install gradio\n"
    )
    result = import_text(text, filename="install.sh", matrix=matrix, as_of=dt.date(2025, 5, 4))
    assert (result.project["torch"], result.project["accelerators"]) == ("2.3.0", ["cu118"])
    assert result.project["pip"] == ["timm==0.5.4", "gradio"]
    assert any("conda create aux: a second environment" in w for w in result.warnings)


def test_creating_a_second_environment_switches_nothing() -> None:
    """`conda create -n aux` installs into aux but leaves the active environment as it was; a
    `conda deactivate` ends another environment's commands."""
    text = (
        "#!/bin/bash\nconda create -n main python=3.8 -y\nconda activate main\n"
        "conda create -n aux python=3.7 -y\npip install torch==1.10.0\n"
    )
    found = parse_text(text, filename="install.sh", base=None)
    assert found.torch is not None
    assert found.torch.version == "1.10.0"
    text = (
        "#!/bin/bash\nconda create -n main python=3.8 -y\nconda activate aux\n"
        "pip install torch==1.9.0\nconda deactivate\npip install torch==1.10.0\n"
    )
    found = parse_text(text, filename="install.sh", base=None)
    assert found.torch is not None
    assert found.torch.version == "1.10.0"


def test_a_checkout_without_git_is_read_where_the_user_names_it(tmp_path: Path) -> None:
    """`envgen import --checkout DIR`: a ZIP download has no .git, so only the user's word makes
    its root readable by a helper script (the script's own folder lacks requirements.txt)."""
    from click.testing import CliRunner

    from envgen.cli.commands import cli

    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / "install.sh"
    script.write_text("#!/bin/bash\npip install -r requirements.txt\n")
    (tmp_path / "requirements.txt").write_text("torch==1.6.0\n")
    args = ["import", str(script), "--offline", "--as-of", "2020-09-01"]
    without = CliRunner().invoke(cli, args)
    assert without.exit_code != 0  # no checkout: the root stays closed, no torch is found
    with_root = CliRunner().invoke(cli, [*args, "--checkout", str(tmp_path)])
    assert with_root.exit_code == 0, with_root.stderr
    assert 'torch: "1.6.0"' in with_root.stdout
