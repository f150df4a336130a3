"""`envgen import` of uv's lock (uv.lock): the packages `uv sync` installs on linux-64, as pins.

A uv.lock is universal: it holds every package any platform, python, extra or group of the
project needs, several versions of one name where they fork (`torch 2.1.0+cpu` for one extra,
`2.1.0+cu121` for another; https://docs.astral.sh/uv/concepts/projects/layout/#the-lockfile).
What `uv sync` installs is the project's part of it: the packages reached from the project's
own entry (`source = { virtual = "." }` or `{ editable = "." }`; a workspace's other members
only where the root depends on them) through its `dependencies`, the extras `--extra` names and
the default dependency group (`dev`), following each edge whose marker holds on linux-64 with
the project's python (uv encodes a conflicting extra or group in a marker as `extra ==
'extra-N-project-name'` / `'group-N-project-name'`: the whole chosen set is one environment).
Each package reached becomes `name==version` (PyTorch's local labels kept: `+cu121` is the
build), its registry the index it came from; `requires-python` the python where it admits one
minor. Nothing is fetched: the lock's URLs and hashes are not needed to say which torch.

`uv sync` in an install script reads the lock beside the project (envgen.repro.importer.
install_script); `envgen import uv.lock` reads it as `uv sync` would with no extras.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from packaging.markers import InvalidMarker, Marker, UndefinedEnvironmentName
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from envgen.errors import ImportSpecError
from envgen.model.types import TORCH_FAMILY
from envgen.repro.importer.declared import (
    Declared,
    TomlUnreadable,
    linux_markers,
    load_toml,
    parse_declared,
)
from envgen.repro.importer.evidence import Evidence, is_pypi
from envgen.repro.reading import MAX_PACKAGES, excerpt

_HINT: Final = "a uv.lock as `uv lock` writes it"
# The dependency groups `uv sync` installs unless told otherwise (`tool.uv.default-groups`).
_DEFAULT_GROUPS: Final = ("dev",)
# uv's encoding of an extra or group in a marker: `extra == 'extra-5-paper-cu121'`.
_EXTRA_TEST: Final = re.compile(r"""\bextra\s*(==|!=)\s*(?:'([^']*)'|"([^"]*)")""")
# Edges one walk may look at: a package reached with many sets of extras repeats its edges.
_MAX_EDGE_VISITS: Final = 200_000
# The pythons a lock's markers are read with when the project names none (newest admitted).
_PYTHONS: Final = tuple(f"3.{minor}" for minor in range(14, 5, -1))


@dataclass(frozen=True, slots=True)
class _Package:
    name: str  # canonical
    version: str | None
    source: Mapping[str, Any]
    line: int
    data: Mapping[str, Any]


def _packages(lock: Mapping[str, Any], lines: list[str]) -> list[_Package]:
    """The lock's `[[package]]` tables, each with the line of its `name = ...`."""
    listed = lock.get("package", [])
    starts = [i + 1 for i, ln in enumerate(lines) if ln.strip() == "[[package]]"]
    out: list[_Package] = []
    for i, table in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(table, dict) or not isinstance(table.get("name"), str):
            continue
        version = table.get("version")
        source = table.get("source")
        out.append(
            _Package(
                name=canonicalize_name(table["name"]),
                version=version if isinstance(version, str) else None,
                source=source if isinstance(source, dict) else {},
                line=starts[i] + 1 if i < len(starts) else 1,
                data=table,
            )
        )
    return out


def _is_project(package: _Package) -> bool:
    """A project entry of the lock (the root or a workspace member): a virtual or editable
    source."""
    return any(k in package.source for k in ("virtual", "editable"))


def _roots(packages: list[_Package]) -> list[_Package]:
    """Where `uv sync` starts: the project at the lock's root (`virtual = "."` or `editable =
    "."`); a lock whose root is no package (a virtual workspace) starts from every member."""
    root = [p for p in packages if "." in (p.source.get("virtual"), p.source.get("editable"))]
    return root or [p for p in packages if _is_project(p)]


