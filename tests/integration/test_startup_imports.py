"""What the spec-reading commands import in a fresh interpreter (their start-up cost).

`envgen list`, `lock --pins-only` and `check --pins-only` with a warm matrix cache must not
import pydantic (the matrix schema: ~50 ms), Jinja2 (~25 ms), asyncio or the lockers, rich, or
the HTTP stack; `envgen --help` must not import envgen.app. docs/benchmarks.md has the timings.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from envgen.infra import proc as _proc

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]
HEAVY = (
    "pydantic",
    "jinja2",
    "asyncio",
    "rich",
    "ssl",
    "http.client",
    "urllib.request",
    "socket",
    "envgen.model.matrix_schema",
    "envgen.model.targets_schema",
    "envgen.lock.verify",
    "envgen.lock.pip",
    "envgen.lock.conda",
)
# Runs envgen's CLI in-process, then prints the modules it imported.
PROBE = """
import json, sys
sys.argv = ["envgen", *sys.argv[1:]]
from envgen.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def _modules(tmp_path: Path, *args: str) -> set[str]:
    result = _proc.run(
        [sys.executable, "-c", PROBE, *args],
        what="envgen probe",
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "ENVGEN_CACHE_DIR": str(tmp_path / "cache"), "CI": "1"},
        check=False,
    )
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] in (0, None), result.stderr
    return set(report["modules"])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "project.yaml", tmp_path / "project.yaml")
    _modules(tmp_path, "lock", "--pins-only", "project.yaml")  # fills the matrix cache
    return tmp_path


@pytest.mark.parametrize(
    "args",
    [
        ("list", "project.yaml"),
        ("lock", "--pins-only", "project.yaml"),
        ("check", "--pins-only", "project.yaml"),
    ],
)
def test_spec_reading_commands_import_nothing_heavy(project: Path, args: tuple[str, ...]) -> None:
    modules = _modules(project, *args)
    assert "envgen.model.matrix" in modules  # the probe saw the command run
    assert sorted(m for m in HEAVY if m in modules) == []


def test_help_imports_no_stage(tmp_path: Path) -> None:
    modules = _modules(tmp_path, "--help")
    assert "envgen.cli" in modules
    assert sorted(m for m in modules if m.startswith(("envgen.app", "envgen.model"))) == []
