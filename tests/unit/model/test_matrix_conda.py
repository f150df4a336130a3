"""conda sources: conda-forge rows (matrices/conda-forge.yaml), `conda.source`, and the conda
side of expansion and rendering for every release conda-forge built."""

from __future__ import annotations

from pathlib import Path

import pytest
from packaging.version import Version

from envgen.errors import SpecError, UnsupportedCombinationError
from envgen.model.matrix import check_invariants, load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand
from envgen.render.commands import install_command
from envgen.render.environment import channels, dependencies

MATRIX = load_matrix()


def _spec_text(torch: str, accs: str, platform: str = "linux-64", extra: str = "") -> str:
    return (
        f"name: cf\npython: ['3.11']\ntorch: '{torch}'\naccelerators: {accs}\n"
        f"platforms: [{platform}]\nmanagers: [conda]\n{extra}"
    )


def _expand(text: str) -> tuple[Variant, ...]:
    spec = parse_spec(text, path=Path("/nonexistent/cf.yaml"))
    return expand(spec, MATRIX).variants


def _error(text: str) -> str:
    with pytest.raises(UnsupportedCombinationError) as info:
        _expand(text)
    return str(info.value)


def test_conda_forge_releases_and_cuda_versions_from_the_feedstock() -> None:
    cuda: dict[tuple[str, str], list[str]] = {}
    for b in MATRIX.conda_forge:
        for p in b.platforms:
            if b.version is not None:
                cuda.setdefault((b.release, p), []).append(b.version)
    assert sorted({b.release for b in MATRIX.conda_forge}, key=Version) == [
        "2.4.0", "2.4.1", "2.5.1", "2.6.0", "2.7.0", "2.7.1", "2.8.0", "2.9.0", "2.9.1",
        "2.10.0", "2.11.0", "2.12.0", "2.12.1", "2.13.0",
    ]  # fmt: skip
    table = {k: sorted(v, key=Version) for k, v in cuda.items()}
    assert table[("2.4.1", "linux-64")] == ["11.8", "12.0"]
    assert ("2.4.1", "win-64") not in table
    # 2.5.1 win-64: the .ci_support named CUDA 12.0, but the recipe skipped it
    # (`skip: true  # [not win or not (cuda_compiler_version == "12.6" or cuda_compiler == "None")]`
    # at 18d3a166f2), so only 12.6 was built.
    assert table[("2.5.1", "win-64")] == table[("2.6.0", "linux-64")] == ["12.6"]
    assert table[("2.7.0", "win-64")] == ["12.6"]
    # 2.7.1 win-64 CUDA 12.6 went only to the pytorch_rc label (channel_targets at b8223e3b1a,
    # reverted at 1f1bdeeee2 before 12.8/12.9): never on conda-forge main.
    assert table[("2.7.1", "win-64")] == ["12.8", "12.9"]
    assert table[("2.8.0", "linux-64")] == table[("2.10.0", "linux-64")][:1] == ["12.9"]
    assert table[("2.8.0", "win-64")] == table[("2.9.1", "win-64")] == ["12.8"]
    assert table[("2.11.0", "linux-aarch64")] == table[("2.13.0", "linux-64")] == ["12.9", "13.0"]
    assert table[("2.13.0", "win-64")] == ["12.8", "13.0"]
    assert not any(p.startswith("osx") for (_, p) in table)
    prefix = "conda-forge/pytorch-cpu-feedstock .ci_support@"
    assert all(b.source.startswith(prefix) for b in MATRIX.conda_forge)
    # MATRIX loaded, so its invariants hold; a conda-forge row copied into conda.yaml and a
    # repeated one must each be reported.
    row = MATRIX.conda_forge[0]
    broken = MATRIX.model_copy(
        update={"conda": (*MATRIX.conda, row), "conda_forge": (*MATRIX.conda_forge, row)}
    )
    problems = check_invariants(broken)
    assert (
        f"conda.yaml: release {row.release} {row.accelerator}: conda-forge rows belong in conda-forge.yaml"
        in problems
    )
    assert any(
        p.startswith(f"conda-forge.yaml: duplicate build ('{row.release}'") for p in problems
    ), problems


