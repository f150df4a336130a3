"""`envgen import DIR`: find every environment source in a repository and merge what they say.

The walk is bounded (MAX_SOURCES files, MAX_DEPTH folders deep, MAX_ENTRIES directory entries
looked at), skips .git, node_modules, virtual environments and build output, and never follows a
symlink that leaves the folder. Each source is parsed on its own (envgen.repro.importer.detect);
the merge takes torch from the most specific source that pins it (a conda environment or pip
freeze before requirements, a Dockerfile or Singularity definition, an install script, a README,
then a package's declared ranges), fills what that source leaves unsaid from the others, and says
which file each fact came from and where files disagree.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

from envgen.errors import ImportSpecError
from envgen.repro.importer.detect import is_definition, parse_text
from envgen.repro.importer.evidence import Evidence, Pin, set_python
from envgen.repro.reading import UnreadableSource, excerpt, inside, read_source

MAX_SOURCES: Final = 64
MAX_DEPTH: Final = 6
MAX_ENTRIES: Final = 20_000
MAX_TOTAL_BYTES: Final = 8 * 1024 * 1024  # all sources of one repository together
SKIP_DIRS: Final = frozenset(
    {
        ".git", ".hg", ".svn", "node_modules", "__pycache__", ".tox", ".nox", ".venv", "venv",
        ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages", ".eggs", "build", "dist",
        ".ipynb_checkpoints", "wandb", "outputs", "checkpoints",
    }
)  # fmt: skip

# (rank, pattern on the lower-cased file name): a lower rank is a more specific source.
_SOURCES: Final = (
    (0, re.compile(r"^(environment|env|conda)[\w.-]*\.ya?ml$")),
    (
        1,
        re.compile(
            r"^[\w.-]*requirements[\w.-]*\.(txt|in)$|^requirements$|^pipfile(\.lock)?$"
            r"|^pixi\.(toml|lock)$|^(uv|poetry)\.lock$|^pylock(\.[\w-]+)?\.toml$"
        ),
    ),
    # Container recipes: Dockerfiles, Singularity / Apptainer definition files (a `.def` is one
    # only when it opens with a `Bootstrap:` header: checked once read)
    (2, re.compile(r"^dockerfile[\w.-]*$|^[\w.-]+\.dockerfile$")),
    (2, re.compile(r"^singularity(\.[\w-]+)?$|^[\w.-]+\.def$")),
    (3, re.compile(r"^[\w.-]*\.(sh|bash|bat|cmd)$")),
    # CI configurations at the top of the tree (.github/workflows is a hidden folder, not walked)
    (
        3,
        re.compile(
            r"^(\.travis|\.gitlab-ci|azure-pipelines|bitbucket-pipelines)\.ya?ml$|^tox\.ini$"
        ),
    ),
    (4, re.compile(r"^(readme|install|getting_started|installation)[\w.-]*\.(md|rst|txt)$")),
    (5, re.compile(r"^(setup\.py|setup\.cfg|pyproject\.toml)$")),
)


@dataclass(frozen=True, slots=True)
class _Source:
    rank: int
    depth: int
    rel: str
    path: Path


def find_sources(root: Path) -> tuple[list[_Source], list[str]]:
    """The environment sources under `root`, most specific first, and what the walk skipped."""
    root = root.resolve()
    found: list[_Source] = []
    notes: list[str] = []
    seen = 0
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as listing:  # closed even when listing fails midway
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            notes.append(f"{_rel(folder, root)}: cannot be listed: {exc.strerror}; skipped")
            continue
        for entry in entries:
            seen += 1
            if seen > MAX_ENTRIES:
                notes.append(
                    f"{root}: more than {MAX_ENTRIES} entries; the rest were not looked at"
                )
                stack.clear()
                break
            path = Path(entry.path)
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                if not inside(path, root):
                    if _rank(entry.name) is not None:
                        notes.append(
                            f"{_rel(path, root)}: a symlink out of the folder; not followed"
                        )
                    continue
                try:
                    info = path.stat()
                except OSError:
                    continue
            if stat.S_ISDIR(info.st_mode):
                if (
                    entry.name in SKIP_DIRS
                    or entry.name.startswith(".")
                    or (path / "pyvenv.cfg").exists()
                    or depth + 1 > MAX_DEPTH
                    or stat.S_ISLNK(entry.stat(follow_symlinks=False).st_mode)
                ):
                    continue
                stack.append((path, depth + 1))
                continue
            rank = _rank(entry.name)
            if rank is not None:
                found.append(_Source(rank, depth, _rel(path, root), path))
    found.sort(key=lambda s: (s.rank, s.depth, s.rel))
    if len(found) > MAX_SOURCES:
        notes.append(
            f"{root}: {len(found)} environment sources; only the first {MAX_SOURCES} "
            "(most specific first) were read"
        )
        found = found[:MAX_SOURCES]
    return found, notes


def _rank(name: str) -> int | None:
    low = name.lower()
    return next((rank for rank, pattern in _SOURCES if pattern.match(low)), None)


def _rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix() or "."
    except ValueError:
        return str(path)


def parse_repository(root: Path) -> Evidence:
    """Parse every environment source under `root` and merge them into one `Evidence`.

    Raises:
        ImportSpecError: the folder holds no environment source at all.
    """
    root = root.resolve()
    sources, notes = find_sources(root)
    parsed: list[tuple[_Source, Evidence]] = []
    total = 0
    for src in sources:
        try:
            text = read_source(src.path, shown=src.rel)
        except UnreadableSource as exc:
            notes.append(f"{exc}; skipped")
            continue
        if src.path.name.lower().endswith(".def") and not is_definition(text):
            continue  # a module-definition file or the like, not an Apptainer recipe
        total += len(text)
        if total > MAX_TOTAL_BYTES:
            notes.append(
                f"{root}: the sources pass {MAX_TOTAL_BYTES} bytes together; {src.rel} and the "
                "less specific sources after it were not read"
            )
            break
        # A Dockerfile in a subfolder is usually built with the repository as its context
        # (docker build -f docker/Dockerfile .): COPY paths are tried there when not beside it.
        found = parse_text(text, filename=src.rel, base=src.path.parent, root=root)
        if found.unreadable is not None:
            notes.append(f"{found.unreadable}; skipped, the other files are read")
            continue
        parsed.append((src, found))
    if not parsed:
        msg = (
            f"{root}: no environment source found (environment*.yml, requirements*.txt, "
            "setup.py, setup.cfg, pyproject.toml, Dockerfile, *.sh, README/INSTALL shell blocks)"
        )
        raise ImportSpecError(msg)
    merged = merge(root, parsed, notes)
    if merged.python is None:
        version_file_python(root, merged)
    return merged


# Files at a repository's top that name its interpreter and nothing else: pyenv's
# `.python-version` (`3.9.7`; https://github.com/pyenv/pyenv#choosing-the-python-version) and
# the `runtime.txt` of Heroku-style buildpacks (`python-3.8.10`;
# https://devcenter.heroku.com/articles/python-runtimes).
_VERSION_FILES: Final = (
    (".python-version", re.compile(r"(\d\.\d+)(\.\d+)?")),
    ("runtime.txt", re.compile(r"python-(\d\.\d+)(\.\d+)?")),
)


def version_file_python(root: Path, merged: Evidence, names: tuple[str, ...] = ()) -> None:
    """The python of `.python-version` or `runtime.txt` (or only the `names` given: uv reads
    `.python-version`) in `root`, where no source named one."""
    for name, pattern in _VERSION_FILES:
        if names and name not in names:
            continue
        path = root / name
        if not path.is_file() or not inside(path, root):
            continue
        try:
            text = read_source(path, shown=name)
        except UnreadableSource:
            continue
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
        m = pattern.fullmatch(first)
        if m is None:
            continue
        set_python(merged, first.removeprefix("python-"), name)
        merged.warnings.append(f"{merged.source}: python {m.group(1)} from {name} ({first})")
        return


def _pin_strength(pin: Pin | None) -> int:
    if pin is None:
        return 0
    if pin.version is not None:
        return 3
    return 2 if pin.specifier else 1


def merge(root: Path, parsed: list[tuple[_Source, Evidence]], notes: list[str]) -> Evidence:
    """One `Evidence` for the repository, with warnings naming each fact's file and conflicts."""
    useful = [(s, f) for s, f in parsed if _has_facts(f)]
    pool = useful or parsed
    primary_src, primary = max(pool, key=lambda sf: (_pin_strength(sf[1].torch), -pool.index(sf)))
    merged = Evidence(source=root.name or str(root), kind=primary.kind, root=root)
    merged.name = primary.name or next((f.name for _, f in pool if f.name), None)
    merged.torch = primary.torch
    merged.torch_manager = primary.torch_manager
    merged.warnings.extend(notes)
    read = ", ".join(s.rel for s, _ in parsed)
    merged.warnings.append(f"{merged.source}: read {len(parsed)} environment source(s): {read}")
    ordered = [(primary_src, primary)] + [sf for sf in pool if sf[1] is not primary]
    for src, found in ordered:
        merged.problems.extend(found.problems)
        merged.warnings.extend(found.warnings)
        merged.departures.extend(found.departures)
        _merge_torch(merged, found, primary_src)
        _merge_python(merged, found)
        for name, pin in found.companions.items():
            have = merged.companions.get(name)
            if have is None or (have.version is None and pin.version is not None):
                merged.companions[name] = pin
        if found is primary or not merged.compute:
            merged.compute.extend(found.compute)
        if found is primary or not merged.indexes:
            merged.indexes.extend(found.indexes)
        merged.cpuonly = merged.cpuonly or (found is primary and found.cpuonly)
        merged.cpu_package = merged.cpu_package or (found.cpu_package if found is primary else "")
        merged.image_cuda = merged.image_cuda or found.image_cuda
        if found is primary:
            merged.interpreter_image = found.interpreter_image
            # how the primary source's conda torch chooses its build (conda-forge's CUDA bounds,
            # the channel named on the spec, a pixi manifest's missing __cuda)
            merged.cuda_series, merged.system_cuda = found.cuda_series, found.system_cuda
            merged.gpu_package, merged.pixi = found.gpu_package, found.pixi
            merged.torch_channel = found.torch_channel
        merged.toolkit_cuda = merged.toolkit_cuda or found.toolkit_cuda
        for ch in found.channels:
            if ch not in merged.channels:
                merged.channels.append(ch)
        for dep in found.conda_deps:
            if dep not in merged.conda_deps:
                merged.conda_deps.append(dep)
        offset = len(merged.pip_reqs)
        _merge_pip(merged, found, src)
        merged.wheels.extend(
            replace(w, slot=min(offset + w.slot, len(merged.pip_reqs))) for w in found.wheels
        )
        for key, note in found.comments.items():
            merged.comments.setdefault(key, note)
    if merged.torch is not None:
        merged.warnings.append(
            f"{merged.source}: torch {_said(merged.torch)} from {merged.torch.where}"
        )
    if merged.python is not None:
        merged.warnings.append(
            f"{merged.source}: python {merged.python} from {merged.python_where}"
        )
    return merged


