"""`envgen import` of the CUDA 9.1 wheels of 0.3.1 and 0.4.0 (download.pytorch.org/whl/cu91/).

matrices/inferred-builds.yaml records them from public install lines of 2018; before, the
importer moved such a wheel to cu90. Each case runs the real CLI offline.
"""

from __future__ import annotations

from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from envgen.cli import main as envgen_main


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def main(args: tuple[str, ...]) -> None:
    """The real entry point under click's runner."""
    envgen_main(list(args))


@pytest.mark.parametrize(
    ("wheel", "torch", "python"),
    [
        ("torch-0.4.0-cp35-cp35m-linux_x86_64.whl", "0.4.0", "3.5"),
        ("torch-0.3.1-cp36-cp36m-linux_x86_64.whl", "0.3.1", "3.6"),
    ],
)
def test_a_cu91_wheel_url_stays_cuda_9_1(
    tmp_path: Path, wheel: str, torch: str, python: str
) -> None:
    (tmp_path / "requirements.txt").write_text(
        f"http://download.pytorch.org/whl/cu91/{wheel}\ntorchvision\n"
    )
    result = CliRunner().invoke(
        main, ["import", str(tmp_path / "requirements.txt"), "--offline", "--as-of", "2018-05-04"]
    )
    assert result.exit_code == 0, result.stderr
    project = yaml.safe_load(result.stdout)
    assert (project["torch"], project["python"], project["accelerators"]) == (
        torch,
        python,
        ["cu91"],
    )
    assert "now cu90" not in result.stderr
