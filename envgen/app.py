"""The library calls behind each CLI command: load the spec and matrix, run the stages, report.

One function per command; each takes a frozen options object or plain arguments and returns data
(the CLI prints it). This module must not parse argv or print, nor read the environment: the
user's settings come in as a `Settings` value (envgen.infra.settings; the CLI resolves it once per
command) and are passed down to the stages.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import logging
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, Final

from envgen.errors import (
    BuildError,
    EnvgenError,
    LockError,
    MatrixError,
    SpecError,
    StaleOutputError,
    UnsupportedCombinationError,
)
from envgen.infra.mutex import project_lock
from envgen.infra.proc import redact
from envgen.infra.resources import MATRICES_DIR
from envgen.infra.settings import Settings
from envgen.lock.fileset import commit_planned, finish_interrupted, interrupted
from envgen.lock.lockfile import full_lock_ids
from envgen.lock.options import LockOptions, LockResult
from envgen.lock.stale import describe_stale, find_stale, prune
from envgen.model.extensions import Target, install_line, pins_for
from envgen.model.matrix import Matrix, Release, check_invariants, load_matrix
from envgen.model.spec import ProjectSpec, load_spec
from envgen.model.types import TORCH_FAMILY
from envgen.model.variants import (
    INFERRED_NOTE_PREFIX,
    Expansion,
    Variant,
    expand,
    inferred_note,
    issues_for,
    resolve_release,
    select,
    warning_lines,
)
from envgen.render.commands import InstallCommand, conda_command, pip_command
from envgen.render.commands import install_command as render_install_command
from envgen.render.indexes import IndexUrls, index_urls
from envgen.render.plan import check_planned, default_out, plan_pins_only

if TYPE_CHECKING:
    # envgen.build is imported lazily below (it pulls in rich and the lockers); by name here.
    from envgen.build.clean import Orphan
    from envgen.build.options import BuildOptions
    from envgen.build.orchestrate import BuildReport, VariantBuild, VariantSmoke
    from envgen.lock.rename import Carried
    from envgen.render.ci import CiOptions
    from envgen.render.dockerfile import DockerfileOptions
    from envgen.render.export import ExportOptions
    from envgen.vault.s3 import SyncResult
    from envgen.vault.store import Artifact

log = logging.getLogger(__name__)


@contextlib.contextmanager
def _guarded(
    out: Path, error: type[EnvgenError], what: str, *, inside: Path | None = None
) -> Iterator[None]:
    """Hold the project lock on `out`; an OSError (full disk, permissions) becomes `error`.

    Files are written atomically (envgen.infra.files), so a failed write leaves the previous file.
    An OSError from a connection (refused, reset, timed out, a host that does not resolve) is no
    file's: it becomes NetworkError.
    """
    try:
        with project_lock(out, inside=inside):
            yield
    except OSError as exc:
        from envgen.infra.network import network_error  # noqa: PLC0415 - socket, urllib (~6 ms); only on a failure

        network = network_error(exc)
        if network is not None:
            raise network from None
        where = f" {exc.filename}" if exc.filename else ""
        msg = (
            f"{what} could not write{where}: {exc.strerror or exc}; "
            "no file was left half-written (each holds its previous or its new content)"
        )
        raise error(redact(msg)) from None


def _guarded_env_dir(
    env_dir: Path | None, error: type[EnvgenError], what: str
) -> contextlib.AbstractContextManager[None]:
    """The lock of a shared --env-dir: two projects building into it take turns."""
    return _guarded(env_dir, error, what) if env_dir is not None else contextlib.nullcontext()


def load(
    spec_path: Path, matrix_dir: Path | None, settings: Settings
) -> tuple[ProjectSpec, Matrix]:
    return load_spec(spec_path), load_matrix(matrix_dir, cache_root=settings.cache_root)


def expand_spec(spec_path: Path, matrix_dir: Path | None, settings: Settings) -> Expansion:
    spec, matrix = load(spec_path, matrix_dir, settings)
    return expand(spec, matrix)


def lock(options: LockOptions) -> LockResult:
    """`envgen lock`: pins-only files, or full locks per variant (see envgen.lock.locker)."""
    spec, matrix = load(options.spec, options.matrix_dir, options.settings)
    if options.as_of is not None:
        try:
            dt.date.fromisoformat(options.as_of)
        except ValueError:
            msg = f"--as-of {options.as_of!r} is not a date; write YYYY-MM-DD, e.g. 2021-06-30"
            raise SpecError(msg) from None
    out = options.out or default_out(spec)
    urls = index_urls(spec, options.settings, for_writing=True)
    if options.check:  # reads only: no project lock
        return _quiet_when_unchanged(_lock_unguarded(spec, matrix, options, out, urls))
    with _guarded(out, LockError, "envgen lock", inside=trusted_root(spec, options.out)):
        result = _lock_unguarded(spec, matrix, options, out, urls)
    notes = unowned_environments(out, [v.id for v in expand(spec, matrix).variants])
    return _quiet_when_unchanged(dataclasses.replace(result, warnings=(*result.warnings, *notes)))


def _quiet_when_unchanged(result: LockResult) -> LockResult:
    """The inferred-rows note with the files it concerns: shown when a lock writes, not on a
    check or a run that changed nothing (it would repeat on every command of a session)."""
    if result.written:
        return result
    kept = tuple(w for w in result.warnings if not w.startswith(INFERRED_NOTE_PREFIX))
    return dataclasses.replace(result, warnings=kept)


def unowned_environments(out: Path, owned: list[str]) -> list[str]:
    """A line per `<out>/<id>/.env` folder whose id is no variant of the spec (after a rename).

    A cheap look (no build stage imported, no marker read): `envgen clean` decides what is
    envgen's and removes it.
    """
    try:
        folders = sorted(p for p in out.iterdir() if p.name not in owned)
    except OSError:
        return []
    return [
        f"{f / '.env'}: no variant of the spec is called {f.name!r} now (the variants: "
        f"{', '.join(owned)}); the environment stays until `envgen clean` removes it"
        for f in folders
        if (f / ".env").is_dir() and not (f / ".env").is_symlink()
    ]


def trusted_root(spec: ProjectSpec, out: Path | None) -> Path:
    """The folder the user named for a run's output: `--out`, else the spec's directory.

    Everything below it may come from the cloned repository, so no symbolic link there is
    followed (envgen.infra.files); the folder itself, and the path to it, are the user's.
    """
    return out if out is not None else spec.directory


def _lock_unguarded(
    spec: ProjectSpec, matrix: Matrix, options: LockOptions, out: Path, urls: IndexUrls
) -> LockResult:
    inside = trusted_root(spec, options.out)

    if options.pins_only:
        return _lock_pins_only(spec, matrix, options, out, urls, inside=inside)
    from envgen.lock import orchestrate as locking  # noqa: PLC0415 - ~70 ms (ssl, asyncio: the lockers); keeps `envgen list` fast

    return locking.lock_full(spec, matrix, options, out=out, inside=inside)


def _lock_pins_only(
    spec: ProjectSpec,
    matrix: Matrix,
    options: LockOptions,
    out: Path,
    urls: IndexUrls,
    *,
    inside: Path,
) -> LockResult:
    """`lock --pins-only`: matrix pins, no resolver. A full lock on disk is never downgraded.

    Variants with a full lock keep it: their inputs (requirements.in, environment.yml) are
    written in the full form, and the lock's pins are checked against the matrix instead.
    """
    expanded = expand(spec, matrix).variants
    # A set of files a stopped run left half renamed is finished before anything is read.
    finished = [] if options.check else finish_interrupted(out, inside=inside)
    full = full_lock_ids(out, expanded)
    carried = {} if options.check else _carried_locks(spec, expanded, options, out, urls, inside)
    full |= frozenset(carried)
    expansion, files = plan_pins_only(
        spec,
        matrix,
        out=out,
        urls=urls,
        custom_command=options.settings.custom_command,
        full_ids=full,
    )
    chosen = (
        select(expansion.variants, options.variants) if options.variants else expansion.variants
    )
    keep = {v.id for v in chosen}
    files = [f for f in files if f.relpath.parts[0] in keep or len(f.relpath.parts) == 1]
    note = inferred_note(chosen)
    warnings = [*expansion.notes, *([note] if note else []), *warning_lines(expansion.variants)]
    lines: list[str] = list(finished)
    problems: list[str] = []
    with_lock: set[str] = set()
    for v in chosen:
        if v.id in carried:
            lines.append(
                f"{v.id}: lock carried over from {carried[v.id].source}/ (the same inputs)"
            )
        if v.id not in full or v.id in carried:
            continue
        from envgen.lock.verify import full_lock_pin_problems  # noqa: PLC0415 - ~40 ms (asyncio, the lockers); only where a full lock is on disk

        found, locked = full_lock_pin_problems(out, v, urls)
        problems += found
        if locked:
            with_lock.add(v.id)
        if not locked:
            lines.append(f"{v.id}: full-lock inputs only (no lock yet; `envgen lock` makes it)")
        elif not found:
            lines.append(f"{v.id}: full lock kept; its pins agree with the matrix")
    stale = find_stale(out, (v.id for v in expansion.variants))
    if options.check:
        problems += interrupted(out, keep, inside=inside)
        check_planned(out, files, inside=inside)
        problems += [describe_stale(s) for s in stale]
        if problems:
            raise StaleOutputError(
                f"{len(problems)} problem(s) in {out}:\n" + "\n".join(f"  - {p}" for p in problems),
                hint="run `envgen lock` and commit the result",
            )
        lines.append(f"{len(files)} file(s) in {out} are up to date")
        return LockResult(lines=tuple(lines), warnings=tuple(warnings))
    # Each variant's files as one set; a full lock and its inputs are never touched.
    written, kept = commit_planned(
        out,
        files,
        locked=frozenset(with_lock),
        inside=inside,
        extra={k: c.texts for k, c in carried.items() if k in keep},
    )
    warnings += [f"{p} (the full lock was kept; run `envgen lock`)" for p in problems]
    lines += [f"wrote {out / str(p)}" for p in written]
    lines += kept
    lines += prune(out, stale)
    lines.append(f"{len(files)} file(s), {len(written)} changed, in {out}")
    return LockResult(
        lines=tuple(lines), warnings=tuple(warnings), written=tuple(str(p) for p in written)
    )


def _carried_locks(
    spec: ProjectSpec,
    variants: tuple[Variant, ...],
    options: LockOptions,
    out: Path,
    urls: IndexUrls,
    inside: Path,
) -> dict[str, Carried]:
    """Full locks of renamed variants whose inputs still apply (envgen.lock.rename): carried
    over by `--pins-only` too, which never downgrades a full lock (issue 26 item 5)."""
    stale = find_stale(out, (v.id for v in variants))
    if not any("requirements.in" in s.generated or "conda-lock.yml" in s.generated for s in stale):
        return {}
    from envgen.lock.rename import carry_over  # noqa: PLC0415 - the lock formats; only after a rename

    return carry_over(spec, variants, stale, options, urls, out=out, root=inside)


# --- matrix commands -----------------------------------------------------------------------------
def matrix_rows(matrix_dir: Path | None, settings: Settings) -> list[dict[str, Any]]:
    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    return [
        {
            "torch": r.torch,
            "torchvision": r.torchvision,
            "torchaudio": r.torchaudio,
            "python": list(r.python),
            "date": r.date,
            "accelerators": list(matrix.accelerators(r.torch)),
            "source": r.source,
            "inferred": list(r.inferred),
        }
        for r in matrix.releases
    ]


def matrix_show(
    torch: str,
    matrix_dir: Path | None,
    settings: Settings,
    *,
    with_extensions: tuple[str, ...] = (),
) -> dict[str, Any]:
    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    release = resolve_release(torch, matrix, where="matrix show")
    pip_rows = [
        {
            "accelerator": b.accelerator,
            "platforms": list(b.platforms),
            # A row that names its torch wheel shows it for the release's newest Python.
            "command": pip_command(b, python=release.python[-1] if release.python else None),
            "source": b.source,
            "inferred": b.inferred,
            "pypi_default": b.pypi_default,
        }
        for b in matrix.pip_builds(release.torch)
    ]
    conda_rows = [
        {
            "accelerator": b.accelerator,
            "platforms": list(b.platforms),
            "command": conda_command(b),
            "source": b.source,
            "inferred": b.inferred,
        }
        for b in matrix.conda_builds(release.torch)
    ]
    # Per published build, so issues tied to an index form or a channel show up too.
    found = [
        *(
            i
            for b in matrix.pip_builds(release.torch)
            for i in issues_for(matrix, release, manager="pip", accelerator=b.accelerator, pip=b)
        ),
        *(
            i
            for b in matrix.conda_builds(release.torch)
            for i in issues_for(
                matrix, release, manager="conda", accelerator=b.accelerator, conda=b
            )
        ),
    ]
    issues = {
        i.id: {"severity": i.severity, "message": i.message, "fix": i.fix, "link": i.link}
        for i in found
    }
    extensions = {name: _extension_rows(matrix, release, name) for name in with_extensions}
    return {
        "torch": release.torch,
        "torchvision": release.torchvision,
        "torchaudio": release.torchaudio,
        "python": list(release.python),
        "date": release.date,
        "source": release.source,
        "inferred": list(release.inferred),
        "pip": pip_rows,
        "conda": conda_rows,
        "known_issues": dict(sorted(issues.items())),
        **({"extensions": extensions} if with_extensions else {}),
    }


def _extension_rows(matrix: Matrix, release: Release, name: str) -> list[dict[str, Any]]:
    """Per pip accelerator on linux-64 (newest python): the extension's pin, or why not."""
    rows: list[dict[str, Any]] = []
    python = release.python[-1] if release.python else "3"
    for b in matrix.pip_builds(release.torch, "linux-64"):
        target = Target(
            torch=release.torch, accelerator=b.accelerator, python=python, platform="linux-64"
        )
        try:
            (pin,) = pins_for(matrix, (name,), target, where="--with")
        except UnsupportedCombinationError as exc:
            if "is not a known extension" in exc.message:
                raise
            rows.append({"accelerator": b.accelerator, "python": python, "error": exc.message})
            continue
        rows.append(
            {
                "accelerator": b.accelerator,
                "python": python,
                "version": pin.version,
                "command": install_line(pin),
                "source": pin.source,
                "inferred": pin.inferred,
            }
        )
    return rows


