"""Old pythons for pip variants: whether uv provides them, the conda-forge route, 2.7 and 3.5.

Without processes; the real uv's answers are tests/integration/test_uv_pythons.py, and the route
end to end (CPython 3.6 from a local conda-forge copy, the lock synced into it) is
tests/integration/test_build.py::test_python_uv_cannot_provide_comes_from_conda_forge.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from envgen.app import format_build_line
from envgen.build import venv as venv_module
from envgen.build.builder import BuildRequest
from envgen.build.interpreter import conda_forge_url, python_spec
from envgen.build.orchestrate import VariantBuild
from envgen.build.venv import VenvBuilder
from envgen.errors import BuildError, EnvgenError
from envgen.infra import proc as _proc
from envgen.lock import pythons
from envgen.lock.legacy import is_legacy
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls

MINI = Path(__file__).parents[2] / "data" / "matrix-mini"


def _variant(python: str) -> Variant:
    spec = parse_spec(
        'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n',
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix(MINI)).variants
    return dataclasses.replace(variant, python=python)


def test_python_2_7_and_3_5_are_accepted_where_the_release_lists_them() -> None:
    """torch 1.0.1's row lists 2.7 and 3.5 (PyPI's cp27mu / cp35m wheels); 2.1.0's does not."""
    text = 'name: p\npython: ["2.7", "3.5"]\ntorch: "{}"\naccelerators: [{}]\nmanagers: [pip]\n'
    spec = parse_spec(text.format("1.0.1", "cu90"), path=Path("project.yaml"))
    variants = expand(spec, load_matrix()).variants
    assert [(v.python, v.release.torch, is_legacy(v.python)) for v in variants] == [
        ("2.7", "1.0.1", True),
        ("3.5", "1.0.1", True),
    ]
    with pytest.raises(EnvgenError, match=r"torch 2\.1\.0 supports python 3\.8-3\.11, not 2\.7"):
        expand(parse_spec(text.format("2.1.0", "cpu"), path=Path("p.yaml")), load_matrix())


def test_a_python_2_7_build_never_asks_uv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """VenvBuilder.install for 2.7: conda-forge's CPython, then pip 20.3.4; uv is not run."""
    (tmp_path / "requirements.txt").write_text("six==1.17.0 \\\n    --hash=sha256:00\n")
    calls: list[str] = []

    def fake_run(args: list[object], **_kw: object) -> _proc.Completed:
        calls.append(str(args[0]))
        msg = "stop here"
        raise BuildError(msg)

    def fake_conda(request: BuildRequest) -> str:
        calls.append(f"conda-forge python {request.variant.python}")
        msg = "stop here"
        raise BuildError(msg)

    monkeypatch.setattr(_proc, "run", fake_run)
    monkeypatch.setattr(venv_module, "install_conda_python", fake_conda)
    request = BuildRequest(
        variant=_variant("2.7"), lock_dir=tmp_path, prefix=tmp_path / "env",
        final_prefix=tmp_path / "final", urls=IndexUrls(), channel_alias=None,
        cache_dir=tmp_path / "cache",
    )  # fmt: skip
    with pytest.raises(BuildError, match="stop here"):
        VenvBuilder().install(request)
    assert calls == ["conda-forge python 2.7"]


def test_conda_forge_route_is_taken_only_when_uv_cannot_provide(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decision in VenvBuilder.install: uv venv first; when it fails, conda-forge if uv
    cannot provide the python, else uv's error."""
    (tmp_path / "requirements.txt").write_text("six==1.17.0 \\\n    --hash=sha256:00\n")
    calls: list[str] = []

    def fake_run(args: list[object], **_kw: object) -> _proc.Completed:
        calls.append(" ".join(str(a) for a in args[1:3]))
        msg = "stop here"
        raise BuildError(msg)

    def fake_conda(request: BuildRequest) -> str:
        calls.append(f"conda-forge python {request.variant.python}")
        msg = "stop here"
        raise BuildError(msg)

    monkeypatch.setattr(_proc, "run", fake_run)
    monkeypatch.setattr(venv_module, "install_conda_python", fake_conda)
    monkeypatch.setattr(pythons, "_found_system", {})  # no look-up of an earlier test
    for python, provided in (("3.11", True), ("3.6", False)):
        monkeypatch.setattr(venv_module, "uv_provides", lambda *_a, p=provided, **_k: p)
        request = BuildRequest(
            variant=_variant(python), lock_dir=tmp_path, prefix=tmp_path / "env",
            final_prefix=tmp_path / "final", urls=IndexUrls(), channel_alias=None,
            cache_dir=tmp_path / "cache",
        )  # fmt: skip
        with pytest.raises(BuildError):
            VenvBuilder().install(request)
    # Each python is looked up first (the interpreter uv venv takes; none found here, so
    # `--python X.Y` as before), then uv venv.
    assert calls == [
        "python find",
        "venv --no-config",
        "python find",
        "venv --no-config",
        "conda-forge python 3.6",
    ]


def test_conda_forge_through_the_alias() -> None:
    assert conda_forge_url(None) == "https://conda.anaconda.org/conda-forge"
    assert conda_forge_url("https://mirror.example/conda/") == (
        "https://mirror.example/conda/conda-forge"
    )
    assert python_spec("3.7") == "python 3.7.* *_cpython"


def test_the_build_line_names_the_interpreter(tmp_path: Path) -> None:
    b = VariantBuild(variant="cpu", manager="pip", env=tmp_path, status="built", seconds=1.0,
                     interpreter="python 3.6.15 from conda-forge (uv cannot provide python 3.6)")  # fmt: skip
    assert format_build_line(b) == (
        f"cpu: built (pip) in 1.0 s, python 3.6.15 from conda-forge (uv cannot provide python "
        f"3.6) -> {tmp_path}"
    )


def test_a_python_2_7_build_from_a_vault_is_refused(tmp_path: Path) -> None:
    """build --vault installs with uv (envgen.vault), which cannot install python 2.7."""
    (tmp_path / "requirements.txt").write_text("six==1.17.0 \\\n    --hash=sha256:00\n")
    request = BuildRequest(
        variant=_variant("2.7"), lock_dir=tmp_path, prefix=tmp_path / "env",
        final_prefix=tmp_path / "final", urls=IndexUrls(), channel_alias=None,
        cache_dir=tmp_path / "cache", vault="file:///srv/vault",
    )  # fmt: skip
    with pytest.raises(BuildError) as info:
        VenvBuilder().install(request)
    assert (info.value.message, info.value.hint) == (
        "cpu: build --vault installs with uv, which cannot install python 2.7",
        "build this variant without --vault (pip 20.3.4)",
    )
    assert not (tmp_path / "env").exists()
