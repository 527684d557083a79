#!/usr/bin/env bash
# Follow one customer (ui/replay.h) in a headless capture: lesson 1's
# blocked clerk (one worker, the popular item's customers behind another
# customer's disk reads), as the lesson runs it (the settled warm-up, 2 s
# into the measured window), the p99 request of the popular item's group
# replayed. At the start the customer is in the street; halfway through its
# longest stop it stands in the queue (most of a p99 customer's time there:
# waiting for a clerk who is at the warehouse for someone else). In both
# captures the customer is drawn where clerk-ui says it stands, inside that
# place.
# Usage: replay_capture_test.sh CLERK_UI PNG_CHECK SOURCE_DIR OUT_DIR
set -euo pipefail
ui=$1 check=$2 src=$3 out=$4
mkdir -p "$out"
rm -f "$out"/replay-*
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
scenario="$src/scenarios/nginx-9x/blocking.toml"
sets=(--set warmup=\"settled\" --set duration=\"5s\" --set nginx.worker_processes=1 --set clients.constant.threads=1 --set clients.constant.connections=4
      --set clients.random.threads=1 --set clients.random.connections=4)
"$src/ui/tools/with-xvfb" bash -c '
  set -e
  ui=$1 scenario=$2 out=$3
  shift 3
  "$ui" --scenario "$scenario" "$@" --at 2 --replay p99 --replay-at 0.1 --screenshot "$out/replay-start.png" >"$out/replay-start.txt"
  "$ui" --scenario "$scenario" "$@" --at 2 --replay p99 --replay-at longest --screenshot "$out/replay-longest.png" >"$out/replay-longest.txt"
' capture "$ui" "$scenario" "$out" "${sets[@]}"
check_at() {  # capture, expected place
  local shot=$out/replay-$1
  cat "$shot.txt"
  "$check" nonblank "$shot.png" >/dev/null || fail "$1: blank capture"
  read -r word which _ stop place x y _ x0 y0 x1 y1 < <(grep '^replay ' "$shot.txt") || true
  [ "${word:-}" = replay ] || { fail "$1: no replay in the capture"; return; }
  [ "$place" = "$2" ] || fail "$1: the customer is at the $place (stop $stop), not the $2"
  "$check" customer "$shot.png" "$x" "$y" || fail "$1: no customer drawn at $x,$y"
  [ "$x" -ge "$x0" ] && [ "$x" -le "$x1" ] && [ "$y" -ge "$y0" ] && [ "$y" -le "$y1" ] ||
    fail "$1: the customer at $x,$y is outside the $place ($x0,$y0-$x1,$y1)"
}
check_at start street
check_at longest queue
# And not where it stands later: the customer moved.
read -r _ _ _ _ _ lx ly _ < <(grep '^replay ' "$out/replay-longest.txt") || true
if "$check" customer "$out/replay-start.png" "$lx" "$ly"; then fail "at the start the customer is already in the queue"; fi
[ "$fails" = 0 ] || { echo "replay capture: $fails failures"; exit 1; }
echo "replay capture: ok"
