"""Smoke checks run INSIDE a built env: `<env>/bin/python _smoke_check.py --expect JSON`.

Its job: import torch (and the companions the variant has), check the installed versions and the
build against what the lock promised, run small computations with known answers, and print one
JSON list of checks on stdout: `{tier, name, status, detail, seconds}`. Every check is isolated;
one failing never stops the rest.

It must not import envgen or anything beyond the standard library, torch, torchvision and
torchaudio, and must run on Python 3.6 (the oldest python the matrix admits for pip variants;
tests/unit/smoke/test_smoke_check_python.py checks it with vermin): no `from __future__ import
annotations`, annotations that are not plain names are strings, no walrus, no match, and every
torch API newer than ~1.8 behind hasattr.
Anything written to stdout while checks run is sent to stderr, so stdout holds only the report.
"""

import argparse
import ctypes
import functools
import importlib
import importlib.util
import json
import math
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

try:
    from typing import NoReturn
except ImportError:  # typing.NoReturn arrived in Python 3.6.2
    NoReturn = None  # type: ignore[assignment,misc,unused-ignore]

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

CPU_BUILD_SKIP = "CPU build"
NO_DEVICE_SKIP = "no CUDA device visible (torch.cuda.is_available() is False)"
NOT_IN_VARIANT = "not in this variant"
# The classic symptom of a torchvision wheel from another torch release (its C++ ops fail to load).
NMS_MISSING = "operator torchvision::nms does not exist"


class SkipCheckError(Exception):
    """Raised inside a check to report it as skipped, with the reason as the message."""


class CheckFailedError(Exception):
    """Raised inside a check to report a failure with a prepared message."""


def skip(reason: str) -> NoReturn:
    raise SkipCheckError(reason)


def fail(message: str) -> NoReturn:
    raise CheckFailedError(message)


class Context:
    """What the checks share: the expectation and the modules that imported."""

    def __init__(self, expect: "dict[str, object]") -> None:
        self.expect = expect
        self.kind = str(expect.get("kind") or "cpu")
        version = expect.get("version")
        self.version = None if version is None else str(version)
        self.accelerator = str(expect.get("accelerator") or _accelerator(self.kind, self.version))
        dists = expect.get("distributions") or {}
        self.distributions = dict(dists) if isinstance(dists, dict) else {}
        companions = expect.get("companions") or []
        self.companions = [str(c) for c in companions] if isinstance(companions, list) else []
        self.require_gpu = bool(expect.get("require_gpu", False))
        # The matrix's compiled architectures for this build (gpu-archs.yaml); empty = unknown.
        archs = expect.get("archs") or []
        self.archs = [str(a) for a in archs] if isinstance(archs, list) else []
        # False when the host's driver runs this CUDA only through minor-version compatibility.
        self.ptx_jit = bool(expect.get("ptx_jit", True))
        extensions = expect.get("extensions") or []
        self.expect_extensions = (
            [str(e) for e in extensions] if isinstance(extensions, list) else []
        )
        self.modules = {}  # type: dict[str, ModuleType]

    def module(self, name: str) -> ModuleType:
        """The imported module, or Skip explaining why it is not there."""
        if name in self.modules:
            return self.modules[name]
        if name != "torch" and name not in self.companions:
            skip(NOT_IN_VARIANT)
        reason = f"{name} did not import (see cpu/import:{name})"
        raise SkipCheckError(reason)

    @property
    def torch(self) -> ModuleType:
        return self.module("torch")


def _accelerator(kind: str, version: "str | None") -> str:
    if kind == "cuda" and version:
        return "cu" + version.replace(".", "")
    if kind == "rocm" and version:
        return "rocm" + version
    return kind


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    if NMS_MISSING in text:
        return f"torchvision does not match torch ({NMS_MISSING})"
    return text


def _version_prefix_equal(found: str, expected: str) -> bool:
    """'11.8' matches '11.8' and '11.8.89'; '6.1' matches '6.1.40091-a8dbc0c19'."""
    want = expected.split(".")
    got = found.replace("-", ".").split(".")
    return got[: len(want)] == want


def _distribution_version(name: str) -> "str | None":
    """The installed version of distribution `name`: importlib.metadata (Python 3.8+), else the
    `*.dist-info` / `*.egg-info` metadata on sys.path read directly (Python 3.6-3.7, where an
    environment need not have importlib_metadata or setuptools' pkg_resources)."""
    try:
        from importlib import metadata  # Python 3.8+  # novermin
    except ImportError:
        return _scan_distribution_version(name, sys.path)
    try:
        return str(metadata.version(name))
    except metadata.PackageNotFoundError:
        return None


