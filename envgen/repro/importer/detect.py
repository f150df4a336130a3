"""Which format a file is, and the reader that turns it into evidence.

`detect_kind` decides a file's format from its name, then its content (an ordered decision
table); `READERS` maps each format to its module, whose `read` `reader` returns. A new format
is a new module with a `read(text, found, base)` function, a row in `READERS` and a
`SourceKind`. Nothing here reads the matrix or decides anything about the project
(envgen.repro.importer.resolution does).
"""

from __future__ import annotations

import importlib
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final, cast

from envgen.errors import ImportSpecError
from envgen.repro.importer.conda_explicit import is_explicit
from envgen.repro.importer.conda_list import is_conda_list
from envgen.repro.importer.evidence import Evidence, SourceKind, set_python
from envgen.repro.reading import UnreadableSource, read_source

Reader = Callable[[str, Evidence, Path | None], None]

# One reader module per format (under envgen.repro.importer), imported when a file of that format
# is read: `envgen import environment.yml` loads neither the shell interpreter nor setup.py's
# constant folding (tests/integration/test_startup_imports.py holds the module count).
READERS: Final[dict[SourceKind, str]] = {
    "conda": "conda_env",
    "pip": "requirements",
    "shell": "install_script",
    "batch": "batch",
    "dockerfile": "dockerfile",
    "conda-list": "conda_list",
    "markdown": "readme",
    "setup.py": "setup_py",
    "setup.cfg": "setup_cfg",
    "pyproject": "pyproject",
    "pylock": "pylock",
    "uv-lock": "uv_lock",
    "pipfile": "pipfile",
    "conda-explicit": "conda_explicit",
    "ci": "ci",
    "tox": "tox",
    "pixi": "pixi",
    "pixi-lock": "pixi_lock",
    "poetry-lock": "poetry_lock",
    "singularity": "singularity",
    "makefile": "install_script:read_makefile",
    "compose": "compose",
}


def reader(kind: SourceKind) -> Reader:
    """The `read(text, found, base)` of a format's module (`module:function` where it has
    another name): (text, the evidence it adds to, the folder includes are relative to)."""
    name, _, function = READERS[kind].partition(":")
    module = importlib.import_module(f"envgen.repro.importer.{name}")
    return cast("Reader", getattr(module, function or "read"))


# File names that are CI configuration whatever they hold (read by the `ci` reader).
CI_NAMES: Final = frozenset(
    {".travis.yml", ".travis.yaml", ".gitlab-ci.yml", ".gitlab-ci.yaml", "azure-pipelines.yml",
     "azure-pipelines.yaml", "bitbucket-pipelines.yml"}
)  # fmt: skip
# Top-level keys only CI files have (a conda environment has name, channels, dependencies).
_CI_KEYS: Final = re.compile(
    r"(?m)^(jobs|before_install|before_script|language|stages|steps|pipelines|workflows"
    r"|trigger|pool)\s*:"
)


def is_ci(filename: str, text: str) -> bool:
    """A CI configuration: a CI file name, or YAML with CI's top-level keys and no conda
    `dependencies:` (a GitHub workflow may have any name).

    >>> is_ci(".travis.yml", ""), is_ci("test.yml", "on: push\\njobs:\\n  t:\\n    steps: []\\n")
    (True, True)
    >>> is_ci("environment.yml", "name: x\\ndependencies:\\n  - pytorch\\n")
    False
    """
    if filename.lower() in CI_NAMES:
        return True
    return re.search(r"(?m)^dependencies\s*:", text) is None and _CI_KEYS.search(text) is not None


def is_pylock_name(filename: str) -> bool:
    """PEP 751's file names: `pylock.toml` and `pylock.<name>.toml`.

    >>> is_pylock_name("pylock.toml"), is_pylock_name("pylock.gpu.toml"), is_pylock_name("x.toml")
    (True, True, False)
    """
    return re.fullmatch(r"pylock(\.[^.]+)?\.toml", filename.lower()) is not None


