"""`envgen import uv.lock`: the file's name, what is not a lock, and hostile locks (cycles
through extras, forks by python, many packages) read in bounded time. The locks real uv writes
are read in tests/integration/test_uv_lock_written_by_uv.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, detect_kind, import_text
from envgen.repro.importer.uv_lock import declared
from tests.support.bounds import bounded
from tests.support.importing import import_file_keys, import_keys

_HEAD = 'version = 1\nrevision = 2\nrequires-python = ">=3.10"\n\n'
_ROOT = """\
[[package]]
name = "paper"
version = "0.1.0"
source = {{ virtual = "." }}
dependencies = [{deps}]
"""
_PKG = """\
[[package]]
name = "{name}"
version = "{version}"
source = {{ registry = "{registry}" }}
{extra}
"""
_PYPI = "https://pypi.org/simple"


def _pkg(name: str, version: str, registry: str = _PYPI, extra: str = "") -> str:
    return _PKG.format(name=name, version=version, registry=registry, extra=extra)


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_detects_uv_lock() -> None:
    assert detect_kind("uv.lock", "") == "uv-lock"
    assert detect_kind("UV.LOCK", "") == "uv-lock"


def test_not_toml_and_not_a_lock_are_errors(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match=r"uv.lock: not valid TOML") as err:
        import_text("version = [", filename="uv.lock", matrix=matrix)
    assert err.value.hint == "a uv.lock as `uv lock` writes it"
    with pytest.raises(ImportSpecError, match=r"not a uv.lock \(no `version = 1`"):
        import_text('name = "x"\n', filename="uv.lock", matrix=matrix)


def test_plain_lock_reads_the_reached_pins(matrix: Matrix) -> None:
    """The project reaches torch from the cu118 index through torchvision; a package nobody
    reaches (a fork for another platform) is not read."""
    text = (
        _HEAD
        + _ROOT.format(deps='{ name = "torchvision" }')
        + _pkg(
            "torchvision", "0.16.0+cu118", "https://download.pytorch.org/whl/cu118",
            'dependencies = [{ name = "torch", version = "2.1.0+cu118", source = '
            '{ registry = "https://download.pytorch.org/whl/cu118" } }]',
        )
        + _pkg("torch", "2.1.0+cu118", "https://download.pytorch.org/whl/cu118")
        + _pkg("torch", "2.1.0", "https://download.pytorch.org/whl/cpu")
    )  # fmt: skip
    got = import_keys(text, "uv.lock", matrix, "2024-01-01")
    assert (got["torch"], got["torchvision"], got["accelerators"]) == (
        "2.1.0", "0.16.0", ["cu118"],
    )  # fmt: skip


def test_marker_forks_by_platform_take_linux(matrix: Matrix) -> None:
    text = (
        _HEAD
        + _ROOT.format(
            deps='{ name = "torch", version = "2.2.0", source = { registry = "' + _PYPI + '" }, '
            "marker = \"sys_platform == 'darwin'\" }, "
            '{ name = "torch", version = "2.2.0+cpu", source = { registry = '
            '"https://download.pytorch.org/whl/cpu" }, marker = "sys_platform == \'linux\'" }'
        )
        + _pkg("torch", "2.2.0")
        + _pkg("torch", "2.2.0+cpu", "https://download.pytorch.org/whl/cpu")
    )
    got = import_keys(text, "uv.lock", matrix, "2024-03-01")
    assert (got["torch"], got["accelerators"]) == ("2.2.0", ["cpu"])


def test_lock_without_a_project_entry_reads_every_package() -> None:
    text = _HEAD + _pkg("torch", "2.1.0") + _pkg("numpy", "1.26.4")
    out = declared(text, "uv.lock")
    assert [r for _, r in out.requirements] == ["torch==2.1.0", "numpy==1.26.4"]
    assert out.warnings == ["uv.lock: no project entry (a virtual or editable source); every "
                            "locked package read"]  # fmt: skip
    assert out.requirements[0][0] == 6  # the line of the package's `name = ...`


def test_cycle_through_extras_ends() -> None:
    """a[x] needs b[y], b[y] needs a[x]: each (package, extras) is walked once."""
    cyc_a = (
        'dependencies = [{ name = "b", extra = ["y"] }]\n'
        '[package.optional-dependencies]\nx = [{ name = "b", extra = ["y"] }]'
    )
    cyc_b = (
        '[package.optional-dependencies]\ny = [{ name = "a", extra = ["x"] }, { name = "torch" }]'
    )
    text = (
        _HEAD
        + _ROOT.format(deps='{ name = "a", extra = ["x"] }')
        + _pkg("a", "1.0", extra=cyc_a)
        + _pkg("b", "1.0", extra=cyc_b)
        + _pkg("torch", "2.1.0")
    )
    with bounded():
        out = declared(text, "uv.lock")
    assert [r for _, r in out.requirements] == ["a==1.0", "b==1.0", "torch==2.1.0"]


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_many_packages_stay_bounded() -> None:
    """A lock of 20,000 packages, each needing the next: read in bounded time and memory."""
    n = 20_000
    parts = [_HEAD, _ROOT.format(deps='{ name = "p0" }')]
    parts += [
        _pkg(f"p{i}", "1.0", extra=f'dependencies = [{{ name = "p{i + 1}" }}]') for i in range(n)
    ]
    with bounded():
        out = declared("".join(parts), "uv.lock")
    assert len(out.requirements) < n


def test_repository_import_reads_the_lock_over_the_ranges(tmp_path: Path, matrix: Matrix) -> None:
    """`envgen import DIR` of a uv project: uv.lock's exact pins are the more specific source
    than pyproject.toml's range."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "paper"\nversion = "0.1.0"\ndependencies = ["torch>=2.0"]\n'
    )
    (tmp_path / "uv.lock").write_text(
        _HEAD + _ROOT.format(deps='{ name = "torch" }') + _pkg("torch", "2.0.1")
    )
    result = run_import(ImportOptions(source=tmp_path, as_of="2024-06-01"), matrix)
    assert result.project["torch"] == "2.0.1"


