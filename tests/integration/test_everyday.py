"""Everyday use through the real command line (`python -m envgen` in a subprocess).

Issue 13: pins-only never downgrades a full lock, network hints, `latest`, stable variant names,
build/smoke summaries, tool errors, and the run/shell/export commands.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import sys
from pathlib import Path

import pytest
import yaml

from envgen.infra import proc as _proc

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]


def envgen(*args: str, cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run the installed CLI as a user would; (exit code, stdout, stderr)."""
    full = {**_proc.clean_env(), "PIP_CONFIG_FILE": os.devnull, **(env or {})}
    result = _proc.run(
        [sys.executable, "-m", "envgen", *args],
        what="envgen",
        cwd=cwd,
        env=full,
        check=False,
        timeout=600,
    )
    return result.returncode, result.stdout, result.stderr


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """The bundled example as committed: project.yaml and environments/ (a full cpu lock)."""
    shutil.copy(ROOT / "project.yaml", tmp_path / "project.yaml")
    shutil.copytree(ROOT / "environments", tmp_path / "environments")
    return tmp_path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


# The bundled example's rows (torch 2.13.0) come from test-infra's build matrix, not a published
# install command: lock says so once.


# --- item 2: --pins-only never downgrades a full lock ---------------------------------------------
def test_the_pins_check_hook_passes_on_the_bundled_full_lock(example: Path) -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    entry = next(h["entry"] for h in hooks if h["id"] == "envgen-pins-check")
    assert entry == "envgen lock --pins-only --check"
    code, out, err = envgen(*shlex.split(entry)[1:], cwd=example)
    assert (code, out) == (0, ""), err
    # A check writes nothing, so the inferred-rows note (shown when a lock writes) is not repeated.
    assert err == (
        "cpu: full lock kept; its pins agree with the matrix\n"
        "cu126: full-lock inputs only (no lock yet; `envgen lock` makes it)\n"
        "cu130: full-lock inputs only (no lock yet; `envgen lock` makes it)\n"
        "4 file(s) in environments are up to date\n"
    )


def test_pins_only_keeps_a_full_lock(example: Path) -> None:
    before = _snapshot(example / "environments")
    code, _, err = envgen("lock", "--pins-only", cwd=example)
    assert code == 0, err
    assert _snapshot(example / "environments") == before
    assert err.splitlines()[-1] == "4 file(s), 0 changed, in environments"
    # The pins check still passes afterwards: nothing was downgraded. (The full `lock --check`
    # re-resolves against the PyTorch index since issue 16, which this machine cannot reach.)
    code, _, err = envgen("lock", "--pins-only", "--check", cwd=example)
    assert code == 0, err


def test_pins_check_fails_when_the_full_lock_disagrees_with_the_matrix(example: Path) -> None:
    lock = example / "environments" / "cpu" / "requirements.txt"
    text = lock.read_text()
    number = text.splitlines().index("torch==2.13.0+cpu \\") + 1
    lock.write_text(text.replace("torch==2.13.0+cpu \\", "torch==2.12.0+cpu \\"))
    code, _, err = envgen("lock", "--pins-only", "--check", cwd=example)
    assert code == 9
    assert err == (
        "error: 2 problem(s) in environments:\n"
        "  - cpu/requirements.txt: the body does not match its content-hash: the file was edited by hand\n"
        f"  - cpu/requirements.txt: line {number}: torch==2.12.0+cpu but the matrix pins torch==2.13.0+cpu\n"
        "  hint: run `envgen lock` and commit the result\n"
    )
    # Writing pins-only files leaves the edited lock alone and says why.
    code, _, err = envgen("lock", "--pins-only", cwd=example)
    assert code == 0, err
    assert lock.read_text() == text.replace("torch==2.13.0+cpu \\", "torch==2.12.0+cpu \\")
    assert (
        f"warning: cpu/requirements.txt: line {number}: torch==2.12.0+cpu but the matrix pins "
        "torch==2.13.0+cpu (the full lock was kept; run `envgen lock`)\n"
    ) in err


