"""`envgen import`'s front end: other people's environment files -> evidence -> project.yaml.

Each input format is one module whose `read(text, found, base)` adds what the file asks for to
an `Evidence` record; `detect` chooses the reader; `resolution` turns the evidence into
project.yaml data against the matrix, naming every departure from the file. A new format is a
new module and a row in `detect.READERS`. Nothing here touches the network or starts a process
(envgen.repro.entry does: `git log` for --git, the pins' file lists).

Formats (the readers):
  requirements    pip requirements files, -r includes, `pip install` argument lists
  conda_env       conda environment files (environment.yml) and conda match specs
  conda_list      `conda list` / `conda list --export` output
  conda_explicit  `conda list --explicit` output and conda-lock's explicit files (package URLs)
  install_script  POSIX shell install scripts, on their default route (envgen.repro.shell)
  batch           Windows .bat / .cmd installers, on their default route
  dockerfile      Dockerfiles: FROM image, ARG/ENV, COPY'd files, RUN lines
  singularity     Singularity / Apptainer definition files: the final stage's From image, %files,
                  %post (and %appinstall) as shell, %environment's PATH
  readme          shell and batch blocks of a README (Markdown, reStructuredText), its prose
  setup_py        setup.py (ast, never executed)
  setup_cfg       setup.cfg
  pyproject       pyproject.toml (PEP 621, Poetry)
  pylock          PEP 751 locks (pylock.toml)
  uv_lock         uv's lock (uv.lock): what `uv sync` installs on linux-64
  pipfile         pipenv's Pipfile and Pipfile.lock
  pixi            pixi manifests (pixi.toml, [tool.pixi]): the default environment's features
  ci              CI configurations (Travis, GitHub Actions, GitLab, Azure, CircleCI, Bitbucket):
                  the test job's python, image and shell steps
  tox             tox.ini: the first environment's python, deps and commands
  declared        the record the package-metadata formats produce, read into evidence
  repository      a whole repository: find its sources, read each, merge the evidence
  detect          which format a file is, and its reader

The record:
  evidence        `Evidence` (what a file asked for, where) and the setters readers use

The resolution (evidence + matrix -> project.yaml data and warnings):
  resolution      `build_project`: the keys in file order, each from its evidence
  release         which torch release
  accelerator     which compute platform
  routes          which install route (pip or conda), known issues, a channel that ended
  python          which python
  companions      torchvision and torchaudio
  report          problems, warnings and departures ("was X, now Y, because Z")
  project_yaml    project.yaml text, and the comments it keeps
  api             ImportOptions, ImportResult, import_text
"""

from __future__ import annotations

from envgen.repro.importer.api import ImportOptions, ImportResult, import_text
from envgen.repro.importer.detect import detect_kind, parse_command_text, parse_file, parse_text
from envgen.repro.importer.project_yaml import kept_comments, render_project
from envgen.repro.importer.resolution import build_project

__all__ = [
    "ImportOptions",
    "ImportResult",
    "build_project",
    "detect_kind",
    "import_text",
    "kept_comments",
    "parse_command_text",
    "parse_file",
    "parse_text",
    "render_project",
]
