"""load_bounded(shipped=True): libyaml composes envgen's own data files, with PyYAML's results.

The fast path must give the same values as the pure-Python loader for every shipped file, and
the same error (type and message) for text libyaml refuses; untrusted text never takes it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from envgen.infra import safe_yaml
from envgen.infra.resources import MATRICES_DIR
from envgen.infra.safe_yaml import YamlBombError, load_bounded

# The files read with shipped=True (the matrix itself loads through envgen.model.matrix).
SHIPPED = [
    MATRICES_DIR / name
    for name in (
        "era.yaml", "incompatibilities.yaml", "targets.yaml", "build-dependencies.yaml",
        "pypi-routes.yaml", "conda-pypi-names.yaml",
    )
]  # fmt: skip


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_file_reads_the_same_both_ways(path: Path) -> None:
    assert path.is_file()
    text = path.read_text(encoding="utf-8")
    assert load_bounded(text, shipped=True)[1] == load_bounded(text)[1]


@pytest.mark.parametrize(
    "text",
    ["a: [1, 2", "a:\n\t- b", "a: b: c", 'x: "\\q"', "- a\nb: 1", "a: 1\n---\nb: 2", "k: \x07"],
)
def test_refused_text_gives_pyyaml_s_own_error(text: str) -> None:
    with pytest.raises(yaml.YAMLError) as pure:
        load_bounded(text)
    with pytest.raises(yaml.YAMLError) as fast:
        load_bounded(text, shipped=True)
    assert (type(fast.value), str(fast.value)) == (type(pure.value), str(pure.value))


def test_limits_hold_on_the_fast_path() -> None:
    deep = "[" * 500 + "]" * 500  # libyaml composes it; the depth check refuses it
    with pytest.raises(YamlBombError, match="nests more than 100 levels"):
        load_bounded(deep, shipped=True)
    deeper = "[" * 5000 + "]" * 5000  # libyaml refuses it; PyYAML's recursion does
    with pytest.raises(YamlBombError, match="nests more than 100 levels"):
        load_bounded(deeper, shipped=True)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(6)
    )
    with pytest.raises(YamlBombError, match="alias bomb"):
        load_bounded(bomb, shipped=True)


def test_untrusted_text_never_reaches_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_text: str) -> object:
        msg = "libyaml was asked"
        raise AssertionError(msg)

    monkeypatch.setattr(safe_yaml, "_FAST_LOADER", refuse)
    assert load_bounded("a: 1")[1] == {"a": 1}
    with pytest.raises(AssertionError, match="libyaml was asked"):
        load_bounded("a: 1", shipped=True)
