#!/usr/bin/env bash
# Serves the demo portal at http://127.0.0.1:5000 (services and database are prepared by `make demo`).
# `dev/demo.sh stop` stops the CKAN server it started.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN="$ROOT/dev/run"
BIN="$ROOT/.venv/bin"
export CKAN_INI="$ROOT/dev/ckan.ini"
PORT=5000
ADMIN=admin
PASSWORD=${DEMO_PASSWORD:-demo-admin-password}
mkdir -p "$RUN"

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

if [ "${1:-}" = stop ]; then
  if alive "$RUN/ckan.pid"; then
    pid=$(cat "$RUN/ckan.pid"); kill "$pid"
    for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$RUN/ckan.pid"
  exit 0
fi

if ! "$BIN/ckan" user show "$ADMIN" 2>/dev/null | grep -q "name=$ADMIN"; then
  "$BIN/ckan" user add "$ADMIN" email=admin@example.org password="$PASSWORD" >/dev/null
  "$BIN/ckan" sysadmin add "$ADMIN" >/dev/null
fi

if ! alive "$RUN/ckan.pid"; then
  # One process with a stable pid: no reloader, no threads spawning children.
  nohup "$BIN/ckan" run --host 127.0.0.1 --port "$PORT" --disable-reloader > "$RUN/ckan.log" 2>&1 &
  echo $! > "$RUN/ckan.pid"
fi
for _ in $(seq 60); do
  curl -fsS "http://127.0.0.1:$PORT/api/3/action/status_show" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$PORT/api/3/action/status_show" >/dev/null || { tail -n 30 "$RUN/ckan.log"; exit 1; }

cat <<TXT
CKAN demo is running at http://127.0.0.1:$PORT
  sysadmin login: $ADMIN / $PASSWORD
  log: dev/run/ckan.log        stop everything: make stop
TXT