def test_every_conda_forge_row_expands_and_renders_its_selection() -> None:
    """`lock --pins-only` input for every release, platform and accelerator conda-forge built."""
    seen = 0
    for row in MATRIX.conda_forge:
        for platform in row.platforms:
            official = bool(MATRIX.conda_builds(row.release))
            extra = "conda: {source: conda-forge}\n" if official else ""
            text = _spec_text(row.release, f"[{row.accelerator}]", platform, extra)
            (variant,) = _expand(text)
            assert variant.conda == row
            assert channels(variant) == ["conda-forge"]
            build = "cuda*" if row.kind == "cuda" else "cpu*"
            want = ["python=3.11", f"pytorch={row.release}={build}"]
            want += [f"torchvision=={row.torchvision}"] if row.torchvision else []
            want += [f"torchaudio=={row.torchaudio}"] if row.torchaudio else []
            want += [f"cuda-version={row.version}"] if row.version else []
            assert dependencies(variant) == want
            seen += 1
    assert seen == sum(len(r.platforms) for r in MATRIX.conda_forge) > 100


def test_2_6_conda_is_conda_forge_with_cuda_version() -> None:
    cpu, cu126 = _expand(_spec_text("2.6.0", "[cpu, cu126]"))
    assert (channels(cu126), dependencies(cu126)) == (
        ["conda-forge"],
        ["python=3.11", "pytorch=2.6.0=cuda*", "torchvision==0.21.0", "torchaudio==2.6.0",
         "cuda-version=12.6"],
    )  # fmt: skip
    assert dependencies(cpu) == [
        "python=3.11", "pytorch=2.6.0=cpu*", "torchvision==0.21.0", "torchaudio==2.6.0",
    ]  # fmt: skip
    assert cu126.warnings == cpu.warnings == ()


def test_2_4_defaults_to_the_official_channel_and_source_switches() -> None:
    (official,) = _expand(_spec_text("2.4.1", "[cu121]"))
    assert (channels(official), dependencies(official)) == (
        ["pytorch", "nvidia"],
        ["python=3.11", "pytorch==2.4.1", "torchvision==0.19.1", "torchaudio==2.4.1",
         "pytorch-cuda=12.1"],
    )  # fmt: skip
    (forge,) = _expand(_spec_text("2.4.1", "[cu118]", extra="conda: {source: conda-forge}\n"))
    assert (channels(forge), dependencies(forge)) == (
        ["conda-forge"],
        ["python=3.11", "pytorch=2.4.1=cuda*", "torchvision==0.19.1", "torchaudio==2.4.1",
         "cuda-version=11.8"],
    )  # fmt: skip
    # The cudatoolkit-with-conda-forge trap is about the pytorch channel's rows, not these.
    assert forge.warnings == ()


def test_all_accelerators_follow_the_source() -> None:
    forge = _expand(_spec_text("2.4.1", "all", extra="conda: {source: conda-forge}\n"))
    assert [v.id for v in forge] == ["cpu", "cu118", "cu120"]
    official = _expand(_spec_text("2.4.1", "all"))
    assert [v.id for v in official] == ["cpu", "cu118", "cu121", "cu124"]
    windows = _expand(_spec_text("2.11.0", "all", "win-64"))
    assert [v.id for v in windows] == ["cpu", "cu128", "cu130"]


