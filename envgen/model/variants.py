"""expand(ProjectSpec, Matrix) -> Expansion: one Variant per accelerator x python x platform.

Pure: no I/O. Impossible combinations raise UnsupportedCombinationError naming what exists; known
traps from matrices/known-issues.yaml become warnings (or errors) with their fix.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import OptionError, UnsupportedCombinationError
from envgen.model.extensions import ExtensionPin, Target, requirement_extension
from envgen.model.extensions import resolve as resolve_extension
from envgen.model.matrix import (
    CompanionRelease,
    CondaBuild,
    KnownIssue,
    Matrix,
    PipBuild,
    Release,
    compute_sort_key,
    cuda_number,
    cuda_of,
)
from envgen.model.pypi_routes import pypi_route
from envgen.model.pythons import resolution_python
from envgen.model.spec import ProjectSpec, did_you_mean
from envgen.model.types import AcceleratorId, ComputeKind, CondaSource, Manager, Platform, VariantId


@dataclass(frozen=True, slots=True, kw_only=True)
class Variant:
    """One environment to generate, lock and build."""

    id: VariantId
    project: str
    release: Release
    accelerator: AcceleratorId
    kind: ComputeKind
    compute_version: str | None
    python: str
    platform: Platform
    pip: PipBuild | None
    conda: CondaBuild | None
    with_torchvision: bool
    with_torchaudio: bool
    pip_extra: tuple[str, ...]
    conda_channels: tuple[str, ...]
    conda_extra: tuple[str, ...]
    warnings: tuple[str, ...]
    # (name, version) of user-pinned companions that differ from the row's pin but that the
    # artifacts accept (matrices/companions.yaml); they replace the row's public version.
    companion_pins: tuple[tuple[str, str], ...] = ()
    # Those of companion_pins that are pure Python (one wheel for every build): pinned without
    # the build's local label (torchvision 0.2.1, never 0.2.1+cpu).
    pure_companions: tuple[str, ...] = ()
    # Compiled extensions named in pip: pinned for this variant (envgen.model.extensions).
    extensions: tuple[ExtensionPin, ...] = ()
    # The patch release project.yaml names for this python ("3.6.12"), if any.
    python_patch: str | None = None
    # The labelled build PyPI's plain wheel stands for ("1.10.0+cu102"), when the variant takes
    # the PyPI route (envgen.model.pypi_routes).
    pypi_route: str | None = None

    @property
    def resolution_python(self) -> str:
        """The full Python version the lock resolves for (envgen.model.pythons)."""
        return resolution_python(self.python, self.python_patch)

    @property
    def managers(self) -> tuple[Manager, ...]:
        out: list[Manager] = []
        if self.pip is not None:
            out.append("pip")
        if self.conda is not None:
            out.append("conda")
        return tuple(out)

    @property
    def cuda(self) -> str | None:
        return self.compute_version if self.kind == "cuda" else None

    def sort_key(self) -> tuple[object, ...]:
        return variant_sort_key(self)

    def summary(self) -> dict[str, object]:
        """Plain data describing the variant (for `envgen list --json` and the input hash)."""
        return {
            "id": self.id,
            "torch": self.release.torch,
            "accelerator": self.accelerator,
            "kind": self.kind,
            "compute_version": self.compute_version,
            "python": self.python,
            **({"python_patch": self.python_patch} if self.python_patch else {}),
            **({"pypi_route": self.pypi_route} if self.pypi_route else {}),
            "platform": self.platform,
            "managers": list(self.managers),
            "pins": {
                "pip": pip_pins(self),
                "conda": conda_pins(self),
            },
            "warnings": list(self.warnings),
            **(
                {
                    "extensions": {
                        p.package: {"version": p.version, "index": p.index_line}
                        for p in self.extensions
                    }
                }
                if self.extensions
                else {}
            ),
        }


def variant_sort_key(v: Variant) -> tuple[object, ...]:
    """The one order of variants: compute platform, then python, then platform."""
    return (
        compute_sort_key(v.kind, v.compute_version),
        tuple(int(p) for p in v.python.split(".")),
        v.platform,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Expansion:
    """The release a spec resolved to and its variants (warnings live on each variant)."""

    release: Release
    variants: tuple[Variant, ...]
    # What the user should know about the expansion as a whole (why `latest` is not the newest).
    notes: tuple[str, ...] = ()


# Post-releases whose Linux wheels were published on download.pytorch.org's per-build wheel pages
# (whl/<accelerator>/torch-<version>-<abi>-linux_x86_64.whl), the pages a lock of them reads:
# {version: accelerators}. 1.0.1.post2: floydhub/dockerfiles@34ea874:dl/pytorch/1.0.1/
# Dockerfile-py3.gpu.cuda9cudnn7 (whl/cu90/torch-1.0.1.post2-cp36-cp36m-linux_x86_64.whl) and
# Dockerfile-py2 (whl/cpu/...-cp27-cp27mu-...); public install scripts of 2019 name the cu80 and
# cu100 ones. PyPI, which also served it in 2019, has 1.0.1 only today.
POST_RELEASE_PAGES: Final[dict[str, tuple[str, ...]]] = {
    "1.0.1.post2": ("cpu", "cu80", "cu90", "cu100"),
}
_WHEEL_PAGE: Final = "https://download.pytorch.org/whl/{acc}/"


def post_release_build(
    build: PipBuild | None, post: str | None, acc: str, platform: str = "linux-64"
) -> PipBuild | None:
    """A linux-64 pip row of the release a post-release rebuilt, pointed at the post-release's
    wheel on its download.pytorch.org page (where POST_RELEASE_PAGES records one), so the lock
    installs the post-release's own wheel; any other row is returned as it is.

    >>> b = PipBuild(kind="cuda", version="9.0", release="1.0.1", platforms=("linux-64",),
    ...     torch="1.0.1", index="pypi", pypi_default=True, source="s")
    >>> post_release_build(b, "1.0.1.post2", "cu90").direct_urls("3.6")["torch"]
    'https://download.pytorch.org/whl/cu90/torch-1.0.1.post2-cp36-cp36m-linux_x86_64.whl'
    >>> post_release_build(b, "1.0.1.post2", "cu92") is b
    True
    """
    if (
        build is None
        or post is None
        or platform != "linux-64"
        or acc not in POST_RELEASE_PAGES.get(post, ())
    ):
        return build
    page = _WHEEL_PAGE.format(acc=acc)
    return build.model_copy(
        update={
            "platforms": ("linux-64",),
            "index": "find-links",
            "url": f"{page}torch_stable.html",
            "wheel": f"{page}torch-{post}-{{abi}}-linux_x86_64.whl",
            "pypi_default": False,
            "source": f"{build.source}; torch {post}: its wheel on {page} (POST_RELEASE_PAGES)",
            "inferred": True,
        }
    )


def _with_override(published: str, override: str | None) -> str:
    """The user's accepted companion version with the published pin's local label, if any.

    >>> _with_override("0.8.0+cu110", "0.8.1"), _with_override("0.4.1", "0.4.1.post2")
    ('0.8.1+cu110', '0.4.1.post2')
    """
    if override is None:
        return published
    _, plus, label = published.partition("+")
    return f"{override}{plus}{label}"


def pip_pins(v: Variant) -> dict[str, str]:
    """The torch-family pins of the pip side, exactly as published (with local labels)."""
    if v.pip is None:
        return {}
    overrides = dict(v.companion_pins)
    pins = {"torch": _with_override(v.pip.torch, overrides.get("torch"))}
    for name, wanted in (("torchvision", v.with_torchvision), ("torchaudio", v.with_torchaudio)):
        published = getattr(v.pip, name)
        if wanted and published:
            label = published if name not in v.pure_companions else ""
            pins[name] = _with_override(label, overrides.get(name)) or published
    return pins


def conda_pins(v: Variant) -> dict[str, str]:
    """The torch-family pins of the conda side."""
    if v.conda is None:
        return {}
    overrides = dict(v.companion_pins)
    pins = {"pytorch": v.conda.pytorch}
    if v.with_torchvision and v.conda.torchvision:
        pins["torchvision"] = overrides.get("torchvision", v.conda.torchvision)
    if v.with_torchaudio and v.conda.torchaudio:
        pins["torchaudio"] = overrides.get("torchaudio", v.conda.torchaudio)
    return pins


def same_version(a: str | None, b: str | None) -> bool:
    """True when two versions are equal as pip compares them (local labels ignored).

    >>> same_version("1.10", "1.10.0"), same_version("0.8.0+cu110", "0.8.0"), same_version("1", "x")
    (True, True, False)
    """
    if a is None or b is None:
        return False
    try:
        return Version(a.split("+", 1)[0]) == Version(b.split("+", 1)[0])
    except InvalidVersion:
        return False


def published_companions(
    matrix: Matrix, release: Release, name: str, *, source: CondaSource | None = None
) -> list[str]:
    """The `name` versions the matrix pairs with `release` (release row, pip and conda rows)."""
    found = {getattr(release, name)}
    found |= {(getattr(b, name) or "").split("+")[0] for b in matrix.pip_builds(release.torch)}
    conda_source = source or matrix.default_conda_source(release.torch)
    found |= {getattr(b, name) for b in matrix.conda_builds(release.torch, source=conda_source)}
    found.discard(None)
    found.discard("")
    return sorted((str(v) for v in found), key=Version)


def companion_accepts(
    matrix: Matrix, name: str, version: str, release: Release
) -> CompanionRelease | None:
    """The companions.yaml row when the `name` `version` wheel accepts torch `release`.

    Accepted when the wheel's Requires-Dist specifier contains the release and either pins torch
    with `==` (torchvision 0.8.1: ==1.7.0) or the release's own paired companion is in the same
    minor series (an open or missing bound, e.g. torchvision 0.29.2: >=2.14.0, says nothing about
    the ABI of later torch releases, so it is trusted only within the paired series). A
    pure-Python release (torchvision 0.1.6-0.2.2.post3: py2.py3-none-any wheels only, torch
    unpinned) has no ABI to break and is accepted with any release; the caller warns that it
    was not published with it.
    """
    row = matrix.companion(name, version)
    if row is None or not row.specifier.contains(release.version, prereleases=True):
        return None
    if row.exact or row.pure_python:
        return row
    paired = getattr(release, name)
    if paired is not None and Version(paired).release[:2] == Version(row.version).release[:2]:
        return row
    return None


def resolve_release(spec_torch: str, matrix: Matrix, *, where: str = "torch") -> Release:
    """Pick the release a spec's `torch:` names: exact, newest matching a specifier, or latest."""
    releases = sorted(matrix.releases, key=lambda r: r.version)
    if not releases:
        msg = "the matrix has no releases"
        raise UnsupportedCombinationError(msg)
    if spec_torch == "latest":
        return releases[-1]
    exact = matrix.release_of(spec_torch)
    if exact is not None:
        return exact
    try:
        wanted: Version | None = Version(spec_torch)
    except InvalidVersion:
        wanted = None
    if wanted is not None:
        # An exact version that is not a release: name the neighbours.
        near = [r.torch for r in releases if r.version.release[:2] == wanted.release[:2]]
        near_text = ", ".join(near) if near else ", ".join(r.torch for r in releases[-5:])
        msg = f"{where}: torch {spec_torch} is not a PyTorch release; releases near it: {near_text}"
        raise UnsupportedCombinationError(
            msg,
            hint=(
                f"pin one of {near_text}, or use a range such as "
                f'">={wanted.major}.{wanted.minor},<{wanted.major}.{wanted.minor + 1}"'
            ),
        )
    try:
        spec = SpecifierSet(spec_torch)
    except InvalidSpecifier:
        msg = (
            f'{where}: {spec_torch!r} is neither a torch release ("2.1.0"), a range '
            '(">=2.1,<2.3") nor "latest"'
        )
        raise UnsupportedCombinationError(msg) from None
    matching = [r for r in releases if spec.contains(r.version, prereleases=False)]
    if not matching:
        msg = (
            f"{where}: no torch release matches {spec_torch!r}; the matrix has "
            f"{releases[0].torch} to {releases[-1].torch}"
        )
        raise UnsupportedCombinationError(msg)
    return matching[-1]


