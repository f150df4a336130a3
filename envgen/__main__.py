"""`python -m envgen` and the `envgen` command: runs the CLI. Nothing else lives here.

`envgen --version` is answered here, before click and the CLI load (~50 ms of imports for one
line); tests/integration/test_startup_imports.py checks that the line is click's own.
"""

from __future__ import annotations

import os
import sys


def entry() -> None:
    """Run the CLI (a kept answer, else envgen.cli.quick, else click); `--version` alone
    without loading any of them."""
    if sys.argv[1:] == ["--version"]:
        from envgen import __version__  # noqa: PLC0415 - the package is loaded already

        sys.stdout.write(f"envgen, version {__version__}\n")
        sys.stdout.flush()
        return
    try:
        # A `list` or `lock`/`check --pins-only` whose kept answer is still current
        # (envgen.cli.answers): printed without loading the stages, then the exit without
        # teardown (as envgen.cli.edge.finish exits).
        from envgen.cli import answers  # noqa: PLC0415 - after the --version fast path

        if answers.replay(sys.argv[1:]):
            if sys.gettrace() is None and sys.getprofile() is None:  # else: the tool saves its data
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(0)
            return
        # envgen.cli.quick answers list, lock/check --pins-only and import FILE without click,
        # and hands anything else to click
        # (quick is loaded here, under this Ctrl-C guard; main takes it from sys.modules)
        from envgen.cli import edge, quick  # noqa: F401, PLC0415
    except KeyboardInterrupt:  # Ctrl-C while the modules load: no traceback, the usual exit
        from envgen.errors import INTERRUPTED  # noqa: PLC0415 - only then

        sys.stderr.write("interrupted\n")
        raise SystemExit(INTERRUPTED) from None
    edge.finish(main)


def main() -> None:
    """`envgen ARGV`: the fast path (envgen.cli.quick), else click (envgen.cli.commands), which
    loads only when it parses."""
    from envgen.cli import quick  # noqa: PLC0415 - loaded already (entry)

    code = quick.run(sys.argv[1:], record=True)
    if code is not None:
        sys.exit(code)
    try:
        from envgen.cli.commands import main as click_main  # noqa: PLC0415 - only when click parses
    except KeyboardInterrupt:  # Ctrl-C while click and the commands load: the usual exit
        from envgen.errors import INTERRUPTED  # noqa: PLC0415 - only then

        sys.stderr.write("interrupted\n")
        raise SystemExit(INTERRUPTED) from None
    click_main(fast=False)


if __name__ == "__main__":
    entry()
