#!/usr/bin/env bash
# Hostile probe 3 (2026-11-28): the findings fixed in common code and in run,
# validate, lesson, gen-log, new, keys, clerk-disk and clerk-serve, each
# checked against what it was: an output whose temporary file cannot be made
# refused before the run (not after it), a name that is not UTF-8 written
# into the JSON (not exit 3 after the runs), NaN refused by every number
# option, bad input that was exit 3 now exit 2 naming it, stdin answers
# bounded, control bytes shown escaped, a lost report not exit 0, validate
# checking every file before any run, clerk-serve leaving no port file.
#   hostile3_test.sh CLERK DATA_DIR [CLERK_DISK|-] [CLERK_SERVE|-]
set -u
clerk=$1 data=$2 disk=${3:--} serve=${4:--}
. "$(dirname "$0")/lib.sh"
expect_timeout=60
E=$'\x1b]0;pwn\x07'
s=$data/small-hdd.toml
no_escape() {  # description, file: it holds no ESC or BEL byte
  if grep -q $'[\x1b\x07]' "$2"; then fail "$1: a raw control byte reached the terminal: $(head -c 300 "$2" | od -c | head -3)"; fi
}

# Finding 5: access() passed these; the writer failed after the whole run.
long=$(printf 'b%.0s' $(seq 250))
expect_status 2 "run --json with a name whose temporary is too long" "$clerk" run "$s" --duration 1 -q --json "$tmp/$long.json"
expect_text "run --json with a name whose temporary is too long" "cannot create a temporary file"
expect_status 2 "run --json under /proc" "$clerk" run "$s" --duration 1 -q --json /proc/clerk-x.json
# As root /proc passes access() and refuses the file; as another user access() refuses first.
expect_message "run --json under /proc" "cannot create a temporary file|cannot write in folder '/proc'"
ls -A "$tmp" | grep -q '^\.' && fail "a probe's temporary file was left: $(ls -A "$tmp")"

# Finding 6: a file name that is not UTF-8 is written as U+FFFD, exit 0.
cp "$s" "$tmp/bad"$'\xff'".toml"
expect_status 0 "run --json of a file named with a byte that is not UTF-8" \
  "$clerk" run "$tmp/bad"$'\xff'".toml" --duration 1 -q --no-timing --json "$tmp/r.json"
grep -qF "bad"$'\xef\xbf\xbd'".toml" "$tmp/r.json" 2>/dev/null || fail "the JSON lacks the name with U+FFFD"

# Findings 8 and 9: NaN passed CLI::Range.
expect_status 2 "gen-log --zipf nan" "$clerk" gen-log -o "$tmp/g.log" --duration 1s --zipf nan
expect_status 2 "gen-log --rate nan" "$clerk" gen-log -o "$tmp/g.log" --duration 1s --rate nan
expect_status 2 "gen-log --amplitude inf" "$clerk" gen-log -o "$tmp/g.log" --duration 1s --amplitude inf
[ -e "$tmp/g.log" ] && fail "gen-log wrote a log with a NaN option"
expect_status 2 "new --rate nan" "$clerk" new "$tmp/n1.toml" --rate nan
[ -e "$tmp/n1.toml" ] && fail "new wrote a scenario with --rate nan"
expect_status 0 "new --rate 100" "$clerk" new "$tmp/n2.toml" --rate 100

# Finding 8: a number below the smallest double as an answer (stod threw: exit 3).
lessons=$data/lessons
printf '1e-400\n50\n' >"$tmp/tiny-answers"
expect_status 0 "lesson answered 1e-400" "$clerk" lesson 1 --lessons "$lessons" --answers "$tmp/tiny-answers"
grep -qF "please type a number from 0 to 100" "$tmp/out" || fail "1e-400 was not asked again"
expect_status 0 "lesson answered 1e-400 on stdin" "$clerk" lesson 1 --lessons "$lessons" <"$tmp/tiny-answers"

