"""Fuzz the spec loader through the real CLI: `envgen list` and `envgen lock --pins-only`.

Generated project.yaml files: the known keys with well-formed, hostile and wrongly typed values
(as JSON, which is YAML, with non-ASCII characters raw or escaped), and raw YAML-ish text.
Property: success or an EnvgenError (never another exception), within the time and memory
bounds; no canary in any output or written file; and no written file holds a line break other
than LF or a control character (a spec value that reached a requirements file raw).
"""

from __future__ import annotations

import json
import os
import tempfile
import unicodedata
from pathlib import Path
from typing import Final

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from envgen.cli import main_inner
from envgen.errors import EnvgenError
from tests.fuzz.harness import (
    assert_no_canary,
    bounded,
    fragment,
    long,
    plant_secrets,
    requirement,
    secret_environ,
    short,
)

MINI: Final = Path(__file__).parents[1] / "data" / "matrix-mini"
ROOT: Final = Path(tempfile.gettempdir()) / f"envgen-fuzz-spec-{os.getuid()}"
SECRET: Final = ROOT / "outside" / "secret.txt"

_ANY: Final = st.one_of(
    fragment(SECRET),
    st.lists(fragment(SECRET), max_size=3),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.none(),
    st.dictionaries(st.text(max_size=8), fragment(SECRET), max_size=2),
)


def _or_any(*good: object) -> st.SearchStrategy[object]:
    return st.one_of(st.sampled_from(good), _ANY)


URLS: Final = (
    "https://download.pytorch.org/whl",
    "http://127.0.0.1:9/simple",
    f"file://{SECRET}",
    "http://mirror.example/simple",
    "https://u:p@mirror.example/simple",
    "https://mirror.example/simple\u2028--index-url x",
    "ftp://x",
)
SPECS: Final = st.fixed_dictionaries(
    {
        "name": _or_any("fz", "p-1"),
        "python": _or_any("3.11", ["3.10", "3.11"], "3.8"),
        "torch": _or_any("2.1.0", ">=2.1,<2.3", "latest", ">=2.1,,<2.3", "2.1"),
    },
    optional={
        "torchvision": _or_any(True, False, "0.16.0"),
        "torchaudio": _or_any(True, False, "2.1.0"),
        "accelerators": _or_any(["cpu"], ["cpu", "cu118"], ["cu121"], "all", ["rocm5.6"]),
        "platforms": _or_any(["linux-64"], ["osx-arm64", "win-64"]),
        "managers": _or_any(["pip"], ["conda"], ["pip", "conda"]),
        "pip": st.lists(st.one_of(requirement(), fragment(SECRET)), max_size=4),
        "conda": st.fixed_dictionaries(
            {},
            optional={
                "channels": st.lists(_or_any("conda-forge", "pytorch"), max_size=3),
                "dependencies": st.lists(st.one_of(requirement(), fragment(SECRET)), max_size=3),
                "source": _or_any("pytorch", "conda-forge"),
            },
        ),
        "lock": st.fixed_dictionaries(
            {}, optional={"exclude_newer": _or_any("2024-01-01"), "resolver": _or_any("uv")}
        ),
        "pytorch_index": _or_any(*URLS),
        "pypi_index": _or_any(*URLS),
        "trusted_hosts": st.lists(_or_any("mirror.example", "127.0.0.1"), max_size=2),
        "write_index": _or_any("official", "mirror"),
        "ci": st.fixed_dictionaries({}, optional={"gpu_runner": _or_any("gpu", "a,b")}),
    },
)
TEXTS: Final = st.one_of(
    st.tuples(SPECS, st.booleans()).map(lambda t: json.dumps(t[0], ensure_ascii=t[1])),
    st.lists(fragment(SECRET), max_size=10).map("\n".join),
)

# What no generated file may hold: any line break but LF, any control or format character.
_REFUSED: Final = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _raw_breaks(text: str, allowed: str = "\n") -> list[str]:
    return sorted(
        {
            f"U+{ord(c):04X}"
            for c in text
            if c not in allowed and unicodedata.category(c) in _REFUSED
        }
    )


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    ROOT.mkdir(exist_ok=True)
    plant_secrets(ROOT)
    for key, value in secret_environ().items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("ENVGEN_CACHE_DIR", str(ROOT / "cache"))


def check_spec(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    with tempfile.TemporaryDirectory(dir=ROOT) as work:
        plant_secrets(Path(work))
        proj = Path(work) / "proj"
        proj.mkdir()
        spec = proj / "project.yaml"
        spec.write_text(text, encoding="utf-8", errors="surrogatepass")
        outputs: list[str] = []
        for args in (
            ["list", str(spec), "--matrix", str(MINI)],
            ["lock", str(spec), "--pins-only", "--matrix", str(MINI)],
        ):
            with bounded():
                try:
                    main_inner(args)
                except (EnvgenError, click.ClickException) as exc:
                    outputs.append(str(exc))
            out, err = capsys.readouterr()
            outputs += [out, err]
        assert_no_canary(*outputs, files=proj)
        for path in (proj / "environments").rglob("*"):
            if path.is_file():
                allowed = "\n\t" if path.name == "Makefile" else "\n"  # a recipe starts with a tab
                assert _raw_breaks(path.read_text(encoding="utf-8"), allowed) == [], path


@pytest.mark.usefixtures("secrets")
@short(40)
@given(text=TEXTS)
def test_spec_never_crashes_or_leaks(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    check_spec(text, capsys)


@pytest.mark.fuzzlong
@pytest.mark.usefixtures("secrets")
@long()
@given(text=TEXTS)
def test_spec_never_crashes_or_leaks_long(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    check_spec(text, capsys)
