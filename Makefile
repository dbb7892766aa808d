# Two entry points: `make run` (install the package, then serve the platform on SQLite) and
# `make test` (install with the test tools, then lint, type-check and run the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `run` installs the package only; `test` adds the test tools (issue 12 item 15).
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run play test lint install bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP) $(TEST_STAMP)

install: $(STAMP)

# The platform on a SQLite file in the working folder: http://127.0.0.1:8000 (API docs at /docs).
run: $(STAMP)
	$(BIN)/twentyone serve

# Terminal play stays a command.
play: $(STAMP)
	$(BIN)/twentyone play casino

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest -n 2

bench: $(TEST_STAMP)
	@for script in bench/*.py; do echo "== $$script"; $(BIN)/python $$script; done
