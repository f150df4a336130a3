"""A threaded HTTP server on 127.0.0.1 that serves a directory like a package index.

- A directory answers with its `index.json` (PEP 691, `application/vnd.pypi.simple.v1+json`) when
  the client's Accept header (or `?format=`) prefers it and the file exists, else `index.html`.
  A directory asked for without its trailing slash is redirected (301), as PyPI does.
- Optional HTTP basic auth: every request without the right user and token gets 401.
- Faults per path pattern (fnmatch on the unquoted path): a status code, a delay, a truncated
  body (the full Content-Length is announced, then the connection is closed) or wrong bytes.
- Every request is logged (`requests`); the log keeps the user name, never the token.

It only ever binds a loopback address.
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import ipaddress
import mimetypes
import posixpath
import threading
import time
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Final, Self
from urllib.parse import parse_qs, unquote, urlsplit

JSON_TYPE: Final = "application/vnd.pypi.simple.v1+json"
HTML_TYPES: Final = ("application/vnd.pypi.simple.v1+html", "text/html")
_CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".whl": "application/octet-stream",
    ".metadata": "application/octet-stream",
    ".bz2": "application/x-bzip2",
    ".conda": "application/octet-stream",
    ".zst": "application/zstd",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestRecord:
    """One request as the server saw it."""

    method: str
    raw_path: str  # as sent, with query and %-escapes
    path: str  # unquoted, without query
    accept: str
    user: str | None  # basic-auth user name sent, if any (the password is never kept)
    status: int
    content_type: str | None
    fault: str | None  # the pattern of the fault applied, if any
    seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Fault:
    """What to do to requests whose unquoted path matches `pattern` (fnmatch)."""

    pattern: str
    status: int | None = None  # answer with this status and a short body
    delay: float = 0.0  # seconds to sleep before answering
    truncate: int | None = None  # send only this many bytes of the body, then close
    corrupt: bool = False  # flip bytes of the body (same length)
    times: int | None = None  # apply to this many matching requests only (None: always)


def negotiate(accept: str, *, json_available: bool) -> str:
    """The PEP 691 content type to answer with, by the Accept header's quality values.

    >>> negotiate("application/vnd.pypi.simple.v1+json, text/html;q=0.01", json_available=True)
    'application/vnd.pypi.simple.v1+json'
    >>> negotiate("text/html", json_available=True)
    'text/html'
    """
    best, best_q = HTML_TYPES[1], -1.0
    for part in accept.split(","):
        media, *params = (p.strip() for p in part.split(";"))
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        candidates: tuple[str, ...]
        if media == JSON_TYPE:
            candidates = (JSON_TYPE,) if json_available else ()
        elif media in HTML_TYPES:
            candidates = (media,)
        elif media in ("*/*", "application/*"):
            candidates = (HTML_TYPES[1],)
        else:
            candidates = ()
        for candidate in candidates:
            if q > best_q and q > 0:
                best, best_q = candidate, q
    return best


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False
    # socketserver's default backlog of 5 overflows under uv's parallel connections: Linux drops
    # the SYN and the client resends it a second later (measured by the benchmark); a real
    # server queues far more.
    request_queue_size = 128
    owner: IndexServer


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; with Nagle's algorithm each keep-alive
    # response then waits ~40 ms for the client's delayed ACK (measured in benchmarks/).
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: object) -> None:
        """Silence the default stderr log; `IndexServer.requests` has it all."""

    def do_GET(self) -> None:
        self.server.owner._handle(self, head=False)

    def do_HEAD(self) -> None:
        self.server.owner._handle(self, head=True)


class IndexServer:
    """Serve `directory` on http://127.0.0.1:<random port>/; a context manager.

    >>> with IndexServer(tmp) as server:  # doctest: +SKIP
    ...     server.add_fault("/pypi/simple/numpy/*", status=500, times=1)
    ...     urlopen(server.url + "/pypi/simple/numpy/")
    """

    def __init__(
        self,
        directory: Path,
        *,
        auth: tuple[str, str] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        if not ipaddress.ip_address(host).is_loopback:
            msg = f"IndexServer binds loopback addresses only, not {host!r}"
            raise ValueError(msg)
        self.directory = directory.resolve()
        self.auth = auth
        self._host = host
        self._port = port
        self._lock = threading.Lock()
        self._requests: list[RequestRecord] = []
        self._faults: list[Fault] = []
        self._fault_hits: dict[int, int] = {}
        self._httpd: _Server | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---

    def start(self) -> Self:
        if self._httpd is not None:
            return self
        httpd = _Server((self._host, self._port), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"IndexServer:{httpd.server_address[1]}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        self._httpd = self._thread = None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # --- addresses ---

    @property
    def port(self) -> int:
        if self._httpd is None:
            msg = "IndexServer is not running"
            raise RuntimeError(msg)
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """`http://127.0.0.1:<port>` (no trailing slash)."""
        return f"http://{self._host}:{self.port}"

    def url_with_auth(self, path: str = "") -> str:
        """`http://user:token@127.0.0.1:<port><path>` (plain `url + path` without auth)."""
        if self.auth is None:
            return f"{self.url}{path}"
        user, token = self.auth
        return f"http://{user}:{token}@{self._host}:{self.port}{path}"

    # --- request log ---

    @property
    def requests(self) -> list[RequestRecord]:
        """A snapshot of the request log, oldest first."""
        with self._lock:
            return list(self._requests)

    def requested_paths(self, pattern: str = "*") -> list[str]:
        """Unquoted paths of the logged requests matching `pattern` (fnmatch)."""
        return [r.path for r in self.requests if fnmatch.fnmatchcase(r.path, pattern)]

    def clear_requests(self) -> None:
        with self._lock:
            self._requests.clear()

    # --- faults ---

    def add_fault(
        self,
        pattern: str,
        *,
        status: int | None = None,
        delay: float = 0.0,
        truncate: int | None = None,
        corrupt: bool = False,
        times: int | None = None,
    ) -> Fault:
        fault = Fault(
            pattern=pattern,
            status=status,
            delay=delay,
            truncate=truncate,
            corrupt=corrupt,
            times=times,
        )
        with self._lock:
            self._faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()
            self._fault_hits.clear()

    def _take_fault(self, path: str) -> Fault | None:
        with self._lock:
            for fault in self._faults:
                if not fnmatch.fnmatchcase(path, fault.pattern):
                    continue
                hits = self._fault_hits.get(id(fault), 0)
                if fault.times is not None and hits >= fault.times:
                    continue
                self._fault_hits[id(fault)] = hits + 1
                return fault
        return None

    # --- serving ---

    def _authorized(self, header: str | None) -> tuple[bool, str | None]:
        if header is None or not header.startswith("Basic "):
            return self.auth is None, None
        try:
            decoded = base64.b64decode(header[6:], validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return self.auth is None, None
        user, _, token = decoded.partition(":")
        return self.auth is None or (user, token) == self.auth, user

    def _resolve(self, path: str) -> Path | None:
        normalized = posixpath.normpath(path)
        candidate = (self.directory / normalized.lstrip("/")).resolve()
        if candidate != self.directory and self.directory not in candidate.parents:
            return None
        return candidate

    def _handle(self, handler: _Handler, *, head: bool) -> None:
        started = time.monotonic()
        split = urlsplit(handler.path)
        path = unquote(split.path)
        accept = handler.headers.get("Accept", "")
        fmt = parse_qs(split.query).get("format")
        if fmt:
            accept = fmt[0].replace(" ", "+")  # an unescaped "+" reads as a space
        ok, user = self._authorized(handler.headers.get("Authorization"))
        fault = self._take_fault(path)

        status, body, content_type, extra = self._respond(path, accept, authorized=ok)
        if fault is not None:
            if fault.delay:
                time.sleep(fault.delay)
            if fault.status is not None:
                status, content_type, extra = fault.status, "text/plain", {}
                body = f"{fault.status} injected by test for {path}\n".encode()
            if fault.corrupt and body:
                body = bytes(b ^ 0xFF for b in body)

        try:
            handler.send_response(status)
            for key, value in extra.items():
                handler.send_header(key, value)
            if content_type:
                handler.send_header("Content-Type", content_type)
            handler.send_header("Content-Length", str(len(body)))
            if fault is not None and fault.truncate is not None:
                handler.send_header("Connection", "close")
            handler.end_headers()
            if not head:
                if fault is not None and fault.truncate is not None:
                    handler.wfile.write(body[: fault.truncate])
                    handler.wfile.flush()
                    handler.close_connection = True
                else:
                    handler.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            handler.close_connection = True
        finally:
            record = RequestRecord(
                method="HEAD" if head else "GET",
                raw_path=handler.path,
                path=path,
                accept=handler.headers.get("Accept", ""),
                user=user,
                status=status,
                content_type=content_type,
                fault=fault.pattern if fault else None,
                seconds=time.monotonic() - started,
            )
            with self._lock:
                self._requests.append(record)

    def _respond(
        self, path: str, accept: str, *, authorized: bool
    ) -> tuple[int, bytes, str | None, dict[str, str]]:
        if not authorized:
            return (
                HTTPStatus.UNAUTHORIZED,
                b"401 Unauthorized\n",
                "text/plain",
                {"WWW-Authenticate": 'Basic realm="envgen-test-index"'},
            )
        target = self._resolve(path)
        if target is None or not target.exists():
            return HTTPStatus.NOT_FOUND, b"404 Not Found\n", "text/plain", {}
        if target.is_dir():
            if not path.endswith("/"):
                return HTTPStatus.MOVED_PERMANENTLY, b"", None, {"Location": f"{path}/"}
            json_file, html_file = target / "index.json", target / "index.html"
            chosen = negotiate(accept, json_available=json_file.is_file())
            if chosen == JSON_TYPE:
                return HTTPStatus.OK, json_file.read_bytes(), JSON_TYPE, {}
            if html_file.is_file():
                return HTTPStatus.OK, html_file.read_bytes(), f"{chosen}; charset=utf-8", {}
            return HTTPStatus.NOT_FOUND, b"404 Not Found\n", "text/plain", {}
        return HTTPStatus.OK, target.read_bytes(), _content_type(target), {}


def _content_type(path: Path) -> str:
    known = _CONTENT_TYPES.get(path.suffix)
    if known is not None:
        return known
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"
