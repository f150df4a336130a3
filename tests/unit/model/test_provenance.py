"""Every matrix row says where it comes from (issue 23 item 1, the project brief's ground rules).

For every file under matrices/ and every family in it (a file, a section of a file, or one
extension in extensions.yaml), each row's source must be a locator a reader can follow without
envgen: a public URL, or `owner/repo@commit[:path]` (a git object at a commit). Private lookup
ids of a search index are never a source, and neither are bare words. A few short citation forms
the matrix has always used stand for exactly one such locator; they are listed in ABBREVIATIONS
with the locator they expand to (docs/reference/matrix.md, "Sources"). A row marked `inferred`
must say the rule that inferred it. No family or row is excused: a row with no public source
is removed, not listed (gpu-archs.yaml's 2.6-2.7 copies went that way, issue 23).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
import yaml

ROOT: Final = Path(__file__).parents[3]
MATRICES: Final = ROOT / "matrices"

URL: Final = re.compile(r"https?://[^\s'\")]+")
# owner/repo@<commit>[:path]; `github:` in front is allowed (the fetch tool's spelling)
GIT_REF: Final = re.compile(r"(?<![\w./-])[\w.-]+/[\w.-]+@[0-9a-f]{7,40}\b(?::\S+)?")
# what a search index's private ids look like when pasted into a source
LOOKUP_ID: Final = re.compile(
    r"\b(?:stored id|read_file|find_string|find_files|lookup id|id \d{6,})\b|\bid=\d+",
    re.IGNORECASE,
)

# Citation forms that stand for one public locator each: (pattern, the locator it expands to).
# The expansion uses the pattern's named groups; `{package}` is the row's package (PyPI forms).
ABBREVIATIONS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (
        re.compile(r"^previous-versions@(?P<commit>[0-9a-f]{7,40})\b"),
        "pytorch/pytorch.github.io@{commit}:_get_started/previous-versions.md",
    ),
    (
        # copies of the rendered page (tests/data/recorded/SOURCES.md): the page itself
        re.compile(r"^previous-versions (?:copy )?\("),
        "https://pytorch.org/get-started/previous-versions/",
    ),
    (
        re.compile(r"^published_versions\.json@(?P<commit>[0-9a-f]{7,40})\b"),
        "pytorch/pytorch.github.io@{commit}:published_versions.json",
    ),
    (
        re.compile(
            r"^(?:pytorch/)?test-infra generate_binary_build_matrix\.py\b[^;]*?"
            r"\bat (?P<commit>[0-9a-f]{7,40})\b"
        ),
        "pytorch/test-infra@{commit}:tools/scripts/generate_binary_build_matrix.py",
    ),
    (
        re.compile(
            r"^(?P<repo>conda-forge/[\w.-]+-feedstock) \.ci_support@(?P<commit>[0-9a-f]{7,})"
        ),
        "{repo}@{commit}:.ci_support/",
    ),
    (
        # PyPI's own files: wheel names, tags, Requires-Dist, version.py, the simple API
        re.compile(r"^(?:pypi|PyPI)(?:-wheel)?\b"),
        "https://pypi.org/simple/{package}/",
    ),
)


# Files whose header states the one rule behind every `inferred: true` row.
FILE_RULES: Final = {
    "cuda-images.yaml": " the status was not checked for this tag: the tag shape of its neighbours",
}


@dataclass(frozen=True, slots=True)
class Row:
    family: str
    where: str  # file and index, for messages
    data: dict[str, Any]


def _source(data: dict[str, Any]) -> str | None:
    for key in ("source", "link", "evidence"):
        if data.get(key):
            return str(data[key])
    return None


def _package(family: str, data: dict[str, Any]) -> str:
    for key in ("package", "name"):
        if data.get(key):
            return str(data[key])
    if family.startswith("era"):
        return str(data["basis"]).split()[0]
    return "torch"


def locator(family: str, data: dict[str, Any]) -> str | None:
    """The public locator a row's source names (None: it names none)."""
    source = _source(data)
    if family == "era.yaml":
        # era rows are PyPI upload dates: `basis` names the package and version that gave it
        source = f"PyPI {data['basis']}"
    if source is None:
        return None
    for found in (URL.search(source), GIT_REF.search(source)):
        if found:
            return found.group(0)
    for pattern, template in ABBREVIATIONS:
        m = pattern.search(source)
        if m:
            return template.format(**m.groupdict(), package=_package(family, data))
    return None


