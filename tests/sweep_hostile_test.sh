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
  # Values gnuplot cannot scale (it holds +-9e307 and beyond as undefined, or
  # its range as invalid) are refused naming the option: exit 2, not gnuplot's
  # failure as exit 3 (probe 3, finding 8).
  printf "$row" 0 0 0 1.7976931348623157e308 1 1 1 2.5 2 2 2 -1.7976931348623157e308 >"$tmp/big.jsonl"
  expect_status 2 "plot of a double's extremes" "$clerk" plot "$tmp/big.jsonl" --x x --y m -o "$tmp/big"
  expect_text "plot of a double's extremes" "--y: 'm': has the value"
  printf "$row" 0 0 0 1e306 1 1 1 -1e306 >"$tmp/wide.jsonl"
  expect_status 0 "plot of +-1e306" "$clerk" plot "$tmp/wide.jsonl" --x x --y m -o "$tmp/wide"
  printf 'sweep,run,point,x,seed,m\nabc,0,0,1e308,1,1.5\nabc,1,1,-1e308,1,2.5\n' >"$tmp/farx.csv"
  expect_status 2 "plot of x = +-1e308" "$clerk" plot "$tmp/farx.csv" --x x --y m -o "$tmp/farx"
  expect_text "plot of x = +-1e308" "--x: 'x': has the value"
  printf 'sweep,run,point,x,seed,m\nabc,0,0,0,1,1.5\nabc,1,1,-1,1,2.5\n' >"$tmp/nonpos.csv"
  expect_status 2 "plot --logx of x <= 0" "$clerk" plot "$tmp/nonpos.csv" --x x --y m --logx -o "$tmp/nonpos"
  expect_text "plot --logx of x <= 0" "--logx: no value of x"
  printf 'sweep,run,point,x,seed,m\nabc,0,0,0,1,1.5\nabc,1,1,2,1,2.5\n' >"$tmp/somepos.csv"
  expect_status 0 "plot --logx with one x above 0" "$clerk" plot "$tmp/somepos.csv" --x x --y m --logx -o "$tmp/somepos"
  [ -z "$(ls "$tmp" | grep -E '^(big|farx|nonpos)\.(png|svg)$')" ] || fail "a refused plot wrote its pictures"
  printf "$row" 0 0 0 0 1 1 1 0 >"$tmp/zero.jsonl"
  expect_status 2 "plot --logy of zeros" "$clerk" plot "$tmp/zero.jsonl" --x x --y m --logy -o "$tmp/zero"
  expect_text "plot --logy of zeros" "drop --logy"
  printf "$row" 0 0 0 0 1 1 1 2.5 >"$tmp/some.jsonl"
  expect_status 0 "plot --logy with one mean above 0" "$clerk" plot "$tmp/some.jsonl" --x x --y m --logy -o "$tmp/somelog"
  # Flat data (a metric that is the same in every run, one x left by
  # --where): gnuplot is given the axis's range and widens nothing, so no
  # "Warning: empty y range [0:0]" reaches stderr, as compare --figure's
  # flat panels (probe 5).
  row2='{"sweep":"abc","run":%d,"point":%d,"axes":{"x":%d,"b":%d},"seed":1,"metrics":{"m":%s}}\n'
  printf "$row2" 0 0 0 0 0 1 1 1 0 0 2 2 0 1 0 3 3 1 1 0 >"$tmp/flat0.jsonl"
  printf "$row2" 0 0 0 0 96 1 1 1 0 96 2 2 0 1 96 3 3 1 1 96 >"$tmp/flat96.jsonl"
  for plot in "flat0.jsonl --by b" "flat96.jsonl --where b=0" "flat96.jsonl --by b --logy" "flat96.jsonl --by b --where x=1" \
    "flat96.jsonl --by b --heatmap" "somepos.csv --logx" "some.jsonl --logy"; do
    # shellcheck disable=SC2086
    expect_status 0 "plot of flat data: $plot" "$clerk" plot "$tmp"/$plot --x x --y m -o "$tmp/flat"
    ! grep -qi "warning" "$tmp/err" || fail "plot of flat data: $plot: gnuplot warns: $(head -c 300 "$tmp/err")"
  done
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
# Probe 6: ranges of rates and times with units are planned and listed with
# their units; a range from a rate to a time, or a step of the other kind, is
# refused naming the axis and the value.
expect_status 0 "ranges of a rate and a time" "$clerk" sweep "$data/small-hdd.toml" --dry-run \
  --set 'nic.line_rate=1Gbit/s..2Gbit/s:*2' --set 'warmup=0.05s..0.07s:0.01s'
