"""The project tier of the smoke checks (issue 29 item 1), in a real venv with real imports.

Small wheels made here (zipfile) stand for a paper's packages: one that imports, one whose import
needs a system library that is not there, one that needs a name its (too-new) dependency dropped,
one that imports a dependency nobody installed. uv installs them from local files only.
"""

from __future__ import annotations

import dataclasses
import subprocess  # noqa: TID251 - uv builds the venv the checks run in
import sys
from pathlib import Path

import pytest

from envgen.infra import proc as _proc
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.smoke.project import named_distributions, with_project_checks
from envgen.smoke.report import SmokeReport, parse_report, render_junit
from tests.support.wheels import make_wheel

pytestmark = [pytest.mark.integration]

WHEELS: dict[str, tuple[str, dict[str, str]]] = {
    # name: (version, files); no top_level.txt, so the import names come from RECORD
    "good-pkg": ("1.0", {"goodmod/__init__.py": "VALUE = 1\n", "goodhelper.py": ""}),
    "needs-lib": (
        "2.0",
        {
            "needslib/__init__.py": "raise ImportError("
            "'libsndfile.so.1: cannot open shared object file: No such file or directory')\n"
        },
    ),
    "newdep": ("3.0", {"newdep/__init__.py": "# old_api was removed in 3.0\n"}),
    "uses-old-api": (
        "0.1.0.post2207010342",
        {"oldapi/__init__.py": "from newdep import old_api\n"},
    ),
    "undeclared": ("1.0", {"undeclared/__init__.py": "import notinstalledmod\n"}),
    "uses-moved": ("1.0", {"usesmoved/__init__.py": "import newdep.cluster.supervised\n"}),
}


@pytest.fixture(scope="module")
def env_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project-tier")
    wheels = [
        make_wheel(root / "wheels", name, version, files=files)
        for name, (version, files) in WHEELS.items()
    ]
    uv = _proc.require("uv", why="test")
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, root / "env"], check=True)
    python = root / "env" / "bin" / "python"
    subprocess.run(
        [uv, "pip", "install", "-q", "--offline", "--python", python, *wheels], check=True
    )
    return python


def variant(pip: tuple[str, ...], conda: tuple[str, ...] = ()) -> Variant:
    spec = parse_spec(
        'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n',
        path=Path("project.yaml"),
    )
    (found,) = expand(spec, load_matrix()).variants
    return dataclasses.replace(found, pip_extra=pip, conda_extra=conda)


def test_names_come_from_pip_and_conda_without_the_torch_family() -> None:
    v = variant(
        ("torch==2.1.0", "good-pkg>=1", "-e .", "git+https://x/thop.git#egg=thop"),
        ("conda-forge::opencv=4.5", "pip"),
    )
    assert [(n.name, n.source) for n in named_distributions(v)] == [
        ("good-pkg", "pip"),
        ("thop", "pip"),
        ("opencv", "conda"),
    ]


def test_each_named_distribution_is_imported_and_failures_say_why(env_python: Path) -> None:
    v = variant(
        ("good-pkg", "needs-lib", "uses-old-api", "undeclared", "uses-moved", "never-installed"),
        ("ffmpeg",),
    )
    report = with_project_checks(SmokeReport(checks=()), env_python, v, conda_built=True)
    got = {c.name: (c.status, c.detail) for c in report.checks}
    assert got == {
        "import:good-pkg": ("pass", "good-pkg 1.0: imports goodhelper, goodmod"),
        "import:needs-lib": (
            "fail",
            "needs-lib 2.0: import needslib: ImportError: libsndfile.so.1: cannot open shared "
            "object file: No such file or directory; likely cause: a missing system library: "
            "libsndfile.so.1 is not on this machine (install the system package that provides it)",
        ),
        "import:uses-old-api": (
            "fail",
            "uses-old-api 0.1.0.post2207010342: import oldapi: ImportError: cannot import name "
            f"'old_api' from 'newdep' ({env_python.parents[1]}/lib/python3.11/site-packages/"
            "newdep/__init__.py); likely cause: a too-new (or too-old) dependency: newdep 3.0 "
            "has no 'old_api'",
        ),
        "import:undeclared": (
            "fail",
            "undeclared 1.0: import undeclared: ModuleNotFoundError: No module named "
            "'notinstalledmod'; likely cause: a missing dependency: notinstalledmod is not "
            "installed (undeclared by the distribution, or left out of the lock)",
        ),
        "import:uses-moved": (
            "fail",
            "uses-moved 1.0: import usesmoved: ModuleNotFoundError: No module named "
            "'newdep.cluster'; likely cause: a too-new (or too-old) dependency: newdep 3.0 has "
            "no module newdep.cluster",
        ),
        "import:never-installed": (
            "fail",
            "never-installed is named under pip: but is not installed (the lock left it out: "
            "check the lock's pins)",
        ),
        "import:ffmpeg": ("skip", "ffmpeg (conda:) installs no Python distribution"),
    }
    assert {c.tier for c in report.checks} == {"project"}
    # reported like the other tiers: JUnit has a project suite with the failures
    junit = render_junit(report, name="cpu")
    assert '<testsuite name="cpu.project" tests="7" failures="5" skipped="1"' in junit
    # and the report's JSON round-trip keeps the tier
    assert (
        parse_report('[{"tier": "project", "name": "import:x", "status": "pass", "detail": ""}]', 0)
        .checks[0]
        .tier
        == "project"
    )


def test_conda_names_are_skipped_in_a_pip_build(env_python: Path) -> None:
    report = with_project_checks(
        SmokeReport(checks=()), env_python, variant((), ("good-pkg",)), conda_built=False
    )
    assert [(c.status, c.detail) for c in report.checks] == [
        ("skip", "good-pkg is named under conda:, and this environment was built with pip")
    ]
