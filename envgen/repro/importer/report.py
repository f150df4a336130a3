"""What resolution tells the user: fatal problems, warnings, and departures from the file."""

from __future__ import annotations

from dataclasses import dataclass, field

from envgen.errors import ImportSpecError
from envgen.repro.reading import MAX_WARNINGS


@dataclass(slots=True)
class Report:
    """What validation tells the user: fatal problems, warnings, and departures from the file.

    A departure is a place where project.yaml differs from what the file asked for, because what
    it asked for never existed (or no longer works): "was X, now Y, because Z". `--strict` turns
    departures into problems.
    """

    problems: list[str]
    warnings: list[str]
    departures: list[str] = field(default_factory=list)

    def depart(self, where: str, what: str, was: str, now: str, because: str) -> None:
        text = f"{where}: {what} was {was}, now {now}, because {because}"
        self.departures.append(text)
        self.warnings.append(text)


def bounded_warnings(warnings: list[str]) -> list[str]:
    """At most MAX_WARNINGS lines: a hostile file cannot flood the terminal."""
    if len(warnings) <= MAX_WARNINGS:
        return warnings
    hidden = len(warnings) - MAX_WARNINGS
    return [*warnings[:MAX_WARNINGS], f"... and {hidden} more warning(s) not shown"]


def raise_problems(src: str, problems: list[str]) -> None:
    if not problems:
        return
    if len(problems) == 1:
        raise ImportSpecError(problems[0])
    text = f"{src}: {len(problems)} problems\n" + "\n".join(f"  - {p}" for p in problems)
    raise ImportSpecError(text)
