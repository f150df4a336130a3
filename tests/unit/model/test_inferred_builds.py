"""matrices/inferred-builds.yaml: valid rows, known releases, and PyPI-default rows that agree with
the recorded PyPI facts (tests/data/recorded/pypi/), offline."""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.version import Version
from pydantic import ValidationError

from envgen.infra.resources import MATRICES_DIR
from envgen.model.matrix import CondaBuild, PipBuild, compute_sort_key
from envgen.model.types import PLATFORMS
from envgen.verification.pypi import PypiFacts

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
import pypi_facts

INFERRED = MATRICES_DIR / "inferred-builds.yaml"
# Rows read from PyPI itself (wheel tags + Requires-Dist / torch/version.py), not from test-infra.
PYPI_SOURCE_PREFIX = "pypi wheel tags + "


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    loaded = yaml.safe_load(INFERRED.read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    assert set(loaded) == {"pip", "conda"}
    return loaded


@pytest.fixture(scope="module")
def pip_rows(data: dict[str, Any]) -> list[PipBuild]:
    return [PipBuild.model_validate(r) for r in data["pip"] or []]


@pytest.fixture(scope="module")
def releases() -> dict[str, dict[str, Any]]:
    rows = yaml.safe_load((MATRICES_DIR / "releases.yaml").read_text(encoding="utf-8"))
    return {r["torch"]: r for r in rows}


@pytest.fixture(scope="module")
def facts() -> PypiFacts:
    return pypi_facts.load_recorded()


def _pypi_rows(rows: list[PipBuild]) -> list[PipBuild]:
    """Rows installing PyPI's own wheel (not 0.4.1's, whose PyPI wheel is gone)."""
    return [b for b in rows if b.pypi_default and b.index == "pypi"]


def _read_from_pypi(rows: list[PipBuild]) -> list[PipBuild]:
    return [b for b in rows if b.pypi_default and b.source.startswith(PYPI_SOURCE_PREFIX)]


def test_every_row_validates(data: dict[str, Any]) -> None:
    for raw in data["pip"] or []:
        PipBuild.model_validate(raw)
    for raw in data["conda"] or []:
        CondaBuild.model_validate(raw)


def test_one_flow_mapping_per_row_per_line() -> None:
    lines = INFERRED.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if line.startswith("  - ")]
    assert all(line.startswith("  - {") and line.endswith("}") for line in rows)


def test_every_row_is_inferred_with_a_source(pip_rows: list[PipBuild]) -> None:
    assert pip_rows
    for b in pip_rows:
        assert b.inferred, b
        assert b.source.strip(), b


def test_every_release_is_in_releases_yaml(
    pip_rows: list[PipBuild], releases: dict[str, dict[str, Any]]
) -> None:
    assert sorted({b.release for b in pip_rows} - set(releases), key=Version) == []


def test_keys_are_unique(pip_rows: list[PipBuild]) -> None:
    keys = Counter((b.release, p, b.kind, b.version) for b in pip_rows for p in b.platforms)
    assert [k for k, n in keys.items() if n > 1] == []


def test_rows_are_well_formed(pip_rows: list[PipBuild]) -> None:
    for b in pip_rows:
        assert (b.kind in ("cuda", "rocm")) == (b.version is not None), b
        assert b.platforms, b
        assert list(b.platforms) == [p for p in PLATFORMS if p in b.platforms], b
        if b.index == "pypi":
            assert b.url is None, b
        else:
            assert b.url, b
            # Only where PyPI's own wheel was this build but is gone (0.4.1's Linux cu90 wheel).
            assert not b.pypi_default or b.release == "0.4.1", b


def test_rows_are_sorted(pip_rows: list[PipBuild]) -> None:
    """Release ascending, then cpu < cuda < rocm < xpu (versions ascending), PyPI rows first."""

    def key(b: PipBuild) -> tuple[Version, tuple[int, tuple[int, ...]], int]:
        return (Version(b.release), compute_sort_key(b.kind, b.version), 0 if b.pypi_default else 1)

    assert [key(b) for b in pip_rows] == sorted(key(b) for b in pip_rows)


