"""matrices/targets.yaml: facts about the machines a variant targets, per platform.

uv's --python-platform, the PEP 508 marker environment, the glibc floor of an era of torch
builds, the conda virtual packages, and which platform the running interpreter is. The data
stays apart from code, each row with its source; this module reads it once per process and
checks that each per-platform table names every platform of `envgen.model.types.Platform` once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NoReturn

from packaging.version import Version

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model.shipped import data_for
from envgen.model.types import PLATFORMS, Platform

TARGETS_FILE: Final = "targets.yaml"

# The same rules as envgen/model/targets_schema.py (the pydantic definition, kept out of start-up);
# tests/unit/model/test_targets.py checks that both accept the same files.
_UV_TARGET: Final = re.compile(r"[a-z0-9_]+-[a-z0-9_-]+")
_TORCH_FROM: Final = re.compile(r"\d+(\.\d+)*")
_GLIBC: Final = re.compile(r"\d+\.\d+")
_ARCHSPEC: Final = re.compile(r"[a-z0-9_]+")
_MARKER_NAMES: Final = frozenset({"sys_platform", "platform_system", "platform_machine", "os_name"})


class _InvalidError(ValueError):
    """A targets.yaml value the runtime reader refuses (the schema gives the message)."""


def _fail(what: str) -> NoReturn:
    raise _InvalidError(what)


@dataclass(frozen=True, slots=True)
class UvPlatformRow:
    """A platform's uv --python-platform value."""

    platform: Platform
    target: str
    source: str


@dataclass(frozen=True, slots=True)
class MarkerRow:
    """A platform's PEP 508 marker values."""

    platform: Platform
    markers: dict[str, str]
    source: str


@dataclass(frozen=True, slots=True)
class GlibcRow:
    """The glibc torch builds target from a release on (until the next row's)."""

    torch_from: str
    glibc: str
    source: str


@dataclass(frozen=True, slots=True)
class VirtualPackagesRow:
    """A platform's conda virtual packages (besides __glibc from the era and __cuda)."""

    platform: Platform
    archspec: str
    packages: dict[str, str]
    glibc: bool
    source: str


@dataclass(frozen=True, slots=True)
class HostRow:
    """A (sys.platform, platform.machine()) pair and the platform it is."""

    system: str
    machine: str
    platform: Platform
    source: str


@dataclass(frozen=True, slots=True)
class Targets:
    """The tables of targets.yaml."""

    uv_python_platforms: tuple[UvPlatformRow, ...]
    marker_environments: tuple[MarkerRow, ...]
    glibc: tuple[GlibcRow, ...]
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


