"""Compiled torch extensions (PyG, mmcv, detectron2, DGL, xformers, flash-attn, pytorch3d, spconv).

Pure: matrices/extensions.yaml rows (loaded with the matrix) + one variant's torch, accelerator,
python and platform -> the version to pin and the index line that serves it, or an
UnsupportedCombinationError naming the nearest combination that was built. It also recognises
the extensions' find-links URLs (for `envgen import`). It must not fetch anything.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

from envgen.errors import UnsupportedCombinationError
from envgen.model.matrix import Extension, ExtensionBuild, ExtensionIndex, Matrix, cuda_number
from envgen.model.types import Platform

# Placeholders an index URL template may use (see ExtensionIndex.url).
_PLACEHOLDERS: Final = (
    "accelerator",
    "torch_minor",
    "torch_nodot",
    "python_nodot",
    "python_abi",
    "version",
    "cuda_build",
    "cxx11abi",
)
# PyPI torch wheels switched to the C++11 ABI with torch 2.7 (flash-attn names it in its wheels).
_CXX11_ABI_SINCE: Final = Version("2.7")


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtensionPin:
    """What a variant's requirements.txt gets for one extension."""

    extension: str
    import_name: str
    package: str
    version: str
    requirement: str
    index_line: str | None
    source: str
    inferred: bool
    # Served by the variant's own PyTorch index (xformers): the locker routes it there.
    from_pytorch_index: bool = False
    # The pip: item this pin replaces, as the spec wrote it.
    requested: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Target:
    """The variant an extension must fit."""

    torch: str
    accelerator: str
    python: str
    platform: Platform


@dataclass(frozen=True, slots=True, kw_only=True)
class FindLinksMatch:
    """A recognised extension index URL and the torch / accelerator it encodes."""

    extension: str
    torch: str | None
    accelerator: str | None


@dataclass(frozen=True, slots=True, kw_only=True)
class WheelMatch:
    """A recognised extension wheel URL: the requirement it stands for and what its URL names."""

    extension: str
    requirement: str  # the wheel's name ==its public version (torch-scatter==2.1.0)
    page: str  # the find-links page the wheel is listed on, or the wheel URL itself (direct-url)
    form: str  # the index form that serves it (find-links, direct-url)
    torch: str | None
    accelerator: str | None
    python: str | None  # from the wheel's cpXY tag


def find_extension(matrix: Matrix, name: str) -> Extension | None:
    """The extension a pip name means (its canonical name or an alias pattern), else None."""
    wanted = canonicalize_name(name)
    for ext in matrix.extensions:
        if wanted == ext.name or any(fnmatch.fnmatchcase(wanted, a) for a in ext.aliases):
            return ext
    return None


def requirement_extension(matrix: Matrix, requirement: str) -> Extension | None:
    """The extension a requirement line names (pinned or not), else None.

    A direct reference (`name @ url`) or an unparsable line is left alone.
    """
    try:
        req = Requirement(requirement)
    except InvalidRequirement:
        return None
    if req.url:
        return None
    return find_extension(matrix, req.name)


def torch_matches(entry: str, torch: str) -> bool:
    """Whether a build row's torch entry covers a torch release.

    >>> torch_matches("1.12", "1.12.1"), torch_matches("2.1.2", "2.1.0")
    (True, False)
    >>> torch_matches(">=1.6", "2.0.0")
    True
    """
    release = Version(torch)
    if any(c in entry for c in "<>=!~*"):
        return SpecifierSet(entry).contains(release, prereleases=True)
    parts = tuple(int(p) for p in entry.split("."))
    return release.release[: len(parts)] == parts if len(parts) == 2 else release == Version(entry)


def _index_for(ext: Extension, torch: str) -> ExtensionIndex | None:
    release = Version(torch)
    for index in ext.indexes:
        if SpecifierSet(index.torch).contains(release, prereleases=True):
            return index
    return None


