"""Real old-torch environments, locked, built and smoke-tested on this CPU machine as a user
would (`envgen lock`, then `envgen build`, which runs the smoke): PyPI's own wheels of torch
1.0.1 (python 3.7), 1.4.0, 1.6.0 (python 3.8), 1.9.0, 1.13.1, and a current release (the local
torch 2.13.0 CPU wheel as the PyTorch index, its dependencies from PyPI). Opt-in: `make
test-era` (marker `era`). Wheels are cached between runs in ~/.cache/envgen-test (uv's cache;
~1.1 GB for 1.0.1, ~1.4 GB for 1.4.0, a few GB in all); the interpreters are pyenv's.

Each environment also checks the fake torch of tests/support/wheels.py against the real wheel:
get_arch_list() absent before 1.6, [] without a device in 1.6-2.10; _cuda_getDriverVersion only
before 1.10.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

import pytest

from envgen.infra import proc as _proc
from envgen.infra.mirror import build_mirror
from envgen.model import era
from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from envgen.model.variants import Variant, expand
from envgen.smoke.report import SmokeExpectation, run_smoke
from tests.support.wheels import torch_files

pytestmark = [pytest.mark.era, pytest.mark.integration]

CACHE: Final = Path.home() / ".cache" / "envgen-test"
PYENV: Final = Path.home() / ".pyenv" / "versions"
ENVGEN: Final = Path(__file__).resolve().parents[2] / ".venv" / "bin" / "envgen"
LOCAL_WHEEL: Final = Path("/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
# torch, python, accelerator: PyPI's own (CUDA) build of each, which imports and runs on a CPU.
CASES: Final = [
    ("1.0.1", "3.7", "cu90"),
    ("1.4.0", "3.7", "cu101"),
    ("1.6.0", "3.8", "cu102"),
    ("1.9.0", "3.8", "cu102"),
    ("1.13.1", "3.10", "cu117"),
    ("2.13.0", "3.11", "cpu"),
]
PYPI_ROUTED: Final = {("1.9.0", "cu102"), ("1.13.1", "cu117")}
# torch._C._cuda_getDriverVersion, as measured on these wheels: gone by 1.9.0.
HAS_DRIVER_ATTR: Final = {
    "1.0.1": True, "1.4.0": True, "1.6.0": True, "1.9.0": False, "1.13.1": False, "2.13.0": False
}  # fmt: skip
PROBE: Final = (
    "import json, torch; f = getattr(torch.cuda, 'get_arch_list', None);"
    "print(json.dumps([None if f is None else f(),"
    " hasattr(torch._C, '_cuda_getDriverVersion')]))"
)


def _python_dir(minor: str) -> Path | None:
    found = sorted(PYENV.glob(f"{minor}.*/bin/python{minor}"))
    return found[-1].parent if found else None


def _env(minor: str, project: Path) -> dict[str, str]:
    env = _proc.clean_env()
    env["ENVGEN_CACHE_DIR"] = str(CACHE)
    bindir = _python_dir(minor)
    if bindir is None:
        pytest.skip(f"no python {minor} under {PYENV} (uv finds interpreters on PATH)")
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    if minor == "3.11":  # the current release: the local wheel as the PyTorch index
        if not LOCAL_WHEEL.exists():
            pytest.skip(f"the local torch wheel is not on this machine ({LOCAL_WHEEL})")
        wheels, index = project / "wheels", project / "index"
        wheels.mkdir()
        (wheels / LOCAL_WHEEL.name).symlink_to(LOCAL_WHEEL)
        build_mirror(wheels, index)
        env["ENVGEN_PYTORCH_INDEX"] = index.as_uri()
    return env


def _envgen(args: list[str], project: Path, env: dict[str, str]) -> _proc.Completed:
    return _proc.run(
        [ENVGEN, *args], what=f"envgen {args[0]}", cwd=project, env=env, timeout=1800, check=False
    )


@pytest.mark.parametrize(("torch", "python", "accelerator"), CASES, ids=[c[0] for c in CASES])
def test_real_environment_builds_and_passes_its_smoke(
    torch: str, python: str, accelerator: str, tmp_path: Path
) -> None:
    project = tmp_path / f"t{torch}"
    project.mkdir()
    # 1.9.0 cu102 and 1.13.1 cu117 are PyPI's default builds: with `torch_from: pypi`
    # (matrices/pypi-routes.yaml) envgen locks PyPI's identical build instead of asking
    # download.pytorch.org, which this machine cannot reach.
    route = "torch_from: pypi\n" if (torch, accelerator) in PYPI_ROUTED else ""
    (project / "project.yaml").write_text(
        f'name: era\npython: "{python}"\ntorch: "{torch}"\naccelerators: [{accelerator}]\n'
        f"platforms: [linux-64]\nmanagers: [pip]\n{route}"
        + ("torchvision: false\ntorchaudio: false\n" if accelerator == "cpu" else ""),
        encoding="utf-8",
    )
    env = _env(python, project)
    (variant,) = expand(load_spec(project / "project.yaml"), load_matrix()).variants
    assert variant.pip is not None
    if accelerator != "cpu" and variant.pip.index != "pypi":
        _smoke_pypi_wheels(variant, python, env, tmp_path)
        pytest.skip(
            f"the matrix routes torch {torch} {accelerator} through {variant.pip.url} only "
            "(unreachable here), so envgen cannot lock PyPI's own build of it (it needs a PyPI "
            "route row); PyPI's wheels, installed directly as of the release's era, passed the "
            "smoke"
        )
    locked = _envgen(["lock"], project, env)
    assert locked.returncode == 0, locked.stderr
    if torch.startswith("1."):
        assert "pip dependencies resolved as of" in locked.stderr + locked.stdout
    built = _envgen(["build"], project, env)
    assert built.returncode == 0, built.stdout + built.stderr
    python_bin = project / "environments" / accelerator / ".env" / "bin" / "python"
    _check_the_fake(python_bin, torch, gpu=accelerator != "cpu", scratch=tmp_path)


def _check_the_fake(python_bin: Path, torch: str, *, gpu: bool, scratch: Path) -> None:
    """tests/support/wheels.py's fake torch of `torch` answers get_arch_list() as the real wheel
    does on this machine (no device); the real wheel's _cuda_getDriverVersion is as measured."""
    probe = _proc.run([python_bin, "-c", PROBE], what="probe torch", env=_proc.clean_env())
    real = json.loads(probe.stdout.strip().splitlines()[-1])
    fake_root = scratch / "fake"
    for name, text in torch_files(torch, cuda="10.0" if gpu else None).items():
        (fake_root / name).parent.mkdir(parents=True, exist_ok=True)
        (fake_root / name).write_text(text, encoding="utf-8")
    fake_env = {**_proc.clean_env(), "PYTHONPATH": str(fake_root)}
    fake = _proc.run([python_bin, "-c", PROBE], what="probe fake torch", env=fake_env)
    got = json.loads(fake.stdout.strip().splitlines()[-1])
    assert got[0] == real[0], (torch, "get_arch_list", got, real)
    assert real[1] is HAS_DRIVER_ATTR[torch]


