"""A small, bounded interpreter of the shell and batch constructs install scripts use.

`envgen import` reads install scripts (install.sh, setup.bat, README shell blocks) for the
commands that install torch. Read as a bag of lines, a `case` on the GPU vendor merges the AMD
branch into the answer. This module follows the script's control flow instead, on the *default
route*: no arguments given, a fresh Linux x86_64 machine with an NVIDIA GPU, where every command
succeeds and nothing is installed yet (`python -c "import torch"`, `pip show`, `conda env list |
grep` find nothing). It returns the commands that route runs, in order, and the install commands
of the branches it does not take (the alternatives), each with its line.

POSIX shell is parsed with tree-sitter-bash (bashlex 0.18 cannot parse `case` patterns); Windows
batch files, for which no parser is published, with the few rules below. Supported: `if` / `elif`
/ `else`, `case`, functions (with their `$1`/`$@`), `&&` / `||`, `!`, pipelines, `for` (each item
once), `export` / assignments, `$VAR` / `${VAR:-default}` / `$(uname)`, `$0` and `$(dirname
...)`/`$(basename ...)`/`$(realpath ...)` of a known relative path; batch `set`, `%VAR%`, `call`,
`if` (string compare, `defined`, `exist`, `errorlevel`, `not`, `/i`) with parenthesised blocks,
`else` and `else if` chains, `^` continuations.

It never runs anything, reads no file and touches no network: a file test on a relative path is
answered by the caller's probe of the checkout (a fresh clone), and conditions it cannot decide
without running them (an unknown command, a path on the machine's own disk) take the branch that
installs, else the first that does not only exit (an error handler is never the route on a
guess), and say so. Every
input is bounded: nesting depth, function-call depth, nodes visited, commands returned and the
length of every expanded value.
"""

from __future__ import annotations

import fnmatch
import functools
import posixpath
import re
import shlex
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from envgen.repro.text_tools import pipe_stages, stage_output

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from tree_sitter import Node, Parser

MAX_DEPTH: Final = 48  # nested blocks and function calls together
MAX_STEPS: Final = 50_000  # syntax nodes visited in one script
MAX_COMMANDS: Final = 2_000  # commands one script returns
MAX_VALUE: Final = 16 * 1024  # characters of one expanded value or command
MAX_ALTERNATIVES: Final = 40
_MAX_ARGS: Final = 256  # arguments of one function call
MAX_TOTAL: Final = 512 * 1024  # characters of all commands returned, expanded
# Seconds tree-sitter may spend parsing one script: its error recovery is quadratic on some
# malformed input (`[` + `[a](` * 20000 took 37 s); a real 1 MiB script parses in 0.5 s.
MAX_PARSE_SECONDS: Final = 1.5
MAX_READ_SECONDS: Final = 5.0  # interpreting one script (its steps are bounded too)
_PARSE_CHUNK: Final = 64 * 1024

# The default route's machine: what `uname`, $OSTYPE and friends say there. Its user is root,
# whose home holds the clone (`cd $HOME/<repo>` there is the checkout).
HOME: Final = "/root"
_MACHINE: Final = {
    "OSTYPE": "linux-gnu",
    "HOSTTYPE": "x86_64",
    "MACHTYPE": "x86_64-pc-linux-gnu",
    "CUDA_HOME": "/usr/local/cuda",
    "HOME": HOME,
}
_SUBST: Final = (
    (re.compile(r"^uname\s+(-m|--machine|-p|-i)\s*$"), "x86_64"),
    (re.compile(r"^uname(\s+(-s|--kernel-name|-o))?\s*$"), "Linux"),
    (re.compile(r"^(arch)\s*$"), "x86_64"),
)
# Words that say a branch or condition is about NVIDIA / CUDA, and about other hardware.
_NVIDIA: Final = re.compile(r"(?i)nvidia|cuda|nvcc|\bcu\d{2,3}\b|\bgpu\b")
_OTHER_HW: Final = re.compile(
    r"(?i)\bamd\b|rocm|\bhip\b|radeon|rocm-smi|rocminfo|intel|\bxpu\b|\bmps\b|darwin|apple|"
    r"macos|\bosx\b|arm64|aarch64|\bcpu\b|windows|mingw|msys|cygwin"
)
# Lookups of what is installed: on the default route (a fresh machine) they find nothing.
_FRESH_LOOKUP: Final = re.compile(
    r"\bpython[\d.]*\s+-c\s+['\"]?\s*import\b|\bpip3?\s+show\b|"
    r"\bconda\s+(env\s+list|info\s+--envs|list)\b[^|]*\|"
)
# Builtins that install nothing: followed for their status, never returned.
_QUIET: Final = frozenset(
    {":", "true", "false", "echo", "printf", "cd", "set", "shift", "read", "sleep"}
    | {"pushd", "popd"}
    | {"getopts", "break", "continue"}
)
_INSTALL_TOOL: Final = re.compile(r"\b(pip3?(\.\d+)?|conda|mamba|micromamba|uv)\b")
_INSTALL_ACTION: Final = re.compile(r"\b(install|create|update)\b")


def _has_install(text: str) -> bool:
    """A line of `text` names an installer and, after it, an install action.

    Two searches per line, each linear: one pattern `tool[^\\n]*action` backtracks over the
    rest of the line from every tool word, quadratic in a line of `pip pip pip ...` (a 64 KB
    line took 20 s, a 1 MB script over an hour).

    >>> _has_install("sudo pip3 install torch"), _has_install("install pip"), _has_install("pip")
    (True, False, False)
    """
    for line in text.split("\n"):
        tool = _INSTALL_TOOL.search(line)
        if tool is not None and _INSTALL_ACTION.search(line, tool.end()):
            return True
    return False


@dataclass(frozen=True, slots=True)
class Command:
    """One command the default route runs: its text, variables expanded, on one line."""

    text: str
    line: int  # 1-based, where the command starts
    # the variables the script exported by then (a script it runs sees them: `export
    # PYTORCH_VERSION=1.13.1` before `./docker/build.sh`); shared while unchanged
    exported: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Alternative:
    """An install command on a branch the default route does not take."""

    text: str
    line: int
    branch: str  # the branch, as the script names it ("case amd|rocm", "else of line 3")


@dataclass(slots=True)
class Route:
    """What the default route runs, what it leaves, and what the reader must know."""

    commands: list[Command] = field(default_factory=list)
    alternatives: list[Alternative] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)  # (line, text)
    nvcc: bool = False  # the CUDA compiler is on PATH when the script ends (its toolkit install)


class _Budget(Exception):  # noqa: N818 - internal signal, never leaves this module
    """The script passed a bound: the rest is not read."""


@dataclass(slots=True)
class _State:
    env: dict[str, str]
    route: Route
    functions: dict[str, Node] = field(default_factory=dict)
    installers: set[str] = field(default_factory=set)  # functions whose body installs something
    calls: list[str] = field(default_factory=list)  # the functions running now
    args: list[list[str]] = field(default_factory=list)  # their arguments ($1, $@), innermost last
    unknown: set[str] = field(default_factory=set)  # variables set from what cannot be known
    # variables `read` asks the user for: their uses keep the word (`conda create --name
    # $env_name python=3.6` keeps its shape, `conda activate $env_name` names that environment)
    asked: set[str] = field(default_factory=set)
    emitted: int = 0  # characters of the commands returned so far
    steps: int = 0
    stopped: bool = False  # `exit` on the default route
    # A file test on the repository's own files (`[ -f environment.yml ]`), in the folder the
    # script starts in: the importer's look at the checkout (None: no file test can be known).
    probe: Callable[[str, str], bool | None] | None = None
    moved: bool = False  # a `cd` ran: the folder file tests start from is not known
    named: set[str] = field(default_factory=set)  # the words of the commands run so far
    probed: dict[tuple[str, str], bool | None] = field(default_factory=dict)
    # file tests the checkout answered, and argument counts assumed, so far (a condition's tells)
    answered: int = 0
    piped: int = 0  # text pipelines evaluated (`$(echo $V | cut ...)`): at most _MAX_PIPELINES
    pipe_seconds: float = 0.0  # what they took: at most _MAX_PIPE_SECONDS
    # `export X=...`: name -> value (None: exported while unset, so a script run sees no X)
    exported: dict[str, str | None] = field(default_factory=dict)
    snapshot: Mapping[str, str] | None = None  # `exported` as last emitted (None: changed)
    nvcc: bool = False  # the CUDA compiler is on PATH (an image's, or a toolkit installed)
    returning: bool = False  # `return` in a function or sourced file: `stopped` until it ends
    sourced: Callable[[str], str | None] | None = None  # a sourced file's text (interpret)
    sourcing: list[str] = field(default_factory=list)  # the files being sourced now
    # `ARGS=(-n "$ENV")`: a bash array's elements, expanded when assigned
    arrays: dict[str, list[str]] = field(default_factory=dict)
    # `alias pip_install="python -m pip install"`: name -> (the words it stands for, the line it
    # was defined on: a shell expands it from the next line read on)
    aliases: dict[str, tuple[str, int]] = field(default_factory=dict)
    # sh expands aliases in scripts (dash, a Singularity %post, a README typed at a prompt);
    # bash only after `shopt -s expand_aliases` (a `#!/bin/bash` script)
    expand_aliases: bool = True
    deadline: float = field(default_factory=lambda: time.monotonic() + MAX_READ_SECONDS)
    sourcings: int = 0  # files sourced so far, and their characters: bounded
    sourced_chars: int = 0
    at: int | None = None  # while a file is sourced: the script's line that sources it
    # While `$(func)` runs the script's function `func`: what its echo/printf print (None
    # marks a part that cannot be known); its other commands run in a subshell, not emitted.
    captured: list[str | None] | None = None

    def step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            msg = f"more than {MAX_STEPS} syntax nodes"
            raise _Budget(msg)
        if self.steps % 256 == 0 and time.monotonic() > self.deadline:
            msg = f"more than {MAX_READ_SECONDS:g} s"  # a hostile file only: scripts take ms
            raise _Budget(msg)

    def note(self, line: int, text: str) -> None:
        self.route.notes.append((self.at or line, text))

    def emit(self, text: str, line: int) -> None:
        if self.captured is not None and not _SUBSHELL_INSTALL.match(text):
            # `$(func)`'s commands: what they print is the value, not the route; only an install
            # outlasts the subshell (it writes into the environment the script shares)
            return
        line = self.at or line  # a sourced file's command: at the script's `source` line
        if len(self.route.commands) >= MAX_COMMANDS:
            msg = f"more than {MAX_COMMANDS} commands"
            raise _Budget(msg)
        self.emitted += len(text)
        if self.emitted > MAX_TOTAL:
            msg = f"commands of more than {MAX_TOTAL} characters in all"
            raise _Budget(msg)
        if self.snapshot is None and self.exported:
            # what a script run now sees: the exported variables with known values (one set
            # from `read` or `$(curl ...)` is unknown there too, so it is not passed)
            self.snapshot = {
                k: v
                for k, v in self.exported.items()
                if v is not None and k not in self.unknown and k not in self.asked
            }
        self.route.commands.append(Command(text=text, line=line, exported=self.snapshot))
        if self.probe is not None:  # what a later file test needs to know, kept as it goes
            words = text.split()
            if words and words[0] in {"cd", "pushd", "popd"}:
                self.moved = True
            self.named.update(w.strip("\"'<>|&;").removeprefix("./") for w in words)