def test_pypi_rows_pin_the_public_release(pip_rows: list[PipBuild]) -> None:
    for b in _pypi_rows(pip_rows):
        assert b.index == "pypi", b
        assert b.torch == b.release, b
        for companion in (b.torchvision, b.torchaudio):
            assert companion is None or "+" not in companion, b


def test_pypi_rows_have_a_torch_wheel_on_every_platform(
    pip_rows: list[PipBuild], facts: PypiFacts
) -> None:
    torch = facts.package("torch")
    for b in _pypi_rows(pip_rows):
        tf = torch.get(b.torch)
        assert tf is not None, f"torch {b.torch} is not in the PyPI recording"
        assert not tf.yanked, b
        missing = [p for p in b.platforms if p not in tf.platforms]
        assert missing == [], f"{b.release} {b.accelerator}: no PyPI torch wheel for {missing}"


def test_pypi_rows_companions_are_releases_yaml_ones_with_wheels(
    pip_rows: list[PipBuild], releases: dict[str, dict[str, Any]], facts: PypiFacts
) -> None:
    for b in _pypi_rows(pip_rows):
        for name in ("torchvision", "torchaudio"):
            pinned = getattr(b, name)
            if pinned is None:
                continue
            assert pinned == releases[b.release][name], (b, name)
            cf = facts.package(name).get(pinned)
            assert cf is not None, f"{name} {pinned} is not in the PyPI recording"
            if (cf.metadata_from or "").endswith("-none-any.whl") and not cf.platforms:
                continue  # a pure-Python wheel (torchvision 0.2.x) installs anywhere
            missing = [p for p in b.platforms if p not in cf.platforms]
            assert missing == [], f"{b.release}: no PyPI {name} {pinned} wheel for {missing}"


def test_rows_read_from_pypi_null_a_companion_only_without_a_wheel(
    pip_rows: list[PipBuild], releases: dict[str, dict[str, Any]], facts: PypiFacts
) -> None:
    for b in _read_from_pypi(pip_rows):
        for name in ("torchvision", "torchaudio"):
            expected = releases[b.release][name]
            if getattr(b, name) is None and expected is not None:
                cf = facts.package(name).get(expected)
                assert cf is None or any(p not in cf.platforms for p in b.platforms), (b, name)


def test_rows_read_from_pypi_cover_every_torch_wheel_platform(
    pip_rows: list[PipBuild], facts: PypiFacts
) -> None:
    """A release given PyPI-default rows gets one for each platform PyPI has a torch wheel for."""
    torch = facts.package("torch")
    covered: dict[str, set[str]] = {}
    for b in _read_from_pypi(pip_rows):
        covered.setdefault(b.release, set()).update(b.platforms)
    # Other PyPI-default rows (the page's macOS rows, wheel-tag-only osx-arm64 rows) cover theirs.
    shipped = yaml.safe_load((MATRICES_DIR / "pip.yaml").read_text(encoding="utf-8"))
    for r in shipped:
        if r["release"] in covered and r.get("pypi-default"):
            covered[r["release"]].update(r["platforms"])
    assert {"1.3.1", "1.10.2", "2.14.0", "2.14.1", "2.15.0"} <= set(covered)
    # torch 1.10.0 has an osx-arm64 wheel, but neither torchvision 0.11.0 / 0.11.1 nor torchaudio
    # 0.10.0 do: the page's macOS line (osx-64) is the row, no arm64 environment pairs them.
    uncovered = {"1.10.0": {"osx-arm64"}}
    for release, platforms in covered.items():
        tf = torch.get(release)
        assert tf is not None
        assert platforms == set(tf.platforms) - uncovered.get(release, set()), release


def test_pypi_builds_per_platform(pip_rows: list[PipBuild]) -> None:
    """PyPI's Windows/macOS torch wheels are CPU builds; its 1.x/2.x Linux x86_64 wheels bundle or
    pin CUDA."""
    for b in _read_from_pypi(pip_rows):
        for p in b.platforms:
            if p in ("osx-64", "osx-arm64", "win-64"):
                assert b.kind == "cpu", (b.release, p)
            if p == "linux-64":
                assert b.kind == "cuda", (b.release, p)


