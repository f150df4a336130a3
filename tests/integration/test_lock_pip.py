"""PipLocker with the real uv and pip-compile against the loopback PyTorch-like indexes.

Every test talks to 127.0.0.1 only: the environment routes anything else to a dead proxy.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import os
import re
import subprocess  # noqa: TID251 - the install test drives the real pip directly
import sys
from pathlib import Path

import pytest

from envgen.errors import LockError
from envgen.lock.locker import LockRequest
from envgen.lock.pip import PipLocker
from envgen.lock.piplock import PipLock
from envgen.model.matrix import PipBuild, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls
from tests.support.fixtures import AUTH_TOKEN, ServedIndex

pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("tool_environ")]

MINI = Path(__file__).parents[1] / "data" / "matrix-mini"
HASH_RE = re.compile(r"--hash=sha256:([0-9a-f]{64})")


def variants(text: str) -> dict[str, Variant]:
    spec = parse_spec("name: demo\n" + text, path=Path("project.yaml"))
    return {v.id: v for v in expand(spec, load_matrix(MINI)).variants}


def v210(accelerator: str = "cpu", extra: str = "[numpy]") -> Variant:
    found = variants(
        f'python: "3.11"\ntorch: "2.1.0"\naccelerators: [{accelerator}]\n'
        f"managers: [pip]\npip: {extra}\n"
    )
    return found[accelerator]


def with_build(variant: Variant, **changes: object) -> Variant:
    assert variant.pip is not None
    build = variant.pip.model_copy(update=changes)
    assert isinstance(build, PipBuild)
    return dataclasses.replace(variant, pip=build)


def request_for(
    variant: Variant,
    index: ServedIndex,
    tmp_path: Path,
    *,
    name: str = "work",
    written: IndexUrls | None = None,
    urls: IndexUrls | None = None,
    exclude_newer: dt.date | None = None,
    upgrade_packages: tuple[str, ...] = (),
    previous: dict[str, str] | None = None,
) -> LockRequest:
    workdir = tmp_path / name
    workdir.mkdir()
    return LockRequest(
        variant=variant,
        urls=urls or IndexUrls(pytorch_root=index.root_url, pypi=index.pypi_url),
        written_urls=written or IndexUrls(),
        conda_channels={},
        exclude_newer=exclude_newer,
        resolver="uv",
        upgrade=False,
        upgrade_packages=upgrade_packages,
        previous=previous or {},
        workdir=workdir,
        cache_dir=tmp_path / "cache",
    )


def lock_body(request: LockRequest, resolver: str = "uv") -> str:
    (locked,) = PipLocker(resolver=resolver).lock(request)
    assert locked.name == "requirements.txt"
    return locked.body


def hashes_of(index: ServedIndex, where: str, project: str, version: str) -> set[str]:
    return {f.sha256 for f in index.files_for(where, project) if f.version == version}


def body_hashes(body: str, name: str) -> set[str]:
    """The hashes pinned for one project in a lock body."""
    block = re.search(
        rf"^{re.escape(name)}==\S+ \\\n((?:    --hash=\S+(?: \\)?\n)+)", body, re.MULTILINE
    )
    assert block is not None, f"{name} not pinned in:\n{body}"
    return set(HASH_RE.findall(block.group(1)))


OFFICIAL_CU118_HEAD = (
    "--index-url https://download.pytorch.org/whl/cu118\n"
    "--extra-index-url https://pypi.org/simple\n"
    "\n"
)


@pytest.mark.parametrize("accelerator", ["cpu", "cu118", "cu121"])
def test_lock_each_accelerator_from_its_index(
    accelerator: str, pytorch_index: ServedIndex, tmp_path: Path
) -> None:
    body = lock_body(request_for(v210(accelerator), pytorch_index, tmp_path))
    head = OFFICIAL_CU118_HEAD.replace("cu118", accelerator)
    assert body.startswith(head)
    pins = PipLock.parse(body).versions()
    expected = {
        "filelock": "3.13.1",
        "numpy": "2.0.0",
        "torch": f"2.1.0+{accelerator}",
        "torchaudio": f"2.1.0+{accelerator}",
        "torchvision": f"0.16.0+{accelerator}",
        "typing-extensions": "4.8.0",
    }
    if accelerator == "cu118":
        expected |= {"nvidia-cuda-runtime-cu11": "11.8.89", "triton": "2.1.0"}
    if accelerator == "cu121":
        expected |= {"nvidia-cuda-runtime-cu12": "12.1.105", "triton": "2.1.0"}
    assert pins == expected
    # Every file of the pinned torch on its index is hashed (all pythons and platforms).
    assert body_hashes(body, "torch") == hashes_of(
        pytorch_index, accelerator, "torch", f"2.1.0+{accelerator}"
    )
    assert "127.0.0.1" not in body


def test_torch_family_and_runtime_come_from_the_pytorch_index(
    pytorch_index: ServedIndex, tmp_path: Path
) -> None:
    pytorch_index.clear_requests()
    lock_body(request_for(v210("cu118"), pytorch_index, tmp_path))
    pages = set(pytorch_index.requested_paths("*/"))
    # torch's runtime wheels are predicted from its PEP 658 metadata on the PyTorch index, so
    # one uv run routes them there (see test_runtime_prediction_saves_a_pass).
    assert sorted(p for p in pages if p.startswith("/whl/")) == [
        "/whl/cu118/",  # the project list: which torch-family packages the index hosts
        "/whl/cu118/nvidia-cuda-runtime-cu11/",
        "/whl/cu118/torch/",
        "/whl/cu118/torchaudio/",
        "/whl/cu118/torchvision/",
        "/whl/cu118/triton/",
    ]
    assert {"/pypi/simple/numpy/", "/pypi/simple/filelock/"} <= pages
    assert not {"/pypi/simple/torch/", "/pypi/simple/torchvision/"} & pages
    # No wheel is downloaded: PEP 658 metadata and the index's hashes are enough.
    assert pytorch_index.requested_paths("*.whl") == []


def test_runtime_prediction_saves_a_pass(
    pytorch_index: ServedIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[list[str]] = []
    original = PipLocker._compile_uv

    def counting(self, request, plan, requirements, routed, *, no_times):  # type: ignore[no-untyped-def]
        calls.append(list(routed))
        return original(self, request, plan, requirements, routed, no_times=no_times)

    monkeypatch.setattr(PipLocker, "_compile_uv", counting)
    predicted = lock_body(request_for(v210("cu118"), pytorch_index, tmp_path))
    assert calls == [["nvidia-cuda-runtime-cu11", "torch", "torchaudio", "torchvision", "triton"]]
    # Without a prediction (metadata unavailable) the two-pass route gives the same lock.
    calls.clear()
    monkeypatch.setattr("envgen.lock.pip.predict_runtime", lambda *_args: None)
    learnt = lock_body(request_for(v210("cu118"), pytorch_index, tmp_path, name="work2"))
    assert len(calls) == 2
    assert learnt == predicted


def test_stale_numpy_on_the_pytorch_index_is_never_taken(
    pytorch_index: ServedIndex, tmp_path: Path
) -> None:
    # numpy 1.24.1 is re-hosted on every PyTorch index; ask for exactly that version.
    variant = v210("cu118", extra='["numpy==1.24.1"]')
    pytorch_index.clear_requests()
    body = lock_body(request_for(variant, pytorch_index, tmp_path))
    assert pytorch_index.requested_paths("/whl/*numpy*") == []
    assert set(pytorch_index.requested_paths("*numpy*")) == {
        "/pypi/simple/numpy/",
        "/pypi/files/numpy-1.24.1-py3-none-any.whl.metadata",
    }
    assert PipLock.parse(body).versions()["numpy"] == "1.24.1"
    assert body_hashes(body, "numpy") == hashes_of(pytorch_index, "pypi", "numpy", "1.24.1")


@pytest.mark.parametrize(
    ("platform", "torch", "torch_files"),
    [
        ("win-64", "2.1.0+cu118", "win_amd64"),
        ("linux-64", "2.1.0+cu118", "manylinux_2_28_x86_64"),
    ],
)
def test_cross_platform_targets(
    platform: str, torch: str, torch_files: str, pytorch_index: ServedIndex, tmp_path: Path
) -> None:
    variant = dataclasses.replace(v210("cu118"), platform=platform)  # type: ignore[arg-type]
    body = lock_body(request_for(variant, pytorch_index, tmp_path))
    pins = PipLock.parse(body).versions()
    assert pins["torch"] == torch
    # torch's CUDA runtime and triton are marked for Linux x86_64 only.
    linux_only = {"triton", "nvidia-cuda-runtime-cu11"}
    assert (linux_only <= pins.keys()) == (platform == "linux-64")
    # The target's own torch wheel is among the hashes pinned.
    target_wheels = {
        f.sha256
        for f in pytorch_index.files_for("cu118", "torch")
        if f.version == torch and f.filename.endswith(f"{torch_files}.whl")
    }
    assert target_wheels
    assert target_wheels <= body_hashes(body, "torch")


def test_linux_aarch64_cpu_wheels_without_label(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    # Like the real cpu index, the aarch64 wheels there carry no +cpu label.
    variant = with_build(
        dataclasses.replace(v210("cpu"), platform="linux-aarch64"),
        platforms=("linux-aarch64",),
        torch="2.1.0",
        torchvision="0.16.0",
        torchaudio="2.1.0",
    )
    body = lock_body(request_for(variant, pytorch_index, tmp_path))
    pins = PipLock.parse(body).versions()
    assert (pins["torch"], pins["torchvision"], pins["torchaudio"]) == ("2.1.0", "0.16.0", "2.1.0")
    cpu_index = {f.sha256 for f in pytorch_index.files_for("cpu", "torch")}
    assert body_hashes(body, "torch") <= cpu_index


def test_find_links_form(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    variant = with_build(
        v210("cu118", extra='["numpy==1.24.1"]'),
        index="find-links",
        url="https://download.pytorch.org/whl/torch_stable.html",
    )
    pytorch_index.clear_requests()
    body = lock_body(request_for(variant, pytorch_index, tmp_path))
    assert body.startswith("--find-links https://download.pytorch.org/whl/torch_stable.html\n\n")
    pins = PipLock.parse(body).versions()
    assert pins["torch"] == "2.1.0+cu118"
    assert pins["numpy"] == "1.24.1"
    # numpy comes from PyPI; the flat page's numpy link is never downloaded.
    assert pytorch_index.requested_paths("/whl/*numpy*") == []
    assert pytorch_index.requested_paths("/whl/cu118/triton-*.whl") != []


def test_extra_index_url_form_and_pypi_form(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    extra = with_build(v210("cu118"), index="extra-index-url")
    body = lock_body(request_for(extra, pytorch_index, tmp_path, name="extra"))
    assert body.startswith("--extra-index-url https://download.pytorch.org/whl/cu118\n\n")
    assert PipLock.parse(body).versions()["torch"] == "2.1.0+cu118"

    pypi = with_build(
        v210("cpu"), index="pypi", url=None, torch="2.1.0", torchvision="0.16.0", torchaudio="2.1.0"
    )
    pytorch_index.clear_requests()
    body = lock_body(request_for(pypi, pytorch_index, tmp_path, name="pypi"))
    assert not body.startswith("-")
    assert PipLock.parse(body).versions()["torch"] == "2.1.0"
    assert pytorch_index.requested_paths("/whl/*") == []


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_install_the_lock_with_plain_pip(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    """`pip install --require-hashes -r requirements.txt` with no other flag builds the env."""
    written = IndexUrls(pytorch_root=pytorch_index.root_url, pypi=pytorch_index.pypi_url)
    body = lock_body(request_for(v210("cu118"), pytorch_index, tmp_path, written=written))
    assert body.startswith(
        f"--index-url {pytorch_index.index_url('cu118')}\n"
        f"--extra-index-url {pytorch_index.pypi_url}\n\n"
    )
    lock = tmp_path / "requirements.txt"
    lock.write_text(body)
    venv = tmp_path / "venv"
    env = dict(os.environ)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True, env=env, timeout=300)
    python = venv / "bin" / "python"
    result = subprocess.run(
        [python, "-m", "pip", "install", "--require-hashes", "-r", lock],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    shown = subprocess.run(
        [
            python,
            "-c",
            "import torch, torchvision, numpy; print(torch.__version__, numpy.__name__)",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert shown.stdout == "2.1.0+cu118 numpy\n"


def test_exclude_newer_with_upload_times(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    variant = v210("cu118")
    late = lock_body(request_for(variant, pytorch_index, tmp_path, name="late"))
    early = lock_body(
        request_for(
            variant, pytorch_index, tmp_path, name="early", exclude_newer=dt.date(2024, 1, 1)
        )
    )
    assert PipLock.parse(late).versions()["numpy"] == "2.0.0"
    assert PipLock.parse(early).versions()["numpy"] == "1.24.1"
    assert PipLock.parse(early).versions()["filelock"] == "3.13.1"


def test_exclude_newer_before_the_torch_release_is_a_plain_error(
    pytorch_index: ServedIndex, tmp_path: Path
) -> None:
    request = request_for(v210("cu118"), pytorch_index, tmp_path, exclude_newer=dt.date(2023, 6, 1))
    with pytest.raises(LockError) as info:
        PipLocker().lock(request)
    text = str(info.value)
    assert "exclude-newer" in text
    assert "torch" in text
    assert "Traceback" not in text


def test_exclude_newer_without_upload_times_warns(
    pytorch_index_no_upload_times: ServedIndex, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index = pytorch_index_no_upload_times
    request = request_for(v210("cu118"), index, tmp_path, exclude_newer=dt.date(2024, 1, 1))
    with caplog.at_level(logging.WARNING, logger="envgen.lock.pip"):
        body = lock_body(request)
    pins = PipLock.parse(body).versions()
    assert pins["torch"] == "2.1.0+cu118"
    assert pins["triton"] == "2.1.0"
    assert pins["numpy"] == "1.24.1"  # PyPI still has upload times: the cutoff applies there
    assert [r.getMessage() for r in caplog.records] == [
        (
            f"cu118: the PyTorch index at {index.index_url('cu118')} gives no upload times; "
            "--exclude-newer applies to PyPI packages only; torch-family pins come from the matrix"
        )
    ]


def test_credentials_never_leak(
    pytorch_index_with_auth: ServedIndex, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    index = pytorch_index_with_auth
    urls = IndexUrls(
        pytorch_root=index.with_auth(index.root_url), pypi=index.with_auth(index.pypi_url)
    )
    assert AUTH_TOKEN in urls.pytorch_root
    index.clear_requests()
    with caplog.at_level(logging.DEBUG):
        body = lock_body(
            request_for(
                v210("cu118"), index, tmp_path, urls=urls, exclude_newer=dt.date(2025, 1, 1)
            )
        )
        assert PipLock.parse(body).versions()["torch"] == "2.1.0+cu118"
        assert {r.status for r in index.requests} == {200}
        bad = with_build(v210("cu118"), torch="2.1.0+cu999")
        with pytest.raises(LockError) as info:
            PipLocker().lock(request_for(bad, index, tmp_path, name="bad", urls=urls))
    assert AUTH_TOKEN not in body
    assert AUTH_TOKEN not in str(info.value)
    assert AUTH_TOKEN not in caplog.text
    assert "torch==2.1.0+cu999" in str(info.value)
    # Nothing left on disk in the work directories names the token either.
    for path in tmp_path.glob("*/*"):
        if path.is_file():
            assert AUTH_TOKEN not in path.read_text(errors="replace"), path


def test_upgrade_package_keeps_other_pins(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    variant = v210("cu118", extra="[numpy, filelock]")
    old = (
        "numpy==1.24.1 \\\n    --hash=sha256:" + "0" * 64 + "\n"
        "filelock==3.9.0 \\\n    --hash=sha256:" + "1" * 64 + "\n"
    )
    kept = lock_body(
        request_for(
            variant, pytorch_index, tmp_path, name="kept", previous={"requirements.txt": old}
        )
    )
    assert (
        PipLock.parse(kept).versions()["numpy"],
        PipLock.parse(kept).versions()["filelock"],
    ) == (
        "1.24.1",
        "3.9.0",
    )
    moved = lock_body(
        request_for(
            variant,
            pytorch_index,
            tmp_path,
            name="moved",
            previous={"requirements.txt": kept},
            upgrade_packages=("numpy",),
        )
    )
    pins = PipLock.parse(moved).versions()
    assert (pins["numpy"], pins["filelock"]) == ("2.0.0", "3.9.0")
    assert "0" * 64 not in moved


def test_unpublished_pin_is_a_plain_lock_error(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    bad = with_build(v210("cu118"), torch="2.1.0+cu999")
    with pytest.raises(LockError) as info:
        PipLocker().lock(request_for(bad, pytorch_index, tmp_path))
    text = str(info.value)
    lines = text.splitlines()
    assert lines[0] == "cu118: uv could not lock the pip side (python 3.11, linux-64)"
    assert lines[1] == (
        "  requirements: numpy, torch==2.1.0+cu999, torchaudio==2.1.0+cu118, "
        "torchvision==0.16.0+cu118"
    )
    assert lines[2] == (
        f"  indexes asked: PyTorch index {pytorch_index.index_url('cu118')} "
        f"(for torch, torchaudio, torchvision); {pytorch_index.pypi_url} (everything else)"
    )
    assert lines[3] == "  uv says:"
    assert "we can conclude that" in text
    assert "Traceback" not in text
    assert info.value.exit_code == 6


def test_same_inputs_give_the_same_bytes(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    first = lock_body(request_for(v210("cu121"), pytorch_index, tmp_path, name="one"))
    second = lock_body(request_for(v210("cu121"), pytorch_index, tmp_path, name="two"))
    assert first == second
    assert first.endswith("\n")
    assert not first.endswith("\n\n")


def test_pip_tools_for_the_running_interpreter(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    if sys.version_info[:2] != (3, 11) or sys.platform != "linux":
        pytest.skip("the pip-tools path locks for python 3.11 on linux-64 only here")
    variant = v210("cu118", extra='["numpy<2"]')
    body = lock_body(request_for(variant, pytorch_index, tmp_path), resolver="pip-tools")
    assert body.startswith(OFFICIAL_CU118_HEAD)
    pins = PipLock.parse(body).versions()
    assert pins["torch"] == "2.1.0+cu118"
    assert pins["numpy"] == "1.26.4"
    assert body_hashes(body, "numpy") == hashes_of(pytorch_index, "pypi", "numpy", "1.26.4")
    assert "127.0.0.1" not in body
    assert "/opt/" not in body  # the machine's pip config and find-links stay out


def test_pip_tools_refuses_other_targets(pytorch_index: ServedIndex, tmp_path: Path) -> None:
    variant = dataclasses.replace(v210("cu118"), platform="win-64")
    with pytest.raises(LockError) as info:
        PipLocker(resolver="pip-tools").lock(request_for(variant, pytorch_index, tmp_path))
    assert "pip-tools resolves only for the running interpreter" in str(info.value)
    assert "resolver: uv" in str(info.value)


def test_one_lock_run_fetches_each_index_page_once(
    pytorch_index: ServedIndex, tmp_path: Path
) -> None:
    """Variants on one PyTorch index share its pages within a lock run (one locker), and a new
    run (a new locker) asks the index again: issue 27, per-variant re-downloads."""
    found = variants(
        'python: ["3.10", "3.11"]\ntorch: "2.1.0"\naccelerators: [cu118]\n'
        "managers: [pip]\npip: [numpy]\n"
    )
    assert sorted(found) == ["cu118-py310", "cu118-py311"]
    pytorch_index.clear_requests()
    locker = PipLocker()
    bodies = [
        locker.lock(request_for(v, pytorch_index, tmp_path, name=v.id))[0].body
        for v in found.values()
    ]
    assert all("torch==2.1.0+cu118" in b for b in bodies)
    assert envgen_pages(pytorch_index) == ["/whl/cu118/", "/whl/cu118/torch/"]

    pytorch_index.clear_requests()
    PipLocker().lock(request_for(found["cu118-py311"], pytorch_index, tmp_path, name="again"))
    assert envgen_pages(pytorch_index) == ["/whl/cu118/", "/whl/cu118/torch/"]


def envgen_pages(index: ServedIndex) -> list[str]:
    """The index pages envgen itself asked for (uv asks with another Accept header)."""
    accept = "application/vnd.pypi.simple.v1+json, text/html;q=0.1"
    return sorted(r.path for r in index.requests if r.accept == accept)
