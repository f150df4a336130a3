"""How often `envgen import` is right on real files: accuracy per format and per era.

Reads the graded corpus (tests/data/real/SOURCES.yaml and CORPUS.yaml; with --heldout only
tests/data/real-heldout/SOURCES.yaml), imports every entry as a user would (`--as-of` the file's
commit date where the entry records one), compares the six keys project.yaml must get right
(python, torch, torchvision, torchaudio, accelerators, managers) with the graded answer, and
prints one table per format and per era, then every miss with what envgen said. The pins' file
lists come from tests/data/recorded/pypi-simple/ (a folder index), never from the network.

    .venv/bin/python scripts/corpus_accuracy.py             # the main corpus
    .venv/bin/python scripts/corpus_accuracy.py --heldout   # the held-out fifth: once, at the end

Exit status 0 whatever the accuracy (the threshold lives in
tests/unit/repro/test_corpus_accuracy.py); 2 for a corpus that cannot be read or a held-out set
that is not installed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import yaml

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from envgen.repro.importer.detect import is_definition

DATA: Final = Path(__file__).resolve().parent.parent / "tests" / "data"
MAIN: Final = (DATA / "real" / "SOURCES.yaml", DATA / "real" / "CORPUS.yaml")
HELDOUT: Final = (DATA / "real-heldout" / "SOURCES.yaml",)
KEYS: Final = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")
UNDATED: Final = "undated"
# PyPI's file lists of the pins whose python the corpus grades (scripts/record_pin_pages.py),
# read as a folder index: the pins' python is chosen as a user's online import chooses it, offline.
# A pin without a recorded page rules nothing out (a note, as an unreachable index gives).
PIN_PAGES: Final = DATA / "recorded" / "pypi-simple"

# CI files (read by envgen.repro.importer's CI reader), by name or by folder (.github/workflows/,
# .circleci/); checked before the patterns below, whose .yml would call them conda environments.
_CI_NAMES: Final = frozenset({".travis.yml", ".gitlab-ci.yml", "azure-pipelines.yml"})
# (format, pattern on the lower-cased file name), first match wins; a folder is "repository".
_FORMATS: Final = (
    ("conda-env", re.compile(r"\.ya?ml$")),
    ("requirements", re.compile(r"requirements[\w.-]*\.(txt|in)$|^requirements$")),
    ("dockerfile", re.compile(r"^dockerfile|\.dockerfile$")),
    ("shell", re.compile(r"\.(sh|bash)$")),
    ("batch", re.compile(r"\.(bat|cmd)$")),
    ("setup.py", re.compile(r"^setup\.py$")),
    ("setup.cfg", re.compile(r"^setup\.cfg$")),
    ("pyproject", re.compile(r"^pyproject\.toml$")),
    ("readme", re.compile(r"\.(md|rst|markdown)$")),
    ("pipfile", re.compile(r"^pipfile(\.lock)?$")),
    ("pixi", re.compile(r"^pixi\.(toml|lock)$")),
    ("conda-list", re.compile(r"^(conda[\w-]*list|spec-file|explicit)[\w.-]*\.txt$")),
    ("singularity", re.compile(r"^singularity(\.[\w-]+)?$")),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One graded entry and what envgen said about it."""

    entry: str
    fmt: str
    era: str
    expected: dict[str, Any]
    got: dict[str, Any]

    @property
    def hit(self) -> bool:
        return self.got == self.expected


def load(paths: tuple[Path, ...]) -> list[tuple[Path, dict[str, Any]]]:
    """Every entry of the manifests, with the folder its `import` is relative to."""
    entries: list[tuple[Path, dict[str, Any]]] = []
    for path in paths:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(raw, list):
            msg = f"{path}: expected a list of entries, got {type(raw).__name__}"
            raise ValueError(msg)
        entries.extend((path.parent, e) for e in raw)
    return entries


def file_format(root: Path, entry: dict[str, Any]) -> str:
    """The kind of input an entry is: its file name's format, or "repository" for a folder."""
    target = root / entry["import"]
    if target.is_dir():
        return "repository"
    low = target.name.lower()
    if low in _CI_NAMES or target.parent.name.lower() in {"workflows", ".circleci"}:
        return "ci"  # a CI file's YAML is not a conda environment
    found = next((name for name, pat in _FORMATS if pat.search(low)), "other")
    if found == "other" and low.endswith(".def") and is_definition(_opening(target)):
        return "singularity"  # an Apptainer definition file (its `Bootstrap:` header)
    if found == "other" and target.parent.name.lower() in {"dockerfiles", "docker"}:
        return "dockerfile"  # dockerfiles/cuda_torch04: a Dockerfile named for its variant
    return found


