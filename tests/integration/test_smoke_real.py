"""Integration tests of run_smoke: fake interpreters (crash, garbage, timeout) and real torch.

The `slow` tests build a uv venv with the torch 2.13.0 CPU wheel from /opt/wheels (its
dependencies come from PyPI) once per session, and run the real smoke script in it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from envgen.errors import SmokeTestError
from envgen.infra import proc as _proc
from envgen.smoke.report import (
    SmokeCheck,
    SmokeExpectation,
    SmokeReport,
    raise_for_failures,
    run_smoke,
)

pytestmark = pytest.mark.integration

WHEELS = Path("/opt/wheels")
TORCH = "2.13.0"
# torchvision wheels from another torch release, to see the real mismatch message.
OTHER_TORCHVISION_INDEX = Path("/opt/pypi-more/simple")
CPU_SLIPPED_IN = (
    "torch is a CPU-only build (torch.version.cuda is None) but the variant is cu118: "
    "a +cpu wheel slipped in"
)
NMS_MISMATCH = "torchvision does not match torch (operator torchvision::nms does not exist)"
GPU_CHECKS = (
    "available",
    "device",
    "arch-supported",
    "matmul",
    "cudnn-conv",
    "autocast",
    "pinned-copy",
    "memory",
)


def fake_python(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "python"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return path


# --- fake interpreters -----------------------------------------------------------------------
def test_fixed_json(tmp_path: Path) -> None:
    python = fake_python(
        tmp_path,
        """echo '[{"tier": "gpu", "name": "memory", "status": "skip", "detail": "CPU build", """
        """"seconds": 0.01}]'""",
    )
    assert run_smoke(python, SmokeExpectation(kind="cpu")) == SmokeReport(
        checks=(
            SmokeCheck(tier="gpu", name="memory", status="skip", detail="CPU build", seconds=0.01),
        ),
        python=str(python),
    )


def test_crash_is_a_failing_check(tmp_path: Path) -> None:
    python = fake_python(
        tmp_path,
        'echo "envgen-smoke: running cpu/import:torch" >&2\necho "about to die" >&2\nkill -SEGV $$',
    )
    report = run_smoke(python, SmokeExpectation(kind="cpu"))
    assert report.checks == (
        SmokeCheck(
            tier="cpu",
            name="smoke-script",
            status="fail",
            detail=(
                "the interpreter was killed by SIGSEGV while running cpu/import:torch\nabout to die"
            ),
        ),
    )


def test_garbage_is_a_failing_check(tmp_path: Path) -> None:
    python = fake_python(tmp_path, "echo 'Python 2.7.18'")
    assert run_smoke(python, SmokeExpectation(kind="cpu")).checks == (
        SmokeCheck(
            tier="cpu",
            name="smoke-script",
            status="fail",
            detail="the smoke script printed something that is not a report: 'Python 2.7.18'",
        ),
    )


def test_timeout_is_a_failing_check(tmp_path: Path) -> None:
    python = fake_python(tmp_path, "exec sleep 10")
    report = run_smoke(python, SmokeExpectation(kind="cpu"), timeout=0.5)
    assert [(c.name, c.status, c.detail.splitlines()[0]) for c in report.checks] == [
        ("smoke-script", "fail", "smoke test timed out after 0.5 s")
    ]


def test_missing_interpreter_is_a_failing_check(tmp_path: Path) -> None:
    python = tmp_path / "no-env/bin/python"
    assert run_smoke(python, SmokeExpectation(kind="cpu")).checks == (
        SmokeCheck(
            tier="cpu",
            name="smoke-script",
            status="fail",
            detail=f"{python} is not installed or not on PATH (needed for smoke test)",
        ),
    )


def test_real_script_without_torch() -> None:
    """The dev interpreter has no torch: the script must still report every check."""
    report = run_smoke(Path(sys.executable), SmokeExpectation(kind="cpu"))
    assert [(c.tier, c.name, c.status) for c in report.failed] == [("cpu", "import:torch", "fail")]
    assert report.failed[0].detail == "ModuleNotFoundError: No module named 'torch'"
    assert {c.detail for c in report.skipped} == {
        "not in this variant",
        "torch did not import (see cpu/import:torch)",
    }
    assert len(report.checks) == 22


# --- real torch ------------------------------------------------------------------------------
def _torch_wheel() -> Path | None:
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    found = sorted(WHEELS.glob(f"torch-{TORCH}+cpu-{tag}-*.whl")) if WHEELS.is_dir() else []
    return found[0] if found else None


def _uv_pip_install(python: Path, *args: str) -> None:
    uv = _proc.require("uv", why="build the smoke-test venv")
    _proc.run(
        [uv, "pip", "install", "--quiet", "--python", python, *args],
        what="uv pip install",
        env=_proc.clean_env(),  # no PIP_*/UV_*: PyPI plus the flags given, nothing else
        timeout=900,
    )


def _make_torch_venv(path: Path) -> Path:
    """A venv with the CPU torch wheel from /opt/wheels; its dependencies come from PyPI."""
    uv = _proc.require("uv", why="build the smoke-test venv")
    env = _proc.clean_env()
    _proc.run([uv, "venv", "--quiet", "--python", sys.executable, path], what="uv venv", env=env)
    python = path / "bin" / "python"
    _uv_pip_install(python, "--find-links", str(WHEELS), f"torch=={TORCH}+cpu")
    return python