def problems(row: Row) -> list[str]:
    out = []
    source = _source(row.data)
    if source is not None and LOOKUP_ID.search(source):
        out.append(f"{row.where}: a private lookup id in its source: {source[:120]!r}")
    elif locator(row.family, row.data) is None:
        shown = source[:120] if source else "(no source)"
        out.append(f"{row.where}: no public URL or owner/repo@commit:path in {shown!r}")
    if row.data.get("inferred") is True:
        # the rule: a note, the source or message saying what was read and what was assumed,
        # `pinned: false` (conda.yaml: the page names no versions; the pins are the same
        # section's pip pins), or the one rule a file's header states for all its rows
        rule = " ".join(
            str(row.data.get(k) or "") for k in ("note", "source", "message")
        ) + FILE_RULES.get(row.family, "")
        if row.data.get("pinned") is False:
            rule += " the page names no versions: the pins are its pip commands' pins"
        if len(rule.split()) < 6:
            out.append(f"{row.where}: inferred without the rule that inferred it")
    return out


def _rows_of(name: str, loaded: object) -> list[Row]:
    stem = name
    out: list[Row] = []
    sections = loaded.items() if isinstance(loaded, dict) else [("", loaded)]
    for section, rows in sections:
        if not isinstance(rows, list):
            continue
        for i, data in enumerate(rows):
            if not isinstance(data, dict):
                continue
            family = f"{stem}:{section}" if section else stem
            if stem == "extensions.yaml":
                # one extension is a family; its rows are its indexes and its builds, each
                # with its own source or else the extension's
                family = f"extensions.yaml:{data['name']}"
                for part in ("indexes", "builds"):
                    for j, sub in enumerate(data.get(part, ())):
                        own = {**sub, "source": sub.get("source") or data.get("source")}
                        out.append(Row(family, f"{family}.{part}[{j}]", own))
                continue
            out.append(Row(family, f"{family}[{i}]", data))
    return out


def all_rows() -> list[Row]:
    out: list[Row] = []
    for path in sorted(MATRICES.glob("*.yaml")):
        out += _rows_of(path.name, yaml.safe_load(path.read_text(encoding="utf-8")))
    return out


ROWS: Final = all_rows()
FAMILIES: Final = sorted({r.family for r in ROWS})


def family_problems(family: str) -> list[str]:
    return [p for r in ROWS if r.family == family for p in problems(r)]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_row_cites_a_public_locator(family: str) -> None:
    assert family_problems(family) == []


def test_every_matrix_file_is_covered() -> None:
    names = {p.name for p in MATRICES.glob("*.yaml")}
    assert names == {f.split(":")[0] for f in FAMILIES}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "https://github.com/pytorch/builder/blob/abc/x.sh",
            "https://github.com/pytorch/builder/blob/abc/x.sh",
        ),
        (
            "pytorch/builder@0123456789abcdef:manywheel/build.sh (release/2.1)",
            "pytorch/builder@0123456789abcdef:manywheel/build.sh",
        ),
        (
            "previous-versions@e3f009b",
            "pytorch/pytorch.github.io@e3f009b:_get_started/previous-versions.md",
        ),
        (
            "test-infra generate_binary_build_matrix.py release arches at 0cd5e78a12 (x)",
            "pytorch/test-infra@0cd5e78a12:tools/scripts/generate_binary_build_matrix.py",
        ),
        (
            "pypi Requires-Dist (torchvision-0.8.1-cp36-cp36m-manylinux1_x86_64.whl)",
            "https://pypi.org/simple/torchvision/",
        ),
        ("the maintainers said so", None),
        ("issue 11 of this project", None),
        ("pytorch/builder (main)", None),
    ],
)
def test_locator_forms(source: str, expected: str | None) -> None:
    assert locator("x.yaml", {"source": source, "package": "torchvision"}) == expected


def test_lookup_ids_and_ruleless_inferred_rows_are_problems() -> None:
    row = Row("x.yaml", "x.yaml[0]", {"source": "stored id 53213865846 of a copy"})
    assert problems(row) == [
        "x.yaml[0]: a private lookup id in its source: 'stored id 53213865846 of a copy'"
    ]
    row = Row("x.yaml", "x.yaml[1]", {"source": "https://pypi.org/x", "inferred": True})
    assert problems(row) == ["x.yaml[1]: inferred without the rule that inferred it"]
