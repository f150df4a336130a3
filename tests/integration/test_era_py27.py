"""torch 1.0.1 on Python 2.7 for real, as a user would run it (`envgen lock`, then `envgen
build`, which runs the smoke): PyPI's cp27mu manylinux1 wheel (the CUDA 9.0 build, ~560 MB,
which imports and runs on a CPU), locked by pip 20.3.4 under CPython 2.7 and installed with
pip 20.3.4 --require-hashes into CPython 2.7 from conda-forge (here a local copy holding
pyenv's 2.7.18, packaged as conda-forge's python). Opt-in: `make test-era` (marker `era`). The
files are kept in ~/.cache/envgen-test (`legacy-wheels/`, ~580 MB), so the wheel crosses the
network once.

The spec adds `typing`: torch 1.0.1's wheels import the typing backport on Python 2 without
declaring it ("ImportError: No module named typing", https://github.com/pytorch/pytorch/issues/16775;
measured here without it).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Final

import pytest

from envgen.infra import proc as _proc
from envgen.lock.lockfile import split_header
from tests.support.conda_channel import find_python, python_package, write_channel

pytestmark = [pytest.mark.era, pytest.mark.integration]

CACHE: Final = Path.home() / ".cache" / "envgen-test"
ENVGEN: Final = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "envgen"
PY27: Final = find_python("2.7")


@pytest.mark.skipif(PY27 is None, reason="no CPython 2.7 on this machine (pyenv)")
def test_torch_1_0_1_on_python_2_7_builds_and_passes_its_smoke(tmp_path: Path) -> None:
    assert PY27 is not None
    alias = tmp_path / "channels"
    write_channel(alias / "conda-forge", "conda-forge", [python_package(PY27, "2.7.18")],
                  subdirs=("linux-64", "noarch"))  # fmt: skip
    project = tmp_path / "era27"
    project.mkdir()
    (project / "project.yaml").write_text(
        'name: era27\npython: "2.7"\ntorch: "1.0.1"\naccelerators: [cu90]\n'
        'platforms: [linux-64]\nmanagers: [pip]\npip: ["typing"]\n',
        encoding="utf-8",
    )
    env = _proc.clean_env()
    env.update(ENVGEN_CACHE_DIR=str(CACHE), ENVGEN_CONDA_CHANNEL_ALIAS=alias.as_uri(),
               PATH=f"{PY27.parent}{os.pathsep}{env.get('PATH', '')}")  # fmt: skip

    def envgen(*args: str) -> _proc.Completed:
        return _proc.run([ENVGEN, *args], what=f"envgen {args[0]}", cwd=project, env=env,
                         timeout=1800, check=False)  # fmt: skip

    locked = envgen("lock")
    assert locked.returncode == 0, locked.stderr
    lock = (project / "environments" / "cu90" / "requirements.txt").read_text(encoding="utf-8")
    pins = [line.split(" ")[0] for line in split_header(lock)[1].splitlines() if "==" in line]
    assert "torch==1.0.1" in pins
    assert "torchvision==0.2.2" in pins
    assert any(p.startswith("typing==") for p in pins)
    assert "resolved as of" not in locked.stderr + locked.stdout  # pip 20.3.4 applies no date
    built = envgen("build")
    assert built.returncode == 0, built.stdout + built.stderr
    out = built.stdout + built.stderr
    assert "python 2.7.18 from conda-forge (uv cannot target python 2.7)" in out
    for check in ("import:torch", "build", "cuda-libraries", "tensor-math", "autograd",
                  "convnet-forward", "torchvision:resnet18"):  # fmt: skip
        assert any(line.split()[1:3] == [check, "PASS"] for line in out.splitlines()
                   if line.startswith("cpu ")), (check, out)  # fmt: skip
    probe = _proc.run(
        [project / "environments" / "cu90" / ".env" / "bin" / "python", "-c",
         "import sys, torch; sys.stdout.write('%s %s %s' % (sys.version_info[0], "
         "torch.__version__, torch.version.cuda))"],
        what="probe", env=_proc.clean_env(), timeout=120,
    )  # fmt: skip
    assert probe.stdout.split() == ["2", "1.0.1", "9.0.176"]
    # ~1.1 GB: not left in pytest's kept temp folders.
    shutil.rmtree(project / "environments" / "cu90" / ".env")
