"""The known incompatibilities reach uv as constraints (local index on 127.0.0.1): torch 2.1.0
(< 2.3) gets numpy < 2 unless the spec's pip: list names numpy."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.lock.piplock import PipLock
from tests.integration.test_lock_pip import lock_body, request_for, v210
from tests.support.fixtures import ServedIndex

pytestmark = pytest.mark.integration


def test_numpy_2_is_kept_out_of_torch_2_1_unless_the_spec_names_numpy(
    pytorch_index: ServedIndex, tmp_path: Path
) -> None:
    constrained = lock_body(request_for(v210("cpu", extra="[]"), pytorch_index, tmp_path))
    assert PipLock.parse(constrained).versions()["numpy"] == "1.26.4"
    named = lock_body(request_for(v210("cpu"), pytorch_index, tmp_path, name="named"))
    assert PipLock.parse(named).versions()["numpy"] == "2.0.0"
