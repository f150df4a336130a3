"""`envgen import` of old eras, channels and labels, and hostile includes (issues 21 and 24).

Each case runs the real CLI (`envgen import FILE`) on a file written into tmp_path. Expected
answers follow from the shipped matrix (`envgen matrix show <version>`) and the recorded
previous-versions page: pytorch-cpu is the pytorch channel's CPU package, cuda80 its CUDA 8.0
metapackage, 1.8.2 the only release on -c pytorch-lts, pytorch-cuda exists for 11.6-12.4 only,
torch 0.1.9 a real release older than the matrix (which starts at 0.1.12).
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from envgen.cli import main as envgen_main


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def main(args: tuple[str, ...]) -> None:
    """The real entry point (its error boundary and exit codes) under click's runner."""
    envgen_main(list(args))


def _import(tmp_path: Path, name: str, text: str, *args: str) -> tuple[int, dict[str, object], str]:
    (tmp_path / name).write_text(text)
    result = CliRunner().invoke(main, ["import", str(tmp_path / name), *args])
    project = yaml.safe_load(result.stdout) if result.exit_code == 0 else {}
    return result.exit_code, project, result.stderr


def test_pytorch_cpu_0_4_1_stays_a_cpu_build(tmp_path: Path) -> None:
    code, project, err = _import(
        tmp_path,
        "environment.yml",
        "channels: [pytorch]\ndependencies:\n  - python=3.6\n  - pytorch-cpu=0.4.1\n"
        "  - torchvision-cpu\n",
    )
    assert code == 0, err
    assert (project["torch"], project["accelerators"], project["managers"]) == (
        "0.4.1",
        ["cpu"],
        ["pip"],
    )
    assert "now cu80" not in err
    assert "the file asks for a CPU build" in err
    assert "torchvision-cpu" not in str(project.get("conda"))


def test_cuda80_metapackage_is_cuda_8_0(tmp_path: Path) -> None:
    code, project, err = _import(
        tmp_path, "install.sh", "conda install pytorch=0.4.1 cuda80 -c pytorch\n"
    )
    assert code == 0, err
    assert project["accelerators"] == ["cu80"]
    assert "cuda80" not in str(project.get("conda"))


def test_no_build_recorded_is_cpu_without_contradiction(tmp_path: Path) -> None:
    code, project, err = _import(tmp_path, "requirements.txt", "torch==0.4.0\n")
    assert code == 0, err
    assert project["accelerators"] == ["cpu"]
    assert "the newest CUDA" not in err
    # 0.4.0's wheels on download.pytorch.org are rows now (cpu, cu80, cu90), but which of them
    # PyPI served is not recorded: cpu, with the builds that existed named.
    assert "does not record which build PyPI served on linux-64" in err
    assert "torch 0.4.0 was built for cu80, cu90" in err


def test_torch_0_1_9_is_a_real_release_older_than_the_matrix(tmp_path: Path) -> None:
    # The matrix starts at 0.1.12 (0.3.1's rows are tested in test_import_families.py).
    code, project, err = _import(tmp_path, "requirements.txt", "torch==0.1.9\n")
    assert code == 0, err
    assert project["torch"] == "0.1.12"
    assert "not a PyTorch release" not in err
    assert "torch was 0.1.9, now 0.1.12, because torch 0.1.9 is a real release" in err
    assert 'torch: "0.1.12"  # the file pins torch 0.1.9 (requirements.txt:1)' in (
        CliRunner().invoke(main, ["import", str(tmp_path / "requirements.txt")]).stdout
    )
    code, _, err = _import(tmp_path, "requirements.txt", "torch==0.1.9\n", "--strict")
    assert code != 0
    assert "--strict" in err


def test_post_release_is_recognised(tmp_path: Path) -> None:
    code, project, err = _import(tmp_path, "requirements.txt", "torch==1.0.1.post2\n")
    assert code == 0, err
    assert project["torch"] == "1.0.1.post2"  # its cu90 wheel: download.pytorch.org/whl/cu90/
    assert "never published" not in err
    assert "torch 1.0.1.post2 is a post-release of 1.0.1" in err
    # A post-release that never existed is still a departure.
    code, _, err = _import(tmp_path, "requirements.txt", "torch==1.0.1.post7\n")
    assert code == 0
    assert "never published as a release" in err


