"""The spec parse cache: what YAML built from a project.yaml's bytes, kept after a clean parse."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envgen.errors import SpecError
from envgen.model import spec as s

ROOT = Path(__file__).parents[3]


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "project.yaml"
    shutil.copy(ROOT / "project.yaml", target)
    return target


def test_a_hit_is_the_spec_a_full_parse_reads(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    cache = tmp_path / "cache"
    full = s.load_spec(path)
    assert not (cache / "spec").exists()
    first = s.load_spec(path, cache_root=cache)
    (entry,) = (cache / "spec").glob("*.marshal")
    hit = s.load_spec(path, cache_root=cache)
    assert full == first == hit
    # The hit came from the entry: a damaged entry is a miss, parsed again and rewritten.
    entry.write_bytes(b"\x00garbage")
    assert s.load_spec(path, cache_root=cache) == full
    assert entry.read_bytes() != b"\x00garbage"


def test_problems_are_never_cached_and_keep_their_line_numbers(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    cache = tmp_path / "cache"
    path.write_text(path.read_text(encoding="utf-8") + "name: again\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SpecError, match=r"project.yaml:\d+: name: duplicate key"):
            s.load_spec(path, cache_root=cache)
    assert not list(cache.rglob("*.marshal"))


def test_cached_data_the_code_now_refuses_is_parsed_again_for_its_message(
    tmp_path: Path,
) -> None:
    """A hit is validated again; a problem sends it through the full parse (line numbers)."""
    path = _copy(tmp_path)
    cache = tmp_path / "cache"
    s.load_spec(path, cache_root=cache)
    (entry,) = (cache / "spec").glob("*.marshal")
    import marshal

    data = marshal.loads(entry.read_bytes())  # noqa: S302 - the entry this test wrote
    data["name"] = "two\nlines"  # refused: a line break
    entry.write_bytes(marshal.dumps(data))
    assert s.load_spec(path, cache_root=cache) == s.load_spec(path)


def test_a_link_in_the_entrys_place_is_not_followed(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    cache = tmp_path / "cache"
    s.load_spec(path, cache_root=cache)
    (entry,) = (cache / "spec").glob("*.marshal")
    import marshal

    data = marshal.loads(entry.read_bytes())  # noqa: S302 - the entry this test wrote
    data["name"] = "forged"
    forged = tmp_path / "forged.marshal"
    forged.write_bytes(marshal.dumps(data))
    entry.unlink()
    entry.symlink_to(forged)
    assert s.load_spec(path, cache_root=cache).name == s.load_spec(path).name != "forged"


def test_data_marshal_cannot_write_is_parsed_every_time(tmp_path: Path) -> None:
    """A YAML date (lock.exclude_newer unquoted) is no plain data: no entry, the same spec."""
    path = tmp_path / "project.yaml"
    text = (ROOT / "project.yaml").read_text(encoding="utf-8")
    assert 'lock: {exclude_newer: "2026-12-01"}' in text
    path.write_text(text.replace('"2026-12-01"', "2026-12-01"), encoding="utf-8")
    cache = tmp_path / "cache"
    try:
        want: object = s.load_spec(path)
    except SpecError as exc:
        want = str(exc)
    for _ in range(2):
        try:
            got: object = s.load_spec(path, cache_root=cache)
        except SpecError as exc:
            got = str(exc)
        assert got == want
    assert not list(cache.rglob("*.marshal"))
