"""The mechanisms of the twenty-fourth stop (issue 24), each on real-shaped input written here:
uv's searched indexes (a `[[tool.uv.index]]` not marked `explicit`, a `default = true` one, the
older `extra-index-url`), which uv searches before PyPI and takes torch from; and the families the
twenty-fourth held-out draw's misses asked for."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from envgen.repro.text_tools import stage_output
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


# --- uv's searched indexes --------------------------------------------------------------------------
_HEAD = """[project]
name = "x"
version = "0.1"
requires-python = ">=3.10"
dependencies = ["torch>=2.4", "torchvision"]

"""


@pytest.mark.parametrize(
    "tool",
    [
        # searched before PyPI (uv's first-index strategy), though no source names it
        '[[tool.uv.index]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu118"\n',
        # the default index replaces PyPI
        '[[tool.uv.index]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu118"\n'
        "default = true\n",
        # the older settings
        '[tool.uv]\nextra-index-url = ["https://download.pytorch.org/whl/cu118"]\n',
        '[tool.uv]\nindex-url = "https://download.pytorch.org/whl/cu118"\n',
        # an explicit index serves only the packages a source routes to it; torch's source wins
        '[[tool.uv.index]]\nname = "cpu"\nurl = "https://download.pytorch.org/whl/cpu"\n\n'
        '[[tool.uv.index]]\nname = "cu118"\nurl = "https://download.pytorch.org/whl/cu118"\n'
        'explicit = true\n\n[tool.uv.sources]\ntorch = { index = "cu118" }\n',
    ],
)
def test_uv_takes_torch_from_the_first_pytorch_index_it_searches(tool: str, matrix: Matrix) -> None:
    got = import_keys(_HEAD + tool, "pyproject.toml", matrix, "2024-10-01")
    # PyPI's 2.4.1 is the cu121 build; the cu118 index has its own
    assert (got["torch"], got["accelerators"]) == ("2.4.1", ["cu118"])


def test_an_explicit_index_no_source_names_is_not_searched(matrix: Matrix) -> None:
    tool = (
        '[[tool.uv.index]]\nname = "pytorch"\nurl = "https://download.pytorch.org/whl/cu118"\n'
        "explicit = true\n"
    )
    got = import_keys(_HEAD + tool, "pyproject.toml", matrix, "2024-10-01")
    assert (got["torch"], got["accelerators"]) == ("2.4.1", ["cu121"])


# --- conda-forge's first build of a release ---------------------------------------------------------
_FORGE_ENV = "name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python=3.11\n  - pytorch\n"


@pytest.mark.parametrize(
    ("as_of", "torch"),
    [
        # PyPI had 2.9.0 on 2025-10-15; the feedstock first built it on 2025-11-02
        ("2025-10-20", "2.8.0"),
        ("2025-11-05", "2.9.0"),
        # 2.11.0 came to PyPI on 2026-03-23, to conda-forge on 2026-06-01
        ("2026-04-15", "2.10.0"),
    ],
)
def test_an_unpinned_conda_forge_pytorch_is_what_conda_forge_had_built(
    as_of: str, torch: str, matrix: Matrix
) -> None:
    got = import_keys(_FORGE_ENV, "environment.yml", matrix, as_of)
    assert (got["torch"], got["managers"]) == (torch, ["conda"])


def test_the_first_build_date_does_not_bind_pip_or_the_pytorch_channel(matrix: Matrix) -> None:
    pip = import_keys("torch\n", "requirements.txt", matrix, "2026-04-15")
    assert pip["torch"] == "2.11.0"
    # 2.4.0: the pytorch channel built it, which the file lists first
    env = _FORGE_ENV.replace("  - conda-forge\n", "  - pytorch\n  - conda-forge\n")
    assert import_keys(env, "environment.yml", matrix, "2024-08-01")["torch"] == "2.4.0"


# --- the twenty-fourth draw's families -------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "accelerator"),
    [
        # whl/torch_stable.html lists every build; pip takes the greatest local version
        # (pytorch/pytorch#53821: `torch==1.8.0 -f torch_stable.html` gave +rocm4.0.1)
        ("torch==1.8.0 -f https://download.pytorch.org/whl/torch_stable.html", "rocm4.0.1"),
        ("torch==1.2.0 -f https://download.pytorch.org/whl/torch_stable.html", "cu92"),
        ("torch==1.7.1 -f https://download.pytorch.org/whl/torch_stable.html", "cu92"),
        # === matches the plain version only: PyPI's build
        ("torch===1.7.1 -f https://download.pytorch.org/whl/torch_stable.html", "cu102"),
        # a label, or one folder's page, names the build
        ("torch==1.8.0+cu111 -f https://download.pytorch.org/whl/torch_stable.html", "cu111"),
        ("torch==1.8.0 -f https://download.pytorch.org/whl/cu101/torch_stable.html", "cu101"),
    ],
)
def test_the_flat_stable_page_gives_the_greatest_local_version(
    line: str, accelerator: str, matrix: Matrix
) -> None:
    got = import_keys(f"pip install {line}\n", "install.sh", matrix, "2021-06-01")
    assert got["accelerators"] == [accelerator]


def test_the_stable_page_on_another_install_leaves_an_image_torch(matrix: Matrix) -> None:
    text = (
        "FROM pytorch/pytorch:1.2-cuda10.0-cudnn7-runtime\n"
        "RUN pip install torchaudio -f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    assert import_keys(text, "Dockerfile", matrix, "2019-09-17")["accelerators"] == ["cu100"]


def test_a_conda_cudatoolkit_does_not_choose_a_pip_torch(matrix: Matrix) -> None:
    env = (
        "name: x\nchannels:\n  - defaults\ndependencies:\n  - python=3.6.8\n"
        "  - cudatoolkit=9.2=0\n  - pip:\n    - torch==1.4.0\n    - torchvision==0.5.0\n"
    )
    assert import_keys(env, "environment.yml", matrix, "2020-10-17")["accelerators"] == ["cu101"]
    # a conda pytorch's build string still names the build its pip section lists
    export = (
        "name: x\nchannels:\n  - pytorch\ndependencies:\n  - python=2.7.15\n  - cuda90=1.0\n"
        "  - pytorch=0.3.1=py27_cuda9.0.176_cudnn7.0.5_2\n  - pip:\n    - torch==0.3.1.post2\n"
    )
    assert import_keys(export, "environment.yml", matrix, "2019-01-01")["accelerators"] == ["cu90"]


def test_poetry_takes_the_linux_entry_of_a_multiple_constraints_dependency(
    matrix: Matrix,
) -> None:
    text = (
        '[tool.poetry]\nname = "x"\nversion = "0.1"\n\n[tool.poetry.dependencies]\n'
        'python = "^3.10"\ntorch = [\n    { version = "^2.3.0+cu118", source = "gpu" },\n'
        '    { platform = "darwin", version = "^2" }\n]\n\n[[tool.poetry.source]]\nname = "gpu"\n'
        'url = "https://download.pytorch.org/whl/cu118"\npriority = "explicit"\n'
    )
    got = import_keys(text, "pyproject.toml", matrix, "2024-06-03")
    assert (got["torch"], got["accelerators"]) == ("2.3.0", ["cu118"])


def test_the_windows_launcher_names_the_venv_python(matrix: Matrix) -> None:
    text = "py -3.11 -m venv .venv\n.venv\\Scripts\\activate\npip install torch==2.6.0\n"
    assert import_keys(text, "install.bat", matrix, "2025-06-01")["python"] == "3.11"


def test_a_dockerfile_copying_its_whole_context_is_built_from_its_project(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "requirements.txt").write_text("torch==1.11.0\ntorchvision==0.8.1\n")
    vendored = tmp_path / "train" / "yolov5"
    (vendored / "utils" / "docker").mkdir(parents=True)
    (vendored / "requirements.txt").write_text("torch>=1.7.0\ntorchvision>=0.8.1\n")
    (vendored / "utils" / "docker" / "Dockerfile").write_text(
        "FROM python:3.9\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\n"
        "COPY . /usr/src/app\n"
    )
    got = import_file_keys(vendored / "utils" / "docker" / "Dockerfile", matrix, "2022-06-07")
    # the vendored project's ranges (its own folder holds what it copies), not the root's pins
    assert (got["torch"], got["torchvision"]) == ("1.11.0", True)


@pytest.mark.parametrize(
    "line",
    [
        "singularity exec --nv -B /data:/data img.sif pip install torch==1.13.1",
        "apptainer exec img.sif python -m pip install torch==1.13.1",
        "docker compose run --rm -e A=1 app poetry run pip install torch==1.13.1",
        "docker-compose run app pip install torch==1.13.1",
        "docker exec -it box pip install torch==1.13.1",
        "poetry run pip install torch==1.13.1",
        "pipenv run pip install torch==1.13.1",
    ],
)
def test_a_command_run_inside_a_container_or_a_tools_environment_is_read(
    line: str, matrix: Matrix
) -> None:
    assert import_keys(line + "\n", "setup.sh", matrix, "2023-01-28")["torch"] == "1.13.1"


def test_a_singularity_image_built_from_a_torch_image_is_the_environment(matrix: Matrix) -> None:
    text = (
        "singularity build c.sif docker://pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime\n"
        "singularity exec --nv c.sif pip install torch torchvision scikit-learn\n"
    )
    got = import_keys(text, "create_container.sh", matrix, "2025-07-01")
    assert (got["torch"], got["accelerators"]) == ("2.3.1", ["cu121"])


def test_tox_expands_nested_braces_and_reads_the_install_command(matrix: Matrix) -> None:
    text = (
        "[tox]\nenvlist = py3{7{,-t151},8{,-t170},10}\n\n[testenv]\n"
        "install_command = pip install --find-links "
        "https://download.pytorch.org/whl/cpu/torch_stable.html {opts} {packages}\n"
        "deps =\n    pytest\n    t151: torch==1.5.1\n    !t151: torch\n"
    )
    got = import_keys(text, "tox.ini", matrix, "2023-07-31")
    # py37 first; 2.0 has no cp37 wheels; the cpu page's +cpu build
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.7", "1.13.1", ["cpu"])


def test_a_powershell_catch_block_is_the_error_path(matrix: Matrix) -> None:
    text = (
        'try {\n    $v = python --version\n} catch {\n    Write-Host "no python"\n    exit 1\n}\n'
        "pip install torch torchvision --index-url https://download.pytorch.org/whl/cpu\n"
    )
    got = import_keys(text, "install.ps1", matrix, "2026-03-14")
    assert (got["torch"], got["accelerators"]) == ("2.10.0", ["cpu"])


def test_the_distro_pip_runs_the_distro_python3(matrix: Matrix) -> None:
    text = (
        "Bootstrap: docker\nFrom: nvidia/cuda:12.1.0-devel-ubuntu22.04\n\n%post\n"
        "    apt-get install -y python3.11 python3-pip\n    pip install torch==2.0.0\n"
    )
    assert import_keys(text, "singularity.def", matrix, "2023-04-20")["python"] == "3.10"
    # the apt python run by name is the python
    text = text.replace("    pip install", "    python3.11 -m pip install")
    assert import_keys(text, "singularity.def", matrix, "2023-04-20")["python"] == "3.11"


def test_a_conda_line_with_a_pip_option_installs_nothing(matrix: Matrix) -> None:
    text = (
        "pip install torch===1.6.0 torchvision===0.7.0 -f https://download.pytorch.org/whl/"
        "torch_stable.html\nconda install pytorch torchvision torchaudio cudatoolkit=10.1 "
        "-i https://pypi.tuna.tsinghua.edu.cn/simple\n"
    )
    got = import_keys(text, "install.sh", matrix, "2020-11-17")
    assert (got["torch"], got["torchaudio"], got["accelerators"]) == ("1.6.0", False, ["cu102"])


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (
            "Dockerfile",
            "FROM python:3.13-slim\nCOPY dist/replicnn-0.1.0-py3-none-any.whl ./\n"
            "RUN pip install replicnn-0.1.0-py3-none-any.whl\n",
        ),
        (
            "apptainer.def",
            "Bootstrap: docker\nFrom: python:3.13-slim\n\n%files\n    dist/replicnn-*.whl /dist/\n\n"
            "%post\n    cp /dist/*.whl .\n    pip install *.whl\n",
        ),
    ],
)
def test_the_projects_own_wheel_brings_the_projects_requirements(
    name: str, text: str, tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "RepliCNN"\nversion = "0.1.0"\ndependencies = ["torch >=2, <3"]\n'
    )
    (tmp_path / name).write_text(text)
    got = import_file_keys(tmp_path / name, matrix, "2026-03-16")
    assert (got["python"], got["torch"]) == ("3.13", "2.10.0")
    # another distribution's wheel is not the project's
    (tmp_path / name).write_text(text.replace("replicnn-", "other-").replace("*.whl", "x-1.whl"))
    with pytest.raises(ImportSpecError, match="no torch"):
        import_file_keys(tmp_path / name, matrix, "2026-03-16")


def test_a_conda_pytorch_keeps_its_build_beside_a_requirements_file_it_meets(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "requirements.txt").write_text("torch==0.4.1\ntorchvision==0.2.1\n")
    (tmp_path / "README.md").write_text(
        "```\nconda create -n d python=3.6\nconda install pytorch torchvision cuda92 -c pytorch\n"
        "pip install -r requirements.txt\n```\n"
    )
    got = import_file_keys(tmp_path / "README.md", matrix, "2018-10-25")
    assert (got["torch"], got["accelerators"]) == ("0.4.1", ["cu92"])


# --- the review of these mechanisms -----------------------------------------------------------------
def test_deeply_nested_tox_braces_read_in_linear_time(matrix: Matrix) -> None:
    text = "[tox]\nenvlist = py" + "{" * 200_000 + "37" + "}" * 200_000 + "\n[testenv]\n"
    text += "deps = torch==1.8.1\n"
    started = time.monotonic()
    got = import_keys(text, "tox.ini", matrix, "2021-06-01")
    assert time.monotonic() - started < 10
    assert (got["python"], got["torch"]) == ("3.7", "1.8.1")


def test_wheels_the_file_fetched_are_not_the_projects_own(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "foo"\nversion = "0"\ndependencies = ["torch==2.0.1"]\n'
    )
    (tmp_path / "install.sh").write_text(
        "pip download torch==2.1.0 -d /tmp/w\npip install /tmp/w/*.whl\n"
    )
    with pytest.raises(ImportSpecError, match="no torch"):
        import_file_keys(tmp_path / "install.sh", matrix, "2023-11-01")


@pytest.mark.parametrize(
    ("python", "entries", "torch"),
    [
        ("^3.10", '{version = "1.13.1", python = "<3.8"}, {version = "2.1.0", python = ">=3.8"}',
         "2.1.0"),
        (">=3.8,<3.10",
         "{version = \"1.13.1\", markers = \"python_version < '3.10'\"}, "
         "{version = \"2.1.0\", markers = \"python_version >= '3.10'\"}", "1.13.1"),
    ],
)  # fmt: skip
def test_poetry_entries_are_judged_on_the_projects_python(
    python: str, entries: str, torch: str, matrix: Matrix
) -> None:
    text = (
        f'[tool.poetry]\nname = "x"\nversion = "0"\n\n[tool.poetry.dependencies]\n'
        f'python = "{python}"\ntorch = [{entries}]\n'
    )
    assert import_keys(text, "pyproject.toml", matrix, "2023-12-01")["torch"] == torch


def test_pip_building_the_project_reads_no_tool_uv(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==2.4.1"]\n\n'
        '[[tool.uv.index]]\nname = "p"\nurl = "https://download.pytorch.org/whl/cu118"\n'
    )
    for installer, accelerator in (("pip install .", "cu121"), ("uv pip install .", "cu118")):
        (tmp_path / "Dockerfile").write_text(f"FROM python:3.11\nCOPY . /app\nWORKDIR /app\n"
                                             f"RUN {installer}\n")  # fmt: skip
        got = import_file_keys(tmp_path / "Dockerfile", matrix, "2024-10-01")
        assert got["accelerators"] == [accelerator], installer


def test_uv_takes_torch_from_a_pypi_mirror_listed_first(matrix: Matrix) -> None:
    tool = (
        '[[tool.uv.index]]\nname = "tuna"\nurl = "https://pypi.tuna.tsinghua.edu.cn/simple"\n\n'
        '[[tool.uv.index]]\nname = "pt"\nurl = "https://download.pytorch.org/whl/cu118"\n'
    )
    got = import_keys(_HEAD + tool, "pyproject.toml", matrix, "2024-10-01")
    assert got["accelerators"] == ["cu121"]


@pytest.mark.parametrize(("as_of", "torch"), [("2024-09-15", "2.4.0"), ("2024-10-25", "2.4.1")])
def test_conda_forge_alone_is_judged_on_its_own_builds(
    as_of: str, torch: str, matrix: Matrix
) -> None:
    # 2.4.1 reached conda-forge on 2024-10-02 (the pytorch channel had it first: not listed);
    # conda-forge built no 2.5.0
    got = import_keys(_FORGE_ENV, "environment.yml", matrix, as_of)
    assert got["torch"] == torch


@pytest.mark.parametrize(
    "line",
    [
        "singularity exec -e -w img.sif pip install torch==1.8.1",
        "docker run --cap-add SYS_PTRACE img pip install torch==1.8.1",
        "docker compose -f dc.yml run --rm app pip install torch==1.8.1",
        "poetry run -- pip install torch==1.8.1",
        "nvidia-docker run --rm img pip install torch==1.8.1",
    ],
)
def test_each_tools_own_options_are_skipped(line: str, matrix: Matrix) -> None:
    assert import_keys(line + "\n", "run.sh", matrix, "2021-06-01")["torch"] == "1.8.1"


def test_pip_replacing_a_conda_torch_is_not_built_by_the_conda_cudatoolkit(
    matrix: Matrix,
) -> None:
    env = (
        "name: x\nchannels:\n  - pytorch\ndependencies:\n  - pytorch=1.8.1\n"
        "  - cudatoolkit=11.1\n  - pip:\n    - torch==1.9.0\n"
    )
    assert import_keys(env, "environment.yml", matrix, "2021-08-01")["accelerators"] == ["cu102"]


def test_a_quoted_brace_in_a_powershell_catch_block_does_not_swallow_the_script(
    matrix: Matrix,
) -> None:
    text = 'try {\n  python -V\n} catch {\n  Write-Host "python {3.8"\n  exit 1\n}\npip install torch==2.1.0\n'
    assert import_keys(text, "setup.ps1", matrix, "2024-01-01")["torch"] == "2.1.0"


def test_an_extra_the_project_lacks_is_said(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==2.2.2"]\n\n'
        '[project.optional-dependencies]\ngpu = ["torchaudio==2.2.2"]\n'
    )
    options = ImportOptions(source=tmp_path / "pyproject.toml", extras=("nope",))
    warnings = run_import(options, matrix).warnings
    assert any("no extra named 'nope'; its extras are 'gpu'" in w for w in warnings)
    (tmp_path / "requirements.txt").write_text("torch==2.2.2\n")
    options = ImportOptions(source=tmp_path / "requirements.txt", extras=("gpu",))
    assert any("--extra gpu is ignored" in w for w in run_import(options, matrix).warnings)


# --- a Compose file -----------------------------------------------------------------------------
def test_a_compose_file_reads_the_image_its_first_building_service_makes(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "Dockerfile.gpu").write_text(
        "ARG BASE=python:3.9\nFROM ${BASE}\nARG TORCH\nRUN pip install torch==${TORCH} "
        "--extra-index-url https://download.pytorch.org/whl/cu118\n"
    )
    (tmp_path / "docker-compose.yml").write_text(
        "services:\n  db:\n    image: postgres:16\n  app:\n    build:\n      context: ./build\n"
        "      dockerfile: Dockerfile.gpu\n      args:\n        BASE: ${BASE:-python:3.10}\n"
        "        TORCH: ${TORCH_VERSION:-2.3.0}\n        UNSET: ${NOTHING}\n"
    )
    got = import_file_keys(tmp_path / "docker-compose.yml", matrix, "2024-06-01")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.10", "2.3.0", ["cu118"])


def test_a_compose_service_running_a_torch_image_is_its_environment(matrix: Matrix) -> None:
    text = "services:\n  train:\n    image: pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime\n"
    got = import_keys(text, "compose.yaml", matrix, "2024-01-01")
    assert (got["torch"], got["accelerators"]) == ("2.1.0", ["cu121"])


# --- the twenty-fifth draw's families ---------------------------------------------------------------
def test_a_ci_job_that_installs_torch_beats_one_that_mentions_it(matrix: Matrix) -> None:
    text = (
        "on: push\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo $(python ci/changed.py --backend torch)\n"
        "  tests:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n"
        '        python-version: [3.8]\n        torch-version: ["<2.0", "~=2.0"]\n    steps:\n'
        "      - uses: actions/setup-python@v4\n        with:\n"
        "          python-version: ${{ matrix.python-version }}\n"
        '      - run: python -m pip install "torch${{ matrix.torch-version }}"\n'
    )
    got = import_keys(text, "pytorch.yml", matrix, "2023-05-26")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.8", "1.13.1", ["cu117"])


def test_a_makefile_reads_the_goal_that_installs_torch(matrix: Matrix) -> None:
    text = (
        "venv:\n\tconda create -n venv python=3.9\n\ncuda:\n\tconda install cuda-nvcc\n\n"
        "lib:\n\tpython -m pip install torch==1.13.1\n"
    )
    got = import_keys(text, "Makefile", matrix, "2023-03-01")
    assert got["torch"] == "1.13.1"


def test_a_cluster_module_system_is_not_on_the_default_route(matrix: Matrix) -> None:
    text = (
        "if type module &>/dev/null; then\n  module load Python/3.10.4\nfi\n"
        "python3 -m venv .venv\n. .venv/bin/activate\npip install torch==2.7.1\n"
    )
    assert import_keys(text, "setup_env.sh", matrix, "2026-03-05")["python"] is None


@pytest.mark.parametrize("script", ["s/[[[x/y/", "s/[a--z]/y/", "s/[a&&b]/y/"])
def test_a_sed_set_python_would_warn_of_is_unknown(script: str) -> None:
    """Found by the long fuzz run: Python warns (FutureWarning) of `[[` and `--` in a set."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert stage_output(["sed", script], "a[[[x") is None


def test_a_long_line_of_install_words_is_read_in_linear_time(matrix: Matrix) -> None:
    """The final read found the CI/Makefile "installs torch" pattern backtracking on a long line
    (24 KB of `pip install ` did not finish); it is one pass over the words now."""
    step = "pip install " * 80_000
    text = f"on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: {step}\n"
    started = time.monotonic()
    with pytest.raises(ImportSpecError, match="no torch"):
        import_keys(text, "ci.yml", matrix, "2023-01-01")
    assert time.monotonic() - started < 10
