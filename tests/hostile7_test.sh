#!/usr/bin/env bash
# Hostile probe 7 (2026-11-29): each command-line finding fixed, checked
# against what it was (each section says what). The loader's and the
# estimate's parts are unit tests (loader_limits_test.cpp,
# estimate_resources_test.cpp), the plot's and the ranges' too
# (sweep_stats_test.cpp, sweep_plan_test.cpp).
#   hostile7_test.sh CLERK DATA_DIR SCENARIOS_DIR
set -u
clerk=$1 data=$2 scenarios=$3
. "$(dirname "$0")/lib.sh"
expect_timeout=120
cp "$data/small-hdd.toml" "$tmp/"
s=$tmp/small-hdd.toml
cd "$tmp" || exit 1

# A raw C0 control or DEL in a command's output, line breaks and tabs aside.
expect_no_control() {  # description, file
  if grep -qP '[\x00-\x08\x0b-\x1f\x7f]' "$2"; then
    fail "$1: a raw control byte in: $(grep -naP '[\x00-\x08\x0b-\x1f\x7f]' "$2" | head -3 | cat -v)"
  fi
}

# Finding 4: clerk new's own option checks printed the value raw (an OSC
# sequence set the terminal's title).
for o in --nginx --page-cache --file-sizes --popularity; do
  expect_status 2 "new $o with an escape" "$clerk" new n.toml "$o" $'1\e]0;PWNED\a'
  expect_no_control "new $o's message" "$tmp/err"
  expect_text "new $o's message" '1\x1b]0;PWNED\x07'
  [ -e n.toml ] && fail "new $o with an escape wrote a file"
done

# Finding 5: ranged whole-number options took hex, a leading space and -0
# (CLI11 reads "0x10" as 16); an empty --confidence was the default.
expect_status 2 "new --workers 0x10" "$clerk" new h.toml --workers 0x10
expect_text "new --workers 0x10" "--workers: must be a whole number from 1 to 1024"
[ -e h.toml ] && fail "new --workers 0x10 wrote a file"
expect_status 2 "new --pool-threads ' 8'" "$clerk" new h.toml --pool-threads ' 8'
for j in 0x10 -0 ''; do
  expect_status 2 "sweep -j '$j'" "$clerk" sweep "$s" --set duration=0.01,0.02 -j "$j" --dry-run
done
expect_status 2 "gen-log --files 0x10" "$clerk" gen-log -o g.log --duration 1 --files 0x10
[ -e g.log ] && fail "gen-log --files 0x10 wrote a file"
expect_status 2 "sweep --confidence ''" "$clerk" sweep "$s" --set duration=0.01,0.02 --confidence '' --dry-run
expect_text "sweep --confidence ''" "--confidence: must be a decimal number"
expect_status 0 "new --workers 16" "$clerk" new h.toml --workers 16
grep -q '^worker_processes = 16' h.toml || fail "new --workers 16: $(grep worker_processes h.toml)"
expect_status 0 "sweep -j 1" "$clerk" sweep "$s" --set duration=0.01,0.02 -j 1 --dry-run

# Finding 6: the report lost after a command's files were written said
# nothing of them (a `clerk new` retried was told its file exists).
expect_status 2 "new onto a full stdout" bash -c '"$0" new n3.toml >/dev/full' "$clerk"
expect_text "new onto a full stdout" "the files the command writes, if any, are written whole"
[ -s n3.toml ] || fail "new onto a full stdout: no n3.toml"
expect_status 2 "a refused run onto a full stdout" bash -c '"$0" run nothing.toml >/dev/full' "$clerk"
grep -q "written whole" "$tmp/err" && fail "a refused run said its files were written: $(cat "$tmp/err")"

# Finding 7: a range of times in 1 ns steps far from 0: four distinct runs,
# each shown as itself (they read "1000s" and were refused as given twice,
# or the last was dropped).
expect_status 0 "sweep warmup 1000s..1000.000000003s:1ns" "$clerk" sweep "$s" \
  --set 'warmup=1000s..1000.000000003s:1ns' --dry-run
expect_status 0 "sweep warmup 0.1s..0.100000003s:1ns" "$clerk" sweep "$s" --set 'warmup=0.1s..0.100000003s:1ns' --dry-run
grep -q "4 points" "$tmp/out" || fail "0.1s..0.100000003s:1ns: not 4 points: $(head -3 "$tmp/out")"
grep -qF "100.000003ms" "$tmp/out" || fail "0.1s..0.100000003s:1ns: no last point: $(head -3 "$tmp/out")"
expect_status 2 "a step under a nanosecond" "$clerk" sweep "$s" --set 'warmup=1s..2s:0.1ns' --dry-run
expect_text "a step under a nanosecond" "is under 1ns, the clock's tick"

# Finding 8 (minors).
# clerk run --hardware takes a preset by name, as new and import do.
b=$scenarios/local/blocking.toml  # includes ../hardware/local.toml
expect_status 0 "run --hardware local" "$clerk" run "$b" --duration 0.01 -q --no-timing \
  --hardware local --json a.json
expect_status 0 "run --hardware @hardware/local" "$clerk" run "$b" --duration 0.01 -q --no-timing \
  --hardware @hardware/local --json b.json
cmp -s a.json b.json || fail "--hardware local and @hardware/local differ"
expect_status 2 "run --hardware nosuch" "$clerk" run "$b" --duration 0.01 -q --no-timing --hardware nosuch
expect_text "run --hardware nosuch" "no hardware preset of that name"
expect_text "run --hardware nosuch" "local"
# A sub-second run says its length.
expect_status 0 "a run of 0.2 s" "$clerk" run "$s" --duration 0.2 --no-timing
grep -q "0.2 s simulated" "$tmp/out" || fail "a run of 0.2 s: $(head -2 "$tmp/out")"
# clerk compare refuses one scenario named twice.
expect_status 2 "compare one scenario twice" "$clerk" compare "$s" "./small-hdd.toml" --duration 0.01
expect_text "compare one scenario twice" "the same scenario twice"

[ "$failures" -eq 0 ] || exit 1