def format_show(data: dict[str, Any]) -> str:
    lines = [
        f"torch {data['torch']} (released {data['date'] or 'unknown'})",
        f"  torchvision {data['torchvision'] or '-'}, torchaudio {data['torchaudio'] or '-'}",
        f"  python {', '.join(data['python'])}",
        f"  source: {data['source']}"
        + (f" (inferred: {', '.join(data['inferred'])})" if data["inferred"] else ""),
    ]
    for mgr in ("pip", "conda"):
        lines.append(f"{mgr}:")
        if not data[mgr]:
            lines.append("  (not published)")
        for row in data[mgr]:
            mark = " [inferred]" if row["inferred"] else ""
            lines.append(f"  {row['accelerator']:<10} {','.join(row['platforms'])}{mark}")
            lines.append(f"    {row['command']}")
    for name, rows in data.get("extensions", {}).items():
        lines.append(f"{name} (pip, linux-64):")
        for row in rows:
            if "error" in row:
                lines.append(
                    f"  {row['accelerator']:<10} not built: {row['error'].split('; ', 1)[-1]}"
                )
                continue
            mark = " [inferred]" if row["inferred"] else ""
            lines.append(f"  {row['accelerator']:<10} python {row['python']}{mark}")
            lines.append(f"    {row['command']}")
    for key, issue in data["known_issues"].items():
        lines.append(f"{issue['severity']}: [{key}] {issue['message']} Fix: {issue['fix']}")
    return "\n".join(lines)


