#!/usr/bin/env bash
# A guided lesson walked in clerk-ui headless (issue 16): every step of
# lesson N, its predictions answered by this test (the first choice, or the
# slider's lowest value), a capture at each observed moment and after the
# run. At each observed moment every element the step highlights is drawn
# with its ring (png_check ring on the rectangle clerk-ui says it ringed),
# and no other element of the store that does not touch a ringed one is
# (png_check noring); the explanation's capture has no ring. Each
# prediction is compared with the run ("You predicted ..."). A step that
# asks for a replay (observe.replay: follow one customer) has a capture of
# it held at its longest stop, the customer drawn where clerk-ui says it
# stands, inside the place it says.
# Usage: lesson_ui_test.sh CLERK_UI PNG_CHECK SOURCE_DIR OUT_DIR N
set -euo pipefail
ui=$1 check=$2 src=$3 out=$4 n=$5
file=$(ls "$src"/lessons/"$n"-*.toml)
mkdir -p "$out"
rm -f "$out/$n"-*
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# The answers: one a line for each step that asks, in order.
awk '/^\[step\.[0-9]+\.predict\]$/ { if (inp) print ans; inp = 1; ans = "1"; next }
     /^\[/ { if (inp) print ans; inp = 0; next }
     inp && /^slider *=/ { v = $0; sub(/^[^[]*\[ */, "", v); sub(/ *,.*/, "", v); ans = v }
     END { if (inp) print ans }' "$file" >"$out/$n-answers"
asked=$(grep -c '' "$out/$n-answers" || true)
steps=$(grep -c '^\[step\.[0-9]*\]$' "$file")
# How many elements each step highlights, by step.
awk '/^\[step\.[0-9]+/ { s = $0; sub(/^\[step\./, "", s); sub(/[^0-9].*/, "", s) }
     /^highlight *=/ { c = gsub(/"[^"]*"/, "&"); print s, c }' "$file" >"$out/$n-highlights"

# The steps that follow one customer.
awk '/^\[step\.[0-9]+/ { s = $0; sub(/^\[step\./, "", s); sub(/[^0-9].*/, "", s) }
     /^replay *=/ { print s }' "$file" >"$out/$n-replays"

rc=0
"$src/ui/tools/with-xvfb" "$ui" --lesson "$file" --answers "$out/$n-answers" --captures "$out" --width 1600 --height 1000 \
  >"$out/$n.log" 2>&1 || rc=$?
cat "$out/$n.log"
[ "$rc" = 0 ] || fail "clerk-ui --lesson $n --captures exited $rc"

[ "$(grep -c '^  You predicted' "$out/$n.log" || true)" = "$asked" ] || fail "not every one of the $asked predictions was compared with the run"
for k in $(seq "$steps"); do
  shot=$out/$n-$k-observe
  [ -f "$shot.png" ] && [ -f "$out/$n-$k-explain.png" ] || { fail "step $k: no capture"; continue; }
  "$check" nonblank "$shot.png" >/dev/null || fail "step $k: blank capture"
  want=$(awk -v k="$k" '$1 == k { print $2 }' "$out/$n-highlights")
  got=$(grep -c '^ring ' "$shot.txt" || true)
  [ "$got" = "${want:-0}" ] || fail "step $k: ${want:-0} elements highlighted, $got ringed: $(cat "$shot.txt")"
  if grep '^missing ' "$shot.txt"; then fail "step $k: a highlighted element is drawn nowhere"; fi
  while read -r kind id x0 y0 x1 y1; do
    "$check" ring "$shot.png" "$x0" "$y0" "$x1" "$y1" || fail "step $k: $id is not ringed in the capture"
    # After the run the view is not dimmed nor ringed: the check tells the two apart.
    if "$check" ring "$out/$n-$k-explain.png" "$x0" "$y0" "$x1" "$y1" >/dev/null; then
      fail "step $k: the explanation's capture has a ring at $id"
    fi
  done < <(grep '^ring ' "$shot.txt")
  # Elements not highlighted, and not touching a highlighted one, carry no ring.
  while read -r kind id x0 y0 x1 y1; do
    if awk -v a="$x0" -v b="$y0" -v c="$x1" -v d="$y1" \
      '$1 == "ring" && !($5 < a || $3 > c || $6 < b || $4 > d) { hit = 1 } END { exit !hit }' "$shot.txt"; then
      continue
    fi
    "$check" noring "$shot.png" "$x0" "$y0" "$x1" "$y1" || fail "step $k: $id is ringed though not highlighted"
  done < <(grep '^other ' "$shot.txt")
done
while read -r k; do
  shot=$out/$n-$k-replay
  [ -f "$shot.png" ] && [ -f "$shot.txt" ] || { fail "step $k: no capture of the replay"; continue; }
  "$check" nonblank "$shot.png" >/dev/null || fail "step $k: blank replay capture"
  read -r word which _ stop place x y _ x0 y0 x1 y1 <"$shot.txt" || true
  [ "$word" = replay ] || { fail "step $k: the replay did not start: $(cat "$shot.txt")"; continue; }
  "$check" customer "$shot.png" "$x" "$y" || fail "step $k: no customer at $x,$y ($place, stop $stop)"
  [ "$x" -ge "$x0" ] && [ "$x" -le "$x1" ] && [ "$y" -ge "$y0" ] && [ "$y" -le "$y1" ] ||
    fail "step $k: the customer at $x,$y is outside the $place ($x0,$y0-$x1,$y1)"
done <"$out/$n-replays"
[ "$fails" = 0 ] || { echo "lesson $n in clerk-ui: $fails failures"; exit 1; }
echo "lesson $n in clerk-ui: ok ($steps steps)"
