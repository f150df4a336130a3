"""A local copy of the shape of download.pytorch.org/whl and of PyPI, made of fake wheels.

Layout under `root` (serve `root` with `tests.support.server.IndexServer`)::

    whl/torch_stable.html                 flat find-links page, links `cu118/torch-...whl`
    whl/<variant>/index.html (+.json)     PEP 503 / PEP 691 root page of that index
    whl/<variant>/<project>/index.html    project page; `index.json` next to it when json_api
    whl/<variant>/<file>.whl              the wheels, with `<file>.whl.metadata` (PEP 658)
    pypi/simple/<project>/index.html      the PyPI stand-in
    pypi/files/<file>.whl

Variants are `cpu`, `cu118` and `cu121`. Each variant index re-hosts a stale numpy 1.24.1, as the
real PyTorch indexes do (the shadowing trap). Upload times (PEP 700) exist only in the JSON pages.
"""

from __future__ import annotations

import html
import json
import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final
from urllib.parse import quote

from tests.support.wheels import (
    metadata_text,
    normalize_name,
    sha256_bytes,
    torch_files,
    torchaudio_files,
    torchvision_files,
    wheel_bytes,
    wheel_filename,
)

VARIANTS: Final = ("cpu", "cu118", "cu121")
PYPI: Final = "pypi"
JSON_CONTENT_TYPE: Final = "application/vnd.pypi.simple.v1+json"
HTML_CONTENT_TYPE: Final = "application/vnd.pypi.simple.v1+html"

LINUX_X86: Final = "manylinux_2_28_x86_64"
LINUX_ARM: Final = "manylinux_2_28_aarch64"
WINDOWS: Final = "win_amd64"
PYTHONS: Final = ("cp310", "cp311")

CUDA_OF: Final[Mapping[str, str | None]] = {"cpu": None, "cu118": "11.8", "cu121": "12.1"}
_ON_LINUX_X86: Final = 'platform_system == "Linux" and platform_machine == "x86_64"'


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelSpec:
    """One wheel of the catalog and the indexes that host it."""

    name: str
    version: str
    indexes: tuple[str, ...]
    upload_time: datetime
    python_tag: str = "py3"
    abi: str = "none"
    plat: str = "any"
    requires_dist: tuple[str, ...] = ()
    requires_python: str | None = None
    files: tuple[tuple[str, str], ...] | None = None

    @property
    def filename(self) -> str:
        return wheel_filename(
            self.name, self.version, python_tag=self.python_tag, abi=self.abi, plat=self.plat
        )

    def build(self) -> bytes:
        return wheel_bytes(
            self.name,
            self.version,
            requires_dist=self.requires_dist,
            requires_python=self.requires_python,
            python_tag=self.python_tag,
            abi=self.abi,
            plat=self.plat,
            files=dict(self.files) if self.files is not None else None,
        )

    def metadata(self) -> bytes:
        return metadata_text(
            self.name,
            self.version,
            requires_dist=self.requires_dist,
            requires_python=self.requires_python,
        ).encode()


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexFile:
    """A wheel as published on one index."""

    index: str  # "cpu", "cu118", "cu121" or "pypi"
    project: str  # normalized
    version: str
    filename: str
    path: Path  # on disk
    sha256: str
    metadata_sha256: str
    requires_python: str | None
    upload_time: datetime | None  # None when the tree was built without upload times


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexTree:
    """What `build_index_tree` wrote."""

    root: Path
    files: tuple[IndexFile, ...]
    upload_times: bool
    pypi_upload_times: bool
    json_api: bool

    @property
    def whl(self) -> Path:
        return self.root / "whl"

    @property
    def pypi(self) -> Path:
        return self.root / "pypi" / "simple"

    @property
    def find_links_page(self) -> Path:
        return self.whl / "torch_stable.html"

    def files_for(self, index: str, project: str | None = None) -> list[IndexFile]:
        wanted = normalize_name(project) if project else None
        return [
            f for f in self.files if f.index == index and (wanted is None or f.project == wanted)
        ]

    def file(self, filename: str, index: str | None = None) -> IndexFile:
        """The one published file with that name (on `index`, when several host it)."""
        found = [
            f for f in self.files if f.filename == filename and (index is None or f.index == index)
        ]
        if len(found) != 1:
            msg = f"{len(found)} files named {filename!r} on index {index!r}"
            raise LookupError(msg)
        return found[0]


