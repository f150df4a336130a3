"""Reachability of the indexes a lock needs: fail fast, and say what to do when one is down.

Before any resolver runs, each index host is looked up once (DNS only, bounded); a host that does
not resolve stops the run at once instead of after a resolver's retries per variant. A resolver
failure that reads as a network failure gets the same hint: the host, the mirror settings, and
`--pins-only`. This module must not fetch anything and must not resolve packages.
"""

from __future__ import annotations

import concurrent.futures as cf
import socket
import urllib.error
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from envgen.errors import NetworkError
from envgen.infra.proc import redact

MIRROR_HOWTO: Final = "docs/how-to/use-a-mirror.md"
_LOOKUP_TIMEOUT_S: Final = 10.0
# Words uv and pip use when a request never got an answer (not when a package is missing).
_NETWORK_MARKERS: Final = (
    "dns error",
    "failed to lookup address",
    "name or service not known",
    "temporary failure in name resolution",
    "nodename nor servname",
    "connection refused",
    "tcp connect error",
    "error sending request",
    "failed to establish a new connection",
    "network is unreachable",
    "connect timeout",
    "operation timed out",
    "max retries exceeded",
    "could not fetch url",
)


_ROLE_NAMES: Final = {
    "pytorch": "the PyTorch index",
    "pypi": "the PyPI index",
    "conda": "the conda channel",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Index:
    """One index a run needs: what it is (for messages) and its URL (maybe with credentials)."""

    role: str  # "pytorch" | "pypi" | "conda"
    url: str

    @property
    def host(self) -> str:
        return urlsplit(self.url).hostname or ""


def mirror_hint(host: str, roles: Iterable[str]) -> str:
    """What to do when `host` cannot be reached: its mirror setting, the how-to, --pins-only.

    >>> hint = mirror_hint("pypi.org", ["pypi"])
    >>> hint.split(": ")[0], "ENVGEN_PYPI_INDEX=<url>" in hint, hint.endswith("--pins-only`")
    ('pypi.org cannot be reached from here', True, True)
    """
    settings = {
        "pytorch": "ENVGEN_PYTORCH_INDEX=<url> or `pytorch_index: <url>` in project.yaml",
        "pypi": "ENVGEN_PYPI_INDEX=<url> or `pypi_index: <url>` in project.yaml",
        "conda": "ENVGEN_CONDA_CHANNEL_ALIAS=<url>",
    }
    chosen = [settings[r] for r in dict.fromkeys(roles) if r in settings] or [settings["pytorch"]]
    return (
        f"{host} cannot be reached from here: point envgen at a mirror with "
        f"{'; '.join(chosen)} (see {MIRROR_HOWTO}), or write the matrix pins without a "
        "resolver or network: `envgen lock --pins-only`"
    )


# OSErrors a connection raises (urllib wraps TLS and refused connections in URLError); any other
# OSError came from a file.
_CONNECTION_ERRORS: Final = (
    urllib.error.URLError,
    ConnectionError,
    TimeoutError,
    socket.gaierror,
    socket.herror,
)


def network_error(exc: OSError) -> NetworkError | None:
    """The NetworkError (exit 15) an OSError from a connection is; None for one from a file.

    >>> network_error(ConnectionRefusedError(111, "Connection refused")).exit_code
    15
    >>> network_error(PermissionError(13, "Permission denied", "out/x")) is None
    True
    """
    if not isinstance(exc, _CONNECTION_ERRORS):
        return None
    return NetworkError(redact(str(getattr(exc, "reason", None) or exc)))


def _lookup(host: str) -> str | None:
    """None when the host resolves, else the resolver's reason."""
    try:
        socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return exc.strerror or str(exc)
    except (OSError, UnicodeError) as exc:
        return str(exc)
    return None


def check_resolvable(indexes: Iterable[Index]) -> None:
    """Raise NetworkError (exit 15) at once when an index host does not resolve.

    file:// URLs and IP addresses pass.

    Lookups run in parallel, each bounded; a lookup that takes longer than the bound is left to
    the resolver (it has its own timeouts), so this never makes a slow network slower.
    """
    by_host: dict[str, list[Index]] = {}
    for index in indexes:
        if urlsplit(index.url).scheme in ("http", "https") and index.host:
            by_host.setdefault(index.host, []).append(index)
    if not by_host:
        return
    pool = cf.ThreadPoolExecutor(max_workers=min(8, len(by_host)))
    try:
        futures = {host: pool.submit(_lookup, host) for host in sorted(by_host)}
        for host, future in futures.items():
            try:
                reason = future.result(timeout=_LOOKUP_TIMEOUT_S)
            except cf.TimeoutError:
                continue
            if reason is None:
                continue
            found = by_host[host]
            what = ", ".join(f"{_ROLE_NAMES[i.role]} {redact(i.url)}" for i in found)
            msg = f"cannot resolve {host} ({what}): {reason}; nothing was locked"
            raise NetworkError(msg, hint=mirror_hint(host, [i.role for i in found]))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def network_failure_host(text: str, indexes: Iterable[Index]) -> Index | None:
    """The index a resolver's failure output says it could not reach, if it reads that way."""
    lowered = text.lower()
    if not any(marker in lowered for marker in _NETWORK_MARKERS):
        return None
    found = list(indexes)
    for index in found:
        if index.host and index.host.lower() in lowered:
            return index
    return found[0] if found else None
