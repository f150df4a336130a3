"""The package as published: `python -m build` output installs into a fresh venv and runs.

The sdist and the wheel built from it carry matrices/ and templates/ (as envgen/_data/), so the
installed `envgen` works with no checkout beside it. Needs PyPI (hatchling for the build, the
dependencies for the install); uv does the installing, as it would for a user.
"""

from __future__ import annotations

import os
import sys
import zipfile
from pathlib import Path

import pytest

from envgen import DISTRIBUTION, __version__, install_requirement
from envgen.infra import proc as _proc
from envgen.infra.settings import Settings

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]


def _uv() -> str:
    uv = _proc.which("uv")
    assert uv is not None
    return uv


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(wheel, venv): `python -m build` output, the wheel installed into a fresh venv by uv."""
    tmp_path = tmp_path_factory.mktemp("dist")
    dist = tmp_path / "dist"
    env = {**_proc.clean_env(), "PIP_CONFIG_FILE": os.devnull}
    _proc.run(
        [sys.executable, "-m", "build", "--installer", "uv", "--outdir", str(dist), str(ROOT)],
        what="python -m build",
        env=env,
        timeout=600,
    )
    stem = DISTRIBUTION.replace("-", "_")
    assert sorted(p.name for p in dist.iterdir()) == [
        f"{stem}-{__version__}-py3-none-any.whl",
        f"{stem}-{__version__}.tar.gz",
    ]
    wheel = dist / f"{stem}-{__version__}-py3-none-any.whl"
    _check_wheel(wheel, stem)
    venv = tmp_path / "venv"
    _proc.run([_uv(), "venv", "--python", sys.executable, str(venv)], what="uv venv", env=env)
    _proc.run(
        [_uv(), "pip", "install", "--python", str(venv / "bin" / "python"), str(wheel)],
        what="uv pip install the wheel",
        env=env,
        timeout=600,
    )
    return wheel, venv


def _check_wheel(wheel: Path, stem: str) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = zf.read(f"{stem}-{__version__}.dist-info/METADATA").decode()
    for data in (
        "envgen/_data/matrices/pip.yaml",
        "envgen/_data/matrices/releases.yaml",
        "envgen/_data/matrices/schema.json",
        "envgen/_data/templates/requirements.txt.j2",
        "envgen/smoke/script.py",
        "envgen/py.typed",
    ):
        assert data in names, data
    assert f"Name: {DISTRIBUTION}\n" in metadata
    assert "License-Expression: MIT\n" in metadata
    assert "Classifier: Programming Language :: Python :: 3.11\n" in metadata


def _env(venv: Path) -> dict[str, str]:
    """The fresh venv's bin first on PATH, and nothing from this checkout's venv."""
    return {
        **_proc.clean_env(),
        "PIP_CONFIG_FILE": os.devnull,
        "PATH": f"{venv / 'bin'}:/usr/bin:/bin",
    }


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_the_built_wheel_installs_and_runs(installed: tuple[Path, Path], tmp_path: Path) -> None:
    _, venv = installed
    env = _env(venv)
    # Run from an empty folder, so nothing from the checkout can stand in for the wheel's data.
    work = tmp_path / "elsewhere"
    work.mkdir()
    envgen = str(venv / "bin" / "envgen")
    version = _proc.run([envgen, "--version"], what="envgen --version", cwd=work, env=env)
    assert version.stdout == f"envgen, version {__version__}\n"
    listed = _proc.run([envgen, "matrix", "list"], what="envgen matrix list", cwd=work, env=env)
    # The same table as the checkout's own matrices/ give.
    here = _proc.run(
        [sys.executable, "-m", "envgen", "matrix", "list"],
        what="envgen matrix list",
        env={**_proc.clean_env(), "PIP_CONFIG_FILE": os.devnull},
    )
    assert listed.stdout == here.stdout
    assert len(listed.stdout.splitlines()) > 50
    where = _proc.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import envgen.infra.resources as r; print(r.MATRICES_DIR)",
        ],
        what="where the matrices are",
        cwd=work,
        env=env,
    )
    assert where.stdout.strip().endswith("site-packages/envgen/_data/matrices")
    # What generated CI files install is this distribution at this version.
    assert install_requirement() == f"{DISTRIBUTION}=={__version__}"


def test_generated_ci_installs_this_distribution(tmp_path: Path) -> None:
    from envgen.render.ci import CiOptions, write_ci

    spec = tmp_path / "project.yaml"
    spec.write_text('name: demo\npython: "3.11"\ntorch: "2.13.0"\naccelerators: [cpu]\n')
    github, _ = write_ci(CiOptions(spec=spec, engine="github", settings=Settings()))
    gitlab, _ = write_ci(CiOptions(spec=spec, engine="gitlab", settings=Settings()))
    line = f'python -m pip install "{DISTRIBUTION}=={__version__}"'
    assert f"        run: {line}\n" in github.read_text()
    assert f"    - {line}\n" in gitlab.read_text()


def test_release_workflow_publishes_what_its_smoke_checked(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    """.github/workflows/release.yml: valid, trusted publishing only, and its smoke step's envgen
    commands pass against the wheel built here (the venv stands in for its /tmp/smoke)."""
    import shlex

    import yaml

    path = ROOT / ".github" / "workflows" / "release.yml"
    tool = Path(sys.executable).parent / "check-jsonschema"
    checked = _proc.run(
        [str(tool), "--builtin-schema", "vendor.github-workflows", str(path)],
        what="check-jsonschema",
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    jobs = yaml.safe_load(path.read_text())["jobs"]
    publish = jobs["publish"]
    assert publish["permissions"] == {"id-token": "write"}  # OIDC: no stored token
    assert publish["steps"][-1] == {"uses": "pypa/gh-action-pypi-publish@release/v1"}
    assert "password" not in path.read_text()
    smoke = next(s["run"] for s in jobs["build"]["steps"] if s.get("name", "").startswith("Smoke"))
    commands = [shlex.split(line) for line in smoke.splitlines() if "/tmp/smoke/bin/envgen" in line]
    assert len(commands) >= 4
    _, venv = installed
    work = tmp_path / "work"
    work.mkdir()
    (work / "project.yaml").write_bytes((ROOT / "project.yaml").read_bytes())
    for argv in commands:
        argv[0] = str(venv / "bin" / "envgen")
        _proc.run(argv, what=" ".join(argv[1:3]), cwd=work, env=_env(venv))


@pytest.mark.parametrize(
    ("value", "line"),
    [
        ("0.2.0", "envgen-torch==0.2.0"),
        ("envgen-torch>=0.1,<0.3", "envgen-torch<0.3,>=0.1"),
        (
            "git+https://github.com/example/envgen@v0.2.0",
            "envgen-torch @ git+https://github.com/example/envgen@v0.2.0",
        ),
        ("dist/envgen_torch-0.2.0-py3-none-any.whl", "dist/envgen_torch-0.2.0-py3-none-any.whl"),
    ],
)
def test_spec_chooses_how_ci_installs_envgen(tmp_path: Path, value: str, line: str) -> None:
    from envgen.render.ci import CiOptions, write_ci

    spec = tmp_path / "project.yaml"
    spec.write_text(
        'name: demo\npython: "3.11"\ntorch: "2.13.0"\naccelerators: [cpu]\n'
        f"ci: {{install: '{value}'}}\n"
    )
    github, _ = write_ci(CiOptions(spec=spec, engine="github", settings=Settings()))
    gitlab, _ = write_ci(CiOptions(spec=spec, engine="gitlab", settings=Settings()))
    assert f'        run: python -m pip install "{line}"\n' in github.read_text()
    assert f'    - python -m pip install "{line}"\n' in gitlab.read_text()


@pytest.mark.parametrize(
    "value",
    [
        "numpy==2.0",  # another distribution
        'x" && curl evil',  # a quote, spaces: it is written inside double quotes
        "$(id)",
        "-r requirements.txt",  # an option
        "../outside/envgen.whl",  # a wheel outside the repository
        "/abs/envgen.whl",
        "envgen-torch @ file:///etc/passwd",
        "git+https://github.com/example/envgen",  # a git URL must name a tag or commit
    ],
)
def test_ci_install_refuses_what_is_not_envgen(tmp_path: Path, value: str) -> None:
    import json

    from envgen.errors import SpecError
    from envgen.model.spec import load_spec

    spec = tmp_path / "project.yaml"
    spec.write_text(
        'name: demo\npython: "3.11"\ntorch: "2.13.0"\naccelerators: [cpu]\n'
        f"ci: {{install: {json.dumps(value)}}}\n"
    )
    with pytest.raises(SpecError, match=r"ci\.install: .* is not a version"):
        load_spec(spec)


def test_pip_tools_missing_is_tool_not_found(installed: tuple[Path, Path], tmp_path: Path) -> None:
    """The wheel does not pull in pip-tools: `--resolver pip-tools` says how to get it (exit 12)."""
    _, venv = installed
    env = _env(venv)
    (tmp_path / "project.yaml").write_text(
        'name: t\npython: "3.11"\ntorch: "2.13.0"\naccelerators: [cpu]\nmanagers: [pip]\n'
    )
    result = _proc.run(
        [str(venv / "bin" / "envgen"), "lock", "--resolver", "pip-tools"],
        what="envgen lock --resolver pip-tools",
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert (result.returncode, result.stdout) == (12, "")
    assert result.stderr == (
        "error: pip-compile is not installed or not on PATH; it is needed to lock with "
        "--resolver pip-tools (or `lock: {resolver: pip-tools}` in the spec)\n"
        f"  hint: `pip install pip-tools` (or `pip install '{DISTRIBUTION}[pip-tools]'`), or use "
        "the default resolver, uv\n"
    )
    assert not (tmp_path / "environments" / "cpu" / "requirements.txt").exists()
