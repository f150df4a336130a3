"""The pure helpers of the pip locker: platform targets, index plans, pyproject, body assembly."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from envgen.errors import LockError
from envgen.infra.proc import split_credentials
from envgen.lock.index_plan import exclude_newer_timestamp, index_plan, uv_python_platform
from envgen.lock.pip import (
    PipLocker,
    failure_lines,
    is_torch_family,
    pin_lines,
    render_pyproject,
    running_platform,
    target_environment,
)
from envgen.lock.piplock import PipLock
from envgen.model.matrix import PipBuild, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.targets import load_targets
from envgen.model.types import PLATFORMS, Platform
from envgen.model.variants import Variant, expand
from envgen.render.indexes import IndexUrls
from envgen.render.requirements import written_index_lines

MINI = Path(__file__).parents[2] / "data" / "matrix-mini"
MIRROR = IndexUrls(
    pytorch_root="https://bob:s3cret@mirror.example/whl",
    pypi="https://bob:s3cret@mirror.example/pypi",
)


def variant(accelerator: str = "cu118", *, pip: str = "[numpy]", torch: str = "2.1.0") -> Variant:
    spec = parse_spec(
        f'name: demo\npython: "3.11"\ntorch: "{torch}"\naccelerators: [{accelerator}]\n'
        f"managers: [pip]\npip: {pip}\n",
        path=Path("project.yaml"),
    )
    (found,) = expand(spec, load_matrix(MINI)).variants
    return found


def with_form(v: Variant, form: str, url: str | None) -> Variant:
    assert v.pip is not None
    build = v.pip.model_copy(update={"index": form, "url": url})
    assert isinstance(build, PipBuild)
    return dataclasses.replace(v, pip=build)


def test_every_platform_has_a_uv_target() -> None:
    targets = load_targets()
    assert {r.platform for r in targets.uv_python_platforms} == set(PLATFORMS)
    assert all(uv_python_platform(p) for p in PLATFORMS)


@pytest.mark.parametrize(
    ("platform", "glibc", "expected"),
    [
        ("linux-64", None, "x86_64-manylinux_2_28"),
        ("linux-64", "2.17", "x86_64-manylinux_2_17"),
        ("linux-aarch64", "2.28", "aarch64-manylinux_2_28"),
        ("osx-64", "2.17", "x86_64-apple-darwin"),  # glibc means nothing off linux
        ("win-64", None, "x86_64-pc-windows-msvc"),
    ],
)
def test_uv_python_platform(platform: Platform, glibc: str | None, expected: str) -> None:
    assert uv_python_platform(platform, glibc=glibc) == expected


def test_target_environment_is_the_targets_not_the_hosts() -> None:
    windows = dataclasses.replace(variant(), platform="win-64")
    assert target_environment(windows) == {
        "python_version": "3.11",
        "python_full_version": "3.11.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "win32",
        "platform_system": "Windows",
        "platform_machine": "AMD64",
        "os_name": "nt",
    }


@pytest.mark.parametrize(
    ("system", "machine", "expected"),
    [
        ("linux", "x86_64", "linux-64"),
        ("linux2", "aarch64", "linux-aarch64"),
        ("darwin", "arm64", "osx-arm64"),
        ("win32", "AMD64", "win-64"),
        ("freebsd14", "amd64", None),
    ],
)
def test_running_platform(system: str, machine: str, expected: str | None) -> None:
    assert running_platform(system, machine) == expected


def test_torch_family() -> None:
    names = ["torch", "TorchVision", "pytorch_triton", "nvidia-nccl-cu12", "cuda-bindings", "numpy"]
    assert [is_torch_family(n) for n in names] == [True, True, True, True, True, False]


def test_exclude_newer_is_the_start_of_the_day_in_utc() -> None:
    assert exclude_newer_timestamp(dt.date(2023, 10, 5)) == "2023-10-05T00:00:00Z"


def test_split_credentials() -> None:
    assert split_credentials("http://envgen:CANARY-TOKEN-1234@127.0.0.1:8080/whl/cu118") == (
        "http://127.0.0.1:8080/whl/cu118",
        "envgen",
        "CANARY-TOKEN-1234",
    )
    assert split_credentials("https://tok%40en@host/simple") == (
        "https://host/simple",
        "tok@en",
        None,
    )
    # The host is kept as written: IPv6 brackets and case survive, a bad port does not raise.
    assert split_credentials("http://u:p@[::1]:8080/simple")[0] == "http://[::1]:8080/simple"
    assert split_credentials("https://u:p@Mirror.Example:x/s")[0] == "https://Mirror.Example:x/s"


def test_index_plan_per_form() -> None:
    v = variant()
    assert index_plan(v, MIRROR).pytorch == "https://bob:s3cret@mirror.example/whl/cu118"
    assert index_plan(v, MIRROR).pypi == "https://bob:s3cret@mirror.example/pypi"
    assert index_plan(v, IndexUrls()).pypi == "https://pypi.org/simple"
    flat = with_form(v, "find-links", "https://download.pytorch.org/whl/torch_stable.html")
    assert index_plan(flat, IndexUrls()).flat
    assert index_plan(with_form(v, "pypi", None), IndexUrls()).pytorch is None


def test_describe_redacts() -> None:
    plan = index_plan(variant(), MIRROR)
    assert plan.describe(["torch", "triton"]) == (
        "PyTorch index https://***@mirror.example/whl/cu118 (for torch, triton); "
        "https://***@mirror.example/pypi (everything else)"
    )


def test_describe_names_the_extension_pages_asked() -> None:
    pyg = "https://data.pyg.org/whl/torch-2.0.0+cu117.html"
    plan = dataclasses.replace(
        index_plan(with_form(variant(), "pypi", None), IndexUrls()),
        extensions=(("torch-scatter", pyg, True), ("pyg-lib", pyg, True)),
    )
    assert plan.describe([]) == (
        f"https://pypi.org/simple (everything else); {pyg} (for pyg-lib, torch-scatter)"
    )
    plain = index_plan(with_form(variant(), "pypi", None), IndexUrls())
    assert plain.describe([]) == "https://pypi.org/simple (all packages)"


def test_written_index_lines_keep_pypi_reachable() -> None:
    v = variant(pip="[]")  # no extras: the pins-only renderer would name the PyTorch index only
    assert written_index_lines(v, IndexUrls()) == [
        "--index-url https://download.pytorch.org/whl/cu118",
        "--extra-index-url https://pypi.org/simple",
    ]
    mirror = IndexUrls(
        pytorch_root="https://mirror.example/whl", pypi="https://mirror.example/pypi"
    )
    assert written_index_lines(
        with_form(v, "extra-index-url", v.pip.url if v.pip else None), mirror
    ) == [
        "--index-url https://mirror.example/pypi",
        "--extra-index-url https://mirror.example/whl/cu118",
    ]


def test_render_pyproject_routes_the_torch_family_without_credentials() -> None:
    plan = index_plan(variant(), MIRROR)
    text = render_pyproject(["numpy", "torch==2.1.0+cu118"], plan, ["torch", "triton"])
    assert text == (
        '[project]\nname = "envgen-lock"\nversion = "0"\ndependencies = [\n'
        '  "numpy",\n  "torch==2.1.0+cu118",\n]\n'
        '\n[[tool.uv.index]]\nname = "pytorch"\nurl = "https://mirror.example/whl/cu118"\n'
        "explicit = true\n"
        '\n[[tool.uv.index]]\nname = "pypi"\nurl = "https://mirror.example/pypi"\ndefault = true\n'
        '\n[tool.uv.sources]\ntorch = { index = "pytorch" }\ntriton = { index = "pytorch" }\n'
    )


def test_render_pyproject_flat_page() -> None:
    v = with_form(variant(), "find-links", "https://download.pytorch.org/whl/torch_stable.html")
    text = render_pyproject(["torch==2.1.0+cu118"], index_plan(v, IndexUrls()), ["torch"])
    assert (
        '[[tool.uv.index]]\nname = "pytorch"\n'
        'url = "https://download.pytorch.org/whl/torch_stable.html"\nformat = "flat"\n'
        "explicit = true\n"
    ) in text


UV_OUTPUT = """\
--index-url http://envgen:CANARY-TOKEN-1234@127.0.0.1:9/whl/cu118
# a comment
filelock==3.13.1 \\
    --hash=sha256:aa
