"""`envgen import` of Singularity / Apptainer definition files: the format detected by name
(`Singularity`, `Singularity.<tag>`) or by its `Bootstrap:` header (`*.def`), the final stage's
`From:` read as a Dockerfile's FROM image, %post (and %appinstall) read as install scripts,
%files copied before %post, %environment's PATH (runtime only), `{{ NAME }}` build arguments, and
multi-stage files, whose last stage is the image.

Each input is a realistic definition file written here, shaped as public ones are (the header,
then %post with apt, conda and pip lines); the expected answers come from the file and the
matrix's published facts: the pytorch/pytorch:1.6.0-cuda10.1-cudnn7-devel image ships torch 1.6.0
for CUDA 10.1 and torchvision; NGC's 21.12 image ships python 3.8; the pytorch channel's 2.0.1
has pytorch-cuda 11.8 builds.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import detect_kind, import_text
from envgen.repro.importer.detect import is_definition, parse_file, parse_text
from envgen.repro.importer.repository import parse_repository
from envgen.repro.importer.singularity import stages

KEYS = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _import(
    text: str, matrix: Matrix, filename: str = "Singularity", as_of: str = "2021-06-01"
) -> tuple[dict[str, object], tuple[str, ...]]:
    result = import_text(text, filename=filename, matrix=matrix, as_of=dt.date.fromisoformat(as_of))
    return {k: result.project.get(k) for k in KEYS}, result.warnings


# --- the format --------------------------------------------------------------------------------
def test_definition_files_by_name_or_by_their_bootstrap_header() -> None:
    header = "# Apptainer recipe for the GPU cluster\n\nBootStrap: docker\nFrom: ubuntu:20.04\n"
    assert detect_kind("Singularity", "") == "singularity"
    assert detect_kind("Singularity.gpu-cu101", "%post\n  pip install torch\n") == "singularity"
    assert detect_kind("container.def", header) == "singularity"
    assert detect_kind("recipe", header) == "singularity"
    # Names other formats own stay theirs; so does a .def without the header
    assert detect_kind("Singularity.md", "# How to build the container\n") == "markdown"
    assert detect_kind("exports.def", "LIBRARY spam\nEXPORTS\n    PyInit_spam\n") != "singularity"
    assert detect_kind("install.def", "pip install torch==1.8.0\n") == "shell"
    assert not is_definition("bootstrap: true\nname: docs\n")  # a YAML key, not an agent


def test_stages_header_and_sections_as_apptainer_parses_them() -> None:
    parsed = stages(
        "Bootstrap: docker\n"
        "From: golang:1.12.3-alpine3.9   # the compiler\n"
        "Stage: devel\n\n"
        "%post\n  go build -o hello hello.go\n"
        "%post\n  strip hello\n"
        "# Install binary into the final image\n"
        "Bootstrap: library\nFrom: alpine:3.9\nStage: final\n"
        "%files from devel\n  /root/hello /bin/hello\n"
    )
    assert [(s.value("bootstrap"), s.value("from"), s.name, s.line) for s in parsed] == [
        ("docker", "golang:1.12.3-alpine3.9", "devel", 1),
        ("library", "alpine:3.9", "final", 10),
    ]
    devel, final = parsed
    assert [(s.name, s.line) for s in devel.sections] == [("post", 5), ("post", 7)]
    assert [(s.name, s.args, s.body) for s in final.sections] == [
        ("files", "from devel", ["  /root/hello /bin/hello"])
    ]


# --- the final stage's image and %post -----------------------------------------------------------
FRAMEWORK_IMAGE = """\
Bootstrap: docker
From: pytorch/pytorch:1.6.0-cuda10.1-cudnn7-devel
Stage: build

%post
    apt-get update
    apt-get install -y software-properties-common ninja-build git wget
    /opt/conda/bin/pip install tensorboardX scipy easydict pyyaml

    export CUDA=cu101
    export TORCH=1.6.0
    /opt/conda/bin/pip install torch-scatter -f https://pytorch-geometric.com/whl/torch-${TORCH}+${CUDA}.html
    /opt/conda/bin/pip install torch-geometric

