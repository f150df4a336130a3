# -*- coding: utf-8 -*-
"""Smoke checks for Python 2.7 and 3.5 environments: the twin of script.py (3.6+).

Run INSIDE a built env as `<env>/bin/python -E -s script27.py --expect JSON` (2.7 has no -I).
The same checks, in the same order, with the same tier/name pairs and the same JSON report
(`{tier, name, status, detail, seconds}`), so envgen.smoke.report reads it unchanged. Written in
the common subset of Python 2.7 and 3.5: no f-strings, no annotations, no pathlib, no
keyword-only arguments, no importlib.metadata (the dist-info is read directly). torch on these
pythons is 1.0-1.5, so the checks of later APIs (get_arch_list, autocast, mem_get_info,
torchvision.io, torchaudio resample) skip as script.py's do there. The compiled extensions of
envgen.model.extensions have no 2.7 / 3.5 builds and are not checked.

It must not import envgen or anything beyond the standard library, torch, torchvision and
torchaudio. tests/unit/test_smoke_script27.py runs it under CPython 2.7 against script.py.
"""

from __future__ import absolute_import, division, print_function

import argparse
import ctypes
import functools
import importlib
import io
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time

# python script27.py puts this folder (envgen/smoke) first on sys.path: take it off, so nothing
# of envgen can shadow the environment's modules (script.py gets this from -I).
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

CPU_BUILD_SKIP = "CPU build"
NO_DEVICE_SKIP = "no CUDA device visible (torch.cuda.is_available() is False)"
NOT_IN_VARIANT = "not in this variant"
NMS_MISSING = "operator torchvision::nms does not exist"
NO_ARCH_LIST = (
    "this torch reports no compiled architectures (torch.cuda.get_arch_list() arrived in 1.6)"
)
CUDA_LIBRARY = re.compile(
    r"^lib(cudart|cublas|cublasLt|cudnn|cufft|cufile|curand|cusolver|cusparse|cusparseLt|nccl"
    r"|nvrtc|nvJitLink|cupti|nvshmem_host|nvToolsExt)([-.][0-9a-f]{8})?\.so(\.[0-9]+)*$"
)
TORCH_CUDA_LIBRARY = re.compile(r"^libc10_cuda\.so$")


class SkipCheckError(Exception):
    pass


class CheckFailedError(Exception):
    pass


def skip(reason):
    raise SkipCheckError(reason)


def fail(message):
    raise CheckFailedError(message)


class Context(object):
    def __init__(self, expect):
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
        archs = expect.get("archs") or []
        self.archs = [str(a) for a in archs] if isinstance(archs, list) else []
        self.modules = {}

    def module(self, name):
        if name in self.modules:
            return self.modules[name]
        if name != "torch" and name not in self.companions:
            skip(NOT_IN_VARIANT)
        raise SkipCheckError("{} did not import (see cpu/import:{})".format(name, name))

    @property
    def torch(self):
        return self.module("torch")


def _accelerator(kind, version):
    if kind == "cuda" and version:
        return "cu" + version.replace(".", "")
    if kind == "rocm" and version:
        return "rocm" + version
    return kind


def _describe(exc):
    text = "{}: {}".format(type(exc).__name__, exc).strip()
    if NMS_MISSING in text:
        return "torchvision does not match torch ({})".format(NMS_MISSING)
    return text


def _version_prefix_equal(found, expected):
    want = expected.split(".")
    return found.replace("-", ".").split(".")[: len(want)] == want


def _normalized(name):
    return re.sub(r"[-_.]+", "_", name).lower()


def _distribution_version(name):
    """The `Version:` of the first `<name>-*.dist-info/METADATA` (or `.egg-info`) on sys.path."""
    want = _normalized(name)
    for entry in sys.path:
        folder = entry or "."
        try:
            children = sorted(os.listdir(folder))
        except (IOError, OSError):
            continue
        for child in children:
            stem, dot, suffix = child.rpartition(".")
            if not dot or suffix not in ("dist-info", "egg-info"):
                continue
            if _normalized(stem.split("-", 1)[0]) != want:
                continue
            path = os.path.join(folder, child)
            if os.path.isdir(path):
                path = os.path.join(path, "METADATA" if suffix == "dist-info" else "PKG-INFO")
            version = _metadata_version(path)
            if version is not None:
                return version
    return None


