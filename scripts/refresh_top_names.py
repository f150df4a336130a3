"""Write matrices/pypi-top-names.txt from hugovk/top-pypi-packages (the most downloaded PyPI
projects of the last 30 days, from PyPI's public BigQuery / ClickHouse download data).

    python scripts/refresh_top_names.py TOP_JSON --commit SHA [-n 5000] [--write]

TOP_JSON is that repository's `top-pypi-packages.min.json` at commit SHA (a clone, or the
snapshot the project's `fetch` tool makes); only the names are kept, most downloaded first, so
`envgen lock`'s did-you-mean hint (envgen/model/pypi_names.py) can prefer the popular project
among names equally near. Prints a unified diff; writes only with --write. Reads no network.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path

from envgen.model.pypi_names import TABLE


def render(data: dict[str, object], commit: str, count: int) -> str:
    """The file's text: a header naming the source, then one name a line."""
    rows = data.get("rows")
    if not isinstance(rows, list):
        msg = "expected the JSON's `rows:` list"
        raise SystemExit(msg)
    names = [str(r["project"]) for r in rows[:count] if isinstance(r, dict)]
    head = [
        "# pypi-top-names.txt: the most downloaded PyPI projects (most downloaded first), names.",
        "# Read by envgen/model/pypi_names.py: when a lock fails because a requirement's project",
        "# does not exist, the hint names the nearest of these (did you mean ...?); never applied.",
        f"# Source: https://github.com/hugovk/top-pypi-packages@{commit}:top-pypi-packages.min.json",
        (
            f"# (last_update {data.get('last_update')}, the last 30 days of downloads); the "
            f"first {len(names)} of its {len(rows)} rows."
        ),
        "# Regenerate: python scripts/refresh_top_names.py TOP_JSON --commit SHA --write",
    ]
    return "\n".join([*head, *names]) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("top_json", type=Path)
    parser.add_argument("--commit", required=True)
    parser.add_argument("-n", type=int, default=5000)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    text = render(json.loads(args.top_json.read_text(encoding="utf-8")), args.commit, args.n)
    old = TABLE.read_text(encoding="utf-8") if TABLE.exists() else ""
    if args.write:
        TABLE.write_text(text, encoding="utf-8")
        return 0
    diff = list(
        difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(TABLE), "new")
    )
    sys.stdout.writelines(diff[:200])
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
