"""Page bugs as data (issue 23 item 3): the 1.8.1 sibling of the 1.9.x cudatoolkit=11.3 line
(a CUDA line on the previous-versions page whose build never existed, so conda installed a CPU
pytorch) stays printable with its trap, and the route that existed (cu111) is accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.render.commands import install_command

MATRIX = load_matrix()
PAGE = Path(__file__).parents[2] / "data" / "recorded" / "previous-versions.md"


def test_the_page_publishes_the_line() -> None:
    assert (
        "conda install pytorch==1.8.1 torchvision==0.9.1 torchaudio==0.8.1 cudatoolkit=11.3 "
        "-c pytorch -c conda-forge" in PAGE.read_text(encoding="utf-8")
    )


@pytest.mark.parametrize(("torch", "issue"), [("1.8.1", "conda-1.8.1"), ("1.9.1", "conda-1.9")])
def test_broken_line_printable_with_its_trap(torch: str, issue: str) -> None:
    cmd = install_command(MATRIX, torch=torch, compute="cu113", manager="conda")
    assert "cudatoolkit=11.3 -c pytorch -c conda-forge" in cmd.text
    broken = [w for w in cmd.warnings if w.startswith("known broken route")]
    assert [w.split("]")[0] for w in broken] == [
        f"known broken route [{issue}-cudatoolkit-11.3-never-built"
    ]


def test_route_that_existed_is_accepted() -> None:
    cmd = install_command(MATRIX, torch="1.8.1", compute="cu111", manager="conda")
    assert cmd.text == (
        "conda install pytorch==1.8.1 torchvision==0.9.1 torchaudio==0.8.1 cudatoolkit=11.1 "
        "-c pytorch -c conda-forge"
    )
    assert cmd.inferred
    assert not any("broken route" in w for w in cmd.warnings)
    spec = parse_spec(
        'name: p\ntorch: "1.8.1"\npython: "3.8"\naccelerators: [cu111]\nplatforms: [linux-64]\n'
        "managers: [conda]\n",
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, MATRIX).variants
    assert variant.conda is not None
    assert variant.conda.version == "11.1"


def test_conda_only_spec_on_the_broken_line_says_it_will_not_install() -> None:
    # As for the 1.9.x line: asked for explicitly, the files are written as published, and the
    # variant says why they will not give a CUDA build.
    spec = parse_spec(
        'name: p\ntorch: "1.8.1"\npython: "3.8"\naccelerators: [cu113]\nplatforms: [linux-64]\n'
        "managers: [conda]\n",
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, MATRIX).variants
    (warning,) = [w for w in variant.warnings if "conda-1.8.1-cudatoolkit-11.3" in w]
    assert warning.endswith("the files are written as published but will not install today")
