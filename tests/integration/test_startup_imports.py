"""What each command imports in a fresh interpreter: the start-up budget (issue 27).

Start-up is most of what envgen adds on top of uv (docs/benchmarks.md), and one new import at
module level can undo it without any test failing. So each command runs here in a subprocess
and its imports are held to a budget: none of the heavy packages it does not need (pydantic
~50 ms with its plugin scan, asyncio with ssl ~40 ms, Jinja2 ~25 ms, rich, the HTTP stack, the
lockers, rattler), and no more modules than its budget (today's count plus a few). A command
that needs more says so by raising its budget here, in review.

`envgen --version` is answered before click loads (envgen.__main__.entry) and must print what
click's version option prints.
"""

from __future__ import annotations

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

from envgen import __version__
from envgen.infra import proc as _proc

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]
HEAVY = (
    "click",  # the fast path (envgen.cli.quick) answers these commands without it
    "pydantic",
    "jinja2",
    "asyncio",
    "rich",
    "rattler",
    "ssl",
    "http.client",
    "urllib.request",
    "socket",
    "tempfile",
    "envgen.model.matrix_schema",
    "envgen.model.targets_schema",
    "envgen.lock.pip",
    "envgen.lock.conda",
    "envgen.lock.legacy",
    "envgen.build",
)
# Modules in sys.modules after the command, measured 2026-12-05 (Python 3.11; the interpreter
# alone has ~30) on the fast path (envgen.cli.quick: no click; PyYAML only where a YAML file is
# read: a warm `list` reads none, nor a pins-only check of a pip-only spec): list 155 (157 with
# the recorder of envgen.cli.answers), lock/check --pins-only with a full lock on disk 183 (185),
# import of an environment.yml 199 (the shell interpreter and targets.yaml only for a line or
# marker that needs them). A budget is that count plus ~5 %. A replayed answer takes envgen,
# envgen.__main__, envgen.cli and envgen.cli.answers alone (the last test below).
BUDGET = {"list": 163, "lock": 192, "check": 192, "import": 209}
# Runs envgen's CLI in-process as the `envgen` command does (envgen.__main__.main: the fast path of
# envgen.cli.quick, else click), then prints the modules it imported.
PROBE = """
import json, sys
sys.argv = ["envgen", *sys.argv[1:]]
from envgen.__main__ import main
try:
    main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""
# Imports modules and prints which of HEAVY came with them.
IMPORTS = """
import importlib, json, sys
for name in sys.argv[2:]:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in json.loads(sys.argv[1]) if m in sys.modules)))
"""


def _env(tmp_path: Path) -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "ENVGEN_CACHE_DIR": str(tmp_path / "cache"), "CI": "1"}


def _modules(
    tmp_path: Path, *args: str, codes: tuple[int | None, ...] = (0, None), **env: str
) -> set[str]:
    result = _proc.run(
        [sys.executable, "-c", PROBE, *args],
        what="envgen probe",
        cwd=tmp_path,
        env=_env(tmp_path) | env,
        check=False,
    )
    report = json.loads(result.stderr.strip().splitlines()[-1])
    assert report["code"] in codes, result.stderr
    return set(report["modules"])


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The bundled example with its committed cpu full lock (so `lock --pins-only` checks it)."""
    shutil.copy(ROOT / "project.yaml", tmp_path / "project.yaml")
    shutil.copytree(ROOT / "environments" / "cpu", tmp_path / "environments" / "cpu")
    _modules(tmp_path, "lock", "--pins-only", "project.yaml")  # fills the matrix cache
    return tmp_path


@pytest.mark.parametrize(
    "args",
    [
        ("list", "project.yaml"),
        ("lock", "--pins-only", "project.yaml"),
        ("check", "--pins-only", "project.yaml"),
    ],
)
def test_spec_reading_commands_stay_in_budget(project: Path, args: tuple[str, ...]) -> None:
    assert (project / "environments" / "cpu" / "requirements.txt").is_file()
    modules = _modules(project, *args)
    assert "envgen.model.matrix" in modules  # the probe saw the command run
    assert sorted(m for m in HEAVY if m in modules) == []
    assert len(modules) <= BUDGET[args[0]], sorted(modules)


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_a_plain_full_lock_reaches_the_lockers_without_click(project: Path) -> None:
    """`envgen lock project.yaml` (a full lock, no option) takes the fast path: click and the
    command tree (~50 ms) no longer load before the first uv call. Both indexes refuse the
    connection (port 9 on loopback), so the lock fails there (exit 6), in the lock stage."""
    (project / "environments").rename(project / "kept")  # a full lock: nothing to triage
    modules = _modules(
        project,
        "lock",
        "project.yaml",
        codes=(6,),
        ENVGEN_PYTORCH_INDEX="http://127.0.0.1:9/whl",
        ENVGEN_PYPI_INDEX="http://127.0.0.1:9/simple",
    )
    assert "envgen.lock.pip" in modules  # it got as far as the pip locker
    assert "click" not in modules
    # era.yaml, targets.yaml and the package tables came from matrices/shipped-yaml.json
    # (envgen.model.shipped), so PyYAML (~14 ms) never loaded.
    assert {"envgen.model.era", "envgen.model.targets", "envgen.model.shipped"} <= modules
    assert "yaml" not in modules


def test_import_of_an_environment_file_stays_in_budget(tmp_path: Path) -> None:
    """`envgen import environment.yml` without pydantic (the base-image rows load only for an
    NGC image) and without the lockers."""
    shutil.copy(ROOT / "examples" / "paper-2021" / "environment.yml", tmp_path)
    _modules(tmp_path, "import", "environment.yml", "-o", "first.yaml")  # fills the matrix cache
    modules = _modules(tmp_path, "import", "environment.yml", "-o", "imported.yaml")
    assert (tmp_path / "imported.yaml").is_file()
    assert "envgen.repro.importer" in modules
    assert sorted(m for m in HEAVY if m in modules) == []
    assert len(modules) <= BUDGET["import"], sorted(modules)


