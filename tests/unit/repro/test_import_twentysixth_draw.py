"""The families the twenty-sixth held-out draw's misses asked for (issue 24), each on real-shaped
input written here: a script in a subfolder that names a file from the checkout root; a pip
command's index that cannot reach the torch installed before it; a README's python.org link;
`ADD file /tmp`; PowerShell's backslash paths; `$(which pip3)` and a `$PIP` found on the
machine; a downloaded wheel installed from its local path, in branches that pick it by python;
conda's `torchvision=0.5.0` on a pip line."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro import shell
from envgen.repro.importer.install_script import _python_by_branch
from tests.support.importing import import_file_keys, import_keys


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _checkout(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_a_subfolder_script_reads_a_path_from_the_checkout_root(
    tmp_path: Path, matrix: Matrix
) -> None:
    env = (
        "name: oyster\nchannels: [defaults]\ndependencies:\n  - python=3.5.2\n  - pip\n"
        "  - pip:\n    - torch==1.0.1\n    - torchvision==0.2.2\n"
    )
    root = _checkout(
        tmp_path,
        {
            "oyster/docker/environment.yml": env,
            "src/install_env.sh": "conda env update -f oyster/docker/environment.yml\n",
        },
    )
    got = import_file_keys(root / "src" / "install_env.sh", matrix, "2020-09-12")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.5", "1.0.1", ["cu90"])
    # a file beside the script still comes first
    (root / "src" / "oyster" / "docker").mkdir(parents=True)
    (root / "src" / "oyster" / "docker" / "environment.yml").write_text(
        env.replace("torch==1.0.1", "torch==1.0.0").replace("0.2.2", "0.2.1")
    )
    assert import_file_keys(root / "src" / "install_env.sh", matrix, "2020-09-12")["torch"] == (
        "1.0.0"
    )


@pytest.mark.parametrize(
    ("later", "accelerators"),
    [
        # names none of torch's family: pip finds torch satisfied, the index is never asked
        # a file it cannot read may name torch: its index stays
        ("pip install -r missing.txt --index-url https://download.pytorch.org/whl/cu118", "cu118"),
        ("pip install numpy --extra-index-url https://download.pytorch.org/whl/cu118", "cu117"),
        # names torch: the index chooses its build
        ("pip install torch==2.0.0 --index-url https://download.pytorch.org/whl/cu118", "cu118"),
    ],
)
def test_a_later_command_s_index_chooses_only_what_it_installs(
    later: str, accelerators: str, matrix: Matrix
) -> None:
    got = import_keys(f"pip install torch==2.0.0\n{later}\n", "install.sh", matrix, "2024-01-01")
    assert (got["torch"], got["accelerators"]) == ("2.0.0", [accelerators])


def test_an_index_before_torch_is_known_still_counts(matrix: Matrix) -> None:
    # torch comes in later (through the project): the first command's index is the route
    text = (
        "pip install -r requirements.txt --extra-index-url https://download.pytorch.org/whl/cu118\n"
    )
    got = import_keys(text + "pip install torch==2.0.0\n", "install.sh", matrix, "2024-01-01")
    assert got["accelerators"] == ["cu118"]


def test_a_readme_s_python_org_link_names_the_python(matrix: Matrix) -> None:
    text = (
        "## Setup\n\n### Install Python 310\nhttps://www.python.org/ftp/python/3.10.11/\n\n"
        "`python -m venv venv`\n\n`pip install torch==2.0.0`\n"
    )
    assert import_keys(text, "README.md", matrix, "2024-10-28")["python"] == "3.10"
    two = text.replace("3.10.11/", "3.10.11/ or https://www.python.org/ftp/python/3.9.13/")
    assert import_keys(two, "README.md", matrix, "2024-10-28")["python"] is None


def test_add_to_an_image_s_own_folder_copies_into_it(tmp_path: Path, matrix: Matrix) -> None:
    root = _checkout(
        tmp_path,
        {
            "docker/cpu/Dockerfile": "FROM python:3.7-slim\nADD requirements.txt /tmp\n"
            "RUN pip install -r /tmp/requirements.txt\n",
            "docker/cpu/requirements.txt": "numpy\ntorch==1.3.1\n",
        },
    )
    got = import_file_keys(root / "docker" / "cpu" / "Dockerfile", matrix, "2019-12-26")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.7", "1.3.1", ["cu101"])


def test_powershell_backslash_paths_are_paths(matrix: Matrix) -> None:
    text = (
        ".\\venv\\Scripts\\python -m pip install torch torchvision torchaudio "
        "--index-url https://download.pytorch.org/whl/cu124 --force-reinstall\n"
    )
    got = import_keys(text, "install_torch.ps1", matrix, "2026-04-19")
    assert (got["torch"], got["accelerators"]) == ("2.6.0", ["cu124"])


@pytest.mark.parametrize(
    "text",
    [
        "PIP=$(which pip3)\n$PIP install torch==1.5.0\n",
        "P=$(command -v python3)\n$P -m pip install torch==1.5.0\n",
        # a value found on the machine: the variable's name says it is pip
        "BIN=/usr/bin\nPIP=${BIN}/$(ls ${BIN} | grep -e 'pip.*3')\nsudo ${PIP} install "
        "torch==1.5.0\n",
    ],
)
def test_a_pip_found_on_the_machine_runs_as_pip(text: str, matrix: Matrix) -> None:
    assert import_keys(text, "setup.sh", matrix, "2020-04-25")["torch"] == "1.5.0"


def test_an_unknown_variable_not_named_pip_stays_unknown(matrix: Matrix) -> None:
    text = "TOOL=$(ls /usr/bin | grep x)\n$TOOL install torch==1.5.0\n"
    with pytest.raises(ImportSpecError, match="no torch"):
        import_keys(text, "setup.sh", matrix, "2020-04-25")


_BRANCHES = """py_minor=$(python -c "import sys; print(sys.version_info[1])")
if [ "$py_minor" -eq "5" ]; then
    wget http://download.pytorch.org/whl/cpu/torch-0.3.1-cp35-cp35m-linux_x86_64.whl -P ~/.cache/w/
    pip install ~/.cache/w/torch-0.3.1-cp35-cp35m-linux_x86_64.whl