def test_source_errors_name_what_exists() -> None:
    assert _error(_spec_text("2.6.0", "[cpu]", extra="conda: {source: pytorch}\n")) == (
        "cf.yaml: conda.source: the pytorch channel has no pytorch 2.6.0 (its last release is "
        "2.5.1); set conda: {source: conda-forge}"
    )
    assert _error(_spec_text("2.5.0", "[cpu]", extra="conda: {source: conda-forge}\n")) == (
        "cf.yaml: conda.source: conda-forge has no pytorch 2.5.0 (it has 2.5.1); "
        "set conda: {source: pytorch}"
    )
    assert _error(_spec_text("2.4.0", "[cpu]", "linux-aarch64")) == (
        "cf.yaml: platforms: torch 2.4.0 was not published for linux-aarch64 (conda); "
        "conda-forge has cpu, cu120 on linux-aarch64: set conda: {source: conda-forge}"
    )
    assert _error(_spec_text("2.4.1", "[cu120]")) == (
        "cf.yaml: accelerators[0]: torch 2.4.1 was not published for cu120 on linux-64 (conda); "
        "it was published for cpu, cu118, cu121, cu124 (did you mean 'cu121'?); conda-forge has "
        "cpu, cu118, cu120 on linux-64: set conda: {source: conda-forge}"
    )
    assert _error(_spec_text("2.8.0", "[cu129]", "win-64")) == (
        "cf.yaml: accelerators[0]: torch 2.8.0 was not published for cu129 on win-64 (conda); "
        "it was published for cpu, cu128 (did you mean 'cu128'?)"
    )


def test_source_value_is_checked() -> None:
    with pytest.raises(SpecError) as info:
        parse_spec(_spec_text("2.5.1", "[cpu]", extra="conda: {source: forge}\n"),
                   path=Path("/nonexistent/cf.yaml"))  # fmt: skip
    assert str(info.value) == (
        "cf.yaml:7: conda.source: 'forge' is not one of pytorch, conda-forge "
        "(did you mean 'conda-forge'?)"
    )


def test_source_changes_the_spec_hash_only_when_set() -> None:
    plain = parse_spec(_spec_text("2.4.1", "[cpu]"), path=Path("/x/cf.yaml"))
    forge = parse_spec(_spec_text("2.4.1", "[cpu]", extra="conda: {source: conda-forge}\n"),
                       path=Path("/x/cf.yaml"))  # fmt: skip
    assert plain.as_dict()["conda"] == {"channels": [], "dependencies": []}
    assert forge.as_dict()["conda"] == {"channels": [], "dependencies": [], "source": "conda-forge"}


@pytest.mark.parametrize(
    ("torch", "compute", "os_name", "text"),
    [
        ("2.6.0", "cu126", "linux", "conda install pytorch=2.6.0=cuda* torchvision==0.21.0 "
         "torchaudio==2.6.0 cuda-version=12.6 -c conda-forge"),
        ("2.8.0", "cu128", "windows", "conda install pytorch=2.8.0=cuda* cuda-version=12.8 "
         "-c conda-forge"),
        ("2.13.0", "cpu", "macos", "conda install pytorch=2.13.0=cpu* torchvision==0.28.0 "
         "-c conda-forge"),
        ("2.5.1", "cu124", "linux", "conda install pytorch==2.5.1 torchvision==0.20.1 "
         "torchaudio==2.5.1 pytorch-cuda=12.4 -c pytorch -c nvidia"),
    ],
)  # fmt: skip
def test_conda_command_after_the_pytorch_channel_is_conda_forge(
    torch: str, compute: str, os_name: str, text: str
) -> None:
    cmd = install_command(MATRIX, torch=torch, compute=compute, manager="conda", os_name=os_name)
    assert cmd.text == text
    assert cmd.source.startswith(
        "conda-forge/pytorch-cpu-feedstock" if Version(torch) >= Version("2.6") else "test-infra"
    )


# --- page versus artifacts: 1.9.x / 1.10.x on the pytorch channel -------------------------------
TRAP_1_9 = (
    "[conda-1.9-cudatoolkit-11.3-never-built] conda cu113: pytorch 1.9.x on conda: CUDA builds "
    "for 10.2 and 11.1 (`cudatoolkit=11.1 -c pytorch -c nvidia`, build strings "
    "py3.x_cuda11.1_cudnn8.0.5_0); the page's 11.3 line with conda-forge gave a CPU build (no "
    "py3.x_cuda11.3 build of 1.9 exists; conda took cudatoolkit 11.3 from conda-forge and a CPU "
    "pytorch). Fix: Use cu111 (conda install pytorch==1.9.1 torchvision==0.10.1 "
    "torchaudio==0.9.1 cudatoolkit=11.1 -c pytorch -c nvidia) or the cu111 pip wheels "
    "(torch==1.9.1+cu111 -f https://download.pytorch.org/whl/torch_stable.html). "
    "(https://github.com/nii-yamagishilab/mos-finetune-ssl/blob/"
    "7032ec1416d0952f58aaf414b8cfe1dbe4a576db/environment.yml)"
)


