"""The PyTorch compatibility matrix: matrices/*.yaml loaded into validated, frozen models.

These pydantic models ARE the data schema (scripts/gen_schema.py writes matrices/schema.json
from them).
The loader checks invariants (known keys, sorted rows, no duplicates, companions that exist).
This module must not fetch anything from the network, and must not know about specs or variants.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import typing
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Final, Literal, Self, TypeVar

import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from envgen.errors import MatrixError
from envgen.infra.files import atomic_write_bytes
from envgen.infra.resources import MATRICES_DIR
from envgen.model.types import (
    AcceleratorId,
    ComputeKind,
    CondaForm,
    CondaSource,
    IndexForm,
    Manager,
    Platform,
)

SCHEMA_VERSION: Final = 1
log = logging.getLogger(__name__)


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class StrictModel(BaseModel):
    """Unknown keys are errors, instances are frozen, and YAML keys are kebab-case.

    `defer_build`: a model's validator is built on its first validation, not at import (~60 ms
    for these models); a command that loads the matrix from its cache never validates.
    """

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=_kebab, populate_by_name=True, defer_build=True
    )


VersionStr = Annotated[str, Field(pattern=r"^\d+(\.\d+)*([a-z]+\d+)?(\.post\d+)?$")]
LocalVersionStr = Annotated[str, Field(pattern=r"^\d+(\.\d+)*(\.post\d+)?(\+[a-z0-9.]+)?$")]
PythonStr = Annotated[str, Field(pattern=r"^3\.\d+$|^2\.7$")]


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


class Release(StrictModel):
    """One torch release and what it was published with (releases.yaml)."""

    torch: VersionStr
    torchvision: VersionStr | None = Field(
        description="The torchvision release paired with this torch (torchvision README table)."
    )
    torchaudio: VersionStr | None = Field(
        description="The torchaudio release paired with this torch (torchaudio docs)."
    )
    python: tuple[PythonStr, ...] = Field(description="Python versions with published wheels.")
    date: str | None = Field(
        default=None, pattern=r"^\d{4}-\d{2}-\d{2}$", description="Upload date on PyPI."
    )
    source: str = Field(description="Where the row's facts come from.")
    inferred: tuple[str, ...] = Field(
        default=(), description="Names of fields that were inferred rather than read."
    )

    @property
    def version(self) -> Version:
        return Version(self.torch)


class Compute(StrictModel):
    """Mixin-like fields shared by pip and conda build rows."""

    kind: ComputeKind
    version: str | None = Field(
        default=None, description="CUDA / ROCm version, e.g. '11.8', '5.1.1'; none for cpu."
    )

    @property
    def accelerator(self) -> AcceleratorId:
        return accelerator_id(self.kind, self.version)


class PipBuild(Compute):
    """How one torch release was published for pip on some platforms and one compute platform."""

    release: VersionStr
    platforms: tuple[Platform, ...]
    torch: LocalVersionStr = Field(description="The exact torch pin, with its local label.")
    torchvision: LocalVersionStr | None = None
    torchaudio: LocalVersionStr | None = None
    index: IndexForm
    url: str | None = Field(default=None, description="The -f / index URL as published.")
    wheel: str | None = Field(
        default=None,
        description="The torch wheel's own URL, `{abi}` standing for the CPython tags "
        "(cp36-cp36m): requirements name it directly (`torch @ URL`) where `torch==X -f url` "
        "would let a resolver take PyPI's same-version wheel, a different build (1.0-1.1 Linux).",
    )
    pypi_default: bool = Field(
        default=False, description="PyPI's own wheel for these platforms is this build."
    )
    published: str | None = Field(
        default=None,
        description="The install command exactly as published, where it is not what envgen "
        "renders from this row (the 1.8.2 LTS `pip3`, unpinned LTS conda lines); "
        "`envgen command` prints it, files use the row's pins.",
    )
    source: str
    inferred: bool = False

    @model_validator(mode="after")
    def _wheel_is_a_template(self) -> Self:
        if self.wheel is not None and (
            "{abi}" not in self.wheel or not self.wheel.endswith(".whl") or self.index == "pypi"
        ):
            msg = (
                f"wheel {self.wheel!r}: a .whl URL with {{abi}} for the CPython tags, on a row "
                "with its wheel page (index: find-links)"
            )
            raise ValueError(msg)
        return self

    def wheel_url(self, python: str) -> str | None:
        """The torch wheel for `python` where the row names its wheel, else None.

        >>> b = PipBuild(kind="cpu", release="1.0.0", platforms=("linux-64",), torch="1.0.0",
        ...     index="find-links", url="https://x/torch_stable.html", source="s",
        ...     wheel="https://x/torch-1.0.0-{abi}-linux_x86_64.whl")
        >>> b.wheel_url("3.6"), b.wheel_url("2.7")
        ('https://x/torch-1.0.0-cp36-cp36m-linux_x86_64.whl', 'https://x/torch-1.0.0-cp27-cp27mu-linux_x86_64.whl')
        """
        if self.wheel is None:
            return None
        return self.wheel.replace("{abi}", cpython_abi_tags(python))


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
    python: tuple[PythonStr, ...] | None = Field(
        default=None,
        description="conda-forge rows: every python the feedstock built for this release on these "
        "platforms (scripts/refresh_conda_forge.py, from .ci_support `python:`); absent: not "
        "recorded (the pytorch channel's rows), any python of the release goes.",
    )
    form: CondaForm = Field(description="How the compute platform is selected.")
    channels: tuple[str, ...]
    published: str | None = Field(
        default=None,
        description="The install command exactly as published, where it is not what envgen "
        "renders from this row (the 1.8.2 LTS `pip3`, unpinned LTS conda lines); "
        "`envgen command` prints it, files use the row's pins.",
    )
    pinned: bool = Field(
        default=True,
        description="false: the published command names pytorch/torchvision/torchaudio without "
        "versions (the 1.8.2 LTS commands on -c pytorch-lts); the pins here are inferred.",
    )
    source: str
    inferred: bool = False


class Driver(StrictModel):
    """CUDA toolkit version -> minimum NVIDIA driver (NVIDIA's CUDA release notes, table 3)."""

    cuda: str
    linux: str
    windows: str | None = None
    source: str


class KnownIssue(StrictModel):
    """A publishing error, a deleted artifact or a known trap, surfaced as a warning or error."""

    id: str
    torch: str = Field(description="A PEP 440 specifier of the torch releases affected.")
    manager: Manager | Literal["any"] = "any"
    accelerators: tuple[str, ...] = Field(
        default=(), description="fnmatch patterns of affected accelerators; empty = all."
    )
    index: IndexForm | None = None
    channel: str | None = None
    form: CondaForm | None = Field(
        default=None, description="conda rows only: the issue applies to this selector form only."
    )
    severity: Literal["warning", "error"] = Field(
        default="warning",
        description="error: the route does not work (the side is dropped, or the spec fails when "
        "it asks for that manager explicitly); warning: it works with a trap.",
    )
    silenced_by: str | None = Field(
        default=None,
        description="A pip requirement such as 'numpy<2': the issue is silent when the spec's pip "
        "list already excludes what the requirement excludes.",
    )
    message: str
    fix: str
    link: str


ArchListStr = Annotated[
    str,
    Field(pattern=r"^(\d+\.\d+(\+PTX)?|gfx[0-9a-f]+)(;(\d+\.\d+(\+PTX)?|gfx[0-9a-f]+))*$"),
]


class GpuArchs(StrictModel):
    """The GPU architectures one group of torch builds was compiled for (gpu-archs.yaml): CUDA
    SM/PTX targets for `cuda` rows, AMD gfx targets for `rocm` rows."""

    torch: str = Field(description="A PEP 440 specifier of the torch releases the row covers.")
    cuda: tuple[Annotated[str, Field(pattern=r"^\d+\.\d+$")], ...] = Field(
        default=(), description="The CUDA versions (major.minor) the row covers."
    )
    rocm: tuple[Annotated[str, Field(pattern=r"^\d+(\.\d+)*$")], ...] = Field(
        default=(), description="The ROCm versions the row covers (a row has cuda or rocm)."
    )
    platforms: tuple[Platform, ...] = Field(min_length=1)
    arch_list: ArchListStr = Field(
        description="TORCH_CUDA_ARCH_LIST as the release's build script set it ('5.0;9.0+PTX'), "
        "or PYTORCH_ROCM_ARCH ('gfx90a;gfx942')."
    )
    source: str = Field(description="The build script at the commit read, or the copy read.")
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


class MinorCompat(StrictModel):
    """NVIDIA's minimum driver for CUDA minor-version compatibility in one CUDA major."""

    cuda_major: int = Field(ge=11, description="The CUDA major release family (11 and later).")
    linux: str = Field(pattern=r"^\d+(\.\d+)*$")
    windows: str | None = Field(default=None, pattern=r"^\d+(\.\d+)*$")
    source: str


class CompanionRelease(StrictModel):
    """One torchvision / torchaudio release and the torch releases its wheel accepts."""

    package: Literal["torchvision", "torchaudio"]
    version: VersionStr
    torch: str = Field(
        description="The PEP 440 specifier of the wheel's `torch` Requires-Dist line, local "
        "labels dropped; empty when the wheel names torch unpinned or not at all."
    )
    source: str = Field(description="The wheel whose METADATA gave the requirement.")

    @functools.cached_property
    def specifier(self) -> SpecifierSet:
        return SpecifierSet(self.torch)

    @property
    def exact(self) -> bool:
        """True when the requirement names one torch release series with `==`."""
        return any(s.operator in ("==", "===") for s in self.specifier)


ExtensionForm = Literal["find-links", "extra-index-url", "pypi", "pytorch-index", "direct-url"]


class ExtensionIndex(StrictModel):
    """Where an extension's wheels live for an era of torch releases (extensions.yaml)."""

    torch: str = Field(description="A PEP 440 specifier of the torch releases this form serves.")
    form: ExtensionForm = Field(
        description="find-links / extra-index-url: a line in requirements.txt; pypi: PyPI itself; "
        "pytorch-index: the variant's own PyTorch index; direct-url: a `name @ url` requirement."
    )
    url: str | None = Field(
        default=None,
        description="URL template: {accelerator} {torch_minor} {torch_nodot} {python_nodot} "
        "{version} {cuda_build} {cxx11abi}.",
    )
    cpu_url: str | None = Field(default=None, description="URL template for cpu variants.")
    moved_from: tuple[str, ...] = Field(
        default=(),
        description="Earlier hosts of the same pages (URL prefixes), recognised on import.",
    )
    import_urls: tuple[str, ...] = Field(
        default=(),
        description="Other published URL templates of the same pages, recognised on import.",
    )
    source: str
    inferred: bool = False


class ExtensionVersion(StrictModel):
    """One release of an extension and its date (the upstream git tag's date)."""

    version: VersionStr
    date: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2}$")


