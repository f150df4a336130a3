"""matrices/gpu-archs.yaml derived per release (scripts/derive_gpu_archs.py), and doctor on it.

Offline: the derivation reads the recorded artifacts in tests/data/recorded/gpu-archs/ (each
release's PyPI wheel facts and its pytorch/builder release-branch scripts, evaluated).
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from envgen.doctor.host import Gpu, HostInfo
from envgen.doctor.verdicts import VariantTarget, assess_variants, gpu_facts
from envgen.model.matrix import arch_names, load_matrix
from envgen.smoke.script import arch_support

ROOT = Path(__file__).parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import derive_gpu_archs as dga  # noqa: E402


@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_the_file_is_what_the_derivation_writes() -> None:
    text = dga.MATRIX.read_text()
    assert dga.derive_text(text)[0] == text, "run python scripts/derive_gpu_archs.py --write"


# Forms the builder scripts use, written here (not copied): a base list, a case on the CUDA
# version with globs and alternatives, the aarch64 branch, the override, an unknown version.
CASE_SCRIPT = """
TORCH_CUDA_ARCH_LIST="3.7;5.0"
case ${CUDA_VERSION} in
    12.4|12.6)
        if [[ "$GPU_ARCH_TYPE" = "cuda-aarch64" ]]; then
            TORCH_CUDA_ARCH_LIST="9.0"
        else
            TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST};9.0"
        fi
        ;;
    11.[0-9])
        TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST};7.5;8.0"
        ;;
    10.*)
        export TORCH_CUDA_ARCH_LIST=";${TORCH_CUDA_ARCH_LIST}"
        ;;
    *)
        echo "unknown cuda version $CUDA_VERSION"
        exit 1
        ;;
esac
if [[ -n "$OVERRIDE_TORCH_CUDA_ARCH_LIST" ]]; then
    TORCH_CUDA_ARCH_LIST="$OVERRIDE_TORCH_CUDA_ARCH_LIST"
fi
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST}
"""
IF_SCRIPT = """
export TORCH_CUDA_ARCH_LIST="3.5;5.0+PTX"
if [[ $CUDA_VERSION == "8.0" ]]; then
    export TORCH_CUDA_ARCH_LIST="$TORCH_CUDA_ARCH_LIST;6.0;6.1"
elif [[ $CUDA_VERSION == "9.0" ]] || [[ $CUDA_VERSION == "9.1" ]]; then
    export TORCH_CUDA_ARCH_LIST="$TORCH_CUDA_ARCH_LIST;6.0;7.0"
