#!/usr/bin/env bash
# clerk lesson (issue 16) as a student and a lesson's author meet it: the
# prompts driven by scripted answers (stdin and --answers), the answers and
# explanations taken from the run, a failed claim exiting 1, and every
# loader error naming the file, line and key with exit status 2.
#   lesson_test.sh CLERK DATA_DIR SOURCE_DIR
set -u
clerk=$1 data=$2 root=$3
. "$(dirname "$0")/lib.sh"
lessons=$data/lessons

# --list: the project's lessons, by number.
expect_status 0 "--list" "$clerk" lesson --list --lessons "$root/lessons"
grep -q "^  1  The blocked clerk" "$tmp/out" || fail "--list lacks lesson 1: $(cat "$tmp/out")"
grep -q "^  3  Shelves and the warehouse" "$tmp/out" || fail "--list lacks lesson 3"
grep -q "^  4  The slow read that is rare but stops everything" "$tmp/out" || fail "--list lacks lesson 4"
grep -q "^  5  Who gets which customer" "$tmp/out" || fail "--list lacks lesson 5"
grep -q "^  6  Sizing the team" "$tmp/out" || fail "--list lacks lesson 6"
grep -q "^  7  The alternatives" "$tmp/out" || fail "--list lacks lesson 7"
expect_status 2 "no such lesson" "$clerk" lesson 99 --lessons "$root/lessons"
expect_text "no such lesson" "no lesson 99"

# The prompts, answered on stdin: a number out of the slider's range and a
# word are asked again; a wrong choice is told so; an exercise's change of a
# key it does not offer is refused, the right change reaches the goal.
printf '150\nabc\n99\n\n7\n1\nnginx.worker_processes=2\nnginx.aio="off"\n' >"$tmp/answers"
expect_status 0 "lesson on stdin" "$clerk" lesson 1 --lessons "$lessons" <"$tmp/answers"
cp "$tmp/out" "$tmp/stdin.out"
# The visualizer is named once a lesson, at its first observed moment.
[ "$(grep -c 'describes the visualizer' "$tmp/out")" = 1 ] || fail "the visualizer is not named exactly once"
for want in "please type a number from 0 to 100" "Answer: 99.1 %" "You predicted 99 %: close enough." \
  "Why: The worker waited for the disk 99% of the time; {braces} stay." \
  "please type a number from 1 to 2" "You predicted this." "Answer: 1) Yes, as much" \
  "Observe (at 0.5 s, in clerk-ui): The pool took 60 tasks." \
  "  look at: clerk 0 (worker 0); clerk 0's delivery team (thread pool); the chart of the hot customers (client group hot); the figure server.thread_pool.tasks" \
  "(\"Observe\" describes the visualizer: \`clerk-ui --lesson 1\` plays this lesson" \
  "    clerk 0's delivery team (thread pool): 60 orders;" "    the figure server.thread_pool.tasks: 60" \
  "ok    the worker waits for the disk: the run gives " "  [server.workers.disk_wait_frac]" \
  "    nginx.aio (choice, \"off\", \"threads\"" "a new one replaces the one before, they do not add up" \
  "Now 78%, 0.79 times step 1's." "change one of: nginx.aio" "server.thread_pool.tasks = 0: goal reached" \
  "lesson 1: done; every claim held for the run"; do
  grep -qF -- "$want" "$tmp/out" || fail "stdin lesson lacks '$want'"
done
# A figure in seconds is printed with its unit, as the text quotes it; the
# shelves' pieces are the scenario's cache unit.
grep -qE -- "^    the figure clients\.hot\.latency_raw_s\.mean: [0-9.]+ (ms|s)\$" "$tmp/out" \
  || fail "a figure in seconds lacks its unit: $(grep 'latency_raw_s.mean:' "$tmp/out")"
