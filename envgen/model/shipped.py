"""The shipped YAML tables a lock or build reads at run time, as JSON checked by digest.

`matrices/targets.yaml`, `package-issues.yaml`, `build-dependencies.yaml`, `era.yaml` and
`incompatibilities.yaml` are read by every lock and build (the uv platform, the markers, the
undeclared imports, the build and runtime requirements torch leaves out, a release's era).
Parsing them needs PyYAML, whose import (~14 ms) is most of what reading them costs. `make
schema` (scripts/gen_schema.py) writes `matrices/shipped-yaml.json`: for each table the data
PyYAML builds from it and the sha256 of the bytes it was built from.
`data_for` gives that data only for a bundled table (never a user's matrix directory) and only
while the table's bytes are the ones recorded; otherwise the caller parses the YAML as before,
with its messages and limits. tests/unit/model/test_shipped_yaml.py holds the committed file to
what parsing the committed YAML gives now.

This module reads `shipped-yaml.json` and, through `load_table`, a table; the tables' own readers
validate what they get, as they validate what the YAML gives.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any, Final

from envgen.infra.resources import MATRICES_DIR

SHIPPED_YAML: Final = "shipped-yaml.json"
FORMAT: Final = 1
TABLES: Final = (
    "targets.yaml",
    "package-issues.yaml",
    "build-dependencies.yaml",
    "era.yaml",
    "incompatibilities.yaml",
)
_GENERATED: Final = "by `make schema` (scripts/gen_schema.py) from the YAML tables; do not edit"


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


@functools.cache
def _twins(directory: Path) -> dict[str, Any]:
    try:
        data = json.loads((directory / SHIPPED_YAML).read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    tables = data.get("tables")
    return tables if isinstance(tables, dict) else {}


def data_for(path: Path, text: str) -> tuple[bool, Any]:
    """(True, the data PyYAML builds from `text`) when `path` is a bundled table whose recorded
    bytes are `text`'s; (False, None) otherwise (then parse the YAML)."""
    if path.parent != MATRICES_DIR or path.name not in TABLES:
        return False, None
    twin = _twins(MATRICES_DIR).get(path.name)
    if not isinstance(twin, dict) or twin.get("sha256") != _digest(text.encode("utf-8")):
        return False, None
    return True, twin.get("data")


def load_table(path: Path) -> Any:  # noqa: ANN401 - a YAML document: any shape, checked by the caller
    """The data of the YAML table at `path`: its shipped form when `data_for` has it, else the
    YAML parsed as before (envgen.infra.safe_yaml, libyaml where PyYAML has it).

    Raises:
        OSError: the file cannot be read. ValueError: not UTF-8, not YAML, or a YAML bomb.
    """
    text = path.read_text(encoding="utf-8")
    found, data = data_for(path, text)
    if found:
        return data
    from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - PyYAML only without the shipped form

    return load_bounded(text, shipped=True)[1]


def shipped_yaml_text(directory: Path = MATRICES_DIR) -> str:
    """The text of `shipped-yaml.json` for `directory`'s tables (what `make schema` writes).

    Raises ValueError when a table's data does not survive JSON unchanged (a date, a set).
    """
    from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - only when generating

    tables: dict[str, object] = {}
    for name in TABLES:
        raw = (directory / name).read_bytes()
        _, data = load_bounded(raw.decode("utf-8"), shipped=True)
        try:
            same = json.loads(json.dumps(data)) == data
        except (TypeError, ValueError):  # a date, a set: no JSON form at all
            same = False
        if not same:
            msg = f"{name}: its data does not survive JSON unchanged"
            raise ValueError(msg)
        tables[name] = {"sha256": _digest(raw), "data": data}
    document = {"generated": _GENERATED, "format": FORMAT, "tables": tables}
    return json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