def _python_range(pythons: tuple[str, ...]) -> str:
    ordered = sorted(pythons, key=lambda p: tuple(int(x) for x in p.split(".")))
    if not ordered:
        return "no python version"
    return ordered[0] if len(ordered) == 1 else f"{ordered[0]}-{ordered[-1]}"


def _companion_owner(matrix: Matrix, name: str, version: str) -> list[str]:
    owners: set[str] = set()
    for r in matrix.releases:
        if same_version(getattr(r, name), version):
            owners.add(r.torch)
    for b in matrix.pip:
        if same_version(getattr(b, name), version):
            owners.add(b.release)
    for c in (*matrix.conda, *matrix.conda_forge):
        if same_version(getattr(c, name), version):
            owners.add(c.release)
    return sorted(owners, key=Version)


def issues_for(
    matrix: Matrix,
    release: Release,
    *,
    manager: Manager,
    accelerator: str,
    pip: PipBuild | None = None,
    conda: CondaBuild | None = None,
    extra_channels: tuple[str, ...] = (),
    pythons: tuple[str, ...] = (),
) -> list[KnownIssue]:
    """Known issues that apply to one variant side (one of `pythons`, for an issue of some
    pythons only: none given, none of those applies)."""
    found: list[KnownIssue] = []
    for issue in matrix.known_issues:
        if issue.manager not in ("any", manager):
            continue
        if issue.python and not set(issue.python) & set(pythons):
            continue
        if not SpecifierSet(issue.torch).contains(release.version, prereleases=True):
            continue
        if issue.accelerators and not any(
            fnmatch.fnmatchcase(accelerator, p) for p in issue.accelerators
        ):
            continue
        if issue.index is not None and (pip is None or pip.index != issue.index):
            continue
        if issue.channel is not None and (
            conda is None or issue.channel not in (*conda.channels, *extra_channels)
        ):
            continue
        if issue.form is not None and (conda is None or conda.form != issue.form):
            continue
        found.append(issue)
    return found


