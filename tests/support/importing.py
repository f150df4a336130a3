"""What `envgen import` answers for a file, as the six keys the corpus grades
(tests/data/real/CORPUS.yaml): the draw tests compare these with the fact-graded answer.

    got = import_keys(text, "install.sh", matrix, "2024-01-01")
    assert got["torch"] == "2.1.2"
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Final

from envgen.model.matrix import Matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text

KEYS: Final = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")


def import_keys(text: str, filename: str, matrix: Matrix, as_of: str) -> dict[str, object]:
    """Import `text` as a file named `filename` dated `as_of`; the graded keys of the answer."""
    result = import_text(text, filename=filename, matrix=matrix, as_of=dt.date.fromisoformat(as_of))
    return {k: result.project.get(k) for k in KEYS}


def import_file_keys(path: Path, matrix: Matrix, as_of: str) -> dict[str, object]:
    """Import the file at `path` (its folder is the checkout it reads); the graded keys."""
    result = run_import(ImportOptions(source=path, as_of=as_of), matrix)
    return {k: result.project.get(k) for k in KEYS}
