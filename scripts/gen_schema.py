"""Write the files generated from the pydantic schemas, or say which are stale.

- matrices/schema.json from envgen/model/matrix_schema.py (via envgen.model.matrix);
- docs/reference/project-yaml.schema.json from envgen/model/spec_schema.py (project.yaml's JSON
  Schema, for editors);
- envgen/model/spec_rules.py from envgen/model/spec_schema.py (the keys, choices and patterns the
  runtime spec reader uses without importing pydantic);
- matrices/validated.json: the matrix files validated through envgen/model/matrix_schema.py and
  the invariants, with the sha256 of the YAML it was made from (envgen.model.matrix takes it on a
  cache miss instead of parsing and validating the YAML, while that digest is the files');
- matrices/shipped-yaml.json: the data of the YAML tables every lock and build reads
  (envgen.model.shipped.TABLES), with the sha256 of each table's bytes (taken instead of parsing
  the YAML, without PyYAML, while that digest is the table's).

Prints a diff and exits 1 when a committed file is stale; writes only with --write.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections.abc import Callable
from pathlib import Path

from envgen.model.matrix import SHIPPED_FILE, matrix_json_schema, shipped_matrix_text
from envgen.model.shipped import SHIPPED_YAML, shipped_yaml_text
from envgen.model.spec_schema import runtime_rules, spec_json_schema

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "matrices" / "schema.json"
SPEC_SCHEMA = ROOT / "docs" / "reference" / "project-yaml.schema.json"
SPEC_RULES = ROOT / "envgen" / "model" / "spec_rules.py"
SHIPPED_MATRIX = ROOT / "matrices" / SHIPPED_FILE
SHIPPED_TABLES = ROOT / "matrices" / SHIPPED_YAML


def _json(make: Callable[[], dict[str, object]]) -> Callable[[], str]:
    return lambda: json.dumps(make(), indent=2, sort_keys=True) + "\n"


# Each generated file and the function that renders its text.
GENERATED: dict[Path, Callable[[], str]] = {
    SCHEMA: _json(matrix_json_schema),
    SPEC_SCHEMA: _json(spec_json_schema),
    SPEC_RULES: runtime_rules,
    SHIPPED_MATRIX: lambda: shipped_matrix_text(SHIPPED_MATRIX.parent),
    SHIPPED_TABLES: lambda: shipped_yaml_text(SHIPPED_TABLES.parent),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="write the stale files")
    args = parser.parse_args(argv)
    stale = 0
    for path, make in GENERATED.items():
        name = path.relative_to(ROOT).as_posix()
        want = make()
        have = path.read_text(encoding="utf-8") if path.exists() else ""
        if have == want:
            print(f"{name} is up to date")
            continue
        if args.write:
            path.write_text(want, encoding="utf-8")
            print(f"wrote {name}")
            continue
        stale += 1
        sys.stdout.writelines(
            difflib.unified_diff(
                have.splitlines(True), want.splitlines(True), f"{name} (committed)", "(models)"
            )
        )
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
