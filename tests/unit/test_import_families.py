"""`envgen import` of the families the held-out corpus missed (issue 24), each a general mechanism.

Every fixture here is written for this file (none is copied from a corpus file). Expected answers
follow from the shipped matrix (`envgen matrix show <version>`) and the facts named beside each
case.
"""

from __future__ import annotations

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import ImportResult, import_text


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _import(matrix: Matrix, filename: str, text: str) -> ImportResult:
    return import_text(text, filename=filename, matrix=matrix)


def _keys(result: ImportResult) -> tuple[object, ...]:
    p = result.project
    return (p.get("python"), p["torch"], p["accelerators"], p["managers"])


# --- conda CUDA builds the page does not list ----------------------------------------------------
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # pytorch-1.8.1-py3.7_cuda10.1_cudnn7.6.3_0 was on the pytorch channel (matrices/
        # inferred-builds.yaml cites the table of the channel's packages); the page lists 10.2/11.3.
        ("conda install -y pytorch==1.8.1 torchvision==0.9.1 cudatoolkit=10.1 -c pytorch",
         (None, "1.8.1", ["cu101"], ["conda"])),
        ("conda install pytorch=1.8.0 torchvision cudatoolkit=10.1 -c pytorch",
         (None, "1.8.0", ["cu101"], ["conda"])),
        ("conda install pytorch==1.10.2 cudatoolkit=11.1 -c pytorch -c nvidia",
         (None, "1.10.2", ["cu111"], ["conda"])),
    ],
    ids=["1.8.1-cu101", "1.8.0-cu101", "1.10.2-cu111"],
)  # fmt: skip
def test_a_conda_cuda_build_the_channel_had_is_kept(
    matrix: Matrix, line: str, expected: tuple[object, ...]
) -> None:
    result = _import(matrix, "install.sh", line + "\n")
    assert _keys(result) == expected
    assert not any("the compute platform was" in w for w in result.warnings)


def test_a_conda_cuda_build_that_never_existed_still_moves(matrix: Matrix) -> None:
    # torch 1.9.0 was never built for CUDA 10.1 on either route (matrix show 1.9.0).
    result = _import(
        matrix, "install.sh", "conda install pytorch==1.9.0 cudatoolkit=10.1 -c pytorch\n"
    )
    assert result.project["accelerators"] == ["cu102"]
    assert any("the compute platform was cu101, now cu102" in w for w in result.warnings)


def test_no_torch_is_still_refused(matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match="no torch"):
        _import(matrix, "requirements.txt", "numpy==1.19.2\n")