def test_pins_only_in_a_fresh_folder_writes_pins(tmp_path: Path) -> None:
    shutil.copy(ROOT / "project.yaml", tmp_path / "project.yaml")
    code, _, err = envgen("lock", "--pins-only", cwd=tmp_path)
    assert code == 0, err
    out = tmp_path / "environments"
    assert sorted(_snapshot(out)) == [
        "Makefile",
        "cpu/requirements.txt",
        "cu126/requirements.txt",
        "cu130/requirements.txt",
    ]
    assert (
        "# To regenerate: envgen lock project.yaml --pins-only\n"
        in (out / "cpu" / "requirements.txt").read_text()
    )


# --- item 3: a network failure names the host and the way out ----------------------------------
_MIRROR_HINT = (
    "{host} cannot be reached from here: point envgen at a mirror with "
    "ENVGEN_PYTORCH_INDEX=<url> or `pytorch_index: <url>` in project.yaml "
    "(see docs/how-to/use-a-mirror.md), or write the matrix pins without a resolver or network: "
    "`envgen lock --pins-only`"
)


def test_an_index_host_that_does_not_resolve_fails_at_once(example: Path) -> None:
    # .invalid never resolves (RFC 6761): the run stops before any resolver starts.
    index = "https://mirror.envgen-test.invalid/whl"
    before = _snapshot(example / "environments")
    code, out, err = envgen(
        "lock", "--variant", "cpu", "--upgrade", cwd=example, env={"ENVGEN_PYTORCH_INDEX": index}
    )
    assert (code, out) == (15, "")  # NetworkError
    assert err == (
        "error: cannot resolve mirror.envgen-test.invalid (the PyTorch index "
        f"{index}/cpu): Name or service not known; nothing was locked\n"
        "  hint: " + _MIRROR_HINT.format(host="mirror.envgen-test.invalid") + "\n"
    )
    assert _snapshot(example / "environments") == before


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_a_refused_connection_gets_the_mirror_hint_not_the_pins_hint(example: Path) -> None:
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    index = f"http://127.0.0.1:{port}/whl"
    code, _, err = envgen(
        "lock", "--variant", "cpu", "--upgrade", cwd=example, env={"ENVGEN_PYTORCH_INDEX": index}
    )
    assert code == 6
    assert "      cause: Connection refused (os error 111)\n" in err
    assert err.endswith("  hint: " + _MIRROR_HINT.format(host="127.0.0.1") + "\n")
    assert "check the pins" not in err


# --- item 4: latest and ranges fit the whole spec ------------------------------------------------
def _spec(folder: Path, text: str) -> Path:
    (folder / "project.yaml").write_text(text)
    return folder


def test_latest_is_the_newest_release_that_fits_python_and_accelerators(tmp_path: Path) -> None:
    _spec(
        tmp_path,
        'name: t\npython: "3.10"\ntorch: latest\naccelerators: [cpu, cu128]\nmanagers: [pip]\n',
    )
    code, out, err = envgen("list", cwd=tmp_path)
    assert code == 0, err
    assert out == (
        "cpu\ttorch 2.11.0\tpython 3.10\tlinux-64\tpip\n"
        "cu128\ttorch 2.11.0\tpython 3.10\tlinux-64\tpip\n"
    )
    assert err.startswith(
        "warning: torch 'latest' resolved to 2.11.0, the newest release that fits the spec; "
        "newer ones were skipped: 2.15.0: python: torch 2.15.0 supports python 3.11-3.15, not "
        "3.10 (did you mean '3.15'?) (and 1 more); 2.14.1: "
    )
    assert err.count("\n") == 1
    # lock says the same once, and pins the release it picked.
    code, _, err = envgen("lock", "--pins-only", cwd=tmp_path)
    assert code == 0, err
    assert err.count("warning: torch 'latest' resolved to 2.11.0") == 1
    assert "torch==2.11.0+cu128\n" in (tmp_path / "environments/cu128/requirements.txt").read_text()


