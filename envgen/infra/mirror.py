"""Lay out wheels from a flat directory as a download.pytorch.org/whl-style PEP 503 mirror.

Used by scripts/local_mirror.py (`make example` on a machine that keeps torch wheels offline),
the real-torch end-to-end test and the benchmarks. It must not fetch anything.

    python scripts/local_mirror.py /opt/wheels .envgen-mirror/whl
    ENVGEN_PYTORCH_INDEX=file://$PWD/.envgen-mirror/whl envgen lock project.yaml --variant cpu

Each wheel goes under `<root>/<label>/<project>/` by its local version label (`+cpu` -> cpu/,
`+cu118` -> cu118/; unlabelled wheels under every label present), as a symlink, with the
project and root index pages, and a flat `<root>/torch_stable.html`. Pages carry sha256
fragments. Written files still name the official index (envgen's default `write_index`).
"""

from __future__ import annotations

import hashlib
import html
import re
from collections import defaultdict
from pathlib import Path
from urllib.parse import urljoin

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename

_WHEEL = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)-.+\.whl$")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _page(links: list[tuple[str, str]]) -> str:
    body = "".join(f'<a href="{html.escape(h)}">{html.escape(t)}</a><br/>\n' for h, t in links)
    return f"<!DOCTYPE html>\n<html><body>\n{body}</body></html>\n"


def build_mirror(source: Path, root: Path) -> dict[str, list[str]]:
    """Create the mirror; return {label: [project, ...]}."""
    wheels = {p: m for p in source.iterdir() if (m := _WHEEL.match(p.name))}
    by_label: dict[str, dict[str, list[Path]]] = defaultdict(lambda: defaultdict(list))
    unlabelled: list[tuple[Path, str]] = []
    for wheel in sorted(wheels):
        m = wheels[wheel]
        project = m["name"].lower().replace("_", "-")
        if "+" in m["version"]:
            by_label[m["version"].split("+", 1)[1]][project].append(wheel)
        else:
            unlabelled.append((wheel, project))
    for wheel, project in unlabelled:
        for projects in by_label.values():
            projects[project].append(wheel)
    flat: list[tuple[str, str]] = []
    for label, projects in sorted(by_label.items()):
        for project, files in sorted(projects.items()):
            folder = root / label / project
            folder.mkdir(parents=True, exist_ok=True)
            links = []
            for wheel in files:
                link = folder / wheel.name
                if not link.exists():
                    link.symlink_to(wheel.resolve())
                href = wheel.name.replace("+", "%2B") + "#sha256=" + _sha256(wheel)
                links.append((href, wheel.name))
                flat.append((f"{label}/{project}/{href}", wheel.name))
            (folder / "index.html").write_text(_page(links), encoding="utf-8")
        (root / label / "index.html").write_text(
            _page([(f"{p}/", p) for p in sorted(projects)]), encoding="utf-8"
        )
    (root / "torch_stable.html").write_text(_page(sorted(set(flat))), encoding="utf-8")
    return {label: sorted(projects) for label, projects in sorted(by_label.items())}


_ANCHOR = re.compile(r"<a\s+(?P<attrs>[^>]*?)\s*>(?P<text>[^<]*)</a>", re.IGNORECASE)
_HREF = re.compile(r"""href\s*=\s*(?P<q>["'])(?P<url>.*?)(?P=q)""", re.IGNORECASE)


def wheel_project(filename: str) -> str | None:
    """The normalized project a wheel file name belongs to (None: not a wheel's name)."""
    try:
        return parse_wheel_filename(filename)[0]
    except InvalidWheelFilename:
        return None


def _wheel_links(path: Path) -> list[tuple[str, str]]:
    """A flat directory's wheels as (absolute file:// href with sha256, file name)."""
    return [
        (f"{wheel.resolve().as_uri()}#sha256={_sha256(wheel)}", wheel.name)
        for wheel in sorted(path.iterdir())
        if _WHEEL.match(wheel.name)
    ]


def merge_indexes(sources: list[Path], root: Path) -> dict[str, int]:
    """Merge local PEP 503 indexes (`<src>/<project>/index.html`) into one at `root`.

    A source may also be a flat directory of wheels (pip's find-links), hashed on the way. Each
    project page lists every source's files once (the first source naming a file name wins), with
    hrefs made absolute `file://` URLs to the original files (nothing is copied or linked) and the
    anchors' other attributes (data-requires-python, PEP 658 metadata) kept. One `root` thus
    stands in for PyPI where uv takes a package from a single index. Returns {project: files}.
    """
    pages: dict[str, dict[str, str]] = defaultdict(dict)
    for source in sources:
        if any(_WHEEL.match(p.name) for p in source.iterdir()):
            for link, name in _wheel_links(source):
                project = wheel_project(name) or canonicalize_name(name.split("-", 1)[0])
                text = html.escape(name)
                pages[project].setdefault(name, f'<a href="{html.escape(link)}">{text}</a>')
            continue
        for page in sorted(source.glob("*/index.html")):
            project = canonicalize_name(page.parent.name)
            base = page.resolve().as_uri()
            for anchor in _ANCHOR.finditer(page.read_text(encoding="utf-8")):
                href = _HREF.search(anchor["attrs"])
                if href is None:
                    continue
                url = urljoin(base, html.unescape(href["url"]))
                attrs = anchor["attrs"][: href.start()] + anchor["attrs"][href.end() :]
                attrs = " ".join(attrs.split())
                name = html.unescape(anchor["text"]).strip()
                tag = f'<a href="{html.escape(url)}"' + (f" {attrs}" if attrs else "") + ">"
                pages[project].setdefault(name, f"{tag}{html.escape(name)}</a>")
    root.mkdir(parents=True, exist_ok=True)
    for project, links in sorted(pages.items()):
        folder = root / project
        folder.mkdir(exist_ok=True)
        body = "".join(f"{links[name]}<br/>\n" for name in sorted(links))
        (folder / "index.html").write_text(
            f"<!DOCTYPE html>\n<html><body>\n{body}</body></html>\n", encoding="utf-8"
        )
    (root / "index.html").write_text(_page([(f"{p}/", p) for p in sorted(pages)]), encoding="utf-8")
    return {project: len(links) for project, links in sorted(pages.items())}
