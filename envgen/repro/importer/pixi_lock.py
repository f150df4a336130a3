"""`envgen import` of a pixi.lock: what `pixi install` puts in the default environment on
linux-64.

pixi writes its lock as YAML (https://pixi.sh/latest/workspace/lockfile/): from format version 4
on, `environments.<name>.packages.<platform>` lists the environment's packages as `- conda: URL`
(a conda package file: its name, version and build are in the URL, as in an explicit spec file)
and `- pypi: URL` (a wheel or sdist pip installs: its name and version are in the file name);
version 3 and earlier list `package:` entries with `platform`, `manager` (conda / pypi) and
`url`. The environment read is `default` (the one `pixi install` and `pixi run` use without
`-e`), else the first; the platform linux-64 (envgen's). The conda packages are read as an
explicit file (envgen.repro.importer.conda_explicit); a pypi package as `name==version` (a
download.pytorch.org wheel keeps its local label, `torch==2.4.0+cu124`, which names its build).
Must not fetch anything: the URLs say what was installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    parse_sdist_filename,
    parse_wheel_filename,
)

from envgen.repro.importer import conda_explicit
from envgen.repro.importer.declared import load_yaml
from envgen.repro.importer.evidence import Evidence
from envgen.repro.importer.requirements import pip_requirement
from envgen.repro.reading import excerpt

PLATFORM: Final = "linux-64"
MAX_PACKAGES: Final = 20_000  # a lock's packages read (a large environment has ~1,000)


def read(text: str, found: Evidence, _base: Path | None) -> None:
    """The default environment's linux-64 packages of a pixi.lock."""
    loaded = load_yaml(text, found)
    if loaded is None:
        return
    data = loaded[1]
    if not isinstance(data, dict) or "version" not in data:
        found.problems.append(f"{found.source}: not a pixi lock (no `version` key)")
        return
    entries = _entries(data, found)
    if entries is None:
        return
    count = text.count("\n") + 1
    lines: dict[str, int] = {}
    for n, raw in enumerate(text.splitlines(), start=1):
        lines.setdefault(raw.strip(), n)
    # each conda URL on the lock's own line (the others blank), read as an explicit file; a
    # format-3 lock writes `url: URL` in each package entry, found so too
    explicit = [""] * count
    for manager, url in entries:
        if manager == "conda":
            at = lines.get(f"- conda: {url}") or lines.get(f"url: {url}")
            if at is not None and not explicit[at - 1]:
                explicit[at - 1] = url
            else:
                explicit.append(url)  # not found on a line of its own: after the lock's lines
    if any(explicit):
        found.torch_manager = found.torch_manager or "conda"
        conda_explicit.read("\n".join(explicit), found, None)
    for manager, url in entries:
        if manager != "pypi":
            continue
        where = f"{found.source}:{lines.get(f'- pypi: {url}') or lines.get(f'url: {url}', 1)}"
        requirement = _pypi_requirement(url)
        if requirement is None:
            found.warnings.append(f"{where}: {excerpt(url)!r} names no released file; left out")
            continue
        pip_requirement(requirement, found, where)


def _entries(data: dict[object, object], found: Evidence) -> list[tuple[str, str]] | None:
    """(manager, url) of each linux-64 package of the environment `pixi install` uses."""
    environments = data.get("environments")
    if isinstance(environments, dict) and environments:
        name = "default" if "default" in environments else next(iter(environments))
        env = environments[name]
        packages = env.get("packages") if isinstance(env, dict) else None
        listed = packages.get(PLATFORM) if isinstance(packages, dict) else None
        if not isinstance(listed, list):
            found.problems.append(
                f"{found.source}: the lock's environment {excerpt(str(name))!r} has no "
                f"{PLATFORM} packages; nothing to reproduce on linux-64"
            )
            return None
        if name != "default":
            found.warnings.append(
                f"{found.source}: no `default` environment; the first, {excerpt(str(name))!r}, "
                "is read"
            )
        return [
            (manager, item[manager])
            for item in listed[:MAX_PACKAGES]
            if isinstance(item, dict)
            for manager in ("conda", "pypi")
            if isinstance(item.get(manager), str)
        ]
    packages = data.get("package")
    if isinstance(packages, list):  # format 3 and earlier: one list, each with its platform
        return [
            (str(p["manager"]), p["url"])
            for p in packages[:MAX_PACKAGES]
            if isinstance(p, dict)
            and p.get("platform") == PLATFORM
            and isinstance(p.get("manager"), str)
            and p["manager"] in {"conda", "pypi"}
            and isinstance(p.get("url"), str)
        ]
    found.problems.append(f"{found.source}: a pixi lock with neither `environments` nor `package`")
    return None


def _pypi_requirement(url: str) -> str | None:
    """`name==version` of a wheel or sdist URL (its local label kept), or None.

    >>> _pypi_requirement("https://download.pytorch.org/whl/cu124/torch-2.4.0%2Bcu124-cp312-cp312-linux_x86_64.whl")
    'torch==2.4.0+cu124'
    >>> _pypi_requirement("https://files.pythonhosted.org/p/t/tensordict-0.5.0.tar.gz")
    'tensordict==0.5.0'
    >>> _pypi_requirement("git+https://github.com/x/y.git"), _pypi_requirement("./local")
    (None, None)
    """
    try:
        name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    except ValueError:  # `http://[abc/...`: no URL
        return None
    try:
        if name.endswith(".whl"):
            project, version, *_ = parse_wheel_filename(name)
        elif name.endswith((".tar.gz", ".zip")):
            project, version = parse_sdist_filename(name)
        else:
            return None
    except (InvalidWheelFilename, InvalidSdistFilename):
        return None
    return f"{project}=={version}"
