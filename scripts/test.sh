#!/usr/bin/env bash
# `make test`: start throwaway PostgreSQL + Redis, run the whole suite against them, stop them always.
set -euo pipefail
cd "$(dirname "$0")/.."
export PDC_SERVICES_NAME=maketest
trap 'scripts/services.sh stop >/dev/null 2>&1 || true' EXIT
scripts/services.sh start
set -a; . var/maketest.env; set +a
# Browser tests need Debian's chromium; the sandbox tests need bubblewrap (both installed by setup).
.venv/bin/python -m pytest -p no:cacheprovider "$@"
