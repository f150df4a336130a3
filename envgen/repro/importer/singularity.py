"""Singularity / Apptainer definition files (`Singularity`, `Singularity.<tag>`, `*.def`): the
final stage's base image, its %files, and its %post read as shell on its default route.

The format as Apptainer's own parser reads it (apptainer/apptainer
pkg/build/types/parser/deffile.go; apptainer.org's "Definition Files"): a file is one or more
stages, each starting at a `Bootstrap:` line (case-insensitive, at the start of a line). A stage
is a header (`Key: value` lines up to the first section; keys case-insensitive, `#` starts a
comment, a trailing backslash continues the value) and sections, each starting at a line whose
first word begins with `%` (`%post`, `%environment`, `%files [from <stage>]`, `%appinstall
<app>`, ...); a section named twice is appended to. `{{ NAME }}` takes its default from an
`%arguments` section (`NAME=value`, Apptainer 1.2's build arguments), in the From: header, %files
and the build scripts; bounded as the Dockerfile reader bounds its ARG/ENV expansion (a line past
MAX_EXPANDED_CHARS is ignored, and past MAX_EXPANDED_TOTAL in all the rest is not substituted).

What counts, as the build runs it: only the last stage is the image. The docker agents'
`From:` (with `Registry:` / `Namespace:`) is a Docker image, read as a Dockerfile's FROM image
(pytorch/pytorch, NGC, nvidia/cuda, python, Ubuntu's python3); %files put files where %post's
`pip install -r` finds them (copied before %post runs); %post, then each %appinstall, is a /bin/sh
script. %environment is sourced when the container runs, never during %post, so its variables do
not reach %post's commands: a conda `bin` on its PATH only says the container's python is that
conda's, as a Dockerfile's `ENV PATH` does. An earlier stage is read only when the final stage
copies files from it (`%files from <stage>`), and then only its %post and %appinstall: its base
image is not the final one. %setup (on the host), %test, %runscript, %startscript, %labels and
%help install nothing.
"""

from __future__ import annotations

import itertools
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from envgen.repro.importer.evidence import DockerContext, Evidence
from envgen.repro.importer.images import from_image
from envgen.repro.importer.install_script import conda_on_path, parse_shell
from envgen.repro.reading import (
    MAX_EXPANDED_CHARS,
    MAX_EXPANDED_TOTAL,
    built_from_root,
    excerpt,
)

# Where a stage starts (Apptainer splits a multi-stage file on this, deffile.go `All`).
_BOOTSTRAP: Final = re.compile(r"(?i)bootstrap[ \t]*:")
# Bootstrap agents whose `From:` names a Docker image reference (docker-daemon: the local
# daemon's image of that name and tag).
_DOCKER_AGENTS: Final = frozenset({"docker", "docker-daemon"})
# `{{ NAME }}`: a build argument (Apptainer 1.2+), its default given in %arguments.
_ARGUMENT: Final = re.compile(r"\{\{\s*(\w+)\s*\}\}")
# A `PATH=...` assignment in %environment (`export PATH=...`, `PATH="..."`).
_PATH_SET: Final = re.compile(r"""^[ \t]*(?:export[ \t]+)?PATH=["']?([^"'\n]*)""", re.MULTILINE)
_MAX_NAMED_STAGES: Final = 5  # skipped stages named in the warning; the rest are counted
# Sections whose body is a build-time shell script that can install software, in the order the
# build runs them.
_BUILD_SCRIPTS: Final = ("post", "appinstall")


@dataclass(frozen=True, slots=True)
class Section:
    """One `%name args` section: its body starts on line `line + 1` of the file."""

    name: str  # lower case, without the `%`
    args: str
    line: int
    body: list[str]


@dataclass(slots=True)
class Stage:
    """One build stage: its header keys (lower case) with their line, and its sections."""

    line: int
    header: dict[str, tuple[str, int]] = field(default_factory=dict)
    sections: list[Section] = field(default_factory=list)

    def value(self, key: str) -> str:
        return self.header.get(key, ("", 0))[0]

    @property
    def name(self) -> str:
        return self.value("stage")