def _opening(path: Path) -> str:
    """The first 64 KiB of a file, decoded leniently (where its header is)."""
    with path.open("rb") as handle:
        return handle.read(65536).decode("utf-8", errors="replace")


def era(entry: dict[str, Any]) -> str:
    """The year of the entry's commit date, or "undated" (SOURCES.yaml predates the field)."""
    date = entry.get("date")
    return str(date)[:4] if date else UNDATED


def answer(root: Path, entry: dict[str, Any], matrix: Matrix) -> dict[str, Any]:
    """What `envgen import <file> --as-of <date>` writes for the six graded keys."""
    date = entry.get("date")
    options = ImportOptions(
        source=root / entry["import"],
        # Each entry's folder is a clone kept without its .git; a user imports inside the clone.
        checkout=root / Path(entry["import"]).parts[0],
        as_of=str(date) if date else None,
        pypi_index=PIN_PAGES.as_uri(),
    )
    try:
        result = run_import(options, matrix)
    except ImportSpecError:
        return {"refused": True}
    return {k: result.project.get(k) for k in KEYS}


def measure(
    paths: tuple[Path, ...], matrix: Matrix | None = None, *, jobs: int | None = None
) -> list[Outcome]:
    """Import every entry of the manifests and grade it, in file order: on `jobs` processes
    (default: one per CPU; each import is independent, and 2,000 files take minutes on one)."""
    items = list(load(paths))
    jobs = jobs or os.cpu_count() or 1
    if jobs <= 1 or len(items) < 2 * _CHUNK:
        return _graded(items, matrix or load_matrix())
    chunks = [items[i : i + _CHUNK] for i in range(0, len(items), _CHUNK)]
    context = multiprocessing.get_context("fork")  # the workers share this loaded module
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return [o for part in pool.map(_graded, chunks) for o in part]


_CHUNK: Final = 64  # entries a worker grades at a time


def _graded(
    items: list[tuple[Path, dict[str, Any]]], matrix: Matrix | None = None
) -> list[Outcome]:
    matrix = matrix or load_matrix()
    return [
        Outcome(e["import"], file_format(root, e), era(e), e["expected"], answer(root, e, matrix))
        for root, e in items
    ]


def table(outcomes: list[Outcome], by: str) -> list[tuple[str, int, int]]:
    """(group, right, total) per format or per era, sorted by group name."""
    groups: dict[str, list[bool]] = defaultdict(list)
    for o in outcomes:
        groups[o.fmt if by == "format" else o.era].append(o.hit)
    return [(g, sum(hits), len(hits)) for g, hits in sorted(groups.items())]


def render(outcomes: list[Outcome]) -> str:
    """The report: overall accuracy, a table per format and per era, then the misses."""
    right = sum(o.hit for o in outcomes)
    total = len(outcomes)
    lines = [f"{right}/{total} right ({100 * right / max(total, 1):.1f}%)", ""]
    for by in ("format", "era"):
        lines.append(f"{by:<12} {'right':>5} {'total':>5} {'%':>6}")
        for group, r, t in table(outcomes, by):
            lines.append(f"{group:<12} {r:>5} {t:>5} {100 * r / t:>6.1f}")
        lines.append("")
    misses = [o for o in outcomes if not o.hit]
    if misses:
        lines.append(f"misses ({len(misses)}):")
        lines.extend(f"  {o.entry} [{o.fmt}, {o.era}]: {_difference(o)}" for o in misses)
    return "\n".join(lines)


def _difference(o: Outcome) -> str:
    """What differs between the graded answer and envgen's, key by key in a fixed order."""
    if o.got == {"refused": True}:
        return f"envgen refused (no torch found); expected {_show(o.expected)}"
    if o.expected == {"refused": True}:
        return f"expected a refusal; envgen {_show(o.got)}"
    keys = [k for k in KEYS if o.got.get(k) != o.expected.get(k)]
    want = {k: o.expected.get(k) for k in keys}
    return f"expected {_show(want)}, envgen {_show({k: o.got.get(k) for k in keys})}"


def _show(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={values[k]}" for k in sorted(values, key=_key_order))


def _key_order(key: str) -> int:
    return KEYS.index(key) if key in KEYS else len(KEYS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--heldout", action="store_true", help="measure tests/data/real-heldout/ instead"
    )
    args = parser.parse_args(argv)
    if args.heldout and not HELDOUT[0].is_file():
        print(f"error: no held-out set: {HELDOUT[0]} is absent", file=sys.stderr)
        return 2
    try:
        outcomes = measure(HELDOUT if args.heldout else MAIN)
    except (OSError, ValueError, KeyError, yaml.YAMLError) as exc:
        print(f"error: the corpus cannot be read: {exc}", file=sys.stderr)
        return 2
    print(render(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
