"""`envgen vault` (add, check, gc, push, pull), `build --vault`'s URL, and `envgen pack`.

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from envgen.app._guard import guarded, trusted_root
from envgen.app._project import load
from envgen.errors import (
    BuildError,
)
from envgen.infra.settings import Settings
from envgen.render.plan import default_out

if TYPE_CHECKING:
    # The later stages are imported lazily below (rich, the lockers); by name here.
    from envgen.vault.s3 import SyncResult
    from envgen.vault.store import Artifact


def vault_url(location: str) -> str:
    """A vault folder as a `file:` URL; a URL as it is.

    >>> vault_url("https://vault.example/team"), vault_url("/srv/vault")
    ('https://vault.example/team', 'file:///srv/vault')
    """
    if "://" in location:
        return location.rstrip("/")
    return Path(location).resolve().as_uri()


def pack(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    variant: str,
    out: Path | None,
    env_dir: Path | None,
    output: Path | None,
    settings: Settings,
) -> Path:
    """`envgen pack`: a built, smoke-passing environment as one relocatable archive."""
    from envgen.vault.pack import pack_variant  # noqa: PLC0415 - only for `envgen pack`

    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    archive = output or Path(f"{spec.name}-{variant}.tar.gz")
    with guarded(target, BuildError, "envgen pack", inside=trusted_root(spec, out)):
        return pack_variant(
            spec,
            matrix,
            target,
            variant=variant,
            env_dir=env_dir,
            output=archive,
            settings=settings,
        )


def vault(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    out: Path | None,
    variants: tuple[str, ...],
    root: Path,
    all_files: bool,
    settings: Settings,
) -> tuple[Any, ...]:
    """`envgen vault`: store every artifact of the selected variants' locks in `root`."""
    from envgen.vault import orchestrate as vaulting  # noqa: PLC0415 - only for `envgen vault`

    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    with guarded(root, BuildError, "envgen vault", inside=root.parent.resolve()):
        return vaulting.vault_variants(
            spec, matrix, target, root, variants=variants, settings=settings, all_files=all_files
        )


def vault_check(root: Path) -> None:
    """`envgen vault check`: re-hash every stored file.

    Raises:
        BuildError: naming each missing, changed or unreferenced file.
    """
    from envgen.vault.store import check  # noqa: PLC0415 - only for `envgen vault check`

    problems = check(root)
    if problems:
        msg = f"{root}: {len(problems)} problem(s):\n" + "\n".join(f"  - {p}" for p in problems)
        raise BuildError(msg, hint="`envgen vault` again restores missing or changed files")


def vault_gc(root: Path) -> tuple[Artifact, ...]:
    """`envgen vault gc`: drop the files no vaulted lock references (holding the vault's lock,
    as `envgen vault` does while it adds)."""
    from envgen.vault.store import gc  # noqa: PLC0415 - only for `envgen vault gc`

    with guarded(root, BuildError, "envgen vault gc", inside=root.parent.resolve()):
        return gc(root)


def vault_push(root: Path, url: str, *, endpoint_url: str | None) -> SyncResult:
    """`envgen vault push`: upload what the bucket lacks (files first, the manifest last)."""
    from envgen.vault.s3 import push  # noqa: PLC0415 - boto3: only for push / pull

    return push(root, url, endpoint_url=endpoint_url)


def vault_pull(root: Path, url: str, *, endpoint_url: str | None) -> SyncResult:
    """`envgen vault pull`: download what the local vault lacks, each file checked (holding the
    vault's lock)."""
    from envgen.vault.s3 import pull  # noqa: PLC0415 - boto3: only for push / pull

    with guarded(root, BuildError, "envgen vault pull", inside=root.parent.resolve()):
        return pull(root, url, endpoint_url=endpoint_url)
