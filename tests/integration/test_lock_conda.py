"""CondaLocker end to end: py-rattler against the local conda channels, uv against the fake PyPI.

Only file:// channels and 127.0.0.1 are used; conda-lock is used as a library (its parser and its
explicit renderer), never as a tool.
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import re
import warnings
from pathlib import Path

import pytest

from envgen.errors import LockError
from envgen.lock.conda import CondaLocker
from envgen.lock.locker import LockedFile, LockRequest
from envgen.lock.lockfile import with_header
from envgen.model.matrix import CondaBuild, Release, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls
from tests.support.conda_channel import CondaChannel, write_channel
from tests.support.fixtures import ServedIndex

rattler = pytest.importorskip("rattler")

pytestmark = pytest.mark.integration

MATRIX_MINI = Path(__file__).resolve().parents[1] / "data" / "matrix-mini"
URL_LINE = re.compile(r"^https://conda\.anaconda\.org/\S+#[0-9a-f]{32}$")


def _variants(pip: tuple[str, ...] = ()) -> dict[str, Variant]:
    raw = (
        "name: demo\npython: ['3.11']\ntorch: '2.1.0'\naccelerators: [cpu, cu118]\n"
        f"managers: [conda]\npip: [{', '.join(pip)}]\n"
    )
    spec = parse_spec(raw, path=Path("/nonexistent/project.yaml"))
    return {v.id: v for v in expand(spec, load_matrix(MATRIX_MINI)).variants}


def _conda_forge(kind: str) -> Variant:
    base = _variants()["cpu"]
    version = "12.6" if kind == "cuda" else None
    return dataclasses.replace(
        base,
        release=Release(torch="2.6.0", torchvision=None, torchaudio=None, python=("3.11",),
                        source="test"),
        kind=kind,  # type: ignore[arg-type]
        compute_version=version,
        accelerator="cu126" if kind == "cuda" else "cpu",  # type: ignore[arg-type]
        conda=CondaBuild(release="2.6.0", platforms=("linux-64",), kind=kind, version=version,  # type: ignore[arg-type]
                         pytorch="2.6.0", form="conda-forge", channels=("conda-forge",),
                         source="test"),
    )  # fmt: skip


@pytest.fixture(scope="module")
def nvidia_channel(tmp_path_factory: pytest.TempPathFactory) -> CondaChannel:
    """The 2.1 cuda rows name `nvidia` too; an empty local stand-in keeps the solve offline."""
    return write_channel(tmp_path_factory.mktemp("conda") / "nvidia", "nvidia", [])


@pytest.fixture
def channels(
    conda_channel: CondaChannel, conda_forge_channel: CondaChannel, nvidia_channel: CondaChannel
) -> dict[str, str]:
    return {"pytorch": conda_channel.url, "nvidia": nvidia_channel.url,
            "conda-forge": conda_forge_channel.url}  # fmt: skip


def _request(
    variant: Variant, channels: dict[str, str], workdir: Path, pypi: str | None = None
) -> LockRequest:
    workdir.mkdir(parents=True, exist_ok=True)
    return LockRequest(
        variant=variant, urls=IndexUrls(pypi=pypi), written_urls=IndexUrls(),
        conda_channels=channels, exclude_newer=None, resolver="uv", upgrade=False,
        upgrade_packages=(), previous={}, workdir=workdir, cache_dir=workdir / "cache",
    )  # fmt: skip


def _lock(variant: Variant, channels: dict[str, str], workdir: Path, pypi: str | None = None
          ) -> tuple[LockedFile, LockedFile]:  # fmt: skip
    return CondaLocker().lock(_request(variant, channels, workdir, pypi))


def _explicit_builds(body: str) -> dict[str, str]:
    """name -> file name (without extension) of every URL line."""
    out: dict[str, str] = {}
    for line in body.splitlines():
        if line.startswith("https://"):
            stem = line.split("#")[0].rsplit("/", 1)[1].removesuffix(".tar.bz2")
            out[stem.rsplit("-", 2)[0]] = stem
    return out


def _import_conda_lock() -> None:
    """Import conda-lock's library parts once; its vendored conda warns on import (not our code)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        importlib.import_module("conda_lock.conda_lock")


