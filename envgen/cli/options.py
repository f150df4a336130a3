"""The options and output helpers every command shares, defined once (click only)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from envgen.infra.proc import redact

F = TypeVar("F", bound=Callable[..., Any])


def spec_argument(f: F) -> F:
    return click.argument(
        "spec", type=click.Path(path_type=Path, dir_okay=False), default="project.yaml"
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
    """Each line as `warning: ...` on stderr."""
    for line in lines:
        # A warning may quote a spec value: a URL in it must not show its credentials.
        click.echo(f"warning: {redact(line)}", err=True)
