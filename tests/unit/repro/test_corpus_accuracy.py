"""Accuracy of `envgen import` on the real-file corpus, per format and per era (issue 24 item 4).

The corpus is tests/data/real/SOURCES.yaml and CORPUS.yaml (files copied from public repositories,
answers graded from facts, never from envgen's output). The thresholds are the accuracy measured
when the corpus was graded, rounded down: a change to the importer that makes it worse fails here
and prints the table and the misses; one that makes it better passes (raise the thresholds then).
The five former held-out sets (43 files measured once at 37/43, 50 files measured once at
43/50, 71 files measured once at 61/71, 107 files measured once at 90/107, then 138 files
measured once at 115/138) are folded into CORPUS.yaml. A fresh held-out set, when installed at tests/data/real-heldout/,
has its manifest read and checked here (provenance, schema, repositories used nowhere else), but its
files are never imported here; the lead measures them once with `scripts/corpus_accuracy.py
--heldout`. Without that folder the held-out tests skip.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from tests.support.corpus_report import REPORT

ROOT = Path(__file__).resolve().parents[3]
REAL = ROOT / "tests" / "data" / "real"
HELDOUT = ROOT / "tests" / "data" / "real-heldout"
needs_heldout = pytest.mark.skipif(
    not (HELDOUT / "SOURCES.yaml").is_file(), reason="no held-out set at tests/data/real-heldout/"
)

# Measured after folding the second held-out set (50 files, first measured at 43/50), batch 12
# (21 files from 20 new repositories, first measured at 17/21), batch 13 (6 files, first 5/6) and
# batches 14-16 (6 files, first 5/6) into CORPUS.yaml and fixing the families they missed (branch
# import, issue 24): 333 of 334 right overall (99.7%), 271 of 272 on the files added for
# generalization (CORPUS.yaml, 99.6%). Then the third held-out set (71 files from 65
# repositories, first measured at 61/71) folded in and its families fixed (branch import2): 404
# of 405 right overall (99.75%), 342 of 343 on CORPUS.yaml (99.7%). Then the fourth held-out
# draw (107 files from 98 repositories, first measured at 90/107) folded in and its families
# fixed (branch fold4): 510 of 512 right overall (99.6%), 448 of 450 on CORPUS.yaml (99.6%).
# Then the fifth held-out draw (138 files from 116 repositories, first measured at 115/138)
# folded in with the families of its refusals fixed (branch readers6: Pipfile, conda explicit
# files, CI files, ...), before the fixes of its wrong answers (branch resolve6): 638 of 650
# right overall (98.2%), 576 of 588 on CORPUS.yaml (98.0%). With resolve6's fixes merged, three
# entries regraded (their exact pins rule out the newest python), the pythons of a release taken
# per platform and 0.4.0's pip builds and the pre-PyPI release dates recorded: 649 of 650 (99.8%),
# 587 of 588 on CORPUS.yaml (99.8%; the miss is huggingface/hmtl, whose torch comes from a
# requirements file the script fetches). Then the sixth held-out draw (167 files from 149
# repositories, first measured at 147/167) folded in, before the fixes of its misses: 796 of 817
# (97.4%), 734 of 755 on CORPUS.yaml (97.2%). With its families fixed (branches fix6a-c) and
# sixteen entries regraded to the python their exact pins imply once their pages were recorded:
# 815 of 817 (99.8%), 753 of 755 on CORPUS.yaml (99.7%). Then the seventh held-out draw (146
# files from 122 repositories, first measured at 111/146 after those fixes) folded in, before the
# fixes of its misses: 926 of 963 (96.2%), 864 of 901 on CORPUS.yaml (95.9%). With its families
# fixed (branches fix7r, fix7p, fix7m) and five entries regraded on facts: 955 of 963 (99.2%), 893
# of 901 on CORPUS.yaml (99.1%). Then the eighth held-out draw (246 files from 225 repositories,
# first measured at 219/246) folded in, before the fixes of its misses: 1174 of 1209 (97.1%), 1112
# of 1147 on CORPUS.yaml (96.9%). With its families fixed (branches fix8r, fix8p, fix8c, fix8d)
# and entries regraded on facts: 1200 of 1209 (99.3%). Then the ninth held-out draw (211 files
# from 193 repositories, first measured at 167/211) folded in, before the fixes of its misses, and
# two entries regraded once their pins' pages were recorded: 1367 of 1420 (96.3%), 1305 of 1358 on
# CORPUS.yaml (96.1%). With its families fixed (branches fix9p, fix9v, fix9r, fix9s; a
# torchvision a named package brings in beside a named torch) and seven entries regraded on
# facts: 1407 of 1420 (99.1%), 1345 of 1358 on CORPUS.yaml (99.0%). Then the tenth held-out draw
# (228 files from 186 repositories, first measured at 204/228) folded in, before the fixes of its
# misses: 1610 of 1648 (97.7%). With its families fixed (conda-forge's route, pip install .,
# builds from the checkout root, README forms) and fourteen entries regraded on facts: 1634 of
# 1648 (99.2%), 1572 of 1586 on CORPUS.yaml (99.1%); without the fork zhouxiaoisme/docker-pytorch
# (two ninth-draw entries copying anibali/docker-pytorch): 1632 of 1646 (99.1%), 1570 of 1584.
# Then the eleventh held-out draw (262 files from 233 repositories, first measured at 229/262)
# folded in, before the fixes of its misses: 1859 of 1908 (97.4%; two older entries missed once
# the draw's recorded PyPI pages held the facts that regraded them). With its families fixed (file
# tests on the checkout, docker build/run, scripts run from the caller's folder, README forms,
# conda-forge's CUDA 12 packages, function arguments) and nine entries regraded on facts: 1892 of
# 1908 (99.2%), 1830 of 1846 on CORPUS.yaml (99.1%). Then the twelfth held-out draw (36 files,
# first measured at 31/36) folded in, the pytorch channel's unlisted builds added to the matrix
# (1.3.0-1.4.0 CUDA 10.0, 1.11.0 CUDA 11.5, ...: eight older entries regraded on that fact, one
# more on a recorded pin page) and three twelfth-draw entries regraded on facts; a build the
# channel never had no default, one more entry regraded on the channels' cudatoolkits: 1927 of
# 1944 (99.1%), 1865 of 1882 on CORPUS.yaml (99.0%). Then the thirteenth held-out draw (168
# files from 146 repositories, first measured at 143/168) folded in, with its families fixed
# (Dockerfiles built from the checkout root, the python rule on the pip route, shell forms, hatch
# and pipenv run, the pytorch channel's 0.2.0-0.4.0 conda builds) and eleven entries regraded on
# facts (four of the draw's, seven older ones whose facts the draw's recorded pages or the
# recipes brought): 2094 of 2112 (99.1%). Then the fourteenth held-out draw (69 files, first
# measured at 61/69) folded in, its families fixed and one entry regraded on facts: 2162 of 2181
# (99.1%), 2101 of 2120 on CORPUS.yaml (99.1%). Then the fifteenth held-out draw (157 files from
# 150 repositories, first measured at 142/157) folded in, its families fixed (mended YAML lines,
# needs lists, sourced scripts, menu cases, text pipelines, exports, COPY patterns, static
# PKG-INFO) and four entries regraded on facts (one of the draw's, three older ones whose pins'
# recorded pages the draw brought): 2317 of 2338 (99.1%), 2256 of 2277 on CORPUS.yaml (99.1%).
# Then the sixteenth held-out draw (72 files from 61 repositories, first measured at 61/72)
# folded in, its families fixed and two entries regraded (one of the draw's; one older entry by
# the rule the draw's grading applied to a conda companion pin); a script's conda channels read
# per command moved one older entry off its grade (left, said in the docs): 2387 of 2410 (99.0%),
# 2326 of 2349 on CORPUS.yaml (99.0%). Then the seventeenth held-out draw (166 files from 140
# repositories, first measured at 155/166) folded in, its families fixed (sed -i, files a command
# writes, CI jobs and YAML 1.2 tabs, a companion picking torch, docker/ entrypoints, post-releases
# in prose): 2548 of 2576 (98.9%); then the eighteenth (72 files from 57 repositories, first
# measured at 61/72, after the seventeenth's fixes) folded in, its families fixed (underlined
# headings, steps for an earlier version of the code, a Dockerfile built from the folder above,
# pixi.lock, a repository URL's package by date): 2618 of 2648; then the nineteenth (32 files,
# first measured at 28/32, after the eighteenth's fixes) folded in, its families fixed (make, the
# test builtin, a Pipfile's path package): 2649 of 2680 (98.8%), 2588 of 2619 on CORPUS.yaml
# (98.8%). Then the twentieth (124 files, first measured at 111/124) and the twenty-first (55
# files, first measured at 50/55, after the twentieth's fixes) folded in, their families fixed
# (poetry.lock, requires-python bounding the pins' python, an installed extension page not
# picking torch's build, another publisher's pytorch image): 2829 of 2859 (98.9%), 2767 of 2797
# on CORPUS.yaml (98.9%). Then the twenty-second (109 files, first measured at 92/109, after the
# twenty-first's fixes) folded in, its families fixed (a Pre-requisites heading, a docs/ install
# guide run from the clone, conda run, bash arrays, a Makefile imported itself, an unpinned
# torchvision after an exact torch): 2933 of 2968 (98.8%), 2871 of 2906 on CORPUS.yaml (98.8%).
# Then the twenty-third (102 files, first measured at 88/102, after the twenty-second's fixes)
# folded in, some of its families fixed (shell aliases, uv's index source for torch, a conda list
# saved as .md, a README block running INSTALL.sh): 3026 of 3070 (98.6%), 2964 of 3008 on
# CORPUS.yaml (98.5%). Then the twenty-fourth (112 files, first measured at 81/112, after the
# twenty-third's fixes) folded in, its families fixed (the flat torch_stable.html page's
# greatest local version, commands run inside containers and tools' environments, tox's
# braces, PowerShell's catch blocks, a project's own wheel, torch only in an extra refused,
# the 1.3.x +cu100 wheels, four entries regraded to them): 3126 of 3182 (98.2%), 3064 of 3120
# on CORPUS.yaml (98.2%). Then the twenty-fifth (85 files, first measured at 70/85, after the
# twenty-fourth's fixes) folded in, some of its families fixed (a requirement's extras, a CI job
# that installs torch over one that mentions it, a Makefile goal that installs torch, a
# cluster's module system absent): 3200 of 3267 (97.9%), 3138 of 3205 on CORPUS.yaml (97.9%).
# Then the twenty-sixth (75 files, first measured at 62/75, after a Requires-Dist floor over an
# installed torch landed) folded in, its families fixed (a subfolder script's paths from the
# root, a later command's index, a python.org link, ADD to /tmp, PowerShell paths, a $PIP found
# on the machine, a downloaded wheel by python branch, `torchvision=0.5.0` on a pip line; one
# older entry regraded to a Requires-Dist it missed): 3271 of 3342 (97.9%), 3209 of 3280 on
# CORPUS.yaml (97.8%). Then the review's mends (a PyTorch index of a command whose -r file was
# not read stays; a later pip command's package replaces an earlier pip command's torch too,
# which moves three older entries whose kept companions now conflict, two regraded to the
# Requires-Dist they missed): 3268 of 3342 (97.8%), 3206 of 3280 on CORPUS.yaml (97.7%).
# Then the twenty-seventh (93 files, first measured at 81/93, after the twenty-sixth's fixes and
# their review's mends) folded in, its families fixed (prose after a link, Python(3.6), a bare
# clone URL, an indented venv step, a nightly torch refused, parse_requirements in setup.py, an
# extra index without the release, a later exact torch's own index, a downloaded wheel file):
# 3358 of 3435 (97.8%), 3296 of 3373 on CORPUS.yaml (97.7%). Then the twenty-eighth (72 files,
# first measured at 61/72, after the twenty-seventh's fixes and their review's mends) folded in,
# some of its families fixed (`cd -- "$(dirname -- ...)" &> /dev/null && pwd`, a Travis matrix's
# jobs chosen by their env): 3423 of 3507 (97.6%), 3361 of 3445 on CORPUS.yaml (97.6%). Rounded
# down.
MIN_OVERALL = 0.976
MIN_NEW = 0.975


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "corpus_accuracy", ROOT / "scripts" / "corpus_accuracy.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ca = _script()


@pytest.fixture(scope="module")
def outcomes() -> list[Any]:
    return list(ca.measure(ca.MAIN))


# Every corpus file imported (about five minutes on two cores): `make test-slow`, which CI runs.
@pytest.mark.slow
def test_accuracy_per_format_and_era(outcomes: list[Any], request: pytest.FixtureRequest) -> None:
    report = ca.render(outcomes)
    request.config.stash[REPORT] = report  # printed in the run's summary (tests/support)
    right = sum(o.hit for o in outcomes)
    assert right / len(outcomes) >= MIN_OVERALL, report
    new = {e["import"] for e in yaml.safe_load((REAL / "CORPUS.yaml").read_text())}
    fresh = [o for o in outcomes if o.entry in new]
    assert sum(o.hit for o in fresh) / len(fresh) >= MIN_NEW, report


def test_table_groups_by_format_and_era() -> None:
    hit = ca.Outcome("a/requirements.txt", "requirements", "2020", {"torch": "1"}, {"torch": "1"})
    miss = ca.Outcome("b/install.sh", "shell", "2020", {"torch": "1"}, {"refused": True})
    assert ca.table([hit, miss], "era") == [("2020", 1, 2)]
    assert ca.table([hit, miss], "format") == [("requirements", 1, 1), ("shell", 0, 1)]
    assert "b/install.sh [shell, 2020]" in ca.render([hit, miss])


def test_formats_are_read_from_file_names(tmp_path: Path) -> None:
    cases = {
        "environment.yml": "conda-env", "requirements-dev.txt": "requirements",
        "Dockerfile.gpu": "dockerfile", "install.sh": "shell", "setup.bat": "batch",
        "setup.py": "setup.py", "pyproject.toml": "pyproject", "INSTALL.md": "readme",
        "Pipfile": "pipfile", "pixi.toml": "pixi", "conda_packagelist.txt": "conda-list", "spec-file.txt": "conda-list",
        "Singularity": "singularity", "notes.txt": "other",
    }  # fmt: skip
    for name, fmt in cases.items():
        (tmp_path / name).write_text("")
        assert ca.file_format(tmp_path, {"import": name}) == fmt, name
    assert ca.file_format(tmp_path.parent, {"import": tmp_path.name}) == "repository"
    # a .def is a Singularity / Apptainer definition file only with its `Bootstrap:` header
    (tmp_path / "train.def").write_text("# GPU image\nBootstrap: docker\nFrom: ubuntu:20.04\n")
    (tmp_path / "spam.def").write_text("LIBRARY spam\nEXPORTS\n    PyInit_spam\n")
    assert ca.file_format(tmp_path, {"import": "train.def"}) == "singularity"
    assert ca.file_format(tmp_path, {"import": "spam.def"}) == "other"
    (tmp_path / "dockerfiles").mkdir()
    (tmp_path / "dockerfiles" / "cuda_torch04").write_text("")
    assert ca.file_format(tmp_path, {"import": "dockerfiles/cuda_torch04"}) == "dockerfile"
    # CI files are their own format, not conda environments for being YAML
    (tmp_path / ".travis.yml").write_text("")
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / ".github" / "workflows" / "test.yml").write_text("")
    assert ca.file_format(tmp_path, {"import": ".travis.yml"}) == "ci"
    assert ca.file_format(tmp_path, {"import": ".github/workflows/test.yml"}) == "ci"
    assert ca.era({"date": "2019-02-04"}) == "2019"
    assert ca.era({}) == ca.UNDATED


@pytest.mark.parametrize(
    "manifest", [REAL / "CORPUS.yaml", pytest.param(HELDOUT / "SOURCES.yaml", marks=needs_heldout)]
)
def test_corpus_entries_have_provenance(manifest: Path) -> None:
    """Every file is recorded with owner/repo, the commit it was copied at and that commit's date."""
    for entry in yaml.safe_load(manifest.read_text()):
        folder = manifest.parent / entry["import"].split("/")[0]
        assert (manifest.parent / entry["import"]).exists(), entry["import"]
        assert entry["repo"].count("/") == 1
        assert folder.name == entry["repo"].replace("/", "__", 1)
        for rel in entry["path"]:
            copied = folder / rel
            assert copied.is_file(), copied
            # the largest copied file: a uv.lock, 499 KiB
            assert copied.stat().st_size <= 512 * 1024, copied
        assert re.fullmatch(r"[0-9a-f]{40}( \(.+\))?(, [0-9a-f]{40} \(.+\))*", entry["commit"])
        assert re.fullmatch(r"20(1[7-9]|2[0-6])-\d\d-\d\d", entry["date"]), entry["date"]
        assert entry["why"]
        expected = entry["expected"]
        assert expected == {"refused": True} or set(expected) == set(ca.KEYS)


