"""envgen ci github|gitlab: the workflows pass check-jsonschema's bundled (offline) schemas."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from envgen.infra import proc as _proc
from envgen.infra.settings import Settings
from envgen.render.ci import CiOptions, write_ci

pytestmark = pytest.mark.integration

SPEC = (
    'name: demo\npython: "3.8"\ntorch: "1.7.1"\naccelerators: [cpu, cu110, cu102]\n'
    'ci: {gpu_runner: "self-hosted,gpu"}\n'
)


def _check_jsonschema(schema: str, path: Path) -> None:
    tool = Path(sys.executable).parent / "check-jsonschema"
    result = _proc.run(
        [str(tool), "--builtin-schema", schema, str(path)], what="check-jsonschema", check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "project.yaml"
    path.write_text(SPEC)
    return path


def test_github_workflow(spec: Path) -> None:
    out, written = write_ci(CiOptions(spec=spec, engine="github", settings=Settings()))
    assert written
    assert out == spec.parent / ".github/workflows/envgen.yml"
    _check_jsonschema("vendor.github-workflows", out)
    data = yaml.safe_load(out.read_text())
    job = data["jobs"]["variant"]
    assert job["strategy"]["matrix"]["include"] == [
        {"variant": "cpu", "runner": ["ubuntu-latest"]},
        {"variant": "cu102", "runner": ["self-hosted", "gpu"]},
        {"variant": "cu110", "runner": ["self-hosted", "gpu"]},
    ]
    runs = [s["run"] for s in job["steps"] if "run" in s]
    assert runs[1:] == [
        "envgen check project.yaml",
        # build smokes the environment it built: one smoke per variant, its JUnit report uploaded
        (
            'envgen build project.yaml --variant "${{ matrix.variant }}" '
            '--junit "smoke-${{ matrix.variant }}.xml"'
        ),
    ]
    upload = job["steps"][-1]
    assert upload["uses"] == "actions/upload-artifact@v4"
    assert upload["with"]["path"] == "smoke-${{ matrix.variant }}.xml"
    assert not write_ci(CiOptions(spec=spec, engine="github", settings=Settings()))[1]


def test_gitlab_ci(spec: Path) -> None:
    out, _ = write_ci(CiOptions(spec=spec, engine="gitlab", settings=Settings()))
    _check_jsonschema("vendor.gitlab-ci", out)
    data = yaml.safe_load(out.read_text())
    assert sorted(k for k in data if k.startswith("envgen:")) == [
        "envgen:cpu",
        "envgen:cu102",
        "envgen:cu110",
    ]
    assert "tags" not in data["envgen:cpu"]
    assert data["envgen:cu110"]["tags"] == ["self-hosted", "gpu"]
    assert data[".envgen-variant"]["artifacts"]["reports"] == {"junit": "smoke-$VARIANT.xml"}
    assert data[".envgen-variant"]["script"] == [
        "envgen check project.yaml",
        'envgen build project.yaml --variant "$VARIANT" --junit "smoke-$VARIANT.xml"',
    ]


def test_a_broken_workflow_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  x:\n    steps: []\n")
    tool = Path(sys.executable).parent / "check-jsonschema"
    result = _proc.run(
        [str(tool), "--builtin-schema", "vendor.github-workflows", str(bad)], what="c", check=False
    )
    assert result.returncode == 1


@pytest.mark.parametrize(
    ("out", "spec_rel"),
    [
        (".github/workflows/envgen.yml", "project.yaml"),
        ("ci/envgen.yml", "../project.yaml"),
        ("envgen.yml", "project.yaml"),
    ],
)
def test_spec_path_is_relative_to_where_the_ci_runs(spec: Path, out: str, spec_rel: str) -> None:
    path, _ = write_ci(
        CiOptions(spec=spec, engine="github", out=spec.parent / out, settings=Settings())
    )
    steps = yaml.safe_load(path.read_text())["jobs"]["variant"]["steps"]
    assert steps[3]["run"] == f"envgen check {spec_rel}"
