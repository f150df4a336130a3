"""The project tier's check, run by a built environment's own python (3.6 and later).

Usage: python -I project_script.py DISTRIBUTION

Finds the installed distribution named DISTRIBUTION on sys.path (its *.dist-info or *.egg-info
folder; importlib.metadata is not there before 3.8), reads its import names (top_level.txt, else
the top-level modules its RECORD lists), imports each and prints one JSON object on stdout:
{"dist", "version", "modules", "status" ("pass", "fail", "absent"), "detail", "cause",
"seconds"}. A failed import names its likely cause: a missing system library, a too-new (or
too-old) dependency, a dependency that is not installed. One distribution per process, so a crash
or a half-imported module cannot spoil the next check (envgen.smoke.project runs it).

Standard library only; nothing of envgen; no annotations python 3.6 cannot evaluate.
"""

import io
import json
import os
import re
import sys
import time
import traceback

# Run with -E -s in a Python 2.7 environment (no -I there): this folder (envgen/smoke) is then
# first on sys.path; take it off so nothing of envgen shadows the environment's modules.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]

_NORMALIZE = re.compile(r"[-_.]+")
_SKIP_TOP = ("__pycache__", "..", "bin", "include", "share", "lib", "etc", "man")
_SO_MISSING = re.compile(r"(lib[\w.+-]*?\.so[\w.]*): cannot open shared object file")
_GLIBC = re.compile(r"(GLIBC(?:XX)?_[\d.]+)' not found")
_NO_MODULE = re.compile(r"No module named '?([\w.]+)'?")  # 2.7 writes no quotes
_NO_NAME = re.compile(r"cannot import name '(\w+)' from '([\w.]+)'")
# a library found by name at import (ctypes.util.find_library): SoundFile 0.10's
# "OSError: sndfile library not found"
_LIB_NOT_FOUND = re.compile(r"OSError: (\w+) library not found")
_NO_NAME_OLD = re.compile(r"cannot import name '?(\w+)'?$")
_NO_ATTR = re.compile(r"module '([\w.]+)' has no attribute '(\w+)'")
_NUMPY_ABI = re.compile(
    r"numpy\.core\.multiarray failed to import|compiled against (?:API|ABI) version|"
    r"numpy\.dtype size changed|_ARRAY_API not found|compiled using NumPy 1\.x"
)


_ASCII_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _identifier(name):  # type: (str) -> bool
    """str.isidentifier(), which Python 2.7's strings lack (there: ASCII identifiers)."""
    test = getattr(name, "isidentifier", None)
    return bool(test()) if test is not None else bool(_ASCII_IDENTIFIER.match(name))


def normalize(name):  # type: (str) -> str
    return _NORMALIZE.sub("-", name).lower()


def _metadata_dirs():  # type: () -> list[str]
    found = []
    for entry in sys.path:
        if not entry or not os.path.isdir(entry):
            continue
        try:
            names = sorted(os.listdir(entry))
        except OSError:
            continue
        found += [os.path.join(entry, n) for n in names if n.endswith((".dist-info", ".egg-info"))]
    return found


def _dir_name_version(path):  # type: (str) -> tuple[str, str]
    stem = os.path.basename(path).rsplit(".", 1)[0]
    name, _, rest = stem.partition("-")
    version = rest.split("-py")[0] if rest else ""
    if os.path.isdir(path):
        meta = os.path.join(path, "METADATA" if path.endswith(".dist-info") else "PKG-INFO")
        for line in _read_lines(meta)[:40]:
            if line.startswith("Name: "):
                name = line[6:].strip()
            elif line.startswith("Version: "):
                version = line[9:].strip()
    return name, version


def _read_lines(path):  # type: (str) -> list[str]
    try:
        with io.open(path, encoding="utf-8", errors="replace") as handle:  # io: Python 2.7 too
            return handle.read(1 << 20).splitlines()
    except (IOError, OSError):  # on Python 2.7 IOError is no OSError
        return []


def find(dist):  # type: (str) -> tuple[str, str]
    """(metadata folder, version) of the installed distribution `dist`, or ("", "")."""
    wanted = normalize(dist)
    for path in _metadata_dirs():
        name, version = _dir_name_version(path)
        if normalize(name) == wanted:
            return path, version
    return "", ""


def import_names(path):  # type: (str) -> list[str]
    """The top-level import names of a distribution: top_level.txt, else RECORD's top entries.

    A top_level.txt name that RECORD installs no module for is left out: google-auth 2.22.0's
    lists `scripts` and `testing`, its build's folders, which its wheel does not ship."""
    listed = [n.strip() for n in _read_lines(os.path.join(path, "top_level.txt")) if n.strip()]
    recorded = _record_names(path)
    names = [n for n in listed if n in recorded] if recorded else listed
    if not names:
        names = sorted(recorded)
    names = sorted({n for n in names if _identifier(n)})
    public = [n for n in names if not n.startswith("_")]
    return public or names


def _record_names(path):  # type: (str) -> set[str]
    """The top-level modules and packages the distribution's RECORD installs."""
    names = set()
    for line in _read_lines(os.path.join(path, "RECORD")):
        first = line.split(",", 1)[0].replace("\\", "/")
        top = first.split("/", 1)[0]
        if "/" in first:
            if top.endswith((".dist-info", ".data", ".egg-info")) or top in _SKIP_TOP:
                continue
            if first.endswith((".py", ".pyd")) or ".so" in first:
                names.add(top)
        elif top.endswith(".py"):
            names.add(top[:-3])
        elif ".so" in top or top.endswith(".pyd"):
            names.add(top.split(".", 1)[0])
    return names


