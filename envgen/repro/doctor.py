"""Host diagnosis: what this machine can run, and what a classic torch error message means.

`detect_host` reads the NVIDIA driver (nvidia-smi, else /proc), glibc, Python, the platform and
ROCm/XPU device nodes. `newest_cuda_for_driver` and `assess_variants` compare the host with the
matrix's drivers table (pure). `explain_error` maps a pasted error message to diagnoses with a
cause and a fix. This module must not install, lock or build anything, must not import torch,
and must not depend on envgen.model.variants (it takes plain tuples).
"""

from __future__ import annotations

import logging
import os
import platform as _platform
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from packaging.version import Version

from envgen.errors import EnvgenError, FileSystemError
from envgen.infra import proc as _proc
from envgen.model.targets import load_targets
from envgen.model.types import ComputeKind, Os, Platform
from envgen.smoke.script import PTX_BLOCKED, arch_support, describe_support

if TYPE_CHECKING:
    from envgen.model.matrix import Driver, Matrix, MinorCompat

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


# --- drivers ---------------------------------------------------------------------------------
def _numbers(version: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", version))


def driver_rows(drivers: Iterable[Driver], os_name: Os = "linux") -> list[tuple[str, str]]:
    """The matrix's drivers table as (cuda, minimum driver) pairs for one OS."""
    rows: list[tuple[str, str]] = []
    for d in drivers:
        minimum = d.windows if os_name == "windows" else d.linux
        if minimum:
            rows.append((d.cuda, minimum))
    return rows


def family_floors(rows: Iterable[MinorCompat], os_name: Os = "linux") -> dict[int, str]:
    """minor-compat.yaml as {CUDA major: the minimum driver for the whole family} for one OS."""
    floors: dict[int, str] = {}
    for row in rows:
        minimum = row.windows if os_name == "windows" else row.linux
        if minimum:
            floors[row.cuda_major] = minimum
    return floors


def newest_cuda_for_driver(
    driver: str, drivers: Sequence[tuple[str, str]], families: Mapping[int, str] | None = None
) -> str | None:
    """The newest CUDA version `driver` runs (numeric comparison): its own minimum is met, or,
    with `families`, the CUDA major's minor-version-compatibility floor is.

    >>> newest_cuda_for_driver("525.85.12", [("11.8", "520.61.05"), ("12.1", "530.30.02")])
    '11.8'
    >>> newest_cuda_for_driver("535.104.05", [("12.1", "530.30.02"), ("12.4", "550.54.14")],
    ...                        {12: "525.60.13"})
    '12.4'
    """
    have = _numbers(driver)
    floors = families or {}
    usable = [
        cuda
        for cuda, minimum in drivers
        if have >= _numbers(minimum)
        or (_major(cuda) in floors and have >= _numbers(floors[_major(cuda)]))
    ]
    return max(usable, key=_numbers, default=None)


def _major(cuda: str) -> int:
    return _numbers(cuda)[0] if _numbers(cuda) else 0


def minimum_driver(cuda: str, drivers: Sequence[tuple[str, str]]) -> str | None:
    """The minimum driver for `cuda` ("11.8" also matches a "11.8.0" row)."""
    want = _numbers(cuda)
    for row_cuda, minimum in drivers:
        if _numbers(row_cuda)[: len(want)] == want or _numbers(row_cuda) == want[:2]:
            return minimum
    return None


Verdict = Literal["ok", "minor-compat", "no"]

# What running through minor-version compatibility costs (NVIDIA, CUDA Compatibility,
# "Application Considerations for Minor Version Compatibility").
MINOR_COMPAT_COST: Final = (
    "no JIT of PTX newer than the driver (cudaErrorUnsupportedPtxVersion: a GPU this build has "
    "only PTX for will not run) and no APIs that need a newer driver "
    "(cudaErrorCallRequiresNewerDriver)"
)


def driver_verdict(
    driver: str, cuda: str, drivers: Sequence[tuple[str, str]], families: Mapping[int, str]
) -> tuple[Verdict, str]:
    """Whether `driver` runs CUDA `cuda`: at its own minimum, through minor-version
    compatibility (the CUDA major's floor, CUDA 11 and later), or not at all."""
    have = _numbers(driver)
    own = minimum_driver(cuda, drivers)
    major = _major(cuda)
    floor = families.get(major)
    if own is not None and have >= _numbers(own):
        return "ok", f"driver {driver} >= {own}, the minimum for CUDA {cuda}"
    if floor is not None and have >= _numbers(floor):
        below = (
            f"driver {driver} is older than {own}, the minimum for CUDA {cuda}, but"
            if own is not None
            else f"the drivers table has no own minimum for CUDA {cuda} here; driver {driver} is"
        )
        return "minor-compat", (
            f"{below} >= {floor}, the minimum for any CUDA {major}.x: it runs through "
            f"minor-version compatibility, with {MINOR_COMPAT_COST}"
        )
    if own is None and floor is None:
        return "no", f"CUDA {cuda} is not in the drivers table; cannot check driver {driver}"
    if floor is None:
        why = f"{own}, the minimum for CUDA {cuda}"
    else:
        own_note = f" (CUDA {cuda}'s own minimum is {own})" if own is not None else ""
        why = (
            f"{floor}, the minimum for any CUDA {major}.x even through minor-version "
            f"compatibility{own_note}"
        )
    newest = newest_cuda_for_driver(driver, drivers, families)
    best = f"; the newest CUDA it supports is {newest}" if newest else ""
    return "no", f"driver {driver} is older than {why}{best}"


@dataclass(frozen=True, slots=True)
class ArchBuild:
    """One published CUDA build on the host's platform and its compiled architectures."""

    torch: str
    cuda: str  # the CUDA (or, for kind rocm, ROCm) version
    archs: tuple[str, ...] | None  # torch.cuda.get_arch_list() names; None: not recorded
    kind: Literal["cuda", "rocm"] = "cuda"

    @property
    def label(self) -> str:
        if self.kind == "rocm":
            return f"torch {self.torch} rocm{self.cuda}"
        return f"torch {self.torch} cu{self.cuda.replace('.', '')}"


@dataclass(frozen=True, slots=True, kw_only=True)
class GpuFacts:
    """What doctor compares the host with: the driver floors and each build's architectures."""

    drivers: Sequence[tuple[str, str]]  # (CUDA, the toolkit's own minimum driver), one OS
    families: Mapping[int, str] = field(default_factory=dict)  # CUDA major -> minor-compat floor
    builds: tuple[ArchBuild, ...] = ()  # oldest release first, then CUDA ascending

    def archs_for(self, torch: str, cuda: str, kind: str = "cuda") -> tuple[str, ...] | None:
        for b in self.builds:
            if b.torch == torch and b.cuda == cuda and b.kind == kind:
                return b.archs
        return None


def gpu_facts(matrix: Matrix, os_name: Os, platform: Platform | None) -> GpuFacts:
    """The matrix's GPU facts for one OS and platform (pip builds with a recorded arch list)."""
    builds: set[ArchBuild] = set()
    if platform is not None:
        for b in matrix.pip:
            if b.kind not in ("cuda", "rocm") or b.version is None or platform not in b.platforms:
                continue
            row = matrix.arch_row(b.release, b.kind, b.version, platform)
            archs = row.archs if row is not None else None
            builds.add(ArchBuild(b.release, b.version, archs, b.kind))
    ordered = sorted(builds, key=lambda b: (b.kind, Version(b.torch), _numbers(b.cuda)))
    return GpuFacts(
        drivers=driver_rows(matrix.drivers, os_name),
        families=family_floors(matrix.minor_compat, os_name),
        builds=tuple(ordered),
    )


class VariantTarget(NamedTuple):
    """The part of a variant that decides whether this host can run it."""

    variant_id: str
    kind: ComputeKind
    version: str | None  # the CUDA / ROCm version; None for cpu and xpu
    torch: str | None = None  # the torch release, for the GPU-architecture check


class Assessment(NamedTuple):
    """Whether this host can run one variant (ok, ok through minor-version compatibility, or
    no), and why."""

    variant_id: str
    verdict: Verdict
    reason: str

    @property
    def ok(self) -> bool:
        return self.verdict != "no"


def assess_variants(
    host: HostInfo,
    variants: Iterable[tuple[str, ComputeKind, str | None] | VariantTarget],
    drivers: Sequence[tuple[str, str]] | GpuFacts,
) -> list[Assessment]:
    """Say for each (variant_id, kind, version[, torch]) whether this host can run it, in input
    order. `drivers` is the full GpuFacts, or only the drivers table (no minor-version
    compatibility, no architecture check)."""
    facts = drivers if isinstance(drivers, GpuFacts) else GpuFacts(drivers=drivers)
    return [_assess(host, VariantTarget(*v), facts) for v in variants]


def _assess(host: HostInfo, v: VariantTarget, facts: GpuFacts) -> Assessment:
    if v.kind == "cpu":
        return Assessment(v.variant_id, "ok", "CPU builds run on any host")
    if v.kind == "cuda":
        return Assessment(v.variant_id, *_assess_cuda(host, v, facts))
    if v.kind == "rocm":
        if host.platform != "linux-64":
            return Assessment(v.variant_id, "no", "ROCm builds exist for linux-64 only")
        if host.rocm is None:
            return Assessment(
                v.variant_id, "no", "no ROCm runtime (/opt/rocm and /dev/kfd missing)"
            )
        return Assessment(v.variant_id, *_assess_rocm(host, v, facts))
    if host.xpu is None:
        return Assessment(v.variant_id, "no", "no GPU render device (/dev/dri missing)")
    return Assessment(
        v.variant_id,
        "ok",
        "a GPU render device exists (/dev/dri); that it is an Intel GPU is not checked",
    )


def _assess_cuda(host: HostInfo, v: VariantTarget, facts: GpuFacts) -> tuple[Verdict, str]:
    cuda = v.version or ""
    if host.platform is not None and host.platform.startswith("osx"):
        return "no", "macOS has no CUDA builds of torch"
    if host.nvidia_driver is None:
        minimum = minimum_driver(cuda, facts.drivers)
        need = f"CUDA {cuda} needs driver >= {minimum}" if minimum else f"CUDA {cuda}"
        return "no", f"no NVIDIA driver found (nvidia-smi, /proc/driver/nvidia); {need}"
    verdict, reason = driver_verdict(host.nvidia_driver, cuda, facts.drivers, facts.families)
    if verdict == "no" and v.torch is not None:
        return verdict, reason + _same_release_alternative(host, v.torch, facts)
    if v.torch is None:
        return verdict, reason
    notes: list[str] = []
    for gpu in host.gpus:
        arch_verdict, note = _assess_arch(host, gpu, v.torch, cuda, facts, ptx=verdict == "ok")
        if arch_verdict == "no":
            return "no", note
        notes.append(note)
    return verdict, "; ".join([reason, *notes])


def _assess_rocm(host: HostInfo, v: VariantTarget, facts: GpuFacts) -> tuple[Verdict, str]:
    """ROCm code objects are built per gfx target and run only on exactly that target."""
    reason = f"ROCm runtime found ({host.rocm})"
    if not host.rocm_gfx or v.torch is None or v.version is None:
        return "ok", reason
    label = f"torch {v.torch} rocm{v.version}"
    archs = facts.archs_for(v.torch, v.version, "rocm")
    if archs is None:
        return "ok", (
            f"{reason}; {' '.join(host.rocm_gfx)}: architecture not checked (the matrix has no "
            f"gfx list for {label})"
        )
    missing = [g for g in host.rocm_gfx if g not in archs]
    if not missing:
        return "ok", f"{reason}; {' '.join(host.rocm_gfx)} in the gfx targets of {label}"
    gfx = missing[0]
    others = [b for b in facts.builds if b.kind == "rocm" and gfx in (b.archs or ())]
    same = [b for b in others if b.torch == v.torch]
    newer = [b for b in others if Version(b.torch) > Version(v.torch)]
    if same:
        where = f"{same[-1].label} has it"
    elif newer:
        where = f"first supported in {newer[0].label}"
    elif others:
        where = f"last supported in {others[-1].label}"
    else:
        where = "no torch build in the matrix targets it"
    return "no", (
        f"the AMD GPU ({gfx}) is not among the gfx targets of {label} ({' '.join(archs)}); {where}"
    )


def _same_release_alternative(host: HostInfo, torch: str, facts: GpuFacts) -> str:
    """'; torch 2.9.0 cu128 runs on this driver' when another CUDA build of the release does."""
    driver = host.nvidia_driver or "0"
    for b in reversed(facts.builds):
        if b.kind != "cuda" or b.torch != torch:
            continue
        verdict, _ = driver_verdict(driver, b.cuda, facts.drivers, facts.families)
        if verdict == "no":
            continue
        if all(
            _assess_arch(host, g, torch, b.cuda, facts, ptx=verdict == "ok")[0] != "no"
            for g in host.gpus
        ):
            how = "" if verdict == "ok" else " (through minor-version compatibility)"
            return f"; {b.label} runs on this driver{how}"
    return ""


def _capability(gpu: Gpu) -> tuple[int, int] | None:
    if not gpu.compute_capability:
        return None
    major, _, minor = gpu.compute_capability.partition(".")
    return int(major), int(minor or 0)


def _assess_arch(
    host: HostInfo, gpu: Gpu, torch: str, cuda: str, facts: GpuFacts, *, ptx: bool
) -> tuple[Verdict, str]:
    """Whether the build's compiled architectures run `gpu` (the rule: envgen.smoke.script)."""
    label = f"torch {torch} cu{cuda.replace('.', '')}"
    capability = _capability(gpu)
    if capability is None or gpu.sm is None:
        return "ok", f"{gpu.name}: architecture not checked (nvidia-smi gives no compute_cap)"
    archs = facts.archs_for(torch, cuda)
    if archs is None:
        return "ok", (
            f"{gpu.name} ({gpu.sm}): architecture not checked (the matrix has no arch list for "
            f"{label} on {host.platform})"
        )
    found = arch_support(capability, archs, ptx_jit=ptx)
    if found is not None:
        return "ok", f"{gpu.name}: {describe_support(gpu.sm, found)} of {label}"
    blocked = "" if ptx else PTX_BLOCKED
    return "no", (
        f"{gpu.name} ({gpu.sm}) has no kernels in {label} (compiled for {' '.join(archs)})"
        f"{blocked}; {_where_supported(host, capability, torch, facts)}"
    )


def _where_supported(
    host: HostInfo, capability: tuple[int, int], torch: str, facts: GpuFacts
) -> str:
    """The build to use instead: the same release's, else the first newer, else the last older."""
    driver = host.nvidia_driver or "0"
    runs = [
        b
        for b in facts.builds
        if b.kind == "cuda"
        and b.archs is not None
        and arch_support(capability, b.archs) is not None
    ]
    if not runs:
        return "no torch build in the matrix has kernels for it"

    def usable(b: ArchBuild) -> str:
        verdict, _ = driver_verdict(driver, b.cuda, facts.drivers, facts.families)
        if verdict == "no":
            minimum = minimum_driver(b.cuda, facts.drivers)
            return f", which needs driver >= {minimum}" if minimum else ""
        return ""

    release = Version(torch)
    same = [b for b in runs if b.torch == torch]
    if same:
        b = max(same, key=lambda b: (usable(b) == "", _numbers(b.cuda)))
        return f"{b.label} has them{usable(b)}"
    newer = [b for b in runs if Version(b.torch) > release]
    if newer:
        return f"first supported in {newer[0].label}{usable(newer[0])}"
    older = runs[-1]
    return f"last supported in {older.label}{usable(older)}"


# --- error messages --------------------------------------------------------------------------
class Diagnosis(NamedTuple):
    """What an error message means: a title, the cause and the fix."""

    title: str
    cause: str
    fix: str


# Every pattern below is linear in the text: each starts with a literal, every repetition is
# bounded, and no two adjacent repetitions can match the same characters (no nested or
# overlapping quantifiers). A pasted log is untrusted input; tests/unit/test_doctor_gpu.py
# times each pattern on adversarial text.
_CUDA_LIBS: Final = re.compile(
    r"\b(lib(?:cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink|cupti))"
    r"\.so\.([^\s:]{1,40}):? cannot open shared object file"
)
_SONAME_VERSION: Final = re.compile(r"\d{1,6}(?:\.\d{1,6}){0,5}")
_CUDNN_LIB: Final = re.compile(
    r"\b(libcudnn\w{0,40})\.so\.(\d{1,6})(?:\.\d{1,6}){0,5}:? cannot open shared object file"
)
# Found by its literal; the library before it is read backwards in Python (_library_before).
_UNDEFINED_SYMBOL: Final = re.compile(r"undefined symbol: (\S{1,500})")
_GLIBC: Final = re.compile(r"\bGLIBC_(\d{1,4}\.\d{1,4})'? not found")
_GLIBCXX: Final = re.compile(
    r"\b(GLIBCXX_\d{1,4}(?:\.\d{1,4}){1,4}|CXXABI_\d{1,4}(?:\.\d{1,4}){1,4})'? not found"
    r"(?: \(required by (\S{1,500})\))?"
)
# The libstdc++ that failed, read backwards from "version `GLIBCXX_...": "/x/libstdc++.so.6: ".
_LIBSTDCXX_BEFORE: Final = re.compile(r"(\S{0,500}libstdc\+\+\.so\.6): version `$")
# The GCC release that first shipped each symbol version (libstdc++ manual, "ABI Policy and
# Guidelines", https://gcc.gnu.org/onlinedocs/libstdc++/manual/abi.html, versioning history).
GLIBCXX_GCC: Final = {
    "GLIBCXX_3.4.19": "4.8.3",
    "GLIBCXX_3.4.20": "4.9.0",
    "GLIBCXX_3.4.21": "5.1.0",
    "GLIBCXX_3.4.22": "6.1.0",
    "GLIBCXX_3.4.23": "7.1.0",
    "GLIBCXX_3.4.24": "7.2.0",
    "GLIBCXX_3.4.25": "8.1.0",
    "GLIBCXX_3.4.26": "9.1.0",
    "GLIBCXX_3.4.28": "10.1.0",
    "GLIBCXX_3.4.29": "11.1.0",
    "GLIBCXX_3.4.30": "12.1.0",
    "GLIBCXX_3.4.31": "13.1.0",
    "GLIBCXX_3.4.32": "13.2.0",
    "GLIBCXX_3.4.33": "14.1.0",
}
_NMS: Final = re.compile(r"operator torchvision::(\w{1,100}) does not exist")
_NOT_COMPILED: Final = re.compile(r"Torch not compiled with CUDA enabled")
_DRIVER_TOO_OLD: Final = re.compile(
    r"NVIDIA driver on your system is too old \(found version (\d{1,9})\)"
)
_NO_DRIVER: Final = re.compile(r"Found no NVIDIA driver on your system")
_INSUFFICIENT: Final = re.compile(r"CUDA driver version is insufficient for CUDA runtime version")
_NOT_AVAILABLE: Final = re.compile(
    r"cuda\.is_available\(\)[ \t]{0,20}(?:is|==|returns?|returned)[ \t]{0,20}False"
)
_NO_KERNEL: Final = re.compile(r"no kernel image is available for execution on the device")
_SM_NOT_COMPATIBLE: Final = re.compile(
    r"with CUDA capability (sm_\d{1,4}) is not compatible with the current PyTorch installation"
)
_NUMPY2: Final = re.compile(
    r"compiled using NumPy 1\.x cannot be run in\s{1,20}NumPy (\d{1,4}\.\d{1,4}(?:\.\d{1,4})?)"
    r"|_ARRAY_API not found"
)
_NO_VERSION: Final = re.compile(
    r"Could not find a version that satisfies the requirement "
    r"((?:torch|torchvision|torchaudio)\S{0,200})"
)
_OUT_OF_MEMORY: Final = re.compile(
    r"CUDA out of memory\. Tried to allocate (\d{1,9}(?:\.\d{1,4})? [KMGT]?i?B)"
    r"(?: \(GPU (\d{1,4}); (\d{1,9}(?:\.\d{1,4})? [KMGT]?i?B) total capacity"
    r"|\. GPU (\d{1,4}) has a total capacity of (\d{1,9}(?:\.\d{1,4})? [KMGT]?i?B))?"
)
_SPLIT_TORCH_LIB: Final = re.compile(
    r"\b(libtorch_cuda_cu|libtorch_cuda_cpp)\.so:? cannot open shared object file"
)
_CUDNN_MISMATCH: Final = re.compile(
    r"cuDNN version (?:incompatibility|mismatch): PyTorch was compiled\s{1,5}against "
    r"(\(\d{1,3}, \d{1,3}, \d{1,3}\)|\d{3,6}) but (?:found runtime version|linked against) "
    r"(\(\d{1,3}, \d{1,3}, \d{1,3}\)|\d{3,6})"
)
_PACKAGE_IN_PATH: Final = re.compile(r"site-packages/([A-Za-z0-9_]{1,100})/")
# How far before "undefined symbol:" the library path may start.
_LIBRARY_WINDOW: Final = 1000


def _cuda_from_driver_api(number: int) -> str:
    """CUDA's integer version (10020) as text ("10.2")."""
    return f"{number // 1000}.{number % 1000 // 10}"


# Libraries whose soname names the CUDA release (libcudart.so.11.0, libcublas.so.12): the
# others (cufft, curand, cusolver) carry their own major (CUDA 11's cuFFT is libcufft.so.10).
_SONAME_IS_CUDA: Final = frozenset(
    {"libcudart", "libcublas", "libcublasLt", "libcusparse", "libnvrtc", "libcupti", "libnvJitLink"}
)


def _explain_cuda_lib(m: re.Match[str], _host: HostInfo | None) -> Diagnosis | None:
    version = _SONAME_VERSION.match(m.group(2))
    if version is None:
        return None
    lib, number = m.group(1), version.group(0)
    soname = f"{lib}.so.{number}"
    if lib not in _SONAME_IS_CUDA:
        return Diagnosis(
            title=f"CUDA library missing: {soname}",
            cause=(
                f"a CUDA build of torch, or another package with CUDA code, needs {soname} "
                f"({lib}'s own major version {number.split('.')[0]}, not a CUDA version), and "
                "the dynamic loader cannot find it"
            ),
            fix=(
                "install torch and that package for the same CUDA version through envgen (the "
                "pip wheels bundle or pull in the CUDA libraries); check which CUDA each was "
                "built for (torch.version.cuda) and lock both for the same one"
            ),
        )
    major = int(number.split(".")[0])
    # Since CUDA 11.1 a runtime keeps its major's soname: every CUDA 11.x installs
    # libcudart.so.11.0 (and 11.2-11.8 libnvrtc.so.11.2); CUDA 12+ sonames carry the major only.
    if major >= 11 and (number == f"{major}" or (lib == "libcudart" and number == "11.0")):
        cuda, any_minor = f"{major}.x", True
    else:
        cuda, any_minor = number, False
    if any_minor:
        serves = (
            f"{soname} is the soname of every CUDA {cuda} release, so it names CUDA {major}, not "
            f"a minor release: installing CUDA {major}.0 to get it is wrong advice unless the "
            f"package was built for {major}.0"
        )
        conda = (
            f"cudatoolkit={major}.N" if major <= 11 else f"cuda-runtime with cuda-version={major}.N"
        )
        return Diagnosis(
            title=f"CUDA {major} runtime library missing: {soname}",
            cause=(
                f"a CUDA {major} build of torch, or another package with CUDA code, needs {lib} "
                f"and the dynamic loader cannot find {soname}; {serves}"
            ),
            fix=(
                f"install the CUDA {cuda} runtime the package was built with: for torch, the "
                f"torch build for your CUDA {major}.N variant through envgen (the pip wheels "
                f"bundle the runtime; torch.version.cuda names N); in conda {conda} with the "
                "same N as the package's build; for another package (tensorflow, an extension), "
                "the CUDA it names, or lock it with torch for the same CUDA version"
            ),
        )
    conda = f"cudatoolkit={cuda}" if major <= 11 else f"cuda-runtime with cuda-version={cuda}"
    return Diagnosis(
        title=f"CUDA runtime library missing: {soname}",
        cause=(
            f"a CUDA build of torch, or another package with CUDA code, expects the CUDA {cuda} "
            f"runtime ({lib}), and the dynamic loader cannot find {soname}"
        ),
        fix=(
            f"install the torch build for CUDA {cuda} through envgen (the pip wheels bundle the "
            f"CUDA runtime), or in conda install {conda}; if another package needs "
            f"CUDA {cuda} but your torch is for another CUDA version, lock both for the same one"
        ),
    )


def _explain_cudnn(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    soname = f"{m.group(1)}.so.{m.group(2)}"
    return Diagnosis(
        title=f"cuDNN library missing: {soname}",
        cause=f"torch (or an extension) was built against cuDNN {m.group(2)}, which is not found",
        fix=(
            "install torch through envgen's lock for your CUDA variant (the pip wheels pull in "
            f"nvidia-cudnn), or in conda install cudnn={m.group(2)}"
        ),
    )


def _library_before(text: str, end: int) -> str | None:
    """The shared library named just before "undefined symbol:" ("/x/libfoo.so.1: "), read
    backwards over a bounded window; None when there is none."""
    window = text[max(0, end - _LIBRARY_WINDOW) : end]
    if not window.endswith(": "):
        return None
    token = window[:-2].rsplit(None, 1)[-1] if window[:-2].strip() else ""
    cut = token.rfind(".so")
    return token[: cut + 3] if cut > 0 else None


# Extensions built per torch release (their wheels name it: +pt21cu118, torch1.12/index.html).
_COMPANIONS: Final = frozenset({"torchvision", "torchaudio", "torchtext"})


def _explain_undefined_symbol(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    library, symbol = _library_before(m.string, m.start()), m.group(1)
    package = _PACKAGE_IN_PATH.search(library) if library else None
    name = package.group(1) if package else None
    if symbol.startswith("nccl"):
        return Diagnosis(
            title=f"NCCL mismatch: undefined symbol {symbol}",
            cause=(
                f"torch{' (' + library + ')' if library else ''} calls {symbol}, which the "
                "libnccl.so.2 that was loaded does not have: an older NCCL than the one torch "
                "was built with (an nvidia-nccl wheel pinned by another package, or a system "
                "NCCL on LD_LIBRARY_PATH)"
            ),
            fix=(
                "install the nvidia-nccl version torch's wheel requires (`pip show torch` lists "
                "it; `envgen lock` pins it), remove other NCCL libraries from LD_LIBRARY_PATH, "
                "or lock a torch release built with the NCCL you must keep"
            ),
        )
    where = f" in {name or library}" if library else ""
    # std::string in a mangled name: "Ss" before GCC 5's C++11 ABI, "NSt7__cxx1112basic_string"
    # after; a symbol with one form missing means the two sides were built with different ABIs.
    abi = ""
    if "RKSs" in symbol or "ERSs" in symbol:
        abi = (
            "; the symbol takes a pre-C++11-ABI std::string (Ss): the extension was built "
            "with _GLIBCXX_USE_CXX11_ABI=0 and this torch with =1 (conda-forge, NGC containers, "
            "torch built from source)"
        )
    elif "__cxx11" in symbol:
        abi = (
            "; the symbol takes a C++11-ABI std::string (__cxx11): the extension was built "
            "with _GLIBCXX_USE_CXX11_ABI=1 and this torch with =0"
        )
    if name and name not in _COMPANIONS and name != "torch":
        return Diagnosis(
            title=f"ABI mismatch: {name} built for another torch",
            cause=(
                f"{name}'s compiled module refers to {symbol}, which the installed torch does "
                f"not have: {name} was built against another torch release or build{abi}"
            ),
            fix=(
                f"install the {name} build made for the installed torch and CUDA (`envgen "
                f"command --torch X --compute cuNNN --with {name.replace('_', '-')}` prints "
                "its line where envgen knows it), or rebuild it from source against this "
                "torch (pip install --no-build-isolation --no-cache-dir)"
                + (", or install torch from PyPI or PyTorch's index" if abi else "")
            ),
        )
    return Diagnosis(
        title=f"ABI mismatch: undefined symbol{where}",
        cause=(
            f"a compiled extension{where} refers to {symbol}, which the installed torch does not "
            "have: torchvision/torchaudio from another torch release, or an extension built "
            f"against another torch{abi}"
        ),
        fix=(
            "reinstall torch, torchvision and torchaudio from the same release with envgen's "
            "lock (`envgen lock` pins matching companions), and rebuild your own extensions "
            "against the torch that is installed"
        ),
    )


def _explain_glibc(m: re.Match[str], host: HostInfo | None) -> Diagnosis:
    need = m.group(1)
    have = f" (this host has glibc {host.glibc})" if host and host.glibc else ""
    return Diagnosis(
        title=f"glibc too old: the wheel needs GLIBC_{need}",
        cause=(
            f"a binary wheel was built for a newer Linux (its manylinux tag requires glibc "
            f">= {need}) than this host provides{have}"
        ),
        fix=(
            f"run on an OS or container image with glibc >= {need}, or pick an older torch "
            "release whose wheels use an older manylinux tag (e.g. manylinux2014: glibc 2.17)"
        ),
    )


def _explain_glibcxx(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    need, required_by = m.group(1), m.group(2)
    gcc = GLIBCXX_GCC.get(need)
    loaded = _LIBSTDCXX_BEFORE.search(m.string, max(0, m.start() - 520), m.start())
    lib = loaded.group(1).rsplit(None, 1)[-1] if loaded else None
    conda_env = lib is not None and ("/envs/" in lib or "conda" in lib)
    who = f" ({required_by})" if required_by else ""
    where = (
        f"the loaded {lib} is the environment's own, older than that"
        if conda_env
        else (
            f"the loaded {lib} is the system's, older than that; in a conda environment it "
            "shadows the environment's newer one (LD_LIBRARY_PATH, or a module that loaded it "
            "first)"
            if lib
            else "the loaded libstdc++ is older than that"
        )
    )
    newer = f"libstdcxx-ng>={gcc.split('.')[0]}" if gcc else "a newer libstdcxx-ng"
    return Diagnosis(
        title=f"libstdc++ too old: {need} not found",
        cause=(
            f"a compiled module{who} needs {need}"
            + (f", first shipped with GCC {gcc}'s libstdc++" if gcc else "")
            + f"; {where}"
        ),
        fix=(
            f"in conda, install {newer} from conda-forge into the environment and make sure "
            "its lib/ is the one loaded (no system lib directory first on LD_LIBRARY_PATH); "
            "otherwise use an OS image whose GCC is at least "
            + (gcc or "that new")
            + ", or a build of the module made with an older compiler (PyPI's manylinux wheels "
            "of torch bundle what they need)"
        ),
    )


def _explain_out_of_memory(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    asked = m.group(1)
    gpu, total = (m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5))
    on = f" on GPU {gpu} ({total} in all)" if gpu else ""
    return Diagnosis(
        title=f"CUDA out of memory (asked for {asked} more)",
        cause=(
            f"the program asked for {asked}{on} and the GPU had no room left: the model, "
            "batch, activations and cached blocks (or another process on the same GPU) fill "
            "it. The environment is sound; this is the workload's size, not an install problem"
        ),
        fix=(
            "lower the batch size (or input size), use mixed precision (torch.autocast) or "
            "gradient checkpointing, free tensors you keep (loss.item(), not loss, in logs), "
            "check nvidia-smi for other processes on that GPU; when reserved memory is much "
            "larger than allocated, set PYTORCH_CUDA_ALLOC_CONF (expandable_segments:True on "
            "torch >= 2.1, max_split_size_mb before)"
        ),
    )


def _explain_split_torch_lib(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    lib = m.group(1)
    return Diagnosis(
        title=f"extension built for torch 1.x: {lib}.so missing",
        cause=(
            f"a compiled extension links {lib}.so, which only torch 1.x CUDA builds had (their "
            "CUDA library was split in two); torch 2.0 and later ship one libtorch_cuda.so, "
            "so the extension was built for an older torch than the one installed (often "
            "mmcv-full, torch-scatter or a repository's own ops)"
        ),
        fix=(
            "install the extension's build for the installed torch and CUDA (`envgen command "
            "--torch X --compute cuNNN --with NAME` prints its line), rebuild it from source "
            "against the installed torch, or lock the torch 1.x release it was built for"
        ),
    )


def _cudnn_version(text: str) -> str:
    """cuDNN's version as torch prints it: "(8, 5, 0)" or its integer (7102 -> 7.1.2; cuDNN 9
    encodes major * 10000: 90100 -> 9.1.0)."""
    if text.startswith("("):
        return ".".join(x.strip() for x in text.strip("()").split(","))
    n = int(text)
    if n >= 10000:
        return f"{n // 10000}.{n % 10000 // 100}.{n % 100}"
    return f"{n // 1000}.{n % 1000 // 100}.{n % 100}"


def _explain_cudnn_mismatch(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    built, found = _cudnn_version(m.group(1)), _cudnn_version(m.group(2))
    return Diagnosis(
        title=f"cuDNN mismatch: torch built with {built}, loaded {found}",
        cause=(
            f"torch was built against cuDNN {built} but the dynamic loader found cuDNN {found} "
            "first: another cuDNN (a system one on LD_LIBRARY_PATH, a conda cudnn package, or "
            "an nvidia-cudnn wheel another package pinned) shadows the one torch comes with"
        ),
        fix=(
            f"remove the other cuDNN from LD_LIBRARY_PATH (or uninstall it) so torch loads its "
            f"own; in conda install cudnn={built}; with pip, the nvidia-cudnn version torch's "
            "wheel requires (`envgen lock` pins it)"
        ),
    )


def _explain_nms(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    return Diagnosis(
        title="torchvision does not match torch",
        cause=(
            f"torchvision's compiled ops (torchvision::{m.group(1)}) failed to register: the "
            "installed torchvision was built for another torch release or build (cpu vs cuda)"
        ),
        fix=(
            "install the torchvision paired with your torch (the matrix's releases table), from "
            "the same index and with the same local label (+cpu / +cu118); `envgen lock` pins both"
        ),
    )


def _explain_driver_too_old(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    cuda = _cuda_from_driver_api(int(m.group(1)))
    return Diagnosis(
        title=f"NVIDIA driver too old (it supports CUDA {cuda})",
        cause=(
            f"the driver reports CUDA version {m.group(1)} (CUDA {cuda}), older than the CUDA "
            "runtime this torch was built with"
        ),
        fix=(
            f"update the NVIDIA driver, or use an envgen variant for CUDA {cuda} or older "
            "(`envgen doctor` lists the variants this host can run)"
        ),
    )


def _explain_no_kernel(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    arch = m.group(1) if m.re is _SM_NOT_COMPATIBLE else None
    gpu = f"the GPU ({arch})" if arch else "the GPU's architecture"
    return Diagnosis(
        title="GPU architecture not in torch's compiled list",
        cause=(
            f"torch was not compiled for {gpu}: compare torch.cuda.get_arch_list() with "
            "torch.cuda.get_device_capability()"
        ),
        fix=(
            "use a torch build whose arch list includes your GPU: new GPUs need a newer CUDA "
            "variant (e.g. Blackwell sm_120 needs CUDA 12.8+), old GPUs were dropped from "
            "recent releases (use an older torch)"
        ),
    )


def _explain_numpy2(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    found = m.group(1)
    numpy = f"NumPy {found}" if found else "NumPy 2"
    return Diagnosis(
        title=f"module built for NumPy 1.x under {numpy}",
        cause=(
            f"a compiled module (often an older torch, < 2.3) was built against NumPy 1.x and "
            f"cannot run with {numpy}"
        ),
        fix=(
            'pin "numpy<2" in the spec (or upgrade the module to a release built for NumPy 2; '
            "torch >= 2.3 supports it)"
        ),
    )


def _explain_no_version(m: re.Match[str], _host: HostInfo | None) -> Diagnosis:
    requirement = m.group(1)
    return Diagnosis(
        title=f"no installable wheel for {requirement}",
        cause=(
            "the indexes searched have no wheel for this Python and platform: the release does "
            "not support this Python, or the local label (+cu118) lives only on the PyTorch index"
        ),
        fix=(
            "install from envgen's generated requirements (they name the PyTorch index), and "
            "check which Pythons the release supports with `envgen list`"
        ),
    )


_NOT_COMPILED_DIAGNOSIS: Final = Diagnosis(
    title="CPU-only torch in a CUDA environment",
    cause=(
        "the installed torch is a CPU-only build: a +cpu wheel or the conda cpuonly build "
        "slipped in (often PyPI's wheel on Windows/macOS, or a cpuonly package in conda)"
    ),
    fix=(
        "reinstall from envgen's lock for the CUDA variant (it pins torch==X+cuNNN from the "
        "PyTorch index); check `pip list` shows +cuNNN, and in conda remove cpuonly"
    ),
)

_NO_DRIVER_DIAGNOSIS: Final = Diagnosis(
    title="no NVIDIA driver",
    cause="a CUDA build of torch runs on a host without an NVIDIA driver (or GPU)",
    fix="install the NVIDIA driver, or use the cpu variant on this host",
)

_INSUFFICIENT_DIAGNOSIS: Final = Diagnosis(
    title="CUDA driver older than the CUDA runtime",
    cause="the NVIDIA driver is older than the minimum for the CUDA runtime torch uses",
    fix=(
        "update the NVIDIA driver, or use the variant for an older CUDA version "
        "(`envgen doctor` compares your driver with the drivers table)"
    ),
)

_NOT_AVAILABLE_DIAGNOSIS: Final = Diagnosis(
    title="torch.cuda.is_available() is False",
    cause=(
        "either a CPU-only build slipped in (a +cpu wheel or conda's cpuonly; "
        "torch.version.cuda is None), the driver is too old for torch's CUDA version, or no "
        "GPU is visible (CUDA_VISIBLE_DEVICES, container without --gpus)"
    ),
    fix=(
        "check torch.version.cuda: if None, reinstall from envgen's lock for the CUDA "
        "variant; otherwise compare the driver with `envgen doctor`, and check nvidia-smi "
        "sees the GPU"
    ),
)


_Explain = Callable[[re.Match[str], HostInfo | None], Diagnosis | None]

# Each known failure: its pattern and what it means (a fixed Diagnosis, or one built from the
# match). explain_error reports them in this order.
_EXPLAINERS: Final[tuple[tuple[re.Pattern[str], _Explain | Diagnosis], ...]] = (
    (_CUDA_LIBS, _explain_cuda_lib),
    (_CUDNN_LIB, _explain_cudnn),
    (_SPLIT_TORCH_LIB, _explain_split_torch_lib),
    (_CUDNN_MISMATCH, _explain_cudnn_mismatch),
    (_UNDEFINED_SYMBOL, _explain_undefined_symbol),
    (_GLIBC, _explain_glibc),
    (_GLIBCXX, _explain_glibcxx),
    (_NMS, _explain_nms),
    (_NOT_COMPILED, _NOT_COMPILED_DIAGNOSIS),
    (_DRIVER_TOO_OLD, _explain_driver_too_old),
    (_NO_DRIVER, _NO_DRIVER_DIAGNOSIS),
    (_INSUFFICIENT, _INSUFFICIENT_DIAGNOSIS),
    (_NOT_AVAILABLE, _NOT_AVAILABLE_DIAGNOSIS),
    (_NO_KERNEL, _explain_no_kernel),
    (_SM_NOT_COMPATIBLE, _explain_no_kernel),
    (_NUMPY2, _explain_numpy2),
    (_NO_VERSION, _explain_no_version),
    (_OUT_OF_MEMORY, _explain_out_of_memory),
)


def explain_error(text: str, *, host: HostInfo | None = None) -> list[Diagnosis]:
    """Every known failure in `text` (an error message or a log), in a fixed order, no repeats."""
    found: list[Diagnosis] = []
    for pattern, explain in _EXPLAINERS:
        for m in pattern.finditer(text):
            diagnosis = explain if isinstance(explain, Diagnosis) else explain(m, host)
            if diagnosis is not None and diagnosis not in found:
                found.append(diagnosis)
    return found


# The most of a log `doctor --log` reads: its last LOG_LIMIT bytes (failures come last).
LOG_LIMIT: Final = 4 * 1024 * 1024


def read_log(path: Path, *, limit: int = LOG_LIMIT) -> tuple[str, bool]:
    """A log's text for explain_error: at most its last `limit` bytes (from the first whole
    line), decoded with replacement; and whether it was cut. Only regular files are read."""
    try:
        if not path.is_file():
            msg = f"{path}: not a regular file; --log reads a log file"
            raise FileSystemError(msg, hint="save the output to a file and pass its path")
        with path.open("rb") as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(max(0, size - limit))
            data = fh.read(limit)
    except OSError as exc:
        msg = f"{path}: cannot read the log: {exc.strerror or exc}"
        raise FileSystemError(msg) from None
    cut = size > limit
    if cut and b"\n" in data:  # start at a whole line
        data = data[data.index(b"\n") + 1 :]
    return data.decode("utf-8", errors="replace"), cut