def interpret(
    text: str,
    *,
    kind: Literal["sh", "bat"] = "sh",
    env: dict[str, str] | None = None,
    probe: Callable[[str, str], bool | None] | None = None,
    nvcc: bool = False,
    sourced: Callable[[str], str | None] | None = None,
) -> Route:
    """The default route of a shell script or batch file (see the module docstring).

    `env` holds variables set before the script runs (a Dockerfile's ARG and ENV values);
    `probe` answers a file test on a relative path from the checkout the script runs in (a
    fresh clone: `[ -f environment.yml ]` holds where the repository has that file); `nvcc`:
    the CUDA compiler is on PATH already (a -devel CUDA image), else `nvcc` fails until the
    script installs a toolkit; `sourced` gives the text of a file `source FILE` / `. FILE`
    names (the checkout's own, else None): it runs in the script's own shell, so what it sets
    is the script's (at most _MAX_SOURCED deep, a file once per chain).
    """
    state = _State(
        env={**_MACHINE, **(env or {})}, route=Route(), probe=probe, nvcc=nvcc, sourced=sourced
    )
    state.expand_aliases = _BASH_SHEBANG.match(text) is None
    try:
        if kind == "bat":
            _run_batch(text, state)
        else:
            _run_sh(text, state)
    except _Budget as exc:
        state.route.notes.append(
            (0, f"the script is too big to follow ({exc}); the rest is not read")
        )
    state.route.nvcc = state.nvcc
    return state.route


# A script bash runs by its first line: aliases stay off in it unless it says `shopt -s
# expand_aliases`.
_BASH_SHEBANG: Final = re.compile(r"#![ \t]*+\S*?(?:/env[ \t]++)?bash\b")


# --- POSIX shell (tree-sitter-bash) ------------------------------------------------------------
@functools.cache
def _parser() -> Parser:
    # Imported here: the grammar is a compiled extension only `envgen import` of a script needs.
    import tree_sitter_bash  # noqa: PLC0415 - only when a script is read
    from tree_sitter import Language, Parser  # noqa: PLC0415 - only when a script is read

    return Parser(Language(tree_sitter_bash.language()))


# tree-sitter-bash 0.25.1's scanner reads past its tables on code points of planes 4-16 (a
# `{` before U+D0000 crashed the process with SIGSEGV in 6 of 6 runs of 50 parses; U+3FFFF and
# below never did): those planes hold no shell syntax, so they are read as U+FFFD. Found by
# `make fuzz` (tests/integration/test_shell_native.py).
_UNSAFE_FOR_PARSER: Final = re.compile("[\U00040000-\U0010ffff]")


def _run_sh(text: str, state: _State) -> None:
    text = _UNSAFE_FOR_PARSER.sub("\ufffd", text)
    data = text.encode("utf-8", "surrogatepass")
    deadline = time.monotonic() + MAX_PARSE_SECONDS
    parser = _parser()
    try:
        # The progress callback (which cancels the parse) is only called when the source is read
        # through a callback; a bytestring is parsed to the end however long it takes.
        tree = parser.parse(
            lambda offset, _point: data[offset : offset + _PARSE_CHUNK],
            progress_callback=lambda _offset, _error: time.monotonic() > deadline,
        )
    except ValueError:  # cancelled: "Parsing failed"
        parser.reset()  # else the next parse resumes this one
        msg = f"parsing it took more than {MAX_PARSE_SECONDS:g} s"
        raise _Budget(msg) from None
    _block(tree.root_node.children, state, 0)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _line(node: Node) -> int:
    return int(node.start_point[0]) + 1


def _block(nodes: list[Node], state: _State, depth: int) -> bool | None:
    status: bool | None = True
    for node in nodes:
        if state.stopped:
            break
        if node.is_named and node.type != "comment":
            status = _stmt(node, state, depth)
        else:
            state.step()  # comments count too: 9000 in a function called 6000 times took 20 s
    return status


def _stmt(node: Node, state: _State, depth: int) -> bool | None:  # noqa: PLR0911, PLR0912 - one branch per statement kind
    """Run one statement on the default route; its exit status (None: cannot be known)."""
    state.step()
    if depth > MAX_DEPTH:
        msg = f"blocks or function calls nested more than {MAX_DEPTH} deep"
        raise _Budget(msg)
    kind = node.type
    if kind in {"comment", ";", ";;", "&", "\n", "heredoc_body"} or not node.is_named:
        return True
    if kind == "subshell":
        # `(cd apex && V=1; pip install .)`: a child shell, whose folder, variables and `exit`
        # end with it; its folder change is said to the reader as the pushd/popd pair that
        # scopes it the same way
        with _child_scope(state):
            state.emit("pushd .", _line(node))
            status = _block(node.children, state, depth + 1)
            state.emit("popd", _line(node))
        state.stopped = False
        return status
    if kind in {"program", "compound_statement", "do_group", "ERROR"}:
        return _block(node.children, state, depth + 1)
    if kind == "variable_assignment":
        _assign(node, state)
        return True
    if kind == "unset_command":  # `unset A B`: the variables (and arrays) are gone
        for child in node.children:
            if child.type == "variable_name":
                state.env.pop(_text(child), None)
                state.arrays.pop(_text(child), None)
                state.unknown.discard(_text(child))
        return True
    if kind == "declaration_command":
        exports = _text(node.children[0]) == "export" if node.children else False
        for child in node.children:
            state.step()
            if child.type == "variable_assignment":
                _assign(child, state)
                name = child.child_by_field_name("name")
                if exports and name is not None:
                    _export_name(_text(name), state)
            elif child.type == "variable_name" and exports:
                _export_name(_text(child), state)  # `export X` of a variable set before
        return True
    if kind == "function_definition":
        name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
        if name is not None and body is not None:
            state.functions[_text(name)] = body
            # Decided once: `_installs` asks on every `if`, and a body can be most of the script.
            if _has_install(_text(body)):
                state.installers.add(_text(name))
            else:
                state.installers.discard(_text(name))
        return True
    if kind == "if_statement":
        return _if(node, state, depth)
    if kind == "case_statement":
        return _case(node, state, depth)
    if kind == "list":
        return _list(node, state, depth)
    if kind == "pipeline":
        return _pipeline(node, state, depth)
    if kind == "negated_command":
        inner = [_stmt(c, state, depth + 1) for c in node.children if c.is_named]
        return None if not inner or inner[-1] is None else not inner[-1]
    if kind in {"for_statement", "c_style_for_statement", "while_statement"}:
        return _loop(node, state, depth)
    if kind == "test_command":
        return _test(_text(node), state)
    tested = node.child_by_field_name("body") if kind == "redirected_statement" else node
    if (
        kind in {"command", "redirected_statement"}
        and tested is not None
        and tested.type == "command"
        and _text(tested).split(None, 1)[:1] == ["test"]
    ):
        # `test -d venv || virtualenv venv` (`2>/dev/null` too): the builtin `[` is, without
        # the brackets
        return _test(_text(tested)[len("test") :], state)
    if kind in {"command", "redirected_statement"}:
        return _command(node, state, depth)
    return True


def _pipeline(node: Node, state: _State, depth: int) -> bool | None:
    """A pipeline's status is its last command's; `! a | b` negates the whole pipeline (the
    grammar hangs the `!` on its first command)."""
    parts = [c for c in node.children if c.is_named]
    negated = bool(parts) and parts[0].type == "negated_command"
    if negated:
        parts = [c for c in parts[0].children if c.is_named] + parts[1:]
    if not negated and len(parts) > 1 and parts[-1].type == "list":
        # tree-sitter-bash reads `a | b | c || d` as `a | (b | c || d)`: the pipeline `a | b |
        # c` is the chain's first part, whose status the lookup decides, then `|| d`
        chain = _chain(parts[-1])
        for c in parts[:-1]:
            _stmt(c, state, depth + 1)
        status = _stmt(chain[0], state, depth + 1)
        cut = chain[1].start_byte - node.start_byte if len(chain) > 1 else 0
        head = (node.text or b"")[:cut].decode("utf-8", "replace")
        if _FRESH_LOOKUP.search(head):
            status = False
        return _rest_of_chain(chain, status, state, depth)
    statuses = [_stmt(c, state, depth + 1) for c in parts]
    text = _text(node).lstrip().removeprefix("!") if negated else _text(node)
    status = statuses[-1] if statuses else True
    if _FRESH_LOOKUP.search(text):
        status = False  # `conda env list | grep NAME`: nothing is installed on a fresh machine
    return (None if status is None else not status) if negated else status


_MAX_EXPORTED: Final = 256


