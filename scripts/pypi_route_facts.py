"""Read the facts behind matrices/pypi-routes.yaml from PyPI's own wheels (network: pypi.org).

For each release, the Linux x86_64 wheels of torch and torchvision for the oldest CPython it has
(cp38 manylinux1 up to 2.4): file name, size,
sha256, `torch/version.py` / `torchvision/version.py` (`__version__`, `cuda`, `git_version`) and
the Requires-Dist lines on nvidia-* packages, by HTTP range requests (envgen.verification.pypi), one
JSON line per release on stdout. The evidence strings of the table are written from these lines.

    python scripts/pypi_route_facts.py 1.10.0:0.11.1 1.13.1:0.14.1
"""

from __future__ import annotations

import json
import sys
from typing import Any

from envgen.verification.pypi import fetch_simple, fetch_wheel_member


def _assignments(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() in ("__version__", "cuda", "git_version"):
            out[key.strip()] = value.strip()
    return out


def wheel_facts(page: dict[str, Any], name: str, version: str) -> dict[str, object]:
    # the oldest CPython that release has a Linux x86_64 wheel for (cp38 up to 2.4; later
    # releases start at cp39 or cp310), manylinux1 before the newer manylinux tags
    found = []
    for tag in ("cp38", "cp39", "cp310", "cp311"):
        prefix = f"{name}-{version}-{tag}-{tag}-manylinux"
        found = sorted(
            (
                f
                for f in page["files"]
                if str(f["filename"]).startswith(prefix)
                and str(f["filename"]).endswith("x86_64.whl")
            ),
            key=lambda f: str(f["filename"]),
        )
        if found:
            break
    if not found:
        return {"file": None}
    entry = found[0]
    url = str(entry["url"])
    version_py = fetch_wheel_member(url, lambda m: m == f"{name}/version.py")
    metadata = fetch_wheel_member(url, lambda m: m.endswith(".dist-info/METADATA"))
    return {
        "file": entry["filename"],
        "size": entry.get("size"),
        "sha256": entry["hashes"]["sha256"],
        "version_py": _assignments(version_py),
        "requires_nvidia": [
            line.removeprefix("Requires-Dist: ")
            for line in metadata.splitlines()
            if line.startswith("Requires-Dist") and "nvidia" in line
        ],
    }


def main(argv: list[str]) -> int:
    if not argv:
        sys.stderr.write(__doc__ or "")
        return 2
    pages = {n: fetch_simple(n) for n in ("torch", "torchvision")}
    for pair in argv:
        torch, _, vision = pair.partition(":")
        row = {
            "torch": torch,
            "torchvision": vision,
            "torch_wheel": wheel_facts(pages["torch"], "torch", torch),
            "torchvision_wheel": wheel_facts(pages["torchvision"], "torchvision", vision)
            if vision
            else None,
        }
        sys.stdout.write(json.dumps(row, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
