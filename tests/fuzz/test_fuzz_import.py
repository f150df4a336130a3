"""Fuzz `envgen import` (envgen.repro.entry.run_import, what the CLI calls) in every format.

Generated requirements files, environment.yml, Dockerfiles, setup.py, pyproject.toml, shell
scripts, Pipfiles, conda explicit files, .travis.yml, tox.ini, pixi manifests, Singularity
definition files, READMEs and scripts that install the project itself (`pip install -e .`, beside
a pyproject.toml of the same lines), each as a file and inside a folder (`import DIR`), some well-formed around hostile lines,
some raw. Property: success or an EnvgenError (never another exception), within the time and
memory bounds, and no canary (environment, index credentials, a file outside the project) in the
project.yaml text, the warnings or the error message.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from pathlib import Path
from typing import Final

import pytest
from hypothesis import given
from hypothesis import strategies as st

from envgen.errors import EnvgenError
from envgen.model.matrix import Matrix, load_matrix
from envgen.repro.entry import run_import
from envgen.repro.importer import ImportOptions
from envgen.repro.text_tools import stage_output
from tests.fuzz.harness import (
    assert_no_canary,
    bounded,
    lines,
    long,
    plant_secrets,
    secret_environ,
    short,
)

# The secret file's path is fixed so the strategies (built once) can name it.
ROOT: Final = Path(tempfile.gettempdir()) / f"envgen-fuzz-import-{os.getuid()}"
SECRET: Final = ROOT / "outside" / "secret.txt"


def _yaml_item(line: str) -> str:
    return (
        f"  - {json.dumps(line, ensure_ascii=False)}" if line[:1] in "'\"&*!{[" else f"  - {line}"
    )


def _render(name: str, body: list[str], raw: bool) -> str:  # noqa: PLR0911, PLR0912 - one per format
    if raw:
        return "\n".join(body) + "\n"
    if name == "requirements.txt":
        return "\n".join(body) + "\n"
    if name == "environment.yml":
        deps = "\n".join(_yaml_item(x) for x in body[: len(body) // 2])
        pips = "\n".join("  " + _yaml_item(x) for x in body[len(body) // 2 :])
        return f"name: fz\nchannels:\n  - pytorch\ndependencies:\n{deps}\n  - pip:\n{pips}\n"
    if name == "Dockerfile":
        runs = "".join(
            f"RUN {'conda' if i % 3 == 2 else 'pip'} install {x}\n" for i, x in enumerate(body)
        )
        return f"FROM pytorch/pytorch:2.1.0-cuda11.8-cudnn8-runtime\n{runs}"
    if name == "setup.py":
        items = ", ".join(repr(x) for x in body)
        return f"from setuptools import setup\nsetup(name='fz', install_requires=[{items}])\n"
    if name == "pyproject.toml":
        items = ", ".join(json.dumps(x) for x in body)
        return f'[project]\nname = "fz"\ndependencies = [{items}]\n'
    if name == "Pipfile":
        items = "".join(f"p{i} = {json.dumps(x)}\n" for i, x in enumerate(body))
        return f'[[source]]\nurl = "https://pypi.org/simple"\n[packages]\n{items}'
    if name == "spec-file.txt":
        urls = "".join(
            f"https://conda.anaconda.org/pytorch/linux-64/{x}-1.0-py38_0.tar.bz2\n" for x in body
        )
        return f"# platform: linux-64\n@EXPLICIT\n{urls}"
    if name == ".travis.yml":
        steps = "\n".join(_yaml_item(f"pip install {x}") for x in body)
        return f"language: python\npython: 3.8\ninstall:\n{steps}\n"
    if name == "tox.ini":
        deps = "".join(f"    {x}\n" for x in body)
        return f"[tox]\nenvlist = py38\n[testenv]\ndeps =\n{deps}"
    if name == "pixi.toml":
        conda = "".join(f"c{i} = {json.dumps(x)}\n" for i, x in enumerate(body[::2]))
        pypi = "".join(f"p{i} = {json.dumps(x)}\n" for i, x in enumerate(body[1::2]))
        return (
            '[workspace]\nchannels = ["conda-forge"]\nplatforms = ["linux-64"]\n'
            f'[system-requirements]\ncuda = "12.0"\n[dependencies]\npytorch-gpu = "*"\n{conda}'
            f"[pypi-dependencies]\n{pypi}"
        )
    if name == "pytorch.def":
        files = "".join(f"    {x} /opt/\n" for x in body[:2])
        post = "".join(f"    cd /opt && pip install {x}\n" for x in body)
        return f"Bootstrap: docker\nFrom: python:3.10\n\n%files\n{files}\n%post\n{post}"
    if name == "README.md":
        prose = "".join(f"- Requirements: {x}\n" for x in body[::2])
        cmds = "".join(f"pip install {x}\n" for x in body[1::2])
        return f"# fz\n## Install\n{prose}\nwith cuda 11.8: pip install {body[0] if body else 'x'}\n```yaml\n{cmds}```\n"
    if name == "uv.lock":  # the project's edges carry the lines as markers and extras
        edges = ", ".join(
            f'{{ name = "p{i}", marker = {json.dumps(x)}, extra = [{json.dumps(x)}] }}'
            for i, x in enumerate(body)
        )
        packages = "".join(
            f'[[package]]\nname = "p{i}"\nversion = {json.dumps(x)}\n'
            f'source = {{ registry = "https://pypi.org/simple" }}\n'
            f'dependencies = [{{ name = "p{(i + 1) % max(len(body), 1)}" }}]\n\n'
            for i, x in enumerate(body)
        )
        return (
            'version = 1\nrequires-python = ">=3.8"\n\n[[package]]\nname = "fz"\n'
            f'version = "0.1"\nsource = {{ virtual = "." }}\ndependencies = [{edges}]\n\n'
            f"{packages}"
        )
    if name == "poetry.lock":  # versions, markers, edges and a source url from the lines
        packages = "".join(
            f'[[package]]\nname = "p{i}"\nversion = {json.dumps(x)}\noptional = false\n'
            f"markers = {json.dumps(x)}\n"
            f"[package.dependencies]\np{(i + 1) % max(len(body), 1)} = "
            f"[{{version = {json.dumps(x)}, markers = {json.dumps(x)}}}]\n"
            f'[package.source]\ntype = "legacy"\nurl = {json.dumps(x)}\n\n'
            for i, x in enumerate(body)
        )
        return (
            f'[[package]]\nname = "torch"\nversion = "2.1.0+cu121"\noptional = false\n\n'
            f"{packages}[metadata]\npython-versions = {json.dumps(body[0] if body else '^3.8')}\n"
        )
    if name == "pixi.lock":  # conda URLs and pypi files named by the lines
        items = "".join(
            f"      - conda: https://conda.anaconda.org/pytorch/linux-64/{x}-1.0-py38_0.tar.bz2\n"
            f"      - pypi: https://files.pythonhosted.org/p/{x}-1.0-py3-none-any.whl\n"
            for x in body
        )
        return (
            "version: 6\nenvironments:\n  default:\n    packages:\n      linux-64:\n"
            f"      - conda: https://conda.anaconda.org/pytorch/linux-64/pytorch-2.4.0-py3.12_cuda12.4_cudnn9.1.0_0.tar.bz2\n{items}"
        )
    if name == "pipes.sh":  # text pipelines, exports, a sourced file (itself), a menu case
        steps = "".join(
            f"V{i}=$(echo {x} | sed 's/{x}/1/g' | cut -d. -f1-{i} | tr -d '{x}')\nexport V{i}\n"
            for i, x in enumerate(body)
        )
        return (
            f"{steps}source ./pipes.sh\n. ./pipes.sh\nread -p 'choice? ' c\n"
            "case $c in 1) pip install torch==1.8.1 ;; *) pip install $V0 ;; esac\n"
        )
    if name == "make.sh":  # the Makefile it runs (written beside it): variables and recipes
        return "make\nmake install V=x\n"
    if name == "setup.sh":  # the project itself, as `pip install -e .` builds it
        return "".join(f"pip install -e .[{x}]\n(cd sub && pip install ./{x})\n" for x in body)
    return "#!/bin/sh\nset -e\n" + "".join(f"pip install {x}\n" for x in body)


FORMATS: Final = (
    "requirements.txt",
    "environment.yml",
    "Dockerfile",
    "setup.py",
    "pyproject.toml",
    "install.sh",
    "Pipfile",
    "spec-file.txt",
    ".travis.yml",
    "tox.ini",
    "pixi.toml",
    "pytorch.def",
    "README.md",
    "setup.sh",
    "uv.lock",
    "pixi.lock",
    "poetry.lock",
    "pipes.sh",
    "make.sh",
)
# Most files name torch somewhere (else the import stops at "no torch requirement found").
TORCH: Final = st.builds(
    lambda name, op, version: f"{name}{op}{version}",
    st.sampled_from(["torch", "pytorch", "torch", "torchvision"]),
    st.sampled_from(["==", ">=", "=", "~=", "", "<"]),
    st.sampled_from(["2.1.0", "1.13.1+cu117", "1.8.1", "0.4.1", "2.1.0,<2.3", "1.7", ""]),
)
BODIES: Final = st.tuples(lines(SECRET), st.lists(TORCH, max_size=2), st.randoms()).map(
    lambda t: t[2].sample(t[0] + t[1], len(t[0]) + len(t[1]))
)
CASES: Final = st.tuples(st.sampled_from(FORMATS), BODIES, st.booleans(), st.booleans())


@functools.cache
def _matrix() -> Matrix:
    return load_matrix(None)


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    ROOT.mkdir(exist_ok=True)
    plant_secrets(ROOT)
    for key, value in secret_environ().items():
        monkeypatch.setenv(key, value)


def check_import(case: tuple[str, list[str], bool, bool]) -> None:
    name, body, raw, as_dir = case
    text = _render(name, body, raw)
    with tempfile.TemporaryDirectory(dir=ROOT) as work:
        plant_secrets(Path(work))  # `../outside/secret.txt` from the project, too
        proj = Path(work) / "proj"
        proj.mkdir()
        path = proj / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        if name == "make.sh":  # the Makefile `make` runs: the lines as values and recipes
            (proj / "Makefile").write_text(
                "".join(f"V{i} := {x}\nA{i} = $(V{i})$(A{i})\n" for i, x in enumerate(body))
                + "ifeq ($(V0),x)\nT = cu118\nendif\nall install: dep\n"
                + "".join(f"\tpip install {x} $(V{i}) $(subst .,,$(A{i}))\n"
                          for i, x in enumerate(body))
                + "dep:\n\t$(MAKE) all\n",
                encoding="utf-8",
                errors="surrogatepass",
            )  # fmt: skip
        if name == "setup.sh":  # the project `pip install -e .` reads
            (proj / "pyproject.toml").write_text(
                _render("pyproject.toml", body, raw), encoding="utf-8", errors="surrogatepass"
            )
        options = ImportOptions(source=proj if as_dir else path)
        outputs: list[str] = []
        with bounded():
            try:
                result = run_import(options, _matrix())
            except EnvgenError as exc:
                outputs.append(str(exc))
            else:
                outputs += [result.text, *result.warnings]
        assert_no_canary(*outputs, files=proj)


# One stage of a text pipeline: the tool, then words drawn from what breaks them (escapes,
# classes, counts, back-references, field lists).
STAGES: Final = st.tuples(
    st.sampled_from(["sed", "cut", "tr", "wc"]),
    st.lists(
        st.one_of(
            st.text(max_size=40),
            st.sampled_from(
                [
                    "-d.",
                    "-f",
                    "-f1-2",
                    "-c",
                    "-d",
                    "s/a*/x/g",
                    "s/\\(a\\)\\1//",
                    "[:space:]",
                    "s/a\\{99999\\}//",
                    "s/[b-a]//",
                    "a-z",
                    "\\n",
                    "-f00-3",
                    "s/x/\\&/",
                ]
            ),
        ),
        max_size=3,
    ),
)


@short(300)
@given(STAGES, st.text(max_size=128))
@pytest.mark.slow  # seconds of real work each: make test-slow (CI runs it)
def test_text_tools_answer_or_say_unknown(stage: tuple[str, list[str]], text: str) -> None:
    """A pipeline stage on any line prints text or None (not modelled): never an exception, and
    within the time bound."""
    with bounded():
        out = stage_output([stage[0], *stage[1]], text)
    assert out is None or isinstance(out, str)


@pytest.mark.usefixtures("secrets")
@short(60)
@given(CASES)
def test_import_never_crashes_or_leaks(case: tuple[str, list[str], bool, bool]) -> None:
    check_import(case)


@pytest.mark.fuzzlong
@pytest.mark.usefixtures("secrets")
@long()
@given(CASES)
def test_import_never_crashes_or_leaks_long(case: tuple[str, list[str], bool, bool]) -> None:
    check_import(case)
