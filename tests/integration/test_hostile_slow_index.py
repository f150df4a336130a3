"""An index that trickles its answer cannot hang envgen's own requests.

A cloned project.yaml names its indexes. envgen's own requests (the lock's runtime probe of the
PyTorch index, ...) passed ENVGEN_HTTP_TIMEOUT to urllib, which bounds each wait for a byte, not
the answer: a server sending one byte every 0.2 s held `envgen lock` forever with
ENVGEN_HTTP_TIMEOUT=1 (measured: still running after 120 s). Now a whole answer must come within
ten timeouts. Through the real CLI (`matrix verify`, the same request function), against a
trickling server on 127.0.0.1.
"""

from __future__ import annotations

import http.server
import socketserver
import subprocess  # noqa: TID251 - tests run envgen as a real process
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.test_hostile_lock import MINI, ROOT
from tests.support.fixtures import clean_tool_env

pytestmark = pytest.mark.integration


class _Trickle(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        try:
            while True:
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass  # the client went away

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


@pytest.fixture
def trickle() -> Iterator[str]:
    server = _Server(("127.0.0.1", 0), _Trickle)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def run_envgen(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str, float]:
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "envgen", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr, time.monotonic() - start


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_a_trickling_index_ends_envgens_requests(tmp_path: Path, trickle: str) -> None:
    """`matrix verify` and the lock's probe share envgen.infra.network.http_get; the lock then
    hands the index to uv, which its own 900 s bound ends (documented in docs/reliability.md)."""
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_HTTP_TIMEOUT="0.5",
        PYTHONPATH=str(ROOT),
    )
    code, out, seconds = run_envgen(["matrix", "verify", "--index", trickle], env, tmp_path)
    assert (code, out) == (
        15,
        f"error: GET {trickle}/torch/: the answer did not arrive within 10 times the HTTP "
        "timeout (the server sends too slowly or stalls)\n"
        "  hint: check the index, or raise ENVGEN_HTTP_TIMEOUT\n",
    )
    assert seconds < 30
