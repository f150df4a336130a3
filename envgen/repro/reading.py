"""Bounded reading of a cloned repository's files for `envgen import`.

Everything `envgen import` reads comes from a repository the user just cloned, so every read is
bounded: only regular files (a FIFO would hang, /dev/zero never ends), at most
`MAX_SOURCE_BYTES` each, opened without waiting (O_NONBLOCK) and checked on the open descriptor.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path
from typing import Final

MAX_SOURCE_BYTES: Final = 1024 * 1024  # one environment file; real ones are a few KiB
MAX_INCLUDE_DEPTH: Final = 16  # -r chains; pip has none, real repositories use 1-3
MAX_EXPANDED_CHARS: Final = 16 * 1024  # a Dockerfile line after ARG/ENV substitution
MAX_EXPANDED_TOTAL: Final = 512 * 1024  # all of one file's lines after substitution
MAX_PIP_LINE: Final = 64 * 1024  # one logical requirements line (a pin with ~800 hashes)
MAX_PACKAGES: Final = 1000  # pip or conda packages one import keeps (conda exports: ~300)
MAX_WARNINGS: Final = 200  # warning lines one import prints
MAX_EXCERPT: Final = 80  # characters of untrusted text quoted in a message


class UnreadableSource(Exception):  # noqa: N818 - a reason, raised and caught inside envgen
    """Why a file was not read: the message names the file and the reason, never its content."""


def excerpt(text: str, limit: int = MAX_EXCERPT) -> str:
    """At most `limit` characters of untrusted text, for messages.

    >>> excerpt("a" * 100, 10)
    'aaaaaaa...'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_source(path: Path, *, shown: str | None = None) -> str:
    """The text of one regular file of at most MAX_SOURCE_BYTES bytes.

    Raises:
        UnreadableSource: no such file, not a regular file, too big, not text in UTF-8 (or the
            UTF-8/16/32 of its byte-order mark), or an OS error.
    """
    name = shown or str(path)
    try:
        # the resolved path: the file `inside` judged (see `exists`)
        fd = os.open(path.resolve(), os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except RuntimeError:
        msg = f"{name}: a symlink loop"
        raise UnreadableSource(msg) from None
    except FileNotFoundError:
        msg = f"{name}: no such file"
        raise UnreadableSource(msg) from None
    except IsADirectoryError:
        msg = f"{name}: is a directory"
        raise UnreadableSource(msg) from None
    except OSError as exc:
        msg = f"{name}: cannot be read: {exc.strerror}"
        raise UnreadableSource(msg) from None
    try:
        data = _read_bounded(fd, name)
    finally:
        os.close(fd)
    encoding, skip = "utf-8", 0
    for bom, named in _BOMS:
        if data.startswith(bom):
            encoding, skip = named, len(bom)
            break
    try:
        return data[skip:].decode(encoding)
    except UnicodeDecodeError as exc:
        msg = f"{name}: not {encoding.upper()} text (byte {skip + exc.start})"
        raise UnreadableSource(msg) from None


# pip reads a requirements file by its byte-order mark first (pypa/pip
# src/pip/_internal/utils/encoding.py auto_decode: UTF-8, UTF-16 and UTF-32 BOMs), so a file saved
# by Windows tools (`pip freeze > requirements.txt` in PowerShell writes UTF-16 LE with a BOM) is
# read as pip reads it. UTF-32 goes before UTF-16: the UTF-32 LE mark starts with the UTF-16 LE one.
_BOMS: Final = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


def _read_bounded(fd: int, name: str) -> bytes:
    too_big = f"an environment file may be at most {MAX_SOURCE_BYTES} bytes"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            msg = f"{name}: {_kind(info.st_mode)}, not a regular file"
            raise UnreadableSource(msg)
        if info.st_size > MAX_SOURCE_BYTES:
            msg = f"{name}: {info.st_size} bytes; {too_big}"
            raise UnreadableSource(msg)
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_SOURCE_BYTES:  # bounded even if the file grows while read
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        msg = f"{name}: cannot be read: {exc.strerror}"
        raise UnreadableSource(msg) from None
    if total > MAX_SOURCE_BYTES:
        msg = f"{name}: more than {MAX_SOURCE_BYTES} bytes; {too_big}"
        raise UnreadableSource(msg)
    return b"".join(chunks)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def exists(path: Path) -> bool:
    """`path.exists()`, False where the name itself is unusable (too long, a NUL): an untrusted
    name is a file that is not there, never an error. The path is resolved first, as `inside`
    resolves it: the answer is about the file that check judged, so `l/../proj/x` through a
    symlink `l` to a folder outside the checkout says nothing of whether that folder exists."""
    try:
        return path.resolve().exists()
    except (OSError, ValueError, RuntimeError):
        return False


def is_file(path: Path) -> bool:
    """`path.is_file()`, False where the name itself is unusable (see `exists`)."""
    try:
        return path.resolve().is_file()
    except (OSError, ValueError, RuntimeError):
        return False


def is_dir(path: Path) -> bool:
    """`path.is_dir()`, False where the name itself is unusable (see `exists`)."""
    try:
        return path.resolve().is_dir()
    except (OSError, ValueError, RuntimeError):
        return False


def inside(path: Path, root: Path) -> bool:
    """`path`, with every symlink resolved, lies inside `root` (also resolved)."""
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def checkout_root(folder: Path, named: Path | None = None) -> bool:
    """`folder` is a repository checkout's root, so an import may widen what it reads to it (a
    helper folder's script run from the root above it, a CI file's workspace): it holds a `.git`
    (a folder, or the file of a worktree or submodule), or it is the checkout the caller names
    (`named`: a copy kept without its .git). Never the user's home (a repository cloned as
    ~/scripts, or a dotfiles ~/.git, would open ~/.netrc) nor a filesystem root.
    """
    try:
        here = folder.resolve()
        if here == here.parent or here == Path.home().resolve():
            return False
        if named is not None and here == named.resolve():
            return True
        return (here / ".git").exists()
    except (OSError, RuntimeError):
        return False


def root_above(folder: Path, named: Path | None = None) -> Path | None:
    """The checkout root just above `folder` that a file in `folder` may be run or built from
    (a helper folder's script, a Dockerfile in `docker/`, a definition file in `singularity/`):
    the parent, where it is a checkout root and `folder` is not one itself (a clone's own root
    never widens to whatever holds it, a parent repository included). None otherwise."""
    if checkout_root(folder, named) or not checkout_root(folder.parent, named):
        return None
    return folder.parent


def root_holding(folder: Path, named: Path | None = None, levels: int = 4) -> Path | None:
    """The nearest checkout root at most `levels` folders above `folder` that a file in `folder`
    may be built from (`docker/gpu/Dockerfile` built with `-f` from the root); None where
    `folder` is a checkout root itself, none lies that near, or a folder on the way up is a
    project's own root (a README, LICENSE, setup.py or pyproject.toml: a copy without its .git
    inside another work tree is not widened to that tree)."""
    try:
        folder = folder.resolve()  # `envgen import Dockerfile` from inside docker/
    except (OSError, RuntimeError):
        return None
    if checkout_root(folder, named):
        return None
    here = folder
    for _ in range(levels):
        if here.parent == here:
            return None
        here = here.parent
        if checkout_root(here, named):
            return here
        if named is None and any(exists(here / n) for n in _PROJECT_ROOT_FILES):
            # a project's own root with no .git (a downloaded archive unpacked inside another
            # work tree): its build never reaches past it
            return None
    return None


# Files that mark a project's root (a folder `--checkout` may name instead).
_PROJECT_ROOT_FILES: Final = ("README.md", "README.rst", "README", "LICENSE", "setup.py",
                              "pyproject.toml")  # fmt: skip


def built_from_root(sources: list[str], folder: Path, named: Path | None = None) -> Path | None:
    """The folder between `folder` and the checkout root above it (root_holding) that a
    Dockerfile or definition file in `folder` is built from: the nearest that holds all the
    files it copies in (`sources`, relative to the build folder), where `folder` holds none
    (`docker/Dockerfile` with `COPY requirements/requirements.txt /tmp/`: `docker build -f
    docker/Dockerfile .`). None where the file's own folder may be the context, or no checkout
    root lies above it."""
    relative = [
        s
        for s in sources
        if s.strip("./")  # `COPY . /app` copies whichever folder is the context: no tell
        and not s.startswith(("/", "-"))
        and not _VARIABLE.search(s)
    ]
    if (
        not relative
        or any(".." in Path(s).parts for s in relative)
        or (root := root_holding(folder, named)) is None
        or any(exists(folder / s) for s in relative)
    ):
        return None
    here = folder.resolve()
    while here != root.resolve():  # the nearest folder up to the root that holds them all
        here = here.parent
        if all(exists(here / s) for s in relative):
            return here
    return None


_VARIABLE: Final = re.compile(r"\$|\{\{|[*?\[]|://")


# Files an install may not include (`pip install -r .netrc`): a dotfile (.netrc, .pypirc,
# .git-credentials, .npmrc, .env) or a tool's configuration holds credentials, never packages,
# and a requirements line it does not parse is quoted back in a warning.
_CREDENTIAL_FILES: Final = frozenset({"pip.conf", "pip.ini", "_netrc", "credentials"})


def credential_file(path: Path) -> bool:
    """`path` names a dotfile or a credentials file, which an include never reads.

    >>> credential_file(Path("~/.netrc")), credential_file(Path("requirements.txt"))
    (True, False)
    """
    name = path.name.lower()
    return name.startswith(".") or name in _CREDENTIAL_FILES
