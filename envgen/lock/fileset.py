"""A variant's generated files as one set: written together or not at all (issue 26 item 2).

Inputs (`requirements.in`, `environment.yml`) and locks (`requirements.txt`, `pylock.toml`,
`conda-lock.yml`, `conda-<platform>.lock`) only mean something together: a new input beside an
old lock is neither the old state nor the new one. `commit_variant` replaces a variant folder's
files through envgen.infra.files.commit_files (staged, then renamed under a journal), removing
envgen's files there that the new set does not have; `finish_interrupted` rolls forward a set a
stopped run left. This module must not render, resolve or decide what a set holds.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Final

from envgen.infra.files import (
    commit_files,
    finish_commit,
    normalize_text,
    open_dir,
    pending_commit,
    read_output,
    write_if_changed,
)
from envgen.render.header import DO_NOT_EDIT
from envgen.render.plan import PlannedFile

_VARIANT_FILE: Final = re.compile(
    r"requirements\.in|requirements\.txt|pylock\.toml|environment\.yml|conda-lock\.yml"
    r"|conda-[a-z0-9_]+-[a-z0-9_]+\.lock"
)
_HEADER: Final = f"# {DO_NOT_EDIT}\n".encode()
# Written only by a full lock: beside pins-only files, one is a leftover of a partial failure.
_FULL_ONLY: Final = frozenset({"requirements.in", "pylock.toml"})


def is_variant_file(name: str) -> bool:
    """Whether `name` is a file envgen writes into a variant's folder.

    >>> is_variant_file("conda-linux-64.lock"), is_variant_file("notes.md")
    (True, False)
    """
    return _VARIANT_FILE.fullmatch(name) is not None


def generated_files(folder: Path, *, inside: Path) -> list[str]:
    """The variant files in `folder` that start with envgen's header (sorted; none when the
    folder is missing). A link or a file of another kind there is not counted."""
    try:
        fd = open_dir(folder, inside=inside, create=False)
    except (FileNotFoundError, NotADirectoryError):
        return []
    try:
        names = sorted(n for n in os.listdir(fd) if is_variant_file(n))  # noqa: PTH208 - by descriptor
    finally:
        os.close(fd)
    found: list[str] = []
    for name in names:
        try:
            raw = read_output(folder / name, inside=inside)
        except OSError:
            continue  # a link, a device, a folder: never envgen's
        if raw is not None and raw.startswith(_HEADER):
            found.append(name)
    return found


def commit_variant(
    out: Path,
    variant_id: str,
    texts: Mapping[str, str],
    *,
    inside: Path,
    keep: Iterable[str] = (),
) -> list[str]:
    """Write `texts` (name -> text) into `<out>/<variant_id>/` as one set; the names changed.

    envgen's other files there (generated, not in `texts` or `keep`) are removed in the same
    set: a pylock.toml the new lock has none of, a pins-only file beside a full lock's inputs.
    """
    folder = out / variant_id
    keep = set(keep)
    changes: dict[str, str | None] = dict(texts)
    for name in generated_files(folder, inside=inside):
        if name not in changes and name not in keep:
            changes[name] = None
    if not changes:
        return []
    return commit_files(folder, changes, inside=inside, allowed=is_variant_file)


def finish_interrupted(out: Path, *, inside: Path) -> list[str]:
    """Roll forward every variant folder's set a stopped run left; a line for each."""
    try:
        folders = sorted(p for p in out.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return []
    return [
        f"{folder.name}: finished writing the set of files an interrupted run left"
        for folder in folders
        if finish_commit(folder, inside=inside, allowed=is_variant_file)
    ]


def interrupted(out: Path, variant_ids: Iterable[str], *, inside: Path) -> list[str]:
    """A problem line for each of these variants whose last write was stopped halfway."""
    return [
        f"{v}/: a write of its files was interrupted (they may mix old and new); "
        "`envgen lock` finishes it"
        for v in variant_ids
        if pending_commit(out / v, inside=inside)
    ]


def commit_planned(
    out: Path,
    files: Iterable[PlannedFile],
    *,
    locked: frozenset[str],
    inside: Path,
    extra: Mapping[str, Mapping[str, str]] | None = None,
) -> tuple[list[PurePosixPath], list[str]]:
    """`lock --pins-only`'s writes: the project's files, and each variant's as one set.

    A variant in `locked` holds a full lock: its inputs move only with it, so they are left as
    they are when they differ (a line says so; `envgen lock` writes both). Any other variant's
    planned files replace envgen's files in its folder, so a pins-only requirements.txt never
    stands beside a stray full-lock input. `extra` adds files to a variant's set (a lock
    carried over from its old name). Returns (paths written, lines).
    """
    sets: dict[str, dict[str, str]] = {}
    project: list[PlannedFile] = []
    written: list[PurePosixPath] = []
    lines: list[str] = []
    for f in files:
        if len(f.relpath.parts) == 1:
            project.append(f)  # the Makefile: written after the variants, as planned
        else:
            sets.setdefault(f.relpath.parts[0], {})[f.relpath.parts[1]] = f.text
    for variant_id, planned in sets.items():
        folder = out / variant_id
        texts = {**planned, **(extra or {}).get(variant_id, {})}
        if variant_id in locked:
            differ = [
                name
                for name, text in texts.items()
                if read_output(folder / name, inside=inside) != normalize_text(text).encode()
            ]
            if differ:
                lines.append(
                    f"{variant_id}: {', '.join(differ)} not rewritten: its inputs changed and "
                    "move only with its full lock (`envgen lock` writes both)"
                )
            continue
        present = generated_files(folder, inside=inside)
        # Only a full lock's inputs are replaced: a pins-only file of the other manager stays.
        stray = [n for n in present if n not in texts and n in _FULL_ONLY]
        changed = commit_variant(
            out, variant_id, texts, inside=inside, keep=[n for n in present if n not in stray]
        )
        written += [PurePosixPath(variant_id, n) for n in changed if n in texts]
        lines += [
            f"removed {out / variant_id / n} (a full lock's file beside pins-only ones)"
            for n in changed
            if n not in texts
        ]
    written += [
        f.relpath
        for f in project
        if write_if_changed(out.joinpath(*f.relpath.parts), f.text, inside=inside)
    ]
    return written, lines
