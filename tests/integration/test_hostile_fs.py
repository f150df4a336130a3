"""A cloned repository is untrusted: planted links, shared env dirs, bombs, devices, signals.

Every case runs the real CLI (`envgen.cli.main` in-process, or `python -m envgen` where a signal
or a resource limit is involved) on a project a hostile repository could ship, and asserts the
whole message, the exit code, and that the file a planted link points at (the sentinel) is
byte-identical afterwards. docs/reliability.md ("Threat model") lists what each check guarantees.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess  # noqa: TID251 - tests run envgen as a real process
import sys
import time
from pathlib import Path
from typing import Final

import pytest

from envgen.cli import main
from tests.support.conda_channel import CondaChannel, write_channel
from tests.support.fixtures import ServedIndex, ServerFactory, clean_tool_env

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
PINS_SPEC: Final = 'name: hostile\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\n'
PIP_SPEC: Final = (
    'name: hostile\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)
SECRET: Final = b"the user's own file: must never change or be printed\n"


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    code = info.value.code
    assert isinstance(code, int)
    assert "Traceback" not in err
    return code, out, err


def link_message(link: Path, target: Path) -> str:
    return (
        f"error: {link} is a symbolic link (to {target}); envgen does not write through links "
        "inside a project (a cloned repository could point one at any file of yours); "
        f"the link and its target were left untouched\n  hint: remove the link ({link}) and "
        "run again\n"
    )


@pytest.fixture
def proj(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cloned project (relative paths, as a user runs envgen in it) and a sentinel file."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "project.yaml").write_text(PINS_SPEC)
    (tmp_path / "sentinel").write_bytes(SECRET)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(root)
    monkeypatch.setenv("ENVGEN_MATRIX", str(MINI))
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    return root


def sentinel(proj: Path) -> Path:
    return proj.parent / "sentinel"


# --- item 1: no write follows a link planted in the project -------------------------------------
PINS_FILES: Final = (
    "environments/.envgen.lock",
    "environments/Makefile",
    "environments/cpu/requirements.txt",
    "environments/cpu/environment.yml",
)


@pytest.mark.parametrize("rel", PINS_FILES)
def test_planted_file_link_is_refused_and_its_target_untouched(
    rel: str, proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = Path(rel)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(sentinel(proj))
    code, _, err = run_cli(["lock", "--pins-only", "project.yaml"], capsys)
    assert (code, err.split("error: ", 1)[-1]) == (
        14,
        link_message(link, sentinel(proj)).removeprefix("error: "),
    )
    assert sentinel(proj).read_bytes() == SECRET
    assert link.is_symlink()


@pytest.mark.parametrize("rel", ["environments", "environments/cpu"])
def test_planted_folder_link_is_refused(
    rel: str, proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = proj.parent / "elsewhere"
    link = Path(rel)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(elsewhere, target_is_directory=True)
    code, _, err = run_cli(["lock", "--pins-only", "project.yaml"], capsys)
    assert code == 14
    assert err.endswith(link_message(link, elsewhere))
    assert list(elsewhere.iterdir()) == []


def test_check_never_prints_a_linked_file(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`envgen check` in CI would otherwise show ~/.ssh/id_rsa in its diff of a 'stale' lock."""
    assert run_cli(["lock", "--pins-only", "project.yaml"], capsys)[0] == 0
    lock = Path("environments/cpu/requirements.txt")
    lock.unlink()
    lock.symlink_to(sentinel(proj))
    code, out, err = run_cli(["check", "--pins-only", "project.yaml"], capsys)
    assert (code, out, err) == (14, "", link_message(lock, sentinel(proj)))


