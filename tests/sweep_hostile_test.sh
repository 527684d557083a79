#!/usr/bin/env bash
# Sweep, merge and plot given hostile input (issue 21): results files that
# try to run commands through gnuplot, special files and planted links as
# outputs, endless inputs, huge counts and ranges, signals during a plot.
# Each check names the finding it keeps closed.
set -u
clerk=$1 data=$2
. "$(dirname "$0")/lib.sh"
export TMPDIR=$tmp/tmpdir  # plot's work folders: checked for leftovers below
mkdir -p "$TMPDIR"

# A results file as a colleague might send it: an axis name and values with
# newlines followed by gnuplot commands, quotes, backslashes, control bytes.
marker=$tmp/ran
good=$tmp/good.jsonl
printf '{"sweep":"abc","run":%d,"point":%d,"axes":{"x":%d},"seed":1,"metrics":{"m":%d.5}}\n' 0 0 0 0 1 1 1 1 >"$good"
evil_key=$(printf 'k\\nsystem(\\"touch %s\\")\\n#' "$marker")
evil_value=$(printf 'a\\nsystem(\\"touch %s\\")\\n\\u0001\\u007f\\u0000'"''"'\\\\\\"`touch %s`' "$marker" "$marker")
{
  for i in 0 1 2 3; do
    printf '{"sweep":"abc","run":%d,"point":%d,"axes":{"%s":"%s","x":%d},"seed":1,"metrics":{"m":%d.5}}\n' \
      "$i" "$i" "$evil_key" "$evil_value" "$((i % 2))" "$i"
  done
} >"$tmp/evil.jsonl"
key=$(printf 'k\nsystem("touch %s")\n#' "$marker")

printf '{"sweep":"abc","run":%d,"point":%d,"axes":{"%s":1,"x":%d},"seed":1,"metrics":{"m":%d.5}}\n' \
  0 0 "$evil_key" 0 0 1 1 "$evil_key" 1 1 >"$tmp/inject.jsonl"

# Finding 1: gnuplot receives data, not code.
if command -v gnuplot >/dev/null; then
  expect_status 0 "plot of a label with a newline and system()" "$clerk" plot "$tmp/inject.jsonl" --x x --y m --by "$key" -o "$tmp/inject"
  [ ! -e "$marker" ] || fail "plot ran a command from a results file's axis name"
  expect_status 0 "plot of a hostile results file" "$clerk" plot "$tmp/evil.jsonl" --x x --y m --by "$key" -o "$tmp/evil" \
    --title "$(printf "t'\nsystem('touch %s')\n" "$marker")"
  [ ! -e "$marker" ] || fail "plot ran a command from a results file"
  [ -s "$tmp/evil.png" ] && [ -s "$tmp/evil.svg" ] || fail "the hostile results were not drawn"
  expect_status 0 "heat map of a hostile results file" "$clerk" plot "$tmp/evil.jsonl" --x x --y m --by "$key" --heatmap -o "$tmp/evilh"
  [ ! -e "$marker" ] || fail "heat map ran a command from a results file"
  # Figures gnuplot cannot draw as given: the extremes of a double are drawn;
  # nothing above 0 on --logy is exit 2 before gnuplot runs, never gnuplot's
  # own failure.
  row='{"sweep":"abc","run":%d,"point":%d,"axes":{"x":%d},"seed":1,"metrics":{"m":%s}}\n'
  printf "$row" 0 0 0 1.7976931348623157e308 1 1 1 2.5 2 2 2 -1.7976931348623157e308 >"$tmp/big.jsonl"
  expect_status 0 "plot of a double's extremes" "$clerk" plot "$tmp/big.jsonl" --x x --y m -o "$tmp/big"
  printf "$row" 0 0 0 0 1 1 1 0 >"$tmp/zero.jsonl"
  expect_status 2 "plot --logy of zeros" "$clerk" plot "$tmp/zero.jsonl" --x x --y m --logy -o "$tmp/zero"
  expect_text "plot --logy of zeros" "drop --logy"
  printf "$row" 0 0 0 0 1 1 1 2.5 >"$tmp/some.jsonl"
  expect_status 0 "plot --logy with one mean above 0" "$clerk" plot "$tmp/some.jsonl" --x x --y m --logy -o "$tmp/somelog"
else
  echo "cli_sweep_hostile: gnuplot not installed, plot checks skipped"
