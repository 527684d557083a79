#!/usr/bin/env bash
# clerk compare and clerk whatif as a user meets them (issues 15 and 18):
# bad input is exit 2 naming the file, line and key (or the option) with
# nothing written, not even the figure; a quick what-if runs end to end and
# gives the same answer twice. The figures need gnuplot (skipped without it).
set -u
clerk=$1 data=$2 scenarios=$3
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# compare: one bad file among good ones stops everything before any run.
expect_status 2 "compare with a bad file" "$clerk" compare "$scenarios/agreement/hits.toml" "$data/bad-key.toml" \
  --json "$tmp/c.json" --figure "$tmp/c"
expect_text "compare's bad file" "bad-key.toml:4: key 'nginx.sendfile_max_chunks': unknown key"
[ -z "$(ls "$tmp" | grep '^c\.')" ] || fail "compare wrote files for bad input: $(ls "$tmp")"
[ ! -s "$tmp/out" ] || fail "compare printed a table for bad input"
expect_status 2 "compare: unwritable JSON" "$clerk" compare "$scenarios/agreement/hits.toml" --json /nonexistent/c.json
expect_status 2 "compare: figure into a folder" "$clerk" compare "$scenarios/agreement/hits.toml" --figure "$tmp/"
expect_status 2 "compare: bad --set" "$clerk" compare "$scenarios/agreement/hits.toml" --set nginx.aio=sometimes
# --figure OUT writes OUT.png and OUT.svg, never OUT: a special file or a
# name in /dev is refused before any run (--figure /dev/stdout wrote
# /dev/stdout.png and .svg as root), naming the option.
expect_status 2 "compare: --figure /dev/stdout onto a pipe" bash -c 'set -o pipefail; "$0" compare "$1" --figure /dev/stdout | cat' \
  "$clerk" "$scenarios/agreement/hits.toml"
expect_text "compare: --figure /dev/stdout onto a pipe" "--figure: '/dev/stdout': is a special file"
expect_status 2 "compare: --figure /dev/stdout onto a file" "$clerk" compare "$scenarios/agreement/hits.toml" --figure /dev/stdout
expect_text "compare: --figure /dev/stdout onto a file" "--figure: '/dev/stdout': is in /dev"
[ ! -s "$tmp/out" ] || fail "compare ran with --figure /dev/stdout"
rm -f "/dev/clerk-test-$$.png" "/dev/clerk-test-$$.svg"
expect_status 2 "compare: --figure in /dev" "$clerk" compare "$scenarios/agreement/hits.toml" --figure "/dev/clerk-test-$$"
expect_text "compare: --figure in /dev" "--figure: '/dev/clerk-test-$$': is in /dev"
[ ! -e "/dev/clerk-test-$$.png" ] || { rm -f "/dev/clerk-test-$$".*; fail "compare wrote its figure into /dev"; }
expect_status 2 "whatif: --figure /dev/null" "$clerk" whatif "$data/small-hdd.toml" --reuseport --figure /dev/null
expect_text "whatif: --figure /dev/null" "--figure: '/dev/null': is a special file"
# A flat panel (no disk read: every request a cache hit; one scenario, so
# each log panel has one value) is given its range: gnuplot has nothing to
# widen, and no "Warning: empty y range" reaches stderr (probe 5).
if command -v gnuplot >/dev/null; then
  expect_status 0 "compare: flat panels" "$clerk" compare "$scenarios/agreement/hits.toml" --duration 1 --figure "$tmp/flat"
  [ -s "$tmp/flat.png" ] && [ -s "$tmp/flat.svg" ] || fail "compare: flat panels: no figure"
  ! grep -qi "warning" "$tmp/err" || fail "compare: flat panels: gnuplot warns: $(head -c 300 "$tmp/err")"
fi

# compare --figure without gnuplot: exit 2 before any run (the figure asked
# for cannot be drawn), and neither the figure nor the JSON written.
expect_status 2 "compare --figure without gnuplot" env PATH=/nonexistent "$clerk" compare \
  "$scenarios/agreement/hits.toml" --duration 1 --figure "$tmp/g" --json "$tmp/g.json"
