"""Pure parts of the conda locker: spec conversion, target virtual packages, order, checks."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from envgen.errors import LockError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.lock.conda import (
    CondaLocker,
    CondaRecord,
    SolvePlan,
    check_compute,
    dependency_map,
    pip_target,
    plan_solve,
    render_explicit,
    resolve_channels,
    to_match_spec,
    toposort,
    virtual_packages,
)
from envgen.lock.condalock import CondaLock, CondaPackage
from envgen.lock.locker import LockRequest
from envgen.model.matrix import CondaBuild, Release, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls

ZERO_MD5 = "0" * 32
MATRIX_MINI = Path(__file__).resolve().parents[2] / "data" / "matrix-mini"


def _variants(torch: str = "2.1.0", platforms: str = "[linux-64]") -> dict[str, Variant]:
    raw = (
        f"name: demo\npython: ['3.11']\ntorch: '{torch}'\naccelerators: all\n"
        f"platforms: {platforms}\nmanagers: [conda]\n"
    )
    spec = parse_spec(raw, path=Path("/nonexistent/project.yaml"))
    return {v.id: v for v in expand(spec, load_matrix(MATRIX_MINI)).variants}


def _record(name: str, version: str, build: str, depends: tuple[str, ...] = ()) -> CondaRecord:
    return CondaRecord(
        name=name,
        version=version,
        build=build,
        subdir="linux-64",
        file_name=f"{name}-{version}-{build}.tar.bz2",
        channel="pytorch",
        url=f"https://conda.anaconda.org/pytorch/linux-64/{name}-{version}-{build}.tar.bz2",
        md5=ZERO_MD5,
        sha256=None,
        depends=depends,
    )


@pytest.mark.parametrize(
    ("env_spec", "match_spec"),
    [
        ("pytorch==2.1.0", "pytorch ==2.1.0"),
        ("cudatoolkit=11.6", "cudatoolkit 11.6.*"),
        ("pytorch=2.6.0=cuda*", "pytorch ==2.6.0 cuda*"),
        ("python=3.11", "python 3.11.*"),
        ("cpuonly", "cpuonly"),
        ("ffmpeg 4.3", "ffmpeg ==4.3"),
        ("numpy>=1.21,<2", "numpy >=1.21,<2"),
        ("numpy >= 1.21", "numpy >=1.21"),
        ("conda-forge::numpy=1.26", "conda-forge::numpy 1.26.*"),
        ("pytorch[build=cuda*]", "pytorch[build=cuda*]"),
    ],
)
def test_to_match_spec_is_accepted_by_rattlers_strict_parser(
    env_spec: str, match_spec: str
) -> None:
    rattler = pytest.importorskip("rattler")
    assert to_match_spec(env_spec) == match_spec
    rattler.MatchSpec(match_spec, strict=True)


def test_virtual_packages_per_target() -> None:
    variants = _variants()
    assert [str(v) for v in virtual_packages(variants["cpu"])] == [
        "__archspec=1=x86_64", "__glibc=2.17=0", "__linux=5.10=0", "__unix=0=0",
    ]  # fmt: skip
    assert [str(v) for v in virtual_packages(variants["cu118"])] == [
        "__archspec=1=x86_64", "__cuda=11.8=0", "__glibc=2.17=0", "__linux=5.10=0", "__unix=0=0",
    ]  # fmt: skip
    windows = dataclasses.replace(variants["cu121"], platform="win-64")
    assert [str(v) for v in virtual_packages(windows)] == [
        "__archspec=1=x86_64", "__cuda=12.1=0", "__win=0=0",
    ]  # fmt: skip
    mac = dataclasses.replace(variants["cpu"], platform="osx-arm64")
    assert [str(v) for v in virtual_packages(mac)] == [
        "__archspec=1=arm64", "__osx=11.0=0", "__unix=0=0",
    ]  # fmt: skip
    newer = dataclasses.replace(variants["cpu"], release=_release("2.6.0"))
    assert "__glibc=2.28=0" in [str(v) for v in virtual_packages(newer)]
    assert pip_target(newer) == "x86_64-manylinux_2_28"
    assert pip_target(variants["cpu"]) == "x86_64-manylinux_2_17"
    assert pip_target(mac) == "aarch64-apple-darwin"


def _release(torch: str) -> Release:
    return Release(torch=torch, torchvision=None, torchaudio=None, python=("3.11",), source="test")


def test_dependency_map_keeps_versions_drops_builds() -> None:
    assert dependency_map(["pytorch-mutex 1.0 cuda", "numpy >=1.21", "numpy <2", "__cuda"]) == {
        "__cuda": "",
        "numpy": ">=1.21,<2",
        "pytorch-mutex": "1.0",
    }


def _condas_toposort() -> ModuleType:
    """conda's toposort as conda-lock vendors it, loaded alone (the package imports dulwich)."""
    found = importlib.util.find_spec("conda_lock")
    if found is None or found.origin is None:
        pytest.skip("conda-lock is not installed")
    path = Path(found.origin).parent / "_vendor" / "conda" / "common" / "toposort.py"
    spec = importlib.util.spec_from_file_location("_conda_toposort", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_toposort_matches_condas_order() -> None:
    vendored = _condas_toposort()
    records = [
        _record("torchvision", "0.16.0", "py311_cpu", ("python >=3.11", "pytorch 2.1.0", "numpy")),
        _record("pytorch", "2.1.0", "cpu", ("python >=3.11", "numpy", "pytorch-mutex 1.0 cpu")),
        _record("numpy", "1.26.4", "0", ("python >=3.11", "__glibc >=2.17")),
        _record("pytorch-mutex", "1.0", "cpu"),
        _record("python", "3.11.5", "0", ("pip",)),
        _record("pip", "23.3", "0", ("python >=3.8",)),
    ]
    graph = {r.name: set(dependency_map(r.depends)) for r in records}
    expected = [n for n in vendored.toposort(graph) if n in graph]
    assert [r.name for r in toposort(records)] == expected
    assert expected[0] == "python"


def test_check_compute_rejects_a_cpu_build_for_a_cuda_variant() -> None:
    variant = _variants()["cu118"]
    records = [
        _record("pytorch", "2.1.0", "py3.11_cpu_0", ("pytorch-mutex 1.0 cpu",)),
        _record("pytorch-mutex", "1.0", "cpu"),
    ]
    with pytest.raises(LockError) as info:
        check_compute(variant, records)
    assert str(info.value) == (
        "cu118: the solve picked a non-CUDA build (pytorch 2.1.0 py3.11_cpu_0 with "
        "pytorch-mutex cpu) for a CUDA variant"
    )


def test_check_compute_rejects_a_cuda_build_for_a_cpu_variant() -> None:
    records = [_record("pytorch", "2.6.0", "cuda126_generic_py311_h0_300")]
    with pytest.raises(LockError) as info:
        check_compute(_variants()["cpu"], records)
    assert str(info.value) == (
        "cpu: the solve picked a CUDA build (pytorch 2.6.0 cuda126_generic_py311_h0_300) "
        "for a cpu variant"
    )


def test_check_compute_rejects_the_wrong_pytorch_cuda() -> None:
    records = [
        _record("pytorch", "2.1.0", "py3.11_cuda12.1_cudnn8.9.2_0"),
        _record("pytorch-mutex", "1.0", "cuda"),
        _record("pytorch-cuda", "12.1", "h7e8668a_5"),
    ]
    with pytest.raises(LockError) as info:
        check_compute(_variants()["cu118"], records)
    assert str(info.value) == "cu118: the solve picked pytorch-cuda 12.1 for a CUDA 11.8 variant"


def test_check_compute_accepts_matching_builds() -> None:
    check_compute(
        _variants()["cu118"],
        [
            _record("pytorch", "2.1.0", "py3.11_cuda11.8_cudnn8.7.0_0"),
            _record("pytorch-mutex", "1.0", "cuda"),
            _record("pytorch-cuda", "11.8", "h7e8668a_5"),
            _record("cuda-version", "11.8", "h70ddcb2_3"),
        ],
    )
    check_compute(_variants()["cpu"], [_record("pytorch", "2.1.0", "py3.11_cpu_0")])


def test_written_channel_urls_are_the_real_channels_without_credentials() -> None:
    channels = resolve_channels(
        ["pytorch", "nvidia"], {"pytorch": "https://bob:s3cret@mirror.example/conda/pytorch/"}
    )
    assert [(c.solve_url, c.written_url) for c in channels] == [
        ("https://bob:s3cret@mirror.example/conda/pytorch", "https://conda.anaconda.org/pytorch"),
        ("https://conda.anaconda.org/nvidia", "https://conda.anaconda.org/nvidia"),
    ]


def test_explicit_file_names_pip_packages_only_in_a_comment() -> None:
    variant = _variants()["cpu"]
    plan = SolvePlan(
        variant=variant, channels=(), specs=(), virtual_packages=(), exclude_newer=None
    )
    body = render_explicit(plan, [_record("python", "3.11.5", "0")], 2, "abc")
    assert body == (
        "# platform: linux-64\n"
        "# input_hash: abc\n"
        "@EXPLICIT\n"
        f"https://conda.anaconda.org/pytorch/linux-64/python-3.11.5-0.tar.bz2#{ZERO_MD5}\n"
        "# 2 pip package(s) of this environment are locked in conda-lock.yml only: "
        "explicit files cannot hold them\n"
    )


def test_unknown_tool_is_rejected() -> None:
    with pytest.raises(LockError) as info:
        CondaLocker(tool="pixi")
    assert str(info.value) == (
        "conda solver 'pixi' is not supported; choose one of: rattler, conda, mamba, micromamba"
    )


def test_missing_conda_executable_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("rattler")
    monkeypatch.setattr(_proc, "which", lambda _tool: None)
    variant = _variants()["cu118"]
    request = LockRequest(
        variant=variant,
        urls=IndexUrls(),
        written_urls=IndexUrls(),
        conda_channels={},
        exclude_newer=None,
        resolver="uv",
        upgrade=False,
        upgrade_packages=(),
        previous={},
        workdir=tmp_path,
        cache_dir=None,
    )
    with pytest.raises(ToolNotFoundError) as info:
        CondaLocker(tool="micromamba").lock(request)
    assert str(info.value) == (
        "micromamba is not on PATH; it was asked for to solve the conda side of cu118\n"
        "  hint: install micromamba from conda-forge (the PyPI packages named mamba are "
        "unrelated) or use the default solver, py-rattler"
    )


def test_conda_forge_row_selects_by_build_string() -> None:
    pytest.importorskip("rattler")
    variant = dataclasses.replace(
        _variants()["cpu"],
        release=_release("2.6.0"),
        kind="cuda",
        compute_version="12.6",
        conda=CondaBuild(
            release="2.6.0",
            platforms=("linux-64",),
            kind="cuda",
            version="12.6",
            pytorch="2.6.0",
            form="conda-forge",
            channels=("conda-forge",),
            source="test",
        ),
    )
    request = LockRequest(
        variant=variant, urls=IndexUrls(), written_urls=IndexUrls(), conda_channels={},
        exclude_newer=None, resolver="uv", upgrade=False, upgrade_packages=(), previous={},
        workdir=Path("/nonexistent"), cache_dir=None,
    )  # fmt: skip
    plan = plan_solve(request)
    assert plan.specs == ("python 3.11.*", "pytorch ==2.6.0 cuda*", "cuda-version 12.6.*")
    assert [c.written_url for c in plan.channels] == ["https://conda.anaconda.org/conda-forge"]


PREVIOUS = CondaLock(
    content_hash=(("linux-64", "0" * 64),),
    channels=("pytorch",),
    platforms=("linux-64",),
    sources=("environment.yml",),
    packages=tuple(
        CondaPackage(name=n, version=v, manager=m, platform=p, url=f"https://x/{n}", md5="00")
        for n, v, m, p in (
            ("numpy", "1.26.4", "conda", "linux-64"),
            ("ffmpeg", "6.1.1", "conda", "linux-64"),
            ("ffmpeg", "6.1.1", "conda", "win-64"),
            ("six", "1.16.0", "pip", "linux-64"),
        )
    ),
).render()


def _keep_pins_request(tmp_path: Path, *, upgrade_packages: tuple[str, ...] = ()) -> LockRequest:
    return LockRequest(
        variant=_variants()["cu118"],
        urls=IndexUrls(),
        written_urls=IndexUrls(),
        conda_channels={},
        exclude_newer=None,
        resolver="uv",
        upgrade=False,
        upgrade_packages=upgrade_packages,
        previous={"conda-lock.yml": PREVIOUS},
        workdir=tmp_path,
        cache_dir=None,
    )


def test_previous_versions_are_kept_except_upgraded_packages(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[tuple[str, ...]] = []

    def fake_solve(_self: CondaLocker, plan: SolvePlan, _request: LockRequest) -> list[CondaRecord]:
        seen.append(plan.specs)
        return []

    monkeypatch.setattr(CondaLocker, "_solve", fake_solve)
    request = _keep_pins_request(tmp_path, upgrade_packages=("numpy",))
    plan = plan_solve(request)
    CondaLocker()._solve_keeping_pins(plan, request)
    # Only the conda packages of this platform, minus the --upgrade-package names.
    assert seen == [(*plan.specs, "ffmpeg ==6.1.1")]


def test_previous_versions_that_no_longer_solve_fall_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    seen: list[tuple[str, ...]] = []

    def fake_solve(_self: CondaLocker, plan: SolvePlan, _request: LockRequest) -> list[CondaRecord]:
        seen.append(plan.specs)
        if len(seen) == 1:
            msg = "cannot solve with the old pins"
            raise LockError(msg)
        return []

    monkeypatch.setattr(CondaLocker, "_solve", fake_solve)
    request = _keep_pins_request(tmp_path)
    plan = plan_solve(request)
    CondaLocker()._solve_keeping_pins(plan, request)
    assert seen == [(*plan.specs, "ffmpeg ==6.1.1", "numpy ==1.26.4"), plan.specs]


def _lock_laughs(levels: int) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    lines.append(
        f"package: [{{name: *a{levels}, version: '1.0', manager: conda, platform: linux-64}},"
        " {name: numpy, version: 1.26.4, manager: conda, platform: linux-64}]"
    )
    return "\n".join(lines) + "\n"


def test_previous_conda_versions_refuses_an_alias_bomb_in_a_committed_lock() -> None:
    """A committed conda-lock.yml is untrusted: its aliases must not expand into str() of
    millions of values (a name that is a list used to become a key of that size)."""
    import time

    from envgen.lock.conda import previous_conda_versions

    start = time.monotonic()
    with pytest.raises(LockError, match=r"conda-lock\.yml: not valid YAML: "):
        previous_conda_versions(_lock_laughs(6), "linux-64")  # 2.6M values: refused
    assert time.monotonic() - start < 5
    # Under the cap, a file that is no conda-lock is refused too: CondaLock.parse is strict.
    with pytest.raises(LockError, match=r"not a conda-lock file of version 1"):
        previous_conda_versions(_lock_laughs(1), "linux-64")
