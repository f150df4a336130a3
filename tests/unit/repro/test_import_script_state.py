"""What an install script's earlier commands leave for its later ones (issue 24, the items the
nineteenth draw's note left): the variables it exports reach a Makefile it runs (GNU make
imports its environment), an install inside a `$(func)` subshell stays installed, and a
`sed -i` edits the file in the folder the script was in, not every file of that name."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from tests.support.importing import import_file_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _write(folder: Path, files: dict[str, str]) -> None:
    (folder / ".git").mkdir()
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_exported_variables_reach_the_makefile(tmp_path: Path, matrix: Matrix) -> None:
    """`export CUDA=cu118` then `make install`: $(CUDA) in the recipe, and $$CUDA in its shell,
    read the exported value; a variable set without export stays the script's (TORCH=1.0 does
    not beat the Makefile's `TORCH ?= 2.0.1`), as GNU make orders them."""
    _write(
        tmp_path,
        {
            "install.sh": "export CUDA=cu118\nTORCH=1.0\nmake install\n",
            "Makefile": "TORCH ?= 2.0.1\ninstall:\n"
            "\tpip install torch==$(TORCH) --index-url https://download.pytorch.org/whl/$(CUDA)\n"
            "\tpip install torchvision --index-url https://download.pytorch.org/whl/$$CUDA\n",
        },
    )
    got = import_file_keys(tmp_path / "install.sh", matrix, "2023-08-01")
    assert (got["torch"], got["torchvision"], got["accelerators"]) == ("2.0.1", True, ["cu118"])


def test_the_makefiles_own_assignment_beats_the_environment(tmp_path: Path, matrix: Matrix) -> None:
    _write(
        tmp_path,
        {
            "install.sh": "export CUDA=cu118\nmake\n",
            "Makefile": "CUDA := cu117\nall:\n"
            "\tpip install torch==2.0.1 --index-url https://download.pytorch.org/whl/$(CUDA)\n",
        },
    )
    got = import_file_keys(tmp_path / "install.sh", matrix, "2023-08-01")
    assert got["accelerators"] == ["cu117"]


def test_an_install_inside_a_command_substitution_stays(tmp_path: Path, matrix: Matrix) -> None:
    """`R=$(setup)` runs setup in a subshell: its pip install writes into the environment the
    script shares (its echo is the value, its cd and variables end with it)."""
    _write(
        tmp_path,
        {
            "install.sh": "setup() {\n  cd elsewhere\n  export CUDA=cu999\n"
            "  pip install torch==1.13.1 --index-url https://download.pytorch.org/whl/cu116 >&2\n"
            "  echo done\n}\nR=$(setup)\necho $R\npip install -r requirements.txt\n",
            "requirements.txt": "torchvision==0.14.1\n",
        },
    )
    got = import_file_keys(tmp_path / "install.sh", matrix, "2023-08-01")
    assert (got["torch"], got["torchvision"], got["accelerators"]) == (
        "1.13.1",
        "0.14.1",
        ["cu116"],
    )


def test_a_substitutions_other_commands_stay_out_of_the_route() -> None:
    route = shell.interpret(
        "v() {\n  nvidia-smi --query-gpu=name\n  conda activate x\n  echo 11.8\n}\n"
        "C=$(v)\npip install torch --index-url https://download.pytorch.org/whl/cu$C\n",
        env={},
    )
    assert [c.text for c in route.commands] == [
        "pip install torch --index-url https://download.pytorch.org/whl/cu11.8"
    ]


@pytest.mark.parametrize(
    ("script", "torch"),
    [
        # the sub folder's file is edited; the root's, installed after `cd ..`, is not
        ('cd sub\nsed -i "s/==1.8.0/==1.9.0/" requirements.txt\ncd ..\n'
         "pip install -r requirements.txt\n", "1.8.0"),
        ('cd sub\nsed -i "s/==1.8.0/==1.9.0/" requirements.txt\npip install -r requirements.txt\n',
         "1.9.0"),
        ('sed -i "s/==1.8.0/==1.9.0/" sub/requirements.txt\npip install -r requirements.txt\n',
         "1.8.0"),
        ('sed -i "s/==1.8.0/==1.9.0/" requirements.txt\npip install -r requirements.txt\n',
         "1.9.0"),
    ],
)  # fmt: skip
def test_sed_edits_the_file_in_the_scripts_folder(
    tmp_path: Path, matrix: Matrix, script: str, torch: str
) -> None:
    _write(
        tmp_path,
        {
            "install.sh": script,
            "requirements.txt": "torch==1.8.0\n",
            "sub/requirements.txt": "torch==1.8.0\n",
        },
    )
    got = import_file_keys(tmp_path / "install.sh", matrix, "2021-08-01")
    assert got["torch"] == torch
