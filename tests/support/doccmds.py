"""Run the commands of a markdown document in order and compare what they print with the page.

The docs show commands in fenced blocks: ```console blocks hold `$ command` lines, each followed
by the output the page shows for it (stdout and stderr together, as a terminal shows them);
```sh blocks hold commands to run whose output the page does not show. `run_document` runs them
all, in page order, in one bash session (so `cd`, `export` and `$?` carry over), and `mismatches`
compares each shown output with what the command printed.

What varies from run to run is normalised on both sides before comparing, and nothing else:
durations and sizes (`4.5 s`, `9.7 MB`, a smoke table's seconds column, JUnit `time=`), a
background job's `(pid N)`, the
scratch folder (the page runs in `<scratch>/tut`, a copy of the repository, and `<scratch>` reads
as `/tmp`, so paths print as for a reader whose checkout is `/tmp/tut`), and runs of spaces. A `...`
line in a shown output stands for any number of lines; a shown line ending in `…` (a table cell
cut by the page) matches any line that starts with the rest.

A block the harness must not run is marked on the line before its fence with
`<!-- docs-test: skip: <reason> -->`; a command's output the page cannot show exactly (it depends
on the machine) with `<!-- docs-test: no-compare: <reason> -->` before the block. A step a reader
has already done (a mirror the tutorial set up) is `<!-- docs-test: setup: <command> -->`, run at
that point of the page and not shown.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess  # noqa: TID251 - the test harness runs the documents' shell commands
from dataclasses import dataclass, field
from pathlib import Path

_FENCE = re.compile(r"^```(\w*)\s*$")
_MARK = re.compile(r"<!--\s*docs-test:\s*(skip|no-compare):\s*(.+?)\s*-->")
_SETUP = re.compile(r"<!--\s*docs-test:\s*setup:\s*(.+?)\s*-->")


@dataclass
class Command:
    """One command of a page: where it is, its text, and the output the page shows (or None)."""

    where: str
    text: str
    shown: list[str] | None
    compare: bool = True
    output: str = field(default="")


def parse(path: Path) -> list[Command]:
    """The runnable commands of a page, in order (skipped blocks left out)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    commands: list[Command] = []
    i = 0
    while i < len(lines):
        setup = _SETUP.search(lines[i])
        if setup:
            commands.append(Command(f"{path.name}:{i + 1}", setup.group(1), None, False))
        m = _FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        kind, start = m.group(1), i
        mark = _MARK.search(lines[i - 1]) if i > 0 else None
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        body = lines[start + 1 : j]
        i = j + 1
        if mark and mark.group(1) == "skip":
            continue
        compare = not (mark and mark.group(1) == "no-compare")
        where = f"{path.name}:{start + 1}"
        if kind == "console":
            current: Command | None = None
            continued = False
            for n, line in enumerate(body, start + 2):
                if continued and current is not None:  # `\` at the end: the command goes on
                    current.text += "\n" + line
                    continued = line.endswith("\\")
                elif line.startswith("$ "):
                    current = Command(f"{path.name}:{n}", line[2:], [], compare)
                    commands.append(current)
                    continued = line.endswith("\\")
                elif current is not None and current.shown is not None:
                    current.shown.append(line)
        elif kind == "sh":
            pending: Command | None = None
            for n, line in enumerate(body, start + 2):
                text = re.sub(r"\s{2,}#.*$", "", line).strip()
                if pending is not None:
                    pending.text += "\n" + text
                elif text and not text.startswith("#"):
                    pending = Command(f"{path.name}:{n}", text, None, False)
                    commands.append(pending)
                if pending is not None and not text.endswith("\\"):
                    pending = None
        del where
    return commands


def run_document(commands: list[Command], cwd: Path, env: dict[str, str], timeout: int) -> None:
    """Run every command in one bash session; each one's output lands in `command.output`."""
    outdir = cwd / ".docs-test-out"
    outdir.mkdir()
    script = ["set +e"]
    for n, c in enumerate(commands):
        # Each command in braces: its output to its own file, and `$?` stays its exit code.
        script.append(f"{{ {c.text}\n}} > {shlex.quote(str(outdir / str(n)))} 2>&1 < /dev/null")
    # bash with the page's own commands, in a scratch copy of the repository
    subprocess.run(
        ["/bin/bash", "-c", "\n".join(script)],
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    for n, c in enumerate(commands):
        out = outdir / str(n)
        c.output = out.read_text(encoding="utf-8", errors="replace") if out.exists() else ""


_DURATION = re.compile(r"\b\d+(\.\d+)? (s|ms|MB|GB|KB|kB)\b")
_TABLE_SECONDS = re.compile(r"\b(PASS|FAIL|skip)\s+\d+\.\d+")
_JUNIT_TIME = re.compile(r'time="[\d.]+"')
_PID = re.compile(r"\(pid \d+\)")


def normalise(line: str, scratch: str = "") -> str:
    if scratch:
        line = line.replace(scratch, "/tmp")
    line = _DURATION.sub(r"N \2", line)
    line = _TABLE_SECONDS.sub(r"\1 N", line)
    line = _JUNIT_TIME.sub('time="N"', line)
    line = _PID.sub("(pid N)", line)
    return re.sub(r"\s+", " ", line).strip()


def _matches(shown: list[str], got: list[str]) -> bool:
    """`shown` against `got`, with `...` lines as gaps and `…`-cut lines as prefixes."""
    if not shown:
        return not got
    head, rest = shown[0], shown[1:]
    if head.strip() == "...":
        return any(_matches(rest, got[k:]) for k in range(len(got) + 1))
    if not got:
        return False
    ok = got[0].startswith(head[:-1].rstrip()) if head.endswith("…") else head == got[0]
    return ok and _matches(rest, got[1:])


def mismatches(commands: list[Command], scratch: Path) -> list[str]:
    """A report per command whose shown output differs from what it printed."""
    problems = []
    for c in commands:
        if c.shown is None or not c.compare:
            continue
        shown = [normalise(s) for s in c.shown]
        got = [normalise(s, str(scratch)) for s in c.output.splitlines()]
        shown = [s for s in shown if s]
        got = [g for g in got if g]
        if not _matches(shown, got):
            problems.append(
                f"{c.where}: $ {c.text}\n  the page shows:\n    "
                + "\n    ".join(c.shown or ["(nothing)"])
                + "\n  it printed:\n    "
                + "\n    ".join(c.output.splitlines() or ["(nothing)"])
            )
    return problems


def environment(bin_dir: Path, cache: Path) -> dict[str, str]:
    """PATH with envgen's venv first, a scratch cache, and none of the caller's ENVGEN_*."""
    keep = {
        k: v for k, v in os.environ.items() if not k.startswith(("ENVGEN_", "UV_", "VIRTUAL_ENV"))
    }
    return {
        **keep,
        "PATH": f"{bin_dir}:{keep.get('PATH', '/usr/bin:/bin')}",
        "ENVGEN_CACHE_DIR": str(cache),
        "PIP_CONFIG_FILE": os.devnull,
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
