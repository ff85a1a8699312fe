#!/usr/bin/env bash
# Back up the PostgreSQL database named by DATABASE_URL: pg_dump's custom format (compressed,
# restorable table by table), written atomically, with a .sha256 beside it.
#   DATABASE_URL=postgres://… scripts/backup.sh [OUT_DIR]     (default var/backups; prints the path)
# Media (var/media) is not in the database: back it up with the volume (docs/operations.md).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?DATABASE_URL must name the PostgreSQL database to back up}"
case "$DATABASE_URL" in
  postgres://* | postgresql://*) ;;
  *) echo "backup.sh: DATABASE_URL is not a PostgreSQL URL" >&2; exit 2 ;;
esac
pg_tool() { command -v "$1" 2>/dev/null || ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -1; }
PG_DUMP=$(pg_tool pg_dump)
[ -n "$PG_DUMP" ] || { echo "backup.sh: pg_dump not found (apt-get install postgresql-client)" >&2; exit 1; }
OUT=${1:-var/backups}
mkdir -p "$OUT"
file="$OUT/pdclab-$(date -u +%Y%m%dT%H%M%SZ).dump"
"$PG_DUMP" --format=custom --no-owner --no-privileges --dbname="$DATABASE_URL" --file="$file.part"
mv "$file.part" "$file"
(cd "$(dirname "$file")" && sha256sum "$(basename "$file")" >"$(basename "$file").sha256")
echo "$file"