def _holds(marker: object, chosen: frozenset[str], env: Mapping[str, str]) -> bool:
    """Whether an edge's marker holds on linux-64 with the chosen extras and groups together
    (uv's `extra == 'extra-N-project-name'` tests set membership: each test is decided first,
    then the rest is evaluated); a marker envgen cannot read keeps the edge."""
    if not isinstance(marker, str):
        return True

    def decided(m: re.Match[str]) -> str:
        name = canonicalize_name(m.group(2) if m.group(2) is not None else m.group(3))
        holds = (name in chosen) == (m.group(1) == "==")
        # a test on a variable the linux-64 environment always has (matrices/targets.yaml)
        return "sys_platform == 'linux'" if holds else "sys_platform == 'not-linux'"

    try:
        return Marker(_EXTRA_TEST.sub(decided, marker)).evaluate(env)
    except (InvalidMarker, UndefinedEnvironmentName):
        return True


def _target(edge: Mapping[str, Any], by_name: Mapping[str, list[_Package]]) -> _Package | None:
    """The package an edge names: by name, then by the `version` and `source` uv writes where a
    name has several entries."""
    name = edge.get("name")
    if not isinstance(name, str):
        return None
    candidates = by_name.get(canonicalize_name(name), [])
    if isinstance(edge.get("version"), str):
        candidates = [p for p in candidates if p.version == edge["version"]]
    if isinstance(edge.get("source"), dict):
        candidates = [p for p in candidates if dict(p.source) == edge["source"]]
    return candidates[0] if len(candidates) == 1 else None


def _edges(
    package: _Package, extras: Iterable[str], groups: Iterable[str], *, own: bool = True
) -> list[Any]:
    """A package's dependency edges (`own`: its `dependencies`; not for `--only-group`), with
    those of the chosen extras and groups (the project's own: a dependency's extras are named on
    the edge, `{ name = "x", extra = ["gpu"] }`)."""
    listed = package.data.get("dependencies")
    edges = list(listed) if own and isinstance(listed, list) else []
    for key, chosen in (("optional-dependencies", extras), ("dev-dependencies", groups)):
        table = package.data.get(key)
        if isinstance(table, dict):
            for name in chosen:
                listed = table.get(name)
                edges += listed if isinstance(listed, list) else []
    return [e for e in edges if isinstance(e, dict)]


def _reached(
    packages: list[_Package],
    roots: list[_Package],
    extras: tuple[str, ...],
    groups: tuple[str, ...],
    env: dict[str, str],
    *,
    only_groups: bool = False,
) -> tuple[list[_Package], bool]:
    """The packages `uv sync` installs: reached from the roots, breadth first, each once
    (`only_groups`: `--only-group`, the groups without the project's own dependencies); and
    whether the walk stopped at _MAX_EDGE_VISITS before its end."""
    by_name: dict[str, list[_Package]] = {}
    for p in packages:
        by_name.setdefault(p.name, []).append(p)
    encoded = frozenset(
        canonicalize_name(f"{kind}-{len(r.name)}-{r.name}-{x}")
        for r in roots
        for kind, chosen in (("extra", extras), ("group", groups))
        for x in chosen
    ) | {canonicalize_name(e) for e in extras}
    root_ids = {id(r) for r in roots}
    seen: set[tuple[int, tuple[str, ...]]] = {(i, ()) for i in root_ids}
    queue = deque((r, extras, groups) for r in roots)
    out: list[_Package] = []
    holds: dict[object, bool] = {}  # each marker's answer, once (the chosen set is fixed)
    visits = 0
    while queue and len(out) <= MAX_PACKAGES:
        if visits > _MAX_EDGE_VISITS:
            return out, True
        package, chosen, groups = queue.popleft()
        own = not (only_groups and id(package) in root_ids)
        for edge in _edges(package, chosen, groups, own=own):
            visits += 1
            marker = edge.get("marker")
            key = marker if isinstance(marker, str) else None
            if key not in holds:
                holds[key] = _holds(marker, encoded, env)
            if not holds[key]:
                continue
            target = _target(edge, by_name)
            wanted = edge.get("extra")
            named = (
                tuple(x for x in wanted if isinstance(x, str)) if isinstance(wanted, list) else ()
            )
            if target is None or (id(target), named) in seen:
                continue
            seen.add((id(target), named))
            out.append(target)
            queue.append((target, named, ()))
    return out, False


