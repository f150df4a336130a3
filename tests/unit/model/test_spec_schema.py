"""project.yaml's pydantic schema (envgen/model/spec_schema.py) and the runtime reader agree.

The schema is the definition of the keys, types, patterns and choices; the runtime reader
(envgen.model.spec.parse_spec) runs without pydantic and takes those from the generated
envgen/model/spec_rules.py. Here: the generated files are current, both accept every spec in the
repository and a spec setting every key, both refuse each structural mistake, and the rules only
the runtime reader has (PEP 508, duplicates, URL policy, ...) are named.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any, Final

import jsonschema
import pytest
import yaml

from envgen.errors import SpecError
from envgen.model.spec import parse_spec
from envgen.model.spec_rules import KNOWN_KEYS
from envgen.model.spec_schema import (
    first_problem,
    runtime_rules,
    spec_json_schema,
)

ROOT: Final = Path(__file__).parents[3]
SPECS: Final = sorted(
    [
        ROOT / "project.yaml",
        *(ROOT / "examples").glob("*/project.yaml"),
        *(ROOT / "tests" / "data" / "specs").glob("*/project.yaml"),
    ]
)
# Every key set, each to a value both readers accept.
EVERY_KEY: Final[dict[str, Any]] = {
    "name": "every-key",
    "python": ["3.10", "3.6.12", "2.7"],
    "torch": ">=2.1,<2.3",
    "torchvision": "0.16.0",
    "torchaudio": False,
    "accelerators": ["cpu", "cu118", "rocm6.1", "xpu"],
    "platforms": ["linux-64", "win-64"],
    "managers": "pip",
    "pip": ["numpy<2", 'timm==0.4.12; python_version < "3.12"'],
    "conda": {"channels": ["conda-forge"], "dependencies": ["ffmpeg>=6"], "source": "conda-forge"},
    "lock": {"exclude_newer": dt.date(2022, 6, 30), "resolver": "pip-tools"},
    "pytorch_index": "https://mirror.example/whl",
    "pypi_index": "http://pypi.lan/simple",
    "write_index": "mirror",
    "ci": {"gpu_runner": "self-hosted,gpu", "cpu_runner": "ubuntu-24.04", "install": "0.2.0"},
    "trusted_hosts": ["pypi.lan"],
    "torch_from": "pypi",
}


def _runtime_accepts(data: object) -> bool:
    try:
        parse_spec(yaml.safe_dump(data, sort_keys=False), path=Path("project.yaml"))
    except SpecError:
        return False
    return True


def test_generated_files_are_current() -> None:
    """`make schema` wrote the JSON Schema and the runtime rules from the models."""
    committed = ROOT / "docs" / "reference" / "project-yaml.schema.json"
    assert json.loads(committed.read_text(encoding="utf-8")) == spec_json_schema(), "make schema"
    rules = (ROOT / "envgen" / "model" / "spec_rules.py").read_text(encoding="utf-8")
    assert rules == runtime_rules(), "run `make schema`"


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_both_accept_the_repository_specs(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert first_problem(data) is None
    assert _runtime_accepts(data)


def test_both_accept_a_spec_setting_every_key() -> None:
    assert set(EVERY_KEY) == set(KNOWN_KEYS)
    assert first_problem(EVERY_KEY) is None
    assert _runtime_accepts(EVERY_KEY)


# (key path, value): each breaks one rule the schema states (type, pattern, choice, key).
STRUCTURAL: Final[list[tuple[str, object]]] = [
    ("colour", "red"),
    ("name", 3),
    ("name", "my paper"),
    ("name", None),
    ("python", 3.1),
    ("python", "3.x"),
    ("python", "2.6"),
    ("python", "2.7.18"),
    ("python", []),
    ("torch", 2),
    ("torch", None),
    ("torchvision", 0.16),
    ("torchvision", None),
    ("accelerators", "cuda"),
    ("accelerators", ["cpu", "all"]),
    ("accelerators", []),
    ("accelerators", [118]),
    ("accelerators", None),
    ("platforms", ["linux"]),
    ("platforms", []),
    ("managers", ["npm"]),
    ("pip", "numpy"),
    ("pip", [3]),
    ("conda", "ffmpeg"),
    ("conda.channel", ["conda-forge"]),
    ("conda.channels", ["conda forge"]),
    ("conda.channels", None),
    ("conda.dependencies", ["a|b"]),
    ("conda.source", "defaults"),
    ("lock", "uv"),
    ("lock.resolver", "poetry"),
    ("lock.resolver", None),
    ("lock.exclude_newer", 5),
    ("lock.exclude_newer", "30/06/2022"),
    ("lock.exclude_newer", "20220630"),
    ("pytorch_index", 5),
    ("write_index", "both"),
    ("write_index", None),
    ("torch_from", "conda"),
    ("ci", "github"),
    ("ci.gpu_runner", "gpu runner"),
    ("ci.install", None),
    ("ci.install", "$(curl x)"),
    ("trusted_hosts", ["http://pypi.lan"]),
    ("trusted_hosts", "pypi.lan"),
]
# (key path, value): refused by the runtime reader's own rules, which a schema does not state.
RUNTIME_ONLY: Final[list[tuple[str, object]]] = [
    ("torch", "two"),  # a version, a specifier or "latest" (packaging)
    ("torch", ">=2.1,,<2.3"),  # an empty clause
    ("torch", "   "),  # empty once stripped
    ("torchvision", "zero.sixteen"),  # a version (packaging)
    ("python", ["3.10", "3.10"]),  # listed twice
    ("accelerators", ["cpu", "cpu"]),  # listed twice
    ("platforms", ["linux-64", "linux-64"]),  # listed twice
    ("pip", ["numpy @ https://x.example/numpy.whl"]),  # a direct URL
    ("pip", ["numpy", "NumPy<2"]),  # listed twice
    ("pip", ["torch==2.1.0"]),  # set by the torch keys
    ("pip", ["numpy #2"]),  # pip reads ` #` as a comment
    ("pip", ["num py"]),  # PEP 508
    ("conda.dependencies", ["pytorch"]),  # set by envgen
    ("lock.exclude_newer", "2022-02-30"),  # no such day
    ("pytorch_index", "ftp://mirror.example/whl"),  # index URL policy
    ("pytorch_index", "http://remote.example/whl"),  # plain http to an untrusted host
    ("ci.install", "numpy==2.0"),  # not a form of envgen-torch
    ("name", "a\u2028b"),  # refused characters (the name pattern refuses it too)
    ("pip", ["numpy; sys_platform == 'linux\u2028'"]),  # a line separator in a value
]


def _with(path: str, value: object) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "p", "torch": "2.1.0"}
    parent, _, key = path.rpartition(".")
    target = data
    if parent:
        target = data.setdefault(parent, {})
    if value is None and key in ("name", "torch") and not parent:
        data[key] = None
        return data
    target[key] = value
    return data


@pytest.mark.parametrize(("path", "value"), STRUCTURAL, ids=lambda x: repr(x)[:30])
def test_both_refuse_a_structural_mistake(path: str, value: object) -> None:
    data = _with(path, value)
    problem = first_problem(data)
    assert problem is not None
    assert re.match(re.escape(path.split(".", maxsplit=1)[0]), problem), problem
    assert not _runtime_accepts(data)


@pytest.mark.parametrize(("path", "value"), RUNTIME_ONLY, ids=lambda x: repr(x)[:30])
def test_the_runtime_reader_adds_its_own_rules(path: str, value: object) -> None:
    """What the schema leaves to the runtime reader (each with its message: tests/unit/model/test_spec.py)."""
    data = _with(path, value)
    assert not _runtime_accepts(data)
    if path != "name":
        assert first_problem(data) is None


def _as_json(data: object) -> object:
    """YAML's dates as the strings a JSON document would hold."""
    return json.loads(json.dumps(data, default=lambda d: d.isoformat()))


def test_the_json_schema_agrees_for_editors() -> None:
    """The committed JSON Schema (what an editor checks) accepts the repository's specs and the
    spec setting every key, and refuses each structural mistake a JSON document can make."""
    committed = ROOT / "docs" / "reference" / "project-yaml.schema.json"
    validator = jsonschema.Draft202012Validator(json.loads(committed.read_text(encoding="utf-8")))
    for path in SPECS:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert list(validator.iter_errors(_as_json(data))) == [], path
    assert list(validator.iter_errors(_as_json(EVERY_KEY))) == []
    accepted = [
        (path, value)
        for path, value in STRUCTURAL
        if not list(validator.iter_errors(_with(path, value)))
    ]
    assert accepted == []
