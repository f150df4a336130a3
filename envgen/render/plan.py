"""Plan, write and check the pins-only outputs of a spec: per-variant files and the Makefile.

This module decides file names and headers and calls the renderers; it writes only through
envgen.infra.files (atomic, skip-identical). It must not resolve, solve or build anything.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from envgen.errors import StaleOutputError
from envgen.infra.files import input_hash, normalize_text, read_output, write_if_changed
from envgen.model.matrix import Matrix
from envgen.model.spec import ProjectSpec
from envgen.model.variants import Expansion, Variant, expand
from envgen.render.environment import render_environment
from envgen.render.header import FORMAT_VERSION, Header, regenerate_command
from envgen.render.indexes import IndexUrls
from envgen.render.makefile import render_makefile
from envgen.render.requirements import render_requirements

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlannedFile:
    """A file envgen would write: its path relative to the output directory, and its text."""

    relpath: PurePosixPath
    text: str


def default_out(spec: ProjectSpec) -> Path:
    """`environments/` beside the spec."""
    return spec.directory / "environments"


def spec_command(
    spec: ProjectSpec, *, pins_only: bool, custom: str | None, extra: str | None = None
) -> str:
    """The regenerate command written in headers (relative spec name: same bytes on any host).

    `custom` is the user's ENVGEN_CUSTOM_COMMAND (Settings.custom_command), which replaces it.
    """
    base = f"envgen lock {spec.path.name}"
    base += " --pins-only" if pins_only else ""
    base += f" {extra}" if extra else ""
    return regenerate_command(base, custom)


def variant_inputs(variant: Variant, urls: IndexUrls, *, kind: str) -> dict[str, object]:
    """Everything that determines one generated file of a variant (hashed into its header)."""
    return {
        "format": FORMAT_VERSION,
        "kind": kind,
        "variant": variant.summary(),
        "pip_extra": list(variant.pip_extra),
        "conda_channels": list(variant.conda_channels),
        "conda_extra": list(variant.conda_extra),
        "pytorch_root": urls.pytorch_root,
        "pypi": urls.pypi,
        # Only when present: a spec without extensions keeps its hash.
        **(
            {"extensions": [p.requirement for p in variant.extensions]}
            if variant.extensions
            else {}
        ),
    }


def describe(variant: Variant, *, resolved: bool = False) -> str:
    """The header's variant line; `resolved` (full locks) names the Python patch release the
    lock was resolved for where it is more than the minor (envgen.model.pythons)."""
    python = variant.resolution_python if resolved else variant.python
    # PyPI's plain wheel of the published default build (envgen.model.pypi_routes)
    route = f" from PyPI, the build of {variant.pypi_route}" if variant.pypi_route else ""
    return (
        f"variant: {variant.id} (torch {variant.release.torch}{route}, {variant.accelerator}, "
        f"python {python}, {variant.platform})"
    )


def plan_pins_only(
    spec: ProjectSpec,
    matrix: Matrix,
    *,
    out: Path,
    urls: IndexUrls,
    custom_command: str | None,
    pins_only: bool = True,
    full_ids: frozenset[str] = frozenset(),
) -> tuple[Expansion, list[PlannedFile]]:
    """Expand the spec and render every pins-only file (nothing is written).

    `pins_only=False` renders the same files as the inputs of a full lock: the pins go to
    `requirements.in` (`requirements.txt` is then the lock), and the headers name `envgen lock`
    (without --pins-only) as the command that regenerates them. `full_ids` are variants that have
    full locks on disk: even in pins-only mode they get the full lock's inputs, so that
    `--pins-only` never turns a full lock back into pins (the Makefile then keeps the full form).
    """
    expansion = expand(spec, matrix)
    files: list[PlannedFile] = []
    for v in expansion.variants:
        full = not pins_only or v.id in full_ids
        command = spec_command(spec, pins_only=not full, custom=custom_command)
        pins_name = "requirements.in" if full else "requirements.txt"
        if v.pip is not None:
            header = Header(
                command=command,
                # The hash kind stays "requirements.txt" in both modes: same inputs, same hash.
                input_hash=input_hash(variant_inputs(v, urls, kind="requirements.txt")),
                description=describe(v),
            )
            files.append(
                PlannedFile(
                    relpath=PurePosixPath(v.id, pins_name),
                    text=render_requirements(v, header=header, urls=urls),
                )
            )
        if v.conda is not None:
            header = Header(
                command=command,
                input_hash=input_hash(variant_inputs(v, urls, kind="environment.yml")),
                description=describe(v),
            )
            files.append(
                PlannedFile(
                    relpath=PurePosixPath(v.id, "environment.yml"),
                    text=render_environment(v, header=header),
                )
            )
    makefile_pins_only = pins_only and not full_ids
    files.append(
        plan_makefile(
            spec,
            expansion,
            out=out,
            pins_only=makefile_pins_only,
            custom_command=custom_command,
        )
    )
    return expansion, files


def plan_makefile(
    spec: ProjectSpec,
    expansion: Expansion,
    *,
    out: Path,
    custom_command: str | None,
    pins_only: bool = True,
) -> PlannedFile:
    ids: list[str] = [v.id for v in expansion.variants]
    aliases = makefile_aliases(expansion.variants)
    rel = Path(os.path.relpath(spec.path.resolve(), out.resolve())).as_posix()
    header = Header(
        command=spec_command(spec, pins_only=pins_only, custom=custom_command),
        input_hash=input_hash(
            {
                "format": FORMAT_VERSION,
                "kind": "Makefile",
                "spec": rel,
                "variants": ids,
                "aliases": [list(a) for a in aliases],
            }
        ),
        description=f"project: {spec.name}",
    )
    return PlannedFile(
        relpath=PurePosixPath("Makefile"),
        text=render_makefile(
            header=header,
            spec_relpath=rel,
            variant_ids=ids,
            aliases=aliases,
            where=str(out / "Makefile"),
        ),
    )


def makefile_aliases(variants: tuple[Variant, ...]) -> list[tuple[str, str]]:
    """(accelerator, `<acc>-*`) for each accelerator with several variants and no variant of
    that very name: `make env-cu118` then builds all of cu118's variants."""
    ids = {v.id for v in variants}
    counts: dict[str, int] = {}
    for v in variants:
        counts[v.accelerator] = counts.get(v.accelerator, 0) + 1
    return [(acc, f"{acc}-*") for acc, n in counts.items() if n > 1 and acc not in ids]


