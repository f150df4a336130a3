"""The schema of matrices/targets.yaml as pydantic models: what a valid file is.

envgen reads the file at run time into the plain records of `envgen.model.targets`, without
pydantic (~100 ms of imports on every lock, build and import). These models are the definition:
`targets.load_targets` asks them for the message when a file breaks the rules, `envgen matrix
validate` runs them on every file, and tests/unit/model/test_targets.py checks that both accept the
same files (the same split as matrix_schema.py and matrix.py).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, field_validator

from envgen.model.types import Platform

# The patterns the runtime reader checks as well (envgen.model.targets imports them).
UV_TARGET_PATTERN = r"^[a-z0-9_]+-[a-z0-9_-]+$"
TORCH_FROM_PATTERN = r"^\d+(\.\d+)*$"
GLIBC_PATTERN = r"^\d+\.\d+$"
ARCHSPEC_PATTERN = r"^[a-z0-9_]+$"
MARKER_NAMES = frozenset({"sys_platform", "platform_system", "platform_machine", "os_name"})


class _Row(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=lambda n: n.replace("_", "-")
    )

    source: StrictStr = Field(min_length=1)


class UvPlatformRow(_Row):
    """A platform's uv --python-platform value."""

    platform: Platform
    target: StrictStr = Field(pattern=UV_TARGET_PATTERN)


class MarkerRow(_Row):
    """A platform's PEP 508 marker values."""

    platform: Platform
    markers: dict[StrictStr, StrictStr]

    @field_validator("markers")
    @classmethod
    def _names(cls, value: dict[str, str]) -> dict[str, str]:
        if set(value) != MARKER_NAMES:
            msg = f"markers must give exactly {', '.join(sorted(MARKER_NAMES))}"
            raise ValueError(msg)
        return value


class GlibcRow(_Row):
    """The glibc torch builds target from a release on (until the next row's)."""

    torch_from: StrictStr = Field(pattern=TORCH_FROM_PATTERN)
    glibc: StrictStr = Field(pattern=GLIBC_PATTERN)


class VirtualPackagesRow(_Row):
    """A platform's conda virtual packages (besides __glibc from the era and __cuda)."""

    platform: Platform
    archspec: StrictStr = Field(pattern=ARCHSPEC_PATTERN)
    packages: dict[StrictStr, StrictStr]
    glibc: StrictBool = False


class HostRow(_Row):
    """A (sys.platform, platform.machine()) pair and the platform it is."""

    system: StrictStr
    machine: StrictStr
    platform: Platform


class TargetsSchema(BaseModel):
    """The tables of targets.yaml."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=lambda n: n.replace("_", "-")
    )

    uv_python_platforms: tuple[UvPlatformRow, ...]
    marker_environments: tuple[MarkerRow, ...]
    glibc: tuple[GlibcRow, ...] = Field(min_length=1)
    virtual_packages: tuple[VirtualPackagesRow, ...]
    hosts: tuple[HostRow, ...]


def first_problem(data: object) -> str | None:
    """`where: what` of the first rule `data` breaks, or None when it is a valid targets file."""
    from pydantic import ValidationError  # noqa: PLC0415 - with the models

    try:
        TargetsSchema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}"
    return None
