# envgen's own targets. The bundled example is project.yaml; its generated files live in environments/.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
ENVGEN := $(BIN)/envgen
PYTEST_ARGS ?=

.PHONY: setup example example-cuda test test-docs test-era test-papers fuzz test-unit test-integration test-slow lint typecheck ci schema \
        refresh-matrix refresh-conda-forge audit regen check bench bench-smoke clean env-% smoke-%

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

# The CUDA example (examples/cuda-13): PyPI's default build of torch 2.14.1 (CUDA 13.0, ~5 GB),
# locked, built and smoke-tested with the GPU tier skipping where no GPU is visible. Where this
# machine's local indexes exist, they are merged into one PyPI stand-in (links, no copies), plus
# cuda-bindings from PyPI, which they lack; written files still name pypi.org.
CUDA_SPEC := examples/cuda-13/project.yaml
LOCAL_INDEXES ?= $(wildcard /opt/pypi-more/simple /opt/pypi/simple)
PYPI_MIRROR := $(CURDIR)/.envgen-mirror/pypi
CUDA_FETCH ?= cuda-bindings==13.4.3
ifneq ($(LOCAL_INDEXES),)
USE_PYPI_MIRROR = $(BIN)/python scripts/merge_indexes.py $(PYPI_MIRROR) $(LOCAL_INDEXES) \
	$(addprefix --fetch ,$(CUDA_FETCH)) >/dev/null && ENVGEN_PYPI_INDEX=file://$(PYPI_MIRROR)
else
USE_PYPI_MIRROR =
endif

example-cuda: setup  ## lock (no-op when current), build and smoke the cu130 variant of examples/cuda-13
	$(ENVGEN) list $(CUDA_SPEC)
	$(USE_PYPI_MIRROR) $(ENVGEN) lock $(CUDA_SPEC) --variant cu130
	$(USE_PYPI_MIRROR) $(ENVGEN) lock $(CUDA_SPEC) --variant cu130 --check
	$(USE_PYPI_MIRROR) $(ENVGEN) build $(CUDA_SPEC) --variant cu130

test: setup  ## the default test run (what CI runs first; then test-slow and test-docs)
	$(BIN)/pytest -m "not gpu and not era and not papers and not fuzzlong and not docs and not slow" --doctest-modules envgen tests $(PYTEST_ARGS)

# The tutorial, the CLI reference and the how-tos run as a reader runs them (a real torch build):
# minutes, so apart from `make test`; .ci/run runs both.
test-docs: setup
	$(BIN)/pytest -m docs $(PYTEST_ARGS)

# Opt-in suites: real old-torch wheels from PyPI (GBs, cached between runs), real papers end to
# end, and the long fuzzing budget. None of them runs in `make test`.
test-era: setup
	$(BIN)/pytest -m era $(PYTEST_ARGS)

test-papers: setup
	$(BIN)/pytest -m papers $(PYTEST_ARGS)

fuzz: setup
	$(BIN)/pytest -m fuzzlong $(PYTEST_ARGS)

test-unit: setup
	$(BIN)/pytest tests/unit $(PYTEST_ARGS)

test-integration: setup
	$(BIN)/pytest tests/integration -m "integration and not slow" $(PYTEST_ARGS)

test-slow: setup
	$(BIN)/pytest -m "slow and not gpu and not era and not papers and not fuzzlong and not docs" $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check envgen tests scripts benchmarks
	$(BIN)/ruff format --check envgen tests scripts benchmarks
	$(BIN)/lint-imports

typecheck: setup
	$(BIN)/mypy

ci: setup lint typecheck test test-slow test-docs  ## everything .ci/run checks

schema: setup  ## rewrite matrices/schema.json, docs/reference/project-yaml.schema.json and envgen/model/spec_rules.py from the pydantic schemas
	$(BIN)/python scripts/gen_schema.py --write

refresh-matrix: setup  ## rebuild matrices/ from the recorded primary sources (add --fetch to re-read them)
	$(BIN)/python scripts/refresh_matrix.py --recorded --write
	$(BIN)/python scripts/refresh_releases.py --write

# The conda-forge feedstocks' git mirrors (the fetch tool puts them here); the script says what is
# missing and stops when they are absent.
FEEDSTOCK_MIRRORS ?= /work/.mirror
refresh-conda-forge: setup  ## rebuild matrices/conda-forge.yaml from the feedstock mirrors' git history
	$(BIN)/python scripts/refresh_conda_forge.py --mirrors $(FEEDSTOCK_MIRRORS) --write

audit: setup  ## check 100 random rows per matrix family against their sources again (PyPI: network)
	$(BIN)/python scripts/audit_matrix.py -n 100 --mirrors $(FEEDSTOCK_MIRRORS)

regen: setup  ## regenerate the bundled examples' files (examples/cuda-13 where the local indexes exist)
	$(USE_MIRROR) $(ENVGEN) lock project.yaml --variant cpu
	$(ENVGEN) lock examples/paper-2021/project.yaml --pins-only
ifneq ($(LOCAL_INDEXES),)
	$(USE_PYPI_MIRROR) $(ENVGEN) lock $(CUDA_SPEC) --variant cu130
endif

check: setup
	$(USE_MIRROR) $(ENVGEN) lock project.yaml --variant cpu --check
	$(ENVGEN) lock examples/paper-2021/project.yaml --pins-only --check
ifneq ($(LOCAL_INDEXES),)
	$(USE_PYPI_MIRROR) $(ENVGEN) lock $(CUDA_SPEC) --variant cu130 --check
endif

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
