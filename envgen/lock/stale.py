"""Variant folders a spec no longer has: found, and the files envgen wrote there removed.

A folder under the output directory is stale when it is not one of the spec's variants and holds
a file that starts with envgen's generated header. Only such files are removed; anything else
(a built `.env`, a user's notes) stays and is reported, so nothing a person wrote is lost. This
module must not render, lock or build anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from envgen.infra.files import remove_empty_dir, remove_file
from envgen.render.header import DO_NOT_EDIT

_MARKER: Final = f"# {DO_NOT_EDIT}"


@dataclass(frozen=True, slots=True, kw_only=True)
class StaleDir:
    """A folder of a variant the spec no longer expands to."""

    name: str
    generated: tuple[str, ...]  # the files envgen wrote there
    other: tuple[str, ...]  # everything else in it


def _is_generated(path: Path) -> bool:
    if path.is_symlink() or not path.is_file():
        return False
    try:
        with path.open("r", encoding="utf-8") as fh:
            return fh.readline(len(_MARKER) + 2).rstrip("\n") == _MARKER
    except (OSError, UnicodeDecodeError):
        return False


def find_stale(out: Path, current: Iterable[str]) -> list[StaleDir]:
    """Folders under `out` that are not current variants and hold files envgen wrote."""
    keep = set(current)
    try:
        entries = sorted(out.iterdir())
    except OSError:
        return []
    found: list[StaleDir] = []
    for folder in entries:
        if folder.name in keep or folder.name.startswith(".") or folder.is_symlink():
            continue
        if not folder.is_dir():
            continue
        try:
            children = sorted(folder.iterdir())
        except OSError:
            continue
        generated = tuple(c.name for c in children if _is_generated(c))
        if generated:
            other = tuple(c.name for c in children if c.name not in generated)
            found.append(StaleDir(name=folder.name, generated=generated, other=other))
    return found


def describe_stale(stale: StaleDir) -> str:
    """`cu118/: not a variant of the spec any more (envgen wrote requirements.txt there)`."""
    return (
        f"{stale.name}/: not a variant of the spec any more "
        f"(envgen wrote {', '.join(stale.generated)} there)"
    )


def prune(out: Path, stale: list[StaleDir]) -> list[str]:
    """Remove the generated files of stale folders (and the folder once empty); report lines."""
    lines: list[str] = []
    for s in stale:
        folder = out / s.name
        removed = [name for name in s.generated if remove_file(folder / name)]
        if not s.other and remove_empty_dir(folder):
            lines.append(f"removed {out / s.name}/ (a variant the spec no longer has)")
            continue
        kept = ", ".join(s.other) or "nothing"
        lines.append(
            f"removed {', '.join(removed) or 'nothing'} from {out / s.name}/ (a variant the spec "
            f"no longer has); kept what envgen did not write there: {kept}"
        )
    return lines
