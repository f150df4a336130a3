"""`envgen import` readers against a hostile clone: no read outside the checkout, no secret echoed
back, no input that takes more than a few seconds.

A repository cloned as ~/scripts (or a ~/.github/workflows/ci.yml) once widened the readable area
to the user's home, so `pip install -r .netrc` printed the token in a warning and in project.yaml;
two README patterns and tree-sitter-bash's error recovery were quadratic on 100 kB lines.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from envgen.cli import main
from tests.support.bounds import bounded

SECRET = "ghp_SECRETTOKEN123"  # noqa: S105 - a fake token the tests look for
NETRC = f"machine github.com login alice password {SECRET}\n"


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    main(list(args))


def run(file: str, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str, str]:
    """Import `file` from `cwd`; (exit code, stdout, stderr, project.yaml or "")."""
    monkeypatch.chdir(cwd)
    out = cwd.parent / f"{cwd.name}-project.yaml"
    out.unlink(missing_ok=True)
    with bounded(limit_kib=None):
        result = CliRunner().invoke(
            _entry, ["import", file, "--offline", "-o", str(out)], catch_exceptions=False
        )
    project = out.read_text() if out.exists() else ""
    return result.exit_code, result.stdout, result.stderr, project


def _no_secret(*texts: str) -> None:
    for text in texts:
        assert SECRET not in text
        assert "SECRETTOKEN" not in text


# --- the readable area is the checkout, never the home above it --------------------------------
def test_a_clone_named_scripts_does_not_open_the_folder_above(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / "scripts").mkdir(parents=True)
    (home / "secrets.txt").write_text(NETRC)
    (home / "scripts" / "install.sh").write_text(
        "#!/bin/bash\npip install torch==2.1.0\npip install -r secrets.txt\n"
    )
    code, out, err, project = run("scripts/install.sh", home, monkeypatch)
    _no_secret(out, err, project)
    assert code == 0
    assert "secrets.txt" in err  # the include is reported, not read


def test_home_is_never_a_checkout_even_with_a_dotfiles_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".git").mkdir(parents=True)  # a dotfiles repository kept in ~
    (home / "scripts").mkdir()
    (home / "secrets.txt").write_text(NETRC)
    (home / "scripts" / "install.sh").write_text(
        "#!/bin/bash\npip install torch==2.1.0\npip install -r secrets.txt\n"
    )
    monkeypatch.setenv("HOME", str(home))
    code, out, err, project = run("scripts/install.sh", home, monkeypatch)
    _no_secret(out, err, project)
    assert code == 0


def test_a_ci_file_above_no_checkout_does_not_open_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    (home / ".github" / "workflows").mkdir(parents=True)
    (home / "secrets.txt").write_text(NETRC)
    (home / ".github" / "workflows" / "ci.yml").write_text(
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: pip install torch==2.1.0 && pip install -r secrets.txt\n"
    )
    code, out, err, project = run(".github/workflows/ci.yml", home, monkeypatch)
    _no_secret(out, err, project)
    assert code == 0


def test_a_checkout_with_git_still_reads_its_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clone = tmp_path / "clone"
    (clone / ".git").mkdir(parents=True)
    (clone / "scripts").mkdir()
    (clone / ".github" / "workflows").mkdir(parents=True)
    (clone / "requirements.txt").write_text("torch==2.1.0\nnumpy==1.24.4\n")
    (clone / "scripts" / "install.sh").write_text("#!/bin/bash\npip install -r requirements.txt\n")
    (clone / ".github" / "workflows" / "ci.yml").write_text(
        "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: pip install -r requirements.txt\n"
    )
    for file in ("scripts/install.sh", ".github/workflows/ci.yml"):
        code, _, err, project = run(file, clone, monkeypatch)
        assert code == 0, err
        assert "numpy==1.24.4" in project


@pytest.mark.parametrize(
    "name", [".netrc", ".pypirc", ".git-credentials", ".npmrc", "pip.conf", ".config/pip/pip.conf"]
)
def test_dotfiles_and_credentials_are_never_included(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    clone = tmp_path / "clone"
    (clone / ".git").mkdir(parents=True)
    (clone / name).parent.mkdir(parents=True, exist_ok=True)
    (clone / name).write_text(NETRC)
    (clone / "install.sh").write_text(
        f"#!/bin/bash\npip install torch==2.1.0\npip install -r {name}\nconda install --file {name}\n"
    )
    (clone / "requirements.txt").write_text(f"torch==2.1.0\n-r {name}\n")
    for file in ("install.sh", "requirements.txt"):
        code, out, err, project = run(file, clone, monkeypatch)
        _no_secret(out, err, project)
        assert code == 0
        assert "a dotfile or credentials file" in err


# --- every reader ends in time --------------------------------------------------------------------
N = 100_000


@pytest.mark.parametrize(
    "line",
    [
        "a" + " " * N + "x",  # `name  version` columns: `\s*(?::\s*|\s+)`
        "PyTorch" + " " * N + ":",
        ".. code-block::" + " " * N + "x x",  # rST block: `::\s*(\w*)\s*$`
        "a" + "==1 " * (N // 4) + "%",
    ],
    ids=["columns", "columns-colon", "rst-block", "spec-line"],
)
@pytest.mark.parametrize(
    "context",
    [
        "# Proj\n\n## Requirements\n\n{}\n\npip install torch==1.7.1\n",
        "# Proj\n\n## Requirements\n\n- {}\n",
        "# Proj\n\nInstall packages:\n\n```\n{}\n```\n",
    ],
    ids=["prose", "item", "block"],
)
def test_readme_lines_are_read_in_linear_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, context: str
) -> None:
    (tmp_path / "README.md").write_text(context.format(line))
    run("README.md", tmp_path, monkeypatch)


def test_a_script_tree_sitter_cannot_parse_in_time_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "install.sh").write_text(
        "#!/bin/sh\npip install torch==2.1.0\n[" + "[a](" * 20_000 + "\n"
    )
    code, _, err, _ = run("install.sh", tmp_path, monkeypatch)
    assert code == 11
    assert "too big to follow (parsing it took more than" in err
