"""`envgen export uv|pixi`: the spec's variants as one uv project or one pixi workspace.

uv: a pyproject.toml with one extra per accelerator (its torch-family pins, with platform
markers where the pins differ by platform), the PyTorch indexes as explicit `[[tool.uv.index]]`
entries, `[tool.uv.sources]` routing each torch package to its extra's index, and
`[tool.uv] conflicts` between the extras, so that `uv lock` writes one universal lock for every
variant (uv's PyTorch guide: https://docs.astral.sh/uv/guides/integration/pytorch/).

pixi: a pixi.toml with one feature and one environment per accelerator: the conda side's
channels (by era, as published), its pins and compute package, `system-requirements.cuda` for
CUDA builds, and pip-only accelerators as `pypi-dependencies` with their index.

Both come from the same expansion as every other output. Pure: text out, no I/O but reading the
spec and matrix; this module must not run uv or pixi.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from packaging.requirements import Requirement

from envgen.errors import RenderError
from envgen.infra.files import input_hash
from envgen.infra.settings import Settings
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import ProjectSpec, load_spec
from envgen.model.variants import Variant, expand, pip_pins
from envgen.render.environment import channels, compute_package, torch_packages
from envgen.render.header import FORMAT_VERSION, Header, regenerate_command
from envgen.render.indexes import IndexUrls, index_urls

Tool = Literal["uv", "pixi"]
# Platform -> the PEP 508 marker uv resolves it with (`[tool.uv] environments`, source markers).
PLATFORM_MARKERS: Final[dict[str, str]] = {
    "linux-64": "sys_platform == 'linux' and platform_machine == 'x86_64'",
    "linux-aarch64": "sys_platform == 'linux' and platform_machine == 'aarch64'",
    "osx-arm64": "sys_platform == 'darwin' and platform_machine == 'arm64'",
    "osx-64": "sys_platform == 'darwin' and platform_machine == 'x86_64'",
    "win-64": "sys_platform == 'win32' and platform_machine == 'AMD64'",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class ExportOptions:
    """What `envgen export uv|pixi` was asked to do."""

    spec: Path
    tool: Tool
    output: Path | None = None  # None: stdout
    matrix_dir: Path | None = None
    settings: Settings  # the user's settings (indexes, ENVGEN_CUSTOM_COMMAND, the cache root)


def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these characters)."""
    return json.dumps(text, ensure_ascii=False)


def _array(items: Sequence[str]) -> str:
    return "[" + ", ".join(_q(i) for i in items) + "]"


def _inline(table: dict[str, str]) -> str:
    return "{ " + ", ".join(f"{k} = {_q(v)}" for k, v in table.items()) + " }"


def _python_range(pythons: list[str]) -> str:
    """['3.10', '3.11'] -> '>=3.10,<3.12'.

    >>> _python_range(["3.11"]), _python_range(["3.11", "3.10"])
    ('>=3.11,<3.12', '>=3.10,<3.12')
    """
    nums = sorted(tuple(int(p) for p in py.split(".")) for py in pythons)
    low, high = nums[0], nums[-1]
    return f">={low[0]}.{low[1]},<{high[0]}.{high[1] + 1}"


def _by_accelerator(variants: tuple[Variant, ...]) -> dict[str, list[Variant]]:
    groups: dict[str, list[Variant]] = {}
    for v in variants:
        groups.setdefault(str(v.accelerator), []).append(v)
    return groups


def _header(spec: ProjectSpec, tool: Tool, data: object, custom_command: str | None) -> list[str]:
    header = Header(
        command=regenerate_command(f"envgen export {tool} {spec.path.name}", custom_command),
        input_hash=input_hash({"format": FORMAT_VERSION, "kind": f"export-{tool}", "data": data}),
        description=f"project: {spec.name}",
    )
    return [f"# {line}" for line in header.lines()]


# --- uv ------------------------------------------------------------------------------------------
def _index_name(url: str, root: str) -> str:
    """`pytorch-cu118` for <root>/cu118; the URL's last part for any other."""
    tail = url.rstrip("/").removeprefix(root.rstrip("/")).strip("/") or "whl"
    return "pytorch-" + tail.replace("/", "-").replace("_", "-").replace(".html", "")


