"""The test table: every pip and conda cell of PyTorch's quick-start data, against envgen.

The quick-start data is pytorch.github.io's `published_versions.json` (recorded, condensed, in
tests/data/recorded/published-versions.json, its 1.11.0-era version
published-versions-1.11.0.json, and 2.4.1-2.7.0 from a fork's copy, published-versions-fork-2.7.0.json;
SOURCES.md). For each (version, OS, manager,
accelerator key) cell with a command, `envgen command` (`install_command`) for that release,
compute platform and OS must publish the same packages, pins, index and channels, and the files
envgen generates (requirements.txt / environment.yml) must carry what `install_command` prints.
The compute platform of a key is read from the version's own commands (quickstart_data.
key_meanings): "cuda.x" is CUDA 11.3 for 1.11.0 and CUDA 11.8 for 2.1.0.

Cells the matrix renders differently are listed in KNOWN_DIFFERENCES with why both hold; cells it
cannot render, in NOT_RENDERED; cells with no command (a note only), nightly (preview) cells and
libtorch are listed by `out_of_scope`, with their notes: none is skipped silently. Prose cells
(2.7.0 Windows CPU, "For x64: ... For arm64: ...") get the pinned equivalent of their x64 line.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.model.matrix import CondaBuild, Matrix, PipBuild, load_matrix
from envgen.render.commands import conda_command, install_command
from tests.support.published import (
    FAMILY,
    conda_expected,
    conda_generated,
    pip_expected,
    pip_generated,
    render_files,
)

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import quickstart_data as qs  # noqa: E402
import refresh_matrix  # noqa: E402

Cmd = refresh_matrix.PublishedCommand

WHEELS = json.loads(refresh_matrix.WHEELS_FILE.read_text(encoding="utf-8"))
# Every recorded version of the file: the newest (tag "") and the 1.11.0-era one ("cuda11.x" keys).
FILES = {tag: qs.load_recorded(path, tag) for path, tag in qs.QUICKSTART_FILES}
MEANINGS = {tag: qs.key_meanings(entries) for tag, entries in FILES.items()}
ENTRIES = [e for entries in FILES.values() for e in entries]
_ALL = [
    (e, qs.to_command(e, MEANINGS[e.source], wheels=WHEELS))
    for e in ENTRIES
    if not qs.out_of_scope(e)
]
# An older file's cell that says what the newest says (same command for the same compute
# platform) is the same case: tested once.
_NEWEST = {
    (e.version, e.os, e.manager, qs.accelerator(c), c.command) for e, c in _ALL if not e.source
}
SAME_AS_NEWEST = [
    (e, c)
    for e, c in _ALL
    if e.source and (e.version, e.os, e.manager, qs.accelerator(c), c.command) in _NEWEST
]
CASES = [(e, c) for e, c in _ALL if (e, c) not in SAME_AS_NEWEST]
IDS = [e.ident for e, _ in CASES]

# (version, os, manager, compute id) -> the facts where envgen's command differs from the cell,
# and why both hold. Kinds: companions (the cell names fewer packages), pins, index, channels.
_ROCM_FORM = (
    "ROCm 4.2 on the -f page of its own (whl/rocm4.2/torch_stable.html) with torch unpinned and "
    "torchvision pinned without its +rocm4.2 label; the page pins both, with the label, on the "
    "combined whl/torch_stable.html; it adds torchaudio (PyPI's wheel, no ROCm build)"
)
_LABELLED_AUDIO = (
    "the cell pins torchaudio with the local label (+cpu/+cu102/+cu113), the page without; "
    "`torchaudio==0.10.x` matches the labelled wheel on the same -f page too"
)
_TV_0111 = (
    "torchvision 0.11.1 in the cell, 0.11.0+label on the page: the labelled 0.11.0 wheels are on "
    "the -f page; PyPI's plain 0.11.0 is yanked (known issue pypi-torchvision-0.11.0-yanked; PyPI "
    "JSON API, read 2026-12-03), so the cell's 0.11.1 is the pin for PyPI routes"
)
_CF = (
    "the cell's `-c pytorch` against the page's `-c pytorch -c conda-forge` for cudatoolkit 11.3: "
    "the page's channels are a superset, so its environment resolves wherever the cell's does"
)
_ROCM45 = "the cell leaves torchaudio out; the page pins PyPI's torchaudio 0.11.0 (no ROCm build)"
_LTS_F = (
    "the 1.11.0-era data: `-f whl/lts/1.8/torch_lts.html` with +cpu/+cu102/+cu111 labels; the "
    "newer data and the page: `--extra-index-url whl/lts/1.8/<compute>` with public pins; both "
    "name the same LTS wheels (no 1.8.2 on PyPI to compete)"
)
KNOWN_DIFFERENCES: dict[tuple[str, str, str, str], tuple[frozenset[str], str]] = {
    ("1.9.0", "linux", "pip", "rocm4.2"): (frozenset({"companions", "pins", "index"}), _ROCM_FORM),
    ("1.9.1", "linux", "pip", "rocm4.2"): (frozenset({"companions", "pins", "index"}), _ROCM_FORM),
    ("1.10.0", "linux", "pip", "rocm4.2"): (frozenset({"companions", "pins", "index"}), _ROCM_FORM),
    ("1.10.1", "linux", "pip", "rocm4.2"): (frozenset({"companions", "pins"}), _ROCM_FORM),
    ("1.11.0", "linux", "pip", "rocm4.5.2"): (frozenset({"companions"}), _ROCM45),
    ("1.10.0", "linux", "pip", "cpu"): (
        frozenset({"pins", "index"}),
        f"{_TV_0111}; {_LABELLED_AUDIO}; -f whl/cpu/torch_stable.html in the cell, the combined "
        "whl/torch_stable.html (which lists the same +cpu wheels) on the page",
    ),
    ("1.10.0", "windows", "pip", "cu102"): (
        frozenset({"pins", "index"}),
        f"{_TV_0111}; {_LABELLED_AUDIO}; -f whl/cu102/torch_stable.html in the cell, the combined "
        "whl/torch_stable.html on the page",
    ),
    ("1.10.1", "linux", "pip", "cpu"): (frozenset({"pins"}), _LABELLED_AUDIO),
    ("1.10.1", "windows", "pip", "cu102"): (frozenset({"pins"}), _LABELLED_AUDIO),
    ("1.10.0", "linux", "conda", "cu113"): (frozenset({"channels"}), _CF),
    ("1.10.0", "windows", "conda", "cu113"): (frozenset({"channels"}), _CF),
    ("1.10.1", "linux", "conda", "cu113"): (frozenset({"channels"}), _CF),
    ("1.10.1", "windows", "conda", "cu113"): (frozenset({"channels"}), _CF),
}
# the 1.11.0-era file's own differences (cells the newer file changed)
KNOWN_DIFFERENCES_1110 = {
    ("lts-1.8.2", os_name, "pip", acc): (frozenset({"pins", "index"}), _LTS_F)
    for os_name in ("linux", "windows")
    for acc in ("cpu", "cu102", "cu111")
}

# (version, os, manager, compute id or "*") -> why envgen renders no command for these cells.
_WIN_CU111_CONDA = (
    "cudatoolkit=11.1 -c pytorch -c conda-forge on Windows: no win-64 cuda11.1 build of 1.9.x read "
    "(the Linux ones stand on exported environments); the page gives 10.2, and 11.3, a CPU build "
    "(known issue conda-1.9-cudatoolkit-11.3-never-built)"
)
_ROCM_1102 = (
    "torch unpinned on the rocm4.2 wheel page (it installs that page's newest torch, not 1.10.2), "
    "and no 1.10.2+rocm4.2 wheel read; the page has no 1.10.2"
)
NOT_RENDERED: dict[tuple[str, str, str, str], str] = {
    ("1.9.0", "windows", "conda", "cu111"): _WIN_CU111_CONDA,
    ("1.9.1", "windows", "conda", "cu111"): _WIN_CU111_CONDA,
    ("1.10.2", "linux", "pip", "rocm4.2"): _ROCM_1102,
    # the 1.11.0-era file only: its 1.11.0 ROCm line names ROCm 4.2, which 1.11 was not built for
    # (pytorch's generate_binary_build_matrix.py of the 1.11 era: ROCM_ARCHES = ["4.3.1",
    # "4.5.2"], stored id 359637339); the newer file says rocm4.5.2, as the page does
    ("1.11.0", "linux", "pip", "rocm4.2"): "1.11.0 has no ROCm 4.2 build: the line would install "
    "another torch from the rocm4.2 index",
}


def _cell(entry: qs.QuickStartEntry, cmd: Cmd) -> tuple[str, str, str, str]:
    return (entry.version, entry.os, entry.manager, qs.accelerator(cmd))


def _not_rendered(entry: qs.QuickStartEntry, cmd: Cmd) -> str:
    version, os_name, manager, acc = _cell(entry, cmd)
    for key in (acc, "*"):
        reason = NOT_RENDERED.get((version, os_name, manager, key))
        if reason:
            return reason
    return ""


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _known(entry: qs.QuickStartEntry, cmd: Cmd) -> tuple[frozenset[str], str]:
    table = KNOWN_DIFFERENCES_1110 if entry.source else {}
    return table.get(_cell(entry, cmd)) or KNOWN_DIFFERENCES.get(
        _cell(entry, cmd), (frozenset(), "")
    )


def _parse(text: str, manager: str) -> dict[str, object]:
    if manager == "pip":
        packages, form, url = refresh_matrix._parse_pip(text)
        return {"packages": packages, "index_form": form, "index_url": url, "channels": ()}
    packages, channels = refresh_matrix._parse_conda(text)
    return {"packages": packages, "index_form": None, "index_url": None, "channels": channels}


def _platform(matrix: Matrix, cmd: Cmd, os_name: str) -> str:
    """The platform `install_command` answers for: macOS is osx-arm64 where it has builds."""
    if os_name != "macos":
        return {"linux": "linux-64", "windows": "win-64"}[os_name]
    builds = (
        matrix.pip_builds(cmd.release, "osx-arm64")
        if cmd.manager == "pip"
        else matrix.conda_builds(cmd.release, "osx-arm64")
    )
    return "osx-arm64" if builds else "osx-64"


def _build(matrix: Matrix, cmd: Cmd, platform: str) -> PipBuild | CondaBuild:
    """The matrix row `install_command` renders for the cell."""
    builds: tuple[PipBuild, ...] | tuple[CondaBuild, ...] = (
        matrix.pip_builds(cmd.release, platform)  # type: ignore[arg-type]
        if cmd.manager == "pip"
        else matrix.conda_builds(
            cmd.release,
            platform,  # type: ignore[arg-type]
            matrix.default_conda_source(cmd.release),
        )
    )
    return next(b for b in builds if b.accelerator == qs.accelerator(cmd))


def _differences(matrix: Matrix, cmd: Cmd, got: Cmd, platform: str) -> set[str]:
    """Where envgen's command `got` says something else than the cell's `cmd`."""
    out: set[str] = set()
    build = _build(matrix, cmd, platform)
    names = {n for n, _ in cmd.packages}
    got_names = {n for n, _ in got.packages}
    if names != got_names:
        out.add("companions" if names < got_names else "packages")
    for name in names & got_names:
        if cmd.pin(name) is not None and cmd.pin(name) != got.pin(name):
            out.add("pins")
        if name in ("torch", "pytorch") and cmd.pin(name) is None:
            # unpinned: envgen's pin must be the release the cell is for, or envgen prints the
            # same unpinned line where the row says the channel holds that release only (LTS)
            if got.pin(name) is None:
                if not (isinstance(build, CondaBuild) and not build.pinned):
                    out.add("pins")
            elif (got.pin(name) or "").split("+")[0] != cmd.release:
                out.add("pins")
    if isinstance(build, PipBuild):
        if cmd.index_form == "pypi" and got.index_form != "pypi":
            # plain `pip3 install torch`: PyPI's own wheel; the row must say it is this build
            if not build.pypi_default:
                out.add("index")
        elif (cmd.index_form, cmd.index_url) != (got.index_form, got.index_url):
            out.add("index")
    elif cmd.channels != got.channels:
        out.add("channels")
    return out


def _install(matrix: Matrix, entry: qs.QuickStartEntry, cmd: Cmd) -> Cmd:
    got = install_command(
        matrix,
        torch=cmd.release,
        compute=qs.accelerator(cmd),
        manager=cmd.manager,
        os_name=entry.os,
    )
    return dataclasses.replace(cmd, command=got.text, **_parse(got.text, cmd.manager))  # type: ignore[arg-type]


def test_every_cell_is_a_case_or_listed() -> None:
    """Every cell is a test case or out of scope with its reason; the reasons are the known ones."""
    reasons = Counter(qs.out_of_scope(e) for e in ENTRIES if qs.out_of_scope(e))
    assert len(CASES) + len(SAME_AS_NEWEST) + sum(reasons.values()) == len(ENTRIES)
    assert {e.source for e, _ in CASES} == {"", "1.11.0-era", "fork-2.7.0"}
    preview = [e for e in ENTRIES if e.version == "preview"]
    assert reasons[qs.out_of_scope(preview[0])] == len(preview) == 30 + 24
    notes = {r.removeprefix("no command, only a note: ") for r in reasons if r.startswith("no ")}
    assert notes == {
        repr("<b>NOTE:</b> Conda packages are no longer available. Please use pip instead.<br />"),
        repr("<b>NOTE:</b> ROCm is not available on Windows"),
        repr("<b>NOTE:</b> ROCm is not available on MacOS"),
        repr("<b>NOTE:</b> ROCm is not supported in LTS"),
        repr(
            "<b>NOTE:</b> Conda packages are not currently available for ROCm, please use pip "
            "instead<br />"
        ),
        repr("# macOS is not currently supported for lts"),
        repr("CUDA-10.2 PyTorch builds are no longer available for Windows, please use CUDA-11.3"),
        repr("CUDA-10.2 PyTorch builds are no longer available for Windows, please use CUDA-11.6"),
    }
    # every release of the file is in the table, 1.8.2 (the LTS) included
    releases = {e.release for e in ENTRIES if e.release}
    assert {c.release for _, c in CASES} == releases
    assert {"1.8.2", "1.9.0", "2.4.0"} <= releases
    assert len(CASES) > 400


def test_keys_mean_what_their_versions_commands_say() -> None:
    """A key is a slot, not a CUDA version: read per version from its commands."""
    new, old = MEANINGS[""], MEANINGS["1.11.0-era"]
    assert new[("1.11.0", "cuda.x")] == old[("1.11.0", "cuda11.x")] == ("cuda", "11.3")
    assert old[("1.9.0", "cuda11.x")] == old[("lts-1.8.2", "cuda11.x")] == ("cuda", "11.1")
    assert old[("1.11.0", "rocm4.x")] == ("rocm", "4.2")  # the newer file: 4.5.2
    assert new[("2.1.0", "cuda.x")] == ("cuda", "11.8")
    assert new[("1.13.0", "cuda.y")] == ("cuda", "11.7")
    assert new[("2.4.0", "cuda.z")] == ("cuda", "12.4")
    assert new[("1.11.0", "rocm4.x")] == ("rocm", "4.5.2")
    assert new[("2.4.0", "rocm5.x")] == ("rocm", "6.1")
    assert new[("lts-1.8.2", "cuda.y")] == ("cuda", "11.1")
    # plain `pip3 install torch torchvision torchaudio` on Linux is the key's CUDA build
    linux_plain = {
        (e.version, c.version)
        for e, c in CASES
        if e.os == "linux" and e.manager == "pip" and c.index_form == "pypi"
    }
    assert ("1.11.0", "10.2") in linux_plain
    assert ("2.0.0", "11.7") in linux_plain
    assert ("2.4.0", "12.1") in linux_plain


def test_macos_cells_are_the_cpu_build_whatever_the_key() -> None:
    by_cell = {(e.source, e.version, e.manager, e.key): c for e, c in CASES if e.os == "macos"}
    for (source, version, manager, key), cmd in by_cell.items():
        accnone = by_cell[(source, version, manager, "accnone")]
        assert cmd.command == accnone.command, (version, manager, key)


@pytest.mark.parametrize(("entry", "cmd"), CASES, ids=IDS)
def test_envgen_command_publishes_the_cell(
    matrix: Matrix, entry: qs.QuickStartEntry, cmd: Cmd
) -> None:
    """Same packages, pins, index and channels as the cell, or a listed difference."""
    if _not_rendered(entry, cmd):
        with pytest.raises(UnsupportedCombinationError):
            _install(matrix, entry, cmd)
        return
    got = _install(matrix, entry, cmd)
    platform = _platform(matrix, cmd, entry.os)
    kinds, reason = _known(entry, cmd)
    assert _differences(matrix, cmd, got, platform) == kinds, (cmd.command, got.command, reason)


UNPINNED = [(e, c) for e, c in CASES if qs.unpinned(c) and not _not_rendered(e, c)]


@pytest.mark.parametrize(("entry", "cmd"), UNPINNED, ids=[e.ident for e, _ in UNPINNED])
def test_unpinned_cells_get_a_pinned_equivalent(
    matrix: Matrix, entry: qs.QuickStartEntry, cmd: Cmd
) -> None:
    """`pip3 install torch torchvision torchaudio` under a version: its pinned equivalent pins
    every package the cell names to that release's companions, with a note saying why."""
    got = _install(matrix, entry, cmd)
    build = _build(matrix, cmd, _platform(matrix, cmd, entry.os))
    if isinstance(build, CondaBuild) and not build.pinned:
        # the LTS lines: envgen prints them unpinned too (-c pytorch-lts held 1.8.2 only)
        pinned = conda_command(build.model_copy(update={"pinned": True}))
        got = dataclasses.replace(got, command=pinned, **_parse(pinned, "conda"))  # type: ignore[arg-type]
    for name, _ in cmd.packages:
        if name in FAMILY:
            pin = got.pin(name)
            assert pin, f"{name} unpinned in {got.command!r}"
            if name in ("torch", "pytorch"):
                assert pin.split("+")[0] == cmd.release, got.command
    note = qs.pinned_note(cmd, got.command)
    assert got.command in note
    assert cmd.release in note


