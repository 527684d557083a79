#!/usr/bin/env bash
# clerk compare --figure on runs with little or nothing to show: a panel
# with no value is drawn empty and says so, a series with no value in a
# panel that has others stays in the legend marked "no data", and neither
# is an internal error. Before, gnuplot stopped ("No valid points in
# histogram") on a client group that completed no request in any run (a
# short --duration) and clerk exited 3. Needs gnuplot (skipped without it).
set -u
clerk=$1 data=$2 scenarios=$3
. "$(dirname "$0")/lib.sh"
expect_timeout=120
cd "$tmp" || exit 1
command -v gnuplot >/dev/null || { echo "SKIP: no gnuplot"; exit 0; }

drawn() {  # description, prefix, text the SVG must hold: both pictures, no word from gnuplot
  [ -s "$2.png" ] && [ -s "$2.svg" ] || { fail "$1: no figure"; return; }
  ! grep -Eqi "warning|error|valid points" "$tmp/err" || fail "$1: stderr: $(head -c 300 "$tmp/err")"
  grep -qF -- "$3" "$2.svg" || fail "$1: the figure lacks '$3'"
  grep -q "requests/s" "$tmp/out" || fail "$1: no table"
}

# One group of one run completes nothing in 0.2 s: its latency series has
# no value in the log panels, which still draw the other run's.
expect_status 0 "compare: a group with no completed request" "$clerk" compare "$data/small-hdd.toml" \
  "$scenarios/agreement/hits.toml" --duration 0.2 --figure "$tmp/short"
drawn "compare: a group with no completed request" "$tmp/short" "(no data)"

# Nothing completes in either run: the latency panels have no value at all.
expect_status 0 "compare: no request completed" "$clerk" compare "$data/small-hdd.toml" \
  "$scenarios/agreement/hits.toml" --duration 0.001 --figure "$tmp/none"
drawn "compare: no request completed" "$tmp/none" "no value to draw"

# One run alone, with nothing completed.
expect_status 0 "compare: one run, nothing completed" "$clerk" compare "$data/small-hdd.toml" --duration 0.001 \
  --figure "$tmp/one"
drawn "compare: one run, nothing completed" "$tmp/one" "no value to draw"

[ "$failures" -eq 0 ] || exit 1
echo "compare empty panels: all passed"
