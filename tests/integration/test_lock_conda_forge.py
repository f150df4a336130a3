"""conda-forge variants from the real matrix, fully locked with py-rattler against a local channel
shaped like conda-forge's repodata (tests/support/conda_channel.py, written from the feedstocks).

Each case expands a spec with `managers: [conda]` through matrices/conda-forge.yaml, renders its
environment.yml and solves it offline: the solve must pick the CUDA build the row names (or the
CPU build) and the row's `cuda-version`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.lock.conda import CondaLocker
from envgen.lock.locker import LockRequest
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls
from tests.support.conda_channel import CondaChannel, build_conda_forge_releases_channel

pytest.importorskip("rattler")

pytestmark = pytest.mark.integration

_CF = "https://conda.anaconda.org/conda-forge"


@pytest.fixture(scope="module")
def forge(tmp_path_factory: pytest.TempPathFactory) -> CondaChannel:
    return build_conda_forge_releases_channel(tmp_path_factory.mktemp("cf") / "conda-forge")


def _variant(torch: str, acc: str, platform: str, source: str | None = None) -> Variant:
    conda = f"conda: {{source: {source}}}\n" if source else ""
    raw = (
        f"name: cf\npython: ['3.11']\ntorch: '{torch}'\naccelerators: [{acc}]\n"
        f"platforms: [{platform}]\nmanagers: [conda]\n{conda}"
    )
    spec = parse_spec(raw, path=Path("/nonexistent/project.yaml"))
    (variant,) = expand(spec, load_matrix()).variants
    return variant


def _builds(forge: CondaChannel, variant: Variant, workdir: Path) -> dict[str, str]:
    workdir.mkdir(parents=True)
    request = LockRequest(
        variant=variant, urls=IndexUrls(), written_urls=IndexUrls(),
        conda_channels={"conda-forge": forge.url}, exclude_newer=None, resolver="uv",
        upgrade=False, upgrade_packages=(), previous={}, workdir=workdir,
        cache_dir=workdir / "cache",
    )  # fmt: skip
    _, explicit = CondaLocker().lock(request)
    out: dict[str, str] = {}
    for line in explicit.body.splitlines():
        if line.startswith("https://"):
            roots = (f"{_CF}/{variant.platform}/", f"{_CF}/noarch/")
            assert line.startswith(roots), line
            stem = line.split("#")[0].rsplit("/", 1)[1].removesuffix(".tar.bz2")
            name, version, build = stem.rsplit("-", 2)
            out[name] = f"{version}={build}"
    return out


@pytest.mark.parametrize(
    ("torch", "acc", "platform", "source", "expected"),
    [
        ("2.6.0", "cu126", "linux-64", None, {
            "pytorch": "2.6.0=cuda126_mkl_py311_h1e2b3c4_300", "cuda-version": "12.6=h7480c83_3",
            "torchvision": "0.21.0=cuda126_py311_h5f6a7b8_1",
            "torchaudio": "2.6.0=cuda126_py311_h9c0d1e2_0"}),
        ("2.6.0", "cpu", "linux-64", None, {
            "pytorch": "2.6.0=cpu_mkl_py311_h1e2b3c4_0",
            "torchvision": "0.21.0=cpu_py311_h5f6a7b8_1",
            "torchaudio": "2.6.0=cpu_py311_h9c0d1e2_0"}),
        ("2.6.0", "cu126", "win-64", None, {
            "pytorch": "2.6.0=cuda126_py311_h1e2b3c4_300", "cuda-version": "12.6=h7480c83_3",
            "torchvision": "0.21.0=cuda126_py311_h5f6a7b8_1"}),
        ("2.8.0", "cu128", "win-64", None, {
            "pytorch": "2.8.0=cuda128_py311_h1e2b3c4_300", "cuda-version": "12.8=h7480c83_3"}),
        ("2.8.0", "cu129", "linux-64", None, {
            "pytorch": "2.8.0=cuda129_mkl_py311_h1e2b3c4_300", "cuda-version": "12.9=h7480c83_3",
            "torchvision": "0.23.0=cuda129_py311_h5f6a7b8_1",
            "torchaudio": "2.8.0=cuda129_py311_h9c0d1e2_0"}),
        ("2.11.0", "cu130", "linux-64", None, {
            "pytorch": "2.11.0=cuda130_mkl_py311_h1e2b3c4_300", "cuda-version": "13.0=h7480c83_3",
            "torchvision": "0.26.0=cuda130_py311_h5f6a7b8_1",
            "torchaudio": "2.11.0=cuda130_py311_h9c0d1e2_0"}),
        ("2.11.0", "cu129", "linux-64", None, {
            "pytorch": "2.11.0=cuda129_mkl_py311_h1e2b3c4_300", "cuda-version": "12.9=h7480c83_3",
            "torchvision": "0.26.0=cuda129_py311_h5f6a7b8_1",
            "torchaudio": "2.11.0=cuda129_py311_h9c0d1e2_0"}),
        ("2.11.0", "cu130", "win-64", None, {
            "pytorch": "2.11.0=cuda130_py311_h1e2b3c4_300", "cuda-version": "13.0=h7480c83_3",
            "torchvision": "0.26.0=cuda130_py311_h5f6a7b8_1"}),
        ("2.11.0", "cpu", "osx-arm64", None, {
            "pytorch": "2.11.0=cpu_generic_py311_h1e2b3c4_0",
            "torchvision": "0.26.0=cpu_py311_h5f6a7b8_1",
            "torchaudio": "2.11.0=cpu_py311_h9c0d1e2_0"}),
        ("2.4.1", "cu118", "linux-64", "conda-forge", {
            "pytorch": "2.4.1=cuda118_mkl_py311_h1e2b3c4_300", "cuda-version": "11.8=h7480c83_3",
            "torchvision": "0.19.1=cuda118_py311_h5f6a7b8_1",
            "torchaudio": "2.4.1=cuda118_py311_h9c0d1e2_0"}),
        ("2.4.1", "cu120", "linux-64", "conda-forge", {
            "pytorch": "2.4.1=cuda120_mkl_py311_h1e2b3c4_300", "cuda-version": "12.0=h7480c83_3",
            "torchvision": "0.19.1=cuda120_py311_h5f6a7b8_1",
            "torchaudio": "2.4.1=cuda120_py311_h9c0d1e2_0"}),
    ],
)  # fmt: skip
def test_conda_forge_variant_locks_to_the_rows_build(
    forge: CondaChannel,
    tmp_path: Path,
    torch: str,
    acc: str,
    platform: str,
    source: str | None,
    expected: dict[str, str],
) -> None:
    variant = _variant(torch, acc, platform, source)
    assert variant.conda is not None
    assert variant.conda.channels == ("conda-forge",)
    builds = _builds(forge, variant, tmp_path / "w")
    family = {k: v for k, v in builds.items() if k in expected or k.startswith(("torch", "cuda"))}
    assert family == expected
