"""The options and output helpers every command shares, defined once (click only)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from envgen.cli import console
from envgen.errors import FileSystemError

F = TypeVar("F", bound=Callable[..., Any])


DEFAULT_SPEC = "project.yaml"


def find_spec(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """The spec a command reads: as given, or, when none was given, the nearest project.yaml.

    Like git and uv, a command run in a subdirectory finds the project above it: the search goes
    from the working directory upward and stops at the first repository root (a folder holding
    `.git`), so it never leaves the repository the user is in. When none is found the default
    name is returned unchanged and the stage says it does not exist.
    """
    source = ctx.get_parameter_source(param.name) if param.name else None
    if source not in (click.core.ParameterSource.DEFAULT, None):
        return value
    here = Path.cwd()
    for folder in (here, *here.parents):
        candidate = folder / DEFAULT_SPEC
        if candidate.is_symlink():
            # Not named by the user: a cloned repository's link could point at any file.
            shown = value if folder == here else Path(os.path.relpath(candidate, here))
            msg = (
                f"{shown} is a symbolic link (to {candidate.readlink()}); envgen reads a "
                "project.yaml it finds by itself only as a regular file"
            )
            raise FileSystemError(msg, hint="name the spec you mean: envgen COMMAND path/to/spec")
        if candidate.is_file():
            return value if folder == here else Path(os.path.relpath(candidate, here))
        if (folder / ".git").exists():
            break
    return value


def spec_argument(f: F) -> F:
    return click.argument(
        "spec",
        type=click.Path(path_type=Path, dir_okay=False),
        default=DEFAULT_SPEC,
        callback=find_spec,
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


def jobs_option(what: str) -> Callable[[F], F]:
    """`--jobs/-j N`: how many variants a command works on at once (`what` names the work)."""

    def decorate(f: F) -> F:
        return click.option(
            "--jobs",
            "-j",
            type=click.IntRange(1, 64),
            default=None,
            help=f"Variants {what} at once (default: the machine's cores, at most the variants).",
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


def matrix_option(f: F) -> F:
    return click.option(
        "--matrix",
        "matrix_dir",
        type=click.Path(path_type=Path, file_okay=False, exists=True),
        default=None,
        envvar="ENVGEN_MATRIX",
        help="Matrix directory (default: the bundled matrices/).",
    )(f)


def warn(lines: list[str] | tuple[str, ...]) -> None:
    """Each line as `warning: ...` on stderr (redacted; dropped with --quiet)."""
    for line in lines:
        console.warning(line)