# A Singularity / Apptainer definition file's first line that is not blank or a comment: its
# `Bootstrap:` header with one of Apptainer's bootstrap agents (apptainer.org, "Definition
# Files": the header must come first; keys are case-insensitive). Possessive, so a file of blank
# and comment lines is one linear scan.
_DEFINITION_START: Final = re.compile(
    r"(?:[ \t]*+(?:#[^\n]*+)?\r?\n)*+[ \t]*+bootstrap[ \t]*+:[ \t]*+"
    r"(docker|docker-daemon|docker-archive|oci|oci-archive|library|shub|oras|localimage|yum"
    r"|zypper|debootstrap|arch|busybox|scratch|ipfs)[ \t]*+(#[^\n]*+)?(\r?\n|$)",
    re.IGNORECASE,
)


def is_definition(text: str) -> bool:
    """A Singularity / Apptainer definition file: it opens with a `Bootstrap:` header.

    >>> is_definition("# built on the cluster\\nBootstrap: docker\\nFrom: ubuntu:20.04\\n")
    True
    >>> is_definition("EXPORTS\\n    PyInit_spam\\n")  # a module-definition .def file
    False
    """
    return _DEFINITION_START.match(text) is not None


def is_definition_name(filename: str) -> bool:
    """Singularity's recipe names, `Singularity` and `Singularity.<tag>` (Singularity Hub's
    convention); detect_kind asks after the names other formats own (`Singularity.md`).

    >>> is_definition_name("Singularity"), is_definition_name("Singularity.gpu-cu101")
    (True, True)
    """
    return re.fullmatch(r"singularity(\.[\w.-]+)?", filename.lower()) is not None


def is_setup_script(text: str) -> bool:
    """Python source that imports setuptools' (or distutils') setup and calls it.

    >>> is_setup_script("from setuptools import setup\\nsetup(install_requires=['torch'])")
    True
    >>> is_setup_script("import torch\\nprint(torch.__version__)")
    False
    """
    # One anchored match a line (not a multiline search, whose `^\s*` and `[^\n]*` would
    # rescan the rest of the file from every line: quadratic on a file of blank lines)
    imports = any(
        re.match(
            r"[ \t]*+(from[ \t]++(setuptools|distutils\.core)[ \t]++import\s.*\bsetup\b|"
            r"import[ \t]++setuptools\b)",
            line,
        )
        for line in text.splitlines()
    )
    return imports and re.search(r"\bsetup\s*+\(", text) is not None


