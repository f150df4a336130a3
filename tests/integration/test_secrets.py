"""A canary token in index URLs, a netrc file and the environment never leaks.

The loopback index requires basic auth (user `envgen`, token `CANARY-TOKEN-1234`). envgen gets
the credentials three ways (in ENVGEN_PYTORCH_INDEX / ENVGEN_PYPI_INDEX URLs, in a netrc file
named by NETRC, and as an unrelated environment variable), runs `lock -vv`, `build -vv` with
`--json` and `--junit`, `check`, and a failing run; then every file under the project and
every byte of output is searched for the canary.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from envgen.app import LockOptions, lock
from envgen.build.orchestrate import build_variants
from envgen.infra import proc as _proc
from envgen.infra.settings import Settings
from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from tests.integration.test_lock_conda import channels, nvidia_channel  # noqa: F401 - fixtures
from tests.support.cli import run_cli
from tests.support.conda_channel import CondaChannel
from tests.support.fixtures import (
    AUTH_TOKEN,
    AUTH_USER,
    ServedIndex,
    ServerFactory,
    clean_tool_env,
)

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
SPEC: Final = (
    'name: secret\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)


def envgen(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    return run_cli(args, env, cwd, verbose=True)


def assert_no_canary(root: Path, outputs: list[str]) -> None:
    for text in outputs:
        assert AUTH_TOKEN not in text, text
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert AUTH_TOKEN.encode() not in path.read_bytes(), path


@pytest.mark.parametrize("how", ["url", "netrc"])
@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
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


def _record_commands(
    monkeypatch: pytest.MonkeyPatch,
) -> list[tuple[tuple[str, ...], dict[str, str]]]:
    """(argv, env) of every command envgen starts from now on (envgen.infra.proc.run)."""
    started: list[tuple[tuple[str, ...], dict[str, str]]] = []
    real_run = _proc.run

    def recording(args: Sequence[str | os.PathLike[str]], **kw: Any) -> _proc.Completed:
        started.append((tuple(os.fspath(a) for a in args), dict(kw.get("env") or {})))
        return real_run(args, **kw)

    monkeypatch.setattr(_proc, "run", recording)
    return started


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
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
    started = _record_commands(monkeypatch)
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
    lock(LockOptions(spec=spec_path, matrix_dir=MINI, settings=Settings.from_environ(os.environ)))
    lock(
        LockOptions(
            spec=spec_path, matrix_dir=MINI, check=True, settings=Settings.from_environ(os.environ)
        )
    )
    lock(
        LockOptions(
            spec=spec_path,
            matrix_dir=MINI,
            resolver="pip-tools",
            upgrade=True,
            settings=Settings.from_environ(os.environ),
        )
    )
    report = build_variants(
        load_spec(spec_path),
        load_matrix(MINI),
        spec_path.parent / "environments",
        manager="pip",
        smoke=False,
        allow_stale=True,
        settings=Settings.from_environ(os.environ),
    )
    assert [b.status for b in report.builds] == ["built"], report
    commands = {" ".join([Path(args[0]).name, *args[1:3]]) for args, _ in started}
    # The pip locker (twice: lock, check), the conda pip: section, pip-tools and the build.
    assert {"uv pip compile", "pip-compile --generate-hashes --allow-unsafe", "uv pip sync"} <= (
        commands
    ), commands
    leaked = [args for args, _ in started if any(AUTH_TOKEN in a for a in args)]
    assert leaked == []
    # ... and they did get the credentials, through their environment (all that reach an
    # index: `uv venv` and `uv python find --no-python-downloads` stay on this machine; the
    # latter runs where no earlier test of the session found the interpreter first)
    assert all(
        any(AUTH_TOKEN in v for v in env.values())
        for args, env in started
        if Path(args[0]).name in ("uv", "pip-compile") and args[1] not in ("venv", "python")
    )


def test_extension_index_credentials_never_reach_a_command_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    channels: dict[str, str],  # noqa: F811 - the imported fixture
) -> None:
    """The conda pip: section's extension pages (ENVGEN_EXTENSION_INDEX) go to uv by env."""
    from envgen.lock.conda import CondaLocker
    from envgen.lock.locker import LockRequest
    from envgen.render.indexes import IndexUrls
    from tests.integration.test_extensions_conda import _cpu_variant, serve_pyg_and_pypi
    from tests.support.server import IndexServer

    pytest.importorskip("rattler")
    started = _record_commands(monkeypatch)
    variant = _cpu_variant(tmp_path)
    served = tmp_path / "served"
    wheel = serve_pyg_and_pypi(served)
    work = tmp_path / "w"
    work.mkdir()
    with IndexServer(served, auth=(AUTH_USER, AUTH_TOKEN)) as server:
        authed = f"http://{AUTH_USER}:{AUTH_TOKEN}@127.0.0.1:{server.port}"
        request = LockRequest(
            variant=variant,
            urls=IndexUrls(pypi=f"{authed}/pypi/simple", extension_root=f"{authed}/ext"),
            written_urls=IndexUrls(),
            conda_channels=channels,
            exclude_newer=None,
            resolver="uv",
            upgrade=False,
            upgrade_packages=(),
            previous={},
            workdir=work,
            cache_dir=work / "cache",
        )
        lockfile, explicit = CondaLocker().lock(request)
    uv = [(args, env) for args, env in started if Path(args[0]).name == "uv"]
    assert uv, started
    assert [args for args, _ in uv if any(AUTH_TOKEN in a for a in args)] == []
    assert any(AUTH_TOKEN in env.get("UV_FIND_LINKS", "") for _, env in uv)
    assert AUTH_TOKEN not in lockfile.body + explicit.body
    assert f"url: https://data.pyg.org/whl/{wheel.name}\n" in lockfile.body


def test_a_credential_bearing_channel_alias_is_refused_for_an_external_conda_tool(
    tmp_path: Path,
) -> None:
    """conda/mamba/micromamba take channels only on argv: with credentials, envgen refuses."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "argv.log"
    tool = bin_dir / "micromamba"  # a fake: logs its argv, reports a failed solve
    tool.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$@" >> {log}\n'
        'echo \'{"success": false, "message": "fake"}\'\nexit 1\n'
    )
    tool.chmod(0o755)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC.replace("managers: [pip]", "managers: [conda]"))
    env = clean_tool_env(tmp_path)
    env.update(
        PATH=f"{bin_dir}{os.pathsep}{env['PATH']}",
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        PYTHONPATH=str(ROOT),
        ENVGEN_CONDA_CHANNEL_ALIAS=f"http://{AUTH_USER}:{AUTH_TOKEN}@127.0.0.1:9/conda",
    )
    code, out = envgen(["lock", "project.yaml", "--conda-tool", "micromamba"], env, proj)
    assert AUTH_TOKEN not in out
    assert not log.exists() or AUTH_TOKEN not in log.read_text()
    assert code == 6, out
    assert (
        "[cpu] --conda-tool micromamba: the channel pytorch is solved at "
        "http://***@127.0.0.1:9/conda/pytorch, a URL with credentials (from "
        "ENVGEN_CONDA_CHANNEL_ALIAS); micromamba would get it on its command line, which every "
        "user of this machine can read (ps)\n  hint: use the default solver (py-rattler, no "
        "--conda-tool), which runs inside envgen, or a channel alias without credentials\n"
    ) in out
    assert_no_canary(proj, [out])
