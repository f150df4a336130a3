"""A loopback copy of download.pytorch.org/whl/{cpu,cu126,cu130} and PyPI, sized like the real ones.

What makes resolving slow is metadata, not payload: project pages listing hundreds of files
(every release x CPython tag x platform), ~38 KB torch METADATA files (the real 2.13.0 one is
37,906 bytes), CUDA builds that pull in fifteen `nvidia-*` runtime wheels and triton, and
PyTorch indexes that re-host stale copies of numpy, sympy, jinja2 ... (so a resolver that asks
every index for every project does real work). The wheels themselves are tiny but valid; every
wheel has a PEP 658 `.metadata` file identical to its METADATA, and every page exists as PEP 503
HTML and PEP 691 JSON (with PEP 700 upload times).

Layout under `root` (serve it with `tests.support.server.IndexServer`)::

    whl/<variant>/<project>/index.{html,json}   whl/<variant>/<file>.whl(.metadata)
    pypi/simple/<project>/index.{html,json}     pypi/files/<file>.whl(.metadata)

This module only writes files under `root`; it must not start servers or processes.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import os
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import quote

from tests.support.wheels import normalize_name, wheel_filename, wheel_name_part

PYPI: Final = "pypi"
TORCH_INDEXES: Final = ("cpu", "cu126", "cu130")
_ZIP_EPOCH: Final = (2020, 1, 1, 0, 0, 0)
_LINUX: Final = 'platform_system == "Linux"'
_LINUX_X86: Final = 'platform_system == "Linux" and platform_machine == "x86_64"'

# torch 2.13.0's runtime pins per CUDA index, shaped like torch 2.9's published Requires-Dist.
CUDA_RUNTIME: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "cu126": (
        ("nvidia-cuda-nvrtc-cu12", "12.6.77"),
        ("nvidia-cuda-runtime-cu12", "12.6.77"),
        ("nvidia-cuda-cupti-cu12", "12.6.80"),
        ("nvidia-cudnn-cu12", "9.10.2.21"),
        ("nvidia-cublas-cu12", "12.6.4.1"),
        ("nvidia-cufft-cu12", "11.3.0.4"),
        ("nvidia-curand-cu12", "10.3.7.77"),
        ("nvidia-cusolver-cu12", "11.7.1.2"),
        ("nvidia-cusparse-cu12", "12.5.4.2"),
        ("nvidia-cusparselt-cu12", "0.7.1"),
        ("nvidia-nccl-cu12", "2.27.5"),
        ("nvidia-nvshmem-cu12", "3.3.20"),
        ("nvidia-nvtx-cu12", "12.6.77"),
        ("nvidia-nvjitlink-cu12", "12.6.85"),
        ("nvidia-cufile-cu12", "1.11.1.6"),
    ),
    "cu130": (
        ("nvidia-cuda-nvrtc-cu13", "13.0.48"),
        ("nvidia-cuda-runtime-cu13", "13.0.48"),
        ("nvidia-cuda-cupti-cu13", "13.0.48"),
        ("nvidia-cudnn-cu13", "9.13.0.50"),
        ("nvidia-cublas-cu13", "13.0.0.19"),
        ("nvidia-cufft-cu13", "12.0.0.15"),
        ("nvidia-curand-cu13", "10.4.0.35"),
        ("nvidia-cusolver-cu13", "12.0.3.29"),
        ("nvidia-cusparse-cu13", "12.6.2.49"),
        ("nvidia-cusparselt-cu13", "0.8.0"),
        ("nvidia-nccl-cu13", "2.27.7"),
        ("nvidia-nvshmem-cu13", "3.3.24"),
        ("nvidia-nvtx-cu13", "13.0.39"),
        ("nvidia-nvjitlink-cu13", "13.0.39"),
        ("nvidia-cufile-cu13", "1.15.0.42"),
    ),
}
TRITON: Final = ("3.4.0", "3.5.0", "3.6.0")
# What the runtime wheels need among themselves (cudnn -> cublas, cusolver -> cublas, ...).
_NVIDIA_DEPS: Final[dict[str, tuple[str, ...]]] = {
    "cudnn": ("cublas",),
    "cusolver": ("cublas", "cusparse", "nvjitlink"),
    "cusparse": ("nvjitlink",),
    "cufft": ("nvjitlink",),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexSize:
    """How big to make the indexes."""

    torch_versions: dict[str, tuple[str, ...]]  # index -> torch releases it hosts
    pythons: tuple[str, ...]
    platforms: tuple[str, ...]
    numpy_versions: tuple[str, ...]
    other_versions: int  # releases per pure-Python dependency
    description_bytes: int  # long description in torch's METADATA (real: ~30 KB)


_ALL_TORCH: Final = (
    "2.0.0", "2.0.1", "2.1.0", "2.1.1", "2.1.2", "2.2.0", "2.2.1", "2.2.2", "2.3.0", "2.3.1",
    "2.4.0", "2.4.1", "2.5.0", "2.5.1", "2.6.0", "2.7.0", "2.7.1", "2.8.0", "2.9.0", "2.9.1",
    "2.10.0", "2.11.0", "2.12.0", "2.13.0",
)  # fmt: skip
_ALL_NUMPY: Final = (
    "1.26.0", "1.26.1", "1.26.2", "1.26.3", "1.26.4", "2.0.0", "2.0.1", "2.0.2", "2.1.0",
    "2.1.1", "2.1.2", "2.1.3", "2.2.0", "2.2.1", "2.2.2", "2.2.3", "2.2.4", "2.2.5", "2.2.6",
    "2.3.0", "2.3.1", "2.3.2", "2.3.3", "2.3.4", "2.3.5",
)  # fmt: skip

FULL: Final = IndexSize(
    torch_versions={
        "cpu": _ALL_TORCH,
        "cu126": _ALL_TORCH[_ALL_TORCH.index("2.6.0") :],
        "cu130": _ALL_TORCH[_ALL_TORCH.index("2.9.0") :],
        PYPI: _ALL_TORCH,
    },
    pythons=("cp310", "cp311", "cp312", "cp313", "cp313t", "cp314", "cp314t"),
    platforms=("manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64", "macosx_11_0_arm64"),
    numpy_versions=_ALL_NUMPY,
    other_versions=8,
    description_bytes=30_000,
)
QUICK: Final = IndexSize(
    torch_versions=dict.fromkeys((*TORCH_INDEXES, PYPI), ("2.12.0", "2.13.0")),
    pythons=("cp311", "cp312"),  # the 6-variant lock has two pythons
    platforms=("manylinux_2_28_x86_64",),
    numpy_versions=("2.2.6", "2.3.5"),
    other_versions=1,
    description_bytes=2_000,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Release:
    """One release of one project: its files (by tag) and the indexes that host it."""

    name: str
    version: str
    tags: tuple[tuple[str, str, str], ...]  # (python, abi, platform)
    indexes: tuple[str, ...]
    requires_dist: tuple[str, ...] = ()
    requires_python: str | None = None
    extra_headers: tuple[str, ...] = ()
    description: str = ""


@dataclass(slots=True)
class FakeIndex:
    """What `build_index` wrote: the root and how many files and bytes of metadata it serves."""

    root: Path
    files: int = 0
    metadata_bytes: int = 0
    projects: dict[str, int] = field(default_factory=dict)  # "index/project" -> files

    @property
    def stats(self) -> dict[str, int]:
        torch_files = {k: v for k, v in self.projects.items() if k.endswith("/torch")}
        return {"files": self.files, "metadata_bytes": self.metadata_bytes, **torch_files}


def _torch_headers() -> tuple[str, ...]:
    classifiers = (
        "Development Status :: 5 - Production/Stable",
        "Intended Audience :: Developers",
        "Intended Audience :: Education",
        "Intended Audience :: Science/Research",
        "Topic :: Scientific/Engineering",
        "Topic :: Scientific/Engineering :: Mathematics",
        "Topic :: Scientific/Engineering :: Artificial Intelligence",
        "Topic :: Software Development",
        "Topic :: Software Development :: Libraries",
        "Programming Language :: C++",
        "Programming Language :: Python :: 3 :: Only",
        *(f"Programming Language :: Python :: 3.{m}" for m in range(10, 16)),
    )
    licenses = ("FP16", "FXdiv", "NNPACK", "XNNPACK", "benchmark", "cpuinfo", "fmt", "kineto")
    return (
        "Author-email: PyTorch Team <packages@pytorch.org>",
        "License-Expression: Apache-2.0 AND BSD-2-Clause AND BSD-3-Clause AND BSL-1.0 AND MIT",
        "Project-URL: Homepage, https://pytorch.org",
        "Project-URL: Repository, https://github.com/pytorch/pytorch",
        "Keywords: pytorch,machine learning",
        *(f"Classifier: {c}" for c in classifiers),
        "Description-Content-Type: text/markdown",
        "License-File: LICENSE",
        *(f"License-File: third_party/{name}/LICENSE" for name in licenses),
    )


def _description(size: int) -> str:
    paragraph = (
        "PyTorch is a Python package that provides two high-level features: tensor computation "
        "(like NumPy) with strong GPU acceleration, and deep neural networks built on a "
        "tape-based autograd system. You can reuse your favorite Python packages such as NumPy, "
        "SciPy, and Cython to extend PyTorch when needed.\n\n"
    )
    return (paragraph * (size // len(paragraph) + 1))[:size]


def _torch_requires(index: str) -> tuple[str, ...]:
    base = (
        "filelock",
        "typing-extensions>=4.10.0",
        "setuptools>=70.0; python_version >= '3.12'",
        "sympy>=1.13.3",
        "networkx>=2.5.1",
        "jinja2",
        "fsspec>=0.8.5",
        'optree>=0.13.0; extra == "optree"',
        'opt-einsum>=3.3; extra == "opt-einsum"',
        'pyyaml; extra == "pyyaml"',
    )
    cuda = CUDA_RUNTIME.get("cu126" if index == PYPI else index, ())
    return (
        *base,
        *(f"{name}=={version}; {_LINUX}" for name, version in cuda),
        *((f"triton=={TRITON[-1]}; {_LINUX_X86}",) if cuda else ()),
    )


def _pure(
    name: str, versions: Iterable[str], indexes: tuple[str, ...], **kw: object
) -> list[Release]:
    tag = (("py3", "none", "any"),)
    return [Release(name=name, version=v, tags=tag, indexes=indexes, **kw) for v in versions]  # type: ignore[arg-type]


def catalog(size: IndexSize) -> list[Release]:
    """Every release of the fake indexes (see the module docstring)."""
    n = size.other_versions
    all_hosts = (*TORCH_INDEXES, PYPI)
    binary = tuple((py, py, plat) for py in size.pythons for plat in size.platforms)
    releases: list[Release] = []
    headers = _torch_headers()
    description = _description(size.description_bytes)
    for index, versions in size.torch_versions.items():
        for version in versions:
            label = "" if index == PYPI else f"+{index}"
            plats = size.platforms if index == PYPI else size.platforms[:3]
            releases.append(
                Release(
                    name="torch",
                    version=f"{version}{label}",
                    tags=tuple((py, py, plat) for py in size.pythons for plat in plats),
                    indexes=(index,),
                    requires_dist=_torch_requires(index),
                    requires_python=">=3.10",
                    extra_headers=headers,
                    description=description,
                )
            )
    # CUDA runtime wheels and triton: on their CUDA index and on PyPI, a few releases each.
    for index, pins in CUDA_RUNTIME.items():
        for name, version in pins:
            short = name.removeprefix("nvidia-").rsplit("-", 1)[0]
            suffix = name.rsplit("-", 1)[1]
            deps = tuple(f"nvidia-{d}-{suffix}" for d in _NVIDIA_DEPS.get(short, ()))
            older = [f"{version}.{k}" for k in range(1, min(n, 3))]
            releases.extend(
                Release(
                    name=name,
                    version=v,
                    tags=tuple(("py3", "none", p) for p in size.platforms[:3] if "mac" not in p),
                    indexes=(index, PYPI),
                    requires_dist=deps,
                    requires_python=">=3",
                )
                for v in (version, *older)
            )
    releases.extend(
        Release(
            name="triton",
            version=version,
            tags=tuple((py, py, p) for py in size.pythons for p in size.platforms[:2]),
            indexes=("cu126", "cu130", PYPI),
            requires_python=">=3.10,<3.15",
        )
        for version in (TRITON if n > 1 else TRITON[-1:])
    )
    for i, version in enumerate(size.numpy_versions):
        # The PyTorch indexes re-host a few old numpy releases, as the real ones do.
        hosts = all_hosts if i < len(size.numpy_versions) // 3 or i == 0 else (PYPI,)
        releases.append(
            Release(
                name="numpy",
                version=version,
                tags=binary,
                indexes=hosts,
                requires_python=">=3.9" if version.startswith("1.") else ">=3.10",
                description=_description(size.description_bytes // 2),
            )
        )
    pure_deps: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
        # newest first; the PyTorch indexes re-host the oldest (a stale copy)
        ("filelock", tuple(f"3.{20 - k}.0" for k in range(n)), ()),
        ("typing-extensions", tuple(f"4.{15 - k}.0" for k in range(n)), ()),
        ("setuptools", tuple(f"{80 - k}.0.0" for k in range(n)), ()),
        ("mpmath", ("1.3.0",), ()),
        ("sympy", tuple(f"1.14.{n - 1 - k}" for k in range(n)), ("mpmath>=1.1.0,<1.4",)),
        ("networkx", tuple(f"3.{5 - k % 4}.{k // 4}" for k in range(n)), ()),
        ("markupsafe", tuple(f"3.0.{n - 1 - k}" for k in range(n)), ()),
        ("jinja2", tuple(f"3.1.{9 - k}" for k in range(n)), ("MarkupSafe>=2.0",)),
        ("fsspec", tuple(f"2025.{12 - k}.0" for k in range(n)), ()),
    )  # fmt: skip
    for name, versions, requires in pure_deps:
        hosts = all_hosts  # the PyTorch indexes re-host these too (older copies)
        for i, version in enumerate(versions):
            releases += _pure(
                name,
                [version],
                hosts if i == len(versions) - 1 else (PYPI,),
                requires_dist=requires,
                requires_python=">=3.9",
            )
    return releases


# --- writing ----------------------------------------------------------------------------------


def metadata_bytes(release: Release) -> bytes:
    lines = [
        "Metadata-Version: 2.4",
        f"Name: {release.name}",
        f"Version: {release.version}",
        f"Summary: {release.name} (envgen benchmark stand-in)",
        *release.extra_headers,
    ]
    if release.requires_python:
        lines.append(f"Requires-Python: {release.requires_python}")
    lines += [f"Requires-Dist: {r}" for r in release.requires_dist]
    return ("\n".join(lines) + "\n\n" + release.description).encode()


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"sha256={digest.decode('ascii')}"


def wheel_bytes(release: Release, tag: tuple[str, str, str], metadata: bytes) -> bytes:
    """A valid wheel: one module, METADATA (== the .metadata file), WHEEL and RECORD."""
    dist_info = f"{wheel_name_part(release.name)}-{release.version}.dist-info"
    pure = tag[2] == "any"
    payload: dict[str, bytes] = {
        f"{wheel_name_part(release.name)}/__init__.py": f"v = {release.version!r}\n".encode(),
        f"{dist_info}/METADATA": metadata,
        f"{dist_info}/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: envgen-bench\n"
            f"Root-Is-Purelib: {'true' if pure else 'false'}\nTag: {'-'.join(tag)}\n"
        ).encode(),
    }
    record = "".join(f"{p},{_record_hash(d)},{len(d)}\n" for p, d in payload.items())
    payload[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for path, data in payload.items():
            info = zipfile.ZipInfo(path, date_time=_ZIP_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16
            zf.writestr(info, data, compresslevel=1)
    return buffer.getvalue()


@dataclass(frozen=True, slots=True, kw_only=True)
class _Published:
    filename: str
    sha256: str
    metadata_sha256: str
    size: int
    requires_python: str | None


def _link(source: Path, target: Path) -> None:
    target.unlink(missing_ok=True)
    os.link(source, target)


def _page(title: str, anchors: Iterable[str]) -> str:
    body = "\n".join(f"    {a}<br/>" for a in anchors)
    return (
        '<!DOCTYPE html>\n<html>\n  <head>\n    <meta name="pypi:repository-version" '
        f'content="1.1">\n    <title>{html.escape(title)}</title>\n  </head>\n  <body>\n'
        f"{body}\n  </body>\n</html>\n"
    )


def _write_project(directory: Path, project: str, files: list[_Published], prefix: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    anchors: list[str] = []
    entries: list[dict[str, object]] = []
    for f in sorted(files, key=lambda f: f.filename):
        href = f"{prefix}{quote(f.filename)}"
        rp = (
            f' data-requires-python="{html.escape(f.requires_python)}"' if f.requires_python else ""
        )
        anchors.append(
            f'<a href="{href}#sha256={f.sha256}"{rp} data-dist-info-metadata="sha256='
            f'{f.metadata_sha256}" data-core-metadata="sha256={f.metadata_sha256}">'
            f"{html.escape(f.filename)}</a>"
        )
        entries.append(
            {
                "filename": f.filename,
                "url": href,
                "hashes": {"sha256": f.sha256},
                "requires-python": f.requires_python,
                "core-metadata": {"sha256": f.metadata_sha256},
                "dist-info-metadata": {"sha256": f.metadata_sha256},
                "yanked": False,
                "size": f.size,
                "upload-time": "2025-01-01T00:00:00.000000Z",
            }
        )
    (directory / "index.html").write_text(_page(f"Links for {project}", anchors))
    page = {"meta": {"api-version": "1.1"}, "name": project, "files": entries}
    (directory / "index.json").write_text(json.dumps(page, sort_keys=True))


def build_index(root: Path, size: IndexSize) -> FakeIndex:
    """Write the indexes for `size` under `root` (see the module docstring)."""
    store = root / "_store"
    store.mkdir(parents=True, exist_ok=True)
    result = FakeIndex(root=root)
    by_index: dict[str, dict[str, list[_Published]]] = {}
    for release in catalog(size):
        metadata = metadata_bytes(release)
        meta_sha = hashlib.sha256(metadata).hexdigest()
        meta_path = store / f"{wheel_name_part(release.name)}-{release.version}.metadata"
        meta_path.write_bytes(metadata)
        project = normalize_name(release.name)
        for tag in release.tags:
            filename = wheel_filename(
                release.name, release.version, python_tag=tag[0], abi=tag[1], plat=tag[2]
            )
            data = wheel_bytes(release, tag, metadata)
            wheel_path = store / filename
            wheel_path.write_bytes(data)
            published = _Published(
                filename=filename,
                sha256=hashlib.sha256(data).hexdigest(),
                metadata_sha256=meta_sha,
                size=len(data),
                requires_python=release.requires_python,
            )
            for index in release.indexes:
                files_dir = root / "pypi" / "files" if index == PYPI else root / "whl" / index
                files_dir.mkdir(parents=True, exist_ok=True)
                _link(wheel_path, files_dir / filename)
                _link(meta_path, files_dir / f"{filename}.metadata")
                by_index.setdefault(index, {}).setdefault(project, []).append(published)
                result.files += 1
                result.metadata_bytes += len(metadata)
    for index, projects in by_index.items():
        if index == PYPI:
            index_dir, prefix = root / "pypi" / "simple", "../../files/"
        else:
            index_dir, prefix = root / "whl" / index, "../"
        for project, files in projects.items():
            _write_project(index_dir / project, project, files, prefix)
            result.projects[f"{index}/{project}"] = len(files)
        names = sorted(projects)
        (index_dir / "index.html").write_text(
            _page("Simple index", (f'<a href="{quote(p)}/">{html.escape(p)}</a>' for p in names))
        )
        root_page = {"meta": {"api-version": "1.1"}, "projects": [{"name": p} for p in names]}
        (index_dir / "index.json").write_text(json.dumps(root_page, sort_keys=True))
    return result
