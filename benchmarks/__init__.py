"""Benchmarks: envgen side by side with the tools a user would use instead (`python -m benchmarks`).

Each section times envgen and its alternative in the same run (medians of several repetitions)
and reports ratios; `benchmarks/results/latest.json` keeps the raw numbers and
`docs/benchmarks.md` the method. The harness talks only to loopback servers it starts itself
and to PyPI. It must not assert timings (the smoke test checks the JSON shape only) and must not
change envgen: it drives envgen through its library API and CLI exactly as a user would.
"""

from __future__ import annotations
