"""Local conda channels of tiny, byte-stable `.tar.bz2` packages, with their `repodata.json`.

`build_pytorch_channel` mimics the `pytorch` channel of the 2.1 era (the `pytorch-mutex` /
`cpuonly` / `pytorch-cuda` / `cuda-version` chain); `build_conda_forge_channel` mimics
conda-forge's `pytorch 2.6.0` with `cpu_generic` and `cuda126_generic` builds. The repodata is
written here (sorted keys, fixed timestamps) rather than by `rattler.index`, so it is stable.
"""

from __future__ import annotations

import bz2
import hashlib
import io
import json
import tarfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

SUBDIRS: Final = ("linux-64", "win-64", "osx-arm64", "noarch")
TIMESTAMP_MS: Final = 1696377600000  # 2023-10-04T00:00:00Z, in every index.json and repodata
_TAR_MTIME: Final = 1577836800  # 2020-01-01T00:00:00Z


@dataclass(frozen=True, slots=True, kw_only=True)
class CondaPackage:
    """One package to write; `subdir` "noarch" implies `noarch: generic` unless given."""

    name: str
    version: str
    build: str
    subdir: str
    build_number: int = 0
    depends: tuple[str, ...] = ()
    constrains: tuple[str, ...] = ()
    track_features: str = ""
    noarch: str | None = None
    files: tuple[tuple[str, str], ...] = ()
    license: str = "BSD-3-Clause"
    binaries: tuple[tuple[str, bytes], ...] = ()
    """Payload files given as bytes; those under bin/ are executable."""
    links: tuple[tuple[str, str], ...] = ()
    """Symbolic links: (path in the package, target)."""

    @property
    def filename(self) -> str:
        return f"{self.name}-{self.version}-{self.build}.tar.bz2"

    def index_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "name": self.name,
            "version": self.version,
            "build": self.build,
            "build_number": self.build_number,
            "depends": list(self.depends),
            "license": self.license,
            "subdir": self.subdir,
            "timestamp": TIMESTAMP_MS,
        }
        if self.constrains:
            data["constrains"] = list(self.constrains)
        if self.track_features:
            data["track_features"] = self.track_features
        noarch = self.noarch or ("generic" if self.subdir == "noarch" else None)
        if noarch:
            data["noarch"] = noarch
        else:
            platform, _, arch = self.subdir.partition("-")
            data["platform"] = {"osx": "osx", "win": "win", "linux": "linux"}[platform]
            data["arch"] = {"64": "x86_64", "arm64": "arm64", "aarch64": "aarch64"}[arch]
        return data


@dataclass(frozen=True, slots=True, kw_only=True)
class CondaChannel:
    """A channel directory; `url` is its `file://` URL (what rattler and conda take)."""

    name: str
    path: Path
    packages: tuple[CondaPackage, ...] = field(default=())

    @property
    def url(self) -> str:
        return self.path.resolve().as_uri()

    def repodata(self, subdir: str) -> dict[str, object]:
        loaded: dict[str, object] = json.loads((self.path / subdir / "repodata.json").read_text())
        return loaded


def _dump(data: object) -> bytes:
    return (json.dumps(data, indent=2, sort_keys=True) + "\n").encode()


def _tar_add(tar: tarfile.TarFile, name: str, data: bytes, *, link: str | None = None) -> None:
    info = tarfile.TarInfo(name)
    info.mtime = _TAR_MTIME
    info.mode = 0o755 if name.startswith("bin/") else 0o644
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    if link is not None:
        info.type, info.linkname, info.mode = tarfile.SYMTYPE, link, 0o777
        tar.addfile(info)
        return
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def package_bytes(package: CondaPackage) -> bytes:
    """The `.tar.bz2` bytes of `package`: payload files plus `info/`, all deterministic."""
    payload = {path: text.encode() for path, text in package.files}
    payload.update(package.binaries)
    links = dict(package.links)
    if not payload and not links:
        payload[f"share/envgen-fake/{package.name}.txt"] = (
            f"{package.name} {package.version} {package.build}\n".encode()
        )
    paths_json = {
        "paths": [
            {
                "_path": path,
                "path_type": "hardlink",
                "sha256": hashlib.sha256(data).hexdigest(),
                "size_in_bytes": len(data),
            }
            for path, data in sorted(payload.items())
        ]
        + [{"_path": path, "path_type": "softlink"} for path in sorted(links)],
        "paths_version": 1,
    }
    info = {
        "info/index.json": _dump(package.index_json()),
        "info/paths.json": _dump(paths_json),
        "info/files": ("\n".join(sorted([*payload, *links])) + "\n").encode(),
        "info/about.json": _dump({"summary": f"Fake {package.name} for envgen tests"}),
    }
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, data in sorted(info.items()):
            _tar_add(tar, name, data)
        for name, data in sorted(payload.items()):
            _tar_add(tar, name, data)
        for name, target in sorted(links.items()):
            _tar_add(tar, name, b"", link=target)
    return bz2.compress(buffer.getvalue(), compresslevel=9)


