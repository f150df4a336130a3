"""End to end with the real torch 2.13.0+cpu wheel: lock, build, smoke, a second cheap env, and
a deliberately wrong expectation (a +cpu torch where cu118 is expected).

The wheel comes from /opt/wheels through a local PEP 503 index given as ENVGEN_PYTORCH_INDEX;
the rest resolves from PyPI. Slow (~40 s cold, well under 3 min with a warm uv cache).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

import pytest

from envgen.app import LockOptions, load, lock
from envgen.build.builder import python_of
from envgen.build.bytecode import store_folder, wait_for_store
from envgen.build.orchestrate import build_variants
from envgen.infra.mirror import build_mirror
from envgen.infra.settings import Settings
from envgen.smoke.report import SmokeExpectation, run_smoke

pytestmark = [pytest.mark.integration, pytest.mark.slow]

WHEEL: Final = Path("/opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
SPEC: Final = """\
name: e2e
python: "3.11"
torch: "2.13.0"
torchvision: false
torchaudio: false
accelerators: [cpu]
managers: [pip]
"""


@pytest.fixture(scope="module")
def torch_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`<root>/cpu/torch/index.html` linking to the real wheel (a symlink beside it)."""
    if not WHEEL.exists():
        pytest.skip(f"the real torch wheel is not on this machine ({WHEEL})")
    root = tmp_path_factory.mktemp("whl")
    wheels = tmp_path_factory.mktemp("wheels")
    (wheels / WHEEL.name).symlink_to(WHEEL)
    build_mirror(wheels, root)
    return root


@pytest.fixture
def env_vars(
    monkeypatch: pytest.MonkeyPatch, torch_index: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # One cache for the session, so the second env is hard links (ENVGEN_E2E_CACHE keeps it
    # warm across runs).
    cache = os.environ.get("ENVGEN_E2E_CACHE") or str(tmp_path_factory.getbasetemp() / "cache")
    for name in list(os.environ):
        if name.startswith(("UV_", "ENVGEN_", "PIP_", "VIRTUAL_ENV")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("ENVGEN_PYTORCH_INDEX", torch_index.as_uri())
    monkeypatch.setenv("ENVGEN_CACHE_DIR", cache)


def _lock_and_build(project: Path, extra: str = "") -> tuple[Path, object]:
    project.mkdir(parents=True)
    spec_path = project / "project.yaml"
    spec_path.write_text(SPEC + extra)
    out = project / "environments"
    lock(LockOptions(spec=spec_path, out=out, settings=Settings.from_environ(os.environ)))
    spec, matrix = load(spec_path, None, settings=Settings.from_environ(os.environ))
    report = build_variants(
        spec, matrix, out, variants=("cpu",), settings=Settings.from_environ(os.environ)
    )
    report.raise_for_failures()
    return out, report.builds[0]


@pytest.mark.usefixtures("env_vars")
def test_real_torch_cpu_end_to_end(tmp_path: Path) -> None:
    out, first = _lock_and_build(tmp_path / "first")
    assert first.status == "built"  # type: ignore[attr-defined]
    assert "torch==2.13.0+cpu" in (out / "cpu" / "requirements.txt").read_text()
    smoke = first.smoke  # type: ignore[attr-defined]
    by_name = {c.label: c for c in smoke.checks}
    assert by_name["cpu/version:torch"].status == "pass"
    assert by_name["cpu/version:torch"].detail == "torch 2.13.0+cpu"
    assert all(c.status != "fail" for c in smoke.checks)
    assert {
        c.status
        for c in smoke.checks
        if c.tier == "cpu"
        and "torchvision" not in c.name
        and "torchaudio" not in c.name
        and c.name not in ("arch-list", "cuda-libraries")
    } == {"pass"}
    gpu = [c for c in smoke.checks if c.tier == "gpu"]
    assert gpu
    assert {(c.status, c.detail) for c in gpu} == {("skip", "CPU build")}

    # A second env on the same cache costs little disk: files are hard links into uv's cache.
    _, second = _lock_and_build(tmp_path / "second", 'pip: ["six"]\n')
    first_total = first.disk.added + first.disk.shared  # type: ignore[attr-defined]
    added = second.disk.added  # type: ignore[attr-defined]
    print(f"first: {first.seconds:.1f} s {first.disk.describe()}")  # type: ignore[attr-defined]  # noqa: T201
    print(f"second: {second.seconds:.1f} s {second.disk.describe()}")  # type: ignore[attr-defined]  # noqa: T201
    assert added < 0.05 * first_total

    # The build returned before the bytecode was compiled (on a cold store, in the background
    # after the smoke test); once that job is done, the first env links the store's path-free
    # .pyc, the ones Python wrote at import during the smoke test included.
    store = store_folder(Path(os.environ["ENVGEN_CACHE_DIR"]), "cpython-311")
    assert wait_for_store(store, timeout=900)
    site = first.env / "lib" / "python3.11" / "site-packages"  # type: ignore[attr-defined]
    pyc = site / "torch" / "__pycache__" / "__init__.cpython-311.pyc"
    assert pyc.stat().st_nlink >= 2
    assert str(site).encode() not in pyc.read_bytes()
    unlinked = [p for p in site.rglob("*.pyc") if p.stat().st_nlink == 1]
    assert unlinked == []

    # The +cpu torch checked as if the variant were cu118: the smoke check names the problem.
    wrong = run_smoke(
        python_of(first.env),  # type: ignore[attr-defined]
        SmokeExpectation(kind="cuda", version="11.8", distributions={"torch": "2.13.0+cu118"}),
    )
    failed = {c.label: c.detail for c in wrong.failed}
    assert "cpu/version:torch" in failed
    assert "2.13.0+cpu" in failed["cpu/version:torch"]
    assert "cpu/build" in failed
