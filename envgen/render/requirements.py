"""Variant (+ optional full lock) -> requirements.txt text. Pure.

The pins-only form carries exactly what PyTorch published for the release and compute platform
(same versions, local labels and index form) plus the user's extra requirements. It must not
resolve anything.
"""

from __future__ import annotations

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from envgen.model.types import PYPI_SIMPLE
from envgen.model.variants import Variant, pip_pins
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls
from envgen.render.templating import render_template


def index_lines(variant: Variant, urls: IndexUrls) -> list[str]:
    """The -f / --index-url / --extra-index-url lines for a variant's pip side."""
    build = variant.pip
    if build is None:
        return []
    lines: list[str] = []
    if build.index == "pypi" or build.wheel is not None:
        # A row that names its torch wheel needs no wheel page: the requirement is the URL.
        if urls.pypi:
            lines.append(f"--index-url {urls.pypi}")
        return lines
    if build.url is None:
        msg = f"internal error: the {build.index} pip build for {variant.id} has no url"
        raise RuntimeError(msg)
    url = urls.pytorch(build.url)
    if build.index == "find-links":
        if urls.pypi:
            lines.append(f"--index-url {urls.pypi}")
        lines.append(f"--find-links {url}")
    elif build.index == "extra-index-url":
        if urls.pypi:
            lines.append(f"--index-url {urls.pypi}")
        lines.append(f"--extra-index-url {url}")
    else:  # index-url: the PyTorch index is the main one; PyPI serves the user's extras
        lines.append(f"--index-url {url}")
        if variant.pip_extra:
            lines.append(f"--extra-index-url {urls.pypi or PYPI_SIMPLE}")
    return lines + extension_index_lines(variant, urls)


def extension_index_lines(variant: Variant, urls: IndexUrls) -> list[str]:
    """The extensions' find-links / extra-index-url lines (model.extensions), deduplicated."""
    out: list[str] = []
    for pin in variant.extensions:
        if pin.index_line is not None:
            flag, _, url = pin.index_line.partition(" ")
            line = f"{flag} {urls.extension(url)}"
            if line not in out:
                out.append(line)
    return out


def extension_requirements(variant: Variant) -> list[str]:
    """The user's pip: list with each extension replaced by its pin for this variant (unsorted)."""
    if not variant.extensions:
        return list(variant.pip_extra)
    replaced = {p.requested for p in variant.extensions}
    rest = [r for r in variant.pip_extra if r not in replaced]
    return [p.requirement for p in variant.extensions] + rest


def pip_section(variant: Variant) -> list[str]:
    """environment.yml's pip: entries: the extensions' index lines first, then the requirements."""
    reqs = sorted(extension_requirements(variant), key=str.lower)
    return extension_index_lines(variant, IndexUrls()) + reqs


def requirement_lines(variant: Variant, urls: IndexUrls | None = None) -> list[str]:
    """Torch-family pins plus the user's requirements, sorted by canonical name.

    Where the row names its torch wheel (`wheel`), torch is that wheel for the variant's Python
    (`torch @ URL`, under `urls`' PyTorch root when given): `torch==X -f page` would let pip
    (before packaging 26's tag order) and uv take PyPI's same-version manylinux wheel instead.
    """
    pins = pip_pins(variant)
    direct = variant.pip.direct_urls(variant.python) if variant.pip is not None else {}
    reqs = [
        f"{name} @ {(urls or IndexUrls()).pytorch(direct[name])}"
        if name in direct
        else f"{name}=={version}"
        for name, version in pins.items()
    ]
    # An extension's requirement is replaced by the pin built for this variant.
    reqs += extension_requirements(variant)
    return sorted(reqs, key=lambda r: (canonicalize_name(Requirement(r).name), r))


def wheel_note(variant: Variant) -> list[str]:
    """Why a row that names its torch wheel does (empty for every other row)."""
    build = variant.pip
    if build is None or build.wheel is None:
        return []
    named = " and ".join(build.direct_urls(variant.python))
    named += " is" if build.torchvision_wheel is None else " are"
    return [
        (
            f"an inferred equivalent of a prose-only line: the page says 'Download and install "
            f"wheel from {build.url}'; {named} that page's wheel for Python {variant.python}, "
            f"named directly (`torch=={build.torch} -f` could take PyPI's same-version build)"
        )
    ]


def render_requirements(variant: Variant, *, header: Header, urls: IndexUrls) -> str:
    """Render the pins-only requirements.txt of a variant."""
    return render_template(
        "requirements.txt.j2",
        header=header.lines(),
        notes=wheel_note(variant),
        index_lines=index_lines(variant, urls),
        requirements=requirement_lines(variant, urls),
    )


def has_hashes(text: str) -> bool:
    """True for a full lock (every pin carries --hash), False for the pins-only form."""
    return "--hash=" in text


def written_index_lines(variant: Variant, written: IndexUrls) -> list[str]:
    """The index lines of the lock: the published form, with PyPI always reachable.

    pip takes candidates from every index and keeps only files whose hash is pinned, so the stale
    copies the PyTorch index re-hosts (numpy, ...) cannot be installed from it by accident.
    """
    lines = index_lines(variant, written)
    build = variant.pip
    if (
        build is not None
        and build.index == "index-url"
        and not any(line.startswith("--extra-index-url ") for line in lines)
    ):
        lines.append(f"--extra-index-url {written.pypi or PYPI_SIMPLE}")
    return lines
