"""Command line for envgen.infra.mirror.merge_indexes: several local PEP 503 indexes as one.

uv takes each package from a single index, so envgen's PyPI stand-in (ENVGEN_PYPI_INDEX) must
hold everything a variant needs. This writes `<root>/<project>/index.html` pages linking to the
sources' files where they lie (nothing is copied). A source is a PEP 503 index directory
(`<src>/<project>/index.html`) or a flat directory of wheels.

`--fetch REQ` downloads, with pip and from PyPI only, a wheel (no dependencies) that none of the
sources holds, into `--fetch-dir`, and serves it too: the machine's indexes lack cuda-bindings,
which torch 2.14.1's Linux build requires. Wheels already there are reused (no network).

    python scripts/merge_indexes.py .envgen-mirror/pypi /opt/pypi-more/simple /opt/pypi/simple \\
        --fetch cuda-bindings==13.4.3 --fetch-dir .envgen-mirror/pypi-wheels
    ENVGEN_PYPI_INDEX=file://$PWD/.envgen-mirror/pypi envgen lock examples/cuda-13/project.yaml
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from envgen.errors import EnvgenError
from envgen.infra import proc
from envgen.infra.mirror import merge_indexes, wheel_project
from envgen.model.types import PYPI_SIMPLE


def _project(requirement: str) -> str:
    return canonicalize_name(Requirement(requirement).name)


def _has_project(source: Path, project: str) -> bool:
    if (source / project / "index.html").is_file():
        return True
    return any(wheel_project(p.name) == project for p in source.glob("*.whl"))


def fetch(requirement: str, into: Path, args: argparse.Namespace) -> None:
    """`pip download --no-deps` one wheel for the target interpreter and platform, from PyPI."""
    into.mkdir(parents=True, exist_ok=True)
    env = proc.clean_env()
    env["PIP_CONFIG_FILE"] = os.devnull  # the machine's pip config adds local indexes
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "--only-binary=:all:",
        "--index-url",
        PYPI_SIMPLE,
        "--python-version",
        args.python_version,
        "--implementation",
        "cp",
        "--abi",
        "cp" + args.python_version.replace(".", ""),
        "--platform",
        args.platform,
        "--dest",
        str(into),
        requirement,
    ]
    proc.run(command, what=f"pip download {requirement}", env=env, timeout=600)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("root", type=Path, help="the merged index to create")
    parser.add_argument("sources", type=Path, nargs="+", help="PEP 503 or flat wheel directories")
    parser.add_argument(
        "--fetch",
        action="append",
        default=[],
        metavar="REQ",
        help="a wheel to download from PyPI when no source has its project (repeatable)",
    )
    parser.add_argument(
        "--fetch-dir", type=Path, help="where fetched wheels go (default ROOT.wheels)"
    )
    parser.add_argument("--python-version", default="3.11", help="for --fetch (default 3.11)")
    parser.add_argument(
        "--platform", default="manylinux_2_28_x86_64", help="for --fetch (a wheel platform tag)"
    )
    args = parser.parse_args(argv)
    for source in args.sources:
        if not source.is_dir():
            print(f"error: {source} is not a directory", file=sys.stderr)
            return 2
    sources: list[Path] = list(args.sources)
    fetch_dir: Path = args.fetch_dir or args.root.with_name(args.root.name + ".wheels")
    for requirement in args.fetch:
        project = _project(requirement)
        if any(_has_project(s, project) for s in sources):
            continue
        if not (fetch_dir.is_dir() and _has_project(fetch_dir, project)):
            try:
                fetch(requirement, fetch_dir, args)
            except EnvgenError as exc:
                print(f"error: could not fetch {requirement} from PyPI ({exc})", file=sys.stderr)
                return 1
    if fetch_dir.is_dir() and any(fetch_dir.glob("*.whl")):
        sources.append(fetch_dir)
    projects = merge_indexes(sources, args.root)
    print(f"{args.root}: {len(projects)} projects from {', '.join(map(str, sources))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
