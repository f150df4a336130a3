"""`envgen import` of a PEP 751 lock (pylock.toml, pylock.<name>.toml): its pins, as requirements.

Read with packaging's own PEP 751 parser (packaging.pylock), which checks the file; each package
with a version becomes `name==version` (with its marker), `requires-python` becomes the Python.
`read` treats the result like a package's declared requirements (envgen.repro.importer.declared).
Must not fetch anything: the URLs and hashes of the files are not needed to say which torch, CUDA
build and Python the lock asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from packaging.pylock import Pylock, PylockUnsupportedVersionError, PylockValidationError

from envgen.errors import ImportSpecError
from envgen.repro.importer.declared import Declared, TomlUnreadable, load_toml, parse_declared
from envgen.repro.importer.evidence import Evidence

_NAME: Final = 'name = "{}"'


def _line(lines: list[str], name: str) -> int:
    needle = _NAME.format(name)
    return next((i + 1 for i, line in enumerate(lines) if line.strip() == needle), 1)


def declared(text: str, source: str) -> Declared:
    """The pins and Python of a pylock.toml.

    Raises:
        ImportSpecError: the file is not TOML or not a valid PEP 751 lock (packaging says why).
    """
    out = Declared()
    try:
        lock = Pylock.from_dict(load_toml(text))
    except TomlUnreadable as exc:
        msg = f"{source}: " + (f"not a valid PEP 751 lock ({exc.why})" if exc.nested else exc.why)
        raise ImportSpecError(msg, hint="a pylock.toml as pip or uv write it") from None
    except (PylockValidationError, PylockUnsupportedVersionError) as exc:
        msg = f"{source}: not a valid PEP 751 lock ({exc})"
        raise ImportSpecError(msg, hint="a pylock.toml as pip or uv write it") from None
    lines = text.splitlines()
    for package in lock.packages:
        if package.version is None:
            out.warnings.append(
                f"{source}:{_line(lines, str(package.name))}: {package.name} has no version "
                "(a directory or VCS source); left out"
            )
            continue
        marker = f" ; {package.marker}" if package.marker is not None else ""
        out.requirements.append(
            (_line(lines, str(package.name)), f"{package.name}=={package.version}{marker}")
        )
    if lock.requires_python is not None:
        number = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("requires-python")), 1)
        out.python_requires = (number, str(lock.requires_python))
    return out


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """A PEP 751 lock's pins and requires-python."""
    parse_declared(declared(text, found.source), found)
