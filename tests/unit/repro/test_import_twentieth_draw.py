"""The mechanisms the twentieth held-out draw's misses asked for (issue 24), each on
real-shaped input written here: Poetry's lock (a reader of its own, and what a script's `poetry
install` reads), a project's requires-python bounding the python the pins choose, a README that
quotes setup.py's requirement list, a later README block for one CUDA being another route, `conda env create` given specs, RHEL's
`yum install python36`, an apt python beside an image's own, another publisher's PyTorch image
(floydhub/pytorch), amazon/aws-lambda-python's python, and an extension page the file installs
from that does not pick torch's build where the file installs torch itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, poetry_lock
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


_LOCK_1 = """[[package]]
category = "main"
name = "appnope"
marker = "sys_platform == \\"darwin\\""
optional = false
python-versions = "*"
version = "0.1.0"

[[package]]
category = "main"
name = "torch"
optional = false
python-versions = ">=3.6.1"
version = "1.5.1"

[package.dependencies]
numpy = "*"
future = {version = "*", markers = "python_version < \\"3.0\\""}

[[package]]
category = "main"
name = "future"
optional = false
python-versions = "*"
version = "0.18.2"

[[package]]
category = "dev"
name = "torchvision"
optional = true
python-versions = "*"
version = "0.6.1"

[metadata]
content-hash = "29c0"
python-versions = "^3.7"

