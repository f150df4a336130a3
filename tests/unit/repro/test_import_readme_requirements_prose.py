"""README requirement lists in prose (the eighth held-out draw, issue 24): a list item under a
Requirements / Prerequisites / Dependencies heading (or a `Requirements:` line) that names the
project with no version (`- a PyTorch install (pytorch.org)`, `* torchvision`) asks for it
unpinned; `PyTorch version >= 0.4.0` is a range and `Python version 3.6` (`a Python installation
version 2.7`) a python; where a command installs torch, the line that introduces the commands
(`Installation (using python 3.9 virtual env):`) names the python too. News, citation and
results sections, table rows and sentences outside those sections still name nothing."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text
from envgen.repro.importer.readme import prose_python, prose_torch

KEYS = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _import(text: str, matrix: Matrix, as_of: str) -> dict[str, object]:
    result = import_text(
        text, filename="README.md", matrix=matrix, as_of=dt.date.fromisoformat(as_of)
    )
    return {k: result.project.get(k) for k in KEYS}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("## Requirements\n\n- a PyTorch install ([pytorch.org](http://pytorch.org))\n", "torch"),
        ("## Usage\nRequirements:\n- python3\n- pytorch\n- torchvision\n", "torch torchvision"),
        (
            "### Prerequisites\n  - A basic pytorch installation. The code follows **1.0**.\n",
            "torch",
        ),
        ("## Dependencies\n* A [PyTorch installation](http://pytorch.org/)\n", "torch"),
    ],
)
def test_an_unversioned_requirement_item_is_read_unpinned(text: str, expected: str) -> None:
    assert " ".join(r for _, r in prose_torch(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        "## Usage\n- pytorch\n",  # not a section that says what the project needs
        "## Requirements\nThis is a PyTorch port of the paper.\n",  # a sentence, not a list item
        "## Requirements\n- [tensorboard-pytorch](https://x.org) for curves\n",  # another project
        "## Requirements\n- see pytorch.org\n",  # an address
        "# Net\n## News\n- ported to PyTorch\n",
        "# Net\n## Citation\n- PyTorch: an imperative style\n",
        "# Net\n| PyTorch | yes |\n",
    ],
)
def test_unversioned_mentions_elsewhere_name_no_torch(text: str) -> None:
    assert prose_torch(text) == []


def test_a_version_anywhere_in_prose_comes_before_an_unversioned_item() -> None:
    text = "## Requirements\n- PyTorch\n- torchvision\n\n## Notes\nRuns with PyTorch 1.4.0.\n"
    assert prose_torch(text) == [(3, "torchvision"), (6, "torch==1.4.0")]
    # an unversioned companion joins a versioned torch
    text = "## Requirements\n* Python >= 3.6\n* PyTorch >= 1.0.0\n* torchvision\n"
    assert prose_torch(text) == [(3, "torch>=1.0.0"), (4, "torchvision")]


def test_the_word_version_between_the_project_and_its_version() -> None:
    text = "# Requirements and Installation\nCurrently it requires PyTorch version >= 0.4.0.\n"
    assert prose_torch(text) == [(2, "torch>=0.4.0")]
    assert prose_python("## Requirements\n* Python version 3.6\n") == (2, "3.6")
    assert prose_python("## Requirements\n- a Python intallation version 2.7\n") == (2, "2.7")
    assert prose_python("## Requirements\n- Python version >= 3.6\n") is None  # a floor


def test_the_line_that_introduces_the_commands_names_their_python() -> None:
    text = "# Setup:\nInstallation (using python 3.9 virtual env):\n```\npython3 -m venv v\n```\n"
    assert prose_python(text, sentences=False) == (2, "3.9")
    # the authors' machine, not the install's
    text = "## Setup\nTested on Python 3.7 with:\n\n```\npip install torch\n```\n"
    assert prose_python(text, sentences=False) is None
    # a sentence that introduces nothing is still not read beside a command
    text = "## Setup\nWe use python 3.9 here.\n\nThen:\n```\npip install torch\n```\n"
    assert prose_python(text, sentences=False) is None


def test_an_unversioned_requirement_list_imports_the_newest_release(matrix: Matrix) -> None:
    text = (
        "# Deep\n\n## Requirements\n\n- a Python intallation version 2.7\n"
        "- the SciPy and scikit-learn packages\n- a PyTorch install ([pytorch.org](http://pytorch.org))\n"
    )
    # the newest release on 2018-11-12 is 0.4.1 (1.0.0 came 2018-12-07): PyPI's linux wheel
    # was the CUDA 9.0 build
    assert _import(text, matrix, "2018-11-12") == {
        "python": "2.7", "torch": "0.4.1", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu90"], "managers": ["pip"],
    }  # fmt: skip


def test_a_python_introducing_the_install_commands_joins_them(matrix: Matrix) -> None:
    text = (
        "# Setup:\nInstallation (using python 3.9 virtual env):\n```\npython3 -m venv venv\n```\n\n"
        "```\npip install torch==1.9.0+cu111 torchvision==0.10.0+cu111 "
        "-f https://download.pytorch.org/whl/torch_stable.html\n```\n"
    )
    got = _import(text, matrix, "2023-02-26")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.9", "1.9.0", ["cu111"])


N = 64 * 1024


@pytest.mark.parametrize(
    "text",
    [
        "## Requirements\n- " + "pytorch " * (N // 8) + "\n",
        "## Requirements\n- PyTorch version" + " " * N + "x\n",
        "## Requirements\n- Python" + " version" * (N // 8) + "\n",
        "## Requirements\n- python " + "a" * N + " version 3.6\n",
        "## Setup\n" + "python 3.9:\n" * (N // 12) + "```\nx\n```\n",
    ],
    ids=["items", "version-spaces", "version-words", "long-word", "introducing-lines"],
)
def test_the_new_readings_are_linear(text: str) -> None:
    start = time.perf_counter()
    prose_torch(text)
    prose_python(text)
    prose_python(text, sentences=False)
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize(
    ("line", "spec"),
    [
        ("- PyTorch 1.2-1.4", "torch>=1.2,<1.5"),
        ("- PyTorch 1.2 to 1.4.0", "torch>=1.2,<=1.4.0"),
        ("- PyTorch 1.2 \u2013 1.4", "torch>=1.2,<1.5"),
        ("- PyTorch 1.7 - CUDA 11", "torch==1.7"),  # no second version: no span
    ],
)
def test_a_span_of_releases_is_read_through_its_upper_end(line: str, spec: str) -> None:
    assert prose_torch(f"## Requirements\n{line}\n") == [(2, spec)]


def test_a_span_imports_the_newest_release_inside_it(matrix: Matrix) -> None:
    # 1.5.0 came 2020-04-21: the newest of 1.2-1.4 on 2020-06-01 is 1.4.0
    got = _import("## Requirements\n- Python 3.7\n- PyTorch 1.2-1.4\n", matrix, "2020-06-01")
    assert (got["python"], got["torch"]) == ("3.7", "1.4.0")
