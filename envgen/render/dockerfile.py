"""`envgen dockerfile`: one Dockerfile per variant, from the lock and matrices/cuda-images.yaml.

Each Dockerfile starts from an image that matches the variant (an nvidia/cuda runtime image for
its CUDA version, or the documented fallback when NVIDIA deleted that tag; python:X.Y-slim for
cpu; micromamba when the variant is conda only), installs the variant's locked requirements.txt
with `pip install --require-hashes --no-deps`, and runs envgen's smoke check as the last build
step. Output depends only on the spec, the matrix and the templates. This module must not run
docker, and must not lock or build anything.
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from envgen import install_requirement
from envgen.errors import MatrixError, RenderError
from envgen.infra.files import input_hash, read_output, write_if_changed
from envgen.infra.resources import MATRICES_DIR, SMOKE_SCRIPT
from envgen.infra.settings import Settings
from envgen.model.matrix import Matrix, load_matrix, read_model_rows
from envgen.model.spec import ProjectSpec, load_spec
from envgen.model.variants import Variant, expand, pip_pins, select
from envgen.render.header import FORMAT_VERSION, Header, regenerate_command
from envgen.render.plan import PlannedFile, default_out, describe
from envgen.render.requirements import has_hashes
from envgen.render.templating import render_template
from envgen.smoke.report import COMPANIONS, SmokeExpectation

log = logging.getLogger(__name__)

CUDA_IMAGES_FILE: Final = "cuda-images.yaml"
# Pinned tags, so the same spec gives the same Dockerfile (and image) next year.
UV_IMAGE: Final = "ghcr.io/astral-sh/uv:0.5.11"
MICROMAMBA_IMAGE: Final = "mambaorg/micromamba:1.5.10"
# ROCm / XPU wheels bundle their runtime too; the host supplies the kernel driver.
GENERIC_IMAGE: Final = "ubuntu:22.04"
VENV: Final = "/opt/venv"
SMOKE_NAME: Final = "_smoke_check.py"
_VERDICT: Final = (
    'import json,sys; r=json.load(open("/opt/envgen/smoke.json")); '
    'bad=[c["tier"]+"/"+c["name"]+": "+c["detail"] for c in r if c["status"]=="fail"]; '
    'print("\\n".join(bad) or "envgen smoke: %d checks passed or skipped" % len(r)); '
    "sys.exit(1 if bad else 0)"
)


class CudaImage(BaseModel):
    """One row of matrices/cuda-images.yaml: a CUDA version's nvidia/cuda base image."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    cuda: str = Field(pattern=r"^\d+\.\d+$", description="CUDA major.minor, e.g. '11.8'.")
    tag: str = Field(description="The nvidia/cuda tag, e.g. '11.8.0-cudnn8-runtime-ubuntu22.04'.")
    ubuntu: str = Field(pattern=r"^\d+\.\d+$")
    status: Literal["available", "removed"]
    fallback: str | None = Field(
        default=None, description="The image to use when the tag is removed."
    )
    source: str
    inferred: bool = False

    @property
    def image(self) -> str:
        return f"nvidia/cuda:{self.tag}"


@functools.cache
def load_cuda_images(directory: Path | None = None) -> tuple[CudaImage, ...]:
    """Read and validate cuda-images.yaml (rows sorted by CUDA version, no duplicates)."""
    path = (directory or MATRICES_DIR) / CUDA_IMAGES_FILE
    images = read_model_rows(path, CudaImage)
    keys = [tuple(int(p) for p in i.cuda.split(".")) for i in images]
    if keys != sorted(set(keys)):
        msg = f"{path}: rows must be sorted by cuda, oldest first, without duplicates"
        raise MatrixError(msg)
    for i in images:
        if i.status == "removed" and not i.fallback:
            msg = f"{path}: cuda {i.cuda}: a removed tag needs a fallback"
            raise MatrixError(msg)
    return images


@dataclass(frozen=True, slots=True, kw_only=True)
class BaseImage:
    """The FROM line of a variant's Dockerfile and why it was chosen."""

    image: str
    notes: tuple[str, ...]
    nvidia_env: bool
    needs_uv: bool


