"""`silenced`: the one test of a known issue's `silenced-by` (expansion and `envgen import`)."""

from __future__ import annotations

import pytest

from envgen.model.matrix import load_matrix
from envgen.model.variants import silenced
from envgen.render.commands import install_command


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


@pytest.mark.parametrize(
    ("torch", "compute", "manager", "ids"),
    [
        # The page's 1.9.0 conda cu113 line gave a CPU build: printed as published, with why.
        (
            "1.9.0",
            "cu113",
            "conda",
            {
                "numpy2-with-torch-before-2.3",
                "conda-forge-cudatoolkit-gives-cpu-build",
                "conda-1.9-cudatoolkit-11.3-never-built",
            },
        ),
        (
            "1.4.0",
            "cu101",
            "conda",
            {"conda-pytorch-channel-pre-1.5.1-deleted", "numpy2-with-torch-before-2.3"},
        ),
        ("2.4.1", "cu121", "pip", set()),
        ("2.4.1", "cpu", "pip", set()),
    ],
)
def test_envgen_command_names_the_traps_of_the_line_it_prints(
    torch: str, compute: str, manager: str, ids: set[str]
) -> None:
    """`envgen command` prints the published line; each known issue of that line is a warning."""
    got = install_command(load_matrix(), torch=torch, compute=compute, manager=manager)
    named = {w.split("[", 1)[1].split("]", 1)[0] for w in got.warnings if w.startswith("known ")}
    assert named == ids
