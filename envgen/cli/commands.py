"""The envgen command line: click only. Parse options -> one library call -> print / exit.

stdout carries results; logs and errors go to stderr. EnvgenError becomes `error: ...` and its exit
code; anything else is a bug (exit 1, one line; the traceback with --debug). Nothing here does
real work.

The CLI is the edge where the user's ENVGEN_* settings are read: each command starts with
`settings()` (envgen.cli.context, once per invocation) and passes the value down through
envgen.app; no stage reads the environment.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from envgen import __version__
from envgen.cli import console, edge, quick
from envgen.cli.context import settings
from envgen.cli.options import (
    F,
    conda_tool_option,
    env_dir_option,
    jobs_option,
    json_option,
    junit_option,
    matrix_option,
    out_option,
    spec_argument,
    spec_option,
    split_spec,
    variant_option,
    warn,
)
from envgen.cli.repro import ci_group, dockerfile_cmd, import_cmd
from envgen.cli.vault import pack_cmd, vault_group
from envgen.errors import (
    INTERRUPTED,
    SUCCESS,
    USAGE,
    EnvgenError,
    MatrixError,
)
from envgen.infra.proc import stop_on_signals
from envgen.infra.settings import no_color_requested

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from envgen.app import SmokeReport
    from envgen.infra.settings import Settings

log = logging.getLogger("envgen")


def _echo(text: str) -> None:
    click.echo(text.rstrip("\n"))


def _report(warnings: tuple[str, ...], lines: tuple[str, ...]) -> None:
    """Warnings, then a lock run's progress lines, all on stderr (stdout carries results)."""
    warn(warnings)
    for line in lines:
        console.info(line)


# --- commands ------------------------------------------------------------------------------------
@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="envgen")
@click.option("-v", "--verbose", count=True, help="More log output (repeat for debug).")
@click.option(
    "-q", "--quiet", is_flag=True, help="Print only results and errors: no progress, no warnings."
)
@click.option(
    "--color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the error and warning prefixes (auto: on a terminal, unless NO_COLOR is set).",
)
@click.option("--debug", is_flag=True, help="Show tracebacks.")
@click.pass_context
def cli(ctx: click.Context, verbose: int, quiet: bool, color: str, debug: bool) -> None:
    """Reproducible PyTorch environments from one project.yaml."""
    ctx.obj = {"debug": debug}
    if quiet and verbose:
        msg = "-q/--quiet and -v/--verbose ask for opposite things; give one of them"
        raise click.UsageError(msg)
    console.configure(
        quiet=quiet,
        color=color,  # type: ignore[arg-type]  # click.Choice checked it
        no_color_env=no_color_requested(),
    )
    edge.configure_logging(verbose=verbose, quiet=quiet)


