"""Read torch/version.py out of torch wheels on PyPI without downloading them.

The build a PyPI wheel carries (`+cu102`, `cuda = '10.2'`) is the source of matrices/
inferred-builds.yaml's PyPI-default rows for 1.x, whose wheels pin no CUDA packages. The fetch
(the PEP 691 page, HTTP range reads of the one zip member) is envgen.verification.pypi's, as for
Requires-Dist. Network: pypi.org and files.pythonhosted.org only.

    python scripts/wheel_facts.py 1.10.1 1.13.1        # one line per wheel (cp38, else cp310)
    python scripts/wheel_facts.py --arch 2.13.0        # also the compiled CUDA architectures

--arch also reads torch/lib/libtorch_python.so (about 10 MiB compressed) for the arch flags
string compiled into it (torch._C._cuda_getArchFlags(), which torch.cuda.get_arch_list()
splits): the evidence of matrices/gpu-archs.yaml's `pypi-wheel:` rows.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any

from envgen.verification.pypi import fetch_simple, fetch_wheel_member


def facts(text: str) -> dict[str, str]:
    """The `__version__` and `cuda` assignments of a version.py (annotated ones too).

    >>> facts("__version__ = '1.12.1+cu102'\\ncuda = '10.2'\\ngit_version = 'x'\\n")
    {'__version__': "'1.12.1+cu102'", 'cuda': "'10.2'"}
    >>> facts("cuda: Optional[str] = '13.0'\\n")
    {'cuda': "'13.0'"}
    """
    out = {}
    for line in text.splitlines():
        name, sep, value = line.partition(" = ")
        name = name.split(":", 1)[0]
        if sep and name in ("__version__", "cuda"):
            out[name] = value.strip()
    return out


_FLAGS = re.compile(r"(?:(?:sm|compute)_\d+a? )*(?:sm|compute)_\d+a?(?=\x00)")


def arch_flags(blob: str) -> list[str]:
    """The NUL-terminated arch flags strings ('sm_80 sm_90 compute_90') in a library's text.

    >>> arch_flags("x\\x00std::string ipc_hsm_75 sm_80 compute_80\\x00sm_ref\\x00sm_1\\x00")
    ['sm_75 sm_80 compute_80']
    """
    return sorted({m.group(0) for m in _FLAGS.finditer(blob) if " " in m.group(0)})


def wheels(files: list[dict[str, Any]], version: str) -> list[dict[str, Any]]:
    """One wheel per platform tag of `version`: the cp38 one, else cp310."""
    mine = [f for f in files if f["filename"].startswith(f"torch-{version}-")]
    mine = [f for f in mine if f["filename"].endswith(".whl")]
    cp38 = [f for f in mine if "-cp38-" in f["filename"]]
    return cp38 or [f for f in mine if "-cp310-" in f["filename"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("versions", nargs="+")
    parser.add_argument("--arch", action="store_true", help="also read the arch flags")
    args = parser.parse_args(argv)
    files = fetch_simple("torch")["files"]
    for version in args.versions:
        for f in wheels(files, version):
            found = facts(fetch_wheel_member(f["url"], lambda m: m == "torch/version.py"))
            mib = (f.get("size") or 0) // 2**20
            line = f"{f['filename']}\t{mib} MiB\t{found}"
            if args.arch and found.get("cuda", "None") != "None":  # a CUDA build
                lib = fetch_wheel_member(f["url"], lambda m: m == "torch/lib/libtorch_python.so")
                line += f"\tarch flags: {arch_flags(lib)}"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