def test_pytorch_lts_unpinned_is_1_8_2(tmp_path: Path) -> None:
    code, project, err = _import(
        tmp_path,
        "install.sh",
        "conda install pytorch torchvision torchaudio cudatoolkit=11.1 -c pytorch-lts -c nvidia\n",
    )
    assert code == 0, err
    assert (project["torch"], project["accelerators"]) == ("1.8.2", ["cu111"])
    assert "holds only the LTS release 1.8.2" in err


def test_pytorch_cuda_that_never_existed_is_named(tmp_path: Path) -> None:
    code, project, err = _import(
        tmp_path,
        "install.sh",
        "conda install pytorch==1.12.1 pytorch-cuda=11.3 -c pytorch -c nvidia\n",
    )
    assert code == 0, err
    assert project["accelerators"] == ["cu113"]
    assert (
        "pytorch-cuda=11.3 was never published: the pytorch-cuda metapackage (-c pytorch -c "
        "nvidia) exists for CUDA 11.6, 11.7, 11.8, 12.1, 12.4"
    ) in err


def test_python_3_5_is_kept_where_the_release_was_published_for_it(tmp_path: Path) -> None:
    """envgen locks and builds 3.5 (pip 20.3.4, envgen.lock.legacy): the file's python stays."""
    (tmp_path / "environment.yml").write_text(
        "dependencies:\n  - python=3.5\n  - pytorch=1.1.0\n  - cudatoolkit=10.0\n"
    )
    result = CliRunner().invoke(main, ["import", str(tmp_path / "environment.yml")])
    assert result.exit_code == 0, result.output
    assert 'python: "3.5"\n' in result.stdout
    assert "python was 3.5" not in result.stderr


def test_python_2_7_is_kept_and_moved_only_where_torch_had_no_2_7_build(tmp_path: Path) -> None:
    (tmp_path / "environment.yml").write_text(
        "dependencies:\n  - python=2.7\n  - pytorch=1.0.1\n  - cuda100\n"
    )
    result = CliRunner().invoke(main, ["import", str(tmp_path / "environment.yml")])
    assert result.exit_code == 0, result.stderr
    assert 'python: "2.7"\n' in result.stdout
    assert 'accelerators:\n  - "cu100"' in result.stdout
    (tmp_path / "environment.yml").write_text("dependencies:\n  - python=2.7\n  - pytorch=1.6.0\n")
    result = CliRunner().invoke(main, ["import", str(tmp_path / "environment.yml")])
    assert result.exit_code == 0, result.stderr
    assert 'python: "3.7"\n' in result.stdout
    assert (
        "environment.yml: dependencies[0]: python was 2.7, now 3.7, because torch 1.6.0 was "
        "published for python 3.6, 3.7, 3.8"
    ) in result.stderr


@pytest.mark.parametrize("include", ["../outside/x.txt", "/etc/passwd"])
def test_import_file_does_not_follow_includes_out_of_its_folder(
    tmp_path: Path, include: str
) -> None:
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "x.txt").write_text("secret-canary==1.0\ntorch==1.4.0\n")
    paper = tmp_path / "paper"
    (paper / "sub").mkdir(parents=True)
    (paper / "sub" / "ok.txt").write_text("torch==1.8.1\n")
    (paper / "requirements.txt").write_text(f"-r {include}\n-r sub/ok.txt\n")
    result = CliRunner().invoke(main, ["import", str(paper / "requirements.txt")])
    assert result.exit_code == 0, result.stderr
    assert 'torch: "1.8.1"' in result.stdout
    what = "an absolute path" if include.startswith("/") else "outside the file's folder"
    assert (
        f"warning: requirements.txt:1: -r {include}: {what}; not followed (an import reads only "
        "files inside the imported file's folder)"
    ) in result.stderr
    assert "secret-canary" not in result.output
    assert "root:" not in result.output


