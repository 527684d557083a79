#!/usr/bin/env bash
# clerk-ui's exit statuses are clerk's (probe 5, finding 7): 0 done, 1 only
# for a lesson's claim that does not hold, 2 for what cannot be done as asked
# (a bad option combination, found before the run; an output that cannot be
# written; no display). Before, a full disk under --screenshot or --captures,
# `--crop lesson` without the lesson panel and a missing display were all
# exit 1, which a script walking lessons could not tell from a failed claim.
# (The bad option combinations themselves: ui_bad_input_test.sh; an OpenGL
# older than 3.2: ui_capture_test.sh.)
# Usage: ui_exit_status_test.sh CLERK_UI SOURCE_DIR OUT_DIR
set -uo pipefail
ui=$1 src=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
xvfb=$src/ui/tools/with-xvfb
short=(--scenario "$src/scenarios/agreement/hits.toml" --set 'warmup="0s"' --set 'duration="1s"' --at 0.5)
fails=$src/tests/data/lessons/2-fails.toml  # step 2's claim does not hold
tiny=$src/tests/data/lessons/1-tiny.toml    # every claim holds
printf '50\n2\n' >"$out/answers"            # step 1's slider, step 2's choice

expect() {  # STATUS WHAT-THE-OUTPUT-NAMES COMMAND...
  local want=$1 names=$2 got rc
  shift 2
  got=$(timeout 600 "$@" 2>&1); rc=$?
  if [ "$rc" -ne "$want" ] || ! grep -q -- "$names" <<<"$got"; then
    echo "FAIL: $*: exit $rc, expected $want and output naming '$names'; got: $got"
    exit 1
  fi
  echo "ok: exit $want ($names)"
}

# No display: the machine cannot do what was asked, as clerk plot without gnuplot.
expect 2 "cannot open a display" env -u DISPLAY -u WAYLAND_DISPLAY "$ui" "${short[@]}" --screenshot "$out/none.png"
[ ! -e "$out/none.png" ] || { echo "FAIL: a screenshot without a display"; exit 1; }

# A screenshot that cannot be written: a full disk.
expect 2 "--screenshot: .*No space left on device" "$xvfb" "$ui" "${short[@]}" --screenshot /dev/full

# The lesson panel cropped, with the panel shown: written (without --lesson: ui_bad_input_test.sh).
expect 0 "" "$xvfb" "$ui" "${short[@]}" --lesson --screenshot "$out/lesson.png" --crop lesson
[ -s "$out/lesson.png" ] || { echo "FAIL: no cropped lesson panel"; exit 1; }

# A lesson capture that cannot be written (one capture a link to a full disk):
# exit 2, not the failed claim's 1, though this lesson's claim fails too.
mkdir "$out/full"
ln -s /dev/full "$out/full/2-1-explain.png"
expect 2 "--captures: .*2-1-explain.png.*No space left on device" "$xvfb" "$ui" --lesson "$fails" --answers "$out/answers" --captures "$out/full"
[ -L "$out/full/2-1-explain.png" ] || { echo "FAIL: the link to /dev/full was replaced"; exit 1; }
only_files() {  # DIR FILE...: DIR holds these files and nothing else (no capture, no temporary)
  local dir=$1 got want
  shift
  got=$(ls -A "$dir" | sort)
  want=$(printf '%s\n' "$@" | sort)
  [ "$got" = "$want" ] || { echo "FAIL: $dir holds [$(echo $got)], expected only [$(echo $want)]"; exit 1; }
}
only_files "$out/full" 2-1-explain.png

# The captures are all or none (probe 6), as clerk lesson --handout's pages:
# the last capture unwritable (a link to a full disk) leaves none of the
# earlier steps' files and no temporary, and what the folder held before is
# untouched (an old capture of the same name kept as it was).
mkdir "$out/last"
echo "old capture" >"$out/last/1-1-observe.png"
echo "keep me" >"$out/last/keep.txt"
ln -s /dev/full "$out/last/1-2-explain.png"
expect 2 "--captures: cannot write '.*1-2-explain.png': .*No space left on device" \
  "$xvfb" "$ui" --lesson "$tiny" --answers "$out/answers" --captures "$out/last"
only_files "$out/last" 1-1-observe.png keep.txt 1-2-explain.png
[ "$(cat "$out/last/1-1-observe.png")" = "old capture" ] || { echo "FAIL: an old capture was replaced"; exit 1; }
[ "$(cat "$out/last/keep.txt")" = "keep me" ] || { echo "FAIL: a file in the folder was changed"; exit 1; }
echo "ok: a capture that cannot be written leaves none"

# SIGTERM in the middle of the walk (step 1 captured, step 2 not): nothing of
# the set is written, no temporary. The process is stopped (SIGSTOP) once
# step 1 is captured and the signal sent only if the walk had not ended by
# then (its last line not yet printed); else tried again.
sigterm_mid_walk() {  # DIR: 0 when the signal came mid-walk, 1 when the walk ended first
  local dir=$1 wrapper pid=
  "$xvfb" "$ui" --lesson "$tiny" --answers "$out/answers" --captures "$dir" >"$dir.log" 2>&1 &
  wrapper=$!
  for _ in $(seq 1200); do
    grep -q "made .*1-1-explain.png" "$dir.log" && pid=$(pgrep -P "$wrapper" -x clerk-ui) && break
    kill -0 "$wrapper" 2>/dev/null || break
    sleep 0.05
  done
  [ -n "$pid" ] || { echo "FAIL: clerk-ui did not reach step 2: $(cat "$dir.log")"; exit 1; }
  kill -STOP "$pid"
  if grep -q "^lesson 1:" "$dir.log"; then
    kill -CONT "$pid"
    wait "$wrapper"
    return 1
  fi
  kill -TERM "$pid"
  kill -CONT "$pid"
  wait "$wrapper"
  return 0
}
mid=0
for try in 1 2 3; do
  rm -rf "$out/term"
  mkdir "$out/term"
  echo "keep me" >"$out/term/keep.txt"
  if sigterm_mid_walk "$out/term"; then mid=1; break; fi
  echo "try $try: the walk ended before the signal; again"
done
[ "$mid" = 1 ] || { echo "FAIL: the signal never came before the walk's end"; exit 1; }
only_files "$out/term" keep.txt
[ "$(cat "$out/term/keep.txt")" = "keep me" ] || { echo "FAIL: a file in the folder was changed"; exit 1; }
echo "ok: SIGTERM mid-walk leaves no capture"

# A claim that does not hold: 1, every capture written.
mkdir "$out/fails"
expect 1 "lesson 2: a claim did not hold" "$xvfb" "$ui" --lesson "$fails" --answers "$out/answers" --captures "$out/fails"
[ -s "$out/fails/2-2-explain.png" ] || { echo "FAIL: the failed lesson's last capture is missing"; exit 1; }
# Every claim holding: 0.
mkdir "$out/tiny"
expect 0 "lesson 1: every claim held" "$xvfb" "$ui" --lesson "$tiny" --answers "$out/answers" --captures "$out/tiny"
only_files "$out/tiny" 1-1-observe.png 1-1-observe.txt 1-1-explain.png 1-2-observe.png 1-2-observe.txt 1-2-explain.png
echo "ui exit status: ok"
