#!/usr/bin/env bash
# Runs the whole suite: on SQLite always, and on PostgreSQL too when one is reachable
# (CIVITAS_TEST_POSTGRES_URL, or a local server on 127.0.0.1:5432, where a fresh database is made).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

# Browser tests drive Debian's Chromium; install it if this machine lacks it and we may.
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
  else
    echo "chromium is missing: install Debian's 'chromium' package for the browser tests." >&2
  fi
fi

# The deploy test checks deploy/nginx.conf with `nginx -t`: install Debian's nginx-light likewise.
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's nginx-light for the deploy test..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light) >/dev/null || true
  else
    echo "nginx is missing: install Debian's 'nginx-light' package for the deploy test." >&2
  fi
fi

if [ -z "${CIVITAS_TEST_POSTGRES_URL:-}" ]; then
  if "$PY" - <<'PY' 2>/dev/null
import psycopg
psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", connect_timeout=2).close()
PY
  then
    db="civitas_test_$$"
    "$PY" - "$db" <<'PY'
import sys, psycopg
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
    c.execute(f'DROP DATABASE IF EXISTS "{sys.argv[1]}"')
    c.execute(f'CREATE DATABASE "{sys.argv[1]}"')
PY
    export CIVITAS_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:5432/$db"
    drop_db() {
      "$PY" - "$db" <<'PY' || true
import sys, psycopg
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
    c.execute(f'DROP DATABASE IF EXISTS "{sys.argv[1]}" WITH (FORCE)')
PY
    }
    trap drop_db EXIT
  else
    echo "No PostgreSQL reachable: running the suite on SQLite only."
  fi
fi
echo "PostgreSQL for tests: ${CIVITAS_TEST_POSTGRES_URL:-none}"
# Test order: pytest-randomly shuffles it with a fresh seed each run and prints the seed
# ("Using --randomly-seed=N"); CIVITAS_TEST_ORDER_SEED=N replays that order.
order_args=(-p randomly)
if [ -n "${CIVITAS_TEST_ORDER_SEED:-}" ]; then order_args+=("--randomly-seed=$CIVITAS_TEST_ORDER_SEED"); fi
# The static gate first (seconds): pyflakes' and bugbear's checks (undefined names, unused imports,
# redefined names, closures over loop variables) and ruff's layout (ruff format --check) everywhere, mypy --strict on the packages
# typed so far (pyproject.toml says which), and a second, non-strict mypy pass over the rest of
# app/ (mypy-rest.toml).
# A finding fails the run, after the tests have run too (one unused import should not hide them).
echo "Static checks: ruff, mypy..."
static=0
"$PY" -m ruff check . || static=1
"$PY" -m ruff format --check . || static=1
"$PY" -m mypy || static=1
"$PY" -m mypy --config-file mypy-rest.toml || static=1
"$PY" -m pytest "${order_args[@]}" "$@"
bash scripts/audit.sh
if [ "$static" != 0 ]; then echo "The static checks above failed." >&2; exit 1; fi
