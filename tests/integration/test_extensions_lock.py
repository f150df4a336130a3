"""Extensions lock with the real uv from their own find-links pages (loopback copies).

The served tree mirrors the real hosts' shape: a PEP 503 PyTorch index for cu113, PyG's
`torch-1.10.0+cu113.html`, mmcv's `dist/cu113/torch1.10/index.html` and detectron2's
`wheels/cu113/torch1.10/index.html` flat pages, with wheels named as those hosts name them.
"""

from __future__ import annotations

import html
import shutil
from pathlib import Path

import pytest
import yaml

from envgen.build.orchestrate import build_one
from envgen.build.venv import VenvBuilder
from envgen.errors import LockError, UnsupportedCombinationError
from envgen.lock.locker import LockRequest
from envgen.lock.pip import PipLocker
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls
from tests.support.fixtures import user_key
from tests.support.server import IndexServer
from tests.support.wheels import make_wheel, sha256_file

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("tool_environ")]

ROOT = Path(__file__).parents[2]
MINI = ROOT / "tests" / "data" / "matrix-mini"
LINUX = "linux_x86_64"


def _matrix_dir(tmp: Path) -> Path:
    """matrix-mini plus torch 1.10.0 and 1.12.1 (cu113, pip) and the bundled extensions.yaml."""
    out = tmp / "matrix"
    shutil.copytree(MINI, out)
    releases = yaml.safe_load((MINI / "releases.yaml").read_text(encoding="utf-8"))
    releases += [
        {
            "torch": "1.10.0",
            "torchvision": None,
            "torchaudio": None,
            "python": ["3.9"],
            "source": "t",
        },
        {
            "torch": "1.12.1",
            "torchvision": None,
            "torchaudio": None,
            "python": ["3.9"],
            "source": "t",
        },
    ]
    releases.sort(key=lambda r: tuple(int(p) for p in r["torch"].split(".")))
    (out / "releases.yaml").write_text(yaml.safe_dump(releases), encoding="utf-8")
    pip = yaml.safe_load((MINI / "pip.yaml").read_text(encoding="utf-8"))
    pip += [
        {
            "release": release,
            "platforms": ["linux-64"],
            "kind": "cuda",
            "version": "11.3",
            "torch": f"{release}+cu113",
            "index": "extra-index-url",
            "url": "https://download.pytorch.org/whl/cu113",
            "source": "test",
        }
        for release in ("1.10.0", "1.12.1")
    ]
    (out / "pip.yaml").write_text(yaml.safe_dump(pip), encoding="utf-8")
    shutil.copy(ROOT / "matrices" / "extensions.yaml", out / "extensions.yaml")
    return out


