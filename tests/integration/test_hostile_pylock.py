"""A committed pylock.toml nested 100,000 levels deep: a clear problem, not an internal error.

tomllib recurses once per nested array or inline table, so such a file (300 KB) ended `check`,
`lock --check` and `import pylock.toml` in "internal error: RecursionError". Through the real
CLI against the loopback index (tests/support/).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Final

import pytest

from tests.integration.test_hostile_lock import MINI, PIP_SPEC, ROOT, envgen
from tests.support.fixtures import ServedIndex, clean_tool_env

pytestmark = pytest.mark.integration

DEEP: Final = "x = " + "[" * 100_000 + "]" * 100_000 + "\n"
PROBLEM: Final = "cpu/pylock.toml: not a valid PEP 751 lock (values nested too deep to read)"


def test_a_deep_pylock_is_a_clear_problem(tmp_path: Path, pytorch_index: ServedIndex) -> None:
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_PYTORCH_INDEX=pytorch_index.root_url,
        ENVGEN_PYPI_INDEX=pytorch_index.pypi_url,
        PYTHONPATH=str(ROOT),
    )
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(PIP_SPEC)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    planted = proj / "environments" / "cpu" / "pylock.toml"
    planted.write_text(DEEP)
    for args in (["check", "project.yaml"], ["lock", "--check", "project.yaml"]):
        code, out = envgen(args, env, proj)
        assert (code, "internal error" in out) == (9, False), out
        assert f"  - {PROBLEM}\n" in out, out
    shutil.copy(planted, tmp_path / "pylock.toml")
    code, out = envgen(["import", str(tmp_path / "pylock.toml")], env, proj)
    assert (code, out) == (
        11,
        "error: pylock.toml: not a valid PEP 751 lock (values nested too deep to read)\n"
        "  hint: a pylock.toml as pip or uv write it\n",
    )
