"""Read torch/version.py out of torch wheels on PyPI without downloading them.

The build a PyPI wheel carries (`+cu102`, `cuda = '10.2'`) is the source of matrices/
inferred-builds.yaml's PyPI-default rows for 1.x, whose wheels pin no CUDA packages. The fetch
(the PEP 691 page, HTTP range reads of the one zip member) is envgen.repro.verify's, as for
Requires-Dist. Network: pypi.org and files.pythonhosted.org only.

    python scripts/wheel_facts.py 1.10.1 1.13.1        # one line per wheel (cp38, else cp310)
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from envgen.repro.verify import fetch_simple, fetch_wheel_member


def facts(text: str) -> dict[str, str]:
    """The `__version__` and `cuda` assignments of a version.py.

    >>> facts("__version__ = '1.12.1+cu102'\\ncuda = '10.2'\\ngit_version = 'x'\\n")
    {'__version__': "'1.12.1+cu102'", 'cuda': "'10.2'"}
    """
    out = {}
    for line in text.splitlines():
        name, sep, value = line.partition(" = ")
        if sep and name in ("__version__", "cuda"):
            out[name] = value.strip()
    return out


def wheels(files: list[dict[str, Any]], version: str) -> list[dict[str, Any]]:
    """One wheel per platform tag of `version`: the cp38 one, else cp310."""
    mine = [f for f in files if f["filename"].startswith(f"torch-{version}-")]
    mine = [f for f in mine if f["filename"].endswith(".whl")]
    cp38 = [f for f in mine if "-cp38-" in f["filename"]]
    return cp38 or [f for f in mine if "-cp310-" in f["filename"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("versions", nargs="+")
    args = parser.parse_args(argv)
    files = fetch_simple("torch")["files"]
    for version in args.versions:
        for f in wheels(files, version):
            found = facts(fetch_wheel_member(f["url"], lambda m: m == "torch/version.py"))
            mib = (f.get("size") or 0) // 2**20
            print(f"{f['filename']}\t{mib} MiB\t{found}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
