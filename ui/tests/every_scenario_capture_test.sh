#!/usr/bin/env bash
# Every runnable scenario opens in the real clerk-ui, under Xvfb (issue 22):
# a screenshot of the A/B view mid-run (both panes, OpenGL and all), not
# blank; every other scenario in the small window (1280x800) with the text
# 1.5 times its size and the latency percentiles tab open. (t = 0 and the
# end, alone and A/B, every view and tooltip, are every_scenario_test.cpp's,
# without a display.)
# The list is the loader's (models/scenario/scenario_files.h), printed by
# clerk-ui --list-scenarios, the picker's own list. Runs are cut to 2 s.
# Usage: every_scenario_capture_test.sh CLERK_UI PNG_CHECK SOURCE_DIR OUT_DIR
set -euo pipefail
ui=$1 check=$2 src=$3 out=$4
mkdir -p "$out"
rm -f "$out"/*.png
mapfile -t files < <("$ui" --list-scenarios)
[ "${#files[@]}" -ge 20 ] || { echo "only ${#files[@]} runnable scenarios listed" >&2; exit 1; }
"$src/ui/tools/with-xvfb" bash -c '
  set -e
  ui=$1 out=$2; shift 2
  i=0
  for f in "$@"; do
    name=$(basename "$(dirname "$f")")-$(basename "$f" .toml)
    small=()
    if (( i++ % 2 )); then small=(--width 1280 --height 800 --font-scale 1.5 --tails); fi
    "$ui" --scenario "$f" --set "duration=\"2s\"" --ab --at 1 "${small[@]}" --screenshot "$out/$name-ab.png"
  done
' capture "$ui" "$out" "${files[@]}"
for png in "$out"/*.png; do "$check" nonblank "$png"; done
echo "every scenario capture: ${#files[@]} scenarios ok"
