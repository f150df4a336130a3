"""CI configuration files: Travis CI, GitHub Actions workflows, GitLab CI, Azure Pipelines,
CircleCI and Bitbucket Pipelines, read as the environment their test job builds.

A CI file is an install script cut into steps: the shell steps that prepare the job (Travis's
`before_install` / `install` / `before_script`, a workflow's `run:` and the `with.script` input a
job hands a reusable workflow (pytorch/test-infra's linux_job), GitLab's `before_script` and
`script`, Azure's `script:` / `bash:`, CircleCI's `run:`) are joined in order, each at its own
line of the file, and read by the shell interpreter (envgen.repro.importer.install_script) with
the variables the file sets. The python is the one the job asks the CI for (Travis's `python:`,
actions/setup-python's `python-version`, Azure's UsePythonVersion `versionSpec`, a `python:3.8`
or `pytorch/pytorch:...` job image, read as a Dockerfile's FROM is). A build matrix is read on its
default route, as a script's branches are: the first value of each axis (the Linux one of an `os`
axis), the others named in a warning, plus what GitHub's `include` entries add to that combination;
the runner is Linux x86_64 (RUNNER_OS, `runner.os`, TRAVIS_OS_NAME). A Travis root `python:` list
makes the build's own jobs; `jobs.include` adds others (a lint job, a deploy stage); without a
root `python:`, each include entry is a job. Of several jobs, the first whose default route (with
its own variables: Travis's `env: BACKEND=pytorch`) runs a command installing torch is read, else
the first whose steps install torch, else the first naming it, else the first with steps. The steps
run in the checkout's root: for a workflow under `.github/workflows/` (or `.circleci/config.yml`)
that is two (one) folders up, where their `pip install -r requirements.txt` finds its file.

Formats: https://docs.travis-ci.com/user/job-lifecycle/ (phases), https://docs.github.com/en/actions/
writing-workflows/workflow-syntax-for-github-actions (jobs, steps, strategy.matrix, expressions),
https://docs.gitlab.com/ci/yaml/ (jobs, before_script, variables, image),
https://learn.microsoft.com/azure/devops/pipelines/yaml-schema/ (steps, UsePythonVersion, macros),
https://circleci.com/docs/configuration-reference/ (jobs, docker, run).
Must not run anything the file names.
"""

from __future__ import annotations

import contextvars
import copy
import itertools
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Final

import yaml

from envgen.infra.safe_yaml import load_bounded
from envgen.repro import shell
from envgen.repro.importer.conda_env import conda_spec
from envgen.repro.importer.conda_env import read as conda_read
from envgen.repro.importer.declared import load_yaml
from envgen.repro.importer.evidence import Evidence, set_python
from envgen.repro.importer.images import from_image
from envgen.repro.importer.install_script import installs_torch, parse_shell
from envgen.repro.importer.requirements import include_file
from envgen.repro.reading import MAX_EXPANDED_TOTAL, checkout_root, excerpt

_TRAVIS_PHASES: Final = ("before_install", "install", "before_script")
_GITLAB_RESERVED: Final = frozenset(
    {"stages", "variables", "image", "services", "before_script", "after_script", "cache",
     "include", "default", "workflow", "types", "pages"}
)  # fmt: skip
_EXPRESSION: Final = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")
_PYTHON_VERSION: Final = re.compile(r"^(?:python|py|cp)?-?(\d)\.?(\d+)(?:\.\d+)?$")
# What the CI's Linux runner sets for every job (the default route is Linux x86_64): GitHub's
# RUNNER_OS / RUNNER_ARCH (and the `runner` context), Travis's TRAVIS_OS_NAME / TRAVIS_CPU_ARCH.
_GITHUB_RUNNER: Final = {"RUNNER_OS": "Linux", "RUNNER_ARCH": "X64"}
_GITHUB_RUNNER_CONTEXT: Final = {"os": "Linux", "arch": "X64"}
_TRAVIS_RUNNER: Final = {"TRAVIS_OS_NAME": "linux", "TRAVIS_CPU_ARCH": "amd64"}


