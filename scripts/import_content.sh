#!/usr/bin/env bash
# Import the course content (lectures, quiz bank, lab problems); idempotent. A failing import stops
# the script with its exit code: a site must not start with a part of the course silently missing.
# Last, announcements are stored as the current renderer draws them (the lecture import does that
# for lectures); one that fails to render keeps its HTML and is reported, and the site still starts.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
[ -x .venv/bin/python ] && PY=.venv/bin/python
for cmd in import_lectures import_quizzes sync_problems rerender_announcements; do
  echo "== $cmd"
  $PY manage.py "$cmd"
done
