"""`python -m benchmarks --quick` runs end to end and writes results of the documented shape.

Only the shape is checked: timings depend on the machine, so no number is asserted (issue 6).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from envgen.infra import proc as _proc

pytestmark = pytest.mark.integration
ROOT = Path(__file__).parents[2]


def _timing(node: object) -> None:
    assert isinstance(node, dict)
    assert set(node) == {"median_s", "min_s", "max_s", "runs_s"}
    assert node["runs_s"]
    assert all(isinstance(x, float) and x >= 0 for x in node["runs_s"])


def test_quick_benchmark_writes_results(tmp_path: Path) -> None:
    out = tmp_path / "latest.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_", "ENVGEN_"))}
    proc = _proc.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(out)],
        what="python -m benchmarks --quick",
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(out.read_text())
    assert data["mode"] == "quick"
    assert data["reps"] == 1
    assert {"nproc", "memory_bytes", "python", "uv", "pip_tools", "pip"} <= set(data["machine"])

    lock = data["lock"]
    assert lock["variants"] == ["cpu", "cu126", "cu130"]
    for tool in ("envgen", "pip_compile", "uv_pip_compile"):
        for state in ("cold", "warm"):
            _timing(lock["timings"][tool][state])
        assert set(lock["pinned_packages"][tool]) == {"cpu", "cu126", "cu130"}
    assert set(lock["ratios"]) == {
        f"{t}_over_envgen_{s}" for t in ("pip_compile", "uv_pip_compile") for s in ("cold", "warm")
    }

    relock = data["relock"]
    for key in ("cli", "library", "full_lock_warm"):
        _timing(relock[key])
    assert relock["library_lines"] == [
        f"{v}: up to date (no resolver work)" for v in ("cpu", "cu126", "cu130")
    ]

    assert data["build"] == {"skipped": "quick mode skips real torch"}
    assert "disk" not in data

    matrix = data["matrix"]
    assert matrix["releases"] > 0
    assert matrix["variants"] > 0
    assert matrix["files"] > 0
    for key in ("first_call", "with_matrix_load", "matrix_cached"):
        _timing(matrix[key])

    assert set(data["targets"]) == {
        "lock_warm_vs_pip_compile",
        "relock_no_change_cli_s",
        "relock_no_change_library_s",
        "build_warm_vs_pip",
        "build_warm_vs_uv",
        "build_cold_vs_uv",
        "smoke_vs_one_line",
        "disk_3_envs_over_1",
        "matrix_all_s",
    }
    for key in ("build_warm_vs_pip", "build_warm_vs_uv", "build_cold_vs_uv", "smoke_vs_one_line"):
        assert data["targets"][key]["met"] is None  # not measured in quick mode
