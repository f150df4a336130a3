"""The python of an import is chosen from the pins' wheels (issue 24 item 3), on recorded pages.

tests/data/recorded/pypi-simple/<name>/index.json are PyPI's PEP 691 file lists
(https://pypi.org/simple/<name>/, read 2026-12-03), kept to the versions these tests use: numpy
1.19.2 (cp36-cp38 wheels, 2020-09-10) and 1.19.5 (cp36-cp39, 2021-01-05), scipy 1.5.2 (cp36-cp38)
and 1.5.4, tqdm 4.50.0 (a pure wheel). The network path is tests/integration/test_import_pypi.py.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import expand
from envgen.repro.importer import build_project, parse_text
from envgen.repro.importer.project_yaml import render_project
from envgen.repro.wheels import PinWheels, choose_python, exact_pins, lookup, pin_wheels

PAGES = Path(__file__).parents[2] / "data" / "recorded" / "pypi-simple"


def _page(name: str) -> dict[str, object]:
    page: dict[str, object] = json.loads((PAGES / name / "index.json").read_text())
    return page


def _wheels(pins: str, as_of: dt.date | None = None) -> list[PinWheels]:
    out = []
    for name, version in exact_pins(pins.split()):
        wheels = pin_wheels(name, version, _page(name), as_of)
        assert wheels is not None, name
        out.append(wheels)
    return out


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_pin_wheels_reads_tags_and_upload_dates() -> None:
    numpy = pin_wheels("numpy", "1.19.2", _page("numpy"), None)
    assert numpy is not None
    assert (numpy.pythons, numpy.how) == (
        frozenset({"3.6", "3.7", "3.8"}),
        "cp36, cp37, cp38 wheels",
    )
    assert [numpy.fits(p) for p in ("3.6", "3.8", "3.9")] == [True, True, False]
    tqdm = pin_wheels("tqdm", "4.50.0", _page("tqdm"), None)
    assert tqdm is not None
    assert (tqdm.pythons, tqdm.how, tqdm.fits("3.12")) == (None, "a pure-Python wheel", True)
    # numpy 1.19.5 was uploaded on 2021-01-05: a file dated 2020-12-31 saw none of it.
    assert pin_wheels("numpy", "1.19.5", _page("numpy"), dt.date(2020, 12, 31)) is None
    later = pin_wheels("numpy", "1.19.5", _page("numpy"), dt.date(2021, 2, 1))
    assert later is not None
    assert later.fits("3.9")


def test_choose_python_skips_pythons_a_pin_has_no_wheel_for() -> None:
    chosen, skipped = choose_python(
        ["3.9", "3.8", "3.7", "3.6"], _wheels("numpy==1.19.2 scipy==1.5.2 tqdm==4.50.0")
    )
    assert chosen == "3.8"
    assert [(python, [p.requirement for p in misses]) for python, misses in skipped] == [
        ("3.9", ["numpy==1.19.2", "scipy==1.5.2"])
    ]


def test_torch_1_7_1_with_numpy_1_19_2_gets_python_3_8(matrix: Matrix) -> None:
    text = "torch==1.7.1+cu110\nnumpy==1.19.2\nscipy==1.5.2\n"
    found = parse_text(text, filename="requirements.txt", base=None)
    project, warnings = build_project(
        found, matrix, name="paper", wheels=_wheels("numpy==1.19.2 scipy==1.5.2")
    )
    assert project["python"] == "3.8"
    assert (
        "requirements.txt: python 3.8: the file names none; 3.8 is the newest python torch 1.7.1 "
        "was published for that every exact pin (2 looked up) has a wheel for (not python 3.9: "
        "numpy==1.19.2 has cp36, cp37, cp38 wheels, scipy==1.5.2 has cp36, cp37, cp38 wheels)"
    ) in warnings
    # Pins that have wheels for the newest python rule nothing out: project.yaml names none, and
    # the lock takes the spec's default python (torch 1.8.1: 3.9; 1.7.x avoids 3.9, below).
    found = parse_text(text.replace("1.19.2", "1.19.5").replace("scipy==1.5.2\n", "")
                       .replace("1.7.1+cu110", "1.8.1"),
                       filename="requirements.txt", base=None)  # fmt: skip
    project, warnings = build_project(
        found, matrix, name="paper", wheels=_wheels("numpy==1.19.5", dt.date(2021, 2, 1))
    )
    assert "python" not in project
    assert _default_python(project, matrix) == "3.9"
    assert (
        "requirements.txt: no python named, and every exact pin (1 looked up) has a wheel for "
        "python 3.9, the newest torch 1.8.1 was published for; project.yaml names none, so the "
        "lock takes the spec's default python"
    ) in warnings


def _default_python(project: dict[str, object], matrix: Matrix) -> str:
    """The python the spec's lock takes (the default of a project.yaml that names none)."""
    text = render_project(project, source="requirements.txt")
    variants = expand(parse_spec(text, path=Path("project.yaml")), matrix).variants
    assert len({v.python for v in variants}) == 1, variants
    return variants[0].python


