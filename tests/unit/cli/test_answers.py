"""envgen.cli.answers: a kept answer prints what its run printed, and only while nothing it read
changed (the spec, the matrix, the committed files, a folder's names, the environment)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envgen.cli import answers, quick
from envgen.infra.settings import Settings, default_cache_root

ROOT = Path(__file__).parents[3]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bundled example with its committed files. The files were copied just now, which the
    racy rule (answers.RACY_NS) would refuse to record: the window is closed for these tests but
    the one that checks it."""
    shutil.copy(ROOT / "project.yaml", tmp_path / "project.yaml")
    shutil.copytree(ROOT / "environments", tmp_path / "environments")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("CI", "1")
    monkeypatch.setattr(answers, "RACY_NS", 0)
    quick.run(["lock", "--pins-only"])  # fills the caches: a run that writes them is not kept
    return tmp_path


def _recorded(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = quick.run(args, record=True)
    assert code is not None, args  # the fast path took it
    out, err = capsys.readouterr()
    return code, out, err


def _replayed(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[bool, str, str]:
    hit = answers.replay(args)
    out, err = capsys.readouterr()
    return hit, out, err


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["list", "project.yaml"],
        ["check", "--pins-only"],
        ["check", "--pins-only", "project.yaml"],
        ["lock", "--pins-only", "project.yaml"],
    ],
    ids=" ".join,
)
@pytest.mark.usefixtures("project")
def test_a_replay_prints_what_the_run_printed(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert _replayed(args, capsys) == (False, "", "")  # nothing kept yet
    code, out, err = _recorded(args, capsys)
    assert code == 0
    assert out or err  # the run printed something to compare
    assert _replayed(args, capsys) == (True, out, err)
    assert _replayed(args, capsys) == (True, out, err)  # a replay changes nothing


@pytest.mark.usefixtures("project")
def test_the_streams_are_kept_in_the_order_written(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    recorder = answers.Recorder(["check", "--pins-only"])
    with recorder:
        quick.run(["check", "--pins-only"])
    out, err = capsys.readouterr()
    answer = recorder.answer()
    assert answer is not None
    chunks = answer["output"]
    assert isinstance(chunks, tuple)
    assert "".join(text for fd, text in chunks if fd == 1) == out
    assert "".join(text for fd, text in chunks if fd == 2) == err
    assert err.splitlines()[0].startswith("cpu: full lock kept")  # the lines in their order
    assert err.splitlines()[-1] == "4 file(s) in environments are up to date"


def _edit_spec(project: Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    spec = project / "project.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("cu126, ", ""), encoding="utf-8")


def _edit_committed_file(project: Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    target = project / "environments" / "cpu" / "requirements.in"
    target.write_text(target.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")


def _remove_committed_file(project: Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "environments" / "cpu" / "requirements.in").unlink()


def _add_folder(project: Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "environments" / "old" / ".env").mkdir(parents=True)


def _set_variable(_project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVGEN_CUSTOM_COMMAND", "make refresh")


def _move(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project / "sub")


def _take_the_lock(project: Path, _monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "environments" / ".envgen.lock").write_text("1\n", encoding="utf-8")


CHANGES = [
    _edit_spec,
    _edit_committed_file,
    _remove_committed_file,
    _add_folder,
    _set_variable,
    _move,
    _take_the_lock,
]


@pytest.mark.parametrize("change", CHANGES, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("args", [["check", "--pins-only"], ["lock", "--pins-only"]], ids=" ".join)
def test_a_change_to_what_the_run_read_is_a_miss(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    change: object,
    args: list[str],
) -> None:
    assert _recorded(args, capsys)[0] == 0
    assert _replayed(args, capsys)[0]
    change(project, monkeypatch)  # type: ignore[operator]
    assert _replayed(args, capsys) == (False, "", "")


def test_a_changed_matrix_file_is_a_miss(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    matrix = project / "matrix"
    shutil.copytree(ROOT / "matrices", matrix)
    monkeypatch.setenv("ENVGEN_MATRIX", str(matrix))
    code, out, err = _recorded(["list"], capsys)
    assert code == 0
    assert _replayed(["list"], capsys) == (True, out, err)
    releases = matrix / "releases.yaml"
    releases.write_text(releases.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert _replayed(["list"], capsys) == (False, "", "")


def test_the_code_that_answered_is_a_dependency(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorder = answers.Recorder(["list"])
    with recorder:
        quick.run(["list"])
    capsys.readouterr()
    answer = recorder.answer()
    assert answer is not None
    deps = {path for path, _follow, _stamp in answer["deps"]}  # type: ignore[attr-defined]
    for module in ("model/spec.py", "model/variants.py", "cli/quick.py"):
        assert str(ROOT / "envgen" / module) in deps
    assert str(project / "project.yaml") in deps


def test_runs_that_fail_write_or_race_are_not_kept(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _edit_committed_file(project, monkeypatch)
    assert _recorded(["check", "--pins-only"], capsys)[0] == 9  # stale
    assert not _replayed(["check", "--pins-only"], capsys)[0]
    assert _recorded(["list", "missing.yaml"], capsys)[0] == 3
    assert not _replayed(["list", "missing.yaml"], capsys)[0]
    (project / "environments" / "Makefile").unlink()
    code, _, err = _recorded(["lock", "--pins-only"], capsys)  # writes the Makefile again
    assert (code, err.splitlines()[-1]) == (0, "4 file(s), 1 changed, in environments")
    assert not _replayed(["lock", "--pins-only"], capsys)[0]
    assert _recorded(["lock", "--pins-only"], capsys)[0] == 0  # now it changes nothing
    assert _replayed(["lock", "--pins-only"], capsys)[0]
    monkeypatch.setattr(answers, "RACY_NS", 10**18)  # every file read counts as just changed
    assert _recorded(["list"], capsys)[0] == 0
    assert not _replayed(["list"], capsys)[0]


def test_only_the_plain_shapes_are_kept() -> None:
    assert answers.takes(["list"])
    assert answers.takes(["list", "p.yaml"])
    assert answers.takes(["check", "--pins-only", "p.yaml"])
    assert answers.takes(["lock", "--pins-only"])
    assert not answers.takes(["lock", "p.yaml"])  # a full lock resolves against an index
    assert not answers.takes(["check", "p.yaml"])
    assert not answers.takes(["list", "--json"])
    assert not answers.takes(["import", "environment.yml"])
    assert not answers.takes([])


@pytest.mark.parametrize(
    "environ", [{}, {"ENVGEN_CACHE_DIR": ""}, {"ENVGEN_CACHE_DIR": "/srv/cache"}]
)
def test_the_cache_root_is_the_settings_one(environ: dict[str, str]) -> None:
    assert Path(answers.cache_root(environ)) == Settings.from_environ(environ).cache_root
    assert answers.cache_root({}) == str(default_cache_root())


@pytest.mark.parametrize("effect", ["socket", "write", "process"])
def test_a_run_with_an_effect_keeps_no_answer(
    project: Path, capsys: pytest.CaptureFixture[str], effect: str
) -> None:
    import socket
    import sys

    recorder = answers.Recorder(["list"])
    with recorder:
        quick.run(["list"])
        if effect == "socket":
            socket.socket().close()  # no connection: the audit event alone
        elif effect == "write":
            (project / "note.txt").write_text("x", encoding="utf-8")
        else:  # the event Popen raises before it starts anything (no process in unit tests)
            sys.audit("subprocess.Popen", "true", ["true"], None, None)
    capsys.readouterr()
    assert recorder.spoiled is not None
    assert recorder.answer() is None
