"""The mechanisms the seventeenth held-out draw's misses asked for (issue 24), each on
real-shaped input written here: `sed -i` editing a requirements file before pip reads it, a
requirements file a command wrote (`poetry export`, `pip-compile`, `uv export`), a CI file with a
tab after a block indicator, a CI job whose installs bring torch without naming it, a pinned
companion choosing torch over a package's range, an image entrypoint under `docker/`, and a
post-release named in a README's requirements list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envgen.errors import EnvgenError, MatrixError
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.url_packages import load_url_packages, repository_key
from envgen.repro import shell
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from tests.support.importing import import_file_keys, import_keys

PAGES = Path(__file__).parents[2] / "data" / "recorded" / "pypi-simple"


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_sed_in_place_edits_the_file_pip_reads(tmp_path: Path, matrix: Matrix) -> None:
    """`sed -i 's/torch>=1.7/torch==1.9.1+cu111/g' requirements.txt` before `pip install -r
    requirements.txt`: pip reads the edited file (a Dockerfile's RUN, as ByteTrack's)."""
    (tmp_path / "requirements.txt").write_text("numpy\ntorch>=1.7\ntorchvision==0.10.0\n")
    (tmp_path / "Dockerfile").write_text(
        "FROM nvidia/cuda:11.1.1-cudnn8-devel-ubuntu20.04\n"
        "RUN apt-get update && apt-get install -y python3-pip\n"
        "COPY requirements.txt .\n"
        "RUN sed -i 's/torch>=1.7/torch==1.9.1+cu111/g' requirements.txt \\\n"
        "    && sed -i 's/torchvision==0.10.0/torchvision==0.10.1+cu111/g' requirements.txt \\\n"
        "    && pip3 install -r requirements.txt "
        "-f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    got = import_file_keys(tmp_path / "Dockerfile", matrix, "2021-10-18")
    assert (got["torch"], got["torchvision"], got["accelerators"]) == ("1.9.1", "0.10.1", ["cu111"])


def test_a_sed_envgen_does_not_run_leaves_the_file_as_committed(
    tmp_path: Path, matrix: Matrix
) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.9.0\n")
    (tmp_path / "install.sh").write_text(
        "sed -i -E 's/torch==([0-9.]+)/torch==\\1+cu111/' requirements.txt\n"
        "pip install -r requirements.txt\n"
    )
    result = run_import(ImportOptions(source=tmp_path / "install.sh", as_of="2021-10-18"), matrix)
    assert result.project["torch"] == "1.9.0"
    assert any("a sed envgen does not run" in w for w in result.warnings)


def test_poetry_export_then_pip_install_reads_the_pyproject(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "x"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\n'
        'python = ">=3.10,<3.12"\ntorch = "2.1.2"\ntorchvision = "0.16.2"\n'
    )
    (tmp_path / "Dockerfile").write_text(
        "FROM python:3.10-slim\nRUN pip install poetry\nCOPY pyproject.toml poetry.lock* ./\n"
        "RUN poetry export -f requirements.txt --output requirements.txt --without-hashes\n"
        "RUN python -m pip install --user -r requirements.txt\n"
    )
    got = import_file_keys(tmp_path / "Dockerfile", matrix, "2024-08-15")
    assert (got["python"], got["torch"], got["torchvision"]) == ("3.10", "2.1.2", "0.16.2")


def test_pip_compile_output_is_read_from_its_input(tmp_path: Path, matrix: Matrix) -> None:
    """`pip-compile requirements.in -o requirements.lock` (or `uv pip compile`), then `pip
    install -r requirements.lock`: the lock pins what the input allows; a committed stale file
    of that name is not what pip reads."""
    (tmp_path / "requirements.in").write_text("torch==2.2.1\n")
    (tmp_path / "requirements.lock").write_text("torch==1.0.0\n")
    for compile_line in (
        "pip-compile requirements.in -o requirements.lock",
        "uv pip compile requirements.in --output-file requirements.lock",
    ):
        (tmp_path / "setup.sh").write_text(f"{compile_line}\npip install -r requirements.lock\n")
        assert import_file_keys(tmp_path / "setup.sh", matrix, "2024-03-01")["torch"] == "2.2.1"


def test_a_tab_after_a_block_indicator_is_white_space(tmp_path: Path, matrix: Matrix) -> None:
    """`run: |<tab>`: GitHub's YAML 1.2 parser reads the tab as white space; PyYAML refuses it."""
    (tmp_path / "requirements.txt").write_text("torch==1.5.1\ntorchaudio==0.5.1\n")
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    (workflows / "tests.yml").write_text(
        "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
        "    - uses: actions/setup-python@v2\n      with:\n        python-version: 3.7\n"
        "    - run: |\t\n        pip install -r requirements.txt\t\n"
    )
    got = import_file_keys(workflows / "tests.yml", matrix, "2021-09-06")
    assert (got["python"], got["torch"], got["torchaudio"]) == ("3.7", "1.5.1", "0.5.1")


