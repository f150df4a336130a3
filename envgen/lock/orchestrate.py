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

from envgen.errors import EnvgenError, LockError, StaleOutputError, ToolNotFoundError
from envgen.infra.files import input_hash, normalize_text, read_output, write_if_changed
from envgen.infra.resources import cache_root
from envgen.lock.base import LockedFile, Locker, LockRequest
from envgen.lock.options import LockOptions, LockResult
from envgen.lock.stale import describe_stale, find_stale, prune
from envgen.model.matrix import Matrix
from envgen.model.spec import ProjectSpec
from envgen.model.types import Manager, Resolver
from envgen.model.variants import Variant, inferred_note, select, warning_lines
from envgen.render.base import Header, IndexUrls, index_urls, parse_header
from envgen.render.plan import PlannedFile, describe, plan_pins_only, spec_command, variant_inputs

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

    from envgen.infra.network import Index

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
            # Bounded, regular files only, no link followed (a committed lock is untrusted).
            raw = read_output(folder / name)
            try:
                text = raw.decode("utf-8") if raw is not None else ""
            except UnicodeDecodeError:
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
        raw = read_output(out / variant.id / name)  # bounded; no link or device followed
        if raw is None:
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
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
        raw = read_output(path)
        return None if raw is None else split_header(raw.decode("utf-8"))[0].get("lock-options")
    except UnicodeDecodeError:
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


def channel_alias() -> str | None:
    """ENVGEN_CONDA_CHANNEL_ALIAS, checked like an index URL (messages never show credentials).

    Raises:
        SpecError: not an http(s):// or file:// URL, plain http to a remote host, or spaces /
            shell metacharacters in it.
    """
    from envgen.errors import SpecError  # noqa: PLC0415
    from envgen.infra.proc import redact  # noqa: PLC0415
    from envgen.model.spec import check_index_url  # noqa: PLC0415

    alias = os.environ.get("ENVGEN_CONDA_CHANNEL_ALIAS") or None
    if alias is not None:
        problem = check_index_url(alias)
        if problem:
            msg = f"ENVGEN_CONDA_CHANNEL_ALIAS: {redact(problem)}"
            raise SpecError(msg)
    return alias


def conda_channel_map() -> dict[str, str]:
    """Channel name -> URL: ENVGEN_CONDA_CHANNEL_ALIAS stands in for https://conda.anaconda.org."""
    alias = channel_alias()
    if not alias:
        return {}
    root = alias.rstrip("/")
    return {name: f"{root}/{name}" for name in ("pytorch", "nvidia", "conda-forge", "defaults")}


def _lockers(resolver: str, conda_tool: str) -> dict[Manager, Locker]:
    from envgen.lock.conda import CondaLocker  # noqa: PLC0415
    from envgen.lock.pip import PipLocker  # noqa: PLC0415

    return {"pip": PipLocker(resolver=resolver), "conda": CondaLocker(tool=conda_tool)}


def _require_resolver(resolver: str, variants: list[Variant]) -> None:
    """ToolNotFoundError before any work when pip-tools is asked for and not installed."""
    from envgen import DISTRIBUTION  # noqa: PLC0415
    from envgen.infra.proc import which  # noqa: PLC0415

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
    from envgen.infra.network import Index  # noqa: PLC0415
    from envgen.lock.conda import resolve_channels  # noqa: PLC0415
    from envgen.lock.pip import index_plan  # noqa: PLC0415
    from envgen.render.environment import channels as environment_channels  # noqa: PLC0415

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


