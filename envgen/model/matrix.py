"""The PyTorch compatibility matrix: matrices/*.yaml loaded into frozen rows.

The rows here are the runtime form: plain frozen records (`Row`), built from the validated JSON
without pydantic, so a command that finds the matrix in its cache never imports it (~50 ms).
The schema is the pydantic models in envgen.model.matrix_schema, with the same fields
(tests/unit/model/test_matrix_runtime.py); they validate the YAML on a cache miss and in
`envgen matrix validate`, and scripts/gen_schema.py writes matrices/schema.json from them.
The loader checks invariants (known keys, sorted rows, no duplicates, companions that exist).
This module must not fetch anything from the network, and must not know about specs or variants.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import logging
import marshal
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import (
    TYPE_CHECKING,
    Any,
    ClassVar,
    Final,
    Literal,
    Self,
    TypeAlias,
    TypeVar,
    dataclass_transform,
)

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from envgen.errors import FileSystemError, MatrixError
from envgen.infra.files import atomic_write_bytes, read_output
from envgen.infra.resources import MATRICES_DIR
from envgen.model.types import (
    AcceleratorId,
    ComputeKind,
    CondaForm,
    CondaSource,
    ExtensionForm,
    IndexForm,
    Manager,
    Platform,
)

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

SCHEMA_VERSION: Final = 1
log = logging.getLogger(__name__)

# The schema's constrained strings (envgen.model.matrix_schema), by the same names: at run time
# they are plain str, checked when the YAML was validated.
VersionStr: TypeAlias = str
LocalVersionStr: TypeAlias = str
PythonStr: TypeAlias = str
ArchListStr: TypeAlias = str
CudaMinorStr: TypeAlias = str
RocmVersionStr: TypeAlias = str

_ROWS: dict[str, type[Row]] = {}
_NESTED: Final = re.compile(r"^tuple\[(\w+), \.\.\.\]$")


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Row:
    """A frozen record: keyword-only fields read from the class annotations, with their defaults.

    Not `dataclasses.dataclass`: the decorator generates and compiles each class's methods at
    import (~1 ms a class on a 2-core machine, ~15 ms for the matrix), which every command paid.
    Equality, hashing and repr follow the fields, as a frozen dataclass's do. The pydantic names
    callers use on rows keep working: `model_fields` (the names), `model_copy(update=...)`,
    `model_dump(by_alias=, mode=)` and `model_validate(raw)` (validates through the schema model
    of the same name).
    """

    model_fields: ClassVar[tuple[str, ...]] = ()  # the field names in order (pydantic's keys)
    _defaults: ClassVar[dict[str, object]] = {}
    _aliases: ClassVar[dict[str, str]] = {}
    _nested: ClassVar[dict[str, str]] = {}
    _field_set: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        fields = list(cls.model_fields)
        defaults = dict(cls._defaults)
        nested = dict(cls._nested)
        for name, annotation in inspect.get_annotations(cls).items():
            if str(annotation).startswith("ClassVar"):
                continue
            if name not in fields:
                fields.append(name)
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
            else:  # redefined without a default: required here
                defaults.pop(name, None)
            found = _NESTED.match(str(annotation))
            if found and found[1] in _ROWS:
                nested[name] = found[1]
        cls.model_fields, cls._defaults, cls._nested = tuple(fields), defaults, nested
        cls._field_set = frozenset(fields)
        _ROWS[cls.__name__] = cls

    def __init__(self, **values: object) -> None:
        data = {**self._defaults, **values}
        if len(data) != len(self.model_fields) or not all(f in data for f in self.model_fields):
            missing = [f for f in self.model_fields if f not in data]
            unknown = sorted(set(data) - set(self.model_fields))
            msg = f"{type(self).__name__}: missing fields {missing}, unknown fields {unknown}"
            raise TypeError(msg)
        self.__dict__.update(data)

    def __setattr__(self, name: str, value: object) -> None:
        msg = f"{type(self).__name__} is frozen: cannot set {name!r}"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = f"{type(self).__name__} is frozen: cannot delete {name!r}"
        raise AttributeError(msg)

    def _values(self) -> tuple[object, ...]:
        return tuple(self.__dict__[f] for f in self.model_fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={self.__dict__[f]!r}" for f in self.model_fields)
        return f"{type(self).__name__}({fields})"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """Rebuild a row from its validated `model_dump(mode="json")` (lists become tuples)."""
        values: dict[str, Any] = {}
        for name, value in data.items():
            nested = cls._nested.get(name)
            if nested is not None:
                values[name] = tuple(_ROWS[nested].from_json(item) for item in value)
            elif isinstance(value, list):
                values[name] = tuple(value)
            else:
                values[name] = value
        if values.keys() != cls._field_set:
            return cls(**values)  # fills defaults, or says which fields are missing or unknown
        row = object.__new__(cls)  # every field given: skip __init__'s checks (~1,500 rows a run)
        row.__dict__.update(values)
        return row

    @classmethod
    def model_validate(cls, raw: object) -> Self:
        """Validate `raw` (YAML keys) through the schema model; pydantic's ValidationError."""
        from envgen.model import matrix_schema  # noqa: PLC0415 - pydantic (~50 ms): only when validating

        schema: type[BaseModel] = getattr(matrix_schema, cls.__name__)
        return cls.from_json(schema.model_validate(raw).model_dump(mode="json"))

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        """A copy with `update`'s fields replaced (not validated, as pydantic's model_copy)."""
        return type(self)(**{**{f: self.__dict__[f] for f in self.model_fields}, **(update or {})})

    def model_dump(
        self, *, by_alias: bool = False, mode: Literal["python", "json"] = "python"
    ) -> dict[str, Any]:
        """The fields as a dict, as pydantic dumps them (json mode: tuples become lists)."""
        return {
            (self._aliases.get(f, _kebab(f)) if by_alias else f): _dump(
                self.__dict__[f], by_alias=by_alias, mode=mode
            )
            for f in self.model_fields
        }


