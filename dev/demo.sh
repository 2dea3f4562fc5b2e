#!/usr/bin/env bash
# Serves the demo portal at http://127.0.0.1:5000 (services and database are prepared by `make demo`) with the
# processes a portal runs: the CKAN server (uWSGI with two workers; DEMO_SERVER=ckan-run: `ckan run`, as `make serve`), ckanext-harvest's gather consumer and fetch consumer, the periodic
# `ckan harvester run` (dev/harvest-cron.sh, a portal's cron), `ckan jobs worker` and the site checks' own
# `ckan jobs worker passport_site_check`; plus the bundled MR site, a
# second, smaller MR site (a district's, dev/demo-region) and a mail sink (dev/mail_sink.py) that catches every mail.
# The consumers and the worker run under dev/supervise.sh, which starts each again when it exits.
# Each has a pid file and a log in dev/run; a process whose pid file names a live process is not started again.
# `dev/demo.sh stop` stops them all (the services stay: `make stop` stops those too).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUN="$ROOT/dev/run"
BIN="$ROOT/.venv/bin"
export CKAN_INI="$ROOT/dev/ckan.ini"
export PATH="$BIN:$PATH"
PORT=5000
SITE_PORT=8765
ADMIN=admin
PASSWORD=${DEMO_PASSWORD:-demo-admin-password}
SOURCE=demo-mr-site
# The demo's harvest leaves its records submitted, so that the review queue has work (dev/demo_workflow.py has the
# editor publish all but one); tests/e2e/test_demo_workflow.py harvests with this same config.
SOURCE_CONFIG='{"allow_private_addresses": true, "default_editorial_state": "submitted"}'
# The second source, for the scoreboard's history and the conformance mail: a district's site publishing one
# passport, harvested twice. Between the two harvests its publisher lists a new data version without uploading its
# file (dev/demo-region/second-edition), so the second job is worse and the district's admin is mailed. The source
# checks its newest data file (check_data), which is how the missing file is seen.
REGION=demo-mr-region
REGION_CONFIG='{"allow_private_addresses": true, "check_data": true}'
REGION_PORT=8766
REGION_ADMIN=spravce
REGION_PASSWORD=${DEMO_REGION_ADMIN_PASSWORD:-demo-region-admin-password}
# The third: a region's local catalog (LKOD) in the 2021-01-11 norm listing dataset documents mostly in 2024-05-28
# (dev/demo_lkod.py), harvested once as an `lkod` source; its page says which norms it read.
LKOD=demo-lkod-kraj
LKOD_CONFIG='{"allow_private_addresses": true}'
LKOD_PORT=8767
MAIL_PORT=8025  # dev/ckan.ini's smtp.server
HARVEST_RUN_EVERY=10  # seconds between two `ckan harvester run`, where a portal has cron
# Stopped in this order: the harvest processes write to the database and Solr, the sites feed them, the sink
# catches what they mail.
PROCESSES=(harvest-cron gather-consumer fetch-consumer jobs-worker site-check-worker ckan demo-site region-site lkod-site mail-sink)
mkdir -p "$RUN"

# True while the process named by a pid file lives (a zombie left for init is not running).
alive() {
  local stat
  [ -f "$1" ] && stat=$(ps -o stat= -p "$(cat "$1")") && [ "${stat:0:1}" != Z ]
}

# True while any process of a process group lives.
group_alive() {
  ps -e -o pgid=,stat= | awk -v group="$1" '$1 == group && $2 !~ /^Z/ { found = 1 } END { exit !found }'
}

# start NAME COMMAND...: in the background, as the leader of a session of its own (so stopping its group also
# stops its children: the cron's current run, the jobs worker's work horse), logging to dev/run/NAME.log.
start() {
  local name=$1; shift
  alive "$RUN/$name.pid" && return 0
  setsid bash -c 'echo $$ > "$0"; exec "$@"' "$RUN/$name.pid" "$@" < /dev/null > "$RUN/$name.log" 2>&1 &
  for _ in $(seq 20); do [ -s "$RUN/$name.pid" ] && break; sleep 0.1; done
}

