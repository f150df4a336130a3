"""The lock file format: names, the generated header, its content hash and its input hash.

What a committed lock file is, independent of how it was made: the lock stage writes it
(envgen.lock.orchestrate), the build stage reads and checks it (envgen.build), and the lock's
verification (envgen.lock.verify) compares it with a fresh resolution. Pure: reads only the
committed files it is given (bounded, no link followed).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

from envgen.errors import LockError
from envgen.infra.files import input_hash, normalize_text, read_output
from envgen.lock.options import LockOptions
from envgen.lock.piplock import LockOptionsHeader, PipLock, body_hash
from envgen.model import era
from envgen.model.spec import ProjectSpec
from envgen.model.types import Resolver
from envgen.model.variants import Variant
from envgen.render.header import Header, parse_header
from envgen.render.indexes import IndexUrls
from envgen.render.plan import variant_inputs

CONTENT_HASH_PREFIX: Final = "content-hash: "
LOCK_FILES_PIP: Final = ("requirements.txt",)
# The conda-lock unified file; next to it, the platform's explicit lock (conda_explicit_name).
CONDA_LOCK: Final = "conda-lock.yml"


def conda_explicit_name(platform: str) -> str:
    """The per-platform explicit lock (package URLs) written next to conda-lock.yml."""
    return f"conda-{platform}.lock"


def conda_lock_names(variant: Variant) -> tuple[str, ...]:
    return (CONDA_LOCK, conda_explicit_name(variant.platform))


def expected_lock_names(variant: Variant) -> tuple[str, ...]:
    names: list[str] = []
    if variant.pip is not None:
        names += LOCK_FILES_PIP
    if variant.conda is not None:
        names += conda_lock_names(variant)
    return tuple(names)


def with_header(header: Header, body: str) -> str:
    """Prepend the header (plus a content hash of the body, for tamper detection).

    For requirements.txt this is PipLock's layout (envgen.lock.piplock renders the same bytes);
    the conda lock files carry the same header.
    """
    lines = [*header.lines(), f"{CONTENT_HASH_PREFIX}{body_hash(body)}"]
    return "".join(f"# {line}\n" for line in lines) + normalize_text(body)


def split_header(text: str) -> tuple[dict[str, str], str]:
    """Split a generated conda lock file into its header fields and its body.

    A pip lock is read with PipLock.parse (envgen.lock.piplock), never with this.
    """
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


def header_fields(name: str, text: str, *, source: str | None = None) -> dict[str, str]:
    """The header fields of a lock file: PipLock's for requirements.txt (strict), else the
    conda files' header."""
    if name in LOCK_FILES_PIP:
        return PipLock.parse(text, source=source or name).fields
    return split_header(text)[0]


def lock_body(name: str, text: str, *, source: str | None = None) -> str:
    """The body of a lock file (after the header): PipLock's for requirements.txt (strict)."""
    if name in LOCK_FILES_PIP:
        return PipLock.parse(text, source=source or name).body()
    return split_header(text)[1]


def has_full_lock(out: Path, variant: Variant) -> bool:
    """Whether the variant's folder holds a full lock (or its inputs): `envgen lock` wrote it.

    `requirements.in` is written only by a full lock, and a full lock file carries a
    content-hash; pins-only files have neither. A requirements.txt that PipLock cannot parse
    counts as a full lock when it claims a content hash, so the full checks name its bad line.
    A `requirements.in` beside a pins-only requirements.txt (no content hash, no hashes: a mix an
    older envgen could leave after a partial failure) is not a full lock: the pins-only files are
    the variant's, and `lock --pins-only` replaces the stray input with them.
    """
    folder = out / variant.id
    pins_only = False
    for name in expected_lock_names(variant):
        if name == "requirements.txt":
            # Bounded, regular files only, no link followed (a committed lock is untrusted).
            raw = read_output(folder / name)
            try:
                text = raw.decode("utf-8") if raw is not None else ""
            except UnicodeDecodeError:
                continue
            try:
                lock = PipLock.parse(text, source=name)
            except LockError:
                if f"\n# {CONTENT_HASH_PREFIX}" in f"\n{text}":
                    return True
                continue
            if lock.content_hash is not None:
                return True
            pins_only = bool(text) and not any(p.hashes for p in lock.pins)
        elif (folder / name).is_file():
            return True
    return (folder / "requirements.in").is_file() and not pins_only


def full_lock_ids(out: Path, variants: tuple[Variant, ...]) -> frozenset[str]:
    """The variants whose folders hold a full lock (see has_full_lock)."""
    return frozenset(v.id for v in variants if has_full_lock(out, v))


