"""The mechanisms the thirteenth held-out draw's misses asked for (issue 24), each on real-shaped
input written here: a Dockerfile built from the checkout root (COPY of a folder only the root
has, its own folder named from two levels up, `COPY .` with the project's setup.py at the root),
setup.py's `extras["all"]` comprehension, a command quoted in README prose, `Create a Python3.8
environment`, the python rule on the pip route (torch's linux wheels, exact companions from a
PyTorch index), conda's `namespace:name`, a failing precondition on a file test, `read VAR`,
`for opt; do` over no arguments, `${BASH_SOURCE[0]}` with `cd ... && pwd`, a labelled pip torch
over conda's cpuonly one, `pipenv run`, `hatch run env:script`, a companion range after its exact
pin, `python~=3.10.12`, `CMD python3.6`, `Bootstrap: library`, Poetry's compound constraint and
a package installed from a URL."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, build_project, parse_file, parse_text
from envgen.repro.wheels import PinWheels
from tests.support.importing import import_file_keys, import_keys

PAGES = Path(__file__).parents[2] / "data" / "recorded" / "pypi-simple"


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _checkout(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    (root / ".git").mkdir()
    return root


def _torch(found: object) -> str | None:
    torch = getattr(found, "torch", None)
    return torch.version if torch is not None else None


# --- Dockerfiles built from the checkout root ------------------------------------------------------
def test_a_dockerfile_copying_a_folder_only_the_root_has_is_built_from_the_root(
    tmp_path: Path,
) -> None:
    root = _checkout(tmp_path)
    (root / "requirements").mkdir()
    (root / "requirements" / "requirements.txt").write_text("torch==1.0.0\n")
    (root / "docker").mkdir()
    (root / "docker" / "Dockerfile").write_text(
        "FROM nvidia/cuda:9.0-cudnn7-runtime-ubuntu16.04\n"
        "COPY requirements/requirements.txt /tmp/requirements.txt\n"
        "RUN pip install -r /tmp/requirements.txt\n"
    )
    assert _torch(parse_file(root / "docker" / "Dockerfile")) == "1.0.0"
    # the Dockerfile's own folder has the file: its own folder is the context
    (root / "docker" / "requirements").mkdir()
    (root / "docker" / "requirements" / "requirements.txt").write_text("torch==2.0.1\n")
    assert _torch(parse_file(root / "docker" / "Dockerfile")) == "2.0.1"


def test_a_dockerfile_naming_its_own_folder_from_two_levels_up(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    own = root / "docker" / "notebook"
    own.mkdir(parents=True)
    (own / "requirements.txt").write_text("torch==2.8.0\n")
    (own / "Dockerfile").write_text(
        "FROM python:3.11-slim\nWORKDIR /app\n"
        "COPY ./docker/notebook/requirements.txt .\nRUN pip install -r requirements.txt\n"
    )
    found = parse_file(own / "Dockerfile")
    assert (_torch(found), found.python) == ("2.8.0", "3.11")


def test_copy_dot_from_a_subfolder_finds_the_project_at_the_root(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    (root / "setup.py").write_text(
        "from setuptools import setup\n"
        'extras = {"dev": ["pytest"], "agent": ["torch>=1.3.1"]}\n'
        'extras["all"] = [item for group in extras.values() for item in group]\n'
        'setup(name="x", install_requires=["numpy"], extras_require=extras)\n'
    )
    (root / "docker").mkdir()
    (root / "docker" / "Dockerfile-focal").write_text(
        "FROM nvidia/cuda:11.4.3-devel-ubuntu20.04\nCOPY . /opt/x/\nWORKDIR /opt/x\n"
        "RUN pip install '.[all]'\n"
    )
    found = parse_file(root / "docker" / "Dockerfile-focal")
    assert found.torch is not None
    assert found.torch.specifier == ">=1.3.1"


def test_setup_py_all_extra_built_from_the_others(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\n"
        'extras = {"a": ["torch==2.1.0"], "b": ["tqdm"]}\n'
        'extras["all"] = [r for g in extras.values() for r in g]\n'
        'setup(name="x", extras_require=extras)\n'
    )
    (tmp_path / "all.sh").write_text("pip install -e .[all]\n")
    (tmp_path / "b.sh").write_text("pip install -e .[b]\n")
    assert _torch(parse_file(tmp_path / "all.sh")) == "2.1.0"
    assert _torch(parse_file(tmp_path / "b.sh")) is None


# --- READMEs ---------------------------------------------------------------------------------------
README = """\
# medical_pytorch

