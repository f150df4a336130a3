"""The mechanisms the nineteenth held-out draw's misses asked for (issue 24), each on
real-shaped input written here: `make TARGET` running a Makefile's recipe (with its variables
and `$(subst ...)`), the `test` builtin as a condition, and a Pipfile's `{path = "."}` package."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest

from envgen.errors import EnvgenError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, makefile
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


# --- the red team's inputs on this stop's mechanisms: bounded, never an internal error --------


def _import_quick(path: Path, matrix: Matrix) -> None:
    """An import that ends within a second or two, with an answer or a clear error."""
    started = time.monotonic()
    with contextlib.suppress(EnvgenError):
        run_import(ImportOptions(source=path, as_of="2024-01-01"), matrix)
    assert time.monotonic() - started < 5


def test_a_makefile_whose_recipe_runs_make_again(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "Makefile").write_text("a:\n" + "\tmake\n" * 4 + "\tpip install torch==1.13.1\n")
    (tmp_path / "install.sh").write_text("make\n")
    _import_quick(tmp_path / "install.sh", matrix)


def test_files_compiled_from_files_compiled_in_turn(tmp_path: Path, matrix: Matrix) -> None:
    lines = [f"pip-compile {f'f{i + 1}.txt ' * 16}-o f{i}.txt" for i in range(1, 9)]
    chain = [f"pip-compile f{i + 1}.txt -o f{i}.txt" for i in range(10, 600)]
    (tmp_path / "install.sh").write_text("\n".join([*lines, *chain, "pip install -r f1.txt"]))
    _import_quick(tmp_path / "install.sh", matrix)
    (tmp_path / "install.sh").write_text("\n".join([*chain, "pip install -r f10.txt"]))
    _import_quick(tmp_path / "install.sh", matrix)


def test_a_long_run_of_blanks_in_an_invalid_ci_file(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".gitlab-ci.yml").write_text(
        "test:\n  script:\n    - pip install torch==1.13.1\n# " + " \t" * 20_000 + "x\nbad: [\n"
    )
    _import_quick(tmp_path / ".gitlab-ci.yml", matrix)


def test_sed_on_a_large_file_and_a_backtracking_pattern(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.13.1\n" + "#\n" * 200_000)
    (tmp_path / "install.sh").write_text(
        "sed -i " + "-e s/a/b/ " * 100 + "requirements.txt\npip install -r requirements.txt\n"
    )
    _import_quick(tmp_path / "install.sh", matrix)
    (tmp_path / "requirements.txt").write_text("a" * 6000 + "\ntorch==1.13.1\n")
    (tmp_path / "install.sh").write_text(
        "sed -i 's/a*a*b/x/' requirements.txt\npip install -r requirements.txt\n"
    )
    _import_quick(tmp_path / "install.sh", matrix)


def test_a_function_that_echoes_without_end(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "install.sh").write_text(
        "X="
        + "a" * 16000
        + "\nf() {\n  for i in "
        + "1 " * 200
        + "; do echo "
        + "$X " * 50
        + '; done\n}\nY="$(f)"\npip install torch==1.13.1\n'
    )
    _import_quick(tmp_path / "install.sh", matrix)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("pixi.lock", 'version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n'
                      '      - pypi: "http://[abc/torch-2.0.0-py3-none-any.whl"\n'
                      '      - conda: "http://[abc/pytorch-2.0.0-py3.10_cuda11.8_0.tar.bz2"\n'),
        ("pixi.lock", "version: 3\npackage:\n- name: pytorch\n  manager: [conda]\n"
                      "  platform: linux-64\n  url: x\n"),
        ("requirements.txt", "torch==1.13.1\nclip @ git+https://[abc/openai/CLIP.git\n"),
        ("spec-file.txt", "@EXPLICIT\nhttp://[abc/linux-64/pytorch-2.0.0-py3.10_0.tar.bz2\n"),
    ],
)  # fmt: skip
def test_urls_that_are_not_urls(tmp_path: Path, matrix: Matrix, name: str, text: str) -> None:
    (tmp_path / name).write_text(text)
    _import_quick(tmp_path / name, matrix)


def test_the_reviews_make_semantics() -> None:
    """Conditionals on known values, a rule of several targets, `$(MAKE)`, automatic variables,
    `.DEFAULT_GOAL`, `$$`, and a first target `.venv/bin/activate` (a path, not a special)."""
    text = (
        "ifeq ($(GPU),1)\nT := cu111\nelse\nT := cpu\nendif\n.DEFAULT_GOAL := install\n"
        "help:\n\techo help\ninstall build: deps\n\tpip install torch==1.8.1+$(T)\n"
        "\tpython3 -m venv $@ && echo $$HOME\n\t$(MAKE) -C sub all\n"
        "install:\nifeq ($(GPU),1)\n\techo gpu\nendif\n"
    )
    lines = [t for _, t in makefile.recipe(makefile.parse(text, {"GPU": "1"}), [])]
    assert lines == [
        "pip install torch==1.8.1+cu111",
        "python3 -m venv install && echo $HOME",
        "make -C sub all",
        "echo gpu",
    ]
    built = [t for _, t in makefile.recipe(makefile.parse(text, {}), ["build"])]
    assert built[0] == "pip install torch==1.8.1+cpu"
    venv = makefile.parse(".venv/bin/activate: r.txt\n\tpip install -r r.txt\nclean:\n\trm x\n", {})
    assert venv.default == ".venv/bin/activate"


def test_make_j_then_a_target(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "Makefile").write_text(
        "help:\n\techo help\ninstall:\n\tpip install torch==1.12.1\n"
    )
    (tmp_path / "setup.sh").write_text("make -j install\n")
    assert import_file_keys(tmp_path / "setup.sh", matrix, "2022-10-01")["torch"] == "1.12.1"


def test_a_functions_stderr_is_not_its_value() -> None:
    route = shell.interpret(
        'detect(){ echo "Detecting..." >&2; echo cpu; }\nP=$(detect)\n'
        'if [ "$P" = cpu ]; then pip install torch==1.9.0+cpu; else pip install torch==1.9.0; fi\n'
        "f(){ printf cu; printf 118; }\nV=$(f)\npip install x --index-url https://h/$V\n",
        env={},
    )
    assert [c.text for c in route.commands] == [
        "pip install torch==1.9.0+cpu",
        "pip install x --index-url https://h/cu118",
    ]


def test_pip_compile_writes_beside_its_input(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements").mkdir()
    (tmp_path / "requirements" / "dev.in").write_text("torch==2.2.1\n")
    (tmp_path / "requirements.txt").write_text("torch==1.0.0\n")
    (tmp_path / "s.sh").write_text(
        "pip-compile requirements/dev.in --extra dev -c c.txt\npip install -r requirements/dev.txt\n"
    )
    assert import_file_keys(tmp_path / "s.sh", matrix, "2024-03-01")["torch"] == "2.2.1"
    (tmp_path / "s.sh").write_text(  # uv prints to stdout without -o: the committed file stands
        "uv pip compile requirements/dev.in\npip install -r requirements.txt\n"
    )
    assert import_file_keys(tmp_path / "s.sh", matrix, "2024-03-01")["torch"] == "1.0.0"
