"""Mechanisms behind the papers suite's failures (docs/papers.md, issue 29) that need a real
process or a local index: a native crash in the smoke interpreter, uv refusing a pin or a project
the index does not have, a conda pin carried to pip without a wheel for its python."""

from __future__ import annotations

import datetime as dt
import json
import signal
import subprocess  # noqa: TID251 - a real interpreter crashes
import sys
from pathlib import Path

import pytest

from envgen.lock.nearest import missing_pins, nearest_hint
from envgen.lock.pip import pin_conflict
from envgen.model.pypi_names import missing_projects, suggest_hint
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from envgen.smoke.report import parse_report
from tests.support.server import IndexServer
from tests.support.wheels import make_wheel


def test_a_crash_in_native_code_names_its_python_frames(tmp_path: Path) -> None:
    """The smoke interpreter runs with -X faulthandler: a real SIGSEGV (ctypes reading address
    0, as a crashing extension does) is reported with the error and the frames it happened in,
    not only "killed by SIGSEGV" (the papers suite's gated-prompt-tuning)."""
    script = tmp_path / "crash.py"
    script.write_text(
        "import ctypes\n\ndef load_extension():\n    ctypes.string_at(0)\n\nload_extension()\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-I", "-X", "faulthandler", str(script)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == -signal.SIGSEGV
    (check,) = parse_report(done.stdout, done.returncode, done.stderr).checks
    first = check.detail.splitlines()[0]
    assert first.startswith(
        "the interpreter was killed by SIGSEGV; Fatal Python error: Segmentation fault; in "
        "string_at ("
    )
    assert f"< load_extension ({script}:4) < <module> ({script}:6)" in first


def _project_page(root: Path, name: str, files: list[str]) -> None:
    page = root / "simple" / name
    page.mkdir(parents=True)
    entries = [{"filename": f, "url": f"../../files/{f}", "hashes": {}} for f in files]
    data = {"meta": {"api-version": "1.0"}, "name": name, "files": entries}
    (page / "index.json").write_text(json.dumps(data), encoding="utf-8")
    anchors = "".join(f'<a href="../../files/{f}">{f}</a>\n' for f in files)
    (page / "index.html").write_text(f"<html><body>\n{anchors}</body></html>\n", encoding="utf-8")


def test_a_deleted_pin_gets_the_nearest_published_version(tmp_path: Path) -> None:
    """tb-nightly keeps only some nightlies on PyPI (dreamer-pytorch pins 2.3.0a20200620, gone):
    the real uv's refusal is read and the index's own page gives the nearest versions, the one
    before proposed."""
    names = ("2.3.0a20200601", "2.3.0a20200715", "2.2.0a20200401")
    files = [f"tb_nightly-{v}-py3-none-any.whl" for v in names]
    _project_page(tmp_path, "tb-nightly", [*files, "tb_nightly-2.3.0a20200610-py3-none-any.whl"])
    # a yanked file does not count
    page = tmp_path / "simple" / "tb-nightly" / "index.json"
    data = json.loads(page.read_text(encoding="utf-8"))
    data["files"][-1]["yanked"] = True
    page.write_text(json.dumps(data), encoding="utf-8")
    req = tmp_path / "requirements.in"
    req.write_text("tb-nightly==2.3.0a20200620\n", encoding="utf-8")
    with IndexServer(tmp_path) as server:
        index = f"{server.url}/simple"
        done = subprocess.run(
            [str(Path(sys.executable).with_name("uv")), "pip", "compile", "--no-config",
             "--index-url", index, "--python-version", "3.11", "--no-cache", "--quiet", str(req)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode != 0
        assert missing_pins(done.stderr) == [("tb-nightly", "2.3.0a20200620")]
        hint = nearest_hint(done.stderr, index)
    assert hint == (
        f"tb-nightly 2.3.0a20200620 is not on {index} (deleted, or never published); the "
        "nearest there: 2.3.0a20200601 (before), 2.3.0a20200715 (after): replace "
        "tb-nightly==2.3.0a20200620 with tb-nightly==2.3.0a20200601"
    )
    # an index that does not answer gives no hint (and no error)
    assert nearest_hint(done.stderr, index, timeout=2) is None


def test_the_nearest_hint_names_no_credentials_and_leaves_torch_alone(tmp_path: Path) -> None:
    """A mirror's token never reaches the hint; torch's labelled pins come from the PyTorch
    index and the matrix, so no PyPI neighbour is proposed for them."""
    _project_page(tmp_path, "tb-nightly", ["tb_nightly-2.3.0a20200601-py3-none-any.whl"])
    said = "there is no version of tb-nightly==2.3.0a20200620 and torch==2.1.0+cu999"
    with IndexServer(tmp_path, auth=("envgen", "CANARY-TOKEN-1234")) as server:
        hint = nearest_hint(said, server.url_with_auth("/simple"))
        assert nearest_hint("there is no version of torch==2.1.0+cu999", server.url) is None
    assert hint is not None
    assert "CANARY-TOKEN-1234" not in hint
    assert hint.endswith("replace tb-nightly==2.3.0a20200620 with tb-nightly==2.3.0a20200601")


def test_a_project_the_index_does_not_have_gets_the_nearest_name(tmp_path: Path) -> None:
    """`pip install genism` (the papers suite's triplet-embedding): the real uv's refusal names
    the project it did not find, and the hint proposes the nearest popular name, not applied."""
    _project_page(tmp_path, "gensim", ["gensim-4.2.0-py3-none-any.whl"])
    req = tmp_path / "requirements.in"
    req.write_text("genism\n", encoding="utf-8")
    with IndexServer(tmp_path) as server:
        index = f"{server.url}/simple"
        done = subprocess.run(
            [str(Path(sys.executable).with_name("uv")), "pip", "compile", "--no-config",
             "--index-url", index, "--python-version", "3.11", "--no-cache", "--quiet", str(req)],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert done.returncode != 0
    assert missing_projects(done.stderr) == ["genism"]
    assert suggest_hint(done.stderr, index) == (
        f"genism is not a project on {index}; did you mean gensim? (the nearest of the most "
        "downloaded PyPI projects, matrices/pypi-top-names.txt; not applied: check that it is "
        "the package the paper meant, a near name can be a typosquat)"
    )


def test_import_carries_a_conda_pin_to_the_nearest_release_with_a_wheel(tmp_path: Path) -> None:
    """A conda file for python 3.10 pins conda-forge's pyfftw 0.12.0 (the papers suite's cddip);
    carried to pip, PyPI's 0.12.0 has wheels only up to cp38, so `envgen import` asks the index
    and carries the nearest release with a cp310 wheel, saying so; with --offline it cannot ask
    and keeps the pin."""
    _project_page(
        tmp_path,
        "pyfftw",
        [
            "pyFFTW-0.12.0-cp38-cp38-manylinux1_x86_64.whl",
            "pyFFTW-0.12.0.tar.gz",
            "pyFFTW-0.13.0-cp310-cp310-manylinux_2_12_x86_64.manylinux2010_x86_64.whl",
        ],
    )
    _project_page(tmp_path, "six", ["six-1.16.0-py2.py3-none-any.whl"])
    env = tmp_path / "environment.yml"
    env.write_text(
        "name: paper\nchannels: [conda-forge]\ndependencies:\n  - python=3.10\n"
        "  - pyfftw=0.12.0=py310h0885ff1_3\n  - six=1.16.0\n  - pip\n  - pip:\n"
        "    - torch==2.0.1\n",
        encoding="utf-8",
    )
    with IndexServer(tmp_path) as server:
        options = ImportOptions(
            source=env, pypi_index=f"{server.url}/simple", cache_root=tmp_path / "cache"
        )
        result = run_import(options)
    assert result.project["python"] == "3.10"
    assert result.project["pip"] == ["pyfftw==0.13.0", "six==1.16.0.*"]
    assert (
        "environment.yml: carried from conda: pyfftw==0.12.0.*: the conda pin named a binary "
        "build, and PyPI has no wheel of it for python 3.10 on linux-64 (cp38 wheels), so pip "
        "would build the sdist; carried as pyfftw==0.13.0, the nearest release with one (same "
        "major.minor first, then the nearest newer)"
    ) in "\n".join(result.warnings)
    offline = run_import(ImportOptions(source=env))
    assert offline.project["pip"] == ["pyfftw==0.12.0.*", "six==1.16.0.*"]


def test_a_project_the_index_lost_gets_drop_or_serve(tmp_path: Path) -> None:
    """fcn-instances-pytorch's pip freeze of 2019 pins env-file and values, deleted from PyPI
    since, and direnv 2019.4.13, still there, which requires env-file: the real uv's refusals name
    the missing project and who needs it, and the hint proposes dropping the pin (or serving the
    project from a mirror), never a near name (values is two edits from valkey)."""
    files = tmp_path / "files"
    files.mkdir()
    direnv = make_wheel(files, "direnv", "2019.4.13", requires_dist=["env_file", "public"])
    public = make_wheel(files, "public", "2019.4.13")
    _project_page(tmp_path, "direnv", [direnv.name])
    _project_page(tmp_path, "public", [public.name])
    _project_page(tmp_path, "valkey", [make_wheel(files, "valkey", "6.0.0").name])
    serve = "from a mirror that has it (pypi_index / ENVGEN_PYPI_INDEX, see docs/how-to/use-a-mirror.md)"
    said = {}
    with IndexServer(tmp_path) as server:
        index = f"{server.url}/simple"
        for pin in ("values==2019.4.13", "direnv==2019.4.13"):
            req = tmp_path / "requirements.in"
            req.write_text(f"{pin}\n", encoding="utf-8")
            done = subprocess.run(
                [str(Path(sys.executable).with_name("uv")), "pip", "compile", "--no-config",
                 "--index-url", index, "--python-version", "3.11", "--no-cache", "--quiet",
                 str(req)],
                capture_output=True, text=True, timeout=120, check=False,
            )  # fmt: skip
            assert done.returncode != 0
            said[pin] = done.stderr
    assert suggest_hint(said["values==2019.4.13"], index) == (
        f"values is not a project on {index}, yet the file pins values==2019.4.13, a release its "
        "environment had, so the project no longer exists there (deleted by its owner) or came "
        f"from elsewhere: drop values from pip: if the code does not import it, or serve it {serve}"
    )
    assert suggest_hint(said["direnv==2019.4.13"], index) == (
        f"direnv depends on env-file, which is not a project on {index} any more (a direnv "
        "release was published there requiring it, so env-file was deleted since): drop direnv from "
        f"pip: if the code does not import it, or serve env-file {serve}"
    )


def _dated_page(root: Path, name: str, files: dict[str, str]) -> None:
    """A PEP 691 page whose files carry upload times (filename -> ISO time)."""
    _project_page(root, name, list(files))
    page = root / "simple" / name / "index.json"
    data = json.loads(page.read_text(encoding="utf-8"))
    for entry in data["files"]:
        entry["upload-time"] = files[entry["filename"]]
    page.write_text(json.dumps(data), encoding="utf-8")


def test_a_lock_date_counts_only_releases_uploaded_before_it(tmp_path: Path) -> None:
    """fcn-instances-pytorch's freeze of 2019 (--as-of 2019-10-30) pins ortools 7.0.6546 and
    fvcore 0.1: PyPI's oldest ortools is of 2021 and fvcore's of 2019-12-30, so no replacement
    exists before the date and the hint says so (drop the pin, or a later date); a pin the index
    has, uploaded after the date, is not called deleted; a release before the date is proposed."""
    _dated_page(tmp_path, "ortools", {
        "ortools-8.2.8710-cp37-cp37m-manylinux1_x86_64.whl": "2021-03-04T10:12:53Z",
        "ortools-9.0.9048-cp37-cp37m-manylinux1_x86_64.whl": "2021-05-05T10:00:00Z",
    })  # fmt: skip
    _dated_page(tmp_path, "fvcore", {
        "fvcore-0.1.dev191230.tar.gz": "2019-12-30T00:05:00Z",
        "fvcore-0.1.dev200502.tar.gz": "2020-05-02T00:06:00Z",
    })  # fmt: skip
    _dated_page(tmp_path, "tb-nightly", {
        "tb_nightly-2.1.0a20191001-py3-none-any.whl": "2019-10-01T00:00:00Z",
        "tb_nightly-2.3.0a20200601-py3-none-any.whl": "2020-06-01T00:00:00Z",
    })  # fmt: skip
    day = dt.date(2019, 10, 30)
    with IndexServer(tmp_path) as server:
        index = f"{server.url}/simple"
        said = {
            pin: nearest_hint(f"Because there is no version of {pin} and you require", index,
                              before=day)
            for pin in ("ortools==7.0.6546", "fvcore==0.1.dev200502", "tb-nightly==2.3.0a20200620")
        }  # fmt: skip
        undated = nearest_hint("there is no version of fvcore==0.1.dev200502", index)
    later = "move lock.exclude_newer (--as-of) past the release it needs"
    assert said["ortools==7.0.6546"] == (
        f"ortools 7.0.6546 is not on {index} (deleted, or never published), and no release of "
        "ortools there predates that date (the oldest: 8.2.8710, uploaded 2021-03-04): drop "
        f"ortools from pip: if the code does not import it, or {later}"
    )
    assert said["fvcore==0.1.dev200502"] == (
        f"fvcore 0.1.dev200502 is on {index}, uploaded 2020-05-02, after the lock's date "
        "(exclude_newer 2019-10-30), and no release of fvcore there predates that date (the "
        f"oldest: 0.1.dev191230, uploaded 2019-12-30): drop fvcore from pip: if the code does "
        f"not import it, or {later}"
    )
    assert said["tb-nightly==2.3.0a20200620"] == (
        f"tb-nightly 2.3.0a20200620 is not on {index} (deleted, or never published); the nearest "
        "there before 2019-10-30: 2.1.0a20191001 (before): replace tb-nightly==2.3.0a20200620 "
        "with tb-nightly==2.1.0a20191001"
    )
    assert undated is None  # no date, and the index has it: nothing to say


@pytest.mark.slow  # real uv resolutions that fail and are read (~19 s): make test-slow
def test_a_pin_that_needs_another_torch_is_read_from_uvs_words(tmp_path: Path) -> None:
    """online-dt pins stable-baselines3==1.6.2 (torch>=1.11) with torch==1.8.1: the real uv's
    derivation names the pin and its torch requirement (envgen.lock.pip.pin_conflict), and the
    same resolution with the pin relaxed to `<1.6.2` takes the newest release the other pins
    allow (1.4.0: 1.5.0 needs gym==0.21), the release envgen's hint proposes."""
    files = tmp_path / "files"
    files.mkdir()
    wheels = {
        "torch": [make_wheel(files, "torch", "1.8.1"), make_wheel(files, "torch", "1.11.0")],
        "gym": [make_wheel(files, "gym", "0.17.3"), make_wheel(files, "gym", "0.21.0")],
        "stable-baselines3": [
            make_wheel(files, "stable_baselines3", v, requires_dist=[f"torch{t}", f"gym{g}"])
            for v, t, g in (
                ("1.4.0", ">=1.8.1", ">=0.17,<0.20"),
                ("1.5.0", ">=1.8.1", "==0.21"),
                ("1.6.2", ">=1.11", "==0.21"),
            )
        ],
    }
    for name, built in wheels.items():
        _project_page(tmp_path, name, [w.name for w in built])
    pins = ["stable-baselines3==1.6.2", "gym==0.17.3", "torch==1.8.1"]
    uv = str(Path(sys.executable).with_name("uv"))
    with IndexServer(tmp_path) as server:
        index = f"{server.url}/simple"

        def compile_(lines: list[str]) -> subprocess.CompletedProcess[str]:
            req = tmp_path / "requirements.in"
            req.write_text("".join(f"{ln}\n" for ln in lines), encoding="utf-8")
            return subprocess.run(
                [uv, "pip", "compile", "--no-config", "--index-url", index, "--python-version",
                 "3.8", "--no-cache", "--quiet", str(req)],
                capture_output=True, text=True, timeout=120, check=False,
            )  # fmt: skip

        failed = compile_(pins)
        relaxed = compile_(["stable-baselines3<1.6.2", *pins[1:]])
    assert failed.returncode != 0
    # uv names one of the two conflicts (here gym's): either is the pin's
    assert pin_conflict(failed.stderr, pins) in {
        ("stable-baselines3", "1.6.2", "torch>=1.11"),
        ("stable-baselines3", "1.6.2", "gym==0.21"),
    }
    assert pin_conflict(failed.stderr, ["stable-baselines3>=1", *pins[1:]]) is None
    assert relaxed.returncode == 0, relaxed.stderr
    assert "stable-baselines3==1.4.0" in relaxed.stdout
