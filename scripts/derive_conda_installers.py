"""Derive matrices/conda-installers.yaml's continuumio image rows from the images' own Dockerfiles.

The job: each `continuumio/miniconda3:TAG` and `continuumio/anaconda3:TAG` image was built from
ContinuumIO/docker-images' Dockerfile of that time, which downloads one installer
(`Miniconda3-4.5.4-Linux-x86_64.sh`, `ARG CONDA_VERSION=py39_4.11.0`,
`Anaconda3-2024.06-1-Linux-x86_64.sh`) and is tagged with that installer's version (its build
comment: `docker build . -t continuumio/miniconda3:latest -t continuumio/miniconda3:4.5.4`). So
each commit that changed an image's Dockerfile gives one row:

- the tag: the installer's version, without a `pyXY_` prefix (`4.5.4`, `4.11.0`, `23.5.2-0`,
  `2024.06-1`);
- the python: a `pyXY_` prefix names it (read); otherwise the installer's own hand row in the
  same file (`Miniconda3-4.5.4`), whose python is what that row says (inferred, as there).

An image whose installer has neither a prefix nor a hand row gets no row (printed). The facts read
from the git mirror (commit, date, image, installer word) are recorded in
tests/data/recorded/conda-installers/docker-images.json (`--record GIT_DIR`), so the derivation
and its test run without the mirror.

    python scripts/derive_conda_installers.py           # diff of the derived rows; exit 1 if stale
    python scripts/derive_conda_installers.py --write   # rewrite them
    python scripts/derive_conda_installers.py --record /work/.mirror/ContinuumIO+docker-images/repo

derive (pure) never touches a git directory; the recorder does.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess  # noqa: TID251 - a maintainer script reading a local git mirror, not envgen
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generated import write_or_diff

ROOT: Final = Path(__file__).resolve().parent.parent
MATRIX: Final = ROOT / "matrices" / "conda-installers.yaml"
RECORDED: Final = ROOT / "tests" / "data" / "recorded" / "conda-installers" / "docker-images.json"
REPO: Final = "ContinuumIO/docker-images"
DOCKERFILES: Final = {
    "continuumio/miniconda3": ("miniconda3/Dockerfile", "miniconda3/debian/Dockerfile"),
    "continuumio/anaconda3": ("anaconda3/Dockerfile", "anaconda3/debian/Dockerfile"),
}
# The installer a Dockerfile downloads: a literal file name, or the ARG/ENV its URL expands.
_LITERAL: Final = re.compile(
    r"\b((?:Mini|Ana)conda3)-((?:py\d+_)?\d+(?:\.\d+)+(?:-\d+)?)-Linux-x86_64"
)
_ARG: Final = re.compile(r"\bCONDA_VERSION=\"?((?:py\d+_)?\d+(?:\.\d+)+(?:-\d+)?)\b")
BEGIN: Final = "# --- derived by scripts/derive_conda_installers.py: do not edit below ---\n"


@dataclass(frozen=True)
class Build:
    """One commit's Dockerfile of one image: the installer it downloads."""

    image: str
    commit: str
    date: str
    installer: str  # Miniconda3-4.5.4, Miniconda3-py39_4.11.0, Anaconda3-2024.06-1
    path: str  # the Dockerfile's path at that commit


def installer_of(image: str, text: str) -> str | None:
    """The installer a Dockerfile's text downloads (None: `latest`, or none named).

    >>> installer_of("continuumio/miniconda3", "ARG CONDA_VERSION=py311_23.5.2-0\\n")
    'Miniconda3-py311_23.5.2-0'
    >>> installer_of("continuumio/anaconda3", "wget .../Anaconda3-5.2.0-Linux-x86_64.sh")
    'Anaconda3-5.2.0'
    """
    m = _LITERAL.search(text)
    if m:
        return f"{m.group(1)}-{m.group(2)}"
    arg = _ARG.search(text)
    if arg and image.endswith("miniconda3"):
        return f"Miniconda3-{arg.group(1)}"
    return None


