"""Rebuild matrices/releases.yaml from recorded PyPI facts and recorded companion tables.

The job: one row per torch release (0.4.0 .. newest on PyPI, and the older ones the overrides
name). Companions come from PyPI
Requires-Dist `torch==X` pins (the lowest non-yanked companion that pins X); python versions and
dates from PyPI wheel tags and upload times; tests/data/recorded/companions/tables.yaml fills what
no pin decides and names the fields it fills in `inferred`. Prints a unified diff; writes only
with --write. `build_rows` is pure; this script must not touch the network (record first with
scripts/pypi_facts.py --record).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final

import yaml
from packaging.version import Version

from envgen.model.matrix import CompanionRelease, Release
from envgen.verification.pypi import COMPANIONS, PINNERS, PypiFacts, torch_specifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_diff
from pypi_facts import RECORDED, load_recorded
from refresh_matrix import dump_rows

ROOT: Final = Path(__file__).resolve().parent.parent
TABLES: Final = RECORDED.parent / "companions" / "tables.yaml"
OUTPUT: Final = ROOT / "matrices" / "releases.yaml"
FIRST: Final = Version("0.4.0")

HEADER: Final = """\
# releases.yaml: one row per torch release, oldest first. Written by scripts/refresh_releases.py
# (from tests/data/recorded/pypi/ and tests/data/recorded/companions/tables.yaml); never hand-edit.
#   torch        the release
#   torchvision  the torchvision release whose PyPI Requires-Dist pins torch==<torch> (the lowest
#                non-yanked one); otherwise from the table named in `source`
#   torchaudio   likewise for torchaudio; null when no torchaudio release goes with this torch
#   python       Python versions with cpXY wheels on PyPI (all platforms together)
#   pypi-wheels  per platform, the Pythons with a cpXY torch wheel on PyPI (from the recorded file
#                names): a Python in `python` may exist on one platform only (1.10.2: cp310 for
#                linux-aarch64, none for linux-64); empty when the release is not on PyPI
#   date         earliest upload of the release on PyPI (YYYY-MM-DD); for a release never on PyPI
#                (0.1.12-0.4.1) the day it came out, from the release record `source` names
#                (`inferred` lists date)
#   source       where the row's facts come from (pypi = pypi.org simple API and wheel METADATA)
#   inferred     fields NOT read from PyPI for this release (taken from `source` instead)
"""


def _pinned(facts: PypiFacts, name: str, torch: str) -> str | None:
    candidates = [
        v
        for v, vf in facts.package(name).versions.items()
        if not vf.yanked and vf.pins_torch() == torch
    ]
    return min(candidates, key=Version) if candidates else None


def build_rows(facts: PypiFacts, tables: dict[str, Any]) -> list[dict[str, Any]]:
    """The releases.yaml rows (pure)."""
    overrides = {o["torch"]: o for o in tables.get("overrides", ())}
    torch_versions = {v for v in facts.package("torch").versions if Version(v) >= FIRST}
    torch_versions |= set(overrides)
    rows = []
    for torch in sorted(torch_versions, key=Version):
        tf = facts.package("torch").get(torch)
        over = overrides.get(torch, {})
        inferred = list(over.get("inferred", ()))
        sources = ["pypi"] if tf else []
        row: dict[str, Any] = {"torch": torch}
        for name in COMPANIONS:
            pinned = _pinned(facts, name, torch)
            if pinned is not None and name not in over:
                row[name] = pinned
            else:
                row[name] = over.get(name)
        row["python"] = list(over["python"]) if "python" in over else list(tf.pythons if tf else ())
        row["pypi-wheels"] = [
            {"platform": platform, "python": list(pythons)}
            for platform, pythons in (tf.platform_pythons if tf else ())
        ]
        row["date"] = tf.date if tf else over.get("date")
        if over.get("source"):
            sources.append(over["source"])
        row["source"] = "; ".join(sources)
        row["inferred"] = [
            f for f in ("torchvision", "torchaudio", "python", "date") if f in inferred
        ]
        Release.model_validate(row)
        rows.append(row)
    return rows


COMPANIONS_OUTPUT: Final = ROOT / "matrices" / "companions.yaml"
COMPANIONS_HEADER: Final = """\
# companions.yaml: every torchvision and torchaudio release on PyPI and the torch releases its
# wheel accepts, and likewise torchtext and torchdata (whose exact pins tell `envgen import` the
# torch pip installs beside them). Written by scripts/refresh_releases.py from
# tests/data/recorded/pypi/; never hand-edit.
#   package  torchvision | torchaudio | torchtext | torchdata
#   version  the companion release
#   torch    the specifier of the `torch` line in the wheel's Requires-Dist (local labels
#            dropped); empty when the wheel names torch unpinned or not at all
#   source   the wheel whose METADATA was read
#   pypi-wheels  per platform, the Pythons with a cpXY wheel on PyPI (from the recorded file
#            names); empty for a pure-Python release (py2.py3-none-any wheels only)
# envgen pairs each torch release with the companion in releases.yaml; a user-pinned companion is
# also accepted where this file's specifier contains the torch release (see
# docs/reference/matrix.md, "Companions").
"""


def build_companion_rows(facts: PypiFacts) -> list[dict[str, Any]]:
    """The companions.yaml rows (pure): one per companion version with a wheel on PyPI."""
    rows = []
    for name in (*COMPANIONS, *PINNERS):
        for version, vf in sorted(
            facts.package(name).versions.items(), key=lambda kv: Version(kv[0])
        ):
            if vf.metadata_from is None:
                continue
            rows.append(
                {
                    "package": name,
                    "version": version,
                    "torch": torch_specifier(vf),
                    "source": f"pypi Requires-Dist ({vf.metadata_from})",
                    "pypi-wheels": [
                        {"platform": platform, "python": list(pythons)}
                        for platform, pythons in vf.platform_pythons
                    ],
                }
            )
    for row in rows:
        CompanionRelease.model_validate(row)
    return rows


def dump_companions(rows: list[dict[str, Any]]) -> str:
    """companions.yaml: one flow mapping per line, every value written (as JSON)."""
    return dump_rows(rows, COMPANIONS_HEADER, scalar=json.dumps, defaults={})


def dump(rows: list[dict[str, Any]]) -> str:
    """One flow mapping per line, keys in schema order, every value written (as JSON)."""
    return dump_rows(rows, HEADER, scalar=json.dumps, defaults={})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rebuild matrices/releases.yaml")
    parser.add_argument("--write", action="store_true", help="write instead of printing a diff")
    args = parser.parse_args(argv)
    tables = yaml.safe_load(TABLES.read_text(encoding="utf-8"))
    facts = load_recorded()
    outputs = {
        OUTPUT: dump(build_rows(facts, tables)),
        COMPANIONS_OUTPUT: dump_companions(build_companion_rows(facts)),
    }
    stale = [write_or_diff(path, new, write=args.write) for path, new in outputs.items()]
    return 1 if any(stale) else 0


if __name__ == "__main__":
    raise SystemExit(main())
