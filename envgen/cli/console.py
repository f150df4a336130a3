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
from typing import Final, Literal

from envgen.infra.proc import redact

ColorChoice = Literal["auto", "always", "never"]


@dataclass(slots=True)
class _Mode:
    quiet: bool = False
    color: ColorChoice = "auto"
    no_color_env: bool = False


_MODE = _Mode()

# Controls (C0 but newline and tab, DEL, C1) as `\xNN`: messages quote names a cloned repository
# chose (a folder, a link's target), and on a terminal ESC / BEL / CR in them would run escape
# sequences (OSC 52 writes the clipboard, CSI erases and rewrites the line above).
_CONTROLS: Final = {
    c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in "\n\t"
}


def printable(text: str) -> str:
    r"""`text` with its control characters written as escapes, as every printer here shows it.

    >>> print(printable("a\x1b]52;c;eA==\x07\rb"))
    a\x1b]52;c;eA==\x07\x0db
    """
    return text.translate(_CONTROLS)


def configure(*, quiet: bool, color: ColorChoice, no_color_env: bool) -> None:
    """Set once per command, by the `envgen` group (the CLI edge)."""
    _MODE.quiet, _MODE.color, _MODE.no_color_env = quiet, color, no_color_env


def is_quiet() -> bool:
    """Whether -q/--quiet was given (no progress, no info or warning lines)."""
    return _MODE.quiet


def use_color() -> bool:
    if _MODE.color != "auto":
        return _MODE.color == "always"
    return not _MODE.no_color_env and sys.stderr.isatty()


# click.style(word, fg=..., bold=True), written out: this module loads no click (envgen.cli.quick
# prints through it); tests/unit/cli/test_console.py compares the two.
_STYLE: Final = {"yellow": "\x1b[33m\x1b[1m", "red": "\x1b[31m\x1b[1m"}
_RESET: Final = "\x1b[0m"


def _prefix(word: str, colour: str) -> str:
    return f"{_STYLE[colour]}{word}{_RESET}" if use_color() else word


def _stderr(line: str) -> None:
    """One line on stderr, flushed (as click.echo writes it: the text has no escape sequence
    left to strip, printable() wrote them out)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def out(line: str) -> None:
    """One line of results on stdout, flushed."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def info(line: str) -> None:
    """A line for the person running the command (dropped with --quiet)."""
    if not _MODE.quiet:
        _stderr(printable(line))


def warning(line: str) -> None:
    """`warning: ...` (dropped with --quiet); a URL in it never shows its credentials."""
    if not _MODE.quiet:
        _stderr(f"{_prefix('warning:', 'yellow')} {printable(redact(line))}")


def error(text: str) -> None:
    """`error: ...`, always printed; the text is redacted by the caller's rules (see cli.main)."""
    _stderr(f"{_prefix('error:', 'red')} {printable(text)}")


def warn(lines: list[str] | tuple[str, ...]) -> None:
    """Each line as `warning: ...` on stderr (redacted; dropped with --quiet)."""
    for line in lines:
        warning(line)
