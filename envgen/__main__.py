"""`python -m envgen` and the `envgen` command: runs the CLI. Nothing else lives here.

`envgen --version` is answered here, before click and the CLI load (~50 ms of imports for one
line); tests/integration/test_startup_imports.py checks that the line is click's own.
"""

from __future__ import annotations

import sys

from envgen.errors import INTERRUPTED


def entry() -> None:
    """Run the CLI (envgen.cli.quick, else click); `--version` alone without loading either."""
    if sys.argv[1:] == ["--version"]:
        from envgen import __version__  # noqa: PLC0415 - the package is loaded already

        sys.stdout.write(f"envgen, version {__version__}\n")
        sys.stdout.flush()
        return
    try:
        # after the --version fast path; envgen.cli.quick answers list, lock/check --pins-only
        # and import FILE without click, and hands anything else to click
        from envgen.cli import edge, quick  # noqa: PLC0415
    except KeyboardInterrupt:  # Ctrl-C while the modules load: no traceback, the usual exit
        sys.stderr.write("interrupted\n")
        raise SystemExit(INTERRUPTED) from None
    edge.finish(quick.main)


if __name__ == "__main__":
    entry()
