"""The project tier's likely cause where the import error hides a missing system library (the
papers suite: SoundFile 0.10's "sndfile library not found", faiss 1.5.3's SWIG loader)."""

from __future__ import annotations

from pathlib import Path

from envgen.smoke.project_script import cause


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
