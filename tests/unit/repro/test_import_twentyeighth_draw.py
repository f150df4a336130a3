"""The families the twenty-eighth held-out draw's misses asked for (issue 24), on real-shaped
input written here: a script's own folder found with `cd -- "$(dirname -- ...)" &> /dev/null &&
pwd`; a Travis build matrix whose jobs share one script and choose its branch by `env:`."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


@pytest.mark.parametrize(
    "line",
    [
        'SCRIPT_DIR=$( cd -- "$( dirname -- "${BASH_SOURCE[0]}" )" &> /dev/null && pwd )',
        'SCRIPT_DIR=$(cd "$(dirname "$0")" > /dev/null 2>&1 && pwd)',
    ],
)
def test_a_script_s_own_folder_with_option_ends_and_redirects(
    line: str, tmp_path: Path, matrix: Matrix
) -> None:
    root = tmp_path / "checkout"
    (root / ".git").mkdir(parents=True)
    (root / "requirements_gpu.txt").write_text("torch==2.2.2\n")
    (root / "install.sh").write_text(
        f"{line}\npip install -r ${{SCRIPT_DIR}}/requirements_gpu.txt\n"
    )
    assert import_file_keys(root / "install.sh", matrix, "2024-10-01")["torch"] == "2.2.2"


_TRAVIS = """language: python
matrix:
    include:
     - os: linux
       python: 3.8
       env: BACKEND=jax
     - os: linux
       python: 3.8
       env: BACKEND=pytorch
install:
    - if [[ "$BACKEND" == "numpy" ]]; then
        echo numpy;
      elif [[ "$BACKEND" == "pytorch" ]]; then
        pip install torch==2.1.0;
      elif [[ "$BACKEND" == "jax" ]]; then
        pip install jax;
      fi
"""


def test_the_first_travis_job_whose_branch_installs_torch(matrix: Matrix) -> None:
    got = import_keys(_TRAVIS, ".travis.yml", matrix, "2023-10-19")
    assert (got["python"], got["torch"]) == ("3.8", "2.1.0")
