"""project.yaml -> ProjectSpec: parsed, validated and frozen (the runtime reader).

The keys, types, patterns and choices are defined once, by the pydantic models of
envgen/model/spec_schema.py (also the JSON Schema in docs/reference/project-yaml.schema.json);
this reader runs without pydantic and takes them from the generated envgen/model/spec_rules.py,
then adds the rules a schema does not state (PEP 508 and specifier syntax, duplicates, index URL
policy, control characters); tests/unit/model/test_spec_schema.py checks that the two agree.

Every problem in a spec is collected and reported together, each with its key path and line, what
is wrong, the valid choices and a fix. This module checks only what can be known without the
matrix (types, syntax, known names); whether PyTorch published a combination is variants.py's job.
It must not touch the network or start processes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, NoReturn

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from envgen.errors import FileSystemError, SpecError, excerpt
from envgen.infra.files import atomic_write_bytes, read_output
from envgen.infra.urls import check_index_url, host_of
from envgen.model.pythons import minor_of
from envgen.model.spec_rules import (
    ACCELERATOR_PATTERN,
    CHANNEL_PATTERN,
    CI_INSTALL_PATTERN,
    CI_KEYS,
    CI_LABEL_PATTERN,
    CONDA_DEP_PATTERN,
    CONDA_KEYS,
    DATE_PATTERN,
    HOST_PATTERN,
    KNOWN_KEYS,
    LOCK_KEYS,
    NAME_PATTERN,
    PYTHON_PATTERN,
    TORCH_FROM_CHOICES,
    WRITE_INDEX_CHOICES,
)
from envgen.model.types import (
    CONDA_SOURCES,
    MANAGERS,
    PLATFORMS,
    RESOLVERS,
    TORCH_FAMILY,
    CondaSource,
    Manager,
    Platform,
    Resolver,
)

if TYPE_CHECKING:
    import yaml

MAX_SPEC_BYTES: Final = 256 * 1024
# A 10,000-item list with one mistake per item must not print 10,000 lines.
MAX_REPORTED_PROBLEMS: Final = 50

# The keys, choices and patterns are spec_schema.py's (generated into spec_rules.py); every
# pattern is used with fullmatch: `$` would accept a trailing newline, which then ends a YAML
# scalar or a requirements line early (issue 16 item 3).
_NAME_RE: Final = re.compile(NAME_PATTERN)
_ACCEL_RE: Final = re.compile(ACCELERATOR_PATTERN)
_PYTHON_RE: Final = re.compile(PYTHON_PATTERN)
_PY2_RE: Final = re.compile(r"2\.\d{1,2}")  # which message a refused python gets
CHANNEL_RE: Final = re.compile(CHANNEL_PATTERN)
_HOST_RE: Final = re.compile(HOST_PATTERN)
_DATE_RE: Final = re.compile(DATE_PATTERN)
# conda packages envgen chooses from torch / python (pytorch-cpu / -gpu: conda-forge's variants).
_SET_BY_ENVGEN: Final = frozenset(
    {"pytorch", "pytorch-cpu", "pytorch-gpu", "torchvision", "torchaudio", "python"}
)
CONDA_DEP_RE: Final = re.compile(CONDA_DEP_PATTERN)
_CONTROL_RE: Final = re.compile(r"[\x00-\x1f\x7f]")
# What no spec value may hold (issue 21 item 8): controls (Cc: C0, DEL and C1, U+0085 NEXT LINE
# among them), format characters (Cf: bidi overrides, zero-width characters that hide text),
# surrogates (Cs) and the line and paragraph separators (Zl U+2028, Zp U+2029). Every value ends
# up on one line of a requirements file, an environment.yml or a header comment, and
# str.splitlines, YAML 1.1 and editors break lines at some of these.
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_CONTROL_NAMES: Final = {
    "\t": "CHARACTER TABULATION",
    "\n": "LINE FEED",
    "\x0b": "LINE TABULATION",
    "\x0c": "FORM FEED",
    "\r": "CARRIAGE RETURN",
    "\x1c": "FILE SEPARATOR",
    "\x1d": "GROUP SEPARATOR",
    "\x1e": "RECORD SEPARATOR",
    "\x85": "NEXT LINE",
}
_CI_LABEL_RE: Final = re.compile(CI_LABEL_PATTERN)
# ci.install is written into a CI workflow inside double quotes: no quote, space, `$` or backtick
# can reach it. Within these characters it must still be one of the forms `ci_install` accepts.
_CI_INSTALL_RE: Final = re.compile(CI_INSTALL_PATTERN)
_CI_INSTALL_FORMS: Final = (
    "a version ('0.1.0'), a requirement of envgen-torch ('envgen-torch>=0.1,<0.2'), "
    "a git URL ('git+https://host/owner/envgen@v0.1.0') or a wheel (a relative path or an "
    "https URL ending in .whl)"
)


def ci_install(value: str) -> str | None:
    """The pip argument that installs envgen in generated CI, or None when `value` is not one.

    >>> ci_install("0.2.0")
    'envgen-torch==0.2.0'
    >>> ci_install("envgen-torch>=0.1,<0.3")
    'envgen-torch<0.3,>=0.1'
    >>> ci_install("git+https://github.com/example/envgen@v0.2.0")
    'envgen-torch @ git+https://github.com/example/envgen@v0.2.0'
    >>> ci_install("dist/envgen_torch-0.2.0-py3-none-any.whl")
    'dist/envgen_torch-0.2.0-py3-none-any.whl'
    >>> ci_install("numpy==2.0") is None, ci_install("../x.whl") is None, ci_install("-r x") is None
    (True, True, True)
    """
    from packaging.requirements import InvalidRequirement, Requirement  # noqa: PLC0415 - ci: only
    from packaging.version import InvalidVersion, Version  # noqa: PLC0415 - ci: only

    if not _CI_INSTALL_RE.fullmatch(value):
        return None
    try:
        return f"envgen-torch=={Version(value)}"
    except InvalidVersion:
        pass
    if value.startswith("git+https://") and "@" in value.removeprefix("git+https://"):
        return f"envgen-torch @ {value}"
    if value.endswith(".whl") and "://" not in value.replace("https://", "", 1):
        parts = value.removeprefix("https://").split("/")
        if value.startswith("https://") or (".." not in parts and not value.startswith("/")):
            return value
        return None
    try:
        req = Requirement(value)
    except InvalidRequirement:
        return None
    if req.name.lower().replace("_", "-") != "envgen-torch" or req.url or req.marker:
        return None
    return str(req)


@dataclass(frozen=True, slots=True, kw_only=True)
class CondaSection:
    """Extra conda channels and packages from the spec's `conda:` key."""

    channels: tuple[str, ...] = ()
    dependencies: tuple[str, ...] = ()
    # pytorch (PyTorch's own channels) or conda-forge; None: the release's default source.
    source: CondaSource | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SpecLockSettings:
    """The spec's `lock:` key."""

    exclude_newer: dt.date | None = None
    resolver: Resolver = "uv"


