"""`envgen import` asks a PEP 691 index which python the pins have wheels for (issue 24 item 3).

The index is tests/data/recorded/pypi-simple (PyPI's file lists, trimmed) served on 127.0.0.1 as
ENVGEN_PYPI_INDEX; the real CLI runs in-process. Never the live registry.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from envgen.cli import main as envgen_main
from tests.support.server import IndexServer

pytestmark = pytest.mark.integration

PAGES = Path(__file__).parents[1] / "data" / "recorded" / "pypi-simple"


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def main(args: tuple[str, ...]) -> None:
    envgen_main(list(args))


def _local_pages(root: Path) -> Path:
    """The recorded pages with each file's URL cut to its file name: the recorded URLs are
    PyPI's (files.pythonhosted.org), which envgen.repro.through would ask for a wheel's core
    metadata; a name only is read as no URL, so the test never leaves 127.0.0.1."""
    for name in ("numpy", "requests", "scipy", "tqdm"):  # the pages these tests' files name
        page = PAGES / name / "index.json"
        if not page.is_file():
            continue
        data = json.loads(page.read_text(encoding="utf-8"))
        for item in data.get("files", []):
            item["url"] = item["filename"]
        out = root / page.parent.name / "index.json"
        out.parent.mkdir(parents=True)
        out.write_text(json.dumps(data), encoding="utf-8")
    return root


@pytest.fixture
def index(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[IndexServer]:
    with IndexServer(_local_pages(tmp_path / "pages")) as server:
        monkeypatch.setenv("ENVGEN_PYPI_INDEX", server.url + "/")
        monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache"))
        yield server


def _import(path: Path, *args: str) -> tuple[int, dict[str, object], str]:
    result = CliRunner().invoke(main, ["import", str(path), *args])
    project = yaml.safe_load(result.stdout) if result.exit_code == 0 else {}
    return result.exit_code, project, result.stderr


def test_python_is_the_newest_every_pin_has_a_wheel_for(index: IndexServer, tmp_path: Path) -> None:
    req = tmp_path / "requirements.txt"
    req.write_text("torch==1.7.1+cu110\nnumpy==1.19.2\nscipy==1.5.2\ntqdm==4.50.0\n")
    code, project, err = _import(req)
    assert code == 0, err
    assert project["python"] == "3.8"
    assert "(not python 3.9: numpy==1.19.2 has cp36, cp37, cp38 wheels" in err
    asked = sorted(r.path for r in index.requests)
    assert asked == ["/numpy/", "/scipy/", "/tqdm/"]
    # The answers are cached: a second import asks nothing.
    code, project, _ = _import(req)
    assert (code, project["python"]) == (0, "3.8")
    assert len(index.requests) == 3
    assert sorted(p.name for p in (tmp_path / "cache" / "pypi-simple").rglob("*.json")) == [
        "numpy.json", "scipy.json", "tqdm.json",
    ]  # fmt: skip


@pytest.mark.usefixtures("index")
def test_the_file_date_counts(tmp_path: Path) -> None:
    req = tmp_path / "requirements.txt"
    req.write_text("torch==1.7.1\nnumpy==1.19.5\n")
    code, project, err = _import(req, "--as-of", "2021-02-01")
    # numpy 1.19.5's cp39 wheels rule out no python: project.yaml names none, and the spec's
    # default python (3.8: a known issue names 3.9 for torch 1.7.x) is the lock's.
    assert (code, "python" in project) == (0, False), err
    assert "every exact pin (1 looked up) has a wheel for python 3.9" in err
    code, project, err = _import(req, "--as-of", "2020-12-20")
    assert code == 0, err
    assert "numpy==1.19.5: the index lists no file of that version uploaded by 2020-12-20" in err
    assert "python" not in project


def test_offline_and_unreachable_index(index: IndexServer, tmp_path: Path) -> None:
    req = tmp_path / "requirements.txt"
    req.write_text("torch==1.7.1\nnumpy==1.19.2\nnot-recorded==1.0\n")
    code, project, err = _import(req, "--offline")
    assert (code, "python" in project) == (0, False), err
    assert index.requests == []
    code, project, err = _import(req)
    assert code == 0, err
    assert project["python"] == "3.8"
    assert "not-recorded: the file list could not be read (GET " in err
    assert "pass --offline to choose no python from the index" in err


def test_the_pages_asked_are_those_of_the_named_packages_only(
    index: IndexServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    req = tmp_path / "requirements.txt"
    req.write_text("numpy==1.19.2\nrequests\n")
    code, _, err = _import(req)
    # No torch named: each named package's page is read once for the torch its Requires-Dist
    # brings in (envgen.repro.through); none does, so the file is refused.
    assert code == 11, err
    assert sorted(r.path for r in index.requests) == ["/numpy/", "/requests/"]
    index.clear_requests()
    # A python and torch named (a fresh cache): no page is read for the python; numpy's is read
    # once, for a torchvision or torchaudio its Requires-Dist could bring in beside the torch.
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(tmp_path / "cache-2"))
    env = tmp_path / "environment.yml"
    env.write_text(
        "dependencies:\n  - python=3.7\n  - pip:\n    - torch==1.7.1\n    - numpy==1.19.2\n"
    )
    code, project, err = _import(env)
    assert (code, project["python"]) == (0, "3.7"), err
    assert [r.path for r in index.requests] == ["/numpy/"]
    # All three named: nothing is asked at all.
    index.clear_requests()
    env.write_text(
        "dependencies:\n  - python=3.7\n  - pip:\n    - torch==1.7.1\n    - torchvision==0.8.2\n"
        "    - torchaudio==0.7.2\n    - scipy==1.5.2\n"
    )
    code, project, err = _import(env)
    assert (code, project["python"]) == (0, "3.7"), err
    assert index.requests == []
