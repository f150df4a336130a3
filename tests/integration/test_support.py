"""The test infrastructure itself, checked with the real tools (uv, pip, py-rattler).

Everything here talks to 127.0.0.1 or file:// only.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import subprocess  # noqa: TID251 - tests drive real tools directly
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from rattler import BuildString, GenericVirtualPackage, PackageName, Subdir, Version, solve
from rattler.exceptions import SolverError
from uv import find_uv_bin

from tests.support.conda_channel import CondaChannel, build_pytorch_channel
from tests.support.fixtures import AUTH_TOKEN, AUTH_USER, ServedIndex, ServerFactory
from tests.support.index import JSON_CONTENT_TYPE, build_index_tree, write_wheels
from tests.support.server import IndexServer
from tests.support.wheels import make_wheel, read_wheel_metadata, sha256_file

pytestmark = pytest.mark.integration

UV = find_uv_bin()
LINUX = "x86_64-manylinux_2_28"
PIN_RE = re.compile(r"^([a-z0-9-]+)==(\S+)", re.MULTILINE)


def _run(
    args: list[str], env: dict[str, str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, env=env, cwd=cwd, capture_output=True, text=True, check=False, timeout=120
    )


def _compile(
    tmp_path: Path,
    env: dict[str, str],
    requirements: str,
    *args: str,
    platform: str = LINUX,
    header: bool = False,
) -> subprocess.CompletedProcess[str]:
    req_in = tmp_path / "requirements.in"
    req_in.write_text(requirements + "\n")
    return _run(
        [
            UV,
            "pip",
            "compile",
            str(req_in),
            "--python",
            sys.executable,
            "--python-version",
            "3.11",
            "--python-platform",
            platform,
            "--no-annotate",
            *(() if header else ("--no-header",)),
            *args,
        ],
        env,
    )


def _pins(text: str) -> dict[str, str]:
    return dict(PIN_RE.findall(text))


def _get(url: str, accept: str | None = None) -> tuple[int, str, bytes]:
    """Status, content type and body; HTTP errors are returned too (and their socket closed)."""
    request = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers.get("Content-Type", ""), error.read()


def _vp(name: str, version: str) -> GenericVirtualPackage:
    return GenericVirtualPackage(PackageName(name), Version(version), BuildString("0"))


def _solve(
    channel: CondaChannel,
    specs: list[str],
    virtual: list[GenericVirtualPackage],
    platform: str = "linux-64",
) -> dict[str, str]:
    records = asyncio.run(
        solve(
            sources=[channel.url],
            specs=specs,
            platforms=[Subdir(platform), Subdir("noarch")],
            virtual_packages=virtual,
        )
    )
    return {r.name.normalized: f"{r.version} {r.build}" for r in records}


# --- the files ---------------------------------------------------------------------------------


def test_wheels_are_byte_stable_and_valid(tmp_path: Path) -> None:
    kwargs = {
        "requires_dist": ("numpy",),
        "python_tag": "cp311",
        "abi": "cp311",
        "plat": "manylinux_2_28_x86_64",
    }
    first = make_wheel(tmp_path / "a", "torch", "2.1.0+cu118", **kwargs)  # type: ignore[arg-type]
    second = make_wheel(tmp_path / "b", "torch", "2.1.0+cu118", **kwargs)  # type: ignore[arg-type]
    assert first.name == "torch-2.1.0+cu118-cp311-cp311-manylinux_2_28_x86_64.whl"
    assert first.read_bytes() == second.read_bytes()
    assert "Requires-Dist: numpy" in read_wheel_metadata(first)

    started = time.monotonic()
    tree_a = build_index_tree(tmp_path / "tree-a")  # writes its own wheels
    assert time.monotonic() - started < 2, "fixture building must stay fast"
    tree_b = build_index_tree(tmp_path / "tree-b", wheels=write_wheels(tmp_path / "w"))
    assert [(f.index, f.filename, f.sha256) for f in tree_a.files] == [
        (f.index, f.filename, f.sha256) for f in tree_b.files
    ]
    assert (tree_a.whl / "cu118" / "torch" / "index.json").read_bytes() == (
        tree_b.whl / "cu118" / "torch" / "index.json"
    ).read_bytes()


def test_index_tree_shape(
    pytorch_index: ServedIndex, pytorch_index_no_upload_times: ServedIndex
) -> None:
    tree = pytorch_index.tree
    for variant in ("cpu", "cu118", "cu121"):
        numpy = tree.files_for(variant, "numpy")
        assert [f.version for f in numpy] == ["1.24.1"], "the stale re-hosted numpy"
    assert {f.version for f in tree.files_for("pypi", "numpy")} == {"1.24.1", "1.26.4", "2.0.0"}
    assert {f.version for f in tree.files_for("cu118", "torch")} == {"2.1.0+cu118", "2.0.1+cu118"}
    assert {f.version for f in tree.files_for("cpu", "torch")} == {
        "2.1.0+cpu",
        "2.0.1+cpu",
        "2.1.0",
        "2.0.1",  # aarch64 wheels carry no label
    }

    page = json.loads((tree.whl / "cu118" / "torch" / "index.json").read_text())
    assert page["meta"]["api-version"] == "1.1"
    entry = page["files"][0]
    wheel = tree.file(entry["filename"], "cu118")
    assert entry["hashes"]["sha256"] == sha256_file(wheel.path)
    metadata = wheel.path.with_name(wheel.filename + ".metadata")
    assert entry["core-metadata"] == {"sha256": sha256_file(metadata)}
    assert entry["upload-time"].endswith("Z")
    html = (tree.whl / "cu118" / "torch" / "index.html").read_text()
    assert f'data-core-metadata="sha256={sha256_file(metadata)}"' in html
    assert "%2Bcu118" in html

    bare = pytorch_index_no_upload_times.tree
    bare_page = json.loads((bare.whl / "cu118" / "torch" / "index.json").read_text())
    assert all("upload-time" not in f for f in bare_page["files"])
    pypi_page = json.loads((bare.pypi / "numpy" / "index.json").read_text())
    assert all("upload-time" in f for f in pypi_page["files"])

    stable = tree.find_links_page.read_text()
    for href in re.findall(r'href="([^"]+)"', stable):
        status, _, _ = _get(f"{pytorch_index.root_url}/{href}")
        assert status == 200


# --- the server --------------------------------------------------------------------------------


def test_server_negotiates_and_logs(pytorch_index: ServedIndex) -> None:
    pytorch_index.clear_requests()
    url = f"{pytorch_index.pypi_url}/numpy/"
    _, ctype, body = _get(url, "application/vnd.pypi.simple.v1+json, text/html;q=0.01")
    assert ctype == JSON_CONTENT_TYPE
    assert json.loads(body)["name"] == "numpy"
    _, ctype, body = _get(url, "text/html")
    assert ctype.startswith("text/html")
    assert b"numpy-2.0.0-py3-none-any.whl" in body
    _, ctype, _ = _get(f"{url}?format={JSON_CONTENT_TYPE}")
    assert ctype == JSON_CONTENT_TYPE
    _, _, body = _get(f"{pytorch_index.pypi_url}/numpy")  # redirected to the slash
    assert b"Links for numpy" in body
    assert _get(f"{pytorch_index.pypi_url}/no-such-project/")[0] == 404
    assert _get(f"{pytorch_index.base_url}/%2E%2E/%2E%2E/etc/passwd")[0] == 404
    paths = pytorch_index.requested_paths("/pypi/simple/numpy*")
    # each handler thread logs as it finishes: the redirect's follow-up may be logged before
    # the redirect itself (seen once in CI under load), so the log is compared as a multiset
    assert sorted(paths) == sorted(
        ["/pypi/simple/numpy/"] * 3 + ["/pypi/simple/numpy", "/pypi/simple/numpy/"]
    )


def test_server_binds_loopback_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="loopback"):
        IndexServer(tmp_path, host="0.0.0.0")  # noqa: S104 - the point of the test


def test_faulty_server(faulty_server: ServerFactory, pytorch_index: ServedIndex) -> None:
    server = faulty_server()
    wheel = pytorch_index.files_for("pypi", "numpy")[0]
    wheel_url = f"{server.url}/pypi/files/{wheel.filename}"
    server.add_fault("/pypi/simple/numpy/", status=500, times=1)
    server.add_fault("/pypi/simple/filelock/", delay=0.3)
    server.add_fault(f"/pypi/files/{wheel.filename}", truncate=10, times=1)
    server.add_fault("*.metadata", corrupt=True)

    assert _get(f"{server.url}/pypi/simple/numpy/")[0] == 500
    assert _get(f"{server.url}/pypi/simple/numpy/")[0] == 200  # times=1: only the first
    started = time.monotonic()
    _get(f"{server.url}/pypi/simple/filelock/")
    assert time.monotonic() - started >= 0.3
    with pytest.raises(http.client.IncompleteRead):
        _get(wheel_url)
    assert _get(wheel_url)[2] == wheel.path.read_bytes()
    _, _, corrupted = _get(wheel_url + ".metadata")
    assert len(corrupted) == len(wheel.path.with_name(wheel.filename + ".metadata").read_bytes())
    assert b"Metadata-Version" not in corrupted
    assert [r.status for r in server.requests][:2] == [500, 200]


# --- uv and pip against the fake PyTorch index -------------------------------------------------


def test_uv_extra_index_takes_torch_and_the_stale_numpy(
    pytorch_index: ServedIndex, tool_env: dict[str, str], tmp_path: Path
) -> None:
    """The documented uv behaviour: the extra index ranks first, and numpy comes from it too."""
    pytorch_index.clear_requests()
    result = _compile(
        tmp_path,
        tool_env,
        "torch==2.1.0+cu118",
        "--index-url",
        pytorch_index.pypi_url,
        "--extra-index-url",
        pytorch_index.index_url("cu118"),
        "--generate-hashes",
    )
    assert result.returncode == 0, result.stderr
    pins = _pins(result.stdout)
    assert pins == {
        "filelock": "3.13.1",
        "numpy": "1.24.1",
        "nvidia-cuda-runtime-cu11": "11.8.89",
        "torch": "2.1.0+cu118",
        "triton": "2.1.0",
        "typing-extensions": "4.8.0",
    }
    torch_hashes = set(
        re.findall(r"sha256:([0-9a-f]{64})", result.stdout.split("torch==")[1].split("==")[0])
    )
    assert torch_hashes >= {
        f.sha256 for f in pytorch_index.files_for("cu118", "torch") if f.version == "2.1.0+cu118"
    }
    # PEP 658: uv read metadata files only, never a wheel.
    assert not pytorch_index.requested_paths("*.whl")
    assert pytorch_index.requested_paths("/whl/cu118/numpy/")


@pytest.mark.parametrize(
    ("requirement", "index", "extra_index", "extra_args", "expected"),
    [
        pytest.param(
            "torch==2.1.0+cu121",
            "pypi",
            "cu121",
            ("--index-strategy", "unsafe-best-match"),
            {"numpy": "2.0.0", "nvidia-cuda-runtime-cu12": "12.1.105"},
            id="unsafe-best-match-takes-pypi-numpy",
        ),
        # With the PyTorch index as --index-url and PyPI as extra, PyPI wins (the trap).
        pytest.param(
            "torch==2.1.0",
            "cu118",
            "pypi",
            (),
            {"torch": "2.1.0", "nvidia-cuda-runtime-cu12": "12.1.105"},
            id="plain-torch-from-pypi-is-pypis-build",
        ),
    ],
)
def test_uv_index_order(
    pytorch_index: ServedIndex,
    tool_env: dict[str, str],
    tmp_path: Path,
    requirement: str,
    index: str,
    extra_index: str,
    extra_args: tuple[str, ...],
    expected: dict[str, str],
) -> None:
    def url(name: str) -> str:
        return pytorch_index.pypi_url if name == "pypi" else pytorch_index.index_url(name)

    result = _compile(
        tmp_path,
        tool_env,
        requirement,
        "--index-url",
        url(index),
        "--extra-index-url",
        url(extra_index),
        *extra_args,
    )
    assert result.returncode == 0, result.stderr
    pins = _pins(result.stdout)
    assert {name: pins.get(name) for name in expected} == expected


def test_uv_cross_platform(
    pytorch_index: ServedIndex, tool_env: dict[str, str], tmp_path: Path
) -> None:
    args = (
        "--index-url",
        pytorch_index.pypi_url,
        "--extra-index-url",
        pytorch_index.index_url("cpu"),
    )
    windows = _compile(
        tmp_path, tool_env, "torch==2.1.0+cpu", *args, platform="x86_64-pc-windows-msvc"
    )
    assert windows.returncode == 0, windows.stderr
    assert "triton" not in windows.stdout
    arm = _compile(tmp_path, tool_env, "torch==2.1.0", *args, platform="aarch64-manylinux_2_28")
    assert arm.returncode == 0, arm.stderr
    assert _pins(arm.stdout)["torch"] == "2.1.0"  # no +cpu wheel for aarch64
    arm_cpu = _compile(
        tmp_path, tool_env, "torch==2.1.0+cpu", *args, platform="aarch64-manylinux_2_28"
    )
    assert arm_cpu.returncode != 0


def test_uv_lock_with_explicit_index(
    pytorch_index: ServedIndex, tool_env: dict[str, str], tmp_path: Path
) -> None:
    """The cleanest route: an explicit index for the torch family only; numpy stays on PyPI."""
    project = tmp_path / "probe"
    project.mkdir()
    (project / "pyproject.toml").write_text(
        f"""\
