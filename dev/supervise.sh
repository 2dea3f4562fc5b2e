#!/usr/bin/env bash
# What a portal's supervisor (systemd's Restart=always, supervisord's autorestart) does for a long-running process:
# runs COMMAND and starts it again 2 s after it exits, whatever its exit status. A harvest consumer whose broker,
# database or Solr goes away may die with its connection; it comes back as soon as the service does.
# Stopped by SIGTERM, SIGINT or SIGHUP, it stops COMMAND (SIGTERM, then SIGKILL after 20 s), waits for it and exits.
# Usage: dev/supervise.sh COMMAND [ARGS...]      (`make demo` runs its consumers and jobs worker this way)
# Each start and exit is logged on standard error, beside the command's own output.
set -uo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
NAME=$1
RESTART_DELAY=2
child=

say() { printf '[supervise %s] %s\n' "$(date '+%F %T')" "$*" >&2; }

stop() {
  trap '' TERM INT HUP
  if [ -n "$child" ] && kill -TERM "$child" 2>/dev/null; then
    for _ in $(seq 40); do kill -0 "$child" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$child" 2>/dev/null && say "$NAME did not stop within 20 s: killed"
    wait "$child" 2>/dev/null
  fi
  exit 0
}
trap stop TERM INT HUP

while :; do
  "$@" & child=$!
  say "started $* (pid $child)"
  # A trapped signal interrupts `wait`; the trap then stops the child and exits, so the loop goes on only when
  # the child itself ended.
  wait "$child"
  say "$NAME (pid $child) exited with status $?; starting it again in ${RESTART_DELAY} s"
  sleep "$RESTART_DELAY" & child=$!
  wait "$child"
done