def _dump(value: object, *, by_alias: bool, mode: Literal["python", "json"]) -> object:
    if isinstance(value, Row):
        return value.model_dump(by_alias=by_alias, mode=mode)
    if isinstance(value, tuple):
        items = [_dump(v, by_alias=by_alias, mode=mode) for v in value]
        return items if mode == "json" else tuple(items)
    return value


def _kebab(name: str) -> str:
    return name.replace("_", "-")


def accelerator_id(kind: ComputeKind, version: str | None) -> AcceleratorId:
    """Derive the accelerator id from its kind and version.

    >>> accelerator_id("cuda", "11.8"), accelerator_id("rocm", "5.1.1"), accelerator_id("cpu", None)
    ('cu118', 'rocm5.1.1', 'cpu')
    """
    if kind not in {"cuda", "rocm"}:
        return AcceleratorId(kind)
    if version is None:
        msg = f"internal error: a {kind} accelerator needs a version"
        raise ValueError(msg)
    if kind == "cuda":
        return AcceleratorId("cu" + version.replace(".", ""))
    return AcceleratorId("rocm" + version)


def cuda_of(acc: str) -> tuple[int, int] | None:
    """(major, minor) of a CUDA accelerator id, None for any other: the one reader of ids.

    Ids are built by `accelerator_id`; they are read back only here, for what a user typed
    (`cu116`) and for nearest-version suggestions. The last digit is the minor (cu92 is 9.2).

    >>> cuda_of("cu118"), cuda_of("cu92"), cuda_of("cu100"), cuda_of("rocm5.6"), cuda_of("cu")
    ((11, 8), (9, 2), (10, 0), None, None)
    """
    digits = acc[2:] if acc.startswith("cu") else ""
    if len(digits) < 2 or not digits.isdigit():
        return None
    return int(digits[:-1]), int(digits[-1])


def cuda_number(acc: str) -> float | None:
    """`cuda_of` as one number for distances (cu118 -> 11.8), None for any other id."""
    found = cuda_of(acc)
    return None if found is None else found[0] + found[1] / 10


class WheelPythons(Row):
    """The Pythons one platform has cpXY wheels for (a release's PyPI files)."""

    platform: Platform
    python: tuple[PythonStr, ...]


class Release(Row):
    """One torch release and what it was published with (releases.yaml)."""

    torch: VersionStr
    torchvision: VersionStr | None
    torchaudio: VersionStr | None
    python: tuple[PythonStr, ...]
    pypi_wheels: tuple[WheelPythons, ...] = ()
    date: str | None = None
    source: str
    inferred: tuple[str, ...] = ()

    @property
    def version(self) -> Version:
        return Version(self.torch)

    def pypi_pythons(self, platform: str) -> tuple[str, ...] | None:
        """The Pythons PyPI has this release's torch wheel for on `platform`; None when the
        row records no PyPI files (a release not on PyPI)."""
        if not self.pypi_wheels:
            return None
        return next((w.python for w in self.pypi_wheels if w.platform == platform), ())


class Compute(Row):
    """Mixin-like fields shared by pip and conda build rows."""

    kind: ComputeKind
    version: str | None = None

    @property
    def accelerator(self) -> AcceleratorId:
        return accelerator_id(self.kind, self.version)


class PipBuild(Compute):
    """How one torch release was published for pip on some platforms and one compute platform."""

    release: VersionStr
    platforms: tuple[Platform, ...]
    torch: LocalVersionStr
    torchvision: LocalVersionStr | None = None
    torchaudio: LocalVersionStr | None = None
    index: IndexForm
    url: str | None = None
    wheel: str | None = None
    torchvision_wheel: str | None = None
    pypi_default: bool = False
    published: str | None = None
    source: str
    inferred: bool = False

    def direct_urls(self, python: str) -> dict[str, str]:
        """Package -> wheel URL for `python`, for the packages the row names by URL (torch; and
        torchvision where its compiled ops were built per compute platform); empty for others.

        >>> b = PipBuild(kind="cpu", release="1.0.0", platforms=("linux-64",), torch="1.0.0",
        ...     index="find-links", url="https://x/torch_stable.html", source="s",
        ...     wheel="https://x/torch-1.0.0-{abi}-linux_x86_64.whl")
        >>> b.direct_urls("3.6"), b.direct_urls("2.7")["torch"]
        ({'torch': 'https://x/torch-1.0.0-cp36-cp36m-linux_x86_64.whl'}, 'https://x/torch-1.0.0-cp27-cp27mu-linux_x86_64.whl')
        """
        urls: dict[str, str] = {}
        for name, template in (("torch", self.wheel), ("torchvision", self.torchvision_wheel)):
            if template is not None:
                urls[name] = template.replace("{abi}", cpython_abi_tags(python))
        return urls