stop() {
  local file="$RUN/$1.pid" pid
  if [ -f "$file" ]; then
    pid=$(cat "$file")
    # A pid file from before the processes had groups of their own names a plain process.
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 40); do { alive "$file" || group_alive "$pid"; } || break; sleep 0.5; done
    kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$file"
}

if [ "${1:-}" = stop ]; then
  for name in "${PROCESSES[@]}"; do stop "$name"; done
  exit 0
fi

# The bundled MR site (registry in every form, passports in every form, Windows-1251 files) on loopback.
start demo-site "$BIN/python" -m http.server "$SITE_PORT" --bind 127.0.0.1 --directory "$ROOT/dev/demo-site"
for _ in $(seq 20); do curl -fsS "http://127.0.0.1:$SITE_PORT/opendata/" >/dev/null 2>&1 && break; sleep 0.5; done

# The mail sink: dev/ckan.ini's smtp.server, every mail the portal sends written to dev/run/mail/<n>.eml.
start mail-sink "$BIN/python" "$ROOT/dev/mail_sink.py" "$MAIL_PORT" "$RUN/mail"

# region_edition FINISHED_JOBS: the district's site as its publisher has it when its source has that many finished
# jobs: the first edition before the first harvest, the second (a data version listed, its file not uploaded) after.
region_edition() {
  rm -rf "$RUN/region-site"
  mkdir -p "$RUN/region-site"
  cp -r "$ROOT/dev/demo-region/opendata" "$RUN/region-site/"
  [ "$1" -ge 1 ] && cp -r "$ROOT/dev/demo-region/second-edition/opendata" "$RUN/region-site/"
  return 0
}

if ! "$BIN/ckan" user show "$ADMIN" 2>/dev/null | grep -q "name=$ADMIN"; then
  "$BIN/ckan" user add "$ADMIN" email=admin@example.org password="$PASSWORD" >/dev/null
  "$BIN/ckan" sysadmin add "$ADMIN" >/dev/null
fi

# The site's harvest source, in an organization of its own.
if ! "$BIN/ckanapi" action organization_show -c "$CKAN_INI" id="$SOURCE" >/dev/null 2>&1; then
  "$BIN/ckanapi" action organization_create -c "$CKAN_INI" name="$SOURCE" title="Demo MR site" >/dev/null 2>&1
fi
if ! "$BIN/ckanapi" action harvest_source_show -c "$CKAN_INI" id="$SOURCE" >/dev/null 2>&1; then
  "$BIN/ckan" harvester source create "$SOURCE" "http://127.0.0.1:$SITE_PORT/opendata/" passport \
    "Demo MR site" true "$SOURCE" MANUAL "$SOURCE_CONFIG" \
    > "$RUN/demo-source.log" 2>&1 || { tail -n 20 "$RUN/demo-source.log"; exit 1; }
fi

# The district's site, its organization with an admin who has an e-mail address (the conformance mail's reader),
# and its source.
[ -d "$RUN/region-site/opendata" ] || region_edition 0
start region-site "$BIN/python" -m http.server "$REGION_PORT" --bind 127.0.0.1 --directory "$RUN/region-site"
if ! "$BIN/ckan" user show "$REGION_ADMIN" 2>/dev/null | grep -q "name=$REGION_ADMIN"; then
  "$BIN/ckan" user add "$REGION_ADMIN" email="$REGION_ADMIN@example.org" password="$REGION_PASSWORD" \
    fullname="Demo district admin" >/dev/null
fi
if ! "$BIN/ckanapi" action organization_show -c "$CKAN_INI" id="$REGION" >/dev/null 2>&1; then
  "$BIN/ckanapi" action organization_create -c "$CKAN_INI" name="$REGION" title="Demo district" >/dev/null
