"""Command line for envgen.infra.mirror: lay out a wheel directory as a PyTorch-style local index.

python scripts/local_mirror.py /opt/wheels .envgen-mirror/whl
ENVGEN_PYTORCH_INDEX=file://$PWD/.envgen-mirror/whl envgen lock project.yaml --variant cpu
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from envgen.infra.mirror import build_mirror


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("source", type=Path, help="a directory of wheels (e.g. pip's find-links)")
    parser.add_argument("root", type=Path, help="the mirror root to create (stands in for .../whl)")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        print(f"error: {args.source} is not a directory", file=sys.stderr)
        return 2
    layout = build_mirror(args.source, args.root)
    for label, projects in layout.items():
        print(f"{args.root / label}: {', '.join(projects)}")
    if not layout:
        print(f"warning: no labelled wheels in {args.source}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
