#!/usr/bin/env bash
# Dependency audit (part of `make test`). pip-audit first: any known vulnerability fails the run.
# When pip-audit cannot reach its advisory service, scripts/pypi_audit.py audits from PyPI's
# project JSON instead: only packages installed at their latest release can be checked that way
# (any vulnerability fails the run); the others are named on one loud NOT AUDITED line. Without
# any network it says NOT AUDITED and does not fail. Timeouts keep it from hanging the run.
set -uo pipefail
cd "$(dirname "$0")/.."
out=$(timeout 300 .venv/bin/pip-audit --progress-spinner off --strict --timeout 15 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
  echo "pip-audit: no known vulnerabilities in the installed packages."
  exit 0
fi
if echo "$out" | grep -q "known vulnerabilit"; then
  echo "$out"
  echo "pip-audit: known-vulnerable packages (above): upgrade them." >&2
  exit 1
fi
echo "pip-audit could not audit (its advisory service did not answer: $(echo "$out" | tail -n 1 | cut -c1-160));" \
     "falling back to PyPI's project JSON." >&2
timeout 180 .venv/bin/python scripts/pypi_audit.py
rc=$?
if [ $rc -eq 124 ]; then
  echo "pypi-json audit: NOT AUDITED: it timed out." >&2
  exit 0
fi
exit $rc