def write_channel(
    directory: Path,
    name: str,
    packages: Iterable[CondaPackage],
    *,
    subdirs: Sequence[str] = SUBDIRS,
) -> CondaChannel:
    """Write `packages` and one `repodata.json` per subdir (every subdir, `noarch` included)."""
    packages = tuple(packages)
    records: dict[str, dict[str, object]] = {subdir: {} for subdir in subdirs}
    for package in packages:
        data = package_bytes(package)
        target = directory / package.subdir / package.filename
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        record = package.index_json()
        record.update(
            md5=hashlib.md5(data).hexdigest(),  # noqa: S324 - conda's own checksum field
            sha256=hashlib.sha256(data).hexdigest(),
            size=len(data),
        )
        records[package.subdir][package.filename] = record
    for subdir, packages_in in records.items():
        (directory / subdir).mkdir(parents=True, exist_ok=True)
        repodata = {
            "info": {"subdir": subdir},
            "packages": packages_in,
            "packages.conda": {},
            "removed": [],
            "repodata_version": 1,
        }
        (directory / subdir / "repodata.json").write_bytes(_dump(repodata))
    (directory / "channeldata.json").write_bytes(
        _dump({"channeldata_version": 1, "packages": {}, "subdirs": sorted(subdirs)})
    )
    return CondaChannel(name=name, path=directory, packages=packages)


# --- the pytorch channel (2.1 era) ------------------------------------------------------------

_PY_PIN: Final[Mapping[str, str]] = {
    "3.10": "python >=3.10,<3.11.0a0",
    "3.11": "python >=3.11,<3.12.0a0",
}
_CUDA_BUILDS: Final[Mapping[str, str]] = {"11.8": "cudnn8.7.0", "12.1": "cudnn8.9.2"}