def _metadata_version(path):
    try:
        with io.open(path, encoding="utf-8", errors="replace") as handle:
            for _ in range(200):
                line = handle.readline()
                if not line or not line.strip():
                    break
                if line.startswith("Version:"):
                    return str(line.split(":", 1)[1].strip())
    except (IOError, OSError):
        return None
    return None


# --- CPU tier --------------------------------------------------------------------------------
def check_import(ctx, name):
    if name != "torch" and name not in ctx.companions:
        skip(NOT_IN_VARIANT)
    if name != "torch" and "torch" not in ctx.modules:
        skip("torch did not import (see cpu/import:torch)")
    module = importlib.import_module(name)
    ctx.modules[name] = module
    return "{} {} from {}".format(
        name,
        getattr(module, "__version__", "?"),
        os.path.dirname(getattr(module, "__file__", "?")),
    )


def check_distribution(ctx, name):
    expected = str(ctx.distributions[name])
    found = _distribution_version(name)
    if found is None:
        fail("{} is not installed (the lock says {})".format(name, expected))
    if found != expected:
        fail("{} {} is installed but the lock says {}".format(name, found, expected))
    return "{} {}".format(name, found)


def check_build(ctx):
    torch = ctx.torch
    version = getattr(torch, "version", None)
    cuda = getattr(version, "cuda", None)
    hip = getattr(version, "hip", None)
    variant = ctx.accelerator
    if ctx.kind == "cuda":
        if cuda is None:
            fail(
                "torch is a CPU-only build (torch.version.cuda is None) but the variant is "
                "{}: a +cpu wheel slipped in".format(variant)
            )
        if ctx.version and not _version_prefix_equal(str(cuda), ctx.version):
            fail(
                "torch is built for CUDA {} (torch.version.cuda) but the variant is {}".format(
                    cuda, variant
                )
            )
        return "CUDA {} build".format(cuda)
    if ctx.kind == "rocm":
        fail("torch {} has no ROCm build for this python".format(torch.__version__))
    if cuda is not None or hip is not None:
        what = "CUDA {}".format(cuda) if cuda is not None else "ROCm {}".format(hip)
        fail(
            "torch is a {} build but the variant is {}: a GPU wheel was installed".format(
                what, variant
            )
        )
    return "CPU-only build (torch.version.cuda is None)"


def _arch_list(torch):
    cuda = getattr(torch, "cuda", None)
    found = []
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


def check_arch_list(ctx):
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
    if ctx.archs:
        if sorted(found) != sorted(ctx.archs):
            fail(
                "torch.cuda.get_arch_list() is {} but the matrix (gpu-archs.yaml) says {}".format(
                    text, " ".join(ctx.archs)
                )
            )
        return text + " (as the matrix says)"
    return text


def _loaded_libraries():
    found = []
    with io.open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        for line in maps:
            parts = line.split(None, 5)
            if len(parts) == 6 and parts[5].strip().startswith("/"):
                path = parts[5].strip()
                if path not in found:
                    found.append(path)
    return found


def _soname_version(path):
    found = re.search(r"\.so\.([0-9]+)(?:\.([0-9]+))?", os.path.basename(path))
    if found is None:
        return None
    major = int(found.group(1))
    if major >= 11 or found.group(2) is None:
        return str(major)
    return "{}.{}".format(major, found.group(2))


