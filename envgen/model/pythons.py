"""Which CPython patch release a variant's python resolves for.

A spec names `python: "3.6"` (or a patch release, `"3.6.12"`); resolvers need one full version,
because packages state `Requires-Python: >=3.6.1` (prompt-toolkit 3.0.7) and uv reads a bare
"3.6" as 3.6.0. The full version is, in order: the patch release the spec names, else the newest
patch release of that minor once the minor is closed (no further release will come, so the
answer never changes and locks stay deterministic), else the minor as written (a live minor:
resolvers take its lowest patch, as before).

This module must not find interpreters or start processes (envgen.lock.pythons does that).
"""

from __future__ import annotations

from typing import Final

# The last patch release of each closed CPython minor. Sources: python.org's release pages
# (https://www.python.org/downloads/release/python-3615/, .../python-3717/, .../python-3820/,
# .../python-3925/) and the release schedules PEP 494 (3.6), PEP 537 (3.7), PEP 569 (3.8),
# PEP 596 (3.9), which mark each of these the final release; uv 0.13.9's own download table
# (`uv python list 3.9 --all-versions --only-downloads`) tops out at the same 3.8.20 and 3.9.25.
FINAL_PATCH: Final[dict[str, str]] = {
    "3.6": "3.6.15",
    "3.7": "3.7.17",
    "3.8": "3.8.20",
    "3.9": "3.9.25",
}


def minor_of(version: str) -> str:
    """major.minor of a Python version.

    >>> minor_of("3.6.12"), minor_of("3.10")
    ('3.6', '3.10')
    """
    return ".".join(version.split(".")[:2])


def resolution_python(minor: str, patch: str | None = None) -> str:
    """The full version to resolve for: the spec's patch, a closed minor's last patch, or `minor`.

    >>> resolution_python("3.6"), resolution_python("3.6", "3.6.12"), resolution_python("3.11")
    ('3.6.15', '3.6.12', '3.11')
    """
    if patch is not None:
        return patch
    return FINAL_PATCH.get(minor, minor)


__all__ = ["FINAL_PATCH", "minor_of", "resolution_python"]
