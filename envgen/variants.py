"""expand(ProjectSpec, Matrix) -> Expansion: one Variant per accelerator x python x platform.

Pure: no I/O. Impossible combinations raise UnsupportedCombinationError naming what exists; known
traps from matrices/known-issues.yaml become warnings (or errors) with their fix.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from envgen._types import AcceleratorId, ComputeKind, Manager, Platform, VariantId
from envgen.errors import UnsupportedCombinationError
from envgen.extensions import ExtensionPin, Target, requirement_extension
from envgen.extensions import resolve as resolve_extension
from envgen.matrix import CondaBuild, KnownIssue, Matrix, PipBuild, Release, compute_sort_key
from envgen.spec import ProjectSpec, did_you_mean


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
    # Compiled extensions named in pip: pinned for this variant (envgen.extensions).
    extensions: tuple[ExtensionPin, ...] = ()

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


def pip_pins(v: Variant) -> dict[str, str]:
    """The torch-family pins of the pip side, exactly as published (with local labels)."""
    if v.pip is None:
        return {}
    pins = {"torch": v.pip.torch}
    if v.with_torchvision and v.pip.torchvision:
        pins["torchvision"] = v.pip.torchvision
    if v.with_torchaudio and v.pip.torchaudio:
        pins["torchaudio"] = v.pip.torchaudio
    return pins


def conda_pins(v: Variant) -> dict[str, str]:
    """The torch-family pins of the conda side."""
    if v.conda is None:
        return {}
    pins = {"pytorch": v.conda.pytorch}
    if v.with_torchvision and v.conda.torchvision:
        pins["torchvision"] = v.conda.torchvision
    if v.with_torchaudio and v.conda.torchaudio:
        pins["torchaudio"] = v.conda.torchaudio
    return pins


def resolve_release(spec_torch: str, matrix: Matrix, *, where: str = "torch") -> Release:
    """Pick the release a spec's `torch:` names: exact, newest matching a specifier, or latest."""
    releases = sorted(matrix.releases, key=lambda r: r.version)
    if not releases:
        msg = "the matrix has no releases"
        raise UnsupportedCombinationError(msg)
    if spec_torch == "latest":
        return releases[-1]
    exact = matrix.release(spec_torch)
    if exact is not None:
        return exact
    try:
        wanted: Version | None = Version(spec_torch)
    except InvalidVersion:
        wanted = None
    if wanted is not None:
        # An exact version that is not a release: name the neighbours.
        for r in releases:
            if r.version == wanted:
                return r
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
        if getattr(r, name) == version:
            owners.add(r.torch)
    for b in matrix.pip:
        value = getattr(b, name)
        if value and value.split("+")[0] == version:
            owners.add(b.release)
    for c in matrix.conda:
        if getattr(c, name) == version:
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
) -> list[KnownIssue]:
    """Known issues that apply to one variant side."""
    found: list[KnownIssue] = []
    for issue in matrix.known_issues:
        if issue.manager not in ("any", manager):
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
        found.append(issue)
    return found


def _silenced(requirement: str, pip_extra: tuple[str, ...]) -> bool:
    """True when the spec's own pip requirement already excludes what `requirement` excludes.

    >>> _silenced("numpy<2", ("numpy<2",)), _silenced("numpy<2", ("numpy",))
    (True, False)
    """
    from packaging.requirements import Requirement  # noqa: PLC0415

    want = Requirement(requirement)
    have = _pip_mentions(pip_extra, want.name)
    if have is None:
        return False
    probes = [s.version for s in want.specifier if s.operator in ("<", "<=", "!=")]
    return bool(probes) and all(
        not SpecifierSet(have).contains(p, prereleases=True) for p in probes
    )


def _pip_mentions(pip_extra: tuple[str, ...], name: str) -> str | None:
    from packaging.requirements import Requirement  # noqa: PLC0415
    from packaging.utils import canonicalize_name  # noqa: PLC0415

    for item in pip_extra:
        req = Requirement(item)
        if canonicalize_name(req.name) == name:
            return str(req.specifier)
    return None


