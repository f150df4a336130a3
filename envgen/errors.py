"""Every exception envgen raises on purpose, and its exit code.

A message says where (file, key path, line), what went wrong, the valid choices and the fix.
This module must not import any other envgen module.
"""

from __future__ import annotations

from typing import ClassVar, Final

# A value quoted from an untrusted file (a 400-byte YAML alias bomb expands to megabytes) is cut
# here, so no message grows with its input.
MAX_PROBLEM_CHARS: Final = 1000


def excerpt(text: str, limit: int = 200) -> str:
    """`text` cut to `limit` characters, saying how much was left out.

    >>> excerpt("a" * 30, 10)
    'aaaaaaaaaa... (20 more characters)'
    >>> excerpt("short")
    'short'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


class EnvgenError(Exception):
    """Base of every error envgen reports to a user (never a traceback)."""

    exit_code: ClassVar[int] = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(message if hint is None else f"{message}\n  hint: {hint}")


class OptionError(EnvgenError):
    """A command-line option names something that does not exist (a variant, a package).

    The code is click's usage code: the command line, not the project, is wrong.
    """

    exit_code = 2


class SpecError(EnvgenError):
    """project.yaml is malformed or asks for something impossible."""

    exit_code = 3

    def __init__(
        self, problems: list[str] | str, *, source: str = "project.yaml", total: int | None = None
    ) -> None:
        """`total`: how many problems were found when `problems` lists only the first of them."""
        items = [problems] if isinstance(problems, str) else list(problems)
        self.problems = [excerpt(p, MAX_PROBLEM_CHARS) for p in items]
        self.source = source
        if len(self.problems) == 1:
            text = self.problems[0]
        else:
            count = total or len(self.problems)
            text = f"{source}: {count} problems\n" + "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(text)


class MatrixError(EnvgenError):
    """The compatibility matrix under matrices/ is malformed or inconsistent."""

    exit_code = 4


class UnsupportedCombinationError(MatrixError):
    """The spec asks for a combination PyTorch never published."""

    exit_code = 10


class RenderError(EnvgenError):
    """A template failed to render."""

    exit_code = 5


class LockError(EnvgenError):
    """A resolver or solver could not lock a variant."""

    exit_code = 6


class BuildError(EnvgenError):
    """An environment could not be built or does not match its lock."""

    exit_code = 7


class SmokeTestError(EnvgenError):
    """A smoke test check failed in a built environment."""

    exit_code = 8


class StaleOutputError(EnvgenError):
    """`--check` found generated files that differ from what envgen would write."""

    exit_code = 9


class ImportSpecError(EnvgenError):
    """`envgen import` could not turn a file into a project.yaml."""

    exit_code = 11


class ToolNotFoundError(EnvgenError):
    """A required external tool (uv, pip-compile, conda, ...) is not available."""

    exit_code = 12


class ToolTimeoutError(EnvgenError):
    """An external tool (a resolver, an installer, the smoke script) ran past its time limit and
    was stopped, its process group with it."""

    exit_code = 16


class ConcurrentRunError(EnvgenError):
    """Another envgen run holds the project's lock file."""

    exit_code = 13


class FileSystemError(EnvgenError):
    """A file or directory envgen had to read or write could not be (missing folder, full disk,
    permissions). Writes are atomic, so the previous content is intact."""

    exit_code = 14


class NetworkError(EnvgenError):
    """An index or server could not be reached or answered with an error (after the bounded
    retries), or a URL uses a scheme envgen does not fetch."""

    exit_code = 15


EXIT_CODES: Final[dict[str, int]] = {
    cls.__name__: cls.exit_code
    for cls in (
        EnvgenError,
        OptionError,
        SpecError,
        MatrixError,
        UnsupportedCombinationError,
        RenderError,
        LockError,
        BuildError,
        SmokeTestError,
        StaleOutputError,
        ImportSpecError,
        ToolNotFoundError,
        ConcurrentRunError,
        FileSystemError,
        NetworkError,
        ToolTimeoutError,
    )
}

# The exit codes that no error class carries. cli.main and `python -m envgen` exit only with these
# or with an EnvgenError's `exit_code`: no other number is written anywhere in envgen.
SUCCESS: Final = 0
BUG: Final = 1  # an unexpected exception (EnvgenError's own code: an error with no better class)
USAGE: Final = 2  # click's code for a command-line usage error
INTERRUPTED: Final = 130  # SIGINT (Ctrl-C), or a declined prompt: 128 + SIGINT
TERMINATED: Final = 143  # SIGTERM: 128 + SIGTERM

OTHER_EXIT_CODES: Final[dict[str, int]] = {
    "success": SUCCESS,
    "bug": BUG,
    "usage": USAGE,
    "interrupted": INTERRUPTED,
    "terminated": TERMINATED,
}