def _export_name(name: str, state: _State) -> None:
    """`export NAME`: the scripts this one runs see NAME (at most _MAX_EXPORTED names)."""
    if name in state.exported or len(state.exported) < _MAX_EXPORTED:
        state.exported[name] = state.env.get(name)
        state.snapshot = None


def _assign(node: Node, state: _State) -> None:
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    if name is None:
        return
    key = _text(name)
    append = _text(node)[len(key) :].startswith("+=")  # `A+=x`, `A+=(x y)`
    if value is not None and value.type == "array":
        # `ARGS=(-n "$ENV" --live-stream)`: "${ARGS[@]}" is its elements, $ARGS the first
        elements, known = _array_elements(value, state)
        if append:
            before = state.arrays.get(key, [state.env[key]] if key in state.env else [])
            elements = [*before, *elements][:_MAX_ELEMENTS]
        state.arrays[key] = elements
        state.env[key] = elements[0] if elements else ""
        if known and (not append or key not in state.unknown):
            state.unknown.discard(key)
        else:
            state.unknown.add(key)
        return
    text, known = _expand_known(_word(value), state) if value is not None else ("", True)
    if append:
        text = (state.env.get(key, "") + text)[:MAX_VALUE]
    state.env[key] = text
    if key in state.arrays:  # `A=x` of an array sets its first element
        state.arrays[key] = [text, *state.arrays[key][1:]]
    if key in state.exported:  # an exported variable stays exported
        state.exported[key] = text
        state.snapshot = None
    if known and (not append or key not in state.unknown):
        state.unknown.discard(key)
    else:
        state.unknown.add(key)  # `ENVS=$(conda env list)`: a test on it is unknown
    if key == "PATH":
        # which programs run from here on (a conda's bin first): the reader follows it
        state.emit(f"export PATH={shlex.quote(text)}", _line(node))


def _array_elements(value: Node, state: _State) -> tuple[list[str], bool]:
    """An array literal's elements, expanded (`"${A[@]}"` splices A's), and whether all are
    known: at most _MAX_ELEMENTS of them and MAX_VALUE characters in all."""
    out: list[str] = []
    known, size = True, 0
    for element in value.named_children:
        if element.type == "comment":
            continue
        spliced = _ARRAY_ALL.fullmatch(_text(element))
        if spliced is not None and spliced.group("name") in state.arrays:
            parts = list(state.arrays[spliced.group("name")])
            known = known and spliced.group("name") not in state.unknown
        else:
            text, part_known = _expand_known(_word(element), state)
            parts, known = [text], known and part_known
        for part in parts:
            state.step()
            size += len(part) + 1
            if size > MAX_VALUE:
                msg = f"an array longer than {MAX_VALUE} characters"
                raise _Budget(msg)
            if len(out) < _MAX_ELEMENTS:
                out.append(part)
    return out, known


def _word(node: Node) -> str:
    """A word's text without its outer quotes (expansion reads the rest)."""
    text = _text(node)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1] if text[0] == '"' else text[1:-1].replace("$", "\x00")
    return text


def _command(node: Node, state: _State, depth: int) -> bool | None:  # noqa: PLR0911 - one return per builtin
    body = node.child_by_field_name("body") if node.type == "redirected_statement" else node
    if body is None:
        return True
    if body.type != "command":
        return _stmt(body, state, depth + 1)
    name_node = body.child_by_field_name("name")
    name = _expand(_text(name_node), state) if name_node is not None else ""
    if name in {"alias", "unalias"}:
        _alias(body, state, remove=name == "unalias")
        return True
    if name == "shopt" and "expand_aliases" in _text(body):
        state.expand_aliases = "-s" in _text(body).split()
    defined = state.aliases.get(name)
    alias = (
        defined[0]
        if defined is not None
        and name_node is not None
        and state.expand_aliases
        and defined[1] < _line(node)
        and _text(name_node) == name  # a literal word: `$X install` is never an alias
        else None
    )
    if alias is not None:
        name = alias.split()[0] if alias.split() else name
        if name in state.functions and len(alias.split()) == 1:
            return _call(name, body, state, depth)  # `alias s=setup` of a function
    if name in state.functions and alias is None:
        return _call(name, body, state, depth)
    if name == "exit":
        state.stopped = True
        return True
    if name == "return" and (state.calls or state.sourcing):
        state.stopped = state.returning = True  # unwinds to the function or sourced file
        return True
    if name == "read":
        _read_names(body, state)
    if name in {"source", "."} and _source(body, state, _line(node)):
        return True
    if name in _QUIET and name not in {"cd", "pushd", "popd"}:  # emitted: where files are read
        if state.captured is not None and name in {"echo", "printf"} and not _to_elsewhere(node):
            _capture(name, body, state)  # what `$(func)` reads
        return _command_status(name, name, nvcc=state.nvcc)
    heredoc = any(c.type == "heredoc_redirect" for c in node.children)
    source = body if heredoc or node is body else node  # a heredoc's body is data, not commands
    raw = _text(source)
    if alias is not None and name_node is not None:
        # the alias's words in place of its name (sh expands aliases in scripts, as a
        # Singularity %post runs them; bash with `shopt -s expand_aliases`)
        data = source.text or b""
        cut, end = name_node.start_byte - source.start_byte, name_node.end_byte - source.start_byte
        raw = data[:cut].decode("utf-8", "replace") + alias + data[end:].decode("utf-8", "replace")
    text = _expand(raw.replace("\\\r\n", " ").replace("\\\n", " "), state)
    state.emit(text, _line(node))
    status = _command_status(name, text, nvcc=state.nvcc)
    if _INSTALLS_NVCC.search(text):
        state.nvcc = True
    return status


_MAX_ALIASES: Final = 256


def _alias(body: Node, state: _State, *, remove: bool = False) -> None:
    """`alias NAME=VALUE ...` (a double-quoted or bare value expanded now, as the shell does;
    a single-quoted one when used): later commands named NAME run VALUE's words, at most
    _MAX_ALIASES names of at most MAX_VALUE characters; `unalias NAME` removes it."""
    for word in body.children[1:]:
        state.step()
        text = _text(word)
        if remove:
            state.aliases.pop(text, None)
            continue
        key, eq, value = text.partition("=")
        if len(value) >= 2 and value[0] == value[-1] == "'":
            value = value[1:-1]
        else:
            value = _expand(value[1:-1] if value[:1] == value[-1:] == '"' else value, state)
        fits = key in state.aliases or len(state.aliases) < _MAX_ALIASES
        if eq and re.fullmatch(r"[\w.-]+", key) and len(value) <= MAX_VALUE and fits:
            state.aliases[key] = (value, _line(body))


# `read` options that take a value (bash's `help read`).
_READ_VALUE: Final = frozenset({"-a", "-d", "-i", "-n", "-N", "-p", "-t", "-u"})


def _read_names(body: Node, state: _State) -> None:
    """The variables `read [-p PROMPT] NAME...` sets from what the user types: asked, not known."""
    words = [_text(n) for n in body.children_by_field_name("argument")]
    i = 0
    while i < len(words):
        if words[i] in _READ_VALUE:
            i += 2
            continue
        if not words[i].startswith("-") and re.fullmatch(r"[A-Za-z_]\w*", words[i]):
            state.asked.add(words[i])
            state.env.pop(words[i], None)
        i += 1


def _call(name: str, body: Node, state: _State, depth: int) -> bool | None:
    """A call of the script's own function: its body, with the call's arguments as $1 ...."""
    if name in state.calls:
        return True  # a recursive call: its body is already being read
    state.calls.append(name)
    state.args.append(_call_arguments(body, state)[:_MAX_ARGS])
    try:
        return _block([state.functions[name]], state, depth + 1)
    finally:
        state.calls.pop()
        state.args.pop()
        _returned(state)


def _returned(state: _State) -> None:
    """A function or sourced file ended: a `return` in it stops nothing after it."""
    if state.returning:
        state.stopped = state.returning = False


_MAX_SOURCED: Final = 4
# What one script may source in all: files and their characters (each is parsed again).
_MAX_SOURCINGS: Final = 64
_MAX_SOURCED_CHARS: Final = 2 * 1024 * 1024


def _source(body: Node, state: _State, line: int) -> bool:
    """`source FILE` / `. FILE` of a file of the checkout: read in this shell (its variables,
    functions and exports are the script's from here on). False where it is not read so (no
    such file, too deep, a file already being sourced): the command is emitted as it is."""
    words = _call_arguments(body, state)
    if state.sourced is None or not words or len(state.sourcing) >= _MAX_SOURCED or state.moved:
        return False  # after a `cd`, the folder the path is relative to is not known
    if words[0] in state.sourcing:
        return True  # a file sourcing itself again: bash would loop; read once
    if state.sourcings >= _MAX_SOURCINGS or state.sourced_chars >= _MAX_SOURCED_CHARS:
        state.note(
            0,
            f"more than {_MAX_SOURCINGS} sourced files or {_MAX_SOURCED_CHARS // 2**20} MiB of "
            "them; the rest not read",
        )
        return True
    text = state.sourced(words[0])
    if text is None:
        return False
    state.sourcings += 1
    state.sourced_chars += len(text)
    state.sourcing.append(words[0])
    outer = state.at
    state.at = outer or line  # its commands are the script's, at the line that sources it
    saved = state.args
    state.args = [*saved, words[1:]] if len(words) > 1 else saved  # `source f a b`: $1 $2
    try:
        _run_sh(text, state)
    finally:
        state.sourcing.pop()
        state.at = outer
        state.args = saved
        _returned(state)
    return True


def _call_arguments(body: Node, state: _State) -> list[str]:
    """The words a function is called with (`inst 1.13.1`; `"$@"` passes the caller's own):
    each argument node expanded, so an assignment before the name (`FORCE=1 inst x`) is none of
    them. At the top level the script's own `$@` is no word (no arguments on the default route);
    an argument that cannot be known keeps its text."""
    out: list[str] = []
    for node in body.children_by_field_name("argument"):
        raw = _text(node)
        if raw in {"$@", '"$@"', "$*", '"$*"'}:
            out.extend(state.args[-1] if state.args else [])
            continue
        value, known = _expand_known(raw, state)
        if not known and not state.args and re.search(r"\$\{?[\d@*#]", raw):
            continue  # the script's own arguments: none on the default route
        try:
            out.extend(shell_words(value) or [""])
        except ValueError:
            out.append(value)
    return out


