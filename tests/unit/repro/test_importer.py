"""envgen import: realistic old and new inputs -> the whole project.yaml, or the whole error.

Every case is checked against the real shipped matrix (`load_matrix()`); facts were checked with
`envgen matrix show <version>`. Known-issue warnings are compared by their id, other warnings whole.
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
from envgen.repro import entry, importer
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _short(warning: str) -> str:
    m = re.match(r"^(\[[a-z0-9.-]+\]) ", warning)
    return m.group(1) if m else warning


CASES: list[tuple[str, str, str, dict[str, object]]] = [
    (
        "conda-2020-cu110",
        "environment.yml",
        "name: paper2020\nchannels:\n  - pytorch\n  - defaults\ndependencies:\n  - python=3.8\n  - pytorch=1.7.1\n  - torchvision=0.8.2\n  - cudatoolkit=11.0\n  - numpy=1.19.2\n  - pip\n  - pip:\n    - timm==0.3.2\n",
        {
            "project": {
                "name": "paper2020",
                "python": "3.8",
                "torch": "1.7.1",
                "torchvision": "0.8.2",
                "torchaudio": False,
                "accelerators": ["cu110"],
                "managers": ["conda"],
                "pip": ["timm==0.3.2"],
                "conda": {"channels": ["defaults"], "dependencies": ["numpy=1.19.2"]},
            },
            "warnings": [],
        },
    ),
    (
        "conda-build-string",
        "environment.yml",
        "name: bs\nchannels: [pytorch]\ndependencies:\n  - pytorch=1.7.1=py3.8_cuda11.0.221_cudnn8.0.5_0\n  - torchvision=0.8.2=py38_cu110\n",
        {
            "project": {
                "name": "bs",
                "python": "3.8",
                "torch": "1.7.1",
                "torchvision": "0.8.2",
                "torchaudio": False,
                "accelerators": ["cu110"],
                "managers": ["conda"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "conda-cpuonly",
        "environment.yml",
        "name: cpu-paper\nchannels: [pytorch, conda-forge]\ndependencies:\n  - python=3.7\n  - pytorch==1.6.0\n  - torchvision==0.7.0\n  - cpuonly\n  - scipy\n",
        {
            "project": {
                "name": "cpu-paper",
                "python": "3.7",
                "torch": "1.6.0",
                "torchvision": "0.7.0",
                "torchaudio": False,
                "accelerators": ["cpu"],
                "managers": ["conda"],
                "conda": {"channels": ["conda-forge"], "dependencies": ["scipy"]},
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "conda-no-cpuonly",
        "environment.yml",
        "name: trap\nchannels: [pytorch]\ndependencies:\n  - python=3.8\n  - pytorch=1.7.1\n  - torchvision\n",
        {
            "project": {
                "name": "trap",
                "python": "3.8",
                "torch": "1.7.1",
                "torchvision": True,
                "torchaudio": False,
                "accelerators": ["cu110"],
                "managers": ["conda"],
            },
            "warnings": [
                "environment.yml: pytorch 1.7.1 from -c pytorch names neither cpuonly nor "
                "cudatoolkit: on linux-64 conda installed the build with the newest "
                "cudatoolkit, cu110, so project.yaml asks for cu110 (the solver avoids the "
                "cpuonly feature); set accelerators: [cpu] if the paper ran without a GPU",
                "environment.yml: dependencies[2]: torchvision is not pinned; envgen will "
                "pick the one matching torch 1.7.1 (torchvision 0.8.2)",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "conda-pytorch-cuda",
        "environment.yml",
        "name: new\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=2.0.1\n  - torchvision=0.15.2\n  - torchaudio=2.0.2\n  - pytorch-cuda=11.8\n",
        {
            "project": {
                "name": "new",
                "python": "3.10",
                "torch": "2.0.1",
                "torchvision": "0.15.2",
                "torchaudio": "2.0.2",
                "accelerators": ["cu118"],
                "managers": ["conda"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "conda-channel-prefix",
        "environment.yml",
        "name: pref\nchannels: [defaults]\ndependencies:\n  - python=3.9\n  - pytorch::pytorch=1.10.1\n  - pytorch::torchaudio=0.10.1\n  - conda-forge::opencv=4.5.3\n  - cudatoolkit=11.3\n",
        {
            "project": {
                "name": "pref",
                "python": "3.9",
                "torch": "1.10.1",
                "torchvision": False,
                "torchaudio": "0.10.1",
                "accelerators": ["cu113"],
                "managers": ["conda"],
                "conda": {
                    "channels": ["defaults", "conda-forge"],
                    "dependencies": ["opencv=4.5.3"],
                },
            },
            "warnings": [
                "[numpy2-with-torch-before-2.3]",
                "[conda-forge-cudatoolkit-gives-cpu-build]",
            ],
        },
    ),
    (
        "conda-pip-torch",
        "environment.yml",
        "name: piptorch\nchannels: [conda-forge]\ndependencies:\n  - python=3.9\n  - pip\n  - pip:\n    - -f https://download.pytorch.org/whl/torch_stable.html\n    - torch==1.9.0+cu111\n    - torchvision==0.10.0+cu111\n    - pandas==1.3.0\n",
        {
            "project": {
                "name": "piptorch",
                "python": "3.9",
                "torch": "1.9.0",
                "torchvision": "0.10.0",
                "torchaudio": False,
                "accelerators": ["cu111"],
                "managers": ["pip"],
                "pip": ["pandas==1.3.0"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "req-2020-cu110",
        "requirements.txt",
        "# paper requirements\n-f https://download.pytorch.org/whl/torch_stable.html\ntorch==1.7.1+cu110\ntorchvision==0.8.2+cu110\nnumpy==1.19.5  # pinned for reproducibility\n",
        {
            "project": {
                "name": "paper",
                "torch": "1.7.1",
                "torchvision": "0.8.2",
                "torchaudio": False,
                "accelerators": ["cu110"],
                "managers": ["pip"],
                "pip": ["numpy==1.19.5"],
            },
            "warnings": [],
        },
    ),
    (
        "req-cu116-extra-index",
        "requirements.txt",
        "--extra-index-url https://download.pytorch.org/whl/cu116\ntorch==1.12.0+cu116\ntorchvision==0.13.0+cu116\ntorchaudio==0.12.0\n",
        {
            "project": {
                "name": "paper",
                "torch": "1.12.0",
                "torchvision": "0.13.0",
                "torchaudio": "0.12.0",
                "accelerators": ["cu116"],
                "managers": ["pip"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "req-index-url-2.1",
        "requirements.txt",
        "--index-url https://download.pytorch.org/whl/cu121\ntorch==2.1.0\ntorchvision==0.16.0\n",
        {
            "project": {
                "name": "paper",
                "torch": "2.1.0",
                "torchvision": "0.16.0",
                "torchaudio": False,
                "accelerators": ["cu121"],
                "managers": ["pip"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "req-plain-pypi-default",
        "requirements.txt",
        "torch==1.7.1\ntorchvision==0.8.2\n",
        {
            "project": {
                "name": "paper",
                "torch": "1.7.1",
                "torchvision": "0.8.2",
                "torchaudio": False,
                "accelerators": ["cu102"],
                "managers": ["pip"],
            },
            "warnings": [
                "requirements.txt: torch==1.7.1 has no local label and no PyTorch index: "
                "on linux-64 PyPI serves the cu102 build, so project.yaml asks for cu102",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "req-markers",
        "requirements.txt",
        'torch==1.10.0+cpu; sys_platform == "linux"\ntorch==1.10.0; sys_platform == "darwin"\n--extra-index-url https://download.pytorch.org/whl/cpu\nscipy>=1.5; python_version >= "3.7"\npillow<9\n',
        {
            "project": {
                "name": "paper",
                "torch": "1.10.0",
                "torchvision": False,
                "torchaudio": False,
                "accelerators": ["cpu"],
                "managers": ["pip"],
                "pip": ['scipy>=1.5; python_version >= "3.7"', "pillow<9"],
            },
            "warnings": [
                "requirements.txt:2: 'torch==1.10.0; sys_platform == \"darwin\"' does not "
                'apply on linux-64 (marker sys_platform == "darwin"); ignored',
                "[numpy2-with-torch-before-2.3]",
                "[pypi-torchvision-0.11.0-yanked]",
            ],
        },
    ),
    (
        "req-wheel-url",
        "requirements.txt",
        "https://download.pytorch.org/whl/cu102/torch-1.9.1%2Bcu102-cp38-cp38-linux_x86_64.whl\nmatplotlib==3.4.3\n",
        {
            "project": {
                "name": "paper",
                "python": "3.8",
                "torch": "1.9.1",
                "torchvision": False,
                "torchaudio": False,
                "accelerators": ["cu102"],
                "managers": ["pip"],
                "pip": ["matplotlib==3.4.3"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "req-stable-html-2.4",
        "requirements.txt",
        "-f https://download.pytorch.org/whl/torch_stable.html\ntorch==2.4.0+cu121\nnumpy<2\n",
        {
            "project": {
                "name": "paper",
                "torch": "2.4.0",
                "torchvision": False,
                "torchaudio": False,
                "accelerators": ["cu121"],
                "managers": ["pip"],
                "pip": ["numpy<2"],
            },
            "warnings": ["[torch-stable-html-deprecated]"],
        },
    ),
    (
        "req-direct-url-other",
        "requirements.txt",
        "torch==2.5.1\ngit+https://github.com/facebookresearch/detectron2.git\nnvidia-cudnn-cu12==9.1.0.70\nnumpy==1.26.4\n",
        {
            "project": {
                "name": "paper",
                "torch": "2.5.1",
                "torchvision": False,
                "torchaudio": False,
                "accelerators": ["cu124"],
                "managers": ["pip"],
                "pip": ["numpy==1.26.4"],
            },
            "warnings": [
                "requirements.txt:2: dropped "
                "'git+https://github.com/facebookresearch/detectron2.git': a direct URL "
                "cannot be locked reproducibly; add a released version to pip:",
                "requirements.txt:3: dropped nvidia-cudnn-cu12 (a dependency of torch: the "
                "lock pins the matching one)",
                "requirements.txt: torch==2.5.1 has no local label and no PyTorch index: "
                "on linux-64 PyPI serves the cu124 build, so project.yaml asks for cu124",
            ],
        },
    ),
    (
        "shell-pip-cu116",
        "install.sh",
        "#!/bin/bash\nset -e\npip install torch==1.12.0+cu116 torchvision==0.13.0+cu116 \\\n    torchaudio==0.12.0 --extra-index-url https://download.pytorch.org/whl/cu116\npip install -U einops==0.4.1\n",
        {
            "project": {
                "name": "paper",
                "torch": "1.12.0",
                "torchvision": "0.13.0",
                "torchaudio": "0.12.0",
                "accelerators": ["cu116"],
                "managers": ["pip"],
                "pip": ["einops==0.4.1"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "shell-conda-create",
        "setup.sh",
        "conda create -n paper python=3.8 -y\nconda install -y pytorch==1.8.0 torchvision==0.9.0 torchaudio==0.8.0 cudatoolkit=10.2 -c pytorch\npython -m pip install tensorboard==2.4.1\n",
        {
            "project": {
                "name": "paper",
                "python": "3.8",
                "torch": "1.8.0",
                "torchvision": "0.9.0",
                "torchaudio": "0.8.0",
                "accelerators": ["cu102"],
                "managers": ["conda"],
                "pip": ["tensorboard==2.4.1"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "docker-pytorch-image",
        "Dockerfile",
        "FROM pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime\nWORKDIR /app\nRUN pip install --no-cache-dir opencv-python-headless==4.5.3.56 tqdm\n",
        {
            "project": {
                "name": "paper",
                "torch": "1.9.0",
                "torchvision": True,
                "torchaudio": False,
                "accelerators": ["cu111"],
                "managers": ["pip"],
                "pip": ["opencv-python-headless==4.5.3.56", "tqdm"],
            },
            "warnings": [
                "Dockerfile:1: torchvision is not pinned; envgen will pick the one "
                "matching torch 1.9.0 (torchvision 0.10.0)",
                "[numpy2-with-torch-before-2.3]",
            ],
        },
    ),
    (
        "docker-nvidia-cuda",
        "Dockerfile",
        "FROM nvidia/cuda:11.3.1-cudnn8-devel-ubuntu20.04\nARG TORCH=1.12.1\nENV DEBIAN_FRONTEND=noninteractive\nRUN apt-get update && apt-get install -y python3-pip\nRUN pip3 install torch==${TORCH} torchvision==0.13.1 \\\n    --extra-index-url https://download.pytorch.org/whl/cu113\n",
        {
            "project": {
                "name": "paper",
                "python": "3.8",  # apt's python3 on Ubuntu 20.04 (eras.UBUNTU_PYTHON3)
                "torch": "1.12.1",
                "torchvision": "0.13.1",
                "torchaudio": False,
                "accelerators": ["cu113"],
                "managers": ["pip"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "docker-python-slim",
        "Dockerfile",
        'FROM python:3.8-slim\nRUN ["pip", "install", "torch==1.8.1+cpu", "-f", "https://download.pytorch.org/whl/torch_stable.html"]\n',
        {
            "project": {
                "name": "paper",
                "python": "3.8",
                "torch": "1.8.1",
                "torchvision": False,
                "torchaudio": False,
                "accelerators": ["cpu"],
                "managers": ["pip"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
    (
        "conda-new-1.13",
        "environment.yml",
        "name: n113\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.10\n  - pytorch=1.13.1\n  - torchvision=0.14.1\n  - pytorch-cuda=11.7\n",
        {
            "project": {
                "name": "n113",
                "python": "3.10",
                "torch": "1.13.1",
                "torchvision": "0.14.1",
                "torchaudio": False,
                "accelerators": ["cu117"],
                "managers": ["conda"],
            },
            "warnings": ["[numpy2-with-torch-before-2.3]"],
        },
    ),
]


@pytest.mark.parametrize(
    ("filename", "text", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_import_case(matrix: Matrix, filename: str, text: str, expected: dict[str, object]) -> None:
    if "error" in expected:
        with pytest.raises(ImportSpecError) as info:
            import_text(text, filename=filename, matrix=matrix)
        assert str(info.value) == expected["error"]
        assert info.value.exit_code == 11
        return
    result = import_text(text, filename=filename, matrix=matrix)
    assert result.project == expected["project"]
    assert [_short(w) for w in result.warnings] == expected["warnings"]
    # The written text is a valid project.yaml that reads back to the same data.
    spec = parse_spec(result.text, path=Path("project.yaml"))
    assert spec.torch == expected["project"]["torch"]
    assert yaml.safe_load(result.text) == expected["project"]


def test_at_least_thirty_cases() -> None:
    from tests.unit.repro.test_importer_nearest import NEAREST

    assert len(CASES) + len(NEAREST) >= 30


def test_project_yaml_text_is_quoted_and_ordered(matrix: Matrix) -> None:
    text = CASES[0][2]
    result = import_text(
        text, filename="environment.yml", matrix=matrix, as_of=dt.date(2020, 12, 20)
    )
    assert result.text == (
        "# Imported by `envgen import` from environment.yml; review it, then run `envgen lock`.\n"
        'name: "paper2020"\n'
        'python: "3.8"\n'
        'torch: "1.7.1"\n'
        'torchvision: "0.8.2"\n'
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu110"\n'
        "managers:\n"
        '  - "conda"\n'
        "pip:\n"
        '  - "timm==0.3.2"\n'
        "conda:\n"
        "  channels:\n"
        '    - "defaults"\n'
        "  dependencies:\n"
        '    - "numpy=1.19.2"\n'
        "lock:\n"
        '  exclude_newer: "2020-12-20"\n'
    )


def test_requirements_include_is_relative_to_the_file(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "paper").mkdir()
    (tmp_path / "paper" / "base.txt").write_text("torch==1.8.1+cu111\ntorchvision==0.9.1+cu111\n")
    req = tmp_path / "paper" / "requirements.txt"
    req.write_text(
        "-f https://download.pytorch.org/whl/torch_stable.html\n-r base.txt\nscikit-learn==0.24.1\n"
    )
    out = tmp_path / "paper" / "project.yaml"
    result = run_import(ImportOptions(source=req, out=out, as_of="2021-04-01"), matrix)
    assert result.project == {
        "name": "paper",
        "torch": "1.8.1",
        "torchvision": "0.9.1",
        "torchaudio": False,
        "accelerators": ["cu111"],
        "managers": ["pip"],
        "pip": ["scikit-learn==0.24.1"],
        "lock": {"exclude_newer": "2021-04-01"},
    }
    assert result.written
    assert out.read_text() == result.text
    # A second run writes nothing (byte-identical).
    assert not run_import(ImportOptions(source=req, out=out, as_of="2021-04-01"), matrix).written


def test_command_line(matrix: Matrix) -> None:
    cmd = (
        "pip install torch==1.12.0+cu116 torchvision==0.13.0+cu116 "
        "--extra-index-url https://download.pytorch.org/whl/cu116"
    )
    result = run_import(ImportOptions(command=cmd, name="cmdline"), matrix)
    assert result.project == {
        "name": "cmdline",
        "torch": "1.12.0",
        "torchvision": "0.13.0",
        "torchaudio": False,
        "accelerators": ["cu116"],
        "managers": ["pip"],
    }


def test_unpinned_torch_with_as_of_takes_the_release_of_that_day(matrix: Matrix) -> None:
    result = import_text(
        "torch\n", filename="requirements.txt", matrix=matrix, as_of=dt.date(2020, 12, 31)
    )
    assert result.project["torch"] == "1.7.1"
    assert result.warnings[0] == (
        "requirements.txt:1: torch is not pinned; project.yaml pins 1.7.1, the newest release on "
        "2020-12-31"
    )


def test_bad_as_of_date(tmp_path: Path, matrix: Matrix) -> None:
    req = tmp_path / "requirements.txt"
    req.write_text("torch==1.7.1\n")
    with pytest.raises(ImportSpecError) as info:
        run_import(ImportOptions(source=req, as_of="31/12/2020"), matrix)
    assert (
        str(info.value) == "--as-of: '31/12/2020' is not a date; write YYYY-MM-DD, e.g. 2020-11-30"
    )


def test_git_date_outside_a_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from envgen.infra import proc as _proc

    def fake_run(args: list[str], **_: object) -> _proc.Completed:
        result = _proc.Completed(
            args=tuple(args),
            returncode=128,
            stdout="",
            stderr="fatal: not a git repository (or any of the parent directories): .git\n",
            seconds=0.0,
        )
        raise _proc.CommandError(result, "git log")

    monkeypatch.setattr(_proc, "run", fake_run)
    with pytest.raises(ImportSpecError) as info:
        entry.git_date(tmp_path / "environment.yml")
    assert str(info.value) == (
        "--git: cannot read the commit date of environment.yml: fatal: not a git repository "
        "(or any of the parent directories): .git\n  hint: run it inside the repository, or pass --as-of YYYY-MM-DD"
    )


def test_git_date_reads_the_last_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from envgen.infra import proc as _proc

    seen: list[tuple[str, ...]] = []

    def fake_run(args: list[str], **_: object) -> _proc.Completed:
        seen.append(tuple(args))
        return _proc.Completed(
            args=tuple(args), returncode=0, stdout="2020-11-03\n", stderr="", seconds=0.0
        )

    monkeypatch.setattr(_proc, "run", fake_run)
    (tmp_path / ".git").mkdir()
    assert entry.git_date(tmp_path / "environment.yml") == dt.date(2020, 11, 3)
    top = str(tmp_path.resolve())
    assert seen == [
        ("git", "--git-dir", f"{top}/.git", "--work-tree", top, "-c", "core.fsmonitor=false",
         "-c", "log.showSignature=false", "-c", "safe.bareRepository=explicit",
         "log", "-1", "--format=%cs", "--", "environment.yml")
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("filename", "text", "kind"),
    [
        ("environment.yml", "", "conda"),
        ("Dockerfile", "", "dockerfile"),
        ("gpu.Dockerfile", "", "dockerfile"),
        ("install.sh", "", "shell"),
        ("requirements-dev.txt", "", "pip"),
        ("README", "FROM python:3.8\n", "dockerfile"),
        ("setup-notes", "conda install pytorch -c pytorch\n", "shell"),
        ("deps", "dependencies:\n  - pytorch\n", "conda"),
    ],
)
def test_detect_kind(filename: str, text: str, kind: str) -> None:
    assert importer.detect_kind(filename, text) == kind


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        ("FROM\n", "Dockerfile:1: FROM names no image; line ignored"),
        ("FROM --platform=linux/amd64\n", "Dockerfile:1: FROM names no image; line ignored"),
        ('ARG "a\n', "Dockerfile:1: unbalanced quotes; line ignored"),
        ('ENV A "b\n', "Dockerfile:1: unbalanced quotes; line ignored"),
    ],
)
def test_malformed_dockerfile_lines_are_skipped_with_a_warning(
    matrix: Matrix, text: str, warning: str
) -> None:
    result = import_text(
        text + "RUN pip install torch==1.7.1+cpu\n", filename="Dockerfile", matrix=matrix
    )
    assert result.project["torch"] == "1.7.1"
    assert result.warnings[0] == warning


def test_dockerfile_run_that_is_not_a_json_array_is_shell_form(matrix: Matrix) -> None:
    text = 'FROM python:3.8\nRUN ["pip", "install", "torch==1.7.1+cpu"]\nRUN [ -d x ] || true\n'
    result = import_text(text, filename="Dockerfile", matrix=matrix)
    assert (result.project["python"], result.project["accelerators"]) == ("3.8", ["cpu"])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x80\xfe\x00binary", "not UTF-8 text (byte 0)"),
        # a UTF-16 byte-order mark is read as pip reads it: as UTF-16, here an odd byte count
        (b"\xff\xfe\x00binary", "not UTF-16-LE text (byte 8)"),
        (b"", "no torch (or conda pytorch) requirement found; nothing to reproduce"),
    ],
)
def test_unreadable_or_empty_file_is_an_import_error(
    tmp_path: Path, matrix: Matrix, content: bytes, message: str
) -> None:
    path = tmp_path / "requirements.txt"
    path.write_bytes(content)
    with pytest.raises(ImportSpecError) as info:
        run_import(ImportOptions(source=path), matrix)
    assert str(info.value).startswith(f"{path if content else path.name}: {message}")


def test_missing_file_and_empty_command(tmp_path: Path, matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError) as info:
        run_import(ImportOptions(source=tmp_path / "nope.txt"), matrix)
    assert str(info.value) == f"{tmp_path / 'nope.txt'}: no such file"
    with pytest.raises(ImportSpecError) as info:
        run_import(ImportOptions(command=""), matrix)
    assert str(info.value) == (
        "--command: no torch (or conda pytorch) requirement found; nothing to reproduce"
    )
