"""The one place a command gets the user's settings: read once per invocation, at its start.

Every command calls `settings()` before any work; the value is kept on the root click context, so
a command that invokes another (`check` -> `lock`) reads the environment once. Reading it here,
not in the group callback, keeps `envgen <command> --help` working whatever the environment holds.
"""

from __future__ import annotations

import click

from envgen.infra.settings import Settings

_KEY = "settings"


def settings() -> Settings:
    """The user's ENVGEN_* settings, checked (SpecError, exit 3, naming a bad one)."""
    root = click.get_current_context().find_root()
    if not isinstance(root.obj, dict):
        root.obj = {}
    found = root.obj.get(_KEY)
    if not isinstance(found, Settings):
        found = root.obj[_KEY] = Settings.from_process()
    return found
