"""Tiny, byte-stable wheels that install and import like the real torch family.

Every wheel is a plain zip written with fixed timestamps and permissions, files in sorted order and
the `.dist-info` files last, so the same arguments always give the same bytes (and sha256).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

ZIP_EPOCH: Final = (2020, 1, 1, 0, 0, 0)
"""The timestamp written into every zip entry."""

_NORMALIZE: Final = re.compile(r"[-_.]+")


def normalize_name(name: str) -> str:
    """PEP 503 normalized project name.

    >>> normalize_name("Typing_Extensions")
    'typing-extensions'
    """
    return _NORMALIZE.sub("-", name).lower()


def wheel_name_part(name: str) -> str:
    """The distribution part of a wheel file name (binary distribution format escaping)."""
    return _NORMALIZE.sub("_", name).lower()


def wheel_filename(
    name: str, version: str, *, python_tag: str = "py3", abi: str = "none", plat: str = "any"
) -> str:
    """`torch-2.1.0+cu118-cp311-cp311-manylinux_2_28_x86_64.whl` and the like."""
    return f"{wheel_name_part(name)}-{version}-{python_tag}-{abi}-{plat}.whl"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    return sha256_bytes(path.read_bytes())


def metadata_text(
    name: str,
    version: str,
    *,
    requires_dist: Iterable[str] = (),
    requires_python: str | None = None,
    summary: str | None = None,
) -> str:
    """The METADATA (core metadata 2.1) of a wheel; also served as its PEP 658 `.metadata` file."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {summary or f'Fake {name} for envgen tests'}",
        "License: BSD-3-Clause",
    ]
    if requires_python:
        lines.append(f"Requires-Python: {requires_python}")
    lines.extend(f"Requires-Dist: {req}" for req in requires_dist)
    return "\n".join(lines) + "\n\n"


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode('ascii')}"


def _zip_info(arcname: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(arcname, date_time=ZIP_EPOCH)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o100644 & 0xFFFF) << 16
    info.create_system = 3  # Unix, whatever the host
    return info


def wheel_bytes(
    name: str,
    version: str,
    *,
    requires_dist: Iterable[str] = (),
    requires_python: str | None = None,
    python_tag: str = "py3",
    abi: str = "none",
    plat: str = "any",
    files: Mapping[str, str | bytes] | None = None,
) -> bytes:
    """The bytes of a wheel; see `make_wheel`."""
    dist_info = f"{wheel_name_part(name)}-{version}.dist-info"
    if files is None:
        files = {f"{wheel_name_part(name)}/__init__.py": f'__version__ = "{version}"\n'}
    payload = {
        path: data.encode() if isinstance(data, str) else data for path, data in files.items()
    }
    tags = [
        f"{py}-{ab}-{pl}"
        for py in python_tag.split(".")
        for ab in abi.split(".")
        for pl in plat.split(".")
    ]
    wheel_meta = "Wheel-Version: 1.0\nGenerator: envgen-tests\nRoot-Is-Purelib: {}\n{}\n".format(
        "true" if abi == "none" and plat == "any" else "false",
        "\n".join(f"Tag: {tag}" for tag in tags),
    )
    payload[f"{dist_info}/METADATA"] = metadata_text(
        name, version, requires_dist=requires_dist, requires_python=requires_python
    ).encode()
    payload[f"{dist_info}/WHEEL"] = wheel_meta.encode()
    record_path = f"{dist_info}/RECORD"
    ordered = sorted(p for p in payload if not p.startswith(f"{dist_info}/")) + sorted(
        p for p in payload if p.startswith(f"{dist_info}/")
    )
    record_lines = [f"{p},{_record_hash(payload[p])},{len(payload[p])}" for p in ordered]
    record_lines.append(f"{record_path},,")
    payload[record_path] = ("\n".join(record_lines) + "\n").encode()
    ordered.append(record_path)

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for path in ordered:
            zf.writestr(_zip_info(path), payload[path], compresslevel=6)
    return buffer.getvalue()


def make_wheel(
    directory: Path,
    name: str,
    version: str,
    *,
    requires_dist: Iterable[str] = (),
    requires_python: str | None = None,
    python_tag: str = "py3",
    abi: str = "none",
    plat: str = "any",
    files: Mapping[str, str | bytes] | None = None,
) -> Path:
    """Write a valid wheel into `directory` and return its path.

    `files` maps archive paths to contents; by default a `<name>/__init__.py` that sets
    `__version__`. Compressed tag sets are allowed (`plat="manylinux_2_28_x86_64.linux_x86_64"`).
    The bytes depend only on the arguments.
    """
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / wheel_filename(name, version, python_tag=python_tag, abi=abi, plat=plat)
    path.write_bytes(
        wheel_bytes(
            name,
            version,
            requires_dist=requires_dist,
            requires_python=requires_python,
            python_tag=python_tag,
            abi=abi,
            plat=plat,
            files=files,
        )
    )
    return path