grep -qF -- " of the 64 KB pieces looked up were there" "$tmp/out" || fail "the shelves' figures lack the cache unit"
# The same answers from a file: the same transcript.
expect_status 0 "lesson with --answers" "$clerk" lesson 1 --lessons "$lessons" --answers "$tmp/answers" </dev/null
cmp -s "$tmp/out" "$tmp/stdin.out" || fail "--answers and stdin differ: $(diff "$tmp/stdin.out" "$tmp/out" | head -5)"
# A wrong number: not close; the input ending early skips the rest, claims still checked.
printf '5\n2\n' >"$tmp/short"
expect_status 0 "answers ending early" "$clerk" lesson 1 --lessons "$lessons" --answers "$tmp/short"
grep -qF "You predicted 5 %: not close." "$tmp/out" || fail "a far guess is not told so"
grep -qF "You predicted 2). Read on" "$tmp/out" || fail "a wrong choice is not told so"
expect_status 2 "unreadable --answers" "$clerk" lesson 1 --lessons "$lessons" --answers "$tmp/none"
# Answers are decimal, as every number clerk reads: 0x10 is asked again, not
# taken as 16 (probe 5); so are a sign and a choice in hex.
printf '0x10\n+16\n16\n0x1\n1\n' >"$tmp/hex"
expect_status 0 "answers in hex" "$clerk" lesson 1 --lessons "$lessons" --answers "$tmp/hex"
[ "$(grep -c 'please type a number from 0 to 100' "$tmp/out")" = 2 ] || fail "a hex or signed estimate is taken: $(cat "$tmp/out")"
grep -qF "You predicted 16 %" "$tmp/out" || fail "the decimal estimate after the hex one is not taken"
grep -qF "please type a number from 1 to 2" "$tmp/out" || fail "a hex choice is taken: $(cat "$tmp/out")"

# --check: every claim, the exercise's goal unmet as the step stands and met by the solution.
expect_status 0 "--check" "$clerk" lesson 1 --lessons "$lessons" --check
grep -qF "ok    exercise: the solution nginx.aio=\"off\" meets it (0)" "$tmp/out" || fail "--check: exercise: $(cat "$tmp/out")"
# A claim the run does not bear out: exit 1, in the terminal and under --check, and no handout.
expect_status 1 "a failed claim" "$clerk" lesson 2 --lessons "$lessons" --answers "$tmp/answers"
grep -qF "FAIL  a claim that does not hold" "$tmp/out" || fail "the failed claim is not shown"
mkdir "$tmp/ho"
expect_status 1 "a failed claim, --handout" "$clerk" lesson 2 --lessons "$lessons" --handout "$tmp/ho"
[ -z "$(ls "$tmp/ho")" ] || fail "a handout was written for a lesson whose claim failed"
# A figure only the run can tell: a ratio over step 1's 0 tasks is a failed
# claim naming the text's file, line and key (exit 1), not an internal error.
expect_status 1 "a ratio over 0" "$clerk" lesson 3 --lessons "$lessons" --check
grep -qF "FAIL  $lessons/3-zero-base.toml:23: key 'step.2.explain': placeholder {server.thread_pool.tasks / steps.1.server.thread_pool.tasks}: the ratio's base 'steps.1.server.thread_pool.tasks' is 0" "$tmp/out" \
  || fail "a ratio over 0 is not a failed claim: $(cat "$tmp/out" "$tmp/err")"
