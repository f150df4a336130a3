"""matrices/base-images.yaml: the torch, CUDA and python that framework base images ship.

`envgen import` reads a Dockerfile's FROM line against these rows (NGC PyTorch containers, whose
tag says only YY.MM); the data stays apart from code, each row with its source.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict, Field

from envgen.errors import MatrixError
from envgen.infra.resources import MATRICES_DIR
from envgen.model.matrix import read_model_rows

BASE_IMAGES_FILE: Final = "base-images.yaml"


class BaseImageRow(BaseModel):
    """One image tag and what it ships."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    image: str = Field(pattern=r"^[a-z0-9./_-]+$")
    tag: str = Field(pattern=r"^\d\d\.\d\d$")
    torch: str = Field(pattern=r"^\d+\.\d+\.\d+[0-9A-Za-z.+]*$")
    cuda: str = Field(pattern=r"^\d+\.\d+(\.\d+)*$")
    python: str = Field(pattern=r"^\d\.\d+$")
    source: str
    inferred: tuple[str, ...] = ()


@functools.cache
def load_base_images(directory: Path | None = None) -> tuple[BaseImageRow, ...]:
    """Read and validate base-images.yaml (no duplicate image:tag rows)."""
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
