"""Python patch releases: `python: "3.6.12"` is accepted, "3.6" resolves as 3.6.15 (issue 29 item 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.lock.pip import target_environment
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.plan import describe


def variant(python: str) -> Variant:
    spec = parse_spec(
        f'name: p\npython: "{python}"\ntorch: "1.10.0"\naccelerators: [cu102]\nmanagers: [pip]\n',
        path=Path("project.yaml"),
    )
    (found,) = expand(spec, load_matrix()).variants
    return found


def test_a_patch_release_is_accepted_and_resolved_for() -> None:
    v = variant("3.6.12")
    assert (v.python, v.python_patch, v.resolution_python) == ("3.6", "3.6.12", "3.6.12")
    assert target_environment(v)["python_full_version"] == "3.6.12"
    assert v.summary()["python_patch"] == "3.6.12"
    # the full lock's header records the patch; the pins-only files keep the minor
    assert (
        describe(v, resolved=True)
        == "variant: cu102 (torch 1.10.0, cu102, python 3.6.12, linux-64)"
    )
    assert describe(v) == "variant: cu102 (torch 1.10.0, cu102, python 3.6, linux-64)"


def test_a_closed_minor_resolves_as_its_last_patch() -> None:
    v = variant("3.6")
    assert (v.python_patch, v.resolution_python) == (None, "3.6.15")
    assert target_environment(v)["python_full_version"] == "3.6.15"
    assert "python_patch" not in v.summary()


def test_a_patch_of_an_unpublished_minor_is_refused_like_the_minor() -> None:
    spec = parse_spec(
        'name: p\npython: "3.5.10"\ntorch: "1.10.0"\naccelerators: [cu102]\nmanagers: [pip]\n',
        path=Path("project.yaml"),
    )
    with pytest.raises(UnsupportedCombinationError, match=r"supports python 3\.6-3\.9, not 3\.5"):
        expand(spec, load_matrix())
