"""The options and output helpers every command shares, defined once (click only)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from envgen.cli import console, quick
from envgen.cli.context import settings

F = TypeVar("F", bound=Callable[..., Any])


DEFAULT_SPEC = quick.DEFAULT_SPEC


def find_spec(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """The spec a command reads: as given, or, when none was given, the nearest project.yaml.

    Like git and uv, a command run in a subdirectory finds the project above it: the search goes
    from the working directory upward and stops at the first repository root (a folder holding
    `.git`), so it never leaves the repository the user is in. When none is found the default
    name is returned unchanged and the stage says it does not exist.
    """
    source = ctx.get_parameter_source(param.name) if param.name else None
    return quick.nearest_spec(value, given=source not in (click.core.ParameterSource.DEFAULT, None))


def _names_spec(word: str) -> bool:
    """Whether a word can only be a spec, never a variant id (which has no `/` and no suffix)."""
    return word.endswith((".yaml", ".yml")) or "/" in word or word in (".", "..")


def split_spec(
    ctx: click.Context, words: tuple[str, ...], spec: Path, *, command: bool
) -> tuple[Path, str, tuple[str, ...]]:
    """`run` / `shell`: (spec, variant, command) from `[SPEC] VARIANT [COMMAND...]`.

    The first word is the spec when it can only be one (it ends in .yaml / .yml, holds a `/`, or
    is `.` / `..`), or when it is a bare folder name holding project.yaml and cannot be the
    variant (no --spec given, and no other spec found or enough words for SPEC VARIANT); the
    spec is then that file (or the folder's project.yaml), and the next word is the variant.
    Otherwise the first word is the variant and the spec is `--spec` (default: the nearest
    project.yaml). `run cpu python x.py` beside a folder `cpu/` holding a project.yaml, where a
    spec is found as well, could be either: a usage error says how to write each. A spec given
    both as a word and with --spec is a usage error too.
    """
    if not words:
        msg = "missing VARIANT"
        raise click.UsageError(msg, ctx=ctx)
    first = words[0]
    folder = Path(first)
    holds_spec = folder.is_dir() and (folder / DEFAULT_SPEC).is_file()
    least = 3 if command else 2  # the words of the spec form: SPEC VARIANT [COMMAND]
    explicit = ctx.get_parameter_source("spec") not in (click.core.ParameterSource.DEFAULT, None)
    if not _names_spec(first):
        # A bare word: the variant, unless it is a folder holding project.yaml; even then the
        # variant when a spec is found otherwise and the words are too few for SPEC VARIANT ...
        if not holds_spec or explicit:
            return spec, first, _no_extra(ctx, words[1:], command=command)
        other = spec.is_file()
        if other and len(words) < least:
            return spec, first, _no_extra(ctx, words[1:], command=command)
        if other and command:  # `run cpu python x.py` beside a folder cpu/ holding a spec
            msg = (
                f"{first!r} is a folder holding {DEFAULT_SPEC} and could also be a variant: "
                f"write ./{first} for the folder (envgen {ctx.info_name} ./{first} VARIANT ...), "
                f"or give the spec with --spec (envgen {ctx.info_name} --spec {DEFAULT_SPEC} "
                f"{first} ...)"
            )
            raise click.UsageError(msg, ctx=ctx)
    if explicit:
        msg = f"the spec is given twice: {first!r} and --spec {spec}; give one of them"
        raise click.UsageError(msg, ctx=ctx)
    if len(words) < 2:
        msg = f"missing VARIANT after the spec {first!r}"
        raise click.UsageError(msg, ctx=ctx)
    if command and len(words) < least:
        msg = f"missing COMMAND after the variant {words[1]!r}"
        raise click.UsageError(msg, ctx=ctx)
    path = folder / DEFAULT_SPEC if holds_spec else folder
    return path, words[1], _no_extra(ctx, words[2:], command=command)


def _no_extra(ctx: click.Context, rest: tuple[str, ...], *, command: bool) -> tuple[str, ...]:
    if rest and not command:
        msg = f"unexpected extra argument(s): {' '.join(rest)}"
        raise click.UsageError(msg, ctx=ctx)
    return rest


def spec_argument(f: F) -> F:
    return click.argument(
        "spec",
        type=click.Path(path_type=Path, dir_okay=False),
        default=DEFAULT_SPEC,
        callback=find_spec,
    )(f)


def spec_option(f: F) -> F:
    """`--spec FILE`, for commands whose first argument is something else (run, shell, pack)."""
    return click.option(
        "--spec",
        type=click.Path(path_type=Path, dir_okay=False),
        default=DEFAULT_SPEC,
        callback=find_spec,
        show_default=True,
        help=(
            "The project spec, when no SPEC word is given (default: the nearest project.yaml, "
            "upward to the repository root)."
        ),
    )(f)


def out_option(f: F) -> F:
    return click.option(
        "--out",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        help="Output directory (default: environments/ beside the spec).",
    )(f)


def variant_option(f: F) -> F:
    return click.option(
        "--variant",
        "--only",
        "variants",
        multiple=True,
        metavar="PATTERN",
        help=(
            "Only variants whose id matches (fnmatch, e.g. 'cu12*'); repeatable. For build and "
            "smoke, 'auto' is the best variant this machine can run."
        ),
    )(f)


def env_dir_option(f: F) -> F:
    return click.option(
        "--env-dir",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        help="Where environments go (default <out>/<variant>/.env).",
    )(f)


def jobs_option(what: str, default: str = "the machine's cores") -> Callable[[F], F]:
    """`--jobs/-j N`: how many variants a command works on at once (`what` names the work)."""

    def decorate(f: F) -> F:
        return click.option(
            "--jobs",
            "-j",
            type=click.IntRange(1, 64),
            default=None,
            help=f"Variants {what} at once (default: {default}, at most the variants).",
        )(f)

    return decorate


def conda_tool_option(f: F) -> F:
    return click.option(
        "--conda-tool",
        type=click.Choice(["rattler", "conda", "mamba", "micromamba"]),
        default="rattler",
        show_default=True,
        help="The conda solver and installer: py-rattler (built in) or an installed conda tool.",
    )(f)


def junit_option(f: F) -> F:
    return click.option(
        "--junit",
        type=click.Path(path_type=Path, dir_okay=False),
        default=None,
        metavar="FILE",
        help="Write the smoke results as JUnit XML.",
    )(f)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(f)


def _matrix_dir(ctx: click.Context, param: click.Parameter, value: Path | None) -> Path | None:  # noqa: ARG001 - click's callback signature
    """--matrix, else ENVGEN_MATRIX (read by Settings, with the other settings), else None."""
    return value if value is not None else settings().matrix_dir


def matrix_option(f: F) -> F:
    return click.option(
        "--matrix",
        "matrix_dir",
        type=click.Path(path_type=Path, file_okay=False, exists=True),
        default=None,
        callback=_matrix_dir,
        help="Matrix directory (default: ENVGEN_MATRIX, else the bundled matrices/).",
    )(f)


def warn(lines: list[str] | tuple[str, ...]) -> None:
    """Each line as `warning: ...` on stderr (redacted; dropped with --quiet)."""
    console.warn(lines)
