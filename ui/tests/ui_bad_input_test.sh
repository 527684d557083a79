#!/usr/bin/env bash
# Bad input to clerk-ui: exit status 2 and a message naming what is wrong,
# before any window is opened (so no display is needed).
# Usage: ui_bad_input_test.sh CLERK_UI SOURCE_DIR
set -uo pipefail
ui=$1 src=$2
expect() {  # expect WHAT-THE-MESSAGE-NAMES ARGS...
  local names=$1; shift
  local rc  # out stays set, for expect_escaped
  # A time limit: a FIFO or /dev/zero given as input must be refused, not waited on.
  out=$(timeout 120 env -u DISPLAY "$ui" "$@" 2>&1); rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q -- "$names" <<<"$out"; then
    echo "FAIL: clerk-ui $*: exit $rc, expected 2 and a message naming '$names'; got: $out"
    exit 1
  fi
  echo "ok: clerk-ui $* -> $out"
}
expect "no-such.toml" --scenario /nonexistent/no-such.toml
expect "nginx.aio" --scenario "$src/scenarios/nginx-9x/blocking.toml" --set nginx.aio=sometimes
expect "--crop" --crop store
# Probe 5, finding 7: combinations found before the run, not after it (exit 1
# "nothing to capture"), nor silently ignored.
expect "--crop lesson needs --lesson" --screenshot /tmp/never.png --crop lesson
expect "--hover needs --screenshot or --captures" --series /tmp/never.json --hover 5,5
expect "--hover needs --screenshot or --captures" --hover 5,5
expect "not with --bench" --series /tmp/never.json --bench
expect "not with --replay" --series /tmp/never.json --at 1 --replay p99
expect "--bench and --screenshot are separate runs" --screenshot /tmp/never.png --bench
expect "--series and --captures are separate runs" --series /tmp/never.json --lesson 1 --captures /tmp
# An empty name is no file, as clerk run's --json '' (the window opened instead).
expect "--series: needs a file name" --series ''
expect "--screenshot: needs a file name" --screenshot ''
expect "--answers: needs a file name" --lesson 1 --answers '' --captures /tmp
expect "--captures: needs a folder name" --lesson 1 --captures ''
# Numbers out of range: short messages, no wrapped seed (issue 21, findings 6 and 9).
expect "--seed: must be a whole number" --seed -1
expect "--seed: must be a whole number" --seed 18446744073709551615
expect "--at: must be a number of seconds from 0 to 100000" --at nan
expect "--at: must be a number of seconds from 0 to 100000" --at 1e308
# The replay's group: one of the scenario's, named with the option (not the first in its place).
expect "--replay-group: 'randum': no client group of that name in this run (its groups: constant, random)" \
  --scenario "$src/scenarios/nginx-9x/blocking.toml" --at 1 --replay p99 --replay-group randum
expect "--replay-group needs --replay" --scenario "$src/scenarios/nginx-9x/blocking.toml" --replay-group random
# NaN passed CLI::Range and sscanf's %f (issue 21, finding 6).
expect "--speed: must be a number" --speed nan
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover nan,nan
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover 1,inf
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover -5,5
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover 5,5,5
# Probe 6: a number is decimal and all of the text, as --seed's (strtod took
# 0x10 as 16 and 0x1p-4 as 0.0625), and an empty one is given, not absent.
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover 0x10,0x10
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover ''
expect "--hover wants X,Y" --screenshot /tmp/never.png --hover ' 5,5'
expect "--replay-at wants screen seconds" --scenario "$src/scenarios/nginx-9x/blocking.toml" --at 1 --replay p99 \
  --screenshot /tmp/never.png --replay-at 0x10
expect "--replay-at wants screen seconds" --scenario "$src/scenarios/nginx-9x/blocking.toml" --at 1 --replay p99 \
  --screenshot /tmp/never.png --replay-at ''
expect "--at: must be a number of seconds from 0 to 100000" --at 0x1p-4
expect "--speed: must be a number" --speed 0x1
expect "--font-scale: must be a number" --font-scale 0x1
# --screenshot through the project's writer, checked before anything runs
# (issue 21, finding 2): a link planted at the path is refused, not followed.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "keep me" >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/shot.png"
expect "symbolic link" --screenshot "$tmp/shot.png"
[ "$(cat "$tmp/victim")" = "keep me" ] || { echo "FAIL: --screenshot wrote through a link"; exit 1; }
expect "names a folder" --screenshot "$tmp/"
expect "no folder" --screenshot "$tmp/none/shot.png"
# --series through the same writer (issue 22), checked before anything runs.
ln -s "$tmp/victim" "$tmp/series.json"
expect "symbolic link" --series "$tmp/series.json"
[ "$(cat "$tmp/victim")" = "keep me" ] || { echo "FAIL: --series wrote through a link"; exit 1; }
expect "names a folder" --series "$tmp/"
expect "--series and --screenshot" --series "$tmp/s.json" --screenshot "$tmp/s.png"

