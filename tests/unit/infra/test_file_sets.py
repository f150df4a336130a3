"""A folder's files replaced as one set (envgen.infra.files.commit_files, issue 26 item 2).

Every file of the set changes or none does: a failure while staging changes nothing, and a run
stopped between two renames leaves a journal that the next run rolls forward. A journal planted
in a cloned repository cannot rename or remove anything but the allowed names.
"""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

from envgen.errors import FileSystemError
from envgen.infra.files import COMMIT_JOURNAL, commit_files, finish_commit, pending_commit

NAMES = frozenset({"requirements.in", "requirements.txt", "pylock.toml"})


def allowed(name: str) -> bool:
    return name in NAMES


def listing(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    cpu = tmp_path / "environments" / "cpu"
    cpu.mkdir(parents=True)
    (cpu / "requirements.txt").write_text("old pins\n")
    (cpu / "pylock.toml").write_text("old pylock\n")
    (cpu / "notes.md").write_text("mine\n")
    return cpu


def test_a_set_is_written_whole_and_identical_files_are_skipped(folder: Path) -> None:
    root = folder.parents[1]
    changed = commit_files(
        folder,
        {"requirements.in": "inputs", "requirements.txt": "old pins\n", "pylock.toml": None},
        inside=root,
        allowed=allowed,
    )
    assert changed == ["requirements.in", "pylock.toml"]
    assert listing(folder) == {
        "notes.md": "mine\n",
        "requirements.in": "inputs\n",
        "requirements.txt": "old pins\n",
    }
    assert commit_files(folder, {"requirements.in": "inputs"}, inside=root, allowed=allowed) == []
    assert not pending_commit(folder, inside=root)


def test_a_run_stopped_between_renames_is_rolled_forward(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = folder.parents[1]
    real = os.replace
    calls: list[str] = []

    def stopped(src: str, dst: str, **kw: int) -> None:
        calls.append(dst)
        if len(calls) == 3:  # the journal, then one file of the set: killed here
            raise KeyboardInterrupt
        real(src, dst, **kw)

    monkeypatch.setattr(os, "replace", stopped)
    with pytest.raises(KeyboardInterrupt):
        commit_files(
            folder,
            {"requirements.in": "new in", "requirements.txt": "new lock", "pylock.toml": None},
            inside=root,
            allowed=allowed,
        )
    monkeypatch.setattr(os, "replace", real)
    # A mix on disk, with the journal that names the rest.
    assert calls == [COMMIT_JOURNAL, "requirements.in", "requirements.txt"]
    assert (folder / "requirements.in").read_text() == "new in\n"
    assert (folder / "requirements.txt").read_text() == "old pins\n"
    assert pending_commit(folder, inside=root)

    assert finish_commit(folder, inside=root, allowed=allowed)
    assert listing(folder) == {
        "notes.md": "mine\n",
        "requirements.in": "new in\n",
        "requirements.txt": "new lock\n",
    }
    assert not pending_commit(folder, inside=root)
    assert not finish_commit(folder, inside=root, allowed=allowed)


def test_the_next_set_finishes_a_stopped_one_first(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = folder.parents[1]
    real = os.replace
    count = [0]

    def stopped(src: str, dst: str, **kw: int) -> None:
        count[0] += 1
        if count[0] == 2:
            raise KeyboardInterrupt
        real(src, dst, **kw)

    monkeypatch.setattr(os, "replace", stopped)
    with pytest.raises(KeyboardInterrupt):
        commit_files(
            folder, {"requirements.in": "a", "requirements.txt": "b"}, inside=root, allowed=allowed
        )
    monkeypatch.setattr(os, "replace", real)
    commit_files(folder, {"pylock.toml": "c"}, inside=root, allowed=allowed)
    assert listing(folder) == {
        "notes.md": "mine\n",
        "pylock.toml": "c\n",
        "requirements.in": "a\n",
        "requirements.txt": "b\n",
    }


def test_a_failure_while_staging_changes_nothing(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = folder.parents[1]
    before = listing(folder)
    real = os.fsync
    count = [0]

    def full_disk(fd: int) -> None:
        count[0] += 1
        if count[0] == 2:  # the second staged file
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left on device") as info:
        commit_files(
            folder, {"requirements.in": "a", "requirements.txt": "b"}, inside=root, allowed=allowed
        )
    assert info.value.filename == str(folder / "requirements.txt")
    assert listing(folder) == before  # no temp file, no journal, no new file


def test_temp_files_of_a_run_stopped_while_staging_are_swept(folder: Path) -> None:
    root = folder.parents[1]
    (folder / ".requirements.txt.0123456789ab.tmp").write_text("half")
    (folder / ".notes.md.0123456789ab.tmp").write_text("not one of ours")
    assert not finish_commit(folder, inside=root, allowed=allowed)
    assert sorted(p.name for p in folder.iterdir()) == [
        ".notes.md.0123456789ab.tmp",
        "notes.md",
        "pylock.toml",
        "requirements.txt",
    ]


@pytest.mark.parametrize(
    "journal",
    [
        {"version": 1, "moves": [[".x.0123456789ab.tmp", "../x"]], "removes": []},
        {"version": 1, "moves": [], "removes": ["notes.md"]},
        {"version": 1, "moves": [["evil", "requirements.txt"]], "removes": []},
        {"version": 2, "moves": [], "removes": []},
        "not json",
    ],
)
def test_a_planted_journal_touches_nothing(folder: Path, journal: object) -> None:
    root = folder.parents[1]
    (folder / "evil").write_text("planted")
    text = journal if isinstance(journal, str) else json.dumps(journal)
    (folder / COMMIT_JOURNAL).write_text(text)
    before = listing(folder)
    with pytest.raises(FileSystemError) as info:
        finish_commit(folder, inside=root, allowed=allowed)
    assert str(info.value) == (
        f"{folder / COMMIT_JOURNAL} is not a journal envgen wrote (it names files other than a "
        "variant's own, or is malformed); nothing it names was touched\n"
        f"  hint: remove it ({folder / COMMIT_JOURNAL}) and run again"
    )
    assert listing(folder) == before


def test_a_link_in_the_set_is_refused(folder: Path, tmp_path: Path) -> None:
    root = folder.parents[1]
    target = tmp_path / "elsewhere.txt"
    target.write_text("yours\n")
    (folder / "requirements.in").symlink_to(target)
    with pytest.raises(FileSystemError, match="is a symbolic link"):
        commit_files(
            folder, {"requirements.txt": "b", "requirements.in": "a"}, inside=root, allowed=allowed
        )
    assert target.read_text() == "yours\n"
    assert (folder / "requirements.txt").read_text() == "old pins\n"
