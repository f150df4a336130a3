"""The row models of matrices/base-images.yaml and conda-installers.yaml (pydantic), apart from
base_images.py so that `envgen import` loads pydantic only when a file names a framework base
image or a conda installer."""

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


class CondaInstallerRow(BaseModel):
    """One conda installer (or continuumio image) and its base environment's python."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^((Mini|Ana)conda3-\d+(\.\d+)+|continuumio/[a-z0-9]+:[\w.-]+)$")
    python: str = Field(pattern=r"^\d\.\d+$")
    source: str
    inferred: tuple[str, ...] = ()
