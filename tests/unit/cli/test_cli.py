"""The CLI through click's CliRunner: exit codes, stdout/stderr split, whole messages."""

from __future__ import annotations

import json
import shutil
import urllib.error
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from envgen.cli import cli, main
from envgen.errors import EXIT_CODES, OTHER_EXIT_CODES, EnvgenError, LockError, NetworkError

DATA = Path(__file__).parents[2] / "data"
MINI = str(DATA / "matrix-mini")


def run(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """Run main() (the real entry point with its error handling) and capture the streams."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(_entry, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@click.command(
    # A pass-through command, so CliRunner drives envgen.cli.main (the real entry point with its
    # error handling); --help and every option go to envgen, not to this wrapper.
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": [],
    }
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    main(list(args))


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    shutil.copy(DATA / "specs" / "paper-2022" / "project.yaml", tmp_path / "project.yaml")
    return tmp_path / "project.yaml"


def test_list_json(paper: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["list", str(paper), "--matrix", MINI, "--json"], tmp_path, monkeypatch)
    assert code == 0, err
    data = json.loads(out)
    assert [v["id"] for v in data] == ["cpu", "cu113", "cu116"]
    assert data[2]["pins"]["pip"] == {
        "torch": "1.12.0+cu116",
        "torchvision": "0.13.0+cu116",
        "torchaudio": "0.12.0",
    }


def test_lock_pins_only_then_check(
    paper: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["lock", str(paper), "--matrix", MINI, "--pins-only"], tmp_path, monkeypatch)
    assert code == 0, err
    out = tmp_path / "environments"
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == [
        "Makefile",
        "cpu/environment.yml",
        "cpu/requirements.txt",
        "cu113/environment.yml",
        "cu113/requirements.txt",
        "cu116/environment.yml",
        "cu116/requirements.txt",
    ]
    code, _, err = run(
        ["lock", str(paper), "--matrix", MINI, "--pins-only", "--check"], tmp_path, monkeypatch
    )
    assert code == 0, err
    assert err == f"7 file(s) in {out} are up to date\n"
    # A hand edit makes --check fail with exit 9 and a diff naming the file.
    req = out / "cu116" / "requirements.txt"
    req.write_text(req.read_text().replace("torch==1.12.0+cu116", "torch==1.12.0+cu113"))
    code, _, err = run(
        ["lock", str(paper), "--matrix", MINI, "--pins-only", "--check"], tmp_path, monkeypatch
    )
    assert code == 9
    assert err.startswith(
        f"error: 1 generated file(s) in {out} are stale: cu116/requirements.txt\n"
    )
    assert "-torch==1.12.0+cu113\n+torch==1.12.0+cu116" in err


def test_bad_spec_exit_3_no_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "project.yaml").write_text('name: p\npython: 3.10\ntorch: "1.12.0"\n')
    code, out, err = run(["list", "project.yaml", "--matrix", MINI], tmp_path, monkeypatch)
    assert code == 3
    assert out == ""
    assert err == (
        'error: project.yaml:2: python: expected a string such as "3.10", got a number; '
        "YAML read it as the number 3.1: quote it: '3.10'\n"
    )


def test_missing_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(["list", "nope.yaml"], tmp_path, monkeypatch)
    assert code == 3
    assert err == "error: nope.yaml: no such file\n"


@pytest.mark.usefixtures("paper")
def test_spec_found_upward_to_the_repository_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As git and uv do: a subdirectory finds the project above it, never above the repository."""
    sub = tmp_path / "src" / "deep"
    sub.mkdir(parents=True)
    code, out, err = run(["list", "--matrix", MINI], sub, monkeypatch)
    assert code == 0, err
    assert out.splitlines()[0].startswith("cpu\ttorch 1.12.0")
    (tmp_path / "src" / ".git").mkdir()  # a repository inside: the search stops at its root
    code, _, err = run(["list", "--matrix", MINI], sub, monkeypatch)
    assert (code, err) == (3, "error: project.yaml: no such file\n")


def test_a_spec_found_by_itself_is_never_a_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Red team, round 3: a cloned repository's project.yaml linking out of it is not read
    unless the user names it."""
    outside = tmp_path / "outside.yaml"
    outside.write_text('torch: "SECRET-VALUE"\n')
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "project.yaml").symlink_to(outside)
    code, _, err = run(["list"], repo, monkeypatch)
    assert code == 14
    assert err.startswith(
        f"error: project.yaml is a symbolic link (to {outside}); envgen reads a project.yaml "
        "it finds by itself only as a regular file\n"
    )
    assert "SECRET-VALUE" not in err


@pytest.mark.usefixtures("paper")
def test_variant_matching_nothing_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(
        ["lock", "--pins-only", "--matrix", MINI, "--variant", "cu9"], tmp_path, monkeypatch
    )
    assert code == EXIT_CODES["OptionError"] == OTHER_EXIT_CODES["usage"]
    assert err.startswith(
        "error: --variant 'cu9' matches no variant; the spec has: cpu, cu113, cu116"
    )
    code, _, err = run(
        ["lock", "--pins-only", "--matrix", MINI, "--variant", "auto"], tmp_path, monkeypatch
    )
    assert code == 2
    assert "for build, smoke, run and shell only" in err


@pytest.mark.usefixtures("paper")
def test_run_suggests_double_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(["run", "cpu", "python", "-V"], tmp_path, monkeypatch)
    assert code == 2
    assert err.endswith(
        "Error: No such option '-V'.\n"
        "  hint: -V after VARIANT is read as an envgen option; put `--` before the command: "
        "envgen run VARIANT -- COMMAND -V ...\n"
    )


def test_lock_names_an_environment_no_variant_owns_and_clean_lists_it(
    paper: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a spec change (here: a folder for a variant the spec no longer has), lock says so
    and `clean` reports it; a folder without envgen's build marker is listed, never removed."""
    (tmp_path / "environments" / "cpu-py39" / ".env").mkdir(parents=True)
    code, _, err = run(["lock", "--pins-only", str(paper), "--matrix", MINI], tmp_path, monkeypatch)
    assert code == 0, err
    assert (
        "cpu-py39/.env: no variant of the spec is called 'cpu-py39' now (the variants: cpu, "
        "cu113, cu116); the environment stays until `envgen clean` removes it\n"
    ) in err
    code, out, err = run(["clean", str(paper), "--matrix", MINI, "--json"], tmp_path, monkeypatch)
    assert code == 0, err
    (row,) = json.loads(out)
    assert (row["variant"], row["action"]) == ("cpu-py39", "left alone")
    assert "no envgen build marker" in row["why"]
    assert (tmp_path / "environments" / "cpu-py39" / ".env").is_dir()
    (tmp_path / "environments" / "cpu-py39" / ".env").rmdir()
    code, _, err = run(["clean", str(paper), "--matrix", MINI], tmp_path, monkeypatch)
    assert (code, err) == (
        0,
        "nothing to clean: every environment belongs to a variant of the spec\n",
    )


def test_quiet_prints_results_and_errors_only(
    paper: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(
        ["lock", "--pins-only", str(paper), "--matrix", MINI], tmp_path, monkeypatch
    )
    assert code == 0
    assert err  # the written files and the summary
    code, out, err = run(
        ["-q", "lock", "--pins-only", str(paper), "--matrix", MINI], tmp_path, monkeypatch
    )
    assert (code, out, err) == (0, "", "")
    code, out, err = run(["-q", "list", str(paper), "--matrix", MINI], tmp_path, monkeypatch)
    assert (code, err) == (0, "")
    assert out.startswith("cpu\t")  # results still go to stdout
    code, _, err = run(["-q", "list", "nope.yaml"], tmp_path, monkeypatch)
    assert (code, err) == (3, "error: nope.yaml: no such file\n")  # errors always
    code, _, err = run(["-q", "-v", "list"], tmp_path, monkeypatch)
    assert code == 2
    assert "opposite things" in err


@pytest.mark.parametrize(
    ("args", "no_color", "coloured"),
    [
        ([], "", False),  # auto, and the test's stderr is no terminal
        (["--color", "always"], "", True),
        (["--color", "always"], "1", True),  # an explicit choice beats NO_COLOR
        (["--color", "never"], "", False),
    ],
)
def test_color_choice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], no_color: str, coloured: bool
) -> None:
    monkeypatch.setenv("NO_COLOR", no_color)
    code, _, err = run([*args, "list", "nope.yaml"], tmp_path, monkeypatch)
    assert code == 3
    red = click.style("error:", fg="red", bold=True)
    assert err == (
        f"{red} nope.yaml: no such file\n" if coloured else "error: nope.yaml: no such file\n"
    )


