"""pip requirements: files read as `pip install -r` reads them (options, -r includes inside
the imported tree, markers evaluated for linux-64), and argument lists of `pip install` as install
scripts run them. Torch-family pins (with their local labels: +cu110) are evidence; wheel URLs of
torch give its version, label and python tag; other wheel URLs wait for the matrix
(`extension_wheels`) to say whether they are a compiled extension's. Any wheel file built for
one CPython (cp37-cp37m, not abi3 or py3-none) names the python the file installs into, even
where the wheel itself is dropped; a `python==3.8` line names the interpreter too.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Final, Literal

from packaging.markers import InvalidMarker, Marker
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion

from envgen.model.extensions import recognise_wheel_url
from envgen.model.matrix import Matrix
from envgen.model.types import TORCH_FAMILY
from envgen.repro import eras
from envgen.repro.importer.evidence import (
    Compute,
    DockerContext,
    Evidence,
    WheelRef,
    make_pin,
    room_for,
    set_companion,
    set_python,
    set_torch,
    source_companion,
)
from envgen.repro.reading import (
    MAX_INCLUDE_DEPTH,
    MAX_PACKAGES,
    MAX_PIP_LINE,
    UnreadableSource,
    credential_file,
    excerpt,
    exists,
    inside,
    is_file,
    read_source,
)
from envgen.repro.text_tools import stage_output
from envgen.repro.wheels import cpython_of, linux_platform

PIP_VALUE_FLAGS: Final = frozenset(
    {
        "-f", "--find-links", "-i", "--index-url", "--extra-index-url", "-r", "--requirement",
        "-c", "--constraint", "-t", "--target", "--prefix", "--root", "--src", "--cache-dir",
        "--timeout", "--retries", "--trusted-host", "--platform", "--python-version",
        "--implementation", "--abi", "--progress-bar", "--log", "-e", "--editable",
    }
)  # fmt: skip


def logical_lines(text: str) -> list[tuple[int, str]]:
    """Join backslash continuations; return (first line number, text)."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not buf:
            start = number
        stripped = raw.rstrip()
        if stripped.endswith("\\"):
            buf.append(stripped[:-1])
            continue
        buf.append(stripped)
        out.append((start, " ".join(part.strip() for part in buf)))
        buf = []
    if buf:
        out.append((start, " ".join(part.strip() for part in buf)))
    return out


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A requirements file (pip -r), following its -r includes inside the imported tree."""
    parse_requirements(text, found, base, seen=set())


def parse_requirements(text: str, found: Evidence, base: Path | None, *, seen: set[Path]) -> None:
    for number, line in logical_lines(text):
        body = re.sub(r"(^|\s)#.*$", "", line).strip()
        if body:
            pip_line(body, found, base, f"{found.source}:{number}", seen=seen)


def pip_line(line: str, found: Evidence, base: Path | None, where: str, *, seen: set[Path]) -> None:
    line = re.sub(r"(^|\s)#.*$", "", line).strip()
    if not line:
        return
    if len(line) > MAX_PIP_LINE:  # shlex is quadratic in a word's length: 1 MB took 30 s
        found.warnings.append(f"{where}: a line of more than {MAX_PIP_LINE} characters; ignored")
        return
    if line.startswith("-"):
        try:
            tokens = shlex.split(line)
        except ValueError:
            tokens = line.split()
        _pip_options(tokens, found, base, where, seen=seen)
        return
    if _COMMAND_LINE.match(line):
        # `conda install pytorch cudatoolkit=10.0 -c pytorch` or `pip install x y` kept in a
        # requirements file: a command, not a requirement (pip -r refuses it); read as installer
        # scripts run such a file, one command a line.
        from envgen.repro.importer.install_script import shell_line  # noqa: PLC0415 - cycle

        found.warnings.append(
            f"{where}: {excerpt(line)!r} is an install command, not a requirement (pip -r "
            "refuses it); read as the command it is"
        )
        shell_line(line, found, base, where, env={})
        return
    if _install_line(line, found, base, where):
        return
    # A requirement line (markers keep their quotes): drop per-requirement options (--hash=...).
    requirement, _, options = line.partition(" --")
    option = options.split("=", 1)[0].split(" ", 1)[0]
    if options and option not in {"hash", "config-settings", "global-option"}:
        found.warnings.append(
            f"{where}: pip rejects --{excerpt(option)} on a requirement line (only --hash, "
            "--config-settings and --global-option are allowed there); the option is ignored"
        )
    pip_requirement(requirement.strip(), found, where)


def _install_line(line: str, found: Evidence, base: Path | None, where: str) -> bool:
    """A line holding several requirements or an install option, as installer scripts feed a
    file's lines to `pip install <line>` (`torch==X torchvision==Y --index-url ...`): read as
    those arguments. False for a line pip -r reads as one requirement (`torch >= 1.7`)."""
    if ";" in line or "@" in line or not any(c.isspace() for c in line.strip()):
        return False  # markers, direct references and one word: one requirement
    from envgen.repro import shell  # noqa: PLC0415 - ~10 ms of patterns: only for such a line

    words = shell.shell_words(line)
    requirements: list[str] = []
    options: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        flag = word.split("=", 1)[0]
        if word.startswith("-"):
            options.append(flag)
            i += 2 if flag in PIP_VALUE_FLAGS and "=" not in word else 1
            continue
        requirements.append(word)
        i += 1
    if not all(_requirement_word(w) for w in requirements):
        return False  # `torch >= 1.7`: one requirement written with spaces
    if len(requirements) < 2 and all(o in _PER_REQUIREMENT for o in options):
        return False
    found.warnings.append(
        f"{where}: {excerpt(line)!r} holds more than one requirement or an install option, "
        "which pip -r refuses; read as `pip install <line>`, as installer scripts run it"
    )
    pip_install(words, found, base, where)
    return True


# A line that is a package manager's install command (`pip install ...`, `python -m pip install`,
# `conda install ...`), not a requirement: no project is named pip, conda or mamba with words after.
_COMMAND_LINE: Final = re.compile(
    r"^(?:(?:sudo\s+)?(?:pip[23]?(?:\.\d+)?|python[23]?(?:\.\d+)?\s+-m\s+pip|conda|mamba|micromamba)"
    r"\s+install)\s"
)
_PER_REQUIREMENT: Final = frozenset({"--hash", "--config-settings", "--global-option"})


def _requirement_word(word: str) -> bool:
    """One word that is a whole requirement (`torch==1.7.1+cu110`, `numpy`), not a fragment."""
    if re.fullmatch(r"[<>=!~,.*\d]+", word):
        return False  # `>=`, `1.7`: part of a spaced requirement
    try:
        Requirement(word)
    except InvalidRequirement:
        return False
    return True


def _pip_options(
    tokens: list[str], found: Evidence, base: Path | None, where: str, *, seen: set[Path]
) -> None:
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        flag, eq, value = tok.partition("=")
        if not eq and tok in PIP_VALUE_FLAGS and i + 1 < len(tokens):
            value = tokens[i + 1]
            i += 1
        elif not eq:
            flag = tok
            if len(tok) > 2 and tok[:2] in ("-f", "-i", "-r", "-c") and not tok.startswith("--"):
                flag, value = tok[:2], tok[2:]
        i += 1
        if flag in ("-f", "--find-links"):
            found.indexes.append(("find-links", value))
        elif flag in ("-i", "--index-url"):
            found.indexes.append(("index-url", value))
        elif flag == "--extra-index-url":
            found.indexes.append(("extra-index-url", value))
        elif flag in ("-r", "--requirement"):
            _include(value, found, base, where, seen=seen)
        elif flag in ("-e", "--editable"):
            from envgen.repro.importer.install_script import editable_project  # noqa: PLC0415 - cycle

            if not editable_project(value, found, base, where):  # `-e .`: the project itself
                found.warnings.append(
                    f"{where}: editable install {excerpt(value)!r} is not a package envgen can "
                    "lock; ignored"
                )
        elif flag in ("-c", "--constraint"):
            found.warnings.append(
                f"{where}: constraints file {excerpt(value)!r} is not followed; pin what matters "
                "in project.yaml"
            )


def pip_install(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    i = 0
    while i < len(args):
        tok = args[i]
        if tok.startswith("-"):
            flag = tok.split("=", 1)[0]
            takes_value = flag in PIP_VALUE_FLAGS and "=" not in tok and i + 1 < len(args)
            option = [tok, args[i + 1]] if takes_value else [tok]
            _pip_options(option, found, base, where, seen=set())
            i += 2 if takes_value else 1
            continue
        pip_requirement(tok, found, where)
        i += 1


def _include(name: str, found: Evidence, base: Path | None, where: str, *, seen: set[Path]) -> None:
    include_file(name, found, base, where, seen=seen)


def include_file(
    name: str,
    found: Evidence,
    base: Path | None,
    where: str,
    *,
    seen: set[Path],
    flag: str = "-r",
    parse: Callable[[str, Evidence, Path], None] | None = None,
    optional: bool = False,
) -> bool:
    """Follow a file an install names (`pip install -r NAME`, `conda install --file NAME`), where
    the import may read it, and read it with `parse` (default: as a requirements file). True
    when it was read; an `optional` file that is not there is passed over without a word (the
    setup.py a `pip install .` may or may not find beside a pyproject.toml). A file not read is
    counted (Evidence.includes_missed): what it names is unknown."""
    read = _include_file(
        name, found, base, where, seen=seen, flag=flag, parse=parse, optional=optional
    )
    if not read:
        found.includes_missed += 1
    return read


def _include_file(  # noqa: PLR0911, PLR0912 - one return per reason an include is not followed
    name: str,
    found: Evidence,
    base: Path | None,
    where: str,
    *,
    seen: set[Path],
    flag: str = "-r",
    parse: Callable[[str, Evidence, Path], None] | None = None,
    optional: bool = False,
) -> bool:
    shown = excerpt(name)
    if "\\" in name and "/" not in name:
        name = name.replace("\\", "/")  # a batch file's `.\requirements.txt`: a Windows path
    made = _made_by_command(name, found, f"{where}: {flag} {shown}")
    if made is not None:
        return made
    if base is None:
        found.warnings.append(
            f"{where}: {flag} {shown}: included files can only be followed when importing a file; "
            "not followed"
        )
        return False
    if found.include_depth >= MAX_INCLUDE_DEPTH:
        found.warnings.append(
            f"{where}: {flag} {shown}: the -r chain is more than {MAX_INCLUDE_DEPTH} files deep; "
            "not followed"
        )
        return False
    path = base / name
    if found.cwd is not None and found.include_depth == found.cwd_depth:
        path = found.cwd / name  # the script's `cd` entered a folder of the checkout
    clone = found.own_clone
    if clone and found.docker is None and name.startswith(f"{clone}/") and not exists(path):
        # `git clone .../paper` then `pip install -r paper/requirements.txt`: the clone is the
        # repository the README documents, the checkout the import reads
        name = name[len(clone) + 1 :]
        path = base / name
    root = found.run_from or found.fallback_root
    if (
        root is not None
        and found.include_depth == 0
        and not exists(path)
        and not Path(name).is_absolute()
    ):
        path = root / name  # run from the checkout root (a helper folder's script), or found there
    if (
        found.script_cwd is not None
        and found.include_depth == found.script_depth
        and not exists(path)
        and not Path(name).is_absolute()
    ):
        path = found.script_cwd / name  # a script run by another file, from the caller's folder
    if found.docker is not None and found.include_depth == 0:
        path = found.docker.resolve(name)
        fallback = found.docker.fallback
        # the checkout root stands in for a context that lacks what a COPY put there (a file
        # import: `docker/Dockerfile-focal`'s `COPY . /opt/nle/`); a repository import tries it
        # for any file, as before
        if (
            not exists(path)
            and fallback is not None
            and (found.root is not None or found.docker.copied(name))
        ):
            moved = DockerContext(
                context=fallback,
                workdir=found.docker.workdir,
                files=found.docker.files,
                dirs=found.docker.dirs,
            )
            if exists(moved.resolve(name)) and inside(moved.resolve(name), fallback):
                path, found.docker = moved.resolve(name), moved
        if not inside(path, found.docker.context):
            found.warnings.append(
                f"{where}: {flag} {shown}: outside the build context {found.docker.context}; "
                "not followed"
            )
            return False
        if not exists(path):
            if optional:
                return False
            found.warnings.append(
                f"{where}: {flag} {shown}: {path} is not in the build context "
                f"{found.docker.context} (pass --context DIR if the image is built from "
                "another folder); not followed"
            )
            return False
    if found.root is not None and not inside(path, found.root):
        found.warnings.append(
            f"{where}: {flag} {shown}: outside the imported folder {found.root}; not followed"
        )
        return False
    if (
        found.docker is not None
        and found.include_depth > 0
        and (Path(name).is_absolute() or not inside(path, found.docker.context))
    ):
        # a file an included file names (`-r ../.ssh/id_rsa` inside the COPY'd requirements):
        # still inside the build context, at every depth, as the image's own copy would be
        found.warnings.append(
            f"{where}: {flag} {shown}: outside the build context {found.docker.context}; "
            "not followed"
        )
        return False
    # issue 21 item 4: `envgen import FILE` reads only the file's own tree; a line of a file
    # outside it (/etc/passwd, ../secrets.txt) is never read, so never echoed.
    if (
        found.docker is None
        and found.root is None
        and found.tree is not None
        and (Path(name).is_absolute() or not inside(path, found.tree))
    ):
        what = "an absolute path" if Path(name).is_absolute() else "outside the file's folder"
        found.warnings.append(
            f"{where}: {flag} {shown}: {what}; not followed (an import reads only files inside "
            "the imported file's folder)"
        )
        return False
    if optional and not is_file(path):
        return False
    resolved = path.resolve()
    if credential_file(path) or credential_file(resolved):
        found.warnings.append(
            f"{where}: {flag} {shown}: a dotfile or credentials file, not a list of packages; "
            "not followed (an import never reads one)"
        )
        return False
    if resolved in seen:
        return False
    seen.add(resolved)
    text = _read_included(path, shown, found, f"{where}: {flag}", name=name)
    if text is None:
        return False
    saved = found.source
    found.source = name if len(name) <= 200 else shown
    found.include_depth += 1
    try:
        if parse is None:
            parse_requirements(text, found, resolved.parent, seen=seen)
        else:
            parse(text, found, resolved.parent)
    finally:
        found.include_depth -= 1
        found.source = saved
    return True


# Files read from their source and Makefiles run, per import: each may name more of them.
MAX_REPLAYS: Final = 32


# `sed -i` run on an included file: its characters times the edits, and its longest line (sed's
# pattern is Python's re on each line: short lines keep a backtracking pattern cheap).
_MAX_SED_WORK: Final = 1024 * 1024
_MAX_SED_LINE: Final = 512


def _made_by_command(name: str, found: Evidence, said: str) -> bool | None:
    """A file the script wrote from the project's own (`poetry export -o requirements.txt`):
    what it was made from, read in its place (not a file of the checkout of that name, if one is
    there); None where no command wrote it."""
    key = posixpath.normpath(name.removeprefix("./"))
    made = found.generated.pop(key, None)  # out while it is read: a file made from itself
    if made is None:
        return None
    at, replay = made
    if found.replays >= MAX_REPLAYS or found.include_depth >= MAX_INCLUDE_DEPTH:
        found.generated[key] = made
        found.warnings.append(
            f"{said}: written by {at}, from files written in turn past what one import follows "
            f"({MAX_REPLAYS} such reads, {MAX_INCLUDE_DEPTH} deep); not followed"
        )
        return False
    found.replays += 1
    found.warnings.append(f"{said}: written by {at}; read from what it was made from")
    found.include_depth += 1
    try:
        return replay(found)
    finally:
        found.include_depth -= 1
        found.generated[key] = made


def _edited(text: str, name: str, path: Path, found: Evidence, said: str) -> str:
    """An included file as the script's earlier `sed -i` commands left it (install_script
    records them by the file's resolved `path` where the script's folder was known, else by the
    name they gave): each applied to every line, in order; where one is not a sed envgen runs,
    the file as committed, said."""
    edits = found.edits.get(str(path)) or found.edits.get(
        posixpath.normpath(name.removeprefix("./"))
    )
    if not edits:
        return text
    if len(text) * len(edits) > _MAX_SED_WORK or any(
        len(line) > _MAX_SED_LINE for line in text.split("\n")
    ):
        found.warnings.append(
            f"{said}: edited with sed by the script, but the file is past what envgen runs sed "
            f"on ({_MAX_SED_WORK // 1024} KiB of lines times edits, lines of "
            f"{_MAX_SED_LINE} characters); read as committed"
        )
        return text
    for script, at in edits:
        lines = text.split("\n")
        changed = [stage_output(["sed", script], ln) if script else None for ln in lines]
        if any(line is None for line in changed):
            found.warnings.append(
                f"{said}: {at} edits it with a sed envgen does not run; read as committed"
            )
            return text
        edited = "\n".join(line for line in changed if line is not None)
        if edited != text:
            found.warnings.append(
                f"{said}: read as {at}'s `sed -i {excerpt(script or '')}` left it"
            )
        text = edited
    return text


def _read_included(
    path: Path, shown: str, found: Evidence, said: str, *, name: str | None = None
) -> str | None:
    """The text of an included file (as the script's `sed -i` left the `name` it gave), or
    None (said why): unreadable, or past what one import's includes may hold in all."""
    if found.included_bytes > MAX_INCLUDED_BYTES:
        found.warnings.append(
            f"{said} {shown}: the files included so far hold more than "
            f"{MAX_INCLUDED_BYTES // (1024 * 1024)} MiB; not followed"
        )
        return None
    try:
        text = read_source(path, shown=shown)
    except UnreadableSource as exc:
        found.warnings.append(f"{said} {exc}; not followed")
        return None
    found.included_bytes += len(text)
    if name is None:
        return text
    try:
        place = path.resolve()
    except (OSError, RuntimeError):  # a symlink loop: the edits kept by name apply
        place = path
    return _edited(text, name, place, found, f"{said} {shown}")


def _direct_url(text: str, url: str, found: Evidence, where: str) -> None:
    """A requirement from a URL: torchvision's or torchaudio's own repository names that
    package; anything else is dropped, with a word, its name kept for what it requires."""
    if not source_companion(url, found, where):
        found.warnings.append(
            f"{where}: dropped {excerpt(text)!r}: a direct URL cannot be locked reproducibly; "
            "add a released version to pip:"
        )
        name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*@", text)
        if name is not None and len(found.url_packages) < _MAX_URL_PACKAGES:
            found.url_packages.append(name.group(1))
        if len(found.direct_urls) < _MAX_URL_PACKAGES:
            found.direct_urls.append((url, where))


# What the files one import includes may hold in all (`pip install -r r.txt` a thousand times
# over a 1 MiB file): each is bounded by MAX_SOURCE_BYTES, their sum by this.
MAX_INCLUDED_BYTES: Final = 16 * 1024 * 1024
_MAX_URL_PACKAGES: Final = 64  # URL requirements whose names are kept, per import


def pip_requirement(text: str, found: Evidence, where: str, *, defer: bool = True) -> None:  # noqa: PLR0911 - one return per requirement-line form, in the order they are tried
    wheel = _wheel_requirement(text) or _marked_family_wheel(text, found, where)
    if wheel == "ignored":
        return
    if wheel is not None:
        _family_wheel(wheel, text.split(";", 1)[0].strip(), found, where)
        return
    _wheel_tag_python(text, found, where)
    url = _wheel_url(text) if defer and len(found.wheels) < MAX_PACKAGES else None
    if url is not None:
        # Perhaps a compiled extension's wheel: build_project asks the matrix (extension_wheels).
        found.wheels.append(WheelRef(text=text, url=url, where=where, slot=len(found.pip_reqs)))
        return
    if re.match(r"^[A-Za-z0-9_.-]+\s*@\s*file:", text):
        found.warnings.append(
            f"{where}: dropped {excerpt(text)!r}: a local build with no version (pip freeze "
            "lists packages conda installed this way); pin a released version in pip: if the "
            "paper needs it"
        )
        return
    if (
        "://" in text
        and not text.split("#", maxsplit=1)[0].endswith(".whl")
        and "@" not in text.split("://", maxsplit=1)[0]
    ):
        _direct_url(text, text, found, where)
        return
    text = _conda_spelled(_local_wheel_file(text, found, where), found, where)
    try:
        req = Requirement(text)
    except InvalidRequirement as exc:
        found.warnings.append(
            f"{where}: {excerpt(text)!r} is not a requirement ({excerpt(str(exc))}); ignored"
        )
        return
    name = str(canonicalize_name(req.name))
    if _not_a_package(name, req, text, found, where):
        return
    if req.marker is not None and not _marker_on_linux(req.marker, found.python):
        found.warnings.append(
            f"{where}: {excerpt(text)!r} does not apply on linux-64 "
            f"(marker {excerpt(str(req.marker))}); ignored"
        )
        return
    if name in TORCH_FAMILY:
        if req.url:
            found.problems.append(
                f"{where}: {req.name} from a URL that is not a wheel file name: pin a version "
                "instead"
            )
            return
        version, label, ranged = _pip_version(str(req.specifier))
        arbitrary = str(req.specifier).strip().startswith("===")
        _family(found, name, version, ranged, label, where, arbitrary=arbitrary)
        return
    if name in {"pip", "setuptools", "wheel"} and not req.specifier:
        return  # `pip install --upgrade pip`: the installer, not a dependency of the paper
    if name.startswith("nvidia-") or name in {"triton", "pytorch-triton"}:
        found.warnings.append(
            f"{where}: dropped {req.name} (a dependency of torch: the lock pins the matching one)"
        )
        return
    if req.url:
        _direct_url(text, req.url, found, where)
        return
    req.marker = None if req.marker is not None and _marker_always_linux(req.marker) else req.marker
    if name in found.seen_pip:
        found.warnings.append(f"{where}: {req.name} is listed again; the first one is kept")
        return
    if room_for(found, found.pip_reqs, "pip", where):
        found.seen_pip.add(name)
        found.pip_reqs.append(str(req))


# A torch-family package pinned with conda's single `=` on a pip line (`torchvision=0.5.0`).
_SINGLE_EQUALS: Final = re.compile(r"(?i)^(torch|torchvision|torchaudio)=(\d+(?:\.\d+)*)$")


def _local_wheel_file(text: str, found: Evidence, where: str) -> str:
    """`pip install vllm-0.8.5+cu118-cp38-abi3-manylinux1_x86_64.whl`, a wheel file the user
    downloaded (no URL, not in the checkout): the release its name states, `vllm==0.8.5`, whose
    requirements PyPI's wheel of that release states too; the file itself is not locked (its
    local label is the publisher's build, which PyPI does not serve)."""
    name = text.strip()
    if "://" in name or "/" in name or "\\" in name or not name.endswith(".whl") or " " in name:
        return text  # a path: a wheel the project or the script built, or a vendored one
    if found.tree is not None and exists(found.tree / name):
        return text  # the checkout's own file
    try:
        project, version, _, _ = parse_wheel_filename(name)
    except InvalidWheelFilename:
        return text
    if canonicalize_name(project) in TORCH_FAMILY:
        return text
    found.warnings.append(
        f"{where}: {excerpt(text)!r} is a wheel file the file does not say where to get; read "
        f"as {project}=={version.public}, the release its name states (from PyPI)"
    )
    return f"{project}=={version.public}"


def _conda_spelled(text: str, found: Evidence, where: str) -> str:
    """`torchvision=0.5.0` (conda's spelling of a pin) on a pip line: pip rejects it (Invalid
    requirement, and with it the whole command or -r file); the release the line means is read,
    as a freeze's other failing lines are graded on what they pin."""
    single = _SINGLE_EQUALS.match(text.strip())
    if single is None:
        return text
    found.warnings.append(
        f"{where}: {excerpt(text)!r} is not a pip requirement (pip says Invalid requirement and "
        f"installs nothing of the command or file); read as {single.group(1)}=="
        f"{single.group(2)}, the release it names: fix the line"
    )
    return f"{single.group(1)}=={single.group(2)}"


def _wheel_tag_python(text: str, found: Evidence, where: str) -> None:
    """Any wheel file built for one CPython (cp37-cp37m) names the interpreter the file installs
    into, whether or not envgen can keep the wheel itself. Not a freeze's `name @ file:///...whl`
    record of a local build (conda's build folders): the file does not install it, it lists
    what was there. Nor a wheel for another platform (win_amd64, macosx: not what a linux-64
    install reads), nor one behind a marker that does not hold on linux-64 or that picks it by
    python (`; python_version == '3.6'`: one wheel per python names none)."""
    tagged = None if "file:" in text else wheel_file_python(text)
    marker = _wheel_marker(text)
    if marker is not None and (
        re.search(r"\bpython_(full_)?version\b", str(marker))
        or not _marker_on_linux(marker, found.python)
    ):
        return
    if tagged is not None and not found.python_by_branch:
        set_python(found, tagged, f"{where} (wheel tag)")


def _not_a_package(name: str, req: Requirement, text: str, found: Evidence, where: str) -> bool:
    """A requirement line that names no PyPI package: read (a python pin) or dropped."""
    if name == "python":
        # `python==3.8` in a requirements file names the interpreter: PyPI has no such package.
        exact, _, _ = _pip_version(str(req.specifier))
        if exact is not None:
            set_python(found, exact, f"{where} (a python== line)")
        else:
            found.warnings.append(
                f"{where}: dropped {excerpt(text)!r}: python is the interpreter, not a package "
                "pip installs"
            )
        return True
    if name == "pkg-resources" and str(req.specifier) == "==0.0.0":
        # Debian's and Ubuntu's patched pip lists its own vendored pkg_resources in a virtual
        # environment's `pip freeze` (https://bugs.launchpad.net/ubuntu/+source/python-pip/+bug/1635463);
        # PyPI has no such project, so the line can never install (LeBenchmark/NeurIPS2021's freeze)
        found.warnings.append(
            f"{where}: dropped {excerpt(text)!r}: not a package but a line Debian's and Ubuntu's "
            "pip adds to `pip freeze` in a virtual environment (Launchpad bug 1635463); PyPI has "
            "no such project"
        )
        return True
    return False


def _family_wheel(
    wheel: tuple[str, str, str | None, str | None], text: str, found: Evidence, where: str
) -> None:
    """A torch-family wheel file: its version, local label, python tag and (before local
    labels) the folder that named its build."""
    wheel_name, wheel_version, wheel_label, py = wheel
    if py and not found.python_by_branch:
        set_python(found, py, f"{where} (wheel tag)")
    folder = eras.WHEEL_FOLDER.search(text)
    if wheel_label is None and folder is not None and wheel_name == "torch":
        # Before local labels (0.x, 1.0-1.3), the folder named the build: whl/cu80/.
        found.compute.append(
            Compute(folder.group(1), f"the wheel URL's folder whl/{folder.group(1)}/")
        )
    _family(found, wheel_name, wheel_version, "", wheel_label, where)
    if wheel_name == "torch" and found.torch is not None and found.torch.where == where:
        found.torch.wheel = text.split("#", maxsplit=1)[0].rsplit("/", 1)[-1]


def _marked_family_wheel(
    text: str, found: Evidence, where: str
) -> tuple[str, str, str | None, str | None] | Literal["ignored"] | None:
    """A torch-family wheel with an environment marker ("URL; python_version == '2.7'"): read
    where the marker holds on linux-64 (with the file's python), else "ignored" (warned)."""
    marker = _wheel_marker(text)
    if marker is None:
        return None
    wheel = _wheel_requirement(text.split(";", 1)[0].strip())
    if wheel is not None and not _marker_on_linux(marker, found.python):
        found.warnings.append(
            f"{where}: {excerpt(text)!r} does not apply on linux-64 "
            f"(marker {excerpt(str(marker))}); ignored"
        )
        return "ignored"
    return wheel


def _family(
    found: Evidence,
    name: str,
    version: str | None,
    ranged: str,
    label: str | None,
    where: str,
    *,
    arbitrary: bool = False,
) -> None:
    if name == "torch":
        set_torch(found, "pip", version, ranged, where=where, label=label, arbitrary=arbitrary)
    else:
        set_companion(found, name, make_pin(version, ranged, label, where))


def wheel_file_python(text: str) -> str | None:
    """The CPython a wheel file (a URL, `name @ URL` or a local file name) is built for, where
    its tags name exactly one CPython ABI (cp311-cp311, cp37-cp37m); None for abi3, pure and
    multi-python wheels, and for text that is no wheel file.

    >>> wheel_file_python("https://example.org/ray-2.0.0-cp37-cp37m-manylinux2014_x86_64.whl")
    '3.7'
    >>> wheel_file_python("flash_attn-2.7.4+cu12torch2.6-cp311-cp311-linux_x86_64.whl")
    '3.11'
    >>> wheel_file_python("flashinfer_python-0.2.2+cu124torch2.6-cp38-abi3-linux_x86_64.whl")
    >>> wheel_file_python("pkg-1.0-py3-none-any.whl")
    >>> wheel_file_python("https://x/a-1.0-cp37-cp37m-win_amd64.whl")
    """
    body = text.split(";", 1)[0].strip()
    if "@" in body and "://" in body.split("@", 1)[1]:
        body = body.split("@", 1)[1].strip()
    if " " in body:
        return None
    filename = body.split("#")[0].rsplit("/", 1)[-1].replace("%2B", "+").replace("%2b", "+")
    if not filename.endswith(".whl"):
        return None
    try:
        _, _, _, tags = parse_wheel_filename(filename)
    except (InvalidWheelFilename, InvalidVersion):
        return None
    if not any(linux_platform(tag.platform) for tag in tags):
        return None  # a Windows or macOS wheel: not what a linux-64 install reads
    if any(not tag.abi.startswith("cp") for tag in tags):
        return None  # abi3 or pure: more than one python
    pythons = {cpython_of(tag.interpreter) for tag in tags}
    return pythons.pop() if len(pythons) == 1 else None  # {None} for a non-CPython tag


def _wheel_url(text: str) -> str | None:
    """The URL of a direct wheel requirement (a bare URL or `name @ URL`, markers allowed)."""
    body = text.split(";", 1)[0].strip()
    name, at, rest = body.partition("@")
    url = rest.strip() if at and "://" in rest and "://" not in name else body
    if re.match(r"^https?://\S+\.whl(#\S*)?$", url) is None:
        return None
    return url


def _wheel_marker(text: str) -> Marker | None:
    _, semi, rest = text.partition(";")
    if not semi:
        return None
    try:
        return Marker(rest.strip())
    except InvalidMarker:
        return None


def extension_wheels(found: Evidence, matrix: Matrix) -> None:
    """Each recognised extension wheel URL becomes its extension pinned to the wheel's version.

    The wheel's page (and python tag) is kept as evidence for the variant; any other wheel URL
    is read as before the matrix was asked (dropped, with a warning; its python tag, read by
    `pip_requirement`, still names the python).
    """
    inserts: list[tuple[int, str]] = []
    listed = {str(canonicalize_name(Requirement(r).name)) for r in found.pip_reqs}
    for wheel in found.wheels:
        hit = recognise_wheel_url(matrix, wheel.url)
        if hit is None:
            pip_requirement(wheel.text, found, wheel.where, defer=False)
            continue
        requirement = hit.requirement
        marker = _wheel_marker(wheel.text)
        if marker is not None and not _marker_on_linux(marker, found.python):
            found.warnings.append(
                f"{wheel.where}: {excerpt(wheel.text)!r} does not apply on linux-64 "
                f"(marker {excerpt(str(marker))}); ignored"
            )
            continue
        if marker is not None and not _marker_always_linux(marker):
            requirement = f"{requirement}; {marker}"
        name = requirement.split("==", 1)[0]
        if name in listed:
            found.warnings.append(
                f"{wheel.where}: dropped the {name} wheel URL {excerpt(wheel.url)!r}: the file "
                f"also lists {name}, which is kept"
            )
            continue
        if not room_for(found, [*found.pip_reqs, *(r for _, r in inserts)], "pip", wheel.where):
            continue
        found.seen_pip.add(name)
        listed.add(name)
        inserts.append((wheel.slot, requirement))
        found.wheel_pages.append(("wheel", hit.page))
        if hit.python:
            set_python(found, hit.python, f"{wheel.where} (wheel tag)")
        page = "page" if hit.form == "find-links" else "wheel URL"
        source = "find-links page" if hit.form == "find-links" else "release wheel URL"
        found.warnings.append(
            f"{wheel.where}: {excerpt(wheel.url)!r} was a direct wheel URL, now {requirement} "
            f"from its {source}, because envgen writes the {page} per variant"
        )
    # Last first, so that each slot still counts the requirements read before it.
    for slot, requirement in reversed(inserts):
        found.pip_reqs.insert(slot, requirement)
    found.wheels.clear()


def _wheel_requirement(text: str) -> tuple[str, str, str | None, str | None] | None:
    """`torch @ https://.../torch-1.7.1+cu110-cp38-cp38-linux_x86_64.whl` (or the bare URL, or a
    wheel file the script downloaded first: `pip install torch-2.1.2+cu121-cp310-...whl`)."""
    url = text.split("@", 1)[1].strip() if "@" in text and "://" in text.split("@", 1)[1] else text
    local = "://" not in url and re.fullmatch(r"[\w./+%-]+\.whl", url) is not None
    if not (local or "://" in url) or not url.split("#")[0].endswith(".whl"):
        return None
    filename = url.split("#")[0].rsplit("/", 1)[-1].replace("%2B", "+").replace("%2b", "+")
    try:
        name, version, _, tags = parse_wheel_filename(filename)
    except (InvalidWheelFilename, InvalidVersion):
        return _untagged_wheel(url, filename)
    if name not in TORCH_FAMILY:
        return None
    py = None
    for tag in tags:
        m = re.match(r"^cp(\d)(\d+)$", tag.interpreter)
        if m:
            py = f"{m.group(1)}.{m.group(2)}"
    return name, version.public, version.local, py


# A torch-family wheel on download.pytorch.org whose tags a shell substitution wrote (they are
# empty once the substitution, unknown here, is left out): `torch-1.2.0-$(python -c "...
# get_supported()[0]...")-manylinux1_x86_64.whl` is `torch-1.2.0--manylinux1_x86_64.whl`.
_UNTAGGED: Final = re.compile(
    r"(torch|torchvision|torchaudio)-(\d+(?:\.\d+)*(?:\.post\d+)?)(?:\+([0-9A-Za-z.]+))?-"
    r"(?:-|[^-]*-?)(?:manylinux\w*|linux)_x86_64\.whl"
)


def _untagged_wheel(url: str, filename: str) -> tuple[str, str, str | None, None] | None:
    """A torch-family wheel whose python and ABI tags are computed by the script (the
    interpreter's own): the URL still names the release, its label and its folder's build, so
    it is that release's wheel for whatever python runs it (no python is read from it).

    >>> _untagged_wheel("https://download.pytorch.org/whl/cu100/x",
    ...                 "torch-1.2.0--manylinux1_x86_64.whl")
    ('torch', '1.2.0', None, None)
    >>> _untagged_wheel("https://example.org/whl/x", "torch-1.2.0--manylinux1_x86_64.whl")
    """
    if "download.pytorch.org/whl/" not in url:
        return None
    m = _UNTAGGED.fullmatch(filename)
    return None if m is None else (m.group(1), m.group(2), m.group(3), None)


def _pip_version(spec: str) -> tuple[str | None, str | None, str]:
    """(exact public version, local label, range text) of a pip specifier."""
    if not spec:
        return None, None, ""
    m = re.fullmatch(r"===?\s*([0-9][0-9A-Za-z.]*)(?:\+([0-9A-Za-z.]+))?", spec.strip())
    if m and "*" not in spec:
        return m.group(1), m.group(2), ""
    return None, None, spec


def _marker_on_linux(marker: Marker, python: str | None) -> bool:
    from envgen.model.targets import load_targets  # noqa: PLC0415 - only for a marker

    env = load_targets().markers("linux-64")  # matrices/targets.yaml
    if python:
        env |= {"python_version": python, "python_full_version": python + ".0"}
    try:
        return marker.evaluate(env)
    except Exception:  # an undefined marker variable means: keep it
        return True


def _marker_always_linux(marker: Marker) -> bool:
    """A marker that only says "on linux" is dropped (project.yaml's platforms say that)."""
    return (
        re.fullmatch(r"(sys_platform|platform_system) == \"(linux|Linux)\"", str(marker))
        is not None
    )
