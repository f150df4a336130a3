"""Every `--json` output validates against its schema in docs/reference/json.md.

The commands run as a user runs them (a process each), against the loopback index with tiny fake
wheels (tests/support), so the documents are real ones: a lock, a build and its smoke report, a
stale check, doctor with and without an error to explain, clean.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from envgen.infra import proc as _proc

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]
MINI = ROOT / "tests" / "data" / "matrix-mini"
DOC = ROOT / "docs" / "reference" / "json.md"


def _schemas() -> dict[str, dict[str, Any]]:
    """`envgen X --json` heading words -> the JSON Schema in the fenced block under it."""
    text = DOC.read_text(encoding="utf-8")
    out: dict[str, dict[str, Any]] = {}
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        heading, _, body = section.partition("\n")
        block = re.search(r"```json\n(.*?)```", body, re.DOTALL)
        assert block is not None, heading
        schema = json.loads(block.group(1))
        jsonschema.Draft202012Validator.check_schema(schema)
        for command in re.findall(r"`envgen (\w+) --json`", heading):
            out[command] = schema
    return out


SCHEMAS = _schemas()


def envgen(folder: Path, env: dict[str, str], *args: str) -> tuple[int, Any, str]:
    full = {**_proc.clean_env(), "PIP_CONFIG_FILE": os.devnull, **env}
    result = _proc.run(
        [sys.executable, "-m", "envgen", *args],
        what="envgen",
        cwd=folder,
        env=full,
        check=False,
        timeout=600,
    )
    command = args[0]
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMAS[command])
    return result.returncode, data, result.stderr


@pytest.fixture
def project(tmp_path: Path, pytorch_index) -> tuple[Path, dict[str, str]]:  # type: ignore[no-untyped-def]
    (tmp_path / "project.yaml").write_text(
        'name: t\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n'
        "torchvision: false\ntorchaudio: false\n"
    )
    env = {
        "ENVGEN_PYTORCH_INDEX": pytorch_index.root_url,
        "ENVGEN_PYPI_INDEX": pytorch_index.pypi_url,
        "ENVGEN_CACHE_DIR": str(tmp_path / "cache"),
        "ENVGEN_MATRIX": str(MINI),
    }
    return tmp_path, env


def test_documented_commands_are_the_ones_with_json() -> None:
    assert sorted(SCHEMAS) == ["build", "check", "clean", "doctor", "list", "lock", "smoke"]


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_every_json_output_matches_its_schema(project: tuple[Path, dict[str, str]]) -> None:
    folder, env = project
    code, data, err = envgen(folder, env, "lock", "--json")
    assert code == 0, err
    assert data["ok"] is True
    assert "cpu/requirements.txt" in data["written"]  # relative to environments/

    code, data, err = envgen(folder, env, "check", "--json")
    assert (code, data["ok"], data["stale"]) == (0, True, [])

    code, data, err = envgen(folder, env, "list", "--json")
    assert [v["id"] for v in data] == ["cpu"]

    code, data, err = envgen(folder, env, "build", "--json")
    assert code in (0, 8), err  # the fake torch of tests/support may fail smoke checks
    (row,) = data
    assert (row["variant"], row["status"], row["manager"]) == ("cpu", "built", "pip")
    assert row["checks"]["checks"]

    code, data, err = envgen(folder, env, "smoke", "--json")
    assert code in (0, 8), err
    assert [r["variant"] for r in data] == ["cpu"]

    code, data, err = envgen(folder, env, "doctor", "project.yaml", "--json")
    assert code == 0, err
    assert [v["id"] for v in data["variants"]] == ["cpu"]
    code, data, err = envgen(
        folder,
        env,
        "doctor",
        "--json",
        "--error",
        "libcudart.so.11.0: cannot open shared object file",
    )
    assert code == 0, err
    assert data["asked"] is True
    assert data["diagnoses"]

    code, data, err = envgen(folder, env, "clean", "--json", "--dry-run")
    assert (code, data) == (0, [])

    lock = folder / "environments" / "cpu" / "requirements.txt"
    lock.write_text(lock.read_text().replace("torch==", "torch ==", 1))
    code, data, err = envgen(folder, env, "check", "--json")
    assert code == 9
    assert data["ok"] is False
    assert data["stale"]
    assert data["stale"][0] in err
