"""Rebuild matrices/era.yaml: per torch release, the newest first upload among torch and the
companions releases.yaml pairs with it (recorded PyPI upload times).

envgen.model.era adds the documented window to that date for a release's default resolution
date. Prints a unified diff; writes only with --write; never touches the network (record first
with scripts/pypi_facts.py --record). `build_rows` is pure.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final

import yaml
from packaging.version import Version

from envgen.verification.pypi import PypiFacts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_diff
from pypi_facts import load_recorded
from refresh_matrix import dump_rows

ROOT: Final = Path(__file__).resolve().parent.parent
RELEASES: Final = ROOT / "matrices" / "releases.yaml"
OUTPUT: Final = ROOT / "matrices" / "era.yaml"

HEADER: Final = """\
# era.yaml: the era of each torch release on PyPI. Written by scripts/refresh_era.py from
# tests/data/recorded/pypi/ (upload times of the PEP 691 simple API) and matrices/releases.yaml
# (which torchvision / torchaudio go with each release); never hand-edit.
#   torch   the release
#   date    the newest of the first-upload dates (YYYY-MM-DD) of torch and its companions
#   basis   which package and version gave that date
# envgen.model.era adds its window (ERA_WINDOW_DAYS) to `date` for the default resolution date of
# an old release's unpinned dependencies (docs/reference/project-yaml.md, lock.exclude_newer).
"""


def build_rows(facts: PypiFacts, releases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per release whose torch is on PyPI (pure)."""
    rows = []
    for release in sorted(releases, key=lambda r: Version(r["torch"])):
        dated = []
        for name in ("torch", "torchvision", "torchaudio"):
            version = release.get(name)
            found = facts.package(name).get(version) if version else None
            if found is not None and found.date:
                dated.append((found.date, name, version))
        if not any(name == "torch" for _, name, _ in dated):
            continue
        date, name, version = max(dated)
        rows.append({"torch": release["torch"], "date": date, "basis": f"{name} {version}"})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rebuild matrices/era.yaml")
    parser.add_argument("--write", action="store_true", help="write instead of printing a diff")
    args = parser.parse_args(argv)
    releases = yaml.safe_load(RELEASES.read_text(encoding="utf-8"))
    new = dump_rows(build_rows(load_recorded(), releases), HEADER, scalar=json.dumps, defaults={})
    return 1 if write_or_diff(OUTPUT, new, write=args.write) else 0


if __name__ == "__main__":
    raise SystemExit(main())
