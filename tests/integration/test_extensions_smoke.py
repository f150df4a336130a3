"""The smoke script's extension checks, with real torch and tiny fake extension wheels.

A venv with the torch 2.13.0 CPU wheel (as in test_smoke_real) gets a working fake torch_scatter
(its `scatter` does the sum with torch) and a detectron2 whose compiled module fails to load the
way a wheel built for another torch does. The variant also names torch_cluster, not installed.
"""

from __future__ import annotations

import pytest

from envgen.smoke.report import SmokeExpectation, run_smoke
from tests.integration.test_smoke_real import _make_torch_venv, _torch_wheel, _uv_pip_install
from tests.support.wheels import make_wheel

pytestmark = [pytest.mark.integration, pytest.mark.slow]

UNDEFINED = (
    "OSError: /env/lib/python3.11/site-packages/detectron2/_C.so: undefined symbol: "
    "_ZN3c106detail14torchCheckFailEPKcS2_jRKSs"
)
SCATTER = (
    "import torch\n"
    "def scatter(src, index, dim=0, reduce='sum'):\n"
    "    out = torch.zeros(int(index.max()) + 1, dtype=src.dtype)\n"
    "    return out.index_add_(dim, index, src)\n"
)


def test_extension_checks(tmp_path_factory: pytest.TempPathFactory) -> None:
    if _torch_wheel() is None:
        pytest.skip("no torch 2.13.0+cpu wheel for this Python in /opt/wheels")
    root = tmp_path_factory.mktemp("smoke-ext")
    python = _make_torch_venv(root / "venv")
    wheels = root / "wheels"
    scatter = make_wheel(
        wheels, "torch_scatter", "2.1.2", files={"torch_scatter/__init__.py": SCATTER}
    )
    detectron2 = make_wheel(
        wheels,
        "detectron2",
        "0.6",
        files={
            "detectron2/__init__.py": "",
            "detectron2/_C.py": f"raise OSError({UNDEFINED.removeprefix('OSError: ')!r})\n",
        },
    )
    _uv_pip_install(python, "--no-deps", "--no-index", str(scatter), str(detectron2))
    expect = SmokeExpectation(
        kind="cpu", extensions=frozenset({"torch_scatter", "torch_cluster", "detectron2"})
    )
    report = run_smoke(python, expect)
    found = [(c.tier, c.name, c.status, c.detail) for c in report.checks if "extension" in c.name]
    assert found == [
        ("cpu", "extension:detectron2", "fail", UNDEFINED),
        ("cpu", "extension:torch_cluster", "skip", "not installed in this environment"),
        ("cpu", "extension:torch_scatter", "pass", "scatter sum ok"),
    ]