grep -qF "ok    the pool takes tasks" "$tmp/out" || fail "the step's other claims are not checked after a failed placeholder"
expect_status 2 "--handout into no folder" "$clerk" lesson 1 --lessons "$lessons" --handout "$tmp/none"
expect_status 2 "--handout of an empty name" "$clerk" lesson 1 --lessons "$lessons" --handout ""
# A page that cannot be written (the teacher's is a link to a regular file)
# stops the lesson before any run, and neither page is written.
mkdir -p "$tmp/ho-link" && : >"$tmp/elsewhere.md" && ln -s "$tmp/elsewhere.md" "$tmp/ho-link/1-tiny-teacher.md"
expect_status 2 "--handout onto a link" "$clerk" lesson 1 --lessons "$lessons" --handout "$tmp/ho-link"
[ ! -e "$tmp/ho-link/1-tiny.md" ] || fail "--handout onto a link wrote the student's page"
[ ! -s "$tmp/out" ] || fail "--handout onto a link ran the lesson: $(head -c 200 "$tmp/out")"
# A page that is a file a step's scenario includes (a hard link here, issue
# 19): refused before any run, naming that file, which is left as it was.
mkdir -p "$tmp/lay/lessons" "$tmp/lay/hw" "$tmp/ho-inc"
cp "$lessons/1-tiny.toml" "$tmp/lay/lessons/" && cp "$data/small-hdd.toml" "$tmp/lay/hw/"
printf 'include = "hw/small-hdd.toml"\n' >"$tmp/lay/small-hdd.toml"
ln "$tmp/lay/hw/small-hdd.toml" "$tmp/ho-inc/1-tiny.md"
expect_status 2 "--handout onto an included file" "$clerk" lesson 1 --lessons "$tmp/lay/lessons" --handout "$tmp/ho-inc"
expect_text "--handout onto an included file" "is the same file as the input '$tmp/lay/hw/small-hdd.toml'"
cmp -s "$data/small-hdd.toml" "$tmp/lay/hw/small-hdd.toml" || fail "--handout overwrote a file the lesson's scenario includes"
[ ! -s "$tmp/out" ] || fail "--handout onto an included file ran the lesson: $(head -c 200 "$tmp/out")"
# Two lesson files of one number: refused naming both, not one picked.
mkdir -p "$tmp/twins" && cp "$lessons/1-tiny.toml" "$tmp/twins/1-tiny.toml" && cp "$lessons/1-tiny.toml" "$tmp/twins/01-copy.toml"
expect_status 2 "two lessons numbered 1" "$clerk" lesson 1 --lessons "$tmp/twins" --check
expect_text "two lessons numbered 1" "is lesson 1 too"
# The handout: the numbers filled in, the answer folded away on the student's page, on the teacher's not.
expect_status 0 "--handout" "$clerk" lesson 1 --lessons "$lessons" --handout "$tmp/ho"
grep -qF "<details><summary>After your prediction" "$tmp/ho/1-tiny.md" || fail "student page: answer not folded"
grep -qF "![The store at t = 0.5 s of the measured window, what to look at ringed](figures/1-2-observe.png)" "$tmp/ho/1-tiny.md" \
  || fail "handout lacks the observed moment's figure: $(grep -n 'figures/' "$tmp/ho/1-tiny.md")"
grep -qF "**Answer:** 1) Yes, as much" "$tmp/ho/1-tiny-teacher.md" || fail "teacher page lacks the answer"
grep -qF "**Solution:** \`--set nginx.aio=\"off\"\`" "$tmp/ho/1-tiny-teacher.md" || fail "teacher page lacks the solution"
# the command is relative to the folder above the lesson's (the project's root for lessons/)
grep -qF "The run: \`clerk run small-hdd.toml --set duration=\"1s\"" "$tmp/ho/1-tiny.md" \
  || fail "handout's command is not relative to the lessons' parent: $(grep 'The run' "$tmp/ho/1-tiny.md" | head -1)"