@dataclass(frozen=True, slots=True, kw_only=True)
class SpecCiSettings:
    """The spec's `ci:` key: runner labels for generated CI workflows."""

    gpu_runner: str = "gpu"
    cpu_runner: str = "ubuntu-latest"
    # How CI installs envgen, as a pip argument: None means this envgen's own release
    # (`envgen-torch==<version>`); see `ci_install` for what a spec may write.
    install: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ProjectSpec:
    """A validated project.yaml."""

    path: Path
    name: str
    python: tuple[str, ...]
    torch: str
    # major.minor -> the patch release named in project.yaml (`python: "3.6.12"`); `python`
    # holds the minor. Resolution uses it (envgen.model.pythons).
    python_patch: tuple[tuple[str, str], ...] = ()
    torchvision: bool | str = True
    torchaudio: bool | str = True
    accelerators: tuple[str, ...] = ("cpu",)
    all_accelerators: bool = False
    platforms: tuple[Platform, ...] = ("linux-64",)
    managers: tuple[Manager, ...] = ("pip", "conda")
    managers_explicit: bool = False
    pip: tuple[str, ...] = ()
    conda: CondaSection = field(default_factory=CondaSection)
    lock: SpecLockSettings = field(default_factory=SpecLockSettings)
    pytorch_index: str | None = None
    pypi_index: str | None = None
    write_index: str = "official"
    torch_from: str = "published"
    ci: SpecCiSettings = field(default_factory=SpecCiSettings)
    # Hosts whose plain-http index is allowed (not part of as_dict: it changes no output).
    trusted_hosts: tuple[str, ...] = ()

    @property
    def directory(self) -> Path:
        return self.path.parent

    def as_dict(self) -> dict[str, object]:
        """The spec's content as plain data (input to the output hash; no paths)."""
        return {
            "name": self.name,
            "python": list(self.python),
            # Only when set, so the hashes of specs without it do not change.
            **({"python_patch": dict(self.python_patch)} if self.python_patch else {}),
            "torch": self.torch,
            "torchvision": self.torchvision,
            "torchaudio": self.torchaudio,
            "accelerators": "all" if self.all_accelerators else list(self.accelerators),
            "platforms": list(self.platforms),
            "managers": list(self.managers),
            "pip": list(self.pip),
            "conda": {
                "channels": list(self.conda.channels),
                "dependencies": list(self.conda.dependencies),
                # Only when set, so the hashes of specs without it do not change.
                **({"source": self.conda.source} if self.conda.source else {}),
            },
            # Only when set, so the hashes of specs without it do not change.
            **({"torch_from": self.torch_from} if self.torch_from != "published" else {}),
            "lock": {
                "exclude_newer": self.lock.exclude_newer.isoformat()
                if self.lock.exclude_newer
                else None,
                "resolver": self.lock.resolver,
            },
        }


