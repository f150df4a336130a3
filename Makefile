# envgen's own targets. The bundled example is project.yaml; its generated files live in environments/.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
ENVGEN := $(BIN)/envgen
PYTEST_ARGS ?=

.PHONY: setup example test test-unit test-integration test-slow lint typecheck ci schema \
        refresh-matrix regen check bench bench-smoke clean env-% smoke-%

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

setup: $(BIN)/python  ## create .venv and install envgen with its dev tools
	PIP_CONFIG_FILE=/dev/null $(BIN)/python -m pip install --quiet -e '.[dev]'

# Where a machine keeps torch wheels offline (pip's find-links here); when it exists, the PyTorch
# index is served from a local mirror of it (written files still name download.pytorch.org).
LOCAL_WHEELS ?= $(firstword $(wildcard /opt/wheels))
MIRROR := $(CURDIR)/.envgen-mirror/whl
ifneq ($(LOCAL_WHEELS),)
USE_MIRROR = $(BIN)/python scripts/local_mirror.py $(LOCAL_WHEELS) $(MIRROR) >/dev/null && ENVGEN_PYTORCH_INDEX=file://$(MIRROR)
else
USE_MIRROR =
endif

example: setup  ## the main job on the bundled example: expand, lock (no-op when current), build cpu, smoke
	$(ENVGEN) list project.yaml
	$(USE_MIRROR) $(ENVGEN) lock project.yaml --variant cpu
	$(USE_MIRROR) $(ENVGEN) lock project.yaml --variant cpu --check
	$(USE_MIRROR) $(ENVGEN) build project.yaml --variant cpu

test: setup  ## the default test run (what CI runs)
	$(BIN)/pytest -m "not gpu" --doctest-modules envgen tests $(PYTEST_ARGS)

test-unit: setup
	$(BIN)/pytest tests/unit $(PYTEST_ARGS)

test-integration: setup
	$(BIN)/pytest tests/integration -m "integration and not slow" $(PYTEST_ARGS)

test-slow: setup
	$(BIN)/pytest -m slow $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check envgen tests scripts benchmarks
	$(BIN)/ruff format --check envgen tests scripts benchmarks

typecheck: setup
	$(BIN)/mypy

ci: setup lint typecheck test  ## everything CI checks

schema: setup  ## rewrite matrices/schema.json from the models in envgen/model/matrix.py
	$(BIN)/python scripts/gen_schema.py --write

refresh-matrix: setup  ## rebuild matrices/ from the recorded primary sources (add --fetch to re-read them)
	$(BIN)/python scripts/refresh_matrix.py --recorded --write
	$(BIN)/python scripts/refresh_releases.py --write

regen: setup  ## regenerate the bundled examples' files
	$(USE_MIRROR) $(ENVGEN) lock project.yaml --variant cpu
	$(ENVGEN) lock examples/paper-2021/project.yaml --pins-only

check: setup
	$(USE_MIRROR) $(ENVGEN) lock project.yaml --variant cpu --check
	$(ENVGEN) lock examples/paper-2021/project.yaml --pins-only --check

bench: setup
	$(BIN)/python -m benchmarks

bench-smoke: setup
	$(BIN)/python -m benchmarks --quick

env-%: setup  ## lock (no-op when current) and build one variant of the bundled example, then smoke it
	$(USE_MIRROR) $(ENVGEN) lock project.yaml --variant $*
	$(USE_MIRROR) $(ENVGEN) build project.yaml --variant $*

smoke-%: setup
	$(ENVGEN) smoke project.yaml --variant $*

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
