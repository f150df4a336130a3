"""Compiled torch extensions: matrices/extensions.yaml -> per-variant pin and index line.

Each table row comes from the extension's own sources (named in matrices/extensions.yaml): the
workflow build matrices of pyg-team, mmcv's installation selector, detectron2's INSTALL.md tables,
xformers' and flash-attn's release workflows, pytorch3d's wheel scripts, PyPI for spconv.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.lock.index_plan import index_plan
from envgen.lock.pip import render_pyproject
from envgen.model.extensions import (
    FindLinksMatch,
    Target,
    is_extension_requirement,
    recognise_index_url,
    resolve,
    torch_matches,
)
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls
from envgen.render.requirements import render_requirements


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def target(torch: str, acc: str, python: str = "3.9") -> Target:
    return Target(torch=torch, accelerator=acc, python=python, platform="linux-64")


TABLE = [
    # PyG: one find-links page per torch minor (X.Y.0), newest version built for it.
    (
        "torch-scatter",
        target("1.10.0", "cu113"),
        "torch-scatter==2.0.9",
        "--find-links https://data.pyg.org/whl/torch-1.10.0+cu113.html",
    ),
    (
        "torch-scatter",
        target("1.12.1", "cu113"),
        "torch-scatter==2.1.0",
        "--find-links https://data.pyg.org/whl/torch-1.12.0+cu113.html",
    ),
    (
        "torch-scatter",
        target("2.1.0", "cpu", "3.11"),
        "torch-scatter==2.1.2",
        "--find-links https://data.pyg.org/whl/torch-2.1.0+cpu.html",
    ),
    (
        "torch_sparse",
        target("1.13.1", "cu117"),
        "torch-sparse==0.6.17",
        "--find-links https://data.pyg.org/whl/torch-1.13.0+cu117.html",
    ),
    (
        "torch-cluster",
        target("2.0.1", "cu118", "3.10"),
        "torch-cluster==1.6.3",  # tag 1.6.3's workflow builds torch 2.0.0 and 2.1.0
        "--find-links https://data.pyg.org/whl/torch-2.0.0+cu118.html",
    ),
    (
        "torch-spline-conv",
        target("1.11.0", "cu115", "3.10"),
        "torch-spline-conv==1.2.1",
        "--find-links https://data.pyg.org/whl/torch-1.11.0+cu115.html",
    ),
    (
        "pyg-lib",
        target("2.1.2", "cu121", "3.10"),
        "pyg-lib==0.4.0",
        "--find-links https://data.pyg.org/whl/torch-2.1.0+cu121.html",
    ),
    (
        "torch-scatter",
        Target(torch="2.3.0", accelerator="cpu", python="3.11", platform="osx-arm64"),
        "torch-scatter==2.1.2",
        "--find-links https://data.pyg.org/whl/torch-2.3.0+cpu.html",
    ),
    # mmcv-full 1.x and mmcv 2.x: dist/<cuda>/torch<X.Y>/index.html.
    (
        "mmcv-full==1.6.0",
        target("1.12.1", "cu113"),
        "mmcv-full==1.6.0",
        "--find-links https://download.openmmlab.com/mmcv/dist/cu113/torch1.12/index.html",
    ),
    (
        "mmcv-full",
        target("1.10.0", "cu113"),
        "mmcv-full==1.7.1",
        "--find-links https://download.openmmlab.com/mmcv/dist/cu113/torch1.10/index.html",
    ),
    (
        "mmcv>=2",
        target("2.1.0", "cu121", "3.10"),
        "mmcv==2.2.0",
        "--find-links https://download.openmmlab.com/mmcv/dist/cu121/torch2.1/index.html",
    ),
    (
        "mmcv-full",
        Target(torch="1.12.1", accelerator="cu113", python="3.9", platform="win-64"),
        "mmcv-full==1.7.1",
        "--find-links https://download.openmmlab.com/mmcv/dist/cu113/torch1.12/index.html",
    ),
    # detectron2: wheels per cuda x torch minor, last published for torch 1.10.
    (
        "detectron2",
        target("1.10.0", "cu113"),
        "detectron2==0.6",
        "--find-links https://dl.fbaipublicfiles.com/detectron2/wheels/cu113/torch1.10/index.html",
    ),
    (
        "detectron2",
        target("1.8.1", "cpu", "3.8"),
        "detectron2==0.6",
        "--find-links https://dl.fbaipublicfiles.com/detectron2/wheels/cpu/torch1.8/index.html",
    ),
    # DGL: per-CUDA pages, later per torch minor; the cpu page names no accelerator.
    (
        "dgl",
        target("2.4.1", "cu124", "3.10"),
        "dgl==2.4.0",
        "--find-links https://data.dgl.ai/wheels/torch-2.4/cu124/repo.html",
    ),
    (
        "dgl",
        target("2.4.0", "cpu", "3.10"),
        "dgl==2.4.0",
        "--find-links https://data.dgl.ai/wheels/torch-2.4/repo.html",
    ),
    (
        "dgl",
        target("2.0.1", "cu118", "3.10"),
        "dgl==1.1.2",
        "--find-links https://data.dgl.ai/wheels/cu118/repo.html",
    ),
    # xformers: one release per torch release, from the variant's own PyTorch index.
    ("xformers", target("2.1.2", "cu121", "3.10"), "xformers==0.0.23.post1", None),
    ("xformers", target("2.5.1", "cu124", "3.11"), "xformers==0.0.29.post1", None),
    # flash-attn: a direct wheel URL per torch minor x CUDA major x C++ ABI x python.
    (
        "flash-attn<2.7",
        target("2.3.0", "cu121", "3.10"),
        "flash-attn @ https://github.com/Dao-AILab/flash-attention/releases/download/v2.6.3/"
        "flash_attn-2.6.3+cu123torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl",
        None,
    ),
    (
        "flash-attn==2.5.8",
        target("1.13.1", "cu117", "3.10"),
        "flash-attn @ https://github.com/Dao-AILab/flash-attention/releases/download/v2.5.8/"
        "flash_attn-2.5.8+cu118torch1.13cxx11abiFALSE-cp310-cp310-linux_x86_64.whl",
        None,
    ),
    (
        "flash-attn",
        target("2.7.1", "cu126", "3.12"),
        "flash-attn @ https://github.com/Dao-AILab/flash-attention/releases/download/v2.8.3/"
        "flash_attn-2.8.3+cu12torch2.7cxx11abiTRUE-cp312-cp312-linux_x86_64.whl",
        None,
    ),
    # pytorch3d: one page per python x cuda x exact torch.
    (
        "pytorch3d",
        target("1.11.0", "cu113", "3.8"),
        "pytorch3d==0.6.2",
        "--find-links https://dl.fbaipublicfiles.com/pytorch3d/packaging/wheels/"
        "py38_cu113_pyt1110/download.html",
    ),
    (
        "pytorch3d",
        target("2.0.1", "cu118", "3.10"),
        "pytorch3d==0.7.4",
        "--find-links https://dl.fbaipublicfiles.com/pytorch3d/packaging/wheels/"
        "py310_cu118_pyt201/download.html",
    ),
    # spconv: one PyPI package per CUDA; whichever the spec names, the variant's is pinned.
    ("spconv-cu113", target("1.12.1", "cu113"), "spconv-cu113==2.3.6", None),
    ("spconv-cu113", target("2.1.0", "cu118", "3.10"), "spconv-cu118==2.3.8", None),
    ("spconv", target("2.1.0", "cpu", "3.10"), "spconv==2.3.8", None),
]


@pytest.mark.parametrize(("requirement", "where", "line", "index"), TABLE)
def test_table(
    matrix: Matrix, requirement: str, where: Target, line: str, index: str | None
) -> None:
    pin = resolve(matrix, requirement, where, where="project.yaml: pip[0]")
    assert (pin.requirement, pin.index_line) == (line, index)
    assert pin.source


def test_spec_date_picks_the_newest_version_released_by_then(matrix: Matrix) -> None:
    pin = resolve(
        matrix, "mmcv-full", target("1.10.0", "cu113"), where="w", before=dt.date(2022, 3, 20)
    )
    assert pin.requirement == "mmcv-full==1.4.7"
    pin = resolve(
        matrix, "torch-scatter", target("1.12.1", "cu113"), where="w", before=dt.date(2022, 12, 1)
    )
    assert pin.requirement == "torch-scatter==2.0.9"


def test_the_date_never_overrides_an_exact_pin(matrix: Matrix) -> None:
    early = dt.date(2023, 10, 4)
    pin = resolve(matrix, "torch-scatter==2.1.2", target("2.1.0", "cpu"), where="w", before=early)
    assert pin.requirement == "torch-scatter==2.1.2"
    with pytest.raises(UnsupportedCombinationError) as info:
        resolve(matrix, "torch-scatter", target("2.1.0", "cpu"), where="w", before=early)
    assert (info.value.message, info.value.hint) == (
        "w: no torch-scatter wheel was built for torch 2.1.0 cpu (python 3.9, linux-64); "
        "versions built for it: 2.1.2 (after 2023-10-04: 2.1.2)",
        "pin torch-scatter==2.1.2 (an exact pin is taken whatever its date), or move "
        "lock.exclude_newer to 2023-10-05 or later",
    )


def test_markers_and_extras_are_kept(matrix: Matrix) -> None:
    pin = resolve(
        matrix, 'mmcv-full[all]; sys_platform == "linux"', target("1.12.1", "cu116"), where="w"
    )
    assert pin.requirement == 'mmcv-full[all]==1.7.1; sys_platform == "linux"'


ERRORS = [
    (
        # PyG's workflow excluded windows x cu102 for torch 1.11 and 1.12.
        "torch-scatter",
        Target(torch="1.12.1", accelerator="cu102", python="3.9", platform="win-64"),
        "project.yaml: pip[0]: no torch-scatter wheel was built for torch 1.12.1 cu102 "
        "(python 3.9, win-64); for torch 1.12.1 it was built for cpu, cu113, cu116; "
        "nearest cu102 build: torch 1.10 with torch-scatter 2.0.9",
        "use accelerator cu113, or use torch 1.10.0 for this variant, or drop torch-scatter "
        "from pip: and build it from source",
    ),
    (
        "detectron2",
        Target(torch="1.10.0", accelerator="cu113", python="3.9", platform="win-64"),
        "project.yaml: pip[0]: no detectron2 wheel was built for torch 1.10.0 cu113 "
        "(python 3.9, win-64); matrices/extensions.yaml records no win-64 wheels of detectron2",
        "drop detectron2 from pip: and build it from source",
    ),
    (
        "detectron2",
        target("1.12.1", "cu113"),
        "project.yaml: pip[0]: no detectron2 wheel was built for torch 1.12.1 cu113 "
        "(python 3.9, linux-64); nearest cu113 build: torch 1.10 with detectron2 0.6",
        "use torch 1.10.0 for this variant, or drop detectron2 from pip: and build it from source",
    ),
    (
        "torch-scatter==2.1.2",
        target("1.10.0", "cu113"),
        "project.yaml: pip[0]: no torch-scatter==2.1.2 wheel was built for torch 1.10.0 cu113 "
        "(python 3.9, linux-64); versions built for it: 2.0.9",
        "pin torch-scatter==2.0.9 (or leave it unpinned)",
    ),
    (
        "torch-scatter",
        target("1.10.0", "cu113", "3.10"),
        "project.yaml: pip[0]: no torch-scatter wheel was built for torch 1.10.0 cu113 "
        "(python 3.10, linux-64); it was built for python 3.6, 3.7, 3.8, 3.9",
        "use python 3.9 for this variant",
    ),
    (
        "mmcv-full",
        target("1.13.1", "cu102"),
        "project.yaml: pip[0]: no mmcv-full wheel was built for torch 1.13.1 cu102 "
        "(python 3.9, linux-64); for torch 1.13.1 it was built for cpu, cu116, cu117; "
        "nearest cu102 build: torch 1.12 with mmcv-full 1.7.1",
        "use accelerator cu116, or use torch 1.12.0 for this variant, or drop mmcv-full from "
        "pip: and build it from source",
    ),
    (
        "pytorch3d",
        target("1.11.0", "cpu"),
        "project.yaml: pip[0]: no pytorch3d wheel was built for torch 1.11.0 cpu "
        # cu111 was built for python 3.7 only: not suggested for python 3.9
        "(python 3.9, linux-64); for torch 1.11.0 it was built for cu113",
        "use accelerator cu113, or drop pytorch3d from pip: and build it from source",
    ),
    (
        "pytorch3d",
        target("1.11.0", "cpu", "3.7"),
        "project.yaml: pip[0]: no pytorch3d wheel was built for torch 1.11.0 cpu "
        "(python 3.7, linux-64); for torch 1.11.0 it was built for cu111, cu113",
        "use accelerator cu111, or drop pytorch3d from pip: and build it from source",
    ),
    (
        # no build of any torch for python 3.11: the hint names the pythons, not a torch
        "pytorch3d",
        target("1.11.0", "cpu", "3.11"),
        "project.yaml: pip[0]: no pytorch3d wheel was built for torch 1.11.0 cpu "
        "(python 3.11, linux-64); no linux-64 wheel of it was built for python 3.11; nearest "
        "build: torch 1.11.0 cu113 with pytorch3d 0.6.2, for python 3.7, 3.8, 3.9, 3.10",
        "use torch 1.11.0 with cu113 and python 3.10 for this variant, or drop pytorch3d from "
        "pip: and build it from source",
    ),
    (
        # torch 1.10 x cu113 was built for python 3.6-3.9 only: not 'use torch 1.10.0' alone
        "detectron2",
        target("1.12.1", "cu113", "3.10"),
        "project.yaml: pip[0]: no detectron2 wheel was built for torch 1.12.1 cu113 "
        "(python 3.10, linux-64); no linux-64 wheel of it was built for python 3.10; nearest "
        "build: torch 1.10 cu113 with detectron2 0.6, for python 3.6, 3.7, 3.8, 3.9",
        "use torch 1.10.0 with cu113 and python 3.9 for this variant, or drop detectron2 from "
        "pip: and build it from source",
    ),
    (
        # the nearest torch for cu117 on python 3.7: 0.7.4's torch 2.0.1 builds start at 3.8
        "pytorch3d",
        target("1.13.1", "cu117", "3.7"),
        "project.yaml: pip[0]: no pytorch3d wheel was built for torch 1.13.1 cu117 "
        "(python 3.7, linux-64); nearest build: torch 1.11.0 cu113 with pytorch3d 0.6.2",
        "use torch 1.11.0 with cu113, or drop pytorch3d from pip: and build it from source",
    ),
    (
        "xformers",
        target("2.1.0", "cu116", "3.10"),
        "project.yaml: pip[0]: no xformers wheel was built for torch 2.1.0 cu116 "
        "(python 3.10, linux-64); for torch 2.1.0 it was built for cu118, cu121",
        "use accelerator cu118, or drop xformers from pip: and build it from source",
    ),
    (
        "xformers",
        target("1.10.0", "cpu"),
        "project.yaml: pip[0]: no xformers wheel was built for torch 1.10.0 cpu "
        "(python 3.9, linux-64); nearest build: torch 2.0.1 cu118 with xformers 0.0.22",
        "use torch 2.0.1 with cu118, or drop xformers from pip: and build it from source",
    ),
]


@pytest.mark.parametrize(("requirement", "where", "message", "hint"), ERRORS)
def test_never_built_names_the_nearest(
    matrix: Matrix, requirement: str, where: Target, message: str, hint: str
) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        resolve(matrix, requirement, where, where="project.yaml: pip[0]")
    assert (info.value.message, info.value.hint) == (message, hint)


def test_torch_entries() -> None:
    assert [torch_matches(e, "1.10.2") for e in ("1.10", "1.10.2", "1.10.0", ">=1.6", "1.1")] == [
        True,
        True,
        False,
        True,
        False,
    ]


def spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec("name: p\n" + text, path=Path("project.yaml"))


def test_expand_pins_and_renders_each_variant(matrix: Matrix) -> None:
    exp = expand(
        spec(
            'python: "3.9"\ntorch: "1.12.1"\naccelerators: [cpu, cu113]\nmanagers: [pip]\n'
            'pip: [torch-scatter, "mmcv-full==1.6.0", "numpy<2"]\n'
        ),
        matrix,
    )
    cu113 = next(v for v in exp.variants if v.id == "cu113")
    text = render_requirements(
        cu113,
        header=Header(command="envgen lock", input_hash="x", description="cu113"),
        urls=IndexUrls(),
    )
    body = text.split("\n\n", 1)[0].splitlines()[-3:]
    assert body == [
        "--extra-index-url https://download.pytorch.org/whl/cu113",
        "--find-links https://data.pyg.org/whl/torch-1.12.0+cu113.html",
        "--find-links https://download.openmmlab.com/mmcv/dist/cu113/torch1.12/index.html",
    ]
    assert text.split("\n\n", 1)[1].splitlines() == [
        "mmcv-full==1.6.0",
        "numpy<2",
        "torch==1.12.1+cu113",
        "torch-scatter==2.1.0",
        "torchaudio==0.12.1",
        "torchvision==0.13.1+cu113",
    ]
    cpu = next(v for v in exp.variants if v.id == "cpu")
    assert [p.index_line for p in cpu.extensions] == [
        "--find-links https://data.pyg.org/whl/torch-1.12.0+cpu.html",
        "--find-links https://download.openmmlab.com/mmcv/dist/cpu/torch1.12/index.html",
    ]


def test_expand_reports_every_unbuilt_extension(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(
            spec(
                'python: "3.9"\ntorch: "1.12.1"\naccelerators: [cu113]\nmanagers: [pip]\n'
                "pip: [detectron2, pytorch3d]\n"
            ),
            matrix,
        )
    assert str(info.value) == (
        "project.yaml: 2 combinations were never published\n"
        "  - project.yaml: pip[0]: no detectron2 wheel was built for torch 1.12.1 cu113 "
        "(python 3.9, linux-64); nearest cu113 build: torch 1.10 with detectron2 0.6; "
        "fix: use torch 1.10.0 for this variant, or drop detectron2 from pip: and build it "
        "from source\n"
        "  - project.yaml: pip[1]: no pytorch3d wheel was built for torch 1.12.1 cu113 "
        "(python 3.9, linux-64); nearest cu113 build: torch 1.11.0 with pytorch3d 0.6.2; "
        "fix: use torch 1.11.0 for this variant, or drop pytorch3d from pip: and build it "
        "from source"
    )


RECOGNISED = [
    ("https://data.pyg.org/whl/torch-1.12.0+cu113.html", "torch-scatter", "1.12.0", "cu113"),
    ("https://data.pyg.org/whl/torch-1.10.1%2Bcpu.html", "torch-scatter", "1.10.1", "cpu"),
    (
        "https://download.openmmlab.com/mmcv/dist/cu113/torch1.12/index.html",
        "mmcv-full",
        "1.12",
        "cu113",
    ),
    (
        "https://dl.fbaipublicfiles.com/detectron2/wheels/cu113/torch1.10/index.html",
        "detectron2",
        "1.10",
        "cu113",
    ),
    ("https://data.dgl.ai/wheels/cu118/repo.html", "dgl", None, "cu118"),
    ("https://data.dgl.ai/wheels/torch-2.3/cu121/repo.html", "dgl", "2.3", "cu121"),
    (
        "https://dl.fbaipublicfiles.com/pytorch3d/packaging/wheels/py38_cu113_pyt1110/download.html",
        "pytorch3d",
        "1.11.0",
        "cu113",
    ),
]


@pytest.mark.parametrize(("url", "extension", "torch", "acc"), RECOGNISED)
def test_recognise_index_url(
    matrix: Matrix, url: str, extension: str, torch: str | None, acc: str | None
) -> None:
    assert recognise_index_url(matrix, url) == FindLinksMatch(
        extension=extension, torch=torch, accelerator=acc
    )


def test_unknown_urls_and_requirements(matrix: Matrix) -> None:
    assert recognise_index_url(matrix, "https://download.pytorch.org/whl/torch_stable.html") is None
    assert [
        is_extension_requirement(matrix, r)
        for r in ("torch-scatter==2.0.9", "Torch_Sparse", "spconv-cu120", "numpy", "not a req")
    ] == [True, True, True, False, False]


def test_xformers_is_routed_to_the_variants_pytorch_index(matrix: Matrix) -> None:
    exp = expand(
        spec(
            'python: "3.10"\ntorch: "2.1.2"\naccelerators: [cu118]\nmanagers: [pip]\n'
            "pip: [xformers]\n"
        ),
        matrix,
    )
    (variant,) = exp.variants
    assert [p.requirement for p in variant.extensions] == ["xformers==0.0.23.post1"]
    plan = index_plan(variant, IndexUrls())
    assert plan.pytorch_routed == ("xformers",)
    text = render_pyproject(["xformers==0.0.23.post1"], plan, ["torch", *plan.pytorch_routed])
    assert text.endswith(
        '[tool.uv.sources]\ntorch = { index = "pytorch" }\nxformers = { index = "pytorch" }\n'
    )


def test_one_uv_index_per_extension_page(matrix: Matrix) -> None:
    exp = expand(
        spec(
            'python: "3.9"\ntorch: "1.12.1"\naccelerators: [cu113]\nmanagers: [pip]\n'
            "pip: [torch-scatter, torch-sparse, mmcv-full]\n"
        ),
        matrix,
    )
    (variant,) = exp.variants
    plan = index_plan(variant, IndexUrls(extension_root="http://127.0.0.1:9/ext"))
    text = render_pyproject([p.requirement for p in variant.extensions], plan, ["torch"])
    assert text.split("\n\n", 3)[3] == (
        '[[tool.uv.index]]\nname = "extension-0"\n'
        'url = "http://127.0.0.1:9/ext/data.pyg.org/whl/torch-1.12.0+cu113.html"\n'
        'format = "flat"\nexplicit = true\n\n'
        '[[tool.uv.index]]\nname = "extension-1"\n'
        'url = "http://127.0.0.1:9/ext/download.openmmlab.com/mmcv/dist/cu113/torch1.12/index.html"\n'
        'format = "flat"\nexplicit = true\n\n'
        "[tool.uv.sources]\n"
        'torch = { index = "pytorch" }\n'
        'torch-scatter = { index = "extension-0" }\n'
        'torch-sparse = { index = "extension-0" }\n'
        'mmcv-full = { index = "extension-1" }\n'
    )