To install with Anaconda:
0. (Create a Python3.8 environment, e.g. as conda create -n <env_name> python=3.8, and activate)
2. Install PyTorch; the command for Linux was at the time 'conda install pytorch torchvision cudatoolkit=10.2 -c pytorch'
4. Execute 'pip install -r requirements.txt'
"""


def test_a_quoted_command_in_prose_and_a_python_the_steps_make(matrix: Matrix) -> None:
    assert import_keys(README, "README.md", matrix, "2020-10-12") == {
        "python": "3.8", "torch": "1.6.0", "torchvision": True, "torchaudio": False,
        "accelerators": ["cu102"], "managers": ["conda"],
    }  # fmt: skip


# --- the python rule on the pip route --------------------------------------------------------------
def _wheel(requirement: str, pythons: set[str]) -> PinWheels:
    return PinWheels(requirement=requirement, pythons=frozenset(pythons), how="test wheels")


def test_a_pin_without_the_python_torch_has_no_linux_wheel_for_rules_nothing_out(
    matrix: Matrix,
) -> None:
    # torch 1.10.2 lists 3.10 (its aarch64 and macOS wheels); its linux x86_64 ones stop at cp39
    found = parse_text("torch==1.10.2\ntornado==6.1\n", filename="requirements.txt", base=None)
    tornado = _wheel("tornado==6.1", {"3.6", "3.7", "3.8", "3.9"})
    project, _ = build_project(found, matrix, name="p", wheels=[tornado])
    assert "python" not in project
    # a pin that stops below torch's linux wheels still decides
    older = _wheel("tornado==6.1", {"3.6", "3.7", "3.8"})
    project, _ = build_project(found, matrix, name="p", wheels=[older])
    assert project["python"] == "3.8"


def test_an_exact_companion_from_a_pytorch_index_counts(matrix: Matrix) -> None:
    text = (
        "--extra-index-url https://download.pytorch.org/whl/cu116\n"
        "torch==1.13.0+cu116\ntorchvision==0.14.0+cu116\n"
    )
    found = parse_text(text, filename="requirements.txt", base=None)
    project, warnings = build_project(found, matrix, name="p", wheels=[])
    assert project["python"] == "3.10"  # torchvision 0.14.0's wheels stop at cp310
    assert any("inferred for the PyTorch index's" in w for w in warnings)


# --- conda -----------------------------------------------------------------------------------------
def test_a_conda_namespace_names_no_channel(matrix: Matrix) -> None:
    text = (
        "channels: [pyg, pytorch, nvidia, conda-forge]\ndependencies:\n  - python=3.11.*\n"
        "  - pytorch:pytorch=2.1.*\n  - pytorch:pytorch-cuda=11.8\n"
    )
    keys = import_keys(text, "environment.yml", matrix, "2025-02-13")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == (
        "2.1.2",
        ["cu118"],
        ["conda"],
    )


def test_conda_python_compatible_release_names_the_minor() -> None:
    found = parse_text("conda install python~=3.10.12 pip\n", filename="setup.sh", base=None)
    assert found.python == "3.10"
    found = parse_text("conda install 'python~=3.10' pip\n", filename="setup.sh", base=None)
    assert found.python is None  # >=3.10, <4: a floor


def test_a_labelled_pip_torch_replaces_conda_cpuonly(matrix: Matrix) -> None:
    text = (
        "conda create -y -n q python=3.7\nconda activate q\n"
        "conda install -y pytorch torchvision cpuonly -c pytorch\n"
        "pip install torch==1.5.0+cu101 -f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    keys = import_keys(text, "create_env.sh", matrix, "2022-03-13")
    assert (keys["torch"], keys["accelerators"], keys["managers"]) == ("1.5.0", ["cu101"], ["pip"])


# --- the shell interpreter -------------------------------------------------------------------------
def _commands(text: str, **env: str) -> list[str]:
    return [c.text for c in shell.interpret(text, kind="sh", env=env, probe=None).commands]


def test_read_keeps_the_word_the_user_types() -> None:
    text = (
        'read -p "Create new env ([Y]/n)?" answer\nread env_name\n'
        'if [ "$answer" == "n" ]; then echo bye; else\n'
        "  conda create --name $env_name python=3.6\n  conda activate $env_name\nfi\n"
    )
    assert _commands(text) == [
        "conda create --name $env_name python=3.6",
        "conda activate $env_name",
    ]


def test_a_for_loop_over_no_arguments_never_runs() -> None:
    text = 'for opt; do\n  case "$1" in\n  (*) echo usage; exit 1;;\n  esac\ndone\npip install x\n'
    assert _commands(text) == ["pip install x"]
    fn = "f() {\n  for a; do pip install $a; done\n}\nf torch tqdm\n"
    assert _commands(fn) == ["pip install torch", "pip install tqdm"]


def test_bash_source_and_cd_pwd_give_the_script_folder() -> None:
    text = (
        'script_dir="$( cd "$( dirname "${BASH_SOURCE[0]}" )" >/dev/null 2>&1 && pwd )"\n'
        "pip install -r ${script_dir}/requirements.txt\n"
    )
    assert _commands(text, **{"0": "tools/create_env.sh"}) == [
        "pip install -r tools/requirements.txt"
    ]


def test_a_file_test_that_only_fails_is_a_precondition(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    (root / "install.sh").write_text(
        'if [ -d "venv" ]; then\n  source venv/bin/activate\nelse\n'
        '  echo "run start_demo.sh first"\n  exit 1\nfi\n'
        "pip install torch==2.8.0 --index-url https://download.pytorch.org/whl/cpu\n"
    )
    assert _torch(parse_file(root / "install.sh")) == "2.8.0"
    (root / "guard.sh").write_text(
        'if [ ! -f .env ]; then\n  echo "no .env"\n  exit 1\nfi\npip install torch==2.1.0\n'
    )
    assert _torch(parse_file(root / "guard.sh")) == "2.1.0"


def test_a_branch_that_works_and_returns_is_the_route(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    (root / "install.sh").write_text(
        'make_env() {\n  if [ ! -d "$VENV" ]; then\n    uv venv --python 3.9 "$VENV"\n'
        "    return\n  fi\n}\nVENV=.venv\nmake_env\nuv pip install torch==2.5.1\n"
    )
    found = parse_file(root / "install.sh")
    assert (_torch(found), found.python) == ("2.5.1", "3.9")


# --- pipenv, hatch ---------------------------------------------------------------------------------
def test_pipenv_run_uses_the_pipfile_python(tmp_path: Path) -> None:
    (tmp_path / "Pipfile").write_text(
        '[packages]\nnumpy = "*"\n\n[requires]\npython_version = "3.8"\n'
    )
    (tmp_path / "install.sh").write_text(
        "pipenv run pip install torch==1.8.1+cu111 "
        "-f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    found = parse_file(tmp_path / "install.sh")
    assert (_torch(found), found.python) == ("1.8.1", "3.8")
    assert "numpy" not in found.pip_reqs  # `pipenv run` installs no package


def test_hatch_run_reads_the_environment_script(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = []\n\n'
        "[tool.hatch.envs.ci]\nskip-install = true\n"
        'dependencies = ["pytest"]\n\n[tool.hatch.envs.ci.scripts]\ntest-inference = [\n'
        '  "pip install torch==2.0.1+cu118 torchvision==0.15.2+cu118 --index-url '
        'https://download.pytorch.org/whl/cu118",\n'
        '  "pip install -r requirements.txt",\n  "pytest {args}",\n]\n'
    )
    (tmp_path / "requirements.txt").write_text("torch>=2.0.1\ntorchvision>=0.15.2\n")
    (tmp_path / "ci.sh").write_text("pip install hatch\nhatch run ci:test-inference -x\n")
    keys = import_file_keys(tmp_path / "ci.sh", matrix, "2023-07-26")
    assert (keys["torch"], keys["torchvision"], keys["accelerators"]) == (
        "2.0.1", "0.15.2", ["cu118"],
    )  # fmt: skip


# --- Dockerfile CMD, definition files, Poetry, URL packages ----------------------------------------
def test_the_image_program_names_its_python() -> None:
    text = 'FROM pytorch/pytorch:1.0.1-cuda10.0-cudnn7-runtime\nCMD ["python3.6", "server.py"]\n'
    assert parse_text(text, filename="Dockerfile", base=None).python == "3.6"


def test_a_library_bootstrap_of_an_os_is_that_docker_image() -> None:
    text = (
        "Bootstrap: library\nFrom: ubuntu:18.04\n\n%post\n"
        "    apt-get install -y python3 python3-pip\n    pip3 install torch numpy\n"
    )
    assert parse_text(text, filename="version-1.def", base=None).python == "3.6"


def test_poetry_compound_constraint(matrix: Matrix) -> None:
    text = (
        '[tool.poetry]\nname = "x"\nversion = "0"\n\n[tool.poetry.dependencies]\n'
        'python = "^3.11"\ntorch = "^2.0.0, !=2.0.1, !=2.1.0"\n'
    )
    assert import_keys(text, "pyproject.toml", matrix, "2026-04-02")["torch"] == "2.11.0"


def test_a_package_installed_from_a_url_brings_what_its_release_requires(
    tmp_path: Path, matrix: Matrix
) -> None:
    """timm from git: its newest release as of the date (0.6.12) stands in, read from the
    recorded core metadata (torchvision, unpinned)."""
    (tmp_path / "requirements.txt").write_text(
        "torch==1.12.1+cu116\n"
        "timm @ git+https://github.com/rwightman/pytorch-image-models@1d8ada35\n"
    )
    result = run_import(
        ImportOptions(
            source=tmp_path / "requirements.txt",
            as_of="2022-12-28",
            pypi_index=PAGES.as_uri(),
            cache_root=tmp_path / "cache",
        ),
        matrix,
    )
    assert result.project["torchvision"] is True
    assert any("standing in for the URL" in w for w in result.warnings)


# --- the review's cases ----------------------------------------------------------------------------
def test_a_variable_read_inside_a_word_is_unknown_not_kept() -> None:
    text = (
        'read -p "CUDA version (e.g. 111): " CUDA\n'
        "pip install torch==1.8.1+cu${CUDA} -f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    assert _commands(text) == [
        "pip install torch==1.8.1+cu -f https://download.pytorch.org/whl/torch_stable.html"
    ]


def test_the_nearest_folder_holding_the_copied_files_is_the_context(tmp_path: Path) -> None:
    root = _checkout(tmp_path)
    (root / "requirements.txt").write_text("torch==2.0.1\n")
    serving = root / "benchmarks" / "serving"
    (serving / "docker").mkdir(parents=True)
    (serving / "requirements.txt").write_text("torch==1.13.1\n")
    (serving / "docker" / "Dockerfile").write_text(
        "FROM python:3.10\nCOPY requirements.txt /tmp/\nRUN pip install -r /tmp/requirements.txt\n"
    )
    assert _torch(parse_file(serving / "docker" / "Dockerfile")) == "1.13.1"


def test_a_dockerfile_imported_from_its_own_folder_finds_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _checkout(tmp_path)
    (root / "requirements").mkdir()
    (root / "requirements" / "requirements.txt").write_text("torch==1.0.0\n")
    (root / "docker").mkdir()
    (root / "docker" / "Dockerfile").write_text(
        "FROM ubuntu:18.04\nCOPY requirements/requirements.txt /tmp/r.txt\n"
        "RUN pip install -r /tmp/r.txt\n"
    )
    monkeypatch.chdir(root / "docker")
    assert _torch(parse_file(Path("Dockerfile"))) == "1.0.0"


def test_hatch_environments_inherit_their_template(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\n\n[tool.hatch.envs.default]\npython = "3.10"\n'
        'dependencies = ["torch==2.0.1"]\n\n[tool.hatch.envs.test]\nextra-dependencies = ["pytest"]\n'
        '[tool.hatch.envs.test.scripts]\ncov = "pytest --cov"\n\n'
        "[tool.hatch.envs.docs]\ndetached = true\n"
        'dependencies = ["mkdocs"]\n[tool.hatch.envs.docs.scripts]\nbuild = "mkdocs build"\n'
    )
    (tmp_path / "ci.sh").write_text("hatch run test:cov\n")
    found = parse_file(tmp_path / "ci.sh")
    assert (_torch(found), found.python) == ("2.0.1", "3.10")
    assert "pytest" in found.pip_reqs
    (tmp_path / "docs.sh").write_text("hatch run docs:build\n")
    assert _torch(parse_file(tmp_path / "docs.sh")) is None  # detached: nothing inherited


def test_a_hatch_script_that_runs_itself_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[tool.hatch.envs.default]\nskip-install = true\n[tool.hatch.envs.default.scripts]\n"
        'a = ["pip install torch==2.1.0", "hatch run a"]\n'
    )
    (tmp_path / "ci.sh").write_text("hatch run a\n")
    found = parse_file(tmp_path / "ci.sh")
    assert _torch(found) == "2.1.0"
    assert any("runs itself" in w for w in found.warnings)


def test_an_extra_set_again_replaces_the_earlier_list(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\n"
        'extras = {"gpu": ["torch==1.7.1"], "b": ["tqdm"]}\nextras["gpu"] = ["torch==1.9.0"]\n'
        'extras["all"] = [r for g in extras.values() for r in g]\n'
        'setup(name="x", extras_require=extras)\n'
    )
    (tmp_path / "all.sh").write_text("pip install -e .[all]\n")
    found = parse_file(tmp_path / "all.sh")
    assert _torch(found) == "1.9.0"
    assert not found.departures


# --- the fourteenth draw's misses ------------------------------------------------------------------
def test_a_usage_check_on_the_argument_count_is_a_precondition(matrix: Matrix) -> None:
    text = (
        'if [ $# -lt 2 ]; then\n  echo "bash install.sh /path/to/conda env_name"\n  exit 1\nfi\n'
        "conda create -y --name $2 python=3.7\nconda activate $2\n"
        "conda install -y pytorch=0.4.1 torchvision cuda90 -c pytorch\n"
    )
    keys = import_keys(text, "install.sh", matrix, "2019-05-12")
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.7", "0.4.1", ["cu90"])


def test_a_conda_environment_saved_as_requirements_txt(matrix: Matrix) -> None:
    text = (
        "name: env\nchannels:\n  - pytorch\n  - defaults\ndependencies:\n"
        "  - python=3.7.6=h0371630_2\n  - pytorch=1.4.0=py3.7_cuda10.0.130_cudnn7.6.3_0\n"
        "  - cudatoolkit=10.0.130=0\n"
    )
    keys = import_keys(text, "requirements.txt", matrix, "2020-03-25")
    assert (keys["python"], keys["torch"], keys["accelerators"]) == ("3.7", "1.4.0", ["cu100"])


def test_a_pure_python_torchvision_binds_no_release(matrix: Matrix) -> None:
    # torchvision 0.1.9's Requires-Dist names no torch version: pytorch<0.4 with cuda90 is 0.3.1
    text = (
        "channels: [pytorch, defaults]\ndependencies:\n  - cuda90\n  - pytorch<0.4\n  - pip\n"
        "  - pip:\n    - torchvision==0.1.9\n"
    )
    keys = import_keys(text, "environment.yml", matrix, "2020-03-14")
    assert (keys["torch"], keys["torchvision"], keys["accelerators"]) == (
        "0.3.1",
        "0.1.9",
        ["cu90"],
    )


def test_setup_py_dependency_groups_from_a_line_splitting_helper(tmp_path: Path) -> None:
    (tmp_path / "setup.py").write_text(
        "import re\nfrom setuptools import setup\n"
        "def cleanup(x): return re.sub(r' *#.*', '', x.strip())\n"
        "def to_list(buffer): return list(filter(None, map(cleanup, buffer.splitlines())))\n"
        "dep_groups = {\n"
        "    'core': to_list('''\n        numpy>=1.15   # arrays\n        torch>=1.0.0\n'''),\n"
        "    'vision': to_list('''\n        torchvision\n'''),\n}\n"
        "requirements = [y for x in dep_groups.values() for y in x]\n"
        "setup(name='x', install_requires=requirements)\n"
    )
    found = parse_file(tmp_path / "setup.py")
    assert found.torch is not None
    assert found.torch.specifier == ">=1.0.0"
    assert "torchvision" in found.companions
    assert "numpy>=1.15" in found.pip_reqs


def test_uv_sync_installs_the_projects_dependencies(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\nrequires-python = "==3.14.*"\n'
        'dependencies = ["numpy>=2.3.2", "torch>=2.9"]\n\n[project.optional-dependencies]\n'
        'vision = ["torchvision"]\n'
    )
    (tmp_path / "ci.sh").write_text("uv sync --no-install-project --python 3.14\n")
    keys = import_file_keys(tmp_path / "ci.sh", matrix, "2026-07-22")
    assert (keys["python"], keys["torch"], keys["torchvision"]) == ("3.14", "2.13.0", False)
    (tmp_path / "all.sh").write_text("uv sync --all-extras\n")
    assert import_file_keys(tmp_path / "all.sh", matrix, "2026-07-22")["torchvision"] is True
    (tmp_path / "uv.lock").write_text("version = 1\n")
    found = parse_file(tmp_path / "ci.sh")
    # a lock that is not one is said, and the project's requirements are read instead
    assert any(
        "not a uv.lock" in w and "requirements are read instead" in w for w in found.warnings
    )
    assert found.torch is not None
    assert found.torch.specifier == ">=2.9"


def test_pypi_newer_than_an_extra_index_wins(matrix: Matrix) -> None:
    text = (
        "pip install torch torchvision --extra-index-url https://download.pytorch.org/whl/cu121\n"
    )
    keys = import_keys(text, "install_torch.sh", matrix, "2026-02-27")
    assert (keys["torch"], keys["accelerators"]) == ("2.10.0", ["cu128"])
    # while the index still had the newest release, its build is what pip takes
    keys = import_keys(text, "install_torch.sh", matrix, "2024-03-01")
    assert (keys["torch"], keys["accelerators"]) == ("2.2.1", ["cu121"])
