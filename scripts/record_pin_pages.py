"""Record PyPI's PEP 691 file lists of the exact pins of corpus files, trimmed to those versions.

`envgen import` chooses a python from the exact pins of a file that names none
(envgen.repro.wheels); `scripts/corpus_accuracy.py` measures that offline, from the pages this
script records into tests/data/recorded/pypi-simple/<name>/index.json (the layout of a folder
index, which `wheels.lookup` reads from a `file:` URL). Each page keeps the file entries of the
versions the named corpus files pin, verbatim, merged with what the folder already holds; nothing
else of the page is kept but `meta` and `name`.

    .venv/bin/python scripts/record_pin_pages.py tests/data/real/<repo>/requirements.txt ...

Only the files named are read (a few requests each: one per pinned package); it never walks the
whole corpus. For a named file that names no torch (or torch without torchvision or
torchaudio), it also records what envgen.repro.through reads: the page of each package the file
installs (trimmed to the version chosen) and that wheel's core metadata as
`<name>/<wheel file name>.metadata`, trimmed to its Name, Version and Requires-Dist lines.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Final

import yaml
from packaging.requirements import InvalidRequirement, Requirement
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
from envgen.repro.entry import installed_over
from envgen.repro.importer import parse_file
from envgen.repro.importer.evidence import Evidence
from envgen.repro.importer.repository import parse_repository
from envgen.repro.through import (
    brought_in,
    chosen_version,
    family_to_read,
    metadata_file,
    sdist_file,
)
from envgen.repro.wheels import ACCEPT, MAX_LOOKUPS, MAX_RESPONSE_BYTES, PYPI_SIMPLE, exact_pins

ROOT: Final = Path(__file__).resolve().parent.parent
PAGES: Final = ROOT / "tests" / "data" / "recorded" / "pypi-simple"


def _parsed(source: Path) -> Evidence:
    """`source` read as the measure reads it: a corpus file with its entry's folder as the
    checkout (the copies keep no .git, so a helper script reaches the root only through it)."""
    if source.is_dir():
        return parse_repository(source)
    data = (ROOT / "tests" / "data").resolve()
    for folder in (data / "real", data / "real-heldout"):
        try:
            rel = source.resolve().relative_to(folder)
        except ValueError:
            continue
        return parse_file(source, checkout=folder / rel.parts[0])
    return parse_file(source)


def pins_of(source: Path) -> list[tuple[str, str]]:
    """The exact pins `envgen import` looks up for `source` (none where the file names a python)."""
    found = _parsed(source)
    if found.python is not None or found.interpreter_image is not None:
        return []
    if found.torch is None and not found.companions and not found.pip_reqs:
        return []  # (a file that names no torch may install one through its packages)
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


def through_of(source: Path, cache: Path) -> list[tuple[str, str, str, str]]:
    """(name, version, wheel file name, trimmed metadata) of each package whose Requires-Dist
    `envgen import` reads for `source` (a file that names no torch, or names torch but not
    torchvision or torchaudio: envgen.repro.entry._through_dependencies; the packages pip
    installs over an image's or conda's torch: envgen.repro.entry.installed_over)."""
    found = _parsed(source)
    if found.unreadable is not None:
        return []
    missing = family_to_read(found.torch is not None, set(found.companions))
    # the lookups run_import makes: (requirements, the python their releases are chosen for)
    lookups: list[tuple[list[str], str | None]] = []
    if missing:
        lookups.append(([*found.pip_reqs, *found.url_packages], None))  # _through_dependencies
    if later := installed_over(found):
        lookups.append((later, found.python or found.image_python))  # _floors_over_installed
    as_of = _date_of(source)
    out: list[tuple[str, str, str, str]] = []
    for requirements, python in lookups:
        brought_in(
            requirements, index=PYPI_SIMPLE, cache_dir=cache, as_of=as_of, timeout=30,
            python=python,
        )  # fmt: skip
        out += _recorded(requirements, cache, as_of, python)
    return out


def _recorded(
    requirements: list[str], cache: Path, as_of: dt.date | None, python: str | None
) -> list[tuple[str, str, str, str]]:
    """(name, version, wheel file name, trimmed metadata) of what brought_in read for them."""
    folder = next(iter(cache.glob("*/")), None)
    out: list[tuple[str, str, str, str]] = []
    for name, specifier in _named(requirements):
        page_path = folder / f"{name}.json" if folder else None
        if page_path is None or not page_path.is_file():
            continue
        page = json.loads(page_path.read_text())
        version = chosen_version(specifier, page, name, as_of, python)
        item = (
            metadata_file(name, version, page) or sdist_file(name, version, page)
            if version is not None
            else None
        )
        if item is None or version is None:
            continue
        meta = folder / "metadata" / f"{item['filename']}.metadata"  # type: ignore[operator]
        if meta.is_file():
            keep = [
                line for line in meta.read_text(errors="replace").splitlines()
                if line.split(":", 1)[0].lower() in {"metadata-version", "name", "version",
                                                     "requires-dist"}
            ]  # fmt: skip
            out.append((name, str(version), str(item["filename"]), "\n".join(keep) + "\n"))
    return out


def _named(requirements: list[str]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for text in requirements:
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        out.append((str(canonicalize_name(req.name)), str(req.specifier)))
    return out


def _date_of(source: Path) -> dt.date | None:
    """The commit date the corpus records for the file (what the measure imports --as-of): from
    tests/data/real/CORPUS.yaml or the held-out tests/data/real-heldout/SOURCES.yaml."""
    data = ROOT / "tests" / "data"
    for manifest in (data / "real" / "CORPUS.yaml", data / "real-heldout" / "SOURCES.yaml"):
        try:
            rel = source.resolve().relative_to(manifest.parent.resolve()).as_posix()
        except ValueError:
            continue
        if not manifest.is_file():
            return None
        for entry in yaml.safe_load(manifest.read_text()):
            if entry.get("import") == rel and entry.get("date"):
                return dt.date.fromisoformat(str(entry["date"]))
    return None


def record(sources: list[Path]) -> int:
    wanted: dict[str, set[Version]] = {}
    for source in sources:
        for name, version in pins_of(source):
            try:
                wanted.setdefault(str(canonicalize_name(name)), set()).add(Version(version))
            except InvalidVersion:
                continue
        with tempfile.TemporaryDirectory() as cache:
            for name, version, filename, text in through_of(source, Path(cache)):
                wanted.setdefault(name, set()).add(Version(version))
                path = PAGES / name / f"{filename}.metadata"
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_bytes(path, text.encode())
                print(f"{name}: {filename}.metadata")
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
