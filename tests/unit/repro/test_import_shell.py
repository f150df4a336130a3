"""Install scripts follow their default route (issue 24 item 1): envgen.repro.shell and the CLI.

The default route is the one a script takes with no arguments on Linux x86_64 with an NVIDIA GPU;
the install commands of branches it does not take are listed as alternatives. Each construct is
checked on the interpreter itself, and the issue's three misses through the real CLI.
"""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from envgen.cli import main as envgen_main
from envgen.model.matrix import load_matrix
from envgen.repro.importer import import_text
from envgen.repro.shell import MAX_COMMANDS, MAX_DEPTH, MAX_STEPS, MAX_TOTAL, Route, interpret


@click.command(
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                      "help_option_names": []}
)  # fmt: skip
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def main(args: tuple[str, ...]) -> None:
    """The real entry point (its error boundary and exit codes) under click's runner."""
    envgen_main(list(args))


def _runs(route: Route) -> list[str]:
    return [c.text for c in route.commands]


def _import(tmp_path: Path, name: str, text: str) -> tuple[dict[str, object], str]:
    (tmp_path / name).write_text(text)
    # --offline: an exact pin would otherwise ask PyPI which python it has wheels for
    result = CliRunner().invoke(main, ["import", "--offline", str(tmp_path / name)])
    assert result.exit_code == 0, result.output
    return yaml.safe_load(result.stdout), result.stderr


CASE_ON_VENDOR = """\
#!/bin/bash
GPU=${1:-nvidia}
case "$GPU" in
  amd|rocm)
    pip install torch==2.0.1 torchvision==0.15.2 --index-url https://download.pytorch.org/whl/rocm5.4.2
    ;;
  nvidia|*)
    pip install torch==2.0.1 torchvision==0.15.2 \\
      --index-url https://download.pytorch.org/whl/cu118
    ;;
esac
"""


def test_case_on_gpu_vendor_takes_the_nvidia_branch(tmp_path: Path) -> None:
    project, err = _import(tmp_path, "install.sh", CASE_ON_VENDOR)
    assert (project["torch"], project["accelerators"]) == ("2.0.1", ["cu118"])
    assert "rocm5.4.2" not in str(project)
    assert (
        "install.sh:5: an alternative route (case amd|rocm), not the default one envgen imports "
        "(no arguments, Linux, an NVIDIA GPU): pip install torch==2.0.1 torchvision==0.15.2 "
        "--index-url https://download.pytorch.org/whl/rocm5.4.2"
    ) in err


def test_windows_batch_call_set_and_caret(tmp_path: Path) -> None:
    project, _ = _import(
        tmp_path,
        "install.bat",
        "@echo off\r\n"
        "REM the paper's environment\r\n"
        "set TORCH_VER=1.12.1\r\n"
        'set "CUDA=cu113"\r\n'
        "call conda create -n paper python=3.8 -y\r\n"
        "call conda activate paper\r\n"
        "call pip install torch==%TORCH_VER%+%CUDA% torchvision==0.13.1+%CUDA% ^\r\n"
        "  --extra-index-url https://download.pytorch.org/whl/%CUDA%\r\n",
    )
    assert (project["python"], project["torch"], project["torchvision"]) == (
        "3.8",
        "1.12.1",
        "0.13.1",
    )
    assert project["accelerators"] == ["cu113"]


def test_requirement_line_with_two_packages_and_an_option(tmp_path: Path) -> None:
    project, err = _import(
        tmp_path,
        "requirements.txt",
        "torch==1.7.1+cu110 torchvision==0.8.2+cu110 -f "
        "https://download.pytorch.org/whl/torch_stable.html\nnumpy==1.19.2\n",
    )
    assert (project["torch"], project["torchvision"], project["accelerators"]) == (
        "1.7.1",
        "0.8.2",
        ["cu110"],
    )
    assert project["pip"] == ["numpy==1.19.2"]
    assert "read as `pip install <line>`" in err


def test_a_spaced_requirement_is_still_one_requirement(tmp_path: Path) -> None:
    project, err = _import(tmp_path, "requirements.txt", "torch == 1.8.1\nnumpy >= 1.19\n")
    assert project["torch"] == "1.8.1"
    assert project["pip"] == ["numpy>=1.19"]
    assert "pip install <line>" not in err