def write_planned(
    out: Path, files: list[PlannedFile], *, inside: Path | None = None
) -> list[PurePosixPath]:
    """Write each planned file atomically unless identical; return the ones written.

    `inside`: the trusted folder `out` lies in (default `out`); see `_io.atomic_write_bytes`.
    """
    root = inside if inside is not None else out
    return [
        f.relpath
        for f in files
        if write_if_changed(out.joinpath(*f.relpath.parts), f.text, inside=root)
    ]


def stale_files(
    out: Path, files: list[PlannedFile], *, inside: Path | None = None
) -> list[tuple[PurePosixPath, str]]:
    """Planned files whose committed copy differs: (path, unified diff).

    Committed files are read as they are written (`_io.read_output`: no link followed, bounded).
    """
    stale: list[tuple[PurePosixPath, str]] = []
    for f in files:
        path = out.joinpath(*f.relpath.parts)
        want = normalize_text(f.text)
        try:
            have = (read_output(path, inside=inside or out) or b"").decode("utf-8")
        except UnicodeDecodeError:
            have = ""
        if have != want:
            import difflib  # noqa: PLC0415 - ~1 ms; only to show a stale file's diff

            diff = "".join(
                # A committed line can be megabytes long: each diff line is an excerpt.
                _cut(line)
                for line in difflib.unified_diff(
                    have.splitlines(keepends=True),
                    want.splitlines(keepends=True),
                    fromfile=f"{f.relpath} (on disk)" if have else f"{f.relpath} (missing)",
                    tofile=f"{f.relpath} (expected)",
                )
            )
            stale.append((f.relpath, diff))
    return stale


def check_planned(out: Path, files: list[PlannedFile], *, inside: Path | None = None) -> None:
    """Raise StaleOutputError with diffs when any committed file differs from the plan."""
    stale = stale_files(out, files, inside=inside)
    if stale:
        names = ", ".join(str(p) for p, _ in stale)
        diffs = "\n".join(d for _, d in stale)
        msg = f"{len(stale)} generated file(s) in {out} are stale: {names}\n{diffs}"
        raise StaleOutputError(
            msg.rstrip(), hint="run `envgen lock` (or `make lock`) and commit the result"
        )


def _cut(line: str, limit: int = 300) -> str:
    """A diff line, cut to `limit` characters (its line end kept).

    >>> _cut("+" + "a" * 400 + "\\n", limit=5)
    '+aaaa... (396 more characters)\\n'
    >>> _cut("-short\\n")
    '-short\\n'
    """
    body = line.rstrip("\n")
    if len(body) <= limit:
        return line
    return f"{body[:limit]}... ({len(body) - limit} more characters)" + line[len(body) :]