def _normalized(name: str) -> str:
    """PEP 503 normalization with '_' (how dist-info directory names spell a project)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _scan_distribution_version(name: str, paths: "Sequence[str]") -> "str | None":
    """The `Version:` of the first `<name>-<version>.dist-info/METADATA` (or `.egg-info`'s
    PKG-INFO) on `paths`, as importlib.metadata would find it; None when there is none."""
    want = _normalized(name)
    for entry in paths:
        folder = Path(entry or ".")
        try:
            children = sorted(p.name for p in folder.iterdir())
        except OSError:
            continue
        for child in children:
            stem, dot, suffix = child.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            if _normalized(stem.split("-", 1)[0]) != want:
                continue
            meta = folder / child / ("METADATA" if suffix == "dist-info" else "PKG-INFO")
            if suffix == "egg-info" and (folder / child).is_file():
                meta = folder / child
            version = _metadata_version(meta)
            if version is not None:
                return version
    return None


def _metadata_version(path: Path) -> "str | None":
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            for _ in range(200):  # the header comes first; bounded read
                line = handle.readline()
                if not line or not line.strip():
                    break
                if line.startswith("Version:"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


# --- CPU tier --------------------------------------------------------------------------------
def check_import(ctx: Context, name: str) -> str:
    if name != "torch" and name not in ctx.companions:
        skip(NOT_IN_VARIANT)
    if name != "torch" and "torch" not in ctx.modules:
        skip("torch did not import (see cpu/import:torch)")
    import importlib

    module = importlib.import_module(name)
    ctx.modules[name] = module
    return "{} {} from {}".format(
        name, getattr(module, "__version__", "?"), Path(getattr(module, "__file__", "?")).parent
    )


def check_distribution(ctx: Context, name: str) -> str:
    expected = str(ctx.distributions[name])
    found = _distribution_version(name)
    if found is None:
        fail(f"{name} is not installed (the lock says {expected})")
    if found != expected:
        fail(f"{name} {found} is installed but the lock says {expected}")
    return f"{name} {found}"


def check_build(ctx: Context) -> str:
    torch = ctx.torch
    version = getattr(torch, "version", None)
    cuda = getattr(version, "cuda", None)
    hip = getattr(version, "hip", None)
    variant = ctx.accelerator
    if ctx.kind == "cuda":
        if cuda is None and hip is not None:
            fail(f"torch is a ROCm {hip} build (torch.version.hip) but the variant is {variant}")
        if cuda is None:
            fail(
                "torch is a CPU-only build (torch.version.cuda is None) but the variant is "
                f"{variant}: a +cpu wheel slipped in"
            )
        if ctx.version and not _version_prefix_equal(str(cuda), ctx.version):
            fail(
                f"torch is built for CUDA {cuda} (torch.version.cuda) but the variant is {variant}"
            )
        return f"CUDA {cuda} build"
    if ctx.kind == "rocm":
        if hip is None:
            what = f"a CUDA {cuda}" if cuda is not None else "a CPU-only"
            fail(f"torch is {what} build (torch.version.hip is None) but the variant is {variant}")
        if ctx.version and not _version_prefix_equal(str(hip), ctx.version):
            fail(f"torch is built for ROCm {hip} (torch.version.hip) but the variant is {variant}")
        return f"ROCm {hip} build"
    if cuda is not None or hip is not None:
        what = f"CUDA {cuda}" if cuda is not None else f"ROCm {hip}"
        fail(f"torch is a {what} build but the variant is {variant}: a GPU wheel was installed")
    if ctx.kind == "xpu":
        if not hasattr(torch, "xpu"):
            fail("torch has no torch.xpu module but the variant is xpu")
        return "XPU build (torch.version.xpu={})".format(getattr(version, "xpu", None))
    return "CPU-only build (torch.version.cuda is None)"


def _arch_list(torch: object) -> "list[str]":
    """The architectures torch was compiled for, as torch.cuda.get_arch_list() names them.

    torch 1.6-2.10's get_arch_list() returns [] while no device is visible (it asks
    is_available() first; 2.11+ asks only whether CUDA is compiled in), though the list is a
    compile-time string: torch._C._cuda_getArchFlags() gives it without a device. Before 1.6
    neither exists: [] (the caller says so)."""
    cuda = getattr(torch, "cuda", None)
    found = []  # type: list[str]
    if cuda is not None and hasattr(cuda, "get_arch_list"):
        found = [str(a) for a in cuda.get_arch_list()]
    if not found:
        flags = getattr(getattr(torch, "_C", None), "_cuda_getArchFlags", None)
        text = None
        if flags is not None:
            try:
                text = flags()
            except Exception:
                text = None
        if text:
            found = [str(a) for a in str(text).split()]
    return found


NO_ARCH_LIST = (
    "this torch reports no compiled architectures (torch.cuda.get_arch_list() arrived in 1.6)"
)


def check_arch_list(ctx: Context) -> str:
    torch = ctx.torch
    version = getattr(torch, "version", None)
    if getattr(version, "cuda", None) is None and getattr(version, "hip", None) is None:
        skip(CPU_BUILD_SKIP)
    has_flags = hasattr(getattr(torch, "_C", None), "_cuda_getArchFlags")
    if not hasattr(getattr(torch, "cuda", None), "get_arch_list") and not has_flags:
        skip(NO_ARCH_LIST)
    found = _arch_list(torch)
    if not found and not has_flags and not torch.cuda.is_available():
        skip(
            "torch.cuda.get_arch_list() is empty while no CUDA device is visible (torch "
            "1.6-2.10 report the list only with a device)"
        )
    text = " ".join(found) or "(empty)"
    gpu_build = getattr(version, "cuda", None) is not None or getattr(version, "hip", None)
    if ctx.archs and gpu_build:
        if sorted(found) != sorted(ctx.archs):
            fail(
                "torch.cuda.get_arch_list() is {} but the matrix (gpu-archs.yaml) says {}".format(
                    text, " ".join(ctx.archs)
                )
            )
        return text + " (as the matrix says)"
    return text


# The shared libraries of a CUDA build, as the loader names them (libcudart.so.13,
# libcudart-9335f6a2.so.11.0 / libcudart.faf08d9a.so.13 where a wheel bundles its own copy, ...).
CUDA_LIBRARY = re.compile(
    r"^lib(cudart|cublas|cublasLt|cudnn|cufft|cufile|curand|cusolver|cusparse|cusparseLt|nccl"
    r"|nvrtc|nvJitLink|cupti|nvshmem_host|nvToolsExt)([-.][0-9a-f]{8})?\.so(\.[0-9]+)*$"
)
# torch's own CUDA part: loaded at `import torch` in every CUDA build (only there).
TORCH_CUDA_LIBRARY = re.compile(r"^libc10_cuda\.so$")


def _loaded_libraries() -> "list[str]":
    """Paths of the shared objects mapped into this process (Linux: /proc/self/maps)."""
    found = []  # type: list[str]
    with Path("/proc/self/maps").open(encoding="utf-8", errors="replace") as maps:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) == 6 and parts[5].strip().startswith("/"):
                path = parts[5].strip()
                if path not in found:
                    found.append(path)
    return found


def _soname_version(path: str) -> "str | None":
    """The CUDA version a libcudart's file name tells: '9.0' for libcudart-f7fdd8d7.so.9.0,
    '10.2' for libcudart.so.10.2; from CUDA 11 the soname holds the major only
    (libcudart.so.11.0 for every 11.x, libcudart.so.13), so '11' and '13'; None when the name has
    no version."""
    found = re.search(r"\.so\.([0-9]+)(?:\.([0-9]+))?", Path(path).name)
    if found is None:
        return None
    major = int(found.group(1))
    if major >= 11 or found.group(2) is None:
        return str(major)
    return f"{major}.{found.group(2)}"


def _runtime_version(path: str) -> "str | None":
    """cudaRuntimeGetVersion() of a loaded libcudart as 'major.minor', or None when it does not
    answer. It needs no GPU; without a driver the 9.x-11.x runtimes answer
    cudaErrorInsufficientDriver (35; measured with torch 1.0.1-1.13.1), CUDA 13's answers."""
    try:
        lib = ctypes.CDLL(path)
        value = ctypes.c_int(0)
        if lib.cudaRuntimeGetVersion(ctypes.byref(value)) != 0:
            return None
    except (OSError, AttributeError):
        return None
    return f"{value.value // 1000}.{value.value % 1000 // 10}"


