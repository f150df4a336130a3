"""doctor's GPU truth: driver floors (own minimum, minor-version compatibility), compiled
architectures, the shared architecture rule, the bundled GPU data, and bounded log reading."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
import types
import zipfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from packaging.version import Version

from envgen.cli import main
from envgen.doctor import explain
from envgen.doctor import host as doctor_host
from envgen.doctor.host import Gpu, HostInfo
from envgen.doctor.verdicts import (
    MINOR_COMPAT_COST,
    ArchBuild,
    Assessment,
    GpuFacts,
    VariantTarget,
    Verdict,
    assess_variants,
    gpu_facts,
)
from envgen.errors import FileSystemError, MatrixError
from envgen.infra import proc as _proc
from envgen.infra.settings import Settings
from envgen.model.matrix import arch_names, load_matrix
from envgen.model.types import ComputeKind, Platform
from envgen.smoke import script as sc
from envgen.smoke.report import SmokeExpectation

MATRIX = load_matrix()
LINUX = gpu_facts(MATRIX, "linux", "linux-64")
WINDOWS = gpu_facts(MATRIX, "windows", "win-64")
AARCH64 = gpu_facts(MATRIX, "linux", "linux-aarch64")
DATA = Path(__file__).parents[2] / "data"

A100 = Gpu(name="NVIDIA A100-SXM4-80GB", compute_capability="8.0")
RTX5090 = Gpu(name="NVIDIA GeForce RTX 5090", compute_capability="12.0")
H100 = Gpu(name="NVIDIA H100 80GB HBM3", compute_capability="9.0")
V100 = Gpu(name="Tesla V100-SXM2-32GB", compute_capability="7.0")
GTX1080 = Gpu(name="NVIDIA GeForce GTX 1080", compute_capability="6.1")
GH200 = Gpu(name="NVIDIA GH200 480GB", compute_capability="9.0")
T4G = Gpu(name="NVIDIA T4G", compute_capability="7.5")  # AWS g5g (Graviton2) instances
GB10 = Gpu(name="NVIDIA GB10", compute_capability="12.1")  # DGX Spark


def host(driver: str, *gpus: Gpu, windows: bool = False) -> HostInfo:
    return HostInfo(
        platform="win-64" if windows else "linux-64",
        system="Windows" if windows else "Linux",
        machine="AMD64" if windows else "x86_64",
        python="3.11.9",
        glibc=None if windows else "2.35",
        nvidia_driver=driver,
        gpus=gpus,
    )


def arm_host(driver: str, *gpus: Gpu) -> HostInfo:
    return HostInfo(
        platform="linux-aarch64",
        system="Linux",
        machine="aarch64",
        python="3.11.9",
        glibc="2.35",
        nvidia_driver=driver,
        gpus=gpus,
    )


def cuda(torch: str, version: str) -> VariantTarget:
    return VariantTarget("cu" + version.replace(".", ""), "cuda", version, torch)


def minor_compat(driver: str, own: str, cuda_version: str, floor: str) -> str:
    major = cuda_version.split(".", maxsplit=1)[0]
    return (
        f"driver {driver} is older than {own}, the minimum for CUDA {cuda_version}, but >= "
        f"{floor}, the minimum for any CUDA {major}.x: it runs through minor-version "
        f"compatibility, with {MINOR_COMPAT_COST}"
    )


# --- the doctor table --------------------------------------------------------------------------
# (host, variant, expected verdict, expected reason); facts from the bundled matrix.
TABLE: dict[str, tuple[HostInfo, VariantTarget, GpuFacts, Verdict, str]] = {
    "A100 on 470, cu118: minor-version compatibility": (
        host("470.82.01", A100),
        cuda("2.1.0", "11.8"),
        LINUX,
        "minor-compat",
        minor_compat("470.82.01", "520.61.05", "11.8", "450.80.02")
        + "; NVIDIA A100-SXM4-80GB: sm_80 is in the compiled list of torch 2.1.0 cu118",
    ),
    "A100 on 470, cu121: below the 12.x floor": (
        host("470.82.01", A100),
        cuda("2.1.0", "12.1"),
        LINUX,
        "no",
        "driver 470.82.01 is older than 525.60.13, the minimum for any CUDA 12.x even through "
        "minor-version compatibility (CUDA 12.1's own minimum is 530.30.02); the newest CUDA "
        "it supports is 11.8; torch 2.1.0 cu118 runs on this driver (through minor-version "
        "compatibility)",
    ),
    "A100 on 535, cu121: its own minimum": (
        host("535.104.05", A100),
        cuda("2.4.0", "12.1"),
        LINUX,
        "ok",
        "driver 535.104.05 >= 530.30.02, the minimum for CUDA 12.1; NVIDIA A100-SXM4-80GB: "
        "sm_80 is in the compiled list of torch 2.4.0 cu121",
    ),
    "A100 on 535, cu124: minor-version compatibility": (
        host("535.104.05", A100),
        cuda("2.5.0", "12.4"),
        LINUX,
        "minor-compat",
        minor_compat("535.104.05", "550.54.14", "12.4", "525.60.13")
        + "; NVIDIA A100-SXM4-80GB: sm_80 is in the compiled list of torch 2.5.0 cu124",
    ),
    "A100 on 535, cu126: minor-version compatibility": (
        host("535.104.05", A100),
        cuda("2.7.0", "12.6"),
        LINUX,
        "minor-compat",
        minor_compat("535.104.05", "560.28.03", "12.6", "525.60.13")
        + "; NVIDIA A100-SXM4-80GB: sm_80 is in the compiled list of torch 2.7.0 cu126",
    ),
    # Linux 2.7's cu128 build is not on PyPI and its release's script was not read: no row,
    # so the first Linux build with sm_120 in the matrix is 2.8's cu128 (its PyPI wheel).
    "RTX 5090 with 2.6 cu124: no sm_120": (
        host("570.86.10", RTX5090),
        cuda("2.6.0", "12.4"),
        LINUX,
        "no",
        "NVIDIA GeForce RTX 5090 (sm_120) has no kernels in torch 2.6.0 cu124 (compiled for "
        "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90); first supported in torch 2.8.0 cu128",
    ),
    "RTX 5090 with 2.8 cu126: the same release's newest CUDA build has it": (
        host("570.86.10", RTX5090),
        cuda("2.8.0", "12.6"),
        LINUX,
        "no",
        "NVIDIA GeForce RTX 5090 (sm_120) has no kernels in torch 2.8.0 cu126 (compiled for "
        "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90); torch 2.8.0 cu129 has them",
    ),
    "RTX 5090 with 2.8 cu128": (
        host("570.86.10", RTX5090),
        cuda("2.8.0", "12.8"),
        LINUX,
        "ok",
        "driver 570.86.10 >= 570.26, the minimum for CUDA 12.8; NVIDIA GeForce RTX 5090: "
        "sm_120 is in the compiled list of torch 2.8.0 cu128",
    ),
    "RTX 5090 with 2.7 cu128 on Linux: no list from the release's own artifact, not judged": (
        host("570.86.10", RTX5090),
        cuda("2.7.0", "12.8"),
        LINUX,
        "ok",
        "driver 570.86.10 >= 570.26, the minimum for CUDA 12.8; NVIDIA GeForce RTX 5090 (sm_120): "
        "architecture not checked (the matrix has no arch list for torch 2.7.0 cu128 on linux-64)",
    ),
    "RTX 5090 with 2.6 cu124 on an old driver: the fix needs a newer driver": (
        host("560.35.03", RTX5090),
        cuda("2.6.0", "12.4"),
        LINUX,
        "no",
        "NVIDIA GeForce RTX 5090 (sm_120) has no kernels in torch 2.6.0 cu124 (compiled for "
        "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90); first supported in torch 2.8.0 cu128",
    ),
    "H100 with cu130 on 575: below the 13.x floor": (
        host("575.51.03", H100),
        cuda("2.9.0", "13.0"),
        LINUX,
        "no",
        "driver 575.51.03 is older than 580, the minimum for any CUDA 13.x even through "
        "minor-version compatibility (CUDA 13.0's own minimum is 580.65.06); the newest CUDA "
        "it supports is 12.9; torch 2.9.0 cu128 runs on this driver",
    ),
    "H100 with cu130 on 580": (
        host("580.65.06", H100),
        cuda("2.11.0", "13.0"),
        LINUX,
        "ok",
        "driver 580.65.06 >= 580.65.06, the minimum for CUDA 13.0; NVIDIA H100 80GB HBM3: "
        "sm_90 is in the compiled list of torch 2.11.0 cu130",
    ),
    "Windows 527.41, cu121: below the Windows 12.x floor": (
        host("527.41", A100, windows=True),
        cuda("2.1.0", "12.1"),
        WINDOWS,
        "no",
        "driver 527.41 is older than 528.33, the minimum for any CUDA 12.x even through "
        "minor-version compatibility (CUDA 12.1's own minimum is 531.14); the newest CUDA it "
        "supports is 11.8; torch 2.1.0 cu118 runs on this driver",
    ),
    "Windows 528.89, cu121: minor-version compatibility": (
        host("528.89", A100, windows=True),
        cuda("2.1.0", "12.1"),
        WINDOWS,
        "minor-compat",
        minor_compat("528.89", "531.14", "12.1", "528.33")
        + "; NVIDIA A100-SXM4-80GB: sm_80 is in the compiled list of torch 2.1.0 cu121",
    ),
    "Windows 452.39, cu118: the 11.x floor": (
        host("452.39", A100, windows=True),
        cuda("2.1.0", "11.8"),
        WINDOWS,
        "minor-compat",
        minor_compat("452.39", "520.06", "11.8", "452.39")
        + "; NVIDIA A100-SXM4-80GB: sm_80 is in the compiled list of torch 2.1.0 cu118",
    ),
    "Windows 452.38, cu118: just below it": (
        host("452.38", A100, windows=True),
        cuda("2.1.0", "11.8"),
        WINDOWS,
        "no",
        "driver 452.38 is older than 452.39, the minimum for any CUDA 11.x even through "
        "minor-version compatibility (CUDA 11.8's own minimum is 520.06); the newest CUDA it "
        "supports is 11.0",
    ),
    "RTX 5090 with 2.11 cu130": (
        host("580.65.06", RTX5090),
        cuda("2.11.0", "13.0"),
        LINUX,
        "ok",
        "driver 580.65.06 >= 580.65.06, the minimum for CUDA 13.0; NVIDIA GeForce RTX 5090: "
        "sm_120 is in the compiled list of torch 2.11.0 cu130",
    ),
    "V100 with 2.11 cu130: CUDA 13 builds start at sm_75": (
        host("580.65.06", V100),
        cuda("2.11.0", "13.0"),
        LINUX,
        "no",
        "Tesla V100-SXM2-32GB (sm_70) has no kernels in torch 2.11.0 cu130 (compiled for sm_75 "
        "sm_80 sm_86 sm_90 sm_100 sm_120); last supported in torch 2.10.0 cu128",
    ),
    # 2.9's cu130 build is not on PyPI and its release's script was not read: no row (a
    # main-branch list is no evidence for a release, issue 23), so the arch is not judged.
    "V100 with 2.9 cu130: no list from the release's own artifact, not judged": (
        host("580.65.06", V100),
        cuda("2.9.0", "13.0"),
        LINUX,
        "ok",
        "driver 580.65.06 >= 580.65.06, the minimum for CUDA 13.0; Tesla V100-SXM2-32GB (sm_70): "
        "architecture not checked (the matrix has no arch list for torch 2.9.0 cu130 on linux-64)",
    ),
    "GTX 1080 with 2.8 cu128: sm_70 is the floor": (
        host("570.86.10", GTX1080),
        cuda("2.8.0", "12.8"),
        LINUX,
        "no",
        "NVIDIA GeForce GTX 1080 (sm_61) has no kernels in torch 2.8.0 cu128 (compiled for sm_70 "
        "sm_75 sm_80 sm_86 sm_90 sm_100 sm_120); torch 2.8.0 cu126 has them",
    ),
    "GTX 1080 with 2.8 cu126": (
        host("570.86.10", GTX1080),
        cuda("2.8.0", "12.6"),
        LINUX,
        "ok",
        "driver 570.86.10 >= 560.28.03, the minimum for CUDA 12.6; NVIDIA GeForce GTX 1080: "
        "sm_61 runs the sm_60 kernels (same major) of torch 2.8.0 cu126",
    ),
    "Windows RTX 5090 with 2.7 cu128": (
        host("572.16", RTX5090, windows=True),
        cuda("2.7.0", "12.8"),
        WINDOWS,
        "ok",
        "driver 572.16 >= 570.65, the minimum for CUDA 12.8; NVIDIA GeForce RTX 5090: sm_120 is "
        "in the compiled list of torch 2.7.0 cu128",
    ),
    "Windows GTX 1080 with 2.7 cu128: the Windows list starts at sm_75": (
        host("572.16", GTX1080, windows=True),
        cuda("2.7.0", "12.8"),
        WINDOWS,
        "no",
        "NVIDIA GeForce GTX 1080 (sm_61) has no kernels in torch 2.7.0 cu128 (compiled for sm_75 "
        "sm_80 sm_86 sm_90 sm_100 sm_120); torch 2.7.0 cu126 has them",
    ),
    "aarch64 GH200 with 2.11 cu130": (
        arm_host("580.65.06", GH200),
        cuda("2.11.0", "13.0"),
        AARCH64,
        "ok",
        "driver 580.65.06 >= 580.65.06, the minimum for CUDA 13.0; NVIDIA GH200 480GB: sm_90 is "
        "in the compiled list of torch 2.11.0 cu130",
    ),
    "aarch64 T4G with 2.13 cu130: no aarch64 build below sm_80": (
        arm_host("580.65.06", T4G),
        cuda("2.13.0", "13.0"),
        AARCH64,
        "no",
        "NVIDIA T4G (sm_75) has no kernels in torch 2.13.0 cu130 (compiled for sm_80 sm_90 "
        "sm_100 sm_110 sm_120); no torch build in the matrix has kernels for it",
    ),
    "aarch64 GB10 (sm_121) with 2.13 cu130": (
        arm_host("580.95.05", GB10),
        cuda("2.13.0", "13.0"),
        AARCH64,
        "ok",
        "driver 580.95.05 >= 580.65.06, the minimum for CUDA 13.0; NVIDIA GB10: sm_121 runs the "
        "sm_120 kernels (same major) of torch 2.13.0 cu130",
    ),
}


@pytest.mark.parametrize("case", sorted(TABLE))
def test_doctor_table(case: str) -> None:
    h, variant, facts, verdict, reason = TABLE[case]
    assert assess_variants(h, [variant], facts) == [Assessment(variant.variant_id, verdict, reason)]


def test_minor_compat_is_ok_but_counts_as_a_verdict_of_its_own() -> None:
    (a,) = assess_variants(host("535.104.05", A100), [cuda("2.5.0", "12.4")], LINUX)
    assert (a.ok, a.verdict) == (True, "minor-compat")


def test_every_gpu_must_be_supported() -> None:
    (a,) = assess_variants(host("570.86.10", A100, RTX5090), [cuda("2.6.0", "12.4")], LINUX)
    assert (a.verdict, a.reason.split(";")[0]) == (
        "no",
        "NVIDIA GeForce RTX 5090 (sm_120) has no kernels in torch 2.6.0 cu124 (compiled for "
        "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90)",
    )


def test_old_gpu_dropped_from_a_release_names_the_last_one() -> None:
    # 2.6 / 2.7 cu118 have no list (no public source read, issue 23): the last build the
    # matrix knows to carry sm_37 is 2.5.1 cu118
    k80 = Gpu(name="Tesla K80", compute_capability="3.7")
    (a,) = assess_variants(host("470.82.01", k80), [cuda("2.5.0", "11.8")], LINUX)
    assert a == Assessment("cu118", "minor-compat", a.reason)  # sm_37 is in 2.5 cu118
    (a,) = assess_variants(host("560.35.03", k80), [cuda("2.7.0", "12.6")], LINUX)
    assert a == Assessment(
        "cu126",
        "no",
        "Tesla K80 (sm_37) has no kernels in torch 2.7.0 cu126 (compiled for sm_50 sm_60 sm_70 "
        "sm_75 sm_80 sm_86 sm_90); last supported in torch 2.5.1 cu118",
    )


def test_windows_builds_have_their_own_arch_lists() -> None:
    gtx1080 = Gpu(name="NVIDIA GeForce GTX 1080", compute_capability="6.1")
    (linux,) = assess_variants(host("535.104.05", gtx1080), [cuda("2.1.0", "12.1")], LINUX)
    (windows,) = assess_variants(
        host("537.58", gtx1080, windows=True), [cuda("2.1.0", "12.1")], WINDOWS
    )
    assert linux.reason.split("; ")[1] == (
        "NVIDIA GeForce GTX 1080: sm_61 runs the sm_60 kernels (same major) of torch 2.1.0 cu121"
    )
    assert windows.reason.split("; ")[1] == (
        "NVIDIA GeForce GTX 1080: sm_61 is in the compiled list of torch 2.1.0 cu121"
    )


def test_architecture_not_checked_without_a_row() -> None:
    # CUDA 13.4 (2.14) has no gpu-archs.yaml row: neither a wheel nor a script was read.
    (a,) = assess_variants(host("580.65.06", A100), [cuda("2.14.0", "13.4")], LINUX)
    assert a.ok
    assert a.reason.endswith(
        "; NVIDIA A100-SXM4-80GB (sm_80): architecture not checked (the matrix has no arch list "
        "for torch 2.14.0 cu134 on linux-64)"
    )


def test_unknown_compute_capability_is_not_checked() -> None:
    old = Gpu(name="Tesla T4", compute_capability=None)
    (a,) = assess_variants(host("535.104.05", old), [cuda("2.4.0", "12.1")], LINUX)
    assert a == Assessment(
        "cu121",
        "ok",
        "driver 535.104.05 >= 530.30.02, the minimum for CUDA 12.1; Tesla T4: architecture not "
        "checked (nvidia-smi gives no compute_cap)",
    )


# --- PTX under minor-version compatibility ---------------------------------------------------
PTX_FACTS = GpuFacts(
    drivers=[("12.1", "530.30.02"), ("12.8", "570.26")],
    families={12: "525.60.13"},
    builds=(ArchBuild("9.9.0", "12.8", ("sm_80", "compute_80")),),
)


def test_ptx_runs_newer_gpus_only_with_a_driver_at_the_toolkits_own_minimum() -> None:
    targets: list[tuple[str, ComputeKind, str | None] | VariantTarget] = [cuda("9.9.0", "12.8")]
    assert assess_variants(host("570.26", H100), targets, PTX_FACTS) == [
        Assessment(
            "cu128",
            "ok",
            "driver 570.26 >= 570.26, the minimum for CUDA 12.8; NVIDIA H100 80GB HBM3: sm_90 "
            "can JIT the compute_80 PTX of torch 9.9.0 cu128",
        )
    ]
    assert assess_variants(host("535.104.05", H100), targets, PTX_FACTS) == [
        Assessment(
            "cu128",
            "no",
            "NVIDIA H100 80GB HBM3 (sm_90) has no kernels in torch 9.9.0 cu128 (compiled for "
            "sm_80 compute_80) (PTX JIT is not available under CUDA minor-version "
            "compatibility); torch 9.9.0 cu128 has them",
        )
    ]


# --- the architecture rule (one function, used by doctor and the smoke script) ---------------
@pytest.mark.parametrize(
    ("capability", "archs", "ptx", "expected"),
    [
        ((8, 0), ["sm_80", "sm_90"], True, ("exact", "sm_80")),
        ((8, 6), ["sm_70", "sm_80"], True, ("family", "sm_80")),  # SASS: same major, lower minor
        ((8, 9), ["sm_80", "sm_86"], True, ("family", "sm_86")),  # the closest minor
        ((9, 0), ["sm_80", "sm_86"], True, None),  # never across majors
        ((7, 5), ["sm_80"], True, None),  # never to a lower minor
        ((9, 0), ["sm_80", "compute_80"], True, ("ptx", "compute_80")),
        ((9, 0), ["sm_80", "compute_80"], False, None),  # no JIT under minor-version compat
        ((8, 6), ["sm_80", "compute_86"], True, ("family", "sm_80")),  # SASS before PTX
        ((12, 0), ["sm_90", "compute_90", "compute_120"], True, ("ptx", "compute_120")),
        ((8, 0), ["compute_90"], True, None),  # PTX only JITs upward
        ((9, 0), ["sm_90a"], True, ("exact", "sm_90a")),
        ((10, 3), ["sm_100a"], True, None),  # arch-specific SASS: that capability only
        ((10, 3), ["sm_100"], True, ("family", "sm_100")),
        ((12, 0), ["sm_50", "gfx90a", "sm_x"], True, None),
    ],
)
def test_arch_support(
    capability: tuple[int, int], archs: list[str], ptx: bool, expected: tuple[str, str] | None
) -> None:
    assert sc.arch_support(capability, archs, ptx_jit=ptx) == expected


def fake_gpu_torch(capability: tuple[int, int], archs: list[str]) -> types.ModuleType:
    """torch 1.9+'s surface: no torch._C._cuda_getDriverVersion (the driver's version comes
    from libcuda; see fake_libcuda). tests/integration/test_gpu_sim.py drives a real torch instead."""
    torch = types.ModuleType("torch")
    torch.__dict__.update(
        version=types.SimpleNamespace(cuda="12.8", hip=None),
        cuda=types.SimpleNamespace(
            is_available=lambda: True,
            device_count=lambda: 1,
            get_arch_list=lambda: archs,
            get_device_capability=lambda _i=0: capability,
            get_device_properties=lambda _i=0: types.SimpleNamespace(),
        ),
        _C=types.SimpleNamespace(),
    )
    return torch


class FakeLibcuda:
    """cuDriverGetVersion(int*) of libcuda, answering `version` (12020 for CUDA 12.2)."""

    def __init__(self, version: int) -> None:
        self.version = version

    def cuDriverGetVersion(self, out: object) -> int:  # noqa: N802 - libcuda's name
        out._obj.value = self.version  # type: ignore[attr-defined]  # ctypes.byref
        return 0


def fake_libcuda(monkeypatch: pytest.MonkeyPatch, version: int | None) -> None:
    monkeypatch.setattr(
        sc, "_open_libcuda", lambda: None if version is None else FakeLibcuda(version)
    )


def gpu_outcome(torch: types.ModuleType, **expect: object) -> tuple[object, object]:
    ctx = sc.Context({"kind": "cuda", "version": "12.8", **expect})
    ctx.modules["torch"] = torch
    entry = sc.run_check(ctx, "gpu", "arch-supported", sc.check_gpu_arch)
    return entry["status"], entry["detail"]


def test_smoke_gpu_arch_uses_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_libcuda(monkeypatch, None)
    assert gpu_outcome(fake_gpu_torch((8, 6), ["sm_80", "sm_90"])) == (
        "pass",
        "sm_86 runs the sm_80 kernels (same major)",
    )
    assert gpu_outcome(fake_gpu_torch((12, 0), ["sm_80", "sm_90"])) == (
        "fail",
        "the GPU is sm_120 but torch was compiled for sm_80 sm_90: expect 'no kernel image is "
        "available for execution on the device'",
    )
    assert gpu_outcome(fake_gpu_torch((12, 0), ["sm_90", "compute_90"])) == (
        "pass",
        "sm_120 can JIT the compute_90 PTX",
    )


def test_smoke_gpu_arch_without_ptx_jit_under_minor_version_compat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_libcuda(monkeypatch, None)
    blocked = (
        "fail",
        "the GPU is sm_120 but torch was compiled for sm_90 compute_90 (PTX JIT is not "
        "available under CUDA minor-version compatibility): expect 'no kernel image is "
        "available for execution on the device'",
    )
    # Told by the caller...
    assert gpu_outcome(fake_gpu_torch((12, 0), ["sm_90", "compute_90"]), ptx_jit=False) == blocked
    # ...or seen by the script: the driver's CUDA (12.2, read from libcuda) is older than
    # torch's runtime (12.8).
    fake_libcuda(monkeypatch, 12020)
    assert gpu_outcome(fake_gpu_torch((12, 0), ["sm_90", "compute_90"])) == blocked
    fake_libcuda(monkeypatch, 12080)
    assert gpu_outcome(fake_gpu_torch((12, 0), ["sm_90", "compute_90"])) == (
        "pass",
        "sm_120 can JIT the compute_90 PTX",
    )


def test_smoke_arch_list_is_checked_against_the_matrix() -> None:
    torch = fake_gpu_torch((8, 0), ["sm_80", "sm_90"])
    ctx = sc.Context({"kind": "cuda", "version": "12.8", "archs": ["sm_80", "sm_90", "sm_120"]})
    ctx.modules["torch"] = torch
    assert sc.run_check(ctx, "cpu", "arch-list", sc.check_arch_list)["detail"] == (
        "torch.cuda.get_arch_list() is sm_80 sm_90 but the matrix (gpu-archs.yaml) says "
        "sm_80 sm_90 sm_120"
    )
    ctx = sc.Context({"kind": "cuda", "version": "12.8", "archs": ["sm_90", "sm_80"]})
    ctx.modules["torch"] = torch
    entry = sc.run_check(ctx, "cpu", "arch-list", sc.check_arch_list)
    assert (entry["status"], entry["detail"]) == ("pass", "sm_80 sm_90 (as the matrix says)")


def test_expectation_json_carries_the_gpu_facts_only_when_set() -> None:
    plain = SmokeExpectation(kind="cuda", version="12.8")
    assert "archs" not in plain.to_json()
    assert "ptx_jit" not in plain.to_json()
    full = SmokeExpectation(kind="cuda", version="12.8", archs=("sm_80",), ptx_jit=False)
    assert '"archs": ["sm_80"]' in full.to_json()
    assert '"ptx_jit": false' in full.to_json()


# --- the bundled data ------------------------------------------------------------------------
def archs_of(torch: str, cuda_version: str) -> tuple[str, ...]:
    row = MATRIX.arch_row(torch, "cuda", cuda_version, "linux-64")
    assert row is not None, (torch, cuda_version)
    return row.archs


def test_bundled_arch_facts() -> None:
    assert "sm_120" not in archs_of("2.6.0", "12.4")
    assert archs_of("2.8.0", "12.8") == (
        "sm_70",
        "sm_75",
        "sm_80",
        "sm_86",
        "sm_90",
        "sm_100",
        "sm_120",
    )
    # no public source read for these builds (issue 23): no list, "architecture not checked"
    for torch, cuda_version in (("2.6.0", "11.8"), ("2.6.0", "12.6"), ("2.7.1", "12.8")):
        assert MATRIX.arch_row(torch, "cuda", cuda_version, "linux-64") is None
    assert "sm_90" in archs_of("2.0.0", "11.8")
    assert "sm_90" not in archs_of("2.0.0", "11.7")
    assert "sm_37" in archs_of("1.13.1", "11.7")
    assert "sm_37" not in archs_of("2.1.0", "12.1")


def test_bundled_arch_facts_per_platform() -> None:
    def of(torch: str, cuda_version: str, platform: Platform) -> tuple[str, ...] | None:
        row = MATRIX.arch_row(torch, "cuda", cuda_version, platform)
        return row.archs if row is not None else None

    # Read from the PyPI wheels: from 2.11 the cu130 builds carry no PTX.
    assert of("2.13.0", "13.0", "linux-64") == (
        "sm_75",
        "sm_80",
        "sm_86",
        "sm_90",
        "sm_100",
        "sm_120",
    )
    assert of("2.13.0", "13.0", "linux-aarch64") == (
        "sm_80",
        "sm_90",
        "sm_100",
        "sm_110",
        "sm_120",
    )
    # Windows builds keep sm_61 for 12.6 where Linux does not, and drop sm_70 for 12.8.
    assert "sm_61" in (of("2.8.0", "12.6", "win-64") or ())
    assert "sm_61" not in (of("2.8.0", "12.6", "linux-64") or ("sm_61",))
    assert "sm_70" not in (of("2.8.0", "12.8", "win-64") or ("sm_70",))
    assert "sm_70" in (of("2.8.0", "12.8", "linux-64") or ())
    # No aarch64 CUDA builds before 2.11 in the pip matrix, so no rows either.
    assert of("2.10.0", "12.8", "linux-aarch64") is None
    # From 2.9 a CUDA build has a row only from its own release's PyPI wheel: no list carried
    # from a main-branch script or an earlier release (issue 23).
    rows = {
        MATRIX.arch_row(b.release, "cuda", b.version, p)
        for b in MATRIX.pip
        if b.kind == "cuda" and b.version and Version(b.release) >= Version("2.9")
        for p in b.platforms
    }
    assert all(r.source.startswith("pypi-wheel:") and not r.inferred for r in rows if r), rows


def test_every_gpu_row_has_a_source_and_copies_are_inferred() -> None:
    for row in MATRIX.gpu_archs:
        assert row.source.startswith(
            ("https://github.com/pytorch/", "pytorch/builder@", "copy: ", "pypi-wheel: ")
        ), row
        if row.source.startswith("pypi-wheel: "):
            # the wheel's file name, or the recorded file naming each release's wheel
            assert ".whl" in row.source or "gpu-archs/pypi-wheels.json" in row.source, row
            assert "libtorch_python.so" in row.source, row
        if row.source.startswith("copy: ") or "/main" in (row.note or ""):
            assert row.inferred, row
    assert {m.cuda_major: (m.linux, m.windows) for m in MATRIX.minor_compat} == {
        11: ("450.80.02", "452.39"),
        12: ("525.60.13", "528.33"),
        13: ("580", "580"),
    }


def test_arch_names() -> None:
    assert arch_names("3.7+PTX;5.0") == ("sm_37", "sm_50", "compute_37")


def test_overlapping_gpu_rows_are_refused(tmp_path: Path) -> None:
    shutil.copytree(DATA / "matrix-mini", tmp_path / "m")
    (tmp_path / "m" / "gpu-archs.yaml").write_text(
        '- {torch: ">=2.0", cuda: ["11.8"], platforms: [linux-64], arch-list: "8.0", source: x}\n'
        '- {torch: ">=2.1", cuda: ["11.8"], platforms: [linux-64], arch-list: "9.0", source: y}\n'
        '- {torch: "==0.1.0", cuda: ["11.8"], platforms: [linux-64], arch-list: "9.0", source: z}\n'
    )
    with pytest.raises(MatrixError) as err:
        load_matrix(tmp_path / "m")
    problems = [line.strip() for line in str(err.value).splitlines()[1:] if line.startswith("  - ")]
    assert "- gpu-archs.yaml: torch ==0.1.0 matches no release in releases.yaml" in problems
    assert (
        "- gpu-archs.yaml: torch 2.1.0 cuda 11.8 on linux-64 is covered by more than one row"
        in (problems)
    )


def test_a_matrix_without_gpu_files_has_no_gpu_facts() -> None:
    mini = load_matrix(DATA / "matrix-mini")
    assert (mini.gpu_archs, mini.minor_compat) == ((), ())


# --- bounded, linear log reading (issue 16 item 6) --------------------------------------------
ADVERSARIAL = [
    "a.so" * 250_000,
    "libcudart.so." + "1." * 200_000,
    "undefined symbol: " * 50_000,
    "x" * 999 + ": undefined symbol: y" * 40_000,
    " " * 1_000_000,
    "libcudnn" * 100_000 + ".so.",
    "GLIBCXX_1." * 100_000,
    "site-packages/" * 70_000,
    "torch" * 200_000,
    "cuda.is_available()" + " " * 1_000_000,
    "Kernel Module" + " for x" * 100_000,
    "1." * 500_000,
]


@pytest.mark.parametrize("index", range(len(ADVERSARIAL)))
def test_every_pattern_is_linear(index: int) -> None:
    text = ADVERSARIAL[index]
    start = time.perf_counter()
    explain.explain_error(text)
    doctor_host.parse_proc_driver_version(text)
    doctor_host.parse_nvidia_smi(text)
    assert time.perf_counter() - start < 5.0


def test_undefined_symbol_reads_the_library_backwards() -> None:
    (d,) = explain.explain_error(
        "OSError: /x/site-packages/torchvision/_C.so.1: undefined symbol: abc"
    )
    assert d.title == "ABI mismatch: undefined symbol in torchvision"
    long_symbol = "undefined symbol: " + "s" * 5000
    (d,) = explain.explain_error(long_symbol)
    assert d.cause.split(" refers to ")[1].split(",")[0] == "s" * 500  # quoted, bounded


def test_read_log_keeps_the_end_of_a_big_log(tmp_path: Path) -> None:
    log = tmp_path / "build.log"
    log.write_bytes(b"x" * 100 + b"\nOSError: libcudnn.so.8: cannot open shared object file")
    assert explain.read_log(log, limit=60) == (
        "OSError: libcudnn.so.8: cannot open shared object file",
        True,
    )
    assert explain.read_log(log)[1] is False


def test_read_log_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(FileSystemError) as err:
        explain.read_log(fifo)
    assert str(err.value) == (
        f"{fifo}: not a regular file; --log reads a log file\n"
        "  hint: save the output to a file and pass its path"
    )


@click.command(
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": [],
    }
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    main(list(args))


def test_doctor_log_with_a_hostile_log_is_fast(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_proc, "which", lambda _tool: None)
    log = tmp_path / "hostile.log"
    log.write_text("a.so" * 4000 + "\nRuntimeError: operator torchvision::nms does not exist\n")
    start = time.perf_counter()
    result = CliRunner().invoke(_entry, ["doctor", "--log", str(log)], catch_exceptions=False)
    assert time.perf_counter() - start < 10.0
    assert result.exit_code == 0
    assert re.findall(r"^\* .*$", result.stdout, re.MULTILINE) == [
        "* torchvision does not match torch"
    ]


def test_doctor_report_for_a_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from envgen import app as workflow

    spec = tmp_path / "project.yaml"
    spec.write_text(
        'name: p27\npython: "3.11"\ntorch: "2.7.0"\naccelerators: [cpu, cu126]\n'
        "platforms: [linux-64]\nmanagers: [pip]\n"
    )
    monkeypatch.setattr(doctor_host, "detect_host", lambda **_kw: host("535.104.05", A100))
    assert workflow.format_doctor(
        workflow.doctor(spec, None, settings=Settings())
    ).splitlines() == [
        "platform      linux-64 (Linux x86_64)",
        "python        3.11.9",
        "glibc         2.35",
        "nvidia driver 535.104.05",
        "newest CUDA   12.1 (12.9 through minor-version compatibility)",
        "GPUs          NVIDIA A100-SXM4-80GB (sm 8.0)",
        "ROCm          -",
        "variants:",
        "  ok     cpu: CPU builds run on any host",
        "  compat cu126: "
        + minor_compat("535.104.05", "560.28.03", "12.6", "525.60.13")
        + "; NVIDIA A100-SXM4-80GB: sm_80 is in the compiled list of torch 2.7.0 cu126",
    ]


def test_nvidia_smi_before_compute_cap_is_asked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def fake_run(args: list[str], **_kwargs: object) -> _proc.Completed:
        calls.append(args[1])
        if "compute_cap" in args[1]:
            out, rc = 'Field "compute_cap" is not a valid field to query.\n', 2
        else:
            out, rc = "470.82.01, Tesla T4\n", 0
        return _proc.Completed(args=tuple(args), returncode=rc, stdout=out, stderr="", seconds=0.1)

    monkeypatch.setattr(_proc, "which", lambda tool: f"/usr/bin/{tool}")
    monkeypatch.setattr(_proc, "run", fake_run)
    found = doctor_host.detect_host(root=tmp_path)
    assert calls == [
        "--query-gpu=driver_version,name,compute_cap",
        "--query-gpu=driver_version,name",
    ]
    assert (found.nvidia_driver, found.gpus) == (
        "470.82.01",
        (Gpu(name="Tesla T4", compute_capability=None),),
    )


# --- ROCm: gfx targets match exactly ------------------------------------------------------------
def rocm_host(*gfx: str) -> HostInfo:
    return HostInfo(
        platform="linux-64",
        system="Linux",
        machine="x86_64",
        python="3.11.9",
        rocm="/opt/rocm",
        rocm_gfx=gfx,
    )


def rocm(torch: str, version: str) -> VariantTarget:
    return VariantTarget("rocm" + version, "rocm", version, torch)


def test_rocm_gfx_targets() -> None:
    assert assess_variants(
        rocm_host("gfx942"),
        [rocm("2.2.1", "5.7"), rocm("2.4.0", "6.1"), rocm("2.6.0", "6.1")],
        LINUX,
    ) == [
        Assessment(
            "rocm5.7",
            "no",
            "the AMD GPU (gfx942) is not among the gfx targets of torch 2.2.1 rocm5.7 (gfx900 "
            "gfx906 gfx908 gfx90a gfx1030 gfx1100); first supported in torch 2.3.0 rocm6.0",
        ),
        Assessment(
            "rocm6.1",
            "ok",
            "ROCm runtime found (/opt/rocm); gfx942 in the gfx targets of torch 2.4.0 rocm6.1",
        ),
        Assessment(
            "rocm6.1",
            "ok",
            "ROCm runtime found (/opt/rocm); gfx942: architecture not checked (the matrix has no "
            "gfx list for torch 2.6.0 rocm6.1)",
        ),
    ]


def test_detect_rocm_gfx_from_the_kfd_topology(tmp_path: Path) -> None:
    nodes = tmp_path / "sys/class/kfd/kfd/topology/nodes"
    for node, version in (("0", 0), ("1", 90010), ("2", 110000), ("10", 90010)):
        (nodes / node).mkdir(parents=True)
        (nodes / node / "properties").write_text(
            f"cpu_cores_count 0\ngfx_target_version {version}\nvendor_id 4098\n"
        )
    assert doctor_host.detect_rocm_gfx(nodes) == ("gfx90a", "gfx1100")
    assert doctor_host.detect_rocm_gfx(tmp_path / "missing") == ()


def test_build_smoke_expects_the_matrix_arch_list(tmp_path: Path) -> None:
    from envgen.build.builder import Inventory
    from envgen.build.orchestrate import compiled_archs, smoke_expectation
    from envgen.model.spec import parse_spec
    from envgen.model.variants import expand

    spec = parse_spec(
        'name: p\npython: "3.11"\ntorch: "2.8.0"\naccelerators: [cpu, cu128]\n'
        "platforms: [linux-64]\nmanagers: [pip]\n",
        path=tmp_path / "project.yaml",
    )
    cpu, cu128 = expand(spec, MATRIX).variants
    assert compiled_archs(MATRIX, cpu) == ()
    assert compiled_archs(MATRIX, cu128) == archs_of("2.8.0", "12.8")
    expect = smoke_expectation(cu128, Inventory(pip={}, conda={}), compiled_archs(MATRIX, cu128))
    assert expect.archs == ("sm_70", "sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120")


def test_build_smoke_expects_each_platforms_arch_list(tmp_path: Path) -> None:
    from envgen.build.orchestrate import compiled_archs
    from envgen.model.spec import parse_spec
    from envgen.model.variants import expand

    spec = parse_spec(
        'name: p\npython: "3.11"\ntorch: "2.13.0"\naccelerators: [cu130]\n'
        "platforms: [linux-64, linux-aarch64, win-64]\nmanagers: [pip]\n",
        path=tmp_path / "project.yaml",
    )
    archs = {v.platform: compiled_archs(MATRIX, v) for v in expand(spec, MATRIX).variants}
    assert archs == {
        "linux-64": ("sm_75", "sm_80", "sm_86", "sm_90", "sm_100", "sm_120"),
        "linux-aarch64": ("sm_80", "sm_90", "sm_100", "sm_110", "sm_120"),
        "win-64": (),  # not on PyPI, its release's script not read: unknown, not carried
    }


def test_an_aarch64_host_gets_the_aarch64_rows() -> None:
    platform = doctor_host.platform_name("Linux", "aarch64")
    assert platform == "linux-aarch64"
    facts = gpu_facts(MATRIX, "linux", platform)
    assert "sm_110" in (facts.archs_for("2.11.0", "13.0") or ())
    assert "sm_110" not in (LINUX.archs_for("2.11.0", "13.0") or ("sm_110",))


# --- the rows against real wheels on this machine (skipped where they are absent) -----------
LOCAL_WHEELS = {
    "cuda": Path("/opt/pypi-more/files/torch-2.14.1-cp311-cp311-manylinux_2_28_x86_64.whl"),
    "cpu": Path("/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"),
}


def wheel_arch_flags(wheel: Path) -> tuple[str, list[str]]:
    """(torch.version.cuda line, the arch flags strings of libtorch_python.so) of a wheel."""
    sys.path.insert(0, str(Path(__file__).parents[3] / "scripts"))
    try:
        from wheel_facts import arch_flags, facts
    finally:
        sys.path.pop(0)
    with zipfile.ZipFile(wheel) as z:
        version = facts(z.read("torch/version.py").decode())
        lib = z.read("torch/lib/libtorch_python.so").decode("utf-8", "replace")
    return version.get("cuda", ""), arch_flags(lib)


@pytest.mark.skipif(not LOCAL_WHEELS["cuda"].exists(), reason="no local CUDA torch wheel")
def test_the_cu130_row_is_what_the_real_wheel_was_compiled_for() -> None:
    cuda_version, flags = wheel_arch_flags(LOCAL_WHEELS["cuda"])
    assert cuda_version == "'13.0'"
    row = MATRIX.arch_row("2.14.1", "cuda", "13.0", "linux-64")
    assert row is not None
    assert flags == [" ".join(row.archs)]


@pytest.mark.skipif(not LOCAL_WHEELS["cpu"].exists(), reason="no local CPU torch wheel")
def test_a_cpu_wheel_has_no_arch_flags() -> None:
    assert wheel_arch_flags(LOCAL_WHEELS["cpu"]) == ("None", [])
