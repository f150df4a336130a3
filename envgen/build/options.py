"""What `envgen build` is asked to do (BuildOptions): the build stage's match of LockOptions.

The request of envgen.app.build, made once by its caller (the CLI) from the command line and the
user's settings: every override (`--cache-dir` over ENVGEN_CACHE_DIR, `--vault` over
ENVGEN_VAULT) is already applied, so nothing below reads the environment or resolves an option
again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from envgen.infra.settings import Settings
from envgen.model.types import CondaTool


@dataclass(frozen=True, slots=True, kw_only=True)
class BuildOptions:
    """Everything `envgen build` was asked to do.

    Attributes:
        manager: which lock to build from (`auto`: the pip lock where there is one).
        env_dir: where environments go; None: `<out>/<variant>/.env`.
        smoke: run the smoke checks after building (`--no-smoke` turns it off).
        vault: a vault folder or URL to install only from, or None.
        settings: the user's settings, with `--cache-dir` already in `cache_root`.
    """

    spec: Path
    out: Path | None = None
    variants: tuple[str, ...] = ()
    matrix_dir: Path | None = None
    manager: str = "auto"
    env_dir: Path | None = None
    smoke: bool = True
    rebuild: bool = False
    jobs: int | None = None
    conda_tool: CondaTool = "rattler"
    vault: str | None = None
    settings: Settings
