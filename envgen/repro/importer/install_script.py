"""POSIX shell install scripts (and RUN lines, README blocks, --command) on their default route.

envgen.repro.shell interprets the script (if/case/functions/&&, no arguments, Linux x86_64, an
NVIDIA GPU); each command it runs is read here: pip and conda installs, the python of an
environment it creates (virtualenv -p, python3.9 -m venv, a Miniconda installer), the distro's
python from apt, and scripts it runs (followed inside the imported tree, bounded). The commands
of branches not taken are listed as alternatives. Nothing is executed.
"""

from __future__ import annotations

import contextlib
import copy
import fnmatch
import itertools
import posixpath
import re
import shlex
from collections.abc import Callable, Container
from functools import partial
from pathlib import Path
from typing import Final, Literal

from packaging.version import Version

from envgen.repro import eras, shell
from envgen.repro.base_images import conda_python, installer_name
from envgen.repro.importer import conda_explicit, conda_list, makefile, poetry_lock
from envgen.repro.importer.conda_env import conda_spec
from envgen.repro.importer.conda_env import read as conda_env_read
from envgen.repro.importer.conda_list import is_conda_list
from envgen.repro.importer.declared import TomlUnreadable, load_toml
from envgen.repro.importer.evidence import (
    ENVIRONMENT_FIELDS,
    Evidence,
    Pin,
    forget_pip_route,
    is_pytorch_index,
    is_version,
    over_budget,
    requirement_name,
    run_from_root,
    set_python,
    source_companion,
)
from envgen.repro.importer.images import from_image
from envgen.repro.importer.pipfile import read as pipfile_read
from envgen.repro.importer.pipfile import read_python as pipfile_python
from envgen.repro.importer.pyproject import read as pyproject_read
from envgen.repro.importer.requirements import (
    MAX_REPLAYS,
    PIP_VALUE_FLAGS,
    include_file,
    pip_install,
    pip_requirement,
)
from envgen.repro.reading import (
    MAX_INCLUDE_DEPTH,
    UnreadableSource,
    excerpt,
    exists,
    inside,
    is_dir,
    is_file,
    read_source,
    root_above,
)

MAX_ALTERNATIVE_CHARS: Final = 200  # an alternative install command, quoted in full where short

# `set NAME=value`, `set "NAME=value"`, `export NAME="value"`, `NAME='value'`: one a line.
_ASSIGNMENT: Final = re.compile(
    r"""^\s*(?:@?set\s+"?|export\s+)?([A-Za-z_]\w{0,63})=(["']?)(.{1,4096}?)\2"?\s*$""",
    re.IGNORECASE,
)
_INSTALL_VALUE: Final = re.compile(
    r"^(?:\S*[\\/])?(?:pip[\d.]*|python[\d.]*(?:\.exe)?\s+-m\s+pip|uv\s+pip)\s+install\s|"
    r"^(?:conda|mamba)\s+install\s"
)
# conda's options that take a value (`--override-channels` takes none: the `-c` after it is
# an option of its own).
_CONDA_VALUE_FLAGS: Final = frozenset(
    {"-c", "--channel", "-n", "--name", "-p", "--prefix", "-f", "--file"}
)


def option_at(args: list[str], i: int, takes: Container[str]) -> tuple[str, str | None, int]:
    """The option at `args[i]` as (flag, its value or None, the words it spans): `--name=x` and
    `--name x` alike, where `takes` names the options that take a value; any other word is
    (word, None, 1).

    >>> option_at(["--name=aux"], 0, {"--name"}), option_at(["-n", "main", "x"], 0, {"-n"})
    (('--name', 'aux', 1), ('-n', 'main', 2))
    >>> option_at(["--override-channels", "-c", "pytorch"], 0, {"-c"}), option_at(["-n"], 0, {"-n"})
    (('--override-channels', None, 1), ('-n', None, 1))
    """
    word = args[i]
    flag, eq, value = word.partition("=")
    if eq and flag.startswith("-"):
        return flag, value, 1
    if word in takes and i + 1 < len(args):
        return word, args[i + 1], 2
    return word, None, 1


# Folders that hold a repository's helper scripts, run from the checkout root above them
# (`bash scripts/install.sh`, whose `pip install -r requirements.txt` names the root's file).
_HELPER_FOLDERS: Final = frozenset(
    {"scripts", "script", "tools", "bin", "install", "installation", "setup", "env", "envs",
     # an image's entrypoint: its `cd /app` enters the checkout the container mounts there
     "docker"}
)  # fmt: skip


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A POSIX shell install script, on its default route. A script in a helper folder
    (`scripts/`) runs from the checkout root above it: an include its own folder lacks is looked
    for there, and the import may read that checkout (not beyond it). Only a checkout's root (a
    .git in it) is widened to: a repository cloned as ~/scripts must not open ~/.netrc."""
    run_from_root(found, base, lambda folder: _helper_root(folder, found.checkout))
    # a script in another folder (`src/install_env.sh`) runs where it lies, but what it names
    # and its folder lacks is looked for at the checkout root above it (its `conda env update
    # -f oyster/docker/environment.yml` is a path from the root)
    run_from_root(found, base, lambda folder: root_above(folder, found.checkout), fallback=True)
    if found.source.lower().endswith(".ps1"):
        # PowerShell escapes with a backtick, never a backslash: `.\venv\Scripts\python` is a
        # path, which the POSIX reading below would unescape to `.venvScriptspython`
        text = _powershell_route(text).replace("\\", "/")
    parse_shell(text, found, base, env={"0": found.source})  # $0: the script, run beside it


_PS_TRY: Final = re.compile(r"(?i)^\s*try\s*\{\s*$")
_PS_QUOTED: Final = re.compile(r"\"[^\"]*\"|'[^']*'")
_PS_CATCH: Final = re.compile(r"(?i)^\s*\}?\s*(catch|trap)\b[^{]*\{\s*(#.*)?$")


def _powershell_route(text: str) -> str:
    """A PowerShell script's default route, read as the shell reads the rest of its lines: a
    `try { ... }` block runs, its `catch { ... }` (the error path: `exit 1` when `python
    --version` fails) does not. Their lines are blanked, so line numbers stay the file's.

    >>> _powershell_route("try {\\n  python -V\\n} catch {\\n  exit 1\\n}\\npip install x\\n")
    '\\n  python -V\\n\\n\\n\\npip install x\\n'
    """
    out: list[str] = []
    depth = 0  # the open braces of a catch block being skipped
    for line in text.split("\n"):
        if depth > 0:
            bare = _PS_QUOTED.sub("", line)  # `Write-Host "python {3.8"`: no brace of the code
            depth += bare.count("{") - bare.count("}")
            out.append("")
        elif _PS_TRY.match(line):
            out.append("")
        elif _PS_CATCH.match(line):
            depth = 1
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def _helper_root(folder: Path, checkout: Path | None) -> Path | None:
    """The checkout root above a helper folder (`scripts/`), which its scripts run from."""
    return root_above(folder, checkout) if folder.name.lower() in _HELPER_FOLDERS else None


def parse_shell(
    text: str,
    found: Evidence,
    base: Path | None,
    *,
    env: dict[str, str],
    offset: int = 0,
    script: Literal["sh", "bat"] = "sh",
) -> None:
    """An install script on its default route (envgen.repro.shell): no arguments, Linux x86_64,
    an NVIDIA GPU; the install commands of the branches it does not take are listed."""
    route = shell.interpret(
        text,
        kind=script,
        env=env,
        probe=_checkout_probe(found, base),
        nvcc=found.nvcc,
        sourced=_sourced_files(found, base) if script == "sh" else None,
    )
    found.nvcc = route.nvcc
    found.python_by_branch = found.python_by_branch or _python_by_branch(route)

    def where_of(line: int) -> str:
        return f"{found.source}:{line + offset}" if found.source != "--command" else "--command"

    for command in [*route.commands, *_launcher_commands(text, script)]:
        where = where_of(command.line)
        if over_budget(found, command.text, where):
            break
        if command not in route.commands:
            found.warnings.append(
                f"{where}: {excerpt(command.text)!r} is the value of a variable the script sets "
                "but never expands itself: read as the install command the launcher it starts "
                "runs (as TORCH_COMMAND is in stable-diffusion-webui's webui-user files)"
            )
        shown = {**env, **command.exported} if command.exported else env
        shell_line(command.text, found, base, where, env=shown, batch=script == "bat")
    for line, note in route.notes:
        found.warnings.append(f"{where_of(line) if line else found.source}: {note}")
    for alt in route.alternatives:
        found.warnings.append(
            f"{where_of(alt.line)}: an alternative route ({alt.branch}), not the default one "
            "envgen imports (no arguments, Linux, an NVIDIA GPU): "
            f"{excerpt(alt.text, MAX_ALTERNATIVE_CHARS)}"
        )


# A torch wheel's file name: its version, python tag and platform
# (torch-0.3.1-cp27-cp27mu-linux_x86_64.whl)
_TORCH_WHEEL_TAG: Final = re.compile(r"\btorch-([\w.+%]+?)-(cp\d+)-[\w.]+?-([\w.]+?)\.whl\b")


def _python_by_branch(route: shell.Route) -> bool:
    """The script picks torch's wheel by the python it runs on: the default route and another
    branch install the same torch release's wheels for different pythons (`if python 2.7 ...
    cp27 ... elif 3.6 ... cp36`), so a wheel's tag follows the machine's python and names none.

    >>> wheel = "torch-0.3.1-{0}-{0}m-linux_x86_64.whl"
    >>> r = shell.interpret(f"if [ $(python -V) = 2 ]; then pip install {wheel.format('cp35')};"
    ...                     f" else pip install {wheel.format('cp36')}; fi", env={})
    >>> _python_by_branch(r)
    True
    """
    other: dict[tuple[str, str], set[str]] = {}
    for alt in route.alternatives:
        for m in _TORCH_WHEEL_TAG.finditer(alt.text):
            other.setdefault((m.group(1), m.group(3)), set()).add(m.group(2))
    return any(
        other.get((m.group(1), m.group(3)), set()) - {m.group(2)}
        for command in route.commands
        for m in _TORCH_WHEEL_TAG.finditer(command.text)
    )


def _checkout_probe(found: Evidence, base: Path | None) -> Callable[[str, str], bool | None] | None:
    """A file test's answer on the default route, a fresh clone: a relative path in the folder
    the script starts in (a helper folder's script: the checkout root) holds where the
    repository has it. None (not known) outside what the import may read, and in an image."""
    folders = _checkout_folders(found, base)
    if folders is None:
        return None
    start, fence = folders

    def probe(test: str, name: str) -> bool | None:
        path = start / name.replace("\\", "/")
        if not exists(path) and found.fallback_root is not None and not name.startswith("/"):
            path = found.fallback_root / name.replace("\\", "/")  # as its includes are found
        if not inside(path, fence):
            return None
        return is_dir(path) if test == "-d" else is_file(path) if test == "-f" else exists(path)

    return probe


def _checkout_folders(found: Evidence, base: Path | None) -> tuple[Path, Path] | None:
    """(the folder a script starts in, the folder the import may read) for what a script asks
    of the checkout (a file test, a sourced file); None in an image or with no checkout."""
    if base is None or found.docker is not None or found.in_image:
        return None
    return working_folder(found, base), found.root or found.tree or base


def _sourced_files(found: Evidence, base: Path | None) -> Callable[[str], str | None] | None:
    """The text of a file a script sources (`source env.sh`, `. ./config`): a relative path in
    the folder the script starts in, inside what the import may read (bounded as every source);
    None elsewhere (`~/.bashrc`, conda's activate, an image's files: the command stays)."""
    folders = _checkout_folders(found, base)
    if folders is None:
        return None
    start, fence = folders

    def read(name: str) -> str | None:
        if name.startswith(("/", "~", "-")) or "$" in name:
            return None
        path = start / name
        if not inside(path, fence) or not is_file(path):
            return None
        try:
            return read_source(path, shown=name)
        except UnreadableSource:
            return None

    return read


def _launcher_commands(text: str, script: Literal["sh", "bat"]) -> list[shell.Command]:
    """Install commands a script hands to the launcher it starts, in a variable it never expands
    itself (`set TORCH_COMMAND=pip install torch==2.1.2 ...` then `call webui.bat`): the
    launcher runs them. Bounded by the script's own lines (MAX_SOURCE_BYTES)."""
    out: list[shell.Command] = []
    used: set[str] | None = None  # every name the script expands, found in one pass when needed
    for number, line in enumerate(text.splitlines(), start=1):
        m = _ASSIGNMENT.match(line)
        if m is None or not _INSTALL_VALUE.match(m.group(3)):
            continue
        if used is None:
            used = _expanded_names(text, script)
        name = m.group(1).upper() if script == "bat" else m.group(1)
        if name not in used:
            out.append(shell.Command(text=m.group(3), line=number))
    return out


def _expanded_names(text: str, script: Literal["sh", "bat"]) -> set[str]:
    """The variables a script expands: `%NAME%` / `!NAME!` in batch (any case), `$NAME` /
    `${NAME}` / `${NAME:-x}` in shell.

    >>> sorted(_expanded_names("echo %Torch_Cmd% !X!", "bat"))
    ['TORCH_CMD', 'X']
    >>> sorted(_expanded_names("$A ${B:-1}", "sh"))
    ['A', 'B']
    """
    if script == "bat":
        return {(m.group(1) or m.group(2)).upper() for m in re.finditer(r"%(\w+)%|!(\w+)!", text)}
    return {m.group(1) for m in re.finditer(r"\$\{?([A-Za-z_]\w*)", text)}


def shell_line(
    line: str,
    found: Evidence,
    base: Path | None,
    where: str,
    *,
    env: dict[str, str],
    batch: bool = False,
) -> None:
    """One command line, split into words as the shell (or cmd.exe, for `batch`) splits it."""
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        if batch:  # cmd.exe has no backslash escapes: venv\Scripts\python.exe is a path
            lexer.escape = ""
        tokens = list(lexer)
    except ValueError:
        found.warnings.append(f"{where}: unbalanced quotes; line ignored")
        return
    segment: list[str] = []
    skip = False
    for i, tok in enumerate([*tokens, ";"]):
        if skip:  # the target of a redirect
            skip = False
            continue
        if tok and set(tok) <= set(";&|<>") and ("<" in tok or ">" in tok):
            # An unquoted < or > is a redirect, as the shell reads it: `pip install torch>=1.7`
            # installs an unpinned torch and writes pip's output to a file named `=1.7`.
            target = tokens[i + 1] if i + 1 < len(tokens) else ""
            if segment and segment[-1].isdigit():
                segment.pop()  # 2>&1: the file descriptor
            elif segment and target.startswith("=") and not tok.startswith("<"):
                found.warnings.append(
                    f"{where}: `{excerpt(segment[-1])}{tok}{excerpt(target)}` is not quoted, so "
                    f"the shell reads {tok} as a redirect and installs {excerpt(segment[-1])} "
                    "without that version bound"
                )
            skip = True
            continue
        if tok and set(tok) <= set(";&|"):
            shell_command(segment, found, base, where, env=env)
            segment = []
        else:
            segment.append(tok)


_MAX_PUSHD: Final = 64  # folders a script keeps on its pushd stack, as far as envgen follows


def _cd(words: list[str], tool: str, found: Evidence, base: Path | None) -> bool:
    """`cd DIR` (True): in a RUN line or a %post script, the image folder the next commands read
    their files from (a Dockerfile restores WORKDIR after each RUN); in a script, a folder the
    import does not follow (a `pip install .` there is not the file's project). `cd -`, `cd ~`
    and `cd $VAR` leave an image's folder unknown: unchanged. `pushd`/`popd` (and a subshell's
    `(cd x && ...)`, which the interpreter brackets so) return to where they started."""
    if tool == "git" and words[1:2] == ["clone"]:
        _git_clone(words, found)
        return True
    if tool == "popd":
        if found.folders:
            workdir, found.moved_away, found.clone_cwd, found.cwd = found.folders.pop()
            if found.docker is not None and workdir is not None:
                found.docker.workdir = workdir
        return True
    if tool == "pushd" and len(found.folders) < _MAX_PUSHD:
        workdir = found.docker.workdir if found.docker else None
        found.folders.append((workdir, found.moved_away, found.clone_cwd, found.cwd))
    if tool not in {"cd", "pushd"}:
        return False
    target = words[1] if len(words) == 2 else ""
    if found.docker is None and target == "-":
        # `cd -`: back to the folder before the last cd (OLDPWD)
        if found.oldpwd is not None:
            here = (found.moved_away, found.clone_cwd, found.cwd)
            found.moved_away, found.clone_cwd, found.cwd = found.oldpwd
            found.oldpwd = here
        return True
    found.oldpwd = (found.moved_away, found.clone_cwd, found.cwd)
    found.clone_cwd = found.clone_urls.get(target.removeprefix("./").rstrip("/"))
    if found.docker is not None:
        if target and target != "-" and not target.startswith(("$", "~")):
            found.docker.workdir = found.docker.image_path(target)
    elif not target:
        found.cwd = None  # `cd $ROOT_DIR` of a value not known (or `cd` alone): not the subfolder
    elif target != "." and target.removeprefix("./").rstrip("/") != found.own_clone:
        folder = (
            None if found.moved_away or found.clone_cwd else _checkout_folder(target, found, base)
        )
        if folder is None:
            # elsewhere: the files it names are read from the script's folder, as before
            found.moved_away, found.cwd = True, None
        else:
            found.cwd, found.cwd_depth = folder, found.include_depth
    return True


# How a script names its user's home, where the repository was cloned (`cd $HOME/<clone>/sub`).
_HOME: Final = re.compile(rf"^(~|\$HOME|\$\{{HOME\}}|{re.escape(shell.HOME)})/")


def _checkout_folder(target: str, found: Evidence, base: Path | None) -> Path | None:
    """The folder of the checkout a script's `cd TARGET` enters, where the import can tell: a
    relative path from the folder the script is in now, or a path in the user's home that names
    the clone and a folder of the checkout in it (`cd $HOME/CEConvDL2/CEConv`: `<home>/<clone>/
    <folder>`, the clone whatever it is named there, unless the script cloned another project of
    that name or it is a dot folder such as ~/.cache) or a folder of the checkout's own name
    (`cd ~/<name>/sub`). None: elsewhere, or not known."""
    if base is None or found.in_image:
        return None
    fence = found.root or found.tree or base
    home = _HOME.match(target)
    if home is None:
        if target.startswith("/") or any(c in target for c in "$`*?"):
            return None
        folder = working_folder(found, base) / target
        return folder if inside(folder, fence) and is_dir(folder) else None
    parts = [p for p in target[home.end() :].split("/") if p and p != "."]
    if any(p == ".." or any(c in p for c in "$`*?") for p in parts):
        return None
    for i in range(len(parts)):
        if parts[i] == fence.name:
            folder = fence.joinpath(*parts[i + 1 :])
            return folder if inside(folder, fence) and is_dir(folder) else None
    cloned = {Path(name).name for name in found.clone_urls}
    if len(parts) < 2 or parts[0].startswith(".") or parts[0] in cloned:
        return None
    folder = fence.joinpath(*parts[1:])
    return folder if inside(folder, fence) and is_dir(folder) else None


