#!/usr/bin/env bash
# Hostile probe 8 (2026-11-29): each finding of the scenario's own code,
# checked against what it was (each section says what). The plot's axis
# reading is a unit test (sweep_stats_test.cpp).
#   hostile8_test.sh CLERK DATA_DIR
set -u
clerk=$1 data=$2
. "$(dirname "$0")/lib.sh"
expect_timeout=120
cd "$tmp" || exit 1

# A scenario of the small test machine whose only client group replays
# `log` as its whole data set (dataset = "log"), on `disk` bytes, placed as `placement`.
log_scenario() {  # file, log, disk capacity, placement
  sed -e '/^\[clients\./,$d' -e "s/^capacity = .*/capacity = \"$3\"/" \
    -e "s/^placement = .*/placement = \"$4\"/" "$data/small-hdd.toml" >"$1"
  printf '\n[clients.log]\nconnections = 2\ntrace = "%s"\ndataset = "log"\n' "$2" >>"$1"
}
log_line() {  # path, bytes
  printf '1.2.3.4 - - [12/Mar/2026:09:15:02 +0100] "GET %s HTTP/1.1" 200 %s "-" "ua"\n' "$1" "$2"
}

# Findings 1 and 2: the files an access log adds were never checked against
# the disk: a 600 GB file on a 500 GB disk with the spread placement, and
# more paths than ext4 has inodes (a 1 GiB disk: 8,192 a 128 MiB group),
# were exit 3, internal errors ("the files do not fit on the device", "out
# of inodes"). Now exit 2 naming the group's trace key.
log_line /a 600000000000 >big.log
for placement in spread ext4; do
  log_scenario big-$placement.toml big.log 500g $placement
  expect_status 2 "a 600 GB file from a log, $placement" "$clerk" run big-$placement.toml --duration 1
  expect_message "a 600 GB file from a log, $placement" "big-$placement.toml:[0-9]+: key 'clients.log.trace'.*(do not fit|does not fit)"
done
seq 0 69999 | while read -r i; do log_line "/f$i" 1; done >many.log
for placement in spread ext4; do
  log_scenario many-$placement.toml many.log 1g $placement
  expect_status 2 "70,000 paths from a log on 1 GiB, $placement" "$clerk" run many-$placement.toml --duration 1
  expect_message "70,000 paths from a log on 1 GiB, $placement" "many-$placement.toml:[0-9]+: key 'clients.log.trace'.*inodes"
done
# And what fits still runs.
log_line /a 4096 >small.log
log_scenario small.toml small.log 500g spread
expect_status 0 "a log that fits" "$clerk" run small.toml --duration 0.1

# Finding 5: a written time was rounded up to a whole nanosecond (1.000000001
# s ran 1,000,000,002 ns, the same run as 1.000000002 s), and a fixed
# warm-up ended up to n-1 ns early (1000.000000001 s to ...003 s all ended at
# 999.999999999 s).
# The JSON writes seconds as doubles (1.0000000020000002 for 2 ns over 1 s):
# a time is the one asked for when it is within 0.1 ns of it.
duration_of() { grep -o '"duration_s": [0-9.e+-]*' "$1" | head -1 | cut -d' ' -f2; }
took_of() { grep -o '"took_s": [0-9.e+-]*' "$1" | head -1 | cut -d' ' -f2; }
within_a_tenth_ns() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-10 && d > -1e-10) }'; }
for d in 1.000000001 1.000000002; do
  expect_status 0 "--duration $d" "$clerk" run "$data/small-hdd.toml" --duration $d --no-timing --json d$d.json
  within_a_tenth_ns "$(duration_of d$d.json)" $d || fail "--duration $d ran $(duration_of d$d.json) s"
done
for w in 1000.000000001 1000.000000002 1000.000000003; do
  expect_status 0 "warmup $w s" "$clerk" run "$data/small-hdd.toml" --duration 0.1 --set warmup=${w}s --no-timing --json w$w.json
  within_a_tenth_ns "$(took_of w$w.json)" $w || fail "warmup ${w}s ended at $(took_of w$w.json) s"
done

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
echo "hostile probe 8: ok"
