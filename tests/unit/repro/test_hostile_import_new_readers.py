"""Hostile inputs to the newer readers: an sdist decompression bomb (envgen.repro.through), a
Singularity file whose `{{ NAME }}` build arguments expand without bound, and pixi manifests that
made the reader quadratic or cubic or print megabytes of names. Each must end within tests.support.bounds.LIMIT_S (unbounded: 20 s to minutes)
with short, few messages.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
import time
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from envgen.errors import ImportSpecError
from envgen.repro import through
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from envgen.repro.reading import MAX_EXPANDED_CHARS, MAX_PACKAGES, MAX_WARNINGS
from tests.support.bounds import LIMIT_S


def _empty_headers(count: int) -> bytes:
    info = tarfile.TarInfo("pkg-1.0/a")
    info.size = 0
    return info.tobuf(format=tarfile.USTAR_FORMAT) * count


def _timed_sdist(filename: str, body: bytes) -> str:
    started = time.monotonic()
    with pytest.raises(ValueError, match="the sdist could not be read") as caught:
        through._sdist_requires("pkg", filename, body)
    assert time.monotonic() - started < LIMIT_S
    return str(caught.value)


def test_a_gzip_sdist_bomb_is_refused_at_the_decompression_budget() -> None:
    # 200,000 empty headers: 100 MB of tar in ~100 kB of gzip (past the 64 MiB budget).
    body = gzip.compress(_empty_headers(200_000), compresslevel=1)
    assert len(body) < through.MAX_SDIST_BYTES
    assert "decompressed" in _timed_sdist("pkg-1.0.tar.gz", body)


def test_concatenated_xz_and_bzip2_streams_are_refused_at_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(through, "MAX_SDIST_UNPACKED", 1024 * 1024)
    one = lzma.compress(_empty_headers(1024))  # 512 kB per stream; four of them: 2 MiB
    assert "decompressed" in _timed_sdist("pkg-1.0.tar.xz", one * 4)
    body = bz2.compress(_empty_headers(1024)) * 4
    assert "decompressed" in _timed_sdist("pkg-1.0.tar.bz2", body)


def test_a_tar_of_many_members_stops_after_the_member_bound() -> None:
    body = gzip.compress(_empty_headers(2 * through.MAX_SDIST_MEMBERS), compresslevel=1)
    message = _timed_sdist("pkg-1.0.tar.gz", body)
    assert f"first {through.MAX_SDIST_MEMBERS} members" in message


def test_a_zip_of_many_entries_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(through, "MAX_SDIST_MEMBERS", 100)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for number in range(200):
            archive.writestr(f"pkg-1.0/f{number}", b"")
        archive.writestr("pkg-1.0/setup.py", b"from setuptools import setup\nsetup()\n")
    assert "over 100 entries" in _timed_sdist("pkg-1.0.zip", buffer.getvalue())


def test_a_bomb_from_the_index_is_a_note(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As an sdist-only release served by an index: a short note, nothing cached."""
    body = gzip.compress(_empty_headers(200_000), compresslevel=1)
    monkeypatch.setattr(
        "envgen.infra.network.http_get", lambda *_a, **_k: SimpleNamespace(body=body)
    )
    item: dict[str, object] = {"filename": "pkg-1.0.tar.gz", "url": "https://x/pkg-1.0.tar.gz"}
    started = time.monotonic()
    text, note = through._metadata("pkg", item, folder=tmp_path, local=None, timeout=1)
    assert time.monotonic() - started < LIMIT_S
    assert text is None
    assert note is not None
    assert "the sdist could not be read (over" in note
    assert len(note) < 300
    assert not list(tmp_path.iterdir())


