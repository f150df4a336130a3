"""scripts/papers_report.py: a rerun replaces a paper's row, the others keep theirs with their date."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import papers_report  # noqa: E402

from tests.support.papers import entries  # noqa: E402

OLD_PAGE = """\
# Papers reproduced end to end

## Results of 2026-12-03

1 of 2 papers run.

| paper | source | torch | build | project imports | result | why not | notes |
|---|---|---|---|---|---|---|---|
| gan-compression | old@1:a | 1.4.0 | cu101 | 10/10 | runs |  | exclude_newer 2020-06-17 |
| metal | old@2:b | 1.4.0 | cu101 | 6/7 | stopped at smoke | a \\| b | n |
"""


def test_rows_of_a_page_without_a_run_on_column_take_its_date() -> None:
    rows = papers_report.previous_rows(OLD_PAGE)
    assert sorted(rows) == ["gan-compression", "metal"]
    assert rows["metal"]["run on"] == "2026-12-03"
    assert rows["metal"]["why not"] == "a \\| b"  # an escaped bar stays inside its cell
    assert rows["gan-compression"]["result"] == "runs"


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_a_rerun_replaces_its_row_and_the_others_are_kept_with_their_date() -> None:
    listed = entries()
    fresh: dict[str, Any] = {
        "id": "metal", "torch": "1.4.0", "accelerator": "cu101", "ok": True, "stage": "ran",
        "reason": "", "notes": ["fresh note"], "project_checks": {"x": "pass: ok"},
    }  # fmt: skip
    page = papers_report.render(
        {"metal": fresh}, "2026-12-05", papers_report.previous_rows(OLD_PAGE)
    )
    rows = papers_report.previous_rows(page)
    assert rows["metal"]["run on"] == "2026-12-05"
    assert rows["metal"]["notes"] == "fresh note"
    assert rows["gan-compression"]["run on"] == "2026-12-03"
    assert rows["gan-compression"]["project imports"] == "10/10"
    # the source is today's papers.yaml entry, not the old page's
    assert rows["gan-compression"]["source"] == listed[0]["source"]
    assert f"2 of 2 papers run ({len(listed)} listed: 1 run on 2026-12-05, 1 kept" in page
    assert rows[listed[-1]["id"]]["result"] == "not run"
