"""Build dependencies that old sdists need but do not declare (matrices/build-dependencies.yaml).

uv builds an sdist in an isolated environment holding only what the sdist declares; pycocotools
2.0.0's setup.py imports Cython and numpy before setup() and declares neither, so its build
fails. The table's rows become uv's `extra-build-dependencies`: a `[tool.uv.extra-build-
dependencies]` section in the pyproject.toml the lock compiles, and a uv.toml the build passes
to `uv pip sync --config-file`. Entries for packages a resolution does not contain change nothing.

This module must not start processes or read the network.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from pathlib import Path
from typing import Final

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model.shipped import load_table

TABLE: Final = MATRICES_DIR / "build-dependencies.yaml"


@functools.cache
def extra_build_dependencies(path: Path = TABLE) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(package, build requirements) for every row, sorted by package."""
    try:
        data = load_table(path)
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the build-dependencies table: {exc}"
        raise MatrixError(msg) from exc
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        msg = f"{path}: expected a mapping with a `rows:` list"
        raise MatrixError(msg)
    out: dict[str, tuple[str, ...]] = {}
    for i, row in enumerate(rows):
        build = row.get("build") if isinstance(row, dict) else None
        if (
            not isinstance(row, dict)
            or set(row) != {"package", "build", "source"}
            or not isinstance(row["package"], str)
            or not isinstance(build, list)
            or not all(isinstance(b, str) for b in build)
        ):
            msg = f"{path}: rows[{i}]: expected {{package, build: [...], source}}; got {row!r}"
            raise MatrixError(msg)
        out[row["package"]] = tuple(build)
    return tuple(sorted(out.items()))


@functools.cache
def _runtime(path: Path = TABLE) -> tuple[tuple[SpecifierSet, tuple[str, ...]], ...]:
    data = load_table(path)
    rows = data.get("runtime") if isinstance(data, dict) else None
    out: list[tuple[SpecifierSet, tuple[str, ...]]] = []
    for i, row in enumerate(rows or []):
        needs = row.get("requires") if isinstance(row, dict) else None
        if (
            not isinstance(row, dict)
            or set(row) != {"torch", "requires", "source"}
            or not isinstance(needs, list)
            or not all(isinstance(n, str) for n in needs)
        ):
            msg = f"{path}: runtime[{i}]: expected {{torch, requires: [...], source}}; got {row!r}"
            raise MatrixError(msg)
        try:
            out.append((SpecifierSet(str(row["torch"])), tuple(needs)))
        except InvalidSpecifier as exc:
            msg = f"{path}: runtime[{i}]: torch: {exc}"
            raise MatrixError(msg) from exc
    return tuple(out)


def undeclared_runtime(torch: str) -> tuple[str, ...]:
    """What `import torch` of release `torch` needs beyond its Requires-Dist (the table's
    `runtime:` rows), e.g. setuptools for 1.10.x.

    >>> undeclared_runtime("1.10.0"), undeclared_runtime("1.11.0")
    (('setuptools',), ())
    """
    version = Version(torch)
    return tuple(
        r for spec, needs in _runtime() if spec.contains(version, prereleases=True) for r in needs
    )


@functools.cache
def _constraints(path: Path = TABLE) -> tuple[tuple[str, SpecifierSet, tuple[str, ...]], ...]:
    """(package, versions, build constraints) for every `constraints:` row."""
    data = load_table(path)
    rows = data.get("constraints") if isinstance(data, dict) else None
    out: list[tuple[str, SpecifierSet, tuple[str, ...]]] = []
    for i, row in enumerate(rows or []):
        wanted = row.get("constraints") if isinstance(row, dict) else None
        if (
            not isinstance(row, dict)
            or set(row) != {"package", "versions", "constraints", "source"}
            or not isinstance(row["package"], str)
            or not isinstance(wanted, list)
            or not all(isinstance(c, str) for c in wanted)
        ):
            msg = (
                f"{path}: constraints[{i}]: expected {{package, versions, constraints: [...], "
                f"source}}; got {row!r}"
            )
            raise MatrixError(msg)
        try:
            out.append(
                (
                    canonicalize_name(row["package"]),
                    SpecifierSet(str(row["versions"])),
                    tuple(wanted),
                )
            )
        except InvalidSpecifier as exc:
            msg = f"{path}: constraints[{i}]: versions: {exc}"
            raise MatrixError(msg) from exc
    return tuple(out)


_PIN: Final = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)
# Build requirements whose compiled output is tied to the version built against: numpy's C API is
# forward compatible only, so an extension built against numpy N imports on numpy >= N and fails
# on an older one ("module compiled against API version 0x10 but this version of numpy is 0xd";
# https://numpy.org/doc/stable/dev/depending_on_numpy.html; measured 2026-12-05 with uv 0.13.9:
# iisignature 0.24 built with an unpinned numpy got 1.24.4 and failed so under the lock's
# 1.19.5). An old sdist that imports numpy without declaring it was built by a pip that ran
# setup.py in the environment itself, against the numpy installed there: the lock's.
ABI_BOUND: Final = frozenset({"numpy"})


def build_constraints(requirements: str) -> tuple[str, ...]:
    """The build constraints a lock's pins call for, without repeats: the table's `constraints:`
    rows whose package the requirements pin at an affected version (in table order); then, where
    the lock pins a package the table gives an ABI-bound build dependency (`ABI_BOUND`: numpy)
    that the lock pins too, that dependency at the lock's version (the sdist is built against
    the numpy it will run with, as the pip it was written for did).

    >>> build_constraints("pycocotools==2.0.2 --hash=sha256:00")
    ('cython<3',)
    >>> build_constraints("pycocotools==2.0.6")
    ()
    >>> build_constraints("numpy==1.19.5 --hash=sha256:00\\npycocotools==2.0.0")
    ('cython<3', 'numpy==1.19.5')
    """
    pins: dict[str, Version] = {}
    for name, version in _PIN.findall(requirements):
        with contextlib.suppress(InvalidVersion):
            pins[canonicalize_name(name)] = Version(version)
    out: list[str] = []
    for package, versions, wanted in _constraints():
        pinned = pins.get(package)
        if pinned is not None and versions.contains(pinned, prereleases=True):
            out += [c for c in wanted if c not in out]
    for package, build in extra_build_dependencies():
        if canonicalize_name(package) not in pins:
            continue
        for requirement in build:
            name = canonicalize_name(re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0])
            locked = f"{name}=={pins[name]}" if name in pins else ""
            if name in ABI_BOUND and locked and locked not in out:
                out.append(locked)
    return tuple(out)


def _table_body() -> str:
    return "".join(
        f"{json.dumps(name)} = {json.dumps(list(build))}\n"
        for name, build in extra_build_dependencies()
    )


def pyproject_section() -> str:
    """The `[tool.uv.extra-build-dependencies]` section for a generated pyproject.toml."""
    body = _table_body()
    return f"\n[tool.uv.extra-build-dependencies]\n{body}" if body else ""


def uv_toml() -> str:
    """A uv.toml holding only the extra build dependencies (for `uv pip sync --config-file`)."""
    body = _table_body()
    return f"[extra-build-dependencies]\n{body}" if body else ""


__all__ = [
    "ABI_BOUND",
    "build_constraints",
    "extra_build_dependencies",
    "pyproject_section",
    "undeclared_runtime",
    "uv_toml",
]
