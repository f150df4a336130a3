"""A wall-clock and memory bound for one hostile input (tests of `envgen import` on files that
would hang or blow up an unbounded reader)."""

from __future__ import annotations

import resource
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

# Generous on a loaded 2-core CI machine; the unbounded readers took 28 s to forever.
LIMIT_S: Final = 10.0
LIMIT_KIB: Final = 256 * 1024  # peak RSS growth (ru_maxrss is in KiB on Linux)


class AlarmError(Exception):
    """The alarm rang: the input ran past four times the limit."""


@contextmanager
def bounded(limit_s: float = LIMIT_S, limit_kib: int | None = LIMIT_KIB) -> Iterator[None]:
    """Fail (instead of hanging the suite) past `limit_s`; check peak memory growth afterwards
    (not when `limit_kib` is None)."""

    def ring(_signum: int, _frame: object) -> None:
        raise AlarmError

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, limit_s * 4)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    elapsed = time.monotonic() - start
    assert elapsed < limit_s, f"took {elapsed:.1f} s"
    if limit_kib is not None:
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        assert grew < limit_kib, f"peak RSS grew by {grew} KiB"
