#!/usr/bin/env bash
# Golden outputs (README.md here): the expected `clerk run --json` of the
# cases in cases.txt, compared byte for byte.
#
#   golden.sh check CLERK SOURCE_DIR NAME ENGINE   one case on one engine (a ctest each)
#   golden.sh regen CLERK SOURCE_DIR               writes every case's file (scripts/regen-golden)
#
# The filter, the one difference between the committed file and what clerk
# writes: clerk runs with --no-timing (no wall_s, the host-dependent figure),
# and the top-level "events" line is deleted: it counts the engine's own work
# (events processed, replaced timer occurrences included), not anything the
# model predicts, and issue 24's leaner engine changes it by design.
set -u
mode=${1:-} clerk=${2:-} src=${3:-}
if [ -z "$mode" ] || [ -z "$clerk" ] || [ -z "$src" ]; then
  echo "usage: golden.sh check CLERK SOURCE_DIR NAME ENGINE | golden.sh regen CLERK SOURCE_DIR" >&2
  exit 2
fi
src=$(cd "$src" && pwd)
dir=$src/tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Deletes the one top-level "events" line (dump(2) indents top-level keys by
# two spaces); fails when there is not exactly one, so a change of the JSON's
# shape cannot slip past the filter.
golden_filter() {  # in out
  local n
  n=$(grep -cE '^  "events": [0-9]+,$' "$1")
  if [ "$n" != 1 ]; then
    echo "golden: expected one top-level \"events\" line in clerk's JSON, found $n: update the filter in $0" >&2
    return 1
  fi
  if grep -q '"wall_s"' "$1"; then
    echo "golden: wall_s in the JSON despite --no-timing" >&2
    return 1
  fi
  sed -E '/^  "events": [0-9]+,$/d' "$1" >"$2"
}

# The case's arguments (everything after NAME and ENGINES), one a line.
case_args() {  # name
  awk -v n="$1" '$1 == n { for (i = 3; i <= NF; i++) print $i; exit }' "$dir/cases.txt"
}
case_engines() {  # name
  awk -v n="$1" '$1 == n { print $2; exit }' "$dir/cases.txt"
}
case_names() {
  awk '!/^#/ && NF >= 3 { print $1 }' "$dir/cases.txt"
}

# Runs one case on one engine and writes the filtered JSON to `out`.
run_case() {  # name engine out
  local name=$1 engine=$2 out=$3 args=()
  mapfile -t args < <(case_args "$name")
  if [ ${#args[@]} -eq 0 ]; then
    echo "golden: no case '$name' in $dir/cases.txt" >&2
    return 1
  fi
  if ! (cd "$src" && "$clerk" run "${args[@]}" --engine "$engine" --no-timing -q --json "$tmp/raw.json") \
       2>"$tmp/err"; then
    echo "golden: clerk run ${args[*]} --engine $engine failed:" >&2
    cat "$tmp/err" >&2
    return 1
  fi
  golden_filter "$tmp/raw.json" "$out"
}

build_dir=$(dirname "$(dirname "$clerk")")
regen_hint="regenerate with: scripts/regen-golden $build_dir   (then review the diff; the commit says why the output changed)"

case $mode in
  check)
    name=${4:-} engine=${5:-}
    want=$dir/$name.$engine.json
    run_case "$name" "$engine" "$tmp/got.json" || exit 1
    if [ ! -f "$want" ]; then
      echo "golden: no committed output $want"
      echo "$regen_hint"
      exit 1
    fi
    if ! cmp -s "$want" "$tmp/got.json"; then
      echo "golden: $name on the $engine engine differs from tests/golden/$name.$engine.json:"
      diff -u --label "tests/golden/$name.$engine.json (committed)" --label "clerk run (now)" \
        "$want" "$tmp/got.json" | head -n 300
      echo "$regen_hint"
      exit 1
    fi
    echo "golden: $name on the $engine engine: identical"
    ;;
  regen)
    failed=0 written=()
    for name in $(case_names); do
      for engine in $(case_engines "$name" | tr ',' ' '); do
        if run_case "$name" "$engine" "$tmp/got.json"; then
          cp "$tmp/got.json" "$dir/$name.$engine.json"
          written+=("$name.$engine.json")
          echo "golden: wrote tests/golden/$name.$engine.json"
        else
          failed=1
        fi
      done
    done
    for f in "$dir"/*.json; do
      [ -e "$f" ] || continue
      base=$(basename "$f")
      [[ " ${written[*]} " == *" $base "* ]] || echo "golden: $base is not a case (any more): remove it?" >&2
    done
    exit $failed
    ;;
  *)
    echo "golden.sh: unknown mode '$mode'" >&2
    exit 2
    ;;
esac
