"""A generated file's two modes, shared by the derivation and refresh scripts.

`--write` replaces the committed file atomically (envgen.infra.files.atomic_write_bytes: a
temp file, fsync, rename); without it the script prints how the committed file differs from
what it would write, as a unified diff, and exits 1 when it does (the check the tests run).
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from envgen.infra.files import atomic_write_bytes


def write_or_diff(path: Path, new: str, *, write: bool, label: str = "regenerated") -> bool:
    """Write `new` to `path` (`write`), or print the diff from the committed file to `new`.

    Returns True when the committed file differs and was not written.
    """
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    if write:
        if old != new:
            atomic_write_bytes(path, new.encode("utf-8"))
        return False
    sys.stdout.writelines(
        difflib.unified_diff(old.splitlines(True), new.splitlines(True), path.name, label)
    )
    return old != new