def working_folder(found: Evidence, base: Path) -> Path:
    """The folder a script's command runs in: where its `cd` went, else the folder its caller
    started it in, else the checkout root a helper folder's script runs from, else its own."""
    return found.cwd or found.script_cwd or found.run_from or base


def _git_clone(words: list[str], found: Evidence) -> None:
    """`git clone URL [DIR]`: a README's first clone is the repository it documents (`git clone
    .../paper && cd paper && pip install -e .` installs the paper); any other clone, or one in a
    script (which runs inside the checkout already), is another project."""
    args: list[str] = []
    i = 2
    while i < len(words):
        flag, _value, step = option_at(words, i, _GIT_CLONE_VALUE)
        if not flag.startswith("-"):
            args.append(flag)
        i += step
    name = (args[1] if len(args) > 1 else args[0].rstrip("/").rsplit("/", 1)[-1]) if args else ""
    name = name.removesuffix(".git")
    if found.kind != "markdown" or found.own_clone is not None or not args:
        found.own_clone = found.own_clone or ""  # later clones are dependencies
        if name and len(found.clone_urls) < _MAX_CLONES:
            found.clone_urls[name] = args[0]
        return
    found.own_clone = name


_MAX_CLONES: Final = 64
# `git clone` options that take a value (`git clone --help`): `-b v0.8.2` names no repository.
_GIT_CLONE_VALUE: Final = frozenset(
    {"-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "--reference", "-j",
     "--jobs", "--filter", "--template", "-u", "--upload-pack", "--separate-git-dir",
     "--shallow-since", "--shallow-exclude", "--recurse-submodules"}
)  # fmt: skip


def shell_command(
    words: list[str], found: Evidence, base: Path | None, where: str, *, env: dict[str, str]
) -> None:
    if words and _TORCH_ARGUMENT.match(words[0]):
        # `torch==1.9.0+cu111 torchvision==0.10.0+cu111 -f <page>` as a line: no program has such
        # a name; it is the argument list of a `pip install` (a file of install arguments).
        found.warnings.append(
            f"{where}: the line starts with {excerpt(words[0])!r}, a requirement rather than a "
            "command; read as the arguments of `pip install`"
        )
        words = ["pip", "install", *words]
    if words[:1] == [""] and words[1:3] == ["-m", "pip"]:
        words = words[1:]  # `"$PYTHON" -m pip`: the quoted word is empty, not absent
    if words[:2] == ["-m", "pip"]:
        # `$PYTHON -m pip install ...` with PYTHON set outside the file (an image's or a CI's
        # variable): the program word expanded to nothing, and what it ran is a python's pip.
        words = ["python", *words]
    words = _unwrapped(words, env)
    while (inner := _inner_command(words, found, where)) is not None:
        words = _unwrapped(inner, env)  # each pass is shorter: bounded
    if not words:
        return
    # The program's name, on either kind of path (venv\Scripts\python.exe, .venv/bin/pip).
    parts = re.split(r"[\\/]", words[0])
    tool = parts[-1].removesuffix(".exe")
    tool = _install_folder_python(parts[:-1], tool)
    if (
        re.fullmatch(r"python[\d.]*|py", tool)
        and len(words) > 1
        and re.fullmatch(r"-m\w+", words[1])
    ):
        words = [words[0], "-m", words[1][2:], *words[2:]]  # `python -mpip`: python's -mMODULE
    if tool in {"export", "ENV"} and len(words) > 1:
        _export(words[1:], env, found)
        return
    replay = _switch_environment(words, tool, found, where)
    if replay is not None:
        shell_command(replay, found, base, where, env=env)  # the torch environment's create line
        return
    if _cd(words, tool, found, base) or _other_environment(words, tool, found, where):
        return
    _apt_python_runs(words, tool, found, where)
    conda_runs(words, tool, found)
    words, tool = _python_pip(words, tool, found, where)
    if _run_string(words, tool, found, base, where, env=env):
        return
    if _env_python(tool, words, found, where):
        if tool == "uv" and words[1:2] == ["sync"]:
            _uv_sync(words[2:], found, base, where)
        return
    if tool in {"wget", "curl", "aria2c", "sed"}:
        # a file the script writes: a downloaded installer, a requirements file edited in place
        (_sed_in_place if tool == "sed" else _downloaded_python)(words, found, where)
        return
    script = _script_run(words, found, base, where)
    if script is not None:
        # the folder the command runs in (a helper folder's script: the checkout root)
        cwd = (
            (found.cwd or found.script_cwd or found.run_from or base)
            if found.docker is None
            else found.docker.resolve(".")
        )
        invoked = words[1] if Path(words[0]).name in {"bash", "sh", "source", "."} else words[0]
        _follow_script(script, found, where, cwd=cwd, env={**env, "0": invoked})
        return
    if not _machine_command(words, tool, found, base, where):
        _installer(words, tool, found, base, where, env=env)


_MAX_EDITS: Final = 32  # in-place edits kept per file (each applied to every line it reads)
_MAX_EDIT_NAME: Final = 1024  # a file name sed edits, as a path (longer: kept by name)


def _sed_in_place(words: list[str], found: Evidence, where: str) -> None:
    """`sed -i 's/torch>=1.7/torch==1.9.1+cu111/g' requirements.txt`: the edit stays in the file,
    so an install that reads it later reads it edited (requirements.include_file applies it).
    A sed envgen does not model (`-E`, `-n`, a script text_tools cannot run) is kept as an
    unknown edit: the file is then read as committed, and said."""
    scripts: list[str] = []
    rest: list[str] = []
    in_place, modelled = False, True
    i = 1
    while i < len(words):
        word = words[i]
        if word in {"-e", "--expression"} and i + 1 < len(words):
            scripts.append(words[i + 1])
            i += 2
            continue
        if word.startswith(("-i", "--in-place")):
            in_place = True  # `-i`, `-i.bak`, `--in-place=.orig`: the suffix keeps a copy
            if word == "-i" and i + 1 < len(words) and words[i + 1] == "":
                i += 1  # macOS's `sed -i '' SCRIPT FILE`: an empty suffix
        elif word.startswith("-") and word != "-":
            modelled = False  # `-E`, `-r`, `-n`, `-z`: another language or output
        else:
            rest.append(word)
        i += 1
    if not in_place:
        return
    if not scripts and rest:
        scripts, rest = [rest[0]], rest[1:]
    folder = (found.cwd or found.script_cwd or found.run_from) if found.docker is None else None
    for name in rest:
        # keyed by the file's place where the script's folder is known (`cd sub; sed -i ...
        # requirements.txt` edits sub/requirements.txt, not the root's), else by the name
        key = posixpath.normpath(name.removeprefix("./"))
        if folder is not None and len(name) <= _MAX_EDIT_NAME:
            with contextlib.suppress(OSError, RuntimeError):  # a symlink loop: kept by name
                key = str((folder / name).resolve())
        kept = found.edits.setdefault(key, [])
        room = _MAX_EDITS - len(kept)
        kept.extend((script if modelled else None, where) for script in scripts or [""])
        del kept[_MAX_EDITS:]  # past the bound: the rest not run (their file reads as sed left it)
        if room <= 0:
            continue


def _machine_command(
    words: list[str], tool: str, found: Evidence, base: Path | None, where: str
) -> bool:
    """The machine's own package manager (`apt install python3.8`), a container it runs or
    builds (`docker run pytorch/pytorch:...`, `docker build`) or a `python setup.py install` of
    the folder it is in: True when the command was one of these."""
    if re.fullmatch(r"python[\d.]*", tool) and words[1:3] in (
        ["setup.py", "install"],
        ["setup.py", "develop"],
    ):
        # a clone of torchvision or torchaudio built from its source names that package
        if found.clone_cwd is not None:  # set by a `cd` into a folder the file cloned
            source_companion(found.clone_cwd, found, where)
        return True
    if tool in {"apt-get", "apt", "yum", "dnf"} and "install" in words[1:]:
        _system_python(tool, words, found, where)
        return True
    if tool in {"docker", "podman"} and (
        words[1:2] == ["build"] or words[1:3] in (["buildx", "build"], ["image", "build"])
    ):
        _docker_build(words[2 if words[1] == "build" else 3 :], found, base, where)
        return True
    return False


# `docker build` options that take a value (`docker build --help`, buildx's too).
_DOCKER_BUILD_VALUE: Final = frozenset(
    {"-f", "--file", "-t", "--tag", "--build-arg", "--target", "--platform", "--network",
     "--label", "--cache-from", "--cache-to", "--secret", "--ssh", "--progress", "-o", "--output",
     "--iidfile", "--add-host", "--shm-size", "-m", "--memory", "--ulimit", "--builder",
     "--build-context", "--metadata-file"}
)  # fmt: skip


