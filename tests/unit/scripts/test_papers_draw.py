"""scripts/papers_draw.py: the pool rule and the seeded draw of the papers suite (issue 29)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import papers_draw  # noqa: E402

from envgen.model.matrix import load_matrix  # noqa: E402


def entry(repo: str, torch: Any, date: str | None = None, **expected: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "import": f"{repo.replace('/', '__')}/requirements.txt",
        "repo": repo,
        "expected": {"torch": torch, **expected},
    }
    if date:
        out["date"] = date
    return out


def test_the_pool_takes_2019_2023_files_whose_torch_pypi_has_for_linux() -> None:
    matrix = load_matrix()
    assert papers_draw.eligible(entry("a/b", "1.5.0", "2020-05-11"), matrix)
    assert not papers_draw.eligible(entry("a/b", "1.5.0", "2024-01-02"), matrix)  # the file's date
    assert not papers_draw.eligible(entry("a/b", "1.0.0"), matrix)  # 2018: the release's date
    assert not papers_draw.eligible(entry("a/b", "0.4.1", "2019-03-01"), matrix)  # not on PyPI
    assert not papers_draw.eligible(entry("a/b", None, refused=True), matrix)
    assert not papers_draw.eligible(entry("a/b", True, "2020-01-01"), matrix)  # no version
    # 1.8.2 (LTS) never reached PyPI; 1.8.1, of its minor series, did
    assert papers_draw.eligible(entry("a/b", "1.8.2", "2021-12-01"), matrix)


def test_the_draw_is_the_seeds_and_leaves_the_listed_repositories_out() -> None:
    matrix = load_matrix()
    corpus = [entry(f"o/r{i}", "1.9.0", "2021-07-01") for i in range(20)]
    listed = [{"id": "x", "import": corpus[0]["import"]}]  # hand listed: no `drawn`
    first = papers_draw.draw(corpus, listed, matrix, seed=29, n=5)
    assert first == papers_draw.draw(corpus, listed, matrix, seed=29, n=5)
    assert first != papers_draw.draw(corpus, listed, matrix, seed=30, n=5)
    assert corpus[0] not in first
    assert len({e["repo"] for e in first}) == 5
    drawn = [{"id": "y", "import": corpus[0]["import"], "drawn": "seed 29"}]
    assert corpus[0] in papers_draw.draw(corpus, drawn, matrix, seed=29, n=19)
    # a repository an earlier draw (another seed) listed is out of this seed's pool, as a
    # hand-listed one is: the new draw is of papers not yet in the suite
    assert corpus[0] not in papers_draw.draw(corpus, drawn, matrix, seed=31, n=19)
    assert len(papers_draw.draw(corpus, drawn, matrix, seed=31, n=19)) == 19