def test_a_range_with_no_fitting_release_names_the_newest_ones_problems(tmp_path: Path) -> None:
    _spec(
        tmp_path,
        'name: t\npython: "3.10"\ntorch: ">=2.14,<3"\naccelerators: [cu128]\nmanagers: [pip]\n',
    )
    code, out, err = envgen("list", cwd=tmp_path)
    assert (code, out) == (10, "")
    assert err == (
        "error: torch: no release matching '>=2.14,<3' fits the rest of the spec (3 tried); the "
        "newest, 2.15.0:\n"
        "project.yaml: 2 combinations were never published\n"
        "  - project.yaml: python: torch 2.15.0 supports python 3.11-3.15, not 3.10 (did you mean "
        "'3.15'?)\n"
        "  - project.yaml: accelerators[0]: torch 2.15.0 was not published for cu128 on linux-64 "
        "(pip); it was published for cpu, cu132 (did you mean 'cu132'?)\n"
    )


# --- item 5: stable names, stale folders, env-<compute> aliases ----------------------------------
_TWO = 'name: t\npython: {python}\ntorch: "2.13.0"\naccelerators: [cpu, cu126]\nmanagers: [pip]\n'


def test_a_second_python_names_only_that_axis_and_stale_folders_go(tmp_path: Path) -> None:
    _spec(tmp_path, _TWO.format(python='"3.11"'))
    code, _, err = envgen("lock", "--pins-only", cwd=tmp_path)
    assert code == 0, err
    out = tmp_path / "environments"
    assert sorted(_snapshot(out)) == ["Makefile", "cpu/requirements.txt", "cu126/requirements.txt"]
    (out / "cu126" / "notes.txt").write_text("my notes\n")

    _spec(tmp_path, _TWO.format(python='["3.11", "3.12"]'))
    code, out_text, _ = envgen("list", cwd=tmp_path)
    assert [line.split("\t")[0] for line in out_text.splitlines()] == [
        "cpu-py311",
        "cpu-py312",
        "cu126-py311",
        "cu126-py312",
    ]
    code, _, err = envgen("lock", "--pins-only", cwd=tmp_path)
    assert code == 0, err
    assert err.splitlines()[-3:] == [
        "removed environments/cpu/ (a variant the spec no longer has)",
        "removed requirements.txt from environments/cu126/ (a variant the spec no longer has); "
        "kept what envgen did not write there: notes.txt",
        "5 file(s), 5 changed, in environments",
    ]
    assert sorted(_snapshot(out)) == [
        "Makefile",
        "cpu-py311/requirements.txt",
        "cpu-py312/requirements.txt",
        "cu126-py311/requirements.txt",
        "cu126-py312/requirements.txt",
        "cu126/notes.txt",
    ]
    code, _, err = envgen("lock", "--pins-only", "--check", cwd=tmp_path)
    assert code == 0, err
    # make env-cu126 still means something: every cu126 variant.
    makefile = (out / "Makefile").read_text()
    assert (
        "env-cu126:\n"
        "\t$(ENVGEN) lock $(SPEC) --out $(OUT) --variant 'cu126-*'\n"
        "\t$(ENVGEN) build $(SPEC) --out $(OUT) --variant 'cu126-*'\n"
    ) in makefile


def test_check_names_a_stale_folder(tmp_path: Path) -> None:
    _spec(tmp_path, _TWO.format(python='"3.11"'))
    assert envgen("lock", "--pins-only", cwd=tmp_path)[0] == 0
    _spec(tmp_path, _TWO.format(python='"3.11"').replace("[cpu, cu126]", "[cpu]"))
    code, _, err = envgen("lock", "--pins-only", cwd=tmp_path)
    assert code == 0, err
    assert "removed environments/cu126/ (a variant the spec no longer has)\n" in err
    assert not (tmp_path / "environments" / "cu126").exists()
    # A stale copy put back (a checkout of an old branch, say) fails the check.
    (tmp_path / "environments" / "cu126").mkdir()
    (tmp_path / "environments" / "cu126" / "requirements.txt").write_text(
        "# This file was generated by envgen; do not edit it by hand.\ntorch==2.13.0+cu126\n"
    )
    code, _, err = envgen("lock", "--pins-only", "--check", cwd=tmp_path)
    assert code == 9
    assert err == (
        "error: 1 problem(s) in environments:\n"
        "  - cu126/: not a variant of the spec any more (envgen wrote requirements.txt there)\n"
        "  hint: run `envgen lock` and commit the result\n"
    )


# --- item 6: build and smoke do every variant they can, then one summary -------------------------
MINI = ROOT / "tests" / "data" / "matrix-mini"


