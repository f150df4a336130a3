"""Values from a cloned spec cannot add lines, keys or list items to generated files (issue 16.3).

Injected values are either refused by the spec with a whole message, or written through the
YAML emitter so that the written environment.yml parses to exactly the intended data.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

import pytest
import yaml

from envgen.errors import SpecError
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.render.environment import render_environment
from envgen.render.header import Header

MINI: Final = Path(__file__).parents[2] / "data" / "matrix-mini"
GOOD: Final = 'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\n'
HEADER: Final = Header(command="envgen lock project.yaml", input_hash="sha256:0", description="d")


def problems(extra: str) -> list[str]:
    with pytest.raises(SpecError) as info:
        parse_spec(GOOD + extra, path=Path("project.yaml"))
    return info.value.problems


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            'conda: {dependencies: ["ffmpeg\\n  - pip: [\\"--index-url http://evil.example\\"]"]}\n',
            "project.yaml:5: conda.dependencies[0]: 'ffmpeg\\n  - pip: [\"--index-url "
            'http://evil.example"]\' is not a conda match spec such as ffmpeg or "ffmpeg>=6"',
        ),
        (
            'conda: {dependencies: ["ffmpeg >=6\\n"]}\n',
            "project.yaml:5: conda.dependencies[0]: 'ffmpeg >=6\\n' is not a conda match spec "
            'such as ffmpeg or "ffmpeg>=6"',
        ),
        (
            'conda: {dependencies: ["ffmpeg # x"]}\n',
            "project.yaml:5: conda.dependencies[0]: 'ffmpeg # x' is not a conda match spec "
            'such as ffmpeg or "ffmpeg>=6"',
        ),
        (
            'conda: {channels: ["conda-forge\\n"]}\n',
            "project.yaml:5: conda.channels[0]: 'conda-forge\\n' is not a channel name such as "
            "conda-forge",
        ),
        (
            'ci: {gpu_runner: "gpu\\n"}\n',
            "project.yaml:5: ci.gpu_runner: 'gpu\\n' is not a runner label (letters, digits, "
            "'.', '_', '-', ',')",
        ),
        (
            'trusted_hosts: ["mirror.example\\n"]\n',
            "project.yaml:5: trusted_hosts[0]: 'mirror.example\\n' is not a host name (letters, "
            "digits, '.', '-'; no scheme or port)",
        ),
        (
            'pip: ["numpy ; python_version >= \\"3.8\\" #x"]\n',
            "project.yaml:5: pip[0]: 'numpy ; python_version >= \"3.8\" #x' holds ` #`; a "
            "requirement is one line of a requirements file (pip reads ` #` as the start of a "
            "comment)",
        ),
    ],
)
def test_injected_values_are_refused(extra: str, message: str) -> None:
    assert problems(extra) == [message]


def test_a_trailing_newline_in_the_name_is_refused() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec('name: "inj\\n"\npython: "3.11"\ntorch: "2.1.0"\n', path=Path("project.yaml"))
    assert info.value.problems == [
        "project.yaml:1: name: 'inj\\n' is not a valid name: use 1-64 letters, digits, '.', '_' "
        "or '-', starting with a letter or digit (it names environments and files, so no '/' or "
        "spaces)"
    ]


def test_a_trailing_newline_in_python_is_refused() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec('name: p\npython: "3.11\\n"\ntorch: "2.1.0"\n', path=Path("project.yaml"))
    assert len(info.value.problems) == 1
    assert info.value.problems[0].startswith("project.yaml:2: python: '3.11\\n'")


def test_marker_strings_are_written_through_the_yaml_emitter() -> None:
    """`: ` and `#` in a marker's string literal stay inside one list item."""
    pip = [
        'numpy<2; platform_version == "a: b"',
        'six; platform_release == "#1 SMP"',
        'tqdm; platform_version == "yes"',
    ]
    spec = parse_spec(
        GOOD + "managers: [conda]\n" + "pip:\n" + "".join(f"  - {json.dumps(p)}\n" for p in pip),
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix(MINI)).variants
    written = render_environment(variant, header=HEADER)
    data = yaml.safe_load(written)
    deps = data["dependencies"]
    assert deps[-2:] == ["pip", {"pip": sorted(spec.pip, key=str.lower)}]
    assert sorted(deps[-1]["pip"]) == sorted(spec.pip)
    assert set(data) == {"name", "channels", "dependencies"}
    assert data["name"] == "p-cpu"
