"""conda environment files (environment.yml) and conda match specs (also those of `conda install`
lines): pytorch and its companions, python, the CUDA packages that select a build (cudatoolkit,
pytorch-cuda, cpuonly, cudaXY), build strings, channels and the other dependencies.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

import yaml

from envgen.infra.safe_yaml import YamlBombError, load_bounded
from envgen.repro import eras
from envgen.repro.importer.declared import one_minor
from envgen.repro.importer.evidence import (
    Compute,
    Evidence,
    Pin,
    channel_name,
    cuda_id,
    is_version,
    major_minor,
    make_pin,
    room_for,
    set_companion,
    set_python,
    set_torch,
)
from envgen.repro.importer.requirements import pip_line
from envgen.repro.reading import excerpt

# conda packages envgen sets itself from the matrix: never copied into conda.dependencies.
_CONDA_OWNED: Final = frozenset(
    {
        "python", "pytorch", "pytorch-cpu", "pytorch-gpu", "torchvision", "torchaudio",
        "cudatoolkit", "cuda-toolkit", "pytorch-cuda", "cpuonly", "pip", "pytorch-mutex",
        "cuda-version", "cudnn", "cuda90", "cuda92", "cuda100", "torchvision-cpu",
    }
)  # fmt: skip


_CUDA_IN_BUILD: Final = re.compile(r"cuda(\d+)\.?(\d+)")

_PY_IN_BUILD: Final = re.compile(r"^py(\d)\.?(\d+)")


# How many lines of an environment file YAML cannot read are left out before it is refused, and
# the largest file mended so (each try reads the whole file again).
_MAX_MENDED: Final = 4
# Each mend parses the file again: only a file of the size hand-written exports have (a large
# flow sequence parses for seconds; the red team's 240 KB file took 4 s a parse).
_MAX_MENDED_BYTES: Final = 64 * 1024


def _mendable(lines: list[str], line: int) -> bool:
    """A line that may be left out: one of the file's, not blank, and not the `dependencies:`
    key itself (without it nothing is left to read)."""
    return (
        0 <= line < len(lines)
        and bool(lines[line].strip())
        and not re.match(r"\s*dependencies\s*:", lines[line])
    )


def _load(text: str, found: Evidence) -> tuple[bool, object]:
    """The file's YAML, bounded (a cloned repository's environment.yml may be an alias bomb):
    (read, value). A line YAML cannot read is left out and said, at most _MAX_MENDED of them;
    (False, None) with the problem where the file cannot be read."""
    lines = text.split("\n")
    mended: list[str] = []  # said only once the rest reads
    for attempt in range(_MAX_MENDED + 1):
        try:
            data = load_bounded("\n".join(lines))[1]
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or exc
            line = _bad_line(exc)
            if (
                attempt == _MAX_MENDED
                or len(text) > _MAX_MENDED_BYTES
                or not _mendable(lines, line)
            ):
                found.problems.append(f"{found.source}: not valid YAML: {problem}")
                return False, None
            # A hand-edited export (`prefix: [path/to/anaconda]/envs/x`): conda would refuse
            # the file; the line YAML cannot read is left out, said, and the rest read again.
            mended.append(
                f"{found.source}:{line + 1}: not valid YAML ({problem}): "
                f"{excerpt(lines[line].strip())!r} left out, the rest read"
            )
            lines[line] = ""
            continue
        except YamlBombError as exc:
            found.problems.append(f"{found.source}: refused: {exc}")
            return False, None
        except (ValueError, OverflowError) as exc:  # a scalar that types but cannot build
            found.problems.append(f"{found.source}: not valid YAML: {excerpt(str(exc))}")
            return False, None
        found.warnings.extend(mended)
        return True, data
    return False, None  # not reached: the last attempt returns


def _bad_line(exc: yaml.YAMLError) -> int:
    """The line YAML could not read: where a plain key began (`could not find expected ':'`
    marks the line after it), else where the problem was found; -1 where it says neither."""
    context = getattr(exc, "context_mark", None)
    if "expected ':'" in str(getattr(exc, "problem", "")) and context is not None:
        return int(context.line)
    mark = getattr(exc, "problem_mark", None)
    return int(mark.line) if mark is not None else -1


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A conda environment file (name, channels, dependencies with their pip: list)."""
    read_ok, data = _load(text, found)
    if not read_ok:
        return
    if not isinstance(data, dict):
        found.problems.append(
            f"{found.source}: expected a conda environment (name, channels, dependencies)"
        )
        return
    if isinstance(data.get("name"), str):
        found.name = data["name"]
    start, torch = len(found.pip_reqs), found.torch
    _dependencies(data, found, base)
    if found.torch is not torch and found.torch_manager == "conda":
        # conda installs every conda dependency before it runs pip on the pip: list, whatever
        # the listing order: the whole pip: list is installed after conda's pytorch
        found.torch_slot = min(found.torch_slot, start)


