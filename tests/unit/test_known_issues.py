"""`silenced`: the one test of a known issue's `silenced-by` (expansion and `envgen import`)."""

from __future__ import annotations

import pytest

from envgen.model.variants import silenced


@pytest.mark.parametrize(
    ("requirement", "pip", "conda", "silent"),
    [
        # A spec's pip: / conda: lists (variant expansion).
        ("numpy<2", ["numpy<2"], [], True),
        ("numpy<2", ["numpy"], [], False),
        ("numpy<2", ["numpy>=2"], [], False),
        ("numpy<2", ["NumPy<2"], [], True),  # names compare canonicalized
        ("numpy<2", ["numpy==1.26.4"], ["numpy=1.21"], True),
        ("numpy<2", [], ["numpy 1.26.*"], True),
        ("numpy<2", [], ["numpy<2"], True),
        ("numpy<2", [], ["conda-forge::numpy=1.26"], True),
        ("numpy<2", [], ["conda-forge::numpy>=1.20,<2"], True),
        ("numpy<2", ["numpy>=1.20"], ["numpy"], False),
        ("numpy<2", ["numpy-quaternion<2"], ["numpyro=0.1"], False),  # other packages
        # An imported file's pip and conda lines (envgen import).
        ("numpy<2", [], ["numpy=1.19.2"], True),
        ("numpy<2", [], ["numpy==1.19.2"], True),
        ("numpy<2", [], ["numpy=1.26.4=py39h5f9d8c6_0"], True),  # an exported build string
        ("numpy<2", [], ["numpy 1.26.4 py39h5f9d8c6_0"], True),
        ("numpy<2", ["numpy==1.19.5"], [], True),
        ("numpy<2", [], [], False),  # nothing said about numpy
        # Every mention narrows what installs: one that refuses numpy 2 is enough.
        ("numpy<2", ["numpy>=1.20", "numpy<2"], [], True),
        ("numpy<2", ["numpy"], ["numpy=1.26"], True),
        # Each version the requirement keeps out must be refused by some mention.
        ("numpy<2,!=1.5", ["numpy<2"], [], False),
        ("numpy<2,!=1.5", ["numpy<1.5"], [], True),
        ("numpy<2,!=1.5", ["numpy<2"], ["numpy!=1.5"], True),
        ("numpy>=1.20", ["numpy<2"], [], False),  # keeps nothing out: never silent
        # A mention envgen cannot read refuses nothing.
        ("numpy<2", ["numpy<<2"], [], False),
        ("numpy<2", [], ["numpy=>>1"], False),
    ],
)
def test_silenced(requirement: str, pip: list[str], conda: list[str], silent: bool) -> None:
    assert silenced(requirement, pip, conda) is silent