def _runtime_from_name(path: str) -> str:
    """A runtime's version from its file name when cudaRuntimeGetVersion() does not answer
    (no driver): major.minor up to CUDA 10, the major from CUDA 11. A name without a version
    leaves nothing to check: a failure."""
    named = _soname_version(path)
    if named is None:
        fail(f"{path} is loaded but cudaRuntimeGetVersion() failed")
    return named


def _runtime_matches(runtime: str, want: str) -> bool:
    """'10.2' against the variant's '10.2'; a major-only '11' (from a file name) against '11.7'."""
    if "." not in runtime:
        return runtime == want.split(".", 1)[0]
    return _version_prefix_equal(runtime, want)


def check_cuda_libraries(ctx: Context) -> str:
    """A CUDA build's libraries loaded at `import torch`, without a GPU: torch's CUDA part
    (libc10_cuda), the CUDA runtime (whose own version must be the variant's) and the rest."""
    torch = ctx.torch
    version = getattr(torch, "version", None)
    cuda = getattr(version, "cuda", None)
    if cuda is None:
        if getattr(version, "hip", None) is not None:
            skip("ROCm build (the CUDA libraries are not part of it)")
        skip(CPU_BUILD_SKIP)
    if not sys.platform.startswith("linux"):
        skip("reads the loaded libraries from /proc/self/maps (Linux only)")
    loaded = _loaded_libraries()
    basenames = [Path(p).name for p in loaded]
    names = sorted({n for n in basenames if CUDA_LIBRARY.match(n)})
    if not any(TORCH_CUDA_LIBRARY.match(n) for n in basenames):
        fail(
            f"torch reports CUDA {cuda} (torch.version.cuda) but its CUDA library "
            "(libc10_cuda.so) is not loaded after `import torch`"
        )
    # Every CUDA runtime loaded (torch's, and any copy a companion such as torchvision bundles)
    # must be the variant's: cudaRuntimeGetVersion() needs no GPU and no driver.
    cudart = [p for p in loaded if Path(p).name.startswith("libcudart")]
    want = ctx.version if ctx.kind == "cuda" and ctx.version else str(cuda)
    runtimes = {}  # type: dict[str, list[str]]
    named = []  # type: list[str]
    for path in cudart:
        runtime = _runtime_version(path)
        if runtime is None:
            runtime = _runtime_from_name(path)
            named.append(Path(path).name)
        if not _runtime_matches(runtime, want):
            fail(
                f"the loaded CUDA runtime {path} is {runtime} but the variant is "
                f"{ctx.accelerator} (torch.version.cuda {cuda})"
            )
        runtimes.setdefault(runtime, []).append(Path(path).name)
    if runtimes:
        detail = [
            "CUDA runtime {} ({})".format(v, ", ".join(sorted(files)))
            for v, files in sorted(runtimes.items())
        ]
    else:
        detail = ["no separate libcudart (linked into torch)"]
    if named:
        detail.append(
            "version of {} read from the file name (cudaRuntimeGetVersion() did not answer: "
            "no driver)".format(", ".join(sorted(named)))
        )
    backends = getattr(torch, "backends", None)
    cudnn = getattr(backends, "cudnn", None)
    if cudnn is not None and hasattr(cudnn, "version"):
        try:
            found = cudnn.version()
        except Exception as exc:  # a cuDNN that does not load is the problem to report
            fail(f"torch.backends.cudnn.version() raised {_describe(exc)}")
        if found:
            detail.append(f"cuDNN {found}")
    others = [n for n in names if not n.startswith("libcudart")]
    if others:
        detail.append("loaded: " + " ".join(others))
    return "; ".join(detail)


def check_tensor_math(ctx: Context) -> str:
    torch = ctx.torch
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = torch.tensor([[5.0, 6.0], [7.0, 8.0]])
    got = torch.matmul(a, b).tolist()
    if got != [[19.0, 22.0], [43.0, 50.0]]:
        fail(f"matmul of fixed 2x2 matrices gave {got}, expected [[19, 22], [43, 50]]")
    total = float(torch.arange(1, 101).sum())
    if total != 5050.0:
        fail(f"sum(1..100) gave {total}, expected 5050")
    return "matmul and sum give the known answers"


def check_autograd(ctx: Context) -> str:
    torch = ctx.torch
    x = torch.tensor(2.0, requires_grad=True)
    y = x**3
    y.backward()
    grad = float(x.grad)
    if grad != 12.0:
        fail(f"d/dx x^3 at x=2 gave {grad}, expected 12")
    return "d/dx x^3 at x=2 == 12"


def check_convnet(ctx: Context) -> str:
    torch = ctx.torch
    nn = torch.nn
    torch.manual_seed(0)
    # No nn.Flatten (torch 1.2+): the features are flattened with view, as in every torch.
    features = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(8, 4, 3, padding=1),
        nn.AdaptiveAvgPool2d(1),
    )
    head = nn.Linear(4, 10)
    features.eval()
    head.eval()
    with torch.no_grad():
        out = head(features(torch.ones(1, 3, 64, 64)).view(1, -1))
    if tuple(out.shape) != (1, 10):
        fail(f"tiny conv net output shape {tuple(out.shape)}, expected (1, 10)")
    if not bool(torch.isfinite(out).all()):
        fail("tiny conv net output has NaN or inf")
    return "tiny conv net on 1x3x64x64 -> (1, 10)"


def check_nms(ctx: Context) -> str:
    torch = ctx.torch
    tv = ctx.module("torchvision")
    if not hasattr(getattr(tv, "ops", None), "nms"):
        skip(
            "torchvision {} has no ops.nms (torchvision.ops arrived in 0.3)".format(
                getattr(tv, "__version__", "?")
            )
        )
    boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 11.0, 11.0], [20.0, 20.0, 30.0, 30.0]])
    scores = torch.tensor([0.9, 0.8, 0.7])
    # Boxes 0 and 1 overlap with IoU 81/119 = 0.68 > 0.5, so box 1 is suppressed.
    kept = tv.ops.nms(boxes, scores, 0.5).tolist()
    if kept != [0, 2]:
        fail(f"torchvision.ops.nms kept {kept}, expected [0, 2]")
    return "ops.nms kept [0, 2]"


