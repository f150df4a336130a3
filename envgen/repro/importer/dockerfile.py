"""Dockerfiles: the FROM image (pytorch/pytorch, NGC, nvidia/cuda, python, Ubuntu's python3),
ARG/ENV values substituted into later lines (bounded), COPY/ADD into a build context that -r and
scripts are resolved in, and RUN lines read as shell on their default route.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from envgen.repro import shell
from envgen.repro.importer.evidence import (
    DockerContext,
    Evidence,
    over_budget,
    set_python,
)
from envgen.repro.importer.images import from_image
from envgen.repro.importer.install_script import (
    MAX_ALTERNATIVE_CHARS,
    conda_on_path,
    shell_command,
    shell_line,
)
from envgen.repro.importer.requirements import logical_lines
from envgen.repro.reading import (
    MAX_EXPANDED_CHARS,
    built_from_root,
    excerpt,
    exists,
    inside,
    root_holding,
)

_VAR: Final = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)")

_PYTHON_VARS: Final = re.compile(r"(?i)^(python|python_?version|py_?version|pyver|python_ver)$")


class _TooLong(Exception):  # noqa: N818 - internal signal, never leaves this module
    """A line grew past MAX_EXPANDED_CHARS while its $VARS were substituted."""


def dockerfile_lines(text: str) -> list[tuple[int, str]]:
    r"""Instructions with their backslash continuations joined, as Docker reads them: inside a
    continuation, comment lines are removed and empty lines skipped (a RUN that spans sections
    with `# ---` headers is one command, not a command cut short by a comment). A comment line
    outside an instruction ends at its line, a trailing backslash included (a commented-out RUN
    line `# RUN conda install -y \\` continues nothing).

    >>> dockerfile_lines("RUN a && \\\n# step two\n\n    b\nRUN c\n")
    [(1, 'RUN a &&   b'), (5, 'RUN c')]
    >>> dockerfile_lines("# RUN x \\\nRUN y\n")
    [(1, '# RUN x'), (2, 'RUN y')]
    """
    kept: list[str] = []
    going = False
    for raw in text.splitlines():
        if going and (not raw.strip() or raw.lstrip().startswith("#")):
            kept.append("\\")  # keeps the line numbers; joins on as an empty continuation
            continue
        if raw.lstrip().startswith("#"):
            kept.append(raw.rstrip().rstrip("\\"))
            continue
        kept.append(raw)
        going = raw.rstrip().endswith("\\")
    return logical_lines("\n".join(kept))


def _substitute(text: str, env: dict[str, str]) -> str:
    """Expand $NAME, ${NAME} and ${NAME:-default}, bounded (nested ENV values grow fast).

    Raises:
        _TooLong: the result would pass MAX_EXPANDED_CHARS characters.
    """
    out: list[str] = []
    size = 0
    pos = 0
    for m in _VAR.finditer(text):
        name = m.group(1) or m.group(3)
        value = env.get(name, m.group(2) if m.group(2) is not None else m.group(0))
        for piece in (text[pos : m.start()], value):
            size += len(piece)
            if size > MAX_EXPANDED_CHARS:
                raise _TooLong
            out.append(piece)
        pos = m.end()
    size += len(text) - pos
    if size > MAX_EXPANDED_CHARS:
        raise _TooLong
    out.append(text[pos:])
    return "".join(out)


def _too_long(found: Evidence, where: str) -> None:
    found.warnings.append(
        f"{where}: the line expands to more than {MAX_EXPANDED_CHARS} characters "
        "(nested ARG/ENV/shell variables); line ignored"
    )


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A Dockerfile: its FROM image, ARG/ENV values, COPY'd files and RUN lines. Its build
    context is the folder --context names, else its own folder, or the checkout root above it
    where the file copies from its own folder by name (`docker/Dockerfile.gpu` with `COPY
    ./docker/bin/... /`: `docker build -f docker/Dockerfile.gpu .` from the root), as a script
    in a helper folder runs from the root; only a checkout's root is widened to."""
    context = found.build_context
    root = root_holding(base, found.checkout) if base is not None else None
    if (
        context is None
        and base is not None
        and root is not None
        and found.root is None
        and inside(base, root)  # not through a symlink from elsewhere
    ):
        own = base.resolve().relative_to(root.resolve()).as_posix()
        if _copies_from(text, own) and not exists(base / own):  # not `api/` copying `api/api/`
            context = root
        else:  # `COPY requirements/requirements.txt /tmp/`, a folder only the root has
            context = built_from_root(_copy_sources(text), base, found.checkout)
    env: dict[str, str] = {}
    if base is not None or context is not None:
        # Where a file the build copies is not in the context, the checkout root is tried
        # (`docker/Dockerfile-focal` with `COPY . /opt/nle/` and `pip install '.[all]'`: the
        # project's setup.py lies at the root, which `docker build -f` builds from)
        second = found.root if found.root is not None else root
        found.docker = DockerContext(
            context=(context or base or Path()).resolve(),
            fallback=second.resolve() if second is not None and context is None else None,
        )
    if found.docker is not None:
        found.docker.checkout_as = _checkout_named(text, found.docker.context, found)
    try:
        _dockerfile_lines(text, found, base, env)
    finally:
        found.docker = None
    if found.python is None:
        used = _referenced(text) if found.interpreter_image is not None else None
        for key, value in env.items():
            m = re.match(r"^(\d\.\d+)(\.\d+)?$", value)
            if not (_PYTHON_VARS.match(key) and m):
                continue
            if used is None or key in used:
                set_python(found, value, f"{found.source} (ARG/ENV {key}={excerpt(value)})")
                break


