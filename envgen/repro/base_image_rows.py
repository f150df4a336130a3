"""The row model of matrices/base-images.yaml (pydantic), apart from base_images.py so that
`envgen import` loads pydantic only when a Dockerfile names a framework base image."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


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