def check_resnet(ctx: Context) -> str:
    torch = ctx.torch
    tv = ctx.module("torchvision")
    models = tv.models
    try:
        model = models.resnet18(weights=None)
    except TypeError:  # torchvision < 0.13 has no `weights`
        model = models.resnet18(pretrained=False)
    model.eval()
    # torchvision < 0.3 pools with a fixed AvgPool2d(7): it needs the 224x224 input it was made for.
    side = 64 if isinstance(getattr(model, "avgpool", None), torch.nn.AdaptiveAvgPool2d) else 224
    with torch.no_grad():
        out = model(torch.zeros(1, 3, side, side))
    if tuple(out.shape) != (1, 1000):
        fail(f"resnet18 output shape {tuple(out.shape)}, expected (1, 1000)")
    return f"resnet18(weights=None) on 1x3x{side}x{side} -> (1, 1000)"


def check_image_decode(ctx: Context) -> str:
    torch = ctx.torch
    tv = ctx.module("torchvision")
    found = getattr(tv, "io", None)  # torchvision.io arrived in 0.4
    if not hasattr(found, "encode_png") or not hasattr(found, "decode_image"):
        skip(
            "torchvision {} has no io.encode_png/io.decode_image".format(
                getattr(tv, "__version__", "?")
            )
        )
    io = tv.io
    image = (torch.arange(3 * 8 * 8) % 256).to(torch.uint8).reshape(3, 8, 8)
    decoded = io.decode_image(io.encode_png(image))
    if tuple(decoded.shape) != (3, 8, 8) or not bool(torch.equal(decoded, image)):
        fail("decode_image(encode_png(x)) does not give back the 3x8x8 image")
    return "encode_png -> decode_image round trip of a 3x8x8 image"


def _sine(torch: ModuleType, rate: int) -> object:
    t = torch.arange(0, rate // 10).float() / rate
    return (0.5 * torch.sin(2 * math.pi * 440.0 * t)).unsqueeze(0)


def check_audio_resample(ctx: Context) -> str:
    torch = ctx.torch
    ta = ctx.module("torchaudio")
    wave = _sine(torch, 16000)
    out = ta.functional.resample(wave, 16000, 8000)
    if tuple(out.shape) != (1, 800):
        fail(f"resampling 1600 samples 16 kHz -> 8 kHz gave shape {tuple(out.shape)}")
    return "resample 16 kHz -> 8 kHz: (1, 1600) -> (1, 800)"


def check_audio_save_load(ctx: Context) -> str:
    torch = ctx.torch
    ta = ctx.module("torchaudio")
    wave = _sine(torch, 16000)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "sine.wav")
        try:
            ta.save(path, wave, 16000)
            loaded, rate = ta.load(path)
        except ImportError as exc:
            # torchaudio >= 2.9 delegates file I/O to torchcodec, an optional package.
            if "torchcodec" in str(exc):
                skip(
                    "torchaudio {} needs torchcodec for save/load, which is not installed".format(
                        getattr(ta, "__version__", "?")
                    )
                )
            raise
    if rate != 16000 or tuple(loaded.shape) != (1, 1600):
        fail(f"loaded {tuple(loaded.shape)} at {rate} Hz, expected (1, 1600) at 16000 Hz")
    if not bool(torch.allclose(loaded, wave, atol=1e-3)):
        fail("the loaded samples differ from the saved sine wave")
    return "save/load of a 0.1 s 440 Hz sine at 16 kHz"


# --- GPU tier --------------------------------------------------------------------------------
def _gpu_torch(ctx: Context) -> ModuleType:
    """torch when a GPU is usable, else Skip (or Fail when the variant requires one)."""
    torch = ctx.torch
    version = getattr(torch, "version", None)
    if getattr(version, "cuda", None) is None and getattr(version, "hip", None) is None:
        skip(CPU_BUILD_SKIP)
    if not torch.cuda.is_available():
        if ctx.require_gpu:
            fail(NO_DEVICE_SKIP)
        skip(NO_DEVICE_SKIP)
    return torch


# The AMD kernel driver's topology: one folder per node (CPUs too), each with a `properties`
# file whose `gfx_target_version` line encodes a GPU's gfx target (90010 -> gfx90a); read where
# torch has no gcnArchName (ROCm builds before 2.2).
KFD_NODES = "/sys/class/kfd/kfd/topology/nodes"


def _gfx_name(target: int) -> str:
    """90010 -> 'gfx90a', 100300 -> 'gfx1030', 90402 -> 'gfx942' (major, minor, stepping)."""
    return f"gfx{target // 10000}{target // 100 % 100:x}{target % 100:x}"


def _kfd_gfx_targets(root: str) -> "list[str]":
    """The gfx targets of the GPU nodes under `root`, in node order (CPU nodes report 0)."""
    found = []  # type: list[str]
    try:
        nodes = sorted((p.name for p in Path(root).iterdir()), key=lambda n: (len(n), n))
    except OSError:
        return found
    for node in nodes[:256]:
        try:
            with (Path(root) / node / "properties").open(encoding="utf-8") as handle:
                text = handle.read(65536)
        except OSError:
            continue
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "gfx_target_version" and value.strip().isdigit() and int(value) > 0:
                found.append(_gfx_name(int(value)))
    return found


def _device_arch(torch: ModuleType, index: int = 0) -> "str | None":
    """The device's architecture as get_arch_list() names it: sm_86, or a ROCm gfx target.

    ROCm: torch.cuda.get_device_properties(i).gcnArchName (torch 2.2+; 'gfx90a:sramecc+:xnack-'
    -> 'gfx90a'); before 2.2 the kernel driver's topology, when every GPU there has the same
    target (the device index cannot be matched to a node otherwise); None when unknown. A ROCm
    device's get_device_capability() is never an sm_ name."""
    if getattr(torch.version, "hip", None) is not None:
        props = torch.cuda.get_device_properties(index)
        gcn = getattr(props, "gcnArchName", None)
        if gcn:
            return str(gcn).split(":")[0]
        targets = sorted(set(_kfd_gfx_targets(KFD_NODES)))
        return targets[0] if len(targets) == 1 else None
    major, minor = torch.cuda.get_device_capability(index)
    return f"sm_{major}{minor}"