def _docker_build(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    """`docker build [-f FILE] [--build-arg K=V] CONTEXT` a script or CI job runs: the image is
    that Dockerfile (CONTEXT/Dockerfile by default; -f is read from the folder the command runs
    in) with those ARG values, built from CONTEXT, where both lie inside what the import reads."""
    from envgen.repro.importer import dockerfile  # noqa: PLC0415 - it imports this module

    if found.docker is not None or base is None or found.moved_away:
        return
    name: str | None = None
    context: str | None = None
    build_args: dict[str, str] = {}
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, _DOCKER_BUILD_VALUE)
        if flag in {"-f", "--file"} and value is not None:
            name = value
        elif flag == "--build-arg" and value is not None and "=" in value:
            key, _, arg = value.partition("=")
            build_args[key] = arg
        elif not flag.startswith("-") and context is None:
            context = flag
        i += step
    if context is None or context == "-" or "://" in context:
        return
    cwd = working_folder(found, base)
    path = cwd / name if name is not None else cwd / context / "Dockerfile"
    fence = found.root or found.tree or base
    if not (inside(path, fence) and inside(cwd / context, fence)) or not is_file(path):
        return
    resolved = path.resolve()
    if resolved in found.scripts or found.include_depth >= MAX_INCLUDE_DEPTH:
        return
    found.scripts.add(resolved)
    try:
        text = read_source(path, shown=path.name)
    except UnreadableSource as exc:
        found.warnings.append(f"{where}: {exc}; the Dockerfile is not read")
        return
    given = ", ".join(f"{k}={excerpt(v)}" for k, v in build_args.items())
    found.warnings.append(
        f"{where}: docker build of {excerpt(name or context + '/Dockerfile')}"
        f"{' with ' + given if given else ''}: the image it builds is read"
    )
    saved = (found.source, found.build_context, found.build_args, found.script_cwd,
             found.clone_cwd)  # fmt: skip
    found.source, found.build_context, found.build_args = path.name, (cwd / context), build_args
    found.script_cwd = None
    found.include_depth += 1
    try:
        dockerfile.read(text, found, path.parent)
    finally:
        found.include_depth -= 1
        (found.source, found.build_context, found.build_args, found.script_cwd,
         found.clone_cwd) = saved  # fmt: skip


# The images that ship torch, by a tag that names it: pytorch/pytorch:1.1.0-cuda10.0-cudnn7.5-devel
# and NGC's nvcr.io/nvidia/pytorch:23.05-py3 (whose torch matrices/base-images.yaml records).
_TORCH_IMAGE: Final = re.compile(
    r"^(?:docker\.io/)?(?:pytorch/pytorch:\d+\.\d+(?:\.\d+)?[-_]cuda[\w.-]+"
    r"|nvcr\.io/nvidia/pytorch:\d\d\.\d\d[\w.-]*)$"
)


def ships_torch_image(image: str) -> bool:
    """An image whose tag names the torch it ships (pytorch/pytorch:1.1.0-cuda10.0-cudnn7.5-devel,
    nvcr.io/nvidia/pytorch:23.05-py3)."""
    return _TORCH_IMAGE.match(image) is not None


def _docker_run(args: list[str], found: Evidence, where: str) -> None:
    """`docker run [options] IMAGE [command]` of an image that ships torch (a pytorch/pytorch or
    NGC tag): the script's environment is the image's, where nothing before named a torch.
    Another image (python:3.8 for a side task, an untagged pytorch/pytorch) says nothing, and
    inside a Dockerfile a `docker run` is another container, not the image being built."""
    if found.docker is not None or found.torch is not None:
        return
    image = next((w for w in args if _TORCH_IMAGE.match(w)), None)
    if image is not None:
        from_image(image, found, f"{where} (docker run)")


# The options that take a value, per tool (their --help): the image, service or container is
# the first word after the options. singularity's -e/-w/-p/-u are flags (docker's take values).
_SINGULARITY_VALUE: Final = frozenset(
    {"-B", "--bind", "-H", "--home", "--pwd", "--overlay", "-W", "--workdir", "--env",
     "--env-file", "--network", "--network-args", "--security", "-o", "--mount", "--app",
     "--hostname", "-S", "--scratch", "--fusemount", "--dns", "--apply-cgroups", "--cpus",
     "--memory", "--drop-caps", "--add-caps", "-c", "--config"}
)  # fmt: skip
_DOCKER_VALUE: Final = frozenset(
    {"-e", "--env", "--env-file", "-v", "--volume", "-w", "--workdir", "-u", "--user", "-p",
     "--publish", "--name", "--entrypoint", "-l", "--label", "--label-file", "--gpus",
     "--shm-size", "--ipc", "--runtime", "--device", "-m", "--memory", "--memory-swap",
     "--cpus", "--cpuset-cpus", "--platform", "--ulimit", "--add-host", "-h", "--hostname",
     "--mount", "--network", "--net", "--cap-add", "--cap-drop", "--security-opt", "--restart",
     "--pid", "--uts", "--group-add", "--tmpfs", "--volumes-from", "--link", "--dns",
     "--expose", "--cidfile", "--log-driver", "--log-opt", "--storage-opt", "--detach-keys"}
)  # fmt: skip
# docker compose's own options before its subcommand (`docker compose -f dc.yml run ...`)
_COMPOSE_GLOBAL_VALUE: Final = frozenset(
    {"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory",
     "--ansi", "--progress", "--parallel"}
)  # fmt: skip


def _after_options(words: list[str], takes_value: frozenset[str]) -> list[str]:
    """The words after a command's leading options (and a `--` that ends them)."""
    i = 0
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        i += 2 if words[i] in takes_value and "=" not in words[i] else 1
    return words[i + 1 :] if words[i : i + 1] == ["--"] else words[i:]


# Tools that run the command after their own words in the project's environment: `poetry run
# pip install ...`, `pdm run` (pipenv, hatch, uv and conda run are read with their own rules).
_RUNNERS: Final = frozenset({"poetry", "pdm"})


def _inner_command(words: list[str], found: Evidence, where: str) -> list[str] | None:
    """The command a line runs inside a container or a tool's environment: `singularity exec
    [opts] IMAGE CMD` (apptainer too), `docker compose run [opts] SERVICE CMD`, `docker exec
    [opts] NAME CMD`, `docker run [opts] IMAGE CMD` (an image that ships torch is the script's
    environment, as `_docker_run` reads it), `poetry run CMD` (pdm too). `singularity
    build X.sif docker://IMAGE` (or `pull`) of an image that ships torch makes that image the
    environment later `exec` lines run in ([] : nothing more to run). None: not such a line."""
    tool = Path(words[0]).name if words else ""
    if tool in _RUNNERS and words[1:2] == ["run"] and len(words) > 2:
        return _after_options(words[2:], frozenset())  # `poetry run -- pip ...`
    if tool in {"singularity", "apptainer"} and words[1:2] in (["build"], ["pull"]):
        image = next((w for w in words[2:] if w.startswith("docker://")), None)
        if image is not None and found.docker is None and found.torch is None:
            name = image.removeprefix("docker://")
            if ships_torch_image(name):
                from_image(name, found, f"{where} ({tool} {words[1]})")
        return []
    if tool in {"singularity", "apptainer"} and words[1:2] in (["exec"], ["run"]):
        rest, takes = words[2:], _SINGULARITY_VALUE
    elif tool in {"docker", "nvidia-docker", "podman", "docker-compose"}:
        compose = tool == "docker-compose" or words[1:2] == ["compose"]
        args = (
            _after_options(words[1 + (tool != "docker-compose") :], _COMPOSE_GLOBAL_VALUE)
            if compose
            else words[1:]
        )
        if args[:1] not in (["run"], ["exec"]):
            return None
        if args[0] == "run" and not compose:
            if found.docker is not None:
                return None  # inside a Dockerfile: another container, not the image being built
            _docker_run(args[1:], found, where)
        rest, takes = args[1:], _DOCKER_VALUE
    else:
        return None
    return _after_options(rest, takes)[1:]  # after the image, service or container


def _unwrapped(words: list[str], env: dict[str, str]) -> list[str]:
    """The command a line runs under its wrappers (`sudo -H`, `env A=1`, `timeout 10m`) and
    variable assignments (`CUDA_HOME=/usr/local/cuda pip install ...`, kept in `env`)."""
    while words and (re.match(r"^\w+=", words[0]) or words[0] in _WRAPPERS):
        if "=" in words[0] and words[0] != "RUN":
            key, _, value = words[0].partition("=")
            env[key] = value
        wrapper, words = words[0], words[1:]
        # The wrapper's own options and count (`sudo -H -u me`, `travis_wait 30`, `timeout 10m`)
        while (
            words
            and wrapper in _WRAPPERS
            and (
                (
                    words[0].startswith("-")
                    and wrapper in {"sudo", "env", "nice", "stdbuf", "timeout"}
                )
                or (re.fullmatch(r"\d+[smhd]?", words[0]) and wrapper in {"travis_wait", "timeout"})
            )
        ):
            takes = words[0] in _WRAPPER_VALUE_OPTIONS.get(wrapper, ())
            words = words[2:] if takes else words[1:]
    return words


def _env_name(args: list[str]) -> str | None:
    """The environment a conda command names (`-n NAME`, `--name=NAME`, `-p PREFIX`).

    >>> _env_name(["-n", "main", "python=3.8"]), _env_name(["--name=aux"]), _env_name(["-y"])
    ('main', 'aux', None)
    """
    names = {"-n", "--name", "-p", "--prefix"}
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, names)
        if flag in names and value is not None:
            return value
        i += step
    return None


def _other_environment(words: list[str], tool: str, found: Evidence, where: str) -> bool:
    """Whether a command belongs to another conda environment than the first one the script
    creates: a script that builds several (`conda create -n main`, ..., `conda create -n aux`
    for an auxiliary model) is read on its first. `conda create` of another one installs into it
    (not read) but switches nothing; what runs while another is active (from `conda activate
    aux` to `conda activate main` or `conda deactivate`) is not read."""
    conda = tool in {"conda", "mamba", "micromamba"}
    if conda and words[1:2] == ["create"]:
        name = _env_name(words[2:])
        if name is None or found.conda_env in {None, name}:
            if found.conda_env is None and name is not None:
                found.before_env = {f: copy.deepcopy(getattr(found, f)) for f in ENVIRONMENT_FIELDS}
            found.conda_env = found.conda_env or name
            return found.other_env is not None
        if found.torch is None and found.pending_env is None:
            found.pending_env = (name, list(words[:_MAX_CREATE_WORDS]))
        found.warnings.append(
            f"{where}: conda create {excerpt(name)}: a second environment; the script's first one "
            f"({excerpt(found.conda_env or '')}) is the one imported, and what it installs into "
            f"{excerpt(name)} is not read"
        )
        return True
    verb = _activation(words, tool)
    if verb == "activate" and len(words) > 2 and found.conda_env is not None:
        found.other_env = None if words[2] == found.conda_env else words[2]
        found.conda_env_used = found.conda_env_used or found.other_env is None
        return True
    if conda and words[1:2] == ["install"] and found.conda_env is not None:
        found.conda_env_used = found.conda_env_used or _env_name(words[2:]) == found.conda_env
    if verb == "deactivate":
        found.other_env = None
        return True
    return found.other_env is not None


def _activation(words: list[str], tool: str) -> str | None:
    """ "activate" or "deactivate" for `conda activate x` (mamba, micromamba) and `source
    activate x`; None for any other command."""
    verb = words[1] if len(words) > 1 else ""
    if verb in {"activate", "deactivate"} and tool in {
        "conda",
        "mamba",
        "micromamba",
        "source",
        ".",
    }:
        return verb
    return None


_MAX_CREATE_WORDS: Final = 512


def _switch_environment(
    words: list[str], tool: str, found: Evidence, where: str
) -> list[str] | None:
    """`conda activate B` of another environment a script made, where the one active until now
    installed no torch (`nerf_jax`, then `nerf_torch`; `tf1`, `tf2`, then `torch`): B is the one
    imported, from what was known before the first; returns B's create line, to be read now
    (None: no switch)."""
    pending, before = found.pending_env, found.before_env
    if (
        _activation(words, tool) != "activate"
        or len(words) < 3
        or pending is None
        or before is None
        or words[2] != pending[0]
        or found.torch is not None
    ):
        return None
    first = found.conda_env or ""
    for name, value in before.items():
        # a copy: a third environment may be switched to as well (`tf1`, `tf2`, then `torch`)
        setattr(found, name, copy.deepcopy(value))
    found.warnings.append(
        f"{where}: conda activate {excerpt(pending[0])}: the environment active until now "
        f"({excerpt(first)}) installs no torch; {excerpt(pending[0])}, which the script makes "
        "and activates next, is the one imported"
    )
    found.conda_env, found.other_env, found.pending_env = pending[0], None, None
    return pending[1]


# Commands that run the command after them (and their options): the installer is what they run.
_WRAPPERS: Final = frozenset(
    {"sudo", "RUN", "exec", "time", "nohup", "env", "nice", "stdbuf", "command", "timeout",
     "travis_retry", "travis_wait"}
)  # fmt: skip
# Their options that take a value (their man pages): `sudo -u me`, `nice -n 10`, `timeout -s 9`.
_WRAPPER_VALUE_OPTIONS: Final = {
    "sudo": frozenset({"-u", "-g", "-C", "-p", "-h", "-U"}),
    "nice": frozenset({"-n"}),
    "timeout": frozenset({"-s", "-k", "--signal", "--kill-after"}),
    "env": frozenset({"-u", "-C", "--unset", "--chdir"}),
}


# The project itself as pip names it: `.`, `./`, `../pkg`, `.[dev,train]`, `file:.` (a
# folder path, with the extras to install); never a file (`./torch-1.8.0-...whl`, an sdist).
_LOCAL_PROJECT: Final = re.compile(r"^(?:file:)?(\.{1,2}(?:/[^\s\[\]]*+)?)(?:\[([\w,\s.-]*+)\])?$")
_ARCHIVE: Final = re.compile(r"\.(whl|tar\.gz|tgz|zip|tar\.bz2|tar\.xz)$", re.IGNORECASE)