def base_image(variant: Variant, images: tuple[CudaImage, ...]) -> BaseImage:
    """Choose the base image of a variant's Dockerfile.

    Raises:
        MatrixError: when cuda-images.yaml has no row for the variant's CUDA version.
    """
    if variant.pip is None and variant.conda is not None:
        return BaseImage(
            image=MICROMAMBA_IMAGE, notes=(), nvidia_env=variant.kind == "cuda", needs_uv=False
        )
    if variant.kind == "cpu":
        return BaseImage(
            image=f"python:{variant.python}-slim", notes=(), nvidia_env=False, needs_uv=False
        )
    if variant.kind != "cuda":
        note = f"{variant.kind} wheels bundle their runtime; the host needs the kernel driver."
        return BaseImage(image=GENERIC_IMAGE, notes=(note,), nvidia_env=False, needs_uv=True)
    row = next((i for i in images if i.cuda == variant.cuda), None)
    if row is None:
        known = ", ".join(i.cuda for i in images)
        msg = (
            f"{CUDA_IMAGES_FILE}: no base image for CUDA {variant.cuda} "
            f"(variant {variant.id}); rows: {known}"
        )
        raise MatrixError(msg, hint=f"add a row for {variant.cuda} to matrices/{CUDA_IMAGES_FILE}")
    if row.status == "removed" and row.fallback is not None:  # the loader requires a fallback
        notes = (
            f"{row.image} was removed from Docker Hub (end of life; {row.source}).",
            f"Fallback: {row.fallback}; the torch build bundles CUDA {variant.cuda} and cuDNN.",
        )
        return BaseImage(image=row.fallback, notes=notes, nvidia_env=True, needs_uv=True)
    checked = " (tag inferred, not checked)" if row.inferred else ""
    note = f"Base image for CUDA {variant.cuda}{checked}."
    return BaseImage(image=row.image, notes=(note,), nvidia_env=False, needs_uv=True)


def expectation(variant: Variant) -> SmokeExpectation:
    """What the smoke check expects in the image (GPU checks skip while building)."""
    pins = pip_pins(variant) if variant.pip is not None else {}
    companions = frozenset(
        c for c in COMPANIONS if getattr(variant, f"with_{c}") and getattr(variant.release, c)
    )
    return SmokeExpectation(
        kind=variant.kind,
        version=variant.compute_version,
        distributions=pins,
        companions=companions,
    )


def render_dockerfile(
    variant: Variant,
    *,
    header: Header,
    images: tuple[CudaImage, ...],
    lock_dir: PurePosixPath,
    dockerfile_path: PurePosixPath,
    smoke_path: PurePosixPath,
    vault: str | None = None,
) -> str:
    """The Dockerfile text of one variant (pure).

    `vault`: an http(s) URL of a vault (envgen vault), or its folder relative to the build
    context: pip then installs with `--no-index --find-links <vault>/find-links.html`.
    """
    base = base_image(variant, images)
    route = "pip" if variant.pip is not None else "conda"
    expect = expectation(variant).to_json()
    if "'" in expect:
        msg = f"variant {variant.id}: the smoke expectation contains a quote: {expect}"
        raise RenderError(msg)
    python_bin = "/opt/conda/bin/python" if route == "conda" else f"{VENV}/bin/python"
    return render_template(
        "Dockerfile.j2",
        header=header.lines(),
        notes=list(base.notes),
        dockerfile_path=str(dockerfile_path),
        base_image=base.image,
        nvidia_env=base.nvidia_env,
        route=route,
        uv_image=UV_IMAGE if base.needs_uv else "",
        python=variant.python,
        venv=VENV,
        lock_file=str(lock_dir / ("requirements.txt" if route == "pip" else "environment.yml")),
        smoke_script=str(smoke_path),
        python_bin=python_bin,
        expect=expect,
        verdict=_VERDICT,
        envgen=install_requirement(),
        vault_copy=vault if vault and "://" not in vault else "",
        vault_args=_vault_args(vault),
    )


def _vault_args(vault: str | None) -> str:
    """pip's options for a vault: only its flat page, never an index (the lock's lines included).

    >>> _vault_args("https://v.example/team")
    '--no-index --find-links https://v.example/team/find-links.html '
    >>> _vault_args("vault")
    '--no-index --find-links /opt/envgen/vault/find-links.html '
    """
    if not vault:
        return ""
    where = vault.rstrip("/") if "://" in vault else "/opt/envgen/vault"
    return f"--no-index --find-links {where}/find-links.html "


def _context_path(vault: str | None, root: Path) -> str | None:
    """A vault folder as a path in the build context (the project folder); a URL as it is.

    Raises:
        RenderError: the folder is outside the build context, which `docker build` cannot COPY.
    """
    if vault is None or "://" in vault:
        return vault
    rel = os.path.relpath(Path(vault).resolve(), root)
    if rel.startswith(".."):
        msg = f"--vault {vault}: outside the build context {root}; docker build cannot copy it"
        raise RenderError(msg, hint="put the vault in the project folder, or serve it by URL")
    return Path(rel).as_posix()


def _lock_warnings(variant: Variant, lock_dir: Path) -> list[str]:
    """Why `docker build` would fail on the lock as it stands (the Dockerfile text ignores it)."""
    name = "requirements.txt" if variant.pip is not None else "environment.yml"
    path = lock_dir / name
    try:
        # Bounded, regular files only, no link followed: a committed lock that is a link to
        # /dev/zero or a FIFO is a FileSystemError, never a read without end.
        raw = read_output(path)
        text = raw.decode("utf-8") if raw is not None else None
    except (OSError, UnicodeDecodeError):
        text = None
    if text is None:
        return [
            f"{variant.id}: {path.name} is not locked yet; run `envgen lock` before docker build"
        ]
    if variant.pip is not None and not has_hashes(text):
        msg = (
            f"{variant.id}: {name} holds pins without hashes (the pins-only form), so "
            "`pip install --require-hashes` fails; run `envgen lock` before docker build"
        )
        return [msg]
    return []


