"""`envgen ci github|gitlab`: a CI workflow, one job per variant (lock check, then build + smoke).

GPU variants (cu*, rocm*) run on the spec's `ci.gpu_runner` label, the rest on `ci.cpu_runner`.
Output depends only on the spec, the matrix and the templates. This module must not call any CI
service, and must not lock or build anything.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from envgen import install_requirement
from envgen.infra.files import input_hash, write_if_changed
from envgen.infra.settings import Settings
from envgen.model.matrix import Matrix, load_matrix
from envgen.model.spec import ProjectSpec, load_spec
from envgen.model.variants import Variant, expand
from envgen.render.header import FORMAT_VERSION, Header, regenerate_command, safe_path
from envgen.render.templating import render_template

Engine = Literal["github", "gitlab"]
# The Python that runs envgen itself on the runner (each variant's own Python is built by envgen).
TOOL_PYTHON: Final = "3.11"
# GitHub's hosted label: on GitLab it means "no tag" (any shared runner).
GITHUB_DEFAULT_CPU: Final = "ubuntu-latest"
DEFAULT_OUT: Final[dict[Engine, str]] = {
    "github": ".github/workflows/envgen.yml",
    "gitlab": ".gitlab-ci.yml",
}
_TEMPLATES: Final[dict[Engine, str]] = {
    "github": "github-workflow.yml.j2",
    "gitlab": "gitlab-ci.yml.j2",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class CiJob:
    """One variant's job: its id and the runner labels it needs."""

    variant: str
    labels: tuple[str, ...]
    gpu: bool

    @property
    def runner_json(self) -> str:
        return json.dumps(list(self.labels))

    @property
    def tags(self) -> list[str]:
        """GitLab tags: none for a CPU job on GitHub's default label."""
        if not self.gpu and self.labels == (GITHUB_DEFAULT_CPU,):
            return []
        return list(self.labels)


@dataclass(frozen=True, slots=True, kw_only=True)
class CiOptions:
    """What `envgen ci github|gitlab` was asked to do."""

    spec: Path
    engine: Engine
    out: Path | None = None
    matrix_dir: Path | None = None
    settings: Settings  # the user's settings (ENVGEN_CUSTOM_COMMAND, the cache root)


def is_gpu(variant: Variant) -> bool:
    """True for variants that need an accelerator to pass the GPU tier (cu*, rocm*, xpu)."""
    return variant.kind != "cpu"


def repo_root(out: Path) -> Path:
    """Where the CI runs the commands: above `.github/workflows/`, else the workflow's folder."""
    folder = out.resolve().parent
    if folder.name == "workflows" and folder.parent.name == ".github":
        return folder.parent.parent
    return folder


def ci_jobs(spec: ProjectSpec, matrix: Matrix) -> list[CiJob]:
    """One job per variant, in the variants' order."""
    jobs: list[CiJob] = []
    for v in expand(spec, matrix).variants:
        gpu = is_gpu(v)
        label = spec.ci.gpu_runner if gpu else spec.ci.cpu_runner
        jobs.append(CiJob(variant=v.id, labels=tuple(p for p in label.split(",") if p), gpu=gpu))
    return jobs


def render_ci(
    spec: ProjectSpec, matrix: Matrix, *, engine: Engine, out: Path, custom_command: str | None
) -> str:
    """The workflow text (pure apart from reading templates).

    `custom_command`: the user's ENVGEN_CUSTOM_COMMAND (Settings.custom_command), or None.
    """
    jobs = ci_jobs(spec, matrix)
    spec_rel = safe_path(
        Path(os.path.relpath(spec.path.resolve(), repo_root(out))).as_posix(),
        where=DEFAULT_OUT[engine],
    )
    install = spec.ci.install or install_requirement()
    header = Header(
        command=regenerate_command(f"envgen ci {engine} {spec.path.name}", custom_command),
        input_hash=input_hash(
            {
                "format": FORMAT_VERSION,
                "kind": f"ci-{engine}",
                "spec": spec_rel,
                "install": install,
                "jobs": [[j.variant, list(j.labels)] for j in jobs],
            }
        ),
        description=f"project: {spec.name} ({len(jobs)} variant job(s))",
    )
    return render_template(
        _TEMPLATES[engine],
        header=header.lines(),
        jobs=jobs,
        spec=spec_rel,
        install=install,
        tool_python=TOOL_PYTHON,
    )


def write_ci(options: CiOptions) -> tuple[Path, bool]:
    """Write the workflow unless identical; return (path, written)."""
    spec = load_spec(options.spec)
    matrix = load_matrix(options.matrix_dir, cache_root=options.settings.cache_root)
    out = options.out or spec.directory / DEFAULT_OUT[options.engine]
    text = render_ci(
        spec,
        matrix,
        engine=options.engine,
        out=out,
        custom_command=options.settings.custom_command,
    )
    # A default path lies in the project (untrusted below it); -o names its own folder.
    inside = options.out.parent if options.out is not None else spec.directory
    return out, write_if_changed(out, text, inside=inside)
