"""`envgen clean`: environments that no variant of the spec owns any more, listed and removed.

A spec change can leave an environment behind: a second python renames `cpu` to `cpu-py311`, an
accelerator is dropped. Only what envgen built is removed (a folder with its build marker, or a
build's leftover temp tree), never through a symbolic link, and only inside the project (or the
--env-dir) it was asked about; anything else found in an environment's place is reported and left
alone.
"""

from __future__ import annotations

import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from envgen.build.orchestrate import ENV_NAME, marker_state, remove_leftovers
from envgen.errors import FileSystemError
from envgen.infra.files import check_no_links

Action = Literal["removed", "would remove", "left alone"]


@dataclass(frozen=True, slots=True)
class Orphan:
    """An environment no variant owns: where it is, what it was built for, what was done."""

    path: Path
    variant: str  # the variant id it was built for (its folder's name when the marker lacks one)
    action: Action
    why: str  # for "left alone": the reason; otherwise what the marker says it holds


def _candidates(out: Path, env_dir: Path | None, owned: set[str]) -> list[tuple[str, Path]]:
    """(variant id, environment path) pairs in the places `env_path` puts environments."""
    found: list[tuple[str, Path]] = []
    if env_dir is not None:
        if env_dir.is_dir() and not env_dir.is_symlink():
            found += [(p.name, p) for p in sorted(env_dir.iterdir()) if "." not in p.name]
        return [(v, p) for v, p in found if v not in owned]
    if out.is_dir() and not out.is_symlink():
        for folder in sorted(out.iterdir()):
            env = folder / ENV_NAME
            if folder.name not in owned and (env.exists() or env.is_symlink()):
                found.append((folder.name, env))
    return found


def _describe(marker: dict[str, object]) -> str:
    family = marker.get("torch-family")
    torch = family.get("torch") if isinstance(family, dict) else None
    return f"built for {marker.get('variant', '?')}" + (f" (torch {torch})" if torch else "")


def find_orphans(
    out: Path,
    owned: Iterable[str],
    *,
    env_dir: Path | None,
    inside: Path,
    remove: bool,
    key: bytes,
) -> list[Orphan]:
    """The environments under `out` (or `env_dir`) whose variant is not in `owned`.

    With `remove`, each one this machine built (its marker sealed with `key`, the user's build
    key) is deleted (and a killed build's temp trees beside it); a link, a file, a folder without
    envgen's marker, or one whose marker this machine did not seal (committed to the repository,
    copied) is left alone with the reason.
    """
    result: list[Orphan] = []
    for variant, env in _candidates(out, env_dir, set(owned)):
        try:
            check_no_links(env, inside=inside)
            info = env.lstat()
        except (FileSystemError, OSError) as exc:
            result.append(Orphan(env, variant, "left alone", str(exc)))
            continue
        if not stat.S_ISDIR(info.st_mode):
            result.append(Orphan(env, variant, "left alone", "not a folder"))
            continue
        state = marker_state(env, key)
        marker = state.data
        if marker is None:
            why = (
                "its envgen build marker is not sealed with your key: not built on this machine"
                if state.found
                else "no envgen build marker: not an environment envgen built here"
            )
            result.append(Orphan(env, variant, "left alone", why))
            continue
        built_from = marker.get("lock-dir")
        if env_dir is not None and built_from != str((out / variant).resolve()):
            # A shared --env-dir: only environments built from this project's locks are its own.
            why = f"built from another project's lock ({built_from or 'not recorded'})"
            result.append(Orphan(env, variant, "left alone", why))
            continue
        if remove:
            remove_leftovers(env)
            temp = env.with_name(f"{env.name}.old-clean")
            env.rename(temp)  # gone from its place at once; the slow delete follows
            remove_leftovers(env)  # the renamed tree matches `<env>.old-*`
        result.append(
            Orphan(env, variant, "removed" if remove else "would remove", _describe(marker))
        )
    return result
