"""The comparison behind `check` / `build`: a lock against a fresh resolution, named by line."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from envgen.lock.condalock import CondaLock, CondaPackage
from envgen.lock.lockfile import with_header
from envgen.lock.verify import (
    conda_url_problems,
    direct_url_problems,
    index_line_problems,
    pin_mismatches,
    requirement_problems,
    text_problems,
)
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.header import Header
from envgen.render.indexes import IndexUrls
from envgen.render.requirements import requirement_lines

MINI: Final = Path(__file__).parents[2] / "data" / "matrix-mini"
HEADER: Final = Header(command="envgen lock project.yaml", input_hash="sha256:0", description="d")
A: Final = "a" * 64
B: Final = "b" * 64
C: Final = "c" * 64
FRESH: Final = (
    "--index-url https://download.pytorch.org/whl/cpu\n"
    "--extra-index-url https://pypi.org/simple\n"
    "\n"
    f"filelock==3.13.1 \\\n    --hash=sha256:{A} \\\n    --hash=sha256:{B}\n"
    f"torch==2.1.0+cpu \\\n    --hash=sha256:{C}\n"
)


@pytest.fixture
def cpu() -> Variant:
    spec = parse_spec(
        'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n'
        'pip: ["numpy<2"]\n',
        path=Path("project.yaml"),
    )
    return expand(spec, load_matrix(MINI)).variants[0]


def locked(body: str) -> str:
    """A lock as written (the header takes lines 1-5: the body starts at line 6)."""
    return with_header(HEADER, body)


def test_an_identical_lock_has_no_problems(cpu: Variant) -> None:
    assert index_line_problems(locked(FRESH), cpu, IndexUrls()) == []
    assert requirement_problems(locked(FRESH), FRESH) == []


def test_index_lines_are_judged_against_the_spec(cpu: Variant) -> None:
    body = FRESH.replace("/whl/cpu\n", "/whl/cu130\n")
    assert index_line_problems(locked(body), cpu, IndexUrls()) == [
        "line 6: `--index-url https://download.pytorch.org/whl/cu130` is not an index line the "
        "spec and settings write (they write: `--index-url https://download.pytorch.org/whl/cpu`,"
        " `--extra-index-url https://pypi.org/simple`)",
        "`--index-url https://download.pytorch.org/whl/cpu` is missing: the spec and settings "
        "write this index line",
    ]


def test_an_option_line_envgen_never_writes_is_refused_by_the_parser(cpu: Variant) -> None:
    body = FRESH.replace("/whl/cpu\n", "/whl/cpu\n--trusted-host evil.example\n")
    assert index_line_problems(locked(body), cpu, IndexUrls()) == [
        "line 7: `--trusted-host evil.example` is not an index line envgen writes "
        "(`--index-url URL`, `--extra-index-url URL`, `--find-links URL`); no other option line "
        "is accepted",
    ]


def test_pins_and_hashes_are_compared_by_line() -> None:
    body = (
        FRESH.replace("filelock==3.13.1", "filelock==3.9.0")
        .replace(f"--hash=sha256:{C}", f"--hash=sha256:{A}")
        .replace("torch==2.1.0+cpu", "torch==2.1.0+cpu ; sys_platform == 'linux'")
        + f"six==1.17.0 \\\n    --hash=sha256:{B}\n"
    )
    assert requirement_problems(locked(body), FRESH) == [
        "line 9: filelock==3.9.0 but its inputs resolve to filelock==3.13.1",
        "line 12: `torch==2.1.0+cpu ; sys_platform == 'linux'` is not part of what its inputs "
        "resolve to (an added package)",
        "line 14: `six==1.17.0` is not part of what its inputs resolve to (an added package)",
        "torch==2.1.0+cpu is missing: its inputs resolve to it",
    ]


def test_a_line_that_is_no_requirement_is_named() -> None:
    assert requirement_problems(locked(FRESH + "not a requirement\n"), FRESH) == [
        "line 14: `not a requirement` is not a requirement (`name==version`, `name @ URL`)",
    ]


def test_a_hash_the_index_does_not_serve_for_the_pin_is_named() -> None:
    body = FRESH.replace(f"--hash=sha256:{C}", f"--hash=sha256:{A}")
    assert requirement_problems(locked(body), FRESH) == [
        f"line 13: --hash=sha256:{A} is not the hash of any file the index serves for "
        "torch==2.1.0+cpu"
    ]


def test_credentials_in_a_forged_line_are_masked() -> None:
    body = FRESH + "evil==1 --hash=sha256:" + A + " # https://bob:SECRET@evil.example/x\n"
    (problem,) = requirement_problems(locked(body), FRESH)
    assert "SECRET" not in problem


def test_conda_locks_are_compared_line_by_line() -> None:
    fresh = "package:\n- name: numpy\n  url: https://conda.anaconda.org/pytorch/numpy.tar.bz2\n"
    body = fresh.replace("https://conda.anaconda.org", "http://evil.example") + "- name: extra\n"
    assert text_problems(locked(body), fresh) == [
        "line 8: `url: http://evil.example/pytorch/numpy.tar.bz2` is not what its inputs solve "
        "to (they give `url: https://conda.anaconda.org/pytorch/numpy.tar.bz2`)",
        "line 9: `- name: extra` is not what its inputs solve to",
    ]


def test_conda_urls_must_be_on_a_channel_of_the_spec() -> None:
    spec = parse_spec(
        'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [conda]\n',
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix(MINI)).variants
    good = "https://conda.anaconda.org/pytorch/linux-64/numpy-1.26.4-0.tar.bz2"
    evil = "http://evil.example/pytorch/linux-64/numpy-1.26.4-0.tar.bz2"

    def unified(url: str) -> str:
        packages = (
            CondaPackage(
                name="numpy",
                version="1.26.4",
                manager="conda",
                platform="linux-64",
                url=url,
                md5="0",
            ),
            CondaPackage(
                name="six",
                version="1.16.0",
                manager="pip",
                platform="linux-64",
                url="https://files.pythonhosted.org/six.whl",
                sha256=A,
            ),
        )
        return CondaLock(
            content_hash=(("linux-64", A),),
            channels=("pytorch",),
            platforms=("linux-64",),
            sources=("environment.yml",),
            packages=packages,
        ).render()

    assert conda_url_problems("conda-lock.yml", locked(unified(good)), variant) == []
    text = locked(unified(evil))
    number = text.splitlines().index(f"  url: {evil}") + 1
    assert conda_url_problems("conda-lock.yml", text, variant) == [
        f"line {number}: {evil} is not on a channel of the spec (https://conda.anaconda.org/pytorch)"
    ]
    spec_in_a_version = text.replace("version: 1.26.4", "version: 1.26.4|>=0")
    assert conda_url_problems("conda-lock.yml", spec_in_a_version, variant) == [
        "package[0]: 'numpy' '1.26.4|>=0' is not a package"
    ]
    forged = text.replace("manager: conda", "manager: conda\n  extra: 1")
    assert conda_url_problems("conda-lock.yml", forged, variant) == [
        "package[0]: not an entry with the fields name, version, manager, platform, dependencies, "
        "url, hash, category, optional"
    ]
    explicit = f"# platform: linux-64\n@EXPLICIT\n{good}#ab\n{evil}#cd\n"
    assert conda_url_problems("conda-linux-64.lock", locked(explicit), variant) == [
        f"line 9: {evil} is not on a channel of the spec (https://conda.anaconda.org/pytorch)"
    ]


def test_a_direct_wheel_url_pins_by_itself() -> None:
    """Rows that name their torch wheel lock it as `torch @ URL` (torch 1.0-1.1 on Linux)."""
    wheel = "https://download.pytorch.org/whl/cpu/torch-1.0.0-cp36-cp36m-linux_x86_64.whl"
    fresh = (
        f"torch @ {wheel} \\\n    --hash=sha256:{C}\ntorchvision==0.2.1 \\\n    --hash=sha256:{A}\n"
    )
    assert requirement_problems(locked(fresh), fresh) == []
    other = wheel.replace("/cpu/", "/cu100/")
    assert requirement_problems(locked(fresh.replace(wheel, other)), fresh) == [
        f"line 6: torch=={other} but its inputs resolve to torch=={wheel}"
    ]
    assert requirement_problems(locked(fresh.replace(C, B)), fresh) == [
        f"line 7: --hash=sha256:{B} is not the hash of any file the index serves for torch=={wheel}"
    ]


def _wheel_variant() -> Variant:
    """torch 1.0.0 cpu on Linux: its row names the page's wheel (the shipped matrix)."""
    spec = parse_spec(
        'name: p\npython: "3.7"\ntorch: "1.0.0"\ntorchvision: "0.2.1"\ntorchaudio: false\n'
        "accelerators: [cpu]\nmanagers: [pip]\nplatforms: [linux-64]\n",
        path=Path("project.yaml"),
    )
    return expand(spec, load_matrix()).variants[0]


