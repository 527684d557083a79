#!/usr/bin/env bash
# clerk's command line as a user meets it: exit statuses, no half-written
# files, byte-identical output for one seed.
set -u
clerk=$1 data=$2 scenarios=$3
. "$(dirname "$0")/lib.sh"

expect_status 2 "unknown key" "$clerk" run "$data/bad-key.toml" --json "$tmp/bad.json"
grep -q "bad-key.toml:4: key 'nginx.sendfile_max_chunks': unknown key (did you mean 'sendfile_max_chunk'?)" "$tmp/err" \
  || fail "message for an unknown key: $(cat "$tmp/err")"
# md arrays (issue 25): a bad devices or chunk names the file, line and key.
expect_status 2 "md RAID1 of no drives" "$clerk" run "$data/raid1-bad-devices.toml"
grep -q "raid1-bad-devices.toml:4: key 'disk.devices': must be" "$tmp/err" || fail "md devices: $(cat "$tmp/err")"
expect_status 2 "md RAID10 chunk" "$clerk" run "$data/raid10-bad-chunk.toml"
grep -q "raid10-bad-chunk.toml:6: key 'disk.chunk': must be a power of two" "$tmp/err" || fail "md chunk: $(cat "$tmp/err")"
# Named pools (issue 15): aio threads=NAME of no pool, split_clients' shares over 100%.
expect_status 2 "unknown thread pool" "$clerk" run "$data/pools/unknown-pool.toml"
grep -q "unknown-pool.toml:5: key 'nginx.aio': aio threads=pool_none: no \[\[nginx.thread_pool\]\] is named \"pool_none\"" "$tmp/err" \
  || fail "unknown pool: $(cat "$tmp/err")"
expect_status 2 "split_clients over 100%" "$clerk" run "$data/pools/shares-over-100.toml"
grep -q "shares-over-100.toml:5: key 'nginx.split_clients.parts': percent total is greater than 100%" "$tmp/err" \
  || fail "shares over 100%: $(cat "$tmp/err")"
[ ! -e "$tmp/bad.json" ] && [ ! -e "$tmp/bad.json.tmp" ] || fail "a JSON file was written for bad input"
expect_status 2 "falling depths in a rate table" "$clerk" validate "$data/loader/ssd-sequential-depth-falling.toml"
grep -q "ssd-sequential-depth-falling.toml:23: key 'disk.sequential_depth_bandwidth': depths must rise" "$tmp/err" \
  || fail "message for falling depths: $(cat "$tmp/err")"
expect_status 2 "missing file" "$clerk" run "$tmp/none.toml"
expect_status 2 "include cycle" "$clerk" run "$data/include-cycle-a.toml"
expect_status 2 "bad override" "$clerk" run "$data/small-hdd.toml" --set nginx.worker_processes=-1
expect_status 2 "metadata_cached is gone" "$clerk" run "$data/small-hdd.toml" --set dataset.metadata_cached=true
grep -q "key 'dataset.metadata_cached': is gone" "$tmp/err" || fail "message for metadata_cached: $(cat "$tmp/err")"
expect_status 2 "unknown option" "$clerk" run "$data/small-hdd.toml" --sede 3
expect_status 2 "unwritable JSON" "$clerk" run "$data/small-hdd.toml" --duration 1 -q --json /nonexistent/x.json

expect_status 0 "run 1" "$clerk" run "$data/small-hdd.toml" --duration 2 --seed 9 --no-timing --json "$tmp/a.json"
cp "$tmp/out" "$tmp/a.txt"
expect_status 0 "run 2" "$clerk" run "$data/small-hdd.toml" --duration 2 --seed 9 --no-timing --json "$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || fail "same seed, different JSON"
cmp -s "$tmp/a.txt" "$tmp/out" || fail "same seed, different report"
grep -q '"requests_per_s"' "$tmp/a.json" || fail "JSON lacks clients.*.requests_per_s"
grep -q "Requests/sec:" "$tmp/a.txt" || fail "report lacks wrk's Requests/sec line"