@pytest.mark.parametrize(
    ("text", "pins", "python"),
    [
        # PyPI's linux wheels of torch 1.10.2 stop at cp39 though the release lists 3.10.
        ("torch==1.10.2\ntqdm==4.50.0\n", "tqdm==4.50.0", "3.9"),
        # torch 1.13.1 has cp311 wheels, torchvision 0.14.1 stops at cp310.
        ("torch==1.13.1\ntorchvision==0.14.1\ntqdm==4.50.0\n", "tqdm==4.50.0", "3.10"),
    ],
)
def test_pins_that_rule_nothing_out_leave_the_python_to_the_spec_default(
    matrix: Matrix, text: str, pins: str, python: str
) -> None:
    # Writing the newest python the release lists would ask for wheels that were never built.
    found = parse_text(text, filename="requirements.txt", base=None)
    project, _ = build_project(found, matrix, name="p", wheels=_wheels(pins))
    assert "python" not in project
    assert _default_python(project, matrix) == python


def test_a_python_the_file_names_is_not_replaced(matrix: Matrix) -> None:
    found = parse_text(
        "conda create -n p python=3.6\npip install torch==1.7.1 numpy==1.19.2\n",
        filename="install.sh",
        base=None,
    )
    project, _ = build_project(found, matrix, name="p", wheels=_wheels("numpy==1.19.2"))
    assert project["python"] == "3.6"


def test_unpinned_torch_takes_a_release_the_pins_have_wheels_for(matrix: Matrix) -> None:
    found = parse_text("torch\nnumpy==1.19.2\n", filename="requirements.txt", base=None)
    project, warnings = build_project(found, matrix, name="p", wheels=_wheels("numpy==1.19.2"))
    # The newest release with a python numpy 1.19.2 has wheels for (cp36-cp38): 2.4.1 (3.8-3.12),
    # not the newest release (its pythons start at 3.9 or later).
    assert (project["torch"], project["python"]) == ("2.4.1", "3.8")
    assert (
        "requirements.txt:1: torch is not pinned; project.yaml pins 2.4.1, the newest release "
        "that has a python every exact pin has a wheel for"
    ) in warnings


def test_a_python_a_known_issue_names_is_avoided_where_another_fits(matrix: Matrix) -> None:
    # torch 1.7.x crashes at exit on 3.9 (matrices/known-issues.yaml): a pure-Python pin fits
    # 3.9 and rules nothing out, so the python is the spec's default, which avoids 3.9.
    text = "torch==1.7.1\ntqdm==4.50.0\n"
    found = parse_text(text, filename="requirements.txt", base=None)
    project, _ = build_project(found, matrix, name="paper", wheels=_wheels("tqdm==4.50.0"))
    assert "python" not in project
    assert _default_python(project, matrix) == "3.8"


def test_a_folder_index_is_read_from_its_index_json_pages(tmp_path: Path) -> None:
    """A `file:` index (the layout `envgen vault` writes: <name>/index.json) is read without a
    request; a project it lacks is a note, and the pins after it are still looked up."""
    wheels, notes = lookup(
        ["nosuchproject==1.0", "numpy==1.19.2", "tqdm==4.50.0"],
        index=PAGES.as_uri(),
        cache_dir=tmp_path / "cache",
        as_of=None,
        timeout=1,
    )
    assert [w.requirement for w in wheels] == ["numpy==1.19.2", "tqdm==4.50.0"]
    assert notes == [f"nosuchproject: the index has no page {PAGES / 'nosuchproject/index.json'}"]
    assert not (tmp_path / "cache").exists()  # a folder index is never cached