def matrix_validate(matrix_dir: Path | None, settings: Settings) -> str:
    # The YAML itself, through pydantic, every time: other commands may take the validated copy
    # cached under settings.cache_root (envgen.model.matrix), this one checks the files.
    del settings
    matrix = load_matrix(matrix_dir)
    problems = check_invariants(matrix)
    if problems:  # load_matrix raises on these; reaching here is a bug
        msg = "internal error: load_matrix accepted a matrix with problems: " + "; ".join(problems)
        raise RuntimeError(msg)
    from envgen.render.dockerfile import CUDA_IMAGES_FILE, load_cuda_images  # noqa: PLC0415 - ~55 ms (rich, via smoke.report); only for matrix validate

    images = ""
    if ((matrix_dir or MATRICES_DIR) / CUDA_IMAGES_FILE).exists():
        images = f", {len(load_cuda_images(matrix_dir))} CUDA base images"
    from envgen.model.targets import TARGETS_FILE, load_targets  # noqa: PLC0415 - only for matrix validate

    if ((matrix_dir or MATRICES_DIR) / TARGETS_FILE).exists():
        targets = load_targets(matrix_dir)  # the runtime reader, then the schema on the same data
        from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - only for matrix validate
        from envgen.model.targets_schema import first_problem  # noqa: PLC0415 - pydantic: validate only

        path = (matrix_dir or MATRICES_DIR) / TARGETS_FILE
        problem = first_problem(load_bounded(path.read_text(encoding="utf-8"))[1])
        if problem is not None:
            msg = f"{path}: invalid value: {problem}"
            raise MatrixError(msg)
        images += f", {len(targets.uv_python_platforms)} target platforms"
    return (
        f"matrix ok: {len(matrix.releases)} releases, {len(matrix.pip)} pip builds, "
        f"{len(matrix.conda)} conda builds, {len(matrix.drivers)} drivers, "
        f"{len(matrix.known_issues)} known issues"
        + (f", {len(matrix.extensions)} extensions" if matrix.extensions else "")
        + images
    )