def expand(spec: ProjectSpec, matrix: Matrix) -> Expansion:
    """Expand a spec into its variants.

    Raises:
        UnsupportedCombinationError: listing every combination PyTorch never published.
    """
    release = resolve_release(spec.torch, matrix)
    problems: list[str] = []
    src = spec.path.name

    # Companions given as exact versions must belong to this release.
    companions: dict[str, bool] = {}
    for name in ("torchvision", "torchaudio"):
        value = getattr(spec, name)
        if isinstance(value, bool):
            companions[name] = value
            continue
        companions[name] = True
        published = {getattr(release, name)}
        published |= {
            (getattr(b, name) or "").split("+")[0] for b in matrix.pip_builds(release.torch)
        }
        published |= {getattr(b, name) for b in matrix.conda_builds(release.torch)}
        published.discard(None)
        published.discard("")
        if value not in published:
            owners = _companion_owner(matrix, name, value)
            belongs = f"belongs to torch {', '.join(owners)}" if owners else "is not in the matrix"
            pairs = ", ".join(sorted(str(p) for p in published)) or "(none)"
            problems.append(
                f"{src}: {name}: {name} {value} {belongs}, not {release.torch}; "
                f"torch {release.torch} pairs with {name} {pairs}"
            )

    pythons = spec.python or (release.python[-1:] if release.python else ())
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
        published_any = _accelerators_for(matrix, release.torch, platform, spec.managers)
        if not published_any:
            problems.append(
                f"{src}: platforms: torch {release.torch} was not published for {platform}"
                f" ({' or '.join(spec.managers)})"
            )
            continue
        wanted = published_any if spec.all_accelerators else spec.accelerators
        for i, acc in enumerate(wanted):
            pip_build = (
                _find_pip(matrix.pip_builds(release.torch, platform), acc)
                if "pip" in spec.managers
                else None
            )
            conda_build = (
                _find_conda(matrix.conda_builds(release.torch, platform), acc)
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
                )
                continue
            variant_warnings: list[str] = []
            sides: tuple[tuple[Manager, object], ...] = (("pip", pip_build), ("conda", conda_build))
            for mgr, present in sides:
                if mgr not in spec.managers or present is not None:
                    continue
                have = matrix.accelerators(release.torch, platform, mgr)
                text = (
                    f"torch {release.torch} {acc} on {platform} was not published for {mgr}"
                    f" ({mgr} has: {', '.join(have) or 'nothing'})"
                )
                if spec.managers_explicit:
                    problems.append(
                        f"{src}: managers: {text}; drop {mgr} from managers or the accelerator"
                    )
                else:
                    kept = "requirements.txt" if mgr == "conda" else "environment.yml"
                    variant_warnings.append(f"{text}; the {acc} variant gets {kept} only")
            kind, version = _kind_version(pip_build, conda_build)
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
                ):
                    if issue.silenced_by and _silenced(issue.silenced_by, spec.pip):
                        continue
                    line = (
                        f"[{issue.id}] {mgr} {acc}: {issue.message} Fix: {issue.fix} ({issue.link})"
                    )
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
            pins_by_python: dict[str, tuple[ExtensionPin, ...]] = {}
            for py in pythons:
                # The wheels fit torch's release and CUDA, whichever manager installs torch.
                pins_by_python[py] = _extension_pins(
                    spec, matrix, release, acc, py, platform, problems
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
                    conda=conda_build,
                    with_torchvision=companions["torchvision"],
                    with_torchaudio=companions["torchaudio"],
                    pip_extra=spec.pip,
                    conda_channels=spec.conda.channels,
                    conda_extra=spec.conda.dependencies,
                    warnings=tuple(variant_warnings),
                    extensions=pins_by_python[py],
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

    several = len(pythons) > 1 or len(spec.platforms) > 1
    named = []
    for v in variants:
        vid = (
            f"{v.accelerator}-py{v.python.replace('.', '')}-{v.platform}"
            if several
            else v.accelerator
        )
        named.append(_with_id(v, VariantId(vid)))
    named.sort(key=variant_sort_key)
    return Expansion(release=release, variants=tuple(named))


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


def _with_id(v: Variant, vid: VariantId) -> Variant:
    from dataclasses import replace  # noqa: PLC0415

    return replace(v, id=vid)


def _accelerators_for(
    matrix: Matrix, release: str, platform: Platform, managers: tuple[Manager, ...]
) -> tuple[AcceleratorId, ...]:
    """Accelerators any of `managers` has for a release on a platform, in the matrix's order."""
    found: set[AcceleratorId] = set()
    for mgr in managers:
        found |= set(matrix.accelerators(release, platform, mgr))
    return tuple(a for a in matrix.accelerators(release, platform) if a in found)


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


def _cuda_number(acc: str) -> float | None:
    """cuXYZ -> X.Y as a number (the last digit is the minor: cu118 -> 11.8, cu92 -> 9.2)."""
    if acc.startswith("cu") and acc[2:].isdigit() and len(acc) >= 4:
        digits = acc[2:]
        return int(digits[:-1]) + int(digits[-1]) / 10
    return None


def cuda_version_of(acc: str) -> str | None:
    """cuXYZ -> "X.Y" (the last digit is the minor), None for anything else.

    >>> cuda_version_of("cu110"), cuda_version_of("cu92"), cuda_version_of("rocm5.6")
    ('11.0', '9.2', None)
    """
    if _cuda_number(acc) is None:
        return None
    digits = acc[2:]
    return f"{digits[:-1]}.{digits[-1]}"


def nearest_accelerator(acc: str, choices: Sequence[str]) -> str | None:
    """The choice closest to `acc`: the nearest CUDA version for cuXYZ, else the closest name.

    >>> nearest_accelerator("cu116", ["cpu", "cu118", "cu121"]), nearest_accelerator("zz", ["cpu"])
    ('cu118', None)
    """
    wanted = _cuda_number(acc)
    if wanted is not None:
        cudas = [(abs(n - wanted), n, c) for c in choices if (n := _cuda_number(c)) is not None]
        if cudas:
            return min(cudas)[2]
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
        UnsupportedCombinationError: when a pattern matches nothing (naming the ids that exist).
    """
    if not patterns:
        return variants
    chosen = [v for v in variants if any(fnmatch.fnmatchcase(v.id, p) for p in patterns)]
    for p in patterns:
        if not any(fnmatch.fnmatchcase(v.id, p) for v in variants):
            ids = [v.id for v in variants]
            msg = (
                f"--variant {p!r} matches no variant; "
                f"the spec has: {', '.join(ids)}{suggest_accelerator(p, ids)}"
            )
            raise UnsupportedCombinationError(msg)
    return tuple(chosen)
