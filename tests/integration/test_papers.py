"""The end-to-end reproduction suite: real repositories imported, locked, built and their own
packages imported (issue 29). Opt-in (`make test-papers`): it downloads real torch wheels from
PyPI (about 1 GB a release), cached in ~/.cache/envgen-test.

Each paper's result is written to ~/.cache/envgen-test/papers/results/<id>.json;
`python scripts/papers_report.py` renders them as docs/papers.md.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envgen.model.matrix import load_matrix
from tests.support.papers import entries, reproduce, write_result

pytestmark = [pytest.mark.papers]

CACHE = Path.home() / ".cache" / "envgen-test"
RESULTS = CACHE / "papers" / "results"
ENTRIES = entries()
MIN_FREE = 8 << 30


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_paper_runs(entry: dict[str, str], tmp_path: Path) -> None:
    if shutil.disk_usage(tmp_path).free < MIN_FREE:
        pytest.skip(f"less than {MIN_FREE >> 30} GiB free: a paper's wheels would not fit")
    result = reproduce(entry, tmp_path, CACHE, load_matrix())
    write_result(result, RESULTS)
    # the environment (GBs of torch) is not kept: the result holds what it showed
    shutil.rmtree(tmp_path / "environments", ignore_errors=True)
    assert result.ok, (
        f"{entry['id']} ({entry['source']}): stopped at {result.stage}: {result.reason}"
    )
