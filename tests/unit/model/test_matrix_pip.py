"""matrix-pip: versions compared as pip compares them, and companions the artifacts accept.

Against the shipped matrix (matrices/, companions.yaml from the recorded PyPI Requires-Dist).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from envgen.errors import UnsupportedCombinationError
from envgen.model.matrix import CompanionRelease, Matrix, PipBuild, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.types import Platform
from envgen.model.variants import companion_accepts, conda_pins, expand, pip_pins, resolve_release
from envgen.render.commands import install_command
from envgen.render.export import render_pixi
from envgen.render.indexes import IndexUrls
from envgen.render.requirements import index_lines, requirement_lines
from envgen.repro.importer import import_text
from envgen.verification.matrix import Finding, verify_matrix

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import pypi_facts  # noqa: E402
import refresh_matrix  # noqa: E402
import refresh_releases  # noqa: E402

NUMPY = 'pip: ["numpy<2"]\n'


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec("name: p\n" + text, path=Path("project.yaml"))


# --- item 1: versions as pip compares them -------------------------------------------------------
@pytest.mark.parametrize(
    ("written", "release"),
    [
        ("1.10", "1.10.0"),
        ("1.0", "1.0.0"),
        ("2.1", "2.1.0"),
        ("1.10.0", "1.10.0"),
        ("==1.10", "1.10.0"),
        ("1.7.0+cu110", "1.7.0"),
        ("0.4.1.post2", "0.4.1"),
    ],
)
def test_release_names_compare_as_pep440(matrix: Matrix, written: str, release: str) -> None:
    assert resolve_release(written, matrix).torch == release


def test_release_lookup_is_by_version(matrix: Matrix) -> None:
    assert matrix.release("1.10") is matrix.release("1.10.0")
    assert matrix.release("0.4.1.post2") is None  # a post-release is not the release itself
    assert matrix.release_of("0.4.1.post2") is matrix.release("0.4.1")
    assert matrix.release_of("not a version") is None


def test_a_version_that_is_no_release_is_still_refused(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        resolve_release("1.10.5", matrix)
    assert str(info.value) == (
        "torch: torch 1.10.5 is not a PyTorch release; releases near it: 1.10.0, 1.10.1, 1.10.2\n"
        '  hint: pin one of 1.10.0, 1.10.1, 1.10.2, or use a range such as ">=1.10,<1.11"'
    )


def test_short_versions_expand_and_print_like_the_full_ones(matrix: Matrix) -> None:
    short = expand(_spec('torch: "1.10"\npython: "3.9"\naccelerators: [cu111]\n'), matrix)
    full = expand(_spec('torch: "1.10.0"\npython: "3.9"\naccelerators: [cu111]\n'), matrix)
    assert [v.summary() for v in short.variants] == [v.summary() for v in full.variants]
    cmd = install_command(matrix, torch="1.10", compute="cu111")
    assert cmd.text == install_command(matrix, torch="1.10.0", compute="cu111").text
    assert cmd.text == (
        "pip install torch==1.10.0+cu111 torchvision==0.11.0+cu111 torchaudio==0.10.0 "
        "-f https://download.pytorch.org/whl/torch_stable.html"
    )


def test_a_post_release_maps_to_its_release_with_a_warning(matrix: Matrix) -> None:
    exp = expand(
        _spec(
            'torch: "1.10.1.post1"\npython: "3.9"\naccelerators: [cpu]\nmanagers: [pip]\n'
            "torchvision: false\n" + NUMPY
        ),
        matrix,
    )
    (variant,) = exp.variants
    assert exp.release.torch == "1.10.1"
    assert pip_pins(variant)["torch"] == "1.10.1.post1+cpu"
    assert variant.warnings == (
        "torch 1.10.1.post1 is a post-release of 1.10.1: requirements.txt pins "
        "torch==1.10.1.post1 on 1.10.1's build rows (conda keeps pytorch 1.10.1)",
    )


def test_a_companion_written_short_is_the_paired_release(matrix: Matrix) -> None:
    exp = expand(
        _spec('torch: "1.7.0"\ntorchvision: "0.8"\npython: "3.8"\naccelerators: [cu110]\n' + NUMPY),
        matrix,
    )
    (variant,) = exp.variants
    assert pip_pins(variant)["torchvision"] == "0.8.0+cu110"
    assert variant.warnings == ()


# --- item 2: companions from artifacts -----------------------------------------------------------
def test_torchvision_081_with_torch_170_is_accepted_and_pinned(matrix: Matrix) -> None:
    exp = expand(
        _spec(
            'torch: "1.7.0"\ntorchvision: "0.8.1"\ntorchaudio: false\npython: "3.8"\n'
            "accelerators: [cu110, cpu]\n" + NUMPY
        ),
        matrix,
    )
    cpu, cu110 = exp.variants
    assert pip_pins(cu110) == {"torch": "1.7.0+cu110", "torchvision": "0.8.1+cu110"}
    assert pip_pins(cpu) == {"torch": "1.7.0+cpu", "torchvision": "0.8.1+cpu"}
    assert conda_pins(cu110) == {"pytorch": "1.7.0", "torchvision": "0.8.1"}
    assert cu110.warnings == (
        "torchvision 0.8.1 is not the release torch 1.7.0 was published with (torchvision "
        "0.8.0); it is used because its wheel accepts torch 1.7.0 (Requires-Dist torch==1.7.0)",
    )


def test_the_page_pairing_stays_the_default(matrix: Matrix) -> None:
    (variant,) = expand(
        _spec('torch: "1.7.0"\npython: "3.8"\naccelerators: [cu110]\n'), matrix
    ).variants
    assert pip_pins(variant)["torchvision"] == "0.8.0+cu110"


def test_a_companion_the_artifacts_refuse_is_refused(matrix: Matrix) -> None:
    with pytest.raises(UnsupportedCombinationError) as info:
        expand(_spec('torch: "1.7.0"\ntorchvision: "0.8.2"\naccelerators: [cpu]\n'), matrix)
    assert str(info.value) == (
        "project.yaml: torchvision: torchvision 0.8.2 belongs to torch 1.7.1 (its wheel requires "
        "torch==1.7.1), not 1.7.0; torch 1.7.0 pairs with torchvision 0.8.0"
    )


def test_a_companion_post_release_keeps_its_exact_pin(matrix: Matrix) -> None:
    (variant,) = expand(
        _spec(
            'torch: "1.3.0"\ntorchvision: "0.4.1.post2"\npython: "3.7"\naccelerators: [cu101]\n'
            "managers: [pip]\n"
        ),
        matrix,
    ).variants
    assert pip_pins(variant)["torchvision"] == "0.4.1.post2"


@pytest.mark.parametrize(
    ("name", "version", "torch", "accepted"),
    [
        ("torchvision", "0.8.1", "1.7.0", True),  # ==1.7.0
        ("torchvision", "0.8.1", "1.7.1", False),
        ("torchvision", "0.4.1.post2", "1.3.0", True),  # ==1.3.0.*
        ("torchvision", "0.4.1.post2", "1.3.1", False),
        ("torchvision", "0.2.2.post3", "1.0.1", True),  # unpinned torch, 1.0.1 pairs with 0.2.x
        # unpinned torch and pure Python (py2.py3-none-any only): no ABI, any release
        ("torchvision", "0.2.2", "1.2.0", True),
        ("torchvision", "0.3.0", "1.1.0", True),  # >=1.1.0 within the paired series
        ("torchvision", "0.3.0", "1.4.0", False),  # >=1.1.0 says nothing about 1.4's ABI
        ("torchvision", "0.29.1", "2.14.0", True),  # >=2.14.0
        ("torchaudio", "0.7.2", "1.7.1", True),
        ("torchaudio", "0.7.2", "1.7.0", False),
        ("torchvision", "9.9.9", "1.7.0", False),  # no such release
    ],
)
def test_companion_acceptance_table(
    matrix: Matrix, name: str, version: str, torch: str, accepted: bool
) -> None:
    release = matrix.release(torch)
    assert release is not None
    assert (companion_accepts(matrix, name, version, release) is not None) is accepted


def test_import_keeps_an_accepted_companion_pin(matrix: Matrix) -> None:
    result = import_text(
        "torch==1.7.0\ntorchvision==0.8.1\n", filename="requirements.txt", matrix=matrix
    )
    assert result.project["torch"] == "1.7.0"
    assert result.project["torchvision"] == "0.8.1"
    expand(parse_spec(result.text, path=Path("project.yaml")), matrix)


def test_yanked_companion_fix_is_now_installable(matrix: Matrix) -> None:
    """The known issue's fix (torchvision 0.11.1 with torch 1.10.0) is a pin envgen accepts."""
    (variant,) = expand(
        _spec(
            'torch: "1.10.0"\ntorchvision: "0.11.1"\npython: "3.9"\naccelerators: [cpu]\n'
            "managers: [pip]\n" + NUMPY
        ),
        matrix,
    ).variants
    assert pip_pins(variant) == {
        "torch": "1.10.0+cpu",
        "torchvision": "0.11.1+cpu",
        "torchaudio": "0.10.0",
    }


