"""Python 2.7 for real, small: the smoke twin runs under CPython 2.7 and reports the same checks
as script.py; a pip variant locked with pip 20.3.4 under CPython 2.7 (PyPI's six) and built into
CPython 2.7 from a local conda-forge copy (pyenv's 2.7.18, packaged as conda-forge's python).
Skipped where pyenv has no 2.7. torch itself on 2.7 is tests/integration/test_era_py27.py (era).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Final

import pytest

from envgen.build.builder import BuildRequest
from envgen.build.venv import VenvBuilder
from envgen.infra import proc as _proc
from envgen.infra.resources import SMOKE_SCRIPT, SMOKE_SCRIPT_27
from envgen.lock.legacy import lock_with_pip20
from envgen.lock.locker import LockRequest
from envgen.lock.lockfile import split_header
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.types import PYPI_SIMPLE
from envgen.model.variants import expand
from envgen.render.indexes import IndexUrls
from envgen.smoke.project import PROJECT_SCRIPT
from tests.support.conda_channel import find_python, python_package, write_channel
from tests.support.wheels import make_wheel

pytestmark = [pytest.mark.integration]

PY27: Final = find_python("2.7")
needs_27 = pytest.mark.skipif(PY27 is None, reason="no CPython 2.7 on this machine (pyenv)")
EXPECT: Final = json.dumps(
    {"kind": "cuda", "version": "9.0", "companions": ["torchvision"],
     "distributions": {"torch": "1.0.1", "torchvision": "0.2.2"}}
)  # fmt: skip


def _report(python: str, flags: list[str], script: Path) -> list[dict[str, object]]:
    out = _proc.run([python, *flags, script, "--expect", EXPECT], what="smoke",
                    env=_proc.clean_env(), timeout=60)  # fmt: skip
    loaded: list[dict[str, object]] = json.loads(out.stdout)
    return loaded


@needs_27
def test_the_twin_runs_on_2_7_and_reports_what_script_py_reports() -> None:
    """Without torch both scripts report the same checks, in the same order, the same way."""
    assert PY27 is not None
    twin = _report(str(PY27), ["-E", "-s"], SMOKE_SCRIPT_27)
    main = _report(sys.executable, ["-I"], SMOKE_SCRIPT)
    assert [(c["tier"], c["name"], c["status"]) for c in twin] == [
        (c["tier"], c["name"], c["status"]) for c in main
    ]
    assert twin[0]["detail"] == "ImportError: No module named torch"
    assert [c["detail"] for c in twin[1:]] == [c["detail"] for c in main[1:]]


@needs_27
@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_a_python_2_7_variant_locks_with_pip_20_and_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lock six for python 2.7 with pip 20.3.4 under CPython 2.7 (PyPI), then build it into
    conda-forge's CPython 2.7 (a local copy) with pip 20.3.4 --require-hashes."""
    assert PY27 is not None
    alias = tmp_path / "channels"
    write_channel(alias / "conda-forge", "conda-forge", [python_package(PY27, "2.7.18")],
                  subdirs=("linux-64", "noarch"))  # fmt: skip
    # No python2.7 on PATH (pyenv's shim fails): pip 20.3.4 runs under conda-forge's CPython.
    monkeypatch.setenv("PATH", os.pathsep.join(
        p for p in os.environ.get("PATH", "").split(os.pathsep)
        if not (Path(p) / "python2.7").exists() or "/.pyenv/shims" in p
    ))  # fmt: skip
    spec = parse_spec(
        'name: p\npython: "2.7"\ntorch: "1.0.1"\naccelerators: [cu90]\nmanagers: [pip]\n',
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix()).variants
    cache = tmp_path / "cache"
    work = tmp_path / "work"
    work.mkdir()
    request = LockRequest(
        variant=variant, urls=IndexUrls(), written_urls=IndexUrls(),
        conda_channels={"conda-forge": (alias / "conda-forge").as_uri()},
        exclude_newer=None, resolver="uv", upgrade=False, upgrade_packages=(),
        # An unpinned six stays at the previous lock's 1.16.0 (PyPI's newest is 1.17.0).
        previous={"requirements.txt": "six==1.16.0 \\\n    --hash=sha256:00\n"},
        workdir=work, cache_dir=cache, timeout=300,
    )  # fmt: skip
    # six only: the torch pin itself (a 560 MB wheel) is the era test's.
    pins = lock_with_pip20(
        request, requirements=["six"], index_env={"PIP_INDEX_URL": PYPI_SIMPLE},
        constraints=None,
    )  # fmt: skip
    assert (cache / "legacy-python" / "2.7-linux-64" / "bin" / "python2.7").is_file()
    six = (cache / "legacy-wheels" / "six-1.16.0-py2.py3-none-any.whl").read_bytes()
    assert pins == ["six==1.16.0 \\", f"    --hash=sha256:{hashlib.sha256(six).hexdigest()}"]
    lock_dir = tmp_path / "lock"
    lock_dir.mkdir()
    (lock_dir / "requirements.txt").write_text("\n".join(pins) + "\n", encoding="utf-8")
    # Relative, as `envgen build` in a project gives it (environments/<id>/.env.tmp-...).
    monkeypatch.chdir(tmp_path)
    prefix = Path("env")
    build = BuildRequest(
        variant=variant, lock_dir=lock_dir, prefix=prefix, final_prefix=prefix,
        urls=IndexUrls(), channel_alias=alias.as_uri(), cache_dir=cache,
    )  # fmt: skip
    builder = VenvBuilder()
    note = builder.install(build)
    assert note == "python 2.7.18 from conda-forge (uv cannot target python 2.7)"
    assert builder.installed(prefix).pip == {"six": "1.16.0"}
    out = _proc.run(
        [prefix / "bin" / "python", "-c", "import sys, six; sys.stdout.write(sys.prefix + ' ' + six.__version__)"],
        what="check", env=_proc.clean_env(), timeout=60,
    )  # fmt: skip
    assert out.stdout.split() == [str(tmp_path / "env"), "1.16.0"]


