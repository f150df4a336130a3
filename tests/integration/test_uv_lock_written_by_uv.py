"""`envgen import` of a uv.lock that real uv wrote (`uv lock` against the served PyTorch-like
indexes), and of a script's `uv sync` beside one: what envgen reads is what `uv export` (uv's own
reading of the lock for an extra) says `uv sync` installs on linux x86_64."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

from envgen.infra import proc as _proc
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from tests.support.fixtures import ServedIndex
from tests.support.importing import KEYS

_LINUX = {
    "os_name": "posix",
    "platform_machine": "x86_64",
    "platform_system": "Linux",
    "sys_platform": "linux",
    "platform_python_implementation": "CPython",
    "implementation_name": "cpython",
    "python_version": f"{sys.version_info.major}.{sys.version_info.minor}",
    "python_full_version": f"{sys.version_info.major}.{sys.version_info.minor}.0",
}

_EXTRAS = """\
[project]
name = "paper"
version = "0.1.0"
requires-python = ">=3.10"
dependencies = ["numpy"]

[project.optional-dependencies]
cpu = ["torch==2.1.0", "torchvision"]
cu121 = ["torch==2.1.0", "torchvision"]

[dependency-groups]
dev = ["filelock"]

[tool.uv]
conflicts = [[{{ extra = "cpu" }}, {{ extra = "cu121" }}]]

[tool.uv.sources]
torch = [{{ index = "torch-cpu", extra = "cpu" }}, {{ index = "torch-cu121", extra = "cu121" }}]
torchvision = [
  {{ index = "torch-cpu", extra = "cpu" }}, {{ index = "torch-cu121", extra = "cu121" }},
]

[[tool.uv.index]]
name = "torch-cpu"
url = "{root}/cpu"
explicit = true

[[tool.uv.index]]
name = "torch-cu121"
url = "{root}/cu121"
explicit = true

[[tool.uv.index]]
name = "pypi"
url = "{pypi}"
default = true
"""

_PLAIN = """\
[project]
name = "plain"
version = "0.1.0"
requires-python = "==3.11.*"
dependencies = ["torchaudio==2.0.2"]

[dependency-groups]
dev = ["filelock"]

[[tool.uv.index]]
name = "pypi"
url = "{pypi}"
default = true
"""


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **_proc.clean_env(),
        "UV_CACHE_DIR": str(tmp_path / "uv-cache"),
        "UV_PYTHON_DOWNLOADS": "never",
        "XDG_CONFIG_HOME": str(tmp_path / "no-config"),
    }


def _uv(*args: str, cwd: Path, tmp_path: Path) -> str:
    uv = _proc.which("uv")
    assert uv is not None
    result = _proc.run(
        [uv, *args], what="uv", cwd=cwd, env=_env(tmp_path), check=False, timeout=300
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def _locked(tmp_path: Path, text: str, served: ServedIndex) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text(text.format(root=served.root_url, pypi=served.pypi_url))
    _uv("lock", "--python", sys.executable, cwd=project, tmp_path=tmp_path)
    return project


def _exported(project: Path, tmp_path: Path, *args: str) -> dict[str, str]:
    """uv's own reading of the lock: the torch family `uv sync ARGS` installs on linux x86_64."""
    out = _uv(
        "export", *args, "--no-hashes", "--frozen", "--no-emit-project",
        cwd=project, tmp_path=tmp_path,
    )  # fmt: skip
    pins: dict[str, str] = {}
    for line in out.splitlines():
        if not line or line.startswith(("#", " ", "-")):
            continue
        req = Requirement(line)
        if req.marker is not None and not Marker(str(req.marker)).evaluate(_LINUX):
            continue
        if req.name in {"torch", "torchvision", "torchaudio", "filelock"}:
            pins[req.name] = str(req.specifier).removeprefix("==")
    return pins


def _import(path: Path, matrix: Matrix) -> tuple[dict[str, object], tuple[str, ...]]:
    result = run_import(ImportOptions(source=path, as_of="2024-01-01"), matrix)
    return {k: result.project.get(k) for k in KEYS}, result.warnings


def test_uv_lock_with_extras_reads_what_uv_export_says(
    pytorch_index: ServedIndex, tmp_path: Path, matrix: Matrix
) -> None:
    project = _locked(tmp_path, _EXTRAS, pytorch_index)
    # uv's own answer: the cu121 extra installs the +cu121 builds, the cpu extra the +cpu ones
    assert _exported(project, tmp_path, "--extra", "cu121") == {
        "torch": "2.1.0+cu121", "torchvision": "0.16.0+cu121", "filelock": "3.13.1",
    }  # fmt: skip
    assert _exported(project, tmp_path, "--extra", "cpu")["torch"] == "2.1.0+cpu"
    # A plain `uv sync` installs no torch: the first extra that does is read, and said.
    got, warnings = _import(project / "uv.lock", matrix)
    assert got == {
        "python": None, "torch": "2.1.0", "torchvision": "0.16.0", "torchaudio": False,
        "accelerators": ["cpu"], "managers": ["pip"],
    }  # fmt: skip
    assert any("a plain `uv sync` installs no torch; the extra cpu does" in w for w in warnings)
    # A script's `uv sync --extra cu121` beside the lock installs the lock's cu121 builds.
    (project / "install.sh").write_text("#!/bin/bash\nuv sync --extra cu121\n")
    got, warnings = _import(project / "install.sh", matrix)
    assert (got["torch"], got["torchvision"], got["accelerators"]) == (
        "2.1.0", "0.16.0", ["cu121"],
    )  # fmt: skip
    assert not any("no torch" in w for w in warnings)


def test_uv_sync_beside_a_plain_lock_reads_its_pins_not_the_ranges(
    pytorch_index: ServedIndex, tmp_path: Path, matrix: Matrix
) -> None:
    """The project asks for torchaudio==2.0.2 only; the lock holds the torch it brought
    (2.0.1, PyPI's build) and the python range one minor wide."""
    project = _locked(tmp_path, _PLAIN, pytorch_index)
    assert _exported(project, tmp_path) == {
        "torch": "2.0.1", "torchaudio": "2.0.2", "filelock": "3.13.1",
    }  # fmt: skip
    (project / "setup.sh").write_text("uv sync --frozen\nuv run python train.py\n")
    got, _ = _import(project / "setup.sh", matrix)
    assert (got["python"], got["torch"], got["torchaudio"], got["managers"]) == (
        "3.11", "2.0.1", "2.0.2", ["pip"],
    )  # fmt: skip
    assert got["accelerators"] == ["cu117"]  # PyPI's linux build of 2.0.1 (matrices/pip.yaml)


@pytest.mark.parametrize(("flag", "has_dev"), [("", True), (" --no-dev", False)])
def test_uv_sync_dev_group_follows_its_flags(
    pytorch_index: ServedIndex, tmp_path: Path, matrix: Matrix, flag: str, has_dev: bool
) -> None:
    """The `dev` group is synced unless `--no-dev` (here it brings torchvision); the unpinned
    torch is the lock's 2.1.0 either way, not the newest release as of the date (2.1.2)."""
    text = _PLAIN.replace('"torchaudio==2.0.2"', '"torch"').replace(
        'dev = ["filelock"]', 'dev = ["torchvision==0.16.0"]'
    )
    project = _locked(tmp_path, text, pytorch_index)
    (project / "setup.sh").write_text(f"uv sync{flag}\n")
    got, _ = _import(project / "setup.sh", matrix)
    assert (got["torch"], got["torchvision"]) == ("2.1.0", "0.16.0" if has_dev else False)