def _fields(
    row: object, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A row's values by field name (kebab-case keys), exactly these keys, each present."""
    if not isinstance(row, dict):
        _fail(f"{where}: not a mapping")
    keys = {str(k) for k in row}
    allowed = {k.replace("_", "-") for k in (*required, *optional)}
    missing = {k.replace("_", "-") for k in required} - keys
    if missing or not keys <= allowed:
        _fail(f"{where}: keys {sorted(keys)}, want {sorted(allowed)}")
    return {
        k: row[k.replace("_", "-")] for k in (*required, *optional) if k.replace("_", "-") in row
    }


def _text(value: object, where: str, pattern: re.Pattern[str] | None = None) -> str:
    if not isinstance(value, str) or (pattern is not None and not pattern.fullmatch(value)):
        _fail(f"{where}: {value!r}")
    return value


def _source(values: dict[str, Any], where: str) -> str:
    source = _text(values["source"], f"{where}.source")
    if not source:
        _fail(f"{where}.source: empty")
    return source


def _platform(value: object, where: str) -> Platform:
    if value not in PLATFORMS:
        _fail(f"{where}: {value!r}")
    return value


def _table(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        _fail(f"{where}: not a list")
    return value


def _strings(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        _fail(f"{where}: not a mapping of strings")
    return dict(value)


def _build(data: object) -> Targets:
    """The runtime records of a parsed targets.yaml (raises _InvalidError on a broken value)."""
    top = _fields(
        data,
        "targets.yaml",
        ("uv_python_platforms", "marker_environments", "glibc", "virtual_packages", "hosts"),
    )
    uv = []
    for i, row in enumerate(_table(top["uv_python_platforms"], "uv-python-platforms")):
        w = f"uv-python-platforms.{i}"
        f = _fields(row, w, ("platform", "target", "source"))
        uv.append(
            UvPlatformRow(
                _platform(f["platform"], w), _text(f["target"], w, _UV_TARGET), _source(f, w)
            )
        )
    markers = []
    for i, row in enumerate(_table(top["marker_environments"], "marker-environments")):
        w = f"marker-environments.{i}"
        f = _fields(row, w, ("platform", "markers", "source"))
        values = _strings(f["markers"], w)
        if set(values) != _MARKER_NAMES:
            _fail(f"{w}.markers: {sorted(values)}")
        markers.append(MarkerRow(_platform(f["platform"], w), values, _source(f, w)))
    glibc = []
    for i, row in enumerate(_table(top["glibc"], "glibc")):
        w = f"glibc.{i}"
        f = _fields(row, w, ("torch_from", "glibc", "source"))
        glibc.append(
            GlibcRow(
                _text(f["torch_from"], w, _TORCH_FROM), _text(f["glibc"], w, _GLIBC), _source(f, w)
            )
        )
    if not glibc:
        _fail("glibc: no rows")
    virtual = []
    for i, row in enumerate(_table(top["virtual_packages"], "virtual-packages")):
        w = f"virtual-packages.{i}"
        f = _fields(row, w, ("platform", "archspec", "packages", "source"), ("glibc",))
        flag = f.get("glibc", False)
        if not isinstance(flag, bool):
            _fail(f"{w}.glibc: {flag!r}")
        virtual.append(
            VirtualPackagesRow(
                _platform(f["platform"], w),
                _text(f["archspec"], w, _ARCHSPEC),
                _strings(f["packages"], w),
                flag,
                _source(f, w),
            )
        )
    hosts = []
    for i, row in enumerate(_table(top["hosts"], "hosts")):
        w = f"hosts.{i}"
        f = _fields(row, w, ("system", "machine", "platform", "source"))
        hosts.append(
            HostRow(
                _text(f["system"], w),
                _text(f["machine"], w),
                _platform(f["platform"], w),
                _source(f, w),
            )
        )
    return Targets(tuple(uv), tuple(markers), tuple(glibc), tuple(virtual), tuple(hosts))


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
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        msg = f"{path}: cannot be read: {exc.strerror or exc}"
        raise MatrixError(msg, hint="restore it from git") from None
    except ValueError as exc:  # not UTF-8
        msg = f"{path}: not valid YAML: {exc}"
        raise MatrixError(msg) from None
    found, data = data_for(path, text)  # the bundled file's shipped form: no PyYAML (~14 ms)
    if not found:
        import yaml  # noqa: PLC0415 - only when the shipped form is not these bytes'

        from envgen.infra.safe_yaml import YamlBombError, load_bounded  # noqa: PLC0415 - the same

        try:
            _, data = load_bounded(text, shipped=True)
        except (yaml.YAMLError, YamlBombError, ValueError, OverflowError) as exc:
            msg = f"{path}: not valid YAML: {exc}"
            raise MatrixError(msg) from None
    try:
        targets = _build(data)
    except _InvalidError as exc:
        # The schema words the message; pydantic is imported only for a broken file.
        from envgen.model.targets_schema import first_problem  # noqa: PLC0415 - ~100 ms; errors only

        msg = f"{path}: invalid value: {first_problem(data) or exc}"
        raise MatrixError(msg) from None
    problems = _problems(targets)
    if problems:
        raise MatrixError(f"{path}: " + "; ".join(problems))
    return targets