# An install that puts the CUDA compiler on PATH (conda's cuda-nvcc / cuda-toolkit /
# cudatoolkit-dev into the active environment, Ubuntu's nvidia-cuda-toolkit into /usr/bin): `nvcc`
# works after it. NVIDIA's apt cuda-toolkit-X-Y and runfile install to /usr/local/cuda-X.Y/bin, and
# pip's nvidia-cuda-nvcc into site-packages: none of them on PATH.
# An install command a `$(func)` subshell runs: the packages stay installed after it returns
# (its cd, activation and variables do not).
_SUBSHELL_INSTALL: Final = re.compile(
    r"^\s*(?:\S*/)?(?:pip[\d.]*|uv\s+pip|(?:python|py)[\d.]*\s+-m\s+pip|conda|mamba|micromamba)"
    r"\s+(?:\S+\s+)*?install\s"
)
_INSTALLS_NVCC: Final = re.compile(
    r"\b(?:conda|mamba|micromamba)\b.*\b(?:install|create)\b.*(?<![\w-])(?:cuda-nvcc|cuda-toolkit|"
    r"cudatoolkit-dev|cuda-compiler)(?![\w-])|\bapt(?:-get)?\b.*\binstall\b.*\bnvidia-cuda-toolkit\b"
)


# An HPC cluster's environment modules (Lmod's `module`, `ml`) and scheduler (Slurm): a lookup of
# one fails on the default route, a fresh machine (`type module &>/dev/null && module load ...`).
_HPC_TOOL: Final = re.compile(r"(?<![\w-])(module|ml|sbatch|srun|squeue|salloc|spack)\b(?![\w-])")


def _command_status(name: str, text: str, *, nvcc: bool = False) -> bool | None:  # noqa: PLR0911
    """What a command exits with on the default route, where that is known without running it
    (`nvcc`: the CUDA compiler is on PATH)."""
    tool = name.rsplit("/", 1)[-1]
    if _FRESH_LOOKUP.search(text):
        return False  # `python -c "import torch"`, `pip show x`: a fresh machine has neither
    if tool in {"true", ":"}:
        return True
    if tool == "false":
        return False
    if tool == "getopts":
        return False  # no arguments on the default route: no option to read
    if tool == "nvcc" or (
        tool in {"command", "which", "type", "hash"} and re.search(r"(?<![\w-])nvcc\b", text)
    ):
        # the CUDA toolkit's compiler: a fresh machine with an NVIDIA GPU has the driver
        # (nvidia-smi), not the toolkit, until the script installs it or an image brings it
        return nvcc
    if tool in {"command", "which", "type", "hash"} and _HPC_TOOL.search(text):
        return False  # a cluster's module system or scheduler: not on a fresh machine
    if tool in {"command", "which", "type", "hash", "nvidia-smi", "lspci", "grep", "egrep"}:
        rest = text.split(None, 1)[1] if " " in text else ""
        if tool == "nvidia-smi" or _NVIDIA.search(rest):
            return True
        if _OTHER_HW.search(rest) or tool in {"rocm-smi", "rocminfo"}:
            return False
        return True if tool in {"command", "which", "type", "hash"} else None
    return tool not in {"rocm-smi", "rocminfo"}


def _list(node: Node, state: _State, depth: int) -> bool | None:
    parts = _chain(node)
    status = _stmt(parts[0], state, depth + 1) if parts else True
    return _rest_of_chain(parts, status, state, depth)


def _rest_of_chain(
    parts: list[Node], status: bool | None, state: _State, depth: int
) -> bool | None:
    """The `&& b || c` after a chain's first part, which ended with `status`."""
    i = 1
    while i + 1 < len(parts):
        op, right = parts[i].type, parts[i + 1]
        runs = status is not False if op == "&&" else status is False
        if runs:
            status = _stmt(right, state, depth + 1)
        else:
            _alternatives(right, state, f"the other side of {op} on line {_line(parts[i])}")
        i += 2
    return status


def _chain(node: Node) -> list[Node]:
    """`a && b || c && ...` as one flat list [a, op, b, op, c, ...]: the grammar nests a chain to
    the left, one level per operator, and a Dockerfile RUN of 80 `&&` is not 80 blocks deep."""
    tails: list[list[Node]] = []
    head = node
    while head.type == "list" and head.children:
        tails.append(list(head.children[1:]))
        head = head.children[0]
    return [head, *(part for tail in reversed(tails) for part in tail)]


def _if_branches(node: Node) -> list[tuple[list[Node], list[Node], str]]:
    """(condition, body, label) of each branch of an if statement, in order."""
    branches: list[tuple[list[Node], list[Node], str]] = []
    cond: list[Node] = []
    body: list[Node] = []
    in_body = False
    for i, child in enumerate(node.children):
        if node.field_name_for_child(i) == "condition":
            cond.append(child)
        elif child.type == "then":
            in_body = True
        elif child.type in {"elif_clause", "else_clause"}:
            branches.extend(_clause(child))
        elif in_body and child.type not in {"fi", "if"}:
            body.append(child)
    return [(cond, body, f"if on line {_line(node)}"), *branches]


def _if(node: Node, state: _State, depth: int) -> bool | None:
    """Take the first branch whose condition holds; the rest are alternatives."""
    branches = _if_branches(node)
    taken: int | None = None
    unknown: list[Node] = []
    first_unknown: int | None = None
    for index, (condition, branch_body, _label) in enumerate(branches):
        if not condition:  # else
            # an `else` that only stops (`exit 127` when neither mamba nor conda is found) is
            # the error path: an unknown branch that goes on is the default route
            taken = index
            if first_unknown is not None and _branch_stops(branch_body, state):
                taken = None
            break
        answered = state.answered
        status = _block(condition, state, depth + 1)
        if status is not None and state.answered > answered:
            status = _precondition(status, branches, index, state)
        if status is None:
            # Cannot be known: the branch that installs something is the one to read (the
            # default route's machine is a fresh one), else the next branch is tried.
            unknown = condition
            if first_unknown is None and not _branch_stops(branch_body, state):
                first_unknown = index
            if not _installs(branch_body, state):
                continue
        if status is not False:
            taken = index
            break
    if taken is None:
        taken = first_unknown
    before = len(state.route.alternatives)
    for index, (_, branch_body, label) in enumerate(branches):
        if index == taken:
            _block(branch_body, state, depth + 1)
        else:
            for part in branch_body:
                _alternatives(part, state, label)
    if unknown and taken is not None and len(state.route.alternatives) > before:
        state.note(
            _line(unknown[0]),
            f"the condition `{_short(unknown)}` cannot be known without running the script; "
            f"the default route takes the branch that installs ({branches[taken][2]})",
        )
    return True


def _precondition(
    status: bool, branches: list[tuple[list[Node], list[Node], str]], index: int, state: _State
) -> bool | None:
    """A file test the checkout answered (or `$#`, no arguments on the default route), whose
    answer leads only to a failing exit (`if [ -d venv ]; then source venv/bin/activate; else
    echo "run setup.sh first"; exit 1; fi`, `if [ ! -f .env ]; then exit 1; fi`, `if [ $# -lt 2
    ]; then echo usage; exit 1; fi`): a precondition the user meets before running the script
    (a folder another step makes, the arguments the usage asks for), so it is not known (None),
    and the route that goes on is read. Otherwise the answer stands."""
    rest = branches[index + 1 :]
    if rest and (rest[0][0] or len(rest) > 1):
        return status  # an elif follows: the chain is read as it is
    otherwise = rest[0][1] if rest else []
    taken, other = (branches[index][1], otherwise) if status else (otherwise, branches[index][1])
    if _error_exit(taken, state) and not _branch_stops(other, state):
        return None
    return status


# An exit with a failing status (`exit 1`, `return 2`, `exit $?`): an error handler's.
_FAILS: Final = re.compile(r"(?m)^[ \t]*(?:exit|return)[ \t]+(?!0\b)[^\s;)]+")


def _nvidia_branch(nodes: list[Node], state: _State) -> bool:
    """The branch names NVIDIA's hardware (`install_nvidia_cuda`, `echo "NVIDIA GPU"`), no
    other's, and installs something."""
    text = "\n".join(_text(n) for n in nodes)
    return (
        _NVIDIA.search(text) is not None
        and _OTHER_HW.search(text) is None
        and _installs(nodes, state)
    )


def _error_exit(nodes: list[Node], state: _State) -> bool:
    """The branch fails the script (`echo "run setup.sh first"; exit 1`) and installs nothing;
    a branch that does its work and then returns (`uv venv ...; return`) is no error."""
    text = "\n".join(_text(n) for n in nodes)
    return _FAILS.search(text) is not None and not _installs(nodes, state)


def _branch_stops(nodes: list[Node], state: _State) -> bool:
    """The branch ends the script (`exit`, `return`) and installs nothing: an error handler
    (`echo "conda not found"; exit 1`), which the default route never takes on a guess."""
    return _ends_script("\n".join(_text(n) for n in nodes)) and not _installs(nodes, state)


# A line that ends the script or function: sh `exit` / `return`; batch `exit` / `goto :eof`,
# after an optional `(` that opens the batch block (in sh, `(exit 1)` ends only its subshell).
_ENDS: Final = re.compile(r"(?m)^[ \t]*(exit|return)\b")
_BAT_ENDS: Final = re.compile(r"(?im)^[ \t]*(?:\([ \t]*)?(exit\b|goto[ \t]+:?eof\b)")


def _ends_script(text: str, *, batch: bool = False) -> bool:
    r"""Some line of `text` ends the script (or the function it is in).

    >>> _ends_script("echo conda not found\nexit 1"), _ends_script("(goto :eof", batch=True)
    (True, True)
    >>> _ends_script("pip install x"), _ends_script("(exit 1)")
    (False, False)
    """
    return (_BAT_ENDS if batch else _ENDS).search(text) is not None


