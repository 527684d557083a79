#!/usr/bin/env bash
# Probe 5, finding 4: SIGINT, SIGTERM or SIGHUP while the writer has a
# temporary file left ".NAME.XXXXXX" beside `run --json`, `compare` and
# `sweep -o` outputs (and clerk new's and import's, with their loader folders
# in TMPDIR: review of probe 5's fixes, finding 3). Here each command is
# stopped at each of its temporary files in turn, at the very moment it
# exists: CLERK_TEST_PAUSE_AT_TEMPORARY=N
# (common/stop_signals.h) keeps the Nth temporary in place until a stop
# signal comes, so no timing is guessed. Afterwards: the command died of the
# signal (exit 128 + N, as before), no temporary is left, and no output the
# stopped write was for is there (nothing replaced). N counts up until the
# command finishes without pausing (exit 0: every temporary was visited).
# Finding 9: a command with several outputs that fails on one writes none.
#   stop_signal_outputs_test.sh CLERK DATA_DIR SCENARIOS_DIR
set -u
clerk=$1 data=$2 scenarios=$3
. "$(dirname "$0")/lib.sh"
expect_timeout=60

s=$data/small-hdd.toml
signals=(INT TERM HUP)

# Hidden files under `folder` (temporaries, and a plot's work folder kept
# there through TMPDIR), as paths relative to it.
hidden() { (cd "$1" && find . -mindepth 1 -name '.*' | sed 's|^\./||' | sort); }

