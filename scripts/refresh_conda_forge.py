"""Rebuild matrices/conda-forge.yaml from the git history of the conda-forge feedstocks.

The job is split in two, so that the network is touched in one place and the rows can be rebuilt
from recorded copies byte for byte:

* read (git, never run by tests): `git_snapshots(repo)` walks every commit reachable from `main`
  and the `vX.Y.x` maintenance branches of a feedstock mirror (what `fetch` brings under
  /work/.mirror/conda-forge+<feedstock>/repo; pull-request heads and other branches are not
  uploads) and yields one `Snapshot` per commit: its recipe (`recipe/meta.yaml` or
  `recipe/recipe.yaml`) and its `.ci_support/*.yaml`, cut to the lines this script reads
  (`excerpt_recipe`, `excerpt_ci`). `--record DIR` writes chosen snapshots in that shape, which is
  what tests/data/recorded/conda-forge/ holds.
* derive (pure): `snapshot_builds(snap)` evaluates each CI config's `python:` entries against the
  recipe's `skip` selectors and gives the (version, platform, CUDA, python) it built;
  `collect(snaps)` keeps, per (version, platform, CUDA), the first commit (oldest committer date
  first) that built it and every python any commit built; `build_rows(...)` pairs pytorch with the
  torchvision / torchaudio of releases.yaml under the header's rules and groups platforms.

Prints a unified diff against the committed file; writes only with `--write`. Deterministic: rows
sorted, dates are the commits' own committer dates.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from envgen.infra import proc
from envgen.model.types import PLATFORMS

ROOT: Final = Path(__file__).resolve().parent.parent
OUTPUT: Final = ROOT / "matrices" / "conda-forge.yaml"
RELEASES: Final = ROOT / "matrices" / "releases.yaml"
RECORDED: Final = ROOT / "tests" / "data" / "recorded" / "conda-forge"
MIRRORS: Final = Path("/work/.mirror")
PYTORCH: Final = "pytorch-cpu-feedstock"
TORCHVISION: Final = "torchvision-feedstock"
TORCHAUDIO: Final = "torchaudio-feedstock"
FEEDSTOCKS: Final = (PYTORCH, TORCHVISION, TORCHAUDIO)
# The file's range: conda-forge rows start where envgen stops using PyTorch's own channels' last
# releases side by side (2.4.0, the first release in the committed file).
SINCE: Final = {
    PYTORCH: Version("2.4.0"),
    TORCHVISION: Version("0.19.0"),
    TORCHAUDIO: Version("2.4.0"),
}
PLATFORM_ORDER: Final = PLATFORMS  # envgen's platform order (model.types)
BRANCH: Final = re.compile(r"^(main|v\d+\.\d+\.x)$")
RECIPES: Final = ("recipe/meta.yaml", "recipe/recipe.yaml")
CI_KEYS: Final = (
    "arm_variant_type",
    "blas_impl",
    "channel_targets",
    "cuda_compiler",
    "cuda_compiler_version",
    "github_actions_labels",
    "is_rc",
    "python",
    "target_platform",
)

HEADER: Final = """\
# conda-forge builds of pytorch, written by scripts/refresh_conda_forge.py
# (`make refresh-conda-forge`) from the feedstocks' git history (not from pytorch.org): one row per
# release, platform group, compute platform and python set. What existed:
# conda-forge/pytorch-cpu-feedstock (.ci_support/*.yaml names the platform, cuda_compiler_version,
# channel_targets and pythons of every build the CI uploaded;
# recipe/meta.yaml `skip:` selectors drop some), conda-forge/torchvision-feedstock and
# conda-forge/torchaudio-feedstock (the same files; recipe/recipe.yaml `build.skip` there).
# Only commits on main and the vX.Y.x maintenance branches count (pull-request heads are not
# uploads); left out: rc versions and any CI config whose channel_targets is not `conda-forge main`
# (the pytorch_rc label: 2.7.1's first win-64 builds went there), and the linux-aarch64 Jetson
# (tegra) builds. `source` names the first commit (oldest committer date) whose CI built the row's
# (platform, CUDA) for that version, and `built` is that commit's committer date (its CI uploads
# the packages after it, so before `built` conda-forge had none: an unpinned pytorch from
# conda-forge as of an earlier date is an older release); `python` is every python any commit of
# that version built for the row's platforms (the union over the version's history).
#
# How a build is selected (what conda-forge users write): `pytorch=X=cuda*` or `pytorch=X=cpu*`
# (build strings cuda126_generic_py311_h..., cpu_mkl_py312_h...), and `cuda-version=X.Y` for the
# CUDA minor; `pytorch-gpu` / `pytorch-cpu` are metapackages for the same choice.
# torchvision: only where its feedstock built the same CUDA minor on that platform (its recipe
# requires that CUDA major.minor match pytorch's); torchaudio: only where its feedstock built that
# CUDA and the same minor as the release (pytorch's run_exports pin x.x). The companion versions
# are releases.yaml's. Absent: none existed. torchvision-python / torchaudio-python: the pythons of
# `python` the companion's own feedstock built for the row's version, platforms and CUDA, where
# that is fewer (absent: every one); envgen leaves the companion out of environment.yml, with a
# warning, for a python its feedstock never built (an environment that cannot solve is not written).
# conda-forge built no 2.5.0 (2.5.1 only). envgen.model.matrix checks form/channels; schema:
# envgen/model/matrix_schema.py. Never hand-edit: rerun the script against fresh mirrors.
"""


class RecipeError(ValueError):
    """A recipe or CI file this script cannot read faithfully (names the commit and the line)."""


# --------------------------------------------------------------------------- reading layer


@dataclass(frozen=True)
class Snapshot:
    """One commit of a feedstock: its recipe and CI configs, cut to the lines this script reads."""

    commit: str
    date: str
    recipe_path: str
    recipe: str
    ci: tuple[tuple[str, str], ...]

    @property
    def short(self) -> str:
        return self.commit[:10]


_RECIPE_LINE: Final = re.compile(
    r"^\s*(\{%-?\s*(if|elif|else|endif|set\s+version)\b.*|outputs:.*|- name:.*|skip:.*|build:.*)$"
)


def excerpt_recipe(path: str, text: str) -> str:
    """The lines of a recipe that `recipe_version` and `skip_rules` read (real bytes, in order).

    recipe.yaml (rattler-build): its top-level `context:` and `build:` blocks, whole (YAML).
    """
    if path.endswith("recipe.yaml"):
        return _top_level_blocks(text, ("context", "build"))
    kept = [line for line in text.splitlines() if _RECIPE_LINE.match(line)]
    return "\n".join(kept) + "\n"


def excerpt_ci(text: str) -> str:
    """The top-level blocks of a .ci_support file for the keys in CI_KEYS (real bytes, in order)."""
    return _top_level_blocks(text, CI_KEYS)


def _top_level_blocks(text: str, keys: Iterable[str]) -> str:
    wanted = set(keys)
    out: list[str] = []
    keep = False
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith(("-", "#")):
            keep = line.split(":", 1)[0] in wanted
        if keep:
            out.append(line)
    return "\n".join(out) + "\n"


def _git(repo: Path, *args: str, input_text: str | None = None) -> str:
    return proc.run(
        ["git", "-C", str(repo), *args], what=f"git {args[0]} in {repo}", input_text=input_text
    ).stdout


def _blobs(repo: Path, oids: Iterable[str]) -> dict[str, str]:
    """Blob texts by id, read in one `git cat-file --batch`."""
    wanted = sorted(set(oids))
    if not wanted:
        return {}
    raw = _git(repo, "cat-file", "--batch", input_text="\n".join(wanted) + "\n").encode()
    out: dict[str, str] = {}
    pos = 0
    while pos < len(raw):
        eol = raw.index(b"\n", pos)
        oid, _, size = raw[pos:eol].decode().split()
        start = eol + 1
        out[oid] = raw[start : start + int(size)].decode("utf-8")
        pos = start + int(size) + 1
    return out


def mirror_path(feedstock: str, mirrors: Path = MIRRORS) -> Path:
    return mirrors / f"conda-forge+{feedstock}" / "repo"


def git_snapshots(repo: Path, since: Version, commits: Sequence[str] = ()) -> list[Snapshot]:
    """Every commit on main and vX.Y.x of one mirror, oldest committer date first.

    Commits whose recipe version is an rc or older than `since` are left out (not read further).
    `commits`: read only these (in the order given) instead.
    """
    if commits:
        log = _git(repo, "show", "--no-patch", "--format=%H %cs", *commits)
    else:
        refs = _git(repo, "branch", "--format=%(refname:short)").split()
        branches = [b for b in refs if BRANCH.match(b)]
        log = _git(repo, "log", "--date-order", "--reverse", "--format=%H %cs", *branches)
    trees: list[tuple[str, str, dict[str, str]]] = []
    for line in log.splitlines():
        commit, date = line.split()
        listing = _git(repo, "ls-tree", "-r", commit, "--", ".ci_support", *RECIPES)
        paths: dict[str, str] = {}
        for entry in listing.splitlines():
            meta, path = entry.split("\t", 1)
            paths[path] = meta.split()[2]
        trees.append((commit, date, paths))
    recipes = _blobs(repo, (oid for _, _, t in trees for p, oid in t.items() if p in RECIPES))
    kept: list[tuple[str, str, str, str, dict[str, str]]] = []
    for commit, date, paths in trees:
        recipe_path = next((p for p in RECIPES if p in paths), None)
        if recipe_path is None:
            continue
        recipe = excerpt_recipe(recipe_path, recipes[paths[recipe_path]])
        if _counts(recipe_version(recipe_path, recipe), since):
            ci = {p: o for p, o in paths.items() if re.fullmatch(r"\.ci_support/[^/]+\.yaml", p)}
            kept.append((commit, date, recipe_path, recipe, ci))
    texts = _blobs(repo, (oid for *_, ci in kept for oid in ci.values()))
    return [
        Snapshot(
            commit,
            date,
            recipe_path,
            recipe,
            tuple((p.rsplit("/", 1)[1], excerpt_ci(texts[o])) for p, o in sorted(ci.items())),
        )
        for commit, date, recipe_path, recipe, ci in kept
    ]


def _counts(version: str | None, since: Version) -> bool:
    if version is None or "rc" in version:
        return False
    try:
        return Version(version) >= since
    except InvalidVersion:
        return False


def write_snapshots(directory: Path, snaps: Iterable[Snapshot]) -> None:
    """Record snapshots: `index.yaml`, `<commit10>/<recipe path>`, `<commit10>/.ci_support/`."""
    index: list[dict[str, object]] = []
    for snap in snaps:
        base = directory / snap.short
        (base / ".ci_support").mkdir(parents=True, exist_ok=True)
        (base / snap.recipe_path).parent.mkdir(parents=True, exist_ok=True)
        (base / snap.recipe_path).write_text(snap.recipe, encoding="utf-8")
        for name, text in snap.ci:
            (base / ".ci_support" / name).write_text(text, encoding="utf-8")
        index.append(
            {
                "commit": snap.commit,
                "date": snap.date,
                "recipe": snap.recipe_path,
                "ci": [n for n, _ in snap.ci],
            }
        )
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "index.yaml").write_text(
        yaml.safe_dump(index, sort_keys=False, width=120), encoding="utf-8"
    )


def recorded_snapshots(directory: Path) -> list[Snapshot]:
    """The snapshots `write_snapshots` recorded, in their recorded order."""
    index = yaml.safe_load((directory / "index.yaml").read_text(encoding="utf-8"))
    snaps = []
    for item in index:
        base = directory / item["commit"][:10]
        snaps.append(
            Snapshot(
                commit=item["commit"],
                date=str(item["date"]),
                recipe_path=item["recipe"],
                recipe=(base / item["recipe"]).read_text(encoding="utf-8"),
                ci=tuple(
                    (n, (base / ".ci_support" / n).read_text(encoding="utf-8")) for n in item["ci"]
                ),
            )
        )
    return snaps


# --------------------------------------------------------------------------- selectors


class _UnreadableError(Exception):
    pass


def _match(value: object, spec: object) -> bool:
    """rattler-build's `match(variable, spec)` on a version: a bare version means ==."""
    if value is None or value == "None":
        return False
    text = str(spec).strip()
    if text and text[0].isdigit():
        text = "==" + text
    try:
        return Version(str(value)) in SpecifierSet(text.replace(" ", ""))
    except (InvalidVersion, InvalidSpecifier) as exc:
        msg = f"match({value!r}, {spec!r})"
        raise _UnreadableError(msg) from exc


