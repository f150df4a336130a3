"""The library calls behind each CLI command: the one door from the CLI into the stages.

One function per command; each takes a frozen options object (or plain arguments and the user's
`Settings`, which the CLI resolves once per command) and returns data for the CLI to print. The
CLI imports nothing of envgen's stages but this package (an import-linter contract in
pyproject.toml): the options records and the few stage helpers it prints with are re-exported here.

The facade is lazy (PEP 562 `__getattr__`): a name loads only the module that defines it, so
`envgen list` loads the spec and matrix, not the lock or build stages, and `envgen import` loads
the importer alone. The modules behind it, one per command family:

- `_project`: `load`, `expand_spec` (spec + matrix -> variants)
- `_guard`: the project lock around writes (`guarded`), `trusted_root`
- `_lock`: `lock` (and `check`), pins-only or full
- `_matrix`: `matrix list / show / validate / verify`, `command`
- `_doctor`: `doctor`
- `_build`: `build`, `smoke`, `clean`, `run` / `shell` (`prepare_env`), `--variant auto`
- `_vault`: `vault`, `pack`, `build --vault`'s URL
- `_outputs`: `dockerfile`, `ci`, `export`

Nothing here parses argv, prints or reads the environment.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # the same names, for type checkers; at run time __getattr__ loads them
    from envgen.app._build import (
        build as build,
    )
    from envgen.app._build import (
        build_summary as build_summary,
    )
    from envgen.app._build import (
        clean as clean,
    )
    from envgen.app._build import (
        format_build_line as format_build_line,
    )
    from envgen.app._build import (
        prepare_env as prepare_env,
    )
    from envgen.app._build import (
        resolve_auto as resolve_auto,
    )
    from envgen.app._build import (
        smoke as smoke,
    )
    from envgen.app._doctor import doctor as doctor
    from envgen.app._doctor import format_doctor as format_doctor
    from envgen.app._guard import trusted_root as trusted_root
    from envgen.app._lock import lock as lock
    from envgen.app._lock import unowned_environments as unowned_environments
    from envgen.app._matrix import (
        format_show as format_show,
    )
    from envgen.app._matrix import (
        install_command as install_command,
    )
    from envgen.app._matrix import (
        matrix_rows as matrix_rows,
    )
    from envgen.app._matrix import (
        matrix_show as matrix_show,
    )
    from envgen.app._matrix import (
        matrix_validate as matrix_validate,
    )
    from envgen.app._matrix import (
        matrix_verify as matrix_verify,
    )
    from envgen.app._outputs import dockerfiles as dockerfiles
    from envgen.app._outputs import export as export
    from envgen.app._outputs import write_ci as write_ci
    from envgen.app._project import expand_spec as expand_spec
    from envgen.app._project import load as load
    from envgen.app._vault import (
        pack as pack,
    )
    from envgen.app._vault import (
        vault as vault,
    )
    from envgen.app._vault import (
        vault_check as vault_check,
    )
    from envgen.app._vault import (
        vault_gc as vault_gc,
    )
    from envgen.app._vault import (
        vault_pull as vault_pull,
    )
    from envgen.app._vault import (
        vault_push as vault_push,
    )
    from envgen.app._vault import (
        vault_url as vault_url,
    )
    from envgen.build.options import BuildOptions as BuildOptions
    from envgen.build.orchestrate import (
        raise_for_smoke_failures as raise_for_smoke_failures,
    )
    from envgen.build.orchestrate import (
        smoke_summary as smoke_summary,
    )
    from envgen.build.running import exec_in as exec_in
    from envgen.build.running import shell_command as shell_command
    from envgen.lock.options import LockOptions as LockOptions
    from envgen.lock.options import LockResult as LockResult
    from envgen.model.types import PYPI_SIMPLE as PYPI_SIMPLE
    from envgen.model.variants import select as select
    from envgen.model.variants import warning_lines as warning_lines
    from envgen.render.ci import CiOptions as CiOptions
    from envgen.render.ci import Engine as Engine
    from envgen.render.dockerfile import DockerfileOptions as DockerfileOptions
    from envgen.render.export import ExportOptions as ExportOptions
    from envgen.render.indexes import index_urls as index_urls
    from envgen.repro.entry import run_import as run_import
    from envgen.repro.importer.api import ImportOptions as ImportOptions
    from envgen.smoke.report import SmokeReport as SmokeReport
    from envgen.smoke.report import render_json_many as render_json_many
    from envgen.smoke.report import render_junit_many as render_junit_many
    from envgen.smoke.report import render_table as render_table
    from envgen.smoke.report import report_data as report_data
    from envgen.verification.pypi import check_index as check_index

# name -> the module that defines it (tests/unit/app/test_facade.py checks both ways)
_WHERE: Final[dict[str, str]] = {
    **dict.fromkeys(
        (
            "build",
            "build_summary",
            "clean",
            "format_build_line",
            "prepare_env",
            "resolve_auto",
            "smoke",
        ),
        "envgen.app._build",
    ),
    **dict.fromkeys(("doctor", "format_doctor"), "envgen.app._doctor"),
    "trusted_root": "envgen.app._guard",
    **dict.fromkeys(("lock", "unowned_environments"), "envgen.app._lock"),
    **dict.fromkeys(
        (
            "format_show",
            "install_command",
            "matrix_rows",
            "matrix_show",
            "matrix_validate",
            "matrix_verify",
        ),
        "envgen.app._matrix",
    ),
    **dict.fromkeys(("dockerfiles", "export", "write_ci"), "envgen.app._outputs"),
    **dict.fromkeys(("expand_spec", "load"), "envgen.app._project"),
    **dict.fromkeys(
        ("pack", "vault", "vault_check", "vault_gc", "vault_pull", "vault_push", "vault_url"),
        "envgen.app._vault",
    ),
    # what the CLI builds or prints with, from the stages
    "BuildOptions": "envgen.build.options",
    **dict.fromkeys(("raise_for_smoke_failures", "smoke_summary"), "envgen.build.orchestrate"),
    **dict.fromkeys(("exec_in", "shell_command"), "envgen.build.running"),
    **dict.fromkeys(("LockOptions", "LockResult"), "envgen.lock.options"),
    "PYPI_SIMPLE": "envgen.model.types",
    **dict.fromkeys(("select", "warning_lines"), "envgen.model.variants"),
    **dict.fromkeys(("CiOptions", "Engine"), "envgen.render.ci"),
    "DockerfileOptions": "envgen.render.dockerfile",
    "ExportOptions": "envgen.render.export",
    "index_urls": "envgen.render.indexes",
    "run_import": "envgen.repro.entry",
    "ImportOptions": "envgen.repro.importer.api",
    **dict.fromkeys(
        ("SmokeReport", "render_json_many", "render_junit_many", "render_table", "report_data"),
        "envgen.smoke.report",
    ),
    "check_index": "envgen.verification.pypi",
}

__all__ = sorted(_WHERE)  # noqa: PLE0605 - a sorted list of str, built once


def __getattr__(name: str) -> object:
    """Load the module that defines `name` on first use (PEP 562), and keep the value here."""
    where = _WHERE.get(name)
    if where is None:
        msg = f"module 'envgen.app' has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})
