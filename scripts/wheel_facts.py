"""Read torch/version.py out of torch wheels on PyPI without downloading them.

The build a PyPI wheel carries (`+cu102`, `cuda = '10.2'`) is the source of matrices/
inferred-builds.yaml's PyPI-default rows for 1.x, whose wheels pin no CUDA packages. A wheel is a
zip: its central directory and the one member are fetched with HTTP range requests, a few hundred
kilobytes out of 800 MB. Network: pypi.org and files.pythonhosted.org only.

    python scripts/wheel_facts.py 1.10.1 1.13.1        # one line per wheel (cp38, else cp310)
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import urllib.request
import zipfile
from typing import Any, Final

SIMPLE: Final = "https://pypi.org/simple/torch/"
TIMEOUT: Final = 60


class RemoteFile(io.RawIOBase):
    """A read-only, seekable view of a URL, read by HTTP range requests."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pos = 0
        head = urllib.request.Request(url, method="HEAD")
        with urllib.request.urlopen(head, timeout=TIMEOUT) as resp:
            self.size = int(resp.headers["Content-Length"])

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.pos, io.SEEK_END: self.size}[whence]
        self.pos = base + offset
        return self.pos

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self.pos >= self.size:
            return 0
        end = min(self.pos + len(buffer), self.size) - 1
        req = urllib.request.Request(self.url, headers={"Range": f"bytes={self.pos}-{end}"})
        with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
            data = resp.read()
        buffer[: len(data)] = data
        self.pos += len(data)
        return len(data)


def version_py(url: str) -> str:
    """torch/version.py of the wheel at `url`."""
    reader = io.BufferedReader(RemoteFile(url), buffer_size=1 << 16)
    with zipfile.ZipFile(reader) as wheel:
        return wheel.read("torch/version.py").decode("utf-8")


def facts(text: str) -> dict[str, str]:
    """The `__version__` and `cuda` assignments of a version.py."""
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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("versions", nargs="+")
    args = parser.parse_args(argv)
    req = urllib.request.Request(SIMPLE, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
        files = json.load(resp)["files"]
    for version in args.versions:
        for f in wheels(files, version):
            found = facts(version_py(f["url"]))
            mib = f.get("size", 0) // 2**20
            print(f"{f['filename']}\t{mib} MiB\t{found}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