def evaluate(expr: str, names: Mapping[str, object]) -> bool:
    """A conda-build selector / rattler-build expression, over `names` (no Python eval)."""
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as exc:
        raise _UnreadableError(expr) from exc
    return bool(_eval(tree.body, names))


_COMPARE: Final[dict[type[ast.cmpop], Callable[[Any, Any], bool]]] = {
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def _eval(node: ast.AST, names: Mapping[str, object]) -> Any:  # noqa: ANN401, PLR0911 - one case per node kind
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, names) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _eval(node.operand, names)
    if isinstance(node, ast.Compare):
        left = _eval(node.left, names)
        for op, comp in zip(node.ops, node.comparators, strict=True):
            right = _eval(comp, names)
            fn = _COMPARE.get(type(op))
            if fn is None:
                raise _UnreadableError(ast.dump(op))
            try:
                ok = fn(left, right)
            except TypeError as exc:
                raise _UnreadableError(ast.unparse(node)) from exc
            if not ok:
                return False
            left = right
        return True
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Tuple | ast.List):
        return tuple(_eval(e, names) for e in node.elts)
    if isinstance(node, ast.Name):
        if node.id in names:
            return names[node.id]
        m = re.fullmatch(r"py(\d{2,3})", node.id)
        if m and "py" in names:
            return names["py"] == int(m.group(1))
        if node.id in ("true", "True"):
            return True
        if node.id in ("false", "False"):
            return False
        raise _UnreadableError(node.id)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "match"
        and len(node.args) == 2
    ):
        return _match(_eval(node.args[0], names), _eval(node.args[1], names))
    raise _UnreadableError(ast.unparse(node))


