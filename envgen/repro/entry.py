"""`envgen import`: a file, an install command line or a whole repository -> project.yaml.

The entry point over the two readers: envgen.repro.importer (one source) and
envgen.repro.importer.repository (every source of a folder, merged). Both are below this module;
neither imports it. The only process it starts is `git log`, for `--git` (through
envgen.infra.proc).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from urllib.parse import urlsplit

from packaging.requirements import Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name

from envgen.errors import EnvgenError, ImportSpecError
from envgen.infra import proc as _proc
from envgen.infra.files import write_if_changed
from envgen.infra.git import git_argv, work_tree
from envgen.infra.settings import default_cache_root
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.url_packages import requires_as_of
from envgen.repro.carry import carry_to_pip, prefer_wheels, versioned
from envgen.repro.importer import (
    ImportOptions,
    ImportResult,
    build_project,
    kept_comments,
    parse_command_text,
    parse_file,
    render_project,
)
from envgen.repro.importer.evidence import (
    Evidence,
    forget_pip_route,
    is_version,
    requirement_name,
)
from envgen.repro.importer.repository import parse_repository
from envgen.repro.importer.requirements import pip_requirement
from envgen.repro.reading import excerpt
from envgen.repro.through import FAMILY, Brought, brought_in, family_to_read
from envgen.repro.wheels import PinWheels, fetch_pages, lookup

# Seconds per request to the index for the pins' file lists (ENVGEN_HTTP_TIMEOUT overrides).
_LOOKUP_TIMEOUT_S = 30.0


def run_import(options: ImportOptions, matrix: Matrix | None = None) -> ImportResult:
    """Read the source (a file or a command line), validate it, write project.yaml when asked.

    Raises:
        ImportSpecError: listing every problem found, each with the nearest published alternative.
    """
    if options.command is not None:
        found = parse_command_text(options.command, source="--command")
        default_name = "imported"
    elif options.source is not None and options.source.is_dir():
        found = parse_repository(options.source)
        default_name = options.source.resolve().name
    elif options.source is not None:
        found = parse_file(
            options.source,
            context=options.context,
            checkout=options.checkout,
            extras=options.extras,
        )
        default_name = options.source.resolve().parent.name
    else:
        msg = 'give a FILE to import or --command "pip install ..."'
        raise ImportSpecError(msg)
    if options.extras and (
        found.kind not in {"pyproject", "setup.py", "setup.cfg"}
        or (options.source is not None and options.source.is_dir())
    ):
        found.warnings.append(
            f"{found.source}: --extra applies to a pyproject.toml, setup.py or setup.cfg "
            f"imported as a file; so --extra {excerpt(options.extras[0], 40)} is ignored (import "
            "the project's file itself to read an extra)"
        )
    matrix = matrix or load_matrix(options.matrix_dir, cache_root=options.cache_root)
    if options.as_of and options.git:
        msg = "--as-of and --git both set the date; give one"
        raise ImportSpecError(msg)
    as_of = _parse_date(options.as_of) if options.as_of else None
    if options.git:
        if options.source is None:
            msg = "--git needs a FILE (the date of its last commit is used)"
            raise ImportSpecError(msg)
        as_of = git_date(options.source)
    default_date: list[str] = []
    if (
        as_of is None
        and options.git_default
        and options.source is not None
        and (found.torch is None or found.torch.version is None)
        and _in_git_checkout(options.source)
    ):
        try:
            as_of = git_date(options.source)
        except EnvgenError:
            as_of = None  # untracked, or no git: no date to take
        if as_of is not None:
            default_date.append(
                f"{found.source}: torch is not pinned exactly; dating it by the last commit of "
                f"{options.source.name} ({as_of}), as --as-of {as_of} would (pass --as-of to "
                "choose another date)"
            )
    _through_dependencies(options, found, as_of, matrix)
    _floors_over_installed(options, found, as_of, matrix)
    # Only when there is something to reproduce and the file names no python (nor installs
    # into a base image's own interpreter, whose python the image fixed).
    asks = (
        found.python is None
        and found.interpreter_image is None
        and (found.torch is not None or bool(found.companions))
    )
    wheels, notes = _pin_wheels(options, found.pip_reqs, as_of) if asks else (None, [])
    conda_deps, pip_reqs = list(found.conda_deps), list(found.pip_reqs)  # build_project moves them
    project, warnings = build_project(
        found,
        matrix,
        name=options.name or found.name or default_name,
        as_of=as_of,
        strict=options.strict,
        wheels=wheels,
    )
    if conda_deps and project.get("managers") == ["pip"] and project.get("python"):
        notes += _carried_wheels(options, project, conda_deps, pip_reqs, as_of, found.source)
    warnings = default_date + warnings + [f"{found.source}: {note}" for note in notes]
    text = render_project(project, source=found.source, comments=kept_comments(found, project))
    written = False
    if options.out is not None:
        _check_overwrite(options.out, text, force=options.force)
        written = write_if_changed(options.out, text)
    return ImportResult(project=project, text=text, warnings=tuple(warnings), written=written)


def _through_dependencies(
    options: ImportOptions, found: Evidence, as_of: dt.date | None, matrix: Matrix
) -> None:
    """The torch-family packages pip installs only because a named package requires them: each
    named package's Requires-Dist (envgen.repro.through), read into `found` as a requirement of
    the file's own, with a warning naming the packages. Where the file names no torch-family
    package, all three are read (timm==0.4.12 alone installs a torch); where it names torch but
    not torchvision or torchaudio, only those companions (lpips brings in a torchvision, which
    must then be torch's own build, not whatever PyPI serves). Nothing with --offline (no index
    to ask: where the file names no torch, a warning says what is not read), nothing where the
    file names all three. A package installed from a URL (`timm @ git+https://...`) is read
    through its newest release as of the file's date, which the warning marks as inferred.
    """
    if found.unreadable is not None:
        return
    recorded = _recorded_url_packages(found, as_of)
    requirements = [
        *(r for r in found.pip_reqs if requirement_name(r) not in found.no_deps),
        *(n for n in found.url_packages if canonicalize_name(n) not in recorded),
    ]
    if not requirements:
        return
    missing = family_to_read(found.torch is not None, set(found.companions))
    if not missing:
        return
    named = len(missing) < len(FAMILY)  # the file names some of the family
    if options.pypi_index is None:
        if not named:
            found.warnings.append(
                f"{found.source}: names no torch; the Requires-Dist of the "
                f"{len(requirements)} package(s) it installs, which may bring one in, is not read"
            )
        return
    brought, notes = _brought(options, options.pypi_index, requirements, as_of)
    if named and not any(b.name in missing for b in brought):
        return  # nothing to say: the notes only matter when the file's torch is in question
    found.warnings += [f"{found.source}: {note}" for note in notes]
    for name in missing:
        mine = [b for b in brought if b.name == name]
        if not mine:
            continue
        said = ", ".join(f"{b.package} ({name}{b.specifier or ' unpinned'})" for b in mine)
        urls = {canonicalize_name(n) for n in found.url_packages}
        stand_in = [b.package for b in mine if canonicalize_name(b.package.split("==")[0]) in urls]
        inferred = (
            f" ({', '.join(stand_in)}: the newest release as of the file's date, standing in for "
            "the URL the file installs it from; inferred)"
            if stand_in
            else ""
        )
        found.warnings.append(
            f"{found.source}: names no {name}; it comes in through the Requires-Dist of {said}, "
            f"read from the index's core metadata{inferred}"
        )
        specifier = ",".join(dict.fromkeys(b.specifier for b in mine if b.specifier))
        if name != "torch" and _pairs_torch(matrix, found, name, specifier):
            # a companion only another package requires, beside an exact torch whose own pair
            # meets that requirement (vllm's torchvision==0.26.0 beside its torch==2.11.0): pip
            # installs the pair; the file names none, so project.yaml takes the one matching
            # torch (`true`), as for an unpinned one. A conflicting requirement stays, and says so
            specifier = ""
        pip_requirement(f"{name}{specifier}", found, f"{found.source} (through {mine[0].package})")


def _floors_over_installed(
    options: ImportOptions, found: Evidence, as_of: dt.date | None, matrix: Matrix
) -> None:
    """A torch that a base image, conda or an earlier pip command installed, which a package pip
    installs later requires more of: pip replaces it, as it replaces it for a later torch line of
    the file's own (`installed_over` names those packages). kornia
    0.6.5 (Requires-Dist torch>=1.8.1), installed unpinned over pytorch/pytorch:1.4's torch
    1.4.0 in 2022, brings PyPI's newest torch; kornia==0.6.4 in a pip install after a conda
    environment's pytorch=1.7.0 does too. pip does not take an older kornia to keep the
    installed torch: an installed distribution is not a constraint, and pip upgrades what does
    not satisfy a requirement (--upgrade-strategy only-if-needed). Only the pip requirements read
    after that torch was installed count (Evidence.torch_slot), and only an exact torch (an
    image's, conda's `pytorch=1.7.0`, an earlier command's), with each package's release chosen
    for the environment's python (its requires-python). Nothing with --offline (no index), nor
    for an undated file (no --as-of or --git): which releases its unpinned packages were is
    unknown, and today's would replace most old torches."""
    pin = found.torch
    later = installed_over(found)
    if options.pypi_index is None or as_of is None or pin is None or pin.version is None:
        return
    if not later:
        return
    python = found.python or found.image_python
    brought, _notes = _brought(options, options.pypi_index, later, as_of, python)
    asks = [b for b in brought if b.name == "torch" and b.specifier]
    unmet = [b for b in asks if not _contains(b.specifier, pin.version)]
    if not unmet:
        return
    said = ", ".join(f"{b.package} (torch{b.specifier})" for b in unmet)
    specifier = ",".join(dict.fromkeys(b.specifier for b in asks))
    if not any(_contains(specifier, r.torch) for r in matrix.releases):
        # functorch==0.2.1's torch<1.13 beside pytorch-lightning 2.3.3's torch>=2.0.0: pip
        # finds no torch for both (ResolutionImpossible) and installs nothing
        found.warnings.append(
            f"{found.source}: torch {pin.version} ({pin.where}) does not meet the Requires-Dist "
            f"of {said}, installed after it by pip, and no torch release meets them all "
            f"(torch{specifier}): that pip install fails, so torch {pin.version} is kept"
        )
        return
    found.warnings.append(
        f"{found.source}: torch {pin.version} ({pin.where}) does not meet the Requires-Dist of "
        f"{said}, installed after it by pip, read from the index's core metadata: pip replaces "
        "it with the newest torch those requirements allow"
    )
    if found.torch_manager == "pip" and pin.image is None:
        # an earlier pip command's torch: its index and local label chose that torch's build,
        # not the one the later command takes
        forget_pip_route(found, len(found.indexes), len(found.compute))
        for companion in found.companions.values():
            companion.label = None  # `torchvision==0.13.0+cu116` named the replaced torch's build
    # the PyTorch index the bringing command named (dropped while torch looked installed)
    found.indexes += found.command_indexes.get(requirement_name(unmet[0].package), [])
    pip_requirement(f"torch{specifier}", found, f"{found.source} (through {unmet[0].package})")


def _brought(
    options: ImportOptions,
    index: str,
    requirements: list[str],
    as_of: dt.date | None,
    python: str | None = None,
) -> tuple[list[Brought], list[str]]:
    """The torch-family requirements `requirements` bring in, read from `index` through the
    import's cache and timeout (envgen.repro.through.brought_in)."""
    return brought_in(
        requirements,
        index=index,
        cache_dir=(options.cache_root or default_cache_root()) / "pypi-simple",
        as_of=as_of,
        timeout=options.http_timeout or _LOOKUP_TIMEOUT_S,
        python=python,
    )


def installed_over(found: Evidence) -> list[str]:
    """The pip requirements (not torch's family, nor installed with --no-deps) installed after
    an exact torch that a base image, conda or an earlier pip command installed
    (Evidence.torch_slot): those whose torch floors `_floors_over_installed` reads; none for a
    torch a requirements file names beside them (one resolve: pip takes releases that fit it)."""
    pin = found.torch
    if (
        found.unreadable is not None
        or pin is None
        or pin.version is None
        or not is_version(pin.version)
        or (
            pin.image is None
            and found.torch_manager != "conda"
            and not (found.torch_manager == "pip" and found.torch_by_command)
        )
    ):
        return []
    return [
        r
        for r in found.pip_reqs[found.torch_slot :]
        if requirement_name(r) not in FAMILY and requirement_name(r) not in found.no_deps
    ]


def _contains(specifier: str, version: str) -> bool:
    """A Requires-Dist specifier that admits `version` (one that cannot be read rules nothing
    out)."""
    try:
        return SpecifierSet(specifier).contains(version, prereleases=True)
    except InvalidSpecifier:
        return True


def _pairs_torch(matrix: Matrix, found: Evidence, name: str, specifier: str) -> bool:
    """The exact torch's own companion (releases.yaml) meets `specifier`."""
    pin = found.torch
    if pin is None or pin.version is None:
        return False
    release = next((r for r in matrix.releases if r.torch == pin.version), None)
    paired = getattr(release, name, None) if release is not None else None
    return isinstance(paired, str) and bool(specifier) and _contains(specifier, paired)


def _recorded_url_packages(found: Evidence, as_of: dt.date | None) -> set[str]:
    """The packages installed from a repository URL that matrices/url-packages.yaml records
    (`git+https://github.com/openai/CLIP.git`, whose PyPI namesake is another project): the
    torch-family requirements their repository declared on the file's date, read as the file's
    own where the file does not name that package; their canonical names (not read through
    PyPI)."""
    handled: set[str] = set()
    for url, where in found.direct_urls:
        row = requires_as_of(url, as_of)
        if row is None or canonicalize_name(row.name) in handled:
            continue
        handled.add(canonicalize_name(row.name))
        missing = family_to_read(found.torch is not None, set(found.companions))
        wanted = [r for r in row.requires if Requirement(r).name in missing]
        if not wanted:
            continue
        ref = "; the URL's ref is not looked up" if "@" in urlsplit(url).path else ""
        found.warnings.append(
            f"{where}: {row.name} from {excerpt(url)} requires {', '.join(row.requires)} on "
            f"{as_of or 'the newest date recorded'} ({row.source}; {row.namesake}, so PyPI's "
            f"Requires-Dist is not read{ref})"
        )
        for requirement in wanted:
            pip_requirement(requirement, found, f"{where} (through {row.name})")
    return handled


def _pin_wheels(
    options: ImportOptions, requirements: list[str], as_of: dt.date | None
) -> tuple[list[PinWheels] | None, list[str]]:
    """Ask the index which pythons the file's exact pins have wheels for (when it is to be asked
    and the file names no python); network failures become notes, never errors."""
    if options.pypi_index is None:
        return None, []
    if not requirements:
        return [], []  # asked, nothing to look up: the companions' pins may still decide
    cache = (options.cache_root or default_cache_root()) / "pypi-simple"
    wheels, notes = lookup(
        requirements,
        index=options.pypi_index,
        cache_dir=cache,
        as_of=as_of,
        timeout=options.http_timeout or _LOOKUP_TIMEOUT_S,
    )
    if notes:
        notes = [*notes, "pass --offline to choose no python from the index"]
    return wheels, notes


def _carried_wheels(
    options: ImportOptions,
    project: dict[str, object],
    conda_deps: list[str],
    pip_reqs: list[str],
    as_of: dt.date | None,
    source: str,
) -> list[str]:
    """Conda dependencies carried to pip whose release has no wheel for the project's python
    take the nearest release that has one (envgen.repro.carry.prefer_wheels): `project`'s pip:
    changed in place; the notes. Nothing without an index to ask (--offline)."""
    if options.pypi_index is None:
        return []
    carried = carry_to_pip(conda_deps, pip_reqs, where=source).pip
    pip = project.get("pip")
    if not carried or not isinstance(pip, list):
        return []
    pages, failed = fetch_pages(
        versioned(carried),
        index=options.pypi_index,
        cache_dir=(options.cache_root or default_cache_root()) / "pypi-simple",
        timeout=options.http_timeout or _LOOKUP_TIMEOUT_S,
    )
    kept, changed = prefer_wheels(
        carried, python=str(project["python"]), pages=pages, as_of=as_of, where="carried from conda"
    )
    swap = dict(zip(carried, kept, strict=True))
    project["pip"] = [swap.get(str(r), r) for r in pip]
    return [*changed, *(f"carried conda dependencies: {n}" for n in failed)]


def _check_overwrite(out: Path, text: str, *, force: bool) -> None:
    """`-o` never replaces a different existing file (a hand-written spec) without --force."""
    if force or not (out.exists() or out.is_symlink()):
        return
    try:
        same = (
            out.is_file()
            and out.stat().st_size == len(text.encode())
            and (out.read_text(encoding="utf-8") == text)
        )
    except (OSError, UnicodeDecodeError):
        same = False
    if not same:
        msg = (
            f"-o {out}: the file exists and differs from the imported project.yaml; not overwritten"
        )
        raise ImportSpecError(msg, hint="pass --force to replace it, or choose another -o path")


def _in_git_checkout(path: Path) -> bool:
    """`path` lies inside a git work tree (a `.git` entry in it or a parent; no process started)."""
    here = path.resolve()
    return any((d / ".git").exists() for d in (here, *here.parents))


def git_date(path: Path) -> dt.date:
    """The date of the last commit that touched `path` (`git log -1 --format=%cs`)."""
    where = path.resolve().parent
    top = work_tree(where)
    if top is None:
        msg = (
            f"--git: cannot read the commit date of {path.name}: fatal: not a git repository "
            "(or any of the parent directories): .git"
        )
        raise ImportSpecError(msg, hint="run it inside the repository, or pass --as-of YYYY-MM-DD")
    try:
        result = _proc.run(
            # Bound to the checkout's own .git (an embedded bare repository committed in the
            # imported tree would otherwise configure git: `gpg.program` runs under `git log`).
            [*git_argv("git", top), "log", "-1", "--format=%cs", "--", path.name],
            what=f"git log for {path.name}",
            cwd=where,
            timeout=60,
        )
    except _proc.CommandError as exc:
        tail = exc.result.stderr.strip().splitlines()[-1:] or ["(no stderr)"]
        msg = f"--git: cannot read the commit date of {path.name}: {tail[0]}"
        raise ImportSpecError(
            msg, hint="run it inside the repository, or pass --as-of YYYY-MM-DD"
        ) from None
    stamp = result.stdout.strip()
    if not stamp:
        msg = f"--git: {path.name} has no commits in the repository at {where}"
        raise ImportSpecError(msg, hint="commit it first, or pass --as-of YYYY-MM-DD")
    return _parse_date(stamp)


def _parse_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        msg = f"--as-of: {text!r} is not a date; write YYYY-MM-DD, e.g. 2020-11-30"
        raise ImportSpecError(msg) from None