def test_rows_read_from_pypi_become_rows_or_pypi_default_marks(pip_rows: list[PipBuild]) -> None:
    """Each (release, platform, build) a PyPI row names is in pip.yaml with `pypi-default: true`:
    as the row itself where the page has no command for it, else as a mark on the page's row."""
    shipped = [
        PipBuild.model_validate(r)
        for r in yaml.safe_load((MATRICES_DIR / "pip.yaml").read_text(encoding="utf-8"))
    ]
    by_key = {(b.release, p, b.accelerator): b for b in shipped for p in b.platforms}
    for b in _read_from_pypi(pip_rows):
        for p in b.platforms:
            row = by_key[b.release, p, b.accelerator]
            assert row.pypi_default, (b.release, p, b.accelerator)
            assert row.torch.split("+")[0] == b.torch, (b.release, p)


def test_index_rows_for_2_4_to_2_10_come_from_the_page_copies(pip_rows: list[PipBuild]) -> None:
    """2.4.0-2.10.0 PyTorch-index rows are the page's (its stored copies): no local labels, the
    accelerator's own index; the only index rows left here are builds the page does not list: 2.10.0
    rocm7.0 and cu129 and the linux-aarch64 CUDA builds of 2.7.0-2.10.0 (the page's Linux command, same pins)."""
    shipped = [
        PipBuild.model_validate(r)
        for r in yaml.safe_load((MATRICES_DIR / "pip.yaml").read_text(encoding="utf-8"))
    ]
    rows = [b for b in shipped if b.source.startswith("previous-versions copy")]
    assert {b.release for b in rows} == {
        "2.4.0",
        "2.4.1",
        "2.5.0",
        "2.5.1",
        "2.6.0",
        "2.7.0",
        "2.7.1",
        "2.8.0",
        "2.9.0",
        "2.9.1",
        "2.10.0",
    }
    for b in rows:
        assert not b.inferred, b
        assert b.torch == b.release, b
        if b.index == "index-url":
            assert b.url == f"https://download.pytorch.org/whl/{b.accelerator}", b
            assert set(b.platforms) <= {"linux-64", "win-64"}, b
    left = [
        (b.release, b.accelerator, b.platforms)
        for b in pip_rows
        if Version("2.4.0") <= Version(b.release) <= Version("2.10.0") and b.index == "index-url"
    ]
    aarch64 = {"2.7.0": ["cu128"], "2.7.1": ["cu128"], "2.8.0": ["cu129"]}
    aarch64 |= {r: ["cu126", "cu128", "cu130"] for r in ("2.9.0", "2.9.1", "2.10.0")}
    expected = [(r, acc, ("linux-aarch64",)) for r, accs in aarch64.items() for acc in accs]
    # 2.10.0's cu129 wheels (a wheel URL with its sha256 and install lines name them), sorted in
    # before its aarch64 cu130 row
    expected.insert(-1, ("2.10.0", "cu129", ("linux-64",)))
    assert left == [*expected, ("2.10.0", "rocm7.0", ("linux-64",))]
    page = {(b.release, b.accelerator): b for b in rows if "linux-64" in b.platforms}
    for b in pip_rows:
        if b.platforms == ("linux-aarch64",) and b.kind == "cuda" and b.index == "index-url":
            same = page[(b.release, b.accelerator)]  # the page's Linux row for this build
            assert (b.torch, b.torchvision, b.torchaudio, b.url) == (
                same.torch,
                same.torchvision,
                same.torchaudio,
                same.url,
            ), b


