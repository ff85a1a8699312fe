#!/usr/bin/env bash
# Restore a dump made by scripts/backup.sh into an EMPTY PostgreSQL database, then check it:
# the checksum first, the restore in one transaction (all or nothing), then `migrate --check`
# (the schema is what this code expects) and a count of the rows that matter, to compare with
# the live site.
#   scripts/restore.sh DUMP TARGET_DATABASE_URL
set -euo pipefail
cd "$(dirname "$0")/.."
dump=${1:?usage: restore.sh DUMP TARGET_DATABASE_URL}
target=${2:?usage: restore.sh DUMP TARGET_DATABASE_URL}
pg_tool() { command -v "$1" 2>/dev/null || ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -1; }
PG_RESTORE=$(pg_tool pg_restore)
PSQL=$(pg_tool psql)
[ -n "$PG_RESTORE" ] && [ -n "$PSQL" ] || { echo "restore.sh: pg_restore/psql not found" >&2; exit 1; }
(cd "$(dirname "$dump")" && sha256sum --check --quiet "$(basename "$dump").sha256")
tables=$("$PSQL" --dbname="$target" -Atc "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
if [ "$tables" != 0 ]; then
  echo "restore.sh: the target database already has $tables tables; restore into an empty one" >&2
  exit 2
fi
"$PG_RESTORE" --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$target" "$dump"
PY=${PYTHON:-.venv/bin/python}
DATABASE_URL="$target" "$PY" manage.py migrate --check >/dev/null
DATABASE_URL="$target" "$PY" manage.py shell -c "
from django.contrib.auth import get_user_model
from gradebook.models import Grade, GradeEvent
from gradinglab.models import Submission
from quizzes.models import Attempt
print('restored:', {'users': get_user_model().objects.count(), 'grades': Grade.objects.count(),
      'grade_events': GradeEvent.objects.count(), 'submissions': Submission.objects.count(),
      'attempts': Attempt.objects.count()})"