@pytest.mark.parametrize(("entry", "cmd"), CASES, ids=IDS)
def test_generated_files_carry_the_command(
    matrix: Matrix, entry: qs.QuickStartEntry, cmd: Cmd
) -> None:
    """requirements.txt / environment.yml hold the pins, index and channels envgen prints."""
    if _not_rendered(entry, cmd):
        return
    got = _install(matrix, entry, cmd)
    names = {n for n, _ in cmd.packages}
    # the files hold what the cell installs: a companion the cell leaves out stays out
    got = dataclasses.replace(
        got, packages=tuple(p for p in got.packages if p[0] in names or p[0] not in FAMILY)
    )
    platform = _platform(matrix, cmd, entry.os)
    files = render_files(matrix, got, platform, qs.accelerator(cmd))
    if cmd.manager == "pip":
        assert pip_generated(files["requirements.txt"]) == pip_expected(got), got.command
    else:
        assert conda_generated(files["environment.yml"], got) == conda_expected(got), got.command


def _doc(cells: dict[str, dict[str, object]], version: str = "1.11.0") -> str:
    return json.dumps({"versions": {version: {"linux": {"pip": cells}}}})


def test_a_file_of_another_shape_is_refused_with_where() -> None:
    with pytest.raises(refresh_matrix.PageFormatError, match="no 'versions' mapping"):
        qs.load_entries("[]")
    with pytest.raises(refresh_matrix.PageFormatError, match=r"1\.11\.0\.linux\.pip is not"):
        qs.load_entries(json.dumps({"versions": {"1.11.0": {"linux": {"pip": []}}}}))
    with pytest.raises(refresh_matrix.PageFormatError, match="accnone: note/command is not text"):
        qs.load_entries(_doc({"accnone": {"note": None, "command": 3}}))


