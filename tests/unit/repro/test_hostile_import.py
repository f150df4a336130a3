"""`envgen import` on a hostile repository: every read bounded, every message short, no hang.

Each case runs the real CLI (envgen.cli.main through click's runner) under a wall-clock alarm
and checks how much the process's peak RSS grew: a FIFO that would block, /dev/zero, a 400-deep
-r chain and a Dockerfile of nested ENV expansions must all end in well under a second with a
clear message (issue 16 item 6).
"""

from __future__ import annotations

import os
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from envgen.cli import main
from envgen.repro.reading import (
    MAX_EXPANDED_CHARS,
    MAX_EXPANDED_TOTAL,
    MAX_INCLUDE_DEPTH,
    MAX_PACKAGES,
    MAX_PIP_LINE,
    MAX_SOURCE_BYTES,
)
from tests.support.bounds import bounded


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args: tuple[str, ...]) -> None:
    main(list(args))


def run(args: list[str], cwd: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    with bounded():
        result = CliRunner().invoke(_entry, args, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_fifo_is_refused_without_waiting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    os.mkfifo(tmp_path / "requirements.txt")
    code, out, err = run(["import", "requirements.txt"], tmp_path, monkeypatch)
    assert (code, out) == (11, "")
    assert err == "error: requirements.txt: a FIFO, not a regular file\n"


def test_dev_zero_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(["import", "/dev/zero"], tmp_path, monkeypatch)
    assert code == 11
    assert err == "error: /dev/zero: a character device, not a regular file\n"


def test_symlink_to_dev_zero_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "environment.yml").symlink_to("/dev/zero")
    code, _, err = run(["import", "environment.yml"], tmp_path, monkeypatch)
    assert code == 11
    assert err == "error: environment.yml: a character device, not a regular file\n"


def test_dash_r_dev_zero_and_fifo_are_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "requirements.txt").write_text(
        "-r /dev/zero\n-r pipe.txt\ntorch==1.7.1+cu110\n"
        "-f https://download.pytorch.org/whl/torch_stable.html\n"
    )
    code, out, err = run(["import", "requirements.txt"], tmp_path, monkeypatch)
    assert code == 0, err
    assert 'torch: "1.7.1"' in out
    assert err.splitlines()[:2] == [
        "warning: requirements.txt:1: -r /dev/zero: an absolute path; not followed (an import "
        "reads only files inside the imported file's folder)",
        "warning: requirements.txt:2: -r pipe.txt: a FIFO, not a regular file; not followed",
    ]


def test_oversized_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "requirements.txt"
    big.write_bytes(b"torch==1.7.1\n" + b"#" * MAX_SOURCE_BYTES)
    code, _, err = run(["import", "requirements.txt"], tmp_path, monkeypatch)
    assert code == 11
    assert err == (
        f"error: requirements.txt: {MAX_SOURCE_BYTES + 13} bytes; an environment file may be at "
        f"most {MAX_SOURCE_BYTES} bytes\n"
    )


def test_400_deep_dash_r_chain_stops_at_the_depth_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i in range(400):
        (tmp_path / f"r{i}.txt").write_text(f"-r r{i + 1}.txt\n")
    (tmp_path / "r400.txt").write_text("torch==1.7.1\n")
    (tmp_path / "requirements.txt").write_text("-r r0.txt\ntorch==1.8.1\n")
    code, out, err = run(["import", "requirements.txt"], tmp_path, monkeypatch)
    assert code == 0, err
    assert 'torch: "1.8.1"' in out  # the chain's end is never reached
    assert err.splitlines()[0] == (
        f"warning: r{MAX_INCLUDE_DEPTH - 1}.txt:1: -r r{MAX_INCLUDE_DEPTH}.txt: the -r chain is "
        f"more than {MAX_INCLUDE_DEPTH} files deep; not followed"
    )


def test_dash_r_cycle_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.txt").write_text("-r b.txt\ntorch==1.8.1\n")
    (tmp_path / "b.txt").write_text("-r a.txt\n")
    code, out, err = run(["import", "a.txt"], tmp_path, monkeypatch)
    assert code == 0, err
    assert 'torch: "1.8.1"' in out


def test_nested_env_expansion_is_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 313 bytes, 9 levels of 8 references: 8**9 * 8 characters (1 GiB) if expanded unbounded.
    lines = ["FROM pytorch/pytorch:1.9.0-cuda11.1-cudnn8-runtime", "ENV a=xxxxxxxx"]
    names = "abcdefghij"
    lines += [f"ENV {names[i + 1]}={('$' + names[i]) * 8}" for i in range(9)]
    lines.append("RUN echo $j && pip install tqdm==4.62.3")
    text = "\n".join(lines) + "\n"
    assert len(text) < 320
    (tmp_path / "Dockerfile").write_text(text)
    code, out, err = run(["import", "Dockerfile", "--offline"], tmp_path, monkeypatch)
    assert code == 0, err
    assert 'torch: "1.9.0"' in out
    assert "tqdm==4.62.3" in out  # $j stayed unset, so the RUN line is read
    # A line that would pass the bound is skipped (its variables stay unset), with a warning.
    assert err.splitlines()[:2] == [
        f"warning: Dockerfile:6: the line expands to more than {MAX_EXPANDED_CHARS} characters "
        "(nested ARG/ENV/shell variables); line ignored",
        f"warning: Dockerfile:11: the line expands to more than {MAX_EXPANDED_CHARS} characters "
        "(nested ARG/ENV/shell variables); line ignored",
    ]


