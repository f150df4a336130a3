"""The mechanisms the sixteenth held-out draw's misses asked for (issue 24), each on real-shaped
input written here: a later floor that what pip installed already meets, conda's torchvision
bringing conda's pytorch, a script's conda channels per command, `pytorch/pytorch:latest`, a
README command in emphasis, and a setup.py that appends a file's lines in a loop."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from tests.support.importing import import_file_keys, import_keys

PAGES = Path(__file__).parents[2] / "data" / "recorded" / "pypi-simple"


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_a_later_floor_keeps_what_a_wildcard_installed(matrix: Matrix) -> None:
    """`pip install torch==1.8.*` then `-r requirements.txt` with `torch >= 1.8.0`: pip finds
    1.8.1 installed and keeps it; a floor it does not meet replaces it."""
    text = (
        "pip install torch==1.8.* torchvision==0.9.*\n"
        "pip install 'torch>=1.8.0' 'torchvision>=0.9.0'\n"
    )
    got = import_keys(text, "install.sh", matrix, "2023-11-25")
    assert (got["torch"], got["torchvision"]) == ("1.8.1", "0.9.1")
    raised = text.replace(">=1.8.0", ">=1.9").replace(">=0.9.0", ">=0.10")
    got = import_keys(raised, "install.sh", matrix, "2023-11-25")
    assert got["torch"] == "2.1.1"


@pytest.mark.parametrize(
    ("first", "floor", "torch"),
    [
        ("torch==1.8.*", "torch>=1.8.1", "1.8.1"),  # 1.8.* installed 1.8.1, which meets it
        ("torch<1.9", "torch>=1.8.1", "1.8.1"),  # an upper bound has no lower bound to test
        ("torch~=1.8.0", "torch>=1.8.1,!=1.8.0", "1.8.1"),
        ("torch<1.8.1", "torch>=1.8.1", "2.1.1"),  # 1.8.0 misses the floor: pip upgrades
        ("torch<1.8.1", "torch>=1.8.0", "1.8.0"),
    ],
)
def test_a_later_floor_is_tested_against_the_release_installed(
    matrix: Matrix, first: str, floor: str, torch: str
) -> None:
    """Whether a later floor is met depends on which release the earlier range installed, not
    on the range's lower bound: `torch==1.8.*` installed 1.8.1, so `torch>=1.8.1` keeps it."""
    text = f"pip install '{first}'\npip install '{floor}'\n"
    assert import_keys(text, "install.sh", matrix, "2023-11-25")["torch"] == torch


def test_conda_torchvision_brings_conda_pytorch(matrix: Matrix) -> None:
    """The pytorch channel's torchvision depends on its pytorch: with the pytorch line commented
    out, conda still installs pytorch (the newest that fits), not PyPI's through a pip package."""
    text = (
        "name: x\nchannels:\n  - pytorch\n  - nvidia\ndependencies:\n  - python==3.11.9\n"
        "  # - pytorch\n  - pytorch-cuda=11.8\n  - torchvision\n  - pip\n"
        "  - pip:\n    - accelerate==0.34.2\n"
    )
    got = import_keys(text, "environment.yml", matrix, "2024-09-28")
    assert (got["torch"], got["accelerators"], got["managers"]) == ("2.4.1", ["cu118"], ["conda"])


def test_a_conda_command_solves_with_its_own_channels(matrix: Matrix) -> None:
    """Another command's `-c conda-forge` does not bring cudatoolkit 11.5 to `conda install
    pytorch -c pytorch`, which solves with defaults (no 11.5 there) and the pytorch channel."""
    text = (
        "conda create -y -n meta python=3.7\nconda activate meta\n"
        "conda install -y -c conda-forge seaborn==0.8.1\n"
        "conda install -y pytorch torchvision torchaudio -c pytorch\n"
    )
    assert import_keys(text, "install.sh", matrix, "2022-05-21")["accelerators"] == ["cu113"]
    joined = text.replace("-c pytorch\n", "-c pytorch -c conda-forge\n")
    assert import_keys(joined, "install.sh", matrix, "2022-05-21")["accelerators"] == ["cu115"]


def test_pytorch_latest_is_the_newest_release_as_of_the_file(matrix: Matrix) -> None:
    text = "FROM pytorch/pytorch:latest\nRUN pip install torchvision\n"
    got = import_keys(text, "Dockerfile", matrix, "2019-09-17")
    assert (got["torch"], got["accelerators"], got["torchvision"]) == ("1.2.0", ["cu100"], True)
    untagged = import_keys("FROM pytorch/pytorch\n", "Dockerfile", matrix, "2021-01-01")
    assert untagged["torch"] == "1.7.1"


def test_a_readme_command_in_emphasis(matrix: Matrix) -> None:
    text = (
        "### Requirements\n***Pytorch and torchvision:***\n"
        "\t*pip3 install torch==1.7.1+cu110 torchvision==0.8.2+cu110 -f "
        "https://download.pytorch.org/whl/torch_stable.html*\n"
    )
    got = import_keys(text, "README.md", matrix, "2022-03-24")
    assert (got["torch"], got["torchvision"], got["accelerators"]) == ("1.7.1", "0.8.2", ["cu110"])


