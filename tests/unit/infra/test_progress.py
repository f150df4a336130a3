"""Progress events (envgen.infra.progress), their plain-line display, and run/shell's SPEC word.

The uv lines are what uv 0.13.9 printed on a pipe for `uv pip sync` of numpy 2.2.6 with an empty
cache (astral-sh/uv#11165 added them: a download over 1 MiB is announced, then said done).
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from envgen.cli import console, run_cmd, shell_cmd
from envgen.cli import progress as display
from envgen.cli.options import split_spec
from envgen.infra import progress
from envgen.infra.proc import shown_command
from envgen.infra.progress import Event

UV_SYNC_NUMPY = """\
Using Python 3.11.7 environment at: v1
Resolved 1 package in 53ms
Downloading numpy (16.0MiB)
 Downloaded numpy
Prepared 1 package in 205ms
Installed 1 package in 22ms
 + numpy==2.2.6
"""


def _collect() -> tuple[list[Event], progress.Listener]:
    events: list[Event] = []
    return events, events.append


def test_uv_download_lines_become_byte_counts_then_installing() -> None:
    events, listener = _collect()
    with progress.listening(listener):
        reader = progress.uv_lines("cpu")
        assert reader is not None
        for line in UV_SYNC_NUMPY.splitlines():
            reader(line)
    mib16 = 16 * 1024 * 1024
    assert events == [
        Event(variant="cpu", kind="phase", phase="downloading"),
        Event(
            variant="cpu",
            kind="update",
            detail="numpy (16.0 MiB)",
            done=0,
            total=mib16,
            unit="bytes",
        ),
        Event(variant="cpu", kind="update", detail="numpy", done=mib16, total=mib16, unit="bytes"),
        Event(
            variant="cpu",
            kind="phase",
            phase="installing",
            detail="downloaded 1 large file(s), 16.0 MiB",
        ),
    ]


def test_uv_lines_of_several_files_count_each_as_it_finishes() -> None:
    events, listener = _collect()
    with progress.listening(listener):
        reader = progress.uv_lines("cu118")
        assert reader is not None
        for line in (
            "Downloading torch (176.4MiB)",
            "Downloading setuptools (1.2MiB)",
            " Downloaded setuptools",
            "   Building antlr4-python3-runtime==4.9.3",
            " Downloaded torch",
        ):
            reader(line)
    updates = [(e.done, e.total) for e in events if e.kind == "update" and e.unit == "bytes"]
    torch, tools = round(176.4 * 2**20), round(1.2 * 2**20)
    both = torch + tools
    assert updates == [(0, torch), (0, both), (tools, both), (both, both)]
    assert [e.phase for e in events if e.kind == "phase"] == ["downloading", "building"]


def test_smoke_lines_count_the_checks_as_they_start() -> None:
    events, listener = _collect()
    with progress.listening(listener), progress.working_on("cpu"):
        reader = progress.smoke_lines()
        assert reader is not None
        for line in (
            "envgen-smoke: running cpu/import:torch",
            "noise",
            "envgen-smoke: running gpu/matmul",
        ):
            reader(line)
    assert [(e.detail, e.done) for e in events] == [("cpu/import:torch", 1), ("gpu/matmul", 2)]


def test_no_listener_no_readers_and_no_events() -> None:
    assert not progress.active()
    assert progress.uv_lines("cpu") is None
    assert progress.smoke_lines("cpu") is None
    progress.phase("installing", variant="cpu")  # nobody listens: nothing happens


def test_events_name_the_variant_of_their_thread() -> None:
    events, listener = _collect()
    with progress.listening(listener):
        progress.phase("orphan")  # no variant set: dropped
        with progress.working_on("cpu"):
            progress.phase("resolving", "pip: uv")
            progress.finish("locked")
    assert events == [
        Event(variant="cpu", kind="phase", phase="resolving", detail="pip: uv"),
        Event(variant="cpu", kind="finish", phase="locked"),
    ]


def test_plain_display_prints_one_line_per_step(capsys: pytest.CaptureFixture[str]) -> None:
    console.configure(quiet=False, color="never", no_color_env=False)
    with display.showing(live=False):
        progress.start(["cpu"])
        with progress.working_on("cpu"):
            progress.phase("installing")
            progress.phase("downloading")
            progress.update("torch (176.4 MiB)", done=0, total=5, unit="bytes")
            progress.phase("downloading")  # the same step again: no new line
            progress.phase("installing", "downloaded 1 large file(s), 176.4 MiB")
            progress.finish("built", logged=True)  # the build's own line says it
            progress.finish("locked")
    assert capsys.readouterr().err.splitlines() == [
        "cpu: installing",
        "cpu: downloading",
        "cpu: installing (downloaded 1 large file(s), 176.4 MiB)",
        "cpu: locked",
    ]


def test_quiet_shows_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    console.configure(quiet=True, color="never", no_color_env=False)
    try:
        with display.showing(live=True):
            assert not progress.active()
            progress.phase("installing", variant="cpu")
    finally:
        console.configure(quiet=False, color="auto", no_color_env=False)
    assert capsys.readouterr() == ("", "")


def test_verbose_log_shows_an_inline_script_as_its_size() -> None:
    script = "import sys\n" * 46
    assert shown_command(["/env/bin/python", "-I", "-B", "-c", script]) == (
        "/env/bin/python -I -B -c <inline script: 46 lines>"
    )


# --- run / shell: [SPEC] VARIANT ------------------------------------------------------------------
@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()  # the upward search stops here
    (tmp_path / "project.yaml").write_text("name: t\n")
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "project.yaml").write_text("name: p\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _split(command: click.Command, *args: str) -> tuple[str, str, tuple[str, ...]]:
    ctx = command.make_context(command.name or "", list(args))
    spec, variant, rest = split_spec(
        ctx, ctx.params["words"], ctx.params["spec"], command=command is run_cmd
    )
    return str(spec), variant, rest


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("cpu", "--", "python", "-V"), ("project.yaml", "cpu", ("python", "-V"))),
        (("project.yaml", "cpu", "python"), ("project.yaml", "cpu", ("python",))),
        (("paper/project.yaml", "cu118", "python"), ("paper/project.yaml", "cu118", ("python",))),
        (("./paper", "cpu", "python"), ("paper/project.yaml", "cpu", ("python",))),
        ((".", "cpu", "python"), ("project.yaml", "cpu", ("python",))),
        (
            ("--spec", "paper/project.yaml", "cpu", "python"),
            ("paper/project.yaml", "cpu", ("python",)),
        ),
        # two words: one short of SPEC VARIANT COMMAND, so `paper` is the variant
        (("paper", "python"), ("project.yaml", "paper", ("python",))),
        # --spec given: a bare word is the variant
        (
            ("--spec", "project.yaml", "paper", "python", "x"),
            ("project.yaml", "paper", ("python", "x")),
        ),
    ],
)
@pytest.mark.usefixtures("project")
def test_run_reads_the_spec_from_its_first_word(
    args: tuple[str, ...], expected: tuple[str, str, tuple[str, ...]]
) -> None:
    assert _split(run_cmd, *args) == expected


@pytest.mark.usefixtures("project")
def test_shell_reads_the_spec_from_its_first_word() -> None:
    assert _split(shell_cmd, "cpu") == ("project.yaml", "cpu", ())
    assert _split(shell_cmd, "paper", "cpu") == ("paper/project.yaml", "cpu", ())
    assert _split(shell_cmd, "paper/project.yaml", "cpu") == ("paper/project.yaml", "cpu", ())


def test_a_bare_folder_without_another_spec_is_the_spec(project: Path) -> None:
    (project / "project.yaml").unlink()
    assert _split(run_cmd, "paper", "cpu", "python") == ("paper/project.yaml", "cpu", ("python",))


@pytest.mark.parametrize(
    ("command", "args", "message"),
    [
        (
            run_cmd,
            ("paper", "cpu", "python"),
            "'paper' is a folder holding project.yaml and could also be a variant: write ./paper "
            "for the folder (envgen run ./paper VARIANT ...), or give the spec with --spec "
            "(envgen run --spec project.yaml paper ...)",
        ),
        (
            run_cmd,
            ("--spec", "project.yaml", "paper/project.yaml", "cpu", "python"),
            "the spec is given twice: 'paper/project.yaml' and --spec project.yaml; give one of them",
        ),
        (run_cmd, ("project.yaml", "cpu"), "missing COMMAND after the variant 'cpu'"),
        (shell_cmd, ("project.yaml",), "missing VARIANT after the spec 'project.yaml'"),
        (shell_cmd, ("cpu", "bash"), "unexpected extra argument(s): bash"),
    ],
)
@pytest.mark.usefixtures("project")
def test_ambiguous_or_incomplete_words_are_usage_errors(
    command: click.Command, args: tuple[str, ...], message: str
) -> None:
    with pytest.raises(click.UsageError) as caught:
        _split(command, *args)
    assert caught.value.message == message