class ExtensionBuild(StrictModel):
    """Versions of an extension built for some torch releases x accelerators x pythons."""

    versions: tuple[VersionStr, ...]
    torch: tuple[str, ...] = Field(
        description='Torch series ("1.12": every 1.12.x), exact releases ("2.1.2") or specifiers.'
    )
    accelerators: tuple[str, ...]
    python: tuple[PythonStr, ...] = Field(default=(), description="Empty: not recorded.")
    platforms: tuple[Platform, ...] = ("linux-64",)
    package: str | None = Field(
        default=None, description="The pip name of these wheels when it differs per accelerator."
    )
    cuda_build: str | None = Field(
        default=None, description="The CUDA a direct-url wheel names (flash-attn: 118, 122, 12)."
    )
    source: str | None = Field(default=None, description="Overrides the extension's source.")
    inferred: bool = False


class Extension(StrictModel):
    """A compiled torch extension: index forms, versions and what was built (extensions.yaml)."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="The canonical pip name.")
    import_name: str = Field(alias="import", description="The module the smoke test imports.")
    aliases: tuple[str, ...] = Field(
        default=(), description="fnmatch patterns of other pip names meaning this extension."
    )
    source: str
    indexes: tuple[ExtensionIndex, ...]
    versions: tuple[ExtensionVersion, ...]
    builds: tuple[ExtensionBuild, ...]


class Matrix(StrictModel):
    """Everything under matrices/, validated."""

    releases: tuple[Release, ...]
    pip: tuple[PipBuild, ...]
    conda: tuple[CondaBuild, ...]
    conda_forge: tuple[CondaBuild, ...] = Field(
        default=(),
        description="conda-forge's pytorch builds (pytorch-cpu-feedstock and the torchvision / "
        "torchaudio feedstocks), one row per release, platform group and CUDA version.",
    )
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


_YAML_LOADER: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


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
    try:
        # libyaml's parser when PyYAML has it: ~15x faster on the matrix than the pure-Python one,
        # and the matrix is read on every command.
        data = yaml.load(text, Loader=_YAML_LOADER)  # noqa: S506 - a safe loader either way
    except yaml.YAMLError as exc:
        msg = f"{path}: not valid YAML: {exc}"
        raise MatrixError(msg) from None
    if data is None:
        return []
    if not isinstance(data, list):
        msg = f"{path}: expected a list of rows, got {type(data).__name__}"
        raise MatrixError(msg)
    return data


_Row = TypeVar("_Row", bound=BaseModel)


def read_model_rows(path: Path, model: type[_Row]) -> tuple[_Row, ...]:
    """The rows of a side data file (cuda-images.yaml, base-images.yaml) validated as `model`.

    MatrixError names the file and the first invalid value; the callers check their own
    invariants (order, duplicates) on the result.
    """
    try:
        rows = _read_rows(path)
    except OSError as exc:  # a folder, a link loop, no permission (a missing file is said above)
        msg = f"{path}: cannot be read: {exc.strerror or exc}"
        raise MatrixError(msg) from None
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


def load_matrix(directory: Path | None = None, *, cache_root: Path | None = None) -> Matrix:
    """Load and validate every matrix file under `directory` (default: the bundled matrices/).

    `cache_root` (Settings.cache_root) keeps the validated matrix as JSON in `<cache_root>/matrix/`;
    None reads and validates the YAML every time (once per process: the result is memoized).
    """
    return _load_matrix_cached(directory or MATRICES_DIR, cache_root)


# The sources whose code decides what a valid matrix is: part of the cache key, so a cached
# matrix validated by other models (another envgen version) is never read.
_MODEL_SOURCES: Final = (Path(__file__), Path(__file__).with_name("types.py"))
CACHE_FORMAT: Final = 2


def _parsed_cache_path(directory: Path, cache_root: Path | None) -> Path | None:
    """A content-addressed JSON copy of the validated matrix (None when a file is unreadable).

    Parsing and validating ~500 YAML rows costs ~0.2 s; the JSON copy, keyed by the sha256 of the
    files' bytes and of the models' source, loads in milliseconds without pydantic validating it
    again, and can never be stale: it is written only after the matrix passed validation and
    `check_invariants`.
    """
    if cache_root is None:
        return None
    digest = hashlib.sha256(f"format {CACHE_FORMAT}\0".encode())
    try:
        for source in _MODEL_SOURCES:
            digest.update(source.read_bytes() + b"\0")
    except OSError:
        return None
    for key, name in MATRIX_FILES.items():
        path = directory / name
        if key in OPTIONAL_FILES and not path.exists():
            digest.update(name.encode() + b"\0-\0")
            continue
        try:
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            return None
    return cache_root / "matrix" / f"{digest.hexdigest()}.json"


def _read_raw(directory: Path) -> dict[str, list[Any]]:
    return {
        key: _read_rows(directory / name, optional=key in OPTIONAL_FILES)
        for key, name in MATRIX_FILES.items()
    }


@functools.cache
def _nested(model: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """The fields of `model` that hold a tuple of models, and the model of their items."""
    nested: dict[str, type[BaseModel]] = {}
    for name, info in model.model_fields.items():
        args = typing.get_args(info.annotation)
        if args and isinstance(args[0], type) and issubclass(args[0], BaseModel):
            nested[name] = args[0]
    return nested


def _construct(model: type[_Row], data: dict[str, Any]) -> _Row:
    """Rebuild a model from its validated `model_dump(mode="json")`, without validating again.

    Every matrix field is a scalar, a tuple of scalars or a tuple of models (JSON gave lists).
    """
    nested = _nested(model)
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name in nested:
            values[name] = tuple(_construct(nested[name], item) for item in value)
        elif isinstance(value, list):
            values[name] = tuple(value)
        else:
            values[name] = value
    return model.model_construct(**values)


def _from_cache(cache: Path) -> Matrix | None:
    try:
        cached = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(cached, dict) or set(cached) != set(Matrix.model_fields):
        return None
    try:
        return _construct(Matrix, cached)
    except (TypeError, AttributeError, ValueError):  # not written by this code: validate instead
        return None


@functools.cache
def _load_matrix_cached(directory: Path, cache_root: Path | None) -> Matrix:
    cache = _parsed_cache_path(directory, cache_root)
    if cache is not None:
        cached = _from_cache(cache)
        if cached is not None:
            return cached
    matrix = _validate(directory, _read_raw(directory))
    if cache is not None:
        try:
            atomic_write_bytes(cache, json.dumps(matrix.model_dump(mode="json")).encode())
        except OSError:
            log.debug("cannot write the matrix cache %s", cache)
    return matrix


def _validate(directory: Path, raw: dict[str, list[Any]]) -> Matrix:
    for key, rows in raw.items():
        try:
            Matrix.model_validate({**dict.fromkeys(MATRIX_FILES, ()), key: rows})
        except ValidationError as exc:
            raise MatrixError(
                _format_validation(directory / MATRIX_FILES[key], exc, rows)
            ) from None
    matrix = Matrix.model_validate(raw)
    problems = check_invariants(matrix)
    if problems:
        msg = f"{directory}: the matrix is inconsistent\n" + "\n".join(f"  - {p}" for p in problems)
        raise MatrixError(msg)
    return matrix


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
    return Matrix.model_json_schema(by_alias=True)