# Loader errors: file, line and key, exit 2, before any run.
check_error() {  # file, expected message (fixed text)
  expect_status 2 "$1" "$clerk" lesson "$lessons/bad/$1" --check
  expect_text "$1" "$2"
  [ ! -s "$tmp/out" ] || fail "$1: output before the error: $(head -c 200 "$tmp/out")"
}
check_error 1-bad-key.toml "1-bad-key.toml:10: key 'step.1.explian': unknown key (did you mean 'explain'?)"
check_error 2-bad-placeholder.toml "2-bad-placeholder.toml:10: key 'step.1.explain': placeholder {server.workers.disk_wait}: 'server.workers.disk_wait' is no figure of the run's JSON"
check_error 3-bad-format.toml "3-bad-format.toml:10: key 'step.1.explain': placeholder {server.workers.disk_wait_frac|kb}: format 'kb' is not one of ms, s, %, int, x"
check_error 4-later-step.toml "4-later-step.toml:19: key 'step.1.expect.relative_to': the first step has no step before it"
check_error 5-bad-set.toml "5-bad-set.toml:4: key 'set': the step's scenario does not load: --set: key 'nginx.worker_processes': must be between 1 and 1024"
check_error 6-known-miss.toml "6-known-miss.toml:19: key 'step.1.expect.known_miss': unknown key here: a lesson's claims must hold"
check_error 7-bad-highlight.toml "7-bad-highlight.toml:13: key 'step.1.observe.highlight': 'clerk.3': clerk.N needs a worker, 0 to 0"
check_error 8-choice-key.toml "8-choice-key.toml:19: key 'step.1.predict.choice.txt': unknown key (did you mean 'text'?)"
check_error 9-no-expect.toml "9-no-expect.toml:6: key 'step.1.expect': every step checks its claims"
check_error 10-goal-step.toml "10-goal-step.toml:23: key 'step.1.exercise.goal.metric': 'steps.1.server.thread_pool.tasks': a goal is a bound on the changed run's own figure, not step K's"
check_error 11-documented.toml "11-documented.toml:16: key 'step.1.expect.documented': unknown key here: a lesson's claim is its range (min, max)"
check_error 12-bad-expression.toml "12-bad-expression.toml:13: key 'step.1.expect.metric': 'clients.hot.requests_per_s * clients.hot.latency_raw_s.mean /': an expression is figures and numbers joined by ' + ', ' - ', ' * ' or ' / ' (one space each side), with parentheses"
# A section the report writes only for some configurations: a figure of the step whose scenario has it
# ({server.page_cache.direct.reads} with directio passes), and of no other.
check_error 13-section-absent.toml "13-section-absent.toml:22: key 'step.2.explain': placeholder {steps.1.server.page_cache.direct.reads}: 'server.page_cache.direct.reads' is no figure of the run's JSON"
# Figures per pool need aio threads posting to the pools: three pools that nothing names (aio off) have none.
check_error 14-pools-without-aio.toml "14-pools-without-aio.toml:13: key 'step.1.explain': placeholder {server.thread_pool.per_pool.pool_1.tasks}: 'server.thread_pool.per_pool.pool_1.tasks' is no figure of the run's JSON"
# The request a step follows in clerk-ui's replay: p50, p99 or max.
check_error 15-bad-replay.toml "15-bad-replay.toml:14: key 'step.1.observe.replay': 'p95': not one of \"p50\", \"p99\", \"max\" (the request followed)"
# ... and its group one of the step's scenario's, not the first in its place.
check_error 16-bad-replay-group.toml "16-bad-replay-group.toml:16: key 'step.1.observe.replay_group': 'hott': no client group of that name in this step's scenario"
# A bound of nan or infinity (min, max of a claim, a choice, a number prediction) is refused at load, not a FAIL.
check_error 17-nan-bound.toml "17-nan-bound.toml:15: key 'step.1.expect.min': must be a number, not nan"
check_error 18-nan-choice.toml "18-nan-choice.toml:19: key 'step.1.predict.choice.max': must be a number, not nan"
check_error 19-inf-number.toml "19-inf-number.toml:16: key 'step.1.predict.min': must be finite (leave the key out for no bound)"
# A claim relative to a step that runs what this step runs is 1 whatever
# the run does, so it could never fail (probe 5): refused at load.
check_error 20-same-step.toml "20-same-step.toml:25: key 'step.2.expect.relative_to': step 1 runs the same scenario with the same changes as this step"
# ... by any path or link to the scenario: step 2 names a link to step 1's
# file (probe 5: the check compared the paths' text, and the claim held).
mkdir -p "$tmp/link" && cp "$data/small-hdd.toml" "$tmp/link/s.toml" && ln -s s.toml "$tmp/link/link.toml"
sed -e 's|^scenario = .*|scenario = "s.toml"|' -e 's|^\[step.2\]$|[step.2]\nscenario = "link.toml"|' \
  "$lessons/bad/20-same-step.toml" >"$tmp/link/9-link.toml"
