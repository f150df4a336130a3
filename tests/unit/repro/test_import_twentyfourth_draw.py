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


# --- conda-forge's first build of a release ---------------------------------------------------------
_FORGE_ENV = "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pytorch\n"


@pytest.mark.parametrize(
    ("as_of", "torch"),
    [
        # PyPI had 2.9.0 on 2025-10-15; the feedstock first built it on 2025-11-02
        ("2025-10-20", "2.8.0"),
        ("2025-11-05", "2.9.0"),
        # 2.11.0 came to PyPI on 2026-03-23, to conda-forge on 2026-06-01
        ("2026-04-15", "2.10.0"),
    ],
)
def test_an_unpinned_conda_forge_pytorch_is_what_conda_forge_had_built(
    as_of: str, torch: str, matrix: Matrix
) -> None:
    got = import_keys(_FORGE_ENV, "environment.yml", matrix, as_of)
    assert (got["torch"], got["managers"]) == (torch, ["conda"])


def test_the_first_build_date_does_not_bind_pip_or_the_pytorch_channel(matrix: Matrix) -> None:
    pip = import_keys("torch\n", "requirements.txt", matrix, "2026-04-15")
    assert pip["torch"] == "2.11.0"
    # 2.4.0: the pytorch channel built it, which the file lists first
    env = _FORGE_ENV.replace("  - conda-forge\n", "  - pytorch\n  - conda-forge\n")
    assert import_keys(env, "environment.yml", matrix, "2024-08-01")["torch"] == "2.4.0"