elif [ "$py_minor" -eq "6" ]; then
    wget http://download.pytorch.org/whl/cpu/torch-0.3.1-cp36-cp36m-linux_x86_64.whl -P ~/.cache/w/
    pip install ~/.cache/w/torch-0.3.1-cp36-cp36m-linux_x86_64.whl
else
    exit 1
fi
"""


def test_a_downloaded_wheel_installed_from_its_path_and_picked_by_python(matrix: Matrix) -> None:
    got = import_keys(_BRANCHES, "install_pytorch.sh", matrix, "2018-03-27")
    # the wheel's folder names the CPU build; the branches pick the wheel by the machine's
    # python, so its tag names none
    assert (got["python"], got["torch"], got["accelerators"]) == (None, "0.3.1", ["cpu"])
    one = (
        "curl -o /tmp/t.whl https://download.pytorch.org/whl/cu90/torch-0.4.0-cp36-cp36m-"
        "linux_x86_64.whl\npip install /tmp/t.whl\n"
    )
    got = import_keys(one, "install.sh", matrix, "2018-06-01")
    assert (got["python"], got["torch"], got["accelerators"]) == ("3.6", "0.4.0", ["cu90"])


def test_conda_s_single_equals_on_a_pip_line_names_the_release(matrix: Matrix) -> None:
    text = "FROM python:3.7\nRUN pip install torch==1.4.0 torchvision=0.5.0\n"
    got = import_keys(text, "Dockerfile", matrix, "2020-05-03")
    assert (got["torch"], got["torchvision"]) == ("1.4.0", "0.5.0")


# --- the review's mends ------------------------------------------------------------------------
def test_a_which_lookup_in_a_test_stays_unknown(matrix: Matrix) -> None:
    text = (
        'if [ -z "$(which conda)" ]; then\n'
        "  wget https://repo.anaconda.com/miniconda/Miniconda3-py38_4.10.3-Linux-x86_64.sh\n"
        "  bash Miniconda3-py38_4.10.3-Linux-x86_64.sh -b -p $HOME/miniconda\n"
        "  export PATH=$HOME/miniconda/bin:$PATH\nfi\npip install torch==1.9.0\n"
    )
    # whether a fresh machine has conda is unknown: the branch that installs it is the route
    assert import_keys(text, "install.sh", matrix, "2021-08-01")["python"] == "3.8"


def test_an_os_branch_is_no_python_branch(matrix: Matrix) -> None:
    text = (
        'if [[ "$OSTYPE" == "darwin"* ]]; then pip install https://download.pytorch.org/whl/'
        "torch-0.4.1-cp37-none-macosx_10_7_x86_64.whl\nelse pip install https://download."
        "pytorch.org/whl/cu90/torch-0.4.1-cp36-cp36m-linux_x86_64.whl\nfi\n"
    )
    assert import_keys(text, "install.sh", matrix, "2018-09-01")["python"] == "3.6"


def test_many_wheel_words_in_branches_read_in_linear_time() -> None:
    words = [f"torch-{n}.0-cp36-cp36m-linux_x86_64.whl" for n in range(20_000)]
    route = shell.Route(
        commands=[shell.Command(text=f"pip install {' '.join(words)}", line=1)],
        alternatives=[
            shell.Alternative(text=f"pip install {' '.join(words).replace('36', '37')}", line=2,
                              branch="else of line 1"),
        ],
    )  # fmt: skip
    start = time.monotonic()
    assert _python_by_branch(route)  # 20,000 x 20,000 pairs, were each compared
    assert time.monotonic() - start < 5