def silenced(
    requirement: str, pip_reqs: Iterable[str] = (), conda_deps: Iterable[str] = ()
) -> bool:
    """True when what a known issue's `silenced-by` requirement excludes is excluded already
    (a bare name: when the package is named).

    The one test of `silenced-by` (variant expansion and `envgen import` both ask it):
    `requirement` is a pip requirement such as `numpy<2`; its `<`, `<=` and `!=` versions are
    the versions it keeps out. `pip_reqs` (PEP 508) and `conda_deps` (conda match specs:
    `numpy=1.26`, `numpy==1.26.4`, `numpy=1.26.4=py39_0`, `numpy 1.26.*`, `numpy<2`,
    `conda-forge::numpy>=1.20,<2`) are what the spec or file asks for; every mention of the
    package narrows what can be installed, so the issue is silent when each kept-out version is
    refused by at least one mention. A mention envgen cannot read refuses nothing.

    >>> silenced("numpy<2", ["numpy<2"]), silenced("numpy<2", ["numpy"])
    (True, False)
    >>> silenced("numpy<2", ["numpy"], ["numpy=1.26"]), silenced("numpy<2", [], ["numpy"])
    (True, False)
    >>> silenced("typing", ["typing"]), silenced("typing", ["six"])
    (True, False)
    """
    want = Requirement(requirement)
    probes = [s.version for s in want.specifier if s.operator in ("<", "<=", "!=")]
    name = canonicalize_name(want.name)
    have = [*_pip_mentions(pip_reqs, name), *_conda_mentions(conda_deps, name)]
    if not want.specifier:  # a bare name: a package the variant needs, silent once it is named
        return bool(have)
    return bool(probes) and all(
        any(not spec.contains(p, prereleases=True) for spec in have) for p in probes
    )


def _pip_mentions(pip_reqs: Iterable[str], name: str) -> list[SpecifierSet]:
    found = []
    for item in pip_reqs:
        try:
            req = Requirement(item)
        except InvalidRequirement:
            continue
        if canonicalize_name(req.name) == name:
            found.append(req.specifier)
    return found


def _conda_mentions(conda_deps: Iterable[str], name: str) -> list[SpecifierSet]:
    """The version constraints conda match specs put on `name`, as PEP 440 specifiers."""
    found = []
    for item in conda_deps:
        spec = _conda_specifier(item, name)
        if spec is not None:
            found.append(spec)
    return found


def _conda_specifier(item: str, name: str) -> SpecifierSet | None:
    """`numpy=1.26` -> ==1.26.*; None when `item` is about another package or is unreadable."""
    m = re.fullmatch(
        r"\s*([A-Za-z0-9_.-]+)\s*(.*?)\s*",
        item.split("[", maxsplit=1)[0].rsplit("::", maxsplit=1)[-1],
    )
    if m is None or canonicalize_name(m.group(1)) != name:
        return None
    rest = m.group(2)
    exact = re.fullmatch(r"=([^=\s]+)=\S+", rest)  # name=version=build: that very version
    if exact is not None:
        rest = f"=={exact.group(1)}"
    version = rest.split(" ")[0] if rest else ""  # `name version build`: the build is dropped
    parts = []
    for raw in version.split(",") if version else ():
        piece = raw.strip()
        if piece.startswith("=") and not piece.startswith("=="):
            bare = piece[1:]
            piece = f"=={bare}" if bare.endswith("*") else f"=={bare}.*"
        elif piece[:1].isdigit():
            piece = f"=={piece}"
        parts.append(piece)
    try:
        return SpecifierSet(",".join(parts))
    except InvalidSpecifier:
        return None


def warning_lines(variants: Sequence[Variant]) -> list[str]:
    """Each variant's warnings for display, a known issue shared by several variants once.

    `[id] pip cpu: text` on cpu and `[id] conda cu116: text` on cu116 become one line,
    `[id] pip+conda on cpu, cu116: text`; other warnings keep their `<variant>: ` prefix.
    """
    grouped: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    order: list[tuple[str, str] | str] = []
    for v in variants:
        for w in v.warnings:
            m = re.fullmatch(r"\[([\w.-]+)\] (pip|conda) (\S+): (.*)", w, re.DOTALL)
            if m is None:
                order.append(f"{v.id}: {w}")
                continue
            key = (m.group(1), m.group(4))
            if key not in grouped:
                grouped[key] = ([], [])
                order.append(key)
            managers, ids = grouped[key]
            if m.group(2) not in managers:
                managers.append(m.group(2))
            if v.id not in ids:
                ids.append(v.id)
    lines: list[str] = []
    for item in order:
        if isinstance(item, str):
            lines.append(item)
            continue
        managers, ids = grouped[item]
        lines.append(f"[{item[0]}] {'+'.join(managers)} on {', '.join(ids)}: {item[1]}")
    return list(dict.fromkeys(lines))


# How `inferred_note` starts: the lock shows the note only when it writes (see app.lock).
INFERRED_NOTE_PREFIX: Final = (
    "inferred matrix rows, not read from PyTorch's published install commands: "
)


