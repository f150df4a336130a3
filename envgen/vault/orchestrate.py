"""What `envgen vault` and `envgen build --vault` do, variant by variant.

`vault_variants` stores every artifact of each selected variant's lock in a vault directory;
`check_vault` tells a build, before anything is installed, which of a lock's files the vault
lacks. Must not install (envgen.build does) or print (envgen.cli does).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from envgen.build.orchestrate import check_current
from envgen.errors import BuildError
from envgen.infra.settings import Settings
from envgen.model.matrix import Matrix
from envgen.model.spec import ProjectSpec
from envgen.model.variants import expand, select
from envgen.render.indexes import index_urls
from envgen.vault.locks import read_locked
from envgen.vault.store import add_lock, missing_for, read_remote_manifest, sources_for

DEFAULT_TIMEOUT: Final = 120.0

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class VaultedVariant:
    """One variant's lock in the vault: how many files and bytes it needs."""

    key: str
    files: int
    bytes: int


def lock_key(spec: ProjectSpec, variant_id: str) -> str:
    """The manifest key of a variant's lock: `<project name>/<variant id>`."""
    return f"{spec.name}/{variant_id}"


def vault_variants(
    spec: ProjectSpec,
    matrix: Matrix,
    out: Path,
    root: Path,
    *,
    variants: tuple[str, ...] = (),
    settings: Settings,
    all_files: bool = False,
) -> tuple[VaultedVariant, ...]:
    """Fetch, check and store every artifact the selected variants' locks name.

    Raises:
        BuildError: a variant has no full lock, or a pinned file cannot be found or is changed.
        NetworkError: an index or download failed.
    """
    chosen = select(expand(spec, matrix).variants, variants)
    urls = index_urls(spec, settings, for_writing=False)
    timeout = settings.http_timeout or DEFAULT_TIMEOUT
    done: list[VaultedVariant] = []
    for v in chosen:
        # The vault fetches and stores what a lock names, so a committed lock is checked as a
        # build checks it first (intact, current, what its inputs resolve to): a forged pin's
        # URL (another host, `file:`, a name with `%2F..`) never reaches a download.
        names = tuple(name for name, _ in read_locked(out / v.id, v).files)
        check_current(spec, v, out / v.id, names, settings=settings)
        locked = read_locked(out / v.id, v)
        sources = sources_for(v, urls, settings.channel_alias, timeout, settings.netrc_file)
        key = lock_key(spec, v.id)
        stored = add_lock(root, key, locked, v, sources, all_files=all_files)
        done.append(VaultedVariant(key=key, files=len(stored), bytes=sum(a.size for a in stored)))
        log.debug("%s: %d files in the vault", key, len(stored))
    return tuple(done)


def check_vault(
    spec: ProjectSpec,
    matrix: Matrix,
    out: Path,
    vault: str,
    *,
    variants: tuple[str, ...],
    settings: Settings,
) -> None:
    """Raise BuildError naming every file the selected variants' locks need and `vault` lacks."""
    chosen = select(expand(spec, matrix).variants, variants)
    manifest = read_remote_manifest(vault, timeout=settings.http_timeout or DEFAULT_TIMEOUT)
    lines: list[str] = []
    for v in chosen:
        missing = missing_for(manifest, read_locked(out / v.id, v), v)
        lines += [f"{v.id}: {m}" for m in missing]
    if lines:
        msg = f"the vault lacks {len(lines)} file(s) the lock needs:\n" + "\n".join(
            f"  - {line}" for line in lines
        )
        raise BuildError(
            msg,
            hint=f"run `envgen vault {spec.path.name} --dir DIR` where the "
            "original indexes are reachable, then build again",
        )
