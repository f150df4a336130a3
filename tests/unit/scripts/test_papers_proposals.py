"""The papers suite takes envgen's own proposals as a researcher would (tests/support/papers.py):
a did-you-mean name, a dependency to add, a replacement from a lock warning, a project the index
no longer has dropped where the paper's code does not import it; each noted."""

from __future__ import annotations

import subprocess  # noqa: TID251 - CompletedProcess records only: no process is started
from pathlib import Path

import pytest
import yaml

from tests.support.papers import (
    PaperResult,
    _take_additions,
    _take_drops,
    _take_names,
    _take_replacements,
    entries,
)


def _spec(tmp_path: Path, pip: list[str]) -> Path:
    spec = tmp_path / "project.yaml"
    spec.write_text(yaml.safe_dump({"name": "p", "torch": "1.12.1", "pip": pip}), encoding="utf-8")
    return spec


def _said(stderr: str, code: int) -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["envgen", "lock"], code, "", stderr)


def _pip(spec: Path) -> list[str]:
    return list(yaml.safe_load(spec.read_text(encoding="utf-8"))["pip"])


def test_a_did_you_mean_name_is_taken_and_noted(tmp_path: Path) -> None:
    spec = _spec(tmp_path, ["genism", "tqdm", "GPUtil"])
    result = PaperResult(id="t", source="s")
    said = _said(
        "error: cu102: uv could not lock the pip side\n  hint: genism is not a project on "
        "https://pypi.org/simple; did you mean gensim? (the nearest of the most downloaded PyPI "
        "projects, matrices/pypi-top-names.txt; not applied: ...)\n",
        6,
    )
    assert _take_names(result, spec, said)
    assert _pip(spec) == ["gensim", "tqdm", "GPUtil"]
    assert result.notes == [
        "genism -> gensim: envgen's lock hint proposed it (genism is not a project on PyPI; did "
        "you mean gensim?) (a substitution: not the paper's own name)"
    ]
    assert not _take_names(result, spec, _said("error: something else", 6))


def test_an_undeclared_dependency_is_added_once(tmp_path: Path) -> None:
    spec = _spec(tmp_path, ["keras==2.7.0"])
    result = PaperResult(id="t", source="s")
    warning = (  # a log line: envgen prints the locker's warnings as they are
        "cu102: keras 2.7.0 imports tensorflow but does not declare it, and the lock "
        "has no tensorflow: `import keras` will fail (matrices/package-issues.yaml); add "
        "tensorflow==2.7.* to pip:\n"
    )
    assert _take_additions(result, spec, _said(warning, 0))
    assert _pip(spec) == ["keras==2.7.0", "tensorflow==2.7.*"]
    assert result.notes[0].startswith(
        "+ tensorflow==2.7.*: envgen's lock warning proposed it (cu102: keras 2.7.0 imports "
    )
    assert not _take_additions(result, spec, _said(warning, 0))  # already there


def test_an_unpinned_addition_is_taken_and_prose_is_not(tmp_path: Path) -> None:
    spec = _spec(tmp_path, ["ipykernel==5.1.3.*"])
    result = PaperResult(id="t", source="s")
    warning = (
        "cu102: ipykernel 5.1.3 imports ipython-genutils but does not declare it, and the lock "
        "has no ipython-genutils: `import ipykernel` will fail (matrices/package-issues.yaml); "
        "add ipython-genutils to pip:\n"
        "warning: requirements.txt:12: dropped 'x @ git+https://h/x': a direct URL cannot be "
        "locked reproducibly; add a released version to pip:\n"
    )
    assert _take_additions(result, spec, _said(warning, 0))
    assert _pip(spec) == ["ipykernel==5.1.3.*", "ipython-genutils"]


def test_a_replacement_from_a_lock_warning_is_taken(tmp_path: Path) -> None:
    spec = _spec(tmp_path, ["speechbrain==0.5.13", "torch==1.9.0"])
    result = PaperResult(id="t", source="s")
    said = _said(
        "cu102: speechbrain 0.5.13 needs torch>=1.10 when imported (more than its "
        "metadata declares), and the lock pins torch 1.9.0: `import speechbrain` will fail "
        "(matrices/package-issues.yaml); replace speechbrain==0.5.13 with speechbrain==0.5.11, "
        "the newest release before it that does not\ncu102: writing pylock.toml\ncu102: locked\n",
        0,
    )
    assert _take_replacements(result, spec, said)
    assert _pip(spec) == ["speechbrain==0.5.11", "torch==1.9.0"]
    (note,) = result.notes
    assert note.startswith(
        "speechbrain==0.5.13 -> speechbrain==0.5.11: envgen's lock hint proposed it (cu102: "
        "speechbrain 0.5.13 needs torch>=1.10"
    )
    assert "pylock" not in note  # one line of stderr, not the log after it


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_system_libraries_are_read_as_soname_package_pairs() -> None:
    (neurips,) = [e for e in entries() if e["id"] == "neurips2021"]
    assert neurips["system_libraries"] == (
        "libsndfile.so.1=libsndfile1 libopenblas.so.0=libopenblas0 libomp.so=libomp-14-dev"
    )


GONE = (
    "error: 1 of 1 variant(s) failed to lock\n  hint: values is not a project on "
    "https://pypi.org/simple, yet the file pins values==2019.4.13, a release its environment "
    "had, so the project no longer exists there (deleted by its owner) or came from elsewhere: "
    "drop values from pip: if the code does not import it, or serve it from a mirror that has it "
    "(pypi_index / ENVGEN_PYPI_INDEX, see docs/how-to/use-a-mirror.md)\n"
)


def test_a_project_the_index_lost_is_dropped_only_where_the_code_was_checked(
    tmp_path: Path,
) -> None:
    spec = _spec(tmp_path, ["direnv==2019.4.13", "Values==2019.4.13", "tqdm==4.31.1"])
    result = PaperResult(id="t", source="s")
    assert not _take_drops(result, spec, _said(GONE, 6), [])  # nobody checked the code
    assert not _take_drops(result, spec, _said(GONE, 6), ["direnv"])
    assert result.notes == []
    assert _take_drops(result, spec, _said(GONE, 6), ["env-file", "values"])
    assert _pip(spec) == ["direnv==2019.4.13", "tqdm==4.31.1"]
    (note,) = result.notes
    assert note == (
        "- Values==2019.4.13: envgen's lock hint proposed dropping it (values is not a project "
        "on https://pypi.org/simple, yet the file pins values==2019.4.13, a release its "
        "environment had, so the project no longer exists there (deleted by its owner) or came "
        "from elsewhere: drop values from pip: if the code does not import it, or serve it from "
        "a mirror that has it (pypi_index / ENVGEN_PYPI_INDEX, see docs/how-to/use-a-mirror.md)); "
        "the paper's code imports none of it (papers.yaml `unused:`) (a removal: not the "
        "paper's own file)"
    )
    assert not _take_drops(result, spec, _said(GONE, 6), ["values"])  # gone already


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_unused_projects_are_read_from_papers_yaml() -> None:
    (fcn,) = [e for e in entries() if e["id"] == "fcn-instances-pytorch"]
    assert fcn["unused"].split() == ["env-file", "values", "direnv", "ortools", "fvcore"]