def _pip_install(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    """`pip install ARGS`, where the project itself (`pip install -e .`, `pip install
    ".[dev,train]"`) is read from its pyproject.toml, setup.cfg and setup.py, as pip builds it,
    with the extras it names (none with `--no-deps`); the other arguments are pip's. An index
    of a command that installs none of torch's family after torch is installed does not choose
    that torch's build (`pip install torch==2.0.0`, then `pip install -r extras.txt
    --index-url .../cu118`: pip finds torch satisfied and never asks that index for it)."""
    torch, companions, indexes = found.torch, dict(found.companions), len(found.indexes)
    reqs, missed, computes = len(found.pip_reqs), found.includes_missed, len(found.compute)
    _pip_arguments(_local_wheels(args, found), found, base, where)
    if (
        torch is not None
        and torch.version is not None
        and found.torch is not None
        and found.torch.version is not None
        and is_version(torch.version)
        and is_version(found.torch.version)
        and Version(found.torch.version) != Version(torch.version)  # ==1.9 is 1.9.0+cu111's
    ):
        # an exact torch over another exact release: pip installs it, whatever was there
        _replaced_by_command(args, found, where, indexes, computes)
    if {"--no-deps", "--no-dependencies"} & set(args):
        # pip reads none of these packages' Requires-Dist (envgen.repro.entry neither)
        found.no_deps.update(requirement_name(r) for r in found.pip_reqs[reqs:])
    if found.torch is not torch and found.torch is not None:
        # the command ended: what later commands install does not join its resolve
        found.torch_slot, found.torch_by_command = len(found.pip_reqs), True
    if found.torch is not torch or {"-U", "--upgrade", "--force-reinstall"} & set(args):
        _nightly(args, found, where, installed=torch)
    if (
        torch is not None
        and found.torch is torch
        and found.companions == companions
        and found.includes_missed == missed  # a file it could not read may name torch
    ):
        dropped = [i for i in found.indexes[indexes:] if is_pytorch_index(i[1])]
        if dropped:
            found.indexes[indexes:] = [i for i in found.indexes[indexes:] if i not in dropped]
            for r in found.pip_reqs[reqs:]:  # where one of them brings a newer torch after all
                found.command_indexes.setdefault(requirement_name(r), dropped)
            found.warnings.append(
                f"{where}: {', '.join(excerpt(url) for _, url in dropped)}: this pip install "
                "names none of torch's family and torch is installed already, so its index "
                "does not choose torch's build"
            )


def _replaced_by_command(
    args: list[str], found: Evidence, where: str, indexes: int, computes: int
) -> None:
    """This pip command installed a torch over the one an earlier command installed: the
    earlier commands' indexes and local labels chose that torch's build, not this one's (pip
    reads only this command's options), and a companion it names bare (`pip install
    torch==2.7.0 torchvision`) is the new torch's pair, whatever an earlier command pinned."""
    if found.torch_manager != "pip":
        return
    forget_pip_route(found, indexes, computes)
    for name in ("torchvision", "torchaudio"):
        if name in (a.lower() for a in args):
            found.companions[name] = Pin(where=where)


# PyTorch's nightly wheels: the index (`whl/nightly/cu118`) and the old find-links page
# (`whl/nightly/cu100/torch_nightly.html`)
_NIGHTLY: Final = re.compile(r"(?i)pytorch\.org/whl/nightly(?:/|$)")


def _nightly(args: list[str], found: Evidence, where: str, *, installed: Pin | None) -> None:
    """`pip install --pre torch --index-url .../whl/nightly/cu118`: the .dev build that index
    served on the day the file ran, which no release names and the index no longer keeps (it
    holds the last few weeks' builds): no torch envgen can reproduce (a refusal, which says so).
    An exact release pin on that line (`torch==2.0.0`) is still that release, and a later
    command's release replaces the nightly (the refusal is withdrawn). In a README, a nightly
    line after the route installed torch (a Troubleshooting note for new GPUs) is another route.
    """
    named = [a for a in args if not a.startswith("-") and requirement_name(a) == "torch"]
    if (
        found.torch is None
        or "--pre" not in args
        or not any(_NIGHTLY.search(a) for a in args)
        or not named
        or any(re.search(r"===?\s*\d+(\.\d+)*(\+\w+)?$", a) for a in named)  # a release
    ):
        return  # (a release installed later withdraws the refusal: evidence.set_torch)
    if found.kind == "markdown" and installed is not None:
        found.warnings.append(
            f"{where}: a nightly torch (--pre from PyTorch's nightly index) after the torch the "
            "README's steps installed: read as another route, not the one envgen imports"
        )
        return
    found.nightly = (
        f"{where}: torch comes from PyTorch's nightly index with --pre: the .dev build of the "
        "day the file ran, which names no release and which the index no longer serves; pin a "
        "release (or --as-of a date and a released torch) to reproduce it"
    )
    found.refusal_notes.append(found.nightly)


def _pip_arguments(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    rest: list[str] = []
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, PIP_VALUE_FLAGS)
        if flag not in {"-e", "--editable"} and value is not None:
            rest.extend(args[i : i + step])  # `-r ../reqs.txt`: an option's value, not a project
        elif not editable_project(value if value is not None else flag, found, base, where, args):
            rest.extend(args[i : i + step])
        i += step
    _later_torchvision(rest, found, where)
    pip_install(rest, found, base, where)


# pip options after which a `pip install torchvision` may not take PyPI's newest with its torch.
_NOT_PYPI_NEWEST: Final = frozenset(
    {"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--no-index", "--no-deps",
     "-r", "--requirement", "-c", "--constraint", "--pre", "--only-binary", "--no-binary"}
)  # fmt: skip


def _later_torchvision(args: list[str], found: Evidence, where: str) -> None:
    """`pip install torchvision` alone (no version, no torch, from PyPI, dependencies kept)
    after the file installed an exact torch with pip: pip takes the newest torchvision, whose
    wheel pins one torch release (0.3.0 on), and installs that torch over the file's where it
    differs. Noted here; the resolution, which knows the file's date, decides."""
    pin = found.torch
    if pin is None or pin.version is None or pin.image is not None or found.torch_manager != "pip":
        return
    options = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    if options & _NOT_PYPI_NEWEST:
        return
    if "torchvision" in found.companions and not options & {"-U", "--upgrade"}:
        return  # installed already: "Requirement already satisfied", nothing changes
    words = [a for a in args if not a.startswith("-")]
    names = [re.split(r"[\[<>=!~;@ ]", a, maxsplit=1)[0].lower() for a in words]
    if "torchvision" in words and "torch" not in names and "pytorch" not in names:
        found.later_torchvision = (where, pin.version, pin.where)


def editable_project(
    value: str,
    found: Evidence,
    base: Path | None,
    where: str,
    args: list[str] = (),  # type: ignore[assignment]
) -> bool:
    """The project itself (or a folder of it, `-e ./lib`) as pip names it: `.`, `".[dev]"` on a
    `pip install` line (`args`, the line's arguments: none of its requirements with
    `--no-deps`), or `-e .` in a requirements file or an environment.yml's pip list; read as pip
    builds it (True). False for what is no folder path (a VCS URL, a wheel) and in a repository
    import, which reads the project's own files anyway."""
    if found.root is not None:
        return False
    if _own_wheel(value, found, base, where):
        return True
    local = None if _ARCHIVE.search(value) else _LOCAL_PROJECT.match(value)
    if local is None:
        return False
    if "--no-deps" not in args:
        extras = tuple(e.strip() for e in (local.group(2) or "").split(",") if e.strip())
        _local_project(local.group(1), extras, found, base, where)
    return True


def _project_name(root: Path) -> str | None:
    """The distribution name a checkout's project builds: pyproject.toml's [project] or
    [tool.poetry] name, else setup.cfg's [metadata] name, else a literal `name="..."` in
    setup.py (read, never run); None where none is named."""
    for file in ("pyproject.toml", "setup.cfg", "setup.py"):
        if not inside(root / file, root):  # a link out of the checkout is not read
            continue
        try:
            text = read_source(root / file, shown=file)
        except UnreadableSource:
            continue
        if file == "pyproject.toml":
            try:
                data = load_toml(text)
            except TomlUnreadable:
                continue
            tool = data.get("tool")
            poetry = tool.get("poetry") if isinstance(tool, dict) else None
            for table in (data.get("project"), poetry):
                if isinstance(table, dict) and isinstance(table.get("name"), str):
                    return str(table["name"])
            continue
        pattern = (
            r"(?m)^\s*name\s*=\s*(\S+)\s*$"
            if file == "setup.cfg"
            else (r"\bname\s*=\s*[\"']([A-Za-z0-9][\w.-]*)[\"']")
        )
        m = re.search(pattern, text)
        if m:
            return m.group(1)
    return None


def _own_wheel(value: str, found: Evidence, base: Path | None, where: str) -> bool:
    """`pip install dist/replicnn-0.1.0-py3-none-any.whl` (or `*.whl`): a wheel the project builds
    of itself (`python -m build`, dist/ is never committed), copied into an image or a container
    and installed there. Its requirements are the project's own, read from the checkout root as
    `pip install .` reads them. False where the wheel is in the checkout (a vendored file) or
    names another distribution than the root's project."""
    name = value.replace("\\", "/").rsplit("/", 1)[-1]
    if "://" in value or not name.endswith(".whl") or base is None:
        return False
    root = found.checkout or found.tree or base
    if exists(base / value) or exists(root / value):
        return False
    own = _project_name(root)
    wanted = name.split("-", 1)[0] if "-" in name else name.removesuffix(".whl")
    if own is None or not fnmatch.fnmatch(_dist(own), _dist(wanted)):
        return False
    if not wanted.strip("*") and not _copies_own_dist(found, own):
        return False  # `pip install *.whl` of wheels the file fetched: not the project's own
    found.warnings.append(
        f"{where}: pip install {excerpt(value)}: the project's own wheel ({own}, built from the "
        "checkout: not committed), whose requirements are the project's; read from its "
        "pyproject.toml / setup.py"
    )
    saved = found.docker
    found.docker = None  # the wheel was copied in; the project it was built from is the root's
    try:
        _local_project(".", (), found, root, where)
    finally:
        found.docker = saved
    return True


def _copies_own_dist(found: Evidence, own: str) -> bool:
    """The build copies the project's wheels from its dist/ folder (`COPY dist/*.whl /tmp/`,
    `%files dist/replicnn-*.whl /dist/`), which a bare `pip install *.whl` then installs."""
    if found.docker is None:
        return False
    for rel in [*found.docker.files.values(), *(rel for _, rel in found.docker.dirs)]:
        folder, _, file = rel.rpartition("/")
        if rel == "dist" or rel.endswith("/dist"):
            return True  # the whole folder
        if folder.rsplit("/", 1)[-1] == "dist" and fnmatch.fnmatch(
            _dist(own), _dist(file.split("-", 1)[0])
        ):
            return True
    return False


def _dist(name: str) -> str:
    """A distribution name as a wheel's file name writes it (`replicnn`, `my_pkg`).

    >>> _dist("My-Pkg.name"), _dist("*")
    ('my_pkg_name', '*')
    """
    return re.sub(r"[-_.]+", "_", name).lower()


def _local_project(
    folder: str, extras: tuple[str, ...], found: Evidence, base: Path | None, where: str
) -> None:
    """The project a `pip install FOLDER[extras]` builds: its pyproject.toml ([project] or
    Poetry dependencies), else its setup.cfg and setup.py (read, never run). Not after a `cd`
    the import cannot follow (`git clone .../apex && cd apex && pip install ./` builds apex, not
    the paper), nor, in an image, a folder no COPY put there (the context's own files are not
    the image's)."""
    from envgen.repro.importer import setup_cfg, setup_py  # noqa: PLC0415 - only for `pip install .`

    shown = f"pip install {excerpt(folder)}" + (f"[{','.join(extras)}]" if extras else "")
    moved = found.moved_away if found.docker is None else not found.docker.copied(folder)
    clone = found.clone_cwd if moved and folder in {".", "./"} else None
    if clone is not None and source_companion(clone, found, where):
        return
    if moved:
        found.warnings.append(
            f"{where}: {shown}: a project the file did not bring along (cloned, or in a folder "
            "it changed to); its requirements are not read"
        )
        return
    if found.docker is not None:
        place = found.docker.image_path(folder)
    else:  # the folder it names, from where the script's cd went (`cd libs/ops; pip install .`)
        here = found.cwd or base
        place = folder if here is None else posixpath.normpath(f"{here}/{folder}")
    key = f"{place}[{','.join(extras)}]"
    if key in found.projects:
        return  # the same project and extras, read already: nothing new to install
    found.projects.add(key)
    saved, saved_pip = found.install_extras, found.pip_builds_project
    found.install_extras = extras
    found.pip_builds_project = not found.uv_pip
    try:
        declares: list[bool] = []

        def pyproject(text: str, found: Evidence, parent: Path) -> None:
            declares.append(bool(re.search(r"(?m)^[ \t]*\[(project|tool\.poetry)\]", text)))
            pyproject_read(text, found, parent)

        said = len(found.warnings)
        read = include_file(
            Path(folder, "pyproject.toml").as_posix(), found, base, where, seen=set(),
            flag=shown, parse=pyproject, optional=True,
        )  # fmt: skip
        if (read and declares and declares[0]) or len(found.warnings) > said:
            return  # read, or refused (outside the checkout): once is enough to say so
        for name, parse in (("setup.cfg", setup_cfg.read), ("setup.py", setup_py.read)):
            include_file(
                Path(folder, name).as_posix(), found, base, where, seen=set(), flag=shown,
                parse=parse, optional=True,
            )  # fmt: skip
    finally:
        found.install_extras, found.pip_builds_project = saved, saved_pip


def _uv_pip(
    words: list[str], found: Evidence, base: Path | None, where: str, *, env: dict[str, str] | None
) -> None:
    """`uv pip compile` (a file it writes) or `uv pip install`, read as pip's, except that a
    project it builds (`uv pip install .`) is uv's: its [tool.uv] indexes and sources hold."""
    if words[1:3] == ["pip", "compile"]:
        _generated(["uv-pip-compile", *words[3:]], "pip-compile", found, base, where)
        return
    found.uv_pip = True
    try:
        _installer(words[1:], "pip", found, base, where, env=env)
    finally:
        found.uv_pip = False


def _installer(
    words: list[str],
    tool: str,
    found: Evidence,
    base: Path | None,
    where: str,
    *,
    env: dict[str, str] | None = None,
) -> None:
    """A package manager's install command: pip (uv pip), conda (mamba), poetry; `env`: the
    variables the script exported (make reads them as its own)."""
    if tool == "uv" and words[1:2] == ["pip"]:
        _uv_pip(words, found, base, where, env=env)
        return
    if re.fullmatch(r"pip(\d(\.\d+)?)?", tool):
        words = [words[0], *pip_subcommand(words[1:])]
    if re.fullmatch(r"pip(\d(\.\d+)?)?", tool) and len(words) > 1 and words[1] == "install":
        if tool_python(tool) is not None and found.python is None:
            # `pip3.5 install`: the pip of python 3.5, as `python3.5 -m pip` is; pip2 is 2.7's
            set_python(found, tool_python(tool), f"{where} ({tool})")
        _pip_install(words[2:], found, base, where)
    elif (
        tool in {"conda", "mamba", "micromamba"}
        and len(words) > 1
        and words[1] in {"install", "create"}
    ):
        _conda_install(words[2:], found, where, base)
    elif tool in {"conda", "mamba", "micromamba"} and words[1:2] == ["env"] and len(words) > 2:
        if words[2] in {"create", "update"}:
            _conda_env_file(words[3:], found, where, base)
    elif tool == "poetry" and words[1:2] == ["install"]:
        _poetry_install(words[2:], found, base, where)
    elif tool in {"make", "gmake"}:
        _make(words[1:], found, base, where, env=env or {})
    elif (tool in {"poetry", "uv"} and words[1:2] == ["export"]) or tool == "pip-compile":
        _generated(words, tool, found, base, where)
    elif tool in {"uv", "poetry", "pdm", "rye"} and words[1:2] == ["add"]:
        _project_add(words[2:], tool, found, base, where)
    elif tool == "pipenv":
        _pipenv(words, found, base, where)
    elif tool == "hatch" and words[1:2] == ["run"] and len(words) > 2:
        _hatch_run(words[2:], found, base, where)
    elif (
        tool in {"uv", "conda", "mamba", "micromamba"} and words[1:2] == ["run"] and len(words) > 2
    ):
        (_uv_run if tool == "uv" else _conda_run)(words[2:], found, base, where)


# pip's general options (`pip --help`, "General Options"), which may stand before the subcommand:
# those that take a value, and the flags.
_PIP_GENERAL_VALUE: Final = frozenset(
    {"--log", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert",
     "--client-cert", "--cache-dir", "--python", "--use-feature", "--use-deprecated",
     "--keyring-provider", "--resume-retries", "--src", "--log-file"}
)  # fmt: skip
_PIP_GENERAL_FLAG: Final = re.compile(
    r"^(-[vq]+|--(verbose|quiet|isolated|require-virtualenv|no-input|no-cache-dir|"
    r"disable-pip-version-check|no-color|no-python-version-warning|debug))$"
)


def pip_subcommand(args: list[str]) -> list[str]:
    """pip's arguments from its subcommand on: the general options before it are skipped, as pip
    reads them (`pip3 --no-cache-dir install torch`, `pip -q --timeout 60 install torch`).

    >>> pip_subcommand(["--no-cache-dir", "install", "torch"])
    ['install', 'torch']
    >>> pip_subcommand(["-q", "--timeout", "60", "install", "-U", "torch"])
    ['install', '-U', 'torch']
    >>> pip_subcommand(["--cache-dir=/c", "install", "x"]), pip_subcommand(["--frobnicate", "x"])
    (['install', 'x'], ['--frobnicate', 'x'])
    """
    i = 0
    while i < len(args):
        word = args[i]
        if word in _PIP_GENERAL_VALUE:
            i += 2
        elif word.split("=", 1)[0] in _PIP_GENERAL_VALUE or _PIP_GENERAL_FLAG.match(word):
            i += 1
        else:
            break
    return args[i:]


def _run_string(
    words: list[str],
    tool: str,
    found: Evidence,
    base: Path | None,
    where: str,
    *,
    env: dict[str, str],
) -> bool:
    """`cmd /c "pip install ..."` and `bash -c "pip install ..."`: the command line a shell runs
    from a string, read as one more line (bounded by MAX_INCLUDE_DEPTH). True when it was one."""
    if tool == "cmd" and len(words) > 2 and words[1].lower() in {"/c", "/k"}:
        inner, batch = " ".join(words[2:]), True
    elif tool in {"bash", "sh"} and len(words) > 2 and words[1] == "-c":
        inner, batch = words[2], False
    else:
        return False
    if found.include_depth < MAX_INCLUDE_DEPTH:
        found.include_depth += 1
        try:
            shell_line(inner, found, base, where, env=env, batch=batch)
        finally:
            found.include_depth -= 1
    return True


def _python_pip(words: list[str], tool: str, found: Evidence, where: str) -> tuple[list[str], str]:
    """`python3.9 -m pip ...` (or Windows' `py -3.10 -m pip`) as `pip ...`, naming the python."""
    launcher = re.fullmatch(r"-(\d\.\d+)", words[1]) if tool == "py" and len(words) > 1 else None
    if launcher is not None:  # Windows' py launcher: `py -3.10 -m pip` is python3.10's pip
        words, tool = [f"python{launcher.group(1)}", *words[2:]], f"python{launcher.group(1)}"
    elif tool == "py":
        words, tool = ["python", *words[1:]], "python"
    if re.fullmatch(r"python(\d(\.\d+)?)?", tool) and words[1:3] == ["-m", "pip"]:
        if tool_python(tool) is not None and found.python is None:
            set_python(found, tool_python(tool), f"{where} ({tool})")
        words = ["pip", *words[3:]]
        tool = "pip"
    return words, tool


# CPython as python.org publishes it: https://www.python.org/ftp/python/3.6.5/Python-3.6.5.tgz
# (the source a Dockerfile builds), python-3.12.9-embed-amd64.zip (Windows' embeddable package a
# portable installer unpacks), python-3.8.10-amd64.exe (the Windows installer).
_PYTHON_ORG: Final = re.compile(
    r"^https?://(?:www\.)?python\.org/ftp/python/(\d+\.\d+)\.\d+/"
    r"(?:Python-[\d.]+\.(?:tgz|tar\.xz|tar\.bz2)|python-[\d.]+-(?:embed-)?(?:amd64|win32)\.(?:zip|exe))$"
)


def _downloaded_python(words: list[str], found: Evidence, where: str) -> None:
    """`wget .../ftp/python/3.6.5/Python-3.6.5.tgz`: a file that fetches CPython from python.org
    (to build it, or unpack a portable one) installs with that python, unless it named one
    before. A wheel it fetches (`wget URL -P DIR`, `curl -o FILE URL`) is remembered by the
    file name it lands as, which a later `pip install DIR/NAME.whl` installs (_local_wheels)."""
    for word in words[1:]:
        m = _PYTHON_ORG.match(word)
        if m is not None:
            set_python(found, m.group(1), f"{where} (CPython {m.group(1)} from python.org)")
            return
    urls = [w for w in words[1:] if re.match(r"(?i)^https?://\S+\.whl$", w)]
    if len(urls) != 1 or len(found.downloads) >= _MAX_DOWNLOADS:
        return
    named = [
        words[i + 1]
        for i, w in enumerate(words[:-1])
        if w in {"-O", "-o", "--output", "--output-document"}
    ]
    name = named[-1] if named and named[-1] != "-" else urls[0]
    found.downloads[name.replace("\\", "/").rsplit("/", 1)[-1]] = urls[0]


_MAX_DOWNLOADS: Final = 256  # wheel downloads remembered per import


def _local_wheels(args: list[str], found: Evidence) -> list[str]:
    """`pip install ~/.cache/pip/wheels/torch-0.3.1-cp36-cp36m-linux_x86_64.whl`, a wheel the
    script downloaded before: the URL it came from, whose folder names the build."""
    if not found.downloads:
        return args
    out: list[str] = []
    for arg in args:
        name = arg.replace("\\", "/").rsplit("/", 1)[-1]
        out.append(
            found.downloads.get(name, arg) if name.endswith(".whl") and "://" not in arg else arg
        )
    return out


# A torch-family requirement with a version operator: never the name of a program.
_TORCH_ARGUMENT: Final = re.compile(r"^(torch|torchvision|torchaudio)(==|>=|<=|~=|!=)\d")


def _install_folder_python(folders: list[str], tool: str) -> str:
    """`C:\\Program Files\\Python314\\python.exe` as python3.14: python.org's Windows installer
    puts CPython X.Y in a folder named PythonXY (`C:\\Program Files\\PythonXY` for all users,
    `%LOCALAPPDATA%\\Programs\\Python\\PythonXY` for one; docs.python.org/3/using/windows.html,
    "Installation steps"), so the folder names the interpreter a bare python.exe in it is.

    >>> _install_folder_python(["C:", "Program Files", "Python314"], "python")
    'python3.14'
    >>> _install_folder_python(["C:", "Python38", "Scripts"], "pip")
    'pip3.8'
    >>> _install_folder_python(["C:", "tools", "Python"], "python")
    'python'
    >>> _install_folder_python([], "pip")
    'pip'
    >>> _install_folder_python([".", "python-3.11.7-embed-amd64"], "python")
    'python3.11'
    """
    if tool in {"python", "python3"} and folders:
        home, base = folders[-1], "python"
    elif tool in {"pip", "pip3"} and len(folders) > 1 and folders[-1].lower() == "scripts":
        home, base = folders[-2], "pip"  # the installer puts pip.exe in PythonXY\Scripts
    else:
        return tool
    # python.org's Windows embeddable package unpacks to python-3.11.7-embed-amd64 (its zip's
    # name, https://www.python.org/downloads/windows/), which portable installers ship
    m = re.fullmatch(
        r"python(3)(\d{1,2})|python-(3)\.(\d{1,2})\.\d+-embed-\w+", home, re.IGNORECASE
    )
    if m is None:
        return tool
    return f"{base}{m.group(1) or m.group(3)}.{m.group(2) or m.group(4)}"


def tool_python(tool: str) -> str | None:
    """The python a versioned pip or python program belongs to: pip3.5 and python3.5 are 3.5's,
    pip2 and python2 are Python 2.7's (the only Python 2 with pip on the distros of the torch
    era); pip, pip3, python and python3 name no minor version.

    >>> tool_python("pip3.5"), tool_python("pip2"), tool_python("python2"), tool_python("pip3")
    ('3.5', '2.7', '2.7', None)
    """
    m = re.fullmatch(r"(?:pip|python)(\d)(?:\.(\d+))?", tool)
    if m is None:
        return None
    if m.group(2) is not None:
        return f"{m.group(1)}.{m.group(2)}"
    return "2.7" if m.group(1) == "2" else None


def _script_run(words: list[str], found: Evidence, base: Path | None, where: str) -> Path | None:
    """The file a command runs as a shell script (`bash install.sh`, `./install.sh`, a Dockerfile's
    `RUN /tmp/install.sh` of a COPY'd file), when it lies inside what the import may read."""
    first = Path(words[0]).name
    target = words[1] if first in {"bash", "sh", "source", "."} and len(words) > 1 else words[0]
    if not target.endswith(".sh") or (base is None and found.docker is None):
        return None
    if found.docker is not None:
        path, fence = found.docker.resolve(target), found.docker.context
    else:
        path = (found.cwd or base or Path()) / target
        if not is_file(path) and found.script_cwd is not None:
            path = found.script_cwd / target  # run from the folder its caller started in
        root = found.run_from or found.fallback_root
        if not is_file(path) and root is not None and found.cwd is None:
            # a helper folder's script runs from the checkout root (`scripts/build_x.sh` runs
            # `./docker/build.sh`), as the files it names are read from there
            path = root / target
        fence = found.root or found.tree or base or Path()
    if not inside(path, fence):
        if is_file(path):  # the target machine's own files (/opt/conda/.../conda.sh) say nothing
            found.warnings.append(
                f"{where}: {excerpt(target)}: outside the imported folder; the script is not read"
            )
        return None
    return path if is_file(path) else None


def _follow_script(
    path: Path,
    found: Evidence,
    where: str,
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> None:
    """Read a script the file runs, on its default route, as part of the file (bounded). It
    runs in the caller's folder (`cwd`: a CI job's checkout root running `./devops/install.sh`),
    so a file it names that is not beside it is looked for there, and it sees the caller's
    variables (`env`: a CI job's env, a Dockerfile's ARG and ENV, what the caller exported)."""
    resolved = path.resolve()
    if resolved in found.scripts:
        return
    if found.include_depth >= MAX_INCLUDE_DEPTH or len(found.scripts) >= MAX_INCLUDE_DEPTH:
        found.warnings.append(f"{where}: {path.name}: too many scripts run scripts; not read")
        return
    found.scripts.add(resolved)
    try:
        text = read_source(path, shown=path.name)
    except UnreadableSource as exc:
        found.warnings.append(f"{where}: {exc}; the script is not read")
        return
    saved = (found.source, found.docker, found.tree, found.script_cwd, found.script_depth,
             found.in_image, found.clone_cwd, found.cwd, found.cwd_depth, found.oldpwd)  # fmt: skip
    fence = found.docker.context if found.docker is not None else found.tree
    found.in_image = found.in_image or found.docker is not None
    found.source, found.docker, found.tree = path.name, None, fence
    found.include_depth += 1
    found.cwd, found.oldpwd = None, None
    if cwd is not None and cwd.resolve() != path.parent.resolve() and not found.moved_away:
        found.script_cwd, found.script_depth = cwd, found.include_depth
    try:
        parse_shell(text, found, path.parent, env=dict(env or {}))
    finally:
        found.include_depth -= 1
        (found.source, found.docker, found.tree, found.script_cwd, found.script_depth,
         found.in_image, found.clone_cwd, found.cwd, found.cwd_depth,
         found.oldpwd) = saved  # fmt: skip


def _apt_python_runs(words: list[str], tool: str, found: Evidence, where: str) -> None:
    """After `apt install python3.7` on a distro whose python3 is another minor (Ubuntu 18.04's
    is 3.6): a command that names python3.7 (runs it, links or registers it as python3, runs
    pip3.7) makes it the python; `pip3 install` or `python3 -m pip` before that runs the
    distro's python3, since neither the package nor python3-pip repoints /usr/bin/python3 or
    pip3; a plain `pip` / `python` (which the distro may not have) is read as the installed
    one, as before."""
    if found.side_python is not None and found.python is None:
        version, said = found.side_python
        if re.split(r"[\\/]", words[0])[-1] in {f"python{version}", f"pip{version}"}:
            set_python(found, version, f"{said}, run as {excerpt(words[0])}")
            return
    if found.apt_python is None or found.python is not None or found.distro_python is None:
        return
    version, said = found.apt_python
    if any(re.split(r"[\\/]", w)[-1] in {f"python{version}", f"pip{version}"} for w in words):
        set_python(found, version, said)
        return
    installs = (tool in {"pip", "pip3"} and "install" in words[1:]) or (
        tool in {"python", "python3"} and words[1:3] == ["-m", "pip"] and "install" in words[3:]
    )
    if not installs:
        return
    distro, python3 = found.distro_python
    if tool in {"pip3", "python3"} or (tool == "pip" and found.distro_pip and _ships_pip(distro)):
        set_python(
            found,
            python3,
            f"{where} ({tool} on {distro} runs its python3, {python3}; the python{version} "
            f"package of {excerpt(said)} is installed beside it, not as python3)",
        )
    else:
        set_python(found, version, said)


# Packages that depend on the distro's python3 (packages.ubuntu.com: software-properties-common
# Depends python3 and python3-software-properties; python-is-python3 Depends python3): installing
# one installs python3, as `apt install python3-pip` does.
_PULLS_PYTHON3: Final = frozenset({"software-properties-common", "python-is-python3"})


def _ships_pip(distro: str) -> bool:
    """Whether the distro's python3-pip package has /usr/bin/pip: Ubuntu 20.04 on (before it
    `pip` was Python 2's python-pip, and python3-pip shipped pip3 only). Other distros: not
    assumed.

    >>> _ships_pip("Ubuntu 22.04"), _ships_pip("Ubuntu 18.04"), _ships_pip("Debian 11")
    (True, False, False)
    """
    m = re.fullmatch(r"Ubuntu (\d+)\.\d+", distro)
    return m is not None and int(m.group(1)) >= 20


def _system_python(tool: str, words: list[str], found: Evidence, where: str) -> None:
    """`apt install python3.8` (or python2.7) names the python; `python3` or any `python3-X`
    package is the distro's python3 (weak), and on the Ubuntu releases whose `python-pip` is
    Python 2.7's, `python-pip` / `python-dev` with no python3 package is Python 2.7 (weak)."""
    packages = words[2:]
    found.distro_pip = found.distro_pip or "python3-pip" in packages
    for word in packages:
        m = re.fullmatch(
            r"python(2\.7|3\.\d+|3\d{1,2})(-dev|-devel|-venv|-distutils|-pip|-full|-tk|-libs)?",
            word,
        )
        if m:  # RHEL / EPEL name a minor without its dot: yum install python36 is python 3.6
            version = m.group(1) if "." in m.group(1) else f"3.{m.group(1)[1:]}"
            named = f"{where} ({tool} install {word})"
            if found.python is None and (
                found.interpreter_image is not None or found.torch is not None
            ):
                # beside an image's own interpreter (pytorch/pytorch's conda python), or after
                # torch went in: a tool's python (Kaldi's python2.7), not the one pip runs
                found.side_python = found.side_python or (version, named)
                return
            if (
                found.python is None
                and found.conda_base is None
                and found.distro_python is not None
                and version not in {"2.7", found.distro_python[1]}
            ):
                # Ubuntu 18.04's python3.7 package sits beside its python3 (3.6): which one the
                # installs land in is decided by what runs pip (_apt_python_runs).
                found.apt_python = found.apt_python or (version, named)
                return
            set_python(found, version, named)
            return
    if found.distro_python is None:
        return
    distro, python3 = found.distro_python
    said = next(
        (w for w in packages if re.fullmatch(r"python3(-[\w.+-]+)?", w) or w in _PULLS_PYTHON3),
        None,
    )
    if said is not None:
        found.weak_python = found.weak_python or (
            python3,
            f"{where} ({tool} install {said} on {distro})",
        )
        return
    python2 = next((w for w in packages if w in {"python", "python-pip", "python-dev"}), None)
    if python2 is not None and distro.removeprefix("Ubuntu ") in eras.PYTHON2_UBUNTU:
        found.weak_python = found.weak_python or (
            "2.7",
            f"{where} ({tool} install {python2} on {distro}, whose python-pip is Python 2.7's)",
        )


def _flag_value(word: str) -> tuple[str, ...]:
    """A long option written with `=` as the two words it stands for.

    >>> _flag_value("--python=/usr/bin/python3.10"), _flag_value("venv")
    (('--python', '/usr/bin/python3.10'), ('venv',))
    """
    flag, eq, value = word.partition("=")
    return (flag, value) if eq and flag.startswith("--") else (word,)


def _env_python(tool: str, words: list[str], found: Evidence, where: str) -> bool:
    """The python of an environment a script creates (`virtualenv -p python3.9`, `python3.9 -m
    venv`, `uv venv --python 3.10`, `uv sync --python 3.12`), the one pyenv or uv installs (`pyenv
    install 3.9.7`, `uv python install 3.11`), or of the Miniconda it installs
    (`Miniconda3-py38_...`, a fallback when nothing names the env's python). True when the
    command was one of these."""
    if tool in {"module", "ml"}:
        _module_python(words, found, where)  # `module load Python/3.6.4-intel-2018a`
        return True
    if tool == "virtualenv" or (tool == "uv" and words[1:2] in (["venv"], ["sync"])):
        # `-p X`, `--python X` and `--python=X` (`virtualenv --python=/usr/bin/python3.10 venv`)
        split = [part for word in words for part in _flag_value(word)]
        for flag, value in itertools.pairwise(split):
            if flag in {"-p", "--python"}:
                m = re.fullmatch(r"(?:python)?(\d\.\d+)", Path(value).name)
                if m:
                    set_python(found, m.group(1), f"{where} ({tool} {flag} {excerpt(value)})")
        return True
    if (tool == "pyenv" and words[1:2] in (["install"], ["global"], ["local"], ["virtualenv"])) or (
        tool == "uv" and words[1:3] in (["python", "install"], ["python", "pin"])
    ):
        # `pyenv install 3.9.7`, `pyenv global 3.9.7`, `pyenv virtualenv 3.8.10 venv`,
        # `uv python install 3.11`: the interpreter the script builds and then runs pip with.
        verb = " ".join(words[: 3 if tool == "uv" else 2])
        for word in words[len(verb.split()) :]:
            m = re.fullmatch(r"(?:cpython-)?(\d\.\d+)(\.\d+)?", word)
            if m:
                set_python(found, m.group(1), f"{where} ({verb} {excerpt(word)})")
                break
        return True
    m = re.fullmatch(r"python(\d\.\d+)", tool)
    if m and words[1:3] == ["-m", "venv"]:
        set_python(found, m.group(1), f"{where} ({tool} -m venv)")
        return True
    # Windows' launcher: `py -3.11 -m venv .venv` makes the venv with python 3.11
    m = re.fullmatch(r"-(\d\.\d+)(?:-64|-32)?", words[1]) if tool == "py" and words[1:] else None
    if m and words[2:4] == ["-m", "venv"]:
        set_python(found, m.group(1), f"{where} (py {words[1]} -m venv)")
        return True
    for word in words:
        # Miniconda2 and Anaconda2 (every release) ship Python 2.7; a Miniconda3 installer names
        # its python only in the py38_ form (Miniconda3-latest: not stated); one named by its
        # version only (Anaconda3-5.0.1, Miniconda3-4.2.12) by matrices/conda-installers.yaml.
        # Either way the installed python is the one pip runs in only once the file runs conda
        # (conda_runs): a script may download Miniconda and never put it on PATH.
        installer = re.search(r"(?:Mini|Ana)conda(?:2-\S|3-(?:py(\d)(\d+)_|latest))", word)
        if installer:
            python = (
                f"{installer.group(1)}.{installer.group(2)}" if installer.group(1)
                else "2.7" if "conda2-" in installer.group(0)
                else ""
            )  # fmt: skip
            said = f"{where} (Miniconda installer)"
            found.conda_installed = found.conda_installed or (python, said)
            continue
        name = installer_name(word)
        row = conda_python(name) if name is not None else None
        if row is not None:
            said = (
                f"{where} ({name} installer: python {row.python}, matrices/conda-installers.yaml)"
            )
            found.conda_installed = found.conda_installed or (row.python, said)
    return False


def _export(items: list[str], env: dict[str, str], found: Evidence) -> None:
    """`export A=1 PATH=...`: the variables the later commands (and scripts they run) see."""
    for item in items:
        key, eq, value = item.partition("=")
        if eq:
            env[key] = value
            if key == "PATH":
                conda_on_path(value, found)


def conda_on_path(path: str, found: Evidence) -> None:
    """`export PATH=$HOME/miniconda3/bin:$PATH` (a Dockerfile's `ENV PATH=/opt/conda/bin:...`):
    the installed conda's bin folder on PATH makes its python the one pip runs in."""
    if "conda" in path.lower():
        found.conda_base = found.conda_base or found.conda_installed


def conda_runs(words: list[str], tool: str, found: Evidence) -> None:
    """The installed conda is used (`conda install`, `/opt/conda/bin/pip`, `source
    ~/miniconda3/bin/activate`): its base python is the one pip runs in from here on."""
    if found.conda_installed is None or found.conda_base is not None:
        return
    under = [w for w in words[:2] if "conda" in w.lower() and re.search(r"[\\/]", w)]
    if tool in {"conda", "mamba"} or (
        under and tool in {"pip", "pip3", "python", "python3", "source", ".", "activate"}
    ):
        found.conda_base = found.conda_installed


# An environment module of CPython on a cluster (Lmod / Environment Modules, EasyBuild's names):
# `Python/3.6.4-intel-2018a`, `python/3.8`, `python3/3.7.0`, `cray-python/3.9.13.1`.
_MODULE_PYTHON: Final = re.compile(r"(?:cray-)?python3?/(\d\.\d+)(?:[.-]\S*)?", re.IGNORECASE)


def _module_python(words: list[str], found: Evidence, where: str) -> None:
    """`module load Python/3.6.4-intel-2018a` (or Lmod's `ml Python/3.8.6`): the cluster's python
    the script then runs (`python3 -m venv`, `pip install`) is that module's."""
    verb = words[1] if len(words) > 1 else ""
    if words[0] == "module" and verb not in {"load", "add", "switch", "swap"}:
        return
    loads = words[2:] if verb in {"load", "add", "switch", "swap"} else words[1:]
    # `module swap python/3.7 python/3.8`: the last one named is the one loaded
    for word in reversed(loads) if verb in {"switch", "swap"} else loads:
        m = _MODULE_PYTHON.fullmatch(word)
        if m:
            set_python(found, m.group(1), f"{where} (module {excerpt(word)})")
            return


# pip's options that conda install/create does not have (conda's argparse stops with
# "unrecognized arguments", so the line installs nothing): a pip flag pasted onto a conda line.
_PIP_ONLY_FLAGS: Final = frozenset(
    {"-i", "--index-url", "--extra-index-url", "--trusted-host", "-U", "--upgrade", "--user",
     "--no-cache-dir", "--find-links"}
)  # fmt: skip


def _conda_install(args: list[str], found: Evidence, where: str, base: Path | None) -> None:
    pasted = next((a for a in args if a.split("=", 1)[0] in _PIP_ONLY_FLAGS), None)
    if pasted is not None:
        note = (
            f"{where}: conda has no option {excerpt(pasted)} (a pip option): conda stops with "
            "'unrecognized arguments' and the line installs nothing"
        )
        found.warnings.append(note)
        found.refusal_notes.append(note)
        return
    i = 0
    files: list[str] = []
    channels: list[str] = []
    installs_pytorch = False
    while i < len(args):
        flag, value, step = option_at(args, i, _CONDA_VALUE_FLAGS)
        i += step
        if not flag.startswith("-"):
            installs_pytorch |= conda_spec(flag, found, where) in _BRINGS_PYTORCH
        elif value is not None and flag in ("-c", "--channel"):
            channels.append(value)
            if value not in found.channels:
                found.channels.append(value)
        elif value is not None and flag in ("-f", "--file"):
            files.append(value)
    if installs_pytorch:
        found.torch_channels = channels
    # `conda install --file F` (after the command line's own channels): F's specs, one a line.
    for name in files:
        # micromamba (and conda >= 23.9) read an environment.yml given to --file as one
        parse = conda_env_read if name.endswith((".yml", ".yaml")) else conda_file
        include_file(name, found, base, where, seen=set(), flag="--file", parse=parse)


# The conda packages that install pytorch: itself, and the companions that depend on it.
_BRINGS_PYTORCH: Final = frozenset(
    {"pytorch", "pytorch-gpu", "pytorch-cpu", "torchvision", "torchvision-cpu", "torchaudio"}
)


# A conda package spec as a word (`python=3.11`, `pip`, `pytorch==1.13.1`), not a file or URL.
_CONDA_SPEC_WORD: Final = re.compile(r"^[A-Za-z0-9][\w.-]*(?:[=<>!~]=?[\w.*,<>=!+-]*)?$")
_FILE_WORD: Final = re.compile(r"(?i)\.(ya?ml|txt|json|lock)$")


def _conda_env_file(args: list[str], found: Evidence, where: str, base: Path | None) -> None:
    """`conda env create|update [-f FILE]`: the environment file (environment.yml when no -f is
    given, as conda reads it), read as the conda environment it is."""
    name = "environment.yml"
    named = False
    specs: list[str] = []
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, _CONDA_VALUE_FLAGS)
        if flag in {"-f", "--file"} and value is not None:
            name, named = value, True
        elif not flag.startswith("-"):
            specs.append(flag)
        i += step
    if (
        not named
        and specs
        and all(_CONDA_SPEC_WORD.match(w) and not _FILE_WORD.search(w) for w in specs)
    ):
        # `conda env create -n X python=3.11 pip`: package specs where conda env create takes
        # a file; what the line means is `conda create -n X python=3.11 pip` (unless the
        # environment.yml conda reads by default is there)
        found.torch_channels = None
        if include_file("environment.yml", found, base, where, seen=set(), flag="conda env -f",
                        parse=conda_env_read, optional=True):  # fmt: skip
            return
        found.warnings.append(
            f"{where}: `conda env create` with package specs and no -f: conda env create reads "
            "a file, not specs; read as the `conda create` it means"
        )
        _conda_install(args, found, where, base)
        return
    flag = "conda env -f"
    found.torch_channels = None  # the file's own channels are the ones it solves with
    if name.endswith((".yml", ".yaml")):
        include_file(name, found, base, where, seen=set(), flag=flag, parse=conda_env_read)
    else:  # `conda env create -f spec.txt`: a spec list, as `conda create --file` reads it
        include_file(name, found, base, where, seen=set(), flag=flag, parse=conda_file)


# Options of `uv add`, `poetry add`, `pdm add` and `rye add` that take a value (their `--help`):
# the value is not a package. The index options are read as pip's.
_ADD_VALUE_FLAGS: Final = frozenset(
    {"--optional", "--group", "-G", "--extra", "-E", "--package", "--tag", "--branch", "--rev",
     "--marker", "-m", "--bounds", "--script", "--directory", "--project", "--source",
     "--constraints", "-c", "--config-setting", "-C", "--python", "-p", "--allow-prereleases"}
)  # fmt: skip
_ADD_INDEX_FLAGS: Final = {
    "--index": "--extra-index-url",  # uv: an index above the default one
    "--default-index": "--index-url",
    "--index-url": "--index-url",
    "--extra-index-url": "--extra-index-url",
    "--find-links": "--find-links",
    "-f": "--find-links",
    "--requirements": "-r",
    "-r": "-r",
}


def _project_add(
    args: list[str], tool: str, found: Evidence, base: Path | None, where: str
) -> None:
    """`uv add torch torchvision`, `poetry add torch@2.1.0`, `pdm add`, `rye add`: the packages
    the project adds, which its sync then installs (dev groups included: uv and pdm install them
    by default); read as the `pip install` of those packages, with the index options pip has."""
    pip_args: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        flag, eq, value = word.partition("=")
        takes = not eq and i + 1 < len(args)
        if flag in _ADD_INDEX_FLAGS:
            value = value if eq else (args[i + 1] if takes else "")
            if tool == "uv" and flag == "--index":
                value = value.split("=", 1)[1] if re.match(r"^[\w.-]+=\S+://", value) else value
            pip_args += [_ADD_INDEX_FLAGS[flag], value]
            i += 1 if eq else 2
            continue
        if flag in {"--python", "-p"} and (eq or takes):
            python = value if eq else args[i + 1]
            if re.fullmatch(r"(?:python)?(\d\.\d+)(\.\d+)?", python):
                set_python(found, python.removeprefix("python"), f"{where} ({tool} add {flag})")
        if word.startswith("-"):
            i += 2 if flag in _ADD_VALUE_FLAGS and takes else 1
            continue
        # Poetry's and PDM's `name@1.2.3` (a version) or `name@^1.2` (a constraint envgen keeps
        # as the bare name: pip has no caret); `name @ URL` stays a direct reference.
        name, at, version = word.partition("@")
        if at and "://" not in version:
            exact = re.fullmatch(r"=*(\d[\w.+!]*)", version)
            word = f"{name}=={exact.group(1)}" if exact else name
            if not exact:
                found.warnings.append(
                    f"{where}: {excerpt(args[i])!r}: {tool}'s constraint is not pip's; read as "
                    f"{name} unpinned"
                )
        pip_args.append(word)
        i += 1
    _pip_install(pip_args, found, base, where)


# pipenv's install options that take a value (`pipenv install --help`).
_PIPENV_VALUE_FLAGS: Final = frozenset(
    {"--python", "--pypi-mirror", "--index", "-i", "--categories"}
)


def _pipenv(words: list[str], found: Evidence, base: Path | None, where: str) -> None:
    """pipenv's command line: its general options may stand before the subcommand (`pipenv
    --python 3.8 install`); `pipenv run CMD` runs CMD in the environment."""
    sub = 1
    while sub < len(words) and words[sub].startswith("-"):
        sub += 2 if words[sub] in _PIPENV_VALUE_FLAGS else 1
    command = words[sub] if sub < len(words) else ""
    if command == "run":
        # the Pipfile's environment: its [requires] python, made where there is none (one
        # `pipenv install --python` already made is the environment it runs in); read once a
        # folder, however many `pipenv run` lines there are
        pipfile = f"pipenv-run:{working_folder(found, base) if base is not None else ''}"
        if found.python is None and pipfile not in found.projects:
            found.projects.add(pipfile)
            include_file("Pipfile", found, base, where, seen=set(), flag="pipenv run",
                         parse=pipfile_python, optional=True)  # fmt: skip
        _run_inside(lambda: shell_command(words[sub + 1 :], found, base, where, env={}),
                    found, where)  # fmt: skip
        command = ""
    elif command not in {"install", "sync"}:
        command = ""
    options = words[1:sub] + (words[sub + 1 :] if command else [])
    _pipenv_install(command, options, found, base, where)


def _pipenv_install(
    command: str, args: list[str], found: Evidence, base: Path | None, where: str
) -> None:
    """`pipenv install torch==X` (those packages, as pip reads them), or `pipenv install` /
    `pipenv sync` with none: the Pipfile.lock beside it where there is one (pipenv installs the
    lock when it is there: https://pipenv.pypa.io/en/latest/commands.html), else the Pipfile.
    `--python 3.8` names the environment's python."""
    packages: list[str] = []
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, _PIPENV_VALUE_FLAGS)
        i += step
        m = re.fullmatch(r"(?:python)?(\d\.\d+)(\.\d+)?", value or "")
        if flag == "--python" and m:
            set_python(found, m.group(1), f"{where} (pipenv --python {value})")
        elif not flag.startswith("-"):
            packages.append(flag)
    if command == "install" and packages:
        _pip_install(packages, found, base, where)
        return
    if not command:  # `pipenv --python 3.8`: the environment only
        return
    lock = "Pipfile.lock"
    if found.docker is not None:
        has_lock = is_file(found.docker.resolve(lock))
    else:
        has_lock = base is not None and is_file(base / lock)
    name = lock if has_lock or command == "sync" else "Pipfile"
    include_file(name, found, base, where, seen=set(), flag=f"pipenv {command}", parse=pipfile_read)