fi
expect_status 2 "plot without gnuplot" env PATH=/nonexistent "$clerk" plot "$good" --x x --y m -o "$tmp/nognu"
expect_text "plot without gnuplot" "needs gnuplot to draw"

# Finding 5: endless and huge inputs are refused, not read until memory runs out.
expect_status 2 "plot /dev/zero" "$clerk" plot /dev/zero --x x --y m
expect_text "plot /dev/zero" "is a character device, not a results file"
truncate -s 257M "$tmp/huge.jsonl"
expect_status 2 "plot of a 257 MiB file" "$clerk" plot "$tmp/huge.jsonl" --x x --y m
expect_text "plot of a 257 MiB file" "is larger than 256 MiB"
rm -f "$tmp/huge.jsonl"
# A FIFO with no writer: refused at once, not an open() that waits for ever.
mkfifo "$tmp/in.jsonl"
expect_status 2 "plot of a FIFO" timeout 20 "$clerk" plot "$tmp/in.jsonl" --x x --y m
expect_text "plot of a FIFO" "is a FIFO"
expect_status 2 "merge of a FIFO" timeout 20 "$clerk" sweep merge "$tmp/in.jsonl" -o "$tmp/m-fifo.csv"
mkfifo "$tmp/resumed.jsonl"
expect_status 2 "--resume onto a FIFO" timeout 20 "$clerk" sweep "$data/small-hdd.toml" --set duration=1s -o "$tmp/resumed" --resume
expect_text "--resume onto a FIFO" "is a FIFO"
mkfifo "$tmp/spec.toml"
expect_status 2 "a sweep spec that is a FIFO" timeout 20 "$clerk" sweep "$tmp/spec.toml" --dry-run
expect_text "a sweep spec that is a FIFO" "is a FIFO"
# A sweep spec with a key of 50,000 parts: toml++ overflowed its stack (SIGSEGV).
python3 -c "print('.'.join(['a'] * 50000) + ' = 1')" >"$tmp/deep-spec.toml"
expect_status 2 "a sweep spec with a 50,000-part key" "$clerk" sweep "$tmp/deep-spec.toml" --dry-run
# A results row nested 100,000 deep crashed the labels' printing (SIGSEGV);
# a number out of range (1e999) was an internal error (exit 3).
python3 -c "print('{\"sweep\":\"abc\",\"run\":0,\"point\":0,\"axes\":{\"x\":' + '['*100000 + ']'*100000 + '},\"seed\":1,\"metrics\":{\"m\":1}}')" >"$tmp/deep.jsonl"
expect_status 2 "plot of a row nested 100,000 deep" "$clerk" plot "$tmp/deep.jsonl" --x x --y m -o "$tmp/deep"
expect_text "plot of a row nested 100,000 deep" "nested more than 16 levels"
expect_status 2 "merge of a row nested 100,000 deep" "$clerk" sweep merge "$tmp/deep.jsonl" -o "$tmp/deep.csv"
printf '{"sweep":"abc","run":0,"point":0,"axes":{"x":1},"seed":1,"metrics":{"m":1e999}}\n' >"$tmp/inf.jsonl"
expect_status 2 "plot of a metric of 1e999" "$clerk" plot "$tmp/inf.jsonl" --x x --y m -o "$tmp/inf"
expect_text "plot of a metric of 1e999" "not JSON"
# Sizes: more --by lines than a plot draws; more threads than can start; empty names.
python3 -c "
import json
for i in range(20000): print(json.dumps({'sweep':'abc','run':i,'point':i,'axes':{'x':i,'b':'v%d' % i},'seed':1,'metrics':{'m':i}}))" >"$tmp/many.jsonl"
expect_status 2 "plot of 20,000 --by lines" timeout 60 "$clerk" plot "$tmp/many.jsonl" --x x --y m --by b -o "$tmp/many"
expect_text "plot of 20,000 --by lines" "at most 1000 lines"
expect_status 2 "heat map of 20,000 x 20,000" timeout 60 "$clerk" plot "$tmp/many.jsonl" --x x --y m --by b --heatmap -o "$tmp/many"
expect_status 2 "sweep --samples 0" "$clerk" sweep "$data/small-hdd.toml" --set 'nginx.worker_processes=1..4' --mode random --samples 0 --dry-run
expect_text "sweep --samples 0" "--samples: must be a whole number of at least 1"
[ "$(wc -c <"$tmp/err")" -lt 200 ] || fail "sweep --samples 0: a message of $(wc -c <"$tmp/err") bytes"
expect_status 2 "sweep --seeds 1e5" "$clerk" sweep "$data/small-hdd.toml" --seeds 1e5 --dry-run
expect_text "sweep --seeds 1e5" "'1e5': each seed must be a whole number"
expect_status 2 "sweep -j 100000" "$clerk" sweep "$data/small-hdd.toml" --dry-run -j 100000
for cmd in "sweep $data/small-hdd.toml --dry-run" "sweep merge $good" "plot $good --x x --y m"; do
  # shellcheck disable=SC2086
  expect_status 2 "$cmd -o ''" "$clerk" $cmd -o ''
