"""Push and pull a vault to S3-compatible object storage (AWS, MinIO, Ceph, ...) with boto3.

Only what is missing on the other side travels: a stored file's key names its sha256 (pip files)
or its channel and name (conda files), so a key that exists holds those bytes; small files
(index pages, repodata.json, vault.json) are compared by MD5 (their ETag). `push` uploads files
first and the manifest last, so a reader never sees a manifest naming a file not yet there. `pull`
downloads the files the local vault lacks, checks each against the remote manifest's sha256,
merges the two manifests and rewrites the index pages.

Credentials come from boto3's usual chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile,
an instance role); envgen never reads or prints them. Must not fetch from package indexes.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from envgen.errors import BuildError, NetworkError
from envgen.vault.store import (
    MANIFEST,
    Manifest,
    file_sha256,
    load_manifest,
    merged,
    write_manifest,
)

_CONTENT_ADDRESSED: Final = ("files/", "conda/")


@dataclass(frozen=True, slots=True, kw_only=True)
class SyncResult:
    copied: int
    skipped: int


def _split(url: str) -> tuple[str, str]:
    """(bucket, key prefix ending in / or empty) of an s3:// URL.

    >>> _split("s3://team-vault/torch/"), _split("s3://b")
    (('team-vault', 'torch/'), ('b', ''))
    """
    parts = urlsplit(url)
    if parts.scheme != "s3" or not parts.netloc:
        msg = f"{url!r} is not an s3://BUCKET[/PREFIX] URL"
        raise BuildError(msg, hint="e.g. s3://team-vault/envgen")
    prefix = parts.path.strip("/")
    return parts.netloc, f"{prefix}/" if prefix else ""


def _client(endpoint_url: str | None) -> Any:  # noqa: ANN401 - boto3 clients are untyped
    try:
        import boto3  # noqa: PLC0415 - only for push / pull
    except ImportError:
        msg = "vault push / pull need boto3, which is not installed"
        raise BuildError(msg, hint="pip install 'envgen-torch[s3]'") from None
    return boto3.client("s3", endpoint_url=endpoint_url)


def _remote(client: Any, bucket: str, prefix: str) -> dict[str, str]:  # noqa: ANN401
    """key (below prefix) -> ETag of every object under the prefix."""
    found: dict[str, str] = {}
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
    for page in pages:
        for item in page.get("Contents", []):
            found[item["Key"][len(prefix) :]] = str(item.get("ETag", "")).strip('"')
    return found


def _local_files(root: Path) -> list[str]:
    """Every file of a vault below `root`, as posix paths: no dot files (locks, temp files)."""
    names: list[str] = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and not any(p.startswith(".") for p in rel.parts):
            names.append(rel.as_posix())
    return names


def _md5(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as fh:
        while chunk := fh.read(1024 * 1024):
            digest.update(chunk)
    return digest.hexdigest()


def _failed(what: str, exc: Exception) -> NetworkError:
    msg = f"{what}: {type(exc).__name__}: {exc}"
    return NetworkError(msg)


def push(root: Path, url: str, *, endpoint_url: str | None = None) -> SyncResult:
    """Upload what the bucket lacks; the manifest goes last."""
    if not (root / MANIFEST).is_file():
        msg = f"{root}: no {MANIFEST}; not a vault"
        raise BuildError(msg, hint="make one with `envgen vault --dir DIR`")
    bucket, prefix = _split(url)
    client = _client(endpoint_url)
    copied = skipped = 0
    try:
        remote = _remote(client, bucket, prefix)
        names = _local_files(root)
        ordered = [n for n in names if n != MANIFEST] + [MANIFEST]
        for name in ordered:
            if name in remote and (
                name.startswith(_CONTENT_ADDRESSED) or remote[name] == _md5(root / name)
            ):
                skipped += 1
                continue
            client.upload_file(str(root / name), bucket, prefix + name)
            copied += 1
    except BuildError:
        raise
    except Exception as exc:  # botocore's errors: no stable base class to name here
        what = f"vault push to {url}"
        raise _failed(what, exc) from None
    return SyncResult(copied=copied, skipped=skipped)


def pull(root: Path, url: str, *, endpoint_url: str | None = None) -> SyncResult:
    """Download the files the local vault lacks (checked by sha256) and merge the manifests."""
    bucket, prefix = _split(url)
    client = _client(endpoint_url)
    root.mkdir(parents=True, exist_ok=True)
    copied = skipped = 0
    try:
        body = client.get_object(Bucket=bucket, Key=prefix + MANIFEST)["Body"].read()
        theirs = Manifest.from_bytes(body, f"{url.rstrip('/')}/{MANIFEST}")
        for sha, artifact in sorted(theirs.artifacts.items()):
            dest = root / artifact.path
            if dest.is_file():
                skipped += 1
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(f".{dest.name}.{os.urandom(6).hex()}.tmp")
            try:
                client.download_file(bucket, prefix + artifact.path, str(tmp))
                found = file_sha256(tmp)
                if found != sha:
                    msg = f"{url}: {artifact.path} has sha256 {found}, its manifest says {sha}"
                    raise BuildError(msg, hint="run `envgen vault check` where it was pushed from")
                tmp.replace(dest)
            finally:
                tmp.unlink(missing_ok=True)
            copied += 1
    except BuildError:
        raise
    except Exception as exc:  # botocore's errors, as above
        what = f"vault pull from {url}"
        raise _failed(what, exc) from None
    write_manifest(root, merged((load_manifest(root), theirs)))
    return SyncResult(copied=copied, skipped=skipped)
