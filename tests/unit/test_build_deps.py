"""Undeclared build dependencies of old sdists become uv's extra-build-dependencies."""

from __future__ import annotations

from envgen.model.build_deps import extra_build_dependencies, pyproject_section, uv_toml


def test_pycocotools_builds_with_cython_and_numpy() -> None:
    assert dict(extra_build_dependencies())["pycocotools"] == ("Cython", "numpy")
    assert '"pycocotools" = ["Cython", "numpy"]\n' in pyproject_section()
    assert pyproject_section().startswith("\n[tool.uv.extra-build-dependencies]\n")
    assert uv_toml().startswith("[extra-build-dependencies]\n")
    assert '"pycocotools" = ["Cython", "numpy"]\n' in uv_toml()
