#!/usr/bin/env bash
# What a portal's cron does for ckanext-harvest, every INTERVAL seconds (default 10): `ckan harvester run`
# creates the jobs of scheduled sources, marks a job "Finished" once its objects are all done, and re-queues
# queue items that were lost. Without it a job started from the web stays "Running" for ever.
# Usage: CKAN_INI=config.ini dev/harvest-cron.sh [INTERVAL]   (`make demo` and the tests run it this way)
# CKAN names the `ckan` command to run (default: .venv's); the tests pass their own CKAN version's.
set -uo pipefail
CKAN=${CKAN:-"$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/ckan"}
INTERVAL=${1:-10}
child=
# Stopped by a signal, it ends and reaps the run in progress rather than leaving it orphaned.
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; wait; exit 0' TERM INT HUP
while :; do
  "$CKAN" harvester run & child=$!
  wait "$child"
  sleep "$INTERVAL" & child=$!
  wait "$child"
done
