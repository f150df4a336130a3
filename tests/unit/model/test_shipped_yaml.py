"""The shipped YAML tables (matrices/shipped-yaml.json): what the committed YAML parses to now,
taken only for a bundled table and only for the bytes it was made from.

The first test is the proof the run time relies on: the committed file is exactly what parsing
the committed tables gives (`make schema` rewrites it).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envgen.infra.resources import MATRICES_DIR
from envgen.infra.safe_yaml import load_bounded
from envgen.model import shipped


def test_the_shipped_file_is_what_the_yaml_parses_to() -> None:
    have = (MATRICES_DIR / shipped.SHIPPED_YAML).read_text(encoding="utf-8")
    assert have == shipped.shipped_yaml_text(), (
        "matrices/shipped-yaml.json is stale: run `make schema`"
    )


@pytest.mark.parametrize("name", shipped.TABLES)
def test_a_bundled_table_is_read_from_its_shipped_form(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = MATRICES_DIR / name
    text = path.read_text(encoding="utf-8")
    found, data = shipped.data_for(path, text)
    assert found
    assert data == load_bounded(text)[1]  # PyYAML's own (pure-Python) reading of the same bytes

    def refuse(*_args: object, **_kwargs: object) -> None:
        msg = "parsed the YAML although its shipped form matches"
        raise AssertionError(msg)

    monkeypatch.setattr("envgen.infra.safe_yaml.load_bounded", refuse)
    assert shipped.load_table(path) == data


def test_other_bytes_or_another_directory_parse_the_yaml(tmp_path: Path) -> None:
    path = MATRICES_DIR / "targets.yaml"
    text = path.read_text(encoding="utf-8")
    assert shipped.data_for(path, text + "# edited\n") == (False, None)
    copy = tmp_path / "targets.yaml"
    shutil.copy(path, copy)
    shutil.copy(MATRICES_DIR / shipped.SHIPPED_YAML, tmp_path / shipped.SHIPPED_YAML)
    assert shipped.data_for(copy, text) == (False, None)  # a user's directory: never the twin
    assert shipped.data_for(MATRICES_DIR / "pip.yaml", "") == (False, None)  # not a table
    assert shipped.load_table(copy) == load_bounded(text)[1]


def test_a_table_that_json_would_change_is_refused(tmp_path: Path) -> None:
    for name in shipped.TABLES:
        shutil.copy(MATRICES_DIR / name, tmp_path / name)
    (tmp_path / "era.yaml").write_text("- {torch: 1.0.0, date: 2018-12-07}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"era\.yaml: its data does not survive JSON unchanged"):
        shipped.shipped_yaml_text(tmp_path)
