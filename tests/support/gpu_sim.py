"""GPU simulation: a REAL torch with a faked device, driving the smoke script's GPU decisions.

Run by a Python that has a real torch installed (tests/integration/test_gpu_sim.py uses the
local torch 2.13.0 CPU wheel): `python gpu_sim.py SCRIPT CASES.json`. It imports the real torch
and envgen's smoke script (`SCRIPT`), then for each case replaces only what a machine without a
GPU cannot answer (the device: count, capability, properties, the compile-time arch flags, the
driver's libcuda, cuDNN's presence, the ROCm version, the AMD kernel driver's topology) and
removes what the case's torch release does not have, runs the named checks, restores torch,
and prints one JSON list of results. Everything else is the real torch's own Python code: its
get_arch_list(), is_bf16_supported(), cudnn.is_available() and the like.

Release profiles (what a release's torch lacks, read from real wheels and their sources):
- "1.0": no get_arch_list / _cuda_getArchFlags (arrived in 1.6, pytorch/pytorch#41212), no
  torch.cuda.amp or torch.autocast (1.6 / 1.10), no is_bf16_supported (1.10), no nn.Flatten
  (1.2), no mem_get_info (1.11); torch._C._cuda_getDriverVersion present (1.0.1, 1.4.0, 1.6.0
  wheels; absent from the 1.9.0 and later wheels).
- "1.6": get_arch_list() returns [] unless is_available() (torch/cuda/__init__.py of the real
  1.6.0 wheel; still so through 2.10, pytorch/pytorch#169414), no torch.autocast, no
  is_bf16_supported (both 1.10).
- "2.13": the installed wheel as it is (get_arch_list() asks only whether CUDA is compiled in).

Only the standard library, torch and the smoke script: this runs inside the test venv.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import json
import sys
import tempfile
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

MISSING = object()
# What a CPU wheel answers when a check goes past its decisions and touches the device: the
# decisions said "run" (the table's "ran").
# (torch.cuda._lazy_init of 2.13.0 once the device is faked: "libcudart functions unavailable").
CPU_WHEEL_REFUSALS = ("Torch not compiled with CUDA enabled", "libcudart functions unavailable")


class Patcher:
    """setattr/delattr that remember the old value; undo() restores in reverse order."""

    def __init__(self) -> None:
        self.saved: list[tuple[object, str, object]] = []

    def set(self, obj: object, name: str, value: object) -> None:
        self.saved.append((obj, name, getattr(obj, name, MISSING)))
        setattr(obj, name, value)

    def remove(self, obj: object, name: str) -> None:
        old = getattr(obj, name, MISSING)
        if old is MISSING:
            return
        self.saved.append((obj, name, old))
        delattr(obj, name)

    def undo(self) -> None:
        for obj, name, old in reversed(self.saved):
            if old is MISSING:
                if hasattr(obj, name):
                    delattr(obj, name)
            else:
                setattr(obj, name, old)
        self.saved = []


class FakeLibcuda:
    """libcuda's cuDriverGetVersion(int*): the driver's CUDA version (12080 = 12.8)."""

    def __init__(self, version: int) -> None:
        self.version = version

    def cuDriverGetVersion(self, out: object) -> int:  # noqa: N802 - libcuda's name
        out._obj.value = self.version  # type: ignore[attr-defined]  # ctypes.byref
        return 0


def _old_get_arch_list(torch: Any) -> Callable[[], list[str]]:
    """torch 1.6-2.10's get_arch_list (torch/cuda/__init__.py of the 1.6.0 wheel)."""

    def get_arch_list() -> list[str]:
        if not torch.cuda.is_available():
            return []
        arch_flags = torch._C._cuda_getArchFlags()
        if arch_flags is None:
            return []
        return [str(a) for a in arch_flags.split()]

    return get_arch_list


def _apply_profile(p: Patcher, torch: Any, profile: str, case: dict[str, Any]) -> None:
    if profile in ("1.0", "1.6"):
        p.remove(torch, "autocast")
    if profile == "1.6":
        p.set(torch.cuda, "get_arch_list", _old_get_arch_list(torch))
        p.remove(torch.cuda, "is_bf16_supported")
    if profile == "1.0":
        p.remove(torch.cuda, "get_arch_list")
        p.remove(torch._C, "_cuda_getArchFlags")
        p.remove(torch.cuda, "amp")
        p.remove(torch.cuda, "is_bf16_supported")
        p.remove(torch.cuda, "mem_get_info")
        p.remove(torch.nn, "Flatten")
        driver = case.get("driver")
        p.set(torch._C, "_cuda_getDriverVersion", lambda: int(driver or 0))


