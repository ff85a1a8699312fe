#!/usr/bin/env bash
# Import the course content (lectures, quiz bank, lab problems); idempotent. A failing import stops
# the script with its exit code: a site must not start with a part of the course silently missing.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
[ -x .venv/bin/python ] && PY=.venv/bin/python
for cmd in import_lectures import_quizzes sync_problems; do
  echo "== $cmd"
  $PY manage.py "$cmd"
done