def inferred_note(variants: Sequence[Variant]) -> str | None:
    """One line naming the inferred matrix rows these variants use, grouped by their source.

    A row is inferred when it was not read from PyTorch's published install commands (see
    matrices/inferred-builds.yaml); None when every row used was read.
    """
    by_source: dict[str, list[str]] = {}
    for v in variants:
        for mgr, build in (("pip", v.pip), ("conda", v.conda)):
            if build is not None and build.inferred:
                where = f"{v.id} ({mgr})"
                by_source.setdefault(build.source, [])
                if where not in by_source[build.source]:
                    by_source[build.source].append(where)
    release_fields: dict[str, tuple[str, str]] = {}
    for v in variants:
        # A companion the variant leaves out is not part of what it stands on.
        left_out = {"torchvision": not v.with_torchvision, "torchaudio": not v.with_torchaudio}
        fields = [f for f in v.release.inferred if not left_out.get(f, False)]
        if fields:
            release_fields[v.release.torch] = (", ".join(fields), v.release.source)
    if not by_source and not release_fields:
        return None
    parts = [f"{', '.join(ids)} from {source}" for source, ids in by_source.items()]
    parts += [
        f"torch {torch}'s {fields} from {source}"
        for torch, (fields, source) in release_fields.items()
    ]
    return INFERRED_NOTE_PREFIX + "; ".join(parts) + " (check them with `envgen matrix show`)"


def candidate_releases(spec_torch: str, matrix: Matrix) -> tuple[Release, ...]:
    """The releases `torch:` allows, newest first: one for an exact version, more for a range.

    >>> from envgen.model.matrix import load_matrix
    >>> [r.torch for r in candidate_releases(">=2.0,<2.1", load_matrix())]
    ['2.0.1', '2.0.0']
    """
    newest = resolve_release(spec_torch, matrix)
    if spec_torch != "latest" and matrix.release(spec_torch) is not None:
        return (newest,)
    try:
        Version(spec_torch)
    except InvalidVersion:
        pass
    else:
        return (newest,)
    releases = sorted(matrix.releases, key=lambda r: r.version, reverse=True)
    if spec_torch == "latest":
        return tuple(r for r in releases if not r.version.is_prerelease)
    wanted = SpecifierSet(spec_torch)
    return tuple(r for r in releases if wanted.contains(r.version, prereleases=False))


def expand(spec: ProjectSpec, matrix: Matrix) -> Expansion:
    """Expand a spec into its variants.

    `torch: latest` and ranges mean the newest release that fits the whole spec (python,
    accelerators, platforms, managers, companions); when newer ones were skipped, the
    Expansion's notes say why.

    Raises:
        UnsupportedCombinationError: listing every combination PyTorch never published.
    """
    candidates = candidate_releases(spec.torch, matrix)
    skipped: list[tuple[Release, str]] = []
    first: UnsupportedCombinationError | None = None
    for release in candidates:
        try:
            expansion = _expand_release(spec, matrix, release)
        except UnsupportedCombinationError as exc:
            if len(candidates) == 1:
                raise
            first = first or exc
            skipped.append((release, _first_reason(str(exc), spec.path.name)))
            continue
        if not skipped:
            return expansion
        return replace(expansion, notes=(_skipped_note(spec.torch, release, skipped),))
    # No release in the range fits: the newest one's problems say what to change.
    if first is None:  # pragma: no cover - candidate_releases never returns an empty tuple
        msg = f"torch: no release matches {spec.torch!r}"
        raise UnsupportedCombinationError(msg)
    newest = candidates[0].torch
    msg = (
        f"torch: no release matching {spec.torch!r} fits the rest of the spec "
        f"({len(candidates)} tried); the newest, {newest}:\n{first}"
    )
    raise UnsupportedCombinationError(msg)


def _first_reason(text: str, src: str) -> str:
    """The first problem of an expansion error, without the file name or list markers."""
    lines = [line.strip().removeprefix("- ") for line in text.splitlines()]
    problems = [line for line in lines if line and "combinations were never published" not in line]
    reason = (problems or [text])[0].removeprefix(f"{src}: ")
    more = len(problems) - 1
    return reason + (f" (and {more} more)" if more > 0 else "")


def _skipped_note(spec_torch: str, chosen: Release, skipped: list[tuple[Release, str]]) -> str:
    """Why `torch: latest` / a range picked an older release than the newest."""
    shown = "; ".join(f"{r.torch}: {why}" for r, why in skipped[:3])
    rest = f"; and {len(skipped) - 3} more" if len(skipped) > 3 else ""
    return (
        f"torch {spec_torch!r} resolved to {chosen.torch}, the newest release that fits the "
        f"spec; newer ones were skipped: {shown}{rest}"
    )


def _companion_pins(
    spec: ProjectSpec, matrix: Matrix, release: Release, conda_source: CondaSource
) -> tuple[dict[str, bool], list[tuple[str, str]], list[str], list[str]]:
    """The spec's companions against `release`: (which are wanted, exact pins, warnings,
    problems). Companions given as exact versions must belong to the release, or be accepted
    by it; a post-release torch is pinned exactly."""
    src = spec.path.name
    problems: list[str] = []
    spec_warnings: list[str] = []
    post = False
    if not same_version(spec.torch, release.torch) and matrix.release(spec.torch) is None:
        try:
            post = Version(spec.torch).is_postrelease
        except InvalidVersion:
            post = False
    # Companions given as exact versions must belong to this release, or be accepted by it.
    companions: dict[str, bool] = {}
    companion_pins: list[tuple[str, str]] = []
    if post:
        # Kept exactly (0.4.1.post2 is the only 0.4.1 Linux wheel for Python 3.7); conda had none.
        post_pin = str(Version(spec.torch))
        companion_pins.append(("torch", post_pin))
        spec_warnings.append(
            f"torch {spec.torch} is a post-release of {release.torch}: requirements.txt pins "
            f"torch=={post_pin} on {release.torch}'s build rows (conda keeps pytorch "
            f"{release.torch})"
        )
    for name in ("torchvision", "torchaudio"):
        value = getattr(spec, name)
        if isinstance(value, bool):
            companions[name] = value
            continue
        companions[name] = True
        published = published_companions(matrix, release, name, source=conda_source)
        paired = getattr(release, name)
        if same_version(value, paired):
            # The release's own companion; a build row may pin another (a yanked one).
            companion_pins.append((name, paired))
            continue
        if any(same_version(value, p) for p in published):
            continue
        accepted = companion_accepts(matrix, name, value, release)
        if accepted is not None:
            companion_pins.append((name, accepted.version))
            because = (
                f"its wheel is pure Python and names torch without a version "
                f"{accepted.source.removeprefix('pypi Requires-Dist ')}: nothing in it is "
                f"built against torch, but its code was written for torch "
                f"{', '.join(_companion_owner(matrix, name, value)) or 'of its time'}"
                if accepted.pure_python and not accepted.torch
                else f"its wheel accepts torch {release.torch} (Requires-Dist "
                f"torch{accepted.torch})"
            )
            spec_warnings.append(
                f"{name} {accepted.version} is not the release torch {release.torch} was "
                f"published with ({name} {', '.join(published) or 'none'}); it is used because "
                + because
            )
            continue
        owners = _companion_owner(matrix, name, value)
        belongs = f"belongs to torch {', '.join(owners)}" if owners else "is not in the matrix"
        row = matrix.companion(name, value)
        if row is not None and row.torch:
            belongs += f" (its wheel requires torch{row.torch})"
        pairs = ", ".join(published) or "(none)"
        problems.append(
            f"{src}: {name}: {name} {value} {belongs}, not {release.torch}; "
            f"torch {release.torch} pairs with {name} {pairs}"
        )

    return companions, companion_pins, spec_warnings, problems


