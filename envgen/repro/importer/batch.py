"""Windows batch installers (.bat, .cmd): read on their default route by envgen.repro.shell.

`call`, `set NAME=value`, `%NAME%` and `if`/`goto` are interpreted there (kind "bat"); the
commands the default route runs are read as shell commands (pip, conda). Nothing is executed.
"""

from __future__ import annotations

from pathlib import Path

from envgen.repro.importer.evidence import Evidence
from envgen.repro.importer.install_script import parse_shell


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A Windows batch installer, on its default route."""
    parse_shell(text, found, base, env={}, script="bat")