def _apply_device(p: Patcher, torch: Any, case: dict[str, Any], sc: Any) -> None:
    devices = case.get("devices") or []
    hip = case.get("hip")
    p.set(torch.version, "cuda", None if hip else case.get("cuda", "12.8"))
    p.set(torch.version, "hip", hip)
    p.set(torch._C, "_cuda_getDeviceCount", lambda: len(devices))  # CUDA compiled in
    if case.get("profile") != "1.0":
        p.set(torch._C, "_cuda_getArchFlags", lambda: case.get("arch_flags"))

    def props(index: int = 0) -> object:
        d = devices[int(index)]
        fields = {"name": d["name"], "major": d["capability"][0], "minor": d["capability"][1]}
        if d.get("gcnArchName"):
            fields["gcnArchName"] = d["gcnArchName"]
        fields["total_memory"] = 16 << 30
        return types.SimpleNamespace(**fields)

    p.set(torch.cuda, "is_available", lambda: bool(devices))
    p.set(torch.cuda, "device_count", lambda: len(devices))
    p.set(torch.cuda, "current_device", lambda: 0)
    p.set(torch.cuda, "get_device_properties", props)
    p.set(torch.cuda, "get_device_name", lambda i=0: devices[int(i)]["name"])
    p.set(torch.cuda, "get_device_capability", lambda i=0: tuple(devices[int(i)]["capability"]))
    has_cudnn = bool(case.get("cudnn", True))
    for name in ("_has_cudnn", "has_cudnn"):  # 2.x / 1.x
        if hasattr(torch._C, name):
            p.set(torch._C, name, has_cudnn)
    cudnn = torch.backends.cudnn
    p.set(cudnn, "version", lambda: case.get("cudnn_version", 90100) if has_cudnn else None)
    driver = case.get("driver")
    via_torch = case.get("profile") == "1.0"
    p.set(sc, "_open_libcuda", lambda: None if driver is None or via_torch else FakeLibcuda(driver))


@contextlib.contextmanager
def simulated(torch: Any, sc: Any, case: dict[str, Any]) -> Iterator[None]:
    p = Patcher()
    with tempfile.TemporaryDirectory() as kfd:
        for i, target in enumerate(case.get("kfd") or []):
            node = Path(kfd) / str(i)
            node.mkdir()
            (node / "properties").write_text(f"cpu_cores_count 0\ngfx_target_version {target}\n")
        p.set(sc, "KFD_NODES", kfd if case.get("kfd") else str(Path(kfd) / "absent"))
        flash = types.ModuleType("flash_attn")
        flash.__version__ = case.get("flash_attn", "2.8.3")  # type: ignore[attr-defined]
        flash.__spec__ = importlib.machinery.ModuleSpec("flash_attn", None)
        sys.modules["flash_attn"] = flash
        try:
            _apply_profile(p, torch, str(case.get("profile", "2.13")), case)
            _apply_device(p, torch, case, sc)
            yield
        finally:
            p.undo()
            sys.modules.pop("flash_attn", None)


def _result(entry: dict[str, Any]) -> list[object]:
    status, detail = entry["status"], str(entry["detail"])
    if status == "fail" and any(r in detail for r in CPU_WHEEL_REFUSALS):
        return ["ran", ""]
    return [status, detail]


def run_case(torch: Any, sc: Any, case: dict[str, Any]) -> dict[str, Any]:
    checks = {
        "cpu/arch-list": sc.check_arch_list,
        "cpu/convnet-forward": sc.check_convnet,
        "gpu/device": sc.check_gpu_device,
        "gpu/arch-supported": sc.check_gpu_arch,
        "gpu/cudnn-conv": sc.check_gpu_cudnn,
        "gpu/autocast": sc.check_gpu_autocast,
        "gpu/memory": sc.check_gpu_memory,
        "extension:flash_attn": lambda ctx: sc.check_extension(ctx, "flash_attn"),
    }
    out = {}
    with simulated(torch, sc, case):
        expect = {"kind": "rocm" if case.get("hip") else "cuda", "version": case.get("cuda")}
        expect.update(case.get("expect") or {})
        ctx = sc.Context(expect)
        ctx.modules["torch"] = torch
        for name in case["checks"]:
            tier, _, check = name.partition("/") if "/" in name else ("gpu", "", name)
            out[name] = _result(sc.run_check(ctx, tier, check, checks[name]))
        if "autocast-dtypes" in case.get("probe", []):
            try:
                dtypes, note = sc.autocast_dtypes(torch)
                out["autocast-dtypes"] = [[str(d).replace("torch.", "") for d in dtypes], note]
            except sc.SkipCheckError as exc:
                out["autocast-dtypes"] = ["skip", str(exc)]
    return out


def main(argv: list[str]) -> int:
    spec = importlib.util.spec_from_file_location("envgen_smoke_script", argv[0])
    sc = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(sc)  # type: ignore[union-attr]
    import torch  # type: ignore[import-not-found,unused-ignore]  # the venv's real wheel

    def answers() -> dict[str, object]:
        """What the real wheel says on this machine (no device), as the fakes must."""
        return {
            "available": torch.cuda.is_available(),
            "arch_list": torch.cuda.get_arch_list(),
            "driver_attr": hasattr(torch._C, "_cuda_getDriverVersion"),
            "arch_flags_attr": hasattr(torch._C, "_cuda_getArchFlags"),
            "cuda": torch.version.cuda,
        }

    before = answers()
    cases = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    results = {case["id"]: run_case(torch, sc, case) for case in cases}
    out = {"results": results, "before": before, "after": answers()}
    sys.stdout.write(json.dumps(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