# --- line numbers --------------------------------------------------------------------------------
class _Lines:
    """Maps key paths ("accelerators[1]", "conda.channels") to 1-based line numbers."""

    def __init__(self, node: yaml.Node | None) -> None:

        self._lines: dict[str, int] = {}
        self._seen: set[int] = set()
        # (key path, first line, repeated line): YAML keeps the last value silently.
        self.duplicates: list[tuple[str, int, int]] = []
        if node is not None:
            self._walk(node, "")

    def _walk(self, node: yaml.Node, path: str) -> None:
        import yaml  # noqa: PLC0415 - loaded already (the node is PyYAML's)

        # An alias is the same node object again: walk each node once, or a "billion laughs"
        # file of a few hundred bytes takes minutes.
        if id(node) in self._seen:
            return
        self._seen.add(id(node))
        self._lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            first: dict[str, int] = {}
            for key, value in node.value:
                name = self._key_name(key)
                child = f"{path}.{name}" if path else name
                if name in first:
                    self.duplicates.append((child, first[name], key.start_mark.line + 1))
                first.setdefault(name, key.start_mark.line + 1)
                self._lines[child] = key.start_mark.line + 1
                self._walk(value, child)
                self._lines[child] = key.start_mark.line + 1
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._walk(item, f"{path}[{i}]")

    @staticmethod
    def _key_name(key: yaml.Node) -> str:
        """The key as the validator names it: str() of what YAML builds (`~` is "None")."""
        import yaml  # noqa: PLC0415 - loaded already (the node is PyYAML's)

        if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:str":
            try:
                return str(yaml.constructor.SafeConstructor().construct_object(key))
            except (yaml.YAMLError, ValueError, OverflowError):
                pass
        return str(key.value)

    def line(self, path: str) -> int | None:
        while path:
            if path in self._lines:
                return self._lines[path]
            path = re.sub(r"(\[\d+\]|\.[^.\[]+)$", "", path) if re.search(r"[.\[]", path) else ""
        return None


class _Problems:
    """Collects every problem with its location, then raises one SpecError."""

    def __init__(self, source: str, lines: _Lines) -> None:
        self.source = source
        self.lines = lines
        self.items: list[str] = []
        self.paths: set[str] = set()

    def add(self, path: str, message: str) -> None:
        self.paths.add(path)
        line = self.lines.line(path)
        where = f"{self.source}:{line}: {path}" if line else f"{self.source}: {path}"
        self.items.append(f"{where}: {message}")

    def raise_if_any(self) -> None:
        if self.items:
            self.raise_all()

    def raise_all(self) -> NoReturn:
        items = self.items
        if len(items) > MAX_REPORTED_PROBLEMS:
            hidden = len(items) - MAX_REPORTED_PROBLEMS
            items = [
                *items[:MAX_REPORTED_PROBLEMS],
                f"{self.source}: ... and {hidden} more problems not shown; fix these first",
            ]
        raise SpecError(items, source=self.source, total=len(self.items))


def unsafe_character(text: str) -> tuple[int, str] | None:
    """(1-based position, name) of the first line break, control or format character in `text`.

    >>> unsafe_character('numpy; sys_platform == "linux\u2028"')
    (30, 'U+2028 LINE SEPARATOR')
    >>> unsafe_character("a\x85b")
    (2, 'U+0085 NEXT LINE')
    >>> unsafe_character("numpy>=1.26; python_version < '3.12'") is None
    True
    """
    if text.isprintable():  # the fast path: no Cc, Cf, Cs, Zl, Zp (nor Zs, Co, Cn) at all
        return None
    for i, char in enumerate(text):
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            name = unicodedata.name(char, _CONTROL_NAMES.get(char, "a control character"))
            return i + 1, f"U+{ord(char):04X} {name}"
    return None


def _unsafe_strings(data: object) -> list[tuple[str, str, str]]:
    """(key path, problem, its value) for every key and string value holding an unsafe character,
    in document order (each aliased node once)."""
    found: list[tuple[str, str, str]] = []
    seen: set[int] = set()
    stack: list[tuple[object, str]] = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            bad = unsafe_character(value)
            if bad is not None:
                found.append((path, f"holds {bad[1]} at character {bad[0]}", value))
            continue
        if not isinstance(value, dict | list) or id(value) in seen:
            continue
        seen.add(id(value))
        children: list[tuple[object, str]] = []
        if isinstance(value, dict):
            for key, item in value.items():
                child = f"{path}.{key}" if path else str(key)
                bad = unsafe_character(key) if isinstance(key, str) else None
                if bad is not None:
                    found.append((child, f"the key holds {bad[1]} at character {bad[0]}", key))
                children.append((item, child))
        else:
            children = [(item, f"{path}[{i}]") for i, item in enumerate(value)]
        stack.extend(reversed(children))
    return found


def _reported(path: str, paths: set[str]) -> bool:
    """Whether `path` or a key above it already has a problem."""
    return any(path == p or path.startswith((f"{p}.", f"{p}[")) for p in paths)


def did_you_mean(value: str, choices: Iterable[str]) -> str:
    """A ' (did you mean ...?)' suffix, or ''.

    >>> did_you_mean("cu188", ["cpu", "cu118", "cu121"])
    " (did you mean 'cu118'?)"
    """
    import difflib  # noqa: PLC0415 - ~1 ms; only for a bad value's did-you-mean

    close = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        list: "a list",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def _quote_hint(value: object) -> str:
    if isinstance(value, float):
        return f"; YAML read it as the number {value!r}: quote it: '{_float_as_written(value)}'"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"; quote it: '{value}'"
    return ""


def _float_as_written(value: float) -> str:
    text = repr(value)
    # 3.1 is how YAML reads "3.10": the likely intent is the two-digit minor.
    if text in {"3.1", "3.2"}:
        return text + "0"
    return text


