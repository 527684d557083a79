#!/usr/bin/env bash
# Bad input to clerk-ui: exit status 2 and a message naming what is wrong,
# before any window is opened (so no display is needed).
# Usage: ui_bad_input_test.sh CLERK_UI SOURCE_DIR
set -uo pipefail
ui=$1 src=$2
expect() {  # expect WHAT-THE-MESSAGE-NAMES ARGS...
  local names=$1; shift
  local out rc
  out=$(env -u DISPLAY "$ui" "$@" 2>&1); rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q -- "$names" <<<"$out"; then
    echo "FAIL: clerk-ui $*: exit $rc, expected 2 and a message naming '$names'; got: $out"
    exit 1
  fi
  echo "ok: clerk-ui $* -> $out"
}
expect "no-such.toml" --scenario /nonexistent/no-such.toml
expect "nginx.aio" --scenario "$src/scenarios/nginx-9x/blocking.toml" --set nginx.aio=sometimes
expect "--crop" --crop store
# Numbers out of range: short messages, no wrapped seed (issue 21, findings 6 and 9).
expect "--seed: must be a whole number" --seed -1
expect "--seed: must be a whole number" --seed 18446744073709551615
expect "--at: must be a number of seconds from 0 to 100000" --at nan
expect "--at: must be a number of seconds from 0 to 100000" --at 1e308
# The replay's group: one of the scenario's, named with the option (not the first in its place).
expect "--replay-group: 'randum': no client group of that name in this run (its groups: constant, random)" \
  --scenario "$src/scenarios/nginx-9x/blocking.toml" --at 1 --replay p99 --replay-group randum
expect "--replay-group needs --replay" --scenario "$src/scenarios/nginx-9x/blocking.toml" --replay-group random
# NaN passed CLI::Range and sscanf's %f (issue 21, finding 6).
expect "--speed: must be a number" --speed nan
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover nan,nan
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover 1,inf
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover -5,5
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover 5,5,5
# --screenshot through the project's writer, checked before anything runs
# (issue 21, finding 2): a link planted at the path is refused, not followed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "keep me" >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/shot.png"
expect "symbolic link" --screenshot "$tmp/shot.png"
[ "$(cat "$tmp/victim")" = "keep me" ] || { echo "FAIL: --screenshot wrote through a link"; exit 1; }
expect "names a folder" --screenshot "$tmp/"
expect "no folder" --screenshot "$tmp/none/shot.png"
# --series through the same writer (issue 22), checked before anything runs.
ln -s "$tmp/victim" "$tmp/series.json"
expect "symbolic link" --series "$tmp/series.json"
[ "$(cat "$tmp/victim")" = "keep me" ] || { echo "FAIL: --series wrote through a link"; exit 1; }
expect "names a folder" --series "$tmp/"
expect "--series and --screenshot" --series "$tmp/s.json" --screenshot "$tmp/s.png"