expect_text "compare without gnuplot" "needs gnuplot to draw"
[ ! -s "$tmp/out" ] || fail "compare without gnuplot ran before refusing: $(head -c 200 "$tmp/out")"
[ -z "$(ls "$tmp" | grep '^g\.')" ] || fail "compare wrote files when gnuplot was missing: $(ls "$tmp")"
expect_status 2 "whatif --figure without gnuplot" env PATH=/nonexistent "$clerk" whatif \
  "$scenarios/agreement/hits.toml" --threads 1,2 --duration 1 --figure "$tmp/w"
expect_text "whatif without gnuplot" "needs gnuplot to draw"

# compare: the table, and the same seed for both (the first scenario's, or --seed).
expect_status 0 "compare" "$clerk" compare "$scenarios/agreement/hits.toml" "$scenarios/agreement/misses.toml" \
  --duration 2 --json "$tmp/c.json"
grep -q "^2 scenarios in agreement/, seed 1 for every one" "$tmp/out" || fail "compare's first line: $(head -1 "$tmp/out")"
grep -Eq "^ +hits +misses$" "$tmp/out" || fail "compare's heading: $(sed -n 2p "$tmp/out")"
grep -Eq "^hot: requests/s +[0-9.]+ req/s +- *$" "$tmp/out" || fail "a group only one scenario has: $(grep requests/s "$tmp/out")"
grep -q "^workers R / S / D (top)" "$tmp/out" || fail "compare lacks the workers' states"
grep -q '"seed": 1' "$tmp/c.json" || fail "compare's JSON lacks the seed"
cp "$tmp/out" "$tmp/c1.txt"
expect_status 0 "compare again" "$clerk" compare "$scenarios/agreement/hits.toml" "$scenarios/agreement/misses.toml" \
  --duration 2
cmp -s "$tmp/out" "$tmp/c1.txt" || fail "compare's table differs between two runs of the same seed"

# whatif: bad input.
expect_status 2 "whatif without a question" "$clerk" whatif "$data/small-hdd.toml" --no-figure
expect_text "whatif without a question" "ask one question"
expect_status 2 "whatif with two questions" "$clerk" whatif "$data/small-hdd.toml" --reuseport --threads --no-figure
expect_status 2 "whatif: bad thread count" "$clerk" whatif "$data/small-hdd.toml" --threads=0,4 --no-figure
expect_text "whatif: bad thread count" "key 'nginx.thread_pool.threads': must be between 1 and 65536"
expect_status 2 "whatif: bad scenario" "$clerk" whatif "$data/bad-key.toml" --reuseport --figure "$tmp/w"
expect_text "whatif: bad scenario" "bad-key.toml:4: key 'nginx.sendfile_max_chunks'"
[ -z "$(ls "$tmp" | grep '^w\.')" ] || fail "whatif wrote a figure for bad input"
# A repeated value is the same runs twice (probe 5, finding 10).
expect_status 2 "whatif: a repeated thread count" "$clerk" whatif "$data/small-hdd.toml" --threads=1,1 --no-figure
expect_text "whatif: a repeated thread count" "axis 'nginx.thread_pool.threads': value 1 is given twice"
expect_status 2 "whatif: a repeated seed" "$clerk" whatif "$data/small-hdd.toml" --threads=1,2 --seeds 3,3 --no-figure
expect_text "whatif: a repeated seed" "seed 3 is given twice"
expect_status 2 "whatif: bad size" "$clerk" whatif "$data/small-hdd.toml" --ram=4x --no-figure
expect_text "whatif: bad size" "--ram: '4x': is not a size"
expect_status 2 "whatif: unknown group" "$clerk" whatif "$data/small-hdd.toml" --load-until-p99 1 --group nobody --no-figure
expect_text "whatif: unknown group" "(groups: hot, random)"
expect_status 2 "whatif: no limit" "$clerk" whatif "$data/small-hdd.toml" --load-until-p99 0 --no-figure
expect_status 2 "whatif: a limit longer than the run" "$clerk" whatif "$data/small-hdd.toml" --load-until-p99 9 \
  --duration 5 --no-figure
