"""matrices/targets.yaml: facts about the machines a variant targets, per platform.

uv's --python-platform, the PEP 508 marker environment, the glibc floor of an era of torch
builds, the conda virtual packages, and which platform the running interpreter is. The data
stays apart from code, each row with its source; this module reads it once per process and
checks that each per-platform table names every platform of `envgen.model.types.Platform` once.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

import yaml
from packaging.version import Version
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.infra.safe_yaml import YamlBombError, load_bounded
from envgen.model.types import PLATFORMS, Platform

TARGETS_FILE: Final = "targets.yaml"


class _Row(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=lambda n: n.replace("_", "-")
    )

    source: str = Field(min_length=1)


class UvPlatformRow(_Row):
    """A platform's uv --python-platform value."""

    platform: Platform
    target: str = Field(pattern=r"^[a-z0-9_]+-[a-z0-9_-]+$")


class MarkerRow(_Row):
    """A platform's PEP 508 marker values."""

    platform: Platform
    markers: dict[str, str]

    @field_validator("markers")
    @classmethod
    def _names(cls, value: dict[str, str]) -> dict[str, str]:
        want = {"sys_platform", "platform_system", "platform_machine", "os_name"}
        if set(value) != want:
            msg = f"markers must give exactly {', '.join(sorted(want))}"
            raise ValueError(msg)
        return value


class GlibcRow(_Row):
    """The glibc torch builds target from a release on (until the next row's)."""

    torch_from: str = Field(pattern=r"^\d+(\.\d+)*$")
    glibc: str = Field(pattern=r"^\d+\.\d+$")


class VirtualPackagesRow(_Row):
    """A platform's conda virtual packages (besides __glibc from the era and __cuda)."""

    platform: Platform
    archspec: str = Field(pattern=r"^[a-z0-9_]+$")
    packages: dict[str, str]
    glibc: bool = False


class HostRow(_Row):
    """A (sys.platform, platform.machine()) pair and the platform it is."""

    system: str
    machine: str
    platform: Platform


class Targets(BaseModel):
    """The tables of targets.yaml."""

    model_config = ConfigDict(
        extra="forbid", frozen=True, alias_generator=lambda n: n.replace("_", "-")
    )

    uv_python_platforms: tuple[UvPlatformRow, ...]
    marker_environments: tuple[MarkerRow, ...]
    glibc: tuple[GlibcRow, ...] = Field(min_length=1)
    virtual_packages: tuple[VirtualPackagesRow, ...]
    hosts: tuple[HostRow, ...]

    def uv_python_platform(self, platform: Platform) -> str:
        """uv's --python-platform for `platform`.

        >>> load_targets().uv_python_platform("linux-64")
        'x86_64-manylinux_2_28'
        """
        return next(r.target for r in self.uv_python_platforms if r.platform == platform)

    def markers(self, platform: Platform) -> dict[str, str]:
        """The PEP 508 marker values of `platform` (a fresh dict)."""
        return dict(next(r.markers for r in self.marker_environments if r.platform == platform))

    def glibc_for(self, torch: Version) -> str:
        """The glibc torch `torch`'s builds target: the last row starting at or before it.

        >>> load_targets().glibc_for(Version("2.5.1")), load_targets().glibc_for(Version("2.6.0"))
        ('2.17', '2.28')
        """
        found = self.glibc[0].glibc
        for row in self.glibc:
            if torch >= Version(row.torch_from):
                found = row.glibc
        return found

    def virtual(self, platform: Platform) -> VirtualPackagesRow:
        return next(r for r in self.virtual_packages if r.platform == platform)

    def host_platform(self, system: str, machine: str) -> Platform | None:
        """The platform of a (system, machine) pair, None when envgen knows no such platform."""
        return next(
            (r.platform for r in self.hosts if (r.system, r.machine) == (system, machine)), None
        )


def _problems(targets: Targets) -> list[str]:
    problems = []
    for key in ("uv_python_platforms", "marker_environments", "virtual_packages"):
        named = [r.platform for r in getattr(targets, key)]
        if sorted(named) != sorted(PLATFORMS):
            problems.append(
                f"{key.replace('_', '-')}: want one row per platform ({', '.join(PLATFORMS)}), "
                f"got {', '.join(named) or 'none'}"
            )
    starts = [Version(r.torch_from) for r in targets.glibc]
    if starts != sorted(set(starts)) or starts[0] != Version("0"):
        problems.append('glibc: torch-from must rise from "0", one row per start')
    pairs = [(r.system, r.machine) for r in targets.hosts]
    if len(pairs) != len(set(pairs)):
        problems.append("hosts: two rows for one (system, machine)")
    return problems


@functools.cache
def load_targets(directory: Path | None = None) -> Targets:
    """Read and validate targets.yaml (default: the bundled matrices/); once per process.

    Raises:
        MatrixError: the file is missing, is not YAML, or breaks the schema or its invariants.
    """
    path = (directory or MATRICES_DIR) / TARGETS_FILE
    try:
        _, data = load_bounded(path.read_text(encoding="utf-8"))
    except OSError as exc:
        msg = f"{path}: cannot be read: {exc.strerror or exc}"
        raise MatrixError(msg, hint="restore it from git") from None
    except (yaml.YAMLError, YamlBombError, ValueError, OverflowError) as exc:
        msg = f"{path}: not valid YAML: {exc}"
        raise MatrixError(msg) from None
    try:
        targets = Targets.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        msg = f"{path}: invalid value: {where}: {first['msg']}"
        raise MatrixError(msg) from None
    problems = _problems(targets)
    if problems:
        raise MatrixError(f"{path}: " + "; ".join(problems))
    return targets
