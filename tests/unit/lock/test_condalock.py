"""CondaLock: the one parser and renderer of conda-lock.yml (issue 22 item 1)."""

from __future__ import annotations

from typing import Final

import pytest

from envgen.errors import LockError
from envgen.lock.condalock import CondaLock, CondaPackage
from envgen.lock.lockfile import with_header
from envgen.render.header import Header

HEADER: Final = Header(command="envgen lock project.yaml", input_hash="sha256:0", description="d")
LOCK: Final = CondaLock(
    content_hash=(("linux-64", "f" * 64),),
    channels=("pytorch", "nvidia"),
    platforms=("linux-64",),
    sources=("environment.yml",),
    packages=(
        CondaPackage(
            name="pytorch",
            version="2.1.0",
            manager="conda",
            platform="linux-64",
            dependencies=(("numpy", ">=1.21"), ("python", "")),
            url="https://conda.anaconda.org/pytorch/linux-64/pytorch-2.1.0-py3.11_cpu_0.tar.bz2",
            md5="a" * 32,
            sha256="b" * 64,
        ),
        CondaPackage(
            name="six",
            version="1.16.0",
            manager="pip",
            platform="linux-64",
            url="https://files.pythonhosted.org/six-1.16.0-py2.py3-none-any.whl",
            sha256="c" * 64,
        ),
    ),
)


def test_render_parse_render_is_the_identity_with_or_without_the_header() -> None:
    body = LOCK.render()
    assert body.startswith("version: 1\nmetadata:\n  content_hash:\n    linux-64: ")
    assert CondaLock.parse(body) == LOCK
    assert CondaLock.parse(with_header(HEADER, body)) == LOCK
    assert LOCK.versions("linux-64") == {"pytorch": "2.1.0"}
    assert LOCK.versions("linux-64", manager="pip") == {"six": "1.16.0"}


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda t: t + "  extra: 1\n", "package[1]: not an entry with the fields"),
        (lambda t: t.replace("  - url: pytorch", "  - url: 'pytorch'"), "not in the layout envgen"),
        (lambda t: t.replace("version: 1\n", "version: 2\n", 1), "not a conda-lock file"),
        (lambda t: t.replace("manager: pip", "manager: npm"), "is neither conda nor pip"),
        (lambda t: t.replace("version: 1.16.0", "version: 1.16.0 *"), "is not a package"),
        (lambda t: t.replace("    md5: ", "    sha1: "), "only md5 and sha256 are written"),
        (lambda t: t + "- [\n", "not valid YAML"),
        (lambda t: t.replace("  optional: false\n", "", 1), "not an entry with the fields"),
    ],
)
def test_a_lock_envgen_did_not_write_is_refused(edit: object, problem: str) -> None:
    with pytest.raises(LockError) as info:
        CondaLock.parse(edit(LOCK.render()), source="cpu/conda-lock.yml")  # type: ignore[operator]
    assert info.value.message.startswith("cpu/conda-lock.yml: ")
    assert problem in info.value.message
