"""Every file envgen writes for a variant moves together or not at all (issue 26 item 2).

Through the real CLI against the loopback index: a lock that fails for one variant (its index
answers 404 mid-run) and succeeds for another leaves the failed variant's previous files exactly
as they were (no new requirements.in beside an old requirements.txt), `lock --pins-only` then
reaches it, and a run stopped between two renames is finished by the next `envgen lock`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Final

import pytest

from envgen.app import lock
from envgen.infra.files import COMMIT_JOURNAL
from envgen.infra.settings import Settings
from envgen.lock.options import LockOptions
from tests.support.cli import run_cli
from tests.support.fixtures import ServedIndex, ServerFactory, clean_tool_env

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(__file__).parents[2]
SPEC: Final = (
    'name: sets\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu, cu118]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)
EDITED: Final = SPEC.replace('["numpy<2"]', '["numpy<2", "filelock"]')


def envgen(args: list[str], env: dict[str, str], cwd: Path) -> tuple[int, str]:
    return run_cli(args, env, cwd)


def files_of(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:12]
        for p in sorted(folder.iterdir())
        if p.is_file()
    }


def env_for(tmp_path: Path, index: str, pypi: str) -> dict[str, str]:
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_PYTORCH_INDEX=index,
        ENVGEN_PYPI_INDEX=pypi,
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        PYTHONPATH=str(ROOT),
    )
    return env


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_a_failed_variant_keeps_its_files_whole_and_pins_only_reaches_it(
    tmp_path: Path, pytorch_index: ServedIndex, faulty_server: ServerFactory
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    good = env_for(tmp_path, pytorch_index.root_url, pytorch_index.pypi_url)
    code, out = envgen(["lock", "project.yaml", "--pins-only"], good, proj)
    assert code == 0, out
    cu118 = proj / "environments" / "cu118"
    before = files_of(cu118)
    assert list(before) == ["requirements.txt"]

    # The spec changes; cu118's index is unreachable while cpu locks.
    (proj / "project.yaml").write_text(EDITED)
    server = faulty_server()
    server.add_fault("/whl/cu118/*", status=404)
    broken = env_for(tmp_path, f"{server.url}/whl", f"{server.url}/pypi/simple")
    code, out = envgen(["lock", "project.yaml"], broken, proj)
    assert code == 6, out
    assert "1 of 2 variant(s) failed to lock; their previous files are untouched (locked: cpu)" in (
        out
    )
    assert files_of(cu118) == before  # no requirements.in beside the old pins
    assert sorted(files_of(proj / "environments" / "cpu")) == [
        "pylock.toml",
        "requirements.in",
        "requirements.txt",
    ]

    # Locked against the other server: re-resolved once against this one (issue 21 item 6).
    code, out = envgen(["lock", "project.yaml", "--variant", "cpu"], good, proj)
    assert (code, out) == (0, "cpu: up to date (its inputs still resolve to it)\n"), out
    assert files_of(cu118) == before  # an unselected variant's lock keeps its inputs too
    code, out = envgen(["check", "project.yaml", "--variant", "cpu"], good, proj)
    assert (code, out) == (0, "locks in environments are up to date (1 variant(s))\n"), out

    # An older envgen left the mix this issue describes: a stray full-lock input beside the
    # pins-only file. `lock --pins-only` heals it and the spec's edit reaches the pins.
    stray = (proj / "environments" / "cpu" / "requirements.in").read_text()
    (cu118 / "requirements.in").write_text(stray.replace("+cpu", "+cu118"))
    code, out = envgen(["lock", "project.yaml", "--pins-only"], good, proj)
    assert code == 0, out
    assert "was not written by envgen or was edited" not in out
    assert f"removed {Path('environments/cu118/requirements.in')}" in out, out
    assert list(files_of(cu118)) == ["requirements.txt"]
    pins = (cu118 / "requirements.txt").read_text()
    assert "\nfilelock\n" in pins, pins
    assert "--hash" not in pins
    code, out = envgen(["lock", "project.yaml", "--pins-only", "--check"], good, proj)
    assert code == 0, out


def test_a_run_stopped_between_renames_is_finished_by_the_next_lock(
    tmp_path: Path, pytorch_index: ServedIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC.replace("[cpu, cu118]", "[cpu]"))
    env = env_for(tmp_path, pytorch_index.root_url, pytorch_index.pypi_url)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    cpu = proj / "environments" / "cpu"
    old = {p.name: p.read_text() for p in cpu.iterdir()}

    # The spec changes and the lock is killed after renaming requirements.in, before
    # requirements.txt: an old lock beside new inputs, and the journal naming the rest.
    (proj / "project.yaml").write_text(EDITED.replace("[cpu, cu118]", "[cpu]"))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    real = os.replace

    def killed(src: str, dst: str, **kw: int) -> None:
        if dst == "requirements.txt":
            raise KeyboardInterrupt
        real(src, dst, **kw)

    monkeypatch.setattr(os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        lock(
            LockOptions(
                spec=proj / "project.yaml",
                matrix_dir=MINI,
                settings=Settings.from_environ(os.environ),
            )
        )
    monkeypatch.setattr(os, "replace", real)
    assert (cpu / "requirements.in").read_text() != old["requirements.in"]
    assert (cpu / "requirements.txt").read_text() == old["requirements.txt"]
    assert (cpu / COMMIT_JOURNAL).is_file()

    code, out = envgen(["check", "project.yaml"], env, proj)
    assert code == 9, out
    assert (
        "  - cpu/: a write of its files was interrupted (they may mix old and new); "
        "`envgen lock` finishes it\n"
    ) in out
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert (code, out) == (
        0,
        "cpu: finished writing the set of files an interrupted run left\n"
        # stopped before its stamp: re-resolved once, as an unseen lock is (issue 21 item 6)
        "cpu: up to date (its inputs still resolve to it)\n",
    ), out
    assert sorted(p.name for p in cpu.iterdir()) == [
        "pylock.toml",
        "requirements.in",
        "requirements.txt",
    ]
    code, out = envgen(["check", "project.yaml"], env, proj)
    assert (code, out) == (0, "locks in environments are up to date (1 variant(s))\n"), out

    # `--pins-only` after a spec edit: the full lock's inputs move only with it.
    before = {p.name: p.read_bytes() for p in cpu.iterdir()}
    (proj / "project.yaml").write_text(SPEC.replace("[cpu, cu118]", "[cpu]"))
    code, out = envgen(["lock", "project.yaml", "--pins-only"], env, proj)
    assert code == 0, out
    assert (
        "cpu: requirements.in not rewritten: its inputs changed and move only with its full lock "
        "(`envgen lock` writes both)\n"
    ) in out, out
    assert {p.name: p.read_bytes() for p in cpu.iterdir()} == before


TWO_PYTHONS: Final = SPEC.replace('python: "3.11"', 'python: ["3.11", "3.10"]').replace(
    "[cpu, cu118]", "[cpu]"
)


def body(path: Path) -> str:
    return path.read_text().partition("\n# content-hash: ")[2].split("\n", 1)[1]


@pytest.mark.parametrize("pins_only", [False, True])
def test_a_renamed_variant_takes_over_its_lock_and_the_old_environment_is_named(
    tmp_path: Path, pytorch_index: ServedIndex, pins_only: bool
) -> None:
    """Adding a second python renames `cpu` to `cpu-py311` (issue 26 item 5): the lock is
    carried over with no resolver work, and the output says what became of the old `.env`."""
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC.replace("[cpu, cu118]", "[cpu]"))
    env = env_for(tmp_path, pytorch_index.root_url, pytorch_index.pypi_url)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    old = proj / "environments" / "cpu"
    bodies = {n: body(old / n) for n in ("requirements.txt", "pylock.toml")}
    (old / ".env").mkdir()  # stands for the environment `envgen build` made under the old name

    (proj / "project.yaml").write_text(TWO_PYTHONS)
    pytorch_index.clear_requests()
    args = ["lock", "project.yaml", "--pins-only"] if pins_only else ["lock", "project.yaml"]
    code, out = envgen([*args, "--variant", "cpu-py311"], env, proj)
    assert code == 0, out
    envs = Path("environments")
    carried = (
        "cpu-py311: lock carried over from cpu/ (the same inputs)\n"
        if pins_only
        else "cpu-py311: lock carried over from cpu/ (the same inputs; no resolver work); "
        f"{envs / 'cpu' / '.env'}, built under the old name, is not reused: "
        "`envgen build --variant cpu-py311` builds this variant's own\n"
    )
    assert carried in out, out
    assert (
        f"warning: {envs / 'cpu' / '.env'}: no variant of the spec is called 'cpu' now (the "
        "variants: cpu-py310, cpu-py311); the environment stays until `envgen clean` removes it\n"
    ) in out, out
    assert (
        "from environments/cpu/ (a variant the spec no longer has); kept what envgen did not "
        "write there: .env\n"
    ) in out, out
    assert pytorch_index.requests == []  # no resolver work
    new = proj / "environments" / "cpu-py311"
    assert {n: body(new / n) for n in bodies} == bodies
    assert (
        "# variant: cpu-py311 (torch 2.1.0, cpu, python 3.11, linux-64)\n"
        in (new / "requirements.txt").read_text()
    )
    assert sorted(p.name for p in old.iterdir()) == [".env"]
    code, out = envgen(["check", "project.yaml", "--variant", "cpu-py311"], env, proj)
    assert (code, out) == (0, "locks in environments are up to date (1 variant(s))\n"), out


def test_a_renamed_variant_whose_inputs_changed_is_locked_anew(
    tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC.replace("[cpu, cu118]", "[cpu]"))
    env = env_for(tmp_path, pytorch_index.root_url, pytorch_index.pypi_url)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    (proj / "project.yaml").write_text(TWO_PYTHONS.replace("numpy<2", "numpy<1.27"))
    code, out = envgen(["lock", "project.yaml", "--variant", "cpu-py311"], env, proj)
    assert code == 0, out
    assert "carried" not in out
    assert "cpu-py311: locked in " in out, out
