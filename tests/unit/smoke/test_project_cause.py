"""The project tier's likely cause where the import error hides a missing system library (the
papers suite: SoundFile 0.10's "sndfile library not found", faiss 1.5.3's SWIG loader)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envgen.smoke.project_script import cause, import_names


def test_a_library_looked_up_by_name_is_a_missing_system_library() -> None:
    text = "OSError: sndfile library not found"
    assert cause(text, ["soundfile"]) == (
        "a missing system library: the sndfile library is not on this machine (the import looks "
        "it up by name; install the system package that provides libsndfile)"
    )


def _dist(site: Path, so_bytes: bytes) -> Path:
    info = site / "faiss-1.5.3.dist-info"
    (site / "faiss").mkdir(parents=True)
    (site / "faiss" / "_swigfaiss.so").write_bytes(so_bytes)
    info.mkdir()
    (info / "RECORD").write_text(
        "faiss/__init__.py,sha256=x,1\nfaiss/_swigfaiss.so,sha256=y,2\n"
        "faiss-1.5.3.dist-info/RECORD,,\n",
        encoding="utf-8",
    )
    return info


def test_the_distributions_own_module_that_does_not_load_is_named_with_the_loaders_words(
    tmp_path: Path,
) -> None:
    """SWIG's fallback says "No module named '_swigfaiss'" although the distribution installed
    faiss/_swigfaiss.so: the real reason is the dynamic loader's (here a file that is no ELF
    object, loaded for real through ctypes)."""
    info = _dist(tmp_path, b"not an ELF object")
    found = cause("ModuleNotFoundError: No module named '_swigfaiss'", ["faiss"], str(info))
    assert found.startswith("the distribution's own faiss/_swigfaiss.so does not load: ")
    assert "_swigfaiss.so" in found.split("does not load: ", 1)[1]


def test_a_module_the_distribution_does_not_install_is_still_a_missing_dependency(
    tmp_path: Path,
) -> None:
    info = _dist(tmp_path, b"")
    assert cause("ModuleNotFoundError: No module named 'swigfaiss2'", ["faiss"], str(info)) == (
        "a missing dependency: swigfaiss2 is not installed (undeclared by the distribution, or "
        "left out of the lock)"
    )


def _dist_info(root: Path, top_level: str | None, record: list[str] | None) -> str:
    folder = root / "pkg-1.0.dist-info"
    folder.mkdir()
    if top_level is not None:
        (folder / "top_level.txt").write_text(top_level, encoding="utf-8")
    if record is not None:
        lines = [*record, "pkg-1.0.dist-info/RECORD,,"]
        (folder / "RECORD").write_text("".join(f"{r},,\n" for r in lines), encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize(
    ("top_level", "record", "expected"),
    [
        # google-auth 2.22.0: top_level.txt names its build's folders, which the wheel lacks
        ("google\nscripts\ntesting\n", ["google/auth/__init__.py", "google/oauth2/id_token.py"],
         ["google"]),
        ("yaml\n_yaml\n", ["yaml/__init__.py", "_yaml/__init__.py"], ["yaml"]),
        ("six\n", ["six.py"], ["six"]),
        ("_cffi_backend\ncffi\n", ["_cffi_backend.cpython-310-x86_64-linux-gnu.so",
                                   "cffi/__init__.py"], ["cffi"]),
        ("old\n", None, ["old"]),  # no RECORD (an egg-info install): top_level.txt as it is
        (None, ["tqdm/__init__.py", "tqdm-4.0.data/scripts/x"], ["tqdm"]),  # no top_level.txt
    ],
)  # fmt: skip
def test_import_names_are_what_the_distribution_installs(
    tmp_path: Path, top_level: str | None, record: list[str] | None, expected: list[str]
) -> None:
    assert import_names(_dist_info(tmp_path, top_level, record)) == expected
