"""`envgen import` of pixi manifests (pixi.toml, and a pyproject.toml's [tool.pixi.*] tables): the
`default` environment's features, conda [dependencies] (a table's channel), [pypi-dependencies]
(a package's `index`), [pypi-options], [target.linux-64.*], and the features only another
environment uses (alternatives, said in a warning).

Each input is a realistic minimal manifest written here; the expected answers come from the file
and the matrix's published facts: an unpinned torch as of 2024-12-09 is 2.5.1 (2024-10-29), the
newest release then; PyPI's linux wheel of 2.6.0 is the cu124 build; the pytorch channel's 2.4.1
has pytorch-cuda 12.1 builds.
"""

from __future__ import annotations

import datetime as dt

import pytest

from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.importer import detect_kind, import_text
from envgen.repro.importer.detect import parse_text

KEYS = ("python", "torch", "torchvision", "torchaudio", "accelerators", "managers")


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _import(
    text: str, matrix: Matrix, as_of: str = "2024-12-09", filename: str = "pixi.toml"
) -> tuple[dict[str, object], tuple[str, ...]]:
    result = import_text(text, filename=filename, matrix=matrix, as_of=dt.date.fromisoformat(as_of))
    return {k: result.project.get(k) for k in KEYS}, result.warnings


def test_pixi_toml_is_its_own_format() -> None:
    assert detect_kind("pixi.toml", "[workspace]\n") == "pixi"
    assert detect_kind("pyproject.toml", "[tool.pixi.workspace]\n") == "pyproject"


PYPI_TORCH = """\
[workspace]
channels = ["conda-forge"]
name = "tracker"
platforms = ["linux-64"]

[system-requirements]
cuda = "12.4"

[dependencies]
python = ">=3.10, <3.11"
cuda-version = "==12.4"

[pypi-dependencies]
torch = { version = "==2.6.0", index = "https://download.pytorch.org/whl/cu124" }
torchvision = { version = "==0.21.0", index = "https://download.pytorch.org/whl/cu124" }
warp-lang = { version = "==1.9.0", extras = ["extras"] }

[tasks]
build = "pip install torch-cluster -f https://data.pyg.org/whl/torch-2.6.0+cu124.html"
"""


def test_pypi_torch_from_its_index_and_a_one_minor_python_range(matrix: Matrix) -> None:
    keys, warnings = _import(PYPI_TORCH, matrix, as_of="2026-03-04")
    assert keys == {
        "python": "3.10", "torch": "2.6.0", "torchvision": "0.21.0", "torchaudio": False,
        "accelerators": ["cu124"], "managers": ["pip"],
    }  # fmt: skip
    assert (
        "pixi.toml:7 [system-requirements]: cuda = '12.4' is the CUDA the machine's driver must "
        "support (the __cuda virtual package the solver sees), not a build: it chooses none by "
        "itself (with conda-forge's pytorch it bounds the CUDA build)"
    ) in warnings


def test_pypi_dependencies_become_requirements_with_their_index() -> None:
    found = parse_text(PYPI_TORCH, filename="pixi.toml", base=None)
    assert found.kind == "pixi"
    assert found.indexes == [("extra-index-url", "https://download.pytorch.org/whl/cu124")]
    assert found.pip_reqs == ["warp-lang[extras]==1.9.0"]
    assert found.torch is not None
    assert (found.torch.version, found.torch_manager) == ("2.6.0", "pip")
    assert found.channels == ["conda-forge"]


CONDA_TORCH = """\
[project]
channels = ["nvidia/label/cuda-12.4.0", "nvidia", "conda-forge", "pytorch"]
name = "course"
platforms = ["linux-64", "win-64"]

[dependencies]
python = "3.12"
cuda = { version = "*", channel = "nvidia/label/cuda-12.4.0" }
pytorch = { version = "*", channel = "pytorch" }
torchvision = { version = "*", channel = "pytorch" }
pytorch-cuda = { version = "12.4", channel = "pytorch" }
tqdm = "*"

[pypi-dependencies]
torch_tb_profiler = "*"
"""


def test_conda_pytorch_from_the_pytorch_channel_with_pytorch_cuda(matrix: Matrix) -> None:
    keys, _ = _import(CONDA_TORCH, matrix)
    assert keys == {
        "python": "3.12", "torch": "2.5.1", "torchvision": True, "torchaudio": False,
        "accelerators": ["cu124"], "managers": ["conda"],
    }  # fmt: skip


FEATURES = """\
[workspace]
channels = ["conda-forge"]
platforms = ["linux-64", "osx-arm64"]

[dependencies]
python = "3.11.*"

[feature.cuda.pypi-dependencies]
torch = { version = "*", index = "https://download.pytorch.org/whl/cu121" }

[feature.cpu.pypi-dependencies]
torch = { version = "*", index = "https://download.pytorch.org/whl/cpu" }

[environments]
{environments}
"""


