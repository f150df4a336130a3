"""The pip side of a full lock: a variant's pins -> a hash-pinned requirements.txt body.

Resolves with `uv pip compile` (default) or `pip-compile` (pip-tools) in the request's private
work directory, for the variant's python and platform, with every torch-family package taken
from the variant's PyTorch index and everything else from PyPI (docs/explanation/indexes.md says
why and how). The body starts with the index lines envgen writes itself, so that a plain
`pip install --require-hashes -r requirements.txt` works.

This module must not write outside `request.workdir`, must not start processes except through
envgen.infra.proc, and must never put credentials (`https://user:token@host`) into a body, a log
line
or an error message. It reads the network only to ask the PyTorch index which projects it hosts
and whether it publishes upload times.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html.parser
import json
import logging
import os
import platform as host_platform
import re
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import quote, unquote, urljoin, urlsplit, urlunsplit

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import (
    InvalidWheelFilename,
    canonicalize_name,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from envgen.errors import LockError, NetworkError
from envgen.infra import network
from envgen.infra import proc as _proc
from envgen.infra.network import Index, mirror_hint, network_failure_host
from envgen.infra.proc import split_credentials
from envgen.infra.settings import uv_http_timeout
from envgen.lock.index_plan import (
    IndexPlan,
    exclude_newer_timestamp,
    index_plan,
    pip_index_environment,
    uv_python_platform,
)
from envgen.lock.legacy import PIP_VERSION, is_legacy, lock_with_pip20
from envgen.lock.locker import LockedFile, LockRequest
from envgen.lock.piplock import PipLock
from envgen.lock.pythons import build_interpreter
from envgen.model import era
from envgen.model.build_deps import pyproject_section, undeclared_runtime
from envgen.model.package_issues import undeclared_imports, understated_requirements
from envgen.model.targets import load_targets
from envgen.model.types import RESOLVERS, TORCH_FAMILY, Manager, Platform
from envgen.model.variants import Variant
from envgen.render.indexes import IndexUrls
from envgen.render.requirements import requirement_lines, written_index_lines

log = logging.getLogger(__name__)

LOCK_NAME: Final = "requirements.txt"

# Projects the PyTorch index serves (the torch family, with its triton builds): locked from there.
PYTORCH_INDEX_PROJECTS: Final = frozenset(
    {
        "torch",
        "torchvision",
        "torchaudio",
        "triton",
        "pytorch-triton",
        "pytorch-triton-rocm",
        "pytorch-triton-xpu",
    }
)
# CUDA runtime wheels (nvidia-cudnn-cu12, nvidia-cuda-runtime-cu11, cuda-bindings, ...).
PYTORCH_INDEX_PREFIXES: Final = ("nvidia-", "cuda-")

# The names of the uv indexes in the generated pyproject.toml; uv reads their credentials from
# UV_INDEX_<NAME>_USERNAME / _PASSWORD, so no credential is ever written to disk.
_PYTORCH_INDEX_NAME: Final = "pytorch"
_PYPI_INDEX_NAME: Final = "pypi"
_PROJECT_NAME: Final = "envgen-lock"
_OUTPUT: Final = "requirements.lock.txt"
_OPTION_PREFIXES: Final = (
    "-i",
    "-f",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "--trusted-host",
    "--no-index",
)
_SIMPLE_JSON: Final = "application/vnd.pypi.simple.v1+json"
# torch's project page, asked by the upload-time probe and the runtime prediction alike.
_TORCH_PAGE_ACCEPT: Final = f"{_SIMPLE_JSON}, text/html;q=0.1"
_PROBE_TIMEOUT_S: Final = 30.0


def is_torch_family(name: str) -> bool:
    """Whether a project belongs on the PyTorch index rather than PyPI.

    >>> is_torch_family("Torch"), is_torch_family("nvidia_cudnn_cu12"), is_torch_family("numpy")
    (True, True, False)
    """
    normalized = canonicalize_name(name)
    return normalized in PYTORCH_INDEX_PROJECTS or normalized.startswith(PYTORCH_INDEX_PREFIXES)


def _toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def render_pyproject(requirements: Iterable[str], plan: IndexPlan, routed: Iterable[str]) -> str:
    """The throwaway pyproject.toml uv compiles: `routed` projects come only from the PyTorch index.

    URLs are written without credentials (uv gets them from the environment).
    """
    deps = "".join(f"  {_toml_string(r)},\n" for r in requirements)
    text = f'[project]\nname = "{_PROJECT_NAME}"\nversion = "0"\ndependencies = [\n{deps}]\n'
    if plan.pytorch is not None:
        url, _, _ = split_credentials(plan.pytorch)
        text += (
            f'\n[[tool.uv.index]]\nname = "{_PYTORCH_INDEX_NAME}"\nurl = {_toml_string(url)}\n'
            + ('format = "flat"\n' if plan.flat else "")
            + "explicit = true\n"
        )
    pypi, _, _ = split_credentials(plan.pypi)
    text += (
        f'\n[[tool.uv.index]]\nname = "{_PYPI_INDEX_NAME}"\nurl = {_toml_string(pypi)}\n'
        "default = true\n"
    )
    names = sorted({canonicalize_name(n) for n in routed})
    sources = (
        [f'{n} = {{ index = "{_PYTORCH_INDEX_NAME}" }}\n' for n in names] if plan.pytorch else []
    )
    named: dict[str, str] = {}
    for package, ext_url, flat in plan.extensions:
        # Each extension only from its own wheel index (the one requirements.txt names).
        if ext_url not in named:
            named[ext_url] = f"extension-{len(named)}"
            text += (
                f'\n[[tool.uv.index]]\nname = "{named[ext_url]}"\n'
                f"url = {_toml_string(split_credentials(ext_url)[0])}\n"
                + ('format = "flat"\n' if flat else "")
                + "explicit = true\n"
            )
        sources.append(f'{package} = {{ index = "{named[ext_url]}" }}\n')
    if sources:
        text += "\n[tool.uv.sources]\n" + "".join(sources)
    return text


def pin_lines(output: str, *, drop_urls: Iterable[str] = ()) -> list[str]:
    """The requirement lines (with their hash continuation lines) of a resolver's output.

    Option lines (index URLs, find-links, trusted hosts) and comments are dropped: envgen writes
    its own index lines. So is any requirement that names one of `drop_urls`.
    """
    drop = [u for u in drop_urls if u]
    entries: list[list[str]] = []
    for raw in output.splitlines():
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if raw[:1].isspace() and entries:
            entries[-1].append(line)
            continue
        if stripped.startswith(_OPTION_PREFIXES):
            entries.append([])  # an option line: swallow it and any continuation
            continue
        entries.append([line])
    lines: list[str] = []
    for entry in entries:
        if not entry:
            continue
        if any(u in part for part in entry for u in drop):
            log.warning("dropped from the lock, it names an index URL: %s", _proc.redact(entry[0]))
            continue
        lines += entry
    return lines


def failure_lines(stderr: str) -> list[str]:
    """The resolver's own explanation ("Because ... we can conclude ...", hints), redacted.

    >>> failure_lines("warning: x\\nerror: No solution found\\n  cause: Because a\\n\\nhint: b\\n")
    ['error: No solution found', '  cause: Because a', 'hint: b']
    """
    lines = [line.rstrip() for line in _proc.redact(stderr).splitlines()]
    start = next((i for i, line in enumerate(lines) if line.startswith(("error:", "ERROR:"))), None)
    if start is None:
        picked = [line for line in lines if line.strip() and not line.startswith("warning:")]
        return picked[-25:]
    return [line for line in lines[start:] if line.strip()][:40]


def running_platform(system: str | None = None, machine: str | None = None) -> Platform | None:
    """The variant platform of this interpreter (None when envgen knows no such platform).

    >>> running_platform("linux", "x86_64"), running_platform("darwin", "arm64")
    ('linux-64', 'osx-arm64')
    """
    system = system if system is not None else sys.platform
    machine = (machine if machine is not None else host_platform.machine()).lower()
    system = "linux" if system.startswith("linux") else system
    return load_targets().host_platform(system, machine)


# --- talking to the PyTorch index ---------------------------------------------------------------


def _get(url: str, accept: str, timeout: float) -> tuple[str, bytes]:
    """GET a URL once (envgen.infra.network.http_get): (content type, body)."""
    answer = network.http_get(url, headers={"Accept": accept}, timeout=timeout)
    return answer.content_type, answer.body


Getter = Callable[[str, str, float], tuple[str, bytes]]


class PageCache:
    """The PyTorch index's pages for one lock run, each fetched once for all its variants.

    Every variant on one index asks for the same pages (the index root and torch's project page,
    and torch's METADATA where two variants need the same wheel): 6 variants fetched them 6-12
    times. A page is kept for the lock run only
    (the locker holds the cache), so a later run sees the index as it is then. A failed fetch
    is not kept. Two threads asking for one page wait for one fetch.
    """

    _MAX_PAGES: Final = 64  # bodies are bounded by http_get; a lock asks for a handful of pages

    def __init__(self) -> None:
        self._pages: dict[tuple[str, str], tuple[str, bytes]] = {}
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, url: str, accept: str, timeout: float) -> tuple[str, bytes]:
        key = (url, accept)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            found = self._pages.get(key)
            if found is not None:
                return found
            page = _get(url, accept, timeout)
            with self._guard:
                if len(self._pages) < self._MAX_PAGES:
                    self._pages[key] = page
            return page


class _Anchors(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.items: list[tuple[str, str]] = []  # (href, text)
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._href = dict(attrs).get("href") or ""
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.items.append((self._href, "".join(self._text).strip()))
            self._href = None


def _anchors(text: str) -> list[tuple[str, str]]:
    parser = _Anchors()
    parser.feed(text)
    return parser.items


def projects_on_index(plan: IndexPlan, timeout: float, get: Getter = _get) -> frozenset[str] | None:
    """Normalized names of the projects the PyTorch index (or find-links page) hosts.

    None when it cannot be read: the caller then routes only the direct torch pins.
    """
    if plan.pytorch is None:
        return frozenset()
    try:
        if plan.flat:
            _, body = get(plan.pytorch, "text/html", timeout)
            names: set[str] = set()
            for href, _ in _anchors(body.decode("utf-8", "replace")):
                filename = unquote(urlsplit(href).path.rsplit("/", 1)[-1])
                try:
                    names.add(parse_wheel_filename(filename)[0])
                except InvalidWheelFilename:
                    continue
            return frozenset(names)
        ctype, body = get(plan.pytorch + "/", f"{_SIMPLE_JSON}, text/html;q=0.1", timeout)
        if ctype.startswith(_SIMPLE_JSON):
            data = json.loads(body)
            return frozenset(canonicalize_name(p["name"]) for p in data.get("projects", ()))
        return frozenset(
            canonicalize_name(text or href.rstrip("/").rsplit("/", 1)[-1])
            for href, text in _anchors(body.decode("utf-8", "replace"))
        )
    except (NetworkError, ValueError, KeyError, TypeError) as exc:
        log.warning(
            "could not list the projects on %s (%s); only the direct torch pins are taken "
            "from it, other torch-family packages come from PyPI",
            _proc.redact(plan.pytorch),
            _proc.redact(str(exc)),
            extra={"envgen_transient": True},  # this run's network: no build stamp keeps it
        )
        return None


def target_environment(variant: Variant) -> dict[str, str]:
    """The PEP 508 marker environment of a variant's target (not the host; for Requires-Dist)."""
    return {
        "python_version": variant.python,
        "python_full_version": _full(variant.resolution_python),
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        **load_targets().markers(variant.platform),
    }


def _full(version: str) -> str:
    return version if version.count(".") >= 2 else f"{version}.0"


def runtime_requirements(metadata: str, environment: dict[str, str]) -> list[str]:
    """Torch-family names in a METADATA's Requires-Dist whose markers hold on the target.

    >>> runtime_requirements(
    ...     "Requires-Dist: filelock\\nRequires-Dist: triton==3.1.0; platform_system == 'Linux'\\n"
    ...     "Requires-Dist: nvidia-cudnn-cu12==9.1.0.70; sys_platform == 'linux'\\n",
    ...     {"platform_system": "Linux", "sys_platform": "linux"},
    ... )
    ['nvidia-cudnn-cu12', 'triton']
    """
    found: set[str] = set()
    for line in metadata.splitlines():
        if not line.startswith("Requires-Dist:"):
            continue
        try:
            req = Requirement(line.removeprefix("Requires-Dist:").strip())
        except InvalidRequirement:
            continue
        name = canonicalize_name(req.name)
        if not is_torch_family(name) or name in TORCH_FAMILY:
            continue
        if req.marker is None or req.marker.evaluate({**environment, "extra": ""}):
            found.add(name)
    return sorted(found)


def predict_runtime(
    plan: IndexPlan, variant: Variant, timeout: float, get: Getter = _get
) -> list[str] | None:
    """torch's runtime wheels (triton, nvidia-*) for the target, read from its PEP 658 metadata.

    Lets one uv pass route them to the PyTorch index. None when the index offers no JSON page or
    no metadata file for the pin: the caller then learns them from a first resolution instead.
    """
    if plan.pytorch is None or plan.flat or variant.pip is None:
        return None
    pin = Version(variant.pip.torch)
    tag = "cp" + variant.python.replace(".", "")
    try:
        # The upload-time probe asks for the same page with the same Accept: one fetch.
        ctype, body = get(plan.pytorch + "/torch/", _TORCH_PAGE_ACCEPT, timeout)
        if not ctype.startswith(_SIMPLE_JSON):
            return None
        for entry in json.loads(body).get("files", ()):
            filename = str(entry.get("filename", ""))
            # A wheel for `tag` names it in its file name: the others (most of a torch page's
            # 100-700 files) are passed over before the costly parse.
            if not filename.endswith(".whl") or tag not in filename:
                continue
            if not entry.get("core-metadata"):
                continue
            _, version, _, tags = parse_wheel_filename(filename)
            if version != pin or not any(t.interpreter == tag for t in tags):
                continue
            url = urljoin(plan.pytorch + "/torch/", str(entry["url"])) + ".metadata"
            _, meta = get(_with_auth(url, plan.pytorch), "*/*", timeout)
            return runtime_requirements(
                meta.decode("utf-8", "replace"), target_environment(variant)
            )
    except (NetworkError, ValueError, KeyError, TypeError, InvalidWheelFilename, InvalidVersion):
        return None
    return None


def _with_auth(url: str, base: str) -> str:
    """Carry `base`'s credentials to `url` when both are on the same host."""
    bare_base, user, token = split_credentials(base)
    if user is None and token is None:
        return url
    parts, base_parts = urlsplit(url), urlsplit(bare_base)
    if parts.netloc != base_parts.netloc:
        return url
    auth = f"{quote(user or '', safe='')}:{quote(token or '', safe='')}@"
    return urlunsplit((parts.scheme, auth + parts.netloc, parts.path, parts.query, parts.fragment))


def has_upload_times(plan: IndexPlan, timeout: float, get: Getter = _get) -> bool | None:
    """Whether the PyTorch index gives PEP 700 upload times (asked on its `torch` project page);
    None when it did not answer (a later probe of it in the same lock need not wait again)."""
    if plan.pytorch is None:
        return True
    if plan.flat:
        return False  # a find-links page is plain HTML: no upload times
    try:
        ctype, body = get(plan.pytorch + "/torch/", _TORCH_PAGE_ACCEPT, timeout)
        if not ctype.startswith(_SIMPLE_JSON):
            return False
        files = json.loads(body).get("files", [])
        return bool(files) and all("upload-time" in f for f in files)
    except NetworkError as exc:
        log.debug("upload-time probe of %s failed: %s", _proc.redact(plan.pytorch), exc)
        return None
    except (ValueError, AttributeError) as exc:
        log.debug("upload-time probe of %s failed: %s", _proc.redact(plan.pytorch), exc)
        return False


# --- the locker ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class _Compiled:
    pins: list[str]
    routed: tuple[str, ...]


class PipLocker:
    """Lock the pip side of a variant with uv (default) or pip-tools."""

    manager: Manager = "pip"

    def __init__(self, *, resolver: str = "uv") -> None:
        if resolver not in RESOLVERS:
            msg = f"unknown pip resolver {resolver!r}; choose one of {', '.join(RESOLVERS)}"
            raise LockError(msg)
        self.resolver = resolver
        self._pages = PageCache()  # one locker serves one lock run (make_lockers)

    def lock(self, request: LockRequest) -> tuple[LockedFile, ...]:
        """Resolve the variant's pip side; one LockedFile named requirements.txt."""
        variant = request.variant
        if variant.pip is None:
            return ()
        plan = index_plan(variant, request.urls)
        _write_constraints(request)
        if is_legacy(variant.python):
            pins = self._lock_legacy(request, plan)
        elif self.resolver == "pip-tools":
            pins = self._lock_pip_tools(request, plan)
        else:
            pins = self._lock_uv_dated(request, plan)
        drop = _foreign_urls(request.urls, request.written_urls)
        pins = pin_lines("\n".join(_written_wheel(pins, request)), drop_urls=drop)
        lock = PipLock.from_parts(
            written_index_lines(variant, request.written_urls),
            "\n".join(pins),
            source=f"{variant.id}: {self.resolver} output",
        )
        # A pinned release that imports what it does not declare (keras 2.x: tensorflow) and the
        # lock lacks: named, with the requirement to add (matrices/package-issues.yaml).
        declared = [Requirement(r).name for r in requirement_lines(variant)]
        for note in [
            *undeclared_imports(lock.versions()),
            *understated_requirements(lock.versions(), declared=declared),
        ]:
            log.warning("%s: %s", variant.id, note)
        unhashed = [p.text for p in lock.pins if not p.hashes]
        if unhashed:
            # uv 0.13 leaves out the hash of a flat-page file whose link carries `#sha256=`.
            msg = (
                f"{variant.id}: {self.resolver} wrote no hash for {', '.join(unhashed)}; "
                "`pip install --require-hashes` would refuse the lock, so nothing was written"
            )
            raise LockError(msg, hint="check the find-links pages those packages come from")
        body = lock.body()
        if _proc.redact(body) != body:  # a credential slipped through: never write it
            msg = f"{variant.id}: the lock would contain a credential-bearing URL; nothing written"
            raise LockError(msg)
        return (LockedFile(name=LOCK_NAME, body=body),)

    # --- uv ---

    def _lock_uv_dated(self, request: LockRequest, plan: IndexPlan) -> list[str]:
        """uv with the release's era date when the spec sets none (envgen.model.era).

        The era date is envgen's inference, not the user's: an index that gives no upload times
        (a mirror, a wheel page) loses every file to it, so when uv says a package was filtered
        by the date, the lock is made again without it, and the log says so. A date the user
        set (lock.exclude_newer, --as-of) is never dropped.
        """
        dated = _with_era(request)
        try:
            return self._lock_uv(dated, plan).pins
        except LockError as exc:
            if dated is request or _FILTERED_BY_DATE not in str(exc):
                raise
        log.warning(
            "%s: the era date %s removed packages an index lists without upload times; "
            "locked without it (set lock.exclude_newer to choose a date)",
            request.variant.id,
            dated.exclude_newer,
        )
        return self._lock_uv(request, plan).pins

    def _lock_uv(self, request: LockRequest, plan: IndexPlan) -> _Compiled:
        variant = request.variant
        requirements = requirement_lines(variant, request.urls)
        named = {canonicalize_name(Requirement(r).name) for r in requirements}
        # What `import torch` needs but torch does not declare (envgen.model.build_deps).
        requirements += [
            r
            for r in undeclared_runtime(variant.release.torch)
            if canonicalize_name(Requirement(r).name) not in named
        ]
        direct = {canonicalize_name(Requirement(r).name) for r in requirements}
        # The user's ENVGEN_HTTP_TIMEOUT bounds the probe as it bounds uv.
        timeout = min(request.http_timeout or _PROBE_TIMEOUT_S, request.timeout)
        routed: list[str] = (
            sorted(n for n in direct if is_torch_family(n) or n in plan.pytorch_routed)
            if plan.pytorch
            else []
        )
        no_times = False
        answered = True
        if request.exclude_newer is not None and plan.pytorch is not None:
            times = has_upload_times(plan, timeout, self._pages.get)
            answered = times is not None
            no_times = not times
            index = _proc.redact(split_credentials(plan.pytorch)[0])
            if no_times:  # a check resolves twice: the CLI's log handler prints a line once
                log.warning(
                    "%s: the PyTorch index at %s gives no upload times; --exclude-newer applies "
                    "to PyPI packages only; torch-family pins come from the matrix",
                    variant.id,
                    index,
                )
        # tool.uv.sources applies to direct requirements only: torch's own runtime dependencies
        # (triton, nvidia-*) would come from PyPI. Route those the index hosts as direct ones:
        # predicted from torch's metadata when the index offers it (one uv pass), else learnt
        # from a first resolution (two passes).
        # An index that just failed to answer the probe is not asked again before uv tries it.
        predicted = (
            predict_runtime(plan, variant, timeout, self._pages.get)
            if plan.pytorch and answered
            else None
        )
        if predicted:
            hosted = projects_on_index(plan, timeout, self._pages.get)
            extra = sorted(n for n in predicted if hosted is not None and n in hosted)
            if extra:
                requirements = [*requirements, *extra]
                direct |= {canonicalize_name(n) for n in extra}
                routed = sorted({*routed, *extra})
        try:
            first = self._compile_uv(request, plan, requirements, routed, no_times=no_times)
        except LockError as exc:
            older = self._older_release(request, plan, requirements, routed, exc, no_times)
            if older is None:
                raise
            raise LockError(exc.message, hint=older) from exc
        if plan.pytorch is None:
            return first
        versions = PipLock.parse("\n".join(first.pins), source=f"{variant.id}: uv").versions()
        needed = [n for n in versions if is_torch_family(n) and n not in direct]
        if not needed:
            return first
        hosted = projects_on_index(plan, timeout, self._pages.get)
        if hosted is None:
            return first
        extra = sorted(n for n in needed if n in hosted)
        if not extra:
            return first
        return self._compile_uv(
            request, plan, [*requirements, *extra], sorted({*routed, *extra}), no_times=no_times
        )

    def _older_release(
        self,
        request: LockRequest,
        plan: IndexPlan,
        requirements: list[str],
        routed: list[str],
        failed: LockError,
        no_times: bool,
    ) -> str | None:
        """Where uv says a pinned requirement's release needs what the variant's torch or the
        other pins exclude (stable-baselines3 1.6.2 requires torch>=1.11 and gym==0.21; online-dt
        pins torch 1.8.1 and gym 0.18.3), the newest release before it that they allow: one more
        resolution, with that pin relaxed to `<V`. The hint that proposes it, or None (no such
        conflict, or no release fits)."""
        found = pin_conflict(failed.message, requirements)
        if found is None:
            return None
        name, version, needs = found
        relaxed = [
            f"{name}<{version}" if _pinned_name(r) == canonicalize_name(name) else r
            for r in requirements
        ]
        try:
            again = self._compile_uv(request, plan, relaxed, routed, no_times=no_times)
        except LockError:
            return None
        pins = PipLock.parse("\n".join(again.pins), source=f"{request.variant.id}: uv").versions()
        older = pins.get(canonicalize_name(name))
        if older is None:
            return None
        torch = request.variant.release.torch
        needed = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", needs)
        why = (
            f"the variant's torch is {torch}"
            if needed is not None and is_torch_family(canonicalize_name(needed[0]))
            else "which the other pins exclude"
        )
        return (
            f"{name} {version} requires {needs} (its metadata), {why}: replace "
            f"{name}=={version} with {name}=={older}, the newest release before it that torch "
            f"{torch} and the other pins allow (a second resolution with {name}<{version})"
        )

    def _compile_uv(
        self,
        request: LockRequest,
        plan: IndexPlan,
        requirements: list[str],
        routed: list[str],
        *,
        no_times: bool,
    ) -> _Compiled:
        variant = request.variant
        uv = _proc.require("uv", why="lock pip requirements (envgen depends on uv)")
        workdir = request.workdir
        (workdir / "pyproject.toml").write_text(
            # + the build requirements old sdists do not declare (envgen.model.build_deps)
            render_pyproject(requirements, plan, routed) + pyproject_section(),
            encoding="utf-8",
        )
        output = workdir / _OUTPUT
        _seed(output, request)
        env = _uv_env(plan, workdir, request.http_timeout)
        args: list[str] = [
            uv,
            "pip",
            "compile",
            "pyproject.toml",
            "--output-file",
            _OUTPUT,
            "--python",
            # only for sdist builds; the target is --python-version/--python-platform
            build_interpreter(uv, variant.python, env, who=variant.id, cache_dir=request.cache_dir),
            "--python-version",
            variant.resolution_python,
            "--python-platform",
            uv_python_platform(variant.platform),
            "--generate-hashes",
            "--no-header",
            "--no-annotate",
            "--quiet",
        ]
        if (workdir / _CONSTRAINTS).is_file():
            args += ["--constraint", _CONSTRAINTS]
        if request.exclude_newer is not None:
            args += ["--exclude-newer", exclude_newer_timestamp(request.exclude_newer)]
            if no_times:
                # A file without an upload time is dropped by uv ("has no publish time");
                # `false` lifts the cutoff for the packages pinned to the PyTorch index.
                args += [a for n in routed for a in ("--exclude-newer-package", f"{n}=false")]
            # Extension pages are plain HTML (no upload times); their pins come from the matrix.
            args += [
                a for n, _, _ in plan.extensions for a in ("--exclude-newer-package", f"{n}=false")
            ]
        if request.upgrade:
            args.append("--upgrade")
        for name in request.upgrade_packages:
            args += ["--upgrade-package", name]
        if request.cache_dir is not None:
            # `<root>/uv`: the cache `envgen build` installs from (envgen.build.venv).
            args += ["--cache-dir", os.fspath(request.cache_dir / "uv")]
        if request.offline:
            args.append("--offline")
        result = _proc.run(
            args,
            what=f"uv pip compile for {variant.id}",
            cwd=workdir,
            env=env,
            timeout=request.timeout,
            check=False,
        )
        if result.returncode != 0:
            raise _resolve_error(
                variant, "uv", plan, routed, result.stderr, before=request.exclude_newer
            )
        return _Compiled(pins=pin_lines(output.read_text(encoding="utf-8")), routed=tuple(routed))

    # --- python 2.7 / 3.5: pip 20.3.4 under the target interpreter (envgen.lock.legacy) ---

    def _lock_legacy(self, request: LockRequest, plan: IndexPlan) -> list[str]:
        variant = request.variant
        where = running_platform()
        if variant.platform != where:
            msg = (
                f"{variant.id}: python {variant.python} is locked by pip {PIP_VERSION} running "
                f"under that python, which picks files for this machine ({where or sys.platform});"
                f" this variant targets {variant.platform}"
            )
            raise LockError(msg, hint=f"lock this variant on a {variant.platform} machine")
        if request.exclude_newer is not None:
            msg = (
                f"{variant.id}: pip {PIP_VERSION} (the last pip for python {variant.python}) has "
                f"no exclude-newer; exclude_newer {request.exclude_newer.isoformat()} cannot be "
                "honoured"
            )
            raise LockError(msg, hint="drop lock.exclude_newer / --as-of, or pin the packages")
        if self.resolver != "uv":
            log.info("%s: python %s is locked with pip %s, not %s", variant.id,
                     variant.python, PIP_VERSION, self.resolver)  # fmt: skip
        decision = era.variant_era(variant)
        if decision.date is not None:
            log.warning(
                "%s: pip %s cannot resolve as of %s (torch %s's era): the newest releases that "
                "support python %s are taken",
                variant.id, PIP_VERSION, decision.date.isoformat(), variant.release.torch,
                variant.python,
            )  # fmt: skip
        constraints = request.workdir / _CONSTRAINTS
        return lock_with_pip20(
            request,
            requirements=requirement_lines(variant, request.urls),
            index_env=pip_index_environment(variant, plan),
            constraints=constraints if constraints.is_file() else None,
        )

    # --- pip-tools ---

    def _lock_pip_tools(self, request: LockRequest, plan: IndexPlan) -> list[str]:
        variant = request.variant
        here = f"{sys.version_info.major}.{sys.version_info.minor}"
        where = running_platform()
        if variant.python != here or variant.platform != where:
            msg = (
                f"{variant.id}: pip-tools resolves only for the running interpreter and platform "
                f"(python {here} on {where or sys.platform}); this variant targets python "
                f"{variant.python} on {variant.platform}"
            )
            raise LockError(msg, hint="use `resolver: uv`, which locks for any python and platform")
        if request.exclude_newer is not None:
            msg = (
                f"{variant.id}: pip-tools has no exclude-newer (it cannot filter by upload date); "
                f"exclude_newer {request.exclude_newer.isoformat()} cannot be honoured"
            )
            raise LockError(msg, hint="use `resolver: uv`, or drop lock.exclude_newer / --as-of")
        tool = _proc.require("pip-compile", why="lock with resolver pip-tools")
        workdir = request.workdir
        (workdir / "requirements.in").write_text(
            "".join(f"{r}\n" for r in requirement_lines(variant, request.urls)),
            encoding="utf-8",
        )
        output = workdir / _OUTPUT
        _seed(output, request)
        args: list[str] = [
            tool,
            "--generate-hashes",
            "--allow-unsafe",
            "--no-header",
            "--no-annotate",
            "--no-emit-index-url",
            "--no-emit-find-links",
            "--no-emit-trusted-host",
            "--quiet",
            "--output-file",
            _OUTPUT,  # a regular file in the work dir: pip-compile renames over its target
        ]
        if (workdir / _CONSTRAINTS).is_file():
            args += ["--constraint", _CONSTRAINTS]
        if request.upgrade:
            args.append("--upgrade")
        for name in request.upgrade_packages:
            args += ["--upgrade-package", name]
        if request.cache_dir is not None:
            args += ["--cache-dir", os.fspath(request.cache_dir / "pip-tools")]
        args.append("requirements.in")
        env = _proc.clean_env()
        # The machine's pip config adds local indexes and a constraints file: ignore it.
        env["PIP_CONFIG_FILE"] = os.devnull
        # The indexes (a mirror's URL may carry credentials) go through pip's environment, which
        # only its owner can read, never its argument list, which every local user sees in `ps`.
        env.update(pip_index_environment(variant, plan))
        pip_timeout = uv_http_timeout(request.http_timeout)  # pip's --timeout: per connection
        if pip_timeout is not None:
            env["PIP_TIMEOUT"] = pip_timeout
        result = _proc.run(
            args,
            what=f"pip-compile for {variant.id}",
            cwd=workdir,
            env=env,
            timeout=request.timeout,
            check=False,
        )
        if result.returncode != 0:
            raise _resolve_error(variant, "pip-compile", plan, (), result.stderr)
        return pin_lines(output.read_text(encoding="utf-8"))


_CONSTRAINTS: Final = "envgen-constraints.txt"


def _write_constraints(request: LockRequest) -> None:
    """The known incompatibilities that apply to the variant (envgen.model.era), as a
    constraints file in the work dir; none written when none apply."""
    rows = era.variant_constraints(request.variant)
    if rows:
        text = "".join(f"{r.constraint}  # {r.id}: {r.link}\n" for r in rows)
        (request.workdir / _CONSTRAINTS).write_text(text, encoding="utf-8")


# uv's hint when --exclude-newer removed every file of a package (files with no upload time go too).
_FILTERED_BY_DATE: Final = "was filtered by `exclude-newer`"
# uv's derivation when a pinned release needs what the other pins exclude: `Because
# stable-baselines3>=1.6.2 depends on torch>=1.11 and envgen-lock depends on
# stable-baselines3==1.6.2, ...` (or `... depends on gym==0.21 ...`)
_PIN_CONFLICT: Final = re.compile(
    r"Because\s+([A-Za-z0-9][A-Za-z0-9._-]*)(?:>=|==)([A-Za-z0-9.+!_-]+?)\s+depends\s+on\s+"
    r"([A-Za-z0-9][A-Za-z0-9._-]*(?:[<>=!~]=?[A-Za-z0-9.*+!_-]+)"
    r"(?:,[<>=!~]=?[A-Za-z0-9.*+!_-]+)*)"
)


def _pinned_name(requirement: str) -> str:
    return canonicalize_name(Requirement(requirement).name)


def pin_conflict(message: str, requirements: list[str]) -> tuple[str, str, str] | None:
    """(name, version, requirement) where uv says a release the requirements pin exactly
    (`NAME==V`, not a torch-family one: torch is the project's anchor) depends on a requirement
    the rest exclude; None otherwise.

    >>> said = ("Because stable-baselines3>=1.6.2 depends on torch>=1.11 and envgen-lock "
    ...         "depends on stable-baselines3==1.6.2, we can conclude")
    >>> pin_conflict(said, ["stable-baselines3==1.6.2", "torch==1.8.1"])
    ('stable-baselines3', '1.6.2', 'torch>=1.11')
    >>> pin_conflict(said, ["stable-baselines3>=1.0", "torch==1.8.1"]) is None
    True
    """
    for found in _PIN_CONFLICT.finditer(message):
        name, version, needs = found[1], found[2].rstrip("."), found[3].rstrip(".")
        if is_torch_family(canonicalize_name(name)):
            continue
        for requirement in requirements:
            req = Requirement(requirement)
            if canonicalize_name(req.name) != canonicalize_name(name):
                continue
            specs = list(req.specifier)
            if len(specs) == 1 and specs[0].operator == "==" and specs[0].version == version:
                return req.name, version, needs
    return None


def _with_era(request: LockRequest) -> LockRequest:
    """The request with the release's era date when it has no date of its own (uv only:
    pip-tools cannot filter by upload date)."""
    if request.exclude_newer is not None:
        return request
    decision = era.variant_era(request.variant)
    if decision.date is None:
        return request
    return dataclasses.replace(request, exclude_newer=decision.date)


def _seed(output: Path, request: LockRequest) -> None:
    """Start the resolver's output file from the previous lock, so unchanged pins stay put."""
    previous = request.previous.get(LOCK_NAME)
    if previous is None or request.upgrade:
        output.unlink(missing_ok=True)
        return
    # Only the parsed pins (name, version, marker, hashes) are written, never a line of the
    # committed file: an `-r`, `-c` or option line there must not reach the resolver.
    output.write_text(PipLock.parse(previous, source=LOCK_NAME).seed_text(), encoding="utf-8")


def _uv_env(plan: IndexPlan, workdir: Path, http_timeout: float | None) -> dict[str, str]:
    env = _proc.clean_env()
    # No user or system uv.toml: only the generated pyproject.toml configures the run.
    env["XDG_CONFIG_HOME"] = env["XDG_CONFIG_DIRS"] = os.fspath(workdir / "no-config")
    env["UV_PYTHON_DOWNLOADS"] = "never"
    # clean_env drops UV_*: ENVGEN_HTTP_TIMEOUT is how a user bounds a slow index (uv: 30 s).
    uv_timeout = uv_http_timeout(http_timeout)
    if uv_timeout is not None:
        env["UV_HTTP_TIMEOUT"] = uv_timeout
    for name, url in ((_PYTORCH_INDEX_NAME, plan.pytorch), (_PYPI_INDEX_NAME, plan.pypi)):
        if url is None:
            continue
        _, user, token = split_credentials(url)
        key = name.upper()
        if user is not None:
            env[f"UV_INDEX_{key}_USERNAME"] = user
        if token is not None:
            env[f"UV_INDEX_{key}_PASSWORD"] = token
    return env


def _written_wheel(pins: Iterable[str], request: LockRequest) -> list[str]:
    """Pins with a row's direct torch wheel URL (as resolved: mirror, credentials) as written."""
    build = request.variant.pip
    direct = build.direct_urls(request.variant.python) if build is not None else {}
    out = list(pins)
    for wheel in direct.values():
        real = request.urls.pytorch(wheel)
        written = request.written_urls.pytorch(wheel)
        forms = sorted({real, split_credentials(real)[0]}, key=len, reverse=True)
        for i, line in enumerate(out):
            for form in forms:
                line = line.replace(f"@ {form}", f"@ {written}")  # noqa: PLW2901 - rewritten in place
            out[i] = line
    return out


def _foreign_urls(real: IndexUrls, written: IndexUrls) -> list[str]:
    """URLs of the real (mirror, credential-bearing, loopback) indexes the lock must not name."""
    found: set[str] = set()
    for real_url, written_url in (
        (real.pypi, written.pypi),
        (real.pytorch_root, written.pytorch_root),
    ):
        if not real_url:
            continue
        bare = split_credentials(real_url)[0].rstrip("/")
        for url in (real_url.rstrip("/"), bare):
            if url != (written_url or "").rstrip("/"):
                found.add(url)
    return sorted(found)


def _resolve_error(
    variant: Variant,
    tool: str,
    plan: IndexPlan,
    routed: Iterable[str],
    stderr: str,
    *,
    before: dt.date | None = None,
) -> LockError:
    said = failure_lines(stderr) or ["(no output)"]
    pins = ", ".join(requirement_lines(variant))
    msg = (
        f"{variant.id}: {tool} could not lock the pip side (python {variant.python}, "
        f"{variant.platform})\n"
        f"  requirements: {pins}\n"
        f"  indexes asked: {plan.describe(routed)}\n"
        f"  {tool} says:\n" + "\n".join(f"    {line}" for line in said)
    )

    indexes = [Index(role="pypi", url=plan.pypi)]
    if plan.pytorch is not None:
        indexes.insert(0, Index(role="pytorch", url=plan.pytorch))
    # an extension's wheel page (data.pyg.org, download.openmmlab.com) is asked too
    indexes += [Index(role="extension", url=url) for _, url, _ in plan.extensions]
    unreachable = network_failure_host(stderr, indexes)
    if unreachable is not None:
        # Not a pin problem: the index never answered (see envgen.infra.network).
        return LockError(_proc.redact(msg), hint=mirror_hint(unreachable.host, [unreachable.role]))
    # A release uv cannot install (matrices/package-issues.yaml), or a pin the index does not
    # have (a deleted nightly): name the nearest that installs; a project the index does not
    # have at all (a typo): the nearest existing name (matrices/pypi-top-names.txt).
    from envgen.lock.nearest import nearest_hint  # noqa: PLC0415 - only when a lock failed
    from envgen.model.package_issues import explain  # noqa: PLC0415 - as above
    from envgen.model.pypi_names import suggest_hint  # noqa: PLC0415 - as above

    near = (
        explain(stderr)
        or (nearest_hint(stderr, plan.pypi, before=before) if plan.pypi else None)
        or suggest_hint(stderr, split_credentials(plan.pypi)[0] if plan.pypi else "the index")
    )
    return LockError(
        _proc.redact(msg),
        hint=near or "check the pins and pip: extras in project.yaml against the indexes above",
    )