# Finding 8: a lesson or scenario name that is a link in a loop (filesystem_error: exit 3).
mkdir -p "$tmp/loop/lessons" "$tmp/loop/scenarios"
ln -s 1-loop.toml "$tmp/loop/lessons/1-loop.toml"
expect_status 2 "lesson 1 in a folder with a link loop" "$clerk" lesson 1 --lessons "$tmp/loop/lessons"
expect_text "lesson 1 in a folder with a link loop" "1-loop.toml"
expect_status 2 "lesson --list of a folder with a link loop" "$clerk" lesson --list --lessons "$tmp/loop/lessons"
ln -s x.toml "$tmp/loop/scenarios/x.toml"
expect_status 2 "validate --scenarios of a folder with a link loop" "$clerk" validate --scenarios "$tmp/loop/scenarios"
expect_text "validate --scenarios of a folder with a link loop" "x.toml"
# A dangling link (an editor's lock file) is skipped, as before, not refused.
mkdir -p "$tmp/dangling"
cp "$lessons"/1-*.toml "$tmp/dangling/"
cp "$s" "$tmp/small-hdd.toml"  # the lesson's scenario, ../small-hdd.toml from its folder
ln -s nowhere.toml "$tmp/dangling/2-gone.toml"
expect_status 0 "lesson --list of a folder with a dangling link" "$clerk" lesson --list --lessons "$tmp/dangling"
ln -s nowhere.toml "$tmp/loop/scenarios/.#y.toml"
rm "$tmp/loop/scenarios/x.toml"
cp "$s" "$tmp/loop/scenarios/plain.toml"
expect_status 2 "validate --scenarios with a dangling link and no figures" "$clerk" validate --scenarios "$tmp/loop/scenarios"
grep -qF ".#y.toml" "$tmp/err" && fail "validate refused a dangling link: $(head -c 300 "$tmp/err")"

# Finding 10: answers on stdin are bounded as --answers files are.
expect_timeout=20
expect_status 2 "lesson < /dev/zero" "$clerk" lesson 1 --lessons "$lessons" </dev/zero
expect_text "lesson < /dev/zero" "more than 1 MiB"
expect_timeout=60

# Finding 13: control bytes from the command line and from files, escaped.
expect_status 2 "keys with a hostile table" "$clerk" keys "$E"
no_escape "keys with a hostile table" "$tmp/err"
expect_status 2 "an argument CLI11 does not expect" "$clerk" run "$s" "$E"
no_escape "an argument CLI11 does not expect" "$tmp/err"
expect_text "an argument CLI11 does not expect" '\x1b]0;pwn\x07'
expect_status 2 "--engine not in CLI11's list" "$clerk" run "$s" --engine "$E"
no_escape "--engine not in CLI11's list" "$tmp/err"
expect_status 2 "--workers out of CLI11's range" "$clerk" new "$tmp/n3.toml" --workers "1$E"
no_escape "--workers out of CLI11's range" "$tmp/err"
expect_status 2 "no lesson N in a hostile folder" "$clerk" lesson 7 --lessons "$tmp/$E"
no_escape "no lesson N in a hostile folder" "$tmp/err"
expect_status 2 "--handout that is no folder" "$clerk" lesson 1 --lessons "$lessons" --handout "$tmp/$E"
no_escape "--handout that is no folder" "$tmp/err"
mkdir -p "$tmp/gl"
expect_status 0 "gen-log -o with a hostile name" "$clerk" gen-log -o "$tmp/gl/$E.log" --duration 1s
no_escape "gen-log -o with a hostile name" "$tmp/out"
# A client group and a scenario named with controls: the report escapes them.
sed 's/^\[clients.hot\]/[clients."h\\u001b]0;pwn\\u0007"]/' "$s" >"$tmp/group.toml"
expect_status 0 "run of a group named with ESC" "$clerk" run "$tmp/group.toml" --duration 1 --no-timing \
  --set 'name="n\u009bx\u202ey"'
no_escape "run of a group named with ESC" "$tmp/out"
grep -qF 'client group "h\x1b]0;pwn\x07"' "$tmp/out" || fail "the group's name is not shown escaped"
grep -qF 'n\u{009b}x\u{202e}y' "$tmp/out" || fail "the scenario's name is not shown escaped"
# Lesson texts and echoed answers.
mkdir -p "$tmp/hl/lessons"
cp "$s" "$tmp/hl/small-hdd.toml"
sed 's/^title = "Without the pool"/title = "With\\u001b]0;pwn\\u0007out"/' "$lessons/1-tiny.toml" >"$tmp/hl/lessons/1-tiny.toml"
printf '5\n1\n\x1b]0;x\x07\n' >"$tmp/hl/answers"
expect_status 0 "lesson with a hostile step title and answer" "$clerk" lesson 1 --lessons "$tmp/hl/lessons" --answers "$tmp/hl/answers"
no_escape "lesson with a hostile step title and answer" "$tmp/out"
grep -qF 'With\x1b]0;pwn\x07out' "$tmp/out" || fail "the step title is not shown escaped"

# Suspicion confirmed: --handout checked both pages with access() only; the
# teacher's page's temporary (".1-NAME-teacher.md.XXXXXX", 259 bytes) could
# not be made, after the student's page was written.
mkdir -p "$tmp/hl2/lessons" "$tmp/hl2/out"
cp "$s" "$tmp/hl2/small-hdd.toml"
cp "$lessons/1-tiny.toml" "$tmp/hl2/lessons/1-$(printf 'x%.0s' $(seq 238)).toml"
expect_status 2 "--handout of a lesson whose teacher's page's temporary is too long" \
  "$clerk" lesson 1 --lessons "$tmp/hl2/lessons" --handout "$tmp/hl2/out"
