"""`envgen dockerfile`, `envgen ci` and `envgen export`: files rendered from the spec.

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from envgen.app._lock import lock
from envgen.app._project import load
from envgen.lock.options import LockOptions
from envgen.model.variants import (
    Variant,
    expand,
    select,
)
from envgen.render.plan import default_out

if TYPE_CHECKING:
    # The later stages are imported lazily below (rich, the lockers); by name here.
    from envgen.render.ci import CiOptions
    from envgen.render.dockerfile import DockerfileOptions
    from envgen.render.export import ExportOptions


def dockerfiles(options: DockerfileOptions) -> tuple[list[PurePosixPath], list[str]]:
    """`envgen dockerfile`: check each chosen variant's committed lock as a build would, then write.

    A Dockerfile installs the committed requirements.txt, so a forged one would reach `docker
    build`: a pins-only file must be what envgen writes (the pins-only check), a full lock must
    pass the build's offline checks (the one parser, its content and input hashes, the spec's
    indexes only). Re-resolving it (`envgen check`) is the generated CI's first step.
    """
    from envgen.build import orchestrate as building  # noqa: PLC0415 - ~125 ms; only for dockerfile
    from envgen.lock.piplock import PipLock  # noqa: PLC0415 - only for dockerfile
    from envgen.render import dockerfile as containers  # noqa: PLC0415 - rich; only for dockerfile

    spec, matrix = load(options.spec, options.matrix_dir, options.settings)
    out = default_out(spec)
    chosen = select(expand(spec, matrix).variants, options.variants)
    full: list[Variant] = []
    for v in chosen:
        path = out / v.id / "requirements.txt"
        if v.pip is not None and path.is_file() and PipLock.read(path).is_full:
            full.append(v)
    pins_only = tuple(v.id for v in chosen if v not in full)
    if pins_only:
        lock(
            LockOptions(
                spec=options.spec,
                variants=pins_only,
                matrix_dir=options.matrix_dir,
                pins_only=True,
                check=True,
                settings=options.settings,
            )
        )
    for v in full:
        lock_dir = out / v.id
        building.check_current(
            spec, v, lock_dir, ("requirements.txt",), settings=options.settings, resolve=False
        )
        building.check_indexes(spec, v, lock_dir, settings=options.settings)
    return containers.write_dockerfiles(options)


def write_ci(options: CiOptions) -> tuple[Path, bool]:
    """`envgen ci github|gitlab`: the workflow written unless identical -> (path, written)."""
    from envgen.render import ci  # noqa: PLC0415 - only for ci

    return ci.write_ci(options)


def export(options: ExportOptions) -> tuple[str, bool]:
    """`envgen export uv|pixi` -> (the text, whether `options.output` was written).

    With no output file (None, or `-`: stdout) nothing is written and the CLI prints the text.
    """
    from envgen.infra.files import write_if_changed  # noqa: PLC0415 - with the writer
    from envgen.render.export import render_export  # noqa: PLC0415 - only for export

    text = render_export(options)
    if options.output is None or str(options.output) == "-":
        return text, False
    return text, write_if_changed(options.output, text)
