"""envgen: reproducible PyTorch environments.

This module re-exports the public API. It must not import the CLI or do work at import time.
"""

from __future__ import annotations

# typing is not loaded for one name (~3 ms of every command; envgen.cli.answers replays without it).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

__version__ = "0.1.0"
# The name on PyPI (`envgen` there is an unrelated project); the command and the import stay envgen.
DISTRIBUTION: Final = "envgen-torch"


def install_requirement() -> str:
    """The pip requirement that installs this envgen: what generated CI files and docs name.

    >>> install_requirement()
    'envgen-torch==0.1.0'
    """
    return f"{DISTRIBUTION}=={__version__}"


__all__ = ["DISTRIBUTION", "__version__", "install_requirement"]


def __dir__() -> list[str]:
    return __all__
