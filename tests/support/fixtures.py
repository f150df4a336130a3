"""Session-scoped fixtures: fake wheels, served PyTorch-like indexes, local conda channels.

Loaded by `tests/conftest.py` with `pytest_plugins = ["tests.support.fixtures"]`.

    def test_lock(pytorch_index):
        pytorch_index.index_url("cu118")   # http://127.0.0.1:PORT/whl/cu118
        pytorch_index.pypi_url             # http://127.0.0.1:PORT/pypi/simple
        pytorch_index.requested_paths("/whl/cu118/*")
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import pytest

from tests.support.conda_channel import (
    CondaChannel,
    build_conda_forge_channel,
    build_pytorch_channel,
)
from tests.support.index import IndexFile, IndexTree, build_index_tree, write_wheels
from tests.support.server import IndexServer, RequestRecord

AUTH_USER: Final = "envgen"
AUTH_TOKEN: Final = "CANARY-TOKEN-1234"  # noqa: S105 - a canary, not a secret


@dataclass(frozen=True, slots=True)
class ServedIndex:
    """An `IndexTree` behind a running `IndexServer`."""

    tree: IndexTree
    server: IndexServer

    @property
    def dir(self) -> Path:
        """The served directory (holds `whl/` and `pypi/`)."""
        return self.tree.root

    @property
    def base_url(self) -> str:
        return self.server.url

    @property
    def root_url(self) -> str:
        """Like https://download.pytorch.org/whl: `<root_url>/<variant>` is an index URL."""
        return f"{self.server.url}/whl"

    @property
    def pypi_url(self) -> str:
        """The PyPI stand-in, like https://pypi.org/simple."""
        return f"{self.server.url}/pypi/simple"

    def index_url(self, variant: str) -> str:
        return f"{self.root_url}/{variant}"

    @property
    def auth(self) -> tuple[str, str] | None:
        return self.server.auth

    def with_auth(self, url: str) -> str:
        """`url` (one of this server's) with `user:token@` spliced in, when auth is on."""
        if self.server.auth is None:
            return url
        return url.replace(self.server.url, self.server.url_with_auth(), 1)

    @property
    def requests(self) -> list[RequestRecord]:
        return self.server.requests

    def requested_paths(self, pattern: str = "*") -> list[str]:
        return self.server.requested_paths(pattern)

    def clear_requests(self) -> None:
        self.server.clear_requests()

    def files_for(self, index: str, project: str | None = None) -> list[IndexFile]:
        return self.tree.files_for(index, project)