fi
echo $TORCH_CUDA_ARCH_LIST
"""


@pytest.mark.parametrize(
    ("script", "cuda", "aarch64", "expected"),
    [
        (CASE_SCRIPT, "12.6", False, "3.7;5.0;9.0"),
        (CASE_SCRIPT, "12.4", True, "9.0"),
        (CASE_SCRIPT, "11.3", False, "3.7;5.0;7.5;8.0"),
        (CASE_SCRIPT, "10.2", False, "3.7;5.0"),  # the empty entry `;${LIST}` leaves is dropped
        (CASE_SCRIPT, "12.1", False, None),  # the `*)` branch exits: no such build
        (IF_SCRIPT, "9.1", False, "3.5;5.0+PTX;6.0;7.0"),
        (IF_SCRIPT, "8.0", False, "3.5;5.0+PTX;6.0;6.1"),
        (IF_SCRIPT, "9.2", False, "3.5;5.0+PTX"),
    ],
)
def test_the_script_evaluator(script: str, cuda: str, aarch64: bool, expected: str | None) -> None:
    assert dga.evaluate_sh(script, cuda, aarch64=aarch64) == expected


def test_an_unknown_condition_is_an_error_not_a_guess() -> None:
    script = 'TORCH_CUDA_ARCH_LIST="5.0"\nif [[ "$DESIRED_CUDA" == cu* ]]; then\nfi\n'
    with pytest.raises(dga.ScriptError, match="unknown condition"):
        dga.evaluate_sh(script, "12.1")


def test_wheel_flags_become_an_arch_list() -> None:
    assert dga.flags_to_list("sm_50 sm_60 sm_90 compute_90") == "5.0;6.0;9.0+PTX"


def test_a_row_without_a_public_source_is_not_carried() -> None:
    """A build neither a wheel nor a release branch covers keeps its earlier row's values only
    where that row names a URL or owner/repo@commit; else it gets no row (issue 23)."""
    builds = {"2.6.0": {"linux-64": {"11.8", "12.6"}}}
    old = [
        {
            "torch": ">=2.6.0,<2.8.0",
            "cuda": ["11.8"],
            "platforms": ["linux-64"],
            "arch-list": "3.7;5.0",
            "source": "copy: a build script's table found by searching, citing build_cuda.sh",
        },
        {
            "torch": "==2.6.0",
            "cuda": ["12.6"],
            "platforms": ["linux-64"],
            "arch-list": "5.0;9.0",
            "source": "pytorch/pytorch@00c7a380b8:.ci/manywheel/build_cuda.sh",
        },
    ]
    facts = dga.derive(builds, {}, {}, old)
    assert set(facts) == {("2.6.0", "linux-64", "12.6")}
    kept = facts[("2.6.0", "linux-64", "12.6")]
    assert (kept.arch_list, kept.inferred) == ("5.0;9.0", True)
    assert kept.note.startswith("rule: not derived (built from pytorch/pytorch .ci/")


def test_every_derived_row_is_its_releases_recorded_fact() -> None:
    """A row without `inferred` says what the release's own wheel or release branch says."""
    wheels = json.loads(dga.WHEELS_FILE.read_text())["wheels"]
    builder = json.loads(dga.BUILDER_FILE.read_text())["releases"]
    releases = [r.torch for r in load_matrix().releases]
    checked = 0
    for row in load_matrix().gpu_archs:
        if row.inferred or row.kind != "cuda":
            continue
        for release in [r for r in releases if Version(r) in SpecifierSet(row.torch)]:
            for cuda in row.versions:
                for platform in row.platforms:
                    arch = {"linux-64": "x86_64", "linux-aarch64": "aarch64"}.get(platform)
                    wheel = wheels.get(f"{release} {arch}", {})
                    if row.source.startswith("pypi-wheel:"):
                        assert dga.flags_to_list(wheel["arch-flags"]) == row.arch_list
                        assert dga.cuda_short(wheel["cuda"]) == cuda
                        checked += 1
                        continue
                    rec = builder[release]
                    assert rec["commit"] in row.source
                    assert not rec["ref"].startswith("main"), row  # a release branch
                    path = row.source.split(f"{rec['commit']}/", 1)[1]
                    found = rec["files"][path]["cuda"].get(cuda, {}).get(platform)
                    if found is None:  # the release does not build this CUDA version here
                        continue
                    assert found == row.arch_list
                    checked += 1
    assert checked > 100


def _host(*gpus: Gpu) -> HostInfo:
    return HostInfo(
        platform="linux-64",
        system="Linux",
        machine="x86_64",
        python="3.11.9",
        glibc="2.35",
        nvidia_driver="580.65.06",
        gpus=gpus,
    )


def _dropped() -> list[tuple[str, str, str]]:
    """(release, CUDA version, compute capability): a GPU generation the previous release ran in
    some linux-64 CUDA build that this build of the next release cannot run (per the matrix)."""
    matrix = load_matrix()
    releases = [r.torch for r in matrix.releases]
    lists: dict[str, dict[str, str]] = {}
    for release in releases:
        for build in matrix.pip:
            on_linux = "linux-64" in build.platforms
            if build.release == release and build.kind == "cuda" and build.version and on_linux:
                row = matrix.arch_row(release, "cuda", build.version, "linux-64")
                if row is not None:
                    lists.setdefault(release, {})[build.version] = row.arch_list
    out = []
    for before, after in itertools.pairwise(releases):
        if before not in lists or after not in lists:
            continue
        ran = {a.split("+")[0] for arch in lists[before].values() for a in arch.split(";")}
        for version, arch_list in lists[after].items():
            for cap in sorted(ran, key=Version):
                major, minor = (int(n) for n in cap.split("."))
                if arch_support((major, minor), arch_names(arch_list)) is None:
                    out.append((after, version, cap))
    return out


