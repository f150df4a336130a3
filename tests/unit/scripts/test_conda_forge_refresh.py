"""scripts/refresh_conda_forge.py on recorded feedstock commits, and the committed conda-forge.yaml.

The recorded commits (tests/data/recorded/conda-forge/, see SOURCES.md there) are real bytes of
the feedstocks' recipes and .ci_support files; no test here needs the git mirrors.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import yaml
from packaging.version import Version

from envgen.model.matrix import load_matrix

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import refresh_conda_forge as rcf  # noqa: E402

COMMITTED = ROOT / "matrices" / "conda-forge.yaml"


def _snaps(feedstock: str) -> dict[str, rcf.Snapshot]:
    return {s.short: s for s in rcf.recorded_snapshots(rcf.RECORDED / feedstock)}


PYTORCH = _snaps(rcf.PYTORCH)
TORCHVISION = _snaps(rcf.TORCHVISION)
TORCHAUDIO = _snaps(rcf.TORCHAUDIO)


def _built(snap: rcf.Snapshot, output: str) -> set[tuple[str, str | None]]:
    return {(b.platform, b.cuda) for b in rcf.snapshot_builds(snap, output)}


def _pythons(snap: rcf.Snapshot, output: str) -> list[str]:
    return sorted({b.python for b in rcf.snapshot_builds(snap, output)}, key=Version)


def test_recipe_versions_from_meta_yaml_and_recipe_yaml() -> None:
    got = {
        short: rcf.recipe_version(s.recipe_path, s.recipe)
        for snaps in (PYTORCH, TORCHVISION, TORCHAUDIO)
        for short, s in snaps.items()
    }
    assert got == {
        "054fb3175a": "2.4.1",
        "211f363beb": "2.4.1",
        "18d3a166f2": "2.5.1",
        "b8223e3b1a": "2.7.1",
        "402ed71df3": "2.13.0",
        "9ef5e67102": "0.19.1",
        "97f7597106": "0.19.1",
        "2a3c7b20d2": "0.28.0",
        "5221ee0840": "2.4.1",
        "22fad8ce93": "2.4.1",
        "30db40d318": "2.9.1",
    }
    assert TORCHVISION["2a3c7b20d2"].recipe_path == "recipe/recipe.yaml"
    assert PYTORCH["211f363beb"].recipe_path == "recipe/meta.yaml"


def test_a_not_aarch64_skip_builds_aarch64_only() -> None:
    # 054fb3175a: `skip: true  # [not aarch64]` while the CI still listed only aarch64 configs.
    assert _built(PYTORCH["054fb3175a"], "pytorch") == {
        ("linux-aarch64", None),
        ("linux-aarch64", "12.0"),
    }
    assert _pythons(PYTORCH["054fb3175a"], "pytorch") == ["3.9", "3.10", "3.11", "3.12"]
    # The re-render after it: every platform, and python 3.13 from the migration.
    assert _built(PYTORCH["211f363beb"], "pytorch") == {
        ("linux-64", None),
        ("linux-64", "11.8"),
        ("linux-64", "12.0"),
        ("linux-aarch64", None),
        ("linux-aarch64", "12.0"),
        ("osx-64", None),
        ("osx-arm64", None),
    }
    assert _pythons(PYTORCH["211f363beb"], "pytorch") == ["3.9", "3.10", "3.11", "3.12", "3.13"]


def test_skip_selectors_drop_what_the_ci_configs_name() -> None:
    snap = PYTORCH["18d3a166f2"]
    names = [n for n, _ in snap.ci]
    assert any("win_64" in n and "cuda_compiler_version12.0" in n for n in names)
    # `[not win or not (cuda_compiler_version == "12.6" or cuda_compiler == "None")]` and
    # `[py!=312]`: of the CUDA 12.0 and cpu win-64 configs, only cpu py3.12 was built.
    assert rcf.snapshot_builds(snap, "pytorch") == {rcf.Build("2.5.1", "win-64", None, "3.12")}


def test_configs_for_another_label_and_tegra_are_left_out() -> None:
    snap = PYTORCH["b8223e3b1a"]
    win = [t for n, t in snap.ci if n.startswith("win_64")]
    assert win
    assert all("conda-forge pytorch_rc" in t for t in win)
    assert not any(p == "win-64" for p, _ in _built(snap, "pytorch"))

    modern = PYTORCH["402ed71df3"]
    tegra = [(n, t) for n, t in modern.ci if "tegra" in n]
    assert len(tegra) == 1
    only_tegra = rcf.Snapshot(
        modern.commit, modern.date, modern.recipe_path, modern.recipe, tuple(tegra)
    )
    assert rcf.snapshot_builds(only_tegra, "pytorch") == set()
    assert ("linux-aarch64", "12.9") in _built(modern, "pytorch")  # the sbsa config


def test_recipe_yaml_skip_list_is_evaluated() -> None:
    snap = TORCHAUDIO["30db40d318"]
    assert any(n.startswith("win_64") for n, _ in snap.ci)
    built = _built(snap, "torchaudio")
    assert built
    assert not any(p == "win-64" for p, _ in built)
    assert ("linux-aarch64", "13.0") in _built(TORCHVISION["2a3c7b20d2"], "torchvision")


def test_selector_expressions() -> None:
    names = {"win": True, "cuda_compiler_version": "12.0", "cuda_compiler": "cuda-nvcc", "py": 312}
    expr = 'not win or not (cuda_compiler_version == "12.6" or cuda_compiler == "None")'
    assert rcf.evaluate(expr, names) is True
    assert rcf.evaluate("py!=312", names) is False
    assert rcf.evaluate("py312 and win", names) is True
    assert rcf.evaluate('match(python, ">=3.13")', {"python": "3.14"}) is True
    assert (
        rcf.evaluate('match(cuda_compiler_version, "11.8")', {"cuda_compiler_version": "None"})
        is False
    )


def test_an_unknown_selector_name_is_an_error_naming_the_commit() -> None:
    base = PYTORCH["18d3a166f2"]
    recipe = base.recipe.replace("# [py!=312]", "# [py!=312 or frobnicate]")
    snap = rcf.Snapshot(base.commit, base.date, base.recipe_path, recipe, base.ci)
    with pytest.raises(rcf.RecipeError) as info:
        rcf.snapshot_builds(snap, "pytorch")
    assert str(info.value).startswith(
        "18d3a166f2 recipe/meta.yaml: cannot evaluate skip `skip: true  # [py!=312 or frobnicate]`"
    )
    assert "unknown frobnicate" in str(info.value)


def test_2_4_1_rows_from_recorded_commits_are_the_committed_rows() -> None:
    """The commits that first built 2.4.1 are recorded: its rows come out exactly as committed."""
    rows = rcf.build_rows(
        rcf.collect(PYTORCH.values(), "pytorch"),
        rcf.collect(TORCHVISION.values(), "torchvision"),
        rcf.collect(TORCHAUDIO.values(), "torchaudio"),
        rcf.load_companions(),
    )
    committed = yaml.safe_load(COMMITTED.read_text(encoding="utf-8"))
    mine = [r for r in rows if r["release"] == "2.4.1"]
    assert mine == [r for r in committed if r["release"] == "2.4.1"]
    aarch64_cpu = next(
        r for r in mine if r["platforms"] == ["linux-aarch64"] and r["kind"] == "cpu"
    )
    assert aarch64_cpu["source"] == (
        "conda-forge/pytorch-cpu-feedstock .ci_support@054fb3175a (2024-10-02); "
        "torchvision-feedstock .ci_support@9ef5e67102; torchaudio-feedstock .ci_support@22fad8ce93"
    )
    # torchaudio 2.9.1 was never built for win-64, and 2.13.0 has no torchaudio at all.
    assert all("torchaudio" not in r for r in rows if r["release"] == "2.13.0")


def test_companion_rules() -> None:
    seen = rcf.Seen(PYTORCH["211f363beb"], {"3.12"})
    pytorch: dict[rcf.Key, rcf.Seen] = {("2.4.1", "linux-64", "12.0"): seen}
    tv: dict[rcf.Key, rcf.Seen] = {
        ("0.19.1", "linux-64", "11.8"): rcf.Seen(TORCHVISION["9ef5e67102"])
    }
    ta: dict[rcf.Key, rcf.Seen] = {
        ("2.4.1", "linux-64", "12.0"): rcf.Seen(TORCHAUDIO["5221ee0840"])
    }
    (row,) = rcf.build_rows(pytorch, tv, ta, {"2.4.1": ("0.19.1", "2.4.1")})
    assert "torchvision" not in row  # built for another CUDA minor only
    assert row["torchaudio"] == "2.4.1"
    # a torchaudio of another minor than the release is not paired
    (other,) = rcf.build_rows(pytorch, tv, ta, {"2.4.1": ("0.19.1", "2.5.1")})
    assert "torchaudio" not in other


def test_committed_file_is_what_the_script_writes() -> None:
    """Header, key order, quoting and row order: re-dumping the committed rows gives the file."""
    text = COMMITTED.read_text(encoding="utf-8")
    rows = yaml.safe_load(text)
    assert rcf.dump(rows) == text
    assert rows == sorted(rows, key=rcf._row_key)


def test_committed_rows_parse_and_every_row_has_a_python_list() -> None:
    matrix = load_matrix()
    assert matrix.conda_forge
    releases = {r.torch for r in matrix.releases}
    for row in matrix.conda_forge:
        assert row.python, row
        assert list(row.python) == sorted(set(row.python), key=Version)
        assert all(re.fullmatch(r"3\.\d+", p) for p in row.python)
        assert row.release in releases
    # the pytorch channel's rows do not record pythons
    assert all(b.python is None for b in matrix.conda)


def test_an_else_branch_is_guarded_by_every_earlier_condition() -> None:
    """`{% if A %}..{% elif B %}..{% else %}skip` skips only when neither A nor B holds."""
    recipe = (
        "{% if A %}\n"
        "  skip: true  # [win]\n"
        "{% elif B %}\n"
        "  skip: true  # [osx]\n"
        "{% elif C %}\n"
        "  skip: true  # [linux]\n"
        "{% else %}\n"
        "  skip: true\n"
        "{% endif %}\n"
    )
    rules = rcf.skip_rules("recipe/meta.yaml", recipe, "pytorch")
    assert [r.guards for r in rules] == [
        ("A",),
        ("not (A)", "B"),
        ("not (A)", "not (B)", "C"),
        ("not (A)", "not (B)", "not (C)"),
    ]