def read_wheel_metadata(path: Path) -> str:
    """The METADATA text inside a wheel."""
    with zipfile.ZipFile(path) as zf:
        (member,) = (n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        return zf.read(member).decode()


# --- the torch family -------------------------------------------------------------------------


def _release(version: str) -> tuple[int, int]:
    """'2.13.0+cu130' -> (2, 13); (0, 0) when the version does not start with two numbers."""
    parts = version.split("+", 1)[0].split(".")
    try:
        return int(parts[0]), int(parts[1])
    except (IndexError, ValueError):
        return 0, 0


def torch_files(version: str, *, cuda: str | None = None, hip: str | None = None) -> dict[str, str]:
    """Modules that mimic the parts of torch a smoke test touches, as the real wheel of
    `version` behaves on a machine without a GPU.

    `torch.__version__`, `torch.version.cuda` / `.hip`, `torch.cuda.is_available()` (always
    False: there is no GPU behind a fake), `torch.cuda.get_arch_list()`, `torch.tensor(...)`,
    and for GPU builds `torch._C._cuda_getArchFlags()` (the compile-time list, device or not).
    get_arch_list() is absent before 1.6 and returns [] without a device in 1.6-2.10 (it asks
    is_available() first); from 2.11 it asks only whether CUDA is compiled in. Checked against
    real wheels: tests/integration/test_gpu_sim.py (2.13.0) and the era suite (1.0.1-1.13.1).
    """
    gpu = bool(cuda or hip)
    # ROCm fakes report no list (None), as before; the real ROCm wheels name gfx targets.
    flags = "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90" if cuda else None
    release = _release(version)
    c_module = (
        "def _cuda_getDeviceCount():\n    return 0\n\n\n"
        f"def _cuda_getArchFlags():\n    return {flags!r}\n"
        if gpu
        else "# a CPU build: no CUDA entry points\n"
    )
    cuda_module = (
        "import torch._C\n\n\n"
        "def is_available():\n"
        "    return False\n\n\n"
        "def device_count():\n"
        "    return 0\n"
    )
    if release >= (2, 11):
        cuda_module += (
            "\n\ndef get_arch_list():\n"
            "    if not hasattr(torch._C, '_cuda_getDeviceCount'):\n"
            "        return []\n"
            "    flags = torch._C._cuda_getArchFlags()\n"
            "    return [] if flags is None else flags.split()\n"
        )
    elif release >= (1, 6):
        cuda_module += (
            "\n\ndef get_arch_list():\n"
            "    if not is_available():\n"
            "        return []\n"
            "    flags = torch._C._cuda_getArchFlags()\n"
            "    return [] if flags is None else flags.split()\n"
        )
    return {
        "torch/__init__.py": (
            '"""Fake torch for envgen tests."""\n'
            "from torch import _C, cuda, version\n"
            "from torch.version import __version__\n\n"
            '__all__ = ["__version__", "cuda", "tensor", "version"]\n\n\n'
            "class Tensor(list):\n"
            "    def sum(self):\n"
            "        return sum(self)\n\n\n"
            "def tensor(data):\n"
            "    return Tensor(data)\n"
        ),
        "torch/_C.py": c_module,
        "torch/version.py": (
            f"__version__ = {version!r}\n"
            f"cuda = {cuda!r}\n"
            f"hip = {hip!r}\n"
            f"git_version = {'0' * 40!r}\n"
        ),
        "torch/cuda/__init__.py": cuda_module,
    }


def torchvision_files(version: str, *, mismatched: bool = False) -> dict[str, str]:
    """`torchvision.ops.nms`, or without it when `mismatched` (like a build for another torch)."""
    ops = (
        "def nms(boxes, scores, iou_threshold):\n"
        "    return sorted(range(len(scores)), key=lambda i: -scores[i])\n"
    )
    if mismatched:
        ops = (
            "def __getattr__(name):\n"
            "    raise RuntimeError(\n"
            '        f"operator torchvision::{name} does not exist"\n'
            "    )\n"
        )
    return {
        "torchvision/__init__.py": (
            f"__version__ = {version!r}\n"
            "import torch  # noqa: F401  (real torchvision imports torch first)\n"
            "from torchvision import ops\n"
        ),
        "torchvision/ops/__init__.py": ops,
    }


def torchaudio_files(version: str) -> dict[str, str]:
    return {
        "torchaudio/__init__.py": (
            f"__version__ = {version!r}\nimport torch  # noqa: F401\n\n"
            "def list_audio_backends():\n    return []\n"
        ),
    }