def test_doctor_judges_a_generation_a_release_dropped_unsupported() -> None:
    dropped = _dropped()
    # From each release's own artifacts: 2.8.0's cu128 wheel has no sm_50/sm_60 (2.7.x's cu126
    # wheel had them); builder's release/2.1 has no sm_37 for CUDA 12.1 (2.0's 11.7 had it).
    assert ("2.8.0", "12.8", "5.0") in dropped
    assert ("2.1.0", "12.1", "3.7") in dropped
    facts = gpu_facts(load_matrix(), "linux", "linux-64")
    for release, version, cap in dropped:
        gpu = Gpu(name=f"a GPU of compute capability {cap}", compute_capability=cap)
        target = VariantTarget("cu" + version.replace(".", ""), "cuda", version, release)
        (verdict,) = assess_variants(_host(gpu), [target], facts)
        assert verdict.verdict == "no", (release, version, cap, verdict)
        assert f"has no kernels in torch {release}" in verdict.reason


# The ROCm block of a build_docker.sh in the forms the release branches use, written here (not
# copied): a base list, an append under a ROCm version test, `+=`, and the hand-off line.
ROCM_SCRIPT = """
    rocm)
        PYTORCH_ROCM_ARCH="gfx900;gfx906"
        if [[ $GPU_ARCH_VERSION =~ $ROCM_REGEX ]]; then
            ROCM_VERSION_INT=1
        else
            exit 1
        fi
        if [[ $ROCM_VERSION_INT -ge 40300 ]]; then
            PYTORCH_ROCM_ARCH="${PYTORCH_ROCM_ARCH};gfx90a"
        fi
        if [[ $ROCM_VERSION_INT -ge 60000 ]]; then
            PYTORCH_ROCM_ARCH+=";gfx942"
        fi
        DOCKER_GPU_BUILD_ARG="--build-arg PYTORCH_ROCM_ARCH=${PYTORCH_ROCM_ARCH}"
        ;;
"""


@pytest.mark.parametrize(
    ("rocm", "expected"),
    [
        ("4.2", "gfx900;gfx906"),
        ("4.3", "gfx900;gfx906;gfx90a"),
        ("5.7", "gfx900;gfx906;gfx90a"),
        ("6.0", "gfx900;gfx906;gfx90a;gfx942"),
    ],
)
def test_the_rocm_script_evaluator(rocm: str, expected: str) -> None:
    assert dga.evaluate_rocm_sh(ROCM_SCRIPT, rocm) == expected


def test_a_rocm_list_set_under_an_unknown_condition_is_an_error() -> None:
    script = 'PYTORCH_ROCM_ARCH="gfx900"\nif [[ -n "$X" ]]; then\n  PYTORCH_ROCM_ARCH="gfx1"\nfi\n'
    with pytest.raises(dga.ScriptError):
        dga.evaluate_rocm_sh(script, "6.0")


def test_every_rocm_build_of_a_builder_branch_is_derived_from_its_own_branch() -> None:
    """The ROCm builds of 1.11-2.4 each have a row from their release branch's commit (never
    main), with the list recorded for that branch and ROCm version; no other row is derived."""
    recorded = json.loads(dga.ROCM_FILE.read_text())["releases"]
    pip_rows = [r for r in load_matrix().pip if r.kind == "rocm"]
    matrix = load_matrix()
    covered = 0
    for b in pip_rows:
        row = matrix.arch_row(b.release, "rocm", b.version or "", "linux-64")
        rec = recorded.get(b.release)
        if rec is None or not rec["lists"]:
            assert row is None or row.inferred, (b.release, b.version)
            continue
        assert row is not None, (b.release, b.version)
        assert rec["ref"] == f"release/{'.'.join(b.release.split('.')[:2])}"
        assert row.source == f"pytorch/builder@{rec['commit']}:manywheel/build_docker.sh"
        assert row.arch_list == rec["lists"][b.version]
        assert not row.inferred
        covered += 1
    assert covered == 18