def test_a_setup_py_after_a_few_members_is_still_read() -> None:
    setup = b"from setuptools import setup\nsetup(name='g', install_requires=['torch>=1.7'])\n"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:xz") as tar:
        for name, data in (("g-1.0/README", b"x" * 1000), ("g-1.0/setup.py", setup)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    text = through._sdist_requires("g", "g-1.0.tar.xz", buffer.getvalue()).decode()
    assert "Requires-Dist: torch>=1.7" in text


def _import(source: Path, tmp_path: Path) -> tuple[float, dict[str, object], tuple[str, ...]]:
    started = time.monotonic()
    result = run_import(ImportOptions(source=source, cache_root=tmp_path / "cache"))
    return time.monotonic() - started, result.project, result.warnings


def _bounded(warnings: tuple[str, ...]) -> None:
    assert len(warnings) <= MAX_WARNINGS + 1
    assert sum(len(w) for w in warnings) < 64 * 1024
    assert max((len(w) for w in warnings), default=0) < 2000


def test_singularity_build_arguments_expand_within_bounds(tmp_path: Path) -> None:
    value = "A" * 100_000
    uses = " ".join(["{{ A }}"] * 1000)  # 1000 uses of a 100 kB value: 100 MB unbounded
    lines = "\n".join(f"  echo {uses}" for _ in range(100))
    source = tmp_path / "Singularity"
    source.write_text(
        "Bootstrap: docker\nFrom: pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime\n"
        f"%arguments\n  A={value}\n%post\n{lines}\n  pip install numpy\n"
    )
    took, project, warnings = _import(source, tmp_path)
    assert took < LIMIT_S
    assert project["torch"] == "2.1.0"
    _bounded(warnings)
    assert any(f"more than {MAX_EXPANDED_CHARS} characters" in w for w in warnings)
    assert any("in all ({{ NAME }} build arguments)" in w for w in warnings)


def test_singularity_files_lines_take_build_arguments(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "reqs.txt").write_text("torch==2.1.0\n")
    (tmp_path / "outside.txt").write_text("torch==1.0\n")
    source = repo / "Singularity"
    source.write_text(
        "Bootstrap: docker\nFrom: python:3.10\n%arguments\n  R=reqs.txt\n  O=../outside.txt\n"
        "%files\n  {{ R }} /opt/r.txt\n  {{ O }} /opt/o.txt\n"
        "%post\n  pip install -r /opt/r.txt\n  pip install -r /opt/o.txt\n"
    )
    _, project, warnings = _import(source, tmp_path)
    assert project["torch"] == "2.1.0"  # through %files' {{ R }}
    assert any("-r /opt/o.txt: outside the build context" in w for w in warnings)


def _pixi(tmp_path: Path, text: str) -> tuple[float, dict[str, object], tuple[str, ...]]:
    source = tmp_path / "pixi.toml"
    source.write_text(text)
    try:
        return _import(source, tmp_path)
    except ImportSpecError as exc:  # pragma: no cover - shown on failure
        pytest.fail(str(exc)[:2000])


def test_pixi_many_dependencies_no_line_rescans(tmp_path: Path) -> None:
    # Escaped names match no line: the old reader rescanned the whole file for each of them.
    deps = "\n".join(f'"p\\u0030{n}" = "1"' for n in range(8000))
    took, project, warnings = _pixi(
        tmp_path,
        f'[workspace]\nchannels = ["conda-forge"]\n[dependencies]\npytorch = "2.1.0"\n{deps}\n',
    )
    assert took < LIMIT_S
    assert project["torch"] == "2.1.0"
    assert any(f"more than {MAX_PACKAGES} pixi packages" in w for w in warnings)
    _bounded(warnings)


def test_pixi_features_by_environments_is_not_cubic(tmp_path: Path) -> None:
    count = 300
    features = ", ".join(f'"g{n}"' for n in range(count))
    envs = "\n".join(f"e{n} = [{features}]" for n in range(count))
    tables = "\n".join(f'[feature.g{n}.dependencies]\npytorch = "2.0.1"' for n in range(count))
    took, project, warnings = _pixi(
        tmp_path,
        f'[workspace]\nchannels = ["conda-forge"]\n[dependencies]\npytorch = "2.1.0"\n'
        f"[environments]\n{envs}\n{tables}\n",
    )
    assert took < LIMIT_S
    assert project["torch"] == "2.1.0"
    _bounded(warnings)
    assert sum("an alternative, not the default environment" in w for w in warnings) <= 20
    assert any("and 295 more" in w for w in warnings)


def test_pixi_long_feature_and_environment_names_are_excerpted(tmp_path: Path) -> None:
    name = "f" * 150_000
    env = "e" * 100_000
    took, project, warnings = _pixi(
        tmp_path,
        f'[workspace]\nchannels = ["conda-forge"]\n[dependencies]\npytorch = "2.1.0"\n'
        f'[environments]\ndefault = ["{name}x", "{name}y"]\n{env} = ["{name}"]\n'
        f'[feature.{name}.dependencies]\ntorchvision = "0.16.0"\n'
        f'[feature.{name}.pypi-dependencies]\nnumpy = "*"\n',
    )
    assert took < LIMIT_S
    assert project["torch"] == "2.1.0"
    _bounded(warnings)
    assert any("does not define" in w for w in warnings)
    assert any("only the environment(s) eee" in w for w in warnings)
