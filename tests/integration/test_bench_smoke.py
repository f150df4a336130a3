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


def _row(node: object) -> None:
    """A paired row: envgen and its baseline, each timed with its peak memory, and the ratio."""
    assert isinstance(node, dict)
    assert node["n"] >= 1
    for side in ("envgen", "baseline"):
        peak = node[side].pop("peak_mib")
        assert isinstance(peak, float)
        assert peak > 0
        cpu = node[side].pop("cpu_median_s")
        assert isinstance(cpu, float)
        assert cpu > 0  # user + system seconds of a process that ran
        _timing(node[side])
        assert len(node[side]["runs_s"]) == node["n"]
    assert node["ratio_min"] <= node["ratio"] <= node["ratio_max"]
    assert isinstance(node["cpu_ratio"], float)
    assert node["cpu_ratio"] > 0
    assert node["command"]
    assert node["baseline_command"]


@pytest.mark.slow  # the quick benchmark runs uv, pip-tools and envgen side by side (~12 s): make test-slow
def test_quick_benchmark_writes_results(tmp_path: Path) -> None:
    out = tmp_path / "latest.json"
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nBy hand.\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "UV_", "ENVGEN_"))}
    proc = _proc.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--out", str(out), "--doc", str(doc)],
        what="python -m benchmarks --quick",
        cwd=ROOT,
        env=env,
        timeout=180,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(out.read_text())
    assert data["mode"] == "quick"
    assert data["reps"] == 1
    assert {"nproc", "memory_bytes", "python", "uv"} <= set(data["machine"])

    assert set(data["startup"]) == {
        "version", "list", "lock_pins_only", "check_pins_only", "list_edited", "floor_libraries"
    }  # fmt: skip
    for row in data["startup"].values():
        _row(row)
    _row(data["import"]["environment_yml"])
    for variants in (1, 3, 6):
        row = data["lock"][f"warm_{variants}"]
        assert len(row["variants"]) == variants
        _row(row)

    relock = data["relock"]
    for key in ("cli", "library"):
        _timing(relock[key])
    assert relock["library_lines"] == [
        f"{v}: up to date (no resolver work)" for v in ("cpu", "cu126", "cu130")
    ]
    assert data["build"] == {"skipped": "quick mode skips real torch"}

    matrix = data["matrix"]
    assert matrix["releases"] > 0
    assert matrix["variants"] > 0
    assert matrix["files"] > 0
    _timing(matrix["with_matrix_load"])

    # The results section is rewritten between its markers; the page's own text stays.
    text = doc.read_text()
    assert text.startswith("# Benchmarks\n\nBy hand.\n\n<!-- make bench: results begin")
    assert "| warm full lock, 6 variants | 1 |" in text
    assert "| `envgen list`, the spec edited before each run (no kept answer) | 1 |" in text
    assert text.rstrip().endswith("<!-- make bench: results end -->")
