"""envgen import: evidence a file states about another platform, another python or a range.

Facts: pip installs a `win_amd64` or `macosx_*` wheel only on Windows or macOS (PEP 425
platform tags), and a requirement whose environment marker is false is skipped (PEP 508), so
neither names the python of a linux-64 install; a line per python (`; python_version ==
'3.6'`) names none. A README's `PyTorch >= 1.2, < 1.5` asks for a release below 1.5, and
`Python 2.7 is not supported` rules 2.7 out rather than naming it.
"""

from __future__ import annotations

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text
from envgen.repro.importer.readme import prose_python, prose_torch


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


@pytest.mark.parametrize(
    "line",
    [
        "https://x.org/a-1.0-cp37-cp37m-win_amd64.whl",
        "https://x.org/a-1.0-cp39-cp39-macosx_10_9_x86_64.whl ; sys_platform == 'darwin'",
        "https://x.org/a-1.0-cp36-cp36m-linux_x86_64.whl ; python_version == '3.6'",
    ],
    ids=["windows", "darwin-marker", "per-python"],
)
def test_a_wheel_for_another_platform_or_python_names_no_python(matrix: Matrix, line: str) -> None:
    text = f"{line}\ntorch==1.8.1\n"
    project = import_text(text, filename="requirements.txt", matrix=matrix).project
    assert project["torch"] == "1.8.1"
    assert "python" not in project


def test_a_linux_cpython_wheel_still_names_its_python(matrix: Matrix) -> None:
    text = "https://x.org/a-1.0-cp37-cp37m-manylinux1_x86_64.whl\ntorch==1.8.1\n"
    project = import_text(text, filename="requirements.txt", matrix=matrix).project
    assert project["python"] == "3.7"


def test_prose_range_keeps_its_upper_bound() -> None:
    assert prose_torch("## Requirements\n- PyTorch >= 1.2, < 1.5\n") == [(2, "torch>=1.2,<1.5")]
    assert prose_torch("## Requirements\n- PyTorch 1.2+ (<= 1.4)\n") == [(2, "torch>=1.2")]
    assert prose_torch("## Requirements\n- PyTorch 1.0 or higher, <=1.4\n") == [
        (2, "torch>=1.0,<=1.4")
    ]


def test_prose_version_ruled_out_is_not_read() -> None:
    text = "## Requirements\n- Python 3 (Python 2.7 is not supported)\n- PyTorch 1.4\n"
    assert prose_python(text) is None
    assert prose_python("## Requirements\n- Python 2.7 (deprecated), Python 3.6\n") == (2, "3.6")
    text = "## Requirements\n- PyTorch 0.4 is no longer supported; use PyTorch 1.0\n"
    assert prose_torch(text) == [(2, "torch==1.0")]


def test_a_companion_range_no_allowed_torch_meets_is_warned(matrix: Matrix) -> None:
    """torchvision <0.10 belongs to torch 1.8.x and older; torch >=2.0 allows none of them."""
    result = import_text(
        "torch>=2.0\ntorchvision<0.10\n", filename="requirements.txt", matrix=matrix
    )
    assert any("torchvision <0.10 belongs to no torch release" in w for w in result.warnings), (
        result.warnings
    )


def test_a_github_matrix_exclude_moves_the_default_combination(matrix: Matrix) -> None:
    """GitHub runs no job for an excluded combination; the first one left is the default."""
    text = (
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n"
        "        python: ['3.8', '3.9']\n        torch: ['1.10.0', '1.11.0']\n"
        "        exclude:\n          - python: '3.8'\n            torch: '1.10.0'\n"
        "    steps:\n      - uses: actions/setup-python@v4\n        with:\n"
        "          python-version: ${{ matrix.python }}\n"
        "      - run: pip install torch==${{ matrix.torch }}\n"
    )
    project = import_text(text, filename=".github/workflows/ci.yml", matrix=matrix).project
    assert (project["python"], project["torch"]) == ("3.8", "1.11.0")


@pytest.mark.parametrize(
    "text",
    [
        "# Foo\n## News\n- code updated for PyTorch 2.0\n",
        "# Foo\n## Citation\nPaszke et al., PyTorch 1.0: an imperative style library\n",
        "# Foo\n### Results\nNumbers with PyTorch 1.6 and CUDA 10.1.\n",
        "# Foo\n| Model | PyTorch 1.6 | PyTorch 1.7 |\n|---|---|---|\n",
    ],
    ids=["news", "citation", "results", "table-row"],
)
def test_prose_in_a_news_citation_or_results_section_names_no_torch(text: str) -> None:
    # A story about the project, not what it needs: refused rather than guessed.
    assert prose_torch(text) == []


def test_a_version_the_readme_says_breaks_is_not_the_one_to_install() -> None:
    text = "## Installation\nNote: PyTorch 1.9 breaks the loader, use PyTorch 1.8\n"
    assert prose_torch(text) == [(2, "torch==1.8")]


def test_a_lone_prose_line_outside_any_aside_section_is_still_read() -> None:
    # TCN's `**Update**:` line under "Domains and Datasets", UPSNet's "Disclaimer"
    text = "# TCN\n## Domains and Datasets\n**Update**: runnable with PyTorch 0.4.0 or above.\n"
    assert prose_torch(text) == [(3, "torch>=0.4.0")]


def test_the_title_heading_is_never_an_aside_section() -> None:
    # TCN's title names "Benchmarks"; its Update line sits under it and a later section
    text = "# Sequence Modeling Benchmarks and TCN\nRunnable with PyTorch 0.4.0 or above.\n"
    assert prose_torch(text) == [(2, "torch>=0.4.0")]
