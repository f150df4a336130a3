"""pyproject.toml's [project] dependencies and requires-python (PEP 621), and Poetry's
[tool.poetry.dependencies] and installed groups as PEP 440 specifiers, with the package index a
`source =` names (tomllib); a pixi workspace's [tool.pixi.*] tables are read by
envgen.repro.importer.pixi, before the package's own dependencies (pixi solves its conda packages
first and installs the PyPI ones around them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from packaging.markers import InvalidMarker, Marker, UndefinedComparison, UndefinedEnvironmentName
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from envgen.repro.importer.declared import (
    Declared,
    LineIndex,
    TomlUnreadable,
    linux_markers,
    load_toml,
    parse_declared,
    read_extras,
    too_deep,
)
from envgen.repro.importer.evidence import Evidence, admitted_minors, is_pytorch_index
from envgen.repro.importer.pixi import read_manifest
from envgen.repro.importer.requirements import include_file


def _dynamic_files(
    data: dict[str, Any], project: dict[str, Any], at: Callable[[str], int]
) -> list[tuple[int, str]]:
    """`dynamic = ["dependencies"]` read from files: setuptools' (`[tool.setuptools.dynamic]
    dependencies = {file = ["requirements.txt"]}`) or the hatch-requirements-txt plugin's
    (`[tool.hatch.metadata.hooks.requirements_txt] files = ["requirements.txt"]`): (line, file)
    of each, read as -r would.

    >>> _dynamic_files({"tool": {"setuptools": {"dynamic": {"dependencies": {"file": "r.txt"}}}}},
    ...                {"dynamic": ["dependencies"]}, lambda _: 0)
    [(0, 'r.txt')]
    >>> hatch = {"metadata": {"hooks": {"requirements_txt": {"files": ["requirements.txt"]}}}}
    >>> _dynamic_files({"tool": {"hatch": hatch}}, {"dynamic": ["dependencies"]}, lambda _: 0)
    [(0, 'requirements.txt')]
    """
    dynamic = project.get("dynamic")
    if not isinstance(dynamic, list) or "dependencies" not in dynamic:
        return []
    tool = data.get("tool")
    setuptools = tool.get("setuptools") if isinstance(tool, dict) else None
    table = setuptools.get("dynamic") if isinstance(setuptools, dict) else None
    entry = table.get("dependencies") if isinstance(table, dict) else None
    files = entry.get("file") if isinstance(entry, dict) else None
    if files is None:
        hook: object = tool.get("hatch") if isinstance(tool, dict) else None
        for key in ("metadata", "hooks", "requirements_txt"):
            hook = hook.get(key) if isinstance(hook, dict) else None
        files = hook.get("files") if isinstance(hook, dict) else None
    names = [files] if isinstance(files, str) else files if isinstance(files, list) else []
    return [(at(n), n) for n in names[:8] if isinstance(n, str) and n]


def pyproject(
    data: dict[str, Any],
    at: LineIndex,
    groups: tuple[str, ...] = (),
    *,
    named_only: bool = False,
    uv: bool = True,
) -> Declared:
    """[project] dependencies and requires-python (PEP 621); Poetry's dependencies and those of
    the groups `poetry install` installs (every non-optional group, and `groups`, the ones
    `--with` names; with `named_only`, as `poetry export` does, the named ones only), with the
    index a `source =` routes them through; `uv`: the project is installed by uv, which reads
    `[tool.uv]`'s indexes and sources (pip never does)."""
    declared = Declared()
    project = data.get("project")
    if isinstance(project, dict):
        name = project.get("name")
        declared.name = name if isinstance(name, str) else None
        deps = project.get("dependencies")
        if isinstance(deps, list):
            for dep in deps:
                if isinstance(dep, str):
                    declared.requirements.append((at(dep), dep))
        python = project.get("requires-python")
        if isinstance(python, str):
            declared.python_requires = (at(python), python)
        declared.includes.extend(_dynamic_files(data, project, at))
        optional = project.get("optional-dependencies")
        for extra, listed in (optional if isinstance(optional, dict) else {}).items():
            if isinstance(listed, list):
                reqs = [(at(d), d) for d in listed if isinstance(d, str)]
                declared.extras.append((str(extra), reqs))
    tool = data.get("tool")
    settings = tool.get("uv") if isinstance(tool, dict) and uv else None
    if isinstance(settings, dict):
        _uv_indexes(settings, declared)
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    if isinstance(poetry, dict):
        _poetry_deps(poetry, poetry.get("dependencies"), at, declared)
        for name, group in _installed_groups(poetry, groups, named_only=named_only):
            _poetry_deps(poetry, group.get("dependencies"), at, declared, group=name)
    return declared


def _uv_indexes(uv: dict[str, object], declared: Declared) -> None:
    """uv's `[tool.uv.sources]`: the `[[tool.uv.index]]` a package is routed through on Linux (an
    entry whose marker holds for linux-64; none scoped to an extra, which a plain install leaves
    out), as the index the requirement is installed from. torch with no source of its own comes
    from the first PyTorch index uv searches (`_uv_searched_indexes`)."""
    routed = False  # torch has a source of its own
    indexes = uv.get("index")
    sources = uv.get("sources")
    listed = indexes if isinstance(indexes, list) else []  # url sources need no [[tool.uv.index]]
    urls = {i.get("name"): i.get("url") for i in listed if isinstance(i, dict)}
    for package, spec in (sources if isinstance(sources, dict) else {}).items():
        entries = spec if isinstance(spec, list) else [spec]
        for entry in entries:
            if (
                not isinstance(entry, dict)
                or "extra" in entry
                or not _on_linux(entry.get("marker"))
            ):
                continue
            torch = canonicalize_name(str(package)) == "torch"
            routed = routed or torch
            if isinstance(entry.get("url"), str):
                _url_source(str(package), entry["url"], declared)
                break
            url = urls.get(entry.get("index"))
            # uv takes a package with an index source from that index only: torch's is the
            # one index its builds come from (as --index-url, first whatever the order of the
            # sources); a companion's or another package's is added beside PyPI
            form = "index-url" if torch else "extra-index-url"
            if isinstance(url, str) and (form, url) not in declared.indexes:
                if torch:
                    declared.indexes.insert(0, (form, url))
                else:
                    declared.indexes.append((form, url))
            break
    # uv's default `first-index` strategy: torch comes from the first searched index that has
    # it; a mirror of PyPI listed first has it (PyPI's build), a PyTorch index has it too
    searched = next(iter(_uv_searched_indexes(uv)), None)
    if (
        not routed
        and searched is not None
        and is_pytorch_index(searched)
        and ("index-url", searched) not in declared.indexes
    ):
        declared.indexes.insert(0, ("index-url", searched))


def _uv_searched_indexes(uv: dict[str, object]) -> list[str]:
    """The indexes uv searches for a package no source routes, first first: the
    `[[tool.uv.index]]` entries not marked `explicit`, in file order, then the older
    `extra-index-url` list, then the default (`default = true`, or the older `index-url`), which
    replaces PyPI. uv takes a package from the first index that has it (its `first-index`
    strategy), so a PyTorch index among them serves torch; PyPI is never reached for it.

    >>> _uv_searched_indexes({"index": [{"name": "a", "url": "u1", "explicit": True},
    ...     {"name": "b", "url": "u2", "default": True}, {"name": "c", "url": "u3"}],
    ...     "extra-index-url": ["u4"]})
    ['u3', 'u4', 'u2']
    """
    listed = uv.get("index")
    entries = [i for i in (listed if isinstance(listed, list) else []) if isinstance(i, dict)]
    searched = [i for i in entries if not i.get("explicit") and isinstance(i.get("url"), str)]
    extra = uv.get("extra-index-url")
    default = uv.get("index-url")
    return [
        *(str(i["url"]) for i in searched if not i.get("default")),
        *(u for u in (extra if isinstance(extra, list) else []) if isinstance(u, str)),
        *(str(i["url"]) for i in searched if i.get("default")),
        *([default] if isinstance(default, str) else []),
    ]


def _url_source(package: str, url: str, declared: Declared) -> None:
    """`torch_scatter = { url = ".../torch_scatter-2.1.2+pt22cu118-cp310-cp310-linux_x86_64.whl" }`:
    uv installs the dependency of that name from the URL (a direct reference, as `name @ url`
    is), so the requirement is read as that file; its marker is kept.

    >>> d = Declared(requirements=[(3, "scatter; sys_platform == 'linux'"), (4, "numpy<2")])
    >>> _url_source("Scatter", "https://x/scatter-1.0-cp310-cp310-linux_x86_64.whl", d)
    >>> d.requirements[0][1]
    'scatter @ https://x/scatter-1.0-cp310-cp310-linux_x86_64.whl ; sys_platform == "linux"'
    >>> d.requirements[1]
    (4, 'numpy<2')
    """
    wanted = canonicalize_name(package)
    for i, (line, text) in enumerate(declared.requirements):
        try:
            req = Requirement(text)
        except InvalidRequirement:
            continue
        if canonicalize_name(req.name) != wanted or req.url is not None:
            continue
        extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
        marker = f" ; {req.marker}" if req.marker is not None else ""
        declared.requirements[i] = (line, f"{req.name}{extras} @ {url}{marker}")


def _on_linux(marker: object, python: str | None = None) -> bool:
    """A uv source's or a Poetry entry's marker holds on linux-64 (no marker holds everywhere),
    with the project's `python` where known; a python condition is not judged where it is not
    (never the python running envgen).

    >>> _on_linux(None), _on_linux("sys_platform == 'linux'"), _on_linux("sys_platform == 'darwin'")
    (True, True, False)
    >>> _on_linux("extra == 'cu124'"), _on_linux("not a marker")
    (False, False)
    >>> _on_linux("python_version < '3.10'", "3.9"), _on_linux("python_version < '3.10'", "3.12")
    (True, False)
    """
    if marker is None:
        return True
    if not isinstance(marker, str):
        return False
    env = {**linux_markers(), "extra": ""}
    if python is not None:
        env |= {"python_version": python, "python_full_version": f"{python}.0"}
    elif re.search(r"python_(full_)?version", marker):
        return True
    try:
        return Marker(marker).evaluate(env)
    except (InvalidMarker, UndefinedComparison, UndefinedEnvironmentName):
        return False


def _installed_groups(
    poetry: dict[str, object], groups: tuple[str, ...], *, named_only: bool = False
) -> list[tuple[str, dict[str, object]]]:
    """Poetry's dependency groups a `poetry install --with groups` installs (`named_only`: a
    `poetry export --with groups` exports), in file order."""
    table = poetry.get("group")
    if not isinstance(table, dict):
        return []
    return [
        (name, group)
        for name, group in table.items()
        if isinstance(group, dict)
        and (name in groups or (not named_only and not group.get("optional")))
    ]


def _poetry_deps(
    poetry: dict[str, object],
    deps: object,
    at: Callable[[str], int],
    declared: Declared,
    *,
    group: str | None = None,
) -> None:
    if not isinstance(deps, dict):
        return
    sources = {
        s.get("name"): s.get("url")
        for s in poetry.get("source") or []  # type: ignore[attr-defined]
        if isinstance(s, dict)
    }
    wanted = deps.get("python")
    minors = admitted_minors(poetry_constraint(wanted)) if isinstance(wanted, str) else None
    # the oldest python the project admits: a real one (the newest admitted may be one not
    # released yet, `^3.10` admits 3.19)
    python = minors[0] if minors else None
    for name, listed in deps.items():
        spec = _poetry_linux_constraint(listed, python)
        url = spec.get("url") if isinstance(spec, dict) else None
        if isinstance(url, str):
            # `torch = {url = ".../torch-1.9.0%2Bcu111-cp37-cp37m-linux_x86_64.whl"}`: that wheel.
            declared.requirements.append((at(name), f"{name} @ {url}"))
            continue
        version = spec.get("version") if isinstance(spec, dict) else spec
        if not isinstance(version, str):
            continue
        if name == "python":
            if group is None:
                declared.python_requires = (at("python"), poetry_constraint(version))
            continue
        declared.requirements.append((at(name), f"{name}{poetry_constraint(version)}"))
        url = sources.get(spec.get("source")) if isinstance(spec, dict) else None
        if isinstance(url, str) and ("extra-index-url", url) not in declared.indexes:
            declared.indexes.append(("extra-index-url", url))


def _poetry_linux_constraint(spec: object, python: str | None = None) -> object:
    """Poetry's multiple-constraints dependency (`torch = [{version = "^2.3.0+cu118", source =
    "gpu"}, {platform = "darwin", version = "^2"}]`): the first entry that holds on linux-64 for
    the project's `python` (the oldest minor its python constraint admits): no `platform` or a
    linux one, a `python` constraint and `markers` that hold there. Where the project's python
    is not known, an entry's python condition is not judged. A plain one is itself.

    >>> _poetry_linux_constraint([{"platform": "darwin", "version": "^2"}, {"version": "2.3.0"}])
    {'version': '2.3.0'}
    >>> _poetry_linux_constraint([{"markers": "sys_platform == 'win32'", "version": "1"}])
    >>> both = [{"version": "1.13.1", "python": "<3.8"}, {"version": "2.1.0", "python": ">=3.8"}]
    >>> _poetry_linux_constraint(both, "3.11")
    {'version': '2.1.0', 'python': '>=3.8'}
    >>> marked = [{"version": "1", "markers": "python_version < '3.10'"}, {"version": "2"}]
    >>> _poetry_linux_constraint(marked, "3.9"), _poetry_linux_constraint(marked, "3.12")
    ({'version': '1', 'markers': "python_version < '3.10'"}, {'version': '2'})
    """
    if not isinstance(spec, list):
        return spec
    for entry in spec:
        if not isinstance(entry, dict):
            continue
        platform = entry.get("platform")
        if platform is not None and not str(platform).lower().startswith("linux"):
            continue
        wants = entry.get("python")
        if isinstance(wants, str) and python is not None:
            minors = admitted_minors(poetry_constraint(wants))
            if minors is not None and python not in minors:
                continue
        marker = entry.get("markers")
        if marker is not None and not _on_linux(marker, python):
            continue
        return entry
    return None


def poetry_constraint(version: str) -> str:
    """Poetry's constraint as PEP 440: `1.8.1` is exact, `^1.8` is `>=1.8,<2`, `*` is any.

    A local label (`2.0.1+cu118`) stays on an exact pin; a range drops it from its bounds (PEP
    440 allows local labels in `==` only; the label's build comes from the source's index):

    >>> p = poetry_constraint
    >>> p("1.8.1"), p("^1.8"), p("~1.8.1"), p("*"), p(">=3.8")
    ('==1.8.1', '>=1.8,<2', '>=1.8.1,<1.9', '', '>=3.8')
    >>> p("2.0.1+cu118"), p("^2.0.0+cu118"), p("~1.8.1+cu111")
    ('==2.0.1+cu118', '>=2.0.0,<3', '>=1.8.1,<1.9')
    >>> poetry_constraint("3.12.*")
    '==3.12.*'
    >>> poetry_constraint("^2.0.0, !=2.0.1, !=2.1.0")
    '>=2.0.0,<3,!=2.0.1,!=2.1.0'
    """
    v = version.strip()
    if v in {"", "*"}:
        return ""
    if re.search(r"\d{10}", v):
        return v  # no version has a part that long (`^99999...`): left as it is, not understood
    if "," in v and "||" not in v:  # several constraints, all of which hold
        return ",".join(c for c in (poetry_constraint(part) for part in v.split(",")) if c)
    if re.fullmatch(r"\d+(\.\d+)*(\+[A-Za-z0-9.]+)?", v):
        return f"=={v}"
    if re.fullmatch(r"\d+(\.\d+)*\.\*", v):
        return f"=={v}"  # `3.12.*`: Poetry's wildcard, PEP 440's ==3.12.*
    if re.fullmatch(r"[\^~]\d+(\.\d+)*\+[A-Za-z0-9.]+", v):
        v = v.split("+", 1)[0]
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


def read(
    text: str,
    found: Evidence,
    base: Path | None,
    groups: tuple[str, ...] = (),
    *,
    named_only: bool = False,
) -> None:
    """A pyproject.toml's dependencies and requires-python (PEP 621, Poetry), and its pixi
    tables; `named_only`: of Poetry's groups only those `groups` names (`poetry export`
    exports the main group, and `--with`'s)."""
    try:
        data = load_toml(text)
    except TomlUnreadable as exc:
        declared = Declared()
        if exc.nested:
            declared.refused = too_deep(found.source, "a TOML value")
        else:
            declared.warnings.append(f"{found.source}: {exc.why}; skipped")
        parse_declared(declared, found)
        return
    at = LineIndex(text.splitlines())  # one index for the pixi tables and the dependencies
    tool = data.get("tool")
    pixi = tool.get("pixi") if isinstance(tool, dict) else None
    if isinstance(pixi, dict):  # [tool.pixi.*]: a pixi manifest inside the pyproject.toml
        read_manifest(pixi, found, at, root="tool.pixi.")
    declared = pyproject(data, at, groups, named_only=named_only, uv=not found.pip_builds_project)
    parse_declared(declared, found)
    for line, name in declared.includes:
        include_file(
            name, found, base, f"{found.source}:{line} (dynamic dependencies read from)", seen=set()
        )
    read_extras(declared, found)
