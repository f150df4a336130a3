"""A script's `cd` into a folder of its own checkout (issue 24: ArcovanBreda/CEConvDL2's SLURM
script runs `cd $HOME/CEConvDL2/CEConv` and then `pip install -r requirements.txt`): the files
its later lines name are that folder's. A `cd` the import cannot place (another project, a
folder the checkout lacks, a path outside it) is read as before: the files are named from the
folder the script is in (a `pip install .` there is not the file's project)."""

from __future__ import annotations

from pathlib import Path

from envgen.repro.importer import parse_file


def _checkout(tmp_path: Path, script: str, name: str = "proj") -> Path:
    root = tmp_path / name
    (root / "sub").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "requirements.txt").write_text("torch==2.0.1\n")
    (root / "sub" / "requirements.txt").write_text("torch==2.3.0\n")
    (root / "install.sh").write_text(script)
    return root / "install.sh"


def _torch(path: Path) -> str | None:
    found = parse_file(path)
    return found.torch.version if found.torch else None


def test_a_cd_into_a_folder_of_the_checkout_reads_that_folders_files(tmp_path: Path) -> None:
    assert _torch(_checkout(tmp_path, "cd sub\npip install -r requirements.txt\n")) == "2.3.0"
    assert _torch(_checkout(tmp_path / "b", "cd ./sub && pip install -r requirements.txt\n")) == (
        "2.3.0"
    )


def test_a_cd_through_the_users_home_clone_ends_in_the_checkout(tmp_path: Path) -> None:
    # the clone's name in the user's home is not known; a tail the checkout has is
    for n, home in enumerate(("$HOME", "~", "${HOME}", "/root")):
        script = f"cd {home}/someclone/sub\npip install -r requirements.txt\n"
        assert _torch(_checkout(tmp_path / str(n), script)) == "2.3.0", home
    # the folder named as the checkout is its root
    script = "cd ~/proj\npip install -r requirements.txt\n"
    assert _torch(_checkout(tmp_path / "named", script)) == "2.0.1"


def test_a_cd_the_import_cannot_place_is_not_the_folder(tmp_path: Path) -> None:
    targets = ("/opt/other/sub", "missing", "~/clone/missing", "$SOMEWHERE/sub", "/home/u/x/sub")
    for n, target in enumerate(targets):
        path = _checkout(tmp_path / str(n), f"cd {target}\npip install -r requirements.txt\n")
        assert _torch(path) == "2.0.1", target
        dot = _checkout(tmp_path / f"dot{n}", f"cd {target}\npip install .\n")
        (dot.parent / "sub" / "pyproject.toml").write_text(
            '[project]\nname = "s"\nversion = "0"\ndependencies = ["torch==2.2.1"]\n'
        )
        assert _torch(dot) is None, target


def test_popd_returns_to_the_folder_pushd_left(tmp_path: Path) -> None:
    script = "pushd sub\npopd\npip install -r requirements.txt\n"
    assert _torch(_checkout(tmp_path, script)) == "2.0.1"
    sub = "(cd sub && pip install -r requirements.txt)\n"
    assert _torch(_checkout(tmp_path / "b", sub)) == "2.3.0"


def test_cd_up_from_a_helper_folder_is_the_root(tmp_path: Path) -> None:
    path = _checkout(tmp_path, "")
    (path.parent / "scripts").mkdir()
    helper = path.parent / "scripts" / "setup.sh"
    helper.write_text("cd ..\npip install -r requirements.txt\n")
    assert _torch(helper) == "2.0.1"


def test_a_cd_into_a_cloned_project_is_still_not_followed(tmp_path: Path) -> None:
    script = "git clone https://github.com/x/sub\ncd sub\npip install -r requirements.txt\n"
    assert _torch(_checkout(tmp_path, script)) == "2.0.1"


def test_a_cd_through_a_symlink_out_of_the_checkout_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "requirements.txt").write_text("torch==1.13.1\n")
    path = _checkout(tmp_path, "cd link\npip install -r requirements.txt\n")
    (path.parent / "link").symlink_to(outside)
    assert _torch(path) == "2.0.1"


def test_a_cd_into_a_folder_reads_its_project_for_pip_install_dot(tmp_path: Path) -> None:
    path = _checkout(tmp_path, "cd sub\npip install -e .\n")
    (path.parent / "sub" / "pyproject.toml").write_text(
        '[project]\nname = "s"\nversion = "0"\ndependencies = ["torch==2.2.1"]\n'
    )
    assert _torch(path) == "2.2.1"


# --- the review's cases: a cd the import cannot place, or `cd -`, leaves the subfolder -------------
def test_a_cd_back_to_an_unknown_root_reads_the_scripts_folder_again(tmp_path: Path) -> None:
    script = (
        "ROOT_DIR=$(pwd)\ncd sub\npython setup.py build_ext --inplace\ncd $ROOT_DIR\n"
        "pip install -r requirements.txt\n"
    )
    assert _torch(_checkout(tmp_path, script)) == "2.0.1"
    back = "cd sub\nwget x\ncd -\npip install -r requirements.txt\n"
    assert _torch(_checkout(tmp_path / "b", back)) == "2.0.1"
    forth = "cd sub\ncd /tmp\ncd -\npip install -r requirements.txt\n"
    assert _torch(_checkout(tmp_path / "c", forth)) == "2.3.0"


def test_a_home_path_is_the_clone_only_as_home_clone_folder(tmp_path: Path) -> None:
    # another project the script cloned there, a dot folder, a deeper path: not the checkout
    for n, script in enumerate(
        (
            "git clone https://github.com/NVIDIA/apex ~/apex\ncd ~/apex/sub\n",
            "cd ~/.cache/sub\n",
            "cd ~/software/tools/sub\n",
        )
    ):
        path = _checkout(tmp_path / str(n), script + "pip install -r requirements.txt\n")
        assert _torch(path) == "2.0.1", script


def test_pip_install_dot_in_two_folders_reads_both(tmp_path: Path) -> None:
    path = _checkout(tmp_path, "cd sub\npip install -e .\ncd ..\npip install -e .\n")
    (path.parent / "sub" / "pyproject.toml").write_text(
        '[project]\nname = "s"\nversion = "0"\ndependencies = ["tqdm"]\n'
    )
    (path.parent / "pyproject.toml").write_text(
        '[project]\nname = "r"\nversion = "0"\ndependencies = ["torch==2.2.1"]\n'
    )
    assert _torch(path) == "2.2.1"


def test_each_readme_block_starts_at_the_root(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "requirements.txt").write_text("torch==1.10.0\n")
    (root / "docs" / "requirements.txt").write_text("torch==1.13.1\nsphinx\n")
    (root / "README.md").write_text(
        "## Docs\n```bash\ncd docs\nmake html\n```\n"
        "## Installation\n```bash\npip install -r requirements.txt\n```\n"
    )
    assert _torch(root / "README.md") == "1.10.0"
