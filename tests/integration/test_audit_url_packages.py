"""scripts/audit_matrix.py's url-packages family against a real git repository: a row whose
`requires` is what the repository's requirements file says at the row's commit is right, another
is wrong, and no mirror leaves it unverifiable."""

from __future__ import annotations

import shutil
import subprocess  # noqa: TID251 - the test builds a real git repository
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import audit_matrix  # noqa: E402

SRC = audit_matrix.Sources(offline=True, mirrors=Path("/nonexistent"))


def _mirror(tmp_path: Path, requirements: str) -> tuple[Path, str]:
    """A one-commit repository at <mirrors>/o+r/repo holding requirements.txt."""
    git = shutil.which("git")
    assert git is not None
    work = tmp_path / "work"
    work.mkdir()
    (work / "requirements.txt").write_text(requirements)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}  # fmt: skip
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "x"]):
        subprocess.run([git, *args], cwd=work, env=env, check=True)
    commit = subprocess.run(
        [git, "rev-parse", "HEAD"], cwd=work, env=env, check=True, capture_output=True, text=True
    ).stdout.strip()
    mirrors = tmp_path / "mirrors"
    (mirrors / "o+r").mkdir(parents=True)
    (work / ".git").rename(mirrors / "o+r" / "repo")
    return mirrors, commit


def test_a_url_package_row_is_read_again_from_its_mirror(tmp_path: Path) -> None:
    mirrors, commit = _mirror(tmp_path, "ftfy\ntorch~=1.7.1\ntorchvision~=0.8.2\n")
    src = audit_matrix.Sources(offline=True, mirrors=mirrors)
    row = {"url": "github.com/o/r", "from": "2021-01-30", "source": f"o/r@{commit}:requirements.txt",
           "requires": ["torch~=1.7.1", "torchvision~=0.8.2"]}  # fmt: skip
    assert [c.verdict for c in audit_matrix.check_url_packages([row], src)] == ["right"]
    moved = {**row, "requires": ["torch", "torchvision"]}
    assert [c.verdict for c in audit_matrix.check_url_packages([moved], src)] == ["wrong"]
    assert [c.verdict for c in audit_matrix.check_url_packages([row], SRC)] == ["unverifiable"]
