"""The smoke script's cpu/cuda-libraries check: a CUDA build's libraries load without a GPU."""

from __future__ import annotations

import sys
import types

import pytest

from envgen.smoke import script as sc

SITE = "/env/lib/python3.11/site-packages"
LOADED = [
    f"{SITE}/torch/lib/libc10_cuda.so",
    f"{SITE}/torch/lib/libtorch_cuda.so",
    f"{SITE}/nvidia/cu13/lib/libcudart.so.13",
    f"{SITE}/nvidia/cu13/lib/libcublas.so.13",
    f"{SITE}/nvidia/cudnn/lib/libcudnn.so.9",
    f"{SITE}/torchvision.libs/libcudart.faf08d9a.so.13",
    "/usr/lib/x86_64-linux-gnu/libc.so.6",
]


def fake_torch(cuda: str | None, hip: str | None = None, cudnn: int | None = 92400) -> object:
    torch = types.ModuleType("torch")
    torch.__dict__.update(
        version=types.SimpleNamespace(cuda=cuda, hip=hip),
        backends=types.SimpleNamespace(cudnn=types.SimpleNamespace(version=lambda: cudnn)),
    )
    return torch


def outcome(
    monkeypatch: pytest.MonkeyPatch,
    torch: object,
    *,
    loaded: list[str] = LOADED,
    runtime: str | None = "13.0",
    **expect: object,
) -> tuple[object, object]:
    monkeypatch.setattr(sc, "_loaded_libraries", lambda: list(loaded))
    monkeypatch.setattr(sc, "_runtime_version", lambda _path: runtime)
    monkeypatch.setattr(sys, "platform", "linux")
    ctx = sc.Context({"kind": "cuda", "version": "13.0", **expect})
    ctx.modules["torch"] = torch  # type: ignore[assignment]
    entry = sc.run_check(ctx, "cpu", "cuda-libraries", sc.check_cuda_libraries)
    return entry["status"], entry["detail"]


def test_a_cuda_build_names_its_runtime_and_libraries(monkeypatch: pytest.MonkeyPatch) -> None:
    assert outcome(monkeypatch, fake_torch("13.0")) == (
        "pass",
        "CUDA runtime 13.0 (libcudart.faf08d9a.so.13, libcudart.so.13); cuDNN 92400; "
        "loaded: libcublas.so.13 libcudnn.so.9",
    )


def test_a_runtime_of_another_cuda_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    status, detail = outcome(monkeypatch, fake_torch("13.0"), runtime="12.6")
    assert status == "fail"
    assert detail == (
        f"the loaded CUDA runtime {SITE}/nvidia/cu13/lib/libcudart.so.13 is 12.6 but the "
        "variant is cu130 (torch.version.cuda 13.0)"
    )


def test_a_runtime_that_does_not_answer_is_read_from_its_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Without a driver the CUDA 11.7 runtimes of torch 1.13.1 answer error 35 (measured).
    assert outcome(monkeypatch, fake_torch("13.0"), runtime=None) == (
        "pass",
        "CUDA runtime 13 (libcudart.faf08d9a.so.13, libcudart.so.13); version of "
        "libcudart.faf08d9a.so.13, libcudart.so.13 read from the file name "
        "(cudaRuntimeGetVersion() did not answer: no driver); cuDNN 92400; "
        "loaded: libcublas.so.13 libcudnn.so.9",
    )
    status, detail = outcome(monkeypatch, fake_torch("13.0"), runtime=None, version="12.8")
    assert status == "fail"
    assert str(detail).endswith("is 13 but the variant is cu128 (torch.version.cuda 13.0)")


def test_a_runtime_that_does_not_answer_and_has_no_version_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loaded = [f"{SITE}/torch/lib/libc10_cuda.so", f"{SITE}/torch/lib/libcudart.so"]
    status, detail = outcome(monkeypatch, fake_torch("13.0"), loaded=loaded, runtime=None)
    assert (status, detail) == (
        "fail",
        f"{SITE}/torch/lib/libcudart.so is loaded but cudaRuntimeGetVersion() failed",
    )


OLD_LOADED = [
    f"{SITE}/torch/lib/libc10_cuda.so",
    f"{SITE}/torch/lib/libcudart-80664282.so.10.2",
    f"{SITE}/torch/lib/libnvToolsExt-3965bdd0.so.1",
]


