"""`torch_from: pypi`: PyPI's identical build for 1.8.1-1.13.1 cu102 / cu117 and 2.1.x cu121
(issue 29 item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import load_matrix
from envgen.model.pypi_routes import load_routes
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls
from envgen.render.plan import describe
from envgen.render.requirements import index_lines, requirement_lines


def variant(torch: str, acc: str, torch_from: str | None = "pypi") -> Variant:
    extra = f"torch_from: {torch_from}\n" if torch_from else ""
    spec = parse_spec(
        f'name: p\npython: "3.8"\ntorch: "{torch}"\naccelerators: [{acc}]\nmanagers: [pip]\n'
        + extra,
        path=Path("project.yaml"),
    )
    (found,) = expand(spec, load_matrix()).variants
    return found


@pytest.mark.parametrize(
    ("torch", "acc", "pins"),
    [
        ("1.10.0", "cu102", ["torch==1.10.0", "torchaudio==0.10.0", "torchvision==0.11.1"]),
        ("1.13.1", "cu117", ["torch==1.13.1", "torchaudio==0.13.1", "torchvision==0.14.1"]),
        ("1.8.1", "cu102", ["torch==1.8.1", "torchaudio==0.8.1", "torchvision==0.9.1"]),
        # 2.1.x: the published default is cu121 on download.pytorch.org, PyPI's wheel is that build
        ("2.1.0", "cu121", ["torch==2.1.0", "torchaudio==2.1.0", "torchvision==0.16.0"]),
    ],
)
def test_the_pypi_route_pins_the_plain_versions_from_pypi(
    torch: str, acc: str, pins: list[str]
) -> None:
    v = variant(torch, acc)
    assert v.pip is not None
    assert v.pip.index == "pypi"
    assert sorted(requirement_lines(v, IndexUrls())) == pins
    assert index_lines(v, IndexUrls()) == []
    label = f"{torch}+{acc}"
    assert v.pypi_route == label
    assert describe(v, resolved=True) == (
        f"variant: {acc} (torch {torch} from PyPI, the build of {label}, {acc}, "
        "python 3.8.20, linux-64)"
    )
    assert v.summary()["pypi_route"] == label


def test_the_published_route_stays_the_default() -> None:
    v = variant("1.10.0", "cu102", torch_from=None)
    assert v.pip is not None
    assert v.pip.torch == "1.10.0+cu102"
    assert v.pypi_route is None
    assert "pypi_route" not in v.summary()


def test_a_build_pypi_never_had_stays_published_and_says_so() -> None:
    v = variant("1.10.0", "cu113")
    assert v.pip is not None
    assert v.pip.torch == "1.10.0+cu113"
    assert (
        "torch_from: pypi: PyPI has no identical build of torch 1.10.0+cu113 (cu113, linux-64); "
        "it comes from https://download.pytorch.org/whl/cu113/torch_stable.html as published"
    ) in v.warnings


def test_every_route_replaces_a_published_default_row_of_the_matrix() -> None:
    matrix = load_matrix()
    for route in load_routes():
        rows = [
            b
            for b in matrix.pip_builds(route.release, "linux-64")
            if route.replaces in (b.torch, f"{b.torch}+{b.accelerator}")
        ]
        assert len(rows) == 1, route
        assert rows[0].pypi_default, route
        # the evidence is the PyPI wheel's own version.py naming the labelled build
        assert f"__version__='{route.replaces}'" in route.evidence
        assert f"cuda='{route.cuda}'" in route.evidence
