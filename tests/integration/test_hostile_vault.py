"""`envgen vault` on a forged lock: nothing is fetched, nothing lands outside the vault.

The vault stores the files a committed lock names, at a path built from each file's name. A
cloned repository whose `requirements.txt` (content hash recomputed, as an attacker would) pins
`numpy @ http://host/..%2F..%2F<anywhere>/escaped-1.0.tar.gz` with the sha256 of the bytes that
host serves made `envgen vault` download them and write them outside `--dir` (a new file anywhere
the user can write; with `--all-files` under any name, e.g. a `.pth` in a site-packages folder).
Through the real CLI against the loopback index (tests/support/).
"""

from __future__ import annotations

import hashlib
import http.server
import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from envgen.errors import BuildError, NetworkError
from envgen.infra.simple_api import download
from envgen.vault.store import conda_path, pip_path
from tests.integration.test_hostile_lock import MINI, PIP_SPEC, ROOT, envgen, forge
from tests.support.fixtures import ServedIndex, clean_tool_env

pytestmark = pytest.mark.integration

BODY: Final = b"written by a forged lock\n"
SHA: Final = "ab" + "0" * 62


class _AnyPath(http.server.BaseHTTPRequestHandler):
    """Serves BODY at every path and records the paths asked for."""

    asked: list[str] = []  # noqa: RUF012 - one server per test, reset by the fixture

    def do_GET(self) -> None:
        self.asked.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def attacker() -> Iterator[str]:
    """An HTTP server on 127.0.0.1 that answers any path with BODY; yields its URL."""
    _AnyPath.asked = []
    server = http.server.HTTPServer(("127.0.0.1", 0), _AnyPath)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def locked(
    tmp_path_factory: pytest.TempPathFactory, pytorch_index: ServedIndex
) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("hostile-vault")
    env = clean_tool_env(base)
    env.update(
        ENVGEN_CACHE_DIR=str(base / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_PYTORCH_INDEX=pytorch_index.root_url,
        ENVGEN_PYPI_INDEX=pytorch_index.pypi_url,
        PYTHONPATH=str(ROOT),
    )
    proj = base / "template"
    proj.mkdir()
    (proj / "project.yaml").write_text(PIP_SPEC)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert code == 0, out
    return proj, env


def test_vault_checks_a_forged_lock_before_fetching(
    locked: tuple[Path, dict[str, str]], tmp_path: Path, attacker: str
) -> None:
    template, env = locked
    proj = tmp_path / "proj"
    shutil.copytree(template, proj)
    escaped = tmp_path / "escaped-1.0.tar.gz"
    vault = tmp_path / "a" / "b" / "vault"
    # files/sha256/<2>/<64>/NAME below the vault: 5 levels, then a/b, then tmp_path.
    url = f"{attacker}/" + "..%2F" * 7 + "escaped-1.0.tar.gz"
    digest = hashlib.sha256(BODY).hexdigest()
    forge(
        proj / "environments" / "cpu" / "requirements.txt",
        lambda body: re.sub(
            r"numpy==1\.26\.4 \\\n    --hash=sha256:[0-9a-f]{64}",
            lambda _: f"numpy @ {url} \\\n    --hash=sha256:{digest}",
            body,
        ),
    )
    # --all-files: every hashed file, under any name (before the fix, a `.pth` would do).
    code, out = envgen(["vault", "project.yaml", "--dir", str(vault), "--all-files"], env, proj)
    assert code == 7, out
    assert "error: environments/cpu: the lock is not what its inputs resolve to" in out, out
    assert f"numpy @ {url}" in out, out
    assert "Traceback" not in out
    assert not escaped.exists()
    assert _AnyPath.asked == []
    assert not vault.exists()


@pytest.mark.parametrize(
    "name", ["../escaped-1.0.tar.gz", "..", "a/../../x.whl", "a\\b.whl", "x\0.whl", ""]
)
def test_a_vault_path_is_one_plain_name(name: str) -> None:
    with pytest.raises(BuildError, match="is not a plain file or folder name"):
        pip_path(SHA, name)


@pytest.mark.parametrize(
    "url",
    [
        "https://h.example/../../linux-64/x-1-0.conda",
        "https://h.example/ch/linux-64/..",
        "https://h.example/ch/../x-1-0.conda",
    ],
)
def test_a_conda_url_stays_inside_the_vault(url: str) -> None:
    with pytest.raises(BuildError, match="is not a plain file or folder name"):
        conda_path(url)
    assert conda_path("file:///srv/ch/linux-64/x-1-0.conda")[0] == (
        "conda//srv/ch/linux-64/x-1-0.conda"
    )


@pytest.mark.parametrize("device", ["/dev/zero", "fifo"])
def test_a_file_url_of_a_device_is_refused(device: str, tmp_path: Path) -> None:
    """`file:` URLs are read as regular files only: /dev/zero would copy until the disk is
    full, a FIFO would wait forever."""
    source = Path(device)
    if device == "fifo":
        source = tmp_path / "fifo"
        os.mkfifo(source)
    with pytest.raises(NetworkError, match="not a regular file"):
        download(source.as_uri(), tmp_path / "out" / "x.whl", SHA, timeout=5)
    assert not (tmp_path / "out" / "x.whl").exists()