def test_planted_conda_lock_link_is_refused_by_check(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full-mode check reads every committed lock (conda-lock.yml too) without following."""
    assert run_cli(["lock", "--pins-only", "project.yaml"], capsys)[0] == 0
    lock = Path("environments/cpu/conda-lock.yml")
    lock.symlink_to(sentinel(proj))
    code, _, err = run_cli(["check", "project.yaml"], capsys)
    assert code == 14
    assert err.endswith(link_message(lock, sentinel(proj)))
    assert sentinel(proj).read_bytes() == SECRET


@pytest.mark.parametrize(
    "args",
    [
        ["ci", "github", "project.yaml", "-o", "envgen.yml"],
        # --force: an existing -o file is otherwise refused before the link is even looked at
        ["import", "requirements.txt", "-o", "envgen.yml", "--force"],
    ],
    ids=["ci -o", "import -o"],
)
def test_planted_link_at_an_output_option_is_refused(
    args: list[str], proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("requirements.txt").write_text("torch==2.1.0\n")
    Path("envgen.yml").symlink_to(sentinel(proj))
    code, _, err = run_cli(args, capsys)
    assert code == 14
    assert err.endswith(link_message(Path("envgen.yml"), sentinel(proj)))
    assert sentinel(proj).read_bytes() == SECRET


def test_default_ci_path_below_a_planted_folder_link_is_refused(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = proj.parent / "elsewhere"
    Path(".github").symlink_to(elsewhere, target_is_directory=True)
    code, _, err = run_cli(["ci", "github", "project.yaml"], capsys)
    assert (code, err) == (14, link_message(Path(".github"), elsewhere))
    assert list(elsewhere.iterdir()) == []


@pytest.mark.usefixtures("proj")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "fifo"])
def test_output_option_to_a_device_or_fifo_is_refused(
    device: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if device == "fifo":
        os.mkfifo("pipe")
        device, kind = "pipe", "a named pipe"
    else:
        kind = "a character device"
    start = time.monotonic()
    code, _, err = run_cli(["ci", "github", "project.yaml", "-o", device], capsys)
    assert time.monotonic() - start < 10
    assert (code, err) == (
        14,
        f"error: {device} is {kind}; envgen writes only regular files\n"
        "  hint: give the path of a regular file (or of one to create)\n",
    )


# --- item 6: inputs that cannot blow up ---------------------------------------------------------
def _laughs(levels: int, key: str) -> str:
    lines = ["name: p", 'python: "3.11"', 'torch: "2.1.0"', "a0: &a0 [lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    lines.append(f"{key}: *a{levels}")
    return "\n".join(lines) + "\n"


def limited_envgen(args: list[str], cwd: Path, *, memory: int = 2 << 30) -> tuple[int, str, float]:
    """`python -m envgen` under RLIMIT_AS (bytes) and a 10 s wall-clock bound."""
    code = (
        "import resource, sys, runpy; "
        f"resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory})); "
        "sys.argv = ['envgen', *sys.argv[1:]]; runpy.run_module('envgen', run_name='__main__')"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT), ENVGEN_MATRIX=str(MINI))
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    return proc.returncode, proc.stdout + proc.stderr, time.monotonic() - start


def test_yaml_alias_bomb_in_the_spec_is_refused_in_bounded_time_and_memory(proj: Path) -> None:
    (proj / "project.yaml").write_text(_laughs(8, "platforms"))  # 9**8 * 5 values, ~450 bytes
    code, out, seconds = limited_envgen(["list", "project.yaml"], proj)
    assert (code, out) == (
        3,
        "error: project.yaml: refused: the YAML stands for more than 200000 values once its "
        "aliases (*name) are expanded (an alias bomb?); write the values out instead\n",
    )
    assert seconds < 10


def _conda_laughs(levels: int) -> str:
    """An environment.yml whose dependencies stand for 9**levels * 5 strings (~360 bytes)."""
    lines = ["name: bomb", "x0: &a0 [lol, lol, lol, lol, lol]"]
    lines += [f"x{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels + 1)]
    lines.append(f"dependencies: [python=3.11, *a{levels}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("levels", [8, 9])
def test_yaml_alias_bomb_in_an_imported_environment_yml_is_refused(levels: int, proj: Path) -> None:
    """`envgen import`: 8 levels took 15 s and 378 MB; 9 were a MemoryError traceback."""
    (proj / "environment.yml").write_text(_conda_laughs(levels))
    code, out, seconds = limited_envgen(["import", "environment.yml"], proj, memory=1 << 30)
    assert (code, out) == (
        11,
        "error: environment.yml: 2 problems\n"
        "  - environment.yml: refused: the YAML stands for more than 200000 values once its "
        "aliases (*name) are expanded (an alias bomb?); write the values out instead\n"
        "  - environment.yml: no torch (or conda pytorch) requirement found; nothing to "
        "reproduce\n",
    )
    assert seconds < 5


def test_a_long_value_is_quoted_as_a_bounded_excerpt(proj: Path) -> None:
    """Under the node cap, a 300,000-character value still yields a message of bounded size."""
    (proj / "project.yaml").write_text(_laughs(4, "write_index"))  # 9**4 * 5 = 32805 values
    code, out, _ = limited_envgen(["list", "project.yaml"], proj)
    assert code == 3
    line = next(x for x in out.splitlines() if "9: write_index" in x)
    assert line.startswith("  - project.yaml:9: write_index: [[[[['lol', 'lol',")
    assert line.endswith(" more characters)")
    assert len(line) < 1100
    assert len(out) < 3000


def test_recursive_alias_is_refused(proj: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (proj / "project.yaml").write_text(PINS_SPEC + "pip: &p [numpy, *p]\n")
    assert run_cli(["list", "project.yaml"], capsys)[1:] == (
        "",
        "error: project.yaml: refused: an alias (*name) refers to a node that contains it "
        "(a recursive document); remove the alias\n",
    )


@pytest.mark.usefixtures("proj")
def test_committed_lock_on_a_device_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """A committed lock that links to /dev/zero would be read forever by `check`."""
    assert run_cli(["lock", "--pins-only", "project.yaml"], capsys)[0] == 0
    lock = Path("environments/cpu/requirements.txt")
    lock.unlink()
    lock.symlink_to("/dev/zero")
    code, _, err = run_cli(["check", "--pins-only", "project.yaml"], capsys)
    assert (code, err) == (14, link_message(lock, Path("/dev/zero")))


# --- item 7: settings and network ---------------------------------------------------------------
VERIFY_SCHEMES: Final = (
    "'{url}' is not fetched: matrix verify reads https:// indexes (or http:// on 127.0.0.1, "
    "localhost, ::1); give e.g. https://pypi.org/simple"
)


@pytest.mark.usefixtures("proj")
@pytest.mark.parametrize(
    "url",
    ["http://mirror.example/simple", "ftp://mirror.example/simple", "file:///srv/simple"],
)
def test_matrix_verify_refuses_a_scheme_it_does_not_fetch(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(["matrix", "verify", "--index", url], capsys)
    assert (code, out) == (2, "")
    assert err.endswith(f"Error: Invalid value for '--index': {VERIFY_SCHEMES.format(url=url)}\n")


@pytest.mark.usefixtures("proj")
def test_matrix_verify_network_failure_is_a_network_error(
    faulty_server: ServerFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    server = faulty_server()
    index = f"{server.url}/no-such/simple"
    code, out, err = run_cli(["matrix", "verify", "--index", index], capsys)
    assert (code, out, err) == (
        15,
        "",
        f"error: GET {index}/torch/ failed: HTTP 404 Not Found\n",
    )


@pytest.mark.usefixtures("proj")
def test_matrix_verify_unreachable_index_exits_15_after_bounded_retries(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    index = f"http://127.0.0.1:{port}/simple"
    code, out, err = run_cli(["matrix", "verify", "--index", index], capsys)
    url = f"{index}/torch/"
    assert (code, out, err) == (
        15,
        "",
        f"GET {url} failed ([Errno 111] Connection refused); retry 1 of 2\n"
        f"GET {url} failed ([Errno 111] Connection refused); retry 2 of 2\n"
        f"error: GET {url} failed 3 times: [Errno 111] Connection refused\n"
        "  hint: check the network or the --index URL; ENVGEN_HTTP_TIMEOUT sets the timeout\n",
    )


@pytest.mark.usefixtures("proj")
@pytest.mark.parametrize("value", ["abc", "0", "-5", "nan", "1e9"])
def test_bad_http_timeout_is_a_settings_error(
    value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ENVGEN_HTTP_TIMEOUT", value)
    code, out, err = run_cli(["lock", "project.yaml"], capsys)
    assert (code, out, err) == (
        3,
        "",
        f"error: ENVGEN_HTTP_TIMEOUT={value!r} is not a number of seconds (a number above 0, "
        "at most 86400); set it to seconds, e.g. ENVGEN_HTTP_TIMEOUT=60, or unset it\n",
    )
    assert not Path("environments").exists()


@pytest.mark.slow  # waits out the HTTP timeout (~17 s): make test-slow
def test_http_timeout_bounds_the_index_probe_of_a_lock(
    tmp_path: Path, faulty_server: ServerFactory
) -> None:
    """The upload-time probe waited a fixed 30 s on a stalled index; now ENVGEN_HTTP_TIMEOUT."""
    server = faulty_server()
    server.add_fault("/whl/cpu/torch/*", delay=40.0)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(PIP_SPEC + "lock: {exclude_newer: 2024-01-01}\n")
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_PYTORCH_INDEX=f"{server.url}/whl",
        ENVGEN_PYPI_INDEX=f"{server.url}/pypi/simple",
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_HTTP_TIMEOUT="2",
        PYTHONPATH=str(ROOT),
    )
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "envgen", "lock", "project.yaml"],
        cwd=proj,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    seconds = time.monotonic() - start
    assert proc.returncode == 6, proc.stderr
    assert "Traceback" not in proc.stderr
    assert seconds < 25, (seconds, proc.stderr)  # the probe alone used to take 30 s


# --- builds: env dirs, the env-dir lock, junit -------------------------------------------------
@pytest.fixture
def locked(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pytorch_index: ServedIndex,
    capsys: pytest.CaptureFixture[str],
) -> Path:
    """A pip-only project fully locked against the loopback index (cwd is the project)."""
    root = tmp_path / "proj"
    root.mkdir()
    (root / "project.yaml").write_text(PIP_SPEC)
    (tmp_path / "sentinel").write_bytes(SECRET)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(root)
    monkeypatch.setenv("ENVGEN_MATRIX", str(MINI))
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ENVGEN_PYTORCH_INDEX", pytorch_index.root_url)
    monkeypatch.setenv("ENVGEN_PYPI_INDEX", pytorch_index.pypi_url)
    code, _, err = run_cli(["lock", "project.yaml"], capsys)
    assert code == 0, err
    return root


def test_planted_env_link_is_refused(locked: Path, capsys: pytest.CaptureFixture[str]) -> None:
    elsewhere = locked.parent / "elsewhere"
    (elsewhere / "keep.txt").write_bytes(SECRET)
    link = Path("environments/cpu/.env")
    link.symlink_to(elsewhere, target_is_directory=True)
    code, _, err = run_cli(["build", "project.yaml", "--no-smoke"], capsys)
    # The lock is verified (a progress line) before the environment's path is looked at.
    assert (code, err) == (14, "cpu: verifying the lock\n" + link_message(link, elsewhere))
    assert [p.name for p in elsewhere.iterdir()] == ["keep.txt"]
    assert (elsewhere / "keep.txt").read_bytes() == SECRET


def test_env_dir_with_foreign_contents_is_refused(
    locked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--env-dir` used to replace <dir>/<variant> whatever it held."""
    shared = locked.parent / "envs"
    (shared / "cpu").mkdir(parents=True)
    (shared / "cpu" / "notes.txt").write_bytes(SECRET)
    code, _, err = run_cli(
        ["build", "project.yaml", "--no-smoke", "--env-dir", str(shared)], capsys
    )
    assert (code, err) == (
        7,
        "cpu: verifying the lock\n"  # a progress line: the lock is verified first
        f"error: {shared / 'cpu'} is a folder that is not an environment envgen built (no "
        "envgen-build.json); a build replaces that path as a whole, so envgen leaves it alone\n"
        f"  hint: move or remove {shared / 'cpu'} yourself, or choose another --env-dir\n",
    )
    assert (shared / "cpu" / "notes.txt").read_bytes() == SECRET
    # An environment envgen built there is replaced as before.
    (shared / "cpu" / "notes.txt").unlink()
    assert (
        run_cli(["build", "project.yaml", "--no-smoke", "--env-dir", str(shared)], capsys)[0] == 0
    )
    code, _, err = run_cli(
        ["build", "project.yaml", "--no-smoke", "--env-dir", str(shared), "--rebuild"], capsys
    )
    assert code == 0, err
    assert (shared / "cpu" / "envgen-build.json").is_file()
    assert not (shared / ".envgen.lock").exists()  # released


def test_shared_env_dir_is_locked(locked: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two projects building into one --env-dir take turns: the second waits, then exits 13."""
    from envgen.infra.mutex import project_lock

    shared = locked.parent / "envs"
    with project_lock(shared, wait=0):  # held, as another project's `envgen build` holds it
        code, _, err = run_cli(
            ["build", "project.yaml", "--no-smoke", "--env-dir", str(shared)], capsys
        )
    assert (code, err) == (
        13,
        f"error: another envgen run (pid {os.getpid()}) is working on {shared}; waited 2 s for "
        f"it to finish\n  hint: wait for it to end, then run again (lock file: "
        f"{shared / '.envgen.lock'})\n",
    )
    assert not (shared / "cpu").exists()


@pytest.fixture
def no_exec(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """`run` / `shell` replace the process with the command: record it here instead."""
    from envgen.infra import proc as _proc

    ran: list[list[str]] = []

    def record(argv: list[str], *, env: dict[str, str]) -> None:  # noqa: ARG001
        ran.append(list(argv))
        raise SystemExit(0)

    monkeypatch.setattr(_proc, "exec_command", record)
    return ran


@pytest.mark.parametrize("command", ["run", "shell"])
@pytest.mark.parametrize("rel", ["environments", "environments/cpu"])
def test_run_and_shell_refuse_a_planted_folder_link(
    command: str,
    rel: str,
    locked: Path,
    no_exec: list[list[str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`envgen run` used to build a venv at elsewhere/cpu/.env through `environments` -> there."""
    elsewhere = locked.parent / "elsewhere"
    real = locked.parent / "moved"
    Path(rel).rename(real)
    for path in real.rglob("*"):  # the committed locks, now in the folder the link points at
        dest = elsewhere / path.relative_to(real)
        if path.is_dir():
            dest.mkdir(parents=True, exist_ok=True)
        else:
            dest.write_bytes(path.read_bytes())
    before = sorted(p.relative_to(elsewhere) for p in elsewhere.rglob("*"))
    Path(rel).symlink_to(elsewhere, target_is_directory=True)
    args = [command, "cpu", "--", "python", "-V"] if command == "run" else [command, "cpu"]
    code, _, err = run_cli(args, capsys)
    # The lock is verified (a progress line) before the environment's path is looked at.
    shown = "cpu: verifying the lock\n" if rel == "environments/cpu" else ""
    assert (code, err) == (14, shown + link_message(Path(rel), elsewhere))
    assert no_exec == []
    assert sorted(p.relative_to(elsewhere) for p in elsewhere.rglob("*")) == before


@pytest.mark.parametrize("command", ["run", "shell"])
def test_run_and_shell_take_the_shared_env_dir_lock(
    command: str, locked: Path, no_exec: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    """`envgen run --env-dir` used to build into a shared env dir another build held."""
    from envgen.infra.mutex import project_lock

    shared = locked.parent / "envs"
    tail = ["--", "python", "-V"] if command == "run" else []
    with project_lock(shared, wait=0):
        code, _, err = run_cli([command, "--env-dir", str(shared), "cpu", *tail], capsys)
    assert (code, err) == (
        13,
        f"error: another envgen run (pid {os.getpid()}) is working on {shared}; waited 2 s for "
        f"it to finish\n  hint: wait for it to end, then run again (lock file: "
        f"{shared / '.envgen.lock'})\n",
    )
    assert no_exec == []
    assert not (shared / "cpu").exists()


def test_planted_junit_link_is_refused_before_building(
    locked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["build", "project.yaml", "--no-smoke"], capsys)[0] == 0
    Path("smoke.xml").symlink_to(sentinel(locked))
    code, _, err = run_cli(["build", "project.yaml", "--no-smoke", "--junit", "smoke.xml"], capsys)
    assert (code, err) == (14, link_message(Path("smoke.xml"), sentinel(locked)))
    assert sentinel(locked).read_bytes() == SECRET


@pytest.mark.usefixtures("proj")
@pytest.mark.parametrize("command", ["build", "smoke"])
def test_junit_to_a_device_is_refused_before_any_work(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run_cli([command, "project.yaml", "--junit", "/dev/zero"], capsys)
    assert (code, err) == (
        14,
        "error: /dev/zero is a character device; envgen writes only regular files\n"
        "  hint: give the path of a regular file (or of one to create)\n",
    )


def _proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every live (not zombie) process."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            fields = (entry / "stat").read_text().rsplit(") ", 1)[1].split()
            if fields[0] == "Z":
                continue
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            table[int(entry.name)] = (int(fields[1]), cmdline)
    return table


def _descendants(pid: int) -> dict[int, str]:
    table = _proc_table()
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, cmdline) in table.items():
            if ppid == parent and child not in found:
                found[child] = cmdline
                todo.append(child)
    return found


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_during_a_build_stops_uv_and_cleans_up_promptly(
    sig: signal.Signals, code: int, tmp_path: Path, faulty_server: ServerFactory
) -> None:
    """Only envgen gets the signal (as from `kill`); its uv child must stop with it."""
    server = faulty_server()
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(PIP_SPEC)
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_PYTORCH_INDEX=f"{server.url}/whl",
        ENVGEN_PYPI_INDEX=f"{server.url}/pypi/simple",
        ENVGEN_CACHE_DIR=str(tmp_path / "lock-cache"),
        ENVGEN_MATRIX=str(MINI),
        PYTHONPATH=str(ROOT),
    )
    lock = subprocess.run(
        [sys.executable, "-m", "envgen", "lock", "project.yaml"],
        cwd=proj, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert lock.returncode == 0, lock.stderr
    server.add_fault("*.whl", delay=60.0)  # every download stalls: uv is mid-install
    env["ENVGEN_CACHE_DIR"] = str(tmp_path / "build-cache")  # nothing cached: uv must download
    proc = subprocess.Popen(
        [sys.executable, "-m", "envgen", "build", "project.yaml", "--no-smoke"],
        cwd=proj, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        cpu = proj / "environments" / "cpu"
        children: dict[int, str] = {}
        while not (list(cpu.glob(".env.tmp-*")) and any("uv" in c for c in children.values())):
            assert proc.poll() is None, proc.communicate()[0]
            assert time.monotonic() < deadline, "uv never started"
            time.sleep(0.2)
            children = _descendants(proc.pid)
        time.sleep(1.0)  # uv is waiting on the stalled download
        start = time.monotonic()
        proc.send_signal(sig)
        out, _ = proc.communicate(timeout=30)
        seconds = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, out
    assert seconds < 10, (seconds, out)  # it used to wait for the build to finish
    assert "Traceback" not in out
    assert out.endswith("interrupted\n" if sig == signal.SIGINT else "terminated\n"), out
    table = _proc_table()
    assert [children[p] for p in children if p in table] == []  # no orphaned uv
    left = sorted(p.name for p in (proj / "environments" / "cpu").iterdir())
    assert left == ["Makefile", "environment.yml", "requirements.in", "requirements.txt"] or (
        ".env" not in left and not any(".env.tmp-" in n for n in left)
    ), left


def test_planted_conda_lock_link_is_refused_by_a_full_lock(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pytorch_index: ServedIndex,
    conda_channel: CondaChannel,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`envgen lock` (py-rattler solve) must not write conda-lock.yml through a planted link."""
    alias = tmp_path / "channels"
    alias.mkdir()
    (alias / "pytorch").symlink_to(conda_channel.path)
    write_channel(alias / "nvidia", "nvidia", [])
    root = tmp_path / "proj"
    (root / "environments" / "cpu").mkdir(parents=True)
    (root / "project.yaml").write_text(PINS_SPEC + "managers: [conda]\n")
    (tmp_path / "sentinel").write_bytes(SECRET)
    link = Path("environments/cpu/conda-lock.yml")
    monkeypatch.chdir(root)
    link.symlink_to(tmp_path / "sentinel")
    for name, value in (
        ("ENVGEN_MATRIX", str(MINI)),
        ("ENVGEN_CACHE_DIR", str(tmp_path / "cache")),
        ("ENVGEN_PYTORCH_INDEX", pytorch_index.root_url),
        ("ENVGEN_PYPI_INDEX", pytorch_index.pypi_url),
        ("ENVGEN_CONDA_CHANNEL_ALIAS", alias.as_uri()),
    ):
        monkeypatch.setenv(name, value)
    code, _, err = run_cli(["lock", "project.yaml"], capsys)
    assert (code, err) == (14, link_message(link, tmp_path / "sentinel"))
    assert (tmp_path / "sentinel").read_bytes() == SECRET
    link.unlink()  # with the link gone, the same run locks
    code, _, err = run_cli(["lock", "project.yaml"], capsys)
    assert code == 0, err
    assert link.read_text().startswith("#")


def test_a_long_committed_lock_line_is_checked_in_linear_time(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Credential masking tried its pattern from every letter of a word: `check` of a lock with
    one 100 KB line took 28 s (a 64 MiB lock, days); the line is still masked and reported."""
    assert run_cli(["lock", "project.yaml", "--pins-only"], capsys)[0] == 0
    lock = proj / "environments/cpu/requirements.txt"
    long_word = "a" * 400_000
    lock.write_text(
        lock.read_text() + f"--{long_word} https://bob:s3cret@{long_word}.example/simple\n"
    )
    code, out, seconds = limited_envgen(["check", "project.yaml", "--pins-only"], proj)
    assert code == 9, out
    assert "s3cret" not in out
    assert "... (" in out  # the diff shows the line as an excerpt (the URL lies past the cut)
    assert seconds < 10


def test_names_a_repository_chose_are_printed_without_control_characters(
    proj: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A planted link's target (any bytes) is quoted in the message: on a terminal its ESC, BEL
    and CR ran as escape sequences (OSC 52 writes the clipboard, CR rewrites the line)."""
    target = "/x\x1b]52;c;Y3VybCBldmlsfHNo\x07\x1b[2K\rremoved everything"
    (proj / "environments" / "gone").mkdir(parents=True)
    (proj / "environments" / "gone" / ".env").symlink_to(target)
    code, out, err = run_cli(["clean", "project.yaml", "--dry-run"], capsys)
    assert (code, out) == (0, "")
    assert "(to /x\\x1b]52;c;Y3VybCBldmlsfHNo\\x07\\x1b[2K\\x0dremoved everything)" in err
    (proj / "environments" / "cpu").mkdir()
    (proj / "environments" / "cpu" / "requirements.txt").symlink_to(target)
    code, out, err = run_cli(["check", "project.yaml", "--pins-only"], capsys)
    assert code == 14
    assert not any(c in err for c in "\x1b\x07\r"), repr(err)
