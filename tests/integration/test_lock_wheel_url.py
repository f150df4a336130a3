"""Rows that name their torch wheel (torch 1.0-1.1 on Linux), locked with the real uv.

The page's Linux wheels (`whl/cpu/torch-1.0.0-cp37-cp37m-linux_x86_64.whl`) carry no local label,
and PyPI holds a manylinux1 wheel of the same version (a CUDA 9.0 build). A loopback copy of both
shows what each route selects: `torch==1.0.0 -f page` lets uv take PyPI's wheel, the direct URL
the matrix row names (`wheel`) cannot. Every request goes to 127.0.0.1.
"""

from __future__ import annotations

import hashlib
import re
import subprocess  # noqa: TID251 - these tests drive the real uv and pip directly
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from envgen.infra.proc import require
from envgen.lock.locker import LockRequest
from envgen.lock.pip import PipLocker
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls
from envgen.render.requirements import render_requirements
from tests.support.server import IndexServer
from tests.support.wheels import make_wheel

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("tool_environ")]

PAGE_WHEEL = "torch-1.0.0-cp37-cp37m-linux_x86_64.whl"
PYPI_WHEEL = "torch-1.0.0-cp37-cp37m-manylinux1_x86_64.whl"


@dataclass(frozen=True, slots=True)
class Served:
    url: str
    page_sha: str
    pypi_sha: str

    @property
    def urls(self) -> IndexUrls:
        return IndexUrls(pytorch_root=f"{self.url}/whl", pypi=f"{self.url}/pypi/simple")


def _links(directory: Path) -> str:
    return "".join(f'<a href="{p.name}">{p.name}</a><br>\n' for p in sorted(directory.glob("*")))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    """PyPI's torch 1.0.0 (manylinux1) and torchvision 0.2.1, and the cpu wheel page."""
    root = tmp_path / "root"
    pypi = root / "pypi" / "simple"
    page = root / "whl" / "cpu"
    pypi_wheel = make_wheel(
        pypi / "torch",
        "torch",
        "1.0.0",
        python_tag="cp37",
        abi="cp37m",
        plat="manylinux1_x86_64",
        files={"torch/__init__.py": "BUILD = 'pypi cu90'\n"},
    )
    make_wheel(pypi / "torchvision", "torchvision", "0.2.1", python_tag="py2.py3")
    page_wheel = make_wheel(
        page,
        "torch",
        "1.0.0",
        python_tag="cp37",
        abi="cp37m",
        plat="linux_x86_64",
        files={"torch/__init__.py": "BUILD = 'cpu'\n"},
    )
    for project in ("torch", "torchvision"):
        (pypi / project / "index.html").write_text(_links(pypi / project), encoding="utf-8")
    (pypi / "index.html").write_text(
        '<a href="torch/">torch</a>\n<a href="torchvision/">torchvision</a>\n', encoding="utf-8"
    )
    (page / "torch_stable.html").write_text(_links(page), encoding="utf-8")
    with IndexServer(root) as server:
        yield Served(
            url=server.url,
            page_sha=hashlib.sha256(page_wheel.read_bytes()).hexdigest(),
            pypi_sha=hashlib.sha256(pypi_wheel.read_bytes()).hexdigest(),
        )


def _variant(accelerator: str = "cpu") -> Variant:
    spec = parse_spec(
        'name: old\ntorch: "1.0.0"\npython: "3.7"\n'
        f"accelerators: [{accelerator}]\nplatforms: [linux-64]\nmanagers: [pip]\n",
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix()).variants
    return variant


def _request(variant: Variant, served: Served, tmp_path: Path) -> LockRequest:
    workdir = tmp_path / "work"
    workdir.mkdir()
    return LockRequest(
        variant=variant,
        urls=served.urls,
        written_urls=IndexUrls(),
        conda_channels={},
        exclude_newer=None,
        resolver="uv",
        upgrade=False,
        upgrade_packages=(),
        previous={},
        workdir=workdir,
        cache_dir=tmp_path / "cache",
    )


def _uv_compile(requirements: str, served: Served, tmp_path: Path) -> str:
    source = tmp_path / "requirements.in"
    source.write_text(requirements, encoding="utf-8")
    done = subprocess.run(
        [
            require("uv", why="compile with uv alone"),
            "pip",
            "compile",
            str(source),
            "--index-url",
            served.urls.pypi or "",
            "--python-version",
            "3.7",
            "--python-platform",
            "x86_64-manylinux_2_28",
            "--generate-hashes",
            "--no-header",
            "--quiet",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_find_links_alone_lets_uv_take_pypis_wheel(served: Served, tmp_path: Path) -> None:
    """Why the row names its wheel: with `-f page`, uv pins PyPI's same-version build."""
    out = _uv_compile(
        f"torch==1.0.0\n--find-links {served.url}/whl/cpu/torch_stable.html\n", served, tmp_path
    )
    assert re.findall(r"--hash=sha256:([0-9a-f]{64})", out.split("torch==1.0.0")[1])[:1] == [
        served.pypi_sha
    ]


def test_lock_pins_the_pages_wheel_by_url(served: Served, tmp_path: Path) -> None:
    variant = _variant()
    (locked,) = PipLocker(resolver="uv").lock(_request(variant, served, tmp_path))
    official = f"https://download.pytorch.org/whl/cpu/{PAGE_WHEEL}"
    # Written under the official root, with the page wheel's hash (never PyPI's); no -f page.
    assert f"torch @ {official} \\\n    --hash=sha256:{served.page_sha}\n" in locked.body
    assert served.pypi_sha not in locked.body
    assert "--find-links" not in locked.body
    assert served.url not in locked.body
    assert "torchvision==0.2.1 \\\n" in locked.body


def test_pins_only_file_selects_the_pages_wheel(served: Served, tmp_path: Path) -> None:
    """The pins-only requirements.txt, under the loopback root, through uv and through pip."""
    text = render_requirements(
        _variant(), header=Header(command="c", input_hash="h", description="d"), urls=served.urls
    )
    reqs = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    assert f"torch @ {served.url}/whl/cpu/{PAGE_WHEEL}" in reqs
    out = _uv_compile(reqs + "\n", served, tmp_path)
    assert served.page_sha in out
    assert served.pypi_sha not in out
    # pip (any version: a direct URL is not a candidate search) downloads exactly that file.
    report = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--dest",
            str(tmp_path / "dl"),
            "--python-version",
            "3.7",
            "--abi",
            "cp37m",
            "--platform",
            "manylinux1_x86_64",
            "--platform",
            "linux_x86_64",
            "--only-binary",
            ":all:",
            "--index-url",
            served.urls.pypi or "",
            next(line for line in reqs.splitlines() if line.startswith("torch @ ")),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert PAGE_WHEEL in report.stdout, report.stdout
    assert [p.name for p in (tmp_path / "dl").iterdir()] == [PAGE_WHEEL]
