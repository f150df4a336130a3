"""Causes of failure found by the papers suite (docs/papers.md, issue 29), each as a mechanism:
a companion release of another era that is pure Python (MeTAL: torchvision 0.2.1 beside torch
1.4.0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.model.matrix import load_matrix
from envgen.model.package_issues import explain
from envgen.model.spec import parse_spec
from envgen.model.variants import expand, nearest_pypi_release, pip_pins

MATRIX = load_matrix()


def _spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec("name: p\n" + text, path=Path("project.yaml"))


def test_pure_python_torchvision_of_another_release_is_accepted_with_a_warning() -> None:
    """torchvision 0.2.1's only file is a py2.py3-none-any wheel whose Requires-Dist names torch
    unpinned: nothing in it is compiled against torch, so torch 1.4.0 takes it (MeTAL's
    install.sh pins both); the warning says it is not the release's own."""
    spec = _spec(
        'torch: "1.4.0"\ntorchvision: "0.2.1"\npython: "3.7"\naccelerators: [cpu]\n'
        "platforms: [linux-64]\n"
    )
    (variant,) = expand(spec, MATRIX).variants
    assert ("torchvision", "0.2.1") in variant.companion_pins
    assert pip_pins(variant)["torchvision"] == "0.2.1"  # no +cpu: one wheel for every build
    (warning,) = [w for w in variant.warnings if "torchvision 0.2.1" in w]
    assert warning == (
        "torchvision 0.2.1 is not the release torch 1.4.0 was published with (torchvision "
        "0.5.0); it is used because its wheel is pure Python and names torch without a version "
        "(torchvision-0.2.1-py2.py3-none-any.whl): nothing in it is built against torch, but its "
        "code was written for torch 0.4.0, 0.4.1, 1.0.0"
    )


def test_compiled_torchvision_of_another_release_is_still_refused() -> None:
    """torchvision 0.4.2 has cpXY wheels pinned to torch 1.3.1: refused beside 1.4.0."""
    spec = _spec(
        'torch: "1.4.0"\ntorchvision: "0.4.2"\npython: "3.7"\naccelerators: [cpu]\n'
        "platforms: [linux-64]\n"
    )
    with pytest.raises(UnsupportedCombinationError, match=r"torchvision 0\.4\.2 belongs to torch"):
        expand(spec, MATRIX)


def test_a_release_that_never_reached_pypi_names_the_nearest_that_did() -> None:
    """torch 1.8.2 (LTS) was published on download.pytorch.org/whl/lts/1.8 only (releases.yaml:
    no pypi-wheels): `torch_from: pypi` keeps the published route and names 1.8.1, the nearest
    release PyPI has (Meta_Learning's init_setup_linux.sh)."""
    spec = _spec(
        'torch: "1.8.2"\npython: "3.7"\naccelerators: [cu102]\nplatforms: [linux-64]\n'
        "torch_from: pypi\n"
    )
    (variant,) = expand(spec, MATRIX).variants
    (note,) = [w for w in variant.warnings if w.startswith("torch_from: pypi")]
    assert note.endswith(
        "; torch 1.8.2 never reached PyPI: the nearest release PyPI has for linux-64 is 1.8.1 "
        '(torch: "1.8.1")'
    )
    assert nearest_pypi_release(MATRIX, "1.8.1", "linux-64") is None  # on PyPI itself
    assert nearest_pypi_release(MATRIX, "1.8.2", "linux-64").torch == "1.8.1"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("uv_said", "replacement"),
    [
        # uv 0.13.9's words in the papers suite (online-dt, exclude-newer 2021-06-14)
        (
            "Because gym==0.18.3 has invalid metadata and envgen-lock depends on gym==0.18.3, we "
            "can conclude that your requirements are unsatisfiable.",
            "replace gym==0.18.3 with gym==0.17.3",
        ),
        # and without an exclude-newer date (today's setuptools refuses the sdist)
        ("error: Failed to build `gym==0.21.0`\n  cause: The build backend", "with gym==0.22.0"),
    ],
)
def test_a_release_uv_cannot_install_gets_the_nearest_that_installs(
    uv_said: str, replacement: str
) -> None:
    """gym 0.18.0-0.21.0 name `opencv-python>=3.` (matrices/package-issues.yaml): the lock's
    hint says why and proposes the nearest release that installs (measured)."""
    hint = explain(uv_said)
    assert hint is not None
    assert "opencv-python>=3." in hint
    assert replacement in hint
    assert explain("Because gym==0.17.3 has invalid metadata") is None  # not in the table
    assert explain("Because numpy==1.19.5 has invalid metadata") is None


def test_default_python_avoids_a_python_a_known_issue_names() -> None:
    """torch 1.7.x on python 3.9 segfaults at exit after autograd (measured: the smoke script of
    gated-prompt-tuning, every run; known-issues.yaml): with no python named the default is 3.8;
    naming 3.9 keeps it, with the warning."""
    base = 'torch: "1.7.1"\naccelerators: [cpu]\nplatforms: [linux-64]\nmanagers: [pip]\n'
    assert [v.python for v in expand(_spec(base), MATRIX).variants] == ["3.8"]
    (variant,) = expand(_spec(base + 'python: "3.9"\n'), MATRIX).variants
    assert any("[torch-1.7-python-3.9-segfault-at-exit]" in w for w in variant.warnings)
    one_eight = 'torch: "1.8.1"\naccelerators: [cpu]\nplatforms: [linux-64]\nmanagers: [pip]\n'
    assert [v.python for v in expand(_spec(one_eight), MATRIX).variants] == ["3.9"]
