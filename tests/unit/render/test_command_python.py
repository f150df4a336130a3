"""`envgen command --python X`: the command for a Python the release was published for, not
only its newest (issue 23 item 6)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from envgen.cli import main
from envgen.errors import UnsupportedCombinationError
from envgen.model.matrix import load_matrix
from envgen.render.commands import install_command

MATRIX = load_matrix()


@click.command(
    # A pass-through command, so CliRunner drives envgen.cli.main (the real entry point with its
    # error handling), as tests/unit/cli/test_cli.py does.
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    main(list(args))


def test_extension_built_for_an_older_python_only() -> None:
    # torch-scatter for torch 2.5.0 was built for 3.9-3.12, torch for 3.9-3.13: without --python
    # the command is for 3.13 and refused; with --python 3.12 it prints.
    with pytest.raises(UnsupportedCombinationError, match=r"python 3\.13, linux-64"):
        install_command(MATRIX, torch="2.5.0", compute="cu124", with_extensions=("torch-scatter",))
    cmd = install_command(
        MATRIX, torch="2.5.0", compute="cu124", with_extensions=("torch-scatter",), python="3.12"
    )
    assert cmd.extensions == (
        "pip install torch-scatter==2.1.2 -f https://data.pyg.org/whl/torch-2.5.0+cu124.html",
    )


def test_wheel_url_for_the_python_asked() -> None:
    newest = install_command(MATRIX, torch="1.0.0", compute="cu100")
    assert "cp37-cp37m" in newest.text
    cmd = install_command(MATRIX, torch="1.0.0", compute="cu100", python="2.7")
    assert cmd.text == (
        "pip install https://download.pytorch.org/whl/cu100/torch-1.0.0-cp27-cp27mu-linux_x86_64.whl"
        " torchvision==0.2.1"
    )
    assert "the wheel for Python 2.7" in cmd.warnings[0]


@pytest.mark.parametrize(
    ("python", "message", "hint"),
    [
        (
            "3.11",
            "--python 3.11: torch 1.10.0 was published for Python 3.6, 3.7, 3.8, 3.9",
            "pick one of those, or a torch release published for that Python",
        ),
        ("3", "--python '3' is not a major.minor Python version", "write it as '3.9'"),
        ("3.9.1", "--python '3.9.1' is not a major.minor Python version", "write it as '3.9'"),
    ],
)
def test_bad_python_is_refused(python: str, message: str, hint: str) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        install_command(MATRIX, torch="1.10.0", compute="cu113", python=python)
    assert (info.value.message, info.value.hint) == (message, hint)


def test_cli_python_option() -> None:
    runner = CliRunner()
    ok = runner.invoke(
        _entry,
        [
            "command",
            "--torch",
            "2.5.0",
            "--compute",
            "cpu",
            "--with",
            "torch-scatter",
            "--python",
            "3.9",
        ],
    )
    assert ok.exit_code == 0, ok.stderr
    assert ok.stdout.splitlines()[1] == (
        "pip install torch-scatter==2.1.2 -f https://data.pyg.org/whl/torch-2.5.0+cpu.html"
    )
    bad = runner.invoke(
        _entry, ["command", "--torch", "2.5.0", "--compute", "cpu", "--python", "2.7"]
    )
    assert bad.exit_code == 10
    assert bad.stderr.startswith(
        "error: --python 2.7: torch 2.5.0 was published for Python 3.9, 3.10, 3.11, 3.12, 3.13"
    )
