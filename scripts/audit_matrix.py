"""Audit the matrix: draw N rows at random per family and check each against its source again.

The job (issue 23 item 4): for every family of rows under matrices/, draw up to N rows with a
seeded random generator, check each one against the artifact it was derived from, re-read where
this machine reaches it, and print `right`, `wrong` or `unverifiable` per row with how it was
checked, then a table of counts per family. Exit 1 when a row is wrong.

How each family is checked (the artifact, not envgen's own parser, wherever one can be read):

* releases      PyPI's PEP 691 file list of torch, torchvision and torchaudio, fetched live
                (`--offline`: tests/data/recorded/pypi/), with the recorded Requires-Dist of the
                companions: python, pypi-wheels, date and the companion pins are derived again and
                compared field by field. Fields a row marks `inferred` are not checked (said so);
                a row with nothing read from PyPI is unverifiable.
* companions    the wheel the row names (`source`): its core metadata (PEP 658 `.metadata`)
                fetched live and its `torch` Requires-Dist compared (`--offline`: the recording).
* pip / conda   the command the row renders (or its `published` text) must be a command line of
                the recorded previous-versions page, its recorded copies or the recorded
                quick-start data, token for token (pip3 / pip, `===` / `==`, order aside). Rows
                installed from PyPI itself (`index: pypi`) are checked against PyPI's live file
                list instead (a wheel of that version for each of the row's platforms). Other
                hand-curated rows cite repositories this machine cannot read: unverifiable.
* conda-forge   derived again from git mirrors of the feedstocks (`--mirrors`, default
                /work/.mirror) with scripts/refresh_conda_forge.py; without mirrors, unverifiable.
* gpu-archs     a row from a pytorch/builder script: the script at the row's commit evaluated
                again for each CUDA version (from a git mirror of pytorch/builder under
                `--mirrors`; else the recorded evaluation, tests/data/recorded/gpu-archs/); a
                `pypi-wheel:` row: the arch flags compiled into PyPI's wheel of a release it covers,
                read live (`--offline`: the recorded flags). Rows a release could not be derived
                for (their note says `rule: not derived`): unverifiable. A ROCm row from a
                builder branch: build_docker.sh at the row's commit evaluated again for each
                ROCm version (mirror, else tests/data/recorded/gpu-archs/rocm-build-scripts.json).
* extensions    a PyG extension's build row (torch-scatter, -sparse, -cluster, -spline-conv):
                the wheel workflow at the row's commit expanded again (from a git mirror of the
                project under `--mirrors`; else the recorded expansion, tests/data/recorded/
                extensions/) must build exactly the row's accelerators with its pythons.
                pyg-lib and flash-attn rows: their tag's workflows (and flash-attn's setup.py)
                re-read at the row's commit the same way (scripts/derive_ext_pyg.py recheck);
                dgl rows: PyPI's files of the version (platform, pythons; the torch series is
                inferred), CUDA rows without a PyPI fact unverifiable.
                mmcv-full, mmcv, detectron2, pytorch3d: the install table, selector or build
                script the row cites (owner/repo@commit:path) read again from the mirror (else
                the recording) must say each of the row's builds (scripts/derive_ext_mm.py).
                Other extensions cite pages this machine does not reach: unverifiable.
* drivers, known-issues
                NVIDIA's release notes and issue threads, which this machine does not reach:
                unverifiable here, listed with their source so a reader can check them by hand.
* era           derived again from PyPI's upload times (scripts/refresh_era.py's rule, live).
* pypi-routes   the torch wheel the evidence names: on PyPI with that sha256 and size, and its
                torch/version.py (read live) has the row's CUDA version.
* inferred-builds
                checked as the pip / conda rows they become (above).
* url-packages  the repository's requirements file at the row's commit, re-read from its
                mirror (else unverifiable): its torch-family lines are the row's `requires`.
* base-images, conda-installers, build-dependencies, conda-pypi-names, cuda-images,
  incompatibilities, minor-compat, package-issues, targets
                NVIDIA's pages, measurements, mappings and docs this machine does not re-read:
                unverifiable, listed with their source (every matrix file has a family).

Deterministic for a seed; the network is PyPI only (pypi.org's simple API and its files host).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

import yaml
from packaging.utils import parse_wheel_filename
from packaging.version import Version

from envgen.model.matrix import CondaBuild, PipBuild
from envgen.render.commands import conda_command, pip_command
from envgen.verification.pypi import (
    PACKAGES,
    PackageFacts,
    PypiFacts,
    fetch_simple,
    fetch_wheel_member,
    fetch_wheel_metadata,
    parse_simple,
    requires_dist_lines,
    torch_specifier,
    wheel_platform,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import derive_ext_mm
import derive_ext_pyg
import derive_extensions
import derive_gpu_archs
import quickstart_data
import refresh_conda_forge
import refresh_era
import refresh_releases
import wheel_facts
from pypi_facts import RECORDED as PYPI_RECORDED
from refresh_matrix import COPIES_DIR, PAGE_FILE

ROOT: Final = Path(__file__).resolve().parent.parent
MATRICES: Final = ROOT / "matrices"
Verdict = Literal["right", "wrong", "unverifiable"]
VERDICTS: Final[tuple[Verdict, ...]] = ("right", "wrong", "unverifiable")
FAMILIES: Final = (
    "releases",
    "companions",
    "pip",
    "conda",
    "conda-forge",
    "gpu-archs",
    "drivers",
    "extensions",
    "known-issues",
    "era",
    "pypi-routes",
    "inferred-builds",
    "base-images",
    "conda-installers",
    "build-dependencies",
    "conda-pypi-names",
    "cuda-images",
    "incompatibilities",
    "minor-compat",
    "package-issues",
    "targets",
    "url-packages",
)
MAX_ROWS: Final = 10_000  # the most rows per family a sample is drawn from (every input bounded)


@dataclass(frozen=True, slots=True)
class Check:
    family: str
    row: str
    verdict: Verdict
    how: str


# --- sources ---------------------------------------------------------------------------------
class Sources:
    """What the checks read: PyPI (live, or the recordings with offline=True) and the recorded
    pages. Each PyPI page is fetched once."""

    def __init__(self, *, offline: bool, mirrors: Path, timeout: float = 60.0) -> None:
        self.offline = offline
        self.mirrors = mirrors
        self.timeout = timeout
        self._raw: dict[str, dict[str, Any]] = {}
        self._facts: PypiFacts | None = None
        self._lines: frozenset[frozenset[str]] | None = None
        self._builds: dict[tuple[str, str], tuple[str, str, frozenset[str]] | None] = {}

    def raw(self, name: str) -> dict[str, Any]:
        if name not in self._raw:
            if self.offline:
                path = PYPI_RECORDED / f"{name}.json"
                self._raw[name] = json.loads(path.read_text(encoding="utf-8"))
            else:
                self._raw[name] = fetch_simple(name, timeout=self.timeout)
        return self._raw[name]

    def where(self) -> str:
        return "recorded PyPI files" if self.offline else "PyPI (live)"

    def facts(self) -> PypiFacts:
        """Facts from the file lists read now, with the recorded Requires-Dist (one wheel's
        METADATA per companion version; the companions family re-reads those live)."""
        if self._facts is None:
            packages: dict[str, PackageFacts] = {}
            for name in PACKAGES:
                recorded = json.loads((PYPI_RECORDED / f"{name}.json").read_text(encoding="utf-8"))
                packages[name] = parse_simple(
                    self.raw(name), recorded.get("requires-dist"), recorded.get("metadata-from")
                )
            self._facts = PypiFacts(packages=packages)
        return self._facts

    def command_lines(self) -> frozenset[frozenset[str]]:
        """Every install command of the recorded page, its copies and the quick-start data,
        each as its normalized token set."""
        if self._lines is None:
            texts = [PAGE_FILE.read_text(encoding="utf-8")]
            texts += [p.read_text(encoding="utf-8") for p in sorted(COPIES_DIR.glob("*.md"))]
            lines = [line for text in texts for line in text.splitlines()]
            for path, source in quickstart_data.QUICKSTART_FILES:
                for entry in quickstart_data.load_recorded(path, source):
                    lines += (entry.command or "").splitlines()
            self._lines = frozenset(
                tokens(line) for line in lines if re.search(r"\b(pip3?|conda) install ", line)
            )
        return self._lines

    def pypi_build(self, version: str, platform: str) -> tuple[str, str, frozenset[str]] | None:
        """PyPI's torch wheel of `version` for `platform` when it is a CUDA build: its CUDA
        major.minor, file name and the arch flags in its libtorch_python.so (read live, once)."""
        key = (version, platform)
        if key not in self._builds:
            self._builds[key] = None
            wheel = _a_wheel(self, version, platform)
            if wheel is not None:
                name, url = wheel
                text = fetch_wheel_member(
                    url, lambda m: m == "torch/version.py", timeout=self.timeout
                )
                found = re.search(r"^cuda(?:: [^=]+)? = '(\d+\.\d+)", text, re.MULTILINE)
                if found:
                    lib = fetch_wheel_member(
                        url, lambda m: m == "torch/lib/libtorch_python.so", timeout=self.timeout
                    )
                    flags = frozenset(
                        f for line in wheel_facts.arch_flags(lib) for f in line.split()
                    )
                    self._builds[key] = (found.group(1), name, flags)
        return self._builds[key]

    def metadata(self, name: str, filename: str) -> str | None:
        """The core metadata of one wheel of a project page, fetched now; None when the page
        has no such file."""
        for f in self.raw(name).get("files", ()):
            if f.get("filename") != filename:
                continue
            if not f.get("url"):
                return None
            meta = f.get("core-metadata", f.get("data-dist-info-metadata"))
            # PEP 658 `.metadata` where the index serves it, else the wheel's METADATA member
            # through HTTP range reads (envgen.verification.pypi).
            return fetch_wheel_metadata(f["url"], core_metadata=bool(meta), timeout=self.timeout)
        return None


def tokens(command: str) -> frozenset[str]:
    """A command line's words, as pip and conda read them: `pip3` is `pip`, `===` is `==`, a
    `%2B` in a URL is `+`; the order of the words and markdown around them do not count."""
    line = command.strip().strip("`").replace("pip3 ", "pip ").replace("===", "==")
    line = line.replace("%2B", "+")
    return frozenset(w for w in line.split() if w not in {"$", "#"})


def unpinned(command: str) -> frozenset[str]:
    """A command's tokens without the family's version pins (`torch==2.2.0+rocm5.7` is
    `torch`; `cudatoolkit=11.3` stays as it is)."""
    return frozenset(_FAMILY_PIN.sub(r"\1", w) for w in tokens(command))


_FAMILY_PIN: Final = re.compile(r"^(torch|torchvision|torchaudio|pytorch)(?:={1,3}|[<>!~]=?)\S*$")


# --- families --------------------------------------------------------------------------------
def _load(name: str) -> list[dict[str, Any]]:
    data = yaml.safe_load((MATRICES / name).read_text(encoding="utf-8"))
    if name == "extensions.yaml":  # one row per build of each extension
        data = [
            {**b, "name": e["name"], "source": b.get("source") or e.get("source")}
            for e in data
            for b in e.get("builds", ())
        ]
    if isinstance(data, dict):  # sectioned files: every list of rows, the section named
        data = [
            {**row, "_section": section}
            for section, rows in data.items()
            if isinstance(rows, list)
            for row in rows
            if isinstance(row, dict)
        ]
    rows = list(data or [])
    if len(rows) > MAX_ROWS:
        msg = f"matrices/{name}: {len(rows)} rows, more than the audit reads ({MAX_ROWS})"
        raise SystemExit(msg)
    return rows


def check_releases(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    tables = yaml.safe_load(refresh_releases.TABLES.read_text(encoding="utf-8"))
    derived = {r["torch"]: r for r in refresh_releases.build_rows(src.facts(), tables)}
    out = []
    for row in rows:
        ident = f"torch {row['torch']}"
        inferred = set(row.get("inferred", ()))
        if "pypi" not in row["source"].split(";")[0]:
            out.append(Check("releases", ident, "unverifiable", f"not on PyPI: {row['source']}"))
            continue
        again = derived.get(row["torch"])
        if again is None:
            out.append(
                Check("releases", ident, "wrong", f"{src.where()} has no torch {row['torch']}")
            )
            continue
        fields = ("torchvision", "torchaudio", "python", "pypi-wheels", "date")
        differ = [
            f"{f}: row {row.get(f)!r}, {src.where()} {again.get(f)!r}"
            for f in fields
            if f not in inferred and row.get(f) != again.get(f)
        ]
        checked = [f for f in fields if f not in inferred]
        note = f" (inferred, not checked: {', '.join(sorted(inferred))})" if inferred else ""
        if differ:
            out.append(Check("releases", ident, "wrong", "; ".join(differ)))
        else:
            how = f"{', '.join(checked)} derived again from {src.where()}{note}"
            out.append(Check("releases", ident, "right", how))
    return out


_SOURCE_WHEEL: Final = re.compile(r"\(([^()\s]+\.whl)\)")


def check_companions(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    out = []
    for row in rows:
        ident = f"{row['package']} {row['version']}"
        m = _SOURCE_WHEEL.search(row.get("source", ""))
        if m is None:
            out.append(Check("companions", ident, "unverifiable", "no wheel named in source"))
            continue
        filename = m.group(1)
        if src.offline:
            recorded = json.loads(
                (PYPI_RECORDED / f"{row['package']}.json").read_text(encoding="utf-8")
            )
            requires = recorded.get("requires-dist", {}).get(row["version"])
            where = "recorded Requires-Dist"
        else:
            text = src.metadata(row["package"], filename)
            requires = None if text is None else list(requires_dist_lines(text))
            where = f"{filename}.metadata (live)"
        if requires is None:
            out.append(Check("companions", ident, "unverifiable", f"no metadata for {filename}"))
            continue
        facts = parse_simple(
            {"name": row["package"], "files": [{"filename": filename}]},
            {row["version"]: requires},
        )
        vf = facts.get(row["version"])
        got = torch_specifier(vf) if vf is not None else ""
        if got == row["torch"]:
            out.append(Check("companions", ident, "right", f"torch{got or ' (none)'} in {where}"))
        else:
            out.append(
                Check("companions", ident, "wrong", f"row torch{row['torch']!r}, {where} {got!r}")
            )
    return out


def _pypi_platforms(src: Sources, version: str) -> set[str]:
    out: set[str] = set()
    for f in src.raw("torch").get("files", ()):
        name = f["filename"]
        if not name.endswith(".whl"):
            continue
        _, v, _, tags = parse_wheel_filename(name)
        if str(v) == version:
            out |= {p for t in tags if (p := wheel_platform(t.platform)) is not None}
    return out


def _pypi_build(src: Sources, row: PipBuild, ident: str) -> Check:
    """A PyPI row: wheels for each platform, and (live) the build one of them carries, read from
    its torch/version.py (`cuda = '10.2'`, `cuda = None`)."""
    how = f"torch {row.torch} wheels for {', '.join(row.platforms)} in {src.where()}"
    if src.offline:
        return Check("pip", ident, "right", how + " (build not read offline)")
    wheel = _a_wheel(src, row.torch, row.platforms[0])
    if wheel is None:
        return Check("pip", ident, "wrong", f"no torch {row.torch} wheel for {row.platforms[0]}")
    name, url = wheel
    text = fetch_wheel_member(url, lambda m: m == "torch/version.py", timeout=src.timeout)
    found = re.search(r"^cuda(?:: [^=]+)? = (.+)$", text, re.MULTILINE)
    cuda = found.group(1).strip().strip("'\"") if found else "None"
    want = "None" if row.kind != "cuda" else (row.version or "")
    ok = cuda == want or (row.kind == "cuda" and cuda.startswith(f"{want}."))
    if row.kind == "rocm":
        ok = cuda == "None"  # a ROCm build says hip, not cuda
    verdict: Verdict = "right" if ok else "wrong"
    return Check("pip", ident, verdict, f"{how}; {name}: torch/version.py cuda = {cuda}")


def _a_wheel(src: Sources, version: str, platform: str) -> tuple[str, str] | None:
    """One torch wheel of `version` for `platform` (the longest name: the newest CPython's of
    its era is the longest tag): name and URL."""
    found = []
    for f in src.raw("torch").get("files", ()):
        name = f["filename"]
        if not name.endswith(".whl") or not f.get("url"):
            continue
        _, v, _, tags = parse_wheel_filename(name)
        if str(v) == version and any(wheel_platform(t.platform) == platform for t in tags):
            found.append((name, f["url"]))
    return max(found, key=lambda nf: len(nf[0])) if found else None


def check_builds(family: str, rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    model = PipBuild if family == "pip" else CondaBuild
    lines = src.command_lines()
    out = []
    for raw in rows:
        row = model.model_validate(raw)
        acc = row.accelerator
        ident = f"{row.release} {acc} {','.join(row.platforms)}"
        if isinstance(row, PipBuild) and row.index == "pypi" and row.wheel is None:
            have = _pypi_platforms(src, row.torch)
            missing = [p for p in row.platforms if p not in have]
            if "+" in row.torch or missing:
                why = f"no torch {row.torch} wheel for {', '.join(missing)}" if missing else ""
                out.append(Check(family, ident, "wrong", why or f"{row.torch} has a local label"))
            else:
                out.append(_pypi_build(src, row, ident))
            continue
        text = row.published or (
            pip_command(row) if isinstance(row, PipBuild) else conda_command(row)
        )
        found = tokens(text) in lines
        if found:
            where = "the recorded page, its copies or quick-start data"
            out.append(Check(family, ident, "right", f"`{text}` is a line of {where}"))
        elif row.source.startswith("published_versions.json") and unpinned(text) in {
            unpinned(" ".join(sorted(line))) for line in lines
        }:
            how = f"`{text}` is an unpinned quick-start cell's command (the pins: releases.yaml)"
            out.append(Check(family, ident, "right", how))
        elif row.inferred:
            out.append(Check(family, ident, "unverifiable", f"hand-curated: {row.source}"))
        else:
            out.append(Check(family, ident, "wrong", f"`{text}` is on no recorded page"))
    return out


def check_conda_forge(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    missing = [
        f
        for f in refresh_conda_forge.FEEDSTOCKS
        if not refresh_conda_forge.mirror_path(f, src.mirrors).is_dir()
    ]
    if missing:
        why = f"no git mirror of {', '.join(missing)} under {src.mirrors}"
        return [Check("conda-forge", _cf_ident(r), "unverifiable", why) for r in rows]
    snaps = {
        f: refresh_conda_forge.git_snapshots(
            refresh_conda_forge.mirror_path(f, src.mirrors), refresh_conda_forge.SINCE[f]
        )
        for f in refresh_conda_forge.FEEDSTOCKS
    }
    text = refresh_conda_forge.render(snaps, refresh_conda_forge.load_companions())
    derived = list(yaml.safe_load(text) or [])
    out = []
    for row in rows:
        ident = _cf_ident(row)
        if row in derived:
            how = "derived again from the feedstocks' git history (.ci_support, recipes)"
            out.append(Check("conda-forge", ident, "right", how))
        else:
            same = [d for d in derived if _cf_ident(d) == ident]
            why = f"derived: {same}" if same else "no such build in the feedstocks' history"
            out.append(Check("conda-forge", ident, "wrong", why))
    return out


def _cf_ident(row: Mapping[str, Any]) -> str:
    return f"{row['release']} {row['kind']}{row.get('version') or ''} {','.join(row['platforms'])}"


def _arch_flags(arch_list: str) -> frozenset[str]:
    """TORCH_CUDA_ARCH_LIST as the flags the wheel records: 8.6 -> sm_86, 9.0+PTX -> sm_90 and
    compute_90."""
    out: set[str] = set()
    for item in arch_list.split(";"):
        number = item.removesuffix("+PTX").replace(".", "")
        out.add(f"sm_{number}")
        if item.endswith("+PTX"):
            out.add(f"compute_{number}")
    return frozenset(out)


def check_gpu_archs(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    """A cuda row whose releases include one PyPI built for that CUDA and platform (PyPI's own
    CUDA build): the arch flags compiled into that wheel's libtorch_python.so, read live (the
    newest such release of the row). Other rows: their build scripts are on GitHub."""
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - only this family

    releases = [r["torch"] for r in _load("releases.yaml")]
    out = []
    for row in rows:
        compute = (
            f"rocm {','.join(row['rocm'])}" if row.get("rocm") else f"cu {','.join(row['cuda'])}"
        )
        ident = f"torch{row['torch']} {compute} {','.join(row['platforms'])}"
        source = f"source not reachable here: {row['source']}"
        if row.get("rocm"):
            if row["source"].startswith("pytorch/builder@"):
                out.append(_check_rocm_row(row, ident, src))
            else:
                why = "inferred: " + str(row.get("note", "")).split(";", 1)[0]
                out.append(Check("gpu-archs", ident, "unverifiable", f"{why}; {source}"))
            continue
        if row["source"].startswith(derive_gpu_archs.BUILDER_URL + "/blob/"):
            out.append(_check_builder_row(row, ident, src))
            continue
        if row["source"].startswith("pypi-wheel:") and src.offline:
            out.append(_check_recorded_wheel_row(row, ident, releases))
            continue
        if src.offline or str(row.get("note", "")).startswith("rule: not derived"):
            why = "inferred: " + str(row.get("note", "")).split(";", 1)[0]
            out.append(Check("gpu-archs", ident, "unverifiable", f"{why}; {source}"))
            continue
        spec = SpecifierSet(row["torch"])
        found: Check | None = None
        for version in sorted((v for v in releases if v in spec), key=Version, reverse=True):
            for platform in row["platforms"]:
                build = src.pypi_build(version, platform)
                if build is None or build[0] not in row["cuda"]:
                    continue
                cuda, name, flags = build
                if not flags:  # before 1.6 the flags string lives in another library
                    why = f"{name}: no arch flags string in torch/lib/libtorch_python.so"
                    found = Check("gpu-archs", ident, "unverifiable", f"{why}; {source}")
                    break
                want = _arch_flags(row["arch-list"])
                how = f"{name} (cuda {cuda}): compiled {' '.join(sorted(flags))}"
                verdict: Verdict = "right" if flags == want else "wrong"
                if verdict == "wrong":
                    how += f"; the row says {' '.join(sorted(want))}"
                found = Check("gpu-archs", ident, verdict, how)
                break
            if found is not None:
                break
        out.append(found or Check("gpu-archs", ident, "unverifiable", source))
    return out


def _builder_script(src: Sources, commit: str, path: str) -> tuple[str | None, str]:
    """A pytorch/builder file at a commit from the git mirror (re-read), else None."""
    git_dir = src.mirrors / "pytorch+builder" / "repo"
    if git_dir.is_dir():
        text = derive_gpu_archs.git(git_dir, "show", f"{commit}:{path}")
        return text, f"re-read from the pytorch/builder mirror at {commit[:10]}"
    return None, "no pytorch/builder mirror"


def _check_builder_row(row: Mapping[str, Any], ident: str, src: Sources) -> Check:
    """A row from a builder script: the script at the row's commit evaluated again for each of
    the row's CUDA versions (from the mirror; else the recorded evaluation of that commit)."""
    commit, _, path = (
        row["source"].removeprefix(derive_gpu_archs.BUILDER_URL + "/blob/").partition("/")
    )
    text, how = _builder_script(src, commit, path)
    recorded = json.loads(derive_gpu_archs.BUILDER_FILE.read_text(encoding="utf-8"))["releases"]
    found: list[str | None] = []
    for cuda in row["cuda"]:
        for platform in row["platforms"]:
            if text is not None:
                value = (
                    derive_gpu_archs.evaluate_bat(text)
                    if path.endswith(".bat")
                    else derive_gpu_archs.evaluate_sh(
                        text, cuda, aarch64=platform == "linux-aarch64"
                    )
                )
            else:
                how = "the recorded evaluation (tests/data/recorded/gpu-archs/)"
                value = next(
                    (
                        rec["files"][path]["cuda"].get(cuda, {}).get(platform)
                        for rec in recorded.values()
                        if rec["commit"] == commit and path in rec["files"]
                    ),
                    None,
                )
            found.append(value)
    inferred = (
        " (inferred: " + row["note"].split(":", 1)[1].strip() + ")" if row.get("inferred") else ""
    )
    if text is None and None in found:
        why = f"no mirror and no recorded evaluation of {path} at {commit[:10]}"
        return Check("gpu-archs", ident, "unverifiable", f"{why}; {row['source']}")
    if all(v == row["arch-list"] for v in found):
        return Check("gpu-archs", ident, "right", f"{path} {how}: {row['arch-list']}{inferred}")
    said = ", ".join(sorted({str(v) for v in found}))
    return Check(
        "gpu-archs", ident, "wrong", f"{path} {how} sets {said}; the row says {row['arch-list']}"
    )


