#!/usr/bin/env bash
# clerk run --engine simgrid stopped by Ctrl-C (probe 5, finding 8): SimGrid's
# engine took SIGINT for itself as it started, so the run listed every actor
# ("CTRL-C pressed. The current status will be displayed...") and exited 1,
# the figure-outside-tolerance status. Now SIGINT ends it as it ends a native
# run, and as SIGTERM and SIGHUP end both: killed by the signal (128 + its
# number), no listing. Each signal is sent once SimGrid's engine is up: clerk
# has become clerk-simgrid (it execs it) and SimGrid has taken SIGSEGV (right
# after SIGINT, EngineImpl::initialize). The scenario's world takes a second
# or more to build (786,432 files): SIGINT must end the run there too, which
# it did not while SimGrid's handler stayed until the world was built (CI on
# stop 41 caught that window with a quicker world).
set -u
clerk=$1 scenarios=$2
. "$(dirname "$0")/lib.sh"
scenario=$scenarios/cloudflare/blocking.toml

engine_up() {  # pid: clerk-simgrid with SimGrid's SIGSEGV handler (bit 10 of SigCgt)
  [[ $(readlink "/proc/$1/exe" 2>/dev/null) == */clerk-simgrid ]] || return 1
  local caught
  caught=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
  [ -n "$caught" ] && (((16#$caught >> 10) & 1))
}

for engine in simgrid native; do
  for sig in INT TERM HUP; do
    # A background job inherits SIGINT ignored: env gives clerk the default
    # disposition a terminal's job would have.
    env --default-signal=INT,TERM,HUP "$clerk" run "$scenario" --engine "$engine" -q --no-timing >/dev/null 2>"$tmp/err" &
    pid=$!
    if [ "$engine" = simgrid ]; then
      for _ in $(seq 1 500); do engine_up "$pid" && break; sleep 0.02; done
      engine_up "$pid" || fail "$engine SIG$sig: SimGrid's engine never started"
    else
      sleep 0.5
    fi
    sleep 0.2  # into the run
    kill -$sig "$pid"
    wait "$pid"
    status=$?
    want=$((128 + $(kill -l $sig)))
    [ "$status" -eq "$want" ] || fail "$engine run stopped by SIG$sig exited $status, not $want ($(head -c 300 "$tmp/err"))"
    ! grep -q "CTRL-C pressed" "$tmp/err" || fail "$engine run stopped by SIG$sig listed the actors: $(head -c 300 "$tmp/err")"
    [ ! -s "$tmp/err" ] || fail "$engine run stopped by SIG$sig wrote: $(head -c 300 "$tmp/err")"
  done
done

echo "simgrid_run_sigint: $failures failed"
[ "$failures" -eq 0 ]