class _Text(str):
    """A scalar with the file line its text starts on."""

    __slots__ = ("line",)
    line: int


def _located(node: yaml.Node | None) -> object:
    """The YAML value with every scalar kept as its text and line (`python: 3.10` stays "3.10")."""
    if isinstance(node, yaml.ScalarNode):
        out = _Text(node.value)
        # A block scalar (`run: |`) starts on the line after its indicator.
        out.line = node.start_mark.line + (2 if node.style in {"|", ">"} else 1)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_located(item) for item in node.value]
    if isinstance(node, yaml.MappingNode):
        mapping: dict[str, object] = {}
        for key, value in node.value:
            if key.value == "<<":  # a merge key: the anchored mapping's entries, then the rest
                merged = _located(value)
                for part in merged if isinstance(merged, list) else [merged]:
                    if isinstance(part, dict):
                        for k, v in part.items():
                            mapping.setdefault(k, v)
                continue
            mapping[str(key.value)] = _located(value)
        return mapping
    return None


class _Job:
    """What one CI job runs: shell steps with their lines, variables, python and images."""

    def __init__(self) -> None:
        self.steps: list[tuple[int, str]] = []
        self.env: dict[str, str] = {}
        self.python: tuple[str, str] | None = None  # (version, where)
        self.images: list[tuple[str, int]] = []
        self.files: list[tuple[str, int]] = []  # conda environment files a setup action reads
        self.specs: list[tuple[str, int]] = []  # conda specs a setup action installs

    def names_torch(self) -> bool:
        texts = [text for _, text in self.steps] + [spec for spec, _ in self.specs]
        return any(re.search(r"\btorch|pytorch", text) for text in texts)

    def installs_torch(self) -> bool:
        """A step whose install command names torch, not a mere mention (install_script's
        installs_torch)."""
        texts = [text for _, text in self.steps] + [spec for spec, _ in self.specs]
        return any(installs_torch(text) for text in texts)

    def routes_torch(self) -> bool:
        """Its steps' default route, with its own variables, runs a command that installs torch
        (Travis's matrix jobs share one script and choose a branch by `env: BACKEND=pytorch`)."""
        if any(installs_torch(spec) for spec, _ in self.specs):
            return True
        route = shell.interpret(_script(self.steps), env=dict(self.env))
        return any(installs_torch(command.text) for command in route.commands)


def _load(text: str) -> tuple[yaml.Node | None, object]:
    """The file's YAML, bounded; where PyYAML refuses a tab among the blanks at a line's end
    (`run: |<tab>`), which YAML 1.2 (GitHub's and GitLab's parsers) reads as white space and
    PyYAML (YAML 1.1) refuses after a block scalar's indicator, the file without those blanks
    (each line stripped once: linear in the file)."""
    try:
        return load_bounded(text)
    except yaml.YAMLError:
        lines = text.split("\n")
        blanks = [line[len(line.rstrip(" \t")) :] for line in lines]
        if not any("\t" in blank for blank in blanks):
            raise
    return load_bounded("\n".join(line.rstrip(" \t") for line in lines))


def read(text: str, found: Evidence, base: Path | None) -> None:
    """A CI file's test job: its python, images and shell steps, read as an install script."""
    loaded = load_yaml(text, found, _load)
    if loaded is None:
        return
    node = loaded[0]
    base = _workspace(base, found)
    data = _located(node)
    if not isinstance(data, dict):
        found.problems.append(f"{found.source}: expected a CI configuration (a mapping)")
        return
    token = _EXPANDED.set([0])
    try:
        jobs = _jobs(data, found)
    except _TooBig:
        found.problems.append(
            f"{found.source}: its ${{{{ }}}} and $( ) expressions expand to more than "
            f"{MAX_EXPANDED_TOTAL} characters in all (a value repeated many times); refused"
        )
        return
    finally:
        _EXPANDED.reset(token)
    chosen = (
        next((j for j in jobs if j.installs_torch() and j.routes_torch()), None)
        or next((j for j in jobs if j.installs_torch()), None)
        or next((j for j in jobs if j.names_torch()), None)
        or _job_bringing_torch(jobs, found, base)
        or next((j for j in jobs if j.steps or j.specs or j.files), None)
    )
    if chosen is None:
        return
    others = [j for j in jobs if j is not chosen and j.names_torch()]
    if others:
        found.warnings.append(
            f"{found.source}: {len(others) + 1} jobs install torch; envgen reads the first "
            f"(line {chosen.steps[0][0] if chosen.steps else '?'}), the others are alternatives"
        )
    _read_job(chosen, found, base)