def test_messages_quote_a_bounded_excerpt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "requirements.txt").write_text("torch==1.8.1\n" + "-e " + "x" * 60_000 + "\n")
    code, _, err = run(["import", "requirements.txt"], tmp_path, monkeypatch)
    assert code == 0
    line = next(ln for ln in err.splitlines() if "editable" in ln)
    assert line == (
        "warning: requirements.txt:2: editable install '" + "x" * 77 + "...' is not a package "
        "envgen can lock; ignored"
    )


def test_values_project_yaml_cannot_hold_are_left_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "install.sh").write_text(
        'conda install pytorch=1.8.1 cudatoolkit=10.2 -c http://evil.example/x -c "a b" -c\n'
    )
    code, out, err = run(["import", "install.sh"], tmp_path, monkeypatch)
    assert code == 0, err
    assert "channels" not in out
    # a trailing `-c` with no value names no channel (conda refuses the line) and is dropped
    assert err.splitlines()[:2] == [
        "warning: install.sh: channel 'http://evil.example/x' is not a channel name project.yaml "
        "accepts (such as conda-forge); left out",
        "warning: install.sh: channel 'a b' is not a channel name project.yaml accepts (such as "
        "conda-forge); left out",
    ]
    assert "channel ''" not in err


def test_total_expansion_of_a_file_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 40000 lines that each expand to 14 KiB: about 560 MB of shell text if read unbounded
    # (2 minutes), stopped after MAX_EXPANDED_TOTAL characters.
    lines = ["FROM python:3.8", "ENV a=" + "x" * 2000]
    lines += ["RUN echo " + "$a" * 7 for _ in range(40000)]
    (tmp_path / "Dockerfile").write_text("\n".join(lines) + "\n")
    code, _, err = run(["import", "Dockerfile"], tmp_path, monkeypatch)
    assert code == 11
    assert err == (
        "error: Dockerfile: no torch (or conda pytorch) requirement found; nothing to reproduce\n"
        f"  (Dockerfile:40: the file's lines expand to more than {MAX_EXPANDED_TOTAL} characters "
        "in all (nested ARG/ENV/shell variables); the rest of the file is not read)\n"
    )


def test_many_packages_are_capped_quickly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 60000 distinct pins (800 KB): quadratic duplicate checks took minutes.
    lines = ["torch==1.8.1+cpu", *(f"pkg{i}==1.0" for i in range(60000)), "pkg5==2.0"]
    (tmp_path / "requirements.txt").write_text("\n".join(lines) + "\n")
    code, out, err = run(["import", "requirements.txt", "--offline"], tmp_path, monkeypatch)
    assert code == 0, err
    assert out.count('\n  - "pkg') == MAX_PACKAGES
    assert err.splitlines()[:2] == [
        f"warning: requirements.txt:{MAX_PACKAGES + 2}: more than {MAX_PACKAGES} pip packages; "
        "the rest are left out",
        "warning: requirements.txt:60002: pkg5 is listed again; the first one is kept",
    ]


def test_arbitrary_equality_that_is_no_version_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the fuzz harness: `===` takes any string, and `1..2` is no PEP 440 version."""
    (tmp_path / "Dockerfile").write_text("FROM python:3.8\nRUN pip install torch===1..2\n")
    code, out, err = run(["import", "Dockerfile", "--offline"], tmp_path, monkeypatch)
    assert (code, out) == (11, "")
    assert err == (
        "error: Dockerfile:2: torch '1..2' is not a version (PEP 440); "
        "write the release the file means, e.g. torch==1.2.0\n"
    )


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # `tool[^\n]*action` backtracked from every `pip`: 64 KB took 20 s, 1 MB over an hour.
        ("install.sh", "if [ -f x ]; then foo " + "pip " * 60_000 + "; fi\n"),
        # A function of 30000 comments, called 6000 times: comments were walked without a step.
        ("install.sh", "f() {\n" + "# x\n" * 30_000 + ":\n}\n" + "if f; then f; fi\n" * 3_000),
        # `</?\w+[^>]*>` on a <pre> line of `<a<a<a...`: 160 KB took 15 s.
        ("README.md", "# x\n<pre>\n" + "<a" * 400_000 + "\n</pre>\n"),
    ],
    ids=["pip-words", "comment-function", "pre-tags"],
)
def test_scripts_and_readmes_are_read_in_linear_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str
) -> None:
    (tmp_path / name).write_text(text)
    code, out, _ = run(["import", name, "--offline"], tmp_path, monkeypatch)
    assert (code, out) == (11, "")


def test_a_long_requirements_line_is_skipped_before_it_is_split(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """shlex builds a word a character at a time: a 960 KB word took 30 s (8 MiB of them in a
    repository, minutes)."""
    lines = ["torch==1.8.1+cpu", "-" * 480_000, "x==1 " + "a" * 480_000]
    (tmp_path / "requirements.txt").write_text("\n".join(lines) + "\n")
    code, _, err = run(["import", "requirements.txt", "--offline"], tmp_path, monkeypatch)
    assert code == 0, err
    assert err.splitlines()[:2] == [
        f"warning: requirements.txt:{n}: a line of more than {MAX_PIP_LINE} characters; ignored"
        for n in (2, 3)
    ]