expect_status 2 "a link to step 1's scenario" "$clerk" lesson "$tmp/link/9-link.toml" --check
expect_text "a link to step 1's scenario" "9-link.toml:26: key 'step.2.expect.relative_to': step 1 runs the same scenario with the same changes as this step"
# A value beyond a double is refused as a ratio over 0 is: at load when the
# numbers alone overflow, a failed claim when only the run can tell (probe 5:
# the text said "inf" and --check passed).
check_error 21-overflow.toml "21-overflow.toml:12: key 'step.1.explain': placeholder {server.workers.disk_wait_frac * 1e308 * 10}: 'server.workers.disk_wait_frac * 1e308 * 10': the value is beyond a double's range"
expect_status 1 "a placeholder beyond a double" "$clerk" lesson "$lessons/4-overflow.toml" --check
grep -qF "FAIL  $lessons/4-overflow.toml:13: key 'step.1.explain': placeholder {server.page_cache.capacity_bytes * server.page_cache.capacity_bytes * 1e300}: " "$tmp/out" \
  || fail "a placeholder beyond a double is not a failed claim: $(cat "$tmp/out" "$tmp/err")"
grep -qF "the value is beyond a double's range" "$tmp/out" || fail "the failed placeholder does not say why: $(cat "$tmp/out")"
grep -qw "inf" "$tmp/out" && fail "a placeholder beyond a double is shown: $(grep -w inf "$tmp/out")"
# Numbers in expressions are decimal, as clerk's other readers take them.
check_error 22-hex-number.toml "22-hex-number.toml:14: key 'step.1.expect.metric': 'server.workers.disk_wait_frac * 0x10': an expression is"
# A refused expression of 400 KB (parentheses 200,000 deep) is shown cut,
# about where the reading stopped, with its position: not echoed whole.
mkdir -p "$tmp/deep"
{
  sed -n '1,14p' "$lessons/bad/22-hex-number.toml" | sed "s|\.\./\.\./small-hdd.toml|$data/small-hdd.toml|"
  printf 'metric = "'
  printf '%*s' 200000 '' | tr ' ' '('
  printf 'server.workers.disk_wait_frac'
  printf '%*s' 200000 '' | tr ' ' ')'
  printf '"\nmin = 0.5\n'
} >"$tmp/deep/1-deep.toml"
expect_status 2 "a 400 KB expression" "$clerk" lesson "$tmp/deep/1-deep.toml" --check
expect_text "a 400 KB expression" "1-deep.toml:14: key 'step.1.expect.metric': '((((("
expect_text "a 400 KB expression" "' (at character 17 of 400029): an expression is"
[ "$(wc -c <"$tmp/err")" -lt 1000 ] || fail "a 400 KB expression is echoed: $(wc -c <"$tmp/err") bytes on stderr"
# A long expression cut short (no operand after its last " +") stops at its
# end: said so, not "at character 128 of 127".
long=$(printf 'server.workers.disk_wait_frac + %.0s' 1 2 3)server.workers.disk_wait_frac' +'
sed "s|\.\./\.\./small-hdd.toml|$data/small-hdd.toml|; s|^metric = .*|metric = \"$long\"|" \
  "$lessons/bad/22-hex-number.toml" >"$tmp/deep/1-end.toml"
expect_status 2 "a long expression cut short" "$clerk" lesson "$tmp/deep/1-end.toml" --check
expect_text "a long expression cut short" "server.workers.disk_wait_frac +' (at its end, after character ${#long}): an expression is"
grep -q "at character $((${#long} + 1)) of" "$tmp/err" && fail "a long expression cut short: $(cat "$tmp/err")"
expect_status 2 "a file not named N-name.toml" "$clerk" lesson "$data/small-hdd.toml"
expect_text "lesson file name" "a lesson file is named N-name.toml"

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "lesson_test: ok"
