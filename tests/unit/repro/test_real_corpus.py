"""The real-repository corpus (tests/data/real/SOURCES.yaml): every entry imports as expected.

Expected answers were worked out from the files and primary facts (PyTorch's previous-versions
page, PyPI), not from envgen's output; entries marked `miss` are where envgen's answer differs,
each with its reason (docs/how-to/reproduce-a-paper.md lists them). The test holds both: a hit
must stay a hit, a recorded miss must still be the miss it says (so fixing one updates the table).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions

REAL = Path(__file__).parents[2] / "data" / "real"
# PyPI's file lists of the pins whose python an entry grades, recorded (scripts/record_pin_pages.py)
# and read as a folder index, as scripts/corpus_accuracy.py reads them: never the network.
PIN_PAGES = REAL.parent / "recorded" / "pypi-simple"
ENTRIES: list[dict[str, Any]] = yaml.safe_load((REAL / "SOURCES.yaml").read_text())
KEYS = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _answer(entry: dict[str, Any], matrix: Matrix) -> dict[str, Any]:
    try:
        date = entry.get("date")  # as scripts/corpus_accuracy.py imports it: --as-of its date
        options = ImportOptions(
            source=REAL / entry["import"],
            as_of=str(date) if date else None,
            pypi_index=PIN_PAGES.as_uri(),
        )
        result = run_import(options, matrix)
    except ImportSpecError:
        return {"refused": True}
    return {k: result.project.get(k) for k in KEYS}


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["import"] for e in ENTRIES])
def test_real_file(entry: dict[str, Any], matrix: Matrix) -> None:
    got = _answer(entry, matrix)
    if "miss" in entry:
        assert got != entry["expected"], "a recorded miss now imports right: drop its `miss`"
    else:
        assert got == entry["expected"]


@pytest.mark.parametrize(
    "entry", [e for e in ENTRIES if "extensions" in e], ids=lambda e: e["import"]
)
def test_real_file_keeps_its_extensions(entry: dict[str, Any], matrix: Matrix) -> None:
    """Compiled extensions the file installs (wheel URLs, -f pages) stay, pinned, in `pip:`."""
    result = run_import(
        ImportOptions(source=REAL / entry["import"], pypi_index=PIN_PAGES.as_uri()), matrix
    )
    raw = result.project.get("pip") or []
    assert isinstance(raw, list)
    pip = [str(r) for r in raw]
    assert [r for r in pip if r in entry["extensions"]] == entry["extensions"]
    assert not [r for r in pip if "://" in r]


def test_corpus_is_recorded_with_sources() -> None:
    for entry in ENTRIES:
        assert (REAL / entry["import"]).exists(), entry["import"]
        assert entry["repo"].count("/") == 1
        assert entry["commit"]
        assert entry["why"]
    repos = {e["repo"] for e in ENTRIES}
    layouts = [e for e in ENTRIES if (REAL / e["import"]).is_dir()]
    hits = [e for e in ENTRIES if "miss" not in e]
    # The numbers the docs report (docs/how-to/reproduce-a-paper.md).
    assert (len(ENTRIES), len(repos), len(layouts), len(hits)) == (62, 56, 5, 62)
