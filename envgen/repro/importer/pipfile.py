"""pipenv's files: a Pipfile (TOML) and its Pipfile.lock (JSON), read as what `pipenv install`
installs.

`pipenv install` (no `--dev`) installs the `[packages]` table (a lock's `default` section); the
`[dev-packages]` table (`develop`) and custom categories only with `--dev` / `--categories`, so
they are left out, with a warning where they name torch. `[requires] python_version` (a lock's
`_meta.requires`) is the interpreter pipenv creates the environment with. `[[source]]` entries
are the indexes: the first is the one every package comes from unless it names another
(`index = "pytorch"`), the others extra indexes (what pipenv passes pip), each read as pip's
`--index-url` / `--extra-index-url` would be (a download.pytorch.org/whl/cu118 source names the
CUDA build). Each package becomes the requirement pip receives: `name<version>[; markers]`, a
`file = "<wheel URL>"` a direct wheel, `git` / `path` sources a warning (nothing to pin).

Formats: https://pipenv.pypa.io/en/latest/pipfile.html (Pipfile, sources and `index`),
https://pipenv.pypa.io/en/latest/specifiers.html (version strings, marker keys),
pypa/pipfile's README (Pipfile.lock's `_meta` / `default` / `develop`).
Must not run pipenv or fetch anything.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Final

from envgen.repro.importer.declared import TomlUnreadable, load_toml
from envgen.repro.importer.evidence import Evidence, is_pypi, set_python
from envgen.repro.importer.requirements import pip_requirement
from envgen.repro.reading import excerpt

# Pipfile keys of a package table that are PEP 508 environment markers written as fields
# (`sys_platform = "== 'linux'"`), as pipenv's specifiers page lists them.
_MARKER_KEYS: Final = (
    "os_name", "sys_platform", "platform_machine", "platform_python_implementation",
    "platform_release", "platform_system", "platform_version", "python_version",
    "python_full_version", "implementation_name", "implementation_version",
)  # fmt: skip
# Tables a Pipfile may hold that are not package categories.
_NOT_CATEGORIES: Final = frozenset({"source", "requires", "scripts", "pipenv", "packages"})
_TORCH_NAMES: Final = frozenset({"torch", "pytorch", "torchvision", "torchaudio"})


def is_lock(text: str) -> bool:
    """A Pipfile.lock: JSON whose `_meta` holds pipenv's hash of the Pipfile.

    >>> is_lock('{"_meta": {"hash": {"sha256": "ab"}}, "default": {}}'), is_lock("[packages]")
    (True, False)
    """
    return text.lstrip().startswith("{") and '"_meta"' in text


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """A Pipfile or Pipfile.lock: the packages `pipenv install` installs, its python, its
    indexes."""
    if is_lock(text):
        _read_lock(text, found)
    else:
        _read_pipfile(text, found, _base)


def read_python(text: str, found: Evidence, _base: Path | None) -> None:
    """Only a Pipfile's `[requires]` python: the environment `pipenv run CMD` runs CMD in (it
    makes that virtualenv where there is none, and installs no package)."""
    try:
        data = load_toml(text)
    except TomlUnreadable:
        return  # `pipenv run` fails on it; the command it runs is read as it stands
    _requires(data, text.splitlines(), found)


def _requires(data: dict[str, object], lines: list[str], found: Evidence) -> None:
    requires = data.get("requires")
    if isinstance(requires, dict):
        python = requires.get("python_full_version") or requires.get("python_version")
        if isinstance(python, str):
            set_python(found, python, f"{found.source}:{_line(lines, 'python_version')} [requires]")


def _read_pipfile(text: str, found: Evidence, base: Path | None) -> None:
    try:
        data = load_toml(text)
    except TomlUnreadable as exc:
        found.problems.append(
            f"{found.source}: {exc.why}{'' if exc.nested else '; a Pipfile is TOML'}"
        )
        return
    lines = text.splitlines()
    _requires(data, lines, found)
    _sources(data.get("source"), found)
    packages = data.get("packages")
    if packages is not None and not isinstance(packages, dict):
        found.problems.append(f"{found.source}: [packages] is not a table")
        return
    for name, value in (packages or {}).items():
        where = f"{found.source}:{_line(lines, name)} [packages]"
        if _local_path(value, found, base, where):
            continue
        requirement = _requirement(str(name), value, found, where)
        if requirement is not None:
            pip_requirement(requirement, found, where)
    for category, table in data.items():
        if category in _NOT_CATEGORIES or not isinstance(table, dict):
            continue
        named = sorted(str(n) for n in table if str(n).lower() in _TORCH_NAMES)
        if named:
            found.warnings.append(
                f"{found.source}: [{category}] names {', '.join(named)}, which `pipenv install` "
                f"does not install (only with --dev or --categories); left out"
            )


def _read_lock(text: str, found: Evidence) -> None:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        found.problems.append(f"{found.source}: not valid JSON ({excerpt(str(exc))})")
        return
    if not isinstance(data, dict):
        found.problems.append(f"{found.source}: expected a Pipfile.lock (_meta, default, develop)")
        return
    meta = data.get("_meta")
    meta = meta if isinstance(meta, dict) else {}
    requires = meta.get("requires")
    if isinstance(requires, dict):
        python = requires.get("python_full_version") or requires.get("python_version")
        if isinstance(python, str):
            set_python(found, python, f"{found.source}: _meta.requires")
    _sources(meta.get("sources"), found)
    default = data.get("default")
    for name, value in (default if isinstance(default, dict) else {}).items():
        where = f"{found.source}: default.{name}"
        requirement = _requirement(str(name), value, found, where)
        if requirement is not None:
            pip_requirement(requirement, found, where)
    develop = data.get("develop")
    named = sorted(str(n) for n in (develop or {}) if str(n).lower() in _TORCH_NAMES)
    if named:
        found.warnings.append(
            f"{found.source}: develop names {', '.join(named)}, which `pipenv install` (or "
            "`pipenv sync`) does not install without --dev; left out"
        )


def _sources(sources: object, found: Evidence) -> None:
    """[[source]]: the first is pip's index (left to envgen when it is PyPI), the rest extra
    indexes."""
    if not isinstance(sources, list):
        return
    urls = [s.get("url") for s in sources if isinstance(s, dict)]
    for i, url in enumerate(u for u in urls if isinstance(u, str)):
        if i == 0 and is_pypi(url):
            continue
        found.indexes.append(("index-url" if i == 0 else "extra-index-url", url))


def _local_path(value: object, found: Evidence, base: Path | None, where: str) -> bool:
    """`meta-agents = {path = "."}` (editable or not): the project in that folder, read as
    `pip install .` builds it (its pyproject.toml, setup.cfg or setup.py); False where the entry
    is no such folder."""
    if not isinstance(value, dict) or not isinstance(value.get("path"), str):
        return False
    from envgen.repro.importer.install_script import editable_project  # noqa: PLC0415 - cycle

    extras = value.get("extras")
    named = [e for e in extras if isinstance(e, str)] if isinstance(extras, list) else []
    folder = value["path"] if value["path"].startswith(".") else f"./{value['path']}"
    return editable_project(folder + (f"[{','.join(named)}]" if named else ""), found, base, where)


def _requirement(name: str, value: object, found: Evidence, where: str) -> str | None:
    """The requirement pip receives for one Pipfile package entry, or None (a warning says why).

    >>> e = Evidence(source="Pipfile", kind="pipfile")
    >>> _requirement("torch", "*", e, "w"), _requirement("torch", "==1.10.0", e, "w")
    ('torch', 'torch==1.10.0')
    >>> _requirement("numpy", {"version": ">=1.19", "sys_platform": "== 'linux'"}, e, "w")
    "numpy>=1.19 ; sys_platform == 'linux'"
    >>> _requirement("torch", {"version": "==2.1.0", "index": "pytorch"}, e, "w")
    'torch==2.1.0'
    """
    if isinstance(value, str):
        return name + _version(value)
    if not isinstance(value, dict):
        found.warnings.append(
            f"{where}: {name} = {excerpt(str(value))!r} is not understood; ignored"
        )
        return None
    if isinstance(value.get("file"), str) and "://" in value["file"]:
        return f"{name} @ {value['file']}"
    for key in ("git", "path", "file", "hg", "svn", "bzr"):
        if isinstance(value.get(key), str):
            found.warnings.append(
                f"{where}: {name} comes from {key} {excerpt(value[key])!r}, not a released "
                "version; left out (pin a released version in pip: if the paper needs it)"
            )
            return None
    extras = value.get("extras")
    extra = (
        "[" + ",".join(e for e in extras if isinstance(e, str)) + "]"
        if isinstance(extras, list) and extras
        else ""
    )
    version = value.get("version")
    markers = [value["markers"]] if isinstance(value.get("markers"), str) else []
    markers += [f"{key} {value[key]}" for key in _MARKER_KEYS if isinstance(value.get(key), str)]
    requirement = name + extra + (_version(version) if isinstance(version, str) else "")
    if not markers:
        return requirement
    joined = " and ".join(f"({m})" for m in markers) if len(markers) > 1 else markers[0]
    return f"{requirement} ; {joined}"


def _version(text: str) -> str:
    """A Pipfile version string as a PEP 440 specifier: `*` is any version; a bare version is
    that version (pipenv's docs always write an operator, but files in the wild omit it)."""
    text = text.strip()
    if text in {"", "*"}:
        return ""
    return "==" + text if re.match(r"^\d", text) else text


def _line(lines: list[str], name: str) -> int:
    """The line of `name = ...` (or the first line starting with `name`), for messages."""
    key = re.compile(rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=")
    return next((i for i, line in enumerate(lines, start=1) if key.match(line)), 1)