# --------------------------------------------------------------------------- recipes


_SET_VERSION: Final = re.compile(r"""\{%-?\s*set\s+version\s*=\s*["']([^"']+)["']""")


def recipe_version(path: str, text: str) -> str | None:
    """The package version the recipe builds (`{% set version %}` or context.version)."""
    if path.endswith("meta.yaml"):
        m = _SET_VERSION.search(text)
        return m.group(1) if m else None
    data = yaml.safe_load(text) or {}
    version = (data.get("context") or {}).get("version")
    return None if version is None else str(version)


@dataclass(frozen=True)
class SkipRule:
    """One `skip` of the recipe: skip when `expr` holds, inside jinja ifs `guards` (all hold)."""

    expr: str
    guards: tuple[str, ...] = ()
    line: str = ""


_JINJA: Final = re.compile(r"^\s*\{%-?\s*(if|elif|else|endif)\b(.*?)-?%\}\s*$")
_SKIP_V0: Final = re.compile(r"^\s*skip:\s*(true|True|false|False)?\s*(?:#\s*\[(.*)\])?\s*$")
_NAME: Final = re.compile(r"^(\s*)- name:\s*(.+?)\s*$")


def skip_rules(path: str, text: str, output: str) -> tuple[SkipRule, ...]:
    """The skips that drop the `output` package: the recipe-wide ones and that output's own."""
    if path.endswith("recipe.yaml"):
        return _skip_rules_v1(text)
    rules: list[SkipRule] = []
    # Per open if: the conditions that must hold for the branch we are in (every earlier
    # branch's condition false, this one's true).
    stack: list[list[str]] = []
    branches: list[list[str]] = []  # per open if: the conditions of its branches so far
    in_outputs = False
    current: str | None = None
    for line in text.splitlines():
        m = _JINJA.match(line)
        if m:
            kind, cond = m.group(1), m.group(2).strip()
            if kind == "if":
                stack.append([cond])
                branches.append([cond])
            elif kind in ("elif", "else") and stack:
                earlier = [f"not ({c})" for c in branches[-1]]
                stack[-1] = [*earlier, cond] if kind == "elif" else earlier
                if kind == "elif":
                    branches[-1].append(cond)
            elif kind == "endif" and stack:
                stack.pop()
                branches.pop()
            continue
        if line.startswith("outputs:"):
            in_outputs = True
            continue
        n = _NAME.match(line)
        if in_outputs and n and len(n.group(1)) <= 2:
            current = n.group(2)
            continue
        s = _SKIP_V0.match(line)
        if not s:
            continue
        if in_outputs and current != output:
            continue
        if s.group(1) in ("false", "False"):
            continue
        guards = tuple(c for level in stack for c in level)
        rules.append(SkipRule(s.group(2) or "True", guards, line.strip()))
    return tuple(rules)


