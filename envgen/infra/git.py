"""The argument list that starts git on a path of a cloned repository without obeying it.

git reads configuration from the repository it finds, and some keys run programs:
`core.fsmonitor` (run by `git ls-files`), `gpg.program` with `log.showSignature` (run by `git
log`). A clone carries no `.git/config` of its own, but it can commit an *embedded bare
repository* (`HEAD`, `config`, `objects/`, `refs/` in any folder): git started inside that
folder discovers it and obeys its `config`. So envgen never lets git discover a repository: it
finds the work tree itself (the nearest folder with a `.git` entry: the clone's own), names it
with `--git-dir` / `--work-tree`, and switches the program-running keys off on the command line,
which outranks every configuration file (an unpacked archive may ship its own `.git/config`).

Must not start processes (envgen.infra.proc does) or know about specs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

# `-c` outranks the repository's, the user's and the system's configuration files.
_NEUTRAL: Final = (
    "-c", "core.fsmonitor=false",
    "-c", "log.showSignature=false",
    "-c", "safe.bareRepository=explicit",
)  # fmt: skip


def work_tree(path: Path) -> Path | None:
    """The nearest of `path` and its parents holding a `.git` entry, or None (not a checkout)."""
    here = path.absolute()
    return next((d for d in (here, *here.parents) if (d / ".git").exists()), None)


def git_argv(git: str, top: Path) -> list[str]:
    """`git` bound to the work tree `top` (from `work_tree`), discovering nothing, running no
    program the repository configures; append the subcommand and its arguments."""
    return [git, "--git-dir", str(top / ".git"), "--work-tree", str(top), *_NEUTRAL]
