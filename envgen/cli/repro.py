"""Click commands for reproducing old work: `envgen import`, `envgen dockerfile`, `envgen ci`.

Standalone click objects, registered in envgen/cli/commands.py with `cli.add_command(...)`. Each
parses its options, calls one envgen.app function (the facade loads only what the command needs:
`import` gets the importer, not the lock and render stages), and prints; nothing here does real
work.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from envgen.cli import console, quick
from envgen.cli.context import settings
from envgen.cli.options import matrix_option, spec_argument, warn

if TYPE_CHECKING:
    from envgen.app import Engine


_FILE = click.Path(path_type=Path, dir_okay=False)


@click.command("import")
@click.argument("source", type=click.Path(path_type=Path), required=False)
@click.option("-o", "--output", "out", type=_FILE, default=None,
              help="Write project.yaml here (default: print it).")  # fmt: skip
@click.option(
    "--command", "command", default=None, metavar="TEXT", help="Import an install command line."
)
@click.option(
    "--as-of", "as_of", default=None, metavar="DATE", help="Set lock.exclude_newer (YYYY-MM-DD)."
)
@click.option(
    "--git", "use_git", is_flag=True, help="Use the date of FILE's last git commit as --as-of."
)
@click.option(
    "--name", default=None, help="The project name (default: the conda env name or the folder)."
)
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse instead of moving to the nearest combination that existed.",
)
@click.option("--force", is_flag=True, help="Let -o overwrite an existing file.")
@click.option(
    "--context",
    "context",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="A Dockerfile's build context (default: the Dockerfile's folder, or the checkout root "
    "above it where it copies from its own folder by name).",
)
@click.option(
    "--checkout",
    "checkout",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    default=None,
    help="The repository checkout FILE lies in, where it has no .git (a ZIP download): a helper "
    "script under it (scripts/) or its CI file may read it.",
)
@click.option(
    "--offline",
    is_flag=True,
    help="Do not ask PyPI (or ENVGEN_PYPI_INDEX) which python the file's pins have wheels for.",
)
@click.option(
    "--extra",
    "extras",
    multiple=True,
    metavar="NAME",
    help="Install this extra of a pyproject.toml / setup.py / setup.cfg, as pip install "
    "'.[NAME]' does (repeatable; default: a plain install, which leaves extras out).",
)
@matrix_option
def import_cmd(
    source: Path | None,
    out: Path | None,
    command: str | None,
    as_of: str | None,
    use_git: bool,
    name: str | None,
    strict: bool,
    force: bool,
    context: Path | None,
    checkout: Path | None,
    offline: bool,
    extras: tuple[str, ...],
    matrix_dir: Path | None,
) -> None:
    """Turn a repository, environment file, install line or Dockerfile into a project.yaml.

    SOURCE is a file (environment.yml, requirements.txt, pip freeze or conda list --export /
    --explicit output, setup.py, pyproject.toml, a Pipfile, a pixi.toml, an install script, a
    Dockerfile, a Compose file, a Singularity/Apptainer definition file, a README, a CI file such as
    .travis.yml) or a repository folder, whose environment sources
    are all read and merged.
    """
    if (source is None) == (command is None):
        msg = "give exactly one of FILE or --command"
        raise click.UsageError(msg)
    quick.import_file(
        source,
        command=command,
        out=out,
        as_of=as_of,
        use_git=use_git,
        name=name,
        strict=strict,
        force=force,
        context=context,
        checkout=checkout,
        offline=offline,
        matrix_dir=matrix_dir,
        user=settings(),
        extras=extras,
    )


@click.command("dockerfile")
@spec_argument
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Output directory (default: docker/ beside the spec).")  # fmt: skip
@click.option("--variant", "--only", "variants", multiple=True, metavar="PATTERN",
              help="Only variants whose id matches (fnmatch); repeatable.")  # fmt: skip
@matrix_option
@click.option("--vault", default=None, metavar="DIR_OR_URL",
              help="Install only from this vault (a folder in the context, or a URL).")  # fmt: skip
def dockerfile_cmd(
    spec: Path,
    out: Path | None,
    variants: tuple[str, ...],
    matrix_dir: Path | None,
    vault: str | None,
) -> None:
    """Write <out>/<variant>/Dockerfile: base image, locked install, smoke test."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    written, warnings = workflow.dockerfiles(
        workflow.DockerfileOptions(
            spec=spec,
            out=out,
            variants=variants,
            matrix_dir=matrix_dir,
            settings=settings(),
            vault=vault,
        )
    )
    warn(warnings)
    for path in written:
        console.info(f"wrote {path}")
    console.info(f"{len(written)} file(s) written")


@click.group("ci")
def ci_group() -> None:
    """Write a CI workflow with one job per variant."""


def _ci_command(engine: Engine, default: str) -> click.Command:
    @click.command(
        engine, help=f"Write {default}: lock check, build, smoke test and JUnit per variant."
    )
    @spec_argument
    @click.option("-o", "--output", "out", type=_FILE, default=None,
                  help=f"Where to write it (default: {default} beside the spec).")  # fmt: skip
    @matrix_option
    def command(spec: Path, out: Path | None, matrix_dir: Path | None) -> None:
        from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

        path, written = workflow.write_ci(
            workflow.CiOptions(
                spec=spec,
                engine=engine,
                out=out,
                matrix_dir=matrix_dir,
                settings=settings(),
            )
        )
        console.info(f"wrote {path}" if written else f"{path} unchanged")

    return command


ci_group.add_command(_ci_command("github", ".github/workflows/envgen.yml"))
ci_group.add_command(_ci_command("gitlab", ".gitlab-ci.yml"))
