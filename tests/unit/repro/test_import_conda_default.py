"""`envgen import` of a pytorch-channel line that names no selector in the cuda-metapackage era.

In 0.4.x-1.0.0 the pytorch channel's CUDA builds other than CUDA 9.0 carried a track feature
that their cuda80/cuda92/cuda100 metapackage selects (pytorch/builder conda/cudaXY/meta.yaml),
and the 0.4.1-era quick-start published CUDA 9.0 as the plain `conda install pytorch torchvision
-c pytorch` (tests/data/recorded/copies/quick-start-module-0.4.1-conda.js); CPU was the separate
pytorch-cpu package. matrices/conda.yaml marks that build `conda-default`. From 1.0.1 the builds
depend on cudatoolkit and the newest one is taken. Each case runs the real CLI offline.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from envgen.cli import main as envgen_main
from envgen.model.matrix import load_matrix


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def main(args: tuple[str, ...]) -> None:
    """The real entry point under click's runner."""
    envgen_main(list(args))


def _import(tmp_path: Path, name: str, text: str, *args: str) -> tuple[dict[str, object], str]:
    (tmp_path / name).write_text(text)
    result = CliRunner().invoke(main, ["import", str(tmp_path / name), "--offline", *args])
    assert result.exit_code == 0, result.stderr
    return yaml.safe_load(result.stdout), result.stderr


@pytest.mark.parametrize(
    ("text", "as_of", "torch"),
    [
        ("channels: [pytorch]\ndependencies:\n  - python=3.6\n  - pytorch=0.4.1\n", None, "0.4.1"),
        ("channels: [pytorch]\ndependencies:\n  - pytorch\n  - tqdm\n", "2018-12-24", "1.0.0"),
        ("channels: [pytorch]\ndependencies:\n  - pytorch\n", "2018-10-01", "0.4.1"),
    ],
)
def test_no_metapackage_takes_the_featureless_cuda_9_0_build(
    tmp_path: Path, text: str, as_of: str | None, torch: str
) -> None:
    project, err = _import(
        tmp_path, "environment.yml", text, *(("--as-of", as_of) if as_of else ())
    )
    assert (project["torch"], project["accelerators"]) == (torch, ["cu90"])
    assert "featureless build, cu90" in err


def test_a_plain_install_line_of_the_1_0_era_is_cuda_9_0(tmp_path: Path) -> None:
    project, _ = _import(
        tmp_path,
        "install.sh",
        "conda create -n env python=3.6\nconda install pytorch torchvision -c pytorch\n",
        "--as-of",
        "2018-12-12",
    )
    assert (project["torch"], project["accelerators"]) == ("1.0.0", ["cu90"])


@pytest.mark.parametrize(
    ("line", "acc"),
    [
        ("conda install pytorch=1.0.0 torchvision cuda100 -c pytorch\n", "cu100"),
        ("conda install pytorch=0.4.1 cuda80 -c pytorch\n", "cu80"),
        ("conda install pytorch=0.4.1 cuda92 -c pytorch\n", "cu92"),
        ("conda install pytorch-cpu=1.0.0 torchvision-cpu -c pytorch\n", "cpu"),
    ],
)
def test_a_metapackage_or_the_cpu_package_still_selects_its_build(
    tmp_path: Path, line: str, acc: str
) -> None:
    project, err = _import(tmp_path, "install.sh", line)
    assert project["accelerators"] == [acc]
    assert "featureless" not in err


def test_the_cudatoolkit_era_still_takes_the_newest_cudatoolkit(tmp_path: Path) -> None:
    project, err = _import(tmp_path, "install.sh", "conda install pytorch=1.0.1 -c pytorch\n")
    assert project["accelerators"] == ["cu100"]
    assert "featureless" not in err


def test_only_the_cuda_9_0_builds_of_the_metapackage_era_are_conda_default() -> None:
    marked = sorted(
        (b.release, b.accelerator, b.platforms) for b in load_matrix().conda if b.conda_default
    )
    assert marked == [
        ("0.4.1", "cu90", ("linux-64",)),
        ("1.0.0", "cu90", ("linux-64", "win-64")),
    ]