def _read_job(job: _Job, found: Evidence, base: Path | None) -> None:
    for image, line in job.images:
        from_image(image, found, f"{found.source}:{line} (the job's image)")
    if job.python is not None:
        set_python(found, job.python[0], job.python[1])
    if job.specs:
        for spec, line in job.specs:
            conda_spec(spec, found, f"{found.source}:{line}")
    for name, line in job.files:
        _environment_file(name, found, base, f"{found.source}:{line}")
    parse_shell(_script(job.steps), found, base, env=dict(job.env))


_MAX_TRIED_JOBS: Final = 8  # jobs read on trial for the one whose installs bring torch


def _job_bringing_torch(jobs: list[_Job], found: Evidence, base: Path | None) -> _Job | None:
    """Where no job's text names torch, the first whose installs bring it in (`pip install -e
    ".[ci]"` of a pyproject.toml that depends on torch; a lint job's ruff does not): each read
    on trial, into a copy of what the file said so far."""
    for job in [j for j in jobs if j.steps or j.specs or j.files][:_MAX_TRIED_JOBS]:
        trial = copy.deepcopy(found)
        _read_job(job, trial, base)
        if trial.torch is not None or trial.companions:
            return job
    return None


def _workspace(base: Path | None, found: Evidence) -> Path | None:
    """The folder a CI job's steps run in: the checkout's root (GitHub's GITHUB_WORKSPACE,
    CircleCI's working_directory after `checkout`), which for a file under `.github/workflows/`
    or `.circleci/` is above the file; includes (`pip install -r requirements.txt`) resolve
    there, and the import may read that checkout (not beyond it) when it is one (a .git in it:
    a ~/.github/workflows/ci.yml must not open the user's home)."""
    if base is None:
        return None
    if base.name == "workflows" and base.parent.name == ".github":
        top = base.parent.parent
    elif base.name == ".circleci":
        top = base.parent
    else:
        return base
    if found.root is None and found.docker is None and checkout_root(top, found.checkout):
        found.tree = top  # elsewhere an include there is refused as outside the file's folder
    return top


def _environment_file(name: str, found: Evidence, base: Path | None, where: str) -> None:
    include_file(name, found, base, where, seen=set(), flag="environment-file", parse=conda_read)


def _script(steps: list[tuple[int, str]]) -> str:
    """The steps as one script, each at its own line of the file where it fits (so the line
    numbers in messages are the file's), in order."""
    lines: list[str] = []
    for line, text in steps:
        body = text.splitlines() or [""]
        start = max(line - 1, len(lines))
        lines.extend([""] * (start - len(lines)))
        lines.extend(body)
    return "\n".join(lines) + "\n"


def _jobs(data: dict[str, object], found: Evidence) -> list[_Job]:
    """The jobs of whichever CI the file is for (by its name, else by its keys), each with what
    its default route runs."""
    name = found.source.lower().rsplit("/", 1)[-1]
    if name.startswith(".travis.") or (
        ("language" in data or "before_install" in data or "install" in data)
        and not name.startswith((".gitlab-ci.", "azure-pipelines.", "bitbucket-pipelines."))
    ):
        return _travis(data, found)
    if name.startswith(".gitlab-ci."):
        return _gitlab(data)
    if name.startswith("azure-pipelines."):
        return _azure(data, found)
    if isinstance(data.get("pipelines"), dict):
        return _bitbucket(data)
    if isinstance(data.get("jobs"), dict) and ("on" in data or _has_runs_on(data)):
        return _github(data, found)
    if "steps" in data or "pool" in data or "trigger" in data or _azure_jobs(data):
        return _azure(data, found)
    if isinstance(data.get("jobs"), dict) and "version" in data:
        return _circleci(data)
    return _gitlab(data)