fi
"$BIN/ckanapi" action organization_member_create -c "$CKAN_INI" id="$REGION" username="$REGION_ADMIN" role=admin \
  >/dev/null
if ! "$BIN/ckanapi" action harvest_source_show -c "$CKAN_INI" id="$REGION" >/dev/null 2>&1; then
  "$BIN/ckan" harvester source create "$REGION" "http://127.0.0.1:$REGION_PORT/opendata/list.csv" passport \
    "Demo district" true "$REGION" MANUAL "$REGION_CONFIG" \
    > "$RUN/demo-source.log" 2>&1 || { tail -n 20 "$RUN/demo-source.log"; exit 1; }
fi

# The region's local catalog, its organization and its `lkod` source.
[ -f "$RUN/lkod-site/lkod/katalog.jsonld" ] || "$BIN/python" "$ROOT/dev/demo_lkod.py" "$RUN/lkod-site" \
  "http://127.0.0.1:$LKOD_PORT" > /dev/null
start lkod-site "$BIN/python" -m http.server "$LKOD_PORT" --bind 127.0.0.1 --directory "$RUN/lkod-site"
if ! "$BIN/ckanapi" action organization_show -c "$CKAN_INI" id="$LKOD" >/dev/null 2>&1; then
  "$BIN/ckanapi" action organization_create -c "$CKAN_INI" name="$LKOD" title="Demo region (LKOD)" >/dev/null
fi
if ! "$BIN/ckanapi" action harvest_source_show -c "$CKAN_INI" id="$LKOD" >/dev/null 2>&1; then
  "$BIN/ckan" harvester source create "$LKOD" "http://127.0.0.1:$LKOD_PORT/lkod/katalog.jsonld" lkod \
    "Demo region's local catalog (LKOD, 2021-01-11)" true "$LKOD" MANUAL "$LKOD_CONFIG" \
    > "$RUN/demo-source.log" 2>&1 || { tail -n 20 "$RUN/demo-source.log"; exit 1; }
fi

# The harvest machinery: jobs created from the web (Reharvest) or the API start and finish by themselves.
# The Czech publishers, each an organization with its IČO and so a catalog of its own
# (/lkod/organization/<name>/catalog), and the Czech records the demo's local catalog (LKOD, /lkod/catalog) publishes,
# each in its publisher's organization (its owner_org); created once, then the curators'.
while IFS= read -r organization; do
  name=$("$BIN/python" -c 'import json, sys; print(json.loads(sys.argv[1])["name"])' "$organization")
  "$BIN/ckanapi" action organization_show -c "$CKAN_INI" id="$name" >/dev/null 2>&1 && continue
  "$BIN/ckanapi" action organization_create -c "$CKAN_INI" -i <<< "$organization" > "$RUN/demo-records.log" 2>&1 \
    || { echo "The demo organization $name was refused:"; tail -n 20 "$RUN/demo-records.log"; exit 1; }
done < "$ROOT/dev/demo-organizations.jsonl"
while IFS= read -r record; do
  name=$("$BIN/python" -c 'import json, sys; print(json.loads(sys.argv[1])["name"])' "$record")
  "$BIN/ckanapi" action package_show -c "$CKAN_INI" id="$name" >/dev/null 2>&1 && continue
  "$BIN/ckanapi" action package_create -c "$CKAN_INI" -i <<< "$record" > "$RUN/demo-records.log" 2>&1 \
    || { echo "The demo record $name was refused:"; tail -n 20 "$RUN/demo-records.log"; exit 1; }
done < "$ROOT/dev/demo-records.jsonl"

