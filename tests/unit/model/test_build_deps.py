"""Undeclared build dependencies of old sdists become uv's extra-build-dependencies."""

from __future__ import annotations

import pytest

from envgen.model.build_deps import (
    build_constraints,
    extra_build_dependencies,
    pyproject_section,
    uv_toml,
)


def test_pycocotools_builds_with_cython_and_numpy() -> None:
    assert dict(extra_build_dependencies())["pycocotools"] == ("Cython", "numpy")
    assert '"pycocotools" = ["Cython", "numpy"]\n' in pyproject_section()
    assert pyproject_section().startswith("\n[tool.uv.extra-build-dependencies]\n")
    assert uv_toml().startswith("[extra-build-dependencies]\n")
    assert '"pycocotools" = ["Cython", "numpy"]\n' in uv_toml()


def test_build_constraints_only_for_the_affected_pins() -> None:
    """pycocotools <= 2.0.2 builds with Cython < 3 (its setup.py fetches the newest Cython, whose
    `# distutils: sources = ../common/maskApi.c` header points outside the sdist): the build
    constrains Cython only when the lock pins such a pycocotools."""
    lock = "numpy==1.19.5 \\\n    --hash=sha256:00\npycocotools==2.0.2 \\\n    --hash=sha256:11\n"
    assert build_constraints(lock) == ("cython<3", "numpy==1.19.5")  # numpy: the test below
    assert build_constraints("pycocotools==2.0.6 \\\n    --hash=sha256:11\n") == ()
    assert build_constraints("Pycocotools==2.0.0\n") == ("cython<3",)  # names compare normalized
    assert build_constraints("numpy==1.19.5\n") == ()


@pytest.mark.parametrize(
    ("ipdb", "constrained"),
    [("0.11", True), ("0.12", True), ("0.12.2", True), ("0.12.3", False), ("0.13.4", False)],
)
def test_an_ipdb_sdist_that_uses_2to3_builds_with_setuptools_before_58(
    ipdb: str, *, constrained: bool
) -> None:
    """ipdb 0.11-0.12.2 call setup(use_2to3=True), which setuptools 58 removed (the papers
    suite's fcn-instances-pytorch pins ipdb==0.12)."""
    said = build_constraints(f"ipdb=={ipdb} \\\n    --hash=sha256:00\n")
    assert said == (("setuptools<58",) if constrained else ())


def test_an_undeclared_numpy_is_built_at_the_locked_numpy() -> None:
    """numpy's C API is forward compatible only: an sdist the table gives numpy (it imports it in
    setup.py without declaring it) is built against the numpy the lock pins, never a newer one
    (iisignature 0.24 built against numpy 1.24.4 does not import under 1.19.5, measured)."""
    assert dict(extra_build_dependencies())["iisignature"] == ("numpy",)
    lock = "iisignature==0.24 \\\n    --hash=sha256:00\nnumpy==1.19.5 \\\n    --hash=sha256:11\n"
    assert build_constraints(lock) == ("numpy==1.19.5",)
    assert build_constraints("NumPy==1.17.3\npycocotools==2.0.6\n") == ("numpy==1.17.3",)
    # Cython is a build tool, not an ABI: the lock's Cython pin constrains no build
    assert build_constraints("Cython==0.29.7\npycocotools==2.0.6\n") == ()
    # no table package in the lock, or no numpy pinned: nothing
    assert build_constraints("numpy==1.19.5\nscipy==1.5.4\n") == ()
    assert build_constraints("iisignature==0.24\n") == ()