@cli.command("lock")
@spec_argument
@out_option
@variant_option
@matrix_option
@click.option("--pins-only", is_flag=True, help="Matrix pins only: no resolver, no network.")
@click.option("--check", is_flag=True, help="Exit 9 with a diff when committed files are stale.")
@click.option(
    "--resolver", type=click.Choice(["uv", "pip-tools"]), default=None, help="pip resolver."
)
@click.option("--as-of", "as_of", default=None, metavar="DATE", help="Resolve as of YYYY-MM-DD.")
@click.option("--upgrade", is_flag=True, help="Re-resolve every package.")
@click.option(
    "--upgrade-package",
    "upgrade_packages",
    multiple=True,
    metavar="NAME",
    help="Re-resolve NAME; keep the rest.",
)
@jobs_option("locked", default="the machine's cores, at least 4")
@conda_tool_option
@json_option
def lock_cmd(
    spec: Path,
    out: Path | None,
    variants: tuple[str, ...],
    matrix_dir: Path | None,
    pins_only: bool,
    check: bool,
    resolver: str | None,
    as_of: str | None,
    upgrade: bool,
    upgrade_packages: tuple[str, ...],
    jobs: int | None = None,
    conda_tool: str = "rattler",
    as_json: bool = False,
) -> None:
    """Write pinned requirements.txt / environment.yml (and full locks) for every variant."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    options = workflow.LockOptions(
        spec=spec,
        out=out,
        variants=variants,
        matrix_dir=matrix_dir,
        pins_only=pins_only,
        check=check,
        resolver=resolver,
        as_of=as_of,
        upgrade=upgrade,
        upgrade_packages=upgrade_packages,
        jobs=jobs,
        conda_tool=conda_tool,
        settings=settings(),
    )
    quick.lock_files(options, as_json=as_json)


@cli.command("check")
@spec_argument
@out_option
@variant_option
@matrix_option
@click.option("--pins-only", is_flag=True, help="Check the pins-only files (no full locks).")
@json_option
def check_cmd(
    spec: Path,
    out: Path | None,
    variants: tuple[str, ...],
    matrix_dir: Path | None,
    pins_only: bool,
    as_json: bool,
) -> None:
    """Exit 9 naming each stale or hand-edited file and line (the same as `lock --check`)."""
    click.get_current_context().invoke(
        lock_cmd,
        spec=spec,
        out=out,
        variants=variants,
        matrix_dir=matrix_dir,
        pins_only=pins_only,
        check=True,
        as_json=as_json,
    )


@cli.command("list")
@spec_argument
@matrix_option
@json_option
def list_cmd(spec: Path, matrix_dir: Path | None, as_json: bool) -> None:
    """List the variants a spec expands to."""

    quick.list_variants(spec, matrix_dir, settings(), as_json=as_json)


@cli.group("matrix")
def matrix_group() -> None:
    """Inspect, validate and verify the compatibility matrix."""


@matrix_group.command("list")
@matrix_option
@json_option
def matrix_list_cmd(matrix_dir: Path | None, as_json: bool) -> None:
    """Every torch release with its companions, python versions and compute platforms."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    rows = workflow.matrix_rows(matrix_dir, settings())
    if as_json:
        _echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        click.echo(
            f"{r['torch']:<8} vision {r['torchvision'] or '-':<8} "
            f"audio {r['torchaudio'] or '-':<8} "
            f"py {','.join(r['python'])}  {' '.join(r['accelerators'])}"
        )


def with_option(f: F) -> F:
    return click.option(
        "--with",
        "with_extensions",
        multiple=True,
        metavar="EXTENSION",
        help="Also a compiled extension (torch-scatter, mmcv-full, ...); repeatable.",
    )(f)


@matrix_group.command("show")
@click.argument("torch")
@matrix_option
@json_option
@with_option
def matrix_show_cmd(
    torch: str, matrix_dir: Path | None, as_json: bool, with_extensions: tuple[str, ...]
) -> None:
    """What one torch release was published with, per platform and manager."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    data = workflow.matrix_show(torch, matrix_dir, settings(), with_extensions=with_extensions)
    if as_json:
        _echo(json.dumps(data, indent=2))
        return
    _echo(workflow.format_show(data))


@matrix_group.command("validate")
@matrix_option
def matrix_validate_cmd(matrix_dir: Path | None) -> None:
    """Check the matrix files against the schema and their invariants."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    click.echo(workflow.matrix_validate(matrix_dir, settings()))


def _checked_index(value: str) -> str:
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    problem = workflow.check_index(value)
    if problem is not None:
        raise click.BadParameter(problem)
    return value