def test_if_elif_else_on_detected_hardware() -> None:
    route = interpret(
        "if command -v nvidia-smi &> /dev/null; then\n"
        "  pip install torch==1.13.1+cu117\n"
        "elif command -v rocm-smi; then\n"
        "  pip install torch==1.13.1+rocm5.2\n"
        "else\n"
        "  pip install torch==1.13.1+cpu\n"
        "fi\n"
        'if [[ "$(uname)" == "Darwin" ]]; then pip install torch==1.13.1; fi\n'
        'if [ "$(uname -m)" = "x86_64" ]; then pip install x86pkg; fi\n'
    )
    installs = [t for t in _runs(route) if t.startswith("pip")]
    assert installs == ["pip install torch==1.13.1+cu117", "pip install x86pkg"]
    assert [(a.line, a.branch) for a in route.alternatives] == [
        (4, "elif on line 3"),
        (6, "else on line 5"),
        (8, "if on line 8"),
    ]


def test_functions_lists_loops_and_variables() -> None:
    route = interpret(
        "PY=3.8\n"
        "deps() { pip install -r requirements.txt; }\n"
        'export TORCH="1.9.0"\n'
        '[ -z "$SKIP" ] && deps || echo skipped\n'
        "for p in numpy scipy; do pip install $p; done\n"
        "false && pip install never\n"
        "false || pip install fallback\n"
        'conda create -n x python=${PY} -y && pip install "torch==${TORCH}"\n'
        "exit 0\n"
        "pip install after-exit\n"
    )
    assert _runs(route) == [
        "pip install -r requirements.txt",
        "pip install numpy",
        "pip install scipy",
        "pip install fallback",
        "conda create -n x python=3.8 -y",
        'pip install "torch==1.9.0"',
    ]
    assert [a.text for a in route.alternatives] == ["pip install never"]


def test_case_with_no_argument_and_no_match_takes_the_nvidia_branch() -> None:
    route = interpret(
        'case "$1" in\n  cpu) pip install torch+cpu ;;\n  cuda) pip install torch+cu ;;\nesac\n'
    )
    assert _runs(route) == ["pip install torch+cu"]
    assert route.notes == [
        (
            1,
            'case "$1" cannot be known without running the script; the default route takes the '
            "NVIDIA branch (cuda)",
        )
    ]


def test_unknown_condition_takes_the_first_branch_and_says_so() -> None:
    route = interpret(
        "if [ -f environment.yml ]; then\n  conda env create -f environment.yml\n"
        "else\n  pip install torch==1.8.1\nfi\n"
    )
    assert _runs(route) == ["conda env create -f environment.yml"]
    assert route.notes[0][0] == 1
    assert "cannot be known without running the script" in route.notes[0][1]


def test_batch_if_blocks() -> None:
    route = interpret(
        "set DEVICE=cuda\n"
        'if /i "%DEVICE%"=="CPU" (\n'
        "  pip install torch==2.0.1+cpu\n"
        ") else (\n"
        "  pip install torch==2.0.1+cu118\n"
        ")\n"
        "if not defined NOPE pip install extra\n"
        ":: a comment\n"
        "call :helper\n",
        kind="bat",
    )
    assert _runs(route) == ["pip install torch==2.0.1+cu118", "pip install extra"]
    assert [a.text for a in route.alternatives] == ["pip install torch==2.0.1+cpu"]


def test_heredoc_body_is_not_a_command() -> None:
    route = interpret("cat > req.txt <<EOF\ntorch==1.0.0\npip install x\nEOF\npip install y\n")
    assert _runs(route) == ["cat", "pip install y"]


@pytest.mark.parametrize(
    ("script", "bound"),
    [
        ("if true; then " * 2000 + "pip install x; " + "fi; " * 2000, f"{MAX_DEPTH} deep"),
        ("f() { f; g; }\ng() { f; }\nf\n", None),
        ("x=ab\n" + "x=$x$x\n" * 40 + "pip install $x\n", "characters"),
        ("for i in " + "a " * 60_000 + "; do :; done\n", f"{MAX_STEPS} syntax nodes"),
        ("pip install a\n" * (MAX_COMMANDS + 10), f"{MAX_COMMANDS} commands"),
        ("(" * 100_000 + ")" * 100_000 + "\n", None),
    ],
    ids=["nested-ifs", "recursive-functions", "doubling-variable", "long-loop", "many", "parens"],
)
@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_every_bound_holds(script: str, bound: str | None) -> None:
    start = time.monotonic()
    route = interpret(script)
    assert time.monotonic() - start < 10
    assert len(route.commands) <= MAX_COMMANDS
    if bound is not None:
        assert any(bound in note for _, note in route.notes), route.notes


