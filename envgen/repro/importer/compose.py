"""A Compose file (docker-compose.yml, compose.yaml): the image its first building service makes,
read as `docker build` reads it (envgen.repro.importer.install_script): `build.context` relative
to the file, `build.dockerfile` relative to the context (default `Dockerfile`), and `build.args`
(a mapping or `K=V` items). Compose interpolates `${VAR:-default}` and `${VAR-default}` from the
user's environment or `.env`, unknown here: the default is the value on the default route; a bare
`${VAR}` is left out. A service with no build whose `image:` ships torch (pytorch/pytorch, NGC's)
is that image's environment. Format: https://docs.docker.com/reference/compose-file/ (services,
build). Never runs docker.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Final

from envgen.repro.importer.declared import load_yaml
from envgen.repro.importer.evidence import Evidence
from envgen.repro.importer.images import from_image
from envgen.repro.importer.install_script import shell_command, ships_torch_image
from envgen.repro.reading import excerpt

_MAX_SERVICES: Final = 64  # services looked at (the first that builds is read)
_MAX_ARGS: Final = 64  # build args kept
_DEFAULT: Final = re.compile(r"\$\{\w+:?-([^}]*)\}")
_UNSET: Final = re.compile(r"\$\{?\w")


def _value(value: object) -> str | None:
    """A Compose value on the default route: `${VAR:-x}` is x; None where a variable with no
    default (or no string) is left.

    >>> _value("${IMAGE_BASE:-python:3.10}"), _value("${TAG}"), _value(3), _value("./build")
    ('python:3.10', None, '3', './build')
    """
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    text = _DEFAULT.sub(lambda m: m.group(1), str(value))
    return None if _UNSET.search(text) else text


def _args(raw: object) -> list[tuple[str, str]]:
    """`build.args` as (key, value) pairs: a mapping, or a list of `K=V` items."""
    items: list[tuple[object, object]] = []
    if isinstance(raw, dict):
        items = list(raw.items())
    elif isinstance(raw, list):
        items = [tuple(str(i).split("=", 1)) for i in raw if "=" in str(i)]  # type: ignore[misc]
    out: list[tuple[str, str]] = []
    for key, value in items[:_MAX_ARGS]:
        text = _value(value)
        if isinstance(key, str) and re.fullmatch(r"\w+", key) and text is not None:
            out.append((key, text))
    return out


def read(text: str, found: Evidence, base: Path | None) -> None:
    """The first service that builds an image (else one that runs a torch image)."""
    loaded = load_yaml(text, found)
    if loaded is None:
        return
    data = loaded[1]
    services = data.get("services") if isinstance(data, dict) else None
    if not isinstance(services, dict):
        found.problems.append(f"{found.source}: no `services:` mapping: not a Compose file")
        return
    for name, service in list(services.items())[:_MAX_SERVICES]:
        if not isinstance(service, dict):
            continue
        build = service.get("build")
        build = {"context": build} if isinstance(build, str) else build
        where = f"{found.source} (service {excerpt(str(name), 40)})"
        if isinstance(build, dict):
            context = _value(build.get("context", ".")) or "."
            words = ["docker", "build"]
            for key, value in _args(build.get("args")):
                words += ["--build-arg", f"{key}={value}"]
            dockerfile = _value(build.get("dockerfile"))
            if dockerfile:
                words += ["-f", posixpath.join(context, dockerfile)]
            found.warnings.append(
                f"{where}: `docker compose build` builds {excerpt(context)}: that image is read"
            )
            shell_command([*words, context], found, base, where, env={})
            return
        image = _value(service.get("image"))
        if image is not None and ships_torch_image(image):
            from_image(image, found, where)
            return
