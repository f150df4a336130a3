"""The python: the file's, checked against what the release was published for (the nearest one
where it was not, or where envgen cannot build it), or with none named, the newest python every
exact pin has a wheel for (envgen.repro.wheels).
"""

from __future__ import annotations

from typing import Final

from envgen.model.matrix import Matrix, Release
from envgen.model.variants import known_python_trap
from envgen.repro.importer.evidence import Evidence, admits, indexed_by_pytorch
from envgen.repro.importer.report import Report
from envgen.repro.reading import excerpt
from envgen.repro.wheels import PinWheels, choose_python


def py_key(p: str) -> tuple[int, ...]:
    return tuple(int(x) for x in p.split("."))


# The oldest python envgen locks, builds and smoke-tests (2.7 and 3.5 with pip 20.3.4 and
# envgen/smoke/script27.py: envgen.lock.legacy): an older one is moved to the nearest that builds.
MIN_PYTHON: Final = "2.7"


def buildable_pythons(release: Release) -> list[str]:
    """The pythons torch was published for that envgen builds, newest first."""
    return sorted(
        (p for p in release.python if py_key(p) >= py_key(MIN_PYTHON)), key=py_key, reverse=True
    )


def check_python(found: Evidence, release: Release, report: Report) -> str | None:
    py = found.python
    if py is None:
        return None
    buildable = [p for p in release.python if py_key(p) >= py_key(MIN_PYTHON)]
    if py_key(py) < py_key(MIN_PYTHON) and buildable:
        nearest = min(buildable, key=py_key)
        # Old eras are reported as they are, and project.yaml proposes the nearest python
        # envgen can lock and build today (MIN_PYTHON; the file's python is kept beside the key).
        published = f"torch {release.torch} was published for python {', '.join(release.python)}"
        if py_key(py)[0] == 2:
            because = (
                f"project.yaml cannot say python {py} (torch's only Python 2 builds are for "
                f"2.7), though {published}"
            )
        elif py in release.python:
            because = (
                f"envgen cannot lock or build python {py} yet (uv refuses python older than "
                f"{MIN_PYTHON}, and the smoke checks need {MIN_PYTHON}), though {published}"
            )
        else:
            because = published
        because += (
            f"; {nearest} is the nearest python envgen builds that torch {release.torch} was "
            "published for"
        )
        found.comments["python-asked"] = (
            f"the file asks for python {py} ({excerpt(found.python_where)})"
        )
        report.depart(found.python_where, "python", py, nearest, because)
        return nearest
    if py in release.python:
        return py
    supported = sorted(release.python, key=py_key)
    wanted = py_key(py)
    same_major = [p for p in supported if py_key(p)[0] == wanted[0]] or supported
    nearest = min(same_major, key=lambda p: (abs(py_key(p)[1] - wanted[1]), -py_key(p)[1]))
    report.depart(
        found.python_where,
        "python",
        py,
        nearest,
        f"torch {release.torch} was published for python {', '.join(supported)}",
    )
    return nearest


def companion_wheels(found: Evidence, matrix: Matrix, *, conda: bool = False) -> list[PinWheels]:
    """The exact torchvision / torchaudio pins from PyPI (no local label) as pins of the file:
    the pythons PyPI has their linux-64 wheels for (matrices/companions.yaml pypi-wheels, read
    from PyPI's files), which may stop before torch's (torchvision 0.14.0: cp37-cp310, torch
    1.13.0: up to cp311). Pure-Python releases and rows with no linux-64 wheel say nothing. A
    pin taken from a PyTorch index (`torchvision==0.14.0+cu116`, or a file that names one) is
    that index's build of the release, which PyTorch builds for the same pythons as the PyPI
    one: PyPI's list stands in for it, and the message says so (inferred). So does it for the
    pytorch channel's conda build (`conda`: `torchvision==0.14.1 ... -c pytorch`), which the
    same release process built for the same pythons (inferred: the channel's repodata of the
    time is not recorded here)."""
    out: list[PinWheels] = []
    indexed = indexed_by_pytorch(found)
    for name, pin in sorted(found.companions.items()):
        row = matrix.companion(name, pin.version) if pin.version else None
        pythons = row.pypi_pythons("linux-64") if row is not None else None
        if not pythons:
            continue
        tags = ", ".join("cp" + p.replace(".", "") for p in sorted(pythons, key=py_key))
        twin = " for PyPI's build, inferred for the PyTorch index's" if indexed or pin.label else ""
        if conda:
            twin = " for PyPI's build, inferred for the pytorch channel's conda build"
        out.append(
            PinWheels(
                requirement=f"{name}=={pin.version}",
                pythons=frozenset(pythons),
                how=f"{tags} wheels (matrices/companions.yaml){twin}",
            )
        )
    return out


def python_from_pins(
    found: Evidence,
    matrix: Matrix,
    release: Release,
    wheels: list[PinWheels],
    report: Report,
    *,
    manager: str,
) -> str | None:
    """The newest python torch was published for (on the pip route: has linux wheels for) that
    every exact pin has a wheel for, and that no known issue names for this release (torch 1.7.x
    crashes at exit on 3.9) where another fits.

    None where no pin rules out a python (the newest fits them all): project.yaml then names
    none, and the lock takes the default python of the spec, which also knows what the pins do
    not (torchvision 0.14.1 stops at cp310; known issues). A python is written only where the
    pins decide it.
    """
    candidates = buildable_pythons(release)
    linux = release.pypi_pythons("linux-64") if manager == "pip" else None
    if linux:
        # on the pip route, the pythons torch has linux wheels for (1.10.2 lists 3.10 for its
        # aarch64 and macOS wheels; its linux x86_64 ones stop at cp39): a pin without cp310
        # rules out no python torch itself allows
        candidates = [p for p in candidates if p in linux] or candidates
    if found.python_range is not None:
        # the project's requires-python (`^3.7`): a python below it is not the project's
        candidates = [p for p in candidates if admits(found.python_range, p)] or candidates
    published = "has linux wheels for" if linux else "was published for"
    chosen, skipped = choose_python(candidates, wheels)
    if chosen is not None and not skipped:
        report.warnings.append(
            f"{found.source}: no python named, and every exact pin ({len(wheels)} looked up) has "
            f"a wheel for python {chosen}, the newest torch {release.torch} {published}; "
            "project.yaml names none, so the lock takes the spec's default python"
        )
        return None
    trap = None if chosen is None else known_python_trap(matrix, release, chosen)
    if chosen is not None and trap is not None:
        safe = [p for p in candidates if known_python_trap(matrix, release, p) is None]
        instead, _ = choose_python(safe, wheels)
        if instead is not None:
            report.warnings.append(
                f"{found.source}: not python {chosen} (known issue {trap}) for torch "
                f"{release.torch} (matrices/known-issues.yaml), though the pins fit it"
            )
            chosen = instead
    why = "; ".join(
        f"python {python}: " + ", ".join(f"{p.requirement} has {p.how}" for p in misses[:4])
        for python, misses in skipped[:2]
    )
    if chosen is None:
        report.warnings.append(
            f"{found.source}: no python torch {release.torch} {published} "
            f"({', '.join(candidates)}) has wheels for every exact pin ({why}); project.yaml "
            "names no python, so the lock takes the newest and builds the rest from source"
        )
        return None
    report.warnings.append(
        f"{found.source}: python {chosen}: the file names none; {chosen} is the newest python "
        f"torch {release.torch} {published} that every exact pin ({len(wheels)} looked up) "
        "has a wheel for" + (f" (not {why})" if why else "")
    )
    return chosen
