"""`python -m envgen`: runs the CLI. Nothing else lives here."""

from __future__ import annotations

import sys

from envgen.errors import INTERRUPTED

try:
    from envgen.cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules load: no traceback, the usual exit
    sys.stderr.write("interrupted\n")
    raise SystemExit(INTERRUPTED) from None

if __name__ == "__main__":
    main()
