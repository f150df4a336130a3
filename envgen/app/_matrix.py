"""`envgen matrix list / show / validate / verify` and `envgen command`.

Part of the envgen.app facade (envgen/app/__init__.py); must not parse argv, print or read the
environment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from envgen.errors import (
    MatrixError,
    UnsupportedCombinationError,
)
from envgen.infra.resources import MATRICES_DIR
from envgen.infra.settings import Settings
from envgen.model.extensions import Target, install_line, pins_for
from envgen.model.matrix import Matrix, Release, check_invariants, load_matrix
from envgen.model.types import TORCH_FAMILY
from envgen.model.variants import (
    issues_for,
    resolve_release,
)
from envgen.render.commands import InstallCommand, conda_command, pip_command
from envgen.render.commands import install_command as render_install_command


# --- matrix commands -----------------------------------------------------------------------------
def matrix_rows(matrix_dir: Path | None, settings: Settings) -> list[dict[str, Any]]:
    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    return [
        {
            "torch": r.torch,
            "torchvision": r.torchvision,
            "torchaudio": r.torchaudio,
            "python": list(r.python),
            "date": r.date,
            "accelerators": list(matrix.accelerators(r.torch)),
            "source": r.source,
            "inferred": list(r.inferred),
        }
        for r in matrix.releases
    ]


def matrix_show(
    torch: str,
    matrix_dir: Path | None,
    settings: Settings,
    *,
    with_extensions: tuple[str, ...] = (),
) -> dict[str, Any]:
    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    release = resolve_release(torch, matrix, where="matrix show")
    pip_rows = [
        {
            "accelerator": b.accelerator,
            "platforms": list(b.platforms),
            # A row that names its torch wheel shows it for the release's newest Python.
            "command": pip_command(b, python=release.python[-1] if release.python else None),
            "source": b.source,
            "inferred": b.inferred,
            "pypi_default": b.pypi_default,
        }
        for b in matrix.pip_builds(release.torch)
    ]
    conda_rows = [
        {
            "accelerator": b.accelerator,
            "platforms": list(b.platforms),
            "command": conda_command(b),
            "source": b.source,
            "inferred": b.inferred,
        }
        for b in matrix.conda_builds(release.torch)
    ]
    # Per published build, so issues tied to an index form or a channel show up too.
    found = [
        *(
            i
            for b in matrix.pip_builds(release.torch)
            for i in issues_for(matrix, release, manager="pip", accelerator=b.accelerator, pip=b)
        ),
        *(
            i
            for b in matrix.conda_builds(release.torch)
            for i in issues_for(
                matrix, release, manager="conda", accelerator=b.accelerator, conda=b
            )
        ),
    ]
    issues = {
        i.id: {"severity": i.severity, "message": i.message, "fix": i.fix, "link": i.link}
        for i in found
    }
    extensions = {name: _extension_rows(matrix, release, name) for name in with_extensions}
    return {
        "torch": release.torch,
        "torchvision": release.torchvision,
        "torchaudio": release.torchaudio,
        "python": list(release.python),
        "date": release.date,
        "source": release.source,
        "inferred": list(release.inferred),
        "pip": pip_rows,
        "conda": conda_rows,
        "known_issues": dict(sorted(issues.items())),
        **({"extensions": extensions} if with_extensions else {}),
    }


def _extension_rows(matrix: Matrix, release: Release, name: str) -> list[dict[str, Any]]:
    """Per pip accelerator on linux-64 (newest python): the extension's pin, or why not."""
    rows: list[dict[str, Any]] = []
    python = release.python[-1] if release.python else "3"
    for b in matrix.pip_builds(release.torch, "linux-64"):
        target = Target(
            torch=release.torch, accelerator=b.accelerator, python=python, platform="linux-64"
        )
        try:
            (pin,) = pins_for(matrix, (name,), target, where="--with")
        except UnsupportedCombinationError as exc:
            if "is not a known extension" in exc.message:
                raise
            rows.append({"accelerator": b.accelerator, "python": python, "error": exc.message})
            continue
        rows.append(
            {
                "accelerator": b.accelerator,
                "python": python,
                "version": pin.version,
                "command": install_line(pin),
                "source": pin.source,
                "inferred": pin.inferred,
            }
        )
    return rows


