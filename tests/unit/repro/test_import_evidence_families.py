"""envgen import: evidence a file gives through packages other than torch, and the channel a
conda listing's build strings name.

Expected answers from primary facts: dglteam's dgl-cudaX.Y recipes depend on `cudatoolkit X.Y`
from dgl 0.6.1 on (dmlc/dgl@d4a1be3266857c963e4a8e76746baeba3be8f369:conda/dgl/meta.yaml) and
pytorch 1.9.0 had conda CUDA builds for 10.2 and 11.1 (`envgen matrix show 1.9.0`); the pytorch
channel's build strings read py3.7_cuda10.0.130_cudnn7.4.1_1 / py3.8_cpu_0, Anaconda's end in
a hash (cuda100py36h938c94c_0), and the pytorch channel's packages before 1.5.1 are deleted,
so such an environment is rebuilt from the pip wheels of the same CUDA.
"""

from __future__ import annotations

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


ENV = """\
name: graphs
channels: [pytorch, dglteam, defaults]
dependencies:
  - python=3.7.11
  - pytorch=1.9.0
  - {dgl}
  - numpy=1.20.3
"""


@pytest.mark.parametrize(
    ("dgl", "accelerators"),
    [
        # Unpinned: the newest dgl-cuda10.2 (0.9.x) depends on cudatoolkit 10.2.
        ("dgl-cuda10.2", ["cu102"]),
        ("dgl-cuda11.1=0.7.2", ["cu111"]),
        # 0.4.3post2's recipe named no cudatoolkit: the newest CUDA build (11.1 for 1.9.0).
        ("dgl-cuda10.2=0.4.3post2", ["cu111"]),
    ],
)
def test_a_cuda_named_conda_package_selects_pytorchs_cuda_build(
    matrix: Matrix, dgl: str, accelerators: list[str]
) -> None:
    result = import_text(ENV.format(dgl=dgl), filename="environment.yml", matrix=matrix)
    assert result.project["accelerators"] == accelerators
    assert result.project["managers"] == ["conda"]
    conda = result.project["conda"]
    assert isinstance(conda, dict)
    assert dgl in conda["dependencies"]
