"""Render a published install command's environment with envgen, and compare the two.

Shared by the test tables that check published commands against what envgen generates
(tests/unit/render/test_quickstart_data.py, tests/unit/render/test_published_commands.py). A command is a `refresh_matrix.PublishedCommand`; `render_files` expands a spec for its
release, compute platform, platform and manager through the shipped matrix (no processes, no
network) and returns the rendered files by name. It must not lock or build anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from envgen.model.matrix import Matrix
from envgen.model.spec import parse_spec
from envgen.render.indexes import IndexUrls
from envgen.render.plan import plan_pins_only

if TYPE_CHECKING:
    from refresh_matrix import PublishedCommand

FAMILY = ("torch", "torchvision", "torchaudio", "pytorch")


def render_files(
    matrix: Matrix, cmd: PublishedCommand, platform: str, accelerator: str
) -> dict[str, str]:
    """The files envgen writes for the command's release / compute / platform / manager."""
    release = matrix.release(cmd.release)
    assert release is not None, f"{cmd.release} missing from releases.yaml"
    # The newest Python with a wheel on that platform (PyPI's files: releases.yaml pypi-wheels).
    on_platform = release.pypi_pythons(platform) or release.python
    pythons = [p for p in release.python if p in on_platform]
    python = pythons[-1] if pythons else "3.8"
    names = {n.removesuffix("-cpu") for n, _ in cmd.packages}  # 1.0-1.1: pytorch-cpu, ...
    text = (
        f'name: t\ntorch: "{cmd.release}"\npython: "{python}"\naccelerators: [{accelerator}]\n'
        f"platforms: [{platform}]\nmanagers: [{cmd.manager}]\n"
        f"torchvision: {'true' if 'torchvision' in names else 'false'}\n"
        f"torchaudio: {'true' if 'torchaudio' in names else 'false'}\n"
    )
    spec = parse_spec(text, path=Path("/nonexistent/project.yaml"))
    _, files = plan_pins_only(
        spec, matrix, out=Path("/nonexistent/environments"), urls=IndexUrls(), custom_command=None
    )
    return {f.relpath.name: f.text for f in files}


def pip_expected(cmd: PublishedCommand) -> tuple[list[str], list[str]]:
    """(index lines, sorted `name==pin` lines) a requirements.txt for the command must hold."""
    pins = sorted(f"{n}=={cmd.pin(n)}" for n, _ in cmd.packages if n in FAMILY and cmd.pin(n))
    if cmd.index_form in (None, "pypi"):
        index: list[str] = []
    else:
        index = [f"--{cmd.index_form} {cmd.index_url}"]
    return index, pins


def pip_generated(text: str) -> tuple[list[str], list[str]]:
    """(index lines, sorted pin lines) of a generated requirements.txt."""
    body = [line for line in text.splitlines() if line and not line.startswith("#")]
    index = [line for line in body if line.startswith("-")]
    pins = sorted(line for line in body if not line.startswith("-"))
    return index, pins


def conda_expected(cmd: PublishedCommand) -> tuple[list[str], list[str]]:
    """(channels, sorted dependencies) an environment.yml for the command must hold.

    Family members the command names unpinned are left out: the matrix pins them.
    """
    deps = [f"{name}{spec}" for name, spec in cmd.packages if name not in FAMILY or spec]
    return list(cmd.channels), sorted(deps)


def conda_generated(text: str, cmd: PublishedCommand) -> tuple[list[str], list[str]]:
    """(channels, sorted dependencies) of a generated environment.yml, python and the family
    members `cmd` leaves unpinned left out."""
    doc = yaml.safe_load(text)
    unpinned = {n for n, s in cmd.packages if n in FAMILY and not s}
    deps = [
        d
        for d in doc["dependencies"]
        if isinstance(d, str) and not d.startswith("python=") and d.split("=")[0] not in unpinned
    ]
    return doc["channels"], sorted(deps)
