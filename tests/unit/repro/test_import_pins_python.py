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
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, build_project, parse_text
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
        "has linux wheels for that every exact pin (2 looked up) has a wheel for (not python 3.9: "
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
        "python 3.9, the newest torch 1.8.1 has linux wheels for; project.yaml names none, so the "
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


def test_a_labelled_companion_decides_through_pypis_build(matrix: Matrix) -> None:
    # torchvision 0.14.1+cu117 is the PyTorch index's build; PyPI's 0.14.1 (cp37-cp310) stands
    # in for its pythons (inferred, said), while torch 1.13.1 reaches cp311: 3.10 is written
    text = "torch==1.13.1+cu117\ntorchvision==0.14.1+cu117\ntqdm==4.50.0\n"
    found = parse_text(text, filename="requirements.txt", base=None)
    project, warnings = build_project(found, matrix, name="p", wheels=_wheels("tqdm==4.50.0"))
    assert project["python"] == "3.10"
    assert any("inferred for the PyTorch index's" in w for w in warnings)


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


def test_an_exact_companion_pin_from_pypi_rules_out_what_its_wheels_lack(matrix: Matrix) -> None:
    """torch 1.13.1 has cp311 linux wheels, torchvision 0.14.1 and torchaudio 0.13.1 stop at
    cp310 (matrices/companions.yaml pypi-wheels, PyPI's files): the exact pins decide 3.10."""
    text = "torch==1.13.1\ntorchvision==0.14.1\ntorchaudio==0.13.1\ntqdm==4.50.0\n"
    found = parse_text(text, filename="requirements.txt", base=None)
    project, warnings = build_project(found, matrix, name="p", wheels=_wheels("tqdm==4.50.0"))
    assert project["python"] == "3.10"
    assert any(
        "(not python 3.11: torchaudio==0.13.1 has cp37, cp38, cp39, cp310 wheels "
        "(matrices/companions.yaml), torchvision==0.14.1 has" in w
        for w in warnings
    ), warnings
    # The same pins with no other exact pin: still asked (an empty lookup), still decided.
    found = parse_text("torch==1.13.1\ntorchvision==0.14.1\n", filename="r.txt", base=None)
    assert build_project(found, matrix, name="p", wheels=[])[0]["python"] == "3.10"
    # --offline (no lookup at all): no python from the pins.
    found = parse_text(text, filename="requirements.txt", base=None)
    assert "python" not in build_project(found, matrix, name="p", wheels=None)[0]


def test_a_requires_python_of_a_later_patch_release_admits_the_line() -> None:
    """pandas 1.2.2 requires >=3.7.1: pip installs it on python 3.7.12, so it fits 3.7."""
    pin = PinWheels(
        requirement="pandas==1.2.2",
        pythons=frozenset({"3.7", "3.8", "3.9"}),
        requires_python=">=3.7.1",
    )
    assert [pin.fits(p) for p in ("3.6", "3.7", "3.9")] == [False, True, True]
    pure = PinWheels(requirement="dataclasses==0.8", pythons=None, requires_python=">=3.6, <3.7")
    assert [pure.fits(p) for p in ("3.6", "3.7")] == [True, False]


def test_every_exact_pin_of_a_long_freeze_is_looked_up(tmp_path: Path) -> None:
    """A pip freeze of 80 pins, sorted by name: the one that decides (a cp37-only wheel) comes
    late; it is looked up all the same (a folder index, no request)."""
    names = [f"pkg{i:02d}" for i in range(80)]
    for name in names:
        tag = "cp37-cp37m-manylinux2014_x86_64" if name == "pkg75" else "py3-none-any"
        page = {"meta": {"api-version": "1.0"}, "name": name,
                "files": [{"filename": f"{name}-1.0-{tag}.whl", "yanked": False}]}  # fmt: skip
        (tmp_path / "index" / name).mkdir(parents=True)
        (tmp_path / "index" / name / "index.json").write_text(json.dumps(page))
    wheels, notes = lookup(
        [f"{n}==1.0" for n in names],
        index=(tmp_path / "index").as_uri(),
        cache_dir=tmp_path / "cache",
        as_of=None,
        timeout=1,
    )
    assert (len(wheels), notes) == (80, [])
    assert choose_python(["3.9", "3.8", "3.7"], wheels)[0] == "3.7"


def test_a_base_images_own_interpreter_is_not_chosen_from_the_pins(
    tmp_path: Path, matrix: Matrix
) -> None:
    """FROM pytorch/pytorch:<tag> installs the file's pins into the image's python, which the
    image fixed (the file does not state it): the pins choose none. A CUDA image that installs
    its own python from the pins' era is still chosen for (numpy 1.19.2 stops at cp38)."""
    pins = "RUN pip install torch==1.7.1 numpy==1.19.2 scipy==1.5.2\n"
    got = {}
    for image in ("pytorch/pytorch:1.7.1-cuda11.0-cudnn8-runtime", "nvidia/cuda:11.0-base"):
        path = tmp_path / image.split("/")[0] / "Dockerfile"
        path.parent.mkdir()
        path.write_text(f"FROM {image}\n{pins}")
        result = run_import(ImportOptions(source=path, pypi_index=PAGES.as_uri()), matrix)
        got[image.split("/")[0]] = result.project.get("python")
    assert got == {"pytorch": None, "nvidia": "3.8"}
