"""A conda variant's pip: section with a compiled extension: environment.yml and its lock.

pytorch comes from the local conda channel; torch-scatter from a loopback copy of PyG's page, named
in environment.yml and recorded in conda-lock.yml under its real host.
"""

from __future__ import annotations

import html
import shutil
from pathlib import Path

import pytest

from envgen.lock.conda import CondaLocker
from envgen.lock.locker import LockRequest
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.environment import render_environment
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls
from tests.integration.test_lock_conda import (  # noqa: F401 - fixtures
    MATRIX_MINI,
    _parse,
    channels,
    nvidia_channel,
)
from tests.support.server import IndexServer
from tests.support.wheels import make_wheel, sha256_file

pytest.importorskip("rattler")

pytestmark = pytest.mark.integration
ROOT = Path(__file__).parents[2]


def _cpu_variant(tmp_path: Path) -> Variant:
    """matrix-mini plus the bundled extensions.yaml; torch 2.1.0 cpu from conda."""
    matrix = tmp_path / "matrix"
    shutil.copytree(MATRIX_MINI, matrix)
    shutil.copy(ROOT / "matrices" / "extensions.yaml", matrix / "extensions.yaml")
    spec = parse_spec(
        "name: demo\npython: ['3.11']\ntorch: '2.1.0'\naccelerators: [cpu]\n"
        "managers: [conda]\npip: [torch-scatter, filelock]\n",
        path=Path("/nonexistent/project.yaml"),
    )
    (variant,) = expand(spec, load_matrix(matrix)).variants
    return variant


def _links(page: Path, wheels: list[Path]) -> None:
    page.write_text(
        "".join(f'<a href="{html.escape(w.name)}">{html.escape(w.name)}</a>\n' for w in wheels)
    )


def serve_pyg_and_pypi(served: Path) -> Path:
    """PyG's torch 2.1.0 cpu page under served/ext (its torch-scatter wheel, returned) and a
    PyPI stand-in under served/pypi/simple with torch and filelock."""
    pyg = served / "ext" / "data.pyg.org" / "whl"
    wheel = make_wheel(
        pyg,
        "torch_scatter",
        "2.1.2+pt21cpu",
        requires_dist=("torch",),
        python_tag="cp311",
        abi="cp311",
        plat="linux_x86_64",  # as PyG names its wheels
    )
    _links(pyg / "torch-2.1.0+cpu.html", [wheel])
    # The PyPI stand-in: torch as PyPI tags it (manylinux1: conda's glibc 2.17 target takes it).
    for name, version, plat in (
        ("torch", "2.1.0", "manylinux1_x86_64"),
        ("filelock", "3.13.1", "any"),
    ):
        tag = ("cp311", "cp311") if plat != "any" else ("py3", "none")
        found = make_wheel(
            served / "pypi" / "simple" / name,
            name,
            version,
            python_tag=tag[0],
            abi=tag[1],
            plat=plat,
        )
        _links(served / "pypi" / "simple" / name / "index.html", [found])
    return wheel


def test_conda_variant_pins_the_extension_from_its_page(
    channels: dict[str, str],  # noqa: F811 - the imported fixture
    tmp_path: Path,
) -> None:
    variant = _cpu_variant(tmp_path)
    assert [p.requirement for p in variant.extensions] == ["torch-scatter==2.1.2"]
    text = render_environment(
        variant, header=Header(command="envgen lock", input_hash="x", description="cpu")
    )
    assert text.split("  - pip:\n", 1)[1] == (
        "      - --find-links https://data.pyg.org/whl/torch-2.1.0+cpu.html\n"
        "      - filelock\n"
        "      - torch-scatter==2.1.2\n"
    )
    served = tmp_path / "served"
    wheel = serve_pyg_and_pypi(served)
    work = tmp_path / "w"
    work.mkdir()
    with IndexServer(served) as server:
        request = LockRequest(
            variant=variant,
            urls=IndexUrls(pypi=server.url + "/pypi/simple", extension_root=server.url + "/ext"),
            written_urls=IndexUrls(),
            conda_channels=channels,
            exclude_newer=None,
            resolver="uv",
            upgrade=False,
            upgrade_packages=(),
            previous={},
            workdir=work,
            cache_dir=work / "cache",
        )
        lockfile, _ = CondaLocker().lock(request)
    parsed = _parse(tmp_path, lockfile)
    pip = {p.name: p for p in parsed.package if p.manager == "pip"}  # type: ignore[attr-defined]
    assert sorted(pip) == ["filelock", "torch-scatter"]
    scatter = pip["torch-scatter"]
    assert (scatter.version, scatter.url, scatter.hash.sha256) == (
        "2.1.2+pt21cpu",
        f"https://data.pyg.org/whl/{wheel.name}",
        sha256_file(wheel),
    )
