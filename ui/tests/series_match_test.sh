#!/usr/bin/env bash
# One source of numbers (issue 22): clerk-ui's plotted series (--series,
# headless) equal `clerk run --json`'s per-second figures on the same seed,
# within 1%, for a closed loop (9x without a pool) and open loops (the
# Cloudflare blocking run and the reuseport slow-read runs). Short runs, to
# keep the suite's time low; the last argument of each check is the least
# number of series it must compare (NIC; per group requests, latency p50/p99,
# time to first byte p50/p99 and the latency heat map; the share delayed
# behind a blocked loop).
# Usage: series_match_test.sh CLERK CLERK_UI SERIES_CHECK SOURCE_DIR OUT_DIR
set -euo pipefail
clerk=$1 ui=$2 check=$3 src=$4 out=$5
mkdir -p "$out"
rm -f "$out"/*.json
compare() {  # NAME FILE SECONDS MIN_SERIES
  local name=$1 file=$src/scenarios/$2 seconds=$3 min=$4
  "$clerk" run "$file" --set "duration=\"${seconds}s\"" --set 'warmup="0s"' --json "$out/$name-cli.json" --no-timing -q
  "$ui" --scenario "$file" --set "duration=\"${seconds}s\"" --series "$out/$name-ui.json"
  echo "$name:"
  "$check" "$out/$name-ui.json" "$out/$name-cli.json" "$min"
}
compare 9x-blocking nginx-9x/blocking.toml 4 14
compare cloudflare-blocking cloudflare/blocking.toml 3 8
for p in mutex-off mutex-on reuseport; do
  compare "slow-read-$p" "reuseport/slow-read-$p.toml" 3 8
done
echo "series match: ok"
