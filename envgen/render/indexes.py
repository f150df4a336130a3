"""Where the indexes and channels are: the spec's, or the user's mirrors over them.

`index_urls` decides which PyTorch / PyPI / extension index roots a run resolves against and which
it names in written files (settings over spec, credentials never written); `conda_channel_map`
maps channel names to a mirror (ENVGEN_CONDA_CHANNEL_ALIAS). The user's settings come in as a
`Settings` value or values from it; nothing here reads the environment or the network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from envgen.errors import SpecError
from envgen.infra.proc import redact, strip_credentials
from envgen.infra.urls import check_index_url, host_of
from envgen.model.types import PYPI_SIMPLE, PYTORCH_WHL_ROOT

if TYPE_CHECKING:
    from envgen.infra.settings import Settings
    from envgen.model.spec import ProjectSpec


@dataclass(frozen=True, slots=True, kw_only=True)
class IndexUrls:
    """Where the PyTorch and PyPI indexes are, and which of them to name in files.

    `pytorch_root` stands in for https://download.pytorch.org/whl (same layout below it).
    """

    pytorch_root: str = PYTORCH_WHL_ROOT
    pypi: str | None = None
    # Stands in for every extension wheel host: https://data.pyg.org/x -> <root>/data.pyg.org/x.
    extension_root: str | None = None

    def pytorch(self, published_url: str) -> str:
        """Translate a URL as published under download.pytorch.org/whl to this root."""
        if published_url.startswith(PYTORCH_WHL_ROOT):
            return self.pytorch_root.rstrip("/") + published_url[len(PYTORCH_WHL_ROOT) :]
        return published_url

    def extension(self, published_url: str) -> str:
        """Translate an extension index URL (data.pyg.org, ...) to this root."""
        if (
            self.extension_root is None
            or "://" not in published_url
            or published_url.startswith((PYTORCH_WHL_ROOT, PYPI_SIMPLE))
        ):
            return published_url
        return self.extension_root.rstrip("/") + "/" + published_url.split("://", 1)[1]


def index_urls(spec: ProjectSpec, settings: Settings, *, for_writing: bool) -> IndexUrls:
    """The index roots to use (settings over spec) and which to name in written files.

    ENVGEN_PYTORCH_INDEX / ENVGEN_PYPI_INDEX (`settings`) override the spec's pytorch_index /
    pypi_index. Written files name the official indexes unless the spec says `write_index: mirror`;
    credentials are never written (see docs/explanation/indexes.md).

    Raises:
        SpecError: a plain-http ENVGEN_*_INDEX to a host the spec does not trust (the settings
            checked everything else when they were read).
    """
    pytorch = settings.pytorch_index or spec.pytorch_index
    pypi = settings.pypi_index or spec.pypi_index
    # A mirror of the extension wheel hosts (<root>/data.pyg.org/whl/...): a user setting only.
    extension = settings.extension_index
    for name, value in (
        ("ENVGEN_PYTORCH_INDEX", pytorch),
        ("ENVGEN_PYPI_INDEX", pypi),
        ("ENVGEN_EXTENSION_INDEX", extension),
    ):
        if value:
            problem = check_index_url(value, trusted=_is_trusted(value, spec.trusted_hosts))
            if problem:
                # The message names the URL redacted: a token in it must not reach a log.
                msg = f"{name}: {redact(problem)}"
                raise SpecError(msg)
    if for_writing and spec.write_index != "mirror":
        return IndexUrls()
    if for_writing:
        # A mirror's credentials are used, never written.
        return IndexUrls(
            pytorch_root=strip_credentials(pytorch) if pytorch else IndexUrls().pytorch_root,
            pypi=strip_credentials(pypi) if pypi else None,
        )
    return IndexUrls(
        pytorch_root=(pytorch or IndexUrls().pytorch_root).rstrip("/"),
        pypi=pypi.rstrip("/") if pypi else None,
        extension_root=extension.rstrip("/") if extension else None,
    )


def _is_trusted(url: str, hosts: tuple[str, ...]) -> bool:
    return host_of(url) in hosts


def conda_channel_map(alias: str | None) -> dict[str, str]:
    """Channel name -> URL: `alias` (ENVGEN_CONDA_CHANNEL_ALIAS, checked by Settings) stands in
    for https://conda.anaconda.org."""
    if not alias:
        return {}
    root = alias.rstrip("/")
    return {name: f"{root}/{name}" for name in ("pytorch", "nvidia", "conda-forge", "defaults")}
