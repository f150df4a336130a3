"""`envgen build`, `smoke`, `clean`, `run`, `shell` and `--variant auto` (envgen.build).

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from envgen.app._guard import guarded, guarded_env_dir, trusted_root
from envgen.app._project import load
from envgen.app._vault import vault_url
from envgen.errors import (
    BuildError,
    SpecError,
)
from envgen.infra.mutex import project_lock
from envgen.infra.settings import Settings
from envgen.model.variants import (
    expand,
    select,
)
from envgen.render.plan import default_out

if TYPE_CHECKING:
    # The later stages are imported lazily below (rich, the lockers); by name here.
    from envgen.build.clean import Orphan
    from envgen.build.options import BuildOptions
    from envgen.build.orchestrate import BuildReport, VariantBuild, VariantSmoke


# --- build and smoke -----------------------------------------------------------------------------
def build(options: BuildOptions) -> BuildReport:
    """`envgen build`: environments from locks, verified, then smoke-tested (build.orchestrate).

    `options.vault` (`--vault`, a folder or URL): install only from that vault, after checking it
    holds every file.
    """
    from envgen.build import orchestrate as building  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    settings = options.settings
    spec, matrix = load(options.spec, options.matrix_dir, settings)
    target = options.out or default_out(spec)
    vault = options.vault
    if vault is not None:
        from envgen.vault import orchestrate as vaulting  # noqa: PLC0415 - only with --vault

        vault = vault_url(vault)
        chosen = tuple(v.id for v in select(expand(spec, matrix).variants, options.variants))
        vaulting.check_vault(spec, matrix, target, vault, variants=chosen, settings=settings)
    inside = trusted_root(spec, options.out)
    with (
        guarded(target, BuildError, "envgen build", inside=inside),
        guarded_env_dir(options.env_dir, BuildError, "envgen build"),
    ):
        return building.build_variants(
            spec,
            matrix,
            target,
            variants=options.variants,
            settings=settings,
            manager=options.manager,  # type: ignore[arg-type]
            env_dir=options.env_dir,
            smoke=options.smoke,
            jobs=options.jobs,
            rebuild=options.rebuild,
            conda_tool=options.conda_tool,
            inside=inside,
            vault=vault,
        )


def smoke(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    out: Path | None,
    variants: tuple[str, ...],
    env_dir: Path | None,
    settings: Settings,
) -> tuple[VariantSmoke, ...]:
    """`envgen smoke`: run the checks in built environments."""
    from envgen.build import orchestrate as building  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    # A concurrent build must not swap an env under the checks.
    with (
        project_lock(target, inside=trusted_root(spec, out)),
        project_lock(env_dir) if env_dir is not None else contextlib.nullcontext(),
    ):
        return building.smoke_variants(
            spec, matrix, target, variants=variants, env_dir=env_dir, settings=settings
        )


def clean(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    out: Path | None,
    env_dir: Path | None,
    dry_run: bool,
    settings: Settings,
) -> list[Orphan]:
    """`envgen clean`: environments no variant of the spec owns, removed (or only listed)."""
    from envgen.build import clean as cleaning  # noqa: PLC0415 - ~125 ms (the build stage); keeps `envgen list` fast
    from envgen.infra.buildkey import load_key  # noqa: PLC0415 - hmac; only where markers are read

    spec, matrix = load(spec_path, matrix_dir, settings)
    owned = [v.id for v in expand(spec, matrix).variants]
    target = out or default_out(spec)
    root = trusted_root(spec, out)
    with (
        project_lock(target, inside=root),
        project_lock(env_dir) if env_dir is not None else contextlib.nullcontext(),
    ):
        return cleaning.find_orphans(
            target,
            owned,
            env_dir=env_dir,
            inside=env_dir if env_dir is not None else root,
            remove=not dry_run,
            key=load_key(settings.key_file),
        )


def format_build_line(b: VariantBuild) -> str:
    """One summary line per variant build."""
    disk = ""
    if b.disk is not None:
        disk = f", {b.disk.describe()}"
    smoke_text = ""
    if b.smoke is not None:
        smoke_text = (
            f", smoke {len(b.smoke.passed)} passed / {len(b.smoke.failed)} failed"
            f" / {len(b.smoke.skipped)} skipped"
        )
    err = f": {b.error.splitlines()[0]}" if b.error else ""
    interpreter = f", {b.interpreter}" if b.interpreter else ""
    if b.status == "not-ready":
        return f"{b.variant}: not ready ({b.manager}){err}"
    return (
        f"{b.variant}: {b.status} ({b.manager}) in {b.seconds:.1f} s"
        f"{interpreter}{disk}{smoke_text} -> {b.env}{err}"
    )


def build_summary(report: BuildReport) -> str:
    """One line after the per-variant lines: what was built, what was not, and why."""
    counts: dict[str, list[str]] = {}
    for b in report.builds:
        key: str = b.status
        if b.status in ("built", "up-to-date") and b.smoke is not None and not b.smoke.ok:
            key = "smoke failed"
        counts.setdefault(key, []).append(b.variant)
    order = ("built", "up-to-date", "smoke failed", "not-ready", "failed")
    parts = [
        f"{len(counts[k])} {k.replace('-', ' ')}"
        + (f" ({', '.join(counts[k])})" if k in ("smoke failed", "not-ready", "failed") else "")
        for k in order
        if k in counts
    ]
    return f"build: {len(report.builds)} variant(s): " + ", ".join(parts)


# --- run, shell, --variant auto -----------------------------------------------------------------
def resolve_auto(
    spec_path: Path, matrix_dir: Path | None, variants: tuple[str, ...], settings: Settings
) -> tuple[tuple[str, ...], str | None]:
    """`--variant auto` -> (the id doctor's verdicts favour, why); other patterns pass through."""
    if "auto" not in variants:  # build.running.AUTO: its module (doctor, ~20 ms) only for auto
        return variants, None
    from envgen.build.running import AUTO, choose_auto  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    if variants != (AUTO,):
        msg = "--variant auto picks one variant; give it alone, not with other patterns"
        raise SpecError(msg)
    spec, matrix = load(spec_path, matrix_dir, settings)
    choice = choose_auto(expand(spec, matrix).variants, matrix)
    return (choice.variant,), choice.reason


def prepare_env(
    spec_path: Path,
    matrix_dir: Path | None,
    variant: str,
    *,
    out: Path | None,
    env_dir: Path | None,
    settings: Settings,
) -> tuple[Path, bool, str | None]:
    """(env, is conda, auto reason): the variant's environment, built from its lock if needed."""
    from envgen.build.running import ensure_built  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    (chosen,), why = resolve_auto(spec_path, matrix_dir, (variant,), settings)
    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    inside = trusted_root(spec, out)
    with (
        guarded(target, BuildError, "envgen run", inside=inside),
        guarded_env_dir(env_dir, BuildError, "envgen run"),
    ):
        env, conda = ensure_built(
            spec, matrix, target, chosen, env_dir=env_dir, settings=settings, inside=inside
        )
    return env, conda, why