def version_of(module):  # type: (str) -> str
    """The version of the distribution that provides `module` (its top-level name), or ""."""
    top = module.split(".")[0]
    for path in _metadata_dirs():
        if top in import_names(path) or normalize(_dir_name_version(path)[0]) == normalize(top):
            return str(_dir_name_version(path)[1])
    return ""


def own_extension(name, path):  # type: (str, str) -> str
    """The installed file of the distribution's own compiled module `name` (its RECORD names
    `pkg/name.so` or `name.cpython-37m-x86_64-linux-gnu.so`), or ""."""
    if not path:
        return ""
    for line in _read_lines(os.path.join(path, "RECORD")):
        first = line.split(",", 1)[0].replace("\\", "/")
        base = first.rsplit("/", 1)[-1]
        if base.split(".", 1)[0] == name and ".so" in base:
            return first
    return ""


def _load_error(path):  # type: (str) -> str
    """Why the shared object at `path` does not load (ctypes: the dynamic loader's words), or ""."""
    import ctypes  # noqa: PLC0415 - only for a failed import

    try:
        ctypes.CDLL(path)
    except OSError as exc:
        return str(exc)
    return ""


def _hidden_library_cause(text, path):  # type: (str, str) -> str
    """A missing system library behind an import error that does not name it: a library looked
    up by name, or the distribution's own compiled module that did not load; "" for neither."""
    hit = _LIB_NOT_FOUND.search(text)
    if hit:
        return (
            "a missing system library: the " + hit.group(1) + " library is not on this machine "
            "(the import looks it up by name; install the system package that provides lib"
            + hit.group(1)
            + ")"
        )
    hit = _NO_MODULE.search(text)
    own = own_extension(hit.group(1), path) if hit and "." not in hit.group(1) else ""
    if own:
        # SWIG's loader (faiss 1.5.3: `import _swigfaiss` after the package-relative import
        # failed) hides why the installed module did not load: ask the dynamic loader.
        err = _load_error(os.path.join(os.path.dirname(path), own))
        found = _SO_MISSING.search(err)
        if found:
            return (
                "a missing system library: " + found.group(1) + " is not on this machine "
                "(needed by the distribution's own " + own + "; install the system package "
                "that provides it)"
            )
        if err:
            return "the distribution's own " + own + " does not load: " + err[:300]
    return ""


def cause(text, modules, path=""):  # type: (str, list[str], str) -> str
    """The likely cause of a failed import, from its message (and, for a compiled module the
    distribution itself installs, from loading it: `path` is its .dist-info folder)."""
    found = _hidden_library_cause(text, path)
    if found:
        return found
    hit = _SO_MISSING.search(text)
    if hit:
        return (
            "a missing system library: " + hit.group(1) + " is not on this machine "
            "(install the system package that provides it)"
        )
    hit = _GLIBC.search(text)
    if hit:
        return "the system's C library is too old: " + hit.group(1) + " is not found"
    if _NUMPY_ABI.search(text):
        return (
            "a too-new dependency: numpy " + (version_of("numpy") or "?") + " does not match "
            "the numpy ABI this distribution was compiled against (pin an older numpy)"
        )
    hit = _NO_NAME.search(text) or _NO_ATTR.search(text)
    if hit:
        name, module = (
            (hit.group(1), hit.group(2)) if "cannot" in hit.group(0) else hit.groups()[::-1]
        )
        if module.split(".")[0] not in modules:
            return (
                "a too-new (or too-old) dependency: "
                + module
                + " "
                + (version_of(module) or "?")
                + " has no '"
                + name
                + "'"
            )
    hit = _NO_MODULE.search(text)
    if hit and "." in hit.group(1) and hit.group(1).split(".")[0] not in modules:
        top = hit.group(1).split(".")[0]
        installed = version_of(top)
        if installed:
            return (
                "a too-new (or too-old) dependency: "
                + top
                + " "
                + installed
                + " has no module "
                + hit.group(1)
            )
    if hit and hit.group(1).split(".")[0] not in modules:
        return (
            "a missing dependency: " + hit.group(1) + " is not installed "
            "(undeclared by the distribution, or left out of the lock)"
        )
    return "the import raised an error"


def check(dist):  # type: (str) -> dict[str, object]
    start = time.time()
    out = {"dist": dist, "version": "", "modules": [], "status": "pass", "detail": "",
           "cause": "", "seconds": 0.0}  # fmt: skip
    path, version = find(dist)
    if not path:
        out.update(status="absent", detail="no installed distribution named " + dist)
        return out
    modules = import_names(path)
    # A distribution's own package where it has one (pytorch-lightning: pytorch_lightning, not
    # the pl_examples it also installs, whose import downloads MNIST); else every top-level name.
    own = [m for m in modules if normalize(m) == normalize(dist)]
    modules = own or modules
    out.update(version=version, modules=modules)
    if not modules:
        out.update(detail="installs no importable module")
    for module in modules:
        try:
            __import__(module)
        except BaseException as exc:  # any failure of the import is the answer
            text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            out.update(
                status="fail",
                detail="import " + module + ": " + text.splitlines()[-1][:600],
                cause=cause(text, modules, path),
            )
            break
    out["seconds"] = round(time.time() - start, 3)
    return out


def main(argv):  # type: (list[str]) -> int
    if len(argv) != 2:
        sys.stderr.write("usage: project_script.py DISTRIBUTION\n")
        return 2
    result = check(argv[1])
    sys.stdout.flush()
    sys.stdout.write("\n" + json.dumps(result, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
