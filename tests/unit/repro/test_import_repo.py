"""`envgen import DIR`: every environment source of a repository, merged, each fact's file named.

The layout below is typical of a 2021 paper repository: a conda environment.yml whose pip
section includes requirements.txt, a Dockerfile in docker/ built from the repository root, a
README with install commands, a setup.py with ranges; plus what the walk must not read (.git,
node_modules, a symlink out of the folder, a virtual environment).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from envgen.repro.importer.repository import MAX_DEPTH, find_sources


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _layout(root: Path) -> None:
    (root / "docker").mkdir()
    (root / ".git").mkdir()
    (root / "node_modules" / "x").mkdir(parents=True)
    (root / "venv" / "lib").mkdir(parents=True)
    (root / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (root / "venv" / "lib" / "requirements.txt").write_text("torch==0.1\n")
    (root / "node_modules" / "x" / "requirements.txt").write_text("torch==0.1\n")
    (root / ".git" / "requirements.txt").write_text("torch==0.1\n")
    (root / "environment.yml").write_text(
        "name: vit\nchannels:\n  - pytorch\ndependencies:\n  - python=3.8.5\n"
        "  - pytorch=1.8.1\n  - torchvision=0.9.1\n  - cudatoolkit=10.2\n  - pip\n"
        "  - pip:\n    - -r requirements.txt\n"
    )
    (root / "requirements.txt").write_text("timm==0.4.12\neinops\n")
    (root / "setup.py").write_text(
        'from setuptools import setup\nsetup(name="vit", install_requires=["torch>=1.7", '
        '"einops>=0.3"])\n'
    )
    (root / "docker" / "Dockerfile").write_text(
        "FROM pytorch/pytorch:1.9.0-cuda10.2-cudnn7-runtime\nCOPY requirements.txt /tmp/\n"
        "RUN pip install -r /tmp/requirements.txt\n"
    )
    (root / "README.md").write_text(
        "# ViT\n```bash\nconda env create -f environment.yml\npip install -e .\n```\n"
    )
    (root / "requirements-evil.txt").symlink_to("/etc/passwd")


def test_repository_is_merged_with_each_fact_named(tmp_path: Path, matrix: Matrix) -> None:
    root = tmp_path / "vit-paper"
    root.mkdir()
    _layout(root)
    result = run_import(ImportOptions(source=root), matrix)
    assert result.project == {
        "name": "vit",
        "python": "3.8",
        "torch": "1.8.1",
        "torchvision": "0.9.1",
        "torchaudio": False,
        "accelerators": ["cu102"],
        "managers": ["conda"],
        "pip": ["timm==0.4.12", "einops"],
    }
    assert list(result.warnings[:6]) == [
        "requirements-evil.txt: a symlink out of the folder; not followed",
        "vit-paper: read 5 environment source(s): environment.yml, requirements.txt, "
        "docker/Dockerfile, README.md, setup.py",
        "vit-paper: the files disagree on torch: 1.8.1 (environment.yml: dependencies[1]) and "
        "1.9.0 (docker/Dockerfile:1); project.yaml follows environment.yml, the more specific "
        "source",
        # the README's `conda env create -f environment.yml` reads that file, so the README is
        # a torch source too and its own notes are said
        "README.md:4: editable install '.' is not a package envgen can lock; ignored",
        "vit-paper: torch 1.8.1 from environment.yml: dependencies[1]",
        "vit-paper: python 3.8 from environment.yml: dependencies[0]",
    ]
    assert 'python: "3.8"  # the file says 3.8.5 (environment.yml: dependencies[0])' in result.text


def test_walk_skips_vcs_node_modules_and_virtualenvs(tmp_path: Path) -> None:
    _layout(tmp_path)
    sources, notes = find_sources(tmp_path)
    assert [s.rel for s in sources] == [
        "environment.yml",
        "requirements.txt",
        "docker/Dockerfile",
        "README.md",
        "setup.py",
    ]
    assert notes == ["requirements-evil.txt: a symlink out of the folder; not followed"]


def test_walk_is_depth_bounded(tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*[f"d{i}" for i in range(MAX_DEPTH + 3)])
    deep.mkdir(parents=True)
    (deep / "requirements.txt").write_text("torch==1.8.1\n")
    (tmp_path / "d0" / "requirements.txt").write_text("torch==1.8.1\n")
    sources, _ = find_sources(tmp_path)
    assert [s.rel for s in sources] == ["d0/requirements.txt"]


def test_symlink_loop_inside_the_folder_ends(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "loop").symlink_to(tmp_path)
    (tmp_path / "requirements.txt").write_text("torch==1.8.1\n")
    sources, _ = find_sources(tmp_path)
    assert [s.rel for s in sources] == ["requirements.txt"]


def test_folder_without_sources(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "main.py").write_text("import torch\n")
    with pytest.raises(ImportSpecError) as info:
        run_import(ImportOptions(source=tmp_path), matrix)
    assert str(info.value) == (
        f"{tmp_path}: no environment source found (environment*.yml, requirements*.txt, "
        "setup.py, setup.cfg, pyproject.toml, Dockerfile, *.sh, README/INSTALL shell blocks)"
    )


def test_repository_reads_are_bounded_in_total(tmp_path: Path, matrix: Matrix) -> None:
    from envgen.repro.importer.repository import MAX_TOTAL_BYTES

    (tmp_path / "environment.yml").write_text(
        "name: big\ndependencies:\n  - pytorch=1.8.1\n  - cudatoolkit=10.2\n"
    )
    filler = "# " + "x" * 1000 + "\n"
    for i in range(12):  # 12 requirements files of ~900 KB: more than MAX_TOTAL_BYTES together
        (tmp_path / f"requirements-{i:02d}.txt").write_text(filler * 900)
    result = run_import(ImportOptions(source=tmp_path), matrix)
    assert result.project["torch"] == "1.8.1"
    assert result.warnings[0] == (
        f"{tmp_path}: the sources pass {MAX_TOTAL_BYTES} bytes together; requirements-09.txt and "
        "the less specific sources after it were not read"
    )
