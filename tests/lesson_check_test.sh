#!/usr/bin/env bash
# One lesson as CI checks it (issue 16): every claim its text makes holds for
# the run and every exercise's solution meets its goal (clerk lesson N
# --check), and its committed handouts (docs/lessons/) are what the lesson
# writes now, with the figures they show (scripts/regen-lessons rewrites them).
#   lesson_check_test.sh CLERK SOURCE_DIR N
set -u
clerk=$1 root=$2 n=$3
. "$(dirname "$0")/lib.sh"

expect_status 0 "lesson $n: every claim holds" "$clerk" lesson "$n" --lessons "$root/lessons" --handout "$tmp"
[ "$failures" -eq 0 ] || { cat "$tmp/out"; exit 1; }
for page in "$tmp"/*.md; do
  committed=$root/docs/lessons/$(basename "$page")
  [ -f "$committed" ] || { fail "lesson $n: $committed is not committed (scripts/regen-lessons build)"; continue; }
  cmp -s "$page" "$committed" || fail "lesson $n: $committed is stale (scripts/regen-lessons build): $(diff "$committed" "$page" | head -5)"
  # Every figure a handout shows is committed beside it (clerk-ui's captures).
  for figure in $(grep -o '(figures/[^)]*\.png)' "$page" | tr -d '()'); do
    [ -f "$root/docs/lessons/$figure" ] || fail "lesson $n: docs/lessons/$figure is not committed (scripts/regen-lessons build)"
  done
done
[ "$failures" -eq 0 ] || exit 1