def _builds_for(ext: Extension, target: Target, *, python: bool = True) -> list[ExtensionBuild]:
    return [
        b
        for b in ext.builds
        if target.platform in b.platforms
        and target.accelerator in b.accelerators
        and any(torch_matches(t, target.torch) for t in b.torch)
        and (not python or not b.python or target.python in b.python)
    ]


def _version_key(v: str) -> Version:
    return Version(v)


def _dates(ext: Extension) -> dict[str, str | None]:
    return {v.version: v.date for v in ext.versions}


def _allowed(ext: Extension, version: str, specifier: SpecifierSet, before: dt.date | None) -> bool:
    if not specifier.contains(version, prereleases=True):
        return False
    date = _dates(ext).get(version)
    return before is None or date is None or date <= before.isoformat()


def _url(index: ExtensionIndex, target: Target, build: ExtensionBuild, version: str) -> str:
    template = index.cpu_url if target.accelerator == "cpu" and index.cpu_url else index.url
    if template is None:
        msg = f"internal error: the {index.form} index has no url"
        raise RuntimeError(msg)
    release = Version(target.torch)
    values = {
        "accelerator": target.accelerator,
        "torch_minor": f"{release.major}.{release.minor}",
        "torch_nodot": "".join(str(p) for p in release.release),
        "python_nodot": target.python.replace(".", ""),
        "python_abi": python_abi(target.python),
        "version": version,
        "cuda_build": build.cuda_build or target.accelerator.removeprefix("cu"),
        "cxx11abi": "TRUE" if release >= _CXX11_ABI_SINCE else "FALSE",
    }
    out = template
    for key in _PLACEHOLDERS:
        out = out.replace("{" + key + "}", values[key])
    return out


def python_abi(python: str) -> str:
    """The ABI tag of a CPython wheel: `m` (pymalloc) is part of it up to Python 3.7.

    >>> python_abi("3.7"), python_abi("3.10")
    ('cp37m', 'cp310')
    """
    nodot = python.replace(".", "")
    return f"cp{nodot}m" if Version(python) < Version("3.8") else f"cp{nodot}"


def _span(values: Iterable[str]) -> str:
    ordered = sorted(set(values), key=_version_key)
    return ", ".join(ordered) if ordered else "nothing"


def resolve(
    matrix: Matrix,
    requirement: str,
    target: Target,
    *,
    where: str,
    before: dt.date | None = None,
) -> ExtensionPin:
    """Pin one extension requirement for a variant.

    `before`: the spec's lock date; versions released after it are not picked.

    Raises:
        UnsupportedCombinationError: when no wheel of a matching version was built for the
            variant's torch x accelerator x python x platform, naming the nearest that was.
    """
    req = Requirement(requirement)
    ext = find_extension(matrix, req.name)
    if ext is None:
        msg = f"internal error: {req.name} is not an extension"
        raise RuntimeError(msg)
    req.specifier = public_specifier(req.specifier)
    if any(s.operator in ("==", "===") for s in req.specifier):
        before = None  # an exact pin is taken as written; the date picks unpinned versions
    index = _index_for(ext, target.torch)
    builds = _builds_for(ext, target) if index is not None else []
    chosen: tuple[Version, ExtensionBuild] | None = None
    for b in builds:
        for v in b.versions:
            if _allowed(ext, v, req.specifier, before) and (
                chosen is None or Version(v) > chosen[0]
            ):
                chosen = (Version(v), b)
    if chosen is None or index is None:
        raise _unbuilt(ext, req, target, where=where, before=before)
    version, build = str(chosen[0]), chosen[1]
    package = build.package or ext.name
    extras = f"[{','.join(sorted(req.extras))}]" if req.extras else ""
    marker = f"; {req.marker}" if req.marker else ""
    line: str | None = None
    if index.form == "direct-url":
        text = f"{package}{extras} @ {_url(index, target, build, version)}{marker}"
    else:
        text = f"{package}{extras}=={version}{marker}"
        if index.form in ("find-links", "extra-index-url"):
            line = f"--{index.form} {_url(index, target, build, version)}"
    return ExtensionPin(
        extension=ext.name,
        import_name=ext.import_name,
        package=package,
        version=version,
        requirement=text,
        index_line=line,
        source=build.source or ext.source,
        inferred=build.inferred or index.inferred,
        from_pytorch_index=index.form == "pytorch-index",
        requested=requirement,
    )