def _dependencies(data: dict[str, Any], found: Evidence, base: Path | None) -> None:
    for ch in data.get("channels") or []:
        if isinstance(ch, str) and ch not in found.channels:
            found.channels.append(ch)
    for i, dep in enumerate(data.get("dependencies") or []):
        where = f"{found.source}: dependencies[{i}]"
        if isinstance(dep, dict) and "pip" in dep:
            pip = dep.get("pip")
            for j, req in enumerate(pip if isinstance(pip, list) else []):
                if isinstance(req, str):
                    pip_line(req, found, base, f"{where}.pip[{j}]", seen=set())
                else:
                    found.warnings.append(
                        f"{where}.pip[{j}]: {excerpt(str(req))!r} is not a requirement; ignored"
                    )
        elif isinstance(dep, str):
            conda_spec(dep, found, where)
        else:
            found.warnings.append(f"{where}: {excerpt(str(dep))!r} is not a package spec; ignored")


# Anaconda's own pytorch builds (defaults / anaconda channels) end in a hash of their variant
# (cuda100py36h938c94c_0, cpu_py38h65a7c8f_0, _pytorch_select selects them); the pytorch channel's
# never do (py3.6_cuda10.0.130_cudnn7.6.2_0, py3.8_cpu_0).
_ANACONDA_BUILD: Final = re.compile(r"(^|_|py\d+)h[0-9a-f]{7}_\d+$")


def _anaconda_build(found: Evidence, spec: str, where: str) -> None:
    """A pytorch build string of Anaconda's: the package came from the defaults channel. Not
    where the file lists conda-forge (whose builds end in a hash too: cpu_mkl_py311_h8dcea03_100)
    or `nodefaults` (conda then never reads defaults)."""
    named = {channel_name(c) for c in found.channels}
    if named & {"defaults", "anaconda", "main", "pytorch", "conda-forge", "nodefaults"}:
        return
    found.channels.append("defaults")
    found.warnings.append(
        f"{where}: {excerpt(spec)} is an Anaconda build (its build string ends in a hash, "
        "unlike the pytorch channel's), so project.yaml takes it from the defaults channel"
    )


# The pytorch channel's own build strings: python, then CUDA and cuDNN or cpu, then the build
# number (py3.7_cuda10.0.130_cudnn7.4.1_1, py36_cuda9.0.176_cudnn7.1.2_1, py3.8_cpu_0); no other
# channel names its pytorch builds so (Anaconda's and conda-forge's end in a hash).
_PYTORCH_CHANNEL_BUILD: Final = re.compile(r"^py\d\.?\d+_(cuda[\d.]+_cudnn[\d.]+|cpu)_\d+$")


def _pytorch_channel_build(found: Evidence, spec: str, where: str) -> None:
    """A pytorch build string of the pytorch channel's, where the file names no channel for it
    (`conda list --export` records none): the package came from -c pytorch."""
    if any(channel_name(c) == "pytorch" for c in found.channels):
        return
    found.channels.insert(0, "pytorch")
    found.warnings.append(
        f"{where}: {excerpt(spec)} is a pytorch channel build (its build string names python, "
        "CUDA and cuDNN, as only that channel's do), so project.yaml takes it from -c pytorch"
    )


