"""A committed project.yaml cannot make a resolver write an environment variable into the lock.

pip, pip-compile and uv replace `${NAME}` in a requirements file with the value of the variable
NAME. The spec's `pip:` strings become requirements.in, so `lock: {resolver: pip-tools}` with
`pip: ["numpy; platform_machine != '${SLACK_WEBHOOK_URL}'"]` made `envgen lock` write the
variable's value into requirements.txt and pylock.toml (files CI commits or uploads), and
`check` print it in a diff. Credential-named variables were caught by the redactor's last
check; any other (a webhook URL, a JWT, HOME) was written. Through the real CLI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from tests.integration.test_hostile_lock import MINI, ROOT, envgen
from tests.support.fixtures import ServedIndex, clean_tool_env

pytestmark = pytest.mark.integration

VALUE: Final = "https://hooks.example/services/T0/B0/WEBHOOK-CANARY-5150"
SPEC: Final = (
    'name: leak\npython: "3.11"\ntorch: "2.1.0"\naccelerators: [cpu]\nmanagers: [pip]\n'
    "lock: {resolver: pip-tools}\n"
    "pip: [\"numpy; platform_machine != '${SLACK_WEBHOOK_URL}'\"]\n"
)


def test_a_spec_cannot_expand_a_variable_into_the_lock(
    tmp_path: Path, pytorch_index: ServedIndex
) -> None:
    env = clean_tool_env(tmp_path)
    env.update(
        ENVGEN_CACHE_DIR=str(tmp_path / "cache"),
        ENVGEN_MATRIX=str(MINI),
        ENVGEN_PYTORCH_INDEX=pytorch_index.root_url,
        ENVGEN_PYPI_INDEX=pytorch_index.pypi_url,
        PYTHONPATH=str(ROOT),
        SLACK_WEBHOOK_URL=VALUE,
    )
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "project.yaml").write_text(SPEC)
    code, out = envgen(["lock", "project.yaml"], env, proj)
    assert (code, out) == (
        3,
        "error: project.yaml:7: pip[0]: \"numpy; platform_machine != '${SLACK_WEBHOOK_URL}'\" "
        "holds `${` at character 29; pip and uv replace ${NAME} in a requirements file with an "
        "environment variable's value, which would be written into the lock; write the value "
        "itself\n",
    )
    written = [p for p in proj.rglob("*") if p.is_file() and VALUE in p.read_text()]
    assert written == []