def matrix_verify(matrix_dir: Path | None, index: str, settings: Settings) -> list[dict[str, str]]:
    from envgen.verification import matrix as checks  # noqa: PLC0415 - ~11 ms; only for matrix verify
    from envgen.verification import pypi  # noqa: PLC0415 - the same

    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    facts = pypi.fetch_pypi_facts(TORCH_FAMILY, index=index, timeout=settings.http_timeout)
    return [
        {"severity": f.severity, "where": f.where, "message": f.message}
        for f in checks.verify_matrix(matrix, facts)
    ]


def install_command(
    matrix_dir: Path | None,
    *,
    torch: str,
    compute: str,
    manager: str,
    os_name: str,
    settings: Settings,
    with_extensions: tuple[str, ...] = (),
    python: str | None = None,
) -> InstallCommand:
    return render_install_command(
        load_matrix(matrix_dir, cache_root=settings.cache_root),
        torch=torch,
        compute=compute,
        manager=manager,
        os_name=os_name,
        with_extensions=with_extensions,
        python=python,
    )


__all__ = [
    "LockOptions",
    "LockResult",
    "expand_spec",
    "index_urls",
    "lock",
    "select",
]


# --- doctor --------------------------------------------------------------------------------------
def doctor(
    spec_path: Path | None,
    matrix_dir: Path | None,
    *,
    settings: Settings,
    error_text: str | None = None,
    log_file: Path | None = None,
) -> dict[str, Any]:
    """`envgen doctor`: the host, the newest CUDA its driver runs, which variants work here, and
    (with an error text, or a log file's end) what a classic failure means.

    The data's `asked` says whether a text was given, `log_truncated` whether only the log's end
    was read.
    """
    from envgen.doctor import explain, verdicts  # noqa: PLC0415 - ~30 ms; only for doctor
    from envgen.doctor.host import detect_host  # noqa: PLC0415 - the same

    cut = False
    if log_file is not None:
        text, cut = explain.read_log(log_file)
        error_text = (error_text or "") + "\n" + text
    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    host = detect_host()
    os_name = "windows" if host.system == "Windows" else "linux"
    facts = verdicts.gpu_facts(matrix, os_name, host.platform)  # type: ignore[arg-type]
    driver = host.nvidia_driver
    newest = verdicts.newest_cuda_for_driver(driver, facts.drivers) if driver else None
    compat = (
        verdicts.newest_cuda_for_driver(driver, facts.drivers, facts.families) if driver else None
    )
    data: dict[str, Any] = {
        "host": {
            "platform": host.platform,
            "system": host.system,
            "machine": host.machine,
            "python": host.python,
            "glibc": host.glibc,
            "nvidia_driver": host.nvidia_driver,
            "newest_cuda": newest,
            "newest_cuda_minor_compat": compat,
            "gpus": [
                {"name": g.name, "compute_capability": g.compute_capability} for g in host.gpus
            ],
            "rocm": host.rocm,
            "rocm_gfx": list(host.rocm_gfx),
        },
        "variants": [],
        "diagnoses": [],
    }
    if spec_path is not None:
        expansion = expand_spec(spec_path, matrix_dir, settings)
        targets = [
            verdicts.VariantTarget(v.id, v.kind, v.compute_version, v.release.torch)
            for v in expansion.variants
        ]
        for a in verdicts.assess_variants(host, targets, facts):
            data["variants"].append(
                {"id": a.variant_id, "ok": a.ok, "verdict": a.verdict, "reason": a.reason}
            )
    if error_text is not None:
        for d in explain.explain_error(error_text, host=host):
            data["diagnoses"].append({"title": d.title, "cause": d.cause, "fix": d.fix})
    data["asked"] = error_text is not None
    data["log_truncated"] = cut
    return data


