"""Source formats `envgen import` reads beyond environment.yml, requirements.txt and shell.

Each function turns one format into what envgen.repro.importer already understands (conda match
specs,
pip requirement strings, shell text), with the line each came from. Nothing here executes the
file: setup.py is read with `ast` (only literal lists of strings count), pyproject.toml with
tomllib, setup.cfg with configparser; fenced blocks come from Markdown / reStructuredText.
"""

from __future__ import annotations

import ast
import configparser
import re
import tomllib
from dataclasses import dataclass, field
from typing import Final

# `name=version=build` (conda list --export) or `name=version` lines, and the export header.
_EXPORT_LINE: Final = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.+-]*)=([^=\s]+)=([^=\s]+)$")
_EXPORT_HEADER: Final = re.compile(
    r"(?m)^#\s*(platform:\s*\S+|\$ conda create --name <env> --file <this file>)"
)
_TABLE_HEADER: Final = re.compile(r"(?m)^#\s*Name\s+Version\s+Build(\s+Channel)?\s*$")
_FENCE: Final = re.compile(r"^(\s*)(```+|~~~+)\s*([A-Za-z0-9_+-]*)")
_SHELL_LANGS: Final = frozenset({"", "bash", "sh", "shell", "console", "zsh", "shell-session"})
_BATCH_LANGS: Final = frozenset({"bat", "batch", "cmd", "dosbatch", "winbatch"})
# Fence labels that are never a shell session (their `pip install` is Python or data).
_NOT_SHELL: Final = frozenset(
    {"python", "py", "python3", "ipython", "yaml", "yml", "json", "toml", "ini", "cfg",
     "dockerfile", "docker", "c", "cpp", "cuda", "latex", "tex", "bibtex", "powershell", "ps1"}
)  # fmt: skip
_INLINE: Final = re.compile(r"(`{1,3})([^`]+)\1")
_INSTALLS: Final = re.compile(r"\b(pip3?|conda|mamba)\s+(install|create)\b")
_TAG: Final = re.compile(r"</?\w+[^<>]*>")  # [^>]* rescanned the line from every `<`: quadratic
_PROMPT: Final = re.compile(r"^\s*(\(\S+\)\s*)?[$%>]\s+")


@dataclass(slots=True)
class Declared:
    """Requirements a Python package declares (setup.py, setup.cfg, pyproject.toml)."""

    requirements: list[tuple[int, str]] = field(default_factory=list)  # (line, requirement)
    python_requires: tuple[int, str] | None = None
    warnings: list[str] = field(default_factory=list)
    # Why the file could not be read at all (nested too deep for the parser): an error for this
    # file; a repository import skips it and reads the others (issue 21 item 7).
    refused: str | None = None


def _too_deep(source: str, what: str) -> str:
    return (
        f"{source}: {what} is nested too deeply to read (more than Python's recursion limit of "
        "nested brackets or terms); refused: no real environment file looks like this"
    )


def is_conda_list(text: str) -> bool:
    """`conda list --export` or `conda list` output (often saved as requirements.txt).

    >>> is_conda_list("# platform: linux-64\\npytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0\\n")
    True
    >>> is_conda_list("torch==1.6.0\\n")
    False
    """
    if _EXPORT_HEADER.search(text) or _TABLE_HEADER.search(text):
        return True
    body = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    return bool(body) and all(_EXPORT_LINE.match(ln) for ln in body)