def test_the_ci_job_whose_install_brings_torch(tmp_path: Path, matrix: Matrix) -> None:
    """No job's text names torch: the lint job installs ruff, the test job `pip install -e
    ".[ci]"` of a pyproject.toml that depends on torch; the test job is the one read."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0.1"\ndependencies = ["torch>=2.0.0", "numpy"]\n'
        '[project.optional-dependencies]\nci = ["pytest"]\n'
    )
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (tmp_path / ".git").mkdir()
    job = (
        "  {name}:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/setup-python@v5\n        with:\n          python-version: '3.10'\n"
        "      - run: pip install {what}\n"
    )
    (workflows / "ci.yml").write_text(
        "on: push\njobs:\n"
        + job.format(name="lint", what="ruff black")
        + job.format(name="test", what='-e ".[ci]"')
    )
    got = import_file_keys(workflows / "ci.yml", matrix, "2026-05-28")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.10", "2.12.0", ["cu130"])


def test_a_pinned_companion_chooses_torch_over_a_packages_range(
    tmp_path: Path, matrix: Matrix
) -> None:
    """`torchvision==0.15.0` requires torch 2.0.0; the newest lightning's `torch>=2.1.0` (read
    from the recorded core metadata) does not move it: pip's resolver takes an older lightning."""
    (tmp_path / "requirements.txt").write_text("lightning\ntorchvision==0.15.0\n")
    options = ImportOptions(
        source=tmp_path / "requirements.txt",
        as_of="2025-12-11",
        pypi_index=PAGES.resolve().as_uri(),
    )
    project = run_import(options, matrix).project
    assert (project["torch"], project["torchvision"]) == ("2.0.0", "0.15.0")


def test_an_entrypoint_under_docker_runs_in_the_mounted_checkout(
    tmp_path: Path, matrix: Matrix
) -> None:
    """`docker/entrypoint.sh` runs `cd /app` (the checkout, mounted) and `conda env create -f
    environment.yml`: the root's environment.yml."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "environment.yml").write_text(
        "name: sd\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python=3.10.8\n"
        "  - pytorch=1.13.0\n  - pytorch-cuda=11.6\n  - torchvision=0.14.0\n"
    )
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "entrypoint.sh").write_text(
        "#!/bin/bash\ncd /app\nconda env create -f environment.yml\nconda activate sd\n"
    )
    got = import_file_keys(tmp_path / "docker" / "entrypoint.sh", matrix, "2022-12-04")
    assert (got["python"], got["torch"], got["accelerators"], got["managers"]) == (
        "3.10",
        "1.13.0",
        ["cu116"],
        ["conda"],
    )


def test_a_post_release_in_a_readme_requirements_list(matrix: Matrix) -> None:
    text = (
        "# X\n\n## Dependencies\n\n### Required\n- [numpy](https://www.numpy.org/) (1.14.3)\n"
        "- [PyTorch](https://pytorch.org/) (1.0.1.post2)\n- [tqdm](https://tqdm.github.io/) (4.19.7)\n"
    )
    got = import_keys(text, "README.md", matrix, "2019-06-28")
    assert (got["torch"], got["accelerators"]) == ("1.0.1.post2", ["cu90"])


def test_a_readme_lists_other_versions_beside_its_torch(tmp_path: Path, matrix: Matrix) -> None:
    """`- [numpy](...) (1.14.3)` in the list PyTorch's version stands in: an exact pin, whose
    linux wheels (cp27, cp34-cp36, recorded) rule out python 3.7; the Optional list is not it."""
    (tmp_path / "README.md").write_text(
        "# X\n\n## Dependencies\n\n### Required\n- [numpy](https://www.numpy.org/) (1.14.3)\n"
        "- [PyTorch](https://pytorch.org/) (1.0.1.post2)\n- [tqdm](https://tqdm.github.io/) (4.19.7)\n"
        "\n### Optional\n- [pandas](https://pandas.pydata.org/) (0.22.0; for DailyDialog)\n"
    )
    options = ImportOptions(
        source=tmp_path / "README.md", as_of="2019-06-28", pypi_index=PAGES.resolve().as_uri()
    )
    project = run_import(options, matrix).project
    assert (project["python"], project["torch"]) == ("3.6", "1.0.1.post2")


_PIXI_LOCK = """version: 6
environments:
  default:
    channels:
    - url: https://conda.anaconda.org/pytorch/
    - url: https://conda.anaconda.org/nvidia/
    - url: https://conda.anaconda.org/conda-forge/
    packages:
      linux-64:
      - conda: https://conda.anaconda.org/conda-forge/linux-64/python-3.12.11-h9e4cc4f_0_cpython.conda
      - conda: https://conda.anaconda.org/pytorch/linux-64/pytorch-2.4.0-py3.12_cuda12.4_cudnn9.1.0_0.tar.bz2
      - conda: https://conda.anaconda.org/pytorch/linux-64/pytorch-cuda-12.4-hc786d27_7.tar.bz2
      - conda: https://conda.anaconda.org/pytorch/linux-64/torchvision-0.19.0-py312_cu124.tar.bz2
      - pypi: https://files.pythonhosted.org/packages/aa/bb/tensordict-0.5.0-cp312-cp312-manylinux1_x86_64.whl
      osx-arm64:
      - conda: https://conda.anaconda.org/pytorch/osx-arm64/pytorch-2.4.0-py3.12_0.tar.bz2