def _repos(manifest: Path) -> set[str]:
    return {e["repo"].lower() for e in yaml.safe_load(manifest.read_text())}


@needs_heldout
def test_heldout_is_new_repositories_a_fifth_apart() -> None:
    """The held-out set: at least 45 files from 35 repositories used nowhere else in tests/data/.
    With the earlier draws (each measured once, then folded into CORPUS.yaml under a heading that
    says its size) the files kept apart are at least a fifth of the generalization corpus; one
    draw alone is no longer a fifth of 3,000 files."""
    held = yaml.safe_load((HELDOUT / "SOURCES.yaml").read_text())
    text = (REAL / "CORPUS.yaml").read_text()
    main = yaml.safe_load(text)
    assert len(held) >= 45
    assert len({e["repo"] for e in held}) >= 35
    heading = r"^# The [\w-]+ held-out (?:fifth|set|draw) \((\d+) files"
    folded = re.findall(heading, text, re.MULTILINE)
    assert len(folded) >= 20, folded
    assert (sum(map(int, folded)) + len(held)) * 5 >= len(main) + len(held)
    seen = _repos(REAL / "SOURCES.yaml") | _repos(REAL / "CORPUS.yaml")
    seen |= {d.name.replace("__", "/", 1).lower() for d in REAL.iterdir() if "__" in d.name}
    other = (ROOT / "tests" / "data" / "extensions-real" / "SOURCES.md").read_text().lower()
    for repo in sorted(_repos(HELDOUT / "SOURCES.yaml")):
        assert repo not in seen, f"{repo} is already in tests/data/real/"
        assert f"| {repo} |" not in other, f"{repo} is already in tests/data/extensions-real/"


