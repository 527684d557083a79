#!/usr/bin/env bash
# clerk validate --engine simgrid stopped by SIGINT, SIGTERM and SIGHUP while
# its SimGrid run is in progress (probe 4, finding 7): each run is a
# clerk-simgrid child working in a clerk-simgrid-XXXXXX folder of the
# temporary directory, which was left behind. Now clerk stops the child,
# removes the folder and dies of the signal: exit 128 + its number, nothing
# left in TMPDIR, no child alive.
set -u
clerk=$1 scenarios=$2
. "$(dirname "$0")/lib.sh"
export TMPDIR=$tmp/tmpdir
mkdir -p "$TMPDIR"
scenario=$scenarios/reuseport/remote-mutex-on.toml  # some seconds on SimGrid

for sig in INT TERM HUP; do
  # A background job inherits SIGINT ignored: env gives clerk the default
  # disposition a terminal's job would have.
  env --default-signal=INT,TERM,HUP "$clerk" validate "$scenario" --engine simgrid >/dev/null 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 1 600); do compgen -G "$TMPDIR/clerk-simgrid-*/output.txt" >/dev/null && break; sleep 0.02; done
  compgen -G "$TMPDIR/clerk-simgrid-*/output.txt" >/dev/null || fail "SIG$sig: the SimGrid run never started"
  children=$(pgrep -P "$pid")
  [ -n "$children" ] || fail "SIG$sig: no clerk-simgrid child"
  kill -$sig "$pid"
  wait "$pid"
  status=$?
  want=$((128 + $(kill -l $sig)))
  [ "$status" -eq "$want" ] || fail "validate stopped by SIG$sig exited $status, not $want ($(head -c 300 "$tmp/err"))"
  for child in $children; do
    for _ in $(seq 1 100); do kill -0 "$child" 2>/dev/null || break; sleep 0.02; done
    if kill -0 "$child" 2>/dev/null; then
      fail "the SimGrid run $child outlived validate stopped by SIG$sig"
      kill -KILL "$child"
    fi
  done
  [ -z "$(ls -A "$TMPDIR")" ] || fail "validate stopped by SIG$sig left $(ls -A "$TMPDIR")"
  rm -rf "${TMPDIR:?}"/*
done

echo "simgrid_validate_signals: $failures failed"
[ "$failures" -eq 0 ]