packages: []
"""


def test_a_pixi_lock_is_its_default_environments_linux_packages(matrix: Matrix) -> None:
    got = import_keys(_PIXI_LOCK, "pixi.lock", matrix, "2025-09-12")
    assert got == {
        "python": "3.12",
        "torch": "2.4.0",
        "torchvision": "0.19.0",
        "torchaudio": False,
        "accelerators": ["cu124"],
        "managers": ["conda"],
    }


def test_a_pixi_lock_of_pypi_wheels(matrix: Matrix) -> None:
    """A pypi package keeps its wheel's local label: the cu121 index's torch is that build."""
    text = (
        "version: 5\nenvironments:\n  default:\n    channels:\n"
        "    - url: https://conda.anaconda.org/conda-forge/\n    packages:\n      linux-64:\n"
        "      - conda: https://conda.anaconda.org/conda-forge/linux-64/"
        "python-3.11.9-hb806964_0_cpython.conda\n"
        "      - pypi: https://download.pytorch.org/whl/cu121/"
        "torch-2.3.1%2Bcu121-cp311-cp311-linux_x86_64.whl\n"
    )
    got = import_keys(text, "pixi.lock", matrix, "2024-07-01")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.11", "2.3.1", ["cu121"])


def test_an_old_pixi_lock_lists_packages_with_their_platform(matrix: Matrix) -> None:
    text = (
        "version: 3\nmetadata:\n  channels:\n  - url: https://conda.anaconda.org/pytorch/\n"
        "package:\n"
        "- name: pytorch\n  version: 2.1.0\n  manager: conda\n  platform: linux-64\n"
        "  url: https://conda.anaconda.org/pytorch/linux-64/"
        "pytorch-2.1.0-py3.10_cuda11.8_cudnn8.7.0_0.tar.bz2\n"
        "- name: pytorch\n  version: 2.1.0\n  manager: conda\n  platform: osx-arm64\n"
        "  url: https://conda.anaconda.org/pytorch/osx-arm64/pytorch-2.1.0-py3.10_0.tar.bz2\n"
    )
    got = import_keys(text, "pixi.lock", matrix, "2023-11-01")
    assert (got["torch"], got["accelerators"], got["managers"]) == ("2.1.0", ["cu118"], ["conda"])


def test_a_pixi_lock_that_is_not_one_is_refused(matrix: Matrix) -> None:
    with pytest.raises(EnvgenError, match="not a pixi lock"):
        import_keys("name: x\n", "pixi.lock", matrix, "2024-01-01")


@pytest.mark.parametrize(
    ("date", "torch"),
    [
        ("2021-03-01", "1.7.1"),  # CLIP's requirements.txt then: torch~=1.7.1, torchvision~=0.8.2
        ("2022-12-19", "1.13.1"),  # from 2021-07-18: torch, torchvision unpinned
    ],
)
def test_clip_from_github_requires_what_its_repository_declared(
    tmp_path: Path, matrix: Matrix, date: str, torch: str
) -> None:
    """PyPI's `clip` is another project: the URL's package is read from matrices/url-packages
    .yaml (openai/CLIP's requirements.txt by date), not through its namesake."""
    (tmp_path / "requirements.txt").write_text("numpy\ngit+https://github.com/openai/CLIP.git\n")
    got = import_file_keys(tmp_path / "requirements.txt", matrix, date)
    assert (got["torch"], bool(got["torchvision"])) == (torch, True)


def test_the_url_package_table_is_well_formed() -> None:
    rows = load_url_packages()
    assert rows
    for row in rows:
        assert repository_key(f"https://{row.url}") == row.url
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}:\S+.*", row.source), row.source
        assert all(
            r.split("=")[0].rstrip("<>~!") in {"torch", "torchvision", "torchaudio"}
            for r in row.requires
        )