def is_section_line(line: str) -> bool:
    """A line that starts a section: its first word begins with `%` (deffile.go).

    >>> is_section_line("%post -c /bin/bash"), is_section_line("  %files from build")
    (True, True)
    >>> is_section_line("echo %post")
    False
    """
    return line.lstrip().startswith("%")


def stages(text: str) -> list[Stage]:
    """The file's stages, as Apptainer splits and parses them.

    >>> [(s.value("from"), s.name) for s in stages("Bootstrap: docker\\nFrom: a\\nStage: one\\n"
    ...     "%post\\n  true\\nBootstrap: docker\\nFrom: b\\n")]
    [('a', 'one'), ('b', '')]
    """
    lines = text.splitlines()
    starts = {0} | {n for n, line in enumerate(lines) if _BOOTSTRAP.match(line)}
    out: list[Stage] = []
    for begin, end in itertools.pairwise([*sorted(starts), len(lines)]):
        stage = _stage(lines, begin, end)
        if stage.header or stage.sections:
            out.append(stage)
    return out


def _stage(lines: list[str], begin: int, end: int) -> Stage:
    stage = Stage(line=begin + 1)
    number = begin
    key, value, continued = "", "", False
    while number < end and not is_section_line(lines[number]):
        line = lines[number].strip()
        number += 1
        if not line or line.startswith("#"):
            continued = False
            continue
        line = line.split("#", 1)[0].strip()  # a comment after a header value
        if continued:
            value += line
        else:
            key, colon, value = line.partition(":")
            if not colon:
                continue  # Apptainer refuses a header line without a key; nothing to read here
            key, value = key.strip().lower(), value.strip()
        continued = value.endswith("\\")
        value = value.removesuffix("\\")
        stage.header[key] = (value.strip(), number)
    section: Section | None = None
    for index in range(number, end):
        line = lines[index]
        if is_section_line(line):
            word, _, args = line.strip().partition(" ")
            section = Section(word.lstrip("%").lower(), args.strip(), index + 1, [])
            stage.sections.append(section)
        elif section is not None:
            section.body.append(line)
    return stage


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A definition file: the final stage's image, %files, %post (and %appinstall) and the PATH
    its %environment sets; an earlier stage's scripts only where the final stage copies from it."""
    parsed = stages(text)
    if not parsed:
        found.warnings.append(f"{found.source}: an empty definition file; nothing to read")
        return
    arguments = _arguments(parsed)
    final = parsed[-1]
    copied = {name.lower() for s in final.sections if (name := _copied_from(s))}
    skipped: list[str] = []
    for number, stage in enumerate(parsed[:-1], start=1):
        label = stage.name or str(number)
        where = f"{found.source}:{stage.line}"
        if label.lower() in copied:
            found.warnings.append(
                f"{where}: build stage {excerpt(label)} is not the final image, but the final "
                "stage copies files from it: its %post is read (the installs may be what is "
                "copied), its base image is not"
            )
            _scripts(stage, found, base, arguments)
        else:
            skipped.append(f"{where} ({excerpt(label)}, From: {excerpt(stage.value('from'))})")
    if skipped:
        named = "; ".join(skipped[:_MAX_NAMED_STAGES])
        more = len(skipped) - _MAX_NAMED_STAGES
        found.warnings.append(
            f"build stage {named}{f' and {more} more' if more > 0 else ''}: not the final image, "
            "and the final stage copies nothing from it; not read"
        )
    _base_image(final, found, arguments)
    context = found.build_context or base  # %files sources: the folder the build runs in
    if found.build_context is None and base is not None and found.root is None:
        context = _build_folder(final, base, found)
    if context is not None:
        found.docker = DockerContext(
            context=context.resolve(),
            fallback=(
                found.root.resolve()
                if found.root is not None and found.build_context is None
                else None
            ),
        )
        for section in final.sections:
            if section.name == "files" and not _copied_from(section):
                _files(section, found, found.docker, arguments)
    try:
        _scripts(final, found, base, arguments)
    finally:
        found.docker = None
    _environment(final, found)


