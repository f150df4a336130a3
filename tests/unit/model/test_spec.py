"""project.yaml parsing: every problem reported at once, with line, key, choices and a fix."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from envgen.errors import SpecError
from envgen.infra.urls import check_index_url
from envgen.model.spec import parse_spec

P = Path("project.yaml")


def problems(text: str) -> list[str]:
    with pytest.raises(SpecError) as info:
        parse_spec(text, path=P)
    assert info.value.exit_code == 3
    return info.value.problems


def test_minimal_spec_gets_defaults() -> None:
    spec = parse_spec('name: p\ntorch: "2.1.0"\n', path=P)
    assert spec.name == "p"
    assert spec.torch == "2.1.0"
    assert spec.python == ()
    assert spec.accelerators == ("cpu",)
    assert spec.platforms == ("linux-64",)
    assert spec.managers == ("pip", "conda")
    assert spec.managers_explicit is False
    assert spec.torchvision is True
    assert spec.torchaudio is True
    assert spec.lock.resolver == "uv"
    assert spec.lock.exclude_newer is None


def test_full_spec() -> None:
    text = """\
name: my-paper
python: "3.10"
torch: ">=2.1,<2.3"
torchvision: "0.16.0"
torchaudio: false
accelerators: [cpu, cu118, rocm5.6]
platforms: [linux-64, win-64]
managers: [pip]
pip: ["numpy<2", "timm==0.4.12"]
conda: {channels: [conda-forge], dependencies: [ffmpeg]}
lock: {exclude_newer: 2021-06-30, resolver: pip-tools}
pytorch_index: https://mirror.example/whl/
"""
    spec = parse_spec(text, path=P)
    assert spec.python == ("3.10",)
    assert spec.torch == ">=2.1,<2.3"
    assert spec.torchvision == "0.16.0"
    assert spec.torchaudio is False
    assert spec.accelerators == ("cpu", "cu118", "rocm5.6")
    assert spec.platforms == ("linux-64", "win-64")
    assert spec.managers == ("pip",)
    assert spec.managers_explicit is True
    assert spec.pip == ("numpy<2", "timm==0.4.12")
    assert spec.conda.channels == ("conda-forge",)
    assert spec.conda.dependencies == ("ffmpeg",)
    assert spec.lock.exclude_newer == dt.date(2021, 6, 30)
    assert spec.lock.resolver == "pip-tools"
    assert spec.pytorch_index == "https://mirror.example/whl"


def test_all_problems_reported_together_with_lines() -> None:
    text = """\