[project]
name = "probe"
version = "0"
requires-python = ">=3.11,<3.12"
dependencies = ["torch==2.1.0+cu118", "torchvision==0.16.0+cu118"]

[tool.uv]
environments = ["sys_platform == 'linux' and platform_machine == 'x86_64'"]

[[tool.uv.index]]
name = "pypi-local"
url = "{pytorch_index.pypi_url}"
default = true

[[tool.uv.index]]
name = "pytorch-cu118"
url = "{pytorch_index.index_url("cu118")}"
explicit = true

[tool.uv.sources]
torch = {{ index = "pytorch-cu118" }}
torchvision = {{ index = "pytorch-cu118" }}
"""
    )
    lock = _run([UV, "lock", "--python", sys.executable], tool_env, cwd=project)
    assert lock.returncode == 0, lock.stderr
    export = _run(
        [
            UV,
            "export",
            "--format",
            "requirements.txt",
            "--no-emit-project",
            "--no-header",
            "--python",
            sys.executable,
            "--frozen",
        ],
        tool_env,
        cwd=project,
    )
    assert export.returncode == 0, export.stderr
    pins = _pins(export.stdout)
    assert pins["torch"] == "2.1.0+cu118"
    assert pins["torchvision"] == "0.16.0+cu118"
    assert pins["numpy"] == "2.0.0", "numpy from PyPI, not the stale re-host"
    assert "--index-url" not in export.stdout  # uv does not write the torch index: we must


def test_pip_installs_uv_output_with_hashes(
    pytorch_index: ServedIndex, tool_env: dict[str, str], tmp_path: Path
) -> None:
    index_args = (
        "--index-url",
        pytorch_index.pypi_url,
        "--extra-index-url",
        pytorch_index.index_url("cu118"),
    )
    compiled = _compile(
        tmp_path,
        tool_env,
        "torch==2.1.0+cu118\ntorchvision==0.16.0+cu118",
        *index_args,
        "--generate-hashes",
    )
    assert compiled.returncode == 0, compiled.stderr
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(compiled.stdout)

    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tool_env)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    install = _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--isolated",
            "--python",
            str(python),
            "install",
            "--require-hashes",
            "--no-deps",
            *index_args,
            "-r",
            str(requirements),
        ],
        tool_env,
    )
    assert install.returncode == 0, install.stderr + install.stdout
    probe = _run(
        [
            str(python),
            "-c",
            (
                "import json, torch, torchvision, importlib.metadata as m;"
                "print(json.dumps([torch.__version__, torch.version.cuda,"
                " torch.cuda.is_available(), torch.cuda.get_arch_list(),"
                " len(torch._C._cuda_getArchFlags().split()),"
                " torchvision.ops.nms([0, 1], [0.2, 0.9], 0.5), m.version('numpy')]))"
            ),
        ],
        tool_env,
    )
    assert probe.returncode == 0, probe.stderr
    # As the real 2.1.0 wheel without a device: get_arch_list() is [] (it asks is_available()
    # first, 1.6-2.10), the compile-time flags still list the architectures.
    assert json.loads(probe.stdout) == ["2.1.0+cu118", "11.8", False, [], 7, [1, 0], "1.24.1"]


def test_uv_exclude_newer(
    pytorch_index: ServedIndex,
    pytorch_index_no_upload_times: ServedIndex,
    tool_env: dict[str, str],
    tmp_path: Path,
) -> None:
    numpy = _compile(
        tmp_path,
        tool_env,
        "numpy",
        "--index-url",
        pytorch_index.pypi_url,
        "--exclude-newer",
        "2024-03-01T00:00:00Z",
    )
    assert numpy.returncode == 0, numpy.stderr
    assert _pins(numpy.stdout) == {"numpy": "1.26.4"}

    def torch_before(index: ServedIndex, *extra: str) -> subprocess.CompletedProcess[str]:
        return _compile(
            tmp_path,
            tool_env,
            "torch",
            "--index-url",
            index.pypi_url,
            "--extra-index-url",
            index.index_url("cu118"),
            "--exclude-newer",
            "2023-06-01T00:00:00Z",
            *extra,
        )

    dated = torch_before(pytorch_index)
    assert dated.returncode == 0, dated.stderr
    assert _pins(dated.stdout)["torch"] == "2.0.1+cu118"
    assert _pins(dated.stdout)["filelock"] == "3.9.0"

    # Files without an upload time are dropped (with a warning) once a cutoff is set ...
    undated = torch_before(pytorch_index_no_upload_times)
    assert undated.returncode != 0
    assert "missing an upload date" in undated.stderr
    # ... unless the cutoff is switched off for those packages.
    exempt_args = []
    for name in ("torch", "numpy", "triton", "nvidia-cuda-runtime-cu11"):
        exempt_args += ["--exclude-newer-package", f"{name}=false"]
    exempt = torch_before(pytorch_index_no_upload_times, *exempt_args)
    assert exempt.returncode == 0, exempt.stderr
    assert _pins(exempt.stdout)["torch"] == "2.1.0+cu118"


def test_uv_basic_auth(
    pytorch_index_with_auth: ServedIndex, tool_env: dict[str, str], tmp_path: Path
) -> None:
    index = pytorch_index_with_auth
    index.clear_requests()
    denied = _compile(
        tmp_path,
        tool_env,
        "torch==2.1.0+cpu",
        "--index-url",
        index.pypi_url,
        "--extra-index-url",
        index.index_url("cpu"),
    )
    assert denied.returncode != 0
    assert {r.status for r in index.requests} == {401}

    index.clear_requests()
    allowed = _compile(
        tmp_path,
        tool_env,
        "torch==2.1.0+cpu",
        "--index-url",
        index.with_auth(index.pypi_url),
        "--extra-index-url",
        index.with_auth(index.index_url("cpu")),
        "--emit-index-url",
    )
    assert allowed.returncode == 0, allowed.stderr
    assert _pins(allowed.stdout)["torch"] == "2.1.0+cpu"
    assert {r.user for r in index.requests if r.status == 200} == {AUTH_USER}
    assert AUTH_TOKEN not in allowed.stderr
    # uv writes the credentials verbatim into --emit-index-url lines: envgen must redact them.
    assert f"--extra-index-url {index.with_auth(index.index_url('cpu'))}" in allowed.stdout

    header = _compile(
        tmp_path,
        tool_env,
        "torch==2.1.0+cpu",
        "--index-url",
        index.with_auth(index.pypi_url),
        "--extra-index-url",
        index.with_auth(index.index_url("cpu")),
        header=True,
    )
    assert header.returncode == 0, header.stderr
    assert "# This file was autogenerated by uv" in header.stdout
    assert AUTH_TOKEN not in header.stdout, "uv redacts credentials in the header command"


def test_uv_retries_a_server_error(
    faulty_server: ServerFactory, tool_env: dict[str, str], tmp_path: Path
) -> None:
    server = faulty_server()
    server.add_fault("/pypi/simple/numpy/", status=500, times=1)
    ok = _compile(tmp_path, tool_env, "numpy", "--index-url", f"{server.url}/pypi/simple")
    assert ok.returncode == 0, ok.stderr
    assert server.requested_paths("/pypi/simple/numpy/") == ["/pypi/simple/numpy/"] * 2

    server.add_fault("/pypi/simple/filelock/", status=404)
    missing = _compile(tmp_path, tool_env, "filelock", "--index-url", f"{server.url}/pypi/simple")
    assert missing.returncode != 0


# --- py-rattler against the fake conda channels ------------------------------------------------


def test_rattler_solves_the_pytorch_channel(conda_channel: CondaChannel) -> None:
    cuda = _solve(
        conda_channel,
        ["pytorch ==2.1.0", "pytorch-cuda 11.8.*", "python 3.11.*"],
        [_vp("__cuda", "11.8"), _vp("__glibc", "2.28")],
    )
    assert cuda["pytorch"] == "2.1.0 py3.11_cuda11.8_cudnn8.7.0_0"
    assert cuda["pytorch-mutex"] == "1.0 cuda"
    assert cuda["cuda-version"].startswith("11.8 ")

    cpu = _solve(
        conda_channel, ["pytorch ==2.1.0", "cpuonly", "python 3.11.*"], [_vp("__glibc", "2.28")]
    )
    assert cpu["pytorch"] == "2.1.0 py3.11_cpu_0"
    assert "pytorch-cuda" not in cpu

    # Unsatisfiable: pytorch-cuda 11.8 needs __cuda >=11.8 and the machine has 11.2.
    with pytest.raises(SolverError, match=r"__cuda"):
        _solve(
            conda_channel,
            ["pytorch ==2.1.0", "pytorch-cuda 11.8.*", "python 3.11.*"],
            [_vp("__cuda", "11.2")],
        )

    windows = _solve(conda_channel, ["pytorch ==2.1.0", "torchvision", "cpuonly"], [], "win-64")
    assert windows["torchvision"] == "0.16.0 py311_cpu"


def test_rattler_solves_the_conda_forge_channel(conda_forge_channel: CondaChannel) -> None:
    gpu = _solve(conda_forge_channel, ["pytorch ==2.6.0"], [_vp("__cuda", "12.6")])
    assert gpu["pytorch"].startswith("2.6.0 cuda126_generic")
    cpu = _solve(conda_forge_channel, ["pytorch ==2.6.0"], [])
    assert cpu["pytorch"].startswith("2.6.0 cpu_generic")


def test_conda_channel_is_byte_stable(conda_channel: CondaChannel, tmp_path: Path) -> None:
    again = build_pytorch_channel(tmp_path / "pytorch")
    for subdir in ("linux-64", "noarch", "win-64", "osx-arm64"):
        assert (again.path / subdir / "repodata.json").read_bytes() == (
            conda_channel.path / subdir / "repodata.json"
        ).read_bytes()
    assert conda_channel.repodata("noarch")["packages"]