def _check_rocm_row(row: Mapping[str, Any], ident: str, src: Sources) -> Check:
    """A ROCm row from a builder branch: build_docker.sh at the row's commit evaluated again for
    each of the row's ROCm versions (from the mirror; else the recorded evaluation)."""
    commit, _, path = row["source"].removeprefix("pytorch/builder@").partition(":")
    text, how = _builder_script(src, commit, path)
    if text is None:
        how = "the recorded evaluation (tests/data/recorded/gpu-archs/rocm-build-scripts.json)"
        recorded = json.loads(derive_gpu_archs.ROCM_FILE.read_text(encoding="utf-8"))
        lists = next(
            (r["lists"] for r in recorded["releases"].values() if r["commit"] == commit), None
        )
        found = [(lists or {}).get(rocm) for rocm in row["rocm"]]
    else:
        found = [derive_gpu_archs.evaluate_rocm_sh(text, rocm) for rocm in row["rocm"]]
    if all(v == row["arch-list"] for v in found):
        return Check("gpu-archs", ident, "right", f"{path} {how}: {row['arch-list']}")
    if text is None and None in found:
        why = f"no mirror and no recorded evaluation of {path} at {commit[:10]}"
        return Check("gpu-archs", ident, "unverifiable", f"{why}; {row['source']}")
    said = ", ".join(sorted({str(v) for v in found}))
    return Check(
        "gpu-archs", ident, "wrong", f"{path} {how} sets {said}; the row says {row['arch-list']}"
    )


