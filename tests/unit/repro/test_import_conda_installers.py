"""`envgen import` of files that install a conda named by its version (Anaconda3-5.0.1,
Miniconda3-4.2.12) or start from a continuumio image (continuumio/miniconda3:4.11.0): the base
environment's python from matrices/conda-installers.yaml, once the file uses that conda; a
companion pinned to a source build's pre-release (torchvision==0.6.0a0+82fd1c8, what pip freeze
lists in a pytorch/pytorch image) read as the release it became; a nested shell default
(`${PYTHON_VERSION:-${1:-3.11}}`) expanded from the inside out.

Each input is a realistic minimal file written here; the expected answers come from the file and
the rows (each with its source) of conda-installers.yaml and the matrix.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.base_images import installer_name, load_conda_installers
from envgen.repro.importer import import_text
from envgen.repro.importer.detect import parse_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def test_rows_have_sources_and_unique_names() -> None:
    rows = load_conda_installers()
    assert rows
    assert all(r.source.startswith(("https://", "ContinuumIO/docker-images@")) for r in rows)
    assert len({r.name for r in rows}) == len(rows)
    assert all(installer_name(f"{r.name}-Linux-x86_64.sh") == r.name for r in rows
               if not r.name.startswith("continuumio/"))  # fmt: skip


ANACONDA = """\
FROM nvidia/cuda:9.1-cudnn7-runtime-ubuntu16.04
ENV ANACONDA /opt/anaconda
ENV PATH $ANACONDA/bin:$PATH
RUN wget https://repo.continuum.io/archive/Anaconda3-5.0.1-Linux-x86_64.sh -P /tmp
RUN bash /tmp/Anaconda3-5.0.1-Linux-x86_64.sh -b -p $ANACONDA
RUN conda install -y pytorch=0.4.1 torchvision cuda91 -c pytorch
RUN pip install tensorboardX
"""


def test_an_anaconda_installer_by_version_names_the_python(matrix: Matrix) -> None:
    result = import_text(ANACONDA, filename="Dockerfile", matrix=matrix, as_of=dt.date(2018, 8, 3))
    assert result.project["python"] == "3.6"
    found = parse_text(ANACONDA, filename="Dockerfile", base=None)
    assert found.python_where == (
        "Dockerfile:4 (Anaconda3-5.0.1 installer: python 3.6, matrices/conda-installers.yaml)"
    )


MINICONDA = """\
wget --quiet https://repo.continuum.io/miniconda/Miniconda3-4.2.12-Linux-x86_64.sh -O ~/mc.sh && \\
  /bin/bash ~/mc.sh -b -p {prefix} && rm ~/mc.sh
{pip} install torch==1.0.1.post2 tensorboardX==1.7
"""


def test_a_miniconda_the_script_never_runs_names_no_python() -> None:
    text = MINICONDA.format(prefix="~/conda", pip="pip")
    assert parse_text(text, filename="install.sh", base=None).python is None


def test_a_miniconda_whose_pip_runs_names_its_python() -> None:
    text = MINICONDA.format(prefix="/opt/conda", pip="/opt/conda/bin/pip")
    assert parse_text(text, filename="install.sh", base=None).python == "3.5"


def test_an_unknown_installer_version_names_no_python() -> None:
    text = MINICONDA.replace("4.2.12", "4.0.99").format(
        prefix="/opt/conda", pip="/opt/conda/bin/pip"
    )
    assert parse_text(text, filename="install.sh", base=None).python is None


def test_a_continuumio_image_names_its_python(matrix: Matrix) -> None:
    text = (
        "FROM continuumio/miniconda3:4.11.0\n"
        "RUN conda install -y pytorch\n"
        "RUN pip3 install --upgrade torch==1.9.0 torchvision==0.10.0\n"
    )
    result = import_text(text, filename="Dockerfile", matrix=matrix, as_of=dt.date(2022, 5, 19))
    assert (result.project["python"], result.project["torch"]) == ("3.9", "1.9.0")
    # a python the file names wins over the image's
    found = parse_text(text + "RUN conda install -y python=3.7\n", filename="Dockerfile", base=None)
    assert found.python == "3.7"


sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import derive_conda_installers as dci  # noqa: E402


def test_the_image_rows_are_what_the_images_dockerfiles_derive() -> None:
    text = dci.MATRIX.read_text(encoding="utf-8")
    rows, _missing = dci.derive(dci.load_recorded(), dci.hand_rows(text))
    assert dci.render(text, rows) == text, "run python scripts/derive_conda_installers.py --write"
    by_name = {str(r["name"]): r for r in rows}
    # a pyXY_ prefix is read; a version-only installer takes its hand row's python, inferred
    assert (
        by_name["continuumio/miniconda3:4.10.3"]["python"],
        by_name["continuumio/miniconda3:4.10.3"]["inferred"],
    ) == ("3.9", [])
    assert (
        by_name["continuumio/miniconda3:4.5.4"]["python"],
        by_name["continuumio/miniconda3:4.5.4"]["inferred"],
    ) == ("3.6", ["python"])
    # an Anaconda3 image tag keeps its -<build> suffix; its installer row is named without it
    assert by_name["continuumio/anaconda3:2023.09-0"]["python"] == "3.11"


def test_derive_skips_a_tag_without_a_python_and_keeps_the_first_build() -> None:
    builds = [
        dci.Build(
            "continuumio/miniconda3",
            "a" * 40,
            "2016-01-01",
            "Miniconda3-3.19.0",
            "miniconda3/Dockerfile",
        ),
        dci.Build(
            "continuumio/miniconda3",
            "b" * 40,
            "2020-08-01",
            "Miniconda3-py38_4.8.3",
            "miniconda3/Dockerfile",
        ),
        dci.Build(
            "continuumio/miniconda3",
            "c" * 40,
            "2020-09-01",
            "Miniconda3-py38_4.8.3",
            "miniconda3/Dockerfile",
        ),
    ]
    rows, missing = dci.derive(builds, {})
    assert missing == ["continuumio/miniconda3:3.19.0"]
    assert [(r["name"], r["python"]) for r in rows] == [("continuumio/miniconda3:4.8.3", "3.8")]
    assert "b" * 12 in str(rows[0]["source"])


@pytest.mark.parametrize(
    ("text", "python"),
    [
        ("FROM continuumio/miniconda3:4.5.4\nRUN pip install torch==1.0.0\n", "3.6"),
        ("FROM continuumio/anaconda3:2020.02\nRUN pip install torch==1.4.0\n", "3.7"),
        ("FROM continuumio/miniconda3:23.5.2-0\nRUN pip install torch==2.0.1\n", "3.11"),
    ],
)
def test_a_continuumio_image_by_tag_names_its_python(text: str, python: str) -> None:
    assert parse_text(text, filename="Dockerfile", base=None).python == python


def test_a_versioned_installer_row_names_the_python() -> None:
    text = MINICONDA.replace("Miniconda3-4.2.12", "Anaconda3-5.2.0").format(
        prefix="/opt/conda", pip="/opt/conda/bin/pip"
    )
    assert parse_text(text, filename="install.sh", base=None).python == "3.6"


def test_a_source_builds_companion_prerelease_is_the_release(matrix: Matrix) -> None:
    text = "torch==1.5.0\ntorchvision==0.6.0a0+82fd1c8\n"
    result = import_text(
        text, filename="requirements.txt", matrix=matrix, as_of=dt.date(2020, 5, 21)
    )
    assert result.project["torchvision"] == "0.6.0"
    assert (
        "requirements.txt:2: torchvision 0.6.0a0+82fd1c8 is the version string of a build of "
        "torchvision 0.6.0 (conda's or one from source; no index publishes it), read as 0.6.0"
    ) in result.warnings


def test_a_nested_shell_default_is_expanded() -> None:
    text = (
        '#!/bin/bash\npython_version="${PYTHON_VERSION:-${1:-3.11}}"\n'
        'uv python pin "$python_version"\nuv add torch\n'
    )
    found = parse_text(text, filename="entrypoint.sh", base=None)
    assert found.python == "3.11"


def test_a_variables_value_is_expanded_once() -> None:
    """bash expands a parameter once: a value that holds `${PY}` stays as written."""
    text = "#!/bin/bash\nPY=3.8\nV='${PY}'\npip install \"torch==$V\"\n"
    found = parse_text(text, filename="install.sh", base=None)
    assert found.torch is None  # torch==${PY} is no requirement (expanded twice it read 3.8)
    assert any("'torch==${PY}' is not a requirement" in w for w in found.warnings)