def pytorch_channel_packages() -> list[CondaPackage]:
    pkgs: list[CondaPackage] = [
        CondaPackage(
            name="pytorch-mutex",
            version="1.0",
            build="cpu",
            subdir="noarch",
            track_features="pytorch-mutex",
        ),
        CondaPackage(name="pytorch-mutex", version="1.0", build="cuda", subdir="noarch"),
        CondaPackage(
            name="cpuonly",
            version="2.0",
            build="0",
            subdir="noarch",
            depends=("pytorch-mutex 1.0 cpu",),
        ),
    ]
    pkgs.extend(
        CondaPackage(
            name="cuda-version",
            version=cuda,
            build="h70ddcb2_3",
            build_number=3,
            subdir="noarch",
            constrains=(f"__cuda >={cuda}", f"cudatoolkit {cuda}|{cuda}.*"),
        )
        for cuda in ("11.8", "12.1")
    )
    pkgs.extend(
        CondaPackage(
            name="pytorch-cuda",
            version=cuda,
            build="h7e8668a_5",
            build_number=5,
            subdir=subdir,
            depends=(f"cuda-version {cuda}.*",),
        )
        for subdir in ("linux-64", "win-64")
        for cuda in ("11.8", "12.1")
    )
    pkgs += [
        CondaPackage(
            name="cudatoolkit",
            version="11.8.0",
            build="h6a678d5_0",
            subdir="linux-64",
            depends=("__glibc >=2.17,<3.0.a0",),
        ),
        CondaPackage(name="ffmpeg", version="4.3", build="hf484d3e_0", subdir="linux-64"),
    ]
    pythons = {"linux-64": ("3.10", "3.11"), "win-64": ("3.11",), "osx-arm64": ("3.11",)}
    for subdir, versions in pythons.items():
        for py in versions:
            tag = py.replace(".", "")
            pkgs += [
                CondaPackage(
                    name="python",
                    version=f"{py}.5" if py == "3.11" else f"{py}.13",
                    build="h955ad1f_0",
                    subdir=subdir,
                ),
                CondaPackage(
                    name="numpy",
                    version="1.26.4",
                    build=f"py{tag}h5f9d8c6_0",
                    subdir=subdir,
                    depends=(_PY_PIN[py],),
                ),
            ]
            if subdir == "osx-arm64":
                pkgs.append(
                    CondaPackage(
                        name="pytorch",
                        version="2.1.0",
                        build=f"py{py}_0",
                        subdir=subdir,
                        depends=(_PY_PIN[py], "numpy >=1.21"),
                    )
                )
                continue
            pkgs += [
                CondaPackage(
                    name="pytorch",
                    version="2.1.0",
                    build=f"py{py}_cpu_0",
                    subdir=subdir,
                    depends=(_PY_PIN[py], "numpy >=1.21", "pytorch-mutex 1.0 cpu"),
                ),
                CondaPackage(
                    name="torchvision",
                    version="0.16.0",
                    build=f"py{tag}_cpu",
                    subdir=subdir,
                    depends=(_PY_PIN[py], "numpy >=1.21", "pytorch 2.1.0", "pytorch-mutex 1.0 cpu"),
                ),
                CondaPackage(
                    name="torchaudio",
                    version="2.1.0",
                    build=f"py{tag}_cpu",
                    subdir=subdir,
                    depends=(_PY_PIN[py], "pytorch 2.1.0", "pytorch-mutex 1.0 cpu"),
                ),
            ]
            for cuda, cudnn in _CUDA_BUILDS.items():
                short = cuda.replace(".", "")
                cuda_pin = f"pytorch-cuda >={cuda},<{cuda[:-1]}{int(cuda[-1]) + 1}"
                pkgs += [
                    CondaPackage(
                        name="pytorch",
                        version="2.1.0",
                        build=f"py{py}_cuda{cuda}_{cudnn}_0",
                        subdir=subdir,
                        depends=(_PY_PIN[py], "numpy >=1.21", "pytorch-mutex 1.0 cuda", cuda_pin),
                    ),
                    CondaPackage(
                        name="torchvision",
                        version="0.16.0",
                        build=f"py{tag}_cu{short}",
                        subdir=subdir,
                        depends=(
                            _PY_PIN[py],
                            "numpy >=1.21",
                            "pytorch 2.1.0",
                            "pytorch-mutex 1.0 cuda",
                            f"pytorch-cuda {cuda}.*",
                        ),
                    ),
                    CondaPackage(
                        name="torchaudio",
                        version="2.1.0",
                        build=f"py{tag}_cu{short}",
                        subdir=subdir,
                        depends=(
                            _PY_PIN[py],
                            "pytorch 2.1.0",
                            "pytorch-mutex 1.0 cuda",
                            f"pytorch-cuda {cuda}.*",
                        ),
                    ),
                ]
    return pkgs


def conda_forge_channel_packages() -> list[CondaPackage]:
    py = "python >=3.11,<3.12.0a0"
    abi = "python_abi 3.11.* *_cp311"
    return [
        CondaPackage(
            name="python",
            version="3.11.10",
            build="hc5c86c4_3_cpython",
            subdir="linux-64",
            build_number=3,
        ),
        CondaPackage(
            name="python_abi",
            version="3.11",
            build="5_cp311",
            build_number=5,
            subdir="linux-64",
            constrains=("python 3.11.* *_cpython",),
        ),
        CondaPackage(
            name="numpy",
            version="2.1.3",
            build="py311h71ddf71_0",
            subdir="linux-64",
            depends=(py, abi),
        ),
        CondaPackage(
            name="cuda-version",
            version="12.6",
            build="h7480c83_3",
            build_number=3,
            subdir="noarch",
            constrains=("__cuda >=12", "cudatoolkit 12.6|12.6.*"),
        ),
        CondaPackage(
            name="pytorch",
            version="2.6.0",
            build="cpu_generic_py311_h0_0",
            subdir="linux-64",
            depends=(py, abi, "numpy >=1.23"),
        ),
        CondaPackage(
            name="pytorch",
            version="2.6.0",
            build="cuda126_generic_py311_h0_300",
            build_number=300,
            subdir="linux-64",
            depends=(py, abi, "numpy >=1.23", "__cuda", "cuda-version >=12.6,<13"),
        ),
    ]