def test_uv_run_syncs_the_project_first(tmp_path: Path, matrix: Matrix) -> None:
    """`uv run CMD` in a project syncs it as `uv sync` does (the lock's pins where there is one)
    before CMD; `--no-project` runs CMD alone; `--with X` adds X."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "paper"\nversion = "0.1.0"\ndependencies = ["torch>=2.0"]\n'
    )
    (tmp_path / "run.sh").write_text("uv run python train.py\nuv run python eval.py\n")
    assert import_file_keys(tmp_path / "run.sh", matrix, "2024-06-01")["torch"] == "2.3.0"
    (tmp_path / "uv.lock").write_text(
        _HEAD + _ROOT.format(deps='{ name = "torch" }') + _pkg("torch", "2.0.1")
    )
    assert import_file_keys(tmp_path / "run.sh", matrix, "2024-06-01")["torch"] == "2.0.1"
    (tmp_path / "with.sh").write_text(
        "uv run --no-project --with torchvision==0.16.0,numpy python train.py\n"
    )
    got = import_file_keys(tmp_path / "with.sh", matrix, "2024-06-01")
    assert (got["torch"], got["torchvision"]) == ("2.1.0", "0.16.0")


def test_uv_takes_its_python_from_python_version(tmp_path: Path, matrix: Matrix) -> None:
    """uv syncs with the python `.python-version` names (uv's python request file), where the
    lock's requires-python admits several."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "paper"\nversion = "0.1.0"\ndependencies = ["torch==2.1.0"]\n'
    )
    (tmp_path / ".python-version").write_text("3.10\n")
    (tmp_path / "setup.sh").write_text("uv sync\n")
    assert import_file_keys(tmp_path / "setup.sh", matrix, "2024-06-01")["python"] == "3.10"
    (tmp_path / "uv.lock").write_text(
        _HEAD + _ROOT.format(deps='{ name = "torch" }') + _pkg("torch", "2.1.0")
    )
    assert import_file_keys(tmp_path / "uv.lock", matrix, "2024-06-01")["python"] == "3.10"
    (tmp_path / "pinned.sh").write_text("uv sync --python 3.11\n")
    assert import_file_keys(tmp_path / "pinned.sh", matrix, "2024-06-01")["python"] == "3.11"


# --- the review's findings (2026-12-07), each checked against what real uv 0.13.9 does -------
def _forked_by_python() -> str:
    return (
        'version = 1\nrevision = 2\nrequires-python = ">=3.8"\n\n'
        + _ROOT.format(
            deps='{ name = "torch", version = "2.4.1", source = '
            f'{{ registry = "{_PYPI}" }}, marker = "python_full_version < \'3.9\'" }}, '
            '{ name = "torch", version = "2.6.0", source = '
            f'{{ registry = "{_PYPI}" }}, marker = "python_full_version >= \'3.9\'" }}'
        )
        + _pkg("torch", "2.4.1")
        + _pkg("torch", "2.6.0")
    )


def test_a_fork_by_python_is_read_with_the_projects_python(tmp_path: Path) -> None:
    """The markers are read with the project's python (`.python-version`), not the python envgen
    runs on; with none, the newest requires-python admits, said."""
    assert [r for _, r in declared(_forked_by_python(), "uv.lock", python="3.8").requirements] == [
        "torch==2.4.1"
    ]
    out = declared(_forked_by_python(), "uv.lock")
    assert [r for _, r in out.requirements] == ["torch==2.6.0"]
    assert out.warnings == [
        "uv.lock: the lock forks torch and the project names no python; its markers are read "
        "with python 3.14, the newest its requires-python admits (a `.python-version` says "
        "which uv syncs with)"
    ]
    (tmp_path / "uv.lock").write_text(_forked_by_python())
    (tmp_path / ".python-version").write_text("3.8\n")
    got = import_file_keys(tmp_path / "uv.lock", load_matrix(), "2025-02-01")
    assert (got["python"], got["torch"]) == ("3.8", "2.4.1")