def _installs(nodes: list[Node], state: _State) -> bool:
    """Some install command runs in `nodes` (directly or through a function they call)."""
    text = "\n".join(_text(n) for n in nodes)
    if _has_install(text):
        return True
    words = set(re.findall(r"[\w.-]+", text))
    return not words.isdisjoint(state.installers)


def _test(text: str, state: _State) -> bool | None:
    """`[ ... ]`, `[[ ... ]]`: string tests on known values; file tests cannot be known."""
    body = text.strip()
    for open_, close in (("[[", "]]"), ("[", "]")):
        if body.startswith(open_) and body.endswith(close):
            body = body[len(open_) : -len(close)]
            break
    value, known = _expand_known(body, state)
    if not known:
        return _hardware(value)
    words = shell_words(value)
    if len(words) > _MAX_TEST_WORDS:
        return None  # a test no install script writes (`! ! ! ...`, 1,500 `-o` terms): unknown
    return _test_words(words, state)


_MAX_TEST_WORDS: Final = 64


def _test_words(words: list[str], state: _State) -> bool | None:  # noqa: PLR0911 - one return per test form
    for op in ("||", "-o"):
        if op in words:
            i = words.index(op)
            left, right = _test_words(words[:i], state), _test_words(words[i + 1 :], state)
            return True if True in (left, right) else (None if None in (left, right) else False)
    for op in ("&&", "-a"):
        if op in words:
            i = words.index(op)
            left, right = _test_words(words[:i], state), _test_words(words[i + 1 :], state)
            return False if False in (left, right) else (None if None in (left, right) else True)
    if words[:1] == ["!"]:
        inner = _test_words(words[1:], state)
        return None if inner is None else not inner
    if len(words) == 2 and words[0] in _FILE_TESTS:
        return _file_test(words[0], words[1], state)
    if len(words) == 3 and words[1] in {"=", "==", "!=", "=~"}:
        lhs, op, rhs = words
        if op == "=~":
            try:
                return re.search(rhs, lhs) is not None
            except re.error:
                return None
        same = fnmatch.fnmatchcase(lhs, rhs)
        return same if op != "!=" else not same
    if len(words) == 3 and words[1] in {"-eq", "-ne", "-lt", "-le", "-gt", "-ge"}:
        try:
            a, b = int(words[0]), int(words[2])
        except ValueError:
            return None
        return _compare({"-eq": "EQU", "-ne": "NEQ", "-lt": "LSS", "-le": "LEQ", "-gt": "GTR",
                         "-ge": "GEQ"}[words[1]], a, b)  # fmt: skip
    if len(words) == 2 and words[0] in {"-z", "-n"}:
        return (words[1] == "") == (words[0] == "-z")
    if len(words) == 1:
        return words[0] != ""
    if len(words) == 0:
        return False
    return None  # -x, -nt ...: the file system of a machine envgen does not see


_FILE_TESTS: Final = frozenset({"-e", "-f", "-d", "-r", "-s"})
_MAX_PROBES: Final = 256  # distinct file tests one script may ask of the checkout


def _file_test(test: str, path: str, state: _State) -> bool | None:
    """`-f environment.yml`: known for a relative path in the repository the script starts in,
    before it changes folder or names the path itself (a file it writes, a clone it makes)."""
    if state.probe is None or not path or path.startswith(("/", "~", "-")) or "$" in path:
        return None
    if state.moved or path.removeprefix("./") in state.named:
        return None
    key = (test, path)
    if key not in state.probed and len(state.probed) < _MAX_PROBES:
        state.probed[key] = state.probe(test, path)
    answer = state.probed.get(key)
    state.answered += answer is not None
    return answer


def _hardware(text: str) -> bool | None:
    """A condition on something unknown: about NVIDIA it holds, about other hardware not."""
    if _NVIDIA.search(text):
        return True
    if _OTHER_HW.search(text):
        return False
    return None


def _clause(node: Node) -> list[tuple[list[Node], list[Node], str]]:
    cond: list[Node] = []
    body: list[Node] = []
    in_body = node.type == "else_clause"
    for i, child in enumerate(node.children):
        if child.type in {"elif", "else"}:
            continue
        if child.type == "then":
            in_body = True
        elif not in_body or node.field_name_for_child(i) == "condition":
            cond.append(child)
        else:
            body.append(child)
    word = "elif" if node.type == "elif_clause" else "else"
    return [(cond, body, f"{word} on line {_line(node)}")]


def _short(nodes: list[Node]) -> str:
    text = " ".join(_text(n) for n in nodes if n.type != ";").strip()
    return text if len(text) <= 60 else text[:57] + "..."


def _case(node: Node, state: _State, depth: int) -> bool | None:
    value_node = node.child_by_field_name("value")
    raw = _text(value_node) if value_node is not None else ""
    value, known = _expand_known(_word(value_node) if value_node is not None else "", state)
    items = [c for c in node.children if c.type == "case_item"]
    patterns = [
        [
            _expand(_word(p), state)
            for i, p in enumerate(item.children)
            if item.field_name_for_child(i) == "value"
        ]
        for item in items
    ]
    bodies = [
        [
            c
            for i, c in enumerate(item.children)
            if item.field_name_for_child(i) not in {"value", "termination"}
            and c.type not in {")", "|", ";;", "(", ";&", ";;&"}
        ]
        for item in items
    ]
    taken: int | None = None
    if known:
        taken = next(
            (
                i
                for i, pats in enumerate(patterns)
                if any(fnmatch.fnmatchcase(value, p) for p in pats)
            ),
            None,
        )
    if taken is None:
        nvidia = next(
            (i for i, pats in enumerate(patterns) if any(_NVIDIA.search(p) for p in pats)), None
        )
        if nvidia is None and not known:
            # a menu the user answers (`read -p "Enter choice" c; case $c in 1) install_cuda`):
            # the branch whose commands name NVIDIA's hardware and no other's
            nvidia = next((i for i, body in enumerate(bodies) if _nvidia_branch(body, state)), None)
        fallback = next((i for i, pats in enumerate(patterns) if "*" in pats), None)
        kind = "default (*)"
        if (
            nvidia is None
            and not known
            and (fallback is None or _branch_stops(bodies[fallback], state))
        ):
            # no branch names NVIDIA and the default one only fails: the first that installs
            first = next((i for i, body in enumerate(bodies) if _installs(body, state)), None)
            if first is not None:
                fallback, kind = first, "first installing"
        taken = nvidia if nvidia is not None else fallback
        if taken is not None:
            said = (
                "cannot be known without running the script"
                if not known
                else (f"is {value!r} with no arguments and no branch matches it")
            )
            state.note(
                _line(node),
                f"case {excerpt_text(raw)} {said}; the default route takes the "
                f"{'NVIDIA' if taken == nvidia else kind} branch "
                f"({'|'.join(patterns[taken])})",
            )
    for index, body in enumerate(bodies):
        if index == taken:
            _block(body, state, depth + 1)
        else:
            for part in body:
                _alternatives(part, state, f"case {'|'.join(patterns[index])}")
    return True


def _loop(node: Node, state: _State, depth: int) -> bool | None:
    body = node.child_by_field_name("body")
    if body is None:
        return True
    variable = node.child_by_field_name("variable")
    values = [c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "value"]
    if node.type == "for_statement" and variable is not None and values:
        for value in values:  # each item once: the body sees each package
            for word in _expand(_word(value), state).split():
                state.env[_text(variable)] = word
                _block([body], state, depth + 1)
        return True
    if node.type == "for_statement" and variable is not None and not _has_in(node):
        # `for opt; do` runs over the arguments: a function's own, none at the top level on the
        # default route (an option loop), where the body never runs and its commands are
        # alternatives (the flags' routes)
        if state.args:
            for word in state.args[-1]:
                state.env[_text(variable)] = word
                _block([body], state, depth + 1)
        else:
            _alternatives(body, state, f"for loop of line {_line(node)} over no arguments")
        return True
    if node.type == "while_statement":
        # The condition runs first: `while getopts ...` and `while [ $# -gt 0 ]` (an option
        # loop) find no arguments on the default route, so the body never runs and its install
        # commands are alternatives (the flags' routes). An `until` loop runs while it fails.
        condition = [
            c for i, c in enumerate(node.children) if node.field_name_for_child(i) == "condition"
        ]
        status = _block(condition, state, depth + 1)
        until = any(c.type == "until" for c in node.children)
        if status is not None and status == until:
            _alternatives(
                body,
                state,
                f"{'until' if until else 'while'} loop of line "
                f"{_line(node)}, not entered on the default route",
            )
            return True
    _block([body], state, depth + 1)  # a loop's body, once
    return True


def _has_in(node: Node) -> bool:
    """A `for NAME in WORDS` (even with no words), not `for NAME` (the arguments)."""
    return any(c.type == "in" for c in node.children)


def _alternatives(node: Node, state: _State, branch: str) -> None:
    """The install commands under `node` (a branch not taken), without running anything."""
    stack = [node]
    while stack:
        current = stack.pop()
        state.step()
        if current.type in {"command", "redirected_statement"}:
            text = _text(current)
            if _has_install(text) and len(state.route.alternatives) < MAX_ALTERNATIVES:
                line = " ".join(text.replace("\\\n", " ").split())
                state.route.alternatives.append(
                    Alternative(
                        text=_expand(line, state), line=state.at or _line(current), branch=branch
                    )
                )
            continue
        stack.extend(reversed(current.children))


# --- expansion -----------------------------------------------------------------------------------
# A default word holds no `${` of its own: a nested `${A:-${1:-3.11}}` expands from the inside out.
_PARAM: Final = re.compile(
    r"\$\{(#?)([A-Za-z_]\w*|\d+|[@*#?])(?:(:?[-=+?])((?:[^}$]|\$(?!\{))*))?\}"
    r"|\$([A-Za-z_]\w*|\d|[@*#?])"
)
_NESTING: Final = 4  # how deep `${A:-${B:-...}}` defaults are expanded


