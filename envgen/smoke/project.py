"""The project tier of the smoke checks: every distribution the spec names imports.

The cpu and gpu tiers test torch; a paper also needs its own packages. For every top-level
distribution project.yaml names (`pip:` entries and `conda:` dependencies, the torch family and
the interpreter's own tools left out), `envgen/smoke/project_script.py` runs in the environment's
python, one process per distribution: it finds the installed distribution, reads its import names
(top_level.txt, else RECORD) and imports them. A failure names the likely cause (a missing system
library, a too-new dependency, a dependency that is not installed); a `pip:` distribution that is
not installed at all fails (the lock left it out); a `conda:` name with no Python distribution
(ffmpeg, cudatoolkit) is skipped, as is every `conda:` name in an environment built with pip.

This module must not build or lock environments, must not import the checked packages itself,
and must not print.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from envgen.errors import EnvgenError
from envgen.infra import proc as _proc
from envgen.infra import progress
from envgen.model.types import TORCH_FAMILY
from envgen.model.variants import Variant
from envgen.smoke.report import SmokeCheck, SmokeReport, legacy_python

log = logging.getLogger(__name__)

PROJECT_SCRIPT: Final = Path(__file__).resolve().with_name("project_script.py")
DEFAULT_TIMEOUT: Final = 600.0
# Names that are the interpreter or its tools, not the paper's packages.
_NOT_PROJECT: Final = frozenset(
    {"python", "pip", "setuptools", "wheel", "pytorch", "cpuonly", "pytorch-cuda", "cudatoolkit"}
)
_CONDA_NAME: Final = re.compile(r"^(?:[\w.-]+::)?([A-Za-z0-9][\w.-]*)")
_MAX_DISTS: Final = 200

Source = Literal["pip", "conda"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Named:
    """A distribution named in project.yaml, and where."""

    name: str
    source: Source


def pip_name(entry: str) -> str | None:
    """The distribution a `pip:` entry names; None for an option, a path or a nameless URL.

    >>> pip_name("numpy<2"), pip_name("opencv-python==4.5.1.48"), pip_name("-e ."), pip_name("./x")
    ('numpy', 'opencv-python', None, None)
    >>> pip_name("git+https://github.com/a/b.git#egg=thop")
    'thop'
    """
    text = entry.strip()
    if "#egg=" in text:
        return text.split("#egg=", 1)[1].split("&")[0].split("[")[0] or None
    if text.startswith(("-", ".", "/")) or "://" in text.split(";")[0].split("@")[0]:
        return None
    try:
        return Requirement(text).name
    except InvalidRequirement:
        return None


def conda_name(entry: str) -> str | None:
    """The package a `conda:` dependency names.

    >>> conda_name("conda-forge::opencv=4.5"), conda_name("scikit-learn >=0.24"), conda_name("")
    ('opencv', 'scikit-learn', None)
    """
    hit = _CONDA_NAME.match(entry.strip())
    return hit.group(1).rstrip(".") if hit else None


def named_distributions(variant: Variant) -> tuple[Named, ...]:
    """The distributions the project tier checks: pip entries, then conda ones, each once."""
    seen: set[str] = {canonicalize_name(n) for n in (*TORCH_FAMILY, *_NOT_PROJECT)}
    out: list[Named] = []
    for source, entries, parse in (
        ("pip", variant.pip_extra, pip_name),
        ("conda", variant.conda_extra, conda_name),
    ):
        for entry in entries:
            name = parse(entry)
            if name is None or canonicalize_name(name) in seen:
                continue
            seen.add(canonicalize_name(name))
            out.append(Named(name=name, source=source))  # type: ignore[arg-type]
    return tuple(out[:_MAX_DISTS])


def check_named(
    python: Path, named: Named, *, conda_built: bool, timeout: float = DEFAULT_TIMEOUT
) -> SmokeCheck:
    """Run the import check of one distribution in the environment whose python is `python`."""
    label = f"import:{named.name}"
    if named.source == "conda" and not conda_built:
        return SmokeCheck(
            tier="project",
            name=label,
            status="skip",
            detail=f"{named.name} is named under conda:, and this environment was built with pip",
        )
    # Python 2.7 has no -I (envgen.smoke.report.legacy_python); the script then takes its own
    # folder off sys.path itself.
    flags = ["-E", "-s"] if legacy_python(python) else ["-I"]
    args = [str(python), *flags, str(PROJECT_SCRIPT), named.name]
    progress.update(f"project/{label}")
    try:
        result = _proc.run(
            args, what=f"import check of {named.name}", env=_proc.clean_env(), timeout=timeout,
            check=False,
        )  # fmt: skip
    except EnvgenError as exc:
        return SmokeCheck(tier="project", name=label, status="fail", detail=exc.message)
    return _to_check(label, named, result.stdout, result.returncode, result.stderr)


def _to_check(label: str, named: Named, stdout: str, returncode: int, stderr: str) -> SmokeCheck:
    lines = stdout.strip().splitlines()
    try:
        data = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or returncode != 0:
        tail = "\n".join(stderr.strip().splitlines()[-8:])
        detail = f"the import check of {named.name} exited with status {returncode}"
        return SmokeCheck(
            tier="project", name=label, status="fail", detail=detail + (f"\n{tail}" if tail else "")
        )
    seconds = float(data.get("seconds") or 0.0)
    status, version = str(data.get("status")), str(data.get("version") or "")
    modules = ", ".join(str(m) for m in data.get("modules") or [])
    if status == "absent":
        if named.source == "conda":
            return SmokeCheck(
                tier="project", name=label, status="skip", seconds=seconds,
                detail=f"{named.name} (conda:) installs no Python distribution",
            )  # fmt: skip
        return SmokeCheck(
            tier="project", name=label, status="fail", seconds=seconds,
            detail=f"{named.name} is named under pip: but is not installed "
            "(the lock left it out: check the lock's pins)",
        )  # fmt: skip
    if status == "pass":
        what = f"imports {modules}" if modules else str(data.get("detail") or "")
        return SmokeCheck(
            tier="project", name=label, status="pass", seconds=seconds,
            detail=f"{named.name} {version}: {what}",
        )  # fmt: skip
    return SmokeCheck(
        tier="project", name=label, status="fail", seconds=seconds,
        detail=f"{named.name} {version}: {data.get('detail')}; likely cause: {data.get('cause')}",
    )  # fmt: skip


def with_project_checks(
    report: SmokeReport, python: Path, variant: Variant, *, conda_built: bool
) -> SmokeReport:
    """`report` with the project tier's checks appended (none when the spec names nothing)."""
    named = named_distributions(variant)
    if not named:
        return report
    checks = tuple(check_named(python, n, conda_built=conda_built) for n in named)
    log.info(
        "%s: project imports %d passed, %d failed, %d skipped",
        variant.id,
        sum(c.status == "pass" for c in checks),
        sum(c.status == "fail" for c in checks),
        sum(c.status == "skip" for c in checks),
    )
    return SmokeReport(checks=(*report.checks, *checks), python=report.python)


__all__ = [
    "PROJECT_SCRIPT",
    "Named",
    "check_named",
    "conda_name",
    "named_distributions",
    "pip_name",
    "with_project_checks",
]