def test_pip_lock_and_build_modules_load_no_conda_or_async_stack(tmp_path: Path) -> None:
    """What a pip-only `lock` and `build` import before any work: the uv locker and builder,
    not asyncio (ssl), rattler, pydantic or rich (those load where a conda solve, a python from
    conda-forge, a schema check or a terminal table needs them)."""
    heavy = ["pydantic", "asyncio", "ssl", "rattler", "rich", "jinja2"]
    modules = [
        "envgen.app",
        "envgen.lock.orchestrate",
        "envgen.lock.pip",
        "envgen.lock.verify",
        "envgen.build.orchestrate",
        "envgen.build.venv",
        "envgen.build.interpreter",
    ]
    result = _proc.run(
        [sys.executable, "-c", IMPORTS, json.dumps(heavy), *modules],
        what="import probe",
        cwd=tmp_path,
        env=_env(tmp_path),
    )
    assert json.loads(result.stdout) == []


def test_version_is_answered_before_click_loads(tmp_path: Path) -> None:
    probe = (
        "import json, sys; sys.argv = ['envgen', '--version']\n"
        "from envgen.__main__ import entry\n"
        "entry()\n"
        "print(json.dumps(sorted(m for m in sys.modules"
        " if m.startswith(('click', 'envgen', 'typing')))), file=sys.stderr)"
    )
    fast = _proc.run(
        [sys.executable, "-c", probe], what="--version", cwd=tmp_path, env=_env(tmp_path)
    )
    assert json.loads(fast.stderr.strip().splitlines()[-1]) == ["envgen", "envgen.__main__"]
    # The same line as click's own version option prints.
    slow = _proc.run(
        [sys.executable, "-c", "from envgen.cli import main; main(['--version'])"],
        what="click --version",
        cwd=tmp_path,
        env=_env(tmp_path),
    )
    assert fast.stdout == slow.stdout == f"envgen, version {__version__}\n"


def test_help_imports_no_stage(tmp_path: Path) -> None:
    modules = _modules(tmp_path, "--help")
    assert "envgen.cli" in modules
    assert sorted(m for m in modules if m.startswith(("envgen.app", "envgen.model"))) == []


def test_only_variant_auto_loads_the_doctor(tmp_path: Path) -> None:
    """`build`/`smoke --variant cpu` resolve the pattern without build.running and
    envgen.doctor (~20 ms); `auto` is the literal build.running.AUTO."""
    probe = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from envgen.app import resolve_auto\n"
        "from envgen.infra.settings import Settings\n"
        "got = resolve_auto(Path('p.yaml'), None, ('cpu',), Settings.from_environ({}))\n"
        "print(json.dumps([list(got[0]), any(m.startswith('envgen.doctor') for m in sys.modules)]))\n"
        "from envgen.build.running import AUTO\n"
        "print(json.dumps(AUTO))"
    )
    out = _proc.run([sys.executable, "-c", probe], what="probe", cwd=tmp_path, env=_env(tmp_path))
    assert out.stdout.splitlines() == ['[["cpu"], false]', '"auto"']


def test_an_empty_cache_root_takes_the_shipped_matrix_without_pydantic(tmp_path: Path) -> None:
    """A cold cache (a first run, a CI job) reads matrices/validated.json, not the YAML through
    pydantic (envgen.model.matrix _from_shipped), and leaves the matrix cache filled."""
    shutil.copy(ROOT / "project.yaml", tmp_path / "project.yaml")
    modules = _modules(tmp_path, "list", "project.yaml")
    assert "envgen.model.matrix" in modules
    assert sorted(m for m in ("pydantic", "envgen.model.matrix_schema") if m in modules) == []
    assert list((tmp_path / "cache" / "matrix").glob("*.marshal"))


# Replays a kept answer as the `envgen` command does (envgen.__main__.entry), then prints the
# modules it took; the exit without teardown is skipped under a trace function (as for coverage).
REPLAY = """
import json, sys
sys.argv = ["envgen", *sys.argv[1:]]
sys.settrace(lambda *a: None)
from envgen.__main__ import entry
entry()
sys.settrace(None)
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def test_a_kept_answer_is_replayed_without_the_stages(project: Path) -> None:
    """envgen.cli.answers: a second `list` / `lock`/`check --pins-only` with nothing changed
    prints the first one's bytes with none of the stages, packaging or PyYAML loaded."""
    # The files were written just now: the racy rule (answers.RACY_NS) keeps no answer of a
    # run that read a file changed within 2 s before it started.
    time.sleep(2.1)
    for args in (
        ("list", "project.yaml"),
        ("lock", "--pins-only", "project.yaml"),
        ("check", "--pins-only", "project.yaml"),
    ):
        command = [sys.executable, "-m", "envgen", *args]
        first = _proc.run(command, what="envgen", cwd=project, env=_env(project))
        second = _proc.run(
            [sys.executable, "-c", REPLAY, *args], what="replay", cwd=project, env=_env(project)
        )
        *lines, last = second.stderr.splitlines()
        assert (second.stdout, "\n".join(lines) + "\n" if lines else "") == (
            first.stdout,
            first.stderr,
        )
        modules = set(json.loads(last))
        assert len(list((project / "cache" / "answers").glob("*.marshal"))) >= 1
        taken = [m for m in modules if m.startswith(("envgen.", "packaging", "yaml", "typing"))]
        assert sorted(taken) == ["envgen.__main__", "envgen.cli", "envgen.cli.answers"]
