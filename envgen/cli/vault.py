"""Click commands for durable locks: `envgen vault` (add, check, gc, push, pull) and `envgen pack`.

Standalone click objects, registered in envgen/cli/commands.py with `cli.add_command(...)`. Each
parses its options, calls one function of envgen.app, and prints; nothing here does real work.
`envgen vault SPEC --dir DIR` is `envgen vault add SPEC --dir DIR`: a first word that names no
subcommand goes to `add`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from envgen.cli.context import settings
from envgen.cli.options import (
    env_dir_option,
    matrix_option,
    out_option,
    spec_argument,
    spec_option,
    variant_option,
)

_DIR = click.Path(path_type=Path, file_okay=False)
F = TypeVar("F", bound=Callable[..., Any])


class _DefaultAdd(click.Group):
    """A group whose first word, when it names no subcommand, is `add`'s SPEC argument."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["add", *args]
        return super().parse_args(ctx, args)


def _dir_option(f: F) -> F:
    return click.option("--dir", "root", type=_DIR, required=True, help="The vault folder.")(f)


@click.group("vault", cls=_DefaultAdd)
def vault_group() -> None:
    """Keep every artifact of the locks (a static pip index + conda channel) so they install later.

    `envgen vault [SPEC] --dir DIR` (= `vault add`) fetches and stores them; `vault check`
    re-hashes, `vault gc` drops what no lock needs, `vault push` / `pull` sync with S3.
    """


@vault_group.command("add")
@spec_argument
@out_option
@variant_option
@matrix_option
@_dir_option
@click.option(
    "--all-files",
    is_flag=True,
    help="Every file the lock hashes (all platforms), not only the variant's target's.",
)
def vault_add_cmd(
    spec: Path,
    out: Path | None,
    variants: tuple[str, ...],
    matrix_dir: Path | None,
    root: Path,
    all_files: bool,
) -> None:
    """Fetch, verify and store every artifact the selected variants' locks name."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    done = workflow.vault(
        spec,
        matrix_dir,
        out=out,
        variants=variants,
        root=root,
        all_files=all_files,
        settings=settings(),
    )
    for d in done:
        click.echo(f"{d.key}: {d.files} files, {d.bytes / 1e6:.1f} MB in {root}")


@vault_group.command("check")
@_dir_option
def vault_check_cmd(root: Path) -> None:
    """Re-hash every file in the vault; exit 7 naming each missing or changed one."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    workflow.vault_check(root)
    click.echo(f"{root}: every file matches its sha256")


@vault_group.command("gc")
@_dir_option
def vault_gc_cmd(root: Path) -> None:
    """Remove the files no vaulted lock references."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    dropped = workflow.vault_gc(root)
    for a in dropped:
        click.echo(f"removed {a.path}")
    click.echo(f"{len(dropped)} file(s) removed, {sum(a.size for a in dropped) / 1e6:.1f} MB")


def _s3_url(ctx: click.Context, param: click.Parameter, value: str) -> str:  # noqa: ARG001 - click
    if not value.startswith("s3://") or len(value) <= len("s3://"):
        msg = f"{value!r} is not an s3://BUCKET[/PREFIX] URL (e.g. s3://team-vault/envgen)"
        raise click.BadParameter(msg)
    return value


def _s3_options(f: F) -> F:
    f = click.argument("url", metavar="s3://BUCKET[/PREFIX]", callback=_s3_url)(f)
    return click.option(
        "--endpoint-url",
        default=None,
        callback=_endpoint_url,
        help="An S3-compatible server (MinIO, Ceph, ...); default: ENVGEN_S3_ENDPOINT_URL, "
        "else AWS.",
    )(f)


def _endpoint_url(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:  # noqa: ARG001 - click
    """--endpoint-url, else ENVGEN_S3_ENDPOINT_URL (read by Settings with the other settings)."""
    return value if value is not None else settings().s3_endpoint_url


@vault_group.command("push")
@_dir_option
@_s3_options
def vault_push_cmd(root: Path, url: str, endpoint_url: str | None) -> None:
    """Upload what the bucket lacks (files first, the manifest last)."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    result = workflow.vault_push(root, url, endpoint_url=endpoint_url)
    click.echo(f"pushed {result.copied} file(s), {result.skipped} already there")


@vault_group.command("pull")
@_dir_option
@_s3_options
def vault_pull_cmd(root: Path, url: str, endpoint_url: str | None) -> None:
    """Download what the local vault lacks, each file checked against its sha256."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    result = workflow.vault_pull(root, url, endpoint_url=endpoint_url)
    click.echo(f"pulled {result.copied} file(s), {result.skipped} already here")


@click.command("pack")
@click.argument("variant")
@spec_option
@out_option
@matrix_option
@env_dir_option
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The archive (default: <project>-<variant>.tar.gz in the current folder).",
)
def pack_cmd(
    variant: str,
    spec: Path,
    out: Path | None,
    matrix_dir: Path | None,
    env_dir: Path | None,
    output: Path | None,
) -> None:
    """Pack a built, smoke-passing environment into one relocatable archive."""
    from envgen import app as workflow  # noqa: PLC0415 - keep `envgen --help` fast

    archive = workflow.pack(
        spec,
        matrix_dir,
        variant=variant,
        out=out,
        env_dir=env_dir,
        output=output,
        settings=settings(),
    )
    click.echo(str(archive))