# --- parsing -------------------------------------------------------------------------------------
def load_spec(path: Path, *, cache_root: Path | None = None) -> ProjectSpec:
    """Read and validate a project.yaml.

    Raises:
        SpecError: listing every problem found, each with key path and line.
    """
    source = path.name
    try:
        if stat.S_ISFIFO(path.stat().st_mode):
            msg = f"{path}: not a regular file"  # opening a FIFO would wait for a writer
            raise SpecError(msg, source=source)
        with path.open("rb") as fh:
            info = os.fstat(fh.fileno())
            if not stat.S_ISREG(info.st_mode):
                # /dev/zero or a FIFO behind a symlink would never end.
                msg = f"{path}: not a regular file"
                raise SpecError(msg, source=source)
            if info.st_size > MAX_SPEC_BYTES:
                msg = (
                    f"{source}: the file is {info.st_size} bytes; "
                    f"a project.yaml may be at most {MAX_SPEC_BYTES}"
                )
                raise SpecError(msg, source=source)
            raw_bytes = fh.read(MAX_SPEC_BYTES + 1)  # bounded even if the file grows
    except FileNotFoundError:
        msg = f"{path}: no such file"
        raise SpecError(msg, source=source) from None
    except IsADirectoryError:
        msg = f"{path}: is a directory, not a project.yaml"
        raise SpecError(msg, source=source) from None
    except OSError as exc:
        msg = f"{path}: cannot be read: {exc.strerror}"
        raise SpecError(msg, source=source) from None
    return parse_spec(raw_bytes, path=path, cache_root=cache_root)


def parse_spec(raw: bytes | str, *, path: Path, cache_root: Path | None = None) -> ProjectSpec:
    """Validate project.yaml content (`path` names it in messages and anchors relative paths).

    `cache_root` (Settings.cache_root): keep what YAML built in `<cache_root>/spec/`, so the next
    parse of the same bytes reads no YAML (`_spec_cache_path`); None parses it every time.
    """
    source = path.name
    if isinstance(raw, bytes):
        if len(raw) > MAX_SPEC_BYTES:
            msg = (
                f"{source}: the file is {len(raw)} bytes; "
                f"a project.yaml may be at most {MAX_SPEC_BYTES}"
            )
            raise SpecError(msg, source=source)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            msg = (
                f"{source}: not UTF-8 (byte {exc.start}: {raw[exc.start : exc.start + 1]!r}); "
                "save it as UTF-8"
            )
            raise SpecError(msg, source=source) from None
    else:
        text = raw
    text = text.removeprefix("\ufeff")
    cache = _spec_cache_path(text, cache_root)
    if cache is not None:
        hit = _from_spec_cache(cache, path)
        if hit is not None:
            return hit
    import yaml  # noqa: PLC0415 - ~10 ms; a spec-cache hit reads no YAML

    from envgen.infra.safe_yaml import YamlBombError, load_bounded  # noqa: PLC0415 - the same

    try:
        node, data = load_bounded(text)
    except YamlBombError as exc:
        msg = f"{source}: refused: {exc}"
        raise SpecError(msg, source=source) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        problem = getattr(exc, "problem", None) or str(exc)
        msg = f"{where}: not valid YAML: {problem}"
        raise SpecError(msg, source=source) from None
    except RecursionError:
        msg = f"{source}: YAML nested too deeply"
        raise SpecError(msg, source=source) from None
    except (ValueError, OverflowError) as exc:
        # A scalar YAML types but cannot build, e.g. the date 2022-13-45.
        msg = f"{source}: not valid YAML: a value cannot be read ({exc})"
        raise SpecError(msg, source=source) from None
    lines = _Lines(node)
    problems = _Problems(source, lines)
    for key_path, first_line, again in lines.duplicates:
        problems.items.append(
            f"{source}:{again}: {key_path}: duplicate key (first set at line {first_line}); "
            "YAML would keep only the last one: remove one of them"
        )
    blob = _marshalled(data) if cache is not None else None  # before validation reads it
    spec = _validated(data, problems, path)
    problems.raise_if_any()
    if spec is None:  # spec() returns None only after recording a problem
        msg = "internal error: the spec was rejected without a recorded problem"
        raise RuntimeError(msg)
    if cache is not None and blob is not None:
        # A read-only cache: the next run parses the YAML again.
        with contextlib.suppress(OSError):
            atomic_write_bytes(cache, blob)
    return spec


# --- the parse cache -----------------------------------------------------------------------------
# The code that turns text into data and decides which data is a valid spec: part of the key, so
# data cached by another envgen (or PyYAML) is never read.
_PARSE_SOURCES: Final = (
    Path(__file__),
    Path(__file__).parents[1] / "infra" / "safe_yaml.py",
)
SPEC_CACHE_FORMAT: Final = 1


