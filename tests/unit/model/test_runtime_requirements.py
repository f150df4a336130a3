"""Releases that import what they do not declare, or need more than they declare
(matrices/package-issues.yaml `undeclared:` / `understated:`; issue 29: the papers suite's
backdoorbench installs keras 2.7.0 without tensorflow, neurips2021 pins speechbrain 0.5.13 with
torch 1.9.0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import MatrixError
from envgen.model.package_issues import (
    load_undeclared,
    load_understated,
    undeclared_imports,
    understated_requirements,
)


@pytest.mark.parametrize(
    ("keras", "proposed"),
    [("2.6.0", "tensorflow==2.6.*"), ("2.7.0", "tensorflow==2.7.*"),
     ("2.11.0", "tensorflow==2.11.*"), ("2.15.0", "tensorflow==2.15.*"),
     ("2.7.0rc2", "tensorflow==2.7.*")],
)  # fmt: skip
def test_keras_without_tensorflow_is_named_with_the_release_to_add(
    keras: str, proposed: str
) -> None:
    (warning,) = undeclared_imports({"keras": keras, "numpy": "1.21.4"})
    assert warning == (
        f"keras {keras} imports tensorflow but does not declare it, and the lock has no "
        "tensorflow: `import keras` will fail (matrices/package-issues.yaml); add "
        f"{proposed} to pip:"
    )


@pytest.mark.parametrize(
    "pins",
    [
        {"keras": "2.7.0", "tensorflow": "2.7.0"},
        {"Keras": "2.7.0", "tensorflow_cpu": "2.7.1"},  # names compared normalized
        {"keras": "2.10.0", "tf-nightly": "2.10.0.dev20220601"},
        {"keras": "2.4.3"},  # before the split: not in the row
        {"keras": "3.0.0"},  # keras 3 declares its own
        {"keras": "not-a-version"},
        {"numpy": "1.21.4"},
    ],
)
def test_nothing_is_said_where_the_import_is_satisfied_or_not_covered(
    pins: dict[str, str],
) -> None:
    assert undeclared_imports(pins) == []


@pytest.mark.parametrize(
    ("speechbrain", "torch", "said"),
    [("0.5.13", "1.9.0", True), ("0.5.12", "1.8.1", True), ("0.5.13", "1.10.0", False),
     ("0.5.11", "1.9.0", False), ("0.5.14", "1.9.0", False)],
)  # fmt: skip
def test_a_release_that_needs_a_newer_torch_than_it_declares_gets_the_one_before(
    speechbrain: str, torch: str, *, said: bool
) -> None:
    found = understated_requirements({"speechbrain": speechbrain, "torch": torch})
    if not said:
        assert found == []
        return
    assert found == [
        f"speechbrain {speechbrain} needs torch>=1.10 when imported (more than its metadata "
        f"declares), and the lock pins torch {torch}: `import speechbrain` will fail "
        f"(matrices/package-issues.yaml); replace speechbrain=={speechbrain} with "
        "speechbrain==0.5.11, the newest release before it that does not"
    ]
    assert understated_requirements({"speechbrain": speechbrain}) == []  # no torch pinned


def test_every_row_has_a_source() -> None:
    for row in load_undeclared():
        assert len(row.source) > 80, row.package
    for other in load_understated():
        assert len(other.source) > 80, other.package


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "undeclared:\n  - {package: a, versions: '>=1', imports: b, add: 'b=={major}.*', "
            "source: s}\n",
            r"undeclared\[0\]: expected the keys",
        ),
        (
            "undeclared:\n  - {package: a, versions: '>=1', imports: b, provided-by: [b], "
            "add: 'b=={micro}', source: s}\n",
            r"undeclared\[0\]: KeyError",
        ),
        (
            "undeclared:\n  - {package: a, versions: 'one', imports: b, provided-by: [b], "
            "add: 'b', source: s}\n",
            r"undeclared\[0\]: InvalidSpecifier",
        ),
    ],
)
def test_a_broken_undeclared_row_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    table = tmp_path / "package-issues.yaml"
    table.write_text(text, encoding="utf-8")
    with pytest.raises(MatrixError, match=message):
        load_undeclared(table)


def test_a_broken_understated_row_is_a_clear_error(tmp_path: Path) -> None:
    table = tmp_path / "package-issues.yaml"
    table.write_text(
        "understated:\n  - {package: a, versions: '>=1', needs: 'torch>=', replace: '1.0', "
        "source: s}\n",
        encoding="utf-8",
    )
    with pytest.raises(MatrixError, match=r"understated\[0\]: "):
        load_understated(table)
    table.write_text("understated:\n  - {package: a}\n", encoding="utf-8")
    with pytest.raises(MatrixError, match=r"understated\[0\]: expected the keys"):
        load_understated(table)


@pytest.mark.parametrize(
    ("pins", "warned"),
    [
        ({"ipykernel": "5.1.3", "traitlets": "5.1.1"}, True),  # traitlets 5.1.1 dropped it
        ({"ipykernel": "4.10.1"}, True),
        ({"ipykernel": "6.2.0"}, True),
        ({"ipykernel": "5.5.6"}, False),  # declares ipython-genutils
        ({"ipykernel": "6.3.1"}, False),  # declares it
        ({"ipykernel": "6.5.0"}, False),  # imports it no more
        ({"ipykernel": "5.1.3", "ipython_genutils": "0.2.0"}, False),  # traitlets < 5.1 brought it
    ],
)
def test_ipykernel_without_ipython_genutils_is_named(pins: dict[str, str], warned: bool) -> None:
    said = undeclared_imports(pins)
    assert bool(said) is warned
    if warned:
        assert said == [
            f"ipykernel {pins['ipykernel']} imports ipython-genutils but does not declare it, "
            "and the lock has no ipython-genutils: `import ipykernel` will fail "
            "(matrices/package-issues.yaml); add ipython-genutils to pip:"
        ]


QT_1 = "PyQt5, PySide2, PyQt4 or PySide"
QT_2 = "PyQt5, PyQt6, PySide2 or PySide6"


@pytest.mark.parametrize(
    ("pins", "bindings"),
    [
        ({"QtPy": "1.9.0", "numpy": "1.19.5"}, QT_1),  # mmvrc's freeze: QtPy and no binding
        ({"qtpy": "0.1.3"}, QT_1),
        ({"qtpy": "1.11.3"}, QT_1),
        ({"qtpy": "1.9.0", "PyQt6": "6.1.0"}, QT_1),  # QtPy 1.x does not know PyQt6
        ({"qtpy": "2.3.0"}, QT_2),
        ({"qtpy": "2.4.1"}, QT_2),
        ({"qtpy": "1.9.0", "pyqt5": "5.15.4"}, None),
        ({"qtpy": "1.9.0", "PySide2": "5.15.2"}, None),
        ({"qtpy": "2.4.1", "pyside6": "6.5.0"}, None),
        ({"qtpy": "2.0.0"}, None),  # 2.0-2.2 import without a binding (measured): not in a row
        ({"qtpy": "2.2.1"}, None),
    ],
)
def test_qtpy_without_any_qt_binding_is_named_with_one_to_add(
    pins: dict[str, str], bindings: str | None
) -> None:
    said = undeclared_imports(pins)
    if bindings is None:
        assert said == []
        return
    version = next(v for k, v in pins.items() if k.lower() == "qtpy")
    assert said == [
        f"qtpy {version} imports a Qt binding but declares none, and the lock has none of "
        f"{bindings}: `import qtpy` will fail (matrices/package-issues.yaml); add PyQt5 to pip: "
        "(or another of them)"
    ]


SKM = (
    "scikit-metrics 0.1.0 needs scikit-learn<0.24 when imported (more than its metadata "
    "declares), and the lock pins scikit-learn {sk}: `import scikit-metrics` will fail "
    "(matrices/package-issues.yaml); "
)


@pytest.mark.parametrize("sklearn", ["0.24.2", "0.24.0", "1.0.2"])
def test_scikit_metrics_gets_the_scikit_learn_release_it_imports_with(sklearn: str) -> None:
    pins = {"scikit-metrics": "0.1.0", "scikit-learn": sklearn, "sklearn": "0.0"}
    # the project names scikit-learn itself (WJKEVAN/dockerfile pins scikit-learn==0.24.2)
    assert understated_requirements(pins, declared=["Scikit_Learn", "scikit-metrics"]) == [
        SKM.format(sk=sklearn) + f"replace scikit-learn=={sklearn} with scikit-learn==0.23.2, "
        "the newest release it imports with"
    ]
    # only through another pin (sklearn==0.0 requires it): add the pin instead
    assert understated_requirements(pins, declared=["sklearn", "scikit-metrics"]) == [
        SKM.format(sk=sklearn) + "scikit-learn 0.23.2 is the newest release it imports with: add "
        "scikit-learn==0.23.2 to pip:"
    ]


@pytest.mark.parametrize(
    "pins",
    [
        {"scikit-metrics": "0.1.0", "scikit-learn": "0.23.2"},  # still has the module
        {"scikit-metrics": "0.1.0", "scikit-learn": "0.21.3"},
        {"scikit-metrics": "0.1.1", "scikit-learn": "1.5.0"},  # 0.1.1 imports the new path
        {"scikit-metrics": "0.1.0"},  # no scikit-learn pinned: nothing to compare
    ],
)
def test_scikit_metrics_with_a_scikit_learn_it_imports_with_is_not_named(
    pins: dict[str, str],
) -> None:
    assert understated_requirements(pins) == []


@pytest.mark.parametrize(
    ("replace", "message"),
    [
        ("numpy==1.0", r"must be a version of the package, or scikit-learn==VERSION"),
        ("scikit-learn>=0.20", r"must be a version of the package, or scikit-learn==VERSION"),
        ("latest", r"must be a version of the package, or scikit-learn==VERSION"),
        ("scikit-learn==0.24.1", r"outside needs 'scikit-learn<0.24'"),
    ],
)
def test_a_dependency_replace_must_be_a_release_needs_allows(
    tmp_path: Path, replace: str, message: str
) -> None:
    table = tmp_path / "package-issues.yaml"
    table.write_text(
        "understated:\n  - {package: a, versions: '==1', needs: 'scikit-learn<0.24', "
        f"replace: '{replace}', source: s}}\n",
        encoding="utf-8",
    )
    with pytest.raises(MatrixError, match=r"understated\[0\]: .*" + message):
        load_understated(table)


@pytest.mark.parametrize(
    ("pins", "warned"),
    [
        ({"pip-chill": "0.1.8", "click": "7.0"}, True),  # fcn-instances-pytorch's freeze
        ({"pip_chill": "0.1.8", "pip": "19.3.1"}, False),
        ({"pip-chill": "1.0.1"}, False),  # imports no pip
    ],
)
def test_pip_chill_without_pip_is_named_with_a_pip_that_has_its_function(
    pins: dict[str, str], *, warned: bool
) -> None:
    said = undeclared_imports(pins)
    assert said == (
        [
            "pip-chill 0.1.8 imports pip but does not declare it, and the lock has no pip: "
            "`import pip-chill` will fail (matrices/package-issues.yaml); add pip>=10,<21.3 to pip:"
        ]
        if warned
        else []
    )
