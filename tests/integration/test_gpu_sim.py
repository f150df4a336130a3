"""The smoke script's GPU decisions, driven through a table on a REAL torch with a faked device.

tests/support/gpu_sim.py runs in a venv holding the local torch 2.13.0 CPU wheel: it fakes only
what a machine without a GPU cannot answer (device count, capability and properties per device,
the compile-time arch flags, the driver's libcuda, cuDNN's presence, ROCm, the AMD kernel
driver's topology) and removes what older releases lack (profiles "1.0" and "1.6"), then runs
the real checks. "ran" means the decisions said run and the CPU wheel then refused the device.
The last tests hold the fakes other tests use (tests/support/wheels.py) to the real wheel.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import envgen
from envgen.infra import proc as _proc
from tests.support.wheels import torch_files

pytestmark = [pytest.mark.integration, pytest.mark.slow]

WHEELS = Path("/opt/wheels")
CACHE = Path.home() / ".cache" / "envgen-test" / "gpu-sim"
TORCH = "2.13.0"
SCRIPT = Path(envgen.__file__).parent / "smoke" / "script.py"
RUNNER = Path(__file__).parents[1] / "support" / "gpu_sim.py"

A100 = {"name": "NVIDIA A100", "capability": [8, 0]}
RTX3090 = {"name": "NVIDIA GeForce RTX 3090", "capability": [8, 6]}
H100 = {"name": "NVIDIA H100", "capability": [9, 0]}
GB300 = {"name": "NVIDIA GB300", "capability": [10, 3]}
GB10 = {"name": "NVIDIA GB10", "capability": [12, 1]}
RTX5090 = {"name": "NVIDIA GeForce RTX 5090", "capability": [12, 0]}
T4 = {"name": "Tesla T4", "capability": [7, 5]}
V100 = {"name": "Tesla V100", "capability": [7, 0]}
MI250X = {
    "name": "AMD Instinct MI250X",
    "capability": [9, 0],
    "gcnArchName": "gfx90a:sramecc+:xnack-",
}
MI300X = {
    "name": "AMD Instinct MI300X",
    "capability": [9, 4],
    "gcnArchName": "gfx942:sramecc+:xnack-",
}
MI250X_OLD = {"name": "AMD Instinct MI250X", "capability": [9, 0]}  # torch 1.12-2.1: no gcnArchName
CU130 = "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120"  # 2.13.0 cu130 (gpu-archs.yaml)
CU124 = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"  # 2.6.0 cu124: no sm_120, no PTX
ROCM = "gfx900 gfx906 gfx908 gfx90a gfx1030 gfx1100"
NO_KERNEL = "expect 'no kernel image is available for execution on the device'"
BLOCKED = " (PTX JIT is not available under CUDA minor-version compatibility)"
NO_GCN = (
    "torch 2.13.0+cpu (ROCm) has no gcnArchName (2.2+) and the kernel driver's topology "
    "({kfd}) names no single gfx target: the device's architecture cannot be read"
)

# id -> (the case, {check: [status, detail]}); "ran" = past every decision, refused by the CPU wheel.
TABLE: dict[str, tuple[dict[str, Any], dict[str, list[Any]]]] = {
    "exact-arch": (
        {"devices": [H100], "arch_flags": CU130, "expect": {"archs": CU130.split()}},
        {
            "cpu/arch-list": ["pass", CU130 + " (as the matrix says)"],
            "gpu/device": ["pass", "NVIDIA H100 (compute capability 9.0, sm_90)"],
            "gpu/arch-supported": ["pass", "sm_90 is in the compiled list"],
        },
    ),
    "family-sm100f": (
        {"devices": [GB300], "arch_flags": "sm_90 sm_100f sm_120"},
        {"gpu/arch-supported": ["pass", "sm_103 runs the sm_100f kernels (same major)"]},
    ),
    "family-sm120": (
        {"devices": [GB10], "arch_flags": CU130},
        {"gpu/arch-supported": ["pass", "sm_121 runs the sm_120 kernels (same major)"]},
    ),
    "arch-missing": (
        {"devices": [RTX5090], "arch_flags": CU124, "cuda": "12.4"},
        {
            "gpu/arch-supported": [
                "fail",
                f"the GPU is sm_120 but torch was compiled for {CU124}: {NO_KERNEL}",
            ]
        },
    ),
    "ptx-new-driver": (
        {"devices": [RTX5090], "arch_flags": "sm_80 sm_90 compute_90", "driver": 12080},
        {"gpu/arch-supported": ["pass", "sm_120 can JIT the compute_90 PTX"]},
    ),
    "ptx-old-driver-libcuda": (  # 2.13 has no torch._C._cuda_getDriverVersion: libcuda says 12.2
        {"devices": [RTX5090], "arch_flags": "sm_80 sm_90 compute_90", "driver": 12020},
        {
            "gpu/arch-supported": [
                "fail",
                f"the GPU is sm_120 but torch was compiled for sm_80 sm_90 compute_90{BLOCKED}: "
                f"{NO_KERNEL}",
            ]
        },
    ),
    "ptx-no-driver-answer": (  # unknown driver: PTX counts
        {"devices": [RTX5090], "arch_flags": "sm_80 sm_90 compute_90"},
        {"gpu/arch-supported": ["pass", "sm_120 can JIT the compute_90 PTX"]},
    ),
    "ptx-old-driver-torch-1.0": (  # torch._C._cuda_getDriverVersion (1.0.1-1.6.0) says 9.2 < 10.0
        {
            "profile": "1.0",
            "devices": [RTX3090],
            "cuda": "10.0",
            "driver": 9020,
            "expect": {"archs": ["sm_50", "sm_60", "sm_70", "compute_70"]},
        },
        {
            "cpu/arch-list": [
                "skip",
                "this torch reports no compiled architectures (torch.cuda.get_arch_list() "
                "arrived in 1.6)",
            ],
            "gpu/arch-supported": [
                "fail",
                f"the GPU is sm_86 but torch was compiled for sm_50 sm_60 sm_70 compute_70{BLOCKED}:"
                f" {NO_KERNEL} (the matrix's list: torch reports none)",
            ],
        },
    ),
    "ptx-new-driver-torch-1.0": (
        {
            "profile": "1.0",
            "devices": [RTX3090],
            "cuda": "10.0",
            "driver": 10010,
            "expect": {"archs": ["sm_50", "sm_60", "sm_70", "compute_70"]},
        },
        {
            "gpu/arch-supported": [
                "pass",
                "sm_86 can JIT the compute_70 PTX (the matrix's list: torch reports none)",
            ]
        },
    ),
    "no-arch-list-anywhere-1.0": (
        {"profile": "1.0", "devices": [T4], "cuda": "10.0"},
        {
            "gpu/arch-supported": [
                "skip",
                "torch.cuda.get_arch_list() is empty or missing and the matrix has no list",
            ]
        },
    ),
    "arch-list-without-device-1.6": (  # get_arch_list() is [] there; the flags are not
        {"profile": "1.6", "devices": [], "arch_flags": "sm_37 sm_50 sm_60 sm_70 sm_75",
         "cuda": "10.2", "expect": {"archs": ["sm_37", "sm_50", "sm_60", "sm_70", "sm_75"]}},
        {"cpu/arch-list": ["pass", "sm_37 sm_50 sm_60 sm_70 sm_75 (as the matrix says)"]},
    ),
    "arch-list-mismatch-without-device-1.6": (
        {"profile": "1.6", "devices": [], "arch_flags": "sm_37 sm_50", "cuda": "10.2",
         "expect": {"archs": ["sm_37", "sm_50", "sm_60"]}},
        {
            "cpu/arch-list": [
                "fail",
                "torch.cuda.get_arch_list() is sm_37 sm_50 but the matrix (gpu-archs.yaml) says "
                "sm_37 sm_50 sm_60",
            ]
        },
    ),
    "multi-gpu-mixed": (  # device 1 is the one the build lacks
        {"devices": [A100, RTX5090], "arch_flags": CU124},
        {
            "gpu/device": [
                "pass",
                "cuda:0 NVIDIA A100 (compute capability 8.0, sm_80); cuda:1 NVIDIA GeForce RTX "
                "5090 (compute capability 12.0, sm_120)",
            ],
            "gpu/arch-supported": [
                "fail",
                f"cuda:1 the GPU is sm_120 but torch was compiled for {CU124}: {NO_KERNEL}",
            ],
        },
    ),
    "multi-gpu-all-supported": (
        {"devices": [A100, RTX3090], "arch_flags": "sm_80 sm_90"},
        {
            "gpu/arch-supported": [
                "pass",
                "cuda:0 sm_80 is in the compiled list; cuda:1 sm_86 runs the sm_80 kernels (same "
                "major)",
            ]
        },
    ),
    "rocm-gcnarchname": (
        {"hip": "6.2", "devices": [MI250X], "arch_flags": ROCM},
        {
            "gpu/device": ["pass", "AMD Instinct MI250X (compute capability 9.0, gfx90a)"],
            "gpu/arch-supported": ["pass", "gfx90a is in the compiled list"],
        },
    ),
    "rocm-gcnarchname-missing-target": (
        {"hip": "6.2", "devices": [MI300X], "arch_flags": ROCM},
        {"gpu/arch-supported": ["fail", f"the GPU is gfx942 but torch was compiled for {ROCM}: {NO_KERNEL}"]},
    ),
    "rocm-no-gcnarchname-kfd": (  # 1.12-2.1; node 0 is the CPU (target 0)
        {"hip": "5.4", "devices": [MI250X_OLD, MI250X_OLD], "arch_flags": ROCM, "kfd": [0, 90010, 90010]},
        {"gpu/arch-supported": ["pass", "cuda:0 gfx90a is in the compiled list; cuda:1 gfx90a is in the compiled list"]},
    ),
    "rocm-no-gcnarchname-no-kfd": (  # never an sm_90 guess
        {"hip": "5.4", "devices": [MI250X_OLD], "arch_flags": ROCM},
        {
            "gpu/device": ["pass", "AMD Instinct MI250X (compute capability 9.0, gfx target unknown)"],
            "gpu/arch-supported": ["skip", NO_GCN],
        },
    ),
    "rocm-no-gcnarchname-mixed-kfd": (
        {"hip": "5.4", "devices": [MI250X_OLD], "arch_flags": ROCM, "kfd": [90010, 110000]},
        {"gpu/arch-supported": ["skip", NO_GCN]},
    ),
    "bf16-pre-ampere": (
        {"devices": [V100], "arch_flags": CU124, "probe": ["autocast-dtypes"]},
        {
            "autocast-dtypes": [["float16"], "; bfloat16 not tried: sm_70 has no native bfloat16 (sm_80+)"],
            "gpu/autocast": ["ran", ""],
        },
    ),
    "bf16-ampere": (
        {"devices": [A100], "arch_flags": CU130, "probe": ["autocast-dtypes"]},
        {"autocast-dtypes": [["float16", "bfloat16"], ""]},
    ),
    "bf16-rocm": (
        {"hip": "6.2", "devices": [MI250X], "arch_flags": ROCM, "probe": ["autocast-dtypes"]},
        {"autocast-dtypes": [["float16", "bfloat16"], ""]},
    ),
    "autocast-1.6-no-bf16-api": (
        {"profile": "1.6", "devices": [A100], "arch_flags": "sm_80", "probe": ["autocast-dtypes"]},
        {"autocast-dtypes": [["float16"], "; bfloat16 not tried: torch.cuda.is_bf16_supported() is missing"]},
    ),
    "autocast-absent-1.0": (
        {"profile": "1.0", "devices": [V100], "cuda": "10.0"},
        {
            "gpu/autocast": ["skip", "torch 2.13.0+cpu has no autocast (torch.cuda.amp arrived in 1.6)"],
            "gpu/memory": ["skip", "torch.cuda.mem_get_info is not available in this torch"],
            "cpu/convnet-forward": ["pass", "tiny conv net on 1x3x64x64 -> (1, 10)"],
        },
    ),
    "no-cudnn": (
        {"devices": [A100], "arch_flags": CU130, "cudnn": False},
        {
            "gpu/cudnn-conv": [
                "skip",
                "torch was built without cuDNN (torch.backends.cudnn.is_available() is False): "
                "convolutions run on torch's own kernels",
            ]
        },
    ),
    "cudnn-not-loading": (
        {"devices": [A100], "arch_flags": CU130, "cudnn_version": None},
        {
            "gpu/cudnn-conv": [
                "fail",
                "torch was built with cuDNN but it did not load (torch.backends.cudnn.version())",
            ]
        },
    ),
    "cudnn-present": (
        {"devices": [A100], "arch_flags": CU130},
        {"gpu/cudnn-conv": ["ran", ""]},
    ),
    "flash-attn-2-turing": (
        {"devices": [T4], "arch_flags": CU130},
        {"extension:flash_attn": ["skip", "flash-attn 2.8.3 runs on sm_80 and newer; this GPU is sm_75"]},
    ),
    "flash-attn-2-ampere": (
        {"devices": [A100], "arch_flags": CU130},
        {"extension:flash_attn": ["ran", ""]},
    ),
    "flash-attn-1-turing": (
        {"devices": [T4], "arch_flags": CU130, "flash_attn": "1.0.9"},
        {"extension:flash_attn": ["ran", ""]},
    ),
    "flash-attn-1-volta": (
        {"devices": [V100], "arch_flags": CU130, "flash_attn": "1.0.9"},
        {"extension:flash_attn": ["skip", "flash-attn 1.0.9 runs on sm_75 and newer; this GPU is sm_70"]},
    ),
}  # fmt: skip


def _venv_with_torch(scratch: Path) -> Path:
    """A venv holding the real wheel, kept between runs in ~/.cache/envgen-test (with the
    bytecode its first run writes, `import torch` takes ~2 s instead of ~6 s): built in
    `scratch`, then moved into place; a venv another run moved there first is used as it is."""
    uv = _proc.require("uv", why="build the GPU simulation venv")
    env = _proc.clean_env()
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    kept = CACHE / f"torch-{TORCH}-cpu-{tag}"
    python = kept / "bin" / "python"
    if python.exists():
        return python
    build = scratch / "venv"
    _proc.run([uv, "venv", "--quiet", "--python", sys.executable, build], what="uv venv", env=env)
    _proc.run(
        [uv, "pip", "install", "--quiet", "--python", build / "bin" / "python", "--find-links",
         str(WHEELS), f"torch=={TORCH}+cpu"],
        what="uv pip install torch",
        env=env,
        timeout=900,
    )  # fmt: skip
    kept.parent.mkdir(parents=True, exist_ok=True)
    try:
        build.rename(kept)
    except OSError:  # another run moved its venv there first, or another file system
        return build / "bin" / "python" if not python.exists() else python
    return python


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tag = f"cp{sys.version_info.major}{sys.version_info.minor}"
    if not (WHEELS.is_dir() and sorted(WHEELS.glob(f"torch-{TORCH}+cpu-{tag}-*.whl"))):
        pytest.skip(f"no torch {TORCH}+cpu wheel for this Python in {WHEELS}")
    root = tmp_path_factory.mktemp("gpu-sim")
    python = _venv_with_torch(root)
    cases = []
    for case_id, (case, expected) in TABLE.items():
        checks = [c for c in expected if c != "autocast-dtypes"]
        cases.append({"id": case_id, "cuda": "12.8", **case, "checks": checks})
    (root / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    env = {k: v for k, v in _proc.clean_env().items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = _proc.run(
        [python, RUNNER, SCRIPT, root / "cases.json"], what="gpu_sim", env=env, timeout=300
    )
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("case_id", list(TABLE))
def test_gpu_decision(simulated: dict[str, Any], case_id: str) -> None:
    expected = TABLE[case_id][1]
    got = simulated["results"][case_id]
    for check, want in expected.items():
        if check == "gpu/arch-supported" and want[0] == "skip" and "{kfd}" in str(want[1]):
            assert got[check][0] == "skip"
            assert str(want[1]).split("({kfd})")[1] in got[check][1]
            assert "sm_" not in got[check][1]
            continue
        assert got[check] == want, (case_id, check)


def test_the_simulation_leaves_the_real_torch_as_it_was(simulated: dict[str, Any]) -> None:
    # After every case the real CPU wheel answers as it did before: no device, no list.
    assert simulated["after"] == simulated["before"]


# --- the fakes other tests use, held to the real wheel ---------------------------------------
PROBE = (
    "import json, torch;"
    "print(json.dumps({'available': torch.cuda.is_available(),"
    " 'arch_list': torch.cuda.get_arch_list(),"
    " 'driver_attr': hasattr(torch._C, '_cuda_getDriverVersion'),"
    " 'arch_flags_attr': hasattr(torch._C, '_cuda_getArchFlags'),"
    " 'cuda': torch.version.cuda}))"
)


def test_fake_torch_answers_as_the_real_cpu_wheel(
    simulated: dict[str, Any], tmp_path: Path
) -> None:
    real = simulated["before"]  # the real 2.13.0+cpu wheel, read before any case
    assert real == {
        "available": False,
        "arch_list": [],
        "driver_attr": False,
        "arch_flags_attr": False,
        "cuda": None,
    }
    for name, text in torch_files(f"{TORCH}+cpu").items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {**_proc.clean_env(), "PYTHONPATH": str(tmp_path)}
    result = _proc.run([sys.executable, "-c", PROBE], what="probe fake torch", env=env)
    assert json.loads(result.stdout) == real


@pytest.mark.parametrize(
    ("version", "arch_list"),
    [
        ("1.4.0", None),  # no get_arch_list before 1.6 (real 1.4.0 wheel: era suite)
        ("1.6.0", []),  # [] without a device, 1.6-2.10 (real 1.6.0 wheel's source)
        ("2.10.0", []),
        (
            "2.13.0",
            ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"],
        ),  # asks _is_compiled()
    ],
)
def test_fake_cuda_torch_follows_each_releases_get_arch_list(
    tmp_path: Path, version: str, arch_list: list[str] | None
) -> None:
    for name, text in torch_files(version, cuda="12.8").items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    code = (
        "import json, torch; f = getattr(torch.cuda, 'get_arch_list', None);"
        "print(json.dumps([None if f is None else f(), torch._C._cuda_getArchFlags(),"
        " hasattr(torch._C, '_cuda_getDriverVersion')]))"
    )
    env = {**_proc.clean_env(), "PYTHONPATH": str(tmp_path)}
    result = _proc.run([sys.executable, "-c", code], what="probe fake torch", env=env)
    got = json.loads(result.stdout)
    assert got[0] == arch_list
    assert got[1] == "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90"
    assert got[2] is False
