"""A conda file moved to pip carries every dependency across, or refuses (issue 29 item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import load_matrix
from envgen.repro.carry import carry_to_pip, load_table
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions, import_text

# pytorch 1.4.0: the pytorch channel deleted its packages before 1.5.1 (matrices/known-issues.yaml),
# so the import moves to pip.
ENV = """\
name: paper
channels:
  - pytorch
  - conda-forge
dependencies:
  - python=3.7
  - pytorch=1.4.0
  - torchvision=0.5.0
  - cudatoolkit=10.1
  - opencv=4.1.2
  - pytorch-lightning=0.7.1
  - tensorboard
  - scikit-learn==0.22.1=py37hd81dba3_0
  - pyyaml
  - matplotlib
  - openssl
"""


def test_a_switch_to_pip_carries_every_conda_dependency() -> None:
    result = import_text(ENV, filename="environment.yml", matrix=load_matrix())
    assert result.project["managers"] == ["pip"]
    assert result.project["pip"] == [
        "opencv-python==4.1.2.*",
        "pytorch-lightning==0.7.1.*",
        "tensorboard",
        "scikit-learn==0.22.1",
        "PyYAML",
        "matplotlib",
    ]
    assert "dependencies" not in dict(result.project.get("conda") or {})  # type: ignore[call-overload]
    notes = [w for w in result.warnings if "conda dependencies" in w]
    assert notes == [
        "environment.yml: conda dependencies carried to pip under their PyPI names: "
        "opencv -> opencv-python (matrices/conda-pypi-names.yaml)",
        "environment.yml: conda dependencies left out, a pip environment gets them otherwise "
        "(the interpreter, or the wheels that bundle them): openssl",
        "environment.yml: conda dependencies carried to pip under the same name (not in "
        "matrices/conda-pypi-names.yaml; check they are the same package): matplotlib",
    ]


def test_what_pip_cannot_install_is_a_departure() -> None:
    # The torch answer stands; ffmpeg, a program only conda had, is left out with a warning.
    result = import_text(ENV + "  - ffmpeg=4.2\n", filename="environment.yml", matrix=load_matrix())
    assert result.project["managers"] == ["pip"]
    pip = result.project["pip"]
    assert isinstance(pip, list)
    assert not any(str(r).startswith("ffmpeg") for r in pip)
    assert any(
        w.startswith(
            "environment.yml: ffmpeg was in the conda dependencies, now left out, because the "
            "environment moves to pip, and pip cannot install these conda dependencies: ffmpeg "
            "(the ffmpeg program is not a PyPI distribution"
        )
        for w in result.warnings
    )


def test_what_pip_cannot_install_refuses_a_strict_import(tmp_path: Path) -> None:
    (tmp_path / "environment.yml").write_text(ENV + "  - ffmpeg=4.2\n")
    options = ImportOptions(source=tmp_path / "environment.yml", strict=True)
    with pytest.raises(ImportSpecError) as info:
        run_import(options, load_matrix())
    assert "ffmpeg was in the conda dependencies, now left out" in str(info.value)


def test_a_package_the_file_already_names_under_pip_is_not_doubled() -> None:
    carried = carry_to_pip(["opencv=4.5", "tqdm"], ["opencv-python==4.5.1.48"], where="f")
    assert carried.pip == ["tqdm"]


def test_every_row_of_the_table_has_a_source() -> None:
    table = load_table()
    assert {"opencv", "pyyaml", "scikit-learn", "tensorboard", "pytorch-lightning"} <= set(table)
    assert all(row.source for row in table.values())
    assert table["opencv"].pypi == "opencv-python"


def test_programs_conda_installs_are_refused_not_carried_to_a_namesake() -> None:
    # conda's ruby and tmux are C programs; PyPI's `ruby` is an unrelated NLP toolkit and PyPI has
    # no `tmux`: carrying them under the same name would install the wrong thing or fail the lock
    # (nat-chan/MaGAN's script_conda.sh installs both next to its Python packages)
    carried = carry_to_pip(["ruby", "tmux=3.2", "dill", "debugpy"], [], where="f")
    assert carried.pip == ["dill", "debugpy"]
    assert [r.split(" (", 1)[0] for r in carried.refused] == ["ruby", "tmux"]
    assert "unrelated NLP toolkit" in carried.refused[0]
