"""Fuzz the lock checker through the real CLI: `envgen check` and `envgen check --pins-only`.

A project locked for real against the loopback index (behind basic auth, its credentials in
ENVGEN_* URLs), whose requirements.txt is then edited: pins, hashes, options, includes of a file
outside the project or /proc/self/environ, odd characters. Full locks are resealed (the body's
content hash recomputed, as an attacker who read the code would), so the check gets past the
hash to the parser and the comparison. Property: success or an EnvgenError (never another
exception), within the time and memory bounds, and no canary in any output or file.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Final

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from envgen.cli import main_inner
from envgen.errors import EnvgenError
from envgen.lock.lockfile import CONTENT_HASH_PREFIX
from envgen.lock.piplock import body_hash
from tests.fuzz.harness import (
    CANARY_INDEX,
    assert_no_canary,
    bounded,
    lines,
    long,
    plant_secrets,
    secret_environ,
    short,
)
from tests.support.fixtures import ServedIndex

pytestmark = pytest.mark.integration

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(tempfile.gettempdir()) / f"envgen-fuzz-lock-{os.getuid()}"
SECRET: Final = ROOT / "outside" / "secret.txt"
SPEC: Final = (
    'name: fz\npython: "3.11"\ntorch: "2.1.0"\n'
    'accelerators: [cpu]\nmanagers: [pip]\npip: ["numpy<2"]\n'
)

PIN: Final = st.builds(
    lambda name, version, digest, marker, split: (
        f"{name}=={version}{marker}" + (" \\\n    " if split else " ") + f"--hash=sha256:{digest}"
    ),
    st.sampled_from(["torch", "numpy", "six", "packaging", "evil", "torchvision"]),
    st.sampled_from(["2.1.0+cpu", "1.26.4", "1.17.0", "24.2", "0", "2.1.0+cu118", "x"]),
    st.sampled_from(["0" * 64, "f" * 63, "", "g" * 64]),
    st.sampled_from(["", "; python_version >= '3'", ' ; sys_platform == "linux"']),
    st.booleans(),
)
EDITS: Final = st.lists(
    st.tuples(
        st.sampled_from(["replace", "insert", "delete"]),
        st.integers(0, 80),
        st.one_of(PIN, lines(SECRET, max_lines=3).map("\n".join)),
    ),
    min_size=1,
    max_size=4,
)


def _edit(body: str, edits: list[tuple[str, int, str]]) -> str:
    rows = body.splitlines()
    for how, at, text in edits:
        i = at % (len(rows) + 1)
        if how == "insert" or i == len(rows):
            rows.insert(i, text)
        elif how == "replace":
            rows[i] = text
        else:
            del rows[i]
    return "\n".join(rows) + "\n"


def _reseal(text: str, body: str) -> str:
    """The header up to its content hash, with the hash of the new body (what `lock` writes)."""
    head: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith(f"# {CONTENT_HASH_PREFIX}"):
            head.append(f"# {CONTENT_HASH_PREFIX}{body_hash(body)}\n")
            break
        head.append(line)
    return "".join(head) + body


@pytest.fixture(scope="module")
def templates(pytorch_index_with_auth: ServedIndex) -> dict[str, Path]:
    """Two locked projects: `full` (hashed) and `pins` (pins-only), and the variables to use."""
    ROOT.mkdir(exist_ok=True)
    plant_secrets(ROOT)
    index = pytorch_index_with_auth
    found: dict[str, Path] = {}
    with pytest.MonkeyPatch.context() as mp:
        for key, value in environ(index).items():
            mp.setenv(key, value)
        for kind, extra in (("full", []), ("pins", ["--pins-only"])):
            proj = ROOT / f"template-{kind}"
            shutil.rmtree(proj, ignore_errors=True)
            proj.mkdir()
            (proj / "project.yaml").write_text(SPEC)
            main_inner(["lock", str(proj / "project.yaml"), *extra])
            found[kind] = proj
    return found


def environ(index: ServedIndex) -> dict[str, str]:
    env = secret_environ(index.pypi_url)
    env["ENVGEN_PYTORCH_INDEX"] = index.with_auth(index.root_url)
    env["ENVGEN_PYPI_INDEX"] = index.with_auth(index.pypi_url)
    env["ENVGEN_MATRIX"] = str(MINI)
    env["ENVGEN_CACHE_DIR"] = str(ROOT / "cache")
    return env


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch, pytorch_index_with_auth: ServedIndex) -> None:
    for key, value in environ(pytorch_index_with_auth).items():
        monkeypatch.setenv(key, value)


def check_lock(
    kind: str,
    edits: list[tuple[str, int, str]],
    templates: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    with tempfile.TemporaryDirectory(dir=ROOT) as work:
        plant_secrets(Path(work))
        proj = Path(work) / "proj"
        shutil.copytree(templates[kind], proj)
        lock = proj / "environments" / "cpu" / "requirements.txt"
        text = lock.read_text(encoding="utf-8")
        if kind == "full":
            body = text.split(f"# {CONTENT_HASH_PREFIX}", 1)[1].split("\n", 1)[1]
            lock.write_text(_reseal(text, _edit(body, edits)), encoding="utf-8")
        else:
            lock.write_text(_edit(text, edits), encoding="utf-8", errors="surrogatepass")
        args = ["check", str(proj / "project.yaml")] + (["--pins-only"] if kind == "pins" else [])
        outputs: list[str] = []
        with bounded(60):
            try:
                main_inner(args)
            except (EnvgenError, click.ClickException) as exc:
                outputs.append(str(exc))
        out, err = capsys.readouterr()
        outputs += [out, err]
        assert_no_canary(*outputs, files=proj)
        assert all(CANARY_INDEX not in o for o in outputs)


CASES: Final = st.tuples(st.sampled_from(["full", "pins"]), EDITS)


@pytest.mark.usefixtures("secrets")
@short(8)
@given(case=CASES)
def test_check_never_crashes_or_leaks(
    case: tuple[str, list[tuple[str, int, str]]],
    templates: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    check_lock(*case, templates, capsys)


@pytest.mark.fuzzlong
@pytest.mark.usefixtures("secrets")
@long()
@given(case=CASES)
def test_check_never_crashes_or_leaks_long(
    case: tuple[str, list[tuple[str, int, str]]],
    templates: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    check_lock(*case, templates, capsys)