def cpython_abi_tags(python: str) -> str:
    """A CPython wheel's python and ABI tags: 3.7 -> cp37-cp37m (pymalloc ABI before 3.8),
    2.7 -> cp27-cp27mu (the UCS-4 build every Linux distribution shipped), 3.8+ -> cp38-cp38.

    >>> cpython_abi_tags("3.7"), cpython_abi_tags("3.11"), cpython_abi_tags("2.7")
    ('cp37-cp37m', 'cp311-cp311', 'cp27-cp27mu')
    """
    major, minor = (int(x) for x in python.split(".")[:2])
    tag = f"cp{major}{minor}"
    if major == 2:
        return f"{tag}-{tag}mu"
    return f"{tag}-{tag}m" if minor < 8 else f"{tag}-{tag}"


class CondaBuild(Compute):
    """How one torch release was published for conda on some platforms and one compute platform."""

    release: VersionStr
    platforms: tuple[Platform, ...]
    pytorch: VersionStr
    torchvision: VersionStr | None = None
    torchaudio: VersionStr | None = None
    python: tuple[PythonStr, ...] | None = None
    torchvision_python: tuple[PythonStr, ...] | None = None
    torchaudio_python: tuple[PythonStr, ...] | None = None
    form: CondaForm
    channels: tuple[str, ...]
    built: str | None = None  # conda-forge rows: the date its feedstock's CI first built it
    published: str | None = None
    pinned: bool = True
    conda_default: bool = False
    source: str
    inferred: bool = False


class Driver(Row):
    """CUDA toolkit version -> minimum NVIDIA driver (NVIDIA's CUDA release notes, table 3)."""

    cuda: str
    linux: str
    windows: str | None = None
    source: str


class KnownIssue(Row):
    """A publishing error, a deleted artifact or a known trap, surfaced as a warning or error."""

    id: str
    torch: str
    manager: Manager | Literal["any"] = "any"
    accelerators: tuple[str, ...] = ()
    index: IndexForm | None = None
    channel: str | None = None
    form: CondaForm | None = None
    python: tuple[str, ...] = ()
    severity: Literal["warning", "error"] = "warning"
    silenced_by: str | None = None
    message: str
    fix: str
    link: str


class GpuArchs(Row):
    """The GPU architectures one group of torch builds was compiled for (gpu-archs.yaml): CUDA
    SM/PTX targets for `cuda` rows, AMD gfx targets for `rocm` rows."""

    torch: str
    cuda: tuple[CudaMinorStr, ...] = ()
    rocm: tuple[RocmVersionStr, ...] = ()
    platforms: tuple[Platform, ...]
    arch_list: ArchListStr
    source: str
    inferred: bool = False
    note: str | None = None

    @property
    def kind(self) -> Literal["cuda", "rocm"]:
        return "rocm" if self.rocm else "cuda"

    @property
    def versions(self) -> tuple[str, ...]:
        return self.rocm or self.cuda

    @property
    def archs(self) -> tuple[str, ...]:
        """The list as torch.cuda.get_arch_list() reports it: '9.0+PTX' -> sm_90, compute_90;
        gfx targets as they are."""
        if self.kind == "rocm":
            return tuple(self.arch_list.split(";"))
        return arch_names(self.arch_list)


def arch_names(arch_list: str) -> tuple[str, ...]:
    """TORCH_CUDA_ARCH_LIST as torch.cuda.get_arch_list() names it (SASS first, then PTX).

    >>> arch_names("7.5;8.0;12.0+PTX")
    ('sm_75', 'sm_80', 'sm_120', 'compute_120')
    """
    sass: list[str] = []
    ptx: list[str] = []
    for item in arch_list.split(";"):
        number = item.removesuffix("+PTX").replace(".", "")
        sass.append(f"sm_{number}")
        if item.endswith("+PTX"):
            ptx.append(f"compute_{number}")
    return (*sass, *ptx)


class MinorCompat(Row):
    """NVIDIA's minimum driver for CUDA minor-version compatibility in one CUDA major."""

    cuda_major: int
    linux: str
    windows: str | None = None
    source: str