def _runtime_version(path):
    try:
        lib = ctypes.CDLL(path)
        value = ctypes.c_int(0)
        if lib.cudaRuntimeGetVersion(ctypes.byref(value)) != 0:
            return None
    except (OSError, AttributeError):
        return None
    return "{}.{}".format(value.value // 1000, value.value % 1000 // 10)


def _runtime_matches(runtime, want):
    if "." not in runtime:
        return runtime == want.split(".", 1)[0]
    return _version_prefix_equal(runtime, want)


def check_cuda_libraries(ctx):
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
    basenames = [os.path.basename(p) for p in loaded]
    names = sorted(set(n for n in basenames if CUDA_LIBRARY.match(n)))
    if not any(TORCH_CUDA_LIBRARY.match(n) for n in basenames):
        fail(
            "torch reports CUDA {} (torch.version.cuda) but its CUDA library "
            "(libc10_cuda.so) is not loaded after `import torch`".format(cuda)
        )
    want = ctx.version if ctx.kind == "cuda" and ctx.version else str(cuda)
    runtimes = {}
    named = []
    for path in [p for p in loaded if os.path.basename(p).startswith("libcudart")]:
        runtime = _runtime_version(path)
        if runtime is None:
            runtime = _soname_version(path)
            if runtime is None:
                fail("{} is loaded but cudaRuntimeGetVersion() failed".format(path))
            named.append(os.path.basename(path))
        if not _runtime_matches(runtime, want):
            fail(
                "the loaded CUDA runtime {} is {} but the variant is {} (torch.version.cuda "
                "{})".format(path, runtime, ctx.accelerator, cuda)
            )
        runtimes.setdefault(runtime, []).append(os.path.basename(path))
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
    cudnn = getattr(getattr(torch, "backends", None), "cudnn", None)
    if cudnn is not None and hasattr(cudnn, "version"):
        try:
            found = cudnn.version()
        except Exception as exc:
            fail("torch.backends.cudnn.version() raised {}".format(_describe(exc)))
        if found:
            detail.append("cuDNN {}".format(found))
    others = [n for n in names if not n.startswith("libcudart")]
    if others:
        detail.append("loaded: " + " ".join(others))
    return "; ".join(detail)


def check_tensor_math(ctx):
    torch = ctx.torch
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    b = torch.tensor([[5.0, 6.0], [7.0, 8.0]])
    got = torch.matmul(a, b).tolist()
    if got != [[19.0, 22.0], [43.0, 50.0]]:
        fail("matmul of fixed 2x2 matrices gave {}, expected [[19, 22], [43, 50]]".format(got))
    total = float(torch.arange(1, 101).sum())
    if total != 5050.0:
        fail("sum(1..100) gave {}, expected 5050".format(total))
    return "matmul and sum give the known answers"


def check_autograd(ctx):
    torch = ctx.torch
    x = torch.tensor(2.0, requires_grad=True)
    y = x**3
    y.backward()
    grad = float(x.grad)
    if grad != 12.0:
        fail("d/dx x^3 at x=2 gave {}, expected 12".format(grad))
    return "d/dx x^3 at x=2 == 12"


def check_convnet(ctx):
    torch = ctx.torch
    nn = torch.nn
    torch.manual_seed(0)
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
        fail("tiny conv net output shape {}, expected (1, 10)".format(tuple(out.shape)))
    if not bool(torch.isfinite(out).all()):
        fail("tiny conv net output has NaN or inf")
    return "tiny conv net on 1x3x64x64 -> (1, 10)"


def check_nms(ctx):
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
    kept = tv.ops.nms(boxes, scores, 0.5).tolist()
    if kept != [0, 2]:
        fail("torchvision.ops.nms kept {}, expected [0, 2]".format(kept))
    return "ops.nms kept [0, 2]"


def check_resnet(ctx):
    torch = ctx.torch
    tv = ctx.module("torchvision")
    model = tv.models.resnet18(pretrained=False)  # torchvision < 0.13 has no `weights`
    model.eval()
    # torchvision < 0.3 pools with a fixed AvgPool2d(7): it needs the 224x224 input.
    side = 64 if isinstance(getattr(model, "avgpool", None), torch.nn.AdaptiveAvgPool2d) else 224
    with torch.no_grad():
        out = model(torch.zeros(1, 3, side, side))
    if tuple(out.shape) != (1, 1000):
        fail("resnet18 output shape {}, expected (1, 1000)".format(tuple(out.shape)))
    return "resnet18(weights=None) on 1x3x{}x{} -> (1, 1000)".format(side, side)


def check_image_decode(ctx):
    torch = ctx.torch
    tv = ctx.module("torchvision")
    found = getattr(tv, "io", None)
    if not hasattr(found, "encode_png") or not hasattr(found, "decode_image"):
        skip(
            "torchvision {} has no io.encode_png/io.decode_image".format(
                getattr(tv, "__version__", "?")
            )
        )
    image = (torch.arange(3 * 8 * 8) % 256).to(torch.uint8).reshape(3, 8, 8)
    decoded = found.decode_image(found.encode_png(image))
    if tuple(decoded.shape) != (3, 8, 8) or not bool(torch.equal(decoded, image)):
        fail("decode_image(encode_png(x)) does not give back the 3x8x8 image")
    return "encode_png -> decode_image round trip of a 3x8x8 image"


def _sine(torch, rate):
    t = torch.arange(0, rate // 10).float() / rate
    return (0.5 * torch.sin(2 * math.pi * 440.0 * t)).unsqueeze(0)


def check_audio_resample(ctx):
    torch = ctx.torch
    ta = ctx.module("torchaudio")
    if not hasattr(getattr(ta, "functional", None), "resample"):
        skip("torchaudio {} has no functional.resample".format(getattr(ta, "__version__", "?")))
    out = ta.functional.resample(_sine(torch, 16000), 16000, 8000)
    if tuple(out.shape) != (1, 800):
        fail("resampling 1600 samples 16 kHz -> 8 kHz gave shape {}".format(tuple(out.shape)))
    return "resample 16 kHz -> 8 kHz: (1, 1600) -> (1, 800)"


def check_audio_save_load(ctx):
    torch = ctx.torch
    ta = ctx.module("torchaudio")
    wave = _sine(torch, 16000)
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "sine.wav")
        ta.save(path, wave, 16000)
        loaded, rate = ta.load(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if rate != 16000 or tuple(loaded.shape) != (1, 1600):
        fail("loaded {} at {} Hz, expected (1, 1600) at 16000 Hz".format(tuple(loaded.shape), rate))
    if not bool(torch.allclose(loaded, wave, atol=1e-3)):
        fail("the loaded samples differ from the saved sine wave")
    return "save/load of a 0.1 s 440 Hz sine at 16 kHz"


# --- GPU tier --------------------------------------------------------------------------------
def _gpu_torch(ctx):
    torch = ctx.torch
    version = getattr(torch, "version", None)
    if getattr(version, "cuda", None) is None and getattr(version, "hip", None) is None:
        skip(CPU_BUILD_SKIP)
    if not torch.cuda.is_available():
        if ctx.require_gpu:
            fail(NO_DEVICE_SKIP)
        skip(NO_DEVICE_SKIP)
    return torch


def _device_indices(torch):
    return list(range(min(max(int(torch.cuda.device_count()), 1), 64)))


def check_gpu_available(ctx):
    torch = _gpu_torch(ctx)
    return "{} device(s)".format(torch.cuda.device_count())


def check_gpu_device(ctx):
    torch = _gpu_torch(ctx)
    parts = []
    for index in _device_indices(torch):
        major, minor = torch.cuda.get_device_capability(index)
        parts.append(
            "{} (compute capability {}.{}, sm_{}{})".format(
                torch.cuda.get_device_name(index), major, minor, major, minor
            )
        )
    if len(parts) == 1:
        return parts[0]
    return "; ".join("cuda:{} {}".format(i, p) for i, p in enumerate(parts))


def _parse_arch(name):
    prefix, _, rest = name.partition("_")
    digits = rest.rstrip("abcdefghijklmnopqrstuvwxyz")
    if prefix not in ("sm", "compute") or len(digits) < 2 or not digits.isdigit():
        return None
    return prefix, int(digits[:-1]), int(digits[-1]), rest[len(digits) :]


def _arch_support(capability, archs):
    """script.py's arch_support with PTX JIT allowed: ("exact"|"family"|"ptx", arch) or None."""
    major, minor = capability
    family, ptx = None, None
    for name in archs:
        parsed = _parse_arch(name)
        if parsed is None:
            continue
        kind, a_major, a_minor, suffix = parsed
        if kind == "sm" and (a_major, a_minor) == (major, minor):
            return "exact", name
        if kind == "sm" and suffix != "a" and a_major == major and a_minor < minor:
            if family is None or a_minor > family[0]:
                family = (a_minor, name)
        if kind == "compute" and not suffix and (a_major, a_minor) <= (major, minor):
            if ptx is None or (a_major, a_minor) > ptx[0]:
                ptx = ((a_major, a_minor), name)
    if family is not None:
        return "family", family[1]
    if ptx is not None:
        return "ptx", ptx[1]
    return None


def check_gpu_arch(ctx):
    torch = _gpu_torch(ctx)
    archs = _arch_list(torch)
    source = ""
    if not archs and ctx.archs:
        archs, source = list(ctx.archs), " (the matrix's list: torch reports none)"
    if not archs:
        skip("torch.cuda.get_arch_list() is empty or missing and the matrix has no list")
    passed, failed = [], []
    for index in _device_indices(torch):
        major, minor = torch.cuda.get_device_capability(index)
        arch = "sm_{}{}".format(major, minor)
        found = _arch_support((int(major), int(minor)), archs)
        if found is None:
            failed.append(
                "the GPU is {} but torch was compiled for {}: expect 'no kernel image is "
                "available for execution on the device'".format(arch, " ".join(archs))
            )
        elif found[0] == "exact":
            passed.append("{} is in the compiled list".format(arch))
        elif found[0] == "family":
            passed.append("{} runs the {} kernels (same major)".format(arch, found[1]))
        else:
            passed.append("{} can JIT the {} PTX".format(arch, found[1]))
    if failed:
        fail("; ".join(failed) + source)
    return "; ".join(passed) + source


def check_gpu_matmul(ctx):
    torch = _gpu_torch(ctx)
    gen = torch.Generator().manual_seed(0)
    a = torch.randn(64, 64, generator=gen)
    b = torch.randn(64, 64, generator=gen)
    want = torch.matmul(a, b)
    got = torch.matmul(a.cuda(), b.cuda()).cpu()
    if not bool(torch.allclose(got, want, rtol=1e-2, atol=5e-2)):
        fail(
            "GPU matmul differs from CPU matmul (max abs diff {:.3g})".format(
                float((got - want).abs().max())
            )
        )
    return "64x64 matmul on GPU matches CPU"


def check_gpu_cudnn(ctx):
    torch = _gpu_torch(ctx)
    cudnn = torch.backends.cudnn
    if not cudnn.is_available():
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
    return "cuDNN {} enabled; conv2d matches CPU".format(cudnn.version())


def check_gpu_autocast(ctx):
    torch = _gpu_torch(ctx)
    skip(
        "torch {} has no autocast (torch.cuda.amp arrived in 1.6)".format(
            getattr(torch, "__version__", "?")
        )
    )


def check_gpu_pinned_copy(ctx):
    torch = _gpu_torch(ctx)
    host = torch.arange(1024, dtype=torch.float32).pin_memory()
    dev = host.to("cuda", non_blocking=True)
    torch.cuda.synchronize()
    if not bool(torch.equal(dev.cpu(), host)):
        fail("a non_blocking copy from pinned memory changed the data")
    return "pinned host -> device copy (non_blocking) round trip"


def check_gpu_memory(ctx):
    torch = _gpu_torch(ctx)
    if not hasattr(torch.cuda, "mem_get_info"):
        skip("torch.cuda.mem_get_info is not available in this torch")
    free, total = torch.cuda.mem_get_info()
    gib = 1024.0**3
    return "{:.1f} GiB free of {:.1f} GiB".format(free / gib, total / gib)


def plan(ctx):
    """Every check in report order: (tier, name, function of the context), as script.py."""
    checks = [
        ("cpu", "import:" + name, functools.partial(check_import, name=name))
        for name in ("torch", "torchvision", "torchaudio")
    ]
    checks += [
        ("cpu", "version:" + name, functools.partial(check_distribution, name=name))
        for name in sorted(ctx.distributions)
    ]
    checks += [
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
    return checks


def run_check(ctx, tier, name, check):
    sys.stderr.write("envgen-smoke: running {}/{}\n".format(tier, name))
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


def main(argv=None):
    parser = argparse.ArgumentParser(description="envgen smoke checks (Python 2.7 / 3.5)")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--expect", help="the expectation as a JSON object")
    group.add_argument("--expect-file", help="a file holding the expectation as JSON")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    text = args.expect
    if args.expect_file:
        with io.open(args.expect_file, encoding="utf-8") as handle:
            text = handle.read()
    expect = json.loads(text)
    if not isinstance(expect, dict):
        parser.error("the expectation must be a JSON object")
    sys.stdout.flush()
    saved_fd = os.dup(1)
    os.dup2(2, 1)
    saved_stdout = sys.stdout
    sys.stdout = sys.stderr
    try:
        ctx = Context(expect)
        results = [run_check(ctx, tier, name, check) for tier, name, check in plan(ctx)]
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
