"""The previous-versions parser (scripts/refresh_matrix.py) on the recorded page: real facts, and a
round trip from every published command to exactly one pip/conda row. No network."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from packaging.version import Version

from envgen.model.matrix import CondaBuild, PipBuild

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import refresh_matrix as rm  # noqa: E402

PAGE = (ROOT / "tests/data/recorded/previous-versions.md").read_text(encoding="utf-8")
WHEELS: rm.WheelPlatforms = json.loads(
    (ROOT / "tests/data/recorded/pypi-wheel-platforms.json").read_text(encoding="utf-8")
)
COMMIT = "e3f009bbc0d7509ed5c85b633313ec72aa2d1a40"
SOURCE = "previous-versions@e3f009b"


@pytest.fixture(scope="module")
def cmds() -> list[rm.PublishedCommand]:
    return rm.parse_previous_versions(PAGE, wheels=WHEELS)


@pytest.fixture(scope="module")
def rows(cmds: list[rm.PublishedCommand]) -> tuple[list[rm.Row], list[rm.Row]]:
    return rm.commands_to_rows(cmds, source=SOURCE)


def one(
    cmds: list[rm.PublishedCommand], release: str, manager: str, label: str, os_group: str = ""
) -> rm.PublishedCommand:
    found = [
        c
        for c in cmds
        if c.release == release
        and c.manager == manager
        and c.label == label
        and (not os_group or c.os_group == os_group)
    ]
    assert len(found) == 1, found
    return found[0]


def test_recorded_page_is_the_commit_in_sources() -> None:
    assert rm.recorded_commit() == COMMIT
    assert len(PAGE) == 60231
    assert PAGE.startswith("---\nlayout: get_started\n")


def test_releases_on_the_page(cmds: list[rm.PublishedCommand]) -> None:
    releases = sorted({c.release for c in cmds}, key=Version)
    assert releases == [
        "0.4.1", "1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.4.0", "1.5.0", "1.5.1", "1.6.0",
        "1.7.0", "1.7.1", "1.8.0", "1.8.1", "1.8.2", "1.9.0", "1.9.1", "1.10.0", "1.10.1",
        "1.11.0", "1.12.0", "1.12.1", "1.13.0", "1.13.1", "2.0.0", "2.0.1", "2.1.0", "2.1.1",
        "2.1.2", "2.2.0", "2.2.1", "2.2.2", "2.3.0", "2.3.1",
    ]  # fmt: skip


def test_pip_1_12_0_cu116(cmds: list[rm.PublishedCommand]) -> None:
    assert one(cmds, "1.12.0", "pip", "CUDA 11.6") == rm.PublishedCommand(
        release="1.12.0",
        manager="pip",
        os_group="linux and windows",
        platforms=("linux-64", "win-64"),
        label="CUDA 11.6",
        kind="cuda",
        version="11.6",
        command="pip install torch==1.12.0+cu116 torchvision==0.13.0+cu116 torchaudio==0.12.0 "
        "--extra-index-url https://download.pytorch.org/whl/cu116",
        packages=(
            ("torch", "==1.12.0+cu116"),
            ("torchvision", "==0.13.0+cu116"),
            ("torchaudio", "==0.12.0"),
        ),
        index_form="extra-index-url",
        index_url="https://download.pytorch.org/whl/cu116",
    )


def test_conda_1_12_0_cu116_needs_conda_forge(cmds: list[rm.PublishedCommand]) -> None:
    cmd = one(cmds, "1.12.0", "conda", "CUDA 11.6")
    assert cmd.packages == (
        ("pytorch", "==1.12.0"),
        ("torchvision", "==0.13.0"),
        ("torchaudio", "==0.12.0"),
        ("cudatoolkit", "=11.6"),
    )
    assert cmd.channels == ("pytorch", "conda-forge")
    assert (cmd.kind, cmd.version, cmd.platforms) == ("cuda", "11.6", ("linux-64", "win-64"))


def test_conda_2_0_1_pytorch_cuda(cmds: list[rm.PublishedCommand]) -> None:
    cmd = one(cmds, "2.0.1", "conda", "CUDA 11.8")
    assert cmd.command == (
        "conda install pytorch==2.0.1 torchvision==0.15.2 torchaudio==2.0.2 pytorch-cuda=11.8 "
        "-c pytorch -c nvidia"
    )
    assert cmd.channels == ("pytorch", "nvidia")


_ROWS = [
    pytest.param(
        "conda",
        "2.0.1",
        "11.8",
        {
            "kind": "cuda",
            "version": "11.8",
            "release": "2.0.1",
            "platforms": ["linux-64", "win-64"],
            "pytorch": "2.0.1",
            "torchvision": "0.15.2",
            "torchaudio": "2.0.2",
            "form": "pytorch-cuda",
            "channels": ["pytorch", "nvidia"],
            "pinned": True,
        },
        id="conda-2.0.1-pytorch-cuda",
    ),
    pytest.param(
        "pip",
        "1.9.0",
        "11.1",
        {
            "kind": "cuda",
            "version": "11.1",
            "release": "1.9.0",
            "platforms": ["linux-64", "win-64"],
            "torch": "1.9.0+cu111",
            "torchvision": "0.10.0+cu111",
            "torchaudio": "0.9.0",
            "index": "find-links",
            "url": "https://download.pytorch.org/whl/torch_stable.html",
            "wheel": None,
            "torchvision-wheel": None,
            "pypi-default": False,
        },
        id="pip-1.9.0-find-links",
    ),
    pytest.param(
        "conda",
        "1.0.0",
        "10.0",
        {
            "kind": "cuda",
            "version": "10.0",
            "release": "1.0.0",
            "platforms": ["linux-64", "win-64"],
            "pytorch": "1.0.0",
            "torchvision": "0.2.1",
            "torchaudio": None,
            "form": "cuda-meta",
            "channels": ["pytorch"],
            "pinned": True,
        },
        id="conda-1.0.0-cuda-metapackage",
    ),
    # "Linux and Windows ... # CUDA 11.7: pip install torch==2.0.1 ..." without an index: PyPI's
    # Windows wheels are CPU builds, so the row holds for linux-64 only.
    pytest.param(
        "pip",
        "2.0.1",
        "11.7",
        {
            "kind": "cuda",
            "version": "11.7",
            "release": "2.0.1",
            "platforms": ["linux-64"],
            "torch": "2.0.1",
            "torchvision": "0.15.2",
            "torchaudio": "2.0.2",
            "index": "pypi",
            "url": None,
            "wheel": None,
            "torchvision-wheel": None,
            "pypi-default": True,
        },
        id="pip-2.0.1-plain-pypi-cuda-is-linux-only-and-the-pypi-default",
    ),
]


@pytest.mark.parametrize(("manager", "release", "version", "expected"), _ROWS)
def test_row(
    rows: tuple[list[rm.Row], list[rm.Row]],
    manager: str,
    release: str,
    version: str,
    expected: dict[str, object],
) -> None:
    table = rows[0] if manager == "pip" else rows[1]
    got = [r for r in table if r["release"] == release and r["version"] == version]
    # conda rows carry CondaBuild's `python` and `built` (conda-forge rows only; None for the
    # page's rows) and `conda-default` (set only by matrices/inferred-builds.yaml marks)
    extra: dict[str, object] = (
        {}
        if manager == "pip"
        else {
            "python": None,
            "torchvision-python": None,
            "torchaudio-python": None,
            "built": None,
            "conda-default": False,
        }
    )
    want = {**expected, **extra, "published": None, "source": SOURCE, "inferred": False}
    assert got == [want]


def test_1_10_1_per_accelerator_find_links_and_rocm_4_0_1_torchvision(
    cmds: list[rm.PublishedCommand],
) -> None:
    assert one(cmds, "1.10.1", "pip", "CUDA 10.2").index_url == (
        "https://download.pytorch.org/whl/cu102/torch_stable.html"
    )
    assert one(cmds, "1.10.1", "pip", "ROCM 4.1 (Linux only)").index_url == (
        "https://download.pytorch.org/whl/torch_stable.html"
    )
    rocm401 = one(cmds, "1.10.1", "pip", "ROCM 4.0.1 (Linux only)")
    assert (rocm401.pin("torchvision"), rocm401.platforms) == ("0.10.2+rocm4.0.1", ("linux-64",))
    assert rm.parse_companions(cmds)["1.10.1"] == ("0.11.2", "0.10.1")


def test_extra_index_url_with_two_spaces(cmds: list[rm.PublishedCommand]) -> None:
    cmd = one(cmds, "1.12.1", "pip", "ROCM 5.1.1 (Linux only)")
    assert "--extra-index-url  https://" in cmd.command
    assert (cmd.index_form, cmd.index_url) == (
        "extra-index-url",
        "https://download.pytorch.org/whl/rocm5.1.1",
    )
    assert (cmd.kind, cmd.version, cmd.platforms) == ("rocm", "5.1.1", ("linux-64",))


def test_companions_differ_between_pip_and_conda(cmds: list[rm.PublishedCommand]) -> None:
    assert one(cmds, "2.0.0", "conda", "conda").pin("torchvision") == "0.15.0"
    assert one(cmds, "2.0.0", "pip", "").pin("torchvision") == "0.15.1"
    companions = rm.parse_companions(cmds)
    assert companions["2.0.0"] == ("0.15.1", "2.0.1")
    assert companions["1.6.0"] == ("0.7.0", None)  # no torchaudio in the 1.6.0 commands
    assert companions["1.8.2"] == ("0.9.2", "0.8.2")


def test_macos_platforms_follow_pypi_wheel_tags(cmds: list[rm.PublishedCommand]) -> None:
    assert one(cmds, "1.8.0", "pip", "").platforms == ("osx-64",)  # torchvision 0.9.0: no arm64
    assert one(cmds, "1.9.0", "pip", "").platforms == ("osx-64", "osx-arm64")
    assert one(cmds, "2.3.1", "pip", "").platforms == ("osx-arm64",)  # no x86_64 macOS wheels
    assert one(cmds, "2.2.2", "conda", "conda").platforms == ("osx-64",)
    assert one(cmds, "2.3.1", "conda", "conda").platforms == ()
    # Without PyPI data the heading alone ("OSX") decides.
    plain = rm.parse_previous_versions(PAGE)
    assert one(plain, "2.3.1", "pip", "").platforms == ("osx-64",)


def test_lts_1_8_2(
    cmds: list[rm.PublishedCommand], rows: tuple[list[rm.Row], list[rm.Row]]
) -> None:
    linux = one(cmds, "1.8.2", "conda", "CUDA 11.1 (Linux)")
    windows = one(cmds, "1.8.2", "conda", "CUDA 11.1 (Windows)")
    assert (linux.platforms, linux.channels) == (("linux-64",), ("pytorch-lts", "nvidia"))
    assert (windows.platforms, windows.channels) == (("win-64",), ("pytorch-lts", "conda-forge"))
    assert linux.notes[0].startswith("NOTE: 'nvidia' channel is required")
    conda_1_8_2 = [r for r in rows[1] if r["release"] == "1.8.2"]
    assert {(tuple(r["platforms"]), r["pytorch"], r["inferred"]) for r in conda_1_8_2} == {
        (("linux-64",), "1.8.2", True),
        (("win-64",), "1.8.2", True),
        (("linux-64", "win-64"), "1.8.2", True),
    }
    pip = one(cmds, "1.8.2", "pip", "CUDA 10.2")
    assert pip.command.startswith("pip3 install torch==1.8.2 ")
    assert pip.index_url == "https://download.pytorch.org/whl/lts/1.8/cu102"


def test_unsupported_commands_are_exactly_these(cmds: list[rm.PublishedCommand]) -> None:
    got = sorted(
        (c.release, c.manager, c.os_group, c.label, c.unsupported or "no platform")
        for c in rm.unsupported_commands(cmds)
    )
    hand = "no pip command: the page says to download a wheel by hand, with no pin"
    template = (
        "a template ('replace 0.4.1 with the desired version') with no platform; "
        "'without CUDA' is not a CPU build on Linux"
    )
    lw = "linux and windows"
    expected = [
        *[("0.4.1", "conda", "< 1.0.0 mac and misc. binaries", "", template)] * 4,
        *[("0.4.1", "conda", "< 1.0.0 via conda", "", template)] * 5,
        ("1.0.0", "pip", lw, "CPU only", hand),
        ("1.0.0", "pip", lw, "CUDA 10.0", hand),
        ("1.0.0", "pip", lw, "CUDA 8.0", hand),
        ("1.0.0", "pip", lw, "CUDA 9.0", hand),
        ("1.0.1", "pip", lw, "CPU only", hand),
        ("1.0.1", "pip", lw, "CUDA 10.0", hand),
        ("1.0.1", "pip", lw, "CUDA 9.0", hand),
        ("1.1.0", "pip", lw, "CPU only", hand),
        ("1.1.0", "pip", lw, "CUDA 10.0", hand),
        ("1.1.0", "pip", lw, "CUDA 9.0", hand),
        (
            "1.8.0",
            "pip",
            lw,
            "RocM 4.0.1 (Linux only)",
            "several commands (torch unpinned, torchvision built from git)",
        ),
        ("2.3.0", "conda", "osx", "conda", "no platform"),
        ("2.3.1", "conda", "osx", "conda", "no platform"),
    ]
    assert got == sorted(expected)


def _reproduces(cmd: rm.PublishedCommand, row: rm.Row) -> bool:
    same = (row["release"], row["kind"], row["version"]) == (cmd.release, cmd.kind, cmd.version)
    if cmd.manager == "pip":
        pins = (row["torch"], row["torchvision"], row["torchaudio"]) == (
            cmd.pin("torch"),
            cmd.pin("torchvision"),
            cmd.pin("torchaudio"),
        )
        index = (row["index"], row["url"]) == (cmd.index_form, cmd.index_url)
        # A plain-PyPI command that shares its key with an explicit one only sets pypi-default.
        merged = cmd.index_form == "pypi" != row["index"] and row["pypi-default"] is True
        return same and ((pins and index) or merged)
    vision = cmd.pin("torchvision") or cmd.pin("torchvision-cpu")  # 1.0-1.1 CPU package names
    return same and (
        row["pytorch"] == (cmd.pin("pytorch") or cmd.pin("pytorch-cpu") or cmd.release)
        and row["pinned"] == (cmd.pin("pytorch") is not None or cmd.pin("pytorch-cpu") is not None)
        # Unpinned companions (the LTS commands) take the section's pip pins, marked inferred.
        and (row["torchvision"] == vision or (row["inferred"] and not vision))
        and (
            row["torchaudio"] == cmd.pin("torchaudio")
            or (row["inferred"] and not cmd.pin("torchaudio"))
        )
        and tuple(row["channels"]) == cmd.channels
    )


def test_round_trip_every_command_is_exactly_one_row(
    cmds: list[rm.PublishedCommand], rows: tuple[list[rm.Row], list[rm.Row]]
) -> None:
    used: set[int] = set()
    expressible = [c for c in cmds if c.expressible]
    assert len(expressible) == 293
    for cmd in expressible:
        table = rows[0] if cmd.manager == "pip" else rows[1]
        for platform in cmd.platforms:
            hits = [
                i
                for i, r in enumerate(table)
                if platform in r["platforms"]
                and (r["release"], r["kind"], r["version"]) == (cmd.release, cmd.kind, cmd.version)
            ]
            assert len(hits) == 1, (cmd, platform)
            assert _reproduces(cmd, table[hits[0]]), (cmd, table[hits[0]])
            used.add(id(table[hits[0]]))
    assert used == {id(r) for r in rows[0] + rows[1]}  # and no row without a command


def test_rows_validate_and_dump_round_trips(rows: tuple[list[rm.Row], list[rm.Row]]) -> None:
    pip_rows, conda_rows = rows
    assert (len(pip_rows), len(conda_rows)) == (157, 136)
    for model, table, header in (
        (PipBuild, pip_rows, rm.PIP_HEADER),
        (CondaBuild, conda_rows, rm.CONDA_HEADER),
    ):
        text = rm.dump_rows(table, header)
        assert all(line.startswith(("#", "- {")) for line in text.splitlines())
        loaded = yaml.safe_load(text)
        assert [
            model.model_validate(r).model_dump(by_alias=True, mode="json") for r in loaded
        ] == table


def test_committed_matrices_are_fresh() -> None:
    rendered = rm.render(PAGE, WHEELS, COMMIT)
    for name, text in rendered.items():
        assert (ROOT / "matrices" / name).read_text(encoding="utf-8") == text, (
            f"matrices/{name} is stale: run scripts/refresh_matrix.py --recorded --write"
        )


OLD_PAGE_2_0_1 = """\
## Commands for Versions >= 1.0.0

