"""envgen import of Dockerfiles: the build context, python from ARG/ENV/apt/base image, NGC
images from matrices/base-images.yaml; and `-o` never replacing a hand-written spec.

Expected answers: torch 1.8.1+cu111 from the copied requirements.txt; `ARG python=3.6`,
`ENV PYTHON_VERSION=3.8` and `apt-get install python3.7` each name the python; NGC 21.12-py3 ships
torch 1.11.0a0 (the release 1.11.0), CUDA 11.5 and python 3.8 (base-images.yaml), and torch
1.11.0 has pip wheels for cu102 and cu113 only (`envgen matrix show 1.11.0`).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from envgen.cli import main
from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.base_images import load_base_images, ngc_pytorch
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text

REQS = "torch==1.8.1+cu111\n-f https://download.pytorch.org/whl/torch_stable.html\nscipy==1.6.2\n"


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _short(warning: str) -> str:
    m = re.match(r"^(\[[a-z0-9.-]+\]) ", warning)
    return m.group(1) if m else warning


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "docker").mkdir()
    (tmp_path / "requirements.txt").write_text(REQS)
    (tmp_path / "docker" / "Dockerfile").write_text(
        "FROM nvidia/cuda:11.1.1-cudnn8-devel-ubuntu18.04\n"
        "WORKDIR /workspace\n"
        "COPY requirements.txt .\n"
        "RUN pip install -r requirements.txt\n"
    )
    return tmp_path


def test_copy_is_resolved_against_the_build_context(repo: Path, matrix: Matrix) -> None:
    result = run_import(ImportOptions(source=repo / "docker" / "Dockerfile", context=repo), matrix)
    assert result.project["torch"] == "1.8.1"
    assert result.project["accelerators"] == ["cu111"]
    assert result.project["pip"] == ["scipy==1.6.2"]


def test_copy_into_a_named_folder_and_dash_r_by_absolute_path(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "reqs.txt").write_text(REQS)
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.8-slim\nCOPY env/ /opt/env/\nRUN pip install -r /opt/env/reqs.txt\n"
    )
    result = run_import(ImportOptions(source=tmp_path / "Dockerfile"), matrix)
    assert (result.project["python"], result.project["torch"]) == ("3.8", "1.8.1")


def test_a_missing_copied_file_is_a_notice_not_fatal(repo: Path, matrix: Matrix) -> None:
    dockerfile = repo / "docker" / "Dockerfile"
    dockerfile.write_text(dockerfile.read_text() + "RUN pip install torch==1.9.0\n")
    result = run_import(ImportOptions(source=dockerfile), matrix)
    assert result.project["torch"] == "1.9.0"
    assert result.warnings[0] == (
        f"Dockerfile:4: -r requirements.txt: {repo / 'docker' / 'requirements.txt'} is not in "
        f"the build context {repo / 'docker'} (pass --context DIR if the image is built from "
        "another folder); not followed"
    )


def test_a_missing_file_that_held_torch_is_named_in_the_error(repo: Path, matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError) as info:
        run_import(ImportOptions(source=repo / "docker" / "Dockerfile"), matrix)
    assert str(info.value) == (
        "Dockerfile: no torch (or conda pytorch) requirement found; nothing to reproduce\n"
        f"  (Dockerfile:4: -r requirements.txt: {repo / 'docker' / 'requirements.txt'} is not "
        f"in the build context {repo / 'docker'} (pass --context DIR if the image is built "
        "from another folder); not followed)"
    )


def test_copy_cannot_leave_the_context(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.8\nRUN pip install -r ../../etc/passwd torch==1.9.0\n"
    )
    result = run_import(ImportOptions(source=tmp_path / "Dockerfile"), matrix)
    assert result.warnings[0] == (
        f"Dockerfile:2: -r ../../etc/passwd: outside the build context {tmp_path}; not followed"
    )


@pytest.mark.parametrize(
    ("line", "python"),
    [
        ("ARG python=3.6", "3.6"),
        ("ENV PYTHON_VERSION=3.8", "3.8"),
        ("RUN apt-get update && apt-get install -y python3.7 python3.7-dev", "3.7"),
    ],
)
def test_python_from_the_dockerfile(matrix: Matrix, line: str, python: str) -> None:
    text = (
        f"FROM nvidia/cuda:10.1-cudnn7-runtime-ubuntu18.04\n{line}\nRUN pip install torch==1.6.0\n"
    )
    result = import_text(text, filename="Dockerfile", matrix=matrix)
    assert result.project["python"] == python
    # pip installs PyPI's 1.6.0 wheel (the CUDA 10.2 build) whatever toolkit the image has.
    assert result.project["accelerators"] == ["cu102"]


def test_ngc_image_gives_torch_cuda_and_python(matrix: Matrix) -> None:
    result = import_text(
        "FROM nvcr.io/nvidia/pytorch:21.12-py3\nRUN pip install timm==0.5.4\n",
        filename="Dockerfile",
        matrix=matrix,
    )
    assert result.project == {
        "name": "paper",
        "python": "3.8",
        "torch": "1.11.0",
        "torchvision": False,
        "torchaudio": False,
        # 1.11.0 had cu115 wheels (matrices/inferred-builds.yaml): the image's CUDA 11.5.
        "accelerators": ["cu115"],
        "managers": ["pip"],
        "pip": ["timm==0.5.4"],
    }
    assert [_short(w) for w in result.warnings] == [
        "Dockerfile:1 (image nvcr.io/nvidia/pytorch:21.12-py3: torch 1.11.0a0, CUDA 11.5): torch "
        "was 1.11.0a0, now 1.11.0, because 1.11.0a0 is a pre-release or build that was never "
        "published as a release; 1.11.0 is the release it became",
        "[numpy2-with-torch-before-2.3]",
    ]


def test_unknown_ngc_tag_is_a_warning(matrix: Matrix) -> None:
    result = import_text(
        "FROM nvcr.io/nvidia/pytorch:19.01-py3\nRUN pip install torch==1.0.1\n",
        filename="Dockerfile",
        matrix=matrix,
    )
    assert result.project["torch"] == "1.0.1"
    assert result.warnings[0] == (
        "Dockerfile:1: FROM nvcr.io/nvidia/pytorch:19.01-py3: matrices/base-images.yaml has no "
        "row for this tag, so its torch, CUDA and python are unknown; pin torch in the file or "
        "add the row from NVIDIA's PyTorch release notes"
    )


def test_base_images_rows_have_sources() -> None:
    rows = load_base_images()
    assert rows
    assert all(r.source for r in rows)
    row = ngc_pytorch("20.02-py3")
    assert row is not None
    assert (row.torch, row.cuda, row.python) == ("1.4.0a0+a5b4d78", "10.2.89", "3.6")


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    main(list(args))


def test_output_never_overwrites_without_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "requirements.txt").write_text("torch==1.8.1+cpu\n")
    (tmp_path / "project.yaml").write_text("# hand-written\nname: mine\ntorch: '2.0.0'\n")
    runner = CliRunner()
    res = runner.invoke(_entry, ["import", "requirements.txt", "-o", "project.yaml"])
    assert res.exit_code == 11
    assert res.stderr == (
        "error: -o project.yaml: the file exists and differs from the imported project.yaml; "
        "not overwritten\n  hint: pass --force to replace it, or choose another -o path\n"
    )
    assert (tmp_path / "project.yaml").read_text().startswith("# hand-written")
    res = runner.invoke(_entry, ["import", "requirements.txt", "-o", "project.yaml", "--force"])
    assert res.exit_code == 0, res.stderr
    assert res.stderr.endswith("wrote project.yaml\n")
    assert 'torch: "1.8.1"' in (tmp_path / "project.yaml").read_text()
    # The same result again is no overwrite: unchanged, no --force needed.
    res = runner.invoke(_entry, ["import", "requirements.txt", "-o", "project.yaml"])
    assert res.exit_code == 0, res.stderr
    assert res.stderr.endswith("project.yaml unchanged\n")


def test_unquoted_version_bound_is_a_shell_redirect(matrix: Matrix) -> None:
    # yuxiangsun/RTFNet's Dockerfile: the shell installs an unpinned torch and writes to `=1.7`.
    result = import_text(
        "FROM nvidia/cuda:10.2-cudnn8-devel-ubuntu18.04\n"
        "RUN pip3 install torch>=1.7 torchvision torchsummary 2>&1\n"
        'RUN pip3 install "scipy>=1.3"\n',
        filename="Dockerfile",
        matrix=matrix,
        as_of=dt.date(2021, 6, 30),
    )
    assert result.project["torch"] == "1.9.0"
    assert result.project["pip"] == ["torchsummary", "scipy>=1.3"]
    assert result.warnings[0] == (
        "Dockerfile:2: `torch>=1.7` is not quoted, so the shell reads > as a redirect and "
        "installs torch without that version bound"
    )


@pytest.mark.parametrize(
    ("image", "torch"),
    [
        # The 1.5 tag was pushed with 1.5.0 in April 2020; 1.5.1 (June) got 1.5.1-cuda10.1-...
        ("pytorch/pytorch:1.5-cuda10.1-cudnn7-devel", "1.5.0"),
        ("pytorch/pytorch:1.5.1-cuda10.1-cudnn7-devel", "1.5.1"),
        ("pytorch/pytorch:1.0-cuda10.0-cudnn7-runtime", "1.0.0"),
    ],
)
def test_a_two_part_pytorch_tag_is_the_series_first_release(
    matrix: Matrix, image: str, torch: str
) -> None:
    """A date after the patch release does not move the image's torch to it (pip keeps what the
    image ships when nothing later asks for another torch)."""
    result = import_text(
        f"FROM {image}\nRUN pip install tqdm\n",
        filename="Dockerfile",
        matrix=matrix,
        as_of=dt.date(2020, 11, 24),
    )
    assert result.project["torch"] == torch
    assert not [w for w in result.warnings if "not an exact pin" in w]


@pytest.mark.parametrize(
    "image",
    [
        "pytorch/pytorch:1.12.0-cuda11.3-cudnn8-runtime@sha256:" + "ab" * 32,
        "docker.io/pytorch/pytorch:1.12.0-cuda11.3-cudnn8-runtime@sha256:" + "0f" * 32,
    ],
)
def test_a_digest_pinned_image_is_read_by_its_tag(matrix: Matrix, image: str) -> None:
    """`name:tag@sha256:...` pins one push of the tag; the tag still names torch and CUDA."""
    result = import_text(
        f"FROM {image}\nRUN pip install tqdm\n",
        filename="Dockerfile",
        matrix=matrix,
        as_of=dt.date(2024, 5, 11),
    )
    assert result.project["torch"] == "1.12.0"
    assert result.project["accelerators"] == ["cu113"]
