"""The validated-matrix cache: a hit rebuilds the same frozen models without validating again."""

from __future__ import annotations

import marshal
import shutil
from pathlib import Path

import pytest

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model import matrix as m


def _fresh(directory: Path, cache_root: Path | None) -> m.Matrix:
    m._load_matrix_cached.cache_clear()
    return m.load_matrix(directory, cache_root=cache_root)


@pytest.fixture(autouse=True)
def _clear_memo() -> object:
    yield
    m._load_matrix_cached.cache_clear()


def test_a_cache_hit_equals_the_validated_matrix(tmp_path: Path) -> None:
    validated = _fresh(MATRICES_DIR, None)
    written = _fresh(MATRICES_DIR, tmp_path)
    (cache,) = (tmp_path / "matrix").glob("*.marshal")
    hit = _fresh(MATRICES_DIR, tmp_path)
    assert written == validated == hit
    assert repr(hit) == repr(validated)
    assert isinstance(hit.releases, tuple)
    assert isinstance(hit.extensions[0].builds[0].torch, tuple)
    assert isinstance(hit.releases[0].python, tuple)
    assert hit.release_of("1.10") is not None
    assert m.check_invariants(hit) == []
    assert cache.stat().st_size > 0


def test_a_damaged_cache_is_validated_again(tmp_path: Path) -> None:
    _fresh(MATRICES_DIR, tmp_path)
    (cache,) = (tmp_path / "matrix").glob("*.marshal")
    for damaged in (
        b"{",
        b"",
        marshal.dumps({"releases": []}),
        marshal.dumps({"releases": 1}),
        marshal.dumps([]),
        cache.read_bytes()[:-100],
    ):
        cache.write_bytes(damaged)
        assert _fresh(MATRICES_DIR, tmp_path) == _fresh(MATRICES_DIR, None)


def test_an_invalid_matrix_is_never_cached(tmp_path: Path) -> None:
    broken = tmp_path / "matrices"
    shutil.copytree(MATRICES_DIR, broken)
    releases = broken / "releases.yaml"
    releases.write_text(releases.read_text(encoding="utf-8") + "- {torch: nope}\n", "utf-8")
    with pytest.raises(MatrixError):
        _fresh(broken, tmp_path / "cache")
    assert not list((tmp_path / "cache").rglob("*.marshal"))


def test_a_link_in_the_caches_place_is_not_followed(tmp_path: Path) -> None:
    """Rows are rebuilt from the cache without validation, so a planted link to a forged file
    (here: another torchvision for the first release) is a miss, not a source of rows."""
    _fresh(MATRICES_DIR, tmp_path)
    (cache,) = (tmp_path / "matrix").glob("*.marshal")
    forged = tmp_path / "forged.marshal"
    data = marshal.loads(cache.read_bytes())  # noqa: S302 - the cache the test just wrote
    first = _fresh(MATRICES_DIR, None).releases[0]
    assert first.torchvision is not None
    data["releases"][0]["torchvision"] = "99.9.9"
    forged.write_bytes(marshal.dumps(data))
    cache.unlink()
    cache.symlink_to(forged)
    assert _fresh(MATRICES_DIR, tmp_path) == _fresh(MATRICES_DIR, None)
    assert not cache.is_symlink()  # the miss wrote the validated matrix in its place
