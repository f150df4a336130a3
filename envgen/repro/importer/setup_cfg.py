"""setup.cfg's [options] install_requires and python_requires (configparser)."""

from __future__ import annotations

import configparser
from pathlib import Path

from envgen.repro.importer.declared import Declared, line_of, parse_declared
from envgen.repro.importer.evidence import Evidence


def setup_cfg(text: str, source: str) -> Declared:
    """[options] install_requires and python_requires of a setup.cfg."""
    declared = Declared()
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=source)
    except configparser.Error as exc:
        declared.warnings.append(f"{source}: not a valid setup.cfg ({type(exc).__name__}); skipped")
        return declared
    if not parser.has_section("options"):
        return declared
    lines = text.splitlines()
    for raw in parser.get("options", "install_requires", fallback="").splitlines():
        req = raw.split("#", 1)[0].strip()
        if req:
            declared.requirements.append((line_of(lines, req), req))
    python = parser.get("options", "python_requires", fallback="").strip()
    if python:
        declared.python_requires = (line_of(lines, python), python)
    return declared


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """A setup.cfg's [options] install_requires and python_requires."""
    parse_declared(setup_cfg(text, found.source), found)