def _spec_cache_path(text: str, cache_root: Path | None) -> Path | None:
    """`<cache_root>/spec/<sha256>.marshal`: what YAML built from `text`, kept once a full parse
    found no problem in it (None: no cache, or a source unreadable).

    Reading YAML (PyYAML's import and its pure-Python parser, which untrusted text always goes
    through) is most of what `envgen list` spends on the spec; the cached data is validated
    again on every hit, and only the YAML-node checks (duplicate keys, line numbers for
    messages) are skipped, which passed for these very bytes under this very code.
    """
    if cache_root is None:
        return None
    import hashlib  # noqa: PLC0415 - loaded already (the matrix cache's key)
    import marshal  # noqa: PLC0415 - a built-in module
    from importlib.util import find_spec  # noqa: PLC0415 - only with a cache

    found = find_spec("yaml")
    sources = [*_PARSE_SOURCES, *([Path(found.origin)] if found and found.origin else [])]
    digest = hashlib.sha256(
        f"spec {SPEC_CACHE_FORMAT} {marshal.version} {sys.version_info[:2]}\0".encode()
    )
    try:
        for source in sources:
            digest.update(source.read_bytes() + b"\0")
    except OSError:
        return None
    digest.update(text.encode("utf-8", "surrogatepass"))
    return cache_root / "spec" / f"{digest.hexdigest()}.marshal"


def _marshalled(data: object) -> bytes | None:
    """`data` in marshal's format, or None where it holds what marshal cannot write (a date)."""
    import marshal  # noqa: PLC0415 - a built-in module

    try:
        return marshal.dumps(data)  # type: ignore[arg-type]  # ValueError when it cannot
    except ValueError:
        return None


def _from_spec_cache(cache: Path, path: Path) -> ProjectSpec | None:
    """The spec from cached data, or None (a miss, or data this code finds a problem in: the
    full parse then says where, with line numbers)."""
    import marshal  # noqa: PLC0415 - a built-in module

    try:
        raw = read_output(cache)
        data = marshal.loads(raw) if raw is not None else None  # noqa: S302 - envgen's own cache of plain data
    except (OSError, ValueError, EOFError, TypeError, SpecError, FileSystemError):
        return None
    if data is None:
        return None
    problems = _Problems(path.name, _Lines(None))
    spec = _validated(data, problems, path)
    return spec if spec is not None and not problems.items else None


def _validated(data: object, problems: _Problems, path: Path) -> ProjectSpec | None:
    """The spec `data` (what YAML built) describes, every problem recorded in `problems`."""
    if not isinstance(data, dict):
        problems.add(
            "(top level)",
            f"expected a mapping of keys ({', '.join(KNOWN_KEYS[:5])}, ...), "
            f"got {_type_name(data)}",
        )
        return None
    spec = _Validator(data, problems, path).spec()
    # Every key and string, whatever its key's own check (which names most ASCII controls in
    # its own words, and is kept when it did): no value reaches a file with a line break in it.
    for where, problem, value in _unsafe_strings(data):
        if not _reported(where, problems.paths):
            problems.add(
                where,
                f"{excerpt(repr(value), 120)} {problem}; each value is written on one line of a "
                "requirements file, environment.yml or header comment, where a line break or "
                "control character would end the line or hide text: remove it",
            )
    return spec


def _empty_clause(value: str) -> int | None:
    """1-based position of the comma beside an empty clause of a specifier, or None.

    packaging accepts `>=2.1,,<2.3` and `>=2.1,`; uv and PEP 508 do not (issue 21 item 9).

    >>> _empty_clause(">=2.1,,<2.3"), _empty_clause(">=2.1,"), _empty_clause(",>=2.1")
    (7, 6, 1)
    >>> _empty_clause(">=2.1, <2.3") is None
    True
    """
    clauses = value.split(",")
    if len(clauses) == 1:
        return None
    offset = 0
    for i, clause in enumerate(clauses):
        if not clause.strip():
            # The comma after it, or for the last clause the comma before it.
            return offset + len(clause) + 1 if i < len(clauses) - 1 else offset
        offset += len(clause) + 1
    return None