# nginx.version (models/server/nginx_versions.h): the run says which release it modelled; with no
# version, the current stable line's newest; an unknown one is exit 2 naming the known releases.
grep -q "modelled: NGINX 1.9.0 " "$tmp/a.txt" || fail "report does not say it modelled the pinned NGINX 1.9.0"
grep -q '"nginx_version": "1.9.0"' "$tmp/a.json" || fail "JSON lacks nginx_version 1.9.0"
expect_status 0 "run without a version" "$clerk" run "$data/keys/preset.toml" --duration 0.2 --no-timing --json "$tmp/v.json"
grep -q "modelled: NGINX 1.30.4 " "$tmp/out" || fail "no version: report does not say NGINX 1.30.4"
grep -q '"nginx_version": "1.30.4"' "$tmp/v.json" || fail "no version: JSON nginx_version is not 1.30.4"
expect_status 2 "unknown NGINX version" "$clerk" run "$data/small-hdd.toml" --set nginx.version=\"1.22.2\"
grep -q "key 'nginx.version': must be a known NGINX release (1.9.0-1.9.15, .*1.30.0-1.30.4, 1.31.0-1.31.4), got \"1.22.2\"" "$tmp/err" \
  || fail "message for an unknown NGINX version: $(cat "$tmp/err")"

expect_status 1 "validate with a figure out of range" "$clerk" validate "$data/expect-fails.toml"
expect_status 0 "validate with a known miss" "$clerk" validate "$data/expect-known-miss.toml"
grep -q "known miss" "$tmp/out" || fail "a known miss is not reported as one"

# Trace replay (models/clients/trace.h) and clerk gen-log: the same log for the same seed, a log
# with no parsable line refused at its trace key, a replay's JSON the same for the same seed.
expect_status 0 "gen-log 1" "$clerk" gen-log -o "$tmp/g1.log" --duration 20s --rate 50 --files 100 --seed 4
expect_status 0 "gen-log 2" "$clerk" gen-log -o "$tmp/g2.log" --duration 20s --rate 50 --files 100 --seed 4
cmp -s "$tmp/g1.log" "$tmp/g2.log" || fail "gen-log: same seed, different log"
expect_status 2 "gen-log bad sizes" "$clerk" gen-log -o "$tmp/g3.log" --sizes 16k-1k:1
grep -q "sizes '16k-1k:1' is not" "$tmp/err" || fail "gen-log: message for bad sizes: $(cat "$tmp/err")"
[ ! -e "$tmp/g3.log" ] || fail "gen-log wrote a log for bad input"
# Each weight finite, their total not: every request went to the last class.
expect_status 2 "gen-log sizes whose weights overflow" "$clerk" gen-log -o "$tmp/g3.log" --sizes 1k-2k:1e308 3k-4k:1e308
expect_text "gen-log sizes whose weights overflow" "add up to more than a double holds"
expect_status 2 "a log with no parsable line" "$clerk" run "$data/trace/garbage.toml"
grep -q "garbage.toml:13: key 'clients.log.trace': no line of the access log .* matches log_format (2 lines; line 1: " "$tmp/err" \
  || fail "message for an unparsable log: $(cat "$tmp/err")"
expect_status 0 "replay 1" "$clerk" run "$data/trace/replay.toml" --no-timing -q --json "$tmp/t1.json"
expect_status 0 "replay 2" "$clerk" run "$data/trace/replay.toml" --no-timing -q --json "$tmp/t2.json"
cmp -s "$tmp/t1.json" "$tmp/t2.json" || fail "replay: same seed, different JSON"
grep -q '"malformed": 1' "$tmp/t1.json" || fail "replay JSON lacks the malformed line's count"
expect_status 2 "trace on SimGrid" "$clerk" run "$data/trace/replay.toml" --engine simgrid
grep -q "clients.log.trace" "$tmp/err" || fail "SimGrid does not refuse a trace group by name: $(cat "$tmp/err")"

echo "cli_behaviour: $failures failed"
[ "$failures" -eq 0 ]