def _has_runs_on(data: dict[str, object]) -> bool:
    jobs = data.get("jobs")
    return isinstance(jobs, dict) and any(
        isinstance(j, dict) and ("runs-on" in j or "uses" in j) for j in jobs.values()
    )


def _mapping(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _strings(value: object) -> list[_Text]:
    """A step list (a string or a list of strings), as the strings."""
    if isinstance(value, _Text):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, _Text)]
    return []


def _python_of(value: object) -> str | None:
    """A python version as CI files write it (3.6, "3.10", python3.8, 3.9.7); None for "3.x",
    pypy or an expression."""
    m = _PYTHON_VERSION.match(str(value).strip())
    return f"{m.group(1)}.{m.group(2)}" if m else None


def _first_python(value: object, job: _Job, where: str) -> str | None:
    """The default route's python of a `python:` key (a version or a list of them)."""
    values = value if isinstance(value, list) else [value]
    for item in values:
        python = _python_of(item)
        if python is not None:
            line = item.line if isinstance(item, _Text) else 0
            job.python = job.python or (python, f"{where}:{line} (the CI's python)")
            return python
    return None


def _assignments(text: str, env: dict[str, str]) -> None:
    """`A=1 B="x y"` (Travis's env entries) into `env`."""
    try:
        words = shlex.split(text)
    except ValueError:
        return
    for word in words:
        key, eq, value = word.partition("=")
        if eq and re.fullmatch(r"[A-Za-z_]\w*", key):
            env[key] = value


def _variables(value: object, env: dict[str, str]) -> None:
    """A mapping of variables (GitHub's env, GitLab's variables), or Azure's name/value list."""
    if isinstance(value, dict):
        for key, item in value.items():
            given = item.get("value") if isinstance(item, dict) else item  # GitLab's {value: x}
            if isinstance(given, _Text):
                env[key] = str(given)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and isinstance(item.get("name"), _Text):
                env[str(item["name"])] = str(item.get("value") or "")


def _travis(data: dict[str, object], found: Evidence) -> list[_Job]:
    """The build's jobs in order: the root job (its first env entry), or each `include` entry
    where the root names no python (a root `python:` makes the jobs, `include` adds more)."""
    include = data.get("matrix") or data.get("jobs") or {}
    listed = include.get("include") if isinstance(include, dict) else None
    entries = [e for e in listed if isinstance(e, dict)] if isinstance(listed, list) else []
    if data.get("python") is not None or not entries:
        return [_travis_job(data, {}, found)]
    return [
        _travis_job(data, entry, found, warn=not index)
        for index, entry in enumerate(entries[:MAX_TRAVIS_JOBS])
    ]


# include entries read as jobs (each one's route is interpreted to find the one installing torch)
MAX_TRAVIS_JOBS: Final = 16


def _travis_job(
    data: dict[str, object], first_job: dict[str, object], found: Evidence, *, warn: bool = True
) -> _Job:
    job = _Job()
    job.env.update(_TRAVIS_RUNNER)
    env = data.get("env")
    entries: list[_Text] = []
    if isinstance(env, dict):
        entries = [
            *_strings(env.get("global")),
            *_strings(env.get("matrix") or env.get("jobs"))[:1],
        ]
        rest = _strings(env.get("matrix") or env.get("jobs"))[1:]
    else:
        entries, rest = _strings(env)[:1], _strings(env)[1:]
    for entry in entries:
        _assignments(str(entry), job.env)
    if rest and warn:
        found.warnings.append(
            f"{found.source}: the build matrix has {len(rest) + 1} env entries; envgen reads "
            f"the first ({excerpt(str(entries[-1]))}), the others are alternatives"
        )
    python = _first_python(data.get("python") or first_job.get("python"), job, found.source)
    if python is not None:
        job.env.setdefault("TRAVIS_PYTHON_VERSION", python)
    for entry in _strings(first_job.get("env")):
        _assignments(str(entry), job.env)
    for phase in _TRAVIS_PHASES:
        job.steps += [(s.line, str(s)) for s in _strings(first_job.get(phase) or data.get(phase))]
    return job