@matrix_group.command("verify")
@matrix_option
@click.option(
    "--index",
    default="https://pypi.org/simple",
    show_default=True,
    callback=lambda _ctx, _param, value: _checked_index(value),
    help="PEP 691 index (https://, or http:// on a loopback host).",
)
@json_option
def matrix_verify_cmd(matrix_dir: Path | None, index: str, as_json: bool) -> None:
    """Cross-check the matrix against PyPI (versions, python tags, dates, companion pins)."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    findings = workflow.matrix_verify(matrix_dir, index, settings())
    if as_json:
        _echo(json.dumps(findings, indent=2))
    else:
        for f in findings:
            click.echo(f"{f['severity']}: {f['where']}: {f['message']}")
    errors = [f for f in findings if f["severity"] == "error"]
    console.info(f"{len(findings)} finding(s), {len(errors)} error(s)")
    if errors:
        raise SystemExit(MatrixError.exit_code)


@cli.command("command")
@click.option("--torch", required=True, help="Release, range or 'latest'.")
@click.option("--compute", required=True, help="cpu, cu118, rocm5.6, ...")
@click.option(
    "--manager",
    type=click.Choice(["pip", "conda"]),
    default="pip",
    show_default=True,
    help="The installer the printed command uses.",
)
@click.option(
    "--os",
    "os_name",
    type=click.Choice(["linux", "windows", "macos"]),
    default="linux",
    show_default=True,
    help="The operating system the printed command is for.",
)
@click.option(
    "--python",
    default=None,
    metavar="X.Y",
    help="Python the command is for (wheel URLs, --with pins); default the release's newest.",
)
@matrix_option
@with_option
def command_cmd(
    torch: str,
    compute: str,
    manager: str,
    os_name: str,
    python: str | None,
    matrix_dir: Path | None,
    with_extensions: tuple[str, ...],
) -> None:
    """Print the one-line install command PyTorch published."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    cmd = workflow.install_command(
        matrix_dir,
        torch=torch,
        compute=compute,
        manager=manager,
        os_name=os_name,
        settings=settings(),
        with_extensions=with_extensions,
        python=python,
    )
    click.echo(cmd.text)
    for line in cmd.extensions:
        click.echo(line)
    if cmd.inferred:
        warn([f"inferred, not read from PyTorch's published commands (source: {cmd.source})"])
    warn(cmd.warnings)


