"""PyPI's identical build: the PyPI route on linux-64 for 1.8.1-1.13.1 and 2.1.x.

For these releases PyTorch published the CUDA build twice: with its local label on
download.pytorch.org (`torch==1.10.0+cu102 -f torch_stable.html`) and as PyPI's own Linux wheel
under the plain version (`torch==1.10.0`), which was the quick-start's default `pip install
torch`. matrices/pypi-routes.yaml records, per release, the PyPI wheel's own facts (read from the
wheel: `torch/version.py`'s `__version__`, `cuda` and `git_version`, its Requires-Dist) that make
it that build, with the companions PyPI pairs with it. Where the matrix row is that published
default (`pypi-default: true`), the variant takes the PyPI route: the same pins without the label,
no PyTorch index, and the variant says so (`pypi_route`), so the written files and the lock name
it. A user whose network reaches PyPI (or a PyPI mirror) but not download.pytorch.org can lock.

This module must not read the network; scripts/pypi_route_facts.py (or the recorded facts in the
table's rows) is where the evidence comes from.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model.matrix import PipBuild
from envgen.model.types import Platform

TABLE: Final = MATRICES_DIR / "pypi-routes.yaml"
_KEYS: Final = frozenset(
    {"release", "cuda", "platform", "torch", "torchvision", "torchaudio", "replaces", "evidence"}
)


@dataclass(frozen=True, slots=True, kw_only=True)
class PypiRoute:
    """One release's PyPI build that is the labelled build `replaces`."""

    release: str
    cuda: str
    platform: str
    torch: str
    torchvision: str | None
    torchaudio: str | None
    replaces: str
    evidence: str


@functools.cache
def load_routes(path: Path = TABLE) -> tuple[PypiRoute, ...]:
    """The table's rows (checked: every key known, each row with its evidence)."""
    from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - PyYAML; only when a route is asked

    try:
        _, data = load_bounded(path.read_text(encoding="utf-8"), shipped=True)
    except (OSError, ValueError) as exc:
        msg = f"{path}: cannot read the PyPI route table: {exc}"
        raise MatrixError(msg) from exc
    rows = data.get("rows") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        msg = f"{path}: expected a mapping with a `rows:` list"
        raise MatrixError(msg)
    out: list[PypiRoute] = []
    for i, raw in enumerate(rows):
        if (
            not isinstance(raw, dict)
            or set(raw) != _KEYS
            or not all(isinstance(raw[k], str) for k in _KEYS - {"torchvision", "torchaudio"})
        ):
            msg = f"{path}: rows[{i}]: expected the keys {', '.join(sorted(_KEYS))}; got {raw!r}"
            raise MatrixError(msg)
        out.append(
            PypiRoute(
                release=raw["release"],
                cuda=raw["cuda"],
                platform=raw["platform"],
                torch=raw["torch"],
                torchvision=raw["torchvision"],
                torchaudio=raw["torchaudio"],
                replaces=raw["replaces"],
                evidence=raw["evidence"],
            )
        )
    return tuple(out)


def pypi_route(build: PipBuild | None, platform: Platform) -> tuple[PipBuild | None, str | None]:
    """The PyPI route of `build` when it is the published default and PyPI has the same build:
    (the route's build, the labelled torch it stands for); else (build, None)."""
    if build is None or not build.pypi_default or build.kind != "cuda" or build.index == "pypi":
        return build, None
    # A find-links row names its build by the local label (1.10.0+cu102); an index-url row (2.1.0
    # from whl/cu121) by the plain version, the index serving it as 2.1.0+cu121.
    labelled = build.torch if "+" in build.torch else f"{build.torch}+{build.accelerator}"
    for route in load_routes():
        if (
            route.release == build.release
            and route.cuda == build.version
            and route.platform == platform
            and route.replaces == labelled
        ):
            routed = build.model_copy(
                update={
                    "torch": route.torch,
                    "torchvision": route.torchvision if build.torchvision else None,
                    "torchaudio": route.torchaudio if build.torchaudio else None,
                    "index": "pypi",
                    "url": None,
                    "wheel": None,
                    "torchvision_wheel": None,
                    "source": f"{route.evidence} (PyPI route of {build.torch}: {build.source})",
                }
            )
            return routed, labelled
    return build, None


__all__ = ["TABLE", "PypiRoute", "load_routes", "pypi_route"]