# `uv sync` options that take a value (`uv sync --help`).
_UV_SYNC_VALUE: Final = frozenset(
    {"--extra", "--group", "--only-group", "--no-group", "--python", "-p", "--package",
     "--index", "--default-index", "--extra-index-url", "--index-url", "-i", "--find-links",
     "-f", "--directory", "--project", "--python-platform", "--exclude-newer"}
)  # fmt: skip


def _uv_sync(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    """`uv sync`: the project's environment. Where a uv.lock lies beside the project, uv installs
    the lock's versions: the packages its project reaches with the extras `--extra` /
    `--all-extras` name and the dependency groups (`dev` unless `--no-dev`, `--group`,
    `--all-groups`; envgen.repro.importer.uv_lock). Without one, uv resolves pyproject.toml's
    dependencies (with those extras; `--no-install-project` leaves out the project itself, not
    its dependencies; `--only-group G` and `--only-dev` install the group alone)."""
    extras: list[str] = []
    groups: list[str] = ["dev"]
    only: list[str] = []
    dropped: set[str] = set()
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, _UV_SYNC_VALUE)
        if flag == "--extra" and value:
            extras.append(value)
        elif flag == "--all-extras":
            extras.append("*")
        elif flag in {"--no-dev", "--no-default-groups"}:
            dropped.add("dev")
        elif flag == "--no-group" and value:
            dropped.add(value)
        elif flag == "--group" and value:
            groups.append(value)
        elif flag == "--only-group" and value:
            only.append(value)
        elif flag == "--only-dev":
            only.append("dev")
        elif flag == "--all-groups":
            groups.append("*")
        i += step
    groups = [g for g in (only or groups) if g not in dropped]
    here = working_folder(found, base) if base is not None else None
    if here is not None:
        found.projects.add(f"uv-sync:{here}")
    if here is not None and found.docker is None and found.python is None:
        from envgen.repro.importer.repository import version_file_python  # noqa: PLC0415

        version_file_python(here, found, (".python-version",))  # the python uv syncs with
    if here is not None and found.docker is None and is_file(here / "uv.lock"):
        from envgen.repro.importer.uv_lock import read_synced  # noqa: PLC0415 - only for a lock

        locked: list[bool] = []

        def parse(text: str, inner: Evidence, _folder: Path) -> None:
            said = f"{where} (uv.lock)"
            locked.append(
                read_synced(text, inner, said, tuple(extras), tuple(groups), only_groups=bool(only))
            )

        include_file("uv.lock", found, here, where, seen=set(), flag="uv sync", parse=parse)
        if any(locked) or only:
            return
    if not only:  # a group alone installs none of the project's own dependencies
        _local_project(".", tuple(extras), found, base, where)