@pytest.fixture
def fake_project(tmp_path: Path, pytorch_index) -> tuple[Path, dict[str, str]]:  # type: ignore[no-untyped-def]
    """cpu + cu118 against the loopback index with tiny fake wheels (tests/support)."""
    (tmp_path / "project.yaml").write_text(
        'name: t\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu, cu118]\nmanagers: [pip]\n'
        "torchvision: false\ntorchaudio: false\n"
    )
    env = {
        "ENVGEN_PYTORCH_INDEX": pytorch_index.root_url,
        "ENVGEN_PYPI_INDEX": pytorch_index.pypi_url,
        "ENVGEN_CACHE_DIR": str(tmp_path / "cache"),
        "ENVGEN_MATRIX": str(MINI),
    }
    return tmp_path, env


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_build_without_variant_builds_what_it_can_then_summarises(
    fake_project: tuple[Path, dict[str, str]],
) -> None:
    folder, env = fake_project
    code, _, err = envgen("lock", "--variant", "cpu", cwd=folder, env=env)
    assert code == 0, err
    code, out, err = envgen("build", "--no-smoke", cwd=folder, env=env)
    assert (code, out) == (7, "")
    # Timings and sizes vary: replace the numbers.
    err = re.sub(r"\d+\.\d (s|MB)", r"N \1", err)
    assert err == (
        "cpu: verifying the lock\n"  # the progress lines (envgen.cli.progress)
        "cpu: creating the environment (python 3.11)\n"
        "cpu: installing\n"
        "cpu: linking bytecode from the store\n"
        "cpu: compiling bytecode (7 modules)\n"
        "cpu: checking the installed packages\n"
        "cpu: built with pip in N s, added N MB (N MB shared with the cache)\n"
        "cpu: built (pip) in N s, added N MB (N MB shared with the cache) -> "
        "environments/cpu/.env\n"
        "cu118: not ready (pip): environments/cu118/requirements.txt: missing; cu118 is not locked\n"
        "build: 2 variant(s): 1 built, 1 not ready (cu118)\n"
        "error: 1 of 2 variant(s) failed to build or were not ready (built: cpu)\n"
        "[cu118] environments/cu118/requirements.txt: missing; cu118 is not locked\n"
        "  hint: run `envgen lock --variant cu118` first\n"
    )
    assert (folder / "environments" / "cpu" / ".env" / "bin" / "python").exists()

    code, out, err = envgen("smoke", cwd=folder, env=env)
    # The fake torch of tests/support fails the math checks: a failure and a missing build.
    assert code == 8
    assert out.startswith("== cpu\n")
    assert re.sub(r"\d+\.\d s", "N s", err) == (
        "cpu: smoke checks\n"
        "cpu: smoke 3 passed, 3 failed, 17 skipped in N s\n"
        "smoke: 2 variant(s): 0 passed, 1 failed (cpu), 1 not built (cu118)\n"
        "error: 1 of 2 variant(s) failed smoke checks\n"
        "  - cpu: cpu/tensor-math: AttributeError: module 'torch' has no attribute 'matmul'\n"
        "  - cpu: cpu/autograd: TypeError: tensor() got an unexpected keyword argument "
        "'requires_grad'\n"
        "  - cpu: cpu/convnet-forward: AttributeError: module 'torch' has no attribute 'nn'\n"
        "  - cu118: not built: environments/cu118/.env is missing\n"
    )


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_make_env_locks_first_and_runs_inside_environments(
    fake_project: tuple[Path, dict[str, str]],
) -> None:
    """`make env-cu118` from inside environments/ on a pins-only folder: lock, then build."""
    folder, env = fake_project
    code, _, err = envgen("lock", "--pins-only", cwd=folder, env=env)
    assert code == 0, err
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    full = {**_proc.clean_env(), "PIP_CONFIG_FILE": os.devnull, **env}
    inside = folder / "environments"
    result = _proc.run(
        [make, "env-cu118", f"ENVGEN={sys.executable} -m envgen", "--no-print-directory"],
        what="make env-cu118",
        cwd=inside,
        env=full,
        check=False,
        timeout=600,
    )
    # Locked, built, then smoke-tested: the fake torch of tests/support fails the math checks
    # (exit 8), which is the smoke test doing its job; what matters here is the first two steps.
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout.startswith(
        f"{sys.executable} -m envgen lock ../project.yaml --out . --variant cu118\n"
        f"{sys.executable} -m envgen build ../project.yaml --out . --variant cu118\n"
        "== cu118\n"
    )
    assert "\ncu118: locked in " in result.stderr
    assert result.stderr.endswith("make: *** [Makefile:32: env-cu118] Error 8\n")
    lock = (inside / "cu118" / "requirements.txt").read_text()
    assert "--hash=sha256:" in lock  # the pins-only file became a full lock first
    assert (inside / "cu118" / ".env" / "bin" / "python").exists()


