"""Write matrices/schema.json from the pydantic models in envgen/model/matrix_schema.py.

Prints a diff and exits 1 when the committed schema is stale; writes only with --write.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path

from envgen.model.matrix import matrix_json_schema

SCHEMA = Path(__file__).resolve().parents[1] / "matrices" / "schema.json"


def render() -> str:
    return json.dumps(matrix_json_schema(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="write matrices/schema.json")
    args = parser.parse_args(argv)
    want = render()
    have = SCHEMA.read_text(encoding="utf-8") if SCHEMA.exists() else ""
    if have == want:
        print("matrices/schema.json is up to date")
        return 0
    if args.write:
        SCHEMA.write_text(want, encoding="utf-8")
        print("wrote matrices/schema.json")
        return 0
    sys.stdout.writelines(
        difflib.unified_diff(
            have.splitlines(True),
            want.splitlines(True),
            "schema.json (committed)",
            "schema.json (models)",
        )
    )
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