def lock_full(
    spec: ProjectSpec,
    matrix: Matrix,
    options: LockOptions,
    *,
    out: Path,
    inside: Path | None = None,
) -> LockResult:
    """`envgen lock` without --pins-only.

    `inside`: the trusted folder `out` lies in (default `out`): committed files below it are read
    and written without following links (envgen.infra.files).
    """
    root = inside if inside is not None else out
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
                raw = read_output(out / v.id / name, inside=root)
                if raw is None:
                    raise FileNotFoundError(out / v.id / name)
                text = raw.decode("utf-8")
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
        from envgen.render.plan import stale_files  # noqa: PLC0415

        problems = [f"{p}: stale\n{d}" for p, d in stale_files(out, inputs, inside=root)]
        forged = False
        for v in variants:
            found = lock_problems(v)
            if not found:  # current and intact: is it what its inputs resolve to?
                texts = {
                    n: (read_output(out / v.id / n, inside=root) or b"").decode(
                        "utf-8", errors="replace"
                    )
                    for n in expected_lock_names(v)
                }
                found = [
                    f"{v.id}/{p}"
                    for p in verify_lock_files(spec, v, texts, conda_tool=options.conda_tool)
                ]
                forged = forged or bool(found)
            problems += found
        problems += [describe_stale(s) for s in find_stale(out, all_ids)]
        if problems:
            raise StaleOutputError(
                f"{len(problems)} problem(s) in {out}:\n" + "\n".join(f"  - {p}" for p in problems),
                hint=(
                    "a lock differs from what its inputs resolve to: review who changed it; "
                    "`envgen lock --upgrade` re-resolves it from the spec"
                    if forged
                    else "run `envgen lock` and commit the result"
                ),
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
        from envgen.infra.network import check_resolvable  # noqa: PLC0415

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
                    raw = None if options.upgrade else read_output(out / v.id / name, inside=root)
                    if raw is not None:
                        previous[name] = split_header(raw.decode("utf-8", "replace"))[1]
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
        if write_if_changed(out.joinpath(*f.relpath.parts), f.text, inside=root):
            written.append(str(f.relpath))
    for o in outcomes:
        if o.status != "locked":
            continue
        written.extend(
            str(f.relpath)
            for f in o.files
            if write_if_changed(out.joinpath(*f.relpath.parts), f.text, inside=root)
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

    from envgen.model.variants import pip_pins  # noqa: PLC0415

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


# --- verification: a lock must be what its recorded inputs resolve to --------------------------
#
# The content-hash only catches accidental edits: anyone who edits a committed lock can recompute
# it. So `check`, `lock --check` and `build` also compare the lock with what the spec and the
# user's settings produce: the index lines must be the ones envgen would write, and a fresh
# resolution of the recorded inputs (uv's cache first, then the network) must give the same pins
# and only hashes of files the index serves for each pin (issue 16, docs/reliability.md).


@dataclass(frozen=True, slots=True, kw_only=True)
class _Entry:
    """One requirement of a requirements.txt lock, with the line numbers of its parts."""

    line: int
    key: str  # canonical name, plus `;marker` when there is one
    name: str
    version: str
    text: str
    hashes: tuple[tuple[int, str], ...]  # (line, digest)


_HASH_RE: Final = re.compile(r"--hash=(?P<algo>[A-Za-z0-9]+):(?P<digest>[^\s\\]*)")


def _numbered_body(text: str) -> list[tuple[int, str]]:
    """(line number in the whole file, line) for the body of a generated lock file."""
    lines = text.splitlines()
    # The header ends at the content hash; a file without one is all body.
    start = next(
        (i + 1 for i, line in enumerate(lines) if line.startswith(f"# {CONTENT_HASH_PREFIX}")), 0
    )
    return [(n + 1, lines[n]) for n in range(start, len(lines))]


def _short(line: str, limit: int = 160) -> str:
    """A line for a message: credentials masked, length bounded."""
    from envgen.infra.proc import redact  # noqa: PLC0415

    text = redact(line.strip().rstrip("\\").strip())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _without_options(body: str) -> str:
    return "".join(
        line
        for line in normalize_text(body).splitlines(keepends=True)
        if not line.startswith("-") and line.strip()
    )


def option_lines(text: str) -> list[tuple[int, str]]:
    """The option lines (`--index-url`, `-f`, `--trusted-host`, ...) of a lock, numbered."""
    return [(n, line.strip()) for n, line in _numbered_body(text) if line.startswith("-")]


def index_line_problems(text: str, variant: Variant, written: IndexUrls) -> list[str]:
    """Option lines of a requirements.txt lock that the spec and settings would not write.

    The indexes a build uses come from the spec and settings, never from the lock; a lock that
    names others was edited (or was made with other settings) and is refused.
    """
    from envgen.lock.pip import written_index_lines  # noqa: PLC0415

    want = written_index_lines(variant, written)
    have = option_lines(text)
    problems = [
        f"line {n}: `{_short(line)}` is not an index line the spec and settings write"
        f" (they write: {', '.join(f'`{w}`' for w in want) or 'none'})"
        for n, line in have
        if " ".join(line.split()) not in want
    ]
    seen = {" ".join(line.split()) for _, line in have}
    problems += [
        f"`{w}` is missing: the spec and settings write this index line"
        for w in want
        if w not in seen
    ]
    return problems


def conda_url_problems(name: str, text: str, variant: Variant) -> list[str]:
    """Conda package URLs of a lock that are not on a channel of the spec, numbered by line.

    A cheap guard that needs no solver (a build with stale locks allowed still runs it): each
    package must come from https://conda.anaconda.org/<channel>/ for a channel the variant's
    environment.yml names; `ENVGEN_CONDA_CHANNEL_ALIAS` is applied at install time only.
    """
    from envgen.lock.conda import DEFAULT_CHANNEL_ALIAS  # noqa: PLC0415
    from envgen.render.environment import channels  # noqa: PLC0415

    roots = tuple(f"{DEFAULT_CHANNEL_ALIAS}/{c}/" for c in channels(variant))
    problems: list[str] = []
    in_conda_entry = False
    for number, line in _numbered_body(text):
        stripped = line.strip()
        if name.endswith(".yml"):
            if stripped.startswith("manager:"):
                in_conda_entry = stripped == "manager: conda"
            if not (in_conda_entry and stripped.startswith("url:")):
                continue
            url = stripped.removeprefix("url:").strip().strip("'\"")
        else:
            if not stripped or stripped.startswith(("#", "@")):
                continue
            url = stripped.split("#", 1)[0]
        if not url.startswith(roots):
            problems.append(
                f"line {number}: {_short(url)} is not on a channel of the spec "
                f"({', '.join(r.rstrip('/') for r in roots)})"
            )
    return problems


def _entries(text: str) -> tuple[list[_Entry], list[str]]:
    """The requirements of a requirements.txt lock (and lines that are not requirements)."""
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415
    from packaging.utils import canonicalize_name  # noqa: PLC0415

    groups: list[list[tuple[int, str]]] = []
    for n, line in _numbered_body(text):
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or line.startswith("-"):
            continue
        if line[:1].isspace() and groups:
            groups[-1].append((n, line))
        else:
            groups.append([(n, line)])
    entries: list[_Entry] = []
    problems: list[str] = []
    for group in groups:
        first_line, first = group[0]
        head = _HASH_RE.split(first)[0].replace("\\", " ").strip()
        try:
            req = Requirement(head)
        except InvalidRequirement:
            problems.append(f"line {first_line}: `{_short(first)}` is not a requirement")
            continue
        pins = [s.version for s in req.specifier if s.operator == "=="]
        if len(pins) != 1:
            problems.append(f"line {first_line}: `{_short(first)}` is not pinned with ==")
            continue
        name = canonicalize_name(req.name)
        marker = f";{req.marker}" if req.marker is not None else ""
        hashes = tuple(
            (n, f"{m['algo']}:{m['digest']}") for n, line in group for m in _HASH_RE.finditer(line)
        )
        entries.append(
            _Entry(
                line=first_line,
                key=name + marker,
                name=name,
                version=pins[0],
                text=head,
                hashes=hashes,
            )
        )
    return entries, problems


def requirement_problems(text: str, fresh_body: str) -> list[str]:
    """How a requirements.txt lock differs from a fresh resolution of its inputs, by line."""
    have, problems = _entries(text)
    want = {e.key: e for e in _entries(fresh_body)[0]}
    for entry in have:
        other = want.get(entry.key)
        if other is None:
            problems.append(
                f"line {entry.line}: `{_short(entry.text)}` is not part of what its inputs "
                "resolve to (an added package)"
            )
            continue
        if other.version != entry.version:
            problems.append(
                f"line {entry.line}: {entry.name}=={entry.version} but its inputs resolve to "
                f"{entry.name}=={other.version}"
            )
            continue
        served = {digest for _, digest in other.hashes}
        problems.extend(
            f"line {n}: --hash={_short(digest)} is not the hash of any file the index serves"
            f" for {entry.name}=={entry.version}"
            for n, digest in entry.hashes
            if digest not in served
        )
        if not entry.hashes:
            problems.append(f"line {entry.line}: {entry.name}=={entry.version} has no --hash")
    keys = {e.key for e in have}
    problems.extend(
        f"{e.name}=={e.version} is missing: its inputs resolve to it"
        for key, e in want.items()
        if key not in keys
    )
    return problems


def text_problems(text: str, fresh_body: str, *, limit: int = 20) -> list[str]:
    """Lines of a lock that differ from a fresh solve of its inputs (conda locks), numbered."""
    import difflib  # noqa: PLC0415

    have = _numbered_body(text)
    lines = [line for _, line in have]
    fresh = normalize_text(fresh_body).splitlines()
    problems: list[str] = []
    matcher = difflib.SequenceMatcher(a=lines, b=fresh, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        for k in range(i1, i2):
            number = have[k][0]
            problems.append(
                f"line {number}: `{_short(lines[k])}` is not what its inputs solve to"
                + (f" (they give `{_short(fresh[j1 + k - i1])}`)" if j1 + k - i1 < j2 else "")
            )
        if i2 - i1 < j2 - j1:
            at = have[i2 - 1][0] if i2 else 0
            problems.extend(
                f"after line {at}: `{_short(fresh[j])}` is missing: its inputs solve to it"
                for j in range(j1 + (i2 - i1), j2)
            )
    if len(problems) > limit:
        problems = [*problems[:limit], f"... and {len(problems) - limit} more differing line(s)"]
    return problems


def resolve_afresh(
    spec: ProjectSpec,
    variant: Variant,
    *,
    recorded: str | None,
    conda_tool: str = "rattler",
    offline: bool,
    managers: tuple[Manager, ...] | None = None,
) -> dict[str, str]:
    """Lock bodies (file name -> body, without header) from the variant's recorded inputs.

    Nothing of the committed lock is used (no previous pins): the spec, the matrix, the user's
    settings and the options the lock records (`lock-options:`) decide.
    """
    resolver, cutoff = effective_options(spec, *parse_overrides(recorded))
    lockers = _lockers(resolver, conda_tool)
    bodies: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="envgen-verify-") as tmp:
        request = LockRequest(
            variant=variant,
            urls=index_urls(spec, for_writing=False),
            written_urls=index_urls(spec, for_writing=True),
            conda_channels=conda_channel_map(),
            exclude_newer=dt.date.fromisoformat(cutoff) if cutoff else None,
            resolver=resolver,
            upgrade=False,
            upgrade_packages=(),
            previous={},
            workdir=Path(tmp),
            cache_dir=cache_root(),
            offline=offline,
        )
        for manager in variant.managers if managers is None else managers:
            bodies.update((lf.name, lf.body) for lf in lockers[manager].lock(request))
    return bodies


def verify_lock_files(
    spec: ProjectSpec,
    variant: Variant,
    texts: dict[str, str],
    *,
    conda_tool: str = "rattler",
) -> list[str]:
    """Problems (`<file>: line N: ...`) where committed lock files are not what their inputs give.

    `texts` maps each lock file name to its committed text. The inputs are re-resolved with uv's
    cache first (`--offline`); when that fails or differs, online, and that answer is final.
    """
    problems: list[str] = []
    pip_text = texts.get("requirements.txt")
    if pip_text is not None:
        written = index_urls(spec, for_writing=True)
        problems += [
            f"requirements.txt: {p}" for p in index_line_problems(pip_text, variant, written)
        ]
    recorded = next((split_header(t)[0].get("lock-options") for t in texts.values() if t), None)
    managers: tuple[Manager, ...] = tuple(
        m
        for m in variant.managers
        if any(n in texts for n in (LOCK_FILES_PIP if m == "pip" else conda_lock_names(variant)))
    )

    def compare(bodies: dict[str, str]) -> list[str]:
        found: list[str] = []
        for name, text in texts.items():
            fresh = bodies.get(name)
            if fresh is None:
                found.append(f"{name}: its inputs produce no such lock file")
                continue
            body = split_header(text)[1]
            if name == "requirements.txt":
                # Index lines were judged above; the rest must be what the resolver gives.
                body, fresh = _without_options(body), _without_options(fresh)
            if normalize_text(body) == normalize_text(fresh):
                continue
            lines = requirement_problems(text, fresh) if name == "requirements.txt" else []
            # Differences the pin comparison does not name (a marker, an order) by line.
            found += [f"{name}: {p}" for p in lines or text_problems(text, fresh)]
        return found

    try:
        differences = compare(
            resolve_afresh(
                spec,
                variant,
                recorded=recorded,
                conda_tool=conda_tool,
                offline=True,
                managers=managers,
            )
        )
    except EnvgenError as exc:
        log.debug("%s: offline re-resolution failed (%s); asking the index", variant.id, exc)
        differences = ["offline"]
    if differences:
        try:
            differences = compare(
                resolve_afresh(
                    spec,
                    variant,
                    recorded=recorded,
                    conda_tool=conda_tool,
                    offline=False,
                    managers=managers,
                )
            )
        except EnvgenError as exc:
            msg = (
                f"{variant.id}: could not re-resolve the lock's inputs to verify it:\n{exc.message}"
            )
            raise LockError(msg, hint=exc.hint) from None
    return problems + differences