# --- item 7: the numpy-2 warning once per run, and not when numpy is pinned below 2 --------------
_NUMPY = (
    "torch < 2.3 is built against NumPy 1: with numpy>=2 importing it prints 'A module that was "
    "compiled using NumPy 1.x cannot be run in NumPy 2' and NumPy interop fails (_ARRAY_API not "
    "found). 2.3.0 is the first release validated with NumPy 2. Fix: Pin numpy<2 for torch < 2.3. "
    "(https://github.com/pytorch/pytorch/issues/107302)"
)
_OLD = 'name: t\npython: "3.8"\ntorch: "1.12.0"\naccelerators: [cpu, cu113]\n'


def test_the_numpy_warning_is_said_once_per_run(tmp_path: Path) -> None:
    _spec(tmp_path, _OLD)
    code, _, err = envgen("lock", "--pins-only", cwd=tmp_path)
    assert code == 0, err
    numpy = [line for line in err.splitlines() if "numpy2-with-torch-before-2.3" in line]
    assert numpy == [f"warning: [numpy2-with-torch-before-2.3] pip+conda on cpu, cu113: {_NUMPY}"]


@pytest.mark.parametrize(
    ("extra", "left"),
    [
        ('pip: ["numpy<2"]\nconda: {dependencies: ["numpy<2"]}\n', []),
        ('pip: ["numpy==1.26.4"]\nconda: {dependencies: ["numpy=1.21"]}\n', []),
        # Either list says it (as `silenced-by` reads in known-issues.yaml).
        ('pip: ["numpy<2"]\n', []),
        ('conda: {dependencies: ["numpy 1.26.*"]}\n', []),
        # numpy 2 allowed: the warning stays.
        (
            'pip: ["numpy>=1.20"]\nconda: {dependencies: ["numpy"]}\n',
            [f"warning: [numpy2-with-torch-before-2.3] pip+conda on cpu, cu113: {_NUMPY}"],
        ),
    ],
)
def test_numpy_pinned_below_2_silences_the_warning(
    tmp_path: Path, extra: str, left: list[str]
) -> None:
    _spec(tmp_path, _OLD + extra)
    code, _, err = envgen("list", cwd=tmp_path)
    assert code == 0, err
    assert [line for line in err.splitlines() if "numpy2-with-torch-before-2.3" in line] == left


# --- item 7: every README Quick start line runs with the bundled project.yaml --------------------
# Lines that need the PyTorch index (download.pytorch.org or a mirror of it, for cu126/cu130) or
# the real torch build: `make example` and tests/integration/test_e2e_real_torch.py run those
# (the vault and pack lines, with an S3 server: test_vault.py and test_vault_real_torch.py).
_NEEDS_THE_INDEX = {
    "envgen vault project.yaml --variant cpu --dir vault",
    "envgen build project.yaml --variant cpu --vault vault",
    "envgen vault push --dir vault s3://team-vault/envgen",
    "envgen pack cpu -o example-cpu.tar.gz",
    "envgen lock project.yaml",
    "envgen lock project.yaml --check",
    "envgen check project.yaml",
    "envgen build project.yaml --variant cpu",
    "envgen smoke project.yaml --variant cpu --junit smoke.xml",
    "make -C environments env-cpu",
    'envgen run project.yaml cpu -- python -c "import torch; print(torch.__version__)"',
    "envgen shell project.yaml cpu",
}


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_every_quick_start_line_runs_with_the_bundled_example(tmp_path: Path) -> None:
    for name in ("project.yaml", "environments", "examples"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name)
        else:
            shutil.copy(source, tmp_path / name)
    lines = _quick_start()
    assert lines[0] == "pip install ."  # the checkout itself: envgen-torch is not on PyPI yet
    skipped = set()
    for line in lines[1:]:
        if line in _NEEDS_THE_INDEX:
            skipped.add(line)
            continue
        words = shlex.split(line)
        assert words[0] == "envgen", line
        code, _, err = envgen(*words[1:], cwd=tmp_path)
        assert code == 0, f"{line}: exit {code}\n{err}"
    assert skipped == _NEEDS_THE_INDEX
    assert (tmp_path / "imported.yaml").is_file()
    assert (tmp_path / "docker" / "cu126" / "Dockerfile").is_file()


