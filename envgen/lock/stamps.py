"""Stamps of verified locks: this machine wrote or re-resolved these very lock bytes before.

A stamp is an empty file in the user's cache (`<cache root>/verified-locks/<key>`), its name a
hash of the lock texts and of what a re-resolution depends on besides the spec and matrix (which
the locks' input-hash covers). `envgen lock` stamps what it writes and what its triage verified;
a plain relock and `envgen build` skip the re-resolution of a stamped lock (issue 21 item 6,
issue 27). Best effort: a stamp that cannot be written costs a re-resolution next time.
Must not resolve anything itself (envgen.lock.verify does).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Final

from envgen import __version__
from envgen.errors import EnvgenError
from envgen.infra.files import atomic_write_bytes, input_hash, normalize_text
from envgen.infra.proc import strip_credentials
from envgen.infra.settings import Settings
from envgen.model.variants import Variant

_STAMPS: Final = "verified-locks"


def stamp_path(v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str) -> Path:
    """Where the stamp of these lock bytes, verified with these settings, lives.

    The key covers what a verification depends on besides the spec and matrix (which the
    locks' input-hash covers): the lock texts (their `lock-options:` line included: a
    verification resolves with the options the lock records, never the command's), the indexes
    and channel alias it resolves against (credentials removed), the conda tool and envgen's
    version.
    """
    real = index_urls_for_stamp(settings)
    key = input_hash(
        {
            "stamp": 1,
            "envgen": __version__,
            "variant": v.id,
            "texts": {n: normalize_text(t) if t else "" for n, t in sorted(texts.items())},
            "indexes": real,
            "conda_tool": conda_tool,
        }
    )
    return settings.cache_root / _STAMPS / key.removeprefix("sha256:")


def index_urls_for_stamp(settings: Settings) -> list[str | None]:
    """The user's index settings that decide a resolution, without credentials."""
    return [
        strip_credentials(u) if u else None
        for u in (
            settings.pytorch_index,
            settings.pypi_index,
            settings.extension_index,
            settings.channel_alias,
        )
    ]


def stamped(v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str) -> bool:
    """Whether this machine wrote or verified these lock bytes with these settings."""
    return stamp_path(v, texts, settings, conda_tool).is_file()


def stamp(v: Variant, texts: dict[str, str], settings: Settings, conda_tool: str) -> None:
    """Record that this machine wrote or verified these lock bytes (best effort)."""
    with contextlib.suppress(OSError, EnvgenError):
        atomic_write_bytes(stamp_path(v, texts, settings, conda_tool), b"")
