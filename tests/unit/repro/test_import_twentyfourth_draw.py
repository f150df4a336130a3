"""The mechanisms of the twenty-fourth stop (issue 24), each on real-shaped input written here:
uv's searched indexes (a `[[tool.uv.index]]` not marked `explicit`, a `default = true` one, the
older `extra-index-url`), which uv searches before PyPI and takes torch from; and the families the
twenty-fourth held-out draw's misses asked for."""

from __future__ import annotations

import pytest

from envgen.model.matrix import Matrix, load_matrix
from tests.support.importing import import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


# --- uv's searched indexes --------------------------------------------------------------------------
_HEAD = """[project]
name = "x"
version = "0.1"
requires-python = ">=3.10"
dependencies = ["torch>=2.4", "torchvision"]

"""


@pytest.mark.parametrize(
    "tool",
    [
        # searched before PyPI (uv's first-index strategy), though no source names it
        '[[tool.uv.index]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu118"\n',
        # the default index replaces PyPI
        '[[tool.uv.index]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu118"\n'
        "default = true\n",
        # the older settings
        '[tool.uv]\nextra-index-url = ["https://download.pytorch.org/whl/cu118"]\n',
        '[tool.uv]\nindex-url = "https://download.pytorch.org/whl/cu118"\n',
        # an explicit index serves only the packages a source routes to it; torch's source wins
        '[[tool.uv.index]]\nname = "cpu"\nurl = "https://download.pytorch.org/whl/cpu"\n\n'
        '[[tool.uv.index]]\nname = "cu118"\nurl = "https://download.pytorch.org/whl/cu118"\n'
        'explicit = true\n\n[tool.uv.sources]\ntorch = { index = "cu118" }\n',
    ],
)
def test_uv_takes_torch_from_the_first_pytorch_index_it_searches(tool: str, matrix: Matrix) -> None:
    got = import_keys(_HEAD + tool, "pyproject.toml", matrix, "2024-10-01")
    # PyPI's 2.4.1 is the cu121 build; the cu118 index has its own
    assert (got["torch"], got["accelerators"]) == ("2.4.1", ["cu118"])


def test_an_explicit_index_no_source_names_is_not_searched(matrix: Matrix) -> None:
    tool = (
        '[[tool.uv.index]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu118"\n'
        "explicit = true\n"
    )
    got = import_keys(_HEAD + tool, "pyproject.toml", matrix, "2024-10-01")
    assert (got["torch"], got["accelerators"]) == ("2.4.1", ["cu121"])