def _check_recorded_wheel_row(row: Mapping[str, Any], ident: str, releases: Sequence[str]) -> Check:
    """A pypi-wheel row offline: the recorded arch flags of each release's wheel it covers."""
    from packaging.specifiers import SpecifierSet  # noqa: PLC0415 - only this family

    wheels = json.loads(derive_gpu_archs.WHEELS_FILE.read_text(encoding="utf-8"))["wheels"]
    arch = {"linux-64": "x86_64", "linux-aarch64": "aarch64"}
    seen = []
    for version in (v for v in releases if v in SpecifierSet(row["torch"])):
        for platform in row["platforms"]:
            wheel = wheels.get(f"{version} {arch.get(platform)}", {})
            if (
                wheel.get("arch-flags")
                and derive_gpu_archs.cuda_short(wheel["cuda"]) in row["cuda"]
            ):
                got = derive_gpu_archs.flags_to_list(wheel["arch-flags"])
                if got != row["arch-list"]:
                    return Check("gpu-archs", ident, "wrong", f"{wheel['file']} compiled {got}")
                seen.append(wheel["file"])
    if not seen:
        return Check("gpu-archs", ident, "unverifiable", "no recorded wheel of these releases")
    return Check("gpu-archs", ident, "right", f"recorded arch flags of {', '.join(seen)}")


