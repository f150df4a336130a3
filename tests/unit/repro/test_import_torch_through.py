"""A file that names no torch still installs one through its packages' Requires-Dist
(envgen.repro.through; issue 24: `timm==0.4.12` brings torch>=1.4 and torchvision, `diffusers==
0.3.0` torch>=1.4, `torch-ac>=1.1.0` torch>=1.0.0). Read from a tiny folder (`file:`) index:
`<name>/index.json` (PEP 691) and `<name>/<wheel>.metadata`; no connection is opened."""

from __future__ import annotations

import datetime as dt
import io
import json
import tarfile
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from envgen.errors import ImportSpecError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from envgen.repro.through import (
    Brought,
    _sdist_requires,
    _wheel_member,
    brought_in,
    chosen_version,
    family_requires,
    metadata_file,
)


@pytest.fixture(scope="module")
def matrix() -> Matrix:
    return load_matrix()


def _package(index: Path, name: str, files: dict[str, str], metadata: dict[str, str]) -> None:
    """A project's page (file name -> upload date) and its wheels' metadata texts."""
    folder = index / name
    folder.mkdir(parents=True)
    page = {"files": [{"filename": f, "upload-time": t} for f, t in files.items()], "name": name}
    (folder / "index.json").write_text(json.dumps(page))
    for filename, text in metadata.items():
        (folder / f"{filename}.metadata").write_text(text)


@pytest.fixture
def index(tmp_path: Path) -> Path:
    root = tmp_path / "simple"
    _package(
        root,
        "vision-kit",
        {"vision_kit-0.4-py3-none-any.whl": "2021-06-30", "vision_kit-0.4.tar.gz": "2021-06-30"},
        {
            "vision_kit-0.4-py3-none-any.whl": "Metadata-Version: 2.1\nName: vision-kit\n"
            "Version: 0.4\nRequires-Dist: torch (>=1.4)\nRequires-Dist: torchvision\n"
            "Requires-Dist: torchaudio ; extra == 'audio'\n"
            "Requires-Dist: torch (<1.0) ; sys_platform == 'win32'\n"
        },
    )
    _package(
        root,
        "scale-kit",
        {
            "scale_kit-1.0-py3-none-any.whl": "2021-01-01",
            "scale_kit-2.0-py3-none-any.whl": "2022-06-01",
        },
        {
            "scale_kit-1.0-py3-none-any.whl": "Name: scale-kit\nRequires-Dist: torch>=1.8.0\n",
            "scale_kit-2.0-py3-none-any.whl": "Name: scale-kit\nRequires-Dist: torch>=1.12\n",
        },
    )
    _package(
        root,
        "serve-kit",
        {"serve_kit-0.22-py3-none-any.whl": "2026-06-05"},
        {
            "serve_kit-0.22-py3-none-any.whl": "Name: serve-kit\nRequires-Dist: torch==2.11.0\n"
            "Requires-Dist: torchvision==0.26.0\nRequires-Dist: torchaudio==2.11.0\n"
        },
    )
    _package(root, "old-tool", {"old-tool-0.7.tar.gz": "2019-01-01"}, {})
    _package(
        root,
        "plain",
        {"plain-1.0-py3-none-any.whl": "2020-01-01"},
        {"plain-1.0-py3-none-any.whl": "Name: plain\nRequires-Dist: numpy\n"},
    )
    return root


def _import(
    tmp_path: Path, text: str, index: Path | None, matrix: Matrix, as_of: str
) -> dict[str, Any]:
    source = tmp_path / "requirements.txt"
    source.write_text(text)
    options = ImportOptions(
        source=source,
        as_of=as_of,
        pypi_index=index.as_uri() if index is not None else None,
        cache_root=tmp_path / "cache",
    )
    result = run_import(options, matrix)
    return {"project": result.project, "warnings": result.warnings}


