"""Record and parse PyPI facts for torch, torchvision and torchaudio (and torchtext, torchdata).

The job: fetch the PEP 691 JSON simple-API pages (and one wheel's Requires-Dist per companion
version), trim them to the fields envgen uses, and write them to tests/data/recorded/pypi/ with
`--record`; `parse(raw_json)` turns one recording into facts and `load_recorded()` returns them all.
The fetch and parse code lives in envgen.verification.pypi; this script must not hold its own
copy of it, and parse/load_recorded must not touch the network.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, Final

from envgen.verification.pypi import (
    COMPANIONS,
    PACKAGES,
    PINNERS,
    PackageFacts,
    PypiFacts,
    fetch_requires_dist,
    fetch_simple,
    parse_simple,
)

RECORDED: Final = Path(__file__).resolve().parent.parent / "tests" / "data" / "recorded" / "pypi"
_KEEP: Final = ("filename", "upload-time", "requires-python", "yanked")


def trim(raw: dict[str, Any]) -> dict[str, Any]:
    """Keep only filename, upload-time, requires-python, yanked and the core-metadata hash."""
    files = []
    for f in raw.get("files", ()):
        row = {k: f.get(k) for k in _KEEP}
        meta = f.get("core-metadata", f.get("data-dist-info-metadata"))
        if isinstance(meta, dict) and "sha256" in meta:
            row["core-metadata"] = {"sha256": meta["sha256"]}
        files.append(row)
    return {"name": raw["name"], "meta": raw.get("meta", {}), "files": files}


def fetch_raw(name: str) -> dict[str, Any]:
    """One recording: the trimmed page plus, for companions, Requires-Dist per version."""
    raw = fetch_simple(name)
    out = trim(raw)
    if name in COMPANIONS or name in PINNERS:
        rd, chosen = fetch_requires_dist(raw)
        out["requires-dist"] = rd
        out["metadata-from"] = chosen
    return out


def parse(raw_json: dict[str, Any]) -> PackageFacts:
    """Facts from one recording (pure)."""
    return parse_simple(raw_json, raw_json.get("requires-dist"), raw_json.get("metadata-from"))


def load_recorded(directory: Path = RECORDED) -> PypiFacts:
    """Facts for every recorded package (the torch-pinning packages where recorded)."""
    packages = {}
    for name in (*PACKAGES, *PINNERS):
        path = directory / f"{name}.json"
        if name in PINNERS and not path.is_file():
            continue
        packages[name] = parse(json.loads(path.read_text(encoding="utf-8")))
    return PypiFacts(packages=packages)


def record(directory: Path = RECORDED, names: tuple[str, ...] = (*PACKAGES, *PINNERS)) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name in names:
        data = fetch_raw(name)
        text = json.dumps(data, indent=0, sort_keys=True, separators=(",", ":")) + "\n"
        (directory / f"{name}.json").write_text(text, encoding="utf-8")
        sys.stdout.write(f"recorded {name}: {len(data['files'])} files\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--record", action="store_true", help="fetch PyPI and rewrite recordings")
    parser.add_argument(
        "--only", nargs="+", choices=(*PACKAGES, *PINNERS), help="with --record: just these"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    if args.record:
        record(names=tuple(args.only) if args.only else (*PACKAGES, *PINNERS))
    facts = load_recorded()
    for name, pkg in facts.packages.items():
        newest = list(pkg.versions)[-1] if pkg.versions else "-"
        sys.stdout.write(f"{name}: {len(pkg.versions)} versions, newest {newest}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