def check_extensions(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    """A build row of a PyG extension: the wheel workflow at the row's commit, expanded again
    (from the project's git mirror; else the recorded expansion), must build exactly the row's
    accelerators and pythons for its torch series and platform. Other extensions' sources (a
    docs selector, README tables, install pages) are not reachable here."""
    out = []
    for row in rows:
        name = row["name"]
        ident = (
            f"{name} {','.join(row['versions'])} torch {','.join(row['torch'])} "
            f"{','.join(row.get('platforms', ['linux-64']))} {','.join(row['accelerators'])}"
        )
        source = str(row.get("source") or "")
        m = re.match(r"github:(\S+)@([0-9a-f]{7,40}) ", source)
        if name == "spconv" and source.startswith("PyPI's files of"):
            out.append(_check_spconv_row(row, ident, src))
            continue
        if name in derive_ext_pyg.REPOS:  # pyg-lib, flash-attn, dgl: scripts/derive_ext_pyg.py
            verdict, how = derive_ext_pyg.recheck(row, src.mirrors, lambda: _dgl_files(src))
            out.append(Check("extensions", ident, verdict, how))
            continue
        if name == "xformers" and m is not None and not row.get("inferred"):
            out.append(_check_xformers_row(row, ident, src))
            continue
        if name in derive_ext_mm.NAMES:  # mmcv-full, mmcv, detectron2, pytorch3d: per tag
            out.append(Check("extensions", ident, *derive_ext_mm.audit_row(row, src.mirrors)))
            continue
        if name not in derive_extensions.PROJECTS or m is None:
            out.append(
                Check("extensions", ident, "unverifiable", f"source not reachable here: {source}")
            )
            continue
        repo, commit = m.groups()
        git_dir = src.mirrors / repo.replace("/", "+") / "repo"
        text = (
            derive_extensions.git(git_dir, "show", f"{commit}:{derive_extensions.WORKFLOW}")
            if git_dir.is_dir()
            else ""
        )
        if text:  # the linux-aarch64 CUDA jobs that cannot run are dropped, as in the script
            builds = derive_extensions.runnable(git_dir, commit, derive_extensions.builds_of(text))
            how = f"{derive_extensions.WORKFLOW} re-read from the {repo} mirror at {commit}"
        else:
            recorded = derive_extensions.load(name)["commits"]
            builds = next((c["builds"] for c in recorded if c["commit"].startswith(commit)), {})
            how = f"the recorded expansion of {derive_extensions.WORKFLOW} at {commit}"
        (series,) = row["torch"]
        (platform,) = row.get("platforms", ["linux-64"])
        built = builds.get(series, {}).get(platform, {})
        wrong = [
            f"{a}: {built.get(a)}"
            for a in row["accelerators"]
            if built.get(a) != list(row.get("python", []))
        ]
        extra = sorted(
            a
            for a, pythons in built.items()
            if a not in row["accelerators"] and pythons == list(row.get("python", []))
        )
        inferred = " (inferred: a rebuild after the tag)" if row.get("inferred") else ""
        if wrong or extra:
            said = "; ".join(wrong + [f"also builds {a}" for a in extra])
            out.append(Check("extensions", ident, "wrong", f"{how}: {said}"))
        else:
            out.append(
                Check("extensions", ident, "right", f"{how}: python {row.get('python')}{inferred}")
            )
    return out


def _dgl_files(src: Sources) -> list[str]:
    """dgl's file names on PyPI (live; --offline: the recording of scripts/derive_ext_pyg.py)."""
    if src.offline:
        rec = derive_ext_pyg.load("dgl")["versions"]
        return sorted({f for v in rec.values() for f in v["pypi-wheels"]})
    return [str(f["filename"]) for f in fetch_simple("dgl", timeout=src.timeout)["files"]]


def _check_xformers_row(row: Mapping[str, Any], ident: str, src: Sources) -> Check:
    """An xformers row: derived again from its tag's wheels.yml (the git mirror, else the
    recording) and PyPI's files of the version (live; --offline: the recording)."""
    (version,) = row["versions"]
    recorded = derive_extensions.load("xformers")["versions"][version]
    git_dir = src.mirrors / "facebookresearch+xformers" / "repo"
    text = (
        derive_extensions.git(
            git_dir, "show", f"{recorded['commit']}:{derive_extensions.XFORMERS_WORKFLOW}"
        )
        if git_dir.is_dir()
        else ""
    )
    matrix = derive_extensions.xformers_matrix(text) if text else recorded["matrix"]
    wheels = recorded["pypi-wheels"]
    how = "the recorded wheels.yml literals" if not text else "wheels.yml re-read from the mirror"
    if not src.offline:
        wheels = sorted(
            f["filename"]
            for f in src.raw("xformers").get("files", ())
            if f["filename"].startswith(f"xformers-{version}-") and f["filename"].endswith(".whl")
        )
        how += " and PyPI's files (live)"
    releases = {r["torch"]: r["python"] for r in _load("releases.yaml")}
    again = derive_extensions.derive_xformers(
        {"versions": {version: {**recorded, "matrix": matrix, "pypi-wheels": wheels}}}, releases
    )
    (platform,) = row["platforms"]
    match = [r for r in again if r["platforms"] == [platform]]
    if match and (match[0]["accelerators"], match[0]["python"], match[0]["torch"]) == (
        row["accelerators"],
        row.get("python", []),
        row["torch"],
    ):
        return Check("extensions", ident, "right", f"{how}: {platform} {row['accelerators']}")
    said = f"{match[0]['accelerators']} python {match[0]['python']}" if match else "no such build"
    return Check("extensions", ident, "wrong", f"{how}: {said}")


def _check_spconv_row(row: Mapping[str, Any], ident: str, src: Sources) -> Check:
    """An spconv row: for each of its versions, the package's wheels on PyPI (live; --offline:
    the recording) for the row's platform must be exactly the row's pythons."""
    package, (platform,) = row["package"], row["platforms"]
    if src.offline:
        wheels = derive_extensions.load("spconv")["pypi-wheels"].get(package, [])
        how = f"the recorded files of {package}"
    else:
        wheels = [
            f["filename"]
            for f in src.raw(package).get("files", ())
            if f["filename"].endswith(".whl")
        ]
        how = f"PyPI's files of {package} (live)"
    for version in row["versions"]:
        pythons = sorted(
            {
                f"{w.split('-')[2][2]}.{w.split('-')[2][3:]}"
                for w in wheels
                if w.split("-")[1] == version and derive_extensions.wheel_platform(w) == platform
            },
            key=Version,
        )
        if pythons != list(row.get("python", [])):
            return Check("extensions", ident, "wrong", f"{how}: {version} {platform} has {pythons}")
    return Check("extensions", ident, "right", f"{how}: {platform} python {row.get('python')}")


def check_era(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    """An era row derived again from PyPI's upload times (live; `--offline`: the recording):
    the newest first upload among the release's torch and companions, and which one it was."""
    releases = _load("releases.yaml")
    derived = {r["torch"]: r for r in refresh_era.build_rows(src.facts(), releases)}
    out = []
    for row in rows:
        ident = f"torch {row['torch']}"
        again = derived.get(row["torch"])
        if again is None:
            out.append(Check("era", ident, "unverifiable", f"no upload time on {src.where()}"))
        elif (again["date"], again["basis"]) == (row["date"], row["basis"]):
            how = f"{src.where()}: first upload of {row['basis']} on {row['date']}"
            out.append(Check("era", ident, "right", how))
        else:
            how = f"{src.where()} gives {again['date']} ({again['basis']})"
            out.append(Check("era", ident, "wrong", f"{how}; the row says {row['date']}"))
    return out


_EVIDENCE_WHEEL: Final = re.compile(
    r"PyPI (torch-\S+\.whl) \((\d+) bytes, sha256 ([0-9a-f]+)\.\.\.\)"
)


def check_pypi_routes(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    """A PyPI route row: the torch wheel its evidence names is on PyPI with that size and sha256
    (live; `--offline`: the recorded file list), and its torch/version.py (read live) has the
    row's CUDA version."""
    out = []
    files = {f["filename"]: f for f in src.raw("torch").get("files", ())}
    for row in rows:
        ident = f"{row['release']} cu{row['cuda']} {row['platform']}"
        m = _EVIDENCE_WHEEL.search(str(row.get("evidence", "")))
        if m is None:
            out.append(Check("pypi-routes", ident, "unverifiable", "no wheel named"))
            continue
        name, size, sha = m.groups()
        f = files.get(name)
        if f is None:
            out.append(Check("pypi-routes", ident, "wrong", f"{name} is not on {src.where()}"))
            continue
        if not f.get("hashes"):  # the recorded lists keep no hashes
            how = f"{name} is on {src.where()}, which records no sha256 to compare"
            out.append(Check("pypi-routes", ident, "unverifiable", how))
            continue
        if not str(f["hashes"].get("sha256", "")).startswith(sha):
            out.append(Check("pypi-routes", ident, "wrong", f"{name}: sha256 is not {sha}..."))
            continue
        if f.get("size") is not None and int(f["size"]) != int(size):
            out.append(Check("pypi-routes", ident, "wrong", f"{name} is {f['size']} bytes"))
            continue
        if src.offline or not f.get("url"):
            how = f"{name} on {src.where()} (sha256 {sha}, {size} bytes)"
            out.append(Check("pypi-routes", ident, "right", how))
            continue
        text = fetch_wheel_member(f["url"], lambda n: n == "torch/version.py", timeout=src.timeout)
        found = re.search(r"^cuda(?:: [^=]+)? = '(\d+\.\d+)", text, re.MULTILINE)
        cuda = found.group(1) if found else None
        verdict: Verdict = "right" if cuda == row["cuda"] else "wrong"
        how = f"{name} on PyPI (sha256 {sha}): torch/version.py cuda {cuda}"
        out.append(Check("pypi-routes", ident, verdict, how))
    return out


def check_inferred_builds(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    """inferred-builds.yaml's rows, as the pip or conda rows they become."""
    out = []
    for section in ("pip", "conda"):
        these = [
            {k: v for k, v in r.items() if k != "_section"}
            for r in rows
            if r["_section"] == section
        ]
        out += [
            dataclasses.replace(c, family="inferred-builds")
            for c in check_builds(section, these, src)
        ]
    return out


def check_unreachable(family: str, rows: Sequence[dict[str, Any]]) -> list[Check]:
    out = []
    for row in rows:
        ident = ", ".join(
            f"{k}={row[k]}"
            for k in (
                "name",
                "id",
                "package",
                "conda",
                "tag",
                "torch",
                "cuda",
                "cuda-major",
                "platform",
                "versions",
                "accelerators",
                "platforms",
            )
            if row.get(k)
        )
        source = row.get("source") or row.get("link") or "(no source)"
        out.append(Check(family, ident, "unverifiable", f"source not reachable here: {source}"))
    return out


_SOURCE_AT: Final = re.compile(r"^([\w.-]+/[\w.-]+)@([0-9a-f]{40}):(\S+)")
_FAMILY_REQUIREMENT: Final = re.compile(r"^(torch|torchvision|torchaudio)(?![\w.-])")


def check_url_packages(rows: Sequence[dict[str, Any]], src: Sources) -> list[Check]:
    """A repository's requirements file at the row's commit, re-read from its mirror: its
    torch-family lines must be the row's `requires`."""
    out: list[Check] = []
    for row in rows:
        ident = f"{row.get('url')} from {row.get('from')}"
        m = _SOURCE_AT.match(str(row.get("source", "")))
        if m is None:
            out.append(Check("url-packages", ident, "wrong", "no repo@commit:path source"))
            continue
        repo, commit, path = m.groups()
        git_dir = src.mirrors / repo.replace("/", "+") / "repo"
        if not git_dir.is_dir():
            out.append(Check("url-packages", ident, "unverifiable", f"no mirror of {repo} here"))
            continue
        shown = derive_extensions.git(git_dir, "show", f"{commit}:{path}")
        lines = [ln.split("#", 1)[0].strip() for ln in shown.splitlines()]
        family = [ln.replace(" ", "") for ln in lines if _FAMILY_REQUIREMENT.match(ln)]
        want = [r.replace(" ", "") for r in row.get("requires", [])]
        how = f"{path} re-read from the {repo} mirror at {commit[:12]}: {', '.join(family)}"
        verdict: Verdict = "right" if shown and family == want else "wrong"
        out.append(Check("url-packages", ident, verdict, how))
    return out


FILES: Final = {
    "releases": "releases.yaml",
    "companions": "companions.yaml",
    "pip": "pip.yaml",
    "conda": "conda.yaml",
    "conda-forge": "conda-forge.yaml",
    "gpu-archs": "gpu-archs.yaml",
    "drivers": "drivers.yaml",
    "extensions": "extensions.yaml",
    "known-issues": "known-issues.yaml",
    "era": "era.yaml",
    "pypi-routes": "pypi-routes.yaml",
    "inferred-builds": "inferred-builds.yaml",
    "base-images": "base-images.yaml",
    "conda-installers": "conda-installers.yaml",
    "build-dependencies": "build-dependencies.yaml",
    "conda-pypi-names": "conda-pypi-names.yaml",
    "cuda-images": "cuda-images.yaml",
    "incompatibilities": "incompatibilities.yaml",
    "minor-compat": "minor-compat.yaml",
    "package-issues": "package-issues.yaml",
    "targets": "targets.yaml",
    "url-packages": "url-packages.yaml",
}


def audit(n: int, seed: int, src: Sources, families: Iterable[str] = FAMILIES) -> list[Check]:
    """Up to `n` rows per family, drawn with random.Random(seed), each checked."""
    checkers: dict[str, Callable[[Sequence[dict[str, Any]]], list[Check]]] = {
        "releases": lambda rows: check_releases(rows, src),
        "companions": lambda rows: check_companions(rows, src),
        "pip": lambda rows: check_builds("pip", rows, src),
        "conda": lambda rows: check_builds("conda", rows, src),
        "conda-forge": lambda rows: check_conda_forge(rows, src),
        "gpu-archs": lambda rows: check_gpu_archs(rows, src),
        "extensions": lambda rows: check_extensions(rows, src),
        "era": lambda rows: check_era(rows, src),
        "pypi-routes": lambda rows: check_pypi_routes(rows, src),
        "inferred-builds": lambda rows: check_inferred_builds(rows, src),
        "url-packages": lambda rows: check_url_packages(rows, src),
    }
    out: list[Check] = []
    for family in families:
        rows = _load(FILES[family])
        rng = random.Random(f"{seed}:{family}")  # noqa: S311 - a reproducible sample, not a secret
        drawn = sorted(rng.sample(range(len(rows)), min(n, len(rows))))
        sample = [rows[i] for i in drawn]
        check = checkers.get(family)
        out += check(sample) if check else check_unreachable(family, sample)
    return out


def report(checks: Sequence[Check], *, verbose: bool) -> str:
    lines = [
        f"{c.verdict:<12} {c.family:<18} {c.row}: {c.how}"
        for c in checks
        if verbose or c.verdict == "wrong"
    ]
    lines.append("")
    lines.append(f"{'family':<19} {'drawn':>5} {'right':>6} {'wrong':>6} {'unverifiable':>13}")
    families = list(dict.fromkeys(c.family for c in checks))
    for fam in [*families, "all"]:
        these = [c for c in checks if fam in ("all", c.family)]
        counts = {v: sum(c.verdict == v for c in these) for v in VERDICTS}
        lines.append(
            f"{fam:<19} {len(these):>5} {counts['right']:>6} {counts['wrong']:>6} "
            f"{counts['unverifiable']:>13}"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100, help="rows drawn per family (default 100)")
    parser.add_argument("--seed", type=int, default=23, help="random seed (default 23)")
    parser.add_argument(
        "--offline", action="store_true", help="read PyPI from tests/data/recorded/pypi/"
    )
    parser.add_argument(
        "--mirrors", type=Path, default=refresh_conda_forge.MIRRORS, help="feedstock mirrors"
    )
    parser.add_argument(
        "--family", action="append", choices=FAMILIES, help="only these families (repeatable)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every row, not only wrong")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.n <= MAX_ROWS:
        parser.error(f"-n must be between 1 and {MAX_ROWS}")
    src = Sources(offline=args.offline, mirrors=args.mirrors)
    checks = audit(args.n, args.seed, src, args.family or FAMILIES)
    if args.json:
        sys.stdout.write(json.dumps([dataclasses.asdict(c) for c in checks], indent=1) + "\n")
    else:
        sys.stdout.write(report(checks, verbose=args.verbose))
    return 1 if any(c.verdict == "wrong" for c in checks) else 0


if __name__ == "__main__":
    raise SystemExit(main())