def test_import_reads_short_versions(matrix: Matrix) -> None:
    result = import_text("torch==1.10\n", filename="requirements.txt", matrix=matrix)
    assert result.project["torch"] == "1.10.0"


def test_companions_file_is_current() -> None:
    """matrices/companions.yaml is what scripts/refresh_releases.py writes from the recordings."""
    rows = refresh_releases.build_companion_rows(pypi_facts.load_recorded())
    text = refresh_releases.dump_companions(rows)
    assert (ROOT / "matrices" / "companions.yaml").read_text(encoding="utf-8") == text
    by_key = {(r["package"], r["version"]): r for r in rows}
    assert by_key["torchvision", "0.8.1"] == {
        "package": "torchvision",
        "version": "0.8.1",
        "torch": "==1.7.0",
        "source": "pypi Requires-Dist (torchvision-0.8.1-cp36-cp36m-manylinux1_x86_64.whl)",
        "pypi-wheels": [
            {"platform": "linux-64", "python": ["3.6", "3.7", "3.8"]},
            {"platform": "osx-64", "python": ["3.6", "3.7", "3.8"]},
        ],
    }


# --- item 3: published forms of 2.4.0-2.10.0 (stored copies of the page) ------------------------
@pytest.mark.parametrize(
    ("torch", "compute", "os_name", "text"),
    [
        ("2.4.0", "cu121", "linux", "--index-url https://download.pytorch.org/whl/cu121"),
        ("2.4.1", "cpu", "windows", "--index-url https://download.pytorch.org/whl/cpu"),
        ("2.5.1", "cu124", "linux", "--index-url https://download.pytorch.org/whl/cu124"),
        ("2.6.0", "cu124", "linux", "--index-url https://download.pytorch.org/whl/cu124"),
        ("2.7.1", "cu126", "linux", "--index-url https://download.pytorch.org/whl/cu126"),
        ("2.9.1", "cu128", "linux", "--index-url https://download.pytorch.org/whl/cu128"),
        ("2.10.0", "cu126", "linux", "--index-url https://download.pytorch.org/whl/cu126"),
        ("2.10.0", "rocm7.1", "linux", "--index-url https://download.pytorch.org/whl/rocm7.1"),
    ],
)
def test_published_index_lines_of_2_4_to_2_10(
    matrix: Matrix, torch: str, compute: str, os_name: str, text: str
) -> None:
    release = matrix.release(torch)
    assert release is not None
    cmd = install_command(matrix, torch=torch, compute=compute, os_name=os_name)
    assert cmd.text == (
        f"pip install torch=={torch} torchvision=={release.torchvision} "
        f"torchaudio=={release.torchaudio} {text}"
    )
    assert cmd.source.startswith("previous-versions copy (")
    assert not cmd.inferred


