"""envgen import never gives up on a reproducible file: the nearest combination that existed.

Each case was an error before (or is one of issue 11's refusal examples); the expected projects
follow from the shipped matrix (`envgen matrix show <version>`): e.g. torch 1.11.0 was built for
conda cudatoolkit 10.2, 11.1 and 11.3 (11.5 is not in the matrix), so cudatoolkit=10.1 moves to cu102; torch==1.10 is 1.10.0 by
PEP 440; pytorch-cuda=11.7 builds exist for 1.13.x and 2.0.x only. Known-issue warnings are compared
by id, the departures whole. `--strict` turns every departure back into an error.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
import yaml

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _short(warning: str) -> str:
    m = re.match(r"^(\[[a-z0-9.-]+\]) ", warning)
    return m.group(1) if m else warning


# (id, filename, text, --as-of, {project, warnings})
NEAREST: list[tuple[str, str, str, str | None, dict[str, object]]] = [
    (
        "python-2.7-kept",
        "install.sh",
        "conda create -n old python=2.7\npip install torch==1.0.0\n",
        None,
        {
            "project": {
                "accelerators": ["cu90"],
                "managers": ["pip"],
                "name": "paper",
                "python": "2.7",
                "torch": "1.0.0",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "install.sh: torch==1.0.0 has no local label and no PyTorch index: on linux-64 "
                "PyPI serves the cu90 build, so project.yaml asks for cu90",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-2.6-pytorch-channel",
        "environment.yml",
        "name: late\n"
        "channels: [pytorch, nvidia]\n"
        "dependencies:\n"
        "  - python=3.11\n"
        "  - pytorch=2.6.0\n"
        "  - pytorch-cuda=12.4\n",
        None,
        {
            "project": {
                "accelerators": ["cu124"],
                "managers": ["pip"],
                "name": "late",
                "python": "3.11",
                "torch": "2.6.0",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "environment.yml: the install route was conda, now pip, because "
                "[conda-pytorch-channel-ends-at-2.5] 2.5 is the last PyTorch release published "
                "to the pytorch channel on Anaconda; 2.6 and later are not on -c pytorch. Fix: "
                "Install torch with pip (inside the conda env) or use conda-forge (pytorch / "
                "pytorch-gpu). (https://github.com/pytorch/pytorch/issues/138506); pip has "
                "cu124 wheels of torch 2.6.0"
            ],
        },
    ),
    (
        "docker-pytorch-never",
        "Dockerfile",
        "FROM pytorch/pytorch:1.12.0-cuda11.1-cudnn8-runtime\n",
        None,
        {
            "project": {
                "accelerators": ["cu113"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.12.0",
                "torchaudio": False,
                "torchvision": True,
            },
            "warnings": [
                "Dockerfile: the compute platform was cu111, now cu113, because torch 1.12.0 "
                "was never built for cu111 (image "
                "pytorch/pytorch:1.12.0-cuda11.1-cudnn8-runtime) as pip wheels; it was built "
                "for cpu, cu102, cu113, cu116 and rocm5.1.1",
                "Dockerfile:1: torchvision is not pinned; envgen will pick the one matching "
                "torch 1.12.0 (torchvision 0.13.0)",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "shell-python-m-pip",
        "install.sh",
        'python3.9 -m pip install "torch==1.10.1+cu113" -f '
        "https://download.pytorch.org/whl/torch_stable.html && echo done\n",
        None,
        {
            "project": {
                "accelerators": ["cu113"],
                "managers": ["pip"],
                "name": "paper",
                "python": "3.9",
                "torch": "1.10.1",
                "torchaudio": False,
                "torchvision": False,
            },
            # 1.10.1+cu113 existed on /whl/cu113/ although the page lists cu102 and cu111 only.
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "req-unpinned-torch",
        "requirements.txt",
        "torch\ntorchvision\n",
        None,
        {
            "project": {
                "accelerators": ["cu132"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "2.15.0",
                "torchaudio": False,
                "torchvision": True,
            },
            "warnings": [
                "requirements.txt:1: torch is not pinned; project.yaml pins 2.15.0, the newest "
                "release",
                "requirements.txt: torch==2.15.0 has no local label and no PyTorch index: on "
                "linux-64 PyPI serves the cu132 build, so project.yaml asks for cu132",
                "requirements.txt:2: torchvision is not pinned; envgen will pick the one "
                "matching torch 2.15.0 (torchvision 0.29.2)",
            ],
        },
    ),
    (
        "req-not-a-release",
        "requirements.txt",
        "torch==1.7.3\n",
        None,
        {
            "project": {
                "accelerators": ["cu102"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.7.1",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "requirements.txt:1: torch was 1.7.3, now 1.7.1, because 1.7.3 is not a "
                "PyTorch release; releases in its series: 1.7.0, 1.7.1",
                "requirements.txt: torch==1.7.1 has no local label and no PyTorch index: on "
                "linux-64 PyPI serves the cu102 build, so project.yaml asks for cu102",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "req-label-mismatch",
        "requirements.txt",
        "-f https://download.pytorch.org/whl/torch_stable.html\n"
        "torch==1.7.1+cu110\n"
        "torchvision==0.8.2+cu101\n",
        None,
        {
            "project": {
                "accelerators": ["cu110"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.7.1",
                "torchaudio": False,
                "torchvision": "0.8.2",
            },
            "warnings": [
                "requirements.txt:3: torchvision's build was cu101, now cu110, because "
                "torchvision==0.8.2+cu101 must match torch's cu110 build",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "req-never-cu111",
        "requirements.txt",
        "-f https://download.pytorch.org/whl/torch_stable.html\ntorch==1.7.1+cu111\n",
        None,
        {
            "project": {
                "accelerators": ["cu110"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.7.1",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "requirements.txt: the compute platform was cu111, now cu110, because torch "
                "1.7.1 was never built for cu111 (torch==1.7.1+cu111) as pip wheels; it was "
                "built for cpu, cu92, cu101, cu102 and cu110",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-fuzzy",
        "environment.yml",
        "name: fuzzy\n"
        "channels: [pytorch]\n"
        "dependencies:\n"
        "  - python=3.8\n"
        "  - pytorch=1.9\n"
        "  - cudatoolkit=10.2\n",
        None,
        {
            "project": {
                "accelerators": ["cu102"],
                "managers": ["conda"],
                "name": "fuzzy",
                "python": "3.8",
                "torch": "1.9.1",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "environment.yml: dependencies[1]: torch 1.9 is not an exact pin; project.yaml "
                "pins 1.9.1, the newest release it allows that has cu102 and python 3.8",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-three-problems",
        "environment.yml",
        "name: many\n"
        "channels: [pytorch]\n"
        "dependencies:\n"
        "  - python=3.10\n"
        "  - pytorch=1.8.0\n"
        "  - torchvision=0.8.2\n"
        "  - cudatoolkit=11.3\n",
        None,
        {
            "project": {
                "accelerators": ["cu111"],
                "managers": ["conda"],
                "name": "many",
                "python": "3.9",
                "torch": "1.8.0",
                "torchaudio": False,
                "torchvision": "0.9.0",
            },
            "warnings": [
                "environment.yml: the compute platform was cu113, now cu111, because torch "
                "1.8.0 was never built for cu113 (cudatoolkit 11.3) as conda packages; it was "
                "built for cpu, cu101, cu102 and cu111",
                "environment.yml: dependencies[0]: python was 3.10, now 3.9, because torch "
                "1.8.0 was published for python 3.6, 3.7, 3.8, 3.9",
                "environment.yml: dependencies[2]: torchvision was 0.8.2, now 0.9.0, because "
                "torchvision 0.8.2 belongs to torch 1.7.1, and torch 1.8.0 pairs with "
                "torchvision 0.9.0",
                "[numpy2-with-torch-before-2.3]",
                "[conda-forge-cudatoolkit-gives-cpu-build]",
            ],
        },
    ),
    (
        "conda-python-too-new",
        "environment.yml",
        "name: py\n"
        "channels: [pytorch]\n"
        "dependencies:\n"
        "  - python=3.10\n"
        "  - pytorch=1.7.1\n"
        "  - cpuonly\n",
        None,
        {
            "project": {
                "accelerators": ["cpu"],
                "managers": ["conda"],
                "name": "py",
                "python": "3.9",
                "torch": "1.7.1",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "environment.yml: dependencies[0]: python was 3.10, now 3.9, because torch "
                "1.7.1 was published for python 3.6, 3.7, 3.8, 3.9",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-wrong-companion",
        "environment.yml",
        "name: mix\n"
        "channels: [pytorch]\n"
        "dependencies:\n"
        "  - python=3.8\n"
        "  - pytorch=1.7.1\n"
        "  - torchvision=0.8.0\n"
        "  - cudatoolkit=10.2\n",
        None,
        {
            "project": {
                "accelerators": ["cu102"],
                "managers": ["conda"],
                "name": "mix",
                "python": "3.8",
                "torch": "1.7.1",
                "torchaudio": False,
                "torchvision": "0.8.2",
            },
            "warnings": [
                "environment.yml: dependencies[2]: torchvision was 0.8.0, now 0.8.2, because "
                "torchvision 0.8.0 belongs to torch 1.7.0, and torch 1.7.1 pairs with "
                "torchvision 0.8.2",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-pre-1.5.1-gone",
        "environment.yml",
        "name: old\n"
        "channels: [pytorch]\n"
        "dependencies:\n"
        "  - python=3.7\n"
        "  - pytorch=1.4.0\n"
        "  - torchvision=0.5.0\n"
        "  - cudatoolkit=10.1\n",
        None,
        {
            "project": {
                "accelerators": ["cu101"],
                "managers": ["pip"],
                "name": "old",
                "python": "3.7",
                "torch": "1.4.0",
                "torchaudio": False,
                "torchvision": "0.5.0",
            },
            "warnings": [
                "environment.yml: the install route was conda, now pip, because "
                "[conda-pytorch-channel-pre-1.5.1-deleted] The pytorch conda channel no longer "
                "hosts pytorch packages older than 1.5.1 (nor torchvision older than 0.6.1); "
                "the previous-versions conda commands for them fail to solve. The pip route "
                "still works. Fix: Use the pip wheels for these releases, or pick torch >= "
                "1.5.1 for conda. (https://github.com/pytorch/pytorch/issues/104754)",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-never-10.1",
        "environment.yml",
        "name: x\n"
        "channels: [pytorch]\n"
        "dependencies:\n"
        "  - python=3.9\n"
        "  - pytorch=1.11.0\n"
        "  - cudatoolkit=10.1\n",
        None,
        {
            "project": {
                "accelerators": ["cu102"],
                "managers": ["conda"],
                "name": "x",
                "python": "3.9",
                "torch": "1.11.0",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "environment.yml: the compute platform was cu101, now cu102, because torch "
                "1.11.0 was never built for cu101 (cudatoolkit 10.1) as conda packages; it was "
                "built for cpu, cu102, cu111, cu113 and cu115",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "pep440-1.0",
        "requirements.txt",
        "torch==1.0\ntorchvision==0.2.1\n",
        None,
        {
            "project": {
                "accelerators": ["cu90"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.0.0",
                "torchaudio": False,
                "torchvision": "0.2.1",
            },
            "warnings": [
                "requirements.txt: torch==1.0.0 has no local label and no PyTorch index: "
                "on linux-64 PyPI serves the cu90 build, so project.yaml asks for cu90",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "pep440-1.10",
        "requirements.txt",
        "torch==1.10\n",
        None,
        {
            "project": {
                "accelerators": ["cu102"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.10.0",
                "torchaudio": False,
                "torchvision": False,
                "torch_from": "pypi",
            },
            "warnings": [
                "requirements.txt: torch==1.10.0 has no local label and no PyTorch index: on "
                "linux-64 PyPI serves the cu102 build, so project.yaml asks for cu102",
                "[numpy2-with-torch-before-2.3]",
                "[pypi-torchvision-0.11.0-yanked]",
            ],
        },
    ),
    (
        "tv-0.8.1-with-1.7.0",
        "requirements.txt",
        "torch==1.7.0\ntorchvision==0.8.1\n",
        None,
        {
            "project": {
                "accelerators": ["cu102"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.7.0",
                "torchaudio": False,
                "torchvision": "0.8.1",
            },
            "warnings": [
                "requirements.txt: torch==1.7.0 has no local label and no PyTorch index: "
                "on linux-64 PyPI serves the cu102 build, so project.yaml asks for cu102",
                "requirements.txt:2: torchvision 0.8.1 is not the release torch 1.7.0 was "
                "published with (torchvision 0.8.0); kept, because its wheel accepts torch "
                "1.7.0 (Requires-Dist torch==1.7.0)",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-0.4.1-cuda90",
        "install.sh",
        "conda install pytorch=0.4.1 torchvision cuda90 -c pytorch\n",
        None,
        {
            "project": {
                "accelerators": ["cu90"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "0.4.1",
                "torchaudio": False,
                "torchvision": True,
            },
            "warnings": [
                "install.sh:1: torchvision is not pinned; envgen will pick the one "
                "matching torch 0.4.1 (torchvision 0.2.1)",
                "install.sh: the install route was conda, now pip, because "
                "[conda-pytorch-channel-pre-1.5.1-deleted] The pytorch conda channel no "
                "longer hosts pytorch packages older than 1.5.1 (nor torchvision older "
                "than 0.6.1); the previous-versions conda commands for them fail to solve. "
                "The pip route still works. Fix: Use the pip wheels for these releases, or "
                "pick torch >= 1.5.1 for conda. "
                "(https://github.com/pytorch/pytorch/issues/104754)",
                "[numpy2-with-torch-before-2.3]",
                "[pypi-torch-0.4-deleted]",
            ],
        },
    ),
    (
        "plain-1.1.0",
        "requirements.txt",
        "torch==1.1.0\n",
        None,
        {
            "project": {
                "accelerators": ["cu90"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.1.0",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "requirements.txt: torch==1.1.0 has no local label and no PyTorch index: "
                "on linux-64 PyPI serves the cu90 build, so project.yaml asks for cu90",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "channel-order-trap",
        "environment.yml",
        "name: trap\n"
        "channels:\n"
        "  - pytorch\n"
        "  - conda-forge\n"
        "dependencies:\n"
        "  - python=3.8\n"
        "  - pytorch=1.9.1\n"
        "  - cudatoolkit=11.3\n",
        None,
        {
            "project": {
                "accelerators": ["cu111"],
                "managers": ["conda"],
                "name": "trap",
                "python": "3.8",
                "torch": "1.9.1",
                "torchaudio": False,
                "torchvision": False,
                "conda": {"channels": ["conda-forge"]},
            },
            "warnings": [
                # The cu113 build never existed, not the route: conda's own cu111 build did.
                "environment.yml: the compute platform was cu113, now cu111, "
                "because [conda-1.9-cudatoolkit-11.3-never-built] pytorch 1.9.x on conda: "
                "CUDA builds for 10.2 and 11.1 (`cudatoolkit=11.1 -c pytorch -c nvidia`, "
                "build strings py3.x_cuda11.1_cudnn8.0.5_0); the page's 11.3 line with "
                "conda-forge gave a CPU build (no py3.x_cuda11.3 build of 1.9 exists; "
                "conda took cudatoolkit 11.3 from conda-forge and a CPU pytorch). Fix: Use "
                "cu111 (conda install pytorch==1.9.1 torchvision==0.10.1 torchaudio==0.9.1 "
                "cudatoolkit=11.1 -c pytorch -c nvidia) or the cu111 pip wheels "
                "(torch==1.9.1+cu111 -f "
                "https://download.pytorch.org/whl/torch_stable.html). "
                "(https://github.com/nii-yamagishilab/mos-finetune-ssl/blob/7032ec1416d0952f58aaf414b8cfe1dbe4a576db/environment.yml)",
                "[numpy2-with-torch-before-2.3]",
                "[conda-forge-cudatoolkit-gives-cpu-build]",
            ],
        },
    ),
    (
        "range-pytorch-cuda-11.7",
        "environment.yml",
        "name: r\n"
        "channels:\n"
        "  - pytorch\n"
        "  - nvidia\n"
        "dependencies:\n"
        "  - pytorch>=1.13\n"
        "  - pytorch-cuda=11.7\n",
        "2022-12-19",
        {
            "project": {
                "accelerators": ["cu117"],
                "lock": {"exclude_newer": "2022-12-19"},
                "managers": ["conda"],
                "name": "r",
                "torch": "1.13.1",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "environment.yml: dependencies[0]: torch >=1.13 is not an exact pin; "
                "project.yaml pins 1.13.1, the newest release on 2022-12-19 it allows that has "
                "cu117",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "range-pytorch-cuda-11.7-undated",
        "environment.yml",
        "name: r\n"
        "channels:\n"
        "  - pytorch\n"
        "  - nvidia\n"
        "dependencies:\n"
        "  - pytorch>=1.13\n"
        "  - pytorch-cuda=11.7\n",
        None,
        {
            "project": {
                "accelerators": ["cu117"],
                "managers": ["conda"],
                "name": "r",
                "torch": "2.0.1",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "environment.yml: dependencies[0]: torch >=1.13 is not an exact pin; "
                "project.yaml pins 2.0.1, the newest release it allows that has cu117",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "rocm5.6-unpinned",
        "requirements.txt",
        "--index-url https://download.pytorch.org/whl/rocm5.6\ntorch\n",
        "2024-06-01",
        {
            "project": {
                "accelerators": ["rocm5.6"],
                "lock": {"exclude_newer": "2024-06-01"},
                "managers": ["pip"],
                "name": "paper",
                "torch": "2.2.0",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "requirements.txt:2: torch is not pinned; project.yaml pins 2.2.0, the newest "
                "release on 2024-06-01 that has rocm5.6",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-2.6.0",
        "environment.yml",
        "name: n\n"
        "channels:\n"
        "  - pytorch\n"
        "  - nvidia\n"
        "dependencies:\n"
        "  - python=3.11\n"
        "  - pytorch=2.6.0\n"
        "  - pytorch-cuda=12.4\n",
        None,
        {
            "project": {
                "accelerators": ["cu124"],
                "managers": ["pip"],
                "name": "n",
                "python": "3.11",
                "torch": "2.6.0",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "environment.yml: the install route was conda, now pip, because "
                "[conda-pytorch-channel-ends-at-2.5] 2.5 is the last PyTorch release published "
                "to the pytorch channel on Anaconda; 2.6 and later are not on -c pytorch. Fix: "
                "Install torch with pip (inside the conda env) or use conda-forge (pytorch / "
                "pytorch-gpu). (https://github.com/pytorch/pytorch/issues/138506); pip has "
                "cu124 wheels of torch 2.6.0"
            ],
        },
    ),
    (
        "nvcr-prerelease",
        "requirements.txt",
        "torch==1.11.0a0\n",
        None,
        {
            "project": {
                "accelerators": ["cu102"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "1.11.0",
                "torchaudio": False,
                "torchvision": False,
                "torch_from": "pypi",
            },
            "warnings": [
                "requirements.txt:1: torch was 1.11.0a0, now 1.11.0, because 1.11.0a0 is a "
                "pre-release or build that was never published as a release; 1.11.0 is the "
                "release it became",
                "requirements.txt: torch==1.11.0 has no local label and no PyTorch index: on "
                "linux-64 PyPI serves the cu102 build, so project.yaml asks for cu102",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "range-matches-nothing",
        "requirements.txt",
        "torch>=9.0\n",
        None,
        {
            "project": {
                "accelerators": ["cu132"],
                "managers": ["pip"],
                "name": "paper",
                "torch": "2.15.0",
                "torchaudio": False,
                "torchvision": False,
            },
            "warnings": [
                "requirements.txt:1: torch was >=9.0, now 2.15.0, because no PyTorch release "
                "matches it",
                "requirements.txt: torch==2.15.0 has no local label and no PyTorch index: on "
                "linux-64 PyPI serves the cu132 build, so project.yaml asks for cu132",
            ],
        },
    ),
]


@pytest.mark.parametrize(
    ("filename", "text", "as_of", "expected"),
    [c[1:] for c in NEAREST],
    ids=[c[0] for c in NEAREST],
)
def test_nearest_combination(
    matrix: Matrix, filename: str, text: str, as_of: str | None, expected: dict[str, object]
) -> None:
    date = dt.date.fromisoformat(as_of) if as_of else None
    result = import_text(text, filename=filename, matrix=matrix, as_of=date)
    assert result.project == expected["project"]
    assert [_short(w) for w in result.warnings] == expected["warnings"]
    spec = parse_spec(result.text, path=Path("project.yaml"))
    assert spec.torch == expected["project"]["torch"]
    assert yaml.safe_load(result.text) == expected["project"]


def test_strict_refuses_every_departure(tmp_path: Path, matrix: Matrix) -> None:
    src = tmp_path / "environment.yml"
    src.write_text(
        "name: many\nchannels: [pytorch]\ndependencies:\n  - python=3.10\n  - pytorch=1.8.0\n"
        "  - torchvision=0.8.2\n  - cudatoolkit=11.3\n"
    )
    with pytest.raises(ImportSpecError) as info:
        run_import(ImportOptions(source=src, strict=True), matrix)
    assert str(info.value) == (
        "environment.yml: 3 problems\n"
        "  - --strict: environment.yml: the compute platform was cu113, now cu111, because torch "
        "1.8.0 was never built for cu113 (cudatoolkit 11.3) as conda packages; it was built for "
        "cpu, cu101, cu102 and cu111\n"
        "  - --strict: environment.yml: dependencies[0]: python was 3.10, now 3.9, because torch "
        "1.8.0 was published for python 3.6, 3.7, 3.8, 3.9\n"
        "  - --strict: environment.yml: dependencies[2]: torchvision was 0.8.2, now 0.9.0, "
        "because torchvision 0.8.2 belongs to torch 1.7.1, and torch 1.8.0 pairs with "
        "torchvision 0.9.0"
    )
    assert info.value.exit_code == 11
    # Without --strict the same file imports.
    assert run_import(ImportOptions(source=src), matrix).project["torch"] == "1.8.0"


def test_strict_accepts_a_file_that_needs_no_change(tmp_path: Path, matrix: Matrix) -> None:
    src = tmp_path / "requirements.txt"
    src.write_text("torch==1.7.1+cu110\n-f https://download.pytorch.org/whl/torch_stable.html\n")
    result = run_import(ImportOptions(source=src, strict=True), matrix)
    assert result.project["accelerators"] == ["cu110"]


def test_no_torch_is_still_refused(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError) as info:
        import_text("numpy==1.19.2\n", filename="requirements.txt", matrix=matrix)
    assert str(info.value) == (
        "requirements.txt: no torch (or conda pytorch) requirement found; nothing to reproduce"
    )


def test_torch_follows_from_a_pinned_companion(matrix: Matrix) -> None:
    # torchvision 0.6.0 requires torch==1.5.0: pip installs that torch.
    result = import_text(
        "torchvision==0.6.0\nnumpy==1.18.1\n", filename="requirements.txt", matrix=matrix
    )
    assert (result.project["torch"], result.project["torchvision"]) == ("1.5.0", "0.6.0")
    assert result.warnings[0] == (
        "requirements.txt:1: the file pins no torch, but torchvision 0.6.0 belongs to torch "
        "1.5.0 only (pip installs the torch it requires), so project.yaml pins torch 1.5.0"
    )
