# The README's two commands: `make run` serves Civitas, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench mutation compiled clean deploy-test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip setuptools
	$(PY) -m pip install --quiet -e '.[postgres,redis,dev]'
	touch $(STAMP)

# The rules compiled with Cython from the same source (scripts/compile_rules.py): incremental,
# about a minute from scratch; without a C compiler it says so and the pure-Python rules run.
compiled: $(STAMP)
	$(PY) scripts/compile_rules.py

run: $(STAMP) compiled
	mkdir -p var
	$(PY) -m app.main

test: $(STAMP) compiled
	bash scripts/test.sh

# Quick versions of every benchmark (bench/README.md lists the full-size commands).
bench: $(STAMP) compiled
	$(PY) bench/engine_bench.py --games 5
	$(PY) bench/move_path_bench.py --games 5
	$(PY) bench/roundtrip_bench.py --games 10 --duration 5
	$(PY) bench/throughput_bench.py --games 20 --duration 5
	$(PY) bench/fanout_bench.py --spectators 200 --moves 10
	$(PY) bench/lobby_bench.py --rooms 100 --lobby 100 --games 10 --changes 5
	$(PY) bench/memory_bench.py --games 200 --connections 200
	$(PY) bench/platform_bench.py
	$(PY) bench/suburbia_bot.py 10
	$(PY) bench/tiny_towns_bot.py 10

# The compose stack for real (Docker, two replicas behind nginx) under load, faults and a rolling
# deploy; about 10 minutes here once the images exist (the first run builds them: about 30 more),
# never part of make test: scripts/deploy_test.sh.
deploy-test: $(STAMP)
	bash scripts/deploy_test.sh

# Mutation testing, package by package (slow; never part of make test): see docs/TESTING.md.
mutation: $(STAMP)
	$(PY) scripts/mutation.py $(if $(SAMPLE),--sample $(SAMPLE)) $(PACKAGES)

clean:
	rm -rf $(VENV) var .pytest_cache .compiled