def install_line(pin: ExtensionPin) -> str:
    """The one-line pip command for a pin, in the projects' published shape (`-f` last).

    >>> install_line(ExtensionPin(extension="detectron2", import_name="detectron2",
    ...     package="detectron2", version="0.6", requirement="detectron2==0.6",
    ...     index_line="--find-links https://x/i.html", source="s", inferred=False))
    'pip install detectron2==0.6 -f https://x/i.html'
    """
    import shlex  # noqa: PLC0415 - only to write an install line

    text = f"pip install {shlex.quote(pin.requirement)}"
    if pin.index_line is None:
        return text
    flag, _, url = pin.index_line.partition(" ")
    return f"{text} {'-f' if flag == '--find-links' else flag} {url}"


def pins_for(
    matrix: Matrix, names: Iterable[str], target: Target, *, where: str
) -> tuple[ExtensionPin, ...]:
    """Pin each named extension (`--with`) for one target; an unknown name is an error.

    Raises:
        UnsupportedCombinationError: for an unknown extension or one never built for `target`.
    """
    out: list[ExtensionPin] = []
    for name in names:
        if requirement_extension(matrix, name) is None:
            known = ", ".join(sorted(e.name for e in matrix.extensions))
            msg = f"{where}: {name!r} is not a known extension; known: {known}"
            raise UnsupportedCombinationError(msg)
        try:
            out.append(resolve(matrix, name, target, where=where))
        except UnsupportedCombinationError as exc:
            hint = (exc.hint or "").replace(
                f"drop {Requirement(name).name} from pip: and build it from source",
                f"leave out --with {name}",
            )
            raise UnsupportedCombinationError(exc.message, hint=hint) from None
    return tuple(out)


def public_specifier(specifier: SpecifierSet) -> SpecifierSet:
    """A pin with a wheel's local label (`==2.1.0+pt113cpu`) as its public version (`==2.1.0`).

    The label names one torch x CUDA build; envgen picks the build per variant.

    >>> str(public_specifier(SpecifierSet("==2.1.0+pt113cpu")))
    '==2.1.0'
    >>> str(public_specifier(SpecifierSet("===*")))  # arbitrary equality, not a version
    '===*'
    """
    parts = []
    for spec in specifier:
        version = spec.version
        if spec.operator in ("==", "!=", "===") and "+" in version:
            version = version.split("+", 1)[0]
        operator = spec.operator
        if operator == "===" and _is_version(version):
            operator = "=="  # arbitrary equality on a PEP 440 version: `===*` stays as it is
        parts.append(f"{operator}{version}")
    return SpecifierSet(",".join(parts))


