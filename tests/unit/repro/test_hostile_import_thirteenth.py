"""A fresh attacker on the thirteenth draw's mechanisms (issue 24): `hatch run` and `pipenv run`
that run themselves or fan out, blank lines that made the exit checks cubic, a prose python that
made the README reader quadratic, one file included again and again, a deep JSON array in a
Dockerfile's CMD, a hatch table of the wrong types, a Poetry version with a 5,000-digit part, a
Dockerfile reached through a symlink, and a build context widened past a project's own root.
Each import ends within tests.support.bounds.LIMIT_S with a clear outcome (a project, or a
refusal), never an internal error."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, parse_file
from envgen.repro.importer.requirements import MAX_INCLUDED_BYTES
from tests.support.bounds import bounded


def _clone(tmp_path: Path) -> Path:
    root = tmp_path / "clone"
    root.mkdir(parents=True)
    (root / ".git").mkdir()
    return root


def _torch(path: Path) -> str | None:
    found = parse_file(path)
    return found.torch.version if found.torch else None


def test_hatch_scripts_that_fan_out_or_run_themselves_are_bounded(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    chain = "\n".join(f's{i} = ["hatch run s{i + 1}", "hatch run s{i + 1}"]' for i in range(20))
    (root / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\ndependencies = ["torch==1.13.1"]\n'
        f"[tool.hatch.envs.default.scripts]\n{chain}\n"
        'foo = "pip install torch==1.13.1 && hatch run foo"\n'
    )
    for script in ("s0", "foo"):
        (root / "install.sh").write_text(f"hatch run {script}\n")
        with bounded():
            assert _torch(root / "install.sh") == "1.13.1"


def test_chained_run_prefixes_end(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    (root / "install.sh").write_text("pipenv run " * 1400 + "pip install torch==1.13.1\n")
    with bounded():
        found = parse_file(root / "install.sh")
    assert any("nested more than" in w for w in found.warnings)


def test_blank_lines_in_a_branch_are_read_in_linear_time(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    (root / "install.sh").write_text(
        'if [ -e /opt/x ]; then\n  echo "' + "\n" * 8000 + '"\n  pip install torch==1.13.1\nfi\n'
    )
    (root / "install.bat").write_text(
        "if exist foo (\r\n" + " \r\n" * 8000 + "pip install torch==1.13.1\r\n)\r\n"
    )
    for name in ("install.sh", "install.bat"):
        with bounded():
            parse_file(root / name)


def test_a_long_prose_python_is_read_in_linear_time(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    (root / "README.md").write_text(
        "# P\n\n## Installation\n\n```\npip install torch==1.13.1\n```\n\n"
        "Create python3." + "1" * 200_000 + "\n"
    )
    with bounded():
        assert _torch(root / "README.md") == "1.13.1"


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_what_one_import_includes_is_bounded_in_all(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    (root / "r.txt").write_text("torch==1.13.1\n" + "# padding\n" * 90_000)
    count = MAX_INCLUDED_BYTES // (root / "r.txt").stat().st_size + 20
    (root / "install.sh").write_text("pip install -r r.txt\n" * count)
    with bounded(limit_s=30.0):
        found = parse_file(root / "install.sh")
    assert any("included so far hold more than" in w for w in found.warnings)


@pytest.mark.parametrize(
    "table",
    [
        "[tool.hatch.envs.default.scripts]\nfoo = 5\n",
        "[tool.hatch.envs.default]\nscripts = true\n",
        "[tool]\nhatch = 5\n",
        "[tool.hatch]\nenvs = [1, 2]\n",
    ],
)
def test_a_hatch_table_of_the_wrong_type_is_no_error(tmp_path: Path, table: str) -> None:
    root = _clone(tmp_path)
    (root / "pyproject.toml").write_text(table)
    (root / "install.sh").write_text("pip install torch==2.1.0\nhatch run foo\n")
    assert _torch(root / "install.sh") == "2.1.0"


def test_a_deep_json_array_is_not_an_error(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    for keyword in ("CMD", "RUN", "COPY"):
        (root / "Dockerfile").write_text(
            f"FROM python:3.8\nRUN pip install torch==1.13.1\n{keyword} " + "[" * 5000 + "\n"
        )
        assert _torch(root / "Dockerfile") == "1.13.1"


def test_a_poetry_version_with_a_huge_part_is_refused_not_raised(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    (root / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "x"\nversion = "0"\n[tool.poetry.dependencies]\n'
        f'torch = "^{"9" * 5000}"\n'
    )
    with contextlib.suppress(ImportSpecError):  # a clear refusal is fine; a ValueError is not
        run_import(ImportOptions(source=root / "pyproject.toml", as_of="2024-01-01"))


def test_a_dockerfile_through_a_symlink_is_no_error(tmp_path: Path) -> None:
    root = _clone(tmp_path)
    other = tmp_path / "other" / "x"
    other.mkdir(parents=True)
    (other / "Dockerfile").write_text("FROM python:3.8\nRUN pip install torch==1.13.1\n")
    (root / "d").symlink_to(other)
    assert _torch(root / "d" / "Dockerfile") == "1.13.1"


def test_the_context_is_not_widened_past_a_projects_own_root(tmp_path: Path) -> None:
    outer = _clone(tmp_path / "outer")  # the user's own work tree
    (outer / "private").mkdir()
    (outer / "private" / "reqs.txt").write_text("torch==1.13.1\nsecret-internal-pkg==9.9\n")
    project = outer / "dl" / "proj"  # an archive unpacked inside it: no .git, its own README
    (project / "docker").mkdir(parents=True)
    (project / "README.md").write_text("# proj\n")
    (project / "docker" / "Dockerfile").write_text(
        "FROM python:3.8\nCOPY private/reqs.txt /tmp/\nRUN pip install -r /tmp/reqs.txt\n"
    )
    found = parse_file(project / "docker" / "Dockerfile")
    assert "secret-internal-pkg==9.9" not in found.pip_reqs