def _page(path: Path, wheels: list[Path], *, fragments: bool = False) -> None:
    """A flat page as those hosts write them: plain links (`fragments`: with #sha256=)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    anchors = "".join(
        f'<a href="{html.escape(w.name)}'
        + (f"#sha256={sha256_file(w)}" if fragments else "")
        + f'">{html.escape(w.name)}</a><br/>\n'
        for w in wheels
    )
    path.write_text(f"<html><body>\n{anchors}</body></html>\n", encoding="utf-8")


def _tree(root: Path, *, fragments: bool = False) -> dict[str, Path]:
    """Write the served tree; returns the wheels by project."""

    def wheel(directory: Path, name: str, version: str, *requires: str) -> Path:
        return make_wheel(
            directory,
            name,
            version,
            requires_dist=requires,
            python_tag="cp39",
            abi="cp39",
            plat=LINUX,
        )

    torch_dir = root / "whl" / "cu113" / "torch"
    torch = wheel(torch_dir, "torch", "1.10.0+cu113")
    _page(torch_dir / "index.html", [torch])
    (root / "whl" / "cu113" / "index.html").write_text('<a href="torch/">torch</a>\n')
    pyg = root / "ext" / "data.pyg.org" / "whl"
    scatter = [wheel(pyg, "torch_scatter", v, "torch") for v in ("2.0.8", "2.0.9")]
    _page(pyg / "torch-1.10.0+cu113.html", scatter, fragments=fragments)
    mm = root / "ext" / "download.openmmlab.com" / "mmcv" / "dist" / "cu113" / "torch1.10"
    mmcv = [wheel(mm, "mmcv_full", v) for v in ("1.6.0", "1.7.1")]
    _page(mm / "index.html", mmcv)
    d2 = root / "ext" / "dl.fbaipublicfiles.com" / "detectron2" / "wheels" / "cu113" / "torch1.10"
    detectron2 = wheel(d2, "detectron2", "0.6+cu113")
    _page(d2 / "index.html", [detectron2])
    # torch 1.9-1.10 import pkg_resources undeclared: envgen adds setuptools, below 59.6
    # (matrices/incompatibilities.yaml), so the PyPI stand-in serves one.
    tools = root / "pypi" / "simple" / "setuptools"
    setuptools = make_wheel(tools, "setuptools", "59.5.0", python_tag="py3", abi="none", plat="any")
    _page(tools / "index.html", [setuptools])
    return {
        "setuptools": setuptools,
        "torch": torch,
        "torch-scatter": scatter[1],
        "mmcv-full": mmcv[1],
        "detectron2": detectron2,
    }


def _variant(matrix_dir: Path, torch: str) -> Variant:
    spec = parse_spec(
        "name: paper\n"
        f'python: "3.9"\ntorch: "{torch}"\naccelerators: [cu113]\nmanagers: [pip]\n'
        "torchvision: false\ntorchaudio: false\n"
        "pip: [torch-scatter, mmcv-full, detectron2]\n",
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix(matrix_dir)).variants
    return variant


def _request(variant: Variant, server: IndexServer, tmp_path: Path) -> LockRequest:
    work = tmp_path / "work"
    work.mkdir()
    return LockRequest(
        variant=variant,
        urls=IndexUrls(
            pytorch_root=server.url + "/whl",
            pypi=server.url + "/pypi/simple",
            extension_root=server.url + "/ext",
        ),
        written_urls=IndexUrls(),
        conda_channels={},
        exclude_newer=None,
        resolver="uv",
        upgrade=False,
        upgrade_packages=(),
        previous={},
        workdir=work,
        cache_dir=tmp_path / "cache",
    )


def test_torch_1_10_cu113_extensions_lock_from_their_pages(tmp_path: Path) -> None:
    variant = _variant(_matrix_dir(tmp_path), "1.10.0")
    assert [p.requirement for p in variant.extensions] == [
        "torch-scatter==2.0.9",
        "mmcv-full==1.7.1",
        "detectron2==0.6",
    ]
    wheels = _tree(tmp_path / "served")
    with IndexServer(tmp_path / "served") as server:
        (locked,) = PipLocker(resolver="uv").lock(_request(variant, server, tmp_path))
        asked = server.requested_paths("/ext/*")

    def pin(name: str, version: str) -> str:
        return f"{name}=={version} \\\n    --hash=sha256:{sha256_file(wheels[name])}"

    assert locked.body == (
        "--extra-index-url https://download.pytorch.org/whl/cu113\n"
        "--find-links https://data.pyg.org/whl/torch-1.10.0+cu113.html\n"
        "--find-links https://download.openmmlab.com/mmcv/dist/cu113/torch1.10/index.html\n"
        "--find-links https://dl.fbaipublicfiles.com/detectron2/wheels/cu113/torch1.10/index.html\n"
        "\n"
        f"{pin('detectron2', '0.6+cu113')}\n"
        f"{pin('mmcv-full', '1.7.1')}\n"
        f"{pin('setuptools', '59.5.0')}\n"
        f"{pin('torch', '1.10.0+cu113')}\n"
        f"{pin('torch-scatter', '2.0.9')}\n"
    )
    # Each extension came from its own page, the page naming the variant's torch and CUDA.
    assert sorted({p.rsplit("/", 1)[0] for p in asked}) == [
        "/ext/data.pyg.org/whl",
        "/ext/dl.fbaipublicfiles.com/detectron2/wheels/cu113/torch1.10",
        "/ext/download.openmmlab.com/mmcv/dist/cu113/torch1.10",
    ]


def test_a_pin_without_hash_is_refused(tmp_path: Path) -> None:
    """uv 0.13 drops the hash of a flat-page file linked with #sha256=: no lock is written."""
    variant = _variant(_matrix_dir(tmp_path), "1.10.0")
    _tree(tmp_path / "served", fragments=True)
    with IndexServer(tmp_path / "served") as server, pytest.raises(LockError) as info:
        PipLocker(resolver="uv").lock(_request(variant, server, tmp_path))
    assert info.value.message == (
        "cu113: uv wrote no hash for torch-scatter==2.0.9; `pip install --require-hashes` "
        "would refuse the lock, so nothing was written"
    )