class CompanionRelease(Row):
    """One torchvision / torchaudio (or torchtext / torchdata) release and the torch releases its
    wheel accepts."""

    package: Literal["torchvision", "torchaudio", "torchtext", "torchdata"]
    version: VersionStr
    torch: str
    source: str
    pypi_wheels: tuple[WheelPythons, ...] = ()

    @functools.cached_property
    def specifier(self) -> SpecifierSet:
        return SpecifierSet(self.torch)

    @property
    def exact(self) -> bool:
        """True when the requirement names one torch release series with `==`."""
        return any(s.operator in ("==", "===") for s in self.specifier)

    @property
    def pure_python(self) -> bool:
        """True when PyPI has no compiled (cpXY) wheel of this release: nothing in it is built
        against a torch ABI (torchvision 0.1.6-0.2.2.post3)."""
        return not self.pypi_wheels

    def pypi_pythons(self, platform: str) -> tuple[str, ...] | None:
        """The Pythons PyPI has a compiled wheel of this release for on `platform`; None for a
        pure-Python release (any python)."""
        if self.pure_python:
            return None
        return next((w.python for w in self.pypi_wheels if w.platform == platform), ())


class ExtensionIndex(Row):
    """Where an extension's wheels live for an era of torch releases (extensions.yaml)."""

    torch: str
    form: ExtensionForm
    url: str | None = None
    cpu_url: str | None = None
    moved_from: tuple[str, ...] = ()
    import_urls: tuple[str, ...] = ()
    source: str
    inferred: bool = False


class ExtensionVersion(Row):
    """One release of an extension and its date (the upstream git tag's date)."""

    version: VersionStr
    date: str | None = None


class ExtensionBuild(Row):
    """Versions of an extension built for some torch releases x accelerators x pythons."""

    versions: tuple[VersionStr, ...]
    torch: tuple[str, ...]
    accelerators: tuple[str, ...]
    python: tuple[PythonStr, ...] = ()
    platforms: tuple[Platform, ...] = ("linux-64",)
    package: str | None = None
    cuda_build: str | None = None
    source: str | None = None
    inferred: bool = False


class Extension(Row):
    """A compiled torch extension: index forms, versions and what was built (extensions.yaml)."""

    _aliases: ClassVar[dict[str, str]] = {"import_name": "import"}

    name: str
    import_name: str
    aliases: tuple[str, ...] = ()
    source: str
    indexes: tuple[ExtensionIndex, ...]
    versions: tuple[ExtensionVersion, ...]
    builds: tuple[ExtensionBuild, ...]


class Matrix(Row):
    """Everything under matrices/, validated."""

    releases: tuple[Release, ...]
    pip: tuple[PipBuild, ...]
    conda: tuple[CondaBuild, ...]
    conda_forge: tuple[CondaBuild, ...] = ()
    drivers: tuple[Driver, ...]
    known_issues: tuple[KnownIssue, ...]
    gpu_archs: tuple[GpuArchs, ...] = ()
    minor_compat: tuple[MinorCompat, ...] = ()
    companions: tuple[CompanionRelease, ...] = ()
    extensions: tuple[Extension, ...] = ()

    # --- queries -----------------------------------------------------------------------------
    def release(self, torch: str) -> Release | None:
        """The release row `torch` names, compared as pip compares versions.

        "1.10" is 1.10.0 (PEP 440 pads with zeros) and a local label ("1.7.0+cu110") names its
        public release; a post-release ("0.4.1.post2") is found by `release_of`, not here.
        """
        try:
            wanted = Version(torch)
        except InvalidVersion:
            return None
        if wanted.local is not None:
            wanted = Version(wanted.public)
        return self._by_version.get(wanted)

    def release_of(self, torch: str) -> Release | None:
        """Like `release`, but a post-release maps to the release row it follows.

        >>> from envgen.model.matrix import load_matrix
        >>> m = load_matrix()
        >>> m.release_of("1.10").torch, m.release_of("0.4.1.post2").torch, m.release_of("9.9")
        ('1.10.0', '0.4.1', None)
        """
        found = self.release(torch)
        if found is not None:
            return found
        try:
            wanted = Version(torch)
        except InvalidVersion:
            return None
        if wanted.is_postrelease and not wanted.is_devrelease:
            return self._by_version.get(Version(wanted.base_version))
        return None

    @functools.cached_property
    def _by_version(self) -> dict[Version, Release]:
        return {r.version: r for r in self.releases}

    def companion(self, package: str, version: str) -> CompanionRelease | None:
        """The companion release row (versions compared as pip compares them)."""
        try:
            wanted = Version(version)
        except InvalidVersion:
            return None
        return self._companions_by_version.get((package, wanted))

    @functools.cached_property
    def _companions_by_version(self) -> dict[tuple[str, Version], CompanionRelease]:
        return {(c.package, Version(c.version)): c for c in self.companions}

    def pip_builds(self, release: str, platform: Platform | None = None) -> tuple[PipBuild, ...]:
        return tuple(
            b
            for b in self.pip
            if b.release == release and (platform is None or platform in b.platforms)
        )

    def conda_builds(
        self, release: str, platform: Platform | None = None, source: CondaSource = "pytorch"
    ) -> tuple[CondaBuild, ...]:
        """Conda builds of a release from one source (default: PyTorch's own channels)."""
        rows = self.conda if source == "pytorch" else self.conda_forge
        return tuple(
            b
            for b in rows
            if b.release == release and (platform is None or platform in b.platforms)
        )

    def default_conda_source(self, release: str) -> CondaSource:
        """PyTorch's own channels where they published the release, conda-forge otherwise.

        >>> m = load_matrix()
        >>> m.default_conda_source("2.5.1"), m.default_conda_source("2.6.0")
        ('pytorch', 'conda-forge')
        """
        return "pytorch" if any(b.release == release for b in self.conda) else "conda-forge"

    def accelerators(
        self,
        release: str,
        platform: Platform | None = None,
        manager: Manager | None = None,
        *,
        conda_source: CondaSource | None = None,
    ) -> tuple[AcceleratorId, ...]:
        """Accelerators published for a release, ordered cpu, cuda (ascending), rocm, xpu.

        The conda side counts `conda_source` (default: the release's default source).
        """
        found: set[tuple[str, str | None]] = set()
        if manager in (None, "pip"):
            found |= {(b.kind, b.version) for b in self.pip_builds(release, platform)}
        if manager in (None, "conda"):
            source = conda_source or self.default_conda_source(release)
            found |= {(b.kind, b.version) for b in self.conda_builds(release, platform, source)}
        return tuple(accelerator_id(k, v) for k, v in sorted(found, key=_compute_key))  # type: ignore[arg-type]

    def driver_for(self, cuda: str) -> Driver | None:
        for d in self.drivers:
            if d.cuda == cuda:
                return d
        return None

    def arch_row(
        self, release: str, kind: str, version: str, platform: Platform
    ) -> GpuArchs | None:
        """The gpu-archs.yaml row for one cuda/rocm build (None: no data for it)."""
        parsed = Version(release)
        for row in self.gpu_archs:
            if (
                row.kind == kind
                and version in row.versions
                and platform in row.platforms
                and SpecifierSet(row.torch).contains(parsed, prereleases=True)
            ):
                return row
        return None


