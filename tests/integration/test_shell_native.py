"""The shell interpreter's native parser (tree-sitter-bash) never takes the process down.

tree-sitter-bash 0.25.1 crashed with SIGSEGV, in most runs, on a `{` followed by a code point of
planes 4-16 (found by `make fuzz` through a Dockerfile's RUN line). The parse runs in a child
process here so that a regression fails this test instead of killing the test run.
"""

from __future__ import annotations

import subprocess  # noqa: TID251 - a native crash must end a child, not the test process
import sys

PROBE = """
import sys
from envgen.repro.shell import interpret
for cp in (0x40000, 0x80000, 0xD0000, 0xE0000, 0xE0100, 0xF0000, 0x10FFFF):
    for text in ("{" + chr(cp), "pip install x; ( {" + chr(cp) + "t", "echo {" + chr(cp) + "}"):
        for _ in range(40):
            interpret(text)
print("parsed")
"""


def test_code_points_the_grammar_cannot_read_do_not_crash_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=110, check=False
    )
    assert (done.returncode, done.stdout.strip()) == (0, "parsed"), done.stderr[-2000:]


def test_a_route_keeps_its_commands_around_such_code_points() -> None:
    from envgen.repro.shell import interpret

    route = interpret("pip install torch==2.1.0  # \U000d0000\n")
    assert [c.text for c in route.commands] == ["pip install torch==2.1.0"]