def _declare(packages: Iterable[_Package], declared: Declared) -> None:
    done: set[tuple[str, str]] = set()
    for p in packages:
        if p.version is None or _is_project(p) or (p.name, p.version) in done:
            continue
        done.add((p.name, p.version))
        declared.requirements.append((p.line, f"{p.name}=={p.version}"))
        registry = p.source.get("registry")
        if (
            p.name in TORCH_FAMILY
            and isinstance(registry, str)
            and not is_pypi(registry)
            and ("extra-index-url", registry) not in declared.indexes
        ):
            declared.indexes.append(("extra-index-url", registry))


def _table(package: _Package, key: str) -> Mapping[str, Any]:
    """A package's `optional-dependencies` or `dev-dependencies` table ({} where it is not one)."""
    table = package.data.get(key)
    return table if isinstance(table, dict) else {}


def _forks_torch_by_python(packages: list[_Package]) -> bool:
    """Whether an edge to torch holds for some pythons only (`python_full_version < '3.9'`)."""
    for p in packages:
        tables = [p.data.get(k) for k in ("optional-dependencies", "dev-dependencies")]
        extra = [x for t in tables if isinstance(t, dict) for x in t]
        for edge in _edges(p, extra, extra):
            if edge.get("name") == "torch" and "python" in str(edge.get("marker", "")):
                return True
    return False


def _python(lock: Mapping[str, Any], python: str | None) -> tuple[str | None, bool]:
    """The python a lock's markers are read with: the project's (`.python-version`, or a
    requires-python that admits one minor), else the newest that requires-python admits
    (second: True when it was chosen so)."""
    requires = lock.get("requires-python")
    try:
        admitted = SpecifierSet(requires if isinstance(requires, str) else "")
    except InvalidSpecifier:
        admitted = SpecifierSet()
    if python is not None:
        return python, False
    fits = [p for p in _PYTHONS if admitted.contains(f"{p}.0") or admitted.contains(f"{p}.99")]
    if len(fits) == 1:
        return fits[0], False
    return (fits[0], True) if fits else (None, False)