@cli.command("build")
@spec_argument
@out_option
@variant_option
@matrix_option
@click.option(
    "--all",
    "all_variants",
    is_flag=True,
    help="Build every variant (the default when no --variant).",
)
@click.option(
    "--manager",
    type=click.Choice(["auto", "pip", "conda"]),
    default="auto",
    show_default=True,
    help="Which lock to build from.",
)
@env_dir_option
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Shared package cache (default: ENVGEN_CACHE_DIR, else ~/.cache/envgen).",
)
@click.option("--no-smoke", is_flag=True, help="Skip the smoke test after building.")
@click.option("--rebuild", is_flag=True, help="Rebuild even when the environment matches its lock.")
@jobs_option("built")
@conda_tool_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@junit_option
@click.option(
    "--vault",
    default=None,
    metavar="DIR_OR_URL",
    help=(
        "Install only from this vault (`envgen vault`; default: ENVGEN_VAULT); a folder builds "
        "with no network."
    ),
)
def build_cmd(
    spec: Path,
    out: Path | None,
    variants: tuple[str, ...],
    matrix_dir: Path | None,
    all_variants: bool,
    manager: str,
    env_dir: Path | None,
    cache_dir: Path | None,
    no_smoke: bool,
    rebuild: bool,
    jobs: int | None,
    conda_tool: str,
    as_json: bool,
    junit: Path | None,
    vault: str | None,
) -> None:
    """Build each variant's environment from its lock, verify it, and smoke-test it."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    # Every variant is built unless --variant narrows it; --all says so explicitly.
    if all_variants and variants:
        msg = "give either --all or --variant, not both"
        raise click.UsageError(msg)
    user = settings()
    if cache_dir is not None:  # --cache-dir over ENVGEN_CACHE_DIR, for the whole run
        user = dataclasses.replace(user, cache_root=cache_dir)
    _check_output(junit)
    variants, why = workflow.resolve_auto(spec, matrix_dir, variants, user)
    if why:
        console.info(why)
    with _progress(user):
        report = workflow.build(
            workflow.BuildOptions(
                spec=spec,
                out=out,
                variants=variants,
                matrix_dir=matrix_dir,
                manager=manager,
                env_dir=env_dir,
                smoke=not no_smoke,
                rebuild=rebuild,
                jobs=jobs,
                conda_tool=conda_tool,  # type: ignore[arg-type]  # click.Choice checked it
                vault=vault if vault is not None else user.vault,
                settings=user,
            )
        )
    if as_json:
        rows = [
            {
                "variant": b.variant,
                "status": b.status,
                "manager": b.manager,
                "env": str(b.env),
                "seconds": round(b.seconds, 3),
                "error": b.error,
                "interpreter": b.interpreter,
                "checks": workflow.report_data(b.smoke) if b.smoke is not None else None,
            }
            for b in report.builds
        ]
        _echo(json.dumps(rows, indent=2))
    _emit_smoke(
        [(b.variant, b.smoke) for b in report.builds if b.smoke is not None],
        False,
        junit,
        table=not as_json,
    )
    for b in report.builds:
        console.info(workflow.format_build_line(b))
    if len(report.builds) > 1:
        console.info(workflow.build_summary(report))
    report.raise_for_failures()


@cli.command("clean")
@spec_argument
@out_option
@matrix_option
@env_dir_option
@click.option("--dry-run", is_flag=True, help="List what would be removed; remove nothing.")
@json_option
def clean_cmd(
    spec: Path,
    out: Path | None,
    matrix_dir: Path | None,
    env_dir: Path | None,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Remove environments no variant of the spec owns (after a spec change renamed or dropped one).

    Only environments envgen built are removed; anything else in their place is listed and left.
    """
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    orphans = workflow.clean(
        spec, matrix_dir, out=out, env_dir=env_dir, dry_run=dry_run, settings=settings()
    )
    if as_json:
        rows = [
            {"path": str(o.path), "variant": o.variant, "action": o.action, "why": o.why}
            for o in orphans
        ]
        _echo(json.dumps(rows, indent=2))
        return
    for o in orphans:
        # A folder or link name is the repository's choice: a newline in it must not print a
        # line of its own (printable() escapes the other controls).
        path, why = (str(x).replace("\n", "\\n") for x in (o.path, o.why))
        if o.action == "left alone":
            console.info(f"left alone {path}: {why}")
        else:
            console.info(f"{o.action} {path} ({why})")
    if not orphans:
        console.info("nothing to clean: every environment belongs to a variant of the spec")


