#!/usr/bin/env bash
# clerk realrun --disk emulated, the short pair (issue 17): emulated/blocking
# and emulated/threads (one WD RE4 drive emulated by clerk-disk, 10 s each,
# one run) with real nginx and wrk. Checks the direction only, not the
# figures: without the pool the workers' main threads are in D more than in
# S, with it in S more than in D; the hot file's (constant group) requests/s
# are higher with the pool. And that nothing is left: no clerk-disk process
# of this run, no clerk-disk mount in its run folder, no run folder.
# Skipped (77) without root, /dev/fuse, nginx, wrk or python3.
# Usage: emulated_pair_test.sh CLERK CLERK_DISK TEST_DIR
set -uo pipefail
clerk=$1 disk=$2 dir=$3
[ "$(id -u)" -eq 0 ] || { echo "skip: not root"; exit 77; }
[ -c /dev/fuse ] || { echo "skip: no /dev/fuse"; exit 77; }
for tool in nginx wrk python3; do command -v $tool >/dev/null || { echo "skip: no $tool"; exit 77; }; done
work=$(mktemp -d /tmp/clerk-emulated-pair.XXXXXX)
trap 'rm -rf "$work"' EXIT
port=$((21000 + $$ % 20000))
timeout 300 "$clerk" realrun "$dir/emulated/blocking.toml" "$dir/emulated/threads.toml" --disk emulated \
  --disk-binary "$disk" --repeat 1 --port $port --json "$work/pair.json" >"$work/out.txt" 2>"$work/err.txt" &
pid=$!
wait $pid
rc=$?
cat "$work/out.txt"
[ $rc -eq 0 ] || { echo "FAIL: clerk realrun exited $rc: $(tail -20 "$work/err.txt")"; exit 1; }
failures=0
grep -q "own latency" "$work/out.txt" || { echo "FAIL: no clerk-disk own-latency line in the output"; failures=$((failures + 1)); }
grep " - fuse.clerk-disk " /proc/self/mountinfo | grep -q "/tmp/clerk-realrun-$pid-" &&
  { echo "FAIL: a clerk-disk mount of the run is left"; failures=$((failures + 1)); }
ls -d /tmp/clerk-realrun-$pid-* 2>/dev/null && { echo "FAIL: the run folder is left"; failures=$((failures + 1)); }
for p in $(pgrep -x clerk-disk); do
  tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q "/tmp/clerk-realrun-$pid-" &&
    { echo "FAIL: clerk-disk $p of the run is still running"; failures=$((failures + 1)); }
done
python3 - "$work/pair.json" <<'PY' || failures=$((failures + 1))
import json, sys
js = json.load(open(sys.argv[1]))["servers"]["nginx"]["scenarios"]
def run(i):
    return js[i]["runs"][0]
def share(r, key):
    w = r["workers"]
    return sum(x[key] for x in w) / len(w)
bad = 0
def check(ok, what):
    global bad
    print(("ok:   " if ok else "FAIL: ") + what)
    bad += not ok
b, t = run(0), run(1)
check(share(b, "disk_wait") > share(b, "sleeping"),
      "without the pool the workers are in D (%.2f) more than in S (%.2f)" % (share(b, "disk_wait"), share(b, "sleeping")))
check(share(t, "sleeping") > share(t, "disk_wait"),
      "with the pool the workers are in S (%.2f) more than in D (%.2f)" % (share(t, "sleeping"), share(t, "disk_wait")))
rb = b["groups"]["constant"]["requests_per_s"]
rt = t["groups"]["constant"]["requests_per_s"]
check(rt > rb, "the hot file's requests/s are higher with the pool (%.1f) than without (%.1f)" % (rt, rb))
sys.exit(1 if bad else 0)
PY
[ $failures -eq 0 ] && echo "emulated_pair_test: passed"
exit $((failures > 0))