@dataclass(frozen=True, slots=True, kw_only=True)
class DockerfileOptions:
    """What `envgen dockerfile` was asked to do."""

    spec: Path
    out: Path | None = None
    variants: tuple[str, ...] = ()
    matrix_dir: Path | None = None
    settings: Settings  # the user's settings (ENVGEN_CUSTOM_COMMAND, the cache root)
    vault: str | None = None  # `--vault`: a URL, or a folder in the build context


def plan_dockerfiles(
    spec: ProjectSpec,
    matrix: Matrix,
    *,
    out: Path,
    variants: tuple[str, ...] = (),
    matrix_dir: Path | None = None,
    custom_command: str | None = None,
    vault: str | None = None,
) -> tuple[list[PlannedFile], list[str]]:
    """Render `<out>/<variant>/Dockerfile` per selected linux variant, plus the smoke script."""
    images = load_cuda_images(matrix_dir)
    chosen = select(expand(spec, matrix).variants, variants)
    root = spec.directory.resolve()
    out_rel = PurePosixPath(Path(os.path.relpath(out.resolve(), root)).as_posix())
    lock_rel = PurePosixPath(Path(os.path.relpath(default_out(spec).resolve(), root)).as_posix())
    smoke_rel = out_rel / SMOKE_NAME
    vault = _context_path(vault, root)
    command = regenerate_command(
        f"envgen dockerfile {spec.path.name}" + (f" --vault {vault}" if vault else ""),
        custom_command,
    )
    files: list[PlannedFile] = []
    warnings: list[str] = []
    for v in chosen:
        if not v.platform.startswith("linux-"):
            warnings.append(f"{v.id}: no Dockerfile for {v.platform} (containers are linux only)")
            continue
        if v.python in ("2.7", "3.5") and v.pip is not None:
            # uv cannot install them and python 2.7 has no venv module; `envgen build` installs
            # them with pip 20.3.4 (envgen.lock.legacy), a route no Dockerfile here was tried on.
            warnings.append(
                f"{v.id}: no Dockerfile for python {v.python} (uv cannot install it); build it "
                f"with `envgen build {spec.path.name} --variant {v.id}`"
            )
            continue
        base = base_image(v, images)
        warnings += [f"{v.id}: {n}" for n in base.notes if "removed" in n]
        warnings += _lock_warnings(v, default_out(spec) / v.id)
        path = out_rel / v.id / "Dockerfile"
        header = Header(
            command=command,
            input_hash=input_hash(
                {
                    "format": FORMAT_VERSION,
                    "kind": "Dockerfile",
                    "variant": v.summary(),
                    "base": base.image,
                    "lock_dir": str(lock_rel / v.id),
                    "envgen": install_requirement(),
                    **({"vault": vault} if vault else {}),
                }
            ),
            description=describe(v),
        )
        text = render_dockerfile(
            v,
            header=header,
            images=images,
            lock_dir=lock_rel / v.id,
            dockerfile_path=path,
            smoke_path=smoke_rel,
            vault=vault if v.pip is not None else None,
        )
        if vault and v.pip is None:
            warnings.append(f"{v.id}: the conda route installs from its channels, not the vault")
        files.append(PlannedFile(relpath=PurePosixPath(v.id, "Dockerfile"), text=text))
    files.append(
        PlannedFile(
            relpath=PurePosixPath(SMOKE_NAME), text=SMOKE_SCRIPT.read_text(encoding="utf-8")
        )
    )
    return files, warnings


def write_dockerfiles(options: DockerfileOptions) -> tuple[list[PurePosixPath], list[str]]:
    """Load the spec, plan the Dockerfiles, write the changed ones; return (written, warnings)."""
    spec = load_spec(options.spec)
    matrix = load_matrix(options.matrix_dir, cache_root=options.settings.cache_root)
    out = options.out or spec.directory / "docker"
    files, warnings = plan_dockerfiles(
        spec,
        matrix,
        out=out,
        variants=options.variants,
        matrix_dir=options.matrix_dir,
        custom_command=options.settings.custom_command,
        vault=options.vault,
    )
    inside = options.out if options.out is not None else spec.directory
    written = [
        f.relpath
        for f in files
        if write_if_changed(out.joinpath(*f.relpath.parts), f.text, inside=inside)
    ]
    return written, warnings


__all__ = [
    "CudaImage",
    "DockerfileOptions",
    "base_image",
    "expectation",
    "load_cuda_images",
    "plan_dockerfiles",
    "render_dockerfile",
    "write_dockerfiles",
]
