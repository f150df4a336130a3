"""README prose and setup-script detection on crafted input: each pattern reads a 64 KiB line
(or file) in linear time. Before, `PyTorch` or `Python` followed by a run of spaces, a line of
`[`, a labeled `pip install pip install ...` line, a `Requirements` line of spaces, a package
list line of `!=1` pins and a .py file of blank lines each took quadratic (or exponential) time,
minutes to hours at the 1 MiB a file may have."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from envgen.repro.importer import detect, readme

N = 64 * 1024
LIMIT_S = 2.0  # each case took from 60 s to hours before; a linear read takes milliseconds


def _timed(call: Callable[..., Any], *args: Any) -> float:
    start = time.perf_counter()
    call(*args)
    return time.perf_counter() - start


@pytest.mark.parametrize(
    "text",
    [
        "## Requirements\nPyTorch" + " " * N + "x\n",
        "## Requirements\nPython" + " " * N + "x\n",
        "## Requirements\nPyTorch 1.0" + " " * N + "x\n",
        "## Requirements\nPython 3.6" + " " * N + "-x\n",
        "Requirements" + " " * N + "x\n",
        "[" * N + "\n",
        "[a](" * (N // 4) + "\n",
    ],
    ids=["torch-spaces", "python-spaces", "torch-tail", "python-tail", "needs", "link", "link2"],
)
def test_prose_readers_are_linear(text: str) -> None:
    assert _timed(readme.prose_torch, text) < LIMIT_S
    assert _timed(readme.prose_python, text) < LIMIT_S


def test_gpu_choices_linear_on_repeated_install_words() -> None:
    block = "2080:\n" + "pip install " * (N // 12) + "\n"
    assert _timed(readme.gpu_choices, block) < LIMIT_S
    assert readme.gpu_choices("# cuda 11\npip install pip install torch==1.9.0\n") == [
        (0, 2, "cuda 11")
    ]


def test_package_list_line_of_not_equal_pins_is_linear() -> None:
    text = "Install these packages:\n```\ntorch==1" + "!=1" * 40 + " x\n```\n"
    assert _timed(readme.package_lists, text) < LIMIT_S


def test_setup_script_detection_linear() -> None:
    assert _timed(detect.is_setup_script, "\n" * N) < LIMIT_S
    assert _timed(detect.is_setup_script, "from setuptools import x " * (N // 25)) < LIMIT_S
    assert detect.is_setup_script("  from setuptools import find_packages, setup\nsetup()\n")
    assert detect.is_setup_script("import setuptools\nsetuptools.setup(name='a')\n")
    assert not detect.is_setup_script("from setuptools import find_packages\n")


def test_badge_inside_link_still_read() -> None:
    text = "## Requirements\n[![PyTorch 1.8](https://img.shields.io/x.svg)](https://pytorch.org)\n"
    assert readme.prose_torch(text) == [(2, "torch==1.8")]


def test_explicit_marker_linear_on_blank_lines() -> None:
    from envgen.repro.importer.conda_explicit import is_explicit

    assert _timed(is_explicit, "\n" * N) < LIMIT_S
    assert is_explicit("# platform: linux-64\n  @EXPLICIT \nhttps://x/linux-64/a-1-0.conda\n")
