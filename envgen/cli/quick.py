"""The commands run most, without click: `list`, `lock`, `lock`/`check --pins-only`, `import FILE`.

click and the command tree cost more to load than these commands take to run (issue 27: start-up
near Python's own). `run` takes the command line only in these plain shapes, every word one it
knows: `list [SPEC]`, `lock [SPEC]`, `lock --pins-only [SPEC]`, `check --pins-only [SPEC]`,
`import FILE [-o OUT]` (no global option, no other option, no `--help`, no word that click would
refuse). Anything else, and any doubt, returns None and click parses it as always.

The bodies below (what a command prints) are the click commands' own: envgen.cli.commands calls
them, so both paths print the same bytes (tests/unit/cli/test_quick.py runs both). Imports no
click; reaches the stages only through envgen.app.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from envgen.cli import console, edge
from envgen.cli.answers import Recorder
from envgen.errors import BUG, SUCCESS, StaleOutputError
from envgen.infra.proc import redact, stop_on_signals
from envgen.infra.settings import Settings, ci_requested, no_color_requested

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from envgen.app import LockOptions

DEFAULT_SPEC = "project.yaml"


# --- the bodies, shared with envgen.cli.commands -------------------------------------------------
def progress(user: Settings) -> AbstractContextManager[None]:
    """The progress display of a long command (envgen.cli.progress): live on a terminal, plain
    lines in a log or when CI is set, nothing with -q."""
    from envgen.cli.progress import showing  # noqa: PLC0415 - only for a command that shows it

    return showing(live=not user.in_ci)


def _json(data: object) -> None:
    import json  # noqa: PLC0415 - only for --json

    console.out(json.dumps(data, indent=2))


def list_variants(spec: Path, matrix_dir: Path | None, user: Settings, *, as_json: bool) -> None:
    """`envgen list`: one line per variant (or JSON), then the warnings."""
    from envgen import app as workflow  # noqa: PLC0415 - the facade loads the model stage alone

    expansion = workflow.expand_spec(spec, matrix_dir, user)
    if as_json:
        _json([v.summary() for v in expansion.variants])
        return
    for v in expansion.variants:
        mgrs = "+".join(v.managers)
        console.out(f"{v.id}\ttorch {v.release.torch}\tpython {v.python}\t{v.platform}\t{mgrs}")
    console.warn([*expansion.notes, *workflow.warning_lines(expansion.variants)])


def lock_files(options: LockOptions, *, as_json: bool) -> None:
    """`envgen lock` / `check`: the files written or checked, the lines and warnings (or JSON)."""
    from envgen import app as workflow  # noqa: PLC0415 - the facade loads the lock stage alone

    try:
        with progress(options.settings):
            result = workflow.lock(options)
    except StaleOutputError as exc:
        if as_json:  # the same facts for a script; the error line still goes to stderr
            stale = redact(str(exc)).splitlines()
            _json({"ok": False, "written": [], "messages": [], "warnings": [], "stale": stale})
        raise
    if as_json:
        _json(
            {
                "ok": True,
                "written": list(result.written),
                "messages": list(result.lines),
                "warnings": [redact(w) for w in result.warnings],
                "stale": [],
            }
        )
        console.warn(result.warnings)
        return
    # Warnings, then the run's progress lines, all on stderr (stdout carries results).
    console.warn(result.warnings)
    for line in result.lines:
        console.info(line)


def import_file(
    source: Path | None,
    *,
    command: str | None,
    out: Path | None,
    as_of: str | None,
    use_git: bool,
    name: str | None,
    strict: bool,
    force: bool,
    context: Path | None,
    checkout: Path | None,
    offline: bool,
    matrix_dir: Path | None,
    user: Settings,
    extras: tuple[str, ...] = (),
) -> None:
    """`envgen import`: the project.yaml text on stdout, or written to `out`."""
    from envgen import app as workflow  # noqa: PLC0415 - the facade loads the importer alone

    result = workflow.run_import(
        workflow.ImportOptions(
            source=source,
            command=command,
            out=out,
            as_of=as_of,
            git=use_git,
            name=name,
            matrix_dir=matrix_dir,
            strict=strict,
            force=force,
            context=context,
            checkout=checkout,
            extras=extras,
            git_default=not use_git and as_of is None,
            cache_root=user.cache_root,
            pypi_index=None if offline else (user.pypi_index or workflow.PYPI_SIMPLE),
            http_timeout=user.http_timeout,
        )
    )
    console.warn(result.warnings)
    if out is None:
        sys.stdout.write(result.text)
        sys.stdout.flush()
    else:
        console.info(f"wrote {out}" if result.written else f"{out} unchanged")


def nearest_spec(value: Path, *, given: bool) -> Path:
    """The spec a command reads: as given, or, when none was given, the nearest project.yaml.

    Like git and uv, a command run in a subdirectory finds the project above it: the search goes
    from the working directory upward and stops at the first repository root (a folder holding
    `.git`), so it never leaves the repository the user is in. When none is found the default
    name is returned unchanged and the stage says it does not exist.
    """
    from envgen.errors import FileSystemError  # noqa: PLC0415 - loaded already (edge)

    if given:
        return value
    here = Path.cwd()
    for folder in (here, *here.parents):
        candidate = folder / DEFAULT_SPEC
        if candidate.is_symlink():
            # Not named by the user: a cloned repository's link could point at any file.
            shown = value if folder == here else Path(os.path.relpath(candidate, here))
            msg = (
                f"{shown} is a symbolic link (to {candidate.readlink()}); envgen reads a "
                "project.yaml it finds by itself only as a regular file"
            )
            raise FileSystemError(msg, hint="name the spec you mean: envgen COMMAND path/to/spec")
        if candidate.is_file():
            return value if folder == here else Path(os.path.relpath(candidate, here))
        if (folder / ".git").exists():
            break
    return value


# --- the fast path -------------------------------------------------------------------------------
def _plain_path(word: str) -> bool:
    """A word click would take as a path as it is: not an option, not empty, not a folder (its
    `dir_okay=False` refuses one, with a usage error click prints)."""
    return bool(word) and not word.startswith("-") and not Path(word).is_dir()


def _spec_word(words: list[str]) -> tuple[Path, bool] | None:
    """(spec, given) from what follows the command and its flag; None: not a plain shape."""
    if not words:
        return Path(DEFAULT_SPEC), False
    if len(words) == 1 and _plain_path(words[0]):
        return Path(words[0]), True
    return None


def _shape(argv: list[str]) -> tuple[str, list[str]] | None:
    """(command, the words after it) when the fast path takes `argv`; None leaves it to click."""
    if not argv:
        return None
    command, rest = argv[0], argv[1:]
    if command == "list":
        return (command, rest) if _spec_word(rest) is not None else None
    if command in ("lock", "check") and "--pins-only" in rest:
        rest = [w for w in rest if w != "--pins-only"]
        return (command, rest) if len(rest) == len(argv) - 2 and _spec_word(rest) else None
    if command == "lock" and _spec_word(rest) is not None:
        # A full lock: click and the command tree (~50 ms) would load before its first uv call.
        return "lock-full", rest
    if command == "import" and rest and _plain_path(rest[0]):
        tail = rest[1:]
        if not tail or (len(tail) == 2 and tail[0] in ("-o", "--output") and _plain_path(tail[1])):
            return command, rest
    return None


def _dispatch(command: str, words: list[str]) -> None:
    edge.configure_logging(verbose=0, quiet=False)
    if command == "import":
        user = Settings.from_process()  # click reads it at --matrix, after the other options
        import_file(
            Path(words[0]),
            command=None,
            out=Path(words[2]) if len(words) == 3 else None,
            as_of=None,
            use_git=False,
            name=None,
            strict=False,
            force=False,
            context=None,
            checkout=None,
            offline=False,
            matrix_dir=user.matrix_dir,
            user=user,
        )
        return
    spec, given = _spec_word(words) or (Path(DEFAULT_SPEC), False)  # _shape checked the words
    spec = nearest_spec(spec, given=given)
    user = Settings.from_process()  # as click: the spec first, then --matrix's default
    if command == "list":
        list_variants(spec, user.matrix_dir, user, as_json=False)
        return
    from envgen import app as workflow  # noqa: PLC0415 - the facade loads the lock stage alone

    options = workflow.LockOptions(
        spec=spec,
        out=None,
        variants=(),
        matrix_dir=user.matrix_dir,
        pins_only=command != "lock-full",
        check=command == "check",
        resolver=None,
        as_of=None,
        upgrade=False,
        upgrade_packages=(),
        jobs=None,
        conda_tool="rattler",
        settings=user,
    )
    lock_files(options, as_json=False)


def _recorder(argv: list[str], command: str) -> AbstractContextManager[object]:
    """What records this run's answer for envgen.cli.answers (a list; a lock or check whose
    output no live display draws on), else nothing."""
    from envgen.cli import answers  # noqa: PLC0415 - loaded already (Recorder)

    # A lock or check on a terminal may draw the live progress display (envgen.cli.progress):
    # not kept.
    live = command != "list" and sys.stderr.isatty() and not ci_requested()
    if live or not answers.takes(argv):
        return contextlib.nullcontext()
    lock_name = ""
    if command == "lock":
        from envgen.infra.mutex import LOCK_NAME  # noqa: PLC0415 - the lock stage loads it

        lock_name = LOCK_NAME
    try:
        return answers.Recorder(argv, lock_name=lock_name)
    except OSError:  # no working directory to key it by: the command runs unrecorded
        return contextlib.nullcontext()


def run(argv: list[str], *, record: bool = False) -> int | None:
    """The exit code of `envgen ARGV` run here, or None when click is to parse it.

    `record`: keep the answer of a successful `list` or `lock`/`check --pins-only` for
    envgen.cli.answers to replay (the console script's runs; tests record only by asking).
    """
    shape = _shape(argv)
    if shape is None:
        return None
    console.configure(quiet=False, color="auto", no_color_env=no_color_requested())
    recorder = _recorder(argv, shape[0]) if record else contextlib.nullcontext()
    try:
        with stop_on_signals(), recorder:
            _dispatch(*shape)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            return edge.exit_code(exc, debug=False)
        # A closed pipe (`envgen list | head -1`) ends the command as click ends it: no message,
        # exit 1, and the streams' later flushes silenced.
        edge.silence_closed_pipe()
        return BUG
    except BaseException as exc:
        return edge.exit_code(exc, debug=False)
    if isinstance(recorder, Recorder):
        recorder.save()
    return SUCCESS