def test_setup_py_appending_a_files_lines_in_a_loop(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "requirements.lib.txt").write_text("torch >= 1.8.0\ntorchvision >= 0.9.0\nnumpy\n")
    (tmp_path / "setup.py").write_text(
        "import setuptools\nrequirements = []\n"
        'with open("requirements.lib.txt", "r", encoding="UTF-8") as file:\n'
        "    for line in file:\n        requirements.append(line.strip())\n"
        'setuptools.setup(name="m", install_requires=requirements)\n'
    )
    got = import_file_keys(tmp_path / "setup.py", matrix, "2024-01-28")
    assert (got["torch"], got["torchvision"]) == ("2.1.2", True)


def test_a_package_that_depends_on_python3_installs_the_distros(matrix: Matrix) -> None:
    text = (
        "Bootstrap: docker\nFrom: nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n\n%post\n"
        "    apt-get update && apt-get install -y software-properties-common curl\n"
        "    curl -sS https://bootstrap.pypa.io/get-pip.py | python3\n"
        "    python3 -m pip install torch==2.4.1\n"
    )
    assert import_keys(text, "container.def", matrix, "2024-10-14")["python"] == "3.10"


def test_a_plain_fence_of_versions_under_requirements_names_the_python(matrix: Matrix) -> None:
    text = (
        "### Requirements\n```\nPython 3.6\nPytorch 1.7.1\nhorovod\n8 Nvidia Tesla V100 GPUs\n```\n"
        "pip3 install torch==1.7.1+cu110 -f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    assert import_keys(text, "README.md", matrix, "2022-03-24")["python"] == "3.6"
    shell_fence = text.replace("```\nPython", "```bash\nPython")
    assert import_keys(shell_fence, "README.md", matrix, "2022-03-24")["python"] is None


def test_a_sentence_that_the_code_depends_on_pytorch(matrix: Matrix) -> None:
    text = (
        "# Induced cycles\n## Requirements\nThis experiment depends on pytorch, as well as some "
        "other commonly used packages including numpy, networkx, etc.\n"
    )
    got = import_keys(text, "README.md", matrix, "2021-05-24")
    assert (got["torch"], got["accelerators"]) == ("1.8.1", ["cu102"])


def test_a_pytorch_channel_companion_pin_counts_for_the_python(
    tmp_path: Path, matrix: Matrix
) -> None:
    """conda's torchvision==0.14.1 from the pytorch channel: PyPI's cp37-cp310 wheels stand for
    the channel's build (inferred, said), so not torch 1.13.1's newest 3.11; conda-forge's own
    builds are not read so."""
    text = (
        "conda install -y pytorch==1.13.1 torchvision==0.14.1 pytorch-cuda=11.7 -c pytorch -c nvidia\n"
        "pip install nerfacc==0.3.5\n"
    )

    def imported(script: str) -> object:
        (tmp_path / "install.sh").write_text(script)
        options = ImportOptions(
            source=tmp_path / "install.sh",
            as_of="2023-08-26",
            pypi_index=PAGES.as_uri(),
            cache_root=tmp_path / "cache",
        )
        return run_import(options, matrix).project.get("python")

    assert imported(text) == "3.10"
    assert imported(text.replace("-c pytorch -c nvidia", "-c conda-forge")) != "3.10"


# --- the second review's findings (2026-12-07) -----------------------------------------------------
def test_a_floor_with_an_exclusion_is_not_taken_as_met(matrix: Matrix) -> None:
    text = "pip install torch==1.8.*\npip install 'torch>=1.8.0,!=1.8.1'\n"
    assert import_keys(text, "install.sh", matrix, "2023-11-25")["torch"] != "1.8.1"


def test_a_loop_that_cannot_be_read_keeps_the_known_list(tmp_path: Path, matrix: Matrix) -> None:
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\nreqs = ['torch==1.8.1']\n"
        "for x in sorted(['numpy']):\n    reqs.append(x)\nsetup(name='m', install_requires=reqs)\n"
    )
    assert import_file_keys(tmp_path / "setup.py", matrix, "2021-06-01")["torch"] == "1.8.1"


def test_torchvision_alone_and_an_env_file_set_the_channels_solved_with(matrix: Matrix) -> None:
    text = (
        "conda install -y -c conda-forge seaborn\n"
        "conda install -y python=3.7 torchvision -c pytorch\n"
    )
    assert import_keys(text, "install.sh", matrix, "2022-05-21")["accelerators"] == ["cu113"]


def test_a_digest_alone_is_not_latest(matrix: Matrix) -> None:
    from envgen.errors import ImportSpecError

    with pytest.raises(ImportSpecError, match="the tag names no torch release"):
        import_keys(
            "FROM pytorch/pytorch@sha256:" + "0" * 64 + "\n", "Dockerfile", matrix, "2021-01-01"
        )


def test_two_commands_in_emphasis_on_one_line_are_not_one(matrix: Matrix) -> None:
    text = "## Install\n*pip install torch==1.4.0* or *pip install torch==1.5.0*\n"
    got = import_keys(text, "README.md", matrix, "2020-06-01")
    assert got["torch"] != "1.5.0"


def test_a_lock_whose_python_is_unknown_still_decides_extras() -> None:
    from envgen.repro.importer.uv_lock import declared

    lock = (
        'version = 1\nrequires-python = ">=2.0,<3.0"\n\n[[package]]\nname = "paper"\n'
        'version = "0.1.0"\nsource = { virtual = "." }\n'
        'dependencies = [{ name = "torch", marker = "extra == \'extra-5-paper-gpu\'" }]\n\n'
        '[[package]]\nname = "torch"\nversion = "2.1.0"\nsource = { registry = "https://pypi.org/simple" }\n'
    )
    assert declared(lock, "uv.lock").requirements == []
