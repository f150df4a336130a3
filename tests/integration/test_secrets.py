"""A canary token in index URLs, a netrc file and the environment never leaks.

The loopback index requires basic auth (user `envgen`, token `CANARY-TOKEN-1234`). envgen gets
the credentials three ways (in ENVGEN_PYTORCH_INDEX / ENVGEN_PYPI_INDEX URLs, in a netrc file
named by NETRC, and as an unrelated environment variable), runs `lock -vv`, `build -vv` with
`--json` and `--junit`, `check`, and a failing run; then every file under the project and
every byte of output is searched for the canary.
"""

from __future__ import annotations

import os
import subprocess  # noqa: TID251 - tests run envgen and mount as real processes
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from envgen.app import LockOptions, lock
from envgen.build.orchestrate import build_variants
from envgen.infra import proc as _proc
from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from tests.support.conda_channel import CondaChannel
from tests.support.fixtures import AUTH_TOKEN, ServedIndex, ServerFactory, clean_tool_env

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
SPEC: Final = (
    'name: secret\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)


def envgen(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "envgen", "-vv", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr


def assert_no_canary(root: Path, outputs: list[str]) -> None:
    for text in outputs:
        assert AUTH_TOKEN not in text, text
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert AUTH_TOKEN.encode() not in path.read_bytes(), path


@pytest.mark.parametrize("how", ["url", "netrc"])
def test_canary_never_leaks(
    how: str, tmp_path: Path, pytorch_index_with_auth: ServedIndex, faulty_server: ServerFactory
) -> None:
    index = pytorch_index_with_auth
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        PYTHONPATH=str(ROOT),
        SOME_SERVICE_TOKEN=AUTH_TOKEN,  # an unrelated secret in the environment
    )
    if how == "url":
        env["ENVGEN_PYTORCH_INDEX"] = index.with_auth(index.root_url)
        env["ENVGEN_PYPI_INDEX"] = index.with_auth(index.pypi_url)
    else:
        netrc = tmp_path / "netrc"
        netrc.write_text(f"machine 127.0.0.1\nlogin envgen\npassword {AUTH_TOKEN}\n")
        netrc.chmod(0o600)
        env.update(NETRC=str(netrc), ENVGEN_PYTORCH_INDEX=index.root_url)
        env["ENVGEN_PYPI_INDEX"] = index.pypi_url
    outputs: list[str] = []
    code, out = envgen(["lock", "project.yaml"], env, proj)
    outputs.append(out)
    assert code == 0, out
    code, out = envgen(["check", "project.yaml"], env, proj)
    outputs.append(out)
    assert code == 0, out
    if how == "url":  # one build is enough: the netrc run differs only in how uv gets auth
        junit = proj / "smoke.xml"
        code, out = envgen(["build", "project.yaml", "--json", "--junit", str(junit)], env, proj)
        outputs.append(out)
        assert code in (0, 8), out  # the fake torch may fail smoke checks; reports are written
        assert junit.is_file()

    # Failing runs: the index answers 500, and a credentialed URL that is not allowed.
    server = faulty_server(index.dir, auth=index.auth)
    server.add_fault("/whl/cpu/torch/*", status=500)
    failing = dict(env)
    if how == "url":
        failing["ENVGEN_PYTORCH_INDEX"] = f"http://envgen:{AUTH_TOKEN}@127.0.0.1:{server.port}/whl"
    else:
        failing["ENVGEN_PYTORCH_INDEX"] = f"{server.url}/whl"
    code, out = envgen(["lock", "project.yaml", "--upgrade"], failing, proj)
    outputs.append(out)
    assert code == 6, out
    assert "Traceback" not in out
    bad = dict(env, ENVGEN_PYPI_INDEX=f"http://envgen:{AUTH_TOKEN}@mirror.example/simple")
    code, out = envgen(["lock", "project.yaml"], bad, proj)
    outputs.append(out)
    assert code == 3, out
    assert_no_canary(proj, outputs)
    assert any("***@" in o for o in outputs) or how == "netrc"


def test_credentials_never_reach_a_command_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pytorch_index_with_auth: ServedIndex,
    conda_channel: CondaChannel,
) -> None:
    """Every process envgen starts (uv, pip-compile) gets the mirror credentials, none in argv.

    `ps` shows any process's argv to every local user; the environment only to its owner.
    envgen.infra.proc is the only process starter, so wrapping its `run` sees every command.
    """
    index = pytorch_index_with_auth
    started: list[tuple[tuple[str, ...], dict[str, str]]] = []
    real_run = _proc.run

    def recording(args: Sequence[str | os.PathLike[str]], **kw: Any) -> _proc.Completed:
        started.append((tuple(os.fspath(a) for a in args), dict(kw.get("env") or {})))
        return real_run(args, **kw)

    monkeypatch.setattr(_proc, "run", recording)
    alias = tmp_path / "channels"
    alias.mkdir()
    (alias / "pytorch").symlink_to(conda_channel.path)
    for name, value in (
        ("ENVGEN_PYTORCH_INDEX", index.with_auth(index.root_url)),
        ("ENVGEN_PYPI_INDEX", index.with_auth(index.pypi_url)),
        ("ENVGEN_CONDA_CHANNEL_ALIAS", alias.as_uri()),
        ("ENVGEN_CACHE_DIR", str(tmp_path / "cache")),
    ):
        monkeypatch.setenv(name, value)
    spec_path = tmp_path / "proj" / "project.yaml"
    spec_path.parent.mkdir()
    spec_path.write_text(SPEC.replace("managers: [pip]", "managers: [pip, conda]"))
    lock(LockOptions(spec=spec_path, matrix_dir=MINI))
    lock(LockOptions(spec=spec_path, matrix_dir=MINI, check=True))
    lock(LockOptions(spec=spec_path, matrix_dir=MINI, resolver="pip-tools", upgrade=True))
    report = build_variants(
        load_spec(spec_path),
        load_matrix(MINI),
        spec_path.parent / "environments",
        manager="pip",
        smoke=False,
        allow_stale=True,
    )
    assert [b.status for b in report.builds] == ["built"], report
    commands = {" ".join([Path(args[0]).name, *args[1:3]]) for args, _ in started}
    # The pip locker (twice: lock, check), the conda pip: section, pip-tools and the build.
    assert {"uv pip compile", "pip-compile --generate-hashes --allow-unsafe", "uv pip sync"} <= (
        commands
    ), commands
    leaked = [args for args, _ in started if any(AUTH_TOKEN in a for a in args)]
    assert leaked == []
    # ... and they did get the credentials, through their environment.
    assert all(
        any(AUTH_TOKEN in v for v in env.values())
        for args, env in started
        if Path(args[0]).name in ("uv", "pip-compile") and args[1] != "venv"
    )