def _skip_rules_v1(text: str) -> tuple[SkipRule, ...]:
    data = yaml.safe_load(text) or {}
    skip = (data.get("build") or {}).get("skip")
    items = skip if isinstance(skip, list) else [] if skip is None else [skip]
    rules = []
    for item in items:
        if isinstance(item, bool):
            if item:
                rules.append(SkipRule("True", line=str(item)))
            continue
        if not isinstance(item, str):
            msg = f"recipe.yaml build.skip: cannot read {item!r}"
            raise RecipeError(msg)
        expr = item.strip()
        m = re.fullmatch(r"\$\{\{\s*(.*?)\s*\}\}", expr)
        if m:
            expr = m.group(1)
        rules.append(SkipRule(expr, line=item))
    return tuple(rules)


# --------------------------------------------------------------------------- builds


@dataclass(frozen=True)
class Build:
    """One uploaded package: (version, platform, CUDA or None for cpu, python X.Y)."""

    version: str
    platform: str
    cuda: str | None
    python: str


def _values(ci: Mapping[str, Any], key: str) -> list[str]:
    value = ci.get(key)
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _first(ci: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
    values = _values(ci, key)
    return values[0] if values else default


def _platform(name: str, ci: Mapping[str, Any]) -> str:
    target = _first(ci, "target_platform")
    if target:
        return target
    for plat in PLATFORM_ORDER:
        if name.startswith(plat.replace("-", "_")):
            return plat
    msg = f".ci_support/{name}: no target_platform"
    raise RecipeError(msg)


def _names(platform: str, ci: Mapping[str, Any], python: str, version: str) -> dict[str, object]:
    os_name, _, arch = platform.partition("-")
    major, minor = python.split(".")[:2]
    return {
        "linux": os_name == "linux",
        "osx": os_name == "osx",
        "win": os_name == "win",
        "unix": os_name in ("linux", "osx"),
        "linux64": platform == "linux-64",
        "win64": platform == "win-64",
        "aarch64": arch == "aarch64",
        "arm64": arch == "arm64",
        "aarch": arch == "aarch64",
        "x86": arch == "64",
        "x86_64": arch == "64",
        "ppc64le": arch == "ppc64le",
        "py": int(major) * 100 + int(minor) if int(minor) >= 10 else int(major + minor),
        "py3k": major == "3",
        "python": f"{major}.{minor}",
        "cuda_compiler_version": _first(ci, "cuda_compiler_version", "None"),
        "cuda_compiler": _first(ci, "cuda_compiler", "None"),
        "cuda_version": None,
        "blas_impl": _first(ci, "blas_impl"),
        "github_actions_labels": _first(ci, "github_actions_labels"),
        "arm_variant_type": _first(ci, "arm_variant_type"),
        "is_rc": False,
        "version": version,
        "target_platform": platform,
    }


def _python(entry: str) -> str:
    m = re.match(r"(\d+)\.(\d+)", entry)
    if not m:
        msg = f"python entry {entry!r} names no X.Y"
        raise RecipeError(msg)
    return f"{m.group(1)}.{m.group(2)}"


def snapshot_builds(snap: Snapshot, output: str) -> set[Build]:
    """What this commit's CI built and uploaded to conda-forge main for the `output` package."""
    version = recipe_version(snap.recipe_path, snap.recipe)
    if version is None:
        msg = f"{snap.short} {snap.recipe_path}: no version"
        raise RecipeError(msg)
    rules = skip_rules(snap.recipe_path, snap.recipe, output)
    builds: set[Build] = set()
    for name, text in snap.ci:
        ci = yaml.safe_load(text) or {}
        if "tegra" in name or _first(ci, "arm_variant_type") == "tegra":
            continue
        if "conda-forge main" not in _values(ci, "channel_targets") and "channel_targets" in ci:
            continue
        platform = _platform(name, ci)
        if platform not in PLATFORM_ORDER:
            continue
        cuda = _first(ci, "cuda_compiler_version", "None")
        for entry in _values(ci, "python"):
            python = _python(entry)
            names = _names(platform, ci, python, version)
            if not any(_applies(rule, names, snap, name) for rule in rules):
                builds.add(Build(version, platform, None if cuda == "None" else cuda, python))
    return builds


def _applies(rule: SkipRule, names: Mapping[str, object], snap: Snapshot, ci_name: str) -> bool:
    try:
        return all(evaluate(g, names) for g in rule.guards) and evaluate(rule.expr, names)
    except _UnreadableError as exc:
        msg = (
            f"{snap.short} {snap.recipe_path}: cannot evaluate skip `{rule.line}` "
            f"(guards {list(rule.guards)}) for .ci_support/{ci_name}: unknown {exc}"
        )
        raise RecipeError(msg) from exc


@dataclass
class Seen:
    """Per (version, platform, CUDA): the first commit that built it and every python built."""

    first: Snapshot
    pythons: set[str] = field(default_factory=set)


Key = tuple[str, str, str | None]


def collect(snaps: Iterable[Snapshot], output: str) -> dict[Key, Seen]:
    """Fold snapshots (oldest first) into first-commit and python sets."""
    seen: dict[Key, Seen] = {}
    for snap in snaps:
        for b in snapshot_builds(snap, output):
            key = (b.version, b.platform, b.cuda)
            entry = seen.setdefault(key, Seen(snap))
            entry.pythons.add(b.python)
    return seen


# --------------------------------------------------------------------------- rows


def _py_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def build_rows(
    pytorch: Mapping[Key, Seen],
    torchvision: Mapping[Key, Seen],
    torchaudio: Mapping[Key, Seen],
    companions: Mapping[str, tuple[str | None, str | None]],
) -> list[dict[str, Any]]:
    """The conda-forge.yaml rows, in file order (pure).

    `companions` maps a torch release to its (torchvision, torchaudio) from releases.yaml.
    """
    groups: dict[tuple[Any, ...], list[str]] = {}
    for (release, platform, cuda), seen in pytorch.items():
        tv, ta = companions.get(release, (None, None))
        parts = [f"conda-forge/{PYTORCH} .ci_support@{seen.first.short} ({seen.first.date})"]
        tv_seen = torchvision.get((tv, platform, cuda)) if tv else None
        if tv_seen is None:
            tv = None
        else:
            parts.append(f"{TORCHVISION} .ci_support@{tv_seen.first.short}")
        ta_seen = torchaudio.get((ta, platform, cuda)) if ta else None
        if ta is None or ta_seen is None or Version(ta).release[:2] != Version(release).release[:2]:
            ta = None
        else:
            parts.append(f"{TORCHAUDIO} .ci_support@{ta_seen.first.short}")
        pythons = tuple(sorted(seen.pythons, key=_py_key))
        # The companions' own feedstocks decide their pythons (a subset of pytorch's, or None
        # where they built every one): never pytorch's list for them.
        tv_py = _companion_pythons(pythons, tv_seen) if tv else None
        ta_py = _companion_pythons(pythons, ta_seen) if ta else None
        key = (release, cuda, tv, ta, "; ".join(parts), pythons, tv_py, ta_py, seen.first.date)
        groups.setdefault(key, []).append(platform)
    rows = []
    for (release, cuda, tv, ta, source, pythons, tv_py, ta_py, built), platforms in groups.items():
        plats = sorted(platforms, key=PLATFORM_ORDER.index)
        row: dict[str, Any] = {"kind": "cpu" if cuda is None else "cuda"}
        if cuda is not None:
            row["version"] = cuda
        row.update(release=release, platforms=plats, pytorch=release)
        if tv:
            row["torchvision"] = tv
        if ta:
            row["torchaudio"] = ta
        row["python"] = list(pythons)
        if tv_py is not None:
            row["torchvision-python"] = list(tv_py)
        if ta_py is not None:
            row["torchaudio-python"] = list(ta_py)
        row.update(form="conda-forge", channels=["conda-forge"], built=built)
        row["source"] = source
        rows.append(row)
    rows.sort(key=_row_key)
    return rows


def _companion_pythons(pythons: tuple[str, ...], seen: Seen | None) -> tuple[str, ...] | None:
    """The pythons of `pythons` a companion's feedstock built too; None when it built them all."""
    if seen is None:
        return None
    built = tuple(p for p in pythons if p in seen.pythons)
    return None if built == pythons else built


def _row_key(row: Mapping[str, Any]) -> tuple[Any, ...]:
    cuda = row.get("version")
    return (
        Version(row["release"]),
        PLATFORM_ORDER.index(row["platforms"][0]),
        # cuda rows first, ascending, then cpu (the order the hand-curated file mostly used)
        (0, *(int(x) for x in cuda.split("."))) if cuda else (1,),
        row["source"],
    )


def _scalar(value: object) -> str:
    if isinstance(value, list):
        return (
            "["
            + ", ".join(str(v) if "-" in str(v) or str(v).isalpha() else f"'{v}'" for v in value)
            + "]"
        )
    text = str(value)
    if re.fullmatch(r"[a-z][a-z-]*", text):
        return text
    return "'" + text.replace("'", "''") + "'"


def dump(rows: Iterable[Mapping[str, Any]]) -> str:
    """The file text: the header, then one flow mapping per row per line."""
    lines = [HEADER.rstrip("\n")]
    lines += ["- {" + ", ".join(f"{k}: {_scalar(v)}" for k, v in row.items()) + "}" for row in rows]
    return "\n".join(lines) + "\n"


def load_companions(path: Path = RELEASES) -> dict[str, tuple[str | None, str | None]]:
    rows = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    return {str(r["torch"]): (r.get("torchvision"), r.get("torchaudio")) for r in rows}


def render(
    snaps: Mapping[str, Iterable[Snapshot]], companions: Mapping[str, tuple[str | None, str | None]]
) -> str:
    """The whole file from each feedstock's snapshots (pure given its inputs)."""
    return dump(
        build_rows(
            collect(snaps[PYTORCH], "pytorch"),
            collect(snaps[TORCHVISION], "torchvision"),
            collect(snaps[TORCHAUDIO], "torchaudio"),
            companions,
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=MIRRORS, help="where fetch put the mirrors")
    parser.add_argument("--write", action="store_true", help="write matrices/conda-forge.yaml")
    parser.add_argument(
        "--record",
        type=Path,
        metavar="DIR",
        help="record the snapshots of --commits (FEEDSTOCK:SHA...) under DIR/<feedstock>/ and stop",
    )
    parser.add_argument("--commits", nargs="*", default=[], help="FEEDSTOCK:SHA for --record")
    args = parser.parse_args(argv)
    missing = [f for f in FEEDSTOCKS if not mirror_path(f, args.mirrors).is_dir()]
    if missing:
        print(
            f"refresh_conda_forge: no mirror for {', '.join(missing)} under {args.mirrors} "
            "(bring them with the fetch tool: github:conda-forge/<feedstock>); nothing done",
            file=sys.stderr,
        )
        return 2
    try:
        if args.record:
            return _record(args.record, args.commits, args.mirrors)
        snaps = {f: list(git_snapshots(mirror_path(f, args.mirrors), SINCE[f])) for f in FEEDSTOCKS}
        text = render(snaps, load_companions())
    except RecipeError as exc:
        print(f"refresh_conda_forge: {exc}", file=sys.stderr)
        return 1
    old = OUTPUT.read_text(encoding="utf-8") if OUTPUT.is_file() else ""
    sys.stdout.writelines(
        difflib.unified_diff(
            old.splitlines(keepends=True), text.splitlines(keepends=True), str(OUTPUT), "generated"
        )
    )
    if args.write:
        OUTPUT.write_text(text, encoding="utf-8")
    return 0


def _record(directory: Path, commits: list[str], mirrors: Path) -> int:
    wanted: dict[str, list[str]] = {}
    for item in commits:
        feedstock, _, sha = item.partition(":")
        wanted.setdefault(feedstock, []).append(sha)
    for feedstock, shas in wanted.items():
        write_snapshots(
            directory / feedstock,
            git_snapshots(mirror_path(feedstock, mirrors), Version("0"), shas),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