def _parse(tmp_path: Path, lockfile: LockedFile) -> object:
    _import_conda_lock()
    from conda_lock.lockfile import parse_conda_lock_file

    header = Header(command="make regen", input_hash="sha256:0", description="test")
    path = tmp_path / lockfile.name
    path.write_text(with_header(header, lockfile.body), encoding="utf-8")
    return parse_conda_lock_file(path)


def test_cpu_variant_gets_cpuonly_and_the_cpu_build(
    channels: dict[str, str], tmp_path: Path
) -> None:
    _, explicit = _lock(_variants()["cpu"], channels, tmp_path / "w")
    assert explicit.name == "conda-linux-64.lock"
    builds = _explicit_builds(explicit.body)
    assert builds["pytorch"] == "pytorch-2.1.0-py3.11_cpu_0"
    assert builds["pytorch-mutex"] == "pytorch-mutex-1.0-cpu"
    assert "cpuonly" in builds
    assert "pytorch-cuda" not in builds
    assert "cuda-version" not in builds
    assert builds["torchvision"] == "torchvision-0.16.0-py311_cpu"


def test_cu118_variant_gets_the_cuda_build_and_pytorch_cuda(
    channels: dict[str, str], tmp_path: Path
) -> None:
    _, explicit = _lock(_variants()["cu118"], channels, tmp_path / "w")
    builds = _explicit_builds(explicit.body)
    assert builds["pytorch"] == "pytorch-2.1.0-py3.11_cuda11.8_cudnn8.7.0_0"
    assert builds["pytorch-cuda"] == "pytorch-cuda-11.8-h7e8668a_5"
    assert builds["cuda-version"] == "cuda-version-11.8-h70ddcb2_3"
    assert builds["pytorch-mutex"] == "pytorch-mutex-1.0-cuda"
    assert "cpuonly" not in builds
    lines = explicit.body.splitlines()
    assert lines[:3] == ["# platform: linux-64", lines[1], "@EXPLICIT"]
    assert all(URL_LINE.match(line) for line in lines[3:]), lines


@pytest.mark.parametrize(
    ("kind", "pytorch", "extra"),
    [
        ("cuda", "pytorch-2.6.0-cuda126_generic_py311_h0_300", "cuda-version"),
        ("cpu", "pytorch-2.6.0-cpu_generic_py311_h0_0", None),
    ],
)
def test_conda_forge_2_6_0(
    channels: dict[str, str], tmp_path: Path, kind: str, pytorch: str, extra: str | None
) -> None:
    lockfile, explicit = _lock(_conda_forge(kind), channels, tmp_path / "w")
    builds = _explicit_builds(explicit.body)
    assert builds["pytorch"] == pytorch
    assert (extra in builds) if extra else ("cuda-version" not in builds)
    assert "https://conda.anaconda.org/conda-forge/linux-64/" in explicit.body
    assert "file://" not in lockfile.body + explicit.body


def test_cuda_older_than_pytorch_cuda_needs_fails_cleanly(
    channels: dict[str, str], tmp_path: Path, conda_channel: CondaChannel,
    nvidia_channel: CondaChannel,
) -> None:  # fmt: skip
    # The row still asks for pytorch-cuda 11.8, but the target's driver only offers __cuda=11.2.
    variant = dataclasses.replace(_variants()["cu118"], compute_version="11.2")
    with pytest.raises(LockError) as info:
        _lock(variant, channels, tmp_path / "w")
    text = str(info.value)
    head = (
        "cu118: the conda side of torch 2.1.0 (cu118, python 3.11, linux-64) cannot be solved\n"
        f"  channels: pytorch ({conda_channel.url}), nvidia ({nvidia_channel.url})\n"
        "  specs: python 3.11.*, pytorch ==2.1.0, torchvision ==0.16.0, torchaudio ==2.1.0, "
        "pytorch-cuda 11.8.*\n"
        "  target: __archspec=1=x86_64 __cuda=11.2=0 __glibc=2.17=0 __linux=5.10=0 __unix=0=0\n"
        "  solver says:\n"
    )
    assert text.startswith(head)
    assert "__cuda" in text[len(head) :]
    assert "Traceback" not in text
    assert text.endswith("hint: check the matrix row's channels and build, or the target's __cuda")