@needs_27
def test_torch_0_4_1_on_2_7_locks_from_the_wheel_page(tmp_path: Path) -> None:
    """The 0.4.1 rows' find-links route (`-f .../cu90/torch_stable.html`; 0.4.x is not on PyPI)
    for python 2.7: pip 20.3.4 reads a local copy of the page (a fake cp27mu wheel), and the
    lock names the real page."""
    assert PY27 is not None
    page = tmp_path / "root" / "cu90"
    wheel = make_wheel(page, "torch", "0.4.1", python_tag="cp27", abi="cp27mu",
                       plat="linux_x86_64")  # fmt: skip
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    # With its sha256 in the link, as the fixtures' pages (the lock's pylock.toml reads it).
    (page / "torch_stable.html").write_text(
        f'<a href="{wheel.name}#sha256={digest}">{wheel.name}</a>\n'
    )
    project = tmp_path / "p"
    project.mkdir()
    (project / "project.yaml").write_text(
        'name: old\npython: "2.7"\ntorch: "0.4.1"\naccelerators: [cu90]\nplatforms: [linux-64]\n'
        "managers: [pip]\ntorchvision: false\n",  # torch alone: nothing to fetch from PyPI
        encoding="utf-8",
    )
    env = _proc.clean_env()
    env.update(ENVGEN_PYTORCH_INDEX=(tmp_path / "root").as_uri() + "/",
               ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
               PATH=f"{PY27.parent}{os.pathsep}{env.get('PATH', '')}")  # fmt: skip
    envgen = Path(sys.executable).with_name("envgen")
    done = _proc.run([envgen, "lock"], what="envgen lock", cwd=project, env=env, timeout=600,
                     check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    body = split_header(
        (project / "environments" / "cu90" / "requirements.txt").read_text(encoding="utf-8")
    )[1]
    lines = body.splitlines()
    assert lines[0] == "--find-links https://download.pytorch.org/whl/cu90/torch_stable.html"
    torch = lines.index("torch==0.4.1 \\")
    assert lines[torch + 1] == f"    --hash=sha256:{hashlib.sha256(wheel.read_bytes()).hexdigest()}"
    assert str(tmp_path) not in body


@needs_27
def test_the_project_tier_script_runs_on_2_7(tmp_path: Path) -> None:
    """envgen/smoke/project_script.py under CPython 2.7: an import that fails for a missing
    module names it as the cause, as on Python 3 (2.7 writes the name without quotes)."""
    assert PY27 is not None
    info = tmp_path / "brokenpkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: brokenpkg\nVersion: 1.0\n\n")
    (info / "top_level.txt").write_text("brokenpkg\n")
    (tmp_path / "brokenpkg.py").write_text("import notthere_xyz\n")
    out = _proc.run([PY27, "-s", PROJECT_SCRIPT, "brokenpkg"], what="project check",
                    env={**_proc.clean_env(), "PYTHONPATH": str(tmp_path)}, timeout=60)  # fmt: skip
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert (report["status"], report["cause"]) == (
        "fail",
        "a missing dependency: notthere_xyz is not installed (undeclared by the distribution, "
        "or left out of the lock)",
    )