def test_only_the_rows_own_wheel_url_may_be_named() -> None:
    """A lock may name one direct URL: its row's torch wheel as the spec writes it. A forged
    URL (with its own hash, which uv would accept) is refused by the cheap checks too: the
    index-line check every build runs (even --allow-stale) and the pins-only check."""
    variant = _wheel_variant()
    own = "https://download.pytorch.org/whl/cpu/torch-1.0.0-cp37-cp37m-linux_x86_64.whl"
    assert variant.pip is not None
    assert variant.pip.direct_urls("3.7")["torch"] == own
    good = (
        f"torch @ {own} \\\n    --hash=sha256:{C}\ntorchvision==0.2.1 \\\n    --hash=sha256:{A}\n"
    )
    assert direct_url_problems(locked(good), variant, IndexUrls()) == []
    assert pin_mismatches(locked(good), variant, IndexUrls()) == []
    evil = good.replace(own, "https://evil.example/torch-1.0.0-cp37-cp37m-linux_x86_64.whl")
    problems = direct_url_problems(locked(evil), variant, IndexUrls())
    assert problems[0].startswith("line 6: `torch @ https://evil.example/")
    assert problems[0].endswith(
        f"is a direct URL envgen does not write (it writes `torch @ {own}`)"
    )
    assert problems[1] == f"`torch @ {own}` is missing: the matrix row names this wheel"
    assert pin_mismatches(locked(evil), variant, IndexUrls()) == problems
    # Another package by URL is refused as well, on any variant.
    other = (
        good + f"six @ https://evil.example/six-1.0-py3-none-any.whl \\\n    --hash=sha256:{B}\n"
    )
    assert [p.split(":")[0] for p in direct_url_problems(locked(other), variant, IndexUrls())] == [
        "line 10"
    ]