def build_pytorch_channel(directory: Path) -> CondaChannel:
    return write_channel(directory, "pytorch", pytorch_channel_packages())


def build_conda_forge_channel(directory: Path) -> CondaChannel:
    return write_channel(
        directory, "conda-forge", conda_forge_channel_packages(), subdirs=("linux-64", "noarch")
    )


# --- conda-forge, several releases (2.4-2.11) -------------------------------------------------
# Shaped like conda-forge's repodata: `pytorch` builds named cpu_<blas>_py311_h<hash>_<n> and
# cuda<XY>_<blas>_py311_h<hash>_<n> (Windows drops the blas part), each CUDA build depending on
# `__cuda` and `cuda-version >=X.Y,<major+1`; torchvision / torchaudio builds named cpu_py311_... /
# cuda<XY>_py311_... that require `pytorch * cpu*` / `pytorch * cuda*` of the same minor (pytorch's
# run_exports pin x.x); `cuda-version X.Y` constraining `__cuda >=<major>`. The table is written from
# the feedstocks' .ci_support files, apart from matrices/conda-forge.yaml, so a wrong matrix row
# (a CUDA version conda-forge never built for a platform) fails to solve here.
# release -> subdir -> CUDA versions built (cpu is always built).
CONDA_FORGE_BUILDS: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    "2.4.1": {"linux-64": ("11.8", "12.0"), "osx-arm64": ()},
    "2.6.0": {"linux-64": ("12.6",), "win-64": ("12.6",), "osx-arm64": ()},
    "2.8.0": {"linux-64": ("12.9",), "win-64": ("12.8",), "osx-arm64": ()},
    "2.11.0": {"linux-64": ("12.9", "13.0"), "win-64": ("12.8", "13.0"), "osx-arm64": ()},
}
# torch release -> (torchvision, torchaudio or None, CUDA versions torchvision was built for per
# subdir); torchaudio is built for linux/osx only.
CONDA_FORGE_COMPANIONS: Final[Mapping[str, tuple[str, str | None]]] = {
    "2.4.1": ("0.19.1", "2.4.1"),
    "2.6.0": ("0.21.0", "2.6.0"),
    "2.8.0": ("0.23.0", "2.8.0"),
    "2.11.0": ("0.26.0", "2.11.0"),
}
CONDA_FORGE_VISION_CUDA: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = {
    "0.19.1": {"linux-64": ("11.8", "12.0")},
    "0.21.0": {"linux-64": ("12.6",), "win-64": ("12.6",)},
    "0.23.0": {"linux-64": ("12.9",), "win-64": ("12.9",)},
    "0.26.0": {"linux-64": ("12.9", "13.0"), "win-64": ("12.9", "13.0")},
}


def _next_minor(version: str) -> str:
    major, minor = version.split(".")[:2]
    return f"{major}.{int(minor) + 1}"


def _cf_python(subdir: str) -> list[CondaPackage]:
    build = "h9e4cc4f_3_cpython" if subdir != "win-64" else "h3f84c4b_3_cpython"
    return [
        CondaPackage(name="python", version="3.11.10", build=build, subdir=subdir, build_number=3),
        CondaPackage(
            name="python_abi",
            version="3.11",
            build="5_cp311",
            build_number=5,
            subdir=subdir,
            constrains=("python 3.11.* *_cpython",),
        ),
        CondaPackage(
            name="numpy",
            version="2.1.3",
            build="py311h71ddf71_0",
            subdir=subdir,
            depends=("python >=3.11,<3.12.0a0", "python_abi 3.11.* *_cp311"),
        ),
    ]