@pytest.mark.parametrize("torch", ["1.9.0", "1.9.1", "1.10.0", "1.10.1"])
def test_cuda11_1_conda_builds_that_existed(torch: str) -> None:
    (variant,) = _expand(_spec_text(torch, "[cu111]").replace("'3.11'", "'3.8'"))
    assert channels(variant) == ["pytorch", "nvidia"]
    deps = dependencies(variant)
    assert deps[0] == "python=3.8"
    assert deps[1] == f"pytorch=={torch}"
    assert deps[-1] == "cudatoolkit=11.1"
    assert variant.conda is not None
    assert variant.conda.inferred
    assert "cuda11.1_cudnn8.0.5_0" in variant.conda.source


def test_1_9_cu113_page_line_is_a_trap_with_the_true_message() -> None:
    (variant,) = _expand(_spec_text("1.9.1", "[cu113]").replace("'3.11'", "'3.8'"))
    assert dependencies(variant)[-1] == "cudatoolkit=11.3"  # written as published
    assert (
        f"{TRAP_1_9}; the files are written as published but will not install today"
        in variant.warnings
    )


def test_1_10_cu113_conda_builds_existed_so_no_1_9_trap() -> None:
    (variant,) = _expand(_spec_text("1.10.0", "[cu113]").replace("'3.11'", "'3.8'"))
    assert not any("conda-1.9-cudatoolkit-11.3" in w for w in variant.warnings)
    assert dependencies(variant)[-1] == "cudatoolkit=11.3"


# --- old conda eras -------------------------------------------------------------------------------
DELETED = (
    "[conda-pytorch-channel-pre-1.5.1-deleted] conda {acc}: The pytorch conda channel no longer "
    "hosts pytorch packages older than 1.5.1 (nor torchvision older than 0.6.1); the "
    "previous-versions conda commands for them fail to solve. Fix: Use the pip wheels for these "
    "releases, or pick torch >= 1.5.1 for conda. (https://github.com/pytorch/pytorch/issues/104754)"
    "; the files are written as published but will not install today"
)


@pytest.mark.parametrize(
    ("os_name", "compute", "text"),
    [
        ("linux", "cu111", "conda install pytorch torchvision torchaudio cudatoolkit=11.1 "
         "-c pytorch-lts -c nvidia"),
        ("windows", "cu111", "conda install pytorch torchvision torchaudio cudatoolkit=11.1 "
         "-c pytorch-lts -c conda-forge"),
        ("linux", "cu102", "conda install pytorch torchvision torchaudio cudatoolkit=10.2 "
         "-c pytorch-lts"),
        ("windows", "cpu", "conda install pytorch torchvision torchaudio cpuonly -c pytorch-lts"),
    ],
)  # fmt: skip
def test_lts_1_8_2_command_as_published(os_name: str, compute: str, text: str) -> None:
    cmd = install_command(MATRIX, torch="1.8.2", compute=compute, manager="conda", os_name=os_name)
    assert (cmd.text, cmd.inferred) == (text, True)


def test_lts_1_8_2_environment_keeps_the_lts_channel_and_pins() -> None:
    (variant,) = _expand(_spec_text("1.8.2", "[cu111]").replace("'3.11'", "'3.8'"))
    assert channels(variant) == ["pytorch-lts", "nvidia"]
    assert dependencies(variant) == [
        "python=3.8", "pytorch==1.8.2", "torchvision==0.9.2", "torchaudio==0.8.2",
        "cudatoolkit=11.1",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("torch", "vision"), [("1.0.0", "0.2.1"), ("1.0.1", "0.2.2"), ("1.1.0", "0.3.0")]
)
def test_1_0_cpu_conda_uses_the_cpu_package_names(torch: str, vision: str) -> None:
    cmd = install_command(MATRIX, torch=torch, compute="cpu", manager="conda", os_name="windows")
    assert (
        cmd.text
        == f"conda install pytorch-cpu=={torch} torchvision-cpu=={vision} cpuonly -c pytorch"
    )
    (variant,) = _expand(_spec_text(torch, "[cpu]").replace("'3.11'", "'3.7'"))
    assert (channels(variant), dependencies(variant)) == (
        ["pytorch"],
        ["python=3.7", f"pytorch-cpu=={torch}", f"torchvision-cpu=={vision}", "cpuonly"],
    )
    assert DELETED.format(acc="cpu") in variant.warnings


