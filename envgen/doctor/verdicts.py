"""Whether a variant can run on a host: the driver against the matrix's drivers table
(`newest_cuda_for_driver`, `driver_verdict`) and the GPUs against the compiled architectures of
gpu-archs.yaml (`gpu_facts`, `assess_variants`). Pure: it takes a HostInfo and plain tuples, and
must not depend on envgen.model.variants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal, NamedTuple

from packaging.version import Version

from envgen.doctor.host import Gpu, HostInfo
from envgen.model.types import ComputeKind, Os, Platform
from envgen.smoke.script import PTX_BLOCKED, arch_support, describe_support

if TYPE_CHECKING:
    from envgen.model.matrix import Driver, Matrix, MinorCompat


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
