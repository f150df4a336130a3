"""Property-based tests: the spec parser and the version paths never fail with a stray exception.

`parse_spec` takes arbitrary bytes, text and YAML dumps of arbitrary key/value structures and
must either return a ProjectSpec or raise SpecError. `resolve_release` takes arbitrary
specifier-like strings against the real matrix and must return a Release or raise
UnsupportedCombinationError. Anything else (a KeyError, an IndexError, an InvalidVersion from
packaging) would reach the user as a traceback.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from pathlib import Path
from typing import Final

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envgen.errors import SpecError, UnsupportedCombinationError
from envgen.infra.urls import check_index_url
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import ProjectSpec, parse_spec
from envgen.model.spec_rules import KNOWN_KEYS
from envgen.model.variants import resolve_release

PATH: Final = Path("project.yaml")
FAST: Final = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
MATRIX: Final[Matrix] = load_matrix(None)

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["cpu", "cu118", "all", "3.10", "2.1.0", ">=2.1,<2.3", "latest", "linux-64"]),
    st.dates(min_value=dt.date(1, 1, 1)),
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
_keys = st.one_of(st.sampled_from(KNOWN_KEYS), st.text(max_size=12))


def _parse(raw: bytes | str) -> ProjectSpec | None:
    try:
        return parse_spec(raw, path=PATH)
    except SpecError as exc:
        message = str(exc)
    assert message  # a message, never empty
    return None


@FAST
@given(st.binary(max_size=400))
def test_arbitrary_bytes(raw: bytes) -> None:
    _parse(raw)


@FAST
@given(
    st.text(
        alphabet=st.sampled_from(list("abc:-[]{}!&*#'\"\n\t ,.?|>%@`0123456789\ufeff")),
        max_size=200,
    )
)
def test_yaml_ish_text(text: str) -> None:
    _parse(text)


@FAST
@given(st.dictionaries(_keys, _values, max_size=8))
@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_structured_specs(data: dict[str, object]) -> None:
    _parse(yaml.safe_dump(data, allow_unicode=True))


@FAST
@given(
    st.fixed_dictionaries(
        {"name": st.just("p"), "torch": st.sampled_from(["2.1.0", "latest", ">=2.0"])},
        optional={k: _values for k in KNOWN_KEYS if k not in {"name", "torch"}},
    )
)
def test_nearly_valid_specs(data: dict[str, object]) -> None:
    """One bad value among good ones: still only SpecError (or a valid spec)."""
    spec = _parse(yaml.safe_dump(data))
    if spec is not None:
        assert spec.name == "p"


_specifier_text = st.one_of(
    st.text(max_size=20),
    st.builds(
        lambda ops, vs: ",".join(o + v for o, v in zip(ops, vs, strict=False)),
        st.lists(
            st.sampled_from(["", "==", ">=", "<=", "<", ">", "~=", "!=", "===", " "]),
            min_size=1,
            max_size=3,
        ),
        st.lists(
            st.from_regex(
                r"\A(v?\d{1,3}(\.\d{1,3}){0,3}(\.\*|[ab]\d|\.post\d|\+cu\d+)?|[a-z]*)\Z",
                fullmatch=True,
            ),
            min_size=1,
            max_size=3,
        ),
    ),
)


@FAST
@given(_specifier_text)
def test_resolve_release_only_raises_unsupported(text: str) -> None:
    try:
        release = resolve_release(text, MATRIX)
    except UnsupportedCombinationError as exc:
        message = str(exc)
    else:
        assert release in MATRIX.releases
        return
    assert message.startswith("torch: ")


@FAST
@given(_specifier_text)
def test_spec_torch_key_then_release(text: str) -> None:
    """Whatever the spec parser accepts for `torch:`, resolve_release handles."""
    spec = _parse(yaml.safe_dump({"name": "p", "torch": text}))
    if spec is None:
        return
    with contextlib.suppress(UnsupportedCombinationError):
        resolve_release(spec.torch, MATRIX)


@FAST
@given(st.text(max_size=60) | st.from_regex(r"\A(https?|file|ftp)://[^\s]{0,30}\Z", fullmatch=True))
def test_check_index_url_never_raises(url: str) -> None:
    for trusted in (False, True):
        problem = check_index_url(url, trusted=trusted)
        assert problem is None or isinstance(problem, str)
