"""`envgen lock` end to end against the loopback PyTorch index, PyPI stand-in and conda channel.

Three variants (cpu, cu118, cu121) locked concurrently with pip (uv) and conda (py-rattler); a
re-run with unchanged inputs does no resolver work; --check catches stale and hand-edited locks;
a failing variant leaves its previous files untouched while the others are written.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from envgen.app import LockOptions, lock
from envgen.errors import LockError, StaleOutputError
from envgen.infra.settings import Settings
from envgen.model.matrix import load_matrix
from tests.support.conda_channel import write_channel

pytestmark = pytest.mark.integration
MINI = Path(__file__).parents[1] / "data" / "matrix-mini"

SPEC = """\
name: full
python: "3.11"
torch: "2.1.0"
accelerators: [cpu, cu118, cu121]
pip: ["numpy<2"]
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pytorch_index, conda_channel) -> Path:  # type: ignore[no-untyped-def]
    alias = tmp_path / "channels"
    alias.mkdir()
    (alias / "pytorch").symlink_to(conda_channel.path)
    write_channel(alias / "nvidia", "nvidia", [])
    monkeypatch.setenv("ENVGEN_PYTORCH_INDEX", pytorch_index.root_url)
    monkeypatch.setenv("ENVGEN_PYPI_INDEX", pytorch_index.pypi_url)
    monkeypatch.setenv("ENVGEN_CONDA_CHANNEL_ALIAS", alias.as_uri())
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    spec = tmp_path / "proj" / "project.yaml"
    spec.parent.mkdir()
    spec.write_text(SPEC)
    return spec


def opts(spec: Path, **kw: object) -> LockOptions:
    # The fixture's monkeypatched ENVGEN_* variables, read as the CLI reads them.
    settings = Settings.from_environ(os.environ)
    return LockOptions(spec=spec, matrix_dir=MINI, settings=settings, **kw)  # type: ignore[arg-type]


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_full_lock_relock_check_and_tamper(project: Path, pytorch_index) -> None:  # type: ignore[no-untyped-def]
    result = lock(opts(project))
    out = project.parent / "environments"
    names = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert names == [
        "Makefile",
        *[
            f"{v}/{f}"
            for v in ("cpu", "cu118", "cu121")
            for f in (
                "conda-linux-64.lock",
                "conda-lock.yml",
                "environment.yml",
                "pylock.toml",
                "requirements.in",
                "requirements.txt",
            )
        ],
    ]
    req = (out / "cu118" / "requirements.txt").read_text()
    assert "torch==2.1.0+cu118 \\\n" in req
    assert "--hash=sha256:" in req
    assert "127.0.0.1" not in req  # written files name the official indexes
    assert "--index-url https://download.pytorch.org/whl/cu118\n" in req
    conda = (out / "cu118" / "conda-lock.yml").read_text()
    assert "pytorch-cuda" in conda
    assert "cuda" in conda
    cpu_conda = (out / "cpu" / "conda-lock.yml").read_text()
    assert "cpuonly" in cpu_conda
    assert "pytorch-cuda" not in cpu_conda
    assert sorted(line.split(":")[0] for line in result.lines) == ["cpu", "cu118", "cu121"]

    # Unchanged inputs: no resolver work, no index traffic.
    pytorch_index.clear_requests()
    again = lock(opts(project))
    assert again.lines == (
        "cpu: up to date (no resolver work)",
        "cu118: up to date (no resolver work)",
        "cu121: up to date (no resolver work)",
    )
    assert pytorch_index.requests == []
    assert lock(opts(project, check=True)).lines == (
        f"locks in {out} are up to date (3 variant(s))",
    )

    # A hand edit is caught, naming the file and the line.
    path = out / "cu121" / "requirements.txt"
    path.write_text(path.read_text().replace("torch==2.1.0+cu121", "torch==2.1.0+cpu"))
    with pytest.raises(StaleOutputError) as info:
        lock(opts(project, check=True))
    text = str(info.value)
    assert (
        "cu121/requirements.txt: the body does not match its content-hash: the file was edited by hand"
        in text
    )
    assert "but the matrix pins torch==2.1.0+cu121" in text


def test_failing_variant_keeps_previous_files(project: Path, tmp_path: Path) -> None:
    lock(opts(project, variants=("cpu",)))
    out = project.parent / "environments"
    before = (out / "cpu" / "requirements.txt").read_bytes()
    # A matrix whose cpu pin does not exist on the index: the cpu variant fails, cu118 locks.
    bad = tmp_path / "bad-matrix"
    shutil.copytree(MINI, bad)
    pip = (bad / "pip.yaml").read_text().replace('torch: "2.1.0+cpu"', 'torch: "2.1.0+cpu.broken"')
    (bad / "pip.yaml").write_text(pip)
    with pytest.raises(LockError) as info:
        lock(
            LockOptions(
                spec=project,
                matrix_dir=bad,
                variants=("cpu", "cu118"),
                upgrade=True,
                settings=Settings.from_environ(os.environ),
            )
        )
    text = str(info.value)
    assert text.startswith(
        "1 of 2 variant(s) failed to lock; their previous files are untouched (locked: cu118)\n[cpu] "
    )
    assert (out / "cpu" / "requirements.txt").read_bytes() == before
    assert (out / "cu118" / "requirements.txt").exists()


