# The README's two commands: `make run` serves Civitas, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[postgres,redis,dev]'
	touch $(STAMP)

run: $(STAMP)
	mkdir -p var
	$(PY) -m app.main

test: $(STAMP)
	bash scripts/test.sh

bench: $(STAMP)
	for script in bench/*.py; do $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) var .pytest_cache
