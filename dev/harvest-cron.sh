#!/usr/bin/env bash
# What a portal's cron does for ckanext-harvest, every INTERVAL seconds (default 10): `ckan harvester run`
# creates the jobs of scheduled sources, marks a job "Finished" once its objects are all done, and re-queues
# queue items that were lost. Without it a job started from the web stays "Running" for ever.
# Every sixth round it also runs `ckan passport check-index --recent 10 --repair`: the records changed in the last
# 10 minutes compared with their search index documents and indexed again where they differ (a Solr that was down
# mid-harvest). It exits 1 when records differ and were not repaired; like any failure of either command, that is
# logged and the loop goes on.
# Every 360th round (an hour at the default interval) it runs `ckan passport notices digest`: an organization's
# digest goes out once, then not again for six days, so this is the weekly digest a portal's crontab runs weekly
# (docs/scoreboard.md, "Mail"); without smtp.server it sends nothing.
# Usage: CKAN_INI=config.ini dev/harvest-cron.sh [INTERVAL]   (`make demo` and the tests run it this way)
# CKAN names the `ckan` command to run (default: .venv's); the tests pass their own CKAN version's.
set -uo pipefail
CKAN=${CKAN:-"$(cd "$(dirname "$0")/.." && pwd)/.venv/bin/ckan"}
INTERVAL=${1:-10}
CHECK_EVERY=6
DIGEST_EVERY=360
child=
round=0
# Stopped by a signal, it ends and reaps the run in progress rather than leaving it orphaned.
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; wait; exit 0' TERM INT HUP

# run COMMAND...: in the background (so a signal reaches the trap at once), its failure logged, never fatal.
run() {
  local status
  "$@" & child=$!
  wait "$child"; status=$?
  [ "$status" -eq 0 ] || echo "[harvest-cron $(date '+%F %T')] ${*:2} exited with status $status" >&2
}

while :; do
  round=$((round + 1))
  run "$CKAN" harvester run
  [ $((round % CHECK_EVERY)) -eq 0 ] && run "$CKAN" passport check-index --recent 10 --repair
  [ $((round % DIGEST_EVERY)) -eq 0 ] && run "$CKAN" passport notices digest
  sleep "$INTERVAL" & child=$!
  wait "$child"
done