def record(git_dir: Path) -> list[Build]:
    """Every commit's installer per image, oldest first, read from a git mirror."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(git_dir), *args],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip

    builds: list[Build] = []
    for image, paths in DOCKERFILES.items():
        for line in git("log", "--reverse", "--format=%H %cs", "--", *paths).splitlines():
            commit, date = line.split()
            for path in paths:
                try:
                    text = git("show", f"{commit}:{path}")
                except subprocess.CalledProcessError:
                    continue
                installer = installer_of(image, text)
                if installer is not None:
                    builds.append(Build(image, commit, date, installer, path))
                break
    return builds


def derive(
    builds: Sequence[Build], hand: dict[str, str]
) -> tuple[list[dict[str, object]], list[str]]:
    """The image rows (first build of each tag wins) and the tags left without a python."""
    rows: dict[str, dict[str, object]] = {}
    missing: list[str] = []
    for b in builds:
        kind, _, version = b.installer.partition("-")
        prefix = re.match(r"py(\d)(\d+)_", version)
        tag = version[prefix.end() :] if prefix else version
        name = f"{b.image}:{tag}"
        if name in rows:
            continue
        where = f"https://github.com/{REPO}/blob/{b.commit}/{b.path}"
        # A hand row names an installer without its -<build> suffix (Anaconda3-2023.09, not -0).
        own = f"{kind}-{re.sub(r'-[0-9]+$', '', tag)}"
        if prefix:
            python, inferred = f"{prefix.group(1)}.{prefix.group(2)}", []
            how = f"its installer {b.installer}'s pyXY_ prefix names python"
        elif own in hand:
            python, inferred = hand[own], ["python"]
            how = f"its installer {own}: python from that installer's row here"
        else:
            if name not in missing:
                missing.append(name)
            continue
        rows[name] = {
            "name": name,
            "python": python,
            "source": f"{REPO}@{b.commit[:12]} ({b.date}): the image's Dockerfile downloads "
            f"{b.installer} and is tagged with its version ({where}); {how}",
            "inferred": inferred,
        }
    return sorted(rows.values(), key=lambda r: str(r["name"])), missing


def render(text: str, rows: Sequence[dict[str, object]]) -> str:
    """conda-installers.yaml with its derived block replaced by `rows`."""
    head = text.split(BEGIN, 1)[0]
    lines = [
        yaml.safe_dump(r, default_flow_style=True, sort_keys=False, width=10_000) for r in rows
    ]
    return head + BEGIN + "".join(f"- {line}" for line in lines)


def hand_rows(text: str) -> dict[str, str]:
    """The hand rows (above the derived block): installer name to python."""
    rows = yaml.safe_load(text.split(BEGIN, 1)[0]) or []
    return {
        str(r["name"]): str(r["python"])
        for r in rows
        if not str(r["name"]).startswith("continuumio/")
    }


def load_recorded(path: Path = RECORDED) -> list[Build]:
    return [Build(**b) for b in json.loads(path.read_text(encoding="utf-8"))]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", action="store_true", help="rewrite the derived rows")
    parser.add_argument(
        "--record", type=Path, metavar="GIT_DIR", help="re-read a ContinuumIO/docker-images mirror"
    )
    args = parser.parse_args(argv)
    if args.record:
        builds = record(args.record)
        RECORDED.parent.mkdir(parents=True, exist_ok=True)
        RECORDED.write_text(
            json.dumps([b.__dict__ for b in builds], indent=1) + "\n", encoding="utf-8"
        )
    text = MATRIX.read_text(encoding="utf-8")
    rows, missing = derive(load_recorded(), hand_rows(text))
    for name in missing:
        print(f"no python for {name}: its installer has no prefix and no row", file=sys.stderr)
    return 1 if write_or_diff(MATRIX, render(text, rows), write=args.write) else 0


if __name__ == "__main__":
    raise SystemExit(main())