@pytest.mark.parametrize(
    ("torch", "platform", "acc"),
    [
        ("2.4.0", "linux-64", "cu121"),
        ("2.4.1", "linux-64", "cu121"),
        ("2.5.0", "linux-64", "cu124"),
        ("2.6.0", "linux-64", "cu124"),
        ("2.7.0", "linux-64", "cu126"),
        ("2.8.0", "linux-64", "cu128"),
        ("2.9.1", "linux-64", "cu128"),
        ("2.4.0", "win-64", "cpu"),
        ("2.9.1", "win-64", "cpu"),
    ],
)
def test_the_pypi_default_stays_a_separate_fact(
    matrix: Matrix, torch: str, platform: Platform, acc: str
) -> None:
    """The page's index row is marked as PyPI's own default build (what plain `pip install` gets)."""
    (row,) = [b for b in matrix.pip_builds(torch, platform) if b.accelerator == acc]
    assert row.index == "index-url"
    assert row.pypi_default
    others = [b for b in matrix.pip_builds(torch, platform) if b.pypi_default and b is not row]
    assert others == []


def test_2_10_0_has_no_local_labels_and_lists_rocm_7_1(matrix: Matrix) -> None:
    published = [b for b in matrix.pip_builds("2.10.0", "linux-64") if not b.inferred]
    assert sorted(b.accelerator for b in published) == ["cpu", "cu126", "cu128", "cu130", "rocm7.1"]
    assert {b.torch for b in published} == {"2.10.0"}
    # rocm7.0 existed (test-infra's release matrix) but the page does not list it.
    (rocm70,) = [b for b in matrix.pip_builds("2.10.0", "linux-64") if b.accelerator == "rocm7.0"]
    assert rocm70.inferred