def _apply_issues(
    spec: ProjectSpec,
    matrix: Matrix,
    release: Release,
    *,
    acc: str,
    builds: tuple[PipBuild | None, CondaBuild | None],
    variant_warnings: list[str],
    pythons: tuple[str, ...] = (),
) -> tuple[PipBuild | None, CondaBuild | None]:
    """Known issues of the variant's builds: a warning each (appended to `variant_warnings`);
    an error drops the manager whose route is gone when the other one remains. The builds kept."""
    pip_build, conda_build = builds
    checks: list[tuple[Manager, PipBuild | None, CondaBuild | None]] = [
        ("pip", pip_build, None),
        ("conda", None, conda_build),
    ]
    for mgr, pb, cb in checks:
        if pb is None and cb is None:
            continue
        for issue in issues_for(
            matrix,
            release,
            manager=mgr,
            accelerator=acc,
            pip=pb,
            conda=cb,
            extra_channels=spec.conda.channels,
            pythons=pythons,
        ):
            if issue.silenced_by and silenced(issue.silenced_by, spec.pip, spec.conda.dependencies):
                continue
            line = f"[{issue.id}] {mgr} {acc}: {issue.message} Fix: {issue.fix} ({issue.link})"
            if issue.severity == "warning":
                if line not in variant_warnings:
                    variant_warnings.append(line)
            elif spec.managers_explicit or (pip_build is None or conda_build is None):
                # Asked for explicitly: write the files as published, and say they will
                # not install today.
                variant_warnings.append(
                    f"{line}; the files are written as published but will not install today"
                )
            else:
                # The published route is gone; keep the other manager's files.
                dropped = "requirements.txt" if mgr == "pip" else "environment.yml"
                variant_warnings.append(f"{line}; the {acc} variant gets no {dropped}")
                if mgr == "pip":
                    pip_build = None
                else:
                    conda_build = None
    return pip_build, conda_build


def _expand_release(spec: ProjectSpec, matrix: Matrix, release: Release) -> Expansion:
    """Expand a spec for one release (see expand)."""
    problems: list[str] = []
    src = spec.path.name
    conda_source: CondaSource = spec.conda.source or matrix.default_conda_source(release.torch)
    source_missing = (
        "conda" in spec.managers
        and spec.conda.source is not None
        and not matrix.conda_builds(release.torch, source=conda_source)
    )
    if source_missing:
        problems.append(f"{src}: conda.source: {_no_conda_release(matrix, release, conda_source)}")

    companions, companion_pins, spec_warnings, companion_problems = _companion_pins(
        spec, matrix, release, conda_source
    )
    problems += companion_problems

    pythons = spec.python or _default_pythons(
        spec, matrix, release, conda_source, _wanted_companions(release, companions, companion_pins)
    )
    for i, py in enumerate(pythons):
        if py not in release.python:
            where = f"python[{i}]" if len(spec.python) > 1 else "python"
            problems.append(
                f"{src}: {where}: torch {release.torch} "
                f"supports python {_python_range(release.python)}, "
                f"not {py}{did_you_mean(py, release.python)}"
            )

    variants: list[Variant] = []
    for platform in spec.platforms:
        # What the spec's managers can install on this platform ("all" expands to this).
        published_any = _accelerators_for(
            matrix, release.torch, platform, spec.managers, conda_source
        )
        if not published_any:
            if source_missing and spec.managers == ("conda",):
                continue  # said once, under conda.source
            problems.append(
                f"{src}: platforms: torch {release.torch} was not published for {platform}"
                f" ({' or '.join(spec.managers)})"
                + _other_source_hint(matrix, release.torch, platform, spec, conda_source)
            )
            continue
        wanted = published_any if spec.all_accelerators else spec.accelerators
        for i, acc in enumerate(wanted):
            pip_build = (
                _find_pip(matrix.pip_builds(release.torch, platform), acc)
                if "pip" in spec.managers
                else None
            )
            pip_build, route, route_note = _torch_from(spec, pip_build, acc, platform, matrix)
            conda_build = (
                _find_conda(matrix.conda_builds(release.torch, platform, conda_source), acc)
                if "conda" in spec.managers
                else None
            )
            if pip_build is None and conda_build is None:
                where = f"accelerators[{i}]" if not spec.all_accelerators else "accelerators"
                mgrs = " or ".join(spec.managers)
                choices = published_any
                problems.append(
                    f"{src}: {where}: torch {release.torch} "
                    f"was not published for {acc} on {platform} ({mgrs}); "
                    f"it was published for {', '.join(choices)}{suggest_accelerator(acc, choices)}"
                    + _other_source_hint(matrix, release.torch, platform, spec, conda_source, acc)
                )
                continue
            variant_warnings: list[str] = [*spec_warnings, *route_note]
            sides: tuple[tuple[Manager, object], ...] = (("pip", pip_build), ("conda", conda_build))
            for mgr, present in sides:
                if mgr not in spec.managers or present is not None:
                    continue
                have = matrix.accelerators(release.torch, platform, mgr, conda_source=conda_source)
                text = (
                    f"torch {release.torch} {acc} on {platform} was not published for {mgr}"
                    f" ({mgr} has: {', '.join(have) or 'nothing'})"
                )
                if spec.managers_explicit:
                    hint = (
                        _other_source_hint(matrix, release.torch, platform, spec, conda_source, acc)
                        if mgr == "conda"
                        else ""
                    )
                    problems.append(
                        f"{src}: managers: {text}; drop {mgr} from managers or the accelerator"
                        + hint
                    )
                else:
                    kept = "requirements.txt" if mgr == "conda" else "environment.yml"
                    variant_warnings.append(f"{text}; the {acc} variant gets {kept} only")
            kind, version = _kind_version(pip_build, conda_build)
            gaps: list[str] = []
            if conda_build is not None and conda_build.form == "conda-forge":
                gaps = _conda_forge_gaps(release, conda_build, platform, companions)
                variant_warnings += gaps
            pip_build, conda_build = _apply_issues(
                spec,
                matrix,
                release,
                acc=acc,
                # A post-release torch is read from its own wheel page.
                builds=(
                    post_release_build(pip_build, dict(companion_pins).get("torch"), acc, platform),
                    conda_build,
                ),
                variant_warnings=variant_warnings,
                pythons=tuple(pythons),
            )
            pins_by_python: dict[str, tuple[ExtensionPin, ...]] = {}
            conda_by_python: dict[str, CondaBuild | None] = {}
            warnings_by_python: dict[str, tuple[str, ...]] = {}
            problems += [
                f"{src}: python: {m}"
                for py in pythons
                if (m := pypi_python_missing(release, pip_build, platform, py))
            ]
            for py in pythons:
                # The wheels fit torch's release and CUDA, whichever manager installs torch.
                pins_by_python[py] = _extension_pins(
                    spec, matrix, release, acc, py, platform, problems
                )
                conda_by_python[py], warnings_by_python[py] = _conda_for_python(
                    spec, release, (acc, platform, py), (pip_build, conda_build), problems
                )
            variants.extend(
                Variant(
                    id=VariantId(""),
                    project=spec.name,
                    release=release,
                    accelerator=AcceleratorId(acc),
                    kind=kind,
                    compute_version=version,
                    python=py,
                    platform=platform,
                    pip=pip_build,
                    conda=conda_by_python[py],
                    with_torchvision=companions["torchvision"],
                    with_torchaudio=companions["torchaudio"],
                    pip_extra=spec.pip,
                    conda_channels=spec.conda.channels,
                    conda_extra=spec.conda.dependencies,
                    warnings=(
                        *(
                            w
                            for w in variant_warnings
                            if conda_by_python[py] is not None or w not in gaps
                        ),
                        *warnings_by_python[py],
                    ),
                    companion_pins=tuple(companion_pins),
                    pure_companions=_pure_companions(matrix, companion_pins),
                    extensions=pins_by_python[py],
                    python_patch=dict(spec.python_patch).get(py),
                    pypi_route=route,
                )
                for py in pythons
            )
    if problems:
        text = (
            problems[0]
            if len(problems) == 1
            else (
                f"{src}: {len(problems)} combinations were never published\n"
                + "\n".join(f"  - {p}" for p in problems)
            )
        )
        raise UnsupportedCombinationError(text)

    named = [_with_id(v, variant_id(v, variants)) for v in variants]
    named.sort(key=variant_sort_key)
    return Expansion(release=release, variants=tuple(named))


