"""What callers of `envgen import`'s front end use: the options, the result, and `import_text`.

envgen.repro.entry runs an import from the command line's options (files, repositories, --git,
the pins' file lists); `import_text` imports text already in memory. Nothing here touches the
network or starts a process.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from envgen.model.matrix import Matrix
from envgen.repro.importer.detect import parse_text
from envgen.repro.importer.project_yaml import kept_comments, render_project
from envgen.repro.importer.resolution import build_project


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportOptions:
    """What `envgen import` was asked to do."""

    source: Path | None = None
    command: str | None = None
    out: Path | None = None
    as_of: str | None = None
    git: bool = False
    name: str | None = None
    matrix_dir: Path | None = None
    strict: bool = False  # refuse instead of moving to the nearest combination that existed
    force: bool = False  # let `out` overwrite an existing file
    context: Path | None = None  # a Dockerfile's build context (default: its folder)
    # The repository checkout `source` lies in, where it has no .git (a copy of a clone: the
    # corpus). A script in its scripts/ folder, or its CI file, may read the checkout; default:
    # only a folder holding a .git is a checkout's root.
    checkout: Path | None = None
    # `--extra NAME`: the extras of a pyproject.toml / setup.py / setup.cfg installed as `pip
    # install .[NAME]` would (none: a plain install, which leaves every extra out)
    extras: tuple[str, ...] = ()
    # Unpinned or ranged torch without --as-of: date it by the source's last git commit when the
    # source lies in a git checkout (the CLI turns this on; it runs `git log`).
    git_default: bool = False
    # The user's cache root (Settings.cache_root), where the parsed matrix is kept; None: the
    # matrix is parsed afresh.
    cache_root: Path | None = None
    # A PEP 691 simple index (PyPI's, or ENVGEN_PYPI_INDEX) whose file lists say which python
    # the file's exact pins have wheels for; None: not asked (the CLI's --offline, library use).
    pypi_index: str | None = None
    http_timeout: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportResult:
    """The project.yaml envgen wrote (or would write), and what the user should know."""

    project: dict[str, object]
    text: str
    warnings: tuple[str, ...]
    written: bool = False


def import_text(
    text: str, *, filename: str, matrix: Matrix, as_of: dt.date | None = None, name: str = "paper"
) -> ImportResult:
    """Import file content given as text (the kind is detected from `filename` and the text)."""
    found = parse_text(text, filename=filename, base=None)
    project, warnings = build_project(found, matrix, name=found.name or name, as_of=as_of)
    return ImportResult(
        project=project,
        text=render_project(project, source=found.source, comments=kept_comments(found, project)),
        warnings=tuple(warnings),
    )