_KIND_ORDER: Final = {"cpu": 0, "cuda": 1, "rocm": 2, "xpu": 3}


def _compute_key(item: tuple[str, str | None]) -> tuple[int, tuple[int, ...]]:
    kind, version = item
    nums = tuple(int(p) for p in version.split(".")) if version else ()
    return (_KIND_ORDER[kind], nums)


def compute_sort_key(kind: str, version: str | None) -> tuple[int, tuple[int, ...]]:
    """Order accelerators: cpu, then CUDA ascending, then ROCm ascending, then xpu."""
    return _compute_key((kind, version))


# --- loading ---------------------------------------------------------------------------------
MATRIX_FILES: Final[dict[str, str]] = {
    "releases": "releases.yaml",
    "pip": "pip.yaml",
    "conda": "conda.yaml",
    "conda_forge": "conda-forge.yaml",
    "drivers": "drivers.yaml",
    "known_issues": "known-issues.yaml",
    "companions": "companions.yaml",
    "gpu_archs": "gpu-archs.yaml",
    "minor_compat": "minor-compat.yaml",
    "extensions": "extensions.yaml",
}
# Files a matrix directory may leave out (an empty list of rows then: for the GPU files, its GPU
# facts are unknown, never wrong; a test matrix without extensions).
OPTIONAL_FILES: Final = frozenset({"companions", "gpu_archs", "minor_compat", "extensions"})


