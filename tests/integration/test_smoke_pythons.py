"""The smoke script runs on every python the matrix admits (3.6-3.13), with nothing beyond that
python's standard library: pyenv's interpreters on this machine, pkg_resources blocked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import envgen
from envgen.infra import proc as _proc

pytestmark = pytest.mark.integration

SCRIPT = Path(envgen.__file__).parent / "smoke" / "script.py"
PYENV = Path.home() / ".pyenv" / "versions"
MINORS = [f"3.{m}" for m in range(6, 14)]
# Block setuptools' pkg_resources (a uv environment on python 3.7 has none), take away
# on 3.6 typing.NoReturn (3.6.0 and 3.6.1 have none; later stdlibs use it themselves) and run
# the script.
RUN = (
    "import sys, runpy, typing; sys.modules['pkg_resources'] = None;"
    "sys.version_info < (3, 7) and delattr(typing, 'NoReturn');"
    "sys.argv = ['script.py', '--expect', sys.argv[1]];"
    "runpy.run_path({script!r}, run_name='__main__')"
)


def _python(minor: str) -> Path | None:
    found = sorted(PYENV.glob(f"{minor}.*/bin/python{minor}"))
    return found[-1] if found else None


@pytest.mark.parametrize("minor", MINORS)
def test_script_runs_on_python(minor: str, tmp_path: Path) -> None:
    python = _python(minor)
    if python is None:
        pytest.skip(f"no python {minor} under {PYENV}")
    site = tmp_path / "site"
    (site / "torchvision-0.2.2.post3.dist-info").mkdir(parents=True)
    (site / "torchvision-0.2.2.post3.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: torchvision\nVersion: 0.2.2.post3\n", encoding="utf-8"
    )
    expect = {"kind": "cpu", "distributions": {"torchvision": "0.2.2.post3", "torch": "1.0.1"}}
    env = {**_proc.clean_env(), "PYTHONPATH": str(site)}
    result = _proc.run(
        [python, "-s", "-c", RUN.format(script=str(SCRIPT)), json.dumps(expect)],
        what=f"smoke script on python {minor}",
        env=env,
        timeout=120,
    )  # fmt: skip
    checks = {c["name"]: (c["status"], c["detail"]) for c in json.loads(result.stdout)}
    assert checks["import:torch"][0] == "fail"  # no torch here: a failing check, not a crash
    assert checks["version:torch"] == ("fail", "torch is not installed (the lock says 1.0.1)")
    assert checks["version:torchvision"] == ("pass", "torchvision 0.2.2.post3")
    assert checks["convnet-forward"] == ("skip", "torch did not import (see cpu/import:torch)")