def render_uv(  # noqa: PLR0912 - one branch per pyproject.toml section it writes, in file order
    spec: ProjectSpec, matrix: Matrix, urls: IndexUrls, *, custom_command: str | None = None
) -> str:
    """The pyproject.toml text for `uv lock` (pure)."""
    expansion = expand(spec, matrix)
    old = sorted({v.python for v in expansion.variants if v.pip is not None} & {"2.7", "3.5"})
    if old:
        # uv 0.13: "Python <3.6 is not supported"; envgen locks them with pip 20.3.4 instead.
        msg = (
            f"{spec.path.name}: python: uv cannot target python {', '.join(old)}, so `uv lock` "
            "cannot lock this export"
        )
        raise RenderError(msg, hint="lock these pythons with `envgen lock` (pip 20.3.4)")
    groups = _by_accelerator(tuple(v for v in expansion.variants if v.pip is not None))
    extras: dict[str, list[str]] = {}
    sources: dict[str, list[dict[str, str]]] = {}
    indexes: dict[str, tuple[str, bool]] = {}  # name -> (url, flat)
    platforms: list[str] = []
    for acc, members in groups.items():
        # One row per platform group: variants of one accelerator differ only in python/platform.
        rows: dict[tuple[tuple[str, str], ...], list[str]] = {}
        routes: dict[tuple[tuple[str, str], ...], str | None] = {}
        for v in members:
            build = v.pip
            assert build is not None  # noqa: S101 - filtered above
            key = tuple(sorted(pip_pins(v).items()))
            if v.platform not in rows.setdefault(key, []):
                rows[key].append(v.platform)
            if v.platform not in platforms:
                platforms.append(v.platform)
            index = None
            if build.index != "pypi" and build.url is not None:
                url = urls.pytorch(build.url)
                index = _index_name(url, urls.pytorch_root)
                indexes[index] = (url, build.index == "find-links")
            routes[key] = index
        deps: list[str] = []
        for key, plats in rows.items():
            marker = (
                ""
                if len(rows) == 1
                else " or ".join(f"({PLATFORM_MARKERS[p]})" for p in sorted(plats))
            )
            for name, version in key:
                deps.append(f"{name}=={version}" + (f"; {marker}" if marker else ""))
                index = routes[key]
                if index is not None:
                    source = {"index": index, "extra": acc}
                    if marker:
                        source["marker"] = marker
                    if source not in sources.setdefault(name, []):
                        sources[name].append(source)
        extras[acc] = sorted(deps)
    pythons = sorted({v.python for v in expansion.variants})
    data = {
        "extras": extras,
        "sources": sources,
        "indexes": {k: list(v) for k, v in indexes.items()},
        "platforms": platforms,
        "python": pythons,
        "pip": list(spec.pip),
        "pypi": urls.pypi,
    }
    out = _header(spec, "uv", data, custom_command)
    out += [
        "# Lock every variant at once: `uv lock`; install one: `uv sync --extra <accelerator>`.",
        "[project]",
        f"name = {_q(spec.name)}",
        'version = "0"',
        f"requires-python = {_q(_python_range(pythons))}",
        f"dependencies = {_array(list(spec.pip))}",
        "",
        "[project.optional-dependencies]",
    ]
    out += [f"{_q(acc)} = {_array(deps)}" for acc, deps in extras.items()]
    out += ["", "[tool.uv]"]
    out.append(
        "environments = "
        + _array([PLATFORM_MARKERS[p] for p in platforms if p in PLATFORM_MARKERS])
    )
    if len(extras) > 1:
        pairs = ", ".join(_inline({"extra": acc}) for acc in extras)
        out.append(f"conflicts = [[{pairs}]]")
    if sources:
        out += ["", "[tool.uv.sources]"]
        for name in sorted(sources):
            items = ", ".join(_inline(s) for s in sources[name])
            out.append(f"{name} = [{items}]")
    for name, (url, flat) in indexes.items():
        out += ["", "[[tool.uv.index]]", f"name = {_q(name)}", f"url = {_q(url)}"]
        if flat:
            out.append('format = "flat"')
        out.append("explicit = true")
    if urls.pypi:
        out += [
            "",
            "[[tool.uv.index]]",
            'name = "pypi"',
            f"url = {_q(urls.pypi)}",
            "default = true",
        ]
    return "\n".join(out) + "\n"


# --- pixi ----------------------------------------------------------------------------------------
def _conda_value(spec: str) -> tuple[str, str]:
    """An environment.yml dependency as a pixi (name, TOML value).

    >>> _conda_value("cudatoolkit=11.8"), _conda_value("cpuonly"), _conda_value("pytorch==2.1.0")
    (('cudatoolkit', '"11.8.*"'), ('cpuonly', '"*"'), ('pytorch', '"==2.1.0"'))
    >>> _conda_value("pytorch=2.6.0=cuda*")
    ('pytorch', '{ version = "==2.6.0", build = "cuda*" }')
    """
    text = spec.strip()
    for op in ("==", ">=", "<=", "!=", ">", "<"):
        if op in text:
            name, _, rest = text.partition(op)
            return name.strip(), _q(op + rest.strip())
    if "=" in text:
        name, _, rest = text.partition("=")
        version, _, build = rest.partition("=")
        if build:
            return name.strip(), _inline({"version": f"=={version}", "build": build})
        return name.strip(), _q(version if version.endswith("*") else version + ".*")
    if " " in text:
        name, _, rest = text.partition(" ")
        return name, _q(rest.strip())
    return text, _q("*")