def test_too_deep_pyproject_and_setup_py(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[project]\ndependencies = " + "[" * 200_000 + "]" * 200_000 + "\n"
    )
    (tmp_path / "setup.py").write_text(
        "from setuptools import setup\nx = " + "+".join(["1"] * 300_000) + "\n"
        "setup(install_requires=['torch==1.7.1'])\n"
    )
    (tmp_path / "requirements.txt").write_text("torch==1.8.1\n")
    for name, what in (("pyproject.toml", "a TOML value"), ("setup.py", "an expression")):
        result = CliRunner().invoke(main, ["import", str(tmp_path / name)])
        assert result.exit_code == 11, result.output
        assert result.stderr == (
            f"error: {name}: {what} is nested too deeply to read (more than Python's recursion "
            "limit of nested brackets or terms); refused: no real environment file looks like "
            "this\n"
        )
    result = CliRunner().invoke(main, ["import", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert 'torch: "1.8.1"' in result.stdout
    assert "setup.py: an expression is nested too deeply" in result.stderr
    assert "skipped, the other files are read" in result.stderr
    assert "internal error" not in result.output


def test_lts_pip_index_is_1_8_2_with_its_cuda(tmp_path: Path) -> None:
    code, project, err = _import(
        tmp_path,
        "install.sh",
        "pip3 install torch torchvision --extra-index-url "
        "https://download.pytorch.org/whl/lts/1.8/cu111\n",
    )
    assert code == 0, err
    assert (project["torch"], project["torchvision"], project["accelerators"]) == (
        "1.8.2",
        True,
        ["cu111"],
    )
    assert "no PyTorch index" not in err


@pytest.mark.parametrize(
    ("line", "torch", "acc", "python"),
    [
        ("https://download.pytorch.org/whl/cu80/torch-0.3.1-cp36-cp36m-linux_x86_64.whl",
         "0.3.1", "cu80", "3.6"),
        ("https://download.pytorch.org/whl/cpu/torch-1.0.1.post2-cp37-cp37m-linux_x86_64.whl",
         "1.0.1.post2", "cpu", "3.7"),
    ],
    ids=["0.3.1-cu80", "1.0.1.post2-cpu"],
)  # fmt: skip
def test_an_old_wheel_urls_folder_names_its_build(
    tmp_path: Path, line: str, torch: str, acc: str, python: str
) -> None:
    code, project, err = _import(tmp_path, "install.sh", f"pip3 install {line}\n", "--offline")
    assert code == 0, err
    assert (project["torch"], project["accelerators"], project["python"]) == (torch, [acc], python)
    assert "the newest CUDA" not in err


def test_an_include_linked_out_of_the_folder_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "outside.txt").write_text("secret-canary==1.0\n")
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "inc.txt").symlink_to(tmp_path / "outside.txt")
    (paper / "requirements.txt").write_text("-r inc.txt\ntorch==1.8.1\n")
    result = CliRunner().invoke(main, ["import", str(paper / "requirements.txt")])
    assert result.exit_code == 0, result.output
    assert "-r inc.txt: outside the file's folder; not followed" in result.stderr
    assert "secret-canary" not in result.output


def test_undated_0_4_releases_count_as_published_before_1_0(tmp_path: Path) -> None:
    # 0.4.x were never on PyPI (releases.yaml has no date for them); as of 2018-12-08 the newest
    # release built for CUDA 9.2 (the cuda92 metapackage) is 0.4.1: 1.0.0 had no cu92 build.
    code, project, err = _import(
        tmp_path,
        "install.sh",
        "conda install pytorch torchvision cuda92 -c pytorch --yes\n",
        "--as-of",
        "2018-12-08",
    )
    assert code == 0, err
    assert (project["torch"], project["accelerators"]) == ("0.4.1", ["cu92"])


def test_pip_torch_that_conda_already_satisfies_keeps_the_conda_build(tmp_path: Path) -> None:
    code, project, err = _import(
        tmp_path,
        "environment.yml",
        "channels: [pytorch, conda-forge]\ndependencies:\n  - python=3.9\n  - pytorch=1.11.0\n"
        "  - pip\n  - pip:\n    - torch==1.11.0\n",
    )
    assert code == 0, err
    # pip sees conda's pytorch 1.11.0 as torch 1.11.0: nothing to install. With neither
    # cudatoolkit nor cpuonly, conda took the build with the newest cudatoolkit: 11.5, which
    # conda-forge (listed) carried (the channel's unlisted pytorch-1.11.0-..._cuda11.5 build).
    assert (project["torch"], project["managers"], project["accelerators"]) == (
        "1.11.0",
        ["conda"],
        ["cu115"],
    )


@pytest.mark.parametrize(
    "line",
    [
        "conda create -n L python=3.8 pytorch=1.10 cudatoolkit=11.3 torchvision==0.11.0 "
        "torchaudio==0.10.0 -c pytorch -y\n",
        "pip install torch torchvision==0.11.0\n",
    ],
    ids=["conda-fuzzy", "pip-unpinned"],
)
def test_a_pinned_companion_chooses_torch_in_a_range(tmp_path: Path, line: str) -> None:
    code, project, err = _import(tmp_path, "install.sh", line, "--offline")
    assert code == 0, err
    assert (project["torch"], project["torchvision"]) == ("1.10.0", "0.11.0")
    assert "torchvision 0.11.0 belongs to torch 1.10.0 only" in err