def pypi_python_missing(
    release: Release, build: PipBuild | None, platform: str, python: str
) -> str | None:
    """Why a pip build that installs torch from PyPI itself cannot have `python` on `platform`
    (releases.yaml's pypi-wheels: PyPI's own files), or None."""
    if build is None or build.index != "pypi" or build.wheel is not None:
        return None
    have = release.pypi_pythons(platform)
    if have is None or python in have:
        return None
    return (
        f"torch {release.torch} {build.accelerator} on {platform} installs from PyPI, which has "
        f"no cp{python.replace('.', '')} wheel for {platform} (PyPI's {platform} wheels: python "
        f"{', '.join(have) or 'none'}){did_you_mean(python, have)}"
    )


def nearest_pypi_release(matrix: Matrix, torch: str, platform: str) -> Release | None:
    """The release nearest to `torch` that PyPI has wheels of on `platform` (releases.yaml's
    pypi-wheels): the newest earlier one of the same minor series, else the oldest later one of
    that series, else the nearest earlier release; None when `torch` itself is on PyPI there.

    >>> from envgen.model.matrix import load_matrix
    >>> nearest_pypi_release(load_matrix(), "1.8.2", "linux-64").torch  # LTS: lts/1.8 only
    '1.8.1'
    """
    wanted = Version(torch)
    own = matrix.release(torch)
    if own is not None and own.pypi_pythons(platform):
        return None
    on_pypi = sorted(
        (r for r in matrix.releases if r.pypi_pythons(platform)), key=lambda r: r.version
    )
    series = [r for r in on_pypi if r.version.release[:2] == wanted.release[:2]]
    earlier = [r for r in series if r.version < wanted]
    later = [r for r in series if r.version > wanted]
    before = [r for r in on_pypi if r.version < wanted]
    if earlier:
        return earlier[-1]
    if later:
        return later[0]
    return before[-1] if before else None


def _torch_from(
    spec: ProjectSpec, build: PipBuild | None, acc: str, platform: Platform, matrix: Matrix
) -> tuple[PipBuild | None, str | None, tuple[str, ...]]:
    """`torch_from: pypi`: PyPI's identical build of the published default
    (envgen.model.pypi_routes): (the build to use, the label it stands for, a warning)."""
    if spec.torch_from != "pypi":
        return build, None, ()
    routed, route = pypi_route(build, platform)
    if route is None and routed is not None and routed.index != "pypi":
        where = routed.url or "the PyTorch index"
        note = (
            f"torch_from: pypi: PyPI has no identical build of torch {routed.torch} "
            f"({acc}, {platform}); it comes from {where} as published"
        )
        nearest = nearest_pypi_release(matrix, routed.release, platform)
        if nearest is not None:
            note += (
                f"; torch {routed.release} never reached PyPI: the nearest release PyPI has for "
                f'{platform} is {nearest.torch} (torch: "{nearest.torch}")'
            )
        return routed, None, (note,)
    return routed, route, ()


def _pure_companions(matrix: Matrix, pins: list[tuple[str, str]]) -> tuple[str, ...]:
    """The pinned companions that are pure Python (companions.yaml: no cpXY wheel)."""
    return tuple(
        name
        for name, version in pins
        if name != "torch" and (row := matrix.companion(name, version)) and row.pure_python
    )


def _wanted_companions(
    release: Release, companions: dict[str, bool], pins: list[tuple[str, str]]
) -> tuple[tuple[str, str], ...]:
    """The (name, version) of each companion a variant installs: the spec's pin, else the
    release's own."""
    pinned = dict(pins)
    out = []
    for name, wanted in companions.items():
        version = pinned.get(name) or getattr(release, name)
        if wanted and version:
            out.append((name, version))
    return tuple(out)


def companion_python_missing(
    matrix: Matrix, companions: tuple[tuple[str, str], ...], platform: str, python: str
) -> str | None:
    """Why a companion the variant installs from PyPI has no wheel for `python` on `platform`
    (companions.yaml's pypi-wheels: PyPI's own files; torchvision 0.14.1 stops at cp310 while
    torch 1.13.1 has cp311), or None. A pure-Python companion fits any python."""
    for name, version in companions:
        row = matrix.companion(name, version)
        have = None if row is None else row.pypi_pythons(platform)
        if have is not None and python not in have:
            return (
                f"{name} {version} has no cp{python.replace('.', '')} wheel for {platform} on "
                f"PyPI (its wheels: python {', '.join(have) or 'none'})"
            )
    return None