def test_a_bad_url_package_table_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "url-packages.yaml"
    bad.write_text('rows:\n  - {url: "github.com/a/b", name: "b", from: "soon"}\n')
    with pytest.raises(MatrixError, match="expected the keys"):
        load_url_packages(bad)


def test_a_platform_chosen_by_a_functions_output(matrix: Matrix) -> None:
    """`PLATFORM="$(detect_platform)"`: the function runs on the default route (Linux, an
    NVIDIA GPU, no ROCm), so it prints linux-cpu and the script's cpu branch is the route."""
    text = (
        '#!/bin/sh\nset -e\nCPU_INDEX="https://download.pytorch.org/whl/cpu"\n'
        'detect_platform() {\n  if [ -n "$TARGET" ]; then\n    echo "$TARGET"\n    return\n  fi\n'
        '  OS="$(uname -s)"\n  if [ "$OS" = "Linux" ]; then\n'
        "    if command -v rocminfo >/dev/null 2>&1 || [ -d /opt/rocm ]; then\n"
        '      echo "linux-rocm"\n    else\n      echo "linux-cpu"\n    fi\n'
        '  else\n    echo "darwin"\n  fi\n}\nPLATFORM="$(detect_platform)"\n'
        'if [ "$PLATFORM" = "linux-rocm" ]; then\n'
        "  pip install torch --index-url https://download.pytorch.org/whl/rocm6.3\n"
        'elif [ "$PLATFORM" = "linux-cpu" ]; then\n  pip install torch --index-url "$CPU_INDEX"\n'
        "else\n  pip install torch\nfi\n"
    )
    got = import_keys(text, "setup.sh", matrix, "2026-06-08")
    assert (got["torch"], got["accelerators"]) == ("2.12.0", ["cpu"])


def test_a_functions_output_is_unknown_where_a_word_is() -> None:
    route = shell.interpret(
        'f() { echo "$(curl -s https://x)"; exit 3; }\nV=$(f)\n'
        'if [ "$V" = a ]; then pip install a; else pip install b; fi\npip install c\n',
        env={},
    )
    # V is unknown: the else branch is not chosen for it; the function's exit stays in its
    # subshell, so the script goes on
    assert "pip install c" in [c.text for c in route.commands]


def test_poetry_export_writes_the_main_group_and_with_only(tmp_path: Path, matrix: Matrix) -> None:
    """`poetry export` exports the main group (and `--with`'s), not every non-optional group as
    `poetry install` installs them: a dev group's torch pin does not leak in."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "x"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\n'
        'python = ">=3.10,<3.12"\nnumpy = "1.26.4"\n\n[tool.poetry.group.dev.dependencies]\n'
        'torch = "2.1.2"\n'
    )
    (tmp_path / "setup.sh").write_text(
        "poetry export -f requirements.txt -o requirements.txt\npip install -r requirements.txt\n"
    )
    with pytest.raises(EnvgenError, match="no torch"):
        import_file_keys(tmp_path / "setup.sh", matrix, "2024-08-15")
    (tmp_path / "setup.sh").write_text(
        "poetry export --with dev -o requirements.txt\npip install -r requirements.txt\n"
    )
    assert import_file_keys(tmp_path / "setup.sh", matrix, "2024-08-15")["torch"] == "2.1.2"
    (tmp_path / "setup.sh").write_text("poetry install\n")  # install: every non-optional group
    assert import_file_keys(tmp_path / "setup.sh", matrix, "2024-08-15")["torch"] == "2.1.2"
