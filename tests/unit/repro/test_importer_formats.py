"""envgen import reads conda list (--export) output, pip freeze, setup.py, setup.cfg,
pyproject.toml and README shell blocks: the whole project.yaml text and every warning.

Expected answers from the files themselves: `pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0` is
python 3.8 with CUDA 10.1 (its build string, kept as a comment), `tqdm=4.48.2=pypi_0` was
installed by pip, `numpy @ file:///tmp/build/...` is a conda package pip freeze cannot version;
setup.py is read with ast, never run. Known-issue warnings are compared by id.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.repro.importer import import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _short(warning: str) -> str:
    m = re.match(r"^(\[[a-z0-9.-]+\]) ", warning)
    return m.group(1) if m else warning


# (id, filename, text, project.yaml text, warnings)
FORMATS: list[tuple[str, str, str, str, list[str]]] = [
    (
        "conda-export",
        "requirements.txt",
        "# This file may be used to create an environment using:\n"
        "# $ conda create --name <env> --file <this file>\n"
        "# platform: linux-64\n"
        "_libgcc_mutex=0.1=main\n"
        "blas=1.0=mkl\n"
        "ca-certificates=2020.7.22=0\n"
        "cudatoolkit=10.1.243=h6bb024c_0\n"
        "numpy=1.19.1=py38hbc911f0_0\n"
        "pip=20.2.2=py38_0\n"
        "python=3.8.5=h7579374_1\n"
        "pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0\n"
        "torchvision=0.7.0=py38_cu101\n"
        "tqdm=4.48.2=pypi_0\n",
        "# Imported by `envgen import` from requirements.txt; review it, then run `envgen lock`.\n"
        'name: "paper"\n'
        'python: "3.8"  # the file says 3.8.5 (requirements.txt:10)\n'
        'torch: "1.6.0"  # the file\'s build: pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0 '
        "(requirements.txt:11)\n"
        'torchvision: "0.7.0"\n'
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu101"\n'
        "managers:\n"
        '  - "conda"\n'
        "pip:\n"
        '  - "tqdm==4.48.2"\n'
        "conda:\n"
        "  channels:\n"
        '    - "defaults"\n'
        "  dependencies:\n"
        '    - "_libgcc_mutex=0.1=main"\n'
        '    - "blas=1.0=mkl"\n'
        '    - "ca-certificates=2020.7.22=0"\n'
        '    - "numpy=1.19.1=py38hbc911f0_0"\n',
        [
            "requirements.txt:11: pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0 is a pytorch channel "
            "build (its build string names python, CUDA and cuDNN, as only that channel's do), so "
            "project.yaml takes it from -c pytorch",
            "requirements.txt: 4 package(s) have no channel in the listing (conda list leaves defaults "
            "blank, conda list --export records no channels); project.yaml adds the defaults channel: "
            "change conda.channels if the environment used conda-forge",
        ],
    ),
    (
        "conda-list",
        "requirements.txt",
        "# packages in environment at /home/user/miniconda3/envs/paper:\n"
        "#\n"
        "# Name                    Version                   Build  Channel\n"
        "_libgcc_mutex             0.1                        main\n"
        "python                    3.7.9                h60c2a47_0\n"
        "pytorch                   1.7.1           py3.7_cuda11.0.221_cudnn8.0.5_0    pytorch\n"
        "torchvision               0.8.2                py37_cu110    pytorch\n"
        "tensorboardx              2.1                      pypi_0    pypi\n",
        "# Imported by `envgen import` from requirements.txt; review it, then run `envgen lock`.\n"
        'name: "paper"\n'
        'python: "3.7"  # the file says 3.7.9 (requirements.txt:5)\n'
        'torch: "1.7.1"  # the file\'s build: pytorch=1.7.1=py3.7_cuda11.0.221_cudnn8.0.5_0 '
        "(requirements.txt:6)\n"
        'torchvision: "0.8.2"\n'
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu110"\n'
        "managers:\n"
        '  - "conda"\n'
        "pip:\n"
        '  - "tensorboardx==2.1"\n'
        "conda:\n"
        "  channels:\n"
        '    - "defaults"\n'
        "  dependencies:\n"
        '    - "_libgcc_mutex=0.1=main"\n',
        [
            "requirements.txt: 1 package(s) have no channel in the listing (conda list leaves defaults "
            "blank, conda list --export records no channels); project.yaml adds the defaults channel: "
            "change conda.channels if the environment used conda-forge",
            "[numpy2-with-torch-before-2.3]",
        ],
    ),
    (
        "freeze",
        "requirements.txt",
        "certifi==2020.6.20\n"
        "-e git+https://github.com/someone/paper.git@1a2b3c4d5e6f#egg=paper\n"
        "mkl-fft==1.1.0\n"
        "mkl-random @ file:///tmp/build/80754af9/mkl_random_1593000000000/work\n"
        "numpy @ file:///tmp/build/80754af9/numpy_and_numpy_base_1596233721170/work\n"
        "Pillow==7.2.0\n"
        "torch==1.6.0\n"
        "torchvision==0.7.0\n"
        "tqdm==4.48.2\n",
        "# Imported by `envgen import` from requirements.txt; review it, then run `envgen lock`.\n"
        'name: "paper"\n'
        'torch: "1.6.0"\n'
        'torchvision: "0.7.0"\n'
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu102"\n'
        "managers:\n"
        '  - "pip"\n'
        "pip:\n"
        '  - "certifi==2020.6.20"\n'
        '  - "mkl-fft==1.1.0"\n'
        '  - "Pillow==7.2.0"\n'
        '  - "tqdm==4.48.2"\n',
        [
            "requirements.txt:2: editable install "
            "'git+https://github.com/someone/paper.git@1a2b3c4d5e6f#egg=paper' is not a package envgen "
            "can lock; ignored",
            "requirements.txt:4: dropped 'mkl-random @ "
            "file:///tmp/build/80754af9/mkl_random_1593000000000/work': a local build with no version "
            "(pip freeze lists packages conda installed this way); pin a released version in pip: if "
            "the paper needs it",
            "requirements.txt:5: dropped 'numpy @ "
            "file:///tmp/build/80754af9/numpy_and_numpy_base_1596233721170/work': a local build with no "
            "version (pip freeze lists packages conda installed this way); pin a released version in "
            "pip: if the paper needs it",
            "requirements.txt: torch==1.6.0 has no local label and no PyTorch index: on linux-64 PyPI "
            "serves the cu102 build, so project.yaml asks for cu102",
            "[numpy2-with-torch-before-2.3]",
        ],
    ),
    (
        "setup",
        "setup.py",
        "from setuptools import setup, find_packages\n"
        'requirements = ["torch>=1.4", "numpy", "scipy==1.5.2"]\n'
        'setup(name="x", packages=find_packages(), install_requires=requirements, '
        'python_requires=">=3.6")\n',
        "# Imported by `envgen import` from setup.py; review it, then run `envgen lock`.\n"
        'name: "paper"\n'
        'torch: "2.15.0"\n'
        "torchvision: false\n"
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu132"\n'
        "managers:\n"
        '  - "pip"\n'
        "pip:\n"
        '  - "numpy"\n'
        '  - "scipy==1.5.2"\n',
        [
            "setup.py:2: torch >=1.4 is not an exact pin; project.yaml pins 2.15.0, the newest release "
            "it allows",
            "setup.py: torch==2.15.0 has no local label and no PyTorch index: on linux-64 PyPI serves "
            "the cu132 build, so project.yaml asks for cu132",
        ],
    ),
    (
        "setup",
        "setup.cfg",
        "[metadata]\n"
        "name = paper\n"
        "[options]\n"
        "python_requires = >=3.7\n"
        "install_requires =\n"
        "    torch==1.9.0\n"
        "    torchvision==0.10.0\n"
        "    einops>=0.3  # tensor ops\n",
        "# Imported by `envgen import` from setup.cfg; review it, then run `envgen lock`.\n"
        'name: "paper"\n'
        'torch: "1.9.0"\n'
        'torchvision: "0.10.0"\n'
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu102"\n'
        "managers:\n"
        '  - "pip"\n'
        'torch_from: "pypi"\n'
        "pip:\n"
        '  - "einops>=0.3"\n',
        [
            # PyPI's 1.9.0 manylinux wheel is the cu102 build (torch/version.py in the wheel).
            "setup.cfg: torch==1.9.0 has no local label and no PyTorch index: on linux-64 PyPI "
            "serves the cu102 build, so project.yaml asks for cu102",
            "[numpy2-with-torch-before-2.3]",
        ],
    ),
    (
        "pyproject",
        "pyproject.toml",
        "[tool.poetry]\n"
        'name = "paper"\n'
        "[tool.poetry.dependencies]\n"
        'python = "^3.8"\n'
        'torch = "1.10.1"\n'
        'numpy = "^1.21"\n',
        "# Imported by `envgen import` from pyproject.toml; review it, then run `envgen lock`.\n"
        'name: "paper"\n'
        'torch: "1.10.1"\n'
        "torchvision: false\n"
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu102"\n'
        "managers:\n"
        '  - "pip"\n'
        'torch_from: "pypi"\n'
        "pip:\n"
        '  - "numpy<2,>=1.21"\n',
        [
            "pyproject.toml: torch==1.10.1 has no local label and no PyTorch index: on linux-64 "
            "PyPI serves the cu102 build, so project.yaml asks for cu102"
        ],
    ),
    (
        "README",
        "README.md",
        "# Paper\n"
        "## Install\n"
        "```bash\n"
        "$ conda create -n paper python=3.8\n"
        "$ conda activate paper\n"
        "$ pip install torch==1.8.1+cu111 torchvision==0.9.1+cu111 -f "
        "https://download.pytorch.org/whl/torch_stable.html\n"
        "```\n"
        "```python\n"
        "import torch\n"
        "```\n",
        "# Imported by `envgen import` from README.md; review it, then run `envgen lock`.\n"
        'name: "paper"\n'
        'python: "3.8"\n'
        'torch: "1.8.1"\n'
        'torchvision: "0.9.1"\n'
        "torchaudio: false\n"
        "accelerators:\n"
        '  - "cu111"\n'
        "managers:\n"
        '  - "pip"\n',
        ["[numpy2-with-torch-before-2.3]"],
    ),
]


@pytest.mark.parametrize(
    ("filename", "text", "expected", "warnings"),
    [c[1:] for c in FORMATS],
    ids=[f"{c[0]}-{c[1]}" for c in FORMATS],
)
def test_format(
    matrix: Matrix, filename: str, text: str, expected: str, warnings: list[str]
) -> None:
    result = import_text(text, filename=filename, matrix=matrix)
    assert result.text == expected
    assert [_short(w) for w in result.warnings] == warnings
    parse_spec(result.text, path=Path("project.yaml"))


def test_setup_py_is_never_run(matrix: Matrix, tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = (
        "import pathlib\n"
        f"pathlib.Path({str(marker)!r}).write_text('x')\n"
        "from setuptools import setup\n"
        "setup(install_requires=['torch==1.8.1'])\n"
    )
    assert import_text(text, filename="setup.py", matrix=matrix).project["torch"] == "1.8.1"
    assert not marker.exists()


def test_computed_install_requires_is_not_read(matrix: Matrix) -> None:
    text = (
        "from setuptools import setup\n"
        "setup(install_requires=open('requirements.txt').read().split())\n"
    )
    with pytest.raises(ImportSpecError) as info:
        import_text(text, filename="setup.py", matrix=matrix)
    assert str(info.value) == (
        "setup.py: no torch (or conda pytorch) requirement found; nothing to reproduce"
    )


def test_a_release_without_a_pypi_default_asks_for_cpu_and_says_so(matrix: Matrix) -> None:
    """1.8.2 (LTS) was never on PyPI: no default build is recorded, so a bare pin means cpu,
    with the CUDA builds that existed named."""
    r = import_text("torch==1.8.2\n", filename="requirements.txt", matrix=matrix)
    assert r.project["accelerators"] == ["cpu"]
    assert r.warnings[0] == (
        "requirements.txt: torch==1.8.2 has no local label and no PyTorch index, and the matrix "
        "does not record which build PyPI served on linux-64; project.yaml asks for cpu: change "
        "accelerators if the paper ran on a GPU (torch 1.8.2 was built for cu102, cu111)"
    )


def test_the_pkg_resources_line_of_a_debian_pip_freeze_is_dropped(matrix: Matrix) -> None:
    """`pkg_resources==0.0.0` is what Debian's and Ubuntu's pip writes into a venv's freeze
    (LeBenchmark/NeurIPS2021's SLU/requirements.txt line 61); PyPI has no such project, so
    keeping it made every lock fail. A real pin of another version is kept."""
    result = import_text(
        "numpy==1.19.5\npkg_resources==0.0.0\ntorch==1.9.0\n",
        filename="requirements.txt",
        matrix=matrix,
    )
    assert result.project["pip"] == ["numpy==1.19.5"]
    assert result.warnings[0] == (
        "requirements.txt:2: dropped 'pkg_resources==0.0.0': not a package but a line Debian's "
        "and Ubuntu's pip adds to `pip freeze` in a virtual environment (Launchpad bug 1635463); "
        "PyPI has no such project"
    )
    kept = import_text(
        "pkg-resources==1.0\ntorch==1.9.0\n", filename="requirements.txt", matrix=matrix
    )
    assert kept.project["pip"] == ["pkg-resources==1.0"]
