# Warband Ledger: `make run` to use it, `make test` to check it. Everything installs into .venv.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# pgserver (the embedded PostgreSQL) ships wheels for Python 3.11 and 3.12.
PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
CHROMIUM ?= /usr/bin/chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Where the embedded PostgreSQL keeps its data (config/database.py uses $(DATA)/postgres).
DATA ?= .data

.PHONY: help run dev test bench lint format install install-dev chromium wrk migrate demo stop clean-data mutate

help:
	@echo "make run    - install, migrate, load the demo campaign and serve it as production does on http://$(HOST):$(PORT)"
	@echo "              (make run HOST=0.0.0.0 lets the phones on the same network join; it prints the address)"
	@echo "make dev    - the same with Django's runserver and DEBUG on, for development"
	@echo "make test   - install test tools (Chromium too) and run the whole suite, ruff included"
	@echo "make bench  - run the benchmarks and print their figures"
	@echo "make lint   - ruff check and format check"
	@echo "make mutate - mutation testing of combat/rules/ (minutes): kill rate per module, surviving mutants"
	@echo "make stop   - stop the embedded PostgreSQL, keeping its data"
	@echo "make clean-data - stop the embedded PostgreSQL, then delete its data ($(DATA)/)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

# Debian's Chromium for the browser tests, installed when missing and apt-get is there.
chromium:
	@if [ -x "$(CHROMIUM)" ]; then \
	  echo "Chromium: $(CHROMIUM)"; \
	elif command -v apt-get >/dev/null; then \
	  echo "Installing Debian's chromium for the browser tests..."; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "Chromium is missing and apt-get is not available: install Chromium and set CHROMIUM_PATH." >&2; exit 1; \
	fi

migrate: install
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py migrate --noinput

demo: migrate
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py load_demo

# gunicorn with DEBUG off, static files collected and served by WhiteNoise, a cache every process shares without
# Redis (config/serve.py, config/settings_run.py). WORKERS processes of THREADS threads each.
WORKERS ?= 2
THREADS ?= 4
run: demo
	$(BIN)/python -m config.serve --host $(HOST) --port $(PORT) --workers $(WORKERS) --threads $(THREADS)

# Development: runserver reloads on every change and DEBUG shows each error's traceback.
dev: demo
	DEBUG=$${DEBUG:-true} $(BIN)/python manage.py runserver $(HOST):$(PORT)

test: install-dev chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The web benchmark loads gunicorn with Debian's wrk when it can (else a small Python load generator).
wrk:
	@command -v wrk >/dev/null || ! command -v apt-get >/dev/null || \
	  { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq wrk >/dev/null; } || \
	  echo "wrk could not be installed; the web benchmark uses its Python load generator."

bench: install-dev wrk
	$(BIN)/python bench/run.py

# Mutation testing of the rules engine with its own tests, configured in pyproject.toml's
# [tool.mutmut]; not part of `make test`, it takes minutes. The machine is shared: MUTATE_CHILDREN workers (2).
# A full run starts from a fresh mutants/ (mutmut keeps old verdicts, which new tests would not revisit);
# MUTANTS reruns only the mutants named by globs, e.g. make mutate MUTANTS='combat.rules.dice.*'.
MUTATE_CHILDREN ?= 2
mutate: install-dev
	$(if $(MUTANTS),,rm -rf mutants)
	$(BIN)/mutmut run --max-children $(MUTATE_CHILDREN) $(foreach mutant,$(MUTANTS),'$(mutant)')
	$(BIN)/python bench/mutation_report.py --strict

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The embedded PostgreSQL keeps running after `make run` ends (config/database.py); config/embedded_db.py stops it
# with pg_ctl's fast shutdown and waits for it to exit. Without .venv nothing can have started it.
stop:
	@if [ -x $(BIN)/python ]; then $(BIN)/python -m config.embedded_db stop $(DATA); \
	else echo "No $(BIN)/python: no embedded PostgreSQL was started from here."; fi

# Stops the embedded PostgreSQL first, then deletes its data (the demo is loaded again by the next `make run`).
clean-data:
	@if [ -x $(BIN)/python ]; then $(BIN)/python -m config.embedded_db clean $(DATA); \
	elif [ -e $(DATA) ]; then rm -rf $(DATA) && echo "Deleted $(DATA)."; \
	else echo "$(DATA) does not exist: nothing to delete."; fi
