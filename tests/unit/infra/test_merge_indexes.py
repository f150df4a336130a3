"""envgen.infra.mirror.merge_indexes and scripts/merge_indexes.py: local indexes as one."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from envgen.infra.mirror import merge_indexes

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import merge_indexes as script  # noqa: E402


def _index(root: Path, files: dict[str, list[str]], extra: str = "") -> Path:
    """A PEP 503 index laid out as /opt/pypi is: simple/<project>/ pages, ../../files/ hrefs."""
    (root / "files").mkdir(parents=True)
    for project, names in files.items():
        folder = root / "simple" / project
        folder.mkdir(parents=True)
        links = []
        for name in names:
            (root / "files" / name).write_bytes(name.encode())
            digest = hashlib.sha256(name.encode()).hexdigest()
            links.append(f'<a href="../../files/{name}#sha256={digest}"{extra}>{name}</a>')
        (folder / "index.html").write_text("<html><body>" + "\n".join(links) + "</body></html>")
    return root / "simple"


def test_projects_and_files_are_merged_with_absolute_links(tmp_path: Path) -> None:
    more = _index(
        tmp_path / "more",
        {
            "torch": ["torch-2.14.1-cp311-cp311-manylinux_2_28_x86_64.whl"],
            "numpy": ["numpy-1.26.0-cp311-cp311-linux_x86_64.whl"],
        },
        extra=' data-requires-python="&gt;=3.10"',
    )
    base = _index(
        tmp_path / "base",
        {
            "numpy": [
                "numpy-1.26.0-cp311-cp311-linux_x86_64.whl",
                "numpy-2.4.6-cp311-cp311-linux_x86_64.whl",
            ],
            "Jinja2": ["jinja2-3.1.6-py3-none-any.whl"],
        },
    )
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "cuda_bindings-13.4.3-cp311-cp311-linux_x86_64.whl").write_bytes(b"w")
    out = tmp_path / "merged"
    assert merge_indexes([more, base, flat], out) == {
        "cuda-bindings": 1,
        "jinja2": 1,
        "numpy": 2,
        "torch": 1,
    }
    numpy = (out / "numpy" / "index.html").read_text()
    first = (tmp_path / "more" / "files" / "numpy-1.26.0-cp311-cp311-linux_x86_64.whl").as_uri()
    assert f'href="{first}#sha256=' in numpy  # the first source naming a file wins
    assert numpy.count("numpy-1.26.0") == 2  # one link: href and text
    assert 'data-requires-python="&gt;=3.10"' in numpy
    assert (tmp_path / "base" / "files").as_uri() + "/numpy-2.4.6" in numpy
    bindings = (out / "cuda-bindings" / "index.html").read_text()
    assert hashlib.sha256(b"w").hexdigest() in bindings
    assert '<a href="jinja2/">jinja2</a>' in (out / "index.html").read_text()


def test_the_script_fetches_only_what_no_source_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _index(tmp_path / "base", {"torch": ["torch-2.14.1-cp311-cp311-linux_x86_64.whl"]})
    fetched: list[str] = []

    def fake_fetch(requirement: str, into: Path, _args: object) -> None:
        fetched.append(requirement)
        into.mkdir(parents=True, exist_ok=True)
        (into / "cuda_bindings-13.4.3-cp311-cp311-linux_x86_64.whl").write_bytes(b"w")

    monkeypatch.setattr(script, "fetch", fake_fetch)
    out = tmp_path / "merged"
    args = [str(out), str(base), "--fetch", "cuda-bindings==13.4.3", "--fetch", "torch==2.14.1"]
    assert script.main(args) == 0
    assert fetched == ["cuda-bindings==13.4.3"]
    assert (out / "cuda-bindings" / "index.html").is_file()
    # A second run finds the fetched wheel: no download.
    assert script.main(args) == 0
    assert fetched == ["cuda-bindings==13.4.3"]


def test_the_script_refuses_a_missing_source(tmp_path: Path) -> None:
    assert script.main([str(tmp_path / "out"), str(tmp_path / "nope")]) == 2