def test_dockerfile_run_line_follows_its_default_route(tmp_path: Path) -> None:
    project, err = _import(
        tmp_path,
        "Dockerfile",
        "FROM python:3.8\n"
        "ARG GPU=nvidia\n"
        'RUN if [ "$GPU" = "amd" ]; then \\\n'
        "      pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/rocm5.4.2; \\\n"
        "    else \\\n"
        "      pip install torch==2.0.1 --index-url https://download.pytorch.org/whl/cu118; \\\n"
        "    fi\n",
    )
    assert (project["python"], project["torch"], project["accelerators"]) == (
        "3.8",
        "2.0.1",
        ["cu118"],
    )
    assert "Dockerfile:3: an alternative route (if on line 1 of the RUN line)" in err


def test_batch_one_line_if_else_and_errorlevel() -> None:
    route = interpret(
        "IF EXIST env\\ (echo yes) ELSE (pip install create-env)\n"
        "if %ERRORLEVEL% NEQ 0 pip install on-error\n"
        'if not "%CUDA%"=="" (pip install cuda-%CUDA%) else (pip install cpu-build)\n',
        kind="bat",
    )
    assert _runs(route) == ["pip install cpu-build"]  # echo installs nothing
    assert [a.text for a in route.alternatives] == [
        "pip install create-env",
        "pip install on-error",
        "pip install cuda-",
    ]


def test_total_expanded_text_is_bounded() -> None:
    script = "x=" + "a" * 10_000 + "\n" + "pip install $x\n" * 200
    route = interpret(script)
    assert sum(len(c.text) for c in route.commands) <= MAX_TOTAL
    assert any("characters in all" in note for _, note in route.notes)


def test_batch_errorlevel_after_a_lookup_and_after_an_install() -> None:
    route = interpret(
        'call conda env list | findstr /C:"paper" >nul\n'
        "if %ERRORLEVEL% neq 0 (\n"
        "    call conda create -y -n paper python=3.10\n"
        "    call pip install torch==2.0.1\n"
        ")\n"
        "call pip install torch==2.2.2 --index-url https://download.pytorch.org/whl/cu121\n"
        "if %ERRORLEVEL% NEQ 0 (\n"
        "    echo failed\n"
        "    exit /b\n"
        ")\n"
        "if errorlevel 1 pip install fallback\n"
        "call pip install last\n",
        kind="bat",
    )
    # A fresh machine has no env named paper: findstr fails, so the env is created; the
    # installs succeed, so the error handler and the fallback are not taken.
    assert _runs(route)[1:] == [
        "conda create -y -n paper python=3.10",
        "pip install torch==2.0.1",
        "pip install torch==2.2.2 --index-url https://download.pytorch.org/whl/cu121",
        "pip install last",
    ]
    assert [a.text for a in route.alternatives] == ["pip install fallback"]


def test_lookups_of_installed_things_find_nothing_on_a_fresh_machine() -> None:
    route = interpret(
        'if ! python -c "import torch" 2>/dev/null; then\n  pip install torch==1.13.1\nfi\n'
        "if conda env list | grep -q paper; then\n  conda activate paper\nelse\n"
        "  conda create -n paper python=3.9 -y\n  pip install torchvision==0.14.1\nfi\n"
        "pip show numpy || pip install numpy==1.23.5\n"
    )
    installs = [t for t in _runs(route) if " install " in t or " create " in t]
    assert installs == [
        "pip install torch==1.13.1",
        "conda create -n paper python=3.9 -y",
        "pip install torchvision==0.14.1",
        "pip install numpy==1.23.5",
    ]
    assert route.alternatives == []


