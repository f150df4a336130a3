"""`conda list` and `conda list --export` output (often saved as requirements.txt), and spec
lists written for `conda create --file` (`pytorch==1.3.1` a line): each package becomes a conda
match spec, or a pip requirement where pip installed it (channel pypi).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from envgen.repro.importer.conda_env import conda_spec
from envgen.repro.importer.evidence import Evidence
from envgen.repro.importer.requirements import pip_requirement

# `name=version=build` (conda list --export) or `name=version` lines, and the export header.
_EXPORT_LINE: Final = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.+-]*)=([^=\s]+)=([^=\s]+)$")

_EXPORT_HEADER: Final = re.compile(
    r"(?m)^#\s*(platform:\s*\S+|\$ conda create --name <env> --file <this file>)"
)


_TABLE_HEADER: Final = re.compile(r"(?m)^#\s*Name\s+Version\s+Build(\s+Channel)?\s*$")

# One match spec a line, as `conda create --file` reads it: `pytorch`, `pytorch==1.3.1`,
# `python=3.6`, `numpy>=1.24`, `cudatoolkit=10.1=h6bb024c_0`.
_SPEC_LINE: Final = re.compile(
    r"^([A-Za-z0-9_][A-Za-z0-9_.-]*)(?:(==?|>=|<=|!=|>|<)[\w.*+]+(?:=[\w.*+]+)?)?$"
)
# Names that only conda installs: PyPI's `pytorch` is a stub that refuses to install (its
# setup.py says to install `torch`), and pip rejects the CUDA selectors outright.
_CONDA_NAMES: Final = frozenset({"pytorch", "cudatoolkit", "pytorch-cuda", "cpuonly"})


def is_spec_list(text: str) -> bool:
    """A list of conda match specs (`conda create --file`), not a pip requirements file: every
    line a spec, one names a package only conda installs, and none names pip's `torch`.

    >>> is_spec_list("python==3.6.12\\npytorch==1.3.1\\ntqdm==4.56.0\\n")
    True
    >>> is_spec_list("torch==1.7.1\\n"), is_spec_list("pytorch\\n-r other.txt\\n")
    (False, False)
    """
    body = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    matches = [_SPEC_LINE.match(ln) for ln in body]
    names = {m.group(1).lower() for m in matches if m is not None}
    return bool(body) and all(matches) and bool(names & _CONDA_NAMES) and "torch" not in names


def is_conda_list(text: str) -> bool:
    """`conda list --export` or `conda list` output (often saved as requirements.txt).

    >>> is_conda_list("# platform: linux-64\\npytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0\\n")
    True
    >>> is_conda_list("torch==1.6.0\\n")
    False
    """
    if _EXPORT_HEADER.search(text) or _TABLE_HEADER.search(text) or is_spec_list(text):
        return True
    body = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    return bool(body) and all(_EXPORT_LINE.match(ln) for ln in body)


def conda_list_entries(text: str) -> list[tuple[int, str, str | None]]:
    """(line, conda spec or pip requirement, channel) of each package in conda list output.

    The channel is `pypi` for packages pip installed (`conda list` shows them with channel pypi
    and `conda list --export` with build `pypi_0`); those become `name==version` requirements.

    >>> conda_list_entries("pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0\\ntqdm=4.50.0=pypi_0\\n")
    [(1, 'pytorch=1.6.0=py3.8_cuda10.1.243_cudnn7.6.3_0', None), (2, 'tqdm==4.50.0', 'pypi')]
    """
    out: list[tuple[int, str, str | None]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _EXPORT_LINE.match(line)
        if m:
            name, version, build = m.groups()
            channel = "pypi" if build.startswith("pypi_") else None
        elif _SPEC_LINE.match(line):
            out.append((number, line, None))  # a spec as written for `conda create --file`
            continue
        else:
            cols = line.split()
            if len(cols) < 3 or not re.match(r"^[A-Za-z0-9_]", cols[0]):
                continue
            name, version, build = cols[0], cols[1], cols[2]
            channel = cols[3] if len(cols) > 3 else None
        if channel == "pypi":
            out.append((number, f"{name}=={version}", "pypi"))
        else:
            out.append((number, f"{name}={version}={build}", channel))
    return out


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """`conda list --export` (name=version=build) or `conda list` table output."""
    found.torch_manager = found.torch_manager or "conda"
    unchanneled = 0
    for number, spec, channel in conda_list_entries(text):
        where = f"{found.source}:{number}"
        if channel == "pypi":
            pip_requirement(spec, found, where)
            continue
        if channel and channel not in found.channels and re.fullmatch(r"[\w.-]+", channel):
            found.channels.append(channel)
        before = len(found.conda_deps)
        conda_spec(spec, found, where)
        # a listing's blank channel is defaults; a hand-written spec (no build) names none
        listed = _EXPORT_LINE.match(spec) is not None
        unchanneled += channel is None and listed and len(found.conda_deps) > before
    if found.torch is not None and found.torch_manager == "pip" and found.torch.label is None:
        # torch=2.3.1=pypi_0 beside cudatoolkit=10.1.243 (tensorflow-gpu's): pip installed PyPI's
        # build of torch, whatever CUDA conda put in the environment for another package
        conda = [c for c in found.compute if c.origin == "conda" and c.accelerator != "cpu"]
        if conda:
            found.compute = [c for c in found.compute if c not in conda]
            found.warnings.append(
                f"{found.source}: torch is pip's (pypi_0) and names no build; the listing's "
                f"{', '.join(c.why for c in conda)} belongs to another package, not torch's "
                "wheel"
            )
    if unchanneled and "defaults" not in found.channels:
        # `conda list --export` records no channels and `conda list` leaves the column empty
        # for the defaults channel: a plain Anaconda/Miniconda install took them from defaults.
        found.channels.append("defaults")
        found.warnings.append(
            f"{found.source}: {unchanneled} package(s) have no channel in the listing (conda "
            "list leaves defaults blank, conda list --export records no channels); project.yaml "
            "adds the defaults channel: change conda.channels if the environment used "
            "conda-forge"
        )
