"""Unit tests are pure: starting a process or opening a network connection is a test bug."""

from __future__ import annotations

import socket
import subprocess

import pytest


class _Forbidden(AssertionError):
    pass


@pytest.fixture(autouse=True)
def _mock_protection(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_process(*args: object, **kwargs: object) -> None:
        msg = f"unit tests must not start processes: {args[:1]!r}"
        raise _Forbidden(msg)

    def no_connect(self: socket.socket, address: object) -> None:
        msg = f"unit tests must not open connections: {address!r}"
        raise _Forbidden(msg)

    monkeypatch.setattr(subprocess, "Popen", no_process)
    monkeypatch.setattr(socket.socket, "connect", no_connect)
