"""Variants locked at once print their lines in the variants' order, whichever finishes first.

`envgen lock` locks at least 4 variants at once (issue 27); a line a variant's lock logs (the
PyTorch index "gives no upload times", a pin's undeclared import) must not come out in the order
the threads happened to finish: the same spec and indexes give the same output.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from tests.support.cli import run_cli
from tests.support.fixtures import ServedIndex, ServerFactory, clean_tool_env

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
SPEC: Final = (
    'name: order\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu, cu118, cu121]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)


def test_lines_of_variants_locked_at_once_come_in_variant_order(
    tmp_path: Path,
    pytorch_index_no_upload_times: ServedIndex,
    faulty_server: ServerFactory,
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    # The first variant's index answers slowly: its lock finishes last.
    server = faulty_server(pytorch_index_no_upload_times.dir)
    server.add_fault("/whl/cpu/*", delay=0.2)
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_PYTORCH_INDEX=f"{server.url}/whl",
        ENVGEN_PYPI_INDEX=f"{server.url}/pypi/simple",
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        PYTHONPATH=str(ROOT),
    )
    code, out = run_cli(["lock", "project.yaml", "--as-of", "2024-06-01", "-j", "3"], env, proj)
    assert code == 0, out
    said = [
        line.split(":", 1)[0].removeprefix("warning: ")
        for line in out.splitlines()
        if "gives no upload times" in line
    ]
    assert said == ["cpu", "cu118", "cu121"], out
