"""The docs agree with the code: exit codes, project.yaml keys, CLI commands, relative links.

Commands are read from the live CLI, so a command someone adds must be documented in
docs/reference/cli.md, and a command that does not exist yet is not required.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import click
import pytest

from envgen.cli import cli
from envgen.errors import EXIT_CODES, OTHER_EXIT_CODES
from envgen.model.spec_rules import CI_KEYS, CONDA_KEYS, KNOWN_KEYS, LOCK_KEYS

ROOT: Final = Path(__file__).resolve().parents[3]
DOCS: Final = ROOT / "docs"
CLI_MD: Final = DOCS / "reference" / "cli.md"
PROJECT_YAML_MD: Final = DOCS / "reference" / "project-yaml.md"

_FENCE: Final = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_LINK: Final = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_INLINE_CODE: Final = re.compile(r"`[^`\n]*`")


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _headings(text: str) -> list[str]:
    text = _FENCE.sub("", text)
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


# --- exit codes --------------------------------------------------------------------------------
def _exit_code_rows() -> dict[str, int]:
    """`| code | `Name` | meaning |` rows of cli.md's exit-code table: class name -> code."""
    rows: dict[str, int] = {}
    for line in _read(CLI_MD).splitlines():
        m = re.match(r"^\|\s*(\d+)\s*\|\s*`(\w+)`\s*\|", line)
        if m:
            rows[m.group(2)] = int(m.group(1))
    return rows


def _other_exit_code_rows() -> dict[str, int]:
    """`| code | name | meaning |` rows of the table of codes no error class carries."""
    rows: dict[str, int] = {}
    for line in _read(CLI_MD).splitlines():
        m = re.match(r"^\|\s*(\d+)\s*\|\s*([a-z]+)\s*\|", line)
        if m:
            rows[m.group(2)] = int(m.group(1))
    return rows


def test_exit_code_table_matches_errors_py() -> None:
    assert _exit_code_rows() == EXIT_CODES


def test_other_exit_code_table_matches_errors_py() -> None:
    assert _other_exit_code_rows() == OTHER_EXIT_CODES


def test_no_exit_code_is_written_outside_errors_py() -> None:
    """`sys.exit(4)` or `SystemExit(130)` in envgen/: a code that bypasses the table."""
    literal = re.compile(r"(?:sys\.exit|SystemExit)\(\s*-?\d+")
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "envgen").rglob("*.py"))
        if path.name != "script.py"  # the smoke script runs in the user's env, not envgen's CLI
        for n, line in enumerate(_read(path).splitlines(), 1)
        if literal.search(line) and not line.strip().startswith(('"', "'"))  # generated code
    ]
    assert found == []


# --- project.yaml keys -------------------------------------------------------------------------
def _documented_keys() -> set[str]:
    return {
        m.group(1)
        for h in _headings(_read(PROJECT_YAML_MD))
        for m in [re.fullmatch(r"`([\w.]+)`", h)]
        if m
    }


@pytest.mark.parametrize(
    "key",
    [
        *KNOWN_KEYS,
        *(f"conda.{k}" for k in CONDA_KEYS),
        *(f"lock.{k}" for k in LOCK_KEYS),
        *(f"ci.{k}" for k in CI_KEYS),
    ],
)
def test_every_project_yaml_key_has_a_section(key: str) -> None:
    assert key in _documented_keys(), f"docs/reference/project-yaml.md has no `### `{key}`` section"


def test_project_yaml_documents_no_unknown_key() -> None:
    known = set(KNOWN_KEYS) | {
        f"{parent}.{k}"
        for parent, keys in (("conda", CONDA_KEYS), ("lock", LOCK_KEYS), ("ci", CI_KEYS))
        for k in keys
    }
    assert _documented_keys() <= known


# --- CLI commands ------------------------------------------------------------------------------
def _walk(group: click.Group, prefix: str = "envgen") -> Iterator[tuple[str, click.Command]]:
    for name in sorted(group.commands):
        command = group.commands[name]
        path = f"{prefix} {name}"
        yield path, command
        if isinstance(command, click.Group):
            yield from _walk(command, path)


COMMANDS: Final = dict(_walk(cli))


