"""project.yaml text from the resolved data: fixed key order, every string quoted, and the
comments that keep what the spec cannot hold (a python patch version, a conda build string, a
real old release). Pure: no matrix, no files.
"""

from __future__ import annotations

import json
import re
from typing import Final

from envgen.errors import EnvgenError
from envgen.repro import eras
from envgen.repro.importer.evidence import Evidence
from envgen.repro.reading import excerpt

_NAME_OK: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def kept_comments(found: Evidence, project: dict[str, object]) -> dict[str, str]:
    """The comments that still describe what project.yaml says (not a departed value)."""
    out = dict(found.comments)
    python = project.get("python")
    asked = out.pop("python-asked", None)
    if "python" in out and not (isinstance(python, str) and python == found.python):
        del out["python"]
    if asked is not None and python != found.python:
        out["python"] = asked  # an old python project.yaml cannot hold: said beside the key
    torch = project.get("torch")
    if "torch" in out and not (found.torch and found.torch.version == torch):
        del out["torch"]
    pinned = found.torch.version if found.torch else None
    if (
        pinned is not None
        and torch != pinned
        and (pinned in eras.POST_RELEASES or eras.pre_matrix_release(pinned) is not None)
    ):
        # A real release or post-release project.yaml cannot pin: said beside the key.
        out["torch"] = (
            f"the file pins torch {pinned} ({excerpt(found.torch.where if found.torch else '')})"
        )
    return out


def safe_name(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-._")[:64]
    return cleaned if _NAME_OK.match(cleaned) else "imported"


_KEY_ORDER: Final = (
    "name",
    "python",
    "torch",
    "torchvision",
    "torchaudio",
    "accelerators",
    "managers",
    "torch_from",
    "pip",
    "conda",
    "lock",
)


def render_project(
    project: dict[str, object], *, source: str, comments: dict[str, str] | None = None
) -> str:
    """project.yaml text: fixed key order, every string quoted (YAML reads 3.10 as 3.1).

    `comments` puts a `# text` after a scalar key's line (what the spec cannot hold: a python
    patch version, a conda build string).
    """
    notes = comments or {}
    lines = [f"# Imported by `envgen import` from {source}; review it, then run `envgen lock`."]
    for key in _KEY_ORDER:
        if key not in project:
            continue
        value = project[key]
        if isinstance(value, dict):
            lines.append(f"{key}:")
            for sub, item in value.items():
                lines.append(f"  {sub}:{_yaml_value(item, indent=4)}")
        else:
            line = f"{key}:{_yaml_value(value, indent=2)}"
            note = notes.get(key)
            if note and "\n" not in line:
                line += "  # " + note.replace("\n", " ").replace("\r", " ")
            lines.append(line)
    return "\n".join(lines) + "\n"


def _yaml_value(value: object, *, indent: int) -> str:
    if isinstance(value, bool):
        return " true" if value else " false"
    if isinstance(value, str):
        return " " + json.dumps(value)
    if isinstance(value, list):
        if not value:
            return " []"
        pad = " " * indent
        return "".join(f"\n{pad}- {json.dumps(str(v))}" for v in value)
    msg = f"cannot write {value!r} into project.yaml"
    raise EnvgenError(msg)