def test_torch_and_torchvision_come_in_through_a_pinned_package(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    got = _import(tmp_path, "vision-kit==0.4\nplain\n", index, matrix, "2022-01-28")
    assert got["project"]["torch"] == "1.10.2"  # the newest release by then that >=1.4 allows
    assert got["project"]["torchvision"] is True
    assert got["project"]["torchaudio"] is False  # only in the `audio` extra
    assert any("through the Requires-Dist of vision-kit==0.4" in w for w in got["warnings"])


def test_every_constraint_counts_and_a_range_takes_the_release_of_the_date(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    # scale-kit unpinned on 2022-01-28: 1.0 (2.0 came later), torch>=1.8.0; with >=1.4
    got = _import(tmp_path, "vision-kit==0.4\nscale-kit\n", index, matrix, "2022-01-28")
    assert got["project"]["torch"] == "1.10.2"
    # pinned to 2.0: torch>=1.12 rules out 1.10.2 (the range is joined: >=1.4,>=1.12)
    got = _import(tmp_path, "vision-kit==0.4\nscale-kit==2.0\n", index, matrix, "2022-10-15")
    assert got["project"]["torch"] == "1.12.1"


def test_no_torch_through_the_packages_is_still_refused(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    with pytest.raises(ImportSpecError, match="no torch"):
        _import(tmp_path, "plain==1.0\nold-tool\nmissing-pkg\n", index, matrix, "2022-01-28")


def test_a_companion_only_a_package_brings_in_beside_a_named_torch(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    """A file that names torch but not torchvision, beside a package that requires torchvision:
    pip installs one, so project.yaml names it (torch's own build, not whatever PyPI serves)."""
    got = _import(tmp_path, "torch==1.10.1\nvision-kit==0.4\n", index, matrix, "2022-01-28")
    assert (got["project"]["torch"], got["project"]["torchvision"]) == ("1.10.1", True)
    assert got["project"]["torchaudio"] is False
    assert any("names no torchvision; it comes in through" in w for w in got["warnings"])
    # Nothing brings one in: nothing is said.
    got = _import(tmp_path, "torch==1.10.1\nplain\n", index, matrix, "2022-01-28")
    assert got["project"]["torchvision"] is False
    assert not any("Requires-Dist" in w for w in got["warnings"])
    # Offline, a file that names torch gets no warning about what is not read.
    got = _import(tmp_path, "torch==1.10.1\nvision-kit==0.4\n", None, matrix, "2022-01-28")
    assert got["project"]["torchvision"] is False
    assert not any("Requires-Dist" in w for w in got["warnings"])


def test_offline_reads_no_metadata_and_says_so(tmp_path: Path, matrix: Matrix) -> None:
    with pytest.raises(ImportSpecError, match="Requires-Dist of the 1 package"):
        _import(tmp_path, "vision-kit==0.4\n", None, matrix, "2022-01-28")


def test_an_sdist_only_release_is_read_from_its_recorded_metadata(
    tmp_path: Path, index: Path
) -> None:
    def ask() -> tuple[list[Brought], list[str]]:
        return brought_in(
            ["old-tool", "plain"],
            index=index.as_uri(),
            cache_dir=tmp_path / "c",
            as_of=dt.date(2022, 1, 1),
            timeout=1,
        )

    brought, notes = ask()
    assert brought == []
    assert len(notes) == 1
    assert notes[0].startswith("old-tool==0.7: the index has no core metadata")
    (index / "old-tool" / "old-tool-0.7.tar.gz.metadata").write_text(
        "Name: old-tool\nRequires-Dist: torch\nRequires-Dist: torchvision\n"
    )
    assert ask() == (
        [
            Brought(package="old-tool==0.7", name="torch", specifier=""),
            Brought(package="old-tool==0.7", name="torchvision", specifier=""),
        ],
        [],
    )


def test_an_sdists_setup_py_is_read_in_memory() -> None:
    setup = (
        b"from setuptools import setup\nMIN = '1.7'\n"
        b"setup(name='g', install_requires=['torch>=' + MIN, 'scipy'])\n"
    )
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in (("g-1.0/setup.py", setup), ("g-1.0/docs/setup.py", b"boom(")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    text = _sdist_requires("g", "g-1.0.tar.gz", buffer.getvalue()).decode()
    assert family_requires(text) == [("torch", ">=1.7")]
    with pytest.raises(ValueError, match="could not be read"):
        _sdist_requires("g", "g-1.0.tar.gz", b"not a tar")


def test_a_wheels_metadata_is_read_through_range_requests(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        wheel.writestr("w/__init__.py", "x = 1\n" * 5000)
        wheel.writestr("w-1.0.dist-info/METADATA", "Name: w\nRequires-Dist: torch>=2\n\nbody")
    data = buffer.getvalue()
    asked: list[str] = []

    def fake_get(_url: str, **kw: Any) -> SimpleNamespace:
        spec = kw["headers"]["Range"].removeprefix("bytes=")
        asked.append(spec)
        if spec.startswith("-"):
            return SimpleNamespace(body=data[int(spec) :])
        first, last = (int(x) for x in spec.split("-"))
        return SimpleNamespace(body=data[first : last + 1])

    monkeypatch.setattr("envgen.infra.network.http_get", fake_get)
    text = _wheel_member("https://files.example/w-1.0-py3-none-any.whl", 1).decode()
    assert family_requires(text) == [("torch", ">=2")]
    assert len(asked) == 2  # the tail (the directory fits in it), then the member


def test_the_helpers() -> None:
    page = {
        "files": [
            {"filename": "x-1.0-cp38-cp38-win_amd64.whl"},
            {"filename": "x-1.0-cp38-cp38-manylinux1_x86_64.whl"},
            {"filename": "x-1.0-py3-none-any.whl", "yanked": "broken"},
        ]
    }
    picked = metadata_file("x", chosen_version("==1.0", page, "x", None), page)  # type: ignore[arg-type]
    assert picked == {"filename": "x-1.0-cp38-cp38-manylinux1_x86_64.whl"}
    # a marker holding for some python on linux is taken; an extra's, or win32's, is not
    assert family_requires(
        "Requires-Dist: torch>=1.7; python_version >= '3.7'\n"
        "Requires-Dist: torchvision; extra == 'vision'\n"
        "Requires-Dist: torchaudio; platform_system == 'Windows'\n"
    ) == [("torch", ">=1.7")]


def test_exact_companions_a_package_pins_beside_its_exact_torch_are_torchs_own(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    """vllm-like: a package pins torch==2.11.0, torchvision==0.26.0 and torchaudio==2.11.0. The
    file names no companion: pip installs the ones it pins, torch's pair, so project.yaml takes
    the companions matching torch (true), as for a companion the file names unpinned."""
    got = _import(tmp_path, "serve-kit==0.22\n", index, matrix, "2026-06-13")
    project = got["project"]
    assert (project["torch"], project["torchvision"], project["torchaudio"]) == (
        "2.11.0",
        True,
        True,
    )


# A torch a base image or conda installed, replaced by pip where a package installed after it
# requires more (envgen.repro.entry._floors_over_installed; the kornia entries of CORPUS.yaml).


def _floors(root: Path) -> None:
    _package(
        root,
        "warp-kit",
        {
            "warp_kit-0.5-py3-none-any.whl": "2021-01-01",
            "warp_kit-0.6-py3-none-any.whl": "2022-05-17",
        },
        {
            "warp_kit-0.5-py3-none-any.whl": "Name: warp-kit\nRequires-Dist: torch>=1.6.0\n",
            "warp_kit-0.6-py3-none-any.whl": "Name: warp-kit\nRequires-Dist: torch>=1.8.1\n",
        },
    )
    _package(
        root,
        "old-fn",
        {"old_fn-0.2-py3-none-any.whl": "2022-06-01"},
        {"old_fn-0.2-py3-none-any.whl": "Name: old-fn\nRequires-Dist: torch<1.13,>=1.12.1\n"},
    )
    _package(
        root,
        "lightning-kit",
        {"lightning_kit-2.3-py3-none-any.whl": "2022-06-01"},
        {"lightning_kit-2.3-py3-none-any.whl": "Name: lightning-kit\nRequires-Dist: torch>=2.0\n"},
    )


def _import_file(
    tmp_path: Path, name: str, text: str, index: Path, matrix: Matrix, as_of: str | None
) -> dict[str, Any]:
    source = tmp_path / name
    source.write_text(text)
    options = ImportOptions(
        source=source, as_of=as_of, pypi_index=index.as_uri(), cache_root=tmp_path / "cache"
    )
    result = run_import(options, matrix)
    return {"project": result.project, "warnings": result.warnings}


def test_a_later_package_s_floor_replaces_an_image_s_torch(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    _floors(index)
    text = "FROM pytorch/pytorch:1.4-cuda10.1-cudnn7-devel\nRUN pip install warp-kit\n"
    got = _import_file(tmp_path, "Dockerfile", text, index, matrix, "2022-07-16")
    project = got["project"]
    # warp-kit 0.6 (the newest by then) asks torch>=1.8.1: pip installs PyPI's newest, 1.12.0
    assert (project["torch"], project["accelerators"], project["managers"]) == (
        "1.12.0", ["cu102"], ["pip"],
    )  # fmt: skip
    assert project["torchvision"] is True  # the image's stays
    assert any("does not meet the Requires-Dist of warp-kit==0.6" in w for w in got["warnings"])
    # on the day before 0.6, warp-kit 0.5's torch>=1.6.0 is not met either
    earlier = _import_file(tmp_path, "Dockerfile", text, index, matrix, "2021-06-01")
    assert earlier["project"]["torch"] == "1.8.1"
    # a floor the image's torch meets changes nothing
    met = "FROM pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime\nRUN pip install warp-kit\n"
    kept = _import_file(tmp_path, "Dockerfile", met, index, matrix, "2022-07-16")
    assert (kept["project"]["torch"], kept["project"]["accelerators"]) == ("1.9.0", ["cu111"])


def test_a_later_package_s_floor_replaces_conda_s_torch_but_not_an_earlier_one(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    _floors(index)
    env = (
        "name: x\nchannels: [pytorch, defaults]\ndependencies:\n  - python=3.8\n"
        "  - pytorch=1.7.0\n  - cudatoolkit=11.0\n  - pip\n  - pip:\n    - warp-kit==0.6\n"
    )
    got = _import_file(tmp_path, "environment.yml", env, index, matrix, "2023-06-07")
    project = got["project"]
    assert (project["torch"], project["accelerators"], project["managers"]) == (
        "2.0.1", ["cu117"], ["pip"],
    )  # fmt: skip
    # pip installed before conda's torch: conda's stays
    script = (
        "pip install warp-kit==0.6\nconda install -y python=3.8 pytorch=1.7.0 "
        "cudatoolkit=11.0 -c pytorch\n"
    )
    first = _import_file(tmp_path, "install.sh", script, index, matrix, "2023-06-07")
    assert first["project"]["torch"] == "1.7.0"


def test_floors_no_release_meets_or_an_undated_file_keep_the_installed_torch(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    _floors(index)
    env = (
        "name: x\nchannels: [pytorch]\ndependencies:\n  - python=3.8\n  - pytorch=1.11.0\n"
        "  - cudatoolkit=11.3\n  - pip\n  - pip:\n    - lightning-kit==2.3\n    - old-fn==0.2\n"
    )
    got = _import_file(tmp_path, "environment.yml", env, index, matrix, "2022-08-01")
    assert (got["project"]["torch"], got["project"]["managers"]) == ("1.11.0", ["conda"])
    assert any("no torch release meets them all" in w for w in got["warnings"])
    undated = _import_file(
        tmp_path, "environment.yml", env.replace("old-fn==0.2", ""), index, matrix, None
    )
    assert undated["project"]["torch"] == "1.11.0"


def test_a_package_s_release_is_chosen_for_the_environment_s_python(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    _floors(index)
    page_path = index / "warp-kit" / "index.json"
    page = json.loads(page_path.read_text())
    page["files"][1]["requires-python"] = ">=3.9"  # 0.6 is not for python 3.8: pip takes 0.5
    page_path.write_text(json.dumps(page))
    env = (
        "name: x\nchannels: [pytorch]\ndependencies:\n  - python=3.8\n  - pytorch=1.7.0\n"
        "  - cudatoolkit=11.0\n  - pip\n  - pip:\n    - warp-kit\n"
    )
    got = _import_file(tmp_path, "environment.yml", env, index, matrix, "2023-06-07")
    assert (got["project"]["torch"], got["project"]["managers"]) == ("1.7.0", ["conda"])


def test_a_later_command_s_package_replaces_a_pip_torch_but_not_one_in_its_own_resolve(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    _floors(index)
    script = (
        "pip install torch==1.7.1+cu110 torchvision==0.8.2+cu110 "
        "--extra-index-url https://download.pytorch.org/whl/cu110\npip install -U warp-kit\n"
    )
    got = _import_file(tmp_path, "install.sh", script, index, matrix, "2022-07-16")
    # a later command: pip replaces torch with PyPI's newest (the cu110 index and label were the
    # old torch's), the installed torchvision stays as the file pins it
    assert (got["project"]["torch"], got["project"]["accelerators"]) == ("1.12.0", ["cu102"])
    # one command (or one requirements file): pip takes the warp-kit that fits torch==1.7.1
    one = "pip install torch==1.7.1 warp-kit\n"
    assert (
        _import_file(tmp_path, "install.sh", one, index, matrix, "2022-07-16")["project"]["torch"]
        == "1.7.1"
    )
    same = _import_file(tmp_path, "requirements.txt", "torch==1.7.1\nwarp-kit\n", index, matrix,
                        "2022-07-16")  # fmt: skip
    assert same["project"]["torch"] == "1.7.1"


def test_no_deps_packages_bring_no_torch(tmp_path: Path, index: Path, matrix: Matrix) -> None:
    _floors(index)
    for line in ("RUN pip install --no-deps warp-kit", "RUN pip install warp-kit --no-deps"):
        text = f"FROM pytorch/pytorch:1.4-cuda10.1-cudnn7-devel\n{line}\n"
        got = _import_file(tmp_path, "Dockerfile", text, index, matrix, "2022-07-16")
        assert (got["project"]["torch"], got["project"]["accelerators"]) == ("1.4.0", ["cu101"])


def test_the_bringing_command_s_pytorch_index_chooses_the_new_torch_s_build(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    _floors(index)
    text = (
        "FROM pytorch/pytorch:1.4-cuda10.1-cudnn7-devel\nRUN pip install warp-kit "
        "--extra-index-url https://download.pytorch.org/whl/cu113\n"
    )
    got = _import_file(tmp_path, "Dockerfile", text, index, matrix, "2022-07-16")
    # 1.12.0+cu113 sorts above PyPI's 1.12.0: pip takes the index's build
    assert (got["project"]["torch"], got["project"]["accelerators"]) == ("1.12.0", ["cu113"])


def test_an_environment_s_whole_pip_list_comes_after_conda_s_torch(
    tmp_path: Path, index: Path, matrix: Matrix
) -> None:
    _floors(index)
    env = (
        "name: x\nchannels: [pytorch]\ndependencies:\n  - python=3.8\n  - pip\n"
        "  - pip:\n    - warp-kit==0.6\n  - pytorch=1.7.0\n  - cudatoolkit=11.0\n"
    )
    got = _import_file(tmp_path, "environment.yml", env, index, matrix, "2023-06-07")
    assert (got["project"]["torch"], got["project"]["managers"]) == ("2.0.1", ["pip"])


def test_a_requires_python_of_thousands_of_digits_rules_nothing_out() -> None:
    page: dict[str, object] = {"files": [{"filename": "p-1.0-py3-none-any.whl", "upload-time": "2020-01-01",
                       "requires-python": ">=3." + "9" * 5000}]}  # fmt: skip
    assert str(chosen_version("", page, "p", None, "3.8")) == "1.0"
