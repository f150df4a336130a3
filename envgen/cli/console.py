"""How envgen prints on stderr: `-q/--quiet`, `--color` / NO_COLOR, and the three printers.

stdout carries results (a table, JSON, a file's text); stderr carries what a person reads while a
command runs. `info` lines (what was written, progress, summaries) and `warning` lines are
dropped with `--quiet`; an `error` line is always printed. Colour goes only to the `error:` and
`warning:` prefixes, as uv prints them: on a terminal unless NO_COLOR is set (no-color.org),
`--color always` keeps it in a pipe, `--color never` drops it everywhere.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Literal

import click

from envgen.infra.proc import redact

ColorChoice = Literal["auto", "always", "never"]


@dataclass(slots=True)
class _Mode:
    quiet: bool = False
    color: ColorChoice = "auto"
    no_color_env: bool = False


_MODE = _Mode()


def configure(*, quiet: bool, color: ColorChoice, no_color_env: bool) -> None:
    """Set once per command, by the `envgen` group (the CLI edge)."""
    _MODE.quiet, _MODE.color, _MODE.no_color_env = quiet, color, no_color_env


def quiet() -> bool:
    return _MODE.quiet


def use_color() -> bool:
    if _MODE.color != "auto":
        return _MODE.color == "always"
    return not _MODE.no_color_env and sys.stderr.isatty()


def _prefix(word: str, colour: str) -> str:
    return click.style(word, fg=colour, bold=True) if use_color() else word


def info(line: str) -> None:
    """A line for the person running the command (dropped with --quiet)."""
    if not _MODE.quiet:
        click.echo(line, err=True)


def warning(line: str) -> None:
    """`warning: ...` (dropped with --quiet); a URL in it never shows its credentials."""
    if not _MODE.quiet:
        click.echo(f"{_prefix('warning:', 'yellow')} {redact(line)}", err=True, color=use_color())


def error(text: str) -> None:
    """`error: ...`, always printed; the text is redacted by the caller's rules (see cli.main)."""
    click.echo(f"{_prefix('error:', 'red')} {text}", err=True, color=use_color())