def test_a_workspace_member_the_root_does_not_need_is_not_synced() -> None:
    """`uv sync` at the root installs the root's dependencies; a member (`editable = "lib"`)
    only where the root depends on it."""
    member = (
        '[[package]]\nname = "lib"\nversion = "0.1.0"\nsource = { editable = "lib" }\n'
        'dependencies = [{ name = "torch" }]\n\n'
    )
    text = (
        _HEAD + _ROOT.format(deps='{ name = "filelock" }') + member
        + _pkg("filelock", "3.16.1") + _pkg("torch", "2.0.1")
    )  # fmt: skip
    assert [r for _, r in declared(text, "uv.lock").requirements] == ["filelock==3.16.1"]
    needed = text.replace('{ name = "filelock" }', '{ name = "filelock" }, { name = "lib" }')
    assert [r for _, r in declared(needed, "uv.lock").requirements] == [
        "filelock==3.16.1", "torch==2.0.1",
    ]  # fmt: skip


def _conflicting() -> str:
    """A base torch with cpu/cu121 extras and a conflicting group, as uv encodes them."""
    cpu_index, cu_index = (
        "https://download.pytorch.org/whl/cpu",
        "https://download.pytorch.org/whl/cu121",
    )
    deps = (
        f'{{ name = "torch", version = "2.1.0", source = {{ registry = "{_PYPI}" }}, marker = '
        "\"extra != 'extra-5-paper-cu121' and extra != 'group-5-paper-cpu'\" }"
    )
    opt = (
        "[package.optional-dependencies]\ncu121 = [\n"
        f'  {{ name = "torch", version = "2.1.0+cu121", source = {{ registry = "{cu_index}" }} }},\n]\n'
        "[package.dev-dependencies]\ncpu = [\n"
        f'  {{ name = "torch", version = "2.1.0+cpu", source = {{ registry = "{cpu_index}" }} }},\n]\n'
    )
    return (
        _HEAD + _ROOT.format(deps=deps) + opt + "\n"
        + _pkg("torch", "2.1.0") + _pkg("torch", "2.1.0+cu121", cu_index)
        + _pkg("torch", "2.1.0+cpu", cpu_index)
    )  # fmt: skip


def test_conflicting_extras_and_groups_are_one_chosen_set() -> None:
    """`extra != 'extra-5-paper-cu121'` fails once --extra cu121 is chosen, and a conflicting
    group is `group-5-paper-cpu`: each sync installs one torch."""

    def torches(**kw: object) -> list[str]:
        return [r for _, r in declared(_conflicting(), "uv.lock", **kw).requirements]  # type: ignore[arg-type]

    assert torches() == ["torch==2.1.0"]
    assert torches(extras=("cu121",)) == ["torch==2.1.0+cu121"]
    assert torches(groups=("cpu",), only_groups=False) == ["torch==2.1.0+cpu"]


def test_a_lock_with_wrong_types_is_no_traceback() -> None:
    text = _HEAD + _ROOT.format(deps="").replace("dependencies = []", "dependencies = 5")
    assert declared(text, "uv.lock").requirements == []


def test_uv_sync_group_flags(tmp_path: Path, matrix: Matrix) -> None:
    """`--only-group G` installs G alone (not the project's torch), `--no-group dev` drops dev,
    and a `uv run` after a `uv sync --extra` keeps what the sync installed."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "paper"\nversion = "0.1.0"\ndependencies = ["torch==2.1.0"]\n'
    )
    lint = (
        '[package.dev-dependencies]\nlint = [{ name = "ruff" }]\ndev = [{ name = "torchvision" }]\n'
    )
    (tmp_path / "uv.lock").write_text(
        _HEAD + _ROOT.format(deps='{ name = "torch" }') + lint + "\n" + _pkg("torch", "2.1.0")
        + _pkg("ruff", "0.6.0") + _pkg("torchvision", "0.16.0")
    )  # fmt: skip
    (tmp_path / "lint.sh").write_text("uv sync --only-group lint\n")
    with pytest.raises(ImportSpecError, match="no torch"):
        import_file_keys(tmp_path / "lint.sh", matrix, "2024-06-01")
    (tmp_path / "nodev.sh").write_text("uv sync --no-group dev\n")
    assert import_file_keys(tmp_path / "nodev.sh", matrix, "2024-06-01")["torchvision"] is False
    (tmp_path / "dev.sh").write_text("uv sync\n")
    assert import_file_keys(tmp_path / "dev.sh", matrix, "2024-06-01")["torchvision"] == "0.16.0"
    (tmp_path / "uv.lock").write_text(_conflicting())
    (tmp_path / "run.sh").write_text("uv sync --extra cu121\nuv run python train.py\n")
    got = import_file_keys(tmp_path / "run.sh", matrix, "2024-06-01")
    assert got["accelerators"] == ["cu121"]


def test_uv_run_with_splits_as_uv_does(tmp_path: Path, matrix: Matrix) -> None:
    """`--with "torch>=2.0,<2.2"` is one requirement; `a[x,y],b` two."""
    (tmp_path / "with.sh").write_text('uv run --no-project --with "torch>=2.0,<2.2" python t.py\n')
    assert import_file_keys(tmp_path / "with.sh", matrix, "2024-06-01")["torch"] == "2.1.2"
