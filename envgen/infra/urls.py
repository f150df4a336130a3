"""Index and channel URLs: the checks every URL a user or a spec names must pass.

Used by the spec parser (pytorch_index, pypi_index) and by the user's settings (ENVGEN_*_INDEX,
ENVGEN_CONDA_CHANNEL_ALIAS). Messages never show a credential (they pass through redact).
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

from envgen.infra.proc import redact


def host_of(url: str) -> str:
    """The host name of a URL, or '' when there is none or the URL cannot be parsed.

    >>> host_of("http://mirror.lan:8080/simple"), host_of("http://[::1")
    ('mirror.lan', '')
    """
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


_SHELL_META: Final = re.compile(r"[\s;|&`$<>(){}\\\"'*?!#]")


def check_index_url(url: str, *, trusted: bool = False) -> str | None:
    """Return a problem with an index URL, or None when it is acceptable.

    >>> check_index_url("https://mirror.example/whl") is None
    True
    >>> print(check_index_url("http://mirror.example/whl"))  # doctest: +NORMALIZE_WHITESPACE
    plain-http index 'http://mirror.example/whl' can be tampered with in transit; use https,
    a file:// path, or list its host under trusted_hosts
    """
    problem = _url_problem(url, trusted=trusted)
    return None if problem is None else redact(problem)


def _url_problem(url: str, *, trusted: bool) -> str | None:
    if _SHELL_META.search(url):
        return f"{url!r} contains spaces or shell metacharacters; give a plain URL"
    try:
        parts = urlsplit(url)
        _ = parts.port  # raises on a port that is not a number in range
    except ValueError as exc:
        return f"{url!r} is not a valid URL ({exc})"
    if parts.scheme not in {"https", "http", "file"}:
        return f"{url!r} is not an http(s):// or file:// URL"
    if parts.scheme == "file":
        return None if parts.path else f"{url!r} has no path"
    if not parts.hostname:
        return f"{url!r} has no host"
    if (
        parts.scheme == "http"
        and not trusted
        and parts.hostname not in {"127.0.0.1", "localhost", "::1"}
    ):
        return (
            f"plain-http index {url!r} can be tampered with in transit; "
            "use https, a file:// path, or list its host under trusted_hosts"
        )
    return None
