"""`envgen import` keeps compiled extensions: real install scripts -> project.yaml -> pins.

The scripts under tests/data/extensions-real/ are copied from public repositories (SOURCES.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, build_project, import_text, parse_text

REAL = Path(__file__).parents[2] / "data" / "extensions-real"


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


CASES = [
    (
        "bevformerproj/installation.sh",
        {
            "name": "bevformerproj",
            "torch": "1.9.1",
            "torchvision": "0.10.1",
            "torchaudio": "0.9.1",
            "accelerators": ["cu111"],
            "managers": ["pip"],
            "pip": ["mmcv-full==1.4.0", "mmdet==2.14.0", "mmsegmentation==0.14.1"],
        },
        "installation.sh: kept the compiled extensions mmcv-full: envgen pins each for the "
        "variant's torch and CUDA and writes its wheel index",
        [
            (
                "mmcv-full==1.4.0",
                "--find-links https://download.openmmlab.com/mmcv/dist/cu111/torch1.9/index.html",
            )
        ],
    ),
    (
        "visionlongformer/force-cuda11.sh",
        {
            "name": "visionlongformer",
            "torch": "1.10.0",
            "torchvision": "0.11.1",
            "torchaudio": False,
            "accelerators": ["cu111"],
            "managers": ["pip"],
            "pip": ["detectron2"],
        },
        "force-cuda11.sh: kept the compiled extensions detectron2: envgen pins each for the "
        "variant's torch and CUDA and writes its wheel index",
        [
            (
                "detectron2==0.6",
                "--find-links https://dl.fbaipublicfiles.com/detectron2/wheels/cu111/torch1.10/"
                "index.html",
            )
        ],
    ),
    (
        # PyG's pages still on their pre-2021-09 host (pytorch-geometric.com).
        "simplicial/requirements.sh",
        {
            "name": "simplicial",
            "torch": "1.8.1",
            "torchvision": "0.9.1",
            "torchaudio": False,
            "accelerators": ["cu111"],
            "managers": ["pip"],
            "pip": [
                "numpy",
                "scikit-image",
                "scipy",
                "torch-scatter",
                "torch-sparse",
                "torch-cluster",
                "torch-geometric",
            ],
        },
        "requirements.sh: kept the compiled extensions torch-scatter, torch-sparse, "
        "torch-cluster: envgen pins each for the variant's torch and CUDA and writes its wheel "
        "index",
        [
            (
                "torch-scatter==2.0.8",
                "--find-links https://data.pyg.org/whl/torch-1.8.0+cu111.html",
            ),
            (
                "torch-sparse==0.6.12",
                "--find-links https://data.pyg.org/whl/torch-1.8.0+cu111.html",
            ),
            (
                "torch-cluster==1.5.9",
                "--find-links https://data.pyg.org/whl/torch-1.8.0+cu111.html",
            ),
        ],
    ),
]


@pytest.mark.parametrize(("path", "project", "kept", "pins"), CASES)
def test_real_scripts_keep_their_extensions(
    matrix: Matrix,
    path: str,
    project: dict[str, object],
    kept: str,
    pins: list[tuple[str, str]],
) -> None:
    result = run_import(ImportOptions(source=REAL / path), matrix)
    assert result.project == project
    assert kept in result.warnings
    spec = parse_spec(result.text, path=Path("project.yaml"))
    (variant,) = expand(spec, matrix).variants
    assert [(p.requirement, p.index_line) for p in variant.extensions] == pins


def test_an_extension_page_does_not_pick_torchs_build(matrix: Matrix) -> None:
    """torch from PyPI without a label: pip installs PyPI's build (1.12.1's is CUDA 10.2),
    whatever page PyG's wheels come from; the page is said to be another build's, and envgen
    writes the variant's own."""
    result = import_text(
        "torch==1.12.1\ntorch-scatter==2.0.9\n-f https://data.pyg.org/whl/torch-1.12.0+cu116.html\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert result.project["accelerators"] == ["cu102"]
    assert (
        "requirements.txt: the torch-scatter page https://data.pyg.org/whl/torch-1.12.0+cu116.html "
        "is for torch 1.12.0 cu116, not torch 1.12.1 cu102; envgen writes the page of each variant"
    ) in result.warnings


def test_an_extension_page_names_the_build_of_a_torch_the_file_does_not_install(
    matrix: Matrix,
) -> None:
    """No torch in the file: the page is all that says which torch, and which build."""
    result = import_text(
        "torch-scatter==2.0.9\n-f https://data.pyg.org/whl/torch-1.12.0+cu116.html\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.12.1", ["cu116"])


def test_a_page_for_another_torch_is_a_warning(matrix: Matrix) -> None:
    result = import_text(
        "torch==1.13.1+cu117\n--extra-index-url https://download.pytorch.org/whl/cu117\n"
        "torch-scatter==2.1.0+pt113cu117\n-f https://data.pyg.org/whl/torch-1.12.0+cu116.html\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert result.project["pip"] == ["torch-scatter==2.1.0+pt113cu117"]
    # torch-scatter 2.1.0 was built for python 3.7-3.10 on torch 1.13 (torch itself: up to 3.11).
    assert result.project["python"] == "3.10"
    assert (
        "requirements.txt: python 3.10: the newest Python torch 1.13.1 and the file's compiled "
        "extensions were all built for"
    ) in result.warnings
    assert (
        "requirements.txt: the torch-scatter page https://data.pyg.org/whl/torch-1.12.0+cu116.html "
        "is for torch 1.12.0 cu116, not torch 1.13.1 cu117; envgen writes the page of each variant"
    ) in result.warnings


NEVER_BUILT = (
    "requirements.txt: pip[0]: no detectron2 wheel was built for torch 1.12.1 cu113 "
    "(python 3.10, linux-64); no linux-64 wheel of it was built for python 3.10; nearest build: "
    "torch 1.10 cu113 with detectron2 0.6, for python 3.6, 3.7, 3.8, 3.9; fix: use torch 1.10.0 "
    "with cu113 and python 3.9 for this variant, or drop detectron2 from pip: and build it from "
    "source"
)
NEVER_BUILT_FILE = (
    "torch==1.12.1+cu113\n--extra-index-url https://download.pytorch.org/whl/cu113\ndetectron2\n"
)


def test_an_extension_never_built_for_the_file_is_a_notice(matrix: Matrix) -> None:
    """Issue 11: never a refusal; the notice names the nearest build that existed."""
    result = import_text(NEVER_BUILT_FILE, filename="requirements.txt", matrix=matrix)
    assert f"{NEVER_BUILT} (kept as the file says; the lock will fail)" in result.warnings


def test_an_extension_never_built_for_the_file_is_refused_with_strict(matrix: Matrix) -> None:
    found = parse_text(NEVER_BUILT_FILE, filename="requirements.txt", base=None)
    with pytest.raises(ImportSpecError) as info:
        build_project(found, matrix, name="paper", strict=True)
    assert NEVER_BUILT in str(info.value)