# conda's `defaults` is an alias, not a channel: pixi would ask conda.anaconda.org/defaults, which
# does not exist. conda expands it to these (github.com/conda/conda, conda/base/constants.py:
# DEFAULT_CHANNELS_UNIX, and DEFAULT_CHANNELS_WIN, which adds msys2), so the export names them.
_DEFAULTS: Final = ("https://repo.anaconda.com/pkgs/main", "https://repo.anaconda.com/pkgs/r")
_DEFAULTS_WIN: Final = "https://repo.anaconda.com/pkgs/msys2"


def pixi_channels(names: Sequence[str], platforms: Sequence[str]) -> list[str]:
    """Channels as pixi reads them: conda's `defaults` alias spelled out, no repeats.

    >>> pixi_channels(["pytorch", "defaults"], ["linux-64"])
    ['pytorch', 'https://repo.anaconda.com/pkgs/main', 'https://repo.anaconda.com/pkgs/r']
    """
    out: list[str] = []
    for name in names:
        expanded: tuple[str, ...] = (name,)
        if name == "defaults":
            win = any(p.startswith("win-") for p in platforms)
            expanded = (*_DEFAULTS, *((_DEFAULTS_WIN,) if win else ()))
        out += [ch for ch in expanded if ch not in out]
    return out


def render_pixi(
    spec: ProjectSpec, matrix: Matrix, urls: IndexUrls, *, custom_command: str | None = None
) -> str:
    """The pixi.toml text: one feature and environment per accelerator (pure)."""
    expansion = expand(spec, matrix)
    groups = _by_accelerator(expansion.variants)
    platforms = sorted({v.platform for v in expansion.variants})
    pythons = sorted({v.python for v in expansion.variants})
    features: list[list[str]] = []
    data: list[object] = []
    for acc, members in groups.items():
        v = members[0]
        lines = [f"[feature.{_q(acc)}]"]
        plats = sorted({m.platform for m in members})
        if plats != platforms:
            lines.append(f"platforms = {_array(plats)}")
        if v.conda is not None:
            lines.append(f"channels = {_array(pixi_channels(channels(v), plats))}")
        if v.kind == "cuda" and v.compute_version:
            lines += [
                "",
                f"[feature.{_q(acc)}.system-requirements]",
                f"cuda = {_q(v.compute_version)}",
            ]
        if v.conda is not None:
            lines += ["", f"[feature.{_q(acc)}.dependencies]"]
            for dep in [*torch_packages(v), *compute_package(v.conda), *v.conda_extra]:
                name, value = _conda_value(dep)
                lines.append(f"{name} = {value}")
        elif v.pip is not None:
            lines += ["", f"[feature.{_q(acc)}.pypi-dependencies]"]
            index = None
            direct = v.pip.direct_urls(v.python)
            if v.pip.index != "pypi" and v.pip.url is not None and not direct:
                index = urls.pytorch(v.pip.url)
            for name, version in pip_pins(v).items():
                table = {"version": f"=={version}"}
                if name in direct:
                    # The page's unlabelled wheel, by URL: next to PyPI's same-version build.
                    table = {"url": urls.pytorch(direct[name])}
                if index is not None and v.pip.index != "find-links":
                    table["index"] = index
                lines.append(f"{name} = {_inline(table)}")
            if index is not None and v.pip.index == "find-links":
                # torch_stable.html era: a flat page, pixi's find-links.
                lines += [
                    "",
                    f"[feature.{_q(acc)}.pypi-options]",
                    f"find-links = [{_inline({'url': index})}]",
                ]
        features.append(lines)
        data.append([acc, lines])
    out = _header(spec, "pixi", data, custom_command)
    out += [
        "# One environment per accelerator: `pixi install -e <accelerator>`.",
        "[workspace]",
        f"name = {_q(spec.name)}",
        f"channels = {_array(pixi_channels(spec.conda.channels or ['conda-forge'], platforms))}",
        f"platforms = {_array(platforms)}",
        "",
        "[dependencies]",
        f"python = {_q(_python_range(pythons))}",
    ]
    if spec.pip:
        out += ["", "[pypi-dependencies]"]
        for req in spec.pip:
            name, version = _split_requirement(req)
            out.append(f"{name} = {_q(version)}")
    for lines in features:
        out += ["", *lines]
    out += ["", "[environments]"]
    out += [f"{_q(acc)} = {_array([acc])}" for acc in groups]
    return "\n".join(out) + "\n"


def _split_requirement(req: str) -> tuple[str, str]:
    parsed = Requirement(req)
    return parsed.name, str(parsed.specifier) or "*"


def render_export(options: ExportOptions) -> str:
    """The text of `envgen export <tool>` (reads the spec and matrix only)."""
    spec = load_spec(options.spec)
    settings = options.settings
    matrix = load_matrix(options.matrix_dir, cache_root=settings.cache_root)
    written = index_urls(spec, settings, for_writing=True)
    urls = IndexUrls(
        pytorch_root=written.pytorch_root.rstrip("/"),
        pypi=written.pypi.rstrip("/") if written.pypi else None,
    )
    if options.tool == "uv":
        return render_uv(spec, matrix, urls, custom_command=settings.custom_command)
    return render_pixi(spec, matrix, urls, custom_command=settings.custom_command)