# --- the catalog ------------------------------------------------------------------------------

_TORCH_FAMILY: Final = (
    # torch, torchvision, torchaudio, triton, upload time, variants on the PyTorch index
    ("2.1.0", "0.16.0", "2.1.0", "2.1.0", "2023-10-04T16:00:00", ("cpu", "cu118", "cu121")),
    ("2.0.1", "0.15.2", "2.0.2", "2.0.0", "2023-05-08T16:00:00", ("cpu", "cu118")),
)
_CUDA_RUNTIME: Final[Mapping[str, tuple[str, str]]] = {
    "cu118": ("nvidia-cuda-runtime-cu11", "11.8.89"),
    "cu121": ("nvidia-cuda-runtime-cu12", "12.1.105"),
}


def _torch_requires(variant: str | None, triton: str) -> tuple[str, ...]:
    """Torch's Requires-Dist; `variant` None is PyPI's own build (CUDA 12.1 on Linux x86_64)."""
    base = ("filelock", "typing-extensions", "numpy")
    if variant == "cpu":
        return base
    runtime, runtime_version = _CUDA_RUNTIME[variant or "cu121"]
    return (
        *base,
        f"{runtime}=={runtime_version}; {_ON_LINUX_X86}",
        f"triton=={triton}; {_ON_LINUX_X86}",
    )


def _platforms(variant: str | None) -> tuple[str, ...]:
    return (LINUX_X86, LINUX_ARM, WINDOWS) if variant in ("cpu", None) else (LINUX_X86, WINDOWS)


def _family(
    torch: str, vision: str, audio: str, triton: str, uploaded: datetime, variant: str | None
) -> list[WheelSpec]:
    """torch / torchvision / torchaudio of one variant (None: PyPI's unlabelled builds)."""
    indexes = (variant,) if variant else (PYPI,)
    specs: list[WheelSpec] = []
    for plat in _platforms(variant):
        # Like the real cpu index, the aarch64 wheels there carry no `+cpu` label.
        label = f"+{variant}" if variant and plat != LINUX_ARM else ""
        # PyPI's own Linux x86_64 build is the CUDA 12.1 one; its other builds are CPU only.
        pypi_cuda = "12.1" if plat == LINUX_X86 else None
        cuda = pypi_cuda if variant is None else CUDA_OF[variant]
        for py in PYTHONS:
            for name, version, requires, files in (
                ("torch", torch, _torch_requires(variant, triton), torch_files),
                ("torchvision", vision, ("numpy", f"torch=={torch}"), torchvision_files),
                ("torchaudio", audio, (f"torch=={torch}",), torchaudio_files),
            ):
                full = f"{version}{label}"
                contents = torch_files(full, cuda=cuda) if name == "torch" else files(full)
                specs.append(
                    WheelSpec(
                        name=name,
                        version=full,
                        indexes=indexes,
                        upload_time=uploaded,
                        python_tag=py,
                        abi=py,
                        plat=plat,
                        requires_dist=requires,
                        requires_python=">=3.8.0",
                        files=tuple(contents.items()),
                    )
                )
    return specs


