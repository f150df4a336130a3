"""The shipped validated matrix (matrices/validated.json): what the committed YAML validates to
now, taken on a cache miss only for the bundled directory and only for the bytes it was made from.

The first test is the proof the run time relies on: the committed file is exactly what validating
the committed YAML with pydantic and the invariants gives (`make schema` rewrites it).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model import matrix as m


@pytest.fixture(autouse=True)
def _clear_memo() -> object:
    m._load_matrix_cached.cache_clear()
    yield
    m._load_matrix_cached.cache_clear()


def _validated(directory: Path) -> m.Matrix:
    return m._validate(directory, m._read_raw(directory))[0]


def test_the_shipped_file_is_what_the_yaml_validates_to() -> None:
    have = (MATRICES_DIR / m.SHIPPED_FILE).read_text(encoding="utf-8")
    assert have == m.shipped_matrix_text(), "matrices/validated.json is stale: run `make schema`"


def test_a_cold_cache_takes_the_shipped_form_without_validating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = _validated(MATRICES_DIR)

    def refuse(*_args: object) -> None:
        msg = "validated the bundled YAML although its shipped form matches"
        raise AssertionError(msg)

    monkeypatch.setattr(m, "_validate", refuse)
    loaded = m.load_matrix(None, cache_root=tmp_path)
    assert loaded == expected
    assert repr(loaded) == repr(expected)
    (cache,) = (tmp_path / "matrix").glob("*.marshal")  # and the cache is written from it
    m._load_matrix_cached.cache_clear()
    assert m.load_matrix(None, cache_root=tmp_path) == expected
    assert cache.stat().st_size > 0


def test_matrix_validate_never_takes_the_shipped_form(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []
    real = m._validate

    def spy(directory: Path, raw: dict[str, list[object]]) -> tuple[m.Matrix, dict[str, object]]:
        calls.append(directory)
        return real(directory, raw)

    monkeypatch.setattr(m, "_validate", spy)
    m.load_matrix(None, trust_shipped=False)
    assert calls == [MATRICES_DIR]


def _copy(tmp_path: Path) -> Path:
    copy = tmp_path / "matrices"
    shutil.copytree(MATRICES_DIR, copy)
    return copy


def _forge(directory: Path) -> None:
    """The shipped file's first release names another torchvision; its digest still matches."""
    path = directory / m.SHIPPED_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    data["matrix"]["releases"][0]["torchvision"] = "99.9.9"
    path.write_text(json.dumps(data), encoding="utf-8")


def test_another_directory_is_validated_even_with_a_matching_shipped_file(
    tmp_path: Path,
) -> None:
    """ENVGEN_MATRIX: a user's folder is validated in full, whatever file lies in it."""
    copy = _copy(tmp_path)
    _forge(copy)
    assert m._from_shipped(copy) is not None  # its digest matches: trusted only if bundled
    loaded = m.load_matrix(copy, cache_root=tmp_path / "cache")
    assert loaded.releases[0].torchvision != "99.9.9"
    assert loaded == _validated(MATRICES_DIR)


def test_a_shipped_file_made_from_other_yaml_is_not_taken(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    assert m._from_shipped(copy) is not None
    drivers = copy / "drivers.yaml"
    drivers.write_text(drivers.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert m._from_shipped(copy) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d.pop("sha256"),
        lambda d: d.update(format=m.SHIPPED_FORMAT + 1),
        lambda d: d["matrix"].pop("releases"),
        lambda d: d["matrix"].update(releases=[{"torch": "2.1.0"}]),
        lambda d: d.update(matrix=[]),
    ],
    ids=["no-digest", "other-format", "a-table-missing", "a-row-short", "not-a-table"],
)
def test_a_damaged_shipped_file_is_not_taken(tmp_path: Path, damage: object) -> None:
    copy = _copy(tmp_path)
    path = copy / m.SHIPPED_FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    damage(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert m._from_shipped(copy) is None


def test_no_shipped_file_or_not_json_is_not_taken(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    (copy / m.SHIPPED_FILE).write_text("{", encoding="utf-8")
    assert m._from_shipped(copy) is None
    (copy / m.SHIPPED_FILE).unlink()
    assert m._from_shipped(copy) is None


def test_generating_an_invalid_matrix_fails_as_loading_does(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    releases = copy / "releases.yaml"
    releases.write_text(releases.read_text(encoding="utf-8") + "- {torch: nope}\n", "utf-8")
    with pytest.raises(MatrixError, match=r"releases\.yaml"):
        m.shipped_matrix_text(copy)