def conda_list_entries(text: str) -> list[tuple[int, str, str | None]]:
    """(line, conda spec or pip requirement, channel) of each package in conda list output.

    The channel is `pypi` for packages pip installed (`conda list` shows them with channel pypi
    and `conda list --export` with build `pypi_0`); those become `name==version` requirements.

    >>> conda_list_entries("pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0\\ntqdm=4.50.0=pypi_0\\n")
    [(1, 'pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0', None), (2, 'tqdm==4.50.0', 'pypi')]
    """
    out: list[tuple[int, str, str | None]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _EXPORT_LINE.match(line)
        if m:
            name, version, build = m.groups()
            channel = "pypi" if build.startswith("pypi_") else None
        else:
            cols = line.split()
            if len(cols) < 3 or not re.match(r"^[A-Za-z0-9_]", cols[0]):
                continue
            name, version, build = cols[0], cols[1], cols[2]
            channel = cols[3] if len(cols) > 3 else None
        if channel == "pypi":
            out.append((number, f"{name}=={version}", "pypi"))
        else:
            out.append((number, f"{name}={version}={build}", channel))
    return out


def setup_py(text: str, source: str) -> Declared:
    """install_requires and python_requires of a setup.py, read with ast (never executed).

    Only literal lists or tuples of strings count, directly or through a module-level name
    (`install_requires=requirements` where `requirements = [...]`).
    """
    declared = Declared()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError) as exc:
        declared.warnings.append(f"{source}: not valid Python ({exc.__class__.__name__}); skipped")
        return declared
    except (RecursionError, MemoryError):
        # A 300,000-term expression: CPython's parser gives up when it builds the tree.
        declared.refused = _too_deep(source, "an expression")
        return declared
    names: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                names[target.id] = node.value
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or _call_name(call.func) != "setup":
            continue
        for kw in call.keywords:
            value = names.get(kw.value.id, kw.value) if isinstance(kw.value, ast.Name) else kw.value
            if kw.arg == "install_requires":
                items = _literal_strings(value)
                if items is None:
                    declared.warnings.append(
                        f"{source}:{kw.value.lineno}: install_requires is computed, not a list "
                        "of strings; not read (setup.py is never run)"
                    )
                else:
                    declared.requirements += items
            elif (
                kw.arg == "python_requires"
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
            ):
                declared.python_requires = (value.lineno, value.value)
    return declared


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal_strings(node: ast.expr) -> list[tuple[int, str]] | None:
    if not isinstance(node, ast.List | ast.Tuple):
        return None
    out: list[tuple[int, str]] = []
    for item in node.elts:
        if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
            return None
        out.append((item.lineno, item.value))
    return out


def setup_cfg(text: str, source: str) -> Declared:
    """[options] install_requires and python_requires of a setup.cfg."""
    declared = Declared()
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text, source=source)
    except configparser.Error as exc:
        declared.warnings.append(f"{source}: not a valid setup.cfg ({type(exc).__name__}); skipped")
        return declared
    if not parser.has_section("options"):
        return declared
    lines = text.splitlines()
    for raw in parser.get("options", "install_requires", fallback="").splitlines():
        req = raw.split("#", 1)[0].strip()
        if req:
            declared.requirements.append((_line_of(lines, req), req))
    python = parser.get("options", "python_requires", fallback="").strip()
    if python:
        declared.python_requires = (_line_of(lines, python), python)
    return declared


def _line_of(lines: list[str], needle: str) -> int:
    return next((i for i, ln in enumerate(lines, start=1) if needle in ln), 0)


def pyproject(text: str, source: str) -> Declared:
    """[project] dependencies and requires-python (PEP 621); Poetry's exact pins too."""
    declared = Declared()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        declared.warnings.append(f"{source}: not valid TOML ({exc}); skipped")
        return declared
    except (RecursionError, MemoryError):
        # tomllib recurses once per nested array or inline table.
        declared.refused = _too_deep(source, "a TOML value")
        return declared
    lines = text.splitlines()
    project = data.get("project")
    if isinstance(project, dict):
        deps = project.get("dependencies")
        if isinstance(deps, list):
            for dep in deps:
                if isinstance(dep, str):
                    declared.requirements.append((_line_of(lines, dep), dep))
        python = project.get("requires-python")
        if isinstance(python, str):
            declared.python_requires = (_line_of(lines, python), python)
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    deps = poetry.get("dependencies") if isinstance(poetry, dict) else None
    if isinstance(deps, dict):
        for name, spec in deps.items():
            version = spec.get("version") if isinstance(spec, dict) else spec
            if not isinstance(version, str):
                continue
            if name == "python":
                declared.python_requires = (_line_of(lines, "python"), _poetry(version))
            else:
                declared.requirements.append((_line_of(lines, name), f"{name}{_poetry(version)}"))
    return declared