### v2.0.1

#### Wheel

##### Linux CUDA 11.7
```
pip install torch==2.0.1 torchvision==0.15.2 torchaudio==2.0.2
```

##### Linux and Windows

```
# CUDA 11.7
pip install torch==2.0.1+cu117 torchvision==0.15.2+cu117 torchaudio==2.0.2 --index-url https://download.pytorch.org/whl/cu117
```
"""


def test_linux_cuda_block_only_marks_the_explicit_row_as_pypi_default() -> None:
    cmds = rm.parse_previous_versions(OLD_PAGE_2_0_1)
    assert [(c.os_group, c.kind, c.version, c.platforms) for c in cmds] == [
        ("linux cuda 11.7", "cuda", "11.7", ("linux-64",)),
        ("linux and windows", "cuda", "11.7", ("linux-64", "win-64")),
    ]
    pip_rows, _ = rm.commands_to_rows(cmds, source="t")
    assert [(r["platforms"], r["torch"], r["index"], r["pypi-default"]) for r in pip_rows] == [
        (["linux-64", "win-64"], "2.0.1+cu117", "index-url", True)
    ]


def test_merge_inferred_page_wins(rows: tuple[list[rm.Row], list[rm.Row]]) -> None:
    page = [r for r in rows[0] if r["release"] == "1.12.0"]
    inferred = [
        {**page[0], "platforms": ["linux-64", "linux-aarch64"], "source": "x", "inferred": True},
        {**page[0], "release": "1.3.0", "torch": "1.3.0", "source": "y", "inferred": True},
    ]
    merged = rm.merge_inferred(page, inferred)
    assert [(r["release"], r["platforms"], r["source"]) for r in merged if r["inferred"]] == [
        ("1.3.0", page[0]["platforms"], "y"),
        ("1.12.0", ["linux-aarch64"], "x"),
    ]


def test_unknown_label_is_an_error() -> None:
    page = "### v9.0.0\n\n#### Wheel\n\n##### OSX\n\n```\n# NPU 1\npip install torch==9.0.0\n```\n"
    with pytest.raises(rm.PageFormatError, match=r"v9\.0\.0 osx: unknown label 'NPU 1'"):
        rm.parse_previous_versions(page)


def test_label_and_pin_must_agree() -> None:
    page = (
        "### v9.0.0\n\n#### Wheel\n\n##### Linux\n\n"
        "```\n# CUDA 11.8\npip install torch==9.0.0+cu121\n```\n"
    )
    with pytest.raises(rm.PageFormatError, match=r"label 'CUDA 11.8' but the command says"):
        rm.parse_previous_versions(page)


def test_condense_pypi() -> None:
    files = [
        {"filename": "torch-9.0-cp311-cp311-macosx_11_0_arm64.whl"},
        {"filename": "torch-9.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"},
        {"filename": "torch-9.0-cp311-cp311-macosx_10_9_universal2.whl", "yanked": True},
        {"filename": "torch-9.0.tar.gz"},
    ]
    got = rm.condense_pypi({"releases": {"9.0": files, "8.0": []}})
    assert got == {"8.0": [], "9.0": ["linux-64", "osx-64", "osx-arm64"]}


def test_merge_inferred_conda_default_marks_the_page_row() -> None:
    base = {
        "kind": "cuda", "release": "1.0.0", "pytorch": "1.0.0", "torchvision": "0.2.1",
        "form": "cuda-meta", "channels": ["pytorch"], "source": "page", "inferred": False,
    }  # fmt: skip
    page = [
        {**base, "version": "9.0", "platforms": ["linux-64", "win-64"]},
        {**base, "version": "10.0", "platforms": ["linux-64", "win-64"]},
    ]
    mark = {**page[0], "platforms": ["linux-64"], "conda-default": True, "source": "x"}
    merged = rm.merge_inferred(page, [mark])
    assert [(r["version"], r["platforms"], r.get("conda-default", False)) for r in merged] == [
        ("9.0", ["linux-64"], True),
        ("10.0", ["linux-64", "win-64"], False),
        ("9.0", ["win-64"], False),
    ]
    assert all(r["source"] == "page" for r in merged)