def test_0_4_1_conda_is_data_for_a_deleted_route() -> None:
    (variant,) = _expand(_spec_text("0.4.1", "[cu90]").replace("'3.11'", "'3.6'"))
    assert dependencies(variant) == ["python=3.6", "pytorch==0.4.1", "cuda90"]
    assert DELETED.format(acc="cu90") in variant.warnings


def test_companions_conda_forge_never_built_are_named_not_dropped_silently() -> None:
    (variant,) = _expand(_spec_text("2.8.0", "[cu128]", "win-64"))
    assert dependencies(variant) == ["python=3.11", "pytorch=2.8.0=cuda*", "cuda-version=12.8"]
    assert variant.warnings == (
        "conda-forge has no torchvision 0.23.0 build for cu128 on win-64; environment.yml leaves "
        "torchvision out (install it with pip, or pick another accelerator)",
        "conda-forge has no torchaudio 2.8.0 build for cu128 on win-64; environment.yml leaves "
        "torchaudio out (install it with pip, or pick another accelerator)",
    )
    quiet = _expand(
        _spec_text("2.8.0", "[cu128]", "win-64", "torchvision: false\ntorchaudio: false\n")
    )
    assert quiet[0].warnings == ()


def test_lock_pins_only_writes_conda_forge_environments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The CLI end to end: `envgen lock --pins-only` for managers: [conda], torch 2.11.0."""
    from tests.unit.cli.test_cli import run

    spec = tmp_path / "project.yaml"
    spec.write_text(_spec_text("2.11.0", "all"), encoding="utf-8")
    code, out, err = run(["lock", str(spec), "--pins-only"], tmp_path, monkeypatch)
    envs = tmp_path / "environments"
    assert (code, out) == (0, "")
    assert err.splitlines() == [
        # lock says once which rows were inferred (issue 13 item 8)
        "warning: inferred matrix rows, not read from PyTorch's published install commands: "
        "torch 2.11.0's torchaudio from pypi; release-versions (TORCHAUDIO_VERSION 2.11.0 at the "
        "2.11 release); torchaudio 2.11.0 declares no torch requirement; same upload day (check "
        "them with `envgen matrix show`)",
        *(f"wrote {envs}/{v}/environment.yml" for v in ("cpu", "cu129", "cu130")),
        f"wrote {envs}/Makefile",
        f"4 file(s), 4 changed, in {envs}",
    ]
    assert sorted(p.name for p in envs.iterdir()) == ["Makefile", "cpu", "cu129", "cu130"]
    body = [
        line
        for line in (envs / "cu130" / "environment.yml").read_text(encoding="utf-8").splitlines()
        if not line.startswith("#")
    ]
    assert body == [
        "name: cf-cu130",
        "channels:",
        "  - conda-forge",
        "dependencies:",
        "  - python=3.11",
        "  - pytorch=2.11.0=cuda*",
        "  - torchvision==0.26.0",
        "  - torchaudio==2.11.0",
        "  - cuda-version=13.0",
    ]


def test_import_of_a_1_9_1_cuda11_1_conda_environment_is_accepted() -> None:
    """The issue's example: envgen used to say 1.9.1 was never built with cudatoolkit 11.1."""
    from envgen.repro.importer import import_text

    text = (
        "name: x\nchannels: [pytorch, nvidia]\ndependencies:\n  - python=3.8\n"
        "  - pytorch=1.9.1=py3.8_cuda11.1_cudnn8.0.5_0\n  - torchvision=0.10.1\n"
        "  - cudatoolkit=11.1\n"
    )
    result = import_text(text, filename="environment.yml", matrix=MATRIX)
    assert result.project["torch"] == "1.9.1"
    assert result.project["accelerators"] == ["cu111"]
    assert result.project["managers"] == ["conda"]


