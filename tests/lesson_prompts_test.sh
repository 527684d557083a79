#!/usr/bin/env bash
# One of the project's lessons driven through its prompts as a student meets
# it (issue 16): `clerk lesson N` with the answers on stdin, one a line for
# each prediction in order (the last choice, or the slider's highest value)
# and, for a step with an exercise, the teacher's solution. The transcript
# must show every step, answer every prediction from the run ("You
# predicted ..."), reach every exercise's goal and end with every claim held.
#   lesson_prompts_test.sh CLERK SOURCE_DIR N
set -u
clerk=$1 root=$2 n=$3
. "$(dirname "$0")/lib.sh"
file=$(ls "$root"/lessons/"$n"-*.toml)

# The answers, in the order the terminal asks: a step's prediction, then its exercise's change.
awk '/^\[step\.[0-9]+\]$/ { flush() }
     /^\[step\.[0-9]+\.predict\]$/ { pred = 1; ans = ""; sect = "predict"; next }
     /^\[\[step\.[0-9]+\.predict\.choice\]\]$/ { nchoice++; ans = nchoice; sect = "choice"; next }
     /^\[step\.[0-9]+\.exercise\]$/ { sect = "exercise"; next }
     /^\[/ { sect = ""; next }
     sect == "predict" && /^slider *=/ { v = $0; sub(/^[^,]*, */, "", v); sub(/ *\].*/, "", v); ans = v }
     sect == "exercise" && /^solution *=/ { v = $0; sub(/^solution *= *"/, "", v); sub(/"$/, "", v); gsub(/\\"/, "\"", v); sol = v }
     function flush() { if (pred) print ans; if (sol != "") print sol; pred = 0; nchoice = 0; sol = "" }
     END { flush() }' "$file" >"$tmp/answers"
asked=$(grep -c '^\[step\.[0-9]*\.predict\]$' "$file")
steps=$(grep -c '^\[step\.[0-9]*\]$' "$file")
exercises=$(grep -c '^\[step\.[0-9]*\.exercise\]$' "$file")

expect_status 0 "lesson $n through its prompts" "$clerk" lesson "$n" --lessons "$root/lessons" <"$tmp/answers"
for k in $(seq "$steps"); do
  grep -q "^== Step $k of $steps: " "$tmp/out" || fail "lesson $n: step $k is not shown"
done
[ "$(grep -c '^You predicted' "$tmp/out" || true)" = "$asked" ] \
  || fail "lesson $n: not every one of the $asked predictions was answered from the run"
[ "$(grep -c ': goal reached' "$tmp/out" || true)" = "$exercises" ] \
  || fail "lesson $n: not every one of the $exercises exercises reached its goal with the solution"
grep -q "^lesson $n: done; every claim held for the run" "$tmp/out" || fail "lesson $n: a claim failed"
grep -q "FAIL" "$tmp/out" && fail "lesson $n: $(grep FAIL "$tmp/out" | head -3)"
[ "$failures" -eq 0 ] || { cat "$tmp/out" "$tmp/err"; exit 1; }
echo "lesson $n through its prompts: ok ($steps steps, $asked predictions, $exercises exercises)"