grep -q "2Gbit/s" "$tmp/out" && grep -q "70ms" "$tmp/out" || fail "ranges of a rate and a time: points not listed: $(head -c 300 "$tmp/out")"
expect_status 2 "a range from a rate to a time" "$clerk" sweep "$data/small-hdd.toml" --dry-run --set 'nic.line_rate=1Gbit/s..2s:1s'
expect_text "a range from a rate to a time" "--set: axis 'nic.line_rate': bad range '1Gbit/s..2s:1s': '1Gbit/s' is a rate and '2s' a time"
expect_status 2 "a range of times by a rate" "$clerk" sweep "$data/small-hdd.toml" --dry-run --set 'warmup=50ms..70ms:1MB/s'
expect_text "a range of times by a rate" "the step '1MB/s' is a rate, not a time"
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
# Probe 5, finding 5: a sweep output that is a link to a character device is
# written through by the header's writer and by the rows' appender alike (it
# was refused by the appender, O_NOFOLLOW: "Too many levels of symbolic
# links", with the other output half-written).
for ext in jsonl csv; do
  rm -f "$tmp"/n.*
  ln -s "$null" "$tmp/n.$ext"
  expect_status 0 "sweep --overwrite with n.$ext a link to a character device" "$clerk" sweep "$data/small-hdd.toml" \
    --set duration=1s --set nginx.aio=off,threads -j 1 -q -o "$tmp/n" --overwrite
  [ -L "$tmp/n.$ext" ] && [ -c "$null" ] || fail "sweep replaced the link n.$ext or $null"
  # The other file whole: the csv's header and 2 rows, or the jsonl's 2 rows.
  if [ "$ext" = csv ]; then other=jsonl lines=2; else other=csv lines=3; fi
  [ "$(wc -l <"$tmp/n.$other")" -eq "$lines" ] || fail "n.$other is not whole: $(head -c 300 "$tmp/n.$other")"
  [ -s "$tmp/n.summary.csv" ] || fail "no summary beside a link to a character device"
done
rm -f "$tmp"/n.*

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

# Probe 5, finding 12: a plot killed by SIGKILL (the out-of-memory killer,
# `timeout -s KILL`, a batch scheduler) runs no destructor. Its gnuplot dies
# with it (PR_SET_PDEATHSIG: it ran on as an orphan to the end of the
# drawing), and the next plot removes the dead plot's folder (it stayed for
# good), never a live plot's, one without a pid in its name or another user's.
running() {  # PID: a process, not a zombie
  local state
  state=$(sed -n 's/^.*) \(.\).*$/\1/p' "/proc/$1/stat" 2>/dev/null)
  [ -n "$state" ] && [ "$state" != Z ]
}
if command -v gnuplot >/dev/null; then
  # The probe's figure: a 400 x 400 heat map, which gnuplot draws for seconds.
  python3 -c "
