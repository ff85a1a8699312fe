#!/usr/bin/env bash
# Import whatever course content exists (lectures, quiz bank, lab problems); idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
[ -x .venv/bin/python ] && PY=.venv/bin/python
for cmd in import_lectures import_quizzes sync_problems; do
  if $PY manage.py help "$cmd" >/dev/null 2>&1; then echo "== $cmd"; $PY manage.py "$cmd"; fi
done