def test_torch_1_12_1_has_no_prebuilt_detectron2(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        _variant(_matrix_dir(tmp_path), "1.12.1")
    assert str(info.value) == (
        "project.yaml: pip[2]: no detectron2 wheel was built for torch 1.12.1 cu113 "
        "(python 3.9, linux-64); nearest cu113 build: torch 1.10 with detectron2 0.6; "
        "fix: use torch 1.10.0 for this variant, or drop detectron2 from pip: and build it "
        "from source"
    )


def test_lock_then_build_from_the_extension_page(tmp_path: Path) -> None:
    """torch 2.1.0 cpu (python 3.11) + torch-scatter: the built venv holds the page's wheel."""
    spec = parse_spec(
        'name: paper\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n'
        "torchvision: false\ntorchaudio: false\npip: [torch-scatter]\n",
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix(_matrix_dir(tmp_path))).variants
    assert [p.requirement for p in variant.extensions] == ["torch-scatter==2.1.2"]
    served = tmp_path / "served"

    def wheel(directory: Path, name: str, version: str, *requires: str) -> Path:
        return make_wheel(
            directory,
            name,
            version,
            requires_dist=requires,
            python_tag="cp311",
            abi="cp311",
            plat="manylinux_2_28_x86_64",
        )

    torch = wheel(served / "whl" / "cpu" / "torch", "torch", "2.1.0+cpu")
    _page(served / "whl" / "cpu" / "torch" / "index.html", [torch])
    (served / "whl" / "cpu" / "index.html").write_text('<a href="torch/">torch</a>\n')
    pyg = served / "ext" / "data.pyg.org" / "whl"
    scatter = wheel(pyg, "torch_scatter", "2.1.2+pt21cpu", "torch")
    _page(pyg / "torch-2.1.0+cpu.html", [scatter])
    (served / "pypi" / "simple").mkdir(parents=True)
    with IndexServer(served) as server:
        request = _request(variant, server, tmp_path)
        (locked,) = PipLocker(resolver="uv").lock(request)
        assert locked.body.startswith(
            "--index-url https://download.pytorch.org/whl/cpu\n"
            "--extra-index-url https://pypi.org/simple\n"
            "--find-links https://data.pyg.org/whl/torch-2.1.0+cpu.html\n\n"
        )
        lock_dir = tmp_path / "env" / "cpu"
        lock_dir.mkdir(parents=True)
        (lock_dir / "requirements.txt").write_text(locked.body, encoding="utf-8")
        status, inventory = build_one(
            variant,
            VenvBuilder(),
            lock_dir=lock_dir,
            env=lock_dir / ".env",
            cache_dir=tmp_path / "build-cache",
            urls=request.urls,
            key=user_key(),
        )
    assert status == "built"
    assert inventory.pip == {"torch": "2.1.0+cpu", "torch-scatter": "2.1.2+pt21cpu"}
