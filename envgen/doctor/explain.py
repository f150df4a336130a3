"""What a classic torch error message means: `explain_error` maps a pasted message or log to
diagnoses with a cause and a fix; `read_log` reads the end of a log file, bounded. Pure apart from
that one read; must not import torch.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final, NamedTuple

from envgen.doctor.host import HostInfo
from envgen.errors import FileSystemError


# --- error messages --------------------------------------------------------------------------
class Diagnosis(NamedTuple):
    """What an error message means: a title, the cause and the fix."""

    title: str
    cause: str
    fix: str


# Every pattern below is linear in the text: each starts with a literal, every repetition is
# bounded, and no two adjacent repetitions can match the same characters (no nested or
# overlapping quantifiers). A pasted log is untrusted input; tests/unit/doctor/test_doctor_gpu.py
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
