"""conda's explicit environment files: `conda list --explicit` output (spec-file.txt) and
conda-lock's rendered `conda-<platform>.lock`, one package URL a line after `@EXPLICIT`.

Each URL names the channel, the platform subdir and the package file
`<name>-<version>-<build>.tar.bz2` (or `.conda`); the file name is split from the right (a name
may hold dashes, a version and a build never do), and the package read as the conda match spec
`name=version=build` (conda_env.conda_spec: pytorch's build string names its CUDA and python).
The channel is the URL's: `conda.anaconda.org/<channel>/...`, and Anaconda's own
`repo.anaconda.com/pkgs/...` (repo.continuum.io before 2018) is the defaults channel.

Format: https://docs.conda.io/projects/conda/en/latest/user-guide/tasks/manage-environments.html
("Building identical conda environments": `conda list --explicit`, `@EXPLICIT`, `#md5` suffixes).
Must not fetch the URLs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from envgen.repro.importer.conda_env import conda_spec
from envgen.repro.importer.evidence import Evidence
from envgen.repro.reading import excerpt

# Blanks of its own line only (not `\s*`, which from every line start would run over the blank
# lines after it: quadratic on a file of newlines).
_MARKER: Final = re.compile(r"(?m)^[^\S\n]*+@EXPLICIT[^\S\n]*+$")
_PACKAGE: Final = re.compile(
    r"^(?P<name>.+)-(?P<version>[^-]+)-(?P<build>[^-]+)\.(tar\.bz2|conda)$"
)
_SUBDIR: Final = re.compile(r"^(noarch|(linux|osx|win|emscripten|wasi|zos)-[\w]+)$")
_ANACONDA_HOSTS: Final = frozenset(
    {"repo.anaconda.com", "repo.continuum.io", "repo.anaconda.cloud"}
)
_CHANNEL_HOSTS: Final = frozenset({"conda.anaconda.org", "anaconda.org", "conda.binstar.org"})


def is_explicit(text: str) -> bool:
    """conda's explicit format: an `@EXPLICIT` line.

    >>> is_explicit("# platform: linux-64\\n@EXPLICIT\\nhttps://x/linux-64/a-1-0.conda\\n")
    True
    >>> is_explicit("pytorch=1.6.0=py3.8_0\\n")
    False
    """
    return _MARKER.search(text) is not None


def package_of(url: str) -> tuple[str, str, str, str | None] | None:
    """(name, version, build, channel) of one package URL, or None when it is not one.

    >>> package_of("https://conda.anaconda.org/pytorch/linux-64/"
    ...            "pytorch-1.11.0-py3.8_cuda11.3_cudnn8.2.0_0.tar.bz2")
    ('pytorch', '1.11.0', 'py3.8_cuda11.3_cudnn8.2.0_0', 'pytorch')
    >>> package_of("https://repo.anaconda.com/pkgs/main/linux-64/python-3.8.13-h12debd9_0.conda#ab")
    ('python', '3.8.13', 'h12debd9_0', 'defaults')
    >>> package_of("https://conda.anaconda.org/conda-forge/label/gcc7/noarch/six-1.16.0-pyh_0.tar.bz2")
    ('six', '1.16.0', 'pyh_0', 'conda-forge')
    """
    try:
        parts = urlsplit(url.split("#", 1)[0].strip())
        host = (parts.hostname or "").lower()
    except ValueError:  # `http://[abc/...` (an unclosed IPv6 host): no package URL
        return None
    segments = [s for s in parts.path.split("/") if s]
    if len(segments) < 2 or not _SUBDIR.match(segments[-2]):
        return None
    package = _PACKAGE.match(segments[-1])
    if package is None:
        return None
    channel: str | None = None
    if host in _ANACONDA_HOSTS and segments[0] == "pkgs":
        channel = "defaults"
    elif host in _CHANNEL_HOSTS and len(segments) > 2:
        channel = segments[0]
    return package.group("name"), package.group("version"), package.group("build"), channel


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """Every package URL of an explicit file, as the conda match spec it pins."""
    found.torch_manager = found.torch_manager or "conda"
    unnamed: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "@")):
            continue
        where = f"{found.source}:{number}"
        package = package_of(line)
        if package is None:
            found.warnings.append(f"{where}: {excerpt(line)!r} is not a conda package URL; ignored")
            continue
        name, version, build, channel = package
        if channel is None:
            unnamed.append(excerpt(line))
        elif channel not in found.channels:
            found.channels.append(channel)
        conda_spec(f"{name}={version}={build}", found, where)
    if unnamed:
        found.warnings.append(
            f"{found.source}: {len(unnamed)} package(s) come from a channel URL envgen cannot name "
            f"(not conda.anaconda.org or repo.anaconda.com), e.g. {unnamed[0]}; add it under "
            "conda.channels if the environment needs it"
        )
