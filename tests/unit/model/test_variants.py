"""Expansion of a spec through the matrix: variants, ids, and the errors for what never existed."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import OptionError, UnsupportedCombinationError
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import conda_pins, expand, pip_pins, resolve_release, select

MINI = Path(__file__).parents[2] / "data" / "matrix-mini"


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix(MINI)


def spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec("name: p\n" + text, path=Path("project.yaml"))


def test_expand_single_python_uses_accelerator_ids(matrix: Matrix) -> None:
    exp = expand(
        spec('python: "3.10"\ntorch: "1.12.0"\naccelerators: [cu116, cpu, cu113]\n'), matrix
    )
    assert [v.id for v in exp.variants] == ["cpu", "cu113", "cu116"]
    cu116 = exp.variants[2]
    assert pip_pins(cu116) == {
        "torch": "1.12.0+cu116",
        "torchvision": "0.13.0+cu116",
        "torchaudio": "0.12.0",
    }
    assert conda_pins(cu116) == {
        "pytorch": "1.12.0",
        "torchvision": "0.13.0",
        "torchaudio": "0.12.0",
    }
    assert cu116.managers == ("pip", "conda")
    assert cu116.cuda == "11.6"


def test_expand_many_pythons_and_platforms(matrix: Matrix) -> None:
    exp = expand(
        spec(
            'python: ["3.11", "3.10"]\ntorch: ">=2.0,<2.2"\naccelerators: [cu121, cpu]\n'
            "platforms: [win-64, linux-64]\nmanagers: [pip]\n"
        ),
        matrix,
    )
    assert exp.release.torch == "2.1.0"
    assert [v.id for v in exp.variants] == [
        "cpu-py310-linux-64",
        "cpu-py310-win-64",
        "cpu-py311-linux-64",
        "cpu-py311-win-64",
        "cu121-py310-linux-64",
        "cu121-py310-win-64",
        "cu121-py311-linux-64",
        "cu121-py311-win-64",
    ]


def test_latest_and_default_python(matrix: Matrix) -> None:
    exp = expand(spec('torch: "latest"\n'), matrix)
    assert exp.release.torch == "2.1.0"
    assert [(v.id, v.python) for v in exp.variants] == [("cpu", "3.11")]


def test_all_accelerators(matrix: Matrix) -> None:
    exp = expand(spec('torch: "1.12.0"\npython: "3.9"\naccelerators: all\n'), matrix)
    assert [v.id for v in exp.variants] == ["cpu", "cu102", "cu113", "cu116", "rocm5.1.1"]
    rocm = exp.variants[-1]
    assert rocm.managers == ("pip",)
    assert rocm.warnings == (
        "torch 1.12.0 rocm5.1.1 on linux-64 was not published for conda (conda has: cpu, cu102, cu113, cu116); "
        "the rocm5.1.1 variant gets requirements.txt only",
        '[numpy-2-abi] pip rocm5.1.1: torch before 2.3 was built against numpy 1. Fix: add "numpy<2" to pip: '
        "(https://github.com/pytorch/pytorch/issues/107302)",
    )


def test_unpublished_accelerator(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(spec('python: "3.10"\ntorch: "2.1.0"\naccelerators: [cu116]\n'), matrix)
    assert str(info.value) == (
        "project.yaml: accelerators[0]: torch 2.1.0 was not published for cu116 on linux-64 (pip or conda); "
        "it was published for cpu, cu118, cu121 (did you mean 'cu118'?)"
    )
    assert info.value.exit_code == 10


def test_python_out_of_range(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(spec('python: "3.11"\ntorch: "1.12.0"\n'), matrix)
    assert str(info.value) == (
        "project.yaml: python: torch 1.12.0 supports python 3.7-3.10, not 3.11 (did you mean '3.10'?)"
    )


def test_companion_from_another_release(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(spec('python: "3.10"\ntorch: "1.12.0"\ntorchvision: "0.12.0"\n'), matrix)
    assert str(info.value) == (
        "project.yaml: torchvision: torchvision 0.12.0 belongs to torch 1.11.0, not 1.12.0; "
        "torch 1.12.0 pairs with torchvision 0.13.0"
    )


def test_several_problems_in_one_error(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(spec('python: "3.11"\ntorch: "1.12.0"\naccelerators: [cpu, cu118]\n'), matrix)
    assert str(info.value) == (
        "project.yaml: 2 combinations were never published\n"
        "  - project.yaml: python: torch 1.12.0 supports python 3.7-3.10, not 3.11 (did you mean '3.10'?)\n"
        "  - project.yaml: accelerators[1]: torch 1.12.0 was not published for cu118 on linux-64 (pip or conda); "
        "it was published for cpu, cu102, cu113, cu116, rocm5.1.1 (did you mean 'cu116'?)"
    )


def test_explicit_manager_missing_is_an_error(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(
            spec(
                'python: "3.10"\ntorch: "1.12.0"\naccelerators: [rocm5.1.1]\nmanagers: [pip, conda]\n'
            ),
            matrix,
        )
    assert str(info.value) == (
        "project.yaml: managers: torch 1.12.0 rocm5.1.1 on linux-64 was not published for conda "
        "(conda has: cpu, cu102, cu113, cu116); drop conda from managers or the accelerator"
    )


def test_release_resolution(matrix: Matrix) -> None:
    assert resolve_release("1.12.0", matrix).torch == "1.12.0"
    assert resolve_release("<2", matrix).torch == "1.12.0"
    with pytest.raises(UnsupportedCombinationError) as info:
        resolve_release("1.12.5", matrix)
    assert str(info.value) == (
        "torch: torch 1.12.5 is not a PyTorch release; releases near it: 1.12.0\n"
        '  hint: pin one of 1.12.0, or use a range such as ">=1.12,<1.13"'
    )
    with pytest.raises(UnsupportedCombinationError) as info:
        resolve_release(">=3", matrix)
    assert (
        str(info.value) == "torch: no torch release matches '>=3'; the matrix has 1.11.0 to 2.1.0"
    )


def test_known_issue_warning_and_its_fix(matrix: Matrix) -> None:
    warned = expand(spec('python: "3.10"\ntorch: "1.12.0"\n'), matrix).variants[0]
    assert warned.warnings == (
        '[numpy-2-abi] pip cpu: torch before 2.3 was built against numpy 1. Fix: add "numpy<2" to pip: '
        "(https://github.com/pytorch/pytorch/issues/107302)",
    )
    fixed = expand(spec('python: "3.10"\ntorch: "1.12.0"\npip: ["numpy<2"]\n'), matrix).variants[0]
    assert fixed.warnings == ()


def test_select_patterns(matrix: Matrix) -> None:
    variants = expand(spec('python: "3.10"\ntorch: "1.12.0"\naccelerators: all\n'), matrix).variants
    assert [v.id for v in select(variants, ("cu11*",))] == ["cu113", "cu116"]
    with pytest.raises(OptionError) as info:
        select(variants, ("cu118",))
    assert str(info.value) == (
        "--variant 'cu118' matches no variant; the spec has: cpu, cu102, cu113, cu116, rocm5.1.1 (did you mean 'cu116'?)"
    )
    assert info.value.exit_code == 2
    with pytest.raises(OptionError, match="for build, smoke, run and shell only"):
        select(variants, ("auto",))


def test_all_accelerators_respect_managers_and_platform() -> None:
    """`all` means what the spec's managers can install there (conda's cu100 is not pip's)."""
    real = load_matrix()
    exp = expand(
        spec(
            'torch: "1.2.0"\npython: "3.7"\naccelerators: all\nplatforms: [win-64]\n'
            "managers: [pip]\n"
        ),
        real,
    )
    assert [v.id for v in exp.variants] == ["cpu", "cu92"]
    assert {v.managers for v in exp.variants} == {("pip",)}
