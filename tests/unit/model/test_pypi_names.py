"""Did-you-mean for a project the index does not have (envgen.model.pypi_names; issue 29: the
papers suite's triplet-embedding runs `pip install genism`), and what to do about one that is no
typo (fcn-instances-pytorch's pip freeze pins env-file and values, deleted from PyPI since)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envgen.errors import MatrixError
from envgen.model.pypi_names import (
    TABLE,
    distance,
    load_names,
    missing_projects,
    nearest_name,
    needed_by,
    suggest_hint,
)

# the real uv's words (uv 0.13.9, `uv pip compile` of `genism` against PyPI, 2026-12-05)
UV_SAID = (
    "  x No solution found when resolving dependencies:\n"
    "  `-> Because genism was not found in the package registry and you require genism, we can "
    "conclude that your requirements are unsatisfiable.\n"
)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("genism", "gensim", 1),  # an adjacent swap is one edit
        ("numpi", "numpy", 1),  # a substitution
        ("torchvison", "torchvision", 1),  # a deletion
        ("reqests", "requests", 1),
        ("tensorflw", "tensorflow", 1),
        ("scikitlearn", "scikit-learn", 1),
        ("pandsa", "pandas", 1),
        ("matplotlb", "matplotlib", 1),
        ("abcd", "dcba", 3),  # more than the limit: limit + 1
        ("same", "same", 0),
    ],
)
def test_distance_counts_an_adjacent_swap_as_one_edit(a: str, b: str, expected: int) -> None:
    assert distance(a, b, 2) == min(expected, 3)


def test_distance_stops_at_the_limit() -> None:
    assert distance("a" * 10, "b" * 10, 2) == 3
    assert distance("short", "much-longer-name", 2) == 3


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("genism", "gensim"),
        ("numpi", "numpy"),
        ("torchvison", "torchvision"),
        ("tensorflw", "tensorflow"),
        ("opencvpython", "opencv-python"),  # separators ignored: one name
        ("Scikit_Learnn", "scikit-learn"),  # case and separators normalized first
        ("tqmd", "tqdm"),
    ],
)
def test_the_nearest_popular_project_is_proposed(typed: str, meant: str) -> None:
    assert nearest_name(typed) == meant


def test_nothing_is_proposed_for_an_existing_or_a_far_name() -> None:
    assert nearest_name("gensim") is None  # it exists: not a typo
    assert nearest_name("zzzzqqqq") is None
    # a name of 4 characters or fewer allows one edit only: "qyzz" is two from "qxzv"
    assert nearest_name("qxzv", ("qxzz", "abcd")) == "qxzz"
    assert nearest_name("qxzv", ("qyzz",)) is None
    assert nearest_name("qxzvw", ("qyzzw",)) == "qyzzw"  # five characters: two edits


def test_among_equally_near_names_the_most_downloaded_wins() -> None:
    # both one edit away: the table's order (most downloaded first) decides
    assert nearest_name("toolz2", ("toolz1", "toolz3")) == "toolz1"
    assert nearest_name("toolz2", ("toolz3", "toolz1")) == "toolz3"
    # a nearer name beats a more downloaded one
    assert nearest_name("toolz2", ("tools22", "toolz2x")) == "toolz2x"


def test_missing_projects_reads_uvs_words() -> None:
    assert missing_projects(UV_SAID) == ["genism"]
    assert missing_projects(UV_SAID + UV_SAID.replace("genism", "numpi")) == ["genism", "numpi"]
    assert missing_projects("there is no version of tb-nightly==2.3.0a20200620") == []


def test_the_hint_names_the_nearest_and_is_never_applied() -> None:
    hint = suggest_hint(UV_SAID, "https://pypi.org/simple")
    assert hint == (
        "genism is not a project on https://pypi.org/simple; did you mean gensim? (the nearest "
        "of the most downloaded PyPI projects, matrices/pypi-top-names.txt; not applied: check "
        "that it is the package the paper meant, a near name can be a typosquat)"
    )
    assert suggest_hint("error: something else", "x") is None


# the real uv's words (uv 0.13.9, `uv pip compile` against PyPI, 2026-12-05): a pinned project PyPI
# has no more, and a published release that requires one
UV_PINNED = (
    "  cause: Because values was not found in the package registry and you require "
    "values==2019.4.13, we can conclude that your requirements are unsatisfiable.\n"
)
UV_DEPENDENCY = (
    "  cause: Because env-file was not found in the package registry and direnv>=2019.4.13 "
    "depends on env-file, we can conclude that direnv>=2019.4.13 cannot be used.\n"
    "         And because you require direnv==2019.4.13, we can conclude that your requirements "
    "are unsatisfiable.\n"
)
SERVE = (
    "from a mirror that has it (pypi_index / ENVGEN_PYPI_INDEX, see docs/how-to/use-a-mirror.md)"
)


def test_who_needs_a_missing_project_is_read_from_uvs_derivation() -> None:
    assert needed_by(UV_PINNED, "values") == (None, "2019.4.13")
    assert needed_by(UV_PINNED.replace("you require", "envgen-lock depends on"), "values") == (
        None,
        "2019.4.13",
    )
    assert needed_by(UV_DEPENDENCY, "env-file") == ("direnv", None)
    assert needed_by(UV_SAID, "genism") == (None, None)  # unpinned, the project's own
    assert needed_by(UV_DEPENDENCY, "values") == (None, None)  # uv said nothing of it


def test_a_pinned_project_the_index_lost_gets_drop_or_serve_and_no_near_name() -> None:
    # "values" is two edits from "valkey": a near name, but a pin names an installed release
    hint = suggest_hint(UV_PINNED, "https://pypi.org/simple")
    assert hint == (
        "values is not a project on https://pypi.org/simple, yet the file pins "
        "values==2019.4.13, a release its environment had, so the project no longer exists there "
        "(deleted by its owner) or came from elsewhere: drop values from pip: if the code "
        f"does not import it, or serve it {SERVE}"
    )


def test_a_dependency_the_index_lost_names_the_pin_to_drop() -> None:
    assert suggest_hint(UV_DEPENDENCY, "https://pypi.org/simple") == (
        "direnv depends on env-file, which is not a project on https://pypi.org/simple any more "
        "(a direnv release was published there requiring it, so env-file was deleted since): drop "
        f"direnv from pip: if the code does not import it, or serve env-file {SERVE}"
    )


def test_an_unpinned_name_with_no_near_one_is_said_plainly() -> None:
    assert suggest_hint(UV_SAID.replace("genism", "zzzzqqqq"), "x") == (
        "zzzzqqqq is not a project on x (deleted, or never published there): drop zzzzqqqq from "
        f"pip: if the code does not import it, or serve it {SERVE}"
    )


def test_the_table_names_its_source_and_holds_unique_names() -> None:
    head = [ln for ln in TABLE.read_text(encoding="utf-8").splitlines() if ln.startswith("#")]
    assert any(re.search(r"github\.com/hugovk/top-pypi-packages@[0-9a-f]{40}:", ln) for ln in head)
    assert any("last_update 20" in ln for ln in head)
    names = load_names()
    assert 1000 <= len(names) <= 10000  # small: names only
    assert len({n.lower() for n in names}) == len(names)
    assert {"gensim", "numpy", "torch", "tensorflow"} <= set(names)


def test_a_broken_table_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "names.txt"
    bad.write_text("# header\nnumpy\nnot a name\n", encoding="utf-8")
    with pytest.raises(MatrixError, match=r"names\.txt: not project names: not a name"):
        load_names(bad)
    with pytest.raises(MatrixError, match="cannot read the PyPI name table"):
        load_names(tmp_path / "missing.txt")