def test_a_negated_pipeline_is_negated_whole() -> None:
    # `! a | b` negates the pipeline's status (bash), though the grammar hangs `!` on `a`.
    route = interpret(
        'if ! conda env list | grep -q "paper"; then\n  conda create -y -n paper python=3.10\n'
        "else\n  echo exists\nfi\n"
        "if ! echo hi | grep -q x; then\n  pip install torch==2.1.0\nfi\n"
    )
    installs = [t for t in _runs(route) if " install " in t or " create " in t]
    assert installs == ["conda create -y -n paper python=3.10", "pip install torch==2.1.0"]
    assert route.alternatives == []


def test_batch_for_loops_run_once_on_their_first_item() -> None:
    route = interpret(
        "@echo off\nfor %%V in (3.12 3.11) do (\n  py -%%V --version\n)\n"
        "for %%P in (torch==2.8.0) do pip install %%P\n"
        "for /f \"delims=\" %%X in ('where python') do set PY=%%X\n"
        "for %%F in (*.whl) do pip install %%F\n"
        "for /l %%N in (1,1,3) do pip install x==%%N\n",
        kind="bat",
    )
    assert _runs(route) == [
        "py -3.12 --version", "pip install torch==2.8.0", "pip install x==1",
    ]  # fmt: skip


def test_uv_sync_python_names_the_python() -> None:
    result = import_text(
        "uv sync --python 3.12\nuv pip install torch==2.8.0 --index-url "
        "https://download.pytorch.org/whl/cu128\n",
        filename="install.sh",
        matrix=load_matrix(),
    )
    assert (result.project["python"], result.project["accelerators"]) == ("3.12", ["cu128"])


def test_a_long_and_chain_is_not_nesting() -> None:
    # The grammar nests `a && b && ...` one level per operator; a chain is read flat.
    chain = " && ".join(f"echo step{i}" for i in range(120))
    route = interpret(chain + " && pip install torch==1.13.1\n")
    assert _runs(route)[-1] == "pip install torch==1.13.1"
    assert route.notes == []


def test_dockerfile_comment_lines_inside_a_run_continuation() -> None:
    # Docker drops comment lines and skips empty lines inside a continued RUN.
    text = (
        'FROM ubuntu:16.04\nRUN PIP="python -m pip --no-cache-dir install" && \\\n'
        "# ---- torch ----\n\n    $PIP http://download.pytorch.org/whl/cu90/"
        "torch-0.4.0-cp36-cp36m-linux_x86_64.whl && \\\n# done\n    echo ok\n"
    )
    result = import_text(text, filename="Dockerfile", matrix=load_matrix())
    p = result.project
    assert (p["python"], p["torch"], p["accelerators"]) == ("3.6", "0.4.0", ["cu90"])


def test_readme_batch_fence_is_read_as_batch(tmp_path: Path) -> None:
    project, _ = _import(
        tmp_path,
        "README.md",
        "# Paper\n\n```bat\nC:\\Users\\me> conda create -n paper python=3.8\n"
        "set CU=cu113\n"
        "pip install torch==1.12.1+%CU% --extra-index-url https://download.pytorch.org/whl/%CU%\n"
        "```\n",
    )
    assert (project["python"], project["torch"], project["accelerators"]) == (
        "3.8",
        "1.12.1",
        ["cu113"],
    )