def _expand(text: str, state: _State) -> str:
    return _expand_known(text, state)[0]


def _expand_known(text: str, state: _State, depth: int = 0) -> tuple[str, bool]:
    """`text` with $VAR, ${VAR:-x}, $(uname) expanded; False when a part cannot be known."""
    known = True
    if "BASH_SOURCE" in text and "0" in state.env:
        text = _BASH_SOURCE.sub("${0}", text)
    if "[" in text and state.arrays:
        text = _ARRAY_ALL.sub(lambda m: _array_words(m, state), text)
    out = _substitutions(text, state, depth)
    if "\x01" in out:
        known = False
        out = out.replace("\x01", "")

    def param(m: re.Match[str]) -> str:
        nonlocal known
        name = m.group(2) or m.group(5)
        op, word = m.group(3), m.group(4) or ""
        value = state.env.get(name)
        if name in state.unknown:
            known = False
            if op is None and not m.group(1) and _PIP_VARIABLE.fullmatch(name):
                # `PIP=/usr/bin/$(ls /usr/bin | grep 'pip.*3')`, then `sudo ${PIP} install`:
                # a value the script finds on the machine, which its name says is a pip
                return "pip"
        if name in state.asked and name not in state.env and op is None and not m.group(1):
            known = False
            # what the user types: a whole word stays (`conda create -n $env_name`); inside a
            # word (`torch==1.8.1+cu${CUDA}`) it is unknown, as an unset variable is
            before = m.string[m.start() - 1] if m.start() else " "
            after = m.string[m.end()] if m.end() < len(m.string) else " "
            return m.group(0) if before in " \t\"'=" and after in " \t\"';" else ""
        if name == "0" and "0" in state.env:
            pass  # the script's own path, as it was run
        elif state.args and (
            name in {"@", "*", "#"} or (name.isdigit() and 0 < int(name) <= len(state.args[-1]))
        ):
            # a function's own arguments (`run_command conda install -y $@` runs them)
            args = state.args[-1]
            if name in {"@", "*"}:
                value = " ".join(args)
            else:
                value = str(len(args)) if name == "#" else args[int(name) - 1]
        elif name == "#":
            value = "0"  # no arguments on the default route
            # an assumption, as a file test's answer is: a usage check that only fails on it
            # (`[ $# -lt 2 ] && exit 1`) is a precondition the user meets
            state.answered += 1
        elif name.isdigit() or name in {"@", "*"}:
            value = None  # no arguments on the default route
            if op is None and not m.group(1):
                # What a user would pass is not known: the word stays ($1), so `conda create -n
                # $1 python=3.8` keeps its shape, and a test on it cannot be decided.
                known = False
                return m.group(0) if name.isdigit() else ""
        if m.group(1):
            return str(len(value or ""))
        if op in {":-", "-"} and (value is None or (op == ":-" and not value)):
            return word  # a default word: its own `${1:-3.11}` is expanded on the next pass
        if op in {":=", "="} and (value is None or (op == ":=" and not value)):
            value = state.env[name] = word[:MAX_VALUE]
        elif op in {":+", "+"}:
            return word if value else ""
        # A variable's value is not expanded again (bash expands once): its `$` is kept apart.
        return (value or "").replace("$", "\x00")

    out = _PARAM.sub(param, out)
    for _ in range(_NESTING):
        if "${" not in out:
            break
        out = _PARAM.sub(param, out)
    if len(out) > MAX_VALUE:
        msg = f"a value longer than {MAX_VALUE} characters"
        raise _Budget(msg)
    return out.replace("\x00", "$"), known