def _read_rows(path: Path, *, optional: bool = False) -> list[Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if optional:
            return []
        msg = f"{path}: matrix file is missing"
        raise MatrixError(msg, hint="run `make refresh-matrix` or restore it from git") from None
    import yaml  # noqa: PLC0415 - ~10 ms; only on a matrix-cache miss

    try:
        # libyaml's parser when PyYAML has it: ~15x faster on the matrix than the pure-Python one.
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        data = yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader either way
    except yaml.YAMLError as exc:
        msg = f"{path}: not valid YAML: {exc}"
        raise MatrixError(msg) from None
    if data is None:
        return []
    if not isinstance(data, list):
        msg = f"{path}: expected a list of rows, got {type(data).__name__}"
        raise MatrixError(msg)
    return data


_Model = TypeVar("_Model", bound="BaseModel")


def read_model_rows(path: Path, model: type[_Model]) -> tuple[_Model, ...]:
    """The rows of a side data file (cuda-images.yaml, base-images.yaml) validated as `model`.

    MatrixError names the file and the first invalid value; the callers check their own
    invariants (order, duplicates) on the result.
    """
    try:
        rows = _read_rows(path)
    except OSError as exc:  # a folder, a link loop, no permission (a missing file is said above)
        msg = f"{path}: cannot be read: {exc.strerror or exc}"
        raise MatrixError(msg) from None
    from pydantic import ValidationError  # noqa: PLC0415 - ~50 ms; the side files' models are pydantic's

    try:
        return tuple(model.model_validate(r) for r in rows)
    except ValidationError as exc:
        first = exc.errors()[0]
        msg = f"{path}: invalid row: {first['loc']}: {first['msg']}"
        raise MatrixError(msg) from None


def _format_validation(path: Path, exc: ValidationError, rows: list[Any]) -> str:
    lines = [f"{path}: {exc.error_count()} invalid value(s)"]
    for err in exc.errors()[:20]:
        loc = list(err["loc"])
        where = ".".join(str(p) for p in loc)
        if len(loc) >= 2 and loc[0] in MATRIX_FILES and isinstance(loc[1], int):
            row = rows[loc[1]] if loc[1] < len(rows) else None
            where = f"row {loc[1] + 1} ({_row_label(row)}) " + ".".join(str(p) for p in loc[2:])
        lines.append(f"  - {where}: {err['msg']}")
    return "\n".join(lines)


def _row_label(row: object) -> str:
    if isinstance(row, dict):
        return ", ".join(
            f"{k}={row[k]}"
            for k in ("torch", "release", "kind", "version", "id", "cuda", "name")
            if k in row
        )
    return repr(row)


def load_matrix(
    directory: Path | None = None, *, cache_root: Path | None = None, trust_shipped: bool = True
) -> Matrix:
    """Load and validate every matrix file under `directory` (default: the bundled matrices/).

    `cache_root` (Settings.cache_root) keeps the validated matrix in `<cache_root>/matrix/`;
    None reads it again in each process (once per process: the result is memoized). On a cache
    miss the bundled matrices/ is taken from its shipped validated form (`SHIPPED_FILE`) when
    that was made from these very YAML bytes; any other directory (ENVGEN_MATRIX), a changed
    file, or `trust_shipped=False` (`envgen matrix validate`) validates the YAML with pydantic.
    """
    return _load_matrix_cached(directory or MATRICES_DIR, cache_root, trust_shipped=trust_shipped)


# The sources whose code decides what a valid matrix is: part of the cache key, so a cached
# matrix validated by other models (another envgen version) is never read.
_MODEL_SOURCES: Final = (
    Path(__file__),
    Path(__file__).with_name("matrix_schema.py"),
    Path(__file__).with_name("types.py"),
)
CACHE_FORMAT: Final = 4  # 4: marshal, not JSON (half the decode time of ~700 kB)


def _parsed_cache_path(directory: Path, cache_root: Path | None) -> Path | None:
    """A content-addressed copy of the validated matrix (None when a file is unreadable).

    Parsing and validating ~500 YAML rows costs ~0.2 s; the copy (the validated JSON data,
    written with `marshal`, which decodes it about twice as fast as `json`), keyed by the sha256
    of the files' bytes and of the models' source, loads in milliseconds without pydantic
    validating it again, and can never be stale: it is written only after the matrix passed
    validation and `check_invariants`. marshal's format is the running Python's: the key holds
    its version, so another Python writes its own copy.
    """
    if cache_root is None:
        return None
    digest = hashlib.sha256(
        f"format {CACHE_FORMAT} {marshal.version} {sys.version_info[:2]}\0".encode()
    )
    try:
        for source in _MODEL_SOURCES:
            digest.update(source.read_bytes() + b"\0")
    except OSError:
        return None
    if not _digest_files(directory, digest):
        return None
    return cache_root / "matrix" / f"{digest.hexdigest()}.marshal"


def _digest_files(directory: Path, digest: hashlib._Hash) -> bool:
    """Feed the matrix files' names and bytes to `digest` (False when one is unreadable)."""
    for key, name in MATRIX_FILES.items():
        path = directory / name
        if key in OPTIONAL_FILES and not path.exists():
            digest.update(name.encode() + b"\0-\0")
            continue
        try:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            return False
    return True


# The bundled matrix, validated when it was generated (`make schema`, scripts/gen_schema.py):
# the JSON form a cache miss would build, with the sha256 of the YAML it was made from.
# tests/unit/model/test_matrix_shipped.py fails when it is not what validating the committed
# YAML with pydantic gives now, so the test suite is what proves it valid; at run time it is
# taken only for the bundled directory and only while its recorded digest is the files'.
SHIPPED_FILE: Final = "validated.json"
SHIPPED_FORMAT: Final = 1
_GENERATED_LINE: Final = (
    '"generated": "by `make schema` (scripts/gen_schema.py) from the matrix files, validated; '
    'do not edit",'
)


def shipped_digest(directory: Path) -> str | None:
    """The sha256 a shipped form records: the matrix files' names and bytes (None: unreadable)."""
    digest = hashlib.sha256(f"envgen shipped matrix {SHIPPED_FORMAT}\0".encode())
    return digest.hexdigest() if _digest_files(directory, digest) else None


def shipped_matrix_text(directory: Path = MATRICES_DIR) -> str:
    """`directory`'s matrix validated through the schema models (pydantic and the invariants,
    as a cache miss does), as the shipped file's text: one row per line, so a changed row is a
    one-line diff. Raises MatrixError as loading would."""
    import json  # noqa: PLC0415 - only when generating

    _, validated = _validate(directory, _read_raw(directory))
    lines = [
        "{",
        _GENERATED_LINE,
        f'"format": {SHIPPED_FORMAT},',
        f'"sha256": "{shipped_digest(directory)}",',
        '"matrix": {',
    ]
    for i, (key, rows) in enumerate(validated.items()):
        lines.append(f'"{key}": [')
        lines.extend(
            json.dumps(row) + ("," if j < len(rows) - 1 else "") for j, row in enumerate(rows)
        )
        lines.append("]" + ("," if i < len(validated) - 1 else ""))
    lines += ["}", "}"]
    return "\n".join(lines) + "\n"


def _from_shipped(directory: Path) -> tuple[Matrix, dict[str, Any]] | None:
    """`directory`'s shipped validated form, or None (then the YAML is validated): no file, not
    this format, or made from other bytes than the files hold now."""
    import json  # noqa: PLC0415 - only on a matrix-cache miss

    try:
        data = json.loads((directory / SHIPPED_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != SHIPPED_FORMAT:
        return None
    digest = shipped_digest(directory)
    validated = data.get("matrix")
    if digest is None or data.get("sha256") != digest or not isinstance(validated, dict):
        log.debug("%s: not made from these matrix files; validating them", SHIPPED_FILE)
        return None
    if set(validated) != set(Matrix.model_fields):
        return None
    try:
        return Matrix.from_json(validated), validated
    except (TypeError, AttributeError, ValueError, KeyError):  # not this code's: validate instead
        return None


def _read_raw(directory: Path) -> dict[str, list[Any]]:
    return {
        key: _read_rows(directory / name, optional=key in OPTIONAL_FILES)
        for key, name in MATRIX_FILES.items()
    }


def _from_cache(cache: Path) -> Matrix | None:
    """The cached matrix, or None (a miss validates the YAML). Read as envgen reads its own
    outputs: a link, a device or an oversized file in the cache's place is a miss, not followed."""
    try:
        raw = read_output(cache)
        cached = marshal.loads(raw) if raw is not None else None  # noqa: S302 - envgen's own cache, plain data (see _parsed_cache_path)
    except (OSError, ValueError, EOFError, TypeError, FileSystemError):
        return None
    if not isinstance(cached, dict) or set(cached) != set(Matrix.model_fields):
        return None
    try:
        return Matrix.from_json(cached)
    except (TypeError, AttributeError, ValueError, KeyError):  # not this code's: validate instead
        return None


@functools.cache
def _load_matrix_cached(directory: Path, cache_root: Path | None, *, trust_shipped: bool) -> Matrix:
    cache = _parsed_cache_path(directory, cache_root) if trust_shipped else None
    if cache is not None:
        cached = _from_cache(cache)
        if cached is not None:
            return cached
    # Only the bundled directory's: a user's ENVGEN_MATRIX (or a copy of matrices/ elsewhere,
    # shipped file and all) is validated in full.
    shipped = _from_shipped(directory) if trust_shipped and directory == MATRICES_DIR else None
    matrix, validated = shipped or _validate(directory, _read_raw(directory))
    if cache is not None:
        try:
            atomic_write_bytes(cache, marshal.dumps(validated))
        except OSError:
            log.debug("cannot write the matrix cache %s", cache)
    return matrix


def _validate(directory: Path, raw: dict[str, list[Any]]) -> tuple[Matrix, dict[str, Any]]:
    """The matrix validated through the schema models, and its JSON form (what the cache holds).

    The runtime matrix is built from that JSON, as a cache hit builds it, so a hit and a miss
    give equal matrices by construction.
    """
    from pydantic import ValidationError  # noqa: PLC0415 - ~50 ms: only on a cache miss and for `matrix validate`

    from envgen.model import matrix_schema  # noqa: PLC0415 - pydantic's models: only when validating

    for key, rows in raw.items():
        try:
            matrix_schema.Matrix.model_validate({**dict.fromkeys(MATRIX_FILES, ()), key: rows})
        except ValidationError as exc:
            raise MatrixError(
                _format_validation(directory / MATRIX_FILES[key], exc, rows)
            ) from None
    validated = matrix_schema.Matrix.model_validate(raw).model_dump(mode="json")
    matrix = Matrix.from_json(validated)
    problems = check_invariants(matrix)
    if problems:
        msg = f"{directory}: the matrix is inconsistent\n" + "\n".join(f"  - {p}" for p in problems)
        raise MatrixError(msg)
    return matrix, validated


def _dupes(keys: Iterable[object]) -> list[object]:
    seen: set[object] = set()
    dupes: list[object] = []
    for k in keys:
        if k in seen:
            dupes.append(k)
        seen.add(k)
    return dupes


def check_invariants(matrix: Matrix) -> list[str]:  # noqa: PLR0912 - a flat list of independent invariants, one branch each
    """Return every invariant the matrix breaks (an empty list when it is consistent)."""
    problems: list[str] = []
    versions = [r.torch for r in matrix.releases]
    for v in versions:
        try:
            Version(v)
        except InvalidVersion:
            problems.append(f"releases.yaml: {v!r} is not a version")
    if problems:
        return problems
    if [Version(v) for v in versions] != sorted(Version(v) for v in versions):
        problems.append("releases.yaml: rows must be sorted by torch version, oldest first")
    problems += [f"releases.yaml: torch {d} is listed twice" for d in _dupes(versions)]
    known = set(versions)
    for name, builds in (
        ("pip.yaml", matrix.pip),
        ("conda.yaml", matrix.conda),
        ("conda-forge.yaml", matrix.conda_forge),
    ):
        for b in builds:
            if b.release not in known:
                problems.append(f"{name}: release {b.release} is not in releases.yaml")
            if (b.kind in ("cuda", "rocm")) != (b.version is not None):
                problems.append(
                    f"{name}: release {b.release} {b.kind}: a version is required for cuda/rocm "
                    "and forbidden otherwise"
                )
        keys = [(b.release, p, b.kind, b.version) for b in builds for p in b.platforms]
        problems += [f"{name}: duplicate build {d}" for d in _dupes(keys)]
    for b in matrix.conda_forge:
        if b.form != "conda-forge" or b.channels != ("conda-forge",):
            problems.append(
                f"conda-forge.yaml: release {b.release} {b.accelerator}: needs form conda-forge "
                "and channels [conda-forge]"
            )
    for b in matrix.conda:
        if b.form == "conda-forge":
            problems.append(
                f"conda.yaml: release {b.release} {b.accelerator}: conda-forge rows belong in "
                "conda-forge.yaml"
            )
    for b in matrix.pip:
        if b.index != "pypi" and not b.url:
            problems.append(
                f"pip.yaml: release {b.release} {b.accelerator}: index {b.index} needs a url"
            )
    problems += [
        f"drivers.yaml: CUDA {d} listed twice" for d in _dupes(d.cuda for d in matrix.drivers)
    ]
    problems += [
        f"known-issues.yaml: id {d} listed twice" for d in _dupes(k.id for k in matrix.known_issues)
    ]
    for c in matrix.companions:
        try:
            SpecifierSet(c.torch)
        except InvalidSpecifier:
            problems.append(
                f"companions.yaml: {c.package} {c.version}: torch {c.torch!r} is not a specifier"
            )
    problems += [
        f"companions.yaml: {d} listed twice"
        for d in _dupes(f"{c.package} {Version(c.version)}" for c in matrix.companions)
    ]
    problems += _extension_problems(matrix.extensions)
    problems += _gpu_problems(matrix)
    return problems


def _gpu_problems(matrix: Matrix) -> list[str]:
    problems: list[str] = []
    covered: list[tuple[str, str, str]] = []
    for row in matrix.gpu_archs:
        try:
            spec = SpecifierSet(row.torch)
        except InvalidSpecifier:
            problems.append(f"gpu-archs.yaml: {row.torch!r} is not a PEP 440 specifier")
            continue
        releases = [r.torch for r in matrix.releases if spec.contains(r.version, prereleases=True)]
        if not releases:
            problems.append(
                f"gpu-archs.yaml: torch {row.torch} matches no release in releases.yaml"
            )
        if bool(row.cuda) == bool(row.rocm):
            problems.append(f"gpu-archs.yaml: torch {row.torch}: a row has cuda or rocm, not both")
        items = row.arch_list.split(";")
        if any(i.startswith("gfx") for i in items) != (row.kind == "rocm") or (
            row.kind == "rocm" and not all(i.startswith("gfx") for i in items)
        ):
            problems.append(
                f"gpu-archs.yaml: torch {row.torch} {row.kind}: arch-list {row.arch_list!r} "
                "needs X.Y items for cuda rows and gfx targets for rocm rows"
            )
        covered += [
            (t, f"{row.kind} {v}", p) for t in releases for v in row.versions for p in row.platforms
        ]
    seen: set[tuple[str, str, str]] = set()
    for key in covered:
        if key in seen:
            problems.append(
                f"gpu-archs.yaml: torch {key[0]} {key[1]} on {key[2]} is covered by more "
                "than one row"
            )
        seen.add(key)
    problems += [
        f"minor-compat.yaml: CUDA {d}.x listed twice"
        for d in _dupes(m.cuda_major for m in matrix.minor_compat)
    ]
    return problems


def _extension_problems(extensions: tuple[Extension, ...]) -> list[str]:
    """extensions.yaml invariants: unique names, builds naming listed versions, valid specifiers."""
    problems = [f"extensions.yaml: {d} listed twice" for d in _dupes(e.name for e in extensions)]
    for ext in extensions:
        known = {v.version for v in ext.versions}
        problems += [
            f"extensions.yaml: {ext.name}: version {d} listed twice"
            for d in _dupes(v.version for v in ext.versions)
        ]
        for index in ext.indexes:
            try:
                SpecifierSet(index.torch)
            except InvalidSpecifier:
                problems.append(f"extensions.yaml: {ext.name}: index torch {index.torch!r}")
            if index.form in ("find-links", "extra-index-url", "direct-url") and not index.url:
                problems.append(f"extensions.yaml: {ext.name}: a {index.form} index needs a url")
        for b in ext.builds:
            problems += [
                f"extensions.yaml: {ext.name}: build version {v} is not in its versions"
                for v in b.versions
                if v not in known
            ]
            problems += [
                f"extensions.yaml: {ext.name}: accelerator {a!r} is not cpu or cuXYZ"
                for a in b.accelerators
                if a != "cpu" and not (a.startswith("cu") and a[2:].isdigit())
            ]
    return problems


def matrix_json_schema() -> dict[str, Any]:
    """The JSON schema of the matrix files (written to matrices/schema.json)."""
    from envgen.model import matrix_schema  # noqa: PLC0415 - pydantic (~50 ms): only for the schema

    return matrix_schema.matrix_json_schema()
