"""`python -m benchmarks`: run the benchmarks (see benchmarks.run); `--quick` for the smoke mode."""

from __future__ import annotations

from benchmarks.run import main

raise SystemExit(main())
