"""Full locks for every variant: skip what is up to date, lock the rest concurrently, write safely.

For each selected variant: compute the input hash; when every existing lock file of the variant
carries it (and no upgrade was asked for), do no resolver work. Otherwise run the pip and conda
lockers in a private work directory, prepend the header, and replace the variant's files only
when all of them succeeded. A failing variant leaves its previous files untouched and is reported
after the others finish. This module must not resolve anything itself.
"""

from __future__ import annotations

import concurrent.futures as cf
import datetime as dt
import hashlib
import logging
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Final, Self

from envgen._io import input_hash, normalize_text, write_if_changed
from envgen._resources import cache_root
from envgen._types import Manager, Resolver
from envgen.errors import EnvgenError, LockError, StaleOutputError, ToolNotFoundError
from envgen.generate import PlannedFile, describe, plan_pins_only, spec_command, variant_inputs
from envgen.lockers import LockedFile, Locker, LockRequest
from envgen.matrix import Matrix
from envgen.renderers import Header, IndexUrls, parse_header
from envgen.spec import ProjectSpec
from envgen.stale import describe_stale, find_stale, prune
from envgen.variants import Variant, inferred_note, select, warning_lines

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from envgen.network import Index
    from envgen.workflow import LockOptions, LockResult

log = logging.getLogger(__name__)

CONTENT_HASH_PREFIX: Final = "content-hash: "
LOCK_FILES_PIP: Final = ("requirements.txt",)


def conda_lock_names(variant: Variant) -> tuple[str, ...]:
    return ("conda-lock.yml", f"conda-{variant.platform}.lock")


def expected_lock_names(variant: Variant) -> tuple[str, ...]:
    names: list[str] = []
    if variant.pip is not None:
        names += LOCK_FILES_PIP
    if variant.conda is not None:
        names += conda_lock_names(variant)
    return tuple(names)


def body_hash(body: str) -> str:
    return "sha256:" + hashlib.sha256(normalize_text(body).encode()).hexdigest()


def with_header(header: Header, body: str) -> str:
    """Prepend the header (plus a content hash of the body, for tamper detection)."""
    lines = [*header.lines(), f"{CONTENT_HASH_PREFIX}{body_hash(body)}"]
    return "".join(f"# {line}\n" for line in lines) + normalize_text(body)


def split_header(text: str) -> tuple[dict[str, str], str]:
    """Split a generated lock file into its header fields and its body."""
    lines = text.splitlines(keepends=True)
    head: list[str] = []
    for line in lines:
        if line.startswith("# "):
            head.append(line)
            if line.startswith(f"# {CONTENT_HASH_PREFIX}"):
                break
        else:
            break
    fields = parse_header("".join(head))
    for line in head:
        if line.startswith(f"# {CONTENT_HASH_PREFIX}"):
            fields["content-hash"] = line[len(f"# {CONTENT_HASH_PREFIX}") :].strip()
    return fields, "".join(lines[len(head) :])