def _poetry(version: str) -> str:
    """Poetry's constraint as PEP 440: `1.8.1` is exact, `^1.8` is `>=1.8,<2`, `*` is any.

    >>> _poetry("1.8.1"), _poetry("^1.8"), _poetry("~1.8.1"), _poetry("*"), _poetry(">=3.8")
    ('==1.8.1', '>=1.8,<2', '>=1.8.1,<1.9', '', '>=3.8')
    """
    v = version.strip()
    if v in {"", "*"}:
        return ""
    if re.fullmatch(r"\d+(\.\d+)*", v):
        return f"=={v}"
    m = re.fullmatch(r"\^(\d+)((?:\.\d+)*)", v)
    if m:
        parts = [int(x) for x in (m.group(1) + m.group(2)).split(".")]
        idx = next((i for i, p in enumerate(parts) if p != 0), len(parts) - 1)
        upper = [*parts[:idx], parts[idx] + 1]
        return f">={v[1:]},<{'.'.join(str(p) for p in upper)}"
    m = re.fullmatch(r"~(\d+)\.(\d+)((?:\.\d+)*)", v)
    if m:
        return f">={v[1:]},<{m.group(1)}.{int(m.group(2)) + 1}"
    return v


def shell_blocks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each shell block in Markdown or reStructuredText, `$ ` prompts
    removed: fenced blocks (``` or ~~~) labeled as shell, rST `.. code-block:: bash` blocks, and,
    where they run pip or conda, fences with no or another label (`commandline`, `text`), HTML
    `<pre>` blocks and inline code (`` `pip install torch==1.7.1` ``) in the prose.

    >>> shell_blocks("Run `pip install torch==1.7.1`.\\n<pre>\\nconda create -n x\\n</pre>\\n")
    [(1, 'pip install torch==1.7.1'), (3, 'conda create -n x')]
    """
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        rst = re.match(r"^\s*\.\.\s+(code-block|code|sourcecode)::\s*(\w*)\s*$", lines[i])
        if fence and lines[i].count(fence.group(2)) == 1:
            marker, lang = fence.group(2), fence.group(3).lower()
            body: list[str] = []
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith(marker[:3]):
                body.append(lines[j])
                j += 1
            if lang in _SHELL_LANGS:
                _keep(blocks, i + 2, body, labeled=bool(lang))
            elif lang not in _NOT_SHELL and lang not in _BATCH_LANGS:
                _keep(blocks, i + 2, body, labeled=False)  # `commandline`, `text`: if it installs
            i = j + 1
            continue
        if rst and rst.group(2).lower() in _SHELL_LANGS - {""}:
            body = []
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or lines[j][:1].isspace()):
                body.append(lines[j])
                j += 1
            _keep(blocks, i + 2, body, labeled=True)
            i = j
            continue
        if re.match(r"^\s*<pre\b[^>]*>\s*$", lines[i], re.IGNORECASE):
            j = i + 1
            while j < len(lines) and not re.match(r"^\s*</pre>", lines[j], re.IGNORECASE):
                j += 1
            _keep(blocks, i + 2, [_TAG.sub("", ln) for ln in lines[i + 1 : j]], labeled=False)
            i = j + 1
            continue
        blocks.extend(
            (i + 1, _PROMPT.sub("", span.group(2).strip()))
            for span in _INLINE.finditer(lines[i])
            if _INSTALLS.search(span.group(2))
        )
        i += 1
    return blocks


def batch_blocks(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each fenced Windows batch block (```bat, ```cmd) in Markdown.

    >>> batch_blocks("x\\n```bat\\nset A=1\\ncall pip install torch\\n```\\n")
    [(3, 'set A=1\\ncall pip install torch')]
    """
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        marker, lang = fence.group(2), fence.group(3).lower()
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(marker[:3]):
            j += 1
        if lang in _BATCH_LANGS:
            body = [re.sub(r"^\s*[A-Za-z]:\\[^>]*>\s*", "", ln) for ln in lines[i + 1 : j]]
            blocks.append((i + 2, "\n".join(body)))
        i = j + 1
    return blocks


def _keep(blocks: list[tuple[int, str]], first: int, body: list[str], *, labeled: bool) -> None:
    text = "\n".join(_PROMPT.sub("", ln) for ln in body)
    if labeled or _INSTALLS.search(text):
        blocks.append((first, text))
