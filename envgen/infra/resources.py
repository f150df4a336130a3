"""Paths of the data files envgen ships and of its cache. Code reaches matrices/ and templates/
only through here.

In a source checkout they are the top-level folders; in an installed wheel they are copied into
envgen/_data/ (see pyproject's force-include). This module must not read the files.
"""

from __future__ import annotations

import os
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


def cache_root() -> Path:
    """ENVGEN_CACHE_DIR, else ~/.cache/envgen: the parsed-matrix cache, uv's cache (`uv/`) and
    the bytecode store (`pyc/`), shared by `lock` and `build` so builds reuse what locks fetched.
    """
    value = os.environ.get("ENVGEN_CACHE_DIR")
    return Path(value) if value else Path.home() / ".cache" / "envgen"
