"""`envgen matrix verify`: the compatibility matrix checked against what PyPI publishes.

`verify_matrix` compares matrices/releases.yaml, companions.yaml and the PyPI builds of pip.yaml
with the facts envgen.verification.pypi reads, and returns findings. Pure: no network, no printing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from envgen.model.matrix import Matrix
from envgen.verification.pypi import COMPANIONS, PypiFacts, torch_specifier


@dataclass(frozen=True)
class Finding:
    severity: Literal["error", "warning"]
    where: str
    message: str


# --- verification (pure) -----------------------------------------------------------------------
def verify_matrix(matrix: Matrix, facts: PypiFacts) -> list[Finding]:  # noqa: PLR0912 - one branch per independent check of a release row
    """Compare releases.yaml with PyPI facts; an empty list means everything checked agrees."""
    findings: list[Finding] = []
    torch = facts.package("torch")
    for rel in matrix.releases:
        where = f"releases.yaml torch {rel.torch}"
        tf = torch.get(rel.torch)
        if tf is None:
            if "date" in rel.inferred or rel.date is None:
                findings.append(Finding("warning", where, "not on PyPI (row is not checked)"))
            else:
                findings.append(Finding("error", where, "not on PyPI"))
            continue
        if tf.yanked:
            findings.append(Finding("error", where, f"yanked on PyPI: {tf.yanked_reason}"))
        if rel.date is not None and rel.date != tf.date:
            findings.append(
                Finding("error", where, f"date {rel.date} but earliest upload is {tf.date}")
            )
        if tf.linux_pythons and "python" not in rel.inferred:
            extra = [p for p in rel.python if p not in tf.pythons]
            if extra:
                findings.append(Finding("error", where, f"python {extra} have no cp wheel on PyPI"))
        for name in COMPANIONS:
            companion: str | None = getattr(rel, name)
            if companion is None:
                continue
            cf = facts.package(name).get(companion)
            cwhere = f"{where} {name} {companion}"
            if cf is None:
                findings.append(Finding("error", cwhere, "not on PyPI"))
                continue
            if cf.yanked:
                # PEP 592: an exact pin still installs a yanked release, so this only warns.
                findings.append(Finding("warning", cwhere, f"yanked on PyPI: {cf.yanked_reason}"))
            pinned = cf.pins_torch()
            req = cf.torch_requirement()
            if pinned is not None:
                if pinned != rel.torch:
                    findings.append(Finding("error", cwhere, f"Requires-Dist pins torch=={pinned}"))
            elif req is not None and req.specifier and rel.torch not in req.specifier:
                findings.append(
                    Finding("error", cwhere, f"Requires-Dist {req} excludes torch {rel.torch}")
                )
            elif name not in rel.inferred and cf.requires_dist:
                findings.append(
                    Finding(
                        "warning",
                        cwhere,
                        "Requires-Dist does not pin torch; mark the field inferred",
                    )
                )
    return findings + _verify_companion_rows(matrix, facts) + _verify_pypi_builds(matrix, facts)


def _verify_companion_rows(matrix: Matrix, facts: PypiFacts) -> list[Finding]:
    """companions.yaml against the companions' Requires-Dist."""
    findings: list[Finding] = []
    for c in matrix.companions:
        pkg = facts.package(c.package)
        if not pkg.versions:
            continue
        where = f"companions.yaml {c.package} {c.version}"
        cf = pkg.get(c.version)
        if cf is None:
            findings.append(Finding("error", where, "not on PyPI"))
        elif cf.metadata_from is not None and torch_specifier(cf) != c.torch:
            said = f"torch{torch_specifier(cf)}" if torch_specifier(cf) else "no torch pin"
            findings.append(
                Finding("error", where, f"Requires-Dist says {said}, the row torch{c.torch!s}")
            )
    return findings


def _verify_pypi_builds(matrix: Matrix, facts: PypiFacts) -> list[Finding]:
    """pip.yaml rows that install from PyPI: the pinned versions have wheels for their platforms."""
    findings: list[Finding] = []
    for b in matrix.pip:
        if b.index != "pypi":
            continue
        where = f"pip.yaml torch {b.torch} {b.accelerator} {'/'.join(b.platforms)}"
        for name, pin in (
            ("torch", b.torch),
            ("torchvision", b.torchvision),
            ("torchaudio", b.torchaudio),
        ):
            pkg = facts.package(name)
            if pin is None or not pkg.versions:
                continue
            vf = pkg.get(pin.split("+", 1)[0])
            if vf is None:
                findings.append(Finding("error", where, f"{name} {pin} is not on PyPI"))
                continue
            missing = [p for p in b.platforms if vf.platforms and p not in vf.platforms]
            if missing:
                findings.append(
                    Finding("error", where, f"{name} {pin} has no PyPI wheel for {missing}")
                )
    return findings
