"""Record PyPI's PEP 691 file lists of the exact pins of corpus files, trimmed to those versions.

`envgen import` chooses a python from the exact pins of a file that names none
(envgen.repro.wheels); `scripts/corpus_accuracy.py` measures that offline, from the pages this
script records into tests/data/recorded/pypi-simple/<name>/index.json (the layout of a folder
index, which `wheels.lookup` reads from a `file:` URL). Each page keeps the file entries of the
versions the named corpus files pin, verbatim, merged with what the folder already holds; nothing
else of the page is kept but `meta` and `name`.

    .venv/bin/python scripts/record_pin_pages.py tests/data/real/<repo>/requirements.txt ...

Only the files named are read (a few requests each: one per pinned package); it never walks the
whole corpus.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final

from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    canonicalize_name,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from envgen.errors import EnvgenError
from envgen.infra.files import atomic_write_bytes
from envgen.infra.network import http_get
from envgen.repro.importer import parse_file
from envgen.repro.importer.repository import parse_repository
from envgen.repro.wheels import ACCEPT, MAX_LOOKUPS, MAX_RESPONSE_BYTES, PYPI_SIMPLE, exact_pins

ROOT: Final = Path(__file__).resolve().parent.parent
PAGES: Final = ROOT / "tests" / "data" / "recorded" / "pypi-simple"


def pins_of(source: Path) -> list[tuple[str, str]]:
    """The exact pins `envgen import` looks up for `source` (none where the file names a python)."""
    found = parse_repository(source) if source.is_dir() else parse_file(source)
    if found.python is not None or found.interpreter_image is not None:
        return []
    if found.torch is None and not found.companions:
        return []
    return exact_pins(found.pip_reqs)[:MAX_LOOKUPS]


def trimmed(page: dict[str, Any], versions: set[Version]) -> dict[str, Any]:
    """The page kept to the files of `versions` (file entries verbatim, sorted by file name)."""
    name = str(page.get("name", ""))
    kept = [f for f in page.get("files", []) if isinstance(f, dict) and _version(f) in versions]
    return {
        "files": sorted(kept, key=lambda f: str(f.get("filename"))),
        "meta": page.get("meta", {}),
        "name": name,
        "versions": sorted({str(v) for v in versions}, key=Version),
    }


def _version(item: dict[str, Any]) -> Version | None:
    filename = str(item.get("filename", ""))
    try:
        if filename.endswith(".whl"):
            return parse_wheel_filename(filename)[1]
        for suffix in (".zip", ".tar.bz2"):
            if filename.endswith(suffix):
                filename = filename[: -len(suffix)] + ".tar.gz"
        return parse_sdist_filename(filename)[1]
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None


def record(sources: list[Path]) -> int:
    wanted: dict[str, set[Version]] = {}
    for source in sources:
        for name, version in pins_of(source):
            try:
                wanted.setdefault(str(canonicalize_name(name)), set()).add(Version(version))
            except InvalidVersion:
                continue
    for name, versions in sorted(wanted.items()):
        path = PAGES / name / "index.json"
        old: dict[str, Any] = json.loads(path.read_text()) if path.is_file() else {}
        have = {Version(v) for v in old.get("versions", [])}
        if versions <= have:
            continue
        try:
            body = http_get(
                f"{PYPI_SIMPLE}/{name}/", headers={"Accept": ACCEPT}, timeout=30,
                max_bytes=MAX_RESPONSE_BYTES,
            ).body  # fmt: skip
        except EnvgenError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            continue
        page = trimmed(json.loads(body), versions | have)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, (json.dumps(page, indent=1, sort_keys=True) + "\n").encode())
        print(f"{name}: {', '.join(page['versions'])}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sources", nargs="+", type=Path, help="corpus files (or folders)")
    return record(parser.parse_args(argv).sources)


if __name__ == "__main__":
    sys.exit(main())