_VERDICT_WORDS: Final = {"ok": "ok    ", "minor-compat": "compat", "no": "no    "}


def _newest_cuda(host: dict[str, Any]) -> str:
    newest, compat = host["newest_cuda"], host.get("newest_cuda_minor_compat")
    if compat and compat != newest:
        return f"{newest or '-'} ({compat} through minor-version compatibility)"
    return newest or "-"


def _rocm(host: dict[str, Any]) -> str:
    gfx = host.get("rocm_gfx") or []
    return f"{host['rocm'] or '-'}" + (f" ({' '.join(gfx)})" if gfx else "")


def format_doctor(data: dict[str, Any]) -> str:
    h = data["host"]
    gpus = (
        ", ".join(f"{g['name']} (sm {g['compute_capability']})" for g in h["gpus"])
        or "none visible"
    )
    driver = h["nvidia_driver"] or "none found (nvidia-smi, /proc/driver/nvidia/version)"
    lines = [
        f"platform      {h['platform'] or 'unsupported'} ({h['system']} {h['machine']})",
        f"python        {h['python']}",
        f"glibc         {h['glibc'] or '-'}",
        f"nvidia driver {driver}",
        f"newest CUDA   {_newest_cuda(h)}",
        f"GPUs          {gpus}",
        f"ROCm          {_rocm(h)}",
    ]
    if data["variants"]:
        lines.append("variants:")
        lines += [
            f"  {_VERDICT_WORDS[v['verdict']]} {v['id']}: {v['reason']}" for v in data["variants"]
        ]
    for d in data["diagnoses"]:
        lines += [f"* {d['title']}", f"  cause: {d['cause']}", f"  fix:   {d['fix']}"]
    if data.get("log_truncated"):
        from envgen.doctor.explain import LOG_LIMIT  # noqa: PLC0415 - ~30 ms; only for a truncated log

        lines.append(f"(the log is longer than {LOG_LIMIT // 2**20} MiB: only its end was read)")
    if data.get("asked") and not data["diagnoses"]:
        lines.append("no known failure pattern found in the text")
    return "\n".join(lines)