print('sweep,run,point,x,b,seed,m')
for i in range(160000): print('abc,%d,%d,%d,%d,1,%d' % (i, i, i % 400, i // 400, (i * 7919) % 1000))" >"$tmp/heat.csv"
  "$clerk" plot "$tmp/heat.csv" --x x --y m --by b --heatmap -o "$tmp/heat" 2>"$tmp/err" &
  plot=$!
  drawer=
  for _ in $(seq 1 1200); do drawer=$(pgrep -P "$plot" -x gnuplot) && break; sleep 0.05; done
  if [ -z "$drawer" ]; then
    fail "the heat map's gnuplot never started: $(head -c 300 "$tmp/err")"
    kill -KILL "$plot"
  else
    kill -KILL "$plot"
    wait "$plot" 2>/dev/null
    for _ in $(seq 1 40); do running "$drawer" || break; sleep 0.05; done
    if running "$drawer"; then
      fail "gnuplot $drawer outlived the plot killed by SIGKILL by 2 s"
      kill -KILL "$drawer"
    fi
    left=$(ls "$TMPDIR")
    [[ "$left" =~ ^clerk-plot-$plot-[A-Za-z0-9]{6}$ ]] || fail "the killed plot left '$left', not one clerk-plot-$plot-XXXXXX"
    # Beside it: a live plot's (this shell's pid), one named by hand, a dead plot's of another user,
    # and (probe 5 review, finding 2) a user's own folders that only look like a dead clerk's.
    gone=$(sh -c 'echo $$')
    mkdir "$TMPDIR/clerk-plot-$$-Live12" "$TMPDIR/clerk-plot-handmade" \
      "$TMPDIR/clerk-plot-$gone-11-28" "$TMPDIR/clerk-plot-$gone-Ab12Cd.old"
    echo precious >"$TMPDIR/clerk-plot-$gone-11-28/notes.txt"
    other=
    if [ "$(id -u)" = 0 ]; then
      other=clerk-plot-$gone-Othr12
      mkdir "$TMPDIR/$other" && chown 65534 "$TMPDIR/$other"
    fi
    # Probe 5 review, finding 1: a process of the user's own, in a job of its
    # own, reading the dead plot's leftovers, was killed with its group.
    touch "$TMPDIR/$left/gnuplot.out"
    setsid tail -f "$TMPDIR/$left/gnuplot.out" >/dev/null 2>&1 &
    reader=$!
    for _ in $(seq 1 100); do tr '\0' ' ' <"/proc/$reader/cmdline" 2>/dev/null | grep -q "^tail " && break; sleep 0.05; done
    expect_status 0 "the plot after a killed one" "$clerk" plot "$good" --x x --y m -o "$tmp/after"
    expect_text "the plot after a killed one" "removed stale folder $TMPDIR/$left of dead clerk $plot"
    [ ! -e "$TMPDIR/$left" ] || fail "the next plot left the killed plot's folder $left"
    [ -d "$TMPDIR/clerk-plot-$$-Live12" ] || fail "the next plot removed a live plot's folder"
    [ -d "$TMPDIR/clerk-plot-handmade" ] || fail "the next plot removed a folder without a pid in its name"
    [ -f "$TMPDIR/clerk-plot-$gone-11-28/notes.txt" ] || fail "the next plot removed a dated folder clerk-plot-$gone-11-28"
    [ -d "$TMPDIR/clerk-plot-$gone-Ab12Cd.old" ] || fail "the next plot removed a folder not named as mkdtemp names"
    [ -z "$other" ] || [ -d "$TMPDIR/$other" ] || fail "the next plot removed another user's folder"
    running "$reader" || fail "the next plot killed a process (tail -f) naming the stale folder"
    grep -q killed "$tmp/err" && fail "the next plot killed something: $(cat "$tmp/err")"
    kill -KILL "$reader" 2>/dev/null
    wait "$reader" 2>/dev/null
    [ "$(grep -c stale "$tmp/err")" = 1 ] || fail "the next plot did not say exactly one stale folder: $(cat "$tmp/err")"
    rm -rf "${TMPDIR:?}"/*
  fi
fi

# Probe 3, finding 7: SIGPIPE on the standard error gnuplot's words go to
# (clerk plot ... 2>&1 | head) ended clerk with its work folder left. The
# pipe's reader is closed before clerk starts, so the first write meets it.
cat >"$tmp/fake/gnuplot" <<'FAKE'
#!/usr/bin/env bash
echo "gnuplot's words"; echo "system error: of the fake" >&2; exit 1
FAKE
closed_pipe() {  # command...: run with stdout and stderr on a pipe whose reader is gone; prints its exit status
  python3 -c 'import os,subprocess,sys
r, w = os.pipe(); os.close(r)
print(subprocess.call(sys.argv[1:], stdout=w, stderr=w))' "$@"
}
got=$(PATH=$tmp/fake:$PATH closed_pipe "$clerk" plot "$good" --x x --y m -o "$tmp/piped")
[ "$got" = 2 ] || fail "a plot with its standard error closed: exit $got, wanted 2 (gnuplot failed)"
[ -z "$(ls -A "$TMPDIR")" ] || fail "a plot with its standard error closed left $(ls -A "$TMPDIR")"

# Probe 3, finding 3: every output of merge (the summary too) against every input.
printf 'sweep,run,point,x,seed,m\nabc,0,0,1,1,1.5\nabc,1,0,1,2,2.5\n' >"$tmp/q.summary.csv"
cp "$tmp/q.summary.csv" "$tmp/q.kept"
expect_status 2 "merge whose summary is its input" "$clerk" sweep merge "$tmp/q.summary.csv" -o "$tmp/q.csv"
expect_text "merge whose summary is its input" "is the same file as the input"
cmp -s "$tmp/q.summary.csv" "$tmp/q.kept" || fail "merge replaced its input through its summary"
[ ! -e "$tmp/q.csv" ] || fail "a refused merge wrote its output"
# Finding 4: --confidence checked as sweep and plot check it, before anything is written.
for c in 2 nan -1 1 0; do
  expect_status 2 "merge --confidence $c" "$clerk" sweep merge "$tmp/q.kept" -o "$tmp/conf.csv" --confidence "$c"
  expect_text "merge --confidence $c" "--confidence: must be between 0 and 1"
  [ ! -e "$tmp/conf.csv" ] && [ ! -e "$tmp/conf.summary.csv" ] || fail "merge --confidence $c wrote a file"
done

# Finding 17: seeds out of range are refused, not wrapped or saturated.
for s in -1 18446744073709551616 9223372036854775808; do
  expect_status 2 "sweep --sample-seed=$s" "$clerk" sweep "$data/small-hdd.toml" --set 'nginx.worker_processes=1..4' \
    --mode random --samples 2 --sample-seed="$s" --dry-run
  expect_text "sweep --sample-seed=$s" "--sample-seed: must be a whole number from 0 to 9223372036854775807"
done
expect_status 2 "sweep --seeds over all of int64" "$clerk" sweep "$data/small-hdd.toml" --dry-run \
  --seeds='-9223372036854775808..9223372036854775807:1'
expect_text "sweep --seeds over all of int64" "more than 100000 values"

# Suspicions: --resume with --overwrite is a contradiction; a summary of
# another sweep is not replaced without --overwrite.
expect_status 2 "sweep --resume --overwrite" "$clerk" sweep "$data/small-hdd.toml" --resume --overwrite -o "$tmp/ro"
expect_text "sweep --resume --overwrite" "contradict each other"
echo "another sweep's means" >"$tmp/sum.summary.csv"
expect_status 2 "sweep onto an existing summary" "$clerk" sweep "$data/small-hdd.toml" --set duration=1s -o "$tmp/sum"
expect_text "sweep onto an existing summary" "sum.summary.csv: exists"
[ "$(cat "$tmp/sum.summary.csv")" = "another sweep's means" ] && [ ! -e "$tmp/sum.csv" ] || fail "a sweep replaced a summary"
# Nor with --resume when there are no results to resume (review of probe 3).
expect_status 2 "--resume onto a lone summary" "$clerk" sweep "$data/small-hdd.toml" --set duration=1s -o "$tmp/sum" --resume
expect_text "--resume onto a lone summary" "no sweep here to resume"
[ "$(cat "$tmp/sum.summary.csv")" = "another sweep's means" ] && [ ! -e "$tmp/sum.csv" ] || fail "--resume replaced a summary"

# Finding 13: control bytes from the command line are shown escaped.
E=$(printf '\033]0;pwn\007')
no_escape() {  # description: the error output holds no ESC or BEL byte
  ! grep -q "$(printf '[\033\007]')" "$tmp/err" || fail "$1: control bytes reached the terminal: $(cat -v "$tmp/err" | head -c 300)"
}
expect_status 2 "sweep --mode ESC" "$clerk" sweep "$data/small-hdd.toml" --mode "$E" --dry-run
no_escape "sweep --mode ESC"
expect_status 2 "sweep --set with ESC in a value" "$clerk" sweep "$data/small-hdd.toml" --set "name=a${E}b" --dry-run
no_escape "sweep --set with ESC in a value"
expect_status 2 "merge -o ESC/" "$clerk" sweep merge "$tmp/q.kept" -o "$tmp/$E/"
no_escape "merge -o ESC/"
expect_status 0 "merge -o with ESC in the name" "$clerk" sweep merge "$tmp/q.kept" -o "$tmp/m$E.csv"
no_escape "merge -o with ESC in the name"
if command -v gnuplot >/dev/null; then
  expect_status 0 "plot -o with ESC in the name" "$clerk" plot "$good" --x x --y m -o "$tmp/p$E"
  no_escape "plot -o with ESC in the name"
fi

# Finding 15: client groups a metric path cannot name are refused naming the
# group; a group named with a newline is written in quotes and read back.
sed 's/^\[clients\.random\]/[clients."a.b"]/' "$data/small-hdd.toml" >"$tmp/dot.toml"
expect_status 2 "sweep of a group named a.b" "$clerk" sweep "$tmp/dot.toml" --dry-run
expect_text "sweep of a group named a.b" "client group 'a.b': has a '.' in its name"
sed 's/^\[clients\.random\]/[clients.""]/' "$data/small-hdd.toml" >"$tmp/nameless.toml"
expect_status 2 "sweep of a group named \"\"" "$clerk" sweep "$tmp/nameless.toml" --dry-run
expect_text "sweep of a group named \"\"" 'client group "": has an empty name'
sed 's/^\[clients\.random\]/[clients."a\\nb,c"]/' "$data/small-hdd.toml" >"$tmp/newline.toml"
expect_status 0 "sweep of a group named with a newline" "$clerk" sweep "$tmp/newline.toml" --set duration=0.2s \
  --set nginx.worker_processes=1,2 -o "$tmp/nl" -q
expect_status 0 "merge of that sweep's CSV" "$clerk" sweep merge "$tmp/nl.csv" -o "$tmp/nl-merged.jsonl"
grep -q '"clients.a\\nb,c.requests_per_s"' "$tmp/nl-merged.jsonl" || fail "the group's metric lost its name: $(head -c 300 "$tmp/nl-merged.jsonl")"
expect_status 0 "resume of that sweep" "$clerk" sweep "$tmp/newline.toml" --set duration=0.2s \
  --set nginx.worker_processes=1,2 -o "$tmp/nl" -q --resume
expect_text "resume of that sweep" "2 runs (2 from before, 0 now)"
printf 'sweep,run,point,x,seed,m\nabc,0,0,"1,1,1.5\nabc,1,0,1,2,2.5\n' >"$tmp/open-quote.csv"
expect_status 2 "merge of a CSV with a quote never closed" "$clerk" sweep merge "$tmp/open-quote.csv" -o "$tmp/oq.csv"
expect_text "merge of a CSV with a quote never closed" "open-quote.csv:2: a field's opening quote is never closed"

echo "cli_sweep_hostile: $failures failed"
[ "$failures" -eq 0 ]