def _conda_python(version: str | None, ranged: str, found: Evidence, where: str) -> None:
    """`python >=3.8` is a floor, not the paper's python; `python=3.8` (3.8.*) is a pin, and so
    are `python~=3.10.12` (>=3.10.12, ==3.10.*: a compatible release of three parts) and a range
    that admits one minor (`python>=3.6,<3.7`, as a requires-python does)."""
    compatible = re.fullmatch(r"~=\s*(\d+\.\d+)\.\d+", ranged.strip())
    only = one_minor(ranged) if not version and ranged.startswith((">", "<")) else None
    if compatible is not None:
        set_python(found, compatible.group(1), where)
    elif only is not None:
        set_python(found, only, where)
    elif version or not ranged.startswith((">", "<", "!", "~")):
        set_python(found, version or ranged, where)


def conda_spec(spec: str, found: Evidence, where: str) -> str | None:  # noqa: PLR0912 - one branch per conda spec form, in the order they are tried
    """One conda match spec: `name`, `name=1.7`, `name==1.7.1`, `name=1.7.1=build`, `ch::name`,
    and `namespace:name` (conda's MatchSpec form `channel::namespace:name`; the namespace names
    no channel, and the solver ignores it: `pytorch:pytorch=2.1.*` is pytorch 2.1.*). Returns
    the package's name (lower-case), None for what is no spec."""
    text = spec.strip()
    channel = None
    if "::" in text:
        channel, text = text.split("::", 1)
        reversed_spec = re.fullmatch(r"([A-Za-z0-9_][A-Za-z0-9_.-]*\s*[=<>!~].*)", channel)
        if reversed_spec is not None and re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", text):
            # `pytorch==1.8.0::pytorch`: the spec and the channel swapped (conda reads the
            # channel first, `pytorch::pytorch==1.8.0`; as written it names a channel
            # `pytorch==1.8.0` and fails); read as meant, and said
            found.warnings.append(
                f"{where}: {excerpt(spec)!r} names the channel after the package; conda's form "
                f"is {excerpt(text)}::{excerpt(channel)}, read so"
            )
            channel, text = text, reversed_spec.group(1)
        if channel not in found.channels:
            found.channels.append(channel)
    namespace = re.match(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*:(?=[A-Za-z0-9_])", text)
    if namespace is not None:
        text = text[namespace.end() :]
    match = re.match(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*)\s*(.*)$", text)
    if not match:
        found.warnings.append(f"{where}: {excerpt(spec)!r} is not a conda package spec; ignored")
        return None
    name, rest = match.group(1).lower(), match.group(2).strip()
    version, build, ranged = _conda_version(rest)
    if name in {"pytorch", "pytorch-gpu", "pytorch-cpu"}:
        _torch_spec(name, version, build, ranged, channel, found, where)
    elif name in ("torchvision", "torchaudio", "torchvision-cpu"):
        set_companion(found, name.removesuffix("-cpu"), make_pin(version, ranged, None, where))
        # conda's torchvision depends on conda's pytorch: with no torch named (yet), the torch
        # it brings is conda's (unpinned: the newest its version allows); a torch named later
        # sets its own route.
        found.torch_manager = found.torch_manager or "conda"
        if found.torch is None and found.torch_manager == "conda":
            found.torch = Pin(where=f"{where} (conda's {name} depends on pytorch)")
        if build and "cpu" in build:
            found.compute.append(Compute("cpu", f"{where}: {name} build {build}", "conda"))
        if name == "torchvision-cpu":  # the pytorch channel's CPU torchvision of 2018-2019
            found.compute.append(Compute("cpu", f"{where}: {name}", "conda"))
    elif name == "python":
        _conda_python(version, ranged, found, where)
    elif name == "cpuonly":
        found.cpuonly = True
        found.compute.append(Compute("cpu", "cpuonly", "conda"))
    elif name in ("cudatoolkit", "pytorch-cuda", "cuda-version", "cuda-toolkit"):
        cuda = major_minor(version or ranged.lstrip("=<>!~"))
        series = re.fullmatch(r"=*(\d+)(\.\*)?", (version or ranged).strip())
        if cuda:
            found.compute.append(Compute(cuda_id(cuda), f"{name} {cuda}", "conda"))
        elif series is not None and name == "cuda-version":
            found.cuda_series = series.group(1)  # `cuda-version 12.*`: any CUDA 12 build
    elif eras.cuda_meta(name) is not None:
        # cuda80, cuda90, cuda92, cuda100: the metapackage that selected the CUDA build.
        found.compute.append(Compute(cuda_id(eras.cuda_meta(name) or ""), name, "conda"))
    elif name not in _CONDA_OWNED:
        named = eras.cuda_named(name, version)
        if named is not None:
            # dgl-cuda10.2 depends on cudatoolkit 10.2.*: the solver takes pytorch's CUDA 10.2
            # build beside it (the package itself stays a dependency).
            found.compute.append(
                Compute(cuda_id(named), f"{name} (depends on cudatoolkit {named})", "conda")
            )
            found.warnings.append(
                f"{where}: {name} depends on cudatoolkit {named}, so conda installs the CUDA "
                f"{named} build of pytorch beside it"
            )
        if rest and not rest.startswith(("=", "<", ">", "!", "~")):
            rest = "=" + rest.replace(" ", "=")
        dep = name + rest
        if dep not in found.seen_conda and room_for(found, found.conda_deps, "conda", where):
            found.seen_conda.add(dep)
            found.conda_deps.append(dep)
    return name


def _torch_spec(
    name: str,
    version: str | None,
    build: str | None,
    ranged: str,
    channel: str | None,
    found: Evidence,
    where: str,
) -> None:
    """pytorch, pytorch-gpu or pytorch-cpu: the torch it installs, its build and channel."""
    set_torch(found, "conda", version, ranged, where=where, label=None)
    if build:
        found.comments["torch"] = (
            f"the file's build: {name}={version or ranged}={excerpt(build)} ({excerpt(where)})"
        )
    if name == "pytorch-gpu":
        found.gpu_package = True
    if channel is not None:
        found.torch_channel = channel
    if name == "pytorch-cpu":
        found.compute.append(Compute("cpu", f"{where}: {name}", "conda"))
        found.cpu_package = found.cpu_package or where
    if build:
        _conda_build_string(build, found, where)
    if build and channel is None and _ANACONDA_BUILD.search(build):
        _anaconda_build(found, f"{name}={version or ranged}={build}", where)
    elif build and channel is None and _PYTORCH_CHANNEL_BUILD.match(build):
        _pytorch_channel_build(found, f"{name}={version or ranged}={build}", where)


def _conda_version(rest: str) -> tuple[str | None, str | None, str]:
    """(exact version, build string, range text) of a match spec's tail."""
    rest = rest.strip()
    if not rest:
        return None, None, ""
    if rest.startswith("=="):
        body = rest[2:]
    elif rest.startswith("=") and not rest.startswith("=="):
        body = rest[1:]
    elif re.match(r"^\d", rest):
        body = rest.replace(" ", "=", 1)
    else:
        return None, None, rest
    version, _, build = body.partition("=")
    version = version.strip()
    build_s = build.strip() or None
    if "*" in version or not is_version(version):
        return None, build_s, version
    # `pytorch=1.7` is fuzzy in conda (1.7.*): exact only with three parts.
    if rest.startswith("=") and not rest.startswith("==") and len(version.split(".")) < 3:
        return None, build_s, version
    return version, build_s, ""


def _conda_build_string(build: str, found: Evidence, where: str) -> None:
    py = _PY_IN_BUILD.match(build)
    if py:
        set_python(found, f"{py.group(1)}.{py.group(2)}", f"{where} (build string)")
    cuda = _CUDA_IN_BUILD.search(build)
    if cuda:
        found.compute.append(
            Compute(cuda_id(f"{cuda.group(1)}.{cuda.group(2)}"), f"build string {build}", "conda")
        )
    elif "cpu" in build:
        found.compute.append(Compute("cpu", f"build string {build}", "conda"))
