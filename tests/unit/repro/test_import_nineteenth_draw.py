"""The mechanisms the nineteenth held-out draw's misses asked for (issue 24), each on
real-shaped input written here: `make TARGET` running a Makefile's recipe (with its variables
and `$(subst ...)`), the `test` builtin as a condition, and a Pipfile's `{path = "."}` package."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from envgen.repro.importer import makefile
from tests.support.importing import import_file_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


_MAKEFILE = (
    "PYTHON:= python3.7\nCUDA_VERSION:= 10.1\nPYTORCH_VERSION:= 1.6\nDOT:= .\n"
    ".PHONY: all clean\n\nall: virtualenv\n\nvirtualenv:\n"
    "\ttest -d venv || virtualenv -p $(PYTHON) venv\n"
    "\t. venv/bin/activate; pip install torch==$(PYTORCH_VERSION) \\\n"
    "\t\t-f https://download.pytorch.org/whl/cu$(subst $(DOT),,$(CUDA_VERSION))/torch_stable.html\n"
    "\t. venv/bin/activate; cd ../; pip install -r requirements.txt\n\n"
    "clean:\n\trm -fr venv\n"
)


def test_make_runs_the_default_goal_from_the_makefiles_folder(
    tmp_path: Path, matrix: Matrix
) -> None:
    """README: `cd tools` then `make`: tools/Makefile's default goal (all: virtualenv) makes a
    python3.7 virtualenv and installs torch 1.6 from the cu101 page, then `cd ../` and the
    root's requirements.txt."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "Makefile").write_text(_MAKEFILE)
    (tmp_path / "requirements.txt").write_text("torchaudio==0.6.0\nnumpy==1.19.2\n")
    (tmp_path / "README.md").write_text("# X\n\n### Setup\n```\n$ cd tools\n$ make\n```\n")
    got = import_file_keys(tmp_path / "README.md", matrix, "2021-06-19")
    assert got == {
        "python": "3.7",
        "torch": "1.6.0",
        "torchvision": False,
        "torchaudio": "0.6.0",
        "accelerators": ["cu101"],
        "managers": ["pip"],
    }


def test_make_target_and_overrides(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "Makefile").write_text(
        "TORCH ?= 1.8.1\nCU = cu111\ndep:\n\tpip install torch==$(TORCH)+$(CU) "
        "-f https://download.pytorch.org/whl/torch_stable.html\ndev: dep\n\tpip install pytest\n"
    )
    (tmp_path / "setup.sh").write_text("make -C . dev TORCH=1.9.0\n")
    got = import_file_keys(tmp_path / "setup.sh", matrix, "2021-10-01")
    assert (got["torch"], got["accelerators"]) == ("1.9.0", ["cu111"])


def test_the_makefile_reader() -> None:
    parsed = makefile.parse(_MAKEFILE, {"PYTORCH_VERSION": "1.7"})
    lines = [text for _, text in makefile.recipe(parsed, [])]
    assert lines[1].startswith(". venv/bin/activate; pip install torch==1.7 -f ")
    assert "/whl/cu101/torch_stable.html" in lines[1]
    assert makefile.recipe(parsed, ["clean"]) == [(16, "rm -fr venv")]
    assert makefile.recipe(makefile.parse("x:\n\t$(shell id)\n", {}), []) == [(2, "$(shell id)")]
    loop = makefile.parse("a: b\n\techo a\nb: a\n\techo b\n", {})
    assert [t for _, t in makefile.recipe(loop, [])] == ["echo b", "echo a"]


def test_the_test_builtin_is_a_condition() -> None:
    route = shell.interpret(
        "test -d venv || virtualenv -p python3.7 venv\ntest -n '' && pip install torch\n",
        env={},
        probe=lambda _test, _path: False,
    )
    assert [c.text for c in route.commands] == ["virtualenv -p python3.7 venv"]


def test_a_pipfile_path_package_is_the_project(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\n"
        "setup(name='meta_agents', install_requires=['torch==1.1.0', 'torchvision==0.3.0'])\n"
    )
    (tmp_path / "Pipfile").write_text(
        '[[source]]\nname = "pypi"\nurl = "https://pypi.org/simple"\n\n[packages]\n'
        'numpy = "==1.14.5"\nmeta-agents = {path = "."}\n\n[requires]\npython_version = "3.6"\n'
    )
    got = import_file_keys(tmp_path / "Pipfile", matrix, "2019-08-23")
    assert (got["python"], got["torch"], got["torchvision"]) == ("3.6", "1.1.0", "0.3.0")