def detect_kind(filename: str, text: str) -> SourceKind:  # noqa: PLR0911, PLR0912 - a decision table: one return per file kind
    """Guess what a file is from its name, then its content.

    >>> detect_kind("environment.yml", ""), detect_kind("Dockerfile.gpu", "")
    ('conda', 'dockerfile')
    >>> detect_kind("environment.yml", "# platform: linux-64\\npytorch=1.7.1=py3.8_0\\n")
    'conda-list'
    >>> detect_kind("requirements.txt", "name: x\\ndependencies:\\n  - pytorch=1.4.0\\n")
    'conda'
    """
    low = filename.lower()
    if low.startswith("dockerfile") or low.endswith((".dockerfile", ".containerfile")):
        return "dockerfile"
    if is_definition(text):
        return "singularity"  # any name (`*.def`); a `.def` without the header is read on below
    if re.fullmatch(r"(docker-)?compose([.-][\w.-]+)?\.ya?ml", low):
        return "compose"
    if low.endswith((".yml", ".yaml")):
        if re.search(r"(?m)^dependencies\s*:", text) is None:
            # `conda list --export` / `--explicit` output saved as environment.yml: no YAML
            # mapping at all, and `conda env create` refuses it (`conda create --file` reads it)
            if is_explicit(text):
                return "conda-explicit"
            if is_conda_list(text):
                return "conda-list"
        return "ci" if is_ci(low, text) else "conda"
    if low.endswith((".sh", ".bash")) or low in {"install", "setup"}:
        return "shell"
    if low.endswith((".bat", ".cmd")):
        return "batch"
    if low in {"makefile", "gnumakefile"} or low.endswith(".mk"):
        return "makefile"
    if low == "setup.py" or (low.endswith(".py") and is_setup_script(text)):
        return "setup.py"  # a setup script kept under another name (babyai_setup.py)
    if low == "setup.cfg":
        return "setup.cfg"
    if low == "pyproject.toml":
        return "pyproject"
    if low == "pixi.toml":
        return "pixi"
    if low == "pixi.lock":
        return "pixi-lock"
    if is_pylock_name(low):
        return "pylock"
    if low == "uv.lock":
        return "uv-lock"
    if low == "poetry.lock":
        return "poetry-lock"
    if low in {"pipfile", "pipfile.lock"}:
        return "pipfile"
    if low == "tox.ini":
        return "tox"
    if low.endswith((".md", ".markdown", ".rst")) or re.match(
        r"^(readme|install)\.(txt|markdown)$", low
    ):
        # `conda list > Dependencies.md`: the dump under a document's name (from its first
        # line: a README that quotes one further down is still a README)
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
        dump = first.startswith("# packages in environment at") or (
            first.startswith("#") and is_conda_list(first)
        )
        return "conda-list" if dump and is_conda_list(text) else "markdown"
    if is_definition_name(low):
        return "singularity"
    if is_explicit(text):
        return "conda-explicit"
    if is_conda_list(text):
        return "conda-list"
    if low.endswith((".txt", ".in")) or low.startswith("requirements"):
        # a conda environment file saved under a requirements name (`conda env export >
        # requirements.txt`): a `dependencies:` key, which no requirement line can be
        if re.search(r"(?m)^dependencies\s*:", text) and re.search(r"(?m)^\s+-\s", text):
            return "conda"
        return "pip"
    first = next(
        (ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")), ""
    )
    if re.match(r"(?i)^(FROM|ARG)\s", first):
        return "dockerfile"
    if re.search(r"(?m)^dependencies\s*:", text):
        return "conda"
    if re.search(
        r"(?m)\b(pip3?|conda|mamba|micromamba)\s+(install|create)\b", text
    ) or text.startswith("#!"):
        return "shell"
    return "pip"


def parse_file(
    path: Path,
    *,
    root: Path | None = None,
    context: Path | None = None,
    checkout: Path | None = None,
    extras: tuple[str, ...] = (),
) -> Evidence:
    """Read a file (bounded: a regular file of at most 1 MiB) and parse it by its kind.

    `context` is a Dockerfile's build context (default: the Dockerfile's folder); `checkout` the
    repository checkout the file lies in, when it has no .git (default: a folder with a .git).
    """
    try:
        text = read_source(path)
    except UnreadableSource as exc:
        raise ImportSpecError(str(exc)) from None
    return parse_text(
        text,
        filename=path.name,
        base=path.parent,
        root=root,
        context=context,
        tree=path.parent,
        checkout=checkout,
        extras=extras,
    )


def parse_text(
    text: str,
    *,
    filename: str,
    base: Path | None,
    root: Path | None = None,
    context: Path | None = None,
    tree: Path | None = None,
    checkout: Path | None = None,
    extras: tuple[str, ...] = (),
) -> Evidence:
    """The evidence one file gives, read by the reader of its format; `extras`: those a
    project file (pyproject.toml, setup.py, setup.cfg) installs, as `pip install .[extras]`."""
    kind = detect_kind(posixpath.basename(filename), text)
    found = Evidence(
        source=filename,
        kind=kind,
        root=root,
        tree=tree,
        build_context=context,
        checkout=checkout,
        install_extras=extras,
    )
    if base is not None:
        # the imported file itself: a script or `docker build` it leads to does not read it again
        found.scripts.add((base / posixpath.basename(filename)).resolve())
    reader(kind)(text, found, base)
    if found.python is None and found.apt_python is not None:
        set_python(found, *found.apt_python)  # installed, and nothing said which python ran pip
    # a Miniconda's base python is pip's until the file makes an environment of its own
    # (`conda create --name pytorch`, no python named: conda picks one when it installs)
    weak = (found.conda_base if not found.conda_env_used else None) or found.weak_python
    if found.python is None and weak is not None and weak[0]:
        set_python(found, weak[0], weak[1])
    return found


def parse_command_text(command: str, *, source: str) -> Evidence:
    """The evidence of one install command line (`envgen import --command`)."""
    found = Evidence(source=source, kind="shell")
    reader("shell")(command, found, None)
    return found