def known_python_trap(matrix: Matrix, release: Release, python: str) -> str | None:
    """The id of a known issue that names `python` for this release (torch 1.7.x crashes at
    exit on 3.9), or None: a default python avoids it when another one fits."""
    return next(
        (
            issue.id
            for issue in matrix.known_issues
            if issue.python
            and python in issue.python
            and SpecifierSet(issue.torch).contains(release.version, prereleases=True)
        ),
        None,
    )


def _default_pythons(
    spec: ProjectSpec,
    matrix: Matrix,
    release: Release,
    conda_source: CondaSource,
    companions: tuple[tuple[str, str], ...] = (),
) -> tuple[str, ...]:
    """The newest python of the release; for a conda-only spec, the newest its conda rows built.
    A pip spec gets the newest that its builds and companions have wheels for and that no known
    issue names (torch 1.7.x crashes at exit on 3.9).

    conda-forge rows name the pythons they built (`python`); a spec that names no python and
    installs with conda only gets the newest python every such row on its platforms has, so the
    default does not ask conda-forge for a build it never made.
    """
    if not release.python:
        return ()
    if spec.managers == ("conda",):
        built: set[str] | None = None
        for platform in spec.platforms:
            for row in matrix.conda_builds(release.torch, platform, conda_source):
                if not spec.all_accelerators and row.accelerator not in spec.accelerators:
                    continue  # only the builds the spec asks for decide its default python
                if row.python is not None:
                    built = set(row.python) if built is None else built & set(row.python)
        if built is not None:
            common = [p for p in release.python if p in built]
            if common:
                return (common[-1],)
    if "pip" in spec.managers:
        # The newest Python every PyPI-installed pip build the spec asks for has a wheel for
        # (1.10.2 lists 3.10, but PyPI's linux-64 wheels stop at 3.9), and every companion it
        # installs (torch 1.13.1 has cp311, torchvision 0.14.1 stops at cp310).
        fits = [
            py
            for py in release.python
            if not any(
                pypi_python_missing(release, b, platform, py)
                for platform in spec.platforms
                for b in matrix.pip_builds(release.torch, platform)
                if spec.all_accelerators or b.accelerator in spec.accelerators
            )
            and not any(
                companion_python_missing(matrix, companions, platform, py)
                for platform in spec.platforms
            )
            and known_python_trap(matrix, release, py) is None
        ]
        if fits:
            return (fits[-1],)
    return release.python[-1:]


def _conda_for_python(
    spec: ProjectSpec,
    release: Release,
    where: tuple[str, Platform, str],
    builds: tuple[PipBuild | None, CondaBuild | None],
    problems: list[str],
) -> tuple[CondaBuild | None, tuple[str, ...]]:
    """The conda build for one python of a variant, and its warnings.

    A conda row that names its pythons and lacks this one is not used: an error when the spec
    asks for conda explicitly or conda is the only route, otherwise the variant keeps
    requirements.txt only (a warning).
    """
    acc, platform, py = where
    pip_build, conda_build = builds
    if conda_build is None or conda_build.python is None or py in conda_build.python:
        return _unbuilt_companions(spec, conda_build, platform, py)
    source = _SOURCE_NAMES["conda-forge" if conda_build.form == "conda-forge" else "pytorch"]
    built = ", ".join(conda_build.python)
    text = (
        f"torch {release.torch} {acc} on {platform} was not published for python {py} "
        f"(conda, {source}); it was published for python {built}"
        f"{did_you_mean(py, conda_build.python)}"
    )
    if spec.managers_explicit or pip_build is None:
        pos = spec.python.index(py) if py in spec.python else -1
        key = f"python[{pos}]" if len(spec.python) > 1 and pos >= 0 else "python"
        fix = f"set python to one of {built}"
        if pip_build is not None:
            fix += " or drop conda from managers"
        problems.append(f"{spec.path.name}: {key}: {text}; {fix}")
        return conda_build, ()
    return None, (f"{text}; the {acc} variant for python {py} gets requirements.txt only",)


def _unbuilt_companions(
    spec: ProjectSpec, build: CondaBuild | None, platform: Platform, py: str
) -> tuple[CondaBuild | None, tuple[str, ...]]:
    """A conda-forge build without the companions whose own feedstock never built `py` (its
    `torchvision_python` / `torchaudio_python`), and a warning for each the spec wants: an
    environment.yml naming them could not solve."""
    if build is None:
        return None, ()
    drop: dict[str, None] = {}
    warnings: list[str] = []
    for name in ("torchvision", "torchaudio"):
        built: tuple[str, ...] | None = getattr(build, f"{name}_python")
        if getattr(build, name) is None or built is None or py in built:
            continue
        drop[name] = None
        if getattr(spec, name) is not False:
            warnings.append(
                f"conda-forge has no {name} {getattr(build, name)} build for python {py} "
                f"({build.accelerator} on {platform}; its feedstock built python "
                f"{', '.join(built) or 'none'}); environment.yml leaves {name} out (install it "
                f"with pip, or set python to one of {', '.join(built)})"
            )
    if not drop:
        return build, ()
    return build.model_copy(update=drop), tuple(warnings)


def _extension_pins(
    spec: ProjectSpec,
    matrix: Matrix,
    release: Release,
    acc: str,
    python: str,
    platform: Platform,
    problems: list[str],
) -> tuple[ExtensionPin, ...]:
    """Pin every extension the spec's pip: names for one variant; unbuilt ones become problems."""
    pins: list[ExtensionPin] = []
    target = Target(torch=release.torch, accelerator=acc, python=python, platform=platform)
    for i, item in enumerate(spec.pip):
        if requirement_extension(matrix, item) is None:
            continue
        try:
            pins.append(
                resolve_extension(
                    matrix,
                    item,
                    target,
                    where=f"{spec.path.name}: pip[{i}]",
                    before=spec.lock.exclude_newer,
                )
            )
        except UnsupportedCombinationError as exc:
            text = exc.message if exc.hint is None else f"{exc.message}; fix: {exc.hint}"
            if text not in problems:
                problems.append(text)
    return tuple(pins)