@pytest.fixture(scope="session")
def fake_wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A flat directory holding every fake wheel once (usable as `--find-links`)."""
    directory = tmp_path_factory.mktemp("fake-wheels")
    write_wheels(directory)
    return directory


def _serve(
    tmp_path_factory: pytest.TempPathFactory,
    fake_wheels: Path,
    name: str,
    *,
    upload_times: bool = True,
    auth: tuple[str, str] | None = None,
) -> Iterator[ServedIndex]:
    wheels = {p.name: p for p in fake_wheels.glob("*.whl")}
    tree = build_index_tree(tmp_path_factory.mktemp(name), wheels=wheels, upload_times=upload_times)
    with IndexServer(tree.root, auth=auth) as server:
        yield ServedIndex(tree, server)


@pytest.fixture(scope="session")
def pytorch_index(
    tmp_path_factory: pytest.TempPathFactory, fake_wheels: Path
) -> Iterator[ServedIndex]:
    """PyTorch indexes (cpu, cu118, cu121) and PyPI stand-in, both with PEP 700 upload times."""
    yield from _serve(tmp_path_factory, fake_wheels, "pytorch-index")


@pytest.fixture(scope="session")
def pytorch_index_no_upload_times(
    tmp_path_factory: pytest.TempPathFactory, fake_wheels: Path
) -> Iterator[ServedIndex]:
    """As `pytorch_index`, but the PyTorch indexes carry no upload times (like the real one);
    the PyPI stand-in still does."""
    yield from _serve(tmp_path_factory, fake_wheels, "pytorch-index-no-times", upload_times=False)


@pytest.fixture(scope="session")
def pytorch_index_with_auth(
    tmp_path_factory: pytest.TempPathFactory, fake_wheels: Path
) -> Iterator[ServedIndex]:
    """As `pytorch_index`, behind basic auth: user `envgen`, token `CANARY-TOKEN-1234`."""
    yield from _serve(
        tmp_path_factory, fake_wheels, "pytorch-index-auth", auth=(AUTH_USER, AUTH_TOKEN)
    )


@pytest.fixture(scope="session")
def conda_channel(tmp_path_factory: pytest.TempPathFactory) -> CondaChannel:
    """A `pytorch`-like conda channel (`.path`, `.url` is file://)."""
    return build_pytorch_channel(tmp_path_factory.mktemp("conda") / "pytorch")


@pytest.fixture(scope="session")
def conda_forge_channel(tmp_path_factory: pytest.TempPathFactory) -> CondaChannel:
    """A conda-forge-like channel with pytorch 2.6.0 cpu_generic / cuda126_generic builds."""
    return build_conda_forge_channel(tmp_path_factory.mktemp("conda") / "conda-forge")


class ServerFactory(Protocol):
    """`faulty_server(directory=None, *, auth=None) -> IndexServer` (started)."""

    def __call__(
        self, directory: Path | None = None, *, auth: tuple[str, str] | None = None
    ) -> IndexServer: ...


@pytest.fixture
def faulty_server(pytorch_index: ServedIndex) -> Iterator[ServerFactory]:
    """Start extra servers (default: over `pytorch_index`'s directory); add faults to them.

        server = faulty_server()                    # or faulty_server(some_dir, auth=(u, t))
        server.add_fault("/pypi/simple/numpy/*", status=500, times=1)
        server.add_fault("*.whl", truncate=100)

    Every server is stopped at the end of the test.
    """
    started: list[IndexServer] = []

    def factory(
        directory: Path | None = None, *, auth: tuple[str, str] | None = None
    ) -> IndexServer:
        server = IndexServer(directory or pytorch_index.dir, auth=auth).start()
        started.append(server)
        return server

    yield factory
    for server in started:
        server.stop()


_DROPPED_PREFIXES: Final = ("PIP_", "UV_", "CONDA_", "ENVGEN_", "VIRTUAL_ENV")
_PROXY_VARS: Final = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY")
DEAD_PROXY: Final = "http://127.0.0.1:9"
"""Every non-loopback request is sent here and fails at once: no test reaches the internet."""


def clean_tool_env(scratch: Path) -> dict[str, str]:
    """`os.environ` made hermetic for a real `uv` / `pip` subprocess.

    Drops `PIP_*`, `UV_*`, `CONDA_*`, `ENVGEN_*` and proxy settings; gives uv its own cache under
    `scratch` and no user config (`XDG_CONFIG_HOME`), pip no config file, and routes every
    non-loopback request to a dead proxy. Not `UV_NO_CONFIG`: that also makes `uv lock` ignore
    the project's `[[tool.uv.index]]` (it then falls back to pypi.org).
    """
    proxies = {name.lower() for name in _PROXY_VARS} | set(_PROXY_VARS)
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(_DROPPED_PREFIXES) and k not in proxies
    }
    env.update(
        UV_CACHE_DIR=str(scratch / "uv-cache"),
        UV_PYTHON_DOWNLOADS="never",
        XDG_CONFIG_HOME=str(scratch / "xdg-config"),
        PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_CACHE_DIR="1",
        PIP_NO_INPUT="1",
    )
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env[name] = env[name.lower()] = DEAD_PROXY
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    return env


@pytest.fixture
def tool_env(tmp_path: Path) -> dict[str, str]:
    """A hermetic environment for a real `uv` / `pip` subprocess (see `clean_tool_env`)."""
    return clean_tool_env(tmp_path)


@pytest.fixture
def tool_environ(tool_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """os.environ made exactly `tool_env`, for tests whose library calls start tools that
    inherit it (the lockers); `pytestmark = pytest.mark.usefixtures("tool_environ")`."""
    for key in list(os.environ):
        if key not in tool_env:
            monkeypatch.delenv(key)
    for key, value in tool_env.items():
        monkeypatch.setenv(key, value)
    return tool_env


def user_key(environ: dict[str, str] | None = None) -> bytes:
    """The build key envgen uses in `environ` (default: this test's, whose XDG_CONFIG_HOME the
    conftest sets), as a `python -m envgen` started with that environment finds it."""
    from envgen.infra.buildkey import load_key
    from envgen.infra.settings import Settings

    return load_key(Settings.from_environ(os.environ if environ is None else environ).key_file)
