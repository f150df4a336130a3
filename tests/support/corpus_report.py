"""Print the real-file corpus's accuracy table at the end of every test run that measured it.

tests/unit/repro/test_corpus_accuracy.py stores its report under REPORT; the table then shows in the
terminal summary of a default run (no -s needed), as issue 24 item 4 asks.
"""

from __future__ import annotations

import pytest

REPORT: pytest.StashKey[str] = pytest.StashKey()


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    report = config.stash.get(REPORT, None)
    if report:
        terminalreporter.section("envgen import accuracy on the real-file corpus")
        terminalreporter.write_line(report.split("\nmisses")[0].rstrip())