def variant_id(v: Variant, siblings: Sequence[Variant]) -> VariantId:
    """The accelerator, plus only the axes on which its variants differ: stable names.

    `cu118` stays `cu118` while it has one python and one platform; a second python adds
    `-py310`/`-py311` to that accelerator's variants only, a second platform `-linux-64`, ...
    """
    same = [s for s in siblings if s.accelerator == v.accelerator]
    parts = [str(v.accelerator)]
    if len({s.python for s in same}) > 1:
        parts.append(f"py{v.python.replace('.', '')}")
    if len({s.platform for s in same}) > 1:
        parts.append(v.platform)
    return VariantId("-".join(parts))


def _with_id(v: Variant, vid: VariantId) -> Variant:
    return replace(v, id=vid)


def _accelerators_for(
    matrix: Matrix,
    release: str,
    platform: Platform,
    managers: tuple[Manager, ...],
    conda_source: CondaSource,
) -> tuple[AcceleratorId, ...]:
    """Accelerators any of `managers` has for a release on a platform, in the matrix's order."""
    found: set[AcceleratorId] = set()
    for mgr in managers:
        found |= set(matrix.accelerators(release, platform, mgr, conda_source=conda_source))
    every = matrix.accelerators(release, platform, conda_source=conda_source)
    return tuple(a for a in every if a in found)


_SOURCE_NAMES: dict[CondaSource, str] = {
    "pytorch": "the pytorch channel",
    "conda-forge": "conda-forge",
}


def _no_conda_release(matrix: Matrix, release: Release, source: CondaSource) -> str:
    """Why `source` has no conda builds of `release`, naming the releases it has."""
    rows = matrix.conda if source == "pytorch" else matrix.conda_forge
    have = sorted({b.release for b in rows}, key=Version)
    near = [v for v in have if Version(v).release[:2] == release.version.release[:2]]
    if near:
        others = f"it has {', '.join(near)}"
    elif have and Version(have[-1]) < release.version:
        others = f"its last release is {have[-1]}"
    else:
        others = f"it has {have[0]} to {have[-1]}" if have else "it has none"
    other: CondaSource = "conda-forge" if source == "pytorch" else "pytorch"
    fix = (
        f"; set conda: {{source: {other}}}"
        if matrix.conda_builds(release.torch, source=other)
        else ""
    )
    return f"{_SOURCE_NAMES[source]} has no pytorch {release.torch} ({others}){fix}"


def _conda_forge_gaps(
    release: Release, build: CondaBuild, platform: Platform, wanted: dict[str, bool]
) -> list[str]:
    """Companions the spec wants that conda-forge never built for this build (no silent drop)."""
    out: list[str] = []
    for name in ("torchvision", "torchaudio"):
        version = getattr(release, name)
        if wanted[name] and version and getattr(build, name) is None:
            out.append(
                f"conda-forge has no {name} {version} build for {build.accelerator} on "
                f"{platform}; environment.yml leaves {name} out (install it with pip, or pick "
                "another accelerator)"
            )
    return out


def _other_source_hint(
    matrix: Matrix,
    release: str,
    platform: Platform,
    spec: ProjectSpec,
    source: CondaSource,
    accelerator: str | None = None,
) -> str:
    """'; conda-forge has it: ...' when the other conda source has what the spec asked for."""
    if "conda" not in spec.managers or spec.conda.source is not None:
        return ""
    other: CondaSource = "conda-forge" if source == "pytorch" else "pytorch"
    have = matrix.accelerators(release, platform, "conda", conda_source=other)
    if not have or (accelerator is not None and accelerator not in have):
        return ""
    return (
        f"; {_SOURCE_NAMES[other]} has {', '.join(have)} on {platform}: "
        f"set conda: {{source: {other}}}"
    )


def _find_pip(builds: tuple[PipBuild, ...], acc: str) -> PipBuild | None:
    return next((b for b in builds if b.accelerator == acc), None)


def _find_conda(builds: tuple[CondaBuild, ...], acc: str) -> CondaBuild | None:
    return next((b for b in builds if b.accelerator == acc), None)


def _kind_version(pip: PipBuild | None, conda: CondaBuild | None) -> tuple[ComputeKind, str | None]:
    build = pip or conda
    if build is None:
        msg = "internal error: a variant has neither a pip nor a conda build"
        raise RuntimeError(msg)
    return build.kind, build.version


def cuda_version_of(acc: str) -> str | None:
    """cuXYZ -> "X.Y" (the last digit is the minor), None for anything else.

    >>> cuda_version_of("cu110"), cuda_version_of("cu92"), cuda_version_of("rocm5.6")
    ('11.0', '9.2', None)
    """
    found = cuda_of(acc)
    return None if found is None else f"{found[0]}.{found[1]}"


def nearest_accelerator(acc: str, choices: Sequence[str]) -> str | None:
    """The choice closest to `acc`: the nearest CUDA version for cuXYZ, else the closest name.

    >>> nearest_accelerator("cu116", ["cpu", "cu118", "cu121"]), nearest_accelerator("zz", ["cpu"])
    ('cu118', None)
    """
    wanted = cuda_number(acc)
    if wanted is not None:
        cudas = [(abs(n - wanted), n, c) for c in choices if (n := cuda_number(c)) is not None]
        if cudas:
            return min(cudas)[2]
    import difflib  # noqa: PLC0415 - ~1 ms; only for an unknown accelerator's did-you-mean

    close = difflib.get_close_matches(acc, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def suggest_accelerator(acc: str, choices: Sequence[str]) -> str:
    """A ' (did you mean ...?)' suffix for `nearest_accelerator`, or ''.

    >>> suggest_accelerator("cu116", ["cpu", "cu118", "cu121"])
    " (did you mean 'cu118'?)"
    """
    near = nearest_accelerator(acc, choices)
    return f" (did you mean {near!r}?)" if near else ""


def select(variants: tuple[Variant, ...], patterns: tuple[str, ...]) -> tuple[Variant, ...]:
    """Variants whose id matches any fnmatch pattern (all when no pattern is given).

    Raises:
        OptionError: when a pattern matches nothing (naming the ids that exist).
    """
    if not patterns:
        return variants
    chosen = [v for v in variants if any(fnmatch.fnmatchcase(v.id, p) for p in patterns)]
    for p in patterns:
        if not any(fnmatch.fnmatchcase(v.id, p) for v in variants):
            ids = [v.id for v in variants]
            if p == "auto":
                msg = (
                    "--variant 'auto' picks the variant this machine runs best, for build, smoke, "
                    "run and shell only; name variants here instead "
                    f"(the spec has: {', '.join(ids)})"
                )
                raise OptionError(msg)
            msg = (
                f"--variant {p!r} matches no variant; "
                f"the spec has: {', '.join(ids)}{suggest_accelerator(p, ids)}"
            )
            raise OptionError(msg)
    return tuple(chosen)