def test_conda_rows_stop_at_2_5(data: dict[str, Any]) -> None:
    """The pytorch channel's last release is 2.5.x; its rows use pytorch-cuda / cpuonly (and
    cudatoolkit=11.1 for the 1.8.1 and 1.9-1.10 cuda11.1 builds the page does not list)."""
    rows = [CondaBuild.model_validate(r) for r in data["conda"] or []]
    assert rows
    for b in rows:
        assert b.inferred, b
        assert b.source.strip(), b
        assert Version(b.release) < Version("2.6.0"), b
        assert b.pytorch == b.release, b
        if b.form == "cuda-meta" and b.release == "1.0.0":
            # only marks the page's 1.0.0 CUDA 9.0 row as the featureless default build
            assert (b.conda_default, b.accelerator) == (True, "cu90"), b
        elif b.form == "cuda-meta":
            # 0.4.1's template (pytorch=0.4.1 cuda90 -c pytorch) and 0.2.0-0.4.0's builds from
            # the channel's recipes (pytorch/builder@0f6af9a0 conda/), a deleted route kept as
            # data; one featureless build a release: CUDA 7.5 (0.2.0), 8.0 (0.3.x-0.4.0), 9.0
            assert b.release in {"0.2.0", "0.3.0", "0.3.1", "0.4.0", "0.4.1"}, b
            assert (b.channels, b.platforms) == (("pytorch",), ("linux-64",)), b
            if b.conda_default:
                default = {"0.2.0": "cu75", "0.4.1": "cu90"}.get(b.release, "cu80")
                assert b.accelerator == default, b
            if b.release != "0.4.1":
                assert "pytorch/builder@0f6af9a0" in b.source, b
        elif b.release == "1.10.2":
            # not on the page: the quick-start data's 1.10.2 conda lines (published-versions.json)
            assert (b.kind, b.version, b.form, b.platforms, b.channels) in {
                ("cpu", None, "cpuonly", ("linux-64", "win-64"), ("pytorch",)),
                ("cuda", "10.2", "cudatoolkit", ("linux-64", "win-64"), ("pytorch",)),
                ("cuda", "11.3", "cudatoolkit", ("linux-64", "win-64"), ("pytorch",)),
                ("cpu", None, "none", ("osx-64",), ("pytorch",)),
                # the channel's cuda11.1 package (moi90/pytorch_compute_capabilities table.md)
                ("cuda", "11.1", "cudatoolkit", ("linux-64",), ("pytorch", "nvidia")),
            }, b
        elif b.kind == "cuda" and b.form == "cudatoolkit" and b.version == "10.1":
            # 1.3.0 / 1.3.1 (the page has no v1.3 section) and 1.8.0 / 1.8.1's cuda10.1
            # packages the page does not list.
            assert (b.release, b.channels) in {
                ("1.3.0", ("pytorch",)),
                ("1.3.1", ("pytorch",)),
                ("1.8.0", ("pytorch",)),
                ("1.8.1", ("pytorch",)),
            }, b
        elif (b.release, b.version) in {
            ("1.0.1", "8.0"), ("1.3.0", "9.2"), ("1.3.0", "10.0"), ("1.3.1", "9.2"),
            ("1.3.1", "10.0"), ("1.4.0", "10.0"), ("1.11.0", "11.5"),
        }:  # fmt: skip
            # the channel's packages the page never listed (moi90/pytorch_compute_capabilities
            # table.md); 1.11.0's cudatoolkit 11.5 came from conda-forge (defaults stopped at 11.3)
            assert b.form == "cudatoolkit", b
            assert b.channels == (
                ("pytorch", "conda-forge") if b.version == "11.5" else ("pytorch",)
            )
        elif b.kind == "cuda" and b.form == "cudatoolkit" and b.release == "1.8.1":
            # 1.8.1's cuda11.1 build, with -c conda-forge as the page's 1.8.0 line wrote it.
            assert (b.version, b.channels) == ("11.1", ("pytorch", "conda-forge")), b
        elif b.kind == "cuda" and b.form == "cudatoolkit":
            # 1.9-1.11 cuda11.1 builds, as the quick-start data wrote them.
            assert (b.version, b.channels) == ("11.1", ("pytorch", "nvidia")), b
            assert Version("1.9") <= Version(b.release) < Version("1.12"), b
        elif b.kind == "cuda":
            assert (b.form, b.channels) == ("pytorch-cuda", ("pytorch", "nvidia")), b
        elif b.form == "none":
            # 2.3-2.5 "OSX": the channel's osx-arm64 builds (torch 2.3 dropped x86_64 macOS).
            assert (b.kind, b.channels, b.platforms) == ("cpu", ("pytorch",), ("osx-arm64",)), b
            assert Version("2.3") <= Version(b.release) < Version("2.6"), b
        else:
            assert (b.kind, b.form, b.channels) == ("cpu", "cpuonly", ("pytorch",)), b