def _smoke_pypi_wheels(variant: Variant, python: str, env: dict[str, str], tmp_path: Path) -> None:
    """Without a route envgen can lock: PyPI's own wheels of the release, installed with uv as
    of its era (plus its known incompatibilities), must pass the smoke of the variant."""
    assert variant.pip is not None
    torch = variant.release.torch
    vision = variant.release.torchvision
    date = era.variant_era(variant).date
    assert date is not None
    constraints = [r.constraint for r in era.variant_constraints(variant)]
    uv = _proc.require("uv", why="install PyPI's wheels")
    venv = tmp_path / "direct"
    uv_env = {**env, "UV_CACHE_DIR": str(CACHE / "uv")}
    interpreter = f"{_python_dir(python)}/python{python}"
    _proc.run([uv, "venv", "--quiet", "--python", interpreter, venv], what="uv venv", env=uv_env)
    _proc.run(
        [uv, "pip", "install", "--quiet", "--python", venv / "bin" / "python",
         "--index-url", "https://pypi.org/simple", "--exclude-newer", date.isoformat(),
         f"torch=={torch}", f"torchvision=={vision}", *constraints],
        what=f"uv pip install torch=={torch}",
        env=uv_env,
        timeout=1800,
    )  # fmt: skip
    archs = load_matrix().arch_row(torch, "cuda", variant.compute_version or "", "linux-64")
    expect = SmokeExpectation(
        kind="cuda",
        version=variant.compute_version,
        distributions={"torch": torch, "torchvision": str(vision)},
        companions=frozenset({"torchvision"}),
        archs=archs.archs if archs is not None else (),
    )
    report = run_smoke(venv / "bin" / "python", expect)
    failed = [f"{c.tier}/{c.name}: {c.detail}" for c in report.checks if c.status == "fail"]
    assert not failed, failed
    assert sum(c.status == "pass" for c in report.checks) >= 12
    _check_the_fake(venv / "bin" / "python", torch, gpu=True, scratch=tmp_path)