# The consumers and the jobs worker under dev/supervise.sh, as a portal's supervisor keeps them: one that dies (its
# broker, database or Solr gone) is started again 2 s later.
start gather-consumer "$ROOT/dev/supervise.sh" "$BIN/ckan" harvester gather-consumer
start fetch-consumer "$ROOT/dev/supervise.sh" "$BIN/ckan" harvester fetch-consumer
start harvest-cron "$ROOT/dev/harvest-cron.sh" "$HARVEST_RUN_EVERY"
# CKAN's default queue: link checks, openness checks and CKAN's own jobs.
start jobs-worker "$ROOT/dev/supervise.sh" "$BIN/ckan" jobs worker
# The publishers' site checks (/passport/check) on their own queue: one worker, so one check runs at a time and the
# others wait, up to ckanext.passport.site_check_max_queued.
start site-check-worker "$ROOT/dev/supervise.sh" "$BIN/ckan" jobs worker passport_site_check

# The web server as a portal runs it: uWSGI with two workers (dev/serve-uwsgi.sh, the portal's contrib/uwsgi ini);
# `make serve` (DEMO_SERVER=ckan-run) keeps CKAN's development server, one process with a stable pid: no reloader.
if [ "${DEMO_SERVER:-uwsgi}" = ckan-run ]; then
  start ckan "$BIN/ckan" run --host 127.0.0.1 --port "$PORT" --disable-reloader
else
  start ckan "$ROOT/dev/serve-uwsgi.sh" "$PORT" 2
fi
for _ in $(seq 60); do
  curl -fsS "http://127.0.0.1:$PORT/api/3/action/status_show" >/dev/null 2>&1 && break
  sleep 1
done
curl -fsS "http://127.0.0.1:$PORT/api/3/action/status_show" >/dev/null || { tail -n 30 "$RUN/ckan.log"; exit 1; }