# Probe 3. Text from the command line or a file is shown escaped in
# clerk-ui's messages (common/shown_text.h): no raw control byte reaches
# the terminal.
E=$'\x1b]0;pwn\x07'
expect_escaped() {  # as expect, and the message holds no ESC or BEL byte
  expect "$@"
  if grep -q $'[\x1b\x07]' <<<"$out"; then echo "FAIL: clerk-ui ${*:2}: a raw control byte in: $out"; exit 1; fi
}
expect_escaped '\\x1b' --screenshot /tmp/never.png --hover "$E"
expect_escaped '\\x1b' --scenario "$src/scenarios/nginx-9x/blocking.toml" --at 1 --replay p99 --screenshot /tmp/never.png --replay-at "$E"
expect_escaped '\\x1b' --series "$tmp/none$E/s.json"
expect_escaped '\\x1b' --screenshot "$tmp/none$E/s.png"
expect_escaped '\\x1b' --crop "$E"
expect_escaped '\\x1b' --lesson 1 --captures "$tmp/none$E"
printf '%s\n' "$E" >"$tmp/answers-esc"
expect_escaped '\\x1b' --lesson 1 --answers "$tmp/answers-esc" --captures "$tmp"
# NaN passes CLI::Range: every numeric option refuses it.
expect "--font-scale: must be a number" --font-scale nan
expect "--width" --width nan
expect "--frames" --frames nan

# A lessons folder clerk-ui cannot list (a symbolic link loop) is bad input, not an abort.
mkdir -p "$tmp/loop/lessons"
ln -s 1-loop.toml "$tmp/loop/lessons/1-loop.toml"
(cd "$tmp/loop" && expect "Too many levels of symbolic links" --lesson 1 --series "$tmp/loop/o.json") || exit 1
# --answers read as clerk lesson --answers reads it: a FIFO, /dev/zero or a folder refused at once.
mkfifo "$tmp/answers.fifo"
expect "is a FIFO" --lesson 1 --answers "$tmp/answers.fifo" --captures "$tmp"
expect "not a regular file" --lesson 1 --answers /dev/zero --captures "$tmp"
expect "is a folder" --lesson 1 --answers "$tmp" --captures "$tmp"

# A scenario of three files, run for an instant (--series needs no window).
cp "$src"/scenarios/agreement/{hits,machine,simple-ssd}.toml "$tmp/"
short=(--set 'warmup="0s"' --set 'duration="0.01s"')
# No output may be one of the inputs: the scenario, its includes, the
# lesson's files and its answers (as clerk run's check_not_an_input).
cp "$tmp/machine.toml" "$tmp/machine.keep"
expect "--series: cannot write .* is the same file as the input" --scenario "$tmp/hits.toml" "${short[@]}" --series "$tmp/machine.toml"
expect "--screenshot: cannot write .* is the same file as the input" --scenario "$tmp/hits.toml" "${short[@]}" --screenshot "$tmp/simple-ssd.toml"
cmp -s "$tmp/machine.toml" "$tmp/machine.keep" || { echo "FAIL: --series replaced an included file"; exit 1; }
mkdir "$tmp/caps"
: >"$tmp/caps/1-1-observe.txt"
expect "--captures: cannot write .* is the same file as the input" --lesson 1 --answers "$tmp/caps/1-1-observe.txt" --captures "$tmp/caps"
# An output that cannot be created (a name too long for its temporary) is exit 2, the user's to fix.
expect "too long" --scenario "$tmp/hits.toml" "${short[@]}" --series "$tmp/$(printf 'a%.0s' $(seq 250)).json"

# Probe 6: --at beyond the run is refused, naming the option, its value and
# the run's length, with nothing written (it was held at the run's end:
# exit 0 and "at_s": 1.0), as a lesson's observe.at beyond the run is.
one_s=(--set 'duration="1s"')
expect "--at 100000: beyond the run, whose measured window lasts 1 s" \
  --scenario "$tmp/hits.toml" "${one_s[@]}" --at 100000 --series "$tmp/at.json"
