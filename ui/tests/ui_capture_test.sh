#!/usr/bin/env bash
# clerk-ui's headless capture on the 9x scenario, without and with
# `aio threads` (same seed): the screenshots are not blank, and where the
# store is drawn the blocked store differs from the unblocked one and is the
# warm one (queues grown, clerks at the warehouse).
# Usage: ui_capture_test.sh CLERK_UI PNG_CHECK SOURCE_DIR OUT_DIR
set -euo pipefail
ui=$1 check=$2 src=$3 out=$4
mkdir -p "$out"
rm -f "$out"/*.png
scenario="$src/scenarios/nginx-9x/blocking.toml"
"$src/ui/tools/with-xvfb" bash -c '
  set -e
  "$1" --scenario "$2" --at 15 --screenshot "$3/blocking.png"
  "$1" --scenario "$2" --at 15 --screenshot "$3/blocking-store.png" --crop store
  "$1" --scenario "$2" --set nginx.aio=threads --at 15 --screenshot "$3/threads-store.png" --crop store
' capture "$ui" "$scenario" "$out"
"$check" nonblank "$out/blocking.png"
"$check" nonblank "$out/threads-store.png"
"$check" differ "$out/blocking-store.png" "$out/threads-store.png" 0.05
"$check" warmer "$out/blocking-store.png" "$out/threads-store.png"
echo "ui capture: ok"
