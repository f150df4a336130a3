"""`envgen import` of a pytorch-channel line that names no selector in the cuda-metapackage era.

In 0.4.1-1.0.0 the pytorch channel's CUDA builds other than CUDA 9.0 carried a track feature
that their cuda80/cuda92/cuda100 metapackage selects (pytorch/builder conda/cudaXY/meta.yaml),
and the 0.4.1-era quick-start published CUDA 9.0 as the plain `conda install pytorch torchvision
-c pytorch` (tests/data/recorded/copies/quick-start-module-0.4.1-conda.js); CPU was the separate
pytorch-cpu package. Before 0.4.1 the featureless build was another: CUDA 8.0 for 0.3.x-0.4.0
(cuda90/cuda91 featured) and CUDA 7.5 for 0.2.0 (pytorch/builder@0f6af9a0's recipes). matrices/conda.yaml marks that build `conda-default`. From 1.0.1 the builds
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


def test_one_featureless_build_a_release_of_the_metapackage_era() -> None:
    marked = sorted(
        (b.release, b.accelerator, b.platforms) for b in load_matrix().conda if b.conda_default
    )
    assert marked == [
        ("0.2.0", "cu75", ("linux-64",)),
        ("0.3.0", "cu80", ("linux-64",)),
        ("0.3.1", "cu80", ("linux-64",)),
        ("0.4.0", "cu80", ("linux-64",)),
        ("0.4.1", "cu90", ("linux-64",)),
        ("1.0.0", "cu90", ("linux-64", "win-64")),
    ]


@pytest.mark.parametrize(
    ("pin", "as_of", "torch", "featureless", "others"),
    [
        ("pytorch=0.4", "2018-06-07", "0.4.0", "cu80", "cuda90/cuda91"),
        ("pytorch=0.3.1", "2018-03-01", "0.3.1", "cu80", "cuda90/cuda91"),
        ("pytorch=0.3.0", "2017-12-20", "0.3.0", "cu80", "cuda75/cuda90"),
        ("pytorch=0.2.0", "2017-10-01", "0.2.0", "cu75", "cuda80"),
    ],
)
def test_before_0_4_1_the_featureless_build_was_older(
    tmp_path: Path, pin: str, as_of: str, torch: str, featureless: str, others: str
) -> None:
    """deep-image-prior's `pytorch=0.4` of 2018-06-07 got the CUDA 8.0 build, as exports of the
    time hold (py36_cuda8.0.61_cudnn7.1.2_1); a metapackage still selects its own build."""
    text = f"channels: [pytorch]\ndependencies:\n  - python=3.6\n  - {pin}\n"
    project, err = _import(tmp_path, "environment.yml", text, "--as-of", as_of)
    assert (project["torch"], project["accelerators"]) == (torch, [featureless])
    assert f"featureless build, {featureless} (the {others} metapackages" in err
    last = others.rsplit("/", maxsplit=1)[-1]  # a featured build, by its metapackage
    project, _ = _import(tmp_path, "environment.yml", f"{text}  - {last}\n", "--as-of", as_of)
    assert project["accelerators"] == ["cu" + last.removeprefix("cuda")]