done
printf '{"sweep":"abc","run":-1,"point":0,"axes":{"x":1},"seed":1,"metrics":{"m":1}}\n' >"$tmp/neg.jsonl"
expect_status 2 "merge of run -1" "$clerk" sweep merge "$tmp/neg.jsonl" -o "$tmp/merged.csv"
expect_text "merge of run -1" "'run' must be a whole number of at least 0"
printf '{"sweep":"abc","run":18446744073709551615,"point":0,"axes":{"x":1},"seed":1,"metrics":{"m":1}}\n' >"$tmp/big.jsonl"
expect_status 0 "merge of run 2^64-1" "$clerk" sweep merge "$tmp/big.jsonl" -o "$tmp/big-merged.csv"
expect_text "merge of run 2^64-1" "18446744073709551615 runs missing before the last one: 0 1 2"
expect_status 2 "seed count above the cap" "$clerk" sweep "$data/small-hdd.toml" --seeds 99999999999 -o "$tmp/seeds"
expect_text "seed count above the cap" "is more than the cap of 100000"
[ ! -e "$tmp/seeds.csv" ] || fail "a refused sweep left its CSV"
expect_status 2 "samples above the cap" "$clerk" sweep "$data/small-hdd.toml" --set 'nginx.worker_processes=1..4' \
  --mode random --samples 99999999999 --dry-run
expect_text "samples above the cap" "is more than the cap of 1000000"
expect_status 2 "a whole-number range as wide as int64" "$clerk" sweep "$data/small-hdd.toml" --dry-run \
  --set 'nginx.worker_processes=-9223372036854775807..9223372036854775807:1'
expect_text "a whole-number range as wide as int64" "more than 100000 values"
expect_status 2 "a whole-number range that would step past int64" "$clerk" sweep "$data/small-hdd.toml" --dry-run \
  --set 'nginx.worker_processes=1..9223372036854775807:4611686018427387904'
grep -q "(--resume continues it)" "$tmp/err" && fail "'--resume continues it' printed for bad input"

# Finding 6: -o naming a folder writes no hidden ".csv".
mkdir -p "$tmp/outdir"
expect_status 2 "sweep -o dir/" "$clerk" sweep "$data/small-hdd.toml" --set duration=1s -o "$tmp/outdir/"
expect_text "sweep -o dir/" "names a folder"
[ -z "$(ls -A "$tmp/outdir")" ] || fail "sweep -o dir/ wrote $(ls -A "$tmp/outdir")"

# Finding 9 and 7: plot of a folder says so; an unwritable output is exit 2, not an abort.
expect_status 2 "plot of a folder" "$clerk" plot "$tmp" --x x --y m
expect_text "plot of a folder" "is a folder"
expect_status 2 "plot into an unwritable folder" "$clerk" plot "$good" --x x --y m -o /proc/clerk-plot-test
expect_status 2 "plot into a missing folder" "$clerk" plot "$good" --x x --y m -o "$tmp/none/p"
# Finding 6 for plot: -o naming a folder wrote "dir/.png" and "dir/.svg".
mkdir -p "$tmp/plotdir"
expect_status 2 "plot -o dir/" "$clerk" plot "$good" --x x --y m -o "$tmp/plotdir/"
expect_text "plot -o dir/" "names a folder"
expect_status 2 "plot -o an existing folder" "$clerk" plot "$good" --x x --y m -o "$tmp/plotdir"
[ -z "$(ls -A "$tmp/plotdir")" ] || fail "plot -o dir/ wrote $(ls -A "$tmp/plotdir")"

