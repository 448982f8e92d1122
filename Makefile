# embedlab's front door. `make book` and `make test` are the README's two commands.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.requirements-installed

.DEFAULT_GOAL := help
.PHONY: help setup browser lint format test lab notebooks experiments book bench mutants clean

help:
	@echo "make book       set up .venv, build the book into _build/html (open _build/html/index.html)"
	@echo "make test       set up .venv (and Chromium when root on Debian), run ruff and the whole suite"
	@echo "make lab        start JupyterLab on 127.0.0.1 at notebooks/"
	@echo "make notebooks  build notebooks/*.ipynb from notebooks/sources/*.md, executed in a fresh kernel"
	@echo "make bench      print measured speed of the library, sliders, validation and book"
	@echo "make mutants    remove each input check in turn and show that the tests fail without it"
	@echo "make experiments  re-run notebook I's sweep into src/embedlab/data/sweep.json (about 80 min on 2 cores)"

# The venv is (re)installed when requirements.txt or pyproject.toml change.
$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "embedlab needs Python 3.10 or newer, found " + sys.version.split()[0])'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --quiet -r requirements.txt
	@touch $@

setup: $(STAMP)

browser:
	@bash scripts/ensure-chromium.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: $(STAMP) browser lint
	$(BIN)/python -m pytest --nbval

# No request leaves the machine: the news prompt is answered "no" by lab/overrides.json (JupyterLab's
# documented settings overrides, read from the app settings folder), the server fetches no news and
# checks no update, and the extension manager does not query PyPI.
lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=notebooks \
		--LabApp.app_settings_dir=$(CURDIR)/lab --LabApp.news_url=None \
		--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate --LabApp.extension_manager=readonly

# notebooks/sources/*.md (MyST Markdown) are the sources; the executed .ipynb files are generated.
notebooks: $(STAMP)
	$(BIN)/python scripts/run_notebooks.py

# Notebook I's tied/untied sweep (embedlab.sweep): thousands of early-stopped training runs, too many
# for the notebook itself, written with its settings and the library's version; tests re-run a sample.
experiments: $(STAMP)
	$(BIN)/python scripts/run_experiments.py

book: $(STAMP)
	$(BIN)/jupyter-book build -W -n --keep-going .

# Remove each of the library's checks in turn (in a scratch copy) and show that the tests fail without it.
mutants: $(STAMP)
	$(BIN)/python scripts/remove_checks.py

bench: $(STAMP)
	$(BIN)/python -m pip install --disable-pip-version-check --quiet -r requirements-bench.txt
	$(BIN)/python scripts/bench.py

clean:
	rm -rf _build .pytest_cache .hypothesis