def _section(text: str, heading: str) -> str:
    """The body under the heading `## `<heading>`` up to the next heading (code blocks removed)."""
    text = _FENCE.sub("", text)
    pattern = rf"^#+ `{re.escape(heading)}`[^\n]*\n(.*?)(?=^#|\Z)"
    m = re.search(pattern, text, re.MULTILINE | re.DOTALL)
    return m.group(1) if m else ""


def test_the_cli_has_commands() -> None:
    assert {"envgen lock", "envgen list", "envgen matrix"} <= set(COMMANDS)


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_every_command_has_a_section(path: str) -> None:
    headings = _headings(_read(CLI_MD))
    assert any(h.startswith(f"`{path}`") for h in headings), (
        f"docs/reference/cli.md has no `## `{path}`` section"
    )


@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_every_option_is_documented(path: str) -> None:
    command = COMMANDS[path]
    body = _section(_read(CLI_MD), path)
    missing = [
        opt
        for param in command.params
        if isinstance(param, click.Option)
        for opt in param.opts
        if opt.startswith("--") and opt not in body
    ]
    assert not missing, f"{path}: options missing from its section in cli.md: {missing}"


def test_cli_md_documents_no_command_that_does_not_exist() -> None:
    documented = {
        m.group(1)
        for h in _headings(_read(CLI_MD))
        for m in [re.match(r"`(envgen [a-z][a-z -]*)`", h)]
        if m
    }
    assert documented <= set(COMMANDS), documented - set(COMMANDS)


# --- relative links ----------------------------------------------------------------------------
DOC_FILES: Final = sorted(
    [
        *DOCS.rglob("*.md"),
        *(p for p in (ROOT / "README.md", ROOT / "CONTRIBUTING.md") if p.exists()),
        *(p for p in (ROOT / "environments" / "README.md",) if p.exists()),
    ]
)


def _relative_links(path: Path) -> list[str]:
    text = _INLINE_CODE.sub("", _FENCE.sub("", _read(path)))
    out = []
    for target in _LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or an anchor in the same page
        out.append(target.split("#", 1)[0])
    return out


def test_docs_exist() -> None:
    assert CLI_MD.exists()
    assert PROJECT_YAML_MD.exists()
    assert len(DOC_FILES) >= 5


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path: Path) -> None:
    broken = [t for t in _relative_links(path) if not (path.parent / t).exists()]
    assert not broken, f"{path.relative_to(ROOT)}: broken links: {broken}"


def test_the_docs_matrix_validate_output_is_the_shipped_matrixs() -> None:
    """Each doc that shows `envgen matrix validate`'s output shows what it prints today."""
    import os

    from envgen.app import matrix_validate
    from envgen.infra.settings import Settings

    want = matrix_validate(None, Settings.from_environ(os.environ))
    root = Path(__file__).parents[3]
    docs = [
        "docs/reference/cli.md",
        "docs/reference/matrix.md",
        "docs/how-to/add-a-torch-release.md",
    ]
    for doc in docs:
        shown = [
            ln
            for ln in (root / doc).read_text(encoding="utf-8").splitlines()
            if ln.startswith("matrix ok:")
        ]
        assert shown == [want], doc


def test_every_file_the_concept_table_names_exists() -> None:
    """CONTRIBUTING.md's "Where each concept lives": each `envgen/...` path it names is a file."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("**Where each concept lives.**", 1)[1].split("\n\n**", 1)[0]
    named = re.findall(r"`(envgen/[\w/]+\.py)`", section)
    assert len(named) > 40
    assert [p for p in named if not (ROOT / p).is_file()] == []


def test_the_concept_table_names_every_module() -> None:
    """Each module of envgen/ (but a package's __init__.py) is the owner of a concept in
    CONTRIBUTING.md's table: a bare `name.py` in a row is in the folder of the path before it."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("**Where each concept lives.**", 1)[1].split("\n\n**", 1)[0]
    named: set[str] = set()
    for row in [ln for ln in section.splitlines() if ln.startswith("| ")][1:]:
        folder = ""
        for path in re.findall(r"(envgen/[\w/]+\.py|\b\w+\.py)", row.split("|")[2]):
            if path.startswith("envgen/"):
                folder = path.rsplit("/", 1)[0]
                named.add(path)
            elif folder:
                named.add(f"{folder}/{path}")
    modules = {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "envgen").rglob("*.py")
        if p.name != "__init__.py" or p.parent.name == "app"
    }
    assert sorted(modules - named) == []
