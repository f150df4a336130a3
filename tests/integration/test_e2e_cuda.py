"""End to end with a real CUDA build, through the CLI: torch 2.14.1 for CUDA 13.0 (PyPI's default
Linux build, ~5 GB with its nvidia-*-cu13 wheels) and torchvision 0.29.1, the cu130 variant of
examples/cuda-13, locked, built and smoke-tested on a machine without a GPU.

The proof, short of a GPU, that a cuXXX variant is what it says: the CPU-side checks pass
(torch.version.cuda is 13.0, torch's CUDA part and the CUDA libraries load and the runtime
reports 13.0, torchvision::nms is registered) and every GPU check skips with its reason.

Opt-in (it installs ~5 GB): ENVGEN_TEST_CUDA_E2E=1, and the torch wheel must be on this machine's
local indexes (/opt/pypi-more and /opt/pypi, merged by scripts/merge_indexes.py into one PyPI
stand-in given as ENVGEN_PYPI_INDEX; cuda-bindings, which they lack, is fetched from PyPI).
Nothing asks download.pytorch.org: the cu130 build of 2.14.1 is PyPI's own. Several minutes
cold; ENVGEN_E2E_CACHE keeps the package cache warm across runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess  # noqa: TID251 - the test runs envgen and the env's python as real processes
import sys
from pathlib import Path
from typing import Final

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT: Final = Path(__file__).resolve().parents[2]
EXAMPLE: Final = ROOT / "examples" / "cuda-13"
OPT_IN: Final = "ENVGEN_TEST_CUDA_E2E"
WHEEL: Final = Path("/opt/pypi-more/files/torch-2.14.1-cp311-cp311-manylinux_2_28_x86_64.whl")
LOCAL_INDEXES: Final = (Path("/opt/pypi-more/simple"), Path("/opt/pypi/simple"))
FETCH: Final = "cuda-bindings==13.4.3"  # as `make example-cuda` (Makefile CUDA_FETCH)
NO_DEVICE: Final = "no CUDA device visible (torch.cuda.is_available() is False)"

if os.environ.get(OPT_IN) != "1":
    pytest.skip(
        f"opt-in: set {OPT_IN}=1 to lock, build and smoke the real CUDA 13.0 torch "
        "(installs ~5 GB)",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def pypi_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This machine's local indexes merged into one, plus the fetched cuda-bindings wheel."""
    if not WHEEL.exists() or not all(i.is_dir() for i in LOCAL_INDEXES):
        pytest.skip(f"the CUDA 13.0 torch wheel or its local indexes are not here ({WHEEL})")
    root = tmp_path_factory.mktemp("pypi") / "simple"
    # `make example-cuda`'s fetched wheel when there; else fetched again (7 MB from PyPI).
    made = ROOT / ".envgen-mirror" / "pypi.wheels"
    fetch_dir = made if any(made.glob("cuda_bindings-*.whl")) else root.with_name("wheels")
    subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "merge_indexes.py"),
            str(root),
            *map(str, LOCAL_INDEXES),
            "--fetch",
            FETCH,
            "--fetch-dir",
            str(fetch_dir),
        ],
        check=True,
        capture_output=True,
    )
    return root


@pytest.fixture
def env(pypi_index: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    cache = os.environ.get("ENVGEN_E2E_CACHE") or str(tmp_path_factory.getbasetemp() / "cache")
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("UV_", "ENVGEN_", "PIP_", "VIRTUAL_ENV"))
    }
    # The PyTorch index is pointed nowhere: a request to it would fail the run.
    return clean | {
        "ENVGEN_PYPI_INDEX": pypi_index.as_uri(),
        "ENVGEN_PYTORCH_INDEX": "file:///nonexistent/download.pytorch.org/whl",
        "ENVGEN_CACHE_DIR": cache,
    }


def envgen(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "envgen", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_real_cuda_13_variant_end_to_end(env: dict[str, str], tmp_path: Path) -> None:
    # The committed lock of examples/cuda-13 is current against these indexes.
    checked = envgen(
        "lock", str(EXAMPLE / "project.yaml"), "--variant", "cu130", "--check", env=env, cwd=ROOT
    )
    assert checked.returncode == 0, checked.stderr

    # A fresh lock elsewhere gives the committed bytes.
    project = tmp_path / "cuda-13"
    project.mkdir()
    shutil.copy(EXAMPLE / "project.yaml", project / "project.yaml")
    locked = envgen("lock", "project.yaml", "--variant", "cu130", env=env, cwd=project)
    assert locked.returncode == 0, locked.stderr
    lock = (project / "environments" / "cu130" / "requirements.txt").read_text()
    assert lock == (EXAMPLE / "environments" / "cu130" / "requirements.txt").read_text()
    assert "torch==2.14.1 \\" in lock
    assert "nvidia-cuda-runtime==13.0." in lock
    assert "download.pytorch.org" not in lock
    assert "file:" not in lock

    built = envgen("build", "project.yaml", "--variant", "cu130", "--json", env=env, cwd=project)
    print(built.stderr)  # noqa: T201 - the build line (time, disk) in the test's output
    assert built.returncode == 0, built.stderr
    [report] = json.loads(built.stdout)
    assert report["variant"] == "cu130"
    checks = {(c["tier"], c["name"]): c for c in report["checks"]["checks"]}
    for tier, name in checks:
        print(f"{tier}/{name}: {checks[tier, name]['status']}: {checks[tier, name]['detail']}")  # noqa: T201
    assert report["checks"]["failed"] == 0

    def passed(name: str) -> str:
        check = checks["cpu", name]
        assert check["status"] == "pass", check
        return str(check["detail"])

    assert passed("version:torch") == "torch 2.14.1"
    assert passed("version:torchvision") == "torchvision 0.29.1"
    assert passed("import:torch").startswith("torch 2.14.1+cu130 from ")
    assert passed("build") == "CUDA 13.0 build"
    libraries = passed("cuda-libraries")
    assert libraries.startswith("CUDA runtime 13.0 (")
    assert "libcudart.so.13" in libraries
    assert "libcublas.so.13" in libraries
    assert "libcudnn.so.9" in libraries
    assert passed("torchvision:nms") == "ops.nms kept [0, 2]"
    for name in ("arch-list", "tensor-math", "convnet-forward", "torchvision:resnet18"):
        passed(name)
    gpu = {c["status"] for (tier, _), c in checks.items() if tier == "gpu"}
    assert gpu == {"skip"}
    assert {c["detail"] for (tier, _), c in checks.items() if tier == "gpu"} == {NO_DEVICE}

    # The environment is the lock: its own python reports the CUDA build.
    python = project / "environments" / "cu130" / ".env" / "bin" / "python"
    probe = subprocess.run(
        [str(python), "-c", "import torch; print(torch.version.cuda, torch.cuda.is_available())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert probe.stdout.split() == ["13.0", "False"]