def test_rows_that_name_their_wheel(data: dict[str, Any]) -> None:
    """Only the 1.0-1.1 Linux equivalents of the page's prose lines and the releases before 0.4.1
    (their install lines named wheels) name their torch wheel, and that wheel lies on the row's
    own page (its directory)."""
    rows = [PipBuild.model_validate(r) for r in data["pip"] or []]
    named = [b for b in rows if b.wheel is not None]
    assert {(b.release, b.accelerator) for b in named} == {
        ("1.0.0", "cpu"),
        ("1.0.0", "cu80"),
        ("1.0.0", "cu100"),
        ("1.0.1", "cpu"),
        ("1.0.1", "cu100"),
        ("1.1.0", "cpu"),
        ("1.1.0", "cu100"),
        ("0.1.12", "cu75"),
        ("0.1.12", "cu80"),
        ("0.2.0", "cu75"),
        ("0.2.0", "cu80"),
        ("0.3.0", "cu75"),
        ("0.3.0", "cu80"),
        ("0.3.0", "cu90"),
        ("0.3.1", "cpu"),
        ("0.3.1", "cu80"),
        ("0.3.1", "cu90"),
        ("0.3.1", "cu91"),
        ("0.4.0", "cpu"),
        ("0.4.0", "cu80"),
        ("0.4.0", "cu90"),
        ("0.4.0", "cu91"),
    }
    for b in named:
        assert (b.platforms, b.index) == (("linux-64",), "find-links"), b
        assert b.url is not None
        # 0.2.0's wheels were manylinux1; the others linux_x86_64
        tag = "manylinux1_x86_64" if b.release == "0.2.0" else "linux_x86_64"
        assert b.wheel == b.url.replace(
            "torch_stable.html", f"torch-{b.torch}-{{abi}}-{tag}.whl"
        ), b


def test_a_wheel_needs_its_abi_placeholder() -> None:
    row = {
        "kind": "cpu",
        "release": "1.0.0",
        "platforms": ["linux-64"],
        "torch": "1.0.0",
        "index": "find-links",
        "url": "https://download.pytorch.org/whl/cpu/torch_stable.html",
        "source": "s",
    }
    ok = PipBuild.model_validate({**row, "wheel": "https://x/torch-1.0.0-{abi}-linux_x86_64.whl"})
    assert ok.direct_urls("3.8")["torch"] == "https://x/torch-1.0.0-cp38-cp38-linux_x86_64.whl"
    for bad in ("https://x/torch-1.0.0-cp36-cp36m-linux_x86_64.whl", "https://x/{abi}.zip"):
        with pytest.raises(
            ValidationError, match=re.escape("a .whl URL with {abi} for the CPython tags")
        ):
            PipBuild.model_validate({**row, "wheel": bad})
    with pytest.raises(ValidationError, match=re.escape("a .whl URL with {abi}")):
        PipBuild.model_validate(
            {**row, "index": "pypi", "url": None, "wheel": "https://x/{abi}.whl"}
        )


@pytest.mark.parametrize(
    ("torchaudio", "named"),
    [("true", "torch 2.13.0's torchaudio from "), ("false", None)],
)
def test_the_lock_note_names_an_inferred_companion_only_where_the_variant_installs_it(
    torchaudio: str, named: str | None, tmp_path: Path
) -> None:
    from envgen.model.matrix import load_matrix
    from envgen.model.spec import parse_spec
    from envgen.model.variants import expand, inferred_note

    text = (
        f'name: t\npython: "3.11"\ntorch: "2.13.0"\ntorchaudio: {torchaudio}\naccelerators: [cpu]\n'
    )
    spec = parse_spec(text, path=tmp_path / "project.yaml")
    note = inferred_note(expand(spec, load_matrix()).variants)
    assert note is not None  # the cpu row itself is inferred (test-infra)
    if named is None:
        assert "torchaudio" not in note
    else:
        assert named in note