def test_as_of_is_recorded_and_honoured_by_check(project: Path) -> None:
    lock(opts(project, variants=("cpu",), as_of="2030-01-01"))
    out = project.parent / "environments"
    text = (out / "cpu" / "requirements.txt").read_text()
    assert text.splitlines()[1:4] == [
        "# To regenerate: envgen lock project.yaml --as-of 2030-01-01",
        text.splitlines()[2],
        "# lock-options: --as-of 2030-01-01",
    ]
    # --check without --as-of judges the file by the options it was made with, and says so: the
    # header is the one input a committed lock supplies itself (a date can hold a lock back).
    checked = lock(opts(project, variants=("cpu",), check=True))
    assert checked.lines == (f"locks in {out} are up to date (1 variant(s))",)
    notice = [w for w in checked.warnings if "lock-options" in w]
    assert notice == [
        "cpu: judged with the lock's own `lock-options: --as-of 2030-01-01` (--as-of 2030-01-01 "
        "is in neither project.yaml's lock: key nor this command): the lock is what those "
        "options resolve to, no newer; pass --as-of 2030-01-01 to confirm them, or "
        "`envgen lock --upgrade` to drop them"
    ]
    # Given now (or in the spec), the option is confirmed: no notice.
    confirmed = lock(opts(project, variants=("cpu",), check=True, as_of="2030-01-01"))
    assert not [w for w in confirmed.warnings if "lock-options" in w]
    # ...and a plain re-lock does no resolver work either.
    assert lock(opts(project, variants=("cpu",))).lines == ("cpu: up to date (no resolver work)",)


def test_conda_variant_locks_and_builds_with_rattler(project: Path) -> None:
    """The conda side end to end: solve, conda-lock.yml, install with py-rattler, verify."""
    from envgen.build.orchestrate import build_variants
    from envgen.model.spec import load_spec

    project.write_text(
        'name: full\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu, cu118]\n'
        "managers: [conda]\n"
    )
    lock(opts(project))
    spec = load_spec(project)
    out = project.parent / "environments"
    report = build_variants(
        spec, load_matrix(MINI), out, smoke=False, settings=Settings.from_environ(os.environ)
    )
    report.raise_for_failures()
    assert [(b.variant, b.status, b.manager) for b in report.builds] == [
        ("cpu", "built", "conda"),
        ("cu118", "built", "conda"),
    ]
    meta = {
        p.name.rsplit("-", 2)[0] for p in (out / "cu118" / ".env" / "conda-meta").glob("*.json")
    }
    assert {"pytorch", "pytorch-cuda", "cuda-version", "torchvision", "torchaudio"} <= meta
    cpu_meta = {
        p.name.rsplit("-", 2)[0] for p in (out / "cpu" / ".env" / "conda-meta").glob("*.json")
    }
    assert "cpuonly" in cpu_meta
    assert "pytorch-cuda" not in cpu_meta
    # A second build with nothing changed does nothing.
    again = build_variants(
        spec, load_matrix(MINI), out, smoke=False, settings=Settings.from_environ(os.environ)
    )
    assert [b.status for b in again.builds] == ["up-to-date", "up-to-date"]


def test_lock_and_build_give_uv_one_cache(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`lock` and `build` share uv's cache, `<cache root>/uv`, so a build reuses what the lock
    fetched (the pip lock used to give uv the cache root itself, beside matrix/ and pyc/)."""
    from collections.abc import Sequence
    from typing import Any

    from envgen.build.orchestrate import build_variants
    from envgen.infra import proc as _proc
    from envgen.model.spec import load_spec

    started: list[tuple[tuple[str, ...], dict[str, str]]] = []
    real_run = _proc.run

    def recording(args: Sequence[str | os.PathLike[str]], **kw: Any) -> _proc.Completed:
        started.append((tuple(os.fspath(a) for a in args), dict(kw.get("env") or {})))
        return real_run(args, **kw)

    monkeypatch.setattr(_proc, "run", recording)
    project.write_text(
        'name: full\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n'
    )
    settings = Settings.from_environ(os.environ)
    uv_cache = settings.cache_root / "uv"
    lock(opts(project))
    report = build_variants(
        load_spec(project),
        load_matrix(MINI),
        project.parent / "environments",
        settings=settings,
        smoke=False,
    )
    report.raise_for_failures()
    compiles = [args for args, _ in started if args[1:3] == ("pip", "compile")]
    syncs = [env for args, env in started if args[1:3] == ("pip", "sync")]
    assert compiles
    assert syncs
    for args in compiles:
        assert args[args.index("--cache-dir") + 1] == str(uv_cache), args
    assert {env["UV_CACHE_DIR"] for env in syncs} == {str(uv_cache)}
    # Nothing of uv's lies at the root: only envgen's own folders.
    assert {p.name for p in settings.cache_root.iterdir()} <= {
        "uv",
        "matrix",
        "pyc",
        "pythons",  # envgen.lock.pythons: the interpreter look-ups it remembers
        "rattler",
        "spec",  # envgen.model.spec: the parsed spec it caches (the cli merge)
        "verified-locks",
        "verified-builds",  # envgen.lock.stamps: the locks a build re-resolved, with its lines
    }
