# The two commands: `make up` (the whole mesh) and `make test` (every test).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: up test protos lint bench clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Balcão needs $(PYTHON) (set PYTHON=...)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

up: $(STAMP)
	$(BIN)/balcao up

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# Regenerate balcao/<service>/v1 from protos/ (the only way generated code changes).
protos: $(STAMP)
	$(BIN)/python -m balcao.devtools.protos generate

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/buf lint

bench: $(STAMP)
	@# Every benchmark runs; the status says whether each met its target.
	@status=0; for b in bench/[!_]*.py; do echo "== $$b"; $(BIN)/python $$b || status=1; done; exit $$status

clean:
	rm -rf build .pytest_cache .ruff_cache