@needs_heldout
def test_heldout_manifest_reads_without_importing() -> None:
    """A dry parse of what `corpus_accuracy.py --heldout` reads: every entry has a known format,
    an era of 2017-2026 and an answer of the graded shape (no file is imported)."""
    loaded = ca.load(ca.HELDOUT)
    assert [e["import"] for _, e in loaded] == [
        e["import"] for e in yaml.safe_load((HELDOUT / "SOURCES.yaml").read_text())
    ]
    known = {"ci", "other", *(name for name, _ in ca._FORMATS)}  # other: a name no rule knows
    for root, entry in loaded:
        assert ca.file_format(root, entry) in known, entry["import"]
        assert "2017" <= ca.era(entry) <= "2026", entry["import"]
        want = entry["expected"]
        if want == {"refused": True}:
            continue
        assert want["python"] is None or re.fullmatch(r"[23]\.\d+", want["python"]), want
        assert re.fullmatch(r"\d+\.\d+\.\d+(\.post\d+)?", want["torch"]), want
        for companion in ("torchvision", "torchaudio"):
            value = want[companion]
            version = r"\d+\.\d+\.\d+(\.post\d+)?"
            assert isinstance(value, bool) or re.fullmatch(version, value), want
        assert want["accelerators"], want
        assert all(re.fullmatch(r"cpu|cu\d{2,3}|rocm[\d.]+", a) for a in want["accelerators"])
        assert want["managers"], want
        assert set(want["managers"]) <= {"pip", "conda"}, want
        assert "rule" not in entry or entry["rule"].strip(), entry["import"]
