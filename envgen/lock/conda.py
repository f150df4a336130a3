"""The conda locker: one variant's environment.yml -> conda-lock.yml + conda-<platform>.lock.

It solves exactly the channels and specs that envgen.render.environment writes into
environment.yml, for the variant's *target* (its platform and explicit virtual packages, never the
host's), with py-rattler by default or a conda-compatible executable, and locks the `pip:` section
with `uv pip compile --generate-hashes`. It checks that the solve picked the build of the variant's
compute platform (a CPU pytorch for cpu, a CUDA one for cuda) and raises LockError otherwise.

It returns file bodies only: it must not write outside `request.workdir`, must not write channel
mirror URLs or credentials into the bodies, and must not start processes except through
envgen.infra.proc.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import logging
import os
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import LockError, ToolNotFoundError
from envgen.infra import proc as _proc
from envgen.infra.proc import split_credentials
from envgen.lock.condalock import CondaLock, CondaPackage
from envgen.lock.index_plan import (
    exclude_newer_timestamp,
    index_plan,
    uv_index_environment,
    uv_python_platform,
)
from envgen.lock.locker import LockedFile, LockRequest
from envgen.lock.lockfile import CONDA_LOCK, conda_explicit_name
from envgen.model.targets import load_targets
from envgen.model.types import ANACONDA, CONDA_TOOLS, PYPI_SIMPLE, Manager
from envgen.model.variants import Variant
from envgen.render.environment import channels as environment_channels
from envgen.render.environment import dependencies as environment_dependencies
from envgen.render.requirements import extension_requirements

log = logging.getLogger(__name__)

# conda-lock names the environment.yml a lock came from, relative to the lock file.
SOURCE_NAME: Final = "environment.yml"
# Bumped whenever what content_hash covers changes (see _content_hash).
CONTENT_HASH_VERSION: Final = 1

# conda package name -> PyPI name, where they differ (for pip entries that conda already provides).
_CONDA_TO_PYPI: Final[dict[str, str]] = {"pytorch": "torch"}

_ENV_SPEC: Final = re.compile(
    r"^(?P<channel>[A-Za-z0-9_./-]+::)?(?P<name>[A-Za-z0-9_][A-Za-z0-9_.-]*)\s*(?P<rest>.*)$"
)
_OPERATORS: Final = ("==", "!=", ">=", "<=", "~=", ">", "<")


@dataclass(frozen=True, slots=True, kw_only=True)
class VirtualPackage:
    """One virtual package of the target: `__cuda=11.8=0`."""

    name: str
    version: str
    build: str = "0"

    def __str__(self) -> str:
        return f"{self.name}={self.version}={self.build}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Channel:
    """A channel as environment.yml names it, where it is solved and what is written."""

    name: str
    solve_url: str
    written_url: str


@dataclass(frozen=True, slots=True, kw_only=True)
class CondaRecord:
    """One solved conda package, with its URL as written (the real channel's)."""

    name: str
    version: str
    build: str
    subdir: str
    file_name: str
    channel: str
    url: str
    md5: str
    sha256: str | None
    depends: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PipRecord:
    """One pip package of the environment's `pip:` section."""

    name: str
    version: str
    url: str
    sha256: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SolvePlan:
    """What is solved: channels, strict match specs and the target's virtual packages."""

    variant: Variant
    channels: tuple[Channel, ...]
    specs: tuple[str, ...]
    virtual_packages: tuple[VirtualPackage, ...]
    exclude_newer: dt.datetime | None


# --- pure helpers -------------------------------------------------------------------------------


def to_match_spec(spec: str) -> str:
    """Rewrite a conda-env dependency (environment.yml syntax) as a strict rattler MatchSpec.

    >>> [to_match_spec(s) for s in ("pytorch==2.1.0", "cudatoolkit=11.6", "cpuonly")]
    ['pytorch ==2.1.0', 'cudatoolkit 11.6.*', 'cpuonly']
    >>> to_match_spec("pytorch=2.6.0=cuda*"), to_match_spec("ffmpeg 4.3")
    ('pytorch ==2.6.0 cuda*', 'ffmpeg ==4.3')

    Raises:
        LockError: when the text is not a conda dependency.
    """
    if "[" in spec:
        return spec.strip()  # bracket forms (`name[build=...]`) are MatchSpec syntax already
    match = _ENV_SPEC.match(spec.strip())
    if match is None:
        msg = f"{spec!r} is not a conda dependency"
        raise LockError(msg)
    channel, name, rest = match["channel"] or "", match["name"], match["rest"].strip()
    head = f"{channel}{name}"
    if not rest:
        return head
    if rest.startswith("=") and not rest.startswith("=="):
        # conda-env `name=1.2` is fuzzy (1.2.*); `name=1.2=build` pins 1.2 exactly with a build.
        version, _, build = rest[1:].partition("=")
        if build:
            return f"{head} {_exact(version)} {build}"
        return f"{head} {version if version.endswith('*') else version + '.*'}"
    version, _, build = rest.partition(" ")
    version = version.replace(" ", "")
    if version.startswith(_OPERATORS):
        # `numpy >= 1.2` and `numpy>=1.2`: join the operator and its version.
        parts = rest.split()
        while len(parts) > 1 and parts[0] in _OPERATORS:
            parts[:2] = [parts[0] + parts[1]]
        version, build = parts[0], " ".join(parts[1:])
        return f"{head} {version}" + (f" {build}" if build else "")
    return f"{head} {_exact(version)}" + (f" {build.strip()}" if build.strip() else "")


def _exact(version: str) -> str:
    """`2.1.0` -> `==2.1.0`; globs, ranges and alternatives stay as written."""
    if version.startswith(_OPERATORS) or any(c in version for c in "*|,"):
        return version
    return f"=={version}"


def glibc_for(variant: Variant) -> str:
    """The glibc the variant's conda builds target (2.17 before torch 2.6, 2.28 from it)."""
    return load_targets().glibc_for(variant.release.version)  # matrices/targets.yaml


def virtual_packages(variant: Variant) -> tuple[VirtualPackage, ...]:
    """The virtual packages of the variant's target machine, sorted by name.

    cuda variants get `__cuda=<version>`, others none (so no CUDA build can be picked);
    linux `__unix`, `__linux=5.10`, `__glibc`; osx `__unix`, `__osx`; windows `__win`; all
    `__archspec=1=<arch>` (the table: matrices/targets.yaml).
    """
    row = load_targets().virtual(variant.platform)  # matrices/targets.yaml
    out = [VirtualPackage(name="__archspec", version="1", build=row.archspec)]
    out += [VirtualPackage(name=name, version=version) for name, version in row.packages.items()]
    if row.glibc:
        out.append(VirtualPackage(name="__glibc", version=glibc_for(variant)))
    if variant.kind == "cuda" and variant.compute_version is not None:
        out.append(VirtualPackage(name="__cuda", version=variant.compute_version))
    return tuple(sorted(out, key=lambda v: v.name))


def resolve_channels(names: Iterable[str], mapping: dict[str, str]) -> tuple[Channel, ...]:
    """Channel names -> where to solve them (`mapping`, else conda.anaconda.org) and what to write.

    Written URLs are always the real channel's (https://conda.anaconda.org/<name>): environment.yml
    names channels only by name, so a mapped URL is a mirror or a local copy of that channel.
    """
    out: list[Channel] = []
    for name in names:
        real = f"{ANACONDA}/{name}"
        out.append(
            Channel(name=name, solve_url=mapping.get(name, real).rstrip("/"), written_url=real)
        )
    return tuple(out)


def plan_solve(request: LockRequest) -> SolvePlan:
    """The channels, strict specs and virtual packages for the variant's conda side."""
    variant = request.variant
    if variant.conda is None:
        msg = f"{variant.id}: the variant has no conda side to lock"
        raise LockError(msg)
    specs: list[str] = []
    from rattler import MatchSpec  # noqa: PLC0415 - a heavy import, only when locking

    for dep in environment_dependencies(variant):
        spec = to_match_spec(dep)
        try:
            MatchSpec(spec, strict=True)
        except Exception as exc:
            msg = f"{variant.id}: conda dependency {dep!r} is not a valid match spec: {exc}"
            raise LockError(msg) from None
        specs.append(spec)
    cutoff = None
    if request.exclude_newer is not None:
        # A date means "published before that day began" (UTC), as uv reads --exclude-newer.
        cutoff = dt.datetime.combine(request.exclude_newer, dt.time(), tzinfo=dt.UTC)
    return SolvePlan(
        variant=variant,
        channels=resolve_channels(environment_channels(variant), request.conda_channels),
        specs=tuple(specs),
        virtual_packages=virtual_packages(variant),
        exclude_newer=cutoff,
    )


def dependency_map(depends: Iterable[str]) -> dict[str, str]:
    """`depends` strings -> conda-lock's {name: version spec} (build strings are dropped).

    >>> dependency_map(["python >=3.11,<3.12.0a0", "pytorch-mutex 1.0 cuda", "numpy"])
    {'numpy': '', 'python': '>=3.11,<3.12.0a0', 'pytorch-mutex': '1.0'}
    """
    found: dict[str, list[str]] = {}
    for dep in depends:
        name, _, rest = dep.strip().partition(" ")
        version = rest.split()[0] if rest.split() else ""
        found.setdefault(name, [])
        if version and version not in found[name]:
            found[name].append(version)
    return {name: ",".join(found[name]) for name in sorted(found)}


def toposort(records: Sequence[CondaRecord]) -> list[CondaRecord]:
    """Records in install order, exactly as conda (and conda-lock's explicit files) order them.

    Level by level, alphabetically within a level; a cycle is broken at the package with the
    fewest open dependencies (conda.common.toposort._safe_toposort).
    """
    by_name = {r.name: r for r in records}
    graph = {r.name: set(dependency_map(r.depends)) - {r.name} for r in records}
    if "python" in graph:
        graph["python"].discard("pip")  # conda's special case: python before anything needing it
    for deps in list(graph.values()):
        for missing in deps - graph.keys():
            graph[missing] = set()  # virtual packages and the like: roots of the graph
    order: list[str] = []
    while graph:
        ready = sorted(name for name, deps in graph.items() if not deps)
        if not ready:
            ready = [min(graph, key=lambda n: (len(graph[n]), n))]
        for name in ready:
            del graph[name]
            order.append(name)
        for deps in graph.values():
            deps.difference_update(ready)
    return [by_name[name] for name in order if name in by_name]


def check_compute(variant: Variant, records: Sequence[CondaRecord]) -> None:
    """Raise LockError unless the solve picked the pytorch build of the variant's compute kind."""
    by_name = {r.name: r for r in records}
    pytorch = by_name.get("pytorch")
    if pytorch is None:
        msg = f"{variant.id}: the solve has no pytorch package"
        raise LockError(msg)
    mutex = by_name.get("pytorch-mutex")
    mutex_build = mutex.build if mutex is not None else ""
    cuda_build = "cuda" in pytorch.build or mutex_build == "cuda"
    cpu_build = "cpu" in pytorch.build or mutex_build == "cpu"
    what = f"pytorch {pytorch.version} {pytorch.build}" + (
        f" with pytorch-mutex {mutex_build}" if mutex else ""
    )
    if variant.kind == "cuda":
        if not cuda_build or cpu_build:
            msg = f"{variant.id}: the solve picked a non-CUDA build ({what}) for a CUDA variant"
            raise LockError(msg)
        want = variant.compute_version or ""
        for name in ("pytorch-cuda", "cuda-version", "cudatoolkit"):
            record = by_name.get(name)
            if record is not None and not (
                record.version == want or record.version.startswith(want + ".")
            ):
                # conda-forge's cuda-version may be newer than the build's minimum; the others not.
                if (
                    name == "cuda-version"
                    and variant.conda is not None
                    and variant.conda.form == "conda-forge"
                ):
                    continue
                picked = f"{name} {record.version}"
                msg = f"{variant.id}: the solve picked {picked} for a CUDA {want} variant"
                raise LockError(msg)
    elif cuda_build or any(n in by_name for n in ("pytorch-cuda", "cudatoolkit")):
        msg = f"{variant.id}: the solve picked a CUDA build ({what}) for a {variant.kind} variant"
        raise LockError(msg)


def _content_hash(plan: SolvePlan, pip_requirements: Sequence[str], pypi: str) -> str:
    """sha256 over what the lock depends on: written channels, specs, pip inputs, target.

    This is envgen's own hash (versioned by CONTENT_HASH_VERSION), not conda-lock's: conda-lock
    hashes its LockSpecification, so `conda-lock --check-content-hash` would relock.
    """
    data = {
        "version": CONTENT_HASH_VERSION,
        "channels": [c.written_url for c in plan.channels],
        "specs": list(plan.specs),
        "pip": sorted(pip_requirements, key=str.lower),
        "pypi": pypi,
        "platform": plan.variant.platform,
        "virtual_packages": [str(v) for v in plan.virtual_packages],
        "exclude_newer": plan.exclude_newer.isoformat() if plan.exclude_newer else None,
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def render_lockfile(
    plan: SolvePlan, conda: Sequence[CondaRecord], pip: Sequence[PipRecord], content_hash: str
) -> str:
    """The conda-lock.yml body: conda-lock's unified format, version 1, field order as it writes."""
    platform = plan.variant.platform
    packages: list[tuple[tuple[str, str, str], CondaPackage]] = []
    for r in conda:
        entry = CondaPackage(
            name=r.name,
            version=r.version,
            manager="conda",
            platform=platform,
            dependencies=tuple(dependency_map(r.depends).items()),
            url=r.url,
            md5=r.md5,
            sha256=r.sha256 or None,
        )
        packages.append(((platform, "conda", r.name), entry))
    for p in pip:
        entry = CondaPackage(
            name=p.name,
            version=p.version,
            manager="pip",
            platform=platform,
            url=p.url,
            sha256=p.sha256,
        )
        packages.append(((platform, "pip", p.name), entry))
    return CondaLock(
        content_hash=((platform, content_hash),),
        channels=tuple(c.name for c in plan.channels),
        platforms=(platform,),
        sources=(SOURCE_NAME,),
        packages=tuple(entry for _, entry in sorted(packages, key=lambda item: item[0])),
    ).render()


def render_explicit(
    plan: SolvePlan, conda: Sequence[CondaRecord], pip_count: int, content_hash: str
) -> str:
    """The conda-<platform>.lock body: `@EXPLICIT` URLs with `#md5`, in install order."""
    lines = [
        f"# platform: {plan.variant.platform}",
        f"# input_hash: {content_hash}",
        "@EXPLICIT",
        *(f"{r.url}#{r.md5}" for r in toposort(conda)),
    ]
    if pip_count:
        # Not "# pip ..." lines: micromamba and conda-lock would install those.
        lines.append(
            f"# {pip_count} pip package(s) of this environment are locked in {CONDA_LOCK} "
            "only: explicit files cannot hold them"
        )
    return "\n".join(lines) + "\n"


# --- solving ------------------------------------------------------------------------------------


def _channel_of(url: str, channels: Sequence[Channel]) -> Channel | None:
    bare = _bare(url)
    for channel in channels:
        root = _bare(channel.solve_url).rstrip("/") + "/"
        if bare.startswith(root):
            return channel
    return None


def _record(  # noqa: PLR0913 - one keyword per field of the record it builds
    *,
    name: str,
    version: str,
    build: str,
    subdir: str,
    file_name: str,
    url: str,
    md5: str | None,
    sha256: str | None,
    depends: Iterable[str],
    channels: Sequence[Channel],
) -> CondaRecord:
    channel = _channel_of(url, channels)
    if channel is None:
        msg = f"{name} {version} came from {_proc.redact(url)}, which is not a requested channel"
        raise LockError(msg)
    if not md5:
        msg = f"{name} {version} ({file_name}) has no md5 in its channel's repodata"
        raise LockError(msg)
    return CondaRecord(
        name=name,
        version=version,
        build=build,
        subdir=subdir,
        file_name=file_name,
        channel=channel.name,
        url=f"{channel.written_url}/{subdir}/{file_name}",
        md5=md5,
        sha256=sha256 or None,
        depends=tuple(depends),
    )


def _unsolvable(plan: SolvePlan, detail: str) -> LockError:
    variant = plan.variant
    asked = ", ".join(f"{c.name} ({_proc.redact(c.solve_url)})" for c in plan.channels)
    target = " ".join(str(v) for v in plan.virtual_packages)
    detail = _proc.redact(detail.strip())
    msg = (
        f"{variant.id}: the conda side of torch {variant.release.torch} ({variant.accelerator}, "
        f"python {variant.python}, {variant.platform}) cannot be solved\n"
        f"  channels: {asked}\n"
        f"  specs: {', '.join(plan.specs)}\n"
        f"  target: {target}\n"
        "  solver says:\n" + "\n".join("    " + line for line in detail.splitlines())
    )
    return LockError(msg, hint="check the matrix row's channels and build, or the target's __cuda")


def previous_conda_versions(text: str, platform: str) -> dict[str, str]:
    """name -> version of the conda packages in a previous conda-lock.yml, for `platform`.

    Read by CondaLock.parse, strictly: a committed lock it refuses is a LockError naming it.
    """
    return CondaLock.parse(text).versions(platform)


def rattler_virtual_packages(virtuals: Iterable[VirtualPackage]) -> list[Any]:
    """The virtual packages as py-rattler's GenericVirtualPackage objects (for a solve)."""
    from rattler import BuildString, GenericVirtualPackage, PackageName  # noqa: PLC0415 - heavy (rattler), only when solving
    from rattler import Version as CondaVersion  # noqa: PLC0415 - heavy (rattler), only when solving

    return [
        GenericVirtualPackage(PackageName(v.name), CondaVersion(v.version), BuildString(v.build))
        for v in virtuals
    ]


def solve_rattler(plan: SolvePlan, *, cache_dir: Path | None = None) -> list[CondaRecord]:
    """Solve with py-rattler (offline against file:// channels; run from any thread)."""
    import rattler  # noqa: PLC0415 - heavy; only when locking

    virtual = rattler_virtual_packages(plan.virtual_packages)
    gateway = rattler.Gateway(cache_dir=cache_dir / "rattler") if cache_dir else rattler.Gateway()
    coroutine = rattler.solve(
        sources=[c.solve_url for c in plan.channels],
        specs=list(plan.specs),
        gateway=gateway,
        platforms=[plan.variant.platform, "noarch"],
        virtual_packages=virtual,
        exclude_newer=plan.exclude_newer,
        # Records without a timestamp are kept (and reported) rather than silently dropped.
        timestamp_policy="allow-missing",
    )
    import asyncio  # noqa: PLC0415 - with ssl, ~40 ms: only when solving, never for a pip-only lock

    try:
        # Lockers run in worker threads: each solve gets its own event loop.
        solved = asyncio.run(coroutine)
    except Exception as exc:
        raise _unsolvable(plan, str(exc)) from None
    records = [
        _record(
            name=str(r.name.normalized),
            version=str(r.version),
            build=str(r.build),
            subdir=str(r.subdir),
            file_name=str(r.file_name),
            url=str(r.url),
            md5=bytes(r.md5).hex() if r.md5 is not None else None,
            sha256=bytes(r.sha256).hex() if r.sha256 is not None else None,
            depends=[str(d) for d in r.depends],
            channels=plan.channels,
        )
        for r in solved
    ]
    if plan.exclude_newer is not None:
        undated = sorted(str(r.name.normalized) for r in solved if r.timestamp is None)
        if undated:
            log.warning(
                "%s: exclude_newer could not apply to %d package(s) whose repodata has no "
                "timestamp: %s",
                plan.variant.id,
                len(undated),
                ", ".join(undated),
            )
    return records


def _tool_env(plan: SolvePlan, workdir: Path) -> dict[str, str]:
    env = _proc.clean_env()
    by_name = {v.name: v.version for v in plan.virtual_packages}
    # An empty override hides the host's GPU: cpu variants must not see a __cuda.
    env["CONDA_OVERRIDE_CUDA"] = by_name.get("__cuda", "")
    for name, var in (("__glibc", "CONDA_OVERRIDE_GLIBC"), ("__osx", "CONDA_OVERRIDE_OSX")):
        if name in by_name:
            env[var] = by_name[name]
    env["CONDA_SUBDIR"] = plan.variant.platform
    env["CONDA_PKGS_DIRS"] = str(workdir / "pkgs")  # a fresh cache: every package is a FETCH
    return env


def _refuse_credentials_on_argv(plan: SolvePlan, tool: str) -> None:
    """conda, mamba and micromamba take channels only as `-c URL` (argv, which `ps` shows to
    every local user); no way to hand them a channel's credentials that all three honour is
    known, so a credential-bearing channel URL is refused rather than exposed."""
    for channel in plan.channels:
        _, user, token = split_credentials(channel.solve_url)
        if user is not None or token is not None:
            msg = (
                f"--conda-tool {tool}: the channel {channel.name} is solved at "
                f"{_proc.redact(channel.solve_url)}, a URL with credentials (from "
                f"ENVGEN_CONDA_CHANNEL_ALIAS); {tool} would get it on its command line, which "
                "every user of this machine can read (ps)"
            )
            raise LockError(
                msg,
                hint="use the default solver (py-rattler, no --conda-tool), which runs inside "
                "envgen, or a channel alias without credentials",
            )


def solve_tool(plan: SolvePlan, tool: str, *, workdir: Path, timeout: float) -> list[CondaRecord]:
    """Solve with `conda` / `mamba` / `micromamba create --dry-run --json`."""
    _refuse_credentials_on_argv(plan, tool)
    try:
        exe = _proc.require(tool, why=f"solve the conda side of {plan.variant.id}")
    except ToolNotFoundError:
        msg = (
            f"{tool} is not on PATH; it was asked for to solve the conda side of {plan.variant.id}"
        )
        raise ToolNotFoundError(
            msg,
            hint=f"install {tool} from conda-forge (the PyPI packages named mamba are unrelated) "
            "or use the default solver, py-rattler",
        ) from None
    args = [exe, "create", "--dry-run", "--json", "-p", str(workdir / "prefix")]
    args += ["--platform", plan.variant.platform, "--override-channels"]
    for channel in plan.channels:
        args += ["-c", channel.solve_url]
    args += list(plan.specs)
    result = _proc.run(
        args,
        what=f"{tool} solve for {plan.variant.id}",
        env=_tool_env(plan, workdir),
        cwd=workdir,
        timeout=timeout,
        check=False,
    )
    try:
        data = json.loads(result.stdout)
    except json.JSONDecodeError:
        raise _unsolvable(plan, result.stderr or result.stdout) from None
    if result.returncode != 0 or not data.get("success", True):
        raise _unsolvable(plan, str(data.get("message") or data.get("solver_problems") or data))
    fetch = data.get("actions", {}).get("FETCH", [])
    if not fetch:
        raise _unsolvable(plan, f"{tool} reported no packages to download")
    return [
        _record(
            name=str(a["name"]),
            version=str(a["version"]),
            build=str(a.get("build_string") or a.get("build", "")),
            subdir=str(a["subdir"]),
            file_name=str(a.get("fn") or str(a["url"]).rsplit("/", 1)[-1]),
            url=str(a["url"]),
            md5=a.get("md5"),
            sha256=a.get("sha256"),
            depends=[str(d) for d in a.get("depends", [])],
            channels=plan.channels,
        )
        for a in fetch
    ]


# --- pip ----------------------------------------------------------------------------------------


def pip_target(variant: Variant) -> str:
    """uv's --python-platform for the pip: section (manylinux level from the target's __glibc)."""
    return uv_python_platform(variant.platform, glibc=glibc_for(variant))


def _conda_constraints(records: Sequence[CondaRecord]) -> dict[str, str]:
    """PyPI name -> version of what conda provides (pip must not install it again)."""
    out: dict[str, str] = {}
    for r in records:
        if r.name == "python" or r.name.startswith("_"):
            continue
        try:
            Version(r.version)
        except InvalidVersion:
            continue
        out[canonicalize_name(_CONDA_TO_PYPI.get(r.name, r.name))] = r.version
    return out


def _bare(url: str) -> str:
    return split_credentials(url)[0]


def _written_pip_url(url: str, request: LockRequest) -> str:
    url = _bare(url)
    root = _bare(request.urls.extension_root or "") or None  # uv names files without credentials
    if root and url.startswith(root.rstrip("/") + "/"):
        # An extension wheel fetched through ENVGEN_EXTENSION_INDEX: name its real host.
        return "https://" + url[len(root.rstrip("/")) + 1 :]
    real, written = request.urls.pypi, request.written_urls.pypi
    if real and written and real != written:
        real_origin = urlsplit(_bare(real))._replace(path="", query="", fragment="")
        written_origin = urlsplit(written)._replace(path="", query="", fragment="")
        if url.startswith(urlunsplit(real_origin) + "/"):
            return urlunsplit(written_origin) + url[len(urlunsplit(real_origin)) :]
    return url


def lock_pip(request: LockRequest, conda: Sequence[CondaRecord]) -> list[PipRecord]:
    """Lock the environment's pip: section with uv against PyPI (or request.urls.pypi)."""
    variant = request.variant
    if not variant.pip_extra:
        return []
    uv = _proc.require("uv", why=f"lock the pip: section of {variant.id}")
    provided = _conda_constraints(conda)
    requirements = request.workdir / "conda-pip.in"
    # Compiled extensions come pinned, from their own pages (envgen.model.extensions).
    requirements.write_text(
        "".join(f"{r}\n" for r in sorted(extension_requirements(variant), key=str.lower)),
        encoding="utf-8",
    )
    constraints = request.workdir / "conda-pip-constraints.txt"
    constraints.write_text(
        "".join(f"{n}=={v}\n" for n, v in sorted(provided.items())), encoding="utf-8"
    )
    output = request.workdir / "pylock.conda.toml"
    args: list[str | os.PathLike[str]] = [
        uv, "pip", "compile", requirements, "-c", constraints, "--generate-hashes",
        "--python-version", variant.resolution_python, "--python-platform", pip_target(variant),
        "--format", "pylock.toml", "-o", output, "--no-header", "--no-config", "--quiet",
    ]  # fmt: skip
    if request.exclude_newer is not None:
        args += ["--exclude-newer", exclude_newer_timestamp(request.exclude_newer)]
        # Extension pages are plain HTML (no upload times); their pins come from the matrix.
        for pin in variant.extensions:
            if pin.index_line:
                args += ["--exclude-newer-package", f"{canonicalize_name(pin.package)}=false"]
    if request.cache_dir is not None:
        args += ["--cache-dir", request.cache_dir / "uv"]
    if request.offline:
        args.append("--offline")
    env = _proc.clean_env()
    # In the environment, not argv (`ps` shows argv to every local user): a mirror's credentials,
    # and the extensions' pages (ENVGEN_EXTENSION_INDEX may carry credentials too).
    plan = dataclasses.replace(index_plan(variant, request.urls), pytorch=None)
    env.update(uv_index_environment(variant, plan))
    if variant.platform.startswith("osx"):
        packages = load_targets().virtual(variant.platform).packages
        env["MACOSX_DEPLOYMENT_TARGET"] = packages["__osx"]
    try:
        _proc.run(
            args, what=f"uv pip compile (conda pip: section) for {variant.id}",
            cwd=request.workdir, env=env, timeout=request.timeout,
        )  # fmt: skip
    except _proc.CommandError as exc:
        msg = f"{variant.id}: {exc.message}"
        raise LockError(msg) from None
    data = tomllib.loads(output.read_text(encoding="utf-8"))
    out: list[PipRecord] = []
    for package in data.get("packages", []):
        name = canonicalize_name(str(package["name"]))
        if name in provided:
            continue  # conda installs it; the constraint kept pip's choice identical
        files = [*package.get("wheels", []), *([package["sdist"]] if "sdist" in package else [])]
        hashed = [f for f in files if f.get("hashes", {}).get("sha256") and f.get("url")]
        if not hashed:
            msg = (
                f"{variant.id}: uv locked {name} {package.get('version')} without a URL and sha256"
            )
            raise LockError(msg)
        chosen = hashed[0]
        out.append(
            PipRecord(
                name=name,
                version=str(package["version"]),
                url=_written_pip_url(str(chosen["url"]), request),
                sha256=str(chosen["hashes"]["sha256"]),
            )
        )
    return sorted(out, key=lambda p: p.name)


# --- the locker ---------------------------------------------------------------------------------


class CondaLocker:
    """Locks a variant's conda side (and its pip: section) into conda-lock's formats."""

    manager: Manager = "conda"

    def __init__(self, *, tool: str = "rattler") -> None:
        if tool not in CONDA_TOOLS:
            msg = f"conda solver {tool!r} is not supported; choose one of: {', '.join(CONDA_TOOLS)}"
            raise LockError(msg)
        self.tool = tool

    def _solve(self, plan: SolvePlan, request: LockRequest) -> list[CondaRecord]:
        if self.tool == "rattler":
            return solve_rattler(plan, cache_dir=request.cache_dir)
        return solve_tool(plan, self.tool, workdir=request.workdir, timeout=request.timeout)

    def _solve_keeping_pins(self, plan: SolvePlan, request: LockRequest) -> list[CondaRecord]:
        """Solve; with a previous lock (and no --upgrade) keep its versions where they still fit.

        The previous lock's conda versions become extra `name ==version` specs, except for the
        --upgrade-package names; if the spec changed so that they no longer solve, the plain
        solve decides (as pip-tools and uv do with an existing output file).
        """
        previous = request.previous.get(CONDA_LOCK)
        if request.upgrade or not previous:
            return self._solve(plan, request)
        upgrade = {n.lower() for n in request.upgrade_packages}
        kept = {
            name: version
            for name, version in previous_conda_versions(previous, plan.variant.platform).items()
            if name not in upgrade
        }
        if not kept:
            return self._solve(plan, request)
        pinned = dataclasses.replace(
            plan, specs=(*plan.specs, *(f"{n} =={v}" for n, v in sorted(kept.items())))
        )
        try:
            return self._solve(pinned, request)
        except LockError:
            log.info("%s: the previous conda pins no longer solve; solving afresh", plan.variant.id)
            return self._solve(plan, request)

    def lock(self, request: LockRequest) -> tuple[LockedFile, LockedFile]:
        """Solve the variant's environment.yml and return conda-lock.yml + the explicit file.

        Raises:
            LockError: unsolvable, or a build of the wrong compute platform was picked.
            ToolNotFoundError: the asked-for conda executable (or uv) is not on PATH.
        """
        plan = plan_solve(request)
        records = self._solve_keeping_pins(plan, request)
        check_compute(plan.variant, records)
        pip = lock_pip(request, records)
        pypi = request.written_urls.pypi or PYPI_SIMPLE
        content_hash = _content_hash(plan, plan.variant.pip_extra, pypi)
        return (
            LockedFile(name=CONDA_LOCK, body=render_lockfile(plan, records, pip, content_hash)),
            LockedFile(
                name=conda_explicit_name(plan.variant.platform),
                body=render_explicit(plan, records, len(pip), content_hash),
            ),
        )
