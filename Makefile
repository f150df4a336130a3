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

example: setup  ## the main job on the bundled example: expand, write pinned files, verify they are current
	$(ENVGEN) list project.yaml
	$(ENVGEN) lock project.yaml --pins-only
	$(ENVGEN) lock project.yaml --pins-only --check
	$(ENVGEN) command --torch 1.12.0 --compute cu116
	$(ENVGEN) matrix show 2.1.0

test: setup  ## the default test run (what CI runs)
	$(BIN)/pytest -m "not gpu" $(PYTEST_ARGS)

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

schema: setup  ## rewrite matrices/schema.json from the models in envgen/matrix.py
	$(BIN)/python scripts/gen_schema.py --write

refresh-matrix: setup  ## rebuild matrices/ from the recorded primary sources (add --fetch to re-read them)
	$(BIN)/python scripts/refresh_matrix.py --recorded --write
	$(BIN)/python scripts/refresh_releases.py --write

regen: setup  ## regenerate the bundled example's files
	$(ENVGEN) lock project.yaml --pins-only

check: setup
	$(ENVGEN) lock project.yaml --pins-only --check

bench: setup
	$(BIN)/python -m benchmarks

bench-smoke: setup
	$(BIN)/python -m benchmarks --quick

env-%: setup  ## build one variant of the bundled example (needs a full lock: `envgen lock project.yaml`)
	$(ENVGEN) build project.yaml --variant $*

smoke-%: setup
	$(ENVGEN) smoke project.yaml --variant $*

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
