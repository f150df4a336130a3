"""`python -m envgen`: runs the CLI. Nothing else lives here."""

from __future__ import annotations

import sys

try:
    from envgen.cli import main
except KeyboardInterrupt:  # Ctrl-C while the modules load: no traceback, the usual exit
    sys.stderr.write("interrupted\n")
    raise SystemExit(130) from None

if __name__ == "__main__":
    main()