# --- build and smoke -----------------------------------------------------------------------------
def build(options: BuildOptions) -> BuildReport:
    """`envgen build`: environments from locks, verified, then smoke-tested (build.orchestrate).

    `options.vault` (`--vault`, a folder or URL): install only from that vault, after checking it
    holds every file.
    """
    from envgen.build import orchestrate as building  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    settings = options.settings
    spec, matrix = load(options.spec, options.matrix_dir, settings)
    target = options.out or default_out(spec)
    vault = options.vault
    if vault is not None:
        from envgen.vault import orchestrate as vaulting  # noqa: PLC0415 - only with --vault

        vault = vault_url(vault)
        chosen = tuple(v.id for v in select(expand(spec, matrix).variants, options.variants))
        vaulting.check_vault(spec, matrix, target, vault, variants=chosen, settings=settings)
    inside = trusted_root(spec, options.out)
    with (
        _guarded(target, BuildError, "envgen build", inside=inside),
        _guarded_env_dir(options.env_dir, BuildError, "envgen build"),
    ):
        return building.build_variants(
            spec,
            matrix,
            target,
            variants=options.variants,
            settings=settings,
            manager=options.manager,  # type: ignore[arg-type]
            env_dir=options.env_dir,
            smoke=options.smoke,
            jobs=options.jobs,
            rebuild=options.rebuild,
            conda_tool=options.conda_tool,
            inside=inside,
            vault=vault,
        )


def vault_url(location: str) -> str:
    """A vault folder as a `file:` URL; a URL as it is.

    >>> vault_url("https://vault.example/team"), vault_url("/srv/vault")
    ('https://vault.example/team', 'file:///srv/vault')
    """
    if "://" in location:
        return location.rstrip("/")
    return Path(location).resolve().as_uri()


def pack(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    variant: str,
    out: Path | None,
    env_dir: Path | None,
    output: Path | None,
    settings: Settings,
) -> Path:
    """`envgen pack`: a built, smoke-passing environment as one relocatable archive."""
    from envgen.vault.pack import pack_variant  # noqa: PLC0415 - only for `envgen pack`

    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    archive = output or Path(f"{spec.name}-{variant}.tar.gz")
    with _guarded(target, BuildError, "envgen pack", inside=trusted_root(spec, out)):
        return pack_variant(
            spec,
            matrix,
            target,
            variant=variant,
            env_dir=env_dir,
            output=archive,
            settings=settings,
        )


def vault(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    out: Path | None,
    variants: tuple[str, ...],
    root: Path,
    all_files: bool,
    settings: Settings,
) -> tuple[Any, ...]:
    """`envgen vault`: store every artifact of the selected variants' locks in `root`."""
    from envgen.vault import orchestrate as vaulting  # noqa: PLC0415 - only for `envgen vault`

    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    with _guarded(root, BuildError, "envgen vault", inside=root.parent.resolve()):
        return vaulting.vault_variants(
            spec, matrix, target, root, variants=variants, settings=settings, all_files=all_files
        )


def vault_check(root: Path) -> None:
    """`envgen vault check`: re-hash every stored file.

    Raises:
        BuildError: naming each missing, changed or unreferenced file.
    """
    from envgen.vault.store import check  # noqa: PLC0415 - only for `envgen vault check`

    problems = check(root)
    if problems:
        msg = f"{root}: {len(problems)} problem(s):\n" + "\n".join(f"  - {p}" for p in problems)
        raise BuildError(msg, hint="`envgen vault` again restores missing or changed files")