def has_full_lock(out: Path, variant: Variant) -> bool:
    """Whether the variant's folder holds a full lock (or its inputs): `envgen lock` wrote it.

    `requirements.in` is written only by a full lock, and a lock file carries a content-hash;
    pins-only files have neither.
    """
    folder = out / variant.id
    if (folder / "requirements.in").is_file():
        return True
    for name in expected_lock_names(variant):
        if name == "requirements.txt":
            try:
                text = (folder / name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if "content-hash" in split_header(text)[0]:
                return True
        elif (folder / name).is_file():
            return True
    return False


def full_lock_ids(out: Path, variants: tuple[Variant, ...]) -> frozenset[str]:
    """The variants whose folders hold a full lock (see has_full_lock)."""
    return frozenset(v.id for v in variants if has_full_lock(out, v))


def full_lock_pin_problems(out: Path, variant: Variant) -> tuple[list[str], bool]:
    """(problems, locked): a full lock's pins against the matrix, without any resolver.

    What `lock --pins-only --check` can say about a full lock: each lock file is as envgen wrote
    it (its content-hash) and its torch-family pins are the matrix's. `locked` is False when the
    full lock's inputs are there but the lock files are not yet.
    """
    problems: list[str] = []
    locked = False
    for name in expected_lock_names(variant):
        rel = f"{variant.id}/{name}"
        try:
            text = (out / variant.id / name).read_text(encoding="utf-8")
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(f"{rel}: unreadable: {exc}")
            continue
        locked = True
        problems += [f"{rel}: {p}" for p in tampered_lines(text)]
        if name == "requirements.txt":
            problems += [f"{rel}: {p}" for p in _pin_mismatches(text, variant)]
    return problems, locked


@dataclass(frozen=True, slots=True, kw_only=True)
class VariantOutcome:
    variant: Variant
    status: str  # "locked" | "up-to-date" | "failed"
    seconds: float
    files: tuple[PlannedFile, ...] = ()
    error: str | None = None


def overrides_text(resolver: str | None, as_of: str | None) -> str | None:
    """The `lock-options:` header value for command-line overrides (None when there are none).

    >>> overrides_text(None, "2021-06-30"), overrides_text(None, None)
    ('--as-of 2021-06-30', None)
    """
    parts = ([f"--as-of {as_of}"] if as_of else []) + (
        [f"--resolver {resolver}"] if resolver else []
    )
    return " ".join(parts) or None


def parse_overrides(text: str | None) -> tuple[str | None, str | None]:
    """(resolver, as_of) back from a `lock-options:` header value.

    >>> parse_overrides("--as-of 2021-06-30 --resolver pip-tools")
    ('pip-tools', '2021-06-30')
    """
    words = (text or "").split()
    found = dict(zip(words[::2], words[1::2], strict=False))
    return found.get("--resolver"), found.get("--as-of")


def effective_options(
    spec: ProjectSpec, resolver: str | None, as_of: str | None
) -> tuple[Resolver, str | None]:
    """(resolver, exclude-newer date): command-line overrides over the spec's `lock:` key."""
    cutoff = as_of or (spec.lock.exclude_newer.isoformat() if spec.lock.exclude_newer else None)
    return (resolver or spec.lock.resolver), cutoff  # type: ignore[return-value]


def lock_inputs(
    spec: ProjectSpec,
    variant: Variant,
    options: LockOptions,
    written: IndexUrls,
    *,
    recorded: str | None = None,
) -> str:
    """The input hash of a variant's lock files.

    Command-line overrides (--as-of, --resolver) count; when none are given now, the ones the
    file was made with (`recorded`, its `lock-options:` header) stand in, so a lock made with
    --as-of is not stale merely because --check was run without it.
    """
    resolver, as_of = options.resolver, options.as_of
    if resolver is None and as_of is None:
        resolver, as_of = parse_overrides(recorded)
    data = variant_inputs(variant, written, kind="lock")
    data["resolver"], data["exclude_newer"] = effective_options(spec, resolver, as_of)
    return input_hash(data)


def _recorded_options(path: Path) -> str | None:
    try:
        return split_header(path.read_text(encoding="utf-8"))[0].get("lock-options")
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def tampered_lines(text: str) -> list[str]:
    """Problems with a lock file edited by hand (content hash mismatch, naming changed lines)."""
    fields, body = split_header(text)
    recorded = fields.get("content-hash")
    if recorded is None:
        return ["no content-hash in the header: the file was not written by envgen or was edited"]
    if recorded != body_hash(body):
        return ["the body does not match its content-hash: the file was edited by hand"]
    return []


def conda_channel_map() -> dict[str, str]:
    """Channel name -> URL: ENVGEN_CONDA_CHANNEL_ALIAS stands in for https://conda.anaconda.org."""
    alias = os.environ.get("ENVGEN_CONDA_CHANNEL_ALIAS")
    if not alias:
        return {}
    root = alias.rstrip("/")
    return {name: f"{root}/{name}" for name in ("pytorch", "nvidia", "conda-forge", "defaults")}


def _lockers(resolver: str, conda_tool: str) -> dict[Manager, Locker]:
    from envgen.lockers.conda import CondaLocker  # noqa: PLC0415
    from envgen.lockers.pip import PipLocker  # noqa: PLC0415

    return {"pip": PipLocker(resolver=resolver), "conda": CondaLocker(tool=conda_tool)}


def _require_resolver(resolver: str, variants: list[Variant]) -> None:
    """ToolNotFoundError before any work when pip-tools is asked for and not installed."""
    from envgen import DISTRIBUTION  # noqa: PLC0415
    from envgen._proc import which  # noqa: PLC0415

    if resolver != "pip-tools" or not any(v.pip is not None for v in variants):
        return
    if which("pip-compile") is None:
        msg = (
            "pip-compile is not installed or not on PATH; it is needed to lock with "
            "--resolver pip-tools (or `lock: {resolver: pip-tools}` in the spec)"
        )
        raise ToolNotFoundError(
            msg,
            hint=(
                f"`pip install pip-tools` (or `pip install '{DISTRIBUTION}[pip-tools]'`), "
                "or use the default resolver, uv"
            ),
        )


def indexes_needed(variants: list[Variant], urls: IndexUrls) -> list[Index]:
    """The indexes and channels the lockers will ask for these variants (real URLs)."""
    from envgen.lockers.conda import resolve_channels  # noqa: PLC0415
    from envgen.lockers.pip import index_plan  # noqa: PLC0415
    from envgen.network import Index  # noqa: PLC0415
    from envgen.renderers.environment import channels as environment_channels  # noqa: PLC0415

    found: dict[str, Index] = {}
    aliases = conda_channel_map()
    for v in variants:
        if v.pip is not None:
            plan = index_plan(v, urls)
            if plan.pytorch is not None:
                found.setdefault(plan.pytorch, Index(role="pytorch", url=plan.pytorch))
            found.setdefault(plan.pypi, Index(role="pypi", url=plan.pypi))
        if v.conda is not None:
            for channel in resolve_channels(environment_channels(v), aliases):
                found.setdefault(channel.solve_url, Index(role="conda", url=channel.solve_url))
    return list(found.values())


def lock_full(spec: ProjectSpec, matrix: Matrix, options: LockOptions, *, out: Path) -> LockResult:
    """`envgen lock` without --pins-only."""
    from envgen.workflow import LockResult, index_urls  # noqa: PLC0415

    written_urls = index_urls(spec, for_writing=True)
    real_urls = index_urls(spec, for_writing=False)
    expansion, inputs = plan_pins_only(spec, matrix, out=out, urls=written_urls, pins_only=False)
    variants = select(expansion.variants, options.variants)
    all_ids = [v.id for v in expansion.variants]
    note = inferred_note(variants)
    warnings = [*expansion.notes, *([note] if note else []), *warning_lines(variants)]
    # Inputs (requirements.in, environment.yml, Makefile) are rendered for every variant, selected
    # or not: they cost nothing and keep the directory consistent with the spec.

    hashes = {v.id: lock_inputs(spec, v, options, written_urls) for v in variants}
    resolver, cutoff = effective_options(spec, options.resolver, options.as_of)
    overrides = overrides_text(options.resolver, options.as_of)

    def expected(v: Variant, name: str) -> str:
        """The hash a committed file should carry (honouring the overrides it was made with)."""
        return lock_inputs(
            spec, v, options, written_urls, recorded=_recorded_options(out / v.id / name)
        )

    force = options.upgrade or bool(options.upgrade_packages)

    def lock_problems(v: Variant) -> list[str]:
        """Why the variant's committed locks are not current (empty when they are)."""
        problems: list[str] = []
        for name in expected_lock_names(v):
            rel = f"{v.id}/{name}"
            try:
                text = (out / v.id / name).read_text(encoding="utf-8")
            except (FileNotFoundError, UnicodeDecodeError):
                problems.append(f"{rel}: missing or unreadable; run `envgen lock`")
                continue
            if split_header(text)[0].get("input-hash") != expected(v, name):
                problems.append(
                    f"{rel}: stale: its inputs changed (input-hash differs); run `envgen lock`"
                )
            problems += [f"{rel}: {p}" for p in tampered_lines(text)]
            if name == "requirements.txt":
                problems += [f"{rel}: {p}" for p in _pin_mismatches(text, v)]
        return problems

    if options.check:
        from envgen.generate import stale_files  # noqa: PLC0415

        problems = [f"{p}: stale\n{d}" for p, d in stale_files(out, inputs)]
        problems += [p for v in variants for p in lock_problems(v)]
        problems += [describe_stale(s) for s in find_stale(out, all_ids)]
        if problems:
            raise StaleOutputError(
                f"{len(problems)} problem(s) in {out}:\n" + "\n".join(f"  - {p}" for p in problems),
                hint="run `envgen lock` and commit the result",
            )
        return LockResult(
            lines=(f"locks in {out} are up to date ({len(variants)} variant(s))",),
            warnings=tuple(warnings),
        )

    todo = [v for v in variants if force or lock_problems(v)]
    lines = [f"{v.id}: up to date (no resolver work)" for v in variants if v not in todo]
    outcomes: list[VariantOutcome] = []
    if todo:
        # One DNS lookup per index host, before any resolver: a host that does not resolve stops
        # the run now, with the mirror hint, instead of after each variant's retries.
        from envgen.network import check_resolvable  # noqa: PLC0415

        _require_resolver(resolver, todo)
        check_resolvable(indexes_needed(todo, real_urls))
        lockers = _lockers(resolver, options.conda_tool)
        jobs = options.jobs or max(1, min(len(todo), os.cpu_count() or 1))
        exclude_date = dt.date.fromisoformat(cutoff) if cutoff else None
        cache_dir = cache_root()
        with (
            tempfile.TemporaryDirectory(prefix="envgen-lock-") as tmp,
            _Progress(len(todo)) as progress,
        ):

            def work(v: Variant) -> VariantOutcome:
                start = time.perf_counter()
                workdir = Path(tmp) / v.id
                workdir.mkdir(parents=True)
                previous = {}
                for name in expected_lock_names(v):
                    path = out / v.id / name
                    if path.exists() and not options.upgrade:
                        previous[name] = split_header(path.read_text(encoding="utf-8"))[1]
                request = LockRequest(
                    variant=v,
                    urls=real_urls,
                    written_urls=written_urls,
                    conda_channels=conda_channel_map(),
                    exclude_newer=exclude_date,
                    resolver=resolver,
                    upgrade=options.upgrade,
                    upgrade_packages=options.upgrade_packages,
                    previous=previous,
                    workdir=workdir,
                    cache_dir=cache_dir,
                )
                header = Header(
                    command=spec_command(spec, pins_only=False, extra=overrides),
                    input_hash=hashes[v.id],
                    lock_options=overrides,
                    description=describe(v),
                )
                try:
                    locked: list[LockedFile] = []
                    for manager in v.managers:
                        locked += lockers[manager].lock(request)
                except EnvgenError as exc:
                    progress(v.id, "failed")
                    return VariantOutcome(
                        variant=v,
                        status="failed",
                        seconds=time.perf_counter() - start,
                        error=str(exc),
                    )
                files = tuple(
                    PlannedFile(relpath=_rel(v.id, lf.name), text=with_header(header, lf.body))
                    for lf in locked
                )
                progress(v.id, "locked")
                return VariantOutcome(
                    variant=v, status="locked", seconds=time.perf_counter() - start, files=files
                )

            with cf.ThreadPoolExecutor(max_workers=jobs) as pool:
                outcomes = list(pool.map(work, todo))

    # A failed variant keeps its previous files, inputs included.
    failed = {o.variant.id for o in outcomes if o.status == "failed"}
    written: list[str] = []
    for f in inputs:
        if len(f.relpath.parts) > 1 and f.relpath.parts[0] in failed:
            continue
        if write_if_changed(out.joinpath(*f.relpath.parts), f.text):
            written.append(str(f.relpath))
    for o in outcomes:
        if o.status != "locked":
            continue
        written.extend(
            str(f.relpath)
            for f in o.files
            if write_if_changed(out.joinpath(*f.relpath.parts), f.text)
        )
        lines.append(f"{o.variant.id}: locked in {o.seconds:.1f} s")
    lines += prune(out, find_stale(out, all_ids))
    if failed:
        errors = [o for o in outcomes if o.status == "failed"]
        text = "\n".join(f"[{o.variant.id}] {o.error}" for o in errors)
        ok = [v.id for v in variants if v.id not in failed]
        msg = (
            f"{len(errors)} of {len(variants)} variant(s) failed to lock; "
            "their previous files are untouched"
            + (f" (locked: {', '.join(ok)})" if ok else "")
            + "\n"
            + text
        )
        raise LockError(msg)
    return LockResult(lines=tuple(lines), warnings=tuple(warnings), written=tuple(written))


_SHA256_RE: Final = re.compile(r"--hash=sha256:(\S*)")


def _pin_mismatches(text: str, variant: Variant) -> list[str]:
    """Lines of a lock that cannot be what envgen wrote, each named by its line number.

    Torch-family pins that differ from the matrix, pins that break a requirement of the spec's
    pip: list, and sha256 hashes that are not 64 hex digits. (A well-formed hash swapped for
    another is caught by the content-hash, which covers the whole body, not by line.)
    """
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415
    from packaging.utils import canonicalize_name  # noqa: PLC0415
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415

    from envgen.variants import pip_pins  # noqa: PLC0415

    want = pip_pins(variant)
    asked: dict[str, Requirement] = {}
    for item in variant.pip_extra:
        try:
            req = Requirement(item)
        except InvalidRequirement:
            continue
        asked[canonicalize_name(req.name)] = req
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        problems.extend(
            f"line {number}: {digest!r} is not a sha256 (64 hex digits)"
            for digest in _SHA256_RE.findall(line)
            if not re.fullmatch(r"[0-9a-f]{64}", digest.rstrip("\\"))
        )
        if line[:1].isspace() or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        if not sep:
            continue
        name = name.strip().lower()
        version = version.split()[0].rstrip("\\").strip() if version.split() else ""
        if name in want and want[name] != version:
            problems.append(
                f"line {number}: {name}=={version} but the matrix pins {name}=={want[name]}"
            )
        wanted = asked.get(canonicalize_name(name.split("[")[0]))
        if wanted is not None and wanted.specifier:
            try:
                ok = wanted.specifier.contains(Version(version.split(";")[0]), prereleases=True)
            except InvalidVersion:
                ok = False
            if not ok:
                problems.append(
                    f"line {number}: {name}=={version} does not satisfy {wanted} from the spec"
                )
    return problems


def _rel(variant_id: str, name: str) -> PurePosixPath:
    return PurePosixPath(variant_id, name)


class _Progress:
    """Progress of a lock run: a rich live display on a terminal, plain timed lines otherwise.

    Called from worker threads once per finished variant (rich's Progress is thread-safe).
    """

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.start = time.perf_counter()
        self._rich: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> Self:
        if sys.stderr.isatty() and not os.environ.get("CI"):
            from rich.progress import Progress  # noqa: PLC0415 - 75 ms; terminals only

            self._rich = Progress(transient=True)
            self._rich.start()
            self._task = self._rich.add_task("locking", total=self.total)
        return self

    def __call__(self, variant_id: str, status: str) -> None:
        self.done += 1
        elapsed = time.perf_counter() - self.start
        if self._rich is not None and self._task is not None:
            self._rich.update(self._task, advance=1, description=f"{variant_id}: {status}")
        else:
            log.info("[%d/%d] %s: %s (%.1f s)", self.done, self.total, variant_id, status, elapsed)

    def __exit__(self, *exc: object) -> None:
        if self._rich is not None:
            self._rich.stop()
