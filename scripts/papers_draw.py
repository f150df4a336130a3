"""Draw papers for the end-to-end suite (tests/data/papers/papers.yaml) at random from the corpus.

    python scripts/papers_draw.py [--seed 29] [-n 11] [--at COMMIT]

Declared before any drawn paper is run, so that the suite grows without choosing by results
(issue 29). Prints the drawn entries as papers.yaml lines; it writes nothing.

The rule:
- the pool is every entry of tests/data/real/SOURCES.yaml and CORPUS.yaml (read at git commit
  `--at` when given, so the draw can be repeated after the corpus grows) whose expected answer is
  not `refused` and names a torch version, where
  - the era is 2019-2023: the file's `date` (CORPUS.yaml), else the torch release's date
    (matrices/releases.yaml), falls in those years, and
  - PyPI has that torch for linux-64 (releases.yaml's pypi-wheels), or a release of the same
    minor series (envgen's nearest PyPI release, as 1.8.2 -> 1.8.1);
- one paper per repository: repositories already in papers.yaml (read at `--at` too) are left
  out, except those drawn with this same seed (so that the draw repeats after its entries are
  committed); the rest are sorted by name and `random.Random(seed).sample` takes `n`; within a
  drawn repository with several eligible files, the same generator picks one (files sorted by
  import path). Seed 29 was drawn at bffd352, whose papers.yaml held the 29 hand-listed papers
  only; seed 31 at 7d3320f, whose papers.yaml held those and seed 29's 11.
It does not run, lock or import anything: the pool is decided from the graded corpus alone.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess  # noqa: TID251 - reads the corpus at a git commit
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from envgen.model.matrix import Matrix, load_matrix  # noqa: E402 - after the path set-up
from envgen.model.variants import nearest_pypi_release  # noqa: E402

CORPUS_FILES = ("tests/data/real/SOURCES.yaml", "tests/data/real/CORPUS.yaml")
PAPERS = ROOT / "tests" / "data" / "papers" / "papers.yaml"
ERA = (2019, 2023)


def _read(path: str, at: str | None, key: str | None = None) -> list[dict[str, Any]]:
    if at is None:
        text = (ROOT / path).read_text(encoding="utf-8")
    else:
        text = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{at}:{path}"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    data = yaml.safe_load(text)
    return list(data[key] if key else data)


def eligible(entry: dict[str, Any], matrix: Matrix) -> bool:
    """Whether one corpus entry is in the pool (module doc)."""
    expected = entry.get("expected") or {}
    torch = expected.get("torch")
    if expected.get("refused") or not isinstance(torch, str):
        return False
    release = matrix.release(torch)
    if release is None:
        return False
    day = str(entry.get("date") or release.date or "")
    if not re.match(r"\d{4}-", day) or not ERA[0] <= int(day[:4]) <= ERA[1]:
        return False
    if release.pypi_pythons("linux-64"):
        return True
    near = nearest_pypi_release(matrix, torch, "linux-64")
    return near is not None and near.version.release[:2] == release.version.release[:2]


def draw(
    corpus: list[dict[str, Any]], listed: list[dict[str, Any]], matrix: Matrix, seed: int, n: int
) -> list[dict[str, Any]]:
    """The drawn corpus entries, in draw order (module doc)."""
    corpus_by_import = {str(e["import"]): e for e in corpus}
    taken = {
        str(corpus_by_import[p["import"]]["repo"]).lower()
        for p in listed
        if p.get("drawn") != f"seed {seed}" and p["import"] in corpus_by_import
    }
    by_repo: dict[str, list[dict[str, Any]]] = {}
    for entry in corpus:
        repo = str(entry["repo"]).lower()
        if repo not in taken and eligible(entry, matrix):
            by_repo.setdefault(repo, []).append(entry)
    rng = random.Random(seed)  # noqa: S311 - a reproducible draw, not a secret
    picked = rng.sample(sorted(by_repo), n)
    return [rng.choice(sorted(by_repo[r], key=lambda e: str(e["import"]))) for r in picked]


def paper_id(entry: dict[str, Any]) -> str:
    name = str(entry["repo"]).split("/", 1)[1]
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("-n", type=int, default=11)
    parser.add_argument("--at", default=None, help="read the corpus at this git commit")
    args = parser.parse_args(argv)
    corpus = [e for path in CORPUS_FILES for e in _read(path, args.at)]
    if args.at is None:
        listed = list(yaml.safe_load(PAPERS.read_text(encoding="utf-8"))["papers"])
    else:
        listed = list(_read(str(PAPERS.relative_to(ROOT)), args.at, key="papers"))
    matrix = load_matrix()
    pool = {str(e["repo"]).lower() for e in corpus if eligible(e, matrix)}
    listed_repos = {
        str(e["repo"]).lower()
        for e in corpus
        for p in listed
        if p["import"] == e["import"] and p.get("drawn") != f"seed {args.seed}"
    }
    sys.stderr.write(
        f"pool: {len(pool)} repositories with an eligible file, "
        f"{len(pool - listed_repos)} outside the papers already listed (the draw pool)\n"
    )
    for entry in draw(corpus, listed, matrix, args.seed, args.n):
        sys.stdout.write(
            f'  - {{id: {paper_id(entry)}, import: {entry["import"]}, drawn: "seed {args.seed}"}}\n'
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