def test_a_cuda_10_runtime_without_a_driver_is_read_from_its_file_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # torch 1.6.0's cu102 wheel on a machine without a driver (measured, era suite): the CUDA
    # 9.x-10.x runtimes answer cudaRuntimeGetVersion() only with a driver loaded.
    torch = fake_torch("10.2", cudnn=7605)
    assert outcome(monkeypatch, torch, loaded=OLD_LOADED, runtime=None, version="10.2") == (
        "pass",
        "CUDA runtime 10.2 (libcudart-80664282.so.10.2); version of libcudart-80664282.so.10.2 "
        "read from the file name (cudaRuntimeGetVersion() did not answer: no driver); "
        "cuDNN 7605; loaded: libnvToolsExt-3965bdd0.so.1",
    )
    status, detail = outcome(monkeypatch, torch, loaded=OLD_LOADED, runtime=None, version="10.1")
    assert (status, detail) == (
        "fail",
        f"the loaded CUDA runtime {SITE}/torch/lib/libcudart-80664282.so.10.2 is 10.2 but the "
        "variant is cu101 (torch.version.cuda 10.2)",
    )


@pytest.mark.parametrize(
    ("name", "version"),
    [
        ("libcudart-f7fdd8d7.so.9.0", "9.0"),
        ("libcudart.so.10.1", "10.1"),
        ("libcudart.so.11.0", "11"),
        ("libcudart-e409450e.so.11.0", "11"),
        ("libcudart.so.13", "13"),
        ("libcudart.so", None),
    ],
)
def test_soname_version(name: str, version: str | None) -> None:
    assert sc._soname_version(f"/x/{name}") == version


def test_torch_without_its_cuda_library_loaded_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    status, detail = outcome(monkeypatch, fake_torch("13.0"), loaded=LOADED[2:])
    assert status == "fail"
    assert "libc10_cuda.so) is not loaded" in str(detail)


def test_a_runtime_linked_into_torch_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = [p for p in LOADED if "libcudart" not in p]
    assert outcome(monkeypatch, fake_torch("13.0", cudnn=None), loaded=loaded) == (
        "pass",
        "no separate libcudart (linked into torch); loaded: libcublas.so.13 libcudnn.so.9",
    )


def test_a_cudnn_that_does_not_load_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = fake_torch("13.0")

    def broken() -> int:
        msg = "libcudnn.so.9: cannot open shared object file"
        raise OSError(msg)

    torch.backends.cudnn.version = broken  # type: ignore[attr-defined]
    assert outcome(monkeypatch, torch) == (
        "fail",
        "torch.backends.cudnn.version() raised OSError: libcudnn.so.9: cannot open shared "
        "object file",
    )


@pytest.mark.parametrize(
    ("torch", "reason"),
    [
        (fake_torch(None), sc.CPU_BUILD_SKIP),
        (fake_torch(None, hip="6.1"), "ROCm build (the CUDA libraries are not part of it)"),
    ],
)
def test_builds_without_cuda_skip(
    monkeypatch: pytest.MonkeyPatch, torch: object, reason: str
) -> None:
    assert outcome(monkeypatch, torch) == ("skip", reason)


def test_other_systems_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = sc.Context({"kind": "cuda", "version": "13.0"})
    ctx.modules["torch"] = fake_torch("13.0")  # type: ignore[assignment]
    monkeypatch.setattr(sys, "platform", "win32")
    entry = sc.run_check(ctx, "cpu", "cuda-libraries", sc.check_cuda_libraries)
    assert (entry["status"], entry["detail"]) == (
        "skip",
        "reads the loaded libraries from /proc/self/maps (Linux only)",
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_loaded_libraries_reads_this_process() -> None:
    loaded = sc._loaded_libraries()
    assert any("python" in p or "libc" in p for p in loaded)
    assert len(loaded) == len(set(loaded))


@pytest.mark.parametrize(
    ("name", "matches"),
    [
        ("libcudart.so.13", True),
        ("libcudart-9335f6a2.so.11.0", True),
        ("libcudart.faf08d9a.so.13", True),
        ("libcudnn.so.9", True),
        ("libnvJitLink.so.13", True),
        ("libc10_cuda.so", False),
        ("libcudart_static.a", False),
    ],
)
def test_library_names(name: str, *, matches: bool) -> None:
    assert bool(sc.CUDA_LIBRARY.match(name)) is matches
