"""`envgen pack`: a built, smoke-passing pip environment as one relocatable archive.

For an air-gapped machine: the archive carries its own interpreter, so nothing outside it is
needed but the C library. Layout inside `<project>-<variant>/`::

    manifest.json      variant, python, torch family, the lock files' sha256, envgen's version
    lock/              the variant's lock files (requirements.txt, ...)
    smoke/script.py    envgen's smoke checks (standard library + torch), smoke/expect.json
    smoke.sh           runs them with the packed interpreter: `./smoke.sh` (exit 0 = all passed)
    python/            the base interpreter (bin, its shared libpython, the standard library)
    env/               the environment's site-packages and scripts

Relocation is done at pack time, so unpacking needs no fix-up step (conda-pack's conda-unpack,
pixi-pack's unpack): the interpreter's RUNPATH (an absolute `<prefix>/lib` in pyenv-style builds)
is rewritten in place to `$ORIGIN/../lib`, padded with NULs to its old length; `env/` loses its
pyvenv.cfg (whose `home =` is an absolute path) and is put on the interpreter's path by a `.pth`
file of *relative* paths, which site.py joins with the site-packages folder; `env/bin/python` is a
relative link to `python/bin/`, and uv's relocatable scripts find it from their own location.
Bytecode (`__pycache__`) is not packed: the archive is the same whenever it is made, even while
the build's background bytecode job runs.

Must not build or change the environment it packs.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Final

from envgen import __version__
from envgen.build.builder import python_of
from envgen.build.orchestrate import (
    _marker_inventory,
    compiled_archs,
    env_path,
    read_marker,
    smoke_expectation,
)
from envgen.errors import BuildError
from envgen.infra.buildkey import load_key
from envgen.infra.resources import SMOKE_SCRIPT
from envgen.infra.settings import Settings
from envgen.lock.lockfile import expected_lock_names
from envgen.model.matrix import Matrix
from envgen.model.spec import ProjectSpec
from envgen.model.variants import expand, select
from envgen.smoke.report import run_smoke

PACK_FORMAT: Final = 1
_SMOKE_SH: Final = """\
#!/bin/sh
# Runs envgen's smoke checks with this archive's own interpreter (no network, no envgen).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/python/bin/{exe}" -I "$here/smoke/script.py" --expect "$(cat "$here/smoke/expect.json")"
"""


def _base_prefix(env: Path) -> tuple[Path, str]:
    """(the base interpreter's prefix, its executable name) from the env's pyvenv.cfg."""
    cfg = env / "pyvenv.cfg"
    home = None
    for line in cfg.read_text(encoding="utf-8").splitlines() if cfg.is_file() else []:
        key, _, value = line.partition("=")
        if key.strip() == "home":
            home = Path(value.strip())
    if home is None:
        msg = f"{env}: no pyvenv.cfg with `home =`; only uv virtual environments can be packed"
        raise BuildError(msg, hint="pack a pip variant (conda prefixes: use conda-pack)")
    exe = Path(os.path.realpath(python_of(env)))
    return home.parent, exe.name


def _relocated_binary(path: Path, prefix: Path) -> bytes:
    """The interpreter's bytes with an absolute `<prefix>/lib` RUNPATH made `$ORIGIN/../lib`."""
    data = path.read_bytes()
    old = str(prefix / "lib").encode() + b"\0"
    new = b"$ORIGIN/../lib"
    if old in data and len(new) < len(old):
        data = data.replace(old, new + b"\0" * (len(old) - len(new)))
    return data


def _stdlib_filter(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    parts = info.name.split("/")
    # The base interpreter's own site-packages and test suite are not the environment's.
    # <top>/python/lib/python3.X/<site-packages or test>/...
    if len(parts) > 4 and parts[4] in ("site-packages", "test") and parts[3].startswith("python"):
        return None
    return _normalized(info)


def _normalized(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    # Bytecode is left out: a build's background job may still be writing it (the archive would
    # depend on when pack ran), and the packed interpreter writes its own at first import.
    name = info.name.rsplit("/", 1)[-1]
    if name == "__pycache__" or name.endswith(".pyc") or ".pyc.envgen-" in name:
        return None
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    return info


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    tar.addfile(info, io.BytesIO(data))


def _add_link(tar: tarfile.TarFile, name: str, target: str) -> None:
    info = tarfile.TarInfo(name)
    info.type = tarfile.SYMTYPE
    info.linkname = target
    tar.addfile(info)


def pack_variant(
    spec: ProjectSpec,
    matrix: Matrix,
    out: Path,
    *,
    variant: str,
    env_dir: Path | None,
    output: Path,
    settings: Settings,
) -> Path:
    """Smoke-test a built pip environment, then write it as one relocatable .tar.gz at `output`.

    Raises:
        BuildError: the variant is not built, not a uv venv, or its smoke test fails.
    """
    chosen = [v for v in select(expand(spec, matrix).variants, (variant,)) if v.id == variant]
    if not chosen:
        msg = f"{variant!r} is not one variant of {spec.path.name}"
        raise BuildError(msg, hint="name one variant id as `envgen list` prints it")
    v = chosen[0]
    env = env_path(out, v.id, env_dir)
    # Only an environment this machine built (its marker sealed with the user's build key).
    marker = read_marker(env, load_key(settings.key_file))
    if marker is None or marker.get("manager") != "pip":
        msg = f"{v.id}: {env} is not a built pip environment"
        raise BuildError(msg, hint=f"run `envgen build {spec.path.name} --variant {v.id}` first")
    archs = compiled_archs(matrix, v)
    expect = smoke_expectation(v, _marker_inventory(marker), archs)
    report = run_smoke(python_of(env), expect)
    if not report.ok:
        names = ", ".join(c.label for c in report.failed)
        msg = f"{v.id}: the smoke test fails ({names}); only a passing environment is packed"
        raise BuildError(msg)
    prefix, exe = _base_prefix(env)
    top = f"{spec.name}-{v.id}"
    lock_dir = out / v.id
    locks = {
        name: (lock_dir / name).read_bytes()
        for name in expected_lock_names(v)
        if (lock_dir / name).is_file()
    }
    pyver = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = sorted((env / "lib").glob("python*/site-packages"))
    if site:
        pyver = site[0].parent.name
    manifest = {
        "format": PACK_FORMAT,
        "project": spec.name,
        "variant": v.id,
        "python": v.python,
        "platform": v.platform,
        "distributions": dict(sorted(_marker_inventory(marker).pip.items())),
        "lock-files": {n: hashlib.sha256(b).hexdigest() for n, b in sorted(locks.items())},
        "envgen": __version__,
        "run": f"{top}/python/bin/{exe}",
        "smoke": f"{top}/smoke.sh",
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{output.name}.", dir=output.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        with tarfile.open(tmp, "w:gz", compresslevel=1) as tar:
            _add_bytes(
                tar, f"{top}/manifest.json", (json.dumps(manifest, indent=1) + "\n").encode()
            )
            for name, data in sorted(locks.items()):
                _add_bytes(tar, f"{top}/lock/{name}", data)
            _add_bytes(tar, f"{top}/smoke/script.py", SMOKE_SCRIPT.read_bytes())
            _add_bytes(tar, f"{top}/smoke/expect.json", expect.to_json().encode())
            _add_bytes(tar, f"{top}/smoke.sh", _SMOKE_SH.format(exe=exe).encode(), 0o755)
            # The base interpreter: its binary relocated, its libraries and standard library.
            binary = prefix / "bin" / exe
            _add_bytes(tar, f"{top}/python/bin/{exe}", _relocated_binary(binary, prefix), 0o755)
            for alias in ("python3", "python"):
                _add_link(tar, f"{top}/python/bin/{alias}", exe)
            for lib in sorted((prefix / "lib").iterdir()):
                tar.add(lib, arcname=f"{top}/python/lib/{lib.name}", filter=_stdlib_filter)
            # The environment on the interpreter's path through a relative .pth.
            rel = f"../../../../env/lib/{pyver}/site-packages"
            _add_bytes(
                tar, f"{top}/python/lib/{pyver}/site-packages/envgen-env.pth", f"{rel}\n".encode()
            )
            for item in sorted(env.iterdir()):
                if item.name in ("pyvenv.cfg", "bin"):
                    continue
                tar.add(item, arcname=f"{top}/env/{item.name}", filter=_normalized)
            for item in sorted((env / "bin").iterdir()):
                arc = f"{top}/env/bin/{item.name}"
                if item.name.startswith("python"):
                    _add_link(tar, arc, f"../../python/bin/{exe}")
                else:
                    tar.add(item, arcname=arc, filter=_normalized)
        tmp.chmod(0o644)
        tmp.replace(output)
    finally:
        tmp.unlink(missing_ok=True)
    return output


def unpack(archive: Path, dest: Path) -> Path:
    """Extract a pack into `dest` (for tests and scripts: `tar xzf` does the same)."""
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "r:gz") as tar:
        tar.extractall(dest, filter="tar")
        top = tar.getnames()[0].split("/", 1)[0]
    return dest / top


__all__ = ["pack_variant", "unpack"]