# "<finished jobs> <status of its last job or none> <datasets it holds>" of a source, asked as the site.
source_status() {
  { "$BIN/ckanapi" action harvest_source_show -c "$CKAN_INI" id="$1" | "$BIN/python" -c '
import json, sys
status = json.load(sys.stdin)["status"]
last = (status["last_job"] or {}).get("status", "none")
print(status["job_count"] - (last not in ("none", "Finished")), last, status["total_datasets"])'; } 2>/dev/null \
    || echo "0 unreadable 0"
}

# wait_finished SOURCE: until its last job finished (at most 120 s), then its source_status.
wait_finished() {
  local deadline=$((SECONDS + 120)) finished job datasets
  while read -r finished job datasets < <(source_status "$1"); [ "$job" != Finished ] && [ "$job" != none ] \
    && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 2
  done
  echo "$finished $job $datasets"
}

# Jobs finished before the scoreboard kept summaries (an older demo database) summarized, so that a source's next job
# has its previous one to be compared with; a job summarized already is left as it is.
"$BIN/ckan" passport scoreboard summarize > "$RUN/demo-summarize.log" 2>&1 \
  || { echo "ckan passport scoreboard summarize failed:"; tail -n 20 "$RUN/demo-summarize.log"; exit 1; }

# Each source harvested twice through the machinery, like any other job, both sources' jobs side by side: the
# scoreboard has a history, and the district's second job (its site's second edition) is worse and mailed. Later
# runs leave the harvested catalog be.
for round in 1 2; do
  started=()
  # The local catalog once, in the first round.
  for source in "$SOURCE" "$REGION" $([ "$round" = 1 ] && echo "$LKOD"); do
    read -r finished job datasets < <(wait_finished "$source")
    [ "$finished" -ge "$round" ] && continue
    [ "$source" = "$REGION" ] && region_edition "$finished"
    "$BIN/ckan" harvester job "$source" > "$RUN/demo-harvest.log" 2>&1 || { tail -n 30 "$RUN/demo-harvest.log"; exit 1; }
    started+=("$source")
  done
  for source in "${started[@]}"; do wait_finished "$source" > /dev/null; done
done
read -r region_finished region_job _ < <(source_status "$REGION")
read -r lkod_finished lkod_job lkod_datasets < <(source_status "$LKOD")
lkod_documents=$(PYTHONPATH="$ROOT/dev" "$BIN/python" -c 'import demo_lkod; print(len(demo_lkod.DOCUMENTS))')
if [ "$lkod_job" != Finished ] || [ "$lkod_datasets" != "$lkod_documents" ]; then
  echo "The demo's local catalog did not land its $lkod_documents datasets (last job: $lkod_job, datasets: $lkod_datasets)"
  for name in gather-consumer fetch-consumer; do echo "== dev/run/$name.log"; tail -n 20 "$RUN/$name.log"; done
  exit 1
fi
read -r finished job datasets < <(source_status "$SOURCE")
passports=$(find "$ROOT/dev/demo-site/opendata" -mindepth 1 -maxdepth 1 -type d | wc -l)
if [ "$job" != Finished ] || [ "$datasets" != "$passports" ] || [ "$finished" -lt 2 ] \
  || [ "$region_job" != Finished ] || [ "$region_finished" -lt 2 ]; then
  echo "The demo harvests did not land the site's $passports passports in two jobs (last job: $job, finished jobs:" \
    "$finished, datasets: $datasets) or the district's in two (last job: $region_job, finished jobs: $region_finished):"
  for name in gather-consumer fetch-consumer harvest-cron; do echo "== dev/run/$name.log"; tail -n 20 "$RUN/$name.log"; done
  exit 1
fi

# The editorial workflow with people: the editors organization of dev/ckan.ini, an editor, a curator of the demo's
# organizations; the curator completes the harvested records and the editor publishes all but one, which awaits review.
workflow=$("$BIN/python" "$ROOT/dev/demo_workflow.py" 2> "$RUN/demo-workflow.log") \
  || { echo "The demo's workflow setup failed:"; tail -n 20 "$RUN/demo-workflow.log"; exit 1; }

cat <<TXT
CKAN demo is running at http://127.0.0.1:$PORT ($(if [ "${DEMO_SERVER:-uwsgi}" = ckan-run ]; then echo "ckan run, one process"; else echo "uWSGI, 2 worker processes"; fi))
  harvested the demo MR site at http://127.0.0.1:$SITE_PORT/opendata/ ($datasets datasets): http://127.0.0.1:$PORT/harvest/$SOURCE
  harvest processes: gather consumer, fetch consumer, \`ckan jobs worker\` and the site checks' \`ckan jobs worker passport_site_check\`
    (each restarted by dev/supervise.sh when it exits),
    \`ckan harvester run\` every 10 s and, every sixth run, \`ckan passport check-index --recent 10 --repair\`
  site check (as a sysadmin, tick "private addresses" to check the demo site): http://127.0.0.1:$PORT/passport/check
  local catalog for the national catalog (LKOD, DCAT-AP-CZ): http://127.0.0.1:$PORT/lkod/catalog (about it: /lkod/)
    and each Czech publisher's own (its IČO in its organization): http://127.0.0.1:$PORT/lkod/organization/ministerstvo-dopravy/catalog, …
  sysadmin login: $ADMIN / $PASSWORD
$(sed "s/^/  /" <<< "$workflow")
  scoreboard (both sources, two jobs each): http://127.0.0.1:$PORT/passport/scoreboard
  a region's local catalog in the 2021-01-11 norm, its documents mostly in 2024-05-28, harvested as an lkod source
    ($lkod_datasets datasets; the norms it read on its page): http://127.0.0.1:$PORT/harvest/$LKOD
  a district's MR site at http://127.0.0.1:$REGION_PORT/opendata/list.csv, harvested twice, its second edition worse:
    http://127.0.0.1:$PORT/harvest/$REGION/conformance    the district's admin (mailed): $REGION_ADMIN / $REGION_PASSWORD
  Mail sink: 127.0.0.1:$MAIL_PORT, mails in dev/run/mail/ ($(find "$RUN/mail" -name '*.eml' 2>/dev/null | wc -l) caught so far)
  logs: dev/run/*.log        stop the processes: dev/demo.sh stop        and the services too: make stop
TXT
