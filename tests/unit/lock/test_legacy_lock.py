"""envgen.lock.legacy without processes: the pins written from the files pip 20.3.4 downloaded,
the environment it runs in, and which smoke script a 2.7 / 3.5 environment gets. The real
route (pip 20.3.4 under CPython 2.7, PyPI) is tests/integration/test_python27.py."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from typing import Final

import pytest
from packaging.version import Version

from envgen.errors import LockError, RenderError
from envgen.lock.legacy import (
    PIP_WHEEL,
    build_tool_pins,
    is_legacy,
    is_rattler_error,
    pins_from_files,
    pip_environment,
    previous_pins,
)
from envgen.lock.locker import LockRequest
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.dockerfile import plan_dockerfiles
from envgen.render.export import render_uv
from envgen.render.indexes import IndexUrls
from envgen.smoke.report import legacy_python


def _file(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def test_pins_name_every_downloaded_file_with_its_sha256(tmp_path: Path) -> None:
    files = [
        _file(tmp_path, "torch-1.0.1-cp27-cp27mu-manylinux1_x86_64.whl", b"t"),
        _file(tmp_path, "Pillow-6.2.2-cp27-cp27mu-manylinux1_x86_64.whl", b"p"),
        _file(tmp_path, "typing-3.10.0.0.tar.gz", b"s"),
    ]
    sha = {k: hashlib.sha256(k).hexdigest() for k in (b"t", b"p", b"s")}
    assert pins_from_files(files) == [
        "pillow==6.2.2 \\",
        f"    --hash=sha256:{sha[b'p']}",
        "torch==1.0.1 \\",
        f"    --hash=sha256:{sha[b't']}",
        "typing==3.10.0.0 \\",
        f"    --hash=sha256:{sha[b's']}",
    ]
    url = "https://download.pytorch.org/whl/cpu/torch-1.0.1-cp27-cp27mu-linux_x86_64.whl"
    assert pins_from_files(files[:1], {"torch": url})[0] == f"torch @ {url} \\"


def test_a_file_that_is_no_distribution_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(LockError, match=r"downloaded notes\.txt, which is neither a wheel"):
        pins_from_files([_file(tmp_path, "notes.txt", b"")])


def test_pip_runs_from_its_wheel_without_the_machines_pip_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "https://elsewhere.example/simple")
    monkeypatch.setenv("PYTHONHOME", "/nowhere")
    env = pip_environment(tmp_path / PIP_WHEEL)
    assert env["PYTHONPATH"] == str(tmp_path / PIP_WHEEL)
    assert env["PIP_CONFIG_FILE"] == "/dev/null"
    assert "PIP_INDEX_URL" not in env
    assert "PYTHONHOME" not in env
    assert (is_legacy("2.7"), is_legacy("3.5"), is_legacy("3.6")) == (True, True, False)


def test_a_2_7_environment_gets_the_twin_smoke_script(tmp_path: Path) -> None:
    (tmp_path / "py27" / "lib" / "python2.7").mkdir(parents=True)
    (tmp_path / "py311" / "lib" / "python3.11").mkdir(parents=True)
    assert legacy_python(tmp_path / "py27" / "bin" / "python")
    assert not legacy_python(tmp_path / "py311" / "bin" / "python")


RECORDED: Final = Path(__file__).parents[2] / "data" / "recorded" / "pypi" / "torch.json"


def test_the_rows_list_2_7_and_3_5_exactly_where_pypi_has_their_linux_wheels() -> None:
    """releases.yaml's pythons, for 2.7 and 3.5, against the recorded PyPI file list (PEP 691):
    torch 1.0.0-1.4.0 have cp27mu Linux wheels, 1.0.0-1.5.1 cp35m ones."""
    files = {f["filename"] for f in json.loads(RECORDED.read_text(encoding="utf-8"))["files"]}
    on_pypi = {
        (r.torch, py)
        for r in load_matrix().releases
        for py, tag in (("2.7", "cp27-cp27mu"), ("3.5", "cp35-cp35m"))
        if f"torch-{r.torch}-{tag}-manylinux1_x86_64.whl" in files
    }
    listed = {
        (r.torch, py)
        for r in load_matrix().releases
        for py in r.python
        if py in ("2.7", "3.5") and r.version >= Version("1.0")
    }
    # releases.yaml's pythons are all platforms together: 1.5.0's only cp27 wheel is macOS's
    # (torch-1.5.0-cp27-none-macosx_10_7_x86_64.whl), so Linux 2.7 ends with 1.4.0.
    assert listed - on_pypi == {("1.5.0", "2.7")}
    assert "torch-1.5.0-cp27-none-macosx_10_7_x86_64.whl" in files
    assert on_pypi <= listed
    assert max(Version(t) for t, py in on_pypi if py == "2.7") == Version("1.4.0")
    assert max(Version(t) for t, py in on_pypi if py == "3.5") == Version("1.5.1")


def test_the_previous_pins_keep_a_relock_put_except_what_is_upgraded(tmp_path: Path) -> None:
    previous = (
        "--extra-index-url https://download.pytorch.org/whl/cu90\n\nnumpy==1.16.6 \\\n"
        "    --hash=sha256:00\nsix==1.16.0 \\\n    --hash=sha256:11\n"
        "torch @ https://download.pytorch.org/whl/cu90/torch-1.0.1-cp27-cp27mu-linux_x86_64.whl"
        " \\\n    --hash=sha256:22\n"
    )
    request = LockRequest(
        variant=_variant(), urls=IndexUrls(), written_urls=IndexUrls(), conda_channels={},
        exclude_newer=None, resolver="uv", upgrade=False, upgrade_packages=("Six",),
        previous={"requirements.txt": previous}, workdir=tmp_path, cache_dir=None,
    )  # fmt: skip
    assert previous_pins(request) == ["numpy==1.16.6"]
    assert previous_pins(dataclasses.replace(request, upgrade_packages=())) == [
        "numpy==1.16.6",
        "six==1.16.0",
    ]
    assert previous_pins(dataclasses.replace(request, upgrade=True)) == []


def _variant() -> Variant:
    spec = parse_spec(
        'name: p\npython: "2.7"\ntorch: "1.0.1"\naccelerators: [cu90]\nmanagers: [pip]\n',
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix()).variants
    return variant


def test_no_dockerfile_is_written_for_a_python_2_7_variant(tmp_path: Path) -> None:
    spec = parse_spec(
        'name: p\npython: "2.7"\ntorch: "1.0.1"\naccelerators: [cu90]\nmanagers: [pip]\n',
        path=tmp_path / "project.yaml",
    )
    files, warnings = plan_dockerfiles(spec, load_matrix(), out=tmp_path / "docker")
    assert [str(f.relpath) for f in files] == ["_smoke_check.py"]
    assert warnings == [
        "cu90: no Dockerfile for python 2.7 (uv cannot install it); build it with "
        "`envgen build project.yaml --variant cu90`"
    ]


@pytest.mark.parametrize(
    ("python", "pip", "warned"),
    [("2.7", "", True), ("2.7", 'pip: ["typing"]\n', False), ("3.7", "", False)],
)
def test_torch_1_0_1_on_python_2_7_warns_until_typing_is_named(
    python: str, pip: str, warned: bool
) -> None:
    """known-issues.yaml's python-only row (pytorch/pytorch#16775), silenced by naming typing."""
    spec = parse_spec(
        f'name: p\npython: "{python}"\ntorch: "1.0.1"\naccelerators: [cu90]\nmanagers: [pip]\n'
        + pip,
        path=Path("project.yaml"),
    )
    (variant,) = expand(spec, load_matrix()).variants
    found = [w for w in variant.warnings if w.startswith("[torch-1.0.1-python2-needs-typing]")]
    assert bool(found) is warned