expect_text "whatif: a limit longer than the run" "9 s cannot be seen in runs of 5 s"
expect_status 2 "whatif --disk without a hardware profile" "$clerk" whatif "$data/small-hdd.toml" --disk --no-figure
expect_text "whatif --disk without a profile" "small-hdd.toml:17: include a profile of scenarios/hardware/"
expect_status 2 "whatif: figure into a folder" "$clerk" whatif "$data/small-hdd.toml" --reuseport --figure "$tmp/"

# whatif end to end: a few one-second runs, the same answer twice.
expect_status 0 "whatif --load-until-p99" "$clerk" whatif "$data/small-hdd.toml" --load-until-p99 1 --group random \
  --no-figure -j 2
grep -q "^Recommendation: up to [0-9]* random connections\|^Recommendation: up to [0-9]* connections" "$tmp/out" \
  || fail "whatif --load-until-p99's answer: $(grep Recommendation "$tmp/out")"
# The limit as given (probe 6: 1e-9 was shown as "0 us"), not at the table's precision.
grep -q "until .*'s p99 passes 1 s\$" "$tmp/out" || fail "whatif's limit: $(head -1 "$tmp/out")"
cp "$tmp/out" "$tmp/w1.txt"
expect_status 0 "whatif --load-until-p99 on one job" "$clerk" whatif "$data/small-hdd.toml" --load-until-p99 1 \
  --group random --no-figure -j 1
cmp -s "$tmp/out" "$tmp/w1.txt" || fail "whatif's answer depends on --jobs"
expect_status 0 "whatif --json" "$clerk" whatif "$data/small-hdd.toml" --load-until-p99 1 --group random \
  --no-figure --json "$tmp/w.json"
grep -q '"recommendation"' "$tmp/w.json" && grep -q '"latency_censored_p99_s"' "$tmp/w.json" \
  || fail "whatif's JSON: $(head -c 300 "$tmp/w.json")"
expect_status 2 "whatif: unwritable JSON" "$clerk" whatif "$data/small-hdd.toml" --reuseport --no-figure \
  --json /nonexistent/w.json
expect_status 0 "whatif --threads" "$clerk" whatif "$data/small-hdd.toml" --threads=1,8 --duration 2 --no-figure
grep -q "^Recommendation: .* pool threads per worker" "$tmp/out" || fail "whatif --threads: $(cat "$tmp/out")"

# whatif --ram: a size that holds the data set has nothing to settle, and the
# answer says that its window began cold.
expect_status 0 "whatif --ram" "$clerk" whatif "$data/small-hdd.toml" --ram=32m,512m --set warmup=settled --duration 1 \
  --no-figure
grep -q "^(512m: the data set fits, so the warm-up had nothing to settle" "$tmp/out" || fail "whatif --ram's cold note"
grep -q "^(32m" "$tmp/out" && fail "whatif --ram: 32m does not hold the data set"
grep -q "^Recommendation: " "$tmp/out" || fail "whatif --ram's answer"

# whatif --ram shows each size exactly: 1500k and 1800k were both "1m", one
# point run twice under one name (probe 3, suspicion).
expect_status 0 "whatif --ram of sizes not whole MiB" "$clerk" whatif "$data/small-hdd.toml" --ram=1500k,1800k \
  --duration 0.2 --no-figure --json "$tmp/ram.json"
grep -Eq "^ +off +1500k " "$tmp/out" && grep -Eq "^ +off +1800k " "$tmp/out" || fail "whatif --ram's sizes: $(cat "$tmp/out")"
grep -q '"value": "1500k"' "$tmp/ram.json" || fail "whatif --ram's JSON: $(head -c 300 "$tmp/ram.json")"

# A client group no metric path can name (probe 3, finding 15): refused
# naming it, before any run (was "metric 'clients.a.b.requests_per_s' is not a number").
sed 's/^\[clients\.random\]/[clients."a.b"]/' "$data/small-hdd.toml" >"$tmp/dot.toml"
expect_status 2 "whatif of a group named a.b" "$clerk" whatif "$tmp/dot.toml" --reuseport --no-figure
expect_text "whatif of a group named a.b" "client group 'a.b': has a '.' in its name"

