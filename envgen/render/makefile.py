"""The generated <out>/Makefile: lock, check, env-<variant>, smoke-<variant> targets. Pure."""

from __future__ import annotations

from envgen.render.header import Header, safe_path
from envgen.render.templating import render_template


def render_makefile(
    *,
    header: Header,
    spec_relpath: str,
    variant_ids: list[str],
    aliases: list[tuple[str, str]] | None = None,
    where: str = "Makefile",
) -> str:
    """Render the Makefile that drives envgen for one project's output directory.

    `aliases` are (accelerator, pattern) pairs for accelerators with several variants, so
    `make env-cu118` still works once a second python or platform is added.

    Raises:
        SpecError: the spec path holds characters make or the shell would expand.
    """
    spec = safe_path(spec_relpath, where=where)
    return render_template(
        "Makefile.j2",
        header=header.lines(),
        spec=spec,
        variants=variant_ids,
        aliases=aliases or [],
    )
