#!/usr/bin/env bash
# Input at and past the limits of what a simulation can represent (issue 21,
# findings 4, 5, 6 and 9): never a crash, a hang or exit 0 on invalid input;
# exit 2 with a short message naming the option or key.
set -u
clerk=$1 data=$2
. "$(dirname "$0")/lib.sh"
expect_timeout=60

short_message() {  # description: no 309-digit numbers (finding 9)
  [ "$(wc -c <"$tmp/err")" -lt 400 ] || fail "$1: message of $(wc -c <"$tmp/err") bytes"
}

s="$data/small-hdd.toml"
for cmd in run compare; do
  for d in nan inf -1 0 1e-9 0.0009 1e15 1e308 1e400 abc; do
    expect_status 2 "$cmd --duration $d" "$clerk" $cmd "$s" --duration "$d"
    expect_message "$cmd --duration $d" "--duration: must be a number of seconds from 0.001 to 100000"
    short_message "$cmd --duration $d"
  done
  for seed in -1 1.5 x 99999999999999999999 9223372036854775808; do
    expect_status 2 "$cmd --seed $seed" "$clerk" $cmd "$s" --seed "$seed" --duration 1
    expect_message "$cmd --seed $seed" "--seed: must be a whole number from 0 to 9223372036854775807"
  done
done
expect_status 0 "the largest seed" "$clerk" run "$s" --seed 9223372036854775807 --duration 1 -q --no-timing

# Huge values in the scenario itself: refused at load, never "event
# scheduled in the past" (SIGABRT).
expect_status 2 "duration 1e300 in the scenario" "$clerk" run "$s" --set 'duration="1e300s"'
expect_status 2 "duration 1e300 on the SimGrid engine" "$clerk" run "$s" --engine simgrid --set 'duration="1e300s"'
expect_status 2 "a NIC of infinite line rate" "$clerk" run "$s" --duration 1 --set 'nic.line_rate="1e300Gbit/s"'

# A run that would not fit the machine is refused before it starts, with
# its estimate.
expect_status 2 "a run too large for the machine" "$clerk" run "$s" --duration 1 -q \
  --set clients.hot.connections=16000000 --set clients.hot.threads=16
expect_message "a run too large for the machine" "would need about .* GiB .*connections"

# Every command that runs a scenario checks it first, the same way: validate,
# sweep (each point), whatif, lesson (each step), with nothing written.
cat >"$tmp/big.toml" <<EOF
include = "$s"
[clients.hot]
connections = 16000000
threads = 16
[[expect]]
metric = "server.workers.count"
min = 1
documented = 2
EOF
expect_status 2 "validate of a run too large for the machine" "$clerk" validate "$tmp/big.toml"
expect_message "validate of a run too large for the machine" "big.toml: a run of .* would need about .* GiB .*connections"
[ ! -s "$tmp/out" ] || fail "validate ran something before refusing: $(head -c 200 "$tmp/out")"
printf 'include = "%s"\n[clients.hot]\nthreads = 16\nconnections = 16\n' "$s" >"$tmp/sixteen.toml"
expect_status 2 "a sweep point too large for the machine" "$clerk" sweep "$tmp/sixteen.toml" -q -o "$tmp/sw" \
  --set 'duration="1s"' --set clients.hot.connections=16,16000000
expect_message "a sweep point too large for the machine" "point 1 .*would need about .* GiB .*connections"
! ls "$tmp"/sw* >/dev/null 2>&1 || fail "the refused sweep wrote $(ls "$tmp"/sw*)"
expect_status 2 "whatif on a run too large for the machine" "$clerk" whatif "$tmp/big.toml" --threads 1,2 --duration 1
expect_message "whatif on a run too large for the machine" "would need about .* GiB .*connections"
mkdir "$tmp/les"
cat >"$tmp/les/1-big.toml" <<EOF
title = "Big"
summary = "A lesson whose step would not fit the machine."
[step.1]
title = "Too many connections"
scenario = "$s"
set = ["clients.hot.connections=16000000", "clients.hot.threads=16"]
setup = "Sixteen million connections."
explain = "{server.workers.count|int} workers."
[[step.1.expect]]
metric = "server.workers.count"
min = 1
EOF
expect_status 2 "a lesson step too large for the machine" "$clerk" lesson 1 --lessons "$tmp/les" --check
expect_message "a lesson step too large for the machine" "1-big.toml:.*key 'step.1.set'.*would need about .* GiB .*connections"
[ ! -s "$tmp/out" ] || fail "the lesson ran something before refusing: $(head -c 200 "$tmp/out")"
# The data set's files count too: 2^30 files ran out of memory halfway (exit 3). The
# disk holds their inodes (32t / 16 KiB = 2^31: ext4_layout.h), so the memory check decides.
expect_status 2 "a data set of 2^30 files" "$clerk" run "$s" --duration 1 -q --set dataset.files=1073741824 \
  --set 'dataset.tree=[32768,32768]' --set dataset.file_size=1 --set 'disk.capacity="32t"'
expect_message "a data set of 2^30 files" "would need about .* GiB .*data set files"

# validate on a folder that does not exist, or holds no scenario.
expect_status 2 "validate --scenarios on a missing folder" "$clerk" validate --scenarios "$tmp/none"
expect_message "validate --scenarios on a missing folder" "is not a folder"
mkdir "$tmp/empty"
expect_status 2 "validate --scenarios on an empty folder" "$clerk" validate --scenarios "$tmp/empty"

echo "cli_limits: $failures failed"
[ "$failures" -eq 0 ]