# Finding 2: outputs through one safe writer (merge here; run and validate share it).
echo "keep me" >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/planted.csv.tmp"  # the old predictable temporary name
expect_status 0 "merge with a link planted at OUT.tmp" "$clerk" sweep merge "$good" -o "$tmp/planted.csv"
[ "$(cat "$tmp/victim")" = "keep me" ] || fail "a link planted at OUT.tmp was followed"
[ -f "$tmp/planted.csv" ] && [ ! -L "$tmp/planted.csv" ] || fail "merge output is not a regular file"
ls -A "$tmp" | grep -q '^\.planted' && fail "a temporary file was left behind: $(ls -A "$tmp")"
ln -s "$tmp/victim" "$tmp/linked.csv"
expect_status 2 "merge onto a link to a regular file" "$clerk" sweep merge "$good" -o "$tmp/linked.csv"
[ "$(cat "$tmp/victim")" = "keep me" ] && [ -L "$tmp/linked.csv" ] || fail "a link at the output was written through or replaced"
mkfifo "$tmp/pipe.jsonl"
cat "$tmp/pipe.jsonl" >"$tmp/from-pipe" &
reader=$!
expect_status 0 "merge into a FIFO" "$clerk" sweep merge "$good" -o "$tmp/pipe.jsonl"
[ -p "$tmp/pipe.jsonl" ] || fail "the FIFO was replaced"
# Releases the reader if nothing was written (through the FIFO, or by ending it when it was replaced).
if [ -p "$tmp/pipe.jsonl" ]; then : <>"$tmp/pipe.jsonl"; else kill "$reader" 2>/dev/null; fi
wait "$reader"
grep -q '"run":1' "$tmp/from-pipe" || fail "the FIFO's reader got: $(head -c 200 "$tmp/from-pipe")"
# A character device of our own when we may make one (as root, where a wrong
# clerk would replace the real /dev/null); else /dev/null, which then cannot be replaced.
null=/dev/null
mknod "$tmp/null" c 1 3 2>/dev/null && null=$tmp/null
expect_status 0 "run --json onto a character device" "$clerk" run "$data/small-hdd.toml" --duration 1 -q --json "$null"
[ -c "$null" ] || fail "$null is no longer a character device"

# Finding 7: a plot stopped by SIGTERM stops and reaps gnuplot and leaves no work folder.
mkdir -p "$tmp/fake"
cat >"$tmp/fake/gnuplot" <<FAKE
#!/usr/bin/env bash
echo \$\$ >"$tmp/gnuplot.pid"
exec sleep 1000
FAKE
chmod +x "$tmp/fake/gnuplot"
# A background job inherits SIGINT ignored (and keeps it, as nohup wants):
# env gives clerk the default disposition a terminal's job would have.
# SIGHUP is a closed terminal, which never reaches gnuplot's own group.
for sig in TERM INT HUP; do
  rm -f "$tmp/gnuplot.pid"
  PATH=$tmp/fake:$PATH env --default-signal=INT,TERM,HUP "$clerk" plot "$good" --x x --y m -o "$tmp/stopped" 2>"$tmp/err" &
  plot=$!
  for _ in $(seq 1 600); do [ -s "$tmp/gnuplot.pid" ] && break; sleep 0.05; done
  [ -s "$tmp/gnuplot.pid" ] || fail "the fake gnuplot never started"
  kill -$sig "$plot"
  wait "$plot"
  status=$?
  want=$((128 + $(kill -l $sig)))
  [ "$status" -eq "$want" ] || fail "a plot stopped by SIG$sig exited $status, not $want ($(cat "$tmp/err"))"
  if [ -s "$tmp/gnuplot.pid" ] && kill -0 "$(cat "$tmp/gnuplot.pid")" 2>/dev/null; then
    fail "gnuplot outlived the plot stopped by SIG$sig"
    kill "$(cat "$tmp/gnuplot.pid")"
  fi
  [ -z "$(ls -A "$TMPDIR")" ] || fail "a plot stopped by SIG$sig left $(ls -A "$TMPDIR")"
  [ ! -e "$tmp/stopped.png" ] || fail "a plot stopped by SIG$sig wrote its picture"
done

echo "cli_sweep_hostile: $failures failed"
[ "$failures" -eq 0 ]
