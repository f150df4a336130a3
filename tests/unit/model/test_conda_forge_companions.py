"""conda-forge torchvision / torchaudio on their own feedstocks' facts (issue 23 item 2): a
companion whose feedstock never built the variant's python is left out of environment.yml with a
warning, never written into an environment that cannot solve."""

from __future__ import annotations

from pathlib import Path

from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.render.environment import render_environment
from envgen.render.header import Header

MATRIX = load_matrix()
HEADER = Header(command="envgen lock", input_hash="x", description="d")


def _variants(python: str, extra: str = "") -> list:  # type: ignore[type-arg]
    spec = parse_spec(
        f'name: p\ntorch: "2.6.0"\npython: "{python}"\naccelerators: [cpu]\n'
        f"platforms: [linux-64]\nmanagers: [conda]\n{extra}",
        path=Path("project.yaml"),
    )
    return list(expand(spec, MATRIX).variants)


def test_rows_carry_the_companion_feedstocks_pythons() -> None:
    # torchaudio-feedstock built 2.6.0 for python 3.10-3.12; pytorch-cpu-feedstock for 3.9-3.13.
    (row,) = [b for b in MATRIX.conda_builds("2.6.0", "linux-64", "conda-forge") if b.kind == "cpu"]
    assert row.python == ("3.9", "3.10", "3.11", "3.12", "3.13")
    assert row.torchaudio_python == ("3.10", "3.11", "3.12")
    assert row.torchvision_python is None  # it built every one of them


def test_companion_left_out_for_a_python_its_feedstock_never_built() -> None:
    (variant,) = _variants("3.13")
    assert variant.conda is not None
    assert (variant.conda.torchvision, variant.conda.torchaudio) == ("0.21.0", None)
    assert any(
        "conda-forge has no torchaudio 2.6.0 build for python 3.13" in w for w in variant.warnings
    )
    text = render_environment(variant, header=HEADER)
    assert "torchvision" in text
    assert "torchaudio" not in text


def test_companion_kept_where_its_feedstock_built_the_python() -> None:
    (variant,) = _variants("3.12")
    assert variant.conda is not None
    assert variant.conda.torchaudio == "2.6.0"
    assert not any("torchaudio" in w for w in variant.warnings)
    assert "torchaudio" in render_environment(variant, header=HEADER)


def test_no_warning_for_a_companion_the_spec_does_not_want() -> None:
    (variant,) = _variants("3.13", "torchaudio: false\n")
    assert not any("torchaudio" in w for w in variant.warnings)