def _device_indices(torch: ModuleType) -> "list[int]":
    count = int(torch.cuda.device_count())
    return list(range(min(max(count, 1), 64)))


def check_gpu_available(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    return f"{torch.cuda.device_count()} device(s)"


def check_gpu_device(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    parts = []
    for index in _device_indices(torch):
        name = torch.cuda.get_device_name(index)
        major, minor = torch.cuda.get_device_capability(index)
        arch = _device_arch(torch, index) or "gfx target unknown"
        parts.append(f"{name} (compute capability {major}.{minor}, {arch})")
    if len(parts) == 1:
        return parts[0]
    return "; ".join(f"cuda:{i} {p}" for i, p in enumerate(parts))


NO_GCN_ARCH = (
    "torch {} (ROCm) has no gcnArchName (2.2+) and the kernel driver's topology ({}) names no "
    "single gfx target: the device's architecture cannot be read"
)


def check_gpu_arch(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    archs = _arch_list(torch)
    source = ""
    if not archs and ctx.archs:  # torch < 1.6 reports none: the matrix's list (gpu-archs.yaml)
        archs, source = list(ctx.archs), " (the matrix's list: torch reports none)"
    if not archs:
        skip("torch.cuda.get_arch_list() is empty or missing and the matrix has no list")
    ptx_jit = ctx.ptx_jit and not _driver_below_runtime(torch)
    indices = _device_indices(torch)
    passed, failed = [], []  # type: list[str], list[str]
    for index in indices:
        verdict, ok = _arch_verdict(torch, index, archs, ptx_jit)
        label = verdict if len(indices) == 1 else f"cuda:{index} {verdict}"
        (passed if ok else failed).append(label)
    if failed:
        fail("; ".join(failed) + source)
    return "; ".join(passed) + source


def _arch_verdict(
    torch: ModuleType, index: int, archs: "list[str]", ptx_jit: bool
) -> "tuple[str, bool]":
    """(the words, whether device `index` runs a build compiled for `archs`)."""
    arch = _device_arch(torch, index)
    if arch is None:
        skip(NO_GCN_ARCH.format(getattr(torch, "__version__", "?"), KFD_NODES))
    compiled = " ".join(archs)
    if not arch.startswith("sm_"):  # ROCm: gfx targets must match exactly
        if arch in archs:
            return f"{arch} is in the compiled list", True
        words = (
            f"the GPU is {arch} but torch was compiled for {compiled}: expect 'no kernel image is "
            "available for execution on the device'"
        )
        return words, False
    major, minor = torch.cuda.get_device_capability(index)
    found = arch_support((int(major), int(minor)), archs, ptx_jit=ptx_jit)
    if found is not None:
        return describe_support(arch, found), True
    blocked = "" if ptx_jit else PTX_BLOCKED
    words = (
        f"the GPU is {arch} but torch was compiled for {compiled}{blocked}: expect 'no kernel "
        "image is available for execution on the device'"
    )
    return words, False


def _open_libcuda() -> "object | None":
    """The NVIDIA driver's libcuda (loading it needs no GPU and no cuInit), or None."""
    for name in ("libcuda.so.1", "libcuda.so", "nvcuda.dll", "libcuda.dylib"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


def _driver_version(torch: ModuleType) -> "int | None":
    """The driver's CUDA version as an int (12080 for 12.8), or None when unknown.

    torch._C._cuda_getDriverVersion() where torch has it (the 1.0.1-1.6.0 wheels; not 1.9.0), else
    cuDriverGetVersion() from libcuda, which answers before cuInit."""
    get = getattr(getattr(torch, "_C", None), "_cuda_getDriverVersion", None)
    if get is not None:
        try:
            value = int(get())
        except Exception:
            value = 0
        if value > 0:
            return value
    lib = _open_libcuda()
    if lib is None:
        return None
    out = ctypes.c_int(0)
    try:
        if lib.cuDriverGetVersion(ctypes.byref(out)) != 0:  # type: ignore[attr-defined]
            return None
    except (AttributeError, OSError):
        return None
    return int(out.value) if out.value > 0 else None


def _driver_below_runtime(torch: ModuleType) -> bool:
    """True when the driver's CUDA version is older than torch's CUDA runtime: the build runs
    through minor-version compatibility, where PTX cannot be JIT-compiled."""
    cuda = str(getattr(torch.version, "cuda", None) or "")
    parts = cuda.split(".")
    if len(parts) < 2 or not (parts[0].isdigit() and parts[1].isdigit()):
        return False
    driver = _driver_version(torch)
    return driver is not None and driver < int(parts[0]) * 1000 + int(parts[1]) * 10


# --- the architecture rule (envgen.doctor.verdicts uses these too) ----------------------------
# NVIDIA, CUDA C++ Programming Guide, "Binary Compatibility" and "PTX Compatibility"
# (https://docs.nvidia.com/cuda/cuda-c-programming-guide/#binary-compatibility):
# - SASS (cubin, sm_XY) for compute capability X.y runs only on devices of capability X.z with
#   z >= y: the same major, the same or a higher minor (sm_80 runs on sm_86, never on sm_90).
#   Architecture-specific SASS (sm_90a, sm_100a) runs only on exactly that capability.
# - PTX (compute_XY) is JIT-compiled by the driver for any device of capability >= X.Y, of any
#   later major. Under CUDA minor-version compatibility (a driver older than the toolkit's own
#   minimum) the driver cannot JIT the newer toolkit's PTX (cudaErrorUnsupportedPtxVersion), so
#   only SASS counts there.
PTX_BLOCKED = " (PTX JIT is not available under CUDA minor-version compatibility)"


def parse_arch(name: str) -> "tuple[str, int, int, str] | None":
    """('sm', 8, 6, '') for 'sm_86', ('compute', 12, 0, '') for 'compute_120', None otherwise."""
    prefix, _, rest = name.partition("_")
    if prefix not in ("sm", "compute"):
        return None
    digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
    suffix = rest[len(digits) :]
    if len(digits) < 2 or not digits.isdigit():
        return None
    return prefix, int(digits[:-1]), int(digits[-1]), suffix


def arch_support(
    capability: "tuple[int, int]", archs: "Sequence[str]", ptx_jit: bool = True
) -> "tuple[str, str] | None":
    """How a GPU of `capability` runs a build compiled for `archs` (torch.cuda.get_arch_list()).

    Returns ("exact" | "family" | "ptx", the arch used), preferring SASS to PTX and the closest
    arch; None when nothing in the list runs on it.
    """
    major, minor = capability
    best_family = None  # type: tuple[int, str] | None
    best_ptx = None  # type: tuple[tuple[int, int], str] | None
    for name in archs:
        parsed = parse_arch(name)
        if parsed is None:
            continue
        kind, a_major, a_minor, suffix = parsed
        if kind == "sm" and (a_major, a_minor) == (major, minor):
            return "exact", name
        family = kind == "sm" and suffix != "a" and a_major == major and a_minor < minor
        if family and (best_family is None or a_minor > best_family[0]):
            best_family = (a_minor, name)
        jit = kind == "compute" and ptx_jit and not suffix and (a_major, a_minor) <= (major, minor)
        if jit and (best_ptx is None or (a_major, a_minor) > best_ptx[0]):
            best_ptx = ((a_major, a_minor), name)
    if best_family is not None:
        return "family", best_family[1]
    if best_ptx is not None:
        return "ptx", best_ptx[1]
    return None


def describe_support(arch: str, found: "tuple[str, str]") -> str:
    """The words for arch_support's answer: 'sm_86 runs the sm_80 kernels (same major)'."""
    how, item = found
    if how == "exact":
        return f"{arch} is in the compiled list"
    if how == "family":
        return f"{arch} runs the {item} kernels (same major)"
    return f"{arch} can JIT the {item} PTX"


def check_gpu_matmul(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(64, 64, generator=gen)
    b = torch.randn(64, 64, generator=gen)
    want = a @ b
    got = (a.cuda() @ b.cuda()).cpu()
    # Loose tolerance: TF32 may be on for GPU matmul (the default in torch 1.7-1.11).
    if not bool(torch.allclose(got, want, rtol=1e-2, atol=5e-2)):
        diff = float((got - want).abs().max())
        fail(f"GPU matmul differs from CPU matmul (max abs diff {diff:.3g})")
    return "64x64 matmul on GPU matches CPU"


def check_gpu_cudnn(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    cudnn = torch.backends.cudnn
    if not cudnn.is_available():  # compiled in or not (torch._C._has_cudnn / has_cudnn)
        skip(
            "torch was built without cuDNN (torch.backends.cudnn.is_available() is False): "
            "convolutions run on torch's own kernels"
        )
    if not cudnn.version():
        fail("torch was built with cuDNN but it did not load (torch.backends.cudnn.version())")
    if not cudnn.enabled:
        fail("cuDNN is available but disabled (torch.backends.cudnn.enabled is False)")
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(1, 3, 16, 16, generator=gen)
    w = torch.randn(4, 3, 3, 3, generator=gen)
    conv2d = torch.nn.functional.conv2d
    got = conv2d(x.cuda(), w.cuda(), padding=1).cpu()
    if not bool(torch.allclose(got, conv2d(x, w, padding=1), rtol=1e-2, atol=5e-2)):
        fail("conv2d on GPU differs from conv2d on CPU")
    return f"cuDNN {cudnn.version()} enabled; conv2d matches CPU"


def autocast_dtypes(torch: ModuleType) -> "tuple[list[object], str]":
    """The dtypes the autocast check tries, and a note on bfloat16 when it is left out.

    float16 always; bfloat16 where the GPU computes it natively: ROCm when
    torch.cuda.is_bf16_supported() says so, CUDA devices of compute capability 8.0+ (Ampere).
    torch 2.3+'s is_bf16_supported() is also True on older GPUs through emulation, which is
    not what a bfloat16 training run expects. Skip when this torch has no autocast (1.6+)."""
    amp = getattr(torch.cuda, "amp", None)
    if not hasattr(torch, "autocast") and not hasattr(amp, "autocast"):
        skip(
            "torch {} has no autocast (torch.cuda.amp arrived in 1.6)".format(
                getattr(torch, "__version__", "?")
            )
        )
    dtypes = [torch.float16]  # type: list[object]
    bf16 = getattr(torch.cuda, "is_bf16_supported", None)
    if getattr(torch.version, "hip", None) is not None:
        if bf16 is not None and bf16():
            dtypes.append(torch.bfloat16)
        return dtypes, ""
    major, minor = torch.cuda.get_device_capability(0)
    if bf16 is None:
        return dtypes, "; bfloat16 not tried: torch.cuda.is_bf16_supported() is missing"
    if int(major) < 8:
        return dtypes, f"; bfloat16 not tried: sm_{major}{minor} has no native bfloat16 (sm_80+)"
    if bf16():
        dtypes.append(torch.bfloat16)
    return dtypes, ""


def check_gpu_autocast(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    dtypes, note = autocast_dtypes(torch)
    a = torch.ones(8, 8, device="cuda")
    seen = []
    for dtype in dtypes:
        if hasattr(torch, "autocast"):
            scope = torch.autocast("cuda", dtype=dtype)
        elif dtype == torch.float16:
            scope = torch.cuda.amp.autocast()
        else:
            continue
        with scope:
            out = a @ a
        if out.dtype != dtype:
            fail(f"autocast({dtype}) matmul returned {out.dtype}")
        if float(out[0, 0]) != 8.0:
            fail(f"autocast({dtype}) matmul gave {float(out[0, 0])}, expected 8")
        seen.append(str(dtype).replace("torch.", ""))
    return "autocast matmul in {}{}".format(", ".join(seen), note)


def check_gpu_pinned_copy(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    host = torch.arange(1024, dtype=torch.float32).pin_memory()
    dev = host.to("cuda", non_blocking=True)
    torch.cuda.synchronize()
    if not bool(torch.equal(dev.cpu(), host)):
        fail("a non_blocking copy from pinned memory changed the data")
    return "pinned host -> device copy (non_blocking) round trip"


def check_gpu_memory(ctx: Context) -> str:
    torch = _gpu_torch(ctx)
    if not hasattr(torch.cuda, "mem_get_info"):
        skip("torch.cuda.mem_get_info is not available in this torch")
    free, total = torch.cuda.mem_get_info()
    gib = 1024.0**3
    return f"{free / gib:.1f} GiB free of {total / gib:.1f} GiB"


# --- driver ----------------------------------------------------------------------------------
# --- compiled extensions (envgen.model.extensions): one small op each, when installed -------------
# Kept to Python 3.6 syntax like the rest of the script.


def _ext_scatter(ext: ModuleType, torch: ModuleType) -> str:
    src = torch.tensor([1.0, 2.0, 3.0, 4.0])
    out = ext.scatter(src, torch.tensor([0, 0, 1, 1]), dim=0, reduce="sum").tolist()
    if out != [3.0, 7.0]:
        fail(f"torch_scatter.scatter gave {out}, expected [3.0, 7.0]")
    return "scatter sum ok"


def _ext_sparse(ext: ModuleType, torch: ModuleType) -> str:
    index = torch.tensor([[0, 1], [1, 0]])
    out = ext.spmm(index, torch.tensor([1.0, 2.0]), 2, 2, torch.ones(2, 1)).view(-1).tolist()
    if out != [1.0, 2.0]:
        fail(f"torch_sparse.spmm gave {out}, expected [1.0, 2.0]")
    return "spmm ok"


def _ext_cluster(ext: ModuleType, torch: ModuleType) -> str:
    pos = torch.tensor([[0.0, 0.0], [11.0, 9.0], [2.0, 8.0], [2.0, 2.0], [8.0, 3.0]])
    out = ext.grid_cluster(pos, torch.tensor([5.0, 5.0])).tolist()
    if out != [0, 5, 3, 0, 1]:
        fail(f"torch_cluster.grid_cluster gave {out}, expected [0, 5, 3, 0, 1]")
    return "grid_cluster ok"


def _ext_spline(ext: ModuleType, torch: ModuleType) -> str:
    basis, _ = ext.spline_basis(
        torch.tensor([[0.3]]), torch.tensor([5]), torch.tensor([1], dtype=torch.uint8), 1
    )
    total = float(basis.sum())
    if abs(total - 1.0) > 1e-5:
        fail(f"torch_spline_conv.spline_basis weights sum to {total}, expected 1")
    return "spline_basis ok"


def _ext_pyg_lib(_ext: ModuleType, torch: ModuleType) -> str:
    ops = importlib.import_module("pyg_lib.ops")
    out = ops.segment_matmul(
        torch.ones(4, 2), torch.tensor([0, 2, 4]), torch.ones(2, 2, 3)
    ).tolist()
    if out != [[2.0, 2.0, 2.0]] * 4:
        fail(f"pyg_lib.ops.segment_matmul gave {out}")
    return "segment_matmul ok"


def _ext_mmcv(ext: ModuleType, torch: ModuleType) -> str:
    ops = importlib.import_module("mmcv.ops")  # the compiled ops (mmcv-full / mmcv >= 2)

    boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 10.0, 10.0], [20.0, 20.0, 30.0, 30.0]])
    _, kept = ops.nms(boxes, torch.tensor([0.9, 0.8, 0.7]), 0.5)
    if kept.tolist() != [0, 2]:
        fail(f"mmcv.ops.nms kept {kept.tolist()}, expected [0, 2]")
    return "mmcv.ops.nms ok (mmcv {})".format(getattr(ext, "__version__", "?"))


def _ext_detectron2(_ext: ModuleType, torch: ModuleType) -> str:
    importlib.import_module("detectron2._C")  # the compiled ops must load
    structures = importlib.import_module("detectron2.structures")
    boxes, pairwise_iou = structures.Boxes, structures.pairwise_iou

    box = boxes(torch.tensor([[0.0, 0.0, 10.0, 10.0]]))
    iou = float(pairwise_iou(box, box)[0, 0])
    if abs(iou - 1.0) > 1e-6:
        fail(f"detectron2 pairwise_iou of a box with itself is {iou}")
    return "detectron2._C loaded, pairwise_iou ok"


def _ext_dgl(ext: ModuleType, torch: ModuleType) -> str:
    g = ext.graph((torch.tensor([0, 1]), torch.tensor([1, 2])))
    degrees = g.in_degrees().tolist()
    if degrees != [0, 1, 1]:
        fail(f"dgl in_degrees gave {degrees}, expected [0, 1, 1]")
    return "dgl graph ok"


def _ext_pytorch3d(_ext: ModuleType, torch: ModuleType) -> str:
    knn_points = importlib.import_module("pytorch3d.ops").knn_points

    found = knn_points(
        torch.zeros(1, 1, 3), torch.tensor([[[1.0, 0.0, 0.0], [3.0, 0.0, 0.0]]]), K=1
    )
    if found.dists.view(-1).tolist() != [1.0]:
        fail(f"pytorch3d knn_points gave {found.dists.view(-1).tolist()}, expected [1.0]")
    return "knn_points ok"


def _ext_spconv(_ext: ModuleType, torch: ModuleType) -> str:
    sp = importlib.import_module("spconv.pytorch")

    tensor = sp.SparseConvTensor(
        torch.ones(1, 1), torch.tensor([[0, 1, 1]], dtype=torch.int32), [2, 2], 1
    )
    total = float(tensor.dense().sum())
    if total != 1.0:
        fail(f"spconv SparseConvTensor.dense() sums to {total}, expected 1")
    return "SparseConvTensor ok"


def flash_attn_floor(version: str) -> "tuple[int, int]":
    """The oldest compute capability flash-attn `version` runs on (its README): 2.x needs
    Ampere (sm_80) and refuses older GPUs; 1.x ran on Turing (sm_75)."""
    return (7, 5) if version.split(".", 1)[0] in ("0", "1") else (8, 0)


def _ext_gpu_attention(ext: ModuleType, torch: ModuleType) -> str:
    if not torch.cuda.is_available():
        skip(NO_DEVICE_SKIP)
    if ext.__name__ == "flash_attn" and getattr(torch.version, "hip", None) is None:
        version = str(getattr(ext, "__version__", "2"))
        floor = flash_attn_floor(version)
        major, minor = torch.cuda.get_device_capability(0)
        if (int(major), int(minor)) < floor:
            least = f"sm_{floor[0]}{floor[1]}"
            skip(f"flash-attn {version} runs on {least} and newer; this GPU is sm_{major}{minor}")
    q = torch.randn(1, 8, 2, 16, device="cuda", dtype=torch.float16)
    if ext.__name__ == "xformers":
        ops = importlib.import_module("xformers.ops")
        out = ops.memory_efficient_attention(q, q, q)
    else:
        out = ext.flash_attn_func(q, q, q)
    if not bool(torch.isfinite(out).all()) or tuple(out.shape) != (1, 8, 2, 16):
        fail(f"{ext.__name__} attention returned shape {out.shape} or non-finite values")
    return f"{ext.__name__} attention ok"


# import name -> (tier, check); the extensions envgen knows (matrices/extensions.yaml).
EXTENSION_CHECKS = {
    "torch_scatter": ("cpu", _ext_scatter),
    "torch_sparse": ("cpu", _ext_sparse),
    "torch_cluster": ("cpu", _ext_cluster),
    "torch_spline_conv": ("cpu", _ext_spline),
    "pyg_lib": ("cpu", _ext_pyg_lib),
    "mmcv": ("cpu", _ext_mmcv),
    "detectron2": ("cpu", _ext_detectron2),
    "dgl": ("cpu", _ext_dgl),
    "pytorch3d": ("cpu", _ext_pytorch3d),
    "spconv": ("cpu", _ext_spconv),
    "xformers": ("gpu", _ext_gpu_attention),
    "flash_attn": ("gpu", _ext_gpu_attention),
}
NOT_INSTALLED = "not installed in this environment"


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def check_extension(ctx: Context, name: str) -> str:
    """Import one compiled extension and run its op (a wheel for another torch fails here)."""
    if not _installed(name):
        skip(NOT_INSTALLED)
    torch = ctx.torch
    module = importlib.import_module(name)
    return EXTENSION_CHECKS[name][1](module, torch)


def _extension_plan(ctx: Context) -> "list[tuple[str, str, Callable[[Context], str]]]":
    """Checks for the extensions the variant has, and any other known one that is installed."""
    names = sorted(n for n in EXTENSION_CHECKS if n in ctx.expect_extensions or _installed(n))
    return [
        (EXTENSION_CHECKS[n][0], "extension:" + n, functools.partial(check_extension, name=n))
        for n in names
    ]


def _plan(ctx: Context) -> "list[tuple[str, str, Callable[[Context], str]]]":
    """Every check in report order: (tier, name, function of the context)."""
    plan = [
        ("cpu", "import:" + name, functools.partial(check_import, name=name))
        for name in ("torch", "torchvision", "torchaudio")
    ]  # type: list[tuple[str, str, Callable[[Context], str]]]
    plan += [
        ("cpu", "version:" + name, functools.partial(check_distribution, name=name))
        for name in sorted(ctx.distributions)
    ]
    plan += [
        ("cpu", "build", check_build),
        ("cpu", "arch-list", check_arch_list),
        ("cpu", "cuda-libraries", check_cuda_libraries),
        ("cpu", "tensor-math", check_tensor_math),
        ("cpu", "autograd", check_autograd),
        ("cpu", "convnet-forward", check_convnet),
        ("cpu", "torchvision:nms", check_nms),
        ("cpu", "torchvision:resnet18", check_resnet),
        ("cpu", "torchvision:image-decode", check_image_decode),
        ("cpu", "torchaudio:resample", check_audio_resample),
        ("cpu", "torchaudio:save-load", check_audio_save_load),
        ("gpu", "available", check_gpu_available),
        ("gpu", "device", check_gpu_device),
        ("gpu", "arch-supported", check_gpu_arch),
        ("gpu", "matmul", check_gpu_matmul),
        ("gpu", "cudnn-conv", check_gpu_cudnn),
        ("gpu", "autocast", check_gpu_autocast),
        ("gpu", "pinned-copy", check_gpu_pinned_copy),
        ("gpu", "memory", check_gpu_memory),
    ]
    plan += _extension_plan(ctx)
    return plan


def run_check(
    ctx: Context, tier: str, name: str, check: "Callable[[Context], str]"
) -> "dict[str, object]":
    """Run one check and return its report entry; never raises (except on interrupt)."""
    # A crash (segfault) loses the JSON; this line lets the caller name the check that crashed.
    sys.stderr.write(f"envgen-smoke: running {tier}/{name}\n")
    sys.stderr.flush()
    start = time.time()
    try:
        detail = str(check(ctx))
        status = "pass"
    except SkipCheckError as exc:
        status, detail = "skip", str(exc)
    except CheckFailedError as exc:
        status, detail = "fail", str(exc)
    except Exception as exc:
        status, detail = "fail", _describe(exc)
    return {
        "tier": tier,
        "name": name,
        "status": status,
        "detail": detail,
        "seconds": round(time.time() - start, 4),
    }


def run_checks(expect: "dict[str, object]") -> "list[dict[str, object]]":
    """Run every check for `expect` and return the report entries in a fixed order."""
    ctx = Context(expect)
    return [run_check(ctx, tier, name, check) for tier, name, check in _plan(ctx)]


def _parse_args(argv: "list[str]") -> "dict[str, object]":
    parser = argparse.ArgumentParser(description="envgen smoke checks (run inside the env)")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--expect", help="the expectation as a JSON object")
    group.add_argument("--expect-file", help="a file holding the expectation as JSON")
    args = parser.parse_args(argv)
    text = args.expect
    if args.expect_file:
        text = Path(args.expect_file).read_text(encoding="utf-8")
    expect = json.loads(text)  # type: object
    if not isinstance(expect, dict):
        parser.error("the expectation must be a JSON object")
    return expect


def main(argv: "list[str] | None" = None) -> int:
    expect = _parse_args(sys.argv[1:] if argv is None else argv)
    # Route everything printed during the checks (Python or C level) to stderr.
    sys.stdout.flush()
    saved_fd = os.dup(1)
    os.dup2(2, 1)
    saved_stdout = sys.stdout
    sys.stdout = sys.stderr
    try:
        results = run_checks(expect)
    finally:
        sys.stdout.flush()
        sys.stdout = saved_stdout
        os.dup2(saved_fd, 1)
        os.close(saved_fd)
    sys.stdout.write(json.dumps(results) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