def declared(
    text: str,
    source: str,
    extras: tuple[str, ...] = (),
    groups: tuple[str, ...] = _DEFAULT_GROUPS,
    *,
    python: str | None = None,
    only_groups: bool = False,
) -> Declared:
    """What `uv sync` (with `extras`, `*` for all of them, and `groups`; `only_groups`:
    `--only-group`) installs from a uv.lock on linux-64 with `python` (the project's, where it
    names one).

    Raises:
        ImportSpecError: the file is not TOML, or not a uv lock (no `version` and `package`).
    """
    try:
        lock = load_toml(text)
    except TomlUnreadable as exc:
        msg = f"{source}: " + (f"not a valid uv.lock ({exc.why})" if exc.nested else exc.why)
        raise ImportSpecError(msg, hint=_HINT) from None
    if not isinstance(lock.get("version"), int) or not isinstance(lock.get("package"), list):
        msg = f"{source}: not a uv.lock (no `version = 1` and [[package]] tables)"
        raise ImportSpecError(msg, hint=_HINT)
    lines = text.splitlines()
    packages = _packages(lock, lines)
    out = Declared()
    env = linux_markers()  # matrices/targets.yaml
    minor, newest = _python(lock, python)
    if minor is not None:
        env["python_version"] = minor
        env["python_full_version"] = f"{minor}.0"
    if newest and _forks_torch_by_python(packages):
        out.warnings.append(
            f"{source}: the lock forks torch and the project names no python; its markers are "
            f"read with python {minor}, the newest its requires-python admits (a "
            "`.python-version` says which uv syncs with)"
        )
    roots = _roots(packages)
    if "*" in extras:  # `uv sync --all-extras`
        extras = tuple(str(e) for r in roots for e in _table(r, "optional-dependencies"))
    if "*" in groups:  # `uv sync --all-groups`
        groups = tuple(str(g) for r in roots for g in _table(r, "dev-dependencies"))
    if not roots:  # a lock without the project's entry: every package it holds
        out.warnings.append(
            f"{source}: no project entry (a virtual or editable source); every locked package read"
        )
        _declare(packages, out)
    else:
        reached, cut = _reached(packages, roots, extras, groups, env, only_groups=only_groups)
        if cut:
            out.warnings.append(
                f"{source}: the walk through the lock's dependencies passed "
                f"{_MAX_EDGE_VISITS:,} edges; the packages reached by then read"
            )
        if len(reached) > MAX_PACKAGES:
            out.warnings.append(
                f"{source}: the project reaches more than {MAX_PACKAGES} packages; the first "
                f"{MAX_PACKAGES} read"
            )
            reached = reached[:MAX_PACKAGES]
        if not any(p.name == "torch" for p in reached) and not extras and not only_groups:
            reached = _first_torch_extra(packages, roots, groups, env, source, out) or reached
        _declare(reached, out)
    python = lock.get("requires-python")
    if isinstance(python, str):
        number = next((i + 1 for i, ln in enumerate(lines) if ln.startswith("requires-python")), 1)
        out.python_requires = (number, python)
    return out


def _first_torch_extra(
    packages: list[_Package],
    roots: list[_Package],
    groups: tuple[str, ...],
    env: dict[str, str],
    source: str,
    out: Declared,
) -> list[_Package] | None:
    """Where a plain `uv sync` installs no torch but an extra of the project does (`--extra
    cu121`: projects that leave the build to the user), that extra's packages, said; the first
    such extra in file order (as for a package's extras: envgen.repro.importer.declared)."""
    for root in roots:
        table = root.data.get("optional-dependencies")
        for extra in table if isinstance(table, dict) else {}:
            reached, _ = _reached(packages, roots, (str(extra),), groups, env)
            if any(p.name == "torch" for p in reached):
                out.warnings.append(
                    f"{source}: a plain `uv sync` installs no torch; the extra "
                    f"{excerpt(str(extra))} does (`uv sync --extra {excerpt(str(extra))}`), "
                    "read instead"
                )
                return reached
    return None


def read(text: str, found: Evidence, base: Path | None) -> None:
    """What a plain `uv sync` installs from a uv.lock, and its python: requires-python where it
    admits one minor, else the `.python-version` beside it (the python uv syncs with)."""
    if base is not None and found.python is None:
        from envgen.repro.importer.repository import version_file_python  # noqa: PLC0415

        version_file_python(base, found, (".python-version",))
    parse_declared(declared(text, found.source, python=found.python), found)


def read_synced(
    text: str,
    found: Evidence,
    where: str,
    extras: tuple[str, ...],
    groups: tuple[str, ...],
    *,
    only_groups: bool = False,
) -> bool:
    """What `uv sync` with these extras and groups installs from the lock `where` names (a
    script's `uv sync` beside a uv.lock), with the python the script has. False for a lock that
    cannot be read: said, and not an error of the script (the caller reads the project's
    requirements instead)."""
    try:
        lock = declared(text, where, extras, groups, python=found.python, only_groups=only_groups)
    except ImportSpecError as exc:
        found.warnings.append(f"{exc.message}; the project's requirements are read instead")
        return False
    parse_declared(lock, found)
    return True
