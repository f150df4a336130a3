"""envgen.verification.pypi: parsing PEP 691 pages and checking releases against PyPI facts, offline."""

from __future__ import annotations

from typing import Any

import pytest

from envgen.model.matrix import Matrix, Release
from envgen.verification.matrix import Finding, verify_matrix
from envgen.verification.pypi import (
    PackageFacts,
    PypiFacts,
    file_facts,
    metadata_wheel,
    parse_simple,
    requires_dist_lines,
    wheel_platform,
)


def _page(name: str, files: list[tuple[str, str, Any]]) -> dict[str, Any]:
    return {
        "name": name,
        "files": [
            {"filename": fn, "upload-time": t, "requires-python": ">=3.8", "yanked": y}
            for fn, t, y in files
        ],
    }


TORCH = _page(
    "torch",
    [
        ("torch-2.1.0-cp311-cp311-manylinux1_x86_64.whl", "2023-10-04T16:00:00Z", False),
        ("torch-2.1.0-cp310-cp310-manylinux1_x86_64.whl", "2023-10-04T15:59:00Z", False),
        ("torch-2.1.0-cp311-none-macosx_11_0_arm64.whl", "2023-10-05T10:00:00Z", False),
        ("torch-2.1.0-cp311-cp311-win_amd64.whl", "2023-10-04T17:00:00Z", False),
        ("torch-2.10.0-3-cp313-cp313t-manylinux_2_28_x86_64.whl", "2026-01-21T00:00:00Z", False),
        ("torch-9.9.9-cp311-cp311-manylinux1_x86_64.whl", "2030-01-01T00:00:00Z", "broken"),
    ],
)
VISION = _page(
    "torchvision",
    [
        ("torchvision-0.16.0-cp311-cp311-manylinux1_x86_64.whl", "2023-10-04T16:00:00Z", False),
        ("torchvision-0.15.0-cp311-cp311-manylinux1_x86_64.whl", "2023-03-15T00:00:00Z", "bad dep"),
    ],
)
AUDIO = _page(
    "torchaudio",
    [("torchaudio-2.1.0-cp311-cp311-manylinux1_x86_64.whl", "2023-10-04T16:00:00Z", False)],
)


def _facts(vision_rd: dict[str, list[str]] | None = None) -> PypiFacts:
    rd = vision_rd or {"0.16.0": ["numpy", "torch (==2.1.0)"], "0.15.0": ["torch (==2.0.0)"]}
    return PypiFacts(
        packages={
            "torch": parse_simple(TORCH),
            "torchvision": parse_simple(VISION, rd),
            "torchaudio": parse_simple(AUDIO, {"2.1.0": ["torch==2.1.0"]}),
        }
    )


def _matrix(*rows: dict[str, Any]) -> Matrix:
    return Matrix(
        releases=tuple(Release.model_validate(r) for r in rows),
        pip=(),
        conda=(),
        drivers=(),
        known_issues=(),
    )


GOOD: dict[str, Any] = {
    "torch": "2.1.0",
    "torchvision": "0.16.0",
    "torchaudio": "2.1.0",
    "python": ["3.10", "3.11"],
    "date": "2023-10-04",
    "source": "pypi",
}


@pytest.mark.parametrize(
    ("tag", "platform"),
    [
        ("manylinux1_x86_64", "linux-64"),
        ("manylinux_2_28_x86_64", "linux-64"),
        ("manylinux2014_aarch64", "linux-aarch64"),
        ("macosx_10_9_x86_64", "osx-64"),
        ("macosx_11_0_arm64", "osx-arm64"),
        ("win_amd64", "win-64"),
        ("win32", None),
    ],
)
def test_wheel_platform(tag: str, platform: str | None) -> None:
    assert wheel_platform(tag) == platform


def test_parse_simple_collects_tags_dates_and_yanks() -> None:
    torch = parse_simple(TORCH)
    v = torch.get("2.1.0")
    assert v is not None
    assert v.pythons == ("3.10", "3.11")
    assert v.linux_pythons == ("3.10", "3.11")
    assert v.platforms == ("linux-64", "osx-arm64", "win-64")
    assert v.date == "2023-10-04"
    assert v.requires_python == ">=3.8"
    assert (v.yanked, v.yanked_reason) == (False, None)
    build_tagged = torch.get("2.10.0")
    assert build_tagged is not None
    assert build_tagged.pythons == ("3.13",)
    yanked = torch.get("9.9.9")
    assert yanked is not None
    assert (yanked.yanked, yanked.yanked_reason) == (True, "broken")


