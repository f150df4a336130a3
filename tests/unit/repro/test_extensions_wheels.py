"""`envgen import` turns an extension's direct wheel URL into the extension, pinned.

Real install scripts install PyG, detectron2, mmcv and flash-attn as direct wheel URLs (a bare
URL or `name @ URL`). envgen cannot lock a URL (project.yaml's pip: refuses one) but it writes
each extension's page per variant, so a recognised wheel becomes `name==<public version>` and
its URL's torch, CUDA and python tag are evidence for the variant. Any other wheel URL is read as
before (dropped, with a warning).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.extensions import recognise_wheel_url
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text

PYG_112 = (
    "https://data.pyg.org/whl/torch-1.12.0%2Bcu113/"
    "torch_scatter-2.1.0%2Bpt112cu113-cp39-cp39-linux_x86_64.whl"
)
PYG_21 = (
    "https://data.pyg.org/whl/torch-2.1.0+cu121/"
    "torch_scatter-2.1.2+pt21cu121-cp310-cp310-linux_x86_64.whl"
)
DETECTRON2 = (
    "https://dl.fbaipublicfiles.com/detectron2/wheels/cu113/torch1.10/"
    "detectron2-0.6%2Bcu113-cp38-cp38-linux_x86_64.whl"
)
FLASH = (
    "https://github.com/Dao-AILab/flash-attention/releases/download/v2.5.8/"
    "flash_attn-2.5.8+cu122torch2.3cxx11abiFALSE-cp310-cp310-linux_x86_64.whl"
)
PYG_PAGE_112 = "https://data.pyg.org/whl/torch-1.12.0+cu113.html"


def _notice(where: str, url: str, requirement: str, *, page: bool = True) -> str:
    shown = url if len(url) <= 80 else url[:77] + "..."
    if page:
        return (
            f"{where}: {shown!r} was a direct wheel URL, now {requirement} from its find-links "
            "page, because envgen writes the page per variant"
        )
    return (
        f"{where}: {shown!r} was a direct wheel URL, now {requirement} from its release wheel "
        "URL, because envgen writes the wheel URL per variant"
    )


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


# (file name, text, project keys expected, a notice expected, (requirement, index line) pins)
CASES = [
    pytest.param(
        "install.sh",
        "pip install torch==1.12.0+cu113 -f https://download.pytorch.org/whl/torch_stable.html\n"
        f"pip install {PYG_112}\n",
        {"python": "3.9", "torch": "1.12.0", "accelerators": ["cu113"]},
        _notice("install.sh:2", PYG_112, "torch-scatter==2.1.0"),
        [("torch-scatter==2.1.0", f"--find-links {PYG_PAGE_112}")],
        id="pip-install-bare-pyg-url",
    ),
    pytest.param(
        "requirements.txt",
        f"torch==2.1.0+cu121\n--extra-index-url https://download.pytorch.org/whl/cu121\n"
        f"torch-scatter @ {PYG_21}\n",
        {"python": "3.10", "torch": "2.1.0", "accelerators": ["cu121"]},
        _notice("requirements.txt:3", PYG_21, "torch-scatter==2.1.2"),
        [("torch-scatter==2.1.2", "--find-links https://data.pyg.org/whl/torch-2.1.0+cu121.html")],
        id="name-at-pyg-url",
    ),
    pytest.param(
        # torch from PyPI without a label: pip installs PyPI's build (cu102), whatever folder
        # the extension's wheel comes from (cu113); envgen writes the variant's own page.
        "requirements.txt",
        f"torch==1.10.1\n{DETECTRON2}\n",
        {"python": "3.8", "torch": "1.10.1", "accelerators": ["cu102"]},
        _notice("requirements.txt:2", DETECTRON2, "detectron2==0.6"),
        [
            (
                "detectron2==0.6",
                "--find-links https://dl.fbaipublicfiles.com/detectron2/wheels/cu102/torch1.10/"
                "index.html",
            )
        ],
        id="bare-detectron2-url",
    ),
    pytest.param(
        "install.sh",
        f"pip install torch==2.3.0\npip install {FLASH}\n",
        {"python": "3.10", "torch": "2.3.0", "accelerators": ["cu121"]},
        _notice("install.sh:2", FLASH, "flash-attn==2.5.8", page=False),
        [(f"flash-attn @ {FLASH}", None)],
        id="flash-attn-release-url",
    ),
    pytest.param(
        # Not a wheel URL: kept before this change too; here so the table covers every form.
        "install.sh",
        "pip install torch==1.12.0+cu113 --extra-index-url https://download.pytorch.org/whl/cu113\n"
        "pip install mmcv-full==1.6.0 -f "
        "https://download.openmmlab.com/mmcv/dist/cu113/torch1.12/index.html\n",
        {"torch": "1.12.0", "accelerators": ["cu113"]},
        "install.sh: kept the compiled extensions mmcv-full: envgen pins each for the variant's "
        "torch and CUDA and writes its wheel index",
        [
            (
                "mmcv-full==1.6.0",
                "--find-links https://download.openmmlab.com/mmcv/dist/cu113/torch1.12/index.html",
            )
        ],
        id="mmcv-full-find-links",
    ),
    pytest.param(
        # conda's pytorch names no cudatoolkit: conda installs the channel's newest CUDA build
        # of 1.12.0 (cu116), whatever page the pip section's wheels come from (cu113).
        "environment.yml",
        "name: geo\nchannels: [pytorch, conda-forge]\ndependencies:\n  - python=3.9\n"
        f"  - pytorch=1.12.0\n  - pip\n  - pip:\n    - {PYG_112}\n"
        "    - torch-sparse @ https://data.pyg.org/whl/torch-1.12.0+cu113/"
        "torch_sparse-0.6.16+pt112cu113-cp39-cp39-linux_x86_64.whl\n"
        "    - torch-geometric==2.2.0\n",
        {
            "python": "3.9",
            "torch": "1.12.0",
            "accelerators": ["cu116"],
            "managers": ["conda"],
            "pip": ["torch-scatter==2.1.0", "torch-sparse==0.6.16", "torch-geometric==2.2.0"],
        },
        _notice("environment.yml: dependencies[3].pip[0]", PYG_112, "torch-scatter==2.1.0"),
        None,
        id="environment-yml-pip-section",
    ),
]


@pytest.mark.parametrize(("filename", "text", "keys", "notice", "pins"), CASES)
def test_extension_wheel_urls_import_as_pinned_extensions(
    matrix: Matrix,
    filename: str,
    text: str,
    keys: dict[str, object],
    notice: str,
    pins: list[tuple[str, str | None]] | None,
) -> None:
    result = import_text(text, filename=filename, matrix=matrix)
    assert {k: result.project.get(k) for k in keys} == keys
    assert notice in result.warnings
    # What the importer wrote is a project.yaml the spec accepts (pip: refuses direct URLs).
    spec = parse_spec(result.text, path=Path("project.yaml"))
    assert not any("://" in item for item in result.project.get("pip", []))  # type: ignore[attr-defined]
    if pins is not None:
        (variant,) = expand(spec, matrix).variants
        assert [(p.requirement, p.index_line) for p in variant.extensions] == pins


def test_a_wheel_url_gives_torch_when_the_file_pins_none(matrix: Matrix) -> None:
    result = import_text(f"pip install {PYG_112}\n", filename="install.sh", matrix=matrix)
    assert result.project["torch"] == "1.12.1"  # the newest 1.12 (PyG's 1.12.0 page serves all)
    assert result.project["accelerators"] == ["cu113"]
    assert result.project["pip"] == ["torch-scatter==2.1.0"]
    assert (
        f"install.sh: the file pins no torch, but the extension page {PYG_PAGE_112} is for torch "
        "1.12.0, so project.yaml takes torch 1.12.*"
    ) in result.warnings
    assert (
        f"install.sh: the compute platform cu113 comes from the wheel URL's page {PYG_PAGE_112}"
    ) in result.warnings


def test_a_wheel_url_narrows_an_unpinned_torch(matrix: Matrix) -> None:
    result = import_text(
        f"torch\ntorch-scatter @ {PYG_21}\n", filename="requirements.txt", matrix=matrix
    )
    assert result.project["torch"] == "2.1.2"
    assert result.project["accelerators"] == ["cu121"]


def test_the_wheel_evidence_never_outranks_the_torch_pin(matrix: Matrix) -> None:
    """torch says cu116; the PyG wheel for cu113 is a warning, the pin is kept."""
    result = import_text(
        "torch==1.12.1+cu116\n--extra-index-url https://download.pytorch.org/whl/cu116\n"
        f"{PYG_112}\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert result.project["torch"] == "1.12.1"
    assert result.project["accelerators"] == ["cu116"]
    assert result.project["pip"] == ["torch-scatter==2.1.0"]
    assert (
        f"requirements.txt: the torch-scatter page {PYG_PAGE_112} is for torch 1.12.0 cu113, "
        "not torch 1.12.1 cu116; envgen writes the page of each variant"
    ) in result.warnings


UNKNOWN = [
    pytest.param(
        "https://example.com/whl/torch_scatter-2.1.0-cp39-cp39-linux_x86_64.whl",
        "requirements.txt:2: 'https://example.com/whl/torch_scatter-2.1.0-cp39-cp39-linux_x86_64"
        ".whl' is not a requirement (Expected semicolon (after name with no version specifier) "
        "or end\n    https://...); ignored",
        id="extension-name-on-another-host",
    ),
    pytest.param(
        "numpy @ https://files.example.org/numpy-1.24.0-cp39-cp39-linux_x86_64.whl",
        "requirements.txt:2: dropped 'numpy @ https://files.example.org/numpy-1.24.0-cp39-cp39-"
        "linux_x86_64.whl': a direct URL cannot be locked reproducibly; add a released version "
        "to pip:",
        id="not-an-extension",
    ),
]


@pytest.mark.parametrize(("line", "warning"), UNKNOWN)
def test_other_wheel_urls_are_dropped_as_before(matrix: Matrix, line: str, warning: str) -> None:
    result = import_text(
        f"torch==1.12.0+cu113\n{line}\n", filename="requirements.txt", matrix=matrix
    )
    assert "pip" not in result.project
    # The wheel itself is dropped, but its cp39-cp39 tag still says the file installs into
    # CPython 3.9 (pip refuses the wheel anywhere else).
    assert result.project["python"] == "3.9"
    assert warning in result.warnings


def test_a_wheel_url_for_another_platform_is_ignored(matrix: Matrix) -> None:
    result = import_text(
        f"torch==1.12.0+cu113\n{PYG_112} ; sys_platform == 'win32'\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert "pip" not in result.project
    assert any("does not apply on linux-64" in w for w in result.warnings)


def test_a_wheel_url_and_a_pin_of_the_same_extension_keep_the_pin(matrix: Matrix) -> None:
    result = import_text(
        f"torch==1.12.0+cu113\n{PYG_112}\ntorch-scatter==2.0.9\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert result.project["pip"] == ["torch-scatter==2.0.9"]
    assert any("dropped the torch-scatter wheel URL" in w for w in result.warnings)


def test_wheel_urls_keep_their_place_among_the_requirements(matrix: Matrix) -> None:
    result = import_text(
        f"torch==1.12.0+cu113\nnumpy<2\n{PYG_112}\nscipy\n"
        "torch-sparse @ https://data.pyg.org/whl/torch-1.12.0+cu113/"
        "torch_sparse-0.6.16+pt112cu113-cp39-cp39-linux_x86_64.whl\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert result.project["pip"] == [
        "numpy<2",
        "torch-scatter==2.1.0",
        "scipy",
        "torch-sparse==0.6.16",
    ]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (PYG_112, ("torch-scatter==2.1.0", "1.12.0", "cu113", "3.9")),
        (DETECTRON2, ("detectron2==0.6", "1.10", "cu113", "3.8")),
        (FLASH, ("flash-attn==2.5.8", "2.3", None, "3.10")),
        (
            "https://download.openmmlab.com/mmcv/dist/cu113/torch1.12/"
            "mmcv_full-1.6.0-cp38-cp38-manylinux1_x86_64.whl",
            ("mmcv-full==1.6.0", "1.12", "cu113", "3.8"),
        ),
        (
            "https://data.dgl.ai/wheels/cu118/dgl-1.1.2%2Bcu118-cp310-cp310-manylinux1_x86_64.whl",
            ("dgl==1.1.2", None, "cu118", "3.10"),
        ),
        (
            "https://data.dgl.ai/wheels/dgl-1.1.2-cp310-cp310-manylinux1_x86_64.whl",
            ("dgl==1.1.2", None, "cpu", "3.10"),
        ),
        (
            "https://dl.fbaipublicfiles.com/pytorch3d/packaging/wheels/py38_cu113_pyt1110/"
            "pytorch3d-0.7.2-cp38-cp38-linux_x86_64.whl",
            ("pytorch3d==0.7.2", "1.11.0", "cu113", "3.8"),
        ),
        (
            # PyG's pages before they moved to data.pyg.org (2021-09).
            "https://pytorch-geometric.com/whl/torch-1.8.0+cu111/"
            "torch_sparse-0.6.12-cp38-cp38-linux_x86_64.whl",
            ("torch-sparse==0.6.12", "1.8.0", "cu111", "3.8"),
        ),
    ],
)
def test_recognise_wheel_url(
    matrix: Matrix, url: str, expected: tuple[str, str | None, str | None, str]
) -> None:
    hit = recognise_wheel_url(matrix, url)
    assert hit is not None
    assert (hit.requirement, hit.torch, hit.accelerator, hit.python) == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/whl/torch_scatter-2.1.0-cp39-cp39-linux_x86_64.whl",
        "https://files.pythonhosted.org/packages/numpy-1.24.0-cp39-cp39-linux_x86_64.whl",
        "https://data.pyg.org/whl/torch-1.12.0+cu113/not-a-wheel-name.whl",
        "torch_scatter-2.1.0-cp39-cp39-linux_x86_64.whl",
    ],
)
def test_other_urls_are_not_recognised(matrix: Matrix, url: str) -> None:
    assert recognise_wheel_url(matrix, url) is None


# CONSTRUCTED, not copied: no public repository file with these lines could be read from here,
# so this re-types the usual shape of a graph-learning repository's install script (conda env,
# torch from the PyTorch index, PyG's compiled wheels as direct URLs, then torch-geometric).
# It is not in tests/data/real/ and not in its SOURCES.yaml.
CONSTRUCTED_INSTALL_SH = f"""\
#!/bin/bash
# Create the environment used in the paper.
conda create -n gnn python=3.9 -y
conda activate gnn
pip install torch==1.12.0+cu113 torchvision==0.13.0+cu113 \\
    --extra-index-url https://download.pytorch.org/whl/cu113
