"""What this machine has: the NVIDIA driver (nvidia-smi, else /proc), its GPUs, glibc, Python,
the platform and ROCm/XPU device nodes (`detect_host`), and the parsers of what those tools print.

This module must not install, lock or build anything and must not import torch.
"""

from __future__ import annotations

import logging
import os
import platform as _platform
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from envgen.errors import EnvgenError
from envgen.infra import proc as _proc
from envgen.model.targets import load_targets
from envgen.model.types import Platform

log = logging.getLogger(__name__)

NVIDIA_SMI_QUERY: Final = (
    "nvidia-smi",
    "--query-gpu=driver_version,name,compute_cap",
    "--format=csv,noheader",
)

# nvidia-smi before R510 has no compute_cap field: the GPU's architecture is then unknown.
NVIDIA_SMI_QUERY_OLD: Final = (
    "nvidia-smi",
    "--query-gpu=driver_version,name",
    "--format=csv,noheader",
)


# --- host ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Gpu:
    """One NVIDIA GPU as nvidia-smi reports it."""

    name: str
    compute_capability: str | None  # "9.0"; None when this nvidia-smi cannot report it

    @property
    def sm(self) -> str | None:
        """The architecture name torch.cuda.get_arch_list() uses ("9.0" -> "sm_90")."""
        if not self.compute_capability:
            return None
        return "sm_" + self.compute_capability.replace(".", "")


@dataclass(frozen=True, slots=True, kw_only=True)
class HostInfo:
    """What envgen needs to know about the machine it runs on."""

    platform: Platform | None  # None for an OS/arch pair envgen has no builds for
    system: str  # platform.system(): "Linux"
    machine: str  # platform.machine(): "x86_64"
    python: str  # "3.11.9"
    glibc: str | None = None  # "2.35"; None off glibc (macOS, Windows, musl)
    nvidia_driver: str | None = None  # "535.104.05"
    gpus: tuple[Gpu, ...] = ()
    rocm: str | None = None  # the ROCm marker found: "/opt/rocm" or "/dev/kfd"
    rocm_gfx: tuple[str, ...] = ()  # the AMD GPUs' gfx targets (KFD topology): ("gfx90a",)
    xpu: str | None = None  # a DRI render node ("/dev/dri"): maybe an Intel GPU, not verified


def platform_name(system: str, machine: str) -> Platform | None:
    """Map platform.system()/machine() to envgen's platform: matrices/targets.yaml's `hosts`.

    The table is the lockers' too (one home: each row with its source); it is keyed by
    sys.platform, which is platform.system() lowercased except on Windows.

    >>> platform_name("Linux", "x86_64"), platform_name("Darwin", "arm64")
    ('linux-64', 'osx-arm64')
    >>> platform_name("Linux", "arm64") is None  # Linux on arm says aarch64
    True
    """
    key = system.lower()
    return load_targets().host_platform("win32" if key == "windows" else key, machine.lower())


def parse_nvidia_smi(text: str) -> tuple[str | None, tuple[Gpu, ...]]:
    """Parse `nvidia-smi --query-gpu=driver_version,name,compute_cap --format=csv,noheader`.

    >>> parse_nvidia_smi("535.104.05, NVIDIA A100-SXM4-80GB, 8.0\\n")
    ('535.104.05', (Gpu(name='NVIDIA A100-SXM4-80GB', compute_capability='8.0'),))
    """
    driver: str | None = None
    gpus: list[Gpu] = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) < 2 or not re.fullmatch(r"\d+(\.\d+)*", parts[0]):
            continue
        driver = driver or parts[0]
        cap = parts[2] if len(parts) > 2 and re.fullmatch(r"\d+\.\d+", parts[2]) else None
        gpus.append(Gpu(name=parts[1], compute_capability=cap))
    return driver, tuple(gpus)


def parse_proc_driver_version(text: str) -> str | None:
    """The driver version in /proc/driver/nvidia/version.

    >>> parse_proc_driver_version(
    ...     "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15 UTC 2023"
    ... )
    '535.104.05'
    """
    match = re.search(r"Kernel Module(?:\s+for\s+\S+)?\s+(\d+(?:\.\d+)+)", text)
    return match.group(1) if match else None