def _has_facts(found: Evidence) -> bool:
    return bool(
        found.torch
        or found.python
        or found.pip_reqs
        or found.wheels
        or found.conda_deps
        or found.compute
    )


def _said(pin: Pin) -> str:
    if pin.version:
        return pin.version + (f"+{pin.label}" if pin.label else "")
    return pin.specifier or "(unpinned)"


def _merge_torch(merged: Evidence, found: Evidence, primary_src: _Source) -> None:
    pin = found.torch
    if pin is None or merged.torch is None or pin is merged.torch:
        return
    if _pin_strength(pin) < 2 or (pin.version, pin.specifier) == (
        merged.torch.version,
        merged.torch.specifier,
    ):
        return
    if pin.version is None and merged.torch.version is not None:
        return  # a range (setup.py's torch>=1.4) does not contradict the exact pin
    merged.warnings.append(
        f"{merged.source}: the files disagree on torch: {_said(merged.torch)} "
        f"({merged.torch.where}) and {_said(pin)} ({pin.where}); project.yaml follows "
        f"{primary_src.rel}, the more specific source"
    )


def _merge_python(merged: Evidence, found: Evidence) -> None:
    if found.python is None:
        return
    if merged.python is None:
        merged.python, merged.python_where = found.python, found.python_where
    elif merged.python != found.python:
        merged.warnings.append(
            f"{merged.source}: the files disagree on python: {merged.python} "
            f"({merged.python_where}) and {found.python} ({found.python_where}); project.yaml "
            f"uses {merged.python}"
        )


def _merge_pip(merged: Evidence, found: Evidence, src: _Source) -> None:
    names = {}
    for req in merged.pip_reqs:
        try:
            names[canonicalize_name(Requirement(req).name)] = req
        except InvalidRequirement:
            continue
    for req in found.pip_reqs:
        try:
            name = canonicalize_name(Requirement(req).name)
        except InvalidRequirement:
            continue
        if name not in names:
            merged.pip_reqs.append(req)
            names[name] = req
        elif names[name] != req and src.rank <= 3:
            merged.warnings.append(
                f"{merged.source}: {src.rel} asks for {excerpt(req)!r} but an earlier source has "
                f"{excerpt(names[name])!r}; project.yaml keeps the earlier one"
            )