def test_a_variant_without_a_wheel_row_names_no_direct_url(cpu: Variant) -> None:
    body = FRESH.replace("torch==2.1.0+cpu", "torch @ https://evil.example/torch.whl")
    (problem,) = direct_url_problems(locked(body), cpu, IndexUrls())
    assert problem.endswith(
        "is a direct URL envgen does not write (it writes none for this variant)"
    )


def test_torch_1_1_names_torchvision_by_url_too() -> None:
    """torchvision 0.3.0 has compiled ops built per compute platform: the 1.1.0 Linux rows name
    the page's torchvision wheel as well (PyPI's goes with PyPI's cu90 torch)."""
    spec = parse_spec(
        'name: p\npython: "3.6"\ntorch: "1.1.0"\ntorchvision: "0.3.0"\ntorchaudio: false\n'
        "accelerators: [cu100]\nmanagers: [pip]\nplatforms: [linux-64]\n",
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix()).variants
    root = "https://download.pytorch.org/whl/cu100"
    torch = f"{root}/torch-1.1.0-cp36-cp36m-linux_x86_64.whl"
    vision = f"{root}/torchvision-0.3.0-cp36-cp36m-linux_x86_64.whl"
    assert requirement_lines(variant) == [f"torch @ {torch}", f"torchvision @ {vision}"]
    body = (
        f"torch @ {torch} \\\n    --hash=sha256:{C}\n"
        f"torchvision @ {vision} \\\n    --hash=sha256:{A}\n"
    )
    assert direct_url_problems(locked(body), variant, IndexUrls()) == []
    pypi = body.replace(f"torchvision @ {vision}", "torchvision==0.3.0")
    assert direct_url_problems(locked(pypi), variant, IndexUrls()) == [
        f"`torchvision @ {vision}` is missing: the matrix row names this wheel"
    ]
