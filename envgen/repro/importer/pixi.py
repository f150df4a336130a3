"""pixi manifests (pixi.toml, and a pyproject.toml's [tool.pixi] tables), read as what `pixi
install` puts in the `default` environment.

An environment is a set of features: the top-level tables ([dependencies], [pypi-dependencies],
[system-requirements], [pypi-options], [target.<platform>.*]) are the `default` feature, and
`[feature.<name>.*]` tables the others. Without an `[environments]` entry named `default`, the
default environment is the default feature alone; with one (`default = ["cuda"]` or `default =
{features = [...], no-default-feature = ...}`), it is those features plus the default feature
unless `no-default-feature = true` (pixi's docs/workspace/multi_environment.md: `default =
["py39"]  # implicit: default = ["py39", "default"]`). A feature only another environment uses
is an alternative the user picks with `pixi run -e NAME`: said in a warning, never read.

Within the environment: conda [dependencies] are solved first (conda match specs, a table's
`channel` and `build` included), then [pypi-dependencies] are installed by uv with the conda
packages held fixed, so a pypi torch over a conda pytorch is what pip would see installed; a
package's `index` routes it through that index, [pypi-options] `index-url` /
`extra-index-urls` / `find-links` apply to all of them. [target.linux-64.*] (and `linux`,
`unix`) tables are read on top of the plain ones; other platforms' are not. `[workspace]` (the
`[project]` table of older manifests) lists the channels; a feature's own channels come before
them. [system-requirements] `cuda` (or a `cuda` key on a `workspace.platforms` entry for
linux-64) is the driver the machine must have (the `__cuda` virtual package), not a build: said
in a warning. [tasks] are commands run later and are not read.

Format: https://pixi.sh/latest/reference/pixi_manifest/ (prefix-dev/pixi
docs/reference/pixi_manifest.md). Must not run pixi or fetch anything.

Bounded for a hostile manifest: at most MAX_PACKAGES dependencies are read, each line number is
looked up in a map built once, feature and environment names are quoted as excerpts, and at most
_MAX_NOTES warnings of one kind are written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from envgen.repro.importer.conda_env import conda_spec
from envgen.repro.importer.declared import LineIndex, TomlUnreadable, load_toml, one_minor
from envgen.repro.importer.evidence import Evidence, is_pypi, room_for, set_python
from envgen.repro.importer.requirements import pip_requirement
from envgen.repro.reading import excerpt

# The target keys that hold on linux-64 (pixi's target table: a platform, or `linux` / `unix`).
_LINUX_TARGETS: Final = ("linux", "unix", "linux-64")
_MAX_NOTES: Final = 20  # warnings about features (undefined, alternatives) written per manifest
_MAX_NAMED_ENVIRONMENTS: Final = 5  # environments named in one warning; the rest are counted
# Names that make a feature worth a warning when the default environment leaves it out.
_TORCH_NAMES: Final = frozenset(
    {"torch", "pytorch", "pytorch-gpu", "pytorch-cpu", "torchvision", "torchaudio",
     "pytorch-cuda", "cudatoolkit", "cuda-version"}
)  # fmt: skip


@dataclass(slots=True)
class _Lines:
    """The line a dependency is first written on (1 for one not found), for messages: the
    manifest's declared.LineIndex, and the dependency names read so far (bounded)."""

    index: LineIndex
    read: list[str] = field(default_factory=list)

    def __call__(self, name: str) -> int:
        return self.index(name) or 1

    def room(self, found: Evidence, name: str, where: str) -> bool:
        """Another dependency fits under MAX_PACKAGES (one warning when the first does not)."""
        if not room_for(found, self.read, "pixi", where):
            return False
        self.read.append(name)
        return True


@dataclass(slots=True)
class _Feature:
    """One feature's tables, as the manifest gives them (`name` is "default" for the top level)."""

    name: str
    prefix: str  # the table path in messages: "" or "feature.cuda."
    table: dict[str, object]
    channels: list[str] = field(default_factory=list)


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """A pixi.toml: the default environment's conda and PyPI dependencies, python, indexes."""
    try:
        data = load_toml(text)
    except TomlUnreadable as exc:
        found.problems.append(
            f"{found.source}: {exc.why}{'' if exc.nested else '; a pixi.toml is TOML'}"
        )
        return
    read_manifest(data, found, LineIndex(text.splitlines()))


