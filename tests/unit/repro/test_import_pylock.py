"""`envgen import` of PEP 751 locks (pylock.toml): the committed examples' own and hand-made ones.

The expected torch, accelerator and Python come from the files themselves: the bundled example's
cpu variant (torch 2.13.0+cpu, Python 3.11) and examples/cuda-13's cu130 variant (torch 2.14.1,
PyPI's CUDA 13.0 build, with its nvidia-*-cu13 wheels).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import detect_kind, import_text

ROOT = Path(__file__).parents[3]


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_detects_pylock_names() -> None:
    assert detect_kind("pylock.toml", "") == "pylock"
    assert detect_kind("pylock.gpu.toml", "") == "pylock"
    assert detect_kind("pyproject.toml", "") == "pyproject"


def test_bundled_example_pylock(matrix: Matrix) -> None:
    path = ROOT / "environments" / "cpu" / "pylock.toml"
    result = import_text(path.read_text(), filename=path.name, matrix=matrix)
    assert result.project["torch"] == "2.13.0"
    assert result.project["python"] == "3.11"
    assert result.project["accelerators"] == ["cpu"]
    pip = result.project["pip"]
    assert isinstance(pip, list)
    assert "numpy==2.4.6" in pip


def test_cuda_example_pylock(matrix: Matrix) -> None:
    path = ROOT / "examples" / "cuda-13" / "environments" / "cu130" / "pylock.toml"
    result = import_text(path.read_text(), filename=path.name, matrix=matrix)
    assert result.project["torch"] == "2.14.1"
    assert result.project["accelerators"] == ["cu130"]
    assert result.project["torchvision"] == "0.29.1"


def test_not_a_pylock_is_an_error(matrix: Matrix) -> None:
    text = 'lock-version = "1.0"\ncreated-by = "x"\n[[packages]]\nversion = "1"\n'
    with pytest.raises(ImportSpecError) as info:
        import_text(text, filename="pylock.toml", matrix=matrix)
    assert str(info.value) == (
        "pylock.toml: not a valid PEP 751 lock (Missing required value in 'packages[0].name')\n"
        "  hint: a pylock.toml as pip or uv write it"
    )
