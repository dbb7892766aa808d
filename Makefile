# Two entry points: `make run` (install the package, then serve the platform on SQLite) and
# `make test` (install with the test tools, then lint, type-check and run the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `run` installs the package only; `test` adds the test tools (issue 12 item 15).
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run play test lint install bench vendor i18n

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
	@for script in bench/[!_]*.py; do echo "== $$script"; $(BIN)/python $$script; done

# Refetch the web interface's libraries from the npm registry and check them against
# src/twentyone/web/vendor/lock.json (integrity and each file's sha256); see tools/vendor.py.
vendor: | $(BIN)/python
	$(BIN)/python tools/vendor.py

# The languages (docs/i18n.md): re-extract the English message ids of the Python code and the
# web pages into src/twentyone/locale/messages.pot, then merge them into each language's .po
# (new ids get an empty msgstr for the translators; tests/test_i18n.py fails until filled).
LOCALES := src/twentyone/locale
I18N_KEYWORDS := -k _ -k _h -k N_ -k n_:1,2
i18n: $(STAMP)
	mkdir -p $(LOCALES)
	PYTHONPATH=tools $(BIN)/pybabel extract -F babel.cfg --no-default-keywords $(I18N_KEYWORDS) \
		--sort-by-file --no-wrap --project=twentyone --version=0.1 \
		--msgid-bugs-address="" --copyright-holder="" -o $(LOCALES)/messages.pot .
	@for lang in fi tr nb pt_BR; do \
		if [ -f $(LOCALES)/$$lang/LC_MESSAGES/messages.po ]; then \
			$(BIN)/pybabel update --no-wrap --ignore-obsolete --no-fuzzy-matching -D messages -i $(LOCALES)/messages.pot -d $(LOCALES) -l $$lang; \
		else \
			$(BIN)/pybabel init --no-wrap -D messages -i $(LOCALES)/messages.pot -d $(LOCALES) -l $$lang; \
		fi; \
	done