[ -z "$(ls -A "$tmp/hl2/out")" ] || fail "--handout wrote a page before refusing the other: $(ls -A "$tmp/hl2/out" | cut -c1-20)"

# Suspicion confirmed: validate ran files 1..N-1 before it loaded file N.
printf 'duration = "1s"\n[nginx\n' >"$tmp/broken.toml"
expect_status 2 "validate with a bad second file" "$clerk" validate "$data/expect-known-miss.toml" "$tmp/broken.toml"
[ -s "$tmp/out" ] && fail "validate ran the first file before refusing the second: $(head -c 200 "$tmp/out")"

if [ "$disk" != - ]; then
  # Finding 9: NaN options of clerk-disk --model-fio.
  expect_status 2 "clerk-disk --seconds nan" "$disk" "$s" --model-fio --seconds nan
  expect_status 2 "clerk-disk --overhead-us nan" "$disk" "$s" --model-fio --seconds 0.01 --overhead-us nan
  # Finding 8: a scenario with no disk (a read reaching it was exit 3).
  # small-hdd.toml with its [disk] table (lines from "[disk]" to "[nic]") replaced, its data set in the cache.
  sed -e 's/^page_cache = "64m"/page_cache = "1g"/' -e '/^\[disk\]/,/^\[nic\]/{/^\[nic\]/!d}' -e 's/^\[nic\]/[disk]\ntype = "none"\n\n[nic]/' "$s" >"$tmp/nodisk.toml"
  expect_status 0 "clerk run of the scenario with disk type none" "$clerk" run "$tmp/nodisk.toml" --duration 1 -q
  expect_status 2 "clerk-disk of disk type none" "$disk" "$tmp/nodisk.toml" --model-fio --seconds 0.01
  expect_text "clerk-disk of disk type none" 'type is "none"'
  # Finding 16: the figures lost to a full disk.
  expect_status 2 "clerk-disk --model-fio > /dev/full" bash -c '"$0" "$1" --model-fio --seconds 0.01 >/dev/full' "$disk" "$s"
  expect_text "clerk-disk --model-fio > /dev/full" "cannot write the figures"
  expect_status 2 "clerk-disk --help > /dev/full" bash -c '"$0" --help >/dev/full' "$disk"
  expect_status 0 "clerk-disk --help" "$disk" --help
fi

if [ "$serve" != - ]; then
  # A --pid-file that cannot be written: no --port-file left behind.
  mkdir -p "$tmp/www"
  expect_status 1 "clerk-serve with an unwritable --pid-file" "$serve" --root "$tmp/www" --listen 127.0.0.1:0 \
    --port-file "$tmp/serve.port" --pid-file "$tmp/no/such/serve.pid"
  [ -e "$tmp/serve.port" ] && fail "clerk-serve left its --port-file when --pid-file failed"
  # A port file that is the user's FIFO is written through and never removed.
  mkfifo "$tmp/serve.fifo"
  cat "$tmp/serve.fifo" >/dev/null &
  expect_status 1 "clerk-serve with a FIFO --port-file and an unwritable --pid-file" "$serve" --root "$tmp/www" \
    --listen 127.0.0.1:0 --port-file "$tmp/serve.fifo" --pid-file "$tmp/no/such/serve.pid"
  [ -p "$tmp/serve.fifo" ] || fail "clerk-serve removed the FIFO given as --port-file"
  kill %1 2>/dev/null; wait 2>/dev/null
  # A bad command line is one line naming the option, exit 2, the value
  # shown escaped; an unknown option is named even with --root missing.
  esc=$(printf '\033')
  for bad in "--bogus|--bogus" "--root $tmp/www --bogus|--bogus" "--root $tmp/www --workers abc|--workers" \
    "--root $tmp/www --aio maybe|--aio" "--root $tmp/www --listen x${esc}y|--listen" "--root $tmp/no/such|--root" \
    "--root $tmp/www --aio-open on|--aio-open"; do
    # shellcheck disable=SC2086
    expect_status 2 "clerk-serve ${bad%|*}" "$serve" ${bad%|*}
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "clerk-serve ${bad%|*}: not one line: $(cat "$tmp/err")"
    expect_message "clerk-serve ${bad%|*}" "^clerk-serve: .*${bad#*|}"
    grep -q "$esc" "$tmp/err" && fail "clerk-serve ${bad%|*}: an escape byte reached stderr"
  done
fi

echo "cli_hostile3: $failures failed"
[ "$failures" -eq 0 ]
