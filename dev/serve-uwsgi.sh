#!/usr/bin/env bash
# Serves CKAN as a portal does: uWSGI (the pyuwsgi wheel of dev-requirements.txt) with dev/uwsgi.ini, a master and
# PROCESSES workers, each loading the application itself, on 127.0.0.1:PORT. In the foreground; SIGTERM stops it.
# Usage: CKAN_INI=config.ini dev/serve-uwsgi.sh [PORT] [PROCESSES]   (defaults 5000 and 2; `make demo` runs it so,
# and bench/bench_load.py on a port and database of its own). VENV: the virtualenv whose CKAN it serves (default
# .venv; the tests pass their own, one per CKAN version).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export CKAN_INI=${CKAN_INI:-"$ROOT/dev/ckan.ini"}
export CKAN_PORT=${1:-5000}
export CKAN_PROCESSES=${2:-2}
BIN=${VENV:-"$ROOT/.venv"}/bin
# `ckan run` builds CKAN's JavaScript messages (/api/i18n/<locale>) as it starts; uWSGI does not: without them every
# script's text (the resource form's Upload and Link, confirmations) is English.
"$BIN/ckan" translation js >/dev/null
exec "$BIN/uwsgi" --ini "$ROOT/dev/uwsgi.ini"
