"""The user's settings: read and checked once (Settings.from_environ), at the CLI edge only."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest
from click.testing import CliRunner

from envgen.cli import cli
from envgen.errors import SpecError
from envgen.infra.settings import Settings, default_cache_root

ROOT: Final = Path(__file__).parents[2]
# Process plumbing, not settings: a child tool's environment, and the user's own command.
PLUMBING: Final = {"envgen/infra/proc.py", "envgen/build/running.py"}


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