# Two outputs of one command that are one file (probe 3, finding 14): the
# figure's PNG was overwritten by the JSON. Refused before any run.
expect_status 2 "compare --figure cmp --json cmp.png" "$clerk" compare "$scenarios/agreement/hits.toml" \
  --duration 1 --figure "$tmp/cmp" --json "$tmp/cmp.png"
expect_text "compare --figure cmp --json cmp.png" "are the same file"
[ ! -s "$tmp/out" ] && [ -z "$(ls "$tmp" | grep '^cmp\.')" ] || fail "compare ran or wrote with colliding outputs"
mkdir -p "$tmp/sub"
expect_status 2 "compare --json naming the figure by another path" "$clerk" compare "$scenarios/agreement/hits.toml" \
  --duration 1 --figure "$tmp/cmp" --json "$tmp/sub/../cmp.svg"
expect_text "compare --json naming the figure by another path" "are the same file"
echo "old" >"$tmp/old.json" && ln "$tmp/old.json" "$tmp/hard.svg"
expect_status 2 "compare --json and the figure hard-linked" "$clerk" compare "$scenarios/agreement/hits.toml" \
  --duration 1 --figure "$tmp/hard" --json "$tmp/old.json"
expect_text "compare --json and the figure hard-linked" "are the same file"
expect_status 2 "whatif --figure wc --json wc.svg" "$clerk" whatif "$data/small-hdd.toml" --reuseport --duration 1 \
  --figure "$tmp/wc" --json "$tmp/wc.svg"
expect_text "whatif --figure wc --json wc.svg" "are the same file"
[ ! -s "$tmp/out" ] && [ -z "$(ls "$tmp" | grep '^wc\.')" ] || fail "whatif ran or wrote with colliding outputs"

# whatif --disk: the presets swapped in for the one the scenario includes; the
# one that cannot hold it ("none": every file in memory) is left out, saying why.
expect_status 0 "whatif --disk" "$clerk" whatif "$data/small-preset.toml" --disk --duration 1 --no-figure
grep -Eq "^ +ssd " "$tmp/out" && grep -Eq "^ +raid10 " "$tmp/out" || fail "whatif --disk's rows: $(cat "$tmp/out")"
grep -q "^(left out: none, .*small-preset.toml:[0-9]*: key 'dataset.files'" "$tmp/out" || fail "whatif --disk's left out"
grep -q "^Recommendation: [a-z0-9]*: the lowest p99" "$tmp/out" || fail "whatif --disk's answer"
expect_status 2 "whatif --disk naming a preset that cannot hold it" "$clerk" whatif "$data/small-preset.toml" \
  --disk=ssd,none --no-figure
expect_text "whatif --disk=none" "axis 'hardware'"

if command -v gnuplot >/dev/null; then
  expect_status 0 "compare --figure" "$clerk" compare "$scenarios/agreement/hits.toml" "$scenarios/agreement/misses.toml" \
    --duration 1 --figure "$tmp/fig.png"
  [ -s "$tmp/fig.png" ] && [ -s "$tmp/fig.svg" ] || fail "compare --figure wrote no PNG and SVG"
  expect_status 0 "whatif's figure" "$clerk" whatif "$data/small-hdd.toml" --reuseport --duration 1
  [ -s "$tmp/whatif-small-hdd-reuseport.png" ] || fail "whatif wrote no figure by default"
  # A run too short to complete a request: every figure 0 or missing, the
  # logarithmic panels too; drawn all the same (they fall back to linear).
  expect_status 0 "compare --figure of empty runs" "$clerk" compare "$scenarios/agreement/hits.toml" \
    "$scenarios/agreement/misses.toml" --duration 0.01 --figure "$tmp/empty"
  [ -s "$tmp/empty.png" ] || fail "compare of empty runs wrote no figure"
fi

[ "$failures" -eq 0 ] && echo "compare and whatif: all checks passed"
[ "$failures" -eq 0 ]