expect "--at 1.5: beyond the run, whose measured window lasts 1 s" \
  --scenario "$tmp/hits.toml" "${one_s[@]}" --at 1.5 --screenshot "$tmp/at.png"
[ ! -e "$tmp/at.json" ] && [ ! -e "$tmp/at.png" ] || { echo "FAIL: --at beyond the run wrote a file"; exit 1; }
# The run's end itself is a moment of it.
out=$(env -u DISPLAY "$ui" --scenario "$tmp/hits.toml" "${one_s[@]}" --at 1 --series "$tmp/at.json" 2>&1) ||
  { echo "FAIL: --at 1 of a 1 s run: $out"; exit 1; }
grep -q '"at_s": 1.0,' "$tmp/at.json" || { echo "FAIL: --at 1 of a 1 s run: $(head -5 "$tmp/at.json")"; exit 1; }
echo "ok: --at at the run's end"
# --replay-at beyond the replay (the sum of its stops' screen seconds) is
# refused too, before a display is needed (it showed the replay's end).
expect "--replay-at 3600: beyond the replay of p99, which lasts .* screen seconds" \
  --scenario "$src/scenarios/nginx-9x/blocking.toml" --at 2 --replay p99 --screenshot "$tmp/replay.png" --replay-at 3600
[ ! -e "$tmp/replay.png" ] || { echo "FAIL: --replay-at beyond the replay wrote a file"; exit 1; }
# Probe 7's last minor: a replay asked for before any response of the group
# completed said "no response ... yet", though clerk run's same window had
# some: the visualizer starts cold (app.cpp, cold_unless_told). The message
# says how far the run is, and why, unless the warm-up was asked for.
expect "no response of group constant has completed in the first 1.5 s of the measured window (the visualizer starts cold, where clerk run warms up first: --set warmup=... does the same here)" \
  --scenario "$src/scenarios/nginx-9x/blocking.toml" --at 1.5 --replay p50 --screenshot "$tmp/replay.png"
expect "no response of group constant has completed in the first 0.5 s of the measured window$" \
  --scenario "$src/scenarios/nginx-9x/blocking.toml" --set warmup=0s --at 0.5 --replay max --screenshot "$tmp/replay.png"
[ ! -e "$tmp/replay.png" ] || { echo "FAIL: a replay with nobody to follow wrote a file"; exit 1; }

# A file name that is not UTF-8 is written into --series' JSON (as U+FFFD), not an abort.
cp "$tmp/hits.toml" "$tmp/bad"$'\xff'".toml"
out=$(env -u DISPLAY "$ui" --scenario "$tmp/bad"$'\xff'".toml" "${short[@]}" --series "$tmp/bad.json" 2>&1); rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '"file": ".*bad'$'\xef\xbf\xbd''.toml"' "$tmp/bad.json"; then
  echo "FAIL: --series of a non-UTF-8 scenario name: exit $rc: $out"; exit 1
fi
echo "ok: --series of a non-UTF-8 scenario name"

# The whole 64-bit seed, as clerk run takes it (an int cut 4294967297 to 1):
# from --seed and from the scenario's own seed.
seed_of() { sed -n 's/^ *"seed": \([0-9]*\),$/\1/p' "$1"; }
for args in "--seed 4294967297" "--set seed=4294967297"; do
  # shellcheck disable=SC2086
  env -u DISPLAY "$ui" --scenario "$tmp/hits.toml" "${short[@]}" $args --series "$tmp/seed.json" || { echo "FAIL: $args"; exit 1; }
  [ "$(seed_of "$tmp/seed.json")" = 4294967297 ] || { echo "FAIL: $args ran seed $(seed_of "$tmp/seed.json")"; exit 1; }
  echo "ok: $args runs seed 4294967297"
done

# A report lost on standard output (a full disk) is no success.
for args in --list-scenarios --help; do
  out=$(env -u DISPLAY "$ui" "$args" 2>&1 >/dev/full); rc=$?
  if [ "$rc" -ne 2 ] || ! grep -q "cannot write to standard output" <<<"$out"; then
    echo "FAIL: clerk-ui $args >/dev/full: exit $rc: $out"; exit 1
  fi
  echo "ok: clerk-ui $args >/dev/full -> $out"
done
