"""The build key and the child environment (issue 21 item 2): what a repository cannot carry."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from envgen.build.orchestrate import MARKER, marker_state, read_marker
from envgen.build.running import environment_for
from envgen.errors import FileSystemError
from envgen.infra import proc as _proc
from envgen.infra.buildkey import check_seal, load_key, seal
from envgen.infra.settings import Settings


def test_the_key_is_made_once_private_and_then_reused(tmp_path: Path) -> None:
    path = tmp_path / "config" / "envgen" / "build-key"
    key = load_key(path)
    assert len(key) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_key(path) == key
    assert load_key(tmp_path / "other" / "build-key") != key


def test_a_key_others_can_read_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "build-key"
    load_key(path)
    path.chmod(0o644)
    with pytest.raises(FileSystemError) as info:
        load_key(path)
    assert str(info.value) == (
        f"{path}: is readable or writable by others (mode 644); envgen seals the environments "
        f"it builds with this key\n  hint: remove {path} (a new one is made, mode 600), then "
        "rebuild"
    )


def test_a_key_planted_as_a_link_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "known"
    target.write_text("00" * 32 + "\n")
    target.chmod(0o600)
    path = tmp_path / "build-key"
    path.symlink_to(target)
    with pytest.raises(FileSystemError, match="is a symbolic link"):
        load_key(path)


def test_the_key_file_follows_xdg_config_home(tmp_path: Path) -> None:
    settings = Settings.from_environ({"XDG_CONFIG_HOME": str(tmp_path)})
    assert settings.key_file == tmp_path / "envgen" / "build-key"
    relative = Settings.from_environ({"XDG_CONFIG_HOME": "rel"})  # ignored, as the spec says
    assert relative.key_file == Path.home() / ".config" / "envgen" / "build-key"


def test_seal_depends_on_key_and_payload() -> None:
    value = seal(b"k" * 32, b"marker")
    assert check_seal(b"k" * 32, b"marker", value)
    assert not check_seal(b"j" * 32, b"marker", value)
    assert not check_seal(b"k" * 32, b"marker2", value)
    assert not check_seal(b"k" * 32, b"marker", None)


def test_an_unsealed_or_moved_marker_is_not_built_here(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.mkdir()
    (env / MARKER).write_text('{"format": 1, "variant": "cpu", "seal": "hmac-sha256:00"}')
    state = marker_state(env, b"k" * 32)
    assert (state.found, state.data) == (True, None)
    (env / MARKER).write_text("[" * 100_000)  # malformed, deeply nested: absent, no error
    assert marker_state(env, b"k" * 32).found is False
    assert read_marker(tmp_path / "missing", b"k" * 32) is None


def test_children_never_inherit_envgen_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVGEN_PYPI_INDEX", "https://u:secret@mirror.example/simple")
    monkeypatch.setenv("ENVGEN_HTTP_TIMEOUT", "5")
    monkeypatch.setenv("USER_TOOL_SETTING", "kept")
    for env in (
        _proc.clean_env(),
        _proc.clean_env(drop_prefixes=("PIP_",)),
        environment_for(Path("/opt/env"), conda=False),
    ):
        assert [k for k in env if k.startswith("ENVGEN_")] == []
        assert env["USER_TOOL_SETTING"] == "kept"
    assert environment_for(Path("/opt/env"), conda=False)["VIRTUAL_ENV"] == "/opt/env"
    assert os.environ["ENVGEN_HTTP_TIMEOUT"] == "5"  # the process's own view is unchanged
