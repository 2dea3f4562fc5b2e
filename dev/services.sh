#!/usr/bin/env bash
# Local services for development and tests: PostgreSQL, Redis, a real Solr 9 with CKAN's schema and RabbitMQ
# (the broker of ckanext-harvest's amqp queue backend).
# Each binds to 127.0.0.1, has a pid file under dev/run/ and a readiness wait; `start` is idempotent and
# `stop` stops only what this script started.
# `start` also makes what one CKAN version needs (the Makefile passes them): the DATABASES, and the Solr cores
# SOLR_CORES (default: SOLR_CORE) with the schema of the CKAN installed in VENV (CKAN 2.11 refuses 2.12's schema,
# so each version has cores of its own; each parallel test worker has one).
# A second set of the same services runs beside the first under another SERVICES_NAME (its PostgreSQL cluster and
# RabbitMQ node name), SERVICES_RUN (its pid files and data) and ports: `make test` gives the service-fault tests
# one, so they can kill and restart services while the rest of the suite runs on the first.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SERVICES_NAME=${SERVICES_NAME:-passport}
RUN=${SERVICES_RUN:-"$ROOT/dev/run"}
VENV=${VENV:-"$ROOT/.venv"}
SOLR_CORE=${SOLR_CORE:-ckan}
SOLR_CORES=${SOLR_CORES:-$SOLR_CORE}
DATABASES=${DATABASES:-ckan_dev ckan_test ckan_bench}
PG_PORT=${PG_PORT:-5433}
REDIS_PORT=${REDIS_PORT:-6380}
SOLR_PORT=${SOLR_PORT:-8983}
AMQP_PORT=${AMQP_PORT:-5673}
SOLR_HEAP=${SOLR_HEAP:-512m}
PG_CLUSTER=$SERVICES_NAME
mkdir -p "$RUN"

log() { printf '[services] %s\n' "$*"; }

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }

wait_for() {  # wait_for SECONDS DESCRIPTION COMMAND...
  local seconds=$1 what=$2; shift 2
  for _ in $(seq "$seconds"); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  log "$what did not become ready in ${seconds}s"; return 1
}

pg_version() { ls /usr/lib/postgresql | sort -V | tail -n 1; }

start_postgres() {
  apt_install postgresql
  local v; v=$(pg_version)
  if ! pg_lsclusters -h | awk '{print $2}' | grep -qx "$PG_CLUSTER"; then
    log "creating PostgreSQL $v cluster '$PG_CLUSTER' on port $PG_PORT"
    pg_createcluster --start-conf=manual -p "$PG_PORT" "$v" "$PG_CLUSTER" -- --auth-local=peer --auth-host=scram-sha-256 >/dev/null
    echo "listen_addresses = '127.0.0.1'" >> "/etc/postgresql/$v/$PG_CLUSTER/postgresql.conf"
    # Tests create and drop tables constantly; durability is not wanted from a throwaway cluster.
    printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n' >> "/etc/postgresql/$v/$PG_CLUSTER/postgresql.conf"
  fi
  if ! pg_isready -q -h 127.0.0.1 -p "$PG_PORT"; then
    pg_ctlcluster "$v" "$PG_CLUSTER" start
    touch "$RUN/postgres.started"
  fi
  wait_for 30 PostgreSQL pg_isready -q -h 127.0.0.1 -p "$PG_PORT"
  head -n 1 "/var/lib/postgresql/$v/$PG_CLUSTER/postmaster.pid" > "$RUN/postgres.pid"
  as_postgres psql -q -p "$PG_PORT" -tc "SELECT 1 FROM pg_roles WHERE rolname='ckan'" | grep -q 1 \
    || as_postgres psql -q -p "$PG_PORT" -c "CREATE ROLE ckan LOGIN PASSWORD 'ckan'"
  for db in $DATABASES; do
    as_postgres psql -q -p "$PG_PORT" -tc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1 \
      || as_postgres createdb -p "$PG_PORT" -O ckan -E utf-8 "$db"
  done
  log "PostgreSQL ready on 127.0.0.1:$PG_PORT"
}

stop_postgres() {
  [ -f "$RUN/postgres.started" ] || { rm -f "$RUN/postgres.pid"; return 0; }
  pg_ctlcluster "$(pg_version)" "$PG_CLUSTER" stop -m fast || true
  rm -f "$RUN/postgres.started" "$RUN/postgres.pid"
}

# A pid file names a live process of ours only while that process runs the program named (PIDs are reused: a
# service that died long ago may leave its number to another process, which would then pass for the service).
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null && grep -qa -- "$2" "/proc/$(cat "$1")/cmdline" 2>/dev/null; }

start_redis() {
  apt_install redis-server
  mkdir -p "$RUN/redis"
  if ! alive "$RUN/redis.pid" redis-server; then
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --daemonize yes --pidfile "$RUN/redis.pid" \
      --dir "$RUN/redis" --save "" --appendonly no --logfile "$RUN/redis.log"
  fi
  wait_for 30 Redis redis-cli -p "$REDIS_PORT" ping
  log "Redis ready on 127.0.0.1:$REDIS_PORT"
}

stop_redis() {
  alive "$RUN/redis.pid" redis-server && kill "$(cat "$RUN/redis.pid")"
  rm -f "$RUN/redis.pid"
}

solr_ping() { curl -fsS "http://127.0.0.1:$SOLR_PORT/solr/$1/admin/ping?wt=json" | grep -q '"OK"'; }
solr_has_core() {
  curl -fsS "http://127.0.0.1:$SOLR_PORT/solr/admin/cores?action=STATUS&core=$1&wt=json" | grep -q '"instanceDir"'
}