def _cf_torch_family(release: str, subdir: str, cuda: str | None) -> list[CondaPackage]:
    py = ("python >=3.11,<3.12.0a0", "python_abi 3.11.* *_cp311")
    tag = "cpu" if cuda is None else "cuda" + cuda.replace(".", "")
    blas = "" if subdir == "win-64" else ("generic_" if subdir == "osx-arm64" else "mkl_")
    number = 300 if cuda else 0
    cuda_deps: tuple[str, ...] = (
        () if cuda is None else ("__cuda", f"cuda-version >={cuda},<{int(cuda.split('.')[0]) + 1}")
    )
    same_minor = f"pytorch >={'.'.join(release.split('.')[:2])},<{_next_minor(release)}"
    out = [
        CondaPackage(
            name="pytorch",
            version=release,
            build=f"{tag}_{blas}py311_h1e2b3c4_{number}",
            build_number=number,
            subdir=subdir,
            depends=(*py, "numpy >=1.23", *cuda_deps),
        )
    ]
    vision, audio = CONDA_FORGE_COMPANIONS[release]
    if cuda is None or cuda in CONDA_FORGE_VISION_CUDA[vision].get(subdir, ()):
        out.append(
            CondaPackage(
                name="torchvision",
                version=vision,
                build=f"{tag}_py311_h5f6a7b8_1",
                build_number=1,
                subdir=subdir,
                depends=(*py, f"pytorch * {tag[:4]}*", same_minor, *cuda_deps),
            )
        )
    if audio is not None and subdir != "win-64":
        out.append(
            CondaPackage(
                name="torchaudio",
                version=audio,
                build=f"{tag}_py311_h9c0d1e2_0",
                subdir=subdir,
                depends=(*py, f"pytorch * {tag[:4]}*", same_minor, *cuda_deps),
            )
        )
    return out


def conda_forge_release_packages() -> list[CondaPackage]:
    """conda-forge's pytorch family for the releases in CONDA_FORGE_BUILDS (python 3.11)."""
    subdirs = sorted({s for by_subdir in CONDA_FORGE_BUILDS.values() for s in by_subdir})
    pkgs = [p for subdir in subdirs for p in _cf_python(subdir)]
    cudas = sorted({c for by in CONDA_FORGE_BUILDS.values() for cs in by.values() for c in cs})
    pkgs.extend(
        CondaPackage(
            name="cuda-version",
            version=cuda,
            build="h7480c83_3",
            build_number=3,
            subdir="noarch",
            constrains=(
                f"__cuda >={cuda.split('.')[0] if cuda >= '12' else cuda}",
                f"cudatoolkit {cuda}|{cuda}.*",
            ),
        )
        for cuda in cudas
    )
    for release, by_subdir in CONDA_FORGE_BUILDS.items():
        for subdir, cuda_versions in by_subdir.items():
            for cuda in (None, *cuda_versions):
                pkgs += _cf_torch_family(release, subdir, cuda)
    return pkgs


def build_conda_forge_releases_channel(directory: Path) -> CondaChannel:
    return write_channel(
        directory,
        "conda-forge",
        conda_forge_release_packages(),
        subdirs=("linux-64", "win-64", "osx-arm64", "noarch"),
    )


# --- a CPython from this machine, packaged as conda-forge would ----------------------------------
def find_python(version: str) -> Path | None:
    """A working CPython `version` ("3.6") interpreter on this machine that is not on uv's search
    path (pyenv keeps its versions under ~/.pyenv/versions), or None."""
    home = Path.home() / ".pyenv" / "versions"
    for candidate in sorted(home.glob(f"{version}.*/bin/python{version}"), reverse=True):
        if candidate.is_file() and (candidate.parents[1] / "lib" / f"python{version}").is_dir():
            return candidate
    return None


def python_package(interpreter: Path, version: str, *, subdir: str = "linux-64") -> CondaPackage:
    """conda-forge's `python` package, made from a real interpreter of this machine.

    The binary is copied into bin/ (it finds its shared libpython by its RPATH) and every
    standard-library entry is a link to the interpreter's own, except site-packages, which is a
    folder of the prefix: Python takes its sys.prefix from where the binary lies, so the prefix
    is a Python installation of its own, as conda-forge's package makes it.
    """
    minor = ".".join(version.split(".")[:2])
    lib = interpreter.parents[1] / "lib" / f"python{minor}"
    links = [(f"bin/python{minor[0]}", f"python{minor}"), ("bin/python", f"python{minor}")]
    links += [
        (f"lib/python{minor}/{entry.name}", str(entry))
        for entry in sorted(lib.iterdir())
        if entry.name != "site-packages"
    ]
    return CondaPackage(
        name="python",
        version=version,
        build="h0123456_0_cpython",
        subdir=subdir,
        binaries=((f"bin/python{minor}", interpreter.read_bytes()),),
        files=((f"lib/python{minor}/site-packages/README.txt", "site-packages\n"),),
        links=tuple(links),
    )