def _matrix(strategy: object, found: Evidence, where: str) -> dict[str, str]:
    """The default route of a GitHub build matrix: the first value of each axis (the Linux one
    of an `os` axis), with the `include` entries that extend it, or the first `include` entry
    when there are no axes. An axis whose values are mappings (`vers: [{pt: 1.10.0}]`) gives
    `vers.pt`, as `${{ matrix.vers.pt }}` reads it. An include entry adds its other keys to the
    combination when none of its values for the matrix's own axes differs from the
    combination's (GitHub's rule: an include never overwrites an original value). Where an
    `exclude` entry removes that combination, the first one it leaves is the default."""
    matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
    if not isinstance(matrix, dict):
        return {}
    axes: list[tuple[str, list[object]]] = []
    for axis, values in matrix.items():
        if axis in {"include", "exclude"} or not isinstance(values, list) or not values:
            continue
        if str(axis).lower() in {"os", "platform", "runs-on", "runner"}:
            linux = [v for v in values if re.search(r"ubuntu|linux", str(v))]
            values = linux or values[:1]  # noqa: PLW2901 - the Linux runners only
        axes.append((str(axis), values))
    picks = _first_not_excluded(axes, matrix.get("exclude"))
    chosen: dict[str, str] = {}
    for (axis, values), pick in zip(axes, picks, strict=True):
        chosen.update(_flat(axis, pick))
        if len(values) > 1 and axis.lower() not in {"os", "platform", "runs-on", "runner"}:
            found.warnings.append(
                f"{where}: the build matrix's {axis} is one of "
                f"{', '.join(excerpt(_shown(v)) for v in values)}; envgen reads "
                f"{excerpt(_shown(pick))}"
            )
    include = [_flat_entry(e) for e in _list(matrix.get("include")) if isinstance(e, dict)]
    if not chosen:
        return include[0] if include else {}
    original = set(chosen)
    for entry in include:
        if all(chosen.get(k) == v for k, v in entry.items() if k in original):
            chosen.update({k: v for k, v in entry.items() if k not in original})
    return chosen


MAX_COMBINATIONS: Final = 256  # GitHub runs at most 256 jobs a matrix


def _first_not_excluded(axes: list[tuple[str, list[object]]], exclude: object) -> list[object]:
    """The first value of each axis, or, where an `exclude` entry removes that combination,
    the first combination (GitHub's order: the first axis outermost) that none removes, among
    the first MAX_COMBINATIONS. An entry removes each combination it agrees with on all its
    keys: `python: [3.8, 3.9]`, `torch: [1.10.0, 1.11.0]` and `exclude: [{python: 3.8, torch:
    1.10.0}]` run 3.8 with 1.11.0 first.
    """
    first = [values[0] for _, values in axes]
    entries = [_flat_entry(e) for e in _list(exclude) if isinstance(e, dict)]
    if not entries:
        return first
    for combination in itertools.islice(
        itertools.product(*(values for _, values in axes)), MAX_COMBINATIONS
    ):
        flat: dict[str, str] = {}
        for (axis, _), value in zip(axes, combination, strict=True):
            flat.update(_flat(axis, value))
        if not any(all(flat.get(k) == v for k, v in e.items()) for e in entries if e):
            return list(combination)
    return first