pip install {PYG_112}
pip install https://data.pyg.org/whl/torch-1.12.0%2Bcu113/torch_sparse-0.6.16%2Bpt112cu113-cp39-cp39-linux_x86_64.whl
pip install torch-geometric==2.2.0
pip install -r requirements.txt
"""


def test_a_constructed_install_script_keeps_its_extensions(matrix: Matrix, tmp_path: Path) -> None:
    script = tmp_path / "gnn" / "install.sh"
    script.parent.mkdir()
    script.write_text(CONSTRUCTED_INSTALL_SH)
    (script.parent / "requirements.txt").write_text("numpy==1.23.5\ntqdm\n")
    result = run_import(ImportOptions(source=script), matrix)
    assert result.project == {
        "name": "gnn",
        "python": "3.9",
        "torch": "1.12.0",
        "torchvision": "0.13.0",
        "torchaudio": False,
        "accelerators": ["cu113"],
        "managers": ["pip"],
        "pip": [
            "torch-scatter==2.1.0",
            "torch-sparse==0.6.16",
            "torch-geometric==2.2.0",
            "numpy==1.23.5",
            "tqdm",
        ],
    }
    assert (
        "install.sh: kept the compiled extensions torch-scatter, torch-sparse: envgen pins each "
        "for the variant's torch and CUDA and writes its wheel index"
    ) in result.warnings
    spec = parse_spec(result.text, path=Path("project.yaml"))
    (variant,) = expand(spec, matrix).variants
    assert [(p.requirement, p.index_line) for p in variant.extensions] == [
        ("torch-scatter==2.1.0", f"--find-links {PYG_PAGE_112}"),
        ("torch-sparse==0.6.16", f"--find-links {PYG_PAGE_112}"),
    ]


def test_a_repository_import_keeps_the_wheel_urls_of_each_source(
    matrix: Matrix, tmp_path: Path
) -> None:
    repo = tmp_path / "paper"
    repo.mkdir()
    (repo / "requirements.txt").write_text("numpy\nscipy\n")
    (repo / "install.sh").write_text(
        "pip install torch==1.12.0+cu113 --extra-index-url https://download.pytorch.org/whl/cu113\n"
        f"pip install {PYG_112}\n"
    )
    result = run_import(ImportOptions(source=repo), matrix)
    assert result.project["pip"] == ["torch-scatter==2.1.0", "numpy", "scipy"]
    assert result.project["python"] == "3.9"