def test_lts_command_prints_as_published(matrix: Matrix) -> None:
    cmd = install_command(matrix, torch="1.8.2", compute="cu111", os_name="linux")
    assert cmd.text == (
        "pip3 install torch==1.8.2 torchvision==0.9.2 torchaudio==0.8.2 "
        "--extra-index-url https://download.pytorch.org/whl/lts/1.8/cu111"
    )
    assert tuple(w for w in cmd.warnings if not w.startswith("known ")) == (
        "as published; the pinned equivalent envgen writes: pip install torch==1.8.2 "
        "torchvision==0.9.2 torchaudio==0.8.2 "
        "--extra-index-url https://download.pytorch.org/whl/lts/1.8/cu111",
    )


def test_copies_that_disagree_are_an_error(tmp_path: Path) -> None:
    for name, _ in refresh_matrix.COPIES:
        text = (refresh_matrix.COPIES_DIR / name).read_text(encoding="utf-8")
        if "blog" in name:
            text = text.replace("whl/cu126\n", "whl/cu127\n", 1)
        (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(refresh_matrix.PageFormatError) as info:
        refresh_matrix.parse_copies(None, tmp_path, after="2.3.1")
    assert str(info.value) == (
        "v2.8.0: previous-versions-blog-2025-02-11.md disagrees with previous-versions copy "
        "(web capture 2026-03-31)"
    )


# --- item 5: old eras (pip) ---------------------------------------------------------------------
@pytest.mark.parametrize("torch", ["1.0.0", "1.0.1", "1.1.0"])
def test_plain_pypi_torch_of_1_0_to_1_1_is_cuda_9_0_on_linux(matrix: Matrix, torch: str) -> None:
    (row,) = [b for b in matrix.pip_builds(torch, "linux-64") if b.pypi_default]
    assert (row.accelerator, row.index, row.torch) == ("cu90", "pypi", torch)
    assert row.inferred
    assert "cuda='9.0.176'" in row.source


def test_1_0_windows_prose_line_gets_a_pinned_equivalent(matrix: Matrix) -> None:
    cmd = install_command(matrix, torch="1.0.0", compute="cu100", os_name="windows")
    assert cmd.text == (
        "pip install torch==1.0.0 torchvision==0.2.1 "
        "-f https://download.pytorch.org/whl/cu100/torch_stable.html"
    )
    assert cmd.inferred


def test_1_0_linux_non_default_wheel_pages_name_their_wheel(matrix: Matrix) -> None:
    """Their unlabelled linux_x86_64 wheels lose to PyPI's manylinux1 cu90 wheel in uv and older
    pip, so those rows name the wheel itself; cu90 is PyPI's own build."""
    builds: dict[str, PipBuild] = {b.accelerator: b for b in matrix.pip_builds("1.0.0", "linux-64")}
    assert sorted(builds) == ["cpu", "cu100", "cu80", "cu90"]
    assert (builds["cu90"].index, builds["cu90"].wheel) == ("pypi", None)
    assert builds["cu80"].direct_urls("3.6")["torch"] == (
        "https://download.pytorch.org/whl/cu80/torch-1.0.0-cp36-cp36m-linux_x86_64.whl"
    )


def test_1_0_linux_wheel_rows_name_the_wheel_in_files_and_exports(matrix: Matrix) -> None:
    spec = _spec(
        'torch: "1.0.0"\npython: "3.6"\naccelerators: [cu100]\nplatforms: [linux-64]\n'
        "managers: [pip]\n"
    )
    (variant,) = expand(spec, matrix).variants
    wheel = "https://download.pytorch.org/whl/cu100/torch-1.0.0-cp36-cp36m-linux_x86_64.whl"
    assert requirement_lines(variant) == [f"torch @ {wheel}", "torchvision==0.2.1"]
    assert index_lines(variant, IndexUrls()) == []
    mirror = IndexUrls(pytorch_root="https://mirror.example/whl")
    assert requirement_lines(variant, mirror)[0] == (
        "torch @ https://mirror.example/whl/cu100/torch-1.0.0-cp36-cp36m-linux_x86_64.whl"
    )
    pixi = render_pixi(spec, matrix, IndexUrls())
    assert f'torch = {{ url = "{wheel}" }}' in pixi
    assert "find-links" not in pixi


def test_0_4_1_pip_uses_the_wheel_pages_with_a_warning(matrix: Matrix) -> None:
    (variant,) = expand(
        _spec('torch: "0.4.1"\npython: "3.6"\naccelerators: [cu92]\nmanagers: [pip]\n' + NUMPY),
        matrix,
    ).variants
    assert pip_pins(variant) == {"torch": "0.4.1", "torchvision": "0.2.1"}
    assert variant.pip is not None
    assert variant.pip.url == "https://download.pytorch.org/whl/cu92/torch_stable.html"
    assert variant.warnings == (
        "[pypi-torch-0.4-deleted] pip cu92: PyTorch published `pip install torch torchvision` "
        "(PyPI) for 0.4.x with CUDA 9.0 on Linux, but torch 0.4.x is no longer on PyPI; its Linux "
        "wheels for Python 3.7 are 0.4.1.post2, which `torch==0.4.1` does not match. Fix: Use the "
        "download.pytorch.org wheel page envgen writes (-f .../cu90/torch_stable.html) with Python "
        '3.6 or older, or pin torch: "0.4.1.post2" for Python 3.7. '
        "(https://pytorch.org/get-started/previous-versions/)",
    )


def test_0_4_1_post2_keeps_its_exact_pin(matrix: Matrix) -> None:
    (variant,) = expand(
        _spec('torch: "0.4.1.post2"\npython: "3.7"\naccelerators: [cu90]\nmanagers: [pip]\n'),
        matrix,
    ).variants
    assert pip_pins(variant) == {"torch": "0.4.1.post2", "torchvision": "0.2.1"}
    assert variant.warnings[0] == (
        "torch 0.4.1.post2 is a post-release of 0.4.1: requirements.txt pins "
        "torch==0.4.1.post2 on 0.4.1's build rows (conda keeps pytorch 0.4.1)"
    )


def test_1_8_0_rocm_recipe_prints_as_published_with_its_pin(matrix: Matrix) -> None:
    cmd = install_command(matrix, torch="1.8.0", compute="rocm4.0.1", os_name="linux")
    assert cmd.text == (
        "pip install torch -f https://download.pytorch.org/whl/rocm4.0.1/torch_stable.html && "
        "pip install ninja && pip install 'git+https://github.com/pytorch/vision.git@v0.9.0'"
    )
    assert tuple(w for w in cmd.warnings if not w.startswith("known ")) == (
        "as published; the pinned equivalent envgen writes: pip install torch==1.8.0+rocm4.0.1 "
        "-f https://download.pytorch.org/whl/rocm4.0.1/torch_stable.html",
    )


# --- item 4: PyPI defaults read from the wheels, 2.11-2.15 build matrix ------------------------
@pytest.mark.parametrize(
    ("torch", "platform", "acc"),
    [
        ("2.1.0", "linux-64", "cu121"),
        ("2.2.2", "linux-64", "cu121"),
        ("2.3.1", "linux-64", "cu121"),
        ("2.2.2", "linux-aarch64", "cpu"),
        ("2.2.2", "win-64", "cpu"),
        ("2.10.0", "linux-64", "cu128"),
        ("2.10.0", "linux-aarch64", "cpu"),
        ("2.11.0", "linux-aarch64", "cu130"),
        ("2.12.1", "linux-aarch64", "cu130"),
        ("2.13.0", "linux-64", "cu130"),
        ("2.13.0", "win-64", "cpu"),
    ],
)
def test_pypi_default_build_per_platform(
    matrix: Matrix, torch: str, platform: Platform, acc: str
) -> None:
    defaults = [b.accelerator for b in matrix.pip_builds(torch, platform) if b.pypi_default]
    assert defaults == [acc]


def test_plain_torch_2_2_2_imports_as_cu121(matrix: Matrix) -> None:
    result = import_text("torch==2.2.2\n", filename="requirements.txt", matrix=matrix)
    assert result.project["accelerators"] == ["cu121"]
    assert result.warnings[0] == (
        "requirements.txt: torch==2.2.2 has no local label and no PyTorch index: on linux-64 "
        "PyPI serves the cu121 build, so project.yaml asks for cu121"
    )


@pytest.mark.parametrize("torch", ["2.14.0", "2.14.1", "2.15.0"])
def test_cpu_works_for_2_14_and_2_15(matrix: Matrix, torch: str) -> None:
    (variant,) = expand(
        _spec(f'torch: "{torch}"\ntorchvision: false\ntorchaudio: false\naccelerators: [cpu]\n'),
        matrix,
    ).variants
    assert pip_pins(variant) == {"torch": f"{torch}+cpu"}
    assert variant.pip is not None
    assert variant.pip.url == "https://download.pytorch.org/whl/cpu"


def test_2_14_lists_its_release_build_matrix(matrix: Matrix) -> None:
    assert matrix.accelerators("2.14.0", "linux-64", "pip") == (
        "cpu",
        "cu126",
        "cu130",
        "cu132",
        "cu134",
        "rocm7.2",
        "rocm7.14",
    )
    assert matrix.accelerators("2.14.0", "win-64", "pip") == ("cpu", "cu126", "cu130", "cu132")
    assert matrix.accelerators("2.12.0", "linux-aarch64", "pip") == (
        "cpu",
        "cu126",
        "cu130",
        "cu132",
    )


# --- item 6: matrix verify checks companions.yaml and PyPI rows ---------------------------------
def test_shipped_matrix_verifies_clean_against_the_recorded_pypi_facts(matrix: Matrix) -> None:
    findings = verify_matrix(matrix, pypi_facts.load_recorded())
    assert [f for f in findings if f.where.startswith(("companions.yaml", "pip.yaml"))] == []


def test_verify_reports_a_companion_row_pypi_contradicts(matrix: Matrix) -> None:
    row = CompanionRelease(
        package="torchvision", version="0.8.1", torch="==1.7.1", source="pypi Requires-Dist (x)"
    )
    broken = matrix.model_copy(update={"companions": (row,), "pip": ()})
    findings = verify_matrix(broken, pypi_facts.load_recorded())
    assert [f for f in findings if f.where.startswith("companions.yaml")] == [
        Finding(
            "error",
            "companions.yaml torchvision 0.8.1",
            "Requires-Dist says torch==1.7.0, the row torch==1.7.1",
        )
    ]


def test_verify_reports_a_pypi_row_without_a_wheel(matrix: Matrix) -> None:
    (row,) = [b for b in matrix.pip_builds("1.0.0", "linux-64") if b.pypi_default]
    moved = row.model_copy(update={"platforms": ("linux-64", "win-64")})
    broken = matrix.model_copy(update={"pip": (moved,), "companions": ()})
    findings = verify_matrix(broken, pypi_facts.load_recorded())
    assert [f for f in findings if f.where.startswith("pip.yaml")] == [
        Finding(
            "error",
            "pip.yaml torch 1.0.0 cu90 linux-64/win-64",
            "torch 1.0.0 has no PyPI wheel for ['win-64']",
        )
    ]


# --- the 0.4.1 quick-start data (tests/data/recorded/copies/quick-start-module-0.4.1.js) -------
_QS = (ROOT / "tests" / "data" / "recorded" / "copies" / "quick-start-module-0.4.1.js").read_text(
    encoding="utf-8"
)
_QS_ENTRY = re.compile(
    r'"stable,pip,(linux|windows),(cudanone|cuda8|cuda9\.0|cuda9\.2),python(\d\.\d)":\s*"([^"]*)"'
)
_QS_WHEEL = re.compile(r"http://download\.pytorch\.org/whl/(\w+)/torch-([0-9.a-z]+)-cp\d+")
_QS_ACC = {"cudanone": "cpu", "cuda8": "cu80", "cuda9.0": "cu90", "cuda9.2": "cu92"}
QUICK_START = [
    (m.group(1), _QS_ACC[m.group(2)], m.group(3), m.group(4)) for m in _QS_ENTRY.finditer(_QS)
]


def test_quick_start_excerpt_has_every_linux_and_windows_pip_entry() -> None:
    assert len(QUICK_START) == 32


@pytest.mark.parametrize(
    ("os_name", "acc", "python", "text"),
    [q for q in QUICK_START if not q[3].startswith("#")],
    ids=[f"{q[0]}-{q[1]}-py{q[2]}" for q in QUICK_START if not q[3].startswith("#")],
)
def test_0_4_1_rows_reach_the_quick_start_wheels(
    matrix: Matrix, os_name: str, acc: str, python: str, text: str
) -> None:
    """Each 0.4.1 wheel the quick-start data names is what envgen's row installs: the same
    wheel directory, the same version (0.4.1.post2 when the spec pins it); the PyPI line is the
    deleted route, answered by the cu90 wheel page and the known issue."""
    wheel = _QS_WHEEL.search(text)
    torch = wheel.group(2) if wheel else "0.4.1"
    platform: Platform = "linux-64" if os_name == "linux" else "win-64"
    if python == "2.7":  # project.yaml takes Python 3 only; check the row itself
        (row,) = [b for b in matrix.pip_builds("0.4.1", platform) if b.accelerator == acc]
        assert row.url == f"https://download.pytorch.org/whl/{acc}/torch_stable.html"
        assert wheel is None or (wheel.group(1), wheel.group(2)) == (acc, row.torch)
        return
    (variant,) = expand(
        _spec(
            f'torch: "{torch}"\npython: "{python}"\naccelerators: [{acc}]\n'
            f"platforms: [{platform}]\nmanagers: [pip]\ntorchvision: false\n"
        ),
        matrix,
    ).variants
    assert variant.pip is not None
    assert pip_pins(variant) == {"torch": torch}
    assert variant.pip.url == f"https://download.pytorch.org/whl/{acc}/torch_stable.html"
    if wheel is None:
        assert text in ("pip install torch torchvision", "pip3 install torch torchvision")
        assert any(w.startswith("[pypi-torch-0.4-deleted]") for w in variant.warnings)
    else:
        assert wheel.group(1) == acc


def test_plain_torch_0_4_1_imports_as_the_cuda_9_0_build_pypi_served(matrix: Matrix) -> None:
    result = import_text(
        "torch==0.4.1\ntorchvision==0.2.1\n", filename="requirements.txt", matrix=matrix
    )
    assert result.project["accelerators"] == ["cu90"]
    assert any(w.startswith("[pypi-torch-0.4-deleted]") for w in result.warnings)