def _flat(key: str, value: object) -> dict[str, str]:
    """A matrix value as `${{ matrix.key }}` expressions read it: a scalar as itself, a mapping
    as its scalars under `key.name` (nested mappings likewise)."""
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for name, item in value.items():
            out.update(_flat(f"{key}.{name}", item))
        return out
    return {key: str(value)} if isinstance(value, _Text) else {}


def _flat_entry(entry: dict[str, object]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in entry.items():
        out.update(_flat(key, value))
    return out


def _shown(value: object) -> str:
    """A matrix value for a warning: a scalar as itself, a mapping as `{k: v, ...}`."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_shown(v)}" for k, v in value.items()) + "}"
    return str(value)


_MACRO: Final = re.compile(r"\$\(([\w.]+)\)")  # Azure's $(variable)


def _expand(text: str, matrix: dict[str, str], env: dict[str, str]) -> str:
    """GitHub's `${{ matrix.x }}` and `${{ env.X }}` on the default route; any other expression
    (a secret, a step's output) is unknown here and reads as empty."""

    def value(m: re.Match[str]) -> str:
        scope, _, name = m.group(1).partition(".")
        if scope == "matrix":
            return matrix.get(name, "")
        if scope == "env":
            return env.get(name, "")
        if scope == "runner":
            return _GITHUB_RUNNER_CONTEXT.get(name, "")
        return ""

    return _bounded_sub(_EXPRESSION, value, text)


class _TooBig(Exception):  # noqa: N818 - internal signal, caught in read()
    """The file's expressions expanded past MAX_EXPANDED_TOTAL characters."""


# Characters the expressions of the CI file being read have expanded to so far (bounded).
_EXPANDED: Final[contextvars.ContextVar[list[int]]] = contextvars.ContextVar("ci_expanded")


def _bounded_sub(pattern: re.Pattern[str], value: Callable[[re.Match[str]], str], text: str) -> str:
    """`pattern.sub(value, text)`, counted against the file's expansion budget as it is built:
    a 400 KB variable referenced 50,000 times stops at the budget, not after 20 GB."""
    spent = _EXPANDED.get([0])
    out: list[str] = []
    end = 0
    for m in pattern.finditer(text):
        piece = value(m)
        spent[0] += (m.start() - end) + len(piece)
        if spent[0] > MAX_EXPANDED_TOTAL:
            raise _TooBig
        out.append(text[end : m.start()])
        out.append(piece)
        end = m.end()
    spent[0] += len(text) - end
    if spent[0] > MAX_EXPANDED_TOTAL:
        raise _TooBig
    out.append(text[end:])
    return "".join(out)


def _github(data: dict[str, object], found: Evidence) -> list[_Job]:
    out: list[_Job] = []
    jobs = data.get("jobs")
    for name, spec in (jobs if isinstance(jobs, dict) else {}).items():
        if not isinstance(spec, dict):
            continue
        job = _Job()
        job.env.update(_GITHUB_RUNNER)
        _variables(data.get("env"), job.env)
        _variables(spec.get("env"), job.env)
        matrix = _matrix(spec.get("strategy"), found, f"{found.source}: jobs.{name}")
        job.env = {k: _expand(v, matrix, job.env) for k, v in job.env.items()}
        runs_on = _expand(str(spec.get("runs-on") or ""), matrix, job.env)
        if re.search(r"windows|macos", runs_on, re.IGNORECASE):
            continue  # the default route is Linux
        called = str(spec.get("uses") or "")
        inputs = _mapping(spec.get("with"))
        runner = _expand(str(inputs.get("runner") or ""), matrix, job.env)
        if called and re.search(r"windows|macos", f"{called} {runner}", re.IGNORECASE):
            continue  # a reusable workflow for another OS; the default route is Linux
        script = inputs.get("script")
        if called and isinstance(script, _Text):
            # A job that calls a reusable workflow (`uses:` at the job level) hands it its
            # shell lines as an input: pytorch/test-infra's linux_job*.yml runs `with.script`.
            job.steps.append((script.line, _expand(str(script), matrix, job.env)))
        container = spec.get("container")
        image = container.get("image") if isinstance(container, dict) else container
        if isinstance(image, _Text):
            job.images.append((_expand(str(image), matrix, job.env), image.line))
        for step in _list(spec.get("steps")):
            if not isinstance(step, dict):
                continue
            env = dict(job.env)
            _variables(step.get("env"), env)
            env = {k: _expand(v, matrix, job.env) for k, v in env.items()}
            uses, given = str(step.get("uses") or ""), step.get("with")
            given = given if isinstance(given, dict) else {}
            if re.match(r"(actions/setup-python|conda-incubator/setup-miniconda|astral-sh/setup-uv|"
                        r"mamba-org/(setup|provision-with)-micromamba)@", uses):  # fmt: skip
                _setup_action(job, uses, given, (matrix, env), found)
            if re.match(r"docker/build-push-action@", uses):
                job.steps.append(_build_push(given, step, matrix, env))
                continue
            run = step.get("run")
            shell = str(step.get("shell") or "bash")
            if isinstance(run, _Text) and not re.match(r"(pwsh|powershell|cmd)\b", shell):
                # A step's env applies to that step; read with the job's, it stays for the later
                # steps too (the interpreter reads the job as one script).
                job.env.update(env)
                job.steps.append((run.line, _expand(str(run), matrix, env)))
        out.append(job)
    return out


def _setup_action(
    job: _Job,
    uses: str,
    given: dict[str, object],
    variables: tuple[dict[str, str], dict[str, str]],
    found: Evidence,
) -> None:
    """A setup action's python (`python-version`), environment file and conda specs."""
    matrix, env = variables
    version = given.get("python-version")
    python = _python_of(_expand(str(version), matrix, env)) if version else None
    if isinstance(version, _Text) and python is not None and job.python is None:
        job.python = (python, f"{found.source}:{version.line} ({uses})")
    file_value = given.get("environment-file")
    if isinstance(file_value, _Text):
        job.files.append((_expand(str(file_value), matrix, env), file_value.line))
    args = given.get("create-args") or given.get("extra-specs")
    for spec_text in _strings(args):
        for spec_word in _expand(str(spec_text), matrix, env).split():
            if not spec_word.startswith("-"):
                job.specs.append((spec_word.strip("'\""), spec_text.line))


def _build_push(
    given: dict[str, object], step: dict[str, object], matrix: dict[str, str], env: dict[str, str]
) -> tuple[int, str]:
    """docker/build-push-action's inputs as the `docker build` they run: `file` (default
    `{context}/Dockerfile`), `context` (default the checkout) and `build-args`, one KEY=VALUE a
    line (https://github.com/docker/build-push-action#inputs)."""
    context = _expand(str(given.get("context") or "."), matrix, env)
    words = ["docker", "build"]
    file_value = given.get("file")
    if file_value:
        words += ["-f", _expand(str(file_value), matrix, env)]
    for text in _strings(given.get("build-args")):
        for arg in _expand(str(text), matrix, env).splitlines():
            if "=" in arg.strip():
                words += ["--build-arg", arg.strip()]
    words.append(context)
    uses = step.get("uses")
    return uses.line if isinstance(uses, _Text) else 0, " ".join(shlex.quote(w) for w in words)


def _gitlab_job(spec: dict[str, object], data: dict[str, object], job: _Job) -> None:
    default = _mapping(data.get("default"))
    before = spec.get("before_script") or default.get("before_script") or data.get("before_script")
    for key in ("image",):
        image = spec.get(key) or default.get(key) or data.get(key)
        name = image.get("name") if isinstance(image, dict) else image
        if isinstance(name, _Text):
            job.images.append((str(name), name.line))
    job.steps += [(s.line, str(s)) for s in _strings(before) + _strings(spec.get("script"))]


def _gitlab(data: dict[str, object]) -> list[_Job]:
    out: list[_Job] = []
    for name, spec in data.items():
        if name in _GITLAB_RESERVED or name.startswith(".") or not isinstance(spec, dict):
            continue
        if "script" not in spec:
            continue
        job = _Job()
        _variables(data.get("variables"), job.env)
        _variables(spec.get("variables"), job.env)
        _gitlab_job(spec, data, job)
        out.append(job)
    return out


def _bitbucket(data: dict[str, object]) -> list[_Job]:
    pipelines = data.get("pipelines")
    steps: list[object] = []
    if isinstance(pipelines, dict):
        default = pipelines.get("default")
        steps = default if isinstance(default, list) else []
    out: list[_Job] = []
    for item in steps:
        step = item.get("step") if isinstance(item, dict) else None
        if isinstance(step, dict):
            job = _Job()
            _gitlab_job(step, data, job)
            out.append(job)
    return out


def _azure_jobs(data: dict[str, object]) -> list[dict[str, object]]:
    """Azure's jobs, also those under stages."""
    jobs: list[dict[str, object]] = []
    stages = data.get("stages")
    for stage in stages if isinstance(stages, list) else []:
        if isinstance(stage, dict) and isinstance(stage.get("jobs"), list):
            jobs += [j for j in stage["jobs"] if isinstance(j, dict)]
    listed = data.get("jobs")
    if isinstance(listed, list):
        jobs += [j for j in listed if isinstance(j, dict)]
    return jobs


def _azure(data: dict[str, object], found: Evidence) -> list[_Job]:
    specs = _azure_jobs(data) or [data]
    out: list[_Job] = []
    for spec in specs:
        pool = spec.get("pool") or data.get("pool")
        image = str(pool.get("vmImage") or "") if isinstance(pool, dict) else ""
        if re.search(r"windows|macos", image, re.IGNORECASE):
            continue
        job = _Job()
        _variables(data.get("variables"), job.env)
        _variables(spec.get("variables"), job.env)
        strategy = spec.get("strategy")
        matrix = strategy.get("matrix") if isinstance(strategy, dict) else None
        if isinstance(matrix, dict) and matrix:
            first_name, first = next(iter(matrix.items()))
            if isinstance(first, dict):
                _variables(first, job.env)
            if len(matrix) > 1:
                found.warnings.append(
                    f"{found.source}: the build matrix has {len(matrix)} entries; envgen reads "
                    f"the first ({excerpt(first_name)}), the others are alternatives"
                )

        def macro(text: str, env: dict[str, str] = job.env) -> str:
            return _bounded_sub(_MACRO, lambda m: env.get(m.group(1), m.group(0)), text)

        for step in _list(spec.get("steps")):
            if not isinstance(step, dict):
                continue
            task = str(step.get("task") or "")
            inputs = _mapping(step.get("inputs"))
            spec_text = inputs.get("versionSpec")
            if task.startswith("UsePythonVersion") and isinstance(spec_text, _Text):
                python = _python_of(macro(str(spec_text)))
                if python is not None and job.python is None:
                    job.python = (python, f"{found.source}:{spec_text.line} ({task})")
            for key in ("script", "bash"):
                run = step.get(key)
                if isinstance(run, _Text):
                    job.steps.append((run.line, macro(str(run))))
        out.append(job)
    return out


def _circleci(data: dict[str, object]) -> list[_Job]:
    out: list[_Job] = []
    jobs = data.get("jobs")
    for spec in (jobs if isinstance(jobs, dict) else {}).values():
        if not isinstance(spec, dict):
            continue
        job = _Job()
        _variables(spec.get("environment"), job.env)
        docker = spec.get("docker")
        first = docker[0] if isinstance(docker, list) and docker else None
        if isinstance(first, dict) and isinstance(first.get("image"), _Text):
            job.images.append((str(first["image"]), first["image"].line))
        for step in _list(spec.get("steps")):
            run = step.get("run") if isinstance(step, dict) else None
            command = run.get("command") if isinstance(run, dict) else run
            if isinstance(command, _Text):
                job.steps.append((command.line, str(command)))
        out.append(job)
    return out
