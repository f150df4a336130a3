"""`envgen vault` and `envgen build --vault` against a loopback index and channel of fake packages.

The variant is locked (pip with uv, conda with py-rattler) against a private index server, vaulted,
and the server is stopped before the build: every file must come from the vault. Then the vault
is checked, tampered with, garbage-collected, and pushed to / pulled from a real S3 API (moto's
server on 127.0.0.1).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from envgen.app import LockOptions, build, lock, vault
from envgen.build.options import BuildOptions
from envgen.cli import main
from envgen.errors import BuildError
from envgen.infra import proc
from envgen.infra.settings import Settings
from envgen.render.dockerfile import _vault_args
from envgen.vault.store import check, gc, load_manifest
from tests.support.conda_channel import CondaChannel, write_channel
from tests.support.index import build_index_tree
from tests.support.server import IndexServer

pytestmark = pytest.mark.integration
MINI = Path(__file__).parents[1] / "data" / "matrix-mini"
SPEC = """\
name: vaulted
python: "3.11"
torch: "2.1.0"
accelerators: [cpu]
managers: [pip, conda]
pip: ["numpy<2"]
"""


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def cli(args: tuple[str, ...]) -> None:
    """envgen's real entry point (its error handling and exit codes), for CliRunner."""
    main(list(args))


@pytest.fixture
def served(tmp_path: Path, fake_wheels: Path) -> Iterator[IndexServer]:
    wheels = {p.name: p for p in fake_wheels.glob("*.whl")}
    tree = build_index_tree(tmp_path / "index", wheels=wheels, upload_times=True)
    with IndexServer(tree.root) as server:
        yield server


@pytest.fixture
def project(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    served: IndexServer,
    conda_channel: CondaChannel,
) -> Path:
    channels = tmp_path / "channels"
    shutil.copytree(conda_channel.path, channels / "pytorch")
    write_channel(channels / "nvidia", "nvidia", [])
    monkeypatch.setenv("ENVGEN_PYTORCH_INDEX", f"{served.url}/whl")
    monkeypatch.setenv("ENVGEN_PYPI_INDEX", f"{served.url}/pypi/simple")
    monkeypatch.setenv("ENVGEN_CONDA_CHANNEL_ALIAS", channels.as_uri())
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "proj" / "project.yaml"
    spec.parent.mkdir()
    spec.write_text(SPEC)
    lock(LockOptions(spec=spec, matrix_dir=MINI, settings=Settings.from_environ(os.environ)))
    return spec


def _vault(spec: Path, root: Path) -> None:
    vault(
        spec,
        MINI,
        out=None,
        variants=("cpu",),
        root=root,
        all_files=False,
        settings=Settings.from_environ(os.environ),
    )


def _cut_network(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, served: IndexServer, channels: Path
) -> None:
    """Stop the original index, delete every cache and the original channel."""
    served.stop()
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)
    shutil.rmtree(channels)
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "fresh-cache"))


def _build(spec: Path, manager: str, root: Path | str, env_dir: Path) -> object:
    report = build(
        BuildOptions(
            spec=spec,
            matrix_dir=MINI,
            variants=("cpu",),
            manager=manager,
            env_dir=env_dir,
            smoke=False,  # fake torch wheels: the install is checked against the lock instead
            jobs=1,
            settings=Settings.from_environ(os.environ),
            vault=str(root),
        )
    )
    report.raise_for_failures()
    return report