@pytest.mark.parametrize(
    ("name", "text", "python"),
    [
        ("setup.sh", "virtualenv -p python3.9 /opt/venv\npip install torch==1.10.2\n", "3.9"),
        ("setup.sh", "python3.10 -m venv .venv\npip install torch==2.0.1\n", "3.10"),
        ("setup.sh", "uv venv --python 3.11\nuv pip install torch==2.2.2\n", "3.11"),
        (
            "Dockerfile",
            "FROM nvidia/cuda:10.2-cudnn7-devel-ubuntu18.04\n"
            "RUN apt-get install -y python3-pip\n"
            "RUN wget https://repo.anaconda.com/miniconda/Miniconda3-py38_4.9.2-Linux-x86_64.sh\n"
            "RUN bash Miniconda3-py38_4.9.2-Linux-x86_64.sh -b -p /opt/conda\n"
            "ENV PATH=/opt/conda/bin:$PATH\n"
            "RUN pip install torch==1.9.0\n",
            "3.8",
        ),
        (
            "Dockerfile",
            "FROM nvidia/cuda:10.2-cudnn7-devel-ubuntu18.04\n"
            "RUN apt-get install -y python3-pip\n"
            "RUN wget https://repo.anaconda.com/miniconda/Miniconda3-py38_4.9.2-Linux-x86_64.sh\n"
            "RUN bash Miniconda3-py38_4.9.2-Linux-x86_64.sh -b -p /opt/conda\n"
            "RUN pip3 install torch==1.9.0\n",
            "3.6",
        ),
        (
            "Dockerfile",
            "FROM nvidia/cuda:11.0-devel-ubuntu20.04\nRUN apt-get install -y python3 python3-pip\n"
            "RUN pip3 install torch==1.9.0\n",
            "3.8",
        ),
        (
            "Dockerfile",
            "FROM nvidia/cuda:11.1.1-cudnn8-devel-ubuntu18.04\nRUN apt-get install -y python3-pip\n"
            "RUN wget http://repo.continuum.io/miniconda/Miniconda3-latest-Linux-x86_64.sh\n"
            "RUN sh Miniconda3-latest-Linux-x86_64.sh -b -p /opt/conda && /opt/conda/bin/conda init\n"
            "RUN pip3 install torch==1.9.0+cu111 -f https://download.pytorch.org/whl/torch_stable.html\n",
            None,
        ),
        (
            "Dockerfile",
            "FROM nvidia/cuda:8.0-cudnn7-runtime-ubuntu16.04\n"
            "RUN wget https://repo.continuum.io/archive/Anaconda2-5.0.1-Linux-x86_64.sh -P /tmp\n"
            "RUN bash /tmp/Anaconda2-5.0.1-Linux-x86_64.sh -b -p /opt/anaconda\n"
            "RUN conda install -y pytorch=0.3 torchvision cuda80 -c pytorch\n",
            "2.7",
        ),
        (
            "setup.sh",
            "wget -nc https://download.pytorch.org/whl/cu121/torch-2.1.2%2Bcu121-cp310-cp310-linux_x86_64.whl\n"
            "pip3 install torch-2.1.2+cu121-cp310-cp310-linux_x86_64.whl --no-dependencies\n",
            "3.10",
        ),
    ],
    ids=["virtualenv", "venv", "uv-venv", "miniconda-py38", "miniconda-py38-off-path", "ubuntu-20.04", "miniconda-latest", "anaconda2", "wheel-file"],
)  # fmt: skip
def test_python_of_the_environment_a_script_makes(
    tmp_path: Path, name: str, text: str, python: str | None
) -> None:
    project, err = _import(tmp_path, name, text)
    assert project.get("python") == python, err


@pytest.mark.parametrize(
    "text",
    [
        "## Setup\n\n```commandline\npip install torch==1.10.2+cu113 -f "
        "https://download.pytorch.org/whl/cu113/torch_stable.html\n```\n",
        "## Config\n\n<pre>\nconda create -n p python=3.8\npip install torch==1.10.2+cu113 -f "
        "https://download.pytorch.org/whl/cu113/torch_stable.html\n</pre>\n",
        "1) PyTorch: ```pip install torch==1.10.2+cu113 -f "
        "https://download.pytorch.org/whl/cu113/torch_stable.html``` (newer ones fail)\n",
    ],
    ids=["commandline-fence", "html-pre", "inline-code"],
)
def test_readme_install_commands_outside_shell_fences(tmp_path: Path, text: str) -> None:
    project, _ = _import(tmp_path, "README.md", text)
    assert (project["torch"], project["accelerators"]) == ("1.10.2", ["cu113"])


