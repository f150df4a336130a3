"""pylock.toml (PEP 751) beside requirements.txt: written by `envgen lock`, valid for packaging's
parser, the same pins and hashes, upload times where the index gives them; installed by real pip
(>= 26.1, `pip install -r pylock.toml`) and by uv; a hand edit is caught by `lock --check`; and
`envgen import` reads it.

Against the loopback index of fake wheels, with `write_index: mirror` so the written URLs are the
loopback ones the installers can reach.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from packaging.pylock import Pylock

from envgen.app import LockOptions, lock
from envgen.errors import StaleOutputError
from envgen.infra import proc
from envgen.infra.settings import Settings
from envgen.lock.lockfile import split_header
from envgen.lock.pylock import pylock_problems
from tests.support.fixtures import ServedIndex

pytestmark = pytest.mark.integration
MINI = Path(__file__).parents[1] / "data" / "matrix-mini"
SPEC = """\
name: pl
python: "3.11"
torch: "2.1.0"
torchvision: false
torchaudio: false
accelerators: [cpu]
managers: [pip]
pip: ["numpy<2"]
write_index: mirror
pytorch_index: {root}/whl
pypi_index: {root}/pypi/simple
trusted_hosts: [127.0.0.1]
"""


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pytorch_index: ServedIndex) -> Path:
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "proj" / "project.yaml"
    spec.parent.mkdir()
    spec.write_text(SPEC.format(root=pytorch_index.base_url))
    lock(LockOptions(spec=spec, matrix_dir=MINI, settings=Settings.from_environ(os.environ)))
    return spec.parent / "environments" / "cpu"


def test_pylock_matches_requirements_and_uv_installs_it(locked: Path, tmp_path: Path) -> None:
    text = (locked / "pylock.toml").read_text()
    requirements = (locked / "requirements.txt").read_text()
    assert split_header(text)[0]["input-hash"] == split_header(requirements)[0]["input-hash"]
    assert pylock_problems(split_header(text)[1], split_header(requirements)[1]) == []
    parsed = Pylock.from_dict(tomllib.loads(text))
    names = {str(p.name): p for p in parsed.packages}
    assert str(names["torch"].version) == "2.1.0+cpu"
    assert all(w.upload_time is not None for p in parsed.packages for w in p.wheels or ())
    assert all(w.size for p in parsed.packages for w in p.wheels or ())

    uv = proc.require("uv", why="tests")
    target = tmp_path / "uv-venv"
    env = {**proc.clean_env(), "UV_CACHE_DIR": str(tmp_path / "uv-cache")}
    proc.run([uv, "venv", "-q", "--python", "3.11", target], what="uv venv", env=env, timeout=120)
    proc.run(
        [uv, "pip", "install", "--python", target / "bin" / "python", "-r", locked / "pylock.toml"],
        what="uv pip install",
        env=env,
        timeout=300,
    )
    shown = proc.run(
        [uv, "pip", "freeze", "--python", target / "bin" / "python"],
        what="uv pip freeze",
        env=env,
        timeout=60,
    )
    assert "torch==2.1.0+cpu" in shown.stdout.split()


@pytest.mark.slow
def test_pip_26_installs_pylock(locked: Path, tmp_path: Path) -> None:
    """Real pip >= 26.1 (upgraded from PyPI in a fresh venv: ~15 s) reads `-r pylock.toml`."""
    work = tmp_path / "pip-venv"
    proc.run(["python3.11", "-m", "venv", work], what="venv", timeout=120)
    clean = {**proc.clean_env(), "PIP_CONFIG_FILE": os.devnull}
    pip = [str(work / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    proc.run([*pip, "install", "-q", "pip>=26.1"], what="pip upgrade", env=clean, timeout=300)
    proc.run([*pip, "install", "-r", locked / "pylock.toml"], what="pip", env=clean, timeout=300)
    listed = proc.run([*pip, "list", "--format=freeze"], what="pip list", env=clean, timeout=60)
    assert "torch==2.1.0+cpu" in listed.stdout.split()
    assert "numpy==1.26.4" in listed.stdout.split()


def test_hand_edited_pylock_is_caught(locked: Path) -> None:
    path = locked / "pylock.toml"
    text = path.read_text()
    torch = Pylock.from_dict(tomllib.loads(text)).packages
    digest = next(p for p in torch if str(p.name) == "torch").wheels[0].hashes["sha256"]  # type: ignore[index]
    path.write_text(text.replace(digest, "0" * 64))
    spec = locked.parents[1] / "project.yaml"
    with pytest.raises(StaleOutputError) as info:
        lock(
            LockOptions(
                spec=spec, matrix_dir=MINI, check=True, settings=Settings.from_environ(os.environ)
            )
        )
    assert "cpu/pylock.toml: the body does not match its content-hash" in str(info.value)
    assert "cpu/pylock.toml: torch: its hashes differ from requirements.txt's" in str(info.value)


def test_an_index_without_file_hashes_locks_without_a_pylock(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pytorch_index: ServedIndex,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An index page that lists torch's files without `#sha256=` (as torch_stable.html and
    hand-made mirrors do) cannot give a pylock.toml its file URLs: the requirements lock is
    still made, the pylock.toml is left out with a warning, and the check accepts that."""
    import re
    import shutil

    from tests.support.server import IndexServer

    served = tmp_path / "served"
    shutil.copytree(pytorch_index.dir, served)
    for page in (served / "whl").rglob("torch/index.html"):
        page.write_text(re.sub(r"#sha256=[0-9a-f]{64}", "", page.read_text()))
    for page in (served / "whl").rglob("torch/index.json"):
        page.unlink()
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "proj" / "project.yaml"
    spec.parent.mkdir()
    with IndexServer(served) as server, caplog.at_level("WARNING", logger="envgen"):
        spec.write_text(SPEC.format(root=server.url))
        settings = Settings.from_environ(os.environ)
        lock(LockOptions(spec=spec, matrix_dir=MINI, settings=settings))
        lock(LockOptions(spec=spec, matrix_dir=MINI, check=True, settings=settings))
    out = spec.parent / "environments" / "cpu"
    assert (out / "requirements.txt").is_file()
    assert not (out / "pylock.toml").exists()
    assert "pylock.toml not written (requirements.txt is the lock)" in caplog.text
