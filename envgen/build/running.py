"""`envgen run`, `envgen shell` and `--variant auto`: use a built environment, pick a variant.

`run` and `shell` build the variant from its lock when its environment is missing or does not
match the lock, then replace envgen with the command (the environment's bin first on PATH,
VIRTUAL_ENV or CONDA_PREFIX set). `auto` picks, from doctor's verdicts on this machine, the
best variant it can run and says why. This module must not lock anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from envgen.build.orchestrate import build_variants, env_path
from envgen.doctor.host import detect_host
from envgen.doctor.verdicts import assess_variants, driver_rows
from envgen.errors import BuildError, UnsupportedCombinationError
from envgen.infra import proc as _proc
from envgen.model.variants import expand, select

if TYPE_CHECKING:
    from collections.abc import Sequence

    from envgen.doctor.host import HostInfo
    from envgen.infra.settings import Settings
    from envgen.model.matrix import Matrix
    from envgen.model.spec import ProjectSpec
    from envgen.model.variants import Variant

AUTO = "auto"


@dataclass(frozen=True, slots=True, kw_only=True)
class AutoChoice:
    """The variant `--variant auto` picked and why (one line for stderr)."""

    variant: str
    reason: str


def _rank(v: Variant, host_python: str) -> tuple[int, tuple[int, ...], int]:
    """Higher is better: a GPU build over CPU, the newer toolkit, the host's own python."""
    gpu = 0 if v.kind == "cpu" else 1
    version = tuple(int(p) for p in (v.compute_version or "0").split(".") if p.isdigit())
    same_python = int(host_python.startswith(v.python + ".") or host_python == v.python)
    return gpu, version, same_python


def choose_auto(
    variants: Sequence[Variant], matrix: Matrix, *, host: HostInfo | None = None
) -> AutoChoice:
    """The best variant this machine can run (doctor's verdicts), or an error saying why none.

    Raises:
        UnsupportedCombinationError: no variant is for this platform, or none can run here.
    """
    host = host or detect_host()
    os_name = "windows" if host.system == "Windows" else "linux"
    drivers = driver_rows(matrix.drivers, os_name)  # type: ignore[arg-type]
    here = [v for v in variants if v.platform == host.platform]
    if not here:
        platforms = ", ".join(sorted({v.platform for v in variants}))
        msg = (
            f"--variant auto: no variant is for this machine's platform "
            f"({host.platform or host.system + ' ' + host.machine}); the spec has {platforms}"
        )
        raise UnsupportedCombinationError(msg)
    verdicts = assess_variants(host, [(v.id, v.kind, v.compute_version) for v in here], drivers)
    ok = {a.variant_id: a.reason for a in verdicts if a.ok}
    no = {a.variant_id: a.reason for a in verdicts if not a.ok}
    runnable = [v for v in here if v.id in ok]
    if not runnable:
        reasons = "; ".join(f"{vid}: {why}" for vid, why in no.items())
        msg = f"--variant auto: no variant can run on this machine: {reasons}"
        raise UnsupportedCombinationError(msg, hint="see `envgen doctor` for the details")
    best = max(runnable, key=lambda v: _rank(v, host.python))
    skipped = [f"{vid} ({why})" for vid, why in no.items()]
    reason = f"--variant auto chose {best.id}: {ok[best.id]}"
    others = [v.id for v in runnable if v.id != best.id]
    if others:
        reason += f"; also runnable: {', '.join(others)}"
    if skipped:
        reason += f"; cannot run here: {', '.join(skipped)}"
    return AutoChoice(variant=best.id, reason=reason)


def environment_for(env: Path, *, conda: bool) -> dict[str, str]:
    """os.environ with the environment activated: its bin first on PATH, and its marker set.

    Process plumbing, not a setting: the user's own command runs with the user's environment,
    less envgen's own settings (ENVGEN_*: index URLs and their credentials are envgen's, not the
    command's).
    """
    env = env.absolute()  # PATH and VIRTUAL_ENV must hold wherever the command changes to
    bindir = env / ("Scripts" if os.name == "nt" else "bin")
    out = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONHOME", "VIRTUAL_ENV") and not k.startswith(_proc.PRIVATE_PREFIXES)
    }
    out["PATH"] = os.pathsep.join([str(bindir), os.environ.get("PATH", os.defpath)])
    if conda:
        out["CONDA_PREFIX"] = str(env)
    else:
        out["VIRTUAL_ENV"] = str(env)
    return out


def exec_in(env: Path, argv: Sequence[str], *, conda: bool) -> NoReturn:
    """Replace envgen with `argv` run inside the built environment at `env`."""
    if not argv:
        msg = "give the command to run after `--`, e.g. `envgen run cpu -- python -V`"
        raise BuildError(msg)
    _proc.exec_command(argv, env=environment_for(env, conda=conda))


def shell_command() -> list[str]:
    """The user's shell ($SHELL), else /bin/sh (process plumbing, like environment_for)."""
    return [os.environ.get("SHELL") or "/bin/sh"]


def ensure_built(
    spec: ProjectSpec,
    matrix: Matrix,
    out: Path,
    variant: str,
    *,
    env_dir: Path | None,
    settings: Settings,
    inside: Path | None = None,
) -> tuple[Path, bool]:
    """(env path, is conda): build the variant from its lock unless it already matches.

    `inside`: the trusted folder `out` lies in (app.trusted_root); no link below it is followed.
    """
    chosen = select(expand(spec, matrix).variants, (variant,))
    exact = [v for v in chosen if v.id == variant]
    if len(exact) != 1:
        ids = ", ".join(v.id for v in chosen)
        msg = f"{variant!r} names {len(chosen)} variants ({ids}); give one variant id"
        raise UnsupportedCombinationError(msg)
    report = build_variants(
        spec,
        matrix,
        out,
        variants=(variant,),
        settings=settings,
        env_dir=env_dir,
        smoke=False,
        inside=inside,
    )
    report.raise_for_failures()
    build = report.builds[0]
    return env_path(out, variant, env_dir), build.manager == "conda"