def test_a_python_conda_forge_never_built_is_an_error_naming_the_built_ones() -> None:
    """2.9.x on conda-forge: pythons 3.10-3.13 (.ci_support of v2.9.x), though PyPI has 3.14."""
    release = MATRIX.release("2.9.0")
    assert release is not None
    assert "3.14" in release.python
    text = _spec_text("2.9.0", "[cpu]").replace("['3.11']", "['3.14']")
    assert _error(text) == (
        "cf.yaml: python: torch 2.9.0 cpu on linux-64 was not published for python 3.14 "
        "(conda, conda-forge); it was published for python 3.10, 3.11, 3.12, 3.13 "
        "(did you mean '3.13'?); set python to one of 3.10, 3.11, 3.12, 3.13"
    )
    several = _spec_text("2.9.1", "[cu129]").replace("['3.11']", "['3.12', '3.14']")
    assert _error(several).startswith(
        "cf.yaml: python[1]: torch 2.9.1 cu129 on linux-64 was not published for python 3.14 "
    )
    both = text.replace("managers: [conda]", "managers: [pip, conda]")
    assert _error(both).endswith(
        "set python to one of 3.10, 3.11, 3.12, 3.13 or drop conda from managers"
    )
    # 2.4.1 conda-forge built 3.9-3.13: 3.8 (on PyPI for 2.4.1) is refused too.
    old = _spec_text("2.4.1", "[cu118]", extra="conda: {source: conda-forge}\n")
    assert "was not published for python 3.8 (conda, conda-forge)" in _error(
        old.replace("['3.11']", "['3.8']")
    )


def test_without_managers_a_python_conda_forge_lacks_gets_pip_only() -> None:
    text = (
        "name: cf\npython: ['3.13', '3.14']\ntorch: '2.9.0'\naccelerators: [cpu]\n"
        "platforms: [linux-64]\n"
    )
    py313, py314 = _expand(text)
    assert (py313.python, py314.python) == ("3.13", "3.14")
    assert py313.conda is not None
    assert py313.conda.python == ("3.10", "3.11", "3.12", "3.13")
    assert py314.conda is None
    assert py314.pip is not None
    assert py314.warnings == (
        "torch 2.9.0 cpu on linux-64 was not published for python 3.14 (conda, conda-forge); it "
        "was published for python 3.10, 3.11, 3.12, 3.13 (did you mean '3.13'?); the cpu variant "
        "for python 3.14 gets requirements.txt only",
    )


def test_conda_only_default_python_is_the_newest_conda_forge_built() -> None:
    text = _spec_text("2.9.0", "[cpu]").replace("python: ['3.11']\n", "")
    (variant,) = _expand(text)
    assert variant.python == "3.13"  # not PyPI's newest, 3.14
    (newer,) = _expand(_spec_text("2.10.0", "[cpu]").replace("python: ['3.11']\n", ""))
    assert newer.python == "3.14"


def test_conda_only_default_python_looks_only_at_the_builds_the_spec_asks_for() -> None:
    """A cuda row that built fewer pythons does not lower a cpu-only spec's default."""
    rows = tuple(
        r.model_copy(update={"python": ("3.10",)})
        if r.release == "2.9.0" and r.kind == "cuda" and "linux-64" in r.platforms
        else r
        for r in MATRIX.conda_forge
    )
    matrix = MATRIX.model_copy(update={"conda_forge": rows})
    text = _spec_text("2.9.0", "[cpu]").replace("python: ['3.11']\n", "")
    spec = parse_spec(text, path=Path("/nonexistent/cf.yaml"))
    (variant,) = expand(spec, matrix).variants
    assert variant.python == "3.13"
    both = parse_spec(text.replace("[cpu]", "[cpu, cu129]"), path=Path("/nonexistent/cf.yaml"))
    assert {v.python for v in expand(both, matrix).variants} == {"3.10"}