torch==2.1.0+cu118 \\
    --hash=sha256:bb \\
    --hash=sha256:cc
private @ http://127.0.0.1:9/files/private-1.0-py3-none-any.whl \\
    --hash=sha256:dd
"""


def test_pin_lines_drop_options_comments_and_real_urls() -> None:
    assert pin_lines(UV_OUTPUT, drop_urls=["http://127.0.0.1:9"]) == [
        "filelock==3.13.1 \\",
        "    --hash=sha256:aa",
        "torch==2.1.0+cu118 \\",
        "    --hash=sha256:bb \\",
        "    --hash=sha256:cc",
    ]


def test_a_lock_body_from_resolver_output() -> None:
    lock = PipLock.from_parts(
        ["--index-url https://download.pytorch.org/whl/cu118"],
        "\n".join(pin_lines(UV_OUTPUT, drop_urls=["http://127.0.0.1:9"])),
        source="uv output",
    )
    assert lock.body() == (
        "--index-url https://download.pytorch.org/whl/cu118\n"
        "\n"
        "filelock==3.13.1 \\\n    --hash=sha256:aa\n"
        "torch==2.1.0+cu118 \\\n    --hash=sha256:bb \\\n    --hash=sha256:cc\n"
    )
    assert lock.versions() == {"filelock": "3.13.1", "torch": "2.1.0+cu118"}
    assert PipLock.from_parts([], "a==1", source="x").body() == "a==1\n"


def test_failure_lines_keep_uvs_explanation_and_redact() -> None:
    stderr = (
        "warning: `torch-2.1.0.whl` is missing an upload date\n"
        "error: No solution found when resolving dependencies\n"
        "  cause: Because there is no version of torch==9 and envgen-lock depends on torch==9,\n"
        "         we can conclude that your requirements are unsatisfiable.\n"
        "\n"
        "hint: `torch` was found on https://bob:s3cret@mirror.example/whl/cu118\n"
    )
    assert failure_lines(stderr) == [
        "error: No solution found when resolving dependencies",
        "  cause: Because there is no version of torch==9 and envgen-lock depends on torch==9,",
        "         we can conclude that your requirements are unsatisfiable.",
        "hint: `torch` was found on https://***@mirror.example/whl/cu118",
    ]


def test_unknown_resolver_is_a_lock_error() -> None:
    with pytest.raises(LockError) as info:
        PipLocker(resolver="poetry")
    assert str(info.value) == "unknown pip resolver 'poetry'; choose one of uv, pip-tools"