# A core is configured from the installed CKAN's own schema.xml, copied fresh so a CKAN upgrade takes effect.
lay_out_core() {  # lay_out_core CORE SCHEMA
  local core="$RUN/solr/home/$1"
  mkdir -p "$core/conf"
  cp "$ROOT"/dev/solr/home/ckan/conf/* "$core/conf/"
  cp "$2" "$core/conf/schema.xml"
}

start_solr() {
  apt_install openjdk-17-jre-headless maven curl
  local jar="$ROOT/dev/solr/target/dev-solr-1.jar"
  if [ ! -f "$jar" ] || [ ! -d "$ROOT/dev/solr/target/lib" ] || [ "$ROOT/dev/solr/pom.xml" -nt "$jar" ]; then
    log "building the Solr runner (Maven Central)"
    (cd "$ROOT/dev/solr" && mvn -q -B package -DskipTests)
  fi
  local schema core
  schema=$("$VENV/bin/python" -c 'import ckan, os; print(os.path.join(os.path.dirname(ckan.__file__), "config/solr/schema.xml"))')
  mkdir -p "$RUN/solr/home"
  cp "$ROOT/dev/solr/home/solr.xml" "$RUN/solr/home/"
  for core in $SOLR_CORES; do lay_out_core "$core" "$schema"; done
  if ! alive "$RUN/solr.pid" SolrServer; then
    # Solr finds every core laid out so far when it starts.
    for core in $SOLR_CORES; do cp "$ROOT/dev/solr/home/ckan/core.properties" "$RUN/solr/home/$core/"; done
    (cd "$RUN/solr" || exit 1; exec nohup java -Xmx"$SOLR_HEAP" -Dsolr.log.dir="$RUN/solr" \
      -cp "$jar:$ROOT/dev/solr/target/lib/*" ckanext.passport.dev.SolrServer "$RUN/solr/home" "$SOLR_PORT" \
      > "$RUN/solr.log" 2>&1 & echo $! > "$RUN/solr.pid")
  else
    for core in $SOLR_CORES; do
      solr_has_core "$core" && continue
      # A running Solr takes a new core through its CoreAdmin API, which writes the core's core.properties.
      log "creating Solr core $core"
      curl -fsS -o /dev/null "http://127.0.0.1:$SOLR_PORT/solr/admin/cores?action=CREATE&name=$core&instanceDir=$core&config=solrconfig.xml&schema=schema.xml&dataDir=data"
    done
  fi
  for core in $SOLR_CORES; do
    wait_for 120 Solr solr_ping "$core" || { tail -n 30 "$RUN/solr.log"; return 1; }
  done
  log "Solr ready on http://127.0.0.1:$SOLR_PORT/solr/ (cores: $SOLR_CORES)"
}

stop_solr() {
  if alive "$RUN/solr.pid" SolrServer; then
    local pid; pid=$(cat "$RUN/solr.pid")
    kill "$pid"
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$RUN/solr.pid"
}

amqp_open() { timeout 1 bash -c "</dev/tcp/127.0.0.1/$AMQP_PORT" 2>/dev/null; }

as_rabbitmq() { if [ "$(id -u)" -eq 0 ]; then runuser -u rabbitmq -- "$@"; else sudo -u rabbitmq "$@"; fi; }

start_rabbitmq() {
  apt_install rabbitmq-server
  local home="$RUN/rabbitmq"
  # Debian's package starts a broker of its own under systemd where there is one; ours is a node of its own
  # (name, ports, files under dev/run), as Redis and PostgreSQL here are.
  if ! amqp_open; then
    mkdir -p "$home"
    if [ "$(id -u)" -eq 0 ]; then chown rabbitmq "$home"; else sudo chown rabbitmq "$home"; fi
    # +sbwt none: Erlang's schedulers would otherwise spin on idle cores, which a 2-core machine feels.
    as_rabbitmq env HOME="$home" RABBITMQ_NODENAME="$SERVICES_NAME@localhost" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
      RABBITMQ_NODE_PORT="$AMQP_PORT" RABBITMQ_DIST_PORT=$((AMQP_PORT + 20000)) \
      RABBITMQ_MNESIA_BASE="$home/mnesia" RABBITMQ_LOG_BASE="$home/log" RABBITMQ_PID_FILE="$home/rabbitmq.pid" \
      RABBITMQ_ENABLED_PLUGINS_FILE="$home/enabled_plugins" \
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="+sbwt none +sbwtdcpu none +sbwtdio none" \
      /usr/lib/rabbitmq/bin/rabbitmq-server -detached
    touch "$RUN/rabbitmq.started"
  fi
  wait_for 60 RabbitMQ amqp_open || { tail -n 30 "$home"/log/*.log; return 1; }
  log "RabbitMQ ready on amqp://127.0.0.1:$AMQP_PORT"
}

stop_rabbitmq() {
  [ -f "$RUN/rabbitmq.started" ] || return 0
  local pid_file="$RUN/rabbitmq/rabbitmq.pid"
  if [ -f "$pid_file" ] && kill -0 "$(cat "$pid_file")" 2>/dev/null; then
    local pid; pid=$(cat "$pid_file")
    kill "$pid"
    for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$RUN/rabbitmq.started"
}

case "${1:-}" in
  start) start_postgres; start_redis; start_solr; start_rabbitmq ;;
  stop) stop_rabbitmq; stop_solr; stop_redis; stop_postgres ;;
  status)
    pg_isready -h 127.0.0.1 -p "$PG_PORT" || true
    redis-cli -p "$REDIS_PORT" ping || true
    solr_ping "$SOLR_CORE" && echo "solr ok" || echo "solr down"
    amqp_open && echo "rabbitmq ok" || echo "rabbitmq down" ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
