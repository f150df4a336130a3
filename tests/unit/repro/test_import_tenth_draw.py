"""The mechanisms the tenth held-out draw's misses asked for (issue 24), each on real-shaped
input written here: conda-forge as the route of an unpinned pytorch (pixi and environment.yml,
with `cuda-version 12.*` and a pixi `__cuda`), the project itself installed by `pip install .`
or `-e .[extras]`, a Dockerfile or definition file built from the checkout root, a COPY into a
folder a RUN made, `cd` in a RUN line or %post, an ARG that nothing uses, an install command at
the end of a prose line, a shell session under a ```yaml fence, a `Requirements:` line,
`virtualenv --python=`, and Poetry's `python = "3.12.*"`."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text, parse_file, parse_text
from tests.support.importing import import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


PIXI_GPU = """\
[workspace]
channels = ["conda-forge"]
platforms = ["linux-64"]

[dependencies]
python = "3.10.*"

[feature.gpu.system-requirements]
cuda = "12.0"

[feature.gpu.dependencies]
cuda-version = "12.*"
pytorch-gpu = "*"
torchvision = "*"

[environments]
default = ["gpu"]
"""


def test_conda_forge_pytorch_gpu_is_conda_forges_newest_cuda_build(matrix: Matrix) -> None:
    """The pytorch channel ends at 2.5.1; conda-forge's 2.9.1 (the newest on 2026-01-20) has a
    CUDA 12.9 build (matrices/conda-forge.yaml), inside cuda-version 12.* and __cuda 12.0."""
    assert import_keys(PIXI_GPU, "pixi.toml", matrix, "2026-01-20") == {
        "python": "3.10", "torch": "2.9.1", "torchvision": True, "torchaudio": False,
        "accelerators": ["cu129"], "managers": ["conda"],
    }  # fmt: skip


def test_a_pixi_manifest_without_cuda_solves_for_no_gpu(matrix: Matrix) -> None:
    text = PIXI_GPU.replace('cuda = "12.0"\n', "").replace("pytorch-gpu", "pytorch")
    text = text.replace('cuda-version = "12.*"\n', "")
    keys = import_keys(text, "pixi.toml", matrix, "2026-01-20")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == ("2.9.1", ["cpu"], ["conda"])


def test_an_environment_on_conda_forge_takes_conda_forges_release(matrix: Matrix) -> None:
    text = "name: x\nchannels: [conda-forge]\ndependencies:\n  - python=3.11\n  - pytorch-gpu\n"
    keys = import_keys(text, "environment.yml", matrix, "2025-06-01")
    assert keys["managers"] == ["conda"]
    assert keys["torch"] not in {"2.5.1", None}  # the pytorch channel's last release
    assert str(keys["accelerators"][0]).startswith("cu")  # type: ignore[index]


def test_the_pytorch_channel_first_or_named_on_the_spec_keeps_that_channel(
    matrix: Matrix,
) -> None:
    first = "name: x\nchannels: [pytorch, conda-forge]\ndependencies:\n  - pytorch\n"
    named = "name: x\nchannels: [conda-forge]\ndependencies:\n  - pytorch::pytorch\n"
    for text in (first, named):
        assert import_keys(text, "environment.yml", matrix, "2026-01-20")["torch"] == "2.5.1"


def _project(tmp_path: Path, pyproject: str) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(pyproject)
    return tmp_path


def test_pip_install_dot_with_extras_reads_the_project(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        '[project]\nname = "x"\ndependencies = ["numpy>=1.26"]\n'
        '[project.optional-dependencies]\ntrain = ["torch>=2.5"]\ndev = ["pytest"]\n',
    )
    (root / "install.sh").write_text('python -m pip install --upgrade pip ".[dev,train]"\n')
    found = parse_file(root / "install.sh")
    assert found.torch is not None
    assert found.torch.specifier == ">=2.5"
    assert {"numpy>=1.26", "pytest"} <= set(found.pip_reqs)


def test_pip_install_editable_dot_reads_setup_py_beside_a_build_only_pyproject(
    tmp_path: Path,
) -> None:
    root = _project(tmp_path, '[build-system]\nrequires = ["setuptools"]\n')
    (root / "setup.py").write_text(
        "from setuptools import setup\nsetup(name='x', install_requires=['torch==1.8.1'])\n"
    )
    (root / "setup.sh").write_text("pip install -e .\n")
    found = parse_file(root / "setup.sh")
    assert found.torch is not None
    assert found.torch.version == "1.8.1"


def test_an_option_value_is_not_the_project(tmp_path: Path) -> None:
    (tmp_path / "install.sh").write_text("pip install -r ../reqs.txt torch==1.9.0\n")
    found = parse_file(tmp_path / "install.sh")
    assert found.torch is not None
    assert not any("pyproject.toml" in w for w in found.warnings)


DOCKER_SUBFOLDER = """\
FROM nvidia/cuda:11.7.1-runtime-ubuntu20.04
RUN apt-get update && apt-get install -y python3-pip python3.8-venv
WORKDIR /app
ADD requirements.txt .
RUN pip install -r requirements.txt
COPY ./docker/bin/entrypoint.sh /
"""


def test_a_dockerfile_copying_from_its_own_folder_is_built_from_the_checkout_root(
    tmp_path: Path,
) -> None:
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile.gpu").write_text(DOCKER_SUBFOLDER)
    (tmp_path / "requirements.txt").write_text("torch==2.1.0\n")
    without = parse_file(tmp_path / "docker" / "Dockerfile.gpu")
    assert without.torch is None  # no .git: the folder above is not known to be the checkout
    (tmp_path / ".git").mkdir()
    found = parse_file(tmp_path / "docker" / "Dockerfile.gpu")
    assert found.torch is not None
    assert found.torch.version == "2.1.0"


def test_copy_into_a_folder_a_run_made_and_cd_in_a_run_line(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.4.0\n")
    (tmp_path / "Dockerfile").write_text(
        "FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu16.04\nRUN mkdir /work\n"
        "COPY ./requirements.txt /work\nRUN pip install -r /work/requirements.txt\n"
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert found.torch.version == "1.4.0"
    # `cd` in a RUN line: its files are read from there, for that RUN only (requirements.txt in
    # the context is a decoy: the image has it nowhere, so only the fallback reads it)
    (tmp_path / "app-reqs.txt").write_text("torch==1.4.0\n")
    (tmp_path / "requirements.txt").write_text("torch==1.0.0\n")
    head = "FROM python:3.7\nCOPY app-reqs.txt /opt/app/requirements.txt\n"
    (tmp_path / "Dockerfile").write_text(
        head + "RUN cd /opt/app && pip install -r requirements.txt\n"
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert found.torch.version == "1.4.0"
    (tmp_path / "Dockerfile").write_text(
        head + "RUN cd /opt/app\nRUN pip install -r requirements.txt\n"
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert found.torch.version == "1.0.0"


def test_a_definition_file_built_from_the_checkout_root(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "requirements.txt").write_text("torch==1.12.1\n")
    (tmp_path / "singularity").mkdir()
    (tmp_path / "singularity" / "pytorch.def").write_text(
        "Bootstrap: docker\nFrom: nvidia/cuda:11.3.1-cudnn8-devel-ubuntu20.04\n\n%files\n"
        "    ./docker/requirements.txt /workspace/\n\n%post\n"
        "    apt-get install -y python3.9 python3-pip\n    cd /workspace\n"
        "    pip3 install -r requirements.txt\n"
    )
    found = parse_file(tmp_path / "singularity" / "pytorch.def")
    assert found.torch is not None
    assert found.torch.version == "1.12.1"


def test_an_arg_nothing_uses_names_no_python_over_an_image_with_its_own() -> None:
    text = (
        'ARG PYVERSION="3.6.5"\nARG PYTORCH="1.5.1"\n'
        "FROM pytorch/pytorch:${PYTORCH}-cuda10.1-cudnn7-devel\n"
        "# RUN conda install python=${PYVERSION}\nRUN pip install pretrainedmodels\n"
    )
    assert parse_text(text, filename="Dockerfile", base=None).python is None
    used = text.replace("# RUN conda install", "RUN conda install")
    assert parse_text(used, filename="Dockerfile", base=None).python == "3.6"


def test_an_install_command_at_the_end_of_a_prose_line(matrix: Matrix) -> None:
    text = (
        "# Environment\n1. create Anaconda environment via conda create -n myenv\n\n"
        "2. install torch, e.g. with cuda=10.2: conda install pytorch==1.7.1 torchvision==0.8.2 "
        "torchaudio==0.7.2 cudatoolkit=10.2 -c pytorch\n\nNote: pip install may fail here.\n"
    )
    keys = import_keys(text, "README.md", matrix, "2022-10-01")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == (
        "1.7.1",
        ["cu102"],
        ["conda"],
    )


def test_a_shell_session_under_a_yaml_fence(tmp_path: Path) -> None:
    (tmp_path / "requirements.txt").write_text("torch>=1.10.0\n")
    (tmp_path / "README.md").write_text(
        "Install dependencies\n\n```yaml\n# [OPTIONAL] create conda environment\n"
        "conda create -n myenv python=3.9\nconda activate myenv\n\n"
        "pip install -r requirements.txt\n```\n"
    )
    found = parse_file(tmp_path / "README.md")
    assert (found.python, found.torch is not None) == ("3.9", True)
    # a real YAML block stays YAML
    yaml_block = "```yaml\nname: x\ndependencies:\n  - torch\n```\n"
    assert parse_text(yaml_block, filename="README.md", base=None).torch is None


def test_a_requirements_line_with_its_first_item() -> None:
    text = "Requirements: Ubuntu 16.0.4;\n  Python 3.6.7;\n  Pytorch 1.0.0;\n  mxnet 1.3.1;\n"
    found = parse_text(text, filename="README.md", base=None)
    assert found.python == "3.6"


def test_virtualenv_python_with_an_equals_sign() -> None:
    text = "virtualenv --python=/usr/bin/python3.10 venv\nsource venv/bin/activate\npip install torch\n"
    assert parse_text(text, filename="install.sh", base=None).python == "3.10"


def test_poetry_wildcard_python_is_that_minor() -> None:
    text = '[tool.poetry.dependencies]\npython = "3.12.*"\ntorch = "2.12.0"\n'
    assert parse_text(text, filename="pyproject.toml", base=None).python == "3.12"


# The review of the mechanisms above: what they must not change.


def test_a_wheel_file_in_the_folder_is_no_project() -> None:
    text = "pip install ./torch-1.8.0+cu111-cp38-cp38-linux_x86_64.whl\n"
    found = parse_text(text, filename="install.sh", base=None)
    assert found.torch is not None
    assert (found.torch.version, found.torch.label, found.python) == ("1.8.0", "cu111", "3.8")


def test_a_cloned_project_after_cd_is_not_the_papers(tmp_path: Path) -> None:
    """NVIDIA apex's install: `cd apex && pip install ./` builds apex, not the paper's setup.py."""
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\nsetup(name='paper', install_requires=['torch==1.4.0'])\n"
    )
    (tmp_path / "requirements.txt").write_text("torch==1.9.0\n")
    (tmp_path / "install.sh").write_text(
        "pip install -r requirements.txt\ngit clone https://github.com/NVIDIA/apex\ncd apex\n"
        "pip install -v --no-cache-dir ./\n"
    )
    found = parse_file(tmp_path / "install.sh")
    assert found.torch is not None
    assert found.torch.version == "1.9.0"
    assert any("a project the file did not bring along" in w for w in found.warnings)
    # in an image: a folder no COPY put there is not the context's project either
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.8\nCOPY requirements.txt /tmp/\nRUN pip install -r /tmp/requirements.txt\n"
        "RUN git clone https://github.com/NVIDIA/apex && cd apex && pip install ./\n"
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert found.torch.version == "1.9.0"


def test_no_deps_installs_the_project_alone(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        '[project]\nname = "x"\ndependencies = []\n'
        '[project.optional-dependencies]\ntrain = ["torch==2.1.0"]\n',
    )
    (root / "requirements.txt").write_text("torch==1.13.1\n")
    (root / "setup.sh").write_text(
        'pip install -r requirements.txt\npip install --no-deps -e ".[train]"\n'
    )
    found = parse_file(root / "setup.sh")
    assert found.torch is not None
    assert found.torch.version == "1.13.1"


@pytest.mark.parametrize(
    ("text", "filename", "as_of"),
    [
        # a 2.4/2.5 the pytorch channel also has keeps its builds: what project.yaml's default
        # conda source (the pytorch channel) can lock
        (
            "name: x\nchannels: [conda-forge, pytorch]\ndependencies: [python=3.10, pytorch=2.4.0]\n",
            "environment.yml",
            "2024-10-01",
        ),
        (
            "name: x\nchannels: [conda-forge, pytorch, nvidia]\ndependencies: [python=3.11, pytorch]\n",
            "environment.yml",
            "2025-06-01",
        ),
        (PIXI_GPU, "pixi.toml", "2026-01-20"),
    ],
)
def test_a_conda_forge_import_is_a_project_the_matrix_expands(
    matrix: Matrix, text: str, filename: str, as_of: str
) -> None:
    from envgen.model.spec import parse_spec
    from envgen.model.variants import expand

    result = import_text(text, filename=filename, matrix=matrix, as_of=dt.date.fromisoformat(as_of))
    assert result.project["managers"] == ["conda"]
    expansion = expand(parse_spec(result.text, path=Path("project.yaml")), matrix)
    assert [v.id for v in expansion.variants] == result.project["accelerators"]


def test_a_pixi_table_in_pyproject_solves_for_no_gpu_too(matrix: Matrix) -> None:
    text = (
        '[project]\nname = "x"\n[tool.pixi.workspace]\nchannels = ["conda-forge"]\n'
        'platforms = ["linux-64"]\n[tool.pixi.dependencies]\npython = "3.11.*"\npytorch = "2.6.*"\n'
    )
    keys = import_keys(text, "pyproject.toml", matrix, "2025-06-01")
    assert keys["accelerators"] == ["cpu"]


def test_cuda_bounds_no_build_meets_are_said(matrix: Matrix) -> None:
    text = PIXI_GPU.replace('cuda = "12.0"', 'cuda = "11.8"').replace('cuda-version = "12.*"\n', "")
    result = import_text(text, filename="pixi.toml", matrix=matrix, as_of=dt.date(2026, 1, 20))
    assert result.project["accelerators"] == ["cpu"]
    assert any("none of them within __cuda 11.8" in w for w in result.warnings)


@pytest.mark.parametrize(
    "line",
    [
        "Known issue: pip install torch==1.13.0 breaks CUDA 11.6 setups",
        "Update (2023): pip install torch==2.0.1 now works",
    ],
)
def test_a_sentence_that_quotes_a_command_is_no_command(line: str) -> None:
    found = parse_text(f"# Install\n\n{line}\n", filename="README.md", base=None)
    assert not any(r in {"breaks", "now", "works", "setups"} for r in found.pip_reqs)


def test_a_powershell_block_stays_another_readers() -> None:
    text = (
        "```bash\npip install torch==1.8.1+cu111 -f https://download.pytorch.org/whl/torch_stable.html\n```\n"
        "```powershell\npip install torch==1.8.1+cpu -f https://download.pytorch.org/whl/torch_stable.html\n```\n"
    )
    found = parse_text(text, filename="README.md", base=None)
    assert found.torch is not None
    assert found.torch.label == "cu111"
    assert not any(c.accelerator == "cpu" for c in found.compute)


def test_a_copy_from_another_stage_does_not_widen_the_context(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "requirements.txt").write_text("torch==2.1.0\n")
    (tmp_path / "docker" / "Dockerfile").write_text(
        "FROM python:3.10 AS build\nRUN mkdir /docker\nFROM python:3.10\n"
        "COPY --from=build /docker/ /opt/\nRUN pip install -r requirements.txt\n"
    )
    found = parse_file(tmp_path / "docker" / "Dockerfile")
    assert found.torch is None  # the context stays docker/, which has no requirements.txt


def test_a_readmes_own_clone_is_the_project_it_installs(tmp_path: Path) -> None:
    root = _project(tmp_path, '[project]\nname = "paper"\ndependencies = ["torch==2.1.0"]\n')
    (root / "README.md").write_text(
        "## Install\n```bash\ngit clone https://github.com/me/paper.git\ncd ./paper/\n"
        "pip install -e .\n```\n"
    )
    found = parse_file(root / "README.md")
    assert found.torch is not None
    assert found.torch.version == "2.1.0"
    # a second clone (a dependency) is another project
    (root / "README.md").write_text(
        "```bash\ngit clone https://github.com/me/paper\ncd paper\n"
        "git clone https://github.com/NVIDIA/apex\ncd apex\npip install ./\n```\n"
    )
    found = parse_file(root / "README.md")
    assert found.torch is None


def test_setuptools_dynamic_dependencies_are_read_from_their_file(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        '[project]\nname = "x"\ndynamic = ["dependencies"]\n'
        '[tool.setuptools.dynamic]\ndependencies = {file = ["requirements.txt"]}\n',
    )
    (root / "requirements.txt").write_text("torch==1.13.1\n")
    found = parse_file(root / "pyproject.toml")
    assert found.torch is not None
    assert found.torch.version == "1.13.1"
    (root / "setup.sh").write_text("pip install -e .\n")
    assert parse_file(root / "setup.sh").torch is not None


def test_an_extra_that_names_the_project_installs_its_extras(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        '[project]\nname = "My_Pkg"\ndependencies = ["numpy"]\n[project.optional-dependencies]\n'
        'train = ["torch==2.1.0"]\nall = ["my-pkg[train]", "rich"]\n',
    )
    (root / "install.sh").write_text('pip install ".[all]"\n')
    found = parse_file(root / "install.sh")
    assert found.torch is not None
    assert found.torch.version == "2.1.0"
    assert "rich" in found.pip_reqs
    assert not any("my-pkg" in r.lower() or "my_pkg" in r.lower() for r in found.pip_reqs)


def test_an_editable_line_in_a_requirements_file_or_pip_list_is_the_project(
    tmp_path: Path,
) -> None:
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\nsetup(name='x', install_requires=['torch==1.10.0'])\n"
    )
    (tmp_path / "requirements.txt").write_text("numpy==1.21.0\n-e .\n")
    found = parse_file(tmp_path / "requirements.txt")
    assert found.torch is not None
    assert found.torch.version == "1.10.0"
    (tmp_path / "environment.yml").write_text(
        "name: x\ndependencies:\n  - python=3.8\n  - pip\n  - pip:\n    - -e .\n"
    )
    found = parse_file(tmp_path / "environment.yml")
    assert found.torch is not None
    assert found.torch.version == "1.10.0"
    # a VCS URL stays what it was: not a package envgen can lock
    (tmp_path / "requirements.txt").write_text("-e git+https://github.com/x/y.git#egg=y\n")
    found = parse_file(tmp_path / "requirements.txt")
    assert any("is not a package envgen can lock" in w for w in found.warnings)


def test_a_subshells_cd_ends_with_it(tmp_path: Path) -> None:
    (tmp_path / "apex-reqs.txt").write_text("packaging\n")
    (tmp_path / "requirements.txt").write_text("torch==1.13.1\n")
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.9\nCOPY apex-reqs.txt /opt/apex/requirements.txt\n"
        "COPY requirements.txt /work/requirements.txt\nWORKDIR /work\n"
        "RUN (cd /opt/apex && pip install -r requirements.txt) && pip install -r requirements.txt\n"
    )
    found = parse_file(tmp_path / "Dockerfile")
    assert found.torch is not None
    assert found.torch.version == "1.13.1"
    assert "packaging" in found.pip_reqs


def test_a_folder_import_keeps_the_conda_forge_facts(tmp_path: Path, matrix: Matrix) -> None:
    """A repository import merges sources: the pixi manifest's missing __cuda must survive it."""
    from envgen.repro.entry import run_import
    from envgen.repro.importer import ImportOptions

    (tmp_path / "pixi.toml").write_text(
        '[workspace]\nchannels = ["conda-forge"]\nplatforms = ["linux-64"]\n'
        '[dependencies]\npython = "3.11.*"\npytorch = "==2.6.0"\n'
    )
    as_file = run_import(ImportOptions(source=tmp_path / "pixi.toml", as_of="2025-06-01"), matrix)
    as_folder = run_import(ImportOptions(source=tmp_path, as_of="2025-06-01"), matrix)
    assert as_file.project["accelerators"] == as_folder.project["accelerators"] == ["cpu"]


def test_a_subshells_variables_end_with_it() -> None:
    found = parse_text("(V=1.7.1; cd x)\npip install torch==$V\n", filename="install.sh", base=None)
    assert found.torch is None  # bash expands $V to nothing out here
    found = parse_text("V=1.7.1\n(cd x)\npip install torch==$V\n", filename="install.sh", base=None)
    assert found.torch is not None
    assert found.torch.version == "1.7.1"