def test_readme_python_fence_is_not_a_shell_session(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(
        "```python\nimport os\nos.system('pip install torch==1.8.1')\n```\n"
    )
    result = CliRunner().invoke(main, ["import", str(tmp_path / "README.md")])
    assert result.exit_code == 11


def test_a_dockerfile_reads_the_script_it_copies_and_runs(tmp_path: Path) -> None:
    (tmp_path / "install_pytorch.sh").write_text(
        "#!/bin/bash\nset -e\n"
        "pip install https://download.pytorch.org/whl/cu100/torch-1.1.0-cp36-cp36m-linux_x86_64.whl\n"
    )
    project, _ = _import(
        tmp_path,
        "Dockerfile",
        "FROM nvidia/cuda:10.0-cudnn7-devel-ubuntu16.04\n"
        "COPY ./install_pytorch.sh /tmp/install_pytorch.sh\n"
        'RUN yes "Y" | /tmp/install_pytorch.sh\n',
    )
    assert (project["torch"], project["accelerators"], project["python"]) == (
        "1.1.0",
        ["cu100"],
        "3.6",
    )


def test_a_script_reads_the_scripts_it_runs_inside_its_folder(tmp_path: Path) -> None:
    (tmp_path / "outside.sh").write_text("pip install torch==1.4.0\n")
    paper = tmp_path / "paper"
    (paper / "scripts").mkdir(parents=True)
    (paper / "scripts" / "torch.sh").write_text("pip install torch==1.8.1+cu111 -f "
                                                "https://download.pytorch.org/whl/torch_stable.html\n")  # fmt: skip
    project, err = _import(paper, "setup.sh", "bash scripts/torch.sh\nbash ../outside.sh\n")
    assert (project["torch"], project["accelerators"]) == ("1.8.1", ["cu111"])
    assert "setup.sh:2: ../outside.sh: outside the imported folder; the script is not read" in err


def test_pytorch_image_tag_with_a_cudnn_minor() -> None:
    matrix = load_matrix()
    result = import_text(
        "FROM pytorch/pytorch:1.1.0-cuda10.0-cudnn7.5-devel\nRUN pip install flask\n",
        filename="Dockerfile",
        matrix=matrix,
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.1.0", ["cu100"])


@pytest.mark.parametrize(
    "loop",
    [
        "while getopts 'n' flag; do\n  case \"${flag}\" in\n    n) NIGHTLY=true ;;\n"
        "    *) echo usage >&2\n       exit 1 ;;\n  esac\ndone\n",
        'while [ $# -gt 0 ]; do\n  case "$1" in\n    --nightly) NIGHTLY=true ;;\n'
        "    *) exit 1 ;;\n  esac\n  shift\ndone\n",
        "while [[ $# -gt 0 ]]; do\n  case $1 in -n) NIGHTLY=true; shift ;; esac\ndone\n",
    ],
    ids=["getopts", "test-argc", "bash-test-argc"],
)
def test_an_option_loop_is_not_entered_with_no_arguments(loop: str) -> None:
    """The option loop's `exit` and flag assignments are for arguments the default route has
    not got: the script goes on to its default branch."""
    route = interpret(
        "NIGHTLY=false\n" + loop + "if [[ $NIGHTLY == true ]]; then\n"
        "  conda install -y -c pytorch-nightly pytorch cpuonly\nelse\n"
        "  conda install -y -c pytorch pytorch cpuonly\nfi\n"
    )
    assert _runs(route) == ["conda install -y -c pytorch pytorch cpuonly"]


def test_a_while_loop_s_installs_are_alternatives_when_not_entered() -> None:
    route = interpret(
        "while getopts 'c' f; do\n  case $f in c) pip install torch==1.8.1+cpu ;; esac\ndone\n"
        "pip install torch==1.8.1\n"
        "until true; do pip install never; done\n"
        "while true; do pip install once; break; done\n"
    )
    assert _runs(route) == ["pip install torch==1.8.1", "pip install once"]
    assert [a.text for a in route.alternatives] == [
        "pip install torch==1.8.1+cpu",
        "pip install never",
    ]


def test_an_unpinned_conda_cpuonly_of_the_1_3_era_is_that_release() -> None:
    """`pytorch cpuonly` in November 2019 got 1.3.0 (matrix: the 1.3 cpuonly conda builds), moved
    to the CPU wheel of the same release (the channel's packages before 1.5.1 are deleted)."""
    result = import_text(
        "#!/bin/bash\nconda install -y -c pytorch pytorch cpuonly\n",
        filename="install.sh",
        matrix=load_matrix(),
        as_of=dt.date(2019, 11, 1),
    )
    assert (result.project["torch"], result.project["accelerators"]) == ("1.3.0", ["cpu"])
    assert result.project["managers"] == ["pip"]
