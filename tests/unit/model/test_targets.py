"""matrices/targets.yaml (envgen/model/targets.py): the platform facts the lockers read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from packaging.version import Version

from envgen import app
from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.infra.settings import Settings
from envgen.model import targets as runtime
from envgen.model.targets import TARGETS_FILE, load_targets
from envgen.model.targets_schema import first_problem
from envgen.model.types import PLATFORMS


def test_the_shipped_file_loads_with_a_source_on_every_row() -> None:
    targets = load_targets()
    tables = (
        targets.uv_python_platforms,
        targets.marker_environments,
        targets.glibc,
        targets.virtual_packages,
        targets.hosts,
    )
    assert all(row.source.strip() for table in tables for row in table)
    assert load_targets() is targets  # read once per process


@pytest.mark.parametrize(
    ("platform", "uv", "machine", "archspec"),
    [
        ("linux-64", "x86_64-manylinux_2_28", "x86_64", "x86_64"),
        ("linux-aarch64", "aarch64-manylinux_2_28", "aarch64", "aarch64"),
        ("osx-64", "x86_64-apple-darwin", "x86_64", "x86_64"),
        ("osx-arm64", "aarch64-apple-darwin", "arm64", "arm64"),
        ("win-64", "x86_64-pc-windows-msvc", "AMD64", "x86_64"),
    ],
)
def test_per_platform_facts(platform: str, uv: str, machine: str, archspec: str) -> None:
    targets = load_targets()
    assert platform in PLATFORMS
    assert targets.uv_python_platform(platform) == uv
    assert targets.markers(platform)["platform_machine"] == machine
    assert targets.virtual(platform).archspec == archspec


@pytest.mark.parametrize(
    ("torch", "glibc"),
    [
        ("1.13.1", "2.17"),
        ("2.5.1", "2.17"),
        ("2.6.0rc1", "2.17"),
        ("2.6.0", "2.28"),
        ("2.9.1", "2.28"),
    ],
)
def test_glibc_floor_by_era(torch: str, glibc: str) -> None:
    assert load_targets().glibc_for(Version(torch)) == glibc


@pytest.mark.parametrize(
    ("system", "machine", "platform"),
    [("linux", "amd64", "linux-64"), ("darwin", "arm64", "osx-arm64"), ("sunos", "sparc", None)],
)
def test_host_platform(system: str, machine: str, platform: str | None) -> None:
    assert load_targets().host_platform(system, machine) == platform


def _copy(tmp_path: Path, old: str, new: str) -> Path:
    shutil.copy(MATRICES_DIR / TARGETS_FILE, tmp_path / TARGETS_FILE)
    path = tmp_path / TARGETS_FILE
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "  - {platform: win-64, target: x86_64-pc-windows-msvc,",
            "  - {platform: osx-64, target: x86_64-pc-windows-msvc,",
            "uv-python-platforms: want one row per platform",
        ),
        ('{torch-from: "0",', '{torch-from: "<2.6",', "invalid value: glibc.0.torch-from"),
        ('{torch-from: "2.6",', '{torch-from: "0",', "glibc: torch-from must rise"),
        ("os_name: nt}", "os-name: nt}", "invalid value: marker-environments.4.markers"),
        ("glibc: true, source", "glibc: true, sauce", "invalid value: virtual-packages.0"),
        (
            "{system: win32, machine: x86_64,",
            "{system: win32, machine: amd64,",
            "hosts: two rows for one (system, machine)",
        ),
    ],
)
def test_a_broken_copy_is_a_matrix_error(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(MatrixError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_targets(_copy(tmp_path, old, new))


def test_a_missing_file_is_a_matrix_error(tmp_path: Path) -> None:
    with pytest.raises(MatrixError, match=r"targets\.yaml: cannot be read"):
        load_targets(tmp_path)


def test_matrix_validate_loads_targets(tmp_path: Path) -> None:
    """`envgen matrix validate` checks targets.yaml too: a broken table is a MatrixError."""
    matrix = tmp_path / "m"
    shutil.copytree(MATRICES_DIR, matrix)
    assert app.matrix_validate(matrix, Settings()).endswith(", 5 target platforms")
    with (matrix / "targets.yaml").open("a", encoding="utf-8") as f:
        f.write("glibc: []\n")
    load_targets.cache_clear()
    with pytest.raises(MatrixError, match=r"targets\.yaml: invalid value: glibc"):
        app.matrix_validate(matrix, Settings())


# Each: (old, new) applied to the shipped file. The runtime reader (no pydantic) and the schema
# (targets_schema.py) must accept and refuse the same files.
_MUTATIONS = [
    ("  - {platform: win-64, target: x86_64-pc-windows-msvc,", "  - {platform: win-65, target: x,"),
    ("target: x86_64-pc-windows-msvc,", "target: X86,"),
    ("target: x86_64-pc-windows-msvc,", "target: 3,"),
    ('{torch-from: "0",', '{torch-from: "<2.6",'),
    ('{torch-from: "0",', "{torch-from: 0,"),
    ("os_name: nt}", "os-name: nt}"),
    ("os_name: nt}", "os_name: 1}"),
    ("glibc: true, source", 'glibc: "yes", source'),
    ("glibc: true, source", "glibc: 1, source"),
    ("glibc: true, source", "glibc: true, sauce"),
    ("glibc: true, source", "source"),  # the optional key left out: valid
    ("{system: win32, machine: x86_64,", "{system: !!binary d2luMzI=, machine: x86_64,"),
    ("{system: win32, machine: x86_64,", "{system: win32, machine: [x86_64],"),
    ("hosts:", "hosts: {}\nunused:"),
    ("glibc:\n", "glibc: []\nglibc-old:\n"),
    # an empty source, and an unknown key
    ('x86_64-manylinux_2_28, source: "', 'x86_64-manylinux_2_28, source: "", x: "'),
    ('aarch64-manylinux_2_28, source: "', 'aarch64-manylinux_2_28, z: 1, source: "'),
]


@pytest.mark.parametrize(("old", "new"), _MUTATIONS)
def test_runtime_reader_and_schema_agree(old: str, new: str) -> None:
    text = (MATRICES_DIR / TARGETS_FILE).read_text(encoding="utf-8")
    if old not in text:
        pytest.fail(f"the shipped file no longer holds {old!r}: update the mutation")
    try:
        data = yaml.safe_load(text.replace(old, new, 1))
    except yaml.YAMLError:
        pytest.fail("the mutation is not YAML: fix it")
    schema_refuses = first_problem(data) is not None
    try:
        runtime._build(data)
        runtime_refuses = False
    except runtime._InvalidError:
        runtime_refuses = True
    assert runtime_refuses == schema_refuses, first_problem(data)


def test_the_shipped_file_passes_the_schema() -> None:
    data = yaml.safe_load((MATRICES_DIR / TARGETS_FILE).read_text(encoding="utf-8"))
    assert first_problem(data) is None