def overrides_text(resolver: str | None, as_of: str | None) -> str | None:
    """The `lock-options:` header value for command-line overrides (None when there are none).

    >>> overrides_text(None, "2021-06-30"), overrides_text(None, None)
    ('--as-of 2021-06-30', None)
    """
    parts = ([f"--as-of {as_of}"] if as_of else []) + (
        [f"--resolver {resolver}"] if resolver else []
    )
    return " ".join(parts) or None


def parse_overrides(
    text: str | None, *, where: str = "lock-options"
) -> tuple[str | None, str | None]:
    """(resolver, as_of) back from a `lock-options:` header value; LockError when malformed.

    >>> parse_overrides("--as-of 2021-06-30 --resolver pip-tools")
    ('pip-tools', '2021-06-30')
    """
    parsed = LockOptionsHeader.parse(text, where=where)
    return parsed.resolver, parsed.as_of


def effective_options(
    spec: ProjectSpec, resolver: str | None, as_of: str | None
) -> tuple[Resolver, str | None]:
    """(resolver, exclude-newer date): command-line overrides over the spec's `lock:` key."""
    cutoff = as_of or (spec.lock.exclude_newer.isoformat() if spec.lock.exclude_newer else None)
    return (resolver or spec.lock.resolver), cutoff  # type: ignore[return-value]


def unconfirmed_options(
    spec: ProjectSpec, resolver: str | None, as_of: str | None, recorded: str | None
) -> str | None:
    """The notice for a lock judged by its own `lock-options:` header (None when nothing is).

    A committed lock that records `--as-of` / `--resolver` is checked with them when none are
    given now, so the header decides what "its inputs resolve to" means. It is the one input the
    committed file supplies itself: the notice names it, so a reviewer sees a date that holds a
    lock back (a downgrade behind a plausible header) instead of a silent pass.
    """
    if resolver is not None or as_of is not None or not recorded:
        return None
    rec_resolver, rec_as_of = parse_overrides(recorded)
    spec_as_of = spec.lock.exclude_newer.isoformat() if spec.lock.exclude_newer else None
    extra = [
        f"--as-of {rec_as_of}" if rec_as_of and rec_as_of != spec_as_of else "",
        f"--resolver {rec_resolver}" if rec_resolver and rec_resolver != spec.lock.resolver else "",
    ]
    said = " ".join(e for e in extra if e)
    if not said:
        return None
    return (
        f"judged with the lock's own `lock-options: {recorded}` ({said} is in neither "
        f"{spec.path.name}'s lock: key nor this command): the lock is what those options resolve "
        f"to, no newer; pass {said} to confirm them, or `envgen lock --upgrade` to drop them"
    )


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
    if data["exclude_newer"] is None and data["resolver"] == "uv" and variant.pip is not None:
        data.update(era.era_inputs(variant))  # the release's era date (envgen.model.era)
    return input_hash(data)


def recorded_in(texts: Mapping[str, str]) -> str | None:
    """The `lock-options:` header value of a variant's lock files (the first that has text).

    Checked: a malformed value (`--as-of garbage`) is a LockError naming the file.
    """
    for name, text in texts.items():
        if text:
            value = split_header(text)[0].get("lock-options")
            parse_overrides(value, where=name)
            return value
    return None


def recorded_options(path: Path) -> str | None:
    """The `lock-options:` header value of one lock file (checked, as recorded_in)."""
    try:
        raw = read_output(path)
        value = None if raw is None else split_header(raw.decode("utf-8"))[0].get("lock-options")
    except UnicodeDecodeError:
        return None
    parse_overrides(value, where=path.name)
    return value


def tampered_lines(text: str) -> list[str]:
    """Problems with a conda lock file edited by hand (PipLock.tampered for requirements.txt)."""
    fields, body = split_header(text)
    recorded = fields.get("content-hash")
    if recorded is None:
        return ["no content-hash in the header: the file was not written by envgen or was edited"]
    if recorded != body_hash(body):
        return ["the body does not match its content-hash: the file was edited by hand"]
    return []


def numbered_body(text: str) -> list[tuple[int, str]]:
    """(line number in the whole file, line) for the body of a generated lock file."""
    lines = text.splitlines()
    # The header ends at the content hash; a file without one is all body.
    start = next(
        (i + 1 for i, line in enumerate(lines) if line.startswith(f"# {CONTENT_HASH_PREFIX}")), 0
    )
    return [(n + 1, lines[n]) for n in range(start, len(lines))]
