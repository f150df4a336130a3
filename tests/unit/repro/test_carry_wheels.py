"""A conda pin carried to pip whose release has no wheel for the environment's python takes the
nearest release that has one (envgen.repro.carry.prefer_wheels; issue 29: the papers suite's
cddip carries conda-forge's pyfftw 0.12.0 for python 3.10, whose PyPI wheels stop at cp38)."""

from __future__ import annotations

import datetime as dt

import pytest

from envgen.repro.carry import prefer_wheels, versioned
from envgen.repro.wheels import wheel_release


def page(*files: str, uploaded: dict[str, str] | None = None) -> dict[str, object]:
    times = uploaded or {}
    return {
        "files": [
            {"filename": f, **({"upload-time": times[f]} if f in times else {})} for f in files
        ]
    }


# pyFFTW's files as PyPI lists them (https://pypi.org/simple/pyfftw/, read 2026-12-05), trimmed
PYFFTW = page(
    "pyFFTW-0.12.0-cp37-cp37m-manylinux1_x86_64.whl",
    "pyFFTW-0.12.0-cp38-cp38-manylinux1_x86_64.whl",
    "pyFFTW-0.12.0.tar.gz",
    "pyFFTW-0.13.0-cp310-cp310-manylinux_2_12_x86_64.manylinux2010_x86_64.whl",
    "pyFFTW-0.13.0-cp38-cp38-manylinux_2_12_x86_64.manylinux2010_x86_64.whl",
    "pyFFTW-0.13.1-cp310-cp310-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    "pyFFTW-0.13.1-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
)


@pytest.mark.parametrize(
    ("spec", "python", "expected"),
    [
        # no 0.12.x has cp310: the nearest newer release that has
        ("==0.12.0.*", "3.10", ("0.13.0", "cp37, cp38 wheels")),
        ("==0.12.0.*", "3.11", ("0.13.1", "cp37, cp38 wheels")),
        ("==0.12.0.*", "3.8", None),  # it has one: kept
        ("==0.13.0.*", "3.11", ("0.13.1", "cp38, cp310 wheels")),  # same minor, newer
        ("==0.13.1", "3.8", ("0.13.0", "cp310, cp311 wheels")),  # same minor, older
        ("==0.12.0.*", "3.12", None),  # no release fits: kept (the build says why)
        ("==0.11.0.*", "3.10", None),  # not on the page: the lock names that
        ("not a specifier", "3.10", None),
    ],
)
def test_the_nearest_release_with_a_wheel_is_chosen(
    spec: str, python: str, expected: tuple[str, str] | None
) -> None:
    assert wheel_release("pyfftw", spec, PYFFTW, python, None) == expected


def test_pure_abi3_and_source_releases_are_kept() -> None:
    pure = page("six-1.15.0-py2.py3-none-any.whl")
    assert wheel_release("six", "==1.15.0.*", pure, "3.12", None) is None
    abi3 = page("brotlipy-0.7.0-cp35-abi3-manylinux1_x86_64.whl")
    assert wheel_release("brotlipy", "==0.7.0.*", abi3, "3.10", None) is None
    # a source release (an sdist for everyone: retrying 1.3.3, olefile 0.46) is what pip builds
    # everywhere, not a binary that went missing: kept, even where a later release has a wheel
    source = page("x-1.0.tar.gz", "x-1.1-cp310-cp310-manylinux2014_x86_64.whl")
    assert wheel_release("x", "==1.0.*", source, "3.10", None) is None
    # wheels for other pythons but not this one: a compiled release, replaced
    compiled = page(
        "x-1.0.tar.gz",
        "x-1.0-cp38-cp38-manylinux2014_x86_64.whl",
        "x-1.1-cp310-cp310-manylinux2014_x86_64.whl",
    )
    assert wheel_release("x", "==1.0.*", compiled, "3.10", None) == ("1.1", "cp38 wheels")
    # wheels for another platform only: no wheel for linux-64, replaced
    mac = page("x-1.0-cp310-cp310-macosx_11_0_arm64.whl", "x-2.0-cp310-cp310-linux_x86_64.whl")
    assert wheel_release("x", "==1.0.*", mac, "3.10", None) == ("2.0", "no file for linux-64")
    # pre-releases are not proposed
    pre = page("x-1.0-cp38-cp38-linux_x86_64.whl", "x-1.1rc1-cp310-cp310-linux_x86_64.whl")
    assert wheel_release("x", "==1.0.*", pre, "3.10", None) is None


def test_files_after_the_date_do_not_count() -> None:
    dated = page(
        "x-1.0-cp38-cp38-linux_x86_64.whl",
        "x-1.1-cp310-cp310-linux_x86_64.whl",
        "x-1.2-cp310-cp310-linux_x86_64.whl",
        uploaded={
            "x-1.0-cp38-cp38-linux_x86_64.whl": "2021-01-01T00:00:00Z",
            "x-1.1-cp310-cp310-linux_x86_64.whl": "2023-01-01T00:00:00Z",
            "x-1.2-cp310-cp310-linux_x86_64.whl": "2022-01-01T00:00:00Z",
        },
    )
    assert wheel_release("x", "==1.0", dated, "3.10", None) == ("1.1", "cp38 wheels")
    assert wheel_release("x", "==1.0", dated, "3.10", dt.date(2022, 6, 1)) == ("1.2", "cp38 wheels")
    assert wheel_release("x", "==1.0", dated, "3.10", dt.date(2021, 6, 1)) is None
    # a release uploaded only after the date is not there yet: nothing to replace
    assert wheel_release("x", "==1.2", dated, "3.9", dt.date(2021, 6, 1)) is None


def test_prefer_wheels_replaces_only_what_has_no_wheel_and_says_so() -> None:
    pages = {"pyfftw": PYFFTW, "six": page("six-1.15.0-py2.py3-none-any.whl")}
    kept, notes = prefer_wheels(
        ["pyfftw==0.12.0.*", "six==1.15.0.*", "tqdm", "numpy==1.25.0.*"],
        python="3.10",
        pages=pages,
        as_of=None,
        where="carried from conda",
    )
    assert kept == ["pyfftw==0.13.0", "six==1.15.0.*", "tqdm", "numpy==1.25.0.*"]
    assert notes == [
        "carried from conda: pyfftw==0.12.0.*: the conda pin named a binary build, and PyPI has "
        "no wheel of it for python 3.10 on linux-64 (cp37, cp38 wheels), so pip would build the "
        "sdist; carried as pyfftw==0.13.0, the nearest release with one (same major.minor first, "
        "then the nearest newer)"
    ]


def test_versioned_names_the_pins_to_look_up() -> None:
    assert versioned(["pyfftw==0.12.0.*", "tqdm", "Pillow==9.4.0.*", "not a req!"]) == [
        "pyfftw",
        "pillow",
    ]