def test_the_default_environment_is_the_features_it_lists(matrix: Matrix) -> None:
    text = FEATURES.replace("{environments}", 'default = ["cuda"]\ncpu = ["cpu"]')
    keys, warnings = _import(text, matrix)
    assert keys == {
        "python": "3.11", "torch": "2.5.1", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu121"], "managers": ["pip"],
    }  # fmt: skip
    assert (
        "pixi.toml: [feature.cpu.*] names torch, but only the environment(s) cpu (`pixi run -e "
        "cpu`) include the feature: an alternative, not the default environment envgen imports; "
        "left out"
    ) in warnings


def test_without_a_default_entry_the_default_environment_is_the_default_feature() -> None:
    text = FEATURES.replace("{environments}", 'gpu = ["cuda"]\ncpu = ["cpu"]')
    found = parse_text(text, filename="pixi.toml", base=None)
    assert found.torch is None  # neither feature is in the default environment
    assert found.python == "3.11"
    assert any("[feature.cuda.*] names torch, but only the environment(s) gpu" in w
               for w in found.warnings)  # fmt: skip


def test_no_default_feature_leaves_the_top_level_tables_out() -> None:
    text = FEATURES.replace(
        "{environments}", 'default = { features = ["cpu"], no-default-feature = true }'
    )
    found = parse_text(text, filename="pixi.toml", base=None)
    assert found.python is None  # [dependencies] python belongs to the default feature
    assert found.indexes == [("extra-index-url", "https://download.pytorch.org/whl/cpu")]


def test_linux_target_tables_and_pypi_options(matrix: Matrix) -> None:
    text = """\
[workspace]
channels = ["conda-forge"]
platforms = ["linux-64", "osx-arm64"]

[pypi-options]
extra-index-urls = ["https://download.pytorch.org/whl/cu118"]

[dependencies]
python = "~=3.10.0"

[target.linux-64.pypi-dependencies]
torch = "==2.1.0"

[target.osx-arm64.pypi-dependencies]
torch = "==2.2.0"
"""
    keys, _ = _import(text, matrix)
    assert keys == {
        "python": "3.10", "torch": "2.1.0", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu118"], "managers": ["pip"],
    }  # fmt: skip


def test_a_pyproject_reads_its_tool_pixi_tables(matrix: Matrix) -> None:
    text = """\
[project]
name = "demo"
requires-python = ">=3.9"
dependencies = ["numpy"]

[tool.pixi.workspace]
channels = ["pytorch", "nvidia", "conda-forge"]
platforms = ["linux-64"]

[tool.pixi.dependencies]
python = "3.10.*"
pytorch = { version = "==2.4.1", channel = "pytorch" }
pytorch-cuda = { version = "12.1.*", channel = "pytorch" }

[tool.pixi.pypi-dependencies]
demo = { path = ".", editable = true }
"""
    keys, _ = _import(text, matrix, filename="pyproject.toml")
    assert keys == {
        "python": "3.10", "torch": "2.4.1", "torchvision": False, "torchaudio": False,
        "accelerators": ["cu121"], "managers": ["conda"],
    }  # fmt: skip


def test_a_source_built_torch_is_said_and_left_out() -> None:
    text = '[pypi-dependencies]\ntorch = { git = "https://github.com/pytorch/pytorch" }\n'
    found = parse_text(text, filename="pixi.toml", base=None)
    assert found.torch is None
    assert found.warnings == [
        "pixi.toml:2 [pypi-dependencies]: torch comes from {'git': "
        "'https://github.com/pytorch/pytorch'}, not a released version; left out (pin a "
        "released version in pip: if the paper needs it)"
    ]


def test_not_toml_is_a_problem_for_the_file() -> None:
    found = parse_text("[workspace\n", filename="pixi.toml", base=None)
    assert len(found.problems) == 1
    assert found.problems[0].startswith("pixi.toml: not valid TOML (")


def test_a_pypi_version_without_an_operator_is_read_as_that_version_and_said() -> None:
    """pixi refuses `torch = "2.1.0"` (PEP 440 needs an operator); the import reads the version
    it names, says so, and says how to write it (it used to read no torch, without a word)."""
    text = (
        '[pypi-dependencies]\ntorch = "2.1.0"\ntorchvision = { version = "0.16.0" }\n'
        'numpy = "1.26.4"\n'
    )
    found = parse_text(text, filename="pixi.toml", base=None)
    assert found.torch is not None
    assert found.torch.version == "2.1.0"
    assert found.warnings == [
        "pixi.toml:2 [pypi-dependencies]: torch = '2.1.0' has no comparison operator (pixi "
        'refuses it); read as ==2.1.0 (write "==2.1.0")',
        "pixi.toml:3 [pypi-dependencies]: torchvision = '0.16.0' has no comparison operator "
        '(pixi refuses it); read as ==0.16.0 (write "==0.16.0")',
    ]
    assert "numpy==1.26.4" in [str(r) for r in found.pip_reqs]