def vault_gc(root: Path) -> tuple[Artifact, ...]:
    """`envgen vault gc`: drop the files no vaulted lock references (holding the vault's lock,
    as `envgen vault` does while it adds)."""
    from envgen.vault.store import gc  # noqa: PLC0415 - only for `envgen vault gc`

    with _guarded(root, BuildError, "envgen vault gc", inside=root.parent.resolve()):
        return gc(root)


def vault_push(root: Path, url: str, *, endpoint_url: str | None) -> SyncResult:
    """`envgen vault push`: upload what the bucket lacks (files first, the manifest last)."""
    from envgen.vault.s3 import push  # noqa: PLC0415 - boto3: only for push / pull

    return push(root, url, endpoint_url=endpoint_url)


def vault_pull(root: Path, url: str, *, endpoint_url: str | None) -> SyncResult:
    """`envgen vault pull`: download what the local vault lacks, each file checked (holding the
    vault's lock)."""
    from envgen.vault.s3 import pull  # noqa: PLC0415 - boto3: only for push / pull

    with _guarded(root, BuildError, "envgen vault pull", inside=root.parent.resolve()):
        return pull(root, url, endpoint_url=endpoint_url)


def smoke(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    out: Path | None,
    variants: tuple[str, ...],
    env_dir: Path | None,
    settings: Settings,
) -> tuple[VariantSmoke, ...]:
    """`envgen smoke`: run the checks in built environments."""
    from envgen.build import orchestrate as building  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    # A concurrent build must not swap an env under the checks.
    with (
        project_lock(target, inside=trusted_root(spec, out)),
        project_lock(env_dir) if env_dir is not None else contextlib.nullcontext(),
    ):
        return building.smoke_variants(
            spec, matrix, target, variants=variants, env_dir=env_dir, settings=settings
        )


def dockerfiles(options: DockerfileOptions) -> tuple[list[PurePosixPath], list[str]]:
    """`envgen dockerfile`: check each chosen variant's committed lock as a build would, then write.

    A Dockerfile installs the committed requirements.txt, so a forged one would reach `docker
    build`: a pins-only file must be what envgen writes (the pins-only check), a full lock must
    pass the build's offline checks (the one parser, its content and input hashes, the spec's
    indexes only). Re-resolving it (`envgen check`) is the generated CI's first step.
    """
    from envgen.build import orchestrate as building  # noqa: PLC0415 - ~125 ms; only for dockerfile
    from envgen.lock.piplock import PipLock  # noqa: PLC0415 - only for dockerfile
    from envgen.render import dockerfile as containers  # noqa: PLC0415 - rich; only for dockerfile

    spec, matrix = load(options.spec, options.matrix_dir, options.settings)
    out = default_out(spec)
    chosen = select(expand(spec, matrix).variants, options.variants)
    full: list[Variant] = []
    for v in chosen:
        path = out / v.id / "requirements.txt"
        if v.pip is not None and path.is_file() and PipLock.read(path).is_full:
            full.append(v)
    pins_only = tuple(v.id for v in chosen if v not in full)
    if pins_only:
        lock(
            LockOptions(
                spec=options.spec,
                variants=pins_only,
                matrix_dir=options.matrix_dir,
                pins_only=True,
                check=True,
                settings=options.settings,
            )
        )
    for v in full:
        lock_dir = out / v.id
        building.check_current(
            spec, v, lock_dir, ("requirements.txt",), settings=options.settings, resolve=False
        )
        building.check_indexes(spec, v, lock_dir, settings=options.settings)
    return containers.write_dockerfiles(options)


def write_ci(options: CiOptions) -> tuple[Path, bool]:
    """`envgen ci github|gitlab`: the workflow written unless identical -> (path, written)."""
    from envgen.render import ci  # noqa: PLC0415 - only for ci

    return ci.write_ci(options)


def export(options: ExportOptions) -> tuple[str, bool]:
    """`envgen export uv|pixi` -> (the text, whether `options.output` was written).

    With no output file (None, or `-`: stdout) nothing is written and the CLI prints the text.
    """
    from envgen.infra.files import write_if_changed  # noqa: PLC0415 - with the writer
    from envgen.render.export import render_export  # noqa: PLC0415 - only for export

    text = render_export(options)
    if options.output is None or str(options.output) == "-":
        return text, False
    return text, write_if_changed(options.output, text)


