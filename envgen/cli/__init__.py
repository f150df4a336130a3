"""The envgen command line: parse options -> one envgen.app call -> print / exit.

stdout carries results; logs and errors go to stderr. EnvgenError becomes `error: ...` and its exit
code; anything else is a bug (exit 1, one line; the traceback with --debug). Nothing here does
real work, and nothing here imports a stage but through envgen.app (an import-linter contract).

The CLI is the edge where the user's ENVGEN_* settings are read: each command reads them once
(envgen.cli.context) and passes the value down through envgen.app; no stage reads the
environment. The modules:

- `commands`: the click commands (`cli`, `main`, `main_inner`), with `repro` (import,
  dockerfile, ci) and `vault` (vault, pack); `options`: each option defined once
- `quick`: the fast path of `list`, `lock`/`check --pins-only` and `import FILE` without click
  (the same output, byte for byte)
- `answers`: a `list` or `lock`/`check --pins-only` whose inputs did not change since its last
  run, answered with that run's bytes before anything else loads (envgen.__main__)
- `edge`: what both share (logging, the error line and exit code, the exit without teardown);
  `console`: the printers; `context`: a click command's settings; `progress`: the live display

This package is lazy (PEP 562): `from envgen.cli import main` loads click and the commands,
`envgen.cli.quick` does not.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing is not loaded here (envgen.cli.answers replays without it)

if TYPE_CHECKING:
    from envgen.cli.commands import cli as cli
    from envgen.cli.commands import console_main as console_main
    from envgen.cli.commands import main as main
    from envgen.cli.commands import main_inner as main_inner
    from envgen.cli.commands import run_cmd as run_cmd
    from envgen.cli.commands import shell_cmd as shell_cmd

_MODULES = frozenset(
    (
        "answers",
        "commands",
        "console",
        "context",
        "edge",
        "options",
        "progress",
        "quick",
        "repro",
        "vault",
    )
)


def __getattr__(name: str) -> object:
    """The click commands' names (`main`, `cli`, ...), loaded on first use."""
    if name.startswith("__") or name in _MODULES:  # `from envgen.cli import console`: the module
        raise AttributeError(name)
    value = getattr(importlib.import_module("envgen.cli.commands"), name)
    globals()[name] = value
    return value
