"""The user's settings: read and checked once (Settings.from_environ), at the CLI edge only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import click
import pytest
from click.testing import CliRunner

from envgen.cli import cli
from envgen.errors import SpecError
from envgen.infra.settings import Settings, default_cache_root

ROOT: Final = Path(__file__).parents[3]
# Process plumbing, not settings: a child tool's environment, the user's own command, and the
# environment as a whole as the key of a kept answer (envgen.cli.answers, whose cache root
# tests/unit/cli/test_answers.py holds to the one Settings names).
PLUMBING: Final = {"envgen/infra/proc.py", "envgen/build/running.py", "envgen/cli/answers.py"}


def test_no_stage_reads_the_environment() -> None:
    readers = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "envgen").rglob("*.py")
        if re.search(r"os\.environ|getenv", p.read_text(encoding="utf-8"))
    }
    assert readers == {"envgen/infra/settings.py", *PLUMBING}


def test_defaults_and_values() -> None:
    assert Settings.from_environ({}) == Settings()
    assert Settings().cache_root == default_cache_root()
    got = Settings.from_environ(
        {
            "ENVGEN_PYTORCH_INDEX": "https://m.example/whl",
            "ENVGEN_PYPI_INDEX": "file:///srv/pypi",
            "ENVGEN_EXTENSION_INDEX": "http://127.0.0.1:9/ext",
            "ENVGEN_CONDA_CHANNEL_ALIAS": "https://m.example/conda",
            "ENVGEN_CACHE_DIR": "/tmp/c",
            "ENVGEN_HTTP_TIMEOUT": " 2.5 ",
            "ENVGEN_CUSTOM_COMMAND": "make lock",
            "ENVGEN_MATRIX": str(ROOT / "matrices"),
            "ENVGEN_VAULT": "https://vault.example/team",
            "ENVGEN_S3_ENDPOINT_URL": "http://127.0.0.1:9000",
            "CI": "true",
        }
    )
    assert got == Settings(
        pytorch_index="https://m.example/whl",
        pypi_index="file:///srv/pypi",
        extension_index="http://127.0.0.1:9/ext",
        channel_alias="https://m.example/conda",
        cache_root=Path("/tmp/c"),
        http_timeout=2.5,
        custom_command="make lock",
        in_ci=True,
        matrix_dir=ROOT / "matrices",
        vault="https://vault.example/team",
        s3_endpoint_url="http://127.0.0.1:9000",
    )
    assert got.uv_http_timeout() == "3"
    # Empty means unset, as before.
    assert Settings.from_environ({"ENVGEN_CACHE_DIR": "", "CI": ""}) == Settings()


def test_plain_http_to_a_remote_index_waits_for_the_spec() -> None:
    """Whether the host is trusted is the spec's to say (trusted_hosts): index_urls checks it."""
    assert Settings.from_environ({"ENVGEN_PYPI_INDEX": "http://mirror.lan/simple"}).pypi_index
    with pytest.raises(SpecError, match=r"^ENVGEN_PYPI_INDEX: 'https://m\.example/a b' contains"):
        Settings.from_environ({"ENVGEN_PYPI_INDEX": "https://m.example/a b"})


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        (
            "ENVGEN_HTTP_TIMEOUT",
            "abc",
            "ENVGEN_HTTP_TIMEOUT='abc' is not a number of seconds (a number above 0, at most "
            "86400); set it to seconds, e.g. ENVGEN_HTTP_TIMEOUT=60, or unset it",
        ),
        (
            "ENVGEN_CUSTOM_COMMAND",
            "make\nlock",
            "ENVGEN_CUSTOM_COMMAND: 'make\\nlock' holds a control character ('\\n'); it is "
            "written into a comment line of every generated file and must be one line; give a "
            "one-line command without control characters",
        ),
        (
            "ENVGEN_PYTORCH_INDEX",
            "ftp://bob:SECRET@m.example/whl",
            "ENVGEN_PYTORCH_INDEX: 'ftp://***@m.example/whl' is not an http(s):// or file:// URL",
        ),
        (
            "ENVGEN_MATRIX",
            "/nonexistent/matrices",
            "ENVGEN_MATRIX='/nonexistent/matrices' does not exist; point it at a matrix folder "
            "or unset it",
        ),
        (
            "ENVGEN_MATRIX",
            str(ROOT / "pyproject.toml"),
            f"ENVGEN_MATRIX={str(ROOT / 'pyproject.toml')!r} is not a folder; point it at a "
            "matrix folder or unset it",
        ),
    ],
)
def test_a_bad_value_is_a_spec_error_naming_it(name: str, value: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        Settings.from_environ({name: value})
    assert str(info.value) == message
    assert info.value.exit_code == 3


def test_help_reads_no_settings() -> None:
    """Settings are read when a command starts, not by the group: --help works whatever they are."""
    result = CliRunner().invoke(cli, ["lock", "--help"], env={"ENVGEN_HTTP_TIMEOUT": "abc"})
    assert result.exit_code == 0, result.output


def _commands(group: click.Group) -> list[click.Command]:
    found: list[click.Command] = []
    for command in group.commands.values():
        found.append(command)
        if isinstance(command, click.Group):
            found += _commands(command)
    return found


def test_click_reads_no_envgen_variable() -> None:
    """Every ENVGEN_* variable is read by Settings alone: no option of any command names one as
    its click `envvar` (the option's value, when given, replaces the setting in the CLI)."""
    with_envvar = [
        f"{command.name} {param.name}"
        for command in _commands(cli)
        for param in command.params
        if getattr(param, "envvar", None)
    ]
    assert with_envvar == []


def test_an_option_replaces_its_setting(tmp_path: Path) -> None:
    """--matrix over ENVGEN_MATRIX: without the option the setting applies. Settings are read
    and checked whole, so a bad ENVGEN_MATRIX is a spec error (exit 3, naming it) even when
    --matrix is given, as any bad ENVGEN_* value is."""
    spec = tmp_path / "project.yaml"
    spec.write_text('name: p\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n')
    mini = ROOT / "tests" / "data" / "matrix-mini"
    runner = CliRunner()
    bad = {"ENVGEN_MATRIX": str(tmp_path / "missing")}
    result = runner.invoke(cli, ["list", str(spec), "--matrix", str(mini)], env=bad)
    assert isinstance(result.exception, SpecError), result.output
    assert str(result.exception).startswith("ENVGEN_MATRIX='"), result.exception
    assert result.exception.exit_code == 3
    good = runner.invoke(cli, ["list", str(spec)], env={"ENVGEN_MATRIX": str(mini)})
    assert good.exit_code == 0, good.output
    assert good.output.startswith("cpu\ttorch 2.1.0"), good.output