@cli.command("smoke")
@spec_argument
@out_option
@variant_option
@matrix_option
@env_dir_option
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@junit_option
def smoke_cmd(
    spec: Path,
    out: Path | None,
    variants: tuple[str, ...],
    matrix_dir: Path | None,
    env_dir: Path | None,
    as_json: bool,
    junit: Path | None,
) -> None:
    """Run the CPU and GPU smoke checks in already-built environments."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    user = settings()
    _check_output(junit)
    variants, why = workflow.resolve_auto(spec, matrix_dir, variants, user)
    if why:
        console.info(why)
    with _progress(user):
        results = workflow.smoke(
            spec, matrix_dir, out=out, variants=variants, env_dir=env_dir, settings=user
        )
    _emit_smoke([(r.variant, r.report) for r in results if r.report is not None], as_json, junit)
    if len(results) > 1:
        console.info(workflow.smoke_summary(results))
    workflow.raise_for_smoke_failures(results)


@cli.command("run")
@click.argument(
    "words", nargs=-1, required=True, type=click.UNPROCESSED, metavar="[SPEC] VARIANT COMMAND..."
)
@spec_option
@out_option
@matrix_option
@env_dir_option
@click.pass_context
def run_cmd(
    ctx: click.Context,
    words: tuple[str, ...],
    spec: Path,
    out: Path | None,
    matrix_dir: Path | None,
    env_dir: Path | None,
) -> None:
    """Run COMMAND inside VARIANT's environment (`envgen run cpu -- python train.py`).

    Builds the environment from its lock first when it is missing or does not match the lock;
    VARIANT may be `auto` (the best variant this machine can run). SPEC, as for the other
    commands, is a .yaml/.yml file or a folder holding project.yaml (default: --spec).
    """
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    spec, variant, command = split_spec(ctx, words, spec, command=True)
    user = settings()
    with _progress(user):
        env, conda, why = workflow.prepare_env(
            spec, matrix_dir, variant, out=out, env_dir=env_dir, settings=user
        )
    if why:
        console.info(why)
    workflow.exec_in(env, command, conda=conda)


@cli.command("shell")
@click.argument("words", nargs=-1, required=True, metavar="[SPEC] VARIANT")
@spec_option
@out_option
@matrix_option
@env_dir_option
@click.pass_context
def shell_cmd(
    ctx: click.Context,
    words: tuple[str, ...],
    spec: Path,
    out: Path | None,
    matrix_dir: Path | None,
    env_dir: Path | None,
) -> None:
    """Start $SHELL inside VARIANT's environment (built from its lock first if needed).

    SPEC, as for `envgen run`: a .yaml/.yml file or a folder holding project.yaml.
    """
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    spec, variant, _ = split_spec(ctx, words, spec, command=False)
    user = settings()
    with _progress(user):
        env, conda, why = workflow.prepare_env(
            spec, matrix_dir, variant, out=out, env_dir=env_dir, settings=user
        )
    if why:
        console.info(why)
    console.info(f"envgen: a shell in {env.absolute()} (exit to leave)")
    workflow.exec_in(env, workflow.shell_command(), conda=conda)


def _progress(user: Settings) -> AbstractContextManager[None]:
    return quick.progress(user)


def _check_output(path: Path | None) -> None:
    """A --junit path that is a link, a device or a FIFO is refused before the work starts."""
    from envgen.infra.files import check_output_file  # noqa: PLC0415 - keep `envgen --help` fast

    if path is not None:
        check_output_file(path)


def _emit_smoke(
    reports: list[tuple[str, SmokeReport]], as_json: bool, junit: Path | None, *, table: bool = True
) -> None:
    """Smoke results: tables (or JSON) on stdout, and JUnit XML to a file when asked."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast
    from envgen.infra.files import write_if_changed  # noqa: PLC0415 - keep `envgen --help` fast

    if as_json:
        _echo(workflow.render_json_many(reports))
    elif table:
        for variant, report in reports:
            click.echo(f"== {variant}")
            _echo(workflow.render_table(report))
    if junit is not None:
        write_if_changed(junit, workflow.render_junit_many(reports))


@cli.command("doctor")
@click.argument("spec", type=click.Path(path_type=Path, dir_okay=False), required=False)
@click.option(
    "--error", "error_text", default=None, metavar="TEXT", help="Explain an error message."
)
@click.option(
    "--log",
    "log_file",
    type=click.Path(path_type=Path, dir_okay=False, exists=True),
    default=None,
    help="Explain the failures in a log file.",
)
@matrix_option
@json_option
def doctor_cmd(
    spec: Path | None,
    error_text: str | None,
    log_file: Path | None,
    matrix_dir: Path | None,
    as_json: bool,
) -> None:
    """What this machine can run, and what a classic torch failure means."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    data = workflow.doctor(
        spec, matrix_dir, settings=settings(), error_text=error_text, log_file=log_file
    )
    if as_json:
        _echo(json.dumps(data, indent=2))
    else:
        _echo(workflow.format_doctor(data))


@cli.group("export")
def export_group() -> None:
    """The spec's variants as one uv project (pyproject.toml) or one pixi workspace (pixi.toml)."""


def _export(tool: str, spec: Path, output: Path | None, matrix_dir: Path | None) -> None:
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    text, written = workflow.export(
        workflow.ExportOptions(
            spec=spec,
            tool=tool,  # type: ignore[arg-type]
            output=output,
            matrix_dir=matrix_dir,
            settings=settings(),
        )
    )
    if output is None or str(output) == "-":
        _echo(text)
        return
    console.info(f"wrote {output}" if written else f"{output} unchanged")