def clean(
    spec_path: Path,
    matrix_dir: Path | None,
    *,
    out: Path | None,
    env_dir: Path | None,
    dry_run: bool,
    settings: Settings,
) -> list[Orphan]:
    """`envgen clean`: environments no variant of the spec owns, removed (or only listed)."""
    from envgen.build import clean as cleaning  # noqa: PLC0415 - ~125 ms (the build stage); keeps `envgen list` fast
    from envgen.infra.buildkey import load_key  # noqa: PLC0415 - hmac; only where markers are read

    spec, matrix = load(spec_path, matrix_dir, settings)
    owned = [v.id for v in expand(spec, matrix).variants]
    target = out or default_out(spec)
    root = trusted_root(spec, out)
    with (
        project_lock(target, inside=root),
        project_lock(env_dir) if env_dir is not None else contextlib.nullcontext(),
    ):
        return cleaning.find_orphans(
            target,
            owned,
            env_dir=env_dir,
            inside=env_dir if env_dir is not None else root,
            remove=not dry_run,
            key=load_key(settings.key_file),
        )


def format_build_line(b: VariantBuild) -> str:
    """One summary line per variant build."""
    disk = ""
    if b.disk is not None:
        disk = f", {b.disk.describe()}"
    smoke_text = ""
    if b.smoke is not None:
        smoke_text = (
            f", smoke {len(b.smoke.passed)} passed / {len(b.smoke.failed)} failed"
            f" / {len(b.smoke.skipped)} skipped"
        )
    err = f": {b.error.splitlines()[0]}" if b.error else ""
    interpreter = f", {b.interpreter}" if b.interpreter else ""
    if b.status == "not-ready":
        return f"{b.variant}: not ready ({b.manager}){err}"
    return (
        f"{b.variant}: {b.status} ({b.manager}) in {b.seconds:.1f} s"
        f"{interpreter}{disk}{smoke_text} -> {b.env}{err}"
    )


def build_summary(report: BuildReport) -> str:
    """One line after the per-variant lines: what was built, what was not, and why."""
    counts: dict[str, list[str]] = {}
    for b in report.builds:
        key: str = b.status
        if b.status in ("built", "up-to-date") and b.smoke is not None and not b.smoke.ok:
            key = "smoke failed"
        counts.setdefault(key, []).append(b.variant)
    order = ("built", "up-to-date", "smoke failed", "not-ready", "failed")
    parts = [
        f"{len(counts[k])} {k.replace('-', ' ')}"
        + (f" ({', '.join(counts[k])})" if k in ("smoke failed", "not-ready", "failed") else "")
        for k in order
        if k in counts
    ]
    return f"build: {len(report.builds)} variant(s): " + ", ".join(parts)


# --- run, shell, --variant auto -----------------------------------------------------------------
def resolve_auto(
    spec_path: Path, matrix_dir: Path | None, variants: tuple[str, ...], settings: Settings
) -> tuple[tuple[str, ...], str | None]:
    """`--variant auto` -> (the id doctor's verdicts favour, why); other patterns pass through."""
    if "auto" not in variants:  # build.running.AUTO: its module (doctor, ~20 ms) only for auto
        return variants, None
    from envgen.build.running import AUTO, choose_auto  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    if variants != (AUTO,):
        msg = "--variant auto picks one variant; give it alone, not with other patterns"
        raise SpecError(msg)
    spec, matrix = load(spec_path, matrix_dir, settings)
    choice = choose_auto(expand(spec, matrix).variants, matrix)
    return (choice.variant,), choice.reason


def prepare_env(
    spec_path: Path,
    matrix_dir: Path | None,
    variant: str,
    *,
    out: Path | None,
    env_dir: Path | None,
    settings: Settings,
) -> tuple[Path, bool, str | None]:
    """(env, is conda, auto reason): the variant's environment, built from its lock if needed."""
    from envgen.build.running import ensure_built  # noqa: PLC0415 - ~125 ms (rich, the lockers); keeps `envgen list` fast

    (chosen,), why = resolve_auto(spec_path, matrix_dir, (variant,), settings)
    spec, matrix = load(spec_path, matrix_dir, settings)
    target = out or default_out(spec)
    inside = trusted_root(spec, out)
    with (
        _guarded(target, BuildError, "envgen run", inside=inside),
        _guarded_env_dir(env_dir, BuildError, "envgen run"),
    ):
        env, conda = ensure_built(
            spec, matrix, target, chosen, env_dir=env_dir, settings=settings, inside=inside
        )
    return env, conda, why
