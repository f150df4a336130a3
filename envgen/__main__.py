"""`python -m envgen`: runs the CLI. Nothing else lives here."""

from __future__ import annotations

from envgen.cli import main

if __name__ == "__main__":
    main()