def test_pins_torch_reads_exact_pins_only() -> None:
    rd = {"0.16.0": ["torch (==2.1.0+cpu)"], "0.15.0": ["torch (>=2.0.0)"]}
    vision = parse_simple(VISION, rd)
    assert vision.versions["0.16.0"].pins_torch() == "2.1.0"
    assert vision.versions["0.15.0"].pins_torch() is None


def test_requires_dist_lines() -> None:
    text = "Metadata-Version: 2.1\nName: x\nRequires-Dist: torch (==1.12.0)\nrequires-dist: numpy\n"
    assert requires_dist_lines(text) == ("torch (==1.12.0)", "numpy")


def test_metadata_wheel_prefers_manylinux_x86_64() -> None:
    page = _page(
        "torchvision",
        [
            ("torchvision-0.13.0-cp310-cp310-manylinux2014_aarch64.whl", "t", False),
            ("torchvision-0.13.0-cp310-cp310-win_amd64.whl", "t", False),
            ("torchvision-0.13.0-cp310-cp310-manylinux1_x86_64.whl", "t", False),
        ],
    )
    chosen = metadata_wheel(file_facts(page))
    assert chosen is not None
    assert chosen.filename == "torchvision-0.13.0-cp310-cp310-manylinux1_x86_64.whl"


def test_verify_clean_row_has_no_findings() -> None:
    assert verify_matrix(_matrix(GOOD), _facts()) == []


def test_verify_reports_each_mismatch() -> None:
    bad = {**GOOD, "python": ["3.10", "3.12"], "date": "2023-10-05", "torchvision": "0.15.0"}
    findings = verify_matrix(_matrix(bad), _facts())
    assert findings == [
        Finding(
            "error",
            "releases.yaml torch 2.1.0",
            "date 2023-10-05 but earliest upload is 2023-10-04",
        ),
        Finding("error", "releases.yaml torch 2.1.0", "python ['3.12'] have no cp wheel on PyPI"),
        Finding(
            "warning", "releases.yaml torch 2.1.0 torchvision 0.15.0", "yanked on PyPI: bad dep"
        ),
        Finding(
            "error",
            "releases.yaml torch 2.1.0 torchvision 0.15.0",
            "Requires-Dist pins torch==2.0.0",
        ),
    ]


def test_verify_missing_and_yanked_torch() -> None:
    rows = (
        {**GOOD, "torch": "8.0.0", "torchvision": None, "torchaudio": None},
        {**GOOD, "torch": "9.9.9", "torchvision": None, "torchaudio": None, "date": "2030-01-01"},
    )
    findings = verify_matrix(_matrix(*rows), _facts())
    assert findings == [
        Finding("error", "releases.yaml torch 8.0.0", "not on PyPI"),
        Finding("error", "releases.yaml torch 9.9.9", "yanked on PyPI: broken"),
        Finding("error", "releases.yaml torch 9.9.9", "python ['3.10'] have no cp wheel on PyPI"),
    ]


def test_verify_range_requirement_that_excludes_torch() -> None:
    facts = _facts({"0.16.0": ["torch>=2.2"]})
    findings = verify_matrix(_matrix(GOOD), facts)
    assert findings == [
        Finding(
            "error",
            "releases.yaml torch 2.1.0 torchvision 0.16.0",
            "Requires-Dist torch>=2.2 excludes torch 2.1.0",
        )
    ]


def test_verify_unpinned_companion_must_be_marked_inferred() -> None:
    facts = _facts({"0.16.0": ["torch>=2.0"]})
    assert [f.severity for f in verify_matrix(_matrix(GOOD), facts)] == ["warning"]
    marked = {**GOOD, "inferred": ["torchvision"]}
    assert verify_matrix(_matrix(marked), facts) == []


def test_empty_package_facts() -> None:
    assert PypiFacts().package("torch") == PackageFacts("torch")
