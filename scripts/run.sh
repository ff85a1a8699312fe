#!/usr/bin/env bash
# `make run`: embedded defaults (SQLite + filesystem broker under var/), web on 127.0.0.1:8000 and one
# CPU grading worker. Ctrl-C stops both. PDC_PORT picks the port; the site URL (links, the worker
# credential) and the worker's API URL follow it, so results come back to this server.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PDC_PORT:-8000}
export PDC_SITE_URL=${PDC_SITE_URL:-http://127.0.0.1:$PORT}
export PDC_API_URL=${PDC_API_URL:-$PDC_SITE_URL}
PY=.venv/bin/python
mkdir -p var
$PY manage.py migrate --noinput -v 0
[ "${PDC_SKIP_IMPORT:-0}" = 1 ] || scripts/import_content.sh
echo "== demo users"
$PY manage.py create_demo_users
$PY manage.py ensure_local_worker   # the CPU worker's API credential, also when imports are skipped
$PY manage.py publish_demo_labs     # demo only: every problem published, graded on the CPU path
$PY manage.py publish_demo_quiz     # demo only: a graded quiz (3 picked questions + a rule)
pids=()
cleanup() { trap - INT TERM EXIT; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup INT TERM EXIT
# prefork pool: Celery enforces task time limits only there.
.venv/bin/celery -A pdcsite worker -Q grade-cpu,default --pool prefork --concurrency 1 \
  --hostname "cpu@%h" --loglevel INFO -B &
pids+=($!)
# With the autoreloader an edited template or Python file shows without restarting the script.
# Its child, the server, goes too when the script stops it: on SIGTERM the reloader exits
# through subprocess.run, which kills the child.
$PY manage.py runserver "127.0.0.1:$PORT" &
pids+=($!)
echo "PDC Lab: $PDC_SITE_URL/  (Ctrl-C stops the web server and the worker)"
wait -n "${pids[@]}"