# `uv run` options that take a value (`uv run --help`), and those that shape the sync it runs.
_UV_RUN_VALUE: Final = _UV_SYNC_VALUE | {"--with", "--with-editable", "--with-requirements",
                                         "--env-file"}  # fmt: skip
_UV_SYNC_FLAGS: Final = frozenset(
    {"--extra", "--all-extras", "--no-dev", "--no-default-groups", "--group", "--only-group",
     "--no-group", "--only-dev", "--all-groups"}
)  # fmt: skip
# Where `uv run --with a,b` splits: a comma outside brackets that a package name follows.
_WITH_SPLIT: Final = re.compile(r",(?![^\[]*\])(?=\s*[A-Za-z0-9])")


def _uv_run(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    """`uv run [OPTIONS] CMD`: inside a project (a pyproject.toml in the folder) uv first syncs
    its environment as `uv sync` does, with the same extras and groups, unless `--no-project`,
    `--no-sync` or `--script`; `--with X` adds X for the run; then it runs CMD there
    (https://docs.astral.sh/uv/concepts/projects/run/). The sync is read once a folder, and not
    after a `uv sync` there: uv run's sync is inexact, so what that sync installed stays."""
    sync: list[str] = []
    project = True
    i = 0
    while i < len(args) and args[i].startswith("-"):
        flag, value, step = option_at(args, i, _UV_RUN_VALUE)
        if flag in {"--no-project", "--no-sync", "--script", "-s"}:
            project = False
        elif flag == "--with" and value:
            for requirement in _WITH_SPLIT.split(value):
                if requirement.strip():
                    pip_requirement(requirement.strip(), found, f"{where} (uv run --with)")
        elif flag in _UV_SYNC_FLAGS:
            sync += args[i : i + step]
        i += step
    here = working_folder(found, base) if base is not None else None
    key = f"uv-run:{here}:{' '.join(sync)}"
    if (
        project
        and here is not None
        and found.docker is None
        and key not in found.projects
        and f"uv-sync:{here}" not in found.projects
        and is_file(here / "pyproject.toml")
    ):
        found.projects.add(key)
        _uv_sync(sync, found, base, where)
    if args[i:]:
        _run_inside(lambda: shell_command(args[i:], found, base, where, env={}), found, where)


def _hatch_run(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    """`hatch run [ENV:]NAME ...`: hatch makes ENV (`default`) from pyproject.toml's
    [tool.hatch.envs.ENV] and the environments it inherits from (`template`, `default` unless
    `detached`), with its `python`, the project installed (unless `skip-install`) with its
    `features`, its `dependencies` and `extra-dependencies`; then it runs the script NAME of its
    `scripts` table (a command or a list of them), else NAME as a command
    (https://hatch.pypa.io/latest/config/environment/overview/)."""
    env_name, _, script = args[0].rpartition(":") if ":" in args[0] else ("default", "", args[0])
    running = f"{env_name}:{script}"
    if running in found.hatch_runs:
        found.warnings.append(f"{where}: hatch run {excerpt(running)} runs itself; not followed")
        return
    table = _hatch_env(_hatch_envs(found, base, where), env_name, set())
    said = f"{where} (hatch env {excerpt(env_name)})"
    python = table.get("python")
    if isinstance(python, str) and re.fullmatch(r"\d\.\d+", python.strip()):
        set_python(found, python.strip(), said)
    if not table.get("skip-install", False):
        features = table.get("features", [])
        extras = (
            tuple(f for f in features if isinstance(f, str)) if isinstance(features, list) else ()
        )
        _local_project(".", extras, found, base, where)
    for key in ("dependencies", "extra-dependencies"):
        listed = table.get(key, [])
        for requirement in listed if isinstance(listed, list) else []:
            if isinstance(requirement, str):
                pip_requirement(requirement, found, said)
    scripts = table.get("scripts", {})
    commands = scripts.get(script) if isinstance(scripts, dict) else None
    if commands is None:  # `hatch run pip install x`
        _run_inside(lambda: shell_command(args, found, base, where, env={}), found, where)
        return
    listed = [commands] if isinstance(commands, str) else commands
    lines = [c for c in listed if isinstance(c, str)] if isinstance(listed, list) else []
    found.hatch_runs.append(running)
    try:
        shown = f"{where} ({excerpt(script)})"
        for line in lines[:_MAX_HATCH_COMMANDS]:
            text = line.replace("{args}", "")
            _run_inside(partial(shell_line, text, found, base, shown, env={}), found, where)
    finally:
        found.hatch_runs.pop()


# `conda run`'s options that take a value (conda run --help; mamba's and micromamba's alike).
_CONDA_RUN_VALUE: Final = frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})


