"""The test table: every install command PyTorch published, against what envgen generates.

For each command on the recorded previous-versions page (tests/data/recorded/, the primary source)
and each platform it applies to, a spec for that release / compute platform / platform / manager is
expanded through the shipped matrix and rendered. The generated requirements.txt must carry exactly
the command's pins (with local labels) and its index line; the generated environment.yml exactly its
channels, pins and CUDA package. Commands the page gives no platform for, or that cannot be a
pinned environment (recorded in refresh_matrix.unsupported_commands), are listed, not skipped silently.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from packaging.version import Version

from envgen.model.matrix import Matrix, accelerator_id, cpython_abi_tags, load_matrix
from envgen.model.spec import parse_spec
from envgen.render.commands import install_command
from envgen.render.indexes import IndexUrls
from envgen.render.plan import plan_pins_only

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import refresh_matrix  # noqa: E402

from tests.support.published import (  # noqa: E402
    conda_expected,
    conda_generated,
    pip_expected,
    pip_generated,
    render_files,
)

PAGE = (ROOT / "tests" / "data" / "recorded" / "previous-versions.md").read_text(encoding="utf-8")
WHEELS = json.loads(refresh_matrix.WHEELS_FILE.read_text(encoding="utf-8"))
PAGE_COMMANDS = refresh_matrix.parse_previous_versions(PAGE, wheels=WHEELS)
# The stored copies of the live page add 2.4.0-2.10.0 (tests/data/recorded/copies/, SOURCES.md).
COPY_COMMANDS = [
    cmd
    for cmd, _ in refresh_matrix.parse_copies(
        WHEELS, after=max((c.release for c in PAGE_COMMANDS), key=Version)
    )
]
# The page's "OSX" conda lines of 2.3.0-2.5.1 name no platform PyPI can confirm; the osx-arm64
# rows of inferred-builds.yaml say where the pytorch channel had them (each with its source).
_, INFERRED_CONDA = refresh_matrix.load_inferred(refresh_matrix.INFERRED_FILE)
COMMANDS = refresh_matrix.with_inferred_platforms(PAGE_COMMANDS + COPY_COMMANDS, INFERRED_CONDA)
TABLE = [(cmd, platform) for cmd in COMMANDS if cmd.expressible for platform in cmd.platforms]


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _acc(cmd: refresh_matrix.PublishedCommand) -> str:
    return accelerator_id(cmd.kind, cmd.version)


def _render(matrix: Matrix, cmd: refresh_matrix.PublishedCommand, platform: str) -> dict[str, str]:
    return render_files(matrix, cmd, platform, _acc(cmd))


def test_table_covers_every_release_on_the_page() -> None:
    releases = {cmd.release for cmd in COMMANDS if not cmd.release.startswith("0.")}
    covered = {cmd.release for cmd, _ in TABLE}
    assert releases == covered
    assert {"2.4.0", "2.10.0"} <= covered
    assert len(TABLE) > 550


_OS = {"linux-64": "linux", "win-64": "windows", "osx-arm64": "macos", "osx-64": "macos"}


def _command_cases() -> list[tuple[refresh_matrix.PublishedCommand, str]]:
    """(command, os) pairs `envgen command` answers: macOS means osx-arm64 where it has a row."""
    arm = {cmd.release for cmd, p in TABLE if p == "osx-arm64" and cmd.manager == "pip"}
    arm_conda = {cmd.release for cmd, p in TABLE if p == "osx-arm64" and cmd.manager == "conda"}
    out = []
    for cmd, platform in TABLE:
        has_arm = cmd.release in (arm if cmd.manager == "pip" else arm_conda)
        if platform == "osx-64" and has_arm:
            continue
        out.append((cmd, _OS[platform]))
    return out


COMMAND_CASES = _command_cases()


@pytest.mark.parametrize(
    ("cmd", "os_name"),
    COMMAND_CASES,
    ids=[f"{c.release}-{c.manager}-{c.kind}{c.version or ''}-{o}" for c, o in COMMAND_CASES],
)
def test_envgen_command_prints_the_published_command(
    matrix: Matrix, cmd: refresh_matrix.PublishedCommand, os_name: str
) -> None:
    """`envgen command` prints the command exactly as published (whitespace aside)."""
    acc = _acc(cmd)
    got = install_command(
        matrix, torch=cmd.release, compute=acc, manager=cmd.manager, os_name=os_name
    )
    assert got.text.split() == cmd.command.split()


@pytest.mark.parametrize(
    ("cmd", "platform"),
    TABLE,
    ids=[f"{c.release}-{c.manager}-{c.kind}{c.version or ''}-{p}" for c, p in TABLE],
)
def test_generated_files_match_published_command(
    matrix: Matrix, cmd: refresh_matrix.PublishedCommand, platform: str
) -> None:
    files = _render(matrix, cmd, platform)
    if cmd.manager == "pip":
        assert pip_generated(files["requirements.txt"]) == pip_expected(cmd), cmd.command
    else:
        assert conda_generated(files["environment.yml"], cmd) == conda_expected(cmd), cmd.command


def test_unsupported_commands_are_known() -> None:
    """Commands that cannot become a pinned environment, each with its reason (not silently dropped)."""
    unsupported = refresh_matrix.unsupported_commands(COMMANDS)
    assert all(cmd.unsupported or not cmd.platforms for cmd in unsupported)
    assert {cmd.release for cmd in unsupported} == {"0.4.1", "1.0.0", "1.0.1", "1.1.0", "1.8.0"}
    assert [c for c in unsupported if Version(c.release) >= Version("2.0.0")] == []


OSX_CONDA = ("2.3.0", "2.3.1", "2.4.0", "2.4.1", "2.5.0", "2.5.1")


def test_osx_conda_lines_of_2_3_to_2_5_hold_on_osx_arm64_only() -> None:
    """Without inferred-builds.yaml they have no platform; with it, osx-arm64 (never osx-64)."""
    raw = [
        c
        for c in PAGE_COMMANDS + COPY_COMMANDS
        if c.manager == "conda" and c.os_group == "osx" and c.release in OSX_CONDA
    ]
    assert sorted(c.release for c in raw) == sorted(OSX_CONDA)
    assert all(not c.expressible for c in raw)
    vouched = refresh_matrix.with_inferred_platforms(raw, INFERRED_CONDA)
    assert [c.platforms for c in vouched] == [("osx-arm64",)] * len(raw)
    assert [(c, p) for c, p in TABLE if c in vouched] == [(c, "osx-arm64") for c in vouched]


def test_an_inferred_row_vouches_only_for_its_own_pins() -> None:
    cmd = next(c for c in COPY_COMMANDS if c.os_group == "osx" and c.release == "2.4.0")
    row = next(r for r in INFERRED_CONDA if r["release"] == "2.4.0" and r["form"] == "none")
    for change in ({"torchvision": "0.19.1"}, {"channels": ["conda-forge"]}, {"form": "cpuonly"}):
        (got,) = refresh_matrix.with_inferred_platforms([cmd], [{**row, **change}])
        assert got.platforms == (), change
    (got,) = refresh_matrix.with_inferred_platforms([cmd], [{**row, "platforms": ["linux-64"]}])
    assert got.platforms == ()
    (got,) = refresh_matrix.with_inferred_platforms([cmd], [row])
    assert got.platforms == ("osx-arm64",)


PROSE = [
    c
    for c in COMMANDS
    if c.manager == "pip" and c.command.startswith("Download and install wheel from")
]


@pytest.mark.parametrize(
    "cmd", PROSE, ids=[f"{c.release}-{c.kind}{c.version or ''}" for c in PROSE]
)
def test_prose_only_windows_lines_get_a_pinned_equivalent(
    matrix: Matrix, cmd: refresh_matrix.PublishedCommand
) -> None:
    """1.0.0-1.1.0 'Download and install wheel from URL': on Windows (no PyPI torch wheel to
    compete) `envgen command` prints `pip install` of the pins with `-f URL`, marked inferred."""
    acc = _acc(cmd)
    release = matrix.release(cmd.release)
    assert release is not None
    got = install_command(matrix, torch=cmd.release, compute=acc, os_name="windows")
    assert got.text == (
        f"pip install torch=={cmd.release} torchvision=={release.torchvision} -f {cmd.index_url}"
    )
    assert got.inferred


LINUX_WHEEL = {"cpu": "cpu", "8.0": "cu80", "10.0": "cu100"}  # cu90 is PyPI's own build


@pytest.mark.parametrize(
    "cmd", PROSE, ids=[f"{c.release}-{c.kind}{c.version or ''}" for c in PROSE]
)
def test_prose_only_linux_lines_get_an_equivalent_that_selects_that_build(
    matrix: Matrix, cmd: refresh_matrix.PublishedCommand
) -> None:
    """On Linux PyPI's manylinux1 wheel of the same version (cu90) competes with the page's
    unlabelled linux_x86_64 wheel: the equivalent names the page's wheel (cu90: PyPI's build)."""
    acc = _acc(cmd)
    release = matrix.release(cmd.release)
    assert release is not None
    got = install_command(matrix, torch=cmd.release, compute=acc, os_name="linux")
    assert got.inferred
    label = LINUX_WHEEL.get(cmd.version or "cpu")
    if label is None:  # CUDA 9.0: PyPI's own wheel is that build (torch/version.py)
        assert got.text == f"pip install torch=={cmd.release} torchvision=={release.torchvision}"
        return
    page = cmd.index_url or ""
    assert page == f"https://download.pytorch.org/whl/{label}/torch_stable.html"
    wheel = page.replace("torch_stable.html", f"torch-{cmd.release}-{{}}-linux_x86_64.whl")
    newest = wheel.format(cpython_abi_tags(release.python[-1]))
    assert newest.endswith("-cp37-cp37m-linux_x86_64.whl")
    # torchvision 0.3.0 (1.1.0) has compiled ops: the page's own wheel too; 0.2.x is pure Python.
    vision = page.replace(
        "torch_stable.html", f"torchvision-{release.torchvision}-{{}}-linux_x86_64.whl"
    )
    by_url = cmd.release == "1.1.0"

    def torchvision(python: str) -> str:
        if by_url:
            return f"torchvision @ {vision.format(cpython_abi_tags(python))}"
        return f"torchvision=={release.torchvision}"

    expected = torchvision(release.python[-1]).replace("torchvision @ ", "")
    assert got.text == f"pip install {newest} {expected}"
    assert got.warnings[0].startswith(
        f"an equivalent of a prose-only line ('Download and install wheel from {page}')"
    )
    # The generated requirements.txt names that wheel for the spec's Python, with a note.
    for python in [p for p in release.python if not p.startswith("2.")]:
        text = (
            f'name: t\ntorch: "{cmd.release}"\npython: "{python}"\naccelerators: [{acc}]\n'
            "platforms: [linux-64]\nmanagers: [pip]\n"
        )
        spec = parse_spec(text, path=Path("/nonexistent/project.yaml"))
        _, files = plan_pins_only(
            spec,
            matrix,
            out=Path("/nonexistent/environments"),
            urls=IndexUrls(),
            custom_command=None,
        )
        (req,) = [f.text for f in files if f.relpath.name == "requirements.txt"]
        assert pip_generated(req) == (
            [],
            sorted(
                [
                    f"torch @ {wheel.format(cpython_abi_tags(python))}",
                    torchvision(python),
                ]
            ),
        )
        assert "# note: an inferred equivalent of a prose-only line" in req
