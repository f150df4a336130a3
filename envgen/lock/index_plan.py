"""Where a variant's pip side resolves and installs from: the indexes (`IndexPlan`), how they are
written for pip and uv (`index_routes`, the PIP_* / UV_* variables), and the uv target options
(`uv_python_platform`, `exclude_newer_timestamp`). Shared by the pip and conda lockers, the
legacy (pip 20) locker, pylock.toml, the builders and the vault, so none of them imports another
locker for it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass

from packaging.utils import canonicalize_name

from envgen.infra import proc as _proc
from envgen.model.targets import load_targets
from envgen.model.types import PYPI_SIMPLE, Platform
from envgen.model.variants import Variant
from envgen.render.indexes import IndexUrls


def uv_python_platform(platform: Platform, *, glibc: str | None = None) -> str:
    """uv's --python-platform for a variant platform; `glibc` overrides the manylinux level.

    >>> uv_python_platform("linux-64"), uv_python_platform("linux-aarch64", glibc="2.17")
    ('x86_64-manylinux_2_28', 'aarch64-manylinux_2_17')
    >>> uv_python_platform("osx-arm64", glibc="2.17")
    'aarch64-apple-darwin'
    """
    target = load_targets().uv_python_platform(platform)  # matrices/targets.yaml
    arch, _, abi = target.partition("-")
    if glibc is None or not abi.startswith("manylinux_"):
        return target
    return f"{arch}-manylinux_{glibc.replace('.', '_')}"


def exclude_newer_timestamp(date: dt.date) -> str:
    """The cutoff given to uv: the start of `date` in UTC (uv would read a bare date as local time).

    >>> exclude_newer_timestamp(dt.date(2024, 1, 31))
    '2024-01-31T00:00:00Z'
    """
    return f"{date.isoformat()}T00:00:00Z"


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexPlan:
    """Where a variant's packages come from: the PyTorch index (if any) and PyPI (real URLs)."""

    pytorch: str | None
    flat: bool  # the PyTorch side is a find-links page (torch_stable.html), not a PEP 503 index
    pypi: str
    # Extension wheel indexes (envgen.model.extensions): (package, real URL, flat).
    extensions: tuple[tuple[str, str, bool], ...] = ()
    # Extensions the PyTorch index serves per CUDA (xformers): routed there like torch.
    pytorch_routed: tuple[str, ...] = ()

    def describe(self, routed: Iterable[str]) -> str:
        """The indexes asked, redacted, for messages."""
        pypi = _proc.redact(self.pypi)
        pages: dict[str, list[str]] = {}
        for package, url, _ in self.extensions:
            pages.setdefault(url, []).append(package)
        extensions = "".join(
            f"; {_proc.redact(url)} (for {', '.join(sorted(names))})"
            for url, names in pages.items()
        )
        if self.pytorch is None:
            rest = "everything else" if extensions else "all packages"
            return f"{pypi} ({rest}){extensions}"
        names = ", ".join(sorted(routed)) or "torch"
        kind = "find-links page" if self.flat else "PyTorch index"
        return (
            f"{kind} {_proc.redact(self.pytorch)} (for {names}); {pypi} (everything else)"
            f"{extensions}"
        )


def index_plan(variant: Variant, urls: IndexUrls) -> IndexPlan:
    """The indexes to resolve a variant's pip side against (real URLs, maybe with credentials)."""
    pypi = (urls.pypi or PYPI_SIMPLE).rstrip("/")
    build = variant.pip
    extensions = tuple(
        (
            canonicalize_name(pin.package),
            urls.extension(pin.index_line.partition(" ")[2]),
            pin.index_line.startswith("--find-links "),
        )
        for pin in variant.extensions
        if pin.index_line is not None
    )
    if build is None or build.index == "pypi" or build.url is None or build.wheel is not None:
        # A row that names its torch wheel resolves against PyPI only: torch is a direct URL.
        return IndexPlan(pytorch=None, flat=False, pypi=pypi, extensions=extensions)
    return IndexPlan(
        pytorch=urls.pytorch(build.url).rstrip("/"),
        flat=build.index == "find-links",
        pypi=pypi,
        extensions=extensions,
        pytorch_routed=tuple(
            sorted(canonicalize_name(p.package) for p in variant.extensions if p.from_pytorch_index)
        ),
    )


@dataclass(frozen=True)
class IndexRoutes:
    """A plan's indexes in the three roles pip and uv both know (real URLs, in order)."""

    index_url: str
    extra_index_urls: tuple[str, ...]
    find_links: tuple[str, ...]


def index_routes(variant: Variant, plan: IndexPlan) -> IndexRoutes:
    """The variant's published index form (index-url / extra-index-url / find-links), PyPI, and
    the extensions' pages (envgen.model.extensions) after them, each once."""
    form = variant.pip.index if variant.pip is not None else "pypi"
    index_url, extra, links = plan.pypi, [], []
    if plan.pytorch is not None:
        if form == "index-url":
            index_url, extra = plan.pytorch, [plan.pypi]
        elif form == "find-links":
            links = [plan.pytorch]
        else:
            extra = [plan.pytorch]
    extra += [url for _, url, flat in plan.extensions if not flat]
    links += [url for _, url, flat in plan.extensions if flat]
    return IndexRoutes(index_url, tuple(dict.fromkeys(extra)), tuple(dict.fromkeys(links)))


def pip_index_environment(variant: Variant, plan: IndexPlan) -> dict[str, str]:
    """pip's index variables (PIP_INDEX_URL, ...; lists space-separated) for a variant's plan.

    The URLs (a mirror's may carry credentials) travel in the child's environment, which only
    its owner can read, not in its argument list, which every local user sees in `ps`.
    """
    routes = index_routes(variant, plan)
    env = {"PIP_INDEX_URL": routes.index_url}
    if routes.extra_index_urls:
        env["PIP_EXTRA_INDEX_URL"] = " ".join(routes.extra_index_urls)
    if routes.find_links:
        env["PIP_FIND_LINKS"] = " ".join(routes.find_links)
    return env


def uv_index_environment(variant: Variant, plan: IndexPlan) -> dict[str, str]:
    """uv's index variables for a variant's plan: UV_EXTRA_INDEX_URL is space-separated,
    UV_FIND_LINKS comma-separated (uv's EnvVars docs)."""
    routes = index_routes(variant, plan)
    env = {"UV_INDEX_URL": routes.index_url}
    if routes.extra_index_urls:
        env["UV_EXTRA_INDEX_URL"] = " ".join(routes.extra_index_urls)
    if routes.find_links:
        env["UV_FIND_LINKS"] = ",".join(routes.find_links)
    return env