%labels
    Maintainer someone@example.org

%help
    Definition file for graph matching experiments.
"""


def test_a_framework_image_gives_torch_its_cuda_and_torchvision(matrix: Matrix) -> None:
    keys, warnings = _import(FRAMEWORK_IMAGE, matrix, filename="singularity.def")
    assert keys == {
        "python": None, "torch": "1.6.0", "torchvision": True, "torchaudio": False,
        "accelerators": ["cu101"], "managers": ["pip"],
    }  # fmt: skip
    assert any(w.startswith("singularity.def:2: torchvision is not pinned") for w in warnings)
    found = parse_text(FRAMEWORK_IMAGE, filename="singularity.def", base=None)
    assert found.kind == "singularity"
    assert found.torch is not None
    assert found.torch.image == "pytorch/pytorch:1.6.0-cuda10.1-cudnn7-devel"
    assert "tensorboardx" in found.seen_pip  # %post read with shell semantics
    assert "torch-scatter" in found.seen_pip


CONDA_POST = """\
Bootstrap: docker
From: nvidia/cuda:11.8.0-cudnn8-devel-ubuntu22.04

%environment
    export PATH=/opt/conda/bin:$PATH
    export LC_ALL=C.UTF-8

%post
    export DEBIAN_FRONTEND=noninteractive
    apt-get update && apt-get install -y --no-install-recommends wget git \\
        && rm -rf /var/lib/apt/lists/*
    wget -q https://repo.anaconda.com/miniconda/Miniconda3-py310_23.3.1-0-Linux-x86_64.sh -O /tmp/mc.sh
    bash /tmp/mc.sh -b -p /opt/conda && rm /tmp/mc.sh
    /opt/conda/bin/conda install -y pytorch==2.0.1 torchvision==0.15.2 pytorch-cuda=11.8 \\
        -c pytorch -c nvidia
    /opt/conda/bin/pip install einops timm==0.9.2

%runscript
    exec python "$@"
"""


def test_post_with_conda_under_a_cuda_image(matrix: Matrix) -> None:
    keys, _ = _import(CONDA_POST, matrix, as_of="2023-07-01")
    assert keys == {
        "python": "3.10", "torch": "2.0.1", "torchvision": "0.15.2", "torchaudio": False,
        "accelerators": ["cu118"], "managers": ["conda"],
    }  # fmt: skip


def test_environment_is_runtime_only_and_never_reaches_post(matrix: Matrix) -> None:
    text = (
        "Bootstrap: docker\nFrom: python:3.8-slim\n\n"
        "%environment\n    export TORCH_VERSION=1.12.1\n\n"
        "%post\n    pip install torch==${TORCH_VERSION:-1.9.0} torchvision==0.10.0\n"
    )
    keys, _ = _import(text, matrix)
    assert keys["torch"] == "1.9.0"
    assert keys["python"] == "3.8"  # the python image's tag


def test_build_arguments_take_their_defaults(matrix: Matrix) -> None:
    text = (
        "Bootstrap: docker\nFrom: pytorch/pytorch:{{ BASE_TAG }}\n\n"
        "%arguments\n    BASE_TAG=1.13.1-cuda11.6-cudnn8-runtime\n\n"
        "%post\n    pip install --no-cache-dir timm==0.6.12\n"
    )
    keys, _ = _import(text, matrix, filename="train.def", as_of="2023-03-01")
    assert (keys["torch"], keys["accelerators"], keys["torchvision"]) == ("1.13.1", ["cu116"], True)


def test_registry_and_namespace_name_the_image() -> None:
    text = (
        "Bootstrap: docker\nRegistry: nvcr.io\nNamespace: nvidia\nFrom: pytorch:21.12-py3\n\n"
        "%post\n    pip install lightning-bolts\n"
    )
    found = parse_text(text, filename="Singularity", base=None)
    assert found.torch is not None
    assert found.torch.image == "nvcr.io/nvidia/pytorch:21.12-py3"
    assert found.python == "3.8"


def test_a_local_image_is_unknown_and_said(matrix: Matrix) -> None:
    text = "Bootstrap: localimage\nFrom: ./base.sif\n\n%post\n    pip install torch==1.10.0\n"
    keys, warnings = _import(text, matrix)
    assert keys["torch"] == "1.10.0"
    assert any("Bootstrap: localimage From: ./base.sif: not a Docker image" in w for w in warnings)


def test_files_are_copied_before_post_installs_them(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.10.0\ntorchvision==0.11.1\n")
    (tmp_path / "Singularity").write_text(
        "Bootstrap: docker\nFrom: ubuntu:20.04\n\n"
        "%files\n    requirements.txt /opt/app/requirements.txt\n\n"
        "%post\n    apt-get update && apt-get install -y python3-pip\n"
        "    pip3 install -r /opt/app/requirements.txt\n"
    )
    found = parse_file(tmp_path / "Singularity")
    assert found.torch is not None
    assert (found.torch.version, found.companions["torchvision"].version) == ("1.10.0", "0.11.1")


# --- multi-stage ---------------------------------------------------------------------------------
MULTI_STAGE = """\
Bootstrap: docker
From: pytorch/pytorch:1.9.0-cuda11.1-cudnn8-devel
Stage: build

%post
    cd /opt && git clone https://github.com/example/ops.git && cd ops
    python setup.py bdist_wheel

Bootstrap: docker
From: pytorch/pytorch:1.10.0-cuda11.3-cudnn8-runtime
Stage: final

%post
    pip install einops==0.4.1
"""


def test_the_last_stage_is_the_image(matrix: Matrix) -> None:
    keys, warnings = _import(MULTI_STAGE, matrix, filename="ops.def", as_of="2022-01-10")
    assert (keys["torch"], keys["accelerators"]) == ("1.10.0", ["cu113"])
    assert (
        "build stage ops.def:1 (build, From: pytorch/pytorch:1.9.0-cuda11.1-cudnn8-devel): not the "
        "final image, and the final stage copies nothing from it; not read"
    ) in warnings


def test_a_stage_the_final_one_copies_from_has_its_post_read(matrix: Matrix) -> None:
    text = (
        "Bootstrap: docker\nFrom: ubuntu:20.04\nStage: build\n\n"
        "%post\n    apt-get update && apt-get install -y python3-venv\n"
        "    python3 -m venv /opt/venv\n"
        "    /opt/venv/bin/pip install torch==1.12.1+cu113 "
        "--extra-index-url https://download.pytorch.org/whl/cu113\n\n"
        "Bootstrap: docker\nFrom: nvidia/cuda:11.3.1-cudnn8-runtime-ubuntu20.04\nStage: runtime\n\n"
        "%files from build\n    /opt/venv /opt/venv\n\n"
        "%environment\n    export PATH=/opt/venv/bin:$PATH\n"
    )
    keys, warnings = _import(text, matrix, as_of="2022-09-01")
    assert (keys["torch"], keys["accelerators"]) == ("1.12.1", ["cu113"])
    assert any("the final stage copies files from it: its %post is read" in w for w in warnings)


# --- a repository ---------------------------------------------------------------------------------
def test_a_repository_reads_its_definition_files_and_skips_other_def_files(tmp_path: Path) -> None:
    (tmp_path / "Singularity").write_text(FRAMEWORK_IMAGE)
    (tmp_path / "spam.def").write_text("LIBRARY spam\nEXPORTS\n    PyInit_spam\n")
    merged = parse_repository(tmp_path)
    assert merged.torch is not None
    assert merged.torch.version == "1.6.0"
    assert "spam" not in merged.seen_pip