class _Validator:
    def __init__(self, data: dict[object, object], problems: _Problems, path: Path) -> None:
        self.data = data
        self.p = problems
        self.path = path
        self.trusted_hosts: tuple[str, ...] = ()

    def spec(self) -> ProjectSpec | None:
        d = self.data
        self._unknown_keys(d, "", KNOWN_KEYS)
        name = self._name()
        python, python_patch = self._python()
        torch = self._torch()
        torchvision = self._companion("torchvision")
        torchaudio = self._companion("torchaudio")
        accelerators, all_acc = self._accelerators()
        platforms = self._choices("platforms", PLATFORMS, default=("linux-64",))
        managers = self._choices("managers", MANAGERS, default=("pip", "conda"))
        pip = self._pip()
        conda = self._conda()
        lock = self._lock()
        self.trusted_hosts = self._trusted_hosts()
        pytorch_index = self._url("pytorch_index")
        pypi_index = self._url("pypi_index")
        write_index = self._write_index()
        torch_from = self._torch_from()
        ci = self._ci()
        if self.p.items:
            return None
        if name is None or torch is None:  # each records a problem when it returns None
            msg = "internal error: `name` or `torch` is missing without a recorded problem"
            raise RuntimeError(msg)
        return ProjectSpec(
            path=self.path,
            name=name,
            python=python,
            python_patch=python_patch,
            torch=torch,
            torchvision=torchvision,
            torchaudio=torchaudio,
            accelerators=accelerators,
            all_accelerators=all_acc,
            platforms=platforms,  # type: ignore[arg-type]
            managers=managers,  # type: ignore[arg-type]
            managers_explicit="managers" in d,
            pip=pip,
            conda=conda,
            lock=lock,
            pytorch_index=pytorch_index,
            pypi_index=pypi_index,
            write_index=write_index,
            torch_from=torch_from,
            ci=ci,
            trusted_hosts=self.trusted_hosts,
        )

    # each helper reports its own problems and returns a usable default
    def _unknown_keys(
        self, mapping: dict[object, object], parent: str, keys: tuple[str, ...]
    ) -> list[object]:
        """Report every key of `mapping` the schema does not name; return them."""
        unknown = [k for k in mapping if not isinstance(k, str) or k not in keys]
        for key in unknown:
            self.p.add(
                f"{parent}.{key}" if parent else str(key),
                f"unknown key; valid keys: {', '.join(keys)}{did_you_mean(str(key), keys)}",
            )
        return unknown

    def _one_of(self, where: str, value: object, choices: tuple[str, ...]) -> bool:
        """Whether `value` is one of `choices`; reported (with the nearest) when it is not."""
        if isinstance(value, str) and value in choices:
            return True
        self.p.add(
            where,
            f"{value!r} is not one of {', '.join(choices)}{did_you_mean(str(value), choices)}",
        )
        return False

    def _section(self, key: str, expected: str) -> dict[object, object] | None:
        """The mapping under `key` ({} when absent or null); None, reported, when not a mapping."""
        value = self.data.get(key, {})
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.p.add(key, f"expected a mapping {expected}, got {_type_name(value)}")
            return None
        return value

    def _name(self) -> str | None:
        value = self.data.get("name")
        if value is None:
            self.p.add("name", "missing; give the project a name, e.g. `name: my-paper`")
            return None
        if not isinstance(value, str):
            self.p.add("name", f"expected a string, got {_type_name(value)}{_quote_hint(value)}")
            return None
        if not _NAME_RE.fullmatch(value) or value in {".", ".."}:
            self.p.add(
                "name",
                f"{value!r} is not a valid name: use 1-64 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit "
                "(it names environments and files, so no '/' or spaces)",
            )
            return None
        return value

    def _python(self) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
        value = self.data.get("python")
        if value is None:
            return (), ()
        items = value if isinstance(value, list) else [value]
        out: list[str] = []
        patches: list[tuple[str, str]] = []
        for i, item in enumerate(items):
            where = f"python[{i}]" if isinstance(value, list) else "python"
            if not isinstance(item, str):
                self.p.add(
                    where,
                    f'expected a string such as "3.10", got {_type_name(item)}{_quote_hint(item)}',
                )
                continue
            if not _PYTHON_RE.fullmatch(item):
                if _PY2_RE.fullmatch(item):
                    self.p.add(
                        where,
                        f"python {item} is not supported: torch was published for Python 2 "
                        'only as python 2.7 (torch 0.1.12-1.5.0); use "2.7" or "3.5" and later',
                    )
                else:
                    self.p.add(
                        where, f'{item!r} is not a Python version; write major.minor, e.g. "3.10"'
                    )
                continue
            patch = item if item.count(".") == 2 else None
            if patch is not None:
                item = minor_of(patch)  # noqa: PLW2901 - the minor is what the matrix lists
            if item in out:
                self.p.add(where, f"python {item} is listed twice")
                continue
            out.append(item)
            if patch is not None:
                patches.append((item, patch))
        if isinstance(value, list) and not value:
            self.p.add("python", 'the list is empty; name at least one version, e.g. ["3.11"]')
        return tuple(out), tuple(patches)

    def _torch(self) -> str | None:
        value = self.data.get("torch")
        if value is None:
            self.p.add(
                "torch", 'missing; give a release ("2.1.0"), a range (">=2.1,<2.3") or "latest"'
            )
            return None
        if not isinstance(value, str):
            self.p.add("torch", f"expected a string, got {_type_name(value)}{_quote_hint(value)}")
            return None
        value = value.strip()
        if value == "latest":
            return value
        if not value:
            # SpecifierSet("") is valid and matches everything: say what to write instead.
            self.p.add(
                "torch", 'is empty; give a release ("2.1.0"), a range (">=2.1,<2.3") or "latest"'
            )
            return None
        try:
            Version(value)
        except InvalidVersion:
            pass
        else:
            return value
        empty = _empty_clause(value)
        if empty is not None:
            fixed = ",".join(c.strip() for c in value.split(",") if c.strip())
            self.p.add(
                "torch",
                f"{value!r} has an empty clause (the comma at character {empty}); uv and "
                f"PEP 508 refuse it: write {fixed!r}",
            )
            return None
        try:
            SpecifierSet(value)
        except InvalidSpecifier:
            self.p.add(
                "torch",
                f'{value!r} is neither a version ("2.1.0"), '
                'a specifier (">=2.1,<2.3") nor "latest"',
            )
            return None
        return value

    def _companion(self, key: str) -> bool | str:
        value = self.data.get(key, True)
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            try:
                Version(value)
            except InvalidVersion:
                self.p.add(
                    key,
                    f"{value!r} is not a version; "
                    'use true, false or an exact version such as "0.16.0"',
                )
                return True
            return value
        self.p.add(
            key,
            "expected true, false or a quoted version, "
            f"got {_type_name(value)}{_quote_hint(value)}",
        )
        return True

    def _accelerators(self) -> tuple[tuple[str, ...], bool]:
        value = self.data.get("accelerators", ["cpu"])
        if value == "all":
            return (), True
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.p.add(
                "accelerators",
                f'expected a list such as [cpu, cu118] or "all", got {_type_name(value)}',
            )
            return (), False
        if not value:
            self.p.add("accelerators", "the list is empty; name at least one, e.g. [cpu]")
        out: list[str] = []
        for i, item in enumerate(value):
            where = f"accelerators[{i}]"
            if not isinstance(item, str):
                self.p.add(
                    where,
                    f"expected a string such as cu118, got {_type_name(item)}{_quote_hint(item)}",
                )
                continue
            if item == "all":
                self.p.add(where, '"all" stands alone: write `accelerators: all`')
                continue
            if not _ACCEL_RE.fullmatch(item):
                hint = ""
                low = item.lower().replace("cuda", "cu").replace(".", "").replace("-", "")
                if _ACCEL_RE.fullmatch(low):
                    hint = f" (did you mean {low!r}?)"
                self.p.add(
                    where,
                    f"{item!r} is not a compute platform; "
                    f"use cpu, cuXYZ (cu118), rocmX.Y (rocm6.1) or xpu{hint}",
                )
                continue
            if item in out:
                self.p.add(where, f"{item} is listed twice")
                continue
            out.append(item)
        return tuple(out), False

    def _choices(
        self, key: str, choices: tuple[str, ...], *, default: tuple[str, ...]
    ) -> tuple[str, ...]:
        value = self.data.get(key, list(default))
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.p.add(key, f"expected a list of {', '.join(choices)}; got {_type_name(value)}")
            return default
        if not value:
            self.p.add(key, f"the list is empty; choose from {', '.join(choices)}")
        out: list[str] = []
        for i, item in enumerate(value):
            where = f"{key}[{i}]"
            if not isinstance(item, str) or item not in choices:
                self.p.add(
                    where,
                    f"{item!r} is not one of {', '.join(choices)}"
                    f"{did_you_mean(str(item), choices)}",
                )
                continue
            if item in out:
                self.p.add(where, f"{item} is listed twice")
                continue
            out.append(item)
        return tuple(out) or default

    def _pip(self) -> tuple[str, ...]:
        value = self.data.get("pip", [])
        if not isinstance(value, list):
            self.p.add(
                "pip",
                f'expected a list of requirements such as ["numpy<2"], got {_type_name(value)}',
            )
            return ()
        out: list[str] = []
        seen: dict[str, int] = {}
        for i, item in enumerate(value):
            where = f"pip[{i}]"
            if not isinstance(item, str):
                self.p.add(
                    where,
                    "expected a PEP 508 requirement string, "
                    f"got {_type_name(item)}{_quote_hint(item)}",
                )
                continue
            if unsafe_character(item) is not None:
                continue  # parse_spec names the character and its position (a newline would add
                # lines, an index option among them, to requirements.in / .txt)
            if re.search(r"\s#", item):
                # Written one per line into requirements.in / .txt: pip cuts a line at ` #`.
                self.p.add(
                    where,
                    f"{item!r} holds ` #`; a requirement is one line of a requirements file "
                    "(pip reads ` #` as the start of a comment)",
                )
                continue
            if "${" in item:
                # pip, pip-compile and uv replace `${NAME}` in a requirements file with the
                # variable's value: a marker `!= '${TOKEN}'` wrote it into the lock.
                self.p.add(
                    where,
                    f"{item!r} holds `${{` at character {item.index('${') + 1}; pip and uv "
                    "replace ${NAME} in a requirements file with an environment variable's "
                    "value, which would be written into the lock; write the value itself",
                )
                continue
            try:
                req = Requirement(item)
            except InvalidRequirement as exc:
                self.p.add(where, f"{item!r} is not a valid requirement: {exc}")
                continue
            try:
                Requirement(str(req))  # what requirements files, exports and locks are given
            except InvalidRequirement:
                # `"a\\"`: packaging reads the backslash as an escape, then writes `"a\"`,
                # which nothing reads back (lock, check and export ended in an internal error).
                self.p.add(
                    where,
                    f"{item!r} does not read back once written ({str(req)!r}); PEP 508 strings "
                    "have no escapes: write the marker without a backslash",
                )
                continue
            if req.url:
                self.p.add(
                    where,
                    f"{item!r}: direct URL requirements cannot be locked reproducibly; "
                    "pin a version",
                )
                continue

            name = canonicalize_name(req.name)
            if name in TORCH_FAMILY:
                self.p.add(
                    where,
                    f"{req.name} is set by the `torch`/`{name}` keys, not under pip:; "
                    "remove it here",
                )
                continue
            if name in seen:
                self.p.add(where, f"{req.name} is already listed at pip[{seen[name]}]; merge them")
                continue
            seen[name] = i
            out.append(str(req))
        return tuple(out)

    def _conda(self) -> CondaSection:
        value = self._section("conda", "with channels and dependencies")
        if value is None:
            return CondaSection()
        self._unknown_keys(value, "conda", CONDA_KEYS)
        channels = self._str_list(
            value, "conda", "channels", CHANNEL_RE, "a channel name such as conda-forge"
        )
        deps = self._str_list(
            value,
            "conda",
            "dependencies",
            CONDA_DEP_RE,
            'a conda match spec such as ffmpeg or "ffmpeg>=6"',
        )
        for i, dep in enumerate(deps):
            # conda names are matched case-insensitively (`Pytorch` is pytorch), and a channel
            # prefix (`pytorch::pytorch`) names the same package.
            name = re.split(r"[\s=<>!~\[]", dep, maxsplit=1)[0].rpartition("::")[2].lower()
            if name in _SET_BY_ENVGEN:
                self.p.add(
                    f"conda.dependencies[{i}]",
                    f"{dep!r} is set by envgen from torch/python; remove it here",
                )
        source = value.get("source")
        if source is not None and not self._one_of("conda.source", source, CONDA_SOURCES):
            source = None
        return CondaSection(channels=channels, dependencies=deps, source=source)  # type: ignore[arg-type]  # checked

    def _str_list(
        self,
        mapping: dict[object, object],
        parent: str,
        key: str,
        pattern: re.Pattern[str],
        what: str,
    ) -> tuple[str, ...]:
        value = mapping.get(key, [])
        where = f"{parent}.{key}"
        if not isinstance(value, list):
            self.p.add(where, f"expected a list, got {_type_name(value)}")
            return ()
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or not pattern.fullmatch(item):
                self.p.add(f"{where}[{i}]", f"{item!r} is not {what}")
                continue
            if item not in out:
                out.append(item)
        return tuple(out)

    def _lock(self) -> SpecLockSettings:
        value = self._section("lock", f"({', '.join(LOCK_KEYS)})")
        if value is None:
            return SpecLockSettings()
        self._unknown_keys(value, "lock", LOCK_KEYS)
        exclude = value.get("exclude_newer")
        date: dt.date | None = None
        if isinstance(exclude, dt.datetime):
            date = exclude.date()
        elif isinstance(exclude, dt.date):
            date = exclude
        elif isinstance(exclude, str):
            try:
                if not _DATE_RE.fullmatch(exclude):  # fromisoformat takes 20210630 too
                    raise ValueError(exclude)  # the same message as a bad date
                date = dt.date.fromisoformat(exclude)
            except ValueError:
                self.p.add(
                    "lock.exclude_newer",
                    f"{exclude!r} is not a date; write YYYY-MM-DD, e.g. 2021-06-30",
                )
        elif exclude is not None:
            self.p.add(
                "lock.exclude_newer", f"expected a date YYYY-MM-DD, got {_type_name(exclude)}"
            )
        resolver = value.get("resolver", "uv")
        if not self._one_of("lock.resolver", resolver, RESOLVERS):
            resolver = "uv"
        return SpecLockSettings(exclude_newer=date, resolver=resolver)  # type: ignore[arg-type]  # checked

    def _url(self, key: str) -> str | None:
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            self.p.add(key, f"expected a URL string, got {_type_name(value)}")
            return None
        trusted = host_of(value) in self.trusted_hosts
        problem = check_index_url(value, trusted=trusted)
        if problem:
            self.p.add(key, problem)
            return None
        return value.rstrip("/")

    def _trusted_hosts(self) -> tuple[str, ...]:
        value = self.data.get("trusted_hosts", [])
        if not isinstance(value, list):
            self.p.add("trusted_hosts", f"expected a list of host names, got {_type_name(value)}")
            return ()
        out: list[str] = []
        for i, item in enumerate(value):
            if not isinstance(item, str) or not _HOST_RE.fullmatch(item):
                self.p.add(
                    f"trusted_hosts[{i}]",
                    f"{item!r} is not a host name (letters, digits, '.', '-'; no scheme or port)",
                )
                continue
            if item not in out:
                out.append(item)
        return tuple(out)

    def _write_index(self) -> str:
        value = self.data.get("write_index", "official")
        return str(value) if self._one_of("write_index", value, WRITE_INDEX_CHOICES) else "official"

    def _torch_from(self) -> str:
        value = self.data.get("torch_from", "published")
        return str(value) if self._one_of("torch_from", value, TORCH_FROM_CHOICES) else "published"

    def _ci(self) -> SpecCiSettings:
        value = self._section("ci", f"({', '.join(CI_KEYS)})")
        if value is None:
            return SpecCiSettings()
        unknown = self._unknown_keys(value, "ci", CI_KEYS)
        out: dict[str, str] = {}
        for key, item in value.items():
            if key in unknown:
                continue
            if key == "install":
                install = ci_install(item) if isinstance(item, str) else None
                if install is None:
                    self.p.add(
                        "ci.install", f"{excerpt(repr(item), 80)} is not {_CI_INSTALL_FORMS}"
                    )
                    continue
                out["install"] = install
                continue
            if not isinstance(item, str) or not _CI_LABEL_RE.fullmatch(item):
                self.p.add(
                    f"ci.{key}",
                    f"{item!r} is not a runner label (letters, digits, '.', '_', '-', ',')",
                )
                continue
            out[str(key)] = item
        return SpecCiSettings(**out)
