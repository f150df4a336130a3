"""Release rows' Pythons per platform from PyPI's wheel files (issue 29 item 7): a pip build
that installs torch from PyPI itself is refused for a Python PyPI has no wheel of on that
platform, and the default Python is one it has."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.render.commands import install_command

MATRIX = load_matrix()


def _spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec("name: p\n" + text, path=Path("project.yaml"))


def test_1_10_2_cp310_is_not_on_pypi_for_linux_64() -> None:
    spec = _spec('torch: "1.10.2"\npython: "3.10"\naccelerators: [cu102]\nplatforms: [linux-64]\n')
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(spec, MATRIX)
    assert info.value.message == (
        "project.yaml: python: torch 1.10.2 cu102 on linux-64 installs from PyPI, which has no "
        "cp310 wheel for linux-64 (PyPI's linux-64 wheels: python 3.6, 3.7, 3.8, 3.9)"
    )


def test_default_python_is_one_pypi_has() -> None:
    spec = _spec('torch: "1.10.2"\naccelerators: [cu102]\nplatforms: [linux-64]\n')
    (variant,) = expand(spec, MATRIX).variants
    assert variant.python == "3.9"
    # The PyTorch index's own builds are not PyPI's files: cu113 keeps the release's list.
    spec = _spec('torch: "1.10.2"\npython: "3.9"\naccelerators: [cu113]\nplatforms: [linux-64]\n')
    assert [v.python for v in expand(spec, MATRIX).variants] == ["3.9"]


def test_command_defaults_and_refuses_by_pypi_files() -> None:
    assert install_command(MATRIX, torch="1.10.2", compute="cu102").text == (
        "pip install torch==1.10.2 torchvision==0.11.3 torchaudio==0.10.2"
    )
    with pytest.raises(UnsupportedCombinationError, match="no cp310 wheel for linux-64"):
        install_command(MATRIX, torch="1.10.2", compute="cu102", python="3.10")


def test_default_python_is_one_the_companions_have_wheels_for() -> None:
    """torch 1.13.1 has a cp311 linux-64 wheel, torchvision 0.14.1 and torchaudio 0.13.1 stop
    at cp310 (companions.yaml's pypi-wheels): a spec with them defaults to 3.10, one without
    them keeps 3.11 (the papers suite's gain-lightning locked 3.11 and uv found no wheel)."""
    base = 'torch: "1.13.1"\naccelerators: [cpu]\nplatforms: [linux-64]\n'
    assert [v.python for v in expand(_spec(base), MATRIX).variants] == ["3.10"]
    alone = base + "torchvision: false\ntorchaudio: false\n"
    assert [v.python for v in expand(_spec(alone), MATRIX).variants] == ["3.11"]
    # a pure-Python companion fits any python
    row = MATRIX.companion("torchvision", "0.2.1")
    assert row is not None
    assert row.pure_python
    assert row.pypi_pythons("linux-64") is None
    assert MATRIX.companion("torchvision", "0.14.1").pypi_pythons("linux-64") == (  # type: ignore[union-attr]
        "3.7",
        "3.8",
        "3.9",
        "3.10",
    )