# Stops `command...` (run in `folder`, a fresh folder each time, with its
# TMPDIR inside) at its 1st, 2nd, ... temporary file, cycling through the
# signals, until it finishes without one.
stop_at_each_temporary() {  # what, folder, command...
  local what=$1 d=$2 n=1 pid st seen sig want left target
  shift 2
  while :; do
    rm -rf "$d" && mkdir -p "$d/tmp"
    # env --default-signal: a background job of a script starts with SIGINT ignored.
    (cd "$d" && TMPDIR=$d/tmp CLERK_TEST_PAUSE_AT_TEMPORARY=$n exec prlimit --cpu=60 \
      env --default-signal=INT,TERM,HUP "$@") >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    # The writer says when it holds temporary number n (common/output_file.cpp).
    seen=
    for _ in $(seq 1200); do
      if grep -q "CLERK_TEST_PAUSE_AT_TEMPORARY=$n: holding" "$tmp/err"; then
        # A hidden ".NAME.XXXXXX", or a held folder in TMPDIR (clerk new's and import's loader folder).
        seen=$( { hidden "$d" | grep -E '(^|/)\.[^/]+\.[A-Za-z0-9]{6}$'; ls -A "$d/tmp" | sed 's|^|tmp/|'; } )
        break
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    if ! grep -q "CLERK_TEST_PAUSE_AT_TEMPORARY=$n: holding" "$tmp/err"; then  # ended without a temporary n: all visited
      wait "$pid"
      st=$?
      [ "$st" -eq 0 ] || fail "$what, unpaused at temporary $n: exit $st ($(head -c 300 "$tmp/err"))"
      break
    fi
    [ -n "$seen" ] || fail "$what: temporary $n was said but is not there"
    sig=${signals[$((n % 3))]}
    kill -s "$sig" "$pid"
    wait "$pid" 2>/dev/null  # (bash's own "Hangup" line for the job)
    st=$?
    want=$((128 + $(kill -l "$sig")))
    [ "$st" -eq "$want" ] || fail "$what, SIG$sig at temporary $n ($seen): exit $st, wanted $want ($(head -c 300 "$tmp/err"))"
    left=$(hidden "$d")
    [ -z "$left" ] || fail "$what, SIG$sig at temporary $n ($seen) left: $left"
    [ -z "$(ls -A "$d/tmp" 2>/dev/null)" ] || fail "$what, SIG$sig at temporary $n left in TMPDIR: $(ls -A "$d/tmp")"
    for t in $seen; do  # ".NAME.XXXXXX" was for NAME: not written
      target=$(dirname "$t")/$(basename "$t" | sed 's/^\.//; s/\.[A-Za-z0-9]\{6\}$//')
      case $target in ./tmp/*|tmp/*) continue ;; esac  # a plot's own work file
      [ ! -e "$d/$target" ] || fail "$what, SIG$sig at temporary $n ($seen): $target was written all the same"
    done
    n=$((n + 1))
    if [ "$n" -gt 12 ]; then fail "$what: still pausing at temporary 12"; break; fi
  done
  [ "$n" -gt 1 ] || fail "$what: no temporary was ever seen"
  echo "$what: stopped at each of $((n - 1)) temporaries"
}

stop_at_each_temporary "run --json" "$tmp/run" "$clerk" run "$s" --duration 1 -q --no-timing --json o.json
stop_at_each_temporary "compare --json" "$tmp/cmp" "$clerk" compare "$s" "$scenarios/agreement/hits.toml" \
  --duration 1 --json c.json
stop_at_each_temporary "sweep -o" "$tmp/sweep" "$clerk" sweep "$s" --set duration=0.5s \
  --set nginx.worker_processes=1,2 -j 1 -q -o k
if command -v gnuplot >/dev/null; then
  stop_at_each_temporary "compare --figure --json" "$tmp/cmpfig" "$clerk" compare "$s" \
    "$scenarios/agreement/hits.toml" --duration 1 --figure f --json c.json
else
  echo "stop_signal_outputs: gnuplot not installed, compare --figure skipped"
fi
# Review of probe 5's fixes, finding 3: clerk new (its loader folder, then
# its new name's temporary) and clerk import (two loader folders, then its
# output's temporary).
stop_at_each_temporary "new" "$tmp/new" "$clerk" new n.toml
printf 'events {}\nhttp {\n  sendfile on;\n  server { listen 80; }\n}\n' >"$tmp/nginx.conf"
stop_at_each_temporary "import" "$tmp/import" "$clerk" import "$tmp/nginx.conf" -o i.toml
stop_at_each_temporary "lesson --handout" "$tmp/lesson" "$clerk" lesson 1 --lessons "$data/lessons" --handout .

# Finding 9: several outputs, one a link to /dev/full: exit 2 and none written.
d=$tmp/sets
mkdir -p "$d/ho"
if command -v gnuplot >/dev/null; then
  ln -s /dev/full "$d/fs.svg"
  expect_status 2 "compare with its .svg onto /dev/full" "$clerk" compare "$s" "$scenarios/agreement/hits.toml" \
    --duration 1 --figure "$d/fs" --json "$d/fs.json"
  expect_text "compare with its .svg onto /dev/full" "No space left"
  for f in fs.png fs.json; do [ ! -e "$d/$f" ] || fail "compare wrote $f beside a failed .svg"; done
  ln -s /dev/full "$d/fj.json"
  expect_status 2 "compare with its JSON onto /dev/full" "$clerk" compare "$s" "$scenarios/agreement/hits.toml" \
    --duration 1 --figure "$d/fj" --json "$d/fj.json"
  for f in fj.png fj.svg; do [ ! -e "$d/$f" ] || fail "compare wrote $f beside a failed JSON"; done
fi
ln -s /dev/full "$d/ho/1-tiny-teacher.md"
expect_status 2 "lesson --handout with the teacher's page onto /dev/full" "$clerk" lesson 1 --lessons "$data/lessons" \
  --handout "$d/ho"
[ ! -e "$d/ho/1-tiny.md" ] || fail "lesson --handout wrote the student's page beside a failed teacher's page"
# A sweep: its rows are the runs' record, appended as they finish and kept;
# the summary failing says so, and --resume writes it without running again.
ln -s /dev/full "$d/sw.summary.csv"
expect_status 2 "sweep with its summary onto /dev/full" "$clerk" sweep "$s" --set duration=0.5s \
  --set nginx.worker_processes=1,2 -j 1 -q -o "$d/sw" --overwrite
expect_text "sweep with its summary onto /dev/full" "--resume writes the summary"
rm "$d/sw.summary.csv"
expect_status 0 "sweep --resume after its summary failed" "$clerk" sweep "$s" --set duration=0.5s \
  --set nginx.worker_processes=1,2 -j 1 -q -o "$d/sw" --resume
grep -q "0 now" "$tmp/err" || fail "sweep --resume ran again: $(head -c 300 "$tmp/err")"
[ -s "$d/sw.summary.csv" ] || fail "sweep --resume wrote no summary"
[ -z "$(hidden "$d")" ] || fail "the failed sets left $(hidden "$d")"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "stop_signal_outputs: ok"
