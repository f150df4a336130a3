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
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import yaml
from packaging.version import InvalidVersion, Version
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from envgen._io import atomic_write_bytes
from envgen._resources import MATRICES_DIR, cache_root
from envgen._types import (
    AcceleratorId,
    ComputeKind,
    CondaForm,
    IndexForm,
    Manager,
    Platform,
)
from envgen.errors import MatrixError

SCHEMA_VERSION: Final = 1
log = logging.getLogger(__name__)


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class StrictModel(BaseModel):
    """Unknown keys are errors, instances are frozen, and YAML keys are kebab-case."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=_kebab, populate_by_name=True
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
    pypi_default: bool = Field(
        default=False, description="PyPI's own wheel for these platforms is this build."
    )
    source: str
    inferred: bool = False


class CondaBuild(Compute):
    """How one torch release was published for conda on some platforms and one compute platform."""

    release: VersionStr
    platforms: tuple[Platform, ...]
    pytorch: VersionStr
    torchvision: VersionStr | None = None
    torchaudio: VersionStr | None = None
    form: CondaForm = Field(description="How the compute platform is selected.")
    channels: tuple[str, ...]
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
    drivers: tuple[Driver, ...]
    known_issues: tuple[KnownIssue, ...]
    extensions: tuple[Extension, ...] = ()

    # --- queries -----------------------------------------------------------------------------
    def release(self, torch: str) -> Release | None:
        return self._releases_by_version().get(torch)

    @functools.cached_property
    def _by_version(self) -> dict[str, Release]:
        return {r.torch: r for r in self.releases}

    def _releases_by_version(self) -> dict[str, Release]:
        return self._by_version

    def pip_builds(self, release: str, platform: Platform | None = None) -> tuple[PipBuild, ...]:
        return tuple(
            b
            for b in self.pip
            if b.release == release and (platform is None or platform in b.platforms)
        )

    def conda_builds(
        self, release: str, platform: Platform | None = None
    ) -> tuple[CondaBuild, ...]:
        return tuple(
            b
            for b in self.conda
            if b.release == release and (platform is None or platform in b.platforms)
        )

    def accelerators(
        self, release: str, platform: Platform | None = None, manager: Manager | None = None
    ) -> tuple[AcceleratorId, ...]:
        """Accelerators published for a release, ordered cpu, cuda (ascending), rocm, xpu."""
        found: set[tuple[str, str | None]] = set()
        if manager in (None, "pip"):
            found |= {(b.kind, b.version) for b in self.pip_builds(release, platform)}
        if manager in (None, "conda"):
            found |= {(b.kind, b.version) for b in self.conda_builds(release, platform)}
        return tuple(accelerator_id(k, v) for k, v in sorted(found, key=_compute_key))  # type: ignore[arg-type]

    def driver_for(self, cuda: str) -> Driver | None:
        for d in self.drivers:
            if d.cuda == cuda:
                return d
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
    "drivers": "drivers.yaml",
    "known_issues": "known-issues.yaml",
    "extensions": "extensions.yaml",
}
# Matrix files a directory may lack (a test matrix without extensions).
OPTIONAL_FILES: Final = frozenset({"extensions"})


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


def load_matrix(directory: Path | None = None) -> Matrix:
    """Load and validate every matrix file under `directory` (default: the bundled matrices/)."""
    return _load_matrix_cached(directory or MATRICES_DIR)


def _parsed_cache_path(directory: Path) -> Path | None:
    """A content-addressed JSON copy of the parsed matrix files (None when unreadable).

    Parsing ~500 YAML rows costs ~0.2 s on every command; the JSON copy, keyed by the sha256 of
    the files' bytes, loads in milliseconds and can never be stale.
    """
    digest = hashlib.sha256()
    for name in MATRIX_FILES.values():
        try:
            digest.update(name.encode() + b"\0" + (directory / name).read_bytes() + b"\0")
        except FileNotFoundError:
            digest.update(name.encode() + b"\0absent\0")
        except OSError:
            return None
    return cache_root() / "matrix" / f"{digest.hexdigest()}.json"


def _read_raw(directory: Path) -> dict[str, list[Any]]:
    cache = _parsed_cache_path(directory)
    if cache is not None:
        try:
            cached = json.loads(cache.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            cached = None
        if isinstance(cached, dict) and set(cached) == set(MATRIX_FILES):
            return cached
    raw = {
        key: _read_rows(directory / name, optional=key in OPTIONAL_FILES)
        for key, name in MATRIX_FILES.items()
    }
    if cache is not None:
        try:
            atomic_write_bytes(cache, json.dumps(raw, sort_keys=True).encode())
        except OSError:
            log.debug("cannot write the matrix cache %s", cache)
    return raw


@functools.cache
def _load_matrix_cached(directory: Path) -> Matrix:
    raw = _read_raw(directory)
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


def check_invariants(matrix: Matrix) -> list[str]:
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
    for name, builds in (("pip.yaml", matrix.pip), ("conda.yaml", matrix.conda)):
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
    problems += _extension_problems(matrix.extensions)
    return problems


def _extension_problems(extensions: tuple[Extension, ...]) -> list[str]:
    """extensions.yaml invariants: unique names, builds naming listed versions, valid specifiers."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # noqa: PLC0415

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
