"""`envgen command --with`, `envgen matrix show --with`, `envgen matrix validate` for extensions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from envgen.model.matrix import load_matrix
from tests.unit.cli.test_cli import run

ROOT = Path(__file__).parents[3]


def test_command_with_extensions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(
        [
            "command",
            "--torch",
            "1.9.0",
            "--compute",
            "cu111",
            "--with",
            "torch-scatter",
            "--with",
            "mmcv-full",
            "--with",
            "detectron2",
        ],
        tmp_path,
        monkeypatch,
    )
    # The known issues of torch 1.9.0's line (NumPy 2, ...) are said on stderr, and that
    # mmcv-full 1.7.1's row is inferred (its tag has no install table: the later selector).
    # (torch-scatter has no 1.10.0 cu111 build: tag 2.0.9's workflow excludes it.)
    assert code == 0
    (inferred,) = [ln for ln in err.splitlines() if not ln.startswith("warning: known trap [")]
    assert inferred.startswith(
        "warning: mmcv-full: inferred, not read from its build matrix "
        "(source: open-mmlab/mmcv@1d8f928567:docs/en/_static/version.json (1.x branch"
    )
    assert out.splitlines()[1:] == [
        "pip install torch-scatter==2.0.9 -f https://data.pyg.org/whl/torch-1.9.0+cu111.html",
        "pip install mmcv-full==1.7.1 -f "
        "https://download.openmmlab.com/mmcv/dist/cu111/torch1.9/index.html",
        "pip install detectron2==0.6 -f "
        "https://dl.fbaipublicfiles.com/detectron2/wheels/cu111/torch1.9/index.html",
    ]


def test_command_with_a_direct_url_and_an_inferred_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(
        ["command", "--torch", "2.4.0", "--compute", "cu124", "--with", "flash-attn"],
        tmp_path,
        monkeypatch,
    )
    assert code == 0, err
    assert out.splitlines()[1] == (
        "pip install 'flash-attn @ https://github.com/Dao-AILab/flash-attention/releases/download/"
        "v2.8.3/flash_attn-2.8.3+cu12torch2.4cxx11abiFALSE-cp312-cp312-linux_x86_64.whl'"
    )
    code, out, err = run(
        ["command", "--torch", "2.4.0", "--compute", "cu124", "--with", "dgl"],
        tmp_path,
        monkeypatch,
    )
    assert code == 0, err
    assert out.splitlines()[1] == (
        "pip install dgl==2.4.0 -f https://data.dgl.ai/wheels/torch-2.4/cu124/repo.html"
    )
    assert "warning: dgl: inferred, not read from its build matrix (source: " in err


def test_command_with_never_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(
        ["command", "--torch", "1.12.1", "--compute", "cu113", "--with", "detectron2"],
        tmp_path,
        monkeypatch,
    )
    assert (code, out) == (10, "")
    assert err == (
        "error: --with: no detectron2 wheel was built for torch 1.12.1 cu113 (python 3.10, "
        "linux-64); no linux-64 wheel of it was built for python 3.10; nearest build: torch 1.10 "
        "cu113 with detectron2 0.6, for python 3.6, 3.7, 3.8, 3.9\n"
        "  hint: use torch 1.10.0 with cu113 and python 3.9 for this variant, or leave out "
        "--with detectron2\n"
    )
    code, out, err = run(
        ["command", "--torch", "1.12.1", "--compute", "cu113", "--with", "torch-scater"],
        tmp_path,
        monkeypatch,
    )
    assert code == 10
    assert err.startswith(
        "error: --with: 'torch-scater' is not a known extension; known: detectron2, dgl, "
    )


def test_matrix_show_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(
        ["matrix", "show", "1.12.0", "--with", "torch-scatter", "--json"], tmp_path, monkeypatch
    )
    assert code == 0, err
    rows = json.loads(out)["extensions"]["torch-scatter"]
    assert [(r["accelerator"], r.get("version"), "error" in r) for r in rows] == [
        ("cpu", "2.1.0", False),
        ("cu102", "2.1.0", False),
        ("rocm5.1.1", None, True),
        ("cu113", "2.1.0", False),
        ("cu116", "2.1.0", False),
    ]
    code, out, err = run(
        ["matrix", "show", "1.12.0", "--with", "torch-scatter"], tmp_path, monkeypatch
    )
    assert code == 0, err
    block = out.split("torch-scatter (pip, linux-64):\n", 1)[1].splitlines()
    assert block[:2] == [
        "  cpu        python 3.10",
        "    pip install torch-scatter==2.1.0 -f https://data.pyg.org/whl/torch-1.12.0+cpu.html",
    ]
    assert (
        "  rocm5.1.1  not built: for torch 1.12.0 it was built for cpu, cu102, cu113, cu116"
        in block
    )


def test_validate_reports_a_broken_extensions_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    matrix = tmp_path / "m"
    shutil.copytree(ROOT / "matrices", matrix)
    text = (matrix / "extensions.yaml").read_text(encoding="utf-8")
    (matrix / "extensions.yaml").write_text(
        text.replace("  import: torch_scatter\n", "  import: torch_scatter\n  wheel: yes\n", 1),
        encoding="utf-8",
    )
    code, out, err = run(["matrix", "validate", "--matrix", str(matrix)], tmp_path, monkeypatch)
    assert (code, out) == (4, "")
    assert err == (
        f"error: {matrix / 'extensions.yaml'}: 1 invalid value(s)\n"
        "  - row 1 (name=torch-scatter) wheel: Extra inputs are not permitted\n"
    )


def test_every_build_row_names_a_source() -> None:
    for ext in load_matrix().extensions:
        assert ext.source
        for index in ext.indexes:
            assert index.source
        assert all(b.versions and b.accelerators for b in ext.builds)


def test_validate_checks_the_extensions_invariants(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    matrix = tmp_path / "m"
    shutil.copytree(ROOT / "matrices", matrix)
    text = (matrix / "extensions.yaml").read_text(encoding="utf-8")
    text = text.replace(
        "- {versions: ['0.6'], torch: ['1.10']", "- {versions: ['0.7'], torch: ['1.10']"
    )
    text = text.replace(
        "accelerators: ['cu117', 'cu118'], python: ['3.8', '3.9', '3.10'], platforms: [linux-64], source: 'facebookresearch/pytorch3d@2883a07bfe",
        "accelerators: ['cuda118'], python: ['3.8', '3.9', '3.10'], platforms: [linux-64], source: 'facebookresearch/pytorch3d@2883a07bfe",
    )
    (matrix / "extensions.yaml").write_text(text, encoding="utf-8")
    code, out, err = run(["matrix", "validate", "--matrix", str(matrix)], tmp_path, monkeypatch)
    assert (code, out) == (4, "")
    assert err == (
        f"error: {matrix}: the matrix is inconsistent\n"
        "  - extensions.yaml: detectron2: build version 0.7 is not in its versions\n"
        "  - extensions.yaml: pytorch3d: accelerator 'cuda118' is not cpu or cuXYZ\n"
    )
