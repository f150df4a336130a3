"""Carry a conda environment's dependencies across when the import moves it to pip.

When the pytorch channel no longer has a release, `envgen import` writes `managers: [pip]`; the
file's conda dependencies (opencv, tensorboard, scikit-learn, pyyaml, ...) would then stay under
`conda:`, which a pip build never installs. `carry_to_pip` turns each into a `pip:` requirement
by the table in matrices/conda-pypi-names.yaml (each row with its source): a renamed one under
its PyPI name (opencv -> opencv-python), one that a pip environment gets otherwise (cudatoolkit:
torch's wheels carry CUDA; openssl: the interpreter) left out with a note, one that PyPI has no
counterpart for (ffmpeg) refused. A name the table does not know is carried under the same name,
and the warning says so. Versions are carried as PEP 440 specifiers (`opencv=4.5.1` ->
`opencv-python==4.5.1.*`); a conda build string is dropped.

A conda pin names a binary build (`pyfftw=0.12.0=py310h0885ff1_3`: conda-forge's build for
python 3.10), not a source release. Where PyPI has no wheel of that release for the environment's
python (pyfftw 0.12.0's wheels stop at cp38), pip would build its sdist instead, which needs a
compiler, the C library and the build tools of its time. `prefer_wheels` (given the index's file
lists) takes the nearest release that has a wheel, of the same major.minor first, then the
nearest newer, and says so. A source release (an sdist and no wheel for any python or platform,
as for retrying 1.3.3) is kept: its sdist is what pip builds everywhere.

This module must not decide which manager the import writes (envgen.repro.importer.routes does) and
must not touch the network (the file lists come from the caller: envgen.repro.wheels.fetch_pages).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.infra.safe_yaml import load_bounded
from envgen.repro.wheels import wheel_release

if TYPE_CHECKING:
    import datetime as dt
    from collections.abc import Mapping

TABLE: Final = MATRICES_DIR / "conda-pypi-names.yaml"
# Set by envgen from torch / python, never carried (the importer handles them).
_HANDLED: Final = frozenset({"python", "pytorch", "torchvision", "torchaudio", "cpuonly"})
# A PyPI project name (PEP 508, https://peps.python.org/pep-0508/#names).
_PYPI_NAME: Final = re.compile(r"^([a-z0-9]|[a-z0-9][a-z0-9._-]*[a-z0-9])$", re.IGNORECASE)
_SPEC: Final = re.compile(
    r"^(?:(?P<channel>[\w.-]+)::)?(?P<name>[A-Za-z0-9_][\w.-]*)\s*(?P<rest>.*)$"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """One conda name: its PyPI distribution, or why it is not carried."""

    conda: str
    pypi: str | None = None
    provided: str | None = None
    none: str | None = None
    source: str


@dataclass(slots=True, kw_only=True)
class Carried:
    """What a move to pip does with the conda dependencies."""

    pip: list[str] = field(default_factory=list)  # requirements to add under pip:
    notes: list[str] = field(default_factory=list)  # warnings: renamed, left out, same name
    refused: list[str] = field(default_factory=list)  # problems: no PyPI counterpart


@functools.cache
def load_table(path: Path = TABLE) -> dict[str, Row]:
    """conda name -> Row, from the shipped table (checked: one kind per row, each with a source)."""
    try:
        _, data = load_bounded(path.read_text(encoding="utf-8"), shipped=True)
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the conda -> PyPI name table: {exc}"
        raise MatrixError(msg) from exc
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        msg = f"{path}: expected a mapping with a `rows:` list"
        raise MatrixError(msg)
    table: dict[str, Row] = {}
    for i, raw in enumerate(rows):
        kinds = [k for k in ("pypi", "provided", "none") if isinstance(raw, dict) and raw.get(k)]
        if (
            not isinstance(raw, dict)
            or len(kinds) != 1
            or not isinstance(raw.get("conda"), str)
            or not isinstance(raw.get("source"), str)
            or set(raw) - {"conda", "pypi", "provided", "none", "source"}
        ):
            msg = (
                f"{path}: rows[{i}]: expected {{conda, source}} and exactly one of pypi, "
                f"provided, none; got {raw!r}"
            )
            raise MatrixError(msg)
        name = str(raw["conda"]).lower()
        if name in table:
            msg = f"{path}: rows[{i}]: conda name {name!r} is listed twice"
            raise MatrixError(msg)
        table[name] = Row(
            conda=name,
            pypi=raw.get("pypi"),
            provided=raw.get("provided"),
            none=raw.get("none"),
            source=str(raw["source"]),
        )
    return table


def pip_specifier(conda_version: str) -> str:
    """A conda version constraint as a PEP 440 specifier ("" when none, or none can be written).

    >>> pip_specifier("=4.5.1"), pip_specifier("==5.3.1"), pip_specifier(">=1.2,<2")
    ('==4.5.1.*', '==5.3.1', '>=1.2,<2')
    >>> pip_specifier("=5.3.1=py37h7b6447c_0"), pip_specifier("1.4.*"), pip_specifier("")
    ('==5.3.1.*', '==1.4.*', '')
    """
    text = conda_version.strip().replace(" ", "")
    if text.startswith("=="):
        return "==" + text[2:].split("=")[0]  # "==5.3.1=<build>": the build string is dropped
    if text[:1] in ("<", ">", "!", "~"):
        return text
    version = text.lstrip("=").split("=")[0]
    if not version:
        return ""
    # conda's `=4.5.1` is 4.5.1 or any release below it (4.5.1.48 on PyPI)
    return f"=={version}" if version.endswith(".*") else f"=={version}.*"


def carry_to_pip(conda_deps: list[str], pip_reqs: list[str], *, where: str) -> Carried:
    """The pip requirements, notes and refusals for moving `conda_deps` to pip.

    `pip_reqs` are the file's own pip requirements: a package they already name is not added.
    """
    table = load_table()
    named = {canonicalize_name(n) for n in (_req_name(r) for r in pip_reqs) if n}
    out = Carried()
    renamed: list[str] = []
    provided: list[str] = []
    same: list[str] = []
    selectors: list[str] = []
    for dep in conda_deps:
        hit = _SPEC.match(dep.strip())
        if hit is None:
            out.refused.append(f"{dep!r} (not a conda match spec)")
            continue
        conda = hit.group("name").lower()
        if conda in _HANDLED:
            continue
        row = table.get(conda)
        if row is None and not _PYPI_NAME.match(conda):
            # `_tflow_select`, `_pytorch_select`, `_py-xgboost-mutex`: conda's selector and
            # mutex metapackages (a leading underscore, which no PyPI name may have: PEP 508's
            # names start and end with a letter or digit) only choose among conda builds.
            selectors.append(conda)
            continue
        if row is not None and row.none:
            out.refused.append(f"{conda} ({row.none})")
            continue
        if row is not None and row.provided:
            provided.append(conda)
            continue
        pypi = row.pypi if row is not None and row.pypi else conda
        if canonicalize_name(pypi) in named:
            continue
        requirement = pypi + pip_specifier(hit.group("rest"))
        try:
            Requirement(requirement)
        except InvalidRequirement:
            requirement = pypi  # a conda version PEP 440 cannot read: carried without it
            out.notes.append(f"{where}: conda {dep!r}: its version is not PEP 440; pip gets {pypi}")
        named.add(canonicalize_name(pypi))
        out.pip.append(requirement)
        if row is None:
            same.append(pypi)
        elif canonicalize_name(row.pypi or "") != canonicalize_name(conda):
            renamed.append(f"{conda} -> {pypi}")
    if renamed:
        out.notes.append(
            f"{where}: conda dependencies carried to pip under their PyPI names: "
            f"{', '.join(renamed)} (matrices/conda-pypi-names.yaml)"
        )
    if provided:
        out.notes.append(
            f"{where}: conda dependencies left out, a pip environment gets them otherwise "
            f"(the interpreter, or the wheels that bundle them): {', '.join(provided)}"
        )
    if selectors:
        out.notes.append(
            f"{where}: conda metapackages left out, they select among conda builds and pip has "
            f"no such packages (PEP 508 names start with a letter or digit): {', '.join(selectors)}"
        )
    if same:
        out.notes.append(
            f"{where}: conda dependencies carried to pip under the same name (not in "
            f"matrices/conda-pypi-names.yaml; check they are the same package): {', '.join(same)}"
        )
    return out


def versioned(requirements: list[str]) -> list[str]:
    """The canonical names of the requirements with a version (the ones `prefer_wheels` checks).

    >>> versioned(["pyfftw==0.12.0.*", "tqdm", "Pillow==9.4.0.*"])
    ['pyfftw', 'pillow']
    """
    out = []
    for text in requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if req.specifier:
            out.append(str(canonicalize_name(req.name)))
    return out


def prefer_wheels(
    requirements: list[str],
    *,
    python: str,
    pages: Mapping[str, dict[str, object]],
    as_of: dt.date | None,
    where: str,
) -> tuple[list[str], list[str]]:
    """Carried requirements with each release that has no linux-64 wheel for `python` replaced
    by the nearest that has one (module doc), and a note per replacement. `pages`: canonical
    name -> the index's PEP 691 file list (a name without one is kept as it is).

    >>> page = {"files": [{"filename": "pyFFTW-0.12.0-cp38-cp38-manylinux1_x86_64.whl"},
    ...                   {"filename": "pyFFTW-0.13.1-cp310-cp310-manylinux_2_17_x86_64.whl"}]}
    >>> prefer_wheels(["pyfftw==0.12.0.*", "tqdm"], python="3.10", pages={"pyfftw": page},
    ...               as_of=None, where="f")[0]
    ['pyfftw==0.13.1', 'tqdm']
    """
    out: list[str] = []
    notes: list[str] = []
    for text in requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            out.append(text)
            continue
        page = pages.get(str(canonicalize_name(req.name)))
        found = (
            wheel_release(req.name, str(req.specifier), page, python, as_of)
            if page is not None and req.specifier
            else None
        )
        if found is None:
            out.append(text)
            continue
        version, had = found
        out.append(f"{req.name}=={version}")
        notes.append(
            f"{where}: {req.name}{req.specifier}: the conda pin named a binary build, and PyPI "
            f"has no wheel of it for python {python} on linux-64 ({had}), so pip would build the "
            f"sdist; carried as {req.name}=={version}, the nearest release with one (same "
            "major.minor first, then the nearest newer)"
        )
    return out, notes


def _req_name(requirement: str) -> str | None:
    try:
        return Requirement(requirement).name
    except InvalidRequirement:
        return None


__all__ = [
    "TABLE",
    "Carried",
    "Row",
    "carry_to_pip",
    "load_table",
    "pip_specifier",
    "prefer_wheels",
    "versioned",
]
