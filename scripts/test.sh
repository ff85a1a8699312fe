#!/usr/bin/env bash
# `make test`: start throwaway PostgreSQL + Redis, run the whole suite against them, stop them always.
set -euo pipefail
cd "$(dirname "$0")/.."
export PDC_SERVICES_NAME=maketest
trap 'scripts/services.sh stop >/dev/null 2>&1 || true' EXIT
scripts/services.sh start
set -a; . var/maketest.env; set +a
# Browser tests need Debian's chromium; the sandbox tests need bubblewrap (both installed by setup).
if [ "$#" -gt 0 ]; then .venv/bin/python -m pytest -p no:cacheprovider "$@"; exit; fi
# The whole suite: three pytest-xdist workers (each its own test database and broker key prefix, see
# the test profile in pdcsite/settings.py), then the `serial` tests, which stop and restart the
# shared PostgreSQL / Redis, alone. Exit code 5 (nothing collected) counts as a pass.
# Three on two cores: many tests wait (for a worker, a sandbox's wall clock, a browser), and a third
# worker fills those waits; docs/benchmarks.md "Test suite" has the two-against-three runs.
WORKERS="${PDC_TEST_WORKERS:-3}"
status=0
# --durations: the slowest tests in every run, to see where the 15-minute budget goes.
.venv/bin/python -m pytest -p no:cacheprovider -n "$WORKERS" --dist loadfile -m "not serial" \
  --durations=20 || status=$?
.venv/bin/python -m pytest -p no:cacheprovider -m serial || { rc=$?; [ "$rc" = 5 ] || status=$rc; }
exit "$status"