def test_pip_section_is_locked_with_sha256(
    channels: dict[str, str], tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    variant = _variants(pip=("filelock", "typing-extensions<4.6"))["cpu"]
    lockfile, explicit = _lock(variant, channels, tmp_path / "w", pytorch_index.pypi_url)
    parsed = _parse(tmp_path, lockfile)
    pip = {p.name: p for p in parsed.package if p.manager == "pip"}  # type: ignore[attr-defined]
    assert sorted(pip) == ["filelock", "typing-extensions"]
    assert pip["typing-extensions"].version == "4.5.0"
    want = pytorch_index.files_for("pypi", "filelock")
    by_sha = {f.sha256: f for f in want}
    assert pip["filelock"].hash.sha256 in by_sha
    assert pip["filelock"].url.endswith("/" + by_sha[pip["filelock"].hash.sha256].filename)
    assert "# pip " not in explicit.body
    assert "2 pip package(s) of this environment are locked in conda-lock.yml" in explicit.body
    assert "numpy" not in pip  # conda provides it


def test_lock_parses_with_conda_lock_and_renders_the_same_explicit_file(
    channels: dict[str, str], tmp_path: Path
) -> None:
    _import_conda_lock()
    from conda_lock.conda_lock import render_lockfile_for_platform

    lockfile, explicit = _lock(_variants()["cu118"], channels, tmp_path / "w")
    parsed = _parse(tmp_path, lockfile)
    assert parsed.metadata.platforms == ["linux-64"]  # type: ignore[attr-defined]
    assert [c.url for c in parsed.metadata.channels] == ["pytorch", "nvidia"]  # type: ignore[attr-defined]
    conda = [p for p in parsed.package if p.manager == "conda"]  # type: ignore[attr-defined]
    assert conda
    assert all(p.categories == {"main"} and p.hash.md5 for p in conda)
    rendered = render_lockfile_for_platform(
        lockfile=parsed, include_dev_dependencies=False, extras=None, kind="explicit",
        platform="linux-64",
    )  # fmt: skip
    ours = [line for line in explicit.body.splitlines() if not line.startswith("#")]
    theirs = [line for line in rendered if not line.startswith("#")]
    assert ours == theirs
    # The body is sorted by (platform, manager, name), as conda-lock's own writer sorts.
    names = re.findall(r"^- name: (\S+)$", lockfile.body, flags=re.MULTILINE)
    assert names == sorted(names)


def test_two_solves_give_identical_bytes(
    channels: dict[str, str], tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    variant = _variants(pip=("filelock",))["cu118"]
    first = _lock(variant, channels, tmp_path / "one", pytorch_index.pypi_url)
    second = _lock(variant, channels, tmp_path / "two", pytorch_index.pypi_url)
    assert first == second
    assert "127.0.0.1" not in first[1].body


def test_locked_records_install_offline(
    channels: dict[str, str], tmp_path: Path, conda_channel: CondaChannel
) -> None:
    _, explicit = _lock(_variants()["cpu"], channels, tmp_path / "w")
    wanted: dict[str, str] = {}
    for line in explicit.body.splitlines():
        if line.startswith("https://"):
            url, md5 = line.split("#")
            wanted[url.rsplit("/", 1)[1]] = md5
    channel = rattler.Channel(conda_channel.url)
    records = []
    for subdir in ("linux-64", "noarch"):
        repodata = rattler.RepoData.from_path(conda_channel.path / subdir / "repodata.json")
        records += [r for r in repodata.into_repo_data(channel) if r.file_name in wanted]
    assert sorted(r.file_name for r in records) == sorted(wanted)
    assert all(bytes(r.md5).hex() == wanted[r.file_name] for r in records)
    prefix = tmp_path / "prefix"
    asyncio.run(rattler.install(records, target_prefix=prefix, cache_dir=tmp_path / "pkgs",
                                show_progress=False))  # fmt: skip
    assert (prefix / "share" / "envgen-fake" / "pytorch.txt").read_text() == (
        "pytorch 2.1.0 py3.11_cpu_0\n"
    )
    assert (prefix / "conda-meta").is_dir()
