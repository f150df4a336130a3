"""envgen.lock.orchestrate.default_jobs: how many variants a lock works on at once by default."""

from __future__ import annotations

import os

import pytest

from envgen.lock import orchestrate


@pytest.mark.parametrize(
    ("cores", "variants", "jobs"),
    [(2, 1, 1), (2, 3, 3), (2, 6, 4), (2, 9, 4), (8, 6, 6), (8, 12, 8), (None, 6, 4), (1, 0, 1)],
)
def test_a_lock_waits_mostly_so_it_runs_at_least_four_variants_at_once(
    monkeypatch: pytest.MonkeyPatch, cores: int | None, variants: int, jobs: int
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert orchestrate.default_jobs(variants) == jobs