def _conda_run(args: list[str], found: Evidence, base: Path | None, where: str) -> None:
    """`conda run [-n NAME | -p PREFIX] [--no-capture-output] CMD`: CMD runs in that environment
    (https://docs.conda.io/projects/conda/en/latest/commands/run.html), so it is read as the
    script's command unless NAME is another environment than the one the script made."""
    i, name = 0, None
    while i < len(args) and args[i].startswith("-"):
        flag, value, step = option_at(args, i, _CONDA_RUN_VALUE)
        if flag in {"-n", "--name", "-p", "--prefix"}:
            name = value
        i += step
    if i >= len(args):
        return
    if name is not None and name == found.conda_env:
        found.conda_env_used = True
    if name is not None and found.conda_env is not None and name != found.conda_env:
        found.warnings.append(
            f"{where}: conda run in {excerpt(name)}, another environment than {found.conda_env}; "
            "not read"
        )
        return
    _run_inside(lambda: shell_command(args[i:], found, base, where, env={}), found, where)


def _run_inside(run: Callable[[], None], found: Evidence, where: str) -> None:
    """A command `hatch run` or `pipenv run` runs, bounded: at most _MAX_RUNS of them an import,
    nested at most _MAX_HATCH_DEPTH deep (`pipenv run pipenv run ...`)."""
    if found.runs >= _MAX_RUNS or found.run_depth >= _MAX_HATCH_DEPTH:
        if not any("run commands" in w for w in found.warnings):
            found.warnings.append(
                f"{where}: more than {_MAX_RUNS} `hatch run`/`pipenv run` commands, or nested "
                f"more than {_MAX_HATCH_DEPTH} deep; the rest of the run commands are not read"
            )
        return
    found.runs += 1
    found.run_depth += 1
    try:
        run()
    finally:
        found.run_depth -= 1