def _output_option(f: F) -> F:
    return click.option(
        "-o",
        "--output",
        type=click.Path(path_type=Path, dir_okay=False),
        default=None,
        help="Write to this file (default: stdout).",
    )(f)


@export_group.command("uv")
@spec_argument
@_output_option
@matrix_option
def export_uv_cmd(spec: Path, output: Path | None, matrix_dir: Path | None) -> None:
    """A pyproject.toml: one extra per accelerator, explicit PyTorch indexes, conflicts."""
    _export("uv", spec, output, matrix_dir)


@export_group.command("pixi")
@spec_argument
@_output_option
@matrix_option
def export_pixi_cmd(spec: Path, output: Path | None, matrix_dir: Path | None) -> None:
    """A pixi.toml: one feature and environment per accelerator."""
    _export("pixi", spec, output, matrix_dir)


def _register_repro_commands() -> None:
    """`import`, `dockerfile` and `ci` live in envgen.cli.repro (papers, containers, CI)."""
    cli.add_command(import_cmd)
    cli.add_command(dockerfile_cmd)
    cli.add_command(ci_group)


_register_repro_commands()
cli.add_command(vault_group)  # envgen.cli.vault: vault (add, check, gc, push, pull) and pack
cli.add_command(pack_cmd)


# --- entry points --------------------------------------------------------------------------------
def main_inner(args: list[str] | None = None) -> None:
    """Run the CLI, letting EnvgenError propagate (for tests)."""
    cli.main(args=args, prog_name="envgen", standalone_mode=False)


def _run_hint(exc: click.UsageError) -> str:
    """For `envgen run cpu python -V`: the option was meant for the command, not for envgen."""
    name = exc.ctx.info_name if exc.ctx is not None else None
    if not isinstance(exc, click.NoSuchOption) or name != "run":
        return ""
    return (
        f"\n  hint: {exc.option_name} after VARIANT is read as an envgen option; put `--` "
        f"before the command: envgen run VARIANT -- COMMAND {exc.option_name} ..."
    )


def main(args: list[str] | None = None, *, fast: bool = True) -> None:
    """Run the CLI: EnvgenError -> `error: ...` on stderr and its exit code.

    Every exit code comes from envgen.errors: an error class's `exit_code` or one of the codes in
    OTHER_EXIT_CODES. No traceback without --debug. The fast path (envgen.cli.quick) answers the
    commands it knows before click parses anything (`fast=False`: click parses everything); the
    rest is click's.
    """
    argv = list(args if args is not None else sys.argv[1:])
    code = quick.run(argv) if fast else None
    if code is not None:
        sys.exit(code)
    debug = "--debug" in argv
    # Until the group's options are read (a usage error comes first), print as by default.
    console.configure(quiet=False, color="auto", no_color_env=no_color_requested())
    try:
        # SIGINT / SIGTERM stop the child tools at once (their process groups), unwind every
        # clean-up (temp trees, locks) and end here: exit 130 / 143.
        with stop_on_signals():
            cli.main(args=args, prog_name="envgen", standalone_mode=False)
    except click.exceptions.Abort as exc:
        # click turns KeyboardInterrupt (SIGINT, Ctrl-C) into Abort; a declined prompt is one too.
        interrupted = isinstance(exc.__cause__, KeyboardInterrupt)
        click.echo("interrupted" if interrupted else "aborted", err=True)
        sys.exit(INTERRUPTED)
    except click.UsageError as exc:
        exc.show()
        hint = _run_hint(exc)
        if hint:
            click.echo(hint.lstrip("\n"), err=True)
        sys.exit(USAGE)
    except click.ClickException as exc:  # click's other user errors (an unreadable click.File)
        exc.show()
        sys.exit(EnvgenError.exit_code)
    except BaseException as exc:
        sys.exit(edge.exit_code(exc, debug=debug))
    sys.exit(SUCCESS)


def console_main() -> None:
    """The `envgen` command and `python -m envgen`: main() through edge.finish (no teardown)."""
    edge.finish(main)
