"""matrices/base-images.yaml: the torch, CUDA and python that framework base images ship; and
matrices/conda-installers.yaml: the python a conda installer (or continuumio image) ships.

`envgen import` reads a Dockerfile's FROM line against these rows (NGC PyTorch containers, whose
tag says only YY.MM; continuumio/miniconda3:4.11.0), and an install line's installer name
(Miniconda3-4.2.12-Linux-x86_64.sh); the data stays apart from code, each row with its source.
The row models (pydantic) live in base_image_rows.py and load only when a row is asked for, so an
import that names no such image or installer does not load pydantic.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Final

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model.matrix import read_model_rows

if TYPE_CHECKING:
    from envgen.repro.base_image_rows import BaseImageRow, CondaInstallerRow

BASE_IMAGES_FILE: Final = "base-images.yaml"
CONDA_INSTALLERS_FILE: Final = "conda-installers.yaml"
# An installer named by its version only: Miniconda3-4.2.12-Linux-x86_64.sh,
# Anaconda3-2023.09-0-Linux-x86_64.sh (the -0 is the installer's build number).
_INSTALLER: Final = re.compile(
    r"((?:Mini|Ana)conda3-\d+(?:\.\d+)+)(?:-\d+)?-(?:Linux|MacOSX|Windows)"
)


@functools.cache
def load_base_images(directory: Path | None = None) -> tuple[BaseImageRow, ...]:
    """Read and validate base-images.yaml (no duplicate image:tag rows)."""
    # pydantic (~50 ms with its plugin scan) only when a Dockerfile names an NGC image.
    from envgen.repro.base_image_rows import BaseImageRow  # noqa: PLC0415 - see above

    path = (directory or MATRICES_DIR) / BASE_IMAGES_FILE
    images = read_model_rows(path, BaseImageRow)
    keys = [(i.image, i.tag) for i in images]
    if len(keys) != len(set(keys)):
        msg = f"{path}: two rows for one image tag"
        raise MatrixError(msg)
    return images


def ngc_pytorch(tag: str, directory: Path | None = None) -> BaseImageRow | None:
    """The row for an nvcr.io/nvidia/pytorch tag such as `21.12-py3` (None when unknown).

    >>> ngc_pytorch("21.12-py3").python
    '3.8'
    """
    m = re.match(r"^(\d\d\.\d\d)(-py3)?", tag)
    if m is None:
        return None
    return next(
        (
            r
            for r in load_base_images(directory)
            if r.image == "nvcr.io/nvidia/pytorch" and r.tag == m.group(1)
        ),
        None,
    )


@functools.cache
def load_conda_installers(directory: Path | None = None) -> tuple[CondaInstallerRow, ...]:
    """Read and validate conda-installers.yaml (no duplicate names)."""
    from envgen.repro.base_image_rows import CondaInstallerRow  # noqa: PLC0415 - see the module

    path = (directory or MATRICES_DIR) / CONDA_INSTALLERS_FILE
    rows = read_model_rows(path, CondaInstallerRow)
    if len({r.name for r in rows}) != len(rows):
        msg = f"{path}: two rows for one installer"
        raise MatrixError(msg)
    return rows


def installer_name(word: str) -> str | None:
    """The installer a word names by version (a URL or file name), as conda-installers.yaml keys
    it, or None.

    >>> installer_name("https://repo.continuum.io/archive/Anaconda3-5.0.1-Linux-x86_64.sh")
    'Anaconda3-5.0.1'
    >>> installer_name("Anaconda3-2023.09-0-Linux-x86_64.sh"), installer_name("Miniconda3-latest")
    ('Anaconda3-2023.09', None)
    """
    m = _INSTALLER.search(word)
    return m.group(1) if m else None


def conda_python(name: str, directory: Path | None = None) -> CondaInstallerRow | None:
    """The row of an installer name (`Miniconda3-4.2.12`) or image (`continuumio/miniconda3:4.11.0`)
    (None when the table has none).

    >>> conda_python("Miniconda3-4.2.12").python, conda_python("Miniconda3-0.0.1") is None
    ('3.5', True)
    """
    return next((r for r in load_conda_installers(directory) if r.name == name), None)
