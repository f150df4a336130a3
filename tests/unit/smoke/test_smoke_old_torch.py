"""The smoke script on old pythons and old environments: installed versions without
importlib.metadata or pkg_resources (python 3.6-3.7 in a uv environment)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.smoke import script as sc


def _dist_info(root: Path, folder: str, version: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: x\nVersion: {version}\n\nbody\nVersion: 0\n",
        encoding="utf-8",
    )


def test_scan_reads_dist_info_and_egg_info(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _dist_info(site, "torch-1.0.1.dist-info", "1.0.1")
    _dist_info(site, "Pillow-6.2.2.dist-info", "6.2.2")
    (site / "six-1.16.0.egg-info").mkdir()
    (site / "six-1.16.0.egg-info" / "PKG-INFO").write_text("Name: six\nVersion: 1.16.0\n")
    (site / "tqdm-4.31.1.egg-info").write_text("Metadata-Version: 1.1\nVersion: 4.31.1\n")
    paths = [str(tmp_path / "absent"), str(site)]
    assert sc._scan_distribution_version("torch", paths) == "1.0.1"
    assert sc._scan_distribution_version("pillow", paths) == "6.2.2"  # normalized names
    assert sc._scan_distribution_version("six", paths) == "1.16.0"
    assert sc._scan_distribution_version("tqdm", paths) == "4.31.1"
    assert sc._scan_distribution_version("torchvision", paths) is None


def test_scan_takes_the_first_path_that_has_it(tmp_path: Path) -> None:
    _dist_info(tmp_path / "a", "torch-2.0.0.dist-info", "2.0.0")
    _dist_info(tmp_path / "b", "torch-1.0.0.dist-info", "1.0.0")
    paths = [str(tmp_path / "a"), str(tmp_path / "b")]
    assert sc._scan_distribution_version("torch", paths) == "2.0.0"
    assert sc._scan_distribution_version("torch", paths[::-1]) == "1.0.0"


@pytest.mark.parametrize(
    ("version", "floor"), [("2.8.3", (8, 0)), ("2.0.0", (8, 0)), ("1.0.9", (7, 5))]
)
def test_flash_attn_floor(version: str, floor: tuple[int, int]) -> None:
    assert sc.flash_attn_floor(version) == floor


@pytest.mark.parametrize(
    ("target", "name"),
    [(90010, "gfx90a"), (90008, "gfx908"), (90402, "gfx942"), (100300, "gfx1030"),
     (110000, "gfx1100"), (110501, "gfx1151")],
)  # fmt: skip
def test_gfx_name(target: int, name: str) -> None:
    assert sc._gfx_name(target) == name