def format_show(data: dict[str, Any]) -> str:
    lines = [
        f"torch {data['torch']} (released {data['date'] or 'unknown'})",
        f"  torchvision {data['torchvision'] or '-'}, torchaudio {data['torchaudio'] or '-'}",
        f"  python {', '.join(data['python'])}",
        f"  source: {data['source']}"
        + (f" (inferred: {', '.join(data['inferred'])})" if data["inferred"] else ""),
    ]
    for mgr in ("pip", "conda"):
        lines.append(f"{mgr}:")
        if not data[mgr]:
            lines.append("  (not published)")
        for row in data[mgr]:
            mark = " [inferred]" if row["inferred"] else ""
            lines.append(f"  {row['accelerator']:<10} {','.join(row['platforms'])}{mark}")
            lines.append(f"    {row['command']}")
    for name, rows in data.get("extensions", {}).items():
        lines.append(f"{name} (pip, linux-64):")
        for row in rows:
            if "error" in row:
                lines.append(
                    f"  {row['accelerator']:<10} not built: {row['error'].split('; ', 1)[-1]}"
                )
                continue
            mark = " [inferred]" if row["inferred"] else ""
            lines.append(f"  {row['accelerator']:<10} python {row['python']}{mark}")
            lines.append(f"    {row['command']}")
    for key, issue in data["known_issues"].items():
        lines.append(f"{issue['severity']}: [{key}] {issue['message']} Fix: {issue['fix']}")
    return "\n".join(lines)


def matrix_validate(matrix_dir: Path | None, settings: Settings) -> str:
    # The YAML itself, through pydantic, every time: other commands may take the validated copy
    # cached under settings.cache_root or shipped with envgen (envgen.model.matrix), this one
    # checks the files.
    del settings
    matrix = load_matrix(matrix_dir, trust_shipped=False)
    problems = check_invariants(matrix)
    if problems:  # load_matrix raises on these; reaching here is a bug
        msg = "internal error: load_matrix accepted a matrix with problems: " + "; ".join(problems)
        raise RuntimeError(msg)
    from envgen.render.dockerfile import CUDA_IMAGES_FILE, load_cuda_images  # noqa: PLC0415 - ~55 ms (rich, via smoke.report); only for matrix validate

    images = ""
    if ((matrix_dir or MATRICES_DIR) / CUDA_IMAGES_FILE).exists():
        images = f", {len(load_cuda_images(matrix_dir))} CUDA base images"
    from envgen.model.targets import TARGETS_FILE, load_targets  # noqa: PLC0415 - only for matrix validate

    if ((matrix_dir or MATRICES_DIR) / TARGETS_FILE).exists():
        targets = load_targets(matrix_dir)  # the runtime reader, then the schema on the same data
        from envgen.infra.safe_yaml import load_bounded  # noqa: PLC0415 - only for matrix validate
        from envgen.model.targets_schema import first_problem  # noqa: PLC0415 - pydantic: validate only

        path = (matrix_dir or MATRICES_DIR) / TARGETS_FILE
        problem = first_problem(load_bounded(path.read_text(encoding="utf-8"))[1])
        if problem is not None:
            msg = f"{path}: invalid value: {problem}"
            raise MatrixError(msg)
        images += f", {len(targets.uv_python_platforms)} target platforms"
    return (
        f"matrix ok: {len(matrix.releases)} releases, {len(matrix.pip)} pip builds, "
        f"{len(matrix.conda)} conda builds, {len(matrix.drivers)} drivers, "
        f"{len(matrix.known_issues)} known issues"
        + (f", {len(matrix.extensions)} extensions" if matrix.extensions else "")
        + images
    )


def matrix_verify(matrix_dir: Path | None, index: str, settings: Settings) -> list[dict[str, str]]:
    from envgen.verification import matrix as checks  # noqa: PLC0415 - ~11 ms; only for matrix verify
    from envgen.verification import pypi  # noqa: PLC0415 - the same

    matrix = load_matrix(matrix_dir, cache_root=settings.cache_root)
    facts = pypi.fetch_pypi_facts(TORCH_FAMILY, index=index, timeout=settings.http_timeout)
    return [
        {"severity": f.severity, "where": f.where, "message": f.message}
        for f in checks.verify_matrix(matrix, facts)
    ]


def install_command(
    matrix_dir: Path | None,
    *,
    torch: str,
    compute: str,
    manager: str,
    os_name: str,
    settings: Settings,
    with_extensions: tuple[str, ...] = (),
    python: str | None = None,
) -> InstallCommand:
    return render_install_command(
        load_matrix(matrix_dir, cache_root=settings.cache_root),
        torch=torch,
        compute=compute,
        manager=manager,
        os_name=os_name,
        with_extensions=with_extensions,
        python=python,
    )