def test_unsupported_combination_exit_10(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(
        ["command", "--torch", "2.1.0", "--compute", "cu116", "--matrix", MINI],
        tmp_path,
        monkeypatch,
    )
    assert code == 10
    assert err == (
        "error: torch 2.1.0 was not published for cu116 with pip on linux; "
        "it was published for cpu, cu118, cu121 (did you mean 'cu118'?)\n"
    )


def test_command_pip_and_conda(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(
        ["command", "--torch", "1.12.0", "--compute", "cu116"], tmp_path, monkeypatch
    )
    assert (code, out) == (
        0,
        "pip install torch==1.12.0+cu116 torchvision==0.13.0+cu116 torchaudio==0.12.0 "
        "--extra-index-url https://download.pytorch.org/whl/cu116\n",
    )
    code, out, _ = run(
        [
            "command",
            "--torch",
            "1.12.0",
            "--compute",
            "cu116",
            "--manager",
            "conda",
            "--os",
            "windows",
        ],
        tmp_path,
        monkeypatch,
    )
    assert (code, out) == (
        0,
        "conda install pytorch==1.12.0 torchvision==0.13.0 torchaudio==0.12.0 cudatoolkit=11.6 "
        "-c pytorch -c conda-forge\n",
    )


def test_matrix_show_and_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["matrix", "show", "1.12.0", "--json"], tmp_path, monkeypatch)
    assert code == 0
    data = json.loads(out)
    assert (data["torch"], data["torchvision"], data["torchaudio"]) == (
        "1.12.0",
        "0.13.0",
        "0.12.0",
    )
    assert data["python"] == ["3.7", "3.8", "3.9", "3.10"]
    assert sorted(r["accelerator"] for r in data["pip"] if "linux-64" in r["platforms"]) == [
        "cpu",
        "cu102",
        "cu113",
        "cu116",
        "rocm5.1.1",
    ]
    code, out, _ = run(["matrix", "list", "--json"], tmp_path, monkeypatch)
    rows = json.loads(out)
    assert rows[0]["torch"] == "0.1.12"
    assert {"torch": "1.12.0", "torchvision": "0.13.0"}.items() <= next(
        r for r in rows if r["torch"] == "1.12.0"
    ).items()


def test_matrix_validate_reports_bad_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "m"
    shutil.copytree(MINI, bad)
    with (bad / "pip.yaml").open("a") as fh:
        fh.write(
            '- {release: "9.9.9", platforms: [linux-64], kind: cuda, torch: "9.9.9", index: pypi, source: x}\n'
        )
    code, _, err = run(["matrix", "validate", "--matrix", str(bad)], tmp_path, monkeypatch)
    assert code == 4
    assert err == (
        f"error: {bad}: the matrix is inconsistent\n"
        "  - pip.yaml: release 9.9.9 is not in releases.yaml\n"
        "  - pip.yaml: release 9.9.9 cuda: a version is required for cuda/rocm and forbidden otherwise\n"
    )


def test_exit_codes_are_unique_and_documented() -> None:
    codes = list(EXIT_CODES.values())
    assert len(codes) == len(set(codes))
    readme = (Path(__file__).parents[3] / "README.md").read_text()
    for name, code in EXIT_CODES.items():
        if name == "EnvgenError":
            continue
        assert f"| {code} | `{name}`" in readme, name


def test_version_and_help(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["--version"], tmp_path, monkeypatch)
    assert (code, out) == (0, "envgen, version 0.1.0\n")
    code, out, _ = run(["--help"], tmp_path, monkeypatch)
    assert code == 0
    listed = {
        line.split()[0] for line in out.split("Commands:\n", 1)[1].splitlines() if line.strip()
    }
    assert listed == set(cli.commands)


def test_unwritable_output_is_an_error_not_a_traceback(
    paper: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(
        ["ci", "github", str(paper), "-o", str(blocker / "envgen.yml")], tmp_path, monkeypatch
    )
    assert (code, err) == (14, f"error: {blocker}: Not a directory\n")


def test_a_bug_is_one_line_and_exit_1_without_debug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import envgen.app._matrix

    def broken(*_args: object, **_kwargs: object) -> None:
        msg = "the matrix went missing"
        raise TypeError(msg)

    monkeypatch.setattr(envgen.app._matrix, "load_matrix", broken)
    code, out, err = run(["matrix", "validate", "--matrix", MINI], tmp_path, monkeypatch)
    assert (code, out) == (OTHER_EXIT_CODES["bug"], "")
    assert err == (
        "error: internal error (a bug in envgen): TypeError: the matrix went missing\n"
        "  hint: run again with --debug for the traceback, and report it\n"
    )
    with pytest.raises(TypeError, match="the matrix went missing"):
        run(["--debug", "matrix", "validate", "--matrix", MINI], tmp_path, monkeypatch)


@pytest.mark.parametrize(
    ("raised", "error", "message"),
    [
        (ConnectionRefusedError(111, "Connection refused"), NetworkError, r"^\[Errno 111\] Conn"),
        (urllib.error.URLError("no route to host"), NetworkError, r"^no route to host$"),
        (
            PermissionError(13, "Permission denied", "out/x"),
            LockError,
            r"^envgen lock could not write out/x: Permission denied; no file was left",
        ),
    ],
)
def test_guarded_names_a_failed_connection_a_network_error(
    raised: OSError, error: type[EnvgenError], message: str, tmp_path: Path
) -> None:
    """A stage's OSError from a connection is NetworkError; only a file's is the stage's own."""
    from envgen.app._guard import guarded

    with pytest.raises(error, match=message), guarded(tmp_path, LockError, "envgen lock"):
        raise raised
