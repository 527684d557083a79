#!/usr/bin/env bash
# clerk keys and clerk new (issue 25): the committed key reference is the
# loader's (a key added without its documentation fails here), and a starter
# scenario runs unchanged, is never written over a file and never half-written.
set -u
clerk=$1 root=$2
. "$(dirname "$0")/lib.sh"
expect_timeout=120

# The reference: docs/scenario-keys.md is `clerk keys --markdown`, byte for byte.
expect_status 0 "keys --markdown" "$clerk" keys --markdown
cmp -s "$tmp/out" "$root/docs/scenario-keys.md" ||
  fail "docs/scenario-keys.md differs from 'clerk keys --markdown' (regenerate: scripts/regen-keys build): $(diff "$tmp/out" "$root/docs/scenario-keys.md" | head -5)"
expect_status 0 "keys nginx" "$clerk" keys nginx
grep -q "worker_processes (whole number, 1 to 1024, in processes, default 1)" "$tmp/out" || fail "keys nginx: $(head -3 "$tmp/out")"
grep -q "^\[nginx.thread_pool\]" "$tmp/out" && fail "keys nginx printed another table"
expect_status 0 "keys clients.NAME" "$clerk" keys clients.NAME
grep -q "popularity" "$tmp/out" || fail "keys clients.NAME lacks popularity"
expect_status 2 "keys of no table" "$clerk" keys nosuch
expect_message "keys of no table" "no table 'nosuch'; the tables are: top, cpu, memory, disk"
expect_status 2 "keys --markdown with a table" "$clerk" keys nginx --markdown
# Probe 6: a table as a scenario names it is the reference's table of that
# kind, said so (it was "no table 'clients.hot'").
expect_status 0 "keys clients.hot" "$clerk" keys clients.hot
head -1 "$tmp/out" | grep -qF "[clients.hot] takes the keys of [clients.NAME]:" || fail "keys clients.hot: $(head -2 "$tmp/out")"
grep -q "popularity" "$tmp/out" || fail "keys clients.hot lacks popularity"
expect_status 0 "keys clients.hot.rtt" "$clerk" keys clients.hot.rtt
head -1 "$tmp/out" | grep -qF "takes the keys of [clients.NAME.rtt]:" || fail "keys clients.hot.rtt: $(head -2 "$tmp/out")"
expect_status 0 "keys disks.fast" "$clerk" keys disks.fast
head -1 "$tmp/out" | grep -qF "[disks.fast] takes the keys of [disk]:" || fail "keys disks.fast: $(head -2 "$tmp/out")"
expect_status 2 "keys clients.hot.nosuch" "$clerk" keys clients.hot.nosuch
expect_message "keys clients.hot.nosuch" "no table 'clients.hot.nosuch'"
expect_status 2 "keys clients." "$clerk" keys clients.

# Probe 6, finding 3: more files than ext4 has inodes (60,000,000 on the
# preset's 800g SSD, which has 52,428,800) is refused by the loader, naming
# dataset.files, before anything is written (it was written, then run's exit 3).
expect_status 2 "new with more files than inodes" "$clerk" new "$tmp/big.toml" --files 60000000 --file-sizes 1k --disk ssd
expect_message "new with more files than inodes" "key 'dataset.files': the data set needs [0-9]+ inodes"
[ -e "$tmp/big.toml" ] && fail "new with more files than inodes wrote big.toml"

# clerk new: runs unchanged.
cd "$tmp" || exit 1
expect_status 0 "new" "$clerk" new starter.toml --files 200 --connections 8 --workers 2
[ -f starter.toml ] || fail "new wrote no starter.toml"
expect_status 0 "run the starter unchanged" "$clerk" run starter.toml --duration 1 --set warmup=0s -q --no-timing
expect_status 0 "new with a version and a mix" "$clerk" new sre.toml --nginx 1.24.0 --disk ssd --page-cache 48g \
  --files 1000 --file-sizes 20k-200k:0.99,5m-50m:0.01 --popularity hot:0.02:0.9 --rate 300 --connections 50
grep -q 'accept_mutex = "off"' sre.toml || fail "new --nginx 1.24.0: accept_mutex is not off"
grep -q 'keepalive_requests = 1000' sre.toml || fail "new --nginx 1.24.0: keepalive_requests is not 1000"
grep -q 'sendfile_max_chunk = "2m"' sre.toml || fail "new --nginx 1.24.0: sendfile_max_chunk is not 2m"
expect_status 0 "run the second starter" "$clerk" run sre.toml --duration 1 --set warmup=0s -q --no-timing
expect_status 0 "new for 1.9.0" "$clerk" new old.toml --nginx 1.9.0 --disk raid10 --files 100
grep -q 'accept_mutex = "on"' old.toml || fail "new --nginx 1.9.0: accept_mutex is not on"
expect_status 0 "new with no disk" "$clerk" new mem.toml --disk none --files 100 --file-sizes 4k

# Never over a file, never half-written, no temporary left behind.
cp starter.toml before.toml
expect_status 2 "new over an existing file" "$clerk" new starter.toml
expect_message "new over an existing file" "exists; clerk new never replaces a file"
cmp -s starter.toml before.toml || fail "new changed an existing file"
long=$(printf 'n%.0s' $(seq 1 300)).toml
expect_status 2 "new of a name too long" "$clerk" new "$long"
expect_message "new of a name too long" "too long"
ln -s nowhere dangling.toml
expect_status 2 "new over a dangling link" "$clerk" new dangling.toml
expect_status 2 "new with a bad version" "$clerk" new v.toml --nginx 9.9
expect_message "new with a bad version" "--nginx: a release like 1.24.0, one of 1.9.0-1.9.15, .*1.30.0-1.30.4"
expect_status 2 "new with a bad size mix" "$clerk" new m.toml --file-sizes 20k-
expect_status 2 "new with a data set that does not fit" "$clerk" new big.toml --disk none --files 100000 --file-sizes 1m
expect_message "new with a data set that does not fit" "big.toml.*key 'dataset.files'"
expect_status 2 "new into no folder" "$clerk" new no/such/folder.toml
# The sixth probe: new wrote what run refuses for memory (256 GiB of connections).
expect_status 2 "new too large for memory" "$clerk" new huge.toml --connections 16777216 --client-threads 65536
expect_message "new too large for memory" "huge.toml: .*would need about .*largest part, connections"
for f in v.toml m.toml big.toml huge.toml; do [ -e "$f" ] && fail "a refused clerk new left $f"; done
ls -a | grep -q '^\.clerk-new-' && fail "clerk new left a temporary file"

[ "$failures" -eq 0 ] && echo "keys: all passed"
exit $((failures > 0))
