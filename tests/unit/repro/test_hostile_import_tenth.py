"""A fresh attacker on the tenth draw's mechanisms (issue 24): an include an included file names
inside a Dockerfile or definition file, a build context widened from a clone's own root, and
inputs that made the new code quadratic or raise. Each file is a hostile repository's; nothing
outside the build context is read or echoed, and every import ends within
tests.support.bounds.LIMIT_S with a clear outcome (a project, or a refusal), never an internal
error."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, parse_file
from tests.support.bounds import bounded

MARKER = "ssh-rsa-AAAAB3NzaC1yc2E-marker-line"  # a fake key line to look for in messages


def _secret(tmp_path: Path) -> Path:
    outside = tmp_path / "home" / ".ssh"
    outside.mkdir(parents=True)
    (outside / "id_rsa").write_text(f"{MARKER}\n")
    return outside / "id_rsa"


def _echoed(found_warnings: list[str]) -> bool:
    return any(MARKER in w for w in found_warnings)


def test_an_included_files_include_stays_in_the_build_context(tmp_path: Path) -> None:
    key = _secret(tmp_path)
    repo = tmp_path / "home" / "src" / "evil"
    repo.mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / "Dockerfile").write_text(
        "FROM python:3.10\nCOPY . /app\nRUN pip install torch==2.1.0 -r /app/requirements.txt\n"
    )
    (repo / "requirements.txt").write_text(f"numpy\n-r ../../.ssh/id_rsa\n-r {key}\n")
    found = parse_file(repo / "Dockerfile")
    assert not _echoed(found.warnings)
    assert any("outside the build context" in w for w in found.warnings)


def test_a_setup_py_reading_a_symlink_out_of_the_context_is_not_followed(tmp_path: Path) -> None:
    key = _secret(tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "Dockerfile").write_text(
        "FROM python:3.10\nCOPY . /app\nWORKDIR /app\nRUN pip install torch==2.1.0 && pip install -e .\n"
    )
    (repo / "setup.py").write_text(
        'from setuptools import setup\nsetup(name="x", install_requires=open("requirements.txt")'
        ".read().splitlines())\n"
    )
    (repo / "requirements.txt").symlink_to(key)
    found = parse_file(repo / "Dockerfile")
    assert not _echoed(found.warnings)


def test_a_definition_files_include_stays_in_its_build_folder(tmp_path: Path) -> None:
    _secret(tmp_path)
    repo = tmp_path / "home" / "src" / "evil"
    repo.mkdir(parents=True)
    (repo / "requirements.txt").write_text("torch==2.1.0\n-r ../../../.ssh/id_rsa\n")
    (repo / "env.def").write_text(
        "Bootstrap: docker\nFrom: python:3.10\n\n%files\n    requirements.txt /opt/requirements.txt\n"
        "\n%post\n    pip install -r /opt/requirements.txt\n"
    )
    found = parse_file(repo / "env.def")
    assert not _echoed(found.warnings)


def test_a_clones_own_root_never_widens_to_the_folder_above(tmp_path: Path) -> None:
    outer = tmp_path / "proj"
    (outer / ".git").mkdir(parents=True)
    (outer / "private.txt").write_text("internal-secret-pkg==1.0\nAPI_KEY=sk-live-abcdef\n")
    evil = outer / "evil"
    (evil / ".git").mkdir(parents=True)
    (evil / "entry.sh").write_text("#!/bin/sh\n")
    (evil / "Dockerfile").write_text(
        "FROM python:3.10\nCOPY ./evil/entry.sh /\nCOPY . /ctx\n"
        "RUN pip install torch==2.1.0 -r /ctx/private.txt\n"
    )
    found = parse_file(evil / "Dockerfile")
    assert not any("sk-live" in w for w in found.warnings)
    assert "internal-secret-pkg==1.0" not in found.pip_reqs
    (evil / "env.def").write_text(
        "Bootstrap: docker\nFrom: python:3.10\n\n%files\n    ../private.txt /ctx/private.txt\n"
        "\n%post\n    pip install torch==2.1.0 -r /ctx/private.txt\n"
    )
    found = parse_file(evil / "env.def")
    assert "internal-secret-pkg==1.0" not in found.pip_reqs


def _run(path: Path) -> str:
    try:
        run_import(ImportOptions(source=path))
    except ImportSpecError:
        return "refused"
    return "imported"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # every case variant of PYTHON_VERSION as an ARG over an image with its own python
        (
            "Dockerfile",
            "FROM pytorch/pytorch:2.1.0-cuda11.8-cudnn8-runtime\n"
            + "".join(
                f"ARG {''.join(c.upper() if (i >> j) & 1 else c for j, c in enumerate('python_version'))}=3.8\n"
                for i in range(16000)
            )
            + "RUN pip install numpy\n",
        ),
        # blank lines between COPY candidates: `^\s*` spanned them, quadratic
        (
            "docker/Dockerfile",
            "FROM python:3.10\nRUN pip install torch==2.1.0" + "\n" * 200_000 + "X\n",
        ),
    ],
)
def test_quadratic_inputs_end_within_the_bound(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    with bounded():
        _run(path)


def test_a_pyproject_of_blank_lines_and_escaped_dependencies_is_read_once(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    deps = ", ".join(f'"\\u0061{i}"' for i in range(60_000))
    (tmp_path / "pyproject.toml").write_text(
        "\n" * 100_000 + f'[project]\nname = "x"\ndependencies = [{deps}, "torch==2.1.0"]\n'
    )
    (tmp_path / "install.sh").write_text("pip install -e .\n" * 20)
    with bounded():
        _run(tmp_path / "install.sh")


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # a RUN line substituted twice overflowed the expansion bound outside its handler
        (
            "Dockerfile",
            "FROM python:3.10\nARG X=${Y}${Y}${Y}${Y}\nARG Y="
            + "a" * 9000
            + "\nRUN pip install torch==2.1.0 $X\n",
        ),
        # an integer past Python's 4300-digit limit, in TOML and as a pixi __cuda
        ("pixi.toml", f'[workspace]\nchannels = ["conda-forge"]\na = {"1" * 5000}\n'),
        (
            "pixi.toml",
            '[workspace]\nchannels = ["conda-forge"]\nplatforms = ["linux-64"]\n'
            f'[system-requirements]\ncuda = "{"9" * 5000}"\n[dependencies]\npytorch = "2.6.0"\n',
        ),
        # names too long for the file system
        ("install.sh", "pip install ./" + "c" * 300 + "\npip install torch==2.1.0\n"),
        (
            "Dockerfile",
            "FROM python:3.10\nCOPY " + "a" * 300 + " /x\nRUN pip install torch==2.1.0\n",
        ),
    ],
)
def test_hostile_values_end_in_an_answer_not_an_internal_error(
    tmp_path: Path, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text)
    with bounded():
        assert _run(path) in {"imported", "refused"}


def test_a_helper_folder_that_is_a_clone_itself_never_widens(tmp_path: Path) -> None:
    """`p/scripts` cloned inside another checkout `p`: its script does not read p's files."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("torch==1.7.1\n")
    (tmp_path / "scripts" / ".git").mkdir(parents=True)
    (tmp_path / "scripts" / "install.sh").write_text("pip install -r requirements.txt\n")
    assert parse_file(tmp_path / "scripts" / "install.sh").torch is None
