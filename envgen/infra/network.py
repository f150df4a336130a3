"""The HTTP client, and reachability of the indexes a lock needs.

`http_get` is envgen's one HTTP GET (the lock's index probes, `matrix verify`): credentials in
the URL become a basic-auth header, the scheme is checked, the body is bounded, retries are
bounded with backoff (5xx and network errors only), and every failure is a NetworkError whose
message names the URL with its credentials masked. `urllib.request` (and with it http.client and
ssl) is imported only when a request is made: `envgen --help` and `envgen list` import this
module but never fetch.

Before any resolver runs, each index host is looked up once (DNS only, bounded); a host that does
not resolve stops the run at once instead of after a resolver's retries per variant. A resolver
failure that reads as a network failure gets the same hint: the host, the mirror settings, and
`--pins-only`. This module must not resolve packages.
"""

from __future__ import annotations

import base64
import concurrent.futures as cf
import logging
import socket
import time
import urllib.error
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Protocol
from urllib.parse import urlsplit

from envgen.errors import NetworkError
from envgen.infra.proc import redact, split_credentials

log = logging.getLogger(__name__)

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


# --- the HTTP client ---------------------------------------------------------------------------
MAX_BODY_BYTES: Final = 64 * 1024 * 1024
FETCHED_SCHEMES: Final = ("http", "https", "file")


@dataclass(frozen=True, slots=True)
class Response:
    """An answer to `http_get`: the body and the headers (names lower-cased)."""

    body: bytes
    headers: Mapping[str, str]

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


# How many HTTP timeouts one whole answer (headers and body) may take.
WHOLE_ANSWER_FACTOR: Final = 10
_CHUNK: Final = 64 * 1024


class _Answer(Protocol):
    def read(self, amt: int, /) -> bytes: ...


def _read_body(resp: _Answer, url: str, max_bytes: int, deadline: float) -> bytes:
    """The body of `resp` (an http.client.HTTPResponse or a file: answer), at most `max_bytes`,
    complete before `deadline` (time.monotonic()); else NetworkError."""
    chunks: list[bytes] = []
    size = 0
    read = getattr(resp, "read1", resp.read)  # read1: what has arrived, not a full buffer
    while chunk := read(_CHUNK):
        size += len(chunk)
        if size > max_bytes:
            msg = redact(f"GET {url}: the answer is larger than {max_bytes} bytes")
            raise NetworkError(msg)
        if time.monotonic() > deadline:
            msg = redact(
                f"GET {url}: the answer did not arrive within {WHOLE_ANSWER_FACTOR} times the "
                "HTTP timeout (the server sends too slowly or stalls)"
            )
            raise NetworkError(msg, hint="check the index, or raise ENVGEN_HTTP_TIMEOUT")
        chunks.append(chunk)
    return b"".join(chunks)


def http_get(
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    timeout: float,
    retries: int = 1,
    max_bytes: int = MAX_BODY_BYTES,
    hint: str | None = None,
) -> Response:
    """GET `url` (http, https or file): its body and headers, or NetworkError (exit 15).

    Credentials in the URL (`https://user:token@host/...`) are sent as a basic-auth header, never
    to a host a redirect leads to, and masked in every message. `timeout`: seconds per request.
    `retries`: attempts in all; a 5xx answer or a network error is tried again after 1, 2, 4 ...
    seconds, any other HTTP error is final at once. A body over `max_bytes` is an error. `hint`
    goes with the error raised when every attempt failed.

    >>> http_get("ftp://bob:SECRET@mirror.example/simple", timeout=1)
    Traceback (most recent call last):
    ...
    envgen.errors.NetworkError: unsupported URL scheme in ftp://***@mirror.example/simple
    """
    import http.client  # noqa: PLC0415 - with ssl: only when a request is made, never for --help
    import urllib.request  # noqa: PLC0415 - as above

    bare, user, token = split_credentials(url)
    if urlsplit(bare).scheme not in FETCHED_SCHEMES:
        msg = redact(f"unsupported URL scheme in {url}")
        raise NetworkError(msg)
    auth = None
    if user is not None or token is not None:
        pair = f"{user or ''}:{token or ''}".encode()
        auth = "Basic " + base64.b64encode(pair).decode("ascii")
    last: Exception | None = None
    # `timeout` bounds each wait for a byte; a server that trickles one byte per wait would keep
    # a read going forever (an index named by a cloned project.yaml could): the whole answer
    # must come within WHOLE_ANSWER_FACTOR times it, or the request ends, without a retry.
    for attempt in range(max(1, retries)):
        deadline = time.monotonic() + WHOLE_ANSWER_FACTOR * timeout
        req = urllib.request.Request(bare, headers=dict(headers or {}))  # noqa: S310 - checked
        if auth is not None:
            req.add_unredirected_header("Authorization", auth)
        try:
            # A fresh opener: urlopen's global one keeps the proxy settings of its first call.
            opener = urllib.request.build_opener()
            with opener.open(req, timeout=timeout) as resp:
                body = _read_body(resp, url, max_bytes, deadline)
                return Response(body, {k.lower(): v for k, v in resp.headers.items()})
        except urllib.error.HTTPError as exc:
            exc.close()  # the error holds the open response
            if exc.code < 500:  # 5xx: the server's trouble, worth a retry
                msg = redact(f"GET {url} failed: HTTP {exc.code} {exc.reason}")
                raise NetworkError(msg) from None
            last = exc
        except (OSError, http.client.HTTPException) as exc:  # URLError, timeouts, resets
            last = exc
        if attempt + 1 < retries:
            reason = getattr(last, "reason", None) or last
            log.info(
                "GET %s failed (%s); retry %d of %d",
                redact(url),
                redact(str(reason)),
                attempt + 1,
                retries - 1,
                extra={"envgen_transient": True},  # this run's network: no build stamp keeps it
            )
            time.sleep(2**attempt)
    reason = getattr(last, "reason", None) or last
    times = f" {retries} times" if retries > 1 else ""
    msg = redact(f"GET {url} failed{times}: {reason}")
    raise NetworkError(msg, hint=hint)


# --- index reachability ------------------------------------------------------------------------
_ROLE_NAMES: Final = {
    "pytorch": "the PyTorch index",
    "pypi": "the PyPI index",
    "conda": "the conda channel",
    "extension": "an extension's wheel index",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Index:
    """One index a run needs: what it is (for messages) and its URL (maybe with credentials)."""

    role: str  # "pytorch" | "pypi" | "conda" | "extension"
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
        # a mirror of every extension wheel host, laid out as <url>/<host>/<path>
        "extension": f"ENVGEN_EXTENSION_INDEX=<url> (it serves <url>/{host}/...)",
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
    """The index a resolver's failure output says it could not reach, if it reads that way: the
    one whose host the output names first (uv names the failed URL before its causes), else the
    first index.

    >>> pypi = Index(role="pypi", url="https://pypi.org/simple")
    >>> pyg = Index(role="extension", url="https://data.pyg.org/whl/torch-2.0.0+cu117.html")
    >>> said = "error sending request for url (https://data.pyg.org/whl/x.html) / dns error"
    >>> network_failure_host(said, [pypi, pyg]).host
    'data.pyg.org'
    """
    lowered = text.lower()
    if not any(marker in lowered for marker in _NETWORK_MARKERS):
        return None
    found = list(indexes)
    named = [
        (lowered.find(i.host.lower()), n, i)
        for n, i in enumerate(found)
        if i.host and i.host.lower() in lowered
    ]
    if named:
        return min(named, key=lambda t: (t[0], t[1]))[2]
    return found[0] if found else None
