"""The user's own settings (ENVGEN_* environment variables), read and checked in one place.

Settings are trusted (they are the user's), but still validated: a value envgen cannot read is a
SpecError (exit 3, as for a malformed ENVGEN_*_INDEX URL) naming the variable, the value and the
fix, before any work starts. This module must not import any envgen module but errors.
"""

from __future__ import annotations

import math
import os
from typing import Final

from envgen.errors import SpecError, excerpt

HTTP_TIMEOUT_VAR: Final = "ENVGEN_HTTP_TIMEOUT"
MAX_HTTP_TIMEOUT_S: Final = 24 * 3600.0


def http_timeout() -> float | None:
    """ENVGEN_HTTP_TIMEOUT in seconds, or None when unset (each tool's default applies).

    Raises:
        SpecError: the value is not a positive number of seconds (at most a day).
    """
    raw = os.environ.get(HTTP_TIMEOUT_VAR, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_HTTP_TIMEOUT_S):
        msg = (
            f"{HTTP_TIMEOUT_VAR}={excerpt(raw, 40)!r} is not a number of seconds "
            f"(a number above 0, at most {MAX_HTTP_TIMEOUT_S:g})"
        )
        msg += f"; set it to seconds, e.g. {HTTP_TIMEOUT_VAR}=60, or unset it"
        raise SpecError(msg, source=HTTP_TIMEOUT_VAR)
    return value


def uv_http_timeout() -> str | None:
    """The value to give uv as UV_HTTP_TIMEOUT (whole seconds, at least 1), or None."""
    value = http_timeout()
    return None if value is None else str(max(1, math.ceil(value)))


__all__ = ["HTTP_TIMEOUT_VAR", "http_timeout", "uv_http_timeout"]
