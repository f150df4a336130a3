"""The recorded conda-forge feedstock commits against the git mirrors, where they exist.

tests/data/recorded/conda-forge/ must be what scripts/refresh_conda_forge.py's reading layer reads
at those commits (git, so not a unit test); skipped without the mirrors (CI has none).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import refresh_conda_forge as rcf  # noqa: E402

pytestmark = pytest.mark.integration


@pytest.mark.skipif(
    not all(rcf.mirror_path(f).is_dir() for f in rcf.FEEDSTOCKS), reason="no feedstock mirrors"
)
def test_recorded_excerpts_match_the_mirrors() -> None:
    """Where the mirrors exist, the recorded excerpts are what the reading layer reads there."""
    for feedstock in rcf.FEEDSTOCKS:
        recorded = {s.short: s for s in rcf.recorded_snapshots(rcf.RECORDED / feedstock)}
        live = rcf.git_snapshots(rcf.mirror_path(feedstock), Version("0"), list(recorded))
        assert live == list(recorded.values())