# --- item 8: lock says once that the rows it used are inferred, with the source -----------------
def test_lock_names_inferred_rows_once(example: Path) -> None:
    """When a lock writes, the note names the rows of the variants it locked, once; a run that
    writes nothing (here: the second) does not repeat it."""
    (example / "environments" / "cpu" / "requirements.in").unlink()
    code, _, err = envgen("lock", "--variant", "cpu", cwd=example)
    assert code == 0, err
    only_cpu = (
        "inferred matrix rows, not read from PyTorch's published install commands: cpu (pip) "
        "from test-infra generate_binary_build_matrix.py release arches at 6d36e31f45 "
        "(CURRENT_STABLE_VERSION=2.13.0); PyPI wheel tags (check them with `envgen matrix show`)"
    )
    assert f"warning: {only_cpu}\n" in err
    assert err.count("inferred matrix rows") == 1
    code, _, err = envgen("lock", "--variant", "cpu", cwd=example)
    # Up to date; re-resolved where download.pytorch.org answers, else a warning (issue 21.6).
    assert code == 0, err
    assert "inferred" not in err
    assert err.splitlines()[-1].startswith("cpu: up to date ("), err


def test_lock_is_silent_about_rows_read_from_published_commands(tmp_path: Path) -> None:
    _spec(
        tmp_path,
        'name: t\npython: "3.10"\ntorch: "1.12.0"\naccelerators: [cu116]\npip: ["numpy<2"]\n',
    )
    code, _, err = envgen("lock", "--pins-only", cwd=tmp_path)
    assert code == 0, err
    assert "inferred" not in err


# --- item 10: envgen run / shell, --variant auto -------------------------------------------------
def _no_gpu_here() -> bool:
    return shutil.which("nvidia-smi") is None and not Path("/proc/driver/nvidia/version").exists()


def test_run_builds_from_the_lock_then_runs_inside(
    fake_project: tuple[Path, dict[str, str]],
) -> None:
    folder, env = fake_project
    assert envgen("lock", "--variant", "cpu", cwd=folder, env=env)[0] == 0
    script = "import os, sys; print(sys.prefix); print(os.environ['VIRTUAL_ENV'])"
    code, out, err = envgen("run", "cpu", "--", "python", "-c", script, cwd=folder, env=env)
    assert code == 0, err
    prefix = str(folder / "environments" / "cpu" / ".env")
    assert out == f"{prefix}\n{prefix}\n"
    assert "cpu: built with pip in " in err
    # Built now: a second run does not build again, and the command's exit status is returned.
    code, out, err = envgen(
        "run", "cpu", "--", "python", "-c", "raise SystemExit(3)", cwd=folder, env=env
    )
    assert (code, out) == (3, "")
    assert "built with pip" not in err


def test_run_names_a_command_that_is_not_there(fake_project: tuple[Path, dict[str, str]]) -> None:
    folder, env = fake_project
    assert envgen("lock", "--variant", "cpu", cwd=folder, env=env)[0] == 0
    code, _, err = envgen("run", "cpu", "--", "no-such-tool-here", cwd=folder, env=env)
    assert code == 12
    assert err.endswith(
        "error: no-such-tool-here: command not found in the environment or on PATH\n"
    )


def test_run_without_a_lock_says_to_lock(fake_project: tuple[Path, dict[str, str]]) -> None:
    folder, env = fake_project
    code, _, err = envgen("run", "cu118", "--", "python", "-V", cwd=folder, env=env)
    assert code == 7
    assert err == (
        "error: environments/cu118/requirements.txt: missing; cu118 is not locked\n"
        "  hint: run `envgen lock --variant cu118` first\n"
    )


