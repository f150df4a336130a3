"""envgen: reproducible PyTorch environments.

This module re-exports the public API. It must not import the CLI or do work at import time.
"""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]


def __dir__() -> list[str]:
    return __all__