def catalog() -> list[WheelSpec]:
    """Every wheel of the fake PyTorch indexes and of the fake PyPI."""
    specs: list[WheelSpec] = []
    for torch, vision, audio, triton, uploaded, variants in _TORCH_FAMILY:
        for variant in variants:
            specs += _family(torch, vision, audio, triton, _utc(uploaded), variant)
        specs += _family(torch, vision, audio, triton, _utc(uploaded), None)
        cuda_indexes = tuple(v for v in variants if v != "cpu")
        specs += [
            WheelSpec(
                name="triton",
                version=triton,
                indexes=(*cuda_indexes, PYPI),
                upload_time=_utc(uploaded) if torch == "2.1.0" else _utc("2023-03-02T00:00:00"),
                python_tag=py,
                abi=py,
                plat=LINUX_X86,
                requires_dist=("filelock",),
            )
            for py in PYTHONS
        ]
    for variant, (runtime, version) in _CUDA_RUNTIME.items():
        specs += [
            WheelSpec(
                name=runtime,
                version=version,
                indexes=(variant, PYPI),
                upload_time=_utc("2022-10-03T00:00:00" if variant == "cu118" else "2023-04-18"),
                plat=plat,
                requires_python=">=3",
            )
            for plat in (LINUX_X86, WINDOWS)
        ]
    numpy = (
        ("1.24.1", (*VARIANTS, PYPI), "2023-01-09T00:00:00", ">=3.8"),
        ("1.26.4", (PYPI,), "2024-02-05T21:00:00", ">=3.9"),
        ("2.0.0", (PYPI,), "2024-06-16T12:00:00", ">=3.9"),
    )
    specs += [
        WheelSpec(
            name="numpy",
            version=version,
            indexes=indexes,
            upload_time=_utc(uploaded),
            requires_python=requires_python,
        )
        for version, indexes, uploaded, requires_python in numpy
    ]
    specs += [
        WheelSpec(
            name="filelock",
            version=version,
            indexes=(PYPI,),
            upload_time=_utc(uploaded),
            requires_python=">=3.7",
        )
        for version, uploaded in (("3.9.0", "2022-12-28T00:00:00"), ("3.13.1", "2023-10-30"))
    ]
    specs += [
        WheelSpec(
            name="typing-extensions",
            version=version,
            indexes=(PYPI,),
            upload_time=_utc(uploaded),
            requires_python=">=3.7",
            files=(("typing_extensions.py", f"__version__ = {version!r}\n"),),
        )
        for version, uploaded in (("4.5.0", "2023-02-15T00:00:00"), ("4.8.0", "2023-09-18"))
    ]
    return specs


# --- writing the tree -------------------------------------------------------------------------


def write_wheels(directory: Path, specs: Iterable[WheelSpec] | None = None) -> dict[str, Path]:
    """Write every wheel of `specs` (default: the catalog) once into `directory`; by file name."""
    directory.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for spec in catalog() if specs is None else specs:
        if spec.filename in written:
            continue
        path = directory / spec.filename
        path.write_bytes(spec.build())
        written[spec.filename] = path
    return written