name: my paper
python: 3.10
torch: 1.12
accelerators: [cpu, cu113, cuda11.6, cpu]
platforms: [linux64]
managers: [pip, poetry]
conda: {channels: [conda-forge], dependences: [ffmpeg]}
extra: 1
"""
    assert problems(text) == [
        "project.yaml:8: extra: unknown key; valid keys: name, python, torch, torchvision, torchaudio, "
        "accelerators, platforms, managers, pip, conda, lock, pytorch_index, pypi_index, write_index, ci, "
        "trusted_hosts, torch_from",
        "project.yaml:1: name: 'my paper' is not a valid name: use 1-64 letters, digits, '.', '_' or '-', "
        "starting with a letter or digit (it names environments and files, so no '/' or spaces)",
        'project.yaml:2: python: expected a string such as "3.10", got a number; '
        "YAML read it as the number 3.1: quote it: '3.10'",
        "project.yaml:3: torch: expected a string, got a number; YAML read it as the number 1.12: quote it: '1.12'",
        "project.yaml:4: accelerators[2]: 'cuda11.6' is not a compute platform; use cpu, cuXYZ (cu118), "
        "rocmX.Y (rocm6.1) or xpu (did you mean 'cu116'?)",
        "project.yaml:4: accelerators[3]: cpu is listed twice",
        "project.yaml:5: platforms[0]: 'linux64' is not one of linux-64, linux-aarch64, osx-64, osx-arm64, "
        "win-64 (did you mean 'linux-64'?)",
        "project.yaml:6: managers[1]: 'poetry' is not one of pip, conda",
        "project.yaml:7: conda.dependences: unknown key; valid keys: channels, dependencies, source "
        "(did you mean 'dependencies'?)",
    ]


def test_error_message_lists_problems() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec("name: p\n", path=P)
    assert str(info.value) == (
        'project.yaml: torch: missing; give a release ("2.1.0"), a range (">=2.1,<2.3") or "latest"'
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "- a\n- b\n",
            "project.yaml: (top level): expected a mapping of keys (name, python, torch, torchvision, torchaudio, ...), got a list",
        ),
        (
            'name: p\ntorch: "1.2.3.4.x"\n',
            'project.yaml:2: torch: \'1.2.3.4.x\' is neither a version ("2.1.0"), a specifier (">=2.1,<2.3") nor "latest"',
        ),
        (
            'name: p\ntorch: "2.1.0"\npython: "3"\n',
            "project.yaml:3: python: '3' is not a Python version; write major.minor, e.g. \"3.10\"",
        ),
        (
            'name: p\ntorch: "2.1.0"\naccelerators: []\n',
            "project.yaml:3: accelerators: the list is empty; name at least one, e.g. [cpu]",
        ),
        (
            'name: p\ntorch: "2.1.0"\naccelerators: [cpu, all]\n',
            'project.yaml:3: accelerators[1]: "all" stands alone: write `accelerators: all`',
        ),
        (
            'name: p\ntorch: "2.1.0"\npip: ["torch==2.1.0"]\n',
            "project.yaml:3: pip[0]: torch is set by the `torch`/`torch` keys, not under pip:; remove it here",
        ),
        (
            'name: p\ntorch: "2.1.0"\npip: ["numpy", "NumPy<2"]\n',
            "project.yaml:3: pip[1]: NumPy is already listed at pip[0]; merge them",
        ),
        (
            'name: p\ntorch: "2.1.0"\npip: ["x @ https://e.com/x.whl"]\n',
            "project.yaml:3: pip[0]: 'x @ https://e.com/x.whl': direct URL requirements cannot be locked reproducibly; pin a version",
        ),
        (
            'name: p\ntorch: "2.1.0"\nlock: {exclude_newer: "June 2021"}\n',
            "project.yaml:3: lock.exclude_newer: 'June 2021' is not a date; write YYYY-MM-DD, e.g. 2021-06-30",
        ),
        (
            'name: p\ntorch: "2.1.0"\nlock: {resolver: pip-tool}\n',
            "project.yaml:3: lock.resolver: 'pip-tool' is not one of uv, pip-tools (did you mean 'pip-tools'?)",
        ),
        (
            'name: p\ntorch: "2.1.0"\npytorch_index: "https://x.example/whl; rm -rf /"\n',
            "project.yaml:3: pytorch_index: 'https://x.example/whl; rm -rf /' contains spaces or shell metacharacters; give a plain URL",
        ),
        (
            'name: p\ntorch: "2.1.0"\npypi_index: http://mirror.example/simple\n',
            "project.yaml:3: pypi_index: plain-http index 'http://mirror.example/simple' can be tampered with in transit; use https, a file:// path, or list its host under trusted_hosts",
        ),
        (
            'name: ../etc\ntorch: "2.1.0"\n',
            "project.yaml:1: name: '../etc' is not a valid name: use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit (it names environments and files, so no '/' or spaces)",
        ),
        (
            'name: p\ntorch: "2.1.0"\ntorchvision: 0.16\n',
            "project.yaml:3: torchvision: expected true, false or a quoted version, got a number; YAML read it as the number 0.16: quote it: '0.16'",
        ),
        (
            'name: p\ntorch: "2.1.0"\nconda: {dependencies: ["pytorch=2.1"]}\n',
            "project.yaml:3: conda.dependencies[0]: 'pytorch=2.1' is set by envgen from torch/python; remove it here",
        ),
        (
            'name: p\ntorch: "2.1.0"\nconda: {dependencies: ["ffmpeg; rm -rf /"]}\n',
            "project.yaml:3: conda.dependencies[0]: 'ffmpeg; rm -rf /' is not a conda match spec such as ffmpeg or \"ffmpeg>=6\"",
        ),
    ],
)
def test_single_problem_messages(text: str, expected: str) -> None:
    assert problems(text) == [expected]


def test_bad_yaml_names_line_and_column() -> None:
    assert problems("name: p\ntorch: [1, 2\n") == [
        "project.yaml:3:1: not valid YAML: expected ',' or ']', but got '<stream end>'"
    ]


def test_non_utf8() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(b"name: p\xff\n", path=P)
    assert str(info.value) == "project.yaml: not UTF-8 (byte 7: b'\\xff'); save it as UTF-8"


def test_huge_file() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(b"#" * 300_000, path=P)
    assert (
        str(info.value)
        == "project.yaml: the file is 300000 bytes; a project.yaml may be at most 262144"
    )


def test_index_url_checks() -> None:
    assert check_index_url("https://mirror.example/whl") is None
    assert check_index_url("file:///srv/whl") is None
    assert check_index_url("http://127.0.0.1:8000/whl") is None
    assert check_index_url("http://mirror.example/whl", trusted=True) is None
    assert check_index_url("ftp://x/whl") == "'ftp://x/whl' is not an http(s):// or file:// URL"


def test_duplicate_keys_are_reported() -> None:
    assert problems('name: p\ntorch: "2.1.0"\npython: "3.10"\ntorch: "1.12.0"\n') == [
        "project.yaml:4: torch: duplicate key (first set at line 2); "
        "YAML would keep only the last one: remove one of them"
    ]


def test_a_huge_list_of_mistakes_reports_the_first_fifty() -> None:
    text = 'name: p\ntorch: "2.1.0"\naccelerators: [' + ", ".join(["cpu"] * 10_000) + "]\n"
    got = problems(text)
    assert len(got) == 51
    assert got[0] == "project.yaml:3: accelerators[1]: cpu is listed twice"
    assert got[49] == "project.yaml:3: accelerators[50]: cpu is listed twice"
    assert got[50] == "project.yaml: ... and 9949 more problems not shown; fix these first"
    with pytest.raises(SpecError) as info:
        parse_spec(text, path=P)
    assert str(info.value).splitlines()[0] == "project.yaml: 9999 problems"


def test_keys_yaml_reads_as_other_types_keep_their_line() -> None:
    text = 'name: p\ntorch: "2.1.0"\n~: 1\ntrue: 2\n3: 4\n'
    assert [p.split(": unknown key")[0] for p in problems(text)] == [
        "project.yaml:3: None",
        "project.yaml:4: True",
        "project.yaml:5: 3",
    ]


@pytest.mark.parametrize(
    "dep", ["Pytorch", "PYTORCH>=2", "pytorch-cpu", "pytorch-gpu=2.1", "Python=3.11", "TorchVision"]
)
def test_conda_dependencies_that_envgen_sets_are_refused_in_any_case(dep: str) -> None:
    """The check was case-sensitive, and missed the pytorch-cpu / pytorch-gpu metapackages."""
    assert problems(f'name: p\ntorch: "2.1.0"\nconda: {{dependencies: ["{dep}"]}}\n') == [
        f"project.yaml:3: conda.dependencies[0]: {dep!r} is set by envgen from torch/python; "
        "remove it here"
    ]
