"""envgen.infra.network.http_get: the one HTTP client (the lock's index probes, matrix verify)."""

from __future__ import annotations

import base64
import email.message
import io
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from envgen.errors import NetworkError
from envgen.infra import network
from envgen.infra.network import Index, mirror_hint, network_failure_host


class _Answer(io.BytesIO):
    def __init__(self, body: bytes, content_type: str) -> None:
        super().__init__(body)
        self.headers = email.message.Message()
        self.headers["Content-Type"] = content_type


def _fake(monkeypatch: pytest.MonkeyPatch, answers: list[Any]) -> list[urllib.request.Request]:
    """urlopen answers (or raises) `answers` in turn; returns the requests it got."""
    seen: list[urllib.request.Request] = []

    def urlopen(req: urllib.request.Request, timeout: float) -> Any:
        req.timeout = timeout  # as the real urlopen does
        seen.append(req)
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    class _Opener:  # http_get opens with a fresh opener per request (no shared proxy state)
        def open(self, req: urllib.request.Request, timeout: float) -> Any:
            return urlopen(req, timeout)

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    monkeypatch.setattr(urllib.request, "build_opener", lambda *_handlers: _Opener())
    monkeypatch.setattr(time, "sleep", lambda _s: None)
    return seen


def test_a_file_url_gives_its_body_and_headers(tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    page.write_bytes(b"<a href='torch/'>torch</a>")
    answer = network.http_get(page.as_uri(), timeout=5)
    assert answer.body == b"<a href='torch/'>torch</a>"
    assert answer.content_type == "text/html"


def test_a_body_over_the_bound_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "big"
    page.write_bytes(b"x" * 11)
    with pytest.raises(NetworkError, match=r"the answer is larger than 10 bytes$"):
        network.http_get(page.as_uri(), timeout=5, max_bytes=10)


def test_credentials_become_a_basic_auth_header_and_leave_the_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen = _fake(monkeypatch, [_Answer(b"{}", "application/json")])
    answer = network.http_get(
        "https://bob:SECRET@mirror.example/simple/", headers={"Accept": "x"}, timeout=5
    )
    assert answer.content_type == "application/json"
    (req,) = seen
    assert (req.full_url, req.timeout) == ("https://mirror.example/simple/", 5)
    assert req.get_header("Accept") == "x"
    # Unredirected: a redirect to another host does not carry the credentials along.
    assert req.unredirected_hdrs == {
        "Authorization": "Basic " + base64.b64encode(b"bob:SECRET").decode()
    }


def test_4xx_is_final_and_masks_the_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "https://bob:SECRET@mirror.example/simple/torch/"
    error = urllib.error.HTTPError(url, 404, "Not Found", email.message.Message(), None)
    seen = _fake(monkeypatch, [error, _Answer(b"", "text/html")])
    with pytest.raises(NetworkError) as info:
        network.http_get(url, timeout=5, retries=3)
    assert (
        str(info.value) == "GET https://***@mirror.example/simple/torch/ failed: HTTP 404 Not Found"
    )
    assert len(seen) == 1


def test_5xx_and_network_errors_are_retried_up_to_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = "https://mirror.example/simple/"
    error = urllib.error.HTTPError(url, 503, "Busy", email.message.Message(), None)
    refused = urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))
    _fake(monkeypatch, [error, _Answer(b"ok", "text/html")])
    assert network.http_get(url, timeout=5, retries=2).body == b"ok"
    seen = _fake(monkeypatch, [refused, refused, refused])
    with pytest.raises(NetworkError) as info:
        network.http_get(url, timeout=5, retries=3, hint="try a mirror")
    assert len(seen) == 3
    assert info.value.message == (
        "GET https://mirror.example/simple/ failed 3 times: [Errno 111] Connection refused"
    )
    assert info.value.hint == "try a mirror"


def test_one_attempt_says_failed_without_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, [TimeoutError("timed out")])
    with pytest.raises(NetworkError, match=r"^GET https://m.example/ failed: timed out$"):
        network.http_get("https://m.example/", timeout=1)


@pytest.mark.parametrize("url", ["ftp://bob:SECRET@m.example/s", "javascript:alert(1)", "s3://b/k"])
def test_a_scheme_it_does_not_fetch_is_refused(url: str) -> None:
    with pytest.raises(NetworkError, match=r"^unsupported URL scheme in ") as info:
        network.http_get(url, timeout=1)
    assert "SECRET" not in str(info.value)


def test_an_unreachable_extension_page_is_named_not_pypi() -> None:
    """uv names the URL it could not fetch; the hint names that host and its setting, not the
    first index (data.pyg.org and download.openmmlab.com are out of reach where PyPI is not)."""
    pypi = Index(role="pypi", url="https://pypi.org/simple")
    torch = Index(role="pytorch", url="https://download.pytorch.org/whl/cu117")
    pyg = Index(role="extension", url="https://data.pyg.org/whl/torch-2.0.0+cu117.html")
    mmcv = Index(role="extension", url="https://download.openmmlab.com/mmcv/dist/cu102/torch1.7/")
    uv_said = (
        "error: Failed to fetch: `{url}`\n  Caused by: error sending request for url ({url})\n"
        "  Caused by: dns error: failed to lookup address information: Name or service not known"
    )
    said_pyg = uv_said.format(url="https://data.pyg.org/whl/torch-2.0.0+cu117.html")
    said_mmcv = uv_said.format(url="https://download.openmmlab.com/mmcv/dist/cu102/torch1.7/i")
    said_pypi = uv_said.format(url="https://pypi.org/simple/numpy/")
    assert network_failure_host(said_pyg, [torch, pypi, pyg]) == pyg
    assert network_failure_host(said_mmcv, [pypi, pyg, mmcv]) == mmcv
    assert network_failure_host(said_pypi, [pypi, pyg]) == pypi
    # a failure that names no index host: the first index, as before
    assert network_failure_host("dns error", [pypi, pyg]) == pypi
    assert network_failure_host("No solution found", [pypi, pyg]) is None
    hint = mirror_hint("data.pyg.org", ["extension"])
    assert hint.startswith(
        "data.pyg.org cannot be reached from here: point envgen at a mirror with "
        "ENVGEN_EXTENSION_INDEX=<url> (it serves <url>/data.pyg.org/...)"
    )
