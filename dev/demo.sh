#!/usr/bin/env bash
# Serves the demo portal at http://127.0.0.1:5000 (services and database are prepared by `make demo`).
# `dev/demo.sh stop` stops the CKAN server it started.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN="$ROOT/dev/run"
BIN="$ROOT/.venv/bin"
export CKAN_INI="$ROOT/dev/ckan.ini"
export PATH="$BIN:$PATH"
PORT=5000
ADMIN=admin
PASSWORD=${DEMO_PASSWORD:-demo-admin-password}
mkdir -p "$RUN"

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop_pid() {
  if alive "$1"; then
    local pid; pid=$(cat "$1"); kill "$pid"
    for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$1"
}

if [ "${1:-}" = stop ]; then
  stop_pid "$RUN/ckan.pid"
  stop_pid "$RUN/demo-site.pid"
  exit 0
fi

# The bundled MR site (registry in every form, passports in every form, Windows-1251 files) on loopback.
SITE_PORT=8765
if ! alive "$RUN/demo-site.pid"; then
  nohup "$BIN/python" -m http.server "$SITE_PORT" --bind 127.0.0.1 --directory "$ROOT/dev/demo-site" \
    > "$RUN/demo-site.log" 2>&1 &
  echo $! > "$RUN/demo-site.pid"
fi
for _ in $(seq 20); do curl -fsS "http://127.0.0.1:$SITE_PORT/opendata/" >/dev/null 2>&1 && break; sleep 0.5; done

if ! "$BIN/ckan" user show "$ADMIN" 2>/dev/null | grep -q "name=$ADMIN"; then
  "$BIN/ckan" user add "$ADMIN" email=admin@example.org password="$PASSWORD" >/dev/null
  "$BIN/ckan" sysadmin add "$ADMIN" >/dev/null
fi

# Harvest it once into an organization of its own; later runs find everything unchanged.
if ! "$BIN/ckanapi" action organization_show -c "$CKAN_INI" id=demo-mr-site >/dev/null 2>&1; then
  "$BIN/ckanapi" action organization_create -c "$CKAN_INI" name=demo-mr-site title="Demo MR site" >/dev/null 2>&1
fi
if ! "$BIN/ckanapi" action harvest_source_show -c "$CKAN_INI" id=demo-mr-site >/dev/null 2>&1; then
  "$BIN/ckan" harvester source create demo-mr-site "http://127.0.0.1:$SITE_PORT/opendata/" passport \
    "Demo MR site" true demo-mr-site MANUAL \
    '{"allow_private_addresses": true, "default_editorial_state": "published"}' \
    > "$RUN/demo-source.log" 2>&1 || { tail -n 20 "$RUN/demo-source.log"; exit 1; }
fi
"$BIN/ckan" harvester run-test demo-mr-site > "$RUN/demo-harvest.log" 2>&1 || { tail -n 30 "$RUN/demo-harvest.log"; exit 1; }

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
  harvested the demo MR site at http://127.0.0.1:$SITE_PORT/opendata/ ($("$BIN/ckanapi" action package_search -c "$CKAN_INI" fq=organization:demo-mr-site rows=0 | "$BIN/python" -c 'import json,sys; print(json.load(sys.stdin)["count"])') datasets)
  sysadmin login: $ADMIN / $PASSWORD
  log: dev/run/ckan.log        stop everything: make stop
TXT