def _place(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000000Z")


def _html_page(title: str, anchors: Iterable[str]) -> str:
    body = "\n".join(f"    {a}<br/>" for a in anchors)
    return (
        "<!DOCTYPE html>\n<html>\n  <head>\n"
        '    <meta name="pypi:repository-version" content="1.1">\n'
        f"    <title>{html.escape(title)}</title>\n  </head>\n  <body>\n"
        f"    <h1>{html.escape(title)}</h1>\n{body}\n  </body>\n</html>\n"
    )


def _dump_json(data: object) -> str:
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _write_project(
    project_dir: Path, project: str, files: list[IndexFile], href_prefix: str, *, json_api: bool
) -> None:
    project_dir.mkdir(parents=True, exist_ok=True)
    anchors = []
    entries = []
    for f in sorted(files, key=lambda f: f.filename):
        href = f"{href_prefix}{quote(f.filename)}"
        attrs = [f'href="{href}#sha256={f.sha256}"']
        if f.requires_python:
            attrs.append(f'data-requires-python="{html.escape(f.requires_python)}"')
        attrs.append(f'data-dist-info-metadata="sha256={f.metadata_sha256}"')
        attrs.append(f'data-core-metadata="sha256={f.metadata_sha256}"')
        anchors.append(f"<a {' '.join(attrs)}>{html.escape(f.filename)}</a>")
        entry: dict[str, object] = {
            "filename": f.filename,
            "url": href,
            "hashes": {"sha256": f.sha256},
            "requires-python": f.requires_python,
            "core-metadata": {"sha256": f.metadata_sha256},
            "dist-info-metadata": {"sha256": f.metadata_sha256},
            "yanked": False,
            "size": f.path.stat().st_size,
        }
        if f.upload_time is not None:
            entry["upload-time"] = _iso(f.upload_time)
        entries.append(entry)
    (project_dir / "index.html").write_text(_html_page(f"Links for {project}", anchors))
    if json_api:
        versions = sorted({f.version for f in files})
        page = {"meta": {"api-version": "1.1"}, "name": project, "files": entries}
        page["versions"] = versions
        (project_dir / "index.json").write_text(_dump_json(page))


def _write_root(index_dir: Path, projects: Iterable[str], *, json_api: bool) -> None:
    names = sorted(projects)
    anchors = [f'<a href="{quote(p)}/">{html.escape(p)}</a>' for p in names]
    (index_dir / "index.html").write_text(_html_page("Simple index", anchors))
    if json_api:
        page = {"meta": {"api-version": "1.1"}, "projects": [{"name": p} for p in names]}
        (index_dir / "index.json").write_text(_dump_json(page))


def build_index_tree(
    root: Path,
    *,
    wheels: Mapping[str, Path] | None = None,
    upload_times: bool = True,
    pypi_upload_times: bool = True,
    json_api: bool = True,
) -> IndexTree:
    """Lay out the PyTorch-like indexes and the PyPI stand-in under `root` (see module doc).

    `wheels` (file name -> path, from `write_wheels`) lets several trees share one set of wheels;
    they are hard-linked in. `upload_times=False` leaves PEP 700 upload times out of the PyTorch
    indexes (as on the real download.pytorch.org); `pypi_upload_times=False` leaves them out of the
    PyPI stand-in too. `json_api=False` writes only the HTML pages.
    """
    specs = catalog()
    if wheels is None:
        wheels = write_wheels(root / "_wheels", specs)
    published: list[IndexFile] = []
    for spec in specs:
        source = wheels[spec.filename]
        digest = sha256_bytes(source.read_bytes())
        metadata = spec.metadata()
        for index in spec.indexes:
            if index == PYPI:
                target_dir = root / "pypi" / "files"
                with_time = pypi_upload_times
            else:
                target_dir = root / "whl" / index
                with_time = upload_times
            target_dir.mkdir(parents=True, exist_ok=True)
            target = target_dir / spec.filename
            _place(source, target)
            target.with_name(f"{spec.filename}.metadata").write_bytes(metadata)
            published.append(
                IndexFile(
                    index=index,
                    project=normalize_name(spec.name),
                    version=spec.version,
                    filename=spec.filename,
                    path=target,
                    sha256=digest,
                    metadata_sha256=sha256_bytes(metadata),
                    requires_python=spec.requires_python,
                    upload_time=spec.upload_time if with_time else None,
                )
            )
    for index in (*VARIANTS, PYPI):
        on_index = [f for f in published if f.index == index]
        projects = sorted({f.project for f in on_index})
        if index == PYPI:
            index_dir, prefix = root / "pypi" / "simple", "../../files/"
        else:
            index_dir, prefix = root / "whl" / index, "../"
        for project in projects:
            _write_project(
                index_dir / project,
                project,
                [f for f in on_index if f.project == project],
                prefix,
                json_api=json_api,
            )
        _write_root(index_dir, projects, json_api=json_api)
    stable = sorted(
        (f"{f.index}/{f.filename}" for f in published if f.index != PYPI),
    )
    (root / "whl" / "torch_stable.html").write_text(
        _html_page("torch_stable", (f'<a href="{quote(s)}">{html.escape(s)}</a>' for s in stable))
    )
    return IndexTree(
        root=root,
        files=tuple(published),
        upload_times=upload_times,
        pypi_upload_times=pypi_upload_times,
        json_api=json_api,
    )
