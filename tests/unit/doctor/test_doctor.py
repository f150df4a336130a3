"""Unit tests of envgen.doctor: error explanations, driver tables, host detection (no processes)."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest

from envgen.doctor import host as doctor_host
from envgen.doctor import verdicts
from envgen.doctor.explain import Diagnosis, explain_error
from envgen.doctor.host import Gpu, HostInfo
from envgen.doctor.verdicts import Assessment, assess_variants, newest_cuda_for_driver
from envgen.infra import proc as _proc
from envgen.model.matrix import Driver
from envgen.model.types import ComputeKind

# NVIDIA CUDA release notes, table 3 (toolkit driver versions, Linux x86_64).
DRIVERS = [
    ("10.2", "440.33"),
    ("11.3", "465.19.01"),
    ("11.8", "520.61.05"),
    ("12.1", "530.30.02"),
    ("12.4", "550.54.14"),
    ("12.8", "570.26"),
]

ABI_FIX = (
    "reinstall torch, torchvision and torchaudio from the same release with envgen's lock "
    "(`envgen lock` pins matching companions), and rebuild your own extensions against the "
    "torch that is installed"
)
NO_KERNEL_FIX = (
    "use a torch build whose arch list includes your GPU: new GPUs need a newer CUDA variant "
    "(e.g. Blackwell sm_120 needs CUDA 12.8+), old GPUs were dropped from recent releases "
    "(use an older torch)"
)


def linux_host(**changes: object) -> HostInfo:
    base: dict[str, object] = {
        "platform": "linux-64",
        "system": "Linux",
        "machine": "x86_64",
        "python": "3.11.9",
        "glibc": "2.35",
    }
    base.update(changes)
    return HostInfo(**base)  # type: ignore[arg-type]


# --- explain_error ---------------------------------------------------------------------------
EXPLAINED = {
    "libcudart-11.0": (
        (
            'Traceback (most recent call last):\n  File "train.py", line 1, in <module>\n'
            "    import torch\n"
            "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory"
        ),
        Diagnosis(
            title="CUDA 11 runtime library missing: libcudart.so.11.0",
            cause="a CUDA 11 build of torch, or another package with CUDA code, needs libcudart and the dynamic loader cannot find libcudart.so.11.0; libcudart.so.11.0 is the soname of every CUDA 11.x release, so it names CUDA 11, not a minor release: installing CUDA 11.0 to get it is wrong advice unless the package was built for 11.0",
            fix="install the CUDA 11.x runtime the package was built with: for torch, the torch build for your CUDA 11.N variant through envgen (the pip wheels bundle the runtime; torch.version.cuda names N); in conda cudatoolkit=11.N with the same N as the package's build; for another package (tensorflow, an extension), the CUDA it names, or lock it with torch for the same CUDA version",
        ),
    ),
    "libcublas-12": (
        "ImportError: libcublas.so.12: cannot open shared object file: No such file or directory",
        Diagnosis(
            title="CUDA 12 runtime library missing: libcublas.so.12",
            cause="a CUDA 12 build of torch, or another package with CUDA code, needs libcublas and the dynamic loader cannot find libcublas.so.12; libcublas.so.12 is the soname of every CUDA 12.x release, so it names CUDA 12, not a minor release: installing CUDA 12.0 to get it is wrong advice unless the package was built for 12.0",
            fix="install the CUDA 12.x runtime the package was built with: for torch, the torch build for your CUDA 12.N variant through envgen (the pip wheels bundle the runtime; torch.version.cuda names N); in conda cuda-runtime with cuda-version=12.N with the same N as the package's build; for another package (tensorflow, an extension), the CUDA it names, or lock it with torch for the same CUDA version",
        ),
    ),
    "libcudnn-8": (
        "OSError: libcudnn.so.8: cannot open shared object file: No such file or directory",
        Diagnosis(
            title="cuDNN library missing: libcudnn.so.8",
            cause="torch (or an extension) was built against cuDNN 8, which is not found",
            fix=(
                "install torch through envgen's lock for your CUDA variant (the pip wheels pull "
                "in nvidia-cudnn), or in conda install cudnn=8"
            ),
        ),
    ),
    "undefined-symbol-torchaudio": (
        (
            "OSError: /home/u/.venv/lib/python3.10/site-packages/torchaudio/lib/libtorchaudio.so: "
            "undefined symbol: _ZNK3c105Error4whatEv"
        ),
        Diagnosis(
            title="ABI mismatch: undefined symbol in torchaudio",
            cause=(
                "a compiled extension in torchaudio refers to _ZNK3c105Error4whatEv, which the "
                "installed torch does not have: torchvision/torchaudio from another torch "
                "release, or an extension built against another torch"
            ),
            fix=ABI_FIX,
        ),
    ),
    "undefined-symbol-bare": (
        "ImportError: undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefIlEE",
        Diagnosis(
            title="ABI mismatch: undefined symbol",
            cause=(
                "a compiled extension refers to _ZN2at4_ops5zeros4callEN3c108ArrayRefIlEE, which "
                "the installed torch does not have: torchvision/torchaudio from another torch "
                "release, or an extension built against another torch"
            ),
            fix=ABI_FIX,
        ),
    ),
    "glibc-2.28": (
        (
            "ImportError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.28' not found "
            "(required by /opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cpu.so)"
        ),
        Diagnosis(
            title="glibc too old: the wheel needs GLIBC_2.28",
            cause=(
                "a binary wheel was built for a newer Linux (its manylinux tag requires glibc "
                ">= 2.28) than this host provides"
            ),
            fix=(
                "run on an OS or container image with glibc >= 2.28, or pick an older torch "
                "release whose wheels use an older manylinux tag (e.g. manylinux2014: glibc 2.17)"
            ),
        ),
    ),
    "glibcxx": (
        (
            "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not "
            "found (required by "
            "/opt/conda/lib/python3.11/site-packages/torch/lib/libtorch_python.so)"
        ),
        Diagnosis(
            title="libstdc++ too old: GLIBCXX_3.4.29 not found",
            cause="a compiled module (/opt/conda/lib/python3.11/site-packages/torch/lib/libtorch_python.so) needs GLIBCXX_3.4.29, first shipped with GCC 11.1.0's libstdc++; the loaded /usr/lib/x86_64-linux-gnu/libstdc++.so.6 is the system's, older than that; in a conda environment it shadows the environment's newer one (LD_LIBRARY_PATH, or a module that loaded it first)",
            fix="in conda, install libstdcxx-ng>=11 from conda-forge into the environment and make sure its lib/ is the one loaded (no system lib directory first on LD_LIBRARY_PATH); otherwise use an OS image whose GCC is at least 11.1.0, or a build of the module made with an older compiler (PyPI's manylinux wheels of torch bundle what they need)",
        ),
    ),
    "nms": (
        "RuntimeError: operator torchvision::nms does not exist",
        Diagnosis(
            title="torchvision does not match torch",
            cause=(
                "torchvision's compiled ops (torchvision::nms) failed to register: the installed "
                "torchvision was built for another torch release or build (cpu vs cuda)"
            ),
            fix=(
                "install the torchvision paired with your torch (the matrix's releases table), "
                "from the same index and with the same local label (+cpu / +cu118); `envgen lock` "
                "pins both"
            ),
        ),
    ),
    "not-compiled-with-cuda": (
        "AssertionError: Torch not compiled with CUDA enabled",
        Diagnosis(
            title="CPU-only torch in a CUDA environment",
            cause=(
                "the installed torch is a CPU-only build: a +cpu wheel or the conda cpuonly build "
                "slipped in (often PyPI's wheel on Windows/macOS, or a cpuonly package in conda)"
            ),
            fix=(
                "reinstall from envgen's lock for the CUDA variant (it pins torch==X+cuNNN from "
                "the PyTorch index); check `pip list` shows +cuNNN, and in conda remove cpuonly"
            ),
        ),
    ),
    "driver-too-old": (
        (
            "RuntimeError: The NVIDIA driver on your system is too old (found version 10020). "
            "Please update your GPU driver by downloading and installing a new version from "
            "the URL: "
            "http://www.nvidia.com/Download/index.aspx"
        ),
        Diagnosis(
            title="NVIDIA driver too old (it supports CUDA 10.2)",
            cause=(
                "the driver reports CUDA version 10020 (CUDA 10.2), older than the CUDA runtime "
                "this torch was built with"
            ),
            fix=(
                "update the NVIDIA driver, or use an envgen variant for CUDA 10.2 or older "
                "(`envgen doctor` lists the variants this host can run)"
            ),
        ),
    ),
    "no-driver": (
        (
            "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an "
            "NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"
        ),
        Diagnosis(
            title="no NVIDIA driver",
            cause="a CUDA build of torch runs on a host without an NVIDIA driver (or GPU)",
            fix="install the NVIDIA driver, or use the cpu variant on this host",
        ),
    ),
    "driver-insufficient": (
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
        Diagnosis(
            title="CUDA driver older than the CUDA runtime",
            cause="the NVIDIA driver is older than the minimum for the CUDA runtime torch uses",
            fix=(
                "update the NVIDIA driver, or use the variant for an older CUDA version "
                "(`envgen doctor` compares your driver with the drivers table)"
            ),
        ),
    ),
    "no-kernel-image": (
        (
            "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
            "CUDA kernel errors might be asynchronously reported at some other API call"
        ),
        Diagnosis(
            title="GPU architecture not in torch's compiled list",
            cause=(
                "torch was not compiled for the GPU's architecture: compare "
                "torch.cuda.get_arch_list() with torch.cuda.get_device_capability()"
            ),
            fix=NO_KERNEL_FIX,
        ),
    ),
    "sm_120-warning": (
        (
            "UserWarning: \nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible "
            "with the current PyTorch installation.\nThe current PyTorch install supports CUDA "
            "capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90."
        ),
        Diagnosis(
            title="GPU architecture not in torch's compiled list",
            cause=(
                "torch was not compiled for the GPU (sm_120): compare torch.cuda.get_arch_list() "
                "with torch.cuda.get_device_capability()"
            ),
            fix=NO_KERNEL_FIX,
        ),
    ),
    "numpy-2": (
        (
            "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.2 as it may "
            "crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with "
            "NumPy 2.0."
        ),
        Diagnosis(
            title="module built for NumPy 1.x under NumPy 2.0.2",
            cause=(
                "a compiled module (often an older torch, < 2.3) was built against NumPy 1.x and "
                "cannot run with NumPy 2.0.2"
            ),
            fix=(
                'pin "numpy<2" in the spec (or upgrade the module to a release built for NumPy '
                "2; torch >= 2.3 supports it)"
            ),
        ),
    ),
    "is-available-false": (
        "torch.cuda.is_available() returns False on my machine",
        Diagnosis(
            title="torch.cuda.is_available() is False",
            cause=(
                "either a CPU-only build slipped in (a +cpu wheel or conda's cpuonly; "
                "torch.version.cuda is None), the driver is too old for torch's CUDA version, or "
                "no GPU is visible (CUDA_VISIBLE_DEVICES, container without --gpus)"
            ),
            fix=(
                "check torch.version.cuda: if None, reinstall from envgen's lock for the CUDA "
                "variant; otherwise compare the driver with `envgen doctor`, and check nvidia-smi "
                "sees the GPU"
            ),
        ),
    ),
    "no-matching-version": (
        (
            "ERROR: Could not find a version that satisfies the requirement torch==2.1.0+cu118 "
            "(from versions: 2.2.0, 2.2.1)"
        ),
        Diagnosis(
            title="no installable wheel for torch==2.1.0+cu118",
            cause=(
                "the indexes searched have no wheel for this Python and platform: the release "
                "does not support this Python, or the local label (+cu118) lives only on the "
                "PyTorch index"
            ),
            fix=(
                "install from envgen's generated requirements (they name the PyTorch index), and "
                "check which Pythons the release supports with `envgen list`"
            ),
        ),
    ),
}


@pytest.mark.parametrize("key", sorted(EXPLAINED))
def test_explain_error(key: str) -> None:
    text, expected = EXPLAINED[key]
    assert explain_error(text) == [expected]


def test_explain_error_names_the_hosts_glibc() -> None:
    text = "version `GLIBC_2.34' not found (required by libtorch_cpu.so)"
    assert explain_error(text, host=linux_host(glibc="2.31")) == [
        Diagnosis(
            title="glibc too old: the wheel needs GLIBC_2.34",
            cause=(
                "a binary wheel was built for a newer Linux (its manylinux tag requires glibc "
                ">= 2.34) than this host provides (this host has glibc 2.31)"
            ),
            fix=(
                "run on an OS or container image with glibc >= 2.34, or pick an older torch "
                "release whose wheels use an older manylinux tag (e.g. manylinux2014: glibc 2.17)"
            ),
        )
    ]


def test_explain_error_finds_several_in_a_log_once_each() -> None:
    log = "\n".join(
        [
            EXPLAINED["nms"][0],
            EXPLAINED["numpy-2"][0],
            EXPLAINED["nms"][0],
        ]
    )
    assert explain_error(log) == [EXPLAINED["nms"][1], EXPLAINED["numpy-2"][1]]


def test_explain_error_reports_each_distinct_match() -> None:
    log = (
        "ERROR: Could not find a version that satisfies the requirement torch==2.1.0+cu118\n"
        "ERROR: Could not find a version that satisfies the requirement torchvision==0.16.0\n"
    )
    assert [d.title for d in explain_error(log)] == [
        "no installable wheel for torch==2.1.0+cu118",
        "no installable wheel for torchvision==0.16.0",
    ]


def test_explain_error_unknown_text() -> None:
    assert explain_error("ModuleNotFoundError: No module named 'yaml'") == []


# --- drivers ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("driver", "expected"),
    [
        ("535.104.05", "12.1"),
        ("530.30.02", "12.1"),  # exactly the minimum
        ("530.30.01", "11.8"),
        ("525.60.13", "11.8"),
        ("470.82.01", "11.3"),
        ("450.80.02", "10.2"),
        ("418.67", None),
        ("570.26", "12.8"),
        ("1000.1", "12.8"),  # numeric, not string, comparison
    ],
)
def test_newest_cuda_for_driver(driver: str, expected: str | None) -> None:
    assert newest_cuda_for_driver(driver, DRIVERS) == expected


def test_newest_cuda_for_driver_orders_cuda_numerically() -> None:
    rows = [("12.10", "600"), ("12.9", "590")]
    assert newest_cuda_for_driver("700", rows) == "12.10"


def test_driver_rows_from_matrix() -> None:
    drivers = [
        Driver(cuda="11.8", linux="520.61.05", windows="520.06", source="nvidia"),
        Driver(cuda="12.1", linux="530.30.02", windows=None, source="nvidia"),
    ]
    assert verdicts.driver_rows(drivers) == [("11.8", "520.61.05"), ("12.1", "530.30.02")]
    assert verdicts.driver_rows(drivers, "windows") == [("11.8", "520.06")]


VARIANTS: list[tuple[str, ComputeKind, str | None]] = [
    ("cpu", "cpu", None),
    ("cu118", "cuda", "11.8"),
    ("cu124", "cuda", "12.4"),
    ("cu999", "cuda", "99.9"),
    ("rocm6.1", "rocm", "6.1"),
    ("xpu", "xpu", None),
]


def test_assess_variants_with_a_driver() -> None:
    host = linux_host(nvidia_driver="535.104.05", rocm="/opt/rocm")
    assert assess_variants(host, VARIANTS, DRIVERS) == [
        Assessment("cpu", "ok", reason="CPU builds run on any host"),
        Assessment(
            "cu118", "ok", reason="driver 535.104.05 >= 520.61.05, the minimum for CUDA 11.8"
        ),
        Assessment(
            "cu124",
            "no",
            reason=(
                "driver 535.104.05 is older than 550.54.14, the minimum for CUDA 12.4; "
                "the newest CUDA it supports is 12.1"
            ),
        ),
        Assessment(
            "cu999",
            "no",
            reason="CUDA 99.9 is not in the drivers table; cannot check driver 535.104.05",
        ),
        Assessment("rocm6.1", "ok", reason="ROCm runtime found (/opt/rocm)"),
        Assessment("xpu", "no", reason="no GPU render device (/dev/dri missing)"),
    ]


def test_assess_variants_without_a_driver() -> None:
    host = linux_host(xpu="/dev/dri")
    assert assess_variants(host, VARIANTS, DRIVERS) == [
        Assessment("cpu", "ok", reason="CPU builds run on any host"),
        Assessment(
            "cu118",
            "no",
            reason=(
                "no NVIDIA driver found (nvidia-smi, /proc/driver/nvidia); "
                "CUDA 11.8 needs driver >= 520.61.05"
            ),
        ),
        Assessment(
            "cu124",
            "no",
            reason=(
                "no NVIDIA driver found (nvidia-smi, /proc/driver/nvidia); "
                "CUDA 12.4 needs driver >= 550.54.14"
            ),
        ),
        Assessment(
            "cu999",
            "no",
            reason="no NVIDIA driver found (nvidia-smi, /proc/driver/nvidia); CUDA 99.9",
        ),
        Assessment("rocm6.1", "no", reason="no ROCm runtime (/opt/rocm and /dev/kfd missing)"),
        Assessment(
            "xpu",
            "ok",
            reason="a GPU render device exists (/dev/dri); that it is an Intel GPU is not checked",
        ),
    ]


def test_assess_variants_on_macos() -> None:
    host = linux_host(platform="osx-arm64", system="Darwin", machine="arm64", glibc=None)
    variants: list[tuple[str, ComputeKind, str | None]] = [
        ("cu118", "cuda", "11.8"),
        ("rocm6.1", "rocm", "6.1"),
    ]
    assert assess_variants(host, variants, DRIVERS) == [
        Assessment("cu118", "no", reason="macOS has no CUDA builds of torch"),
        Assessment("rocm6.1", "no", reason="ROCm builds exist for linux-64 only"),
    ]


# --- host ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "machine", "expected"),
    [
        ("Linux", "x86_64", "linux-64"),
        ("Linux", "aarch64", "linux-aarch64"),
        ("Darwin", "x86_64", "osx-64"),
        ("Darwin", "arm64", "osx-arm64"),
        ("Windows", "AMD64", "win-64"),
        ("Linux", "ppc64le", None),
        ("FreeBSD", "amd64", None),
    ],
)
def test_platform_name(system: str, machine: str, expected: str | None) -> None:
    assert doctor_host.platform_name(system, machine) == expected


def test_parse_nvidia_smi_two_gpus_and_old_smi() -> None:
    text = "550.54.15, NVIDIA H100 80GB HBM3, 9.0\n550.54.15, NVIDIA A10, 8.6\n"
    assert doctor_host.parse_nvidia_smi(text) == (
        "550.54.15",
        (
            Gpu(name="NVIDIA H100 80GB HBM3", compute_capability="9.0"),
            Gpu(name="NVIDIA A10", compute_capability="8.6"),
        ),
    )
    # nvidia-smi older than 510 answers "[N/A]" or an error line for compute_cap.
    assert doctor_host.parse_nvidia_smi("470.82.01, Tesla T4, [N/A]\n") == (
        "470.82.01",
        (Gpu(name="Tesla T4", compute_capability=None),),
    )
    assert doctor_host.parse_nvidia_smi('Field "compute_cap" is not a valid field to query.\n') == (
        None,
        (),
    )
    assert Gpu(name="x", compute_capability="12.0").sm == "sm_120"


def test_parse_proc_driver_version_open_kernel_module() -> None:
    text = (
        "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release Build  "
        "(dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024\n"
        "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n"
    )
    assert doctor_host.parse_proc_driver_version(text) == "550.54.14"
    assert doctor_host.parse_proc_driver_version("") is None


def _fake_root(tmp_path: Path) -> Path:
    (tmp_path / "proc/driver/nvidia").mkdir(parents=True)
    (tmp_path / "proc/driver/nvidia/version").write_text(
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  525.85.12  Sat Jan 28 02:10:06 UTC 2023\n"
    )
    (tmp_path / "dev/kfd").mkdir(parents=True)
    return tmp_path


def test_detect_host_falls_back_to_proc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_proc, "which", lambda _tool: None)
    monkeypatch.setattr(platform, "system", lambda: "Linux")
    monkeypatch.setattr(platform, "machine", lambda: "x86_64")
    host = doctor_host.detect_host(root=_fake_root(tmp_path))
    assert (host.platform, host.nvidia_driver, host.gpus, host.rocm, host.xpu) == (
        "linux-64",
        "525.85.12",
        (),
        "/dev/kfd",
        None,
    )


def test_detect_host_uses_nvidia_smi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, ...]] = []

    def fake_run(args: list[str], **_kwargs: object) -> _proc.Completed:
        calls.append(tuple(args))
        return _proc.Completed(
            args=tuple(args),
            returncode=0,
            stdout="550.54.15, NVIDIA H200, 9.0\n",
            stderr="",
            seconds=0.1,
        )

    monkeypatch.setattr(_proc, "which", lambda tool: f"/usr/bin/{tool}")
    monkeypatch.setattr(_proc, "run", fake_run)
    host = doctor_host.detect_host(root=_fake_root(tmp_path))
    assert calls == [
        (
            "/usr/bin/nvidia-smi",
            "--query-gpu=driver_version,name,compute_cap",
            "--format=csv,noheader",
        )
    ]
    assert (host.nvidia_driver, host.gpus) == (
        "550.54.15",
        (Gpu(name="NVIDIA H200", compute_capability="9.0"),),
    )


def test_detect_host_when_nvidia_smi_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_run(args: list[str], **_kwargs: object) -> _proc.Completed:
        return _proc.Completed(
            args=tuple(args),
            returncode=9,
            stdout="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.",
            stderr="",
            seconds=0.1,
        )

    monkeypatch.setattr(_proc, "which", lambda tool: f"/usr/bin/{tool}")
    monkeypatch.setattr(_proc, "run", failing_run)
    host = doctor_host.detect_host(root=_fake_root(tmp_path))
    assert (host.nvidia_driver, host.gpus) == ("525.85.12", ())


def test_detect_glibc_here() -> None:
    glibc = doctor_host.detect_glibc()
    assert glibc is None or glibc.replace(".", "").isdigit()
