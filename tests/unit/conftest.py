"""Unit tests are pure: starting a process or opening a network connection is a test bug."""

from __future__ import annotations

import socket
import subprocess  # noqa: TID251 - imported only to block Popen

import pytest


class _ForbiddenError(AssertionError):
    pass


@pytest.fixture(autouse=True)
def _mock_protection(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_process(*args: object, **_kwargs: object) -> None:
        msg = f"unit tests must not start processes: {args[:1]!r}"
        raise _ForbiddenError(msg)

    def no_connect(_self: socket.socket, address: object) -> None:
        msg = f"unit tests must not open connections: {address!r}"
        raise _ForbiddenError(msg)

    monkeypatch.setattr(subprocess, "Popen", no_process)
    monkeypatch.setattr(socket.socket, "connect", no_connect)