def _hatch_envs(found: Evidence, base: Path | None, where: str) -> dict[str, object]:
    """The [tool.hatch.envs] table of the pyproject.toml in the folder a command runs in, read
    once an import."""
    key = str(working_folder(found, base)) if base is not None else ""
    if key in found.hatch_envs:
        return found.hatch_envs[key]
    envs: dict[str, object] = {}

    def read(text: str, _found: Evidence, _parent: Path) -> None:
        try:
            data: object = load_toml(text)
        except TomlUnreadable:
            return
        for part in ("tool", "hatch", "envs"):
            data = data.get(part, {}) if isinstance(data, dict) else {}
        if isinstance(data, dict):
            envs.update(data)

    include_file("pyproject.toml", found, base, where, seen=set(), flag="hatch run",
                 parse=read, optional=True)  # fmt: skip
    found.hatch_envs[key] = envs
    return envs


def _hatch_env(envs: dict[str, object], name: str, seen: set[str]) -> dict[str, object]:
    """An environment's table with what it inherits merged in: its `template`'s (`default`
    unless it is `default` or `detached`), whose `extra-dependencies` and `scripts` add to its
    own; the rest it overrides."""
    table = envs.get(name)
    own: dict[str, object] = table if isinstance(table, dict) else {}
    if own.get("detached", False):
        return {**own, "skip-install": True}
    template = own.get("template", "default" if name != "default" else None)
    if not isinstance(template, str) or template in seen | {name} or len(seen) >= _MAX_HATCH_DEPTH:
        return own
    inherited = _hatch_env(envs, template, seen | {name})
    merged = {**inherited, **own}
    extra = [*_listed(inherited, "extra-dependencies"), *_listed(own, "extra-dependencies")]
    merged["extra-dependencies"] = extra
    scripts = {**_table(inherited, "scripts"), **_table(own, "scripts")}
    merged["scripts"] = scripts
    return merged


def _listed(table: dict[str, object], key: str) -> list[object]:
    value = table.get(key, [])
    return value if isinstance(value, list) else []


def _table(table: dict[str, object], key: str) -> dict[str, object]:
    value = table.get(key, {})
    return value if isinstance(value, dict) else {}


_MAX_HATCH_DEPTH: Final = 8  # environments a template chain, and run commands inside run commands
_MAX_RUNS: Final = 256  # `hatch run` / `pipenv run` commands an import follows
_MAX_HATCH_COMMANDS: Final = 64


# make's options that take a value (`-j` and `-l` take one only where a number follows).
_MAKE_VALUE: Final = frozenset({"-C", "--directory", "-f", "--file", "--makefile", "-o", "-W",
                                "-I", "--include-dir", "--old-file", "--what-if"})  # fmt: skip


def _make(
    args: list[str], found: Evidence, base: Path | None, where: str, *, env: dict[str, str]
) -> None:
    """`make [-C DIR] [-f FILE] [VAR=value ...] [TARGET ...]`: the Makefile's recipe for those
    targets (its default goal where none is named), each line read as a shell command run from
    the Makefile's folder (envgen.repro.importer.makefile); a Makefile the import cannot read is
    said, as an include is. The variables the script exported (`env`) are make's too, below the
    Makefile's own assignments (GNU make imports its environment), and the recipe's shells see
    them."""
    folder, named, goals = "", "", []
    overrides: dict[str, str] = {}
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, _MAKE_VALUE)
        if flag in {"-C", "--directory"} and value:
            folder = value
        elif flag in {"-f", "--file", "--makefile"} and value:
            named = value
        elif flag in {"-j", "--jobs", "-l", "--load-average"}:
            step += i + 1 < len(args) and args[i + 1].replace(".", "").isdigit()
        elif flag.startswith("-C") and len(flag) > 2 and value is None:
            folder = flag[2:]  # `-Csub`
        elif flag.startswith("-"):
            pass
        elif re.match(r"[A-Za-z_][\w.-]*=", args[i]):
            name, _, value_ = args[i].partition("=")
            overrides[name] = value_
        else:
            goals.append(args[i])
        i += step
    if found.replays >= MAX_REPLAYS:
        found.warnings.append(
            f"{where}: make: more Makefiles run than one import follows ({MAX_REPLAYS}); not run"
        )
        return
    found.replays += 1
    names = [named] if named else ["GNUmakefile", "makefile", "Makefile"]
    exported = {k: v for k, v in env.items() if k != "0" and re.fullmatch(r"[A-Za-z_]\w*", k)}

    def run(text: str, found: Evidence, parent: Path) -> None:
        run_recipe(text, found, parent, goals, overrides=overrides, exported=exported)

    for index, name in enumerate(names):
        path = posixpath.join(folder, name) if folder else name
        last = index == len(names) - 1
        if include_file(path, found, base, where, seen=set(), flag="make", parse=run,
                        optional=not last):  # fmt: skip
            return


def run_recipe(
    text: str,
    found: Evidence,
    parent: Path | None,
    goals: list[str],
    *,
    overrides: dict[str, str] | None = None,
    exported: dict[str, str] | None = None,
) -> None:
    """What `make GOALS` runs from a Makefile's text (its default goal where none is named):
    each recipe line read as a shell command run from the Makefile's folder `parent`."""
    exported = exported or {}
    lines = makefile.recipe(makefile.parse(text, overrides or {}, exported), goals)
    for number, line in lines:
        saved = (found.cwd, found.cwd_depth, found.moved_away)
        try:  # each recipe line runs in a shell of its own, from the Makefile's folder
            parse_shell(line, found, parent, env=dict(exported), offset=number - 1)
        finally:
            found.cwd, found.cwd_depth, found.moved_away = saved


# Where a Makefile's default goal installs no torch (`help:` first), the goals a README would
# name for the environment, in this order.
_SETUP_GOALS: Final = ("install", "setup", "env", "environment", "venv", "conda", "create_env",
                       "create-env", "requirements", "deps", "dependencies")  # fmt: skip


_MAX_GOALS_LOOKED: Final = 64
# An install command line that names torch or pytorch (`pip install "torch${{ matrix.v }}"`), not
# a mere mention (`--backend torch` in an echo): a Makefile goal's recipe, a CI job's step.
_INSTALLERS: Final = frozenset({"pip", "pip3", "conda", "mamba", "micromamba", "uv", "poetry",
                                "pipenv"})  # fmt: skip
_INSTALL_VERBS: Final = frozenset({"install", "add", "create"})
_TORCH_WORD: Final = re.compile(r"(py)?torch(?![\w-])")


def installs_torch(text: str) -> bool:
    """A line of `text` installs torch by name: an installer, then its install verb, then a
    word naming torch (one pass over each line's words: linear in the text).

    >>> installs_torch('python -m pip install "torch<2.0"'), installs_torch("echo --backend torch")
    (True, False)
    >>> installs_torch("pip install torchvision"), installs_torch("conda install -y pytorch=1.8")
    (False, True)
    """
    for line in text.splitlines():
        stage = 0  # 1: an installer seen, 2: then its verb
        for word in re.split(r"[\s\"'=]+", line):
            if stage == 0 and word.rsplit("/", 1)[-1] in _INSTALLERS:
                stage = 1
            elif stage == 1 and word in _INSTALL_VERBS:
                stage = 2
            elif stage == 2 and _TORCH_WORD.match(word):
                return True
    return False


def read_makefile(text: str, found: Evidence, base: Path | None) -> None:
    """A Makefile imported itself: what `make` (no goal) runs in its folder, its default goal's
    recipe and its prerequisites' before it; where that installs no torch (a `help:` target
    first), its first goal of _SETUP_GOALS, else its first goal whose recipe installs torch by
    name, said."""
    run_recipe(text, found, base, [])
    if found.torch is not None:
        return
    parsed = makefile.parse(text, {}, {})
    goal: str | None = next(
        (g for g in _SETUP_GOALS if g in parsed.rules and g != parsed.default), None
    )
    if goal is None:
        # else the first goal whose own recipe installs torch (`lib:` ... `pip install torch==`)
        goal = next(
            (
                g
                for g, (_, lines) in list(parsed.rules.items())[:_MAX_GOALS_LOOKED]
                if g != parsed.default and any(installs_torch(t) for _, t in lines)
            ),
            None,
        )
    if goal is not None:
        found.warnings.append(
            f"{found.source}: make's default goal ({excerpt(parsed.default or '')}) installs "
            f"no torch; read `make {goal}`"
        )
        run_recipe(text, found, base, [goal])


# Options of pip-compile and `uv pip compile` that take a value (their --help), besides -o.
_COMPILE_VALUE: Final = frozenset(
    {"-c", "--constraint", "--extra", "--python-version", "-P", "--upgrade-package", "-i",
     "--index-url", "--extra-index-url", "-f", "--find-links", "--pip-args", "--build-deps-for",
     "--cache-dir", "--python-platform", "-p", "--python", "--override", "--exclude-newer",
     "--resolution", "--prerelease", "--group", "--output-file", "-o", "--output", "--format",
     "--package", "--only-group", "--no-group", "--index", "--default-index"}
)  # fmt: skip


def _generated(words: list[str], tool: str, found: Evidence, base: Path | None, where: str) -> None:
    """`poetry export -o requirements.txt`, `uv export -o FILE`, `pip-compile [IN] [-o OUT]` (`uv
    pip compile IN -o OUT`): a requirements file made from the project's own; a later install of
    it reads what it was made from, as the command read it (poetry: pyproject.toml's groups,
    `--with`; uv: the lock as `uv sync` with those flags installs it; pip-compile: its inputs, by
    default requirements.in, whose newest allowed releases it pins). pip-compile writes beside
    its first input (`requirements/dev.in` -> `requirements/dev.txt`; setup.py or pyproject.toml
    -> requirements.txt) where -o names none; the others print to stdout then: nothing known."""
    args = words[2:] if tool != "pip-compile" else words[1:]
    output: str | None = None
    rest: list[str] = []
    sources: list[str] = []
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, _COMPILE_VALUE)
        if flag in {"-o", "--output", "--output-file"}:
            output = value
        elif not flag.startswith("-"):
            sources.append(flag)
        if flag not in {"-o", "--output", "--output-file"}:
            rest.extend(args[i : i + step])
        i += step
    if output is None and tool == "pip-compile" and not words[0].startswith("uv"):
        first = sources[0] if sources else "requirements.in"
        stem, ext = posixpath.splitext(first)
        output = f"{stem}.txt" if ext == ".in" else "requirements.txt"
    if not output or output == "-" or {"-h", "--help", "--version"} & set(args):
        return
    if tool == "poetry":

        def replay(found: Evidence) -> bool:
            _poetry_install(rest, found, base, where, export=True)
            return True
    elif tool == "uv":

        def replay(found: Evidence) -> bool:
            _uv_sync([w for w in rest if not w.startswith("--format")], found, base, where)
            return True
    else:
        inputs = sources or ["requirements.in"]

        def replay(found: Evidence) -> bool:
            read = False
            for source in inputs[:_MAX_SOURCES]:
                parse = _pyproject_main if source.endswith("pyproject.toml") else None
                read |= include_file(source, found, base, where, seen=set(), flag=tool, parse=parse)
            return read

    found.generated[posixpath.normpath(output.removeprefix("./"))] = (where, replay)


_MAX_SOURCES: Final = 16  # input files of one pip-compile


def _pyproject_main(text: str, found: Evidence, parent: Path) -> None:
    pyproject_read(text, found, parent, ())


def _poetry_install(
    args: list[str], found: Evidence, base: Path | None, where: str, *, export: bool = False
) -> None:
    """`poetry install [--with a,b]`: the pyproject.toml beside it, with the groups it installs
    (the non-optional ones, and those `--with` names); `--only`/`--without` are not followed.
    `export`: what `poetry export [--with a,b]` writes (the main group and those `--with`
    names only)."""
    groups: list[str] = []
    extras: list[str] = []
    i = 0
    while i < len(args):
        flag, value, step = option_at(args, i, {"--with", "--only", "--without", "-E", "--extras"})
        if flag == "--with" and value:
            groups.extend(g.strip() for g in value.split(",") if g.strip())
        elif flag in {"-E", "--extras"} and value:
            extras.extend(e for e in re.split(r"[\s,]+", value) if e)
        elif flag == "--all-extras":
            extras.append("*")
        i += step

    def parse(text: str, found: Evidence, parent: Path) -> None:
        pyproject_read(text, found, parent, tuple(groups), named_only=export)

    flag = "poetry export" if export else "poetry install"
    if not export:  # `poetry install` installs what poetry.lock says, where there is one
        locked: list[bool] = []

        def lock(text: str, found: Evidence, _parent: Path) -> None:
            locked.append(poetry_lock.read_installed(text, found, tuple(extras)))

        include_file("poetry.lock", found, base, where, seen=set(), flag=flag, parse=lock,
                     optional=True)  # fmt: skip
        if any(locked):
            return
    include_file("pyproject.toml", found, base, where, seen=set(), flag=flag, parse=parse)


def conda_file(text: str, found: Evidence, _base: Path) -> None:
    """A file `conda install --file` reads: `conda list --export` output, or one match spec a
    line (`#` comments, blank lines), or `conda list --explicit` output (package URLs)."""
    if conda_explicit.is_explicit(text):
        conda_explicit.read(text, found, None)
        return
    if is_conda_list(text):
        conda_list.read(text, found, None)
        return
    found.torch_manager = found.torch_manager or "conda"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            conda_spec(line, found, f"{found.source}:{number}")
