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
