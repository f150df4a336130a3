"""envgen.lock.stamps: a build's verification recorded with the lines it printed, and read back."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Final

import pytest

from envgen.infra.settings import Settings
from envgen.lock import stamps
from envgen.model.matrix import load_matrix
from envgen.model.spec import parse_spec
from envgen.model.variants import Variant, expand

MINI: Final = Path(__file__).parents[2] / "data" / "matrix-mini"
TEXTS: Final = {"requirements.txt": "torch==2.1.0+cpu\n"}
log = logging.getLogger("envgen.lock.pip")


@pytest.fixture
def cpu() -> Variant:
    spec = parse_spec(
        'name: p\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n',
        path=Path("project.yaml"),
    )
    return expand(spec, load_matrix(MINI)).variants[0]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(cache_root=tmp_path / "cache", pytorch_index="https://u:p@mirror.example/whl")


@pytest.fixture(autouse=True)
def info_level() -> object:
    """The CLI's default: envgen's loggers make INFO lines."""
    root = logging.getLogger("envgen")
    old = root.level
    root.setLevel(logging.INFO)
    yield
    root.setLevel(old)


def test_a_verification_is_stamped_with_the_lines_it_printed(
    cpu: Variant, settings: Settings
) -> None:
    with stamps.recording() as printed:
        log.warning("%s: the PyTorch index at %s gives no upload times", cpu.id, "file:///w")
        log.warning("cpu: GET https://user:hunter2@mirror.example/whl/ answered 404")
        log.info("cpu: sdists are built with python 3.12 at /x")
        log.debug("running: uv pip compile")  # not a line a build shows
    assert stamps.build_stamp(cpu, TEXTS, settings, "rattler") is None
    stamps.stamp_build(cpu, TEXTS, settings, "rattler", printed)
    assert stamps.build_stamp(cpu, TEXTS, settings, "rattler") == [
        (logging.WARNING, "cpu: the PyTorch index at file:///w gives no upload times"),
        (logging.WARNING, "cpu: GET https://***@mirror.example/whl/ answered 404"),
        (logging.INFO, "cpu: sdists are built with python 3.12 at /x"),
    ]
    # Other bytes, another conda tool or other indexes: no stamp.
    assert (
        stamps.build_stamp(cpu, {"requirements.txt": "torch==2.1.1\n"}, settings, "rattler") is None
    )
    assert stamps.build_stamp(cpu, TEXTS, settings, "conda") is None
    other = Settings(cache_root=settings.cache_root)
    assert stamps.build_stamp(cpu, TEXTS, other, "rattler") is None
    # A lock's own (empty) stamp never stands for a build's: it holds no lines.
    stamps.stamp(cpu, TEXTS, other, "rattler")
    assert stamps.stamped(cpu, TEXTS, other, "rattler")
    assert stamps.build_stamp(cpu, TEXTS, other, "rattler") is None


def test_no_stamp_after_a_transient_line_or_with_the_lines_filtered(
    cpu: Variant, settings: Settings
) -> None:
    with stamps.recording() as printed:
        logging.getLogger("envgen.infra.network").info(
            "GET x failed (reset); retry 1 of 2", extra=stamps.TRANSIENT
        )
    assert printed.transient
    stamps.stamp_build(cpu, TEXTS, settings, "rattler", printed)
    assert stamps.build_stamp(cpu, TEXTS, settings, "rattler") is None
    logging.getLogger("envgen").setLevel(logging.WARNING)  # -q
    with stamps.recording() as quiet:
        log.warning("cpu: a warning")
    assert quiet.filtered
    stamps.stamp_build(cpu, TEXTS, settings, "rattler", quiet)
    assert stamps.build_stamp(cpu, TEXTS, settings, "rattler") is None


@pytest.mark.parametrize(
    "content",
    [b"", b"not json", b'{"lines": [[30]]}', b'{"lines": [["30", "x"]]}', b"[]", b"x" * 70000],
)
def test_a_stamp_envgen_did_not_write_is_no_stamp(
    cpu: Variant, settings: Settings, content: bytes
) -> None:
    path = stamps.stamp_path(cpu, TEXTS, settings, "rattler", build=True)
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert stamps.build_stamp(cpu, TEXTS, settings, "rattler") is None
