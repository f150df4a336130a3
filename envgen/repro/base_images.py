"""matrices/base-images.yaml: the torch, CUDA and python that framework base images ship.

`envgen import` reads a Dockerfile's FROM line against these rows (NGC PyTorch containers, whose
tag says only YY.MM); the data stays apart from code, each row with its source. The row model
(pydantic) lives in base_image_rows.py and loads only when a row is asked for, so an import that
names no such image does not load pydantic.
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
    from envgen.repro.base_image_rows import BaseImageRow

BASE_IMAGES_FILE: Final = "base-images.yaml"


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