def read_manifest(
    manifest: dict[str, object], found: Evidence, at: LineIndex, *, root: str = ""
) -> None:
    """A pixi manifest's tables (`root` is "tool.pixi." inside a pyproject.toml)."""
    found.pixi = True
    workspace = _table(manifest.get("workspace")) or _table(manifest.get("project"))
    line_of = _Lines(at)
    features = _features(manifest, root)
    chosen, others = _default_environment(manifest, features, found, root)
    for feature in chosen:
        for channel in feature.channels:
            if channel not in found.channels:
                found.channels.append(channel)
    for channel in _channels(workspace.get("channels")):
        if channel not in found.channels:
            found.channels.append(channel)
    _platform_cuda(workspace, found, line_of, root)
    # conda's solve comes first; uv then installs the PyPI packages around it.
    for feature in chosen:
        for table, where in _tables(feature, "dependencies"):
            _conda_dependencies(table, found, line_of, where)
    for feature in chosen:
        _pypi_options(_table(feature.table.get("pypi-options")), found)
        for table, where in _tables(feature, "pypi-dependencies"):
            _pypi_dependencies(table, found, line_of, where)
        for table, where in _tables(feature, "system-requirements"):
            _system_cuda(table.get("cuda"), found, f"{found.source}:{line_of('cuda')} [{where}]")
    notes = 0
    for feature, environments in others:
        if notes >= _MAX_NOTES:
            found.warnings.append(
                f"{found.source}: more than {_MAX_NOTES} features the default environment "
                "leaves out name torch; the rest are not listed"
            )
            break
        notes += _alternative(feature, environments, found)


