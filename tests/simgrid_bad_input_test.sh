#!/usr/bin/env bash
# Bad input found while a SimGrid world is built (a preload larger than the
# page cache: the NIC's and the disk's actors already exist) is clerk's one
# error line and exit 2, on stderr alone: SimGrid's shutdown wrote "Process
# called exit when leaving - Skipping cleanups" before and after it, for the
# actors of the world given up (probe 5). The text report and --json alike;
# a run that ends well writes nothing on stderr either.
#   simgrid_bad_input_test.sh CLERK DATA_DIR
set -u
clerk=$1 data=$2
. "$(dirname "$0")/lib.sh"
expect_timeout=120

too_much=(--set dataset.preload_fraction=1.0 --duration 0.5)
only_clerk() {  # description: stderr is clerk's one error line, naming the key
  expect_text "$1" "key 'dataset.preload_fraction': the preloaded files take"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$1: more than clerk's line on stderr: $(cat "$tmp/err")"
  grep -q "Skipping cleanups\|ker_engine" "$tmp/err" && fail "$1: SimGrid's shutdown warns: $(cat "$tmp/err")"
}
expect_status 2 "run, a preload beyond the cache" "$clerk" run "$data/small-hdd.toml" --engine simgrid "${too_much[@]}"
only_clerk "run"
expect_status 2 "run --json, a preload beyond the cache" "$clerk" run "$data/small-hdd.toml" --engine simgrid \
  "${too_much[@]}" --json "$tmp/r.json"
only_clerk "run --json"
[ ! -e "$tmp/r.json" ] || fail "run --json wrote its output for bad input"
expect_status 0 "run, a good scenario" "$clerk" run "$data/small-hdd.toml" --engine simgrid --duration 0.5 -q --no-timing
[ -z "$(stderr_without_asan_notes)" ] || fail "a good SimGrid run wrote on stderr: $(cat "$tmp/err")"

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "simgrid_bad_input_test: ok"
