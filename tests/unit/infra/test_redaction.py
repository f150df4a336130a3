"""Credentials are masked in every message: the gaps issue 16 item 5 found stay closed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from envgen.errors import NetworkError, SpecError
from envgen.infra.proc import redact
from envgen.infra.settings import Settings
from envgen.model.spec import parse_spec
from envgen.verification.pypi import http_get


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("https://:SECRET@m.example/simple", "https://***@m.example/simple"),
        ("https://bob:SE@CRET@m.example/simple", "https://***@m.example/simple"),
        ("https://bob:SE%40CRET@m.example/simple", "https://***@m.example/simple"),
        ("http://SECRET@[::1]:8080/whl x", "http://***@[::1]:8080/whl x"),
        (
            "uv sync https://a:SECRET@one.example/x and https://b:SECRET@two.example/y",
            "uv sync https://***@one.example/x and https://***@two.example/y",
        ),
        ("https://pypi.org/simple user@example.org", "https://pypi.org/simple user@example.org"),
    ],
)
def test_redact(text: str, masked: str) -> None:
    assert redact(text) == masked


def test_spec_errors_do_not_echo_a_credential_of_pytorch_index() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(
            'name: p\npython: "3.11"\ntorch: "2.1.0"\n'
            'pytorch_index: "http://bob:SECRET@mirror.example/whl"\n',
            path=Path("project.yaml"),
        )
    assert info.value.problems == [
        "project.yaml:4: pytorch_index: plain-http index 'http://***@mirror.example/whl' can be "
        "tampered with in transit; use https, a file:// path, or list its host under "
        "trusted_hosts"
    ]


def test_matrix_verify_errors_do_not_echo_a_credential() -> None:
    with pytest.raises(NetworkError) as info:
        http_get("http://bob:SECRET@mirror.example/simple/torch/")
    assert str(info.value) == (
        "'http://***@mirror.example/simple/torch/' is not fetched: matrix verify reads https:// "
        "indexes (or http:// on 127.0.0.1, localhost, ::1); give e.g. https://pypi.org/simple"
    )


def test_a_credential_bearing_channel_alias_is_checked_and_masked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ENVGEN_CONDA_CHANNEL_ALIAS", "http://bob:SECRET@mirror.example/conda")
    with pytest.raises(SpecError) as info:
        Settings.from_environ(os.environ)
    assert str(info.value) == (
        "ENVGEN_CONDA_CHANNEL_ALIAS: plain-http index 'http://***@mirror.example/conda' can be "
        "tampered with in transit; use https, a file:// path, or list its host under "
        "trusted_hosts"
    )
    monkeypatch.setenv("ENVGEN_CONDA_CHANNEL_ALIAS", "https://bob:SECRET@mirror.example/conda")
    assert (
        Settings.from_environ(os.environ).channel_alias == "https://bob:SECRET@mirror.example/conda"
    )


@pytest.mark.parametrize(
    "extra",
    [
        'pip: ["numpy @ https://bob:SECRET@m.example/n.whl"]\n',
        'managers: [conda]\nconda: {channels: ["https://bob:SECRET@m.example/c"]}\n',
    ],
)
def test_spec_errors_through_the_cli_never_echo_a_credential(
    extra: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from envgen.cli import main

    (tmp_path / "project.yaml").write_text(
        f'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\n{extra}'
    )
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(["list", "project.yaml"])
    out, err = capsys.readouterr()
    assert info.value.code == 3
    assert "SECRET" not in out + err
    assert "https://***@m.example/" in err


def test_every_secret_envgen_knows_of_is_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only URL userinfo: credential-named variables, tokens in index URLs (issue 21)."""
    from envgen.infra import proc

    monkeypatch.setenv("UV_INDEX_MIRROR_PASSWORD", "CANARY-UV-1")
    monkeypatch.setenv("CI_JOB_TOKEN", "CANARY-CI-2")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "CANARY-AWS-3")
    monkeypatch.setenv("ENVGEN_PYPI_INDEX", "https://bob:CANARY%2FURL-4@mirror.example/simple")
    monkeypatch.setenv("SHORT_TOKEN", "abc")  # too short to mask as a substring
    proc.split_credentials("https://CANARY-SPLIT-5@mirror.example/whl")
    printed = (
        "UV_INDEX_MIRROR_PASSWORD=CANARY-UV-1\0CI_JOB_TOKEN=CANARY-CI-2\0"
        "key CANARY-AWS-3, decoded CANARY/URL-4, encoded CANARY%2FURL-4, split CANARY-SPLIT-5, "
        "user bob, abc"
    )
    assert redact(printed) == (
        "UV_INDEX_MIRROR_PASSWORD=***\0CI_JOB_TOKEN=***\0"
        "key ***, decoded ***, encoded ***, split ***, user bob, abc"
    )


def test_the_log_formatter_redacts_every_record(monkeypatch: pytest.MonkeyPatch) -> None:
    import logging

    from envgen.infra.proc import RedactingFormatter

    monkeypatch.setenv("DEPLOY_PASSWORD", "CANARY-LOG-6")
    record = logging.LogRecord(
        "envgen", logging.DEBUG, "x", 1, "uv said %s", ("CANARY-LOG-6",), None
    )
    assert RedactingFormatter("%(message)s").format(record) == "uv said ***"