def detect_glibc() -> str | None:
    """The C library version when it is glibc ("2.35"), else None."""
    try:
        value = os.confstr("CS_GNU_LIBC_VERSION")  # "glibc 2.35"
    except (AttributeError, ValueError, OSError):
        value = None
    if value and value.startswith("glibc "):
        return value.split()[1]
    lib, version = _platform.libc_ver()
    return version if lib == "glibc" and version else None


def detect_host(*, root: Path = Path("/")) -> HostInfo:
    """Inspect this machine. Missing tools or files are absences, never errors.

    Args:
        root: where /proc, /opt/rocm and /dev are looked up (tests point it at a fake tree).
    """
    system, machine = _platform.system(), _platform.machine()
    driver, gpus = _query_nvidia_smi()
    if driver is None:
        try:
            text = (root / "proc/driver/nvidia/version").read_text(encoding="utf-8")
        except OSError:
            text = ""
        driver = parse_proc_driver_version(text)
    rocm = next(
        (f"/{m}" for m in ("opt/rocm", "dev/kfd") if (root / m).exists()),
        None,
    )
    xpu = "/dev/dri" if (root / "dev/dri").is_dir() else None
    gfx = detect_rocm_gfx(root / "sys/class/kfd/kfd/topology/nodes")
    return HostInfo(
        platform=platform_name(system, machine),
        system=system,
        machine=machine,
        python=".".join(str(p) for p in sys.version_info[:3]),
        glibc=detect_glibc() if system == "Linux" else None,
        nvidia_driver=driver,
        gpus=gpus,
        rocm=rocm,
        rocm_gfx=gfx,
        xpu=xpu,
    )


def gfx_name(target_version: int) -> str | None:
    """The gfx target for a KFD gfx_target_version (major*10000 + minor*100 + stepping).

    >>> gfx_name(90010), gfx_name(90402), gfx_name(110000), gfx_name(0)
    ('gfx90a', 'gfx942', 'gfx1100', None)
    """
    if target_version <= 0:
        return None
    major, rest = divmod(target_version, 10000)
    minor, stepping = divmod(rest, 100)
    return f"gfx{major}{minor:x}{stepping:x}"


def detect_rocm_gfx(nodes: Path) -> tuple[str, ...]:
    """The gfx targets of the AMD GPUs in the KFD topology (CPU nodes report 0), in node order."""
    found: list[str] = []
    try:
        entries = sorted(nodes.iterdir(), key=lambda p: (len(p.name), p.name))[:64]
    except OSError:
        return ()
    for node in entries:
        try:
            text = (node / "properties").read_text(encoding="utf-8")[:65536]
        except OSError:
            continue
        match = _GFX_TARGET.search(text)
        name = gfx_name(int(match.group(1))) if match else None
        if name is not None and name not in found:
            found.append(name)
    return tuple(found)


_GFX_TARGET: Final = re.compile(r"^gfx_target_version (\d{1,9})$", re.MULTILINE)


def _query_nvidia_smi() -> tuple[str | None, tuple[Gpu, ...]]:
    tool = _proc.which("nvidia-smi")
    if tool is None:
        return None, ()
    try:
        result = _proc.run(
            [tool, *NVIDIA_SMI_QUERY[1:]], what="nvidia-smi", timeout=30, check=False
        )
    except EnvgenError as exc:
        log.debug("nvidia-smi failed: %s", exc)
        return None, ()
    if result.returncode != 0:
        # e.g. "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver", or
        # an nvidia-smi older than compute_cap (R510): ask again without it.
        log.debug("nvidia-smi exited %d: %s", result.returncode, result.stdout + result.stderr)
        try:
            result = _proc.run(
                [tool, *NVIDIA_SMI_QUERY_OLD[1:]], what="nvidia-smi", timeout=30, check=False
            )
        except EnvgenError as exc:
            log.debug("nvidia-smi failed: %s", exc)
            return None, ()
        if result.returncode != 0:
            return None, ()
    return parse_nvidia_smi(result.stdout)
