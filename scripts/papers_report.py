"""Render the papers suite's results (tests/integration/test_papers.py) as docs/papers.md.

    python scripts/papers_report.py [RESULTS_DIR] [--date YYYY-MM-DD] [--write]

RESULTS_DIR defaults to ~/.cache/envgen-test/papers/results (one JSON file per paper). The table
lists the papers in tests/data/papers/papers.yaml, in that order. A paper without a result in
RESULTS_DIR keeps its row from the current docs/papers.md, with the date of the run that row came
from (the *run on* column, or the page's "Results of" date for a page without one), so a session
that reruns some papers does not lose the others' results; a paper with neither is "not run".
Prints the page; --write replaces docs/papers.md (atomically). The date is the run's (today unless
given).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.papers import entries  # noqa: E402 - after the path set-up

DOC = ROOT / "docs" / "papers.md"
DEFAULT_RESULTS = Path.home() / ".cache" / "envgen-test" / "papers" / "results"

INTRO = """\
# Papers reproduced end to end

The opt-in suite `make test-papers` (`tests/integration/test_papers.py`, marker `papers`) takes
real repositories of 2019-2023 from the corpus in `tests/data/real/` (each file verbatim; its
repository and commit in `tests/data/real/SOURCES.yaml`; the list in
`tests/data/papers/papers.yaml`) and does what a researcher would: `envgen import`, `envgen
lock`, `envgen build`, `envgen smoke` (the cpu tier, and the project tier: every package the
paper names imports in the built environment). It runs on a CPU machine that reaches PyPI only,
with pyenv's CPython 2.7 and 3.6-3.13 standing in for uv's interpreter downloads, so each imported
project is adapted first (`tests/support/papers.py`, every change listed under *notes*): the
release's build that PyPI serves on linux-64 (`torch_from: pypi` for 1.8.1-1.13.1 and
2.1.x), pip instead
of conda (conda dependencies carried to pip), and the date: `envgen import --as-of` the file's
last commit date where the corpus records it (CORPUS.yaml; what `--git` reads in a clone), else,
where the import set no date, `exclude_newer` the day before the next torch release (an
inference: SOURCES.yaml keeps no commit dates). A file that names no python gets envgen's
default, then up to two older pythons. Where envgen itself proposes a substitution, the suite
takes it as a researcher would and the notes say so: a torch release that never reached PyPI
(1.8.2 -> 1.8.1), a pin the index lost, a release uv cannot install or import with the lock's
other pins, or whose requirements the other pins exclude (the lock's hint or warning `replace
X==A with X==B`), a project name PyPI does not
have (the hint `did you mean NAME?`), a dependency a pinned release imports without declaring it
(the warning `add NAME==V to pip:`), a carried conda pin whose release has no wheel for the
python (envgen's carry takes the nearest release that has one), and a project the index no longer
has (the hint `drop NAME from pip:`), taken only for projects the paper's code was checked not to
import (papers.yaml `unused:`). A program the file installs with
conda that PyPI has no project for is installed with the system's package manager instead and
taken out of the file (papers.yaml `system:`), and a shared library the file's wheels load but do
not ship is installed from Debian's packages (papers.yaml `system_libraries:`). A paper *runs*
when its environment builds and every cpu and project check passes.
Papers listed with `drawn:` in papers.yaml were drawn at random (`scripts/papers_draw.py`, its
seed and rule in papers.yaml's header) and committed before they were first run.

Each row is from one run of that paper, on the day its *run on* column gives (papers rerun in a
later session replace their rows; the others keep theirs). *why not* gives envgen's reason,
and, where one was made, the analysis of a failure envgen cannot fix (`why:` in
`tests/data/papers/papers.yaml`); *notes* list every adaptation.

Regenerate: `make test-papers`, then `python scripts/papers_report.py --write`.
"""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _why(reason: str) -> str:
    """The resolver's own cause where it gave one, else the reason; at most 300 characters."""
    if "cause: " in reason:
        reason = reason.split("cause: ", 1)[1].split(" / ", 1)[0]
    return reason if len(reason) <= 300 else reason[:297] + "..."


def _note(note: str) -> str:
    # a false alarm's detail names a temporary path: the check and the issue are enough
    for mark in (": a smoke false alarm (issue 28)", " fails without a GPU driver (issue 28)"):
        if mark in note:
            return note.split(mark, 1)[0] + ": issue 28 false alarm"
    return note


COLUMNS = (
    "paper", "source", "torch", "build", "project imports", "result", "why not", "notes", "run on",
)  # fmt: skip
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def previous_rows(page: str) -> dict[str, dict[str, str]]:
    """The rows of an earlier docs/papers.md by paper id: column name -> cell text (escapes kept),
    with "run on" filled from the page's "Results of" date where the page has no such column."""
    found = re.search(r"^## Results of (\d{4}-\d{2}-\d{2})", page, re.MULTILINE)
    page_date = found[1] if found else ""
    rows: dict[str, dict[str, str]] = {}
    header: list[str] = []
    for line in page.splitlines():
        if not line.startswith("| "):
            header = [] if not line.startswith("|") else header
            continue
        cells = [c.strip() for c in _CELL_SPLIT.split(line)[1:-1]]
        if cells and cells[0] == "paper":
            header = cells
            continue
        if not header or len(cells) != len(header):
            continue
        row = dict(zip(header, cells, strict=True))
        row.setdefault("run on", page_date)
        rows[row["paper"]] = row
    return rows


def render(
    results: dict[str, dict[str, Any]], date: str, previous: dict[str, dict[str, str]] | None = None
) -> str:
    """The page: a row per listed paper, from its result, else its earlier row (module doc)."""
    earlier = previous or {}
    rows = []
    ran = fresh = carried = 0
    stopped = []
    listed = entries()
    for entry in listed:
        res = results.get(entry["id"])
        if res is None and entry["id"] in earlier:
            old = earlier[entry["id"]]
            carried += 1
            ran += old.get("result") == "runs"
            if old.get("result") != "runs":
                stopped.append(entry["id"])
            # the source and the analysis are today's (papers.yaml); envgen's reason is the run's
            old["source"] = _cell(entry["source"])
            rows.append("| " + " | ".join(old.get(c, "") for c in COLUMNS) + " |")
            continue
        if res is None:
            rows.append(f"| {entry['id']} | {entry['source']} | | | | not run | | | |")
            continue
        fresh += 1
        ran += bool(res["ok"])
        if not res["ok"]:
            stopped.append(entry["id"])
        project: dict[str, str] = res.get("project_checks") or {}
        imports = sum(v.startswith("pass") for v in project.values())
        status = "runs" if res["ok"] else f"stopped at {res['stage']}"
        why = "" if res["ok"] else _why(str(res["reason"]))
        if entry["why"] and not res["ok"]:
            why = f"{entry['why']} ({why})" if why else entry["why"]
        notes = "; ".join(_note(str(n)) for n in res.get("notes") or [])
        rows.append(
            f"| {entry['id']} | {entry['source']} | {res['torch']} | {res['accelerator']} | "
            f"{imports}/{len(project)} | {status} | {_cell(why)} | {_cell(notes)} | {date} |"
        )
    done = fresh + carried
    head = (
        f"## Results of {date}\n\n{ran} of {done} papers run ({len(listed)} listed: {fresh} run "
        f"on {date}, {carried} kept from earlier runs, {len(listed) - done} not run)."
        + (
            f" {len(stopped)} do not: {', '.join(stopped)}; each row's *why not* gives the cause."
            if stopped
            else ""
        )
        + "\n\n"
        + "| "
        + " | ".join(COLUMNS)
        + " |\n"
        + "|---" * len(COLUMNS)
        + "|\n"
    )
    return INTRO + "\n" + head + "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("results", nargs="?", type=Path, default=DEFAULT_RESULTS)
    parser.add_argument("--date", default=dt.datetime.now(dt.UTC).date().isoformat())
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    results = {
        p.stem: json.loads(p.read_text(encoding="utf-8"))
        for p in sorted(Path(args.results).glob("*.json"))
    }
    previous = previous_rows(DOC.read_text(encoding="utf-8")) if DOC.is_file() else {}
    page = render(results, args.date, previous)
    if args.write:
        tmp = DOC.with_suffix(".tmp")
        tmp.write_text(page, encoding="utf-8")
        tmp.replace(DOC)
    else:
        sys.stdout.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