def test_vault_then_offline_build(
    project: Path, tmp_path: Path, served: IndexServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "vault"
    _vault(project, root)
    manifest = load_manifest(root)
    assert list(manifest.locks) == ["vaulted/cpu"]
    kinds = sorted({a.kind for a in manifest.artifacts.values()})
    assert kinds == ["conda", "wheel"]
    names = {a.filename for a in manifest.artifacts.values()}
    assert "torch-2.1.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl" in names
    # Only the target's files: no Windows or aarch64 wheel, though the lock hashes them.
    assert not [n for n in names if "win_amd64" in n or "aarch64" in n]
    page = (root / "simple" / "torch" / "index.html").read_text()
    assert "#sha256=" in page
    assert 'href="../../files/sha256/' in page
    page_json = json.loads((root / "simple" / "torch" / "index.json").read_text())
    assert page_json["meta"] == {"api-version": "1.1"}
    assert all("upload-time" in f for f in page_json["files"])
    assert (root / "conda" / "pytorch" / "noarch" / "repodata.json").is_file()
    repodata = json.loads((root / "conda" / "pytorch" / "linux-64" / "repodata.json").read_text())
    assert any(
        n.startswith("pytorch-2.1.0")
        for n in repodata["packages"] | repodata.get("packages.conda", {})
    )

    # Vaulting again fetches nothing and writes the same bytes (deterministic pages).
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    served.clear_requests()
    _vault(project, root)
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
    assert not [p for p in served.requested_paths() if p.endswith((".whl", ".conda", ".bz2"))]

    _cut_network(monkeypatch, tmp_path, served, tmp_path / "channels")
    _build(project, "pip", root, tmp_path / "envs-pip")
    assert (tmp_path / "envs-pip" / "cpu" / "bin" / "python").exists()
    _build(project, "conda", root.as_uri(), tmp_path / "envs-conda")
    assert (tmp_path / "envs-conda" / "cpu" / "conda-meta").is_dir()
    # The generated Dockerfile's pip line, as written by `envgen dockerfile --vault URL`.
    target = tmp_path / "pip-target"
    args = _vault_args(root.as_uri()).split()
    lock_file = project.parent / "environments" / "cpu" / "requirements.txt"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--target", str(target)]
    proc.run(
        [*pip, "--require-hashes", "--no-deps", *args, "-r", lock_file],
        what="pip install from the vault",
        env={**proc.clean_env(), "PIP_CONFIG_FILE": os.devnull},
        timeout=300,
    )
    assert (target / "torch").is_dir()

    # A vault without one of the lock's files: the build names it before installing anything.
    numpy = next(
        a for a in manifest.artifacts.values() if a.project == "numpy" and a.kind == "wheel"
    )
    (root / numpy.path).rename(tmp_path / "numpy.whl")
    assert check(root) == [f"missing: {numpy.path}"]
    data = json.loads((root / "vault.json").read_text())
    del data["artifacts"][numpy.sha256]
    (root / "vault.json").write_text(json.dumps(data))
    with pytest.raises(BuildError) as info:
        _build(project, "pip", root, tmp_path / "envs-2")
    assert "the vault lacks 1 file(s) the lock needs:\n  - cpu: numpy==1.26.4 (sha256" in str(
        info.value
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def s3_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """moto's S3 server on 127.0.0.1 (a real S3 API over HTTP), stopped afterwards."""
    server_mod = pytest.importorskip("moto.server")
    boto3 = pytest.importorskip("boto3")
    port = _free_port()
    server = server_mod.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    url = f"http://127.0.0.1:{port}"
    boto3.client("s3", endpoint_url=url).create_bucket(Bucket="team")
    try:
        yield url
    finally:
        server.stop()


def test_push_pull_check_gc(project: Path, tmp_path: Path, s3_server: str) -> None:
    root = tmp_path / "vault"
    _vault(project, root)
    runner = CliRunner()
    args = ["--dir", str(root), "s3://team/envgen", "--endpoint-url", s3_server]
    first = runner.invoke(cli, ["vault", "push", *args])
    assert first.exit_code == 0, first.output
    total = len([p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")])
    assert first.output == f"pushed {total} file(s), 0 already there\n"
    again = runner.invoke(cli, ["vault", "push", *args])
    assert again.output == f"pushed 0 file(s), {total} already there\n"

    other = tmp_path / "elsewhere"
    pulled = runner.invoke(cli, ["vault", "pull", "--dir", str(other), *args[2:]])
    assert pulled.exit_code == 0, pulled.output
    stored = len(load_manifest(root).artifacts)
    assert pulled.output == f"pulled {stored} file(s), 0 already here\n"
    assert check(other) == []
    assert (other / "simple" / "torch" / "index.html").read_bytes() == (
        root / "simple" / "torch" / "index.html"
    ).read_bytes()
    # One file lost locally: a second pull fetches just that one.
    torch = next(a for a in load_manifest(other).artifacts.values() if a.project == "torch")
    (other / torch.path).unlink()
    repaired = runner.invoke(cli, ["vault", "pull", "--dir", str(other), *args[2:]])
    assert repaired.output == f"pulled 1 file(s), {stored - 1} already here\n"

    # check and gc on the first vault.
    assert check(root) == []
    torch = next(a for a in load_manifest(root).artifacts.values() if a.project == "torch")
    path = root / torch.path
    path.chmod(0o644)
    path.write_bytes(b"changed")
    result = CliRunner().invoke(cli, ["vault", "check", "--dir", str(root)])
    assert result.exit_code == 7
    assert f"changed: {torch.path} has sha256 " in result.output
    # A lock that no longer names a file (here: forgotten) leaves it to gc.
    data = json.loads((root / "vault.json").read_text())
    data["locks"]["vaulted/cpu"]["artifacts"].remove(torch.sha256)
    (root / "vault.json").write_text(json.dumps(data))
    dropped = gc(root)
    assert [a.filename for a in dropped] == [torch.filename]
    assert not path.exists()
    assert not (root / "simple" / "torch").exists()
    assert check(root) == []


def test_bad_s3_url_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "vault.json").write_text('{"format": 1}')
    result = CliRunner().invoke(cli, ["vault", "push", "--dir", str(tmp_path), "https://x/y"])
    assert result.exit_code == 2
    assert "'https://x/y' is not an s3://BUCKET[/PREFIX] URL (e.g. s3://team-vault/envgen)" in (
        result.output
    )