def _is_version(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


def _describe(target: Target) -> str:
    return f"torch {target.torch} {target.accelerator} (python {target.python}, {target.platform})"


def _unbuilt(
    ext: Extension,
    req: Requirement,
    target: Target,
    *,
    where: str,
    before: dt.date | None,
) -> UnsupportedCombinationError:
    """The error for a combination never built, naming the nearest one that was."""
    asked = str(req.specifier) or ""
    label = f"{ext.name}{asked}"
    head = f"{where}: no {label} wheel was built for {_describe(target)}"
    here = _builds_for(ext, target) if _index_for(ext, target.torch) else []
    if here:
        versions = sorted({v for b in here for v in b.versions}, key=_version_key)
        fitting = [v for v in versions if _allowed(ext, v, SpecifierSet(), before)]
        newest = fitting[-1] if fitting else versions[-1]
        late = (
            ""
            if fitting == versions
            else f" (after {before}: {_span(set(versions) - set(fitting))})"
        )
        hint = f"pin {ext.name}=={newest} (or leave it unpinned)"
        if not fitting:
            first = min((d for v in versions if (d := _dates(ext).get(v))), default=None)
            hint = f"pin {ext.name}=={newest} (an exact pin is taken whatever its date)" + (
                f", or move lock.exclude_newer to {first} or later" if first else ""
            )
        return UnsupportedCombinationError(
            f"{head}; versions built for it: {_span(versions)}{late}", hint=hint
        )
    any_python = _builds_for(ext, target, python=False)
    if any_python:
        pythons = sorted({p for b in any_python for p in b.python}, key=_version_key)
        return UnsupportedCombinationError(
            f"{head}; it was built for python {_span(pythons)}",
            hint=f"use python {pythons[-1]} for this variant",
        )
    # Every suggestion below is a build for the variant's platform and python (a row that
    # records no python is taken to fit): a build for another python is no way out.
    usable = [
        b
        for b in ext.builds
        if target.platform in b.platforms and (not b.python or target.python in b.python)
    ]
    # Same torch, other accelerators.
    same_torch = [b for b in usable if any(torch_matches(t, target.torch) for t in b.torch)]
    others = sorted({a for b in same_torch for a in b.accelerators}, key=_acc_key)
    # Same accelerator, other torch releases: the nearest series.
    series = {
        t: max(b.versions, key=_version_key)
        for b in usable
        if target.accelerator in b.accelerators
        for t in b.torch
        if not any(c in t for c in "<>=!~*")
    }
    parts = [head]
    fixes: list[str] = []
    if others:
        parts.append(f"for torch {target.torch} it was built for {', '.join(others)}")
        fixes.append(f"use accelerator {_nearest_acc(target.accelerator, others)}")
    if series:
        near = min(series, key=lambda t: _distance(t, target.torch))
        parts.append(
            f"nearest {target.accelerator} build: torch {near} with {ext.name} {series[near]}"
        )
        fixes.append(f"use torch {_release_of(near)} for this variant")
    if not others and not series:
        anywhere = [
            (t, a, max(b.versions, key=_version_key))
            for b in usable
            for t in b.torch
            if not any(c in t for c in "<>=!~*")
            for a in b.accelerators
        ]
        if anywhere:
            near_t = min({t for t, _, _ in anywhere}, key=lambda t: _distance(t, target.torch))
            accs = sorted({a for t, a, _ in anywhere if t == near_t}, key=_acc_key)
            acc = _nearest_acc(target.accelerator, accs)
            version = max((v for t, a, v in anywhere if t == near_t and a == acc), key=_version_key)
            parts.append(f"nearest build: torch {near_t} {acc} with {ext.name} {version}")
            fixes.append(f"use torch {_release_of(near_t)} with {acc}")
        elif other_python := _nearest_other_python(ext, target):
            near_t, acc, version, pythons = other_python
            parts.append(
                f"no {target.platform} wheel of it was built for python {target.python}; "
                f"nearest build: torch {near_t} {acc} with {ext.name} {version}, "
                f"for python {_span(pythons)}"
            )
            fixes.append(
                f"use torch {_release_of(near_t)} with {acc} and python {pythons[-1]} "
                "for this variant"
            )
        else:
            parts.append(
                f"matrices/extensions.yaml records no {target.platform} wheels of {ext.name}"
            )
    fixes.append(f"drop {req.name} from pip: and build it from source")
    return UnsupportedCombinationError("; ".join(parts), hint=", or ".join(fixes))


def _nearest_other_python(ext: Extension, target: Target) -> tuple[str, str, str, list[str]] | None:
    """The nearest build on the variant's platform for some other python (the same accelerator
    first): (torch entry, accelerator, newest version, its pythons); None when the rows record
    none with a python and an exact torch."""
    found = [
        (t, a, max(b.versions, key=_version_key), b.python)
        for b in ext.builds
        if target.platform in b.platforms and b.python
        for t in b.torch
        if not any(c in t for c in "<>=!~*")
        for a in b.accelerators
    ]
    same_acc = [f for f in found if f[1] == target.accelerator]
    found = same_acc or found
    if not found:
        return None
    near_t = min({f[0] for f in found}, key=lambda t: _distance(t, target.torch))
    accs = sorted({a for t, a, _, _ in found if t == near_t}, key=_acc_key)

    def python_gap(acc: str) -> int:
        # how far the build's nearest python is from the variant's (3.10 for 3.11, not 3.7)
        wanted = Version(target.python)
        return min(
            abs(Version(p).minor - wanted.minor) + 100 * abs(Version(p).major - wanted.major)
            for t, a, _, py in found
            if t == near_t and a == acc
            for p in py
        )

    gap = min(python_gap(a) for a in accs)
    acc = _nearest_acc(target.accelerator, [a for a in accs if python_gap(a) == gap])
    here = [(v, py) for t, a, v, py in found if t == near_t and a == acc]
    version = max((v for v, _ in here), key=_version_key)
    pythons = sorted({p for v, py in here if v == version for p in py}, key=_version_key)
    return near_t, acc, version, pythons


def _acc_key(acc: str) -> tuple[int, float]:
    return (0, 0) if acc == "cpu" else (1, cuda_number(acc) or 0)


def _nearest_acc(acc: str, choices: list[str]) -> str:
    wanted = cuda_number(acc)
    cudas = [(abs(n - wanted), c) for c in choices if wanted is not None and (n := cuda_number(c))]
    return min(cudas)[1] if cudas else choices[0]


def _distance(entry: str, torch: str) -> tuple[int, int]:
    a, b = Version(entry), Version(torch)
    ka = a.major * 100 + a.minor
    kb = b.major * 100 + b.minor
    # Ties go to the newer series.
    return (abs(ka - kb), -ka)


def _release_of(entry: str) -> str:
    return f"{entry}.0" if entry.count(".") == 1 else entry


# --- recognition (envgen import) ------------------------------------------------------------
def _template_regex(template: str) -> re.Pattern[str]:
    pattern = re.escape(template)
    groups = {
        "accelerator": r"(?P<accelerator>cpu|cu\d{2,3})",
        "torch_minor": r"(?P<torch_minor>\d+\.\d+)",
        "torch_nodot": r"(?P<torch_nodot>\d{3,4})",
        "python_nodot": r"(?P<python_nodot>3\d{1,2})",
        "python_abi": r"(?P<python_abi>cp3\d{1,2}m?)",
        "version": r"(?P<version>[0-9][0-9a-z.]*)",
        "cuda_build": r"(?P<cuda_build>\d+)",
        "cxx11abi": r"(?P<cxx11abi>TRUE|FALSE)",
    }
    for key, group in groups.items():
        escaped = re.escape("{" + key + "}")
        pattern = pattern.replace(escaped, group, 1).replace(escaped, f"(?P={key})")
    return re.compile(pattern)


def _current(matrix: Matrix, url: str) -> str:
    """A URL with %2B decoded and an old host (moved-from) rewritten to the current one."""
    text = url.strip().replace("%2B", "+").replace("%2b", "+")
    for ext in matrix.extensions:
        for index in ext.indexes:
            now = (index.url or "").split("{", 1)[0].rsplit("/", 1)[0] + "/"
            for old in index.moved_from:
                if text.startswith(old):
                    text = now + text[len(old) :]
    return text


def _match(ext: Extension, text: str) -> tuple[FindLinksMatch, ExtensionIndex] | None:
    for index in ext.indexes:
        templates = [(index.url, False), (index.cpu_url, True)]
        templates += [(t, False) for t in index.import_urls]
        for template, cpu in templates:
            if not template:
                continue
            # PyG writes torch-{torch_minor}.0+...: accept any patch in an imported file.
            found = _template_regex(template.replace("{torch_minor}.0", "{torch_minor}.{_p}"))
            m = re.fullmatch(found.pattern.replace(r"\{_p\}", r"(?P<patch>\d+)"), text)
            if m is None:
                continue
            groups = m.groupdict()
            torch = groups.get("torch_minor")
            if torch and groups.get("patch") is not None:
                torch = f"{torch}.{groups['patch']}"
            elif groups.get("torch_nodot"):
                torch = _from_nodot(groups["torch_nodot"])
            acc = "cpu" if cpu else groups.get("accelerator")
            return FindLinksMatch(extension=ext.name, torch=torch, accelerator=acc), index
    return None


def recognise_index_url(matrix: Matrix, url: str) -> FindLinksMatch | None:
    """Which extension an index / find-links URL serves, and the torch and CUDA it names.

    PyG's `torch-1.12.0+cu113.html` gives torch 1.12.0 and cu113; mmcv's `cu113/torch1.12` gives
    torch 1.12; DGL's cpu page names no accelerator, so it gives cpu.
    """
    text = _current(matrix, url)
    for ext in matrix.extensions:
        hit = _match(ext, text)
        if hit is not None:
            return hit[0]
    return None


def recognise_wheel_url(matrix: Matrix, url: str) -> WheelMatch | None:
    """The extension a direct wheel URL installs, pinned to the wheel's public version.

    A wheel is recognised when its name is an extension and its URL is one of that extension's
    wheels: listed on one of its find-links pages (PyG's `torch-1.12.0+cu113/` folder is the page
    `torch-1.12.0+cu113.html`; mmcv's and detectron2's folders hold `index.html`) or built from
    its direct-url template (flash-attn). Anything else is None.

    >>> from envgen.model.matrix import load_matrix
    >>> m = recognise_wheel_url(load_matrix(), "https://data.pyg.org/whl/torch-1.12.0%2Bcu113/"
    ...     "torch_scatter-2.1.0%2Bpt112cu113-cp39-cp39-linux_x86_64.whl")
    >>> m.requirement, m.page
    ('torch-scatter==2.1.0', 'https://data.pyg.org/whl/torch-1.12.0+cu113.html')
    >>> m.torch, m.accelerator, m.python
    ('1.12.0', 'cu113', '3.9')
    """
    text = url.split("#", 1)[0].strip().replace("%2B", "+").replace("%2b", "+")
    folder, _, filename = text.rpartition("/")
    if "://" not in folder:
        return None
    try:
        name, version, _, tags = parse_wheel_filename(filename)
    except (InvalidWheelFilename, InvalidVersion):
        return None
    ext = find_extension(matrix, name)
    if ext is None:
        return None
    pages = [text, f"{folder}.html"]
    for index in ext.indexes:
        for template in (index.url, index.cpu_url, *index.import_urls):
            last = (template or "").rsplit("/", 1)[-1]
            if last and "{" not in last and f"{folder}/{last}" not in pages:
                pages.append(f"{folder}/{last}")
    python = next(
        (
            f"{m.group(1)}.{m.group(2)}"
            for tag in sorted(tags, key=str)
            if (m := re.fullmatch(r"cp(3)(\d+)", tag.interpreter))
        ),
        None,
    )
    for page in pages:
        hit = _match(ext, _current(matrix, page))
        if hit is None:
            continue
        found, index = hit
        return WheelMatch(
            extension=ext.name,
            requirement=f"{name}=={version.public}",
            page=page,
            form=index.form,
            torch=found.torch,
            accelerator=found.accelerator,
            python=python,
        )
    return None


def accelerator_from_pages(
    matrix: Matrix, indexes: Iterable[tuple[str, str]]
) -> tuple[str, str] | None:
    """The compute platform an imported file's extension pages name: (accelerator, url)."""
    for _, url in indexes:
        found = recognise_index_url(matrix, url)
        if found is not None and found.accelerator is not None:
            return found.accelerator, url
    return None


def torch_from_pages(matrix: Matrix, indexes: Iterable[tuple[str, str]]) -> tuple[str, str] | None:
    """The torch an imported file's extension pages were built for: (torch, url).

    >>> from envgen.model.matrix import load_matrix
    >>> torch_from_pages(load_matrix(), [("find-links", "https://data.pyg.org/whl/torch-2.1.0+cu121.html")])
    ('2.1.0', 'https://data.pyg.org/whl/torch-2.1.0+cu121.html')
    """
    for _, url in indexes:
        found = recognise_index_url(matrix, url)
        if found is not None and found.torch is not None:
            return found.torch, url
    return None


def review_import(
    matrix: Matrix,
    requirements: Iterable[str],
    indexes: Iterable[tuple[str, str]],
    target: Target,
    *,
    where: str,
    pythons: tuple[str, ...] = (),
) -> tuple[list[str], list[str], str | None]:
    """An imported file's extensions against the torch and compute chosen.

    Returns (problems, warnings, python): a requirement never built for them is a problem naming
    the nearest build; an extension page for another torch or compute platform is a warning
    (envgen writes the right page per variant). When the file names no Python, `pythons` (newest
    first) are tried and the first every extension was built for is returned.
    """
    reqs = [r for r in requirements if requirement_extension(matrix, r) is not None]
    indexed = {r: i for i, r in enumerate(requirements)}
    chosen: str | None = None
    for python in pythons:
        candidate = Target(
            torch=target.torch,
            accelerator=target.accelerator,
            python=python,
            platform=target.platform,
        )
        if all(_fits(matrix, r, candidate) for r in reqs):
            chosen = python
            target = candidate
            break
    problems: list[str] = []
    kept: list[str] = []
    for item in reqs:
        try:
            pin = resolve(matrix, item, target, where=f"{where}: pip[{indexed[item]}]")
        except UnsupportedCombinationError as exc:
            problems.append(exc.message if exc.hint is None else f"{exc.message}; fix: {exc.hint}")
            continue
        kept.append(pin.extension)
    warnings: list[str] = []
    release = Version(target.torch)
    for url in dict.fromkeys(u for _, u in indexes):  # a page each -f line names: said once
        found = recognise_index_url(matrix, url)
        if found is None:
            continue
        same_torch = found.torch is None or Version(found.torch).release[:2] == release.release[:2]
        same_acc = found.accelerator in (None, target.accelerator)
        if not (same_torch and same_acc):
            warnings.append(
                f"{where}: the {found.extension} page {url} is for torch {found.torch or '?'}"
                f"{' ' + found.accelerator if found.accelerator else ''}, not torch "
                f"{target.torch} {target.accelerator}; "
                "envgen writes the page of each variant"
            )
    if kept:
        warnings.append(
            f"{where}: kept the compiled extensions {', '.join(kept)}: envgen pins each for the "
            "variant's torch and CUDA and writes its wheel index"
        )
    return problems, warnings, chosen


def _fits(matrix: Matrix, requirement: str, target: Target) -> bool:
    try:
        resolve(matrix, requirement, target, where="")
    except UnsupportedCombinationError:
        return False
    return True


def _from_nodot(digits: str) -> str:
    """pytorch3d's pyt1110 -> 1.11.0, pyt201 -> 2.0.1 (major one digit, patch one digit)."""
    return f"{digits[0]}.{digits[1:-1]}.{digits[-1]}"


def is_extension_requirement(matrix: Matrix, line: str) -> bool:
    """Whether a requirement line names a known extension (for the importer to keep it)."""
    try:
        return requirement_extension(matrix, line) is not None
    except (InvalidRequirement, InvalidSpecifier, InvalidVersion):
        return False
