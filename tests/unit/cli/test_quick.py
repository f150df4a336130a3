"""envgen.cli.quick: the commands it takes print what click's commands print, byte for byte."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envgen.cli import console, quick
from envgen.cli.commands import main

ROOT = Path(__file__).parents[3]
DATA = ROOT / "tests" / "data"


def _outcome(
    fast: bool, args: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    if fast:
        code = quick.run(args)
        assert code is not None, args  # the fast path took it
    else:
        with pytest.raises(SystemExit) as exc:
            main(args, fast=False)
        assert isinstance(exc.value.code, int)
        code = exc.value.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bundled example with its committed files, one of them edited (a stale check)."""
    shutil.copy(ROOT / "project.yaml", tmp_path / "project.yaml")
    shutil.copytree(ROOT / "environments", tmp_path / "environments")
    shutil.copy(ROOT / "examples" / "paper-2021" / "environment.yml", tmp_path / "environment.yml")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


CASES = [
    ["list"],
    ["list", "project.yaml"],
    ["list", "missing.yaml"],
    ["check", "--pins-only"],
    ["check", "--pins-only", "project.yaml"],
    ["lock", "--pins-only", "project.yaml"],
    ["lock", "missing.yaml"],  # a full lock: the same error before any resolver runs
    ["import", "environment.yml", "-o", "imported.yaml"],
    ["import", "missing.yml"],
]


@pytest.mark.parametrize("args", CASES, ids=" ".join)
def test_the_fast_path_prints_what_click_prints(
    project: Path, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    click_run = _outcome(False, args, capsys)
    shutil.rmtree(project / "imported.yaml", ignore_errors=True)
    (project / "imported.yaml").unlink(missing_ok=True)
    assert _outcome(True, args, capsys) == click_run


def test_a_stale_file_and_a_bad_setting_fail_the_same_way(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = project / "environments" / "cpu" / "requirements.in"
    target.write_text(target.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    stale = _outcome(False, ["check", "--pins-only"], capsys)
    assert stale[0] == 9
    assert _outcome(True, ["check", "--pins-only"], capsys) == stale
    monkeypatch.setenv("ENVGEN_HTTP_TIMEOUT", "soon")
    bad = _outcome(False, ["list"], capsys)
    assert bad[0] == 3
    assert _outcome(True, ["list"], capsys) == bad


def test_the_spec_is_found_upward_from_a_subfolder(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(project / "sub")
    click_run = _outcome(False, ["list"], capsys)
    assert click_run[0] == 0
    assert _outcome(True, ["list"], capsys) == click_run


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["list", "--json"],
        ["-q", "list"],
        ["list", "--help"],
        ["list", "a.yaml", "b.yaml"],
        ["list", "sub"],  # a folder: click's usage error
        ["lock", "--upgrade"],
        ["lock", "sub"],  # a folder: click's usage error
        ["lock", "--pins-only", "--pins-only"],
        ["lock", "--pins-only", "--check"],
        ["check", "--pins-only", "--variant", "cpu"],
        ["import", "sub"],  # a repository folder
        ["import", "environment.yml", "--offline"],
        ["import", "environment.yml", "-o", "sub"],
        ["build", "--pins-only"],
    ],
    ids=lambda a: " ".join(a) or "(none)",
)
@pytest.mark.usefixtures("project")
def test_other_command_lines_are_left_to_click(args: list[str]) -> None:
    assert quick._shape(args) is None


@pytest.mark.usefixtures("project")
def test_a_plain_full_lock_takes_the_fast_path() -> None:
    """`envgen lock [SPEC]` with no option: no click before the first uv call (issue 27)."""
    assert quick._shape(["lock"]) == ("lock-full", [])
    assert quick._shape(["lock", "project.yaml"]) == ("lock-full", ["project.yaml"])


def test_the_colour_prefixes_are_clicks_own() -> None:
    import click

    for word, colour in (("warning:", "yellow"), ("error:", "red")):
        assert f"{console._STYLE[colour]}{word}{console._RESET}" == click.style(
            word, fg=colour, bold=True
        )


@pytest.mark.usefixtures("project")
def test_a_closed_pipe_ends_quietly_with_exit_1_as_click_ends_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`envgen list | head -0`: click exits 1 with no message and silences later flushes."""
    import errno
    import sys

    def closed(_line: str) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(sys, "stdout", sys.stdout)  # restored after the wrap
    monkeypatch.setattr(sys, "stderr", sys.stderr)
    monkeypatch.setattr(console, "out", closed)
    assert quick.run(["list"]) == 1
    assert capsys.readouterr() == ("", "")
    sys.stdout.flush()  # the wrapper passes a working flush through