def test_shell_starts_the_users_shell_inside(fake_project: tuple[Path, dict[str, str]]) -> None:
    folder, env = fake_project
    assert envgen("lock", "--variant", "cpu", cwd=folder, env=env)[0] == 0
    full = {**_proc.clean_env(), "PIP_CONFIG_FILE": os.devnull, **env, "SHELL": "/bin/sh"}
    result = _proc.run(
        [sys.executable, "-m", "envgen", "shell", "cpu"],
        what="envgen shell",
        cwd=folder,
        env=full,
        check=False,
        input_text='echo "$VIRTUAL_ENV"\ncommand -v python\n',
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    prefix = folder / "environments" / "cpu" / ".env"
    assert result.stdout == f"{prefix}\n{prefix / 'bin' / 'python'}\n"
    assert result.stderr.endswith(f"envgen: a shell in {prefix} (exit to leave)\n")


@pytest.mark.skipif(not _no_gpu_here(), reason="this machine has an NVIDIA driver")
def test_variant_auto_picks_what_this_machine_can_run(
    fake_project: tuple[Path, dict[str, str]],
) -> None:
    folder, env = fake_project
    assert envgen("lock", "--variant", "cpu", cwd=folder, env=env)[0] == 0
    code, _, err = envgen("build", "--variant", "auto", "--no-smoke", cwd=folder, env=env)
    assert code == 0, err
    assert err.splitlines()[0] == (
        "--variant auto chose cpu: CPU builds run on any host; cannot run here: cu118 (no NVIDIA "
        "driver found (nvidia-smi, /proc/driver/nvidia); CUDA 11.8 needs driver >= 520.61.05)"
    )
    code, out, err = envgen("run", "auto", "--", "python", "-c", "print('hi')", cwd=folder, env=env)
    assert (code, out) == (0, "hi\n"), err


# --- item 9: envgen export uv | pixi -------------------------------------------------------------
def test_export_uv_gives_one_universal_lock_with_the_real_uv(  # type: ignore[no-untyped-def]
    tmp_path: Path, pytorch_index
) -> None:
    """`uv lock` on the exported pyproject.toml resolves cpu and cu118 from their own indexes."""
    import tomllib

    (tmp_path / "project.yaml").write_text(
        'name: demo\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu, cu118]\n'
        'managers: [pip]\npip: ["numpy<2"]\ntorchvision: false\ntorchaudio: false\n'
        f"pytorch_index: {pytorch_index.root_url}\npypi_index: {pytorch_index.pypi_url}\n"
        "write_index: mirror\n"
    )
    out = tmp_path / "uvproject" / "pyproject.toml"
    code, stdout, err = envgen(
        "export", "uv", "-o", str(out), cwd=tmp_path, env={"ENVGEN_MATRIX": str(MINI)}
    )
    assert (code, stdout) == (0, ""), err
    assert err == f"wrote {out}\n"
    data = tomllib.loads(out.read_text())
    root = pytorch_index.root_url
    assert data["project"]["optional-dependencies"] == {
        "cpu": ["torch==2.1.0+cpu"],
        "cu118": ["torch==2.1.0+cu118"],
    }
    assert data["tool"]["uv"]["conflicts"] == [[{"extra": "cpu"}, {"extra": "cu118"}]]
    assert data["tool"]["uv"]["sources"] == {
        "torch": [
            {"index": "pytorch-cpu", "extra": "cpu"},
            {"index": "pytorch-cu118", "extra": "cu118"},
        ]
    }
    assert data["tool"]["uv"]["index"] == [
        {"name": "pytorch-cpu", "url": f"{root}/cpu", "explicit": True},
        {"name": "pytorch-cu118", "url": f"{root}/cu118", "explicit": True},
        {"name": "pypi", "url": pytorch_index.pypi_url, "default": True},
    ]
    uv = _proc.which("uv")
    assert uv is not None
    env = {
        **_proc.clean_env(),
        "UV_CACHE_DIR": str(tmp_path / "uv-cache"),
        "UV_PYTHON_DOWNLOADS": "never",
        "XDG_CONFIG_HOME": str(tmp_path / "no-config"),
    }
    result = _proc.run(
        [uv, "lock", "--python", sys.executable],
        what="uv lock",
        cwd=out.parent,
        env=env,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lock = tomllib.loads((out.parent / "uv.lock").read_text())
    torches = sorted(
        (p["version"], p["source"]["registry"]) for p in lock["package"] if p["name"] == "torch"
    )
    assert torches == [("2.1.0+cpu", f"{root}/cpu"), ("2.1.0+cu118", f"{root}/cu118")]
    numpy = [p for p in lock["package"] if p["name"] == "numpy"]
    assert len(numpy) == 1
    assert numpy[0]["version"].startswith("1.")
    # One extra per variant, each with its own torch: what `uv sync --extra cu118` installs.
    exported = _proc.run(
        [uv, "export", "--extra", "cu118", "--no-hashes", "--frozen", "--no-emit-project"],
        what="uv export",
        cwd=out.parent,
        env=env,
    )
    assert "torch==2.1.0+cu118" in exported.stdout
    assert "+cpu" not in exported.stdout


def test_export_pixi_writes_one_feature_and_environment_per_variant(tmp_path: Path) -> None:
    """pixi itself is not installable here (PyPI's `pixi` is an unrelated package): check the
    TOML against pixi's documented manifest keys instead."""
    import tomllib

    _spec(
        tmp_path,
        'name: demo\npython: "3.10"\ntorch: "2.1.0"\naccelerators: [cpu, cu118]\n'
        "managers: [conda]\nconda: {dependencies: [ffmpeg]}\n",
    )
    code, out, err = envgen("export", "pixi", cwd=tmp_path)
    assert code == 0, err
    data = tomllib.loads(out)
    assert data["workspace"]["platforms"] == ["linux-64"]
    assert data["dependencies"] == {"python": ">=3.10,<3.11"}
    assert data["environments"] == {"cpu": ["cpu"], "cu118": ["cu118"]}
    cu118 = data["feature"]["cu118"]
    assert cu118["system-requirements"] == {"cuda": "11.8"}
    assert cu118["channels"] == ["pytorch", "nvidia"]  # as published for 2.1.0
    assert data["workspace"]["channels"] == ["conda-forge"]
    assert cu118["dependencies"]["pytorch"] == "==2.1.0"
    assert cu118["dependencies"]["pytorch-cuda"] == "11.8.*"
    assert cu118["dependencies"]["ffmpeg"] == "*"
    assert data["feature"]["cpu"]["dependencies"]["cpuonly"] == "*"
    assert "system-requirements" not in data["feature"]["cpu"]


def test_export_pixi_spells_out_condas_defaults_alias(tmp_path: Path) -> None:
    """pixi has no `defaults` alias (it would ask conda.anaconda.org/defaults): conda's URLs."""
    import tomllib

    _spec(
        tmp_path,
        'name: demo\npython: "3.10"\ntorch: "2.1.0"\naccelerators: [cpu]\n'
        "managers: [conda]\nconda: {channels: [defaults, conda-forge]}\n",
    )
    code, out, err = envgen("export", "pixi", cwd=tmp_path)
    assert code == 0, err
    data = tomllib.loads(out)
    assert "defaults" not in out
    assert data["workspace"]["channels"] == [
        "https://repo.anaconda.com/pkgs/main",
        "https://repo.anaconda.com/pkgs/r",
        "conda-forge",
    ]
    assert data["feature"]["cpu"]["channels"] == [
        "pytorch",
        "https://repo.anaconda.com/pkgs/main",
        "https://repo.anaconda.com/pkgs/r",
        "conda-forge",
    ]


def test_upgrade_package_names_only_what_a_lock_pins(example: Path) -> None:
    """A misspelt --upgrade-package was accepted and did nothing; it is a usage error naming the
    nearest pinned package, before any resolver runs."""
    code, out, err = envgen("lock", "--variant", "cpu", "--upgrade-package", "filelok", cwd=example)
    assert (code, out) == (2, "")
    assert err == (
        "error: --upgrade-package: no lock of the chosen variants pins 'filelok' "
        "(did you mean 'filelock'?)\n"
        "  hint: name a package the lock pins (see requirements.txt)\n"
    )
