"""The end-to-end reproduction suite: real repositories imported, locked, built and their own
packages imported (issue 29). Opt-in (`make test-papers`): it downloads real torch wheels from
PyPI (about 1 GB a release), cached in ~/.cache/envgen-test.

Each paper's result is written to ~/.cache/envgen-test/papers/results/<id>.json;
`python scripts/papers_report.py` renders them as docs/papers.md.
"""

from __future__ import annotations

import shutil
import subprocess  # noqa: TID251 - uv empties its own cache
import sys
from pathlib import Path

import pytest

from envgen.model.matrix import load_matrix
from tests.support.papers import entries, reproduce, write_result

pytestmark = [pytest.mark.papers]

CACHE = Path.home() / ".cache" / "envgen-test"
RESULTS = CACHE / "papers" / "results"
ENTRIES = entries()
MIN_FREE = 8 << 30
# uv's cache keeps every torch release unpacked (2-3 GB each); past this it is emptied between
# papers (they are listed by torch release, so neighbours share theirs before a clean)
UV_CACHE_BUDGET = 15 << 30


def _tree_bytes(root: Path) -> int:
    total = 0
    for path in root.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
        except OSError:
            continue
    return total


def _keep_cache_in_budget(uv_cache: Path) -> None:
    if uv_cache.is_dir() and _tree_bytes(uv_cache) > UV_CACHE_BUDGET:
        subprocess.run(  # the real uv empties its own cache (it knows its layout and locks)
            [str(Path(sys.executable).with_name("uv")), "cache", "clean", "--cache-dir",
             str(uv_cache)],
            capture_output=True, timeout=600, check=False,
        )  # fmt: skip


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_paper_runs(entry: dict[str, str], tmp_path: Path) -> None:
    if shutil.disk_usage(tmp_path).free < MIN_FREE:
        pytest.skip(f"less than {MIN_FREE >> 30} GiB free: a paper's wheels would not fit")
    result = reproduce(entry, tmp_path, CACHE, load_matrix())
    write_result(result, RESULTS)
    # the environment (GBs of torch) is not kept: the result holds what it showed
    shutil.rmtree(tmp_path / "environments", ignore_errors=True)
    _keep_cache_in_budget(CACHE / "uv")
    assert result.ok, (
        f"{entry['id']} ({entry['source']}): stopped at {result.stage}: {result.reason}"
    )
