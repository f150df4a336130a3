"""The issue's end to end, with the real torch 2.13.0 wheel: the bundled example's committed cpu
lock is vaulted (torch from a local mirror of /opt/wheels, the rest from PyPI), every cache is
deleted, the network is cut (PyPI given as a closed port on 127.0.0.1, the torch mirror removed,
uv offline), the environment is built from the vault and smoke-tested, then packed, unpacked
under another path and smoke-tested there with its own interpreter.

Slow (a 190 MB wheel, a ~950 MB environment packed); downloaded files are kept in
~/.cache/envgen-test/vault so a second run fetches nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tarfile
from pathlib import Path
from typing import Final

import pytest

from envgen.app import build, pack, vault
from envgen.build.bytecode import store_folder, wait_for_store
from envgen.build.options import BuildOptions
from envgen.infra import proc
from envgen.infra.mirror import build_mirror
from envgen.infra.settings import Settings
from envgen.smoke.report import parse_report
from envgen.vault.pack import unpack
from envgen.vault.store import check, load_manifest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REPO: Final = Path(__file__).parents[2]
WHEEL: Final = Path("/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
KEPT: Final = Path.home() / ".cache" / "envgen-test" / "vault"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_vault_build_offline_then_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if not WHEEL.exists():
        pytest.skip(f"the real torch wheel is not on this machine ({WHEEL})")
    for name in list(os.environ):
        if name.startswith(("UV_", "ENVGEN_", "PIP_", "VIRTUAL_ENV")):
            monkeypatch.delenv(name)
    project = tmp_path / "example"
    project.mkdir()
    shutil.copy(REPO / "project.yaml", project / "project.yaml")
    shutil.copytree(REPO / "environments", project / "environments")
    spec = project / "project.yaml"
    wheels, mirror = tmp_path / "wheels", tmp_path / "mirror"
    wheels.mkdir()
    (wheels / WHEEL.name).symlink_to(WHEEL)
    build_mirror(wheels, mirror)
    monkeypatch.setenv("ENVGEN_PYTORCH_INDEX", mirror.as_uri())
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    KEPT.mkdir(parents=True, exist_ok=True)
    root = KEPT
    vault(
        spec,
        None,
        out=None,
        variants=("cpu",),
        root=root,
        all_files=False,
        settings=Settings.from_environ(os.environ),
    )
    assert check(root) == []
    files = load_manifest(root).locks["example/cpu"].artifacts
    assert len(files) == 11  # one file per pin: the cp311 manylinux x86_64 wheel or a py3 one

    # Cut the network: no mirror, no caches, PyPI is a closed port, the vault a copy elsewhere.
    shutil.rmtree(mirror)
    shutil.rmtree(tmp_path / "cache", ignore_errors=True)
    monkeypatch.setenv("ENVGEN_PYPI_INDEX", f"http://127.0.0.1:{_closed_port()}/simple")
    monkeypatch.delenv("ENVGEN_PYTORCH_INDEX")
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "fresh-cache"))
    report = build(
        BuildOptions(
            spec=spec,
            variants=("cpu",),
            manager="pip",
            env_dir=tmp_path / "envs",
            jobs=1,
            settings=Settings.from_environ(os.environ),
            vault=str(root),
        )
    )
    report.raise_for_failures()
    smoke = report.builds[0].smoke
    assert smoke is not None
    assert smoke.ok
    assert {c.label: c.detail for c in smoke.passed}["cpu/version:torch"] == "torch 2.13.0+cpu"

    archive = pack(
        spec,
        None,
        variant="cpu",
        out=None,
        env_dir=tmp_path / "envs",
        output=tmp_path / "example-cpu.tar.gz",
        settings=Settings.from_environ(os.environ),
    )
    # The build's background bytecode job writes into the environment: wait before removing it.
    assert wait_for_store(store_folder(tmp_path / "fresh-cache", "cpython-311"), timeout=900)
    with tarfile.open(archive) as tar:
        assert not [n for n in tar.getnames() if "__pycache__" in n or n.endswith(".pyc")]
    shutil.rmtree(tmp_path / "envs")  # the packed environment must not need the original
    top = unpack(archive, tmp_path / "another" / "place")
    manifest = json.loads((top / "manifest.json").read_text())
    assert manifest["variant"] == "cpu"
    assert manifest["distributions"]["torch"] == "2.13.0+cpu"
    result = proc.run(
        [top / "smoke.sh"],
        what="packed smoke",
        env={"PATH": "/usr/bin:/bin"},
        check=False,
        timeout=600,
    )
    unpacked = parse_report(result.stdout, result.returncode, result.stderr)
    assert unpacked.ok, result.stderr[-2000:]
    detail = {c.label: c.detail for c in unpacked.passed}["cpu/import:torch"]
    assert detail.startswith(f"torch 2.13.0+cpu from {top}/env/lib/python3.11/site-packages")