def _build_folder(final: Stage, base: Path, found: Evidence) -> Path:
    """The folder `apptainer build` runs in: the definition's own, unless its %files sources
    are not there but are under the checkout root above it (`singularity/pytorch.def` copying
    `./docker/Pipfile`: built from the root, as a helper folder's script runs). Only a checkout's
    root is widened to."""
    sources = [
        line.split()[0]
        for section in final.sections
        if section.name == "files" and not _copied_from(section)
        for line in section.body
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return built_from_root(sources, base, found.checkout) or base


def _copied_from(section: Section) -> str:
    """The stage a `%files from <stage>` section copies from ("" for the host's files).

    >>> _copied_from(Section("files", "from build", 1, []))
    'build'
    >>> _copied_from(Section("files", "", 1, []))
    ''
    """
    words = section.args.split()
    return words[1] if section.name == "files" and len(words) >= 2 and words[0] == "from" else ""


@dataclass(slots=True)
class Arguments:
    """The `{{ NAME }}` build arguments' defaults, and the characters substitution made so far."""

    values: dict[str, str]
    used: int = 0  # characters of the lines that named an argument, after substitution
    full: bool = False  # past MAX_EXPANDED_TOTAL: nothing more is substituted

    def substitute(self, text: str, found: Evidence, where: str) -> str | None:
        """`text` with its `{{ NAME }}` defaults substituted; None (with a warning) where the
        line would pass MAX_EXPANDED_CHARS or the file's lines MAX_EXPANDED_TOTAL in all.

        >>> found = Evidence(source="Singularity", kind="singularity")
        >>> args = Arguments({"A": "x" * 10_000})
        >>> args.substitute("a {{ A }} {{ B }}", found, "Singularity:1")[-9:]
        'x {{ B }}'
        >>> args.substitute("{{A}} {{A}}", found, "Singularity:2") is None
        True
        >>> found.warnings[0][:60]
        'Singularity:2: the line expands to more than 16384 character'
        """
        if "{{" not in text:
            return text
        if self.full:
            return None
        out: list[str] = []
        size = pos = 0
        for m in _ARGUMENT.finditer(text):
            for piece in (text[pos : m.start()], self.values.get(m.group(1), m.group(0))):
                size += len(piece)
                if size > MAX_EXPANDED_CHARS:
                    break
                out.append(piece)
            pos = m.end()
            if size > MAX_EXPANDED_CHARS:
                break
        size += len(text) - pos
        self.used += size  # a refused line spends its bound too: few warnings, then none
        if self.used > MAX_EXPANDED_TOTAL:
            self.full = True
            found.warnings.append(
                f"{where}: the file's lines expand to more than {MAX_EXPANDED_TOTAL} characters "
                "in all ({{ NAME }} build arguments); the rest is not substituted and those "
                "lines are not read"
            )
            return None
        if size > MAX_EXPANDED_CHARS:
            found.warnings.append(
                f"{where}: the line expands to more than {MAX_EXPANDED_CHARS} characters "
                "({{ NAME }} build arguments); line ignored"
            )
            return None
        out.append(text[pos:])
        return "".join(out)


def _arguments(parsed: list[Stage]) -> Arguments:
    """The defaults of `{{ NAME }}` build arguments: `NAME=value` lines of %arguments."""
    values: dict[str, str] = {}
    for stage in parsed:
        for section in stage.sections:
            if section.name != "arguments":
                continue
            for line in section.body:
                name, eq, value = line.split("#", 1)[0].partition("=")
                if eq and name.strip().isidentifier():
                    values.setdefault(name.strip(), value.strip().strip("\"'"))
    return Arguments(values)


def _base_image(stage: Stage, found: Evidence, arguments: Arguments) -> None:
    """The final stage's base image: a docker agent's `From:` is read as a Dockerfile's FROM."""
    agent = stage.value("bootstrap").lower()
    where = f"{found.source}:{stage.header.get('from', ('', stage.line))[1]}"
    image = arguments.substitute(stage.value("from"), found, where) or ""
    if not agent:
        found.warnings.append(
            f"{found.source}:{stage.line}: the final stage has no Bootstrap header, so its base "
            "image is unknown"
        )
    elif agent in _DOCKER_AGENTS and image:
        # The docker agent's reference: [Registry/][Namespace/]From (Namespace and Registry are
        # optional header keys; docker:// is the transport, not part of the name).
        image = image.removeprefix("docker://")
        namespace = stage.value("namespace").strip("/")
        registry = stage.value("registry").strip("/")
        if namespace:
            image = f"{namespace}/{image}"
        if registry:
            image = f"{registry}/{image}"
        if _ARGUMENT.search(image):
            found.warnings.append(
                f"{where}: From: {excerpt(image)} names a build argument with no default in "
                "%arguments; the base image is unknown"
            )
            return
        from_image(image, found, where)
    elif agent == "library" and (os_image := _library_os(image)) is not None:
        found.warnings.append(
            f"{where}: Bootstrap: library From: {excerpt(image)}: the library's default "
            f"collection image of that operating system, read as Docker's {os_image} (the same "
            "release: its distro python)"
        )
        from_image(os_image, found, where)
    elif image:
        found.warnings.append(
            f"{where}: Bootstrap: {excerpt(agent)} From: {excerpt(image)}: not a Docker image "
            "reference, so its torch, CUDA and python are unknown to envgen (a local image is "
            "a file built elsewhere); pin them in %post"
        )


# Operating systems the Sylabs/Apptainer library's default collection holds under their own
# name (library://library/default/ubuntu:18.04, which `From: ubuntu:18.04` names).
_LIBRARY_OS: Final = frozenset(
    {"ubuntu", "debian", "centos", "alpine", "busybox", "fedora", "rockylinux", "almalinux"}
)


def _library_os(image: str) -> str | None:
    """The Docker reference of a library agent's operating system image, else None.

    >>> _library_os("ubuntu:18.04"), _library_os("library://library/default/debian:10")
    ('ubuntu:18.04', 'debian:10')
    >>> _library_os("sylabs/examples/lolcow:latest")
    """
    name = image.removeprefix("library://").removeprefix("library/").removeprefix("default/")
    repository, _, tag = name.partition(":")
    return name if repository in _LIBRARY_OS and tag else None


_PWD: Final = re.compile(r"^\$(?:PWD|\{PWD\})/+")


def _files(section: Section, found: Evidence, docker: DockerContext, arguments: Arguments) -> None:
    """%files lines `<source> [<destination>]` (destination defaults to the source), their
    `{{ NAME }}` build arguments substituted."""
    for number, line in enumerate(section.body, start=section.line + 1):
        stripped = (arguments.substitute(line, found, f"{found.source}:{number}") or "").strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            words = shlex.split(stripped, comments=True)
        except ValueError:
            continue
        if words:
            # `$PWD/requirements.txt`: the folder `apptainer build` runs in (the sources are
            # copied with the builder's shell), which is the build context
            source = _PWD.sub("", words[0])
            docker.copy([source], words[1] if len(words) > 1 else source)


def _scripts(stage: Stage, found: Evidence, base: Path | None, arguments: Arguments) -> None:
    """The stage's %post sections (appended, as the build appends them), then each app's
    %appinstall: shell scripts on their default route, each line keeping its number."""
    scripts: dict[str, list[Section]] = {"post": []}
    for section in stage.sections:
        if section.name in _BUILD_SCRIPTS:
            key = section.name if section.name == "post" else f"appinstall {section.args}"
            scripts.setdefault(key, []).append(section)
    for sections in scripts.values():
        if not sections:
            continue
        first = sections[0].line  # the script's line 1 is the line after it
        placed = [""] * (sections[-1].line + len(sections[-1].body) - first)
        for section in sections:
            for offset, line in enumerate(section.body, start=section.line - first):
                where = f"{found.source}:{first + offset + 1}"
                placed[offset] = arguments.substitute(line, found, where) or ""
        parse_shell("\n".join(placed) + "\n", found, base, env={}, offset=first)


def _environment(stage: Stage, found: Evidence) -> None:
    """%environment's PATH: a conda `bin` on it makes the installed conda's python the one the
    container runs (the Dockerfile reader's rule for `ENV PATH`)."""
    body = "\n".join(
        line for section in stage.sections if section.name == "environment" for line in section.body
    )
    for m in _PATH_SET.finditer(body):
        conda_on_path(m.group(1), found)
