"""The matrix's schema: pydantic models of matrices/*.yaml, used to validate the files.

These models ARE the data schema: scripts/gen_schema.py writes matrices/schema.json from them,
`envgen matrix validate` and a matrix-cache miss validate the YAML through them. Commands never
use them at run time: envgen.model.matrix holds the runtime rows (plain frozen records with the
same fields, built from the validated JSON without pydantic; tests/unit/model/test_matrix_runtime.py
fails when the two disagree). This module must not import envgen.model.matrix (it imports this
one, lazily) nor read any file.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from envgen.model.types import (
    ComputeKind,
    CondaForm,
    ExtensionForm,
    IndexForm,
    Manager,
    Platform,
)


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
ArchListStr = Annotated[
    str,
    Field(pattern=r"^(\d+\.\d+(\+PTX)?|gfx[0-9a-f]+)(;(\d+\.\d+(\+PTX)?|gfx[0-9a-f]+))*$"),
]
CudaMinorStr = Annotated[str, Field(pattern=r"^\d+\.\d+$")]
RocmVersionStr = Annotated[str, Field(pattern=r"^\d+(\.\d+)*$")]


class WheelPythons(StrictModel):
    """The Pythons one platform has cpXY wheels for (a release's PyPI files)."""

    platform: Platform
    python: tuple[PythonStr, ...]


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
    pypi_wheels: tuple[WheelPythons, ...] = Field(
        default=(),
        description=(
            "Per platform, the Pythons PyPI has a torch wheel of this release for (from its file "
            "names); empty when the release is not on PyPI."
        ),
    )
    date: str | None = Field(
        default=None, pattern=r"^\d{4}-\d{2}-\d{2}$", description="Upload date on PyPI."
    )
    source: str = Field(description="Where the row's facts come from.")
    inferred: tuple[str, ...] = Field(
        default=(), description="Names of fields that were inferred rather than read."
    )


class Compute(StrictModel):
    """Mixin-like fields shared by pip and conda build rows."""

    kind: ComputeKind
    version: str | None = Field(
        default=None, description="CUDA / ROCm version, e.g. '11.8', '5.1.1'; none for cpu."
    )


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
    torchvision_wheel: str | None = Field(
        default=None,
        description="torchvision's own wheel URL on the same page, `{abi}` as in `wheel`, where "
        "torchvision has compiled ops built per compute platform (0.3.0 with torch 1.1.0): "
        "PyPI's same-version wheel goes with PyPI's torch build.",
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
        for key, url in (("wheel", self.wheel), ("torchvision-wheel", self.torchvision_wheel)):
            if url is not None and (
                "{abi}" not in url or not url.endswith(".whl") or self.index == "pypi"
            ):
                msg = (
                    f"{key} {url!r}: a .whl URL with {{abi}} for the CPython tags, on a row "
                    "with its wheel page (index: find-links)"
                )
                raise ValueError(msg)
        if self.torchvision_wheel is not None and (self.wheel is None or not self.torchvision):
            msg = "torchvision-wheel: only on a row that names its torch wheel and a torchvision"
            raise ValueError(msg)
        return self


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
    torchvision_python: tuple[PythonStr, ...] | None = Field(
        default=None,
        description="conda-forge rows: the pythons of `python` the torchvision feedstock built its "
        "companion for (same platforms and CUDA), where that is fewer; absent: all of them.",
    )
    torchaudio_python: tuple[PythonStr, ...] | None = Field(
        default=None,
        description="Likewise for the torchaudio feedstock.",
    )
    form: CondaForm = Field(description="How the compute platform is selected.")
    channels: tuple[str, ...]
    built: str | None = Field(
        default=None,
        pattern=r"^\d{4}-\d{2}-\d{2}$",
        description="conda-forge rows: the committer date of the first feedstock commit whose CI "
        "built this row (scripts/refresh_conda_forge.py); before it conda-forge had no such "
        "package. Absent: not recorded (the pytorch channel's rows).",
    )
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
    conda_default: bool = Field(
        default=False,
        description="true: a `pytorch` line naming no selector (no cudaXY metapackage, "
        "cudatoolkit or cpuonly) installed this build on these platforms: the featureless build "
        "of the cuda-metapackage era (0.4.x-1.0.0: CUDA 9.0), which the quick-start published "
        "as the plain command; the other builds carried a track feature.",
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
    python: tuple[str, ...] = Field(
        default=(),
        description="the pythons affected (a variant side with one of them); empty = all.",
    )
    severity: Literal["warning", "error"] = Field(
        default="warning",
        description="error: the route does not work (the side is dropped, or the spec fails when "
        "it asks for that manager explicitly); warning: it works with a trap.",
    )
    silenced_by: str | None = Field(
        default=None,
        description="A pip requirement such as 'numpy<2': the issue is silent when the spec's pip "
        "list already excludes what the requirement excludes; a bare name ('typing'): silent "
        "when the spec's pip list names that package.",
    )
    message: str
    fix: str
    link: str


class GpuArchs(StrictModel):
    """The GPU architectures one group of torch builds was compiled for (gpu-archs.yaml): CUDA
    SM/PTX targets for `cuda` rows, AMD gfx targets for `rocm` rows."""

    torch: str = Field(description="A PEP 440 specifier of the torch releases the row covers.")
    cuda: tuple[CudaMinorStr, ...] = Field(
        default=(), description="The CUDA versions (major.minor) the row covers."
    )
    rocm: tuple[RocmVersionStr, ...] = Field(
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


class MinorCompat(StrictModel):
    """NVIDIA's minimum driver for CUDA minor-version compatibility in one CUDA major."""

    cuda_major: int = Field(ge=11, description="The CUDA major release family (11 and later).")
    linux: str = Field(pattern=r"^\d+(\.\d+)*$")
    windows: str | None = Field(default=None, pattern=r"^\d+(\.\d+)*$")
    source: str


class CompanionRelease(StrictModel):
    """One torchvision / torchaudio (or torchtext / torchdata) release and the torch releases its
    wheel accepts."""

    package: Literal["torchvision", "torchaudio", "torchtext", "torchdata"]
    version: VersionStr
    torch: str = Field(
        description="The PEP 440 specifier of the wheel's `torch` Requires-Dist line, local "
        "labels dropped; empty when the wheel names torch unpinned or not at all."
    )
    source: str = Field(description="The wheel whose METADATA gave the requirement.")
    pypi_wheels: tuple[WheelPythons, ...] = Field(
        default=(),
        description=(
            "Per platform, the Pythons PyPI has a cpXY wheel of this release for (from its file "
            "names); empty when its wheels are pure Python (py2.py3-none-any)."
        ),
    )


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
        "{python_abi} (cp37m, cp310) {version} {cuda_build} {cxx11abi}.",
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


def matrix_json_schema() -> dict[str, Any]:
    """The JSON schema of the matrix files (written to matrices/schema.json)."""
    return Matrix.model_json_schema(by_alias=True)