@pytest.fixture(scope="session")
def torch_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if _torch_wheel() is None:
        pytest.skip(f"no torch {TORCH}+cpu wheel for this Python in {WHEELS}")
    root = tmp_path_factory.mktemp("smoke-venv")
    return _make_torch_venv(root / "cpu")


@pytest.fixture(scope="session")
def torch_version(torch_python: Path) -> str:
    """What importlib.metadata says for the installed wheel (the lock pins this string)."""
    result = _proc.run(
        [torch_python, "-c", "import importlib.metadata as m; print(m.version('torch'))"],
        what="read torch's version",
    )
    return result.stdout.strip()


def _summary(report: SmokeReport) -> list[tuple[str, str, str, str]]:
    return [(c.tier, c.name, c.status, c.detail) for c in report.checks if c.name != "import:torch"]


@pytest.mark.slow
def test_cpu_variant_passes(torch_python: Path, torch_version: str) -> None:
    assert torch_version == f"{TORCH}+cpu"
    expect = SmokeExpectation(kind="cpu", distributions={"torch": torch_version})
    report = run_smoke(torch_python, expect)
    assert report.checks[0].status == "pass"
    assert report.checks[0].detail.startswith(f"torch {TORCH}+cpu from ")
    skip_tv, skip_ta = "not in this variant", "not in this variant"
    assert _summary(report) == [
        ("cpu", "import:torchvision", "skip", skip_tv),
        ("cpu", "import:torchaudio", "skip", skip_ta),
        ("cpu", "version:torch", "pass", f"torch {TORCH}+cpu"),
        ("cpu", "build", "pass", "CPU-only build (torch.version.cuda is None)"),
        ("cpu", "arch-list", "skip", "CPU build"),
        ("cpu", "cuda-libraries", "skip", "CPU build"),
        ("cpu", "tensor-math", "pass", "matmul and sum give the known answers"),
        ("cpu", "autograd", "pass", "d/dx x^3 at x=2 == 12"),
        ("cpu", "convnet-forward", "pass", "tiny conv net on 1x3x64x64 -> (1, 10)"),
        ("cpu", "torchvision:nms", "skip", skip_tv),
        ("cpu", "torchvision:resnet18", "skip", skip_tv),
        ("cpu", "torchvision:image-decode", "skip", skip_tv),
        ("cpu", "torchaudio:resample", "skip", skip_ta),
        ("cpu", "torchaudio:save-load", "skip", skip_ta),
        *[("gpu", name, "skip", "CPU build") for name in GPU_CHECKS],
    ]
    assert report.ok
    raise_for_failures(report, "cpu")


@pytest.mark.slow
def test_cu118_variant_catches_the_cpu_wheel(torch_python: Path, torch_version: str) -> None:
    expect = SmokeExpectation(
        kind="cuda", version="11.8", distributions={"torch": f"{TORCH}+cu118"}
    )
    report = run_smoke(torch_python, expect)
    assert [(c.tier, c.name, c.detail) for c in report.failed] == [
        (
            "cpu",
            "version:torch",
            f"torch {torch_version} is installed but the lock says {TORCH}+cu118",
        ),
        ("cpu", "build", CPU_SLIPPED_IN),
    ]
    assert {c.detail for c in report.checks if c.tier == "gpu"} == {"CPU build"}
    with pytest.raises(SmokeTestError) as info:
        raise_for_failures(report, "cu118")
    assert str(info.value) == (
        f"cu118: 2 of 23 smoke checks failed\n"
        f"  - cpu/version:torch: torch {torch_version} is installed but the lock says "
        f"{TORCH}+cu118\n"
        f"  - cpu/build: {CPU_SLIPPED_IN}"
    )


@pytest.mark.slow
def test_torchvision_from_another_release(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A torchvision built for another torch fails to import with the real nms message."""
    if _torch_wheel() is None:
        pytest.skip(f"no torch {TORCH}+cpu wheel for this Python in {WHEELS}")
    if not (OTHER_TORCHVISION_INDEX / "torchvision").is_dir():
        pytest.skip(f"no torchvision wheels in {OTHER_TORCHVISION_INDEX}")
    python = _make_torch_venv(tmp_path_factory.mktemp("smoke-tv") / "tv")
    _uv_pip_install(
        python, "--no-deps", "--index-url", OTHER_TORCHVISION_INDEX.as_uri(), "torchvision==0.28.0"
    )
    expect = SmokeExpectation(kind="cpu", companions=frozenset({"torchvision"}))
    report = run_smoke(python, expect)
    tv = [(c.name, c.status, c.detail) for c in report.checks if "torchvision" in c.name]
    after = "torchvision did not import (see cpu/import:torchvision)"
    assert tv == [
        ("import:torchvision", "fail", NMS_MISMATCH),
        ("torchvision:nms", "skip", after),
        ("torchvision:resnet18", "skip", after),
        ("torchvision:image-decode", "skip", after),
    ]
