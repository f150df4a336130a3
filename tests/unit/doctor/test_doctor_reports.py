"""doctor's error explainer on error text quoted from real reports in public issue trackers
(issue 23 item 5): each row is the text as reported (paths shortened where they were redacted
or long), the issue it comes from, and what the diagnosis must say."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from envgen.doctor.explain import explain_error


class Report(NamedTuple):
    url: str
    text: str
    title: str
    cause_has: tuple[str, ...]
    fix_has: tuple[str, ...]
    fix_lacks: tuple[str, ...] = ()


REPORTS: dict[str, Report] = {
    "libcudart-11.0": Report(
        "https://github.com/CannyLab/tsne-cuda/issues/126",
        "ImportError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
        "CUDA 11 runtime library missing: libcudart.so.11.0",
        ("soname of every CUDA 11.x release", "installing CUDA 11.0 to get it is wrong advice"),
        ("CUDA 11.x runtime the package was built with", "cudatoolkit=11.N"),
        ("cudatoolkit=11.0",),
    ),
    "libcudart-11.0-conda-env": Report(
        "https://github.com/SxJyJay/MORE/issues/1",
        "OSError: libcudart.so.11.0: cannot open shared object file: No such file or directory",
        "CUDA 11 runtime library missing: libcudart.so.11.0",
        ("names CUDA 11, not a minor release",),
        ("torch.version.cuda names N",),
        ("cudatoolkit=11.0",),
    ),
    "libcudart-12": Report(
        "https://github.com/pytorch/pytorch/issues/131284",
        "OSError: libcudart.so.12: cannot open shared object file: No such file or directory",
        "CUDA 12 runtime library missing: libcudart.so.12",
        ("soname of every CUDA 12.x release",),
        ("cuda-runtime with cuda-version=12.N",),
    ),
    "libcudart-10.0": Report(
        "https://github.com/pytorch/pytorch/issues/60515",
        "OSError: libcudart.so.10.0: cannot open shared object file: No such file or directory",
        "CUDA runtime library missing: libcudart.so.10.0",
        ("expects the CUDA 10.0 runtime",),
        ("conda install cudatoolkit=10.0",),
    ),
    "oom-1.x": Report(
        "https://github.com/rshaojimmy/MADDoG/issues/11",
        "RuntimeError: CUDA out of memory. Tried to allocate 2.87 GiB (GPU 0; 14.76 GiB total "
        "capacity; 8.77 GiB already allocated; 19.75 MiB free; 13.71 GiB reserved in total by "
        "PyTorch)",
        "CUDA out of memory (asked for 2.87 GiB more)",
        ("on GPU 0 (14.76 GiB in all)", "not an install problem"),
        ("lower the batch size", "PYTORCH_CUDA_ALLOC_CONF"),
    ),
    "oom-2.x": Report(
        "https://github.com/pytorch/pytorch/issues/16417",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 22.00 MiB. GPU 0 has "
        "a total capacity of 23.65 GiB of which 11.06 MiB is free. Including non-PyTorch memory, "
        "this process has 23.60 GiB memory in use.",
        "CUDA out of memory (asked for 22.00 MiB more)",
        ("on GPU 0 (23.65 GiB in all)",),
        ("expandable_segments:True",),
    ),
    "libtorch_cuda_cu-mmcv": Report(
        "https://github.com/MCG-NJU/SparseBEV/issues/83",
        "ImportError: libtorch_cuda_cu.so: cannot open shared object file: No such file or "
        "directory",
        "extension built for torch 1.x: libtorch_cuda_cu.so missing",
        ("torch 2.0 and later ship one libtorch_cuda.so",),
        ("--with NAME", "rebuild it from source"),
    ),
    "libtorch_cuda_cu-oserror": Report(
        "https://github.com/RosettaCommons/RoseTTAFold/issues/48",
        "OSError: libtorch_cuda_cu.so: cannot open shared object file: No such file or directory",
        "extension built for torch 1.x: libtorch_cuda_cu.so missing",
        ("built for an older torch than the one installed",),
        ("lock the torch 1.x release it was built for",),
    ),
    "cudnn-tuple": Report(
        "https://github.com/RaleLee/Co-GAT/issues/2",
        "cuDNN version incompatibility: PyTorch was compiled  against (8, 5, 0) but found runtime "
        "version (8, 3, 3). PyTorch already comes bundled with cuDNN.",
        "cuDNN mismatch: torch built with 8.5.0, loaded 8.3.3",
        ("shadows the one torch comes with",),
        ("LD_LIBRARY_PATH", "cudnn=8.5.0"),
    ),
    "cudnn-integer": Report(
        "https://github.com/VisionLearningGroup/DA_Detection/issues/19",
        "RuntimeError: cuDNN version mismatch: PyTorch was compiled against 7102 but linked "
        "against 7600",
        "cuDNN mismatch: torch built with 7.1.2, loaded 7.6.0",
        ("cuDNN 7.6.0 first",),
        ("cudnn=7.1.2",),
    ),
    "cudnn-incompatibility-integer": Report(
        "https://github.com/akanimax/T2F/issues/6",
        "RuntimeError: cuDNN version incompatibility: PyTorch was compiled against 7401 but "
        "linked against 7301",
        "cuDNN mismatch: torch built with 7.4.1, loaded 7.3.1",
        ("built against cuDNN 7.4.1",),
        ("cudnn=7.4.1",),
    ),
    "nccl": Report(
        "https://github.com/THU-MIG/yolov10/issues/306",
        "ImportError: /root/.local/conda/envs/yolov10/lib/python3.9/site-packages/torch/lib/"
        "libtorch_cuda.so: undefined symbol: ncclCommRegister",
        "NCCL mismatch: undefined symbol ncclCommRegister",
        ("libnccl.so.2 that was loaded does not have", "older NCCL"),
        ("nvidia-nccl version torch's wheel requires",),
        ("rebuild",),
    ),
    "glibcxx-system-shadows-conda": Report(
        "https://github.com/pytorch/pytorch/issues/87279",
        "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.30' not "
        "found (required by /home/u/lib/python3.10/site-packages/torch/lib/libtorch_python.so)",
        "libstdc++ too old: GLIBCXX_3.4.30 not found",
        ("GCC 12.1.0", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6 is the system's", "shadows"),
        ("libstdcxx-ng>=12",),
    ),
    "glibcxx-conda-env-own": Report(
        "https://github.com/pytorch/executorch/pull/2376",
        "ImportError: /opt/conda/envs/py_3.10/bin/../lib/libstdc++.so.6: version "
        "`GLIBCXX_3.4.30' not found (required by /opt/conda/envs/py_3.10/lib/python3.10/"
        "site-packages/torch/lib/libtorch_python.so)",
        "libstdc++ too old: GLIBCXX_3.4.30 not found",
        ("is the environment's own, older than that",),
        ("libstdcxx-ng>=12",),
    ),
    "glibcxx-3.4.32": Report(
        "https://github.com/sophgo/LLM-TPU/issues/166",
        "ImportError: /lib/libstdc++.so.6: version `GLIBCXX_3.4.32' not found (required by "
        "/usr/local/lib64/python3.11/site-packages/torch/lib/libtorch_python.so)",
        "libstdc++ too old: GLIBCXX_3.4.32 not found",
        ("GCC 13.2.0", "(/usr/local/lib64/python3.11/site-packages/torch/lib/libtorch_python.so)"),
        ("at least 13.2.0",),
    ),
    "undefined-symbol-torch-scatter": Report(
        "https://github.com/rusty1s/pytorch_scatter/issues/259",
        "error: ~/.local/lib/python3.7/site-packages/torch_scatter/_scatter_cuda.so: undefined "
        "symbol: _ZNK2at6Tensor6narrowElll",
        "ABI mismatch: torch_scatter built for another torch",
        ("_ZNK2at6Tensor6narrowElll", "built against another torch release"),
        ("--with torch-scatter",),
    ),
    "undefined-symbol-mmcv": Report(
        "https://github.com/open-mmlab/mmcv/issues/2106",
        "ImportError: /opt/conda/lib/python3.8/site-packages/mmcv/_ext.cpython-38-x86_64-linux-"
        "gnu.so: undefined symbol: _ZNK3c1010TensorImpl36is_contiguous_nondefault_policy_implENS_"
        "12MemoryFormatE",
        "ABI mismatch: mmcv built for another torch",
        ("mmcv's compiled module",),
        ("--with mmcv",),
    ),
    "undefined-symbol-cxx11-abi": Report(
        "https://github.com/rusty1s/pytorch_scatter/issues/470",
        "/site-packages/torch_scatter/_version_cuda.so: undefined symbol: "
        "_ZN5torch3jit17parseSchemaOrNameERKSsb",
        "ABI mismatch: torch_scatter built for another torch",
        ("pre-C++11-ABI std::string", "conda-forge"),
        ("install torch from PyPI or PyTorch's index",),
    ),
}


@pytest.mark.parametrize("key", sorted(REPORTS))
def test_real_report(key: str) -> None:
    report = REPORTS[key]
    found = explain_error(report.text)
    assert [d.title for d in found] == [report.title], report.url
    (diagnosis,) = found
    for part in report.cause_has:
        assert part in diagnosis.cause, (report.url, part)
    for part in report.fix_has:
        assert part in diagnosis.fix, (report.url, part)
    for part in report.fix_lacks:
        assert part not in diagnosis.fix, (report.url, part)
