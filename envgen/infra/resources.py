"""Paths of the data files envgen ships. Code reaches matrices/ and templates/ only through here.

The cache root is a user setting (ENVGEN_CACHE_DIR): envgen.infra.settings.Settings.cache_root.

In a source checkout they are the top-level folders; in an installed wheel they are copied into
envgen/_data/ (see pyproject's force-include). This module must not read the files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

_PACKAGE: Final = Path(__file__).resolve().parent.parent  # envgen/, above infra/


def _data_dir(name: str) -> Path:
    bundled = _PACKAGE / "_data" / name
    if bundled.is_dir():
        return bundled
    return _PACKAGE.parent / name


MATRICES_DIR: Final[Path] = _data_dir("matrices")
TEMPLATES_DIR: Final[Path] = _data_dir("templates")
SMOKE_SCRIPT: Final[Path] = _PACKAGE / "smoke" / "script.py"
# Its twin for Python 2.7 and 3.5 environments (same checks and report).
SMOKE_SCRIPT_27: Final[Path] = _PACKAGE / "smoke" / "script27.py"