def _table(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _channels(value: object) -> list[str]:
    """A channels list: names or URLs, or `{channel = "pytorch", priority = -1}` tables."""
    out: list[str] = []
    for item in value if isinstance(value, list) else []:
        name = item.get("channel") if isinstance(item, dict) else item
        if isinstance(name, str) and name:
            out.append(name)
    return out


def _features(manifest: dict[str, object], root: str) -> dict[str, _Feature]:
    """The default feature (the top-level tables) and every `[feature.<name>]`, by name."""
    features = {"default": _Feature(name="default", prefix=root, table=manifest)}
    for name, table in _table(manifest.get("feature")).items():
        if isinstance(table, dict) and name != "default":
            features[name] = _Feature(
                name=name,
                prefix=f"{root}feature.{excerpt(name)}.",
                table=table,
                channels=_channels(table.get("channels")),
            )
    return features


def _default_environment(
    manifest: dict[str, object], features: dict[str, _Feature], found: Evidence, root: str
) -> tuple[list[_Feature], list[tuple[_Feature, list[str]]]]:
    """The features of the `default` environment, in pixi's order (the listed ones, then the
    default feature), and every other feature with the environments that use it."""
    environments = _table(manifest.get("environments"))
    listed: dict[str, tuple[list[str], bool]] = {}
    for env, spec in environments.items():
        names = spec.get("features") if isinstance(spec, dict) else spec
        no_default = isinstance(spec, dict) and spec.get("no-default-feature") is True
        listed[env] = ([str(n) for n in names] if isinstance(names, list) else [], no_default)
    names, no_default = listed.get("default", ([], False))
    chosen: dict[str, _Feature] = {}
    undefined = 0
    for name in [*names, *([] if no_default else ["default"])]:
        if name in features:
            chosen.setdefault(name, features[name])
        elif undefined < _MAX_NOTES:
            undefined += 1
            found.warnings.append(
                f"{found.source}: [{root}environments] default names the feature "
                f"{excerpt(name)!r}, which the manifest does not define; ignored"
            )
    using: dict[str, list[str]] = {}  # feature name -> the environments that list it
    for env, (used, _) in listed.items():
        for name in dict.fromkeys(used):
            using.setdefault(name, []).append(env)
    others = [
        (feature, using.get(name, [])) for name, feature in features.items() if name not in chosen
    ]
    return list(chosen.values()), others


def _tables(feature: _Feature, key: str) -> Iterable[tuple[dict[str, object], str]]:
    """A feature's `key` table, then its linux-64 target's (read on top): (table, its path)."""
    yield _table(feature.table.get(key)), f"{feature.prefix}{key}"
    for target, table in _table(feature.table.get("target")).items():
        if target in _LINUX_TARGETS and isinstance(table, dict):
            yield _table(table.get(key)), f"{feature.prefix}target.{target}.{key}"


def conda_match_spec(name: str, value: object) -> str | None:
    """A [dependencies] entry as a conda match spec (`channel::name version=build`), or None
    for what is not a package spec (a source package's `path` / `git` / `url`).

    >>> conda_match_spec("python", ">=3.10, <3.11"), conda_match_spec("pytorch", "*")
    ('python >=3.10,<3.11', 'pytorch')
    >>> conda_match_spec("pytorch-cuda", {"version": "12.4", "channel": "pytorch"})
    'pytorch::pytorch-cuda 12.4'
    >>> conda_match_spec("pytorch", {"version": "==2.1.0", "build": "py3.10_cuda11.8*"})
    'pytorch ==2.1.0=py3.10_cuda11.8*'
    >>> conda_match_spec("mylib", {"path": "."}) is None
    True
    """
    version: object
    channel: object
    build: object
    if isinstance(value, str):
        version, channel, build = value, None, None
    elif isinstance(value, dict) and not {"path", "git", "url"} & value.keys():
        version = value.get("version", "*")
        channel, build = value.get("channel"), value.get("build")
    else:
        return None
    if not isinstance(version, str):
        return None
    version = re.sub(r"\s+", "", version)
    spec = name if version in {"", "*"} else f"{name} {version}"
    if isinstance(build, str) and build and version not in {"", "*"}:
        spec += f"={build}"
    return f"{channel}::{spec}" if isinstance(channel, str) and channel else spec


def _entries(
    table: dict[str, object], found: Evidence, line_of: _Lines, where: str
) -> Iterator[tuple[str, object, str]]:
    """(name, value, `file:line [table]`) of a dependency table, up to MAX_PACKAGES in all."""
    for name, value in table.items():
        at = f"{found.source}:{line_of(name)} [{where}]"
        if not line_of.room(found, name, at):
            return
        yield str(name), value, at


def _left_out(found: Evidence, name: str, at: str, why: str, fix: str = "") -> None:
    """A torch-family dependency from a source (git, path) rather than a release: said, not read."""
    if name.lower() in _TORCH_NAMES:
        found.warnings.append(f"{at}: {name} {why}; left out{fix}")


def _conda_dependencies(
    table: dict[str, object], found: Evidence, line_of: _Lines, where: str
) -> None:
    for name, value, at in _entries(table, found, line_of, where):
        spec = conda_match_spec(name, value)
        if spec is None:
            _left_out(found, name, at, f"is built from source ({excerpt(str(value))}), not a "
                      "released package")  # fmt: skip
            continue
        if str(name).lower() == "python":
            # `>=3.10,<3.11` admits one minor: that python (a floor stays the release's choice).
            minor = one_minor(spec.split(" ", 1)[1]) if " " in spec else None
            if minor is not None:
                set_python(found, minor, at)
                continue
        conda_spec(spec, found, at)


def pypi_requirement(name: str, value: object) -> tuple[str | None, str | None]:
    """A [pypi-dependencies] entry as the requirement uv receives, and the index it names:
    (requirement or None for a git / path source, index URL or None).

    >>> pypi_requirement("torch", {"version": "==2.6.0", "index": "https://x/whl/cu124"})
    ('torch==2.6.0', 'https://x/whl/cu124')
    >>> pypi_requirement("warp-lang", {"version": "==1.9.0", "extras": ["extras"]})
    ('warp-lang[extras]==1.9.0', None)
    >>> pypi_requirement("numpy", "*"), pypi_requirement("pkg", {"path": ".", "editable": True})
    (('numpy', None), (None, None))
    >>> pypi_requirement("click", {"url": "https://x/click-8.1.7-py3-none-any.whl"})
    ('click @ https://x/click-8.1.7-py3-none-any.whl', None)
    """
    if isinstance(value, str):
        version = _operator(value.strip())
        return name + ("" if version in {"", "*"} else version), None
    if not isinstance(value, dict):
        return None, None
    extras = value.get("extras")
    extra = (
        "[" + ",".join(e for e in extras if isinstance(e, str)) + "]"
        if isinstance(extras, list) and extras
        else ""
    )
    if isinstance(value.get("url"), str):
        return f"{name}{extra} @ {value['url']}", None
    if {"path", "git"} & value.keys():
        return None, None
    version = value.get("version", "*")
    version = _operator(version.strip()) if isinstance(version, str) else "*"
    index = value.get("index")
    requirement = name + extra + ("" if version in {"", "*"} else version)
    return requirement, index if isinstance(index, str) and index else None


def _operator(version: str) -> str:
    """A PyPI version written without a comparison operator (`"2.1.0"`: pixi refuses it, PEP 440
    needs one) read as the exact version it names.

    >>> _operator("2.1.0"), _operator(">=2.1"), _operator("*")
    ('==2.1.0', '>=2.1', '*')
    """
    return f"=={version}" if version[:1].isdigit() else version


def _bare_version(value: object) -> str | None:
    """The version of a [pypi-dependencies] entry that has no comparison operator, or None."""
    version = value.get("version") if isinstance(value, dict) else value
    return version.strip() if isinstance(version, str) and version.strip()[:1].isdigit() else None


def _pypi_dependencies(
    table: dict[str, object], found: Evidence, line_of: _Lines, where: str
) -> None:
    for name, value, at in _entries(table, found, line_of, where):
        requirement, index = pypi_requirement(name, value)
        if requirement is None:
            _left_out(found, name, at, f"comes from {excerpt(str(value))}, not a released version",
                      " (pin a released version in pip: if the paper needs it)")  # fmt: skip
            continue
        bare = _bare_version(value)
        if bare is not None and name.lower() in _TORCH_NAMES:
            found.warnings.append(
                f"{at}: {name} = {excerpt(bare)!r} has no comparison operator (pixi refuses it); "
                f'read as =={excerpt(bare)} (write "=={excerpt(bare)}")'
            )
        if index is not None and ("extra-index-url", index) not in found.indexes:
            found.indexes.append(("extra-index-url", index))
        pip_requirement(requirement, found, at)


def _pypi_options(options: dict[str, object], found: Evidence) -> None:
    """[pypi-options]: `index-url` replaces PyPI (left to envgen when it is PyPI),
    `extra-index-urls` and `find-links` add indexes and pages (a string or a `{url = ...}`)."""
    index = options.get("index-url")
    if isinstance(index, str) and not is_pypi(index):
        found.indexes.append(("index-url", index))
    for form, key in (("extra-index-url", "extra-index-urls"), ("find-links", "find-links")):
        items = options.get(key)
        for item in items if isinstance(items, list) else []:
            url = item.get("url") if isinstance(item, dict) else item
            if isinstance(url, str) and (form, url) not in found.indexes:
                found.indexes.append((form, url))


def _system_cuda(value: object, found: Evidence, where: str) -> None:
    if isinstance(value, str | int | float) and str(value):
        m = re.fullmatch(r"(\d{1,3})(?:\.(\d{1,3}))?", str(value).strip()[:16])
        if m is not None:
            found.system_cuda = f"{m.group(1)}.{m.group(2) or 0}"
        found.warnings.append(
            f"{where}: cuda = {excerpt(str(value))!r} is the CUDA the machine's driver must "
            "support (the __cuda virtual package the solver sees), not a build: it chooses none "
            "by itself (with conda-forge's pytorch it bounds the CUDA build)"
        )


def _platform_cuda(
    workspace: dict[str, object], found: Evidence, line_of: _Lines, root: str
) -> None:
    """`platforms = [{platform = "linux-64", cuda = "12.0"}]`: the newer form of
    [system-requirements] for one platform."""
    platforms = workspace.get("platforms")
    for entry in platforms if isinstance(platforms, list) else []:
        if isinstance(entry, dict) and (entry.get("platform") or entry.get("name")) == "linux-64":
            at = f"{found.source}:{line_of('platforms')} [{root}workspace.platforms]"
            _system_cuda(entry.get("cuda"), found, at)


def _alternative(feature: _Feature, environments: list[str], found: Evidence) -> bool:
    """A feature the default environment leaves out: a warning where it names torch (True)."""
    named = sorted(
        {
            str(name)
            for key in ("dependencies", "pypi-dependencies")
            for table, _ in _tables(feature, key)
            for name in table
            if str(name).lower() in _TORCH_NAMES
        }
    )
    if not named:
        return False
    shown = ", ".join(excerpt(env) for env in environments[:_MAX_NAMED_ENVIRONMENTS])
    more = len(environments) - _MAX_NAMED_ENVIRONMENTS
    used = (
        f"the environment(s) {shown}{f' and {more} more' if more > 0 else ''} "
        f"(`pixi run -e {excerpt(environments[0])}`)"
        if environments
        else "no environment"
    )
    found.warnings.append(
        f"{found.source}: [{feature.prefix}*] names {', '.join(named)}, but only {used} include "
        "the feature: an alternative, not the default environment envgen imports; left out"
    )
    return True