def test_a_uv_export_of_python_2_7_is_refused_with_the_route_that_works(tmp_path: Path) -> None:
    spec = parse_spec(
        'name: p\npython: ["2.7", "3.7"]\ntorch: "1.0.1"\naccelerators: [cu90]\nmanagers: [pip]\n',
        path=tmp_path / "project.yaml",
    )
    with pytest.raises(RenderError) as info:
        render_uv(spec, load_matrix(), IndexUrls())
    assert (info.value.message, info.value.hint) == (
        "project.yaml: python: uv cannot target python 2.7, so `uv lock` cannot lock this export",
        "lock these pythons with `envgen lock` (pip 20.3.4)",
    )


def test_an_unreachable_conda_forge_is_reported_not_taken_for_a_bug(tmp_path: Path) -> None:
    """py-rattler's errors live in a module named `exceptions`, not `rattler`: the check that
    turns a failed python install into a clear error (hint: put python2.7 on PATH) let a
    GatewayError through as "internal error (a bug in envgen)" (the papers suite,
    pytorch-dense-correspondence on python 2.7). A real failed solve, on a channel that is not
    there (a local path: no network)."""
    import asyncio

    import rattler

    missing = (tmp_path / "no-channel").as_uri()
    with pytest.raises(Exception) as info:  # noqa: PT011 - rattler's own class is the point
        asyncio.run(
            rattler.solve(
                sources=[missing],
                specs=["python 2.7.*"],
                platforms=["linux-64", "noarch"],
                gateway=rattler.Gateway(cache_dir=tmp_path / "cache"),
            )
        )
    assert type(info.value).__module__ == "exceptions"
    assert is_rattler_error(info.value)
    assert not is_rattler_error(ValueError("not rattler's"))


def test_the_build_tools_of_a_legacy_lock_are_picked_out_to_install_first() -> None:
    """pip 20.3.4 runs an sdist's setup.py in the environment (future 1.0.0 on python 2.7:
    "No module named setuptools" on conda-forge's python): the lock's setuptools and wheel lines,
    hashes included, go in first."""
    body = (
        "future==1.0.0 \\\n    --hash=sha256:aa\n"
        "setuptools==44.1.1 \\\n    --hash=sha256:bb\n"
        "six==1.16.0 \\\n    --hash=sha256:cc\n"
        "Wheel==0.37.1 \\\n    --hash=sha256:dd\n"
    )
    assert build_tool_pins(body) == (
        "setuptools==44.1.1 \\\n    --hash=sha256:bb\nWheel==0.37.1 \\\n    --hash=sha256:dd\n"
    )
    assert build_tool_pins("six==1.16.0 \\\n    --hash=sha256:cc\n") == ""