def _substitutions(text: str, state: _State | None = None, depth: int = 0) -> str:
    """$(cmd) and `cmd`: what `uname` says on the default route, and the path words of
    `dirname`/`basename`/`realpath` of a known path (`$(dirname "$0")`, nested too); anything
    else is unknown."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text.startswith("$(", i) and not text.startswith("$((", i):
            level, j = 1, i + 2
            while j < len(text) and level:
                level += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            out.append(_substitute_command(text[i + 2 : j - 1], state, depth))
            i = j
        elif text[i] == "`":
            j = text.find("`", i + 1)
            j = len(text) if j < 0 else j
            out.append(_substitute_command(text[i + 1 : j], state, depth))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


_NESTED_SUBSTITUTIONS: Final = 4


# A variable that names the pip a script runs (PIP, PIP3, PIP_CMD, pip_bin): where its value is
# found on the machine (unknown here), `$PIP install` is still pip's.
_PIP_VARIABLE: Final = re.compile(r"(?i)pip3?(?:_?(?:cmd|bin|exe|path|command))?")
# `$(which pip3)`, `$(command -v python3)`: where an installer or interpreter is on PATH, which
# runs as its name does (the path itself is the machine's)
_WHICH_TOOL: Final = re.compile(
    r"^(?:which|command\s+-v|type\s+-[pP])\s+"
    r"((?:pip|python)(?:\d+(?:\.\d+)?)?|conda|mamba|micromamba|uv)\s*$"
)


def _substitute_command(command: str, state: _State | None = None, depth: int = 0) -> str:
    """What `$(command)` prints on the default route: a known answer (`uname -m`, `which pip3`:
    the program's name), a script's function, a path word or a text pipeline; else unknown
    (`\\x01`).

    >>> _substitute_command("which pip3"), _substitute_command("command -v python3.8")
    ('pip3\\x01', 'python3.8\\x01')
    """
    for pattern, value in _SUBST:
        if pattern.match(command.strip()):
            return value
    which = _WHICH_TOOL.match(command.strip())
    if which is not None:
        # run as a command word it is the program; tested (`[ -z "$(which conda)" ]`), whether
        # the machine has it stays unknown
        return f"{which.group(1)}\x01"
    name = command.strip()
    if (
        state is not None
        and name in state.functions
        and state.captured is None
        and depth < _NESTED_SUBSTITUTIONS
    ):
        return _function_output(name, state, depth)
    if _NVIDIA.search(command) and re.search(r"\b(nvidia-smi|lspci)\b", command):
        return "NVIDIA"
    if state is not None and depth < _NESTED_SUBSTITUTIONS:
        path = _path_word(command, state, depth + 1)
        if path is not None:
            return path
        piped = _text_pipeline(command, state, depth + 1)
        if piped is not None:
            return piped
    return "\x01"  # marks the value unknown


def _function_output(name: str, state: _State, depth: int) -> str:
    """What `$(name)` prints: the script's function run in a subshell on the default route
    (its variables, `exit` and commands stay there), the lines its echo / printf print, the
    trailing newline dropped; unknown where a printed word is (`\x01`).

    >>> route = interpret("os() {\\n if [ $(uname -s) = Linux ]; then echo linux-cpu; fi\\n}\\n"
    ...                   "P=$(os)\\nif [ $P = linux-cpu ]; then pip install cpu; fi\\n", env={})
    >>> [c.text for c in route.commands]
    ['pip install cpu']
    """
    if name in state.calls:
        return "\x01"  # a recursive call
    saved = (state.stopped, state.returning)
    state.captured = []
    state.calls.append(name)
    state.args.append([])
    try:
        with _child_scope(state):
            _block([state.functions[name]], state, depth + 1)
        printed = state.captured
    finally:
        state.captured = None
        state.calls.pop()
        state.args.pop()
        state.stopped, state.returning = saved
    if any(part is None for part in printed):
        return "\x01"
    return "".join(p for p in printed if p is not None).rstrip("\n")


_MAX_CAPTURED: Final = 64  # echo / printf lines one `$(func)` reads; past them, unknown


def _capture(name: str, body: Node, state: _State) -> None:
    """One echo / printf of `$(func)`'s function: its output kept, bounded (the lines, their
    characters); past the bound the value is unknown and the function stops."""
    captured = state.captured
    if captured is None:
        return
    printed = (
        _printed(name, _call_arguments(body, state)) if len(captured) < _MAX_CAPTURED else None
    )
    captured.append(printed)
    if printed is None or sum(len(p or "") for p in captured) > MAX_VALUE:
        captured.append(None)
        state.stopped = True  # the rest of the function cannot change an unknown value


def _to_elsewhere(node: Node) -> bool:
    """Whether a command's standard output goes elsewhere than the substitution reading it
    (`echo "Detecting..." >&2`, `> log.txt`); `2>/dev/null` leaves it."""
    if node.type != "redirected_statement":
        return False
    return any(
        re.match(r"^(?:1?>|>>|&>)", _text(c)) is not None
        for c in node.children
        if c.type == "file_redirect"
    )


def _printed(name: str, words: list[str]) -> str | None:
    """What `echo WORDS` / `printf FORMAT ARGS` print (a newline of echo's dropped), where
    every word is known; None otherwise."""
    if any("\x01" in w for w in words):
        return None
    if name == "echo":
        newline = "\n"
        while words and words[0] in {"-n", "-e", "-E"}:
            newline = "" if words[0] == "-n" else newline
            words = words[1:]
        return " ".join(words) + newline
    if not words or "%" in words[0].replace("%s", "") or len(words) > 2:
        return None if words else ""
    return words[0].replace("%s", words[1] if len(words) > 1 else "").replace("\\n", "\n")


# A text pipeline over a known value: `echo X | cut ... | sed ... | tr ...`, at most so many
# stages, on a value at most so long (sed's pattern is Python's re on it: short text, short
# patterns).
_MAX_STAGES: Final = 6
_MAX_PIPED: Final = 128
_MAX_PIPELINES: Final = 16  # a script's (and _MAX_PIPE_SECONDS below bounds their time)
# The time all of one script's text pipelines may take (the red team's backtracking seds took
# 0.43 s each): past it, a pipeline is unknown.
_MAX_PIPE_SECONDS: Final = 0.25


def _text_pipeline(command: str, state: _State, depth: int) -> str | None:
    r"""What `echo WORDS | STAGE | ...` prints, where WORDS are known and each stage is `cut -d
    D -f LIST` (or `-c LIST`), `sed 's/RE/REPL/[g]'` (a basic regular expression) or `tr -d SET` /
    `tr SET1 SET2`: string operations, as the tools do them (`$(echo $CUDA_VERSION | cut -d. -f1-2
    | sed 's/\.//g')` is `118` for 11.8.0); None for anything else.
    """
    stages = pipe_stages(command)
    if stages is None or not 1 < len(stages) <= _MAX_STAGES or state.piped >= _MAX_PIPELINES:
        return None
    if stages[0].split(None, 1)[0] != "echo":
        return None  # `python --version | cut ...`: not text the reader knows; no budget spent
    if state.pipe_seconds > _MAX_PIPE_SECONDS:
        return None
    state.piped += 1
    started = time.monotonic()
    try:
        return _run_pipeline(stages, state, depth)
    finally:
        state.pipe_seconds += time.monotonic() - started


@contextmanager
def _child_scope(state: _State) -> Iterator[None]:
    """A child shell (a subshell, `$(...)`): the variables, arrays and aliases it sets end with
    it, so they are copied on the way in and put back on the way out."""
    saved = (state.env, state.unknown, state.arrays, state.aliases)
    state.env, state.unknown = dict(state.env), set(state.unknown)
    state.arrays, state.aliases = dict(state.arrays), dict(state.aliases)
    try:
        yield
    finally:
        state.env, state.unknown, state.arrays, state.aliases = saved


def _run_pipeline(stages: list[str], state: _State, depth: int) -> str | None:
    with _child_scope(state):
        first, known = _expand_known(stages[0], state, depth)
    words = shell_words(first) if known else []
    if not words or words[0] != "echo" or any(w.startswith("-") for w in words[1:2]):
        return None
    text: str | None = " ".join(words[1:])
    for stage in stages[1:]:
        # a `$` in single quotes is sed's anchor; anywhere else an expansion the reader leaves
        unquoted = re.sub(r"'[^']*'", "", stage)
        if text is None or len(text) > _MAX_PIPED or "$" in unquoted or "`" in stage:
            return None
        text = stage_output(shell_words(stage), text)
    return text


# A redirection word (`>/dev/null`, `2>&1`, `&>/dev/null`): no argument of the command.
_REDIRECT: Final = re.compile(r"\d?>>?&?\S*|&>>?\S*|<\S+")
# bash's name for the script being run (`${BASH_SOURCE[0]}`): the script's own $0.
# "${ARGS[@]}" / ${ARGS[*]}: every element of an array the script assigned; quoted only where
# the quotes are the word's own (`"a"${A[@]}"b"`'s belong to its neighbours).
_ARRAY_ALL: Final = re.compile(
    r'(?P<q>(?<![^\s(=])"(?=\$))?\$\{(?P<name>[A-Za-z_]\w*)\[(?P<kind>[@*])\]\}'
    r'(?(q)"(?![^\s;|&)]))'
)
_MAX_ELEMENTS: Final = 256  # elements of one array kept


def _array_words(m: re.Match[str], state: _State) -> str:
    """An array's elements where the script expands them all: "${A[@]}" one word each,
    "${A[*]}" one word of them all; a name the script never assigned as an array is left to the
    usual expansion."""
    elements = state.arrays.get(m.group("name"))
    if elements is None:
        return m.group(0)
    if sum(len(e) + 3 for e in elements) > MAX_VALUE:
        msg = f"a value longer than {MAX_VALUE} characters"
        raise _Budget(msg)
    if m.group("q") and m.group("kind") == "*":
        words = [shlex.quote(" ".join(elements))]
    else:
        words = [shlex.quote(e) if m.group("q") else e for e in elements]
    return " ".join(w.replace("$", "\x00") for w in words)


_BASH_SOURCE: Final = re.compile(r"\$\{BASH_SOURCE(?:\[0\])?\}|\$BASH_SOURCE\b")


def _path_word(command: str, state: _State, depth: int) -> str | None:
    """`dirname P`, `basename P`, `realpath P` / `readlink -f P` / `cd P && pwd` of a relative
    path P the reader knows (the script's own `$0`, `${BASH_SOURCE[0]}`): string operations, as
    the commands do them; None otherwise."""
    with _child_scope(state):  # `${X:=...}` in a subshell stays there
        expanded, known = _expand_known(command, state, depth)
    words = shell_words(expanded) if known else []
    kept: list[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False  # the target of a redirect written apart (`&> /dev/null`)
        elif _REDIRECT.fullmatch(w):
            skip = re.fullmatch(r"\d?>>?&?|&>>?|<", w) is not None
        else:
            kept.append(w)
    words = kept
    # `cd -- DIR`, `dirname -- PATH`: the end of the options
    words = [
        w
        for i, w in enumerate(words)
        if not (w == "--" and i and words[i - 1] in {"cd", "dirname", "basename", "realpath"})
    ]
    if words[-1:] in (["-P"], ["-L"]) and words[-2:-1] == ["pwd"]:
        words = words[:-1]  # `pwd -P`: symlinks resolved, none known here
    if len(words) == 4 and words[0] == "cd" and words[2] in {"&&", ";"} and words[3] == "pwd":
        words = ["realpath", words[1]]  # `$(cd "$(dirname "$0")" >/dev/null && pwd)`
    if len(words) == 3 and words[:2] == ["readlink", "-f"]:
        words = ["realpath", words[2]]
    if len(words) != 2 or words[1].startswith(("/", "-", "~")) or "$" in words[1]:
        return None
    tool, path = words
    if tool == "dirname":
        return posixpath.dirname(path.rstrip("/")) or "."
    if tool == "basename":
        return posixpath.basename(path.rstrip("/"))
    if tool == "realpath":
        return posixpath.normpath(path)
    return None


def excerpt_text(text: str, limit: int = 60) -> str:
    """At most `limit` characters of script text, for notes.

    >>> excerpt_text("x" * 100, 10)
    'xxxxxxx...'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


# --- Windows batch -----------------------------------------------------------------------------
_BAT_SKIP: Final = re.compile(
    r"(?i)^(rem\b|::|echo\b|echo\.|pause\b|setlocal\b|endlocal\b|title\b|cls\b|chcp\b|goto\b|"
    r"cd\b|pushd\b|popd\b|:\w)"
)
_BAT_VAR: Final = re.compile(r"%~?(\d|\*)|%([^%\s=]+)%|!([^!\s=]+)!")
# Commands whose exit code says something about the machine, not whether they worked.
_LOOKUP: Final = re.compile(
    r"(?i)\b(findstr|find|where|dir|conda\s+(env\s+list|info)|nvidia-smi)\b"
)
_BAT_IF: Final = re.compile(r"(?i)^if\s+(/i\s+)?(not\s+)?")
_BAT_COMPARE: Final = re.compile(
    r"^(\"[^\"]*\"|\S+?)\s*(==|\s(?:EQU|NEQ|LSS|LEQ|GTR|GEQ)\s)\s*(\"[^\"]*\"|\S+)\s*(.*)$",
    re.IGNORECASE,
)


def _bat_lines(text: str) -> list[tuple[int, str]]:
    """Logical lines: a trailing ^ joins the next line."""
    out: list[tuple[int, str]] = []
    buf: list[str] = []
    start = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not buf:
            start = number
        line = raw.rstrip()
        if line.endswith("^") and not line.endswith("^^"):
            buf.append(line[:-1])
            continue
        buf.append(line)
        out.append((start, " ".join(part.strip() for part in buf).strip()))
        buf = []
    if buf:
        out.append((start, " ".join(part.strip() for part in buf).strip()))
    return out


def _bat_expand(text: str, state: _State) -> str:
    def var(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return ""  # %1, %~1, %*: no arguments on the default route
        name = (m.group(2) or m.group(3)).upper()
        return state.env.get(name, "")

    out = _BAT_VAR.sub(var, text)
    if len(out) > MAX_VALUE:
        msg = f"a value longer than {MAX_VALUE} characters"
        raise _Budget(msg)
    return out


def _run_batch(text: str, state: _State) -> None:
    given = {k.upper(): v for k, v in state.env.items() if k not in _MACHINE}
    # ERRORLEVEL 0: every command succeeds on the default route.
    state.env = {"OS": "Windows_NT", "PROCESSOR_ARCHITECTURE": "AMD64", "ERRORLEVEL": "0", **given}
    lines = _bat_lines(text)
    _bat_block(lines, 0, len(lines), state, 0)


def _bat_block(
    lines: list[tuple[int, str]], start: int, end: int, state: _State, depth: int
) -> None:
    i = start
    while i < end and not state.stopped:
        state.step()
        number, line = lines[i]
        body = line.lstrip("@").strip()
        if _BAT_IF.match(body):
            i = _bat_if(lines, i, end, state, depth)
            continue
        loop = _BAT_FOR.match(body)
        if loop is not None:
            i = _bat_for(lines, i, end, state, depth, loop)
            continue
        _bat_command(body, number, state)
        i += 1


# `for %%V in (3.12 3.11) do ( ... )`, `for /f "delims=" %%P in ('cmd') do ...`: the options, the
# loop variable, the set and what follows `do`.
_BAT_FOR: Final = re.compile(
    r"(?i)^for\s+((?:/[a-z]\s+(?:\"[^\"]*\"\s+)?)?)%%(\w)\s+in\s+\((.*?)\)\s+do\b\s*(.*)$"
)


def _bat_for(
    lines: list[tuple[int, str]], i: int, end: int, state: _State, depth: int, loop: re.Match[str]
) -> int:
    """A `for` loop on its default route: the body once, with the loop variable the set's first
    item (a literal list, or /l's start); a /f loop over a command's output or a file's lines, or
    a set of file wildcards, cannot be known and its body is not read. Returns the next index."""
    if depth > MAX_DEPTH:
        msg = f"blocks nested more than {MAX_DEPTH} deep"
        raise _Budget(msg)
    options, var, items, rest = (loop.group(k) for k in (1, 2, 3, 4))
    number = lines[i][0]
    block = rest.strip() == "(" or rest.strip().endswith("(")
    after = _block_end(lines, i, end) + 1 if block else i + 1
    words = shell_words(_bat_expand(items, state).replace(",", " "))
    kind = options.strip().lower()[:2]
    first = words[0] if words and kind in {"", "/l", "/d", "/r"} else None
    if first is None or (kind == "" and any(c in first for c in "*?")):
        return after
    if kind == "/l":
        first = words[0]
    body = lines[i + 1 : after - 1] if block else [(number, rest)]
    subst = [(n, text.replace(f"%%{var}", first)) for n, text in body]
    _bat_block(subst, 0, len(subst), state, depth + 1)
    return after


def _block_end(lines: list[tuple[int, str]], i: int, end: int) -> int:
    """The index of the line that closes the ( opened at the end of line i."""
    depth = 0
    for j in range(i, end):
        text = lines[j][1].strip()
        if j > i and text.startswith(")"):
            depth -= 1
            if depth == 0:
                return j
        if text.endswith("(") or (j == i and "(" in text):
            depth += 1 if j == i or text.endswith("(") else 0
    return end


def _bat_if(lines: list[tuple[int, str]], i: int, end: int, state: _State, depth: int) -> int:
    """An `if` line (one-line or with ( ... ) else ( ... ) blocks); returns the next index."""
    if depth > MAX_DEPTH:
        msg = f"blocks nested more than {MAX_DEPTH} deep"
        raise _Budget(msg)
    number, line = lines[i]
    holds, rest = _bat_condition(line.lstrip("@").strip(), state)
    if re.search(r"(?i)errorlevel", line):
        holds = _errorlevel(state, holds)
    unknown = holds is None
    if unknown and _only_stops(lines, i, end, rest):
        holds = False  # an error handler (`echo not found` + `exit /b 1`): never the default route
    before = len(state.route.alternatives)
    after = _bat_branches(lines, i, end, state, depth, holds is not False, rest)
    if unknown and len(state.route.alternatives) > before:
        state.note(
            number,
            f"the condition of `{excerpt_text(line)}` cannot be known without running "
            f"the script; the default route takes its {'first' if holds is None else 'other'} "
            "branch",
        )
    return after


def _only_stops(lines: list[tuple[int, str]], i: int, end: int, rest: str) -> bool:
    """The `if`'s first branch installs nothing and ends the script (`exit`, `goto :eof`)."""
    if rest.endswith("("):
        body = [text for _, text in lines[i + 1 : _block_end(lines, i, end)]]
    else:
        body = [re.split(r"(?i)\s+else\s+", rest, maxsplit=1)[0]]
    text = "\n".join(body)
    return _ends_script(text, batch=True) and not _has_install(text)


def _errorlevel(state: _State, holds: bool | None) -> bool | None:
    """A test of the last command's exit code. On the default route commands succeed
    (ERRORLEVEL 0: `if %ERRORLEVEL% NEQ 0 (exit)` is an error handler, not taken), except a
    lookup, whose answer depends on the machine (`conda env list | findstr NAME` fails on a fresh
    one): after a lookup the first branch is taken."""
    last = state.route.commands[-1].text if state.route.commands else ""
    if _LOOKUP.search(last):
        return None
    return holds


def _bat_else_if(
    lines: list[tuple[int, str]],
    span: tuple[int, int, int],
    condition: str,
    state: _State,
    depth: int,
    taken_first: bool,
) -> int:
    """`if A ( ... ) else if B ( ... )`: the else branch is the next `if` of the chain (on the
    line that closes the first block); returns the index after the chain."""
    i, close, end = span
    number = lines[i][0]
    sub = [*lines[:close], (lines[close][0], condition), *lines[close + 1 :]]
    if taken_first:
        _bat_block(lines, i + 1, close, state, depth + 1)
        stop = _chain_end(sub, close, end)
        for n, text in sub[close:stop]:
            _bat_alternative(text, n, state, f"else of line {number}")
        return stop
    for n, text in lines[i + 1 : close]:
        _bat_alternative(text, n, state, f"if on line {number}")
    return _bat_if(sub, close, end, state, depth + 1)


def _chain_end(lines: list[tuple[int, str]], i: int, end: int) -> int:
    """The index after an `if ( ... ) else if ( ... ) else ( ... )` chain that starts at line i."""
    for _ in range(MAX_DEPTH):
        close = _block_end(lines, i, end)
        closing = lines[close][1].strip() if close < end else ""
        if re.match(r"(?i)^\)\s*else\s*\($", closing):
            return _block_end(lines, close, end) + 1
        chained = re.match(r"(?i)^\)\s*else\s+(if\s.*\()$", closing)
        if chained is None:
            return close + 1
        lines = [*lines[:close], (lines[close][0], chained.group(1)), *lines[close + 1 :]]
        i = close
    msg = f"an if/else chain longer than {MAX_DEPTH}"
    raise _Budget(msg)


def _bat_branches(
    lines: list[tuple[int, str]],
    i: int,
    end: int,
    state: _State,
    depth: int,
    taken_first: bool,
    rest: str,
) -> int:
    """Run the branch the default route takes, list the other's install commands."""
    number = lines[i][0]
    if rest.endswith("("):  # a block
        close = _block_end(lines, i, end)
        closing = lines[close][1].strip() if close < end else ""
        first = (i + 1, close)
        second: tuple[int, int] | None = None
        after = close + 1
        chained = re.match(r"(?i)^\)\s*else\s+(if\s.*\()$", closing)
        if chained is not None:
            return _bat_else_if(lines, (i, close, end), chained.group(1), state, depth, taken_first)
        if re.match(r"(?i)^\)\s*else\s*\($", closing):
            close2 = _block_end(lines, close, end)
            second, after = (close + 1, close2), close2 + 1
        elif re.match(r"(?i)^\)\s*else\s+(.+)$", closing):
            one = re.sub(r"(?i)^\)\s*else\s+", "", closing)
            second = None
            if not taken_first:
                _bat_command(one, lines[close][0], state)
            else:
                _bat_alternative(one, lines[close][0], state, f"else of line {number}")
        run, skip = (first, second) if taken_first else (second, first)
        if run is not None:
            _bat_block(lines, run[0], run[1], state, depth + 1)
        if skip is not None:
            for n, text in lines[skip[0] : skip[1]]:
                _bat_alternative(text, n, state, f"if on line {number}")
        return after
    parts = re.split(r"(?i)\s+else\s+", rest, maxsplit=1)
    then, otherwise = parts[0], parts[1] if len(parts) > 1 else ""
    then, otherwise = then.strip().strip("()").strip(), otherwise.strip().strip("()").strip()
    run_text, skip_text = (then, otherwise) if taken_first else (otherwise, then)
    if run_text:
        if _BAT_IF.match(run_text):
            _bat_if([(number, run_text)], 0, 1, state, depth + 1)
        else:
            _bat_command(run_text, number, state)
    if skip_text:
        _bat_alternative(skip_text, number, state, f"if on line {number}")
    return i + 1


def _bat_condition(line: str, state: _State) -> tuple[bool | None, str]:
    """(whether the condition holds, the rest of the line after it)."""
    m = _BAT_IF.match(line)
    assert m is not None  # noqa: S101 - the caller matched it
    fold, negate = bool(m.group(1)), bool(m.group(2))
    rest = _bat_expand(line[m.end() :], state)
    holds: bool | None
    low = rest.lower()
    if low.startswith("defined "):
        name, _, rest = rest[8:].strip().partition(" ")
        holds = name.upper() in state.env
    elif low.startswith("exist "):
        _, _, rest = rest[6:].strip().partition(" ")
        holds = None
    elif low.startswith("errorlevel "):
        _, _, rest = rest[11:].strip().partition(" ")
        holds = False  # every command succeeds on the default route
    else:
        c = _BAT_COMPARE.match(rest)
        if c is None:
            return None, rest
        left, op, right, rest = (
            c.group(1).strip('"'),
            c.group(2).strip().upper(),
            c.group(3).strip('"'),
            c.group(4),
        )
        if fold:
            left, right = left.lower(), right.lower()
        holds = _compare_text(left, op, right)
    if holds is not None and negate:
        holds = not holds
    return holds, rest.strip()


def _compare_text(left: str, op: str, right: str) -> bool:
    if op in {"==", "EQU"}:
        return left == right
    if op == "NEQ":
        return left != right
    try:
        return _compare(op, int(left), int(right))
    except ValueError:
        return _compare(op, 0, 0)  # cmd compares strings then; no install script depends on it


def _compare(op: str, a: int, b: int) -> bool:
    table = {"EQU": a == b, "NEQ": a != b, "LSS": a < b, "LEQ": a <= b, "GTR": a > b}
    return table.get(op, a >= b)


def _bat_command(text: str, number: int, state: _State) -> None:
    body = text.lstrip("@").strip()
    if not body or _BAT_SKIP.match(body) or body in {"(", ")"}:
        return
    if re.match(r"(?i)^exit\b", body):
        state.stopped = True
        return
    m = re.match(r'(?i)^set\s+(/a\s+|/p\s+)?"?([^=\s"]+)=([^"]*)"?\s*$', body)
    if m:
        if not m.group(1):
            state.env[m.group(2).upper()] = _bat_expand(m.group(3), state)[:MAX_VALUE]
        return
    if re.match(r"(?i)^set\b", body):
        return
    expanded = _bat_expand(body, state)
    expanded = re.sub(r"(?i)^call\s+", "", expanded)
    if expanded.startswith(":"):
        return  # call :label
    state.emit(expanded, number)


def _bat_alternative(text: str, number: int, state: _State, branch: str) -> None:
    body = text.lstrip("@").strip()
    if _has_install(body) and len(state.route.alternatives) < MAX_ALTERNATIVES:
        expanded = re.sub(r"(?i)^call\s+", "", _bat_expand(body, state))
        state.route.alternatives.append(Alternative(text=expanded, line=number, branch=branch))


def shell_words(text: str) -> list[str]:
    """Split a command as the shell would (quotes removed); unbalanced quotes: on whitespace.

    >>> shell_words('pip install "torch==1.7.1" x')
    ['pip', 'install', 'torch==1.7.1', 'x']
    """
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()
