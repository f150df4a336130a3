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


EXPORT = """\
# This file may be used to create an environment using:
# $ conda create --name <env> --file <this file>
# platform: linux-64
cuda100=1.0=0
numpy=1.15.4=py37h1d66e8a_0
python=3.7.1=h0371630_3
{pytorch}
torchvision=0.2.1=py37_1
"""


def test_a_pytorch_channel_build_in_an_unchanneled_export_is_the_pytorch_channels(
    matrix: Matrix,
) -> None:
    """`conda list --export` records no channels; the build string says the pytorch channel,
    whose 1.0.0 packages are deleted: the pip wheels of the same CUDA (cu100)."""
    result = import_text(
        EXPORT.format(pytorch="pytorch=1.0.0=py3.7_cuda10.0.130_cudnn7.4.1_1"),
        filename="conda_packagelist.txt",
        matrix=matrix,
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.0.0", ["cu100"])
    assert result.project["managers"] == ["pip"]
    assert result.warnings[0] == (
        "conda_packagelist.txt:7: pytorch=1.0.0=py3.7_cuda10.0.130_cudnn7.4.1_1 is a pytorch "
        "channel build (its build string names python, CUDA and cuDNN, as only that channel's "
        "do), so project.yaml takes it from -c pytorch"
    )


def test_an_anaconda_build_stays_on_the_defaults_channel(matrix: Matrix) -> None:
    """Anaconda's own build (a hash at the end): the defaults channel kept it."""
    result = import_text(
        EXPORT.format(pytorch="pytorch=1.0.0=cuda100py37he554f03_0"),
        filename="conda_packagelist.txt",
        matrix=matrix,
    )
    assert result.project["managers"] == ["conda"]
    assert not [w for w in result.warnings if "is a pytorch channel build" in w]


def test_a_listing_that_names_the_channel_needs_no_inference(matrix: Matrix) -> None:
    table = (
        "# Name                    Version                   Build  Channel\n"
        "python                    3.7.1                h0371630_3\n"
        "pytorch                   1.0.0       py3.7_cuda10.0.130_cudnn7.4.1_1    pytorch\n"
        "torchvision               0.2.1                    py37_1    pytorch\n"
    )
    result = import_text(table, filename="conda_list.txt", matrix=matrix)
    assert (result.project["managers"], result.project["accelerators"]) == (["pip"], ["cu100"])
    assert not [w for w in result.warnings if "is a pytorch channel build" in w]
