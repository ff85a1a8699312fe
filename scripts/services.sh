#!/usr/bin/env bash
# Throwaway PostgreSQL and Redis for tests, under var/ on free loopback ports.
#   scripts/services.sh start   -> starts both (idempotent) and writes var/test.env
#   scripts/services.sh stop    -> stops both
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
VAR="$ROOT/var"
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
NAME="${PDC_SERVICES_NAME:-test}"   # separate instances: `make services` (test) vs `make test` (maketest)
ENVFILE="$VAR/$NAME.env"
SVC="$VAR/svc-$NAME"
mkdir -p "$VAR"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# PostgreSQL refuses to run as root; run it as the `postgres` system user when we are root.
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_dir() {
  # The postgres user must be able to reach the data dir; a checkout under /root is not reachable.
  if [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$SVC" 2>/dev/null; then
    echo "/tmp/pdclab-pg-$NAME-$(echo "$ROOT" | md5sum | cut -c1-8)"
  else
    echo "$SVC/pg"
  fi
}

start() {
  [ -n "$PGBIN" ] || { echo "PostgreSQL server binaries not found; run 'make setup'" >&2; exit 1; }
  command -v redis-server >/dev/null || { echo "redis-server not found; run 'make setup'" >&2; exit 1; }
  mkdir -p "$SVC"; chmod 755 "$VAR" "$SVC"
  local pgdata; pgdata=$(pg_dir)
  if [ -f "$ENVFILE" ] && as_pg "$PGBIN/pg_ctl" -D "$pgdata/data" status >/dev/null 2>&1 \
     && redis-cli -p "$(grep -oP 'REDIS_PORT=\K\d+' "$ENVFILE")" ping >/dev/null 2>&1; then
    echo "services already running ($ENVFILE)"; return 0
  fi
  stop >/dev/null 2>&1 || true
  local pgport redisport; pgport=$(free_port); redisport=$(free_port)
  rm -rf "$pgdata"; mkdir -p "$pgdata/sock"
  [ "$(id -u)" = 0 ] && chown -R postgres "$pgdata"
  as_pg "$PGBIN/initdb" -D "$pgdata/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$SVC/pg-init.log" 2>&1
  # Throwaway cluster: durability off makes tests faster; never use these settings for real data.
  as_pg "$PGBIN/pg_ctl" -D "$pgdata/data" -l "$pgdata/pg.log" -w -o \
    "-p $pgport -k $pgdata/sock -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null
  mkdir -p "$SVC/redis"
  redis-server --port "$redisport" --bind 127.0.0.1 --daemonize yes --save "" --appendonly no \
    --dir "$SVC/redis" --pidfile "$SVC/redis/redis.pid" --logfile "$SVC/redis/redis.log"
  for _ in $(seq 50); do redis-cli -p "$redisport" ping >/dev/null 2>&1 && break; sleep 0.1; done
  as_pg "$PGBIN/createdb" -h 127.0.0.1 -p "$pgport" -U postgres pdclab
  cat >"$ENVFILE" <<ENV
DJANGO_ENV=test
DATABASE_URL=postgres://postgres@127.0.0.1:$pgport/pdclab
CELERY_BROKER_URL=redis://127.0.0.1:$redisport/0
PG_DATA=$pgdata/data
PG_PORT=$pgport
REDIS_PORT=$redisport
ENV
  echo "PostgreSQL on 127.0.0.1:$pgport, Redis on 127.0.0.1:$redisport ($ENVFILE)"
}

stop() {
  local pgdata; pgdata=$(pg_dir)
  if [ -d "$pgdata/data" ]; then as_pg "$PGBIN/pg_ctl" -D "$pgdata/data" -m fast -w stop >/dev/null 2>&1 || true; fi
  if [ -f "$SVC/redis/redis.pid" ]; then kill "$(cat "$SVC/redis/redis.pid")" 2>/dev/null || true; rm -f "$SVC/redis/redis.pid"; fi
  rm -f "$ENVFILE"
  echo "services stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