def test_a_key_whose_commands_disagree_is_refused() -> None:
    """One key, two compute platforms (or a key naming one its commands contradict): no guess."""
    cu113 = "pip3 install torch --extra-index-url https://download.pytorch.org/whl/cu113"
    cu116 = "pip3 install torch --extra-index-url https://download.pytorch.org/whl/cu116"
    two = json.dumps(
        {
            "versions": {
                "1.12.0": {
                    "linux": {"pip": {"cuda.x": {"note": None, "command": cu113}}},
                    "windows": {"pip": {"cuda.x": {"note": None, "command": cu116}}},
                }
            }
        }
    )
    with pytest.raises(refresh_matrix.PageFormatError, match=r"key 'cuda\.x'.* says"):
        qs.key_meanings(qs.load_entries(two))
    named = _doc({"cuda10.2": {"note": None, "command": cu113}})
    with pytest.raises(refresh_matrix.PageFormatError, match=r"key 'cuda10\.2' but its commands"):
        qs.key_meanings(qs.load_entries(named))


def test_a_plain_linux_line_needs_its_key_read_elsewhere() -> None:
    entries = qs.load_entries(_doc({"cuda.y": {"note": None, "command": "pip3 install torch"}}))
    with pytest.raises(refresh_matrix.PageFormatError, match="names no compute platform"):
        qs.to_command(entries[0], qs.key_meanings(entries))


PROSE = [e for e in ENTRIES if qs.out_of_scope(e).startswith("prose")]


def test_prose_cells_are_the_known_ones() -> None:
    assert [e.ident for e in PROSE] == ["fork-2.7.0:2.7.0-windows-pip-accnone"]


@pytest.mark.parametrize("entry", PROSE, ids=[e.ident for e in PROSE])
def test_prose_cells_get_a_pinned_equivalent(matrix: Matrix, entry: qs.QuickStartEntry) -> None:
    """'For x64: pip3 install ... For arm64: ...': the x64 command is rendered for win-64 (pinned,
    with a note); arm64 Windows is no envgen platform, so its line stays a note."""
    assert entry.command is not None
    parts = qs.prose_parts(entry.command)
    assert set(parts) == {"x64", "arm64"}
    x64 = dataclasses.replace(entry, command=parts["x64"])
    cmd = qs.to_command(x64, MEANINGS[entry.source], wheels=WHEELS)
    got = _install(matrix, x64, cmd)
    assert _differences(matrix, cmd, got, "win-64") == set()
    assert got.pin("torch") == entry.release
    note = qs.pinned_note(cmd, got.command)
    assert got.command in note