def _arg_env(keyword: str, rest: str, env: dict[str, str], found: Evidence, where: str) -> None:
    """An ARG or ENV line's values (an ARG's from `docker build --build-arg` where given)."""
    try:
        items = shlex.split(rest)
    except ValueError:
        found.warnings.append(f"{where}: unbalanced quotes; line ignored")
        return
    for item in items:
        key, eq, value = item.partition("=")
        if keyword == "ARG" and key in found.build_args:
            env[key] = found.build_args[key]  # `docker build --build-arg KEY=...`
        elif eq:
            env[key] = value
    if keyword == "ENV" and "=" not in rest and len(rest.split()) == 2:
        env[rest.split(maxsplit=1)[0]] = rest.split()[1]
    if keyword == "ENV":
        conda_on_path(env.get("PATH", ""), found)


def _unquoted(word: str) -> str:
    """A word without the quotes around it, as Docker reads a WORKDIR.

    >>> _unquoted('"/UAV_Reach_Avoid"'), _unquoted("/app"), _unquoted("'a b'")
    ('/UAV_Reach_Avoid', '/app', 'a b')
    """
    if len(word) > 1 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


def _referenced(text: str) -> set[str]:
    """The variables a line other than a comment uses (`$KEY`, `${KEY}`, `${KEY:-...}`), in one
    pass: an ARG declared and never used over an image with its own interpreter (`ARG
    PYVERSION="3.6.5"` over a pytorch/pytorch image, its only uses commented out) changes nothing
    in the image, so it names no python; over a bare CUDA image it is the only word of one.

    >>> sorted(_referenced("ARG PY=3.6\\n# RUN conda install python=${PY}\\nRUN pyenv install $V"))
    ['V']
    """
    return {
        m.group(1)
        for line in text.splitlines()
        if not line.lstrip().startswith("#")
        for m in re.finditer(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", line)
    }


def _dockerfile_lines(text: str, found: Evidence, base: Path | None, env: dict[str, str]) -> None:
    lines = iter(dockerfile_lines(text))
    # Build stages: their names (`FROM image AS name`) and the problems each stage's FROM raised.
    # Only the final stage is the image; a later `FROM` that names no earlier stage starts from
    # elsewhere, so an earlier stage's FROM problem (an untagged pytorch/pytorch) is not the
    # image's (https://docs.docker.com/build/building/multi-stage/).
    stages: set[str] = set()
    stage_problems: list[str] = []
    for number, line in lines:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        keyword, _, rest = stripped.partition(" ")
        keyword = keyword.upper()
        where = f"{found.source}:{number}"
        try:
            rest = _substitute(rest.strip(), env)
        except _TooLong:
            _too_long(found, where)
            continue
        if over_budget(found, rest, where):
            return
        if keyword == "FROM":
            stage_problems = _from_line(rest, found, where, stages, stage_problems)
            if found.docker is not None:
                found.docker.made = set()  # a new stage: another image's folders
        elif keyword in ("ARG", "ENV"):
            _arg_env(keyword, rest, env, found, where)
        elif keyword == "WORKDIR" and found.docker is not None and rest:
            # Docker's word processing removes the quotes: `WORKDIR "/app"` is /app
            found.docker.workdir = found.docker.image_path(_unquoted(rest.strip()))
            found.docker.made.add(found.docker.workdir)
        elif keyword in ("COPY", "ADD") and found.docker is not None:
            _docker_copy(rest, found.docker)
        elif keyword == "RUN":
            _run(run_flags(rest), lines, found, base, where, env)
        elif keyword in ("CMD", "ENTRYPOINT"):
            _runs_python(rest, found, where)


def _runs_python(rest: str, found: Evidence, where: str) -> None:
    """`CMD python3.6 server.py` (or the exec form `["python3.6", ...]`): the image's program is
    that python, which names it where nothing else did."""
    try:
        words = json.loads(rest) if rest.startswith("[") else shlex.split(rest)
    except (json.JSONDecodeError, ValueError, RecursionError):
        return
    if not isinstance(words, list) or not words or not isinstance(words[0], str):
        return
    m = re.fullmatch(r"(?:/usr/(?:local/)?bin/)?python(\d\.\d+)", words[0])
    if m is not None and found.python is None:
        set_python(found, m.group(1), f"{where} ({words[0]} runs the image's program)")


def _run(
    rest: str,
    lines: Iterator[tuple[int, str]],
    found: Evidence,
    base: Path | None,
    where: str,
    env: dict[str, str],
) -> None:
    """A RUN instruction (its flags removed): a here-document, the exec form or a shell line.
    A `cd` in it lasts for that RUN only, as each RUN starts in WORKDIR."""
    workdir = found.docker.workdir if found.docker is not None else "/"
    try:
        if found.docker is not None:
            _made_dirs(rest, found.docker)  # `rest` is substituted already
        heredoc = _HEREDOC.match(rest)
        if heredoc is not None:
            # BuildKit's `RUN <<EOT` (a here-document): its body is the shell script.
            body = _heredoc_body(lines, heredoc.group(2))
            if heredoc.group(3) in {"", "bash", "sh", "/bin/bash", "/bin/sh"}:
                try:
                    _run_line(_substitute(body, env), found, base, where, env=env)
                except _TooLong:
                    _too_long(found, where)
            return
        try:  # the exec form; Docker runs anything that is not a JSON array as shell form
            words = json.loads(rest) if rest.startswith("[") else None
        except (json.JSONDecodeError, RecursionError):  # `RUN [[[...`: not an array envgen reads
            words = None
        if isinstance(words, list):
            shell_command([str(w) for w in words], found, base, where, env=env)
        else:  # `if`/`case` in a RUN line: its default route, as for an install script
            _run_line(rest, found, base, where, env=env)
    finally:
        found.folders.clear()  # a pushd the RUN line never popped ends with it too
        if found.docker is not None:
            found.docker.workdir = workdir


def _from_line(
    rest: str, found: Evidence, where: str, stages: set[str], stage_problems: list[str]
) -> list[str]:
    """A FROM line: a new build stage. Returns the problems its image raised."""
    words = [w for w in rest.split() if not w.startswith("--")]
    if not words:
        found.warnings.append(f"{where}: FROM names no image; line ignored")
        return stage_problems
    image = words[0]
    if stage_problems and image.lower() not in stages:
        found.problems[:] = [p for p in found.problems if p not in stage_problems]
        found.warnings.extend(
            f"{p} (an earlier build stage, not the final image: ignored)" for p in stage_problems
        )
    before = len(found.problems)
    from_image(image, found, where)
    if len(words) >= 3 and words[1].upper() == "AS":
        stages.add(words[2].lower())
    return found.problems[before:]


# BuildKit's RUN options (`--mount=type=cache,target=/root/.cache/pip`, `--network=host`,
# `--security=insecure`), which stand before the command.
_RUN_FLAG: Final = re.compile(r"^--(mount|network|security|device)(=\S*)?\s+")
# `RUN <<EOT`, `RUN <<-"EOT" bash`: a here-document, with the program that reads it (or none).
_HEREDOC: Final = re.compile(r"""^<<(-?)["']?(\w+)["']?\s*(\S*)\s*$""")


def run_flags(rest: str) -> str:
    """A RUN instruction's text without BuildKit's options before the command.

    >>> run_flags("--mount=type=cache,target=/root/.cache/pip --network=host pip install torch")
    'pip install torch'
    """
    while (m := _RUN_FLAG.match(rest)) is not None:
        rest = rest[m.end() :]
    return rest


def _heredoc_body(lines: Iterator[tuple[int, str]], delimiter: str) -> str:
    """The here-document's lines up to its delimiter line (consumed from `lines`)."""
    body: list[str] = []
    for _, line in lines:
        if line.strip() == delimiter:
            break
        body.append(line)
    return "\n".join(body)


def _run_line(
    line: str, found: Evidence, base: Path | None, where: str, *, env: dict[str, str]
) -> None:
    """A Dockerfile RUN line (its ARG/ENV values already substituted) on its default route."""
    route = shell.interpret(line, env=env, nvcc=found.nvcc)
    found.nvcc = route.nvcc  # a toolkit one RUN installs is there for the next
    for command in route.commands:
        shell_line(command.text, found, base, where, env=env)
    found.warnings.extend(f"{where}: {note}" for _, note in route.notes)
    found.warnings.extend(
        f"{where}: an alternative route ({alt.branch} of the RUN line), not the default one "
        f"envgen imports: {excerpt(alt.text, MAX_ALTERNATIVE_CHARS)}"
        for alt in route.alternatives
    )


def _copies_from(text: str, folder: str) -> bool:
    """Whether a COPY/ADD line's source starts with `folder/` (its own folder, named from the
    checkout root above it: `docker` or `docker/jupyter`).

    >>> _copies_from("FROM x\\nCOPY ./docker/bin/entry.sh /\\n", "docker")
    True
    >>> _copies_from("FROM x\\nCOPY requirements.txt .\\n", "docker")
    False
    """
    own = re.compile(
        rf"^[ \t]*(?:COPY|ADD)[ \t]+((?:--\S+[ \t]+)*)\.?/?{re.escape(folder)}/",
        re.IGNORECASE | re.MULTILINE,
    )
    return any("--from" not in m.group(1) for m in own.finditer(text))  # not another stage's


_MKDIR: Final = re.compile(r"(?:^|[;&|(]\s*)mkdir((?:\s+[^\s;&|)]+)+)")


def _made_dirs(line: str, docker: DockerContext) -> None:
    """The folders a RUN line's `mkdir` makes (bounded by the line), so a later COPY of a file to
    one of them lands inside it.

    >>> d = DockerContext(context=Path("."))
    >>> _made_dirs("mkdir -p /work/a /data && cd /work", d); sorted(d.made)
    ['/data', '/work', '/work/a']
    """
    for m in _MKDIR.finditer(line):
        for word in m.group(1).split():
            if not word.startswith("-") and "$" not in word:
                made = docker.image_path(word)
                while made not in docker.made and made != "/":
                    docker.made.add(made)  # and its parents: `mkdir -p` makes them, plain
                    made = posixpath.dirname(made)  # mkdir needs them there already


def _docker_copy(rest: str, docker: DockerContext) -> None:
    args = _copy_args(rest)
    if args is not None and len(args) >= 2:
        docker.copy(args[:-1], args[-1])


def _copy_args(rest: str) -> list[str] | None:
    """A COPY/ADD line's sources and destination (its --flags dropped); None where it copies
    from another build stage (not the context) or cannot be read."""
    try:
        words = json.loads(rest) if rest.startswith("[") else shlex.split(rest)
    except (json.JSONDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(words, list):
        return None
    words = [str(w) for w in words]
    if any(w.startswith("--from") for w in words):
        return None  # from another build stage, not the context
    return [w for w in words if not w.startswith("--")]


def _checkout_named(text: str, context: Path, found: Evidence) -> str | None:
    """The folder name COPY lines give the checkout where the image is built from the folder
    above it (`COPY sorani-gec/requirements.txt .`, `COPY sorani-gec/src/ src/` from a
    Dockerfile at the checkout's root): the first folder of most sources, which the context
    lacks, and without which a source is there. Said, as an inference; None otherwise."""
    firsts = [
        parts[0]
        for src in _copy_sources(text)
        if len(parts := src.removeprefix("./").split("/")) > 1 and parts[0] not in {"", ".", ".."}
    ]
    if not firsts:
        return None
    folder = max(sorted(set(firsts)), key=firsts.count)
    if firsts.count(folder) * 2 < len(firsts) or exists(context / folder):
        return None
    rests = [
        src.removeprefix("./")[len(folder) + 1 :]
        for src in _copy_sources(text)
        if src.removeprefix("./").startswith(f"{folder}/")
    ]
    inside_rests = [
        r
        for r in rests
        if r and "*" not in r and ".." not in r.split("/") and not r.startswith("/")
    ]  # never a path out of the context: its existence is none of the import's business
    if not any(exists(context / rest) for rest in inside_rests):
        return None
    found.warnings.append(
        f"{found.source}: its COPY lines name the checkout `{excerpt(folder)}/` (the image is "
        "built from the folder above it); read from the checkout (inferred)"
    )
    return folder


def _copy_sources(text: str) -> list[str]:
    r"""The build-context paths a Dockerfile's COPY/ADD lines copy in.

    >>> _copy_sources("FROM x\nCOPY requirements/r.txt setup.py /tmp/\nCOPY --from=b /a /a\n")
    ['requirements/r.txt', 'setup.py']
    """
    sources: list[str] = []
    for _, line in dockerfile_lines(text):
        keyword, _, rest = line.strip().partition(" ")
        if keyword.upper() in ("COPY", "ADD"):
            args = _copy_args(rest.strip())
            sources += args[:-1] if args is not None else []
    return sources