[metadata.files]
torch = [
    {file = "torch-1.5.1-cp37-cp37m-manylinux1_x86_64.whl", hash = "sha256:00"},
]
"""


def test_a_poetry_lock_is_what_poetry_install_installs(matrix: Matrix) -> None:
    """lock 1.x: torch 1.5.1 from PyPI (its CUDA 10.2 build); an optional package (an extra's)
    and one whose marker holds only on macOS are not installed; `^3.7` names no python."""
    got = import_keys(_LOCK_1, "poetry.lock", matrix, "2020-08-04")
    assert got == {
        "python": None,
        "torch": "1.5.1",
        "torchvision": False,
        "torchaudio": False,
        "accelerators": ["cu102"],
        "managers": ["pip"],
    }
    declared = poetry_lock.declared(_LOCK_1, "poetry.lock")
    names = [r.split("==")[0] for _, r in declared.requirements]
    assert names == ["torch"]  # not appnope (macOS), future (python 2), torchvision (optional)


_LOCK_2 = """[[package]]
name = "torch"
version = "2.0.1"
description = "Tensors"
optional = false
python-versions = ">=3.8.0"
groups = ["main"]
markers = "sys_platform == \\"darwin\\""

[[package]]
name = "torch"
version = "2.0.1+cu118"
description = "Tensors"
optional = false
python-versions = ">=3.8.0"
groups = ["main"]
markers = "sys_platform == \\"linux\\""

[package.source]
type = "legacy"
url = "https://download.pytorch.org/whl/cu118"
reference = "torch-cu118"

[metadata]
lock-version = "2.1"
python-versions = "~3.10"
content-hash = "ab"
"""


def test_a_poetry_lock_of_two_builds_keeps_linuxs(matrix: Matrix) -> None:
    """Poetry 2: one name locked in two versions by marker; linux's is the CUDA 11.8 wheel of
    the PyTorch index the package's source names; `~3.10` admits one minor."""
    got = import_keys(_LOCK_2, "poetry.lock", matrix, "2023-08-01")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.10", "2.0.1", ["cu118"])


def test_a_poetry_lock_that_is_not_one_is_refused(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match=r"not a poetry\.lock"):
        import_keys('[tool.poetry]\nname = "x"\n', "poetry.lock", matrix, "2023-08-01")
    with pytest.raises(ImportSpecError, match=r"poetry\.lock"):
        import_keys("[[package]\n", "poetry.lock", matrix, "2023-08-01")


def test_a_scripts_poetry_install_reads_the_lock(tmp_path: Path, matrix: Matrix) -> None:
    """`poetry install` installs what poetry.lock says (1.5.1), not the newest release
    pyproject.toml's range allows."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "x"\n[tool.poetry.dependencies]\npython = "^3.7"\ntorch = "^1.5"\n'
    )
    (tmp_path / "poetry.lock").write_text(_LOCK_1)
    (tmp_path / "setup.sh").write_text("pip install poetry\npoetry install\n")
    got = import_file_keys(tmp_path / "setup.sh", matrix, "2021-06-01")
    assert got["torch"] == "1.5.1"
    (tmp_path / "poetry.lock").unlink()
    got = import_file_keys(tmp_path / "setup.sh", matrix, "2021-06-01")
    assert got["torch"] == "1.8.1"  # without a lock: the range's newest as of the date


def test_a_requires_python_bounds_the_python_the_pins_choose(
    tmp_path: Path, matrix: Matrix
) -> None:
    """A pin whose wheels stop at cp36 rules out 3.7 and 3.8, but the project asks for >=3.7:
    no python fits both, so none is named (not 3.6, below the project's floor)."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "1"\nrequires-python = ">=3.7"\n'
        'dependencies = ["torch==1.5.1", "netifaces==0.10.9"]\n'
    )
    pages = (Path(__file__).resolve().parents[2] / "data" / "recorded" / "pypi-simple").as_uri()
    options = ImportOptions(
        source=tmp_path / "pyproject.toml", as_of="2020-08-04", pypi_index=pages
    )
    result = run_import(options, matrix)  # the online route, from the recorded pages
    assert result.project.get("python") is None
    assert any("netifaces" in w for w in result.warnings)


def test_a_readme_quoting_setup_pys_list(matrix: Matrix) -> None:
    text = (
        "richml\n======\n\nDependencies\n------------\n\nFound in `setup.py`\n```\n"
        "INSTALL_REQUIRES = [\n    'numpy>=1.15.0',\n    'torch>=0.4.1',\n]\n```\n\n"
        "Installation\n------------\n\n    pip install git+https://github.com/x/richml#egg=richml\n"
    )
    got = import_keys(text, "README.md", matrix, "2018-10-17")
    assert (got["torch"], got["accelerators"]) == ("0.4.1", ["cu90"])


def test_a_later_block_for_one_cuda_is_another_route(matrix: Matrix) -> None:
    text = (
        "## Installation\n\n```bash\nconda create -n a python=3.11\nconda activate a\n"
        "pip install torch==2.9.0 --extra-index-url https://download.pytorch.org/whl/cu128\n```\n\n"
        "On the clusters with CUDA 11.8, the following versions work:\n\n```bash\n"
        "conda create -n a python=3.11\npython -m pip install --no-cache-dir \\\n"
        "  --index-url https://download.pytorch.org/whl/cu118 \\\n  torch==2.7.1\n```\n"
    )
    got = import_keys(text, "README.md", matrix, "2026-01-10")
    assert (got["torch"], got["accelerators"]) == ("2.9.0", ["cu128"])


def test_conda_env_create_given_specs(matrix: Matrix) -> None:
    text = (
        "conda env create -n shop python=3.11 pip\nconda activate shop\n"
        "pip install torch torchvision\n"
    )
    got = import_keys(text, "create_env.sh", matrix, "2025-04-13")
    assert (got["python"], got["torch"]) == ("3.11", "2.6.0")


def test_yum_names_a_python_without_its_dot(matrix: Matrix) -> None:
    text = (
        "Bootstrap: docker\nFrom: centos:centos7.8.2003\n\n%post\n"
        "yum -y install python36 python3-pip\npip3 install torch==1.4.0 tensorflow==1.14.0\n"
    )
    got = import_keys(text, "Singularity", matrix, "2020-07-01")
    assert (got["python"], got["torch"]) == ("3.6", "1.4.0")


@pytest.mark.parametrize(
    ("after", "python"),
    [
        ("", None),  # a tool's python2.7 (Kaldi's), beside the image's own
        ("RUN python3.8 -m pip install numpy\n", "3.8"),  # run by name: the environment's
    ],
)
def test_an_apt_python_beside_the_images_own(
    matrix: Matrix, after: str, python: str | None
) -> None:
    version = "2.7" if not after else "3.8"
    text = (
        "FROM pytorch/pytorch:1.13.1-cuda11.6-cudnn8-runtime\n"
        "RUN pip3 install torchvision torchaudio --extra-index-url "
        "https://download.pytorch.org/whl/cu116\n"
        f"RUN apt-get update && apt-get install -y g++ python{version} sox\n{after}"
    )
    got = import_keys(text, "Dockerfile", matrix, "2023-01-08")
    assert (got["python"], got["torch"], got["accelerators"]) == (python, "1.13.1", ["cu116"])


@pytest.mark.parametrize(
    ("image", "torch", "accelerator"),
    [
        ("floydhub/pytorch:0.4.1-gpu.cuda9cudnn7-py3.34", "0.4.1", "cu90"),
        ("anibali/pytorch:1.5.0-cuda10.2-ubuntu18.04", "1.5.0", "cu102"),
        ("floydhub/pytorch:1.0-cpu-py3.40", "1.0.0", "cpu"),
    ],
)
def test_another_publishers_pytorch_image(
    matrix: Matrix, image: str, torch: str, accelerator: str
) -> None:
    text = f"FROM {image}\nCOPY requirements.txt .\nRUN pip install tqdm\n"
    got = import_keys(text, "Dockerfile", matrix, "2020-09-11")
    assert (got["torch"], got["accelerators"], got["managers"]) == (torch, [accelerator], ["pip"])


def test_an_aws_lambda_python_image(matrix: Matrix) -> None:
    text = (
        "FROM amazon/aws-lambda-python:3.8\nRUN pip install torch==1.6.0+cpu "
        "-f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    got = import_keys(text, "Dockerfile", matrix, "2021-03-01")
    assert (got["python"], got["accelerators"]) == ("3.8", ["cpu"])


@pytest.mark.parametrize(
    ("filename", "text", "as_of", "torch", "accelerator"),
    [
        # `pip install torch==1.7.*` from PyPI, then torch-scatter from PyG's cu110 page: pip
        # takes PyPI's CUDA 10.2 build of torch (the page holds no torch)
        (
            "Dockerfile",
            "FROM nvidia/cuda:10.2-cudnn7-devel-ubuntu16.04\nRUN pip install torch==1.7.*\n"
            "RUN pip install --no-index torch-scatter -f "
            "https://pytorch-geometric.com/whl/torch-1.7.0+cu110.html\n",
            "2021-04-22",
            "1.7.1",
            "cu102",
        ),
        # Poetry's torch = "^1.10.0" from PyPI beside detectron2's CPU wheel URL: PyPI's build
        (
            "pyproject.toml",
            '[tool.poetry]\nname = "x"\n[tool.poetry.dependencies]\npython = ">=3.8,<3.11"\n'
            'detectron2 = {url = "https://dl.fbaipublicfiles.com/detectron2/wheels/cpu/torch1.10/'
            'detectron2-0.6%2Bcpu-cp38-cp38-linux_x86_64.whl"}\ntorch = "^1.10.0"\n',
            "2022-01-13",
            "1.10.1",
            "cu102",
        ),
    ],
)
def test_an_installed_extension_page_does_not_pick_torchs_build(
    matrix: Matrix, filename: str, text: str, as_of: str, torch: str, accelerator: str
) -> None:
    got = import_keys(text, filename, matrix, as_of)
    assert (got["torch"], got["accelerators"]) == (torch, [accelerator])


# --- the review of these mechanisms: its findings, each a case ---------------------------------

_LOCK_15 = """[[package]]
name = "torch"
version = "2.0.1"
description = "Tensors"
optional = false
python-versions = ">=3.8.0"

[[package]]
name = "torch"
version = "2.0.1+cu118"
description = "Tensors"
optional = false
python-versions = ">=3.8.0"

[package.source]
type = "legacy"
url = "https://download.pytorch.org/whl/cu118"
reference = "torch-cu118"

[[package]]
name = "detectron2"
version = "0.6"
description = "from git"
optional = false
python-versions = "*"

[package.source]
type = "git"
url = "https://github.com/facebookresearch/detectron2.git"
reference = "HEAD"
resolved_reference = "abc"

[[package]]
name = "torchaudio"
version = "2.0.2"
description = "an extra's"
optional = true
python-versions = "*"

[extras]
audio = ["torchaudio (>=2.0)"]

[metadata]
lock-version = "2.0"
python-versions = "^3.10"
content-hash = "ab"
"""


def test_a_poetry_1_lock_of_two_builds_without_markers(matrix: Matrix) -> None:
    """Poetry 1.5-1.8 write no markers on packages: of `2.0.1` (macOS's, from PyPI) and
    `2.0.1+cu118` (the PyTorch index's) linux-64 takes the PyTorch index's; a git source is no
    release pip can pin; an optional package stays out unless its extra is asked for."""
    got = import_keys(_LOCK_15, "poetry.lock", matrix, "2023-08-01")
    assert (got["torch"], got["accelerators"], got["torchaudio"]) == ("2.0.1", ["cu118"], False)
    declared = poetry_lock.declared(_LOCK_15, "poetry.lock")
    assert [r for _, r in declared.requirements] == ["torch==2.0.1+cu118"]
    assert any("detectron2 comes from a git source" in w for w in declared.warnings)
    with_audio = poetry_lock.declared(_LOCK_15, "poetry.lock", ("audio",))
    assert "torchaudio==2.0.2" in [r for _, r in with_audio.requirements]
    every = poetry_lock.declared(_LOCK_15, "poetry.lock", ("*",))
    assert "torchaudio==2.0.2" in [r for _, r in every.requirements]


def test_poetry_install_with_an_extra_reads_the_locks_extra(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.poetry]\nname = "x"\n')
    (tmp_path / "poetry.lock").write_text(
        '[[package]]\nname = "torch"\nversion = "2.1.0"\noptional = true\npython-versions = "*"\n'
        '\n[extras]\ntorch = ["torch"]\n\n[metadata]\npython-versions = "^3.10"\n'
    )
    (tmp_path / "setup.sh").write_text("pip install poetry\npoetry install -E torch\n")
    assert import_file_keys(tmp_path / "setup.sh", matrix, "2024-01-01")["torch"] == "2.1.0"


def test_a_hostile_lock_is_read_in_bounded_work() -> None:
    """Many versions of one name and many edges to it: the edges read are bounded, markers
    evaluated once each, and the warning names a few versions, not all."""
    versions = "".join(
        f'[[package]]\nname = "x"\nversion = "{i}"\noptional = false\npython-versions = "*"\n\n'
        for i in range(300)
    )
    edges = ", ".join('{version = "9", markers = "os_name == \'posix\'"}' for _ in range(3000))
    text = (
        f'[[package]]\nname = "torch"\nversion = "2.1.0"\noptional = false\n'
        f'python-versions = "*"\n\n[package.dependencies]\nx = [{edges}]\n\n{versions}'
        '[metadata]\npython-versions = ">=' + "9" * 5000 + '"\n'
    )
    declared = poetry_lock.declared(text, "poetry.lock")
    said = [w for w in declared.warnings if "several versions" in w]
    assert len(said) == 1
    assert "and 292 more" in said[0]
    assert len(said[0]) < 400
    assert declared.python_requires is None  # a python-versions of 5,000 digits is not one


def test_a_version_bound_of_thousands_of_digits_names_no_python() -> None:
    from envgen.repro.importer.declared import one_minor
    from envgen.repro.importer.evidence import admits

    bound = ">=" + "9" * 5000
    assert one_minor(bound) is None
    assert admits(bound, "3.10") is True  # not read: it rules nothing out


def test_sed_on_a_symlink_loop_is_no_internal_error(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "loop").symlink_to("loop")
    (tmp_path / "requirements.txt").write_text("torch==1.8.0\n")
    (tmp_path / "s.sh").write_text(
        "cd sub\nsed -i 's/a/b/' loop\ncd ..\npip install -r requirements.txt\n"
    )
    assert import_file_keys(tmp_path / "s.sh", matrix, "2021-06-01")["torch"] == "1.8.0"


def test_a_numbered_step_that_reinstalls_torch_for_one_cuda(tmp_path: Path, matrix: Matrix) -> None:
    """`2. Install PyTorch with CUDA 11.3 support:` after `pip install -r requirements.txt`
    makes no environment of its own: a further step, not another route."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("torch==1.10.0\n")
    (tmp_path / "README.md").write_text(
        "# X\n\n1. Install the dependencies:\n```bash\npip install -r requirements.txt\n```\n"
        "2. Install PyTorch with CUDA 11.3 support:\n```bash\npip install torch==1.10.0+cu113 "
        "torchvision==0.11.1+cu113 -f https://download.pytorch.org/whl/torch_stable.html\n```\n"
    )
    got = import_file_keys(tmp_path / "README.md", matrix, "2022-01-01")
    assert (got["torchvision"], got["accelerators"]) == ("0.11.1", ["cu113"])


def test_conda_env_create_given_specs_beside_an_environment_yml(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "environment.yml").write_text(
        "name: x\nchannels: [pytorch]\ndependencies:\n  - python=3.8\n  - pytorch=1.13.1\n"
        "  - cpuonly\n"
    )
    (tmp_path / "s.sh").write_text("conda env create -n x python=3.9\n")
    got = import_file_keys(tmp_path / "s.sh", matrix, "2023-06-01")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.8", "1.13.1", ["cpu"])


@pytest.mark.parametrize(
    ("image", "accelerator"),
    [
        ("anibali/pytorch:1.13.0-nocuda-ubuntu22.04", "cpu"),
        ("floydhub/pytorch:1.0.0-py3.38", "cpu"),  # floydhub's CPU image: no `gpu` in its tag
    ],
)
def test_another_publishers_cpu_image(matrix: Matrix, image: str, accelerator: str) -> None:
    got = import_keys(f"FROM {image}\nRUN pip install tqdm\n", "Dockerfile", matrix, "2023-06-01")
    assert got["accelerators"] == [accelerator]


def test_a_mirrored_ngc_tag_is_no_torch_release(matrix: Matrix) -> None:
    """harbor.corp.com/nvidia/pytorch:22.12-py3 (NGC's tag scheme, a date): no torch 22.12."""
    with pytest.raises(ImportSpecError, match="no torch"):
        import_keys(
            "FROM harbor.corp.com/nvidia/pytorch:22.12-py3\nRUN pip install tqdm\n",
            "Dockerfile",
            matrix,
            "2023-06-01",
        )
